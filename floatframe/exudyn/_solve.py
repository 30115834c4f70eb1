"""SolveDynamic: Exudyn's simulation settings mapped onto floatframe's solvers, and the sensor output.

The settings choose the scheme as Exudyn does:

- ``timeIntegration.solverType = GeneralizedAlpha`` (default): ``GeneralizedAlpha(spectralRadius)``, or with
  ``generalizedAlpha.useNewmark`` ``Newmark(gamma=newmarkGamma, beta=newmarkBeta)``; index 2 with
  ``generalizedAlpha.useIndex2Constraints``;
- ``TrapezoidalIndex2``: Exudyn sets useNewmark and useIndex2Constraints for the run, i.e. Newmark with
  newmarkBeta, newmarkGamma (default 1/4, 1/2: the trapezoidal rule) on the index-2 DAE;
- the explicit solverTypes (ExplicitEuler, ..., RK67, ODE23, DOPRI5, VelocityVerlet): floatframe's explicit
  schemes with Exudyn's settings (``floatframe.exudyn._explicit``).

Every other field is honoured, has no effect on the numbers, or raises (see ``_settings.CLASSIFICATION``).
"""
from __future__ import annotations

import locale
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from floatframe.exudyn._explicit import EXPLICIT, explicit_solver
from floatframe.exudyn._coordinates import ae_rows, data_rows
from floatframe.exudyn._items_ode1 import first_order_start, ode1_rows, ode2_rows, refuse_ode1_outside_dynamics
from floatframe.exudyn._iteration import SolverIterationData, iteration_data
from floatframe.exudyn._lie_group_explicit import exudyn_velocities, lie_group_nodes
from floatframe.exudyn._names import (ConfigurationType, DynamicSolverType, ExudynLayerError, OutputVariableType,
                                      member_name)
from floatframe.exudyn._settings import (HONOURED, SWITCHING_STEP_FIELDS, SimulationSettings, changed_fields,
                                         check_dynamic, classify)
from floatframe.exudyn._output_steps import storage_period, stored_rows, written_rows, written_steps
from floatframe.exudyn._post_newton import PostNewtonSwitching, velocity_level_rows
from floatframe.exudyn._solution_file import RewrittenFile, SolutionFile, format_rows
from floatframe.exudyn._step_functions import STEP_FUNCTIONS, ExudynClock, StepFunctions, set_functions
from floatframe.solvers import GeneralizedAlpha, Newmark, SolverError
from floatframe.solvers.genalpha import ResidualStop
from floatframe.solvers.switching import StepControl, integrate_switching

IMPLICIT = ("GeneralizedAlpha", "TrapezoidalIndex2")


def solver_options(settings) -> dict:
    """The fields that reach floatframe's solver and sensor output, as plain values."""
    get = settings.get
    return dict(
        end_time=float(get("timeIntegration.endTime")),
        start_time=float(get("timeIntegration.startTime")),
        steps=float(get("timeIntegration.numberOfSteps")),
        verbose=int(get("timeIntegration.verboseMode")),
        sensor_period=float(get("solution.sensors.writePeriod")),
        sensors_active=bool(get("solution.sensors.active")),
        write_initial_values=bool(get("solution.file.writeInitialValues")),   # also the sensors' (as in Exudyn)
        precision=int(get("solution.precision")),
        write_header=bool(get("solution.sensors.writeHeader")),
        compute_initial_accelerations=bool(get("timeIntegration.generalizedAlpha.computeInitialAccelerations")),
        reset_accelerations=bool(get("timeIntegration.generalizedAlpha.resetAccelerations")),
    )


def newton_control(settings, branch: str = "timeIntegration.newton.") -> ResidualStop:
    """Exudyn's Newton iteration with the settings' NewtonSettings (``floatframe.solvers.genalpha.ResidualStop``);
    weightTolerancePerCoordinate is applied by ``SolveDynamic``, which knows the number of equations."""
    get = settings.get
    return ResidualStop(relative_tolerance=float(get(branch + "relativeTolerance")),
                        absolute_tolerance=float(get(branch + "absoluteTolerance")),
                        max_modified_iterations=int(get(branch + "maxModifiedNewtonIterations")),
                        max_restart_iterations=int(get(branch + "maxModifiedNewtonRestartIterations")),
                        contractivity=float(get(branch + "modifiedNewtonContractivity")),
                        jacobian_per_step=bool(get(branch + "modifiedNewtonJacUpdatePerStep")),
                        adapt_initial_residual=bool(get(branch + "adaptInitialResidual")),
                        loads_jacobian=int(get("timeIntegration.computeLoadsJacobian")) > 0)


EXUDYN_NEWTON = True   # the layer's implicit schemes iterate Newton as Exudyn does (``newton_control``)


def dynamic_solver(settings, solver_type: str, exudyn_newton: bool | None = None):
    """floatframe's solver for the implicit Exudyn scheme the settings describe; with ``exudyn_newton`` (default
    ``EXUDYN_NEWTON``) its Newton iteration is Exudyn's (``newton_control``), else floatframe's own stop at
    min(relativeTolerance, 1e-10)."""
    alpha = "timeIntegration.generalizedAlpha."
    newton = "timeIntegration.newton."
    trapezoidal = solver_type == "TrapezoidalIndex2"
    if not trapezoidal and settings.get(alpha + "useIndex2Constraints") and not settings.get(alpha + "useNewmark"):
        raise ExudynLayerError("SolveDynamic: timeIntegration.generalizedAlpha.useIndex2Constraints = True needs "
                               "useNewmark = True (Exudyn refuses index 2 with generalized-alpha as well)")
    index = 2 if trapezoidal or settings.get(alpha + "useIndex2Constraints") else 3
    adaptive = bool(settings.get("timeIntegration.adaptiveStep"))
    h = (settings.get("timeIntegration.endTime") - settings.get("timeIntegration.startTime")) / \
        settings.get("timeIntegration.numberOfSteps")
    if not adaptive:
        min_step = h * (1 - 1e-9)  # no halving: the first failed Newton iteration ends the solve
    elif "timeIntegration.minimumStepSize" in changed_fields(settings, "timeIntegration.minimumStepSize"):
        min_step = float(settings.get("timeIntegration.minimumStepSize"))
    else:
        min_step = None  # floatframe's default, h / 2^10 (Exudyn's 1e-8 s is only reached on failure)
    common = dict(modified_newton=bool(settings.get(newton + "useModifiedNewton")),
                  relative_tolerance=min(float(settings.get(newton + "relativeTolerance")), 1e-10),
                  max_iterations=int(settings.get(newton + "maxIterations")), index=index, min_step=min_step,
                  newton_control=newton_control(settings) if (EXUDYN_NEWTON if exudyn_newton is None
                                                              else exudyn_newton) else None)
    if trapezoidal or settings.get(alpha + "useNewmark"):
        return Newmark(gamma=float(settings.get(alpha + "newmarkGamma")), beta=float(settings.get(alpha + "newmarkBeta")),
                       **common)
    return GeneralizedAlpha(spectral_radius=float(settings.get(alpha + "spectralRadius")), **common)


def step_control(settings) -> StepControl:
    """Exudyn's discontinuous-iteration and adaptive-step settings for the step loop of models with post-Newton
    switching (``floatframe.solvers.switching``)."""
    get = settings.get
    branch = "timeIntegration."
    try:
        return StepControl(tolerance=float(get(branch + "discontinuous.iterationTolerance")),
                           max_iterations=int(get(branch + "discontinuous.maxIterations")),
                           ignore_max_iterations=bool(get(branch + "discontinuous.ignoreMaxIterations")),
                           use_recommended_step=bool(get(branch + "discontinuous.useRecommendedStepSize")),
                           adaptive=bool(get(branch + "adaptiveStep")), min_step=float(get(branch + "minimumStepSize")),
                           decrease=float(get(branch + "adaptiveStepDecrease")),
                           increase=float(get(branch + "adaptiveStepIncrease")),
                           recovery_steps=int(get(branch + "adaptiveStepRecoverySteps")),
                           recovery_iterations=int(get(branch + "adaptiveStepRecoveryIterations")))
    except ValueError as exc:
        raise ExudynLayerError(f"SolveDynamic: timeIntegration.discontinuous.maxIterations: {exc}") from None


def _steps(options) -> int:
    steps = options["steps"]
    if abs(steps - round(steps)) > 100 * sys.float_info.epsilon * max(abs(steps), 1.0):
        raise ExudynLayerError(f"SolveDynamic: timeIntegration.numberOfSteps must be an integer, got {steps}")
    steps = int(round(steps))
    if steps < 1 or not options["end_time"] > options["start_time"]:
        raise ExudynLayerError(f"SolveDynamic: need numberOfSteps >= 1 and endTime > startTime, got "
                               f"{steps}, {options['end_time']}, {options['start_time']}")
    return steps


def assemble_if_needed(mbs, autoAssemble: bool, caller: str = "SolveDynamic"):
    """The assembled system; assembles first if items were added or changed, keeping the initial state
    of updateInitialValues when only parameters changed (Exudyn does not re-assemble for SetParameter
    calls)."""
    if not (mbs._dirty or mbs._assembled is None):
        return refuse_ode1_outside_dynamics(mbs, caller)
    if not autoAssemble:
        raise ExudynLayerError(f"{caller}: the system is not assembled (autoAssemble=False)")
    kept = mbs._initial_state
    same_items = mbs._core is not None and all(len(mbs._core.items(family)) == len(mbs.items(family))
                                               for family in ("node", "object", "marker", "load", "sensor"))
    mbs.Assemble()
    if kept is not None and same_items and kept[1].size == mbs._assembled.n_coordinates \
            and kept[4].size == mbs._assembled.n_multipliers:
        mbs._initial_state = kept
    return refuse_ode1_outside_dynamics(mbs, caller)


SCHEME_FIELDS = ("timeIntegration.generalizedAlpha", "timeIntegration.newton", "timeIntegration.adaptiveStep",
                 "timeIntegration.minimumStepSize", "timeIntegration.solverType")


def _check_no_scheme_settings(settings, solver_type):
    """With solver=..., settings that choose the scheme would be ignored: refuse them."""
    chosen = {path: value for prefix in SCHEME_FIELDS for path, value in changed_fields(settings, prefix).items()
              if classify(path)[0] == HONOURED and not path.endswith(("computeInitialAccelerations",
                                                                      "resetAccelerations"))}
    if solver_type is not None and member_name(solver_type, DynamicSolverType, "SolveDynamic",
                                               "solverType") != "GeneralizedAlpha":
        chosen["solverType"] = solver_type
    if chosen:
        raise ExudynLayerError(f"SolveDynamic: with solver=... the scheme is that solver's; the settings "
                               f"{', '.join(f'{k} = {v!r}' for k, v in chosen.items())} would not be used: set "
                               f"them back to Exudyn's default or leave solver out")


def step_functions(mbs, solver, options, settings, exudyn_scheme: bool):
    """The hooks of the step user functions for this solve (``_step_functions.StepFunctions``), or None without
    any: Exudyn's clock where the scheme takes fixed steps; StartOfStep recorded for the layer's own schemes. A
    floatframe solver of one's own (``solver=...``) gets the pre-step function only (refused: the others)."""
    names = set_functions(mbs)
    if not names:
        return None
    others = [STEP_FUNCTIONS[name][0] for name in names if name != "_pre_step_function"]
    if not exudyn_scheme and others:
        raise ExudynLayerError(f"SolveDynamic: with solver=... floatframe calls only the pre-step function; "
                               f"{', '.join(others)} need the layer's own scheme (leave solver out)")
    adaptive = bool(getattr(solver, "adaptive", False))
    if adaptive and mbs._post_step_function is not None:
        raise ExudynLayerError("SolveDynamic: a post-step function needs fixed steps; the explicit scheme's "
                               "automaticStepSize chooses its own steps (set timeIntegration.automaticStepSize = "
                               "False)")
    clock = None if adaptive else ExudynClock(options["start_time"], options["end_time"], _steps(options),
                                              bool(settings.get("timeIntegration.adaptiveStep")))
    return StepFunctions(mbs, solver, clock, record_start=exudyn_scheme)


def SolveDynamic(mbs, simulationSettings=None, solverType=None, updateInitialValues=False, storeSolver=True,
                 showHints=False, showCausingItems=True, autoAssemble=True, solver=None) -> bool:
    """Integrate with the scheme the settings describe (or the given floatframe ``solver``); returns True.

    ``solverType`` takes the place of timeIntegration.solverType for this run (GeneralizedAlpha or
    TrapezoidalIndex2). With ``updateInitialValues`` the end state (coordinates, velocities,
    accelerations, multipliers) becomes the initial state of the next solve, as in Exudyn; an explicit
    ``mbs.Assemble()`` resets it. ``solver`` may be any floatframe solver (GeneralizedAlpha, Newmark,
    Trapezoidal, IDAS): the settings then give only the time grid and the output.
    Unsupported settings raise ExudynLayerError naming the field before anything is solved.
    """
    settings = simulationSettings if simulationSettings is not None else SimulationSettings()
    check_dynamic(settings, exudyn_steps=True)
    kind = member_name(solverType if solverType is not None else settings.get("timeIntegration.solverType"),
                       DynamicSolverType, "SolveDynamic", "solverType")
    if kind not in IMPLICIT + EXPLICIT:
        raise ExudynLayerError(f"SolveDynamic: solverType {kind} is not supported (supported: "
                               f"{', '.join(IMPLICIT + EXPLICIT)}, or pass a floatframe solver as solver=...)")
    assemble_if_needed(mbs, autoAssemble)
    if mbs._data.nodes:   # data coordinates start from their initial values
        mbs._data.copy("Initial", "Current")
        mbs._data.publish()
    # models whose data switch after Newton solves take Exudyn's step loop (floatframe.solvers.switching)
    switching = solver is None and PostNewtonSwitching.wanted(mbs)
    if switching and kind not in IMPLICIT:
        raise ExudynLayerError(f"SolveDynamic: solverType {kind} with post-Newton switching (a post-Newton user "
                               f"function, or CoordinateSpringDamperExt data nodes): only the implicit solvers "
                               f"({', '.join(IMPLICIT)}) iterate it")
    if switching and set_functions(mbs):
        raise ExudynLayerError(f"SolveDynamic: post-Newton switching (a post-Newton user function, or "
                               f"CoordinateSpringDamperExt data nodes) together with "
                               f"{', '.join(STEP_FUNCTIONS[name][0] for name in set_functions(mbs))} is not supported "
                               f"yet: Exudyn's step loop of switching models has no step user functions in floatframe")
    if not switching and any(path in SWITCHING_STEP_FIELDS for path in settings.items()):
        check_dynamic(settings)   # the adaptive-step fields that only the switching step loop honours
    options = solver_options(settings)
    steps = _steps(options)
    initial = "accept"   # Exudyn's schemes start from the state as given; the first step meets the constraints
    # the start of each step is recorded (StartOfStep) where a step user function runs anyway; without one the step
    # loop runs without Python callbacks (in C where it can, floatframe.solvers.native), and StartOfStep is the
    # stored state before the last one; a solver of one's own may also refuse the hook (IDAS without projection)
    record_start = solver is None and bool(set_functions(mbs))
    exudyn_scheme = solver is None
    if solver is None:
        solver = explicit_solver(settings, kind, mbs) if kind in EXPLICIT else dynamic_solver(settings, kind)
    else:
        _check_no_scheme_settings(settings, solverType)
        initial = "check"   # a floatframe solver keeps its own check of the initial state
    h = (options["end_time"] - options["start_time"]) / steps
    start = dict(q0=None, v0=None)
    if mbs._initial_state is not None:
        start.update(q0=mbs._initial_state[1], v0=mbs._initial_state[2])
    if not options["compute_initial_accelerations"] and kind not in EXPLICIT:   # explicit: a from the state
        n, m = mbs._assembled.n_coordinates, mbs._assembled.n_multipliers
        keep = mbs._initial_state is not None and not options["reset_accelerations"]
        start.update(a0=mbs._initial_state[3] if keep else np.zeros(n),
                     lam0=mbs._initial_state[4] if keep else np.zeros(m))
    control = getattr(solver, "newton_control", None) if exudyn_scheme else None
    if control is not None and settings.get("timeIntegration.newton.weightTolerancePerCoordinate"):
        equations = mbs._assembled.n_coordinates + mbs._assembled.n_multipliers
        solver.newton_control = replace(control, coordinate_factor=float(np.sqrt(max(equations, 1))))
    if exudyn_scheme:   # ODE1 coordinates: the schemes that treat them as Exudyn's, starting from x' = 0
        solver, start = first_order_start(mbs, solver, kind, start, options["start_time"])
    functions = step_functions(mbs, solver, options, settings, exudyn_scheme)
    hooks = functions.newton_hooks() if functions is not None and kind not in EXPLICIT else None
    if hooks is not None:   # (explicit schemes have no Newton iteration: Exudyn calls neither function there)
        solver.newton_hooks = hooks
    sensor_steps = written_steps(steps, h, options["sensor_period"], options["write_initial_values"])
    solution_file = SolutionFile.of(settings, solver_name(kind), steps)   # opened: the last check before the solve
    file_steps = solution_file.row_steps(steps, h) if solution_file is not None else sensor_steps
    store_every = storage_period(steps, sensor_steps, file_steps)   # the states both the sensors and the file need
    started = time.perf_counter()
    mbs._solving = True
    check_sensor_files(mbs, options)
    result = None
    try:
        if switching:
            result = _solve_switching(mbs, solver, settings, options, steps, start)
        else:
            result = solver.solve(mbs._assembled, options["end_time"], steps, t0=options["start_time"],
                                  progress=options["verbose"] >= 2, store_every=store_every,
                                  pre_step=functions.pre_step if functions is not None else None,
                                  post_step=functions.post_step if functions is not None else None,
                                  initial=initial, **start)
    except SolverError as failure:   # the sensors and the file hold the run up to the failure, never an earlier run's
        if failure.result is not None and switching:
            store_every, (sensor_steps, file_steps) = 1, _written_rows(failure.result, options, solution_file)
        if failure.result is not None:
            store_result(mbs, failure.result, options, store_every, sensor_steps)
            write_solution_file(mbs, solution_file, failure.result, store_every, file_steps, started, failed=True)
        else:
            mbs._sensor_data = {}
        raise
    finally:
        mbs._solving = False
        if solution_file is not None and result is None:   # a failure before any state: the file stays empty
            solution_file.close()
    if switching:   # steps of any sizes, each stored
        store_every, (sensor_steps, file_steps) = 1, _written_rows(result, options, solution_file)
    store_result(mbs, result, options, store_every, sensor_steps)
    write_solution_file(mbs, solution_file, result, store_every, file_steps, started)
    if not record_start and not switching:   # the start of the last step, where it was stored
        mbs._configurations["StartOfStep"] = (float(result.t[-2]), result.q[-2].copy(), result.v[-2].copy(),
                                              result.a[-2].copy(), result.lam[-2].copy()) \
            if store_every == 1 and result.t.size >= 2 else None
    if updateInitialValues:
        mbs._initial_state = (options["start_time"], *(np.copy(x) for x in mbs._state[1:]))
        mbs._data.copy("Current", "Initial")
    if storeSolver:
        mbs.sys["dynamicSolver"] = solver
        solver.it = iteration_data(result, options, bool(getattr(solver, "adaptive", False)))   # Exudyn's solver.it
        if switching:
            solver.it.currentStepSize = result.info["last_step"]
        mbs.sys["simulationSettings"] = settings
    if options["verbose"] >= 1:
        stats = result.statistics
        print(f"floatframe: {stats.steps} steps to t = {result.t[-1]:.6g} s in {time.perf_counter() - started:.3f} s "
              f"({stats.newton_iterations} Newton iterations, {stats.jacobian_evaluations} Jacobians)")
    return True


def _solve_switching(mbs, solver, settings, options, steps, start):
    """The solve of a model with post-Newton switching (``PostNewtonSwitching``) on Exudyn's step loop; the solver
    is in mbs.sys['dynamicSolver'] during the solve, with ``it.currentStepSize`` and ``it.currentTime``."""
    solver.native = False   # the C step loop has no post-Newton hook
    solver.velocity_rows = velocity_level_rows(mbs)   # Exudyn's velocity-level constraints: velocity rows
    if solver.newton_control is not None:   # Exudyn's adaptive steps keep modified Newton's matrix
        solver.newton_control = replace(solver.newton_control, renew_on_new_step_size=False)
    solver.it = SolverIterationData(currentStepSize=(options["end_time"] - options["start_time"]) / steps,
                                    currentTime=options["start_time"], startTime=options["start_time"],
                                    endTime=options["end_time"], numberOfSteps=steps)
    mbs.sys["dynamicSolver"] = solver
    return integrate_switching(solver, mbs._assembled, options["start_time"], options["end_time"], steps,
                               PostNewtonSwitching(mbs, solver), step_control(settings), **start)


def _written_rows(result, options, solution_file) -> tuple:
    """(sensor rows, solution-file rows) of a result that stored every step, of any sizes (``written_rows``)."""
    sensor_rows = written_rows(result.t, options["sensor_period"], options["write_initial_values"])
    file_rows = written_rows(result.t, solution_file.period, solution_file.initial) \
        if solution_file is not None else sensor_rows
    return sensor_rows, file_rows


def solver_name(kind: str) -> str:
    """The scheme as Exudyn's file headers name it."""
    return "implicit second order time integration" if kind in IMPLICIT else f"explicit time integration ({kind})"


def store_result(mbs, result, options, stored_every: int = 1, sensor_steps=None):
    """Keep the final state and the sensor data on mbs; write the sensor files that were asked for.

    The result stores every ``stored_every``-th step (and the last); the sensors keep the ``sensor_steps`` among
    them (None: all)."""
    mbs._result = result
    mbs._state = (float(result.t[-1]), result.q[-1].copy(), result.v[-1].copy(), result.a[-1].copy(),
                  result.lam[-1].copy())
    rows = None if sensor_steps is None else stored_rows(sensor_steps, result.t.size, stored_every)
    rows = None if rows is not None and rows.size == result.t.size else rows
    mbs._sensor_data = {i: result.sensor(i, with_time=True) if rows is None else result.sensor(i, with_time=True)[rows]
                        for i in range(len(result.sensors))}
    user_function_sensors(mbs, result, rows)
    if not options["sensors_active"]:
        return
    for number, item in enumerate(mbs.items("sensor")):
        if item.writeToFile and item.fileName:
            write_sensor_file(item, number, mbs._sensor_data[number], options)


def user_function_sensors(mbs, result, rows=None):
    """The values of the SensorUserFunction sensors at every stored step (the result's ``rows``, None: all): their
    functions are called with the state of that step as the current one, and GetSensorValues of the other sensors
    gives their values recorded there."""
    users = [(number, item) for number, item in enumerate(mbs.items("sensor")) if item.type_string == "UserFunction"]
    if not users:
        return
    rows = np.arange(result.t.size) if rows is None else rows
    saved = mbs._state
    try:
        for k, row in enumerate(rows):
            t = result.t[row]
            mbs._state = (float(t), result.q[row], result.v[row], result.a[row], result.lam[row])
            mbs._recorded_sensors = {number: data[min(k, len(data) - 1), 1:] for number, data in mbs._sensor_data.items()}
            for number, item in users:
                values = np.asarray(item.sensorUserFunction(mbs, float(t), list(item.sensorNumbers),
                                                            list(item.factors), ConfigurationType.Current),
                                    dtype=float).reshape(-1)
                mbs._recorded_sensors[number] = values
                data = mbs._sensor_data.get(number)
                if data is None or data.shape[1] != values.size + 1:
                    data = np.zeros((rows.size, values.size + 1))
                    data[:, 0] = result.t[rows]
                data[k, 1:] = values
                mbs._sensor_data[number] = data
    finally:
        mbs._state = saved
        mbs._recorded_sensors = None


def solution_columns(mbs, result, rows) -> dict:
    """The result's ``rows`` as Exudyn's coordinate groups: ODE2 coordinates, velocities and accelerations (Lie-group
    nodes' as Exudyn gives them), ODE1 coordinates and velocities, algebraic and data coordinates; (k, n) arrays."""
    ode2, ode1, data = ode2_rows(mbs), ode1_rows(mbs), data_rows(mbs)
    q, v, a, lam = result.q[rows], result.v[rows], result.a[rows], result.lam[rows]
    velocities, accelerations = v[:, ode2], a[:, ode2]
    if lie_group_nodes(mbs._core)[0].size:
        for k in range(len(rows)):
            state = (result.t[rows[k]], q[k], v[k], a[k], lam[k])
            velocities[k] = exudyn_velocities(mbs, "GetODE2Coordinates_t", state, v[k])[ode2]
            accelerations[k] = exudyn_velocities(mbs, "GetODE2Coordinates_tt", state, a[k])[ode2]
    # an ODE1 coordinate x is the velocity of a DAE coordinate (its integral), its rate x' that one's acceleration
    # a data coordinate (a turn counter's continuous angle) is written as a value, not as a change from a reference
    return {"ODE2": q[:, ode2], "ODE2_t": velocities, "ODE2_tt": accelerations, "ODE1": v[:, ode1],
            "ODE1_t": a[:, ode1], "AE": lam[:, ae_rows(mbs, lam.shape[1])],
            "Data": q[:, data] + mbs._assembled.q_reference[data]}


def write_solution_file(mbs, solution_file, result, stored_every: int, file_steps, started: float,
                        failed: bool = False):
    """Write the solve's coordinates solution file (None: none asked for) from its stored states (every
    ``stored_every``-th step and the last): the rows of the ``file_steps`` (None: all)."""
    if solution_file is None:
        return
    rows = np.arange(result.t.size) if file_steps is None else stored_rows(file_steps, result.t.size, stored_every)
    solution_file.write(result.t[rows], solution_columns(mbs, result, rows), result.statistics,
                        time.perf_counter() - started, failed)


def check_sensor_files(mbs, options):
    """Before the solve: every sensor file that will be written can be (``writable``, else its folder made and the
    file opened for appending); raises ExudynLayerError naming the sensor and the file otherwise."""
    if not options["sensors_active"]:
        return
    for number, item in enumerate(mbs.items("sensor")):
        if item.writeToFile and item.fileName:
            if writable(item.fileName):
                continue
            path = Path(item.fileName)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                existed = path.exists()
                with path.open("a"):
                    pass
                if not existed:
                    path.unlink()
            except OSError as exc:
                raise ExudynLayerError(f"sensor {number} ({type(item).__name__}): its fileName '{item.fileName}' "
                                       f"cannot be written: {exc.strerror or exc}") from None


def writable(name: str) -> bool:
    """Whether ``os.access`` lets a file be written: the file, or where there is none, its folder (creating and
    removing a file to find out, with making its folder, took 0.1 ms a file of a tiny model's solve)."""
    if os.path.exists(name):
        return os.path.isfile(name) and os.access(name, os.W_OK)
    folder = os.path.dirname(name) or "."
    return os.path.isdir(folder) and os.access(folder, os.W_OK | os.X_OK)


def write_sensor_file(item, number, data, options):
    """Sensor file as Exudyn writes it: '#' header lines, then 'time,value,...' rows."""
    path = Path(item.fileName)
    precision = options["precision"]
    variable = (member_name(item.outputVariableType, OutputVariableType, item.name, "outputVariableType")
                if "outputVariableType" in item.parameters else "_None")   # SensorLoad: as Exudyn's header
    header = (f"#floatframe.exudyn sensor output file\n#sensor {number} ({type(item).__name__})\n"
              f"#OutputVariableType = {variable}\n#columns contain: time, comma separated sensor values\n"
              f"#number of sensor values = {data.shape[1] - 1}\n#\n") if options["write_header"] else ""
    text = (header + format_rows(data, precision)).encode(locale.getpreferredencoding(False))   # as open(path, "w")
    file = RewrittenFile.making_folder(path)   # (an existing file written over in place: see there)
    try:
        file.write(text)
    finally:
        file.close()
