"""Exudyn's explicit solverTypes (issue 28, blocker 7) on the layer, against exudyn 1.13.6.

Claims: one script (a planar rigid body with its centre of mass off the node, a 2D mass point and a 3D mass point
whose y coordinate a CoordinateConstraint fixes to the ground, on springs, with loads) solved with each fixed-step
solverType gives exudyn's node coordinates and sensor series to 1e-12 of their scale (same tableau, same stages);
computeEndOfStepAccelerations = False stores the last stage's accelerations as exudyn does; ODE23 and DOPRI5 end
within their tolerance of exudyn's result; a free tumbling rigid body on NodeRigidBodyRxyz agrees as well; an
Euler-parameter body and a joint are refused naming the constraint, as exudyn refuses them."""
import numpy as np
import pytest

import floatframe.exudyn as ffexu
from floatframe.exudyn import itemInterface as ffitems

exu = pytest.importorskip("exudyn")
from exudyn import itemInterface as exitems  # noqa: E402

FIXED = ["ExplicitEuler", "ExplicitMidpoint", "RK33", "RK44", "RK67", "VelocityVerlet"]
VARIABLES = ["Position", "Velocity", "Acceleration"]


def free_bodies(exu, items):
    """The model and its sensors (no constraint but one CoordinateConstraint to the ground)."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.AddObject(items.ObjectGround())
    anchor = mbs.AddMarker(items.MarkerBodyRigid(bodyNumber=ground, localPosition=[0.5, 0, 0]))
    node = mbs.AddNode(items.NodeRigidBody2D(referenceCoordinates=[0, 0, 0], initialVelocities=[0.3, 0, 2.0]))
    body = mbs.AddObject(items.ObjectRigidBody2D(nodeNumber=node, mass=2.0, inertia=0.5, centerOfMass=[0.2, 0.1]))
    end = mbs.AddMarker(items.MarkerBodyRigid(bodyNumber=body, localPosition=[0.5, 0, 0]))
    mbs.AddObject(items.CartesianSpringDamper(markerNumbers=[anchor, end], stiffness=[50, 80, 0],
                                              damping=[0.5, 0.5, 0]))
    mbs.AddLoad(items.LoadMassProportional(markerNumber=mbs.AddMarker(items.MarkerBodyMass(bodyNumber=body)),
                                           loadVector=[0, -9.81, 0]))
    mbs.AddLoad(items.LoadTorqueVector(markerNumber=end, loadVector=[0, 0, 0.3]))
    point2d = mbs.AddNode(items.NodePoint2D(referenceCoordinates=[0.0, -1.0], initialVelocities=[0.3, 0.1]))
    mass2d = mbs.AddObject(items.ObjectMassPoint2D(nodeNumber=point2d, mass=0.7))
    mbs.AddObject(items.ObjectConnectorSpringDamper(
        markerNumbers=[anchor, mbs.AddMarker(items.MarkerNodePosition(nodeNumber=point2d))], referenceLength=0.8,
        stiffness=100, damping=0.5))
    point = mbs.AddNode(items.NodePoint(referenceCoordinates=[1, 0, 0], initialCoordinates=[0.1, 0, 0],
                                        initialVelocities=[0, 0, 0.2]))
    mbs.AddObject(items.MassPoint(nodeNumber=point, mass=1.5))
    fixed = mbs.AddNode(items.NodePointGround(referenceCoordinates=[1, 0, 0]))
    coordinate = lambda n, k: mbs.AddMarker(items.MarkerNodeCoordinate(nodeNumber=n, coordinate=k))  # noqa: E731
    mbs.AddObject(items.CoordinateSpringDamper(markerNumbers=[coordinate(fixed, 0), coordinate(point, 0)],
                                               stiffness=300, damping=1.0))
    mbs.AddObject(items.CoordinateConstraint(markerNumbers=[coordinate(fixed, 1), coordinate(point, 1)]))
    mbs.AddLoad(items.LoadForceVector(markerNumber=mbs.AddMarker(items.MarkerNodePosition(nodeNumber=point)),
                                      loadVector=[0, -4.0, 1.0]))
    sensors = [mbs.AddSensor(items.SensorBody(bodyNumber=body, localPosition=[0.1, 0.2, 0], storeInternal=True,
                                              outputVariableType=getattr(exu.OutputVariableType, v)))
               for v in VARIABLES]
    sensors += [mbs.AddSensor(items.SensorBody(bodyNumber=mass2d, storeInternal=True,
                                               outputVariableType=getattr(exu.OutputVariableType, v)))
                for v in VARIABLES]
    sensors += [mbs.AddSensor(items.SensorNode(nodeNumber=point, storeInternal=True,
                                               outputVariableType=getattr(exu.OutputVariableType, v)))
                for v in VARIABLES]
    mbs.Assemble()
    return mbs, sensors


def solve(exu, items, solver_type, build=free_bodies, steps=200, t_end=1.0, **fields):
    """(coordinates, velocities, accelerations, sensor series) after SolveDynamic with ``solver_type``."""
    mbs, sensors = build(exu, items)
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = steps
    settings.timeIntegration.endTime = t_end
    settings.timeIntegration.verboseMode = 0
    for path, value in fields.items():
        *branches, name = path.split(".")
        node = settings.timeIntegration
        for part in branches:
            node = getattr(node, part)
        setattr(node, name, value)
    mbs.SolveDynamic(settings, solverType=getattr(exu.DynamicSolverType, solver_type))
    data = mbs.systemData
    series = [np.array(mbs.GetSensorStoredData(s)) for s in sensors]
    return (np.array(data.GetODE2Coordinates()), np.array(data.GetODE2Coordinates_t()),
            np.array(data.GetODE2Coordinates_tt()), series)


def assert_close(ours, theirs, relative, what):
    scale = max(1.0, float(np.abs(theirs).max()))
    assert np.abs(np.asarray(ours) - np.asarray(theirs)).max() <= relative * scale, (what, ours, theirs)


@pytest.mark.parametrize("solver_type", FIXED)
def test_fixed_step_solver_types_give_exudyns_numbers(solver_type):
    # measured: at most 1.6e-14 of scale in coordinates, velocities, accelerations and the 9 sensors
    ours, theirs = solve(ffexu, ffitems, solver_type), solve(exu, exitems, solver_type)
    for k, what in enumerate(("coordinates", "velocities", "accelerations")):
        assert_close(ours[k], theirs[k], 1e-12, what)
    for number, (mine, reference) in enumerate(zip(ours[3], theirs[3])):
        assert mine.shape == reference.shape
        first = 1 if number % 3 == 2 else 0   # exudyn's a(0): zero for RK, without the fixed coordinate for Verlet
        assert_close(mine[first:], reference[first:], 1e-12, f"sensor {number}")
    assert ours[0][6] == 0.0 and ours[1][6] == 0.0 and theirs[0][6] == 0.0   # the 3D point's y, fixed


def test_without_end_of_step_accelerations_the_last_stage_is_stored():
    fields = {"explicit.computeEndOfStepAccelerations": False}
    ours, theirs = solve(ffexu, ffitems, "RK44", **fields), solve(exu, exitems, "RK44", **fields)
    assert_close(ours[2], theirs[2], 1e-12, "accelerations")
    end = solve(ffexu, ffitems, "RK44")[2]
    assert np.abs(end - ours[2]).max() > 1e-6            # the end-of-step accelerations differ from the stage's


def adaptive_run(exu, items, solver_type, build=free_bodies, steps=20, t_end=1.0, sensor_period=None, **fields):
    """(accepted steps, rejected steps, ODE2 coordinates, ODE1 coordinates or None, sensor series) of an embedded
    pair's solve; ``fields`` as timeIntegration.<name>, the sensors written every sensor_period [s] (default: every
    output step)."""
    mbs, sensors = build(exu, items)
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = steps
    settings.timeIntegration.endTime = t_end
    settings.timeIntegration.verboseMode = 0
    settings.solution.sensors.writePeriod = t_end / steps if sensor_period is None else sensor_period
    for name, value in fields.items():
        setattr(settings.timeIntegration, name, value)
    mbs.SolveDynamic(settings, solverType=getattr(exu.DynamicSolverType, solver_type))
    iteration = mbs.sys["dynamicSolver"].it
    ode1 = np.array(mbs.systemData.GetODE1Coordinates()) if mbs.systemData.ODE1Size() else None
    return (iteration.currentStepIndex - 1, iteration.rejectedAutomaticStepSizeSteps,
            np.array(mbs.systemData.GetODE2Coordinates()), ode1,
            [np.array(mbs.GetSensorStoredData(sensor)) for sensor in sensors])


@pytest.mark.parametrize("solver_type, tolerance", [("ODE23", 1e-4), ("DOPRI5", 1e-4), ("DOPRI5", 1e-8)])
def test_automatic_step_size_solver_types_take_exudyns_steps(solver_type, tolerance):
    """Exudyn's step control (signed error scales, steps across output times): the same accepted and rejected steps
    (ODE23 24 / 5 .. DOPRI5 142 / 29) and end coordinates to 1e-12 of their scale (measured 5e-14)."""
    fields = dict(relativeTolerance=tolerance, absoluteTolerance=tolerance)
    ours = adaptive_run(ffexu, ffitems, solver_type, **fields)
    theirs = adaptive_run(exu, exitems, solver_type, **fields)
    assert ours[:2] == theirs[:2]
    assert_close(ours[2], theirs[2], 1e-12, "coordinates")


def first_and_second_order(exu, items):
    """solverExplicitODE1ODE2test's model: two oscillators as four ODE1 coordinates and as two ODE2 coordinates."""
    mbs = exu.SystemContainer().AddSystem()
    first = mbs.AddNode(items.NodeGenericODE1(referenceCoordinates=[0, 0, 0, 0], initialCoordinates=[1, 0, 0, 0],
                                              numberOfODE1Coordinates=4))
    mbs.AddObject(items.ObjectGenericODE1(nodeNumbers=[first], systemMatrix=np.array(
        [[0, 0, 1, 0], [0, 0, 0, 1], [-100, 0, 0, 0], [0, -50, 0, 0]]), rhsVector=[0, 0, 0, 0.5]))
    second = mbs.AddNode(items.NodeGenericODE2(referenceCoordinates=[0, 0], initialCoordinates=[1, 0],
                                               initialCoordinates_t=[0, 0], numberOfODE2Coordinates=2))
    mbs.AddObject(items.ObjectGenericODE2(nodeNumbers=[second], massMatrix=np.diag([2, 2]),
                                          stiffnessMatrix=np.diag([200, 100]), forceVector=[0, 1]))
    sensors = [mbs.AddSensor(items.SensorNode(nodeNumber=node, storeInternal=True,
                                              outputVariableType=exu.OutputVariableType.Coordinates))
               for node in (first, second)]
    mbs.Assemble()
    return mbs, sensors


@pytest.mark.parametrize("solver_type", ["ODE23", "DOPRI5"])
@pytest.mark.parametrize("absolute", [1.0, 1e-4, 1e-10])
def test_with_ode1_coordinates_the_steps_are_exudyns(solver_type, absolute):
    """The error's mean runs over the ODE2 coordinates, their velocities and the ODE1 coordinates (n_ODE1 + 2 n_ODE2
    terms), and its scales are signed (the coordinates swing through zero): the same accepted and rejected steps
    (DOPRI5 10 / 4 .. ODE23 204 / 60) with the largest step 1 s over 2 s, the ends to 1e-7 of their scale
    (measured 6e-9: at atol 1e-10 the signed scales come near zero where a coordinate crosses -atol / rtol)."""
    fields = dict(relativeTolerance=1e-4, absoluteTolerance=absolute)
    ours = adaptive_run(ffexu, ffitems, solver_type, first_and_second_order, 2, 2.0, **fields)
    theirs = adaptive_run(exu, exitems, solver_type, first_and_second_order, 2, 2.0, **fields)
    assert ours[:2] == theirs[:2]
    assert_close(ours[2], theirs[2], 1e-7, "ODE2 coordinates")
    assert_close(ours[3], theirs[3], 1e-7, "ODE1 coordinates")


def test_the_sensors_are_stored_at_the_first_step_at_or_after_each_output_time():
    """Exudyn's steps are cut at the end time only: the stored times are step ends after the output times, the
    same as exudyn's, and so are the values: to 1e-8 of their scale (measured 5e-10; the signed error scales make
    the steps sensitive to round-off where a coordinate passes -atol / rtol)."""
    ours = adaptive_run(ffexu, ffitems, "DOPRI5", first_and_second_order, 20, 2.0, absoluteTolerance=1e-6)
    theirs = adaptive_run(exu, exitems, "DOPRI5", first_and_second_order, 20, 2.0, absoluteTolerance=1e-6)
    grid = np.linspace(0.0, 2.0, 21)
    for mine, reference in zip(ours[4], theirs[4]):
        assert mine.shape == reference.shape == (21, mine.shape[1])
        assert np.count_nonzero(reference[:, 0] - grid > 1e-3) >= 10      # between output times, not on them
        assert_close(mine, reference, 1e-8, "sensor")


@pytest.mark.parametrize("initial, counts, default_counts", [(0.013, (22, 0), (20, 0)), (0.2, (20, 1), (20, 0))])
def test_the_initial_step_size_is_exudyns_first_step_also_above_the_largest_step(initial, counts, default_counts):
    """initialStepSize (0: the largest step, (endTime - startTime) / numberOfSteps = 0.05 s here) is the first step,
    not bounded by the largest step: 0.2 s is tried, and rejected, where 0.05 s is not."""
    fields = dict(relativeTolerance=1e-2, absoluteTolerance=1e-2)
    ours = adaptive_run(ffexu, ffitems, "DOPRI5", initialStepSize=initial, **fields)
    theirs = adaptive_run(exu, exitems, "DOPRI5", initialStepSize=initial, **fields)
    assert ours[:2] == theirs[:2] == counts
    assert_close(ours[2], theirs[2], 1e-12, "coordinates")
    assert adaptive_run(exu, exitems, "DOPRI5", **fields)[:2] == default_counts


def unit_oscillator(exu, items):
    """x'' = -x from x = 1: with an absolute tolerance alone DOPRI5's error per step is the same at every phase (0.9
    h_opt = 0.1006 s at atol 1e-8)."""
    mbs = exu.SystemContainer().AddSystem()
    node = mbs.AddNode(items.NodeGenericODE2(referenceCoordinates=[0], initialCoordinates=[1],
                                             initialCoordinates_t=[0], numberOfODE2Coordinates=1))
    mbs.AddObject(items.ObjectGenericODE2(nodeNumbers=[node], massMatrix=np.eye(1), stiffnessMatrix=np.eye(1)))
    sensors = [mbs.AddSensor(items.SensorNode(nodeNumber=node, storeInternal=True,
                                              outputVariableType=exu.OutputVariableType.Coordinates))]
    mbs.Assemble()
    return mbs, sensors


def test_at_the_minimum_step_size_the_first_step_is_taken_with_a_warning_as_exudyn(capfd):
    """minimumStepSize between 0.9 h_opt and h_opt: the first step (1 s) gets h_new = minimumStepSize, and exudyn
    takes it with a warning (its error far above 1) instead of repeating it; so does the layer."""
    fields = dict(relativeTolerance=1e-300, absoluteTolerance=1e-8, minimumStepSize=0.105)
    theirs = adaptive_run(exu, exitems, "DOPRI5", unit_oscillator, 3, 3.0, sensor_period=0.0, **fields)
    assert "reached minStepSize" in capfd.readouterr().out
    assert theirs[4][0][1, 0] == 1.0
    with pytest.warns(UserWarning, match="min_step = 0.105"):
        ours = adaptive_run(ffexu, ffitems, "DOPRI5", unit_oscillator, 3, 3.0, sensor_period=0.0, **fields)
    assert ours[:2] == theirs[:2] == (1 + 20, 0)
    assert_close(ours[2], theirs[2], 1e-12, "coordinates")
    assert abs(theirs[2][0] - np.cos(3.0)) > 1e-5


def test_dverk6_which_exudyn_refuses_runs_within_its_tolerance():
    with pytest.raises(Exception, match="not implemented"):
        solve(exu, exitems, "DVERK6", steps=20)
    ours, exact = solve(ffexu, ffitems, "DVERK6", steps=20), solve(ffexu, ffitems, "RK67", steps=400)
    assert_close(ours[0], exact[0], 2e-6, "coordinates against RK67")   # measured 4.4e-9


def test_without_automatic_step_size_dopri5_takes_fixed_steps_as_exudyn():
    # exudyn still rejects a step whose error estimate exceeds its tolerances (and goes on with a smaller one);
    # with tolerances it never exceeds, both take the same fixed steps (with 1e-8: 2e-11 apart)
    fields = {"automaticStepSize": False, "relativeTolerance": 1.0, "absoluteTolerance": 1.0}
    ours, theirs = solve(ffexu, ffitems, "DOPRI5", **fields), solve(exu, exitems, "DOPRI5", **fields)
    for k in range(3):
        assert_close(ours[k], theirs[k], 1e-12, "state")


def tumbling_body(exu, items):
    """A free rigid body on NodeRigidBodyRxyz spinning about all three axes, on a spring, with gravity."""
    mbs = exu.SystemContainer().AddSystem()
    node = mbs.AddNode(items.NodeRigidBodyRxyz(referenceCoordinates=[0, 0, 0, 0, 0, 0],
                                               initialVelocities=[0.1, 0, 0, 3.0, 1.0, 0.5]))
    body = mbs.AddObject(items.ObjectRigidBody(nodeNumber=node, mass=2.0,
                                               inertia=[0.3, 0.5, 0.7, 0.01, 0.0, 0.02],
                                               centerOfMass=[0.05, 0.0, 0.02]))
    ground = mbs.AddObject(items.ObjectGround())
    mbs.AddObject(items.CartesianSpringDamper(markerNumbers=[
        mbs.AddMarker(items.MarkerBodyPosition(bodyNumber=ground, localPosition=[0.4, 0, 0])),
        mbs.AddMarker(items.MarkerBodyPosition(bodyNumber=body, localPosition=[0.4, 0, 0]))],
        stiffness=[40, 40, 40], damping=[0.2, 0.2, 0.2]))
    mbs.AddLoad(items.LoadMassProportional(markerNumber=mbs.AddMarker(items.MarkerBodyMass(bodyNumber=body)),
                                           loadVector=[0, 0, -9.81]))
    sensors = [mbs.AddSensor(items.SensorBody(bodyNumber=body, storeInternal=True,
                                              outputVariableType=getattr(exu.OutputVariableType, v)))
               for v in ("Position", "AngularVelocity")]
    mbs.Assemble()
    return mbs, sensors


@pytest.mark.parametrize("solver_type", ["RK44", "RK67"])
def test_a_tumbling_rigid_body_on_rxyz_agrees(solver_type):
    if not hasattr(ffitems, "NodeRigidBodyRxyz"):
        pytest.skip("the layer has no NodeRigidBodyRxyz")
    ours = solve(ffexu, ffitems, solver_type, build=tumbling_body)
    theirs = solve(exu, exitems, solver_type, build=tumbling_body)
    for k, what in enumerate(("coordinates", "velocities", "accelerations")):
        assert_close(ours[k], theirs[k], 1e-11, what)


def rigid_body_on_euler_parameters(code, items):
    mbs = code.SystemContainer().AddSystem()
    node = mbs.AddNode(items.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0, 1, 0, 0, 0],
                                             initialVelocities=[0, 0, 0, 0, 0.5, 0.2, 0.1]))
    mbs.AddObject(items.ObjectRigidBody(nodeNumber=node, mass=1.0, inertia=[0.1, 0.2, 0.3, 0, 0, 0]))
    return mbs


def two_points_at_a_distance(code, items):
    mbs = code.SystemContainer().AddSystem()
    nodes = [mbs.AddNode(items.NodePoint(referenceCoordinates=[x, 0, 0], initialVelocities=[0, x, 0]))
             for x in (0.0, 1.0)]
    for node in nodes:
        mbs.AddObject(items.MassPoint(nodeNumber=node, mass=1.0))
    mbs.AddObject(items.DistanceConstraint(markerNumbers=[mbs.AddMarker(items.MarkerNodePosition(nodeNumber=node))
                                                          for node in nodes], distance=1.0))
    return mbs


@pytest.mark.parametrize("build, owner, exudyn_says", [
    (rigid_body_on_euler_parameters, "Euler-parameter", "algebraic variables"),
    (two_points_at_a_distance, "DistanceConstraint", "constraints that cannot be solved")])
def test_euler_parameters_and_joints_are_refused_as_exudyn_refuses_them(build, owner, exudyn_says):
    for code, items in ((exu, exitems), (ffexu, ffitems)):
        mbs = build(code, items)
        mbs.Assemble()
        settings = code.SimulationSettings()
        settings.timeIntegration.verboseMode = 0
        with pytest.raises(Exception) as refusal:
            mbs.SolveDynamic(settings, solverType=code.DynamicSolverType.RK44)
        assert ("rk44: " in str(refusal.value) and owner in str(refusal.value)) if code is ffexu \
            else exudyn_says in str(refusal.value)


def test_without_constraint_elimination_both_ignore_the_constraint():
    # eliminateConstraints = False: exudyn warns and integrates as if the CoordinateConstraint were absent
    fields = {"explicit.eliminateConstraints": False}
    ours, theirs = solve(ffexu, ffitems, "RK44", **fields), solve(exu, exitems, "RK44", **fields)
    for k, what in enumerate(("coordinates", "velocities", "accelerations")):
        assert_close(ours[k], theirs[k], 1e-12, what)
    assert ours[0][6] < -0.1                      # the 3D point's y falls under its load of -4 N
