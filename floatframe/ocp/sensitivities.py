"""Exact sensitivities of a simulated final state: through generalized-alpha steps or through IDAS.

Both give a CasADi function ``(q0, v0, U, p) -> (q(T), v(T))`` of the initial state, the inputs U
(n_u, k) held constant on the k intervals of a time grid, and the parameters p:

- :func:`floatframe.ocp.step.rollout`: generalized-alpha steps, each an implicit function (rootfinder);
- :func:`idas_final_state`: SUNDIALS IDAS on the index-1 form

      q' = v,  v' = a,   0 = R(t, q, v, a, lambda, u, p),   0 = C_q a + (d^2C/dt^2 - C_q a)

  with x = (q, v), z = (a, lambda); CasADi differentiates the integrator with IDAS' forward
  sensitivities or its adjoint (backward) problem.

:func:`parameter_jacobian` evaluates dq(T)/dp in forward mode (one direction per parameter) or
adjoint mode (one direction per coordinate).
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe.ocp.step import _symbols, initial_state
from floatframe.solvers.idas import index1_equations


def index1_dae(assembled) -> dict:
    """The index-1 DAE as a ``casadi.integrator`` dict; its parameter is (t0, u, p), time tau = t - t0."""
    s = _symbols(assembled, ca.MX, ["t", "q", "v", "a", "lam", "u", "p"])
    start = ca.MX.sym("t_start")
    ode, alg = index1_equations(assembled, start + s["t"], s["q"], s["v"], s["a"], s["lam"], s["u"], s["p"])
    return dict(t=s["t"], x=ca.vertcat(s["q"], s["v"]), z=ca.vertcat(s["a"], s["lam"]),
                p=ca.vertcat(start, s["u"], s["p"]), ode=ode, alg=alg)


def idas_final_state(assembled, t_grid, rtol: float = 1e-11, atol: float = 1e-12,
                     max_num_steps: int = 100_000) -> ca.Function:
    """IDAS from consistent initial values over ``t_grid`` (k+1,) [s], as ``(q0, v0, U, p) -> (q, v)``.

    One integrator per grid interval length (restarted at each grid time, where u may jump);
    ``rtol``, ``atol`` are IDAS' tolerances, also used for its sensitivity equations.
    """
    t_grid = np.asarray(t_grid, dtype=float)
    if t_grid.ndim != 1 or t_grid.size < 2 or np.any(np.diff(t_grid) <= 0):
        raise ValueError("idas_final_state: t_grid must increase strictly and hold at least 2 times")
    dae = index1_dae(assembled)
    options = dict(abstol=atol, reltol=rtol, max_num_steps=max_num_steps, calc_ic=True, fsens_err_con=True,
                   calc_icB=True, print_stats=False, show_eval_warnings=False)
    integrators = {}
    start = initial_state(assembled)
    n = assembled.n_coordinates
    mx = _symbols(assembled, ca.MX, ["q", "v", "p"])
    n_u = assembled.symbols.u.numel()
    controls = ca.MX.sym("U", n_u, t_grid.size - 1)
    column = (lambda k: controls[:, k]) if n_u else (lambda k: ca.MX(0, 1))
    a, lam = start(t_grid[0], mx["q"], mx["v"], column(0), mx["p"])
    x, z = ca.vertcat(mx["q"], mx["v"]), ca.vertcat(a, lam)
    for k in range(t_grid.size - 1):
        length = round(float(t_grid[k + 1] - t_grid[k]), 14)
        if length not in integrators:
            integrators[length] = ca.integrator(f"idas_{len(integrators)}", "idas", dae, 0.0, length, options)
        result = integrators[length](x0=x, z0=z, p=ca.vertcat(t_grid[k], column(k), mx["p"]))
        x, z = result["xf"], result["zf"]
    return ca.Function("idas_final_state", [mx["q"], mx["v"], controls, mx["p"]], [x[:n], x[n:]],
                       ["q0", "v0", "U", "p"], ["q", "v"])


def parameter_jacobian(final_state: ca.Function, q0, v0, controls, p, mode: str = "forward"):
    """(q(T), dq(T)/dp) of a ``(q0, v0, U, p) -> (q, v)`` function; shapes (n,), (n, n_p).

    ``mode="forward"`` propagates one direction per parameter (forward sensitivities),
    ``mode="adjoint"`` one adjoint direction per coordinate (reverse mode, backward integration).
    """
    if mode not in ("forward", "adjoint"):
        raise ValueError(f"parameter_jacobian: mode must be 'forward' or 'adjoint', got {mode!r}")
    p = np.asarray(p, dtype=float).reshape(-1)
    symbol = ca.MX.sym("p", p.size)
    q_end = final_state(q0, v0, controls, symbol)[0]
    if mode == "forward":
        derivative = ca.jtimes(q_end, symbol, ca.DM.eye(p.size))
    else:
        derivative = ca.jtimes(q_end, symbol, ca.DM.eye(q_end.numel()), True).T
    values = ca.Function("parameter_jacobian", [symbol], [q_end, derivative])(p)
    return np.array(values[0]).reshape(-1), np.array(values[1])


def central_differences(final_state: ca.Function, q0, v0, controls, p, relative_step: float = 1e-4) -> np.ndarray:
    """dq(T)/dp by central finite differences, step ``relative_step * max(1, |p_k|)``; (n, n_p)."""
    p = np.asarray(p, dtype=float).reshape(-1)
    columns = []
    for k in range(p.size):
        step = relative_step * max(1.0, abs(p[k]))
        shift = np.zeros(p.size)
        shift[k] = step
        plus = np.array(final_state(q0, v0, controls, p + shift)[0]).reshape(-1)
        minus = np.array(final_state(q0, v0, controls, p - shift)[0]).reshape(-1)
        columns.append((plus - minus) / (2 * step))
    return np.column_stack(columns)
