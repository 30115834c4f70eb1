"""The hinge angle of a RevoluteJoint (output "Angle", floatframe/components/joints.py):

- with a turn node it is continuous over many turns: a body spun up by a constant torque about an oblique
  hinge axis turns through almost six turns, and the angle equals the closed form phi0 + omega0 t + M t^2 / (2 J)
  at every step to the scheme's second-order error (standard and GGL generalized-alpha); the turn constraint
  exerts nothing;
- without a turn node it is the same angle wrapped into (-pi, pi];
- the initial coordinate of the turn node picks the turn at the start;
- the Newton matrix with the turn row equals finite differences, and its index-2 row is dC/dt;
- joints without a single free rotation about z refuse a turn node, naming the joint.
"""
import numpy as np
import pytest

import floatframe as ff
from floatframe import rotations
from model_helpers import ground_marker, initial_output, newton_matrix_error, random_state, rigid_body

AXIS_FRAME = rotations.rotation_matrix_from_rot_xyz([0.4, -0.3, 0.2])     # joint z: an oblique axis
INERTIA_Z, TORQUE, ANGLE0, RATE0 = 0.6, 3.0, 2.5, 4.0                   # kg m^2, N m, rad, rad/s


def spinning_body(turn_node=True, start_turn=0, joint=ff.RevoluteJoint):
    """A rigid body on a hinge about an oblique axis (a principal axis of the body), turned by ANGLE0 and
    spinning at RATE0, under a constant torque TORQUE about the axis: (system, hinge number)."""
    system = ff.System()
    axis = AXIS_FRAME[:, 2]
    turned = rotations.rotation_matrix_from_rotation_vector(ANGLE0 * axis) @ AXIS_FRAME    # body z along the axis
    _, marker = rigid_body(system, (0.1, 0.2, 0.3), inertia=(0.4, 0.5, INERTIA_Z, 0.0, 0.0, 0.0), rotation=turned,
                           angular_velocity=RATE0 * axis)
    turns = system.add(ff.NodeGenericODE2([0.0], [start_turn * 2 * np.pi])) if turn_node else None
    hinge = system.add(joint([ground_marker(system, (0.1, 0.2, 0.3)), marker], AXIS_FRAME, np.eye(3),
                             turn_node=turns))
    system.add(ff.LoadTorqueVector(marker, TORQUE * axis))
    return system, hinge


def closed_form(t):
    return ANGLE0 + RATE0 * t + 0.5 * TORQUE / INERTIA_Z * t ** 2


@pytest.mark.parametrize("solver", [ff.GeneralizedAlpha(0.9), ff.GeneralizedAlphaGGL(0.9)],
                         ids=["index3", "GGL"])
def test_the_hinge_angle_is_continuous_over_many_turns(solver):
    """The error is the scheme's, second order in h (no turn is lost: that would be 2 pi)."""
    errors = []
    for n_steps in (1500, 3000):
        system, hinge = spinning_body()
        angle = system.add(ff.SensorObject(hinge, "Angle"))
        rotation = system.add(ff.SensorObject(hinge, "Rotation"))
        result = solver.solve(system.assemble(), 3.0, n_steps)
        exact = closed_form(result.t)
        assert exact[-1] / (2 * np.pi) > 5.5                           # almost six turns
        errors.append(np.abs(result.sensor(angle)[:, 0] - exact).max())
        assert np.abs(result.sensor(rotation)[:, 2] - np.angle(np.exp(1j * result.sensor(angle)[:, 0]))).max() <= 1e-9
        joint = system.objects[hinge]
        assert joint.multiplier_indices.size == 6
        assert np.abs(result.lam[:, joint.multiplier_indices[-1]]).max() <= 1e-9   # the turn row exerts nothing
    assert errors[1] <= 6e-4                                           # rad, of 37 rad
    assert errors[0] / errors[1] == pytest.approx(4.0, rel=0.05)


def test_without_a_turn_node_the_hinge_angle_is_wrapped_into_minus_pi_to_pi():
    system, hinge = spinning_body(turn_node=False)
    angle = system.add(ff.SensorObject(hinge, "Angle"))
    result = ff.GeneralizedAlpha(0.9).solve(system.assemble(), 1.0, 1000)
    assert system.objects[hinge].multiplier_indices.size == 5
    values = result.sensor(angle)[:, 0]
    assert values.min() > -np.pi and values.max() <= np.pi
    assert np.abs(np.angle(np.exp(1j * (values - closed_form(result.t))))).max() <= 3e-5     # h^2 error, 2.3e-5
    assert np.abs(np.diff(values)).max() > 6.0                         # it jumps by 2 pi


def test_the_turn_nodes_initial_coordinate_picks_the_turn_at_the_start():
    for start_turn in (-2, 0, 3):
        system, hinge = spinning_body(start_turn=start_turn)
        assert initial_output(system, hinge, "Angle") == pytest.approx([ANGLE0 + 2 * np.pi * start_turn], abs=1e-12)


def test_the_newton_matrix_with_the_turn_row_equals_finite_differences_and_its_index2_row_is_dc_dt():
    system = ff.System()
    _, marker0 = rigid_body(system, (0.1, -0.2, 0.3), rotation=rotations.rotation_matrix_from_rot_xyz([0.2, 0.1, -0.3]),
                            angular_velocity=(0.3, -0.2, 0.5), local_position=(0.2, 0.0, 0.1))
    _, marker1 = rigid_body(system, (0.4, -0.1, 0.2), rotation=rotations.rotation_matrix_from_rot_xyz([-0.1, 0.4, 0.2]),
                            angular_velocity=(-0.1, 0.4, 0.2), local_position=(-0.1, 0.1, 0.0))
    turns = system.add(ff.NodeGenericODE2([0.0], [0.0]))
    system.add(ff.RevoluteJoint([marker0, marker1], AXIS_FRAME, np.eye(3), turn_node=turns))
    assembled = system.assemble(check_redundancy=False)                # the random states are not consistent
    assert newton_matrix_error(assembled, np.random.default_rng(5)) <= 1e-7
    assert assembled.has_index2_form
    rng = np.random.default_rng(13)
    for _ in range(3):
        t, q, v, _, _ = random_state(assembled, rng)
        index2 = assembled.constraint_velocity(t, q, v, index=2)
        index3 = assembled.constraint_velocity(t, q, v, index=3)
        assert np.abs(index2 - index3).max() <= 1e-12 * np.abs(index3).max()


@pytest.mark.parametrize("joint", [ff.PrismaticJoint, ff.UniversalJoint])
def test_a_joint_without_one_free_rotation_about_z_refuses_a_turn_node(joint):
    system = ff.System()
    turns = system.add(ff.NodeGenericODE2([0.0], [0.0]))
    with pytest.raises(ff.ModelError, match=rf"{joint.__name__}: turn_node counts the turns about the joint z axis"):
        joint([0, 1], turn_node=turns)


def test_a_cylindrical_joint_counts_turns_too():
    system, hinge = spinning_body(joint=ff.CylindricalJoint)
    angle = system.add(ff.SensorObject(hinge, "Angle"))
    result = ff.GeneralizedAlpha(0.9).solve(system.assemble(), 3.0, 3000)
    assert np.abs(result.sensor(angle)[:, 0] - closed_form(result.t)).max() <= 6e-4          # as the hinge's


def test_a_turn_node_of_two_coordinates_is_refused_naming_the_joint():
    system = ff.System()
    _, marker = rigid_body(system, (0.0, 0.0, 0.0))
    turns = system.add(ff.NodeGenericODE2([0.0, 0.0], [0.0, 0.0]))
    system.add(ff.RevoluteJoint([ground_marker(system), marker], turn_node=turns, name="hub"))
    with pytest.raises(ff.ModelError, match=r"RevoluteJoint \d+ 'hub': turn_node must be a NodeGenericODE2 "
                                            r"with one coordinate, got NodeGenericODE2 1"):
        system.assemble()
