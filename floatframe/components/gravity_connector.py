"""Gravitational attraction between two points (Exudyn's ObjectConnectorGravity)."""
from __future__ import annotations

import casadi as ca

from floatframe.components.connectors import Connector


class GravityConnector(Connector):
    """Attraction of two point masses m0, m1 at the markers' points: F = G m0 m1 / d(r)^2 along
    e = (p1 - p0) / r, r = |p1 - p0|; +F e acts on marker 0 and -F e on marker 1.

    d(r)^2 = r^2, below ``min_distance`` r_min (a regularization against the singularity at r = 0)
    r^2 + (r_min - r)^2, as Exudyn: continuous at r_min, finite at r = 0.

    Parameters
    ----------
    marker_numbers : sequence of two position markers
    gravitational_constant : float, m^3/(kg s^2), default 6.6743e-11
        G; a negative value repels.
    mass0, mass1 : float, kg
    min_distance : float, m, default 0
        r_min (Exudyn's minDistanceRegularization); 0: no regularization.
    active : bool, default True (keyword only)

    Outputs: Distance r [m], Displacement p1 - p0 [m], Force F e [N] (the force on marker 0).
    """

    type_name = "GravityConnector"
    output_variables = ("Distance", "Displacement", "Force")

    def __init__(self, marker_numbers, gravitational_constant=6.6743e-11, mass0=0.0, mass1=0.0, min_distance=0.0,
                 name="", *, active=True):
        super().__init__(marker_numbers, name)
        self.gravitational_constant = float(gravitational_constant)
        self.mass0, self.mass1 = float(mass0), float(mass1)
        self.min_distance = float(min_distance)
        if self.min_distance < 0:
            raise self.error(f"min_distance must be >= 0, got {self.min_distance}")
        self.active = bool(active)

    def _parts(self, ctx):
        x0, x1 = (m.position(ctx) for m in self.markers)
        displacement = x1 - x0
        distance = ca.norm_2(displacement)
        squared = distance ** 2
        if self.min_distance > 0:
            squared = ca.if_else(distance < self.min_distance, squared + (self.min_distance - distance) ** 2, squared)
        magnitude = self.gravitational_constant * self.mass0 * self.mass1 / squared
        return displacement, distance, magnitude * displacement / distance

    def add_terms(self, ctx):
        if not self.active:
            return
        _, _, force = self._parts(ctx)
        self.markers[0].apply_force(ctx, force)
        self.markers[1].apply_force(ctx, -force)

    def output(self, ctx, variable):
        displacement, distance, force = self._parts(ctx)
        outputs = {"Distance": distance, "Displacement": displacement,
                   "Force": force if self.active else ca.DM.zeros(3)}
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
        return outputs[variable]
