"""MarkerNodeRotationCoordinate in a velocity-level ObjectConnectorCoordinate (Exudyn's coupling of a rigid body's
rotation to a drive train, driveTrainTest), run on exudyn 1.13.6 and on floatframe.exudyn (claims marked
``exudyn``):

- a rigid body on a revolute joint about z, under gravity, turns several times and drives a Rotor1D through
  q_t = factor1 omega_z (the rotor also takes a torque): every sensor agrees with exudyn to 1e-9 of its scale, on
  an Euler-parameter node and on a Tait-Bryan (Rxyz) node, with the index-3 and the index-2 (Newmark) scheme (the
  connector's force at index 3 to 1e-6, see the test);
- a heavy top on a spherical joint drives the rotor with its omega_z, which is no rate of any angle (the
  constraint is non-holonomic): the same agreement;
- floatframe's steps keep the velocity relation q_t = factor1 omega_z to round-off at index 3 as well;
- two bodies coupled through both rotations with a time-dependent rate offset (offsetUserFunction_t): the same
  agreement and relation;
- any other use of the marker is refused naming the item and the reason.
"""
import numpy as np
import pytest

import exudyn_style_models as models
import floatframe.exudyn as ffexu
from floatframe.exudyn import itemInterface as ffitems
from floatframe.exudyn import utilities as ffutilities
from floatframe.exudyn._names import ExudynLayerError

FACTOR = 2.5          # q_rotor_t = FACTOR omega_z
STEPS, H = 1500, 1e-3


def coupled_body(exu, ii, utilities, node_type="RotationEulerParameters", top=False):
    """A cuboid on a joint at the origin, its centre of mass 0.3 m away, gravity -y (revolute joint about z: it
    loops, starting at 9 rad/s), or along -z (``top``: a spherical joint, spinning about its tilted axis); a Rotor1D
    coupled to omega_z at velocity level, with a torque 0.4 sin(3 t) N m. Returns (mbs, sensor numbers)."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.AddObject(ii.ObjectGround())
    if top:
        axis = utilities.RotationMatrixX(0.4) @ np.array([0.0, 0.0, 1.0])
        body = mbs.CreateRigidBody(inertia=utilities.InertiaCuboid(2000.0, [0.1, 0.1, 0.6]),
                                   referencePosition=0.3 * axis, referenceRotationMatrix=utilities.RotationMatrixX(0.4),
                                   initialAngularVelocity=list(30.0 * axis), gravity=[0.0, 0.0, -9.81],
                                   nodeType=getattr(exu.NodeType, node_type))
        omega0 = 30.0 * axis[2]
    else:
        body = mbs.CreateRigidBody(inertia=utilities.InertiaCuboid(2000.0, [0.6, 0.1, 0.1]),
                                   referencePosition=[0.3, 0.0, 0.0],
                                   initialAngularVelocity=[0.0, 0.0, 9.0], initialVelocity=[0.0, 2.7, 0.0],
                                   gravity=[0.0, -9.81, 0.0], nodeType=getattr(exu.NodeType, node_type))
        omega0 = 9.0
    node = mbs.GetObject(body)["nodeNumber"]
    centre = [0.0, 0.0, -0.3] if top else [-0.3, 0.0, 0.0]
    markers = [mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=ground, localPosition=[0.0, 0.0, 0.0])),
               mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body, localPosition=centre))]
    mbs.AddObject(ii.ObjectJointGeneric(markerNumbers=markers,
                                        constrainedAxes=[1, 1, 1, 0, 0, 0] if top else [1, 1, 1, 1, 1, 0]))
    rotor_node = mbs.AddNode(ii.Node1D(referenceCoordinates=[0.0], initialVelocities=[FACTOR * omega0]))
    rotor = mbs.AddObject(ii.ObjectRotationalMass1D(inertia=0.05, nodeNumber=rotor_node,
                                                    referencePosition=[0.0, 0.0, -1.0]))
    rotor_coordinate = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=rotor_node, coordinate=0))
    body_rotation = mbs.AddMarker(ii.MarkerNodeRotationCoordinate(nodeNumber=node, rotationCoordinate=2))
    coupling = mbs.AddObject(ii.ObjectConnectorCoordinate(markerNumbers=[rotor_coordinate, body_rotation],
                                                          factor1=FACTOR, velocityLevel=True))
    mbs.AddLoad(ii.LoadCoordinate(markerNumber=rotor_coordinate, load=0.4,
                                  loadUserFunction=lambda mbs, t, load: load * np.sin(3.0 * t)))
    variables = exu.OutputVariableType
    sensors = [mbs.AddSensor(ii.SensorNode(nodeNumber=node, outputVariableType=variable, storeInternal=True))
               for variable in (variables.Position, variables.AngularVelocity, variables.RotationMatrix)]
    sensors += [mbs.AddSensor(ii.SensorNode(nodeNumber=rotor_node, outputVariableType=variable, storeInternal=True))
                for variable in (variables.Coordinates, variables.Coordinates_t)]
    sensors += [mbs.AddSensor(ii.SensorBody(bodyNumber=rotor, outputVariableType=variables.AngularVelocity,
                                            storeInternal=True))]
    sensors += [mbs.AddSensor(ii.SensorObject(objectNumber=coupling, outputVariableType=variable, storeInternal=True))
                for variable in (variables.Force, variables.Velocity)]
    mbs.Assemble()
    return mbs, sensors


def run(exu, ii, utilities, node_type="RotationEulerParameters", top=False, index2=False):
    mbs, sensors = coupled_body(exu, ii, utilities, node_type, top)
    settings = models.tight_settings(exu, STEPS, H)
    if index2:   # driveTrainTest's scheme
        settings.timeIntegration.generalizedAlpha.useIndex2Constraints = True
        settings.timeIntegration.generalizedAlpha.useNewmark = True
    exu.SolveDynamic(mbs, settings)
    return [mbs.GetSensorStoredData(number) for number in sensors]


CASES = {"revolute EP": dict(), "revolute Rxyz": dict(node_type="RotationRxyz"),
         "revolute EP index 2": dict(index2=True), "top EP": dict(top=True),
         "top EP index 2": dict(top=True, index2=True)}


@pytest.fixture(scope="module", params=list(CASES))
def both(request):
    exudyn = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    import exudyn.utilities as utilities
    options = CASES[request.param]
    return run(exudyn, items, utilities, **options), run(ffexu, ffitems, ffutilities, **options), options


@pytest.mark.exudyn
def test_sensors_match_exudyn(both):
    """Each sensor to 1e-9 of its largest value (the connector's Velocity to 1e-9 of the rotor's rate); the
    connector's Force at index 3 to 1e-6: exudyn's index-3 scheme imposes the connector as a velocity row,
    floatframe as the position row s = 0 of its auxiliary coordinate; the motion is the same, the multipliers carry
    the Newton residual amplified by 1/(beta h^2) instead of 1/(gamma h) (measured up to 4.7e-8 of the scale; with
    full Newton to 1e-14 both codes' forces come to 1.1e-8 of each other)."""
    reference, ours, options = both
    for number, (theirs, mine) in enumerate(zip(reference, ours)):
        assert mine.shape == theirs.shape == (STEPS + 1, theirs.shape[1])
        scale = np.abs(reference[4 if number == 7 else number][:, 1:]).max()
        tolerance = 1e-6 if number == 6 and not options.get("index2") else 1e-9
        np.testing.assert_allclose(mine[:, 1:], theirs[:, 1:], rtol=0, atol=tolerance * scale,
                                   err_msg=f"sensor {number}")


@pytest.mark.exudyn
def test_the_body_turns_and_drives_the_rotor(both):
    """Several turns of the rotor, q_t = FACTOR omega_z at every step to round-off (index 3 as well), and the
    coupling carries a torque."""
    _, ours, options = both
    omega_z, rotor_angle, rotor_rate = ours[1][:, 3], ours[3][:, 1], ours[4][:, 1]
    np.testing.assert_allclose(rotor_rate, FACTOR * omega_z, rtol=0, atol=1e-10 * np.abs(rotor_rate).max())
    assert abs(rotor_angle[-1]) > (4 if options.get("top") else 2) * 2 * np.pi * FACTOR   # turns of omega_z
    assert np.abs(ours[6][:, 1]).max() > 0.1


def two_cranks(exu, ii, utilities, index2):
    """Two bars on revolute joints about z under gravity, coupled by omega_1 - omega_0 = offsetUserFunction_t(t) =
    -2 + sin(3 t) (both markers MarkerNodeRotationCoordinate, as Exudyn's Examples pistonEngine and openVRengine);
    stored sensors: both angular velocities and the connector's force; then the connector's Displacement at the
    end."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.AddObject(ii.ObjectGround())
    nodes = []
    for x, omega in ((0.0, 3.0), (1.0, 1.0)):
        body = mbs.CreateRigidBody(inertia=utilities.InertiaCuboid(1000.0, [0.4, 0.1, 0.1]),
                                   referencePosition=[x + 0.2, 0.0, 0.0], initialAngularVelocity=[0.0, 0.0, omega],
                                   initialVelocity=[0.0, 0.2 * omega, 0.0], gravity=[0.0, -9.81, 0.0])
        markers = [mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=ground, localPosition=[x, 0.0, 0.0])),
                   mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body, localPosition=[-0.2, 0.0, 0.0]))]
        mbs.AddObject(ii.ObjectJointGeneric(markerNumbers=markers, constrainedAxes=[1, 1, 1, 1, 1, 0]))
        nodes.append(mbs.GetObject(body)["nodeNumber"])
    rotations = [mbs.AddMarker(ii.MarkerNodeRotationCoordinate(nodeNumber=node, rotationCoordinate=2))
                 for node in nodes]
    coupling = mbs.AddObject(ii.ObjectConnectorCoordinate(
        markerNumbers=rotations, velocityLevel=True, offset=0.5,
        offsetUserFunction_t=lambda mbs, t, number, offset: -4 * offset + np.sin(3.0 * t)))
    variables = exu.OutputVariableType
    sensors = [mbs.AddSensor(ii.SensorNode(nodeNumber=node, outputVariableType=variables.AngularVelocity,
                                           storeInternal=True)) for node in nodes]
    sensors.append(mbs.AddSensor(ii.SensorObject(objectNumber=coupling, outputVariableType=variables.Force,
                                                 storeInternal=True)))
    mbs.Assemble()
    settings = models.tight_settings(exu, 1000, 1e-3)
    settings.timeIntegration.generalizedAlpha.useIndex2Constraints = index2
    settings.timeIntegration.generalizedAlpha.useNewmark = index2
    exu.SolveDynamic(mbs, settings)
    final = np.ravel(mbs.GetObjectOutput(coupling, variables.Displacement))
    return [mbs.GetSensorStoredData(number) for number in sensors] + [final]


@pytest.mark.exudyn
@pytest.mark.parametrize("index2", [False, True])
def test_two_rotation_markers_with_a_rate_offset_match_exudyn(index2):
    """omega_1 - omega_0 = offsetUserFunction_t(t) at every step (index 3 as well: 1e-9 of the rates), and the
    angular velocities to 1e-9 of their scale against exudyn, the Displacement (difference of the Tait-Bryan
    angles) at the end to 1e-9 rad, the force to 1e-9 at index 2 and 1e-6 at index 3 (as
    in test_sensors_match_exudyn: measured 1.8e-7)."""
    exudyn = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    import exudyn.utilities as utilities
    reference = two_cranks(exudyn, items, utilities, index2)
    ours = two_cranks(ffexu, ffitems, ffutilities, index2)
    np.testing.assert_allclose(ours.pop(), reference.pop(), rtol=0, atol=1e-9)   # rot_z(1) - rot_z(0) at the end
    for number, (theirs, mine) in enumerate(zip(reference, ours)):
        tolerance = 1e-6 if number == 2 and not index2 else 1e-9
        np.testing.assert_allclose(mine, theirs, rtol=0, atol=tolerance * np.abs(theirs[:, 1:]).max(),
                                   err_msg=f"sensor {number}")
    t, omega0, omega1 = ours[0][:, 0], ours[0][:, 3], ours[1][:, 3]
    np.testing.assert_allclose(omega1 - omega0, -2.0 + np.sin(3.0 * t), rtol=0, atol=1e-9 * np.abs(omega0).max())
    assert np.ptp(omega0) > 1.0 and np.abs(ours[2][:, 1]).max() > 0.1


def test_the_rotation_coordinate_marker_is_refused_elsewhere():
    """At position level, in a load, or on a node without rotation: refused naming the item and the reason."""
    def model(velocity_level=True, load=False, point=False):
        mbs = ffexu.SystemContainer().AddSystem()
        if point:
            node = mbs.AddNode(ffitems.NodePoint(referenceCoordinates=[0.0, 0.0, 0.0]))
            mbs.AddObject(ffitems.ObjectMassPoint(nodeNumber=node, mass=1.0))
        else:
            body = mbs.CreateRigidBody(inertia=ffutilities.InertiaCuboid(1000.0, [0.1, 0.2, 0.3]))
            node = mbs.GetObject(body)["nodeNumber"]
        rotor_node = mbs.AddNode(ffitems.Node1D(referenceCoordinates=[0.0]))
        mbs.AddObject(ffitems.ObjectRotationalMass1D(inertia=0.05, nodeNumber=rotor_node))
        rotor_coordinate = mbs.AddMarker(ffitems.MarkerNodeCoordinate(nodeNumber=rotor_node, coordinate=0))
        rotation = mbs.AddMarker(ffitems.MarkerNodeRotationCoordinate(nodeNumber=node, rotationCoordinate=2))
        mbs.AddObject(ffitems.ObjectConnectorCoordinate(markerNumbers=[rotor_coordinate, rotation],
                                                        velocityLevel=velocity_level))
        if load:
            mbs.AddLoad(ffitems.LoadCoordinate(markerNumber=rotation, load=1.0))
        mbs.Assemble()

    model()
    with pytest.raises(ExudynLayerError, match=r"ObjectConnectorCoordinate 2 .*: parameter 'velocityLevel' = False "
                                               r"must be True with a MarkerNodeRotationCoordinate: its value, a "
                                               r"Tait-Bryan angle"):
        model(velocity_level=False)
    with pytest.raises(ExudynLayerError, match=r"MarkerNodeRotationCoordinate 1 .*is used by LoadCoordinate 0 .*: "
                                               r"its value.*velocityLevel=True only"):
        model(load=True)
    with pytest.raises(ExudynLayerError, match=r"MarkerNodeRotationCoordinate 1 .*: parameter 'nodeNumber' = 0 must "
                                               r"be a NodeRigidBodyEP or NodeRigidBodyRxyz"):
        model(point=True)
