"""NodeGenericODE1 and ObjectGenericODE1 (issue 28) against exudyn 1.13.6.

Claims: an ODE1 system x' = A x + b + f_user(mbs, t, i, x) beside an ODE2 system gives exudyn's x, x' and ODE2
coordinates to 1e-9 of their scale (sensors at every step, GetNodeOutput, GetObjectOutput, systemData) under
exudyn's implicit solvers where they integrate x with the trapezoidal rule as floatframe does
(TrapezoidalIndex2, Newmark with newmarkGamma = 1/2, generalized-alpha with spectralRadius = 1, all from
x'(0) = 0 as exudyn) and under the fixed-step explicit Runge-Kutta solvers (from t = h on: exudyn stores
x'(0) = 0 at t = 0 in the explicit solvers, floatframe the rate of the initial state); the ODE1 coordinates are
not in the ODE2 vectors; DOPRI5 with step-size control estimates its error over x as over an ODE2 system's q and
v, so a copy of an ODE2 system as ODE1 system ends where the ODE2 system does (as in exudyn); VelocityVerlet, the
static solve and linearized analyses and ODE2 coordinate markers on an ODE1 node are refused naming the reason
(generalized-alpha with spectralRadius < 1: test_exudyn_ode1_genalpha.py); bad sizes are refused naming the node;
a hydraulic actuator on an ODE1 node is refused naming the actuator."""
import numpy as np
import pytest

from exudyn_style_models import full_newton_settings

import floatframe.exudyn as ffexu
from floatframe.exudyn import itemInterface as ffitems
from floatframe.exudyn import utilities as ffutilities
from floatframe.exudyn._names import ExudynLayerError

exudyn = pytest.importorskip("exudyn")
import exudyn.itemInterface as exitems  # noqa: E402

A = np.array([[0.0, 1.0, 0.0], [-100.0, -0.5, 0.0], [0.0, 0.3, -10.0]])
B = np.array([0.0, 1.0, 50.0])
VARIABLES = ("Coordinates", "Coordinates_t")


def model(exu, items, user_function=True):
    """An ODE2 oscillator and a 3-coordinate ODE1 system with a time-dependent user right-hand side."""
    mbs = exu.SystemContainer().AddSystem()
    ode2 = mbs.AddNode(items.NodeGenericODE2(referenceCoordinates=[0.5], initialCoordinates=[1.0],
                                             initialCoordinates_t=[0.2], numberOfODE2Coordinates=1))
    mbs.AddObject(items.ObjectGenericODE2(nodeNumbers=[ode2], massMatrix=np.eye(1), stiffnessMatrix=4 * np.eye(1)))
    ode1 = mbs.AddNode(items.NodeGenericODE1(referenceCoordinates=[0.0, 0.0, 1.0], initialCoordinates=[1.0, 0.0, 0.0],
                                             numberOfODE1Coordinates=3))

    def rhs(mbs_, t, item, x):
        return [0.0, np.sin(3 * t) * (1 + 0.1 * x[0]), -0.2 * x[2] ** 2]

    body = mbs.AddObject(items.ObjectGenericODE1(nodeNumbers=[ode1], systemMatrix=A, rhsVector=B,
                                                 rhsUserFunction=rhs if user_function else 0))
    sensors = [mbs.AddSensor(items.SensorNode(nodeNumber=node, storeInternal=True,
                                              outputVariableType=getattr(exu.OutputVariableType, v)))
               for node in (ode1, ode2) for v in VARIABLES]
    mbs.Assemble()
    return mbs, ode1, body, sensors


def run(exu, items, solver_type, change=None, steps=200, user_function=True):
    mbs, node, body, sensors = model(exu, items, user_function)
    settings = full_newton_settings(exu, steps, 1.0)
    for path, value in (change or {}).items():
        *parts, last = path.split(".")
        target = settings
        for part in parts:
            target = getattr(target, part)
        setattr(target, last, value)
    mbs.SolveDynamic(settings, solverType=getattr(exu.DynamicSolverType, solver_type))
    kinds = exu.OutputVariableType
    return dict(
        sensors=[mbs.GetSensorStoredData(s) for s in sensors],
        node=[mbs.GetNodeOutput(node, getattr(kinds, v)) for v in (*VARIABLES, "CoordinatesTotal")],
        body=[mbs.GetObjectOutput(body, getattr(kinds, v)) for v in (*VARIABLES, "CoordinatesTotal")],
        data=[mbs.systemData.GetODE1Coordinates(), mbs.systemData.GetODE1Coordinates_t(),
              mbs.systemData.GetODE2Coordinates(), mbs.systemData.GetODE2Coordinates_t(),
              mbs.systemData.GetODE2CoordinatesTotal()])


def assert_same(ours, theirs, first_row=0):
    for key in ("node", "body", "data"):
        for mine, reference in zip(ours[key], theirs[key]):
            reference = np.asarray(reference, dtype=float)
            np.testing.assert_allclose(mine, reference, rtol=0, atol=1e-9 * max(np.abs(reference).max(), 1.0),
                                       err_msg=key)
    for mine, reference in zip(ours["sensors"], theirs["sensors"]):
        assert mine.shape == reference.shape
        np.testing.assert_allclose(mine[first_row:], reference[first_row:], rtol=0,
                                   atol=1e-9 * np.abs(reference).max())


IMPLICIT = [("TrapezoidalIndex2", {}),
            ("GeneralizedAlpha", {"timeIntegration.generalizedAlpha.spectralRadius": 1.0}),
            ("GeneralizedAlpha", {"timeIntegration.generalizedAlpha.useNewmark": True,
                                  "timeIntegration.generalizedAlpha.newmarkBeta": 0.3}),
            ("GeneralizedAlpha", {"timeIntegration.generalizedAlpha.spectralRadius": 1.0,
                                  "timeIntegration.generalizedAlpha.computeInitialAccelerations": False})]


@pytest.mark.parametrize("solver_type, change", IMPLICIT)
def test_implicit_trapezoidal_rule_on_x_as_exudyn(solver_type, change):
    ours = run(ffexu, ffitems, solver_type, change)
    theirs = run(exudyn, exitems, solver_type, change)
    assert_same(ours, theirs)
    np.testing.assert_array_equal(ours["sensors"][1][0, 1:], np.zeros(3))   # x'(0) = 0, as exudyn
    assert ours["data"][0].size == 3 and ours["data"][2].size == 1          # ODE1 apart from ODE2


@pytest.mark.parametrize("solver_type", ["ExplicitEuler", "ExplicitMidpoint", "RK33", "RK44", "RK67"])
def test_explicit_runge_kutta_stages_on_x_as_exudyn(solver_type):
    ours = run(ffexu, ffitems, solver_type)
    theirs = run(exudyn, exitems, solver_type)
    assert_same(ours, theirs, first_row=1)
    np.testing.assert_array_equal(theirs["sensors"][1][0, 1:], np.zeros(3))   # exudyn's explicit x'(0)


def dopri5_end(exu, items, first_order):
    """The end state of the oscillator m q_tt + K q = f (m = 2, K = diag(200, 100), f = (0, 1)) by DOPRI5 with
    step-size control, as two ODE2 coordinates (q, q_t) or as four ODE1 coordinates x = (q, q_t)."""
    mbs = exu.SystemContainer().AddSystem()
    if first_order:
        node = mbs.AddNode(items.NodeGenericODE1(referenceCoordinates=[0.0] * 4, initialCoordinates=[1.0, 0, 0, 0],
                                                 numberOfODE1Coordinates=4))
        mbs.AddObject(items.ObjectGenericODE1(nodeNumbers=[node], systemMatrix=np.array(
            [[0, 0, 1, 0], [0, 0, 0, 1], [-100.0, 0, 0, 0], [0, -50.0, 0, 0]]), rhsVector=[0, 0, 0, 0.5]))
    else:
        node = mbs.AddNode(items.NodeGenericODE2(referenceCoordinates=[0, 0], initialCoordinates=[1.0, 0],
                                                 initialCoordinates_t=[0, 0], numberOfODE2Coordinates=2))
        mbs.AddObject(items.ObjectGenericODE2(nodeNumbers=[node], massMatrix=2 * np.eye(2),
                                              stiffnessMatrix=np.diag([200.0, 100.0]), forceVector=[0, 1.0]))
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = 2
    settings.timeIntegration.endTime = 2
    settings.timeIntegration.absoluteTolerance = 1e-2
    settings.timeIntegration.relativeTolerance = 1e-4
    settings.solution.file.write = False
    mbs.SolveDynamic(settings, solverType=exu.DynamicSolverType.DOPRI5)
    if first_order:
        return mbs.GetNodeOutput(node, exu.OutputVariableType.Coordinates)
    return np.concatenate([mbs.GetNodeOutput(node, getattr(exu.OutputVariableType, v)) for v in VARIABLES])


@pytest.mark.parametrize("exu, items", [(ffexu, ffitems), (exudyn, exitems)], ids=["floatframe", "exudyn"])
def test_dopri5_estimates_over_x_as_over_second_order_coordinates(exu, items):
    """An ODE1 copy of an ODE2 system ends where the ODE2 system does, also with the step-size control: the error
    estimate runs over x as over the ODE2 q and q_t (exudyn's, and floatframe's without the integrals of x)."""
    x, ode2 = dopri5_end(exu, items, True), dopri5_end(exu, items, False)
    np.testing.assert_allclose(x, ode2, rtol=0, atol=1e-12 * np.abs(x).max())
    assert abs(x[0] - 0.408082) < 0.05      # the solution (0.40808206 from RK67 at h = 5e-4) to the tolerance


def test_system_data_initial_and_reference():
    results = []
    for exu, items in ((ffexu, ffitems), (exudyn, exitems)):
        mbs, node, _, _ = model(exu, items, user_function=False)
        data, kinds = mbs.systemData, exu.ConfigurationType
        values = [data.GetODE1Coordinates(kinds.Reference), data.GetODE1Coordinates(kinds.Initial),
                  data.GetODE1Coordinates_t(kinds.Initial), data.GetODE2Coordinates(kinds.Reference),
                  data.GetODE2Coordinates(kinds.Initial)]
        data.SetODE1Coordinates([0.5, 1.0, 2.0], kinds.Initial)
        data.SetODE2Coordinates([-0.25], kinds.Initial)
        settings = full_newton_settings(exu, 50, 0.5)
        mbs.SolveDynamic(settings, solverType=exu.DynamicSolverType.RK44)
        values += [data.GetODE1Coordinates(), data.GetODE2Coordinates(),
                   mbs.GetNodeOutput(node, exu.OutputVariableType.CoordinatesTotal)]
        results.append(values)
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-10 * max(np.abs(theirs).max(initial=0), 1.0))


def test_refusals():
    with pytest.raises(ExudynLayerError, match="VelocityVerlet.*explicit Euler"):
        run(ffexu, ffitems, "VelocityVerlet")
    mbs, node, _, _ = model(ffexu, ffitems)
    for analysis in ("SolveStatic", "ComputeODE2Eigenvalues", "ComputeSystemDegreeOfFreedom"):
        with pytest.raises(ExudynLayerError, match=f"{analysis}: .*ODE1 coordinates of NodeGenericODE1 \\[1\\]"):
            getattr(mbs, analysis)()
    mbs.AddMarker(ffitems.MarkerNodeCoordinate(nodeNumber=node, coordinate=0))
    with pytest.raises(ExudynLayerError, match="MarkerNodeCoordinate 0.*NodeGenericODE1.*MarkerNodeODE1Coordinate"):
        mbs.Assemble()
    mbs = ffexu.SystemContainer().AddSystem()
    mbs.AddNode(ffitems.NodeGenericODE1(referenceCoordinates=[0.0, 0.0], numberOfODE1Coordinates=2))
    with pytest.raises(ExudynLayerError, match="NodeGenericODE1 0.*initialCoordinates.*has 0 entries"):
        mbs.Assemble()
    with pytest.raises(ExudynLayerError, match="HydraulicActuatorSimple; hydraulics"):   # not the node
        ffutilities.HydraulicActuatorSimple(markerNumbers=[0, 1], nodeNumbers=[0])
