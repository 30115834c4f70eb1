"""``SolveStatic`` and ``ComputeODE2Eigenvalues``: Exudyn's static and eigenvalue calls on floatframe.

Both take Exudyn 1.13.6's arguments and return what it returns; they are also methods of
:class:`MainSystem` (``mbs.SolveStatic(...)``). The work is done by the core's
:class:`floatframe.solvers.static.StaticSolver` and :func:`floatframe.solvers.modal.eigenmodes`.
"""
from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp

from floatframe.exudyn._names import ConfigurationType, ExudynLayerError, closest
from floatframe.exudyn._settings import SimulationSettings, solver_options
from floatframe.exudyn._system import MainSystem
from floatframe.solvers import modal
from floatframe.solvers.static import StaticSolver

# Exudyn 1.13.6's defaults of simulationSettings.staticSolver, by field below "staticSolver."
STATIC_DEFAULTS = {
    "adaptiveStep": True, "adaptiveStepDecrease": 0.25, "adaptiveStepIncrease": 2.0,
    "adaptiveStepRecoveryIterations": 7, "adaptiveStepRecoverySteps": 4, "computeLoadsJacobian": True,
    "constrainODE1Coordinates": True, "loadStepDuration": 1.0, "loadStepGeometric": False,
    "loadStepGeometricRange": 1000.0, "loadStepStart": 0.0, "minimumStepSize": 1e-8, "numberOfLoadSteps": 1,
    "stabilizerODE2term": 0.0, "stepInformation": 67, "useLoadFactor": True, "verboseMode": 1,
    "verboseModeFile": 0,
    "discontinuous.ignoreMaxIterations": True, "discontinuous.iterationTolerance": 1.0,
    "discontinuous.maxIterations": 5, "discontinuous.useRecommendedStepSize": True,
    "newton.absoluteTolerance": 1e-10, "newton.active": True, "newton.adaptInitialResidual": True,
    "newton.maximumSolutionNorm": 1e38, "newton.maxIterations": 25, "newton.maxModifiedNewtonIterations": 8,
    "newton.maxModifiedNewtonRestartIterations": 7, "newton.modifiedNewtonContractivity": 0.5,
    "newton.modifiedNewtonJacUpdatePerStep": False, "newton.relativeTolerance": 1e-8, "newton.residualMode": 0,
    "newton.useModifiedNewton": False, "newton.weightTolerancePerCoordinate": False,
    "newton.numericalDifferentiation.addReferenceCoordinatesToEpsilon": False,
    "newton.numericalDifferentiation.doSystemWideDifferentiation": False,
    "newton.numericalDifferentiation.forAE": False, "newton.numericalDifferentiation.forODE2": False,
    "newton.numericalDifferentiation.forODE2Connectors": False,
    "newton.numericalDifferentiation.jacobianConnectorDerivative": True,
    "newton.numericalDifferentiation.minimumCoordinateSize": 0.01,
    "newton.numericalDifferentiation.relativeEpsilon": 1e-7,
}

HONOURED = {"adaptiveStep", "adaptiveStepDecrease", "adaptiveStepIncrease", "loadStepDuration", "loadStepGeometric",
            "loadStepGeometricRange", "loadStepStart", "minimumStepSize", "numberOfLoadSteps", "stabilizerODE2term",
            "useLoadFactor", "verboseMode", "newton.absoluteTolerance", "newton.maxIterations",
            "newton.relativeTolerance", "newton.useModifiedNewton"}

# fields that change only the way to the solution (or output), never the solution: the Jacobian is
# exact, there are no ODE1 coordinates and no discontinuous items, Newton converges tighter anyway
WITHOUT_EFFECT = {"adaptiveStepRecoveryIterations", "adaptiveStepRecoverySteps", "computeLoadsJacobian",
                  "constrainODE1Coordinates", "stepInformation", "verboseModeFile", "newton.adaptInitialResidual",
                  "newton.maximumSolutionNorm", "newton.maxModifiedNewtonIterations",
                  "newton.maxModifiedNewtonRestartIterations", "newton.modifiedNewtonContractivity",
                  "newton.modifiedNewtonJacUpdatePerStep", "newton.residualMode",
                  "newton.weightTolerancePerCoordinate"}
WITHOUT_EFFECT |= {f for f in STATIC_DEFAULTS if f.startswith(("discontinuous.", "newton.numericalDifferentiation."))}


def static_setting(settings, field: str):
    """``staticSolver.<field>``: the value set by the user, else Exudyn's default."""
    value = settings.get(f"staticSolver.{field}")
    return STATIC_DEFAULTS[field] if value is None else value


def check_static_settings(settings) -> None:
    """Raise ExudynLayerError for a staticSolver field that does not exist or that is set to a value
    other than Exudyn's default but is not honoured."""
    for path, value in settings.items().items():
        if not path.startswith("staticSolver."):
            continue
        field = path[len("staticSolver."):]
        if field not in STATIC_DEFAULTS:
            raise ExudynLayerError(f"SolveStatic: '{path}' is not an Exudyn settings field"
                                   f"{closest(field, STATIC_DEFAULTS)}")
        if field in HONOURED or field in WITHOUT_EFFECT or value == STATIC_DEFAULTS[field]:
            continue
        raise ExudynLayerError(f"SolveStatic: simulationSettings.{path} = {value!r} is not supported by floatframe "
                               f"(only Exudyn's default {STATIC_DEFAULTS[field]!r})")


def static_solver(settings) -> StaticSolver:
    """The core static solver configured from ``simulationSettings.staticSolver``."""
    check_static_settings(settings)
    get = lambda field: static_setting(settings, field)  # noqa: E731
    return StaticSolver(
        number_of_load_steps=int(get("numberOfLoadSteps")), load_step_start=float(get("loadStepStart")),
        load_step_duration=float(get("loadStepDuration")),
        geometric_range=float(get("loadStepGeometricRange")) if get("loadStepGeometric") else None,
        use_load_factor=bool(get("useLoadFactor")),
        relative_tolerance=min(float(get("newton.relativeTolerance")), 1e-10),
        absolute_tolerance=min(float(get("newton.absoluteTolerance")), 1e-12),
        max_iterations=int(get("newton.maxIterations")), modified_newton=bool(get("newton.useModifiedNewton")),
        adaptive_step=bool(get("adaptiveStep")) and not get("loadStepGeometric"),
        step_decrease=float(get("adaptiveStepDecrease")), step_increase=float(get("adaptiveStepIncrease")),
        minimum_step=float(get("minimumStepSize")), stabilizer=float(get("stabilizerODE2term")))


def _assembled(mbs, autoAssemble: bool, caller: str):
    if mbs._dirty or mbs._assembled is None:
        if not autoAssemble:
            raise ExudynLayerError(f"{caller}: the system is not assembled (autoAssemble=False)")
        mbs.Assemble()
    return mbs._assembled


def set_initial_coordinates(mbs, q) -> None:
    """Make q the initial coordinates of the assembled system (velocities kept), until the next Assemble."""
    assembled = mbs._assembled
    assembled.q_initial = np.asarray(q, dtype=float).copy()
    for node in mbs._core.nodes:
        if node.n_coordinates:
            node.initial_coordinates = assembled.q_initial[node.coordinate_indices].copy()


def SolveStatic(mbs: MainSystem, simulationSettings=None, updateInitialValues=False, storeSolver=True,
                showHints=False, showCausingItems=True, autoAssemble=True) -> bool:
    """Static equilibrium of the system from its initial state; returns True (raises SolverError if it fails).

    As in Exudyn the velocities stay at their initial values (velocity-dependent forces such as damping
    enter the equilibrium) and ``updateInitialValues`` changes only the initial coordinates.

    Honoured: staticSolver.numberOfLoadSteps, loadStepStart, loadStepDuration, loadStepGeometric(Range),
    useLoadFactor, stabilizerODE2term, adaptiveStep(Decrease, Increase), minimumStepSize, verboseMode,
    newton.relativeTolerance, absoluteTolerance (both at most 1e-10 and 1e-12), maxIterations and
    useModifiedNewton; fields that cannot change the solution are accepted; any other field set to a
    non-default value raises ExudynLayerError. Afterwards the current state is the static solution and
    GetSensorStoredData gives one row per load step, after the start row at t = loadStepStart.
    """
    settings = simulationSettings if simulationSettings is not None else SimulationSettings()
    solver = static_solver(settings)
    assembled = _assembled(mbs, autoAssemble, "SolveStatic")
    start = mbs.state(ConfigurationType.Initial)
    started = time.perf_counter()
    mbs._solving = True
    try:
        result = solver.solve(assembled, q0=start[1], v=start[2])
    finally:
        mbs._solving = False
    mbs.store_result(result, solver_options(settings))
    if storeSolver:
        mbs.sys["staticSolver"] = solver
        mbs.sys["simulationSettings"] = settings
    if updateInitialValues:
        set_initial_coordinates(mbs, result.q[-1])
    if int(static_setting(settings, "verboseMode")) >= 1:
        stats = result.statistics
        print(f"floatframe: static solution in {stats.steps} load step(s), {stats.newton_iterations} Newton "
              f"iterations, {time.perf_counter() - started:.3f} s")
    return True


def ComputeODE2Eigenvalues(mbs: MainSystem, simulationSettings=None, useSparseSolver=False, numberOfEigenvalues=0,
                           constrainedCoordinates=[], convert2Frequencies=False, useAbsoluteValues=True,
                           computeComplexEigenvalues=False, ignoreAlgebraicEquations=False,
                           singularValuesTolerance=1e-12, autoAssemble=True) -> list:
    """[eigenvalues, eigenvectors] of the system linearized about its initial state, as Exudyn.

    The multipliers are taken as zero (Exudyn uses its initial algebraic coordinates, which differ from
    zero only after ``SolveStatic(updateInitialValues=True)``; they enter K only through nonlinear
    constraints under load).

    Eigenvalues are omega^2 [rad^2/s^2] (Hz with convert2Frequencies), sorted (by magnitude with
    useAbsoluteValues); eigenvectors are columns in the full ODE2 coordinates. Constraints are taken
    into account through the null space of C_q unless ignoreAlgebraicEquations or constrainedCoordinates
    (coordinates held fixed) are given. As in Exudyn, K leaves out the loads' Jacobian. Unlike Exudyn,
    eigenvectors are returned also for constrainedCoordinates with numberOfEigenvalues = 0, and complex
    eigenvectors are [phi; s phi] (2 n rows).
    """
    assembled = _assembled(mbs, autoAssemble, "ComputeODE2Eigenvalues")
    t, q, v, _, lam = mbs.state(ConfigurationType.Initial)
    n = assembled.n_coordinates
    fixed = [int(c) for c in constrainedCoordinates]
    has_constraints = assembled.n_multipliers > 0
    if fixed and has_constraints and not ignoreAlgebraicEquations:
        raise ExudynLayerError("ComputeODE2Eigenvalues: the system has algebraic equations; with "
                               "constrainedCoordinates set ignoreAlgebraicEquations=True")
    project = has_constraints and not ignoreAlgebraicEquations
    if project and useSparseSolver:
        raise ExudynLayerError("ComputeODE2Eigenvalues: with algebraic equations (and ignoreAlgebraicEquations="
                               "False) useSparseSolver must be False")
    count = int(numberOfEigenvalues)
    if computeComplexEigenvalues:
        if convert2Frequencies:
            raise ExudynLayerError("ComputeODE2Eigenvalues: computeComplexEigenvalues=True needs "
                                   "convert2Frequencies=False")
        if useSparseSolver:
            raise ExudynLayerError("ComputeODE2Eigenvalues: computeComplexEigenvalues needs useSparseSolver=False")
        linear = modal.linearize(assembled, t, q, v, lam, load_stiffness=False)
        if project:
            basis = modal.constraint_null_space(linear.constraint_jacobian, singularValuesTolerance)
        elif fixed:
            basis = sp.identity(n, format="csc")[:, np.setdiff1d(np.arange(n), fixed)].toarray()
        else:
            basis = None
        values, vectors = modal.complex_eigenvalues(linear, basis)
    else:
        if useSparseSolver and count == 0:
            raise ExudynLayerError("ComputeODE2Eigenvalues: useSparseSolver=True needs numberOfEigenvalues > 0")
        result = modal.eigenmodes(assembled, t, q, v, lam, n_modes=count if useSparseSolver else 0,
                                  constraints="null_space" if project else "ignore", constrained_coordinates=fixed,
                                  sparse=bool(useSparseSolver), tolerance=singularValuesTolerance,
                                  load_stiffness=False)
        values, vectors = result.eigenvalues, result.eigenvectors
    order = np.argsort(np.abs(values)) if useAbsoluteValues else np.argsort(values)
    values = (np.abs(values) if useAbsoluteValues else values)[order]
    vectors = vectors[:, order]
    if count > 0:
        values, vectors = values[:count], vectors[:, :count]
    if convert2Frequencies:
        return [np.sqrt(values) / (2 * np.pi), vectors]
    return [values, vectors]


MainSystem.SolveStatic = SolveStatic
MainSystem.ComputeODE2Eigenvalues = ComputeODE2Eigenvalues
