"""Free-free eigenmodes (floatframe.fem.modes): what they solve, how they are normalised, that the
rigid-body modes are gone, that the basis is canonical where eigenvalues repeat, and the errors."""
import numpy as np
import pytest
import scipy.linalg
import scipy.sparse as sp

from floatframe.components.base import ModelError
from floatframe.fem import (add_node_mass, block_mesh, canonical_basis, eigenmodes, linear_elastic_matrices,
                            read_abaqus_inp, read_abaqus_mtx, rigid_body_modes)


@pytest.fixture(scope="module")
def square_beam():
    """A 1 m steel beam of square section: its bending frequencies come in equal pairs."""
    mesh = block_mesh(1.0, 0.1, 0.1, 10, 2, 2)
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=2.1e11, poissons_ratio=0.3, density=7850)
    return mesh, mass, stiffness


def test_modes_solve_the_generalised_eigenproblem_and_are_mass_normalised(square_beam):
    _, mass, stiffness = square_beam
    modes = eigenmodes(mass, stiffness, 10)
    psi = modes.vectors
    np.testing.assert_allclose(psi.T @ (mass @ psi), np.eye(10), atol=1e-10)
    np.testing.assert_allclose(psi.T @ (stiffness @ psi), np.diag(modes.eigenvalues),
                               atol=1e-9 * modes.eigenvalues.max())
    residual = stiffness @ psi - (mass @ psi) * modes.eigenvalues
    assert np.abs(residual).max() <= 1e-8 * np.abs(stiffness @ psi).max()
    np.testing.assert_allclose(modes.frequencies_hz, np.sqrt(modes.eigenvalues) / (2 * np.pi), rtol=1e-15)


def test_rigid_body_modes_are_removed(square_beam):
    mesh, mass, stiffness = square_beam
    modes = eigenmodes(mass, stiffness, 10)
    assert modes.eigenvalues.min() > 1e3          # the lowest elastic omega^2; rigid ones are ~0
    overlap = rigid_body_modes(mesh.nodes).T @ (mass @ modes.vectors)
    assert np.abs(overlap).max() < 1e-9 * np.abs(rigid_body_modes(mesh.nodes)).max()


def test_the_first_bending_pair_converges_from_above_toward_euler_bernoulli(square_beam):
    """Free-free beam: omega_1 = 4.7300^2 sqrt(E I / (rho A L^4)). Conforming elements give upper bounds
    that fall under refinement (Rayleigh-Ritz on nested meshes); 20 elements are within 5 % of the beam
    theory (shear and the 3D section make the continuum slightly softer than Euler-Bernoulli)."""
    _, mass, stiffness = square_beam
    coarse = eigenmodes(mass, stiffness, 2).frequencies_hz
    fine_mesh = block_mesh(1.0, 0.1, 0.1, 20, 2, 2)
    fine = eigenmodes(*linear_elastic_matrices(fine_mesh, youngs_modulus=2.1e11, poissons_ratio=0.3,
                                               density=7850), 2).frequencies_hz
    side, length = 0.1, 1.0
    beam_theory = 4.730040745 ** 2 * np.sqrt(2.1e11 * side ** 4 / 12 / (7850 * side ** 2 * length ** 4)) / (2 * np.pi)
    assert coarse[0] == pytest.approx(coarse[1], rel=1e-9)
    assert coarse[0] > fine[0] > 0.95 * beam_theory
    assert fine[0] == pytest.approx(beam_theory, rel=0.05)


def test_sparse_and_dense_solvers_give_the_same_basis(square_beam):
    _, mass, stiffness = square_beam
    dense = eigenmodes(mass, stiffness, 12, solver="dense")
    sparse = eigenmodes(mass, stiffness, 12, solver="sparse")
    np.testing.assert_allclose(sparse.eigenvalues, dense.eigenvalues, rtol=1e-10)
    np.testing.assert_allclose(sparse.vectors, dense.vectors, atol=1e-9 * np.abs(dense.vectors).max())


def test_repeated_eigenvalues_give_one_basis_whatever_the_solver_returned(square_beam):
    """Rotating the vectors within each eigenspace (as another solver run may) changes nothing."""
    _, mass, stiffness = square_beam
    modes = eigenmodes(mass, stiffness, 6)
    pair = np.flatnonzero(np.isclose(modes.eigenvalues, modes.eigenvalues[0], rtol=1e-9))
    assert pair.size == 2
    angle = 0.7
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    scrambled = modes.vectors.copy()
    scrambled[:, pair] = scrambled[:, pair] @ rotation
    scrambled[:, 2] *= -1.0
    again = canonical_basis(scrambled, modes.eigenvalues, mass)
    np.testing.assert_allclose(again, modes.vectors, atol=1e-12)


def test_a_supported_mesh_is_not_taken_for_a_free_one(square_beam):
    """The end face x = 0 held by stiff springs: no rigid-body modes, and asking for 6 is an error."""
    mesh, mass, stiffness = square_beam
    held = np.zeros(stiffness.shape[0])
    for node in mesh.nodes_in_plane((0.0, 0.0, 0.0), (1.0, 0.0, 0.0)):
        held[3 * node:3 * node + 3] = 1e11
    supported_stiffness = (stiffness + sp.diags(held)).tocsr()
    with pytest.raises(ModelError, match="not zero to round-off"):
        eigenmodes(mass, supported_stiffness, 4, n_rigid_body_modes=6)
    supported = eigenmodes(mass, supported_stiffness, 4, n_rigid_body_modes=0, solver="dense")
    reference = scipy.linalg.eigh(supported_stiffness.toarray(), mass.toarray(), eigvals_only=True)[:4]
    # two LAPACK drivers on a penalised K (entries up to 1e11 for omega^2 ~ 4e5) agree to ~2e-10
    np.testing.assert_allclose(supported.eigenvalues, reference, rtol=1e-9)


def test_a_mechanism_is_not_taken_for_rigid_body_motion(square_beam):
    """Two separate beams have 12 zero modes: removing 6 leaves zeros, which is refused."""
    _, mass, stiffness = square_beam
    with pytest.raises(ModelError, match="zero-frequency modes, more than 6"):
        eigenmodes(sp.block_diag([mass, mass]).tocsr(), sp.block_diag([stiffness, stiffness]).tocsr(), 4)


@pytest.mark.parametrize("arguments, fault", [
    (dict(n_modes=400), "only 297 coordinates"),
    (dict(n_modes=0), "at least 1"),
    (dict(n_modes=4, solver="lapack"), "solver must be"),
])
def test_bad_requests_are_refused(square_beam, arguments, fault):
    _, mass, stiffness = square_beam
    with pytest.raises(ModelError, match=fault):
        eigenmodes(mass, stiffness, **arguments)


def test_mismatched_or_non_finite_matrices_are_refused(square_beam):
    _, mass, stiffness = square_beam
    with pytest.raises(ModelError, match="differ in shape"):
        eigenmodes(mass[:-3, :-3], stiffness, 4)
    broken = stiffness.copy()
    broken.data[0] = np.nan
    with pytest.raises(ModelError, match="NaN or inf"):
        eigenmodes(mass, broken, 4)


@pytest.mark.exudyn
def test_rotor_disc_frequencies_match_exudyn(shared_data):
    """Exudyn's FEMinterface.ComputeEigenmodes on the rotor-disc data, with the unbalance mass."""
    exudyn_fem = pytest.importorskip("exudyn.FEM")
    folder = shared_data / "rotorDisc"
    mesh = read_abaqus_inp(folder / "rotorDiscTest.inp", instance="rotor-1")
    mass = read_abaqus_mtx(folder / "rotorDiscTestMASS1.mtx")
    stiffness = 1e-2 * read_abaqus_mtx(folder / "rotorDiscTestSTIF1.mtx")
    unbalance_node = mesh.node_at_point((0.0, 0.19598444, 0.15), tol=1e-5)
    mass = add_node_mass(mass, unbalance_node, 0.1)
    ours = eigenmodes(mass, stiffness, 8)

    fem = exudyn_fem.FEMinterface()
    fem.ImportFromAbaqusInputFile(str(folder / "rotorDiscTest.inp"), typeName="Instance", name="rotor-1")
    fem.ReadMassMatrixFromAbaqus(str(folder / "rotorDiscTestMASS1.mtx"))
    fem.ReadStiffnessMatrixFromAbaqus(str(folder / "rotorDiscTestSTIF1.mtx"))
    fem.ScaleStiffnessMatrix(1e-2)
    fem.AddNodeMass(unbalance_node, 0.1)
    fem.ComputeEigenmodes(8, excludeRigidBodyModes=6, useSparseSolver=True)
    np.testing.assert_allclose(ours.frequencies_hz, fem.GetEigenFrequenciesHz(), rtol=1e-8)
    # the same eigenspace: Exudyn's vectors lie in the span of ours (M-orthogonal projection)
    theirs = fem.modeBasis["matrix"]
    projection = ours.vectors @ (ours.vectors.T @ (mass @ theirs))
    assert np.abs(projection - theirs).max() < 1e-6 * np.abs(theirs).max()
