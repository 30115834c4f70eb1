"""Components: nodes, bodies, the FFRF body, markers, connectors, loads and sensors."""
from floatframe.components.base import Component, Context, ModelError
from floatframe.components.bodies import ObjectGround, ObjectMass1D, ObjectMassPoint, ObjectRigidBody
from floatframe.components.constraints import (CoordinateConstraint, CoordinateVectorConstraint, DistanceConstraint,
                                               SphericalJoint)
from floatframe.components.springs import (CartesianSpringDamper, CoordinateSpringDamper, RigidBodySpringDamper,
                                           SpringDamper, TorsionalSpringDamper)
from floatframe.components.joints import (CylindricalJoint, GenericJoint, PrismaticJoint, RevoluteJoint,
                                          UniversalJoint)
from floatframe.components.ffrf import FloatingFrameBody, ObjectFFRF, add_ffrf_body
from floatframe.components.ffrf_reduced import ObjectFFRFReducedOrder, ReducedOrderInvariants, add_reduced_ffrf_body
from floatframe.components.reference_conditions import add_tisserand_frame
from floatframe.components.loads import Gravity, LoadCoordinate, LoadForceVector, LoadMassProportional, LoadTorqueVector
from floatframe.components.markers import (MarkerBodyMass, MarkerBodyPosition, MarkerBodyRigid, MarkerNodeCoordinate,
                                           MarkerNodeCoordinates, MarkerNodePosition, MarkerNodeRigid,
                                           MarkerObjectODE2Coordinates, MarkerSuperElementPosition,
                                           MarkerSuperElementRigid)
from floatframe.components.nodes import Node1D, NodeGenericODE2, NodePoint, NodePointGround, NodeRigidBodyEP
from floatframe.components.first_order import NodeODE1, ObjectGenericODE1
from floatframe.components.time_constraints import TimeDependentCoordinateConstraint
from floatframe.components.sensors import (SensorBody, SensorLoad, SensorMarker, SensorNode, SensorObject,
                                          SensorSuperElement)

__all__ = [
    "Component",
    "Context",
    "ModelError",
    "ObjectGround",
    "ObjectMass1D",
    "ObjectMassPoint",
    "ObjectRigidBody",
    "CartesianSpringDamper",
    "CoordinateConstraint",
    "CoordinateSpringDamper",
    "CoordinateVectorConstraint",
    "SphericalJoint",
    "DistanceConstraint",
    "TimeDependentCoordinateConstraint",
    "RigidBodySpringDamper",
    "SpringDamper",
    "TorsionalSpringDamper",
    "CylindricalJoint",
    "GenericJoint",
    "PrismaticJoint",
    "RevoluteJoint",
    "UniversalJoint",
    "FloatingFrameBody",
    "ObjectFFRF",
    "ObjectFFRFReducedOrder",
    "ReducedOrderInvariants",
    "add_reduced_ffrf_body",
    "add_ffrf_body",
    "add_tisserand_frame",
    "Gravity",
    "LoadCoordinate",
    "LoadForceVector",
    "LoadMassProportional",
    "LoadTorqueVector",
    "MarkerBodyMass",
    "MarkerBodyPosition",
    "MarkerBodyRigid",
    "MarkerNodeCoordinate",
    "MarkerNodeCoordinates",
    "MarkerNodePosition",
    "MarkerNodeRigid",
    "MarkerObjectODE2Coordinates",
    "MarkerSuperElementPosition",
    "MarkerSuperElementRigid",
    "Node1D",
    "NodeGenericODE2",
    "NodePoint",
    "NodePointGround",
    "NodeRigidBodyEP",
    "SensorBody",
    "SensorLoad",
    "SensorMarker",
    "SensorNode",
    "SensorObject",
    "SensorSuperElement",
    "NodeODE1",
    "ObjectGenericODE1",
]
