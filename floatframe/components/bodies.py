"""Bodies without flexibility: the ground, the mass point on a point node, the 1D mass on a Node1D and the
rigid body on an Euler-parameter node."""
from __future__ import annotations

import warnings

import casadi as ca
import numpy as np

from floatframe import rotations
from floatframe.components.base import Component, resolve
from floatframe.components.nodes import Node1D, NodeGenericODE2, NodePoint, NodeRigidBodyEP
from floatframe.parameters import Parameter


BODY_OUTPUTS = ("Position", "Displacement", "Velocity", "VelocityLocal", "Acceleration", "AccelerationLocal",
                "AngularVelocity", "AngularVelocityLocal", "AngularAcceleration", "AngularAccelerationLocal",
                "RotationMatrix", "Rotation")


class Body(Component):
    """A body with body-fixed points; its outputs are those of a point fixed on it (Exudyn's body outputs).

    Every body gives all of ``BODY_OUTPUTS``; on a body that does not turn (ground, mass point, 1D mass) the
    rotation outputs are those of its fixed axes (the identity unless it has a reference rotation) and the
    angular velocities and accelerations are zero."""

    family = "object"
    output_variables = BODY_OUTPUTS

    def local_position(self, ctx, local_position):
        """Global position of a body-fixed point [m]."""
        raise self.error("has no body-fixed points")

    # --- motion of the body frame; a body that does not move keeps these defaults ---------------
    def rotation_matrix(self, ctx):
        """A, 3x3: body-fixed to global."""
        return ca.DM.eye(3)

    def angular_velocity(self, ctx):
        """omega, global [rad/s]."""
        return ca.DM.zeros(3)

    def angular_velocity_local(self, ctx):
        """omega_b, body-fixed [rad/s]."""
        return self.rotation_matrix(ctx).T @ self.angular_velocity(ctx)

    def angular_acceleration(self, ctx):
        """alpha = d/dt omega, global [rad/s^2]."""
        return ca.DM.zeros(3)

    def origin_acceleration(self, ctx):
        """Acceleration of the body's origin (its node), global [m/s^2]."""
        return ca.DM.zeros(3)

    def point_acceleration(self, ctx, local_position):
        """a_p = a_0 + alpha x (A r) + omega x (omega x (A r)) for the body-fixed point r, global [m/s^2]."""
        arm = self.rotation_matrix(ctx) @ ca.DM(local_position)
        omega = self.angular_velocity(ctx)
        return (self.origin_acceleration(ctx) + ca.cross(self.angular_acceleration(ctx), arm)
                + ca.cross(omega, ca.cross(omega, arm)))

    def output(self, ctx, variable, local_position=(0.0, 0.0, 0.0)):
        """An output variable at the body-fixed point ``local_position`` [m] (Exudyn's names).

        Position, Displacement, Velocity, Acceleration: of the point, global; VelocityLocal and
        AccelerationLocal: the same in body axes (A^T v, A^T a); AngularVelocity(Local) [rad/s],
        AngularAcceleration(Local) [rad/s^2]; RotationMatrix (A row by row, 9 entries); Rotation
        (Tait-Bryan xyz angles of A [rad]). Any other name is refused (``output_variables``).
        """
        self.check_output(variable)
        point = np.asarray(local_position, dtype=float)
        position = self.local_position(ctx, point)
        rotation = self.rotation_matrix(ctx)
        outputs = {
            "Position": lambda: position,
            "Displacement": lambda: position - self.reference_point(point),
            "Velocity": lambda: ctx.time_derivative(position),
            "VelocityLocal": lambda: rotation.T @ ctx.time_derivative(position),
            "Acceleration": lambda: self.point_acceleration(ctx, point),
            "AccelerationLocal": lambda: rotation.T @ self.point_acceleration(ctx, point),
            "AngularVelocity": lambda: self.angular_velocity(ctx),
            "AngularVelocityLocal": lambda: self.angular_velocity_local(ctx),
            "AngularAcceleration": lambda: self.angular_acceleration(ctx),
            "AngularAccelerationLocal": lambda: rotation.T @ self.angular_acceleration(ctx),
            "RotationMatrix": lambda: rotations.rotation_matrix_rows(rotation),
            "Rotation": lambda: rotations.rot_xyz_from_rotation_matrix(rotation),
        }
        return outputs[variable]()


def rotation_parameter(owner, value, what) -> np.ndarray:
    """A 3x3 rotation matrix (R^T R = I and det R = 1 to 1e-10), or an error naming ``owner`` and ``what``."""
    rotation = owner.matrix(value, (3, 3), what)
    orthogonality = np.abs(rotation.T @ rotation - np.eye(3)).max()
    determinant = np.linalg.det(rotation)
    if orthogonality > 1e-10 or determinant < 0:
        raise owner.error(f"{what} must be a rotation matrix (R^T R = I, det R = 1), got max|R^T R - I| = "
                          f"{orthogonality:.3e}, det R = {determinant:.6g}")
    return rotation


class ObjectGround(Body):
    """The fixed ground at ``reference_position`` [m], its axes turned by ``reference_rotation`` A (body to
    global, Exudyn's referenceRotation); a body-fixed point p is at reference_position + A p.

    Parameters
    ----------
    reference_position : (3,) array_like, m, default (0, 0, 0)
        Global position of the ground's origin.
    reference_rotation : (3, 3) array_like, rotation matrix (R^T R = I, det R = 1), default identity
        A, body-fixed axes to global (Exudyn's referenceRotation).
    """

    type_name = "ObjectGround"
    has_orientation = True

    def __init__(self, reference_position=(0.0, 0.0, 0.0), reference_rotation=np.eye(3), name=""):
        super().__init__(name)
        self.reference_position = self.vector(reference_position, 3, "reference_position")
        self.reference_rotation = rotation_parameter(self, reference_rotation, "reference_rotation")

    def local_position(self, ctx, local_position):
        return ca.DM(self.reference_point(local_position))

    def rotation_matrix(self, ctx):
        return ca.DM(self.reference_rotation)

    def reference_point(self, local_position):
        return self.reference_position + self.reference_rotation @ np.asarray(local_position, dtype=float)


def inertia_from_six(values) -> np.ndarray:
    """3x3 inertia tensor from [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy] (the usual six-entry order)."""
    jxx, jyy, jzz, jyz, jxz, jxy = values
    return np.array([[jxx, jxy, jxz], [jxy, jyy, jyz], [jxz, jyz, jzz]], dtype=float)


class ImpossibleInertiaWarning(UserWarning):
    """A rigid body's inertia breaks the triangle inequality of its principal values and is simulated as given."""


INERTIA_TOLERANCE = 1e-9  # relative to the largest principal value of the inertia as given: round-off


def inertia_fault(inertia, mass=0.0, center_of_mass=(0.0, 0.0, 0.0), triangle_inequality=True) -> str | None:
    """Why a rigid-body inertia is physically impossible, or None where it is possible.

    The principal values J_1 <= J_2 <= J_3 of J_C (its eigenvalues) must be those of a mass distribution:
    J_1 >= 0 and J_1 + J_2 >= J_3 (the triangle inequality; J_1 + J_2 - J_3 = 2 int rho z^2 dV along the third
    principal axis), both to INERTIA_TOLERANCE (1e-9) times the largest principal value of J itself (round-off
    of the Steiner term included). Zero principal values are possible: a point mass (J_C = 0), a thin rod
    (0, J, J), a flat plate (J_1 + J_2 = J_3); a zero principal inertia leaves the rotation about that axis
    without inertia, which a constraint or another body must fix.

    Parameters
    ----------
    inertia : (3, 3) array_like, kg m^2
        J, symmetric, about a reference point of the body.
    mass : float, kg, default 0.0
        m.
    center_of_mass : (3,) array_like, m, default (0, 0, 0)
        b, from the reference point to the centre of mass: the inertia about the centre of mass is
        J_C = J - m (b^T b I - b b^T) (Steiner).
    triangle_inequality : bool, default True
        Whether J_1 + J_2 >= J_3 is checked (False: only J_1 >= 0).

    Returns
    -------
    str or None
        The fault, with the principal values, for an error message.
    """
    matrix = np.asarray(inertia, dtype=float)
    offset = np.asarray(center_of_mass, dtype=float).reshape(3)
    scale = float(np.abs(np.linalg.eigvalsh(0.5 * (matrix + matrix.T))).max())
    central = matrix - mass * (offset @ offset * np.eye(3) - np.outer(offset, offset))
    principal = np.linalg.eigvalsh(0.5 * (central + central.T))
    about = "about the centre of mass" if mass and np.any(offset) else "principal inertias"
    values = ", ".join(f"{value:.6g}" for value in principal)
    tolerance = INERTIA_TOLERANCE * scale
    if principal[0] < -tolerance:
        return (f"inertia has the negative principal value {principal[0]:.6g} kg m^2 ({about}: {values}); a body "
                f"would turn against its torque about that axis")
    if triangle_inequality and principal[0] + principal[1] < principal[2] - tolerance:
        return (f"inertia breaks the triangle inequality J1 + J2 >= J3 of its principal values ({about}: {values}; "
                f"{principal[0]:.6g} + {principal[1]:.6g} < {principal[2]:.6g}): no mass distribution has it")
    return None


def euler_rotation(theta):
    """A_E = I + 2 theta0 e~ + 2 e~ e~ (e = theta_1..3), 3x3: the rotation matrix of Euler parameters in the
    form that is not normalised by theta^T theta (Exudyn's; ``rotations.rotation_matrix_unit_form``). It equals
    ``rotations.rotation_matrix`` where theta^T theta = 1 and is used where the index-2 schemes, whose norm
    drifts, must give Exudyn's numbers."""
    e_tilde = ca.skew(theta[1:])
    return ca.DM.eye(3) + 2 * theta[0] * e_tilde + 2 * e_tilde @ e_tilde


class ObjectRigidBody(Body):
    """Rigid body on an Euler-parameter node, its centre of mass at ``center_of_mass`` from the node.

    Equations (omega_b = G_l theta_t, alpha_b = G_l theta_tt + G_l(theta_t) theta_t, A the rotation):

        m (a + A (alpha_b x b + omega_b x (omega_b x b)))                    = f
        G_l^T (J alpha_b + omega_b x J omega_b + m b x (A^T a))              = G_l^T tau_b

    Parameters
    ----------
    node_number : NodeRigidBodyEP or int
        The node (item or number) whose 7 coordinates the body uses.
    mass : float or Parameter, kg
        m >= 0.
    inertia : (3, 3) or (6,) array_like, or Parameter of size 6, kg m^2
        J about the node (the body's reference point, as Exudyn's physicsInertia), in body axes; six entries
        are [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy]. With b = 0 it is the inertia about the centre of mass; otherwise
        J = J_C + m (b^T b I - b b^T) (Steiner) for the inertia J_C about the centre of mass.
        J_C must be one of a mass distribution (:func:`inertia_fault`): principal values >= 0 and
        J1 + J2 >= J3, to 1e-9 of the largest principal value of J; zero principal values are allowed.
    center_of_mass : (3,) array_like or Parameter, m, default (0, 0, 0)
        b, body-fixed, from the node to the centre of mass (Exudyn's physicsCenterOfMass).
    broken_triangle : "refuse" (default) or "warn"
        What an inertia that breaks J1 + J2 >= J3 gets: a ValueError, or an ImpossibleInertiaWarning with the body
        simulated as given (as Exudyn does; such an inertia is harmless only where joints leave the body one axis
        of rotation). A negative principal value is always refused.
    """

    type_name = "ObjectRigidBody"
    has_orientation = True

    def __init__(self, node_number, mass, inertia, center_of_mass=(0.0, 0.0, 0.0), name="", *,
                 broken_triangle="refuse"):
        super().__init__(name)
        if broken_triangle not in ("refuse", "warn"):
            raise self.error(f"broken_triangle must be 'refuse' or 'warn', got {broken_triangle!r}")
        self.broken_triangle = broken_triangle
        self.node_number = node_number
        self.mass = self.vector(mass, 1, "mass", symbolic=True)
        if isinstance(inertia, Parameter):
            self.inertia = self.vector(inertia, 6, "inertia", symbolic=True)
        else:
            matrix = np.asarray(inertia, dtype=float)
            if matrix.size == 6:
                matrix = inertia_from_six(self.vector(matrix, 6, "inertia"))
            self.inertia = self.matrix(matrix, (3, 3), "inertia")
            if not np.allclose(self.inertia, self.inertia.T, rtol=1e-12, atol=0):
                raise self.error("inertia must be symmetric")
        self.center_of_mass = self.vector(center_of_mass, 3, "center_of_mass", symbolic=True)
        if not isinstance(self.mass, Parameter) and self.mass[0] < 0:
            raise self.error(f"mass must be >= 0, got {self.mass[0]}")
        self.check_inertia()

    def check_inertia(self) -> None:
        """Refuse an inertia that no mass distribution has (:func:`inertia_fault`), about the centre of mass
        where mass and centre of mass are numbers; a Parameter is checked at its value, if it has one. With
        ``broken_triangle="warn"`` a broken triangle inequality is a warning."""
        inertia, mass, offset = (value.value if isinstance(value, Parameter) else value
                                 for value in (self.inertia, self.mass, self.center_of_mass))
        if inertia is None:
            return
        inertia = np.asarray(inertia, dtype=float)
        if inertia.size == 6:
            inertia = inertia_from_six(inertia.reshape(-1))
        steiner = mass is not None and offset is not None
        arguments = (inertia, float(np.reshape(mass, -1)[0]) if steiner else 0.0, offset if steiner else np.zeros(3))
        fault = inertia_fault(*arguments, triangle_inequality=self.broken_triangle == "refuse")
        if fault:
            raise self.error(fault)
        broken = inertia_fault(*arguments)
        if broken:
            warnings.warn(f"{self.label}: {broken}; simulated as given", ImpossibleInertiaWarning, stacklevel=4)

    @property
    def has_offset(self) -> bool:
        """Whether the centre of mass may be away from the node (a Parameter counts as away)."""
        return isinstance(self.center_of_mass, Parameter) or bool(np.any(self.center_of_mass != 0))

    def connect(self, system):
        self.node = resolve(system, "node", self.node_number, self, "node_number")
        if not isinstance(self.node, NodeRigidBodyEP):
            raise self.error(f"node_number must refer to a NodeRigidBodyEP, got {self.node.label}")

    def inertia_matrix(self, ctx):
        """J about the node, body axes, 3x3 (a Parameter's six entries arranged symmetrically)."""
        inertia = ctx.value(self.inertia)
        if inertia.numel() == 6:  # a Parameter [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy]
            inertia = ca.vertcat(ca.horzcat(inertia[0], inertia[5], inertia[4]),
                                 ca.horzcat(inertia[5], inertia[1], inertia[3]),
                                 ca.horzcat(inertia[4], inertia[3], inertia[2]))
        return inertia

    def add_terms(self, ctx):
        node = self.node
        theta = node.euler_parameters(ctx)
        theta_t = ctx.velocities(node)[3:]
        acceleration = ctx.accelerations(node)
        g_local = rotations.g_local(theta)
        omega = g_local @ theta_t                                                          # omega_b
        alpha = g_local @ acceleration[3:] + rotations.g_local(theta_t) @ theta_t         # alpha_b
        inertia = self.inertia_matrix(ctx)
        mass = ctx.value(self.mass)
        translational = mass * acceleration[:3]
        moment = inertia @ alpha + ca.cross(omega, inertia @ omega)
        if self.has_offset:
            b = ctx.value(self.center_of_mass)
            rotation = euler_rotation(theta)
            translational += mass * (rotation @ (ca.cross(alpha, b) + ca.cross(omega, ca.cross(omega, b))))
            moment += mass * ca.cross(b, rotation.T @ acceleration[:3])                   # m b x (A^T a)
        ctx.add_lhs(node.coordinate_indices, ca.vertcat(translational, g_local.T @ moment))

    def add_mass_proportional_load(self, ctx, acceleration):
        """Generalized force of a body force m g, g [m/s^2] global (gravity), acting at the centre of mass:
        m g on the position rows and G_l^T (b x A^T m g) on the Euler parameters."""
        force = ctx.value(self.mass) * acceleration
        rows = self.node.coordinate_indices
        ctx.add_force(rows[:3], force)
        if self.has_offset:
            theta = self.node.euler_parameters(ctx)
            local = euler_rotation(theta).T @ force
            ctx.add_force(rows[3:], rotations.g_local(theta).T @ ca.cross(ctx.value(self.center_of_mass), local))

    def local_position(self, ctx, local_position):
        return self.node.position(ctx) + self.node.rotation_matrix(ctx) @ ca.DM(local_position)

    @property
    def unit_form(self) -> bool:
        """True where the node takes Exudyn's unit form (``NodeRigidBodyEP(unit_form=True)``): point forces and
        point velocities of markers are then ``apply_point_force`` and ``point_velocity``."""
        return self.node.unit_form

    def apply_point_force(self, ctx, local_position, force):
        """Generalized force of a global ``force`` [N] at the body-fixed point p = ``local_position``: F on the
        position rows, G_l^T (p x A_E^T F) on the Euler parameters (virtual work through omega_b = G_l theta_t,
        with Exudyn's A_E; where |theta| = 1 it is the projected J^T F of ``Context.add_force_at``)."""
        rows = self.node.coordinate_indices
        theta = self.node.euler_parameters(ctx)
        ctx.add_force(rows[:3], force)
        ctx.add_force(rows[3:], rotations.g_local(theta).T @ ca.cross(ca.DM(local_position),
                                                                     euler_rotation(theta).T @ force))

    def rotation_matrix(self, ctx):
        return self.node.rotation_matrix(ctx)

    def point_velocity(self, ctx, local_position):
        """Velocity [m/s] of a body-fixed point in the index-2 form: v + A_E (omega_b x p).

        omega_b = G_local theta_t and A_E = I + 2 theta0 e~ + 2 e~ e~ (e = theta_1..3), the rotation
        matrix that is not normalised by theta^T theta. On theta^T theta = 1 this is d/dt of
        ``local_position``; off it (the norm drifts at index 2) it is Exudyn's velocity-level form.
        """
        theta = self.node.euler_parameters(ctx)
        rotation = euler_rotation(theta)                                                # A_E
        omega_local = rotations.g_local(theta) @ ctx.velocities(self.node)[3:]
        return ctx.velocities(self.node)[:3] + rotation @ ca.cross(omega_local, ca.DM(local_position))

    def angular_velocity(self, ctx):
        return self.node.angular_velocity(ctx)

    def angular_velocity_local(self, ctx):
        return self.node.angular_velocity_local(ctx)

    def angular_acceleration(self, ctx):
        return self.node.angular_acceleration(ctx)

    def origin_acceleration(self, ctx):
        return ctx.accelerations(self.node)[:3]

    def reference_point(self, local_position):
        theta = self.node.reference_coordinates[3:]
        return self.node.reference_coordinates[:3] + rotations.rotation_matrix(theta) @ np.asarray(local_position)


class ObjectMassPoint(Body):
    """A point mass ``mass`` [kg] on a NodePoint (3 displacement coordinates): m a = f. Body-fixed points are
    offsets that do not turn (the point has no orientation).

    Parameters
    ----------
    node_number : NodePoint or int
        The node that carries the mass (the item or its number).
    mass : float or Parameter, kg
        m >= 0.
    """

    type_name = "ObjectMassPoint"
    has_orientation = False
    node_class = NodePoint   # the node kind it sits on (ObjectMassPoint2D: NodePoint2D)

    def __init__(self, node_number, mass, name=""):
        super().__init__(name)
        self.node_number = node_number
        self.mass = self.vector(mass, 1, "mass", symbolic=True)
        if not isinstance(self.mass, Parameter) and self.mass[0] < 0:
            raise self.error(f"mass must be >= 0, got {self.mass[0]}")

    def connect(self, system):
        self.node = resolve(system, "node", self.node_number, self, "node_number")
        if not isinstance(self.node, self.node_class):
            raise self.error(f"node_number must refer to a {self.node_class.__name__}, got {self.node.label}")

    def add_terms(self, ctx):
        ctx.add_lhs(self.node.coordinate_indices, ctx.value(self.mass) * ctx.accelerations(self.node))  # m a

    def add_mass_proportional_load(self, ctx, acceleration):
        """m g [N] on the point, g [m/s^2] global."""
        ctx.add_force(self.node.coordinate_indices, ctx.value(self.mass) * acceleration)

    def local_position(self, ctx, local_position):
        return self.node.position(ctx) + ca.DM(local_position)

    def origin_acceleration(self, ctx):
        return ctx.accelerations(self.node)

    def reference_point(self, local_position):
        return self.node.reference_coordinates + np.asarray(local_position, dtype=float)


def one_coordinate_node(system, item):
    """The node that ``item.node_number`` names, which must have one coordinate: a Node1D, or a NodeGenericODE2 with
    one coordinate (as in Exudyn); else the item's error naming it."""
    node = resolve(system, "node", item.node_number, item, "node_number")
    if not (isinstance(node, Node1D) or (isinstance(node, NodeGenericODE2) and node.n_coordinates == 1)):
        raise item.error(f"node_number must refer to a Node1D (or a NodeGenericODE2 with one coordinate), "
                         f"got {node.label} with {node.n_coordinates} coordinates")
    return node


class ObjectMass1D(Body):
    """A mass ``mass`` [kg] on a Node1D (Exudyn's ObjectMass1D; a NodeGenericODE2 with one coordinate also
    does, as in Exudyn): m c_tt = f, with c the node's coordinate.

    The mass sits at p = reference_position + A [c_total, 0, 0] (A = ``reference_rotation``, constant): its
    coordinate moves it along the rotated local x axis; a body-fixed point r is at p + A r. A force F acts
    through e_x^T A^T F; torques have no effect. Outputs as Exudyn's: Position, Displacement A [c, 0, 0],
    Velocity, RotationMatrix, Rotation, AngularVelocity(Local) (zero).

    Parameters
    ----------
    node_number : Node1D, NodeGenericODE2 with one coordinate, or int
        The node whose coordinate c moves the mass.
    mass : float or Parameter, kg
        m >= 0.
    reference_position : (3,) array_like, m, default (0, 0, 0)
        Global position of the mass at c = 0.
    reference_rotation : (3, 3) array_like, rotation matrix (R^T R = I, det R = 1), default identity
        A, constant; the mass moves along its first column (the rotated x axis).
    """

    type_name = "ObjectMass1D"
    has_orientation = True

    def __init__(self, node_number, mass, reference_position=(0.0, 0.0, 0.0), reference_rotation=np.eye(3), name=""):
        super().__init__(name)
        self.node_number = node_number
        self.mass = self.vector(mass, 1, "mass", symbolic=True)
        if not isinstance(self.mass, Parameter) and self.mass[0] < 0:
            raise self.error(f"mass must be >= 0, got {self.mass[0]}")
        self.reference_position = self.vector(reference_position, 3, "reference_position")
        self.reference_rotation = rotation_parameter(self, reference_rotation, "reference_rotation")

    def connect(self, system):
        self.node = one_coordinate_node(system, self)

    def add_terms(self, ctx):
        ctx.add_lhs(self.node.coordinate_indices, ctx.value(self.mass) * ctx.accelerations(self.node))   # m c_tt

    def add_mass_proportional_load(self, ctx, acceleration):
        """e_x^T A^T m g [N] on the coordinate, g [m/s^2] global."""
        axis = ca.DM(self.reference_rotation[:, 0])                                         # A e_x
        ctx.add_force(self.node.coordinate_indices, ctx.value(self.mass) * ca.dot(axis, acceleration))

    def local_position(self, ctx, local_position):
        axis = ca.DM(self.reference_rotation[:, 0])
        return (ca.DM(self.reference_position + self.reference_rotation @ np.asarray(local_position, dtype=float))
                + axis * ctx.total_coordinates(self.node)[0])

    def rotation_matrix(self, ctx):
        return ca.DM(self.reference_rotation)

    def origin_acceleration(self, ctx):
        return ca.DM(self.reference_rotation[:, 0]) * ctx.accelerations(self.node)[0]

    def reference_point(self, local_position):
        return (self.reference_position + self.reference_rotation[:, 0] * self.node.reference_coordinates[0]
                + self.reference_rotation @ np.asarray(local_position, dtype=float))
