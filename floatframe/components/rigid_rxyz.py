"""Rigid bodies on Tait-Bryan angles (Exudyn's NodeRigidBodyRxyz): the node, the rigid body and its markers.

The node has the coordinates [x, y, z, a, b, c]: the position and the x-y-z Tait-Bryan angles, A = Rx(a) Ry(b) Rz(c)
(``rotations.rotation_matrix_from_rot_xyz``). Angular velocities are omega_b = G_l(theta) theta_t (body axes) and
omega = A omega_b, with

    G_l = [[cos b cos c, sin c, 0], [-cos b sin c, cos c, 0], [sin b, 0, 1]]

(singular at cos b = 0, where the angles lose a degree of freedom). There is no constraint: the angles are free.
The rigid body's equations are those of :class:`floatframe.components.bodies.ObjectRigidBody` with this G_l and
alpha_b = d/dt omega_b.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe import rotations
from floatframe.components.bodies import ObjectRigidBody
from floatframe.components.base import resolve
from floatframe.components.markers import MarkerBodyPosition, MarkerBodyRigid, MarkerNodePosition, MarkerNodeRigid
from floatframe.components.nodes import COORDINATE_OUTPUTS, ORIENTATION_OUTPUTS, POSITION_OUTPUTS, Node


def g_local_rxyz(angles):
    """G_l(theta) of the x-y-z Tait-Bryan angles: omega_b = G_l theta_t (3x3, CasADi)."""
    b, c = angles[1], angles[2]
    return ca.vertcat(ca.horzcat(ca.cos(b) * ca.cos(c), ca.sin(c), 0),
                      ca.horzcat(-ca.cos(b) * ca.sin(c), ca.cos(c), 0),
                      ca.horzcat(ca.sin(b), 0, 1))


class RigidNodeThreeRotationParameters(Node):
    """A rigid-body node [x, y, z, r0, r1, r2] whose three rotation parameters r give A(r) and the body-fixed
    angular velocity omega_b = G_l(r) r_t: the kinematics and the torque that every such node shares. A subclass
    gives ``rotation_matrix`` and ``g_local`` of its parameters (Tait-Bryan angles, a rotation vector)."""

    n_coordinates = 6
    output_variables = COORDINATE_OUTPUTS + POSITION_OUTPUTS + ORIENTATION_OUTPUTS

    def rotation_parameters(self, ctx):
        return ctx.total_coordinates(self)[3:]

    def position(self, ctx):
        return ctx.total_coordinates(self)[:3]

    def angular_velocity_local(self, ctx):
        return self.g_local(ctx) @ ctx.velocities(self)[3:]

    def angular_velocity(self, ctx):
        return self.rotation_matrix(ctx) @ self.angular_velocity_local(ctx)

    def _rate(self, expression, ctx):
        """d expression / dt along (q, v)."""
        return ca.jtimes(expression, ca.vertcat(ctx.q, ctx.v), ca.vertcat(ctx.v, ctx.a))

    def angular_acceleration(self, ctx):
        return self._rate(self.angular_velocity(ctx), ctx)

    def apply_torque(self, ctx, torque):
        """Generalized force of a global torque [N m] on the rotation parameters: G_l^T A^T tau (virtual work
        through omega)."""
        local = self.rotation_matrix(ctx).T @ torque
        ctx.add_force(self.coordinate_indices[3:], self.g_local(ctx).T @ local)


class NodeRigidBodyRxyz(RigidNodeThreeRotationParameters):
    """Rigid-body node with the position and the x-y-z Tait-Bryan angles [x, y, z, a, b, c] (see the module).

    Parameters
    ----------
    reference_coordinates : (6,) array_like, [m, m, m, rad, rad, rad]
    initial_coordinates : (6,) array_like, optional
        Initial change from the reference values; default zeros.
    initial_velocities : (6,) array_like, [m/s, rad/s], optional
        Velocity (global) and angle rates theta_t; default zeros.

    Outputs besides the node outputs: Rotation (the total angles), RotationMatrix (row by row), AngularVelocity
    (global), AngularVelocityLocal, AngularAcceleration (global) [rad/s, rad/s^2].
    """

    type_name = "NodeRigidBodyRxyz"

    def angles(self, ctx):
        return self.rotation_parameters(ctx)

    def rotation_matrix(self, ctx):
        return rotations.rotation_matrix_from_rot_xyz(self.angles(ctx))

    def g_local(self, ctx):
        return g_local_rxyz(self.angles(ctx))

    def extra_outputs(self, ctx):
        return {"Rotation": lambda: self.angles(ctx),
                "RotationMatrix": lambda: rotations.rotation_matrix_rows(self.rotation_matrix(ctx)),
                "AngularVelocity": lambda: self.angular_velocity(ctx),
                "AngularVelocityLocal": lambda: self.angular_velocity_local(ctx),
                "AngularAcceleration": lambda: self.angular_acceleration(ctx)}


class ObjectRigidBodyRxyz(ObjectRigidBody):
    """:class:`ObjectRigidBody` on a NodeRigidBodyRxyz (same parameters and equations; G_l of the angles)."""

    type_name = "ObjectRigidBody"

    def connect(self, system):
        self.node = resolve(system, "node", self.node_number, self, "node_number")
        if not isinstance(self.node, NodeRigidBodyRxyz):
            raise self.error(f"node_number must refer to a NodeRigidBodyRxyz, got {self.node.label}")

    @property
    def unit_form(self) -> bool:
        return False

    def add_terms(self, ctx):
        node = self.node
        acceleration = ctx.accelerations(node)
        g_local = node.g_local(ctx)
        omega = node.angular_velocity_local(ctx)                                              # omega_b
        alpha = ca.jtimes(omega, ca.vertcat(ctx.q, ctx.v), ca.vertcat(ctx.v, ctx.a))          # alpha_b
        inertia = self.inertia_matrix(ctx)
        mass = ctx.value(self.mass)
        translational = mass * acceleration[:3]
        moment = inertia @ alpha + ca.cross(omega, inertia @ omega)
        if self.has_offset:
            b = ctx.value(self.center_of_mass)
            rotation = node.rotation_matrix(ctx)
            translational += mass * (rotation @ (ca.cross(alpha, b) + ca.cross(omega, ca.cross(omega, b))))
            moment += mass * ca.cross(b, rotation.T @ acceleration[:3])
        ctx.add_lhs(node.coordinate_indices, ca.vertcat(translational, g_local.T @ moment))

    def add_mass_proportional_load(self, ctx, acceleration):
        """m g on the position rows; with a centre-of-mass offset b also G_l^T (b x A^T m g) on the angles."""
        force = ctx.value(self.mass) * acceleration
        rows = self.node.coordinate_indices
        ctx.add_force(rows[:3], force)
        if self.has_offset:
            local = self.node.rotation_matrix(ctx).T @ force
            ctx.add_force(rows[3:], self.node.g_local(ctx).T @ ca.cross(ctx.value(self.center_of_mass), local))

    def point_velocity(self, ctx, local_position):
        """d/dt of the body point (the index-2 velocity)."""
        return ctx.time_derivative(self.local_position(ctx, local_position))

    def reference_point(self, local_position):
        angles = self.node.reference_coordinates[3:]
        rotation = np.array(ca.DM(rotations.rotation_matrix_from_rot_xyz(ca.DM(angles))))
        return self.node.reference_coordinates[:3] + rotation @ np.asarray(local_position, dtype=float)


class MarkerNodeRigidRxyz(MarkerNodeRigid):
    """The frame of a NodeRigidBodyRxyz turned by ``local_rotation``; torques act through G_l^T A^T."""

    def connect(self, system):
        MarkerNodePosition.connect(self, system)
        if not isinstance(self.node, NodeRigidBodyRxyz):
            raise self.error(f"node_number must refer to a NodeRigidBodyRxyz, got {self.node.label}")

    def apply_torque(self, ctx, torque):
        self.node.apply_torque(ctx, torque)


class MarkerBodyRigidRxyz(MarkerBodyRigid):
    """A frame fixed on a rigid body on a NodeRigidBodyRxyz; torques act through G_l^T A^T."""

    def connect(self, system):
        MarkerBodyPosition.connect(self, system)
        if not isinstance(self.body, ObjectRigidBodyRxyz):
            raise self.error(f"body_number must refer to a rigid body on a NodeRigidBodyRxyz, got {self.body.label}")

    def rotation_node(self):
        return self.body.node

    def apply_torque(self, ctx, torque):
        self.body.node.apply_torque(ctx, torque)
