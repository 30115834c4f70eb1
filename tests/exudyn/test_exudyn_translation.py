"""The item table: every registered item becomes the right core component, lists only outputs the core
computes, and nothing outside the table gets through; deprecated spellings warn; no stray V-classes."""
import warnings

import numpy as np
import pytest

import floatframe.components as ff
import floatframe.exudyn as exu
import floatframe.exudyn.itemInterface as ii
from floatframe.exudyn import ExudynLayerError
from floatframe.exudyn._items import (ITEM_CLASSES, REDUCED_ORDER_MATRICES, SHORT_NAMES, SUPPORTED_NAMES,
                                      VISUALIZATION_CLASSES, Item, translate)
from floatframe.components import planar, rigid_rotation_vector, rigid_rxyz
from floatframe.components.user_sensor import SensorFromRecord
from floatframe.components.generic_ode2 import ObjectGenericODE2 as CoreGenericODE2
from floatframe.components.first_order import NodeODE1, ObjectGenericODE1 as CoreGenericODE1
from floatframe.components.gravity_connector import GravityConnector
from floatframe.components.linear_spring_damper import LinearSpringDamper
from floatframe.components.coordinate_spring_damper_ext import CoordinateSpringDamperExt
from floatframe.components.rotation_coordinate import MarkerNodeRotationCoordinate as RotationCoordinate
from floatframe.components.rotational_mass import ObjectRotationalMass1D as CoreRotor
from floatframe.components.relative_markers import (MarkerBodiesRelativeRotationCoordinate as RelativeRotation,
                                                    MarkerBodiesRelativeTranslationCoordinate as RelativeTranslation)
from floatframe.exudyn._translate import ACCESS_BY_FUNCTION
from floatframe.parameters import Parameter

# item class -> (core component, one of its attributes, the value the catalogue below gives it)
EXPECTED = {
    "NodeRigidBodyEP": (ff.NodeRigidBodyEP, "reference_coordinates", [0, 0, 1, 1, 0, 0, 0]),
    "NodePoint": (ff.NodePoint, "reference_coordinates", [1, 0, 0]),
    "NodePointGround": (ff.NodePointGround, "reference_coordinates", [0, 0, 0]),
    "ObjectGround": (ff.ObjectGround, "reference_position", [0, 0, 0.5]),
    "ObjectRigidBody": (ff.ObjectRigidBody, "mass", [2.0]),
    "ObjectFFRF": (ff.ObjectFFRF, "n_mesh_nodes", 2),
    "NodeGenericODE2": (ff.NodeGenericODE2, "initial_velocities", [0.5, 0.0]),
    "ObjectFFRFreducedOrder": (ff.ObjectFFRFReducedOrder, "n_modes", 2),
    "ObjectConnectorCoordinate": (ff.CoordinateConstraint, "factor1", [0.5]),
    "ObjectConnectorCoordinateVector": (ff.CoordinateVectorConstraint, "n_constraints", 3),
    "ObjectConnectorCartesianSpringDamper": (ff.CartesianSpringDamper, "stiffness", [10, 20, 30]),
    "ObjectConnectorLinearSpringDamper": (LinearSpringDamper, "axis_marker0", [0, 0.6, 0.8]),
    "ObjectConnectorCoordinateSpringDamperExt": (CoordinateSpringDamperExt, "factor1", -0.5),
    "ObjectJointSpherical": (ff.SphericalJoint, "constrained_axes", [0, 2]),
    "MarkerNodeRigid": (ff.MarkerNodeRigid, "node_number", 0),
    "MarkerNodePosition": (ff.MarkerNodePosition, "node_number", 2),
    "MarkerNodeCoordinate": (ff.MarkerNodeCoordinate, "coordinate", 1),
    "MarkerNodeCoordinates": (ff.MarkerNodeCoordinates, "node_number", 2),
    "MarkerNodeRotationCoordinate": (RotationCoordinate, "rotation_coordinate", 2),
    "MarkerBodyRigid": (ff.MarkerBodyRigid, "local_position", [0, 0, 0.1]),
    "MarkerBodyPosition": (ff.MarkerBodyPosition, "local_position", [0.2, 0, 0]),
    "MarkerSuperElementPosition": (ff.MarkerSuperElementPosition, "weighting_factors", [0.25, 0.75]),
    "MarkerObjectODE2Coordinates": (ff.MarkerObjectODE2Coordinates, "object_number", 2),
    "MarkerSuperElementRigid": (ff.MarkerSuperElementRigid, "offset", [0, 0, 0.01]),
    "MarkerBodyMass": (ff.MarkerBodyMass, "body_number", 8),
    "LoadMassProportional": (ff.LoadMassProportional, "load", [0, -9.81, 0]),
    "ObjectMassPoint": (ff.ObjectMassPoint, "mass", [3.0]),
    "ObjectConnectorCoordinateSpringDamper": (ff.CoordinateSpringDamper, "stiffness", [50.0]),
    "LoadForceVector": (ff.LoadForceVector, "load", [0, 0, -3]),
    "LoadTorqueVector": (ff.LoadTorqueVector, "load", [0, 0.5, 0]),
    "LoadCoordinate": (ff.LoadCoordinate, "load", [4.0]),
    "SensorNode": (ff.SensorNode, "output_variable_type", "Rotation"),
    "SensorBody": (ff.SensorBody, "local_position", [0.1, 0.2, 0.3]),
    "SensorObject": (ff.SensorObject, "output_variable_type", "Force"),
    "SensorSuperElement": (ff.SensorSuperElement, "mesh_node_number", 1),
    "SensorLoad": (ff.SensorLoad, "load_number", 1),
    "SensorMarker": (ff.SensorMarker, "output_variable_type", "AngularVelocityLocal"),
    "Node1D": (ff.Node1D, "initial_coordinates", [0.1]),
    "ObjectMass1D": (ff.ObjectMass1D, "reference_position", [0, 1, 0]),
    # springs
    "ObjectConnectorSpringDamper": (ff.SpringDamper, "stiffness", [40.0]),
    "ObjectConnectorDistance": (ff.DistanceConstraint, "distance", [0.5]),
    "ObjectConnectorRigidBodySpringDamper": (ff.RigidBodySpringDamper, "stiffness", np.diag([1.0, 2, 3, 4, 5, 6])),
    "ObjectConnectorTorsionalSpringDamper": (ff.TorsionalSpringDamper, "stiffness", [7.0]),
    "NodeGenericData": (ff.NodeGenericODE2, "initial_coordinates", [0.25]),
    # joints
    "ObjectJointRevoluteZ": (ff.RevoluteJoint, "n_constraints", 5),
    "ObjectJointGeneric": (ff.GenericJoint, "constrained_axes", [0, 0, 0, 0, 0, 1]),
    "ObjectJointPrismaticX": (ff.PrismaticJoint, "active", False),
    # planar items
    "NodePoint2D": (planar.NodePoint2D, "reference_coordinates", [0.0, 2.0]),
    "NodeRigidBody2D": (planar.NodeRigidBody2D, "reference_coordinates", [1.0, 0.0, 0.0]),
    "ObjectMassPoint2D": (planar.ObjectMassPoint2D, "mass", [0.7]),
    "ObjectRigidBody2D": (planar.ObjectRigidBody2D, "inertia", [0.3]),
    "ObjectJointRevolute2D": (planar.RevoluteJoint2D, "n_constraints", 2),
    "ObjectJointPrismatic2D": (planar.PrismaticJoint2D, "n_constraints", 1),
    "ObjectGenericODE2": (CoreGenericODE2, "n_object_coordinates", 2),
    "ObjectRotationalMass1D": (CoreRotor, "inertia", [0.4]),
    "ObjectConnectorGravity": (GravityConnector, "mass1", 2.5),
    "NodeRigidBodyRxyz": (rigid_rxyz.NodeRigidBodyRxyz, "reference_coordinates", [0, 0, 3, 0.1, 0.2, 0.3]),
    "NodeRigidBodyRotVecLG": (rigid_rotation_vector.NodeRigidBodyRotationVector, "reference_coordinates",
                              [0, 0, 4, 0.3, -0.2, 0.1]),
    "SensorUserFunction": (SensorFromRecord, "sensor_numbers", [0]),
    "NodeGenericODE1": (NodeODE1, "first_order_initial", [0.5, 0.0]),
    "ObjectGenericODE1": (CoreGenericODE1, "n_object_coordinates", 2),
    "MarkerBodiesRelativeTranslationCoordinate": (RelativeTranslation, "axis0", [0, 0, 1]),
    "MarkerBodiesRelativeRotationCoordinate": (RelativeRotation, "offset", 0.25),
}


def catalogue():
    """A system with every registered item at least once (it is assembled, not solved)."""
    mbs = exu.SystemContainer().AddSystem()
    variables = exu.OutputVariableType
    rigid = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 1, 1, 0, 0, 0]))
    frame = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0, 1, 0, 0, 0]))
    mesh = [mbs.AddNode(ii.NodePoint(referenceCoordinates=[1, 0, 0])),
            mbs.AddNode(ii.NodePoint(referenceCoordinates=[0, 1, 0]))]
    fixed = mbs.AddNode(ii.NodePointGround())
    ground = mbs.AddObject(ii.ObjectGround(referencePosition=[0, 0, 0.5]))
    body = mbs.AddObject(ii.ObjectRigidBody(nodeNumber=rigid, mass=2.0, inertia=[1, 2, 3, 0, 0, 0]))
    matrix = exu.MatrixContainer(np.eye(6))
    ffrf = mbs.AddObject(ii.ObjectFFRF(nodeNumbers=[frame, *mesh], massMatrixFF=matrix, stiffnessMatrixFF=matrix,
                                       forceVector=[0.0] * 13))
    m_rigid = mbs.AddMarker(ii.MarkerNodeRigid(nodeNumber=rigid))
    m_point = mbs.AddMarker(ii.MarkerNodePosition(nodeNumber=mesh[0]))
    m_fixed = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=fixed, coordinate=1))
    m_coordinate = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=mesh[0], coordinate=1))
    m_vectors = [mbs.AddMarker(ii.MarkerNodeCoordinates(nodeNumber=n)) for n in mesh]
    m_body = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body, localPosition=[0, 0, 0.1]))
    m_ground = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[0.2, 0, 0]))
    mbs.AddMarker(ii.MarkerSuperElementPosition(bodyNumber=ffrf, meshNodeNumbers=[0, 1], weightingFactors=[0.25, 0.75]))
    mbs.AddMarker(ii.MarkerObjectODE2Coordinates(objectNumber=ffrf))
    mbs.AddObject(ii.ObjectConnectorCoordinate(markerNumbers=[m_fixed, m_coordinate], factor1=0.5))
    mbs.AddObject(ii.ObjectConnectorCoordinateVector(markerNumbers=m_vectors, scalingMarker0=np.eye(3),
                                                     scalingMarker1=np.eye(3)))
    mbs.AddObject(ii.ObjectConnectorCartesianSpringDamper(markerNumbers=[m_ground, m_point], stiffness=[10, 20, 30]))
    joint = mbs.AddObject(ii.ObjectJointSpherical(markerNumbers=[m_ground, m_body], constrainedAxes=[1, 0, 1]))
    # mass on the FFRF frame node: the two-node mesh needs no reference conditions then (see docs/ffrf.md)
    mbs.AddObject(ii.ObjectRigidBody(nodeNumber=frame, mass=1.0, inertia=[1, 1, 1, 0, 0, 0]))
    mbs.AddLoad(ii.LoadForceVector(markerNumber=m_body, loadVector=[0, 0, -3]))
    torque = mbs.AddLoad(ii.LoadTorqueVector(markerNumber=m_rigid, loadVector=[0, 0.5, 0]))
    mbs.AddLoad(ii.LoadCoordinate(markerNumber=m_coordinate, load=4.0))
    mbs.AddSensor(ii.SensorNode(nodeNumber=rigid, outputVariableType=variables.Rotation))
    mbs.AddSensor(ii.SensorBody(bodyNumber=body, localPosition=[0.1, 0.2, 0.3],
                                outputVariableType=variables.AngularAccelerationLocal))
    mbs.AddSensor(ii.SensorObject(objectNumber=joint, outputVariableType=variables.Force))
    mbs.AddSensor(ii.SensorSuperElement(bodyNumber=ffrf, meshNodeNumber=1, outputVariableType=variables.Velocity))
    add_reduced_order_body(mbs)
    point = mbs.AddNode(ii.NodePoint(referenceCoordinates=[0, 0, 2]))
    mbs.AddObject(ii.ObjectMassPoint(nodeNumber=point, mass=3.0))
    mbs.AddObject(ii.ObjectConnectorCoordinateSpringDamper(
        markerNumbers=[m_fixed, mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=point, coordinate=1))],
        stiffness=50.0))
    line = mbs.AddNode(ii.Node1D(referenceCoordinates=[0.0], initialCoordinates=[0.1]))
    mbs.AddObject(ii.ObjectMass1D(nodeNumber=line, mass=1.5, referencePosition=[0, 1, 0]))
    add_springs(mbs, ground, m_ground, m_body, point)
    mbs.AddSensor(ii.SensorLoad(loadNumber=torque))
    add_joints(mbs, ground)
    add_relative_markers(mbs, ground, body)
    mbs.AddSensor(ii.SensorMarker(markerNumber=m_body, outputVariableType=variables.AngularVelocityLocal))
    add_planar(mbs, ground)
    mbs.AddSensor(ii.SensorUserFunction(sensorNumbers=[0], factors=[2.0], sensorUserFunction=lambda *a: [1.0]))
    first_order = mbs.AddNode(ii.NodeGenericODE1(referenceCoordinates=[0.0, 1.0], initialCoordinates=[0.5, 0.0],
                                                 numberOfODE1Coordinates=2))
    mbs.AddObject(ii.ObjectGenericODE1(nodeNumbers=[first_order], systemMatrix=-np.eye(2)))
    mbs.AddObject(ii.ObjectConnectorLinearSpringDamper(markerNumbers=[m_body, m_rigid], axisMarker0=[0, 0.6, 0.8],
                                                       stiffness=3.0))
    mbs.AddObject(ii.ObjectConnectorCoordinateSpringDamperExt(markerNumbers=[m_fixed, m_coordinate], factor1=-0.5,
                                                              stiffness=2.0, frictionProportionalZone=0.1))
    spinning = mbs.AddNode(ii.NodeRigidBodyRotVecLG(referenceCoordinates=[0, 0, 4, 0.3, -0.2, 0.1]))
    mbs.AddObject(ii.ObjectRigidBody(nodeNumber=spinning, mass=1.0, inertia=[1, 1, 1, 0, 0, 0]))
    mbs.AddMarker(ii.MarkerNodeRigid(nodeNumber=spinning))
    rotation = mbs.AddMarker(ii.MarkerNodeRotationCoordinate(nodeNumber=rigid, rotationCoordinate=2))
    mbs.AddObject(ii.ObjectConnectorCoordinate(markerNumbers=[mbs.AddMarker(ii.MarkerNodeCoordinate(
        nodeNumber=line, coordinate=0)), rotation], velocityLevel=True))
    mbs.Assemble()
    return mbs


def add_planar(mbs, ground):
    """The planar items: a 2D rigid body hinged to the ground, a slider on it (rotation free) and a 2D mass point."""
    node = mbs.AddNode(ii.NodeRigidBody2D(referenceCoordinates=[1.0, 0.0, 0.0]))
    body = mbs.AddObject(ii.ObjectRigidBody2D(nodeNumber=node, mass=1.0, inertia=0.3))
    hinge = [mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=ground, localPosition=[0.5, 0, -0.5])),
             mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body, localPosition=[-0.5, 0, 0]))]
    mbs.AddObject(ii.ObjectJointRevolute2D(markerNumbers=hinge))
    slider = mbs.AddNode(ii.NodeRigidBody2D(referenceCoordinates=[1.0, 0.0, 0.0]))
    mbs.AddObject(ii.ObjectRigidBody2D(nodeNumber=slider, mass=0.2, inertia=0.01))
    mbs.AddObject(ii.ObjectJointPrismatic2D(markerNumbers=[mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body)),
                                                           mbs.AddMarker(ii.MarkerNodeRigid(nodeNumber=slider))],
                                            constrainRotation=False))
    generic = mbs.AddNode(ii.NodePoint2D(referenceCoordinates=[0.0, 2.0]))
    mbs.AddObject(ii.ObjectGenericODE2(nodeNumbers=[generic], massMatrix=np.eye(2), stiffnessMatrix=np.eye(2)))
    tilted = mbs.AddNode(ii.NodeRigidBodyRxyz(referenceCoordinates=[0, 0, 3, 0.1, 0.2, 0.3]))
    mbs.AddObject(ii.ObjectRigidBody(nodeNumber=tilted, mass=1.0, inertia=[1, 1, 1, 0, 0, 0]))
    mbs.AddMarker(ii.MarkerNodeRigid(nodeNumber=tilted))
    angle = mbs.AddNode(ii.Node1D(referenceCoordinates=[0.0]))
    rotor = mbs.AddObject(ii.ObjectRotationalMass1D(nodeNumber=angle, inertia=0.4))
    mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=rotor, localPosition=[0.1, 0, 0]))
    point = mbs.AddNode(ii.NodePoint2D(referenceCoordinates=[0.5, -1.0]))
    mbs.AddObject(ii.ObjectMassPoint2D(nodeNumber=point, mass=0.7))
    attracted = mbs.AddMarker(ii.MarkerNodePosition(nodeNumber=point))
    mbs.AddObject(ii.ObjectConnectorGravity(markerNumbers=[hinge[1], attracted], mass0=1.0, mass1=2.5,
                                            gravitationalConstant=1e-3))


def add_joints(mbs, ground):
    """The joints' items on a rigid body of their own: a hinge (ObjectJointRevoluteZ) to the ground and an
    ObjectJointGeneric locking the rotation about z (the body is fixed then), and an inactive ObjectJointPrismaticX."""
    node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0, 0, -1, 1, 0, 0, 0]))
    body = mbs.AddObject(ii.ObjectRigidBody(nodeNumber=node, mass=1.0, inertia=[1, 1, 1, 0, 0, 0]))
    markers = [mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=number, localPosition=position))
               for number, position in ((ground, [0, 0, -1.5]), (body, [0, 0, 0]))]
    mbs.AddObject(ii.ObjectJointRevoluteZ(markerNumbers=markers))
    mbs.AddObject(ii.ObjectJointGeneric(markerNumbers=markers, constrainedAxes=[0, 0, 0, 0, 0, 1]))
    mbs.AddObject(ii.ObjectJointPrismaticX(markerNumbers=markers, activeConnector=False))


def add_relative_markers(mbs, ground, body):
    """The relative markers of two bodies: the translation and the rotation (with its data node) of the rigid body
    relative to the ground."""
    turns = mbs.AddNode(ii.NodeGenericData(initialCoordinates=[0.0], numberOfDataCoordinates=1))
    mbs.AddMarker(ii.MarkerBodiesRelativeTranslationCoordinate(bodyNumbers=[ground, body], axis0=[0, 0, 1]))
    mbs.AddMarker(ii.MarkerBodiesRelativeRotationCoordinate(bodyNumbers=[ground, body], nodeNumber=turns,
                                                            offset=0.25))


def add_springs(mbs, ground, m_ground, m_body, point):
    """The springs' items: a spring-damper and a distance constraint from a ground point, rigid-body and
    torsional spring-dampers between the ground and the rigid body."""
    mbs.AddObject(ii.ObjectConnectorSpringDamper(markerNumbers=[m_ground, m_body], stiffness=40.0, referenceLength=0.5))
    mbs.AddObject(ii.ObjectConnectorDistance(
        markerNumbers=[m_ground, mbs.AddMarker(ii.MarkerNodePosition(nodeNumber=point))], distance=0.5))
    ground_frame = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=ground, localPosition=[0, 0, 0]))
    mbs.AddObject(ii.ObjectConnectorRigidBodySpringDamper(markerNumbers=[ground_frame, m_body],
                                                          stiffness=np.diag([1.0, 2, 3, 4, 5, 6])))
    turns = mbs.AddNode(ii.NodeGenericData(initialCoordinates=[0.25], numberOfDataCoordinates=1))
    mbs.AddObject(ii.ObjectConnectorTorsionalSpringDamper(markerNumbers=[ground_frame, m_body], stiffness=7.0,
                                                          nodeNumber=turns))


def add_reduced_order_body(mbs):
    """An ObjectFFRFreducedOrder with 2 modes of a one-element cube (its invariants from the core)."""
    from floatframe.fem import block_mesh, eigenmodes, linear_elastic_matrices

    mesh = block_mesh(0.1, 0.1, 0.1, 1, 1, 1)
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=1e7, poissons_ratio=0.3, density=1000.0)
    modes = eigenmodes(mass, stiffness, 2, solver="dense")
    invariants = ff.ReducedOrderInvariants.from_fe_matrices(mass, stiffness, modes, mesh.nodes)
    frame = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0, 1, 0, 0, 0]))
    modal = mbs.AddNode(ii.NodeGenericODE2(numberOfODE2Coordinates=2, referenceCoordinates=[0, 0],
                                           initialCoordinates=[0, 0], initialCoordinates_t=[0.5, 0.0]))
    matrices = {name: getattr(invariants, field) for name, field in REDUCED_ORDER_MATRICES.items()}
    body = mbs.AddObject(ii.ObjectFFRFreducedOrder(
        nodeNumbers=[frame, modal], massMatrixReduced=exu.MatrixContainer(invariants.mass_reduced),
        stiffnessMatrixReduced=exu.MatrixContainer(invariants.stiffness_reduced), modeBasis=invariants.mode_basis,
        referencePositions=invariants.reference_positions, mass=invariants.mass, inertia=invariants.inertia,
        centerOfMass=invariants.center_of_mass, **matrices))
    mbs.AddMarker(ii.MarkerSuperElementRigid(bodyNumber=body, meshNodeNumbers=[0, 1, 2, 4],
                                             weightingFactors=[0.25] * 4, offset=[0, 0, 0.01]))
    body_mass = mbs.AddMarker(ii.MarkerBodyMass(bodyNumber=body))
    mbs.AddLoad(ii.LoadMassProportional(markerNumber=body_mass, loadVector=[0, -9.81, 0]))
    return body


@pytest.fixture(scope="module")
def assembled_catalogue():
    return catalogue()


def first_of(mbs, cls):
    return next(number for number, item in enumerate(mbs.items(cls.family)) if type(item) is cls)


def test_the_table_is_the_list_of_expected_items():
    assert sorted(cls.__name__ for cls in ITEM_CLASSES) == sorted(EXPECTED)


@pytest.mark.parametrize("cls", ITEM_CLASSES, ids=lambda cls: cls.__name__)
def test_every_registered_item_translates_to_its_component(assembled_catalogue, cls):
    component_class, attribute, value = EXPECTED[cls.__name__]
    number = first_of(assembled_catalogue, cls)
    component = assembled_catalogue.GetFloatframeSystem().items(cls.family)[number]
    assert type(component) is component_class
    assert component.name == assembled_catalogue.items(cls.family)[number].name
    translated = getattr(component, attribute)
    if isinstance(translated, Parameter):  # a live parameter (changeable without assembly) carries its value
        translated = translated.value
    if isinstance(value, str):
        assert translated == value
    else:
        np.testing.assert_array_equal(np.asarray(translated), value)


def expected_size(item, variable):
    if variable == "RotationMatrix":
        return 9
    if item.family == "marker":                          # GetMarkerOutput: a coordinate, or 3-vectors, or 4x4
        return {"HomogeneousTransformation": 16, "Coordinates": 1, "Coordinates_t": 1}.get(variable, 3)
    scalars = (("ConnectorSpringDamper", "ForceLocal"), ("ConnectorDistance", "Force"))
    if item.type_string in ("ConnectorCoordinate", "ConnectorCoordinateSpringDamper", "ConnectorTorsionalSpringDamper",
                            "GenericData", "ConnectorLinearSpringDamper", "ConnectorCoordinateSpringDamperExt") \
            or variable == "Distance" or (item.type_string, variable) in scalars:
        return 1
    if item.family == "object" and item.type_string in ("RigidBody2D", "RotationalMass1D") and variable == "Rotation":
        return 1                                         # the angle (its change on a 2D body), as in Exudyn
    if variable.startswith("Coordinates") or (item.type_string.startswith("FFRF") and variable == "Force"):
        return {"RigidBodyEP": 7, "Point": 3, "PointGround": 0, "FFRF": 13, "GenericODE2": 2, "1D": 1,
                "FFRFreducedOrder": 9, "Point2D": 2, "RigidBody2D": 3, "RigidBodyRxyz": 6, "RigidBodyRotVecLG": 6,
                "GenericODE1": 2}[item.type_string]
    return 3


OUTPUTS = [(cls, function, variable) for cls in ITEM_CLASSES for function, access in ACCESS_BY_FUNCTION.items()
           for variable in cls.outputs.get(access, ())]


@pytest.mark.parametrize("cls, function, variable", OUTPUTS,
                         ids=[f"{c.__name__}-{f}-{v}" for c, f, v in OUTPUTS])
def test_every_output_the_table_lists_is_computed_by_the_core(assembled_catalogue, cls, function, variable):
    mbs = assembled_catalogue
    number = first_of(mbs, cls)
    arguments = {"GetObjectOutputBody": dict(localPosition=[0.1, 0.2, 0.3]),
                 "GetObjectOutputSuperElement": dict(meshNodeNumber=0 if cls.__name__ == "ObjectGenericODE2" else 1)
                 }.get(function, {})   # (the catalogue's ObjectGenericODE2 has one node, a NodePoint2D)
    value = np.atleast_1d(getattr(mbs, function)(number, getattr(exu.OutputVariableType, variable), **arguments))
    assert value.size == expected_size(mbs.items(cls.family)[number], variable)
    assert np.all(np.isfinite(value))


def test_outputs_a_kind_does_not_list_are_refused_with_the_supported_ones(assembled_catalogue):
    with pytest.raises(ExudynLayerError, match="ObjectRigidBody 1 .*has no output variables for GetObjectOutput"):
        assembled_catalogue.GetObjectOutput(1, exu.OutputVariableType.Position)
    with pytest.raises(ExudynLayerError, match="ObjectJointSpherical 6.*unknown output variable 'Distance'"):
        assembled_catalogue.GetObjectOutput(6, exu.OutputVariableType.Distance)
    mbs = catalogue()
    mbs.AddSensor(ii.SensorObject(objectNumber=1, outputVariableType=exu.OutputVariableType.Position))
    with pytest.raises(ExudynLayerError, match="SensorObject 7.*ObjectRigidBody 1.*SensorObject"):
        mbs.Assemble()


@pytest.mark.parametrize("family, data, kind", [
    ("object", {"objectType": "ContactCoordinate", "contactStiffness": 1.0}, "ContactCoordinate"),
    ("object", {"objectType": "JointSliding2D"}, "JointSliding2D"),
    ("marker", {"markerType": "BodyCable2DShape", "bodyNumber": 0}, "BodyCable2DShape"),
    ("node", {"nodeType": "PointSlope1"}, "PointSlope1"),
])
def test_a_kind_outside_the_table_raises_naming_it_and_the_supported_kinds(family, data, kind):
    mbs = exu.SystemContainer().AddSystem()
    add = getattr(mbs, f"Add{family.capitalize()}")
    supported = {"object": "Ground, RigidBody, MassPoint, Mass1D, FFRF", "marker": "NodeRigid, NodePosition",
                 "node": "Point, PointGround, RigidBodyEP"}[family]
    with pytest.raises(ExudynLayerError, match=f"unknown {family} type '{kind}'.*supported {family} types: {supported}"):
        add(data)


def test_an_item_class_outside_the_table_does_not_fall_through():
    class ObjectContactCoordinate(Item):
        family, type_string, parameters = "object", "ContactCoordinate", {"contactStiffness": 0.0}

    mbs = exu.SystemContainer().AddSystem()
    with pytest.raises(ExudynLayerError, match="unknown object type 'ContactCoordinate'"):
        mbs.AddObject(ObjectContactCoordinate(contactStiffness=1.0))
    with pytest.raises(ExudynLayerError, match="unknown object type 'ContactCoordinate'"):
        translate(ObjectContactCoordinate(), 0, mbs)


@pytest.mark.parametrize("make, old, new, value", [
    (lambda **k: ii.ObjectRigidBody(nodeNumber=0, **k), "physicsMass", "mass", 3.0),
    (lambda **k: ii.ObjectRigidBody(nodeNumber=0, **k), "physicsInertia", "inertia", [1.0, 2, 3, 0, 0, 0]),
    (lambda **k: ii.ObjectRigidBody(nodeNumber=0, **k), "physicsCenterOfMass", "centerOfMass", [0.0, 0, 0]),
    (lambda **k: ii.ObjectConnectorCoordinate(markerNumbers=[0, 1], **k), "factorValue1", "factor1", 0.5),
])
def test_deprecated_exudyn_spellings_are_accepted_with_a_warning_naming_the_current_name(make, old, new, value):
    with pytest.warns(DeprecationWarning, match=f"parameter '{old}' is a deprecated Exudyn name; use '{new}'"):
        item = make(**{old: value})
    assert getattr(item, new) == value and old not in dict(item)


def test_deprecated_spellings_warn_in_get_and_set_parameter_too():
    mbs = exu.SystemContainer().AddSystem()
    mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0, 1, 0, 0, 0]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the current names give no warning
        mbs.AddObject(ii.ObjectRigidBody(nodeNumber=0, mass=1.0, inertia=[1, 1, 1, 0, 0, 0]))
    with pytest.warns(DeprecationWarning, match="'physicsMass'.*use 'mass'"):
        mbs.SetObjectParameter(0, "physicsMass", 4.0)
    with pytest.warns(DeprecationWarning, match="'physicsMass'.*use 'mass'"):
        assert mbs.GetObjectParameter(0, "physicsMass") == 4.0
    assert mbs.GetObjectParameter(0, "mass") == 4.0


def test_only_supported_items_have_visualization_classes():
    expected = {"V" + cls.__name__ for cls in ITEM_CLASSES} | {"V" + short for short in SHORT_NAMES}
    assert set(VISUALIZATION_CLASSES) == expected
    assert set(SUPPORTED_NAMES) == {cls.__name__ for cls in ITEM_CLASSES} | set(SHORT_NAMES) | expected
    assert exu.VObjectRigidBody is ii.VRigidBody
    for name in ("VObjectContactCoordinate", "VObjectConnectorReevingSystemSprings", "VSensorKinematicTree",
                 "VObjectJointSliding", "VObjectConnectorHydraulicActuatorSimple"):
        assert name not in VISUALIZATION_CLASSES
        with pytest.raises(exu.ExudynLayerError, match=f"itemInterface.{name}.*outside floatframe's scope"):
            getattr(ii, name)()   # the item interface's placeholder, refused where used
        with pytest.raises(AttributeError, match=f"'{name}'.*closest supported name"):
            getattr(exu, name)
