"""A spring-damper between two coordinates with gear factors and regularized (Stribeck) friction (the part of
Exudyn's ObjectConnectorCoordinateSpringDamperExt without its data node: no sticking friction, no limit stops)."""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe.components.connectors import Connector, ConnectorUserFunction, _active_flag


def stribeck_friction(velocity, dynamic, static_offset, viscous, decay_velocity, zone_velocity):
    """Regularized friction force at ``velocity``: linear, (dynamic + static_offset) v / zone, for |v| <= zone;
    beyond it sign(v) (dynamic + static_offset exp(-(|v| - zone) / decay) + viscous (|v| - zone)) (exp taken
    as 1 where decay is 0). ``zone_velocity`` must be positive."""
    beyond = ca.fabs(velocity) - zone_velocity
    decay = 1.0 if decay_velocity == 0 else ca.exp(-beyond / decay_velocity)
    sliding = ca.sign(velocity) * (dynamic + static_offset * decay + viscous * beyond)
    return ca.if_else(ca.fabs(velocity) <= zone_velocity, (dynamic + static_offset) * velocity / zone_velocity,
                      sliding)


class CoordinateSpringDamperExt(Connector):
    """Force f = k (u - offset) + d (u_t - velocity_offset) + friction(u_t) with u = factor1 q1 - factor0 q0 (two
    single-coordinate markers), acting factor0 f on q0 and -factor1 f on q1 (virtual work of f along u: gears).

    The friction is the regularized Stribeck function :func:`stribeck_friction` of u_t where
    ``friction_proportional_zone`` > 0, and absent where it is 0 (as in Exudyn 1.13.6, which then needs its data
    node for sticking friction: not supported here). Outputs (scalars): Displacement u, Velocity u_t, Force f (0
    where inactive).

    Parameters
    ----------
    marker_numbers : sequence of two single-coordinate markers
        q0 and q1.
    stiffness, damping, offset, velocity_offset : float
        k, d (any sign, as Exudyn), the unstressed u and the u_t at which the damping force vanishes.
    factor0, factor1 : float, default 1.0
        Gear factors of q0 and q1.
    dynamic_friction, static_friction_offset, viscous_friction, exponential_decay_static,
    friction_proportional_zone : float
        Exudyn's dynamicFrictionForce, staticFrictionOffsetForce, viscousFrictionFactor, exponentialDecayStatic
        (default 1e-3) and frictionProportionalZone (the regularization velocity).
    force_user_function : callable or None
        f(t, u, u_t) replacing the formula (keyword only).
    active : bool, 0/1 or Parameter, default True
        False (0) makes f zero (keyword only).
    """

    type_name = "CoordinateSpringDamperExt"
    output_variables = ("Displacement", "Velocity", "Force")
    marker_kinds = ("coordinates",)

    def __init__(self, marker_numbers, stiffness=0.0, damping=0.0, offset=0.0, velocity_offset=0.0, factor0=1.0,
                 factor1=1.0, dynamic_friction=0.0, static_friction_offset=0.0, viscous_friction=0.0,
                 exponential_decay_static=1e-3, friction_proportional_zone=0.0, name="", *, force_user_function=None,
                 active=True):
        super().__init__(marker_numbers, name)
        values = dict(stiffness=stiffness, damping=damping, offset=offset, velocity_offset=velocity_offset,
                      factor0=factor0, factor1=factor1, dynamic_friction=dynamic_friction,
                      static_friction_offset=static_friction_offset, viscous_friction=viscous_friction,
                      exponential_decay_static=exponential_decay_static,
                      friction_proportional_zone=friction_proportional_zone)
        for what, value in values.items():
            setattr(self, what, float(self.vector(value, 1, what)[0]))
        if self.friction_proportional_zone < 0:
            raise self.error(f"friction_proportional_zone must be >= 0, got {self.friction_proportional_zone}")
        if self.friction_proportional_zone == 0 and (self.dynamic_friction or self.static_friction_offset):
            raise self.error("dynamic_friction/static_friction_offset with friction_proportional_zone = 0 is sticking "
                             "friction (Exudyn's data node with post-Newton switching): not supported; give a "
                             "friction_proportional_zone > 0 for regularized friction")
        self.force_user_function = ConnectorUserFunction(self, force_user_function)
        self.active = _active_flag(self, active)

    def displacement_velocity(self, ctx):
        q0, q1 = (marker.coordinates(ctx) for marker in self.markers)
        for k, q in enumerate((q0, q1)):
            if q.numel() != 1:
                raise self.error(f"marker_numbers[{k}] ({self.markers[k].label}) must give one coordinate, "
                                 f"gives {q.numel()}")
        u = self.factor1 * q1 - self.factor0 * q0
        return u, ctx.time_derivative(u)

    def force(self, ctx):
        u, u_t = self.displacement_velocity(ctx)
        if self.force_user_function:
            force = self.force_user_function.force(ctx, [u, u_t], 1)
        else:
            force = self.stiffness * (u - self.offset) + self.damping * (u_t - self.velocity_offset)
            if self.friction_proportional_zone != 0:
                force = force + stribeck_friction(u_t, self.dynamic_friction, self.static_friction_offset,
                                                  self.viscous_friction, self.exponential_decay_static,
                                                  self.friction_proportional_zone)
        return ctx.value(self.active) * force

    def add_terms(self, ctx):
        q0, q1 = (marker.coordinates(ctx) for marker in self.markers)
        virtual = self.factor0 * q0 - self.factor1 * q1
        ctx.add_force(np.arange(ctx.q.numel()), ca.jtimes(virtual, ctx.q, self.force(ctx), True))

    def output(self, ctx, variable):
        self.check_output(variable)
        u, u_t = self.displacement_velocity(ctx)
        return {"Displacement": u, "Velocity": u_t}[variable] if variable != "Force" else self.force(ctx)
