"""ObjectRotationalMass1D and ObjectConnectorGravity (issue 28, item 2) against exudyn 1.13.6.

Claims: a rotor on a tilted axis driven by a torque on its rigid marker and coupled to a second rotor by a coordinate
spring: its outputs equal exudyn's; three mass points attracting each other (one pair inside the regularization
distance) over 300 steps: positions and the connector outputs equal exudyn's to 1e-9 of their scale."""
import numpy as np
import pytest

from exudyn_style_models import full_newton_settings

import floatframe.exudyn as ffexu
from floatframe.exudyn import itemInterface as ffitems

exudyn = pytest.importorskip("exudyn")
import exudyn.itemInterface as exitems  # noqa: E402

AXES = np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0.0]])


def settings_of(exu, steps, end):
    settings = full_newton_settings(exu, steps, end)
    return settings


def rotors(exu, items):
    mbs = exu.SystemContainer().AddSystem()
    nodes = [mbs.AddNode(items.Node1D(referenceCoordinates=[1.0 * k], initialVelocities=[0.5 - k])) for k in range(2)]
    bodies = [mbs.AddObject(items.ObjectRotationalMass1D(nodeNumber=nodes[0], inertia=0.8, referencePosition=[1, 2, 3],
                                                         referenceRotation=AXES)),
              mbs.AddObject(items.Rotor1D(nodeNumber=nodes[1], physicsInertia=0.3))]
    frame = mbs.AddMarker(items.MarkerBodyRigid(bodyNumber=bodies[0], localPosition=[0.1, 0.2, 0.3]))
    mbs.AddLoad(items.LoadTorqueVector(markerNumber=frame, loadVector=[2.0, 0.5, -1.0]))
    coordinates = [mbs.AddMarker(items.MarkerNodeCoordinate(nodeNumber=n, coordinate=0)) for n in nodes]
    mbs.AddObject(items.ObjectConnectorCoordinateSpringDamper(markerNumbers=coordinates, stiffness=20, damping=0.3))
    variables = ("Position", "Displacement", "Velocity", "RotationMatrix", "Rotation", "AngularVelocity",
                 "AngularVelocityLocal")
    sensors = [mbs.AddSensor(items.SensorBody(bodyNumber=b, localPosition=[0.1, 0.2, 0.3], storeInternal=True,
                                              outputVariableType=getattr(exu.OutputVariableType, v)))
               for b in bodies for v in variables]
    sensors += [mbs.AddSensor(items.SensorMarker(markerNumber=frame, storeInternal=True,
                                                 outputVariableType=exu.OutputVariableType.AngularVelocity))]
    mbs.Assemble()
    exu.SolveDynamic(mbs, settings_of(exu, 200, 2.0))
    return [mbs.GetSensorStoredData(s) for s in sensors]


def planets(exu, items):
    mbs = exu.SystemContainer().AddSystem()
    start = [([0, 0, 0], [0, -0.1, 0]), ([1, 0, 0], [0, 1.0, 0.1]), ([0.1, 0.05, 0], [0.2, 0.3, 0])]
    nodes = [mbs.AddNode(items.NodePoint(referenceCoordinates=p, initialVelocities=v)) for p, v in start]
    masses = [5.0, 1.0, 0.5]
    for node, mass in zip(nodes, masses):
        mbs.AddObject(items.ObjectMassPoint(nodeNumber=node, mass=mass))
    markers = [mbs.AddMarker(items.MarkerNodePosition(nodeNumber=n)) for n in nodes]
    connectors = [mbs.AddObject(items.ObjectConnectorGravity(
        markerNumbers=[markers[i], markers[j]], gravitationalConstant=0.2, mass0=masses[i], mass1=masses[j],
        minDistanceRegularization=0.3)) for i, j in ((0, 1), (0, 2), (1, 2))]
    sensors = [mbs.AddSensor(items.SensorNode(nodeNumber=n, storeInternal=True,
                                              outputVariableType=exu.OutputVariableType.Position)) for n in nodes]
    sensors += [mbs.AddSensor(items.SensorObject(objectNumber=c, storeInternal=True,
                                                 outputVariableType=getattr(exu.OutputVariableType, v)))
                for c in connectors for v in ("Force", "Distance", "Displacement")]
    mbs.Assemble()
    exu.SolveDynamic(mbs, settings_of(exu, 300, 1.5))
    return [mbs.GetSensorStoredData(s) for s in sensors]


@pytest.mark.parametrize("model", [rotors, planets], ids=["rotors", "planets"])
def test_equals_exudyn(model):
    ours, theirs = model(ffexu, ffitems), model(exudyn, exitems)
    for mine, reference in zip(ours, theirs):
        assert mine.shape == reference.shape
        scale = max(np.abs(reference[:, 1:]).max(), 1e-3)
        assert np.abs(mine - reference).max() <= 1e-9 * scale


def test_planets_test_both_branches_of_the_force():
    sensors = planets(exudyn, exitems)
    assert sensors[7][:, 1].max() < 0.3 < sensors[4][:, 1].min()     # pair (0, 2) inside r_min, (0, 1) outside
