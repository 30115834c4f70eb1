"""Exudyn items of issue 28: ObjectConnectorLinearSpringDamper and ObjectConnectorCoordinateSpringDamperExt (with its
data node: sticking friction and limit stops, ``_post_newton``)."""
from __future__ import annotations

from floatframe.components.coordinate_spring_damper_ext import DATA_SIZE, CoordinateSpringDamperExt
from floatframe.components.linear_spring_damper import LinearSpringDamper as CoreLinearSpringDamper
from floatframe.exudyn import _items
from floatframe.exudyn._items import register, spring_user_function
from floatframe.exudyn._post_newton import data_parameter
from floatframe.exudyn._translate import is_unset, label, live_value, unsupported


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
    """The spring-damper with gear factors, regularized friction (frictionProportionalZone > 0), and with a data node
    (nodeNumber: a NodeGenericData of 3 values) sticking friction and limit stops, whose data the layer switches
    after each Newton solve (``_post_newton``)."""
    data = _data_parameter(item, number, mbs)
    limit_stops = (item.limitStopsUpper, item.limitStopsLower, item.limitStopsStiffness,
                   item.limitStopsDamping) if item.useLimitStops else None
    sticking = item.frictionProportionalZone == 0 and (item.dynamicFrictionForce != 0 or
                                                      item.staticFrictionOffsetForce != 0)
    if data is None and is_unset(item.springForceUserFunction) and (sticking or limit_stops):
        what = "useLimitStops = True" if limit_stops else "a friction force with frictionProportionalZone = 0"
        raise unsupported(item, number, "nodeNumber", f"must be a NodeGenericData with 3 data coordinates: {what} "
                          f"(sticking friction or limit stops) switches its data after each Newton solve")
    return CoordinateSpringDamperExt(
        item.markerNumbers, item.stiffness, item.damping, item.offset, item.velocityOffset, item.factor0,
        item.factor1, item.dynamicFrictionForce, item.staticFrictionOffsetForce, item.viscousFrictionFactor,
        item.exponentialDecayStatic, item.frictionProportionalZone, name=item.name,
        force_user_function=spring_user_function(item, number, mbs, "springForceUserFunction", (
            "stiffness", "damping", "offset", "velocityOffset", "dynamicFrictionForce", "staticFrictionOffsetForce",
            "exponentialDecayStatic", "viscousFrictionFactor", "frictionProportionalZone")),
        active=live_value(item, number, "activeConnector"), sticking_stiffness=item.stickingStiffness,
        sticking_damping=item.stickingDamping, limit_stops=limit_stops, data=data)


def _data_parameter(item, number, mbs):
    """The Parameter of the object's data node (None without one): checked to be a NodeGenericData of 3 values
    that no other object reads."""
    node = item.nodeNumber
    if node is None or int(node) == -1:
        return None
    node_item = mbs.item("node", node, label(item, number), "nodeNumber")
    if node_item.type_string != "GenericData" or int(node_item.numberOfDataCoordinates) != DATA_SIZE:
        raise unsupported(item, number, "nodeNumber", f"must be a NodeGenericData with numberOfDataCoordinates = "
                          f"{DATA_SIZE} (friction state, sticking position, limit-stop state)")
    readers = [other for other in mbs.items("object") if other.type_string == item.type_string
               and other.nodeNumber is not None and int(other.nodeNumber) == int(node)]
    if len(readers) != 1:
        raise unsupported(item, number, "nodeNumber", f"is the data node of {len(readers)} "
                          f"CoordinateSpringDamperExt objects; each needs a data node of its own")
    return data_parameter(mbs, int(node))


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
