"""Exudyn-style scripts for the bodies, markers and loads of issue 9, each run with exudyn 1.13.6 and with
floatframe.exudyn: the sensors agree to a relative 1e-6 of their range (measured numbers in each test); and
what the layer refuses for these items."""
import numpy as np
import pytest

from exudyn_style_models import default_settings

import floatframe.exudyn as fexu
import floatframe.exudyn.itemInterface as fii
import floatframe.exudyn.rigidBodyUtilities as frbu

THETA = np.array([0.9, 0.1, -0.3, 0.2]) / np.linalg.norm([0.9, 0.1, -0.3, 0.2])
RIGID_BODY_OUTPUTS = ("Position", "Displacement", "Velocity", "VelocityLocal", "Acceleration", "AccelerationLocal",
                      "AngularVelocity", "AngularVelocityLocal", "AngularAcceleration", "AngularAccelerationLocal",
                      "Rotation", "RotationMatrix")


def settings(exu, steps, end_time):
    simulation = exu.SimulationSettings()
    simulation.timeIntegration.numberOfSteps = steps
    simulation.timeIntegration.endTime = end_time
    simulation.timeIntegration.newton.relativeTolerance = 1e-12
    simulation.timeIntegration.newton.absoluteTolerance = 1e-14
    simulation.timeIntegration.verboseMode = 0
    simulation.solution.sensors.writePeriod = end_time / steps
    simulation.solution.file.write = False
    return simulation


def sensor(exu, ii, mbs, kind, number, variable, **options):
    """A stored sensor on a node ('Node') or a body ('Body'), of the variable named."""
    target = {"Node": "nodeNumber", "Body": "bodyNumber", "Object": "objectNumber"}[kind]
    return mbs.AddSensor(getattr(ii, "Sensor" + kind)(**{target: number}, storeInternal=True, writeToFile=False,
                                                       outputVariableType=getattr(exu.OutputVariableType, variable),
                                                       **options))


def run_both(builder, steps=200, end_time=0.2, solver_type=None):
    """Sensor data of the script on exudyn and on floatframe.exudyn: two lists of (k, 1 + size) arrays."""
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as ii
    import exudyn.rigidBodyUtilities as rbu
    data = []
    for module, items, utilities in ((exu, ii, rbu), (fexu, fii, frbu)):
        mbs, sensors = builder(module, items, utilities)
        mbs.Assemble()
        keywords = {} if solver_type is None else dict(solverType=getattr(module.DynamicSolverType, solver_type))
        module.SolveDynamic(mbs, settings(module, steps, end_time), **keywords)
        data.append([np.asarray(mbs.GetSensorStoredData(s)) for s in sensors])
    return data


def largest_deviation(reference, ours):
    """Largest |ours - reference| over all sensors, each relative to its reference's largest entry (absolute
    for a sensor that is zero throughout)."""
    worst = 0.0
    for exudyn_data, floatframe_data in zip(reference, ours):
        assert floatframe_data.shape == exudyn_data.shape
        np.testing.assert_allclose(floatframe_data[:, 0], exudyn_data[:, 0], atol=1e-12)
        scale = np.abs(exudyn_data[:, 1:]).max() or 1.0
        worst = max(worst, np.abs(floatframe_data[:, 1:] - exudyn_data[:, 1:]).max() / scale)
    return worst


# --- ObjectRigidBody with its centre of mass away from the node ----------------------------------------
def offset_rigid_bodies(exu, ii, rbu):
    """Two bodies with the centre of mass away from the node under gravity: one by ObjectRigidBody with centerOfMass
    (physicsCenterOfMass in older Exudyn), hanging on a spherical joint at its node; one free, by CreateRigidBody with a
    translated InertiaCuboid, spinning about a skew axis, with a body-fixed force at a point. The inertia about the node
    is J_C + m (b^T b I - b b^T) for J_C = [0.5, 0.6, 0.3, 0.01, -0.02, 0.03] about the centre of mass b."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.AddObject(ii.ObjectGround())
    omega = np.array([2.0, -1.0, 3.0])
    g_matrix = 2 * np.array([[-THETA[1], THETA[0], -THETA[3], THETA[2]], [-THETA[2], THETA[3], THETA[0], -THETA[1]],
                             [-THETA[3], -THETA[2], THETA[1], THETA[0]]])
    node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0] + list(THETA),
                                          initialVelocities=[0, 0, 0] + list(0.25 * g_matrix.T @ omega)))
    hanging = mbs.AddObject(ii.ObjectRigidBody(nodeNumber=node, mass=2.0,
                                               inertia=[0.9, 0.94, 0.4, -0.15, 0.06, 0.07],
                                               centerOfMass=[0.1, -0.2, -0.4]))
    mbs.AddObject(ii.ObjectJointSpherical(markerNumbers=[mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=ground)),
                                                         mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=hanging))]))
    mbs.AddLoad(ii.LoadMassProportional(markerNumber=mbs.AddMarker(ii.MarkerBodyMass(bodyNumber=hanging)),
                                        loadVector=[0, 0, -9.81]))
    inertia = rbu.InertiaCuboid(density=500.0, sideLengths=[0.4, 0.2, 0.1]).Translated([0.2, 0.05, -0.1])
    free = mbs.CreateRigidBody(referencePosition=[1.0, 0.5, 0.0],
                               referenceRotationMatrix=rbu.RotationMatrixZ(0.4) @ rbu.RotationMatrixX(-0.3),
                               initialVelocity=[0.2, 0.0, 1.0], initialAngularVelocity=[1.0, 4.0, -2.0],
                               inertia=inertia, gravity=[0, 0, -9.81], returnDict=True)
    point = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=free["bodyNumber"], localPosition=[-0.2, 0.1, 0.05]))
    mbs.AddLoad(ii.LoadForceVector(markerNumber=point, loadVector=[0.0, 3.0, 1.0], bodyFixed=True))
    sensors = [sensor(exu, ii, mbs, "Body", body, variable, localPosition=local)
               for body, local in ((hanging, [0.1, -0.2, -0.4]), (free["bodyNumber"], list(inertia.com)),
                                   (free["bodyNumber"], [0.3, 0.0, -0.1]))
               for variable in RIGID_BODY_OUTPUTS]
    sensors.append(sensor(exu, ii, mbs, "Node", node, "Coordinates"))
    return mbs, sensors


@pytest.mark.exudyn
def test_rigid_bodies_with_their_centre_of_mass_away_from_the_node_match_exudyn():
    """ObjectRigidBody centerOfMass and CreateRigidBody with inertia.com != 0, every body output at the centre of
    mass and at another point (measured: 3e-9, the accelerations 5e-8: Newton's stopping)."""
    reference, ours = run_both(offset_rigid_bodies)
    assert largest_deviation(reference, ours) < 1e-6


def hanging_offset_body(exu, ii, rbu):
    """The ObjectRigidBody with centerOfMass of ``offset_rigid_bodies`` alone on its spherical joint."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.AddObject(ii.ObjectGround())
    g_matrix = 2 * np.array([[-THETA[1], THETA[0], -THETA[3], THETA[2]], [-THETA[2], THETA[3], THETA[0], -THETA[1]],
                             [-THETA[3], -THETA[2], THETA[1], THETA[0]]])
    node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0] + list(THETA),
                                          initialVelocities=[0, 0, 0] + list(0.25 * g_matrix.T @ [2.0, -1.0, 3.0])))
    body = mbs.AddObject(ii.ObjectRigidBody(nodeNumber=node, mass=2.0, inertia=[0.9, 0.94, 0.4, -0.15, 0.06, 0.07],
                                            centerOfMass=[0.1, -0.2, -0.4]))
    mbs.AddObject(ii.ObjectJointSpherical(markerNumbers=[mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=ground)),
                                                         mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body))]))
    mbs.AddLoad(ii.LoadMassProportional(markerNumber=mbs.AddMarker(ii.MarkerBodyMass(bodyNumber=body)),
                                        loadVector=[0, 0, -9.81]))
    return mbs, [sensor(exu, ii, mbs, "Node", node, variable)
                 for variable in ("Coordinates", "Coordinates_t", "AngularVelocity", "AngularAcceleration")]


@pytest.mark.exudyn
def test_a_hanging_body_with_its_centre_of_mass_away_from_the_node_matches_exudyn_at_index_2():
    """TrapezoidalIndex2, where the Euler-parameter norm drifts: the centre-of-mass terms use Exudyn's
    unnormalised A_E (bodies.euler_rotation), so the node's motion agrees (measured: 3e-12; with the
    normalised form 1e-7). Body outputs at a point are not compared: floatframe turns local points with
    the normalised matrix, Exudyn with A_E (they differ by the drift, 3e-7 here)."""
    reference, ours = run_both(hanging_offset_body, solver_type="TrapezoidalIndex2")
    assert largest_deviation(reference, ours) < 1e-6


# --- the rotated ground, marker frames (localHT) --------------------------------------------------------
def rotated_frames(exu, ii, rbu):
    """A rigid body on springs to points of a rotated ground (referenceRotation; CreateGround with
    referenceHT), pushed by a body-fixed force and torque on MarkerBodyRigid / MarkerNodeRigid frames
    turned by localHT."""
    mbs = exu.SystemContainer().AddSystem()
    turn = rbu.RotationMatrixZ(0.7) @ rbu.RotationMatrixY(-0.4)
    ground = mbs.AddObject(ii.ObjectGround(referencePosition=[0.2, -0.1, 0.3], referenceRotation=turn))
    ground_ht = mbs.CreateGround(referenceHT=rbu.HomogeneousTransformation(rbu.RotationMatrixX(0.5), [0, 1, 0]))
    node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0.5, 0.5, 0.5] + list(THETA)))
    body = mbs.AddObject(ii.ObjectRigidBody(nodeNumber=node, mass=1.5, inertia=[0.2, 0.3, 0.4, 0, 0, 0]))
    for anchor_body, local in ((ground, [0.3, 0.2, 0.1]), (ground_ht, [0.0, -0.3, 0.4])):
        anchor = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=anchor_body, localPosition=local))
        point = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=body, localPosition=[0.1, 0.1, -0.2]))
        mbs.AddObject(ii.ObjectConnectorCartesianSpringDamper(markerNumbers=[anchor, point], stiffness=[40, 50, 60],
                                                              damping=[0.5, 0.5, 0.5]))
    frame = rbu.HomogeneousTransformation(rbu.RotationMatrixX(0.9) @ rbu.RotationMatrixZ(-0.3), [0.2, 0.0, 0.1])
    body_marker = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body, localHT=frame))
    node_marker = mbs.AddMarker(ii.MarkerNodeRigid(nodeNumber=node, localHT=rbu.HomogeneousTransformation(
        rbu.RotationMatrixY(1.1), [0, 0, 0])))
    mbs.AddLoad(ii.LoadForceVector(markerNumber=body_marker, loadVector=[3.0, 0.0, 0.0], bodyFixed=True))
    mbs.AddLoad(ii.LoadTorqueVector(markerNumber=node_marker, loadVector=[0.0, 0.0, 0.4], bodyFixed=True))
    mbs.AddLoad(ii.LoadTorqueVector(markerNumber=body_marker, loadVector=[0.2, 0.0, 0.0], bodyFixed=True))
    sensors = [sensor(exu, ii, mbs, "Body", body, variable) for variable in ("Position", "AngularVelocity")]
    sensors.append(sensor(exu, ii, mbs, "Body", ground, "Position", localPosition=[0.3, 0.2, 0.1]))
    sensors.append(sensor(exu, ii, mbs, "Body", ground_ht, "RotationMatrix"))
    return mbs, sensors


@pytest.mark.exudyn
def test_a_rotated_ground_and_turned_marker_frames_match_exudyn():
    """ObjectGround referenceRotation, CreateGround referenceHT, MarkerBodyRigid and MarkerNodeRigid localHT
    with body-fixed loads (measured: 5e-10)."""
    reference, ours = run_both(rotated_frames)
    assert largest_deviation(reference, ours) < 1e-6


# --- Node1D and ObjectMass1D -----------------------------------------------------------------------------
def masses_1d(exu, ii, rbu):
    """Two ObjectMass1D on tilted axes (referencePosition, referenceRotation) under gravity: one on a coordinate
    spring to the ground with a LoadCoordinate, one pulled by a force on a MarkerBodyPosition and pushed by a
    body-fixed force on a MarkerBodyRigid; their Node1D reference coordinates shift them along the axis."""
    mbs = exu.SystemContainer().AddSystem()
    ground_node = mbs.AddNode(ii.NodePointGround())
    ground_coordinate = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=ground_node, coordinate=0))
    sensors = []
    for k, (rotation, reference) in enumerate(((rbu.RotationMatrixY(0.5), 0.3),
                                               (rbu.RotationMatrixZ(1.0) @ rbu.RotationMatrixY(-0.2), -0.1))):
        node = mbs.AddNode(ii.Node1D(referenceCoordinates=[reference], initialCoordinates=[0.05 * k],
                                     initialVelocities=[0.4 - k]))
        mass = mbs.AddObject(ii.ObjectMass1D(nodeNumber=node, mass=1.5 + k, referencePosition=[k, 0.5, -0.2],
                                             referenceRotation=rotation))
        mbs.AddLoad(ii.LoadMassProportional(markerNumber=mbs.AddMarker(ii.MarkerBodyMass(bodyNumber=mass)),
                                            loadVector=[0, 0, -9.81]))
        coordinate = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=node, coordinate=0))
        if k == 0:
            mbs.AddObject(ii.ObjectConnectorCoordinateSpringDamper(markerNumbers=[ground_coordinate, coordinate],
                                                                   stiffness=80.0, damping=0.5, offset=0.1))
            mbs.AddLoad(ii.LoadCoordinate(markerNumber=coordinate, load=2.0))
        else:
            point = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=mass, localPosition=[0.1, 0.2, 0.0]))
            mbs.AddLoad(ii.LoadForceVector(markerNumber=point, loadVector=[1.0, 2.0, 3.0]))
            frame = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=mass, localPosition=[0.0, 0.1, 0.0]))
            mbs.AddLoad(ii.LoadForceVector(markerNumber=frame, loadVector=[0.5, 0.0, 0.0], bodyFixed=True))
            mbs.AddLoad(ii.LoadTorqueVector(markerNumber=frame, loadVector=[0.5, 1.0, 0.0]))
        sensors += [sensor(exu, ii, mbs, "Body", mass, variable, localPosition=[0.1, -0.2, 0.3])
                    for variable in ("Position", "Displacement", "Velocity", "RotationMatrix", "Rotation",
                                     "AngularVelocity", "AngularVelocityLocal")]
        sensors += [sensor(exu, ii, mbs, "Node", node, variable)
                    for variable in ("Coordinates", "Coordinates_t", "Coordinates_tt", "CoordinatesTotal")]
    return mbs, sensors


@pytest.mark.exudyn
def test_masses_on_1d_nodes_match_exudyn():
    """Node1D, ObjectMass1D and its markers (MarkerBodyMass, MarkerNodeCoordinate, MarkerBodyPosition,
    MarkerBodyRigid), with every body and node output (measured: 2e-15)."""
    reference, ours = run_both(masses_1d)
    assert largest_deviation(reference, ours) < 1e-6


# --- CreateMassPoint and load user functions --------------------------------------------------------------
def user_function_loads(exu, ii, rbu):
    """Loads given by user functions on every load kind: LoadForceVector and LoadMassProportional on a mass
    point made by CreateMassPoint, LoadTorqueVector (bodyFixed) on a rigid body, LoadCoordinate on a Node1D."""
    mbs = exu.SystemContainer().AddSystem()
    point = mbs.CreateMassPoint(name="point", referencePosition=[0.1, 0.2, 0.3], initialDisplacement=[0.0, 0.05, 0.0],
                                initialVelocity=[0.5, 0.0, 1.0], mass=2.0, gravity=[0, 0, -9.81], returnDict=True)
    marker = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=point["bodyNumber"]))
    mbs.AddLoad(ii.LoadForceVector(markerNumber=marker, loadVector=[1.0, 2.0, 0.0],
                                   loadVectorUserFunction=lambda mbs, t, load: [load[0] * np.cos(5 * t),
                                                                                load[1] * t, 0]))
    mbs.AddLoad(ii.LoadMassProportional(markerNumber=point["markerBodyMass"], loadVector=[0.0, 1.0, 0.0],
                                        loadVectorUserFunction=lambda mbs, t, load: [0, load[1] * np.sin(3 * t), 0]))
    node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0] + list(THETA)))
    body = mbs.AddObject(ii.ObjectRigidBody(nodeNumber=node, mass=1.0, inertia=[0.1, 0.2, 0.3, 0, 0, 0]))
    frame = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body))

    def torque(mbs, t, load):
        return [load[0] * (1 if t < 0.1 else -1), 0.0, 0.2]       # a branch: called numerically

    mbs.AddLoad(ii.LoadTorqueVector(markerNumber=frame, loadVector=[0.3, 0, 0], bodyFixed=True,
                                    loadVectorUserFunction=torque))
    line = mbs.AddNode(ii.Node1D())
    mbs.AddObject(ii.ObjectMass1D(nodeNumber=line, mass=0.5))
    mbs.AddLoad(ii.LoadCoordinate(markerNumber=mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=line, coordinate=0)),
                                  load=1.5, loadUserFunction=lambda mbs, t, load: load * t ** 2))
    sensors = [sensor(exu, ii, mbs, "Body", point["bodyNumber"], "Position"),
               sensor(exu, ii, mbs, "Body", body, "AngularVelocity"),
               sensor(exu, ii, mbs, "Node", line, "Coordinates")]
    return mbs, sensors


@pytest.mark.exudyn
def test_load_user_functions_on_every_load_and_create_mass_point_match_exudyn():
    """loadVectorUserFunction(mbs, t, loadVector) and loadUserFunction(mbs, t, load) (measured: 5e-11)."""
    reference, ours = run_both(user_function_loads)
    assert largest_deviation(reference, ours) < 1e-6


# --- MarkerSuperElementRigid with localHT ---------------------------------------------------------------
def turned_super_element_marker(exu, ii, fem_module):
    """The reduced rotor (8 eigenmodes) on spring-dampers at its end faces, with a body-fixed torque on a
    MarkerSuperElementRigid of the right face whose frame is turned and moved by localHT; 40 steps of 1e-4 s."""
    import exudyn_style_models as models

    fem = models.rotor_fem(fem_module)
    fem.ComputeEigenmodes(8, excludeRigidBodyModes=6, useSparseSolver=True)
    mbs = exu.SystemContainer().AddSystem()
    numbers = fem_module.ObjectFFRFreducedOrderInterface(fem).AddObjectFFRFreducedOrder(
        mbs, initialAngularVelocity=[0, 0, 20.0])
    body = numbers["oFFRFreducedOrder"]
    ground = mbs.AddObject(ii.ObjectGround())
    turn = np.array([[1, 0, 0], [0, np.cos(0.6), -np.sin(0.6)], [0, np.sin(0.6), np.cos(0.6)]]) @ np.array(
        [[np.cos(0.2), -np.sin(0.2), 0], [np.sin(0.2), np.cos(0.2), 0], [0, 0, 1]])
    frame = np.eye(4)
    frame[:3, :3], frame[:3, 3] = turn, [0.0, 0.0, 0.01]
    for z in (0.0, 0.5):
        face = fem.GetNodesInPlane([0, 0, z], [0, 0, 1])
        marker = mbs.AddMarker(ii.MarkerSuperElementRigid(bodyNumber=body, meshNodeNumbers=np.array(face),
                                                          weightingFactors=np.ones(len(face)) / len(face),
                                                          localHT=frame))
        anchor = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, z]))
        mbs.AddObject(ii.ObjectConnectorCartesianSpringDamper(markerNumbers=[marker, anchor], stiffness=[2e6] * 3,
                                                              damping=[2e3] * 3))
    mbs.AddLoad(ii.LoadTorqueVector(markerNumber=marker, loadVector=[200.0, 0.0, 50.0], bodyFixed=True))
    sensors = [mbs.AddSensor(ii.SensorSuperElement(bodyNumber=body, meshNodeNumber=fem.GetNodeAtPoint([0, 0, 0.25]),
                                                   storeInternal=True,
                                                   outputVariableType=exu.OutputVariableType.Displacement)),
               *(mbs.AddSensor(ii.SensorNode(nodeNumber=numbers["nRigidBody"], storeInternal=True,
                                             outputVariableType=getattr(exu.OutputVariableType, variable)))
                 for variable in ("Position", "AngularVelocity"))]     # modal coordinates: the modes' signs differ
    mbs.Assemble()
    return mbs, sensors, settings(exu, 40, 40e-4)


@pytest.mark.exudyn
def test_a_turned_super_element_rigid_marker_matches_exudyn(shared_rotor_data):
    """MarkerSuperElementRigid localHT (rotation and offset) with a body-fixed torque (measured: 1e-9)."""
    exu = pytest.importorskip("exudyn")
    import exudyn.FEM as exudyn_fem
    import exudyn.itemInterface as ii

    import exudyn_style_models as models
    from floatframe.exudyn import FEM as ffFEM
    reference, _ = models.run(turned_super_element_marker, exu, ii, exudyn_fem)
    ours, _ = models.run(turned_super_element_marker, fexu, fii, ffFEM)
    assert largest_deviation(reference, ours) < 1e-6


# --- refusals ---------------------------------------------------------------------------------------------
def assemble_with(*items):
    """A floatframe.exudyn system with a rigid body (node 0, body 0), a mass point (node 1, body 1) and the
    given (family, item) pairs, assembled."""
    mbs = fexu.SystemContainer().AddSystem()
    mbs.AddNode(fii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0, 1, 0, 0, 0]))
    mbs.AddObject(fii.ObjectRigidBody(nodeNumber=0, mass=1.0, inertia=[1, 1, 1, 0, 0, 0]))
    mbs.CreateMassPoint(mass=1.0)
    for family, item in items:
        getattr(mbs, "Add" + family)(item)
    mbs.Assemble()


@pytest.mark.parametrize("items, message", [
    ([("Object", fii.ObjectGround(referenceRotation=np.diag([1.0, 2.0, 1.0])))],
     r"(?s)ObjectGround 2 '\w+': referenceRotation must be a rotation matrix \(R\^T R = I, det R = 1\)"),
    ([("Object", fii.ObjectGround(referencePosition=[1, 0, 0], referenceHT=np.eye(4)))],
     r"(?s)ObjectGround 2 '\w+': parameter 'referencePosition' = \[1, 0, 0\] disagrees with referenceHT, "
     r"which gives \[0.0, 0.0, 0.0\]"),
    ([("Object", fii.ObjectGround(referenceHT=np.eye(3)))],
     r"(?s)ObjectGround 2 '\w+': parameter 'referenceHT' .* must be a 4 x 4 homogeneous transformation"),
    ([("Marker", fii.MarkerNodeRigid(nodeNumber=0, localHT=[[1, 0, 0, 0.1], [0, 1, 0, 0], [0, 0, 1, 0],
                                                            [0, 0, 0, 1]]))],
     r"(?s)MarkerNodeRigid 0 '\w+': parameter 'localHT' .* must have a zero translation"),
    ([("Marker", fii.MarkerBodyRigid(bodyNumber=0, localPosition=[0.1, 0, 0], localHT=np.eye(4)))],
     r"(?s)MarkerBodyRigid 0 '\w+': parameter 'localPosition' .* disagrees with localHT"),
    ([("Marker", fii.MarkerBodyRigid(bodyNumber=1))],
     r"(?s)MarkerBodyRigid 0 '\w+': body_number must refer to a body with an orientation .* got ObjectMassPoint 1"),
    ([("Node", fii.Node1D()), ("Object", fii.ObjectMass1D(nodeNumber=2, mass=1.0, referenceRotation=-np.eye(3)))],
     r"(?s)ObjectMass1D 2 '\w+': referenceRotation must be a rotation matrix"),
    ([("Node", fii.Node1D()), ("Object", fii.ObjectMass1D(nodeNumber=2, mass=-1.0))],
     r"ObjectMass1D.*: mass must be >= 0, got -1.0"),
    ([("Object", fii.ObjectMass1D(nodeNumber=1, mass=1.0))],
     r"(?s)ObjectMass1D 2 '\w+': node_number must refer to a Node1D \(or a NodeGenericODE2 with one "
     r"coordinate\), got NodePoint 1"),
    ([("Object", fii.ObjectRigidBody(nodeNumber=0, mass=1.0, inertia=[-1, 1, 1, 0, 0, 0]))],
     r"ObjectRigidBody 'object2': inertia has the negative principal value -1 kg m\^2"),
])
def test_the_layer_refuses_bad_frames_masses_and_markers_naming_the_item(items, message):
    with pytest.raises(ValueError, match=message):
        assemble_with(*items)


def test_the_layer_accepts_exudyns_default_zero_inertia_and_a_flat_plate():
    """Exudyn's ObjectRigidBody has the inertia 0 by default (a point mass on a rigid node) and accepts any
    inertia; the layer accepts the possible ones, zero included, and refuses a negative one (above)."""
    assemble_with(("Object", fii.ObjectRigidBody(nodeNumber=0, mass=1.0)),
                  ("Object", fii.ObjectRigidBody(nodeNumber=0, mass=1.0, inertia=[0.5, 0.5, 1, 0, 0, 0])))


def hinged_bar_angles(inertia_diagonal):
    """Angle about z of a rigid body hinged at the origin about z (GenericJoint), its centre of mass 0.5 m off the
    axis, under gravity in -y: 300 steps of 1 ms from 1 rad."""
    mbs = fexu.SystemContainer().AddSystem()
    ground = mbs.AddObject(fii.ObjectGround())
    rotation = frbu.RotationMatrixZ(1.0)
    node = mbs.AddNode(fii.NodeRigidBodyEP(referenceCoordinates=[*(rotation @ [0.5, 0, 0]),
                                                                 *frbu.RotationMatrix2EulerParameters(rotation)]))
    body = mbs.AddObject(fii.ObjectRigidBody(nodeNumber=node, mass=2.0,
                                             inertia=[*inertia_diagonal, 0, 0, 0]))
    body_marker = mbs.AddMarker(fii.MarkerBodyRigid(bodyNumber=body, localPosition=[-0.5, 0, 0]))
    ground_marker = mbs.AddMarker(fii.MarkerBodyRigid(bodyNumber=ground))
    mbs.AddObject(fii.ObjectJointGeneric(markerNumbers=[ground_marker, body_marker], constrainedAxes=[1, 1, 1, 1, 1, 0]))
    mbs.AddLoad(fii.LoadMassProportional(markerNumber=mbs.AddMarker(fii.MarkerBodyMass(bodyNumber=body)),
                                         loadVector=[0, -9.81, 0]))
    angle = mbs.AddSensor(fii.SensorBody(bodyNumber=body, storeInternal=True,
                                         outputVariableType=fexu.OutputVariableType.Rotation))
    mbs.Assemble()
    simulation = settings(fexu, 300, 0.3)
    fexu.SolveDynamic(mbs, simulation)
    return mbs.GetSensorStoredData(angle)[:, 3]


def test_an_inertia_that_breaks_the_triangle_inequality_warns_and_a_hinged_body_moves_by_its_axis_inertia():
    """Exudyn accepts an inertia J1 + J2 < J3 (its robot models use one for links on a joint); the layer warns,
    naming the body, and simulates it as given: on a hinge about z only J_zz enters, so the bar swings as one
    with a possible inertia of the same J_zz (to the Newton tolerance), and not as one with another J_zz."""
    with pytest.warns(UserWarning, match=r"ObjectRigidBody 'object1': inertia breaks the triangle inequality "
                                         r"J1 \+ J2 >= J3 .*simulated as given"):
        broken = hinged_bar_angles([1e-8, 1e-8, 0.35])
    possible = hinged_bar_angles([0.2, 0.2, 0.35])
    other = hinged_bar_angles([0.2, 0.2, 0.3])
    assert broken[0] == pytest.approx(1.0, abs=1e-12) and broken[-1] < 0.75   # it swings down
    assert np.max(np.abs(broken - possible)) < 1e-9
    assert np.max(np.abs(other - possible)) > 1e-3


def test_create_mass_point_builds_exudyns_items():
    mbs = fexu.SystemContainer().AddSystem()
    numbers = mbs.CreateMassPoint(name="p", referencePosition=[1, 2, 3], mass=2.0, gravity=[0, 0, -9.81],
                                  returnDict=True)
    assert numbers == {"nodeNumber": 0, "bodyNumber": 0, "markerBodyMass": 0, "loadNumber": 0}
    assert mbs.GetNode(0)["name"] == "Node:p" and mbs.GetObject(0)["mass"] == 2.0
    assert mbs.CreateMassPoint(mass=1.0) == 1 and mbs.NumberOfLoads() == 1       # no gravity: no load
    with pytest.raises(fexu.ExudynLayerError, match="CreateMassPoint: referencePosition must be a vector of 3"):
        mbs.CreateMassPoint(mass=1.0, referencePosition=[0, 0])


@pytest.mark.exudyn
def test_a_planar_mass_point_falls_as_in_exudyn():
    """create2D=True: a NodePoint2D and a MassPoint2D of the x, y components, as Exudyn 1.13.6 makes them."""
    exu = pytest.importorskip("exudyn")

    def fall(code):
        mbs = code.SystemContainer().AddSystem()
        numbers = mbs.CreateMassPoint(referencePosition=[1, 2, 0], initialDisplacement=[0.1, 0.2, 0],
                                      initialVelocity=[0.3, 0.4, 0], mass=2, gravity=[0, -9.81, 0], create2D=True,
                                      returnDict=True)
        mbs.Assemble()
        mbs.SolveDynamic(default_settings(code, 100, 1.0))
        return ({key: int(value) for key, value in numbers.items()}, str(mbs.GetNode(0)["nodeType"]),
                str(mbs.GetObject(0)["objectType"]),
                np.asarray(mbs.systemData.GetODE2Coordinates()))

    ours, theirs = fall(fexu), fall(exu)
    assert ours[:3] == theirs[:3] and str(ours[1]).endswith("Point2D") and str(ours[2]).endswith("MassPoint2D")
    np.testing.assert_allclose(ours[3], theirs[3], rtol=0, atol=1e-12)     # measured 0


@pytest.mark.exudyn
def test_planar_mass_points_joined_by_create_functions_as_in_exudyn():
    """CreateSpringDamper and CreateDistanceConstraint between grounds and create2D mass points (taskmanagerTest's
    chain): the same spring lengths and distances from the points' (x, y) and the same motion."""
    exu = pytest.importorskip("exudyn")

    def chain(code):
        mbs = code.SystemContainer().AddSystem()
        ground = mbs.CreateGround(referencePosition=[0, 0.5, 0])
        first, second = (mbs.CreateMassPoint(referencePosition=position, mass=0.2, gravity=[0, -9.81, 0],
                                             create2D=True) for position in ([1.0, 0, 0], [1.0, 0.5, 0]))
        spring = mbs.CreateSpringDamper(itemNumbers=[ground, second], stiffness=1000, damping=2)
        distance = mbs.CreateDistanceConstraint(itemNumbers=[ground, first])
        other = mbs.CreateSpringDamper(itemNumbers=[first, second], stiffness=500, damping=1)
        mbs.Assemble()
        mbs.SolveDynamic(default_settings(code, 100, 0.5))
        return ([float(mbs.GetObject(spring)["referenceLength"]), float(mbs.GetObject(other)["referenceLength"]),
                 float(mbs.GetObject(distance)["distance"])], np.asarray(mbs.systemData.GetODE2Coordinates()))

    (our_lengths, ours), (their_lengths, theirs) = chain(fexu), chain(exu)
    np.testing.assert_allclose(our_lengths, their_lengths, rtol=0, atol=1e-15)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9 * np.abs(theirs).max())


def test_a_joint_with_orientation_refuses_a_planar_mass_point_naming_it():
    mbs = fexu.SystemContainer().AddSystem()
    ground, point = mbs.CreateGround(), mbs.CreateMassPoint(mass=1.0, create2D=True)
    with pytest.raises(fexu.ExudynLayerError, match=r"itemNumbers\[1\] = 1 is an ObjectMassPoint2D, which has no "
                                                    r"orientation"):
        mbs.CreateRevoluteJoint(itemNumbers=[ground, point], position=[0, 0, 0], axis=[0, 0, 1])


@pytest.mark.exudyn
def test_an_exudyn_ht_object_is_a_local_frame_as_its_matrix():
    """exu.HT(rotation, translation) as localHT and referenceHT gives the frames its 4 x 4 matrix gives."""
    exu = pytest.importorskip("exudyn")
    rotation = frbu.RotationMatrixX(0.4) @ frbu.RotationMatrixZ(-1.2)
    frames = []
    for as_object in (True, False):
        ht = exu.HT(rotation=rotation, translation=[0.1, 0.2, 0.3]) if as_object else \
            frbu.HomogeneousTransformation(rotation, [0.1, 0.2, 0.3])
        mbs = fexu.SystemContainer().AddSystem()
        ground = mbs.CreateGround(referenceHT=ht)
        mbs.AddNode(fii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0] + list(THETA)))
        body = mbs.AddObject(fii.ObjectRigidBody(nodeNumber=0, mass=1.0, inertia=[1, 1, 1, 0, 0, 0]))
        marker = mbs.AddMarker(fii.MarkerBodyRigid(bodyNumber=body, localHT=ht))
        mbs.AddLoad(fii.LoadTorqueVector(markerNumber=marker, loadVector=[0, 0, 1.0], bodyFixed=True))
        mbs.Assemble()
        core = mbs.GetFloatframeSystem()
        frames.append((core.objects[ground].reference_position, core.objects[ground].reference_rotation,
                       core.markers[marker].local_position, core.markers[marker].local_rotation))
    for from_object, from_matrix in zip(*frames):
        np.testing.assert_array_equal(from_object, from_matrix)
    np.testing.assert_allclose(frames[0][1], rotation, atol=1e-15)
