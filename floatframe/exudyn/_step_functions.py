"""A MainSystem's step user functions on floatframe's step loop and Newton iteration, called as Exudyn calls them.

- pre-step f(mbs, t) -> bool (``SetPreStepUserFunction``): before each step, the Current state that of the step's
  start at the step's end time t (as Exudyn's) (the loop's ``pre_step``);
- post-step f(mbs, t) -> bool (``SetPostStepUserFunction``): once with the initial state and after each step,
  before the state is stored (sensors, solution file); the function may change the Current state with
  ``mbs.systemData.Set...(configuration=Current)``, and the next step starts from the state so changed (the
  algorithmic accelerations of generalized-alpha, which no function sees, stay; Exudyn's Newmark predictor takes
  the accelerations as set) (the loop's ``post_step``);
- pre-Newton residual f(mbs, t, newtonIt, discontinuousIt) (``SetPreNewtonResidualUserFunction``): before each
  evaluation of the Newton residual of an implicit step (not before its Jacobian), the Current state that of
  the Newton iterate; it may change item parameters (e.g. a load), which that evaluation uses
  (``NewtonHooks.before_residual``);
- system Jacobian f(mbs, t, factorODE2, factorODE2_t, factorODE1) -> MatrixContainer
  (``SetSystemJacobianUserFunction``): sparse triplets at Exudyn's ODE2 indices, added to each iteration
  matrix; the function returns factorODE2 dF/dq + factorODE2_t dF/dv of the forces F it adds on the right-hand
  side (a spring k on the right-hand side gives -k factorODE2) (``NewtonHooks.matrix_addition``).

t is Exudyn's time of the step's end: with timeIntegration.adaptiveStep (Exudyn's default) the running sum of the
steps h = (endTime - startTime) / numberOfSteps, the last one cut at endTime (so t = 1.0000000000000007 at the
1000th step of 0.001 s); without it startTime + k h. A False (or None, as in Exudyn) from the pre-step or post-step
function ends the solve after that step (a post-step function that returns False for the initial state: no step).

Exudyn's Jacobian of a generalized-alpha step is beta h^2 (M / kappa + K + gamma / (h beta) D) with
kappa = (1 - alpha_f) / (1 - alpha_m), and it calls the system Jacobian function with factorODE2 = factorODE1 =
-beta h^2 and factorODE2_t = -gamma h; floatframe's iteration matrix M + c_v D + c_q K is kappa times Exudyn's,
so it adds kappa times the function's matrix.
"""
from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

from floatframe.errors import UserFunctionError
from floatframe.exudyn._items_ode1 import ode2_rows
from floatframe.exudyn._matrix import MatrixContainer
from floatframe.exudyn._names import ExudynLayerError
from floatframe.solvers.genalpha import NewtonHooks

# MainSystem attribute -> (Exudyn's setter, the function's arguments) of the step user functions
STEP_FUNCTIONS = {"_pre_step_function": ("SetPreStepUserFunction", "f(mbs, t)"),
                  "_post_step_function": ("SetPostStepUserFunction", "f(mbs, t)"),
                  "_pre_newton_residual_function": ("SetPreNewtonResidualUserFunction",
                                                    "f(mbs, t, newtonIt, discontinuousIt)"),
                  "_system_jacobian_function": ("SetSystemJacobianUserFunction",
                                                "f(mbs, t, factorODE2, factorODE2_t, factorODE1)")}
# ... and with the post-Newton function (``floatframe.solvers.switching``, not a step function: its own step loop)
SETTERS = dict(STEP_FUNCTIONS, _post_newton_function=("SetPostNewtonUserFunction",
                                                      "f(mbs, t) -> [error, recommendedStepSize]"))


def checked_function(attribute: str, function):
    """A step user function as the MainSystem keeps it: a callable, or None for Exudyn's 0 (or None), which
    removes it; anything else raises ExudynLayerError naming the setter."""
    if function is None or (isinstance(function, int) and not isinstance(function, bool) and function == 0):
        return None
    if not callable(function):
        setter, arguments = SETTERS[attribute]
        raise ExudynLayerError(f"{setter}: expected a Python function {arguments} or 0, got {function!r}")
    return function


def as_exudyn_value(function):
    """What exudyn 1.13.6's Get...UserFunction (whatever its asDict) and GetDictionary give for a step user
    function: {'function': f, 'type': 'Python'}, or 0 when none is set."""
    return 0 if function is None else {"function": function, "type": "Python"}


def from_exudyn_value(value):
    """The function of a GetDictionary entry (as_exudyn_value's dict, a function, or 0)."""
    return value.get("function") if isinstance(value, dict) else value


def set_functions(mbs) -> list[str]:
    """The MainSystem attributes of the step user functions that are set."""
    return [attribute for attribute in STEP_FUNCTIONS if getattr(mbs, attribute, None) is not None]


def refuse_in_static_solve(mbs) -> None:
    """SolveStatic does not call the post-step, pre-Newton residual and system Jacobian functions, which Exudyn
    calls at each load step: refuse a system that has any (ExudynLayerError naming them)."""
    names = [STEP_FUNCTIONS[name][0] for name in set_functions(mbs) if name != "_pre_step_function"]
    if names:
        raise ExudynLayerError(f"SolveStatic: floatframe's static solver does not call the functions of "
                               f"{', '.join(names)} (Exudyn calls them at each load step); remove them with 0 "
                               f"before SolveStatic")


class ExudynClock:
    """The time Exudyn gives the user functions of a fixed-step solve (see the module).

    Parameters
    ----------
    start, end : startTime and endTime [s]; steps : numberOfSteps; running_sum : timeIntegration.adaptiveStep.
    """

    def __init__(self, start: float, end: float, steps: int, running_sum: bool):
        self.start, self.end, self.step_size, self.running_sum = start, end, (end - start) / steps, running_sum
        self.index, self.time = 0, start

    def next_step(self) -> float:
        """Advance to the end of the next step; its time [s]."""
        self.index += 1
        if self.running_sum:
            self.time += self.end - self.time if self.time + self.step_size > self.end else self.step_size
        else:
            self.time = self.index * self.step_size + self.start
        return self.time


class StepFunctions:
    """The step user functions of ``mbs`` as the hooks of one solve with ``scheme`` (``pre_step``, ``post_step``,
    ``newton_hooks``); ``clock`` an ExudynClock (None: the loop's grid times, for adaptive schemes), ``record_start``
    keeps the start of each step as the StartOfStep configuration."""

    def __init__(self, mbs, scheme, clock: ExudynClock | None, record_start: bool = True):
        self.mbs, self.scheme, self.clock, self.record_start = mbs, scheme, clock, record_start
        self.time = clock.start if clock is not None else None
        self.steps_begun = 0
        self._ode2_rows = None   # floatframe's rows of Exudyn's ODE2 coordinates, found at the first Jacobian

    @property
    def pre_step(self):
        """The loop's pre_step (None where there is nothing to do before a step)."""
        return self._pre_step if self.record_start or self.mbs._pre_step_function is not None else None

    @property
    def post_step(self):
        """The loop's post_step (None without a post-step function)."""
        return self._post_step if self.mbs._post_step_function is not None else None

    def newton_hooks(self) -> NewtonHooks | None:
        """The scheme's NewtonHooks for the pre-Newton residual and system Jacobian functions (None: neither)."""
        residual, jacobian = self.mbs._pre_newton_residual_function, self.mbs._system_jacobian_function
        if residual is None and jacobian is None:
            return None
        return NewtonHooks(before_residual=self._before_residual if residual is not None else None,
                           matrix_addition=self._matrix_addition if jacobian is not None else None)

    # --- the hooks ---------------------------------------------------------------------------------------------
    def _pre_step(self, t_next, state):
        """Record StartOfStep, advance the clock, call the pre-step function with the step's start as Current (at
        the step's end time, as Exudyn's Current state then has it)."""
        mbs = self.mbs
        self.steps_begun += 1
        self.time = self.clock.next_step() if self.clock is not None else float(t_next)
        start = (float(state.t), state.q.copy(), state.v.copy(), state.a.copy(), state.lam.copy())
        mbs._configurations["StartOfStep"] = start
        if mbs._pre_step_function is None:
            return None
        mbs._assembled.current_state = (self.time, *start[1:])
        return step_answer(mbs._pre_step_function(mbs, self.time), "PreStepUserFunction")

    def _post_step(self, state):
        """Call the post-step function with ``state`` as the Current configuration (writable during the call) and
        put what it set into ``state``; its answer (False ends the solve)."""
        mbs = self.mbs
        time = self.time if self.time is not None else float(state.t)
        mbs._assembled.current_state = (time, state.q.copy(), state.v.copy(), state.a.copy(), state.lam.copy())
        if self.steps_begun == 0 and self.record_start:   # the initial state: StartOfStep is it (as Exudyn's)
            mbs._configurations["StartOfStep"] = (time, *(x.copy() for x in mbs._assembled.current_state[1:]))
        mbs._current_writable = True
        try:
            answer = mbs._post_step_function(mbs, time)
        finally:
            mbs._current_writable = False
        _, state.q, state.v, state.a, state.lam = (np.array(x, dtype=float) for x in mbs._assembled.current_state)
        if self.algorithmic_is_acceleration:   # Newmark: Exudyn's predictor takes the accelerations as set
            state.abar = state.a.copy()
        return step_answer(answer, "PostStepUserFunction")

    @property
    def algorithmic_is_acceleration(self) -> bool:
        """Whether the scheme's algorithmic accelerations are its accelerations (alpha_m = alpha_f = 0: Newmark, and
        the schemes without them), so that a post-step function's accelerations replace both."""
        return getattr(self.scheme, "alpha_m", 0.0) == 0.0 and getattr(self.scheme, "alpha_f", 0.0) == 0.0

    def _before_residual(self, t, q, v, a, lam, iteration: int):
        """The pre-Newton residual function at the Newton iterate (the Current configuration during the call)."""
        mbs = self.mbs
        mbs._assembled.current_state = (self.time, q, v, a, lam)
        try:
            mbs._pre_newton_residual_function(mbs, self.time, int(iteration), 0)
        except ExudynLayerError:
            raise
        except Exception as exc:
            raise UserFunctionError(f"the PreNewtonResidualUserFunction raised {type(exc).__name__}: {exc}",
                                    function="PreNewtonResidualUserFunction") from exc

    def _matrix_addition(self, t, c_q, c_v):
        """kappa times the system Jacobian function's matrix (Exudyn's factors), at floatframe's coordinate rows."""
        mbs, scheme = self.mbs, self.scheme
        kappa = (1 - scheme.alpha_f) / (1 - scheme.alpha_m)
        factor_ode2, factor_ode2_t = -c_q / kappa, -c_v / kappa
        try:
            container = mbs._system_jacobian_function(mbs, self.time, factor_ode2, factor_ode2_t, factor_ode2)
        except ExudynLayerError:
            raise
        except Exception as exc:
            raise UserFunctionError(f"the SystemJacobianUserFunction raised {type(exc).__name__}: {exc}",
                                    function="SystemJacobianUserFunction") from exc
        rows, columns, values = jacobian_entries(container)
        if self._ode2_rows is None:
            self._ode2_rows = ode2_rows(mbs)
        ode2 = self._ode2_rows
        outside = (rows >= ode2.size) | (columns >= ode2.size)
        if outside.any():
            k = int(np.flatnonzero(outside)[0])
            raise ExudynLayerError(f"SystemJacobianUserFunction: the entry ({rows[k]}, {columns[k]}) lies outside the "
                                   f"{ode2.size} ODE2 coordinates; floatframe adds entries of ODE2 coordinates only")
        size = mbs._assembled.n_coordinates + mbs._assembled.n_multipliers
        return sp.csc_matrix((kappa * values, (ode2[rows], ode2[columns])), shape=(size, size))


def step_answer(answer, function: str) -> bool:
    """A pre- or post-step function's answer read as Exudyn reads it (a C++ bool): None is False, a number its
    truth value; anything else raises ExudynLayerError naming the ``function``."""
    if answer is None:
        return False
    if isinstance(answer, (bool, np.bool_, numbers.Number)):
        return bool(answer)
    raise ExudynLayerError(f"{function}: the function must return True (go on) or False (end the solve after this "
                           f"step), got {answer!r}")


def jacobian_entries(container) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, columns, values) of a system Jacobian function's answer: a sparse MatrixContainer (as Exudyn, which
    refuses dense ones) or a scipy.sparse matrix; ExudynLayerError otherwise."""
    if isinstance(container, MatrixContainer):
        if container.UseDenseMatrix():
            raise ExudynLayerError("SystemJacobianUserFunction: the MatrixContainer must be sparse (set it with "
                                   "SetWithSparseMatrix, as Exudyn requires)")
        matrix = container.matrix if container.matrix is not None else sp.csr_matrix((0, 0))
    elif sp.issparse(container):
        matrix = container
    else:
        raise ExudynLayerError(f"SystemJacobianUserFunction: expected a MatrixContainer, got {container!r}")
    matrix = sp.coo_matrix(matrix)
    rows, columns = matrix.row.astype(int), matrix.col.astype(int)
    if rows.size and min(rows.min(), columns.min()) < 0:
        raise ExudynLayerError("SystemJacobianUserFunction: a negative index in the returned matrix")
    return rows, columns, np.asarray(matrix.data, dtype=float)
