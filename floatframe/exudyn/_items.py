"""Exudyn item classes (ObjectFFRF, NodePoint, ...): validated parameter records, nothing more.

Each item knows its family (node, object, marker, load, sensor), Exudyn's type string (the value
of ``objectType``/``nodeType``/... in an item dict), its parameters with default values, and the
deprecated names Exudyn still accepts. ``dict(item)`` gives the Exudyn-style item dict; visualization
entries are kept with the prefix ``V`` (e.g. ``VtriangleMesh``) for export only.
"""
from __future__ import annotations

import copy

from floatframe.exudyn._names import ExudynLayerError, unknown

TYPE_KEYS = {"node": "nodeType", "object": "objectType", "marker": "markerType", "load": "loadType",
             "sensor": "sensorType"}


class VisualizationItem:
    """Visualization parameters of an item: any keyword is accepted and kept (nothing is rendered)."""

    def __init__(self, **parameters):
        self.__dict__.update(parameters)

    def __iter__(self):
        return iter(self.__dict__.items())

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items())})"


class Item:
    """Base of the item classes; subclasses set the class attributes below."""

    family = ""
    type_string = ""
    parameters: dict = {}      # name -> default value
    deprecated: dict = {}      # deprecated name -> current name
    ignored: tuple = ()        # accepted, computed by floatframe (e.g. ObjectFFRF's temporary matrices)

    def __init__(self, *arguments, **keywords):
        names = ["name", *self.parameters]
        if len(arguments) > len(names):
            raise ExudynLayerError(f"{type(self).__name__}: takes at most {len(names)} positional arguments, "
                                   f"got {len(arguments)}")
        for name, value in zip(names, arguments):
            if name in keywords:
                raise ExudynLayerError(f"{type(self).__name__}: parameter '{name}' given twice")
            keywords[name] = value
        self.name = keywords.pop("name", "")
        visualization = keywords.pop("visualization", None)
        self.visualization = dict(visualization) if visualization is not None else {}
        values = {name: copy.deepcopy(default) for name, default in self.parameters.items()}
        for key, value in keywords.items():
            if key in self.parameters or key in self.ignored:
                values[key] = value
            elif key in self.deprecated:
                values[self.deprecated[key]] = value
            elif key.startswith("V") and len(key) > 1:
                self.visualization[key[1:]] = value
            else:
                raise unknown("parameter", key, [*self.parameters, *self.deprecated, "name", "visualization"],
                              type(self).__name__)
        self.values = values

    def __getattr__(self, name):
        values = self.__dict__.get("values")
        if values is not None and name in values:
            return values[name]
        raise AttributeError(f"{type(self).__name__} has no parameter '{name}'")

    def __setattr__(self, name, value):
        if name in ("name", "visualization", "values"):
            object.__setattr__(self, name, value)
        elif name in self.parameters or name in self.ignored:
            self.values[name] = value
        elif name in self.deprecated:
            self.values[self.deprecated[name]] = value
        else:
            raise unknown("parameter", name, self.parameters, type(self).__name__)

    def __iter__(self):
        yield TYPE_KEYS[self.family], self.type_string
        yield "name", self.name
        yield from self.values.items()
        for key, value in self.visualization.items():
            yield "V" + key, value

    def __repr__(self):
        return f"{type(self).__name__}({dict(self)!r})"


def _item(class_name: str, family: str, type_string: str, parameters: dict, deprecated=None, ignored=(),
          doc: str = "") -> type:
    return type(class_name, (Item,), dict(family=family, type_string=type_string, parameters=parameters,
                                          deprecated=deprecated or {}, ignored=tuple(ignored),
                                          __doc__=doc or f"Exudyn item {class_name}."))


ZERO3 = [0.0, 0.0, 0.0]
SENSOR = dict(writeToFile=True, fileName="", outputVariableType=0, storeInternal=False)

NodePoint = _item("NodePoint", "node", "Point", dict(
    referenceCoordinates=ZERO3, initialCoordinates=ZERO3, initialVelocities=ZERO3))
NodePointGround = _item("NodePointGround", "node", "PointGround", dict(referenceCoordinates=ZERO3))
NodeRigidBodyEP = _item("NodeRigidBodyEP", "node", "RigidBodyEP", dict(
    referenceCoordinates=[0.0] * 7, initialCoordinates=[0.0] * 7, initialVelocities=[0.0] * 7,
    addConstraintEquation=True))

ObjectGround = _item("ObjectGround", "object", "Ground", dict(
    referencePosition=None, referenceRotation=None, referenceHT=None))
ObjectRigidBody = _item("ObjectRigidBody", "object", "RigidBody", dict(
    mass=0.0, inertia=[0.0] * 6, centerOfMass=ZERO3, nodeNumber=-1),
    deprecated=dict(physicsMass="mass", physicsInertia="inertia", physicsCenterOfMass="centerOfMass"))
ObjectFFRF = _item("ObjectFFRF", "object", "FFRF", dict(
    nodeNumbers=[], massMatrixFF=None, stiffnessMatrixFF=None, dampingMatrixFF=None, forceVector=[],
    forceUserFunction=0, massMatrixUserFunction=0, computeFFRFterms=True, objectIsInitialized=False),
    ignored=("physicsMass", "physicsInertia", "physicsCenterOfMass", "mass", "inertia", "centerOfMass",
             "coordinateIndexPerNode", "PHItTM", "referencePositions", "tempVector", "tempCoordinates",
             "tempCoordinates_t", "tempRefPosSkew", "tempVelSkew"))
ObjectConnectorCoordinate = _item("ObjectConnectorCoordinate", "object", "ConnectorCoordinate", dict(
    markerNumbers=[-1, -1], offset=0.0, factor1=1.0, velocityLevel=False, offsetUserFunction=0,
    offsetUserFunction_t=0, activeConnector=True), deprecated=dict(factorValue1="factor1"))
ObjectConnectorCoordinateVector = _item("ObjectConnectorCoordinateVector", "object", "ConnectorCoordinateVector",
                                        dict(markerNumbers=[-1, -1], scalingMarker0=[], scalingMarker1=[],
                                             quadraticTermMarker0=[], quadraticTermMarker1=[], offset=[],
                                             velocityLevel=False, constraintUserFunction=0, jacobianUserFunction=0,
                                             activeConnector=True))
ObjectConnectorCartesianSpringDamper = _item(
    "ObjectConnectorCartesianSpringDamper", "object", "ConnectorCartesianSpringDamper", dict(
        markerNumbers=[-1, -1], stiffness=ZERO3, damping=ZERO3, offset=ZERO3, springForceUserFunction=0,
        activeConnector=True))
ObjectJointSpherical = _item("ObjectJointSpherical", "object", "JointSpherical", dict(
    markerNumbers=[-1, -1], constrainedAxes=[1, 1, 1], activeConnector=True))

MarkerNodeRigid = _item("MarkerNodeRigid", "marker", "NodeRigid", dict(nodeNumber=-1, localHT=None))
MarkerNodePosition = _item("MarkerNodePosition", "marker", "NodePosition", dict(nodeNumber=-1))
MarkerNodeCoordinate = _item("MarkerNodeCoordinate", "marker", "NodeCoordinate", dict(nodeNumber=-1, coordinate=-1))
MarkerNodeCoordinates = _item("MarkerNodeCoordinates", "marker", "NodeCoordinates", dict(nodeNumber=-1))
MarkerBodyRigid = _item("MarkerBodyRigid", "marker", "BodyRigid", dict(bodyNumber=-1, localPosition=None,
                                                                        localHT=None))
MarkerBodyPosition = _item("MarkerBodyPosition", "marker", "BodyPosition", dict(bodyNumber=-1, localPosition=ZERO3))
MarkerSuperElementPosition = _item("MarkerSuperElementPosition", "marker", "SuperElementPosition", dict(
    bodyNumber=-1, meshNodeNumbers=[], weightingFactors=[]))
MarkerObjectODE2Coordinates = _item("MarkerObjectODE2Coordinates", "marker", "ObjectODE2Coordinates",
                                    dict(objectNumber=-1))

LoadForceVector = _item("LoadForceVector", "load", "ForceVector", dict(
    markerNumber=-1, loadVector=ZERO3, bodyFixed=False, loadVectorUserFunction=0))
LoadTorqueVector = _item("LoadTorqueVector", "load", "TorqueVector", dict(
    markerNumber=-1, loadVector=ZERO3, bodyFixed=False, loadVectorUserFunction=0))
LoadCoordinate = _item("LoadCoordinate", "load", "Coordinate", dict(markerNumber=-1, load=0.0, loadUserFunction=0))

SensorNode = _item("SensorNode", "sensor", "Node", dict(nodeNumber=-1, **SENSOR))
SensorBody = _item("SensorBody", "sensor", "Body", dict(bodyNumber=-1, localPosition=ZERO3, **SENSOR))
SensorObject = _item("SensorObject", "sensor", "Object", dict(objectNumber=-1, **SENSOR))
SensorSuperElement = _item("SensorSuperElement", "sensor", "SuperElement", dict(
    bodyNumber=-1, meshNodeNumber=-1, **SENSOR))

ITEM_CLASSES = [NodePoint, NodePointGround, NodeRigidBodyEP, ObjectGround, ObjectRigidBody, ObjectFFRF,
                ObjectConnectorCoordinate, ObjectConnectorCoordinateVector, ObjectConnectorCartesianSpringDamper,
                ObjectJointSpherical, MarkerNodeRigid, MarkerNodePosition, MarkerNodeCoordinate,
                MarkerNodeCoordinates, MarkerBodyRigid, MarkerBodyPosition, MarkerSuperElementPosition,
                MarkerObjectODE2Coordinates, LoadForceVector, LoadTorqueVector, LoadCoordinate, SensorNode,
                SensorBody, SensorObject, SensorSuperElement]

SHORT_NAMES = {
    "Point": NodePoint, "PointGround": NodePointGround, "RigidEP": NodeRigidBodyEP, "RigidBody": ObjectRigidBody,
    "CoordinateConstraint": ObjectConnectorCoordinate, "CoordinateVectorConstraint": ObjectConnectorCoordinateVector,
    "CartesianSpringDamper": ObjectConnectorCartesianSpringDamper, "SphericalJoint": ObjectJointSpherical,
    "Force": LoadForceVector, "Torque": LoadTorqueVector,
}

BY_TYPE = {(cls.family, cls.type_string): cls for cls in ITEM_CLASSES}

VISUALIZATION_CLASSES = {
    "V" + cls.__name__: type("V" + cls.__name__, (VisualizationItem,), {"__doc__": f"Visualization of {cls.__name__}."})
    for cls in ITEM_CLASSES}
VISUALIZATION_CLASSES.update({"V" + short: VISUALIZATION_CLASSES["V" + cls.__name__]
                              for short, cls in SHORT_NAMES.items()})
for _extra in ("VObjectMassPoint", "VObjectGenericODE2", "VObjectJointGeneric", "VObjectJointRevoluteZ",
               "VObjectConnectorSpringDamper", "VObjectConnectorCoordinateSpringDamper"):
    VISUALIZATION_CLASSES[_extra] = type(_extra, (VisualizationItem,), {"__doc__": "Visualization (kept only)."})


def item_from_dict(family: str, data: dict) -> Item:
    """The item class instance for an Exudyn-style dict such as ``{'objectType': 'FFRF', ...}``."""
    key = TYPE_KEYS[family]
    data = dict(data)
    if key not in data:
        raise ExudynLayerError(f"{family} dict needs the key '{key}', got keys {sorted(data)}")
    type_string = data.pop(key)
    cls = BY_TYPE.get((family, type_string))
    if cls is None:
        supported = [t for f, t in BY_TYPE if f == family]
        raise unknown(f"{family} type", type_string, supported, "floatframe.exudyn")
    return cls(**data)


def as_item(family: str, item) -> Item:
    """Accept an item instance, an Exudyn item (anything iterable into a dict) or a dict."""
    if isinstance(item, Item):
        if item.family != family:
            raise ExudynLayerError(f"Add{family.capitalize()}: got {type(item).__name__}, which is a {item.family}")
        duplicate = copy.copy(item)
        object.__setattr__(duplicate, "values", dict(item.values))
        return duplicate
    if not isinstance(item, dict):
        try:
            item = dict(item)
        except (TypeError, ValueError):
            raise ExudynLayerError(f"Add{family.capitalize()}: expected an item or a dict, got {item!r}") from None
    return item_from_dict(family, item)
