"""Exudyn's MainSystem extensions (``mbs.CreateRigidBody``, ``mbs.CreateGround``, ``mbs.PlotSensor``).

Exudyn (>= 1.8) adds these Python functions to its C++ MainSystem; this module does the same for the
layer's :class:`MainSystem` when ``floatframe.exudyn`` is imported. The functions only add the layer's
items, so the model is what the same items added by hand give. The extensions of Exudyn 1.13.6 that
the layer lacks are attached as methods that raise an :class:`ExudynLayerError` naming them.
"""
from __future__ import annotations

import warnings

import numpy as np

from floatframe.exudyn import plot
from floatframe.exudyn._items import (LoadMassProportional, MarkerBodyMass, NodePoint, NodeRigidBodyEP, ObjectGround,
                                      ObjectMassPoint, ObjectRigidBody)
from floatframe.exudyn._items import (LoadForceVector, LoadTorqueVector, MarkerNodeCoordinate, NodePointGround,
                                      ObjectConnectorCoordinate)
from floatframe.exudyn._items import (MarkerBodyPosition, MarkerBodyRigid, ObjectConnectorCartesianSpringDamper,
                                      ObjectConnectorDistance, ObjectConnectorRigidBodySpringDamper,
                                      ObjectConnectorSpringDamper, ObjectConnectorTorsionalSpringDamper,
                                      ObjectJointGeneric, ObjectJointPrismaticX, ObjectJointRevoluteZ,
                                      ObjectJointSpherical, NodeGenericData, NodeRigidBodyRxyz)
from floatframe.exudyn._items import MarkerSuperElementRigid, NodePoint2D, ObjectMassPoint2D
from floatframe.exudyn._names import (ConfigurationType, ExudynLayerError, OutputVariableType, closest, enumeration,
                                     member_name, out_of_scope)
from floatframe.exudyn._items_lie_group import NodeRigidBodyRotVecLG
from floatframe.exudyn._system import MainSystem
from floatframe.exudyn.rigidBodyUtilities import (AngularVelocity2EulerParameters_t, AngularVelocity2RotXYZ_t,
                                                  RigidBodyInertia, RotationMatrix2EulerParameters,
                                                  RotationMatrix2RotXYZ)
from floatframe.exudyn.rigidBodyUtilities import (RotationMatrix2RotationVector, RotationVector2RotationMatrix,
                                                  RotationMatrixZ, RotXYZ2RotationMatrix)
from floatframe.exudyn.rigidBodyUtilities import (ComputeOrthonormalBasis, EulerParameters2RotationMatrix,
                                                  HomogeneousTransformation)

NodeType = enumeration("NodeType", [
    "_None", "Ground", "Position2D", "Orientation2D", "Point2DSlope1", "Position", "Orientation", "RigidBody",
    "RotationEulerParameters", "RotationRxyz", "RotationRotationVector", "LieGroupWithDirectUpdate", "GenericODE2",
    "GenericODE1", "GenericAE", "GenericData", "PointSlope1", "PointSlope12", "PointSlope23"])

# MainSystem extensions of Exudyn 1.13.6 (its extension registry) that floatframe.exudyn does not have.
UNSUPPORTED_EXTENSIONS = [
    "CreateDistanceSensor", "CreateDistanceSensorGeometry",
    "CreateKinematicTree", "CreateLinearSpringDamper", "CreateRollingDisc",
    "CreateRollingDiscPenalty", "CreateSphereQuadContact", "CreateSphereSphereContact",
    "CreateSphereTriangleContact"]

ZERO3 = (0.0, 0.0, 0.0)
DEFAULT_COLOR = (-1.0, -1.0, -1.0, -1.0)


def _vector(value, owner, what, size=3) -> np.ndarray:
    array = np.asarray(value, dtype=float)
    if array.shape != (size,):
        raise ExudynLayerError(f"{owner}: {what} must be a vector of {size} numbers, got {value!r}")
    return array


def _matrix(value, owner, what) -> np.ndarray:
    array = np.asarray(value, dtype=float)
    if array.shape != (3, 3):
        raise ExudynLayerError(f"{owner}: {what} must be a 3 x 3 matrix, got shape {array.shape}")
    return array


def _frame(owner, ht_name, ht, position_name, position, rotation_name, rotation):
    """(position, rotation matrix) from a homogeneous transformation or from its two parts (None: not given)."""
    if ht is None:
        return position, rotation
    if position is not None or rotation is not None:
        raise ExudynLayerError(f"{owner}: give either {ht_name} or {position_name}/{rotation_name}, not both")
    array = np.asarray(ht, dtype=float)
    if array.shape not in ((4, 4), (16,)):
        raise ExudynLayerError(f"{owner}: {ht_name} must be a 4 x 4 matrix or its 16 values, got shape {array.shape}")
    array = array.reshape(4, 4)
    return array[:3, 3], array[:3, :3]


def _graphics_list(value, owner) -> list:
    if not isinstance(value, list):
        raise ExudynLayerError(f"{owner}: graphicsDataList must be a (possibly empty) list, got {type(value).__name__}")
    return value


def _check_inertia(inertia, owner):
    """A RigidBodyInertia (its centre of mass may be away from the reference point, the node)."""
    if not isinstance(inertia, RigidBodyInertia):
        raise ExudynLayerError(f"{owner}: inertia must be a RigidBodyInertia (InertiaCuboid, InertiaCylinder, ...), "
                               f"got {inertia!r}")


def _add_rigid_body(mbs, name, position, theta, theta_initial, displacement, velocity, theta_t, inertia, gravity,
                    node_visualization, body_visualization, node_class=None) -> dict:
    """Node (NodeRigidBodyEP, or ``node_class``), body (ObjectRigidBody) and, for gravity != 0, a MarkerBodyMass
    with a LoadMassProportional: the items Exudyn adds."""
    node = mbs.AddNode((node_class or NodeRigidBodyEP)(name=f"Node:{name}" if name else "",
                                       referenceCoordinates=[*position, *theta],
                                       initialCoordinates=[*displacement, *theta_initial],
                                       initialVelocities=[*velocity, *theta_t], visualization=node_visualization))
    body = mbs.AddObject(ObjectRigidBody(name=name, mass=inertia.mass, inertia=inertia.GetInertia6D(),
                                         centerOfMass=list(np.asarray(inertia.com, dtype=float)), nodeNumber=node,
                                         visualization=body_visualization))
    numbers = {"nodeNumber": node, "bodyNumber": body}
    if np.linalg.norm(gravity) != 0:
        numbers["markerBodyMass"] = mbs.AddMarker(MarkerBodyMass(bodyNumber=body))
        numbers["loadNumber"] = mbs.AddLoad(LoadMassProportional(markerNumber=numbers["markerBodyMass"],
                                                                 loadVector=list(gravity)))
    return numbers


def MainSystemCreateRigidBody(mbs, name="", referencePosition=None, referenceRotationMatrix=None,
                              initialVelocity=ZERO3, initialAngularVelocity=ZERO3, initialDisplacement=None,
                              initialRotationMatrix=None, inertia=None, gravity=ZERO3,
                              nodeType=NodeType.RotationEulerParameters, graphicsDataList=(),
                              graphicsDataUserFunction=0, drawSize=-1, color=(-1.0, -1.0, -1.0, -1.0), show=True, create2D=False, returnDict=False,
                              referenceHT=None, initialHT=None):
    """``mbs.CreateRigidBody(...)``: a rigid body with an Euler-parameter node, as in Exudyn 1.13.6.

    Positions [m], velocities [m/s] and angular velocities [rad/s] are global; ``inertia`` is a
    :class:`RigidBodyInertia` (``InertiaCuboid``, ...) about the node, its ``com`` the body's centerOfMass.
    ``initialDisplacement`` and ``initialRotationMatrix`` (or ``initialHT``) are added to the reference. The
    Euler-parameter rates are those of ``initialAngularVelocity`` at the reference rotation, as Exudyn
    computes them. For gravity != 0 a MarkerBodyMass and a LoadMassProportional ``gravity`` are added, as in
    Exudyn.

    Returns the body number, or with ``returnDict=True`` a dict with 'nodeNumber', 'bodyNumber' and, for
    gravity, 'markerBodyMass' and 'loadNumber'.

    Raises ExudynLayerError for what floatframe's rigid body cannot represent: ``nodeType`` other than
    RotationEulerParameters, ``create2D=True``.
    """
    owner = "MainSystem.CreateRigidBody"
    node_type = member_name(nodeType, NodeType, owner, "nodeType")
    if node_type not in ("RotationEulerParameters", "RotationRxyz", "RotationRotationVector"):
        raise ExudynLayerError(f"{owner}: nodeType {node_type} is not supported: floatframe's rigid-body nodes are "
                               f"NodeRigidBodyEP, NodeRigidBodyRxyz and NodeRigidBodyRotVecLG (nodeType "
                               f"RotationEulerParameters, RotationRxyz or RotationRotationVector)")
    tait_bryan = node_type == "RotationRxyz"
    to_parameters = RotationMatrix2RotXYZ if tait_bryan else RotationMatrix2EulerParameters
    to_rates = AngularVelocity2RotXYZ_t if tait_bryan else AngularVelocity2EulerParameters_t
    if node_type == "RotationRotationVector":   # Exudyn: the body-fixed angular velocity at the reference rotation
        to_parameters = RotationMatrix2RotationVector
        to_rates = lambda omega, vector: RotationVector2RotationMatrix(vector).T @ omega   # noqa: E731
    if create2D:
        raise ExudynLayerError(f"{owner}: create2D=True is not supported: floatframe has no planar rigid body "
                               f"(NodeRigidBody2D, ObjectRigidBody2D)")
    _check_inertia(inertia, owner)
    position, rotation = _frame(owner, "referenceHT", referenceHT, "referencePosition", referencePosition,
                                "referenceRotationMatrix", referenceRotationMatrix)
    displacement, initial_rotation = _frame(owner, "initialHT", initialHT, "initialDisplacement", initialDisplacement,
                                            "initialRotationMatrix", initialRotationMatrix)
    position = _vector(ZERO3 if position is None else position, owner, "referencePosition")
    rotation = _matrix(np.eye(3) if rotation is None else rotation, owner, "referenceRotationMatrix")
    velocity = _vector(initialVelocity, owner, "initialVelocity")
    angular_velocity = _vector(initialAngularVelocity, owner, "initialAngularVelocity")
    gravity = _vector(gravity, owner, "gravity")
    _vector(color, owner, "color", 4)
    graphics_list = _graphics_list(list(graphicsDataList) if isinstance(graphicsDataList, tuple) else graphicsDataList,
                                   owner)
    theta = to_parameters(rotation)
    theta_t = to_rates(angular_velocity, theta)
    theta_initial = np.zeros(len(theta))
    if displacement is not None or initial_rotation is not None:
        initial_rotation = np.eye(3) if initial_rotation is None else _matrix(initial_rotation, owner,
                                                                              "initialRotationMatrix")
        theta_initial = to_parameters(rotation @ initial_rotation) - theta  # relative to reference
    displacement = _vector(ZERO3 if displacement is None else displacement, owner, "initialDisplacement")
    if not graphics_list:
        shape = inertia.GetGraphics(list(color))
        graphics_list = [] if shape is None else [shape]
    node_visualization = dict(show=show, drawSize=0 if graphics_list else drawSize, color=list(color))
    body_visualization = dict(show=show, graphicsDataUserFunction=graphicsDataUserFunction, graphicsData=graphics_list)
    numbers = _add_rigid_body(mbs, name, position, theta, theta_initial, displacement, velocity, theta_t, inertia,
                              gravity, node_visualization, body_visualization,
                              node_class={"RotationRxyz": NodeRigidBodyRxyz,
                                          "RotationRotationVector": NodeRigidBodyRotVecLG}.get(node_type))
    return numbers if returnDict else numbers["bodyNumber"]


def MainSystemCreateGround(mbs, name="", referencePosition=None, referenceRotationMatrix=None, graphicsDataList=(),
                           graphicsDataUserFunction=0, show=True, referenceHT=None):
    """``mbs.CreateGround(...)``: an ObjectGround at referencePosition [m], its axes turned by
    referenceRotationMatrix (or both as referenceHT); returns its object number."""
    owner = "MainSystem.CreateGround"
    position, rotation = _frame(owner, "referenceHT", referenceHT, "referencePosition", referencePosition,
                                "referenceRotationMatrix", referenceRotationMatrix)
    position = _vector(ZERO3 if position is None else position, owner, "referencePosition")
    rotation = _matrix(np.eye(3) if rotation is None else rotation, owner, "referenceRotationMatrix")
    graphics_list = list(graphicsDataList) if isinstance(graphicsDataList, tuple) else graphicsDataList
    visualization = dict(show=show, graphicsDataUserFunction=graphicsDataUserFunction,
                         graphicsData=_graphics_list(graphics_list, owner))
    return mbs.AddObject(ObjectGround(name=name, referencePosition=list(position), referenceRotation=rotation,
                                      visualization=visualization))


def AddRigidBody(mainSys, inertia, nodeType=NodeType.RotationEulerParameters, position=ZERO3, velocity=ZERO3,
                 rotationMatrix=(), rotationParameters=(), angularVelocity=ZERO3, gravity=ZERO3, graphicsDataList=()):
    """Exudyn's deprecated ``AddRigidBody`` (use ``mbs.CreateRigidBody``); returns [nodeNumber, bodyNumber].

    ``rotationParameters`` are Euler parameters (scalar first); give either them or ``rotationMatrix``.
    """
    warnings.warn("AddRigidBody is deprecated in Exudyn since 1.11.0; use mbs.CreateRigidBody", DeprecationWarning,
                  stacklevel=2)
    owner = "AddRigidBody"
    node_type = member_name(nodeType, NodeType, owner, "nodeType") if not isinstance(nodeType, str) \
        else nodeType.replace("NodeType.", "")
    if node_type != "RotationEulerParameters":
        raise ExudynLayerError(f"{owner}: nodeType {node_type} is not supported: floatframe's rigid-body node is "
                               f"NodeRigidBodyEP")
    _check_inertia(inertia, owner)
    if len(rotationMatrix) and len(rotationParameters):
        raise ExudynLayerError(f"{owner}: give either rotationMatrix or rotationParameters, not both")
    if len(rotationParameters):
        theta = _vector(rotationParameters, owner, "rotationParameters (Euler parameters, scalar first)", 4)
    else:
        theta = RotationMatrix2EulerParameters(_matrix(rotationMatrix if len(rotationMatrix) else np.eye(3), owner,
                                                       "rotationMatrix"))
    theta_t = AngularVelocity2EulerParameters_t(_vector(angularVelocity, owner, "angularVelocity"), theta)
    visualization = dict(graphicsData=_graphics_list(list(graphicsDataList), owner))
    numbers = _add_rigid_body(mainSys, "", _vector(position, owner, "position"), theta, np.zeros(4), ZERO3,
                              _vector(velocity, owner, "velocity"), theta_t, inertia,
                              _vector(gravity, owner, "gravity"), {}, visualization)
    return [numbers["nodeNumber"], numbers["bodyNumber"]]


def MainSystemCreateMassPoint(mbs, name="", referencePosition=ZERO3, initialDisplacement=ZERO3, initialVelocity=ZERO3,
                              mass=0, gravity=ZERO3, graphicsDataList=(), drawSize=-1, color=(-1.0, -1.0, -1.0, -1.0),
                              show=True, create2D=False, returnDict=False, physicsMass=None):
    """``mbs.CreateMassPoint(...)``: a NodePoint and an ObjectMassPoint ``mass`` [kg], as in Exudyn 1.13.6.

    Positions [m] and velocities [m/s] are global; for gravity != 0 a MarkerBodyMass and a
    LoadMassProportional ``gravity`` [m/s^2] are added. ``physicsMass`` is the deprecated name of ``mass``.
    Returns the body number, or with ``returnDict=True`` a dict with 'nodeNumber', 'bodyNumber' and, for
    gravity, 'markerBodyMass' and 'loadNumber'. ``create2D=True`` makes a planar NodePoint2D and MassPoint2D, of the
    x and y components of the position, displacement and velocity, as Exudyn does.
    """
    owner = "MainSystem.CreateMassPoint"
    if physicsMass is not None:
        warnings.warn(f"{owner}: physicsMass is a deprecated Exudyn name; use mass", DeprecationWarning, stacklevel=2)
        mass = physicsMass
    if not isinstance(name, str):
        raise ExudynLayerError(f"{owner}: name must be a string, got {name!r}")
    position = _vector(referencePosition, owner, "referencePosition")
    displacement = _vector(initialDisplacement, owner, "initialDisplacement")
    velocity = _vector(initialVelocity, owner, "initialVelocity")
    gravity = _vector(gravity, owner, "gravity")
    _vector(color, owner, "color", 4)
    graphics_list = _graphics_list(list(graphicsDataList) if isinstance(graphicsDataList, tuple) else graphicsDataList,
                                   owner)
    node_class, body_class, size = (NodePoint2D, ObjectMassPoint2D, 2) if create2D else (NodePoint, ObjectMassPoint, 3)
    node = mbs.AddNode(node_class(name=f"Node:{name}" if name else "", referenceCoordinates=list(position[:size]),
                                  initialCoordinates=list(displacement[:size]), initialVelocities=list(velocity[:size]),
                                  visualization=dict(show=show, drawSize=0 if graphics_list else drawSize,
                                                     color=list(color))))
    body = mbs.AddObject(body_class(name=name, mass=mass, nodeNumber=node,
                                    visualization=dict(show=bool(graphics_list), graphicsData=graphics_list)))
    numbers = {"nodeNumber": node, "bodyNumber": body}
    if np.any(gravity != 0):
        numbers["markerBodyMass"] = mbs.AddMarker(MarkerBodyMass(bodyNumber=body))
        numbers["loadNumber"] = mbs.AddLoad(LoadMassProportional(markerNumber=numbers["markerBodyMass"],
                                                                 loadVector=list(gravity)))
    return numbers if returnDict else body


# --- loads and coordinate constraints: CreateForce, CreateTorque, CreateCoordinateConstraint ---------------------
def _body_number(owner, itemNumber, bodyNumber, what="itemNumber"):
    """The body of CreateForce/CreateTorque (``bodyNumber`` is Exudyn's deprecated name of itemNumber)."""
    if bodyNumber is not None:
        if itemNumber is not None:
            raise ExudynLayerError(f"{owner}: bodyNumber and itemNumber are given; use itemNumber only")
        warnings.warn(f"{owner}: bodyNumber is a deprecated Exudyn name; use itemNumber", DeprecationWarning,
                      stacklevel=3)
        itemNumber = bodyNumber
    if isinstance(itemNumber, bool) or not isinstance(itemNumber, (int, np.integer)):
        raise ExudynLayerError(f"{owner}: {what} must be a body number (ObjectIndex), got {itemNumber!r}; "
                               f"floatframe.exudyn applies loads to bodies (nodes and markers are not accepted here)")
    return int(itemNumber)


def _create_load(mbs, owner, load_class, rigid, name, itemNumber, loadVector, localPosition, bodyFixed,
                 loadVectorUserFunction, bodyNumber):
    body = _body_number(owner, itemNumber, bodyNumber)
    position = _vector(localPosition, owner, "localPosition")
    _vector(loadVector, owner, "loadVector")
    marker_class = MarkerBodyRigid if rigid or bodyFixed else MarkerBodyPosition
    marker = mbs.AddMarker(marker_class(bodyNumber=body, localPosition=list(position)))
    return mbs.AddLoad(load_class(name=name, markerNumber=marker, loadVector=list(loadVector), bodyFixed=bool(bodyFixed),
                                  loadVectorUserFunction=loadVectorUserFunction))


def MainSystemCreateForce(mbs, name="", itemNumber=None, loadVector=ZERO3, localPosition=ZERO3, bodyFixed=False,
                          loadVectorUserFunction=0, show=True, bodyNumber=None):
    """``mbs.CreateForce(...)``: a LoadForceVector [N] at ``localPosition`` [m] of a body (global, or turning with
    the body with ``bodyFixed``), on a new marker. Returns the load number."""
    return _create_load(mbs, "MainSystem.CreateForce", LoadForceVector, False, name, itemNumber, loadVector,
                        localPosition, bodyFixed, loadVectorUserFunction, bodyNumber)


def MainSystemCreateTorque(mbs, name="", itemNumber=None, loadVector=ZERO3, localPosition=ZERO3, bodyFixed=False,
                           loadVectorUserFunction=0, show=True, bodyNumber=None):
    """``mbs.CreateTorque(...)``: a LoadTorqueVector [N m] on a body (global, or turning with the body with
    ``bodyFixed``), on a new rigid marker. Returns the load number."""
    return _create_load(mbs, "MainSystem.CreateTorque", LoadTorqueVector, True, name, itemNumber, loadVector,
                        localPosition, bodyFixed, loadVectorUserFunction, bodyNumber)


def _node_coordinate_count(node: dict) -> int:
    return 0 if node["nodeType"] == "PointGround" else len(node["referenceCoordinates"])


def MainSystemCreateCoordinateConstraint(mbs, name="", itemNumbers=[None, None], coordinates=[None, None], offset=0.0,
                                         factor1=1.0, velocityLevel=False, offsetUserFunction=0,
                                         offsetUserFunction_t=0, show=True, drawSize=-1.0, color=DEFAULT_COLOR,
                                         factorValue1=None, bodyNumbers=None, bodyOrNodeList=None):
    """``mbs.CreateCoordinateConstraint(...)``: factor1 q1 - q0 - offset = 0 between coordinate ``coordinates[i]``
    of body ``itemNumbers[i]`` (counted over the body's nodes in their order) or the ground (None or a ground
    object), through MarkerNodeCoordinates (a NodePointGround for the ground). Returns the object number."""
    owner = "MainSystem.CreateCoordinateConstraint"
    if factorValue1 is not None:
        warnings.warn(f"{owner}: factorValue1 is a deprecated Exudyn name; use factor1", DeprecationWarning,
                      stacklevel=2)
        factor1 = factorValue1
    if bodyOrNodeList is not None:
        raise ExudynLayerError(f"{owner}: the argument bodyOrNodeList is not accepted; use itemNumbers")
    if bodyNumbers is not None:
        warnings.warn(f"{owner}: bodyNumbers is a deprecated Exudyn name; use itemNumbers", DeprecationWarning,
                      stacklevel=2)
        itemNumbers = bodyNumbers
    if not isinstance(itemNumbers, (list, tuple)) or len(itemNumbers) != 2:
        raise ExudynLayerError(f"{owner}: itemNumbers must be a list of two items, got {itemNumbers!r}")
    if not isinstance(coordinates, (list, tuple)) or len(coordinates) != 2:
        raise ExudynLayerError(f"{owner}: coordinates must be a list of 2 coordinate indices, got {coordinates!r}")
    grounds = [item is None or mbs.GetObject(_body_number(owner, item, None, f"itemNumbers[{i}]"))["objectType"]
               == "Ground" for i, item in enumerate(itemNumbers)]
    if all(grounds):
        raise ExudynLayerError(f"{owner}: one of the two items must be a body, got {itemNumbers!r}")
    markers = []
    for i, (item, coordinate, ground) in enumerate(zip(itemNumbers, coordinates, grounds)):
        marker_name = f"Marker{i}:{name}" if name else ""
        if ground:
            node = mbs.AddNode(NodePointGround(referenceCoordinates=list(ZERO3)))
            markers.append(mbs.AddMarker(MarkerNodeCoordinate(name=marker_name, nodeNumber=node, coordinate=0)))
            continue
        if isinstance(coordinate, bool) or not isinstance(coordinate, (int, np.integer)) or coordinate < 0:
            raise ExudynLayerError(f"{owner}: coordinates[{i}] = {coordinate!r} is no valid coordinate index")
        data = mbs.GetObject(int(item))
        nodes = [data["nodeNumber"]] if "nodeNumber" in data else list(data.get("nodeNumbers", []))
        rest = int(coordinate)
        for node in nodes:
            count = _node_coordinate_count(mbs.GetNode(node))
            if rest < count:
                markers.append(mbs.AddMarker(MarkerNodeCoordinate(name=marker_name, nodeNumber=node, coordinate=rest)))
                break
            rest -= count
        else:
            raise ExudynLayerError(f"{owner}: itemNumbers[{i}] = {item}: the body has no coordinate {coordinate}")
    return mbs.AddObject(ObjectConnectorCoordinate(
        name=name, markerNumbers=markers, offset=offset, factor1=factor1, velocityLevel=velocityLevel,
        offsetUserFunction=offsetUserFunction, offsetUserFunction_t=offsetUserFunction_t,
        visualization=_visualization(owner, show, color, drawSize=drawSize)))


# --- springs: CreateSpringDamper, CreateCartesianSpringDamper, CreateRigidBodySpringDamper,
# CreateTorsionalSpringDamper, CreateDistanceConstraint (Exudyn 1.13.6's signatures) ---------------------------


class MarkerNumber(int):
    """A marker number as :func:`MainSystemCreateFFRFReducedOrderObject` returns it (Exudyn's MarkerIndex): a
    joint's Create function that takes markers in itemNumbers tells it from a body number by this type."""

    def __repr__(self):
        return f"MarkerNumber({int(self)})"


def _connected_bodies(owner, itemNumbers, bodyNumbers, bodyOrNodeList):
    """The two body numbers of a Create function (``bodyNumbers`` is Exudyn's deprecated name of itemNumbers);
    a :class:`MarkerNumber` stays one."""
    if bodyOrNodeList is not None:
        raise ExudynLayerError(f"{owner}: the argument bodyOrNodeList is not accepted; use itemNumbers")
    if bodyNumbers is not None:
        if not (isinstance(itemNumbers, list) and all(item is None for item in itemNumbers)):
            raise ExudynLayerError(f"{owner}: bodyNumbers and itemNumbers are given; use itemNumbers only")
        warnings.warn(f"{owner}: bodyNumbers is a deprecated Exudyn name; use itemNumbers", DeprecationWarning,
                      stacklevel=3)
        itemNumbers = bodyNumbers
    if not isinstance(itemNumbers, (list, tuple)) or len(itemNumbers) != 2:
        raise ExudynLayerError(f"{owner}: itemNumbers must be a list of two body numbers, got {itemNumbers!r}")
    for i, item in enumerate(itemNumbers):
        if isinstance(item, bool) or not isinstance(item, (int, np.integer)):
            raise ExudynLayerError(f"{owner}: itemNumbers[{i}] must be a body number (ObjectIndex), got {item!r}; "
                                   f"floatframe.exudyn connects bodies (nodes and markers are not accepted here)")
    return [item if isinstance(item, MarkerNumber) else int(item) for item in itemNumbers]


def _body_frame(mbs, owner, body, local_position):
    """(position, rotation matrix) of a body-fixed point in the reference configuration, from the items."""
    if isinstance(body, MarkerNumber):
        raise ExudynLayerError(f"{owner}: itemNumbers has the marker {int(body)}; floatframe.exudyn takes markers "
                               f"in place of bodies in CreateSphericalJoint only")
    data = mbs.GetObject(body)
    kind = data["objectType"]
    if kind == "Ground":
        position = np.zeros(3) if data["referencePosition"] is None else np.asarray(data["referencePosition"], float)
        rotation = data.get("referenceRotation")
        rotation = np.eye(3) if rotation is None else np.asarray(rotation, dtype=float)
    elif kind in ("RigidBody", "MassPoint"):
        reference = np.asarray(mbs.GetNode(data["nodeNumber"])["referenceCoordinates"], dtype=float)
        position = reference[:3]
        rotation = _node_rotation(mbs.GetNode(data["nodeNumber"])["nodeType"], reference) if kind == "RigidBody" \
            else np.eye(3)
    elif kind == "MassPoint2D":   # a planar point: its node's (x, y), z = 0
        reference = np.asarray(mbs.GetNode(data["nodeNumber"])["referenceCoordinates"], dtype=float)
        position, rotation = np.array([reference[0], reference[1], 0.0]), np.eye(3)
    elif kind in ("Mass1D", "RotationalMass1D"):   # Exudyn's body outputs at the node's reference coordinate c
        coordinate = float(np.asarray(mbs.GetNode(data["nodeNumber"])["referenceCoordinates"], dtype=float)[0])
        rotation = np.asarray(data["referenceRotation"], dtype=float)
        position = np.asarray(data["referencePosition"], dtype=float)
        if kind == "Mass1D":
            position = position + rotation @ np.array([coordinate, 0.0, 0.0])
        else:
            rotation = rotation @ RotationMatrixZ(coordinate)
    else:
        raise ExudynLayerError(f"{owner}: body {body} is an Object{kind}; floatframe.exudyn connects a ground, a "
                               f"rigid body, a mass point (3D or 2D), a Mass1D or a RotationalMass1D here (add markers and the "
                               f"connector by hand otherwise)")
    return position + rotation @ local_position, rotation


def _node_rotation(node_type: str, reference) -> np.ndarray:
    """The reference rotation matrix of a rigid-body node from its reference coordinates."""
    if node_type == "RigidBodyRxyz":
        return RotXYZ2RotationMatrix(reference[3:6])
    if node_type == "RigidBodyRotVecLG":
        return RotationVector2RotationMatrix(reference[3:6])
    return EulerParameters2RotationMatrix(reference[3:7])


def _position_markers(mbs, owner, name, bodies, local_positions, rotations=None):
    """A MarkerBodyPosition per body, named Marker<i>:name as Exudyn's; with ``rotations`` (body frame to joint
    frame, one per body) a MarkerBodyRigid that carries it in its localHT, as Exudyn's connectors with frames."""
    markers = []
    for i, (body, position) in enumerate(zip(bodies, local_positions)):
        marker_name = f"Marker{i}:{name}" if name else ""
        if rotations is None:
            marker = MarkerBodyPosition(name=marker_name, bodyNumber=body, localPosition=list(position))
        else:
            marker = MarkerBodyRigid(name=marker_name, bodyNumber=body,
                                     localHT=HomogeneousTransformation(rotations[i], position))
        markers.append(mbs.AddMarker(marker))
    return markers


def _joint_markers(mbs, owner, name, bodies, frames, point, joint=None):
    """Markers at the global ``point`` on the bodies whose reference frames are ``frames`` [(p, A)]: rigid ones
    carrying the global joint frame ``joint`` (in their localHT, as Exudyn's), or position markers for None."""
    local = [rotation.T @ (point - origin) for origin, rotation in frames]
    if joint is None:
        return _position_markers(mbs, owner, name, bodies, local)
    return _position_markers(mbs, owner, name, bodies, local, rotations=[rotation.T @ joint for _, rotation in frames])


def _axis_frame(owner, axis, along):
    """The joint frame Exudyn builds for an axis (global): ComputeOrthonormalBasis(axis), whose first column is
    the axis, for along='x'; for along='z' its columns turned so that the third is the axis."""
    if not np.linalg.norm(axis) > 0:
        raise ExudynLayerError(f"{owner}: axis must be a non-zero vector, got {np.asarray(axis).tolist()}")
    basis = ComputeOrthonormalBasis(axis)
    return basis if along == "x" else np.column_stack([-basis[:, 2], basis[:, 1], basis[:, 0]])


def _visualization(owner, show, color, **sizes):
    """The visualization dict of a connector: show, its sizes (drawSize, axisRadius, ...) and color."""
    _vector(color, owner, "color", 4)
    return dict(show=bool(show), **{name: float(value) for name, value in sizes.items()}, color=list(color))


def MainSystemCreateSpringDamper(mbs, name="", itemNumbers=[None, None], localPosition0=ZERO3,
                                 localPosition1=ZERO3, referenceLength=None, stiffness=0.0, damping=0.0, force=0.0,
                                 velocityOffset=0.0, springForceUserFunction=0, show=True, drawSize=-1,
                                 color=DEFAULT_COLOR, bodyNumbers=None, bodyOrNodeList=None):
    """``mbs.CreateSpringDamper(...)``: markers at localPosition0/1 [m] on the two bodies and an
    ObjectConnectorSpringDamper between them; referenceLength None: the reference distance of the points.
    Returns the object number."""
    owner = "MainSystem.CreateSpringDamper"
    bodies = _connected_bodies(owner, itemNumbers, bodyNumbers, bodyOrNodeList)
    local = [_vector(localPosition0, owner, "localPosition0"), _vector(localPosition1, owner, "localPosition1")]
    if referenceLength is None:
        points = [_body_frame(mbs, owner, body, position)[0] for body, position in zip(bodies, local)]
        referenceLength = float(np.linalg.norm(points[1] - points[0]))
    markers = _position_markers(mbs, owner, name, bodies, local)
    return mbs.AddObject(ObjectConnectorSpringDamper(
        name=name, markerNumbers=markers, referenceLength=referenceLength, stiffness=stiffness, damping=damping,
        force=force, velocityOffset=velocityOffset, springForceUserFunction=springForceUserFunction,
        visualization=_visualization(owner, show, color, drawSize=drawSize)))


def MainSystemCreateCartesianSpringDamper(mbs, name="", itemNumbers=[None, None], localPosition0=ZERO3,
                                          localPosition1=ZERO3, stiffness=ZERO3, damping=ZERO3, offset=ZERO3,
                                          springForceUserFunction=0, show=True, drawSize=-1, color=DEFAULT_COLOR,
                                          bodyNumbers=None, bodyOrNodeList=None):
    """``mbs.CreateCartesianSpringDamper(...)``: markers at localPosition0/1 [m] and an
    ObjectConnectorCartesianSpringDamper (stiffness, damping, offset per global axis). Returns the object number."""
    owner = "MainSystem.CreateCartesianSpringDamper"
    bodies = _connected_bodies(owner, itemNumbers, bodyNumbers, bodyOrNodeList)
    local = [_vector(localPosition0, owner, "localPosition0"), _vector(localPosition1, owner, "localPosition1")]
    markers = _position_markers(mbs, owner, name, bodies, local)
    return mbs.AddObject(ObjectConnectorCartesianSpringDamper(
        name=name, markerNumbers=markers, stiffness=list(_vector(stiffness, owner, "stiffness")),
        damping=list(_vector(damping, owner, "damping")), offset=list(_vector(offset, owner, "offset")),
        springForceUserFunction=springForceUserFunction,
        visualization=_visualization(owner, show, color, drawSize=drawSize)))


def MainSystemCreateRigidBodySpringDamper(mbs, name="", itemNumbers=[None, None], localPosition0=ZERO3,
                                          localPosition1=ZERO3, stiffness=np.zeros((6, 6)), damping=np.zeros((6, 6)),
                                          offset=(0.0,) * 6, rotationMatrixJoint=np.eye(3), useGlobalFrame=True,
                                          useIntrinsicFormulation=True, springForceTorqueUserFunction=0,
                                          postNewtonStepUserFunction=0, show=True, drawSize=-1, color=DEFAULT_COLOR,
                                          intrinsicFormulation=None, bodyNumbers=None, bodyOrNodeList=None):
    """``mbs.CreateRigidBodySpringDamper(...)``: rigid markers at localPosition0/1 [m] and an
    ObjectConnectorRigidBodySpringDamper whose joint frame is rotationMatrixJoint, global
    (useGlobalFrame=True) or in body 0's frame, in the reference configuration. Returns the object number.

    As Exudyn, the markers carry the joint frame in their localHT.
    """
    owner = "MainSystem.CreateRigidBodySpringDamper"
    if intrinsicFormulation is not None:
        warnings.warn(f"{owner}: intrinsicFormulation is a deprecated Exudyn name; use useIntrinsicFormulation",
                      DeprecationWarning, stacklevel=2)
        useIntrinsicFormulation = intrinsicFormulation
    bodies = _connected_bodies(owner, itemNumbers, bodyNumbers, bodyOrNodeList)
    local = [_vector(localPosition0, owner, "localPosition0"), _vector(localPosition1, owner, "localPosition1")]
    joint = _matrix(rotationMatrixJoint, owner, "rotationMatrixJoint")
    rotation0, rotation1 = (_body_frame(mbs, owner, body, position)[1] for body, position in zip(bodies, local))
    if useGlobalFrame:
        marker_rotations = (rotation0.T @ joint, rotation1.T @ joint)
    else:
        marker_rotations = (joint, rotation1.T @ rotation0 @ joint)
    markers = _position_markers(mbs, owner, name, bodies, local, rotations=marker_rotations)
    return mbs.AddObject(ObjectConnectorRigidBodySpringDamper(
        name=name, markerNumbers=markers, stiffness=np.asarray(stiffness, dtype=float),
        damping=np.asarray(damping, dtype=float), offset=list(_vector(offset, owner, "offset", 6)),
        useIntrinsicFormulation=bool(useIntrinsicFormulation),
        springForceTorqueUserFunction=springForceTorqueUserFunction,
        postNewtonStepUserFunction=postNewtonStepUserFunction,
        visualization=_visualization(owner, show, color, drawSize=drawSize)))


def MainSystemCreateTorsionalSpringDamper(mbs, name="", itemNumbers=[None, None], position=ZERO3, axis=ZERO3,
                                          stiffness=0.0, damping=0.0, offset=0.0, velocityOffset=0.0, torque=0.0,
                                          useGlobalFrame=True, springTorqueUserFunction=0, unlimitedRotations=True,
                                          show=True, drawSize=-1, color=DEFAULT_COLOR, bodyNumbers=None,
                                          bodyOrNodeList=None):
    """``mbs.CreateTorsionalSpringDamper(...)``: an ObjectConnectorTorsionalSpringDamper about ``axis`` through
    ``position`` (global in the reference configuration with useGlobalFrame=True, else in body 0's frame), its
    joint z axis along ``axis`` as Exudyn builds it, carried by the markers' localHT. Returns the object number.
    ``unlimitedRotations=True`` adds a NodeGenericData that counts the turns beyond +-pi, as Exudyn's.
    """
    owner = "MainSystem.CreateTorsionalSpringDamper"
    bodies = _connected_bodies(owner, itemNumbers, bodyNumbers, bodyOrNodeList)
    axis = _vector(axis, owner, "axis")
    frames = [_body_frame(mbs, owner, body, np.zeros(3)) for body in bodies]
    position = _vector(position, owner, "position")
    joint_position = position if useGlobalFrame else frames[0][1] @ position + frames[0][0]
    joint = _axis_frame(owner, axis if useGlobalFrame else frames[0][1] @ axis, "z")
    markers = _joint_markers(mbs, owner, name, bodies, frames, joint_position, joint)
    data_node = mbs.AddNode(NodeGenericData(initialCoordinates=[0.0], numberOfDataCoordinates=1)) \
        if unlimitedRotations else -1
    return mbs.AddObject(ObjectConnectorTorsionalSpringDamper(
        name=name, markerNumbers=markers, nodeNumber=data_node, stiffness=stiffness, damping=damping, offset=offset,
        velocityOffset=velocityOffset, torque=torque, springTorqueUserFunction=springTorqueUserFunction,
        visualization=_visualization(owner, show, color, drawSize=drawSize)))


def MainSystemCreateDistanceConstraint(mbs, name="", itemNumbers=[None, None], localPosition0=ZERO3,
                                       localPosition1=ZERO3, distance=None, show=True, drawSize=-1.0,
                                       color=DEFAULT_COLOR, bodyNumbers=None, bodyOrNodeList=None):
    """``mbs.CreateDistanceConstraint(...)``: markers at localPosition0/1 [m] and an ObjectConnectorDistance;
    distance None: the reference distance of the points; distance 0 gives an ObjectJointSpherical (as Exudyn,
    which prints a warning). Returns the object number."""
    owner = "MainSystem.CreateDistanceConstraint"
    bodies = _connected_bodies(owner, itemNumbers, bodyNumbers, bodyOrNodeList)
    local = [_vector(localPosition0, owner, "localPosition0"), _vector(localPosition1, owner, "localPosition1")]
    if distance is None:
        points = [_body_frame(mbs, owner, body, position)[0] for body, position in zip(bodies, local)]
        distance = float(np.linalg.norm(points[1] - points[0]))
    markers = _position_markers(mbs, owner, name, bodies, local)
    visualization = _visualization(owner, show, color, drawSize=drawSize)
    if distance == 0:
        warnings.warn(f"{owner}: distance = 0: an ObjectJointSpherical is created instead", UserWarning, stacklevel=2)
        return mbs.AddObject(ObjectJointSpherical(name=name, markerNumbers=markers, visualization=visualization))
    return mbs.AddObject(ObjectConnectorDistance(name=name, markerNumbers=markers, distance=distance,
                                                 visualization=visualization))


# --- joints: CreateRevoluteJoint, CreatePrismaticJoint, CreateSphericalJoint, CreateGenericJoint (Exudyn 1.13.6's
# signatures); the joint point and frame are given in the reference configuration -----------------------------------
def _joint_geometry(mbs, owner, itemNumbers, bodyNumbers, bodyOrNodeList, position, useGlobalFrame, rigid=True):
    """(bodies, their reference frames [(p, A)], the global joint point) of a Create function of a joint;
    ``position`` is global (useGlobalFrame) or in body 0's frame."""
    bodies = _connected_bodies(owner, itemNumbers, bodyNumbers, bodyOrNodeList)
    frames = [_body_frame(mbs, owner, body, np.zeros(3)) for body in bodies]
    for i, body in enumerate(bodies):
        if rigid and mbs.GetObject(body)["objectType"] in ("MassPoint", "MassPoint2D"):
            raise ExudynLayerError(f"{owner}: itemNumbers[{i}] = {body} is an Object"
                                   f"{mbs.GetObject(body)['objectType']}, which has no orientation; this joint "
                                   f"connects rigid bodies or a ground")
    position = _vector(position, owner, "position")
    point = position if useGlobalFrame else frames[0][1] @ position + frames[0][0]
    return bodies, frames, point


def _create_axis_joint(mbs, owner, item_class, along, name, itemNumbers, position, axis, useGlobalFrame, show,
                       axisRadius, axisLength, color, bodyNumbers, bodyOrNodeList):
    """A revolute (along='z') or prismatic (along='x') joint whose joint axis is ``axis``."""
    bodies, frames, point = _joint_geometry(mbs, owner, itemNumbers, bodyNumbers, bodyOrNodeList, position,
                                            useGlobalFrame)
    axis = _vector(axis, owner, "axis")
    joint = _axis_frame(owner, axis if useGlobalFrame else frames[0][1] @ axis, along)
    markers = _joint_markers(mbs, owner, name, bodies, frames, point, joint)
    return mbs.AddObject(item_class(name=name, markerNumbers=markers, visualization=_visualization(
        owner, show, color, axisRadius=axisRadius, axisLength=axisLength)))


def MainSystemCreateRevoluteJoint(mbs, name="", itemNumbers=[None, None], position=[], axis=[], useGlobalFrame=True,
                                  show=True, axisRadius=0.1, axisLength=0.4, color=DEFAULT_COLOR, bodyNumbers=None,
                                  bodyOrNodeList=None):
    """``mbs.CreateRevoluteJoint(...)``: an ObjectJointRevoluteZ between two bodies (rigid bodies or a ground) at
    ``position`` [m] turning about ``axis``, both global in the reference configuration (useGlobalFrame=True)
    or in body 0's frame; rigid markers carry the joint frame (its z axis along ``axis``) as Exudyn's.
    Returns the object number."""
    return _create_axis_joint(mbs, "MainSystem.CreateRevoluteJoint", ObjectJointRevoluteZ, "z", name, itemNumbers,
                              position, axis, useGlobalFrame, show, axisRadius, axisLength, color, bodyNumbers,
                              bodyOrNodeList)


def MainSystemCreatePrismaticJoint(mbs, name="", itemNumbers=[None, None], position=[], axis=[], useGlobalFrame=True,
                                   show=True, axisRadius=0.1, axisLength=0.4, color=DEFAULT_COLOR, bodyNumbers=None,
                                   bodyOrNodeList=None):
    """``mbs.CreatePrismaticJoint(...)``: an ObjectJointPrismaticX sliding along ``axis`` through ``position`` [m]
    (global, or in body 0's frame with useGlobalFrame=False); the joint x axis is along ``axis``.
    Returns the object number."""
    return _create_axis_joint(mbs, "MainSystem.CreatePrismaticJoint", ObjectJointPrismaticX, "x", name, itemNumbers,
                              position, axis, useGlobalFrame, show, axisRadius, axisLength, color, bodyNumbers,
                              bodyOrNodeList)


def MainSystemCreateSphericalJoint(mbs, name="", itemNumbers=[None, None], position=[], constrainedAxes=[1, 1, 1],
                                   useGlobalFrame=True, show=True, jointRadius=0.1, color=DEFAULT_COLOR,
                                   bodyNumbers=None, bodyOrNodeList=None):
    """``mbs.CreateSphericalJoint(...)``: position markers at ``position`` [m] (global, or in body 0's frame) on two
    bodies (mass points, rigid bodies or a ground) and an ObjectJointSpherical holding the constrainedAxes
    (global). Returns the object number."""
    owner = "MainSystem.CreateSphericalJoint"
    items = _connected_bodies(owner, itemNumbers, bodyNumbers, bodyOrNodeList)
    given = [item for item in items if isinstance(item, MarkerNumber)]
    if not given:
        bodies, frames, point = _joint_geometry(mbs, owner, items, None, None, position, useGlobalFrame, rigid=False)
        markers = _joint_markers(mbs, owner, name, bodies, frames, point)
    else:   # as Exudyn: a marker is used as it is and its reference position is the joint's
        if len(position):
            raise ExudynLayerError(f"{owner}: with a marker in itemNumbers, position must be [] (the marker sets "
                                   f"the joint position), got {position!r}")
        if mbs._dirty or mbs._core is None:
            mbs.Assemble()
        point = np.asarray(mbs.GetMarkerOutput(given[0], OutputVariableType.Position,
                                               configuration=ConfigurationType.Reference), dtype=float)
        markers = []
        for i, item in enumerate(items):
            if isinstance(item, MarkerNumber):
                markers.append(int(item))
                continue
            origin, rotation = _body_frame(mbs, owner, item, np.zeros(3))
            markers.append(mbs.AddMarker(MarkerBodyPosition(name=f"Marker{i}:{name}" if name else "", bodyNumber=item,
                                                            localPosition=list(rotation.T @ (point - origin)))))
    return mbs.AddObject(ObjectJointSpherical(name=name, markerNumbers=markers, constrainedAxes=list(constrainedAxes),
                                              visualization=_visualization(owner, show, color,
                                                                           jointRadius=jointRadius)))


def MainSystemCreateGenericJoint(mbs, name="", itemNumbers=[None, None], position=[], rotationMatrixAxes=np.eye(3),
                                 constrainedAxes=[1, 1, 1, 1, 1, 1], useGlobalFrame=True, offsetUserFunction=0,
                                 offsetUserFunction_t=0, show=True, axesRadius=0.1, axesLength=0.4,
                                 color=DEFAULT_COLOR, bodyNumbers=None, bodyOrNodeList=None):
    """``mbs.CreateGenericJoint(...)``: an ObjectJointGeneric at ``position`` [m] whose joint axes are the columns of
    rotationMatrixAxes, global (useGlobalFrame=True) or in body 0's frame (then position is too), in the reference
    configuration; rigid markers carry the joint frame as Exudyn's. Returns the object number."""
    owner = "MainSystem.CreateGenericJoint"
    bodies, frames, point = _joint_geometry(mbs, owner, itemNumbers, bodyNumbers, bodyOrNodeList, position,
                                            useGlobalFrame)
    axes = _matrix(rotationMatrixAxes, owner, "rotationMatrixAxes")
    markers = _joint_markers(mbs, owner, name, bodies, frames, point, axes if useGlobalFrame else frames[0][1] @ axes)
    return mbs.AddObject(ObjectJointGeneric(
        name=name, markerNumbers=markers, constrainedAxes=list(constrainedAxes), offsetUserFunction=offsetUserFunction,
        offsetUserFunction_t=offsetUserFunction_t,
        visualization=_visualization(owner, show, color, axesRadius=axesRadius, axesLength=axesLength)))


def _unsupported_method(name: str):
    supported = ["CreateRigidBody", "CreateGround", "CreateMassPoint", "AddNode", "AddObject", "AddMarker", "AddLoad",
                 "AddSensor"]

    def method(mbs, *arguments, **keywords):
        scope = out_of_scope(name)
        raise ExudynLayerError(f"floatframe.exudyn does not support mbs.{name}{closest(name, supported)}" + (
            scope or "; add the items it would create with mbs.AddNode/AddObject/AddMarker/AddLoad"))
    method.__name__ = name
    method.__doc__ = f"Exudyn's mbs.{name}: not supported by floatframe.exudyn (raises ExudynLayerError)."
    return method


EXTENSIONS = {"CreateRigidBody": MainSystemCreateRigidBody, "CreateGround": MainSystemCreateGround,
              "CreateMassPoint": MainSystemCreateMassPoint, "PlotSensor": plot.PlotSensor}
EXTENSIONS.update({"CreateSpringDamper": MainSystemCreateSpringDamper,  # springs
                   "CreateCartesianSpringDamper": MainSystemCreateCartesianSpringDamper,
                   "CreateRigidBodySpringDamper": MainSystemCreateRigidBodySpringDamper,
                   "CreateTorsionalSpringDamper": MainSystemCreateTorsionalSpringDamper,
                   "CreateDistanceConstraint": MainSystemCreateDistanceConstraint})
EXTENSIONS.update({"CreateRevoluteJoint": MainSystemCreateRevoluteJoint,  # joints
                   "CreatePrismaticJoint": MainSystemCreatePrismaticJoint,
                   "CreateSphericalJoint": MainSystemCreateSphericalJoint,
                   "CreateGenericJoint": MainSystemCreateGenericJoint})
EXTENSIONS.update({"CreateForce": MainSystemCreateForce, "CreateTorque": MainSystemCreateTorque,  # loads
                   "CreateCoordinateConstraint": MainSystemCreateCoordinateConstraint})


# --- deleting items (Exudyn's MainSystem.Delete*: later items move down by one, references follow) -------
# parameters that hold item numbers of a family, in the item records of any family
REFERENCE_FIELDS = {"node": ("nodeNumber", "nodeNumbers"), "object": ("bodyNumber", "objectNumber"),
                    "marker": ("markerNumber", "markerNumbers"), "load": ("loadNumber",),
                    "sensor": ("sensorNumbers",)}


def _delete_item(mbs: MainSystem, family: str, number, suppressWarnings: bool, caller: str) -> None:
    """Remove item ``number`` of ``family``; references to it become -1 (with a warning unless
    suppressed), references to later items are decreased by one, default names follow their numbers."""
    items = mbs.items(family)
    try:
        index = int(number)
    except (TypeError, ValueError):
        raise ExudynLayerError(f"{caller}: {family} number must be an integer, got {number!r}") from None
    if not 0 <= index < len(items):
        raise ExudynLayerError(f"{caller}: invalid {family} number {index} (the system has {len(items)} {family}s)")
    del items[index]
    for later in range(index, len(items)):
        if items[later].name == f"{family}{later + 1}":
            items[later].name = f"{family}{later}"

    def moved(value, owner, position):
        if int(value) == index:
            if not suppressWarnings:
                warnings.warn(f"{caller}: {owner} {position} references the deleted {family} {index}; its "
                              "reference is set to -1 (invalid)", stacklevel=4)
            return -1
        return int(value) - 1 if int(value) > index else value

    for owner_family, owners in mbs._items.items():
        for position, owner in enumerate(owners):
            for field in REFERENCE_FIELDS[family]:
                if field not in owner.values:
                    continue
                value = owner.values[field]
                if isinstance(value, (list, tuple, np.ndarray)):
                    owner.values[field] = [moved(entry, owner_family, position) for entry in value]
                elif value is not None and not isinstance(value, bool):
                    owner.values[field] = moved(value, owner_family, position)
    mbs._dirty = True
    mbs._sensor_data = {}


def _numbers(value) -> list:
    if isinstance(value, (list, tuple, np.ndarray)):
        return [int(entry) for entry in value]
    return [] if value is None else [int(value)]


def MainSystemDeleteObject(mbs, objectNumber, deleteDependentItems=True, suppressWarnings=False) -> None:
    """Delete an object as Exudyn: with deleteDependentItems also its nodes and (a connector's) markers."""
    record = mbs.item("object", objectNumber, "DeleteObject", "objectNumber")
    nodes = markers = []
    if deleteDependentItems:
        nodes = sorted(set(_numbers(record.values.get("nodeNumber")) + _numbers(record.values.get("nodeNumbers"))))
        markers = sorted(set(_numbers(record.values.get("markerNumbers"))))
    _delete_item(mbs, "object", objectNumber, suppressWarnings, "DeleteObject")
    for marker in reversed(markers):
        if marker >= 0:
            _delete_item(mbs, "marker", marker, suppressWarnings, "DeleteMarker")
    for node in reversed(nodes):
        if node >= 0:
            _delete_item(mbs, "node", node, suppressWarnings, "DeleteNode")


def MainSystemDeleteLoad(mbs, loadNumber, deleteDependentMarkers=True, suppressWarnings=False) -> None:
    """Delete a load as Exudyn: with deleteDependentMarkers also its marker."""
    marker = mbs.item("load", loadNumber, "DeleteLoad", "loadNumber").values.get("markerNumber")
    _delete_item(mbs, "load", loadNumber, suppressWarnings, "DeleteLoad")
    if deleteDependentMarkers and marker is not None and int(marker) >= 0:
        _delete_item(mbs, "marker", marker, False, "DeleteMarker")


def MainSystemDeleteMarker(mbs, markerNumber, suppressWarnings=False) -> None:
    """Delete a marker as Exudyn (objects, loads and sensors referencing it get -1)."""
    _delete_item(mbs, "marker", markerNumber, suppressWarnings, "DeleteMarker")


def MainSystemDeleteNode(mbs, nodeNumber, suppressWarnings=False) -> None:
    """Delete a node as Exudyn (objects, markers and sensors referencing it get -1)."""
    _delete_item(mbs, "node", nodeNumber, suppressWarnings, "DeleteNode")


def MainSystemDeleteSensor(mbs, sensorNumber, suppressWarnings=False) -> None:
    """Delete a sensor as Exudyn."""
    _delete_item(mbs, "sensor", sensorNumber, suppressWarnings, "DeleteSensor")


EXTENSIONS.update({"DeleteObject": MainSystemDeleteObject, "DeleteLoad": MainSystemDeleteLoad,
                   "DeleteMarker": MainSystemDeleteMarker, "DeleteNode": MainSystemDeleteNode,
                   "DeleteSensor": MainSystemDeleteSensor})


def MainSystemCreateFFRFReducedOrderObject(mbs, name, femInterface, referencePosition=ZERO3, initialVelocity=ZERO3,
                                           referenceRotationMatrix=np.eye(3), initialAngularVelocity=ZERO3,
                                           massProportionalDamping=0.0, stiffnessProportionalDamping=0.0,
                                           gravity=ZERO3, color=(0.0, 1.0, 0.0, 1.0),
                                           superElementRigidMarkersOffsets=None, showMarkers=True,
                                           verbose=False) -> dict:
    """``mbs.CreateFFRFReducedOrderObject(...)``: a reduced-order FFRF body (CMS) from ``femInterface``'s mode
    basis, with a MarkerSuperElementRigid on each of its boundary node sets, as in Exudyn 1.13.6.

    The body is added by :meth:`ObjectFFRFreducedOrderInterface.AddObjectFFRFreducedOrder` (frame node
    'NodeRigidBody:name', modal node 'NodeGeneric:name'); the markers are named 'name:boundaryName' (the boundary
    name only for ``name=None``), in the order of the node sets, with the boundary's nodes and weights and the
    local offsets ``superElementRigidMarkersOffsets`` (one 3-vector per marker, zero if None). Returns
    {marker name: marker number, ..., 'FFRFReducedOrderObjectDict': the dict AddObjectFFRFReducedOrder returns}.
    ``showMarkers`` is accepted and not used, as in Exudyn.
    """
    from floatframe.exudyn.FEM import FEMinterface, ObjectFFRFreducedOrderInterface
    owner = "CreateFFRFReducedOrderObject"
    if name is not None and (not isinstance(name, str) or name == ""):
        raise ExudynLayerError(f"{owner}: name must be a non-empty string or None, got {name!r}")
    if not isinstance(femInterface, FEMinterface):
        raise ExudynLayerError(f"{owner}: femInterface must be a FEMinterface, got {type(femInterface).__name__}")
    position = _vector(referencePosition, owner, "referencePosition")
    velocity = _vector(initialVelocity, owner, "initialVelocity")
    rotation = _matrix(referenceRotationMatrix, owner, "referenceRotationMatrix")
    angular_velocity = _vector(initialAngularVelocity, owner, "initialAngularVelocity")
    gravity = _vector(gravity, owner, "gravity")
    color = _vector(color, owner, "color", size=4)
    if not femInterface.modeBasis:
        raise ExudynLayerError(f"{owner}: the femInterface has no modes; call ComputeHurtyCraigBamptonModes(...) or "
                               f"ComputeEigenmodes(...) first")
    marker_names = [] if not femInterface.nodeSets else [
        node_set["Name"] if name is None else f"{name}:{node_set['Name']}" for node_set in femInterface.nodeSets]
    existing = {mbs.GetMarkerParameter(number, "name") for number in range(mbs.NumberOfMarkers())}
    for marker_name in marker_names:
        if marker_name in existing:
            raise ExudynLayerError(f"{owner}: a marker named {marker_name!r} exists already")
    offsets = np.zeros((len(marker_names), 3))
    if marker_names and superElementRigidMarkersOffsets is not None:
        offsets = np.atleast_2d(np.asarray(superElementRigidMarkersOffsets, dtype=float))
        if offsets.shape != (len(marker_names), 3):
            raise ExudynLayerError(f"{owner}: superElementRigidMarkersOffsets must be {len(marker_names)} x 3 (one "
                                   f"local offset per boundary node set), got shape {offsets.shape}")
    body = ObjectFFRFreducedOrderInterface(femInterface).AddObjectFFRFreducedOrder(
        mbs, name="" if name is None else name, positionRef=position, initialVelocity=velocity,
        rotationMatrixRef=rotation, initialAngularVelocity=angular_velocity,
        massProportionalDamping=massProportionalDamping, stiffnessProportionalDamping=stiffnessProportionalDamping,
        gravity=gravity, color=color)
    numbers = {"FFRFReducedOrderObjectDict": body}
    if marker_names:
        node_lists, weight_lists = femInterface.GetBoundaryNodeSetsAsLists()
        if len(node_lists) != len(marker_names):
            raise ExudynLayerError(f"{owner}: the femInterface has {len(marker_names)} node sets but "
                                   f"{len(node_lists)} boundary node sets with nodes and weights")
        for marker_name, nodes, weights, offset in zip(marker_names, node_lists, weight_lists, offsets):
            numbers[marker_name] = MarkerNumber(mbs.AddMarker(MarkerSuperElementRigid(
                name=marker_name, bodyNumber=body["oFFRFreducedOrder"], meshNodeNumbers=list(nodes),
                weightingFactors=list(weights), offset=list(offset))))
            if verbose:
                print(f"added MarkerSuperElementRigid {marker_name!r}, marker number {numbers[marker_name]}")
    return numbers


EXTENSIONS["CreateFFRFReducedOrderObject"] = MainSystemCreateFFRFReducedOrderObject


def GetOtherMarker(mbs, bodyNumber, existingMarker, show=True) -> int:
    """Add a MarkerBodyRigid on body ``bodyNumber`` at the reference position of ``existingMarker`` (as
    Exudyn's basicUtilities.GetOtherMarker: the position only, the new marker's frame is the body's);
    returns its number. The layer evaluates outputs on the assembled system, so an unassembled system
    is assembled first (with the items added so far)."""
    if mbs._dirty or mbs._core is None:
        mbs.Assemble()
    reference = ConfigurationType.Reference
    body_position = np.asarray(mbs.GetObjectOutputBody(bodyNumber, OutputVariableType.Position,
                                                       localPosition=[0, 0, 0], configuration=reference), dtype=float)
    body_rotation = np.asarray(mbs.GetObjectOutputBody(bodyNumber, OutputVariableType.RotationMatrix,
                                                       localPosition=[0, 0, 0], configuration=reference),
                               dtype=float).reshape((3, 3))
    marker_position = np.asarray(mbs.GetMarkerOutput(existingMarker, OutputVariableType.Position,
                                                     configuration=reference), dtype=float)
    local_position = body_rotation.T @ (marker_position - body_position)
    return mbs.AddMarker(MarkerBodyRigid(bodyNumber=bodyNumber, localPosition=local_position.tolist(),
                                         visualization={"show": bool(show)}))


def _homogeneous_matrix(value, position=None) -> np.ndarray:
    """A 4 x 4 matrix from a localHT value (matrix, 16 values or an object with rotation and translation),
    or from a local position when unset."""
    matrix = np.eye(4)
    if value is None:
        if position is not None:
            matrix[:3, 3] = np.asarray(position, dtype=float).reshape(3)
        return matrix
    if hasattr(value, "rotation") and hasattr(value, "translation"):
        matrix[:3, :3] = np.asarray(value.rotation, dtype=float)
        matrix[:3, 3] = np.asarray(value.translation, dtype=float).reshape(3)
        return matrix
    return np.asarray(value, dtype=float).reshape(4, 4)


def _marker_with_rotation(mbs, marker, rotation):
    """(marker, remaining rotation) as Exudyn 1.13.6's rigidBodyUtilities._MarkerWithRotation: the marker itself
    for a unit rotation; for a marker with localHT a new copy whose localHT is turned by ``rotation``; else the
    marker and the rotation, left to the joint's rotationMarker."""
    rotation = np.asarray(rotation, dtype=float)
    if np.linalg.norm(rotation - np.eye(3)) == 0:
        return marker, np.eye(3)
    data = mbs.GetMarker(marker)
    if "localHT" not in data:
        return marker, rotation
    turn = np.eye(4)
    turn[:3, :3] = rotation
    local = _homogeneous_matrix(data["localHT"], data.get("localPosition"))
    copy = {key: value for key, value in data.items() if key not in ("name", "localPosition", "offset", "localHT")
            and not key.startswith("V")}
    copy["localHT"] = local @ turn
    return mbs.AddMarker(copy), np.eye(3)


def GetJointArgs(mbs, markerNumber0=None, markerNumber1=None, rotationMarker0=None, rotationMarker1=None,
                 bodyNumber0=None, bodyNumber1=None) -> dict:
    """Joint arguments {'markerNumbers': [...]} from an existing marker and a body, as Exudyn 1.13.6's
    basicUtilities.GetJointArgs: a new MarkerBodyRigid on the body at the existing marker's reference frame
    (turned by the given rotationMarker), and the existing marker (a turned copy where it has a localHT;
    otherwise 'rotationMarker0/1' is added to the arguments)."""
    rotation = np.eye(3)
    if markerNumber0 is not None:
        if markerNumber1 is not None:
            raise ExudynLayerError("GetJointArgs: with markerNumber0 given, markerNumber1 must be None")
        if bodyNumber1 is None:
            raise ExudynLayerError("GetJointArgs: with markerNumber0 given, bodyNumber1 is needed")
        existing, body = markerNumber0, bodyNumber1
        rotation = np.eye(3) if rotationMarker0 is None else np.asarray(rotationMarker0, dtype=float)
    else:
        if markerNumber1 is None:
            raise ExudynLayerError("GetJointArgs: give markerNumber0 (with bodyNumber1) or markerNumber1 (with "
                                   "bodyNumber0)")
        if bodyNumber0 is None:
            raise ExudynLayerError("GetJointArgs: with markerNumber1 given, bodyNumber0 is needed")
        existing, body = markerNumber1, bodyNumber0
        rotation = np.eye(3) if rotationMarker1 is None else np.asarray(rotationMarker1, dtype=float)
    if mbs._dirty or mbs._core is None:
        mbs.Assemble()
    reference = ConfigurationType.Reference
    body_position = np.asarray(mbs.GetObjectOutputBody(body, OutputVariableType.Position, localPosition=[0, 0, 0],
                                                       configuration=reference), dtype=float)
    body_rotation = np.asarray(mbs.GetObjectOutputBody(body, OutputVariableType.RotationMatrix,
                                                       localPosition=[0, 0, 0], configuration=reference),
                               dtype=float).reshape((3, 3))
    marker_position = np.asarray(mbs.GetMarkerOutput(existing, OutputVariableType.Position, configuration=reference),
                                 dtype=float)
    marker_rotation = np.asarray(mbs.GetMarkerOutput(existing, OutputVariableType.RotationMatrix,
                                                     configuration=reference), dtype=float).reshape((3, 3))
    local = np.eye(4)
    local[:3, :3] = body_rotation.T @ marker_rotation @ rotation
    local[:3, 3] = body_rotation.T @ (marker_position - body_position)
    new_marker = mbs.AddMarker(MarkerBodyRigid(bodyNumber=body, localHT=local))
    turned, remaining = _marker_with_rotation(mbs, existing, rotation)
    first = markerNumber0 is not None
    args = {"markerNumbers": [turned, new_marker] if first else [new_marker, turned]}
    if np.linalg.norm(remaining - np.eye(3)) != 0:
        args["rotationMarker0" if first else "rotationMarker1"] = remaining
    return args


def install():
    """Attach the extensions to MainSystem; a name MainSystem defines itself is left alone."""
    for name, function in EXTENSIONS.items():
        setattr(MainSystem, name, function)
    for name in UNSUPPORTED_EXTENSIONS:
        if name not in vars(MainSystem):
            setattr(MainSystem, name, _unsupported_method(name))


install()
