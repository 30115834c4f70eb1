"""The base of the connectors between two markers and what they share: the active flag, the checks of
stiffness-like values, joint frames and the force user functions. The connectors themselves are in
``floatframe.components.constraints`` (with Lagrange multipliers) and ``floatframe.components.springs``."""
from __future__ import annotations

import importlib
import warnings

import casadi as ca
import numpy as np

from floatframe.components.base import Component, resolve
from floatframe.components.external import NumericCallback
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


MOVED = {"CoordinateConstraint": "constraints", "CoordinateVectorConstraint": "constraints", "SphericalJoint": "constraints",
         "DistanceConstraint": "constraints", "CartesianSpringDamper": "springs", "CoordinateSpringDamper": "springs",
         "SpringDamper": "springs", "RigidBodySpringDamper": "springs", "TorsionalSpringDamper": "springs"}


def __getattr__(name):
    """The connectors that moved to ``constraints`` and ``springs``, still importable from here with a
    DeprecationWarning (``floatframe.components`` exports them all)."""
    if name not in MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = f"floatframe.components.{MOVED[name]}"
    warnings.warn(f"floatframe.components.connectors.{name} moved to {module}; import it from there or from "
                  f"floatframe.components", DeprecationWarning, stacklevel=2)
    return getattr(importlib.import_module(module), name)
