"""SensorUserFunction (issue 28, item 2) against exudyn 1.13.6: evaluated at every stored step with the other
sensors' values and the outputs of that step.

Claims: the angle of a mass point on a circle from its position sensor and an energy from node outputs, over 100
steps, equal exudyn's stored series to 1e-9 of scale; GetSensorValues after the solve equals exudyn's; a missing
function and a sensor number that does not exist are refused naming the item."""
import numpy as np
import pytest

from exudyn_style_models import full_newton_settings

import floatframe.exudyn as ffexu
from floatframe.errors import ModelError
from floatframe.exudyn import itemInterface as ffitems

exudyn = pytest.importorskip("exudyn")
import exudyn.itemInterface as exitems  # noqa: E402


def pendulum(exu, items):
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.AddObject(items.ObjectGround())
    node = mbs.AddNode(items.NodePoint(referenceCoordinates=[1, 0, 0], initialVelocities=[0, 0.5, 0]))
    body = mbs.AddObject(items.ObjectMassPoint(nodeNumber=node, mass=2.0))
    markers = [mbs.AddMarker(items.MarkerBodyPosition(bodyNumber=ground)),
               mbs.AddMarker(items.MarkerNodePosition(nodeNumber=node))]
    mbs.AddObject(items.ObjectConnectorDistance(markerNumbers=markers, distance=1.0))
    mbs.AddLoad(items.LoadMassProportional(markerNumber=mbs.AddMarker(items.MarkerBodyMass(bodyNumber=body)),
                                           loadVector=[0, -9.81, 0]))
    position = mbs.AddSensor(items.SensorNode(nodeNumber=node, storeInternal=True,
                                              outputVariableType=exu.OutputVariableType.Position))

    def angle(mbs, t, sensorNumbers, factors, configuration):
        x, y, _ = mbs.GetSensorValues(sensorNumbers[0])
        return [factors[0] * np.arctan2(y, x)]

    def energy(mbs, t, sensorNumbers, factors, configuration):
        v = mbs.GetNodeOutput(node, exu.OutputVariableType.Velocity)
        y = mbs.GetSensorValues(sensorNumbers[0])[1]
        return [0.5 * factors[0] * v @ v + factors[0] * 9.81 * y, t]

    users = [mbs.AddSensor(items.SensorUserFunction(sensorNumbers=[position], factors=[180 / np.pi],
                                                    storeInternal=True, sensorUserFunction=angle)),
             mbs.AddSensor(items.SensorUserFunction(sensorNumbers=[position], factors=[2.0], storeInternal=True,
                                                    sensorUserFunction=energy))]
    mbs.Assemble()
    settings = full_newton_settings(exu, 100, 0.5)
    exu.SolveDynamic(mbs, settings)
    return [mbs.GetSensorStoredData(s) for s in users], [mbs.GetSensorValues(s) for s in users]


def test_user_function_sensors_equal_exudyns():
    (ours, our_values), (theirs, their_values) = pendulum(ffexu, ffitems), pendulum(exudyn, exitems)
    for mine, reference in zip(ours, theirs):
        assert mine.shape == reference.shape
        assert np.abs(mine - reference).max() <= 1e-9 * np.abs(reference[:, 1:]).max()
    assert abs(theirs[0][-1, 1] - theirs[0][0, 1]) > 5                     # the angle changed by degrees
    for mine, reference in zip(our_values, their_values):
        np.testing.assert_allclose(mine, reference, rtol=1e-9, atol=1e-9)


def test_bad_user_function_sensors_are_refused():
    mbs = ffexu.SystemContainer().AddSystem()
    mbs.AddNode(ffitems.NodePoint())
    mbs.AddSensor(ffitems.SensorUserFunction(sensorNumbers=[], sensorUserFunction=0))
    with pytest.raises(ModelError, match="SensorUserFunction 0.*sensorUserFunction.*must be a function"):
        mbs.Assemble()
    mbs = ffexu.SystemContainer().AddSystem()
    mbs.AddSensor(ffitems.SensorUserFunction(sensorNumbers=[3], sensorUserFunction=lambda *a: [0.0]))
    with pytest.raises(ModelError, match=r"sensorNumbers\[0\] 3 does not exist"):
        mbs.Assemble()
