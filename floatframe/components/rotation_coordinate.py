"""A rigid node's rotation about a global axis in a velocity-level coordinate constraint (Exudyn's
MarkerNodeRotationCoordinate in an ObjectConnectorCoordinate with velocityLevel).

Exudyn's marker gives, for its node and axis k (0, 1, 2 = global x, y, z), the value rot_k, the k-th Tait-Bryan x-y-z
angle of the node's rotation, but the rate and the Jacobian of omega_k = G_k(q) q_t, the k-th component of the global
angular velocity (CMarkerNodeRotationCoordinate: GetAngularVelocity, GetRotationJacobian). At velocity level the
constraint (Exudyn's ObjectConnectorCoordinate)

    g(t, q, q_t) = factor1 r_1 - r_0 - offset(t) = 0,

r_i = omega_k of a rotation marker or q_t of a coordinate marker, is therefore non-holonomic: omega_k is the rate
of no function of q unless the node turns about axis k only. floatframe's DAE has position-level constraints
only, so :class:`VelocityCoordinateConstraint` adds a massless auxiliary coordinate s (in a node of its own, which
joins the system with the constraint) whose row of the equations of motion is

    (s_t - g) + TAU (s_tt - d/dt g) = 0,

and imposes the position-level constraint s = 0. Its reactions are Exudyn's, J^T lambda with J = dg/dq_t
(factor1 G_k^T lambda on the node's rotation coordinates, -lambda on a coordinate q_0: the constraint's reaction
form, ``Context.add_reaction_form``); s takes none. The index-2 schemes impose Exudyn's row g = 0 itself
(``Context.add_velocity_constraint``).

At index 3, s = 0 at every step makes s_t vanish at every step as well (generalized-alpha and Newmark update a
coordinate linearly from the last step's values; s, s_t and the algorithmic s_tt start at 0, as the consistent
initial accelerations give s_tt(0) = 0), so the row leaves g = -TAU d/dt g at every step: Exudyn's velocity row
up to the term in TAU. TAU [s] is a time constant far below any step size; the term makes the consistent initial
accelerations solvable, which solve the equations of motion on acceleration level: there the row is d/dt g = 0,
the derivative of the velocity row (as Exudyn takes it), and without the term the row would have no acceleration
in it, and that system would be singular.

The initial velocities should meet g = 0 (as for Exudyn's velocity row; s_t(0) is set to g(0)).
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe import rotations
from floatframe.components.base import resolve
from floatframe.components.connectors import Connector, fixed_active_flag
from floatframe.components.markers import Marker
from floatframe.components.nodes import NodeGenericODE2, NodeRigidBodyEP
from floatframe.components.rigid_rxyz import NodeRigidBodyRxyz

TAU = 1e-10   # s, time constant of the auxiliary row's acceleration term (see the module docstring)


class MarkerNodeRotationCoordinate(Marker):
    """Rotation of a rigid node about the global axis ``rotation_coordinate`` k (Exudyn's
    MarkerNodeRotationCoordinate): the Tait-Bryan angle rot_k [rad] and the angular velocity omega_k [rad/s].

    Only :class:`VelocityCoordinateConstraint` uses it (omega_k is not the rate of any coordinate).

    Parameters
    ----------
    node_number : NodeRigidBodyEP, NodeRigidBodyRxyz or int
        The node (item or number).
    rotation_coordinate : int
        k: 0, 1, 2 for the global x, y, z axis.
    """

    type_name = "MarkerNodeRotationCoordinate"
    kind = "rotation coordinate"
    output_variables = ()

    def __init__(self, node_number, rotation_coordinate, name=""):
        super().__init__(name)
        self.node_number = node_number
        if not (isinstance(rotation_coordinate, (int, np.integer)) and 0 <= rotation_coordinate <= 2):
            raise self.error(f"rotation_coordinate must be 0, 1 or 2 (global x, y, z), got {rotation_coordinate!r}")
        self.rotation_coordinate = int(rotation_coordinate)

    def connect(self, system):
        self.node = resolve(system, "node", self.node_number, self, "node_number")
        if not isinstance(self.node, (NodeRigidBodyEP, NodeRigidBodyRxyz)):
            raise self.error(f"node_number must be a NodeRigidBodyEP or NodeRigidBodyRxyz, got {self.node.label}")

    def angle(self, ctx):
        """rot_k [rad]: the k-th Tait-Bryan x-y-z angle of the node's rotation, in (-pi, pi] (k = 0, 2)."""
        return rotations.rot_xyz_from_rotation_matrix(self.node.rotation_matrix(ctx))[self.rotation_coordinate]

    def rate(self, ctx):
        """omega_k = G_k(q) q_t [rad/s], the k-th component of the node's global angular velocity."""
        return self.node.angular_velocity(ctx)[self.rotation_coordinate]


class VelocityCoordinateConstraint(Connector):
    """factor1 r_1 - r_0 - offset = 0 on velocity level (Exudyn's ObjectConnectorCoordinate with velocityLevel),
    r_i = omega_k of a :class:`MarkerNodeRotationCoordinate` or q_t of a single-coordinate marker, imposed through
    an auxiliary coordinate (the module docstring).

    Parameters
    ----------
    marker_numbers : sequence of two markers
        Items or numbers: MarkerNodeRotationCoordinate or single-coordinate markers (MarkerNodeCoordinate).
    offset : float, Parameter or Input, default 0.0
        The rate offset, in the rates' units [rad/s or the coordinate's unit per second]; an Input is a function
        of time (Exudyn's offsetUserFunction_t), whose time derivative the initial accelerations take as zero
        (as Exudyn's do).
    factor1 : float or Parameter, default 1.0
        Dimensionless factor of r_1.
    active : bool, default True
        False removes the equation and the auxiliary node (keyword only; fixed at assembly).

    Outputs: Displacement (value of marker 1 - value of marker 0, the value of a rotation marker being rot_k, as
    Exudyn's), Velocity r_1 - r_0 (without factor1, as Exudyn's), Force lambda.
    """

    type_name = "CoordinateConstraint"
    output_variables = ("Displacement", "Velocity", "Force")

    def __init__(self, marker_numbers, offset=0.0, factor1=1.0, name="", *, active=True):
        super().__init__(marker_numbers, name)
        self.offset = self.vector(offset, 1, "offset", symbolic="input")
        self.factor1 = self.vector(factor1, 1, "factor1", symbolic=True)
        self.active = fixed_active_flag(self, active)
        self.n_constraints = 1 if self.active else 0
        self.integral_node = None

    def companions(self) -> list:
        """The auxiliary node s, which joins the system with the connector (none while inactive)."""
        if not self.active:
            return []
        self.integral_node = NodeGenericODE2([0.0], name=f"{self.label} velocity row integral")
        return [self.integral_node]

    def connect(self, system):
        self.markers = [resolve(system, "marker", m, self, f"marker_numbers[{i}]")
                        for i, m in enumerate(self.marker_numbers)]
        for i, marker in enumerate(self.markers):
            if not isinstance(marker, MarkerNodeRotationCoordinate) and not hasattr(marker, "coordinate"):
                raise self.error(f"marker_numbers[{i}] ({marker.label}) must be a MarkerNodeRotationCoordinate or a "
                                 f"single-coordinate marker")

    def _values_and_rates(self, ctx):
        """Per marker: (value: rot_k or q, rate: omega_k or q_t along v)."""
        parts = []
        for marker in self.markers:
            if isinstance(marker, MarkerNodeRotationCoordinate):
                parts.append((marker.angle(ctx), marker.rate(ctx)))
            else:
                value = marker.coordinates(ctx)
                parts.append((value, ca.jtimes(value, ctx.q, ctx.v)))
        return parts

    def velocity_row(self, ctx):
        """(g = factor1 r_1 - r_0 - offset, J v = factor1 r_1 - r_0)."""
        (_, rate0), (_, rate1) = self._values_and_rates(ctx)
        relative = ctx.value(self.factor1) * rate1 - rate0
        return relative - ctx.value(self.offset), relative

    def add_terms(self, ctx):
        if not self.active:
            return
        row, reaction_form = self.velocity_row(ctx)
        row_t = ca.jtimes(row, ca.vertcat(ctx.q, ctx.v), ca.vertcat(ctx.v, ctx.a)) + ca.jacobian(row, ctx.t)
        node = self.integral_node
        ctx.add_lhs(node.coordinate_indices, (ctx.velocities(node) - row) + TAU * (ctx.accelerations(node) - row_t))
        ctx.add_constraint(self, ctx.coordinates(node))                                     # s = 0
        ctx.add_reaction_form(self, reaction_form)
        ctx.add_velocity_constraint(self, row)

    def check(self, assembled):
        """Consistent start of the auxiliary coordinate: s = 0, s_t = g at the initial state."""
        if not self.active:
            return
        state = (0.0, assembled.q_initial, assembled.v_initial, np.zeros(assembled.n_coordinates),
                 np.zeros(assembled.n_multipliers))
        rate = np.asarray(assembled.output_function(lambda ctx: self.velocity_row(ctx)[0], "velocity_row")(*state),
                          dtype=float).reshape(-1)
        rows = self.integral_node.coordinate_indices
        assembled.q_initial[rows] = 0.0
        assembled.v_initial[rows] = rate
        self.integral_node.initial_velocities = rate

    def output(self, ctx, variable):
        """Displacement (rot_k for a rotation marker, as Exudyn), Velocity r_1 - r_0, Force lambda."""
        self.check_output(variable)
        (value0, rate0), (value1, rate1) = self._values_and_rates(ctx)
        outputs = {"Displacement": lambda: value1 - value0, "Velocity": lambda: rate1 - rate0,
                   "Force": lambda: ctx.multipliers(self) if self.active else ca.SX.zeros(1)}
        return outputs[variable]()
