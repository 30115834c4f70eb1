"""Output variables of nodes and bodies: each formula against finite differences or a closed form."""
import casadi as ca
import numpy as np
import pytest

import floatframe.components as ff
from floatframe import rotations
from floatframe.assembly import System

REFERENCE = np.array([1.0, 2.0, 3.0, 1.0, 0.0, 0.0, 0.0])
POINT = np.array([0.3, -0.2, 0.5])


def elementary(axis, angle):
    c, s = np.cos(angle), np.sin(angle)
    i, j = [(1, 2), (0, 2), (0, 1)][axis]
    matrix = np.eye(3)
    matrix[i, i] = matrix[j, j] = c
    matrix[i, j], matrix[j, i] = (-s, s) if axis != 1 else (s, -s)
    return matrix


def trajectory():
    """q(t), v(t), a(t) of a tumbling motion with exactly unit Euler parameters, as CasADi functions of t."""
    t = ca.SX.sym("t")
    raw = ca.vertcat(0.9 + 0.3 * t, 0.1 - 0.8 * t ** 2, -0.3 + 1.1 * t, 0.2 + 0.5 * t - 0.4 * t ** 2)
    theta = raw / ca.norm_2(raw)
    position = ca.vertcat(1.0 + 0.4 * t, 2.0 - t ** 2, 3.0 + 0.3 * t ** 3)
    q = ca.vertcat(position, theta) - REFERENCE
    v = ca.jacobian(q, t)
    a = ca.jacobian(v, t)
    return ca.Function("motion", [t], [q, v, a])


@pytest.fixture(scope="module")
def model():
    system = System()
    node = system.add(ff.NodeRigidBodyEP(REFERENCE))
    body = system.add(ff.ObjectRigidBody(node, 2.0, [1.5, 2.0, 3.0, 0.1, 0.2, 0.3]))
    ground = system.add(ff.ObjectGround([0.0, 0.0, 0.5]))
    assembled = system.assemble()
    motion = trajectory()

    def output(kind, number, variable, t, local_position=POINT):
        component = system.items(kind)[number]
        build = ((lambda ctx: component.output(ctx, variable)) if kind == "node"
                 else (lambda ctx: component.output(ctx, variable, local_position)))
        q, v, a = (np.asarray(x).ravel() for x in motion(t))
        return assembled.output_function(build, variable)(t, q, v, a, np.zeros(assembled.n_multipliers))

    output.node, output.body, output.ground, output.motion = node, body, ground, motion
    return output


def rate(function, t, h=1e-5):
    """Central difference d/dt of function(t) (error ~ h^2)."""
    return (function(t + h) - function(t - h)) / (2 * h)


TIMES = [0.0, 0.35, 0.8]


@pytest.mark.parametrize("t", TIMES)
@pytest.mark.parametrize("derivative, of", [("Velocity", "Position"), ("Acceleration", "Velocity"),
                                            ("AngularAcceleration", "AngularVelocity")])
def test_body_rates_are_the_time_derivatives_of_their_outputs(model, t, derivative, of):
    expected = rate(lambda s: model("object", model.body, of, s), t)
    np.testing.assert_allclose(model("object", model.body, derivative, t), expected, rtol=0, atol=1e-7)


@pytest.mark.parametrize("t", TIMES)
def test_node_acceleration_and_angular_acceleration_are_time_derivatives(model, t):
    for derivative, of in (("Acceleration", "Velocity"), ("AngularAcceleration", "AngularVelocity")):
        expected = rate(lambda s: model("node", model.node, of, s), t)
        np.testing.assert_allclose(model("node", model.node, derivative, t), expected, rtol=0, atol=1e-7)


@pytest.mark.parametrize("t", TIMES)
def test_angular_velocity_is_the_axial_vector_of_A_t_A_transposed(model, t):
    rotation = model("object", model.body, "RotationMatrix", t).reshape(3, 3)
    spin = rate(lambda s: model("object", model.body, "RotationMatrix", s).reshape(3, 3), t) @ rotation.T
    np.testing.assert_allclose(model("object", model.body, "AngularVelocity", t),
                               [spin[2, 1], spin[0, 2], spin[1, 0]], rtol=0, atol=1e-8)


@pytest.mark.parametrize("t", TIMES)
def test_local_outputs_are_the_global_ones_in_body_axes(model, t):
    rotation = model("object", model.body, "RotationMatrix", t).reshape(3, 3)
    for local, global_ in (("VelocityLocal", "Velocity"), ("AccelerationLocal", "Acceleration"),
                           ("AngularVelocityLocal", "AngularVelocity"),
                           ("AngularAccelerationLocal", "AngularAcceleration")):
        np.testing.assert_allclose(model("object", model.body, local, t),
                                   rotation.T @ model("object", model.body, global_, t), rtol=0, atol=1e-12)


@pytest.mark.parametrize("t", TIMES)
def test_rotation_matrix_is_row_wise_and_rotation_gives_it_as_xyz_tait_bryan_angles(model, t):
    q = np.asarray(model.motion(t)[0]).ravel()
    rotation = rotations.rotation_matrix(q[3:] + REFERENCE[3:])
    np.testing.assert_allclose(model("node", model.node, "RotationMatrix", t), rotation.reshape(-1), atol=1e-14)
    phi = model("node", model.node, "Rotation", t)
    np.testing.assert_allclose(elementary(0, phi[0]) @ elementary(1, phi[1]) @ elementary(2, phi[2]), rotation,
                               atol=1e-13)
    np.testing.assert_allclose(model("object", model.body, "Rotation", t), phi, atol=1e-14)


def test_tait_bryan_angles_round_trip_and_agree_symbolically():
    rng = np.random.default_rng(3)
    for phi in rng.uniform([-3, -1.5, -3], [3, 1.5, 3], size=(20, 3)):
        matrix = elementary(0, phi[0]) @ elementary(1, phi[1]) @ elementary(2, phi[2])
        np.testing.assert_allclose(rotations.rot_xyz_from_rotation_matrix(matrix), phi, atol=1e-12)
        np.testing.assert_allclose(np.asarray(rotations.rot_xyz_from_rotation_matrix(ca.DM(matrix))).ravel(), phi, atol=1e-12)


@pytest.mark.parametrize("t", TIMES)
def test_node_outputs_are_the_body_outputs_at_its_centre(model, t):
    for variable in ("Position", "Velocity", "Acceleration", "AngularVelocity", "AngularVelocityLocal",
                     "AngularAcceleration", "Rotation", "RotationMatrix"):
        np.testing.assert_allclose(model("node", model.node, variable, t),
                                   model("object", model.body, variable, t, local_position=np.zeros(3)), atol=1e-12)


def test_coordinates_total_adds_the_reference(model):
    q = np.asarray(model.motion(0.35)[0]).ravel()
    np.testing.assert_allclose(model("node", model.node, "CoordinatesTotal", 0.35), REFERENCE + q, atol=1e-15)
    np.testing.assert_allclose(model("node", model.node, "Coordinates", 0.35), q, atol=1e-15)


def test_ground_outputs_are_those_of_a_fixed_point(model):
    np.testing.assert_allclose(model("object", model.ground, "Position", 0.35), [0.3, -0.2, 1.0], atol=1e-15)
    for variable in ("Displacement", "Velocity", "Acceleration", "AngularVelocity", "AngularAcceleration"):
        np.testing.assert_array_equal(model("object", model.ground, variable, 0.35), np.zeros(3))
    np.testing.assert_array_equal(model("object", model.ground, "RotationMatrix", 0.35), np.eye(3).reshape(-1))


def test_an_unknown_body_output_is_named_with_the_available_ones(model):
    with pytest.raises(ff.ModelError, match="ObjectRigidBody 0.*'Strain'.*AccelerationLocal"):
        model("object", model.body, "Strain", 0.0)
