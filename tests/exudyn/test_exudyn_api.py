"""The Exudyn-compatible interface itself: items and dicts, settings, outputs, files, bad input."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

import floatframe.exudyn as exu
from floatframe.exudyn import graphics
from floatframe.exudyn.utilities import (AngularVelocity2EulerParameters_t, ComputeSkewMatrix, EulerParameters2G,
                                         EulerParameters2GLocal, FillInSubMatrix, LoadForceVector,
                                         LoadTorqueVector, MarkerBodyPosition, MarkerNodeRigid, NodeRigidBodyEP,
                                         ObjectFFRF, ObjectRigidBody, RotationMatrix2EulerParameters, SensorBody,
                                         SensorNode, Skew, eulerParameters0, pi)

MASS, INERTIA = 2.0, [0.1, 0.2, 0.3, 0.0, 0.0, 0.0]


def spinning_body(as_dicts=False):
    """A rigid body pushed by a constant force and torque: a quick model with known motion."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    node = NodeRigidBodyEP(referenceCoordinates=[0, 0, 0] + eulerParameters0,
                           initialVelocities=[1, 0, 0] + list(AngularVelocity2EulerParameters_t([0, 0, 2],
                                                                                                 eulerParameters0)))
    body = ObjectRigidBody(nodeNumber=0, mass=MASS, inertia=INERTIA)
    n = mbs.AddNode(dict(node) if as_dicts else node)
    b = mbs.AddObject(dict(body) if as_dicts else body)
    m_body = mbs.AddMarker(MarkerBodyPosition(bodyNumber=b, localPosition=[0, 0, 0]))
    m_node = mbs.AddMarker(MarkerNodeRigid(nodeNumber=n))
    mbs.AddLoad(LoadForceVector(markerNumber=m_body, loadVector=[0, 4.0, 0]))
    mbs.AddLoad(LoadTorqueVector(markerNumber=m_node, loadVector=[0, 0, 0.6]))
    sensors = [mbs.AddSensor(SensorNode(nodeNumber=n, outputVariableType=exu.OutputVariableType.Position)),
               mbs.AddSensor(SensorNode(nodeNumber=n, outputVariableType=exu.OutputVariableType.AngularVelocity)),
               mbs.AddSensor(SensorBody(bodyNumber=b, localPosition=[1, 0, 0],
                                        outputVariableType=exu.OutputVariableType.Velocity))]
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = 10
    settings.timeIntegration.endTime = 0.5
    settings.solutionSettings.sensorsWritePeriod = 0.05
    return mbs, sensors, settings


@pytest.mark.parametrize("as_dicts", [False, True])
def test_items_and_dicts_give_the_exact_motion(as_dicts):
    mbs, (position, omega, _), settings = spinning_body(as_dicts)
    assert mbs.SolveDynamic(settings) if as_dicts else exu.SolveDynamic(mbs, settings)
    data = mbs.GetSensorStoredData(position)
    assert data.shape == (11, 4)
    t = data[:, 0]
    np.testing.assert_allclose(t, np.linspace(0, 0.5, 11), atol=1e-14)
    np.testing.assert_allclose(data[:, 1:], np.column_stack([t, t ** 2, 0 * t]), atol=1e-9)  # a_y = 4/2
    np.testing.assert_allclose(mbs.GetSensorStoredData(omega)[:, 3], 2 + 2 * t, rtol=5e-3)  # 0.6/0.3 (time-discrete)
    np.testing.assert_allclose(mbs.GetNodeOutput(0, exu.OutputVariableType.Position), [0.5, 0.25, 0], atol=1e-9)
    rotation = mbs.GetNodeOutput(0, exu.OutputVariableType.RotationMatrix).reshape(3, 3)
    angle = 2 * 0.5 + 0.25
    np.testing.assert_allclose(rotation[:2, :2], [[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]],
                               atol=5e-3)
    coordinates = mbs.systemData.GetODE2Coordinates()
    assert coordinates.shape == (7,) and coordinates[0] == pytest.approx(0.5)


def test_sensor_file_is_written_like_exudyn(tmp_path):
    mbs, sensors, settings = spinning_body()
    path = tmp_path / "solution" / "position.txt"
    mbs.AddSensor(SensorNode(nodeNumber=0, fileName=str(path), outputVariableType=exu.OutputVariableType.Position))
    exu.SolveDynamic(mbs, settings)
    data = np.loadtxt(path, comments="#", delimiter=",")
    np.testing.assert_allclose(data, mbs.GetSensorStoredData(sensors[0]), rtol=1e-9, atol=1e-12)


def test_object_parameters_and_auto_assembly():
    mbs, (position, _, _), settings = spinning_body()
    assert mbs.GetObjectParameter(0, "mass") == MASS
    with pytest.warns(DeprecationWarning, match="use 'mass'"):
        assert mbs.GetObjectParameter(0, "physicsMass") == MASS  # deprecated name is accepted and stored as 'mass'
    mbs.SetObjectParameter(0, "mass", 2 * MASS)
    exu.SolveDynamic(mbs, settings)  # assembles again
    assert mbs.GetSensorStoredData(position)[-1, 2] == pytest.approx(0.125, abs=1e-9)
    with pytest.raises(ValueError, match="'inertia'"):
        mbs.SetObjectParameter(0, "inertial", INERTIA)
    with pytest.raises(ValueError, match="'mass'"):
        mbs.GetObjectParameter(0, "mas")


def test_matrix_container_forms_agree():
    dense = np.array([[2.0, -1.0], [-1.0, 2.0]])
    forms = [exu.MatrixContainer(), exu.MatrixContainer(), exu.MatrixContainer(), exu.MatrixContainer(dense)]
    forms[0].SetWithDenseMatrix(dense)
    forms[1].SetWithSparseMatrix(sp.csr_matrix(dense))
    forms[2].SetWithSparseMatrixCSR(2, 2, [[0, 0, 2.0], [0, 1, -1.0], [1, 0, -1.0], [1, 1, 2.0]])
    for container in forms:
        np.testing.assert_array_equal(container.Convert2DenseMatrix(), dense)


def test_settings_accept_every_field():
    settings = exu.SimulationSettings()
    settings.solutionSettings.coordinatesSolutionFileName = "x.txt"
    settings.linearSolverType = exu.LinearSolverType.EigenSparse
    settings.timeIntegration.newton.numericalDifferentiation.relativeEpsilon = 1e-6
    settings.parallel.numberOfThreads = 4
    with pytest.raises(exu.ExudynLayerError, match="numberOfStep' is not an Exudyn settings field.*'numberOfSteps'"):
        settings.timeIntegration.numberOfStep = 10
    assert settings.timeIntegration.numberOfSteps == 100  # Exudyn's default; the misspelt field is refused
    sc = exu.SystemContainer()
    sc.visualizationSettings.nodes.defaultSize = 0.01
    sc.visualizationSettings.contour.outputVariable = exu.OutputVariableType.DisplacementLocal
    assert sc.visualizationSettings.nodes.defaultSize == 0.01


def test_renderer_calls_warn_and_return():
    sc = exu.SystemContainer()
    mbs = sc.AddSystem()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exu.StartRenderer()
        mbs.WaitForUserToContinue()
        sc.WaitForRenderEngineStopFlag()
        sc.renderer.Start()
        exu.StopRenderer()
    assert len(caught) == 5
    assert graphics.color.red == [1.0, 0.0, 0.0, 1.0] and len(graphics.color.lightred) == 4
    with pytest.raises(exu.ExudynLayerError, match="renderer.RedrawAndGetImage: floatframe has no renderer, so "
                                                   "there is no image to return; rendering .*: outside floatframe's "
                                                   "scope"):
        sc.renderer.RedrawAndGetImage()


@pytest.mark.parametrize("action, closest", [
    (lambda: exu.ObjectFFRFF, "ObjectFFRF"),
    (lambda: ObjectFFRF(massMatrix=None), "massMatrixFF"),
    (lambda: exu.SystemContainer().AddSystem().AddObject({"objectType": "RigidBodyy"}), "RigidBody"),
    (lambda: exu.OutputVariableType.Displacment, "Displacement"),
    (lambda: exu.SystemContainer().AddSystem().SolveDynamik(), "SolveDynamic"),
])
def test_unknown_names_give_the_closest_supported_name(action, closest):
    with pytest.raises((ValueError, AttributeError), match=f"'{closest}'"):
        action()


def test_unsupported_output_variable_is_named():
    mbs, _, _ = spinning_body()
    mbs.AddSensor(SensorNode(nodeNumber=0, outputVariableType=exu.OutputVariableType.AngularVelocityLocal))
    mbs.AddSensor(SensorNode(nodeNumber=0, outputVariableType=exu.OutputVariableType.AngularAccelerationLocal))
    with pytest.raises(ValueError, match="'AngularAccelerationLocal'.*closest supported name: 'AngularAcceleration'"):
        mbs.Assemble()


def test_unsupported_parameter_value_is_named():
    mbs, _, _ = spinning_body()
    mbs.AddNode(NodeRigidBodyEP(referenceCoordinates=[0, 0, 0] + eulerParameters0, addConstraintEquation=False))
    with pytest.raises(ValueError, match="NodeRigidBodyEP 1.*'addConstraintEquation'"):
        mbs.Assemble()


def test_utilities_conventions():
    theta = np.array([0.9, 0.1, -0.3, 0.2])
    theta /= np.linalg.norm(theta)
    omega = np.array([0.3, -1.0, 2.0])
    np.testing.assert_allclose(EulerParameters2G(theta) @ AngularVelocity2EulerParameters_t(omega, theta), omega)
    np.testing.assert_allclose(Skew([1, 2, 3]) @ [4, 5, 6], np.cross([1, 2, 3], [4, 5, 6]))
    assert ComputeSkewMatrix(np.arange(6.0)).shape == (6, 3)
    assert ComputeSkewMatrix(np.arange(12.0).reshape(6, 2)).shape == (6, 6)
    target = np.zeros((4, 4))
    FillInSubMatrix(np.ones((2, 2)), target, 1, 2)
    assert target[1:3, 2:4].sum() == 4 and target.sum() == 4
    rotation = exu.utilities.EulerParameters2RotationMatrix(theta)
    np.testing.assert_allclose(RotationMatrix2EulerParameters(rotation), theta, atol=1e-12)
    assert pi == np.pi and EulerParameters2GLocal(theta).shape == (3, 4)


@pytest.mark.exudyn
def test_utilities_match_exudyn():
    pytest.importorskip("exudyn")
    import exudyn.utilities as reference
    theta = np.array([0.9, 0.1, -0.3, 0.2]) / np.linalg.norm([0.9, 0.1, -0.3, 0.2])
    for name in ("EulerParameters2G", "EulerParameters2GLocal"):
        np.testing.assert_allclose(getattr(exu.utilities, name)(theta), getattr(reference, name)(theta), atol=1e-14)
    np.testing.assert_allclose(AngularVelocity2EulerParameters_t([1, 2, 3], theta),
                               reference.AngularVelocity2EulerParameters_t([1, 2, 3], theta), atol=1e-14)
    vectors = np.arange(12.0).reshape(6, 2)
    np.testing.assert_allclose(ComputeSkewMatrix(vectors), reference.ComputeSkewMatrix(vectors))


@pytest.mark.exudyn
def test_named_colours_and_the_colour_list_are_exudyns():
    reference = pytest.importorskip("exudyn.graphics")
    names = [name for name in vars(reference.color) if not name.startswith("_")]
    assert sorted(names) == sorted(name for name in vars(graphics.color) if not name.startswith("_"))
    for name in names:
        assert list(getattr(graphics.color, name)) == pytest.approx(list(getattr(reference.color, name)), abs=0)
    assert [list(c) for c in graphics.colorList] == [list(c) for c in reference.colorList]


def test_reset_empties_the_system_and_keeps_its_variables():
    mbs = exu.SystemContainer().AddSystem()
    mbs.variables["k"] = 3.0
    node = mbs.AddNode(NodeRigidBodyEP(referenceCoordinates=[0, 0, 0] + list(eulerParameters0)))
    mbs.AddObject(ObjectRigidBody(nodeNumber=node, physicsMass=MASS, physicsInertia=INERTIA))
    mbs.Assemble()
    mbs.Reset()
    assert (mbs.systemData.NumberOfNodes(), mbs.systemData.NumberOfObjects()) == (0, 0)
    assert mbs.variables == {"k": 3.0}
    assert mbs.AddNode(NodeRigidBodyEP(referenceCoordinates=[0, 0, 0] + list(eulerParameters0))) == 0


def test_config_gives_the_layer_version():
    assert exu.config.Version() == exu.GetVersionString() == exu.__version__


def test_set_with_sparse_matrix_takes_exudyns_triplets_and_names():
    exudyn = pytest.importorskip("exudyn")
    triplets = [[0, 0, 13.3], [1, 1, 4.2], [1, 2, 42.0]]
    for dense in (True, False):
        ours, theirs = exu.MatrixContainer(), exudyn.MatrixContainer()
        for container in (ours, theirs):
            container.SetWithSparseMatrix(triplets, numberOfRows=2, numberOfColumns=3, useDenseMatrix=dense, factor=2.0)
        np.testing.assert_array_equal(ours.Convert2DenseMatrix(), theirs.Convert2DenseMatrix())
    with pytest.raises(ValueError, match="sparse triplets need numberOfRows and numberOfColumns"):
        exu.MatrixContainer().SetWithSparseMatrix(triplets)


def test_initialize_add_sparse_matrix_and_set_all_zero_as_exudyn():
    exudyn = pytest.importorskip("exudyn")
    for dense in (True, False):
        results = []
        for module in (exu, exudyn):
            container = module.MatrixContainer()
            container.Initialize(3, 3, useDenseMatrix=dense)
            container.AddSparseMatrix(sp.csr_matrix(np.eye(2)), factor=0.5)
            container.AddSparseMatrix([[0, 1, 2.0], [2, 2, -1.0]], factor=2)
            first = container.Convert2DenseMatrix()
            container.SetAllZero()
            results.append((first, container.Convert2DenseMatrix()))
        for ours, theirs in zip(*results):
            np.testing.assert_array_equal(ours, theirs)
    container = exu.MatrixContainer()
    container.Initialize(2, 2)
    with pytest.raises(ValueError, match="outside the size"):
        container.AddSparseMatrix([[2, 0, 1.0]])


@pytest.mark.parametrize("name, item", [("Vector2DList", [1, 2]), ("Vector3DList", [1, 2, 3]),
                                        ("Vector6DList", list(range(6))), ("Matrix3DList", np.eye(3)),
                                        ("Matrix6DList", np.eye(6))])
def test_the_shaped_lists_hold_what_exudyns_hold_and_refuse_other_shapes(name, item):
    """exu.Vector3DList and the like: construction, Append, item assignment and GetPythonObject give exudyn
    1.13.6's arrays; an item of another shape is an ExudynLayerError naming the list and the item."""
    exudyn = pytest.importorskip("exudyn")
    ours, theirs = getattr(exu, name)([item]), getattr(exudyn, name)([item])
    second = 2.0 * np.asarray(item, dtype=float)
    ours.Append(second)
    theirs.Append(second)
    ours[0], theirs[0] = second, second
    assert len(ours) == len(theirs) == 2
    for mine, reference in zip(ours.GetPythonObject(), theirs.GetPythonObject()):
        assert np.array_equal(mine, reference)
    with pytest.raises(exu.ExudynLayerError, match=f"{name}: item 2 must have shape"):
        ours.Append([1.0] * 7)
