"""Exudyn's MarkerBodiesRelativeRotationCoordinate and MarkerBodiesRelativeTranslationCoordinate
(floatframe.components.relative_markers, floatframe.exudyn._items_relative): values, sensors over runs of more than
a turn and the forces of the ObjectConnectorCoordinate that drives them, against exudyn 1.13.6; the markers'
Jacobians against finite differences of their values; the refusals."""
import casadi as ca
import numpy as np
import pytest

import floatframe.components as fc
import floatframe.exudyn as ffexu
import floatframe.exudyn.itemInterface as ffitems
import floatframe.exudyn.utilities as ffutilities
from floatframe import rotations
from floatframe.assembly import System
from floatframe.components.relative_markers import (MarkerBodiesRelativeRotationCoordinate,
                                                    MarkerBodiesRelativeTranslationCoordinate)
from floatframe.errors import ModelError
from floatframe.exudyn import ExudynLayerError


def _settings(exu, steps, end_time):
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = steps
    settings.timeIntegration.endTime = end_time
    settings.timeIntegration.verboseMode = 0
    settings.timeIntegration.newton.relativeTolerance = 1e-12
    settings.solution.file.write = False
    return settings


def hinged_pair(exu, ii, utilities):
    """Two bodies on revolute joints to the ground (about z, and about a tilted axis with the body turned about z,
    so its rotation relative to the ground is not about the axis alone), under gravity. Body 0's angle (a
    MarkerBodiesRelativeRotationCoordinate with a NodeGenericData counting turns) is driven to 4 t^2 (16 rad at
    t = 2 s) by an ObjectConnectorCoordinate with an offset user function; body 1's angle is half of it (factor1 =
    2). The offsets are set to the start angles after a first Assemble. Returns (mbs, the start angles, the
    sensors: Coordinates and Coordinates_t of both markers, the connectors' Force)."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.AddObject(ii.ObjectGround())
    inertia = utilities.InertiaCuboid(1000, [0.4, 0.1, 0.1])
    markers, sensors = [], []
    for i, axis in enumerate([np.array([0, 0, 1.0]), np.array([0.0, 0.6, 0.8])]):
        body = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0.2, 0, 0.5 * i],
                                   referenceRotationMatrix=utilities.RotationMatrixZ(0.3 * i), gravity=[0, -9.81, 0])
        joint = mbs.CreateRevoluteJoint(itemNumbers=[ground, body], position=[0, 0, 0.5 * i], axis=axis,
                                        useGlobalFrame=True)
        positions = [mbs.GetMarker(m)["localPosition"] for m in mbs.GetObject(joint)["markerNumbers"]]
        node = mbs.AddNode(ii.NodeGenericData(initialCoordinates=[0], numberOfDataCoordinates=1))
        marker = mbs.AddMarker(ii.MarkerBodiesRelativeRotationCoordinate(
            bodyNumbers=[ground, body], nodeNumber=node, localPosition0=positions[0], localPosition1=positions[1],
            axis0=axis))
        markers.append(marker)
        sensors += [mbs.AddSensor(ii.SensorMarker(markerNumber=marker, storeInternal=True, outputVariableType=variable))
                    for variable in (exu.OutputVariableType.Coordinates, exu.OutputVariableType.Coordinates_t)]
    mbs.Assemble()
    start = [float(mbs.GetMarkerOutput(m, exu.OutputVariableType.Coordinates)[0]) for m in markers]
    for marker, value in zip(markers, start):
        mbs.SetMarkerParameter(marker, "offset", value)
    fixed = mbs.AddNode(ii.NodePointGround())
    zero = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=fixed, coordinate=0))
    drive = mbs.AddObject(ii.ObjectConnectorCoordinate(
        markerNumbers=[zero, markers[0]], offsetUserFunction=lambda mbs, t, number, offset: 4.0 * t * t))
    coupling = mbs.AddObject(ii.ObjectConnectorCoordinate(markerNumbers=[markers[0], markers[1]], factor1=2.0))
    sensors += [mbs.AddSensor(ii.SensorObject(objectNumber=number, storeInternal=True,
                                              outputVariableType=exu.OutputVariableType.Force))
                for number in (drive, coupling)]
    mbs.Assemble()
    settings = _settings(exu, 400, 2.0)
    settings.timeIntegration.generalizedAlpha.spectralRadius = 0.8
    mbs.SolveDynamic(settings)
    return mbs, start, [mbs.GetSensorStoredData(s) for s in sensors]


def turning_slider(exu, ii, utilities, solver_type="GeneralizedAlpha"):
    """An arm hinged to the ground about z, its angle driven to 0.8 t^2 (a MarkerBodiesRelativeRotationCoordinate
    without data node), and a slider on a prismatic joint along the arm's x axis whose
    MarkerBodiesRelativeTranslationCoordinate (the arm's point at the hinge, the slider's 0.2 m off the axis, so
    that Exudyn's Jacobian, which holds the axis, is not the derivative of the value) is driven to 0.3 sin(2 t),
    under gravity; solved by ``solver_type``. Returns (mbs, the start values, the sensors: Coordinates and
    Coordinates_t of both markers, the connectors' Force)."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.AddObject(ii.ObjectGround())
    arm = mbs.CreateRigidBody(inertia=utilities.InertiaCuboid(1000, [0.6, 0.05, 0.05]), referencePosition=[0.3, 0, 0],
                              gravity=[0, 0, -9.81])
    slider = mbs.CreateRigidBody(inertia=utilities.InertiaCuboid(2000, [0.1, 0.1, 0.1]),
                                 referencePosition=[0.5, 0, 0.1], gravity=[0, 0, -9.81])
    mbs.CreateRevoluteJoint(itemNumbers=[ground, arm], position=[0, 0, 0], axis=[0, 0, 1])
    mbs.CreatePrismaticJoint(itemNumbers=[arm, slider], position=[0.5, 0, 0.1], axis=[1, 0, 0])
    angle = mbs.AddMarker(ii.MarkerBodiesRelativeRotationCoordinate(bodyNumbers=[ground, arm],
                                                                    localPosition1=[-0.3, 0, 0], axis0=[0, 0, 1]))
    shift = mbs.AddMarker(ii.MarkerBodiesRelativeTranslationCoordinate(
        bodyNumbers=[arm, slider], localPosition0=[-0.3, 0, 0], localPosition1=[0, 0.2, 0], axis0=[1, 0, 0]))
    markers = [angle, shift]
    sensors = [mbs.AddSensor(ii.SensorMarker(markerNumber=marker, storeInternal=True, outputVariableType=variable))
               for marker in markers
               for variable in (exu.OutputVariableType.Coordinates, exu.OutputVariableType.Coordinates_t)]
    mbs.Assemble()
    start = [float(mbs.GetMarkerOutput(m, exu.OutputVariableType.Coordinates)[0]) for m in markers]
    mbs.SetMarkerParameter(shift, "offset", start[1])
    fixed = mbs.AddNode(ii.NodePointGround())
    zero = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=fixed, coordinate=0))
    drives = [mbs.AddObject(ii.ObjectConnectorCoordinate(
                  markerNumbers=[zero, angle], offsetUserFunction=lambda mbs, t, number, offset: 0.8 * t * t)),
              mbs.AddObject(ii.ObjectConnectorCoordinate(
                  markerNumbers=[zero, shift], offsetUserFunction=lambda mbs, t, number, offset: 0.3 * np.sin(2 * t)))]
    sensors += [mbs.AddSensor(ii.SensorObject(objectNumber=number, storeInternal=True,
                                              outputVariableType=exu.OutputVariableType.Force)) for number in drives]
    mbs.Assemble()
    mbs.SolveDynamic(_settings(exu, 300, 1.5), solverType=getattr(exu.DynamicSolverType, solver_type))
    return mbs, start, [mbs.GetSensorStoredData(s) for s in sensors]


def both(model):
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as ii
    import exudyn.utilities as utilities
    return model(exu, ii, utilities), model(ffexu, ffitems, ffutilities)


@pytest.mark.exudyn
def test_relative_rotation_over_turns_and_the_connectors_forces_are_exudyns():
    exudyn = pytest.importorskip("exudyn")
    (reference_mbs, reference_start, reference), (mbs, start, ours) = both(hinged_pair)
    np.testing.assert_allclose(start, reference_start, rtol=0, atol=1e-12)
    assert reference_start[1] > 0.2                      # body 1's start rotation is not about its axis alone
    angle0, angle1 = reference[0][:, 1], reference[2][:, 1]
    assert angle0[-1] > 15 and angle1[-1] > 7.5          # over turns, continuous
    for sensor, sensor_ours in zip(reference, ours):     # angles, rates, the two connectors' forces
        assert sensor_ours.shape == sensor.shape
        np.testing.assert_allclose(sensor_ours, sensor, rtol=0, atol=1e-8 * np.abs(sensor[:, 1]).max())
    assert np.abs(reference[4][:, 1]).max() > 10         # the drive's force is not small
    coordinates = reference_mbs.systemData.GetODE2Coordinates()
    assert mbs.systemData.GetODE2Coordinates().size == coordinates.size == 14   # the data nodes are no ODE2 ones
    np.testing.assert_allclose(mbs.systemData.GetODE2Coordinates(), coordinates, rtol=0, atol=1e-8)
    turn_nodes = [1, 3]                                  # the data nodes hold the continuous angles, as exudyn's
    assert [mbs.GetNode(n)["nodeType"] for n in turn_nodes] == ["GenericData"] * 2
    for node in turn_nodes:
        np.testing.assert_allclose(mbs.GetNodeOutput(node, ffexu.OutputVariableType.Coordinates),
                                   reference_mbs.GetNodeOutput(node, exudyn.OutputVariableType.Coordinates), atol=1e-8)


@pytest.mark.exudyn
def test_relative_translation_with_exudyns_jacobian_and_forces():
    """The arm's drive force depends on the slider's reactions through the translation marker's Jacobian: with the
    derivative of the value instead (the turning axis not held) it differs from exudyn's by about 1500 N."""
    (_, reference_start, reference), (_, start, ours) = both(turning_slider)
    np.testing.assert_allclose(start, reference_start, rtol=0, atol=1e-12)
    for sensor, sensor_ours in zip(reference, ours):
        np.testing.assert_allclose(sensor_ours, sensor, rtol=0, atol=1e-8 * np.abs(sensor[:, 1]).max())
    assert np.abs(reference[4][:, 1]).max() > 1000


def test_at_index_2_the_relative_markers_reactions_are_still_their_jacobians():
    """Where joints declare index-2 rows of their own (the layer's GenericJoints, Exudyn's form), the index-2
    residual keeps the drives' reactions through the markers' Jacobians: on unit-norm Euler parameters the index-2
    and index-3 residuals are equal for any multipliers (the two forms agree there); the derivative of the
    constraint in their place differs by the reactions' share of the turning axis."""
    mbs = turning_slider(ffexu, ffitems, ffutilities)[0]
    assembled = mbs._assembled
    assert assembled.has_index2_form
    n, m = assembled.n_coordinates, assembled.n_multipliers
    rng = np.random.default_rng(3)
    q, v = assembled.q_initial, rng.normal(size=n) * 0.1
    a, lam = rng.normal(size=n), rng.normal(size=m) * 100
    index3, index2 = (assembled.residual(0.2, q, v, a, lam, index=index) for index in (3, 2))
    np.testing.assert_allclose(index2, index3, rtol=0, atol=1e-10 * np.abs(index3).max())


# --- the core: Jacobians against finite differences -----------------------------------------------------------------
def two_free_bodies():
    """Two free rigid bodies at general positions and rotations; frame markers of their own at a point of each."""
    system = System()
    thetas = [rotations.euler_parameters_from_rot_xyz([0.3, -0.5, 0.9]),
              rotations.euler_parameters_from_rot_xyz([-0.2, 0.4, 2.5])]
    bodies = []
    for position, theta in zip(([0.1, 0.2, 0.3], [0.7, -0.4, 0.5]), thetas):
        node = system.add(fc.NodeRigidBodyEP([*position, *theta]))
        bodies.append(system.add(fc.ObjectRigidBody(node, 1.0, [1, 1, 1, 0, 0, 0])))
    frames = [fc.MarkerBodyRigid(bodies[0], [0.2, -0.1, 0.05]), fc.MarkerBodyRigid(bodies[1], [-0.3, 0.1, 0.2])]
    return system, frames, thetas


def state_with(thetas, omegas, velocities):
    """(q = 0, v) with the Euler-parameter rates of the global angular velocities ``omegas``."""
    v = np.concatenate([np.concatenate([velocity, rotations.euler_parameters_t(omega, theta)])
                        for theta, omega, velocity in zip(thetas, omegas, velocities)])
    return np.zeros(14), v


def evaluate(assembled, build, q, v):
    return float(assembled.output_function(build)(0.0, q, v, np.zeros(q.size), np.zeros(assembled.n_multipliers))[0])


def derivative_along(assembled, build, q, v, step=1e-6):
    """(f(q + h v) - f(q - h v)) / 2h."""
    return (evaluate(assembled, build, q + step * v, v) - evaluate(assembled, build, q - step * v, v)) / (2 * step)


def test_translation_jacobian_is_the_derivative_with_the_axis_held():
    """Exudyn's Jacobian of u = g . (p1 - p0) - offset is g . (J1 - J0): d u/dt less (p1 - p0) . dg/dt, which is
    not the derivative while frame 0 turns (the rate, Coordinates_t, is the derivative)."""
    system, frames, thetas = two_free_bodies()
    marker = MarkerBodiesRelativeTranslationCoordinate(frames, axis0=[0.2, 0.5, -0.8], offset=0.1)
    system.add(marker)
    assembled = system.assemble()
    q, v = state_with(thetas, [[0.5, -1.0, 2.0], [-0.7, 0.3, 1.1]], [[0.2, 0.1, -0.3], [0.4, -0.5, 0.6]])
    value = evaluate(assembled, marker.coordinates, q, v)
    p0, p1, axis = (np.asarray(assembled.output_function(build)(0.0, q, v, q, np.zeros(assembled.n_multipliers)))
                    .reshape(-1) for build in (frames[0].position, frames[1].position, marker.axis_global))
    assert value == pytest.approx(axis @ (p1 - p0) - 0.1, abs=1e-14)
    jacobian_rate = evaluate(assembled, marker.jacobian_rate, q, v)
    derivative = derivative_along(assembled, marker.coordinates, q, v)
    axis_rate = [derivative_along(assembled, lambda ctx, k=k: marker.axis_global(ctx)[k], q, v) for k in range(3)]
    held = derivative - np.dot(p1 - p0, axis_rate)
    assert abs(jacobian_rate - derivative) > 0.1
    assert jacobian_rate == pytest.approx(held, abs=1e-8)
    assert evaluate(assembled, lambda ctx: marker.output(ctx, "Coordinates_t"), q, v) == pytest.approx(derivative,
                                                                                                        abs=1e-8)


def rotation_marker(relative, axis0):
    """(assembled, marker, thetas, A0): two rigid bodies, body 1 turned by ``relative`` from body 0 (turned by A0),
    and the rotation marker about ``axis0`` (offset 0.4) between them."""
    system = System()
    base = rotations.rotation_matrix_from_rot_xyz([0.3, -0.5, 0.9])
    thetas = [rotations.euler_parameters_from_rotation_matrix(base),
              rotations.euler_parameters_from_rotation_matrix(base @ relative)]
    bodies = []
    for theta in thetas:
        node = system.add(fc.NodeRigidBodyEP([0, 0, 0, *theta]))
        bodies.append(system.add(fc.ObjectRigidBody(node, 1.0, [1, 1, 1, 0, 0, 0])))
    marker = MarkerBodiesRelativeRotationCoordinate([fc.MarkerBodyRigid(b) for b in bodies], axis0=axis0, offset=0.4)
    system.add(marker)
    return system.assemble(), marker, thetas, base


def test_rotation_jacobian_is_the_derivative_where_the_relative_rotation_is_about_the_axis():
    """Exudyn's Jacobian and rate of the angle, g . (omega_1 - omega_0), is d phi/dt where the relative rotation
    is about a0 (|a0| = 1), for any velocities, and not where it is not (body 1 also tilted about a normal)."""
    axis0 = np.array([0.3, -0.4, 0.5]) / np.linalg.norm([0.3, -0.4, 0.5])
    normal = np.cross(axis0, [1.0, 0, 0]) / np.linalg.norm(np.cross(axis0, [1.0, 0, 0]))
    about_axis = rotations.rotation_matrix(np.r_[np.cos(1.2), np.sin(1.2) * axis0])         # 2.4 rad about a0
    tilted = about_axis @ rotations.rotation_matrix(np.r_[np.cos(0.2), np.sin(0.2) * normal])
    zero, omega0 = np.zeros(3), np.array([0.5, -1.0, 2.0])
    for relative, equal in ((about_axis, True), (tilted, False)):
        assembled, marker, thetas, base = rotation_marker(relative, axis0)
        q, _ = state_with(thetas, [zero, zero], [zero, zero])
        if equal:
            assert evaluate(assembled, marker.coordinates, q, q) == pytest.approx(2.4 - 0.4, abs=1e-12)
        v = state_with(thetas, [omega0, omega0 + np.array([0.8, 0.2, -0.3])], [zero, zero])[1]
        jacobian_rate = evaluate(assembled, marker.jacobian_rate, q, v)
        assert jacobian_rate == pytest.approx(axis0 @ base.T @ np.array([0.8, 0.2, -0.3]), abs=1e-12)
        derivative = derivative_along(assembled, marker.coordinates, q, v)
        assert (abs(jacobian_rate - derivative) < 1e-8) is equal
        assert (abs(jacobian_rate - derivative) > 1e-3) is not equal


# --- refusals -------------------------------------------------------------------------------------------------------
def hinge_with_markers(add_user):
    """A body hinged to the ground with both relative markers; ``add_user(mbs, markers, turns)`` adds what refers
    to them."""
    mbs = ffexu.SystemContainer().AddSystem()
    ground = mbs.AddObject(ffitems.ObjectGround())
    body = mbs.CreateRigidBody(inertia=ffutilities.InertiaCuboid(1000, [0.4, 0.1, 0.1]), referencePosition=[0.2, 0, 0])
    mbs.CreateRevoluteJoint(itemNumbers=[ground, body], position=[0, 0, 0], axis=[0, 0, 1])
    turns = mbs.AddNode(ffitems.NodeGenericData(initialCoordinates=[0], numberOfDataCoordinates=1))
    markers = [mbs.AddMarker(ffitems.MarkerBodiesRelativeRotationCoordinate(bodyNumbers=[ground, body], axis0=[0, 0, 1],
                                                                            nodeNumber=turns)),
               mbs.AddMarker(ffitems.MarkerBodiesRelativeTranslationCoordinate(bodyNumbers=[ground, body]))]
    add_user(mbs, markers, turns)
    return mbs


def test_velocity_level_and_other_users_and_shared_data_nodes_are_refused():
    def velocity_level(mbs, markers, turns):
        mbs.AddObject(ffitems.ObjectConnectorCoordinate(markerNumbers=[markers[1], markers[0]], velocityLevel=True))

    def load(mbs, markers, turns):
        mbs.AddLoad(ffitems.LoadCoordinate(markerNumber=markers[1], load=1.0))

    def shared_node(mbs, markers, turns):
        ground, body = mbs.GetMarker(markers[0])["bodyNumbers"]
        mbs.AddMarker(ffitems.MarkerBodiesRelativeRotationCoordinate(bodyNumbers=[ground, body], nodeNumber=turns))

    def wrong_node(mbs, markers, turns):
        ground, body = mbs.GetMarker(markers[0])["bodyNumbers"]
        mbs.AddMarker(ffitems.MarkerBodiesRelativeRotationCoordinate(bodyNumbers=[ground, body], nodeNumber=0))

    cases = [(velocity_level, "with velocityLevel=True: floatframe supports the marker at position level only"),
             (load, "is used by LoadCoordinate 0 'load0': floatframe supports the marker in an ObjectConnectorCoordinate and "
                    "a SensorMarker only"),
             (shared_node, "turn counter of 0 ObjectConnectorTorsionalSpringDamper and 2 "
                           "MarkerBodiesRelativeRotationCoordinate; a data node serves exactly one turn counter"),
             (wrong_node, "nodeNumber' = 0 must be a NodeGenericData")]
    for add_user, message in cases:
        mbs = hinge_with_markers(add_user)
        with pytest.raises(ExudynLayerError, match=message):
            mbs.Assemble()
    mbs = ffexu.SystemContainer().AddSystem()
    ground = mbs.AddObject(ffitems.ObjectGround())
    point = mbs.CreateMassPoint(referencePosition=[1, 0, 0], mass=1.0)
    mbs.AddMarker(ffitems.MarkerBodiesRelativeTranslationCoordinate(bodyNumbers=[ground, point]))
    with pytest.raises(ModelError, match=r"RelativeTranslationCoordinate 0 'marker0': frame_markers\[1\]: .*must "
                                         r"refer to a body with an orientation"):
        mbs.Assemble()
    with pytest.raises(ModelError, match="is not supported at velocity level: its Jacobian is not the derivative"):
        system, frames, _ = two_free_bodies()
        marker = system.add(MarkerBodiesRelativeTranslationCoordinate(frames))
        system.add(fc.CoordinateConstraint([marker, marker], velocity_level=True))
        system.assemble()
