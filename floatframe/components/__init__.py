"""Components: nodes, bodies, the FFRF body, markers, connectors, loads and sensors."""
from floatframe.components.base import Component, Context, ModelError
from floatframe.components.bodies import ObjectGround, ObjectRigidBody
from floatframe.components.connectors import (CartesianSpringDamper, CoordinateConstraint,
                                              CoordinateVectorConstraint, SphericalJoint)
from floatframe.components.ffrf import FloatingFrameBody, ObjectFFRF
from floatframe.components.ffrf_reduced import ObjectFFRFReducedOrder, ReducedOrderInvariants, add_reduced_ffrf_body
from floatframe.components.loads import LoadCoordinate, LoadForceVector, LoadTorqueVector
from floatframe.components.markers import (MarkerBodyPosition, MarkerBodyRigid, MarkerNodeCoordinate,
                                           MarkerNodeCoordinates, MarkerNodePosition, MarkerNodeRigid,
                                           MarkerObjectODE2Coordinates, MarkerSuperElementPosition,
                                           MarkerSuperElementRigid)
from floatframe.components.nodes import NodeGenericODE2, NodePoint, NodePointGround, NodeRigidBodyEP
from floatframe.components.sensors import SensorBody, SensorNode, SensorObject, SensorSuperElement

__all__ = [
    "Component",
    "Context",
    "ModelError",
    "ObjectGround",
    "ObjectRigidBody",
    "CartesianSpringDamper",
    "CoordinateConstraint",
    "CoordinateVectorConstraint",
    "SphericalJoint",
    "FloatingFrameBody",
    "ObjectFFRF",
    "ObjectFFRFReducedOrder",
    "ReducedOrderInvariants",
    "add_reduced_ffrf_body",
    "LoadCoordinate",
    "LoadForceVector",
    "LoadTorqueVector",
    "MarkerBodyPosition",
    "MarkerBodyRigid",
    "MarkerNodeCoordinate",
    "MarkerNodeCoordinates",
    "MarkerNodePosition",
    "MarkerNodeRigid",
    "MarkerObjectODE2Coordinates",
    "MarkerSuperElementPosition",
    "MarkerSuperElementRigid",
    "NodeGenericODE2",
    "NodePoint",
    "NodePointGround",
    "NodeRigidBodyEP",
    "SensorBody",
    "SensorNode",
    "SensorObject",
    "SensorSuperElement",
]
