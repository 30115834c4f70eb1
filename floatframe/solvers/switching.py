"""Steps with switching after each Newton solve: Exudyn's discontinuous iteration and adaptive step size.

Some models hold values that the residual reads but Newton does not solve for (sticking states, contact flags:
Exudyn's data coordinates, here Parameters of the system). They change only between Newton solves, in a
post-Newton hook that compares the solved state with what the values assumed, switches them, and returns the
error of the assumption [e.g. N] and a recommended step size (-1: none). ``integrate_switching`` takes such a
model's steps as Exudyn's implicit solvers do:

- a step solves Newton from the start of the step, calls the hook, and while the error exceeds ``tolerance``
  solves again (with the switched values) up to ``max_iterations`` solves; a recommended step below the current
  one ends the iteration at once as a failure; at ``max_iterations`` the step is taken anyway where
  ``ignore_max_iterations``, else it fails (as it does when Newton fails);
- a failed step is taken again from its start, with the values of its start, and (``adaptive``) a step of
  min(0.75 h, recommended) where a step size was recommended, else ``decrease`` h, not below ``min_step``; without
  ``adaptive``, or when h is already ``min_step``, the solve fails;
- after ``recovery_steps`` accepted steps since the last reduction, a step that took at most
  ``recovery_iterations`` Newton iterations plus solves makes the next step ``increase`` times larger, at most the
  nominal step (t_end - t0) / n_steps;
- adaptive steps end at t_end (the last one shortened); without ``adaptive`` the hooks see step k end at t0 + k h.

Every accepted step is stored, with the parameters it ended with. Models without such a hook keep the step loop of
``floatframe.solvers.loop`` (and its C loop).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from floatframe.errors import UserFunctionError
from floatframe.solvers.linear import single_threaded_blas
from floatframe.solvers.loop import collect, partial_result
from floatframe.solvers.result import SolverError, SolverStatistics
from floatframe.solvers.safeguards import user_function_failure

END_TOLERANCE = 1e-10    # [s]: a step that ends this close to t_end ends the solve (Exudyn's)
RECOMMENDED_MARGIN = 1e-8   # a recommended step counts as smaller than h below (1 + this) h (Exudyn's)
FORCED_REDUCTION = 0.75  # a recommended step size reduces h at least by this factor (Exudyn's)


@dataclass(frozen=True)
class StepControl:
    """Exudyn's discontinuous-iteration and adaptive-step settings (defaults are Exudyn's timeIntegration ones).

    tolerance : the largest error of a post-Newton hook at which a step is accepted (discontinuous.iterationTolerance).
    max_iterations : Newton solves a step (discontinuous.maxIterations, >= 1).
    ignore_max_iterations : take the step after max_iterations solves though the error is above tolerance.
    use_recommended_step : follow the hook's recommended step sizes (discontinuous.useRecommendedStepSize).
    adaptive : reduce failed steps (adaptiveStep); else a failed step ends the solve.
    min_step : the smallest step [s] (minimumStepSize).
    decrease, increase : factors of a reduction without recommendation and of a recovery (adaptiveStepDecrease,
        adaptiveStepIncrease).
    recovery_steps, recovery_iterations : a recovery needs this many steps since the last reduction and a step of at
        most this many Newton iterations plus solves (adaptiveStepRecoverySteps, adaptiveStepRecoveryIterations).
    """

    tolerance: float = 1.0
    max_iterations: int = 5
    ignore_max_iterations: bool = True
    use_recommended_step: bool = True
    adaptive: bool = True
    min_step: float = 1e-8
    decrease: float = 0.5
    increase: float = 2.0
    recovery_steps: int = 10
    recovery_iterations: int = 7

    def __post_init__(self):
        if int(self.max_iterations) < 1:
            raise ValueError(f"StepControl: max_iterations must be >= 1 (Newton solves a step), got "
                             f"{self.max_iterations}")

    def reduced(self, h: float, recommended: float) -> float:
        """The step after a failure of a step of h [s] (recommended: the hook's last recommendation, -1: none)."""
        h = min(FORCED_REDUCTION * h, recommended) if recommended != -1 else h * self.decrease
        return max(self.min_step, h)


class Switching:
    """The hooks of a model whose values switch after each Newton solve (``integrate_switching``).

    ``begin_step(state)`` before the attempts of a step from ``state``; ``before_attempt(t, h)`` before each attempt
    (to time t with step h); ``after_newton(state, h)`` after each Newton solve, switching the values and returning
    (error, recommended step size or -1); ``reject()`` before a failed step is taken again: back to the values of
    its start. The loop stores each accepted state with the system's parameters at its end.
    """

    def begin_step(self, state) -> None:
        pass

    def before_attempt(self, t: float, h: float) -> None:
        pass

    def after_newton(self, state, h: float) -> tuple[float, float]:
        raise NotImplementedError

    def reject(self) -> None:
        pass


def integrate_switching(scheme, system, t0: float, t_end: float, n_steps: int, switching: Switching,
                        control: StepControl, q0=None, v0=None, a0=None, lam0=None):
    """Integrate from t0 to t_end on steps of nominal size (t_end - t0) / n_steps with ``switching`` (see the
    module docstring); ``scheme`` a fixed-step scheme (``init``, ``start``, ``step``). Returns the
    SimulationResult of every accepted step; ``result.info["last_step"]`` is the size of the last step.

    Raises SolverError (with the partial result) where a step fails and cannot be reduced."""
    name = scheme.name
    h_nominal = (t_end - t0) / n_steps
    h = h_nominal
    scheme.statistics = statistics = SolverStatistics()
    started = time.perf_counter()
    n = system.n_coordinates
    q0 = system.q_initial.copy() if q0 is None else np.array(q0, dtype=float)
    v0 = system.v_initial.copy() if v0 is None else np.array(v0, dtype=float)
    info = dict(scheme.describe(h_nominal), switching=True)
    stored, parameters = [], []
    with single_threaded_blas(scheme.linear_algebra_size(system)):
        try:
            state = scheme.init(system, t0, q0, v0, a0, lam0)
        except UserFunctionError as error:
            raise user_function_failure(error, t0, name) from error
        prepared = scheme.start(system, state, np.array([t0, t_end]), n_steps)
        stored.append(state)
        parameters.append(system.parameters_now().copy())
        since_reduction, step_index, recommended = 0, 1, -1.0
        try:
            while state.t < t_end - END_TOLERANCE:
                switching.begin_step(state)
                while True:
                    if control.adaptive:
                        h = min(h, t_end - state.t)
                    t_next = state.t + h if control.adaptive else t0 + step_index * h
                    switching.before_attempt(t_next, h)
                    new, iterations, solves, recommended = _discontinuous_iteration(
                        scheme, system, state, h, prepared, switching, control, recommended)
                    if new is not None:
                        break
                    statistics.rejected_steps += 1   # (modified Newton keeps its matrix, as Exudyn's)
                    switching.reject()
                    if not control.adaptive or not h > control.min_step:
                        raise _failure(name, state, h, control)
                    h = control.reduced(h, recommended)
                    since_reduction = 0
                state = new
                stored.append(state)
                parameters.append(system.parameters_now().copy())
                since_reduction += 1
                if since_reduction >= control.recovery_steps and iterations + solves <= control.recovery_iterations:
                    if h != h_nominal:
                        h = min(h_nominal, control.increase * h)
                    since_reduction = 0
                step_index += 1
        except SolverError as failure:
            statistics.solve_time = time.perf_counter() - started
            failure.result = partial_result(system, stored, statistics, name, info, failure, parameters)
            raise
        except UserFunctionError as error:
            failure = user_function_failure(error, state.t, name)
            statistics.solve_time = time.perf_counter() - started
            failure.result = partial_result(system, stored, statistics, name, info, failure, parameters)
            raise failure from error
    statistics.solve_time = time.perf_counter() - started
    statistics.steps = len(stored) - 1   # accepted steps (the scheme counted every Newton solve)
    info["last_step"] = h
    return collect(system, stored, statistics, name, info, parameters=np.array(parameters).reshape(len(stored), -1))


def _discontinuous_iteration(scheme, system, start, h, prepared, switching, control, recommended):
    """One step of h from ``start``: Newton solves with the hook between them (see the module docstring).
    (the accepted State or None, Newton iterations of its last solve, solves, the last recommended step size)."""
    solves = 0
    while solves < control.max_iterations:
        before = scheme.statistics.newton_iterations
        try:
            new = scheme.step(system, start, h, prepared)
        except SolverError:
            return None, 0, solves, recommended
        iterations = scheme.statistics.newton_iterations - before
        error, recommended = switching.after_newton(new, h)
        error = abs(float(error))
        recommended = float(recommended) if control.use_recommended_step and recommended >= 0 else -1.0
        solves += 1
        if error <= control.tolerance:
            return new, iterations, solves, recommended
        if solves < control.max_iterations:
            if recommended != -1 and recommended < (1 + RECOMMENDED_MARGIN) * h:
                return None, iterations, solves, recommended
        elif control.ignore_max_iterations:
            return new, iterations, solves, recommended
    return None, iterations, solves, recommended


def _failure(name, state, h, control) -> SolverError:
    """The SolverError of a step from ``state`` that failed and cannot be reduced (its ``state``: the last accepted)."""
    reason = (f"the step size is at its minimum {control.min_step:.3g} s" if control.adaptive
              else "adaptive steps are off")
    error = SolverError(f"{name}: the step of {h:.6g} s from t = {state.t:.6g} failed (Newton, or the post-Newton "
                        f"switching did not settle within {control.max_iterations} solves) and {reason}", state.t)
    error.state = state
    return error
