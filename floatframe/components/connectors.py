"""Connectors between two markers: constraints (with Lagrange multipliers) and spring-dampers."""
from __future__ import annotations

import warnings

import casadi as ca
import numpy as np

from floatframe import rotations
from floatframe.components.base import Component, resolve
from floatframe.components.external import NumericCallback
from floatframe.components.nodes import NodeGenericODE2
from floatframe.parameters import Parameter


class Connector(Component):
    """Base of the connectors: an item that acts between two markers, by forces or constraints.

    Parameters
    ----------
    marker_numbers : sequence of two markers (items or numbers)
        Marker 0 and marker 1, in this order; their kind is stated above.
    """

    family = "object"
    marker_kinds: tuple = ("position", "rigid")
    n_constraints = 0

    def __init__(self, marker_numbers, name=""):
        super().__init__(name)
        if len(marker_numbers) != 2:
            raise self.error(f"marker_numbers must hold 2 markers, got {len(marker_numbers)}")
        self.marker_numbers = list(marker_numbers)
        self.multiplier_indices = np.zeros(0, dtype=int)

    def connect(self, system):
        self.markers = [resolve(system, "marker", m, self, f"marker_numbers[{i}]")
                        for i, m in enumerate(self.marker_numbers)]
        for i, marker in enumerate(self.markers):
            if marker.kind not in self.marker_kinds:
                raise self.error(f"marker_numbers[{i}] ({marker.label}) must be a {' or '.join(self.marker_kinds)} "
                                 f"marker")


class CoordinateConstraint(Connector):
    """factor1 * q_m1 - q_m0 - offset = 0 for two single-coordinate markers (Exudyn's ``factor1``).

    ``velocity_level=True`` (Exudyn's velocityLevel): factor1 * q_m1_t - q_m0_t - offset = 0 [offset in 1/s],
    imposed as its integral from the initial state, factor1 (q_m1 - q_m1(0)) - (q_m0 - q_m0(0)) - offset t = 0
    (t from 0): the same motion and multiplier, without drift of the positions. ``active=False``
    (activeConnector) removes the equation; fixed at assembly.

    Parameters
    ----------
    marker_numbers : sequence of two single-coordinate markers
        MarkerNodeCoordinate items or numbers: q_m0 and q_m1.
    offset : float or Parameter, default 0.0
        In the coordinates' unit (with ``velocity_level``: that unit per second).
    factor1 : float or Parameter, default 1.0
        Dimensionless factor of q_m1.
    velocity_level : bool, default False
        Impose the equation on the velocities (keyword only).
    active : bool, default True
        False removes the equation (keyword only; fixed at assembly).
    """

    type_name = "CoordinateConstraint"
    marker_kinds = ("coordinates",)

    def __init__(self, marker_numbers, offset=0.0, factor1=1.0, name="", *, velocity_level=False, active=True):
        super().__init__(marker_numbers, name)
        self.offset = self.vector(offset, 1, "offset", symbolic=True)
        self.factor1 = self.vector(factor1, 1, "factor1", symbolic=True)
        self.velocity_level = bool(velocity_level)
        self.active = fixed_active_flag(self, active)
        self.n_constraints = 1 if self.active else 0

    def connect(self, system):
        super().connect(system)
        for i, marker in enumerate(self.markers):
            if not hasattr(marker, "coordinate"):
                raise self.error(f"marker_numbers[{i}] ({marker.label}) must be a single-coordinate marker")

    def add_terms(self, ctx):
        if not self.active:
            return
        q0, q1 = (_from_initial_state(ctx, m.coordinates(ctx), self.velocity_level) for m in self.markers)
        offset = ctx.value(self.offset) * (ctx.t if self.velocity_level else 1.0)
        ctx.add_constraint(self, ctx.value(self.factor1) * q1 - q0 - offset)

    def output(self, ctx, variable):
        """Displacement q_m1 - q_m0 and Velocity (without factor1, as Exudyn's), Force lambda (0 if inactive)."""
        q0, q1 = (m.coordinates(ctx) for m in self.markers)
        outputs = {"Displacement": lambda: q1 - q0, "Velocity": lambda: ctx.time_derivative(q1 - q0),
                   "Force": lambda: ctx.multipliers(self) if self.active else ca.SX.zeros(1)}
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
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


def _from_initial_state(ctx, coordinates, velocity_level):
    """The coordinates, or (velocity level) their change from the initial state q(0)."""
    return coordinates - ctx.initial_value(coordinates) if velocity_level else coordinates


def fixed_active_flag(component, active) -> bool:
    """``active`` of a constraint: True or False, fixed at assembly (it sets the number of equations)."""
    if isinstance(active, Parameter) or not isinstance(active, (bool, np.bool_, int)) or active not in (0, 1):
        raise component.error(f"active must be True or False (fixed at assembly), got {active!r}")
    return bool(active)


def coordinate_count(marker) -> int:
    """Number of coordinates a coordinate marker gives."""
    if hasattr(marker, "coordinate"):
        return 1
    owner = getattr(marker, "node", None) or getattr(marker, "body", None)
    return len(owner.coordinate_indices) if hasattr(owner, "coordinate_indices") else owner.n_coordinates


class CartesianSpringDamper(Connector):
    """Force F = k (x1 - x0 - offset) + d (v1 - v0) per global axis, acting +F on m0 and -F on m1.

    The output ``Force`` is F, the force on marker 0 (as Exudyn's): positive when the spring is stretched.

    ``force_user_function(t, displacement, velocity) -> F`` (3 values) replaces the formula; it gets
    x1 - x0 - offset [m] and v1 - v0 [m/s] (as Exudyn's springForceUserFunction). ``active`` False
    (Exudyn's activeConnector; 0/1 or a Parameter of it) makes F zero.

    Parameters
    ----------
    marker_numbers : sequence of two position or rigid markers
        Marker 0 and marker 1.
    stiffness : (3,) array_like or Parameter, N/m
        k >= 0, one value per global axis.
    damping : (3,) array_like or Parameter, N s/m, default (0, 0, 0)
        d >= 0, one value per global axis.
    offset : (3,) array_like or Parameter, m, default (0, 0, 0)
        Unstressed value of x1 - x0.
    force_user_function : callable or None, default None
        f(t, displacement, velocity) -> (3,) force in N; replaces the formula (keyword only).
    active : bool, 0/1 or Parameter, default True
        False (0) makes the force zero (keyword only).
    allow_negative : bool, default False
        Accept negative stiffness and damping values (keyword only): a negative stiffness pushes the markers
        apart, as a linearised destabilising force does (e.g. of a magnetic bearing), a negative damping feeds
        energy in. Otherwise they are refused, as by :class:`SpringDamper`.
    """

    type_name = "CartesianSpringDamper"

    def __init__(self, marker_numbers, stiffness, damping=(0.0, 0.0, 0.0), offset=(0.0, 0.0, 0.0), name="", *,
                 force_user_function=None, active=True, allow_negative=False):
        super().__init__(marker_numbers, name)
        self.stiffness = self.vector(stiffness, 3, "stiffness", symbolic=True)
        self.damping = self.vector(damping, 3, "damping", symbolic=True)
        for what in ("stiffness", "damping"):
            _check_non_negative(self, getattr(self, what), what, allow_negative)
        self.offset = self.vector(offset, 3, "offset", symbolic=True)
        self.force_user_function = ConnectorUserFunction(self, force_user_function)
        self.active = _active_flag(self, active)

    def force(self, ctx):
        x0, x1 = (m.position(ctx) for m in self.markers)
        difference = x1 - x0
        if self.force_user_function:
            force = self.force_user_function.force(
                ctx, [difference - ctx.value(self.offset), ctx.time_derivative(difference)], 3)
        else:
            force = (ctx.value(self.stiffness) * (difference - ctx.value(self.offset))
                     + ctx.value(self.damping) * ctx.time_derivative(difference))
        return ctx.value(self.active) * force

    def add_terms(self, ctx):
        force = self.force(ctx)
        self.markers[0].apply_force(ctx, force)
        self.markers[1].apply_force(ctx, -force)

    def output(self, ctx, variable):
        x0, x1 = (m.position(ctx) for m in self.markers)
        outputs = {"Force": lambda: self.force(ctx), "Displacement": lambda: x1 - x0,
                   "Velocity": lambda: ctx.time_derivative(x1 - x0)}
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
        return outputs[variable]()


class CoordinateSpringDamper(Connector):
    """Force f = k (q1 - q0 - offset) + d (q1_t - q0_t) between two coordinate markers (one coordinate each),
    acting +f on q0 and -f on q1; ``stiffness`` [N/m], ``damping`` [N s/m], ``offset`` in the coordinate's
    unit. The output ``Force`` is f.

    ``force_user_function(t, displacement, velocity) -> f`` replaces the formula; it gets q1 - q0 and
    q1_t - q0_t (offset not subtracted, as Exudyn's springForceUserFunction). ``active`` False (Exudyn's
    activeConnector; 0/1 or a Parameter of it) makes f zero.

    Parameters
    ----------
    marker_numbers : sequence of two single-coordinate markers
        q0 and q1.
    stiffness : float or Parameter, N/m
        k >= 0, force per unit of the coordinate (N m/rad for a rotation coordinate).
    damping : float or Parameter, N s/m, default 0.0
        d >= 0, force per unit rate of the coordinate.
    offset : float or Parameter, default 0.0
        Unstressed value of q1 - q0, in the coordinate's unit.
    force_user_function : callable or None, default None
        f(t, displacement, velocity) -> float force; replaces the formula (keyword only).
    active : bool, 0/1 or Parameter, default True
        False (0) makes the force zero (keyword only).
    allow_negative : bool, default False
        Accept a negative stiffness or damping (keyword only), as for :class:`CartesianSpringDamper`.
    """

    type_name = "CoordinateSpringDamper"
    marker_kinds = ("coordinates",)

    def __init__(self, marker_numbers, stiffness, damping=0.0, offset=0.0, name="", *, force_user_function=None,
                 active=True, allow_negative=False):
        super().__init__(marker_numbers, name)
        self.stiffness = self.vector(stiffness, 1, "stiffness", symbolic=True)
        self.damping = self.vector(damping, 1, "damping", symbolic=True)
        for what in ("stiffness", "damping"):
            _check_non_negative(self, getattr(self, what), what, allow_negative)
        self.offset = self.vector(offset, 1, "offset", symbolic=True)
        self.force_user_function = ConnectorUserFunction(self, force_user_function)
        self.active = _active_flag(self, active)

    def add_terms(self, ctx):
        q0, q1 = (marker.coordinates(ctx) for marker in self.markers)
        for k, q in enumerate((q0, q1)):
            if q.numel() != 1:
                raise self.error(f"marker_numbers[{k}] ({self.markers[k].label}) must give one coordinate, "
                                 f"gives {q.numel()}")
        ctx.add_force(np.arange(ctx.q.numel()), ca.jtimes(q0 - q1, ctx.q, self.force(ctx), True))  # f d(q0 - q1)

    def force(self, ctx):
        q0, q1 = (marker.coordinates(ctx) for marker in self.markers)
        if self.force_user_function:
            force = self.force_user_function.force(ctx, [q1 - q0, ctx.time_derivative(q1 - q0)], 1)
        else:
            force = (ctx.value(self.stiffness) * (q1 - q0 - ctx.value(self.offset))
                     + ctx.value(self.damping) * ctx.time_derivative(q1 - q0))
        return ctx.value(self.active) * force

    def output(self, ctx, variable):
        q0, q1 = (marker.coordinates(ctx) for marker in self.markers)
        outputs = {"Force": lambda: self.force(ctx), "Displacement": lambda: q1 - q0,
                   "Velocity": lambda: ctx.time_derivative(q1 - q0)}
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
        return outputs[variable]()


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
        """Position and Velocity of marker 0, Displacement x1 - x0 (global), Force (as Exudyn's)."""
        x0, x1 = (m.position(ctx) for m in self.markers)
        outputs = {"Position": lambda: x0, "Velocity": lambda: ctx.time_derivative(x0),
                   "Displacement": lambda: x1 - x0, "Force": lambda: self.force(ctx)}
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
        return outputs[variable]()

    def force(self, ctx):
        """lambda: the constraint force on marker 0 (marker 1 gets -lambda), global; zero on free axes."""
        force = ca.SX.zeros(3)
        force[self.constrained_axes] = ctx.multipliers(self)
        return force


# --- spring-dampers with user functions, the distance constraint, rigid-body and torsional springs ------
# [s] the times of the sample arguments (with random quantities) at which a traced user function is compared
# with numeric calls
USER_FUNCTION_SAMPLE_TIMES = (0.0, 0.37, 1.9, 12.5)


class ConnectorUserFunction:
    """A connector's force user function f(t, *quantities) -> values, as a term of the residual.

    Traced symbolically where the function is built from arithmetic and CasADi/NumPy functions (as load
    functions are, see :func:`floatframe.components.external.symbolic_or_callback`); the traced
    expression is kept only where it equals numeric calls at a few sample arguments. Any other callable
    becomes a numeric callback: its derivatives are taken by forward differences and enter the Newton
    matrix by the chain rule through the quantities. Each function is called on numbers at the sample
    arguments when the system is assembled, so that a wrong number of values (or a function that fails
    at every sample) is reported before any solve.
    """

    def __init__(self, owner, function):
        if function is not None and not callable(function):
            raise owner.error(f"force_user_function must be callable, got {function!r}")
        self.owner = owner
        self.function = function
        self.failures = 0    # numeric calls that raised at sample arguments
        self.traces = {}     # argument sizes -> the traced (symbols, expression), or None for a callback
        self.callbacks = {}  # argument sizes -> callback; CasADi holds callbacks by reference: kept here

    def __bool__(self):
        return self.function is not None

    def force(self, ctx, quantities, size):
        """``function(t, *quantities)`` as an SX expression of the state, (size,)."""
        quantities = [ca.vec(ca.SX(x)) for x in quantities]
        sizes = tuple(x.numel() for x in quantities)
        if sizes not in self.traces:
            self.traces[sizes] = self.traced(quantities, size)
        if self.traces[sizes] is not None:
            symbols, expression = self.traces[sizes]
            return ca.substitute([expression], symbols, [ctx.t, *quantities])[0]
        if sizes not in self.callbacks:
            function = self.function

            def call(t, *values):
                return function(float(t[0]), *(_as_argument(value, n) for value, n in zip(values, sizes)))

            owner = self.owner
            self.callbacks[sizes] = NumericCallback(f"{owner.type_name}{owner.index}_force", call, [1, *sizes],
                                                    (size, 1))
        return ctx.external(self.callbacks[sizes], [ctx.t, *quantities])

    def traced(self, quantities, size):
        """(symbols, expression) of the traced function, or None where it cannot be traced faithfully."""
        sizes = [x.numel() for x in quantities]
        self.failures = 0
        rng = np.random.default_rng(3)
        samples = [(t, [0.1 * rng.standard_normal(n) for n in sizes]) for t in USER_FUNCTION_SAMPLE_TIMES]
        numeric = [self.call_on_numbers(t, values, sizes, size) for t, values in samples]
        samples, numeric = zip(*[(sample, result) for sample, result in zip(samples, numeric) if result is not None])
        t_symbol = ca.SX.sym("t")
        symbols = [ca.SX.sym(f"x{i}", n) for i, n in enumerate(sizes)]
        try:
            with warnings.catch_warnings():  # NumPy ufuncs on CasADi symbols are what tracing relies on
                warnings.simplefilter("ignore", FutureWarning)
                value = self.function(t_symbol, *(s if n > 1 else s[0] for s, n in zip(symbols, sizes)))
            expression = ca.vertcat(*value) if isinstance(value, (list, tuple)) else ca.vec(ca.SX(value))
        except Exception:
            return None
        if expression.numel() != size:
            return None
        traced = ca.Function("traced", [t_symbol, *symbols], [expression])
        for (t, values), result in zip(samples, numeric):
            symbolic = np.asarray(traced(t, *values), dtype=float).reshape(-1)
            scale = max(1.0, float(np.max(np.abs(result), initial=0.0)))
            if not np.allclose(symbolic, result, rtol=1e-12, atol=1e-12 * scale, equal_nan=True):
                return None
        return [t_symbol, *symbols], expression

    def call_on_numbers(self, t, values, sizes, size):
        """One numeric call at sample arguments: its values, or None where the function raises there (outside
        its domain, e.g. math.log of a negative sample); a wrong number of values, or a failure at the last
        sample after failures at all the others, is a ModelError naming the connector."""
        try:
            result = self.function(t, *(_as_argument(v, n) for v, n in zip(values, sizes)))
            result = np.asarray(result, dtype=float).reshape(-1)
        except Exception as exc:
            self.failures += 1
            if self.failures < len(USER_FUNCTION_SAMPLE_TIMES):
                return None
            raise self.owner.error(f"force_user_function failed at t = {t} and at every other sample of its "
                                   f"arguments: {exc!r}") from exc
        if result.size != size:
            raise self.owner.error(f"force_user_function must return {size} value{'s' if size > 1 else ''}, "
                                   f"got {result.size}")
        return result


def _active_flag(owner, active):
    """Exudyn's activeConnector as a factor on the connector's force: 1 (True) or 0 (False), or a Parameter
    holding one of them (so that it can be switched during a solve)."""
    flag = owner.vector(float(active) if isinstance(active, (bool, np.bool_)) else active, 1, "active", symbolic=True)
    numbers = flag.value if isinstance(flag, Parameter) else flag
    if numbers is not None and not np.all(np.isin(numbers, (0.0, 1.0))):
        raise owner.error(f"active must be True or False (1 or 0), got {np.asarray(numbers).tolist()}")
    return flag


def _as_argument(value, size):
    """A numeric user-function argument: a float for one value, else a NumPy vector."""
    array = np.asarray(value, dtype=float).reshape(-1)
    return float(array[0]) if size == 1 else array


def _check_non_negative(owner, value, what, allow_negative=None):
    """Refuse negative entries of a number, vector or Parameter (at its value, if it has one); where the owner
    takes ``allow_negative`` (None: it does not), True skips the check and False names the keyword."""
    numbers = value.value if isinstance(value, Parameter) else value
    if allow_negative or numbers is None or not np.any(np.asarray(numbers) < 0):
        return
    remedy = "" if allow_negative is None else "; pass allow_negative=True if a negative value is intended"
    raise owner.error(f"{what} must be >= 0, got {np.asarray(numbers).tolist()}{remedy}")


def _check_symmetric_semidefinite(owner, matrix, what):
    """A symmetric positive semi-definite matrix, or a clear error."""
    scale = max(float(np.abs(matrix).max()), 1e-300)
    if np.abs(matrix - matrix.T).max() > 1e-12 * scale:
        i, j = np.unravel_index(np.argmax(np.abs(matrix - matrix.T)), matrix.shape)
        raise owner.error(f"{what} must be symmetric: entry [{i}, {j}] = {matrix[i, j]:.6g} but [{j}, {i}] = "
                          f"{matrix[j, i]:.6g}")
    smallest = float(np.linalg.eigvalsh(0.5 * (matrix + matrix.T)).min())
    if smallest < -1e-12 * scale:
        raise owner.error(f"{what} must be positive semi-definite: its smallest eigenvalue is {smallest:.6g}")


def _rotation(owner, value, what):
    """A proper rotation matrix (orthonormal, determinant +1), 3x3."""
    matrix = owner.matrix(value, (3, 3), what)
    if np.abs(matrix.T @ matrix - np.eye(3)).max() > 1e-10 or np.linalg.det(matrix) < 0:
        raise owner.error(f"{what} must be a rotation matrix (A^T A = I, det A = +1), got {matrix.tolist()}")
    return matrix


class SpringDamper(Connector):
    """Spring-damper along the line between two points (Exudyn ObjectConnectorSpringDamper).

    With dp = x1 - x0, L = |dp|, the direction v_f = dp / L and L_t = v_f . (v1 - v0), the scalar force

        f_SD = k (L - L0) + d (L_t - L0_t) + f_a    [N]  (tension positive)

    acts as +f_SD v_f on marker 0 and -f_SD v_f on marker 1. ``stiffness`` k [N/m], ``damping`` d [N s/m],
    ``force`` f_a [N], ``reference_length`` L0 [m], ``velocity_offset`` L0_t [m/s]. The markers must not
    coincide (v_f is undefined at L = 0).

    ``force_user_function(t, elongation, elongation_rate) -> f_SD`` replaces the formula; it gets
    L - L0 [m] and L_t - L0_t [m/s] (floats, or symbols while it is traced).

    Outputs: Distance L, Displacement dp, Velocity v1 - v0, Force f_SD v_f (global), ForceLocal f_SD.
    ``active`` False (Exudyn's activeConnector; 0/1 or a Parameter of it) makes f_SD zero.

    Parameters
    ----------
    marker_numbers : sequence of two position or rigid markers
        Marker 0 and marker 1; they must not coincide.
    stiffness : float or Parameter, N/m
        k >= 0.
    damping : float or Parameter, N s/m, default 0.0
        d >= 0.
    force : float or Parameter, N, default 0.0
        f_a, a constant force added along the line (tension positive).
    reference_length : float or Parameter, m, default 0.0
        L0 >= 0.
    force_user_function : callable or None, default None
        f(t, elongation, elongation_rate) -> f_SD in N; replaces the formula.
    velocity_offset : float or Parameter, m/s, default 0.0
        L0_t (keyword only).
    active : bool, 0/1 or Parameter, default True
        False (0) makes f_SD zero (keyword only).
    """

    type_name = "SpringDamper"

    def __init__(self, marker_numbers, stiffness, damping=0.0, force=0.0, reference_length=0.0,
                 force_user_function=None, name="", *, velocity_offset=0.0, active=True):
        super().__init__(marker_numbers, name)
        self.stiffness = self.vector(stiffness, 1, "stiffness", symbolic=True)
        self.damping = self.vector(damping, 1, "damping", symbolic=True)
        self.force_value = self.vector(force, 1, "force", symbolic=True)
        self.reference_length = self.vector(reference_length, 1, "reference_length", symbolic=True)
        self.velocity_offset = self.vector(velocity_offset, 1, "velocity_offset", symbolic=True)
        for what in ("stiffness", "damping", "reference_length"):
            _check_non_negative(self, getattr(self, what), what)
        self.force_user_function = ConnectorUserFunction(self, force_user_function)
        self.active = _active_flag(self, active)

    def kinematics(self, ctx):
        x0, x1 = (m.position(ctx) for m in self.markers)
        difference = x1 - x0
        length = ca.norm_2(difference)
        return difference, length, difference / length, ctx.time_derivative(difference)

    def scalar_force(self, ctx):
        _, length, direction, velocity = self.kinematics(ctx)
        elongation = length - ctx.value(self.reference_length)                    # L - L0
        rate = ca.dot(direction, velocity) - ctx.value(self.velocity_offset)       # L_t - L0_t
        if self.force_user_function:
            force = self.force_user_function.force(ctx, [elongation, rate], 1)
        else:
            force = (ctx.value(self.stiffness) * elongation + ctx.value(self.damping) * rate
                     + ctx.value(self.force_value))
        return ctx.value(self.active) * force

    def add_terms(self, ctx):
        force = self.scalar_force(ctx) * self.kinematics(ctx)[2]                   # f_SD v_f
        self.markers[0].apply_force(ctx, force)
        self.markers[1].apply_force(ctx, -force)

    def output(self, ctx, variable):
        difference, length, direction, velocity = self.kinematics(ctx)
        outputs = {"Distance": lambda: length, "Displacement": lambda: difference, "Velocity": lambda: velocity,
                   "Force": lambda: self.scalar_force(ctx) * direction, "ForceLocal": lambda: self.scalar_force(ctx)}
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
        return outputs[variable]()


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
        x0, x1 = (m.position(ctx) for m in self.markers)
        outputs = {"Distance": lambda: ca.norm_2(x1 - x0), "Displacement": lambda: x1 - x0,
                   "Velocity": lambda: ctx.time_derivative(x1 - x0),
                   "Force": lambda: ctx.multipliers(self) if self.active else ca.SX.zeros(1)}
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
        return outputs[variable]()


class _JointFrameMixin:
    """The joint frames of two rigid markers: J0 = A_m0 A_m0,J0 (``rotation_marker0``), J1 = A_m1 A_m1,J1."""

    marker_kinds = ("rigid",)

    def _set_joint_rotations(self, rotation_marker0, rotation_marker1):
        self.rotation_marker0 = _rotation(self, rotation_marker0, "rotation_marker0")
        self.rotation_marker1 = _rotation(self, rotation_marker1, "rotation_marker1")

    def joint_frames(self, ctx):
        """(A_J0, A_J1): joint-frame -> global rotation matrices."""
        return (self.markers[0].rotation_matrix(ctx) @ ca.DM(self.rotation_marker0),
                self.markers[1].rotation_matrix(ctx) @ ca.DM(self.rotation_marker1))

    def relative_angular_velocity(self, ctx, joint):
        """J^T (omega_m1 - omega_m0): the relative angular velocity in the coordinates of the frame J [rad/s]."""
        return joint.T @ (self.markers[1].angular_velocity(ctx) - self.markers[0].angular_velocity(ctx))


class RigidBodySpringDamper(_JointFrameMixin, Connector):
    """6-DOF spring-damper between two rigid markers (Exudyn ObjectConnectorRigidBodySpringDamper).

    With the joint frames J0 = A_m0 rotation_marker0 and J1 = A_m1 rotation_marker1, Exudyn's default
    formulation (``intrinsic=False``) measures in J = J0:

        u   = [J0^T (x1 - x0), rot_xyz(J0^T J1)]              (rotation: Tait-Bryan x-y-z angles [rad])

    the intrinsic one (``intrinsic=True``, Exudyn's useIntrinsicFormulation) takes the SE(3) logarithm of
    the relative frame and measures in the mid frame J = J0 exp(w/2):

        w = log(J0^T J1) (rotation vector, |w| < pi),  u = [T^-1(w)^T J0^T (x1 - x0), w]

    (T the tangent operator of the exponential map). In both

        u_t = [J^T (v1 - v0), J^T (omega1 - omega0)]          (the angular velocity, not d/dt of the angles)
        [f; m] = K (u - offset) + D u_t                       (J coordinates, N and N m)

    The global force J f acts on marker 0 and -J f on marker 1 (at their points), the global torque J m
    likewise; the intrinsic formulation gives both markers the further torque -r x (J f) with
    r = -J d / 2 (d the first three entries of u), Exudyn's lever of the force about the mid point. The
    torque is not the work conjugate of the angles, so the rotational spring is conservative only for
    small relative rotations (as in Exudyn). ``stiffness`` K and ``damping`` D (6x6) must be symmetric
    positive semi-definite (Exudyn accepts any 6x6 matrix; a non-symmetric one is refused here).

    ``force_user_function(t, displacement, rotation, velocity, angular_velocity) -> [f, m]`` (6 values)
    replaces the formula; the arguments are the four 3-vectors of u and u_t above (offset not subtracted).

    Outputs (J coordinates): DisplacementLocal, VelocityLocal, Rotation, AngularVelocityLocal, ForceLocal,
    TorqueLocal. ``active`` False (Exudyn's activeConnector; 0/1 or a Parameter of it) removes the force
    and torque from the bodies; ForceLocal and TorqueLocal still give K (u - offset) + D u_t, as Exudyn's.

    Parameters
    ----------
    marker_numbers : sequence of two rigid markers
        Marker 0 and marker 1.
    stiffness : (6, 6) array_like
        K, symmetric positive semidefinite; rows [force (N), torque (N m)] against columns [displacement (m),
        rotation (rad)].
    damping : (6, 6) array_like or None, default None
        D, symmetric positive semidefinite, in the units of K per second; None: zero.
    rotation_marker0 : (3, 3) array_like, rotation matrix (R^T R = I, det R = 1), default identity
        Joint frame to marker 0's frame.
    rotation_marker1 : (3, 3) array_like, rotation matrix (R^T R = I, det R = 1), default identity
        Joint frame to marker 1's frame.
    offset : (6,) array_like or Parameter, [m, m, m, rad, rad, rad], default zeros
        Unstressed value of u.
    force_user_function : callable or None, default None
        f(t, displacement, rotation, velocity, angular_velocity) -> (6,) [f (N), m (N m)]; replaces the formula.
    intrinsic : bool, default False
        Use the intrinsic (SE(3) logarithm) formulation (keyword only).
    active : bool, 0/1 or Parameter, default True
        False (0) removes force and torque from the bodies (keyword only).
    """

    type_name = "RigidBodySpringDamper"

    def __init__(self, marker_numbers, stiffness, damping=None, rotation_marker0=np.eye(3),
                 rotation_marker1=np.eye(3), offset=(0.0,) * 6, force_user_function=None, name="", *,
                 intrinsic=False, active=True):
        super().__init__(marker_numbers, name)
        self.stiffness = self.matrix(stiffness, (6, 6), "stiffness")
        self.damping = np.zeros((6, 6)) if damping is None else self.matrix(damping, (6, 6), "damping")
        for what in ("stiffness", "damping"):
            _check_symmetric_semidefinite(self, getattr(self, what), what)
        self.offset = self.vector(offset, 6, "offset", symbolic=True)
        self.intrinsic = bool(intrinsic)
        self._set_joint_rotations(rotation_marker0, rotation_marker1)
        self.force_user_function = ConnectorUserFunction(self, force_user_function)
        self.active = _active_flag(self, active)

    def relative_motion(self, ctx):
        """(J, displacement, rotation, velocity, angular velocity), the vectors in J coordinates."""
        joint0, joint1 = self.joint_frames(ctx)
        x0, x1 = (m.position(ctx) for m in self.markers)
        if self.intrinsic:
            rotation = _rotation_vector(joint0.T @ joint1)                                   # w = log(J0^T J1)
            displacement = _t_exp_so3_inverse(rotation).T @ (joint0.T @ (x1 - x0))
            joint = joint0 @ rotations.rotation_matrix_from_rotation_vector(0.5 * rotation)  # mid frame
        else:
            joint = joint0
            displacement = joint0.T @ (x1 - x0)
            rotation = rotations.rot_xyz_from_rotation_matrix(joint0.T @ joint1)
        velocity = joint.T @ ctx.time_derivative(x1 - x0)
        return joint, displacement, rotation, velocity, self.relative_angular_velocity(ctx, joint)

    def force_torque(self, ctx):
        """[f; m], J coordinates (6,)."""
        _, displacement, rotation, velocity, angular_velocity = self.relative_motion(ctx)
        if self.force_user_function:
            return self.force_user_function.force(ctx, [displacement, rotation, velocity, angular_velocity], 6)
        u = ca.vertcat(displacement, rotation) - ctx.value(self.offset)
        return ca.DM(self.stiffness) @ u + ca.DM(self.damping) @ ca.vertcat(velocity, angular_velocity)

    def add_terms(self, ctx):
        joint, displacement = self.relative_motion(ctx)[:2]
        local = ctx.value(self.active) * self.force_torque(ctx)
        force, torque = joint @ local[:3], joint @ local[3:]
        # intrinsic: the lever of the force about the mid point, the same on both markers (Exudyn's)
        lever = ca.cross(joint @ (-0.5 * displacement), force) if self.intrinsic else ca.DM.zeros(3)
        self.markers[0].apply_force(ctx, force)
        self.markers[1].apply_force(ctx, -force)
        self.markers[0].apply_torque(ctx, torque - lever)
        self.markers[1].apply_torque(ctx, -torque - lever)

    def output(self, ctx, variable):
        _, displacement, rotation, velocity, angular_velocity = self.relative_motion(ctx)
        outputs = {"DisplacementLocal": lambda: displacement, "VelocityLocal": lambda: velocity,
                   "Rotation": lambda: rotation, "AngularVelocityLocal": lambda: angular_velocity,
                   "ForceLocal": lambda: self.force_torque(ctx)[:3], "TorqueLocal": lambda: self.force_torque(ctx)[3:]}
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
        return outputs[variable]()


LOG_SERIES_LIMIT = 1e-2       # |sin(phi/2)| below which log(R) uses its series
TANGENT_SERIES_LIMIT = 2e-2   # rotation angle [rad] below which T^-1 uses its series (Exudyn's 0.02)


def _rotation_vector(matrix):
    """w = log(R), the rotation vector of a symbolic rotation matrix (|w| < pi), through its Euler parameters
    theta0 = sqrt(1 + tr R) / 2, e = vee(R - R^T) / (4 theta0), w = 2 atan2(|e|, theta0) e / |e|; the
    factor 2 atan2(s, c) / s by its series in s^2 / c^2 for small s (finite derivatives at R = I).
    Near a half turn (tr R -> -1) theta0 -> 0 and the logarithm is singular, as it is in Exudyn."""
    theta0 = 0.5 * ca.sqrt(1 + matrix[0, 0] + matrix[1, 1] + matrix[2, 2])
    e = ca.vertcat(matrix[2, 1] - matrix[1, 2], matrix[0, 2] - matrix[2, 0], matrix[1, 0] - matrix[0, 1]) / (4 * theta0)
    s2 = ca.sumsqr(e)
    small = s2 < LOG_SERIES_LIMIT ** 2
    s = ca.sqrt(ca.if_else(small, LOG_SERIES_LIMIT ** 2, s2))       # finite in the branch that is not taken
    x = s2 / theta0 ** 2
    factor = ca.if_else(small, 2 / theta0 * (1 - x / 3 + x ** 2 / 5 - x ** 3 / 7), 2 * ca.atan2(s, theta0) / s)
    return factor * e


def _t_exp_so3_inverse(w):
    """T^-1(w) = beta I + w~ / 2 + gamma w w^T, beta = (phi/2) cot(phi/2), gamma = (1 - beta) / phi^2 (phi = |w|),
    the inverse tangent operator of the exponential map (Exudyn's TExpSO3Inv); series below 0.02 rad."""
    phi2 = ca.sumsqr(w)
    small = phi2 < TANGENT_SERIES_LIMIT ** 2
    phi = ca.sqrt(ca.if_else(small, TANGENT_SERIES_LIMIT ** 2, phi2))
    beta_exact = 0.5 * phi * ca.cos(0.5 * phi) / ca.sin(0.5 * phi)
    gamma_series = 1 / 12 + phi2 / 720 + phi2 ** 2 / 30240 + phi2 ** 3 / 1209600
    gamma = ca.if_else(small, gamma_series, (1 - beta_exact) / phi ** 2)
    beta = ca.if_else(small, 1 - gamma_series * phi2, beta_exact)
    return beta * ca.DM.eye(3) + 0.5 * rotations.skew(w) + gamma * (w @ w.T)


class TorsionalSpringDamper(_JointFrameMixin, Connector):
    """Torsional spring-damper about the joint z axis between two rigid markers (Exudyn
    ObjectConnectorTorsionalSpringDamper).

    With J0 = A_m0 rotation_marker0, J1 = A_m1 rotation_marker1, the angle phi = the third Tait-Bryan
    x-y-z angle of J0^T J1 (in (-pi, pi]: atan2(-R01, R00)) and omega_z = e_z . J0^T (omega1 - omega0):

        tau = k (phi - offset) + d (omega_z - velocity_offset) + torque    [N m]

    acts as the global torque J0 e_z tau on marker 0 and -J0 e_z tau on marker 1. ``stiffness`` k
    [N m/rad] and ``damping`` d [N m s/rad] >= 0. Beyond +-pi this angle jumps by 2 pi.

    ``turn_node`` (a NodeGenericODE2 with one coordinate p, no mass) makes the angle continuous over any
    number of turns, the role of Exudyn's data node (``nodeNumber``): phi_c = p + wrap(phi - p), with
    wrap(x) = atan2(sin x, cos x) in (-pi, pi], and p follows phi_c through the constraint wrap(phi - p) = 0
    (its multiplier is zero: it exerts nothing). Newton starts each step from the last p, so the turns are
    counted while the angle changes by less than pi per step, as in Exudyn, which updates its data node
    after each step. The node's initial coordinate picks the turn at the start (phi_c(0) is the angle
    nearest to it); at assembly p and its rate start at phi_c(0) and d phi / dt (consistent initial values:
    with a wrong start rate the rates of the massless p would oscillate without decay under the undamped
    generalized-alpha scheme, rho = 1, and its predictor could jump a turn).

    ``force_user_function(t, rotation, angular_velocity) -> tau`` replaces the formula (phi, omega_z).
    ``torque`` [N m] may be a Parameter or an :class:`~floatframe.parameters.Input`: with k = d = 0 the
    connector is a motor in the joint, +tau on marker 0 and -tau on marker 1 (a drive torque for optimal
    control, ``floatframe.ocp.arm``).

    Outputs: Rotation phi, AngularVelocityLocal omega_z, TorqueLocal tau. ``active`` False (Exudyn's
    activeConnector; 0/1 or a Parameter of it) removes the torque from the bodies; TorqueLocal still gives
    tau, as Exudyn's.

    Parameters
    ----------
    marker_numbers : sequence of two rigid markers
        Marker 0 and marker 1.
    stiffness : float or Parameter, N m/rad
        k >= 0.
    damping : float or Parameter, N m s/rad, default 0.0
        d >= 0.
    rotation_marker0 : (3, 3) array_like, rotation matrix (R^T R = I, det R = 1), default identity
        Joint frame to marker 0's frame.
    rotation_marker1 : (3, 3) array_like, rotation matrix (R^T R = I, det R = 1), default identity
        Joint frame to marker 1's frame.
    offset : float or Parameter, rad, default 0.0
        Unstressed angle.
    velocity_offset : float or Parameter, rad/s, default 0.0
        Rate at which the damper exerts no torque.
    torque : float, Parameter or Input, N m, default 0.0
        Torque added to the spring and damper torque (a motor torque with k = d = 0).
    force_user_function : callable or None, default None
        f(t, rotation, angular_velocity) -> tau in N m; replaces the formula.
    active : bool, 0/1 or Parameter, default True
        False (0) removes the torque from the bodies (keyword only).
    turn_node : NodeGenericODE2 with one coordinate, int or None, default None
        Counts the turns, so that the angle is continuous beyond +-pi (keyword only); it adds one constraint.
    """

    type_name = "TorsionalSpringDamper"

    def __init__(self, marker_numbers, stiffness, damping=0.0, rotation_marker0=np.eye(3), rotation_marker1=np.eye(3),
                 offset=0.0, velocity_offset=0.0, torque=0.0, force_user_function=None, name="", *, active=True,
                 turn_node=None):
        super().__init__(marker_numbers, name)
        self.turn_node_number = turn_node
        self.n_constraints = 0 if turn_node is None else 1
        self.stiffness = self.vector(stiffness, 1, "stiffness", symbolic=True)
        self.damping = self.vector(damping, 1, "damping", symbolic=True)
        for what in ("stiffness", "damping"):
            _check_non_negative(self, getattr(self, what), what)
        self.offset = self.vector(offset, 1, "offset", symbolic=True)
        self.velocity_offset = self.vector(velocity_offset, 1, "velocity_offset", symbolic=True)
        self.torque = self.vector(torque, 1, "torque", symbolic="input")
        self._set_joint_rotations(rotation_marker0, rotation_marker1)
        self.force_user_function = ConnectorUserFunction(self, force_user_function)
        self.active = _active_flag(self, active)

    def connect(self, system):
        super().connect(system)
        self.turn_node = None
        if self.turn_node_number is not None:
            self.turn_node = resolve(system, "node", self.turn_node_number, self, "turn_node")
            if not isinstance(self.turn_node, NodeGenericODE2) or self.turn_node.n_coordinates != 1:
                raise self.error(f"turn_node must be a NodeGenericODE2 with one coordinate, got {self.turn_node.label}")

    def check(self, assembled):
        """Consistent start values of the turn node: p = phi_c and p_t = d phi / dt at the initial state."""
        if self.turn_node is None:
            return
        state = (0.0, assembled.q_initial, assembled.v_initial, np.zeros(assembled.n_coordinates),
                 np.zeros(assembled.n_multipliers))
        angle = assembled.output_function(lambda ctx: self.relative_rotation(ctx)[1], "turn_angle")(*state)
        rate = assembled.output_function(lambda ctx: ctx.time_derivative(self.principal_angle(ctx)[1]),
                                         "turn_angle_rate")(*state)
        rows = self.turn_node.coordinate_indices
        assembled.q_initial[rows] = angle - self.turn_node.reference_coordinates
        assembled.v_initial[rows] = rate

    def principal_angle(self, ctx):
        """(J0, phi in (-pi, pi])."""
        joint0, joint1 = self.joint_frames(ctx)
        relative = joint0.T @ joint1
        return joint0, ca.atan2(-relative[0, 1], relative[0, 0])                   # rot_xyz(J0^T J1)[2]

    def turn_offset(self, ctx, angle):
        """wrap(phi - p) and p of the turn node."""
        previous = ctx.total_coordinates(self.turn_node)[0]                        # p
        return ca.atan2(ca.sin(angle - previous), ca.cos(angle - previous)), previous

    def relative_rotation(self, ctx):
        """(J0, phi (continuous phi_c with a turn node), omega_z)."""
        joint0, angle = self.principal_angle(ctx)
        if self.turn_node is not None:
            wrapped, previous = self.turn_offset(ctx, angle)
            angle = previous + wrapped                                             # phi_c
        return joint0, angle, self.relative_angular_velocity(ctx, joint0)[2]

    def scalar_torque(self, ctx):
        _, angle, rate = self.relative_rotation(ctx)
        if self.force_user_function:
            return self.force_user_function.force(ctx, [angle, rate], 1)
        return (ctx.value(self.stiffness) * (angle - ctx.value(self.offset))
                + ctx.value(self.damping) * (rate - ctx.value(self.velocity_offset)) + ctx.value(self.torque))

    def add_terms(self, ctx):
        joint0 = self.relative_rotation(ctx)[0]
        torque = joint0[:, 2] * (ctx.value(self.active) * self.scalar_torque(ctx))  # J0 e_z tau
        self.markers[0].apply_torque(ctx, torque)
        self.markers[1].apply_torque(ctx, -torque)
        if self.turn_node is not None:
            ctx.add_constraint(self, self.turn_offset(ctx, self.principal_angle(ctx)[1])[0])   # wrap(phi - p) = 0

    def output(self, ctx, variable):
        _, angle, rate = self.relative_rotation(ctx)
        outputs = {"Rotation": lambda: angle, "AngularVelocityLocal": lambda: rate,
                   "TorqueLocal": lambda: self.scalar_torque(ctx)}
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
        return outputs[variable]()
