"""SolveStatic and ComputeODE2Eigenvalues of the Exudyn layer: the same scripts on floatframe and on
exudyn 1.13.6 (tests marked ``exudyn``), against closed forms and against the mesh's own K and M."""
import numpy as np
import pytest
import scipy.linalg

import exudyn_style_models as models
import floatframe.exudyn as ffexu
from floatframe.exudyn import FEM as ffFEM
from floatframe.exudyn import itemInterface as ffitems
from floatframe.components.base import ModelError
from floatframe.exudyn._names import ExudynLayerError
from floatframe.solvers import SolverError

FLOATFRAME = (ffexu, ffitems, ffFEM)
SPRING, CENTRE_SPRING, ARM = 1e3, 500.0, 0.5


def exudyn_modules():
    exu = pytest.importorskip("exudyn")
    import exudyn.FEM as FEM
    import exudyn.itemInterface as items
    return exu, items, FEM


# --- the scripts ------------------------------------------------------------------------------------
def rigid_body_on_springs(exu, ii, fem_module, force=(10.0, -20.0, 30.0), torque=(0.0, 0.0, 5.0),
                          rotational_springs=True):
    """A rigid body held by a spring at its centre and four at +-ARM on x and y; a force and a torque
    at the centre. Static solution: u = F / (k_c + 4 k), sin(phi_z) = T_z / (4 k ARM^2)."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0, 1, 0, 0, 0]))
    body = mbs.AddObject(ii.ObjectRigidBody(nodeNumber=node, mass=2.0, inertia=[0.1, 0.2, 0.3, 0, 0, 0]))
    ground = mbs.AddObject(ii.ObjectGround())
    points = [([0, 0, 0], CENTRE_SPRING)]
    if rotational_springs:
        points += [([ARM, 0, 0], SPRING), ([-ARM, 0, 0], SPRING), ([0, ARM, 0], SPRING), ([0, -ARM, 0], SPRING)]
    for point, stiffness in points:
        on_ground = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=point))
        on_body = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=body, localPosition=point))
        mbs.AddObject(ii.CartesianSpringDamper(markerNumbers=[on_ground, on_body], stiffness=[stiffness] * 3,
                                               damping=[0, 0, 0]))
    centre = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body, localPosition=[0, 0, 0]))
    mbs.AddLoad(ii.Force(markerNumber=centre, loadVector=list(force)))
    mbs.AddLoad(ii.Torque(markerNumber=centre, loadVector=list(torque)))
    sensor = mbs.AddSensor(ii.SensorNode(nodeNumber=node, storeInternal=True, writeToFile=False,
                                         outputVariableType=exu.OutputVariableType.Coordinates))
    mbs.Assemble()
    return mbs, node, sensor


def spring_chain(exu, ii, fem_module, count=4, mass=2.0, stiffness=(1e3, 2e3, 4e3)):
    """``count`` rigid bodies on a line, joined to each other and the first to the ground by Cartesian
    springs at their centres; the last end is free."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ii.ObjectGround())
    previous = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, 0]))
    for i in range(count):
        node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[i + 1.0, 0, 0, 1, 0, 0, 0]))
        body = mbs.AddObject(ii.ObjectRigidBody(nodeNumber=node, mass=mass,
                                                inertia=[0.1, 0.2, 0.3, 0, 0, 0]))
        marker = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=body, localPosition=[0, 0, 0]))
        mbs.AddObject(ii.CartesianSpringDamper(markerNumbers=[previous, marker], stiffness=list(stiffness),
                                               damping=[0, 0, 0]))
        previous = marker
    mbs.Assemble()
    return mbs


CHAIN_ROTATIONS = [7 * i + c for i in range(4) for c in (3, 4, 5, 6)]  # Euler parameters of the 4 bodies


def chain_closed_form(count=4, mass=2.0, stiffness=(1e3, 2e3, 4e3)) -> np.ndarray:
    """omega^2 of a fixed-free chain of equal masses and springs: 4 k/m sin^2((2j - 1) pi / (2 (2n + 1)))."""
    j = np.arange(1, count + 1)
    return np.sort(np.concatenate([4 * k / mass * np.sin((2 * j - 1) * np.pi / (2 * (2 * count + 1))) ** 2
                                   for k in stiffness]))


def block_fem(fem_module):
    fem = fem_module.FEMinterface()
    fem.ImportFromAbaqusInputFile(f"{models.BLOCK}.inp", typeName="Instance", name="block-1")
    fem.ReadMassMatrixFromAbaqus(f"{models.BLOCK}_MASS1.mtx")
    fem.ReadStiffnessMatrixFromAbaqus(f"{models.BLOCK}_STIF1.mtx")
    fem.ScaleStiffnessMatrix(1e-2)
    return fem


def clamped_block(exu, ii, fem_module, tip_load=(0.0, -2e5, 1e5)):
    """The block as an ObjectFFRF item by item: frame node fixed by coordinate constraints, mesh face
    x = 0 clamped by coordinate constraints, a load on the face x = 4 (spread evenly on its nodes)."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    fem = block_fem(fem_module)
    frame = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0, 1, 0, 0, 0]))
    mesh = [mbs.AddNode(ii.Point(referenceCoordinates=list(p))) for p in fem.GetNodePositionsAsArray()]
    stiffness, mass = exu.MatrixContainer(), exu.MatrixContainer()
    stiffness.SetWithDenseMatrix(fem.GetStiffnessMatrix(sparse=False), useDenseMatrix=False)
    mass.SetWithDenseMatrix(fem.GetMassMatrix(sparse=False), useDenseMatrix=False)
    body = mbs.AddObject(ii.ObjectFFRF(nodeNumbers=[frame] + mesh, massMatrixFF=mass, stiffnessMatrixFF=stiffness))
    ground = mbs.AddNode(ii.NodePointGround(referenceCoordinates=[0, 0, 0]))
    fixed = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=ground, coordinate=0))
    clamped = [(frame, c) for c in (0, 1, 2, 4, 5, 6)]
    clamped += [(mesh[k], axis) for k in fem.GetNodesInPlane([0, 0, 0], [1, 0, 0]) for axis in range(3)]
    for node, coordinate in clamped:
        marker = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=node, coordinate=coordinate))
        mbs.AddObject(ii.CoordinateConstraint(markerNumbers=[fixed, marker]))
    tip = fem.GetNodesInPlane([4, 0, 0], [1, 0, 0])
    marker = mbs.AddMarker(ii.MarkerSuperElementPosition(bodyNumber=body, meshNodeNumbers=np.array(tip),
                                                         weightingFactors=np.ones(len(tip)) / len(tip)))
    mbs.AddLoad(ii.Force(markerNumber=marker, loadVector=list(tip_load)))
    corner = fem.GetNodeAtPoint([4, 1, 1])
    sensor = mbs.AddSensor(ii.SensorSuperElement(bodyNumber=body, meshNodeNumber=corner, storeInternal=True,
                                                 writeToFile=False,
                                                 outputVariableType=exu.OutputVariableType.Displacement))
    mbs.Assemble()
    return mbs, fem, sensor


def free_block(exu, ii, fem_module):
    """The block with the Tisserand frame (ObjectFFRFinterface), at rest, no supports."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    fem, _ = models.block_body(exu, fem_module, mbs)
    mbs.Assemble()
    return mbs, fem


def static_settings(exu, **static):
    settings = exu.SimulationSettings()
    settings.staticSolver.verboseMode = 0
    settings.solution.file.write = False        # exudyn writes solution/coordinatesSolution.txt otherwise
    for name, value in static.items():
        setattr(settings.staticSolver, name, value)
    return settings


def mesh_free_coordinates(fem):
    """Mesh coordinates (0-based within the mesh) that are not clamped at x = 0."""
    clamped = np.array([3 * k + axis for k in fem.GetNodesInPlane([0, 0, 0], [1, 0, 0]) for axis in range(3)])
    return np.setdiff1d(np.arange(3 * fem.NumberOfNodes()), clamped)


# --- SolveStatic --------------------------------------------------------------------------------------
def test_static_rigid_body_matches_closed_form():
    mbs, node, _ = rigid_body_on_springs(*FLOATFRAME)
    assert mbs.SolveStatic(static_settings(ffexu)) is True
    position = mbs.GetNodeOutput(node, ffexu.OutputVariableType.Position)
    np.testing.assert_allclose(position, np.array([10.0, -20.0, 30.0]) / (CENTRE_SPRING + 4 * SPRING), rtol=1e-12)
    theta = mbs.systemData.GetODE2Coordinates()[3:7] + [1, 0, 0, 0]
    angle = 2 * np.arctan2(theta[3], theta[0])
    assert angle == pytest.approx(np.arcsin(5.0 / (4 * SPRING * ARM ** 2)), rel=1e-12)


@pytest.mark.exudyn
@pytest.mark.parametrize("static", [{}, dict(numberOfLoadSteps=4),
                                    dict(numberOfLoadSteps=3, loadStepGeometric=True, loadStepGeometricRange=100.0),
                                    dict(numberOfLoadSteps=2, loadStepStart=2.0, loadStepDuration=3.0),
                                    dict(numberOfLoadSteps=2, useLoadFactor=False),
                                    dict(stabilizerODE2term=10.0, numberOfLoadSteps=2)])
def test_static_rigid_body_and_load_steps_match_exudyn(static):
    exu, items, FEM = exudyn_modules()
    results = []
    for modules in (FLOATFRAME, (exu, items, FEM)):
        mbs, _, sensor = rigid_body_on_springs(*modules)
        mbs.SolveStatic(static_settings(modules[0], **static))
        results.append((mbs.GetSensorStoredData(sensor), mbs.systemData.GetODE2Coordinates()))
    (ours, q), (reference, q_reference) = results
    assert ours.shape == reference.shape
    np.testing.assert_allclose(ours, reference, rtol=0, atol=1e-12)
    np.testing.assert_allclose(q, q_reference, rtol=0, atol=1e-13)


def test_static_clamped_block_solves_k_u_equals_f(shared_block_data):
    mbs, fem, _ = clamped_block(*FLOATFRAME)
    mbs.SolveStatic(static_settings(ffexu))
    q = mbs.systemData.GetODE2Coordinates()
    free = mesh_free_coordinates(fem)
    stiffness = fem.GetStiffnessMatrix(sparse=False)
    tip = fem.GetNodesInPlane([4, 0, 0], [1, 0, 0])
    force = np.zeros(3 * fem.NumberOfNodes())
    for k in tip:
        force[3 * k:3 * k + 3] = np.array([0.0, -2e5, 1e5]) / len(tip)
    expected = np.linalg.solve(stiffness[np.ix_(free, free)], force[free])
    displacement = q[7:]
    np.testing.assert_allclose(displacement[free], expected, rtol=0, atol=1e-10 * np.abs(expected).max())
    np.testing.assert_allclose(np.delete(displacement, free), 0.0, atol=1e-14)
    np.testing.assert_allclose(q[:7], 0.0, atol=1e-14)


@pytest.mark.exudyn
def test_static_clamped_block_matches_exudyn(shared_block_data):
    exu, items, FEM = exudyn_modules()
    solutions = []
    for modules in (FLOATFRAME, (exu, items, FEM)):
        mbs, _, sensor = clamped_block(*modules)
        mbs.SolveStatic(static_settings(modules[0]))
        solutions.append((mbs.systemData.GetODE2Coordinates(), mbs.GetSensorStoredData(sensor)))
    (q, data), (q_exudyn, data_exudyn) = solutions
    scale = np.abs(q_exudyn).max()
    np.testing.assert_allclose(q, q_exudyn, rtol=0, atol=1e-9 * scale)
    np.testing.assert_allclose(data, data_exudyn, rtol=0, atol=1e-9 * scale)


def test_static_solution_is_the_current_state_and_optionally_the_initial_one():
    mbs, node, sensor = rigid_body_on_springs(*FLOATFRAME)
    mbs.SolveStatic(static_settings(ffexu, numberOfLoadSteps=2))
    solution = mbs.systemData.GetODE2Coordinates()
    assert np.abs(solution).max() > 1e-3
    np.testing.assert_allclose(mbs.GetSensorValues(sensor), solution, atol=1e-15)
    np.testing.assert_allclose(mbs.GetSensorStoredData(sensor)[:, 0], [0.0, 0.5, 1.0])
    np.testing.assert_allclose(mbs.systemData.GetODE2Coordinates(ffexu.ConfigurationType.Initial), 0.0)
    assert isinstance(mbs.sys["staticSolver"].statistics.newton_iterations, int)

    mbs.SolveStatic(static_settings(ffexu), updateInitialValues=True)
    np.testing.assert_allclose(mbs.systemData.GetODE2Coordinates(ffexu.ConfigurationType.Initial), solution,
                               atol=1e-14)
    mbs.SolveStatic(static_settings(ffexu))                    # starts at the solution: one Newton step
    assert mbs.sys["staticSolver"].statistics.newton_iterations == 1


def test_static_singular_system_names_the_free_coordinates():
    mbs, _, _ = rigid_body_on_springs(*FLOATFRAME, torque=(0.0, 0.0, 0.0), rotational_springs=False)
    with pytest.raises(SolverError, match=r"singular Jacobian.*no stiffness and no constraint holds "
                                          r"NodeRigidBodyEP 0 'node0' coordinates 4, 5, 6"):
        mbs.SolveStatic(static_settings(ffexu))


def test_static_settings_not_honoured_or_misspelt_are_errors():
    mbs, _, _ = rigid_body_on_springs(*FLOATFRAME)
    settings = static_settings(ffexu)
    settings.staticSolver.newton.active = False
    with pytest.raises(ffexu.ExudynLayerError, match=r"SolveStatic: unsupported simulation settings: "
                                                     r"staticSolver.newton.active = False"):
        mbs.SolveStatic(settings)
    settings = static_settings(ffexu)
    with pytest.raises(ffexu.ExudynLayerError, match=r"'staticSolver.numberOfLoadStep'.*closest supported "
                                                     r"name: 'numberOfLoadSteps'"):
        settings.staticSolver.numberOfLoadStep = 3


def test_static_is_a_module_function_too():
    mbs, node, _ = rigid_body_on_springs(*FLOATFRAME, torque=(0.0, 0.0, 0.0))
    assert ffexu.SolveStatic(mbs, static_settings(ffexu)) is True
    np.testing.assert_allclose(mbs.GetNodeOutput(node, ffexu.OutputVariableType.Displacement),
                               np.array([10.0, -20.0, 30.0]) / (CENTRE_SPRING + 4 * SPRING), rtol=1e-12)


# --- ComputeODE2Eigenvalues -------------------------------------------------------------------------
def test_eigenvalues_of_a_spring_chain_match_closed_form():
    mbs = spring_chain(*FLOATFRAME)
    rotations = CHAIN_ROTATIONS
    values, vectors = mbs.ComputeODE2Eigenvalues(constrainedCoordinates=rotations, ignoreAlgebraicEquations=True)
    np.testing.assert_allclose(values, chain_closed_form(), rtol=1e-12)
    assert vectors.shape == (28, 12)
    np.testing.assert_allclose(vectors[rotations], 0.0)
    frequencies, _ = mbs.ComputeODE2Eigenvalues(constrainedCoordinates=rotations, ignoreAlgebraicEquations=True,
                                                convert2Frequencies=True, numberOfEigenvalues=3)
    np.testing.assert_allclose(frequencies, np.sqrt(chain_closed_form()[:3]) / (2 * np.pi), rtol=1e-12)
    # with the Euler-parameter constraints in the null space: 12 rotational zeros, then the same values
    values, vectors = mbs.ComputeODE2Eigenvalues()
    assert values.shape == (24,) and vectors.shape == (28, 24)
    np.testing.assert_allclose(values[:12], 0.0, atol=1e-9)
    np.testing.assert_allclose(values[12:], chain_closed_form(), rtol=1e-10)
    sparse_values, _ = mbs.ComputeODE2Eigenvalues(constrainedCoordinates=rotations, ignoreAlgebraicEquations=True,
                                                  useSparseSolver=True, numberOfEigenvalues=4)
    np.testing.assert_allclose(sparse_values, chain_closed_form()[:4], rtol=1e-10)


def test_complex_eigenvalues_of_a_damped_body():
    SC = ffexu.SystemContainer()
    mbs = SC.AddSystem()
    node = mbs.AddNode(ffitems.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0, 1, 0, 0, 0]))
    body = mbs.AddObject(ffitems.ObjectRigidBody(nodeNumber=node, mass=2.0, inertia=[0.1, 0.2, 0.3, 0, 0, 0]))
    ground = mbs.AddObject(ffitems.ObjectGround())
    markers = [mbs.AddMarker(ffitems.MarkerBodyPosition(bodyNumber=b, localPosition=[0, 0, 0])) for b in (ground, body)]
    mbs.AddObject(ffitems.CartesianSpringDamper(markerNumbers=markers, stiffness=[800.0] * 3, damping=[8.0] * 3))
    mbs.Assemble()
    values, vectors = mbs.ComputeODE2Eigenvalues(computeComplexEigenvalues=True, useAbsoluteValues=False)
    decay, omega = 8.0 / (2 * 2.0), np.sqrt(800.0 / 2.0 - (8.0 / 4.0) ** 2)
    oscillating = values[np.abs(values.imag) > 1e-6]
    np.testing.assert_allclose(np.sort_complex(oscillating), [-decay - 1j * omega] * 3 + [-decay + 1j * omega] * 3,
                               rtol=1e-12)
    assert vectors.shape == (14, 12)


def test_eigenvalue_options_that_conflict_are_errors():
    mbs = spring_chain(*FLOATFRAME)
    with pytest.raises(ffexu.ExudynLayerError, match="set ignoreAlgebraicEquations=True"):
        mbs.ComputeODE2Eigenvalues(constrainedCoordinates=[3, 4, 5, 6])
    with pytest.raises(ffexu.ExudynLayerError, match="useSparseSolver must be False"):
        mbs.ComputeODE2Eigenvalues(useSparseSolver=True, numberOfEigenvalues=3)
    with pytest.raises(ffexu.ExudynLayerError, match="convert2Frequencies=False"):
        mbs.ComputeODE2Eigenvalues(computeComplexEigenvalues=True, convert2Frequencies=True)


@pytest.mark.exudyn
@pytest.mark.parametrize("options", [{}, dict(constrainedCoordinates=CHAIN_ROTATIONS, ignoreAlgebraicEquations=True,
                                              numberOfEigenvalues=5),
                                     dict(convert2Frequencies=True)])
def test_eigenvalues_of_a_spring_chain_match_exudyn(options):
    exu, items, FEM = exudyn_modules()
    ours, _ = spring_chain(*FLOATFRAME).ComputeODE2Eigenvalues(**options)
    reference, _ = spring_chain(exu, items, FEM).ComputeODE2Eigenvalues(**options)
    assert ours.shape == reference.shape
    np.testing.assert_allclose(ours, reference, rtol=1e-10, atol=1e-6 * np.abs(reference).max())


def test_eigenvalues_of_the_clamped_block_are_those_of_its_clamped_mesh(shared_block_data):
    mbs, fem, _ = clamped_block(*FLOATFRAME)
    values, vectors = mbs.ComputeODE2Eigenvalues(numberOfEigenvalues=10)
    free = mesh_free_coordinates(fem)
    stiffness, mass = fem.GetStiffnessMatrix(sparse=False), fem.GetMassMatrix(sparse=False)
    expected = scipy.linalg.eigh(stiffness[np.ix_(free, free)], mass[np.ix_(free, free)], eigvals_only=True)[:10]
    np.testing.assert_allclose(values, expected, rtol=1e-9)
    assert vectors.shape == (7 + 3 * fem.NumberOfNodes(), 10)


@pytest.mark.exudyn
def test_eigenvalues_of_the_clamped_block_match_exudyn(shared_block_data):
    exu, items, FEM = exudyn_modules()
    ours, _ = clamped_block(*FLOATFRAME)[0].ComputeODE2Eigenvalues(numberOfEigenvalues=12)
    reference, _ = clamped_block(exu, items, FEM)[0].ComputeODE2Eigenvalues(numberOfEigenvalues=12)
    np.testing.assert_allclose(ours, reference, rtol=1e-8)


def test_free_block_with_tisserand_frame_has_six_zeros_then_the_mesh_frequencies(shared_block_data):
    mbs, fem = free_block(*FLOATFRAME)
    values, _ = mbs.ComputeODE2Eigenvalues()
    stiffness, mass = fem.GetStiffnessMatrix(sparse=False), fem.GetMassMatrix(sparse=False)
    expected = scipy.linalg.eigh(stiffness, mass, eigvals_only=True)
    assert values.shape == (3 * fem.NumberOfNodes(),)
    np.testing.assert_allclose(values[:6], 0.0, atol=1e-8 * expected[6])
    np.testing.assert_allclose(values[6:], expected[6:], rtol=1e-9)


@pytest.mark.exudyn
def test_free_block_eigenvalues_match_exudyn(shared_block_data):
    exu, items, FEM = exudyn_modules()
    ours, _ = free_block(*FLOATFRAME)[0].ComputeODE2Eigenvalues(numberOfEigenvalues=16)
    reference, _ = free_block(exu, items, FEM)[0].ComputeODE2Eigenvalues(numberOfEigenvalues=16)
    np.testing.assert_allclose(ours[:6], 0.0, atol=1e-8 * reference[6])
    np.testing.assert_allclose(reference[:6], 0.0, atol=1e-6 * reference[6])
    np.testing.assert_allclose(ours[6:], reference[6:], rtol=1e-8)


def test_dynamics_from_the_static_solution_stay_at_rest():
    mbs, node, _ = rigid_body_on_springs(*FLOATFRAME)
    mbs.SolveStatic(static_settings(ffexu), updateInitialValues=True)
    solution = mbs.systemData.GetODE2Coordinates()
    settings = models.settings(ffexu, 10, 1e-3)
    ffexu.SolveDynamic(mbs, settings)
    np.testing.assert_allclose(mbs.systemData.GetODE2Coordinates(), solution, rtol=0, atol=1e-12)
    np.testing.assert_allclose(mbs.systemData.GetODE2Coordinates_t(), 0.0, atol=1e-9)


def damped_body_moving(exu, ii, fem_module):
    """A body on three damped springs with an initial velocity: Exudyn's static solver keeps the
    velocities, so the damping forces -d v enter the equilibrium."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0, 1, 0, 0, 0],
                                          initialVelocities=[1, 2, 3, 0, 0, 0, 0]))
    body = mbs.AddObject(ii.ObjectRigidBody(nodeNumber=node, mass=2.0, inertia=[1, 1, 1, 0, 0, 0]))
    ground = mbs.AddObject(ii.ObjectGround())
    for point in ([0, 0, 0], [1, 0, 0], [0, 1, 0]):
        markers = [mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=b, localPosition=point)) for b in (ground, body)]
        mbs.AddObject(ii.CartesianSpringDamper(markerNumbers=markers, stiffness=[100.0] * 3, damping=[1.0] * 3))
    mbs.Assemble()
    return mbs


def test_static_keeps_the_initial_velocities():
    mbs = damped_body_moving(*FLOATFRAME)
    mbs.SolveStatic(static_settings(ffexu), updateInitialValues=True)
    np.testing.assert_allclose(mbs.systemData.GetODE2Coordinates()[:3], -0.01 * np.array([1, 2, 3]), rtol=1e-12)
    np.testing.assert_allclose(mbs.systemData.GetODE2Coordinates_t(), [1, 2, 3, 0, 0, 0, 0])
    np.testing.assert_allclose(mbs.systemData.GetODE2Coordinates_t(ffexu.ConfigurationType.Initial),
                               [1, 2, 3, 0, 0, 0, 0])


@pytest.mark.exudyn
def test_static_with_initial_velocities_matches_exudyn():
    exu, items, FEM = exudyn_modules()
    states = []
    for modules in (FLOATFRAME, (exu, items, FEM)):
        mbs = damped_body_moving(*modules)
        mbs.SolveStatic(static_settings(modules[0]))
        states.append(np.concatenate([mbs.systemData.GetODE2Coordinates(), mbs.systemData.GetODE2Coordinates_t()]))
    np.testing.assert_allclose(states[0], states[1], rtol=0, atol=1e-14)


@pytest.mark.exudyn
@pytest.mark.parametrize("sparse", [True, False])
def test_fem_interface_eigenmodes_match_exudyn(shared_rotor_data, sparse):
    """FEMinterface.ComputeEigenmodes: the frequencies of exudyn's, and the same eigenspace. The dense path keeps
    the frequencies of all n eigenpairs, the six rigid ones (round-off) included, as Exudyn's."""
    exudyn_fem = pytest.importorskip("exudyn.FEM")
    ours, theirs = models.rotor_fem(ffFEM), models.rotor_fem(exudyn_fem)
    for fem in (ours, theirs):
        fem.ComputeEigenmodes(8, excludeRigidBodyModes=6, useSparseSolver=sparse)
    ours_hz, reference_hz = ours.GetEigenFrequenciesHz(), theirs.GetEigenFrequenciesHz()
    assert ours_hz.shape == reference_hz.shape == ((8,) if sparse else (ours.GetMassMatrix().shape[0],))
    rigid = 0 if sparse else 6
    assert np.all(ours_hz[:rigid] < 1e-3) and np.all(reference_hz[:rigid] < 1e-3)   # zero to round-off [Hz]
    np.testing.assert_allclose(ours_hz[rigid:], reference_hz[rigid:], rtol=1e-8)
    basis, reference = ours.modeBasis["matrix"], theirs.modeBasis["matrix"]
    mass = ours.GetMassMatrix(sparse=True)
    projected = basis @ (basis.T @ (mass @ reference))
    assert np.abs(projected - reference).max() < 1e-6 * np.abs(reference).max()


# --- Craig-Bampton modes, node selection and files of FEMinterface --------------------------------
def rotor_interfaces(fem, selection):
    """Boundary node lists at the shaft ends z = 0 and z = 0.5: the end faces (GetNodesInPlane, as
    Exudyn's objectFFRFreducedOrderTest.py selects them) or the 4 nodes on the circle r = 0.05."""
    if selection == "faces":
        return [fem.GetNodesInPlane([0, 0, z], [0, 0, 1]) for z in (0.0, 0.5)]
    return [fem.GetNodesOnCircle([0, 0, z], [0, 0, 1], 0.05) for z in (0.0, 0.5)]


def largest_principal_angle_sine(basis, reference):
    return float(np.sin(scipy.linalg.subspace_angles(scipy.linalg.orth(basis), scipy.linalg.orth(reference))).max())


@pytest.mark.exudyn
@pytest.mark.parametrize("selection", ["faces", "circles"])
@pytest.mark.parametrize("variant", ["RBE2", "RBE3"])
def test_craig_bampton_modes_of_the_rotor_match_exudyn(shared_rotor_data, variant, selection):
    """Exudyn's eigenValues (fixed-interface only), the same spanned space, and the static columns
    themselves (floatframe builds them as Exudyn does)."""
    exudyn_fem = pytest.importorskip("exudyn.FEM")
    ours, theirs = models.rotor_fem(ffFEM), models.rotor_fem(exudyn_fem)
    interfaces = rotor_interfaces(theirs, selection)
    assert rotor_interfaces(ours, selection) == interfaces
    ours.ComputeHurtyCraigBamptonModes(interfaces, 8, computationMode=getattr(ffFEM.HCBstaticModeSelection, variant))
    theirs.ComputeHurtyCraigBamptonModes(interfaces, 8,
                                         computationMode=getattr(exudyn_fem.HCBstaticModeSelection, variant))
    np.testing.assert_allclose(ours.eigenValues, theirs.eigenValues, rtol=1e-8)
    np.testing.assert_allclose(ours.GetEigenFrequenciesHz(), theirs.GetEigenFrequenciesHz(), rtol=1e-8)
    basis, reference = ours.modeBasis["matrix"], theirs.modeBasis["matrix"]
    assert basis.shape == reference.shape == (345, 14) and ours.modeBasis["type"] == theirs.modeBasis["type"]
    assert largest_principal_angle_sine(basis, reference) < 1e-8
    np.testing.assert_allclose(basis[:, :6], reference[:, :6], atol=1e-10 * np.abs(reference[:, :6]).max())


@pytest.mark.exudyn
def test_craig_bampton_modes_with_one_interface_match_exudyn(shared_rotor_data):
    """One RBE2 interface (the left face), excluded as the reference condition: fixed-interface modes
    only. (Exudyn's RBE3 raises an error with a single interface; floatframe's gives the modes with the
    face's mean motion held.)"""
    exudyn_fem = pytest.importorskip("exudyn.FEM")
    ours, theirs = models.rotor_fem(ffFEM), models.rotor_fem(exudyn_fem)
    interfaces = rotor_interfaces(theirs, "faces")[:1]
    for fem in (ours, theirs):
        fem.ComputeHurtyCraigBamptonModes(interfaces, 6)
    np.testing.assert_allclose(ours.eigenValues, theirs.eigenValues, rtol=1e-8)
    assert ours.modeBasis["matrix"].shape == theirs.modeBasis["matrix"].shape == (345, 6)
    assert largest_principal_angle_sine(ours.modeBasis["matrix"], theirs.modeBasis["matrix"]) < 1e-8


@pytest.mark.exudyn
@pytest.mark.parametrize("variant", ["RBE2", "RBE3"])
def test_craig_bampton_modes_with_node_weights_match_exudyn(shared_rotor_data, variant):
    """boundaryNodesWeights (here growing with the distance from the axis) move the interface midpoints
    and, for RBE3, weight the mean motions."""
    exudyn_fem = pytest.importorskip("exudyn.FEM")
    ours, theirs = models.rotor_fem(ffFEM), models.rotor_fem(exudyn_fem)
    interfaces = rotor_interfaces(theirs, "faces")
    positions = theirs.GetNodePositionsAsArray()
    weights = [1.0 + 10.0 * np.hypot(*positions[nodes, :2].T) + 0.1 * np.arange(len(nodes)) for nodes in interfaces]
    weights = [w / w.sum() for w in weights]
    for module, fem in ((ffFEM, ours), (exudyn_fem, theirs)):
        fem.ComputeHurtyCraigBamptonModes(interfaces, 6, boundaryNodesWeights=weights,
                                          computationMode=getattr(module.HCBstaticModeSelection, variant))
    np.testing.assert_allclose(ours.eigenValues, theirs.eigenValues, rtol=1e-8)
    basis, reference = ours.modeBasis["matrix"], theirs.modeBasis["matrix"]
    assert largest_principal_angle_sine(basis, reference) < 1e-8
    np.testing.assert_allclose(basis[:, :6], reference[:, :6], atol=1e-10 * np.abs(reference[:, :6]).max())


@pytest.mark.exudyn
def test_craig_bampton_dense_path_and_all_interfaces_match_exudyn(shared_rotor_data):
    """useSparseSolver=False and excludeRigidBodyMotion=False (12 static columns). Exudyn's dense path
    keeps all fixed-interface eigenvalues; floatframe those of the basis."""
    exudyn_fem = pytest.importorskip("exudyn.FEM")
    ours, theirs = models.rotor_fem(ffFEM), models.rotor_fem(exudyn_fem)
    interfaces = rotor_interfaces(theirs, "faces")
    for fem in (ours, theirs):
        fem.ComputeHurtyCraigBamptonModes(interfaces, 6, useSparseSolver=False, excludeRigidBodyMotion=False)
    np.testing.assert_allclose(ours.eigenValues, theirs.eigenValues[:6], rtol=1e-8)
    basis, reference = ours.modeBasis["matrix"], theirs.modeBasis["matrix"]
    assert basis.shape == reference.shape == (345, 18)
    assert largest_principal_angle_sine(basis, reference) < 1e-8


@pytest.mark.exudyn
def test_craig_bampton_modes_of_all_boundary_nodes_match_exudyn(shared_rotor_data):
    """allBoundaryNodes: a unit static column per boundary coordinate (54 for the two faces), equal to
    Exudyn's, and the same fixed-interface eigenmodes (Exudyn ignores excludeRigidBodyMotion here)."""
    exudyn_fem = pytest.importorskip("exudyn.FEM")
    ours, theirs = models.rotor_fem(ffFEM), models.rotor_fem(exudyn_fem)
    interfaces = rotor_interfaces(theirs, "faces")
    for module, fem in ((ffFEM, ours), (exudyn_fem, theirs)):
        fem.ComputeHurtyCraigBamptonModes(interfaces, 4, computationMode=module.HCBstaticModeSelection.allBoundaryNodes)
    np.testing.assert_allclose(ours.eigenValues, theirs.eigenValues, rtol=1e-8)
    basis, reference = ours.modeBasis["matrix"], theirs.modeBasis["matrix"]
    assert basis.shape == reference.shape == (345, 58)
    np.testing.assert_allclose(basis[:, :54], reference[:, :54], rtol=0, atol=1e-10 * np.abs(reference[:, :54]).max())
    assert largest_principal_angle_sine(basis[:, 54:], reference[:, 54:]) < 1e-8


def test_no_static_modes_gives_the_fixed_interface_eigenmodes(shared_rotor_data):
    """noStaticModes (which raises an AttributeError in Exudyn 1.13.6): the fixed-interface eigenmodes
    alone, the same columns as those after the static ones of RBE2."""
    with_static, without = models.rotor_fem(ffFEM), models.rotor_fem(ffFEM)
    interfaces = rotor_interfaces(with_static, "faces")
    with_static.ComputeHurtyCraigBamptonModes(interfaces, 5)
    without.ComputeHurtyCraigBamptonModes(interfaces, 5, computationMode=ffFEM.HCBstaticModeSelection.noStaticModes)
    assert without.modeBasis["matrix"].shape == (345, 5)
    np.testing.assert_array_equal(without.modeBasis["matrix"], with_static.modeBasis["matrix"][:, 6:])
    np.testing.assert_array_equal(without.eigenValues, with_static.eigenValues)
    with pytest.raises(ModelError, match="the basis would be empty .*variant .none."):
        without.ComputeHurtyCraigBamptonModes(interfaces, 0, computationMode=ffFEM.HCBstaticModeSelection.noStaticModes)


@pytest.mark.exudyn
def test_node_selection_returns_exudyns_node_lists(shared_rotor_data):
    exudyn_fem = pytest.importorskip("exudyn.FEM")
    ours, theirs = models.rotor_fem(ffFEM), models.rotor_fem(exudyn_fem)
    queries = [("GetNodesOnCircle", ([0, 0, 0.1], [0, 0, 1], 0.19598444), dict(tolerance=1e-4)),
               ("GetNodesOnCircle", ([0, 0, 0.5], [0, 0, 2], 0.0707107), dict(tolerance=1e-4)),
               ("GetNodesOnCircle", ([0, 0, 0.25], [0, 0, 1], 0.05), {}),
               ("GetNodesInCube", ([-0.06, -0.06, 0.0], [0.06, 0.06, 0.1]), {}),
               ("GetNodesInCube", ([0.0, 0.0, 0.0], [1.0, 1.0, 0.5]), {})]
    for name, arguments, options in queries:
        expected = getattr(theirs, name)(*arguments, **options)
        assert len(expected) > 0
        assert getattr(ours, name)(*arguments, **options) == expected, name


def fem_contents(fem):
    return (fem.GetNodePositionsAsArray(), fem.GetMassMatrix(sparse=False), fem.GetStiffnessMatrix(sparse=False),
            fem.modeBasis["matrix"], np.asarray(fem.eigenValues), fem.elements[0]["Hex8"])


@pytest.mark.exudyn
@pytest.mark.parametrize("file_name", ["rotor", "rotor.npz", "rotor.pkl"])
@pytest.mark.parametrize("writer_is_floatframe, reader_is_floatframe", [(True, True), (True, False), (False, True)])
def test_files_round_trip_and_interchange_with_exudyn(shared_rotor_data, tmp_path, file_name, writer_is_floatframe,
                                                       reader_is_floatframe):
    """What one package's SaveToFile writes (with Craig-Bampton modes), the other's LoadFromFile reads."""
    exudyn_fem = pytest.importorskip("exudyn.FEM")
    writer_module = ffFEM if writer_is_floatframe else exudyn_fem
    writer = models.rotor_fem(writer_module)
    writer.ComputeHurtyCraigBamptonModes(rotor_interfaces(writer, "faces"), 4,
                                         computationMode=writer_module.HCBstaticModeSelection.RBE3)
    writer.SaveToFile(str(tmp_path / file_name))
    reader = (ffFEM if reader_is_floatframe else exudyn_fem).FEMinterface()
    reader.LoadFromFile(str(tmp_path / file_name))
    for read, written in zip(fem_contents(reader), fem_contents(writer)):
        np.testing.assert_array_equal(read, written)
    np.testing.assert_array_equal(reader.GetEigenFrequenciesHz(), writer.GetEigenFrequenciesHz())
    assert reader.NumberOfNodes() == 115 and reader.modeBasis["type"] == "HCBmodes"
    if reader_is_floatframe:   # the loaded mesh answers node queries and builds modes again
        assert reader.GetNodesInPlane([0, 0, 0], [0, 0, 1]) == writer.GetNodesInPlane([0, 0, 0], [0, 0, 1])
        reader.ComputeHurtyCraigBamptonModes(rotor_interfaces(reader, "faces"), 4,
                                             computationMode=ffFEM.HCBstaticModeSelection.RBE3)
        np.testing.assert_allclose(reader.eigenValues, writer.eigenValues, rtol=1e-10)


def test_craig_bampton_options_floatframe_does_not_support_are_errors(shared_rotor_data, tmp_path):
    fem = models.rotor_fem(ffFEM)
    interfaces = rotor_interfaces(fem, "faces")
    with pytest.raises(ExudynLayerError, match="computationMode 'RBE2' is no HCBstaticModeSelection"):
        fem.ComputeHurtyCraigBamptonModes(interfaces, 4, computationMode="RBE2")
    with pytest.raises(ExudynLayerError, match="RBE3secondMomentOfAreaWeighting"):
        fem.ComputeHurtyCraigBamptonModes(interfaces, 4, RBE3secondMomentOfAreaWeighting=False)
    with pytest.raises(ExudynLayerError, match="boundaryNodesList is empty"):
        fem.ComputeHurtyCraigBamptonModes([], 4)
    with pytest.raises(ExudynLayerError, match="'.hdf5' files are not supported"):
        fem.SaveToFile(str(tmp_path / "rotor.hdf5"))
    with pytest.raises(ExudynLayerError, match="not found"):
        fem.LoadFromFile(str(tmp_path / "missing.npz"))
