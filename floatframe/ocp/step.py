"""Generalized-alpha as differentiable CasADi functions: the step equations, the step map, a rollout.

With the scheme of :mod:`floatframe.solvers.genalpha` (alpha_m, alpha_f, beta, gamma from the spectral
radius rho), one step of size h from state n to n+1 satisfies

    q_{n+1}    = q_n + h v_n + h^2 (1/2 - beta) abar_n + h^2 beta abar_{n+1}
    v_{n+1}    = v_n + h (1 - gamma) abar_n + h gamma abar_{n+1}
    (1 - alpha_m) abar_{n+1} + alpha_m abar_n = (1 - alpha_f) a_{n+1} + alpha_f a_n
    R(t_{n+1}, q_{n+1}, v_{n+1}, a_{n+1}, lambda_{n+1}, u, p) = 0,   C(t_{n+1}, q_{n+1}, u, p) / beta' = 0

with beta' = h^2 beta (1 - alpha_f)/(1 - alpha_m). :func:`step_equations` returns all of these rows as
one function (for a simultaneous transcription in an OCP); :func:`step_map` solves the last two for
x = (a_{n+1}, lambda_{n+1}) with ``casadi.rootfinder``, so that (q, v, a, abar, lambda)_{n+1} is an
implicit function of the old state, u and p whose derivatives are exact (implicit function theorem).
Inputs u are held constant over a step (the value at its end, as ``InputSignal`` "constant" does).
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe.solvers.alpha import coefficients, predictor, step_factors

STATE_NAMES = ("q", "v", "a", "abar", "lam")


def symbol_type(assembled):
    """ca.SX for models without numeric callbacks (fast, exact sparse derivatives), else ca.MX."""
    return ca.SX if assembled.functions["residual"].is_a("SXFunction") else ca.MX


def _symbols(assembled, kind, names):
    n, m = assembled.n_coordinates, assembled.n_multipliers
    n_u, n_p = assembled.symbols.u.numel(), assembled.symbols.p.numel()
    sizes = dict(t=1, h=1, q=n, v=n, a=n, abar=n, lam=m, u=n_u, p=n_p)
    return {name: kind.sym(name, sizes[name.rstrip("01")]) for name in names}


def step_equations(assembled, spectral_radius: float = 0.9) -> ca.Function:
    """Residual rows of one step as ``ca.Function``.

    Inputs (t1, h, q0, v0, a0, abar0, q1, v1, a1, abar1, lam1, u, p); output (4 n + m,): the position
    and velocity updates divided by h^2 beta and h gamma, the abar relation, R and C / beta'.
    All rows have the units of R or of an acceleration, which keeps an NLP well scaled.
    """
    am, af, beta, gamma = coefficients(spectral_radius)
    kind = symbol_type(assembled)
    s = _symbols(assembled, kind, ["t1", "h", "q0", "v0", "a0", "abar0", "q1", "v1", "a1", "abar1", "lam1", "u", "p"])
    h = s["h"]
    functions = assembled.functions
    position = (s["q1"] - s["q0"] - h * s["v0"] - h * h * (0.5 - beta) * s["abar0"]) / (h * h * beta) - s["abar1"]
    velocity = (s["v1"] - s["v0"] - h * (1 - gamma) * s["abar0"]) / (h * gamma) - s["abar1"]
    algorithmic = (1 - am) * s["abar1"] + am * s["abar0"] - (1 - af) * s["a1"] - af * s["a0"]
    residual = functions["residual"](s["t1"], s["q1"], s["v1"], s["a1"], s["lam1"], s["u"], s["p"])
    c_q = h * h * beta * (1 - af) / (1 - am)
    constraints = functions["constraints"](s["t1"], s["q1"], s["u"], s["p"]) / c_q
    names = ["t1", "h", "q0", "v0", "a0", "abar0", "q1", "v1", "a1", "abar1", "lam1", "u", "p"]
    return ca.Function("genalpha_step_equations", [s[k] for k in names],
                       [ca.vertcat(position, velocity, algorithmic, residual, constraints)], names, ["residual"])


def initial_equations(assembled) -> ca.Function:
    """Rows fixing consistent initial a, lambda: (t, q, v, a, lam, u, p) -> [R; C_q a + (d2C/dt2 - C_q a)]."""
    kind = symbol_type(assembled)
    s = _symbols(assembled, kind, ["t", "q", "v", "a", "lam", "u", "p"])
    functions = assembled.functions
    residual = functions["residual"](s["t"], s["q"], s["v"], s["a"], s["lam"], s["u"], s["p"])
    jacobian = functions["constraint_jacobian"](s["t"], s["q"], s["u"], s["p"])
    rest = functions["constraint_acceleration_rest"](s["t"], s["q"], s["v"], s["u"], s["p"])
    names = ["t", "q", "v", "a", "lam", "u", "p"]
    return ca.Function("genalpha_initial_equations", [s[k] for k in names],
                       [ca.vertcat(residual, jacobian @ s["a"] + rest)], names, ["residual"])


def _rootfinder(name, unknowns, parameters, equations, tolerance, max_iterations):
    residual = ca.Function(f"{name}_residual", [unknowns, parameters], [equations])
    return ca.rootfinder(name, "newton", residual, dict(abstol=tolerance, abstolStep=1e-2 * tolerance,
                                                        max_iter=max_iterations, error_on_fail=True))


def initial_state(assembled, tolerance: float = 1e-9) -> ca.Function:
    """Consistent start as an implicit function: (t, q, v, u, p) -> (a, lam); abar_0 = a_0.

    The equations are linear in (a, lambda): Newton converges in one step, derivatives are exact.
    """
    kind = symbol_type(assembled)
    n = assembled.n_coordinates
    s = _symbols(assembled, kind, ["t", "q", "v", "a", "lam", "u", "p"])
    unknowns = ca.vertcat(s["a"], s["lam"])
    parameters = ca.vertcat(s["t"], s["q"], s["v"], s["u"], s["p"])
    equations = initial_equations(assembled)(s["t"], s["q"], s["v"], s["a"], s["lam"], s["u"], s["p"])
    solver = _rootfinder("genalpha_init", unknowns, parameters, equations, tolerance, 5)
    mx = _symbols(assembled, ca.MX, ["t", "q", "v", "u", "p"])
    guess = ca.MX.zeros(unknowns.numel())
    x = solver(guess, ca.vertcat(mx["t"], mx["q"], mx["v"], mx["u"], mx["p"]))
    return ca.Function("genalpha_initial_state", [mx[k] for k in ("t", "q", "v", "u", "p")], [x[:n], x[n:]],
                       ["t", "q", "v", "u", "p"], ["a", "lam"])


def step_map(assembled, spectral_radius: float = 0.9, tolerance: float = 1e-9, max_iterations: int = 30) -> ca.Function:
    """One generalized-alpha step as an implicit function with exact derivatives.

    ``(t0, h, q, v, a, abar, lam, u, p) -> (q, v, a, abar, lam)`` at t0 + h (outputs named ``q_next``
    etc.); u is the input on the step.
    Newton (``casadi.rootfinder``, exact sparse Jacobian) starts from (a, lam) of the old state and
    stops when the residual (rows of R and C / beta') is below ``tolerance`` or the Newton update below
    ``tolerance / 100``; it raises if it does not converge. Very small steps (h below ~1e-3 s) need a
    larger ``tolerance``: the rounding error of C / beta' grows like 1 / h^2.
    """
    scheme = coefficients(spectral_radius)
    kind = symbol_type(assembled)
    n = assembled.n_coordinates
    s = _symbols(assembled, kind, ["t0", "h", "q0", "v0", "a0", "abar0", "a1", "lam1", "u", "p"])
    h = s["h"]
    q_known, v_known, _ = predictor(s["q0"], s["v0"], s["a0"], s["abar0"], h, *scheme)
    c_q, c_v, kappa = step_factors(h, *scheme)
    t1 = s["t0"] + h
    q1, v1 = q_known + c_q * s["a1"], v_known + c_v * s["a1"]
    functions = assembled.functions
    equations = ca.vertcat(functions["residual"](t1, q1, v1, s["a1"], s["lam1"], s["u"], s["p"]),
                           functions["constraints"](t1, q1, s["u"], s["p"]) / c_q)
    parameter_names = ["t0", "h", "q0", "v0", "a0", "abar0", "u", "p"]
    parameters = ca.vertcat(*[s[k] for k in parameter_names])
    solver = _rootfinder("genalpha_newton", ca.vertcat(s["a1"], s["lam1"]), parameters, equations, tolerance,
                         max_iterations)
    inputs = _symbols(assembled, ca.MX, ["t0", "h", "q0", "v0", "a0", "abar0", "lam0", "u", "p"])
    x = solver(ca.vertcat(inputs["a0"], inputs["lam0"]), ca.vertcat(*[inputs[k] for k in parameter_names]))
    a1, lam1 = x[:n], x[n:]
    hh = inputs["h"]
    _, _, beta, gamma = scheme
    _, _, abar_known = predictor(inputs["q0"], inputs["v0"], inputs["a0"], inputs["abar0"], hh, *scheme)
    q1 = (inputs["q0"] + hh * inputs["v0"] + hh * hh * (0.5 - beta) * inputs["abar0"]
          + hh * hh * beta * (abar_known + kappa * a1))
    v1 = inputs["v0"] + hh * (1 - gamma) * inputs["abar0"] + hh * gamma * (abar_known + kappa * a1)
    names = ["t0", "h", "q0", "v0", "a0", "abar0", "lam0", "u", "p"]
    return ca.Function("genalpha_step", [inputs[k] for k in names], [q1, v1, a1, abar_known + kappa * a1, lam1],
                       ["t0", "h", "q", "v", "a", "abar", "lam", "u", "p"], [f"{k}_next" for k in STATE_NAMES])


def rollout(assembled, t_grid, spectral_radius: float = 0.9, steps_per_interval: int = 1) -> ca.Function:
    """Generalized-alpha from consistent initial values through a time grid, as one CasADi function.

    ``(q0, v0, U, p) -> (q, v)`` at the end of ``t_grid`` (k+1,) [s]; U (n_u, k) holds the input on each
    interval (piecewise constant, value 0 also at t_0). Each interval takes ``steps_per_interval``
    equal steps. Derivatives of the output with respect to q0, v0, U and p are exact.
    """
    t_grid = np.asarray(t_grid, dtype=float)
    step = step_map(assembled, spectral_radius)
    start = initial_state(assembled)
    mx = _symbols(assembled, ca.MX, ["q", "v", "p"])
    controls = ca.MX.sym("U", assembled.symbols.u.numel(), t_grid.size - 1)
    u0 = controls[:, 0] if controls.numel() else ca.MX(0, 1)
    a, lam = start(t_grid[0], mx["q"], mx["v"], u0, mx["p"])
    state = (mx["q"], mx["v"], a, a, lam)
    for k in range(t_grid.size - 1):
        h = (t_grid[k + 1] - t_grid[k]) / steps_per_interval
        u = controls[:, k] if controls.numel() else ca.MX(0, 1)
        for j in range(steps_per_interval):
            state = tuple(step(t_grid[k] + j * h, h, *state, u, mx["p"]))
    return ca.Function("genalpha_rollout", [mx["q"], mx["v"], controls, mx["p"]], [state[0], state[1]],
                       ["q0", "v0", "U", "p"], ["q", "v"])


def sensor_response(assembled, sensor: int, steps, h: float, study_parameters: ca.MX, p: ca.MX,
                    spectral_radius: float = 0.9, tolerance: float = 1e-9, gradient: bool = False) -> ca.Function:
    """Sensor values after generalized-alpha steps, as a function of study parameters, with exact derivatives.

    The run starts from the model's initial state (consistent a, lambda by :func:`initial_state`) at t = 0 and
    takes steps of ``h`` through :func:`step_map`; inputs take their signals' values at each step's end.

    Parameters
    ----------
    assembled : AssembledSystem
        The model; its symbolic Parameters make up p.
    sensor : int
        The sensor's number (``assembled.sensor_rows``).
    steps : sequence of int
        Step numbers (1, 2, ...) after which the sensor is read, increasing.
    h : float
        Step size [s].
    study_parameters : casadi.MX
        Symbol column s of the study's parameters.
    p : casadi.MX
        The model's parameter vector as an expression of s (in the order of ``assembled.parameters``).
    spectral_radius, tolerance : float
        Of the scheme and of its Newton iteration (see :func:`step_map`).
    gradient : bool, default False
        Also return the Jacobian of the values with respect to s.

    Returns
    -------
    casadi.Function
        ``s -> y`` (len(steps) x sensor size, stacked by step), or ``s -> (y, dy/ds)`` with ``gradient``.
    """
    steps = [int(k) for k in steps]
    if not steps or steps[0] < 1 or any(b <= a for a, b in zip(steps, steps[1:])):
        raise ValueError(f"sensor_response: step numbers must increase from 1 on, got {steps}")
    rows = assembled.sensor_rows(sensor)
    step = step_map(assembled, spectral_radius, tolerance)
    sensors = assembled.functions["sensors"]
    a, lam = initial_state(assembled, tolerance)(0.0, assembled.q_initial, assembled.v_initial,
                                                 assembled.input_vector(0.0), p)
    state, values, wanted = (ca.MX(assembled.q_initial), ca.MX(assembled.v_initial), a, a, lam), [], set(steps)
    for k in range(1, steps[-1] + 1):
        u = assembled.input_vector(k * h)
        state = tuple(step((k - 1) * h, h, *state, u, p))
        if k in wanted:
            q, v, a, _, lam = state
            values.append(sensors(k * h, q, v, a, lam, u, p)[rows])
    y = ca.vertcat(*values)
    outputs = [y, ca.jacobian(y, study_parameters)] if gradient else [y]
    return ca.Function("sensor_response", [study_parameters], outputs)
