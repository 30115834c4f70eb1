"""A mass point on a ground node (Exudyn accepts ObjectMassPoint on a NodePointGround): a body without
coordinates, fixed at the node's point, whose mass does not act."""
from __future__ import annotations

import casadi as ca

from floatframe.components.bodies import ObjectMassPoint
from floatframe.components.nodes import NodePointGround


class MassPointOnGround(ObjectMassPoint):
    """ObjectMassPoint on a NodePointGround: no equations (the node has no coordinates, m a has no rows), body
    points fixed at the node's reference coordinates plus the local offset; a mass-proportional load on it does
    nothing. Its accelerations are not defined (Exudyn 1.13.6 raises an internal error for them): refused.

    Parameters
    ----------
    node_number : NodePointGround or int
        The ground node.
    mass : float or Parameter, kg
        m >= 0, kept (not acting).
    """

    node_class = NodePointGround

    def add_terms(self, ctx):
        return

    def add_mass_proportional_load(self, ctx, acceleration):
        return

    def local_position(self, ctx, local_position):
        return ca.DM(self.reference_point(local_position))

    def origin_acceleration(self, ctx):
        # not a ModelError: the Exudyn layer reads that while building an output as 'needs a user function'
        raise ValueError(f"{self.label}: has no acceleration: it sits on the ground node {self.node.label}, which "
                         f"has no coordinates (Exudyn 1.13.6 fails there too)")
