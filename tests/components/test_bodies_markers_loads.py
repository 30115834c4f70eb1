"""Claims about the bodies, markers and loads of issue 9: a rigid body with its centre of mass away from
the node, the rotated ground, the 1D mass, marker frames (localHT), Gravity for the whole system, and
the errors for bad input."""
import numpy as np
import pytest
import scipy.linalg
import scipy.special

import floatframe as ff
from floatframe import rotations
from model_helpers import newton_matrix_error

GRAVITY = np.array([0.0, 0.0, -9.81])


def accelerations(assembled, t, q, v):
    """(a, lambda) of the index-3 DAE at (t, q, v): [[M, C_q^T], [C_q, 0]] [a; lambda] = [-R(a=0, lambda=0); -rest]."""
    n, m = assembled.n_coordinates, assembled.n_multipliers
    mass = assembled.mass_matrix(t, q, v).toarray()
    jacobian = assembled.constraint_jacobian(t, q).toarray()
    matrix = np.block([[mass, jacobian.T], [jacobian, np.zeros((m, m))]])
    right = -np.concatenate([assembled.residual(t, q, v, np.zeros(n), np.zeros(m)),
                             assembled.constraint_acceleration_rest(t, q, v)])
    solution = np.linalg.solve(matrix, right)
    return solution[:n], solution[n:]


def steiner(mass, offset):
    """m (b^T b I - b b^T): the inertia of a point mass m at b about the origin."""
    offset = np.asarray(offset, dtype=float)
    return mass * (offset @ offset * np.eye(3) - np.outer(offset, offset))


# --- a rigid body with its centre of mass away from the node ------------------------------------------
MASS = 3.0
INERTIA_COM = np.array([[0.4, 0.02, -0.01], [0.02, 0.3, 0.03], [-0.01, 0.03, 0.2]])
OFFSET = np.array([0.3, -0.2, 0.5])                     # b, node to centre of mass, body axes
FORCE_POINT = np.array([0.1, 0.4, -0.2])                # where a force acts, from the node, body axes


def offset_body(center_at_node: bool):
    """The same tumbling body under gravity and a body-fixed force, described from its node (COM at b)
    or from its centre of mass (COM at the node)."""
    system = ff.System()
    theta = np.array([0.8, 0.2, -0.3, 0.4]) / np.linalg.norm([0.8, 0.2, -0.3, 0.4])
    rotation = rotations.rotation_matrix(theta)
    omega = np.array([1.0, -2.0, 0.5])
    node_position, node_velocity = np.array([0.1, 0.2, 0.3]), np.array([0.3, 0.0, -0.4])
    if center_at_node:
        node_position = node_position + rotation @ OFFSET
        node_velocity = node_velocity + np.cross(omega, rotation @ OFFSET)
        body_inertia, center, point = INERTIA_COM, (0, 0, 0), FORCE_POINT - OFFSET
    else:
        body_inertia, center, point = INERTIA_COM + steiner(MASS, OFFSET), OFFSET, FORCE_POINT
    node = system.add(ff.NodeRigidBodyEP([*node_position, *theta], initial_velocities=[
        *node_velocity, *rotations.euler_parameters_t(omega, theta)]))
    body = system.add(ff.ObjectRigidBody(node, MASS, body_inertia, center_of_mass=center))
    system.add(ff.LoadMassProportional(system.add(ff.MarkerBodyMass(body)), GRAVITY))
    system.add(ff.LoadForceVector(system.add(ff.MarkerBodyRigid(body, point)), [2.0, -1.0, 4.0], body_fixed=True))
    com = OFFSET if not center_at_node else np.zeros(3)
    sensors = [system.add(ff.SensorBody(body, variable, com))
               for variable in ("Position", "Acceleration", "AngularAcceleration")]
    return system, sensors


def test_a_body_with_its_centre_of_mass_away_from_the_node_moves_as_the_body_described_from_its_centre():
    """The centre of mass's acceleration and the angular acceleration agree to rounding at the initial
    state, and along 0.2 s the centre of mass's path and the angular velocity agree to the scheme's error."""
    results = []
    for center_at_node in (False, True):
        system, sensors = offset_body(center_at_node)
        assembled = system.assemble()
        q, v = assembled.q_initial, assembled.v_initial
        a, lam = accelerations(assembled, 0.0, q, v)
        values = assembled.sensor_values(0.0, q, v, a, lam)
        results.append([values[s] for s in sensors])
    (position, acceleration, alpha), (position_c, acceleration_c, alpha_c) = results
    np.testing.assert_allclose(position, position_c, rtol=0, atol=1e-15)
    np.testing.assert_allclose(acceleration, acceleration_c, rtol=0, atol=1e-13 * np.abs(acceleration_c).max())
    np.testing.assert_allclose(alpha, alpha_c, rtol=0, atol=1e-13 * np.abs(alpha_c).max())


def test_the_offset_body_and_the_centred_body_follow_one_path():
    paths = []
    for center_at_node in (False, True):
        system, _ = offset_body(center_at_node)
        body = 0
        centre = system.add(ff.SensorBody(body, "Position", np.zeros(3) if center_at_node else OFFSET))
        omega = system.add(ff.SensorBody(body, "AngularVelocity"))
        result = ff.GeneralizedAlpha(0.9).solve(system.assemble(), 0.2, 400)
        paths.append((result.sensor(centre), result.sensor(omega)))
    (centre, omega), (centre_c, omega_c) = paths
    # both discretisations are second order in h = 5e-4 s; they differ by less than 1e-6 of the motion
    assert np.abs(centre - centre_c).max() < 1e-6 * np.abs(centre_c - centre_c[0]).max()
    assert np.abs(omega - omega_c).max() < 1e-6 * np.abs(omega_c).max()


def test_a_rigid_body_pivoting_about_its_node_is_a_physical_pendulum():
    """Centre of mass at d = 0.4 m from the pivot (the node), 60 degrees amplitude: the period is
    4 sqrt(I_O / (m g d)) K(sin^2(phi0 / 2)) with I_O = I_C + m d^2 (I_O the inertia given to the body)."""
    d, mass, i_c, phi0 = 0.4, 2.0, 0.05, np.pi / 3
    system = ff.System()
    theta = rotations.euler_parameters_from_rotation_matrix(rotations.rotation_matrix_y(phi0))
    node = system.add(ff.NodeRigidBodyEP([0, 0, 0, *theta]))
    inertia_com = np.diag([0.07, i_c, 0.06])
    body = system.add(ff.ObjectRigidBody(node, mass, inertia_com + steiner(mass, [0, 0, -d]), center_of_mass=[0, 0, -d]))
    ground = system.add(ff.ObjectGround())
    system.add(ff.SphericalJoint([system.add(ff.MarkerBodyRigid(ground)), system.add(ff.MarkerNodeRigid(node))]))
    system.add(ff.LoadMassProportional(system.add(ff.MarkerBodyMass(body)), GRAVITY))
    omega = system.add(ff.SensorBody(body, "AngularVelocity"))
    i_o = i_c + mass * d ** 2
    period = 4 * np.sqrt(i_o / (mass * 9.81 * d)) * scipy.special.ellipk(np.sin(phi0 / 2) ** 2)
    h = period / 2000
    result = ff.GeneralizedAlpha(1.0).solve(system.assemble(), 1.2 * period, 2400)
    omega_y = result.sensor(omega)[:, 1]
    assert np.abs(result.sensor(omega)[:, [0, 2]]).max() < 1e-10
    # released from rest, omega_y changes sign at T/2 and T (linear interpolation between steps); the
    # trapezoidal rule (rho = 1) lengthens the period by about (omega h)^2 / 12 = 1e-6
    crossings = [result.t[k] - omega_y[k] * h / (omega_y[k + 1] - omega_y[k])
                 for k in range(1, len(omega_y) - 1) if omega_y[k] * omega_y[k + 1] < 0]
    measured = crossings[1] - crossings[0]
    assert 2 * measured == pytest.approx(period, rel=1e-5)


def test_the_newton_matrix_of_an_offset_rigid_body_is_exact():
    system, _ = offset_body(False)
    assert newton_matrix_error(system.assemble(), np.random.default_rng(3)) <= 1e-6
