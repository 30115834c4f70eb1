"""Name look-up with helpful errors, and the enumerations scripts use (OutputVariableType, ...)."""
from __future__ import annotations

import difflib

from floatframe.errors import ModelError


class ExudynLayerError(ModelError):
    """Bad input to the Exudyn-compatible layer; the message names the item and the fault (a ModelError, so a
    ValueError)."""


def closest(name: str, candidates) -> str:
    """`` (closest supported name: 'X')`` or an empty string."""
    match = difflib.get_close_matches(str(name), list(candidates), n=1, cutoff=0.5)
    return f" (closest supported name: '{match[0]}')" if match else ""


# Exudyn features outside floatframe's scope (docs/exudyn.md, "Out of scope"): a name pattern and the scope it names
OUT_OF_SCOPE = [
    ("beams as bodies (ANCF cables and beams, geometrically exact beams, ALE cables, thin plates)",
     ("ANCF", "Cable", "Beam", "Slope", "Point2DS1", "JointSliding", "SlidingJoint", "ALEMoving")),
    ("contact (contact objects, general contact, rolling discs)",
     ("Contact", "RollingDisc", "GeneralContact", "CamFollower", "machines")),
    ("kinematic trees", ("KinematicTree", "JointType", "TreeLink")),
    ("hydraulics", ("Hydraulic",)),
    ("reeving systems and ropes", ("ReevingSystem",)),
    ("rendering (images of the scene from Exudyn's OpenGL renderer or ray tracer, which floatframe does not have: "
     "it exports for ParaView)",
     ("RedrawAndGetImage",)),
]


def out_of_scope(name: str) -> str:
    """``; <scope>: outside floatframe's scope (...)`` for an Exudyn name of an out-of-scope feature, else ''."""
    for scope, patterns in OUT_OF_SCOPE:
        if any(pattern in str(name) for pattern in patterns):
            return f"; {scope}: outside floatframe's scope (docs/exudyn.md, 'Out of scope')"
    return ""


def unknown(what: str, name: str, candidates, owner: str = "") -> ExudynLayerError:
    prefix = f"{owner}: " if owner else ""
    return ExudynLayerError(f"{prefix}unknown {what} '{name}'{closest(name, candidates)}")


class NamedValue:
    """One member of an enumeration: compares equal to itself, its name and its number."""

    def __init__(self, enumeration: str, name: str, value: int):
        self.enumeration, self.name, self.value = enumeration, name, value

    def __repr__(self):
        return f"{self.enumeration}.{self.name}"

    __str__ = __repr__

    def __int__(self):
        return self.value

    def __index__(self):
        return self.value

    def __hash__(self):
        return hash((self.enumeration, self.name))

    def __eq__(self, other):
        if isinstance(other, NamedValue):
            return (self.enumeration, self.name) == (other.enumeration, other.name)
        if isinstance(other, str):
            return other == self.name
        return other == self.value


class _EnumerationMeta(type):
    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise unknown(f"{cls.__name__}", name, cls.__members__)

    def __iter__(cls):
        return iter(cls.__members__.values())


def enumeration(class_name: str, names: list[str]) -> type:
    """A class whose attributes are the given names as :class:`NamedValue` (numbered from 0)."""
    members = {name: NamedValue(class_name, name, number) for number, name in enumerate(names)}
    namespace = dict(members, __members__=members, __doc__=f"Exudyn's {class_name} (names only).")
    return _EnumerationMeta(class_name, (), namespace)


def member_name(value, enum_class, owner: str, what: str) -> str:
    """Name of an enumeration value given as member, name string or number."""
    members = enum_class.__members__
    if isinstance(value, NamedValue):
        return value.name
    if isinstance(value, str):
        if value not in members:
            raise unknown(what, value, members, owner)
        return value
    name = getattr(value, "name", None)  # members of the real exudyn enumerations
    if isinstance(name, str) and name in members:
        return name
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ExudynLayerError(f"{owner}: {what} must be a {enum_class.__name__}, got {value!r}") from None
    for member in members.values():
        if member.value == number:
            return member.name
    raise ExudynLayerError(f"{owner}: {what} number {number} does not exist in {enum_class.__name__}")


OutputVariableType = enumeration("OutputVariableType", [
    "_None", "Distance", "Position", "Displacement", "DisplacementLocal", "Velocity", "VelocityLocal",
    "Acceleration", "AccelerationLocal", "RotationMatrix", "Rotation", "AngularVelocity", "AngularVelocityLocal",
    "AngularAcceleration", "AngularAccelerationLocal", "CoordinatesTotal", "Coordinates", "Coordinates_t",
    "Coordinates_tt", "SlidingCoordinate", "Director1", "Director2", "Director3", "Force", "ForceLocal", "Torque",
    "TorqueLocal", "StrainLocal", "StressLocal", "CurvatureLocal", "ConstraintEquation", "KineticEnergy",
    "PotentialEnergy", "HomogeneousTransformation", "HomogeneousTransformationLocal"])

ConfigurationType = enumeration("ConfigurationType", [
    "_None", "Initial", "Current", "Reference", "StartOfStep", "Visualization", "EndOfEnumList"])

DynamicSolverType = enumeration("DynamicSolverType", [
    "_None", "GeneralizedAlpha", "TrapezoidalIndex2", "ExplicitEuler", "ExplicitMidpoint", "RK33", "RK44", "RK67",
    "ODE23", "DOPRI5", "DVERK6", "VelocityVerlet"])

LinearSolverType = enumeration("LinearSolverType", ["_None", "EXUdense", "EigenSparse", "EigenSparseSymmetric",
                                                     "EigenDense", "Dense"])

ItemType = enumeration("ItemType", ["_None", "Node", "Object", "Marker", "Load", "Sensor"])
