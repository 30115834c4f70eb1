"""Claims about the spring-dampers, the distance constraint and the connector user functions:

- a mass on a SpringDamper oscillates with the damped frequency and decay of the closed form;
- a rigid body on a TorsionalSpringDamper turns with the period 2 pi sqrt(J/k), damped as the closed form;
  its angle lies in (-pi, pi] (a turn beyond pi jumps by 2 pi);
- a RigidBodySpringDamper deflects statically by K^-1 (F, M) (joint-frame coordinates) under a small force
  and torque, also with coupling (off-diagonal) stiffness;
- a point mass on a DistanceConstraint is a pendulum with the elliptic-integral period, and its string force
  at the bottom is m (g + l omega^2);
- undamped spring systems keep their energy under generalized-alpha with spectral radius 1 (to O(h^2));
- the Newton matrix of every component equals finite differences (also with user functions, traced or called);
- a user function gives what the built-in law gives when it computes the same law;
- bad input is refused with an error naming the component and the fault.
"""
import math

import numpy as np
import pytest
import scipy.special

import floatframe as ff
from floatframe import rotations
from model_helpers import ground_marker, initial_output, newton_matrix_error, rigid_body

GRAVITY = 9.81


def point_mass(system, position, mass=2.0, velocity=(0.0, 0.0, 0.0)):
    node = system.add(ff.NodePoint(list(position), initial_velocities=list(velocity)))
    body = system.add(ff.ObjectMassPoint(node, mass))
    return body, system.add(ff.MarkerNodePosition(node))


# --- SpringDamper -------------------------------------------------------------------------------------
def test_a_mass_on_a_spring_damper_has_the_damped_frequency_and_decay_of_the_closed_form():
    mass, stiffness, damping, reference_length = 2.0, 200.0, 4.0, 0.5
    direction = np.array([1.0, 2.0, 2.0]) / 3.0                     # the line of the spring, skew to the axes
    start = 0.1                                                      # initial stretch [m]
    system = ff.System()
    body, marker = point_mass(system, (reference_length + start) * direction, mass)
    spring = system.add(ff.SpringDamper([ground_marker(system), marker], stiffness, damping,
                                        reference_length=reference_length))
    distance = system.add(ff.SensorObject(spring, "Distance"))
    position = system.add(ff.SensorBody(body, "Position"))
    result = ff.GeneralizedAlpha(1.0).solve(system.assemble(), 1.0, 4000)
    omega0 = math.sqrt(stiffness / mass)
    decay = damping / (2 * mass)                                     # the envelope is exp(-decay t)
    omega_d = math.sqrt(omega0 ** 2 - decay ** 2)
    t = result.t
    exact = start * np.exp(-decay * t) * (np.cos(omega_d * t) + decay / omega_d * np.sin(omega_d * t))
    stretch = result.sensor(distance)[:, 0] - reference_length
    # trapezoidal rule: phase error ~ omega^3 h^2 t / 12 = 2e-5 rad after 1 s, so 2e-6 m on 0.1 m
    assert np.abs(stretch - exact).max() <= 1e-5 * start
    # the motion stays on the spring's line
    lateral = result.sensor(position) - np.outer(result.sensor(position) @ direction, direction)
    assert np.abs(lateral).max() <= 1e-12


def test_the_spring_damper_force_acts_along_the_line_with_the_added_force_and_velocity_offset():
    system = ff.System()
    _, marker = point_mass(system, (0.3, 0.4, 0.0), velocity=(1.0, -2.0, 0.5))
    spring = system.add(ff.SpringDamper([ground_marker(system), marker], 100.0, 3.0, force=7.0,
                                        reference_length=0.2, velocity_offset=0.25))

    def output(variable):
        return initial_output(system, spring, variable)

    direction = np.array([0.6, 0.8, 0.0])
    rate = direction @ np.array([1.0, -2.0, 0.5])                    # L_t
    scalar = 100.0 * (0.5 - 0.2) + 3.0 * (rate - 0.25) + 7.0
    assert output("Distance") == pytest.approx([0.5], rel=1e-14)
    assert output("ForceLocal") == pytest.approx([scalar], rel=1e-14)
    assert output("Force") == pytest.approx(scalar * direction, rel=1e-14)
    # the residual holds +f_SD v_f on the mass (marker 1 gets -f_SD v_f on the right-hand side)
    assembled = system.assemble()
    residual = assembled.residual(0.0, assembled.q_initial, assembled.v_initial, 0 * assembled.q_initial, np.zeros(0))
    assert residual == pytest.approx(scalar * direction, rel=1e-14)


def test_an_inactive_spring_exerts_nothing_and_a_parameter_switches_it_during_a_simulation():
    system = ff.System()
    _, marker = point_mass(system, (0.3, 0.4, 0.0), velocity=(1.0, -2.0, 0.5))
    active = ff.Parameter("spring_on", 1.0)
    spring = system.add(ff.SpringDamper([ground_marker(system), marker], 100.0, 3.0, force=7.0, active=active))
    assembled = system.assemble()
    state = (0.0, assembled.q_initial, assembled.v_initial, 0 * assembled.q_initial, np.zeros(0))
    assert np.abs(assembled.residual(*state)).max() > 10.0
    assembled.set_parameter("spring_on", 0.0)
    assert np.abs(assembled.residual(*state)).max() == 0.0
    force = assembled.output_function(lambda ctx: system.objects[spring].output(ctx, "Force"))
    assert np.abs(force(*state)).max() == 0.0
    with pytest.raises(ff.ModelError, match=r"SpringDamper: active must be True or False \(1 or 0\), got \[0.5\]"):
        ff.SpringDamper([0, 1], 1.0, active=0.5)


# --- TorsionalSpringDamper ---------------------------------------------------------------------------
def torsional_model(damping=0.0, angle0=0.0, rate0=2.0, inertia_z=0.6, stiffness=15.0, joint_rotation=np.eye(3),
                    turn_node=False):
    """A rigid body turning about the joint z axis (a principal axis) on a torsional spring to the ground."""
    system = ff.System()
    turns = system.add(ff.NodeGenericODE2([0.0], [angle0])) if turn_node else None
    axis = joint_rotation[:, 2]
    inertia = joint_rotation @ np.diag([0.4, 0.5, inertia_z]) @ joint_rotation.T
    body, marker = rigid_body(system, (0.1, 0.2, 0.3), inertia=[inertia[0, 0], inertia[1, 1], inertia[2, 2],
                                                                  inertia[1, 2], inertia[0, 2], inertia[0, 1]],
                              rotation=rotations.rotation_matrix_from_rotation_vector(angle0 * axis),
                              angular_velocity=rate0 * axis)
    spring = system.add(ff.TorsionalSpringDamper([ground_marker(system, (0.1, 0.2, 0.3)), marker], stiffness, damping,
                                                 rotation_marker0=joint_rotation, rotation_marker1=joint_rotation,
                                                 turn_node=turns))
    return system, spring


@pytest.mark.parametrize("damping", [0.0, 0.9])
def test_a_rigid_body_on_a_torsional_spring_turns_with_the_closed_form_period_and_decay(damping):
    joint_rotation = rotations.rotation_matrix_from_rot_xyz([0.3, -0.5, 0.2])
    system, spring = torsional_model(damping, joint_rotation=joint_rotation)
    angle = system.add(ff.SensorObject(spring, "Rotation"))
    torque = system.add(ff.SensorObject(spring, "TorqueLocal"))
    result = ff.GeneralizedAlpha(1.0).solve(system.assemble(), 2.0, 8000)
    inertia, stiffness, rate0 = 0.6, 15.0, 2.0
    omega0 = math.sqrt(stiffness / inertia)                          # period 2 pi sqrt(J / k)
    decay = damping / (2 * inertia)
    omega_d = math.sqrt(omega0 ** 2 - decay ** 2)
    exact = rate0 / omega_d * np.exp(-decay * result.t) * np.sin(omega_d * result.t)
    amplitude = rate0 / omega_d
    phase_error = omega0 ** 3 * (2.0 / 8000) ** 2 * 2.0 / 12          # trapezoidal rule, 3.2e-5 rad
    assert np.abs(result.sensor(angle)[:, 0] - exact).max() <= 2 * phase_error * amplitude
    rate = np.gradient(result.sensor(angle)[:, 0], result.t)
    assert result.sensor(torque)[:, 0] == pytest.approx(stiffness * result.sensor(angle)[:, 0] + damping * rate,
                                                        abs=1e-3 * stiffness * amplitude)


def test_with_a_turn_node_the_torsional_spring_counts_turns_beyond_a_half_turn():
    """Amplitude 4.6 rad > pi: the closed form holds throughout (without the node the torque would flip at pi)."""
    omega0 = math.sqrt(1.0 / 0.6)
    errors = []
    for n_steps in (2500, 5000):
        system, spring = torsional_model(rate0=6.0, stiffness=1.0, turn_node=True)
        angle = system.add(ff.SensorObject(spring, "Rotation"))
        result = ff.GeneralizedAlpha(1.0).solve(system.assemble(), 5.0, n_steps)
        errors.append(np.abs(result.sensor(angle)[:, 0] - 6.0 / omega0 * np.sin(omega0 * result.t)).max())
        assert np.abs(result.sensor(angle)[:, 0]).max() == pytest.approx(6.0 / omega0, rel=1e-4)
        assert np.abs(result.lam[:, -1]).max() <= 1e-12              # the turn constraint exerts nothing
    assert errors[1] <= 1e-5 * 6.0 / omega0
    assert errors[0] / errors[1] == pytest.approx(4.0, rel=0.05)     # second order, no jump of a turn


def test_the_torsional_angle_lies_in_minus_pi_to_pi_beyond_a_half_turn_it_jumps():
    system, spring = torsional_model(angle0=3.5, rate0=0.0)
    assert initial_output(system, spring, "Rotation") == pytest.approx([3.5 - 2 * np.pi], rel=1e-12)


# --- RigidBodySpringDamper ---------------------------------------------------------------------------
def coupled_stiffness():
    """A symmetric positive definite 6x6 stiffness with translation-rotation coupling: K[0, 5] and K[1, 3]."""
    stiffness = np.diag([4e5, 5e5, 6e5, 2e3, 3e3, 4e3])
    stiffness[0, 5] = stiffness[5, 0] = 2e4                          # x force <-> z torque
    stiffness[1, 3] = stiffness[3, 1] = -1.5e4                       # y force <-> x torque
    assert np.linalg.eigvalsh(stiffness).min() > 0
    return stiffness


def static_deflection(load_scale, intrinsic):
    """(deflection u, K^-1 J0^T (F, M), J0^T (F, M), [f, m]) of a rigid body on a RigidBodySpringDamper to the
    ground under a force F and a torque M at the spring's marker."""
    stiffness = coupled_stiffness()
    joint_rotation = rotations.rotation_matrix_from_rot_xyz([0.2, 0.4, -0.3])
    body_rotation = rotations.rotation_matrix_from_rot_xyz([-0.1, 0.25, 0.5])
    system = ff.System()
    position = np.array([0.5, -0.2, 1.0])
    body, marker = rigid_body(system, position, rotation=body_rotation)
    spring = system.add(ff.RigidBodySpringDamper([ground_marker(system, position), marker], stiffness,
                                                 0.01 * stiffness, rotation_marker0=joint_rotation,
                                                 rotation_marker1=body_rotation.T @ joint_rotation,
                                                 intrinsic=intrinsic))
    force, torque = load_scale * np.array([100.0, -200.0, 300.0]), load_scale * np.array([2.0, 1.0, -3.0])
    system.add(ff.LoadForceVector(marker, force))
    system.add(ff.LoadTorqueVector(marker, torque))
    sensors = [system.add(ff.SensorObject(spring, name))
               for name in ("DisplacementLocal", "Rotation", "ForceLocal", "TorqueLocal")]
    result = ff.StaticSolver().solve(system.assemble())
    final = [result.sensor(sensor)[-1] for sensor in sensors]
    local_load = np.concatenate([joint_rotation.T @ force, joint_rotation.T @ torque])   # J0^T (F, M)
    return (np.concatenate(final[:2]), np.linalg.solve(stiffness, local_load), local_load,
            np.concatenate(final[2:]))


def test_static_deflection_of_a_rigid_body_spring_damper_is_k_inverse_of_the_load():
    """Exudyn's formulation in J0: the load balances J0 [f; m] = J0 K u, so u = K^-1 J0^T (F, M) exactly."""
    deflection, expected, local_load, balance = static_deflection(1e-2, intrinsic=False)
    assert deflection == pytest.approx(expected, rel=1e-9, abs=1e-9 * np.abs(expected).max())
    assert balance == pytest.approx(local_load, rel=1e-9, abs=1e-12 * np.abs(local_load).max())
    # the coupling terms matter: without them the x force would give no rotation about z
    assert abs(expected[5] - local_load[5] / coupled_stiffness()[5, 5]) > 0.05 * abs(expected[5])


def test_the_intrinsic_formulation_deflects_by_k_inverse_of_the_load_to_first_order():
    """Mid frame and the lever of the force about the mid point: u - K^-1 J0^T (F, M) = O(|u|^2)."""
    small, expected_small, _, _ = static_deflection(1e-3, intrinsic=True)
    large, expected_large, _, _ = static_deflection(1e-2, intrinsic=True)
    error_small, error_large = np.abs(small - expected_small).max(), np.abs(large - expected_large).max()
    assert error_small <= 2e-5 * np.abs(expected_small).max()
    assert error_large / error_small == pytest.approx(100.0, rel=0.01)     # 10 times the load


def test_the_rigid_body_spring_damper_outputs_are_exudyns_relative_quantities():
    joint0 = rotations.rotation_matrix_from_rot_xyz([0.2, 0.4, -0.3])
    body_rotation = rotations.rotation_matrix_from_rot_xyz([-0.1, 0.25, 0.5])
    joint1 = rotations.rotation_matrix_from_rot_xyz([0.1, 0.0, 0.7])
    system = ff.System()
    body, marker = rigid_body(system, (0.5, -0.2, 1.0), rotation=body_rotation, velocity=(0.1, 0.2, 0.3),
                              angular_velocity=(0.3, -0.4, 0.5))
    offset = np.array([0.01, 0.02, 0.03, 0.1, 0.2, 0.3])
    stiffness, damping = coupled_stiffness(), 0.01 * coupled_stiffness()
    spring = system.add(ff.RigidBodySpringDamper([ground_marker(system, (0.1, 0.1, 0.1)), marker], stiffness,
                                                 damping, rotation_marker0=joint0, rotation_marker1=joint1,
                                                 offset=offset))

    def output(variable):
        return initial_output(system, spring, variable)

    displacement = joint0.T @ (np.array([0.5, -0.2, 1.0]) - 0.1)
    rotation = rotations.rot_xyz_from_rotation_matrix(joint0.T @ body_rotation @ joint1)
    velocity, angular_velocity = joint0.T @ np.array([0.1, 0.2, 0.3]), joint0.T @ np.array([0.3, -0.4, 0.5])
    local = stiffness @ (np.concatenate([displacement, rotation]) - offset) + damping @ np.concatenate(
        [velocity, angular_velocity])
    assert output("DisplacementLocal") == pytest.approx(displacement, rel=1e-13)
    assert output("Rotation") == pytest.approx(rotation, rel=1e-13)
    assert output("VelocityLocal") == pytest.approx(velocity, rel=1e-13)
    assert output("AngularVelocityLocal") == pytest.approx(angular_velocity, rel=1e-12)
    assert np.concatenate([output("ForceLocal"), output("TorqueLocal")]) == pytest.approx(local, rel=1e-12)


# --- DistanceConstraint ------------------------------------------------------------------------------
def test_a_point_mass_on_a_distance_constraint_swings_with_the_pendulum_period_and_string_force():
    length, mass, angle0 = 0.8, 1.5, 0.6
    system = ff.System()
    pivot = np.array([0.0, 0.0, 1.0])
    body, marker = point_mass(system, pivot + length * np.array([np.sin(angle0), 0.0, -np.cos(angle0)]), mass)
    system.add(ff.LoadForceVector(marker, [0.0, 0.0, -mass * GRAVITY]))
    string = system.add(ff.DistanceConstraint([ground_marker(system, pivot), marker], length))
    force = system.add(ff.SensorObject(string, "Force"))
    distance = system.add(ff.SensorObject(string, "Distance"))
    position = system.add(ff.SensorBody(body, "Position"))
    result = ff.GeneralizedAlpha(1.0).solve(system.assemble(), 2.5, 10000)
    x = result.sensor(position)[:, 0]
    crossings = [result.t[i] - x[i] * (result.t[i + 1] - result.t[i]) / (x[i + 1] - x[i])
                 for i in range(len(x) - 1) if x[i] > 0 >= x[i + 1] or x[i] < 0 <= x[i + 1]]
    period = 4 * math.sqrt(length / GRAVITY) * scipy.special.ellipk(math.sin(angle0 / 2) ** 2)
    assert crossings[2] - crossings[0] == pytest.approx(period, rel=1e-6)
    # at the bottom (the first crossing) l omega^2 = 2 g (1 - cos angle0): lambda = m g (3 - 2 cos angle0)
    bottom = np.argmin(np.abs(result.t - crossings[0]))
    assert result.sensor(force)[bottom, 0] == pytest.approx(mass * GRAVITY * (3 - 2 * math.cos(angle0)), rel=1e-4)
    assert np.abs(result.sensor(distance)[:, 0] - length).max() <= 1e-10


# --- energy -----------------------------------------------------------------------------------------
def spring_chain_energy_drift(n_steps):
    """Largest relative energy change of two masses on SpringDampers and a CartesianSpringDamper (no damping)."""
    system = ff.System()
    masses = (1.0, 2.0)
    first, m1 = point_mass(system, (0.6, 0.1, 0.0), masses[0], velocity=(0.0, 1.5, -0.5))
    second, m2 = point_mass(system, (1.1, -0.3, 0.2), masses[1], velocity=(0.5, 0.0, 1.0))
    ground = ground_marker(system)
    springs = [system.add(ff.SpringDamper([ground, m1], 300.0, reference_length=0.5)),
               system.add(ff.SpringDamper([m1, m2], 500.0, reference_length=0.6))]
    cartesian = system.add(ff.CartesianSpringDamper([ground_marker(system, (1.0, 0.0, 0.0)), m2], [100.0, 200.0, 300.0],
                                                    offset=[0.1, 0.0, 0.0]))
    velocity = [system.add(ff.SensorBody(body, "Velocity")) for body in (first, second)]
    distance = [system.add(ff.SensorObject(spring, "Distance")) for spring in springs]
    displacement = system.add(ff.SensorObject(cartesian, "Displacement"))
    result = ff.GeneralizedAlpha(1.0).solve(system.assemble(), 1.0, n_steps)
    kinetic = sum(0.5 * m * np.sum(result.sensor(s) ** 2, axis=1) for m, s in zip(masses, velocity))
    potential = (0.5 * 300.0 * (result.sensor(distance[0])[:, 0] - 0.5) ** 2
                 + 0.5 * 500.0 * (result.sensor(distance[1])[:, 0] - 0.6) ** 2
                 + 0.5 * np.sum(np.array([100.0, 200.0, 300.0]) * (result.sensor(displacement) - [0.1, 0.0, 0.0]) ** 2,
                                axis=1))
    energy = kinetic + potential
    return np.abs(energy - energy[0]).max() / energy[0]


def test_undamped_spring_systems_keep_their_energy_to_second_order():
    coarse, fine = spring_chain_energy_drift(500), spring_chain_energy_drift(1000)
    assert fine <= 1e-4
    assert coarse / fine == pytest.approx(4.0, rel=0.15)             # O(h^2), no secular drift of first order


# --- Newton matrix ----------------------------------------------------------------------------------
def cubic_force(t, elongation, rate):
    return 300.0 * elongation + 40.0 * elongation ** 3 + 2.0 * rate + 0.5 * np.sin(t)


def branching_force(t, elongation, rate):
    """Not traceable (a branch on the value): called as a numeric callback."""
    stiffness = 300.0 if elongation > 0 else 200.0
    return stiffness * elongation + 2.0 * rate + 0.5 * math.sin(t)


def vector_force(t, displacement, velocity):
    return 1e3 * displacement + 50.0 * displacement ** 3 + 3.0 * velocity


def branching_vector_force(t, displacement, velocity):
    return np.array([1e3 * d if d > 0 else 8e2 * d for d in displacement]) + 3.0 * velocity


def six_force(t, displacement, rotation, velocity, angular_velocity):
    return np.concatenate([2e3 * displacement + 10.0 * velocity, 50.0 * np.sin(rotation) + angular_velocity])


def branching_six_force(t, displacement, rotation, velocity, angular_velocity):
    return six_force(t, displacement, rotation, velocity, angular_velocity) * (1.0 if float(t) > 0 else 2.0)


def torque_function(t, rotation, rate):
    return 20.0 * rotation + 3.0 * rotation ** 3 + 0.7 * rate


def branching_torque(t, rotation, rate):
    return (20.0 if rotation > 0 else 25.0) * rotation + 0.7 * rate


def two_bodies(system):
    """Two rigid bodies, rotated and moving, with rigid markers away from their nodes."""
    _, marker0 = rigid_body(system, (0.0, 0.1, 0.0), rotation=rotations.rotation_matrix_from_rot_xyz([0.1, 0.2, 0.3]),
                            angular_velocity=(1.0, -2.0, 3.0), velocity=(0.3, 0.2, 0.1),
                            local_position=(0.1, 0.0, 0.05))
    _, marker1 = rigid_body(system, (0.6, 0.3, 0.2), rotation=rotations.rotation_matrix_from_rot_xyz([-0.3, 0.1, 0.4]),
                            angular_velocity=(0.5, 1.0, -1.5), velocity=(-0.1, 0.4, 0.0),
                            local_position=(-0.1, 0.05, 0.0))
    return marker0, marker1


def node_of(system, marker):
    """The node of the body of a body marker."""
    return system.objects[system.markers[marker].body_number].node_number


JOINT0 = rotations.rotation_matrix_from_rot_xyz([0.4, -0.2, 0.1])
JOINT1 = rotations.rotation_matrix_from_rot_xyz([0.0, 0.3, -0.5])


def connector(kind, function, markers, system):
    if kind == "SpringDamper":
        return ff.SpringDamper(markers, 300.0, 2.0, force=3.0, reference_length=0.4, force_user_function=function)
    if kind == "DistanceConstraint":
        return ff.DistanceConstraint(markers, 0.7)
    if kind == "CartesianSpringDamper":
        return ff.CartesianSpringDamper(markers, [1e3, 2e3, 3e3], [1.0, 2.0, 3.0], [0.1, 0.0, 0.0],
                                        force_user_function=function)
    if kind == "CoordinateSpringDamper":
        coordinates = [system.add(ff.MarkerNodeCoordinate(node_of(system, m), i)) for m, i in zip(markers, (0, 2))]
        return ff.CoordinateSpringDamper(coordinates, 1e3, 5.0, 0.1, force_user_function=function)
    if kind.startswith("RigidBodySpringDamper"):
        return ff.RigidBodySpringDamper(markers, coupled_stiffness(), 0.01 * coupled_stiffness(), JOINT0, JOINT1,
                                        [0.01, 0.0, 0.0, 0.1, 0.0, 0.0], intrinsic=kind.endswith("Intrinsic"),
                                        force_user_function=function)
    turns = system.add(ff.NodeGenericODE2([0.0], [2.9])) if kind.endswith("Turns") else None
    return ff.TorsionalSpringDamper(markers, 20.0, 0.7, JOINT0, JOINT1, offset=0.1, velocity_offset=0.2, torque=0.3,
                                    force_user_function=function, turn_node=turns)


NEWTON_CASES = [
    ("SpringDamper", None), ("SpringDamper", cubic_force), ("SpringDamper", branching_force),
    ("DistanceConstraint", None),
    ("CartesianSpringDamper", None), ("CartesianSpringDamper", vector_force),
    ("CartesianSpringDamper", branching_vector_force),
    ("CoordinateSpringDamper", None), ("CoordinateSpringDamper", cubic_force),
    ("CoordinateSpringDamper", branching_force),
    ("RigidBodySpringDamper", None), ("RigidBodySpringDamper", six_force),
    ("RigidBodySpringDamper", branching_six_force),
    ("RigidBodySpringDamperIntrinsic", None), ("RigidBodySpringDamperIntrinsic", six_force),
    ("TorsionalSpringDamper", None), ("TorsionalSpringDamper", torque_function),
    ("TorsionalSpringDamper", branching_torque), ("TorsionalSpringDamperTurns", None),
]


@pytest.mark.parametrize("kind, function", NEWTON_CASES,
                         ids=[f"{kind}-{function.__name__ if function else 'law'}" for kind, function in NEWTON_CASES])
def test_the_newton_matrix_of_every_spring_and_constraint_equals_finite_differences(kind, function):
    system = ff.System()
    markers = list(two_bodies(system))
    item = system.add(connector(kind, function, markers, system))
    assembled = system.assemble()
    callbacks = [callback for _, callback, _ in assembled.context.externals]
    traced = function is not None and not function.__name__.startswith("branching")
    assert len(callbacks) == (0 if function is None or traced else 1), item.label
    assert newton_matrix_error(assembled, np.random.default_rng(11)) <= 1e-6


def test_the_intrinsic_newton_matrix_is_exact_also_at_coinciding_frames():
    """At J0 = J1 the logarithm and the inverse tangent operator use their series (finite derivatives)."""
    system = ff.System()
    _, marker0 = rigid_body(system, (0.0, 0.0, 0.0), angular_velocity=(1.0, -2.0, 3.0))
    _, marker1 = rigid_body(system, (0.0, 0.0, 0.0), angular_velocity=(0.5, 1.0, -1.5))
    system.add(ff.RigidBodySpringDamper([marker0, marker1], coupled_stiffness(), 0.01 * coupled_stiffness(),
                                        intrinsic=True))
    assembled = system.assemble()
    rng = np.random.default_rng(5)
    t, q, v, a, lam = 0.0, assembled.q_initial, assembled.v_initial, rng.standard_normal(14), np.zeros(2)
    exact = assembled.newton_matrix(t, q, v, a, lam, 1.0, 0.37, 0.011).toarray()[:14, :14]
    numeric = np.zeros_like(exact)
    for k in range(14):
        step = np.zeros(14)
        step[k] = 1e-6
        numeric[:, k] = (assembled.residual(t, q + 0.011 * step, v + 0.37 * step, a + step, lam)
                         - assembled.residual(t, q - 0.011 * step, v - 0.37 * step, a - step, lam)) / 2e-6
    assert np.all(np.isfinite(exact))
    assert np.abs(exact - numeric).max() <= 1e-6 * np.abs(exact).max()


def test_the_springs_on_a_flexible_body_have_an_exact_newton_matrix():
    """MarkerSuperElementRigid on an FFRF beam: rigid-body (intrinsic), torsional and line spring-dampers to the
    ground, a user function among them."""
    from floatframe.components.reference_conditions import add_tisserand_frame
    from model_helpers import small_beam

    system = ff.System()
    body, mesh = small_beam(system, angular_velocity=(1.0, 2.0, 30.0))
    add_tisserand_frame(system, body)
    face = [k for k, x in enumerate(np.asarray(mesh.nodes).reshape(-1, 3)) if x[0] > 0.39]   # the end x = 0.4
    tip = system.add(ff.MarkerSuperElementRigid(body, face, [1.0 / len(face)] * len(face)))
    ground = ground_marker(system, (0.5, -0.2, 0.35))
    system.add(ff.RigidBodySpringDamper([ground, tip], coupled_stiffness(), 0.01 * coupled_stiffness(), JOINT0,
                                        JOINT1, intrinsic=True))
    system.add(ff.TorsionalSpringDamper([ground, tip], 20.0, 0.7, JOINT0, JOINT1, force_user_function=torque_function))
    system.add(ff.SpringDamper([ground_marker(system, (0.0, 0.0, 0.0)), tip], 300.0, 2.0, reference_length=0.4))
    assert newton_matrix_error(system.assemble(), np.random.default_rng(4)) <= 1e-6


@pytest.mark.parametrize("kind, law", [("SpringDamper", lambda t, u, v: 300.0 * u + 2.0 * v + 3.0),
                                       ("TorsionalSpringDamper",
                                        lambda t, u, v: 20.0 * (u - 0.1) + 0.7 * (v - 0.2) + 0.3),
                                       ("CoordinateSpringDamper", lambda t, u, v: 1e3 * (u - 0.1) + 5.0 * v),
                                       ("CartesianSpringDamper", lambda t, u, v: np.array([1e3, 2e3, 3e3]) * u
                                        + np.array([1.0, 2.0, 3.0]) * v),
                                       ("RigidBodySpringDamper", lambda t, u, r, v, w: coupled_stiffness() @ (
                                           np.concatenate([u, r]) - [0.01, 0.0, 0.0, 0.1, 0.0, 0.0])
                                        + 0.01 * coupled_stiffness() @ np.concatenate([v, w]))])
@pytest.mark.parametrize("numeric", [False, True], ids=["traced", "callback"])
def test_a_user_function_computing_the_built_in_law_gives_the_same_residual(kind, law, numeric):
    function = (lambda *args: np.asarray(law(*[np.asarray(a, dtype=float) for a in args]))) if numeric else law
    residuals = []
    for user_function in (None, function):
        system = ff.System()
        item = system.add(connector(kind, user_function, list(two_bodies(system)), system))
        assembled = system.assemble()
        assert len(assembled.context.externals) == (1 if numeric and user_function else 0), item.label
        residuals.append(assembled.residual(0.3, assembled.q_initial, assembled.v_initial, 0 * assembled.q_initial,
                                            np.zeros(assembled.n_multipliers)))
    assert residuals[1] == pytest.approx(residuals[0], rel=1e-12, abs=1e-12 * np.abs(residuals[0]).max())


# --- bad input --------------------------------------------------------------------------------------
def assemble_with(make):
    system = ff.System()
    markers = list(two_bodies(system))
    system.add(make(markers, system))
    return system.assemble()


def non_symmetric():
    matrix = coupled_stiffness()
    matrix[0, 5] *= 2
    return matrix


BAD_INPUT = [
    (lambda m, s: ff.RigidBodySpringDamper(m, non_symmetric()), r"RigidBodySpringDamper: stiffness must be symmetric"),
    (lambda m, s: ff.RigidBodySpringDamper(m, coupled_stiffness(), -np.eye(6)),
     r"RigidBodySpringDamper: damping must be positive semi-definite: its smallest eigenvalue is -1"),
    (lambda m, s: ff.RigidBodySpringDamper(m, np.eye(3)), r"RigidBodySpringDamper: stiffness must have shape \(6, 6\)"),
    (lambda m, s: ff.RigidBodySpringDamper(m, np.eye(6), offset=[0.0] * 5), r"offset must have 6 entries, got 5"),
    (lambda m, s: ff.RigidBodySpringDamper(m, np.eye(6), rotation_marker0=np.diag([1.0, 1.0, -1.0])),
     r"RigidBodySpringDamper: rotation_marker0 must be a rotation matrix"),
    (lambda m, s: ff.TorsionalSpringDamper(m, 1.0, rotation_marker1=2 * np.eye(3)),
     r"TorsionalSpringDamper: rotation_marker1 must be a rotation matrix"),
    (lambda m, s: ff.TorsionalSpringDamper(m, -1.0), r"TorsionalSpringDamper: stiffness must be >= 0, got \[-1.0\]"),
    (lambda m, s: ff.TorsionalSpringDamper(m, 1.0, -0.1), r"TorsionalSpringDamper: damping must be >= 0"),
    (lambda m, s: ff.SpringDamper(m, -5.0), r"SpringDamper: stiffness must be >= 0"),
    (lambda m, s: ff.SpringDamper(m, 5.0, reference_length=-1.0), r"SpringDamper: reference_length must be >= 0"),
    (lambda m, s: ff.SpringDamper(m, [5.0, 1.0]), r"SpringDamper: stiffness must have 1 entries, got 2"),
    (lambda m, s: ff.DistanceConstraint(m, 0.0), r"DistanceConstraint: distance must be > 0"),
    (lambda m, s: ff.SpringDamper(m, 1.0, force_user_function=3.0),
     r"SpringDamper: force_user_function must be callable"),
]


@pytest.mark.parametrize("make, message", BAD_INPUT)
def test_bad_parameters_are_refused_naming_the_component_and_the_fault(make, message):
    with pytest.raises(ff.ModelError, match=message):
        assemble_with(make)


def position_markers(system):
    return [system.add(ff.MarkerBodyPosition(system.markers[m].body_number, (0.0, 0.0, 0.0)))
            for m in two_bodies(system)]


@pytest.mark.parametrize("kind", ["RigidBodySpringDamper", "TorsionalSpringDamper"])
def test_springs_that_need_orientation_refuse_position_markers(kind):
    system = ff.System()
    markers = position_markers(system)
    system.add(connector(kind, None, markers, system))
    with pytest.raises(ff.ModelError, match=rf"{kind} \d+: marker_numbers\[0\] \(MarkerBodyPosition 2\) must be a "
                                            rf"rigid marker"):
        system.assemble()


def test_a_turn_node_must_be_a_generic_node_with_one_coordinate():
    system = ff.System()
    markers = list(two_bodies(system))
    system.add(ff.TorsionalSpringDamper(markers, 1.0, turn_node=system.add(ff.NodeGenericODE2([0.0, 0.0]))))
    with pytest.raises(ff.ModelError, match=r"TorsionalSpringDamper \d+: turn_node must be a NodeGenericODE2 with one "
                                            r"coordinate, got NodeGenericODE2 2"):
        system.assemble()


def test_springs_along_a_line_refuse_coordinate_markers():
    system = ff.System()
    markers = list(two_bodies(system))
    coordinates = [system.add(ff.MarkerNodeCoordinate(node_of(system, m), 0)) for m in markers]
    system.add(ff.SpringDamper(coordinates, 1.0))
    with pytest.raises(ff.ModelError, match=r"SpringDamper \d+: marker_numbers\[0\] .* must be a position or rigid"):
        system.assemble()


@pytest.mark.parametrize("kind, function, size", [
    ("SpringDamper", lambda t, u, v: [u, v], 1),
    ("CartesianSpringDamper", lambda t, u, v: u[:2], 3),
    ("RigidBodySpringDamper", lambda t, u, r, v, w: np.zeros(5), 6),
    ("TorsionalSpringDamper", lambda t, u, v: np.zeros(2), 1),
    ("CoordinateSpringDamper", lambda t, u, v: [0.0, 0.0, 0.0], 1),
])
def test_a_user_function_returning_the_wrong_size_is_refused_at_assembly(kind, function, size):
    system = ff.System()
    system.add(connector(kind, function, list(two_bodies(system)), system))
    with pytest.raises(ff.ModelError, match=rf"{kind} \d+: force_user_function must return {size} values?, got"):
        system.assemble()


def test_a_user_function_that_fails_outside_its_domain_at_some_samples_is_still_called():
    def square_root_law(t, elongation, rate):                       # math.sqrt raises for a negative sample
        return 300.0 * math.sqrt(elongation) + 2.0 * rate

    system = ff.System()
    spring = system.add(connector("SpringDamper", square_root_law, list(two_bodies(system)), system))
    assembled = system.assemble()
    assert system.objects[spring].force_user_function.failures >= 1   # some samples were outside the domain
    assert len(assembled.context.externals) == 1
    t, q, v = 0.0, assembled.q_initial, assembled.v_initial
    assert np.all(np.isfinite(assembled.residual(t, q, v, 0 * q, np.zeros(assembled.n_multipliers))))


def test_a_failing_user_function_is_reported_at_assembly():
    def failing(t, u, v):
        raise RuntimeError("no table for this speed")

    system = ff.System()
    system.add(connector("SpringDamper", failing, list(two_bodies(system)), system))
    with pytest.raises(ff.ModelError, match=r"SpringDamper \d+: force_user_function failed at t = .* and at every other sample of its "
                                            r"arguments: .*no table for this speed"):
        system.assemble()
