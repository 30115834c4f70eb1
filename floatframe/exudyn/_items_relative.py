"""Exudyn's relative markers of two bodies: MarkerBodiesRelativeTranslationCoordinate and
MarkerBodiesRelativeRotationCoordinate, on the core's :mod:`floatframe.components.relative_markers`.

Each marker stands on a rigid frame at ``localPosition0`` of body 0 and one at ``localPosition1`` of body 1 (the
core markers that Exudyn's MarkerBodyRigid at these points translates into, so any body such a marker takes).
They serve an ObjectConnectorCoordinate at position level, whose reactions act through Exudyn's Jacobian of the
marker, and SensorMarker (Coordinates, Coordinates_t); other users, and velocityLevel, are refused.

The rotation marker's data node (nodeNumber, a NodeGenericData with one coordinate) counts the turns, as in Exudyn;
here it is a massless coordinate that a constraint of the marker keeps on the continuous angle (Exudyn updates it
after each step). Exudyn's views of the system leave it out of the ODE2 coordinates and show it as a data coordinate
(``_coordinates``); ``_items``' NodeGenericData translates it.

``offset`` is set after a first Assemble with ``mbs.SetMarkerParameter`` (as Exudyn's test models do); a changed
offset takes effect at the next Assemble.
"""
from __future__ import annotations

import numpy as np

from floatframe.components.relative_markers import (MarkerBodiesRelativeRotationCoordinate as CoreRotation,
                                                    MarkerBodiesRelativeTranslationCoordinate as CoreTranslation)
from floatframe.exudyn import _items
from floatframe.exudyn._items import register, translate
from floatframe.exudyn._items_rigid_extra import _publish
from floatframe.exudyn._names import ExudynLayerError
from floatframe.exudyn._translate import label, unsupported

RELATIVE_TYPES = ("BodiesRelativeTranslationCoordinate", "BodiesRelativeRotationCoordinate")
RELATIVE = dict(bodyNumbers=[-1, -1], localPosition0=[0.0, 0.0, 0.0], localPosition1=[0.0, 0.0, 0.0],
                axis0=[1.0, 0.0, 0.0], offset=0.0)


def _frame_markers(item, number, mbs) -> list:
    """The core rigid markers at localPosition0 of body 0 and localPosition1 of body 1 (not added to the system)."""
    bodies = list(np.asarray(item.bodyNumbers).reshape(-1))
    if len(bodies) != 2:
        raise unsupported(item, number, "bodyNumbers", "must hold two body numbers")
    rigid = _items.BY_TYPE[("marker", "BodyRigid")]
    frames = []
    for i, body in enumerate(bodies):
        mbs.item("object", body, label(item, number), f"bodyNumbers[{i}]")
        frame = rigid(bodyNumber=int(body), localPosition=list(np.asarray(getattr(item, f"localPosition{i}"),
                                                                              dtype=float).reshape(-1)))
        frames.append(translate(frame, number, mbs))
    return frames


def _refuse_other_users(item, number, mbs):
    """Only a position-level ObjectConnectorCoordinate and SensorMarker may use a relative marker."""
    for family in ("object", "load", "sensor"):
        for other_number, other in enumerate(mbs.items(family)):
            markers = other.values.get("markerNumbers", [other.values.get("markerNumber")])
            if not any(marker is not None and int(marker) == number for marker in markers):
                continue
            if other.type_string == "ConnectorCoordinate" and other.velocityLevel:
                raise ExudynLayerError(f"{label(item, number)} is used by {label(other, other_number)} with "
                                       f"velocityLevel=True: floatframe supports the marker at position level only "
                                       f"(its Jacobian is not the derivative of its value)")
            if other.type_string not in ("ConnectorCoordinate", "Marker"):
                raise ExudynLayerError(f"{label(item, number)} is used by {label(other, other_number)}: floatframe "
                                       f"supports the marker in an ObjectConnectorCoordinate and a SensorMarker only")


@register("MarkerBodiesRelativeTranslationCoordinate", "marker", "BodiesRelativeTranslationCoordinate", dict(RELATIVE),
          outputs=dict(marker=("Coordinates", "Coordinates_t")),
          doc="Exudyn's MarkerBodiesRelativeTranslationCoordinate: the translation of body 1's point relative to "
              "body 0's along body 0's axis0, minus offset (see the module).")
def MarkerBodiesRelativeTranslationCoordinate(item, number, mbs):
    _refuse_other_users(item, number, mbs)
    return CoreTranslation(_frame_markers(item, number, mbs), item.axis0, item.offset, name=item.name)


@register("MarkerBodiesRelativeRotationCoordinate", "marker", "BodiesRelativeRotationCoordinate",
          dict(bodyNumbers=[-1, -1], nodeNumber=-1, **{k: v for k, v in RELATIVE.items() if k != "bodyNumbers"}),
          outputs=dict(marker=("Coordinates", "Coordinates_t")),
          doc="Exudyn's MarkerBodiesRelativeRotationCoordinate: the angle of body 1's rotation relative to body 0 "
              "about body 0's axis0, minus offset, continuous over turns with a data node (see the module).")
def MarkerBodiesRelativeRotationCoordinate(item, number, mbs):
    _refuse_other_users(item, number, mbs)
    node = None if item.nodeNumber is None or int(item.nodeNumber) == -1 else int(item.nodeNumber)
    if node is not None and mbs.item("node", node, label(item, number), "nodeNumber").type_string != "GenericData":
        raise unsupported(item, number, "nodeNumber", "must be a NodeGenericData (the turn counter) or -1")
    return CoreRotation(_frame_markers(item, number, mbs), item.axis0, item.offset, name=item.name, turn_node=node)


_publish([MarkerBodiesRelativeTranslationCoordinate, MarkerBodiesRelativeRotationCoordinate])
