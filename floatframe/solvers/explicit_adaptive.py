"""Embedded explicit Runge-Kutta pairs with step-size control: ODE23 (Bogacki-Shampine 3(2)), DOPRI5
(Dormand-Prince 5(4)) and DVERK6 (Verner 6(5)), on the stages of ``floatframe.solvers.explicit``.

A step of size h gives the solution y_1 = (q, v) of the method (order p, propagated) and the embedded one y^_1
(order p - 1). The error of the step is

    err = sqrt( 1/(2n) sum_j ((y^_1j - y_1j) / s_j)^2 ),   s_j = atol + rtol max(|y_0j|, |y^_1j|)

over the n positions and n velocities (Exudyn takes the signed maximum: ``step_control="exudyn"`` below); the
optimal step is h_opt = h err^(-1/p) (Hairer, Norsett and Wanner I, section II.4, with q + 1 = p) and the next
step h_new = min(h_max, max_increase h, max(min_step, safety h_opt)). A step with h_opt < h (err > 1) is
repeated with h_new; h_max is ``max_step`` and the output interval (the loop asks for one output interval at
a time; a step is shortened to end on the output time, and the step proposed before that shortening is kept).
Exudyn's defaults: safety 0.9 (stepSizeSafety), max_increase 2 (stepSizeMaxIncrease); its first step is the
output interval (initialStepSize = 0). Where Exudyn reaches minimumStepSize it warns and goes on with a larger
error; this default control fails with a SolverError (error per step above the tolerance at the smallest step).

``step_control="exudyn"`` takes Exudyn 1.13.6's control instead (its CSolverExplicit and CSolverBase), for the
Exudyn layer:

- the scale is s_j = atol + rtol max(y^_1j, y_0j), the signed maximum (no magnitudes); an error of exactly 0
  counts as 1e-12 (the Exudyn layer also leaves the positions of first-order nodes, which Exudyn does not have,
  out of the mean: ``floatframe.exudyn._items_ode1``);
- h_opt = h (1/err)^(1/p) and h_new = min(h_max, max_increase h, max(min_step, safety h_opt)) with h_max =
  ``max_step`` alone (default: the first output interval); the first step is ``first_step`` (default h_max),
  not bounded by h_max;
- a step with h_opt < h is repeated with h_new, except the first time h_new reaches min_step: that step is
  accepted with a warning (StepSizeWarning). A later step rejected at min_step fails with a SolverError
  (Exudyn repeats it without end);
- steps are not cut at output times, only at the end time: an output time takes the first step that ends at or
  after it (within 1e-10 s), as Exudyn stores its sensors, so stored times lie on the steps, not on the grid.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from floatframe.errors import UserFunctionError
from floatframe.solvers.explicit import TABLEAUX, ExplicitRungeKutta
from floatframe.solvers.loop import State
from floatframe.solvers.result import SolverError
from floatframe.solvers.safeguards import check_count, check_positive, user_function_failure

EPS = np.finfo(float).eps
STEP_CONTROLS = ("floatframe", "exudyn")
EXUDYN_TIME_TOLERANCE = 1e-10     # [s] Exudyn's allowance for reaching an output time or the end time
EXUDYN_ZERO_ERROR = 1e-12         # the error Exudyn takes for an estimate of exactly 0


class StepSizeWarning(UserWarning):
    """Exudyn's step control reached min_step and accepted a step with an error above the tolerance."""


class EmbeddedRungeKutta(ExplicitRungeKutta):
    """An embedded explicit Runge-Kutta pair with step-size control (see the module docstring).

    Parameters
    ----------
    tableau : a ButcherTableau with embedded weights (``TABLEAUX["ODE23"]``, ``["DOPRI5"]``, ``["DVERK6"]``).
    rtol, atol : relative and absolute tolerance of the error estimate (atol in the units of q and v); > 0.
    automatic_step_size : False: fixed steps on the loop's grid with the propagated weights, no control
        (Exudyn's automaticStepSize = False).
    first_step : the first step [s] (default: the first output interval, as Exudyn).
    max_step, min_step : bounds of the step [s] (default: the output interval; 10 eps t).
    safety, max_increase : the factor on h_opt, and the largest growth of h from one step to the next.
    max_num_steps : the most steps (accepted and rejected) in one solve.
    end_accelerations, constraints : as :class:`~floatframe.solvers.explicit.ExplicitRungeKutta`.
    step_control : "floatframe" (default) or "exudyn" (Exudyn 1.13.6's error norm, step rule and output times;
        see the module docstring).
    """

    adaptive = True

    def __init__(self, tableau, rtol=1e-6, atol=None, automatic_step_size=True, first_step=None, max_step=None,
                 min_step=None, safety=0.9, max_increase=2.0, max_num_steps=1_000_000, end_accelerations=True,
                 constraints="eliminate", step_control="floatframe"):
        super().__init__(tableau, end_accelerations, constraints)
        owner = type(self).__name__
        if step_control not in STEP_CONTROLS:
            raise ValueError(f"{owner}: step_control must be one of {STEP_CONTROLS}, got {step_control!r}")
        self.step_control = step_control
        if tableau.embedded is None:
            raise ValueError(f"{owner}: the tableau {tableau.name} has no embedded weights for an error estimate")
        self.rtol = check_positive(owner, "rtol", rtol)
        self.atol = self.rtol if atol is None else check_positive(owner, "atol", atol)
        self.adaptive = bool(automatic_step_size)
        self.first_step = check_positive(owner, "first_step", first_step, optional=True)
        self.max_step = check_positive(owner, "max_step", max_step, optional=True)
        self.min_step = check_positive(owner, "min_step", min_step, optional=True)
        self.safety = check_positive(owner, "safety", safety)
        self.max_increase = check_positive(owner, "max_increase", max_increase)
        if self.max_increase < 1.0:
            raise ValueError(f"{owner}: max_increase must be >= 1, got {max_increase}")
        self.max_num_steps = check_count(owner, "max_num_steps", max_num_steps)
        self._h = None
        self._t_end = None           # exudyn: the end time of the solve (the only time a step is cut at)
        self._h_max = None           # exudyn: the largest step
        self._warned = False         # exudyn: min_step reached once (that step accepted)

    def check_options(self, h, a0, lam0, pre_step) -> None:
        super().check_options(h, a0, lam0, pre_step)
        if self.adaptive and h is not None:
            raise ValueError(f"{type(self).__name__} chooses its own steps: h is not an option (rtol, atol, "
                             f"first_step and max_step are; automatic_step_size=False takes fixed steps h)")

    def describe(self, h) -> dict:
        if not self.adaptive:
            return dict(super().describe(h), automatic_step_size=False)
        described = dict(rtol=self.rtol, atol=self.atol, stages=self.tableau.stages, safety=self.safety,
                         max_increase=self.max_increase, constraints=self.constraints)
        return described if self.step_control == "floatframe" else dict(described, step_control=self.step_control)

    def start(self, system, state, grid, n_steps):
        self._h = self.first_step if self.first_step is not None else float(grid[1] - grid[0])
        if self.step_control == "exudyn":   # its first step: first_step, else the largest step
            self._h_max = self.max_step if self.max_step is not None else float(grid[1] - grid[0])
            self._h = self.first_step if self.first_step is not None else self._h_max
            self._t_end = float(grid[-1])
            self._warned = False
        return super().start(system, state, grid, n_steps)

    def advance(self, system, state: State, t_target: float, h: float, prepared=None) -> State:
        if not self.adaptive:
            return super().advance(system, state, t_target, h, prepared)
        try:
            if self.step_control == "exudyn":
                return self._controlled_as_exudyn(system, state, t_target)
            return self._controlled(system, state, t_target)
        except UserFunctionError as error:
            failure = user_function_failure(error, state.t, self.name)
            failure.state = state
            raise failure from error

    def error(self, state, q, v, q_embedded, v_embedded) -> float:
        """The scaled root-mean-square difference of the two solutions (module docstring)."""
        if self.step_control == "exudyn":
            return self._exudyn_error(state, q, v, q_embedded, v_embedded)
        scale_q = self.atol + self.rtol * np.maximum(np.abs(state.q), np.abs(q_embedded))
        scale_v = self.atol + self.rtol * np.maximum(np.abs(state.v), np.abs(v_embedded))
        total = np.sum(((q_embedded - q) / scale_q) ** 2) + np.sum(((v_embedded - v) / scale_v) ** 2)
        return math.sqrt(total / (2 * q.size)) if q.size else 0.0

    def _trial_step(self, state: State, h: float, t_target: float):
        """(q, v) of the weights b and of the embedded weights after a step of h [s] from state, and the stages'
        accelerations; refuses a step beyond max_num_steps on the way to t_target."""
        stats = self.statistics
        if stats.steps + stats.rejected_steps >= self.max_num_steps:
            raise _failure(self.name, f"{self.max_num_steps} steps (max_num_steps) did not reach t = {t_target:.6g}",
                           state)
        velocities, accelerations = self._stages(state, h)
        q, v = self._combine(state, h, self.b, velocities, accelerations)
        q_embedded, v_embedded = self._combine(state, h, self.b_embedded, velocities, accelerations)
        return q, v, q_embedded, v_embedded, accelerations

    def _controlled(self, system, state: State, t_target: float) -> State:
        """Steps of its own from state.t to t_target."""
        stats = self.statistics
        interval = t_target - state.t
        h_max = interval if self.max_step is None else min(interval, self.max_step)
        while state.t < t_target - 1e-14 * max(1.0, abs(t_target)):
            min_step = self.min_step if self.min_step is not None else 10.0 * EPS * max(1.0, abs(state.t))
            proposal = min(self._h, h_max)
            remaining = t_target - state.t
            h = remaining if proposal >= remaining * (1.0 - 1e-12) else proposal
            q, v, q_embedded, v_embedded, accelerations = self._trial_step(state, h, t_target)
            error = max(self.error(state, q, v, q_embedded, v_embedded), 1e-12)
            if not math.isfinite(error):
                raise _failure(self.name, f"the error estimate is not finite (step {h:.3g} s)", state)
            h_optimal = h * error ** (-1.0 / self.order)
            h_new = min(h_max, self.max_increase * h, max(min_step, self.safety * h_optimal))
            if h_optimal < h:
                stats.rejected_steps += 1
                if h <= min_step * (1.0 + 1e-12):
                    raise _failure(self.name, f"the error estimate {error:.3g} stays above 1 at the smallest step "
                                              f"{min_step:.3g} s (min_step); loosen rtol, atol or lower min_step",
                                   state)
                self._h = h_new
                continue
            state = self._end_state(state.t + h, q, v, accelerations)
            self._h = proposal if h < proposal else h_new
        return state

    def _exudyn_error(self, state, q, v, q_embedded, v_embedded) -> float:
        """Exudyn's error: the root-mean-square of the scaled differences with signed scales (module docstring)."""
        terms_q = (q_embedded - q) / (self.atol + self.rtol * np.maximum(q_embedded, state.q))
        terms_v = (v_embedded - v) / (self.atol + self.rtol * np.maximum(v_embedded, state.v))
        return math.sqrt((terms_q @ terms_q + terms_v @ terms_v) / (2 * q.size)) if q.size else 0.0

    def _controlled_as_exudyn(self, system, state: State, t_target: float) -> State:
        """Exudyn's steps from state.t to the first step end at or after t_target (module docstring)."""
        stats = self.statistics
        while state.t < t_target - EXUDYN_TIME_TOLERANCE:
            min_step = self.min_step if self.min_step is not None else 10.0 * EPS * max(1.0, abs(state.t))
            h = self._t_end - state.t if state.t + self._h > self._t_end else self._h
            q, v, q_embedded, v_embedded, accelerations = self._trial_step(state, h, t_target)
            error = self.error(state, q, v, q_embedded, v_embedded)
            if math.isnan(error):
                raise _failure(self.name, f"the error estimate is not a number (step {h:.3g} s)", state)
            h_optimal = h * (1.0 / (error if error != 0.0 else EXUDYN_ZERO_ERROR)) ** (1.0 / self.order)
            self._h = min(self._h_max, self.max_increase * h, max(min_step, self.safety * h_optimal))
            if self._h == min_step and not self._warned:
                self._warned = True
                warnings.warn(f"{self.name}: t = {state.t:.6g}: the step size reached min_step = {min_step:.3g} s; "
                              f"the step is taken with an error above the tolerances", StepSizeWarning, stacklevel=2)
            elif h_optimal < h:
                stats.rejected_steps += 1
                if h <= min_step:
                    raise _failure(self.name, f"the error estimate {error:.3g} stays above 1 at the smallest step "
                                              f"{min_step:.3g} s (min_step); loosen rtol, atol or lower min_step",
                                   state)
                continue
            state = self._end_state(state.t + h, q, v, accelerations)
        return state


def _failure(solver, what, state) -> SolverError:
    error = SolverError(f"{solver}: {what} at t = {state.t:.6g}", state.t)
    error.state = state
    return error


def _embedded_family(key: str, doc: str):
    """A subclass of EmbeddedRungeKutta for TABLEAUX[key]."""

    def __init__(self, rtol=1e-6, atol=None, automatic_step_size=True, first_step=None, max_step=None,
                 min_step=None, safety=0.9, max_increase=2.0, max_num_steps=1_000_000, end_accelerations=True,
                 constraints="eliminate", step_control="floatframe"):
        EmbeddedRungeKutta.__init__(self, TABLEAUX[key], rtol, atol, automatic_step_size, first_step, max_step,
                                    min_step, safety, max_increase, max_num_steps, end_accelerations, constraints,
                                    step_control)

    tableau = TABLEAUX[key]
    return type(key, (EmbeddedRungeKutta,), dict(
        __init__=__init__, name=tableau.name, order=tableau.order, __module__=__name__,
        __doc__=f"{doc} (``TABLEAUX['{key}']``, order {tableau.order} with an embedded solution of order "
                f"{tableau.embedded_order}); parameters as :class:`EmbeddedRungeKutta` without the tableau."))


ODE23 = _embedded_family("ODE23", "Bogacki and Shampine's pair (MATLAB's ode23)")
DOPRI5 = _embedded_family("DOPRI5", "Dormand and Prince's pair")
DVERK6 = _embedded_family("DVERK6", "Verner's pair of DVERK (Hull, Enright and Jackson 1976)")

__all__ = ["EmbeddedRungeKutta", "ODE23", "DOPRI5", "DVERK6", "StepSizeWarning"]
