"""The reference-data fixture; small models are in model_helpers.py."""
from pathlib import Path

import pytest

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data():
    """The reference data folder; the test is skipped where it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"reference data not found at {SHARED_DATA}")
    return SHARED_DATA



@pytest.fixture(scope="session", autouse=True)
def isolated_kernel_cache(tmp_path_factory):
    """Compiled solver kernels go to a fresh folder for the whole run, not to ~/.cache/floatframe: no test
    depends on (or fills) the user's cache."""
    import os

    previous = os.environ.get("FLOATFRAME_CACHE")
    os.environ["FLOATFRAME_CACHE"] = str(tmp_path_factory.mktemp("kernels"))
    yield
    if previous is None:
        os.environ.pop("FLOATFRAME_CACHE")
    else:
        os.environ["FLOATFRAME_CACHE"] = previous
