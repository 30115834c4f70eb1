"""Which of floatframe's DAE coordinates and multipliers Exudyn has, and as what.

floatframe carries in its DAE some quantities that Exudyn keeps elsewhere or not at all:

- a NodeGenericData that is the turn counter of an ObjectConnectorTorsionalSpringDamper is, in floatframe, a massless
  coordinate (the continuous angle) held by a constraint of the spring; in Exudyn it is a data coordinate (the same
  continuous angle), and the constraint does not exist;
- a velocity-level ObjectConnectorCoordinate on a MarkerNodeRotationCoordinate integrates its velocity row in an
  auxiliary coordinate of its own (``floatframe.components.rotation_coordinate``), which Exudyn does not have.

Exudyn's views of a system (``systemData.GetODE2Coordinates`` and the like, node indices, the coordinates solution
file) leave these out, as they leave out the ODE1 coordinates (``_items_ode1``); the turn counters are the data
coordinates.
"""
from __future__ import annotations

import numpy as np

from floatframe.components.joints import TurnCounting
from floatframe.components.rotation_coordinate import VelocityCoordinateConstraint


def _indices(blocks) -> np.ndarray:
    blocks = [np.asarray(block, dtype=int).reshape(-1) for block in blocks]
    return np.concatenate(blocks) if blocks else np.zeros(0, dtype=int)


def turn_counters(mbs) -> list:
    """The core items of ``mbs`` that count turns on a node (Exudyn's NodeGenericData), in object order."""
    return [item for item in mbs._core.objects if isinstance(item, TurnCounting) and item.turn_node is not None]


def data_rows(mbs) -> np.ndarray:
    """The DAE coordinates that are Exudyn's data coordinates: the turn counters' angles, in node order."""
    counted = {id(item.turn_node) for item in turn_counters(mbs)}
    return _indices(node.coordinate_indices for node in mbs._core.nodes if id(node) in counted)


def auxiliary_rows(mbs) -> np.ndarray:
    """The DAE coordinates that Exudyn has not at all: the velocity-level connectors' integrals."""
    return _indices(item.integral_node.coordinate_indices for item in mbs._core.objects
                    if isinstance(item, VelocityCoordinateConstraint) and item.integral_node is not None)


def ae_rows(mbs, n_multipliers: int) -> np.ndarray:
    """The multipliers that are Exudyn's algebraic coordinates: all but those of the turn counters' constraints
    (each counter's last row, ``TurnCounting``)."""
    keep = np.ones(n_multipliers, dtype=bool)
    keep[_indices(item.multiplier_indices[-1:] for item in turn_counters(mbs))] = False
    return np.flatnonzero(keep)
