"""What keeps a solve from returning a silently wrong result: checked solver settings, a consistent initial
state, a bound on the growth of the state, and the partial result of a failed solve.

Initial state (``initial`` of every time integrator's ``solve``):

- ``"check"`` (default): before any step, the position constraints C(t0, q0) and the velocity constraints
  dC/dt(t0, q0, v0) are evaluated; a row above its tolerance refuses the solve with a SolverError that names
  each violated joint or constraint with its gap. The tolerances are relative to the model's scale:
  L = max(|q_reference + q0|_inf, 1e-3 m) for the position rows (metres, or the unit of the row: 1 for the
  Euler-parameter norm and rotation rows) and V = max(|v0|_inf, L / 1 s) for the velocity rows. They are
  ``STRICT`` (1e-6) for the level a scheme enforces at every step and ``DRIFT`` (1e-3) for the level it does
  not, where its own results drift (index 3: velocities by up to about 4e-4 V at 40 steps a period, index 2:
  positions), so that a solve may continue from the end state of another; each solver declares its pair
  as ``initial_tolerances`` (position, velocity). A state within them is taken as given.
- ``"project"``: q0 and v0 are moved onto the constraints by the least mass-weighted change,
  min (dq^T M dq) subject to C(t0, q0 + dq) = 0 (Gauss-Newton on [[M, C_q^T], [C_q, 0]]), then
  min (dv^T M dv) subject to dC/dt = 0; ``result.info["initial_projection"]`` holds how far each node moved,
  and a warning names the nodes that moved by more than the tolerance.
- ``"accept"``: the state is taken as given (the first step then enforces the constraints; the Exudyn
  layer's choice, as Exudyn does).

Growth (``blow_up`` of ``solve``, a factor, default ``BLOW_UP_FACTOR``; None switches the check off): at every
stored time, and at least 1000 times over the output grid, the state must stay finite and within

    |q|_2 <= blow_up (Q0 + V0 T + A0 T^2 / 2),   |v|_2 <= blow_up (V0 + A0 T + Q0 / 1 s)

with Q0 = max(|q_reference + q0|_2, 1e-3), V0 = |v0|_2, A0 = |a0|_2 and T the length of the solve: a
motion a million times larger than the initial state could reach at its initial acceleration is taken as
the growth of an unstable scheme or model, not as a result.
"""
from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

from floatframe.errors import ModelError
from floatframe.linalg import euclidean_norm
from floatframe.solvers.linear import solve_or_explain
from floatframe.solvers.result import SolverError

INITIAL_MODES = ("check", "project", "accept")
STRICT = 1e-6                # relative tolerance of the constraint level a scheme enforces (see above)
DRIFT = 1e-3                 # relative tolerance of the level it lets drift
MINIMUM_SCALE = 1e-3         # [m] the least length scale L of a model
BLOW_UP_FACTOR = 1e6
PROJECTION_ITERATIONS = 20   # Gauss-Newton iterations of the position projection


class InitialStateWarning(UserWarning):
    """``initial="project"`` moved a node by more than the consistency tolerance."""


# --- settings ---------------------------------------------------------------------------------------------
def check_count(owner: str, name: str, value, minimum: int = 1) -> int:
    """``value`` as an int, or ValueError naming ``owner`` and ``name`` if it is not an integer >= minimum."""
    if type(value) is int and value >= minimum:   # (the common case, without the ABC check: 10 us a first call)
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or value != int(value) or value < minimum:
        raise ValueError(f"{owner}: {name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def check_nonnegative(owner: str, name: str, value) -> float:
    """``value`` as a float, or ValueError if it is negative, not finite or not a number."""
    if type(value) is float and 0 <= value < math.inf:
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 <= value < math.inf:
        raise ValueError(f"{owner}: {name} must be a finite number >= 0, got {value!r}")
    return float(value)


def check_positive(owner: str, name: str, value, optional: bool = False):
    """``value`` as a float (None where ``optional``), or ValueError if it is not a finite number > 0."""
    if optional and value is None:
        return None
    if type(value) is float and 0 < value < math.inf:
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 < value < math.inf:
        raise ValueError(f"{owner}: {name} must be a finite number > 0{' or None' if optional else ''}, "
                         f"got {value!r}")
    return float(value)


def check_unit_interval(owner: str, name: str, value) -> float:
    """``value`` as a float, or ValueError if it is not a number in [0, 1]."""
    if type(value) is float and 0.0 <= value <= 1.0:
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0.0 <= value <= 1.0:
        raise ValueError(f"{owner}: {name} must be a number in [0, 1], got {value!r}")
    return float(value)


def check_assembled(owner: str, system) -> None:
    """TypeError unless ``system`` is an assembled system with coordinates (what solvers take)."""
    if not hasattr(system, "n_coordinates") or not hasattr(system, "q_initial"):
        hint = " (call system.assemble() and pass its result)" if hasattr(system, "assemble") else ""
        raise TypeError(f"{owner}: expected an AssembledSystem{hint}, got {type(system).__name__}")
    if system.n_coordinates == 0:
        raise ValueError(f"{owner}: the system has no coordinates: add nodes with coordinates (and bodies) "
                         f"before solving")


def check_initial_mode(owner: str, initial) -> str:
    if initial not in INITIAL_MODES:
        raise ValueError(f"{owner}: initial must be one of {', '.join(map(repr, INITIAL_MODES))}, got {initial!r}")
    return initial


def check_blow_up(owner: str, blow_up):
    if blow_up is None:
        return None
    if isinstance(blow_up, bool) or not isinstance(blow_up, numbers.Real) or not 1 < blow_up < math.inf:
        raise ValueError(f"{owner}: blow_up must be a factor > 1 or None (no check), got {blow_up!r}")
    return float(blow_up)


# --- the initial state ------------------------------------------------------------------------------------
def scales(system, q, v) -> tuple[float, float]:
    """(L [m], V [m/s]): the model's length and velocity scale at the state (see the module docstring)."""
    length = max(float(np.abs(system.q_reference + q).max(initial=0.0)), MINIMUM_SCALE)
    return length, max(float(np.abs(v).max(initial=0.0)), length)


def constraint_gaps(system, t, q, v) -> tuple[np.ndarray, np.ndarray]:
    """(C(t, q), dC/dt(t, q, v)), each (m,), dC/dt with the rate of the input signals."""
    return system.constraints(t, q), system.constraint_velocity(t, q, v) + system.constraint_input_rate(t, q)


def inconsistency(system, t, q, v, tolerances=(STRICT, STRICT)) -> str:
    """'' if the state meets its position and velocity constraints to ``tolerances`` times the model's scales,
    else a description of each violated constraint with its largest gap."""
    if system.n_multipliers == 0:
        return ""
    length, speed = scales(system, q, v)
    parts = []
    limits = (tolerances[0] * length, tolerances[1] * speed)
    for gaps, limit, unit, what in zip(constraint_gaps(system, t, q, v), limits, ("m", "m/s"),
                                       ("position", "velocity")):
        if np.all(np.abs(gaps) <= limit):   # (a NaN gap is not within the limit)
            continue
        for owner, rows in _rows_by_owner(system, np.flatnonzero(~(np.abs(gaps) <= limit))).items():
            parts.append(f"{owner}: {what} gap {np.abs(gaps[rows]).max():.3g} {unit} (rows {_rows(rows)})")
        parts[-1] += f" [tolerance {limit:.1e} {unit}]"
    return "; ".join(parts)


def initial_state(system, t, q, v, initial: str, solver: str, tolerances=(STRICT, STRICT)):
    """(q, v, report) to start a solve from: checked against ``tolerances`` (position, velocity), projected or
    accepted as ``initial`` says (see the module docstring); ``report``: {node: {"position": |dq|_inf,
    "velocity": |dv|_inf}} of a projection, else {}. Raises SolverError for an inconsistent state under
    ``"check"``."""
    for values, what in ((q, "coordinates q0"), (v, "velocities v0")):
        if not np.all(np.isfinite(values)):
            raise SolverError(f"{solver}: the initial {what} are not finite at "
                              f"{system.describe_coordinates(np.flatnonzero(~np.isfinite(values))[:6])}", t)
    if initial == "accept" or system.n_multipliers == 0:
        return q, v, {}
    if initial == "check":
        found = inconsistency(system, t, q, v, tolerances)
        if found:
            raise SolverError(f"{solver}: the initial state at t = {t:.6g} does not meet the constraints: {found}. "
                              f"Correct the initial coordinates and velocities, or solve(..., initial='project') "
                              f"to move them onto the constraints (least mass-weighted change)", t)
        return q, v, {}
    q_new = project_positions(system, t, q, solver)
    v_new = project_velocities(system, t, q_new, v, solver)
    report = {}
    for label, indices in system.coordinates_by_node():
        moved = (float(np.abs(q_new[indices] - q[indices]).max(initial=0.0)),
                 float(np.abs(v_new[indices] - v[indices]).max(initial=0.0)))
        if max(moved) > 0.0:
            report[label] = dict(position=moved[0], velocity=moved[1])
    length, speed = scales(system, q, v)
    far = [f"{label} by {moved['position']:.3g} (positions) and {moved['velocity']:.3g} (velocities)"
           for label, moved in report.items()
           if moved["position"] > STRICT * length or moved["velocity"] > STRICT * speed]
    if far:
        warnings.warn(f"{solver}: initial='project' moved {'; '.join(far)}", InitialStateWarning, stacklevel=3)
    return q_new, v_new, report


def _saddle_matrix(system, t, q, v):
    """[[M, C_q^T], [C_q, 0]] at (t, q, v)."""
    n, m = system.n_coordinates, system.n_multipliers
    return system.newton_matrix(t, q, v, np.zeros(n), np.zeros(m), 1.0, 0.0, 0.0)


def project_positions(system, t, q, solver: str) -> np.ndarray:
    """q + dq with C(t, q + dq) = 0 to round-off and the least mass-weighted dq: Gauss-Newton steps s of
    min (dq + s)^T M (dq + s) subject to C + C_q s = 0, until M dq lies in the span of C_q^T (the optimum)."""
    n = system.n_coordinates
    zeros = np.zeros(n)
    length, _ = scales(system, q, zeros)
    target = 1e3 * np.finfo(float).eps * length
    start = np.array(q, dtype=float)
    q = start.copy()
    for _ in range(PROJECTION_ITERATIONS):
        gaps = system.constraints(t, q)
        matrix = _saddle_matrix(system, t, q, zeros)
        right = np.concatenate([-(matrix[:n, :n] @ (q - start)), -gaps])
        step = solve_or_explain(system, t, matrix, right, "projection matrix [[M, C_q^T], [C_q, 0]]", solver)[:n]
        q = q + step
        if np.abs(gaps).max() <= target and np.abs(step).max() <= target:
            return q
    gaps = system.constraints(t, q)
    if np.abs(gaps).max() <= 1e3 * target:
        return q
    rows = np.argsort(-np.abs(gaps))[:3]
    raise SolverError(f"{solver}: the initial state at t = {t:.6g} cannot be projected onto the position "
                      f"constraints (initial='project'): |C| = {np.abs(gaps).max():.3e} after {PROJECTION_ITERATIONS} "
                      f"Gauss-Newton iterations; largest gaps in {system.describe_constraints(rows)}", t)


def project_velocities(system, t, q, v, solver: str) -> np.ndarray:
    """v + dv with dC/dt(t, q, v + dv) = 0 and the least mass-weighted dv (one linear solve)."""
    n = system.n_coordinates
    matrix = _saddle_matrix(system, t, q, v)
    right = np.concatenate([np.zeros(n), -constraint_gaps(system, t, q, v)[1]])
    return np.asarray(v, dtype=float) + solve_or_explain(system, t, matrix, right,
                                                         "projection matrix [[M, C_q^T], [C_q, 0]]", solver)[:n]


def _rows_by_owner(system, rows) -> dict:
    owners = {}
    for row in rows:
        owners.setdefault(system.constraint_owners[row] if row < len(system.constraint_owners) else f"row {row}",
                          []).append(int(row))
    return owners


def _rows(rows) -> str:
    return ", ".join(map(str, rows[:6])) + (", ..." if len(rows) > 6 else "")


# --- growth -----------------------------------------------------------------------------------------------
class GrowthBound:
    """The bound on |q|_2 and |v|_2 of a solve from ``state`` over ``duration`` [s] (module docstring);
    ``check(state)`` raises SolverError when the state is not finite or exceeds it. A solve checks every
    stored state and at least ``CHECKS`` times over its grid (on long grids not at every step: the check
    would cost 3 % of a small model's step, and a state that grows past the bound needs hundreds of steps more
    to overflow)."""

    CHECKS = 1000

    def __init__(self, system, state, duration: float, factor: float, solver: str):
        self.system, self.solver, self.factor = system, solver, factor
        q_scale = max(euclidean_norm(system.q_reference + state.q), MINIMUM_SCALE)
        v_scale, a_scale = euclidean_norm(state.v), euclidean_norm(state.a)
        self.position_limit = factor * (q_scale + v_scale * duration + 0.5 * a_scale * duration ** 2)
        self.velocity_limit = factor * (v_scale + a_scale * duration + q_scale)
        self._position_squared = self.position_limit ** 2
        self._velocity_squared = self.velocity_limit ** 2

    def check(self, state) -> None:
        if np.dot(state.q, state.q) <= self._position_squared and np.dot(state.v, state.v) <= self._velocity_squared:
            return                                # (NaN compares False: it falls through)
        raise self.failure(state)

    def failure(self, state) -> SolverError:
        finite = bool(np.all(np.isfinite(state.q)) and np.all(np.isfinite(state.v)))
        if finite:
            cause = (f"the state grew without bound: |q| = {np.linalg.norm(state.q):.3e} (bound "
                     f"{self.position_limit:.3e}), |v| = {np.linalg.norm(state.v):.3e} (bound "
                     f"{self.velocity_limit:.3e}), {self.factor:.0e} times what the initial state reaches in the "
                     f"solve's time")
            hint = ("the step is beyond the scheme's stability limit, or the model is unstable "
                    "(solve(..., blow_up=None) switches this check off)")
        else:
            cause, hint = "the state is not finite (NaN or inf)", "a force, load or user function gave NaN or inf"
        grown = state.v if finite and np.linalg.norm(state.q) <= self.position_limit else state.q
        what = "velocities" if grown is state.v else "coordinates"
        return SolverError(f"{self.solver}: at t = {state.t:.6g}: {cause}; largest {what}: "
                           f"{largest_coordinates(self.system, grown)}; {hint}", state.t)


def largest_coordinates(system, q, count: int = 3) -> str:
    """The (up to) ``count`` nonzero coordinates of largest |q| (NaN first), with their nodes and values."""
    magnitude = np.where(np.isfinite(q), np.abs(q), np.inf)
    order = [i for i in np.argsort(-magnitude, kind="stable")[:count] if magnitude[i] > 0] or [0]
    return "; ".join(f"{system.describe_coordinates([i]) or f'coordinate {i}'} = {q[i]:.3e}" for i in order)


# --- failures ---------------------------------------------------------------------------------------------
def user_function_failure(error, t: float, solver: str) -> SolverError:
    """The SolverError of a user function that raised or returned a wrong value at time t (chain it)."""
    return SolverError(f"{solver}: at t = {t:.6g}: {error}", t)


def call_pre_step(pre_step, t_next: float, state, solver: str):
    """``pre_step(t_next, state)``; an exception in it becomes a SolverError naming it and the time (chained),
    except a ModelError, which names its item and fault already (e.g. a model change refused mid-solve)."""
    return call_step_function("pre_step", pre_step, state.t, solver, t_next, state)


def call_post_step(post_step, state, solver: str):
    """``post_step(state)``, with the exceptions of ``call_pre_step``."""
    return call_step_function("post_step", post_step, state.t, solver, state)


def call_step_function(what: str, function, t: float, solver: str, *arguments):
    """``function(*arguments)``, a step loop's ``what`` function at time t [s]; an exception in it becomes a
    SolverError naming it and the time (chained), except a ModelError (which names its item and fault)."""
    try:
        return function(*arguments)
    except ModelError:
        raise
    except Exception as exc:
        raise SolverError(f"{solver}: at t = {t:.6g}: the {what} function raised {type(exc).__name__}: "
                          f"{exc}", t) from exc
