"""CHANGELOG.md keeps the Keep a Changelog form, and its newest version is the package's version."""
import re
import tomllib
from datetime import date
from pathlib import Path

import floatframe

ROOT = Path(__file__).resolve().parents[2]
HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\](?: - (?P<date>\d{4}-\d{2}-\d{2}))?\s*$", re.MULTILINE)


def released():
    """[(version tuple, version text, date)] of the released versions, newest first as written."""
    text = (ROOT / "CHANGELOG.md").read_text()
    entries = []
    for match in HEADING.finditer(text):
        if match["version"] == "Unreleased":
            continue
        assert match["date"], f"version {match['version']} has no date"
        assert re.fullmatch(r"\d+\.\d+\.\d+", match["version"]), match["version"]
        entries.append((tuple(map(int, match["version"].split("."))), match["version"],
                        date.fromisoformat(match["date"])))
    return entries


def test_changelog_form():
    text = (ROOT / "CHANGELOG.md").read_text()
    assert text.startswith("# Changelog\n")
    headings = HEADING.findall(text)
    assert headings[0][0] == "Unreleased"
    entries = released()
    assert len(entries) >= 2
    assert [entry[0] for entry in entries] == sorted((entry[0] for entry in entries), reverse=True)
    assert [entry[2] for entry in entries] == sorted((entry[2] for entry in entries), reverse=True)
    sections = set(re.findall(r"^### (\w+)", text, flags=re.MULTILINE))
    assert sections <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def test_newest_version_is_the_package_version():
    assert released()[0][1] == floatframe.__version__
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    version = project["project"].get("version")
    if version is None:
        assert "version" in project["project"]["dynamic"]
        assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "floatframe.__version__"}
    else:
        assert version == floatframe.__version__
