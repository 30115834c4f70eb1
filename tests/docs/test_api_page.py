"""Claims about the API reference (docs/api.md): every public top-level name of floatframe is documented, either
there (rendered from its docstring) or, for the components, in the generated component catalogue."""
import re
from pathlib import Path

import floatframe as ff
from floatframe import catalogue

API = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_every_top_level_name_is_in_the_api_page_or_the_catalogue():
    entries = {name.split(".")[-1] for name in re.findall(r"^::: ([\w.]+)", API.read_text(), re.M)}
    catalogued = {cls.__name__ for cls in catalogue.component_classes()}
    missing = [name for name in ff.__all__ if name not in entries | catalogued]
    assert not missing, f"public names without an API entry or catalogue section: {missing}"


def test_every_api_entry_names_something_that_exists():
    import importlib

    for reference in re.findall(r"^::: ([\w.]+)", API.read_text(), re.M):
        module, _, name = reference.rpartition(".")
        try:
            importlib.import_module(reference)
        except ImportError:
            assert hasattr(importlib.import_module(module), name), reference
