"""exudyn.robotics for serial robots in redundant coordinates, and robotics.motion, against exudyn 1.13.6.

Claims: StdDH2HT, ModDHKK2HT and a DH robot's JointHT, LinkHT, COMHT, Jacobian and StaticTorques equal exudyn's
value by value (the static torques also equal the derivative of the potential energy, by finite differences);
CreateRedundantCoordinateMBS creates exudyn's items (types in order) and dict, and a short simulation of the
robot (PD-controlled by torsional and linear spring-dampers, and by joint-torque loads set in a PreStepUserFunction)
gives exudyn's joint angles, rates and body positions; Trajectory.Evaluate and EvaluateCoordinate equal exudyn's at
many times, projectAngleToPMPi as exudyn's; the kinematic tree and InverseKinematicsNumerical are refused."""
import numpy as np
import pytest

import floatframe.exudyn as ffexu
import floatframe.exudyn.itemInterface as ffii
import floatframe.exudyn.rigidBodyUtilities as ffrb
import floatframe.exudyn.robotics as ffr
import floatframe.exudyn.robotics.motion as ffm

exudyn = pytest.importorskip("exudyn")
import exudyn.itemInterface as exii  # noqa: E402
import exudyn.rigidBodyUtilities as exrb  # noqa: E402
import exudyn.robotics as exr  # noqa: E402
import exudyn.robotics.motion as exm  # noqa: E402


def matrix(transformation):
    """A 4 x 4 array of an exudyn.HT or an array."""
    return np.asarray(transformation.HT44() if hasattr(transformation, "HT44") else transformation, dtype=float)


def dh_robot(robotics, rbu, prismatic=False, control=False):
    """A Puma-like robot on a moved base with a tool; optionally a prismatic third joint and PD control."""
    pd = (lambda k, d: dict(PDcontrol=(k, d))) if control else (lambda k, d: {})
    robot = robotics.Robot(gravity=[0, 0, -9.81],
                           base=robotics.RobotBase(HT=rbu.HTtranslate([0.1, -0.2, 0.3]) @ rbu.HTrotateZ(0.4)),
                           tool=robotics.RobotTool(HT=rbu.HTtranslate([0, 0, 0.1])), referenceConfiguration=[])
    robot.AddLink(robotics.RobotLink(mass=20, COM=[0, 0, 0], inertia=np.diag([0.18, 0.35, 0.18]),
                                     localHT=robotics.StdDH2HT([0, 0, 0, np.pi / 2]), **pd(4e4, 400)))
    robot.AddLink(robotics.RobotLink(mass=17.4, COM=[-0.3638, 0.006, 0.2275], inertia=np.diag([0.13, 0.524, 0.539]),
                                     localHT=robotics.StdDH2HT([0, 0, 0.4318, 0]), **pd(4e4, 400)))
    robot.AddLink(robotics.RobotLink(mass=4.8, COM=[-0.0203, -0.0141, 0.07], inertia=np.diag([0.066, 0.086, 0.02]),
                                     localHT=robotics.StdDH2HT([0, 0.15, 0.0203, -np.pi / 2]),
                                     jointType="Pz" if prismatic else "Rz", **pd(2e4, 200)))
    robot.AddLink(robotics.RobotLink(mass=0.82, COM=[0, 0.019, 0], inertia=np.diag([0.0018, 0.0013, 0.0018]),
                                     localHT=robotics.StdDH2HT([0, 0.4318, 0, np.pi / 2]), preHT=rbu.HTrotateX(0.2),
                                     **pd(100, 1)))
    return robot


def test_denavit_hartenberg_transformations_equal_exudyns():
    for parameters in ([0.5, 0.1, 0.2, 0.7], [-2.0, 0.0, 0.4318, np.pi / 2], [0, 0.15, 0.0203, -np.pi / 2]):
        np.testing.assert_allclose(ffr.StdDH2HT(parameters), matrix(exr.StdDH2HT(parameters)), rtol=0, atol=1e-15)
        for ours, theirs in zip(ffr.ModDHKK2HT(parameters), exr.ModDHKK2HT(parameters)):
            np.testing.assert_allclose(ours, matrix(theirs), rtol=0, atol=1e-15)
    theta, d, a, alpha = 0.5, 0.1, 0.2, 0.7   # rotation theta about z, d along z, a along x, rotation alpha about x
    closed_form = (ffrb.HTrotateZ(theta) @ ffrb.HTtranslate([0, 0, d]) @ ffrb.HTtranslate([a, 0, 0])
                   @ ffrb.HTrotateX(alpha))
    np.testing.assert_allclose(ffr.StdDH2HT([theta, d, a, alpha]), closed_form, rtol=0, atol=1e-15)


@pytest.mark.parametrize("prismatic", [False, True])
def test_kinematics_and_static_torques_of_a_dh_robot_equal_exudyns(prismatic):
    ours, theirs = dh_robot(ffr, ffrb, prismatic), dh_robot(exr, exrb, prismatic)
    assert ours.NumberOfLinks() == theirs.NumberOfLinks() == 4 and len(ours.links) == 4
    np.testing.assert_array_equal(ours.referenceConfiguration, theirs.referenceConfiguration)
    np.testing.assert_allclose(ours.GetBaseHT(), matrix(theirs.GetBaseHT()), rtol=0, atol=1e-15)
    for q in ([0, 0, 0, 0], [0.3, -0.5, 0.1, 1.2], [2.5, 1.0, -0.2, -3.0]):
        joints_ours, joints_theirs = ours.JointHT(q), theirs.JointHT(q)
        for name in ("JointHT", "LinkHT"):
            for a, b in zip(getattr(ours, name)(q), getattr(theirs, name)(q)):
                np.testing.assert_allclose(a, matrix(b), rtol=0, atol=1e-14)
        for a, b in zip(ours.COMHT(joints_ours), theirs.COMHT(joints_theirs)):
            np.testing.assert_allclose(a, matrix(b), rtol=0, atol=1e-14)
        np.testing.assert_allclose(ours.Jacobian(joints_ours), theirs.Jacobian(joints_theirs), rtol=0, atol=1e-14)
        np.testing.assert_allclose(ours.Jacobian(joints_ours[:2], toolPosition=[0.3, 0.2, 0.1], mode="rot"),
                                   theirs.Jacobian(joints_theirs[:2], toolPosition=[0.3, 0.2, 0.1], mode="rot"),
                                   rtol=0, atol=1e-14)
        torques = ours.StaticTorques(joints_ours)
        np.testing.assert_allclose(torques, theirs.StaticTorques(joints_theirs), rtol=1e-13, atol=1e-12)
        np.testing.assert_allclose(torques, -potential_gradient(ours, q), rtol=1e-6, atol=1e-6)


def potential_gradient(robot, q, step=1e-6):
    """dV/dq of the links' weights (V = -sum m g . p_COM) by central differences."""
    def potential(coordinates):
        centres = robot.COMHT(robot.JointHT(coordinates))
        return -sum(link.mass * robot.gravity @ centre[:3, 3] for link, centre in zip(robot.links, centres))
    gradient = np.zeros(len(q))
    for i in range(len(q)):
        shift = np.zeros(len(q))
        shift[i] = step
        gradient[i] = (potential(np.array(q) + shift) - potential(np.array(q) - shift)) / (2 * step)
    return gradient


def redundant_robot_model(code, prismatic):
    """The DH robot in redundant coordinates on a ground marker, steered to a pose: by its spring-dampers (PD
    control, offsets set in a PreStepUserFunction) and, on revolute joints, by joint-torque loads (static
    torques); returns (mbs, robot dict, sensor numbers, solve)."""
    exu, ii, rbu, robotics = ((ffexu, ffii, ffrb, ffr) if code == "floatframe" else (exudyn, exii, exrb, exr))
    robot = dh_robot(robotics, rbu, prismatic, control=True)
    system_container = exu.SystemContainer()
    mbs = system_container.AddSystem()
    ground = mbs.AddObject(ii.ObjectGround(referencePosition=list(rbu.HT2translation(matrix(robot.GetBaseHT())))))
    base = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=ground, localPosition=[0, 0, 0]))
    numbers = robot.CreateRedundantCoordinateMBS(mbs, baseMarker=base, createJointTorqueLoads=not prismatic,
                                                 rotationMarkerBase=rbu.RotationMatrixZ(0.4))   # the base's turn
    target = [0.4, -0.3, 0.05 if prismatic else 0.3, 0.5]
    trajectory = robotics.motion.Trajectory([0, 0, 0, 0], 0)
    trajectory.Add(robotics.motion.ProfileConstantAcceleration(target, 0.04))

    def pre_step(mbs, t):
        u, v, _ = trajectory.Evaluate(t)
        static = robot.StaticTorques(robot.JointHT(u))
        for i, spring_damper in enumerate(numbers["springDamperList"]):
            mbs.SetObjectParameter(spring_damper, "offset", u[i])
            mbs.SetObjectParameter(spring_damper, "velocityOffset", v[i])
            if not prismatic:   # (the load lists hold revolute joints only, None without loads)
                mbs.SetLoadParameter(numbers["jointTorque0List"][i], "loadVector",
                                     list(-static[i] * numbers["unitTorque0List"][i]))
                mbs.SetLoadParameter(numbers["jointTorque1List"][i], "loadVector",
                                     list(-static[i] * numbers["unitTorque1List"][i]))
        return True

    mbs.SetPreStepUserFunction(pre_step)
    sensors = [mbs.AddSensor(ii.SensorObject(objectNumber=j, storeInternal=True, outputVariableType=variable))
               for j in numbers["jointList"] for variable in (exu.OutputVariableType.Rotation,
                                                               exu.OutputVariableType.AngularVelocityLocal)]
    sensors += [mbs.AddSensor(ii.SensorBody(bodyNumber=b, storeInternal=True,
                                            outputVariableType=exu.OutputVariableType.Position))
                for b in numbers["bodyList"]]
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = 60
    settings.timeIntegration.endTime = 0.06
    settings.timeIntegration.verboseMode = 0
    settings.solution.file.write = False
    settings.solution.sensors.writePeriod = 0.001
    settings.timeIntegration.generalizedAlpha.spectralRadius = 0.5
    settings.timeIntegration.generalizedAlpha.computeInitialAccelerations = True
    settings.timeIntegration.newton.relativeTolerance = 1e-12

    def solve():
        mbs.SolveDynamic(settings)
        return np.hstack([mbs.GetSensorStoredData(s)[:, 1:] for s in sensors])
    return mbs, numbers, solve


@pytest.mark.parametrize("prismatic", [False, True])
def test_redundant_coordinate_robot_creates_exudyns_items_and_moves_as_exudyns(prismatic):
    ours, ours_numbers, ours_solve = redundant_robot_model("floatframe", prismatic)
    theirs, theirs_numbers, theirs_solve = redundant_robot_model("exudyn", prismatic)
    assert sorted(ours_numbers) == sorted(theirs_numbers)
    for key in ("nodeList", "bodyList", "jointList", "markerList0", "markerList1", "jointTorque0List",
                "jointTorque1List", "baseObject"):
        assert [None if n is None else int(n) for n in np.atleast_1d(ours_numbers[key])] == \
               [None if n is None else int(n) for n in np.atleast_1d(theirs_numbers[key])], key
    assert [n is None for n in ours_numbers["springDamperList"]] == \
           [n is None for n in theirs_numbers["springDamperList"]] == [False] * 4
    for key in ("unitTorque0List", "unitTorque1List"):
        np.testing.assert_array_equal(np.array(ours_numbers[key], dtype=float),
                                      np.array(theirs_numbers[key], dtype=float))

    def types(mbs, family):
        count = getattr(mbs.systemData, f"NumberOf{family}s")()
        key = f"{family.lower()}Type"
        return [str(getattr(mbs, f"Get{family}")(i)[key]).split(".")[-1].removeprefix(family) for i in range(count)]
    for family in ("Object", "Marker", "Load"):
        assert types(ours, family) == types(theirs, family)
    expected = theirs_solve()
    result = ours_solve()
    assert result.shape == expected.shape == (61, 4 * 6 + 4 * 3)
    assert np.abs(expected[-1, 2:24:6]).max() > 0.1   # the robot has moved towards its pose
    np.testing.assert_allclose(result, expected, rtol=0, atol=1e-9 * np.abs(expected).max())


def trajectories(motion):
    """A trajectory of each kind of profile (exudyn's ProfilePTP warns about nothing; the others do not take the
    trajectory's limits)."""
    ptp = motion.Trajectory([0, 0.5, 0], 0.1, maxVelocities=[1, 2, 3], maxAccelerations=[4, 5, 6])
    ptp.Add(motion.ProfilePTP([1, -1, 0.5], syncAccTimes=False))
    ptp.Add(motion.ProfilePTP([1, 0, -0.5], syncAccTimes=False, maxVelocities=[0.5, 0.5, 0.5]))
    mixed = motion.Trajectory([0, 1, 0], 0.0)
    mixed.Add(motion.ProfileConstantAcceleration([1, 2, -1], 0.3))
    mixed.Add(motion.ProfileLinearAccelerationsList([(0, [1, 2, 3]), (0.2, [-1, 0, 2]), (0.5, [0, 0, 0])]))
    mixed.Add(motion.ProfileConstantAcceleration([0, 0, 0], 0.4))
    return ptp, mixed


def test_trajectories_evaluate_as_exudyns():
    ours, theirs = trajectories(ffm), trajectories(exm)
    for a, b in zip(ours, theirs):
        assert a.GetTimes() == pytest.approx(b.GetTimes(), rel=1e-15) and len(a) == len(b)
        for t in np.r_[np.linspace(-0.2, 3.0, 641), a.GetTimes()]:
            np.testing.assert_allclose(np.array(a.Evaluate(t), dtype=float), np.array(b.Evaluate(t), dtype=float),
                                       rtol=0, atol=1e-14)
            for coordinate in range(3):
                np.testing.assert_allclose(a.EvaluateCoordinate(t, coordinate),
                                           b.EvaluateCoordinate(t, coordinate), rtol=0, atol=1e-14)
    constant = ours[1]
    s, v, a = constant.Evaluate(0.15)   # half of 0.3 s: half-way there at the peak velocity, 2 distance / duration
    np.testing.assert_allclose(s, [0.5, 1.5, -0.5], atol=1e-15)
    np.testing.assert_allclose(v, [2 / 0.3, 2 / 0.3, -2 / 0.3], rtol=1e-14)


def test_angle_projection_equals_exudyns():
    for angles in (3.5, -3.5, [0.1, 7.0, -np.pi, np.pi], np.array([10.0, -10.0, 2 * np.pi + 0.5])):
        np.testing.assert_allclose(ffr.projectAngleToPMPi(angles), exr.projectAngleToPMPi(angles), rtol=0, atol=1e-15)
    assert ffr.projectAngleToPMPi(-3.5) == pytest.approx(2 * np.pi - 3.5, rel=1e-15)


def test_the_kinematic_tree_is_refused_with_its_scope():
    robot = dh_robot(ffr, ffrb)
    with pytest.raises(ffexu.ExudynLayerError, match="does not support Robot.CreateKinematicTree: floatframe builds "
                                                     "robots in redundant coordinates.*kinematic trees: outside "
                                                     "floatframe's scope"):
        robot.CreateKinematicTree(ffexu.SystemContainer().AddSystem())
    with pytest.raises(ffexu.ExudynLayerError, match="GetKinematicTree66.*kinematic trees"):
        robot.GetKinematicTree66()
    with pytest.raises(ffexu.ExudynLayerError, match="does not support InverseKinematicsNumerical: it covers serial "
                                                     "robots in redundant coordinates"):
        ffr.InverseKinematicsNumerical(robot)
