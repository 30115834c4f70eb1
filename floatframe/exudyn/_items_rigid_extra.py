"""Exudyn items of issue 28: ObjectConnectorLinearSpringDamper (and ObjectConnectorCoordinateSpringDamperExt)."""
from __future__ import annotations

from floatframe.components.linear_spring_damper import LinearSpringDamper as CoreLinearSpringDamper
from floatframe.exudyn import _items
from floatframe.exudyn._items import register, spring_user_function
from floatframe.exudyn._translate import live_value


@register("ObjectConnectorLinearSpringDamper", "object", "ConnectorLinearSpringDamper", dict(
    markerNumbers=[-1, -1], stiffness=0.0, damping=0.0, axisMarker0=[1, 0, 0], offset=0.0, velocityOffset=0.0,
    force=0.0, activeConnector=True, springForceUserFunction=0), short="LinearSpringDamper",
    outputs=dict(object=("DisplacementLocal", "VelocityLocal", "ForceLocal")),
    live=("stiffness", "damping", "offset", "velocityOffset", "force", "activeConnector"))
def ObjectConnectorLinearSpringDamper(item, number, mbs):
    return CoreLinearSpringDamper(
        item.markerNumbers, *(live_value(item, number, name) for name in ("stiffness", "damping")), item.axisMarker0,
        *(live_value(item, number, name) for name in ("offset", "velocityOffset", "force")), name=item.name,
        force_user_function=spring_user_function(item, number, mbs, "springForceUserFunction",
                                                 ("stiffness", "damping", "offset")),
        active=live_value(item, number, "activeConnector"))


def _publish(classes):
    """Enter item classes registered after ``_items`` built its tables (this module is imported at its end)."""
    for cls in classes:
        _items.BY_TYPE[(cls.family, cls.type_string)] = cls
        visualization = type("V" + cls.__name__, (_items.VisualizationItem,),
                             {"__doc__": f"Visualization of {cls.__name__}."})
        names = [cls.__name__, "V" + cls.__name__]
        _items.VISUALIZATION_CLASSES["V" + cls.__name__] = visualization
        if cls.short_name:
            _items.SHORT_NAMES[cls.short_name] = cls
            _items.VISUALIZATION_CLASSES["V" + cls.short_name] = visualization
            names += [cls.short_name, "V" + cls.short_name]
        _items.SUPPORTED_NAMES.extend(names)


_publish([ObjectConnectorLinearSpringDamper])
