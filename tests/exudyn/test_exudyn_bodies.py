"""Exudyn-style scripts for the bodies, markers and loads of issue 9, each run with exudyn 1.13.6 and with
floatframe.exudyn: the sensors agree to a relative 1e-6 of their range (measured numbers in each test)."""
import numpy as np
import pytest

import floatframe.exudyn as fexu
import floatframe.exudyn.itemInterface as fii
import floatframe.exudyn.rigidBodyUtilities as frbu

pytestmark = pytest.mark.exudyn

THETA = np.array([0.9, 0.1, -0.3, 0.2]) / np.linalg.norm([0.9, 0.1, -0.3, 0.2])


def settings(exu, steps, end_time):
    simulation = exu.SimulationSettings()
    simulation.timeIntegration.numberOfSteps = steps
    simulation.timeIntegration.endTime = end_time
    simulation.timeIntegration.newton.relativeTolerance = 1e-12
    simulation.timeIntegration.newton.absoluteTolerance = 1e-14
    simulation.timeIntegration.verboseMode = 0
    simulation.solution.sensors.writePeriod = end_time / steps
    simulation.solution.file.write = False
    return simulation


def sensor(exu, ii, mbs, kind, number, variable, **options):
    """A stored sensor on a node ('Node') or a body ('Body'), of the variable named."""
    target = {"Node": "nodeNumber", "Body": "bodyNumber", "Object": "objectNumber"}[kind]
    return mbs.AddSensor(getattr(ii, "Sensor" + kind)(**{target: number}, storeInternal=True, writeToFile=False,
                                                       outputVariableType=getattr(exu.OutputVariableType, variable),
                                                       **options))


def run_both(builder, steps=200, end_time=0.2):
    """Sensor data of the script on exudyn and on floatframe.exudyn: two lists of (k, 1 + size) arrays."""
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as ii
    import exudyn.rigidBodyUtilities as rbu
    data = []
    for module, items, utilities in ((exu, ii, rbu), (fexu, fii, frbu)):
        mbs, sensors = builder(module, items, utilities)
        mbs.Assemble()
        module.SolveDynamic(mbs, settings(module, steps, end_time))
        data.append([np.asarray(mbs.GetSensorStoredData(s)) for s in sensors])
    return data


def largest_deviation(reference, ours):
    """Largest |ours - reference| over all sensors, each relative to its reference's largest entry."""
    worst = 0.0
    for exudyn_data, floatframe_data in zip(reference, ours):
        assert floatframe_data.shape == exudyn_data.shape
        np.testing.assert_allclose(floatframe_data[:, 0], exudyn_data[:, 0], atol=1e-12)
        scale = np.abs(exudyn_data[:, 1:]).max()
        worst = max(worst, np.abs(floatframe_data[:, 1:] - exudyn_data[:, 1:]).max() / scale)
    return worst


# --- ObjectRigidBody with its centre of mass away from the node ----------------------------------------
def offset_rigid_bodies(exu, ii, rbu):
    """Two bodies with the centre of mass away from the node under gravity: one by ObjectRigidBody with centerOfMass
    (physicsCenterOfMass in older Exudyn), hanging on a spherical joint at its node; one free, by CreateRigidBody with a
    translated InertiaCuboid, spinning about a skew axis, with a body-fixed force at a point."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.AddObject(ii.ObjectGround())
    omega = np.array([2.0, -1.0, 3.0])
    g_matrix = 2 * np.array([[-THETA[1], THETA[0], -THETA[3], THETA[2]], [-THETA[2], THETA[3], THETA[0], -THETA[1]],
                             [-THETA[3], -THETA[2], THETA[1], THETA[0]]])
    node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0] + list(THETA),
                                          initialVelocities=[0, 0, 0] + list(0.25 * g_matrix.T @ omega)))
    hanging = mbs.AddObject(ii.ObjectRigidBody(nodeNumber=node, mass=2.0,
                                               inertia=[0.5, 0.6, 0.3, 0.01, -0.02, 0.03],
                                               centerOfMass=[0.1, -0.2, -0.4]))
    mbs.AddObject(ii.ObjectJointSpherical(markerNumbers=[mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=ground)),
                                                         mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=hanging))]))
    mbs.AddLoad(ii.LoadMassProportional(markerNumber=mbs.AddMarker(ii.MarkerBodyMass(bodyNumber=hanging)),
                                        loadVector=[0, 0, -9.81]))
    inertia = rbu.InertiaCuboid(density=500.0, sideLengths=[0.4, 0.2, 0.1]).Translated([0.2, 0.05, -0.1])
    free = mbs.CreateRigidBody(referencePosition=[1.0, 0.5, 0.0],
                               referenceRotationMatrix=rbu.RotationMatrixZ(0.4) @ rbu.RotationMatrixX(-0.3),
                               initialVelocity=[0.2, 0.0, 1.0], initialAngularVelocity=[1.0, 4.0, -2.0],
                               inertia=inertia, gravity=[0, 0, -9.81], returnDict=True)
    point = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=free["bodyNumber"], localPosition=[-0.2, 0.1, 0.05]))
    mbs.AddLoad(ii.LoadForceVector(markerNumber=point, loadVector=[0.0, 3.0, 1.0], bodyFixed=True))
    sensors = [sensor(exu, ii, mbs, "Body", body, variable, localPosition=local)
               for body, local in ((hanging, [0.1, -0.2, -0.4]), (free["bodyNumber"], list(inertia.com)))
               for variable in ("Position", "Velocity", "AngularVelocity")]
    sensors.append(sensor(exu, ii, mbs, "Node", node, "Coordinates"))
    return mbs, sensors


def test_rigid_bodies_with_their_centre_of_mass_away_from_the_node_match_exudyn():
    """ObjectRigidBody physicsCenterOfMass and CreateRigidBody with inertia.com != 0 (measured: 3e-9)."""
    reference, ours = run_both(offset_rigid_bodies)
    assert largest_deviation(reference, ours) < 1e-6
