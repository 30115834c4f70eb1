"""The table of supported Exudyn items: each one's class, its translation and its output variables.

One entry per item, written as a ``@register(...)`` on its translation function:

- the class: family (node, object, marker, load, sensor), Exudyn's type string (the value of
  ``objectType``/``nodeType``/... in an item dict), the parameters with their default values, the
  deprecated Exudyn spellings (accepted with a DeprecationWarning naming the current one) and
  Exudyn's short alias (``RigidBody`` for ObjectRigidBody);
- the translation: the function decorated, ``(item, number, mbs) -> floatframe component``;
- the output variables per access (``node``, ``object``, ``body``, ``superElement``; see
  :mod:`floatframe.exudyn._translate`), used by the ``GetXOutput`` functions and the sensors;
  sensors name their target instead (family, parameter and access).

Adding an item is adding an entry here. A kind that is not in the table is an error naming it and
the supported kinds; nothing falls through to another item. ``dict(item)`` gives the Exudyn-style
item dict; visualization entries are kept with the prefix ``V`` (e.g. ``VtriangleMesh``) for export.
"""
from __future__ import annotations

import copy
import warnings

import numpy as np

import floatframe.components as fc
from floatframe.components import planar
from floatframe.components.user_sensor import SensorFromRecord
from floatframe.components.fixed_mass_point import MassPointOnGround
from floatframe.components.nodes import NodeData
from floatframe.components import rigid_rxyz, rigid_rotation_vector
from floatframe.components.gravity_connector import GravityConnector
from floatframe.components.rotation_coordinate import (MarkerNodeRotationCoordinate as CoreRotationCoordinate,
                                                       VelocityCoordinateConstraint)
from floatframe.components.rotational_mass import MarkerBodyRigidRotor, ObjectRotationalMass1D as CoreRotor
from floatframe.components.generic_ode2 import MarkerGenericODE2Position, ObjectGenericODE2 as CoreGenericODE2
from floatframe.components.ffrf_reduced import MODE_OUTPUTS
from floatframe.exudyn._names import ExudynLayerError, unknown
from floatframe.exudyn._post_newton import data_parameter
from floatframe.exudyn._translate import (call_traceable, check_unset, fe_matrix, is_unset, label,
                                          live_parameter_name, live_value, load_value, sensor_output, unsupported)
from floatframe.parameters import Input

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


def warn_deprecated(cls, name: str, stacklevel: int):
    """The layer's own DeprecationWarning for an Exudyn spelling that has a current name."""
    warnings.warn(f"{cls.__name__}: parameter '{name}' is a deprecated Exudyn name; use '{cls.deprecated[name]}'",
                  DeprecationWarning, stacklevel=stacklevel + 1)


class Item:
    """Base of the item classes; :func:`register` sets the class attributes below."""

    family = ""
    type_string = ""
    parameters: dict = {}      # name -> default value
    deprecated: dict = {}      # deprecated name -> current name
    ignored: tuple = ()        # accepted, computed by floatframe (e.g. ObjectFFRF's temporary matrices)
    short_name = None          # Exudyn's alias, e.g. 'RigidBody'
    outputs: dict = {}         # access ('node', 'object', 'body', 'superElement') -> output variable names
    live: tuple = ()           # parameters Set...Parameter changes without re-assembly, also during a solve
    target = None              # sensors: (family, parameter, access) of what they measure

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
                warn_deprecated(type(self), key, stacklevel=2)
                values[self.deprecated[key]] = value
            elif key.startswith("V") and len(key) > 1:
                self.visualization[key[1:]] = value
            else:
                raise unknown("parameter", key, [*self.parameters, *self.deprecated, "name", "visualization"],
                              type(self).__name__)
        self.values = values

    def available_outputs(self, access: str) -> tuple:
        """The output variables of this item through ``access``: those of its kind (``outputs``), and at mesh
        nodes the type of its output-variable modes where it has them (ObjectFFRFreducedOrder's
        outputVariableModeBasis with StressLocal or StrainLocal)."""
        available = tuple(self.outputs.get(access, ()))
        values = self.__dict__.get("values", {})
        if access == "superElement" and np.size(values.get("outputVariableModeBasis", [])):
            mode_output = str(values.get("outputVariableTypeModeBasis")).split(".")[-1]
            available += (mode_output,) if mode_output in MODE_OUTPUTS else ()
        return available

    @classmethod
    def current_name(cls, name: str, stacklevel: int = 1) -> str:
        """The current name of a parameter (a deprecated spelling warns)."""
        if name in cls.deprecated:
            warn_deprecated(cls, name, stacklevel + 1)
            return cls.deprecated[name]
        return name

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
            self.values[self.current_name(name, stacklevel=2)] = value
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


ITEM_CLASSES: list = []   # the table, in the order of registration


def register(class_name: str, family: str, type_string: str, parameters: dict, *, short: str | None = None,
             deprecated: dict | None = None, ignored=(), outputs: dict | None = None, target: tuple | None = None,
             live=(), doc: str = ""):
    """Make the item class ``class_name`` with the decorated function as its translation, and list it.

    ``live`` parameters are translated as core :class:`floatframe.Parameter` values (see
    :func:`live_value`), so that ``Set...Parameter`` changes them in the assembled system at once, also
    from a pre-step function during a solve, as in Exudyn.
    """
    def make(translation):
        cls = type(class_name, (Item,), dict(
            family=family, type_string=type_string, parameters=parameters, deprecated=deprecated or {},
            ignored=tuple(ignored), short_name=short, outputs=outputs or {}, target=target, live=tuple(live),
            translation=staticmethod(translation), __doc__=doc or f"Exudyn item {class_name}."))
        ITEM_CLASSES.append(cls)
        return cls
    return make


ZERO3 = [0.0, 0.0, 0.0]
SENSOR = dict(writeToFile=True, fileName="", outputVariableType=0, storeInternal=False)

NODE_OUTPUTS = ("Coordinates", "Coordinates_t", "Coordinates_tt", "CoordinatesTotal", "Position", "Displacement",
                "Velocity", "Acceleration")
RIGID_NODE_OUTPUTS = NODE_OUTPUTS + ("AngularVelocity", "AngularVelocityLocal", "AngularAcceleration", "Rotation",
                                     "RotationMatrix")
GROUND_OUTPUTS = ("Position", "Displacement", "Velocity", "AngularVelocity", "RotationMatrix")
RIGID_BODY_OUTPUTS = ("Position", "Displacement", "Velocity", "VelocityLocal", "Acceleration", "AccelerationLocal",
                      "AngularVelocity", "AngularVelocityLocal", "AngularAcceleration", "AngularAccelerationLocal",
                      "Rotation", "RotationMatrix")
# SensorMarker's variables per kind of marker, as exudyn 1.13.6 accepts them
POSITION_MARKER_OUTPUTS = ("Position", "Displacement", "Velocity")
RIGID_MARKER_OUTPUTS = POSITION_MARKER_OUTPUTS + ("Rotation", "RotationMatrix", "AngularVelocity", "AngularVelocityLocal",
                                                  "HomogeneousTransformation")
COORDINATE_MARKER_OUTPUTS = ("Coordinates", "Coordinates_t")
FFRF_OUTPUTS = ("Coordinates", "Coordinates_t", "Coordinates_tt", "Force")


# --- nodes ----------------------------------------------------------------------------------------
@register("NodePoint", "node", "Point", dict(
    referenceCoordinates=ZERO3, initialCoordinates=ZERO3, initialVelocities=ZERO3), short="Point",
    outputs=dict(node=NODE_OUTPUTS))
def NodePoint(item, number, mbs):
    return fc.NodePoint(item.referenceCoordinates, item.initialCoordinates, item.initialVelocities, name=item.name)


@register("NodePointGround", "node", "PointGround", dict(referenceCoordinates=ZERO3), short="PointGround",
          outputs=dict(node=NODE_OUTPUTS))
def NodePointGround(item, number, mbs):
    return fc.NodePointGround(item.referenceCoordinates, name=item.name)


@register("NodeRigidBodyEP", "node", "RigidBodyEP", dict(
    referenceCoordinates=[0.0] * 7, initialCoordinates=[0.0] * 7, initialVelocities=[0.0] * 7,
    addConstraintEquation=True), short="RigidEP", outputs=dict(node=RIGID_NODE_OUTPUTS))
def NodeRigidBodyEP(item, number, mbs):
    if not item.addConstraintEquation:
        raise unsupported(item, number, "addConstraintEquation", "is not supported: the Euler-parameter "
                          "constraint is always added")
    return fc.NodeRigidBodyEP(item.referenceCoordinates, item.initialCoordinates, item.initialVelocities,
                              name=item.name, unit_form=True)   # Exudyn's A_E, point velocities and forces


@register("NodeRigidBodyRxyz", "node", "RigidBodyRxyz", dict(
    referenceCoordinates=[0.0] * 6, initialCoordinates=[0.0] * 6, initialVelocities=[0.0] * 6), short="RigidRxyz",
    outputs=dict(node=RIGID_NODE_OUTPUTS))
def NodeRigidBodyRxyz(item, number, mbs):
    return rigid_rxyz.NodeRigidBodyRxyz(item.referenceCoordinates, item.initialCoordinates, item.initialVelocities,
                                        name=item.name)


@register("NodeGenericODE2", "node", "GenericODE2", dict(
    referenceCoordinates=[], initialCoordinates=[], initialCoordinates_t=[], numberOfODE2Coordinates=0),
    outputs=dict(node=("Coordinates", "Coordinates_t", "Coordinates_tt", "CoordinatesTotal")))
def NodeGenericODE2(item, number, mbs):
    size = int(item.numberOfODE2Coordinates)
    given = {name: np.asarray(getattr(item, name), dtype=float).reshape(-1)
             for name in ("referenceCoordinates", "initialCoordinates", "initialCoordinates_t")}
    for name, value in given.items():
        if value.size not in (0, size):
            raise unsupported(item, number, name, f"has {value.size} entries, but numberOfODE2Coordinates is {size}")
    reference, initial, rates = (value if value.size else np.zeros(size) for value in given.values())
    return fc.NodeGenericODE2(reference, initial, rates, name=item.name)


# --- bodies ---------------------------------------------------------------------------------------
def homogeneous_parts(item, number, parameter):
    """(translation, rotation) of a homogeneous transformation parameter (localHT, referenceHT): a 4x4 matrix,
    its 16 values row by row, or an object with ``rotation`` and ``translation`` (exu.HT); (None, None) if unset."""
    value = getattr(item, parameter)
    if value is None:
        return None, None
    if hasattr(value, "rotation") and hasattr(value, "translation"):
        return np.asarray(value.translation, dtype=float).reshape(-1), np.asarray(value.rotation, dtype=float)
    array = np.asarray(value, dtype=float)
    if array.shape not in ((4, 4), (16,)):
        raise unsupported(item, number, parameter, f"must be a 4 x 4 homogeneous transformation or its 16 values, "
                          f"got shape {array.shape}")
    array = array.reshape(4, 4)
    if not np.allclose(array[3], [0, 0, 0, 1]):
        raise unsupported(item, number, parameter, "is not a homogeneous transformation: its last row must be "
                          "[0, 0, 0, 1]")
    return array[:3, 3], array[:3, :3]


def frame_parameters(item, number, ht_parameter, position_parameter, rotation_parameter=None):
    """(position, rotation) from an item's HT parameter and its separate parts (Exudyn: given together, they
    must agree); parts not given are zero and the identity."""
    translation, rotation = homogeneous_parts(item, number, ht_parameter)
    given = {position_parameter: (translation, np.zeros(3))}
    if rotation_parameter is not None:
        given[rotation_parameter] = (rotation, np.eye(3))
    parts = []
    for name, (from_ht, default) in given.items():
        value = getattr(item, name)
        if value is not None and from_ht is not None and not np.allclose(np.asarray(value, dtype=float), from_ht,
                                                                         rtol=0, atol=1e-14):
            raise unsupported(item, number, name, f"disagrees with {ht_parameter}, which gives {from_ht.tolist()}")
        parts.append(np.asarray(value if value is not None else from_ht if from_ht is not None else default,
                                dtype=float))
    if rotation_parameter is None:
        parts.append(np.eye(3) if rotation is None else rotation)
    return parts[0], parts[1]


def core_rotation(item, number, parameter, rotation):
    """A rotation for a core component; a matrix that is not one is refused naming the item's parameter."""
    orthogonality = np.abs(rotation.T @ rotation - np.eye(3)).max()
    if orthogonality > 1e-10 or np.linalg.det(rotation) < 0:
        raise ExudynLayerError(f"{label(item, number)}: {parameter} must be a rotation matrix (R^T R = I, det R = 1), "
                               f"got {rotation.tolist()}")
    return rotation


@register("ObjectGround", "object", "Ground", dict(referencePosition=None, referenceRotation=None, referenceHT=None),
          outputs=dict(body=GROUND_OUTPUTS))
def ObjectGround(item, number, mbs):
    position, rotation = frame_parameters(item, number, "referenceHT", "referencePosition", "referenceRotation")
    return fc.ObjectGround(position, core_rotation(item, number, "referenceRotation", rotation), name=item.name)


@register("ObjectRigidBody", "object", "RigidBody", dict(mass=0.0, inertia=[0.0] * 6, centerOfMass=ZERO3,
                                                          nodeNumber=-1), short="RigidBody",
          deprecated=dict(physicsMass="mass", physicsInertia="inertia", physicsCenterOfMass="centerOfMass"),
          outputs=dict(body=RIGID_BODY_OUTPUTS))
def ObjectRigidBody(item, number, mbs):
    """Exudyn's rigid body on an Euler-parameter, Rxyz or rotation-vector node. An inertia that breaks the triangle
    inequality of its principal values is simulated with a warning, as Exudyn does (a negative one is refused)."""
    arguments = (item.nodeNumber, item.mass, item.inertia, item.centerOfMass)
    node_type = _target_type(mbs, "node", item.nodeNumber, item, number, "nodeNumber")
    if node_type == "RigidBodyRxyz":
        return rigid_rxyz.ObjectRigidBodyRxyz(*arguments, name=item.name, broken_triangle="warn")
    if node_type == "RigidBodyRotVecLG":
        return rigid_rotation_vector.ObjectRigidBodyRotationVector(*arguments, name=item.name, broken_triangle="warn")
    return fc.ObjectRigidBody(*arguments, name=item.name, broken_triangle="warn")


@register("ObjectMassPoint", "object", "MassPoint", dict(mass=0.0, nodeNumber=-1), short="MassPoint",
          deprecated=dict(physicsMass="mass"),
          outputs=dict(body=("Position", "Displacement", "Velocity", "Acceleration")))
def ObjectMassPoint(item, number, mbs):
    if _target_type(mbs, "node", item.nodeNumber, item, number, "nodeNumber") == "PointGround":   # as Exudyn
        return MassPointOnGround(item.nodeNumber, item.mass, name=item.name)
    return fc.ObjectMassPoint(item.nodeNumber, item.mass, name=item.name)


@register("Node1D", "node", "1D", dict(referenceCoordinates=[0.0], initialCoordinates=[0.0], initialVelocities=[0.0]),
          outputs=dict(node=("Coordinates", "Coordinates_t", "Coordinates_tt", "CoordinatesTotal")))
def Node1D(item, number, mbs):
    return fc.Node1D(item.referenceCoordinates, item.initialCoordinates, item.initialVelocities, name=item.name)


@register("ObjectMass1D", "object", "Mass1D", dict(mass=0.0, nodeNumber=-1, referencePosition=ZERO3,
                                                    referenceRotation=np.eye(3).tolist()), short="Mass1D",
          deprecated=dict(physicsMass="mass"),
          outputs=dict(body=("Position", "Displacement", "Velocity", "RotationMatrix", "Rotation", "AngularVelocity",
                             "AngularVelocityLocal")))
def ObjectMass1D(item, number, mbs):
    rotation = core_rotation(item, number, "referenceRotation", np.asarray(item.referenceRotation, dtype=float))
    return fc.ObjectMass1D(item.nodeNumber, item.mass, item.referencePosition, rotation, name=item.name)


@register("ObjectFFRF", "object", "FFRF", dict(
    nodeNumbers=[], massMatrixFF=None, stiffnessMatrixFF=None, dampingMatrixFF=None, forceVector=[],
    forceUserFunction=0, massMatrixUserFunction=0, computeFFRFterms=True, objectIsInitialized=False),
    ignored=("physicsMass", "physicsInertia", "physicsCenterOfMass", "mass", "inertia", "centerOfMass",
             "coordinateIndexPerNode", "PHItTM", "referencePositions", "tempVector", "tempCoordinates",
             "tempCoordinates_t", "tempRefPosSkew", "tempVelSkew"),
    outputs=dict(object=FFRF_OUTPUTS, body=FFRF_OUTPUTS, superElement=fc.ObjectFFRF.mesh_outputs))
def ObjectFFRF(item, number, mbs):
    force = None if is_unset(item.forceUserFunction) else item.forceUserFunction
    mass = None if is_unset(item.massMatrixUserFunction) else item.massMatrixUserFunction
    return fc.ObjectFFRF(item.nodeNumbers, fe_matrix(item.massMatrixFF), fe_matrix(item.stiffnessMatrixFF),
                         fe_matrix(item.dampingMatrixFF), item.forceVector, force_user_function=force,
                         mass_matrix_user_function=mass, compute_ffrf_terms=item.computeFFRFterms, name=item.name)


REDUCED_ORDER_MATRICES = dict(mPsiTildePsi="psi_tilde_psi", mPsiTildePsiTilde="psi_tilde_psi_tilde",
                              mPhitTPsi="phit_t_psi", mPhitTPsiTilde="phit_t_psi_tilde",
                              mXRefTildePsi="xref_tilde_psi", mXRefTildePsiTilde="xref_tilde_psi_tilde")


@register("ObjectFFRFreducedOrder", "object", "FFRFreducedOrder", dict(
    nodeNumbers=[], massMatrixReduced=None, stiffnessMatrixReduced=None, dampingMatrixReduced=None,
    forceUserFunction=0, massMatrixUserFunction=0, computeFFRFterms=True, modeBasis=[], outputVariableModeBasis=[],
    outputVariableTypeModeBasis=0, referencePositions=[], objectIsInitialized=False, mass=0.0,
    inertia=[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], centerOfMass=ZERO3,
    **{name: [] for name in REDUCED_ORDER_MATRICES}), short="CMSobject",
    deprecated=dict(physicsMass="mass", physicsInertia="inertia", physicsCenterOfMass="centerOfMass"),
    ignored=("centerOfMassTilde", "physicsCenterOfMassTilde", "tempUserFunctionForce"),
    outputs=dict(object=FFRF_OUTPUTS, body=FFRF_OUTPUTS, superElement=fc.ObjectFFRFReducedOrder.mesh_outputs))
def ObjectFFRFreducedOrder(item, number, mbs):
    output_modes, output_type = None, None
    if np.size(item.outputVariableModeBasis):
        output_type = str(item.outputVariableTypeModeBasis).split(".")[-1]
        if output_type not in MODE_OUTPUTS:
            raise unsupported(item, number, "outputVariableTypeModeBasis", f"must be one of {MODE_OUTPUTS} with "
                              f"outputVariableModeBasis, got {item.outputVariableTypeModeBasis!r}")
        output_modes = np.asarray(item.outputVariableModeBasis, dtype=float)
    force = None if is_unset(item.forceUserFunction) else item.forceUserFunction
    mass = None if is_unset(item.massMatrixUserFunction) else item.massMatrixUserFunction
    what = f"ObjectFFRFreducedOrder {number}" + (f" '{item.name}'" if item.name else "")
    missing = [name for name in REDUCED_ORDER_MATRICES if not np.size(getattr(item, name))]
    if missing:
        raise unsupported(item, number, missing[0], "is required (with " + ", ".join(REDUCED_ORDER_MATRICES) +
                          "): ObjectFFRFreducedOrderInterface computes them")
    damping = fe_matrix(item.dampingMatrixReduced)
    invariants = fc.ReducedOrderInvariants.validated(   # a rigid-body mode: allowed where the frame is held
        what, rigid_motion="defer", mode_basis=item.modeBasis, reference_positions=item.referencePositions,
        mass_reduced=fe_matrix(item.massMatrixReduced), stiffness_reduced=fe_matrix(item.stiffnessMatrixReduced),
        damping_reduced=None if damping is None or not np.size(damping) else damping, mass=item.mass,
        inertia=item.inertia, center_of_mass=item.centerOfMass,
        **{field: getattr(item, name) for name, field in REDUCED_ORDER_MATRICES.items()})
    return fc.ObjectFFRFReducedOrder(item.nodeNumbers, invariants, force_user_function=force,
                                     mass_matrix_user_function=mass, compute_ffrf_terms=item.computeFFRFterms,
                                     output_variable_modes=output_modes, output_variable_type=output_type,
                                     gravity_moment="undeformed", name=item.name,   # Exudyn's gravity lever: m chi
                                     frame_rate_terms=not item.computeFFRFterms)   # as Exudyn's own FFRF terms


# --- connectors -----------------------------------------------------------------------------------
@register("ObjectConnectorCoordinate", "object", "ConnectorCoordinate", dict(
    markerNumbers=[-1, -1], offset=0.0, factor1=1.0, velocityLevel=False, offsetUserFunction=0,
    offsetUserFunction_t=0, activeConnector=True), short="CoordinateConstraint",
    deprecated=dict(factorValue1="factor1"), live=("offset", "factor1"),
    outputs=dict(object=("Displacement", "Velocity", "Force")))
def ObjectConnectorCoordinate(item, number, mbs):
    """With a MarkerNodeRotationCoordinate (velocityLevel only), or at velocity level with offsetUserFunction_t: the
    core's VelocityCoordinateConstraint, which imposes Exudyn's velocity row through an auxiliary coordinate
    (floatframe.components.rotation_coordinate); otherwise the core's CoordinateConstraint (at velocity level with a
    constant offset its integral from the initial state, which equals Exudyn's row)."""
    kinds = [_target_type(mbs, "marker", marker, item, number, f"markerNumbers[{i}]")
             for i, marker in enumerate(item.markerNumbers)]
    if "NodeRotationCoordinate" in kinds or (item.velocityLevel and not is_unset(item.offsetUserFunction_t)):
        if not item.velocityLevel:
            raise unsupported(item, number, "velocityLevel", f"must be True with a MarkerNodeRotationCoordinate: "
                                                             f"{ROTATION_COORDINATE_REASON}")
        return VelocityCoordinateConstraint(item.markerNumbers, _rate_offset(item, number, mbs),
                                            live_value(item, number, "factor1"), name=item.name,
                                            active=item.activeConnector)
    return fc.CoordinateConstraint(item.markerNumbers, _coordinate_offset(item, number, mbs),
                                   live_value(item, number, "factor1"), name=item.name,
                                   velocity_level=item.velocityLevel, active=item.activeConnector)


def _rate_offset(item, number, mbs):
    """The velocity-level offset of an ObjectConnectorCoordinate as a rate: offsetUserFunction_t(mbs, t, itemNumber,
    offset) if set (as Exudyn 1.13.6's velocity row), else the live offset."""
    function = item.offsetUserFunction_t
    if is_unset(function):
        return live_value(item, number, "offset")
    nominal = float(item.offset)
    return Input(live_parameter_name(item, number, "offsetUserFunction_t"), 1,
                 signal=lambda t: function(mbs, t, number, nominal))


def _coordinate_offset(item, number, mbs):
    """The offset of an ObjectConnectorCoordinate as Exudyn 1.13.6 uses it: on position level
    offsetUserFunction(mbs, t, itemNumber, offset) if set (offsetUserFunction_t unused), else the live offset; at
    velocity level (without offsetUserFunction_t, which ``_rate_offset`` takes) the live offset."""
    function = item.offsetUserFunction
    if item.velocityLevel or is_unset(function):
        return live_value(item, number, "offset")
    nominal = float(item.offset)
    return Input(live_parameter_name(item, number, "offsetUserFunction"), 1,
                 signal=lambda t: function(mbs, t, number, nominal))


@register("ObjectConnectorCoordinateVector", "object", "ConnectorCoordinateVector", dict(
    markerNumbers=[-1, -1], scalingMarker0=[], scalingMarker1=[], quadraticTermMarker0=[], quadraticTermMarker1=[],
    offset=[], velocityLevel=False, constraintUserFunction=0, jacobianUserFunction=0, activeConnector=True),
    short="CoordinateVectorConstraint")
def ObjectConnectorCoordinateVector(item, number, mbs):
    check_unset(item, number, "quadraticTermMarker0", "quadraticTermMarker1", "constraintUserFunction",
                "jacobianUserFunction")
    return fc.CoordinateVectorConstraint(item.markerNumbers, np.asarray(item.scalingMarker0, dtype=float),
                                         np.asarray(item.scalingMarker1, dtype=float), item.offset, name=item.name,
                                         velocity_level=item.velocityLevel, active=item.activeConnector)


@register("ObjectConnectorCartesianSpringDamper", "object", "ConnectorCartesianSpringDamper", dict(
    markerNumbers=[-1, -1], stiffness=ZERO3, damping=ZERO3, offset=ZERO3, springForceUserFunction=0,
    activeConnector=True), short="CartesianSpringDamper", outputs=dict(object=("Force", "Displacement", "Velocity")),
    live=("stiffness", "damping", "offset", "activeConnector"))
def ObjectConnectorCartesianSpringDamper(item, number, mbs):
    return fc.CartesianSpringDamper(item.markerNumbers, *(live_value(item, number, name)
                                                          for name in ("stiffness", "damping", "offset")),
                                    force_user_function=spring_user_function(
                                        item, number, mbs, "springForceUserFunction",
                                        ("stiffness", "damping", "offset")),
                                    active=live_value(item, number, "activeConnector"), name=item.name,
                                    allow_negative=True)  # Exudyn accepts negative stiffness and damping here


@register("ObjectConnectorCoordinateSpringDamper", "object", "ConnectorCoordinateSpringDamper", dict(
    markerNumbers=[-1, -1], stiffness=0.0, damping=0.0, offset=0.0, activeConnector=True, springForceUserFunction=0),
    short="CoordinateSpringDamper", outputs=dict(object=("Force", "Displacement", "Velocity")),
    live=("stiffness", "damping", "offset", "activeConnector"))
def ObjectConnectorCoordinateSpringDamper(item, number, mbs):
    return fc.CoordinateSpringDamper(item.markerNumbers, *(live_value(item, number, name)
                                                           for name in ("stiffness", "damping", "offset")),
                                     force_user_function=spring_user_function(
                                         item, number, mbs, "springForceUserFunction",
                                         ("stiffness", "damping", "offset")),
                                     active=live_value(item, number, "activeConnector"), name=item.name,
                                     allow_negative=True)  # as Exudyn, which accepts negative values here


# springs: ObjectConnectorSpringDamper, ObjectConnectorDistance, ObjectConnectorRigidBodySpringDamper,
# ObjectConnectorTorsionalSpringDamper; user functions of the spring-dampers
def spring_user_function(item, number, mbs, parameter, copied):
    """An Exudyn spring user function UF(mbs, t, itemNumber, *quantities, *copied parameters) as the core's
    f(t, *quantities); the copied parameters are the item's values when the system is assembled."""
    function = getattr(item, parameter)
    if is_unset(function):
        return None
    values = [_user_function_value(getattr(item, name)) for name in copied]

    def core_function(t, *quantities):
        # vectors as Exudyn passes them: lists of floats (symbols stay symbols while the function is traced)
        quantities = [x.tolist() if isinstance(x, np.ndarray) else x for x in quantities]
        return call_traceable(mbs, function, t, number, *quantities, *values)
    return core_function


def _user_function_value(value):
    """A parameter as Exudyn hands it to user functions: a float, or a list (of lists) of floats."""
    array = np.asarray(value, dtype=float)
    return float(array) if array.ndim == 0 else array.tolist()


def _rotation_markers(item, number):
    """(rotationMarker0, rotationMarker1) of a connector with joint frames, each checked to be a rotation; one
    other than the identity warns as Exudyn 1.13.6 does (deprecated since 1.12.244: the marker's localHT)."""
    rotations = []
    for i in range(2):
        parameter = f"rotationMarker{i}"
        value = np.asarray(getattr(item, parameter), dtype=float)
        if value.shape != (3, 3):
            raise unsupported(item, number, parameter, "must be a 3 x 3 rotation matrix")
        rotations.append(core_rotation(item, number, parameter, value))
        if not np.array_equal(value, np.eye(3)):
            warnings.warn(f"{label(item, number)}: parameter '{parameter}' is deprecated in Exudyn since 1.12.244; "
                          f"give the rotation to marker {i} as its localHT", DeprecationWarning, stacklevel=3)
    return rotations


def _no_data_node(item, number, reason):
    if _data_node(item) is not None:
        raise unsupported(item, number, "nodeNumber", f"is not supported: {reason}")


def _data_node(item):
    """The item's nodeNumber, or None for Exudyn's invalid index (-1)."""
    return None if item.nodeNumber is None or int(item.nodeNumber) == -1 else int(item.nodeNumber)


@register("NodeGenericData", "node", "GenericData", dict(initialCoordinates=[], numberOfDataCoordinates=0),
          outputs=dict(node=("Coordinates",)))
def NodeGenericData(item, number, mbs):
    """Exudyn's data node. As the turn counter of one TorsionalSpringDamper or one
    MarkerBodiesRelativeRotationCoordinate: one coordinate without mass, kept on the continuous angle by a constraint
    of its user (a data coordinate in Exudyn's views, ``_coordinates``). Otherwise a node without DAE coordinates
    whose values the layer keeps and switches between Newton solves (``_post_newton``: sticking friction and limit
    stops of a CoordinateSpringDamperExt, a post-Newton user function)."""
    size = int(item.numberOfDataCoordinates)
    initial = np.asarray(item.initialCoordinates, dtype=float).reshape(-1)
    springs = [other for other in mbs.items("object") if other.type_string == "ConnectorTorsionalSpringDamper"
               and _data_node(other) == number]
    markers = [marker for marker in mbs.items("marker") if marker.type_string == "BodiesRelativeRotationCoordinate"
               and _data_node(marker) == number]
    if not springs and not markers:
        if size < 0 or initial.size not in (0, size):
            raise unsupported(item, number, "initialCoordinates", f"has {initial.size} values; "
                              f"numberOfDataCoordinates = {size} asks for that many (or none: zeros)")
        return NodeData(data_parameter(mbs, number), name=item.name) if size else \
            fc.NodePointGround([0.0, 0.0, 0.0], name=item.name)
    if size != 1 or initial.size not in (0, 1):
        raise unsupported(item, number, "numberOfDataCoordinates", "must be 1 for the turn counter of an "
                          "ObjectConnectorTorsionalSpringDamper or a MarkerBodiesRelativeRotationCoordinate")
    if len(springs) + len(markers) != 1:
        raise unsupported(item, number, "numberOfDataCoordinates", f"is used as the turn counter of "
                          f"{len(springs)} ObjectConnectorTorsionalSpringDamper and {len(markers)} "
                          f"MarkerBodiesRelativeRotationCoordinate; a data node serves exactly one turn counter")
    return fc.NodeGenericODE2([0.0], initial if initial.size else [0.0], name=item.name)


@register("ObjectConnectorSpringDamper", "object", "ConnectorSpringDamper", dict(
    markerNumbers=[-1, -1], referenceLength=0.0, stiffness=0.0, damping=0.0, force=0.0, velocityOffset=0.0,
    activeConnector=True, springForceUserFunction=0), short="SpringDamper",
    outputs=dict(object=("Distance", "Displacement", "Velocity", "Force", "ForceLocal")),
    live=("referenceLength", "stiffness", "damping", "force", "velocityOffset", "activeConnector"))
def ObjectConnectorSpringDamper(item, number, mbs):
    values = {name: live_value(item, number, name)
              for name in ("stiffness", "damping", "force", "referenceLength", "velocityOffset")}
    return fc.SpringDamper(item.markerNumbers, values["stiffness"], values["damping"], values["force"],
                           values["referenceLength"], velocity_offset=values["velocityOffset"],
                           force_user_function=spring_user_function(item, number, mbs, "springForceUserFunction",
                                                                    ("stiffness", "damping", "force")),
                           active=live_value(item, number, "activeConnector"), name=item.name)


@register("ObjectConnectorDistance", "object", "ConnectorDistance", dict(
    markerNumbers=[-1, -1], distance=0.0, activeConnector=True), short="DistanceConstraint",
    outputs=dict(object=("Displacement", "Velocity", "Distance", "Force")), live=("distance",))
def ObjectConnectorDistance(item, number, mbs):
    return fc.DistanceConstraint(item.markerNumbers, live_value(item, number, "distance"),
                                 active=bool(item.activeConnector), name=item.name)


@register("ObjectConnectorRigidBodySpringDamper", "object", "ConnectorRigidBodySpringDamper", dict(
    markerNumbers=[-1, -1], nodeNumber=-1, stiffness=np.zeros((6, 6)), damping=np.zeros((6, 6)),
    rotationMarker0=np.eye(3), rotationMarker1=np.eye(3), offset=[0.0] * 6, useIntrinsicFormulation=False,
    activeConnector=True, springForceTorqueUserFunction=0, postNewtonStepUserFunction=0),
    short="RigidBodySpringDamper", deprecated=dict(intrinsicFormulation="useIntrinsicFormulation"),
    outputs=dict(object=("DisplacementLocal", "VelocityLocal", "Rotation", "AngularVelocityLocal", "ForceLocal",
                         "TorqueLocal")), live=("offset", "activeConnector"))
def ObjectConnectorRigidBodySpringDamper(item, number, mbs):
    check_unset(item, number, "postNewtonStepUserFunction")
    _no_data_node(item, number, "it serves the postNewtonStepUserFunction, which is not supported")
    rotation0, rotation1 = _rotation_markers(item, number)
    return fc.RigidBodySpringDamper(item.markerNumbers, item.stiffness, item.damping, rotation0, rotation1,
                                    live_value(item, number, "offset"), intrinsic=bool(item.useIntrinsicFormulation),
                                    force_user_function=spring_user_function(
                                        item, number, mbs, "springForceTorqueUserFunction",
                                        ("stiffness", "damping", "rotationMarker0", "rotationMarker1", "offset")),
                                    active=live_value(item, number, "activeConnector"), name=item.name)


@register("ObjectConnectorTorsionalSpringDamper", "object", "ConnectorTorsionalSpringDamper", dict(
    markerNumbers=[-1, -1], nodeNumber=-1, stiffness=0.0, damping=0.0, rotationMarker0=np.eye(3),
    rotationMarker1=np.eye(3), offset=0.0, velocityOffset=0.0, torque=0.0, activeConnector=True,
    springTorqueUserFunction=0), short="TorsionalSpringDamper",
    outputs=dict(object=("Rotation", "AngularVelocityLocal", "TorqueLocal")),
    live=("stiffness", "damping", "offset", "velocityOffset", "torque", "activeConnector"))
def ObjectConnectorTorsionalSpringDamper(item, number, mbs):
    rotation0, rotation1 = _rotation_markers(item, number)
    values = {name: live_value(item, number, name) for name in ("stiffness", "damping", "offset", "velocityOffset",
                                                                 "torque")}
    return fc.TorsionalSpringDamper(item.markerNumbers, values["stiffness"], values["damping"], rotation0, rotation1,
                                    values["offset"], values["velocityOffset"], values["torque"],
                                    force_user_function=spring_user_function(
                                        item, number, mbs, "springTorqueUserFunction",
                                        ("stiffness", "damping", "offset")),
                                    active=live_value(item, number, "activeConnector"), turn_node=_data_node(item),
                                    name=item.name)


@register("ObjectJointSpherical", "object", "JointSpherical", dict(
    markerNumbers=[-1, -1], constrainedAxes=[1, 1, 1], activeConnector=True), short="SphericalJoint",
    outputs=dict(object=("Position", "Displacement", "Velocity", "Force")))
def ObjectJointSpherical(item, number, mbs):
    return fc.SphericalJoint(item.markerNumbers, item.constrainedAxes, name=item.name,
                             active=item.activeConnector)


# joints between rigid markers: ObjectJointGeneric, ObjectJointRevoluteZ, ObjectJointPrismaticX (parameters in
# Exudyn's order: they are also positional arguments)
JOINT = dict(markerNumbers=[-1, -1], rotationMarker0=np.eye(3), rotationMarker1=np.eye(3), activeConnector=True)
JOINT_OUTPUTS = dict(object=("Position", "Velocity", "DisplacementLocal", "VelocityLocal", "Rotation",
                             "AngularVelocityLocal", "ForceLocal", "TorqueLocal"))
RIGID_MARKERS = ("NodeRigid", "BodyRigid", "SuperElementRigid")


def _joint_frames(item, number, mbs):
    """(rotationMarker0, rotationMarker1) of a joint between two rigid markers, checked (see _rotation_markers);
    markers that give no orientation are refused naming the item."""
    markers = item.markerNumbers
    if not isinstance(markers, (list, tuple, np.ndarray)) or len(markers) != 2:
        raise unsupported(item, number, "markerNumbers", "must be a list of two marker numbers")
    for i, marker_number in enumerate(markers):
        marker = mbs.item("marker", marker_number, label(item, number), f"markerNumbers[{i}]")
        if marker.type_string not in RIGID_MARKERS:
            raise ExudynLayerError(f"{label(item, number)}: markerNumbers[{i}] = {marker_number} is a "
                                   f"{type(marker).__name__}, which gives no orientation; the joint needs rigid "
                                   f"markers ({', '.join('Marker' + kind for kind in RIGID_MARKERS)})")
    return _rotation_markers(item, number)


def _joint_offset(item, number, mbs):
    """The offset of an ObjectJointGeneric: zero, or its offsetUserFunction(mbs, t, itemNumber,
    offsetUserFunctionParameters) as a core Input of six values, evaluated at each time."""
    function = item.offsetUserFunction
    if is_unset(function):
        return np.zeros(6)
    parameters = np.asarray(item.offsetUserFunctionParameters, dtype=float).reshape(-1)
    if parameters.size != 6:
        raise unsupported(item, number, "offsetUserFunctionParameters", "must have 6 values")
    parameters = parameters.tolist()
    return Input(live_parameter_name(item, number, "offsetUserFunction"), 6,
                    signal=lambda t: function(mbs, t, number, parameters))


@register("ObjectJointGeneric", "object", "JointGeneric", dict(
    markerNumbers=[-1, -1], constrainedAxes=[1, 1, 1, 1, 1, 1], rotationMarker0=np.eye(3), rotationMarker1=np.eye(3),
    activeConnector=True, offsetUserFunctionParameters=[0.0] * 6, offsetUserFunction=0, offsetUserFunction_t=0,
    alternativeConstraints=False), short="GenericJoint", outputs=JOINT_OUTPUTS)
def ObjectJointGeneric(item, number, mbs):
    axes = np.asarray(item.constrainedAxes).reshape(-1)
    if axes.size != 6 or not all(value in (0, 1) for value in axes.tolist()):
        raise unsupported(item, number, "constrainedAxes", "must be six flags 0 (free) or 1 (constrained): "
                          "[x, y, z, rotation x, rotation y, rotation z] of the joint frame")
    if item.alternativeConstraints:
        raise unsupported(item, number, "alternativeConstraints", "is not supported: the rotation equations are "
                          "ObjectJointGeneric's standard ones (alternativeConstraints=False)")
    if not is_unset(item.offsetUserFunction_t):
        raise unsupported(item, number, "offsetUserFunction_t", "is not supported: the offset acts on position level "
                          "(Exudyn 1.13.6 does not implement offsetUserFunction_t either)")
    rotation0, rotation1 = _joint_frames(item, number, mbs)
    return fc.GenericJoint(item.markerNumbers, axes.tolist(), rotation0, rotation1, _joint_offset(item, number, mbs),
                           active=bool(item.activeConnector), name=item.name, velocity_form="exudyn")


@register("ObjectJointRevoluteZ", "object", "JointRevoluteZ", JOINT, short="RevoluteJointZ", outputs=JOINT_OUTPUTS)
def ObjectJointRevoluteZ(item, number, mbs):
    return fc.RevoluteJoint(item.markerNumbers, *_joint_frames(item, number, mbs), active=bool(item.activeConnector),
                            name=item.name, velocity_form="exudyn")


@register("ObjectJointPrismaticX", "object", "JointPrismaticX", JOINT, short="PrismaticJointX", outputs=JOINT_OUTPUTS)
def ObjectJointPrismaticX(item, number, mbs):
    return fc.PrismaticJoint(item.markerNumbers, *_joint_frames(item, number, mbs), active=bool(item.activeConnector),
                             name=item.name, velocity_form="exudyn")


@register("ObjectGenericODE2", "object", "GenericODE2", dict(
    nodeNumbers=[], massMatrix=None, stiffnessMatrix=None, dampingMatrix=None, forceVector=[], forceUserFunction=0,
    massMatrixUserFunction=0, jacobianUserFunction=0),
    outputs=dict(object=CoreGenericODE2.output_variables, superElement=NODE_OUTPUTS))
def ObjectGenericODE2(item, number, mbs):
    """jacobianUserFunction(mbs, t, itemNumber, q, q_t, fODE2, fODE2_t) (its MatrixContainer, array or sparse
    matrix: the left-hand side's derivative of the force user function's terms, as Exudyn) takes the place of the
    force user function's forward differences in the iteration matrix; it changes the iterations, not the solution.
    Without a forceUserFunction it has nothing to differentiate and is not called."""
    functions = {name: (None if is_unset(getattr(item, name)) else getattr(item, name))
                 for name in ("forceUserFunction", "massMatrixUserFunction", "jacobianUserFunction")}
    jacobian = functions["jacobianUserFunction"] if functions["forceUserFunction"] is not None else None
    return CoreGenericODE2(item.nodeNumbers, fe_matrix(item.massMatrix), fe_matrix(item.stiffnessMatrix),
                           fe_matrix(item.dampingMatrix), item.forceVector, functions["forceUserFunction"],
                           functions["massMatrixUserFunction"],
                           jacobian_user_function=None if jacobian is None else (
                               lambda *arguments: fe_matrix(jacobian(*arguments))),
                           name=item.name)


@register("ObjectRotationalMass1D", "object", "RotationalMass1D", dict(
    inertia=0.0, nodeNumber=-1, referencePosition=ZERO3, referenceRotation=np.eye(3).tolist()), short="Rotor1D",
    deprecated=dict(physicsInertia="inertia"),
    outputs=dict(body=("Position", "Displacement", "Velocity", "RotationMatrix", "Rotation", "AngularVelocity",
                       "AngularVelocityLocal")))
def ObjectRotationalMass1D(item, number, mbs):
    rotation = core_rotation(item, number, "referenceRotation", np.asarray(item.referenceRotation, dtype=float))
    return CoreRotor(item.nodeNumber, item.inertia, item.referencePosition, rotation, name=item.name)


@register("ObjectConnectorGravity", "object", "ConnectorGravity", dict(
    markerNumbers=[-1, -1], gravitationalConstant=6.6743e-11, mass0=0.0, mass1=0.0, minDistanceRegularization=0.0,
    activeConnector=True), short="ConnectorGravity", outputs=dict(object=("Distance", "Displacement", "Force")))
def ObjectConnectorGravity(item, number, mbs):
    return GravityConnector(item.markerNumbers, item.gravitationalConstant, item.mass0, item.mass1,
                            item.minDistanceRegularization, active=bool(item.activeConnector), name=item.name)


# --- planar items (x-y plane) --------------------------------------------------------------------------
PLANAR_NODES = ("Point2D", "RigidBody2D")


@register("NodePoint2D", "node", "Point2D", dict(
    referenceCoordinates=[0.0, 0.0], initialCoordinates=[0.0, 0.0], initialVelocities=[0.0, 0.0]), short="Point2D",
    outputs=dict(node=NODE_OUTPUTS))
def NodePoint2D(item, number, mbs):
    return planar.NodePoint2D(item.referenceCoordinates, item.initialCoordinates, item.initialVelocities,
                              name=item.name)


@register("NodeRigidBody2D", "node", "RigidBody2D", dict(
    referenceCoordinates=[0.0] * 3, initialCoordinates=[0.0] * 3, initialVelocities=[0.0] * 3), short="Rigid2D",
    outputs=dict(node=RIGID_NODE_OUTPUTS))
def NodeRigidBody2D(item, number, mbs):
    return planar.NodeRigidBody2D(item.referenceCoordinates, item.initialCoordinates, item.initialVelocities,
                                  name=item.name)


@register("ObjectMassPoint2D", "object", "MassPoint2D", dict(mass=0.0, nodeNumber=-1), short="MassPoint2D",
          deprecated=dict(physicsMass="mass"),
          outputs=dict(body=("Position", "Displacement", "Velocity", "Acceleration")))
def ObjectMassPoint2D(item, number, mbs):
    return planar.ObjectMassPoint2D(item.nodeNumber, item.mass, name=item.name)


@register("ObjectRigidBody2D", "object", "RigidBody2D", dict(mass=0.0, inertia=0.0, centerOfMass=[0.0, 0.0],
                                                              nodeNumber=-1), short="RigidBody2D",
          deprecated=dict(physicsMass="mass", physicsInertia="inertia", physicsCenterOfMass="centerOfMass"),
          outputs=dict(body=RIGID_BODY_OUTPUTS))
def ObjectRigidBody2D(item, number, mbs):
    return planar.ObjectRigidBody2D(item.nodeNumber, item.mass, item.inertia, item.centerOfMass, name=item.name)


@register("ObjectJointRevolute2D", "object", "JointRevolute2D", dict(markerNumbers=[-1, -1], activeConnector=True),
          short="RevoluteJoint2D", outputs=dict(object=("Position", "Velocity", "ForceLocal")))
def ObjectJointRevolute2D(item, number, mbs):
    return planar.RevoluteJoint2D(item.markerNumbers, active=bool(item.activeConnector), name=item.name)


@register("ObjectJointPrismatic2D", "object", "JointPrismatic2D", dict(
    markerNumbers=[-1, -1], axisMarker0=[1.0, 0.0, 0.0], normalMarker1=[0.0, 1.0, 0.0], constrainRotation=True,
    activeConnector=True), short="PrismaticJoint2D", outputs=dict(object=("Position", "Velocity", "ForceLocal")))
def ObjectJointPrismatic2D(item, number, mbs):
    return planar.PrismaticJoint2D(item.markerNumbers, item.axisMarker0, item.normalMarker1,
                                   bool(item.constrainRotation), active=bool(item.activeConnector), name=item.name)


def _target_type(mbs, family, target, item, number, what):
    """The type string of the node or body a marker is on ('' where the number is not an item: the core says so)."""
    try:
        return mbs.item(family, target, label(item, number), what).type_string
    except ExudynLayerError:
        return ""


def refuse_ode1_node(item, number, mbs):
    """Markers of ODE2 coordinates on a NodeGenericODE1: Exudyn refuses them too (its MarkerNodeODE1Coordinate is
    the marker of an ODE1 coordinate)."""
    if _target_type(mbs, "node", item.nodeNumber, item, number, "nodeNumber") == "GenericODE1":
        raise unsupported(item, number, "nodeNumber", "is a NodeGenericODE1, which has no ODE2 coordinates (Exudyn's "
                          "marker of an ODE1 coordinate, MarkerNodeODE1Coordinate, is not supported)")


# --- markers --------------------------------------------------------------------------------------
@register("MarkerNodeRigid", "marker", "NodeRigid", dict(nodeNumber=-1, localHT=None),
          outputs=dict(marker=RIGID_MARKER_OUTPUTS))
def MarkerNodeRigid(item, number, mbs):
    translation, rotation = homogeneous_parts(item, number, "localHT")
    rotation = np.eye(3) if rotation is None else rotation
    if translation is not None and np.any(translation != 0):
        raise unsupported(item, number, "localHT", "must have a zero translation (as in Exudyn 1.13.6): put the "
                          "point on the body with a MarkerBodyRigid")
    if _target_type(mbs, "node", item.nodeNumber, item, number, "nodeNumber") in PLANAR_NODES:
        if not np.allclose(rotation, np.eye(3)):
            raise unsupported(item, number, "localHT", "must be the identity on a planar node")
        return planar.MarkerNodeRigid2D(item.nodeNumber, name=item.name)
    if _target_type(mbs, "node", item.nodeNumber, item, number, "nodeNumber") == "RigidBodyRxyz":
        return rigid_rxyz.MarkerNodeRigidRxyz(item.nodeNumber, core_rotation(item, number, "localHT", rotation),
                                              name=item.name)
    if _target_type(mbs, "node", item.nodeNumber, item, number, "nodeNumber") == "RigidBodyRotVecLG":
        return rigid_rotation_vector.MarkerNodeRigidRotationVector(
            item.nodeNumber, core_rotation(item, number, "localHT", rotation), name=item.name)
    return fc.MarkerNodeRigid(item.nodeNumber, core_rotation(item, number, "localHT", rotation), name=item.name)


@register("MarkerNodePosition", "marker", "NodePosition", dict(nodeNumber=-1), outputs=dict(marker=POSITION_MARKER_OUTPUTS))
def MarkerNodePosition(item, number, mbs):
    if _target_type(mbs, "node", item.nodeNumber, item, number, "nodeNumber") in PLANAR_NODES:
        return planar.MarkerNodePosition2D(item.nodeNumber, name=item.name)
    return fc.MarkerNodePosition(item.nodeNumber, name=item.name)


@register("MarkerNodeCoordinate", "marker", "NodeCoordinate", dict(nodeNumber=-1, coordinate=-1),
          outputs=dict(marker=COORDINATE_MARKER_OUTPUTS))
def MarkerNodeCoordinate(item, number, mbs):
    refuse_ode1_node(item, number, mbs)
    return fc.MarkerNodeCoordinate(item.nodeNumber, item.coordinate, name=item.name)


ROTATION_COORDINATE_REASON = ("its value, a Tait-Bryan angle of the node, jumps by 2 pi at +-pi and its Jacobian is "
                              "that of the global angular velocity, not the angle's derivative; floatframe supports "
                              "the marker in an ObjectConnectorCoordinate with velocityLevel=True only")


@register("MarkerNodeRotationCoordinate", "marker", "NodeRotationCoordinate",
          dict(nodeNumber=-1, rotationCoordinate=-1))
def MarkerNodeRotationCoordinate(item, number, mbs):
    """The rotation of a rigid node (NodeRigidBodyEP, NodeRigidBodyRxyz) about a global axis, for a velocity-level
    ObjectConnectorCoordinate only; any other item that refers to the marker is refused naming it."""
    if _target_type(mbs, "node", item.nodeNumber, item, number, "nodeNumber") not in ("RigidBodyEP", "RigidBodyRxyz"):
        raise unsupported(item, number, "nodeNumber", "must be a NodeRigidBodyEP or NodeRigidBodyRxyz")
    if item.rotationCoordinate not in (0, 1, 2):
        raise unsupported(item, number, "rotationCoordinate", "must be 0, 1 or 2 (global x, y, z axis)")
    for family in ("object", "load", "sensor"):
        for other_number, other in enumerate(mbs.items(family)):
            markers = other.values.get("markerNumbers", [other.values.get("markerNumber")])
            uses = any(marker is not None and int(marker) == number for marker in markers)
            if uses and not (other.type_string == "ConnectorCoordinate" and other.velocityLevel):
                raise ExudynLayerError(f"{label(item, number)} is used by {label(other, other_number)}: "
                                       f"{ROTATION_COORDINATE_REASON}")
    return CoreRotationCoordinate(item.nodeNumber, int(item.rotationCoordinate), name=item.name)


@register("MarkerNodeCoordinates", "marker", "NodeCoordinates", dict(nodeNumber=-1))
def MarkerNodeCoordinates(item, number, mbs):
    refuse_ode1_node(item, number, mbs)
    return fc.MarkerNodeCoordinates(item.nodeNumber, name=item.name)


@register("MarkerBodyRigid", "marker", "BodyRigid", dict(bodyNumber=-1, localPosition=None, localHT=None),
          outputs=dict(marker=RIGID_MARKER_OUTPUTS))
def MarkerBodyRigid(item, number, mbs):
    position, rotation = frame_parameters(item, number, "localHT", "localPosition")
    body = mbs.item("object", item.bodyNumber) if _target_type(mbs, "object", item.bodyNumber, item, number,
                                                                "bodyNumber") == "RigidBody" else None
    if body is not None and _target_type(mbs, "node", body.nodeNumber, item, number, "body node") == "RigidBodyRxyz":
        return rigid_rxyz.MarkerBodyRigidRxyz(item.bodyNumber, position, core_rotation(item, number, "localHT", rotation),
                                              name=item.name)
    if body is not None and _target_type(mbs, "node", body.nodeNumber, item, number, "body node") == "RigidBodyRotVecLG":
        return rigid_rotation_vector.MarkerBodyRigidRotationVector(
            item.bodyNumber, position, core_rotation(item, number, "localHT", rotation), name=item.name)
    if _target_type(mbs, "object", item.bodyNumber, item, number, "bodyNumber") == "RotationalMass1D":
        return MarkerBodyRigidRotor(item.bodyNumber, position, core_rotation(item, number, "localHT", rotation),
                                    name=item.name)
    if _target_type(mbs, "object", item.bodyNumber, item, number, "bodyNumber") == "RigidBody2D":
        return planar.MarkerBodyRigid2D(item.bodyNumber, position, core_rotation(item, number, "localHT", rotation),
                                        name=item.name)
    return fc.MarkerBodyRigid(item.bodyNumber, position, core_rotation(item, number, "localHT", rotation),
                              name=item.name)


@register("MarkerBodyPosition", "marker", "BodyPosition", dict(bodyNumber=-1, localPosition=ZERO3),
          outputs=dict(marker=POSITION_MARKER_OUTPUTS))
def MarkerBodyPosition(item, number, mbs):
    if _target_type(mbs, "object", item.bodyNumber, item, number, "bodyNumber") == "MassPoint" and _target_type(
            mbs, "node", mbs.item("object", item.bodyNumber).nodeNumber, item, number, "nodeNumber") == "PointGround":
        raise unsupported(item, number, "bodyNumber", "is a mass point on a NodePointGround: its point is fixed, and "
                          "Exudyn 1.13.6 puts a force at such a marker on other coordinates; use a MarkerNodePosition "
                          "on the ground node")
    return fc.MarkerBodyPosition(item.bodyNumber, item.localPosition, name=item.name)


@register("MarkerSuperElementPosition", "marker", "SuperElementPosition", dict(
    bodyNumber=-1, meshNodeNumbers=[], weightingFactors=[]), outputs=dict(marker=POSITION_MARKER_OUTPUTS))
def MarkerSuperElementPosition(item, number, mbs):
    if _target_type(mbs, "object", item.bodyNumber, item, number, "bodyNumber") == "GenericODE2":
        return MarkerGenericODE2Position(item.bodyNumber, item.meshNodeNumbers, item.weightingFactors, name=item.name)
    return fc.MarkerSuperElementPosition(item.bodyNumber, item.meshNodeNumbers, item.weightingFactors,
                                         name=item.name)


@register("MarkerSuperElementRigid", "marker", "SuperElementRigid", dict(
    bodyNumber=-1, offset=None, localHT=None, meshNodeNumbers=[], weightingFactors=[], useAlternativeApproach=True,
    rotationsExponentialMap=2), outputs=dict(marker=RIGID_MARKER_OUTPUTS))
def MarkerSuperElementRigid(item, number, mbs):
    if item.rotationsExponentialMap != 2:
        raise unsupported(item, number, "rotationsExponentialMap", "must be 2 (exponential map with its tangent "
                          "operator, Exudyn's default)")
    offset, rotation = frame_parameters(item, number, "localHT", "offset")
    return fc.MarkerSuperElementRigid(item.bodyNumber, item.meshNodeNumbers, item.weightingFactors, offset,
                                      core_rotation(item, number, "localHT", rotation), name=item.name,
                                      alternative_approach=bool(item.useAlternativeApproach), reactions="exudyn")


@register("MarkerBodyMass", "marker", "BodyMass", dict(bodyNumber=-1))
def MarkerBodyMass(item, number, mbs):
    return fc.MarkerBodyMass(item.bodyNumber, name=item.name)


@register("MarkerObjectODE2Coordinates", "marker", "ObjectODE2Coordinates", dict(objectNumber=-1))
def MarkerObjectODE2Coordinates(item, number, mbs):
    return fc.MarkerObjectODE2Coordinates(item.objectNumber, name=item.name)


# --- loads ----------------------------------------------------------------------------------------
@register("LoadForceVector", "load", "ForceVector", dict(
    markerNumber=-1, loadVector=ZERO3, bodyFixed=False, loadVectorUserFunction=0), short="Force", live=("loadVector",))
def LoadForceVector(item, number, mbs):
    return fc.LoadForceVector(item.markerNumber, load_value(item, number, mbs, "loadVector", "loadVectorUserFunction"),
                              body_fixed=item.bodyFixed, name=item.name)


@register("LoadTorqueVector", "load", "TorqueVector", dict(
    markerNumber=-1, loadVector=ZERO3, bodyFixed=False, loadVectorUserFunction=0), short="Torque", live=("loadVector",))
def LoadTorqueVector(item, number, mbs):
    return fc.LoadTorqueVector(item.markerNumber, load_value(item, number, mbs, "loadVector", "loadVectorUserFunction"),
                               body_fixed=item.bodyFixed, name=item.name)


@register("LoadMassProportional", "load", "MassProportional", dict(
    markerNumber=-1, loadVector=ZERO3, loadVectorUserFunction=0), short="Gravity", live=("loadVector",))
def LoadMassProportional(item, number, mbs):
    return fc.LoadMassProportional(item.markerNumber, load_value(item, number, mbs, "loadVector",
                                                                 "loadVectorUserFunction"), name=item.name)


@register("LoadCoordinate", "load", "Coordinate", dict(markerNumber=-1, load=0.0, loadUserFunction=0), live=("load",))
def LoadCoordinate(item, number, mbs):
    return fc.LoadCoordinate(item.markerNumber, load_value(item, number, mbs, "load", "loadUserFunction"),
                             name=item.name)


# --- sensors: target = (family, parameter, access) --------------------------------------------------
@register("SensorNode", "sensor", "Node", dict(nodeNumber=-1, **SENSOR), target=("node", "nodeNumber", "node"))
def SensorNode(item, number, mbs):
    node, variable = sensor_output(item, number, mbs)
    return fc.SensorNode(node, variable, name=item.name)


@register("SensorMarker", "sensor", "Marker", dict(markerNumber=-1, **SENSOR),
          target=("marker", "markerNumber", "marker"))
def SensorMarker(item, number, mbs):
    marker, variable = sensor_output(item, number, mbs)
    return fc.SensorMarker(marker, variable, name=item.name)


@register("SensorBody", "sensor", "Body", dict(bodyNumber=-1, localPosition=ZERO3, **SENSOR),
          target=("object", "bodyNumber", "body"))
def SensorBody(item, number, mbs):
    body, variable = sensor_output(item, number, mbs)
    return fc.SensorBody(body, variable, item.localPosition, name=item.name)


@register("SensorObject", "sensor", "Object", dict(objectNumber=-1, **SENSOR),
          target=("object", "objectNumber", "object"))
def SensorObject(item, number, mbs):
    obj, variable = sensor_output(item, number, mbs)
    return fc.SensorObject(obj, variable, name=item.name)


@register("SensorSuperElement", "sensor", "SuperElement", dict(bodyNumber=-1, meshNodeNumber=-1, **SENSOR),
          target=("object", "bodyNumber", "superElement"))
def SensorSuperElement(item, number, mbs):
    body, variable = sensor_output(item, number, mbs)
    return fc.SensorSuperElement(body, item.meshNodeNumber, variable, name=item.name)


@register("SensorLoad", "sensor", "Load", dict(loadNumber=-1, writeToFile=True, fileName="", storeInternal=False))
def SensorLoad(item, number, mbs):
    mbs.item("load", item.loadNumber, label(item, number), "loadNumber")
    return fc.SensorLoad(item.loadNumber, name=item.name)


@register("SensorUserFunction", "sensor", "UserFunction", dict(
    sensorNumbers=[], factors=[], writeToFile=True, fileName="", sensorUserFunction=0, storeInternal=False))
def SensorUserFunction(item, number, mbs):
    """Evaluated after each solve at every stored step (``_solve.user_function_sensors``): Exudyn calls
    sensorUserFunction(mbs, t, sensorNumbers, factors, configuration) when it records the sensors; there the other
    sensors' values and the outputs are those of that step."""
    if is_unset(item.sensorUserFunction) or not callable(item.sensorUserFunction):
        raise unsupported(item, number, "sensorUserFunction", "must be a function (mbs, t, sensorNumbers, factors, "
                          "configuration) returning a list of values")
    for i, sensor in enumerate(item.sensorNumbers):
        mbs.item("sensor", sensor, label(item, number), f"sensorNumbers[{i}]")
    return SensorFromRecord([int(s) for s in item.sensorNumbers], name=item.name)


# --- what the package exports ---------------------------------------------------------------------
SHORT_NAMES = {cls.short_name: cls for cls in ITEM_CLASSES if cls.short_name}
BY_TYPE = {(cls.family, cls.type_string): cls for cls in ITEM_CLASSES}
VISUALIZATION_CLASSES = {
    "V" + cls.__name__: type("V" + cls.__name__, (VisualizationItem,), {"__doc__": f"Visualization of {cls.__name__}."})
    for cls in ITEM_CLASSES}
VISUALIZATION_CLASSES.update({"V" + short: VISUALIZATION_CLASSES["V" + cls.__name__]
                              for short, cls in SHORT_NAMES.items()})
SUPPORTED_NAMES = [cls.__name__ for cls in ITEM_CLASSES] + list(SHORT_NAMES) + list(VISUALIZATION_CLASSES)


def supported_kinds(family: str) -> list:
    """Exudyn type strings of the supported items of a family."""
    return [type_string for f, type_string in BY_TYPE if f == family]


def item_class(family: str, type_string: str) -> type:
    """The registered item class of a kind, or an error naming the kind and the supported ones."""
    cls = BY_TYPE.get((family, type_string))
    if cls is None:
        supported = supported_kinds(family)
        error = unknown(f"{family} type", type_string, supported, "floatframe.exudyn")
        raise ExudynLayerError(f"{error} (supported {family} types: {', '.join(supported)})")
    return cls


def item_from_dict(family: str, data: dict) -> Item:
    """The item class instance for an Exudyn-style dict such as ``{'objectType': 'FFRF', ...}``."""
    key = TYPE_KEYS[family]
    data = dict(data)
    if key not in data:
        raise ExudynLayerError(f"{family} dict needs the key '{key}', got keys {sorted(data)}")
    cls = item_class(family, data.pop(key))
    known = {*cls.parameters, *cls.ignored, *cls.deprecated, "name", "visualization"}
    for name in [name for name in data if name not in known and not (name.startswith("V") and len(name) > 1)]:
        warnings.warn(f"{cls.__name__}: key '{name}' of the item dict is not a parameter and is ignored (as "
                      f"Exudyn 1.13.6 ignores unknown keys of item dicts)", UserWarning, stacklevel=5)
        del data[name]
    return cls(**data)


def as_item(family: str, item) -> Item:
    """Accept an item instance, an Exudyn item (anything iterable into a dict) or a dict."""
    if isinstance(item, Item):
        if item.family != family:
            raise ExudynLayerError(f"Add{family.capitalize()}: got {type(item).__name__}, which is a {item.family}")
        item_class(family, item.type_string)
        duplicate = copy.copy(item)
        object.__setattr__(duplicate, "values", dict(item.values))
        return duplicate
    if not isinstance(item, dict):
        try:
            item = dict(item)
        except (TypeError, ValueError):
            raise ExudynLayerError(f"Add{family.capitalize()}: expected an item or a dict, got {item!r}") from None
    return item_from_dict(family, item)


def translate(item: Item, number: int, mbs):
    """The core component of an item; a kind outside the table is an error (no fall-through)."""
    return item_class(item.family, item.type_string).translation(item, number, mbs)
