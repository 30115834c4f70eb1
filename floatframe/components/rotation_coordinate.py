"""A rigid node's rotation about a global axis as a coordinate of a velocity-level coordinate constraint (Exudyn's
MarkerNodeRotationCoordinate in an ObjectConnectorCoordinate with velocityLevel).

Exudyn's marker gives, for its node and axis k (0, 1, 2 = global x, y, z), the value rot_k, the k-th Tait-Bryan x-y-z
angle of the node's rotation, but the rate and the Jacobian of omega_k = G_k(q) q_t, the k-th component of the global
angular velocity. At velocity level the constraint

    factor1 * omega_k - q0_t - offset = 0

is therefore non-holonomic: omega_k is not the derivative of any function of q unless the node turns about axis k
only. floatframe's DAE has position-level constraints only, so each such marker gets a massless auxiliary
coordinate phi (an angle in rad, in a node of its own that joins the system with the constraint) whose row of the
equations of motion is the kinematic relation

    (phi_t - omega_k) + TAU (phi_tt - d/dt omega_k) = 0,

and the constraint is imposed on phi as the integral from the initial state, as for node coordinates
(:class:`~floatframe.components.constraints.CoordinateConstraint` with ``velocity_level``):

    factor1 (phi - phi(0)) - (q0 - q0(0)) - offset t = 0.

Its reactions are Exudyn's: factor1 G_k^T lambda on the node's rotation coordinates and -lambda on q0 (the
constraint's reaction form, ``Context.add_reaction_form``); phi takes none. The index-2 schemes use Exudyn's row
itself, factor1 omega_k - q0_t - offset = 0 (``Context.add_velocity_constraint``). At index 3 the linear
constraint makes factor1 phi_t - q0_t - offset vanish at every step (generalized-alpha and Newmark update the
coordinates linearly, from a start that meets it), and the kinematic row gives phi_t = omega_k up to the term in
TAU.

TAU [s] is a time constant far below any step size: e = phi_t - omega_k obeys e + TAU de/dt = 0, so from e(0) = 0
(the constraint sets phi_t(0) = omega_k(0)) a step leaves |e| of the order TAU / h times the step's truncation error
of omega_k. The term is there for the consistent initial accelerations, which solve the equations of motion on
acceleration level: there the row is phi_tt = d/dt omega_k, the derivative of the kinematic relation (without it
the row would have no acceleration in it, and that system would be singular).
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe import rotations
from floatframe.components.base import resolve
from floatframe.components.constraints import CoordinateConstraint
from floatframe.components.markers import Marker
from floatframe.components.nodes import NodeGenericODE2, NodeRigidBodyEP
from floatframe.components.rigid_rxyz import NodeRigidBodyRxyz
from floatframe.parameters import Input

TAU = 1e-10  # s, time constant of the kinematic row's acceleration term (see the module docstring)


class MarkerNodeRotationCoordinate(Marker):
    """Rotation of a rigid node about the global axis ``rotation_coordinate`` k (Exudyn's
    MarkerNodeRotationCoordinate): the Tait-Bryan angle rot_k [rad] and the angular velocity omega_k [rad/s].

    Only :class:`RotationRateConstraint` uses it (omega_k is not the rate of any coordinate).

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

    def angular_rate(self, ctx):
        """omega_k = G_k(q) q_t [rad/s], the k-th component of the node's global angular velocity."""
        return self.node.angular_velocity(ctx)[self.rotation_coordinate]


class RotationRateConstraint(CoordinateConstraint):
    """factor1 * r_m1 - r_m0 - offset = 0 [offset in 1/s]: Exudyn's velocity-level ObjectConnectorCoordinate where
    a marker is a :class:`MarkerNodeRotationCoordinate` (rate r = omega_k) and the other a single-coordinate marker
    (r = q_t) or another rotation marker. The formulation (an auxiliary angle per rotation marker) is in the
    module docstring.

    Parameters
    ----------
    marker_numbers : sequence of two markers
        Items or numbers, marker 0 and marker 1.
    rotation_markers : sequence of two bool
        Which of the two markers are MarkerNodeRotationCoordinate markers (each gets an auxiliary node when the
        constraint joins a system, before the markers do).
    offset : float or Input, 1/s in the coordinates' units, default 0.0
        An Input gives the accumulated offset, the integral of the velocity offset from t = 0.
    factor1 : float or Parameter, default 1.0
    active : bool, default True
        False removes the equation and the auxiliary nodes (keyword only; fixed at assembly).

    Outputs: Displacement (value of marker 1 - value of marker 0, the value of a rotation marker being rot_k, as
    Exudyn's), Velocity (r_m1 - r_m0, without factor1), Force lambda.
    """

    type_name = "CoordinateConstraint"

    def __init__(self, marker_numbers, rotation_markers, offset=0.0, factor1=1.0, name="", *, active=True):
        super().__init__(marker_numbers, offset, factor1, name, velocity_level=True, active=active)
        self.rotation_markers = [bool(flag) for flag in rotation_markers]
        if len(self.rotation_markers) != 2 or not any(self.rotation_markers):
            raise self.error("rotation_markers must be two flags, at least one of them True")
        self.angle_nodes = [None, None]

    @property
    def owner(self):
        return self._owner

    @owner.setter
    def owner(self, system):
        """Joining a system (``System.add``) adds the auxiliary angle nodes to it (none while inactive)."""
        self._owner = system
        if system is None or not self.active:
            return
        self.angle_nodes = [NodeGenericODE2([0.0], name=f"{self.label} angle of marker {i}") if flag else None
                            for i, flag in enumerate(self.rotation_markers)]
        for node in self.angle_nodes:
            if node is not None:
                system.add(node)

    def connect(self, system):
        self.markers = [resolve(system, "marker", m, self, f"marker_numbers[{i}]")
                        for i, m in enumerate(self.marker_numbers)]
        for i, (marker, flag) in enumerate(zip(self.markers, self.rotation_markers)):
            if flag != isinstance(marker, MarkerNodeRotationCoordinate):
                raise self.error(f"marker_numbers[{i}] ({marker.label}) must {'' if flag else 'not '}be a "
                                 f"MarkerNodeRotationCoordinate (rotation_markers[{i}] = {flag})")
            if not flag and not hasattr(marker, "coordinate"):
                raise self.error(f"marker_numbers[{i}] ({marker.label}) must be a single-coordinate marker")

    def _changes_and_rates(self, ctx):
        """Per marker: (change from the initial state: q or phi, rate r: q_t or omega_k)."""
        parts = []
        for marker, node in zip(self.markers, self.angle_nodes):
            if node is None:
                value = marker.coordinates(ctx)
                parts.append((value - ctx.initial_value(value), ca.jtimes(value, ctx.q, ctx.v)))
            else:
                parts.append((ctx.coordinates(node)[0] - ctx.initial_value(ctx.coordinates(node)[0]),
                              marker.angular_rate(ctx)))
        return parts

    def add_terms(self, ctx):
        if not self.active:
            return
        for marker, node in zip(self.markers, self.angle_nodes):
            if node is not None:                          # (phi_t - omega_k) + TAU (phi_tt - d/dt omega_k) = 0
                rate = marker.angular_rate(ctx)
                rate_t = ca.jtimes(rate, ca.vertcat(ctx.q, ctx.v), ca.vertcat(ctx.v, ctx.a))
                ctx.add_lhs(node.coordinate_indices, (ctx.velocities(node)[0] - rate)
                            + TAU * (ctx.accelerations(node)[0] - rate_t))
        (change0, rate0), (change1, rate1) = self._changes_and_rates(ctx)
        accumulated = isinstance(self.offset, Input)
        offset = ctx.value(self.offset) * (1.0 if accumulated else ctx.t)
        factor = ctx.value(self.factor1)
        equation = factor * change1 - change0 - offset
        ctx.add_constraint(self, equation)
        ctx.add_reaction_form(self, factor * rate1 - rate0)
        velocity_form = ca.jtimes(equation, ctx.q, ctx.v) + ca.jacobian(equation, ctx.t)   # dC/dt, phi_t -> omega_k
        for marker, node in zip(self.markers, self.angle_nodes):
            if node is not None:
                velocity_form = ca.substitute(velocity_form, ctx.velocities(node)[0], marker.angular_rate(ctx))
        ctx.add_velocity_constraint(self, velocity_form)

    def check(self, assembled):
        """Consistent start of the auxiliary angles: phi = 0 and phi_t = omega_k at the initial state."""
        state = (0.0, assembled.q_initial, assembled.v_initial, np.zeros(assembled.n_coordinates),
                 np.zeros(assembled.n_multipliers))
        for marker, node in zip(self.markers, self.angle_nodes):
            if node is not None:
                rate = assembled.output_function(marker.angular_rate, "rotation_rate")(*state)
                assembled.q_initial[node.coordinate_indices] = 0.0
                assembled.v_initial[node.coordinate_indices] = rate
                node.initial_velocities = np.array(rate, dtype=float).reshape(-1)

    def output(self, ctx, variable):
        """Displacement (rot_k for a rotation marker, as Exudyn), Velocity r_m1 - r_m0, Force lambda."""
        self.check_output(variable)
        values = [marker.angle(ctx) if flag else marker.coordinates(ctx)
                  for marker, flag in zip(self.markers, self.rotation_markers)]
        rates = [marker.angular_rate(ctx) if flag else ctx.time_derivative(marker.coordinates(ctx))
                 for marker, flag in zip(self.markers, self.rotation_markers)]
        outputs = {"Displacement": lambda: values[1] - values[0], "Velocity": lambda: rates[1] - rates[0],
                   "Force": lambda: ctx.multipliers(self) if self.active else ca.SX.zeros(1)}
        return outputs[variable]()
