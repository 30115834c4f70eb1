"""``SolveStatic``, ``ComputeODE2Eigenvalues``, ``ComputeLinearizedSystem`` and ``ComputeSystemDegreeOfFreedom``:
Exudyn's static and linear-analysis calls on floatframe.

All take Exudyn 1.13.6's arguments and return what it returns; they are also methods of
:class:`MainSystem` (``mbs.SolveStatic(...)``). The work is done by the core's
:class:`floatframe.solvers.static.StaticSolver` and :func:`floatframe.solvers.modal.eigenmodes`.
"""
from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp

from floatframe.exudyn._names import ConfigurationType, ExudynLayerError
from floatframe.exudyn._settings import SimulationSettings, changed_fields
from floatframe.exudyn._solution_file import SolutionFile
from floatframe.exudyn._post_newton import refuse_switching
from floatframe.exudyn._solve import assemble_if_needed, solver_options, store_result, write_solution_file
from floatframe.exudyn._step_functions import refuse_in_static_solve
from floatframe.exudyn._system import MainSystem
from floatframe.solvers import SolverError, modal
from floatframe.solvers.static import StaticSolver

# fields below "staticSolver." that SolveStatic maps onto the core's StaticSolver
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
WITHOUT_EFFECT_BRANCHES = ("discontinuous.", "newton.numericalDifferentiation.")


def static_setting(settings, field: str):
    """``staticSolver.<field>``: the value set by the user, else Exudyn's default."""
    return settings.get(f"staticSolver.{field}")


def check_static_settings(settings) -> None:
    """Raise ExudynLayerError for the staticSolver fields set to a value other than Exudyn's default that
    SolveStatic does not honour (misspelt fields are refused by the settings tree itself)."""
    refused = []
    for path, value in changed_fields(settings, "staticSolver").items():
        field = path[len("staticSolver."):]
        if field in HONOURED or field in WITHOUT_EFFECT or field.startswith(WITHOUT_EFFECT_BRANCHES):
            continue
        refused.append(f"{path} = {value!r}")
    if refused:
        raise ExudynLayerError("SolveStatic: unsupported simulation settings: " + "; ".join(refused)
                               + "; set them back to Exudyn's default")


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
    refuse_in_static_solve(mbs)
    solver = static_solver(settings)
    assembled = assemble_if_needed(mbs, autoAssemble, "SolveStatic")
    refuse_switching(mbs, "SolveStatic")
    start = mbs.state(ConfigurationType.Initial)
    solution_file = SolutionFile.of(settings, "nonlinear static solver", solver.number_of_load_steps, static=True)
    started = time.perf_counter()
    mbs._solving = True
    result = None
    try:
        result = solver.solve(assembled, q0=start[1], v=start[2])
    except SolverError as failure:   # the sensors and the file hold the load steps up to the failure
        if failure.result is not None:
            store_result(mbs, failure.result, solver_options(settings))
            write_solution_file(mbs, solution_file, failure.result, 1, None, started, failed=True)
        raise
    finally:
        mbs._solving = False
        if solution_file is not None and result is None:   # a failure before any load step: the file stays empty
            solution_file.close()
    store_result(mbs, result, solver_options(settings))
    write_solution_file(mbs, solution_file, result, 1, None, started)
    if storeSolver:
        mbs.sys["staticSolver"] = solver
        mbs.sys["simulationSettings"] = settings
    if updateInitialValues:
        t0, _, v0, a0, lam0 = start  # as in Exudyn, only the initial coordinates change
        mbs._initial_state = (t0, result.q[-1].copy(), v0.copy(), a0.copy(), lam0.copy())
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
    assembled = assemble_if_needed(mbs, autoAssemble, "ComputeODE2Eigenvalues")
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


def ComputeLinearizedSystem(mbs: MainSystem, simulationSettings=None, projectIntoConstraintNullspace=False,
                            singularValuesTolerance=1e-12, returnConstraintJacobian=False,
                            returnConstraintNullspace=False, autoAssemble=True) -> list:
    """[M, K, D] of the ODE2 equations linearized about the initial state, as Exudyn (dense arrays).

    K = dR/dq and D = dR/dv of the residual R = M a - f, without the loads' Jacobian (as Exudyn's static
    Jacobian). With returnConstraintJacobian or returnConstraintNullspace the list is [M, K, D, C, N]
    (an entry not asked for is []), C = C_q^T (n x m) and N (rows) an orthonormal basis of C_q's null
    space from the SVD of C; projectIntoConstraintNullspace returns N M N^T, N K N^T, N D N^T instead.
    Without constraints the list is [M, K, D] whatever the flags. ``simulationSettings`` changes nothing
    here (the matrices are exact). Unlike Exudyn, C has floatframe's multipliers as columns: Exudyn's
    equations lambda = 0 (free axes, inactive connectors) and the rows removed as redundant at assembly
    are not in it (N and the projected matrices are the same).
    """
    assembled = assemble_if_needed(mbs, autoAssemble, "ComputeLinearizedSystem")
    t, q, v, _, lam = mbs.state(ConfigurationType.Initial)
    linear = modal.linearize(assembled, t, q, v, lam, load_stiffness=False)
    mass, stiffness, damping = (linear.mass.toarray(), linear.stiffness.toarray(), linear.damping.toarray())
    wants_constraints = projectIntoConstraintNullspace or returnConstraintJacobian or returnConstraintNullspace
    if assembled.n_multipliers == 0 or not wants_constraints:
        return [mass, stiffness, damping]
    from scipy.linalg import svd
    jacobian_transposed = linear.constraint_jacobian.toarray().T
    extra = [jacobian_transposed if returnConstraintJacobian else []]
    null_rows = None
    if projectIntoConstraintNullspace or returnConstraintNullspace:
        left, singular_values, _ = svd(jacobian_transposed)
        rank = int((np.abs(singular_values) > singularValuesTolerance).sum())
        null_rows = left[:, rank:].T
        extra.append(null_rows if returnConstraintNullspace else [])
    if projectIntoConstraintNullspace:
        return [null_rows @ mass @ null_rows.T, null_rows @ stiffness @ null_rows.T,
                null_rows @ damping @ null_rows.T] + extra
    return [mass, stiffness, damping] + extra


# algebraic equations per constraint object in Exudyn 1.13.6 (all kept, lambda = 0 where inactive or free)
EXUDYN_ALGEBRAIC_EQUATIONS = {"ObjectJointGeneric": 6, "ObjectJointRevoluteZ": 5, "ObjectJointPrismaticX": 5,
                              "ObjectJointSpherical": 3, "ObjectConnectorCoordinate": 1, "ObjectConnectorDistance": 1}


def pure_algebraic_equations(mbs: MainSystem) -> int:
    """The number of Exudyn's equations lambda = 0 (a joint's free axes, inactive constraints), which
    floatframe's constraints leave out."""
    count = 0
    for number, item in enumerate(mbs.items("object")):
        kind = type(item).__name__
        active = bool(getattr(item, "activeConnector", True))
        if kind in EXUDYN_ALGEBRAIC_EQUATIONS:
            if not active:
                count += EXUDYN_ALGEBRAIC_EQUATIONS[kind]
            elif hasattr(item, "constrainedAxes"):
                axes = np.asarray(item.constrainedAxes).reshape(-1)
                count += int(axes.size - axes.sum())
        elif not active and kind.startswith(("ObjectJoint", "ObjectConnectorCoordinate")):
            raise ExudynLayerError(f"ComputeSystemDegreeOfFreedom: object {number} ({kind}) is inactive and the "
                                   "number of Exudyn's equations lambda = 0 for it is not known to floatframe.exudyn")
    return count


def ComputeSystemDegreeOfFreedom(mbs: MainSystem, simulationSettings=None, threshold=1e-12, verbose=False,
                                 useSVD=False, autoAssemble=True) -> dict:
    """Degrees of freedom of the system at its initial state, as Exudyn: a dict with 'degreeOfFreedom',
    'redundantConstraints', 'nODE2', 'nODE1', 'nAE' and 'nPureAE'.

    dof = nODE2 - (nAE - nPureAE) + redundant, with redundant = nAE - rank(C_q^T) (numpy's rank, or the
    singular values at most ``threshold`` with useSVD). floatframe's constraints all act on ODE2
    coordinates: the equations lambda = 0 that Exudyn keeps for a joint's free axes and for inactive
    connectors are counted in nAE and nPureAE from the items, and the equations the assembly removed as
    redundant are counted in nAE and redundantConstraints, so the counts are Exudyn's.
    """
    assembled = assemble_if_needed(mbs, autoAssemble, "ComputeSystemDegreeOfFreedom")
    t, q, _, _, _ = mbs.state(ConfigurationType.Initial)
    jacobian = assembled.constraint_jacobian(t, q).toarray()
    n_ode2, n_kept = assembled.n_coordinates, assembled.n_multipliers
    # rows that floatframe's assembly removed as redundant at the initial state (RedundantConstraintsWarning)
    removed = sum(len(getattr(item, "removed_constraint_rows", ())) for item in mbs._core.items("object"))
    n_coupled = n_kept + removed
    if n_kept == 0:
        redundant = removed
    elif useSVD:
        from scipy.linalg import svdvals
        singular_values = svdvals(jacobian.T)
        if verbose:
            print("singular values ODE2+AE=" + str(singular_values))
        redundant = removed + int(n_kept - (np.abs(singular_values) > threshold).sum())
    else:
        redundant = removed + int(n_kept - np.linalg.matrix_rank(jacobian.T))
    pure = pure_algebraic_equations(mbs)
    n_ae = n_coupled + pure
    dof = n_ode2 - n_coupled + redundant
    if verbose:
        print(f"ODE2 coordinates          = {n_ode2}\ntotal constraints         = {n_ae}\n"
              f"redundant constraints     = {redundant}\npure algebraic constraints= {pure}\n"
              f"degree of freedom         = {dof}")
    return {"degreeOfFreedom": dof, "redundantConstraints": redundant, "nODE2": n_ode2, "nODE1": 0,
            "nAE": n_ae, "nPureAE": pure}


MainSystem.SolveStatic = SolveStatic
MainSystem.ComputeODE2Eigenvalues = ComputeODE2Eigenvalues
MainSystem.ComputeLinearizedSystem = ComputeLinearizedSystem
MainSystem.ComputeSystemDegreeOfFreedom = ComputeSystemDegreeOfFreedom
