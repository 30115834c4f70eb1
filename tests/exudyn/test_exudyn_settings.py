"""SimulationSettings: exactly Exudyn 1.13.6's fields, misspellings refused, every field classified."""
import warnings

import numpy as np
import pytest

import floatframe.exudyn as exu
from floatframe.exudyn import _settings
from floatframe.exudyn._settings import (CLASSIFICATION, DEPRECATED, FIELDS, HONOURED, NO_EFFECT, UNSUPPORTED,
                                         changed_fields, classify)
from floatframe.exudyn.itemInterface import LoadForceVector, MarkerBodyPosition, NodeRigidBodyEP, ObjectRigidBody


def exudyn_fields(exudyn):
    """Every field path of exudyn.SimulationSettings() with its default (current names only)."""
    found = {}

    def walk(node, prefix):
        for name in dir(node):
            if name.startswith("_") or f"{prefix}{name}" in DEPRECATED:
                continue
            value = getattr(node, name)
            enumeration = hasattr(type(value), "__members__")
            if callable(value) and not enumeration:
                continue
            if type(value).__module__.startswith("exudyn") and not enumeration:
                walk(value, f"{prefix}{name}.")
            else:
                found[f"{prefix}{name}"] = value.name if enumeration else value
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        walk(exudyn.SimulationSettings(), "")
    return found


@pytest.mark.exudyn
def test_the_field_table_is_exudyns():
    exudyn = pytest.importorskip("exudyn")
    assert exudyn_fields(exudyn) == FIELDS


def node_and_name(settings, path):
    *branches, name = path.split(".")
    node = settings
    for part in branches:
        node = getattr(node, part)
    return node, name


def other_value(default):
    """A value of the same type that differs from the default."""
    if isinstance(default, bool):
        return not default
    if isinstance(default, (int, float)):
        return type(default)(default + 3)
    return "changed"


@pytest.mark.exudyn
@pytest.mark.parametrize("old", sorted(DEPRECATED))
def test_the_deprecated_names_are_exudyns(old):
    """In exudyn, setting the old name changes the field of the new name; the layer does the same."""
    exudyn = pytest.importorskip("exudyn")
    new = DEPRECATED[old]
    if new.endswith("solverType"):           # an enumeration: another member, by name for the layer
        value = "EigenSparse" if new.startswith("linearSolver") else "RK44"
        given = dict(exudyn=getattr(exudyn.LinearSolverType if value == "EigenSparse" else exudyn.DynamicSolverType,
                                    value), layer=value)
    else:
        value = other_value(FIELDS[new])
        given = dict(exudyn=value, layer=value)
    for package, key in ((exudyn, "exudyn"), (exu, "layer")):
        settings = package.SimulationSettings()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            setattr(*node_and_name(settings, old), given[key])
        read = getattr(*node_and_name(settings, new))
        assert getattr(read, "name", read) == value, (package.__name__, old)


def test_defaults_are_read_back():
    settings = exu.SimulationSettings()
    assert settings.timeIntegration.numberOfSteps == 100.0
    assert settings.timeIntegration.newton.useModifiedNewton is True
    assert settings.staticSolver.newton.useModifiedNewton is False
    assert settings.timeIntegration.solverType == exu.DynamicSolverType.GeneralizedAlpha
    assert settings.linearSolver.solverType == exu.LinearSolverType.EXUdense


@pytest.mark.parametrize("path, closest", [
    ("timeIntegration.numberOfStep", "numberOfSteps"),
    ("solutionSettings.sensorsWritePeriodd", "sensorsWritePeriod"),
    ("linearSolverTyp", "linearSolverType"),
    ("timeIntegration.generalizedAlpha.spectralRadious", "spectralRadius"),
    ("timeIntegration.newton.numericalDifferentiation.relativeEpsilo", "relativeEpsilon"),
])
def test_a_misspelt_field_is_an_error_naming_the_closest(path, closest):
    settings = exu.SimulationSettings()
    *branches, name = path.split(".")
    node = settings
    for part in branches:
        node = getattr(node, part)
    with pytest.raises(exu.ExudynLayerError, match=rf"'{path}' is not an Exudyn settings field "
                                                   rf"\(closest supported name: '{closest}'\)"):
        setattr(node, name, 1)
    with pytest.raises(AttributeError, match="is not an Exudyn settings field"):
        getattr(node, name)


def test_a_group_cannot_be_assigned():
    with pytest.raises(exu.ExudynLayerError, match="'timeIntegration.newton' is a group of settings"):
        exu.SimulationSettings().timeIntegration.newton = 3


def test_deprecated_names_are_accepted_with_a_warning_and_alias_the_current_field():
    settings = exu.SimulationSettings()
    with pytest.warns(DeprecationWarning, match="'solutionSettings.sensorsWritePeriod' is deprecated.*"
                                                "'solution.sensors.writePeriod'"):
        settings.solutionSettings.sensorsWritePeriod = 0.05
    assert settings.solution.sensors.writePeriod == 0.05
    with pytest.warns(DeprecationWarning, match="newton.active"):
        settings.timeIntegration.newton.useNewtonSolver = False
    assert settings.timeIntegration.newton.active is False
    assert settings.get("solutionSettings.sensorsWritePeriod") == 0.05


def test_every_field_is_classified_with_a_reason():
    for path in [*FIELDS, *DEPRECATED]:
        kind, reason = classify(path)
        assert kind in (HONOURED, NO_EFFECT, UNSUPPORTED) and reason, path
    assert all(key == "" or key in FIELDS or any(p.startswith(key + ".") for p in FIELDS)
               for key in CLASSIFICATION), "a classification entry matches no field"


def test_changed_fields_lists_the_values_that_differ_from_exudyns_defaults():
    settings = exu.SimulationSettings()
    settings.staticSolver.newton.relativeTolerance = 1e-6
    settings.staticSolver.numberOfLoadSteps = 1                  # the default: not a change
    settings.timeIntegration.endTime = 2.0
    settings.linearSolver.solverType = exu.LinearSolverType.EigenSparse
    assert changed_fields(settings, "staticSolver") == {"staticSolver.newton.relativeTolerance": 1e-6}
    assert set(changed_fields(settings)) == {"staticSolver.newton.relativeTolerance", "timeIntegration.endTime",
                                             "linearSolver.solverType"}
    settings.linearSolver.solverType = "EXUdense"
    assert "linearSolver.solverType" not in changed_fields(settings)


def falling_block(spinning=False):
    """A rigid block under a force along -z; spinning: with omega = (1, 2, 3) rad/s (nonlinear)."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    rates = [0, 0.5, 1.0, 1.5] if spinning else [0, 0, 0, 0]
    node = mbs.AddNode(NodeRigidBodyEP(referenceCoordinates=[0, 0, 0, 1, 0, 0, 0],
                                       initialVelocities=[0, 0, 0] + rates))
    body = mbs.AddObject(ObjectRigidBody(nodeNumber=node, mass=2.0, inertia=[0.1, 0.2, 0.3, 0, 0, 0]))
    marker = mbs.AddMarker(MarkerBodyPosition(bodyNumber=body, localPosition=[0, 0, 0]))
    mbs.AddLoad(LoadForceVector(markerNumber=marker, loadVector=[0, 0, -2.0]))
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = 10
    return mbs, settings


UNSUPPORTED_VALUES = [(path, value) for path, value in [
    ("timeIntegration.newton.active", False), ("timeIntegration.adaptiveStepDecrease", 0.25),
    ("timeIntegration.adaptiveStepIncrease", 4.0), ("timeIntegration.adaptiveStepRecoverySteps", 3),
    ("timeIntegration.adaptiveStepRecoveryIterations", 3),
    ("solution.restart.continueIfAvailable", True), ("solution.sensors.append", True),
    ("solution.sensors.writeFooter", True)]]


def test_the_unsupported_list_is_complete():
    assert {path for path, _ in UNSUPPORTED_VALUES} == {
        path for path in FIELDS if classify(path)[0] == UNSUPPORTED and not path.startswith("staticSolver.")}


@pytest.mark.parametrize("path, value", UNSUPPORTED_VALUES)
def test_an_unsupported_setting_raises_at_solve_dynamic_naming_it(path, value):
    mbs, settings = falling_block()
    *branches, name = path.split(".")
    node = settings
    for part in branches:
        node = getattr(node, part)
    setattr(node, name, value)
    with pytest.raises(exu.ExudynLayerError, match=rf"unsupported simulation settings: {path} = "):
        mbs.SolveDynamic(settings)


def test_static_solver_fields_are_left_to_solve_static():
    mbs, settings = falling_block()
    settings.staticSolver.newton.active = False
    assert mbs.SolveDynamic(settings)


@pytest.mark.parametrize("solver_type", ["ExplicitEuler", "RK44", "DOPRI5"])
def test_explicit_solver_types_refuse_euler_parameter_nodes_as_exudyn_does(solver_type):
    """Exudyn's explicit solvers refuse nodes with algebraic equations; the layer's explicit schemes name the node's
    norm constraint and the implicit schemes to use (tests/exudyn/test_exudyn_explicit.py runs what they accept)."""
    mbs, settings = falling_block()
    settings.timeIntegration.solverType = getattr(exu.DynamicSolverType, solver_type)
    with pytest.raises(ValueError, match=r"explicit scheme .*owners: NodeRigidBodyEP 0 .*use an implicit scheme"):
        mbs.SolveDynamic(settings)


def test_solver_type_none_raises():
    mbs, settings = falling_block()
    settings.timeIntegration.solverType = exu.DynamicSolverType._None
    with pytest.raises(exu.ExudynLayerError, match="solverType _None is not supported"):
        mbs.SolveDynamic(settings)


@pytest.mark.parametrize("path, value", [
    ("linearSolver.solverType", exu.LinearSolverType.EigenSparse), ("parallel.numberOfThreads", 2),
    ("timeIntegration.verboseModeFile", 1), ("timeIntegration.discontinuous.maxIterations", 2),
    ("timeIntegration.explicit.eliminateConstraints", False), ("timeIntegration.automaticStepSize", False),
    ("timeIntegration.newton.numericalDifferentiation.forODE2", True), ("solution.file.flushAboveCoordinates", 5),
    ("timeIntegration.generalizedAlpha.lieGroupSimplifiedKinematicRelations", True)])
def test_fields_without_effect_leave_the_numbers_unchanged(path, value):
    reference, settings = falling_block()
    reference.SolveDynamic(settings)
    mbs, settings = falling_block()
    *branches, name = path.split(".")
    node = settings
    for part in branches:
        node = getattr(node, part)
    setattr(node, name, value)
    mbs.SolveDynamic(settings)
    assert classify(path)[0] == NO_EFFECT
    np.testing.assert_array_equal(mbs.systemData.GetODE2Coordinates(), reference.systemData.GetODE2Coordinates())


def test_adaptive_step_false_stops_at_the_first_failed_step():
    """maxIterations = 1 cannot converge the first step: with adaptiveStep the step is halved down to
    minimumStepSize; without, the solve fails at once."""
    mbs, settings = falling_block(spinning=True)
    settings.timeIntegration.newton.maxIterations = 1
    settings.timeIntegration.newton.useModifiedNewton = False
    settings.timeIntegration.adaptiveStep = False
    with pytest.raises(RuntimeError, match=r"fell below the minimum .* at t = 0\b"):
        mbs.SolveDynamic(settings)
    settings.timeIntegration.adaptiveStep = True
    settings.timeIntegration.minimumStepSize = 0.04
    with pytest.raises(RuntimeError, match=r"fell below the minimum 0.04 s"):
        mbs.SolveDynamic(settings)


def test_a_floatframe_solver_refuses_scheme_settings():
    from floatframe.solvers import IDAS
    mbs, settings = falling_block()
    settings.timeIntegration.generalizedAlpha.spectralRadius = 0.5
    with pytest.raises(exu.ExudynLayerError, match=r"with solver=.*generalizedAlpha.spectralRadius = 0.5 would "
                                                   r"not be used"):
        mbs.SolveDynamic(settings, solver=IDAS())


def test_the_module_has_no_solver_options_of_its_own():
    """The settings module only describes fields; SolveDynamic's mapping lives in _solve."""
    assert not hasattr(_settings, "solver_options")
