"""SolveDynamic against exudyn 1.13.6: updateInitialValues, the method settings, SetPreStepUserFunction.

Each model script runs unchanged on exudyn and on floatframe.exudyn. Agreement is asserted to 1e-8 of
the motion's scale: both packages converge Newton to 1e-12 here (observed differences ~5e-12), while the
schemes the settings choose differ from each other by 3e-4 or more (asserted too), so a wrong mapping
fails by four orders of magnitude.
"""
import warnings

import numpy as np
import pytest

import floatframe.exudyn as ffexu
from exudyn_style_models import pendulum, tight_settings
from floatframe.exudyn import itemInterface as ffitems

TOLERANCE = 1e-8      # relative to the largest sensor value
EP0 = [1.0, 0.0, 0.0, 0.0]


def packages():
    """(exudyn, its itemInterface) of both packages; exudyn skips where it is not installed."""
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    return [(exu, items), (ffexu, ffitems)]


def falling_block(exu, ii):
    """A rigid block of 2 kg under a force of 2 N along -z: z = -t^2 / 2 from rest."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0] + EP0))
    body = mbs.AddObject(ii.ObjectRigidBody(nodeNumber=node, mass=2.0, inertia=[0.1, 0.2, 0.3, 0, 0, 0]))
    marker = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=body, localPosition=[0, 0, 0]))
    load = mbs.AddLoad(ii.LoadForceVector(markerNumber=marker, loadVector=[0, 0, -2.0]))
    sensor = mbs.AddSensor(ii.SensorNode(nodeNumber=node, storeInternal=True, writeToFile=False,
                                         outputVariableType=exu.OutputVariableType.Position))
    mbs.Assemble()
    return mbs, sensor, load, tight_settings(exu, 10, 0.1)


def tumbling_body(exu, ii):
    """A free rigid body spinning about all three axes: the Euler-parameter constraint is the only one."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    # Euler parameter rates of omega = (1, 2, 3) rad/s at EP0: ep_t = G^T omega / 2
    node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0] + EP0,
                                          initialVelocities=[0, 0, 0, 0, 0.5, 1.0, 1.5]))
    mbs.AddObject(ii.ObjectRigidBody(nodeNumber=node, mass=2.0, inertia=[0.1, 0.2, 0.3, 0, 0, 0]))
    sensor = mbs.AddSensor(ii.SensorNode(nodeNumber=node, storeInternal=True, writeToFile=False,
                                         outputVariableType=exu.OutputVariableType.Coordinates))
    mbs.Assemble()
    return mbs, [sensor], tight_settings(exu, 40, 0.01)


def solve(exu, builder, fields=(), solver_type=None):
    mbs, sensors, ss = builder(exu, ffitems if exu is ffexu else __import__("exudyn.itemInterface").itemInterface)
    for path, value in fields:
        *branches, name = path.split(".")
        branch = ss
        for part in branches:
            branch = getattr(branch, part)
        setattr(branch, name, value)
    keywords = {} if solver_type is None else dict(solverType=getattr(exu.DynamicSolverType, solver_type))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        mbs.SolveDynamic(ss, **keywords)
    return np.hstack([mbs.GetSensorStoredData(s)[:, 1:] for s in sensors])


def assert_agree(reference, ours):
    assert ours.shape == reference.shape
    scale = np.abs(reference).max()
    assert np.abs(ours - reference).max() <= TOLERANCE * scale


GA = "timeIntegration.generalizedAlpha."
NEWMARK = ((GA + "useNewmark", True), (GA + "newmarkBeta", 0.3025), (GA + "newmarkGamma", 0.6))
PENDULUM_CASES = {
    "generalized-alpha": (),
    "spectralRadius 0.6": ((GA + "spectralRadius", 0.6),),
    "Newmark beta 0.3025 gamma 0.6": NEWMARK,
    "computeInitialAccelerations False": ((GA + "computeInitialAccelerations", False),),
}


# --- updateInitialValues -------------------------------------------------------------------------
@pytest.mark.exudyn
@pytest.mark.parametrize("update, expected", [(True, (-0.5, -2.0)), (False, (-0.5, -0.5))])
def test_two_solves_continue_from_the_end_state_as_in_exudyn(update, expected):
    for exu, ii in packages():
        mbs, sensor, _, ss = falling_block(exu, ii)
        ends = []
        for _ in range(2):
            mbs.SolveDynamic(ss, updateInitialValues=update)
            ends.append(mbs.GetSensorStoredData(sensor)[-1, 3])
        np.testing.assert_allclose(ends, expected, atol=1e-12, err_msg=exu.__name__)


@pytest.mark.exudyn
def test_update_carries_the_accelerations_when_they_are_not_recomputed():
    """computeInitialAccelerations=False: the first solve starts from a = 0, the second from its end a."""
    results = []
    for exu, ii in packages():
        mbs, sensor, _, ss = falling_block(exu, ii)
        ss.timeIntegration.generalizedAlpha.computeInitialAccelerations = False
        rows = []
        for _ in range(2):
            mbs.SolveDynamic(ss, updateInitialValues=True)
            rows.append(mbs.GetSensorStoredData(sensor)[:, 3])
        results.append(np.concatenate(rows))
    assert abs(results[0][10] - (-0.5)) > 0.04           # a0 = 0 makes a visible difference
    assert_agree(*results)


def test_update_sets_the_initial_configuration_and_assemble_resets_it():
    mbs, sensor, _, ss = falling_block(ffexu, ffitems)
    mbs.SolveDynamic(ss, updateInitialValues=True)
    initial = ffexu.ConfigurationType.Initial
    np.testing.assert_allclose(mbs.GetNodeOutput(0, ffexu.OutputVariableType.Position, initial), [0, 0, -0.5],
                               atol=1e-12)
    np.testing.assert_allclose(mbs.systemData.GetODE2Coordinates_tt(initial)[2], -1.0, atol=1e-12)
    mbs.Assemble()
    np.testing.assert_allclose(mbs.GetNodeOutput(0, ffexu.OutputVariableType.Position, initial), [0, 0, 0])


# --- method settings ----------------------------------------------------------------------------
@pytest.mark.exudyn
@pytest.mark.parametrize("case", PENDULUM_CASES)
def test_method_settings_give_exudyns_numbers_on_the_pendulum(case):
    exu = pytest.importorskip("exudyn")
    assert_agree(solve(exu, pendulum, PENDULUM_CASES[case]), solve(ffexu, pendulum, PENDULUM_CASES[case]))


def test_the_pendulum_cases_are_far_apart():
    """Each mapped scheme differs from the default by much more than the agreement tolerance."""
    default = solve(ffexu, pendulum)
    scale = np.abs(default).max()
    for case, fields in list(PENDULUM_CASES.items())[1:]:
        assert np.abs(solve(ffexu, pendulum, fields) - default).max() > 1e4 * TOLERANCE * scale, case


INDEX2_CASES = {
    "TrapezoidalIndex2": ((), "TrapezoidalIndex2"),
    "Newmark index 2 beta 0.3025 gamma 0.6": (NEWMARK + ((GA + "useIndex2Constraints", True),), None),
}


@pytest.mark.exudyn
@pytest.mark.parametrize("case", INDEX2_CASES)
def test_index_2_settings_give_exudyns_numbers(case):
    exu = pytest.importorskip("exudyn")
    fields, solver_type = INDEX2_CASES[case]
    assert_agree(solve(exu, tumbling_body, fields, solver_type), solve(ffexu, tumbling_body, fields, solver_type))


@pytest.mark.exudyn
@pytest.mark.parametrize("case", INDEX2_CASES)
def test_index_2_settings_give_exudyns_numbers_on_the_spherical_joint_pendulum(case):
    """Exudyn's velocity-level joint equations (omega form, unnormalised A_E): observed 1.1e-13 of the
    scale, 8.5e-5 with dC/dt instead."""
    exu = pytest.importorskip("exudyn")
    fields, solver_type = INDEX2_CASES[case]
    assert_agree(solve(exu, pendulum, fields, solver_type), solve(ffexu, pendulum, fields, solver_type))


def test_index_2_differs_from_index_3_and_from_the_default():
    """On the tumbling body index 2 (velocity-level Euler-parameter constraint), index 3 and the default
    generalized-alpha differ by about 2e-6 of the scale, more than 100 times the tolerance (the two
    packages agree to 1e-15 here)."""
    index3 = solve(ffexu, tumbling_body, ((GA + "useNewmark", True),))
    index2 = solve(ffexu, tumbling_body, (), "TrapezoidalIndex2")
    default = solve(ffexu, tumbling_body)
    scale = np.abs(index3).max()
    assert np.abs(index2 - index3).max() > 100 * TOLERANCE * scale
    assert np.abs(index2 - default).max() > 100 * TOLERANCE * scale


def test_index_2_with_generalized_alpha_is_refused_as_in_exudyn():
    with pytest.raises(ffexu.ExudynLayerError, match="useIndex2Constraints = True needs useNewmark = True"):
        solve(ffexu, pendulum, ((GA + "useIndex2Constraints", True),))


def test_trapezoidal_index2_leaves_the_settings_unchanged():
    mbs, sensors, ss = pendulum(ffexu, ffitems)
    mbs.SolveDynamic(ss, solverType=ffexu.DynamicSolverType.TrapezoidalIndex2)
    assert ss.timeIntegration.generalizedAlpha.useNewmark is False
    assert mbs.sys["dynamicSolver"].index == 2 and mbs.sys["dynamicSolver"].beta == 0.25


# --- SetPreStepUserFunction -----------------------------------------------------------------------
def prestep_run(exu, ii, stop_after=None):
    """Pre-step function: records (t, z at the start of the step) and sets the force of the next step
    through mbs.variables, read by a load user function; returns False once t > stop_after."""
    mbs, sensor, load, ss = falling_block(exu, ii)
    calls = []
    mbs.variables["force"] = -2.0

    def force(mbs_, t, load_vector):
        # the branch on t makes floatframe evaluate the function numerically in every residual (it
        # traces arithmetic-only load functions once, at assembly, freezing the value read here)
        return [0, 0, mbs_.variables["force"] if t >= 0 else 0.0]

    def pre_step(mbs_, t):
        calls.append((t, mbs_.GetNodeOutput(0, exu.OutputVariableType.Position)[2]))
        mbs_.variables["force"] = -2.0 * (1 + t)
        return stop_after is None or t <= stop_after
    mbs.SetLoadParameter(load, "loadVectorUserFunction", force)
    mbs.Assemble()
    mbs.SetPreStepUserFunction(pre_step)
    mbs.SolveDynamic(ss)
    return np.array(calls), mbs.GetSensorStoredData(sensor)


@pytest.mark.exudyn
@pytest.mark.parametrize("stop_after", [None, 0.35])
def test_pre_step_function_is_called_as_in_exudyn(stop_after):
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    (their_calls, their_data), (our_calls, our_data) = (prestep_run(exu, items, stop_after),
                                                        prestep_run(ffexu, ffitems, stop_after))
    # called with the end time of each step, with the state at its start; False stops after that step
    np.testing.assert_allclose(our_calls[:, 0], their_calls[:, 0], atol=1e-14)
    np.testing.assert_allclose(our_calls[:, 0], np.arange(1, len(our_calls) + 1) * 0.1, atol=1e-14)
    assert len(our_calls) == (10 if stop_after is None else 4)
    assert_agree(their_calls[:, 1], our_calls[:, 1])
    assert_agree(their_data, our_data)
    assert our_data[-1, 0] == pytest.approx(0.1 * len(our_calls))


# --- any floatframe solver in SolveDynamic ---------------------------------------------------------
@pytest.mark.parametrize("name", ["GeneralizedAlpha", "Newmark", "Trapezoidal", "IDAS"])
def test_any_floatframe_solver_stands_in_for_the_default(name):
    """The falling block (z = -t^2/2 exactly, for every second-order scheme and for IDAS to its rtol)."""
    import floatframe.solvers as solvers
    solver = dict(GeneralizedAlpha=solvers.GeneralizedAlpha(0.9), Newmark=solvers.Newmark(0.5, 0.25),
                  Trapezoidal=solvers.Trapezoidal(), IDAS=solvers.IDAS(rtol=1e-10, atol=1e-12))[name]
    mbs, sensor, _, _ = falling_block(ffexu, ffitems)
    ss = ffexu.SimulationSettings()      # Exudyn's defaults: no setting chooses the scheme
    ss.timeIntegration.numberOfSteps = 10
    ss.solution.sensors.writePeriod = 0.1
    calls = []
    mbs.SetPreStepUserFunction(lambda mbs_, t: calls.append(t) or True)   # (None would end the solve, as in Exudyn)
    assert mbs.SolveDynamic(ss, solver=solver)
    data = mbs.GetSensorStoredData(sensor)
    np.testing.assert_allclose(data[:, 0], np.linspace(0, 1, 11), atol=1e-14)
    np.testing.assert_allclose(data[:, 3], -data[:, 0] ** 2 / 2, atol=1e-8)
    assert len(calls) == 10 and mbs.sys["dynamicSolver"] is solver
