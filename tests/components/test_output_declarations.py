"""Every component declares its output variables as data (``output_variables``), and the declaration is what its
``output`` method does: in one small assembled model holding an instance of every catalogued class (and of the
planar classes), each declared name evaluates to finite numbers at the initial state, and every other name of
Exudyn's OutputVariableType is refused with the component's error. The catalogue lists the declaration."""
import numpy as np
import pytest

import floatframe.components as fc
from floatframe import catalogue, rotations
from floatframe.assembly import System
from floatframe.components import planar
from floatframe.components.base import ModelError
from floatframe.exudyn._names import OutputVariableType
from floatframe.fem import block_mesh, eigenmodes, linear_elastic_matrices
from model_helpers import rigid_body

EXUDYN_NAMES = tuple(name for name in OutputVariableType.__members__ if name != "_None")
FLOATFRAME_NAMES = ("Angle",)  # outputs of floatframe's own, not in Exudyn's list (a joint's hinge angle)
PLANAR_CLASSES = [planar.NodePoint2D, planar.NodeRigidBody2D, planar.ObjectMassPoint2D, planar.ObjectRigidBody2D,
                  planar.MarkerNodePosition2D, planar.MarkerNodeRigid2D, planar.MarkerBodyRigid2D,
                  planar.RevoluteJoint2D, planar.PrismaticJoint2D]
CLASSES = catalogue.component_classes() + PLANAR_CLASSES
WITH_OUTPUTS = [cls for cls in CLASSES if cls.output_variables]
WITH_OUTPUT_METHOD = [cls for cls in CLASSES if callable(getattr(cls, "output", None))]
# classes whose inherited ``output`` accepts nothing, and why
NO_OUTPUTS = {fc.MarkerBodyMass: "it stands for the whole mass of its body, not for a point or a frame"}
ROTATION = np.asarray(rotations.rotation_matrix_from_rot_xyz([0.1, -0.2, 0.3]), dtype=float)


def build_model():
    """A ground, a rigid body on a NodeRigidBodyEP (one more per joint), a mass point on a NodePoint, an
    ObjectMass1D on a Node1D, a NodeGenericODE2, markers of each kind, every connector between a body and the
    ground, an FFRF body with its Tisserand frame, a reduced-order FFRF body and the planar items. Nothing moves
    it: only its outputs at the initial state are evaluated."""
    system = System()
    add = system.add
    ground = add(fc.ObjectGround([0.0, 0.0, 0.5], ROTATION))
    ground_frame = add(fc.MarkerBodyRigid(ground, [0.2, 0.0, 0.0]))
    ground_point = add(fc.MarkerBodyPosition(ground, [0.0, 0.3, 0.0]))
    ground_node = add(fc.NodePointGround([0.5, -0.5, 0.0]))
    ground_node_point = add(fc.MarkerNodePosition(ground_node))
    ground_coordinate = add(fc.MarkerNodeCoordinate(ground_node, 0))

    # the main rigid body: node and body markers, the spring-dampers and the spherical joint
    body, body_frame = rigid_body(system, [1.0, 0.2, -0.1], rotation=ROTATION, angular_velocity=[0.3, -0.5, 1.2],
                                  velocity=[0.4, 0.1, -0.2], local_position=[0.1, 0.0, 0.2])
    node = system.objects[body].node_number
    add(fc.MarkerNodeRigid(node, ROTATION.T, [0.0, 0.1, 0.0]))
    add(fc.MarkerNodePosition(node))
    body_point = add(fc.MarkerBodyPosition(body, [0.0, 0.1, 0.0]))
    add(fc.MarkerBodyMass(body))
    add(fc.SphericalJoint([body_frame, ground_frame]))
    add(fc.SpringDamper([body_point, ground_point], 100.0, 2.0, reference_length=0.5))
    add(fc.RigidBodySpringDamper([body_frame, ground_frame], np.diag([10.0, 20.0, 30.0, 1.0, 2.0, 3.0]),
                                 np.diag([0.1] * 6)))
    add(fc.TorsionalSpringDamper([body_frame, ground_frame], 10.0, 0.5))

    # one rigid body per joint, so that no two joints hold the same body
    turn_node = add(fc.NodeGenericODE2([0.0]))
    joints = [lambda m: fc.GenericJoint(m, (1, 1, 1, 0, 1, 1)), lambda m: fc.RevoluteJoint(m, turn_node=turn_node),
              fc.PrismaticJoint, fc.UniversalJoint, fc.CylindricalJoint]
    for number, joint in enumerate(joints):
        _, frame = rigid_body(system, [0.0, 1.0 + number, 0.4], rotation=ROTATION, angular_velocity=[0.2, 0.1, 0.9],
                              velocity=[0.3, 0.0, 0.1], local_position=[-0.1, 0.0, 0.0])
        add(joint([frame, ground_frame]))

    # the mass point, the 1D mass and the generic node, with the connectors of points and coordinates
    point_node = add(fc.NodePoint([0.0, 1.0, 0.0], [0.01, 0.0, 0.02], [0.3, -0.1, 0.2]))
    point = add(fc.ObjectMassPoint(point_node, 2.0))
    point_marker = add(fc.MarkerNodePosition(point_node))
    point_on_body = add(fc.MarkerBodyPosition(point, [0.1, 0.0, 0.0]))
    add(fc.MarkerBodyMass(point))
    add(fc.DistanceConstraint([point_on_body, ground_point], 1.0))
    add(fc.CartesianSpringDamper([point_marker, ground_node_point], [10.0, 20.0, 30.0], [0.1, 0.2, 0.3]))
    line_node = add(fc.Node1D([0.2], [0.05], [0.5]))
    line_mass = add(fc.ObjectMass1D(line_node, 1.5, [0.0, 0.0, 1.0], ROTATION))
    add(fc.MarkerBodyRigid(line_mass, [0.0, 0.1, 0.0]))
    line_coordinate = add(fc.MarkerNodeCoordinate(line_node, 0))
    add(fc.CoordinateConstraint([line_coordinate, ground_coordinate], 0.1, 2.0))
    first_order = add(fc.NodeODE1([0.0, 0.0], [0.3, -0.2]))
    add(fc.ObjectGenericODE1([first_order], np.array([[-1.0, 0.5], [0.0, -2.0]]), [0.1, 0.0]))
    generic = add(fc.NodeGenericODE2([0.1, 0.2], [0.01, -0.02], [1.0, -1.0]))
    add(fc.MarkerNodeCoordinates(generic))
    add(fc.CoordinateSpringDamper([add(fc.MarkerNodeCoordinate(generic, 1)), ground_coordinate], 50.0, 0.5))
    driven_node = add(fc.Node1D([0.0], [0.0], [0.1]))
    add(fc.ObjectMass1D(driven_node, 1.0, [0.0, 0.0, -1.0], ROTATION))
    add(fc.TimeDependentCoordinateConstraint([ground_coordinate, add(fc.MarkerNodeCoordinate(driven_node, 0))],
                                             None, [[1.0]], offset=lambda t: [0.1 * t]))

    # a full FFRF body (its Tisserand frame adds the coordinate-vector constraint and the object marker) and a
    # reduced-order body on the same 12-node mesh
    mesh = block_mesh(0.2, 0.1, 0.1, 2, 1, 1)
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=2.1e11, poissons_ratio=0.3, density=7850.0)
    stiffness = 1e-3 * stiffness
    face = np.flatnonzero(np.isclose(mesh.nodes[:, 0], 0.0))
    full = fc.add_ffrf_body(system, mesh.nodes, mass, stiffness, position=(2.0, 0.0, 0.0),
                            angular_velocity=(0.0, 0.0, 1.0), velocity=(0.1, 0.0, 0.0))
    fc.add_tisserand_frame(system, full)
    reduced = fc.add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, eigenmodes(mass, stiffness, 4, solver="dense"),
                                       position=(3.0, 0.0, 0.0), angular_velocity=(0.5, 0.0, 0.0))
    for ffrf_body in (full, reduced):
        add(fc.MarkerSuperElementPosition(ffrf_body, face[:2], [0.5, 0.5]))
        add(fc.MarkerSuperElementRigid(ffrf_body, face, np.full(face.size, 1.0 / face.size), [0.0, 0.05, 0.0]))

    # planar items
    planar_point_node = add(planar.NodePoint2D([0.5, 0.5], [0.01, 0.0], [0.1, 0.2]))
    add(planar.ObjectMassPoint2D(planar_point_node, 1.0))
    add(planar.MarkerNodePosition2D(planar_point_node))
    for number, joint in enumerate((planar.RevoluteJoint2D, planar.PrismaticJoint2D)):
        planar_node = add(planar.NodeRigidBody2D([1.0, 1.0 + number, 0.3], [0.0, 0.0, 0.1], [0.1, 0.0, 0.5]))
        planar_body = add(planar.ObjectRigidBody2D(planar_node, 2.0, 0.1, [0.1, 0.0]))
        add(planar.MarkerNodeRigid2D(planar_node))
        add(joint([add(planar.MarkerBodyRigid2D(planar_body, [0.2, 0.0, 0.0])), ground_frame]))
    return system


@pytest.fixture(scope="module")
def model():
    """(the system's items by class, evaluate(item, variable) -> values at the initial state, the assembly)."""
    system = build_model()
    assembled = system.assemble()
    items = {}
    for family in ("node", "object", "marker", "load", "sensor"):
        for item in system.items(family):
            items.setdefault(type(item), []).append(item)
    multipliers = np.linspace(0.5, 1.5, assembled.n_multipliers)      # every reaction output nonzero

    def evaluate(item, variable):
        function = assembled.output_function(lambda ctx: item.output(ctx, variable), variable)
        return np.asarray(function(0.0, assembled.q_initial, assembled.v_initial,
                                   np.zeros(assembled.n_coordinates), multipliers), dtype=float)

    return items, evaluate, assembled


def test_the_model_holds_every_class_with_outputs(model):
    items, _, _ = model
    assert not [cls.__name__ for cls in WITH_OUTPUT_METHOD if cls not in items]


@pytest.mark.parametrize("cls", WITH_OUTPUTS, ids=lambda cls: cls.__name__)
def test_every_declared_output_evaluates(model, cls):
    """Each declared name is an Exudyn OutputVariableType name (or one of floatframe's own) and gives finite
    numbers at the initial state, non-empty except the coordinates of a node that has none (a NodePointGround, and a coordinate marker on it)."""
    items, evaluate, _ = model
    assert set(cls.output_variables) <= set(EXUDYN_NAMES + FLOATFRAME_NAMES), cls.output_variables
    assert len(set(cls.output_variables)) == len(cls.output_variables), f"{cls.__name__} declares a name twice"
    for item in items[cls]:
        for variable in cls.output_variables:
            values = evaluate(item, variable)
            assert np.all(np.isfinite(values)), (item.label, variable, values)
            owner = getattr(item, "node", item)          # a coordinate marker's node
            no_coordinates = variable.startswith("Coordinates") and getattr(owner, "n_coordinates", 1) == 0
            assert values.size or no_coordinates, (item.label, variable)


@pytest.mark.parametrize("cls", WITH_OUTPUT_METHOD, ids=lambda cls: cls.__name__)
def test_every_other_exudyn_name_is_refused_with_the_items_error(model, cls):
    """Every name of Exudyn's OutputVariableType (and floatframe's own) that the class does not declare."""
    items, evaluate, _ = model
    for item in items[cls]:
        for variable in EXUDYN_NAMES + FLOATFRAME_NAMES:
            if variable in cls.output_variables:
                continue
            with pytest.raises(ModelError) as refusal:
                evaluate(item, variable)
            message = str(refusal.value)
            assert message.startswith(f"{item.label}: ") and f"'{variable}'" in message, message


def test_every_catalogued_class_with_an_output_method_declares_a_name():
    silent = [cls.__name__ for cls in catalogue.component_classes()
              if callable(getattr(cls, "output", None)) and not cls.output_variables and cls not in NO_OUTPUTS]
    assert not silent
    assert all(not cls.output_variables for cls in NO_OUTPUTS)


@pytest.mark.parametrize("cls", catalogue.component_classes(), ids=lambda cls: cls.__name__)
def test_the_catalogue_lists_the_declaration(cls):
    assert catalogue.output_variables(cls) == tuple(cls.output_variables)
    assert cls.output_variables or not callable(getattr(cls, "output", None)) or cls in NO_OUTPUTS


def test_declarations_of_the_joints_with_and_without_a_hinge_angle():
    """Angle belongs to the joints whose one free rotation is about the joint z axis."""
    with_angle = {cls.__name__ for cls in CLASSES if "Angle" in cls.output_variables}
    assert with_angle == {"RevoluteJoint", "CylindricalJoint"}


@pytest.mark.parametrize("body_class", [fc.ObjectFFRF, fc.ObjectFFRFReducedOrder], ids=lambda cls: cls.__name__)
def test_ffrf_mesh_outputs_evaluate_and_others_are_refused(model, body_class):
    """The mesh-node outputs (``mesh_outputs``, recorded by SensorSuperElement) at a mesh node."""
    items, _, assembled = model
    body = items[body_class][0]
    state = (0.0, assembled.q_initial, assembled.v_initial, np.zeros(assembled.n_coordinates),
             np.zeros(assembled.n_multipliers))
    for variable in body.mesh_outputs:
        values = assembled.output_function(lambda ctx: body.mesh_node_output(ctx, 3, variable))(*state)
        assert np.asarray(values).size == 3 and np.all(np.isfinite(values)), variable
    for variable in set(EXUDYN_NAMES) - set(body.mesh_outputs) - {"StressLocal", "StrainLocal"}:
        with pytest.raises(ModelError, match=f"{body.label}: mesh nodes have no output variable '{variable}'"):
            assembled.output_function(lambda ctx: body.mesh_node_output(ctx, 3, variable))
