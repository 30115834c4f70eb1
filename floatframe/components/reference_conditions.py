"""Reference conditions of a full FFRF body that take items of several families: the Tisserand frame.

(Kept apart from ``floatframe.components.ffrf``, which the markers import, so that the body's module
imports no markers or connectors.)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from floatframe.components.base import checked_keywords
from floatframe.components.constraints import CoordinateVectorConstraint
from floatframe.components.ffrf import ObjectFFRF, tisserand_rows
from floatframe.components.markers import MarkerNodeCoordinates, MarkerObjectODE2Coordinates
from floatframe.components.nodes import NodePointGround


@dataclass(frozen=True)
class TisserandFrame:
    """The items that :func:`add_tisserand_frame` adds, by their numbers within their families."""

    ground_node: int        # node: a NodePointGround at the origin (no coordinates)
    ground_marker: int      # marker: MarkerNodeCoordinates on that node (an empty coordinate vector)
    body_marker: int        # marker: MarkerObjectODE2Coordinates on the body (its n_c coordinates)
    constraint: int         # object: the CoordinateVectorConstraint 'Tisserand frame' (6 equations)


@checked_keywords
def add_tisserand_frame(system, body: ObjectFFRF) -> TisserandFrame:
    """Constrain the mesh deformation to the Tisserand frame: Phi_t^T M q_f = 0, x_ref~^T M q_f = 0.

    Adds four items: a NodePointGround at the origin, a MarkerNodeCoordinates on it, a
    MarkerObjectODE2Coordinates on the body and a CoordinateVectorConstraint named 'Tisserand frame'
    with 6 equations on the body's ODE2 coordinates (which include reference values, hence the offset
    S q_ref). These are the body's reference conditions. Returns their numbers as a TisserandFrame.

    The frame's origin is the mesh's origin. Put it at the undeformed centre of mass (mesh nodes shifted by
    :func:`floatframe.fem.center_of_mass`) to make it the Tisserand frame proper, which moves with the centre
    of mass; then the integrators keep the linear momentum to round-off (docs/ffrf.md, Conservation).
    """
    reference = body.object_reference_coordinates()
    scaling = np.zeros((6, body.n_coordinates))            # zero on the frame node's 7 coordinates
    scaling[:, 7:] = tisserand_rows(body.mass_matrix_ff, reference[7:])
    ground_node = system.add(NodePointGround((0.0, 0.0, 0.0)))
    ground_marker = system.add(MarkerNodeCoordinates(ground_node))
    body_marker = system.add(MarkerObjectODE2Coordinates(body))
    constraint = system.add(CoordinateVectorConstraint([ground_marker, body_marker], np.zeros((6, 0)), scaling,
                                                       offset=scaling @ reference, name="Tisserand frame"))
    return TisserandFrame(ground_node, ground_marker, body_marker, constraint)
