"""A spring-damper along an axis fixed in the frame of its first marker (Exudyn's
ObjectConnectorLinearSpringDamper)."""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe.components.connectors import Connector, ConnectorUserFunction, _active_flag


class LinearSpringDamper(Connector):
    """Scalar force f = k (u - offset) + d (u_t - velocity_offset) + force along the axis a fixed in marker 0.

    With A0 the rotation of marker 0 and e = A0 a, the displacement is u = e . (x1 - x0) and the velocity
    u_t = e . (v1 - v0) (the markers' point velocities: the turning of e is not part of it). The force e f
    acts on marker 0 and -e f on marker 1, through the markers' positions only: as in Exudyn 1.13.6, no
    reaction from the turning of e enters marker 0's rotation (the force is not the gradient of a potential
    where marker 0 turns). Outputs (scalars): DisplacementLocal u, VelocityLocal u_t, ForceLocal f (computed
    also where inactive, as Exudyn's).

    Parameters
    ----------
    marker_numbers : sequence of two rigid markers
        Marker 0 (carries the axis) and marker 1.
    stiffness, damping : float or Parameter
        k [N/m] and d [N s/m]; any sign (as Exudyn).
    axis_marker0 : (3,) array_like, default (1, 0, 0)
        a, in marker 0's frame, of length 1 (to 100 machine epsilons, as Exudyn checks axisMarker0).
    offset, velocity_offset, force : float or Parameter, default 0.0
        [m], [m/s] and a constant force [N] added to f.
    force_user_function : callable or None, default None
        f(t, u, u_t) -> f, replacing the formula (keyword only).
    active : bool, 0/1 or Parameter, default True
        False (0) makes the force zero (keyword only).
    """

    type_name = "LinearSpringDamper"
    marker_kinds = ("rigid",)
    output_variables = ("DisplacementLocal", "VelocityLocal", "ForceLocal")

    def __init__(self, marker_numbers, stiffness=0.0, damping=0.0, axis_marker0=(1.0, 0.0, 0.0), offset=0.0,
                 velocity_offset=0.0, force=0.0, name="", *, force_user_function=None, active=True):
        super().__init__(marker_numbers, name)
        self.stiffness = self.vector(stiffness, 1, "stiffness", symbolic=True)
        self.damping = self.vector(damping, 1, "damping", symbolic=True)
        self.axis_marker0 = self.vector(axis_marker0, 3, "axis_marker0")
        if abs(np.linalg.norm(self.axis_marker0) - 1.0) > 100 * np.finfo(float).eps:   # Exudyn's check
            raise self.error(f"axis_marker0 must have length 1, got {self.axis_marker0.tolist()} (length "
                             f"{np.linalg.norm(self.axis_marker0):.17g})")
        self.offset = self.vector(offset, 1, "offset", symbolic=True)
        self.velocity_offset = self.vector(velocity_offset, 1, "velocity_offset", symbolic=True)
        self.constant_force = self.vector(force, 1, "force", symbolic=True)
        self.force_user_function = ConnectorUserFunction(self, force_user_function)
        self.active = _active_flag(self, active)

    def axis(self, ctx):
        """e = A0 a, global."""
        return self.markers[0].rotation_matrix(ctx) @ ca.DM(self.axis_marker0)

    def displacement_velocity(self, ctx):
        """(u, u_t): the markers' relative position and point velocity along e."""
        axis = self.axis(ctx)
        x0, x1 = (m.position(ctx) for m in self.markers)
        v0, v1 = (m.velocity(ctx) for m in self.markers)
        return ca.dot(axis, x1 - x0), ca.dot(axis, v1 - v0)

    def force(self, ctx):
        """f (scalar); also where inactive (as Exudyn's output ForceLocal), then it does not act."""
        displacement, velocity = self.displacement_velocity(ctx)
        if self.force_user_function:
            force = self.force_user_function.force(ctx, [displacement, velocity], 1)
        else:
            force = (ctx.value(self.stiffness) * (displacement - ctx.value(self.offset))
                     + ctx.value(self.damping) * (velocity - ctx.value(self.velocity_offset))
                     + ctx.value(self.constant_force))
        return force

    def add_terms(self, ctx):
        force = self.axis(ctx) * (ctx.value(self.active) * self.force(ctx))
        self.markers[0].apply_force(ctx, force)
        self.markers[1].apply_force(ctx, -force)

    def output(self, ctx, variable):
        self.check_output(variable)
        if variable == "ForceLocal":
            return self.force(ctx)
        displacement, velocity = self.displacement_velocity(ctx)
        return displacement if variable == "DisplacementLocal" else velocity


__all__ = ["LinearSpringDamper"]
