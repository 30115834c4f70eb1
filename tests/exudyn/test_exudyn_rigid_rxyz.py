"""NodeRigidBodyRxyz (issue 28, item 2): rigid bodies on Tait-Bryan angles, their markers, and
systemData.GetODE2CoordinatesTotal, against exudyn 1.13.6.

Claims: a top on a spherical joint (centre of mass off the node, gravity, a body-fixed torque) and a second body on
a rigid-body spring-damper and a torsional spring to it: node and body outputs over 300 steps equal exudyn's to 1e-9
of their scale; GetODE2CoordinatesTotal equals exudyn's before and after a solve."""
import numpy as np
import pytest

from exudyn_style_models import full_newton_settings

import floatframe.exudyn as ffexu
from floatframe.exudyn import itemInterface as ffitems

exudyn = pytest.importorskip("exudyn")
import exudyn.itemInterface as exitems  # noqa: E402

NODE = ["Position", "Velocity", "Rotation", "RotationMatrix", "AngularVelocity", "AngularVelocityLocal",
        "Coordinates", "Coordinates_t"]
BODY = ["Position", "Velocity", "AngularVelocity", "Acceleration", "RotationMatrix"]


def tops(exu, items):
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.AddObject(items.ObjectGround())
    top = mbs.AddNode(items.NodeRigidBodyRxyz(referenceCoordinates=[0, 0, 0, 0.3, -0.2, 0.1],
                                              initialVelocities=[0, 0, 0, 0.5, 0.2, 6.0]))
    body = mbs.AddObject(items.ObjectRigidBody(nodeNumber=top, mass=2.0, inertia=[0.2, 0.21, 0.02, 0, 0, 0.001],
                                               centerOfMass=[0, 0.01, 0.2]))
    pivot = [mbs.AddMarker(items.MarkerBodyRigid(bodyNumber=ground)),
             mbs.AddMarker(items.MarkerNodeRigid(nodeNumber=top))]
    mbs.AddObject(items.ObjectJointSpherical(markerNumbers=pivot))
    mbs.AddLoad(items.LoadMassProportional(markerNumber=mbs.AddMarker(items.MarkerBodyMass(bodyNumber=body)),
                                           loadVector=[0, 0, -9.81]))
    tip = mbs.AddMarker(items.MarkerBodyRigid(bodyNumber=body, localPosition=[0, 0, 0.3]))
    mbs.AddLoad(items.LoadTorqueVector(markerNumber=tip, loadVector=[0.1, 0, 0.2], bodyFixed=True))
    second = mbs.AddNode(items.NodeRigidBodyRxyz(referenceCoordinates=[0, 0, 0.5, 0, 0, 0],
                                                 initialVelocities=[0.1, 0, 0, 0, 0.3, 0]))
    other = mbs.AddObject(items.ObjectRigidBody(nodeNumber=second, mass=1.0, inertia=[0.01, 0.02, 0.03, 0, 0, 0]))
    frame = mbs.AddMarker(items.MarkerBodyRigid(bodyNumber=other, localPosition=[0, 0, -0.2]))
    mbs.AddObject(items.ObjectConnectorRigidBodySpringDamper(markerNumbers=[tip, frame],
                                                             stiffness=np.diag([500, 500, 500, 2, 2, 2]),
                                                             damping=np.diag([1, 1, 1, 0.01, 0.01, 0.01])))
    mbs.AddObject(items.ObjectConnectorTorsionalSpringDamper(markerNumbers=[pivot[0], frame], stiffness=0.5,
                                                             damping=0.01))
    sensors = [mbs.AddSensor(items.SensorNode(nodeNumber=n, storeInternal=True,
                                              outputVariableType=getattr(exu.OutputVariableType, v)))
               for n in (top, second) for v in NODE]
    sensors += [mbs.AddSensor(items.SensorBody(bodyNumber=b, localPosition=[0.02, 0, 0.1], storeInternal=True,
                                               outputVariableType=getattr(exu.OutputVariableType, v)))
                for b in (body, other) for v in BODY]
    mbs.Assemble()
    totals = [mbs.systemData.GetODE2CoordinatesTotal(configuration=exu.ConfigurationType.Initial)]
    settings = full_newton_settings(exu, 300, 0.6)
    exu.SolveDynamic(mbs, settings)
    totals.append(mbs.systemData.GetODE2CoordinatesTotal())
    return [mbs.GetSensorStoredData(s) for s in sensors], totals


def test_tops_equal_exudyns():
    (ours, our_totals), (theirs, their_totals) = tops(ffexu, ffitems), tops(exudyn, exitems)
    for mine, reference in zip(ours, theirs):
        assert mine.shape == reference.shape
        scale = max(np.abs(reference[:, 1:]).max(), 1e-3)
        assert np.abs(mine - reference).max() <= 1e-9 * scale
    for mine, reference in zip(our_totals, their_totals):
        np.testing.assert_allclose(mine, reference, rtol=0, atol=1e-9 * np.abs(reference).max())
    assert np.abs(their_totals[1] - their_totals[0]).max() > 0.5            # it turned


def created(exu, utilities):
    mbs = exu.SystemContainer().AddSystem()
    body = mbs.CreateRigidBody(inertia=utilities.InertiaCuboid(1000, [0.1, 0.2, 0.3]), referencePosition=[1, 2, 3],
                               referenceRotationMatrix=utilities.RotationMatrixY(0.4) @ utilities.RotationMatrixZ(0.2),
                               initialRotationMatrix=utilities.RotationMatrixX(0.1), initialVelocity=[0.1, 0, 0],
                               initialAngularVelocity=[0.5, -1.0, 2.0], gravity=[0, 0, -9.81],
                               nodeType=exu.NodeType.RotationRxyz)
    node = mbs.GetObject(body)["nodeNumber"]
    data = {key: np.asarray(mbs.GetNode(node)[key], dtype=float)
            for key in ("referenceCoordinates", "initialCoordinates", "initialVelocities")}
    sensor = mbs.AddSensor(exu.itemInterface.SensorBody(bodyNumber=body, localPosition=[0.05, 0, 0], storeInternal=True,
                                                         outputVariableType=exu.OutputVariableType.Velocity))
    mbs.Assemble()
    settings = full_newton_settings(exu, 100, 0.5)
    exu.SolveDynamic(mbs, settings)
    return mbs.GetNode(node)["nodeType"], data, mbs.GetSensorStoredData(sensor)


def test_create_rigid_body_on_tait_bryan_angles_equals_exudyns():
    import exudyn.utilities as exudyn_utilities
    import floatframe.exudyn.itemInterface  # noqa: F401  (exu.itemInterface)
    import floatframe.exudyn.utilities as layer_utilities

    (our_type, ours, our_velocity), (their_type, theirs, their_velocity) = (
        created(ffexu, layer_utilities), created(exudyn, exudyn_utilities))
    assert str(our_type).endswith("RigidBodyRxyz") and str(their_type).endswith("RigidBodyRxyz")
    for key in ours:
        np.testing.assert_allclose(ours[key], theirs[key], rtol=0, atol=1e-14)
    assert np.abs(our_velocity - their_velocity).max() <= 1e-9 * np.abs(their_velocity[:, 1:]).max()
