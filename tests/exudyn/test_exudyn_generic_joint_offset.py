"""ObjectJointGeneric with a rotation offset (offsetUserFunction) and a free translation, against exudyn 1.13.6.

Exudyn turns marker 0's joint frame by the offset rotation in the translation equations too (the axes along
which a subset of translations is constrained); floatframe kept them in the unturned frame, and Exudyn's
genericJointUserFunctionTest ended metres away (body 0 at x, y = -5.32, -9.23 instead of 1.81, 0.26)."""
import numpy as np
import pytest

import floatframe.exudyn as ffexu
from floatframe.exudyn import itemInterface as ffitems


def offset_angles(t):
    """[rot x, rot z] of the offset at time t: a smooth turn to (-pi/20, -pi/5) and back over 4 s."""
    ramp = 0.5 * (1.0 - np.cos(t * 2 * np.pi / 4))
    return -0.5 * np.pi * ramp / 5, -2 * np.pi * ramp / 5


def body_turned_by_its_joint(exu, items):
    """A rigid body under gravity (-y) on a GenericJoint to the ground that leaves the joint's x free and turns
    the body by the offset angles (marker 0 on the body, as in genericJointUserFunctionTest); sensor rows
    [t, x, y, z] of its centre over 1.5 s."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.AddObject(items.ObjectGround())
    on_ground = mbs.AddMarker(items.MarkerBodyRigid(bodyNumber=ground, localPosition=[-0.3, 0, 0]))
    node = mbs.AddNode(items.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0, 1, 0, 0, 0]))
    body = mbs.AddObject(items.ObjectRigidBody(nodeNumber=node, mass=2.0, inertia=[6, 1, 6, 0, 0, 0]))
    mbs.AddLoad(items.LoadMassProportional(markerNumber=mbs.AddMarker(items.MarkerBodyMass(bodyNumber=body)),
                                           loadVector=[0, -9.81, 0]))
    on_body = mbs.AddMarker(items.MarkerBodyRigid(bodyNumber=body, localPosition=[-0.3, 0, 0]))

    def offset(mbs, t, itemNumber, parameters):
        rot_x, rot_z = offset_angles(t)
        return [0, 0, 0, rot_x, 0, rot_z]

    mbs.AddObject(items.ObjectJointGeneric(markerNumbers=[on_body, on_ground], constrainedAxes=[0, 1, 1, 1, 1, 1],
                                           offsetUserFunctionParameters=[0] * 6, offsetUserFunction=offset))
    sensor = mbs.AddSensor(items.SensorBody(bodyNumber=body, outputVariableType=exu.OutputVariableType.Position,
                                            storeInternal=True))
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = 300
    settings.timeIntegration.endTime = 1.5
    settings.timeIntegration.newton.useModifiedNewton = False
    settings.timeIntegration.newton.relativeTolerance = 1e-12
    settings.timeIntegration.generalizedAlpha.spectralRadius = 0.6
    settings.solution.file.write = False
    exu.SolveDynamic(mbs, settings)
    return mbs.GetSensorStoredData(sensor)


@pytest.mark.exudyn
def test_a_rotation_offset_turns_the_axes_of_the_constrained_translations_as_in_exudyn():
    """The centre follows exudyn's to 1e-8 m over 300 steps; the free axis is the ground's x (the offset turns
    the body's joint frame back onto the ground's), so gravity along -y moves the body along none of it."""
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    reference = body_turned_by_its_joint(exu, items)
    ours = body_turned_by_its_joint(ffexu, ffitems)
    assert ours.shape == reference.shape
    np.testing.assert_allclose(ours, reference, rtol=0, atol=1e-8)
    assert np.abs(reference[:, 1]).max() < 1e-9    # no slide along the free x axis
    assert np.abs(reference[:, 2]).max() > 0.05    # while the turn moves the centre along y by centimetres
