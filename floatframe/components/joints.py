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
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe import rotations
from floatframe.components.connectors import Connector, _JointFrameMixin, fixed_active_flag


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

    Outputs (J0 coordinates unless said): Position and Velocity of marker 0 (global), DisplacementLocal,
    VelocityLocal, Rotation (Tait-Bryan angles of J0^T J1), AngularVelocityLocal, ForceLocal and TorqueLocal
    (the multipliers at their rows, zero on free axes; ForceLocal is J0^T lambda where all three translations
    are constrained, whose multipliers are global). The multipliers are the reactions on marker 0.
    """

    type_name = "GenericJoint"

    def __init__(self, marker_numbers, constrained_axes=(1, 1, 1, 1, 1, 1), rotation_marker0=np.eye(3),
                 rotation_marker1=np.eye(3), offset=(0.0,) * 6, name="", *, active=True):
        super().__init__(marker_numbers, name)
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
        ctx.add_constraint(self, ca.vertcat(translation, *rotation))
        if any(m.has_index2_velocity for m in self.markers):  # Exudyn's index-2 form, with omega (as the spherical)
            ctx.add_velocity_constraint(self, self.velocity_equations(ctx, joint0, turned0, joint1))

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
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
        return outputs[variable]()


class RevoluteJoint(GenericJoint):
    """A hinge about the joint z axis: the points coincide, only the rotation about t_z0 is free
    (constrained_axes [1,1,1,1,1,0]; the equations of Exudyn's ObjectJointRevoluteZ)."""

    type_name = "RevoluteJoint"
    free_axes = (0, 0, 0, 0, 0, 1)

    def __init__(self, marker_numbers, rotation_marker0=np.eye(3), rotation_marker1=np.eye(3), name="", *,
                 offset=(0.0,) * 6, active=True):
        super().__init__(marker_numbers, [1 - free for free in self.free_axes], rotation_marker0, rotation_marker1,
                         offset, name, active=active)


class PrismaticJoint(RevoluteJoint):
    """A slider along the joint x axis: no relative rotation, only the translation along t_x0 is free
    (constrained_axes [0,1,1,1,1,1]; the equations of Exudyn's ObjectJointPrismaticX)."""

    type_name = "PrismaticJoint"
    free_axes = (1, 0, 0, 0, 0, 0)


class UniversalJoint(RevoluteJoint):
    """A Cardan joint: the points coincide, the rotations about t_x0 (marker 0's yoke) and t_y1 (marker 1's)
    are free; the one equation is t_x0 . t_y1 = 0 (constrained_axes [1,1,1,0,0,1])."""

    type_name = "UniversalJoint"
    free_axes = (0, 0, 0, 1, 1, 0)


class CylindricalJoint(RevoluteJoint):
    """Rotation about and translation along the joint z axis are free (constrained_axes [1,1,0,1,1,0])."""

    type_name = "CylindricalJoint"
    free_axes = (0, 0, 1, 0, 0, 1)


__all__ = ["GenericJoint", "RevoluteJoint", "PrismaticJoint", "UniversalJoint", "CylindricalJoint"]
