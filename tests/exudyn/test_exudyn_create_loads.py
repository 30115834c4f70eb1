"""mbs.CreateForce, mbs.CreateTorque and mbs.CreateCoordinateConstraint in an Exudyn-style script, run on
exudyn 1.13.6 and on floatframe.exudyn (claims marked ``exudyn``):

- every sensor agrees to 1e-8 of its scale: a global force at a body point, a body-fixed force with a user
  function, a body-fixed torque, coordinate constraints to the ground and between two bodies (offset, factor1);
- the arguments that floatframe.exudyn does not take (a node or marker number is ambiguous with a body number
  here) and wrong ones are refused with the function's name.
"""
import numpy as np
import pytest

import exudyn_style_models as models
import floatframe.exudyn as ffexu
from floatframe.exudyn import ExudynLayerError
from floatframe.exudyn import itemInterface as ffitems
from floatframe.exudyn import utilities as ffutilities


def loaded_bodies(exu, ii, utilities):
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.CreateGround(referencePosition=[0, 0, 0])
    inertia = utilities.InertiaCuboid(density=1000.0, sideLengths=[0.2, 0.1, 0.05])
    body = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0.5, 0.0, 0.0], initialVelocity=[0.0, 0.3, 0.0],
                               initialAngularVelocity=[0.2, -0.1, 0.3], gravity=[0.0, 0.0, -9.81])
    point = mbs.CreateMassPoint(referencePosition=[0.0, 1.0, 0.0], physicsMass=0.7, gravity=[0.0, 0.0, -9.81])
    loads = [mbs.CreateForce(itemNumber=body, loadVector=[1.0, -2.0, 0.5], localPosition=[0.1, 0.0, 0.02]),
             mbs.CreateForce(itemNumber=body, loadVector=[0.0, 3.0, 0.0], bodyFixed=True,
                             loadVectorUserFunction=lambda mbs, t, load: np.cos(5 * t) * np.array(load)),
             mbs.CreateTorque(itemNumber=body, loadVector=[0.2, 0.0, -0.1], bodyFixed=True),
             mbs.CreateForce(bodyNumber=point, loadVector=[0.0, 0.0, 2.0])]
    # consistent at the start: the coordinates are displacements from the reference
    constraints = [mbs.CreateCoordinateConstraint(itemNumbers=[None, body], coordinates=[None, 2]),
                   mbs.CreateCoordinateConstraint(itemNumbers=[body, point], coordinates=[0, 0], offset=0.0,
                                                  factor1=2.0),
                   mbs.CreateCoordinateConstraint(itemNumbers=[ground, point], coordinates=[None, 2], offset=0.0)]
    sensors = [mbs.AddSensor(ii.SensorBody(bodyNumber=number, outputVariableType=getattr(exu.OutputVariableType, name),
                                           storeInternal=True, writeToFile=False))
               for number in (body, point) for name in ("Position", "Velocity")]
    sensors.append(mbs.AddSensor(ii.SensorBody(bodyNumber=body, storeInternal=True, writeToFile=False,
                                               outputVariableType=exu.OutputVariableType.AngularVelocity)))
    sensors += [mbs.AddSensor(ii.SensorObject(objectNumber=number, storeInternal=True, writeToFile=False,
                                              outputVariableType=exu.OutputVariableType.Force)) for number in constraints]
    sensors += [mbs.AddSensor(ii.SensorLoad(loadNumber=number, storeInternal=True, writeToFile=False)) for number in loads]
    mbs.Assemble()
    return mbs, sensors, models.tight_settings(exu, 200, 1e-3)


def sensor_data(exu, ii, utilities):
    mbs, sensors, settings = loaded_bodies(exu, ii, utilities)
    exu.SolveDynamic(mbs, settings)
    return [mbs.GetSensorStoredData(number) for number in sensors]


@pytest.mark.exudyn
def test_created_loads_and_coordinate_constraints_match_exudyn():
    exudyn = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    import exudyn.utilities as utilities
    reference = sensor_data(exudyn, items, utilities)
    ours = sensor_data(ffexu, ffitems, ffutilities)
    for number, (theirs, mine) in enumerate(zip(reference, ours)):
        assert mine.shape == theirs.shape
        scale = max(np.abs(theirs[:, 1:]).max(), 1e-3)
        np.testing.assert_allclose(mine[:, 1:], theirs[:, 1:], rtol=0, atol=1e-8 * scale, err_msg=f"sensor {number}")
    assert np.abs(ours[0][:, 3] - 0.0).max() <= 1e-12           # the body's z is held at 0 by the first constraint
    assert np.ptp(ours[0][:, 1]) > 1e-3                          # and it moves in x


def test_create_functions_refuse_what_they_cannot_take():
    mbs = ffexu.SystemContainer().AddSystem()
    body = mbs.CreateMassPoint(referencePosition=[0.0, 0.0, 0.0], physicsMass=1.0)
    with pytest.raises(ExudynLayerError, match=r"MainSystem.CreateForce: itemNumber must be a body number"):
        mbs.CreateForce(itemNumber=None, loadVector=[1, 0, 0])
    with pytest.raises(ExudynLayerError, match=r"MainSystem.CreateTorque: loadVector must be a vector of 3 numbers"):
        mbs.CreateTorque(itemNumber=body, loadVector=[1, 0])
    with pytest.raises(ExudynLayerError, match=r"CreateForce: bodyNumber and itemNumber are given"):
        mbs.CreateForce(itemNumber=body, bodyNumber=body)
    with pytest.raises(ExudynLayerError, match=r"CreateCoordinateConstraint: one of the two items must be a body"):
        mbs.CreateCoordinateConstraint(itemNumbers=[None, None], coordinates=[None, None])
    with pytest.raises(ExudynLayerError, match=r"itemNumbers\[1\] = 0: the body has no coordinate 3"):
        mbs.CreateCoordinateConstraint(itemNumbers=[None, body], coordinates=[None, 3])
    with pytest.raises(ExudynLayerError, match=r"coordinates\[1\] = 'x' is no valid coordinate index"):
        mbs.CreateCoordinateConstraint(itemNumbers=[None, body], coordinates=[None, "x"])
