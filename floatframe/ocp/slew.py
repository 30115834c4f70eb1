"""Rest-to-rest slew of a flexible hub-beam (``floatframe.models.slew``) by optimal control.

The hub torque u_z is piecewise constant on N equal steps of the horizon [0, T]; the OCP is the
rest-to-rest transcription of :mod:`floatframe.ocp.transcription` on the generalized-alpha discretisation
of the model. The default model (:func:`slew_model`) is the reduced-order beam: a 16-element Hex8 mesh
reduced to its 4 lowest clamped-root modes (11 coordinates); ``full_mesh=True`` gives the full FFRF beam of
2 elements (43 coordinates), the model used before reduced bodies existed.

    minimise    sum_k h (u_k^2 + tau^2 ((u_k - u_k-1) / h)^2) / (u_ref^2 T)  +  w E(T) / E_ref
    subject to  the consistent start at rest, the N steps,
                phi(T) = target angle,  omega_z(T) = 0,  |u_k| <= u_max (optional)

(u_-1 = u_N = 0; the rate term with the time scale tau = ``smoothing`` keeps the torque free of
step-to-step chatter, which would excite modes that the OCP's step size does not resolve),
with E = 1/2 q_f^T K q_f + 1/2 v_f^T M v_f the beam's vibration energy (1/2 zeta^T K_red zeta +
1/2 zeta_t^T M_red zeta_t on the reduced beam), u_ref = 4 J phi_T / T^2 the
bang-bang torque of the rigid body (J = hub + beam inertia about z) and E_ref = J (phi_T / T)^2 / 2.
IPOPT solves it with the exact Hessian. The reference manoeuvre is the rigid-body bang-bang torque
(or the rigid minimum-effort "smooth" torque, a linear ramp); both are simulated with
``GeneralizedAlpha`` on a 4x finer step past T with zero torque, and the residual tip vibration
(amplitude of the tip's body-fixed y displacement after T) is compared. :func:`simulate` takes any
slew model, so a torque optimised on the reduced beam can be re-simulated on the full FFRF mesh of the
same fine mesh (``slew_model(full_mesh=True, n_elements=REDUCED_ELEMENTS)``).
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import numpy as np

from floatframe.models.slew import build_slew
from floatframe.ocp.transcription import (Manoeuvre, OCPError, TranscriptionSolution, simulate_controls,
                                         solve_rest_to_rest)

__all__ = ["OCPError", "SlewSolution", "VibrationResult", "reference_torque", "simulate", "slew_model", "solve_slew"]

REDUCED_ELEMENTS = 16   # Hex8 elements along the default (reduced) beam's mesh, section 1 x 1
REDUCED_MODES = 4       # its clamped-root modes: the two lowest bending pairs (1 Hz and 6.2 Hz)
FULL_ELEMENTS = 2       # Hex8 elements of the full-mesh beam in the OCP (43 coordinates)
HUB_TORQUE = np.array([[0.0], [0.0], [1.0]])   # the Input "torque" (3,) is (0, 0, u_z)


def slew_model(full_mesh: bool = False, n_elements: int | None = None, modes: int = REDUCED_MODES, **options):
    """The hub-beam model of the slew OCP (:func:`floatframe.models.slew.build_slew`).

    Default: the reduced-order beam, ``n_elements`` (default ``REDUCED_ELEMENTS``) Hex8 elements reduced
    to ``modes`` clamped-root modes. ``full_mesh=True``: the full FFRF mesh of ``n_elements`` (default
    ``FULL_ELEMENTS``) elements. ``options`` (first_frequency, hub_inertia, ...) go to ``build_slew``.
    """
    if full_mesh:
        return build_slew(n_elements=FULL_ELEMENTS if n_elements is None else n_elements, **options)
    return build_slew(n_elements=REDUCED_ELEMENTS if n_elements is None else n_elements, modes=modes, **options)


class SlewSolution(TranscriptionSolution):
    """Optimal torque and trajectory: ``t`` (N+1,), ``torque`` (N,) [N m] on (t_k, t_k+1], ``q``, ``v`` (N+1, n),
    IPOPT's figures, |phi(T) - target| (``angle_error``), |omega_z(T)| (``rate_error``), ``vibration_energy``."""

    @property
    def torque(self) -> np.ndarray:
        return self.controls[:, 0]


@dataclass
class VibrationResult:
    """A simulated manoeuvre: ``t``, ``torque``, ``hub_angle``, ``tip`` [m] at every fine step;
    ``amplitude`` = max |tip| for t >= T [m]; ``energy`` the vibration energy at T [J]."""

    t: np.ndarray
    torque: np.ndarray
    hub_angle: np.ndarray
    tip: np.ndarray
    amplitude: float
    energy: float


def reference_torque(model, angle: float, duration: float, n_steps: int, kind: str = "bang-bang") -> np.ndarray:
    """Rigid-body open-loop torque (N,) [N m] for a slew by ``angle`` [rad] in ``duration`` [s].

    "bang-bang": +u on the first half, -u on the second, u = 4 J angle / T^2. "smooth": the rigid
    minimum-effort torque J angle (6/T^2 - 12 t/T^3), taken at the step midpoints.
    """
    inertia = model.rigid_inertia
    midpoints = (np.arange(n_steps) + 0.5) * duration / n_steps
    if kind == "bang-bang":
        return np.where(midpoints < duration / 2, 1.0, -1.0) * 4 * inertia * angle / duration ** 2
    if kind == "smooth":
        return inertia * angle * (6 / duration ** 2 - 12 * midpoints / duration ** 3)
    raise ValueError(f"reference_torque: kind must be 'bang-bang' or 'smooth', got {kind!r}")


def simulate(model, torque, duration: float, after: float, refinement: int = 4, spectral_radius: float = 0.9):
    """Simulate the torque (N,) held on N equal steps of [0, duration], then zero torque for ``after`` [s].

    Generalized-alpha with ``refinement`` steps per torque step; returns a :class:`VibrationResult`.
    """
    torque = np.asarray(torque, dtype=float).reshape(-1, 1)
    result, end = simulate_controls(model.assembled, HUB_TORQUE, torque, duration, after, refinement,
                                    spectral_radius)
    tip = model.tip_deflection(result.q)
    angle = np.array([model.hub_angle(q) for q in result.q])
    applied = np.concatenate([torque[:1, 0], np.repeat(torque[:, 0], refinement),
                              np.zeros(result.t.size - 1 - end)])
    return VibrationResult(result.t, applied, angle, tip, float(np.abs(tip[end:]).max()),
                           float(model.vibration_energy(result.q[end], result.v[end])))


def slew_manoeuvre(model, angle: float, duration: float) -> Manoeuvre:
    """The slew as a rest-to-rest manoeuvre: the hub torque u_z (scale u_ref), phi(T) = angle and
    omega_z(T) = 0, the beam's vibration energy (scale E_ref)."""
    inertia = model.rigid_inertia
    return Manoeuvre(model.assembled, HUB_TORQUE, [4 * inertia * abs(angle) / duration ** 2],
                     lambda q, v: ca.vertcat(model.hub_angle(q) - angle, model.hub_rate(q, v)),
                     model.vibration_energy, 0.5 * inertia * (angle / duration) ** 2)


def solve_slew(model, angle: float, duration: float, n_steps: int = 40, vibration_weight: float = 10.0,
               smoothing: float = 0.05, torque_limit: float | None = None, spectral_radius: float = 0.9,
               ipopt_options: dict | None = None, verbose: bool = False) -> SlewSolution:
    """Optimal rest-to-rest slew by ``angle`` [rad] in ``duration`` [s]; raises OCPError if IPOPT fails.

    ``torque_limit`` [N m] bounds |u|; ``smoothing`` [s] weights the torque rate; ``ipopt_options``
    are passed to IPOPT (:func:`floatframe.ocp.transcription.solve_rest_to_rest`). The initial guess is
    the simulated rigid minimum-effort torque.
    """
    guess = reference_torque(model, angle, duration, n_steps, "smooth").reshape(-1, 1)
    solution = solve_rest_to_rest(slew_manoeuvre(model, angle, duration), duration, n_steps, guess,
                                  vibration_weight, smoothing, torque_limit, spectral_radius, ipopt_options,
                                  verbose, what="slew OCP", solution_type=SlewSolution)
    q, v = solution.q[-1], solution.v[-1]
    return solution.with_terminal_errors(abs(model.hub_angle(q) - angle), abs(model.hub_rate(q, v)),
                                         model.vibration_energy(q, v))
