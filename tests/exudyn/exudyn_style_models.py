"""Exudyn-style model scripts for the tests, written once and run on either package.

Every builder takes ``(exu, ii, fem_module)``: the main module, the item-interface module and the FEM
module, i.e. ``floatframe.exudyn`` (with its ``itemInterface`` and ``FEM``) or the real ``exudyn``
package. It builds a system the way an Exudyn user writes it and returns ``(mbs, sensors, settings)``.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
ROTOR = DATA / "rotorDisc" / "rotorDiscTest"
BLOCK = DATA / "block" / "blockC3D8"

README_TISSERAND = 0.035521880690182486
README_CONSTRAINED = 0.0064600108120842666


def settings(exu, steps, h, spectral_radius=0.5):
    ss = exu.SimulationSettings()
    ss.timeIntegration.numberOfSteps = steps
    ss.timeIntegration.endTime = steps * h
    ss.timeIntegration.verboseMode = 0
    ss.timeIntegration.newton.useModifiedNewton = True
    ss.timeIntegration.generalizedAlpha.spectralRadius = spectral_radius
    ss.solutionSettings.sensorsWritePeriod = h
    ss.solutionSettings.writeSolutionToFile = False
    return ss


def tight_settings(exu, steps, h):
    """Default scheme, sensors every step, Newton converged to 1e-12: for comparisons to 1e-8 of the scale."""
    ss = exu.SimulationSettings()
    ss.timeIntegration.numberOfSteps = steps
    ss.timeIntegration.endTime = steps * h
    ss.solution.file.write = False
    ss.solution.sensors.writePeriod = h
    ss.timeIntegration.newton.relativeTolerance = 1e-12
    ss.timeIntegration.newton.absoluteTolerance = 1e-14
    return ss


def default_settings(exu, steps, end_time):
    """Exudyn's default scheme and Newton settings, ``steps`` steps to ``end_time`` [s], quiet, no solution file."""
    ss = exu.SimulationSettings()
    ss.timeIntegration.numberOfSteps = steps
    ss.timeIntegration.endTime = end_time
    ss.timeIntegration.verboseMode = 0
    ss.solutionSettings.writeSolutionToFile = False
    return ss


def full_newton_settings(exu, steps, end_time):
    """``steps`` steps to ``end_time`` [s] with full Newton converged to a relative 1e-12 and no solution file: the
    settings of the comparisons to round-off."""
    ss = exu.SimulationSettings()
    ss.timeIntegration.numberOfSteps = steps
    ss.timeIntegration.endTime = end_time
    ss.timeIntegration.newton.useModifiedNewton = False
    ss.timeIntegration.newton.relativeTolerance = 1e-12
    ss.solution.file.write = False
    return ss


def pendulum(exu, ii, offset=0.0, load_user_function=0, file_name=""):
    """A rigid body on a spherical joint 0.5 m from its centre of mass, under gravity (index-3 DAE); the centre
    started ``offset`` [m] further out, the gravity load given by ``load_user_function`` where given, the
    position sensor written to ``file_name`` where given."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0.5 + offset, 0, 0, 1.0, 0.0, 0.0, 0.0]))
    body = mbs.AddObject(ii.ObjectRigidBody(nodeNumber=node, mass=2.0, inertia=[0.1, 0.2, 0.3, 0, 0, 0]))
    ground = mbs.AddObject(ii.ObjectGround(referencePosition=[0, 0, 0]))
    pivot = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=ground, localPosition=[0, 0, 0]))
    joint = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body, localPosition=[-0.5, 0, 0]))
    mbs.AddObject(ii.ObjectJointSpherical(markerNumbers=[pivot, joint]))
    centre = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=body, localPosition=[0, 0, 0]))
    mbs.AddLoad(ii.LoadForceVector(markerNumber=centre, loadVector=[0, -2 * 9.81, 0],
                                   loadVectorUserFunction=load_user_function))
    sensors = [mbs.AddSensor(ii.SensorNode(nodeNumber=node, storeInternal=True, writeToFile=bool(file_name) and k == 0,
                                           fileName=file_name if k == 0 else "", outputVariableType=variable))
               for k, variable in enumerate((exu.OutputVariableType.Position, exu.OutputVariableType.Velocity))]
    mbs.Assemble()
    return mbs, sensors, tight_settings(exu, 40, 0.01)


def rotor_fem(fem_module, unbalance_in_fem=True):
    """The rotor mesh and matrices, stiffness scaled to 1 %, unbalance 0.1 kg at mesh node 9."""
    fem = fem_module.FEMinterface()
    fem.ImportFromAbaqusInputFile(f"{ROTOR}.inp", typeName="Instance", name="rotor-1")
    fem.ReadMassMatrixFromAbaqus(f"{ROTOR}MASS1.mtx")
    fem.ReadStiffnessMatrixFromAbaqus(f"{ROTOR}STIF1.mtx")
    fem.ScaleStiffnessMatrix(1e-2)
    if unbalance_in_fem:
        fem.AddNodeMass(9, 0.1)
    return fem


def face_marker(ii, mbs, body, fem, z):
    """Position marker at the mean of the mesh nodes of the end face z = const."""
    face = fem.GetNodesInPlane([0, 0, z], [0, 0, 1])
    return mbs.AddMarker(ii.MarkerSuperElementPosition(bodyNumber=body, meshNodeNumbers=np.array(face),
                                                       weightingFactors=np.ones(len(face)) / len(face)))


def rigid_marker(ii, mbs, body, nodes):
    """MarkerSuperElementRigid with equal weights on the mesh ``nodes`` of ``body``."""
    return mbs.AddMarker(ii.MarkerSuperElementRigid(bodyNumber=body, meshNodeNumbers=np.array(nodes),
                                                    weightingFactors=np.ones(len(nodes)) / len(nodes)))


def reduced_rotor_sensors(exu, ii, mbs, body, fem):
    """A reduced rotor's displacement at the mesh node nearest the middle of its axis and its frame's angular
    velocity (``body``: AddObjectFFRFreducedOrder's dict), stored internally."""
    middle = fem.GetNodeAtPoint([0, 0, 0.25])
    return [mbs.AddSensor(ii.SensorSuperElement(bodyNumber=body["oFFRFreducedOrder"], meshNodeNumber=middle,
                                                 storeInternal=True,
                                                 outputVariableType=exu.OutputVariableType.Displacement)),
            mbs.AddSensor(ii.SensorNode(nodeNumber=body["nRigidBody"], storeInternal=True,
                                        outputVariableType=exu.OutputVariableType.AngularVelocity))]


def bearings(ii, mbs, body, fem, ground_left, ground_right):
    """Spring-damper bearings on both end faces, free axially on the right."""
    k, d = 2e8, 2e6
    mbs.AddObject(ii.CartesianSpringDamper(markerNumbers=[face_marker(ii, mbs, body, fem, 0.0), ground_left],
                                           stiffness=[k, k, k], damping=[d, d, d]))
    mbs.AddObject(ii.CartesianSpringDamper(markerNumbers=[face_marker(ii, mbs, body, fem, 0.5), ground_right],
                                           stiffness=[k, k, 0], damping=[d, d, d]))


def rotor_tisserand(exu, ii, fem_module):
    """Spinning rotor, frame by the Tisserand constraint (ObjectFFRFinterface), 25 steps of 1e-4 s."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    fem = rotor_fem(fem_module)
    fem.ComputeEigenmodes(4, excludeRigidBodyModes=6, useSparseSolver=False)
    rotor = fem_module.ObjectFFRFinterface(fem).AddObjectFFRF(
        exu, mbs, positionRef=[0, 0, 0], eulerParametersRef=[1, 0, 0, 0], initialVelocity=[0, 0, 0],
        initialAngularVelocity=[0, 0, 2 * np.pi * 50])
    ground = mbs.AddObject(ii.ObjectGround(referencePosition=[0, 0, 0]))
    left = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, 0]))
    right = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, 0.5]))
    bearings(ii, mbs, rotor["oFFRF"], fem, left, right)
    middle = fem.GetNodeAtPoint([0, 0, 0.25])
    sensor = mbs.AddSensor(ii.SensorSuperElement(bodyNumber=rotor["oFFRF"], meshNodeNumber=middle,
                                                 storeInternal=True, writeToFile=False,
                                                 outputVariableType=exu.OutputVariableType.Displacement))
    mbs.Assemble()
    return mbs, [sensor], settings(exu, 25, 1e-4)


def rotor_constrained(exu, ii, fem_module):
    """Spinning rotor added item by item: dense matrices, a light rigid body on the frame node and six
    coordinate constraints instead of the Tisserand frame; 10 steps of 1e-4 s."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    fem = rotor_fem(fem_module, unbalance_in_fem=False)
    positions = fem.GetNodePositionsAsArray()
    mass = fem.GetMassMatrix(sparse=False)
    mass[27:30, 27:30] += 0.1 * np.eye(3)
    theta0 = [1.0, 0.0, 0.0, 0.0]
    spin = [0.0, 0.0, 2 * np.pi * 50]
    theta_t = [0.0] + [0.5 * w for w in spin]  # Euler-parameter rates of the spin at theta0 = (1, 0, 0, 0)
    frame = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0] + theta0,
                                           initialVelocities=[0, 0, 0] + list(theta_t)))
    mesh = [mbs.AddNode(ii.Point(referenceCoordinates=list(p))) for p in positions]
    stiffness = exu.MatrixContainer()
    stiffness.SetWithDenseMatrix(fem.GetStiffnessMatrix(sparse=False), useDenseMatrix=False)
    mass_container = exu.MatrixContainer()
    mass_container.SetWithDenseMatrix(mass, useDenseMatrix=False)
    rotor = mbs.AddObject(ii.ObjectFFRF(nodeNumbers=[frame] + mesh, massMatrixFF=mass_container,
                                        stiffnessMatrixFF=stiffness))
    mbs.AddObject(ii.ObjectRigidBody(nodeNumber=frame, mass=1e-3, inertia=[1e-3] * 3 + [0] * 3))
    ground_left = mbs.AddNode(ii.NodePointGround(referenceCoordinates=[0, 0, 0]))
    ground_right = mbs.AddNode(ii.NodePointGround(referenceCoordinates=[0, 0, 0.5]))
    fixed_left = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=ground_left, coordinate=0))
    fixed_right = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=ground_right, coordinate=0))
    node_left, node_right = fem.GetNodeAtPoint([0, 0, 0]), fem.GetNodeAtPoint([0, 0, 0.5])
    for axis in range(3):
        marker = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=mesh[node_left], coordinate=axis))
        mbs.AddObject(ii.CoordinateConstraint(markerNumbers=[fixed_left, marker]))
        if axis < 2:
            marker = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=mesh[node_right], coordinate=axis))
            mbs.AddObject(ii.CoordinateConstraint(markerNumbers=[fixed_right, marker]))
    marker = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=mesh[9], coordinate=0))
    mbs.AddObject(ii.CoordinateConstraint(markerNumbers=[fixed_right, marker]))
    left = mbs.AddMarker(ii.MarkerNodePosition(nodeNumber=ground_left))
    right = mbs.AddMarker(ii.MarkerNodePosition(nodeNumber=ground_right))
    bearings(ii, mbs, rotor, fem, left, right)
    sensor = mbs.AddSensor(ii.SensorSuperElement(bodyNumber=rotor, meshNodeNumber=fem.GetNodeAtPoint([0, 0, 0.25]),
                                                 storeInternal=True, writeToFile=False,
                                                 outputVariableType=exu.OutputVariableType.Displacement))
    mbs.Assemble()
    return mbs, [sensor], settings(exu, 10, 1e-4)


def block_body(exu, fem_module, mbs, angular_velocity=(0, 0, 0), velocity=(0, 0, 0)):
    """The 4 x 1 x 1 Hex8 block (stiffness scaled to 1 %) as an FFRF body with the Tisserand frame."""
    fem = fem_module.FEMinterface()
    fem.ImportFromAbaqusInputFile(f"{BLOCK}.inp", typeName="Instance", name="block-1")
    fem.ReadMassMatrixFromAbaqus(f"{BLOCK}_MASS1.mtx")
    fem.ReadStiffnessMatrixFromAbaqus(f"{BLOCK}_STIF1.mtx")
    fem.ScaleStiffnessMatrix(1e-2)
    fem.ComputeEigenmodes(4, excludeRigidBodyModes=6, useSparseSolver=False)
    body = fem_module.ObjectFFRFinterface(fem).AddObjectFFRF(
        exu, mbs, positionRef=[0, 0, 0], eulerParametersRef=[1, 0, 0, 0], initialVelocity=list(velocity),
        initialAngularVelocity=list(angular_velocity))
    return fem, body


def end_marker(ii, mbs, body, fem, x):
    face = fem.GetNodesInPlane([x, 0, 0], [1, 0, 0])
    return mbs.AddMarker(ii.MarkerSuperElementPosition(bodyNumber=body["oFFRF"], meshNodeNumbers=face,
                                                       weightingFactors=np.ones(len(face)) / len(face)))


def block_sensors(exu, ii, mbs, body, fem):
    corner = fem.GetNodeAtPoint([4, 1, 1])
    return [mbs.AddSensor(ii.SensorSuperElement(bodyNumber=body["oFFRF"], meshNodeNumber=corner, storeInternal=True,
                                                writeToFile=False,
                                                outputVariableType=exu.OutputVariableType.Displacement)),
            mbs.AddSensor(ii.SensorNode(nodeNumber=body["nRigidBody"], storeInternal=True, writeToFile=False,
                                        outputVariableType=exu.OutputVariableType.AngularVelocity)),
            mbs.AddSensor(ii.SensorSuperElement(bodyNumber=body["oFFRF"], meshNodeNumber=corner, storeInternal=True,
                                                writeToFile=False,
                                                outputVariableType=exu.OutputVariableType.DisplacementLocal))]


def free_block(exu, ii, fem_module):
    """A block tumbling freely (no supports, no loads), launched with a skew spin and a velocity."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    fem, body = block_body(exu, fem_module, mbs, angular_velocity=(0.5, 0.2, 3.0), velocity=(1.0, 0.0, 0.5))
    sensors = block_sensors(exu, ii, mbs, body, fem)
    sensors.append(mbs.AddSensor(ii.SensorNode(nodeNumber=body["nRigidBody"], storeInternal=True, writeToFile=False,
                                               outputVariableType=exu.OutputVariableType.Position)))
    mbs.Assemble()
    return mbs, sensors, settings(exu, 20, 5e-3, spectral_radius=0.8)


def pendulum_block(exu, ii, fem_module):
    """A block hanging from a spherical joint at the centre of its end face x = 0, pulled at x = 4."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    fem, body = block_body(exu, fem_module, mbs)
    ground = mbs.AddObject(ii.ObjectGround())
    pivot = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0.5, 0.5]))
    mbs.AddObject(ii.SphericalJoint(markerNumbers=[pivot, end_marker(ii, mbs, body, fem, 0.0)],
                                    visualization=ii.VObjectJointSpherical(jointRadius=0.05)))
    mbs.AddLoad(ii.Force(markerNumber=end_marker(ii, mbs, body, fem, 4.0), loadVector=[0, -1e5, 2e4]))
    sensors = block_sensors(exu, ii, mbs, body, fem)
    mbs.Assemble()
    return mbs, sensors, settings(exu, 20, 5e-3)


def user_function_block(exu, ii, fem_module):
    """A free block driven by an ObjectFFRF force user function and a load user function."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    fem, body = block_body(exu, fem_module, mbs, angular_velocity=(0, 0, 1.0))
    corner = 3 * fem.GetNodeAtPoint([4, 1, 1])
    frame = body["nRigidBody"]

    def body_force(mbs, t, item_number, q, q_t):
        force = np.zeros(len(q))
        velocity = mbs.GetNodeOutput(frame, exu.OutputVariableType.Velocity)
        force[0:3] = [2e4 * t, 0.0, 0.0] - 500.0 * np.asarray(velocity)  # global frame force with drag
        force[7 + corner + 1] = -1e3 * np.sin(40 * t)                      # local force at one mesh node
        return force

    def pulse(mbs, t, load):
        return [load[0], load[1] * np.sin(30 * t), load[2]]

    mbs.SetObjectParameter(body["oFFRF"], "forceUserFunction", body_force)
    mbs.AddLoad(ii.LoadForceVector(markerNumber=end_marker(ii, mbs, body, fem, 4.0), loadVector=[0, 0, 5e4],
                                   loadVectorUserFunction=pulse))
    sensors = block_sensors(exu, ii, mbs, body, fem)
    mbs.Assemble()
    return mbs, sensors, settings(exu, 8, 1e-2)


def mass_point_on_springs(exu, ii, fem_module):
    """A 2 kg mass point: a coordinate spring-damper (with offset) on x, a Cartesian spring-damper in y and z
    to a ground point, and gravity as a LoadMassProportional; 200 steps of 1e-3 s."""
    mbs = exu.SystemContainer().AddSystem()
    node = mbs.AddNode(ii.NodePoint(referenceCoordinates=[0.1, 0.2, 0.3], initialVelocities=[0.5, 0, -0.2]))
    body = mbs.AddObject(ii.ObjectMassPoint(mass=2.0, nodeNumber=node))
    ground_node = mbs.AddNode(ii.NodePointGround(referenceCoordinates=[0, 0, 0]))
    ground_x = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=ground_node, coordinate=0))
    point_x = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=node, coordinate=0))
    mbs.AddObject(ii.ObjectConnectorCoordinateSpringDamper(markerNumbers=[ground_x, point_x], stiffness=400.0,
                                                           damping=2.0, offset=0.05))
    ground = mbs.AddObject(ii.ObjectGround())
    anchor = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, 1.0]))
    point = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=body, localPosition=[0, 0, 0]))
    mbs.AddObject(ii.ObjectConnectorCartesianSpringDamper(markerNumbers=[anchor, point], stiffness=[0, 100.0, 300.0],
                                                          damping=[0, 1, 1]))
    mbs.AddLoad(ii.LoadMassProportional(markerNumber=mbs.AddMarker(ii.MarkerBodyMass(bodyNumber=body)),
                                        loadVector=[0, 0, -9.81]))
    sensors = [mbs.AddSensor(ii.SensorBody(bodyNumber=body, storeInternal=True,
                                           outputVariableType=exu.OutputVariableType.Position)),
               mbs.AddSensor(ii.SensorObject(objectNumber=1, storeInternal=True,
                                             outputVariableType=exu.OutputVariableType.Force))]
    mbs.Assemble()
    return mbs, sensors, tight_settings(exu, 200, 1e-3)


def run(builder, exu, ii, fem_module):
    """Build and solve; returns the stored data [t, values...] of every sensor."""
    mbs, sensors, simulation_settings = builder(exu, ii, fem_module)
    exu.SolveDynamic(mbs, simulation_settings)
    return [mbs.GetSensorStoredData(s) for s in sensors], mbs
