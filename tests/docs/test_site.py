"""The documentation site builds with ``mkdocs build --strict`` (no broken link, no docstring mkdocstrings
cannot read), and the generated and included parts are in it."""
import os
import subprocess
import sys
from pathlib import Path

from floatframe import catalogue

ROOT = Path(__file__).resolve().parents[2]


def test_site_builds_strictly(tmp_path):
    site = tmp_path / "site"
    environment = dict(os.environ, NO_MKDOCS_2_WARNING="1",
                       PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    completed = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                               cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stdout[-2000:] + completed.stderr[-4000:]
    page = (site / "catalogue" / "index.html").read_text()
    for cls in catalogue.component_classes():
        assert f'id="{cls.__name__.lower()}"' in page, cls.__name__
    tutorial = (site / "tutorial" / "flexible" / "index.html").read_text()
    assert "add_hinge_load_and_sensor" in tutorial             # the script itself is on the page
    assert "Conventions" in (site / "conventions" / "index.html").read_text()
    assert "0.1.0" in (site / "changelog" / "index.html").read_text()
