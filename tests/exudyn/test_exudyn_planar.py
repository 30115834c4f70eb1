"""Planar items (issue 28, item 2): NodePoint2D, NodeRigidBody2D, ObjectMassPoint2D, ObjectRigidBody2D,
ObjectJointRevolute2D, ObjectJointPrismatic2D and the markers on them, against exudyn 1.13.6.

Claims: a pendulum of two rigid bodies (centres of mass off the nodes) hinged to the ground and to each other, a
slider on a prismatic joint along a body, a torque on a body marker, a 2D mass point on a spring with gravity: the
node coordinates and the body, marker and joint sensors over 300 steps equal exudyn's to 1e-8 of their scale.
Wrong nodes are refused naming the item."""
import numpy as np
import pytest

from exudyn_style_models import full_newton_settings

import floatframe.exudyn as ffexu
from floatframe.errors import ModelError
from floatframe.exudyn import itemInterface as ffitems

BODY = ["Position", "Velocity", "Rotation", "AngularVelocity", "Acceleration"]


def planar_mechanism(exu, items):
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.AddObject(items.ObjectGround())
    nodes, bodies = [], []
    for k, x in enumerate([0.5, 1.4]):                  # consistent start: hinges closed, at rest
        nodes.append(mbs.AddNode(items.NodeRigidBody2D(referenceCoordinates=[x, 0.1 * k, 0.0])))
        bodies.append(mbs.AddObject(items.ObjectRigidBody2D(nodeNumber=nodes[-1], mass=2.0 - 0.5 * k,
                                                            inertia=0.3 + 0.1 * k, centerOfMass=[0.05, -0.02 * k])))
    marker = lambda body, p: mbs.AddMarker(items.MarkerBodyRigid(bodyNumber=body, localPosition=p))  # noqa: E731
    hinge0 = marker(ground, [0, 0, 0])
    ends0 = [marker(bodies[0], [-0.5, 0, 0]), marker(bodies[0], [0.45, 0, 0])]
    start1 = marker(bodies[1], [-0.45, -0.1, 0])
    mbs.AddObject(items.ObjectJointRevolute2D(markerNumbers=[hinge0, ends0[0]]))
    mbs.AddObject(items.ObjectJointRevolute2D(markerNumbers=[ends0[1], start1]))
    slider_node = mbs.AddNode(items.NodeRigidBody2D(referenceCoordinates=[1.4, 0.1, 0.0]))
    slider = mbs.AddObject(items.ObjectRigidBody2D(nodeNumber=slider_node, mass=0.4, inertia=0.01))
    slider_marker = mbs.AddMarker(items.MarkerNodeRigid(nodeNumber=slider_node))
    mbs.AddObject(items.ObjectJointPrismatic2D(markerNumbers=[marker(bodies[1], [0, 0, 0]), slider_marker],
                                               axisMarker0=[1, 0, 0], normalMarker1=[0, 1, 0]))
    mbs.AddObject(items.ObjectConnectorSpringDamper(markerNumbers=[marker(bodies[1], [0.3, 0, 0]),
                                                                   marker(slider, [0, 0, 0])],
                                                    referenceLength=0.3, stiffness=40, damping=0.2))
    point_node = mbs.AddNode(items.NodePoint2D(referenceCoordinates=[0.0, -1.0], initialVelocities=[0.3, 0.0]))
    point = mbs.AddObject(items.ObjectMassPoint2D(nodeNumber=point_node, mass=0.7))
    point_marker = mbs.AddMarker(items.MarkerNodePosition(nodeNumber=point_node))
    mbs.AddObject(items.ObjectConnectorSpringDamper(markerNumbers=[hinge0, point_marker], referenceLength=0.8,
                                                    stiffness=100, damping=0.5))
    for body in (*bodies, slider, point):
        mbs.AddLoad(items.LoadMassProportional(markerNumber=mbs.AddMarker(items.MarkerBodyMass(bodyNumber=body)),
                                               loadVector=[0, -9.81, 0]))
    mbs.AddLoad(items.LoadTorqueVector(markerNumber=ends0[1], loadVector=[0, 0, 1.5]))
    mbs.AddLoad(items.LoadForceVector(markerNumber=marker(bodies[1], [0.2, 0.1, 0]), loadVector=[0.5, 0.3, 0]))
    sensors = [mbs.AddSensor(items.SensorBody(bodyNumber=b, localPosition=[0.1, 0.2, 0], storeInternal=True,
                                              outputVariableType=getattr(exu.OutputVariableType, v)))
               for b in bodies for v in BODY]
    sensors += [mbs.AddSensor(items.SensorMarker(markerNumber=m, storeInternal=True,
                                                 outputVariableType=getattr(exu.OutputVariableType, v)))
                for m in (ends0[1], slider_marker) for v in ("Position", "Velocity", "AngularVelocity")]
    sensors += [mbs.AddSensor(items.SensorNode(nodeNumber=n, storeInternal=True,
                                               outputVariableType=exu.OutputVariableType.Coordinates))
                for n in (*nodes, slider_node, point_node)]
    mbs.Assemble()
    settings = full_newton_settings(exu, 300, 0.6)
    exu.SolveDynamic(mbs, settings)
    return [mbs.GetSensorStoredData(s) for s in sensors], mbs.systemData.GetODE2Coordinates()


def test_planar_mechanism_equals_exudyns():
    exudyn = pytest.importorskip("exudyn")
    import exudyn.itemInterface as exitems

    ours, our_q = planar_mechanism(ffexu, ffitems)
    theirs, their_q = planar_mechanism(exudyn, exitems)
    assert np.abs(np.asarray(our_q) - their_q).max() <= 1e-8 * np.abs(their_q).max()
    assert np.abs(their_q).max() > 0.1                            # it moved
    for mine, reference in zip(ours, theirs):
        assert mine.shape == reference.shape
        scale = max(np.abs(reference[:, 1:]).max(), 1e-3)
        assert np.abs(mine - reference).max() <= 1e-8 * scale


def test_wrong_nodes_are_refused_naming_the_item():
    mbs = ffexu.SystemContainer().AddSystem()
    node = mbs.AddNode(ffitems.NodePoint2D(referenceCoordinates=[0, 0]))
    mbs.AddObject(ffitems.ObjectRigidBody2D(nodeNumber=node, mass=1, inertia=1))
    with pytest.raises(ModelError, match="ObjectRigidBody2D 0.*must refer to a NodeRigidBody2D, got NodePoint2D"):
        mbs.Assemble()
