"""Rest-to-rest slew of a flexible hub-beam (``floatframe.models.slew``) by optimal control.

The hub torque u_z is piecewise constant on N equal steps of the horizon [0, T]. The OCP is written
in ``casadi.Opti`` on the generalized-alpha discretisation of the model (a simultaneous
transcription: the states (q, v, a, abar, lambda) at every step are NLP variables, the step
equations of :func:`floatframe.ocp.step.step_equations` are equality constraints). The default model
(:func:`slew_model`) is the reduced-order beam: a 16-element Hex8 mesh reduced to its 4 lowest
clamped-root modes (11 coordinates); ``full_mesh=True`` gives the full FFRF beam of 2 elements
(43 coordinates), the model used before reduced bodies existed.

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

import time
from dataclasses import dataclass

import casadi as ca
import numpy as np

from floatframe.models.slew import build_slew
from floatframe.ocp.step import initial_equations, step_equations
from floatframe.parameters import InputSignal
from floatframe.solvers.genalpha import GeneralizedAlpha


REDUCED_ELEMENTS = 16   # Hex8 elements along the default (reduced) beam's mesh, section 1 x 1
REDUCED_MODES = 4       # its clamped-root modes: the two lowest bending pairs (1 Hz and 6.2 Hz)
FULL_ELEMENTS = 2       # Hex8 elements of the full-mesh beam in the OCP (43 coordinates)


def slew_model(full_mesh: bool = False, n_elements: int | None = None, modes: int = REDUCED_MODES, **options):
    """The hub-beam model of the slew OCP (:func:`floatframe.models.slew.build_slew`).

    Default: the reduced-order beam, ``n_elements`` (default ``REDUCED_ELEMENTS``) Hex8 elements reduced
    to ``modes`` clamped-root modes. ``full_mesh=True``: the full FFRF mesh of ``n_elements`` (default
    ``FULL_ELEMENTS``) elements. ``options`` (first_frequency, hub_inertia, ...) go to ``build_slew``.
    """
    if full_mesh:
        return build_slew(n_elements=FULL_ELEMENTS if n_elements is None else n_elements, **options)
    return build_slew(n_elements=REDUCED_ELEMENTS if n_elements is None else n_elements, modes=modes, **options)


class OCPError(RuntimeError):
    """IPOPT did not solve the OCP; the message names the return status and the last violations."""


@dataclass
class SlewSolution:
    """Optimal torque and trajectory: ``t`` (N+1,), ``torque`` (N,) [N m] on (t_k, t_k+1], ``q``, ``v`` (N+1, n)."""

    t: np.ndarray
    torque: np.ndarray
    q: np.ndarray
    v: np.ndarray
    status: str
    iterations: int
    solve_time: float
    objective: float
    angle_error: float
    rate_error: float
    vibration_energy: float


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
    torque = np.asarray(torque, dtype=float).reshape(-1)
    n_steps = torque.size
    h = duration / n_steps
    n_after = int(np.ceil(after / h - 1e-9))
    grid = np.arange(n_steps + n_after + 1) * h
    values = np.zeros((grid.size - 1, 3))
    values[:n_steps, 2] = torque
    assembled = model.assembled
    assembled.set_input("torque", InputSignal(grid, values))
    result = GeneralizedAlpha(spectral_radius).solve(assembled, grid[-1], refinement * (grid.size - 1))
    tip = model.tip_deflection(result.q)
    end = refinement * n_steps
    angle = np.array([model.hub_angle(q) for q in result.q])
    applied = np.concatenate([[values[0, 2]], np.repeat(values[:, 2], refinement)])
    return VibrationResult(result.t, applied, angle, tip, float(np.abs(tip[end:]).max()),
                           float(model.vibration_energy(result.q[end], result.v[end])))


def solve_slew(model, angle: float, duration: float, n_steps: int = 40, vibration_weight: float = 10.0,
               smoothing: float = 0.05, torque_limit: float | None = None, spectral_radius: float = 0.9,
               ipopt_options: dict | None = None, verbose: bool = False) -> SlewSolution:
    """Optimal rest-to-rest slew by ``angle`` [rad] in ``duration`` [s]; raises OCPError if IPOPT fails.

    ``torque_limit`` [N m] bounds |u|; ``smoothing`` [s] weights the torque rate; ``ipopt_options``
    are passed to IPOPT (e.g. ``max_iter``; the linear solver is SPRAL, which factors these KKT
    systems several times faster than MUMPS' default ordering). The initial guess is the simulated
    rigid minimum-effort torque.
    """
    assembled = model.assembled
    n, m = assembled.n_coordinates, assembled.n_multipliers
    h = duration / n_steps
    t_grid = np.linspace(0.0, duration, n_steps + 1)
    p = assembled.parameter_vector() if assembled.parameters else np.zeros(0)
    inertia = model.rigid_inertia
    torque_scale = 4 * inertia * abs(angle) / duration ** 2
    energy_scale = 0.5 * inertia * (angle / duration) ** 2

    opti = ca.Opti()
    q, v = opti.variable(n, n_steps + 1), opti.variable(n, n_steps + 1)
    a, abar = opti.variable(n, n_steps + 1), opti.variable(n, n_steps + 1)
    lam = opti.variable(m, n_steps + 1)
    torque = opti.variable(1, n_steps)
    u = ca.vertcat(ca.MX.zeros(2, n_steps), torque)

    opti.subject_to(q[:, 0] == assembled.q_initial)
    opti.subject_to(v[:, 0] == assembled.v_initial)
    opti.subject_to(initial_equations(assembled)(0.0, q[:, 0], v[:, 0], a[:, 0], lam[:, 0], u[:, 0], p) == 0)
    opti.subject_to(abar[:, 0] == a[:, 0])
    steps = step_equations(assembled, spectral_radius).map(n_steps)
    opti.subject_to(steps(t_grid[1:].reshape(1, -1), h, q[:, :-1], v[:, :-1], a[:, :-1], abar[:, :-1],
                          q[:, 1:], v[:, 1:], a[:, 1:], abar[:, 1:], lam[:, 1:], u,
                          ca.repmat(ca.DM(p), 1, n_steps)) == 0)
    opti.subject_to(model.hub_angle(q[:, -1]) == angle)
    opti.subject_to(model.hub_rate(q[:, -1], v[:, -1]) == 0)
    if torque_limit is not None:
        opti.subject_to(opti.bounded(-torque_limit, torque, torque_limit))
    rate = ca.diff(ca.horzcat(0, torque, 0), 1, 1) / h
    effort = h * (ca.sumsqr(torque) + smoothing ** 2 * ca.sumsqr(rate)) / (torque_scale ** 2 * duration)
    energy = model.vibration_energy(q[:, -1], v[:, -1])
    opti.minimize(effort + vibration_weight * energy / energy_scale)

    guess_torque = reference_torque(model, angle, duration, n_steps, "smooth")
    guess = _genalpha_guess(model, guess_torque, duration, spectral_radius)
    for variable, values in zip((q, v, a, abar, lam), guess):
        opti.set_initial(variable, values.T)
    opti.set_initial(torque, guess_torque.reshape(1, -1))

    options = {"print_level": 5 if verbose else 0, "tol": 1e-10, "constr_viol_tol": 1e-10, "max_iter": 200,
               "linear_solver": "spral",
               **(ipopt_options or {})}
    opti.solver("ipopt", {"print_time": False}, options)
    started = time.perf_counter()
    try:
        solution = opti.solve()
    except RuntimeError:
        raise OCPError(_failure_message(opti)) from None
    solve_time = time.perf_counter() - started
    stats = opti.stats()
    q_value, v_value = np.array(solution.value(q)).T, np.array(solution.value(v)).T
    return SlewSolution(
        t_grid, np.array(solution.value(torque)).reshape(-1), q_value, v_value, stats["return_status"],
        int(stats["iter_count"]), solve_time, float(solution.value(opti.f)),
        float(abs(model.hub_angle(q_value[-1]) - angle)), float(abs(model.hub_rate(q_value[-1], v_value[-1]))),
        float(model.vibration_energy(q_value[-1], v_value[-1])))


def _genalpha_guess(model, torque, duration, spectral_radius):
    """(q, v, a, abar, lambda) on the OCP grid from a generalized-alpha run with the given torque."""
    assembled = model.assembled
    grid = np.linspace(0.0, duration, torque.size + 1)
    values = np.zeros((torque.size, 3))
    values[:, 2] = torque
    assembled.set_input("torque", InputSignal(grid, values))
    solver = GeneralizedAlpha(spectral_radius)
    states = [solver.init(assembled, 0.0)]
    for k in range(torque.size):
        states.append(solver.advance(assembled, states[-1], grid[k + 1], grid[k + 1] - grid[k]))
    return [np.vstack([getattr(s, name) for s in states]) for name in ("q", "v", "a", "abar", "lam")]


def _failure_message(opti) -> str:
    stats = opti.stats()
    iterations = stats.get("iterations", {})
    violation = iterations.get("inf_pr", [np.nan])[-1] if iterations.get("inf_pr") else np.nan
    dual = iterations.get("inf_du", [np.nan])[-1] if iterations.get("inf_du") else np.nan
    return (f"IPOPT could not solve the slew OCP: return status '{stats.get('return_status', 'unknown')}' after "
            f"{stats.get('iter_count', '?')} iterations; last constraint violation {violation:.3e}, "
            f"dual infeasibility {dual:.3e}")

