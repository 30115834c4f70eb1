"""Constraints whose coefficients change with time (rheonomic constraints) on marker coordinates.

A coordinate constraint S1 q_m1 - S0 q_m0 - o = 0 whose scaling matrices S0, S1 and offset o may be functions of
the time t. It prescribes the motion of coordinates (a road profile, a driven point: S1 = I, o = o(t)) and imposes
linear constraints with moving coefficients (a point held on a line that turns in time: S1 = n(t)^T, o = 0).

The functions are traced once with a CasADi symbol for t, so the constraint's time derivatives, which the
velocity and acceleration levels and the index-1 form (IDAS) need, are exact. A function must therefore be
built from arithmetic and CasADi or NumPy functions of t (``np.sin(t)``, ``ca.if_else(...)``) and be twice
differentiable along the motion; a function that needs numbers (``math.sin(float(t))``, SciPy calls) is
refused when the constraint is made.
"""
from __future__ import annotations

import warnings

import casadi as ca
import numpy as np

from floatframe.components.connectors import Connector, coordinate_count, fixed_active_flag

# [s] times at which a traced function is compared with its values on numbers
SAMPLE_TIMES = (0.0, 0.37, 1.9, 12.5)


def _as_sx(value):
    """A CasADi SX matrix from a function's value: a number, a vector, a list of rows, NumPy or CasADi."""
    if isinstance(value, (ca.SX, ca.DM)):
        return ca.SX(value)
    if isinstance(value, np.ndarray) and value.dtype != object:
        return ca.SX(ca.DM(np.atleast_1d(value).astype(float)))
    if isinstance(value, (list, tuple, np.ndarray)):
        entries = list(value)
        if entries and all(isinstance(entry, (list, tuple, np.ndarray)) for entry in entries):
            return ca.vertcat(*[ca.horzcat(*[ca.SX(x) for x in row]) for row in entries])
        return ca.vertcat(*[ca.SX(x) for x in entries])
    return ca.SX(value)


class TimeFunction:
    """A constant (shape given by its value) or a function of the time t [s], as an SX expression of t.

    ``shape`` is the expected (rows, columns); a vector of ``shape[0]`` entries is taken as a column, and for one
    row a vector of ``shape[1]`` entries as that row."""

    def __init__(self, owner, value, shape, what):
        self.owner, self.what, self.shape = owner, what, tuple(shape)
        self.function = value if callable(value) else None
        numbers = value(0.0) if self.function else value
        try:
            array = np.asarray(numbers, dtype=float)
        except (TypeError, ValueError):
            raise owner.error(f"{what} must be numbers or a function of t returning numbers, got {numbers!r}") from None
        self.constant = None if self.function else self._shaped(array, "")
        if self.function:
            self._shaped(array, " at t = 0")
        self.expression = None

    def _shaped(self, array, where):
        rows, columns = self.shape
        if array.size == rows * columns and array.ndim <= 1 and (columns == 1 or rows == 1):
            array = array.reshape(rows, columns)
        if array.shape != self.shape:
            wanted = f"{rows} values" if columns == 1 else f"a {rows} x {columns} matrix"
            raise self.owner.error(f"{self.what} must be {wanted}, got shape {array.shape}{where}")
        if not np.all(np.isfinite(array)):
            raise self.owner.error(f"{self.what} contains NaN or inf{where}")
        return array

    def value(self, t: ca.SX) -> ca.SX:
        """The matrix as an SX expression of the time symbol ``t`` (traced once, checked on numbers)."""
        if self.constant is not None:
            return ca.SX(ca.DM(self.constant))
        if self.expression is None:
            self.expression = self._trace(t)
        symbol, expression = self.expression
        return ca.substitute(expression, symbol, t)

    def _trace(self, t):
        symbol = ca.SX.sym("t")
        needs = (f"{self.what} must be a function of t built from arithmetic and CasADi or NumPy functions (its exact "
                 f"time derivatives enter the velocity and acceleration levels)")
        try:
            with warnings.catch_warnings():  # NumPy ufuncs on CasADi symbols are what tracing relies on
                warnings.simplefilter("ignore", FutureWarning)
                expression = _as_sx(self.function(symbol))
        except Exception as error:
            raise self.owner.error(f"{needs}; called with a CasADi symbol it raised {type(error).__name__}: "
                                   f"{error}") from error
        rows, columns = self.shape
        if expression.numel() == rows * columns and (rows == 1 or columns == 1):
            expression = ca.reshape(expression, rows, columns)
        if expression.shape != self.shape:
            wanted = f"{rows} values" if columns == 1 else f"a {rows} x {columns} matrix"
            raise self.owner.error(f"{self.what} must be {wanted}, its traced value has shape {expression.shape}")
        traced = ca.Function("traced", [symbol], [expression])
        for time in SAMPLE_TIMES:
            numeric = self._shaped(np.asarray(self.function(time), dtype=float), f" at t = {time}")
            symbolic = np.asarray(traced(time), dtype=float)
            scale = max(1.0, float(np.max(np.abs(numeric), initial=0.0)))
            if not np.allclose(symbolic, numeric, rtol=1e-12, atol=1e-12 * scale):
                raise self.owner.error(f"{needs}; its trace with a CasADi symbol differs from its values at t = "
                                       f"{time} (it converts t to a number?)")
        return symbol, expression


class TimeDependentCoordinateConstraint(Connector):
    """S1(t) q_m1 - S0(t) q_m0 - o(t) = 0 (m equations) for two coordinate markers; each of S0, S1, o a constant or a
    function of the time t.

    The multipliers lambda (output ``Force``) enter the residual as + C_q^T lambda, as for every constraint: the
    generalized force of the constraint on marker 1's coordinates is -S1(t)^T lambda. Coordinates are those of the
    markers (MarkerNodeCoordinates: change from the node's reference).

    Parameters
    ----------
    marker_numbers : sequence of two coordinate markers
        MarkerNodeCoordinate(s) or MarkerObjectODE2Coordinates items or numbers, with n0 and n1 coordinates.
    scaling_marker0 : (m, n0) array_like, function of t, or None
        S0 in the markers' units; None: marker 0 does not enter (e.g. a ground marker).
    scaling_marker1 : (m, n1) array_like, function of t, or None
        S1; None: marker 1 does not enter.
    offset : (m,) array_like, function of t, or None, default None
        o(t) in the units of the scaled coordinates; None: zeros.
    active : bool, default True
        False removes the equations (keyword only; fixed at assembly).

    A function of t is called with a CasADi symbol and must trace (module docstring); it must return an (m, n)
    matrix (a row or column of m n values where one size is 1) or m offsets.
    """

    type_name = "TimeDependentCoordinateConstraint"
    marker_kinds = ("coordinates",)
    output_variables = ("Force",)

    def __init__(self, marker_numbers, scaling_marker0=None, scaling_marker1=None, offset=None, name="", *,
                 active=True):
        super().__init__(marker_numbers, name)
        if scaling_marker0 is None and scaling_marker1 is None:
            raise self.error("give scaling_marker0, scaling_marker1 or both: with neither no coordinate enters")
        self.scaling_inputs = (scaling_marker0, scaling_marker1)
        rows = set()
        for what, value in zip(("scaling_marker0", "scaling_marker1"), self.scaling_inputs):
            if value is not None:
                numbers = np.asarray(value(0.0) if callable(value) else value, dtype=float)
                rows.add(1 if numbers.ndim <= 1 else numbers.shape[0])
        if len(rows) != 1:
            raise self.error(f"scaling_marker0 and scaling_marker1 have {' and '.join(map(str, sorted(rows)))} rows; "
                             f"they need the same number of equations")
        self.n_equations = rows.pop()
        self.offset = TimeFunction(self, np.zeros(self.n_equations) if offset is None else offset,
                                   (self.n_equations, 1), "offset")
        self.active = fixed_active_flag(self, active)
        self.n_constraints = self.n_equations if self.active else 0
        self.scalings = (None, None)

    def connect(self, system):
        super().connect(system)
        scalings = []
        for i, (marker, value) in enumerate(zip(self.markers, self.scaling_inputs)):
            if value is None:
                scalings.append(None)
                continue
            columns = coordinate_count(marker)
            scalings.append(TimeFunction(self, value, (self.n_equations, columns), f"scaling_marker{i} "
                                                                                    f"(for {marker.label})"))
        self.scalings = tuple(scalings)

    def add_terms(self, ctx):
        if not self.active:
            return
        equations = -self.offset.value(ctx.t)
        for sign, marker, scaling in zip((-1.0, 1.0), self.markers, self.scalings):
            if scaling is not None:
                equations = equations + sign * (scaling.value(ctx.t) @ marker.coordinates(ctx))
        ctx.add_constraint(self, equations)

    def output(self, ctx, variable):
        """Force: the multipliers lambda (m,), zero if inactive."""
        self.check_output(variable)
        return ctx.multipliers(self) if self.active else ca.SX.zeros(self.n_equations)
