"""Claims about the joints (floatframe/components/joints.py):

- a rod on a RevoluteJoint about a horizontal axis swings with the elliptic-integral period and stays in its
  plane;
- a rod released from the horizontal loads its hinge with m g / 4 (Newton-Euler), and a body at rest on a
  hinge passes the applied force and the torques normal to the axis to the ground, spinning up about the axis
  with M_z / J_zz;
- a slider on a PrismaticJoint along an oblique axis moves as x0 + v0 t + g_axial t^2 / 2 without turning, and
  its joint carries the normal part of its weight;
- a body on a CylindricalJoint slides along and spins about the axis freely;
- the one rotation equation of the UniversalJoint transmits a shaft rotation with the Cardan ratio
  tan phi2 = tan phi1 / cos beta, with the input driven by a GenericJoint whose rotation offset is an Input;
- an inactive joint adds no equation: the body falls freely;
- the Newton matrix of every joint and every pattern of constrained axes equals finite differences, and the
  index-2 velocity equations equal dC/dt where the Euler parameters have unit norm;
- bad input is refused before any integration, with an error naming the joint and the fault, redundant joints
  included.
"""
import math

import numpy as np
import pytest
import scipy.special

import floatframe as ff
from floatframe import rotations
from model_helpers import ground_marker, newton_matrix_error, random_state, rigid_body

GRAVITY = 9.81
# joint z along the marker's x axis (columns: the joint axes in marker coordinates)
JOINT_Z_ALONG_X = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


def rod(system, length, mass, rotation=np.eye(3), pivot=(0.0, 0.0, 0.0), angular_velocity=(0.0, 0.0, 0.0)):
    """A slender rod along its local -z from ``pivot`` (its top end): (body, marker at the top end)."""
    centre = np.asarray(pivot) + rotation @ np.array([0.0, 0.0, -0.5 * length])
    transverse = mass * length ** 2 / 12.0
    return rigid_body(system, centre, mass, (transverse, transverse, 1e-4 * transverse, 0, 0, 0), rotation,
                      angular_velocity, local_position=(0.0, 0.0, 0.5 * length))


def first_crossings(t, signal, count):
    """Times of the first ``count`` upward zero crossings of ``signal``, linearly interpolated."""
    rows = np.flatnonzero((signal[:-1] < 0.0) & (signal[1:] >= 0.0))[:count]
    return t[rows] - signal[rows] * (t[rows + 1] - t[rows]) / (signal[rows + 1] - signal[rows])


# --- RevoluteJoint ---------------------------------------------------------------------------------------
def test_a_rod_on_a_hinge_swings_with_the_elliptic_integral_period_in_its_plane():
    length, mass, amplitude = 0.8, 1.5, 1.2                          # amplitude [rad] about the global x axis
    system = ff.System()
    body, top = rod(system, length, mass, rotations.rotation_matrix_x(amplitude))
    hinge = system.add(ff.RevoluteJoint([ground_marker(system), top], JOINT_Z_ALONG_X, JOINT_Z_ALONG_X))
    system.add(ff.Gravity([0.0, 0.0, -GRAVITY]))
    angle = system.add(ff.SensorObject(hinge, "Rotation"))
    position = system.add(ff.SensorBody(body, "Position"))
    omega = system.add(ff.SensorBody(body, "AngularVelocity"))
    result = ff.GeneralizedAlpha(1.0).solve(system.assemble(), 4.0, 8000)
    pivot_inertia = mass * length ** 2 / 3.0
    k = math.sin(0.5 * amplitude)
    period = 4.0 * math.sqrt(pivot_inertia / (mass * GRAVITY * 0.5 * length)) * scipy.special.ellipk(k ** 2)
    crossings = first_crossings(result.t, result.sensor(angle)[:, 2], 2)
    # trapezoidal rule at h = 5e-4 s: a period error of O(h^2), 1e-7 of the period measured
    assert abs((crossings[1] - crossings[0]) / period - 1.0) <= 1e-6
    assert np.abs(result.sensor(position)[:, 0]).max() <= 1e-12      # it stays in the plane x = 0
    assert np.abs(result.sensor(omega)[:, 1:]).max() <= 1e-10        # and turns about x only


def test_a_rod_released_from_the_horizontal_loads_its_hinge_with_a_quarter_of_its_weight():
    length, mass = 0.6, 2.0
    system = ff.System()
    _, top = rod(system, length, mass, rotations.rotation_matrix_x(0.5 * math.pi))   # along +y from the pivot
    hinge = system.add(ff.RevoluteJoint([ground_marker(system), top], JOINT_Z_ALONG_X, JOINT_Z_ALONG_X))
    system.add(ff.Gravity([0.0, 0.0, -GRAVITY]))
    force = system.add(ff.SensorObject(hinge, "ForceLocal"))
    rate = system.add(ff.SensorObject(hinge, "AngularVelocityLocal"))
    result = ff.GeneralizedAlpha(1.0).solve(system.assemble(), 1e-4, 1)
    # alpha = m g (L/2) / (m L^2 / 3) = 3 g / (2 L); the centre falls with 3 g / 4; the hinge holds m g / 4.
    # The multipliers are the force on marker 0 (the ground): m g / 4 downwards, in J0 axes (global z is J0 y).
    assert np.allclose(result.sensor(force)[0], [0.0, -0.25 * mass * GRAVITY, 0.0], rtol=0, atol=1e-12)
    spin_up = (result.sensor(rate)[1, 2] - result.sensor(rate)[0, 2]) / 1e-4     # about J0 z = global x
    assert abs(spin_up / (-1.5 * GRAVITY / length) - 1.0) <= 1e-6                # +y turns towards -z


def test_a_hinge_at_rest_passes_the_force_and_the_normal_torques_to_the_ground():
    mass, inertia = 3.0, (0.4, 0.5, 0.6, 0.0, 0.0, 0.0)
    force, torque = np.array([1.0, -2.0, 3.0]), np.array([0.7, -1.1, 0.3])
    system = ff.System()
    body, marker = rigid_body(system, (0.2, 0.1, -0.3), mass, inertia)
    hinge = system.add(ff.RevoluteJoint([ground_marker(system, (0.2, 0.1, -0.3)), marker]))
    system.add(ff.LoadForceVector(marker, force))
    system.add(ff.LoadTorqueVector(marker, torque))
    system.add(ff.Gravity([0.0, 0.0, -GRAVITY]))
    state = ff.GeneralizedAlpha().init(system.assemble())
    assembled = system.assembled
    reactions = [assembled.output_function(lambda ctx, v=variable: system.objects[hinge].output(ctx, v), variable)(
        0.0, state.q, state.v, state.a, state.lam).ravel() for variable in ("ForceLocal", "TorqueLocal")]
    weight = np.array([0.0, 0.0, -mass * GRAVITY])
    assert np.allclose(reactions[0], force + weight, rtol=0, atol=1e-12)
    # the multipliers of t_z0 . t_x1 and t_z0 . t_y1 hold -M_y and M_x where the frames coincide
    assert np.allclose(reactions[1], [-torque[1], torque[0], 0.0], rtol=0, atol=1e-12)
    node = system.objects[body].node
    alpha = rotations.g_global(node.reference_coordinates[3:]) @ state.a[node.coordinate_indices[3:]]
    assert np.allclose(alpha, [0.0, 0.0, torque[2] / inertia[2]], rtol=0, atol=1e-12)


# --- PrismaticJoint, CylindricalJoint --------------------------------------------------------------------
def test_a_slider_moves_along_an_oblique_axis_with_the_axial_part_of_gravity():
    mass, speed, h, n = 1.3, 0.4, 1e-3, 500
    frame = rotations.rotation_matrix_from_rot_xyz([0.3, -0.5, 0.8])            # joint x: an oblique axis
    axis = frame[:, 0]
    system = ff.System()
    body, marker = rigid_body(system, (0.1, 0.2, 0.3), mass, velocity=speed * axis)
    slider = system.add(ff.PrismaticJoint([ground_marker(system, (0.1, 0.2, 0.3)), marker], frame, frame))
    gravity = np.array([0.0, 0.0, -GRAVITY])
    system.add(ff.Gravity(gravity))
    position = system.add(ff.SensorBody(body, "Position"))
    rotation = system.add(ff.SensorBody(body, "Rotation"))
    force = system.add(ff.SensorObject(slider, "ForceLocal"))
    result = ff.GeneralizedAlpha(0.8).solve(system.assemble(), n * h, n)
    t = result.t[:, None]
    exact = np.array([0.1, 0.2, 0.3]) + (speed * t + 0.5 * (gravity @ axis) * t ** 2) * axis
    assert np.abs(result.sensor(position) - exact).max() <= 1e-12   # constant acceleration: the scheme is exact
    assert np.abs(result.sensor(rotation)).max() <= 1e-12
    normal_weight = frame.T @ (mass * gravity)
    # the multipliers to the Newton tolerance (relative 1e-10 of the residual)
    assert np.allclose(result.sensor(force), [0.0, *normal_weight[1:]], rtol=0, atol=1e-7 * mass * GRAVITY)


def test_a_body_on_a_cylindrical_joint_slides_along_and_spins_about_the_axis_freely():
    mass, spin, h, n = 2.0, 3.0, 1e-3, 400
    frame = rotations.rotation_matrix_from_rot_xyz([0.4, 0.2, 0.0])             # joint z: an oblique axis
    axis = frame[:, 2]
    system = ff.System()
    body, marker = rigid_body(system, (0.0, 0.0, 0.0), mass, inertia=(0.3, 0.3, 0.2, 0, 0, 0), rotation=frame,
                              angular_velocity=spin * axis)
    system.add(ff.CylindricalJoint([ground_marker(system), marker], frame))
    gravity = np.array([0.0, 0.0, -GRAVITY])
    system.add(ff.Gravity(gravity))
    position = system.add(ff.SensorBody(body, "Position"))
    omega = system.add(ff.SensorBody(body, "AngularVelocity"))
    result = ff.GeneralizedAlpha(0.8).solve(system.assemble(), n * h, n)
    t = result.t[:, None]
    assert np.abs(result.sensor(position) - 0.5 * (gravity @ axis) * t ** 2 * axis).max() <= 1e-12
    assert np.abs(result.sensor(omega) - spin * axis).max() <= 1e-7 * spin    # to the Newton tolerance


# --- UniversalJoint, GenericJoint --------------------------------------------------------------------------
def test_the_cardan_equation_transmits_a_driven_rotation_with_the_closed_form_ratio():
    """Input shaft about global z, driven by a GenericJoint (all axes locked, rotation offset omega t as an
    Input); output shaft about the axis tilted by beta, on a RevoluteJoint; between them the UniversalJoint's
    one equation t_x0 . t_y1 = 0 (a GenericJoint with constrained_axes [0,0,0,0,0,1])."""
    beta, rate, h, n = 0.5, 2.0 * math.pi, 1e-3, 1000                # one turn of the input shaft in 1 s
    tilt = rotations.rotation_matrix_y(beta)
    system = ff.System()
    _, shaft_in = rigid_body(system, (0.0, 0.0, 0.0), 1.0, (0.1, 0.1, 0.2, 0, 0, 0), angular_velocity=(0, 0, rate))
    _, shaft_out = rigid_body(system, (0.0, 0.0, 0.0), 1.0, (0.1, 0.1, 0.2, 0, 0, 0), tilt,
                                     angular_velocity=rate / math.cos(beta) * tilt[:, 2])
    drive = ff.Input("drive", 6, signal=lambda t: [0.0, 0.0, 0.0, 0.0, 0.0, rate * t])
    system.add(ff.GenericJoint([ground_marker(system), shaft_in], offset=drive, name="drive"))
    bearing = system.add(ff.RevoluteJoint([ground_marker(system), shaft_out], tilt))
    system.add(ff.GenericJoint([shaft_in, shaft_out], (0, 0, 0, 0, 0, 1), name="cardan"))
    angle = system.add(ff.SensorObject(bearing, "Rotation"))
    result = ff.GeneralizedAlpha(0.8).solve(system.assemble(), n * h, n)
    phi_in = rate * result.t
    phi_out = np.unwrap(result.sensor(angle)[:, 2])
    exact = np.unwrap(np.arctan2(np.sin(phi_in), np.cos(phi_in) * math.cos(beta)))
    assert np.abs(phi_out - exact).max() <= 1e-9
    assert np.ptp(np.diff(phi_out)) >= 0.2 * rate * h                # the ratio is not 1: the output rate varies


def test_an_inactive_joint_adds_no_equation_and_the_body_falls_freely():
    system = ff.System()
    body, marker = rigid_body(system, (0.0, 0.0, 0.0), 2.0)
    joint = system.add(ff.RevoluteJoint([ground_marker(system), marker], active=False))
    system.add(ff.Gravity([0.0, 0.0, -GRAVITY]))
    position = system.add(ff.SensorBody(body, "Position"))
    force = system.add(ff.SensorObject(joint, "ForceLocal"))
    assembled = system.assemble()
    assert assembled.n_multipliers == 1                              # the Euler-parameter norm only
    result = ff.GeneralizedAlpha().solve(assembled, 0.1, 10)
    assert abs(result.sensor(position)[-1, 2] + 0.5 * GRAVITY * 0.1 ** 2) <= 1e-12
    assert np.abs(result.sensor(force)).max() == 0.0


# --- exact Jacobians and the index-2 form -------------------------------------------------------------------
def two_bodies(joint_factory):
    """Two free rigid bodies (turned, moving) joined by ``joint_factory(markers)``, under gravity."""
    system = ff.System()
    _, marker0 = rigid_body(system, (0.1, -0.2, 0.3), rotation=rotations.rotation_matrix_from_rot_xyz([0.2, 0.1, -0.3]),
                            angular_velocity=(0.3, -0.2, 0.5), velocity=(0.1, 0.0, -0.2), local_position=(0.2, 0.0, 0.1))
    _, marker1 = rigid_body(system, (0.4, -0.1, 0.2), rotation=rotations.rotation_matrix_from_rot_xyz([-0.1, 0.4, 0.2]),
                            angular_velocity=(-0.1, 0.4, 0.2), local_position=(-0.1, 0.1, 0.0))
    system.add(joint_factory([marker0, marker1]))
    system.add(ff.Gravity([0.0, -GRAVITY, 0.0]))
    return system


TURN0 = rotations.rotation_matrix_from_rot_xyz([0.3, -0.2, 0.7])
TURN1 = rotations.rotation_matrix_from_rot_xyz([-0.5, 0.1, 0.2])
PATTERNS = [translations + rotation_flags for translations in ((1, 1, 1), (0, 1, 1), (1, 0, 0), (0, 0, 0))
            for rotation_flags in ((1, 1, 1), (0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1))]


@pytest.mark.parametrize("axes", PATTERNS, ids=lambda axes: "".join(map(str, axes)))
def test_the_newton_matrix_of_a_generic_joint_equals_finite_differences(axes):
    offset = ff.Parameter("offset", [0.01, -0.02, 0.03, 0.1, -0.2, 0.3])
    system = two_bodies(lambda markers: ff.GenericJoint(markers, axes, TURN0, TURN1, offset))
    assembled = system.assemble(check_redundancy=False)            # the random states are not consistent
    assert newton_matrix_error(assembled, np.random.default_rng(7)) <= 1e-7


@pytest.mark.parametrize("joint", [ff.RevoluteJoint, ff.PrismaticJoint, ff.UniversalJoint, ff.CylindricalJoint])
def test_the_newton_matrix_of_each_named_joint_equals_finite_differences(joint):
    system = two_bodies(lambda markers: joint(markers, TURN0, TURN1))
    assert newton_matrix_error(system.assemble(check_redundancy=False), np.random.default_rng(3)) <= 1e-7


@pytest.mark.parametrize("axes", [(1, 1, 1, 1, 1, 1), (0, 1, 1, 1, 1, 0), (1, 0, 1, 0, 0, 1)],
                         ids=lambda axes: "".join(map(str, axes)))
def test_the_index2_velocity_equations_are_dc_dt_on_unit_euler_parameters(axes):
    system = two_bodies(lambda markers: ff.GenericJoint(markers, axes, TURN0, TURN1,
                                                        [0.0, 0.0, 0.0, 0.1, -0.2, 0.3]))
    assembled = system.assemble(check_redundancy=False)
    assert assembled.has_index2_form
    rng = np.random.default_rng(11)
    for _ in range(3):
        t, q, v, _, _ = random_state(assembled, rng)               # unit-norm theta, tangent theta_t
        index2 = assembled.constraint_velocity(t, q, v, index=2)
        index3 = assembled.constraint_velocity(t, q, v, index=3)
        assert np.abs(index2 - index3).max() <= 1e-12 * np.abs(index3).max()


# --- bad input ----------------------------------------------------------------------------------------------
def test_bad_joint_input_is_refused_naming_the_joint_and_the_fault():
    with pytest.raises(ff.ModelError, match=r"GenericJoint 'g': constrained_axes must be six flags 0/1, got "
                                            r"\[1, 1, 2, 1, 1, 1\]"):
        ff.GenericJoint([0, 1], [1, 1, 2, 1, 1, 1], name="g")
    with pytest.raises(ff.ModelError, match="constrained_axes must be six flags"):
        ff.GenericJoint([0, 1], [1, 1, 1, 1, 1])
    reflection = np.diag([1.0, 1.0, -1.0])
    with pytest.raises(ff.ModelError, match=r"RevoluteJoint 'h': rotation_marker1 must be a rotation matrix"):
        ff.RevoluteJoint([0, 1], np.eye(3), reflection, name="h")
    with pytest.raises(ff.ModelError, match=r"PrismaticJoint: active must be True or False"):
        ff.PrismaticJoint([0, 1], active=ff.Parameter("on", 1.0))
    system = ff.System()
    node = system.add(ff.NodePoint([0.0, 0.0, 0.0]))
    system.add(ff.ObjectMassPoint(node, 1.0))
    system.add(ff.UniversalJoint([ground_marker(system), system.add(ff.MarkerNodePosition(node))], name="u"))
    with pytest.raises(ff.ModelError, match=r"UniversalJoint \d+ 'u': marker_numbers\[1\] \(MarkerNodePosition "
                                            r"\d+\) must be a rigid marker"):
        system.assemble()


def test_a_spherical_and_a_revolute_joint_on_the_same_pair_are_refused_as_redundant():
    system = ff.System()
    _, marker = rigid_body(system, (0.0, 0.0, 0.0))
    ground = ground_marker(system)
    system.add(ff.SphericalJoint([ground, marker], name="ball"))
    system.add(ff.RevoluteJoint([ground, marker], name="hinge"))
    with pytest.raises(ff.ModelError, match=r"redundant constraints at the initial state: 3 equations of "
                                            r"RevoluteJoint \d+ 'hinge' repeat SphericalJoint \d+ 'ball'"):
        system.assemble(redundant="refuse")
