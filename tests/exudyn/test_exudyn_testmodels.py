"""Exudyn's own test models (TestModels in its public repository), vendored in testmodels/ with only their import
lines changed (``exudyn`` -> ``floatframe.exudyn``), run as Exudyn's test suite runs them: from a folder with the
rotor-disc data in testData/ (where it is present), and a ``modelUnitTests.exudynTestGlobals`` that switches
graphics off.

Claims: each computes the test result that exudyn 1.13.6 computes from the same script on this machine."""
import contextlib
import io
import os
import re
import runpy
import sys
import types
from pathlib import Path

import pytest

from exudyn_style_models import DATA

TEST_MODELS = Path(__file__).parent / "testmodels"


def run_test_model(name, tmp_path, package="floatframe", replace=None):
    """Run test model ``name``; returns (testResult, the printed text). ``package='exudyn'`` runs the script
    with its original imports on exudyn; ``replace`` {old: new} edits further lines (for derived runs)."""
    text = (TEST_MODELS / f"{name}.py").read_text()
    for old, new in (replace or {}).items():
        assert old in text, old
        text = text.replace(old, new)
    if package == "exudyn":
        pytest.importorskip("exudyn")
        text = re.sub(r"^(import|from) floatframe\.exudyn", r"\1 exudyn", text, flags=re.MULTILINE)
    folder = tmp_path / (package + ("_derived" if replace else ""))
    (folder / "testData").mkdir(parents=True)
    for file in (DATA / "rotorDisc").iterdir() if (DATA / "rotorDisc").is_dir() else ():
        os.symlink(file, folder / "testData" / file.name)
    script = folder / f"{name}.py"
    script.write_text(text)
    test_globals = types.SimpleNamespace(useGraphics=False, performTests=True)
    previous = sys.modules.get("modelUnitTests")
    sys.modules["modelUnitTests"] = types.SimpleNamespace(exudynTestGlobals=test_globals)
    cwd, printed = os.getcwd(), io.StringIO()
    try:
        os.chdir(folder)
        with contextlib.redirect_stdout(printed):
            runpy.run_path(str(script), run_name="__main__")
    finally:
        os.chdir(cwd)
        if previous is None:
            sys.modules.pop("modelUnitTests")
        else:
            sys.modules["modelUnitTests"] = previous
    return float(test_globals.testResult), printed.getvalue()


def printed_solution(text):
    """The number after 'solution of ...=' in what the script printed."""
    return float(re.search(r"solution of \S+\s*=\s*(\S+)", text).group(1))


@pytest.mark.exudyn
@pytest.mark.parametrize("name, result_scale", [
    ("objectFFRFreducedOrderTest", 0.01),              # native FFRF terms (AddObjectFFRFreducedOrder)
    ("objectFFRFreducedOrderAccelerations", 0.1 / 61576.266114362006),  # CMS user functions
])
def test_reduced_order_test_model_prints_what_exudyn_computes(shared_rotor_data, tmp_path, name, result_scale):
    ours, printed = run_test_model(name, tmp_path)
    reference, _ = run_test_model(name, tmp_path, package="exudyn")
    assert ours == pytest.approx(reference, rel=1e-8)
    assert printed_solution(printed) * result_scale == pytest.approx(ours, rel=1e-12)


@pytest.mark.exudyn
@pytest.mark.slow
def test_the_reduced_rotor_stays_on_exudyns_trajectory_for_6000_steps(shared_rotor_data, tmp_path):
    """objectFFRFreducedOrderTest run to 0.6 s instead of 0.01 s. Before the grid round-off fix
    (solvers/result.py, steps_per_interval) floatframe split intervals into half steps from t = 0.125 s on
    and its spin was 0.5 % off Exudyn's by 0.6 s; now the sum agrees to 1e-9."""
    longer = {"tEnd = 0.01": "tEnd = 0.6"}
    ours, _ = run_test_model("objectFFRFreducedOrderTest", tmp_path, replace=longer)
    reference, _ = run_test_model("objectFFRFreducedOrderTest", tmp_path, package="exudyn", replace=longer)
    assert ours == pytest.approx(reference, rel=1e-9)


@pytest.mark.exudyn
@pytest.mark.parametrize("name", [
    "springDamperUserFunctionTest",      # CoordinateSpringDamper with springForceUserFunction, SensorLoad
])
def test_mechanism_test_model_computes_what_exudyn_computes(tmp_path, name):
    ours, _ = run_test_model(name, tmp_path)
    reference, _ = run_test_model(name, tmp_path, package="exudyn")
    assert ours == pytest.approx(reference, rel=1e-8)
