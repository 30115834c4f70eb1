"""Meshes from Netgen/NGSolve (floatframe.fem.ngsolve_mesh) and the Exudyn layer's
FEMinterface.ImportMeshFromNGsolve: the same nodes, elements, surface, node sets and matrices as Exudyn 1.13.6's,
and floatframe's own Tet4/Tet10 matrices on the imported mesh equal NGSolve's. Skipped where ngsolve is absent,
except the claim that its absence is an error naming the extra."""
import functools
import importlib.util
import sys

import numpy as np
import pytest

from floatframe.exudyn import FEM as layer_fem
from floatframe.exudyn import OutputVariableType
from floatframe.fem import linear_elastic_matrices
from floatframe.fem.mesh import EDGES
from floatframe.fem.ngsolve_mesh import boundary_node_sets, mesh_from_ngsolve
from floatframe.optional import MissingDependencyError

needs_ngsolve = pytest.mark.skipif(importlib.util.find_spec("ngsolve") is None, reason="ngsolve is not installed")
LENGTH, SIDE = 0.4, 0.1
STEEL = dict(density=7800.0, youngsModulus=2.1e11, poissonsRatio=0.3)


@functools.cache
def generated_box():
    """A 0.4 x 0.1 x 0.1 m box meshed by Netgen (maxh 0.05 m), end faces named 'left' and 'right'; meshed once,
    on first use (it takes seconds)."""
    from netgen.occ import Box, OCCGeometry, X

    box = Box((0, 0, 0), (LENGTH, SIDE, SIDE))
    box.faces.Min(X).name = "left"
    box.faces.Max(X).name = "right"
    return OCCGeometry(box).GenerateMesh(maxh=0.05)


def box_mesh():
    """A fresh copy of the box mesh as an ngsolve.Mesh."""
    import ngsolve

    return ngsolve.Mesh(generated_box().Copy())


def imported(order):
    fem = layer_fem.FEMinterface()
    fem.ImportMeshFromNGsolve(box_mesh(), meshOrder=order, **STEEL)
    return fem


@needs_ngsolve
@pytest.mark.parametrize("order, kind", [(1, "Tet4"), (2, "Tet10")])
def test_own_matrices_on_the_imported_mesh_equal_ngsolves(order, kind):
    fem = imported(order)
    mesh = fem._mesh
    assert list(mesh.elements) == [kind] and mesh.n_nodes == fem.NumberOfNodes()
    mass, stiffness = linear_elastic_matrices(mesh, STEEL["youngsModulus"], STEEL["poissonsRatio"], STEEL["density"])
    ngsolve_mass, ngsolve_stiffness = fem.GetMassMatrix(), fem.GetStiffnessMatrix()
    assert abs(stiffness - ngsolve_stiffness).max() < 1e-13 * abs(ngsolve_stiffness).max()
    assert abs(mass - ngsolve_mass).max() < 1e-13 * abs(ngsolve_mass).max()
    np.testing.assert_allclose(mass.sum() / 3, STEEL["density"] * LENGTH * SIDE * SIDE, rtol=1e-12)


@needs_ngsolve
def test_tetrahedra_are_positively_oriented_and_tet10_nodes_sit_on_their_edges():
    ngsolve_mesh = box_mesh()
    linear = mesh_from_ngsolve(ngsolve_mesh)
    assert linear.n_nodes == ngsolve_mesh.nv
    corners = linear.nodes[linear.elements["Tet4"]]
    volumes = np.linalg.det(corners[:, 1:] - corners[:, :1]) / 6
    assert volumes.min() > 0
    np.testing.assert_allclose(volumes.sum(), LENGTH * SIDE * SIDE, rtol=1e-12)
    ngsolve_mesh.ngmesh.SecondOrder()
    quadratic = mesh_from_ngsolve(ngsolve_mesh)
    tets = quadratic.elements["Tet10"]
    np.testing.assert_array_equal(tets[:, :4], linear.elements["Tet4"])
    for node, edge in enumerate(EDGES["Tet10"], start=4):
        np.testing.assert_allclose(quadratic.nodes[tets[:, node]], quadratic.nodes[tets[:, list(edge)]].mean(axis=1),
                                   atol=1e-15)


@needs_ngsolve
def test_boundary_node_sets_are_the_named_faces():
    ngsolve_mesh = box_mesh()
    mesh = mesh_from_ngsolve(ngsolve_mesh)
    sets = boundary_node_sets(ngsolve_mesh)
    assert set(sets) == {"left", "right", "default"}
    np.testing.assert_array_equal(sets["left"], np.flatnonzero(mesh.nodes[:, 0] < 1e-12))
    np.testing.assert_array_equal(sets["right"], np.flatnonzero(mesh.nodes[:, 0] > LENGTH - 1e-12))
    assert list(boundary_node_sets(ngsolve_mesh, ["right"])) == ["right"]


@needs_ngsolve
@pytest.mark.exudyn
@pytest.mark.parametrize("order", [1, 2])
def test_import_equals_exudyns_import_mesh_from_ngsolve(order):
    exudyn_fem = pytest.importorskip("exudyn.FEM")
    reference = exudyn_fem.FEMinterface()
    reference.ImportMeshFromNGsolve(box_mesh(), meshOrder=order, **STEEL)
    fem = imported(order)
    np.testing.assert_array_equal(fem.nodes["Position"], reference.nodes["Position"])
    np.testing.assert_array_equal(fem.elements[0]["Tet4"], reference.elements[0]["Tet4"])
    assert abs(fem.GetStiffnessMatrix() - reference.GetStiffnessMatrix()).max() == 0.0
    assert abs(fem.GetMassMatrix() - reference.GetMassMatrix()).max() == 0.0
    for key in ("Trigs", "Trigs6") if order == 2 else ("Trigs",):
        np.testing.assert_array_equal(fem.surface[0][key], np.asarray(reference.surface[0][key]))
    assert [s["Name"] for s in fem.nodeSets] == [s["Name"] for s in reference.nodeSets]
    for ours, theirs in zip(fem.nodeSets, reference.nodeSets):
        order_ours, order_theirs = np.argsort(ours["NodeNumbers"]), np.argsort(theirs["NodeNumbers"])
        np.testing.assert_array_equal(ours["NodeNumbers"][order_ours], np.asarray(theirs["NodeNumbers"])[order_theirs])
        np.testing.assert_allclose(ours["NodeWeights"][order_ours], np.asarray(theirs["NodeWeights"])[order_theirs],
                                   rtol=1e-12)
    assert fem.metaData["source"] == "NGsolve"


@needs_ngsolve
def test_materials_by_region_give_the_single_material_matrices():
    fem = layer_fem.FEMinterface()
    fem.ImportMeshFromNGsolve(box_mesh(), materials={"default": STEEL})
    single = imported(1)
    assert abs(fem.GetStiffnessMatrix() - single.GetStiffnessMatrix()).max() == 0.0
    with pytest.raises(ValueError, match='if arg "materials" is defined'):
        fem.ImportMeshFromNGsolve(box_mesh(), materials={"default": STEEL}, density=1.0)
    with pytest.raises(ValueError, match='mesh contains material "default"'):
        fem.ImportMeshFromNGsolve(box_mesh(), materials={"steel": STEEL})


@needs_ngsolve
def test_second_order_import_gives_stress_modes_at_the_mid_edge_nodes_too():
    fem = imported(2)
    fem.ComputeEigenmodes(4, excludeRigidBodyModes=6)
    fem.ComputePostProcessingModes(layer_fem.KirchhoffMaterial(2.1e11, 0.3, 7800.0), OutputVariableType.StressLocal)
    matrix = fem.postProcessingModes["matrix"]
    assert matrix.shape == (fem.NumberOfNodes(), 24)
    assert np.abs(matrix).max(axis=1).min() > 0.0     # Exudyn's Tet4 averaging leaves the mid-edge nodes at zero


def test_missing_ngsolve_names_the_extra(monkeypatch):
    for name in [name for name in sys.modules if name.split(".")[0] in ("netgen", "ngsolve")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "netgen.meshing", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'floatframe\[ngsolve\]'"):
        mesh_from_ngsolve(object())
    with pytest.raises(MissingDependencyError, match="'ngsolve'"):
        layer_fem.FEMinterface().ImportMeshFromNGsolve(object(), **STEEL)
