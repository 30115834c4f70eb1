"""Free-free eigenmodes (floatframe.fem.modes): what they solve, how they are normalised, that the
rigid-body modes are gone, that the basis is canonical where eigenvalues repeat, and the errors.
Craig-Bampton bases: exact static condensation for interface loads, rigid (RBE2) or mean-constrained
(RBE3) interfaces, fixed-interface modes, convergence toward the free-free frequencies, and the errors."""
import os
import subprocess
import sys

import numpy as np
import pytest
import scipy.linalg
import scipy.sparse as sp

from floatframe.components.base import ModelError
from floatframe.components.ffrf_reduced import ReducedOrderInvariants
from floatframe.linalg import positive_definite_solve, typical_eigenvalue
from floatframe.fem import (Mesh, add_node_mass, block_mesh, canonical_basis, craig_bampton_modes, eigenmodes,
                            linear_elastic_matrices, read_abaqus_inp, read_abaqus_mtx, rigid_body_modes)


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


# --- Craig-Bampton ----------------------------------------------------------------------------------
def end_faces(mesh):
    """The node sets of the beam's end faces x = 0 and x = 1 (9 nodes each)."""
    return [mesh.nodes_in_plane((0.0, 0.0, 0.0), (1.0, 0.0, 0.0)), mesh.nodes_in_plane((1.0, 0.0, 0.0), (1.0, 0.0, 0.0))]


def coordinates_of(nodes):
    return (3 * np.asarray(nodes)[:, None] + np.arange(3)).reshape(-1)


def mean_motion_rows(mesh, nodes):
    """C (6, n_f): mean displacement and mean (x_j - p0) x u_j of the nodes, equal weights."""
    offsets = mesh.nodes[nodes] - mesh.nodes[nodes].mean(axis=0)
    rows = np.zeros((6, mesh.n_coordinates))
    for node, p in zip(nodes, offsets):
        rows[:3, 3 * node:3 * node + 3] = np.eye(3) / len(nodes)
        rows[3:, 3 * node:3 * node + 3] = np.array([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]]) / len(nodes)
    return rows


def rigid_fit(positions, displacements):
    """Least-squares u_j = a + b x x_j: returns (a, b) and the largest residual."""
    n = positions.shape[0]
    design = np.zeros((3 * n, 6))
    for j, x in enumerate(positions):
        design[3 * j:3 * j + 3, :3] = np.eye(3)
        design[3 * j:3 * j + 3, 3:] = -np.array([[0, -x[2], x[1]], [x[2], 0, -x[0]], [-x[1], x[0], 0]])
    solution, *_ = np.linalg.lstsq(design, displacements, rcond=None)
    return solution, np.abs(design @ solution - displacements).max()


def test_rbe2_static_modes_move_each_interface_rigidly_and_leave_the_interior_force_free(square_beam):
    mesh, mass, stiffness = square_beam
    faces = end_faces(mesh)
    basis = craig_bampton_modes(mass, stiffness, mesh.nodes, faces, 4, variant="RBE2")
    assert (basis.kind, basis.n_static, basis.n_modes) == ("craig-bampton RBE2", 6, 10)
    static = basis.vectors[:, :6]
    motion, residual = rigid_fit(mesh.nodes[faces[1]], static[coordinates_of(faces[1])])
    assert residual < 1e-12
    assert abs(np.linalg.det(motion)) > 1e-3      # the 6 columns are 6 independent rigid motions
    np.testing.assert_array_equal(static[coordinates_of(faces[0])], 0.0)   # the first face is held
    interior = np.setdiff1d(np.arange(mesh.n_coordinates), coordinates_of(np.concatenate(faces)))
    assert np.abs((stiffness @ static)[interior]).max() < 1e-12 * np.abs(stiffness).max()
    np.testing.assert_allclose(basis.eigenvalues[:6], np.einsum("ij,ij->j", static, stiffness @ static)
                               / np.einsum("ij,ij->j", static, mass @ static), rtol=1e-12)


def test_coordinate_static_modes_are_unit_boundary_displacements_with_a_force_free_interior(square_beam):
    """variant "coordinates" (the original Craig-Bampton form, Exudyn's allBoundaryNodes): one column per
    boundary coordinate, the identity on the boundary, K psi = 0 in the interior; together they span the
    rigid-body motions; then the eigenmodes of the held mesh, as for RBE2. "none" keeps those only."""
    mesh, mass, stiffness = square_beam
    faces = end_faces(mesh)
    boundary = coordinates_of(np.concatenate(faces))
    basis = craig_bampton_modes(mass, stiffness, mesh.nodes, faces, 3, variant="coordinates")
    assert (basis.kind, basis.n_static, basis.n_modes) == ("craig-bampton coordinates", boundary.size,
                                                           boundary.size + 3)
    static = basis.vectors[:, :boundary.size]
    np.testing.assert_array_equal(static[boundary], np.eye(boundary.size))
    interior = np.setdiff1d(np.arange(mesh.n_coordinates), boundary)
    assert np.abs((stiffness @ static)[interior]).max() < 1e-12 * np.abs(stiffness).max()
    rigid = np.zeros((mesh.n_coordinates, 6))
    for j, x in enumerate(mesh.nodes):
        rigid[3 * j:3 * j + 3, :3] = np.eye(3)
        rigid[3 * j:3 * j + 3, 3:] = -np.array([[0, -x[2], x[1]], [x[2], 0, -x[0]], [-x[1], x[0], 0]])
    fit, *_ = np.linalg.lstsq(static, rigid, rcond=None)
    assert np.abs(static @ fit - rigid).max() < 1e-10 * np.abs(rigid).max()
    rbe2 = craig_bampton_modes(mass, stiffness, mesh.nodes, faces, 3, variant="RBE2")
    np.testing.assert_array_equal(basis.vectors[:, boundary.size:], rbe2.vectors[:, 6:])
    only_eigenmodes = craig_bampton_modes(mass, stiffness, mesh.nodes, faces, 3, variant="none")
    assert (only_eigenmodes.n_static, only_eigenmodes.kind) == (0, "craig-bampton none")
    np.testing.assert_array_equal(only_eigenmodes.vectors, rbe2.vectors[:, 6:])
    np.testing.assert_array_equal(only_eigenmodes.eigenvalues, rbe2.eigenvalues[6:])
    with pytest.raises(ModelError, match="the mode basis contains a rigid-body motion"):   # so no body takes it
        ReducedOrderInvariants.from_fe_matrices(mass, stiffness, basis, mesh.nodes)


def test_rbe3_static_modes_prescribe_the_mean_motion_of_their_interface_only(square_beam):
    """C_1 psi = block_diag(I, W_1) / (largest entry), C_0 psi = 0, and off the interfaces the columns are
    force-free: K psi is a reaction C^T lambda of the mean motions. (Exudyn divides each block of
    6 columns by one number, so translations and rotations keep the ratio of I to W_1.)"""
    mesh, mass, stiffness = square_beam
    faces = end_faces(mesh)
    static = craig_bampton_modes(mass, stiffness, mesh.nodes, faces, 2, variant="RBE3").vectors[:, :6]
    held, moved = mean_motion_rows(mesh, faces[0]), mean_motion_rows(mesh, faces[1])
    assert np.abs(held @ static).max() < 1e-12 * np.abs(static).max()
    offsets = mesh.nodes[faces[1]] - mesh.nodes[faces[1]].mean(axis=0)
    second_moment = sum((p @ p) * np.eye(3) - np.outer(p, p) for p in offsets) / len(offsets)   # -sum w skew(p)^2
    mean_motion = moved @ static
    scaling = mean_motion[0, 0]                      # 1 / the largest entry before scaling
    assert 0 < scaling < 2 and static.max() == pytest.approx(1.0, rel=1e-15)
    prescribed = scaling * scipy.linalg.block_diag(np.eye(3), second_moment)
    np.testing.assert_allclose(mean_motion, prescribed, rtol=0, atol=1e-12 * np.abs(prescribed).max())
    constraint = np.vstack([held, moved])
    multipliers, *_ = np.linalg.lstsq(constraint.T, stiffness @ static, rcond=None)
    assert np.abs(constraint.T @ multipliers - stiffness @ static).max() < 1e-9 * np.abs(stiffness @ static).max()


@pytest.mark.parametrize("variant", ["RBE2", "RBE3"])
def test_fixed_interface_modes_are_m_orthonormal_eigenmodes_of_the_held_mesh(square_beam, variant):
    """RBE2: zero on every boundary node, K psi = omega^2 M psi on the interior rows. RBE3: the mean
    motions of both faces vanish, and K psi - omega^2 M psi is a reaction C^T lambda of those means."""
    mesh, mass, stiffness = square_beam
    faces = end_faces(mesh)
    basis = craig_bampton_modes(mass, stiffness, mesh.nodes, faces, 8, variant=variant)
    psi, omega2 = basis.vectors[:, 6:], basis.eigenvalues[6:]
    np.testing.assert_allclose(psi.T @ (mass @ psi), np.eye(8), atol=1e-10)
    assert np.all(np.diff(omega2) >= 0) and omega2[0] > 1e6
    residual = stiffness @ psi - (mass @ psi) * omega2
    if variant == "RBE2":
        boundary = coordinates_of(np.concatenate(faces))
        np.testing.assert_array_equal(psi[boundary], 0.0)
        interior = np.setdiff1d(np.arange(mesh.n_coordinates), boundary)
        assert np.abs(residual[interior]).max() < 1e-8 * np.abs(stiffness @ psi).max()
    else:
        constraint = np.vstack([mean_motion_rows(mesh, face) for face in faces])
        assert np.abs(constraint @ psi).max() < 1e-12 * np.abs(psi).max()
        multipliers, *_ = np.linalg.lstsq(constraint.T, residual, rcond=None)
        assert np.abs(constraint.T @ multipliers - residual).max() < 1e-8 * np.abs(stiffness @ psi).max()


def test_rbe2_basis_gives_the_exact_static_response_to_loads_on_the_interface(square_beam):
    """The mesh held at face 0, face 1 rigid (6 coordinates q), any nodal forces on face 1: the direct
    solve of that full system and the Galerkin solve on the basis coincide (the static modes span it)."""
    mesh, mass, stiffness = square_beam
    faces = end_faces(mesh)
    basis = craig_bampton_modes(mass, stiffness, mesh.nodes, faces, 3, variant="RBE2")
    load = np.zeros(mesh.n_coordinates)
    load[coordinates_of(faces[1])] = np.random.default_rng(1).standard_normal(3 * len(faces[1])) * 1e5
    boundary = coordinates_of(np.concatenate(faces))
    interior = np.setdiff1d(np.arange(mesh.n_coordinates), boundary)
    offsets = mesh.nodes[faces[1]] - mesh.nodes[faces[1]].mean(axis=0)
    rigid = np.vstack([np.hstack([np.eye(3), -np.array([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])])
                       for p in offsets])                                # u_j = a + b x (x_j - p0)
    transformation = np.zeros((mesh.n_coordinates, 6 + interior.size))   # u = Q [q; u_i]
    transformation[coordinates_of(faces[1]), :6] = rigid
    transformation[interior, 6 + np.arange(interior.size)] = 1.0
    q = np.linalg.solve(transformation.T @ (stiffness @ transformation), transformation.T @ load)
    full = transformation @ q
    psi = basis.vectors
    reduced = psi @ np.linalg.solve(psi.T @ (stiffness @ psi), psi.T @ load)
    assert np.abs(reduced - full).max() < 1e-9 * np.abs(full).max()


def test_rbe3_basis_gives_the_exact_static_response_to_mean_loads_on_the_interface(square_beam):
    """Face 0's mean motion held, a force and a moment on face 1 distributed by its weights (f = C_1^T F):
    the saddle-point solve of the full mesh and the Galerkin solve on the RBE3 basis coincide."""
    mesh, mass, stiffness = square_beam
    faces = end_faces(mesh)
    basis = craig_bampton_modes(mass, stiffness, mesh.nodes, faces, 3, variant="RBE3")
    held, loaded = mean_motion_rows(mesh, faces[0]), mean_motion_rows(mesh, faces[1])
    load = loaded.T @ np.array([1e5, -2e5, 3e5, 4e3, -5e3, 6e3])
    saddle = np.block([[stiffness.toarray(), held.T], [held, np.zeros((6, 6))]])
    full = np.linalg.solve(saddle, np.concatenate([load, np.zeros(6)]))[:mesh.n_coordinates]
    psi = basis.vectors
    reduced = psi @ np.linalg.solve(psi.T @ (stiffness @ psi), psi.T @ load)
    assert np.abs(reduced - full).max() < 1e-9 * np.abs(full).max()


@pytest.mark.parametrize("variant", ["RBE2", "RBE3"])
def test_reduced_frequencies_fall_toward_the_free_free_ones_as_eigenmodes_are_added(square_beam, variant):
    """Rayleigh-Ritz on span[rigid-body modes, CB basis]: nested spaces give upper bounds that fall.
    RBE2's rigid faces stiffen the beam, so its limit lies slightly above the free-free value."""
    mesh, mass, stiffness = square_beam
    exact = eigenmodes(mass, stiffness, 6).eigenvalues
    rigid = rigid_body_modes(mesh.nodes)
    errors = []
    for count in (4, 8, 16, 32, 64):
        space = np.hstack([rigid, craig_bampton_modes(mass, stiffness, mesh.nodes, end_faces(mesh), count,
                                                      variant=variant).vectors])
        ritz = scipy.linalg.eigh(space.T @ (stiffness @ space), space.T @ (mass @ space), eigvals_only=True)
        errors.append(ritz[6:12] / exact - 1.0)
    errors = np.array(errors)
    assert np.all(errors > -1e-10)
    assert np.all(np.diff(errors, axis=0) <= 1e-10)
    assert errors[-1, :2].max() < 1e-4 and errors[0, :2].min() > 1e-2


@pytest.mark.parametrize("variant", ["RBE2", "RBE3"])
def test_craig_bampton_basis_is_the_same_from_the_sparse_and_the_dense_solver(square_beam, variant):
    """The held square beam has pairs of equal bending frequencies; the canonical basis fixes them."""
    mesh, mass, stiffness = square_beam
    dense = craig_bampton_modes(mass, stiffness, mesh.nodes, end_faces(mesh), 12, variant=variant, solver="dense")
    sparse = craig_bampton_modes(mass, stiffness, mesh.nodes, end_faces(mesh), 12, variant=variant, solver="sparse")
    assert dense.eigenvalues[6] == pytest.approx(dense.eigenvalues[7], rel=1e-9)   # a repeated pair
    np.testing.assert_allclose(sparse.eigenvalues, dense.eigenvalues, rtol=1e-10)
    np.testing.assert_allclose(sparse.vectors, dense.vectors, atol=1e-9 * np.abs(dense.vectors).max())


def test_keeping_the_first_interface_adds_its_six_columns(square_beam):
    mesh, mass, stiffness = square_beam
    kept = craig_bampton_modes(mass, stiffness, mesh.nodes, end_faces(mesh), 2, exclude_rigid_body_motion=False)
    assert kept.n_static == 12
    _, residual = rigid_fit(mesh.nodes[end_faces(mesh)[0]], kept.vectors[coordinates_of(end_faces(mesh)[0]), :6])
    assert residual < 1e-12


@pytest.mark.parametrize("sets, arguments, fault", [
    (lambda faces: [[]], {}, "set 0 is empty"),
    (lambda faces: [], {}, "boundary_node_sets is empty"),
    (lambda faces: [[0, 1, 400]], {}, "outside 0..98"),
    (lambda faces: [[0, 1.5, 3]], {}, "not integer node numbers"),
    (lambda faces: [faces[0], list(faces[1]) + [faces[0][4]]], {}, r"node \d+ is in sets 0 and 1"),
    (lambda faces: [[0, 1]], {}, "at least 3 non-collinear nodes"),
    (lambda faces: [[0, 1, 2]], {}, "on one line"),
    (lambda faces: [range(99)], {}, "needs interior nodes"),
    (lambda faces: faces, dict(variant="RBE4"), "variant must be"),
    (lambda faces: faces, dict(n_eigenmodes=-1), "n_eigenmodes must be"),
    (lambda faces: faces, dict(n_eigenmodes="8"), "n_eigenmodes must be"),
    (lambda faces: faces, dict(n_eigenmodes=500), "only 243 coordinates remain"),
    (lambda faces: faces, dict(boundary_weights=[[1.0]]), "1 weight arrays for 2"),
])
def test_bad_craig_bampton_requests_are_refused(square_beam, sets, arguments, fault):
    mesh, mass, stiffness = square_beam
    with pytest.raises(ModelError, match=fault):
        craig_bampton_modes(mass, stiffness, mesh.nodes, sets(end_faces(mesh)), **(dict(n_eigenmodes=4) | arguments))


@pytest.mark.parametrize("variant", ["RBE2", "RBE3"])
@pytest.mark.parametrize("solver", ["dense", "sparse"])
def test_interfaces_that_do_not_hold_the_mesh_are_refused(square_beam, variant, solver):
    """Two separate beams, interfaces on the first only: the second is free."""
    mesh, mass, stiffness = square_beam
    twice = (sp.block_diag([mass, mass]).tocsr(), sp.block_diag([stiffness, stiffness]).tocsr())
    for count in (4, 0):                  # without eigenmodes, the static columns alone would look fine
        with pytest.raises(ModelError, match="do not hold the (mesh|rigid-body motion)"):
            craig_bampton_modes(*twice, np.vstack([mesh.nodes, mesh.nodes + 1.0]), end_faces(mesh), count,
                                variant=variant, solver=solver)


@pytest.mark.parametrize("variant", ["RBE2", "RBE3"])
def test_craig_bampton_basis_of_the_axisymmetric_rotor_is_reproducible(shared_data, variant):
    """Rotor disc without unbalance, end faces as interfaces: pairs of equal fixed-interface frequencies;
    sparse and dense solvers give one basis, and so does a basis rotated within the pair."""
    folder = shared_data / "rotorDisc"
    mesh = read_abaqus_inp(folder / "rotorDiscTest.inp", instance="rotor-1")
    mass = read_abaqus_mtx(folder / "rotorDiscTestMASS1.mtx")
    stiffness = 1e-2 * read_abaqus_mtx(folder / "rotorDiscTestSTIF1.mtx")
    faces = [mesh.nodes_in_plane((0.0, 0.0, z), (0.0, 0.0, 1.0)) for z in (0.0, 0.5)]
    dense = craig_bampton_modes(mass, stiffness, mesh.nodes, faces, 8, variant=variant, solver="dense")
    sparse = craig_bampton_modes(mass, stiffness, mesh.nodes, faces, 8, variant=variant, solver="sparse")
    values = dense.eigenvalues[6:]
    assert values[1] == pytest.approx(values[2], rel=1e-9) and values[3] == pytest.approx(values[4], rel=1e-9)
    np.testing.assert_allclose(sparse.vectors, dense.vectors, atol=1e-10 * np.abs(dense.vectors).max())
    modes = dense.vectors[:, 6:].copy()
    modes[:, 1:3] = modes[:, 1:3] @ np.array([[0.6, -0.8], [0.8, 0.6]])
    np.testing.assert_allclose(canonical_basis(modes, values, mass), dense.vectors[:, 6:], atol=1e-12)


def test_pardiso_and_superlu_shift_invert_give_the_same_basis(square_beam, monkeypatch):
    """With pypardiso installed (extra 'fast') the shift-invert factorization is PARDISO's Cholesky, else
    SuperLU; the modes are the same to round-off either way."""
    pytest.importorskip("pypardiso")
    mass, stiffness = square_beam[1], square_beam[2]
    monkeypatch.setattr("floatframe.linalg.PARDISO_MIN_SIZE", 0)  # the small beam would take SuperLU
    pardiso = eigenmodes(mass, stiffness, 8, solver="sparse")
    monkeypatch.setitem(sys.modules, "pypardiso", None)          # import fails: the SuperLU fallback
    superlu = eigenmodes(mass, stiffness, 8, solver="sparse")
    assert pardiso.eigenvalues == pytest.approx(superlu.eigenvalues, rel=1e-11)
    assert np.abs(pardiso.vectors - superlu.vectors).max() <= 1e-8 * np.abs(superlu.vectors).max()


@pytest.mark.parametrize("min_size", [0, 10 ** 9], ids=["pardiso", "superlu"])
def test_positive_definite_solve_solves_with_one_and_many_right_hand_sides(square_beam, monkeypatch, min_size):
    monkeypatch.setattr("floatframe.linalg.PARDISO_MIN_SIZE", min_size)
    mass, stiffness = square_beam[1], square_beam[2]
    matrix = (stiffness + 1e3 * mass).tocsr()
    solve = positive_definite_solve(matrix)
    right = np.random.default_rng(5).standard_normal((matrix.shape[0], 3))
    for b in (right[:, 0], right):
        x = solve(b)
        assert x.shape == b.shape
        backward_scale = (abs(matrix) @ np.abs(x)).max()          # |A| |x|: the size of the terms of A x
        assert np.abs(matrix @ x - b).max() <= 1e-13 * backward_scale


def test_deflating_the_rigid_body_modes_gives_the_same_elastic_modes(square_beam):
    """With node_positions the sparse solver keeps the six zero modes out of the Krylov space (Lanczos sees
    one vector of an exactly repeated eigenvalue at a time); the elastic modes are the same."""
    mesh, mass, stiffness = square_beam
    deflated = eigenmodes(mass, stiffness, 10, solver="sparse", node_positions=mesh.nodes)
    plain = eigenmodes(mass, stiffness, 10, solver="sparse")
    assert deflated.eigenvalues == pytest.approx(plain.eigenvalues, rel=1e-10)
    assert np.abs(deflated.vectors - plain.vectors).max() <= 1e-8 * np.abs(plain.vectors).max()
    assert np.abs(rigid_body_modes(mesh.nodes).T @ (mass @ deflated.vectors)).max() <= 1e-10


def test_deflation_refuses_a_supported_mesh_and_wrong_positions(square_beam):
    mesh, mass, stiffness = square_beam
    held = stiffness + sp.diags(np.r_[np.full(3, 1e12), np.zeros(mass.shape[0] - 3)])
    with pytest.raises(ModelError, match="the mesh is not free: K R != 0"):
        eigenmodes(mass, held, 4, solver="sparse", node_positions=mesh.nodes)
    with pytest.raises(ModelError, match="node_positions must have shape"):
        eigenmodes(mass, stiffness, 4, solver="sparse", node_positions=mesh.nodes[:-1])


@pytest.mark.parametrize("solver", ["dense", "sparse"])
def test_a_slender_cantilever_is_held_by_its_root(solver):
    """A 500:1 Hex20 cantilever (issue 24): its lowest clamped omega^2 is 2e-12 of the typical K_ii / M_ii, below
    the round-off cut-off, but its mode bends, so the root face holds the mesh. omega_1 = 1.8751^2
    sqrt(E I / (rho A L^4)) (Euler-Bernoulli, nu = 0) to the 3D solid's and the 40 elements' error, 1e-3; the
    solvers agree to 1e-4 (the held stiffness has a condition number of about 1e12)."""
    width = 0.02
    length, youngs_modulus, density = 500 * width, 2.1e11, 7850.0
    mesh = block_mesh(length, width, width, 40, 1, 1, element="Hex20")
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus, 0.0, density)
    root = np.flatnonzero(np.isclose(mesh.nodes[:, 0], 0.0))
    basis = craig_bampton_modes(mass, stiffness, mesh.nodes, [root], 2, solver=solver)
    euler = 1.8751040687 ** 4 * youngs_modulus * width ** 4 / 12 / (density * width ** 2 * length ** 4)
    assert basis.eigenvalues == pytest.approx([euler, euler], rel=1e-3)
    assert basis.eigenvalues[0] < 1e-9 * typical_eigenvalue(stiffness, mass)   # under the old cut-off


def test_a_part_hinged_on_held_nodes_is_free():
    """Two beams that share only the nodes of one edge, the first clamped at its root: the second turns about the
    shared edge, a rigid motion of the part the mode moves, so the mesh is refused."""
    first = block_mesh(1.0, 0.1, 0.1, 4, 1, 1, element="Hex8")
    n = first.n_nodes
    edge = np.flatnonzero(np.isclose(first.nodes[:, 0], 0.0) & np.isclose(first.nodes[:, 2], 0.0))
    tip_edge = np.flatnonzero(np.isclose(first.nodes[:, 0], 1.0) & np.isclose(first.nodes[:, 2], 0.0))
    keep = np.setdiff1d(np.arange(n), edge)
    nodes = np.vstack([first.nodes, first.nodes[keep] + np.array([1.0, 0.0, 0.0])])   # the copy beyond the tip
    renumber = np.empty(n, dtype=int)                    # node of the copy -> node of the joined mesh
    renumber[keep] = n + np.arange(keep.size)
    renumber[edge] = tip_edge                            # the copy's root edge is the first beam's tip edge
    mesh = Mesh(nodes, {"Hex8": np.vstack([first.elements["Hex8"], renumber[first.elements["Hex8"]]])},
                duplicate_nodes="keep")                  # the copy's other root nodes: a crack beside the hinge
    mass, stiffness = linear_elastic_matrices(mesh, 2.1e11, 0.3, 7850.0)
    root = np.flatnonzero(np.isclose(mesh.nodes[:, 0], 0.0))
    with pytest.raises(ModelError, match="moves a part of the mesh rigidly"):
        craig_bampton_modes(mass, stiffness, mesh.nodes, [root], 2, solver="dense")


PARDISO_RUN = """
import hashlib, numpy as np, floatframe.linalg
floatframe.linalg.PARDISO_MIN_SIZE = 0
from floatframe.fem import eigenmodes, block_mesh, linear_elastic_matrices
mesh = block_mesh(1.0, 0.1, 0.1, 40, 4, 4)
mass, stiffness = linear_elastic_matrices(mesh, 2.1e11, 0.3, 7800.0)[:2]
modes = eigenmodes(mass, stiffness, 4, 6, solver="sparse", node_positions=mesh.nodes)
print(hashlib.sha256(np.ascontiguousarray(modes.vectors).tobytes()).hexdigest())
"""


def test_pardiso_modes_are_the_same_bits_in_every_run():
    """PARDISO runs in MKL's reproducible mode: two fresh processes give the same bits of a 3,075-coordinate
    block's modes (without it, three runs gave three different last bits), so a model built from them names the
    same cached kernel in every run."""
    pytest.importorskip("pypardiso")
    environment = {name: value for name, value in os.environ.items() if name != "MKL_CBWR"}
    digests = {subprocess.run([sys.executable, "-c", PARDISO_RUN], capture_output=True, text=True, check=True,
                              env=environment).stdout.strip() for _ in range(2)}
    assert len(digests) == 1 and len(next(iter(digests))) == 64
