"""Point-to-point motion of the flexible arm (``floatframe.models.flexible_arm``) by optimal control.

The arm (a rigid upper link and a flexible forearm on two revolute joints, in a horizontal plane) starts at
rest, stretched along +x, and must come to rest at the joint angles (phi_1, phi_2) (shoulder: the upper link's
angle about z; elbow: the forearm frame's angle relative to the upper link) at time T. The controls are the
two joint-motor torques (the Inputs of ``build_flexible_arm(controlled=True)``), piecewise constant on N
steps; the OCP is the rest-to-rest transcription of :mod:`floatframe.ocp.transcription`:

    terminal    phi_1(T) = target_1, phi_2(T) = target_2, omega_1(T) = omega_2(T) = 0,
    energy      the forearm's vibration energy 1/2 zeta^T K_red zeta + 1/2 zeta_t^T M_red zeta_t
                (1/2 q_f^T K q_f + 1/2 v_f^T M v_f on the full mesh),

with the torque scales and the energy scale of the reference manoeuvre: the rigid arm's computed torque
(:meth:`RigidTwoLink.joint_torques`) along the cubic rest-to-rest path phi(t) = phi_T (3 s^2 - 2 s^3),
s = t / T, whose acceleration jumps at both ends excite the forearm. The reference also serves as the
initial guess. The default model is a soft forearm (``ARM_STIFFNESS_SCALE``) of ``ARM_ELEMENTS`` Hex8
elements reduced to its ``ARM_MODES`` clamped-root modes (the first bending pair): the arm's in-plane
vibration mode is at 12 Hz (the out-of-plane one, at 1.9 Hz, is not excited by the planar motion). The
generalized-alpha step must resolve the in-plane mode: with 160 steps on 2 s (6.7 steps per period) the
optimal torques leave 6 times less residual vibration than the computed torques when simulated on 4x finer
steps, and 85 times less at the OCP's own step (docs/optimal_control.md).
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import numpy as np

from floatframe import rotations
from floatframe.linalg import quadratic_energy
from floatframe.models.flexible_arm import FlexibleArm, build_flexible_arm
from floatframe.ocp.transcription import Manoeuvre, TranscriptionSolution, simulate_controls, solve_rest_to_rest

ARM_ELEMENTS = 20           # Hex8 elements along the forearm
ARM_MODES = 2               # its clamped-root modes: the first bending pair (in and out of the plane)
ARM_STIFFNESS_SCALE = 1e-3  # a soft forearm of the same mass (E / 1000: 70 MPa, a polymer's stiffness)
TARGET = (np.pi / 3, np.pi / 4)  # default shoulder and elbow angles [rad]


class ArmSolution(TranscriptionSolution):
    """Optimal joint torques ``torques`` (N, 2) [N m] on (t_k, t_k+1], the states, IPOPT's figures and the
    largest terminal errors of the two joints (angles [rad], rates [rad/s]) and the vibration energy [J] at T."""

    @property
    def torques(self) -> np.ndarray:
        return self.controls


@dataclass
class ArmMotion:
    """A simulated manoeuvre: ``t``, ``angles`` (k, 2) [rad], ``deflection`` (k,) [m], the tip's body-fixed
    y displacement in the forearm frame; ``amplitude`` = max |deflection| for t >= T [m]."""

    t: np.ndarray
    angles: np.ndarray
    deflection: np.ndarray
    amplitude: float


def arm_model(modes: int | None = ARM_MODES, n_elements: int = ARM_ELEMENTS,
              stiffness_scale: float = ARM_STIFFNESS_SCALE) -> FlexibleArm:
    """The controlled, assembled arm of the OCP (``modes=None``: the forearm as the full FFRF mesh)."""
    model = build_flexible_arm(modes=modes, n_elements=n_elements, stiffness_scale=stiffness_scale, controlled=True,
                               craig_bampton="clamped-root")
    model.assembled = model.system.assemble()
    return model


def joint_angles(model: FlexibleArm, q):
    """(phi_1, phi_2) [rad] of a coordinate vector q (NumPy or CasADi): the upper link's angle about z and the
    forearm frame's angle relative to it, from the Euler parameters (theta0, theta3) of the two frames."""
    shoulder = _z_angle(model.assembled, model.system.nodes[model.upper_node], q)
    return shoulder, _z_angle(model.assembled, model.forearm.body.rigid_node, q) - shoulder


def joint_rates(model: FlexibleArm, q, v):
    """(omega_1, omega_2) [rad/s]: omega_z = 2 (theta0 theta3_t - theta3 theta0_t) of each frame, the elbow's
    relative to the upper link."""
    shoulder = _z_rate(model.assembled, model.system.nodes[model.upper_node], q, v)
    return shoulder, _z_rate(model.assembled, model.forearm.body.rigid_node, q, v) - shoulder


def _euler_rows(assembled, node, q):
    """(theta0, theta3) of a node (reference plus change) and their rows (i0, i3)."""
    rows = [int(i) for i in node.coordinate_indices[[3, 6]]]
    return [assembled.q_reference[i] + q[i] for i in rows], rows


def _z_angle(assembled, node, q):
    return rotations.z_angle(*_euler_rows(assembled, node, q)[0])


def _z_rate(assembled, node, q, v):
    (theta0, theta3), (i0, i3) = _euler_rows(assembled, node, q)
    return rotations.z_rate(theta0, theta3, v[i0], v[i3])


def vibration_energy(model: FlexibleArm, q, v):
    """The forearm's elastic plus relative kinetic energy [J] (NumPy or CasADi q, v)."""
    forearm = model.forearm
    rows = forearm.body.coordinate_indices[7:].tolist()
    if forearm.modes is not None:
        basis = forearm.modes.vectors
        mass, stiffness = basis.T @ (forearm.mass_matrix @ basis), basis.T @ (forearm.stiffness_matrix @ basis)
    else:
        mass, stiffness = forearm.mass_matrix, forearm.stiffness_matrix
    return quadratic_energy(stiffness, q[rows], mass, v[rows])


def reference_torques(model: FlexibleArm, target, duration: float, n_steps: int) -> np.ndarray:
    """The rigid arm's computed torques (N, 2) [N m] along the cubic rest-to-rest path to ``target``
    (phi_1, phi_2) in ``duration`` [s], at the step midpoints."""
    s = (np.arange(n_steps) + 0.5) / n_steps
    joint = np.outer(3 * s ** 2 - 2 * s ** 3, target)                       # (phi_1, phi_2)(t)
    joint_rate = np.outer((6 * s - 6 * s ** 2) / duration, target)
    joint_acceleration = np.outer((6 - 12 * s) / duration ** 2, target)
    absolute = np.array([[1.0, 0.0], [1.0, 1.0]])                            # theta_i = pi/2 + link angles
    rigid = model.rigid_reference()
    return np.array([rigid.joint_torques(np.pi / 2 + absolute @ angle, absolute @ rate, absolute @ acceleration)
                     for angle, rate, acceleration in zip(joint, joint_rate, joint_acceleration)])


def control_matrix(model: FlexibleArm) -> np.ndarray:
    """B (2, 2) with u = B (tau_1, tau_2), in the order of the assembled inputs."""
    names = [item.name for item in model.assembled.inputs]
    return np.array([[1.0 if name == joint else 0.0 for joint in ("shoulder torque", "elbow torque")]
                     for name in names])


def arm_manoeuvre(model: FlexibleArm, target, duration: float, reference) -> Manoeuvre:
    """The arm's rest-to-rest manoeuvre, scaled by the reference torques (N, 2) and the rigid arm's
    largest kinetic energy along the cubic path (3/2 |phi_T| / T is its largest joint rate)."""
    target = np.asarray(target, dtype=float)
    scale = np.abs(reference).max(axis=0)
    peak_rate = 1.5 * np.array([[1.0, 0.0], [1.0, 1.0]]) @ target / duration
    rigid = model.rigid_reference()
    mass, _ = rigid.mass_and_force(np.pi / 2 + np.array([0.0, target[1]]), peak_rate)
    energy_scale = 0.5 * peak_rate @ mass @ peak_rate

    def terminal(q, v):
        return ca.vertcat(*(angle - goal for angle, goal in zip(joint_angles(model, q), target)),
                          *joint_rates(model, q, v))

    return Manoeuvre(model.assembled, control_matrix(model), scale, terminal,
                     lambda q, v: vibration_energy(model, q, v), energy_scale)


def solve_arm(model: FlexibleArm, target=TARGET, duration: float = 2.0, n_steps: int = 160,
              vibration_weight: float = 10.0, smoothing: float = 0.05, spectral_radius: float = 0.9,
              ipopt_options: dict | None = None, verbose: bool = False) -> ArmSolution:
    """Optimal joint torques that bring the arm to rest at ``target`` (phi_1, phi_2) [rad] in ``duration``
    [s]; raises OCPError if IPOPT fails."""
    reference = reference_torques(model, target, duration, n_steps)
    solution = solve_rest_to_rest(arm_manoeuvre(model, target, duration, reference), duration, n_steps, reference,
                                  vibration_weight, smoothing, None, spectral_radius, ipopt_options, verbose,
                                  what="arm OCP", solution_type=ArmSolution)
    q, v = solution.q[-1], solution.v[-1]
    return solution.with_terminal_errors(np.max(np.abs(np.array(joint_angles(model, q)) - target)),
                                         np.max(np.abs(joint_rates(model, q, v))), vibration_energy(model, q, v))


def simulate_arm(model: FlexibleArm, torques, duration: float, after: float, refinement: int = 4,
                 spectral_radius: float = 0.9) -> ArmMotion:
    """Simulate the torques (N, 2) held on N equal steps of [0, duration], then none for ``after`` [s]."""
    result, end = simulate_controls(model.assembled, control_matrix(model), torques, duration, after, refinement,
                                    spectral_radius)
    angles = np.array([joint_angles(model, q) for q in result.q])
    deflection = result.sensor(model.deflection_sensor)[:, 1]
    return ArmMotion(result.t, angles, deflection, float(np.abs(deflection[end:]).max()))
