"""Connectors between two markers: constraints (with Lagrange multipliers) and spring-dampers."""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe.components.base import Component, resolve
from floatframe.parameters import Parameter


class Connector(Component):
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
    """factor1 * q_m1 - q_m0 - offset = 0 for two single-coordinate markers (Exudyn's ``factor1``)."""

    type_name = "CoordinateConstraint"
    marker_kinds = ("coordinates",)
    n_constraints = 1

    def __init__(self, marker_numbers, offset=0.0, factor1=1.0, name=""):
        super().__init__(marker_numbers, name)
        self.offset = self.vector(offset, 1, "offset", symbolic=True)
        self.factor1 = self.vector(factor1, 1, "factor1", symbolic=True)

    def connect(self, system):
        super().connect(system)
        for i, marker in enumerate(self.markers):
            if not hasattr(marker, "coordinate"):
                raise self.error(f"marker_numbers[{i}] ({marker.label}) must be a single-coordinate marker")

    def add_terms(self, ctx):
        q0, q1 = (m.coordinates(ctx) for m in self.markers)
        ctx.add_constraint(self, ctx.value(self.factor1) * q1 - q0 - ctx.value(self.offset))


class CoordinateVectorConstraint(Connector):
    """scaling_marker1 q_m1 - scaling_marker0 q_m0 - offset = 0 (m equations) for coordinate markers.

    With an ObjectODE2Coordinates marker on an FFRF body and the scaling [0, 0, Phi_t^T M] and
    [0, 0, x_ref~^T M] (zero on the rigid node's 7 coordinates) this imposes the Tisserand frame.
    """

    type_name = "CoordinateVectorConstraint"
    marker_kinds = ("coordinates",)

    def __init__(self, marker_numbers, scaling_marker0, scaling_marker1, offset=None, name=""):
        super().__init__(marker_numbers, name)
        self.scaling_marker0 = np.atleast_2d(np.asarray(scaling_marker0, dtype=float))
        self.scaling_marker1 = np.atleast_2d(np.asarray(scaling_marker1, dtype=float))
        m = max(self.scaling_marker0.shape[0], self.scaling_marker1.shape[0])
        for what, matrix in (("scaling_marker0", self.scaling_marker0), ("scaling_marker1", self.scaling_marker1)):
            if matrix.size and matrix.shape[0] != m:
                raise self.error(f"{what} has {matrix.shape[0]} rows, the other scaling matrix {m}")
            if not np.all(np.isfinite(matrix)):
                raise self.error(f"{what} contains NaN or inf")
        self.n_constraints = m
        no_offset = offset is None or (not isinstance(offset, Parameter) and np.size(offset) == 0)
        self.offset = self.vector(np.zeros(m) if no_offset else offset, m, "offset", symbolic=True)

    def connect(self, system):
        super().connect(system)
        for i, (marker, matrix) in enumerate(zip(self.markers, (self.scaling_marker0, self.scaling_marker1))):
            n = coordinate_count(marker)
            if matrix.size and matrix.shape[1] != n:
                raise self.error(f"scaling_marker{i} has {matrix.shape[1]} columns, but {marker.label} has "
                                 f"{n} coordinates")

    def add_terms(self, ctx):
        equations = -ctx.value(self.offset)
        for sign, marker, matrix in zip((-1.0, 1.0), self.markers, (self.scaling_marker0, self.scaling_marker1)):
            if matrix.size:
                equations = equations + sign * (ca.DM(matrix) @ marker.coordinates(ctx))
        ctx.add_constraint(self, equations)


def coordinate_count(marker) -> int:
    """Number of coordinates a coordinate marker gives."""
    if hasattr(marker, "coordinate"):
        return 1
    owner = getattr(marker, "node", None) or getattr(marker, "body", None)
    return len(owner.coordinate_indices) if hasattr(owner, "coordinate_indices") else owner.n_coordinates


class CartesianSpringDamper(Connector):
    """Force F = k (x1 - x0 - offset) + d (v1 - v0) per global axis, acting +F on m0 and -F on m1.

    The output ``Force`` is F, the force on marker 0 (as Exudyn's): positive when the spring is stretched.
    """

    type_name = "CartesianSpringDamper"

    def __init__(self, marker_numbers, stiffness, damping=(0.0, 0.0, 0.0), offset=(0.0, 0.0, 0.0), name=""):
        super().__init__(marker_numbers, name)
        self.stiffness = self.vector(stiffness, 3, "stiffness", symbolic=True)
        self.damping = self.vector(damping, 3, "damping", symbolic=True)
        self.offset = self.vector(offset, 3, "offset", symbolic=True)

    def force(self, ctx):
        x0, x1 = (m.position(ctx) for m in self.markers)
        difference = x1 - x0
        return (ctx.value(self.stiffness) * (difference - ctx.value(self.offset))
                + ctx.value(self.damping) * ctx.time_derivative(difference))

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
    unit. The output ``Force`` is f."""

    type_name = "CoordinateSpringDamper"
    marker_kinds = ("coordinates",)

    def __init__(self, marker_numbers, stiffness, damping=0.0, offset=0.0, name=""):
        super().__init__(marker_numbers, name)
        self.stiffness = self.vector(stiffness, 1, "stiffness", symbolic=True)
        self.damping = self.vector(damping, 1, "damping", symbolic=True)
        self.offset = self.vector(offset, 1, "offset", symbolic=True)

    def add_terms(self, ctx):
        q0, q1 = (marker.coordinates(ctx) for marker in self.markers)
        for k, q in enumerate((q0, q1)):
            if q.numel() != 1:
                raise self.error(f"marker_numbers[{k}] ({self.markers[k].label}) must give one coordinate, "
                                 f"gives {q.numel()}")
        ctx.add_force(np.arange(ctx.q.numel()), ca.jtimes(q0 - q1, ctx.q, self.force(ctx), True))  # f d(q0 - q1)

    def force(self, ctx):
        q0, q1 = (marker.coordinates(ctx) for marker in self.markers)
        return (ctx.value(self.stiffness) * (q1 - q0 - ctx.value(self.offset))
                + ctx.value(self.damping) * ctx.time_derivative(q1 - q0))

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
    """

    type_name = "SphericalJoint"

    def __init__(self, marker_numbers, constrained_axes=(1, 1, 1), name=""):
        super().__init__(marker_numbers, name)
        axes = np.asarray(constrained_axes, dtype=int).reshape(-1)
        if axes.size != 3 or not set(axes.tolist()) <= {0, 1}:
            raise self.error(f"constrained_axes must be three flags 0/1, got {constrained_axes!r}")
        self.constrained_axes = [i for i in range(3) if axes[i]]
        self.n_constraints = len(self.constrained_axes)

    def add_terms(self, ctx):
        x0, x1 = (m.position(ctx) for m in self.markers)
        ctx.add_constraint(self, (x1 - x0)[self.constrained_axes])
        if any(m.has_index2_velocity for m in self.markers):  # a point on a rigid body: Exudyn's index-2 form
            v0, v1 = (m.velocity_index2(ctx) for m in self.markers)
            ctx.add_velocity_constraint(self, (v1 - v0)[self.constrained_axes])

    def output(self, ctx, variable):
        if variable == "Force":  # lambda: the constraint force on marker 0 (marker 1 gets -lambda), global
            force = ca.SX.zeros(3)
            force[self.constrained_axes] = ctx.multipliers(self)
            return force
        raise self.error(f"has no output variable '{variable}'; available: ['Force']")
