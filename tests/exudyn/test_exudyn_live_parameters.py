"""Set...Parameter on loads and connector coefficients takes effect at once, also from a pre-step
function during a solve, with exudyn 1.13.6's numbers; other parameters are refused during a solve."""
import numpy as np
import pytest

import floatframe.exudyn as ffexu
from exudyn_style_models import tight_settings
from floatframe.exudyn import itemInterface as ffitems

EP0 = [1.0, 0.0, 0.0, 0.0]


def driven_body(exu, ii, also_before_each_step=None):
    """A rigid body on a spring to the ground (x) and on a prescribed coordinate (y); a pre-step function
    switches the push along x with time and moves the prescribed y coordinate, as Exudyn scripts do (and calls
    ``also_before_each_step(mbs, t)``)."""
    mbs = exu.SystemContainer().AddSystem()
    node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0] + EP0))
    body = mbs.AddObject(ii.ObjectRigidBody(nodeNumber=node, mass=2.0, inertia=[0.1, 0.2, 0.3, 0, 0, 0]))
    ground = mbs.AddObject(ii.ObjectGround(referencePosition=[0, 0, 0]))
    fixed = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, 0]))
    point = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=body, localPosition=[0.1, 0, 0]))
    spring = mbs.AddObject(ii.ObjectConnectorCartesianSpringDamper(markerNumbers=[fixed, point],
                                                                   stiffness=[100.0, 0, 100.0], damping=[1.0, 0, 1.0],
                                                                   offset=[0.1, 0, 0]))
    ground_node = mbs.AddNode(ii.NodePointGround(referenceCoordinates=[0, 0, 0]))
    ground_y = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=ground_node, coordinate=1))
    body_y = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=node, coordinate=1))
    slider = mbs.AddObject(ii.ObjectConnectorCoordinate(markerNumbers=[ground_y, body_y]))
    push = mbs.AddLoad(ii.LoadForceVector(markerNumber=point, loadVector=[0, 0, 0]))
    sensor = mbs.AddSensor(ii.SensorNode(nodeNumber=node, storeInternal=True, writeToFile=False,
                                         outputVariableType=exu.OutputVariableType.Position))

    def pre_step(mbs, t):
        mbs.SetLoadParameter(push, "loadVector", [5.0 if t > 0.1 else 0.0, 0, 2.0 * t])
        mbs.SetObjectParameter(slider, "offset", 0.3 * np.sin(4 * t))
        mbs.SetObjectParameter(spring, "stiffness", [100.0 + 500.0 * t, 0, 100.0])
        if also_before_each_step is not None:
            also_before_each_step(mbs, t)
        return True

    mbs.SetPreStepUserFunction(pre_step)
    mbs.Assemble()
    return mbs, sensor


def run(exu, ii):
    mbs, sensor = driven_body(exu, ii)
    mbs.SolveDynamic(tight_settings(exu, 40, 0.01))
    return mbs.GetSensorStoredData(sensor)


@pytest.mark.exudyn
def test_loads_offsets_and_stiffness_changed_in_a_pre_step_function_give_exudyns_motion():
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    reference, ours = run(exu, items), run(ffexu, ffitems)
    scale = np.abs(reference[:, 1:]).max()
    np.testing.assert_allclose(ours[:, 0], reference[:, 0], atol=1e-12)
    np.testing.assert_allclose(ours[:, 1:], reference[:, 1:], rtol=0, atol=1e-8 * scale)
    np.testing.assert_allclose(ours[1:, 2], 0.3 * np.sin(4 * ours[1:, 0]), atol=1e-12)  # prescribed y


def recorded_parameter_sensors(exu, ii, with_user_function=False):
    """The spring's force (its stiffness changes) and the push (its load vector changes) as sensors record them,
    step by step; ``with_user_function``: the model also has a load given by a Python function that floatframe calls
    back (its max() cannot be traced), so the sensors are evaluated state by state."""
    mbs, _ = driven_body(exu, ii)
    spring, push = 2, 0
    if with_user_function:
        centre = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=0, localPosition=[0, 0, 0]))
        mbs.AddLoad(ii.LoadForceVector(markerNumber=centre, loadVector=[0, 0, 0],
                                       loadVectorUserFunction=lambda mbs, t, load: [0.0, 0.0, max(t - 0.2, 0.0)]))
    sensors = [mbs.AddSensor(ii.SensorObject(objectNumber=spring, storeInternal=True, writeToFile=False,
                                             outputVariableType=exu.OutputVariableType.Force)),
               mbs.AddSensor(ii.SensorLoad(loadNumber=push, storeInternal=True, writeToFile=False))]
    mbs.Assemble()
    mbs.SolveDynamic(tight_settings(exu, 40, 0.01))
    return [mbs.GetSensorStoredData(sensor) for sensor in sensors]


@pytest.mark.exudyn
@pytest.mark.parametrize("with_user_function", [False, True], ids=["compiled", "with a Python user function"])
def test_sensors_record_each_step_with_the_parameters_the_pre_step_function_set_for_it(with_user_function):
    """A stored row holds the outputs with the parameters of its own step, not those at the end of the solve:
    the push's z load is 2 t at each row (the pre-step function sets it for the step ending at t), as in exudyn."""
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    for reference, ours in zip(recorded_parameter_sensors(exu, items, with_user_function),
                               recorded_parameter_sensors(ffexu, ffitems, with_user_function)):
        scale = np.abs(reference[:, 1:]).max()
        assert scale > 1e-3
        np.testing.assert_allclose(ours, reference, rtol=0, atol=1e-8 * scale)
    _, load = recorded_parameter_sensors(ffexu, ffitems, with_user_function)
    np.testing.assert_allclose(load[1:, 3], 2.0 * load[1:, 0], rtol=0, atol=1e-15)
    assert load[0, 3] == 0.0   # the initial row: before any pre-step call


def test_the_changes_do_move_the_body():
    """Without the pre-step function the body stays at rest: the agreement above is not trivial."""
    mbs, sensor = driven_body(ffexu, ffitems)
    mbs.SetPreStepUserFunction(None)
    mbs.SolveDynamic(tight_settings(ffexu, 40, 0.01))
    still = mbs.GetSensorStoredData(sensor)
    moved = run(ffexu, ffitems)
    assert np.abs(still[:, 1:]).max() < 1e-12
    assert np.abs(moved[:, 1:]).max() > 1e-2


def test_a_parameter_that_needs_assembly_is_refused_during_a_solve():
    """Other parameters would need a new assembly: refused, naming what can change and what to do."""
    mbs, _ = driven_body(ffexu, ffitems)

    def pre_step(mbs, t):
        mbs.SetObjectParameter(0, "mass", 3.0)
        return True

    mbs.SetPreStepUserFunction(pre_step)
    with pytest.raises(ffexu.ExudynLayerError, match=r"SetObjectParameter\(0, 'mass'\): floatframe can change "
                                                     r"no parameter of a ObjectRigidBody during a solve.*"
                                                     r"mbs.variables"):
        mbs.SolveDynamic(tight_settings(ffexu, 40, 0.01))


def test_outside_a_solve_a_live_parameter_changes_the_assembled_system_without_assembly():
    mbs, _ = driven_body(ffexu, ffitems)
    mbs.SetLoadParameter(0, "loadVector", [1.0, 2.0, 3.0])
    assembled = mbs.GetAssembledSystem()  # still assembled: no error
    np.testing.assert_allclose(assembled.parameter_values["load0.loadVector"], [1.0, 2.0, 3.0])


def test_visualization_entries_are_set_also_during_a_solve_as_in_exudyn():
    """Exudyn lets SetObjectParameter change 'Vshow' at any time (mainSystemUserFunctionsTest does it in a pre-step
    function); the layer keeps the value (nothing is drawn) and does not re-assemble."""
    exudyn = pytest.importorskip("exudyn")
    import exudyn.itemInterface as exitems
    import floatframe.exudyn as ffexu
    import floatframe.exudyn.itemInterface as ffitems

    shown = []
    for exu, items in ((ffexu, ffitems), (exudyn, exitems)):
        mbs = exu.SystemContainer().AddSystem()
        node = mbs.AddNode(items.NodePoint(referenceCoordinates=[0, 0, 0], initialVelocities=[1, 0, 0]))
        mbs.AddObject(items.ObjectMassPoint(nodeNumber=node, mass=1.0))

        def pre_step(mbs, t):
            mbs.SetObjectParameter(0, "Vshow", t < 0.05)
            return True

        mbs.SetPreStepUserFunction(pre_step)
        mbs.Assemble()
        settings = exu.SimulationSettings()
        settings.timeIntegration.numberOfSteps = 10
        settings.timeIntegration.endTime = 0.1
        settings.solution.file.write = False
        exu.SolveDynamic(mbs, settings)
        shown.append((bool(mbs.GetObjectParameter(0, "Vshow")), mbs.systemData.GetODE2Coordinates()[0]))
    assert shown[0][0] is shown[1][0] is False
    assert shown[0][1] == pytest.approx(shown[1][1], rel=1e-12)


def test_a_ground_no_marker_refers_to_moves_during_a_solve_without_changing_the_motion():
    """The placement of a ground that no marker or sensor refers to is only drawn (Exudyn's raytracer test turns its
    backgrounds in a pre-step function): it is kept during the solve, and the motion is that of the model without
    it; the ground the spring hangs on still cannot move during a solve."""
    reference, sensor = driven_body(ffexu, ffitems)
    reference.AddObject(ffitems.ObjectGround(referencePosition=[0, 0, -1]))
    reference.SolveDynamic(tight_settings(ffexu, 40, 0.01))
    backdrop = 4   # the object added below
    mbs, _ = driven_body(ffexu, ffitems, lambda mbs, t: mbs.SetObjectParameter(
        backdrop, "referencePosition", [np.cos(t), np.sin(t), -1]))
    assert mbs.AddObject(ffitems.ObjectGround(referencePosition=[0, 0, -1])) == backdrop
    mbs.SolveDynamic(tight_settings(ffexu, 40, 0.01))
    np.testing.assert_array_equal(mbs.GetSensorStoredData(sensor), reference.GetSensorStoredData(sensor))
    assert mbs.GetObjectParameter(backdrop, "referencePosition") == pytest.approx([np.cos(0.4), np.sin(0.4), -1])

    mbs, _ = driven_body(ffexu, ffitems, lambda mbs, t: mbs.SetObjectParameter(1, "referencePosition", [0, 0, t]))
    with pytest.raises(ffexu.ExudynLayerError, match=r"SetObjectParameter\(1, 'referencePosition'\): floatframe can "
                                                     r"change no parameter of a ObjectGround during a solve"):
        mbs.SolveDynamic(tight_settings(ffexu, 40, 0.01))
