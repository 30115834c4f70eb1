"""ObjectGenericODE2 (issue 28, item 2) with its matrices, force vector and user functions, a
MarkerSuperElementPosition on it, and the FEM helpers around it, against exudyn 1.13.6.

Claims: three point nodes under M q_tt + D q_t + K q = f + f_user(t, q, q_t) (mass matrix constant or from its user
function) with a force at a weighted node pair: node coordinates and the object's outputs over 200 steps equal
exudyn's to 1e-9 of their scale; ScipySparseCSRtoCSR, SparseTripletsToScipySparseCSR and AddElasticSupportAtNode
give exudyn's matrices; bad sizes and a missing mass matrix are refused naming the object; a SensorSuperElement on it
records its nodes' outputs as exudyn's; GetGyroscopicMatrix is exudyn's; ComputeEigenmodes on a supported mesh with
six modes excluded (objectGenericODE2Test) drops them with a warning as exudyn does, and its dense eigenValues are all
n of exudyn's; the sweep functions of exudyn.utilities equal exudyn's to the bit."""
import numpy as np
import pytest
import scipy.sparse as sp

from exudyn_style_models import full_newton_settings

import floatframe.exudyn as ffexu
import floatframe.exudyn.FEM as fffem
from floatframe.errors import ModelError
from floatframe.exudyn import itemInterface as ffitems

exudyn = pytest.importorskip("exudyn")
import exudyn.FEM as exfem  # noqa: E402
import exudyn.itemInterface as exitems  # noqa: E402

n = 9
rng = np.random.default_rng(3)
MASS = np.diag(rng.uniform(0.5, 2.0, n))
SPRING = rng.normal(size=(n, n))
STIFFNESS = 200 * (SPRING @ SPRING.T + n * np.eye(n)) / n
DAMPING = 0.01 * STIFFNESS


def chain(exu, items, user_mass):
    mbs = exu.SystemContainer().AddSystem()
    nodes = [mbs.AddNode(items.NodePoint(referenceCoordinates=[k, 0, 0], initialVelocities=[0.1 * k, 0, -0.2]))
             for k in range(3)]

    def force(mbs_, t, item, q, q_t):
        return [np.sin(3 * t) * (1 + 0.1 * q[0]), -0.5 * q_t[4] * abs(q_t[4]), 0, 0, 0, 0.2 * t, 0, 0, -q[8] ** 3]

    def mass(mbs_, t, item, q, q_t):
        return MASS

    body = mbs.AddObject(items.ObjectGenericODE2(
        nodeNumbers=nodes, massMatrix=MASS, stiffnessMatrix=STIFFNESS, dampingMatrix=DAMPING,
        forceVector=[0.0, 1.0, 0, 0, 0, 0, 0.5, 0, 0], forceUserFunction=force,
        massMatrixUserFunction=mass if user_mass else 0))
    marker = mbs.AddMarker(items.MarkerSuperElementPosition(bodyNumber=body, meshNodeNumbers=[0, 2],
                                                            weightingFactors=[0.25, 0.75]))
    mbs.AddLoad(items.LoadForceVector(markerNumber=marker, loadVector=[0, 0, 2.0]))
    sensors = [mbs.AddSensor(items.SensorNode(nodeNumber=node, storeInternal=True,
                                              outputVariableType=getattr(exu.OutputVariableType, v)))
               for node in nodes for v in ("Coordinates", "Coordinates_t")]
    sensors.append(mbs.AddSensor(items.SensorMarker(markerNumber=marker, storeInternal=True,
                                                    outputVariableType=exu.OutputVariableType.Position)))
    mbs.Assemble()
    settings = full_newton_settings(exu, 200, 1.0)
    exu.SolveDynamic(mbs, settings)
    return [mbs.GetSensorStoredData(s) for s in sensors]


@pytest.mark.parametrize("user_mass", [False, True])
def test_generic_ode2_equals_exudyns(user_mass):
    ours, theirs = chain(ffexu, ffitems, user_mass), chain(exudyn, exitems, user_mass)
    for mine, reference in zip(ours, theirs):
        assert mine.shape == reference.shape
        assert np.abs(reference[:, 1:]).max() > 5e-3               # it moved
        assert np.abs(mine - reference).max() <= 1e-9 * np.abs(reference[:, 1:]).max()


def test_sparse_helpers_and_elastic_support_equal_exudyns():
    matrix = sp.random(12, 12, density=0.3, format="csr", random_state=4)
    triplets = fffem.ScipySparseCSRtoCSR(matrix)
    np.testing.assert_array_equal(triplets, exfem.ScipySparseCSRtoCSR(matrix))
    assert abs(fffem.SparseTripletsToScipySparseCSR(triplets) - exfem.SparseTripletsToScipySparseCSR(triplets)).max() == 0
    with pytest.warns(DeprecationWarning, match="SparseTripletsToScipySparseCSR"):
        assert abs(fffem.CSRtoScipySparseCSR(triplets) - exfem.CSRtoScipySparseCSR(triplets)).max() == 0
    ours, theirs = fffem.FEMinterface(), exfem.FEMinterface()
    stiffness = sp.csr_matrix(STIFFNESS[:9, :9])
    ours._stiffness = stiffness.copy()
    theirs.stiffnessMatrix = exfem.ScipySparseCSRtoCSR(stiffness)
    theirs.nodes = {"Position": np.zeros((3, 3))}
    for fem in (ours, theirs):
        fem.AddElasticSupportAtNode(1, springStiffness=[1e5, 2e5, 3e5])
    expected = STIFFNESS[:9, :9] + np.diag([0, 0, 0, 1e5, 2e5, 3e5, 0, 0, 0])
    assert abs(ours.GetStiffnessMatrix().toarray() - expected).max() == 0
    assert abs(ours.GetStiffnessMatrix().toarray() - np.asarray(theirs.GetStiffnessMatrix(sparse=False))).max() == 0


def test_bad_sizes_and_a_missing_mass_matrix_are_refused():
    for arguments, message in ((dict(massMatrix=np.eye(4)), r"mass_matrix has shape \(4, 4\), but the nodes have 3"),
                               (dict(stiffnessMatrix=np.eye(3)), "needs a mass_matrix or a mass_matrix_user_function"),
                               (dict(massMatrix=np.eye(3), forceVector=[1, 2]), "force_vector has 2 entries")):
        mbs = ffexu.SystemContainer().AddSystem()
        node = mbs.AddNode(ffitems.NodePoint())
        mbs.AddObject(ffitems.ObjectGenericODE2(nodeNumbers=[node], **arguments))
        with pytest.raises(ModelError, match=f"ObjectGenericODE2 0.*{message}"):
            mbs.Assemble()


def spring_by_user_functions(exu, items, with_jacobian, calls):
    """The three nodes held only by f_user = -K q - D q_t (and a load), as linearFEMgenericODE2Test writes it; with
    ``with_jacobian`` its jacobianUserFunction fODE2 K + fODE2_t D (sparse triplets). ``calls`` counts the force
    user function's calls. Returns the nodes' coordinates over 100 steps."""
    mbs = exu.SystemContainer().AddSystem()
    nodes = [mbs.AddNode(items.NodePoint(referenceCoordinates=[k, 0, 0], initialVelocities=[0.1 * k, 0, -0.2]))
             for k in range(3)]

    def force(mbs_, t, item, q, q_t):
        calls[0] += 1
        return -STIFFNESS @ np.asarray(q) - DAMPING @ np.asarray(q_t)

    def jacobian(mbs_, t, item, q, q_t, f_q, f_v):
        matrix = sp.coo_matrix(f_q * STIFFNESS + f_v * DAMPING)
        container = exu.MatrixContainer()
        container.SetWithSparseMatrix([[int(i), int(j), float(v)] for i, j, v in zip(matrix.row, matrix.col,
                                                                                      matrix.data)], n, n)
        return container

    body = mbs.AddObject(items.ObjectGenericODE2(nodeNumbers=nodes, massMatrix=MASS, forceUserFunction=force,
                                                 jacobianUserFunction=jacobian if with_jacobian else 0))
    marker = mbs.AddMarker(items.MarkerSuperElementPosition(bodyNumber=body, meshNodeNumbers=[0, 2],
                                                            weightingFactors=[0.25, 0.75]))
    mbs.AddLoad(items.LoadForceVector(markerNumber=marker, loadVector=[0, 0, 2.0]))
    sensor = mbs.AddSensor(items.SensorNode(nodeNumber=nodes[2], storeInternal=True,
                                            outputVariableType=exu.OutputVariableType.Coordinates))
    mbs.Assemble()
    exu.SolveDynamic(mbs, full_newton_settings(exu, 100, 0.5))
    return mbs.GetSensorStoredData(sensor)


def test_a_jacobian_user_function_replaces_the_differences_and_leaves_the_solution():
    """With the script's jacobianUserFunction the iteration matrix takes it (two calls) instead of n = 9 forward
    differences of the force user function: the force function is called fewer times, and the solution equals the
    one without it and exudyn's with it to 1e-9 of its scale (full Newton: the same converged states)."""
    counted, differenced = [0], [0]
    ours = spring_by_user_functions(ffexu, ffitems, True, counted)
    without = spring_by_user_functions(ffexu, ffitems, False, differenced)
    theirs = spring_by_user_functions(exudyn, exitems, True, [0])
    scale = np.abs(theirs[:, 1:]).max()
    assert np.abs(ours - theirs).max() <= 1e-9 * scale
    assert np.abs(ours - without).max() <= 1e-9 * scale
    assert counted[0] < differenced[0] - 100 * 9 // 2   # at least half of the differences' calls are gone


def test_a_jacobian_user_function_of_the_wrong_size_is_refused_naming_the_object():
    mbs = ffexu.SystemContainer().AddSystem()
    nodes = [mbs.AddNode(ffitems.NodePoint(referenceCoordinates=[k, 0, 0])) for k in range(3)]
    mbs.AddObject(ffitems.ObjectGenericODE2(nodeNumbers=nodes, massMatrix=MASS,
                                            forceUserFunction=lambda *arguments: np.zeros(n),
                                            jacobianUserFunction=lambda *arguments: np.eye(4)))
    with pytest.raises(ModelError, match=r"ObjectGenericODE2.*jacobian user function returned shape \(4, 4\), "
                                         r"expected \(9, 9\)"):
        mbs.Assemble()


def super_element_sensors(exu, items):
    """The chain's super-element sensors (Displacement, Position, Velocity of mesh nodes 1 and 2) over 50 steps."""
    mbs = exu.SystemContainer().AddSystem()
    nodes = [mbs.AddNode(items.NodePoint(referenceCoordinates=[k, 0, 0], initialVelocities=[0.1 * k, 0, -0.2]))
             for k in range(3)]
    body = mbs.AddObject(items.ObjectGenericODE2(nodeNumbers=nodes, massMatrix=MASS, stiffnessMatrix=STIFFNESS,
                                                 forceVector=[0.0, 1.0, 0, 0, 0, 0, 0.5, 0, 0]))
    sensors = [mbs.AddSensor(items.SensorSuperElement(bodyNumber=body, meshNodeNumber=k, storeInternal=True,
                                                      outputVariableType=getattr(exu.OutputVariableType, v)))
               for k in (1, 2) for v in ("Displacement", "Position", "Velocity")]
    mbs.Assemble()
    exu.SolveDynamic(mbs, full_newton_settings(exu, 50, 0.5))
    return [mbs.GetSensorStoredData(s) for s in sensors]


def test_a_super_element_sensor_records_its_nodes_outputs_as_exudyn():
    for mine, reference in zip(super_element_sensors(ffexu, ffitems), super_element_sensors(exudyn, exitems)):
        assert mine.shape == reference.shape
        assert np.abs(reference[-1, 1:]).max() > 1e-3
        assert np.abs(mine - reference).max() <= 1e-9 * np.abs(reference[:, 1:]).max()


def test_the_gyroscopic_matrix_is_exudyns():
    mass = sp.csr_matrix(MASS[:9, :9] + 0.1 * np.ones((9, 9)))
    ours, theirs = fffem.FEMinterface(), exfem.FEMinterface()
    ours._mass, theirs.massMatrix = mass.copy(), mass.copy()
    theirs.nodes = {"Position": np.zeros((3, 3))}
    for axis in (0, 1, 2):
        expected = np.asarray(theirs.GetGyroscopicMatrix(rotationAxis=axis, sparse=False))
        assert np.abs(expected).max() > 0.1
        assert np.abs(ours.GetGyroscopicMatrix(rotationAxis=axis, sparse=False) - expected).max() <= 1e-15
        assert np.abs(ours.GetGyroscopicMatrix(rotationAxis=axis).toarray() - expected).max() <= 1e-15


def supported_rod(module):
    """An FEMinterface on a chain of 8 point masses joined by springs in x, y and z and held at node 0 by springs
    (AddElasticSupportAtNode): it has no zero-frequency mode, so the six eigenpairs excluded are elastic ones."""
    count = 8
    stiffness = np.zeros((3 * count, 3 * count))
    for k in range(count - 1):
        for direction, spring in zip(range(3), (100.0, 40.0 + 5 * k, 60.0)):
            i, j = 3 * k + direction, 3 * (k + 1) + direction
            stiffness[np.ix_([i, j], [i, j])] += spring * np.array([[1, -1], [-1, 1]])
    fem = module.FEMinterface()
    mass = sp.csr_matrix(np.diag(np.repeat(np.linspace(1.0, 2.0, count), 3)))
    if module is fffem:
        fem._mass, fem._stiffness = mass, sp.csr_matrix(stiffness)
    else:
        fem.massMatrix, fem.stiffnessMatrix = mass, sp.csr_matrix(stiffness)
        fem.nodes = {"Position": np.zeros((count, 3))}
    fem.AddElasticSupportAtNode(0, springStiffness=[1e3, 2e3, 3e3])
    return fem


def test_excluded_modes_that_are_not_zero_are_dropped_with_a_warning_as_exudyn_does():
    ours, theirs = supported_rod(fffem), supported_rod(exfem)
    with pytest.warns(UserWarning, match="excludeRigidBodyModes=6.*dropped all the same"):
        ours.ComputeEigenmodes(4, excludeRigidBodyModes=6, useSparseSolver=False)
    theirs.ComputeEigenmodes(4, excludeRigidBodyModes=6, useSparseSolver=False)
    assert ours.eigenValues.shape == theirs.eigenValues.shape == (24,)         # all n, as exudyn's dense solver
    assert theirs.eigenValues[6] > 1.0
    np.testing.assert_allclose(ours.eigenValues, theirs.eigenValues, rtol=1e-10, atol=1e-9)
    np.testing.assert_allclose(ours.GetEigenFrequenciesHz(), theirs.GetEigenFrequenciesHz(), rtol=1e-10, atol=1e-9)
    modes, mass = ours.modeBasis["matrix"], ours.GetMassMatrix(sparse=False)
    quotients = np.einsum("ij,ij->j", modes, ours.GetStiffnessMatrix(sparse=False) @ modes)
    np.testing.assert_allclose(quotients, theirs.eigenValues[6:10], rtol=1e-9)   # the 7th to 10th eigenpairs
    np.testing.assert_allclose(modes.T @ mass @ modes, np.eye(4), atol=1e-12)
    with pytest.warns(UserWarning, match="dropped all the same"):
        ours.ComputeEigenmodes(4, excludeRigidBodyModes=6, useSparseSolver=True)
    np.testing.assert_allclose(ours.eigenValues, theirs.eigenValues[6:10], rtol=1e-9)   # sparse: the modes' own


def test_the_sweep_functions_are_exudyns_to_the_bit():
    from exudyn import utilities as exu_utilities
    from floatframe.exudyn import utilities as our_utilities

    values = np.random.default_rng(5).uniform([0, 0.5, 1, 50], [5, 5, 50, 300], size=(200, 4))
    for name in ("FrequencySweep", "SweepSin", "SweepCos"):
        for t, t1, f0, f1 in values:
            assert getattr(our_utilities, name)(t, t1, f0, f1) == getattr(exu_utilities, name)(t, t1, f0, f1)
    for name in ("SmoothStep", "SmoothStepDerivative"):
        for x in np.linspace(-1, 3, 401):
            assert getattr(our_utilities, name)(x, 0.3, 1.7, -2.0, 5.0) == getattr(exu_utilities, name)(x, 0.3, 1.7,
                                                                                                          -2.0, 5.0)


def test_a_mesh_node_output_its_node_lacks_is_refused_naming_what_it_has():
    mbs = ffexu.SystemContainer().AddSystem()
    node = mbs.AddNode(ffitems.NodeGenericODE2(referenceCoordinates=[0, 0], initialCoordinates=[0.1, 0.2],
                                               numberOfODE2Coordinates=2))
    body = mbs.AddObject(ffitems.ObjectGenericODE2(nodeNumbers=[node], massMatrix=np.eye(2), stiffnessMatrix=np.eye(2)))
    mbs.Assemble()
    coordinates = mbs.GetObjectOutputSuperElement(body, ffexu.OutputVariableType.Coordinates, meshNodeNumber=0)
    assert np.asarray(coordinates).tolist() == [0.1, 0.2]
    with pytest.raises(ffexu.ExudynLayerError, match="mesh node 0 of ObjectGenericODE2 0 .* has no output variable "
                                                     "'Position' \\(its nodes have \\['Coordinates'"):
        mbs.GetObjectOutputSuperElement(body, ffexu.OutputVariableType.Position, meshNodeNumber=0)
