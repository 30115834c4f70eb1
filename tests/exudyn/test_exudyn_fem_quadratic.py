"""FEMinterface import of the 10-node tetrahedron and 20-node hexahedron blocks, against Exudyn 1.13.6."""
import numpy as np
import pytest

from exudyn_style_models import DATA
from floatframe.exudyn import FEM as ffFEM


def imported(fem_module, element):
    fem = fem_module.FEMinterface()
    positions = fem.ImportFromAbaqusInputFile(str(DATA / "block" / f"block{element}.inp"), typeName="Instance",
                                              name="block-1")
    fem.ReadMassMatrixFromAbaqus(str(DATA / "block" / f"block{element}_MASS1.mtx"))
    fem.ReadStiffnessMatrixFromAbaqus(str(DATA / "block" / f"block{element}_STIF1.mtx"))
    return fem, positions


@pytest.mark.parametrize("element, kind", [("C3D10", "Tet10"), ("C3D20", "Hex20")])
def test_quadratic_blocks_import_as_in_exudyn(shared_block_data, element, kind):
    """Same node positions, the same 0-based connectivity under the same key, the same matrices, and
    surface triangles over the same nodes (the layer splits boundary quads along the other diagonal)."""
    exudyn_fem = pytest.importorskip("exudyn.FEM")
    ours, our_positions = imported(ffFEM, element)
    theirs, their_positions = imported(exudyn_fem, element)
    np.testing.assert_array_equal(our_positions, their_positions)
    assert [key for key in ours.elements[0] if key != "Name"] == [kind]
    np.testing.assert_array_equal(ours.elements[0][kind], np.asarray(theirs.elements[0][kind]))
    for getter in ("GetMassMatrix", "GetStiffnessMatrix"):
        np.testing.assert_array_equal(getattr(ours, getter)(sparse=False), getattr(theirs, getter)(sparse=False))
    our_trigs, their_trigs = ours.surface[0]["Trigs"], np.asarray(theirs.surface[0]["Trigs"])
    assert our_trigs.shape == their_trigs.shape
    assert set(our_trigs.ravel()) == set(their_trigs.ravel())
    if kind == "Tet10":
        assert {frozenset(t) for t in our_trigs.tolist()} == {frozenset(t) for t in their_trigs.tolist()}
        assert {frozenset(t) for t in ours.surface[0]["Trigs6"].tolist()} == {
            frozenset(t) for t in np.asarray(theirs.surface[0]["Trigs6"]).tolist()}
    else:
        assert "Trigs6" not in ours.surface[0]


def test_tet10_six_node_triangles_follow_their_corners(shared_block_data):
    """Trigs6 row (a, b, c, m_ab, m_bc, m_ca): each further node on the middle of its edge."""
    fem, positions = imported(ffFEM, "C3D10")
    trigs6 = fem.surface[0]["Trigs6"]
    for mid, (a, b) in zip(range(3, 6), ((0, 1), (1, 2), (2, 0))):
        offsets = positions[trigs6[:, mid]] - 0.5 * (positions[trigs6[:, a]] + positions[trigs6[:, b]])
        assert np.abs(offsets).max() < 2e-7
