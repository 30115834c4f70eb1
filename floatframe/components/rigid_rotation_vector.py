"""Rigid bodies on a rotation vector (Exudyn's NodeRigidBodyRotVecLG): the node, the rigid body and its markers.

The node has the coordinates [x, y, z, v0, v1, v2]: the position and the rotation vector v = phi n (angle phi about
the unit axis n), A = exp(v~) (``rotations.rotation_matrix_from_rotation_vector``; total v = reference + change,
added as vectors, as Exudyn adds them). The body-fixed angular velocity is omega_b = T(v) v_t with the tangent
operator of the exponential map (``rotations.t_exp_so3``, Exudyn's TExpSO3)

    T(v) = I - (1 - cos phi)/phi^2 v~ + (1 - sin phi/phi)/phi^2 v~ v~,

which is regular for phi < 2 pi (and singular at phi = 2 pi, where every axis gives the identity). The rigid body's
equations are those of :class:`floatframe.components.bodies.ObjectRigidBody` with G_l = T(v).

Exudyn integrates this node on the rotation group: its velocity coordinates are [velocity, omega_b], not v_t. The
node keeps that meaning at its boundary: ``initial_velocities`` are [velocity (global), omega_b], and the outputs
Coordinates_t and Coordinates_tt are [velocity, omega_b] and [acceleration, d omega_b / dt], as Exudyn gives them.
floatframe integrates v_t = T(v)^-1 omega_b as the system's velocities (the same motion; an integrator's
truncation error differs from that of a Lie-group one).
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe import rotations
from floatframe.components.base import resolve
from floatframe.components.markers import MarkerBodyPosition, MarkerNodePosition
from floatframe.components.rigid_rxyz import (MarkerBodyRigidRxyz, MarkerNodeRigidRxyz, ObjectRigidBodyRxyz,
                                             RigidNodeThreeRotationParameters)

SINGULAR_MARGIN = 1e-6     # an initial rotation angle closer than this to a multiple of 2 pi (not 0) is refused


def rotation_vector_rates(rotation_vector, angular_velocity_local) -> np.ndarray:
    """v_t = T(v)^-1 omega_b (NumPy) for a body-fixed angular velocity [rad/s]."""
    tangent = np.asarray(rotations.t_exp_so3(np.asarray(rotation_vector, dtype=float)), dtype=float)
    return np.linalg.solve(tangent, np.asarray(angular_velocity_local, dtype=float))


class NodeRigidBodyRotationVector(RigidNodeThreeRotationParameters):
    """Rigid-body node with the position and the rotation vector [x, y, z, v0, v1, v2] (see the module).

    Parameters
    ----------
    reference_coordinates : (6,) array_like, [m, m, m, rad, rad, rad]
    initial_coordinates : (6,) array_like, optional
        Initial change from the reference values (the rotation vectors are added); default zeros.
    initial_velocities : (6,) array_like, [m/s, rad/s], optional
        Velocity (global) and body-fixed angular velocity omega_b; default zeros.

    Outputs besides the node outputs: Rotation (x-y-z Tait-Bryan angles of A), RotationMatrix (row by row),
    AngularVelocity (global), AngularVelocityLocal, AngularAcceleration (global) [rad/s, rad/s^2];
    Coordinates_t and Coordinates_tt are [velocity, omega_b] and their time derivatives.
    """

    type_name = "NodeRigidBodyRotVecLG"

    def __init__(self, reference_coordinates, initial_coordinates=None, initial_velocities=None, name=""):
        super().__init__(reference_coordinates, initial_coordinates, initial_velocities, name)
        rotation_vector = self.reference_coordinates[3:] + self.initial_coordinates[3:]
        angle = np.linalg.norm(rotation_vector)
        turns = round(angle / (2 * np.pi))
        if turns > 0 and abs(angle - 2 * np.pi * turns) < SINGULAR_MARGIN:
            raise self.error(f"initial rotation vector {rotation_vector.tolist()} has the angle {angle} = "
                             f"{turns} x 2 pi, where its tangent operator is singular; give the same rotation "
                             f"by a rotation vector of angle below 2 pi")
        self.angular_velocity_local0 = self.initial_velocities[3:].copy()
        self.initial_velocities[3:] = rotation_vector_rates(rotation_vector, self.angular_velocity_local0)

    def rotation_vector(self, ctx):
        return self.rotation_parameters(ctx)

    def rotation_matrix(self, ctx):
        return rotations.rotation_matrix_from_rotation_vector(self.rotation_vector(ctx))

    def g_local(self, ctx):
        """T(v): omega_b = T(v) v_t."""
        return rotations.t_exp_so3(self.rotation_vector(ctx))

    def extra_outputs(self, ctx):
        velocity = lambda: ca.vertcat(ctx.velocities(self)[:3], self.angular_velocity_local(ctx))   # noqa: E731
        return {"Rotation": lambda: rotations.rot_xyz_from_rotation_matrix(self.rotation_matrix(ctx)),
                "RotationMatrix": lambda: rotations.rotation_matrix_rows(self.rotation_matrix(ctx)),
                "AngularVelocity": lambda: self.angular_velocity(ctx),
                "AngularVelocityLocal": lambda: self.angular_velocity_local(ctx),
                "AngularAcceleration": lambda: self.angular_acceleration(ctx),
                "Coordinates_t": velocity,
                "Coordinates_tt": lambda: self._rate(velocity(), ctx)}


class ObjectRigidBodyRotationVector(ObjectRigidBodyRxyz):
    """:class:`ObjectRigidBody` on a NodeRigidBodyRotationVector (same parameters and equations; G_l = T(v))."""

    type_name = "ObjectRigidBody"

    def connect(self, system):
        self.node = resolve(system, "node", self.node_number, self, "node_number")
        if not isinstance(self.node, NodeRigidBodyRotationVector):
            raise self.error(f"node_number must refer to a NodeRigidBodyRotVecLG, got {self.node.label}")

    def reference_point(self, local_position):
        reference = self.node.reference_coordinates
        rotation = np.asarray(rotations.rotation_matrix_from_rotation_vector(reference[3:]), dtype=float)
        return reference[:3] + rotation @ np.asarray(local_position, dtype=float)


class MarkerNodeRigidRotationVector(MarkerNodeRigidRxyz):
    """The frame of a NodeRigidBodyRotationVector turned by ``local_rotation``; torques act through T^T A^T."""

    def connect(self, system):
        MarkerNodePosition.connect(self, system)
        if not isinstance(self.node, NodeRigidBodyRotationVector):
            raise self.error(f"node_number must refer to a NodeRigidBodyRotVecLG, got {self.node.label}")


class MarkerBodyRigidRotationVector(MarkerBodyRigidRxyz):
    """A frame fixed on a rigid body on a NodeRigidBodyRotationVector; torques act through T^T A^T."""

    def connect(self, system):
        MarkerBodyPosition.connect(self, system)
        if not isinstance(self.body, ObjectRigidBodyRotationVector):
            raise self.error(f"body_number must refer to a rigid body on a NodeRigidBodyRotVecLG, got "
                             f"{self.body.label}")
