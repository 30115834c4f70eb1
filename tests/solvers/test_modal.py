"""eigenmodes: linearized undamped modes from the assembled system's exact Jacobians."""
import numpy as np
import pytest
import scipy.linalg

import floatframe as ff
from floatframe.components.ffrf import add_ffrf_body
from floatframe.components.reference_conditions import add_tisserand_frame
from floatframe.fem import block_mesh, linear_elastic_matrices
from floatframe.solvers.modal import complex_eigenvalues, eigenmodes, linearize

STEEL = dict(youngs_modulus=2.1e11, poissons_ratio=0.3, density=7850.0)
STIFFNESS = (1e3, 2e3, 4e3)


def spring_chain(count=4, mass=2.0, damping=0.0):
    """Rigid bodies on a line joined by Cartesian springs at their centres, fixed-free."""
    system = ff.System()
    ground = system.add(ff.ObjectGround())
    previous = system.add(ff.MarkerBodyPosition(ground, [0, 0, 0]))
    for i in range(count):
        node = system.add(ff.NodeRigidBodyEP([i + 1.0, 0, 0, 1, 0, 0, 0]))
        body = system.add(ff.ObjectRigidBody(node, mass, [0.1, 0.2, 0.3, 0, 0, 0]))
        marker = system.add(ff.MarkerBodyPosition(body, [0, 0, 0]))
        system.add(ff.CartesianSpringDamper([previous, marker], STIFFNESS, [damping] * 3))
        previous = marker
    return system.assemble()


def chain_closed_form(count=4, mass=2.0):
    j = np.arange(1, count + 1)
    return np.sort(np.concatenate([4 * k / mass * np.sin((2 * j - 1) * np.pi / (2 * (2 * count + 1))) ** 2
                                   for k in STIFFNESS]))


ROTATIONS = [7 * i + c for i in range(4) for c in (3, 4, 5, 6)]


def test_spring_chain_matches_closed_form():
    result = eigenmodes(spring_chain(), constraints="ignore", constrained_coordinates=ROTATIONS)
    np.testing.assert_allclose(result.eigenvalues, chain_closed_form(), rtol=1e-12)
    np.testing.assert_allclose(result.frequencies, np.sqrt(chain_closed_form()) / (2 * np.pi), rtol=1e-12)
    assert result.eigenvectors.shape == (28, 12)
    np.testing.assert_allclose(result.eigenvectors[ROTATIONS], 0.0)


def test_null_space_of_the_euler_parameter_constraints_leaves_rotational_zeros():
    assembled = spring_chain()
    result = eigenmodes(assembled)
    assert result.eigenvalues.shape == (24,)
    np.testing.assert_allclose(result.eigenvalues[:12], 0.0, atol=1e-9)
    np.testing.assert_allclose(result.eigenvalues[12:], chain_closed_form(), rtol=1e-10)
    jacobian = assembled.constraint_jacobian(0.0, assembled.q_initial)
    np.testing.assert_allclose(jacobian @ result.eigenvectors, 0.0, atol=1e-12)
    mass = assembled.mass_matrix(0.0, assembled.q_initial, assembled.v_initial)
    np.testing.assert_allclose(result.eigenvectors.T @ (mass @ result.eigenvectors), np.eye(24), atol=1e-10)


def test_sparse_shift_invert_gives_the_lowest_dense_modes():
    assembled = spring_chain()
    dense = eigenmodes(assembled, constraints="ignore", constrained_coordinates=ROTATIONS)
    sparse = eigenmodes(assembled, n_modes=5, constraints="ignore", constrained_coordinates=ROTATIONS, sparse=True)
    np.testing.assert_allclose(sparse.eigenvalues, dense.eigenvalues[:5], rtol=1e-10)


def clamped_beam(nx, ny, length=1.0, height=0.05):
    """A steel cantilever as an FFRF body, its frame and the mesh face x = 0 held fixed.

    The face is clamped by coordinate constraints in the model (its reference conditions) and the
    same coordinates, with the frame's, are returned for ``constrained_coordinates``.
    """
    mesh = block_mesh(length, height, height, nx, ny, ny)
    mass, stiffness = linear_elastic_matrices(mesh, **STEEL, formulation="bbar")
    system = ff.System()
    body = add_ffrf_body(system, mesh.nodes, mass, stiffness)
    face = mesh.nodes_in_plane([0, 0, 0], [1, 0, 0])
    ground = system.add(ff.MarkerNodeCoordinate(system.add(ff.NodePointGround((0.0, 0.0, 0.0))), 0))
    for k in face:
        for axis in range(3):
            marker = system.add(ff.MarkerNodeCoordinate(body.node_numbers[1 + k], axis))
            system.add(ff.CoordinateConstraint([ground, marker]))
    clamped = [7 + 3 * k + axis for k in face for axis in range(3)]
    return system.assemble(), list(range(7)) + clamped


def test_cantilever_bending_frequencies_approach_euler_bernoulli():
    length, height = 1.0, 0.05
    area, inertia = height ** 2, height ** 4 / 12
    beta = np.array([1.8751040687, 4.6940911330])
    euler_bernoulli = beta ** 2 * np.sqrt(STEEL["youngs_modulus"] * inertia / (STEEL["density"] * area
                                                                              * length ** 4)) / (2 * np.pi)
    errors = []
    for nx in (20, 40):
        assembled, fixed = clamped_beam(nx, 2)
        result = eigenmodes(assembled, n_modes=4, constraints="ignore", constrained_coordinates=fixed, sparse=True)
        bending = result.frequencies[[0, 2]]                       # each bending mode twice (y and z)
        np.testing.assert_allclose(result.frequencies[[1, 3]], bending, rtol=1e-8)
        errors.append(np.abs(bending / euler_bernoulli - 1))
    assert np.all(errors[1] < 0.015)                                # 40 x 2 x 2 B-bar hexes: within 1.5 %
    assert np.all(errors[1] < 0.2 * errors[0])                      # and converging with the mesh


def free_block():
    mesh = block_mesh(0.4, 0.1, 0.1, 4, 1, 1)
    mass, stiffness = linear_elastic_matrices(mesh, **STEEL)
    stiffness = 1e-3 * stiffness
    system = ff.System()
    body = add_ffrf_body(system, mesh.nodes, mass, stiffness)
    add_tisserand_frame(system, body)
    return system.assemble(), mass.toarray(), stiffness.toarray()


def test_free_ffrf_body_with_tisserand_frame_has_the_mesh_modes():
    assembled, mass, stiffness = free_block()
    expected = scipy.linalg.eigh(stiffness, mass, eigvals_only=True)
    result = eigenmodes(assembled)
    assert result.eigenvalues.shape == expected.shape
    np.testing.assert_allclose(result.eigenvalues[:6], 0.0, atol=1e-10 * expected[6])
    np.testing.assert_allclose(result.eigenvalues[6:], expected[6:], rtol=1e-10)
    sparse = eigenmodes(assembled, n_modes=10, sparse=True)            # saddle-point shift-invert
    np.testing.assert_allclose(sparse.eigenvalues[:6], 0.0, atol=1e-10 * expected[6])
    np.testing.assert_allclose(sparse.eigenvalues[6:], expected[6:10], rtol=1e-10)
    jacobian = assembled.constraint_jacobian(0.0, assembled.q_initial)
    np.testing.assert_allclose(jacobian @ sparse.eigenvectors, 0.0, atol=1e-9)


def test_complex_eigenvalues_of_a_damped_chain():
    assembled = spring_chain(count=1, damping=8.0)
    linear = linearize(assembled)
    np.testing.assert_allclose(linear.damping.toarray()[:3, :3], 8.0 * np.eye(3))
    values, vectors = complex_eigenvalues(linear, np.eye(7)[:, :3])   # the translations only
    omega = np.sqrt(np.array(STIFFNESS) / 2.0 - (8.0 / 4.0) ** 2)
    expected = np.concatenate([-2.0 + 1j * omega, -2.0 - 1j * omega])
    np.testing.assert_allclose(np.sort_complex(values), np.sort_complex(expected), rtol=1e-12)
    assert vectors.shape == (14, 6)


def test_asymmetry_of_a_follower_torque_is_reported():
    system = ff.System()
    node = system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0]))
    body = system.add(ff.ObjectRigidBody(node, 1.0, [1, 1, 1, 0, 0, 0]))
    ground = system.add(ff.ObjectGround())
    for point in ([1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]):
        system.add(ff.CartesianSpringDamper([system.add(ff.MarkerBodyPosition(b, point)) for b in (ground, body)],
                                            [100.0] * 3))
    system.add(ff.LoadTorqueVector(system.add(ff.MarkerBodyRigid(body, [0, 0, 0])), [0, 0, 30.0], body_fixed=True))
    assembled = system.assemble()
    assert eigenmodes(assembled, load_stiffness=True).asymmetry > 1e-3
    assert eigenmodes(assembled, load_stiffness=False).asymmetry == pytest.approx(0.0, abs=1e-14)


def test_bad_requests_are_refused():
    assembled = spring_chain()
    with pytest.raises(ValueError, match="constrained_coordinates replace the constraints"):
        eigenmodes(assembled, constrained_coordinates=[3])
    with pytest.raises(ValueError, match="constrained_coordinates must lie in 0..27"):
        eigenmodes(assembled, constraints="ignore", constrained_coordinates=[28])
    with pytest.raises(ValueError, match="the sparse solver needs 0 < n_modes < 28"):
        eigenmodes(assembled, constraints="ignore", sparse=True)
    with pytest.raises(ValueError, match="constraints must be one of"):
        eigenmodes(assembled, constraints="lagrange")
    with pytest.raises(ff.SolverError, match="mass matrix M on the constrained motion is not positive definite"):
        eigenmodes(assembled, constraints="ignore")                 # the Euler-parameter direction has no mass
