"""The time loop that every integrator shares, and the base class of the schemes that run on it.

A scheme (a subclass of :class:`Scheme`) says how a solve starts and how it takes one step; ``integrate`` does
everything else, once for all schemes:

- the output grid (``t_end`` with ``n_steps``, or ``t_grid``) and, for fixed-step schemes, the division of
  each output interval into equal steps of at most ``h``;
- step-size control: a fixed-step scheme's failed step (a SolverError from ``step``) is halved and retried
  down to ``min_step`` (``Scheme.advance``); an adaptive scheme (``adaptive = True``, e.g. IDAS) controls its
  own steps and is asked for one output interval at a time;
- the checks of ``floatframe.solvers.safeguards`` (the settings, the initial state, the growth of the state)
  and the conversion of a failing user function or ``pre_step`` into a SolverError with the time;
- ``pre_step`` and ``post_step``, the progress bar, the storage of every ``store_every``-th output, the model's
  monitors at the stored states (``DAE.monitors``: warnings where the model leaves its range of validity; their
  time is kept out of ``statistics.solve_time`` and given as ``info["monitor_time"]``), the statistics, and the
  result, complete (``SimulationResult``) or partial (``SolverError.result``).

A scheme implements ``init`` (the initial state, ``State``), ``step`` (one step of size h; a fixed-step scheme
raises SolverError to have it halved), and optionally ``prepare`` (what its steps reuse over a solve),
``check_options``, ``describe``, ``finish`` and ``native_loop`` (a loop in compiled code that takes many grid
times per call, as GeneralizedAlpha's, ``floatframe.solvers.native``); it declares ``name``, ``order``
(checked against the measured order by the tests) and ``initial_tolerances``. Schemes read the model through
the DAE contract (``floatframe.solvers.contract``) only. docs/solvers.md, "Bring your own solver", has a
complete example.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from tqdm import tqdm

from floatframe.errors import UserFunctionError
from floatframe.solvers.dense import sensor_series
from floatframe.solvers.linear import single_threaded_blas
from floatframe.solvers.result import (SimulationResult, SolverError, SolverStatistics, steps_per_interval,
                                       time_grid, wants_stop)
from floatframe.solvers.safeguards import (BLOW_UP_FACTOR, STRICT, GrowthBound, call_post_step, call_pre_step,
                                           check_assembled, check_blow_up, check_count, check_initial_mode,
                                           initial_state, user_function_failure)

# the Python loop's single stored states go to the model's monitors in blocks of this many (and the rest at the
# end): a monitor's call costs some 40 us of Python whatever the number of states (a spinning reduced body's
# check at each of 1,000 stored states was a tenth of objectFFRFreducedOrderStressModesTest's solve)
MONITOR_BLOCK = 64


@dataclass
class State:
    """A state of the DAE at time t [s]: q, v, a (n,) as change from the reference, abar (n,) the algorithmic
    accelerations of generalized-alpha (a for other schemes), lam (m,)."""

    t: float
    q: np.ndarray
    v: np.ndarray
    a: np.ndarray
    abar: np.ndarray
    lam: np.ndarray


class StateRows:
    """States stacked by a compiled loop: row i holds [t, q, v, a, abar, lam] (1 + 4n + m values) of the state at
    grid time ``k[i]``. A solve keeps them as they come (a State object a row cost 0.5 us, and stacking them
    again for the result as much). The columns are views: ``times`` (k,), ``q``, ``v``, ``a``, ``abar`` (k, n) and
    ``lam`` (k, m); this class alone knows the layout (the C loops write it: native_loop.c, explicit_batch)."""

    def __init__(self, k: np.ndarray | None, rows: np.ndarray, n: int, last: State | None = None):
        self.k, self.rows, self.n = k, rows, n   # k None: rows of no particular grid times (``stacked``)
        self.last = last   # the producer's State of the last row, where it keeps that object (else made by state())

    @staticmethod
    def width(n: int, m: int) -> int:
        """The number of values of a row: 1 + 4n + m."""
        return 1 + 4 * n + m

    @classmethod
    def empty(cls, k: np.ndarray, n: int, m: int) -> "StateRows":
        """Rows for the states of grid times ``k`` (k,), to be filled through the column views."""
        return cls(k, np.empty((len(k), cls.width(n, m))), n)

    @staticmethod
    def row(state: State) -> np.ndarray:
        """A State as one row (1, 1 + 4n + m) of this layout."""
        return np.concatenate(([state.t], state.q, state.v, state.a, state.abar, state.lam))[None, :]

    def __len__(self) -> int:
        return self.rows.shape[0]

    @property
    def t(self) -> float:
        """The time of the last row [s] (as ``State.t`` of the last state)."""
        return float(self.rows[-1, 0])

    @property
    def times(self) -> np.ndarray:
        """t (k,) [s] of the rows."""
        return self.rows[:, 0]

    def _block(self, j: int) -> np.ndarray:
        """The j-th of the row's (k, n) blocks q, v, a, abar."""
        return self.rows[:, 1 + j * self.n:1 + (j + 1) * self.n]

    @property
    def q(self) -> np.ndarray:
        return self._block(0)

    @property
    def v(self) -> np.ndarray:
        return self._block(1)

    @property
    def a(self) -> np.ndarray:
        return self._block(2)

    @property
    def abar(self) -> np.ndarray:
        return self._block(3)

    @property
    def lam(self) -> np.ndarray:
        return self.rows[:, 1 + 4 * self.n:]

    def state(self, i: int = -1) -> State:
        """Row i as a State (copies)."""
        return State(float(self.times[i]), self.q[i].copy(), self.v[i].copy(), self.a[i].copy(), self.abar[i].copy(),
                     self.lam[i].copy())

    def select(self, mask: np.ndarray) -> "StateRows":
        return StateRows(self.k[mask], self.rows[mask], self.n)


class Scheme:
    """Base of the time integrators (see the module docstring).

    Attributes
    ----------
    name : the scheme's name in results and comparison tables.
    order : its order of convergence in the step size (IDAS: the highest BDF order).
    adaptive : False for a fixed-step scheme; True where the scheme chooses its own steps (``h`` is then
        refused and ``step`` is asked for whole output intervals).
    initial_tolerances : (position, velocity) relative tolerances of the initial state's constraint gaps.
    min_step : the smallest step [s] the halving may reach (None: h / 2^10).
    statistics : SolverStatistics of the last solve.
    """

    name = "scheme"
    order = 1
    adaptive = False
    initial_tolerances = (STRICT, STRICT)
    min_step = None

    def __init__(self):
        self.statistics = SolverStatistics()

    # --- what a scheme implements -------------------------------------------------------------------
    def init(self, system, t0: float, q, v, accelerations=None, multipliers=None) -> State:
        """The initial state at t0 from q, v (n,) (and, where given, a and lambda)."""
        raise NotImplementedError

    def step(self, system, state: State, h: float, prepared=None) -> State:
        """The state at state.t + h; raises SolverError when the step fails."""
        raise NotImplementedError

    def prepare(self, system, n_steps: int = 0):
        """What the steps of a solve of ``n_steps`` steps reuse (passed to ``step`` as ``prepared``)."""
        return None

    def start(self, system, state: State, grid: np.ndarray, n_steps: int):
        """Called once before the first step with the initial state and the output grid; by default
        ``prepare(system, n_steps)``."""
        return self.prepare(system, n_steps)

    def check_options(self, h, a0, lam0, pre_step) -> None:
        """Refuse options of ``solve`` the scheme cannot honour (ValueError)."""

    def describe(self, h) -> dict:
        """Method parameters for result.info and comparison tables."""
        return dict(h=h)

    def finish(self, system, states: list, info: dict, prepared) -> None:
        """After the last step (or a failure): add to ``info``, free resources."""

    def rejected(self) -> None:
        """A step failed and will be retried smaller (e.g. forget a factorized matrix)."""

    def linear_algebra_size(self, system) -> int:
        """Unknowns of the scheme's largest linear-algebra operations on ``system`` (n + m here): the shared loop
        limits BLAS to one thread from SINGLE_THREAD_MIN_SIZE of them (``floatframe.solvers.linear``)."""
        return system.n_coordinates + system.n_multipliers

    def native_loop(self, system, prepared):
        """An object that takes many grid times in one call (``ready()``, ``run(...)``: see
        ``floatframe.solvers.native.NativeLoop``; ``checks_growth`` True where its ``run`` tests the states it
        yields against the growth bound itself), or None: the loop calls ``advance`` for each. ``run`` yields
        (k, State) pairs, or (k_last, StateRows) blocks where it checks growth itself."""
        return None

    # --- what the loop provides ----------------------------------------------------------------------
    def solve(self, system, t_end=None, n_steps=None, *, t_grid=None, t0: float = 0.0, h=None,
              progress: bool | None = None, store_every: int = 1, q0=None, v0=None, a0=None, lam0=None,
              pre_step=None, initial: str = "check", blow_up: float | None = BLOW_UP_FACTOR,
              post_step=None) -> SimulationResult:
        """Integrate over a time grid and store the states at its times.

        Parameters
        ----------
        t_end, n_steps : n_steps equal steps from t0 to t_end [s] (also positionally), or
        t_grid : increasing output times [s] (t0 is then t_grid[0]); a fixed-step scheme divides each interval
            into equal steps of at most h [s] (default: the smallest grid spacing).
        progress : show a progress bar (default: for 2000 output times or more).
        store_every : store every store_every-th grid time (and the last one).
        q0, v0 : initial coordinates and velocities (n,) (default: the system's initial values);
        a0, lam0 : initial accelerations and multipliers (schemes that accept them); without a0 consistent
            ones are computed.
        pre_step : called as pre_step(t_next, state) before the step to each grid time t_next with the
            state at its start; when it returns False (None continues) that step is still taken and stored,
            and the solve ends there (``result.stopped``).
        post_step : called as post_step(state) with the initial state and with the state at each grid time,
            before it is stored; it may replace the state's arrays (q, v, a, abar, lam), and the solve goes on
            from the state so changed; False ends the solve there, as for pre_step.
        initial : "check" (refuse an initial state that violates the constraints), "project" (move it onto
            them) or "accept" (see ``floatframe.solvers.safeguards``).
        blow_up : the growth factor above which the state counts as unbounded and the solve fails (see
            ``floatframe.solvers.safeguards``); None: no check.

        Raises
        ------
        SolverError
            When the solve fails, with the time (``error.time``) and the partial result (``error.result``).
        """
        return integrate(self, system, t_end, n_steps, t_grid=t_grid, t0=t0, h=h, progress=progress,
                         store_every=store_every, q0=q0, v0=v0, a0=a0, lam0=lam0, pre_step=pre_step,
                         initial=initial, blow_up=blow_up, post_step=post_step)

    def solve_grid(self, system, t_grid, h=None, progress: bool = False) -> SimulationResult:
        """``solve(system, t_grid=t_grid, h=h)``: the output times with steps of at most h."""
        return self.solve(system, t_grid=t_grid, h=h, progress=progress)

    def advance(self, system, state: State, t_target: float, h: float, prepared=None) -> State:
        """Step to t_target (= state.t + h); on a failed step halve the step and retry.

        Raises SolverError naming the time and the last failure once the step would fall below
        ``min_step``, or at once when a user function fails (UserFunctionError chained); the error's
        ``state`` is the last accepted state.
        """
        min_step = h / 2 ** 10 if self.min_step is None else self.min_step
        step = t_target - state.t
        while state.t < t_target - 1e-14 * max(1.0, abs(t_target)):
            step = min(step, t_target - state.t)
            try:
                state = self.step(system, state, step, prepared)
            except UserFunctionError as error:
                failure = user_function_failure(error, state.t + step, self.name)
                failure.state = state
                raise failure from error
            except SolverError as failure:
                self.statistics.rejected_steps += 1
                self.rejected()
                step /= 2
                if step < min_step:
                    raise step_size_failure(self.name, min_step, state, failure) from None
                continue
            step *= 2  # try a larger step again, up to what is left to t_target
        return state


class _HiddenBar:
    """The progress bar of a solve that shows none (a hidden tqdm bar cost a tiny model's first solve 6-9 ms)."""

    def update(self, steps: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def integrate(scheme: Scheme, system, t_end=None, n_steps=None, *, t_grid=None, t0: float = 0.0, h=None,
              progress=None, store_every: int = 1, q0=None, v0=None, a0=None, lam0=None, pre_step=None,
              initial: str = "check", blow_up=BLOW_UP_FACTOR, post_step=None) -> SimulationResult:
    """The time loop of ``Scheme.solve`` (its arguments, with the scheme first)."""
    owner = f"{type(scheme).__name__}.solve"
    check_assembled(owner, system)
    grid = time_grid(owner, t_end, n_steps, t_grid, t0)
    spacing = np.diff(grid)
    scheme.check_options(h, a0, lam0, pre_step)
    if post_step is not None and scheme.adaptive:
        raise ValueError(f"{owner}: post_step needs a fixed-step scheme ({scheme.name} chooses its own steps, "
                         f"which a post_step at the output times would not see)")
    given_h = h
    if not scheme.adaptive:
        h = float(np.min(spacing)) if h is None else float(h)
        if not h > 0:
            raise ValueError(f"{owner}: the step h must be positive, got {h}")
    store_every = check_count(owner, "store_every", store_every)
    check_initial_mode(owner, initial)
    blow_up = check_blow_up(owner, blow_up)
    scheme.statistics = SolverStatistics()
    started = time.perf_counter()
    stopped = False
    show = progress if progress is not None else grid.size > 2000
    info = scheme.describe(h)
    n = system.n_coordinates
    with single_threaded_blas(scheme.linear_algebra_size(system)):
        q0 = system.q_initial.copy() if q0 is None else vector(q0, n, "q")
        v0 = system.v_initial.copy() if v0 is None else vector(v0, n, "v")
        q0, v0, projection = initial_state(system, grid[0], q0, v0, initial, scheme.name, scheme.initial_tolerances)
        if projection:
            info["initial_projection"] = projection
        try:
            state = scheme.init(system, grid[0], q0, v0, a0, lam0)
        except UserFunctionError as error:
            raise user_function_failure(error, grid[0], scheme.name) from error
        stopped = post_step is not None and wants_stop(call_post_step(post_step, state, scheme.name))
        bound = GrowthBound(system, state, grid[-1] - grid[0], blow_up, scheme.name) if blow_up else None
        check_every = max(1, (grid.size - 1) // GrowthBound.CHECKS)
        uniform = n_steps is not None and given_h is None   # t0 + k (t_end - t0) / n_steps, h its smallest spacing:
        # one step an interval (steps_per_interval's rounding allowance covers the grid's round-off)
        counts = np.ones(spacing.size, dtype=int) if scheme.adaptive or uniform else steps_per_interval(spacing, h)
        stored, prepared = [], None
        monitors, checking = system.monitors, [0.0]   # checking: their time [s], kept out of the solve time
        # a pre_step or post_step may change the parameters: each stored state keeps those of its step, for its
        # sensors
        stepping_functions = pre_step is not None or post_step is not None
        parameters = [] if stepping_functions and system.parameters else None

        def store(item):
            stored.append(item)
            if parameters is not None:
                parameters.append(system.parameters_now())

        unmonitored = []   # stored single states whose monitors have not run yet (``MONITOR_BLOCK``)

        def monitor(t, q, v):
            """The model's monitors at one state or stacked states (a body's lowest elastic frequency, found at the
            first call, took 15 ms of a 47 ms rotor-disc solve): timed apart, in info["monitor_time"]."""
            begun = time.perf_counter()
            for function in monitors:
                function(t, q, v)
            checking[0] += time.perf_counter() - begun

        def monitor_the_rest():
            """The monitors at the single states kept since their last call, stacked, in order."""
            if unmonitored:
                monitor(np.array([state.t for state in unmonitored]), np.array([state.q for state in unmonitored]),
                        np.array([state.v for state in unmonitored]))
                unmonitored.clear()

        def keep(item):
            """Store a State or a StateRows block; the monitors see every stored state once, in order: a block at
            once, single states in blocks of MONITOR_BLOCK."""
            store(item)
            if not monitors:
                return
            if isinstance(item, StateRows):
                monitor_the_rest()
                monitor(item.times, item.q, item.v)
                return
            unmonitored.append(item)
            if len(unmonitored) >= MONITOR_BLOCK:
                monitor_the_rest()

        keep(state)

        def visit(k, state, stopped=False, checked=False):
            """The growth check (unless ``checked`` already) and the storage at grid time k."""
            store = k % store_every == 0 or k == grid.size - 1 or stopped
            if bound is not None and not checked and (store or k % check_every == 0):
                bound.check(state)
            if store:
                keep(state)

        def visit_rows(block):
            """The storage of a block of StateRows (their growth already checked), without a State a row."""
            if store_every == 1:
                kept = block
            else:
                store = (block.k % store_every == 0) | (block.k == grid.size - 1)
                kept = block if store.all() else block.select(store)
            if len(kept):
                keep(kept)

        bar = tqdm(total=grid.size - 1, desc=scheme.name, unit="step") if show else _HiddenBar()
        try:
            prepared = scheme.start(system, state, grid, int(counts.sum()))
            native = scheme.native_loop(system, prepared) if not stepping_functions else None
            k = grid.size if stopped else 1   # a post_step that stopped at the initial state: no step
            while k < grid.size:
                if native is not None and native.ready():  # many grid times in one call (GeneralizedAlpha)
                    first = k
                    checked = getattr(native, "checks_growth", False)
                    for k, state in native.run(state, grid, counts, k, store_every, check_every, bound):
                        if isinstance(state, StateRows):
                            visit_rows(state)
                            state = state.last if state.last is not None else state.state()
                        else:
                            visit(k, state, checked=checked)
                    bar.update(k + 1 - first)
                    k += 1
                    continue
                stopped = pre_step is not None and wants_stop(call_pre_step(pre_step, grid[k], state, scheme.name))
                count = int(counts[k - 1])
                for j in range(1, count + 1):
                    target = grid[k] if j == count else grid[k - 1] + j * spacing[k - 1] / count
                    state = scheme.advance(system, state, target, spacing[k - 1] / count, prepared)
                if post_step is not None:
                    stopped = wants_stop(call_post_step(post_step, state, scheme.name)) or stopped
                visit(k, state, stopped)
                bar.update()
                if stopped:
                    break
                k += 1
        except SolverError as failure:
            last = getattr(failure, "state", None)   # the last accepted step (not a state out of bounds)
            if last is not None and last.t > stored[-1].t:
                store(last)
            monitor_the_rest()
            scheme.statistics.solve_time = solve_time(started, prepared, checking[0], info)
            scheme.finish(system, stored, info, prepared)
            failure.result = partial_result(system, stored, scheme.statistics, scheme.name, info, failure,
                                            parameters)
            raise
        finally:
            bar.close()
        monitor_the_rest()
    scheme.statistics.solve_time = solve_time(started, prepared, checking[0], info)
    scheme.finish(system, stored, info, prepared)
    result = collect(system, stored, scheme.statistics, scheme.name, info, parameters=parameters)
    result.stopped = stopped
    return result


def solve_time(started: float, prepared, monitor_time: float, info: dict) -> float:
    """[s] of the integration since ``started``, without a scheme's set-up (``prepared.setup_time``: IDAS builds its
    integrators) and the model's monitors (``monitor_time``, also put into ``info["monitor_time"]``)."""
    info["monitor_time"] = monitor_time
    return time.perf_counter() - started - getattr(prepared, "setup_time", 0.0) - monitor_time


def step_size_failure(solver: str, min_step: float, state: State, failure) -> SolverError:
    """The SolverError of a step halved below ``min_step`` from ``state`` (its ``state``, the last accepted one),
    after the step's last ``failure``."""
    error = SolverError(f"{solver}: step size fell below the minimum {min_step:.3g} s at t = {state.t:.6g}; "
                        f"last failure: {failure}", state.t)
    error.state = state
    return error


def vector(values, size, what) -> np.ndarray:
    """``values`` as a float vector of ``size`` entries; ValueError naming ``what`` otherwise."""
    array = np.array(values, dtype=float).reshape(-1)
    if array.size != size:
        raise ValueError(f"initial {what} must have {size} entries, got {array.size}")
    return array


def partial_result(system, states, statistics, solver, info, failure, parameters=None) -> SimulationResult:
    """The result of ``states`` computed before ``failure`` (their sensors where these can be evaluated)."""
    try:
        result = collect(system, states, statistics, solver, info, parameters=parameters)
    except (SolverError, UserFunctionError, RuntimeError, ValueError):   # sensors that fail on these states
        result = collect(system, states, statistics, solver, info, with_sensors=False)
    result.failure = str(failure)
    return result


def collect(system, states, statistics, solver, info, with_sensors: bool = True, parameters=None) -> SimulationResult:
    """Stack stored states and evaluate the sensors on them (without: each sensor (k, 0), no values), each state
    with its ``parameters`` (a vector p per state, where a pre_step may have changed them; None: the current p)."""
    names = system.sensor_names
    t, q, v, a, lam = stacked(states, system.n_coordinates)
    if parameters is not None:
        parameters = np.array(parameters, dtype=float).reshape(len(states), -1)
        if (parameters == system.parameters_now()).all():
            parameters = None   # unchanged during the solve
    if with_sensors:
        sensors = sensor_series(system, t, q, v, a, lam, parameters)
    else:
        sensors = [np.zeros((len(states), 0)) for _ in names]
    return SimulationResult(t=t, q=q, v=v, a=a, lam=lam, sensors=sensors, statistics=statistics, solver=solver,
                            info=info, sensor_names=names, sensor_variables=list(system.sensor_variables))


def stacked(states, n: int) -> tuple:
    """t (k,), q, v, a (k, n) and lam (k, m) of stored states: State objects and StateRows blocks, in order."""
    if not any(isinstance(item, StateRows) for item in states):
        # np.array of the equal-length rows: vstack's 2-D views cost 0.3 ms at 100 states
        t = np.array([s.t for s in states], dtype=float)
        return (t, *(np.array([getattr(s, name) for s in states], dtype=float) for name in ("q", "v", "a", "lam")))
    row = StateRows.row
    rows = StateRows(None, np.concatenate([item.rows if isinstance(item, StateRows) else row(item) for item in states]),
                     n)
    return tuple(column.copy() for column in (rows.times, rows.q, rows.v, rows.a, rows.lam))
