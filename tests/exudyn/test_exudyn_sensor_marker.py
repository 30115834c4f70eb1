"""SensorMarker (issue 28, item 3): every output variable of every kind of marker exudyn 1.13.6 offers, on a
tumbling rigid body on a spring and a mass point, against exudyn's stored sensor values."""
import numpy as np
import pytest

from exudyn_style_models import full_newton_settings

import floatframe.exudyn as ffexu
from floatframe.exudyn import ExudynLayerError
from floatframe.exudyn import itemInterface as ffitems

RIGID = ["Position", "Displacement", "Velocity", "Rotation", "RotationMatrix", "AngularVelocity", "AngularVelocityLocal",
         "HomogeneousTransformation"]
POSITION = ["Position", "Displacement", "Velocity"]
COORDINATE = ["Coordinates", "Coordinates_t"]


def tumbling_body(exu, items):
    """(mbs, sensors, settings): a rigid body turning about a tilted axis on a Cartesian spring to the ground, a
    mass point under a force; SensorMarker on body, node and coordinate markers."""
    mbs = exu.SystemContainer().AddSystem()
    theta = np.array([0.9, 0.3, -0.2, 0.25])
    theta /= np.linalg.norm(theta)
    omega = np.array([0.5, -1.0, 2.0])
    e0, e = theta[0], theta[1:]
    rates = 0.5 * np.concatenate([[-e @ omega], e0 * omega - np.cross(omega, e)])   # theta_t of global omega
    node = mbs.AddNode(items.NodeRigidBodyEP(referenceCoordinates=[0.2, 0.1, 0.0, *theta],
                                             initialVelocities=[0.3, 0.0, -0.1, *rates]))
    body = mbs.AddObject(items.ObjectRigidBody(nodeNumber=node, mass=2.0, inertia=[0.3, 0.4, 0.5, 0, 0, 0]))
    ground = mbs.AddObject(items.ObjectGround())
    point = mbs.AddNode(items.NodePoint(referenceCoordinates=[1, 2, 3], initialVelocities=[0, 0.5, 0]))
    mbs.AddObject(items.ObjectMassPoint(nodeNumber=point, mass=1.5))
    markers = {
        "BodyRigid": mbs.AddMarker(items.MarkerBodyRigid(bodyNumber=body, localPosition=[0.1, -0.2, 0.3])),
        "BodyPosition": mbs.AddMarker(items.MarkerBodyPosition(bodyNumber=body, localPosition=[-0.3, 0.1, 0.2])),
        "NodeRigid": mbs.AddMarker(items.MarkerNodeRigid(nodeNumber=node)),
        "NodePosition": mbs.AddMarker(items.MarkerNodePosition(nodeNumber=point)),
        "NodeCoordinate": mbs.AddMarker(items.MarkerNodeCoordinate(nodeNumber=point, coordinate=1)),
    }
    anchor = mbs.AddMarker(items.MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, 0]))
    mbs.AddObject(items.ObjectConnectorCartesianSpringDamper(markerNumbers=[anchor, markers["BodyPosition"]],
                                                             stiffness=[50, 80, 60], damping=[0.5, 0.5, 0.5]))
    mbs.AddLoad(items.LoadForceVector(markerNumber=markers["NodePosition"], loadVector=[0.5, -1.0, 2.0]))
    variables = {"BodyRigid": RIGID, "NodeRigid": RIGID, "BodyPosition": POSITION, "NodePosition": POSITION,
                 "NodeCoordinate": COORDINATE}
    sensors = {(kind, variable): mbs.AddSensor(items.SensorMarker(
        markerNumber=markers[kind], outputVariableType=getattr(exu.OutputVariableType, variable), storeInternal=True))
        for kind, names in variables.items() for variable in names}
    mbs.Assemble()
    settings = full_newton_settings(exu, 200, 0.4)
    return mbs, sensors, settings


def recorded(exu, items):
    mbs, sensors, settings = tumbling_body(exu, items)
    exu.SolveDynamic(mbs, settings)
    return {key: mbs.GetSensorStoredData(number) for key, number in sensors.items()}


@pytest.mark.exudyn
def test_sensor_marker_records_what_exudyn_records():
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    reference = recorded(exu, items)
    ours = recorded(ffexu, ffitems)
    assert ours.keys() == reference.keys() and len(ours) == 24
    for key, data in reference.items():
        assert ours[key].shape == data.shape, key
        scale = max(np.abs(data[:, 1:]).max(), 1e-3)
        np.testing.assert_allclose(ours[key], data, rtol=0, atol=1e-9 * scale, err_msg=str(key))
        if key[1] not in ("RotationMatrix", "HomogeneousTransformation") and key[0] != "NodeCoordinate":
            assert np.ptp(data[:, 1:], axis=0).max() > 1e-3, key     # the outputs move


def test_sensor_marker_refuses_what_the_marker_does_not_have_naming_the_supported():
    mbs, _, _ = tumbling_body(ffexu, ffitems)
    mbs.AddSensor(ffitems.SensorMarker(markerNumber=1, outputVariableType=ffexu.OutputVariableType.Rotation))
    with pytest.raises(ExudynLayerError, match=r"MarkerBodyPosition 1 .*\['Position', 'Displacement', 'Velocity'\]\): "
                                               r"unknown output variable 'Rotation'"):
        mbs.Assemble()
    mbs, _, _ = tumbling_body(ffexu, ffitems)
    mass = mbs.AddMarker(ffitems.MarkerBodyMass(bodyNumber=0))
    with pytest.raises(ExudynLayerError, match="no output variables for GetMarkerOutput and SensorMarker"):
        mbs.AddSensor(ffitems.SensorMarker(markerNumber=mass, outputVariableType=ffexu.OutputVariableType.Position))
        mbs.Assemble()


def test_get_marker_output_equals_exudyns_after_a_solve():
    exudyn = pytest.importorskip("exudyn")
    import exudyn.itemInterface as exitems

    values = []
    for exu, items in ((ffexu, ffitems), (exudyn, exitems)):
        mbs, sensors, settings = tumbling_body(exu, items)
        exu.SolveDynamic(mbs, settings)
        markers = {"BodyRigid": 0, "BodyPosition": 1, "NodeRigid": 2, "NodePosition": 3, "NodeCoordinate": 4}
        values.append({(kind, variable): np.asarray(mbs.GetMarkerOutput(markers[kind],
                                                                        getattr(exu.OutputVariableType, variable)))
                       for kind, variable in sensors
                       if variable not in ("HomogeneousTransformation", "Displacement")})
    ours, theirs = values
    assert len(ours) == len(theirs) >= 15
    for key, reference in theirs.items():
        np.testing.assert_allclose(ours[key].reshape(-1), reference.reshape(-1), rtol=0,
                                   atol=1e-9 * max(np.abs(reference).max(), 1.0), err_msg=str(key))
    with pytest.raises(ExudynLayerError, match="GetMarkerOutput"):
        ffexu.SystemContainer().AddSystem().GetMarkerOutput(0, ffexu.OutputVariableType.Position)
