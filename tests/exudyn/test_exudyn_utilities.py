"""Exudyn's utilities on floatframe: rotation helpers, RigidBodyInertia, mbs.CreateRigidBody, PlotSensor and
the errors for names the layer does not have; compared with exudyn 1.13.6 where it is installed."""
import warnings

import matplotlib
import numpy as np
import pytest

import floatframe.exudyn as ffexu
from floatframe.exudyn import plot as ffplot
from floatframe.exudyn import utilities as ffu

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

RNG = np.random.default_rng(6)


def random_rotation():
    theta = RNG.normal(size=4)
    return ffu.EulerParameters2RotationMatrix(theta / np.linalg.norm(theta))


def exudyn_modules():
    exu = pytest.importorskip("exudyn")
    import exudyn.plot
    import exudyn.utilities
    return exu, exudyn.utilities, exudyn.plot


# --- rotation helpers -------------------------------------------------------------------------------------
ARGUMENTS = {
    "RotationVector2RotationMatrix": lambda: [RNG.normal(size=3)],
    "RotationMatrix2RotationVector": lambda: [random_rotation()],
    "RotXYZ2RotationMatrix": lambda: [RNG.uniform(-3, 3, 3)],
    "RotationMatrix2RotXYZ": lambda: [random_rotation()],
    "RotXYZ2G": lambda: [RNG.uniform(-3, 3, 3)],
    "RotXYZ2GLocal": lambda: [RNG.uniform(-3, 3, 3)],
    "AngularVelocity2RotXYZ_t": lambda: [RNG.normal(size=3), RNG.uniform(-1.2, 1.2, 3)],
    "RotXYZ2EulerParameters": lambda: [RNG.uniform(-3, 3, 3)],
    "RotationMatrix2EulerParameters": lambda: [random_rotation()],
    "EulerParameters2RotationMatrix": lambda: [ffu.RotationMatrix2EulerParameters(random_rotation())],
    "RotationMatrixX": lambda: [RNG.uniform(-3, 3)],
    "RotationMatrixY": lambda: [RNG.uniform(-3, 3)],
    "RotationMatrixZ": lambda: [RNG.uniform(-3, 3)],
    "RotationMatrix2D": lambda: [RNG.uniform(-3, 3)],
    "ComputeRotationAxisFromRotationVector": lambda: [RNG.normal(size=3)],
    "ComputeOrthonormalBasisVectors": lambda: [RNG.normal(size=3)],
    "ComputeOrthonormalBasis": lambda: [[0.9, 0.05, -0.02]],
    "GramSchmidt": lambda: [RNG.normal(size=3), RNG.normal(size=3)],
    "Skew": lambda: [RNG.normal(size=3)],
    "Skew2Vec": lambda: [ffu.Skew(RNG.normal(size=3))],
    "HomogeneousTransformation": lambda: [random_rotation(), RNG.normal(size=3)],
    "HTtranslate": lambda: [RNG.normal(size=3)],
    "HTtranslateX": lambda: [RNG.normal()],
    "HTtranslateY": lambda: [RNG.normal()],
    "HTtranslateZ": lambda: [RNG.normal()],
    "HTrotateX": lambda: [RNG.normal()],
    "HTrotateY": lambda: [RNG.normal()],
    "HTrotateZ": lambda: [RNG.normal()],
    "HT0": lambda: [],
    "HT2translation": lambda: [ffu.HomogeneousTransformation(random_rotation(), RNG.normal(size=3))],
    "HT2rotationMatrix": lambda: [ffu.HomogeneousTransformation(random_rotation(), RNG.normal(size=3))],
    "InverseHT": lambda: [ffu.HomogeneousTransformation(random_rotation(), RNG.normal(size=3))],
    "InertiaTensor2Inertia6D": lambda: [np.diag([1.0, 2, 3]) + 0.1 * (lambda m: m + m.T)(RNG.normal(size=(3, 3)))],
    "Inertia6D2InertiaTensor": lambda: [RNG.normal(size=6)],
    "Normalize": lambda: [RNG.normal(size=3)],
}


@pytest.mark.exudyn
@pytest.mark.parametrize("name", sorted(ARGUMENTS))
def test_rotation_helpers_match_exudyn_on_random_input(name):
    _, reference, _ = exudyn_modules()
    for _ in range(5):
        arguments = ARGUMENTS[name]()
        ours, theirs = getattr(ffu, name)(*arguments), getattr(reference, name)(*arguments)
        np.testing.assert_allclose(np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float), rtol=0,
                                   atol=1e-13, err_msg=name)


def test_rotation_helpers_round_trip():
    for _ in range(10):
        matrix = random_rotation()
        np.testing.assert_allclose(ffu.RotXYZ2RotationMatrix(ffu.RotationMatrix2RotXYZ(matrix)), matrix, atol=1e-13)
        np.testing.assert_allclose(ffu.RotationVector2RotationMatrix(ffu.RotationMatrix2RotationVector(matrix)),
                                   matrix, atol=1e-13)
        angles = ffu.RotationMatrix2RotXYZ(matrix)
        np.testing.assert_allclose(ffu.EulerParameters2RotationMatrix(ffu.RotXYZ2EulerParameters(angles)), matrix,
                                   atol=1e-13)
        t = ffu.HomogeneousTransformation(matrix, RNG.normal(size=3))
        np.testing.assert_allclose(ffu.InverseHT(t) @ t, np.eye(4), atol=1e-14)


def test_rotation_helpers_refuse_wrong_shapes_and_gimbal_lock():
    with pytest.raises(ffexu.ExudynLayerError, match=r"RotationVector2RotationMatrix: rotationVector must have shape"):
        ffu.RotationVector2RotationMatrix([1.0, 2.0])
    with pytest.raises(ffexu.ExudynLayerError, match="HT2translation: T must have shape"):
        ffu.HT2translation(np.eye(3))
    with pytest.raises(ffexu.ExudynLayerError, match="gimbal lock"):
        ffu.AngularVelocity2RotXYZ_t([1, 0, 0], [0.0, np.pi / 2, 0.0])


# --- inertia ----------------------------------------------------------------------------------------------
def inertias(u):
    """The same inertias built with either package's utilities module."""
    tensor = np.array([[2.0, 0.1, -0.2], [0.1, 3.0, 0.3], [-0.2, 0.3, 4.0]])
    return [
        u.InertiaCuboid(density=7800, sideLengths=[0.4, 0.1, 0.25]),
        u.InertiaCylinder(density=2700, length=0.5, outerRadius=0.1, axis=0),
        u.InertiaCylinder(density=1000, length=0.2, outerRadius=0.3, axis=2, innerRadius=0.25),
        u.InertiaSphere(mass=3.0, radius=0.2),
        u.InertiaSphere(radius=0.1, density=500.0),
        u.InertiaHollowSphere(mass=2.0, radius=0.5),
        u.InertiaRodX(mass=1.5, length=2.0),
        u.InertiaMassPoint(mass=0.7).Translated([0.1, -0.2, 0.3]),
        u.RigidBodyInertia(5.0, tensor, [0.1, 0.2, -0.3]),
        u.RigidBodyInertia(5.0, tensor, [0.1, 0.2, -0.3], inertiaTensorAtCOM=True),
        u.InertiaCuboid(1000, [1, 0.1, 0.2]).Rotated(u.RotXYZ2RotationMatrix([0.3, 0.2, -0.5])).Translated([0.5, 0, 0]),
        u.InertiaCylinder(1000, 1.0, 0.1, 1) + u.InertiaMassPoint(0.3).Translated([0.1, 0.2, 0.0]),
        u.InertiaSphere(2.0, 0.1).Transformed(u.HomogeneousTransformation(u.RotationMatrixZ(0.4), [1.0, 0.5, -0.2])),
    ]


def inertia_numbers(inertia):
    return [inertia.Mass(), *inertia.COM(), *inertia.Inertia().ravel(), *inertia.InertiaCOM().ravel(),
            *inertia.GetInertia6D()]


@pytest.mark.exudyn
def test_inertias_match_exudyn():
    _, reference, _ = exudyn_modules()
    for ours, theirs in zip(inertias(ffu), inertias(reference), strict=True):
        np.testing.assert_allclose(inertia_numbers(ours), inertia_numbers(theirs), rtol=1e-14, atol=1e-15)
        assert ours.GetTypeName() == theirs.GetTypeName()


def test_inertia_closed_forms():
    cuboid = ffu.InertiaCuboid(density=1000, sideLengths=[1.0, 2.0, 3.0])
    assert cuboid.mass == 6000
    np.testing.assert_allclose(np.diag(cuboid.Inertia()), 6000 / 12 * np.array([13.0, 10.0, 5.0]))
    shifted = ffu.InertiaMassPoint(2.0).Translated([0.0, 0.0, 0.5])
    np.testing.assert_allclose(shifted.Inertia(), np.diag([0.5, 0.5, 0.0]))  # m d^2 about the x and y axes
    np.testing.assert_allclose(shifted.InertiaCOM(), np.zeros((3, 3)), atol=1e-15)
    total = ffu.InertiaMassPoint(1.0).Translated([1.0, 0, 0]) + ffu.InertiaMassPoint(3.0).Translated([-1.0, 0, 0])
    assert total.mass == 4.0 and total.com.tolist() == [-0.5, 0.0, 0.0]


def test_inertia_bad_input_is_refused():
    with pytest.raises(ffexu.ExudynLayerError, match="Rotated: only for com = \\[0, 0, 0\\]"):
        ffu.InertiaMassPoint(1.0).Translated([1, 0, 0]).Rotated(np.eye(3))
    with pytest.raises(ffexu.ExudynLayerError, match="inertiaTensor must have shape \\(3, 3\\)"):
        ffu.RigidBodyInertia(1.0, np.eye(2))
    with pytest.raises(ffexu.ExudynLayerError, match="inertiaTensor is not symmetric"):
        ffu.RigidBodyInertia(1.0, [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]])
    with pytest.raises(ffexu.ExudynLayerError, match="exactly one of mass and density"):
        ffu.InertiaSphere(mass=1.0, radius=0.1, density=100.0)
    with pytest.raises(ffexu.ExudynLayerError, match="axis must be 0, 1 or 2"):
        ffu.InertiaCylinder(1000, 1.0, 0.1, axis=3)
    with pytest.warns(UserWarning, match="triangle inequality"):
        ffu.RigidBodyInertia(1.0, np.diag([1.0, 1.0, 3.0]))


# --- mbs.CreateRigidBody ------------------------------------------------------------------------------------
def tumbling_body(exu, u, **extra):
    """A cuboid thrown with a skew spin under gravity, made with mbs.CreateRigidBody; 40 steps of 5 ms."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    numbers = mbs.CreateRigidBody(inertia=u.InertiaCuboid(density=2000, sideLengths=[0.6, 0.2, 0.1]),
                                  referencePosition=[0.5, -0.2, 1.0],
                                  referenceRotationMatrix=u.RotXYZ2RotationMatrix([0.3, -0.2, 0.5]),
                                  initialVelocity=[1.0, 0.5, 3.0], initialAngularVelocity=[0.4, 6.0, 0.3],
                                  gravity=[0, 0, -9.81], returnDict=True, **extra)
    kinds = [exu.OutputVariableType.Position, exu.OutputVariableType.Velocity, exu.OutputVariableType.AngularVelocity]
    sensors = [mbs.AddSensor(u.SensorNode(nodeNumber=numbers["nodeNumber"], storeInternal=True, outputVariableType=k))
               for k in kinds]
    sensors.append(mbs.AddSensor(u.SensorBody(bodyNumber=numbers["bodyNumber"], localPosition=[0.3, 0.1, 0.05],
                                              storeInternal=True, outputVariableType=exu.OutputVariableType.Position)))
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = 40
    settings.timeIntegration.endTime = 0.2
    settings.timeIntegration.verboseMode = 0
    settings.timeIntegration.generalizedAlpha.spectralRadius = 0.8
    settings.solution.sensors.writePeriod = 0.005
    exu.SolveDynamic(mbs, settings)
    return mbs, numbers, [mbs.GetSensorStoredData(s) for s in sensors]


@pytest.mark.exudyn
@pytest.mark.parametrize("extra", [{}, {"initialDisplacement": [0.1, 0.0, -0.05],
                                        "initialRotationMatrix": [[1, 0, 0], [0, 0, -1], [0, 1, 0]]}])
def test_create_rigid_body_matches_exudyn(extra):
    exu, reference, _ = exudyn_modules()
    their_mbs, their_numbers, theirs = tumbling_body(exu, reference, **extra)
    our_mbs, our_numbers, ours = tumbling_body(ffexu, ffu, **extra)
    assert {k: int(v) for k, v in their_numbers.items()} == our_numbers
    for key in ("referenceCoordinates", "initialCoordinates", "initialVelocities"):
        np.testing.assert_allclose(our_mbs.GetNode(0)[key], their_mbs.GetNode(0)[key], atol=1e-15, err_msg=key)
    body = their_mbs.GetObject(0)
    assert our_mbs.GetObject(0)["mass"] == body["mass"]
    np.testing.assert_allclose(our_mbs.GetObject(0)["inertia"], body["inertia"], atol=1e-15)
    assert our_mbs.GetLoad(0)["loadType"] == their_mbs.GetLoad(0)["loadType"] == "MassProportional"
    np.testing.assert_allclose(our_mbs.GetLoad(0)["loadVector"], their_mbs.GetLoad(0)["loadVector"])
    for exudyn_data, floatframe_data in zip(theirs, ours, strict=True):
        assert floatframe_data.shape == exudyn_data.shape == (41, 4)
        np.testing.assert_allclose(floatframe_data, exudyn_data, rtol=0, atol=1e-7 * np.abs(exudyn_data).max())


def test_create_rigid_body_returns_the_body_number_and_builds_the_items():
    mbs = ffexu.SystemContainer().AddSystem()
    body = mbs.CreateRigidBody(name="disc", inertia=ffu.InertiaCylinder(7800, 0.05, 0.2, axis=2),
                               initialAngularVelocity=[0, 0, 10.0])
    assert body == 0 and mbs.NumberOfNodes() == 1 and mbs.NumberOfLoads() == 0  # no gravity: no load
    assert mbs.GetNode(0)["name"] == "Node:disc" and mbs.GetObject(0)["name"] == "disc"
    np.testing.assert_allclose(mbs.GetNode(0)["initialVelocities"], [0, 0, 0, 0, 0, 0, 5.0])  # theta_t = omega/2
    assert mbs.GetObject(0)["VgraphicsData"][0]["type"] == "Cylinder"  # the inertia's shape as graphics
    mbs.Assemble()
    np.testing.assert_allclose(mbs.GetNodeOutput(0, ffexu.OutputVariableType.AngularVelocity), [0, 0, 10.0])


@pytest.mark.parametrize("keywords, message", [
    (dict(nodeType=ffexu.NodeType.LieGroupWithDirectUpdate), "nodeType LieGroupWithDirectUpdate is not supported"),
    (dict(create2D=True), "create2D=True is not supported"),
    (dict(inertia=None), "inertia must be a RigidBodyInertia"),
    (dict(referenceHT=np.eye(4), referencePosition=[0, 0, 0]), "give either referenceHT or referencePosition"),
    (dict(initialVelocity=[1, 2]), "initialVelocity must be a vector of 3 numbers"),
    (dict(graphicsDataList={}), "graphicsDataList must be a"),
])
def test_create_rigid_body_refuses_what_floatframe_cannot_represent(keywords, message):
    mbs = ffexu.SystemContainer().AddSystem()
    arguments = dict(inertia=ffu.InertiaSphere(1.0, 0.1)) | keywords
    with pytest.raises(ffexu.ExudynLayerError, match=f"CreateRigidBody: {message}"):
        mbs.CreateRigidBody(**arguments)


def test_create_rigid_body_takes_homogeneous_transformations():
    mbs = ffexu.SystemContainer().AddSystem()
    rotation = ffu.RotationMatrixY(0.4)
    mbs.CreateRigidBody(inertia=ffu.InertiaSphere(1.0, 0.1),
                        referenceHT=ffu.HomogeneousTransformation(rotation, [1, 2, 3]),
                        initialHT=list(ffu.HTtranslate([0.5, 0, 0]).ravel()))
    node = mbs.GetNode(0)
    np.testing.assert_allclose(node["referenceCoordinates"], [1, 2, 3, *ffu.RotationMatrix2EulerParameters(rotation)])
    np.testing.assert_allclose(node["initialCoordinates"], [0.5, 0, 0, 0, 0, 0, 0], atol=1e-15)


@pytest.mark.exudyn
def test_deprecated_add_rigid_body_matches_exudyn():
    exu, reference, _ = exudyn_modules()
    results = []
    for package, u in ((exu, reference), (ffexu, ffu)):
        mbs = package.SystemContainer().AddSystem()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            numbers = u.AddRigidBody(mbs, u.InertiaCuboid(1000, [0.2, 0.3, 0.4]), position=[1, 0, 0],
                                     velocity=[0, 1, 0], rotationMatrix=u.RotationMatrixX(0.3),
                                     angularVelocity=[1, 2, 3], gravity=[0, -9.81, 0])
        assert any(issubclass(w.category, DeprecationWarning) for w in caught)
        results.append((list(map(int, numbers)), mbs.GetNode(0)))
    assert results[0][0] == results[1][0] == [0, 0]
    for key in ("referenceCoordinates", "initialVelocities"):
        np.testing.assert_allclose(results[1][1][key], results[0][1][key], atol=1e-15)


def test_create_ground_adds_an_object_ground():
    mbs = ffexu.SystemContainer().AddSystem()
    ground = mbs.CreateGround(referencePosition=[0, 1, 0])
    assert ground == 0 and mbs.GetObject(0)["objectType"] == "Ground"
    assert mbs.GetObject(0)["referencePosition"] == [0.0, 1.0, 0.0]


# --- PlotSensor -------------------------------------------------------------------------------------------
@pytest.fixture
def solved_body():
    mbs, numbers, _ = tumbling_body(ffexu, ffu)
    yield mbs
    plt.close("all")


def test_plot_sensor_draws_the_stored_data(solved_body, tmp_path):
    mbs = solved_body
    path = tmp_path / "plots" / "position.png"
    _, figure, axes, _ = mbs.PlotSensor(0, components=[0, 2], title="body", closeAll=True, fileName=str(path))
    data = mbs.GetSensorStoredData(0)
    lines = axes.get_lines()
    assert len(lines) == 2
    for line, column in zip(lines, (1, 3)):
        np.testing.assert_array_equal(line.get_xdata(), data[:, 0])
        np.testing.assert_array_equal(line.get_ydata(), data[:, column])
    assert [line.get_label() for line in lines] == ["sensor0, PositionX", "sensor0, PositionZ"]
    assert axes.get_xlabel() == "time (s)" and axes.get_ylabel() == "Position" and axes.get_title() == "body"
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_sensor_takes_lists_arrays_files_norms_factors_and_labels(solved_body, tmp_path):
    mbs = solved_body
    velocity, omega = mbs.GetSensorStoredData(1), mbs.GetSensorStoredData(2)
    file = tmp_path / "omega.txt"
    np.savetxt(file, omega, delimiter=",", header="OutputVariableType = AngularVelocity")
    _, _, axes, _ = ffplot.PlotSensor(mbs, [1, velocity, str(file)], components=[1, ffplot.componentNorm, 2],
                                      factors=[2.0, 1.0, 1.0], offsets=[0.5, 0.0, 0.0], labels=["a", "b", "c"],
                                      yLabel="values")
    lines = axes.get_lines()
    np.testing.assert_allclose(lines[0].get_ydata(), 2.0 * (velocity[:, 2] + 0.5))
    np.testing.assert_allclose(lines[1].get_ydata(), np.linalg.norm(velocity[:, 1:], axis=1))
    np.testing.assert_allclose(lines[2].get_ydata(), omega[:, 3], rtol=1e-15)
    assert [line.get_label() for line in lines] == ["a", "b", "c"] and axes.get_ylabel() == "values"
    _, _, axes, _ = mbs.PlotSensor(3, components=1, componentsX=0)  # y over x of a body point
    data = mbs.GetSensorStoredData(3)
    np.testing.assert_array_equal(axes.get_lines()[-1].get_xydata(), data[:, 1:3])


@pytest.mark.exudyn
def test_plot_sensor_draws_arrays_as_exudyn_does(solved_body):
    _, _, reference_plot = exudyn_modules()
    data = solved_body.GetSensorStoredData(2)
    keywords = dict(components=[0, 2, reference_plot.componentNorm], colorCodeOffset=2, title="omega")
    _, _, their_axes, _ = reference_plot.PlotSensor(None, [data, data, data], **keywords)
    _, _, our_axes, _ = ffplot.PlotSensor(None, [data, data, data], **keywords)
    assert our_axes is not their_axes
    for ours, theirs in zip(our_axes.get_lines(), their_axes.get_lines(), strict=True):
        np.testing.assert_array_equal(ours.get_xydata(), theirs.get_xydata())
        assert (ours.get_label(), ours.get_color(), ours.get_linestyle()) == \
            (theirs.get_label(), theirs.get_color(), theirs.get_linestyle())
    assert (our_axes.get_xlabel(), our_axes.get_ylabel(), our_axes.get_title()) == \
        (their_axes.get_xlabel(), their_axes.get_ylabel(), their_axes.get_title())


def test_plot_sensor_bad_input_is_named(solved_body):
    with pytest.raises(ffexu.ExudynLayerError, match="unknown argument 'fileNam'.*'fileName'"):
        solved_body.PlotSensor(0, fileNam="x.png")
    with pytest.raises(ffexu.ExudynLayerError, match="component 3 of sensorNumbers\\[0\\] does not exist"):
        solved_body.PlotSensor(0, components=3)
    with pytest.raises(ffexu.ExudynLayerError, match="2 sensorNumbers and 3 components"):
        solved_body.PlotSensor([0, 1], components=[0, 1, 2])
    with pytest.raises(ffexu.ExudynLayerError, match="sensor number 5 does not exist"):
        solved_body.PlotSensor(5)


# --- names the layer does not have ----------------------------------------------------------------------
def test_unknown_names_name_the_closest_supported_one():
    with pytest.raises(AttributeError, match="floatframe.exudyn.utilities has no name 'RotXYZ2RotationMatrx' "
                                             "\\(closest supported name: 'RotXYZ2RotationMatrix'\\)"):
        ffu.RotXYZ2RotationMatrx
    with pytest.raises(ImportError, match="closest supported name: 'InertiaCylinder'"):
        from floatframe.exudyn.utilities import InertiaCylindre  # noqa: F401
    with pytest.raises(ImportError, match="floatframe.exudyn does not support exudyn's 'HT'"):
        from floatframe.exudyn import HT  # noqa: F401
    with pytest.raises(ffexu.ExudynLayerError, match="closest supported name: 'NodeType'"):
        ffexu.NodeTyp
    with pytest.raises(ffexu.ExudynLayerError, match="does not support exudyn.itemInterface.ObjectContactCoordinate "
                                                     "\(closest supported name"):
        ffexu.itemInterface.ObjectContactCoordinate()   # a placeholder (star imports): refused where used
    with pytest.raises(AttributeError, match="plot has no name 'PlotSensr' \\(closest supported name: 'PlotSensor'\\)"):
        ffplot.PlotSensr
    with pytest.raises(ImportError, match="rigidBodyUtilities has no name 'InertiaCubiod'.*'InertiaCuboid'"):
        from floatframe.exudyn.rigidBodyUtilities import InertiaCubiod  # noqa: F401
    assert not hasattr(ffu, "NoSuchName") and getattr(ffexu, "NoSuchName", None) is None


def test_star_import_gives_placeholders_that_refuse_to_be_used():
    namespace = {}
    exec("from floatframe.exudyn.utilities import *", namespace)
    assert namespace["RotXYZ2RotationMatrix"] is ffu.RotXYZ2RotationMatrix and "pi" in namespace
    with pytest.raises(ffexu.ExudynLayerError, match="does not support exudyn.utilities.ObjectContactCoordinate "
                                                     "\\(closest supported name: '.+'\\)"):
        namespace["ObjectContactCoordinate"](contactStiffness=1.0)
    with pytest.raises(ffexu.ExudynLayerError, match="does not support exudyn.utilities.RoundMatrix"):
        namespace["RoundMatrix"][2]
    with pytest.raises(ffexu.ExudynLayerError, match="exudyn.utilities.RotationMatrix2RotZYZ"):
        namespace["RotationMatrix2RotZYZ"](np.eye(3), False)
    assert not any(name.startswith("VObjectConnectorLinearSpringDamper") for name in ffu.UNSUPPORTED_NAMES)  # supported
    with pytest.raises(ffexu.ExudynLayerError, match="mbs.CreateRollingDisc"):
        ffexu.SystemContainer().AddSystem().CreateRollingDisc()


@pytest.mark.exudyn
def test_every_exudyn_utilities_name_is_supported_or_a_placeholder():
    _, reference, _ = exudyn_modules()
    visualization = [n for n in reference.__all__ if n[0] == "V" and n[1].isupper()]
    missing = [n for n in reference.__all__ if n not in ffu.__all__ and n not in visualization]
    assert missing == []
    assert all(isinstance(getattr(ffu, name), ffu.Unsupported) for name in ffu.UNSUPPORTED_NAMES)
    assert not any(isinstance(getattr(ffu, name), ffu.Unsupported) for name in ffu.SUPPORTED)
    assert ffu.ObjectRigidBody is ffexu.ObjectRigidBody and ffu.InertiaCuboid is ffexu.rigidBodyUtilities.InertiaCuboid
