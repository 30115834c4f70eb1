"""Exudyn items of issue 28 on Lie groups: NodeRigidBodyRotVecLG (RigidRotVecLG), a rigid-body node on a rotation
vector whose velocity coordinates are the velocity and the body-fixed angular velocity (core:
``floatframe.components.rigid_rotation_vector``). ObjectRigidBody, MarkerNodeRigid and MarkerBodyRigid on it are
translated in ``_items``."""
from __future__ import annotations

from floatframe.components import rigid_rotation_vector
from floatframe.exudyn._items import register
from floatframe.exudyn._items_rigid_extra import _publish

# the node outputs exudyn 1.13.6 gives for this node (no Coordinates_tt, no AngularAcceleration)
ROTATION_VECTOR_NODE_OUTPUTS = ("Coordinates", "Coordinates_t", "CoordinatesTotal", "Position", "Displacement",
                                "Velocity", "Acceleration", "AngularVelocity", "AngularVelocityLocal", "Rotation",
                                "RotationMatrix")


@register("NodeRigidBodyRotVecLG", "node", "RigidBodyRotVecLG", dict(
    referenceCoordinates=[0.0] * 6, initialCoordinates=[0.0] * 6, initialVelocities=[0.0] * 6),
    short="RigidRotVecLG", outputs=dict(node=ROTATION_VECTOR_NODE_OUTPUTS))
def NodeRigidBodyRotVecLG(item, number, mbs):
    """Position and rotation vector; initialVelocities are [velocity, body-fixed angular velocity] as in Exudyn."""
    return rigid_rotation_vector.NodeRigidBodyRotationVector(item.referenceCoordinates, item.initialCoordinates,
                                                             item.initialVelocities, name=item.name)


_publish([NodeRigidBodyRotVecLG])
