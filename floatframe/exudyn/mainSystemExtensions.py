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
from floatframe.exudyn._names import ExudynLayerError, closest, enumeration, member_name
from floatframe.exudyn._system import MainSystem
from floatframe.exudyn.rigidBodyUtilities import (AngularVelocity2EulerParameters_t, RigidBodyInertia,
                                                  RotationMatrix2EulerParameters)

NodeType = enumeration("NodeType", [
    "_None", "Ground", "Position2D", "Orientation2D", "Point2DSlope1", "Position", "Orientation", "RigidBody",
    "RotationEulerParameters", "RotationRxyz", "RotationRotationVector", "LieGroupWithDirectUpdate", "GenericODE2",
    "GenericODE1", "GenericAE", "GenericData", "PointSlope1", "PointSlope12", "PointSlope23"])

# MainSystem extensions of Exudyn 1.13.6 (its extension registry) that floatframe.exudyn does not have.
UNSUPPORTED_EXTENSIONS = [
    "ComputeLinearizedSystem", "ComputeSystemDegreeOfFreedom", "CreateCartesianSpringDamper",
    "CreateCoordinateConstraint", "CreateDistanceConstraint", "CreateDistanceSensor", "CreateDistanceSensorGeometry",
    "CreateFFRFReducedOrderObject", "CreateForce", "CreateGenericJoint", "CreateKinematicTree",
    "CreateLinearSpringDamper", "CreatePrismaticJoint", "CreateRevoluteJoint",
    "CreateRigidBodySpringDamper", "CreateRollingDisc", "CreateRollingDiscPenalty", "CreateSphereQuadContact",
    "CreateSphereSphereContact", "CreateSphereTriangleContact", "CreateSphericalJoint", "CreateSpringDamper",
    "CreateTorque", "CreateTorsionalSpringDamper"]

ZERO3 = (0.0, 0.0, 0.0)


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
                    node_visualization, body_visualization) -> dict:
    """Node (NodeRigidBodyEP), body (ObjectRigidBody) and, for gravity != 0, a MarkerBodyMass with a
    LoadMassProportional: the items Exudyn adds."""
    node = mbs.AddNode(NodeRigidBodyEP(name=f"Node:{name}" if name else "",
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
    if node_type != "RotationEulerParameters":
        raise ExudynLayerError(f"{owner}: nodeType {node_type} is not supported: floatframe's rigid-body node is "
                               f"NodeRigidBodyEP (use nodeType=exu.NodeType.RotationEulerParameters)")
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
    theta = RotationMatrix2EulerParameters(rotation)
    theta_t = AngularVelocity2EulerParameters_t(angular_velocity, theta)
    theta_initial = np.zeros(4)
    if displacement is not None or initial_rotation is not None:
        initial_rotation = np.eye(3) if initial_rotation is None else _matrix(initial_rotation, owner,
                                                                              "initialRotationMatrix")
        theta_initial = RotationMatrix2EulerParameters(rotation @ initial_rotation) - theta  # relative to reference
    displacement = _vector(ZERO3 if displacement is None else displacement, owner, "initialDisplacement")
    if not graphics_list:
        shape = inertia.GetGraphics(list(color))
        graphics_list = [] if shape is None else [shape]
    node_visualization = dict(show=show, drawSize=0 if graphics_list else drawSize, color=list(color))
    body_visualization = dict(show=show, graphicsDataUserFunction=graphicsDataUserFunction, graphicsData=graphics_list)
    numbers = _add_rigid_body(mbs, name, position, theta, theta_initial, displacement, velocity, theta_t, inertia,
                              gravity, node_visualization, body_visualization)
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
    gravity, 'markerBodyMass' and 'loadNumber'. ``create2D=True`` (NodePoint2D, MassPoint2D) is refused.
    """
    owner = "MainSystem.CreateMassPoint"
    if physicsMass is not None:
        warnings.warn(f"{owner}: physicsMass is a deprecated Exudyn name; use mass", DeprecationWarning, stacklevel=2)
        mass = physicsMass
    if create2D:
        raise ExudynLayerError(f"{owner}: create2D=True is not supported: floatframe has no planar mass point "
                               f"(NodePoint2D, MassPoint2D)")
    if not isinstance(name, str):
        raise ExudynLayerError(f"{owner}: name must be a string, got {name!r}")
    position = _vector(referencePosition, owner, "referencePosition")
    displacement = _vector(initialDisplacement, owner, "initialDisplacement")
    velocity = _vector(initialVelocity, owner, "initialVelocity")
    gravity = _vector(gravity, owner, "gravity")
    _vector(color, owner, "color", 4)
    graphics_list = _graphics_list(list(graphicsDataList) if isinstance(graphicsDataList, tuple) else graphicsDataList,
                                   owner)
    node = mbs.AddNode(NodePoint(name=f"Node:{name}" if name else "", referenceCoordinates=list(position),
                                 initialCoordinates=list(displacement), initialVelocities=list(velocity),
                                 visualization=dict(show=show, drawSize=0 if graphics_list else drawSize,
                                                    color=list(color))))
    body = mbs.AddObject(ObjectMassPoint(name=name, mass=mass, nodeNumber=node,
                                         visualization=dict(show=bool(graphics_list), graphicsData=graphics_list)))
    numbers = {"nodeNumber": node, "bodyNumber": body}
    if np.any(gravity != 0):
        numbers["markerBodyMass"] = mbs.AddMarker(MarkerBodyMass(bodyNumber=body))
        numbers["loadNumber"] = mbs.AddLoad(LoadMassProportional(markerNumber=numbers["markerBodyMass"],
                                                                 loadVector=list(gravity)))
    return numbers if returnDict else body


def _unsupported_method(name: str):
    supported = ["CreateRigidBody", "CreateGround", "CreateMassPoint", "AddNode", "AddObject", "AddMarker", "AddLoad",
                 "AddSensor"]

    def method(mbs, *arguments, **keywords):
        raise ExudynLayerError(f"floatframe.exudyn does not support mbs.{name}{closest(name, supported)}; "
                               f"add the items it would create with mbs.AddNode/AddObject/AddMarker/AddLoad")
    method.__name__ = name
    method.__doc__ = f"Exudyn's mbs.{name}: not supported by floatframe.exudyn (raises ExudynLayerError)."
    return method


EXTENSIONS = {"CreateRigidBody": MainSystemCreateRigidBody, "CreateGround": MainSystemCreateGround,
              "CreateMassPoint": MainSystemCreateMassPoint, "PlotSensor": plot.PlotSensor}


def install():
    """Attach the extensions to MainSystem; a name MainSystem defines itself is left alone."""
    for name, function in EXTENSIONS.items():
        setattr(MainSystem, name, function)
    for name in UNSUPPORTED_EXTENSIONS:
        if name not in vars(MainSystem):
            setattr(MainSystem, name, _unsupported_method(name))


install()
