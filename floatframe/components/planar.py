"""Planar items: 2D point and rigid-body nodes, the bodies on them, their markers and the 2D joints.

The plane is the global x-y plane (z = 0). A NodePoint2D has the coordinates (x, y), a NodeRigidBody2D
(x, y, phi) with phi the rotation about the global z axis, A(phi) = Rz(phi). Positions, rotations and
velocities are 3D (z and the x, y rotations zero), so the 3D markers' consumers (springs, loads, sensors)
take them unchanged. Exudyn's NodePoint2D, NodeRigidBody2D, ObjectMassPoint2D, ObjectRigidBody2D,
ObjectJointRevolute2D and ObjectJointPrismatic2D.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe.components.bodies import Body, ObjectMassPoint
from floatframe.components.base import resolve
from floatframe.components.connectors import Connector, fixed_active_flag
from floatframe.components.markers import MarkerBodyPosition, MarkerBodyRigid, MarkerNodePosition
from floatframe.components.nodes import Node
from floatframe.parameters import Parameter


def rotation_z(phi):
    """Rz(phi), 3x3."""
    c, s = ca.cos(phi), ca.sin(phi)
    return ca.vertcat(ca.horzcat(c, -s, 0), ca.horzcat(s, c, 0), ca.horzcat(0, 0, 1))


def _in_plane(xy):
    return ca.vertcat(xy[0], xy[1], 0)


class NodePoint2D(Node):
    """A point in the x-y plane with the 2 displacement coordinates (x, y) [m].

    Parameters
    ----------
    reference_coordinates : (2,) array_like, m
        Reference position (x, y).
    initial_coordinates : (2,) array_like, m, optional
        Initial displacement; default zeros.
    initial_velocities : (2,) array_like, m/s, optional
        Initial velocity; default zeros.
    """

    type_name = "NodePoint2D"
    output_variables = Node.output_variables + ("Position", "Displacement", "Velocity", "Acceleration")
    n_coordinates = 2
    planar = True

    def position(self, ctx):
        return _in_plane(ctx.total_coordinates(self))

    def reference_position(self) -> np.ndarray:
        return np.array([*self.reference_coordinates[:2], 0.0])


class NodeRigidBody2D(Node):
    """A planar rigid-body node: position (x, y) [m] and rotation phi [rad] about the global z axis.

    Parameters
    ----------
    reference_coordinates : (3,) array_like, [m, m, rad]
        Reference position and angle.
    initial_coordinates : (3,) array_like, optional
        Initial change of position and angle; default zeros.
    initial_velocities : (3,) array_like, [m/s, m/s, rad/s], optional
        Initial velocity and angular velocity; default zeros.

    Outputs besides the node outputs: Rotation [0, 0, phi] (the total angle, not wrapped),
    AngularVelocity [0, 0, phi_t] (global and local alike), AngularAcceleration, RotationMatrix (row by row).
    """

    type_name = "NodeRigidBody2D"
    output_variables = NodePoint2D.output_variables + ("Rotation", "AngularVelocity", "AngularVelocityLocal",
                                                       "AngularAcceleration", "RotationMatrix")
    n_coordinates = 3
    planar = True

    def angle(self, ctx):
        return ctx.total_coordinates(self)[2]

    def position(self, ctx):
        return _in_plane(ctx.total_coordinates(self)[:2])

    def rotation_matrix(self, ctx):
        return rotation_z(self.angle(ctx))

    def angular_velocity(self, ctx):
        return ca.vertcat(0, 0, ctx.velocities(self)[2])

    def angular_acceleration(self, ctx):
        return ca.vertcat(0, 0, ctx.accelerations(self)[2])

    def reference_position(self) -> np.ndarray:
        return np.array([*self.reference_coordinates[:2], 0.0])

    def extra_outputs(self, ctx):
        rotation = self.rotation_matrix(ctx)
        return {"Rotation": lambda: ca.vertcat(0, 0, self.angle(ctx)),
                "AngularVelocity": lambda: self.angular_velocity(ctx),
                "AngularVelocityLocal": lambda: self.angular_velocity(ctx),
                "AngularAcceleration": lambda: self.angular_acceleration(ctx),
                "RotationMatrix": lambda: ca.vec(rotation.T)}


class ObjectMassPoint2D(ObjectMassPoint):
    """A point mass ``mass`` [kg] on a NodePoint2D: m (x_tt, y_tt) = (f_x, f_y). Body-fixed points are offsets that
    do not turn; forces along z do nothing. An ObjectMassPoint on the plane's node.

    Parameters
    ----------
    node_number : NodePoint2D or int
    mass : float or Parameter, kg
        m >= 0.
    """

    type_name = "ObjectMassPoint2D"
    node_class = NodePoint2D

    def add_mass_proportional_load(self, ctx, acceleration):
        """m (g_x, g_y) [N], g [m/s^2] global (its z part does nothing)."""
        ctx.add_force(self.node.coordinate_indices, ctx.value(self.mass) * acceleration[:2])

    def origin_acceleration(self, ctx):
        return _in_plane(ctx.accelerations(self.node))

    def reference_point(self, local_position):
        return self.node.reference_position() + np.asarray(local_position, dtype=float)


class ObjectRigidBody2D(Body):
    """A planar rigid body on a NodeRigidBody2D, its centre of mass at b = ``center_of_mass`` (body axes) from the
    node.

    With S the rotation by +90 degrees in the plane and r = A b:

        m (a + phi_tt S r - phi_t^2 r)      = f
        J phi_tt + m (S r) . a              = tau_z

    Parameters
    ----------
    node_number : NodeRigidBody2D or int
    mass : float or Parameter, kg
        m >= 0.
    inertia : float or Parameter, kg m^2
        J about the node (the reference point), >= 0 (Exudyn's physicsInertia).
    center_of_mass : (2,) array_like, m, default (0, 0)
        b, in body axes.
    """

    type_name = "ObjectRigidBody2D"
    has_orientation = True

    def __init__(self, node_number, mass, inertia, center_of_mass=(0.0, 0.0), name=""):
        super().__init__(name)
        self.node_number = node_number
        self.mass = self.vector(mass, 1, "mass", symbolic=True)
        self.inertia = self.vector(inertia, 1, "inertia", symbolic=True)
        self.center_of_mass = self.vector(center_of_mass, 2, "center_of_mass")
        for what, value in (("mass", self.mass), ("inertia", self.inertia)):
            if not isinstance(value, Parameter) and value[0] < 0:
                raise self.error(f"{what} must be >= 0, got {value[0]}")

    def connect(self, system):
        self.node = resolve(system, "node", self.node_number, self, "node_number")
        if not isinstance(self.node, NodeRigidBody2D):
            raise self.error(f"node_number must refer to a NodeRigidBody2D, got {self.node.label}")

    def _offset(self, ctx):
        """r = A b and S r (2-vectors)."""
        phi = self.node.angle(ctx)
        c, s = ca.cos(phi), ca.sin(phi)
        b = self.center_of_mass
        r = ca.vertcat(c * b[0] - s * b[1], s * b[0] + c * b[1])
        return r, ca.vertcat(-r[1], r[0])

    def add_terms(self, ctx):
        acceleration = ctx.accelerations(self.node)
        mass, inertia = ctx.value(self.mass), ctx.value(self.inertia)
        translational = mass * acceleration[:2]
        rotational = inertia * acceleration[2]
        if np.any(self.center_of_mass):
            r, turned = self._offset(ctx)
            rate = ctx.velocities(self.node)[2]
            translational += mass * (acceleration[2] * turned - rate ** 2 * r)
            rotational += mass * ca.dot(turned, acceleration[:2])
        ctx.add_lhs(self.node.coordinate_indices, ca.vertcat(translational, rotational))

    def add_mass_proportional_load(self, ctx, acceleration):
        """m g at the centre of mass, g [m/s^2] global: m g_xy on the position, m (S r) . g_xy on the angle."""
        force = ctx.value(self.mass) * acceleration[:2]
        rows = self.node.coordinate_indices
        ctx.add_force(rows[:2], force)
        if np.any(self.center_of_mass):
            ctx.add_force(rows[2:], ca.dot(self._offset(ctx)[1], force))

    def local_position(self, ctx, local_position):
        return self.node.position(ctx) + self.node.rotation_matrix(ctx) @ ca.DM(local_position)

    def rotation_matrix(self, ctx):
        return self.node.rotation_matrix(ctx)

    def angular_velocity(self, ctx):
        return self.node.angular_velocity(ctx)

    def angular_acceleration(self, ctx):
        return self.node.angular_acceleration(ctx)

    def origin_acceleration(self, ctx):
        return _in_plane(ctx.accelerations(self.node)[:2])

    def reference_point(self, local_position):
        phi = float(self.node.reference_coordinates[2])
        c, s = np.cos(phi), np.sin(phi)
        rotation = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
        return self.node.reference_position() + rotation @ np.asarray(local_position, dtype=float)

    def output(self, ctx, variable, local_position=(0.0, 0.0, 0.0)):
        """Body outputs (:meth:`Body.output`); Rotation is, as in Exudyn, the scalar change of the angle from its
        reference value [rad] (the node's Rotation is [0, 0, phi] with the total angle)."""
        if variable == "Rotation":
            return ctx.coordinates(self.node)[2]
        return super().output(ctx, variable, local_position)


def _apply_planar_torque(ctx, node, torque):
    """A global torque [N m] on a planar node: its z part on the angle."""
    ctx.add_force(node.coordinate_indices[2:], torque[2])


class MarkerNodePosition2D(MarkerNodePosition):
    """The position of a planar node (NodePoint2D, NodeRigidBody2D), z = 0: forces act at it. A MarkerNodePosition
    that takes planar nodes only."""

    def connect(self, system):
        self.node = resolve(system, "node", self.node_number, self, "node_number")
        if not getattr(self.node, "planar", False):
            raise self.error(f"node_number must refer to a planar node, got {self.node.label}")


class MarkerNodeRigid2D(MarkerNodePosition2D):
    """The frame of a NodeRigidBody2D (position and rotation Rz(phi)); torques act on its angle."""

    type_name = "MarkerNodeRigid"
    kind = "rigid"

    def connect(self, system):
        super().connect(system)
        if not isinstance(self.node, NodeRigidBody2D):
            raise self.error(f"node_number must refer to a NodeRigidBody2D, got {self.node.label}")

    def rotation_matrix(self, ctx):
        return self.node.rotation_matrix(ctx)

    def angular_velocity(self, ctx):
        return self.node.angular_velocity(ctx)

    def apply_torque(self, ctx, torque):
        _apply_planar_torque(ctx, self.node, torque)


class MarkerBodyRigid2D(MarkerBodyRigid):
    """A frame fixed on an ObjectRigidBody2D at ``local_position`` p, turned by ``local_rotation`` R: position
    x + A p, rotation A R, angular velocity [0, 0, phi_t]; torques act on the body's angle."""

    type_name = "MarkerBodyRigid"

    def connect(self, system):
        MarkerBodyPosition.connect(self, system)
        if not isinstance(self.body, ObjectRigidBody2D):
            raise self.error(f"body_number must refer to an ObjectRigidBody2D, got {self.body.label}")

    def base_rotation(self, ctx):
        return self.body.rotation_matrix(ctx)

    def angular_velocity(self, ctx):
        return self.body.angular_velocity(ctx)

    def apply_torque(self, ctx, torque):
        _apply_planar_torque(ctx, self.body.node, torque)


class RevoluteJoint2D(Connector):
    """Planar revolute joint: the points of two markers coincide in the plane, C = (p1 - p0)_xy = 0 (Exudyn's
    ObjectJointRevolute2D; the multipliers are the global x, y reaction forces on marker 0's side).

    Parameters
    ----------
    marker_numbers : sequence of two position or rigid markers
    active : bool, default True
        False removes the equations (Exudyn's activeConnector), fixed at assembly (keyword only).

    Outputs: Position and Velocity of marker 0, ForceLocal [lambda_x, lambda_y, 0].
    """

    type_name = "RevoluteJoint2D"
    output_variables = ("Position", "Velocity", "ForceLocal")

    def __init__(self, marker_numbers, name="", *, active=True):
        super().__init__(marker_numbers, name)
        self.active = fixed_active_flag(self, active)
        self.n_constraints = 2 if self.active else 0

    def add_terms(self, ctx):
        if self.active:
            x0, x1 = (m.position(ctx) for m in self.markers)
            ctx.add_constraint(self, (x1 - x0)[:2])

    def output(self, ctx, variable):
        outputs = {"Position": lambda: self.markers[0].position(ctx),
                   "Velocity": lambda: ctx.time_derivative(self.markers[0].position(ctx)),
                   "ForceLocal": lambda: (ca.vertcat(ctx.multipliers(self), 0) if self.active
                                          else ca.DM.zeros(3))}
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
        return outputs[variable]()


class PrismaticJoint2D(Connector):
    """Planar prismatic joint between two rigid markers (Exudyn's ObjectJointPrismatic2D).

    With a0 = A_m0 ``axis_marker0`` and n1 = A_m1 ``normal_marker1`` (global), dp = p1 - p0:

        n1 . dp = 0                  (marker 1 slides along the axis through marker 0)
        a0 . n1 = 0                  (with ``constrain_rotation``: the axis keeps its angle to the normal)

    Parameters
    ----------
    marker_numbers : sequence of two rigid markers
    axis_marker0 : (3,) array_like, default (1, 0, 0)
        The sliding axis in marker 0's frame.
    normal_marker1 : (3,) array_like, default (0, 1, 0)
        The normal to the axis in marker 1's frame.
    constrain_rotation : bool, default True
    active : bool, default True (keyword only)

    Outputs: Position and Velocity of marker 0, ForceLocal [lambda_0, lambda_1, 0].
    """

    type_name = "PrismaticJoint2D"
    output_variables = ("Position", "Velocity", "ForceLocal")
    marker_kinds = ("rigid",)

    def __init__(self, marker_numbers, axis_marker0=(1.0, 0.0, 0.0), normal_marker1=(0.0, 1.0, 0.0),
                 constrain_rotation=True, name="", *, active=True):
        super().__init__(marker_numbers, name)
        self.axis_marker0 = self.vector(axis_marker0, 3, "axis_marker0")
        self.normal_marker1 = self.vector(normal_marker1, 3, "normal_marker1")
        self.constrain_rotation = bool(constrain_rotation)
        self.active = fixed_active_flag(self, active)
        self.n_constraints = (1 + int(self.constrain_rotation)) if self.active else 0

    def add_terms(self, ctx):
        if not self.active:
            return
        marker0, marker1 = self.markers
        x0, x1 = marker0.position(ctx), marker1.position(ctx)
        normal = marker1.rotation_matrix(ctx) @ ca.DM(self.normal_marker1)
        equations = [ca.dot(normal, x1 - x0)]
        if self.constrain_rotation:
            equations.append(ca.dot(marker0.rotation_matrix(ctx) @ ca.DM(self.axis_marker0), normal))
        ctx.add_constraint(self, ca.vertcat(*equations))

    def output(self, ctx, variable):
        outputs = {"Position": lambda: self.markers[0].position(ctx),
                   "Velocity": lambda: ctx.time_derivative(self.markers[0].position(ctx)),
                   "ForceLocal": lambda: (ca.vertcat(ctx.multipliers(self), ca.DM.zeros(3 - self.n_constraints))
                                          if self.active else ca.DM.zeros(3))}
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
        return outputs[variable]()
