"""Constraints between two markers, each with its Lagrange multipliers: on marker coordinates, the spherical
joint and the distance constraint (the joints with axes are in ``floatframe.components.joints``)."""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe.components.connectors import Connector, coordinate_count, fixed_active_flag
from floatframe.parameters import Input, Parameter


class CoordinateConstraint(Connector):
    """factor1 * q_m1 - q_m0 - offset = 0 for two single-coordinate markers (Exudyn's ``factor1``).

    ``velocity_level=True`` (Exudyn's velocityLevel): factor1 * q_m1_t - q_m0_t - offset = 0 [offset in 1/s],
    imposed as its integral from the initial state, factor1 (q_m1 - q_m1(0)) - (q_m0 - q_m0(0)) - offset t = 0
    (t from 0): the same motion and multiplier, without drift of the positions. ``active=False``
    (activeConnector) removes the equation; fixed at assembly.

    A marker whose Jacobian, as Exudyn forms it, is not the derivative of its value (``jacobian_is_derivative``
    False: the relative markers of ``floatframe.components.relative_markers``) gives it as ``jacobian_rate`` J v;
    the reactions are then J^T lambda with J = factor1 J_m1 - J_m0 (``Context.add_reaction_form``), the
    equation stays on the values. Such markers are refused at velocity level.

    Parameters
    ----------
    marker_numbers : sequence of two single-coordinate markers
        MarkerNodeCoordinate or relative markers (MarkerBodiesRelativeTranslationCoordinate,
        MarkerBodiesRelativeRotationCoordinate), items or numbers: q_m0 and q_m1.
    offset : float, Parameter or Input, default 0.0
        In the coordinates' unit (with ``velocity_level``: that unit per second). An Input is a
        time-dependent offset (Exudyn's offsetUserFunction); with ``velocity_level`` an Input gives the
        accumulated offset, the integral of the velocity offset from t = 0 (the equation's integral form).
    factor1 : float or Parameter, default 1.0
        Dimensionless factor of q_m1.
    velocity_level : bool, default False
        Impose the equation on the velocities (keyword only).
    active : bool, default True
        False removes the equation (keyword only; fixed at assembly).
    """

    type_name = "CoordinateConstraint"
    marker_kinds = ("coordinates",)
    output_variables = ("Displacement", "Velocity", "Force")

    def __init__(self, marker_numbers, offset=0.0, factor1=1.0, name="", *, velocity_level=False, active=True):
        super().__init__(marker_numbers, name)
        self.offset = self.vector(offset, 1, "offset", symbolic="input")
        self.factor1 = self.vector(factor1, 1, "factor1", symbolic=True)
        self.velocity_level = bool(velocity_level)
        self.active = fixed_active_flag(self, active)
        self.n_constraints = 1 if self.active else 0

    def connect(self, system):
        super().connect(system)
        for i, marker in enumerate(self.markers):
            if not hasattr(marker, "coordinate"):
                raise self.error(f"marker_numbers[{i}] ({marker.label}) must be a single-coordinate marker")
            if self.velocity_level and not getattr(marker, "jacobian_is_derivative", True):
                raise self.error(f"marker_numbers[{i}] ({marker.label}) is not supported at velocity level: its "
                                 f"Jacobian is not the derivative of its value")

    def add_terms(self, ctx):
        if not self.active:
            return
        q0, q1 = (_from_initial_state(ctx, m.coordinates(ctx), self.velocity_level) for m in self.markers)
        accumulated = isinstance(self.offset, Input) or not self.velocity_level
        offset = ctx.value(self.offset) * (1.0 if accumulated else ctx.t)
        factor1 = ctx.value(self.factor1)
        ctx.add_constraint(self, factor1 * q1 - q0 - offset)
        if not all(getattr(m, "jacobian_is_derivative", True) for m in self.markers):
            rate0, rate1 = (_jacobian_rate(ctx, m) for m in self.markers)
            ctx.add_reaction_form(self, factor1 * rate1 - rate0)

    def output(self, ctx, variable):
        """Displacement q_m1 - q_m0 and Velocity (without factor1, as Exudyn's), Force lambda (0 if inactive)."""
        self.check_output(variable)
        q0, q1 = (m.coordinates(ctx) for m in self.markers)
        outputs = {"Displacement": lambda: q1 - q0, "Velocity": lambda: ctx.time_derivative(q1 - q0),
                   "Force": lambda: ctx.multipliers(self) if self.active else ca.SX.zeros(1)}
        return outputs[variable]()


class CoordinateVectorConstraint(Connector):
    """scaling_marker1 q_m1 - scaling_marker0 q_m0 - offset = 0 (m equations) for coordinate markers.

    With an ObjectODE2Coordinates marker on an FFRF body and the scaling [0, 0, Phi_t^T M] and
    [0, 0, x_ref~^T M] (zero on the rigid node's 7 coordinates) this imposes the Tisserand frame.

    ``velocity_level=True`` (Exudyn's velocityLevel): the same equations on the velocities, imposed as their
    integral from the initial state, as for :class:`CoordinateConstraint`; ``active=False`` removes them.

    Parameters
    ----------
    marker_numbers : sequence of two coordinate markers
        MarkerNodeCoordinates or MarkerObjectODE2Coordinates items or numbers, with n0 and n1 coordinates.
    scaling_marker0 : (m, n0) array_like
        Matrix of marker 0's coordinates; empty: marker 0 does not enter.
    scaling_marker1 : (m, n1) array_like
        Matrix of marker 1's coordinates; empty: marker 1 does not enter.
    offset : (m,) array_like, Parameter or None, default None
        Right-hand side, in the units of the scaled coordinates; None: zeros.
    velocity_level : bool, default False
        Impose the equations on the velocities (keyword only).
    active : bool, default True
        False removes the equations (keyword only; fixed at assembly).
    """

    type_name = "CoordinateVectorConstraint"
    marker_kinds = ("coordinates",)

    def __init__(self, marker_numbers, scaling_marker0, scaling_marker1, offset=None, name="", *,
                 velocity_level=False, active=True):
        super().__init__(marker_numbers, name)
        self.scaling_marker0 = np.atleast_2d(np.asarray(scaling_marker0, dtype=float))
        self.scaling_marker1 = np.atleast_2d(np.asarray(scaling_marker1, dtype=float))
        m = max(self.scaling_marker0.shape[0], self.scaling_marker1.shape[0])
        for what, matrix in (("scaling_marker0", self.scaling_marker0), ("scaling_marker1", self.scaling_marker1)):
            if matrix.size and matrix.shape[0] != m:
                raise self.error(f"{what} has {matrix.shape[0]} rows, the other scaling matrix {m}")
            if not np.all(np.isfinite(matrix)):
                raise self.error(f"{what} contains NaN or inf")
        no_offset = offset is None or (not isinstance(offset, Parameter) and np.size(offset) == 0)
        self.offset = self.vector(np.zeros(m) if no_offset else offset, m, "offset", symbolic=True)
        self.velocity_level = bool(velocity_level)
        self.active = fixed_active_flag(self, active)
        self.n_constraints = m if self.active else 0

    def connect(self, system):
        super().connect(system)
        for i, (marker, matrix) in enumerate(zip(self.markers, (self.scaling_marker0, self.scaling_marker1))):
            n = coordinate_count(marker)
            if matrix.size and matrix.shape[1] != n:
                raise self.error(f"scaling_marker{i} has {matrix.shape[1]} columns, but {marker.label} has "
                                 f"{n} coordinates")

    def add_terms(self, ctx):
        if not self.active:
            return
        equations = -ctx.value(self.offset) * (ctx.t if self.velocity_level else 1.0)
        for sign, marker, matrix in zip((-1.0, 1.0), self.markers, (self.scaling_marker0, self.scaling_marker1)):
            if matrix.size:
                coordinates = _from_initial_state(ctx, marker.coordinates(ctx), self.velocity_level)
                change, reference = _split_reference(ctx, coordinates)
                equations = equations + sign * (ca.DM(matrix) @ change + ca.DM(matrix @ reference))
        ctx.add_constraint(self, equations)


def _split_reference(ctx, coordinates):
    """(change (SX), reference (constant array)) with coordinates = change + reference, for coordinates affine in q.

    S (q + q_ref) - offset, summed as written, loses the digits of S q to cancellation where S weighs many
    coordinates with large reference values (the Tisserand rows: every mesh node's position times its mass);
    S q + (S q_ref - offset), the constant part taken once, does not. Coordinates that are not affine in q
    are returned whole."""
    jacobian = ca.jacobian(coordinates, ctx.q)
    if ca.depends_on(jacobian, ctx.q) or ca.depends_on(coordinates, ctx.t):
        return coordinates, np.zeros(coordinates.numel())
    reference = np.asarray(ca.evalf(ca.substitute(coordinates, ctx.q, ca.DM.zeros(ctx.q.numel())))).reshape(-1)
    return jacobian @ ctx.q, reference


def _jacobian_rate(ctx, marker):
    """J v of a single-coordinate marker: its own ``jacobian_rate`` where its Jacobian is not the derivative of its
    value, else the derivative of the value along v."""
    if getattr(marker, "jacobian_is_derivative", True):
        return ca.jtimes(marker.coordinates(ctx), ctx.q, ctx.v)
    return marker.jacobian_rate(ctx)


def _from_initial_state(ctx, coordinates, velocity_level):
    """The coordinates, or (velocity level) their change from the initial state q(0)."""
    return coordinates - ctx.initial_value(coordinates) if velocity_level else coordinates


class SphericalJoint(Connector):
    """x1 - x0 = 0 for the constrained global axes (default all three).

    With C = x1 - x0 the constraint force C_q^T lambda on the left-hand side acts as +lambda on marker 0
    and -lambda on marker 1. The output ``Force`` is lambda, the force on marker 0 (as Exudyn's).
    ``active=False`` (activeConnector) removes the equations (Force 0); fixed at assembly.

    Parameters
    ----------
    marker_numbers : sequence of two position or rigid markers
        Marker 0 and marker 1.
    constrained_axes : (3,) flags 0/1, default (1, 1, 1)
        Which global axes of x1 - x0 are constrained; one equation per flag set.
    active : bool, default True
        False removes the equations (keyword only; fixed at assembly).
    """

    type_name = "SphericalJoint"
    output_variables = ("Position", "Velocity", "Displacement", "Force")

    def __init__(self, marker_numbers, constrained_axes=(1, 1, 1), name="", *, active=True):
        super().__init__(marker_numbers, name)
        axes = np.asarray(constrained_axes, dtype=int).reshape(-1)
        if axes.size != 3 or not set(axes.tolist()) <= {0, 1}:
            raise self.error(f"constrained_axes must be three flags 0/1, got {constrained_axes!r}")
        self.active = fixed_active_flag(self, active)
        self.constrained_axes = [i for i in range(3) if axes[i]] if self.active else []
        self.n_constraints = len(self.constrained_axes)

    def add_terms(self, ctx):
        if not self.active:
            return
        x0, x1 = (m.position(ctx) for m in self.markers)
        ctx.add_constraint(self, (x1 - x0)[self.constrained_axes])
        if any(m.has_index2_velocity for m in self.markers):  # a point on a rigid body: Exudyn's index-2 form
            v0, v1 = (m.velocity_index2(ctx) for m in self.markers)
            ctx.add_velocity_constraint(self, (v1 - v0)[self.constrained_axes])

    def output(self, ctx, variable):
        """Position and Velocity of marker 0 (``Marker.velocity``: v + A_E (omega_b x p) on a rigid body of a node in
        Exudyn's unit form), Displacement x1 - x0 (global), Force (as Exudyn's)."""
        self.check_output(variable)
        x0, x1 = (m.position(ctx) for m in self.markers)
        outputs = {"Position": lambda: x0, "Velocity": lambda: self.markers[0].velocity(ctx),
                   "Displacement": lambda: x1 - x0, "Force": lambda: self.force(ctx)}
        return outputs[variable]()

    def force(self, ctx):
        """lambda: the constraint force on marker 0 (marker 1 gets -lambda), global; zero on free axes."""
        force = ca.SX.zeros(3)
        force[self.constrained_axes] = ctx.multipliers(self)
        return force


# --- spring-dampers with user functions, the distance constraint, rigid-body and torsional springs ------
# [s] the times of the sample arguments (with random quantities) at which a traced user function is compared
# with numeric calls


class DistanceConstraint(Connector):
    """|x1 - x0| - distance = 0 between two points (Exudyn ObjectConnectorDistance); ``distance`` [m] > 0.

    With C = |dp| - d0 the constraint force C_q^T lambda acts as +lambda v_f on marker 0 and -lambda v_f on
    marker 1 (v_f = dp / |dp|): lambda > 0 pulls the points together, as a string under tension.
    Outputs: Distance, Displacement dp, Velocity, Force lambda (Exudyn's scalar multiplier). With
    ``active=False`` (Exudyn's activeConnector) there is no constraint and no multiplier (Exudyn keeps one
    with the equation lambda = 0), and Force is 0. The index-2 schemes use v_f . (v1 - v0) = 0 with the
    markers' own point velocities (Exudyn's velocity-level equation, see ``SphericalJoint``).

    Parameters
    ----------
    marker_numbers : sequence of two position or rigid markers
        Marker 0 and marker 1.
    distance : float or Parameter, m
        d0 > 0.
    active : bool, default True
        False removes the equation (keyword only; fixed at assembly).
    """

    type_name = "DistanceConstraint"
    output_variables = ("Distance", "Displacement", "Velocity", "Force")

    def __init__(self, marker_numbers, distance, name="", *, active=True):
        super().__init__(marker_numbers, name)
        self.active = bool(active)
        self.n_constraints = 1 if self.active else 0
        self.distance = self.vector(distance, 1, "distance", symbolic=True)
        numbers = self.distance.value if isinstance(self.distance, Parameter) else self.distance
        if numbers is not None and not np.all(np.asarray(numbers) > 0):
            raise self.error(f"distance must be > 0 (the direction of the force is undefined at 0; use a "
                             f"SphericalJoint), got {np.asarray(numbers).tolist()}")

    def add_terms(self, ctx):
        if self.active:
            x0, x1 = (m.position(ctx) for m in self.markers)
            ctx.add_constraint(self, ca.norm_2(x1 - x0) - ctx.value(self.distance))
            if any(m.has_index2_velocity for m in self.markers):  # a point on a rigid body: Exudyn's index-2 form
                v0, v1 = (m.velocity_index2(ctx) for m in self.markers)
                ctx.add_velocity_constraint(self, ca.dot((x1 - x0) / ca.norm_2(x1 - x0), v1 - v0))

    def output(self, ctx, variable):
        self.check_output(variable)
        x0, x1 = (m.position(ctx) for m in self.markers)
        outputs = {"Distance": lambda: ca.norm_2(x1 - x0), "Displacement": lambda: x1 - x0,
                   "Velocity": lambda: ctx.time_derivative(x1 - x0),
                   "Force": lambda: ctx.multipliers(self) if self.active else ca.SX.zeros(1)}
        return outputs[variable]()
