"""Translation of Exudyn items into floatframe components (one component per item, same numbering).

Every function takes the item and the MainSystem (the first argument of Exudyn user functions) and
returns a component of :mod:`floatframe.components`. Features of an item that the core does not have
raise an error that names the item and the parameter instead of being silently dropped.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

import floatframe.components as fc
from floatframe.exudyn._names import ExudynLayerError, OutputVariableType, member_name, unknown

NODE_OUTPUTS = ["Coordinates", "Coordinates_t", "Coordinates_tt", "Position", "Displacement", "Velocity",
                "Acceleration"]
RIGID_NODE_OUTPUTS = NODE_OUTPUTS + ["AngularVelocity", "AngularVelocityLocal", "RotationMatrix",
                                     "AngularAcceleration"]
BODY_OUTPUTS = ["Position", "Displacement", "Velocity"]
FFRF_OUTPUTS = ["Coordinates", "Coordinates_t", "Coordinates_tt", "Force"]
CONNECTOR_OUTPUTS = {"ConnectorCartesianSpringDamper": ["Force", "Displacement", "Velocity"],
                     "JointSpherical": ["Force"]}


def label(item, number) -> str:
    return f"{type(item).__name__} {number}" + (f" '{item.name}'" if item.name else "")


def unsupported(item, number, parameter, reason="is not supported by floatframe") -> ExudynLayerError:
    return ExudynLayerError(f"{label(item, number)}: parameter '{parameter}' = {getattr(item, parameter)!r} {reason}")


def is_unset(value) -> bool:
    """Exudyn's way of saying 'no function / no matrix': 0, None or an empty container."""
    if value is None or (isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0):
        return True
    if callable(value):
        return False
    matrix = getattr(value, "matrix", value)
    return matrix is None or (not sp.issparse(matrix) and np.size(matrix) == 0)


def check_output(item, number, variable, supported) -> str:
    name = member_name(variable, OutputVariableType, label(item, number), "outputVariableType")
    if name not in supported:
        raise unknown("output variable", name, supported, f"{label(item, number)} (supported: {supported})")
    return name


def fe_matrix(value):
    """A MatrixContainer, scipy.sparse matrix or array as what ObjectFFRF takes (None if unset)."""
    if is_unset(value):
        return None
    return getattr(value, "matrix", value)


def user_function_for_load(function, mbs, nominal):
    """Exudyn load user functions get (mbs, t, nominal load); the core wants f(t)."""
    return lambda t: function(mbs, t, nominal)


# --- nodes ------------------------------------------------------------------------------------------
def node(item, number, mbs):
    kind = item.type_string
    if kind == "Point":
        return fc.NodePoint(item.referenceCoordinates, item.initialCoordinates, item.initialVelocities, name=item.name)
    if kind == "PointGround":
        return fc.NodePointGround(item.referenceCoordinates, name=item.name)
    if not item.addConstraintEquation:
        raise unsupported(item, number, "addConstraintEquation", "is not supported: the Euler-parameter "
                          "constraint is always added")
    return fc.NodeRigidBodyEP(item.referenceCoordinates, item.initialCoordinates, item.initialVelocities,
                              name=item.name)


# --- objects ----------------------------------------------------------------------------------------
def _check_active(item, number):
    if not item.activeConnector:
        raise unsupported(item, number, "activeConnector", "is not supported: connectors are always active")


def _check_unset(item, number, *parameters):
    for parameter in parameters:
        if not is_unset(getattr(item, parameter)):
            raise unsupported(item, number, parameter)


def obj(item, number, mbs):
    kind = item.type_string
    if kind == "Ground":
        for parameter in ("referenceRotation", "referenceHT"):
            value = getattr(item, parameter)
            if value is not None and not np.allclose(value, np.eye(3 if parameter == "referenceRotation" else 4)):
                raise unsupported(item, number, parameter, "is not supported: the ground is not rotated")
        position = [0.0, 0.0, 0.0] if item.referencePosition is None else item.referencePosition
        return fc.ObjectGround(position, name=item.name)
    if kind == "RigidBody":
        if np.any(np.asarray(item.centerOfMass, dtype=float) != 0):
            raise unsupported(item, number, "centerOfMass", "is not supported: the centre of mass must be at the node")
        return fc.ObjectRigidBody(item.nodeNumber, item.mass, item.inertia, name=item.name)
    if kind == "FFRF":
        force = None if is_unset(item.forceUserFunction) else item.forceUserFunction
        mass = None if is_unset(item.massMatrixUserFunction) else item.massMatrixUserFunction
        return fc.ObjectFFRF(item.nodeNumbers, fe_matrix(item.massMatrixFF), fe_matrix(item.stiffnessMatrixFF),
                             fe_matrix(item.dampingMatrixFF), item.forceVector, force_user_function=force,
                             mass_matrix_user_function=mass, compute_ffrf_terms=item.computeFFRFterms, name=item.name)
    _check_active(item, number)
    if kind == "ConnectorCoordinate":
        _check_unset(item, number, "offsetUserFunction", "offsetUserFunction_t")
        if item.velocityLevel:
            raise unsupported(item, number, "velocityLevel", "is not supported: constraints are on position level")
        return fc.CoordinateConstraint(item.markerNumbers, item.offset, item.factor1, name=item.name)
    if kind == "ConnectorCoordinateVector":
        _check_unset(item, number, "quadraticTermMarker0", "quadraticTermMarker1", "constraintUserFunction",
                     "jacobianUserFunction")
        if item.velocityLevel:
            raise unsupported(item, number, "velocityLevel", "is not supported: constraints are on position level")
        return fc.CoordinateVectorConstraint(item.markerNumbers, np.asarray(item.scalingMarker0, dtype=float),
                                             np.asarray(item.scalingMarker1, dtype=float), item.offset, name=item.name)
    if kind == "ConnectorCartesianSpringDamper":
        _check_unset(item, number, "springForceUserFunction")
        return fc.CartesianSpringDamper(item.markerNumbers, item.stiffness, item.damping, item.offset, name=item.name)
    return fc.SphericalJoint(item.markerNumbers, item.constrainedAxes, name=item.name)


# --- markers ----------------------------------------------------------------------------------------
def marker(item, number, mbs):
    kind = item.type_string
    if kind in ("NodeRigid", "BodyRigid") and item.localHT is not None:
        raise unsupported(item, number, "localHT", "is not supported: markers sit at the node or body point")
    if kind == "NodeRigid":
        return fc.MarkerNodeRigid(item.nodeNumber, name=item.name)
    if kind == "NodePosition":
        return fc.MarkerNodePosition(item.nodeNumber, name=item.name)
    if kind == "NodeCoordinate":
        return fc.MarkerNodeCoordinate(item.nodeNumber, item.coordinate, name=item.name)
    if kind == "NodeCoordinates":
        return fc.MarkerNodeCoordinates(item.nodeNumber, name=item.name)
    if kind == "BodyRigid":
        position = [0.0, 0.0, 0.0] if item.localPosition is None else item.localPosition
        return fc.MarkerBodyRigid(item.bodyNumber, position, name=item.name)
    if kind == "BodyPosition":
        return fc.MarkerBodyPosition(item.bodyNumber, item.localPosition, name=item.name)
    if kind == "SuperElementPosition":
        return fc.MarkerSuperElementPosition(item.bodyNumber, item.meshNodeNumbers, item.weightingFactors,
                                             name=item.name)
    return fc.MarkerObjectODE2Coordinates(item.objectNumber, name=item.name)


# --- loads ------------------------------------------------------------------------------------------
def load(item, number, mbs):
    kind = item.type_string
    if kind == "Coordinate":
        value = item.load if is_unset(item.loadUserFunction) else user_function_for_load(
            item.loadUserFunction, mbs, item.load)
        return fc.LoadCoordinate(item.markerNumber, value, name=item.name)
    value = item.loadVector if is_unset(item.loadVectorUserFunction) else user_function_for_load(
        item.loadVectorUserFunction, mbs, np.asarray(item.loadVector, dtype=float))
    component = fc.LoadForceVector if kind == "ForceVector" else fc.LoadTorqueVector
    return component(item.markerNumber, value, body_fixed=item.bodyFixed, name=item.name)


# --- sensors ----------------------------------------------------------------------------------------
def sensor(item, number, mbs):
    kind = item.type_string
    if kind == "Node":
        node_item = mbs.item("node", item.nodeNumber, label(item, number), "nodeNumber")
        supported = RIGID_NODE_OUTPUTS if node_item.type_string == "RigidBodyEP" else NODE_OUTPUTS
        variable = check_output(item, number, item.outputVariableType, supported)
        return fc.SensorNode(item.nodeNumber, variable, name=item.name)
    if kind == "SuperElement":
        variable = check_output(item, number, item.outputVariableType, list(fc.ObjectFFRF.mesh_outputs))
        return fc.SensorSuperElement(item.bodyNumber, item.meshNodeNumber, variable, name=item.name)
    body_number = item.bodyNumber if kind == "Body" else item.objectNumber
    body_item = mbs.item("object", body_number, label(item, number), "bodyNumber" if kind == "Body" else "objectNumber")
    supported = object_outputs(body_item)
    variable = check_output(item, number, item.outputVariableType, supported)
    if kind == "Body":
        return fc.SensorBody(body_number, variable, item.localPosition, name=item.name)
    return fc.SensorObject(body_number, variable, name=item.name)


def object_outputs(item) -> list:
    if item.type_string == "FFRF":
        return FFRF_OUTPUTS
    if item.type_string in ("Ground", "RigidBody"):
        return BODY_OUTPUTS
    return CONNECTOR_OUTPUTS.get(item.type_string, [])


TRANSLATORS = {"node": node, "object": obj, "marker": marker, "load": load, "sensor": sensor}
