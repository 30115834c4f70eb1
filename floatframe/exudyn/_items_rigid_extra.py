"""Exudyn items of issue 28: ObjectConnectorLinearSpringDamper and ObjectConnectorCoordinateSpringDamperExt."""
from __future__ import annotations

from floatframe.components.coordinate_spring_damper_ext import CoordinateSpringDamperExt
from floatframe.components.linear_spring_damper import LinearSpringDamper as CoreLinearSpringDamper
from floatframe.exudyn import _items
from floatframe.exudyn._items import register, spring_user_function
from floatframe.exudyn._translate import live_value, unsupported


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


@register("ObjectConnectorCoordinateSpringDamperExt", "object", "ConnectorCoordinateSpringDamperExt", dict(
    markerNumbers=[-1, -1], nodeNumber=-1, stiffness=0.0, damping=0.0, offset=0.0, velocityOffset=0.0, factor0=1.0,
    factor1=1.0, dynamicFrictionForce=0.0, staticFrictionOffsetForce=0.0, stickingStiffness=0.0, stickingDamping=0.0,
    exponentialDecayStatic=0.001, viscousFrictionFactor=0.0, frictionProportionalZone=0.0, limitStopsUpper=0.0,
    limitStopsLower=0.0, limitStopsStiffness=0.0, limitStopsDamping=0.0, useLimitStops=False, activeConnector=True,
    springForceUserFunction=0), short="CoordinateSpringDamperExt",
    deprecated=dict(fDynamicFriction="dynamicFrictionForce", fStaticFrictionOffset="staticFrictionOffsetForce",
                    fViscousFriction="viscousFrictionFactor"),
    outputs=dict(object=("Displacement", "Velocity", "Force")), live=("activeConnector",))
def ObjectConnectorCoordinateSpringDamperExt(item, number, mbs):
    """The spring-damper with gear factors and regularized friction (frictionProportionalZone > 0); the data node
    (nodeNumber) for sticking friction and limit stops, switched by Exudyn after each Newton solve, is refused."""
    if item.nodeNumber not in (-1, None):
        raise unsupported(item, number, "nodeNumber", "is not supported: its data node serves sticking friction and "
                          "limit stops, which Exudyn switches after each Newton solve (floatframe has no such "
                          "switching); use frictionProportionalZone > 0 (regularized friction) without limit stops")
    if item.useLimitStops:
        raise unsupported(item, number, "useLimitStops", "is not supported: limit stops need the data node and "
                          "Exudyn's switching after each Newton solve")
    return CoordinateSpringDamperExt(
        item.markerNumbers, item.stiffness, item.damping, item.offset, item.velocityOffset, item.factor0,
        item.factor1, item.dynamicFrictionForce, item.staticFrictionOffsetForce, item.viscousFrictionFactor,
        item.exponentialDecayStatic, item.frictionProportionalZone, name=item.name,
        force_user_function=spring_user_function(item, number, mbs, "springForceUserFunction", (
            "stiffness", "damping", "offset", "velocityOffset", "dynamicFrictionForce", "staticFrictionOffsetForce",
            "exponentialDecayStatic", "viscousFrictionFactor", "frictionProportionalZone")),
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


_publish([ObjectConnectorLinearSpringDamper, ObjectConnectorCoordinateSpringDamperExt])
