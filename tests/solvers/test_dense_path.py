"""The dense low-overhead path of generalized-alpha (floatframe/solvers/dense.py) gives the sparse path's
numbers to round-off, takes the same Newton decisions, and fails with the same messages."""
import numpy as np
import pytest

from floatframe.components import MarkerBodyPosition, ObjectGround, SphericalJoint
from floatframe.models.pendulum import build_pendulum
from floatframe.models.rotor_disc import build_rotor_disc
from floatframe.models.spinning_rotor import build_spinning_rotor
from floatframe.solvers import GeneralizedAlpha, Newmark, Trapezoidal
from floatframe.solvers import compiling
from floatframe.solvers.compiling import compiler, sparse_kernel
from floatframe.solvers.dense import DENSE_LIMIT, dense_kernel, wants_dense
from floatframe.solvers.loop import State
from floatframe.solvers.result import SolverError

EPS = np.finfo(float).eps


def both_paths(make_solver, system, t_end, n_steps, **options):
    """(sparse result, dense result, the dense solver) of the same solve."""
    sparse = make_solver("sparse").solve(system, t_end, n_steps, progress=False, **options)
    solver = make_solver("dense")
    dense = solver.solve(system, t_end, n_steps, progress=False, **options)
    return sparse, dense, solver


def assert_same_run(sparse, dense, solver, h, q_tolerance):
    """q, v agree to q_tolerance; a and lambda to the round-off that the constraint rows scaled by 1/c_q
    (index 3) or 1/c_v (index 2) amplify: updates of a below it cannot be resolved (see GeneralizedAlpha.step).
    The Newton iterations, Jacobians and factorizations are the same in number."""
    kappa = (1 - solver.alpha_f) / (1 - solver.alpha_m)
    scale = h * h * solver.beta * kappa if solver.index == 3 else h * solver.gamma * kappa
    amplified = 100 * EPS * (np.abs(sparse.q).max() + 1.0) / scale
    assert np.abs(dense.q - sparse.q).max() <= q_tolerance
    assert np.abs(dense.v - sparse.v).max() <= q_tolerance / h
    assert np.abs(dense.a - sparse.a).max() <= amplified * (np.abs(sparse.a).max() + 1.0)
    assert np.abs(dense.lam - sparse.lam).max() <= amplified * (np.abs(sparse.lam).max() + 1.0)
    for count in ("steps", "newton_iterations", "jacobian_evaluations", "factorizations", "rejected_steps"):
        assert getattr(dense.statistics, count) == getattr(sparse.statistics, count), count
    for sensor_sparse, sensor_dense in zip(sparse.sensors, dense.sensors):
        # positions, velocities and angular velocities: the velocities' bound, relative
        assert np.abs(sensor_dense - sensor_sparse).max() <= q_tolerance / h * (np.abs(sensor_sparse).max() + 1.0)


@pytest.mark.parametrize("make_solver", [
    lambda la: GeneralizedAlpha(0.5, modified_newton=True, linear_algebra=la),
    lambda la: GeneralizedAlpha(0.9, linear_algebra=la),
    lambda la: Newmark(modified_newton=True, index=2, linear_algebra=la),
    lambda la: Trapezoidal(index=2, linear_algebra=la),
], ids=["genalpha-modified", "genalpha-full", "newmark-index2", "trapezoidal-index2"])
def test_pendulum_dense_equals_sparse(pendulum, make_solver):
    system, _ = pendulum
    sparse, dense, solver = both_paths(make_solver, system, 1.0, 1000)
    assert_same_run(sparse, dense, solver, 1e-3, 1e-12)


def test_spinning_rotor_dense_equals_sparse():
    system = build_spinning_rotor()[0].assemble()
    sparse, dense, solver = both_paths(
        lambda la: GeneralizedAlpha(0.5, modified_newton=True, linear_algebra=la), system, 0.05, 500)
    assert sparse.statistics.iterations_per_step > 1.5  # the supports make Newton work
    assert_same_run(sparse, dense, solver, 1e-4, 1e-12)


def test_rotor_disc_dense_equals_sparse():
    """The flexible rotor-disc (742 coordinates, far above DENSE_LIMIT) forced onto the dense path."""
    model = build_rotor_disc("tisserand")
    system = model.system.assemble()
    assert not wants_dense(system, "auto")
    sparse, dense, solver = both_paths(
        lambda la: GeneralizedAlpha(0.5, modified_newton=True, linear_algebra=la), system, 5e-4, 5)
    assert_same_run(sparse, dense, solver, 1e-4, 1e-12 * (np.abs(sparse.q).max() + 1.0))


def test_reduced_rotor_disc_dense_equals_sparse():
    """The rotor-disc reduced to 8 free-free modes (15 coordinates, Exudyn's performance set-up on the
    built-in mesh): the dense path by default."""
    model = build_rotor_disc(modes=8)
    system = model.system.assemble()
    assert wants_dense(system, "auto")
    sparse, dense, solver = both_paths(
        lambda la: GeneralizedAlpha(0.5, modified_newton=True, linear_algebra=la), system, 0.02, 200)
    assert np.abs(sparse.sensor(model.sensor)).max() > 1e-6  # the rotor deforms
    assert_same_run(sparse, dense, solver, 1e-4, 1e-12)


def test_auto_chooses_by_size(pendulum):
    system, _ = pendulum
    assert system.n_coordinates + system.n_multipliers <= DENSE_LIMIT
    assert wants_dense(system, "auto") and wants_dense(system, "dense") and not wants_dense(system, "sparse")


def test_unknown_linear_algebra_is_refused():
    with pytest.raises(ValueError, match="linear_algebra must be 'auto', 'dense' or 'sparse', got 'lu'"):
        GeneralizedAlpha(linear_algebra="lu")


def test_singular_iteration_matrix_in_a_step_names_the_cause_and_time():
    """Given initial accelerations skip the consistent start, so the first step's dense LU meets the twin joint
    (which the assembly would refuse: its check is switched off to reach the solver's own diagnosis)."""
    system, info = build_pendulum()
    ground = system.add(ObjectGround())
    system.add(SphericalJoint([system.add(MarkerBodyPosition(ground)),
                               system.add(MarkerBodyPosition(info.body, [0.0, info.length, 0.0]))], name="twin"))
    system = system.assemble(check_redundancy=False)
    solver = GeneralizedAlpha(0.5, linear_algebra="dense", min_step=0.01)
    with pytest.raises(SolverError, match=r"at t = 0\b.*singular iteration matrix at t = 0.01\b.*"
                                          r"redundant constraints involving: .*'twin'"):
        solver.solve(system, 0.1, 10, a0=np.zeros(system.n_coordinates), progress=False)


@pytest.fixture
def kernel_cache(tmp_path, monkeypatch):
    if compiler() is None:
        pytest.skip("no C compiler")
    monkeypatch.setenv("FLOATFRAME_CACHE", str(tmp_path))
    return tmp_path


def test_compiled_kernel_gives_the_virtual_machines_numbers(kernel_cache):
    """gcc without fused multiply-adds does the SX graph's IEEE operations: the same bits."""
    system = build_spinning_rotor()[0].assemble()
    runs = [GeneralizedAlpha(0.5, modified_newton=True, compile=compile).solve(system, 0.02, 200, progress=False)
            for compile in (False, True)]
    assert dense_kernel(system, 3).is_compiled
    for name in ("q", "v", "a", "lam"):
        assert np.array_equal(getattr(runs[0], name), getattr(runs[1], name)), name


def test_the_compiled_sparse_path_gives_the_virtual_machines_numbers(kernel_cache):
    """The sparse path's residual and constraint rows, compiled, replace the system's own: the same bits."""
    system = build_spinning_rotor()[0].assemble()
    runs = [GeneralizedAlpha(0.5, modified_newton=True, linear_algebra="sparse", compile=compile).solve(
        system, 0.02, 200, progress=False) for compile in (False, True)]
    assert sparse_kernel(system, 3).is_compiled
    assert system.forms.numeric["residual"].class_name() == "External"
    assert runs[0].statistics.jacobian_evaluations == runs[1].statistics.jacobian_evaluations
    for name in ("q", "v", "a", "lam"):
        assert np.array_equal(getattr(runs[0], name), getattr(runs[1], name)), name


def test_compiled_kernel_is_cached_by_its_code(kernel_cache, monkeypatch):
    system = build_pendulum()[0].assemble()
    GeneralizedAlpha(compile=True).solve(system, 0.01, 10, progress=False)
    assert len(list(kernel_cache.glob("kernel_*.so"))) == 1
    monkeypatch.setenv("CC", "/nonexistent-compiler")
    monkeypatch.setenv("PATH", "")  # a second build of the same model must not compile again
    again = build_pendulum()[0].assemble()
    kernel = dense_kernel(again, 3, compile="auto")
    assert kernel.is_compiled


def test_compile_needs_a_compiler(monkeypatch, tmp_path):
    monkeypatch.setenv("FLOATFRAME_CACHE", str(tmp_path))   # an empty cache: no kernel to fall back on
    monkeypatch.setenv("CC", "/nonexistent-compiler")
    monkeypatch.setenv("PATH", "")
    system = build_pendulum()[0].assemble()
    with pytest.raises(RuntimeError, match="compile=True needs a C compiler"):
        GeneralizedAlpha(compile=True).solve(system, 0.01, 10, progress=False)
    assert GeneralizedAlpha(compile="auto").solve(system, 0.01, 10, progress=False).statistics.steps == 10


def test_switching_to_the_compiled_kernel_mid_solve_changes_no_bit(kernel_cache):
    system = build_spinning_rotor()[0].assemble()
    reference = GeneralizedAlpha(0.5, modified_newton=True, compile=False).solve(system, 0.02, 200, progress=False)
    kernel = dense_kernel(system, 3)
    assert not kernel.is_compiled

    def compile_halfway(t_next, state):
        if abs(t_next - 0.01) < 1e-12:
            kernel.compile()
    switched = GeneralizedAlpha(0.5, modified_newton=True).solve(system, 0.02, 200, progress=False,
                                                                 pre_step=compile_halfway)
    assert kernel.is_compiled
    for name in ("q", "v", "a", "lam"):
        assert np.array_equal(getattr(reference, name), getattr(switched, name)), name


@pytest.mark.parametrize("compile_seconds, compiles", [(0.0, True), (1e9, False)])
def test_auto_compiles_in_the_background_when_the_rest_of_the_solve_takes_longer(
        kernel_cache, monkeypatch, compile_seconds, compiles):
    monkeypatch.setattr(compiling, "COMPILE_SECONDS", compile_seconds)
    monkeypatch.setattr(compiling, "COMPILE_SECONDS_PER_INSTRUCTION", 0.0)
    system = build_pendulum()[0].assemble()
    GeneralizedAlpha(0.5, modified_newton=True).solve(system, 0.1, compiling.DECISION_STEPS + 10, progress=False)
    kernel = dense_kernel(system, 3)
    assert (kernel.is_compiled or kernel._compilation is not None) == compiles
    if compiles:
        kernel.compile()  # waits for the background compilation
        assert kernel.is_cached()
    else:
        assert not list(kernel_cache.glob("kernel_*.so"))


@pytest.mark.parametrize("limit", ["COMPILE_INSTRUCTION_LIMIT", "FUNCTION_INSTRUCTION_LIMIT"])
def test_auto_does_not_compile_kernels_beyond_the_limit(kernel_cache, monkeypatch, limit):
    """Neither a kernel of more instructions in all than the one limit, nor one with a Function larger than the
    other (gcc's time grows faster than linearly in a function's size)."""
    monkeypatch.setattr(compiling, "COMPILE_SECONDS", 0.0)
    monkeypatch.setattr(compiling, "COMPILE_SECONDS_PER_INSTRUCTION", 0.0)
    system = build_pendulum()[0].assemble()
    kernel = dense_kernel(system, 3, compile=False)
    sizes = [function.n_instructions() for function in kernel.functions]
    # just below the kernel's size: in all, or of its largest Function
    monkeypatch.setattr(compiling, limit, (sum(sizes) if limit == "COMPILE_INSTRUCTION_LIMIT" else max(sizes)) - 1)
    GeneralizedAlpha(0.5, modified_newton=True).solve(system, 0.1, compiling.DECISION_STEPS + 10, progress=False)
    assert not kernel.is_compiled and kernel._compilation is None
    assert not list(kernel_cache.glob("kernel_*.so"))


def test_auto_compiles_a_kernel_at_the_limits(kernel_cache, monkeypatch):
    monkeypatch.setattr(compiling, "COMPILE_SECONDS", 0.0)
    monkeypatch.setattr(compiling, "COMPILE_SECONDS_PER_INSTRUCTION", 0.0)
    system = build_pendulum()[0].assemble()
    kernel = dense_kernel(system, 3, compile=False)
    sizes = [function.n_instructions() for function in kernel.functions]
    monkeypatch.setattr(compiling, "COMPILE_INSTRUCTION_LIMIT", sum(sizes))
    monkeypatch.setattr(compiling, "FUNCTION_INSTRUCTION_LIMIT", max(sizes))
    GeneralizedAlpha(0.5, modified_newton=True).solve(system, 0.1, compiling.DECISION_STEPS + 10, progress=False)
    assert kernel._compilation is not None or kernel.is_compiled
    kernel.compile()   # waits for the background compilation
    assert kernel.is_cached()


def test_a_cached_kernel_is_loaded_without_building_its_graph(kernel_cache):
    """The cache's name comes from the system Functions the kernel composes: a second build of the model finds the
    library and binds it without composing the SX kernel, and solves to the same bits."""
    system = build_pendulum()[0].assemble()
    first = GeneralizedAlpha(compile=True).solve(system, 0.01, 10, progress=False)
    again = build_pendulum()[0].assemble()
    kernel = dense_kernel(again, 3, compile="auto")
    assert kernel.is_compiled and kernel._functions is None
    second = GeneralizedAlpha().solve(again, 0.01, 10, progress=False)
    assert kernel._functions is None
    for name in ("q", "v", "a", "lam"):
        assert np.array_equal(getattr(first, name), getattr(second, name)), name


def test_another_model_does_not_find_the_kernel(kernel_cache):
    GeneralizedAlpha(compile=True).solve(build_pendulum()[0].assemble(), 0.01, 10, progress=False)
    other = build_spinning_rotor()[0].assemble()
    assert not dense_kernel(other, 3, compile="auto").is_compiled
    assert not dense_kernel(build_pendulum()[0].assemble(), 2, compile="auto").is_compiled   # index 2: another kernel


@pytest.mark.parametrize("steps", [compiling.DECISION_STEPS + 10, 10], ids=["long", "short"])
def test_compile_ahead_compiles_what_does_not_pay_for_the_next_run(kernel_cache, monkeypatch, steps):
    """FLOATFRAME_COMPILE_AHEAD=1: a kernel whose compilation would not pay within the solve (a long solve's
    estimate, or a solve too short to measure) is compiled anyway, in the background, and a later build of the
    same model starts compiled; without it, nothing is compiled."""
    monkeypatch.setattr(compiling, "COMPILE_SECONDS", 1e9)
    for ahead, compiled_next in (("0", False), ("1", True)):
        monkeypatch.setenv("FLOATFRAME_COMPILE_AHEAD", ahead)
        system = build_pendulum()[0].assemble()
        GeneralizedAlpha(0.5, modified_newton=True).solve(system, 0.1, steps, progress=False)
        kernel = dense_kernel(system, 3)
        if kernel._compilation is not None:
            kernel._compilation.finished(wait=True)
        assert dense_kernel(build_pendulum()[0].assemble(), 3, compile="auto").is_compiled == compiled_next
    assert not list(kernel_cache.glob("build_*"))   # the scratch folders are gone


def test_sensor_rows_with_structural_zeros_come_out_in_place():
    """A sensors Function whose output has structural zeros (its map holds only the nonzeros of each state): the
    values land in their rows and the zeros stay zero, as a dense evaluation state by state gives them."""
    import casadi as ca
    from floatframe.solvers import dense
    t, q, v, a, lam, u, p = (ca.SX.sym(name, size) for name, size in (("t", 1), ("q", 2), ("v", 2), ("a", 2),
                                                                        ("lam", 0), ("u", 0), ("p", 0)))
    output = ca.SX(4, 1)
    output[0], output[2], output[3] = q[0] * t, v[1], a[0] + q[1]   # row 1 a structural zero
    function = ca.Function("sensors", [t, q, v, a, lam, u, p], [output])

    class Sensed:
        sensor_names, sensor_slices, has_user_functions = ["first", "second"], [0, 2, 4], False
        n_coordinates, n_multipliers, inputs = 2, 0, []

        def numeric_function(self, name):
            return function

        def parameters_now(self):
            return np.zeros(0)
    states = np.random.default_rng(1).standard_normal((37, 7))
    times, qs, vs, accelerations = states[:, 0], states[:, 1:3], states[:, 3:5], states[:, 5:7]
    series = dense.sensor_series(Sensed(), times, qs, vs, accelerations, np.zeros((37, 0)))
    expected = np.array([np.array(ca.densify(function(*row, [], [], []))).ravel() for row in
                         zip(times, qs, vs, accelerations)])
    assert function.sparsity_out(0).nnz() == 3
    assert np.array_equal(np.hstack(series), expected) and np.all(expected[:, 1] == 0.0)


def test_sensors_mapped_over_the_stored_states_equal_their_values_state_by_state(monkeypatch):
    """The sensors Function evaluated once for many states (CasADi's map, in batches) gives each state's values
    bit for bit as one call per state does."""
    from floatframe.solvers import dense
    system = build_pendulum()[0].assemble()
    assert system.sensor_names
    result = GeneralizedAlpha(0.5).solve(system, 0.2, 40, progress=False)
    states = [State(t, q, v, a, a, lam) for t, q, v, a, lam in zip(result.t, result.q, result.v, result.a, result.lam)]
    one_by_one = dense.sensor_evaluator(system)
    expected = [np.vstack([one_by_one(s.t, s.q, s.v, s.a, s.lam)[i] for s in states])
                for i in range(len(system.sensor_names))]
    for batch in (dense.SENSOR_BATCH_VALUES, 7 * (system.n_coordinates + system.n_multipliers)):
        monkeypatch.setattr(dense, "SENSOR_BATCH_VALUES", batch)    # 7 states a batch: six batches
        for mapped, reference in zip(dense.sensor_series(system, result.t, result.q, result.v, result.a, result.lam),
                                     expected):
            assert np.array_equal(mapped, reference)
    for mapped, reference in zip(result.sensors, expected):
        assert np.array_equal(mapped, reference)
