"""FEMinterface.ComputeEigenmodesNGsolve against exudyn 1.13.6 on a small Netgen bar (skipped without ngsolve or
exudyn).

Claims: from the bilinear forms that ImportMeshFromNGsolve returns, the eigenvalues equal exudyn's to 1e-8 (exudyn
given enough iterations of its inverse iteration to converge), the mode shapes span the same spaces (equal up to
sign for single eigenvalues, the same subspace for the six rigid-body modes), mass-normalised; with
excludeRigidBodyModes=0 the six rigid-body modes come first with |omega^2| at round-off; our result does not depend
on maxEigensolveIterations; a free mesh with 3 of its 6 rigid-body modes excluded is refused; forms of a scalar
space or of two spaces are refused with a message naming them; the node positions used to deflate the rigid-body
modes are the mesh's nodes (none for a hierarchical space)."""
import functools

import numpy as np
import pytest

ngsolve = pytest.importorskip("ngsolve")
exudyn_fem = pytest.importorskip("exudyn.FEM")

import floatframe.exudyn.FEM as layer_fem  # noqa: E402

STEEL = (7800.0, 2.1e11, 0.3)          # density, Young's modulus, Poisson's ratio
CONVERGED_ITERATIONS = 100             # exudyn's inverse iteration reaches round-off on these meshes


@pytest.fixture(autouse=True, scope="module")
def one_ngsolve_thread():
    """NGSolve's task manager on one thread: on a busy machine its waiting threads make exudyn's inverse iteration
    take seconds to minutes instead of 0.1 s."""
    threads = ngsolve.GetNumThreads()
    ngsolve.SetNumThreads(1)
    yield
    ngsolve.SetNumThreads(threads)


@functools.cache
def bar_mesh():
    """A 0.3 x 0.05 x 0.03 m bar (unequal sides: no repeated bending frequencies), maxh 0.03 m."""
    from netgen.occ import Box, OCCGeometry

    return OCCGeometry(Box((0, 0, 0), (0.3, 0.05, 0.03))).GenerateMesh(maxh=0.03)


def imported(module, order):
    fem = module.FEMinterface()
    forms = fem.ImportMeshFromNGsolve(ngsolve.Mesh(bar_mesh().Copy()), *STEEL, meshOrder=order)
    return fem, forms


def clusters(eigenvalues, gap=1e-4):
    """Index groups of consecutive eigenvalues closer than ``gap`` relative to the largest."""
    breaks = np.flatnonzero(np.diff(eigenvalues) > gap * abs(eigenvalues).max()) + 1
    return np.split(np.arange(eigenvalues.size), breaks)


def assert_same_modes(ours, theirs, mass, eigenvalues):
    """Both bases mass-normalised; within each cluster the M-inner products of ours with exudyn's form an
    orthogonal matrix (equal up to sign for a single mode, the same subspace for a group)."""
    for basis in (ours, theirs):
        assert abs(basis.T @ (mass @ basis) - np.eye(basis.shape[1])).max() < 1e-8
    for group in clusters(eigenvalues):
        products = ours[:, group].T @ (mass @ theirs[:, group])
        assert np.allclose(np.linalg.svd(products, compute_uv=False), 1.0, atol=1e-7, rtol=0), group


@pytest.mark.parametrize("order", [1, 2])
def test_elastic_eigenmodes_equal_exudyns(order):
    ours, (bf_mass, bf_stiffness, _) = imported(layer_fem, order)
    theirs, (their_mass, their_stiffness, _) = imported(exudyn_fem, order)
    ours.ComputeEigenmodesNGsolve(bf_mass, bf_stiffness, nModes=8, excludeRigidBodyModes=6)
    theirs.ComputeEigenmodesNGsolve(their_mass, their_stiffness, nModes=8, excludeRigidBodyModes=6,
                                    maxEigensolveIterations=CONVERGED_ITERATIONS)
    reference = np.asarray(theirs.eigenValues)
    assert reference.min() > 1e7                                   # elastic modes only
    np.testing.assert_allclose(ours.eigenValues, reference, rtol=1e-8, atol=0)
    np.testing.assert_allclose(ours.GetEigenFrequenciesHz(), theirs.GetEigenFrequenciesHz(), rtol=1e-8, atol=0)
    assert ours.modeBasis["type"] == theirs.modeBasis["type"] == "NormalModes"
    assert ours.modeBasis["matrix"].shape == theirs.modeBasis["matrix"].shape == (bf_mass.space.ndof, 8)
    assert_same_modes(ours.modeBasis["matrix"], theirs.modeBasis["matrix"], ours.GetMassMatrix(), reference)


def test_rigid_body_modes_are_kept_without_exclusion():
    ours, (bf_mass, bf_stiffness, _) = imported(layer_fem, 1)
    theirs, (their_mass, their_stiffness, _) = imported(exudyn_fem, 1)
    ours.ComputeEigenmodesNGsolve(bf_mass, bf_stiffness, nModes=9)
    theirs.ComputeEigenmodesNGsolve(their_mass, their_stiffness, nModes=9,
                                    maxEigensolveIterations=CONVERGED_ITERATIONS)
    mine, reference = np.asarray(ours.eigenValues), np.asarray(theirs.eigenValues)
    assert mine.shape == reference.shape == (9,)
    assert np.all(mine >= 0)                                      # |omega^2| as exudyn stores them
    assert mine[:6].max() < 1e-9 * mine[6] and reference[:6].max() < 1e-9 * reference[6]
    np.testing.assert_allclose(mine[6:], reference[6:], rtol=1e-8, atol=0)
    # the rigid-body block as one cluster, then the three elastic modes one by one
    grouped = np.concatenate([np.zeros(6), reference[6:]])
    assert_same_modes(ours.modeBasis["matrix"], theirs.modeBasis["matrix"], ours.GetMassMatrix(), grouped)
    elastic = imported(layer_fem, 1)[0]
    elastic.ComputeEigenmodesNGsolve(bf_mass, bf_stiffness, nModes=3, excludeRigidBodyModes=6)
    np.testing.assert_allclose(elastic.eigenValues, mine[6:], rtol=1e-12, atol=0)


def test_a_free_mesh_with_a_part_of_its_rigid_body_modes_excluded_is_refused():
    from floatframe.errors import ModelError

    ours, (bf_mass, bf_stiffness, _) = imported(layer_fem, 1)
    with pytest.raises(ModelError, match="zero-frequency modes, more than 3"):
        ours.ComputeEigenmodesNGsolve(bf_mass, bf_stiffness, nModes=4, excludeRigidBodyModes=3)


def test_result_does_not_depend_on_the_iteration_count():
    ours, (bf_mass, bf_stiffness, _) = imported(layer_fem, 1)
    ours.ComputeEigenmodesNGsolve(bf_mass, bf_stiffness, 4, maxEigensolveIterations=2, excludeRigidBodyModes=6)
    few_values, few_modes = ours.eigenValues.copy(), ours.modeBasis["matrix"].copy()
    ours.ComputeEigenmodesNGsolve(bf_mass, bf_stiffness, 4, excludeRigidBodyModes=6)
    np.testing.assert_array_equal(ours.eigenValues, few_values)
    np.testing.assert_array_equal(ours.modeBasis["matrix"], few_modes)


def test_forms_of_a_scalar_space_or_of_two_spaces_are_refused():
    ours, (bf_mass, bf_stiffness, _) = imported(layer_fem, 1)
    space = ngsolve.H1(ngsolve.Mesh(bar_mesh().Copy()), order=1)
    u, v = space.TnT()
    scalar_mass, scalar_stiffness = ngsolve.BilinearForm(space), ngsolve.BilinearForm(space)
    scalar_mass += u * v * ngsolve.dx
    scalar_stiffness += ngsolve.grad(u) * ngsolve.grad(v) * ngsolve.dx
    scalar_mass.Assemble()
    scalar_stiffness.Assemble()
    with pytest.raises(layer_fem.ExudynLayerError, match="ComputeEigenmodesNGsolve: the space of bfK has 1 comp"):
        ours.ComputeEigenmodesNGsolve(scalar_mass, scalar_stiffness, 4)
    with pytest.raises(layer_fem.ExudynLayerError, match=f"ComputeEigenmodesNGsolve: bfM has {space.ndof} coord"):
        ours.ComputeEigenmodesNGsolve(scalar_mass, bf_stiffness, 4)


@pytest.mark.parametrize("order", [1, 2])
def test_node_positions_of_the_imported_space_deflate_the_rigid_body_modes(order):
    """The positions from which the six rigid-body modes of a free mesh are deflated (for large meshes) are the
    mesh's nodes, in the order of the space's coordinates; a hierarchical space (VectorH1 of order 2, whose edge
    coordinates are no nodal displacements) gives none, and its eigenmodes are then computed without deflation."""
    ours, (bf_mass, bf_stiffness, space) = imported(layer_fem, order)
    stiffness = ours.GetStiffnessMatrix()
    positions = layer_fem._space_node_positions(space, stiffness)
    np.testing.assert_allclose(positions, ours.nodes["Position"], rtol=0, atol=1e-14)
    hierarchical = ngsolve.VectorH1(space.mesh, order=2)
    u, v = hierarchical.TnT()
    form = ngsolve.BilinearForm(hierarchical)
    form += ngsolve.InnerProduct(ngsolve.Sym(ngsolve.Grad(u)), ngsolve.Sym(ngsolve.Grad(v))) * ngsolve.dx  # K R = 0
    form.Assemble()
    matrix = layer_fem.FEMinterface._interleaved(layer_fem._ngsolve_form_matrix(form, "bfK", hierarchical.ndof))
    assert layer_fem._space_node_positions(hierarchical, matrix) is None
