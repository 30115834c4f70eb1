"""Skip the Exudyn-layer tests that need the shared reference data where it is absent."""
import pytest

from exudyn_style_models import DATA


@pytest.fixture
def shared_rotor_data():
    if not (DATA / "rotorDisc").is_dir():
        pytest.skip(f"reference data not found at {DATA / 'rotorDisc'}")


@pytest.fixture
def shared_block_data():
    if not (DATA / "block").is_dir():
        pytest.skip(f"reference data not found at {DATA / 'block'}")
