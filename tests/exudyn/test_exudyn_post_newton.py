"""Post-Newton switching against Exudyn 1.13.6: CoordinateSpringDamperExt's sticking friction and limit stops on a data
node, and a post-Newton user function that switches a contact flag and asks for smaller steps
(``floatframe.solvers.switching``, ``floatframe.exudyn._post_newton``)."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from exudyn_style_models import default_settings

from floatframe.exudyn._output_steps import written_rows, written_steps
from floatframe.solvers.switching import StepControl


def codes():
    """(floatframe.exudyn, its utilities) and (exudyn, its utilities); skips where exudyn is not installed."""
    import floatframe.exudyn as ffx
    exu = pytest.importorskip("exudyn")
    return [(ffx, importlib.import_module("floatframe.exudyn.utilities")),
            (exu, importlib.import_module("exudyn.utilities"))]


def mass_on_switching_spring(exu, ut, keywords, initial_data, end_time=1.0):
    """A 0.5 kg mass at 10 m/s on a CoordinateSpringDamperExt with a data node; (coordinates, velocities, data
    coordinates, Force sensor values) at the end."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.AddMarker(ut.MarkerNodeCoordinate(nodeNumber=mbs.AddNode(ut.NodePointGround()), coordinate=0))
    node = mbs.AddNode(ut.NodePoint(referenceCoordinates=[0, 0, 0], initialVelocities=[10, 0, 0]))
    mbs.AddObject(ut.MassPoint(mass=0.5, nodeNumber=node))
    marker = mbs.AddMarker(ut.MarkerNodeCoordinate(nodeNumber=node, coordinate=0))
    data = mbs.AddNode(ut.NodeGenericData(initialCoordinates=initial_data, numberOfDataCoordinates=3))
    spring = mbs.AddObject(ut.CoordinateSpringDamperExt(markerNumbers=[ground, marker], nodeNumber=data, **keywords))
    sensor = mbs.AddSensor(ut.SensorObject(objectNumber=spring, storeInternal=True,
                                           outputVariableType=exu.OutputVariableType.Force))
    mbs.Assemble()
    mbs.SolveDynamic(default_settings(exu, int(round(end_time / 2e-3)), end_time))
    return (mbs.systemData.GetODE2Coordinates(), mbs.systemData.GetODE2Coordinates_t(),
            mbs.systemData.GetDataCoordinates(), mbs.GetSensorStoredData(sensor))


STICKING = dict(stiffness=100, damping=1.0, dynamicFrictionForce=1.4715, staticFrictionOffsetForce=0.73575,
                stickingStiffness=1e4, stickingDamping=100, frictionProportionalZone=0, exponentialDecayStatic=0.2)
LIMIT_STOPS = dict(limitStopsUpper=0.95, limitStopsLower=-0.95, limitStopsStiffness=1e4, limitStopsDamping=10,
                   useLimitStops=True)


@pytest.mark.exudyn
def test_sticking_friction_is_exudyns():
    """The mass slides to and fro and sticks for good before 2 s (friction state 0, the sticking position -0.0173 m,
    the force on the mass 0); measured: coordinates 3e-13 m, the force series (201 rows, every 0.01 s) 4e-11 N."""
    (q, v, data, force), (q_x, v_x, data_x, force_x) = [
        mass_on_switching_spring(exu, ut, STICKING, [1, 0, 0], end_time=2.0) for exu, ut in codes()]
    assert data_x[0] == 0 and data[0] == 0   # sticking at the end
    np.testing.assert_allclose(data, data_x, rtol=0, atol=1e-9)
    np.testing.assert_allclose(q, q_x, rtol=0, atol=1e-9)
    np.testing.assert_allclose(v, v_x, rtol=0, atol=1e-9)
    assert force.shape == force_x.shape == (201, 2)
    np.testing.assert_allclose(force, force_x, rtol=0, atol=1e-8)


@pytest.mark.exudyn
def test_limit_stops_are_exudyns():
    """The mass hits the stops at +-0.95 m (forces up to 498 N); measured: coordinates 1.5e-13 m, the force series
    (101 rows) 3e-10 N."""
    (q, v, data, force), (q_x, v_x, data_x, force_x) = [
        mass_on_switching_spring(exu, ut, LIMIT_STOPS, [0, 0, 0]) for exu, ut in codes()]
    assert np.abs(force_x[:, 1]).max() > 400   # a stop was hit
    np.testing.assert_allclose(q, q_x, rtol=0, atol=1e-9)
    np.testing.assert_allclose(v, v_x, rtol=0, atol=1e-9)
    np.testing.assert_allclose(data, data_x, rtol=0, atol=1e-9)
    assert force.shape == force_x.shape == (101, 2)
    np.testing.assert_allclose(force, force_x, rtol=0, atol=1e-7)


def bouncing_mass(exu, ut, end_time=0.1):
    """Exudyn's postNewtonStepContactTest, shortened: a mass falls onto a penalty contact that a post-Newton function
    switches, asking for smaller steps at the switching points; (y, accepted steps, last step size, flags)."""
    mbs = exu.SystemContainer().AddSystem()
    length, radius, mass, h = 0.5, 0.05, 0.25, 5e-3
    flag = mbs.AddNode(ut.NodeGenericData(initialCoordinates=[0], numberOfDataCoordinates=1))
    node = mbs.AddNode(ut.NodePoint(referenceCoordinates=[0, length, 0], initialCoordinates=[0, radius - length + 0.01, 0],
                                    initialVelocities=[0, -1, 0]))
    mbs.AddObject(ut.MassPoint(mass=mass, nodeNumber=node))
    ground = mbs.AddMarker(ut.MarkerNodeCoordinate(nodeNumber=mbs.AddNode(ut.NodePointGround()), coordinate=0))
    marker = mbs.AddMarker(ut.MarkerNodeCoordinate(nodeNumber=node, coordinate=1))
    flags = []

    def spring_force(mbs, t, itemNumber, u, v, k, d, offset):
        return k * (length + u - radius) if mbs.systemData.GetDataCoordinates()[0] == 1 else 0

    def post_newton(mbs, t):
        y0 = mbs.GetNodeOutput(node, exu.OutputVariableType.Position, configuration=exu.ConfigurationType.StartOfStep)[1]
        y = mbs.GetNodeOutput(node, exu.OutputVariableType.Position)[1]
        p0, p = y0 - radius, y - radius
        step = mbs.sys["dynamicSolver"].it.currentStepSize
        data = mbs.systemData.GetDataCoordinates()
        start = mbs.systemData.GetDataCoordinates(configuration=exu.ConfigurationType.StartOfStep)
        error, recommended = 0, -1
        if (p < 0) != (start[0] == 1):   # the contact state assumed at the start of the step was wrong
            error = abs(p)
            recommended = step * abs(p0) / (abs(p0) + abs(p)) if p0 > 0 else 0.25 * step
            data[0] = 1 if p < 0 else 0
        mbs.systemData.SetDataCoordinates(data)
        flags.append(float(data[0]))
        return [error, recommended]

    mbs.SetPostNewtonUserFunction(post_newton)
    mbs.AddObject(ut.CoordinateSpringDamper(markerNumbers=[ground, marker], stiffness=20000,
                                            springForceUserFunction=spring_force))
    mbs.AddLoad(ut.LoadCoordinate(markerNumber=marker, load=-mass * 9.81))
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = int(round(end_time / h))
    settings.timeIntegration.endTime = end_time
    settings.timeIntegration.minimumStepSize = 1e-10
    settings.timeIntegration.discontinuous.iterationTolerance = 1e-8
    settings.timeIntegration.discontinuous.maxIterations = 1
    settings.timeIntegration.discontinuous.ignoreMaxIterations = False
    settings.timeIntegration.adaptiveStepRecoverySteps = 0
    settings.timeIntegration.adaptiveStepIncrease = 10
    settings.timeIntegration.generalizedAlpha.spectralRadius = 1
    settings.timeIntegration.verboseMode = 0
    mbs.SolveDynamic(solverType=exu.DynamicSolverType.TrapezoidalIndex2, simulationSettings=settings)
    return (mbs.GetNodeOutput(node, exu.OutputVariableType.Position)[1], mbs.sys["dynamicSolver"].it.currentStepSize,
            flags)


@pytest.mark.exudyn
def test_a_post_newton_function_with_step_reduction_is_exudyns():
    """The mass hits the ground within 0.1 s, each switch retaken with a smaller step: 79 post-Newton calls in
    either code, each with the same contact flag (26 in contact); the end height agrees to 5e-16 m (measured)."""
    (y, last_step, flags), (y_x, last_step_x, flags_x) = [bouncing_mass(exu, ut) for exu, ut in codes()]
    assert flags == flags_x and len(flags) == 79 and flags.count(1.0) == 26
    assert y == pytest.approx(y_x, abs=1e-10)
    assert last_step == pytest.approx(last_step_x, rel=1e-8)


def test_step_control_reduces_as_exudyn():
    """A recommended step size cuts the step to at most 0.75 h, else adaptiveStepDecrease; never below the minimum."""
    control = StepControl(decrease=0.5, min_step=1e-4)
    assert control.reduced(1e-2, -1) == 5e-3
    assert control.reduced(1e-2, 2e-3) == 2e-3
    assert control.reduced(1e-2, 9e-3) == 7.5e-3
    assert control.reduced(1e-3, 1e-6) == 1e-4
    with pytest.raises(ValueError, match="max_iterations must be >= 1"):
        StepControl(max_iterations=0)


def test_written_rows_follow_the_write_period_on_steps_of_any_size():
    """Exudyn's rule on the times of adaptive steps: a row where the time has reached the last count plus the period
    (the count going on from the written time), the initial and the last row always."""
    times = np.array([0.0, 0.004, 0.009, 0.0095, 0.0125, 0.02, 0.021, 0.03])
    assert written_rows(times, 0.01).tolist() == [0, 4, 5, 7]            # counts 0.01, 0.02, 0.03
    assert written_rows(times, 0.005).tolist() == [0, 2, 4, 5, 6, 7]     # counts 0.005, 0.01, 0.015, 0.02, 0.025
    assert written_rows(times, 0.005, initial=False).tolist() == [1, 2, 4, 5, 6, 7]
    for period in (0.002, 0.01, 0.005, 0.0123):   # on equal steps: the steps of written_steps
        uniform = np.arange(501) * 0.002
        assert written_rows(uniform, period).tolist() == written_steps(500, 0.002, period).tolist()


def test_data_coordinates_are_read_and_set_in_node_order():
    import floatframe.exudyn as exu
    from floatframe.exudyn import utilities as ut
    mbs = exu.SystemContainer().AddSystem()
    mbs.AddNode(ut.NodeGenericData(initialCoordinates=[1, 2], numberOfDataCoordinates=2))
    mbs.AddNode(ut.NodePoint())
    mbs.AddNode(ut.NodeGenericData(initialCoordinates=[3], numberOfDataCoordinates=1))
    mbs.Assemble()
    assert mbs.systemData.GetDataCoordinates().tolist() == [1, 2, 3]
    mbs.systemData.SetDataCoordinates([4, 5, 6], configuration=exu.ConfigurationType.Initial)
    assert mbs.systemData.GetDataCoordinates(exu.ConfigurationType.Initial).tolist() == [4, 5, 6]
    with pytest.raises(exu.ExudynLayerError, match="expected 3 values"):
        mbs.systemData.SetDataCoordinates([1, 2])


def test_solves_without_the_discontinuous_iteration_refuse_switching_models():
    import floatframe.exudyn as exu
    from floatframe.exudyn import utilities as ut
    mbs = exu.SystemContainer().AddSystem()
    node = mbs.AddNode(ut.NodePoint())
    mbs.AddObject(ut.MassPoint(mass=1, nodeNumber=node))
    mbs.SetPostNewtonUserFunction(lambda mbs, t: [0, -1])
    mbs.Assemble()
    with pytest.raises(exu.ExudynLayerError, match="SolveStatic: the model switches data after each Newton solve"):
        mbs.SolveStatic()
    settings = exu.SimulationSettings()
    settings.timeIntegration.solverType = exu.DynamicSolverType.RK44
    with pytest.raises(exu.ExudynLayerError, match="solverType RK44 with post-Newton switching"):
        mbs.SolveDynamic(settings)
    mbs.SetPostStepUserFunction(lambda mbs, t: True)   # not called on the switching step loop: refused, not skipped
    with pytest.raises(exu.ExudynLayerError, match="post-Newton switching .* together with SetPostStepUserFunction "
                                                   "is not supported"):
        mbs.SolveDynamic(exu.SimulationSettings())
    assert mbs.GetPostNewtonUserFunction()["type"] == "Python" and mbs.GetDictionary()["userFunctions"][
        "postNewtonFunction"]["function"] is mbs.GetPostNewtonUserFunction()["function"]


def counting_data_node(exu, ut):
    """A data node of 2 values whose first a post-Newton function counts up (no error: one solve a step); the
    node's Coordinates sensor and the end values."""
    mbs = exu.SystemContainer().AddSystem()
    node = mbs.AddNode(ut.NodePoint())
    mbs.AddObject(ut.MassPoint(mass=1, nodeNumber=node))
    data = mbs.AddNode(ut.NodeGenericData(initialCoordinates=[1, 2], numberOfDataCoordinates=2))
    sensor = mbs.AddSensor(ut.SensorNode(nodeNumber=data, storeInternal=True,
                                         outputVariableType=exu.OutputVariableType.Coordinates))

    def count(mbs, t):
        values = mbs.systemData.GetDataCoordinates()
        values[0] += 1
        mbs.systemData.SetDataCoordinates(values)
        return [0, -1]
    mbs.SetPostNewtonUserFunction(count)
    mbs.Assemble()
    mbs.SolveDynamic(default_settings(exu, 4, 1.0))
    return mbs.GetSensorStoredData(sensor), mbs.systemData.GetDataCoordinates()


@pytest.mark.exudyn
def test_a_data_node_sensor_records_the_switched_values_as_exudyns():
    (series, values), (series_x, values_x) = [counting_data_node(exu, ut) for exu, ut in codes()]
    assert series_x.tolist() == [[0, 1, 2], [0.25, 2, 2], [0.5, 3, 2], [0.75, 4, 2], [1, 5, 2]]
    assert series.tolist() == series_x.tolist()
    assert values.tolist() == values_x.tolist() == [5, 2]


def load_switched_by_data(exu, ut):
    """A 1 N load on a 1 kg mass, switched on by a data coordinate that a post-Newton function sets from t = 0.5 s
    on (100 steps to 1 s); (v, q) at the end."""
    mbs = exu.SystemContainer().AddSystem()
    node = mbs.AddNode(ut.NodePoint())
    mbs.AddObject(ut.MassPoint(mass=1, nodeNumber=node))
    mbs.AddNode(ut.NodeGenericData(initialCoordinates=[0], numberOfDataCoordinates=1))
    marker = mbs.AddMarker(ut.MarkerNodeCoordinate(nodeNumber=node, coordinate=0))
    mbs.AddLoad(ut.LoadCoordinate(markerNumber=marker, load=1, loadUserFunction=lambda mbs, t, load:
                                  load * mbs.systemData.GetDataCoordinates()[0]))

    def switch_on(mbs, t):
        mbs.systemData.SetDataCoordinates([1.0 if t >= 0.5 - 1e-12 else 0.0])
        return [0, -1]
    mbs.SetPostNewtonUserFunction(switch_on)
    mbs.Assemble()
    mbs.SolveDynamic(default_settings(exu, 100, 1.0))
    return mbs.systemData.GetODE2Coordinates_t()[0], mbs.systemData.GetODE2Coordinates()[0]


@pytest.mark.exudyn
def test_a_load_function_that_reads_data_coordinates_is_called_not_traced():
    """Traced with the initial data (0), the load would stay off (v = 0); called, it acts after 0.5 s as in Exudyn:
    v(1) = 0.495 m/s, q(1) = 0.1225 m (measured: the same to 1e-15)."""
    (v, q), (v_x, q_x) = [load_switched_by_data(exu, ut) for exu, ut in codes()]
    assert v_x == pytest.approx(0.495, abs=1e-9)
    assert v == pytest.approx(v_x, abs=1e-12) and q == pytest.approx(q_x, abs=1e-12)


def gear_pair(exu, ut, end_time=0.2):
    """Exudyn's gear pair of coordinateSpringDamperExt: two rotors coupled by a CoordinateSpringDamperExt with factor1
    -1/3 (Exudyn's iteration matrix leaves the factors out), the second one driven by a velocity-level
    CoordinateConstraint that its initial velocity does not meet, a braking torque on the first; with a post-Newton
    function that switches nothing, so that the steps are Exudyn's adaptive ones. The rotors' coordinates and
    velocities at the end."""
    mbs = exu.SystemContainer().AddSystem()
    omega0, ratio = 2 * np.pi, 1 / 3
    nodes = [mbs.AddNode(ut.Node1D(referenceCoordinates=[0], initialCoordinates=[0], initialVelocities=[w]))
             for w in (omega0, -omega0 * ratio)]
    for node in nodes:
        mbs.AddObject(ut.Rotor1D(physicsInertia=1, nodeNumber=node))
    markers = [mbs.AddMarker(ut.MarkerNodeCoordinate(nodeNumber=node, coordinate=0)) for node in nodes]
    mbs.AddObject(ut.CoordinateSpringDamperExt(markerNumbers=[markers[1], markers[0]], stiffness=1e5, damping=1e3,
                                               factor0=1, factor1=-ratio, frictionProportionalZone=1e-16))
    ground = mbs.AddMarker(ut.MarkerNodeCoordinate(nodeNumber=mbs.AddNode(ut.NodePointGround()), coordinate=0))
    mbs.AddObject(ut.CoordinateConstraint(markerNumbers=[markers[1], ground], offset=-omega0 * ratio,
                                          velocityLevel=True))
    mbs.AddLoad(ut.LoadCoordinate(markerNumber=markers[0], load=-10))
    mbs.SetPostNewtonUserFunction(lambda mbs, t: [0, -1])
    mbs.Assemble()
    mbs.SolveDynamic(default_settings(exu, int(round(end_time / 2e-3)), end_time))
    return np.concatenate([mbs.systemData.GetODE2Coordinates(), mbs.systemData.GetODE2Coordinates_t()])


@pytest.mark.exudyn
def test_velocity_level_constraints_are_exudyns_velocity_rows_in_switching_solves():
    """The first step's Newton iteration fails in Exudyn (25 iterations on its gear matrix) and is retaken with half
    the step; the constraint turns the second rotor to +2.09 rad/s at once (Exudyn's velocity row; floatframe's
    integrated form, which other solves keep, would not). Measured: 6e-10 of the largest value (6.28 rad/s)."""
    mine, theirs = [gear_pair(exu, ut) for exu, ut in codes()]
    assert theirs[3] == pytest.approx(2 * np.pi / 3, rel=1e-9)
    np.testing.assert_allclose(mine, theirs, rtol=0, atol=1e-8 * np.abs(theirs).max())
