"""Joints between two rigid markers: the generic joint and its named special cases.

Every joint constrains components of the relative motion of two joint frames,
J0 = A_m0 ``rotation_marker0`` and J1 = A_m1 ``rotation_marker1`` (A_m the marker's rotation, marker frame
to global; the ``rotation_marker`` matrices turn joint axes into marker axes, as Exudyn's rotationMarker0/1).
t_x0, t_y0, t_z0 are the columns of J0 (its axes in global coordinates), t_x1, t_y1, t_z1 those of J1, and
dp = p_m1 - p_m0. The equations are those of Exudyn's ObjectJointGeneric, so the Lagrange multipliers are
Exudyn's (the residual carries + C_q^T lambda):

translations (``constrained_axes[0:3]``)
    all three:  dp - o = 0                        (global; o = offset[0:3])
    otherwise:  t_k0 . dp - o_k = 0               for each constrained k (J0 coordinates)
rotations (``constrained_axes[3:6]``)
    all three:  t_z0 . t_y1 = 0,  t_z0 . t_x1 = 0,  t_x0 . t_y1 = 0
    two, axis f free (a hinge):  t_f0 . t_j1 = 0 for both j != f (the free axis of J0 normal to J1's others)
    one, axis k locked (a Cardan joint): t_(k+1)0 . t_(k+2)1 = 0 (indices cyclic)

A rotation offset (the Tait-Bryan angles offset[3:6]) turns J0 further, J0 R_xyz(offset[3:6]), in both the
rotation and the translation equations, as in Exudyn: with a subset of the translations constrained, the
offset rotation also turns the axes t_k0 along which they are constrained.

Velocities (``velocity_form``): "derivative" (default) takes d/dt of the equations as the velocity rows of the
index-2 schemes (where a marker is on a rigid body) and d/dt of positions in the outputs; "exudyn" takes Exudyn's
forms, which differ where the Euler-parameter norm r^2 = theta^T theta drifts from 1 (index 2) and are equal on
r = 1. In Exudyn's, a marker axis t = A_m a (a in marker coordinates) has the rate t' = A_n (omega_b x (R a)),
with the node's unnormalised rotation A_n (A_E in the unit form), omega_b = G_local theta_t and R the marker's
local rotation, where "derivative" has omega x t with omega = G theta_t; its rows, with t_k0 and t_a0 not turned
by the rotation offset (Exudyn applies the offset on position level only):
    all translations:  v1 - v0                                  (point velocities v + A_E (omega_b x p))
    otherwise:         t_k0 . (v1 - v0) + t_k0' . dp
    rotations:         t_a0' . t_b1 + t_a0 . t_b1'
Its reactions at index 2 stay J^T lambda with J = d/dv of the "derivative" rows (Exudyn's constraint Jacobian:
omega = G theta_t, the offset turning J0). Its outputs Velocity and VelocityLocal take the point velocities above,
AngularVelocityLocal J0^T (A_n1 omega_b1 - A_n0 omega_b0).
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe import rotations
from floatframe.components.base import resolve
from floatframe.components.connectors import Connector, _JointFrameMixin, fixed_active_flag
from floatframe.components.nodes import NodeGenericODE2, NodeRigidBodyEP

VELOCITY_FORMS = ("derivative", "exudyn")


def _rotation_rows(constrained):
    """[(axis of J0, axis of J1, row of the six)] of the rotation equations for the three flags (see module)."""
    locked = [k for k in range(3) if constrained[k]]
    if len(locked) == 3:
        return [(2, 1, 3), (2, 0, 4), (0, 1, 5)]
    if len(locked) == 2:
        free = ({0, 1, 2} - set(locked)).pop()
        return [(free, j, 3 + j) for j in range(3) if j != free]
    if len(locked) == 1:
        k = locked[0]
        return [((k + 1) % 3, (k + 2) % 3, 3 + k)]
    return []


def _euler_node(marker):
    """The NodeRigidBodyEP that turns ``marker`` (a body or node marker), or None."""
    node = marker.rotation_node() if hasattr(marker, "rotation_node") else None
    if isinstance(node, NodeRigidBodyEP) and marker.rotation_jacobian_is_derivative:
        return node
    return None


def exudyn_angular_velocity(ctx, marker):
    """Exudyn's angular velocity of a marker in a joint's outputs, global [rad/s]: A_n omega_b on a NodeRigidBodyEP
    (see ``exudyn_axis_rate``), else the marker's."""
    node = _euler_node(marker)
    if node is None:
        return marker.angular_velocity(ctx)
    return node.rotation_matrix(ctx) @ node.angular_velocity_local(ctx)


def exudyn_axis_rate(ctx, marker, axis):
    """Exudyn's rate of the marker axis t = A_m a, 3 vector [1/s]: A_n (omega_b x (R a)) on a NodeRigidBodyEP (A_n
    the node's rotation matrix, unnormalised off r = 1; omega_b = G_local theta_t; R the marker's local rotation),
    else dt/dt. ``axis``: a, (3,), in marker coordinates."""
    node = _euler_node(marker)
    if node is None:
        return ctx.time_derivative(marker.rotation_matrix(ctx) @ ca.DM(axis))
    in_node = ca.DM(marker.local_rotation @ np.asarray(axis, dtype=float))                # R a
    return node.rotation_matrix(ctx) @ ca.cross(node.angular_velocity_local(ctx), in_node)


class TurnCounting:
    """The angle of the relative rotation about the joint z axis, continuous over any number of turns with a
    turn node (shared by RevoluteJoint, CylindricalJoint and TorsionalSpringDamper).

    phi = the third Tait-Bryan x-y-z angle of J0^T J1, atan2(-R01, R00) in (-pi, pi]. A turn node (a
    NodeGenericODE2 with one coordinate p, no mass) makes it continuous: phi_c = p + wrap(phi - p), with
    wrap(x) = atan2(sin x, cos x), and p follows phi_c through the constraint wrap(phi - p) = 0, whose
    multiplier is zero (it exerts nothing). Newton starts each step from the last p, so the turns are counted
    while the angle changes by less than pi in a step. The node's initial coordinate picks the turn at the
    start (phi_c(0) is the angle nearest to it); at assembly p and its rate start at phi_c(0) and d phi / dt.
    """

    def _set_turn_node(self, turn_node):
        self.turn_node_number = turn_node
        self.turn_node = None

    def _connect_turn_node(self, system):
        self.turn_node = None
        if self.turn_node_number is not None:
            self.turn_node = resolve(system, "node", self.turn_node_number, self, "turn_node")
            if not isinstance(self.turn_node, NodeGenericODE2) or self.turn_node.n_coordinates != 1:
                raise self.error(f"turn_node must be a NodeGenericODE2 with one coordinate, got {self.turn_node.label}")

    def principal_angle(self, ctx):
        """(J0, phi in (-pi, pi])."""
        joint0, joint1 = self.joint_frames(ctx)
        relative = joint0.T @ joint1
        return joint0, ca.atan2(-relative[0, 1], relative[0, 0])                   # rot_xyz(J0^T J1)[2]

    def turn_offset(self, ctx, angle):
        """wrap(phi - p) and p of the turn node."""
        previous = ctx.total_coordinates(self.turn_node)[0]                        # p
        return ca.atan2(ca.sin(angle - previous), ca.cos(angle - previous)), previous

    def continuous_angle(self, ctx):
        """(J0, phi_c): the angle continuous over turns with a turn node, else phi in (-pi, pi]."""
        joint0, angle = self.principal_angle(ctx)
        if self.turn_node is not None:
            wrapped, previous = self.turn_offset(ctx, angle)
            angle = previous + wrapped
        return joint0, angle

    def turn_equation(self, ctx):
        """The turn node's constraint wrap(phi - p) = 0, or an empty vector without a turn node."""
        if self.turn_node is None:
            return ca.SX.zeros(0)
        return self.turn_offset(ctx, self.principal_angle(ctx)[1])[0]

    def _set_turn_start_values(self, assembled):
        """Consistent start values of the turn node: p = phi_c and p_t = d phi / dt at the initial state (with a
        wrong start rate the rate of the massless p would oscillate without decay under the undamped
        generalized-alpha scheme, and its predictor could jump a turn)."""
        if self.turn_node is None:
            return
        state = (0.0, assembled.q_initial, assembled.v_initial, np.zeros(assembled.n_coordinates),
                 np.zeros(assembled.n_multipliers))
        angle = assembled.output_function(lambda ctx: self.continuous_angle(ctx)[1], "turn_angle")(*state)
        rate = assembled.output_function(lambda ctx: ctx.time_derivative(self.principal_angle(ctx)[1]),
                                         "turn_angle_rate")(*state)
        rows = self.turn_node.coordinate_indices
        assembled.q_initial[rows] = angle - self.turn_node.reference_coordinates
        assembled.v_initial[rows] = rate


class GenericJoint(_JointFrameMixin, Connector):
    """Constrains any subset of the three relative translations and three relative rotations of two joint frames
    (Exudyn ObjectJointGeneric); the equations are in the module docstring.

    Parameters
    ----------
    marker_numbers : sequence of two rigid markers
        Marker 0 and marker 1 (position and orientation), items or numbers.
    constrained_axes : (6,) flags 0/1, default (1, 1, 1, 1, 1, 1)
        [x, y, z, rot x, rot y, rot z] of the joint frame J0.
    rotation_marker0, rotation_marker1 : (3, 3) array_like, rotation matrices, default identity
        Joint frame to marker frame.
    offset : (6,) array_like, Parameter or Input, [m, m, m, rad, rad, rad], default zeros
        Prescribed relative [translation, Tait-Bryan rotation]; an Input is a signal of time, whose time
        derivative is taken as zero in the index-2 form and the initial accelerations, as Exudyn uses its
        offsetUserFunction on position level only.
    active : bool, default True
        False removes every equation (Exudyn's activeConnector); fixed at assembly (keyword only).
    velocity_form : "derivative" (default) or "exudyn"
        The velocity rows of the index-2 schemes (where a marker is on a rigid body) and the velocity outputs: d/dt
        of the equations and positions, or Exudyn's forms (module docstring; equal where the Euler parameters have
        unit norm; keyword only; the Exudyn layer sets "exudyn").

    Outputs (J0 coordinates unless said): Position and Velocity of marker 0 (global), DisplacementLocal,
    VelocityLocal, Rotation (Tait-Bryan angles of J0^T J1), AngularVelocityLocal, ForceLocal and TorqueLocal
    (the multipliers at their rows, zero on free axes; ForceLocal is J0^T lambda where all three translations
    are constrained, whose multipliers are global). The multipliers are the reactions on marker 0.
    RevoluteJoint and CylindricalJoint add Angle, the hinge angle, continuous over turns with a turn node.
    """

    type_name = "GenericJoint"
    output_variables = ("Position", "Velocity", "DisplacementLocal", "VelocityLocal", "Rotation",
                        "AngularVelocityLocal", "ForceLocal", "TorqueLocal")

    def __init__(self, marker_numbers, constrained_axes=(1, 1, 1, 1, 1, 1), rotation_marker0=np.eye(3),
                 rotation_marker1=np.eye(3), offset=(0.0,) * 6, name="", *, active=True, velocity_form="derivative"):
        super().__init__(marker_numbers, name)
        if velocity_form not in VELOCITY_FORMS:
            raise self.error(f"velocity_form must be one of {VELOCITY_FORMS}, got {velocity_form!r}")
        self.velocity_form = velocity_form
        axes = np.asarray(constrained_axes).reshape(-1)
        if axes.size != 6 or not all(value in (0, 1) for value in axes.tolist()):
            raise self.error(f"constrained_axes must be six flags 0/1, got {constrained_axes!r}")
        self.constrained_axes = [int(value) for value in axes.tolist()]
        self._set_joint_rotations(rotation_marker0, rotation_marker1)
        self.offset = self.vector(offset, 6, "offset", symbolic="input")
        self.active = fixed_active_flag(self, active)
        self.translation_rows = [k for k in range(3) if self.constrained_axes[k]] if self.active else []
        self.rotation_rows = _rotation_rows(self.constrained_axes[3:]) if self.active else []
        self.n_constraints = len(self.translation_rows) + len(self.rotation_rows)

    @property
    def all_translations(self) -> bool:
        return len(self.translation_rows) == 3

    def frames(self, ctx):
        """(J0, J0 turned by the rotation offset, J1), 3x3 each."""
        joint0, joint1 = self.joint_frames(ctx)
        angles = ctx.value(self.offset)[3:]
        if isinstance(self.offset, np.ndarray) and not np.any(self.offset[3:]):
            return joint0, joint0, joint1
        return joint0, joint0 @ rotations.rotation_matrix_from_rot_xyz(angles), joint1

    def add_terms(self, ctx):
        if not self.n_constraints:
            return
        joint0, turned0, joint1 = self.frames(ctx)
        x0, x1 = (m.position(ctx) for m in self.markers)
        offset = ctx.value(self.offset)
        if self.all_translations:
            translation = x1 - x0 - offset[:3]
        else:
            translation = ca.vertcat(*[ca.dot(turned0[:, k], x1 - x0) - offset[k] for k in self.translation_rows])
        rotation = [ca.dot(turned0[:, a], joint1[:, b]) for a, b, _ in self.rotation_rows]
        more = self.more_equations(ctx)
        ctx.add_constraint(self, ca.vertcat(translation, *rotation, more))
        if self.rotation_rows and not all(getattr(m, "rotation_jacobian_is_derivative", True) for m in self.markers):
            ctx.add_reaction_form(self, self.reaction_equations(ctx, joint0, turned0, joint1, translation, more))
        if any(m.has_index2_velocity for m in self.markers):  # the index-2 form, with omega (as the spherical)
            more_rate = ca.jtimes(more, ctx.q, ctx.v) + ca.jacobian(more, ctx.t)
            derivative = ca.vertcat(self.velocity_equations(ctx, joint0, turned0, joint1), more_rate)
            if self.velocity_form == "exudyn":
                ctx.add_velocity_constraint(self, ca.vertcat(self.exudyn_velocity_equations(ctx, joint0, joint1),
                                                             more_rate), reactions=derivative)
            else:
                ctx.add_velocity_constraint(self, derivative)

    def reaction_equations(self, ctx, joint0, turned0, joint1, translation, more):
        """J v of the reactions as Exudyn forms them: dC/dt of the translations and further equations, and for
        t_a0 . t_b1 the rows (omega_J1 - omega_J0) . (t_b1 x t_a0) with the markers' Jacobian angular velocities
        (``jacobian_angular_velocity``), which for a MarkerSuperElementRigid is not d/dt of its orientation."""
        omega0, omega1 = (m.jacobian_angular_velocity(ctx) for m in self.markers)
        rotation = [ca.dot(omega1 - omega0, ca.cross(joint1[:, b], turned0[:, a])) for a, b, _ in self.rotation_rows]
        return ca.vertcat(ca.jtimes(translation, ctx.q, ctx.v), *rotation, ca.jtimes(more, ctx.q, ctx.v))

    def more_equations(self, ctx):
        """Constraint equations after the joint's own (the turn node's of a RevoluteJoint); none here."""
        return ca.SX.zeros(0)

    def velocity_equations(self, ctx, joint0, turned0, joint1):
        """d/dt of the equations with point velocities and angular velocities, the offset held: for t_k0 . dp it
        is t_k0 . (v1 - v0) + (omega0 x t_k0) . dp, for t_a0 . t_b1 it is (omega1 - omega0) . (t_b1 x t_a0)
        (t_k0, t_a0 turned by the rotation offset)."""
        x0, x1 = (m.position(ctx) for m in self.markers)
        v0, v1 = (m.velocity_index2(ctx) for m in self.markers)
        omega0, omega1 = (m.angular_velocity(ctx) for m in self.markers)
        if self.all_translations:
            translation = v1 - v0
        else:
            translation = ca.vertcat(*[ca.dot(turned0[:, k], v1 - v0) + ca.dot(ca.cross(omega0, turned0[:, k]), x1 - x0)
                                       for k in self.translation_rows])
        rotation = [ca.dot(omega1 - omega0, ca.cross(joint1[:, b], turned0[:, a])) for a, b, _ in self.rotation_rows]
        return ca.vertcat(translation, *rotation)

    def exudyn_velocity_equations(self, ctx, joint0, joint1):
        """Exudyn's velocity rows (module docstring): t_k0 . (v1 - v0) + t_k0' . dp and t_a0' . t_b1 + t_a0 . t_b1',
        the axis rates t' of ``exudyn_axis_rate``, J0 without the rotation offset."""
        x0, x1 = (m.position(ctx) for m in self.markers)
        v0, v1 = (m.velocity_index2(ctx) for m in self.markers)
        marker0, marker1 = self.markers

        def rate(marker, rotation_marker, k):                      # t_k' of the joint axis k of the marker
            return exudyn_axis_rate(ctx, marker, rotation_marker[:, k])

        if self.all_translations:
            translation = v1 - v0
        else:
            translation = ca.vertcat(*[ca.dot(joint0[:, k], v1 - v0) + ca.dot(rate(marker0, self.rotation_marker0, k),
                                                                              x1 - x0)
                                       for k in self.translation_rows])
        rotation = [ca.dot(rate(marker0, self.rotation_marker0, a), joint1[:, b])
                    + ca.dot(joint0[:, a], rate(marker1, self.rotation_marker1, b)) for a, b, _ in self.rotation_rows]
        return ca.vertcat(translation, *rotation)

    def reactions(self, ctx):
        """(ForceLocal, TorqueLocal): the multipliers at their rows of the six, zero on free axes."""
        multipliers = ctx.multipliers(self) if self.n_constraints else ca.SX.zeros(0)
        force, torque = ca.SX.zeros(3), ca.SX.zeros(3)
        for i, k in enumerate(self.translation_rows):
            force[k] = multipliers[i]
        if self.all_translations:
            force = self.joint_frames(ctx)[0].T @ force
        for i, (_, _, row) in enumerate(self.rotation_rows):
            torque[row - 3] = multipliers[len(self.translation_rows) + i]
        return force, torque

    def output(self, ctx, variable):
        outputs = self.outputs(ctx)
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
        return outputs[variable]()

    def outputs(self, ctx):
        """{output variable: function returning its expression}."""
        joint0, joint1 = self.joint_frames(ctx)
        x0, x1 = (m.position(ctx) for m in self.markers)
        outputs = {"Position": lambda: x0,
                   "Velocity": lambda: ctx.time_derivative(x0),
                   "DisplacementLocal": lambda: joint0.T @ (x1 - x0),
                   "VelocityLocal": lambda: joint0.T @ ctx.time_derivative(x1 - x0),
                   "Rotation": lambda: rotations.rot_xyz_from_rotation_matrix(joint0.T @ joint1),
                   "AngularVelocityLocal": lambda: self.relative_angular_velocity(ctx, joint0),
                   "ForceLocal": lambda: self.reactions(ctx)[0],
                   "TorqueLocal": lambda: self.reactions(ctx)[1]}
        if self.velocity_form == "exudyn":
            outputs.update(self.exudyn_velocity_outputs(ctx, joint0))
        return outputs

    def exudyn_velocity_outputs(self, ctx, joint0):
        """{output variable: function} of Velocity (v0), VelocityLocal J0^T (v1 - v0) and AngularVelocityLocal
        J0^T (A_n1 omega_b1 - A_n0 omega_b0) in Exudyn's form (point velocities v + A_E (omega_b x p), see the module)."""
        def velocities():
            return [m.velocity_index2(ctx) for m in self.markers]

        def relative_angular_velocity():
            omega0, omega1 = (exudyn_angular_velocity(ctx, m) for m in self.markers)
            return joint0.T @ (omega1 - omega0)

        return {"Velocity": lambda: velocities()[0],
                "VelocityLocal": lambda: joint0.T @ (velocities()[1] - velocities()[0]),
                "AngularVelocityLocal": relative_angular_velocity}


class RevoluteJoint(TurnCounting, GenericJoint):
    """A hinge about the joint z axis: the points coincide, only the rotation about t_z0 is free
    (constrained_axes [1,1,1,1,1,0]; the equations of Exudyn's ObjectJointRevoluteZ).

    Besides GenericJoint's outputs, ``Angle``: the hinge angle phi [rad] about the joint z axis (J1 turned from
    J0), in (-pi, pi] without a turn node. With ``turn_node`` (a NodeGenericODE2 with one coordinate, no mass;
    its initial coordinate picks the turn at the start) the angle is continuous over any number of turns: the
    joint gains one constraint row, last of its rows, that lets the node follow the angle and exerts nothing
    (:class:`TurnCounting`; the turns are counted while the angle changes by less than pi in a step).
    CylindricalJoint takes a turn node too; the other named joints, which have no single free rotation about
    z, refuse it.

    Parameters
    ----------
    marker_numbers : sequence of two rigid markers
        Marker 0 and marker 1.
    rotation_marker0, rotation_marker1 : (3, 3) array_like, rotation matrices, default identity
        Joint frame to marker frame.
    offset : (6,) array_like, Parameter or Input, default zeros
        As GenericJoint's (keyword only).
    active : bool, default True
        False removes every equation (keyword only).
    turn_node : NodeGenericODE2 with one coordinate, int or None, default None
        Counts the turns of ``Angle`` (keyword only); it adds one constraint.
    velocity_form : "derivative" (default) or "exudyn"
        As GenericJoint's (keyword only).
    """

    type_name = "RevoluteJoint"
    output_variables = GenericJoint.output_variables + ("Angle",)  # Angle: the one free rotation, about z
    free_axes = (0, 0, 0, 0, 0, 1)

    def __init__(self, marker_numbers, rotation_marker0=np.eye(3), rotation_marker1=np.eye(3), name="", *,
                 offset=(0.0,) * 6, active=True, turn_node=None, velocity_form="derivative"):
        super().__init__(marker_numbers, [1 - free for free in self.free_axes], rotation_marker0, rotation_marker1,
                         offset, name, active=active, velocity_form=velocity_form)
        self._set_turn_node(turn_node)
        if turn_node is not None:
            if self.free_axes[3:] != (0, 0, 1):
                raise self.error("turn_node counts the turns about the joint z axis and needs a joint whose only "
                                 "free rotation is about it (RevoluteJoint, CylindricalJoint)")
            if not self.active:
                raise self.error("turn_node needs an active joint (an inactive joint holds no axis)")
            self.n_constraints += 1

    def connect(self, system):
        super().connect(system)
        self._connect_turn_node(system)

    def check(self, assembled):
        super().check(assembled)
        self._set_turn_start_values(assembled)

    def more_equations(self, ctx):
        return self.turn_equation(ctx)

    def outputs(self, ctx):
        outputs = super().outputs(ctx)
        if self.free_axes[3:] == (0, 0, 1):
            outputs["Angle"] = lambda: self.continuous_angle(ctx)[1]
        return outputs


class PrismaticJoint(RevoluteJoint):
    """A slider along the joint x axis: no relative rotation, only the translation along t_x0 is free
    (constrained_axes [0,1,1,1,1,1]; the equations of Exudyn's ObjectJointPrismaticX)."""

    type_name = "PrismaticJoint"
    output_variables = GenericJoint.output_variables  # no Angle
    free_axes = (1, 0, 0, 0, 0, 0)


class UniversalJoint(RevoluteJoint):
    """A Cardan joint: the points coincide, the rotations about t_x0 (marker 0's yoke) and t_y1 (marker 1's)
    are free; the one equation is t_x0 . t_y1 = 0 (constrained_axes [1,1,1,0,0,1])."""

    type_name = "UniversalJoint"
    output_variables = GenericJoint.output_variables  # no Angle
    free_axes = (0, 0, 0, 1, 1, 0)


class CylindricalJoint(RevoluteJoint):
    """Rotation about and translation along the joint z axis are free (constrained_axes [1,1,0,1,1,0])."""

    type_name = "CylindricalJoint"
    output_variables = RevoluteJoint.output_variables
    free_axes = (0, 0, 1, 0, 0, 1)


__all__ = ["TurnCounting", "GenericJoint", "RevoluteJoint", "PrismaticJoint", "UniversalJoint", "CylindricalJoint"]
