"""SimulationSettings and visualizationSettings.

``SimulationSettings()`` is a tree with exactly the fields of Exudyn 1.13.6 (:data:`FIELDS`, walked from
``exudyn.SimulationSettings()``): setting or reading a field that Exudyn does not have raises
:class:`UnknownSettingError` naming the closest field. Exudyn's deprecated names (:data:`DEPRECATED`)
stay accepted, with a DeprecationWarning, and read and write the field under its current name.

Every field is classified in :data:`CLASSIFICATION` as

- ``honoured``: ``SolveDynamic`` maps it onto floatframe's solver or sensor output;
- ``no effect``: it cannot change the numbers of floatframe's solve (display, verbosity, linear solver
  choice, threads, files floatframe does not write, explicit-solver settings, ...), the reason is given;
- ``unsupported``: a value other than Exudyn's default raises :class:`ExudynLayerError` at
  ``SolveDynamic`` (see :func:`check_dynamic`), the reason is given.

The ``staticSolver`` branch is checked by ``SolveStatic`` (use :func:`changed_fields` with the prefix
``"staticSolver"``); ``SolveDynamic`` does not read it.
"""
from __future__ import annotations

import warnings

from floatframe.exudyn._names import ExudynLayerError, NamedValue, closest


class UnknownSettingError(ExudynLayerError, AttributeError):
    """A settings field that Exudyn does not have."""


# --- the fields of exudyn.SimulationSettings() in Exudyn 1.13.6 and their defaults (facts) ---------
# enumeration defaults are given by member name
FIELDS = {
    "cleanUpMemory": False,
    "consolePrecision": 6,
    "linearSolver.ignoreSingularJacobian": False,
    "linearSolver.pivotThreshold": 0.0,
    "linearSolver.reuseAnalyzedPattern": False,
    "linearSolver.showCausingItems": True,
    "linearSolver.solverType": "EXUdense",
    "parallel.multithreadedLowerLimitJacobians": 20,
    "parallel.multithreadedLowerLimitLoads": 20,
    "parallel.multithreadedLowerLimitMassMatrices": 20,
    "parallel.multithreadedLowerLimitResiduals": 20,
    "parallel.numberOfThreads": 1,
    "parallel.taskSplitMinItems": 50,
    "parallel.taskSplitTasksPerThread": 16,
    "parallel.useLoadBalancing": True,
    "pauseAfterEachStep": False,
    "show.computationTime": False,
    "show.globalTimers": True,
    "show.statistics": False,
    "solution.file.append": False,
    "solution.file.binary": False,
    "solution.file.export.ODE1Velocities": True,
    "solution.file.export.accelerations": True,
    "solution.file.export.algebraicCoordinates": True,
    "solution.file.export.dataCoordinates": True,
    "solution.file.export.velocities": True,
    "solution.file.flushAboveCoordinates": 10000,
    "solution.file.information": "",
    "solution.file.name": "solution/coordinatesSolution",
    "solution.file.write": True,
    "solution.file.writeFooter": True,
    "solution.file.writeHeader": True,
    "solution.file.writeInitialValues": True,
    "solution.file.writePeriod": 0.01,
    "solution.flushFilesImmediately": False,
    "solution.precision": 10,
    "solution.recordImagesInterval": -1.0,
    "solution.restart.continueIfAvailable": False,
    "solution.restart.name": "solution/restartFile.txt",
    "solution.restart.write": False,
    "solution.restart.writePeriod": 0.01,
    "solution.sensors.active": True,
    "solution.sensors.append": False,
    "solution.sensors.writeFooter": False,
    "solution.sensors.writeHeader": True,
    "solution.sensors.writePeriod": 0.01,
    "solution.solverInformationFileName": "solution/solverInformation.txt",
    "staticSolver.adaptiveStep": True,
    "staticSolver.adaptiveStepDecrease": 0.25,
    "staticSolver.adaptiveStepIncrease": 2.0,
    "staticSolver.adaptiveStepRecoveryIterations": 7,
    "staticSolver.adaptiveStepRecoverySteps": 4,
    "staticSolver.computeLoadsJacobian": True,
    "staticSolver.constrainODE1Coordinates": True,
    "staticSolver.discontinuous.ignoreMaxIterations": True,
    "staticSolver.discontinuous.iterationTolerance": 1.0,
    "staticSolver.discontinuous.maxIterations": 5,
    "staticSolver.discontinuous.useRecommendedStepSize": True,
    "staticSolver.loadStepDuration": 1.0,
    "staticSolver.loadStepGeometric": False,
    "staticSolver.loadStepGeometricRange": 1000.0,
    "staticSolver.loadStepStart": 0.0,
    "staticSolver.minimumStepSize": 1e-08,
    "staticSolver.numberOfLoadSteps": 1,
    "staticSolver.stabilizerODE2term": 0.0,
    "staticSolver.stepInformation": 67,
    "staticSolver.useLoadFactor": True,
    "staticSolver.verboseMode": 1,
    "staticSolver.verboseModeFile": 0,
    "timeIntegration.absoluteTolerance": 1e-08,
    "timeIntegration.adaptiveStep": True,
    "timeIntegration.adaptiveStepDecrease": 0.5,
    "timeIntegration.adaptiveStepIncrease": 2.0,
    "timeIntegration.adaptiveStepRecoveryIterations": 7,
    "timeIntegration.adaptiveStepRecoverySteps": 10,
    "timeIntegration.automaticStepSize": True,
    "timeIntegration.computeLoadsJacobian": 0,
    "timeIntegration.discontinuous.ignoreMaxIterations": True,
    "timeIntegration.discontinuous.iterationTolerance": 1.0,
    "timeIntegration.discontinuous.maxIterations": 5,
    "timeIntegration.discontinuous.useRecommendedStepSize": True,
    "timeIntegration.endTime": 1.0,
    "timeIntegration.explicit.computeEndOfStepAccelerations": True,
    "timeIntegration.explicit.computeMassMatrixInversePerBody": False,
    "timeIntegration.explicit.eliminateConstraints": True,
    "timeIntegration.explicit.useLieGroupIntegration": True,
    "timeIntegration.generalizedAlpha.computeInitialAccelerations": True,
    "timeIntegration.generalizedAlpha.lieGroupAddTangentOperator": True,
    "timeIntegration.generalizedAlpha.lieGroupSimplifiedKinematicRelations": False,
    "timeIntegration.generalizedAlpha.newmarkBeta": 0.25,
    "timeIntegration.generalizedAlpha.newmarkGamma": 0.5,
    "timeIntegration.generalizedAlpha.resetAccelerations": False,
    "timeIntegration.generalizedAlpha.spectralRadius": 0.9,
    "timeIntegration.generalizedAlpha.storeInitialAlgebraicCoordinates": True,
    "timeIntegration.generalizedAlpha.useIndex2Constraints": False,
    "timeIntegration.generalizedAlpha.useNewmark": False,
    "timeIntegration.initialStepSize": 0.0,
    "timeIntegration.minimumStepSize": 1e-08,
    "timeIntegration.numberOfSteps": 100.0,
    "timeIntegration.realtime.active": False,
    "timeIntegration.realtime.factor": 1.0,
    "timeIntegration.realtime.waitMicroseconds": 1000,
    "timeIntegration.relativeTolerance": 1e-08,
    "timeIntegration.reuseConstantMassMatrix": True,
    "timeIntegration.solverType": "GeneralizedAlpha",
    "timeIntegration.startTime": 0.0,
    "timeIntegration.stepInformation": 67,
    "timeIntegration.stepSizeMaxIncrease": 2.0,
    "timeIntegration.stepSizeSafety": 0.9,
    "timeIntegration.verboseMode": 0,
    "timeIntegration.verboseModeFile": 0,
}
# the newton branch exists under timeIntegration and staticSolver; its defaults are the same except
# useModifiedNewton (True for time integration, False for statics)
_NEWTON = {
    "absoluteTolerance": 1e-10, "active": True, "adaptInitialResidual": True, "maxIterations": 25,
    "maxModifiedNewtonIterations": 8, "maxModifiedNewtonRestartIterations": 7, "maximumSolutionNorm": 1e38,
    "modifiedNewtonContractivity": 0.5, "modifiedNewtonJacUpdatePerStep": False, "relativeTolerance": 1e-08,
    "residualMode": 0, "weightTolerancePerCoordinate": False,
    "numericalDifferentiation.addReferenceCoordinatesToEpsilon": False,
    "numericalDifferentiation.doSystemWideDifferentiation": False, "numericalDifferentiation.forAE": False,
    "numericalDifferentiation.forODE2": False, "numericalDifferentiation.forODE2Connectors": False,
    "numericalDifferentiation.jacobianConnectorDerivative": True,
    "numericalDifferentiation.minimumCoordinateSize": 0.01, "numericalDifferentiation.relativeEpsilon": 1e-07,
}
for _branch, _modified in (("timeIntegration", True), ("staticSolver", False)):
    FIELDS.update({f"{_branch}.newton.{name}": value for name, value in _NEWTON.items()})
    FIELDS[f"{_branch}.newton.useModifiedNewton"] = _modified

# Exudyn's deprecated names (still accepted by 1.13.6 with a DeprecationWarning) -> current names
DEPRECATED = {
    "displayComputationTime": "show.computationTime",
    "displayGlobalTimers": "show.globalTimers",
    "displayStatistics": "show.statistics",
    "linearSolverType": "linearSolver.solverType",
    "outputPrecision": "consolePrecision",
    **{f"linearSolverSettings.{name}": f"linearSolver.{name}"
       for name in ("ignoreSingularJacobian", "pivotThreshold", "reuseAnalyzedPattern", "showCausingItems")},
    **{f"parallel.multithreadedLLimit{name}": f"parallel.multithreadedLowerLimit{name}"
       for name in ("Jacobians", "Loads", "MassMatrices", "Residuals")},
    **{f"solutionSettings.{old}": new for old, new in {
        "appendToFile": "solution.file.append", "binarySolutionFile": "solution.file.binary",
        "coordinatesSolutionFileName": "solution.file.name",
        "exportAccelerations": "solution.file.export.accelerations",
        "exportAlgebraicCoordinates": "solution.file.export.algebraicCoordinates",
        "exportDataCoordinates": "solution.file.export.dataCoordinates",
        "exportODE1Velocities": "solution.file.export.ODE1Velocities",
        "exportVelocities": "solution.file.export.velocities",
        "flushFilesDOF": "solution.file.flushAboveCoordinates",
        "flushFilesImmediately": "solution.flushFilesImmediately", "outputPrecision": "solution.precision",
        "recordImagesInterval": "solution.recordImagesInterval", "restartFileName": "solution.restart.name",
        "restartWritePeriod": "solution.restart.writePeriod", "sensorsAppendToFile": "solution.sensors.append",
        "sensorsStoreAndWriteFiles": "solution.sensors.active",
        "sensorsWriteFileFooter": "solution.sensors.writeFooter",
        "sensorsWriteFileHeader": "solution.sensors.writeHeader",
        "sensorsWritePeriod": "solution.sensors.writePeriod", "solutionInformation": "solution.file.information",
        "solutionWritePeriod": "solution.file.writePeriod",
        "solverInformationFileName": "solution.solverInformationFileName",
        "writeFileFooter": "solution.file.writeFooter", "writeFileHeader": "solution.file.writeHeader",
        "writeInitialValues": "solution.file.writeInitialValues", "writeRestartFile": "solution.restart.write",
        "writeSolutionToFile": "solution.file.write"}.items()},
    "staticSolver.constrainODE1coordinates": "staticSolver.constrainODE1Coordinates",
    **{f"timeIntegration.explicitIntegration.{name}": f"timeIntegration.explicit.{name}"
       for name in ("computeEndOfStepAccelerations", "computeMassMatrixInversePerBody", "eliminateConstraints",
                    "useLieGroupIntegration")},
    "timeIntegration.explicitIntegration.dynamicSolverType": "timeIntegration.solverType",
    "timeIntegration.realtimeFactor": "timeIntegration.realtime.factor",
    "timeIntegration.realtimeWaitMicroseconds": "timeIntegration.realtime.waitMicroseconds",
    "timeIntegration.simulateInRealtime": "timeIntegration.realtime.active",
}
for _branch in ("timeIntegration", "staticSolver"):
    DEPRECATED[f"{_branch}.newton.useNewtonSolver"] = f"{_branch}.newton.active"
    DEPRECATED[f"{_branch}.newton.newtonResidualMode"] = f"{_branch}.newton.residualMode"
    DEPRECATED[f"{_branch}.newton.numericalDifferentiation.forODE2connectors"] = (
        f"{_branch}.newton.numericalDifferentiation.forODE2Connectors")

HONOURED, NO_EFFECT, UNSUPPORTED = "honoured", "no effect", "unsupported"

# --- what SolveDynamic does with each field: the longest matching path prefix decides ---------------
_NEWTON_STRATEGY = ("floatframe's Jacobian is exact up to Exudyn's omissions (see ResidualStop); Exudyn's numerical "
                    "differentiation changes its iterates by round-off only")
_NEWTON_CONTROL = "Exudyn's Newton iteration (floatframe.solvers.genalpha.ResidualStop)"
CLASSIFICATION = {
    "": (NO_EFFECT, "display, memory and console output"),
    "linearSolver": (NO_EFFECT, "floatframe always uses its sparse LU; the solution of the linear systems is the same"),
    "linearSolver.ignoreSingularJacobian": (NO_EFFECT, "floatframe removes the constraint rows that are dependent at "
                                                       "Assemble (RedundantConstraintsWarning); a matrix singular "
                                                       "during the solve still stops it with an error"),
    "parallel": (NO_EFFECT, "threading does not change the numbers"),
    "pauseAfterEachStep": (NO_EFFECT, "floatframe has no renderer to pause"),
    "show": (NO_EFFECT, "console output"),
    "solution": (NO_EFFECT, "files floatframe does not write (restart, images, solver information); they do not "
                            "change the numbers"),
    "solution.file": (HONOURED, "the coordinates solution file, written after the solve, as text or as Exudyn's "
                                "binary file (solution.file.binary; append does not apply to a binary file, as in "
                                "Exudyn)"),
    "solution.file.flushAboveCoordinates": (NO_EFFECT, "floatframe writes the coordinates solution file once, "
                                                       "after the solve"),
    "solution.flushFilesImmediately": (NO_EFFECT, "floatframe writes its files once, after the solve"),
    "solution.restart.continueIfAvailable": (UNSUPPORTED, "floatframe does not read restart files"),
    "solution.sensors.active": (HONOURED, "sensor files are written only when True"),
    "solution.sensors.writePeriod": (HONOURED, "stored sensor rows every writePeriod"),
    "solution.sensors.writeHeader": (HONOURED, "header lines of sensor files"),
    "solution.precision": (HONOURED, "digits in sensor files and the coordinates solution file"),
    "solution.sensors.append": (UNSUPPORTED, "floatframe writes each sensor file anew"),
    "solution.sensors.writeFooter": (UNSUPPORTED, "floatframe writes no footer in sensor files"),
    "staticSolver": (NO_EFFECT, "read by SolveStatic, not by SolveDynamic"),
    "timeIntegration": (NO_EFFECT, "settings of explicit solvers with automatic step size control (ODE23, DOPRI5 "
                                   "read them); floatframe's implicit fixed-step solvers do not"),
    "timeIntegration.endTime": (HONOURED, "end time"),
    "timeIntegration.startTime": (HONOURED, "start time"),
    "timeIntegration.numberOfSteps": (HONOURED, "number of equal steps"),
    "timeIntegration.solverType": (HONOURED, "GeneralizedAlpha, TrapezoidalIndex2, or an explicit solver "
                                             "(floatframe.solvers.explicit)"),
    "timeIntegration.verboseMode": (NO_EFFECT, "console output (>= 1 a summary, >= 2 a progress bar)"),
    "timeIntegration.verboseModeFile": (NO_EFFECT, "solver information file floatframe does not write"),
    "timeIntegration.stepInformation": (NO_EFFECT, "console output"),
    "timeIntegration.realtime": (NO_EFFECT, "waiting for the wall clock does not change the numbers"),
    "timeIntegration.reuseConstantMassMatrix": (NO_EFFECT, "masses cannot change during a floatframe solve"),
    "timeIntegration.computeLoadsJacobian": (HONOURED, "0: Exudyn's iteration matrix leaves out the loads' part, "
                                                       "as Exudyn's (ResidualStop.loads_jacobian)"),
    "timeIntegration.discontinuous": (NO_EFFECT, "read only by models with post-Newton switching "
                                                 "(CoordinateSpringDamperExt data nodes, SetPostNewtonUserFunction: "
                                                 "floatframe.solvers.switching)"),
    "timeIntegration.explicit": (NO_EFFECT, "explicit solverTypes only (eliminateConstraints, "
                                            "computeEndOfStepAccelerations are read by them)"),
    "timeIntegration.adaptiveStep": (HONOURED, "False: a failed Newton iteration stops the solve instead of "
                                               "halving the step"),
    "timeIntegration.minimumStepSize": (HONOURED, "smallest step the halving may reach"),
    "timeIntegration.adaptiveStepDecrease": (UNSUPPORTED, "floatframe halves a failed step (factor 0.5); honoured "
                                                          "with post-Newton switching"),
    "timeIntegration.adaptiveStepIncrease": (UNSUPPORTED, "floatframe doubles the step after a success "
                                                          "(factor 2); honoured with post-Newton switching"),
    "timeIntegration.adaptiveStepRecoveryIterations": (UNSUPPORTED, "floatframe doubles the step after every "
                                                                    "successful reduced step; honoured with "
                                                                    "post-Newton switching"),
    "timeIntegration.adaptiveStepRecoverySteps": (UNSUPPORTED, "floatframe doubles the step after every "
                                                               "successful reduced step; honoured with post-Newton "
                                                               "switching"),
    "timeIntegration.newton": (NO_EFFECT, _NEWTON_STRATEGY),
    "timeIntegration.newton.relativeTolerance": (HONOURED, "Newton stops when the residual norm has fallen by it "
                                                           "against the step's first (" + _NEWTON_CONTROL + ")"),
    "timeIntegration.newton.absoluteTolerance": (HONOURED, "Newton stops when the residual norm is below it"),
    "timeIntegration.newton.adaptInitialResidual": (HONOURED, _NEWTON_CONTROL),
    "timeIntegration.newton.maxModifiedNewtonIterations": (HONOURED, _NEWTON_CONTROL),
    "timeIntegration.newton.maxModifiedNewtonRestartIterations": (HONOURED, _NEWTON_CONTROL),
    "timeIntegration.newton.modifiedNewtonContractivity": (HONOURED, _NEWTON_CONTROL),
    "timeIntegration.newton.modifiedNewtonJacUpdatePerStep": (HONOURED, _NEWTON_CONTROL),
    "timeIntegration.newton.weightTolerancePerCoordinate": (HONOURED, "the residual norm divided by the square root "
                                                                      "of the number of equations"),
    "timeIntegration.newton.maxIterations": (HONOURED, "Newton iterations per step before the step fails"),
    "timeIntegration.newton.useModifiedNewton": (HONOURED, "reuse of the factorized iteration matrix"),
    "timeIntegration.newton.active": (UNSUPPORTED, "floatframe always iterates Newton to convergence (Exudyn's "
                                                   "False takes one linearized step)"),
    "timeIntegration.generalizedAlpha.spectralRadius": (HONOURED, "rho_infinity of GeneralizedAlpha"),
    "timeIntegration.generalizedAlpha.useIndex2Constraints": (HONOURED, "index=2 (velocity-level constraints)"),
    "timeIntegration.generalizedAlpha.useNewmark": (HONOURED, "Newmark(gamma=newmarkGamma, beta=newmarkBeta)"),
    "timeIntegration.generalizedAlpha.newmarkBeta": (HONOURED, "Newmark beta (with useNewmark or "
                                                               "TrapezoidalIndex2)"),
    "timeIntegration.generalizedAlpha.newmarkGamma": (HONOURED, "Newmark gamma (with useNewmark or "
                                                                "TrapezoidalIndex2)"),
    "timeIntegration.generalizedAlpha.computeInitialAccelerations": (HONOURED, "False: start from the initial "
                                                                               "accelerations and multipliers"),
    "timeIntegration.generalizedAlpha.resetAccelerations": (HONOURED, "with computeInitialAccelerations=False: "
                                                                      "start from zero accelerations"),
    "timeIntegration.generalizedAlpha.storeInitialAlgebraicCoordinates": (NO_EFFECT, "only the coordinates "
                                                                                     "solution file"),
    "timeIntegration.generalizedAlpha.lieGroupAddTangentOperator": (NO_EFFECT, "Lie group nodes only; the layer "
                                                                               "has none"),
    "timeIntegration.generalizedAlpha.lieGroupSimplifiedKinematicRelations": (NO_EFFECT, "Lie group nodes only; "
                                                                                         "the layer has none"),
}


def classify(path: str) -> tuple[str, str]:
    """(class, reason) of a field: HONOURED, NO_EFFECT or UNSUPPORTED, by the longest matching prefix."""
    path = DEPRECATED.get(path, path)
    key = path
    while key not in CLASSIFICATION:
        key = key.rsplit(".", 1)[0] if "." in key else ""
    return CLASSIFICATION[key]


def _children(branch: str) -> set[str]:
    """Names directly below a branch ('' is the root), current and deprecated."""
    prefix = f"{branch}." if branch else ""
    return {path[len(prefix):].split(".", 1)[0] for path in (*FIELDS, *DEPRECATED) if path.startswith(prefix)}


def _is_branch(path: str) -> bool:
    prefix = f"{path}."
    return any(p.startswith(prefix) for p in (*FIELDS, *DEPRECATED))


class SettingsTree:
    """A node of a settings tree.

    With ``fields`` (a dict path -> default) only those fields exist; without, any attribute path is
    accepted and kept (the visualization settings, which floatframe does not render).
    """

    def __init__(self, path: str = "", root: "SettingsTree | None" = None, fields: dict | None = None):
        object.__setattr__(self, "_path", path)
        object.__setattr__(self, "_root", root if root is not None else self)
        if root is None:
            object.__setattr__(self, "_fields", fields)
            object.__setattr__(self, "_values", {})
            object.__setattr__(self, "_branches", {})

    def _resolve(self, name: str) -> str:
        """Current dotted path of a child; an unknown name raises naming the closest field."""
        path = f"{self._path}.{name}" if self._path else name
        fields = self._root._fields
        if fields is None:
            return path
        if path in DEPRECATED:
            warnings.warn(f"SimulationSettings: '{path}' is deprecated in Exudyn; use '{DEPRECATED[path]}'",
                          DeprecationWarning, stacklevel=3)
            return DEPRECATED[path]
        if path in fields or _is_branch(path):
            return path
        where = self._path or "SimulationSettings"
        raise UnknownSettingError(f"SimulationSettings: '{path}' is not an Exudyn settings field"
                                  f"{closest(name, _children(self._path))} (fields of {where}: "
                                  f"{', '.join(sorted(_children(self._path)))})")

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        path = self._resolve(name)
        root = self._root
        if path in root._values:
            return root._values[path]
        if root._fields is not None and path in root._fields:
            return _default(root._fields[path], path)
        branch = root._branches.get(path)
        if branch is None:
            branch = root._branches[path] = SettingsTree(path, root)
        return branch

    def __setattr__(self, name, value):
        path = self._resolve(name)
        if self._root._fields is not None and path not in self._root._fields:
            raise ExudynLayerError(f"SimulationSettings: '{path}' is a group of settings, not a field; set its "
                                   f"fields ({', '.join(sorted(_children(path)))})")
        self._root._values[path] = value

    def get(self, path: str):
        """Value of a dotted path (Exudyn's default if never set)."""
        path = DEPRECATED.get(path, path)
        if path in self._root._values:
            return self._root._values[path]
        fields = self._root._fields
        return _default(fields[path], path) if fields is not None and path in fields else None

    def items(self) -> dict:
        """All fields set so far, by dotted path (for export)."""
        return dict(self._root._values)

    def __repr__(self):
        return f"SettingsTree({self._path or 'root'}: {self.items()})"


def _default(value, path):
    """Enumeration defaults are stored by name; give them as members of the layer's enumerations."""
    if path.endswith("solverType") and isinstance(value, str):
        from floatframe.exudyn import _names
        enumeration = _names.DynamicSolverType if path.startswith("timeIntegration") else _names.LinearSolverType
        return getattr(enumeration, value)
    return value


def SimulationSettings() -> SettingsTree:
    """Exudyn's SimulationSettings: exactly Exudyn's fields, with Exudyn's defaults."""
    return SettingsTree(fields=FIELDS)


def VisualizationSettings() -> SettingsTree:
    """Exudyn's visualizationSettings: any attribute path is accepted and kept, nothing is rendered."""
    return SettingsTree()


def _same(value, default) -> bool:
    if isinstance(default, str) or isinstance(value, NamedValue):
        name = getattr(value, "name", value)
        return name == default
    try:
        return bool(value == default)
    except (TypeError, ValueError):
        return False


def changed_fields(settings: SettingsTree, prefix: str = "") -> dict:
    """Fields under the dotted ``prefix`` (current names) set to a value other than Exudyn's default."""
    start = f"{prefix}." if prefix else ""
    return {path: value for path, value in settings.items().items()
            if (path == prefix or path.startswith(start)) and path in FIELDS and not _same(value, FIELDS[path])}


# honoured by the step loop of models with post-Newton switching (floatframe.solvers.switching) only
SWITCHING_STEP_FIELDS = ("timeIntegration.adaptiveStepDecrease", "timeIntegration.adaptiveStepIncrease",
                         "timeIntegration.adaptiveStepRecoveryIterations", "timeIntegration.adaptiveStepRecoverySteps")


def check_dynamic(settings: SettingsTree, exudyn_steps: bool = False):
    """Raise ExudynLayerError for every field SolveDynamic cannot honour that differs from Exudyn's default;
    ``exudyn_steps``: the solve takes Exudyn's adaptive steps (post-Newton switching), which honour
    SWITCHING_STEP_FIELDS."""
    refused = [f"{path} = {value!r} ({classify(path)[1]})" for path, value in changed_fields(settings).items()
               if not path.startswith("staticSolver.") and classify(path)[0] == UNSUPPORTED
               and not (exudyn_steps and path in SWITCHING_STEP_FIELDS)]
    if refused:
        raise ExudynLayerError("SolveDynamic: unsupported simulation settings: " + "; ".join(refused)
                               + "; set them back to Exudyn's default")
