"""SimulationSettings and visualizationSettings: attribute trees that accept any Exudyn field.

Only a few fields reach the solver (see :func:`solver_options`); every other field is stored and
ignored. In the branches the layer reads (``timeIntegration``, ``timeIntegration.newton``,
``timeIntegration.generalizedAlpha``) a field Exudyn does not have gives a warning naming the
closest field, so that a misspelt step count does not pass unnoticed.
"""
from __future__ import annotations

import warnings

from floatframe.exudyn._names import closest

_CHECKED = {
    "timeIntegration": {"endTime", "startTime", "numberOfSteps", "verboseMode", "verboseModeFile", "solverType",
                        "adaptiveStep", "adaptiveStepDecrease", "adaptiveStepIncrease", "adaptiveStepRecoveryIterations",
                        "adaptiveStepRecoverySteps", "automaticStepSize", "discontinuous", "minimumStepSize",
                        "stepInformation", "realtimeFactor", "realtimeWaitMicroseconds", "simulateInRealtime",
                        "reuseConstantMassMatrix", "initialStepSize", "absoluteTolerance", "relativeTolerance",
                        "computeLoadsJacobian", "newton", "generalizedAlpha", "explicitIntegration", "explicit",
                        "realtime", "stepSizeMaxIncrease", "stepSizeSafety"},
    "timeIntegration.newton": {"absoluteTolerance", "active", "adaptInitialResidual", "maxIterations",
                               "maxModifiedNewtonIterations", "maxModifiedNewtonRestartIterations",
                               "maximumSolutionNorm", "modifiedNewtonContractivity", "modifiedNewtonJacUpdatePerStep",
                               "newtonResidualMode", "numericalDifferentiation", "relativeTolerance", "residualMode",
                               "useModifiedNewton", "useNewtonSolver", "weightTolerancePerCoordinate"},
    "timeIntegration.generalizedAlpha": {"computeInitialAccelerations", "lieGroupAddTangentOperator",
                                         "lieGroupSimplifiedKinematicRelations", "newmarkBeta", "newmarkGamma",
                                         "resetAccelerations", "spectralRadius", "storeInitialAlgebraicCoordinates",
                                         "useIndex2Constraints", "useNewmark"},
}

_DEFAULTS = {
    "timeIntegration.endTime": 1.0, "timeIntegration.startTime": 0.0, "timeIntegration.numberOfSteps": 100,
    "timeIntegration.verboseMode": 0, "timeIntegration.newton.useModifiedNewton": True,
    "timeIntegration.newton.relativeTolerance": 1e-8, "timeIntegration.newton.absoluteTolerance": 1e-10,
    "timeIntegration.newton.maxIterations": 25, "timeIntegration.generalizedAlpha.spectralRadius": 0.9,
    "solution.sensors.writePeriod": 0.01, "solution.sensors.active": True, "solution.precision": 10,
    "solution.sensors.writeHeader": True,
}

# deprecated Exudyn names of fields the layer reads -> current names
_RENAMED = {
    "solutionSettings.sensorsWritePeriod": "solution.sensors.writePeriod",
    "solutionSettings.sensorsStoreAndWriteFiles": "solution.sensors.active",
    "solutionSettings.outputPrecision": "solution.precision",
    "solutionSettings.sensorsWriteFileHeader": "solution.sensors.writeHeader",
}


class SettingsTree:
    """A node of a settings tree: reading a missing branch creates it, any leaf can be set."""

    def __init__(self, path: str = "", root: "SettingsTree | None" = None, check: bool = False):
        object.__setattr__(self, "_path", path)
        object.__setattr__(self, "_root", root if root is not None else self)
        object.__setattr__(self, "_check", check)
        object.__setattr__(self, "_values", {} if root is None else None)

    def _full(self, name: str) -> str:
        path = f"{self._path}.{name}" if self._path else name
        return _RENAMED.get(path, path)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        path = self._full(name)
        values = self._root._values
        if path in values:
            return values[path]
        if path in _DEFAULTS:
            return _DEFAULTS[path]
        branch = SettingsTree(path, self._root, self._check)
        values[path] = branch
        return branch

    def __setattr__(self, name, value):
        known = _CHECKED.get(self._path)
        if self._check and known is not None and name not in known:
            warnings.warn(f"SimulationSettings: '{self._path}.{name}' is not an Exudyn settings field"
                          f"{closest(name, known)}; it is ignored", stacklevel=2)
        self._root._values[self._full(name)] = value

    def get(self, path: str):
        """Value of a dotted path (default if never set)."""
        path = _RENAMED.get(path, path)
        value = self._root._values.get(path, _DEFAULTS.get(path))
        return None if isinstance(value, SettingsTree) else value

    def items(self) -> dict:
        """All fields set so far, by dotted path (for export)."""
        return {k: v for k, v in self._root._values.items() if not isinstance(v, SettingsTree)}

    def __repr__(self):
        return f"SettingsTree({self._path or 'root'}: {self.items()})"


def SimulationSettings() -> SettingsTree:
    """Exudyn's SimulationSettings: a settings tree with the defaults of Exudyn for the fields used."""
    return SettingsTree(check=True)


def VisualizationSettings() -> SettingsTree:
    """Exudyn's visualizationSettings: any attribute path is accepted and kept, nothing is rendered."""
    return SettingsTree()


def solver_options(settings: SettingsTree) -> dict:
    """The fields that reach floatframe's solver, as plain values."""
    return dict(
        end_time=float(settings.get("timeIntegration.endTime")),
        start_time=float(settings.get("timeIntegration.startTime")),
        steps=int(round(float(settings.get("timeIntegration.numberOfSteps")))),
        spectral_radius=float(settings.get("timeIntegration.generalizedAlpha.spectralRadius")),
        modified_newton=bool(settings.get("timeIntegration.newton.useModifiedNewton")),
        relative_tolerance=float(settings.get("timeIntegration.newton.relativeTolerance")),
        max_iterations=int(settings.get("timeIntegration.newton.maxIterations")),
        verbose=int(settings.get("timeIntegration.verboseMode")),
        sensor_period=float(settings.get("solution.sensors.writePeriod")),
        sensors_active=bool(settings.get("solution.sensors.active")),
        precision=int(settings.get("solution.precision")),
        write_header=bool(settings.get("solution.sensors.writeHeader")),
    )
