"""MainSystem extras of issue 28 against exudyn 1.13.6: ComputeLinearizedSystem, ComputeSystemDegreeOfFreedom."""
import numpy as np
import pytest

import floatframe.exudyn as ffx
from floatframe.errors import ModelError
from floatframe.exudyn import utilities as ffu

exudyn = pytest.importorskip("exudyn")
from exudyn import utilities as exu_utilities  # noqa: E402


def spring_mass_point(exu, utilities):
    """A mass point hanging from a tilted spring-damper (Exudyn's ComputeLinearizedSystem example layout)."""
    mbs = exu.SystemContainer().AddSystem()
    body = mbs.CreateMassPoint(referencePosition=[2, 0, 0], initialVelocity=[0, 5, 0], mass=1.5,
                               gravity=[0, -9.81, 0])
    ground = mbs.AddObject(utilities.ObjectGround())
    mbs.CreateSpringDamper(itemNumbers=[ground, body], localPosition0=[2.5, 1, 0.3], localPosition1=[0, 0, 0],
                           stiffness=1e4, damping=1e2, referenceLength=0.8)
    mbs.Assemble()
    return mbs


def jointed_rigid_body(exu, utilities, axes, active=True):
    """A rigid body (Euler parameters) on a tilted generic joint to the ground."""
    mbs = exu.SystemContainer().AddSystem()
    body = mbs.CreateRigidBody(inertia=utilities.InertiaCuboid(density=5000, sideLengths=[1, 0.1, 0.1]),
                               referencePosition=[6, 0, 0], initialAngularVelocity=[0, 8, 0], gravity=[0, -9.81, 0])
    ground = mbs.AddObject(utilities.ObjectGround())
    joint = mbs.CreateGenericJoint(itemNumbers=[ground, body], position=[5.5, 0, 0], constrainedAxes=axes,
                                   rotationMatrixAxes=utilities.RotationMatrixX(0.125 * np.pi), useGlobalFrame=True)
    if not active:
        mbs.SetObjectParameter(joint if not isinstance(joint, list) else joint[0], "activeConnector", False)
    mbs.Assemble()
    return mbs


def test_linearized_spring_mass_point_matches_exudyn():
    ours = ffx.ComputeLinearizedSystem(spring_mass_point(ffx, ffu))
    reference = exudyn.ComputeLinearizedSystem(spring_mass_point(exudyn, exu_utilities))
    assert len(ours) == 3
    for mine, theirs in zip(ours, reference):
        assert mine.shape == (3, 3)
        np.testing.assert_allclose(mine, theirs, rtol=1e-10, atol=1e-8)
    assert abs(ours[1][0, 1]) > 100  # the tilted, prestressed spring couples x and y


def test_linearized_system_projected_into_constraint_null_space_matches_exudyn():
    axes = [1, 1, 1, 1, 0, 0]
    ours = jointed_rigid_body(ffx, ffu, axes).ComputeLinearizedSystem(
        projectIntoConstraintNullspace=True, returnConstraintNullspace=True)
    reference = jointed_rigid_body(exudyn, exu_utilities, axes).ComputeLinearizedSystem(
        projectIntoConstraintNullspace=True, returnConstraintNullspace=True)
    assert len(ours) == 5 and ours[3] == []
    null_rows, reference_rows = ours[4], reference[4]
    assert null_rows.shape == reference_rows.shape == (2, 7)
    # the null-space basis is unique up to a rotation: compare the projector and the projected mass matrix
    # through it
    np.testing.assert_allclose(null_rows.T @ null_rows, reference_rows.T @ reference_rows, atol=1e-10)
    rotation = reference_rows @ null_rows.T
    np.testing.assert_allclose(rotation @ ours[0] @ rotation.T, reference[0], rtol=1e-10, atol=1e-10)
    assert np.linalg.eigvalsh(ours[0]).min() > 0


@pytest.mark.parametrize("axes, active", [([1, 1, 1, 1, 0, 0], True), ([1, 1, 1, 1, 1, 1], True),
                                          ([1, 1, 1, 1, 1, 1], False), ([1, 1, 0, 0, 0, 1], True)])
def test_degree_of_freedom_counts_match_exudyn(axes, active):
    ours = jointed_rigid_body(ffx, ffu, axes, active).ComputeSystemDegreeOfFreedom()
    reference = exudyn.ComputeSystemDegreeOfFreedom(jointed_rigid_body(exudyn, exu_utilities, axes, active))
    assert {key: int(value) for key, value in ours.items()} == {key: int(value) for key, value in reference.items()}
    assert ours["degreeOfFreedom"] == (6 - sum(axes) if active else 6)


def test_degree_of_freedom_counts_redundant_constraints_as_exudyn():
    def model(exu, utilities):
        mbs = jointed_rigid_body(exu, utilities, [1, 1, 1, 0, 0, 0])
        markers = [mbs.AddMarker(utilities.MarkerNodeCoordinate(nodeNumber=0, coordinate=0)),
                   mbs.AddMarker(utilities.MarkerNodeCoordinate(nodeNumber=0, coordinate=0))]
        ground = mbs.AddNode(utilities.NodePointGround())
        ground_marker = mbs.AddMarker(utilities.MarkerNodeCoordinate(nodeNumber=ground, coordinate=0))
        for marker in markers:  # the joint already holds x of the body's reference point: twice redundant
            mbs.AddObject(utilities.ObjectConnectorCoordinate(markerNumbers=[ground_marker, marker], offset=6.0))
        mbs.Assemble()
        return mbs.ComputeSystemDegreeOfFreedom(useSVD=True)
    ours, reference = model(ffx, ffu), model(exudyn, exu_utilities)
    assert {key: int(value) for key, value in ours.items()} == {key: int(value) for key, value in reference.items()}
    assert ours["redundantConstraints"] == 2


def chain_with_deletions(exu, utilities):
    """Three mass points on distance constraints; a joint, a sensor, a load and a body deleted as in Exudyn's
    deleteItemsTest, then a joint added again and the chain solved."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.CreateGround()
    created, joints, sensors, last = [], [], [], ground
    for i in range(3):
        created.append(mbs.CreateMassPoint(referencePosition=[0.25 * (i + 1), 0, 0], initialVelocity=[0, -0.5, 0],
                                           mass=0.5, gravity=[0, -9.81, 0], returnDict=True))
        joints.append(mbs.CreateDistanceConstraint(itemNumbers=[last, created[-1]["bodyNumber"]]))
        last = created[-1]["bodyNumber"]
        sensors.append(mbs.AddSensor(utilities.SensorBody(bodyNumber=last, storeInternal=True,
                                                          outputVariableType=exu.OutputVariableType.Position)))
    mbs.DeleteObject(joints[0], suppressWarnings=True)
    mbs.DeleteObject(joints[1] - 1, suppressWarnings=True)
    mbs.DeleteSensor(sensors[0], suppressWarnings=True)
    mbs.DeleteLoad(created[0]["loadNumber"], suppressWarnings=True)
    mbs.DeleteObject(created[0]["bodyNumber"], suppressWarnings=True)
    mbs.CreateDistanceConstraint(itemNumbers=[ground, created[0]["bodyNumber"]])
    layout = {family: [dict(getter(i)) for i in range(count())] for family, getter, count in [
        ("node", mbs.GetNode, mbs.systemData.NumberOfNodes), ("object", mbs.GetObject, mbs.systemData.NumberOfObjects),
        ("marker", mbs.GetMarker, mbs.systemData.NumberOfMarkers), ("load", mbs.GetLoad, mbs.systemData.NumberOfLoads),
        ("sensor", mbs.GetSensor, mbs.systemData.NumberOfSensors)]}
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = 100
    settings.timeIntegration.endTime = 0.2
    mbs.SolveDynamic(settings)
    return layout, mbs.GetSensorValues(mbs.systemData.NumberOfSensors() - 1), mbs.systemData.GetODE2Coordinates()


def as_numbers(value):
    if isinstance(value, str):
        return value
    return [int(entry) for entry in value] if isinstance(value, (list, tuple)) else int(value)


def test_deleting_items_renumbers_and_solves_as_exudyn(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ours, reference = chain_with_deletions(ffx, ffu), chain_with_deletions(exudyn, exu_utilities)
    references = ("nodeNumber", "markerNumbers", "markerNumber", "bodyNumber", "name", "objectType", "markerType")
    for family in ours[0]:
        assert len(ours[0][family]) == len(reference[0][family]), family
        for mine, theirs in zip(ours[0][family], reference[0][family]):
            for key in references:
                if key in theirs:
                    assert as_numbers(mine[key]) == as_numbers(theirs[key]), (family, key, mine, theirs)
    assert len(ours[2]) == len(reference[2]) == 6
    np.testing.assert_allclose(ours[2], reference[2], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours[1], reference[1], rtol=1e-5, atol=1e-6)


def test_deleting_a_referenced_marker_leaves_an_invalid_reference_named_at_assembly():
    mbs = ffx.SystemContainer().AddSystem()
    node = mbs.AddNode(ffu.NodePoint(referenceCoordinates=[1, 0, 0]))
    body = mbs.AddObject(ffu.MassPoint(physicsMass=1.0, nodeNumber=node))
    marker = mbs.AddMarker(ffu.MarkerBodyPosition(bodyNumber=body))
    load = mbs.AddLoad(ffu.LoadForceVector(markerNumber=marker, loadVector=[1, 0, 0]))
    with pytest.warns(UserWarning, match="load 0 references the deleted marker 0"):
        mbs.DeleteMarker(marker)
    assert mbs.GetLoad(load)["markerNumber"] == -1
    with pytest.raises(ModelError, match="LoadForceVector 0 'load0': marker_number -1 is out of range"):
        mbs.Assemble()
    with pytest.raises(ffx.ExudynLayerError, match="DeleteNode: invalid node number 3"):
        mbs.DeleteNode(3)


def test_post_newton_user_function_must_be_a_function():
    mbs = ffx.SystemContainer().AddSystem()
    with pytest.raises(ffx.ExudynLayerError, match=r"SetPostNewtonUserFunction: expected a Python function f\(mbs, t\)"):
        mbs.SetPostNewtonUserFunction(3)
    assert callable(exudyn.SystemContainer().AddSystem().SetPostNewtonUserFunction)


def other_marker_joint(exu, utilities, get_other_marker):
    """A rotated rigid body held by a spherical joint at a body-fixed point, its ground marker made by
    GetOtherMarker; solved under gravity."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.CreateGround(referencePosition=[0.1, -0.2, 0.3])
    body = mbs.CreateRigidBody(inertia=utilities.InertiaCuboid(density=1000, sideLengths=[0.4, 0.1, 0.05]),
                               referencePosition=[1, 0.5, 0], referenceRotationMatrix=utilities.RotationMatrixZ(0.4),
                               gravity=[0, -9.81, 0])
    body_marker = mbs.AddMarker(utilities.MarkerBodyRigid(bodyNumber=body, localPosition=[-0.2, 0, 0]))
    ground_marker = get_other_marker(mbs, bodyNumber=ground, existingMarker=body_marker, show=False)
    local_position = [float(x) for x in mbs.GetMarker(ground_marker)["localPosition"]]
    mbs.AddObject(utilities.SphericalJoint(markerNumbers=[ground_marker, body_marker]))
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = 100
    settings.timeIntegration.endTime = 0.2
    mbs.SolveDynamic(settings)
    return ground_marker, local_position, mbs.systemData.GetODE2Coordinates()


def test_get_other_marker_matches_exudyn(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    from exudyn.basicUtilities import GetOtherMarker as ExudynGetOtherMarker

    from floatframe.exudyn.mainSystemExtensions import GetOtherMarker
    ours = other_marker_joint(ffx, ffu, GetOtherMarker)
    reference = other_marker_joint(exudyn, exu_utilities, ExudynGetOtherMarker)
    assert ours[0] == int(reference[0]) == 2  # after the gravity load's marker and the body marker
    np.testing.assert_allclose(ours[1], reference[1], atol=1e-14)
    assert abs(ours[1][0] - (1 - 0.2 * np.cos(0.4) - 0.1)) < 1e-14
    np.testing.assert_allclose(ours[2], reference[2], rtol=1e-5, atol=1e-6)


def test_degree_of_freedom_of_revolute_and_spherical_joint_on_one_body_matches_exudyn():
    def model(exu, utilities):
        mbs = exu.SystemContainer().AddSystem()
        ground = mbs.CreateGround()
        body = mbs.CreateRigidBody(inertia=utilities.InertiaCuboid(density=1000, sideLengths=[0.4, 0.1, 0.05]),
                                   referencePosition=[1, 0, 0])
        mbs.CreateRevoluteJoint(itemNumbers=[ground, body], position=[0.8, 0, 0], axis=[0, 0, 1])
        mbs.CreateSphericalJoint(itemNumbers=[ground, body], position=[1.2, 0, 0])
        mbs.Assemble()
        return {key: int(value) for key, value in mbs.ComputeSystemDegreeOfFreedom().items()}
    with pytest.warns(UserWarning, match="redundant"):
        ours = model(ffx, ffu)
    assert ours == model(exudyn, exu_utilities)
    assert (ours["degreeOfFreedom"], ours["redundantConstraints"], ours["nAE"]) == (0, 2, 9)


def joint_args_pendulum(exu, utilities, get_joint_args, turn_existing):
    """A body on a revolute joint made by GetJointArgs from a ground marker with localHT (optionally turned by
    rotationMarker0); returns the arguments, the markers' localHT and the solution."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.CreateGround(referencePosition=[0, 0, 0])
    body = mbs.CreateRigidBody(inertia=utilities.InertiaCuboid(density=1000, sideLengths=[0.4, 0.1, 0.05]),
                               referencePosition=[0.2, -0.1, 0.05], referenceRotationMatrix=utilities.RotationMatrixY(0.3),
                               gravity=[0, -9.81, 0])
    ground_frame = np.eye(4)
    ground_frame[:3, :3] = utilities.RotationMatrixX(0.2)
    ground_frame[:3, 3] = [0.05, 0.0, 0.1]
    ground_marker = mbs.AddMarker(utilities.MarkerBodyRigid(bodyNumber=ground, localHT=ground_frame))
    rotation = utilities.RotationMatrixZ(0.5) if turn_existing else None
    args = get_joint_args(mbs, markerNumber0=ground_marker, bodyNumber1=body, rotationMarker0=rotation)
    mbs.AddObject(utilities.RevoluteJointZ(**args))
    frames = [np.asarray(mbs.GetMarker(marker)["localHT"], dtype=float).reshape(4, 4)
              for marker in args["markerNumbers"]]
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = 100
    settings.timeIntegration.endTime = 0.2
    mbs.SolveDynamic(settings)
    return [int(marker) for marker in args["markerNumbers"]], sorted(args), frames, mbs.systemData.GetODE2Coordinates()


@pytest.mark.parametrize("turn_existing", [False, True])
def test_get_joint_args_matches_exudyn(tmp_path, monkeypatch, turn_existing):
    monkeypatch.chdir(tmp_path)
    from exudyn.basicUtilities import GetJointArgs as ExudynGetJointArgs

    from floatframe.exudyn.mainSystemExtensions import GetJointArgs
    ours = joint_args_pendulum(ffx, ffu, GetJointArgs, turn_existing)
    reference = joint_args_pendulum(exudyn, exu_utilities, ExudynGetJointArgs, turn_existing)
    assert ours[0] == reference[0] == ([3, 2] if turn_existing else [1, 2])
    assert ours[1] == reference[1] == ["markerNumbers"]
    for mine, theirs in zip(ours[2], reference[2]):
        np.testing.assert_allclose(mine, theirs, atol=1e-14)
    np.testing.assert_allclose(ours[3], reference[3], rtol=1e-5, atol=1e-6)
    assert np.linalg.norm(ours[3][:3]) > 1e-3  # the body moved
