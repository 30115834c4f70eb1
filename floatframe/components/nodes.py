"""Nodes: the owners of coordinates.

Coordinates are stored as change from the reference values (as in the specification): the
configuration is ``reference_coordinates + q``.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe import rotations
from floatframe.components.base import Component, Context
from floatframe.parameters import Parameter


COORDINATE_OUTPUTS = ("Coordinates", "Coordinates_t", "Coordinates_tt", "CoordinatesTotal")
POSITION_OUTPUTS = ("Position", "Displacement", "Velocity", "Acceleration")
ORIENTATION_OUTPUTS = ("AngularVelocity", "AngularVelocityLocal", "AngularAcceleration", "RotationMatrix", "Rotation")


class Node(Component):
    """Base of the nodes: the owners of coordinates, stored as change from their reference values.

    Parameters
    ----------
    reference_coordinates : (n,) array_like
        Reference values of the n coordinates, in the coordinates' units.
    initial_coordinates : (n,) array_like, optional
        Initial values as change from the reference values; default zeros.
    initial_velocities : (n,) array_like, optional
        Initial time derivatives of the coordinates; default zeros.
    """

    family = "node"
    n_coordinates = 0
    n_constraints = 0
    output_variables = COORDINATE_OUTPUTS  # a node with a position adds POSITION_OUTPUTS

    def __init__(self, reference_coordinates, initial_coordinates=None, initial_velocities=None, name=""):
        super().__init__(name)
        n = self.n_coordinates
        self.reference_coordinates = self.vector(reference_coordinates, self.n_reference, "reference_coordinates")
        self.initial_coordinates = self.vector(np.zeros(n) if initial_coordinates is None else initial_coordinates,
                                               n, "initial_coordinates")
        self.initial_velocities = self.vector(np.zeros(n) if initial_velocities is None else initial_velocities,
                                              n, "initial_velocities")
        self.coordinate_indices = np.zeros(0, dtype=int)
        self.multiplier_indices = np.zeros(0, dtype=int)

    @property
    def n_reference(self) -> int:
        return self.n_coordinates

    # --- kinematics, in terms of the context ---------------------------------------------------
    def position(self, ctx: Context):
        """Global position of the node [m], 3-vector."""
        raise self.error("has no position")

    def rotation_matrix(self, ctx: Context):
        raise self.error("has no orientation")

    def output(self, ctx: Context, variable: str):
        """An output variable of the node as a CasADi expression, one of its ``output_variables`` (names of
        Exudyn's OutputVariableType).

        Coordinates(_t, _tt) are changes from the reference values, CoordinatesTotal includes them (both
        empty for a node without coordinates, as in Exudyn);
        Position, Displacement, Velocity, Acceleration are global 3-vectors [m, m/s, m/s^2] (nodes with a
        position); the orientation outputs are those of :meth:`extra_outputs`.
        """
        self.check_output(variable)
        kinematic = {
            "Coordinates": lambda: ctx.coordinates(self),
            "CoordinatesTotal": lambda: ctx.total_coordinates(self),
            "Coordinates_t": lambda: ctx.velocities(self),
            "Coordinates_tt": lambda: ctx.accelerations(self),
            "Position": lambda: self.position(ctx),
            "Displacement": lambda: self.position(ctx) - self.reference_position(),
            "Velocity": lambda: ctx.time_derivative(self.position(ctx)),
            "Acceleration": lambda: ca.jtimes(ctx.time_derivative(self.position(ctx)), ca.vertcat(ctx.q, ctx.v),
                                              ca.vertcat(ctx.v, ctx.a)),
        }
        kinematic.update(self.extra_outputs(ctx))
        return kinematic[variable]()

    def extra_outputs(self, ctx: Context) -> dict:
        """{output variable: function returning its expression} of the outputs a node type adds to the
        coordinate and position outputs (each also named in its ``output_variables``)."""
        return {}

    def reference_position(self) -> np.ndarray:
        return self.reference_coordinates[:3]


class NodePoint(Node):
    """A 3D point with 3 displacement coordinates (finite-element mesh node).

    Parameters
    ----------
    reference_coordinates : (3,) array_like, m
        Global reference position.
    initial_coordinates : (3,) array_like, m, optional
        Initial displacement from the reference position; default zeros.
    initial_velocities : (3,) array_like, m/s, optional
        Initial velocity, global; default zeros.
    """

    type_name = "NodePoint"
    n_coordinates = 3
    output_variables = COORDINATE_OUTPUTS + POSITION_OUTPUTS

    def position(self, ctx):
        return ctx.total_coordinates(self)


class NodePointGround(Node):
    """A fixed point without coordinates.

    Parameters
    ----------
    reference_coordinates : (3,) array_like, m
        Global position of the point.
    initial_coordinates : (0,) array_like, optional
        Empty: the node has no coordinates.
    initial_velocities : (0,) array_like, optional
        Empty: the node has no coordinates.
    """

    type_name = "NodePointGround"
    n_coordinates = 0
    output_variables = COORDINATE_OUTPUTS + POSITION_OUTPUTS

    @property
    def n_reference(self) -> int:
        return 3

    def position(self, ctx):
        return ca.DM(self.reference_coordinates)


class NodeData(Node):
    """Data values without equations of their own (Exudyn's NodeGenericData where it is no turn counter): held by a
    Parameter, changed only between Newton solves (``floatframe.solvers.switching``); output Coordinates gives them.

    Parameters
    ----------
    data : Parameter
        The values (k,), shared with the components whose terms read them.
    """

    type_name = "NodeData"
    n_coordinates = 0
    output_variables = ("Coordinates",)

    def __init__(self, data, name=""):
        super().__init__(np.zeros(0), name=name)
        if not isinstance(data, Parameter):
            raise self.error(f"data must be a Parameter, got {data!r}")
        self.data = data

    def add_terms(self, ctx):
        ctx.value(self.data)   # a Parameter of the system also where only outputs read it

    def output(self, ctx, variable):
        self.check_output(variable)
        return ctx.value(self.data)


class NodeRigidBodyEP(Node):
    """Rigid-body node: 3 position and 4 Euler-parameter coordinates [q0, q1, q2, theta0..theta3].

    The Euler parameters are a unit quaternion with the scalar part first: theta0 = cos(phi/2),
    (theta1, theta2, theta3) = sin(phi/2) * axis, so [1, 0, 0, 0] is no rotation. A quaternion in
    x, y, z, w order is also of unit norm and cannot be detected: reorder it to (w, x, y, z).

    The Euler-parameter norm constraint is added automatically, written as theta^T theta - 1 = 0 (the
    specification states 1 - theta^T theta = 0; the sign only flips the multiplier, and this form gives
    the same multiplier as Exudyn).

    Parameters
    ----------
    reference_coordinates : (7,) array_like, [m, m, m, 1, 1, 1, 1]
        Global reference position of the node and reference Euler parameters (theta0, theta1, theta2, theta3),
        scalar part first.
    initial_coordinates : (7,) array_like, [m, 1], optional
        Initial change from the reference values; default zeros. The total Euler parameters (reference plus
        initial) must have unit norm to 1e-10.
    initial_velocities : (7,) array_like, [m/s, 1/s], optional
        Initial velocity (global) and Euler-parameter rates theta_t; default zeros. For an angular velocity
        omega (global, rad/s) the rates are theta_t = G^T omega / 4 (``rotations.euler_parameters_t``).
    unit_form : bool, default False
        True: the rotation matrix is A_E = I + 2 theta0 e~ + 2 e~ e~ (``rotations.rotation_matrix_unit_form``,
        Exudyn's), and the rigid body on the node takes point velocities v + A_E (omega_b x p) and point forces
        G_l^T (p x A_E^T F), as Exudyn does; False: the homogeneous A (``rotations.rotation_matrix``), dx/dt and
        the projected J^T F. Both are equal where |theta| = 1; they differ where the norm drifts (the index-2
        schemes) and in Newton iterates off it (keyword only; the Exudyn layer sets it).
    """

    type_name = "NodeRigidBodyEP"
    n_coordinates = 7
    n_constraints = 1
    output_variables = COORDINATE_OUTPUTS + POSITION_OUTPUTS + ORIENTATION_OUTPUTS

    def __init__(self, reference_coordinates, initial_coordinates=None, initial_velocities=None, name="", *,
                 unit_form=False):
        super().__init__(reference_coordinates, initial_coordinates, initial_velocities, name)
        self.unit_form = bool(unit_form)
        theta = self.reference_coordinates[3:] + self.initial_coordinates[3:]
        if abs(theta @ theta - 1.0) > 1e-10:
            raise self.error(f"Euler parameters must have unit norm, |theta|^2 - 1 = {theta @ theta - 1.0:.3e}")

    def euler_parameters(self, ctx):
        return ctx.total_coordinates(self)[3:]

    def position(self, ctx):
        return ctx.total_coordinates(self)[:3]

    def rotation_matrix(self, ctx):
        """A(theta), or A_E(theta) with ``unit_form`` (equal where |theta| = 1)."""
        theta = self.euler_parameters(ctx)
        return rotations.rotation_matrix_unit_form(theta) if self.unit_form else rotations.rotation_matrix(theta)

    def angular_velocity_local(self, ctx):
        """omega_b = G_local theta_t, body-fixed angular velocity [rad/s]."""
        return rotations.g_local(self.euler_parameters(ctx)) @ ctx.velocities(self)[3:]

    def angular_velocity(self, ctx):
        """omega = G theta_t, global angular velocity [rad/s]."""
        return rotations.g_global(self.euler_parameters(ctx)) @ ctx.velocities(self)[3:]

    def angular_acceleration(self, ctx):
        """alpha = d/dt omega = G theta_tt, global angular acceleration [rad/s^2] (G(theta_t) theta_t = 0)."""
        return ca.jtimes(self.angular_velocity(ctx), ca.vertcat(ctx.q, ctx.v), ca.vertcat(ctx.v, ctx.a))

    def extra_outputs(self, ctx):
        """Orientation outputs: AngularVelocity(Local) [rad/s], AngularAcceleration [rad/s^2] (global),
        RotationMatrix (A row by row, 9 entries) and Rotation (Tait-Bryan xyz angles of A [rad])."""
        return {
            "AngularVelocity": lambda: self.angular_velocity(ctx),
            "AngularVelocityLocal": lambda: self.angular_velocity_local(ctx),
            "RotationMatrix": lambda: rotations.rotation_matrix_rows(self.rotation_matrix(ctx)),
            "Rotation": lambda: rotations.rot_xyz_from_rotation_matrix(self.rotation_matrix(ctx)),
            "AngularAcceleration": lambda: self.angular_acceleration(ctx),
        }

    def add_terms(self, ctx):
        theta = self.euler_parameters(ctx)
        ctx.add_constraint(self, ca.dot(theta, theta) - 1.0)  # sum theta_i^2 - 1 = 0


class NodeGenericODE2(Node):
    """n generic second-order coordinates without geometric meaning, e.g. the modal coordinates zeta of a
    reduced-order FFRF body. Outputs: Coordinates, Coordinates_t, Coordinates_tt (change from reference),
    CoordinatesTotal.

    Parameters
    ----------
    reference_coordinates : (n,) array_like, n >= 1
        Reference values, in the coordinates' own units; n sets the number of coordinates.
    initial_coordinates : (n,) array_like, optional
        Initial change from the reference values; default zeros.
    initial_velocities : (n,) array_like, optional
        Initial rates, in the coordinates' units per second; default zeros.
    """

    type_name = "NodeGenericODE2"
    output_variables = COORDINATE_OUTPUTS

    def __init__(self, reference_coordinates, initial_coordinates=None, initial_velocities=None, name=""):
        self.n_coordinates = int(np.size(reference_coordinates))
        super().__init__(reference_coordinates, initial_coordinates, initial_velocities, name)
        if self.n_coordinates == 0:
            raise self.error("needs at least one coordinate")


class Node1D(Node):
    """One second-order coordinate c (Exudyn's Node1D), e.g. the position of an ObjectMass1D along its axis.

    Outputs: Coordinates, Coordinates_t, Coordinates_tt (change from reference) and CoordinatesTotal; the
    node has no position (the body it carries gives one).

    Parameters
    ----------
    reference_coordinates : (1,) array_like
        Reference value of the coordinate c, in its unit (m for an ObjectMass1D).
    initial_coordinates : (1,) array_like, optional
        Initial change from the reference value; default zero.
    initial_velocities : (1,) array_like, optional
        Initial rate c_t; default zero.
    """

    type_name = "Node1D"
    n_coordinates = 1
    output_variables = COORDINATE_OUTPUTS
