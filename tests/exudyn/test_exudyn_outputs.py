"""Output variables of the layer agree with exudyn 1.13.6: rigid-body and node sensors, GetXOutput, joint forces."""
import numpy as np
import pytest

import floatframe.exudyn as fexu
import floatframe.exudyn.itemInterface as fii

pytestmark = pytest.mark.exudyn

THETA = np.array([0.9, 0.1, -0.3, 0.2]) / np.linalg.norm([0.9, 0.1, -0.3, 0.2])
OMEGA = np.array([3.0, -1.0, 2.0])
POINT = [0.3, -0.2, 0.5]
NODE_VARIABLES = ["Position", "Velocity", "Acceleration", "Displacement", "Coordinates", "CoordinatesTotal",
                  "Rotation", "RotationMatrix", "AngularVelocity", "AngularVelocityLocal", "AngularAcceleration"]
BODY_VARIABLES = ["Position", "Displacement", "Velocity", "VelocityLocal", "Acceleration", "AccelerationLocal",
                  "AngularVelocity", "AngularVelocityLocal", "AngularAcceleration", "AngularAccelerationLocal",
                  "Rotation", "RotationMatrix"]


def exudyn_modules():
    exudyn = pytest.importorskip("exudyn")
    import exudyn.itemInterface as ii
    return exudyn, ii


def settings(exu, steps, end_time):
    simulation = exu.SimulationSettings()
    simulation.timeIntegration.numberOfSteps = steps
    simulation.timeIntegration.endTime = end_time
    simulation.timeIntegration.newton.relativeTolerance = 1e-12
    simulation.timeIntegration.verboseMode = 0
    simulation.solution.sensors.writePeriod = end_time / steps
    simulation.solution.file.write = False  # no coordinatesSolution.txt from exudyn
    return simulation


def tumbling_body(exu, ii):
    """A rigid body (asymmetric inertia) spinning about a skew axis, on a spring to the ground, under gravity."""
    mbs = exu.SystemContainer().AddSystem()
    g_matrix = 2 * np.array([[-THETA[1], THETA[0], -THETA[3], THETA[2]], [-THETA[2], THETA[3], THETA[0], -THETA[1]],
                             [-THETA[3], -THETA[2], THETA[1], THETA[0]]])
    theta_t = 0.25 * g_matrix.T @ OMEGA
    ground = mbs.AddObject(ii.ObjectGround())
    node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[1, 2, 3] + list(THETA),
                                          initialVelocities=[0.1, 0.2, 0.3] + list(theta_t)))
    body = mbs.AddObject(ii.ObjectRigidBody(mass=2.0, inertia=[1.5, 2, 3, 0.1, 0.2, 0.3], nodeNumber=node))
    anchor = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[1, 2, 4]))
    point = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=body, localPosition=POINT))
    centre = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body))
    mbs.AddObject(ii.ObjectConnectorCartesianSpringDamper(markerNumbers=[anchor, point], stiffness=[50, 60, 70],
                                                          damping=[1, 1, 1]))
    mbs.AddLoad(ii.LoadForceVector(markerNumber=centre, loadVector=[0, 0, -9.81 * 2]))
    return mbs, node, body


def tumbling_sensor_data(exu, ii):
    mbs, node, body = tumbling_body(exu, ii)
    variables = exu.OutputVariableType
    sensors = {("node", name): mbs.AddSensor(ii.SensorNode(nodeNumber=node, outputVariableType=getattr(variables, name),
                                                           storeInternal=True, writeToFile=False))
               for name in NODE_VARIABLES}
    sensors.update({("body", name): mbs.AddSensor(ii.SensorBody(
        bodyNumber=body, localPosition=POINT, outputVariableType=getattr(variables, name), storeInternal=True,
        writeToFile=False)) for name in BODY_VARIABLES})
    mbs.Assemble()
    exu.SolveDynamic(mbs, settings(exu, 200, 1.0))
    return {key: mbs.GetSensorStoredData(number) for key, number in sensors.items()}


@pytest.fixture(scope="module")
def tumbling_data():
    exudyn, ii = exudyn_modules()
    return tumbling_sensor_data(exudyn, ii), tumbling_sensor_data(fexu, fii)


def assert_close_to_exudyn(ours, reference, rtol=1e-9):
    """Equal shapes and every entry within rtol of the largest reference value."""
    assert ours.shape == reference.shape
    scale = max(1.0, np.abs(reference).max())
    np.testing.assert_allclose(ours, reference, rtol=0, atol=rtol * scale)


@pytest.mark.parametrize("variable", NODE_VARIABLES)
def test_rigid_node_sensors_match_exudyn_on_a_tumbling_body(tumbling_data, variable):
    reference, ours = tumbling_data
    assert_close_to_exudyn(ours[("node", variable)], reference[("node", variable)])


@pytest.mark.parametrize("variable", BODY_VARIABLES)
def test_rigid_body_sensors_at_a_local_point_match_exudyn_on_a_tumbling_body(tumbling_data, variable):
    reference, ours = tumbling_data
    assert_close_to_exudyn(ours[("body", variable)], reference[("body", variable)])


def test_the_tumbling_body_really_tumbles(tumbling_data):
    _, ours = tumbling_data
    alpha = ours[("node", "AngularAcceleration")][:, 1:]
    rotation = ours[("node", "Rotation")][:, 1:]
    assert np.abs(alpha).max() > 5.0 and np.ptp(rotation, axis=0).min() > 0.5


def test_outputs_of_the_initial_state_match_exudyn():
    exudyn, ii = exudyn_modules()
    systems = []
    for exu, items in ((exudyn, ii), (fexu, fii)):
        mbs, node, body = tumbling_body(exu, items)
        mbs.Assemble()
        variables = exu.OutputVariableType
        systems.append([np.asarray(mbs.GetNodeOutput(node, getattr(variables, name))) for name in NODE_VARIABLES]
                       + [np.asarray(mbs.GetObjectOutputBody(body, getattr(variables, name), localPosition=POINT))
                          for name in BODY_VARIABLES])
    for reference, ours in zip(*systems):
        np.testing.assert_allclose(ours, reference, rtol=0, atol=1e-12)


def test_point_and_ground_node_outputs_match_exudyn():
    exudyn, ii = exudyn_modules()
    values = []
    for exu, items in ((exudyn, ii), (fexu, fii)):
        mbs = exu.SystemContainer().AddSystem()
        point = mbs.AddNode(items.NodePoint(referenceCoordinates=[1, 2, 3], initialCoordinates=[0.1, 0.2, 0.3],
                                            initialVelocities=[1, 0, 0]))
        ground = mbs.AddNode(items.NodePointGround(referenceCoordinates=[4, 5, 6]))
        mbs.Assemble()
        variables = exu.OutputVariableType
        values.append([np.asarray(mbs.GetNodeOutput(number, getattr(variables, name)))
                       for number in (point, ground)
                       for name in ("Position", "Displacement", "Velocity", "CoordinatesTotal", "Coordinates")])
    for reference, ours in zip(*values):
        np.testing.assert_allclose(ours, reference, rtol=0, atol=1e-14)


def pendulum_force(exu, ii, joint, body_marker_first):
    """Force sensor of a joint (or spring) holding a rigid pendulum released horizontally at the ground."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.AddObject(ii.ObjectGround())
    node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[1, 0, 0, 1, 0, 0, 0]))
    body = mbs.AddObject(ii.ObjectRigidBody(mass=2.0, inertia=[0.1, 0.1, 0.1, 0, 0, 0], nodeNumber=node))
    pivot = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground))
    end = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=body, localPosition=[-1, 0, 0]))
    markers = [end, pivot] if body_marker_first else [pivot, end]
    if joint == "SphericalJoint":
        connector = mbs.AddObject(ii.ObjectJointSpherical(markerNumbers=markers))
    else:
        connector = mbs.AddObject(ii.ObjectConnectorCartesianSpringDamper(markerNumbers=markers,
                                                                          stiffness=[2e3, 2e3, 2e3], damping=[5, 5, 5]))
    mbs.AddLoad(ii.LoadForceVector(markerNumber=mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body)),
                                   loadVector=[0, 0, -9.81 * 2]))
    sensor = mbs.AddSensor(ii.SensorObject(objectNumber=connector, outputVariableType=exu.OutputVariableType.Force,
                                           storeInternal=True, writeToFile=False))
    mbs.Assemble()
    exu.SolveDynamic(mbs, settings(exu, 100, 0.5))
    return mbs.GetSensorStoredData(sensor)


@pytest.mark.parametrize("joint", ["SphericalJoint", "CartesianSpringDamper"])
@pytest.mark.parametrize("body_marker_first", [False, True])
def test_connector_force_has_exudyns_sign_and_marker(joint, body_marker_first):
    exudyn, ii = exudyn_modules()
    reference = pendulum_force(exudyn, ii, joint, body_marker_first)
    ours = pendulum_force(fexu, fii, joint, body_marker_first)
    assert_close_to_exudyn(ours, reference, rtol=1e-7)
    # Force is the force on marker 0: on the ground (pulled towards the falling body: down) when the
    # ground marker comes first, on the body (held up) otherwise.
    assert np.sign(ours[-1, 3]) == (1 if body_marker_first else -1)


def load_sensor_data(exu, ii):
    """SensorLoad on a body-fixed torque, a force with a user function and a coordinate load, on a tumbling body."""
    mbs, node, body = tumbling_body(exu, ii)
    centre = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body, localPosition=POINT))
    coordinate = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=node, coordinate=1))
    loads = [mbs.AddLoad(ii.LoadTorqueVector(markerNumber=centre, loadVector=[0.5, -0.2, 0.1], bodyFixed=True)),
             mbs.AddLoad(ii.LoadForceVector(markerNumber=centre, loadVector=[1, 2, 3],
                                            loadVectorUserFunction=lambda mbs, t, load: np.sin(3 * t) * np.array(load))),
             mbs.AddLoad(ii.LoadCoordinate(markerNumber=coordinate, load=2.0,
                                           loadUserFunction=lambda mbs, t, load: load * t ** 2))]
    sensors = [mbs.AddSensor(ii.SensorLoad(loadNumber=load, storeInternal=True, writeToFile=False)) for load in loads]
    mbs.Assemble()
    exu.SolveDynamic(mbs, settings(exu, 50, 0.5))
    return [mbs.GetSensorStoredData(number) for number in sensors]


def test_load_sensors_record_the_load_as_exudyn_does():
    """The given load (body axes for a body-fixed one), user functions evaluated at each stored time."""
    exudyn, ii = exudyn_modules()
    reference, ours = load_sensor_data(exudyn, ii), load_sensor_data(fexu, fii)
    for mine, theirs in zip(ours, reference):
        assert_close_to_exudyn(mine, theirs, rtol=1e-12)
    assert np.ptp(ours[1][:, 2]) > 1.9                        # the user function's force does change (y: 2 sin 3t)
