"""A spring-damper between two coordinates with gear factors, friction and limit stops: Exudyn's
ObjectConnectorCoordinateSpringDamperExt. Regularized (Stribeck) friction is a smooth force; sticking (bristle)
friction and limit stops read three data values [friction state, sticking position, limit-stop state] that
Exudyn switches after each Newton solve (``CoordinateSpringDamperExt.switch_data``)."""
from __future__ import annotations

import math

import casadi as ca
import numpy as np

from floatframe.components.connectors import Connector, ConnectorUserFunction, _active_flag
from floatframe.parameters import Parameter

DATA_SIZE = 3   # friction state (0: sticking, else the sliding force), sticking position, limit-stop state


def stribeck_friction(velocity, dynamic, static_offset, viscous, decay_velocity, zone_velocity):
    """Regularized friction force at ``velocity``: linear, (dynamic + static_offset) v / zone, for |v| <= zone;
    beyond it sign(v) (dynamic + static_offset exp(-(|v| - zone) / decay) + viscous (|v| - zone)) (exp taken
    as 1 where decay is 0). A ``zone_velocity`` of 0 has no linear part (the sliding law of sticking friction).
    CasADi expressions or floats (then a float)."""
    numeric = not isinstance(velocity, (ca.SX, ca.MX, ca.DM))
    fabs, sign, exp = (abs, lambda x: float(np.sign(x)), math.exp) if numeric else (ca.fabs, ca.sign, ca.exp)
    beyond = fabs(velocity) - zone_velocity
    decay = 1.0 if decay_velocity == 0 else exp(-beyond / decay_velocity)
    sliding = sign(velocity) * (dynamic + static_offset * decay + viscous * beyond)
    if zone_velocity == 0:
        return sliding
    linear = (dynamic + static_offset) * velocity / zone_velocity
    if numeric:
        return linear if abs(velocity) <= zone_velocity else sliding
    return ca.if_else(ca.fabs(velocity) <= zone_velocity, linear, sliding)


class CoordinateSpringDamperExt(Connector):
    """Force f = k (u - offset) + d (u_t - velocity_offset) + friction + limit-stop force with u = factor1 q1 -
    factor0 q0 (two single-coordinate markers), acting factor0 f on q0 and -factor1 f on q1 (virtual work of f
    along u: gears).

    Friction: where ``friction_proportional_zone`` > 0 the regularized Stribeck function
    :func:`stribeck_friction` of u_t. Where it is 0 and a friction force is given, sticking friction on the
    ``data`` values (friction state s, sticking position x_s): k_s (u - x_s) + d_s u_t while s = 0 (sticking),
    else sign(s) |Stribeck(u_t)| (sliding). Limit stops (``use_limit_stops``): with the limit-stop state c,
    (u - upper) k_l + u_t d_l for c > 0, (u - lower) k_l + u_t d_l for c < 0, none for c = 0. The data values
    change only between Newton solves, by :meth:`switch_data` (Exudyn's post-Newton step). Outputs (scalars):
    Displacement u, Velocity u_t, Force f (0 where inactive).

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
    sticking_stiffness, sticking_damping : float
        k_s, d_s of sticking friction (keyword only).
    limit_stops : (upper, lower, stiffness, damping) or None
        The limit stops (keyword only; None: none).
    data : Parameter of 3 values or None
        [s, x_s, c] (keyword only); needed for sticking friction and limit stops.
    """

    type_name = "CoordinateSpringDamperExt"
    output_variables = ("Displacement", "Velocity", "Force")
    marker_kinds = ("coordinates",)

    def __init__(self, marker_numbers, stiffness=0.0, damping=0.0, offset=0.0, velocity_offset=0.0, factor0=1.0,
                 factor1=1.0, dynamic_friction=0.0, static_friction_offset=0.0, viscous_friction=0.0,
                 exponential_decay_static=1e-3, friction_proportional_zone=0.0, name="", *, force_user_function=None,
                 active=True, sticking_stiffness=0.0, sticking_damping=0.0, limit_stops=None, data=None):
        super().__init__(marker_numbers, name)
        values = dict(stiffness=stiffness, damping=damping, offset=offset, velocity_offset=velocity_offset,
                      factor0=factor0, factor1=factor1, dynamic_friction=dynamic_friction,
                      static_friction_offset=static_friction_offset, viscous_friction=viscous_friction,
                      exponential_decay_static=exponential_decay_static,
                      friction_proportional_zone=friction_proportional_zone, sticking_stiffness=sticking_stiffness,
                      sticking_damping=sticking_damping)
        for what, value in values.items():
            setattr(self, what, float(self.vector(value, 1, what)[0]))
        if self.friction_proportional_zone < 0:
            raise self.error(f"friction_proportional_zone must be >= 0, got {self.friction_proportional_zone}")
        self.limit_stops = None if limit_stops is None else tuple(
            float(x) for x in self.vector(limit_stops, 4, "limit_stops (upper, lower, stiffness, damping)"))
        if data is not None and not (isinstance(data, Parameter) and data.size == DATA_SIZE):
            raise self.error(f"data must be a Parameter of {DATA_SIZE} values, got {data!r}")
        self.data = data
        needs = [what for what, wanted in (("sticking friction (a friction force with friction_proportional_zone "
                                            "= 0)", self.sticking_friction), ("limit stops", self.limit_stops))
                 if wanted]
        if needs and data is None and force_user_function is None:
            raise self.error(f"{' and '.join(needs)} need the data values (data=Parameter of {DATA_SIZE} values), "
                             f"which a post-Newton step switches")
        self.force_user_function = ConnectorUserFunction(self, force_user_function)
        self.active = _active_flag(self, active)

    @property
    def sticking_friction(self) -> bool:
        """Whether the friction is sticking friction (a friction force without regularization zone)."""
        return self.friction_proportional_zone == 0 and (self.dynamic_friction != 0 or
                                                         self.static_friction_offset != 0)

    @property
    def switches(self) -> bool:
        """Whether the force reads data values that :meth:`switch_data` changes (Exudyn's discontinuous
        iteration: sticking friction or limit stops)."""
        return self.sticking_friction or self.limit_stops is not None

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
            elif self.sticking_friction:
                state, sticking_position = ctx.value(self.data)[0], ctx.value(self.data)[1]
                sliding = ca.sign(state) * ca.fabs(stribeck_friction(
                    u_t, self.dynamic_friction, self.static_friction_offset, self.viscous_friction,
                    self.exponential_decay_static, 0.0))
                force = force + ca.if_else(state == 0, self.sticking_force(u, u_t, sticking_position), sliding)
            if self.limit_stops is not None:
                upper, lower, stiffness, damping = self.limit_stops
                contact = ctx.value(self.data)[2]
                force = force + ca.if_else(contact < 0, (u - lower) * stiffness + u_t * damping, ca.if_else(
                    contact > 0, (u - upper) * stiffness + u_t * damping, 0.0))
        return ctx.value(self.active) * force

    def sticking_force(self, u, u_t, sticking_position):
        """The bristle force k_s (u - x_s) + d_s u_t of sticking friction."""
        return (u - sticking_position) * self.sticking_stiffness + u_t * self.sticking_damping

    def switch_data(self, u: float, u_t: float, data, start) -> tuple[np.ndarray, float]:
        """Exudyn's post-Newton step: the data values [s, x_s, c] after a Newton solve that ended at (u, u_t) with
        ``data`` (3,), the step having started from ``start`` (3,); and the force error of the switch [N] (0: no
        switch). Sticking switches to sliding where |k_s (u - x_s) + d_s u_t| exceeds dynamic + static friction;
        sliding against the sign of s switches back to sticking; the limit-stop state c becomes u - upper (u -
        lower) while u is beyond a stop, else 0."""
        state, sticking_position, contact = (float(x) for x in data)
        error = 0.0
        new_state, new_position = state, sticking_position
        stribeck = stribeck_friction(float(u_t), self.dynamic_friction, self.static_friction_offset,
                                     self.viscous_friction, self.exponential_decay_static,
                                     self.friction_proportional_zone)
        if state == 0:   # sticking
            force = self.sticking_force(u, u_t, sticking_position)
            if abs(force) > self.dynamic_friction + self.static_friction_offset:
                error += abs(force) - abs(stribeck)
                new_state = stribeck
        else:            # sliding
            new_position, new_state = u, stribeck
            if u_t * state < 0:   # sliding against the assumed direction: stick again
                new_state = 0.0
                if start[0] == 0:
                    new_position = float(start[1])
                    error += abs(abs(stribeck) - abs(self.sticking_force(u, u_t, sticking_position)))
                else:
                    new_position = u - (float(start[0]) - u_t * self.sticking_damping) / self.sticking_stiffness
                    error += abs(float(start[0]) - stribeck)
        new_contact = 0.0
        if self.limit_stops is not None:
            upper, lower, stiffness, _ = self.limit_stops
            new_contact = contact
            if contact < 0:
                new_contact = 0.0 if u > lower else u - lower
                error += abs(contact * stiffness) if u > lower else 0.0
            elif contact > 0:
                new_contact = 0.0 if u < upper else u - upper
                error += abs(contact * stiffness) if u < upper else 0.0
            elif u > upper or u < lower:
                new_contact = u - (upper if u > upper else lower)
                error += abs(new_contact * stiffness)
        return np.array([new_state, new_position, new_contact]), error

    def add_terms(self, ctx):
        q0, q1 = (marker.coordinates(ctx) for marker in self.markers)
        virtual = self.factor0 * q0 - self.factor1 * q1
        ctx.add_force(np.arange(ctx.q.numel()), ca.jtimes(virtual, ctx.q, self.force(ctx), True))

    def add_exudyn_jacobian_difference(self, ctx):
        """The part of the residual whose derivatives Exudyn's iteration matrix has otherwise
        (``AssembledSystem.exudyn_matrix_difference``): where Exudyn takes its analytic Jacobian (no user function,
        no friction, no limit stops), k c_q + d c_v on u = q1 - q0, without the gear factors; the exact generalized
        force less that of the spring-damper without them. Nothing where both factors are 1."""
        if self.force_user_function or self.limit_stops is not None or (self.factor0 == 1 and self.factor1 == 1) \
                or self.dynamic_friction or self.static_friction_offset or self.viscous_friction:
            return
        q0, q1 = (marker.coordinates(ctx) for marker in self.markers)
        u = q1 - q0
        plain = ctx.value(self.active) * (self.stiffness * u + self.damping * ctx.time_derivative(u))
        exact = ca.jtimes(self.factor0 * q0 - self.factor1 * q1, ctx.q, self.force(ctx), True)
        ctx.add_force(np.arange(ctx.q.numel()), exact - ca.jtimes(q0 - q1, ctx.q, plain, True))

    def output(self, ctx, variable):
        self.check_output(variable)
        u, u_t = self.displacement_velocity(ctx)
        return {"Displacement": u, "Velocity": u_t}[variable] if variable != "Force" else self.force(ctx)
