"""Every solver takes the same solve call, so that any one can stand in for another."""
import numpy as np
import pytest

import floatframe as ff
from floatframe.parameters import Parameter

from floatframe.solvers import IDAS, GeneralizedAlpha, Newmark, SolverError, Trapezoidal
from floatframe.solvers.result import UnknownSensorError, steps_per_interval, time_grid

# (solver, bound on the centre-of-mass error [m] with h = 0.01 s over 1 s): second-order schemes
# ~0.5 h^2, Newmark gamma = 0.6 (first order) ~0.15 h, IDAS 100 x rtol
SOLVERS = [(GeneralizedAlpha(0.9), 1e-4), (Newmark(0.6), 3e-3), (Trapezoidal(), 1e-4),
           (IDAS(rtol=1e-8, atol=1e-10), 1e-6)]
IDS = [solver.name for solver, _ in SOLVERS]


@pytest.mark.parametrize("solver, bound", SOLVERS, ids=IDS)
def test_the_same_call_runs_every_solver_against_the_reference(pendulum, position_error, solver, bound):
    system, info = pendulum
    result = solver.solve(system, 1.0, 100)
    assert result.t.shape == (101,) and result.t[-1] == pytest.approx(1.0)
    assert position_error(result, info) < bound
    by_grid = solver.solve(system, t_grid=np.linspace(0.0, 1.0, 101))
    np.testing.assert_allclose(by_grid.sensor(0), result.sensor(0), rtol=0, atol=1e-12)


@pytest.mark.parametrize("solver, bound", SOLVERS, ids=IDS)
def test_every_solver_stores_every_kth_time_and_starts_where_asked(pendulum, solver, bound):
    system, info = pendulum
    full = solver.solve(system, 0.2, 20)
    sparse = solver.solve(system, 0.2, 20, store_every=5)
    np.testing.assert_allclose(sparse.t, full.t[::5], atol=1e-15)
    np.testing.assert_allclose(sparse.q, full.q[::5], atol=1e-12)
    later = solver.solve(system, 0.3, 10, t0=0.2, q0=full.q[-1], v0=full.v[-1])
    assert later.t[0] == pytest.approx(0.2) and later.t[-1] == pytest.approx(0.3)
    np.testing.assert_allclose(later.q[0], full.q[-1], atol=1e-9)


@pytest.mark.parametrize("solver, bound", SOLVERS, ids=IDS)
def test_pre_step_sees_each_step_and_false_stops_after_it(pendulum, solver, bound):
    system, _ = pendulum
    seen = []

    def pre_step(t_next, state):
        seen.append((t_next, state.t))
        return t_next < 0.045

    result = solver.solve(system, 0.1, 10, pre_step=pre_step)
    np.testing.assert_allclose(seen, [(0.01, 0.0), (0.02, 0.01), (0.03, 0.02), (0.04, 0.03), (0.05, 0.04)],
                               atol=1e-14)
    assert result.stopped and result.t[-1] == pytest.approx(0.05) and result.t.size == 6


@pytest.mark.parametrize("solver, bound", SOLVERS, ids=IDS)
def test_sensors_record_each_stored_step_with_the_parameters_its_pre_step_set(solver, bound):
    """A pre_step that changes a Parameter (a spring's stiffness k = 100 + 1000 t for the step ending at t): each
    stored sensor row is evaluated with the k of its own step, F = k u, not with the k at the end of the solve."""
    system = ff.System()
    ground = system.add(ff.NodePointGround([0.0, 0.0, 0.0]))
    node = system.add(ff.Node1D([0.0], initial_coordinates=[0.1]))
    system.add(ff.ObjectMass1D(node, 1.0))
    spring = system.add(ff.CoordinateSpringDamper([system.add(ff.MarkerNodeCoordinate(ground, 0)),
                                                   system.add(ff.MarkerNodeCoordinate(node, 0))],
                                                  Parameter("k", 100.0)))
    system.add(ff.SensorObject(spring, "Force"))
    assembled = system.assemble()
    result = solver.solve(assembled, 0.1, 10, pre_step=lambda t, state: assembled.set_parameter("k", 100 + 1000 * t))
    extension = result.q[:, 0]
    stiffness = np.where(result.t > 0, 100 + 1000 * result.t, 100.0)
    assert np.ptp(stiffness) > 90
    np.testing.assert_allclose(np.abs(result.sensor(0)[:, 0]), stiffness * np.abs(extension), rtol=1e-12)


def test_generalized_alpha_can_start_from_given_accelerations(pendulum):
    """init with accelerations skips the consistent-acceleration solve (Exudyn's
    computeInitialAccelerations=False); with the consistent ones it reproduces the default start."""
    system, _ = pendulum
    solver = GeneralizedAlpha(0.9)
    consistent = solver.init(system, 0.0)
    given = solver.init(system, 0.0, accelerations=consistent.a, multipliers=consistent.lam)
    np.testing.assert_array_equal(given.a, consistent.a)
    zero = solver.solve(system, 0.1, 10, a0=np.zeros(system.n_coordinates))
    default = solver.solve(system, 0.1, 10)
    assert np.abs(zero.a[0]).max() == 0.0 and np.abs(zero.q[-1] - default.q[-1]).max() > 1e-6
    with pytest.raises(ValueError, match="initial multipliers need initial accelerations"):
        solver.init(system, 0.0, multipliers=consistent.lam)
    with pytest.raises(ValueError, match=r"initial accelerations must have \d+ entries, got 2"):
        solver.init(system, 0.0, accelerations=[0.0, 0.0])


def test_idas_refuses_what_it_cannot_honour(pendulum):
    system, _ = pendulum
    with pytest.raises(ValueError, match="IDAS chooses its own steps"):
        IDAS().solve(system, 0.1, 10, h=0.01)
    with pytest.raises(ValueError, match="a0 and lam0 cannot be given"):
        IDAS().solve(system, 0.1, 10, a0=np.zeros(system.n_coordinates))
    with pytest.raises(ValueError, match="pre_step needs drift='projection'"):
        IDAS(drift="baumgarte").solve(system, 0.1, 10, pre_step=lambda t, s: None)


@pytest.mark.parametrize("arguments, message", [
    (dict(), "give t_end and n_steps, or t_grid"),
    (dict(t_end=1.0), "give t_end and n_steps, or t_grid"),
    (dict(t_end=1.0, n_steps=0), "integer n_steps >= 1 and t_end > t0"),
    (dict(t_end=1.0, n_steps=2.5), "integer n_steps >= 1"),
    (dict(t_end=-1.0, n_steps=3), "t_end > t0"),
    (dict(t_grid=[0.0, 0.2, 0.1]), "t_grid must be increasing"),
    (dict(t_end=1.0, n_steps=3, t_grid=[0.0, 1.0]), "either t_grid or t_end with n_steps"),
])
def test_a_bad_time_grid_is_refused(arguments, message):
    with pytest.raises(ValueError, match=message):
        time_grid("solver", **arguments)


def test_an_array_as_t_end_is_the_grid():
    np.testing.assert_array_equal(time_grid("solver", [0.0, 0.5, 2.0]), [0.0, 0.5, 2.0])


@pytest.mark.parametrize("number", [1, -1, 2.0, "0"])
def test_an_unknown_sensor_names_the_sensors_there_are(pendulum, number):
    system, _ = pendulum
    result = GeneralizedAlpha().solve(system, 0.01, 1)
    names = [sensor.name or sensor.type_name for sensor in system.system.sensors]
    assert len(names) == 1
    with pytest.raises(UnknownSensorError, match=rf"no sensor {number!r}; the result has 1 sensors: 0 '{names[0]}'"):
        result.sensor(number)
    assert isinstance(UnknownSensorError("x"), IndexError)


def test_solver_errors_still_name_the_time(pendulum):
    system, _ = pendulum
    with pytest.raises(SolverError, match=r"at t = "):
        GeneralizedAlpha(max_iterations=1, min_step=0.05).solve(system, 0.1, 1)


def test_a_non_finite_initial_residual_is_named_not_taken_for_a_singular_matrix():
    import floatframe.exudyn as exu
    from floatframe.exudyn.itemInterface import LoadForceVector, MarkerNodePosition, NodeRigidBodyEP, ObjectRigidBody
    mbs = exu.SystemContainer().AddSystem()
    node = mbs.AddNode(NodeRigidBodyEP(referenceCoordinates=[0, 0, 0, 1, 0, 0, 0]))
    mbs.AddObject(ObjectRigidBody(nodeNumber=node, mass=1.0, inertia=[1, 1, 1, 0, 0, 0]))
    marker = mbs.AddMarker(MarkerNodePosition(nodeNumber=node))
    # a branch on t: evaluated numerically (not traced), NaN from t = 0 on
    mbs.AddLoad(LoadForceVector(markerNumber=marker, loadVectorUserFunction=lambda mbs_, t, load:
                                [0.0, 0.0, np.nan if t >= 0 else 0.0]))
    mbs.Assemble()
    with pytest.raises(SolverError, match=r"at t = 0: the load user function of LoadForceVector0 returned NaN or inf"):
        GeneralizedAlpha().solve(mbs.GetAssembledSystem(), 0.1, 1)


@pytest.mark.parametrize("t_end, n_steps", [(0.6, 6000), (2.0, 20000), (1.0, 3)])
def test_a_uniform_grid_is_integrated_in_exactly_its_steps(t_end, n_steps):
    """Grid times carry round-off of a few ulp of t; that must not split an interval into two half steps
    (a 1e-12 tolerance did so about once in sixty steps of a 6,000-step run and changed the result)."""
    grid = time_grid("test", t_end, n_steps)
    h = float(np.min(np.diff(grid)))
    assert steps_per_interval(np.diff(grid), h).tolist() == [1] * n_steps
    assert steps_per_interval([2 * h, 2.5 * h, h * (1 + 1e-6)], h).tolist() == [2, 3, 2]   # real subdivisions


def test_generalized_alpha_takes_one_step_per_interval_of_a_long_uniform_grid(pendulum):
    result = GeneralizedAlpha(0.8).solve(pendulum[0], 0.6, 6000, progress=False)
    assert result.statistics.steps == 6000 and result.statistics.rejected_steps == 0


def test_the_models_monitors_are_timed_apart_from_the_solve():
    """The spin-rate monitor of an FFRF body finds the body's lowest elastic frequency at its first call (an
    eigenproblem): that time is info["monitor_time"], not part of statistics.solve_time."""
    import time
    import warnings

    from floatframe.models.rotor_disc import build_rotor_disc

    assembled = build_rotor_disc("tisserand").system.assemble()
    assert assembled.monitors
    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = GeneralizedAlpha(0.5).solve(assembled, 2e-4, 2)
    wall = time.perf_counter() - started
    assert result.info["monitor_time"] > 1e-3
    assert result.statistics.solve_time + result.info["monitor_time"] <= wall


def test_the_time_grid_is_t0_plus_k_h_as_floats_give_it():
    """t0 + k h for each k (the grid's times carry the round-off of that sum, which the step counts rely on)."""
    from floatframe.solvers.result import time_grid
    for t0, t_end, n in ((0.0, 500.0, 50_000), (0.3, 1.7, 12_345), (-1.0, 3.3, 7_777)):
        h = (t_end - t0) / n
        grid = time_grid("test", t_end, n, t0=t0)
        assert np.array_equal(grid, np.array([t0] + [t0 + k * h for k in range(1, n + 1)]))
