"""An FFRF body needs reference conditions that fix its mesh relative to its frame; without them the
assembly stops with an error that names the free motions and the remedy."""
import numpy as np
import pytest

import floatframe as ff
from floatframe.components.base import ModelError
from floatframe.components.ffrf import FRAME_MESH_MOTIONS, add_ffrf_body
from floatframe.components.reference_conditions import add_tisserand_frame
from floatframe.fem import block_mesh, linear_elastic_matrices
from model_helpers import random_state

MESH = block_mesh(0.2, 0.1, 0.1, 2, 1, 1)  # 12 nodes, node k at MESH.nodes[k], node 0 at the origin
MASS, STIFFNESS = linear_elastic_matrices(MESH, youngs_modulus=1e7, poissons_ratio=0.3, density=1000.0)
SPIN = (0.0, 0.0, 50.0)
ALL_SIX = ", ".join(FRAME_MESH_MOTIONS)


def block(angular_velocity=SPIN):
    system = ff.System()
    body = add_ffrf_body(system, MESH.nodes, MASS, STIFFNESS, position=(0.1, -0.2, 0.3),
                         euler_parameters=(0.9, 0.3, -0.3, np.sqrt(1 - 0.99)), angular_velocity=angular_velocity,
                         name="block")
    return system, body


def fix_mesh_coordinates(system, body, fixed):
    """CoordinateConstraints holding the given (mesh node, coordinate) pairs at their reference values."""
    ground = system.add(ff.MarkerNodeCoordinate(system.add(ff.NodePointGround((0.0, 0.0, 0.0))), 0))
    for node, coordinate in fixed:
        marker = system.add(ff.MarkerNodeCoordinate(body.node_numbers[1 + node], coordinate))
        system.add(ff.CoordinateConstraint([ground, marker]))


# the rotor-disc 'constrained' set-up on the block: x, y, z of node 0; x, y of node 2 (on the x axis
# at 0.2 m); z of node 3 (at y = 0.1 m)
SIX_COORDINATES = [(0, 0), (0, 1), (0, 2), (2, 1), (2, 2), (3, 2)]


@pytest.mark.parametrize("angular_velocity", [SPIN, (0.0, 0.0, 0.0)], ids=["spinning", "at rest"])
def test_a_body_without_reference_conditions_is_refused_at_assembly(angular_velocity):
    system, body = block(angular_velocity)
    with pytest.raises(ModelError, match=rf"ObjectFFRF 0 'block': has no reference conditions for {ALL_SIX} "
                                         r"\(body axes\).*mass matrix is singular.*"
                                         r"add_tisserand_frame\(system, body\).*constrain mesh-node coordinates"):
        system.assemble()


def test_with_the_tisserand_frame_the_body_assembles_and_nothing_is_free():
    system, body = block()
    add_tisserand_frame(system, body)
    assembled = system.assemble()
    assert body.free_frame_motions(assembled) == [] and assembled.pending_checks == []


def test_six_suitable_coordinate_constraints_fix_the_mesh_and_the_block_spins():
    system, body = block()
    fix_mesh_coordinates(system, body, SIX_COORDINATES)
    sensor = system.add(ff.SensorSuperElement(body, 11, "Displacement"))
    result = ff.GeneralizedAlpha(0.5).solve(system.assemble(), 0.01, 10)
    assert result.statistics.steps == 10
    assert np.abs(result.sensor(sensor)[-1]).max() > 1e-3  # it moved: the frame turned by 0.5 rad


def test_fixing_one_node_at_the_origin_leaves_the_three_rotations_free():
    system, body = block()
    fix_mesh_coordinates(system, body, SIX_COORDINATES[:3])
    with pytest.raises(ModelError, match=r"no reference conditions for rotation about x, rotation about y, "
                                         r"rotation about z \(body axes\)"):
        system.assemble()


def test_five_constraints_leave_the_rotation_about_the_line_through_two_nodes_free():
    system, body = block()
    fix_mesh_coordinates(system, body, SIX_COORDINATES[:5])
    with pytest.raises(ModelError, match=r"no reference conditions for rotation about x \(body axes\)"):
        system.assemble()


def test_a_node_off_the_origin_leaves_combinations_of_rotation_and_translation_free():
    system, body = block()
    fix_mesh_coordinates(system, body, [(11, 0), (11, 1), (11, 2)])  # node 11 at (0.2, 0.1, 0.1)
    with pytest.raises(ModelError, match=rf"no reference conditions for 3 combinations of {ALL_SIX} \(body axes\)"):
        system.assemble()


def test_spring_dampers_on_mesh_nodes_are_no_reference_conditions():
    """They act on material points, which the six motions leave in place (see the Exudyn test below)."""
    system, body = block()
    ground = system.add(ff.ObjectGround())
    for k in (0, 2, 9, 11):
        system.add(ff.CartesianSpringDamper([system.add(ff.MarkerSuperElementPosition(body, [k], [1.0])),
                                             system.add(ff.MarkerBodyPosition(ground, MESH.nodes[k]))],
                                            [1e4] * 3, [10.0] * 3))
    with pytest.raises(ModelError, match=rf"no reference conditions for {ALL_SIX}"):
        system.assemble()


def test_a_rigid_body_with_mass_on_the_frame_node_makes_the_mass_matrix_regular():
    """Accepted: nothing is singular (the frame is then a body of its own, held to the mesh by nothing)."""
    system, body = block()
    system.add(ff.ObjectRigidBody(body.node_numbers[0], 1e-3, [1e-3, 1e-3, 1e-3, 0, 0, 0]))
    assembled = system.assemble()
    mass = assembled.mass_matrix(0.0, assembled.q_initial, assembled.v_initial).toarray()
    jacobian = assembled.constraint_jacobian(0.0, assembled.q_initial).toarray()
    assert np.linalg.matrix_rank(np.block([[mass, jacobian.T], [jacobian, np.zeros((1, 1))]])) == 44


def test_a_frame_mass_given_as_a_parameter_is_checked_once_it_has_a_value():
    system, body = block()
    system.add(ff.ObjectRigidBody(body.node_numbers[0], ff.Parameter("frame mass", size=1),
                                  [1e-3, 1e-3, 1e-3, 0, 0, 0]))
    assembled = system.assemble()  # M holds the unknown mass: undecided
    assert len(assembled.pending_checks) == 1
    with pytest.raises(ModelError, match=r"ObjectFFRF 0 'block': has no reference conditions for translation along "
                                         r"x, translation along y, translation along z \(body axes\)"):
        assembled.set_parameter("frame mass", 0.0)  # the rigid body's inertia still holds the rotations
    assembled.set_parameter("frame mass", 1e-3)
    assert assembled.pending_checks == []


def test_the_six_motions_leave_every_mesh_node_in_place_and_span_the_null_space_of_the_mass_matrix():
    system, body = block()
    add_tisserand_frame(system, body)
    sensors = [system.add(ff.SensorSuperElement(body, k, "Position")) for k in range(len(MESH.nodes))]
    assembled = system.assemble()
    t, q, v, a, lam = random_state(assembled, np.random.default_rng(11), scale=3e-2)
    motions = np.zeros((assembled.n_coordinates, 6))
    motions[body.coordinate_indices] = body.frame_mesh_motions(q)

    def positions(x):
        return np.concatenate(assembled.sensor_values(t, x, v, a, lam))

    h = 1e-6
    for z in motions.T:  # d(position)/ds along each motion, by central differences: zero
        assert np.abs(positions(q + h * z) - positions(q - h * z)).max() / (2 * h) < 1e-8 * np.abs(z).max()
    mass = assembled.mass_matrix(t, q, v).toarray()
    assert np.abs(mass @ motions).max() < 1e-12 * np.abs(mass).max() * np.abs(motions).max()
    # together with theta (the Euler-parameter direction) they are the whole null space: rank 43 - 7 = 36
    assert np.linalg.matrix_rank(mass, tol=1e-10 * np.abs(mass).max()) == 36
    theta = np.zeros(assembled.n_coordinates)
    rows = body.rigid_node.coordinate_indices[3:]
    theta[rows] = body.rigid_node.reference_coordinates[3:] + q[rows]
    assert np.linalg.matrix_rank(np.column_stack([motions, theta]), tol=1e-10) == 7


@pytest.mark.exudyn
def test_exudyn_does_not_solve_the_spring_supported_body_either():
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as eii
    from exudyn.rigidBodyUtilities import AngularVelocity2EulerParameters_t

    system_container = exu.SystemContainer()
    mbs = system_container.AddSystem()
    theta = np.array([1.0, 0.0, 0.0, 0.0])
    frame = mbs.AddNode(eii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0] + list(theta),
                                            initialVelocities=[0, 0, 0] + list(AngularVelocity2EulerParameters_t(SPIN, theta))))
    nodes = [mbs.AddNode(eii.Point(referenceCoordinates=list(p))) for p in MESH.nodes]
    matrices = []
    for matrix in (STIFFNESS, MASS):
        container = exu.MatrixContainer()
        container.SetWithDenseMatrix(matrix.toarray(), useDenseMatrix=False)
        matrices.append(container)
    body = mbs.AddObject(eii.ObjectFFRF(nodeNumbers=[frame] + nodes, stiffnessMatrixFF=matrices[0],
                                        massMatrixFF=matrices[1]))
    ground = mbs.AddObject(eii.ObjectGround())
    for k in (0, 2, 9, 11):
        mesh_marker = mbs.AddMarker(eii.MarkerSuperElementPosition(bodyNumber=body, meshNodeNumbers=[k],
                                                                   weightingFactors=[1.0]))
        ground_marker = mbs.AddMarker(eii.MarkerBodyPosition(bodyNumber=ground, localPosition=list(MESH.nodes[k])))
        mbs.AddObject(eii.CartesianSpringDamper(markerNumbers=[mesh_marker, ground_marker], stiffness=[1e4] * 3,
                                                damping=[10.0] * 3))
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = 10
    settings.timeIntegration.endTime = 0.01
    settings.timeIntegration.verboseMode = 0
    settings.solution.file.write = False
    with pytest.raises(Exception, match="not factorized|SolveDynamic terminated"):
        mbs.SolveDynamic(settings)
