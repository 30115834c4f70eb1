"""Exudyn-style scripts with the joint items ObjectJointRevoluteZ, ObjectJointPrismaticX, ObjectJointGeneric and
the Create functions of joints, run on exudyn 1.13.6 and on floatframe.exudyn (claims marked ``exudyn``):
every sensor agrees to 1e-6 of its scale (at least 1e-3 in SI units: outputs that the joint holds at zero,
e.g. the DisplacementLocal of a hinge, are constraint drift of about 1e-6 and smaller).

The models start consistent with their joints (velocities in the joints' free directions only). Each builder
takes (exu, ii, utilities) and returns (mbs, sensors, settings). Further: the refusals, with the item named.
"""
import math
import warnings

import numpy as np
import pytest

import exudyn_style_models as models
import floatframe.exudyn as ffexu
from floatframe.exudyn import ExudynLayerError
from floatframe.exudyn import itemInterface as ffitems
from floatframe.exudyn import utilities as ffutilities
from test_exudyn_springs import rigid_body, rotation_xyz, sensors_of

GRAVITY = [0.0, 0.0, -9.81]
JOINT_OUTPUTS = ["Position", "Velocity", "DisplacementLocal", "VelocityLocal", "Rotation", "AngularVelocityLocal",
                 "ForceLocal", "TorqueLocal"]
SCALE_FLOOR = 1e-3


def homogeneous(rotation, translation=(0.0, 0.0, 0.0)):
    """A 4 x 4 homogeneous transformation (a marker's localHT)."""
    matrix = np.eye(4)
    matrix[:3, :3] = rotation
    matrix[:3, 3] = translation
    return matrix


def joint_marker(mbs, ii, body, body_position, body_rotation, point, frame):
    """A MarkerBodyRigid at the global point ``point`` whose axes are the global ``frame`` (reference configuration)."""
    return mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body, localHT=homogeneous(
        body_rotation.T @ frame, body_rotation.T @ (np.asarray(point) - body_position))))


def pendulum_on_a_revolute_joint(exu, ii, utilities):
    """A rigid body turning at 2 rad/s about a tilted hinge axis (joint frames as the markers' localHT), under
    gravity, and an inactive ObjectJointPrismaticX between the same markers (activeConnector=False)."""
    mbs = exu.SystemContainer().AddSystem()
    frame, pivot = rotation_xyz(0.4, -0.3, 0.2), np.array([0.1, 0.2, 0.3])
    rotation = rotation_xyz(0.1, -0.2, 0.3)
    position = pivot + frame @ [0.5, 0.0, 0.1]
    omega = 2.0 * frame[:, 2]
    body = rigid_body(mbs, ii, position, rotation, np.cross(omega, position - pivot), omega)
    ground = mbs.AddObject(ii.ObjectGround())
    markers = [joint_marker(mbs, ii, ground, np.zeros(3), np.eye(3), pivot, frame),
               joint_marker(mbs, ii, body, position, rotation, pivot, frame)]
    hinge = mbs.AddObject(ii.ObjectJointRevoluteZ(markerNumbers=markers))
    inactive = mbs.AddObject(ii.ObjectJointPrismaticX(markerNumbers=markers, activeConnector=False))
    sensors = (sensors_of(mbs, ii, exu, hinge, JOINT_OUTPUTS) + sensors_of(mbs, ii, exu, inactive, JOINT_OUTPUTS)
               + sensors_of(mbs, ii, exu, body, ["Position", "AngularVelocity"], "SensorBody"))
    mbs.Assemble()
    return mbs, sensors, models.tight_settings(exu, 300, 1e-3)


def pendulum_on_a_slider(exu, ii, utilities):
    """A cart on an ObjectJointPrismaticX along an inclined axis, a pendulum on an ObjectJointRevoluteZ on the
    cart; both moving at the start, under gravity."""
    mbs = exu.SystemContainer().AddSystem()
    rail = rotation_xyz(0.0, 0.3, 0.2)                         # the slide axis is its first column
    cart_rotation, cart_position = rotation_xyz(0.1, 0.3, 0.2), 0.3 * rail[:, 0]
    speed = 0.8 * rail[:, 0]
    cart = rigid_body(mbs, ii, cart_position, cart_rotation, speed, [0.0, 0.0, 0.0], mass=2.0)
    hinge_frame, hinge = rotation_xyz(math.pi / 2, 0.0, 0.1), cart_position + np.array([0.0, 0.0, -0.05])
    rod_rotation = rotation_xyz(0.2, 0.1, -0.1)
    rod_position = hinge + hinge_frame @ [0.3, -0.2, 0.0]
    omega = 1.5 * hinge_frame[:, 2]
    rod = rigid_body(mbs, ii, rod_position, rod_rotation, speed + np.cross(omega, rod_position - hinge), omega,
                     mass=1.0, inertia=(0.02, 0.03, 0.04, 0.0, 0.0, 0.0))
    ground = mbs.AddObject(ii.ObjectGround())
    slider = mbs.AddObject(ii.ObjectJointPrismaticX(markerNumbers=[
        joint_marker(mbs, ii, ground, np.zeros(3), np.eye(3), [0.0, 0.0, 0.0], rail),
        joint_marker(mbs, ii, cart, cart_position, cart_rotation, cart_position, rail)]))
    revolute = mbs.AddObject(ii.ObjectJointRevoluteZ(markerNumbers=[
        joint_marker(mbs, ii, cart, cart_position, cart_rotation, hinge, hinge_frame),
        joint_marker(mbs, ii, rod, rod_position, rod_rotation, hinge, hinge_frame)]))
    sensors = (sensors_of(mbs, ii, exu, slider, JOINT_OUTPUTS) + sensors_of(mbs, ii, exu, revolute, JOINT_OUTPUTS)
               + sensors_of(mbs, ii, exu, rod, ["Position", "AngularVelocity"], "SensorBody"))
    mbs.Assemble()
    return mbs, sensors, models.tight_settings(exu, 300, 1e-3)


def cardan_offset(mbs, t, itemNumber, parameters):
    """A prescribed relative motion starting at rest: translation along the joint x axis, Tait-Bryan angles."""
    a, b, c = parameters[0], parameters[3], parameters[5]
    return [a * (1 - np.cos(3 * t)), 0.0, 0.0, b * (1 - np.cos(t)), 0.0, c * (1 - np.cos(2 * t))]


def generic_joints(exu, ii, utilities):
    """ObjectJointGeneric with subsets of the axes, joint frames through the (deprecated) rotationMarker0/1:
    body A slides along and turns about axes of a tilted frame on the ground ([1,0,1, 0,1,1]), body B hangs on
    A with only the rotation about x locked ([1,1,1, 1,0,0]); body C follows an offsetUserFunction with all
    axes locked."""
    mbs = exu.SystemContainer().AddSystem()
    frame, pivot = rotation_xyz(0.3, 0.2, -0.4), np.array([0.0, 0.1, 0.2])
    rotation_a, position_a = rotation_xyz(-0.1, 0.2, 0.1), pivot + frame @ [0.0, 0.1, -0.3]
    point_a = pivot + frame @ [0.0, 0.1, 0.0]                 # A's joint point: on the ground frame's y axis
    omega_a = 1.2 * frame[:, 0]
    velocity_a = 0.4 * frame[:, 1] + np.cross(omega_a, position_a - point_a)
    body_a = rigid_body(mbs, ii, position_a, rotation_a, velocity_a, omega_a)
    rotation_b, position_b = rotation_xyz(0.2, 0.0, 0.3), position_a + np.array([0.1, 0.2, -0.3])
    body_b = rigid_body(mbs, ii, position_b, rotation_b, velocity_a + np.cross(omega_a, position_b - position_a),
                        omega_a, mass=1.0, inertia=(0.03, 0.02, 0.04, 0.0, 0.0, 0.0))
    rotation_c, position_c = rotation_xyz(0.0, -0.3, 0.5), np.array([-0.5, 0.0, 0.0])
    body_c = rigid_body(mbs, ii, position_c, rotation_c, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], mass=2.0)
    ground = mbs.AddObject(ii.ObjectGround())
    on_ground = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=ground, localPosition=list(pivot)))
    on_a = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body_a,
                                            localPosition=list(rotation_a.T @ (point_a - position_a))))
    slide = mbs.AddObject(ii.ObjectJointGeneric(markerNumbers=[on_ground, on_a], constrainedAxes=[1, 0, 1, 0, 1, 1],
                                                rotationMarker0=frame, rotationMarker1=rotation_a.T @ frame))
    hinge_point, hinge_frame = position_a + np.array([0.05, 0.1, -0.15]), rotation_xyz(0.5, -0.2, 0.0)
    cardan = mbs.AddObject(ii.ObjectJointGeneric(markerNumbers=[
        joint_marker(mbs, ii, body_a, position_a, rotation_a, hinge_point, np.eye(3)),
        joint_marker(mbs, ii, body_b, position_b, rotation_b, hinge_point, np.eye(3))],
        constrainedAxes=[1, 1, 1, 1, 0, 0], rotationMarker0=hinge_frame, rotationMarker1=hinge_frame))
    driven = mbs.AddObject(ii.ObjectJointGeneric(markerNumbers=[
        joint_marker(mbs, ii, ground, np.zeros(3), np.eye(3), position_c, frame),
        joint_marker(mbs, ii, body_c, position_c, rotation_c, position_c, frame)],
        offsetUserFunction=cardan_offset, offsetUserFunctionParameters=[0.05, 0.0, 0.0, 0.1, 0.0, 0.2]))
    sensors = (sensors_of(mbs, ii, exu, slide, JOINT_OUTPUTS) + sensors_of(mbs, ii, exu, cardan, JOINT_OUTPUTS)
               + sensors_of(mbs, ii, exu, driven, JOINT_OUTPUTS)
               + sensors_of(mbs, ii, exu, body_b, ["Position", "AngularVelocity"], "SensorBody"))
    mbs.Assemble()
    return mbs, sensors, models.tight_settings(exu, 300, 1e-3)


def created_joints(exu, ii, utilities):
    """The Create functions: a double pendulum on CreateRevoluteJoint (global axis, and one in body 0's frame), a
    slider on CreatePrismaticJoint, a body on CreateGenericJoint (rotated axes in body 0's frame, rotation about
    the joint x axis and translation along y free) and a mass point on CreateSphericalJoint."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.CreateGround(referencePosition=[0, 0, 0])
    inertia = utilities.InertiaCuboid(density=1000.0, sideLengths=[0.2, 0.1, 0.05])
    upper = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0.1, 0.0, 0.0],
                                referenceRotationMatrix=rotation_xyz(0.0, 0.0, 0.2), gravity=GRAVITY)
    lower = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0.3, 0.0, -0.05],
                                referenceRotationMatrix=rotation_xyz(0.3, -0.1, 0.2), gravity=GRAVITY)
    hinges = [mbs.CreateRevoluteJoint(itemNumbers=[ground, upper], position=[0.0, 0.0, 0.0], axis=[0.1, 1.0, 0.0]),
              mbs.CreateRevoluteJoint(name="elbow", itemNumbers=[upper, lower], position=[0.1, 0.0, 0.0],
                                      axis=[0.0, 1.0, 0.2], useGlobalFrame=False)]
    cart = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0.0, 1.0, 0.0], initialVelocity=[0.3, 0.0, 0.3],
                               referenceRotationMatrix=rotation_xyz(0.2, 0.0, 0.1), gravity=GRAVITY)
    slider = mbs.CreatePrismaticJoint(itemNumbers=[ground, cart], position=[0.0, 1.0, 0.0], axis=[1.0, 0.0, 1.0])
    tilted = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0.0, -1.0, 0.0],
                                 referenceRotationMatrix=rotation_xyz(0.1, 0.2, 0.3), gravity=GRAVITY)
    generic = mbs.CreateGenericJoint(itemNumbers=[tilted, ground], position=[0.05, 0.0, 0.02],
                                     rotationMatrixAxes=rotation_xyz(0.4, 0.0, -0.3),
                                     constrainedAxes=[1, 0, 1, 0, 1, 1], useGlobalFrame=False)
    point = mbs.CreateMassPoint(referencePosition=[1.0, 0.0, -0.4], initialVelocity=[0.0, 0.5, 0.0], mass=0.5,
                                gravity=GRAVITY)
    ball = mbs.CreateSphericalJoint(itemNumbers=[lower, point], position=[1.0, 0.0, -0.4], constrainedAxes=[1, 0, 1])
    sensors = (sensors_of(mbs, ii, exu, hinges[0], ["Rotation", "ForceLocal", "TorqueLocal"])
               + sensors_of(mbs, ii, exu, hinges[1], ["Rotation", "AngularVelocityLocal", "ForceLocal"])
               + sensors_of(mbs, ii, exu, slider, ["DisplacementLocal", "VelocityLocal", "ForceLocal"])
               + sensors_of(mbs, ii, exu, generic, ["DisplacementLocal", "Rotation", "ForceLocal", "TorqueLocal"])
               + sensors_of(mbs, ii, exu, ball, ["Position", "Displacement", "Velocity", "Force"])
               + sensors_of(mbs, ii, exu, lower, ["Position"], "SensorBody"))
    mbs.Assemble()
    return mbs, sensors, models.tight_settings(exu, 300, 1e-3)


def joints_on_one_dimensional_bodies(exu, ii, utilities):
    """The Create functions on Exudyn's 1D bodies, whose frame is the node's reference coordinate c along (Mass1D)
    or about z of (RotationalMass1D) the body's reference frame: a pendulum on CreateSphericalJoint to a Mass1D
    slider on a turned axis, and a rigid body fixed on a RotationalMass1D by CreateGenericJoint, swinging it."""
    mbs = exu.SystemContainer().AddSystem()
    inertia = utilities.InertiaCuboid(density=1000.0, sideLengths=[0.2, 0.1, 0.05])
    slider_node = mbs.AddNode(ii.Node1D(referenceCoordinates=[0.2]))
    slider = mbs.AddObject(ii.ObjectMass1D(nodeNumber=slider_node, physicsMass=0.7, referencePosition=[0.0, 0.5, 0.0],
                                           referenceRotation=rotation_xyz(0.0, 0.0, 0.3)))
    anchor = np.array([0.0, 0.5, 0.0]) + rotation_xyz(0.0, 0.0, 0.3) @ [0.2, 0.0, 0.0]
    bob = mbs.CreateRigidBody(inertia=inertia, referencePosition=anchor + [0.1, 0.0, -0.2], gravity=GRAVITY)
    ball = mbs.CreateSphericalJoint(itemNumbers=[slider, bob], position=anchor)
    rotor_node = mbs.AddNode(ii.Node1D(referenceCoordinates=[0.4]))
    rotor = mbs.AddObject(ii.ObjectRotationalMass1D(nodeNumber=rotor_node, physicsInertia=0.1,
                                                    referencePosition=[0.0, -0.5, 0.0],
                                                    referenceRotation=rotation_xyz(1.2, 0.0, 0.0)))
    arm = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0.15, -0.5, 0.05],
                              referenceRotationMatrix=rotation_xyz(1.2, 0.0, 0.4), gravity=GRAVITY)
    fixed = mbs.CreateGenericJoint(itemNumbers=[rotor, arm], position=[0.1, -0.5, 0.0], constrainedAxes=[1] * 6)
    sensors = (sensors_of(mbs, ii, exu, ball, ["Position", "Force"])
               + sensors_of(mbs, ii, exu, fixed, ["ForceLocal", "TorqueLocal"])
               + sensors_of(mbs, ii, exu, bob, ["Position", "AngularVelocity"], "SensorBody")
               + sensors_of(mbs, ii, exu, arm, ["Position", "AngularVelocity"], "SensorBody")
               + [mbs.AddSensor(ii.SensorNode(nodeNumber=node, storeInternal=True, writeToFile=False,
                                              outputVariableType=exu.OutputVariableType.Coordinates))
                  for node in (slider_node, rotor_node)])
    mbs.Assemble()
    return mbs, sensors, models.tight_settings(exu, 300, 1e-3)


def converged_settings(settings):
    """Full Newton to a relative 1e-14 on both sides: the reactions (Lagrange multipliers of the index-3 DAE) are
    sensitive to where Newton stops; with the tolerance 1e-12 of tight_settings, Exudyn's ForceLocal and
    TorqueLocal change by up to 1e-5 of their scale between its modified and full Newton (and floatframe's by
    3e-6), measured on these models; the motion agrees to 1e-9 either way."""
    settings.timeIntegration.newton.useModifiedNewton = False
    settings.timeIntegration.newton.relativeTolerance = 1e-14
    settings.timeIntegration.newton.absoluteTolerance = 1e-16
    return settings


def run(builder, exu, ii, utilities, **solve):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)          # rotationMarker0/1, on both sides
        mbs, sensors, settings = builder(exu, ii, utilities)
        exu.SolveDynamic(mbs, converged_settings(settings), **solve)
    return [mbs.GetSensorStoredData(s) for s in sensors]


def exudyn_run(builder, **solve):
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    import exudyn.utilities as utilities
    return run(builder, exu, items, utilities, **solve)


def assert_sensors_match(reference, ours, tolerance=1e-6):
    assert len(ours) == len(reference)
    for number, (exudyn_data, floatframe_data) in enumerate(zip(reference, ours)):
        assert floatframe_data.shape == exudyn_data.shape, number
        scale = max(np.abs(exudyn_data[:, 1:]).max(), SCALE_FLOOR)
        np.testing.assert_allclose(floatframe_data[:, 0], exudyn_data[:, 0], atol=1e-12)
        np.testing.assert_allclose(floatframe_data[:, 1:], exudyn_data[:, 1:], atol=tolerance * scale, rtol=0,
                                   err_msg=f"sensor {number}")


BUILDERS = [pendulum_on_a_revolute_joint, pendulum_on_a_slider, generic_joints, created_joints,
            joints_on_one_dimensional_bodies]


@pytest.mark.exudyn
@pytest.mark.parametrize("builder", BUILDERS, ids=[b.__name__ for b in BUILDERS])
def test_joint_models_match_exudyn(builder):
    reference = exudyn_run(builder)
    ours = run(builder, ffexu, ffitems, ffutilities)
    assert_sensors_match(reference, ours)


def test_the_models_move_and_the_joints_hold():
    """The comparisons above are not of models at rest: the hinge turns, the slider slides, the driven body
    follows its offset; the inactive joint's reactions are zero and the hinge's free-axis torque too."""
    hinge = run(pendulum_on_a_revolute_joint, ffexu, ffitems, ffutilities)
    assert np.ptp(hinge[4][:, 3]) > 0.4                               # Rotation about the hinge axis [rad]
    assert np.abs(hinge[4][:, 1:3]).max() < 1e-9                      # the locked rotations
    assert np.abs(hinge[7][:, 3]).max() == 0                          # no torque about the free axis
    assert np.abs(hinge[14][:, 1:]).max() == 0 and np.abs(hinge[15][:, 1:]).max() == 0   # inactive: no reactions
    slider = run(pendulum_on_a_slider, ffexu, ffitems, ffutilities)
    assert np.ptp(slider[2][:, 1]) > 0.2                              # DisplacementLocal along the slide axis [m]
    assert np.abs(slider[2][:, 2:]).max() < 1e-12 and np.abs(slider[6][:, 1]).max() == 0
    generic = run(generic_joints, ffexu, ffitems, ffutilities)
    t = generic[18][:, 0]                                             # the driven joint: DisplacementLocal, Rotation
    translation = 0.05 * (1 - np.cos(3 * t))                          # global with all translations locked
    np.testing.assert_allclose(generic[18][:, 1:], np.outer(translation, rotation_xyz(0.3, 0.2, -0.4)[0]), rtol=0,
                               atol=1e-10)
    angles = np.column_stack([0.1 * (1 - np.cos(t)), 0 * t, 0.2 * (1 - np.cos(2 * t))])
    np.testing.assert_allclose(generic[20][:, 1:], angles, rtol=0, atol=1e-10)
    one_dimensional = run(joints_on_one_dimensional_bodies, ffexu, ffitems, ffutilities)
    slid, turned = one_dimensional[-2][:, 1], one_dimensional[-1][:, 1]      # the Node1D coordinates' changes
    assert np.ptp(slid) > 0.05 and np.ptp(turned) > 0.3


@pytest.mark.exudyn
def test_at_index_2_the_offset_is_held_at_its_start_value_as_in_exudyn():
    """TrapezoidalIndex2: the velocity-level equations have no offsetUserFunction_t (Exudyn 1.13.6 does not
    implement it), so the driven body of generic_joints stays at rest in both (its eight outputs equal: measured
    to the last bit)."""
    exu = pytest.importorskip("exudyn")
    reference = exudyn_run(generic_joints, solverType=exu.DynamicSolverType.TrapezoidalIndex2)[16:24]
    ours = run(generic_joints, ffexu, ffitems, ffutilities, solverType=ffexu.DynamicSolverType.TrapezoidalIndex2)[16:24]
    assert_sensors_match(reference, ours, tolerance=1e-12)
    assert np.abs(ours[2][:, 1:]).max() < 1e-12 and np.abs(ours[6][:, 1:]).max() > 10   # at rest, held by the joint


INDEX2_TOLERANCE = 5e-8


@pytest.mark.exudyn
@pytest.mark.parametrize("builder", BUILDERS, ids=[b.__name__ for b in BUILDERS])
def test_at_index_2_the_joint_models_match_exudyn(builder):
    """TrapezoidalIndex2, where the Euler-parameter norm drifts: the layer's joints take Exudyn's velocity rows
    (GenericJoint(velocity_form="exudyn")). Largest difference over each sensor / its scale, measured: hinge
    1.6e-8, pendulum on the cart 1.0e-8, generic joints 9.9e-9, Create functions 4.8e-12, 1D bodies 6.2e-13 (the
    d/dt rows before: 7.2e-5, 9.9e-4, 1.4e-6, 5.2e-6, 7.7e-7). What is left is in the reactions (ForceLocal,
    TorqueLocal) of the models that start moving: their multipliers at t = 0 differ by 1e-8 of their scale
    (the initial accelerations), and the trapezoidal rule carries that on with alternating sign; the motion and
    the velocity outputs agree to 1e-12; the SphericalJoint's Velocity output is Exudyn's v + A_E (omega_b x p)
    (2.2e-15; as dx/dt it was 3.3e-7 off)."""
    exu = pytest.importorskip("exudyn")
    reference = exudyn_run(builder, solverType=exu.DynamicSolverType.TrapezoidalIndex2)
    ours = run(builder, ffexu, ffitems, ffutilities, solverType=ffexu.DynamicSolverType.TrapezoidalIndex2)
    for exudyn_data, floatframe_data in zip(reference, ours):
        assert_sensors_match([exudyn_data], [floatframe_data], INDEX2_TOLERANCE)


@pytest.mark.exudyn
def test_with_newmark_at_index_2_the_cart_and_pendulum_match_exudyn():
    """generalizedAlpha with useIndex2Constraints and useNewmark (as Exudyn's serialRobotFlexible): measured
    1.0e-8 of each sensor's scale (the reactions, as above; before 9.9e-4)."""
    pytest.importorskip("exudyn")

    def newmark_index2(builder):
        def build(exu, ii, utilities):
            mbs, sensors, settings = builder(exu, ii, utilities)
            settings.timeIntegration.generalizedAlpha.useIndex2Constraints = True
            settings.timeIntegration.generalizedAlpha.useNewmark = True
            return mbs, sensors, settings
        return build

    reference = exudyn_run(newmark_index2(pendulum_on_a_slider))
    ours = run(newmark_index2(pendulum_on_a_slider), ffexu, ffitems, ffutilities)
    assert_sensors_match(reference, ours, INDEX2_TOLERANCE)


def two_rigid_markers(mbs):
    ground = mbs.AddObject(ffitems.ObjectGround())
    node = mbs.AddNode(ffitems.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0, 1, 0, 0, 0]))
    body = mbs.AddObject(ffitems.ObjectRigidBody(nodeNumber=node, mass=1.0, inertia=[1, 1, 1, 0, 0, 0]))
    return [mbs.AddMarker(ffitems.MarkerBodyRigid(bodyNumber=number)) for number in (ground, body)]


REFUSALS = [
    (dict(item="ObjectJointGeneric", constrainedAxes=[1, 1, 1, 1, 1]),
     r"ObjectJointGeneric 2 'object2': parameter 'constrainedAxes' = \[1, 1, 1, 1, 1\] must be six flags 0 \(free\) "
     r"or 1 \(constrained\)"),
    (dict(item="ObjectJointGeneric", constrainedAxes=[1, 1, 2, 1, 1, 1]),
     r"parameter 'constrainedAxes' = \[1, 1, 2, 1, 1, 1\] must be six flags"),
    (dict(item="ObjectJointGeneric", offsetUserFunction_t=lambda mbs, t, number, parameters: [0.0] * 6),
     r"ObjectJointGeneric 2 'object2': parameter 'offsetUserFunction_t' = .* is not supported: the offset acts on "
     r"position level \(Exudyn 1.13.6 does not implement offsetUserFunction_t either\)"),
    (dict(item="ObjectJointGeneric", alternativeConstraints=True),
     r"parameter 'alternativeConstraints' = True is not supported"),
    (dict(item="ObjectJointGeneric", offsetUserFunction=lambda *args: [0.0] * 6, offsetUserFunctionParameters=[0, 1]),
     r"parameter 'offsetUserFunctionParameters' = \[0, 1\] must have 6 values"),
    (dict(item="ObjectJointRevoluteZ", rotationMarker1=2 * np.eye(3)),
     r"ObjectJointRevoluteZ 2 'object2': rotationMarker1 must be a rotation matrix"),
    (dict(item="ObjectJointPrismaticX", position_marker=True, name="slider"),
     r"ObjectJointPrismaticX 2 'slider': markerNumbers\[1\] = 2 is a MarkerBodyPosition, which gives no "
     r"orientation; the joint needs rigid markers \(MarkerNodeRigid, MarkerBodyRigid, MarkerSuperElementRigid\)"),
]


@pytest.mark.parametrize("case, message", REFUSALS, ids=[str(i) for i in range(len(REFUSALS))])
def test_what_a_joint_item_cannot_be_is_refused_at_assembly_naming_it(case, message):
    case = dict(case)
    mbs = ffexu.SystemContainer().AddSystem()
    markers = two_rigid_markers(mbs)
    if case.pop("position_marker", False):
        markers[1] = mbs.AddMarker(ffitems.MarkerBodyPosition(bodyNumber=1))
    mbs.AddObject(getattr(ffitems, case.pop("item"))(markerNumbers=markers, **case))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(ExudynLayerError, match=message):
            mbs.Assemble()


def test_a_rotation_marker_warns_as_deprecated_and_the_short_names_are_exudyns():
    mbs = ffexu.SystemContainer().AddSystem()
    markers = two_rigid_markers(mbs)
    mbs.AddObject(ffitems.RevoluteJointZ(markerNumbers=markers, rotationMarker0=rotation_xyz(0.1, 0.0, 0.0)))
    with pytest.warns(DeprecationWarning, match=r"ObjectJointRevoluteZ 2 'object2': parameter 'rotationMarker0' is "
                                                r"deprecated in Exudyn since 1.12.244; give the rotation to marker 0 "
                                                r"as its localHT"):
        mbs.Assemble()
    assert [type(ffitems.GenericJoint()).__name__, type(ffitems.PrismaticJointX()).__name__] == \
        ["ObjectJointGeneric", "ObjectJointPrismaticX"]
    assert ffitems.GenericJoint().constrainedAxes == [1, 1, 1, 1, 1, 1]


def test_the_joint_create_functions_refuse_what_they_cannot_build():
    mbs = ffexu.SystemContainer().AddSystem()
    ground = mbs.CreateGround()
    point = mbs.CreateMassPoint(referencePosition=[1.0, 0.0, 0.0], mass=1.0)
    with pytest.raises(ExudynLayerError, match=r"MainSystem.CreateRevoluteJoint: itemNumbers\[1\] = 1 is an "
                                               r"ObjectMassPoint, which has no orientation"):
        mbs.CreateRevoluteJoint(itemNumbers=[ground, point], position=[0, 0, 0], axis=[0, 0, 1])
    with pytest.raises(ExudynLayerError, match=r"MainSystem.CreatePrismaticJoint: axis must be a non-zero vector"):
        mbs.CreatePrismaticJoint(itemNumbers=[ground, ground], position=[0, 0, 0], axis=[0, 0, 0])
    with pytest.raises(ExudynLayerError, match=r"MainSystem.CreateGenericJoint: position must be a vector of 3 "
                                               r"numbers, got \[\]"):
        mbs.CreateGenericJoint(itemNumbers=[ground, ground])
    with pytest.raises(ExudynLayerError, match=r"MainSystem.CreateSphericalJoint: itemNumbers\[0\] must be a body "
                                               r"number"):
        mbs.CreateSphericalJoint(itemNumbers=[None, point], position=[0, 0, 0])


@pytest.mark.exudyn
def test_the_create_functions_add_exudyns_items_with_the_joint_frame_in_the_markers():
    """The same markers (kind, body, localHT with the joint frame, names) and objects as exudyn 1.13.6's
    Create functions, for the joints and the two spring-dampers with frames; no rotationMarker warnings."""
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    import exudyn.utilities as utilities

    def build(package, ii, tools):
        mbs, _, _ = created_joints(package, ii, tools)
        bodies = [1, 2]
        mbs.CreateRigidBodySpringDamper(itemNumbers=bodies, localPosition0=[0.1, 0.0, 0.0], stiffness=np.eye(6),
                                        rotationMatrixJoint=rotation_xyz(0.2, -0.1, 0.4), useGlobalFrame=False)
        mbs.CreateTorsionalSpringDamper(itemNumbers=bodies, position=[0.1, 0.0, 0.0], axis=[0.3, 1.0, 0.0],
                                        stiffness=1.0, unlimitedRotations=False)
        return mbs

    reference = build(exu, items, utilities)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours = build(ffexu, ffitems, ffutilities)
        ours.Assemble()
    count = ours.NumberOfMarkers()
    assert count == reference.systemData.NumberOfMarkers() == 19
    for number in range(count):
        theirs, mine = reference.GetMarker(number), ours.GetMarker(number)
        assert [mine[key] for key in ("markerType", "name")] == [theirs[key] for key in ("markerType", "name")]
        if theirs["markerType"] == "BodyRigid":
            np.testing.assert_allclose(np.asarray(mine["localHT"]), theirs["localHT"], rtol=0, atol=1e-14)
        elif theirs["markerType"] == "BodyPosition":
            np.testing.assert_allclose(mine["localPosition"], theirs["localPosition"], rtol=0, atol=1e-14)
    joints = [number for number in range(ours.NumberOfObjects())
              if ours.GetObject(number)["objectType"].startswith(("Joint", "Connector"))]
    assert len(joints) == 7
    for number in joints:
        theirs, mine = reference.GetObject(number), ours.GetObject(number)
        assert mine["objectType"] == theirs["objectType"] and list(mine["markerNumbers"]) == \
            [int(marker) for marker in theirs["markerNumbers"]]
        for key in ("rotationMarker0", "rotationMarker1"):
            if key in theirs:
                np.testing.assert_array_equal(mine[key], theirs[key])


@pytest.mark.exudyn
@pytest.mark.parametrize("name", ["ObjectJointGeneric", "ObjectJointRevoluteZ", "ObjectJointPrismaticX",
                                  "ObjectJointSpherical"])
def test_the_joint_items_have_exudyns_parameters_in_its_order_with_its_defaults(name):
    pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    theirs = {key: value for key, value in dict(getattr(items, name)()).items() if not key.startswith("V")}
    mine = {key: value for key, value in dict(getattr(ffitems, name)()).items() if not key.startswith("V")}
    assert list(mine) == list(theirs)
    for key, value in theirs.items():
        if key == "markerNumbers":
            assert mine[key] == [int(marker) for marker in value]
        elif not callable(value) and key != "name":
            np.testing.assert_array_equal(mine[key], value, err_msg=key)
    third = list(theirs)[3]                                          # the parameter after markerNumbers
    value = [1, 0, 1, 0, 1, 0][:len(theirs[third])] if third == "constrainedAxes" else rotation_xyz(0.1, 0.2, 0.3)
    exudyn_item, item = (getattr(module, name)("joint", [3, 4], value) for module in (items, ffitems))
    assert (item.name, item.markerNumbers) == ("joint", [3, 4])
    np.testing.assert_array_equal(dict(item)[third], dict(exudyn_item)[third])
