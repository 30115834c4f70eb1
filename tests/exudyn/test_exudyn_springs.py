"""Exudyn-style scripts with the spring-dampers, the distance constraint and their user functions, run on
exudyn 1.13.6 and on floatframe.exudyn: every sensor agrees to 1e-6 of its scale (claims marked ``exudyn``).

Each builder takes (exu, ii, utilities): the main module, its itemInterface and its utilities (for the
inertia helpers of the Create functions), and returns (mbs, sensors, settings).
"""
import math

import numpy as np
import pytest

import exudyn_style_models as models
import floatframe as ff
import floatframe.exudyn as ffexu
from floatframe.exudyn import ExudynLayerError
from floatframe.exudyn import itemInterface as ffitems
from floatframe.exudyn import utilities as ffutilities

GRAVITY = [0.0, 0.0, -9.81]


def rotation_xyz(a0, a1, a2):
    """A_x(a0) A_y(a1) A_z(a2), written out (no package helper, the same on both sides)."""
    c, s = np.cos, np.sin
    x = np.array([[1, 0, 0], [0, c(a0), -s(a0)], [0, s(a0), c(a0)]])
    y = np.array([[c(a1), 0, s(a1)], [0, 1, 0], [-s(a1), 0, c(a1)]])
    z = np.array([[c(a2), -s(a2), 0], [s(a2), c(a2), 0], [0, 0, 1]])
    return x @ y @ z


def euler_parameters(matrix):
    """Unit quaternion (scalar first) of a rotation matrix with trace > -1."""
    w = 0.5 * math.sqrt(1.0 + np.trace(matrix))
    return [w, (matrix[2, 1] - matrix[1, 2]) / (4 * w), (matrix[0, 2] - matrix[2, 0]) / (4 * w),
            (matrix[1, 0] - matrix[0, 1]) / (4 * w)]


def euler_parameters_t(omega, theta):
    """theta_t = G(theta)^T omega / 4 for a global angular velocity."""
    e0, e1, e2, e3 = theta
    g = 2 * np.array([[-e1, e0, -e3, e2], [-e2, e3, e0, -e1], [-e3, -e2, e1, e0]])
    return list(g.T @ np.asarray(omega) / 4)


def rigid_body(mbs, ii, position, rotation, velocity, omega, mass=3.0, inertia=(0.4, 0.5, 0.6, 0.01, -0.02, 0.03)):
    theta = euler_parameters(rotation)
    node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[*position, *theta],
                                          initialVelocities=[*velocity, *euler_parameters_t(omega, theta)]))
    body = mbs.AddObject(ii.ObjectRigidBody(nodeNumber=node, mass=mass, inertia=list(inertia)))
    mbs.AddLoad(ii.LoadMassProportional(markerNumber=mbs.AddMarker(ii.MarkerBodyMass(bodyNumber=body)),
                                        loadVector=GRAVITY))
    return body


def sensors_of(mbs, ii, exu, number, variables, kind="SensorObject"):
    key = "objectNumber" if kind == "SensorObject" else "bodyNumber"
    return [mbs.AddSensor(getattr(ii, kind)(**{key: number}, storeInternal=True,
                                            outputVariableType=getattr(exu.OutputVariableType, variable)))
            for variable in variables]


def mass_on_springs(exu, ii, utilities, user_functions=None):
    """A point mass on an ObjectConnectorSpringDamper (force, velocity offset) and a CartesianSpringDamper
    to the ground, and a CoordinateSpringDamper on its z coordinate, under gravity."""
    user_functions = user_functions or {}
    mbs = exu.SystemContainer().AddSystem()
    node = mbs.AddNode(ii.NodePoint(referenceCoordinates=[0.4, 0.3, -0.2], initialVelocities=[0.5, -1.0, 0.8]))
    body = mbs.AddObject(ii.ObjectMassPoint(mass=1.5, nodeNumber=node))
    ground = mbs.AddObject(ii.ObjectGround())
    anchor = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, 0.2]))
    point = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=body, localPosition=[0, 0, 0]))
    spring = mbs.AddObject(ii.ObjectConnectorSpringDamper(
        markerNumbers=[anchor, point], referenceLength=0.4, stiffness=800.0, damping=3.0, force=5.0,
        velocityOffset=0.1, springForceUserFunction=user_functions.get("spring", 0)))
    other = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[1.0, 0.0, 0.0]))
    cartesian = mbs.AddObject(ii.ObjectConnectorCartesianSpringDamper(
        markerNumbers=[other, point], stiffness=[100.0, 200.0, 50.0], damping=[1.0, 0.5, 0.2], offset=[-0.5, 0.2, 0.0],
        springForceUserFunction=user_functions.get("cartesian", 0)))
    ground_node = mbs.AddNode(ii.NodePointGround(referenceCoordinates=[0, 0, 0]))
    coordinate = mbs.AddObject(ii.ObjectConnectorCoordinateSpringDamper(
        markerNumbers=[mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=ground_node, coordinate=2)),
                       mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=node, coordinate=2))],
        stiffness=300.0, damping=2.0, offset=0.05, springForceUserFunction=user_functions.get("coordinate", 0)))
    mbs.AddLoad(ii.LoadMassProportional(markerNumber=mbs.AddMarker(ii.MarkerBodyMass(bodyNumber=body)),
                                        loadVector=GRAVITY))
    sensors = (sensors_of(mbs, ii, exu, spring, ["Distance", "Displacement", "Velocity", "Force", "ForceLocal"])
               + sensors_of(mbs, ii, exu, cartesian, ["Force"]) + sensors_of(mbs, ii, exu, coordinate, ["Force"])
               + sensors_of(mbs, ii, exu, body, ["Position"], "SensorBody"))
    mbs.Assemble()
    return mbs, sensors, models.tight_settings(exu, 300, 1e-3)


def spring_force(mbs, t, itemNumber, deltaL, deltaL_t, stiffness, damping, force):
    return stiffness * deltaL + 2e3 * deltaL ** 3 + damping * deltaL_t + force * np.cos(3 * t)


def cartesian_force(mbs, t, itemNumber, displacement, velocity, stiffness, damping, offset):
    return [stiffness[i] * displacement[i] + damping[i] * velocity[i] + (20.0 * displacement[0] ** 2 if i == 0 else 0)
            for i in range(3)]


def coordinate_force(mbs, t, itemNumber, displacement, velocity, stiffness, damping, offset):
    """Not traceable: a branch on the value (the core calls it numerically)."""
    k = stiffness if displacement - offset > 0 else 0.5 * stiffness
    return k * (displacement - offset) + damping * velocity


def mass_on_springs_with_user_functions(exu, ii, utilities):
    return mass_on_springs(exu, ii, utilities, dict(spring=spring_force, cartesian=cartesian_force,
                                                    coordinate=coordinate_force))


def pendulum_on_a_string(exu, ii, utilities):
    """A point mass on an ObjectConnectorDistance (length 0.8 m) swinging in 3D under gravity."""
    mbs = exu.SystemContainer().AddSystem()
    node = mbs.AddNode(ii.NodePoint(referenceCoordinates=[0.8 * math.sin(0.7), 0.0, -0.8 * math.cos(0.7)],
                                    initialVelocities=[0.0, 1.2, 0.0]))
    body = mbs.AddObject(ii.ObjectMassPoint(mass=2.0, nodeNumber=node))
    ground = mbs.AddObject(ii.ObjectGround())
    string = mbs.AddObject(ii.ObjectConnectorDistance(
        markerNumbers=[mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, 0])),
                       mbs.AddMarker(ii.MarkerNodePosition(nodeNumber=node))], distance=0.8))
    mbs.AddLoad(ii.LoadMassProportional(markerNumber=mbs.AddMarker(ii.MarkerBodyMass(bodyNumber=body)),
                                        loadVector=GRAVITY))
    sensors = (sensors_of(mbs, ii, exu, string, ["Force", "Distance", "Displacement", "Velocity"])
               + sensors_of(mbs, ii, exu, body, ["Position", "Velocity"], "SensorBody"))
    mbs.Assemble()
    return mbs, sensors, models.tight_settings(exu, 400, 1e-3)


COUPLED = np.diag([4e4, 5e4, 6e4, 2e2, 3e2, 4e2])
COUPLED[0, 5] = COUPLED[5, 0] = 1e3
COUPLED[1, 3] = COUPLED[3, 1] = -8e2


def rigid_spring_model(exu, ii, utilities, torque_function=0, torsional_function=0, intrinsic=False):
    """Two rigid bodies: body 0 on an ObjectConnectorRigidBodySpringDamper to the ground (coupled 6x6 stiffness,
    damping, offset, rotated joint frames), body 1 on a TorsionalSpringDamper and a soft RigidBodySpringDamper
    to body 0; under gravity, moving and turning."""
    mbs = exu.SystemContainer().AddSystem()
    body0 = rigid_body(mbs, ii, [0.2, 0.1, 0.0], rotation_xyz(0.1, -0.2, 0.3), [0.1, 0.2, -0.1], [0.5, -0.3, 1.0])
    body1 = rigid_body(mbs, ii, [0.6, 0.1, 0.1], rotation_xyz(-0.2, 0.1, 0.4), [0.0, -0.2, 0.3], [0.2, 0.4, 3.0],
                       mass=1.0, inertia=(0.05, 0.06, 0.07, 0.0, 0.0, 0.0))
    ground = mbs.AddObject(ii.ObjectGround())
    base = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=ground, localPosition=[0.2, 0.1, 0.0]))
    hub = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body0, localPosition=[0.0, 0.0, 0.0]))
    rigid = mbs.AddObject(ii.ObjectConnectorRigidBodySpringDamper(
        markerNumbers=[base, hub], stiffness=COUPLED, damping=0.01 * COUPLED,
        rotationMarker0=rotation_xyz(0.3, 0.2, -0.1),
        rotationMarker1=rotation_xyz(0.1, -0.2, 0.3).T @ rotation_xyz(0.3, 0.25, -0.1),
        offset=[0.001, 0.0, -0.002, 0.01, 0.0, 0.02], springForceTorqueUserFunction=torque_function,
        useIntrinsicFormulation=intrinsic))
    arm0 = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body0, localPosition=[0.2, 0.0, 0.05]))
    arm1 = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body1, localPosition=[-0.2, 0.0, 0.05]))
    joint_frame = rotation_xyz(0.0, 0.3, 0.1)
    torsional = mbs.AddObject(ii.ObjectConnectorTorsionalSpringDamper(
        markerNumbers=[arm0, arm1], stiffness=4.0, damping=0.05, offset=0.2, velocityOffset=0.5, torque=0.1,
        rotationMarker0=rotation_xyz(0.1, -0.2, 0.3).T @ joint_frame,
        rotationMarker1=rotation_xyz(-0.2, 0.1, 0.4).T @ joint_frame, springTorqueUserFunction=torsional_function))
    mbs.AddObject(ii.ObjectConnectorRigidBodySpringDamper(
        markerNumbers=[arm0, arm1], stiffness=np.diag([2e3, 2e3, 2e3, 50.0, 50.0, 0.0]),
        damping=np.diag([5.0, 5.0, 5.0, 0.1, 0.1, 0.0]),
        rotationMarker1=rotation_xyz(-0.2, 0.1, 0.4).T @ rotation_xyz(0.1, -0.2, 0.3),
        useIntrinsicFormulation=intrinsic))
    sensors = (sensors_of(mbs, ii, exu, rigid, ["DisplacementLocal", "VelocityLocal", "Rotation",
                                                "AngularVelocityLocal", "ForceLocal", "TorqueLocal"])
               + sensors_of(mbs, ii, exu, torsional, ["Rotation", "AngularVelocityLocal", "TorqueLocal"])
               + sensors_of(mbs, ii, exu, body1, ["Position", "AngularVelocity"], "SensorBody"))
    mbs.Assemble()
    return mbs, sensors, models.tight_settings(exu, 300, 1e-3)


def rigid_force_torque(mbs, t, itemNumber, displacement, rotation, velocity, angularVelocity, stiffness, damping,
                       rotJ0, rotJ1, offset):
    u = list(displacement) + list(rotation)
    v = list(velocity) + list(angularVelocity)
    return [sum(stiffness[i][j] * (u[j] - offset[j]) + damping[i][j] * v[j] for j in range(6))
            + (1e4 * u[i] ** 3 if i < 3 else 0.0) for i in range(6)]


def torsional_torque(mbs, t, itemNumber, rotation, angularVelocity, stiffness, damping, offset):
    return stiffness * (rotation - offset) + 0.5 * stiffness * rotation ** 3 + damping * angularVelocity


def rigid_spring_model_with_user_functions(exu, ii, utilities):
    return rigid_spring_model(exu, ii, utilities, rigid_force_torque, torsional_torque)


def rigid_spring_model_intrinsic(exu, ii, utilities):
    """The same with useIntrinsicFormulation=True: SE(3) logarithm and mid frame."""
    return rigid_spring_model(exu, ii, utilities, intrinsic=True)


def created_connectors(exu, ii, utilities):
    """The Create functions: CreateSpringDamper, CreateCartesianSpringDamper, CreateRigidBodySpringDamper,
    CreateTorsionalSpringDamper and CreateDistanceConstraint between rigid bodies made by CreateRigidBody."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.CreateGround(referencePosition=[0, 0, 0])
    inertia = utilities.InertiaCuboid(density=1000.0, sideLengths=[0.2, 0.1, 0.05])
    first = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0.5, 0.0, 0.0],
                                referenceRotationMatrix=rotation_xyz(0.1, 0.2, 0.3), initialVelocity=[0.0, 0.3, 0.1],
                                initialAngularVelocity=[0.2, -0.1, 0.3], gravity=GRAVITY)
    second = mbs.CreateRigidBody(inertia=inertia, referencePosition=[1.0, 0.1, -0.1],
                                 referenceRotationMatrix=rotation_xyz(-0.2, 0.0, 0.5), initialVelocity=[0.1, 0.0, 0.0],
                                 initialAngularVelocity=[0.0, 0.1, -0.3], gravity=GRAVITY)
    # the Cartesian spring's points in the reference configuration: x1 - x0 there is its offset
    reference_offset = (np.array([1.0, 0.1, -0.1]) - rotation_xyz(-0.2, 0.0, 0.5) @ [0.1, 0, 0]
                        - np.array([0.5, 0.0, 0.0]) - rotation_xyz(0.1, 0.2, 0.3) @ [0.1, 0, 0])
    spring = mbs.CreateSpringDamper(itemNumbers=[ground, first], localPosition0=[0.0, 0.0, 0.5],
                                    localPosition1=[0.1, 0.0, 0.0], stiffness=2e3, damping=5.0)
    cartesian = mbs.CreateCartesianSpringDamper(itemNumbers=[first, second], localPosition0=[0.1, 0.0, 0.0],
                                                localPosition1=[-0.1, 0.0, 0.0], stiffness=[500.0, 600.0, 700.0],
                                                damping=[1.0, 1.0, 1.0], offset=list(reference_offset))
    rigid = mbs.CreateRigidBodySpringDamper(itemNumbers=[ground, first], localPosition0=[0.5, 0.0, 0.0],
                                            stiffness=np.diag([1e3, 1e3, 1e3, 20.0, 20.0, 20.0]),
                                            damping=np.diag([2.0, 2.0, 2.0, 0.05, 0.05, 0.05]),
                                            rotationMatrixJoint=rotation_xyz(0.0, 0.4, 0.2))
    torsional = mbs.CreateTorsionalSpringDamper(itemNumbers=[first, second], position=[0.75, 0.05, -0.05],
                                                axis=[0.2, 0.3, 1.0], stiffness=5.0, damping=0.02,
                                                unlimitedRotations=False)
    local = mbs.CreateTorsionalSpringDamper(itemNumbers=[ground, second], position=[1.0, 0.1, -0.1],
                                            axis=[1.0, 0.0, 0.2], stiffness=30.0, useGlobalFrame=False)
    distance = mbs.CreateDistanceConstraint(itemNumbers=[ground, second], localPosition0=[1.0, 0.1, 0.6],
                                            localPosition1=[0.1, 0.0, 0.0])
    sensors = (sensors_of(mbs, ii, exu, spring, ["Force"]) + sensors_of(mbs, ii, exu, cartesian, ["Force"])
               + sensors_of(mbs, ii, exu, rigid, ["Rotation", "TorqueLocal"])
               + sensors_of(mbs, ii, exu, torsional, ["Rotation", "TorqueLocal"])
               + sensors_of(mbs, ii, exu, local, ["Rotation"]) + sensors_of(mbs, ii, exu, distance, ["Force"])
               + sensors_of(mbs, ii, exu, second, ["Position"], "SensorBody"))
    mbs.Assemble()
    return mbs, sensors, models.tight_settings(exu, 300, 1e-3)


def spinning_on_a_torsional_spring(exu, ii, utilities):
    """A rigid body turning 4.6 rad (beyond pi) on an ObjectConnectorTorsionalSpringDamper with a NodeGenericData
    that counts the turns (and a second spring without one, whose angle jumps at pi)."""
    mbs = exu.SystemContainer().AddSystem()
    theta = [1.0, 0.0, 0.0, 0.0]
    node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0, *theta],
                                          initialVelocities=[0, 0, 0, *euler_parameters_t([0.0, 0.0, 6.0], theta)]))
    body = mbs.AddObject(ii.ObjectRigidBody(nodeNumber=node, mass=1.0, inertia=[0.4, 0.5, 0.6, 0, 0, 0]))
    ground = mbs.AddObject(ii.ObjectGround())
    markers = [mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=item, localPosition=[0, 0, 0])) for item in (ground, body)]
    turns = mbs.AddNode(ii.NodeGenericData(initialCoordinates=[0.0], numberOfDataCoordinates=1))
    spring = mbs.AddObject(ii.ObjectConnectorTorsionalSpringDamper(markerNumbers=markers, nodeNumber=turns,
                                                                   stiffness=0.6, damping=0.01, torque=0.05))
    plain = mbs.AddObject(ii.ObjectConnectorTorsionalSpringDamper(markerNumbers=markers, stiffness=0.4))
    sensors = (sensors_of(mbs, ii, exu, spring, ["Rotation", "TorqueLocal"])
               + sensors_of(mbs, ii, exu, plain, ["Rotation"])
               + [mbs.AddSensor(ii.SensorNode(nodeNumber=turns, storeInternal=True,
                                              outputVariableType=exu.OutputVariableType.Coordinates))]
               + sensors_of(mbs, ii, exu, body, ["AngularVelocity"], "SensorBody"))
    mbs.Assemble()
    return mbs, sensors, models.tight_settings(exu, 2000, 2e-3)


def switched_off_spring(exu, ii, utilities):
    """activeConnector: a SpringDamper switched off by a pre-step function after t = 0.1 s, and a
    TorsionalSpringDamper added inactive."""
    mbs, sensors, settings = rigid_spring_model(exu, ii, utilities)
    spring = mbs.AddObject(ii.ObjectConnectorSpringDamper(markerNumbers=[2, 5], stiffness=5e3, damping=10.0,
                                                          referenceLength=0.1))
    mbs.AddObject(ii.ObjectConnectorTorsionalSpringDamper(markerNumbers=[2, 5], stiffness=50.0,
                                                          activeConnector=False))
    # (no sensor of the spring's own Force: floatframe evaluates the stored sensors after the solve, with the
    # parameter values at its end; the motion of the bodies shows the switch)

    def pre_step(mbs, t):
        if t > 0.1005:                                             # in the middle of a step: no doubt which one
            mbs.SetObjectParameter(spring, "activeConnector", False)
        return True
    mbs.SetPreStepUserFunction(pre_step)
    mbs.Assemble()
    return mbs, sensors, settings


def run(builder, exu, ii, utilities):
    mbs, sensors, settings = builder(exu, ii, utilities)
    exu.SolveDynamic(mbs, settings)
    return [mbs.GetSensorStoredData(s) for s in sensors], mbs


def exudyn_run(builder):
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    import exudyn.utilities as utilities
    return run(builder, exu, items, utilities)


def rigid_pendulum_on_a_string(exu, ii, utilities):
    """A rigid body hanging on an ObjectConnectorDistance from a point 0.3 m off its centre, turning."""
    mbs = exu.SystemContainer().AddSystem()
    body = rigid_body(mbs, ii, [0.3, 0.0, -0.6], rotation_xyz(0.2, 0.1, 0.0), [0.0, 0.8, 0.0], [0.5, 0.0, 2.0])
    ground = mbs.AddObject(ii.ObjectGround())
    string = mbs.AddObject(ii.ObjectConnectorDistance(
        markerNumbers=[mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, 0])),
                       mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=body, localPosition=[0.0, 0.0, 0.3]))],
        distance=float(np.linalg.norm(np.array([0.3, 0.0, -0.6]) + rotation_xyz(0.2, 0.1, 0.0) @ [0.0, 0.0, 0.3]))))
    sensors = (sensors_of(mbs, ii, exu, string, ["Force", "Distance"])
               + sensors_of(mbs, ii, exu, body, ["Position", "AngularVelocity"], "SensorBody"))
    mbs.Assemble()
    return mbs, sensors, models.tight_settings(exu, 200, 1e-3)


@pytest.mark.exudyn
def test_a_distance_constraint_on_a_rigid_body_matches_exudyn_at_index_2():
    """TrapezoidalIndex2: Exudyn's velocity-level equation v_f . (v1 - v0) = 0 with the omega-form point velocity."""
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    import exudyn.utilities as utilities
    results = []
    for package, ii, tools in ((exu, items, utilities), (ffexu, ffitems, ffutilities)):
        mbs, sensors, settings = rigid_pendulum_on_a_string(package, ii, tools)
        package.SolveDynamic(mbs, settings, solverType=package.DynamicSolverType.TrapezoidalIndex2)
        results.append([mbs.GetSensorStoredData(s) for s in sensors])
    for number, (exudyn_data, floatframe_data) in enumerate(zip(*results)):
        scale = np.abs(exudyn_data[:, 1:]).max()
        np.testing.assert_allclose(floatframe_data[:, 1:], exudyn_data[:, 1:], atol=1e-6 * scale, rtol=0,
                                   err_msg=f"sensor {number}")


BUILDERS = [mass_on_springs, mass_on_springs_with_user_functions, pendulum_on_a_string, rigid_pendulum_on_a_string,
            rigid_spring_model, rigid_spring_model_with_user_functions, rigid_spring_model_intrinsic,
            created_connectors, spinning_on_a_torsional_spring, switched_off_spring]


@pytest.mark.exudyn
@pytest.mark.parametrize("builder", BUILDERS, ids=[b.__name__ for b in BUILDERS])
def test_spring_models_match_exudyn(builder):
    reference, _ = exudyn_run(builder)
    ours, _ = run(builder, ffexu, ffitems, ffutilities)
    for number, (exudyn_data, floatframe_data) in enumerate(zip(reference, ours)):
        assert floatframe_data.shape == exudyn_data.shape, number
        scale = np.abs(exudyn_data[:, 1:]).max()
        np.testing.assert_allclose(floatframe_data[:, 0], exudyn_data[:, 0], atol=1e-12)
        np.testing.assert_allclose(floatframe_data[:, 1:], exudyn_data[:, 1:], atol=1e-6 * scale, rtol=0,
                                   err_msg=f"sensor {number}")


def test_the_user_functions_are_traced_where_they_can_be_and_called_where_not():
    _, mbs = run(mass_on_springs_with_user_functions, ffexu, ffitems, ffutilities)
    callbacks = {callback.name() for _, callback, _ in mbs.GetAssembledSystem().context.externals}
    assert callbacks == {"CoordinateSpringDamper4_force"}              # the branching coordinate force only


def test_what_the_layer_cannot_translate_is_refused_naming_the_item_and_the_parameter():
    mbs = ffexu.SystemContainer().AddSystem()
    ground = mbs.AddObject(ffitems.ObjectGround())
    markers = [mbs.AddMarker(ffitems.MarkerBodyRigid(bodyNumber=ground)) for _ in range(2)]
    mbs.AddObject(ffitems.ObjectConnectorRigidBodySpringDamper(markerNumbers=markers,
                                                               postNewtonStepUserFunction=lambda *args: [0, 0]))
    with pytest.raises(ExudynLayerError, match="ObjectConnectorRigidBodySpringDamper 1 'object1': parameter "
                                               "'postNewtonStepUserFunction' = .* is not supported"):
        mbs.Assemble()
    mbs = ffexu.SystemContainer().AddSystem()
    ground = mbs.AddObject(ffitems.ObjectGround())
    mbs.AddNode(ffitems.NodeGenericData(initialCoordinates=[0.0, 0.0, 0.0], numberOfDataCoordinates=2))
    with pytest.raises(ExudynLayerError, match=r"NodeGenericData 0 'node0': parameter 'initialCoordinates' = .* has "
                                               r"3 values; numberOfDataCoordinates = 2 asks for that many"):
        mbs.Assemble()


def test_the_create_functions_refuse_what_is_not_a_body_of_theirs():
    mbs = ffexu.SystemContainer().AddSystem()
    ground = mbs.CreateGround()
    with pytest.raises(ExudynLayerError, match=r"CreateSpringDamper: itemNumbers\[1\] must be a body number "
                                               r"\(ObjectIndex\), got 1.5"):
        mbs.CreateSpringDamper(itemNumbers=[ground, 1.5])
    with pytest.raises(ExudynLayerError, match="CreateDistanceConstraint: itemNumbers must be a list of two body "
                                               "numbers"):
        mbs.CreateDistanceConstraint(itemNumbers=[ground])
    with pytest.raises(ExudynLayerError, match="CreateTorsionalSpringDamper: axis must be a non-zero vector"):
        mbs.CreateTorsionalSpringDamper(itemNumbers=[ground, ground])
    with pytest.raises(ExudynLayerError, match="bodyOrNodeList is not accepted"):
        mbs.CreateCartesianSpringDamper(bodyOrNodeList=[ground, ground])


def test_a_non_symmetric_stiffness_is_refused_at_assembly():
    mbs = ffexu.SystemContainer().AddSystem()
    ground = mbs.AddObject(ffitems.ObjectGround())
    markers = [mbs.AddMarker(ffitems.MarkerBodyRigid(bodyNumber=ground)) for _ in range(2)]
    stiffness = np.eye(6)
    stiffness[0, 1] = 0.5
    mbs.AddObject(ffitems.RigidBodySpringDamper(markerNumbers=markers, stiffness=stiffness))
    with pytest.raises(ff.ModelError, match=r"RigidBodySpringDamper 'object1': stiffness must be symmetric: "
                                            r"entry \[0, 1\] = 0.5 but \[1, 0\] = 0"):
        mbs.Assemble()


def test_negative_cartesian_and_coordinate_springs_are_accepted_as_exudyn_accepts_them():
    """Exudyn 1.13.6 range-checks the stiffness of ObjectConnectorSpringDamper but not of the Cartesian and the
    coordinate spring-dampers; the layer passes them on with allow_negative=True (the core refuses them by
    default), and keeps refusing a negative SpringDamper as Exudyn does."""
    mbs = ffexu.SystemContainer().AddSystem()
    ground = mbs.AddObject(ffitems.ObjectGround())
    point = mbs.CreateMassPoint(mass=1.0, referencePosition=[1.0, 0.0, 0.0])
    markers = [mbs.AddMarker(ffitems.MarkerBodyPosition(bodyNumber=body)) for body in (ground, point)]
    coordinates = [mbs.AddMarker(ffitems.MarkerNodeCoordinate(nodeNumber=0, coordinate=k)) for k in (0, 1)]
    cartesian = mbs.AddObject(ffitems.CartesianSpringDamper(markerNumbers=markers, stiffness=[-5.0, 10.0, 10.0],
                                                            damping=[0.0, -0.1, 0.0]))
    coordinate = mbs.AddObject(ffitems.CoordinateSpringDamper(markerNumbers=coordinates, stiffness=-2.0))
    mbs.Assemble()
    core = mbs.GetFloatframeSystem()
    assert core.objects[cartesian].stiffness.value.tolist() == [-5.0, 10.0, 10.0]   # live parameters: Parameters
    assert core.objects[cartesian].damping.value.tolist() == [0.0, -0.1, 0.0]
    assert core.objects[coordinate].stiffness.value.tolist() == [-2.0]
    mbs.AddObject(ffitems.SpringDamper(markerNumbers=markers, stiffness=-1.0))
    with pytest.raises(ff.ModelError, match=r"SpringDamper 'object4': stiffness must be >= 0, got \[-1.0\]$"):
        mbs.Assemble()


def torsional_spring_on_a_drifting_body(exu, ii, utilities):
    """A body on a generic joint free about z (Euler parameters), spun at 6 rad/s against a TorsionalSpringDamper
    with damping; TrapezoidalIndex2, where the Euler-parameter norm drifts: its torque and angle sensors."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.AddObject(ii.ObjectGround())
    body = mbs.CreateRigidBody(inertia=utilities.InertiaCuboid(1000.0, [0.3, 0.2, 0.1]), referencePosition=[0, 0, 0],
                               referenceRotationMatrix=utilities.RotationMatrixX(0.3),
                               initialAngularVelocity=list(utilities.RotationMatrixX(0.3) @ [0, 0, 6.0]))
    markers = [mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=ground, localPosition=[0, 0, 0])),
               mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body, localPosition=[0, 0, 0]))]
    rotation = utilities.RotationMatrixX(0.3)
    mbs.AddObject(ii.ObjectJointGeneric(markerNumbers=markers, constrainedAxes=[1, 1, 1, 1, 1, 0],
                                        rotationMarker0=rotation))
    spring = mbs.AddObject(ii.ObjectConnectorTorsionalSpringDamper(markerNumbers=markers, stiffness=2.0, damping=0.4,
                                                                   rotationMarker0=rotation))
    sensors = [mbs.AddSensor(ii.SensorObject(objectNumber=spring, storeInternal=True,
                                             outputVariableType=getattr(exu.OutputVariableType, variable)))
               for variable in ("TorqueLocal", "Rotation", "AngularVelocityLocal")]
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps, settings.timeIntegration.endTime = 400, 2.0
    settings.timeIntegration.newton.relativeTolerance = 1e-12
    settings.timeIntegration.verboseMode = 0
    settings.solution.file.write = False
    mbs.SolveDynamic(settings, solverType=exu.DynamicSolverType.TrapezoidalIndex2)
    return [mbs.GetSensorStoredData(sensor) for sensor in sensors]


@pytest.mark.exudyn
def test_a_torsional_spring_at_index_2_takes_exudyns_angular_velocity():
    """Where the norm drifts the spring's relative rate is Exudyn's e_z . J0^T (A_E1 omega_b1 - A_E0 omega_b0) (the
    layer's nodes are in Exudyn's unit form): torque, angle and rate as exudyn's to 1e-9 of their scale (measured
    4.7e-14; with floatframe's G theta_t form 7.3e-7)."""
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as ii
    import exudyn.utilities as utilities
    import floatframe.exudyn as ffexu
    import floatframe.exudyn.itemInterface as ffii
    import floatframe.exudyn.utilities as ffutilities
    reference = torsional_spring_on_a_drifting_body(exu, ii, utilities)
    ours = torsional_spring_on_a_drifting_body(ffexu, ffii, ffutilities)
    for theirs, mine in zip(reference, ours):
        scale = np.abs(theirs[:, 1:]).max()
        assert scale > 0.1
        np.testing.assert_allclose(mine, theirs, rtol=0, atol=1e-9 * scale)
