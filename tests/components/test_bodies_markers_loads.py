"""Claims about the bodies, markers and loads of issue 9: a rigid body with its centre of mass away from
the node, the rotated ground, the 1D mass, marker frames (localHT), Gravity for the whole system, and
the errors for bad input."""
import numpy as np
import pytest
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
    """The centre of mass's acceleration and the angular acceleration agree to rounding at the initial state."""
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
    """Along 0.2 s the centre of mass's path and the angular velocity agree to the schemes' error."""
    paths = []
    for center_at_node in (False, True):
        system, _ = offset_body(center_at_node)
        body = 0
        centre = system.add(ff.SensorBody(body, "Position", np.zeros(3) if center_at_node else OFFSET))
        omega = system.add(ff.SensorBody(body, "AngularVelocity"))
        result = ff.GeneralizedAlpha(0.9).solve(system.assemble(), 0.2, 400)
        paths.append((result.sensor(centre), result.sensor(omega)))
    (centre, omega), (centre_c, omega_c) = paths
    # the node's and the centre's translations are discretised differently (second order in h = 5e-4 s):
    # measured 2.3e-7 of the motion; the rotation is the same in both (measured 9e-15)
    assert np.abs(centre - centre_c).max() < 1e-6 * np.abs(centre_c - centre_c[0]).max()
    assert np.abs(omega - omega_c).max() < 1e-10 * np.abs(omega_c).max()


def test_a_rigid_body_pivoting_about_its_node_is_a_physical_pendulum():
    """Centre of mass at d = 0.4 m from the pivot (the node), 60 degrees amplitude: the period is
    4 sqrt(I_O / (m g d)) K(sin^2(phi0 / 2)) with I_O = I_C + m d^2 (I_O the inertia given to the body)."""
    d, mass, i_c, phi0 = 0.4, 2.0, 0.05, np.pi / 3
    system = ff.System()
    theta = rotations.euler_parameters_from_rotation_matrix(rotations.rotation_matrix_y(phi0))
    node = system.add(ff.NodeRigidBodyEP([0, 0, 0, *theta]))
    inertia_com = np.diag([0.07, i_c, 0.06])
    body = system.add(ff.ObjectRigidBody(node, mass, inertia_com + steiner(mass, [0, 0, -d]),
                                         center_of_mass=[0, 0, -d]))
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
    # trapezoidal rule (rho = 1) lengthens the period by about (omega h)^2 / 12 = 1e-6 (measured 1.2e-6)
    crossings = [result.t[k] - omega_y[k] * h / (omega_y[k + 1] - omega_y[k])
                 for k in range(1, len(omega_y) - 1) if omega_y[k] * omega_y[k + 1] < 0]
    measured = crossings[1] - crossings[0]
    assert 2 * measured == pytest.approx(period, rel=1e-5)


def heavy_top_energy_drift(n_steps):
    """Largest |E(t) - E(0)| [J] over 1 s of a heavy top (the offset body spinning about a skew axis on a
    spherical joint at its node, under Gravity) with the trapezoidal rule; and E(0).
    E = v^T M v / 2 - m g . x_com."""
    system = ff.System()
    theta = np.array([0.8, 0.2, -0.3, 0.4]) / np.linalg.norm([0.8, 0.2, -0.3, 0.4])
    node = system.add(ff.NodeRigidBodyEP([0, 0, 0, *theta], initial_velocities=[
        0, 0, 0, *rotations.euler_parameters_t([1.0, -2.0, 8.0], theta)]))
    body = system.add(ff.ObjectRigidBody(node, MASS, INERTIA_COM + steiner(MASS, OFFSET), OFFSET))
    ground = system.add(ff.ObjectGround())
    system.add(ff.SphericalJoint([system.add(ff.MarkerBodyRigid(ground)), system.add(ff.MarkerNodeRigid(node))]))
    system.add(ff.Gravity(GRAVITY))
    centre = system.add(ff.SensorBody(body, "Position", OFFSET))
    assembled = system.assemble()
    result = ff.GeneralizedAlpha(1.0).solve(assembled, 1.0, n_steps)
    energy = np.array([0.5 * v @ (assembled.mass_matrix(t, q, v) @ v) for t, q, v in zip(result.t, result.q, result.v)])
    energy -= MASS * result.sensor(centre) @ GRAVITY
    return np.abs(energy - energy[0]).max(), energy[0]


def test_a_heavy_top_with_an_offset_centre_keeps_its_energy_to_second_order():
    """Frictionless, rho = 1: the energy error falls by 4 when the step halves (measured 3.99) and is 1e-4 of E
    at h = 2 ms: the offset terms are consistent with the kinetic energy of the mass matrix."""
    coarse, energy = heavy_top_energy_drift(500)
    fine, _ = heavy_top_energy_drift(1000)
    assert coarse / fine == pytest.approx(4.0, rel=0.02)
    assert coarse < 1.2e-4 * energy


def test_the_newton_matrix_of_an_offset_rigid_body_is_exact():
    system, _ = offset_body(False)
    assert newton_matrix_error(system.assemble(), np.random.default_rng(3)) <= 1e-6


# --- the rotated ground and marker frames --------------------------------------------------------------
TURN = rotations.rotation_matrix_z(0.7) @ rotations.rotation_matrix_x(-0.4)
LOCAL_TURN = rotations.rotation_matrix_y(1.1) @ rotations.rotation_matrix_z(0.3)


def framed_system():
    """A rotated ground and a tumbling rigid body, each with a MarkerBodyRigid turned by a local rotation,
    and a MarkerNodeRigid turned and moved on the body's node."""
    system = ff.System()
    ground = system.add(ff.ObjectGround([1.0, 2.0, 3.0], TURN))
    theta = np.array([0.8, 0.2, -0.3, 0.4]) / np.linalg.norm([0.8, 0.2, -0.3, 0.4])
    node = system.add(ff.NodeRigidBodyEP([0.1, 0.2, 0.3, *theta], initial_velocities=[
        0.3, 0.0, -0.4, *rotations.euler_parameters_t([1.0, -2.0, 0.5], theta)]))
    body = system.add(ff.ObjectRigidBody(node, MASS, INERTIA_COM))
    markers = [system.add(ff.MarkerBodyRigid(ground, [0.3, -0.2, 0.1], LOCAL_TURN)),
               system.add(ff.MarkerBodyRigid(body, [0.3, -0.2, 0.1], LOCAL_TURN)),
               system.add(ff.MarkerNodeRigid(node, LOCAL_TURN, [0.3, -0.2, 0.1]))]
    system.add(ff.CartesianSpringDamper([markers[0], markers[1]], [10.0, 20.0, 30.0], [0.1, 0.1, 0.1]))
    system.add(ff.LoadTorqueVector(markers[2], [0.1, 0.2, 0.3], body_fixed=True))
    return system, ground, body, markers


def marker_frames(system, markers, state):
    """(position, rotation matrix, angular velocity) of each marker at the state (t, q, v) as numbers."""
    import casadi as ca
    assembled = system.assemble()
    ctx = assembled.context
    t, q, v = state
    values = []
    for k in markers:
        marker = system.markers[k]
        function = ca.Function("frame", [ctx.t, ctx.q, ctx.v], [marker.position(ctx), marker.rotation_matrix(ctx),
                                                                  marker.angular_velocity(ctx)])
        values.append([np.asarray(x, dtype=float) for x in function(t, q, v)])
    return values


def test_a_marker_frame_is_the_body_frame_times_its_local_rotation():
    system, ground, body, markers = framed_system()
    assembled = system.assemble()
    q, v = assembled.q_initial, assembled.v_initial
    node = system.objects[body].node
    theta = node.reference_coordinates[3:] + q[node.coordinate_indices[3:]]
    rotation = rotations.rotation_matrix(theta)
    omega = rotation @ rotations.g_local(theta) @ v[node.coordinate_indices[3:]]
    position = node.reference_coordinates[:3] + q[node.coordinate_indices[:3]]
    (ground_x, ground_a, ground_w), (body_x, body_a, body_w), (node_x, node_a, node_w) = marker_frames(
        system, markers, (0.0, q, v))
    local = np.array([0.3, -0.2, 0.1])
    np.testing.assert_allclose(ground_x.ravel(), [1.0, 2.0, 3.0] + TURN @ local, rtol=0, atol=1e-15)
    np.testing.assert_allclose(ground_a, TURN @ LOCAL_TURN, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(ground_w, 0.0)
    for x, a, w in ((body_x, body_a, body_w), (node_x, node_a, node_w)):
        np.testing.assert_allclose(x.ravel(), position + rotation @ local, rtol=0, atol=1e-15)
        np.testing.assert_allclose(a, rotation @ LOCAL_TURN, rtol=0, atol=1e-15)
        np.testing.assert_allclose(w.ravel(), omega, rtol=0, atol=1e-14)


def test_a_body_fixed_torque_on_a_turned_frame_acts_about_the_turned_axes():
    """tau in marker axes on a MarkerNodeRigid turned by R is the torque A R tau on the body: the same
    accelerations as a LoadTorqueVector R tau, body-fixed, on the node's own frame."""
    results = []
    for turned in (True, False):
        system = ff.System()
        theta = np.array([0.8, 0.2, -0.3, 0.4]) / np.linalg.norm([0.8, 0.2, -0.3, 0.4])
        node = system.add(ff.NodeRigidBodyEP([0, 0, 0, *theta]))
        system.add(ff.ObjectRigidBody(node, MASS, INERTIA_COM))
        torque = np.array([0.1, 0.2, 0.3])
        marker = system.add(ff.MarkerNodeRigid(node, LOCAL_TURN if turned else np.eye(3)))
        system.add(ff.LoadTorqueVector(marker, torque if turned else LOCAL_TURN @ torque, body_fixed=True))
        assembled = system.assemble()
        results.append(accelerations(assembled, 0.0, assembled.q_initial, assembled.v_initial)[0])
    assert np.abs(results[0]).max() > 0.1
    np.testing.assert_allclose(results[0], results[1], rtol=0, atol=1e-14)


def test_the_newton_matrix_with_turned_frames_and_a_rotated_ground_is_exact():
    system, *_ = framed_system()
    assert newton_matrix_error(system.assemble(), np.random.default_rng(5)) <= 1e-6


# --- Node1D and ObjectMass1D ---------------------------------------------------------------------------
def test_a_mass_on_a_tilted_axis_under_gravity_slides_with_g_sin_a():
    """c(t) = c0 + v0 t + g sin(a) t^2 / 2 along the axis (the trapezoidal rule is exact for it), and the
    position is reference_position + A ([c_ref + c, 0, 0] + r); two masses, axes 0.4 and -1.1 rad below
    the horizontal."""
    system = ff.System()
    claims = []
    for angle in (0.4, -1.1):
        node = system.add(ff.Node1D([0.2], initial_coordinates=[0.1], initial_velocities=[0.5]))
        mass = system.add(ff.ObjectMass1D(node, 2.0, [0.5, -0.3, 1.0], rotations.rotation_matrix_y(angle)))
        system.add(ff.LoadMassProportional(system.add(ff.MarkerBodyMass(mass)), GRAVITY))
        claims.append((angle, system.add(ff.SensorNode(node, "Coordinates")),
                       system.add(ff.SensorBody(mass, "Position", [0.1, 0.2, 0.3])),
                       system.add(ff.SensorBody(mass, "Velocity", [0.1, 0.2, 0.3]))))
    result = ff.GeneralizedAlpha(1.0).solve(system.assemble(), 1.0, 50)
    for angle, coordinate, position, velocity in claims:
        exact = 0.1 + 0.5 * result.t + 9.81 * np.sin(angle) * result.t ** 2 / 2
        np.testing.assert_allclose(result.sensor(coordinate)[:, 0], exact, rtol=0, atol=1e-12)
        axis = rotations.rotation_matrix_y(angle)
        expected = [0.5, -0.3, 1.0] + np.outer(0.2 + exact, axis[:, 0]) + axis @ [0.1, 0.2, 0.3]
        np.testing.assert_allclose(result.sensor(position), expected, rtol=0, atol=1e-12)
        np.testing.assert_allclose(result.sensor(velocity),
                                   np.outer(0.5 + 9.81 * np.sin(angle) * result.t, axis[:, 0]), rtol=0, atol=1e-12)


def test_forces_on_a_mass_1d_act_along_its_axis_and_torques_not_at_all():
    """A force F on a MarkerBodyPosition or MarkerBodyRigid of the mass gives m c_tt = (A e_x) . F; a torque
    on its MarkerBodyRigid changes nothing."""
    axis_rotation = rotations.rotation_matrix_z(1.0) @ rotations.rotation_matrix_y(-0.2)
    force = np.array([1.0, 2.0, 3.0])
    system = ff.System()
    node = system.add(ff.Node1D([0.0]))
    mass = system.add(ff.ObjectMass1D(node, 2.0, reference_rotation=axis_rotation))
    system.add(ff.LoadForceVector(system.add(ff.MarkerBodyPosition(mass, [0.3, 0.1, 0.0])), force))
    frame = system.add(ff.MarkerBodyRigid(mass, [0.0, 0.2, 0.0], LOCAL_TURN))
    system.add(ff.LoadForceVector(frame, force, body_fixed=True))
    system.add(ff.LoadTorqueVector(frame, [5.0, 6.0, 7.0]))
    assembled = system.assemble()
    a, _ = accelerations(assembled, 0.0, assembled.q_initial, assembled.v_initial)
    expected = (axis_rotation[:, 0] @ force + axis_rotation[:, 0] @ (axis_rotation @ LOCAL_TURN @ force)) / 2.0
    assert a[0] == pytest.approx(expected, rel=1e-14)


def test_the_newton_matrix_of_masses_on_1d_nodes_is_exact():
    system = ff.System()
    ground = system.add(ff.MarkerNodeCoordinate(system.add(ff.NodePointGround([0.0, 0.0, 0.0])), 0))
    for k in range(2):
        node = system.add(ff.Node1D([0.1 * k], initial_velocities=[0.3]))
        mass = system.add(ff.ObjectMass1D(node, 1.0 + k, [k, 0, 0], rotations.rotation_matrix_x(0.3 * k) @ TURN))
        system.add(ff.CoordinateSpringDamper([ground, system.add(ff.MarkerNodeCoordinate(node, 0))], 30.0, 0.2))
        system.add(ff.LoadMassProportional(system.add(ff.MarkerBodyMass(mass)), GRAVITY))
        system.add(ff.LoadForceVector(system.add(ff.MarkerBodyRigid(mass, [0, 0.1, 0])), [1.0, 0, 0], body_fixed=True))
    assert newton_matrix_error(system.assemble(), np.random.default_rng(7)) <= 1e-6


# --- bad input ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("make, message", [
    (lambda: ff.ObjectGround((0, 0, 0), np.diag([1.0, 1.0, 1.1])),
     r"ObjectGround: reference_rotation must be a rotation matrix \(R\^T R = I, det R = 1\), "
     r"got max\|R\^T R - I\| = 2.1"),
    (lambda: ff.ObjectGround((0, 0, 0), np.diag([1.0, 1.0, -1.0])), r"ObjectGround: reference_rotation .* det R = -1"),
    (lambda: ff.ObjectMass1D(0, 1.0, reference_rotation=np.ones((3, 3))),
     "ObjectMass1D: reference_rotation must be a rotation"),
    (lambda: ff.ObjectMass1D(0, -1.0), r"ObjectMass1D: mass must be >= 0, got -1.0"),
    (lambda: ff.ObjectRigidBody(0, -2.0, np.eye(3), center_of_mass=(0.1, 0, 0)), "ObjectRigidBody: mass must be >= 0"),
    (lambda: ff.ObjectRigidBody(0, 2.0, np.eye(3), center_of_mass=(0.1, 0)),
     "ObjectRigidBody: center_of_mass must have 3 entries"),
    (lambda: ff.MarkerBodyRigid(0, (0, 0, 0), 2 * np.eye(3)), "MarkerBodyRigid: local_rotation must be a rotation"),
    (lambda: ff.MarkerNodeRigid(0, np.eye(2)), r"MarkerNodeRigid: local_rotation must have shape \(3, 3\)"),
])
def test_bad_parameters_are_refused_naming_the_component_and_the_fault(make, message):
    with pytest.raises(ff.ModelError, match=message):
        make()


def test_a_marker_on_a_body_that_cannot_carry_it_is_refused():
    system = ff.System()
    point = system.add(ff.ObjectMassPoint(system.add(ff.NodePoint([0, 0, 0])), 1.0))
    system.add(ff.MarkerBodyRigid(point))
    with pytest.raises(ff.ModelError, match="MarkerBodyRigid 0: body_number must refer to a body with an orientation "
                                            r".*got ObjectMassPoint 0, which has none: use a MarkerBodyPosition"):
        system.assemble()
    system = ff.System()
    system.add(ff.ObjectMass1D(system.add(ff.NodePoint([0, 0, 0])), 1.0))
    message = r"ObjectMass1D 0: node_number must refer to a Node1D \(or a NodeGenericODE2 with one coordinate\)"
    with pytest.raises(ff.ModelError, match=message + ", got NodePoint 0 with 3 coordinates"):
        system.assemble()
    system = ff.System()
    ground = system.add(ff.ObjectGround())
    system.add(ff.MarkerBodyMass(ground))
    with pytest.raises(ff.ModelError, match="MarkerBodyMass 0: body_number must refer to a body with mass"):
        system.assemble()


# --- Gravity -------------------------------------------------------------------------------------------
def bodies_of_every_kind(gravity_load: str):
    """A rigid body with an offset centre of mass, a mass point, an ObjectMass1D, an FFRF beam and a reduced
    beam, under gravity given as one Gravity ("gravity"), one LoadMassProportional per body ("per body") or not
    at all ("none")."""
    from floatframe.components.reference_conditions import add_tisserand_frame
    from floatframe.components.ffrf_reduced import add_reduced_ffrf_body
    from floatframe.fem import block_mesh, eigenmodes, linear_elastic_matrices
    from model_helpers import small_beam

    system = ff.System()
    rigid = system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0]))
    bodies = [system.add(ff.ObjectRigidBody(rigid, MASS, INERTIA_COM + steiner(MASS, OFFSET), OFFSET)),
              system.add(ff.ObjectMassPoint(system.add(ff.NodePoint([1, 0, 0])), 0.7)),
              system.add(ff.ObjectMass1D(system.add(ff.Node1D([0.0])), 1.3, reference_rotation=TURN))]
    body, _ = small_beam(system, euler_parameters=(0.9, 0.1, -0.3, 0.2) / np.linalg.norm([0.9, 0.1, -0.3, 0.2]))
    add_tisserand_frame(system, body)
    bodies.append(body.index)
    mesh = block_mesh(0.2, 0.1, 0.1, 2, 1, 1)
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=1e7, poissons_ratio=0.3, density=1000.0)
    reduced = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, eigenmodes(mass, stiffness, 3, solver="dense"),
                                    position=(0, 1, 0), euler_parameters=(0.8, 0.0, 0.6, 0.0))
    bodies.append(reduced.index)
    system.add(ff.ObjectGround())                                   # no mass: left alone
    acceleration = np.array([0.5, -1.0, -9.81])
    if gravity_load == "gravity":
        system.add(ff.Gravity(acceleration))
    elif gravity_load == "per body":
        for number in bodies:
            system.add(ff.LoadMassProportional(system.add(ff.MarkerBodyMass(number)), acceleration))
    return system


def test_gravity_is_the_mass_proportional_load_on_every_body_with_mass():
    """One Gravity gives exactly the residual of a LoadMassProportional on each body, at random states."""
    from model_helpers import random_state

    gravity, per_body = (bodies_of_every_kind(kind).assemble() for kind in ("gravity", "per body"))
    rng = np.random.default_rng(11)
    for _ in range(3):
        t, q, v, a, lam = random_state(gravity, rng)
        ours, theirs = gravity.residual(t, q, v, a, lam), per_body.residual(t, q, v, a, lam)
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-13 * np.abs(theirs).max())
    no_gravity = bodies_of_every_kind("none").assemble()
    weight = no_gravity.residual(t, q, v, a, lam) - gravity.residual(t, q, v, a, lam)      # the generalized weight
    for body in gravity.system.objects:
        if hasattr(body, "add_mass_proportional_load"):
            rows = body.node.coordinate_indices if hasattr(body, "node") else body.coordinate_indices
            assert np.abs(weight[rows]).max() > 0.1, body.label


def test_gravity_accelerates_free_bodies_with_g():
    """A free rigid body (offset centre of mass) and a mass point under Gravity: their centres of mass fall
    with g exactly, the body keeps its angular velocity (the trapezoidal rule is exact for a parabola)."""
    system = ff.System()
    node = system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0], initial_velocities=[1.0, 0, 2.0, 0, 0, 0, 0]))
    body = system.add(ff.ObjectRigidBody(node, MASS, INERTIA_COM + steiner(MASS, OFFSET), OFFSET))
    point = system.add(ff.ObjectMassPoint(system.add(ff.NodePoint([0, 0, 0], initial_velocities=[0, 1.0, 0])), 0.5))
    system.add(ff.Gravity(lambda t: [0.0, 0.0, -9.81 * (1 + 0 * t)]))
    centre = system.add(ff.SensorBody(body, "Position", OFFSET))
    falling = system.add(ff.SensorBody(point, "Position"))
    omega = system.add(ff.SensorBody(body, "AngularVelocity"))
    result = ff.GeneralizedAlpha(1.0).solve(system.assemble(), 0.5, 25)
    t = result.t[:, None]
    np.testing.assert_allclose(result.sensor(centre), OFFSET + t * [1.0, 0, 2.0] + t ** 2 / 2 * GRAVITY, atol=1e-12)
    np.testing.assert_allclose(result.sensor(falling), t * [0, 1.0, 0] + t ** 2 / 2 * GRAVITY, atol=1e-12)
    np.testing.assert_allclose(result.sensor(omega), 0.0, atol=1e-12)


def test_gravity_names_a_body_with_mass_that_cannot_take_it():
    class Lump(ff.Component):
        """A massive object without a mass-proportional load (a stand-in for a future body kind)."""
        family, type_name = "object", "Lump"

        def __init__(self):
            super().__init__("lump")
            self.mass = np.array([2.0])

    system = ff.System()
    system.add(ff.ObjectMassPoint(system.add(ff.NodePoint([0, 0, 0])), 1.0))
    system.add(Lump())
    system.add(ff.Gravity())
    with pytest.raises(ff.ModelError, match="Gravity 0: cannot act on Lump 1 'lump': it has mass but no "
                                            "mass-proportional load"):
        system.assemble()
    with pytest.raises(ff.ModelError, match="Gravity: acceleration must have 3 entries"):
        ff.Gravity((0, -9.81))


def test_the_newton_matrix_under_gravity_is_exact():
    assert newton_matrix_error(bodies_of_every_kind("gravity").assemble(), np.random.default_rng(13)) <= 1e-6


def test_markers_on_the_reduced_body_turn_with_their_local_rotation():
    """MarkerSuperElementRigid and MarkerBodyRigid (the frame) on an ObjectFFRFReducedOrder: with a local
    rotation R the frame is the unturned one times R, and the angular velocity is the same."""
    from floatframe.components.ffrf_reduced import add_reduced_ffrf_body
    from floatframe.fem import block_mesh, eigenmodes, linear_elastic_matrices
    from model_helpers import random_state

    system = ff.System()
    mesh = block_mesh(0.2, 0.1, 0.1, 2, 1, 1)
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=1e7, poissons_ratio=0.3, density=1000.0)
    body = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, eigenmodes(mass, stiffness, 3, solver="dense"),
                                 euler_parameters=(0.8, 0.0, 0.6, 0.0), angular_velocity=(1.0, 2.0, 3.0))
    face = [k for k, x in enumerate(mesh.nodes) if abs(x[0] - 0.2) < 1e-12]
    weights = np.full(len(face), 1.0 / len(face))
    markers = [system.add(ff.MarkerSuperElementRigid(body, face, weights, (0.01, 0, 0))),
               system.add(ff.MarkerSuperElementRigid(body, face, weights, (0.01, 0, 0), LOCAL_TURN)),
               system.add(ff.MarkerBodyRigid(body, (0.1, 0, 0))),
               system.add(ff.MarkerBodyRigid(body, (0.1, 0, 0), LOCAL_TURN))]
    assembled = system.assemble()
    t, q, v, _, _ = random_state(assembled, np.random.default_rng(17))
    (x0, a0, w0), (x1, a1, w1), (y0, b0, u0), (y1, b1, u1) = marker_frames(system, markers, (t, q, v))
    for plain, turned in (((x0, a0, w0), (x1, a1, w1)), ((y0, b0, u0), (y1, b1, u1))):
        np.testing.assert_allclose(turned[0], plain[0], rtol=0, atol=1e-15)
        np.testing.assert_allclose(turned[1], plain[1] @ LOCAL_TURN, rtol=0, atol=1e-14)
        np.testing.assert_allclose(turned[2], plain[2], rtol=0, atol=1e-14)
    assert np.abs(a0 - b0).max() > 1e-6          # the mesh nodes' rotation is not the frame's


def test_a_lone_mass_1d_moves_uniformly():
    """Exudyn's ObjectMass1D example: one coordinate and no constraint (the smallest system there is), c_ref = 1,
    c0 = 0.5, v0 = 0.5: after 1 s the mass is at x = 2."""
    system = ff.System()
    node = system.add(ff.Node1D([1.0], initial_coordinates=[0.5], initial_velocities=[0.5]))
    mass = system.add(ff.ObjectMass1D(node, 1.0))
    position = system.add(ff.SensorBody(mass, "Position"))
    result = ff.GeneralizedAlpha().solve(system.assemble(), 1.0, 100)
    np.testing.assert_allclose(result.sensor(position)[-1], [2.0, 0.0, 0.0], rtol=0, atol=1e-14)


def test_a_mass_1d_also_sits_on_a_generic_node_of_one_coordinate():
    """As in Exudyn, a NodeGenericODE2 with one coordinate carries an ObjectMass1D like a Node1D."""
    positions = []
    for node_class in (ff.Node1D, ff.NodeGenericODE2):
        system = ff.System()
        node = system.add(node_class([0.3], initial_velocities=[0.2]))
        mass = system.add(ff.ObjectMass1D(node, 1.0, (0, 0, 1), TURN))
        system.add(ff.Gravity())
        position = system.add(ff.SensorBody(mass, "Position"))
        positions.append(ff.GeneralizedAlpha().solve(system.assemble(), 0.5, 20).sensor(position))
    assert np.abs(positions[0][-1] - positions[0][0]).max() > 0.05
    np.testing.assert_array_equal(positions[0], positions[1])


def test_the_centre_of_mass_can_be_a_parameter():
    """center_of_mass as a Parameter gives the residual of the numeric offset, also after set_parameter."""
    from model_helpers import random_state

    def residuals(center, value=None):
        system = ff.System()
        node = system.add(ff.NodeRigidBodyEP([0.1, 0.2, 0.3, 0.8, 0.0, 0.6, 0.0]))
        body = system.add(ff.ObjectRigidBody(node, MASS, INERTIA_COM + steiner(MASS, OFFSET), center))
        system.add(ff.Gravity((0.5, -1.0, -9.81)))
        system.add(ff.LoadForceVector(system.add(ff.MarkerBodyPosition(body, FORCE_POINT)), [1.0, 2.0, 3.0]))
        assembled = system.assemble()
        if value is not None:
            assembled.set_parameter("com", value)
        state = random_state(assembled, np.random.default_rng(19))
        return assembled.residual(*state)

    symbolic = residuals(ff.Parameter("com", OFFSET))
    np.testing.assert_allclose(symbolic, residuals(OFFSET), rtol=0, atol=1e-14 * np.abs(symbolic).max())
    moved = residuals(ff.Parameter("com", OFFSET), value=-OFFSET)
    np.testing.assert_allclose(moved, residuals(-OFFSET), rtol=0, atol=1e-14 * np.abs(moved).max())
    assert np.abs(moved - symbolic).max() > 0.1


def test_under_gravity_a_mass_1d_on_a_spring_settles_at_m_g_sin_a_over_k():
    """StaticSolver in 4 load steps with Gravity (its load stepping): the mass on a spring along an axis tilted
    by a stops at c = m g sin(a) / k."""
    angle, stiffness = 0.3, 200.0
    system = ff.System()
    line = system.add(ff.Node1D([0.0]))
    system.add(ff.ObjectMass1D(line, 2.0, reference_rotation=rotations.rotation_matrix_y(angle)))
    fixed = system.add(ff.MarkerNodeCoordinate(system.add(ff.NodePointGround([0.0, 0.0, 0.0])), 0))
    system.add(ff.CoordinateSpringDamper([fixed, system.add(ff.MarkerNodeCoordinate(line, 0))], stiffness))
    system.add(ff.Gravity(GRAVITY))
    slide = system.add(ff.SensorNode(line, "Coordinates"))
    result = ff.StaticSolver(number_of_load_steps=4).solve(system.assemble())
    settled = 2.0 * 9.81 * np.sin(angle) / stiffness
    np.testing.assert_allclose(result.sensor(slide)[1:, 0], np.arange(1, 5) / 4 * settled, rtol=1e-12)
