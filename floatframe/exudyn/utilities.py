"""Exudyn's ``utilities`` for FFRF scripts: rotation and inertia helpers, matrix helpers and the item classes.

``from floatframe.exudyn.utilities import *`` gives a script what ``from exudyn.utilities import *``
gives it (Exudyn: basicUtilities, advancedUtilities, rigidBodyUtilities, itemInterface) as far as the
layer supports it. Every other name of Exudyn 1.13.6's utilities is exported as a placeholder that
raises an ExudynLayerError when the script uses it (see :class:`floatframe.exudyn._unknown.Unsupported`
and docs/exudyn.md); a name Exudyn does not have either fails with the closest supported name.
"""
from __future__ import annotations

from math import cos, pi, sin, sqrt

import numpy as np

from floatframe.exudyn._items import ITEM_CLASSES, SHORT_NAMES, VISUALIZATION_CLASSES
from floatframe.exudyn.basicUtilities import (GaussIntegrate, LoadBinarySolutionFile,  # noqa: F401
                                              LoadSolutionFile, LobattoIntegrate,
                                              gaussIntegrationPoints,
                                              gaussIntegrationWeights, lobattoIntegrationPoints,
                                              lobattoIntegrationWeights)
from floatframe.exudyn import graphicsDataUtilities as _graphics_data
from floatframe.exudyn._names import out_of_scope
from floatframe.exudyn._unknown import Unsupported, module_getattr
from floatframe.exudyn.graphics import color  # noqa: F401  (scripts use it after a star import)
from floatframe.exudyn.graphicsDataUtilities import color4list  # noqa: F401  (and the other color4... names)
from floatframe.exudyn.mainSystemExtensions import AddRigidBody, GetJointArgs, GetOtherMarker  # noqa: F401
from floatframe.exudyn.plot import PlotLineCode  # noqa: F401
from floatframe.exudyn.rigidBodyUtilities import *  # noqa: F401,F403
from floatframe.exudyn.symbolic import ConvertFunctionToSymbolic, CreateSymbolicUserFunction  # noqa: F401

sqrt2 = sqrt(2.0)
g = 9.81  # [m/s^2], Exudyn's standard gravity


def Normalize(v) -> list:
    """v / |v| as a list (a zero vector stays zero)."""
    vector = np.array(v, dtype=float)
    norm = np.linalg.norm(vector)
    return (vector / norm if norm else vector).tolist()


def FillInSubMatrix(subMatrix, destinationMatrix, destRow, destColumn):
    """Copy subMatrix into destinationMatrix (in place) with its upper left corner at (destRow, destColumn)."""
    rows, columns = np.shape(subMatrix)
    destinationMatrix[destRow:destRow + rows, destColumn:destColumn + columns] = subMatrix


def FrequencySweep(t, t1, f0, f1) -> float:
    """The frequency [Hz] at time t [s] of a linear sweep from f0 at t = 0 to f1 at t = t1."""
    return t * (f1 - f0) / t1 + f0


def SweepSin(t, t1, f0, f1) -> float:
    """sin of the phase 2 pi (f0 + (f1 - f0) t / (2 t1)) t of the linear sweep: its frequency is FrequencySweep."""
    return sin(2 * pi * (f0 + (f1 - f0) / t1 * 0.5 * t) * t)


def SweepCos(t, t1, f0, f1) -> float:
    """cos of the linear sweep's phase (see SweepSin)."""
    return cos(2 * pi * (f0 + (f1 - f0) / t1 * 0.5 * t) * t)


def SmoothStep(x, x0, x1, value0, value1) -> float:
    """value0 up to x0, value1 from x1 on, and between them the half cosine wave that joins them with zero slope."""
    if x <= x0:
        return value0
    if x >= x1:
        return value1
    return value0 + (value1 - value0) * 0.5 * (1 - cos((x - x0) / (x1 - x0) * pi))


def SmoothStepDerivative(x, x0, x1, value0, value1) -> float:
    """d SmoothStep / dx (zero outside x0 < x < x1)."""
    if not x0 < x < x1:
        return 0
    return (value1 - value0) * 0.5 * (pi / (x1 - x0) * sin((x - x0) / (x1 - x0) * pi))


globals().update({name: value for name, value in vars(_graphics_data).items() if name.startswith("color4")})
globals().update({cls.__name__: cls for cls in ITEM_CLASSES})
globals().update(SHORT_NAMES)
globals().update(VISUALIZATION_CLASSES)

SUPPORTED = sorted(name for name in globals() if not name.startswith("_") and name not in (
    "annotations", "np", "sqrt", "sin", "cos", "Unsupported", "module_getattr", "out_of_scope", "ITEM_CLASSES",
    "SHORT_NAMES", "VISUALIZATION_CLASSES"))

# Names of exudyn.utilities.__all__ (Exudyn 1.13.6) that the layer did not have when this list was
# taken from exudyn's modules; one the layer has since gained is dropped here, so that no placeholder
# hides it. Visualization classes (V...) of unsupported items are left out on purpose: they must not
# exist (a script that uses one gets Python's NameError).
UNSUPPORTED_NAMES = [name for name in [
    "ClearWorkspace", "SmartRound2String", "gaussIntegrationPoints", "gaussIntegrationWeights", "GaussIntegrate",
    "lobattoIntegrationPoints", "lobattoIntegrationWeights", "LobattoIntegrate", "GetOtherMarker", "GetJointArgs",
    "ShowOnlyObjects", "HighlightItem", "UFsensorRecord", "AddSensorRecorder", "UIWindowSuppressed",
    "OutputFilePath", "CreateDirectoryForFile", "LoadSolutionFile", "NumpyInt8ArrayToString", "BinaryReadIndex",
    "BinaryReadReal", "BinaryReadString", "BinaryReadArrayIndex", "BinaryReadRealVector", "LoadBinarySolutionFile",
    "RecoverSolutionFile", "SetSolutionState", "AnimateSolution", "specialExudynTypes", "FindObjectIndex",
    "FindNodeIndex", "IsListOrArray", "ExpectedType", "RaiseTypeError", "IsNone", "IsNotNone", "IsValidBool",
    "IsValidRealInt", "IsValidInt", "IsValidPRealInt", "IsValidURealInt", "IsReal", "IsInteger", "IsVector",
    "IsIntVector", "IsSquareMatrix", "IsValidObjectIndex", "IsValidNodeIndex", "IsValidMarkerIndex", "IsEmptyList",
    "SweepSin", "SweepCos", "FrequencySweep", "SmoothStep", "SmoothStepDerivative", "IndexFromValue", "RoundMatrix",
    "ConvertScipySparseToDict", "ConvertDictToScipySparse", "SaveDictToHDF5", "LoadDictFromHDF5",
    "ConvertFunctionToSymbolic", "CreateSymbolicUserFunction", "TCPIPdata", "CreateTCPIPconnection",
    "TCPIPsendReceive", "CloseTCPIPconnection", "LoadPotentialEnergy", "CreateLoadEnergySensor", "SystemEnergy",
    "ItemODE2Coordinates", "NumericalJacobian", "RotationVector2G", "RotationVector2GLocal", "RotXYZ2G_t",
    "RotXYZ2GLocal_t", "RotationMatrix2RotZYZ", "RotationX2T66", "RotationY2T66", "RotationZ2T66",
    "Translation2T66", "TranslationX2T66", "TranslationY2T66", "TranslationZ2T66", "T66toRotationTranslation",
    "InverseT66toRotationTranslation", "RotationTranslation2T66", "RotationTranslation2T66Inverse", "T66Inverse",
    "T66toHT", "HT2T66Inverse", "TreeLink", "StrNodeType2NodeType", "GetRigidBodyNode", "AddRevoluteJoint",
    "AddPrismaticJoint", "CopyDictLevel1", "IIDiagMatrix", "CheckForValidUInt", "CheckForValidPInt",
    "CheckForValidUReal", "CheckForValidPReal", "IsValidNumber", "CheckForValidNumpyArray", "userFunctionArgsDict",
    "ObjectGroundGraphicsDataUserFunction", "ObjectRigidBodyGraphicsDataUserFunction",
    "ObjectRigidBody2DGraphicsDataUserFunction", "ObjectGenericODE2ForceUserFunction",
    "ObjectGenericODE2MassMatrixUserFunction", "ObjectGenericODE2JacobianUserFunction",
    "ObjectGenericODE2GraphicsDataUserFunction", "ObjectGenericODE1RhsUserFunction",
    "ObjectKinematicTreeForceUserFunction", "ObjectFFRFForceUserFunction", "ObjectFFRFMassMatrixUserFunction",
    "ObjectFFRFreducedOrderForceUserFunction", "ObjectFFRFreducedOrderMassMatrixUserFunction",
    "ObjectANCFCable2DAxialForceUserFunction", "ObjectANCFCable2DBendingMomentUserFunction",
    "ObjectConnectorSpringDamperSpringForceUserFunction",
    "ObjectConnectorCartesianSpringDamperSpringForceUserFunction",
    "ObjectConnectorRigidBodySpringDamperSpringForceTorqueUserFunction",
    "ObjectConnectorRigidBodySpringDamperPostNewtonStepUserFunction",
    "ObjectConnectorLinearSpringDamperSpringForceUserFunction",
    "ObjectConnectorTorsionalSpringDamperSpringTorqueUserFunction",
    "ObjectConnectorCoordinateSpringDamperSpringForceUserFunction",
    "ObjectConnectorCoordinateSpringDamperExtSpringForceUserFunction",
    "ObjectConnectorCoordinateOffsetUserFunction", "ObjectConnectorCoordinateOffsetUserFunction_t",
    "ObjectConnectorCoordinateVectorConstraintUserFunction", "ObjectConnectorCoordinateVectorJacobianUserFunction",
    "ObjectJointGenericOffsetUserFunction", "ObjectJointGenericOffsetUserFunction_t",
    "LoadForceVectorLoadVectorUserFunction", "LoadTorqueVectorLoadVectorUserFunction",
    "LoadMassProportionalLoadVectorUserFunction", "LoadCoordinateLoadUserFunction",
    "SensorUserFunctionSensorUserFunction", "NodePoint2D", "Point2D", "NodeRigidBodyRxyz", "RigidRxyz",
    "NodeRigidBodyRotVecLG", "RigidRotVecLG", "NodeRigidBody2D", "Rigid2D", "Node1D", "NodePoint2DSlope1",
    "Point2DS1", "NodePointSlope1", "NodePointSlope12", "NodePointSlope23", "NodeGenericODE2", "NodeGenericODE1",
    "NodeGenericAE", "NodeGenericData", "ObjectMassPoint", "MassPoint", "ObjectMassPoint2D", "MassPoint2D",
    "ObjectMass1D", "Mass1D", "ObjectRotationalMass1D", "Rotor1D", "ObjectRigidBody2D", "RigidBody2D",
    "ObjectGenericODE2", "ObjectGenericODE1", "ObjectKinematicTree", "KinematicTree", "ObjectFFRFreducedOrder",
    "CMSobject", "ObjectANCFCable", "Cable", "ObjectANCFCable2D", "Cable2D", "ObjectALEANCFCable2D", "ALECable2D",
    "ObjectANCFBeam", "ANCFBeam", "ObjectBeamGeometricallyExact2D", "Beam2D", "ObjectBeamGeometricallyExact",
    "Beam3D", "ObjectANCFThinPlate", "ObjectConnectorSpringDamper", "SpringDamper",
    "ObjectConnectorRigidBodySpringDamper", "RigidBodySpringDamper", "ObjectConnectorLinearSpringDamper",
    "LinearSpringDamper", "ObjectConnectorTorsionalSpringDamper", "TorsionalSpringDamper",
    "ObjectConnectorCoordinateSpringDamper", "CoordinateSpringDamper", "ObjectConnectorCoordinateSpringDamperExt",
    "CoordinateSpringDamperExt", "ObjectConnectorGravity", "ConnectorGravity",
    "ObjectConnectorHydraulicActuatorSimple", "HydraulicActuatorSimple", "ObjectConnectorReevingSystemSprings",
    "ReevingSystemSprings", "ObjectConnectorDistance", "DistanceConstraint", "ObjectConnectorRollingDiscPenalty",
    "RollingDiscPenalty", "ObjectContactConvexRoll", "ObjectContactCoordinate", "ObjectContactCircleCable2D",
    "ObjectContactFrictionCircleCable2D", "ObjectContactSphereSphere", "ObjectContactSphereTorus",
    "ObjectContactSphereTriangle", "ObjectContactCurveCircles", "CamFollowerContactPlanar", "ObjectJointGeneric",
    "GenericJoint", "ObjectJointRevoluteZ", "RevoluteJointZ", "ObjectJointPrismaticX", "PrismaticJointX",
    "ObjectJointRollingDisc", "RollingDiscJoint", "ObjectJointRevolute2D", "RevoluteJoint2D",
    "ObjectJointPrismatic2D", "PrismaticJoint2D", "ObjectJointSliding", "SlidingJoint", "ObjectJointSliding2D",
    "SlidingJoint2D", "ObjectJointALEMoving2D", "ALEMovingJoint2D", "MarkerBodyMass", "MarkerNodeODE1Coordinate",
    "MarkerNodeRotationCoordinate", "MarkerBodiesRelativeTranslationCoordinate",
    "MarkerBodiesRelativeRotationCoordinate", "MarkerSuperElementRigid", "MarkerKinematicTreeRigid",
    "MarkerBodyCable2DShape", "MarkerBodyCable2DCoordinates", "MarkerBodyBeamShape", "LoadMassProportional",
    "Gravity", "SensorKinematicTree", "SensorMarker", "SensorLoad", "SensorUserFunction",
] if name not in SUPPORTED]


# The visualization classes of out-of-scope items are placeholders too, so that a script building one
# (``ObjectContactX(..., visualization=VObjectContactX(...))``) is refused with the scope, not a NameError.
UNSUPPORTED_NAMES += ["V" + name for name in UNSUPPORTED_NAMES
                      if name[:1].isupper() and out_of_scope(name) and "UserFunction" not in name
                      and name != "TreeLink"]                        # a helper class, not an item
globals().update({name: Unsupported(name, "exudyn.utilities", SUPPORTED) for name in UNSUPPORTED_NAMES})

__all__ = SUPPORTED + UNSUPPORTED_NAMES


__getattr__ = module_getattr("floatframe.exudyn.utilities", SUPPORTED)
