"""The C step loop (floatframe/solvers/native.py, native_loop.c) takes the Python loop's decisions and gives its
states: the same Newton iterations, matrices and rejected steps, states to 1e-12 relative, the same failures."""
from pathlib import Path

import numpy as np
import pytest

from floatframe.components import (CartesianSpringDamper, LoadForceVector, MarkerBodyPosition, NodePoint,
                                   ObjectGround, ObjectMassPoint, SphericalJoint)
from floatframe.fem import read_abaqus_inp, read_abaqus_mtx
from floatframe.models.double_pendulum import build_double_pendulum
from floatframe.models.flexible_arm import build_flexible_arm
from floatframe.models.pendulum import build_pendulum
from floatframe.models.rotor_disc import build_rotor_disc
from floatframe.models.slider_crank import build_slider_crank
from floatframe.models.spinning_rotor import build_spinning_rotor
from floatframe.solvers import GeneralizedAlpha, HHTAlpha, Newmark, Trapezoidal
from floatframe.solvers import native
from floatframe.solvers.compiling import compiler
from floatframe.solvers.genalpha import ResidualStop
from floatframe.solvers.result import SolverError
from floatframe.assembly import System
from floatframe.parameters import Input

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "rotorDisc"
COUNTS = ("steps", "newton_iterations", "jacobian_evaluations", "factorizations", "residual_evaluations",
          "rejected_steps")

pytestmark = pytest.mark.skipif(compiler() is None, reason="the C step loop needs a C compiler")


def both_loops(make_solver, system, *args, **options):
    """(Python loop's result, C loop's result) of the same solve with the compiled dense kernel."""
    python = make_solver()
    python.native = False
    in_python = python.solve(system, *args, progress=False, **options)
    in_c = make_solver().solve(system, *args, progress=False, **options)
    return in_python, in_c


def assert_same_run(in_python, in_c):
    """The C loop took every step; the same decisions (statistics) and states to 1e-12 relative."""
    assert in_python.info["native_steps"] == 0
    assert in_c.info["native_steps"] == in_c.statistics.steps > 0
    for count in COUNTS:
        assert getattr(in_c.statistics, count) == getattr(in_python.statistics, count), count
    assert np.array_equal(in_c.t, in_python.t)
    for name in ("q", "v", "a", "lam"):
        expected, got = getattr(in_python, name), getattr(in_c, name)
        assert np.abs(got - expected).max(initial=0.0) <= 1e-12 * (np.abs(expected).max(initial=0.0) + 1e-300), name
    for expected, got in zip(in_python.sensors, in_c.sensors):
        assert np.abs(got - expected).max() <= 1e-12 * np.abs(expected).max()


SCHEMES = {
    "genalpha-modified": lambda: GeneralizedAlpha(0.5, modified_newton=True, compile=True),
    "genalpha-full": lambda: GeneralizedAlpha(0.9, compile=True),
    "genalpha-index2": lambda: GeneralizedAlpha(0.6, modified_newton=True, index=2, compile=True),
    "newmark": lambda: Newmark(modified_newton=True, compile=True),
    "trapezoidal-index2": lambda: Trapezoidal(index=2, compile=True),
    "hht": lambda: HHTAlpha(0.2, modified_newton=True, compile=True),
}


@pytest.mark.parametrize("scheme", SCHEMES)
def test_pendulum_in_c_equals_python(pendulum, scheme):
    system, _ = pendulum
    assert_same_run(*both_loops(SCHEMES[scheme], system, 0.5, 2000, store_every=7))


def test_spinning_rotor_in_c_equals_python():
    system = build_spinning_rotor()[0].assemble()
    in_python, in_c = both_loops(SCHEMES["genalpha-modified"], system, 0.2, 2000)
    assert_same_run(in_python, in_c)
    assert in_c.statistics.jacobian_evaluations > 100   # the matrix renewal rule at work: many renewals


@pytest.mark.parametrize("build", [lambda: build_double_pendulum(modes=4).system,
                                   lambda: build_slider_crank(modes=4).system,
                                   lambda: build_flexible_arm(modes=4).system],
                         ids=["double-pendulum", "slider-crank", "flexible-arm"])
def test_mechanisms_in_c_equal_python(build):
    system = build().assemble()
    assert_same_run(*both_loops(lambda: GeneralizedAlpha(0.8, modified_newton=True, compile=True), system,
                                0.05, 500, store_every=10))


@pytest.mark.skipif(not DATA.is_dir(), reason="needs the rotor-disc reference data in ../shared/data")
def test_reduced_rotor_in_c_equals_python():
    """Exudyn's performance model (benchmarks/step_overhead.py, reduced-rotor), 500 steps."""
    mesh = read_abaqus_inp(DATA / "rotorDiscTest.inp", instance="rotor-1")
    rotor = build_rotor_disc(nodes=mesh.nodes, mass_matrix=read_abaqus_mtx(DATA / "rotorDiscTestMASS1.mtx"),
                             stiffness_matrix=read_abaqus_mtx(DATA / "rotorDiscTestSTIF1.mtx"), unbalance_node=9,
                             modes=8)
    system = rotor.system.assemble()
    assert_same_run(*both_loops(SCHEMES["genalpha-modified"], system, 0.05, 500, store_every=100))


def test_grid_with_several_steps_per_interval_and_halving_in_c_equals_python(pendulum):
    """An uneven grid (intervals of 1 to 3 steps of at most h = 0.02 s) and a Newton that often fails at the
    full step (full Newton, max_iterations = 2: such steps are halved, retried, then doubled again): the same
    halvings in both loops."""
    system, _ = pendulum
    grid = np.concatenate([[0.0], np.cumsum(np.tile([0.02, 0.05, 0.014], 20))])
    in_python, in_c = both_loops(lambda: GeneralizedAlpha(0.7, max_iterations=2, compile=True), system,
                                 t_grid=grid, h=0.02, store_every=3)
    assert in_c.statistics.rejected_steps > 100 and in_c.statistics.steps > 2 * 120
    assert_same_run(in_python, in_c)


def test_failure_in_c_raises_the_python_loops_error_with_the_same_partial_result(pendulum):
    """Full Newton allowed two iterations needs halved steps from the start; at t = 0.145 s halving twice is
    not enough and the step would fall below min_step = h / 3. Both loops fail there with the same message,
    time, statistics and partial result (the stored states and the last accepted one, at 0.14 s)."""
    system, _ = pendulum
    failures = []
    for loop_in_c in (False, True):
        solver = GeneralizedAlpha(0.7, max_iterations=2, min_step=0.01 / 3, compile=True)
        solver.native = loop_in_c
        with pytest.raises(SolverError, match=r"step size fell below the minimum 0.00333 s at t = 0.14; last "
                                              r"failure: generalized-alpha: Newton did not converge at t = 0.145 ") \
                as caught:
            solver.solve(system, 1.0, 100, progress=False, store_every=4)
        failures.append(caught.value)
    in_python, in_c = failures
    assert str(in_c) == str(in_python) and in_c.time == in_python.time
    assert in_c.result.info["native_steps"] == in_c.result.statistics.steps > 0
    for count in COUNTS:
        assert getattr(in_c.result.statistics, count) == getattr(in_python.result.statistics, count), count
    assert in_c.result.statistics.rejected_steps > 10
    assert np.array_equal(in_c.result.t, in_python.result.t)
    assert in_c.result.t[-1] == pytest.approx(0.14) and in_c.result.t[-2] == pytest.approx(0.12)
    assert np.abs(in_c.result.q - in_python.result.q).max() <= 1e-12 * np.abs(in_python.result.q).max()


def test_growth_failure_in_c_is_the_python_loops():
    """A point mass on a spring of negative stiffness grows exponentially, past the growth bound at a checked
    time: the same error at the same time, the same partial result."""
    system = System()
    point = system.add(ObjectMassPoint(system.add(NodePoint([0.0, 0.0, 0.0], initial_velocities=[0.1, 0.0, 0.0])),
                                       1.0))
    system.add(CartesianSpringDamper([system.add(MarkerBodyPosition(system.add(ObjectGround()))),
                                      system.add(MarkerBodyPosition(point))], [-100.0] * 3, [0.0] * 3,
                                     allow_negative=True))
    system = system.assemble()
    failures = []
    for loop_in_c in (False, True):
        solver = GeneralizedAlpha(0.5, modified_newton=True, compile=True)
        solver.native = loop_in_c
        with pytest.raises(SolverError, match="at t = 1.46: the state grew without bound") as caught:
            solver.solve(system, 4.0, 400, progress=False, store_every=10)
        failures.append(caught.value)
    in_python, in_c = failures
    assert str(in_c) == str(in_python) and in_c.time == in_python.time
    assert in_c.result.info["native_steps"] == in_c.result.statistics.steps == 146
    assert np.array_equal(in_c.result.t, in_python.result.t)
    assert np.abs(in_c.result.q - in_python.result.q).max() <= 1e-12 * np.abs(in_python.result.q).max()


def pendulum_with_twin_joint():
    """The pendulum with a second spherical joint at its pivot ('twin'): redundant constraints, assembled anyway."""
    system, info = build_pendulum()
    ground = system.add(ObjectGround())
    system.add(SphericalJoint([system.add(MarkerBodyPosition(ground)),
                               system.add(MarkerBodyPosition(info.body, [0.0, info.length, 0.0]))], name="twin"))
    return system.assemble(check_redundancy=False)


def test_singular_matrix_in_c_names_the_cause_as_the_python_loop():
    """The twin spherical joint of tests/solvers/test_dense_path.py: the first step's LU fails in C with the
    Python loop's message (the redundant constraints named from the matrix C returns)."""
    system = pendulum_with_twin_joint()
    messages = []
    for loop_in_c in (False, True):
        solver = GeneralizedAlpha(0.5, linear_algebra="dense", min_step=0.01, compile=True)
        solver.native = loop_in_c
        with pytest.raises(SolverError, match=r"singular iteration matrix at t = 0.01\b.*'twin'") as caught:
            solver.solve(system, 0.1, 10, a0=np.zeros(system.n_coordinates), progress=False)
        messages.append((str(caught.value), caught.value.time, solver.statistics.factorizations,
                         solver.statistics.rejected_steps))
    assert messages[0] == messages[1]


def test_pre_step_keeps_the_python_loop_with_the_same_results(pendulum):
    system, _ = pendulum
    calls = []
    in_c = SCHEMES["genalpha-modified"]().solve(system, 0.1, 100, progress=False)
    with_hook = SCHEMES["genalpha-modified"]().solve(system, 0.1, 100, progress=False,
                                                     pre_step=lambda t, state: calls.append(t))
    assert len(calls) == 100 and with_hook.info["native_steps"] == 0 and in_c.info["native_steps"] == 100
    assert np.array_equal(with_hook.q, in_c.q) and np.array_equal(with_hook.lam, in_c.lam)


def pushed_pendulum(signal):
    """The pendulum with a force Input (3,) at a body-fixed point 0.3 m off its centre, given by ``signal``."""
    system, info = build_pendulum()
    system.add(LoadForceVector(system.add(MarkerBodyPosition(info.body, [0.3, 0.0, 0.0])), Input("push", 3)))
    assembled = system.assemble()
    assembled.set_input("push", signal)
    return assembled


@pytest.mark.parametrize("control", [None, ResidualStop()], ids=["floatframe's stop", "Exudyn's iteration"])
def test_input_signals_are_called_back_from_c_with_the_python_loops_results(control):
    """A model with an Input signal keeps the C loop, which asks Python for u(t) at each step: every step in C,
    the signal called at the Python loop's times, and the same decisions and states."""
    calls = {False: [], True: []}
    results = []
    for in_c in (False, True):
        system = pushed_pendulum(lambda t, calls=calls[in_c]: calls.append(t) or [0.0, -50.0 * np.sin(8.0 * t), 0.0])
        solver = GeneralizedAlpha(0.7, modified_newton=True, compile=True, newton_control=control)
        solver.native = in_c
        results.append(solver.solve(system, 0.5, 200, progress=False))
    assert_same_run(*results)
    assert calls[True] == calls[False] and len(calls[True]) >= 200
    assert np.abs(results[1].q[-1] - results[0].q[-1]).max() == 0.0


def test_a_failing_input_signal_ends_the_c_loop_with_the_python_loops_error():
    def signal(t):
        if t > 0.25:
            raise ValueError(f"no push after 0.25 s (t = {t:.4g})")
        return [0.0, -50.0, 0.0]

    messages = []
    for in_c in (False, True):
        solver = GeneralizedAlpha(0.7, compile=True)
        solver.native = in_c
        with pytest.raises(ValueError, match=r"no push after 0.25 s") as caught:
            solver.solve(pushed_pendulum(signal), 0.5, 200, progress=False)
        messages.append(str(caught.value))
    assert messages[0] == messages[1] == "no push after 0.25 s (t = 0.2525)"


def test_python_and_c_take_turns_in_one_solve(pendulum, monkeypatch):
    """The kept iteration matrix and the matrix renewal pass between the loops (as when compile="auto"
    finishes compiling during a solve): the first 300 grid times in Python, the rest in C, the same run."""
    system, _ = pendulum
    reference = GeneralizedAlpha(0.5, modified_newton=True, compile=True, native=False).solve(
        system, 1.0, 1000, progress=False)
    asked = []
    ready = native.NativeLoop.ready
    monkeypatch.setattr(native.NativeLoop, "ready", lambda self: len(asked) >= 300 and ready(self)
                        or asked.append(1) or False)
    mixed = GeneralizedAlpha(0.5, modified_newton=True, compile=True).solve(system, 1.0, 1000, progress=False)
    assert mixed.info["native_steps"] == 700
    for count in COUNTS:
        assert getattr(mixed.statistics, count) == getattr(reference.statistics, count), count
    for name in ("q", "v", "a", "lam"):
        assert np.array_equal(getattr(mixed, name), getattr(reference, name)), name


@pytest.mark.parametrize("build", [lambda: build_pendulum()[0], lambda: build_slider_crank(modes=4).system,
                                   lambda: build_spinning_rotor()[0]],
                         ids=["pendulum", "slider-crank", "spinning-rotor"])
def test_consistent_start_in_c_equals_python_and_the_sparse_solve(build):
    """The consistent initial accelerations and multipliers of the dense path (the kernel's initial_system, getrf and
    getrs) are the same bits in C and in Python, and the sparse path's to round-off of the acceleration system."""
    from floatframe.solvers.dense import dense_kernel
    from floatframe.solvers.linear import consistent_accelerations
    system = build().assemble()
    q, v = system.q_initial, system.v_initial
    v = v + 0.3 * np.sin(np.arange(v.size))   # velocities that load the constraints' d^2C/dt^2 - C_q a
    kernel = dense_kernel(system, 3, compile=True)
    in_python = kernel.initial_accelerations(0.0, q, v, np.zeros(0), system.parameters_now())
    in_c = native.NativeLoop.set_up_now(GeneralizedAlpha(compile=True), system, kernel).initial_accelerations(0.0, q, v)
    sparse = consistent_accelerations(system, 0.0, q, v, "test")
    for from_c, from_python, from_sparse in zip(in_c, in_python, sparse):
        assert np.array_equal(from_c, from_python)
        assert np.abs(from_python - from_sparse).max() <= 1e-12 * (np.abs(from_sparse).max() + 1.0)
    assert np.abs(sparse[0]).max() > 0.1   # a start that is not at rest


def test_singular_start_names_the_redundant_constraints_on_the_dense_path():
    """A singular acceleration system at t0 (the twin spherical joint) ends the dense path's start with the sparse
    path's message, which names the redundant constraints."""
    system = pendulum_with_twin_joint()
    messages = []
    for linear_algebra in ("sparse", "dense"):
        with pytest.raises(SolverError, match=r"singular acceleration-level system .*at t = 0\b.*'twin'") as caught:
            GeneralizedAlpha(0.5, linear_algebra=linear_algebra, compile=True).solve(system, 0.1, 10, progress=False)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]


def test_stored_blocks_stack_as_their_states():
    """The result of states kept as StateRows blocks (the C loop's) and as States (the Python loop's), mixed in
    one solve, is the stack of the same states in order."""
    from floatframe.solvers.loop import State, StateRows, stacked
    rng = np.random.default_rng(3)
    n, m = 3, 2
    states = [State(0.1 * k, *(rng.standard_normal(n) for _ in range(4)), rng.standard_normal(m)) for k in range(6)]
    rows = np.array([np.concatenate(([s.t], s.q, s.v, s.a, s.abar, s.lam)) for s in states])
    mixed = [states[0], StateRows(np.arange(1, 4), rows[1:4], n), states[4], StateRows(np.arange(5, 6), rows[5:], n)]
    for got, expected in zip(stacked(mixed, n), stacked(states, n)):
        assert np.array_equal(got, expected)
    assert StateRows(np.arange(1, 4), rows[1:4], n).t == states[3].t
    block = StateRows(np.arange(6), rows, n).select(np.array([0, 1, 0, 0, 1, 0], dtype=bool))
    assert block.k.tolist() == [1, 4]
    kept = block.state(1)
    assert kept.t == states[4].t
    for name in ("q", "v", "a", "abar", "lam"):
        assert np.array_equal(getattr(kept, name), getattr(states[4], name))
