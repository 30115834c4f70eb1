"""The layer's graphics material list (``SC.renderer.materials``, kept and not rendered) against exudyn 1.13.6."""
import numpy as np
import pytest

from floatframe.exudyn._names import ExudynLayerError
from floatframe.exudyn._renderer_materials import MATERIAL_FIELDS, GraphicsMaterialList


def fields(material) -> dict:
    return {field: getattr(material, field) for field in MATERIAL_FIELDS}


def assert_same(mine, theirs):
    for field in MATERIAL_FIELDS:
        if field == "name":
            assert getattr(mine, field) == getattr(theirs, field)
        else:   # Exudyn stores floats
            np.testing.assert_allclose(getattr(mine, field), getattr(theirs, field), rtol=1e-7, err_msg=field)


@pytest.mark.exudyn
def test_defaults_get_set_append_and_reset_are_exudyns():
    exu = pytest.importorskip("exudyn")
    container = exu.SystemContainer()          # kept: its materials live in it
    theirs, mine = container.renderer.materials, GraphicsMaterialList()
    for index in range(10):
        assert_same(mine.Get(index), theirs.Get(index))
    assert_same(mine.New(), theirs.New())
    for materials in (theirs, mine):          # a script's pattern: get a copy, change it, set it back
        material = materials.Get(5)
        material.alpha = 0.5
        material.ior = 1.15
        assert materials.Get("shiny").alpha == 1.0       # Get gives a copy
        materials.Set(5, material)
        materials.Set(2, {"alpha": 0.25})                # a dict: the other fields as in a new material
        assert materials.Append(materials.New()) == 10
    for index in (2, 5, 10):
        assert_same(mine.Get(index), theirs.Get(index))
    theirs.Reset()
    mine.Reset()
    assert_same(mine.Get(5), theirs.Get(5))


def test_wrong_indices_names_and_fields_are_named():
    materials = GraphicsMaterialList()
    with pytest.raises(ExudynLayerError, match=r"index 10 is out of range \(0\.\.9\)"):
        materials.Get(10)
    with pytest.raises(ExudynLayerError, match=r"no material named 'gold'"):
        materials.Get("gold")
    with pytest.raises(ExudynLayerError, match=r"VSettingsMaterial has no field 'bogus'"):
        materials.Set(0, {"bogus": 1})
    assert fields(materials.Get("glass"))["ior"] == 1.5
