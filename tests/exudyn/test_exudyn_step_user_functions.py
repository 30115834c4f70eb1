"""The step user functions of a MainSystem that act inside a solve (post-step, pre-Newton residual, system Jacobian)
give exudyn 1.13.6's numbers: motion, times of the calls, Newton iterations, and the factors Exudyn passes."""
import numpy as np
import pytest

import floatframe.exudyn as ffexu
from floatframe.exudyn import itemInterface as ffitems

STIFFNESS, DAMPING = 1200.0, 4.0     # N/m, N s/m of the spring-damper that a pre-Newton function replicates


def settings(exu, steps=200, h=0.002):
    """Exudyn's default scheme from the initial state as given (no initial accelerations), sensors every step."""
    ss = exu.SimulationSettings()
    ss.timeIntegration.numberOfSteps = steps
    ss.timeIntegration.endTime = steps * h
    ss.timeIntegration.generalizedAlpha.computeInitialAccelerations = False
    ss.solution.file.write = False
    ss.solution.sensors.writePeriod = h
    return ss


def two_masses(exu, ii, mbs=None):
    """A mass point on a Cartesian spring-damper to the ground (3 coordinates) and a Mass1D on a coordinate
    spring-damper (1 coordinate), both moving initially; (mbs, mass point body, Mass1D node, the spring-damper of
    the Mass1D, position sensor of the mass point, coordinate sensor and coordinate marker of the Mass1D)."""
    mbs = exu.SystemContainer().AddSystem() if mbs is None else mbs
    ground = mbs.AddObject(ii.ObjectGround())
    point = mbs.AddNode(ii.NodePoint(referenceCoordinates=[1.0, 0, 0], initialCoordinates=[0, 0.2, 0],
                                     initialVelocities=[3.0, 0, 0]))
    body = mbs.AddObject(ii.MassPoint(nodeNumber=point, mass=2.0))
    fixed = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[1.0, 0, 0]))
    moving = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=body, localPosition=[0, 0, 0]))
    mbs.AddObject(ii.ObjectConnectorCartesianSpringDamper(markerNumbers=[fixed, moving], stiffness=[800.0] * 3,
                                                          damping=[2.0] * 3))
    node = mbs.AddNode(ii.Node1D(referenceCoordinates=[0], initialCoordinates=[0.1]))
    mbs.AddObject(ii.Mass1D(nodeNumber=node, mass=1.5, referencePosition=[0, 1.0, 0]))
    ground_node = mbs.AddNode(ii.NodePointGround())
    to_ground = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=ground_node, coordinate=0))
    coordinate = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=node, coordinate=0))
    spring = mbs.AddObject(ii.CoordinateSpringDamper(markerNumbers=[to_ground, coordinate], stiffness=STIFFNESS,
                                                     damping=DAMPING))
    position = mbs.AddSensor(ii.SensorNode(nodeNumber=point, storeInternal=True, writeToFile=False,
                                           outputVariableType=exu.OutputVariableType.Position))
    displacement = mbs.AddSensor(ii.SensorNode(nodeNumber=node, storeInternal=True, writeToFile=False,
                                               outputVariableType=exu.OutputVariableType.Coordinates))
    return mbs, body, node, spring, position, displacement, coordinate


def codes():
    """(exudyn, its item interface) and (floatframe.exudyn, its item interface); skips without exudyn."""
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    return (exu, items), (ffexu, ffitems)


def held_after(exu, mbs, body, t_hold, calls):
    """A post-step function that, after t_hold, puts the mass point back to its position at the step's start and
    halves the Mass1D's velocity (Current configuration); records (t, Current q) of each call in ``calls``."""
    mbs.Assemble()
    rows = mbs.systemData.GetObjectLTGODE2(body)
    current = exu.ConfigurationType.Current

    def post_step(mbs, t):
        q = mbs.systemData.GetODE2Coordinates(configuration=current)
        calls.append((t, q.copy()))
        if t > t_hold:
            q[rows] = mbs.systemData.GetODE2Coordinates(configuration=exu.ConfigurationType.StartOfStep)[rows]
            mbs.systemData.SetODE2Coordinates(q, configuration=current)
            v = mbs.systemData.GetODE2Coordinates_t(configuration=current)
            v[-1] *= 0.5
            mbs.systemData.SetODE2Coordinates_t(v, configuration=current)
        return True
    return post_step


@pytest.mark.exudyn
def test_coordinates_and_velocities_set_in_a_post_step_function_are_stored_and_stepped_on_as_exudyns():
    runs = []
    for exu, ii in codes():
        mbs, body, _, _, position, displacement, _ = two_masses(exu, ii)
        mbs.SetPostStepUserFunction(held_after(exu, mbs, body, 0.2, []))
        mbs.SolveDynamic(settings(exu))
        runs.append((mbs.GetSensorStoredData(position), mbs.GetSensorStoredData(displacement)))
    for reference, ours in zip(*runs):
        scale = np.abs(reference[:, 1:]).max()
        np.testing.assert_allclose(ours[:, 0], reference[:, 0], rtol=0, atol=1e-12)
        np.testing.assert_allclose(ours[:, 1:], reference[:, 1:], rtol=0, atol=1e-9 * scale)
    held = runs[1][0][runs[1][0][:, 0] > 0.2, 1:]
    np.testing.assert_allclose(held, held[:1].repeat(len(held), 0), rtol=0, atol=1e-12)   # held where it was


@pytest.mark.exudyn
def test_a_post_step_function_is_called_at_the_start_and_after_each_step_at_exudyns_times():
    calls = {}
    for exu, ii in codes():
        mbs, body, *_ = two_masses(exu, ii)
        calls[exu] = []
        mbs.SetPostStepUserFunction(held_after(exu, mbs, body, 1.0, calls[exu]))
        mbs.SolveDynamic(settings(exu, steps=2000, h=0.001))
    reference, ours = calls.values()
    assert [t for t, _ in ours] == [t for t, _ in reference]
    # Exudyn's time is the running sum of the steps: 1.0000000000000007 after 1000 steps of 0.001 s
    assert ours[1000][0] == reference[1000][0] == 1.0000000000000007
    np.testing.assert_allclose(ours[0][1], reference[0][1], rtol=0, atol=1e-15)   # the initial state


@pytest.mark.exudyn
def test_a_post_step_function_returning_false_ends_the_solve_after_that_step_as_exudyn():
    rows = []
    for exu, ii in codes():
        mbs, _, _, _, position, _, _ = two_masses(exu, ii)
        mbs.SetPostStepUserFunction(lambda mbs, t: t < 0.05)
        mbs.SolveDynamic(settings(exu))
        rows.append(mbs.GetSensorStoredData(position))
    reference, ours = rows
    assert ours.shape == reference.shape == (26, 4)   # the initial state and 25 steps, the last to t = 0.05 s
    np.testing.assert_allclose(ours, reference, rtol=0, atol=1e-9)


def replicated_spring(exu, ii, with_jacobian: bool, factors=None, mbs=None):
    """two_masses (added to ``mbs``, if given) without the Mass1D's spring-damper's forces: a LoadCoordinate set to
    -k u - d v by a pre-Newton residual function in its place, with (``with_jacobian``) the matching system Jacobian
    function, returning its entry in a 3 x 3 container at the system index as Exudyn's test model does
    (``factors`` records the factors it gets), solved; (mbs, its sensors, the Newton iterations of the solve)."""
    mbs, _, node, spring, position, displacement, coordinate = two_masses(exu, ii, mbs)
    mbs.SetObjectParameter(spring, "stiffness", 0.0)
    mbs.SetObjectParameter(spring, "damping", 0.0)
    load = mbs.AddLoad(ii.LoadCoordinate(markerNumber=coordinate, load=0.0))
    mbs.Assemble()
    index = mbs.GetNodeODE2Index(node)

    def pre_newton_residual(mbs, t, newton_iteration, discontinuous_iteration):
        u = mbs.GetNodeOutput(node, exu.OutputVariableType.Coordinates)
        v = mbs.GetNodeOutput(node, exu.OutputVariableType.Coordinates_t)
        mbs.SetLoadParameter(load, "load", -STIFFNESS * u - DAMPING * v)

    def system_jacobian(mbs, t, factor_ode2, factor_ode2_t, factor_ode1):
        if factors is not None:
            factors.append((factor_ode2, factor_ode2_t, factor_ode1))
        container = exu.MatrixContainer()
        container.SetWithSparseMatrix([[index, index, -factor_ode2 * STIFFNESS - factor_ode2_t * DAMPING]], 3, 3)
        return container

    mbs.SetPreNewtonResidualUserFunction(pre_newton_residual)
    if with_jacobian:
        mbs.SetSystemJacobianUserFunction(system_jacobian)
    mbs.SolveDynamic(settings(exu))
    sensors = np.hstack([mbs.GetSensorStoredData(position), mbs.GetSensorStoredData(displacement)[:, 1:]])
    return mbs, sensors, mbs.sys["dynamicSolver"].it.newtonStepsCount


def replicated_spring_on_both(with_jacobian: bool):
    """replicated_spring's sensors and Newton iterations on exudyn and on floatframe.exudyn: (theirs, ours)."""
    return [replicated_spring(exu, ii, with_jacobian)[1:] for exu, ii in codes()]


@pytest.mark.exudyn
def test_a_load_set_by_a_pre_newton_residual_function_gives_exudyns_motion_and_newton_iterations():
    (reference, their_iterations), (ours, our_iterations) = replicated_spring_on_both(with_jacobian=False)
    np.testing.assert_allclose(ours, reference, rtol=0, atol=1e-9 * np.abs(reference).max())
    assert our_iterations == their_iterations > 2 * 200   # the load's Jacobian unknown: Newton contracts linearly


@pytest.mark.exudyn
def test_a_system_jacobian_function_enters_the_iteration_matrix_as_exudyns():
    (reference, their_iterations), (ours, our_iterations) = replicated_spring_on_both(with_jacobian=True)
    np.testing.assert_allclose(ours, reference, rtol=0, atol=1e-9 * np.abs(reference).max())
    assert our_iterations == their_iterations < 2 * 200   # the exact Jacobian: about one iteration a step


@pytest.mark.exudyn
def test_the_system_jacobian_function_gets_exudyns_factors():
    recorded = []
    for exu, ii in codes():
        recorded.append([])
        replicated_spring(exu, ii, True, recorded[-1])
    reference, ours = recorded
    h, spectral_radius = 0.002, pytest.importorskip("exudyn").SimulationSettings().timeIntegration.generalizedAlpha \
        .spectralRadius
    alpha_m, alpha_f = (2 * spectral_radius - 1) / (spectral_radius + 1), spectral_radius / (spectral_radius + 1)
    gamma = 0.5 + alpha_f - alpha_m
    beta = (gamma + 0.5) ** 2 / 4
    expected = (-beta * h * h, -gamma * h, -beta * h * h)
    np.testing.assert_allclose(reference[0], expected, rtol=1e-12)
    np.testing.assert_allclose(ours, reference, rtol=1e-12)


@pytest.mark.exudyn
def test_step_functions_stay_set_over_solves_of_one_system_as_items_are_added_as_in_exudyn():
    """As in Exudyn's mainSystemUserFunctionsTest: the second solve of a system, with items added and without
    Reset, runs the first solve's post-step function (on the first items) besides its own pre-Newton residual and
    system Jacobian functions; every sensor of both solves."""
    runs = []
    for exu, ii in codes():
        mbs, body, *_ = two_masses(exu, ii)
        mbs.SetPostStepUserFunction(held_after(exu, mbs, body, 0.2, []))
        mbs.SolveDynamic(settings(exu))
        first = [mbs.GetSensorStoredData(sensor) for sensor in range(mbs.systemData.NumberOfSensors())]
        replicated_spring(exu, ii, True, mbs=mbs)
        second = [mbs.GetSensorStoredData(sensor) for sensor in range(mbs.systemData.NumberOfSensors())]
        runs.append(first + second)
    reference, ours = runs
    assert len(ours) == len(reference) == 2 + 4
    for theirs, mine in zip(reference, ours):
        np.testing.assert_allclose(mine, theirs, rtol=0, atol=1e-9 * np.abs(theirs).max())
    held = ours[2][ours[2][:, 0] > 0.2, 1:]   # the first mass point, held by the first solve's function
    np.testing.assert_allclose(held, held[:1].repeat(len(held), 0), rtol=0, atol=1e-12)


def getter_answers(exu):
    """What the Get...UserFunction of a system give with a post-step function set, then removed by 0; the function
    itself named "the function"."""
    mbs = exu.SystemContainer().AddSystem()

    def post_step(mbs, t):
        return True

    def named(answer):
        return {**answer, "function": "the function"} if isinstance(answer, dict) and \
            answer.get("function") is post_step else answer
    mbs.SetPostStepUserFunction(post_step)
    answers = [mbs.GetPostStepUserFunction(), mbs.GetPostStepUserFunction(asDict=True),
               mbs.GetPreNewtonResidualUserFunction(), mbs.GetSystemJacobianUserFunction(), mbs.GetPreStepUserFunction(),
               mbs.GetDictionary()["userFunctions"]["postStepFunction"]]
    mbs.SetPostStepUserFunction(0)
    return [named(answer) for answer in answers] + [mbs.GetPostStepUserFunction()]


@pytest.mark.exudyn
def test_get_step_user_functions_give_exudyns_dict_or_zero():
    reference, ours = (getter_answers(exu) for exu, _ in codes())
    function = {"function": "the function", "type": "Python"}
    assert ours == reference == [function, function, 0, 0, 0, function, 0]


def pendulum_solved(post_step):
    """exudyn_style_models' pendulum with its compiled kernel cached, solved with ``post_step`` set (then removed
    by 0 where it is the string "removed"); (mbs, sensor data)."""
    from exudyn_style_models import pendulum
    from floatframe.solvers import GeneralizedAlpha

    mbs, sensors, simulation_settings = pendulum(ffexu, ffitems)
    GeneralizedAlpha(compile=True).solve(mbs._assembled, 0.01, 1)   # the compiled kernel cached, as after a long run
    if post_step == "removed":
        mbs.SetPostStepUserFunction(lambda mbs, t: True)
        post_step = 0
    mbs.SetPostStepUserFunction(post_step)
    ffexu.SolveDynamic(mbs, simulation_settings)
    return mbs, np.hstack([mbs.GetSensorStoredData(sensor) for sensor in sensors])


def test_a_post_step_function_takes_the_python_loop_and_setting_0_gives_the_c_loop_back():
    in_python, python_values = pendulum_solved(lambda mbs, t: True)
    in_c, c_values = pendulum_solved("removed")
    assert in_python._result.info["native_steps"] == 0
    assert in_c._result.info["native_steps"] == in_c._result.statistics.steps == 40
    assert np.abs(c_values - python_values).max() <= 1e-12 * np.abs(python_values).max()


def test_bad_step_user_functions_and_answers_are_refused_naming_the_fault():
    mbs, *_ = two_masses(ffexu, ffitems)
    with pytest.raises(ValueError, match=r"SetPostStepUserFunction: expected a Python function f\(mbs, t\) or 0"):
        mbs.SetPostStepUserFunction(3)
    mbs.SetPostStepUserFunction(lambda mbs, t: "go on")
    with pytest.raises(ValueError, match="PostStepUserFunction: the function must return True .* got 'go on'"):
        mbs.SolveDynamic(settings(ffexu, steps=2))
    mbs.SetPostStepUserFunction(0)
    mbs.SetPreNewtonResidualUserFunction(lambda mbs, t, newton_iteration, discontinuous_iteration: None)
    dense = ffexu.MatrixContainer()
    dense.SetWithDenseMatrix(np.eye(2), useDenseMatrix=True)
    mbs.SetSystemJacobianUserFunction(lambda mbs, t, f2, f2_t, f1: dense)
    with pytest.raises(ValueError, match="the MatrixContainer must be sparse"):
        mbs.SolveDynamic(settings(ffexu, steps=2))
    container = ffexu.MatrixContainer()
    container.SetWithSparseMatrix([[4, 0, 1.0]], 5, 5)   # the system has 4 ODE2 coordinates
    mbs.SetSystemJacobianUserFunction(lambda mbs, t, f2, f2_t, f1: container)
    with pytest.raises(ValueError, match=r"the entry \(4, 0\) lies outside the 4 ODE2 coordinates"):
        mbs.SolveDynamic(settings(ffexu, steps=2))
    from floatframe.solvers import GeneralizedAlpha
    with pytest.raises(ValueError, match="SetPreNewtonResidualUserFunction, SetSystemJacobianUserFunction need the "
                                         "layer's own scheme"):
        mbs.SolveDynamic(settings(ffexu, steps=2), solver=GeneralizedAlpha())
    with pytest.raises(ValueError, match="SolveStatic: floatframe's static solver does not call the functions of "
                                         "SetPreNewtonResidualUserFunction, SetSystemJacobianUserFunction"):
        mbs.SolveStatic()


def stored_rows_with_answer(exu, ii, answer):
    """The number of stored sensor rows of two_masses solved for 3 steps with a pre-step function that returns
    True and a post-step function that returns ``answer``, and then the other way round."""
    rows = []
    for pre, post in ((answer, True), (True, answer)):
        mbs, _, _, _, position, _, _ = two_masses(exu, ii)
        mbs.SetPreStepUserFunction(lambda mbs, t: pre)
        mbs.SetPostStepUserFunction(lambda mbs, t: post)
        mbs.SolveDynamic(settings(exu, steps=3))
        rows.append(len(mbs.GetSensorStoredData(position)))
    return rows


@pytest.mark.exudyn
def test_pre_and_post_step_answers_are_read_as_exudyn_reads_them():
    answers = (None, 0, 1, 2.5, np.bool_(False))
    reference, ours = ([stored_rows_with_answer(exu, ii, answer) for answer in answers] for exu, ii in codes())
    assert ours == reference == [[2, 1], [2, 1], [4, 4], [4, 4], [2, 1]]   # None and 0 stop as False does


@pytest.mark.exudyn
@pytest.mark.parametrize("newmark", [False, True])
def test_accelerations_set_in_a_post_step_function_enter_the_next_step_as_in_exudyn(newmark):
    """Generalized-alpha's predictor keeps its algorithmic accelerations, Exudyn's Newmark takes the accelerations
    as set."""
    runs = []
    for exu, ii in codes():
        mbs, _, _, _, position, displacement, _ = two_masses(exu, ii)
        current = exu.ConfigurationType.Current

        def post_step(mbs, t):
            if t > 0.1:
                a = mbs.systemData.GetODE2Coordinates_tt(configuration=current)
                mbs.systemData.SetODE2Coordinates_tt(0.3 * a, configuration=current)
            return True
        mbs.SetPostStepUserFunction(post_step)
        simulation_settings = settings(exu)
        simulation_settings.timeIntegration.generalizedAlpha.useNewmark = newmark
        mbs.SolveDynamic(simulation_settings)
        runs.append(np.hstack([mbs.GetSensorStoredData(position), mbs.GetSensorStoredData(displacement)[:, 1:]]))
    reference, ours = runs
    np.testing.assert_allclose(ours, reference, rtol=0, atol=1e-9 * np.abs(reference).max())
