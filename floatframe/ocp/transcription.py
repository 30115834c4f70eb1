"""Rest-to-rest optimal control on the generalized-alpha transcription, shared by the slew and the arm.

The controls c (n_c,) are piecewise constant on N equal steps of the horizon [0, T] and enter the model's
inputs as u = B c (``control_matrix`` B, (n_u, n_c)). The OCP is written in ``casadi.Opti`` on the
generalized-alpha discretisation of the model (a simultaneous transcription: the states (q, v, a, abar,
lambda) at every step are NLP variables, the step equations of :func:`floatframe.ocp.step.step_equations`
are equality constraints):

    minimise    sum_k h sum_j ((c_kj / s_j)^2 + tau^2 ((c_kj - c_k-1,j) / (h s_j))^2) / T  +  w E(T) / E_ref
    subject to  the consistent start, the N steps, terminal(q(T), v(T)) = 0, |c_kj| <= c_max (optional)

(c_-1 = c_N = 0; s_j the scale of control j; the rate term with the time scale tau = ``smoothing`` keeps the
controls free of step-to-step chatter, which would excite modes that the OCP's step size does not resolve;
E the vibration energy of the flexible parts, E_ref its scale). IPOPT solves it with the exact Hessian.
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Callable

import casadi as ca
import numpy as np

from floatframe.ocp.step import initial_equations, step_equations
from floatframe.parameters import InputSignal
from floatframe.solvers.genalpha import GeneralizedAlpha


class OCPError(RuntimeError):
    """IPOPT did not solve the OCP; the message names the return status and the last violations."""


@dataclass
class Manoeuvre:
    """What the rest-to-rest OCP needs of a model.

    ``assembled`` the assembled system; ``control_matrix`` B (n_u, n_c) with u = B c; ``control_scale``
    (n_c,) the scales s_j of the controls (e.g. [N m]); ``terminal(q, v)`` the CasADi vector that must
    vanish at T; ``vibration_energy(q, v)`` [J] and its scale ``energy_scale``.
    """

    assembled: object
    control_matrix: np.ndarray
    control_scale: np.ndarray
    terminal: Callable
    vibration_energy: Callable
    energy_scale: float


@dataclass
class TranscriptionSolution:
    """``t`` (N+1,), ``controls`` (N, n_c) on (t_k, t_k+1], ``q``, ``v`` (N+1, n), IPOPT's figures and, as the
    examples fill them in, the terminal errors (angles [rad], rates [rad/s]) and vibration energy [J] at T."""

    t: np.ndarray
    controls: np.ndarray
    q: np.ndarray
    v: np.ndarray
    status: str
    iterations: int
    solve_time: float
    objective: float
    angle_error: float = np.nan
    rate_error: float = np.nan
    vibration_energy: float = np.nan

    def with_terminal_errors(self, angle_error, rate_error, vibration_energy):
        """A copy of this solution (of the same type) with the example's terminal figures."""
        return dataclasses.replace(self, angle_error=float(angle_error), rate_error=float(rate_error),
                                   vibration_energy=float(vibration_energy))


def set_controls(assembled, control_matrix, grid, controls) -> None:
    """Set every input of ``assembled`` to the piecewise-constant signal u = B c_k on (t_k, t_k+1]."""
    values = np.atleast_2d(np.asarray(controls, dtype=float)) @ np.asarray(control_matrix, dtype=float).T
    start = 0
    for item in assembled.inputs:
        assembled.set_input(item.name, InputSignal(grid, values[:, start:start + item.size]))
        start += item.size


def simulate_controls(assembled, control_matrix, controls, duration: float, after: float, refinement: int = 4,
                      spectral_radius: float = 0.9):
    """Generalized-alpha run of the controls (N, n_c) held on N equal steps of [0, duration], then zero
    controls for ``after`` [s], with ``refinement`` steps per control step. Returns (result, end), the
    SimulationResult and the index of t = duration in it."""
    controls = np.atleast_2d(np.asarray(controls, dtype=float))
    n_steps = controls.shape[0]
    h = duration / n_steps
    n_after = int(np.ceil(after / h - 1e-9))
    grid = np.arange(n_steps + n_after + 1) * h
    set_controls(assembled, control_matrix, grid, np.vstack([controls, np.zeros((n_after, controls.shape[1]))]))
    result = GeneralizedAlpha(spectral_radius).solve(assembled, grid[-1], refinement * (grid.size - 1))
    return result, refinement * n_steps


def solve_rest_to_rest(manoeuvre: Manoeuvre, duration: float, n_steps: int, guess_controls,
                       vibration_weight: float = 10.0, smoothing: float = 0.05, control_limit: float | None = None,
                       spectral_radius: float = 0.9, ipopt_options: dict | None = None,
                       verbose: bool = False, what: str = "OCP",
                       solution_type=TranscriptionSolution) -> TranscriptionSolution:
    """Optimal controls of the manoeuvre in ``duration`` [s] on ``n_steps`` steps; raises OCPError if IPOPT fails.

    ``guess_controls`` (N, n_c) is the initial guess (simulated to give the states' guess); ``solution_type``
    the example's subclass of :class:`TranscriptionSolution` to return;
    ``control_limit`` bounds |c|; ``ipopt_options`` are passed to IPOPT (e.g. ``max_iter``; the linear solver
    is SPRAL, which factors these KKT systems several times faster than MUMPS' default ordering).
    """
    assembled = manoeuvre.assembled
    n, m = assembled.n_coordinates, assembled.n_multipliers
    control_matrix = np.asarray(manoeuvre.control_matrix, dtype=float)
    scale = np.asarray(manoeuvre.control_scale, dtype=float).reshape(-1, 1)
    h = duration / n_steps
    t_grid = np.linspace(0.0, duration, n_steps + 1)
    p = assembled.parameter_vector() if assembled.parameters else np.zeros(0)

    opti = ca.Opti()
    q, v = opti.variable(n, n_steps + 1), opti.variable(n, n_steps + 1)
    a, abar = opti.variable(n, n_steps + 1), opti.variable(n, n_steps + 1)
    lam = opti.variable(m, n_steps + 1)
    controls = opti.variable(control_matrix.shape[1], n_steps)
    u = ca.DM(control_matrix) @ controls

    opti.subject_to(q[:, 0] == assembled.q_initial)
    opti.subject_to(v[:, 0] == assembled.v_initial)
    opti.subject_to(initial_equations(assembled)(0.0, q[:, 0], v[:, 0], a[:, 0], lam[:, 0], u[:, 0], p) == 0)
    opti.subject_to(abar[:, 0] == a[:, 0])
    steps = step_equations(assembled, spectral_radius).map(n_steps)
    opti.subject_to(steps(t_grid[1:].reshape(1, -1), h, q[:, :-1], v[:, :-1], a[:, :-1], abar[:, :-1],
                          q[:, 1:], v[:, 1:], a[:, 1:], abar[:, 1:], lam[:, 1:], u,
                          ca.repmat(ca.DM(p), 1, n_steps)) == 0)
    opti.subject_to(manoeuvre.terminal(q[:, -1], v[:, -1]) == 0)
    if control_limit is not None:
        opti.subject_to(opti.bounded(-control_limit, controls, control_limit))
    scaled = controls / ca.repmat(ca.DM(scale), 1, n_steps)
    rate = ca.diff(ca.horzcat(ca.DM.zeros(scale.size, 1), scaled, ca.DM.zeros(scale.size, 1)), 1, 1) / h
    effort = h * (ca.sumsqr(scaled) + smoothing ** 2 * ca.sumsqr(rate)) / duration
    energy = manoeuvre.vibration_energy(q[:, -1], v[:, -1])
    opti.minimize(effort + vibration_weight * energy / manoeuvre.energy_scale)

    guess_controls = np.atleast_2d(np.asarray(guess_controls, dtype=float))
    for variable, values in zip((q, v, a, abar, lam), _genalpha_guess(manoeuvre, guess_controls, duration,
                                                                      spectral_radius)):
        opti.set_initial(variable, values.T)
    opti.set_initial(controls, guess_controls.T)

    options = {"print_level": 5 if verbose else 0, "tol": 1e-10, "constr_viol_tol": 1e-10, "max_iter": 200,
               "linear_solver": "spral", **(ipopt_options or {})}
    opti.solver("ipopt", {"print_time": False}, options)
    started = time.perf_counter()
    try:
        solution = opti.solve()
    except RuntimeError:
        raise OCPError(_failure_message(opti, what)) from None
    solve_time = time.perf_counter() - started
    stats = opti.stats()
    return solution_type(
        t_grid, np.array(solution.value(controls)).reshape(control_matrix.shape[1], n_steps).T,
        np.array(solution.value(q)).T, np.array(solution.value(v)).T, stats["return_status"],
        int(stats["iter_count"]), solve_time, float(solution.value(opti.f)))


def _genalpha_guess(manoeuvre, controls, duration, spectral_radius):
    """(q, v, a, abar, lambda) on the OCP grid from a generalized-alpha run with the given controls."""
    assembled = manoeuvre.assembled
    grid = np.linspace(0.0, duration, controls.shape[0] + 1)
    set_controls(assembled, manoeuvre.control_matrix, grid, controls)
    solver = GeneralizedAlpha(spectral_radius)
    states = [solver.init(assembled, 0.0)]
    for k in range(controls.shape[0]):
        states.append(solver.advance(assembled, states[-1], grid[k + 1], grid[k + 1] - grid[k]))
    return [np.vstack([getattr(s, name) for s in states]) for name in ("q", "v", "a", "abar", "lam")]


def _failure_message(opti, what) -> str:
    stats = opti.stats()
    iterations = stats.get("iterations", {})
    violation = iterations.get("inf_pr", [np.nan])[-1] if iterations.get("inf_pr") else np.nan
    dual = iterations.get("inf_du", [np.nan])[-1] if iterations.get("inf_du") else np.nan
    return (f"IPOPT could not solve the {what}: return status '{stats.get('return_status', 'unknown')}' after "
            f"{stats.get('iter_count', '?')} iterations; last constraint violation {violation:.3e}, "
            f"dual infeasibility {dual:.3e}")
