"""Exudyn's Newton iteration as an option of the implicit schemes (``ResidualStop``): its stop on the residual
norm, checked against a Newton iteration written out here, and floatframe's own stop left unchanged."""
import math

import numpy as np
import pytest

from floatframe.components import LoadForceVector, MarkerBodyPosition
from floatframe.models.pendulum import build_pendulum
from floatframe.solvers import GeneralizedAlpha, Newmark
from floatframe.solvers.alpha import predictor, step_factors
from floatframe.solvers.compiling import compiler
from floatframe.solvers.dense import dense_kernel
from floatframe.solvers.genalpha import ResidualStop
from floatframe.solvers.result import SolverError


@pytest.fixture(scope="module")
def pendulum():
    system, _ = build_pendulum()
    return system.assemble()


@pytest.fixture(scope="module")
def pushed_pendulum():
    """The pendulum with a force of 50 N along -y at the body-fixed point 0.3 m off its centre along x: a load
    that turns with the body (its part of the iteration matrix is not zero)."""
    system, info = build_pendulum()
    system.add(LoadForceVector(system.add(MarkerBodyPosition(info.body, [0.3, 0.0, 0.0])), [0.0, -50.0, 0.0]))
    return system.assemble()


def exudyn_first_step(system, solver, h, relative_tolerance, exudyn_jacobian, without_loads=False):
    """The first step written out: a = 0, lambda = 0, full Newton until |[R; C]| <= relative_tolerance |[R; C]|_first
    on the exact matrix or (``exudyn_jacobian``) on the matrix with a = 0, lambda = 0 in R (``without_loads``: less
    c_q d(-f_loads)/dq); returns (q, iterations, the stopped norms / the first)."""
    state = solver.init(system)
    c_q, c_v, _ = step_factors(h, solver.alpha_m, solver.alpha_f, solver.beta, solver.gamma)
    q_known, v_known, _ = predictor(state.q, state.v, state.a, state.abar, h, solver.alpha_m, solver.alpha_f,
                                    solver.beta, solver.gamma)
    n = system.n_coordinates
    a, lam = np.zeros(n), np.zeros(system.n_multipliers)
    t = state.t + h

    def unscaled(a, lam):   # Exudyn's residual: M a - f + C_q^T lambda, C (not divided by c_q)
        q, v = q_known + c_q * a, v_known + c_v * a
        return np.concatenate([system.residual(t, q, v, a, lam), system.constraints(t, q)])

    first = np.linalg.norm(unscaled(a, lam))
    ratios = []
    while not ratios or ratios[-1] > relative_tolerance:
        q, v = q_known + c_q * a, v_known + c_v * a
        at = (np.zeros(n), np.zeros(lam.size)) if exudyn_jacobian else (a, lam)
        matrix = system.newton_matrix(t, q, v, *at, 1.0, c_v, c_q).toarray()
        if without_loads:
            matrix[:n, :n] -= c_q * np.array(system.load_residual()(t, q, [], system.parameters_now())[1])
        rows = unscaled(a, lam)
        rows[n:] /= c_q   # the iteration matrix's constraint rows are dC/da = C_q c_q, divided by c_q
        update = np.linalg.solve(matrix, rows)
        a, lam = a - update[:n], lam - update[n:]
        ratios.append(np.linalg.norm(unscaled(a, lam)) / first)
    return q_known + c_q * a, len(ratios), ratios


@pytest.mark.parametrize("linear_algebra", ["dense", "sparse"])
@pytest.mark.parametrize("exudyn_jacobian, counts", [(False, [2, 3]), (True, [3, 8])],
                         ids=["exact matrix", "Exudyn's matrix"])
def test_first_step_stops_where_the_residual_has_fallen_by_the_tolerance(pendulum, linear_algebra, exudyn_jacobian,
                                                                         counts):
    """Full Newton from a = 0, lambda = 0 stops at the first iterate whose residual norm is below 1e-3 (1e-8) of
    the first (h = 0.2 s; the exact matrix: the norms fall to 0.05, 6e-5, 5e-11 of it; Exudyn's contracts
    linearly): the same iteration count and the same q as the iteration written out (to 1e-13 m)."""
    h = 0.2
    found = []
    for tolerance in (1e-3, 1e-8):
        control = ResidualStop(relative_tolerance=tolerance, exudyn_jacobian=exudyn_jacobian)
        solver = GeneralizedAlpha(0.7, linear_algebra=linear_algebra, native=False, newton_control=control)
        result = solver.solve(pendulum, h, 1)
        q, iterations, ratios = exudyn_first_step(pendulum, solver, h, tolerance, exudyn_jacobian)
        assert result.statistics.newton_iterations == iterations
        assert ratios[-1] <= tolerance < ratios[-2]
        np.testing.assert_allclose(result.q[-1], q, rtol=0, atol=1e-13)
        found.append(iterations)
    assert found == counts


@pytest.mark.parametrize("linear_algebra", ["dense", "sparse"])
def test_exudyns_matrix_leaves_out_the_loads_part(pushed_pendulum, linear_algebra):
    """Exudyn's matrix (computeLoadsJacobian = 0) without the turning load's part c_q d(-f_loads)/dq: the first step
    as written out with it left out (the same count to 1e-8, the same q to 1e-13 m); with loads_jacobian the
    load's part stays: the residual after the second update differs by more than 2 % (measured 5.6 %)."""
    second = {}
    for loads_jacobian in (False, True):
        control = ResidualStop(relative_tolerance=1e-8, loads_jacobian=loads_jacobian)
        solver = GeneralizedAlpha(0.7, linear_algebra=linear_algebra, native=False, newton_control=control)
        result = solver.solve(pushed_pendulum, 0.2, 1)
        q, iterations, ratios = exudyn_first_step(pushed_pendulum, solver, 0.2, 1e-8, True, not loads_jacobian)
        assert result.statistics.newton_iterations == iterations
        np.testing.assert_allclose(result.q[-1], q, rtol=0, atol=1e-13)
        second[loads_jacobian] = ratios[1]
    assert abs(second[False] - second[True]) > 0.02 * second[True]


def test_a_loose_stop_leaves_the_tolerance_in_the_solution(pendulum):
    """The stop decides the solution: at 1e-3 the pendulum's end state differs from that at 1e-12 by more than
    1e-9 m, at 1e-12 from floatframe's own stop by less than 1e-10 m."""
    def final(control):
        return GeneralizedAlpha(0.7, newton_control=control).solve(pendulum, 1.0, 100).q[-1]
    loose, tight, own = final(ResidualStop(1e-3, 0.0)), final(ResidualStop(1e-12, 0.0)), final(None)
    assert np.abs(loose - tight).max() > 1e-9
    assert np.abs(tight - own).max() < 1e-10


def test_an_absolute_tolerance_above_every_residual_takes_one_iteration_a_step(pendulum):
    result = GeneralizedAlpha(0.7, newton_control=ResidualStop(absolute_tolerance=1e6)).solve(pendulum, 0.2, 20)
    assert result.statistics.newton_iterations == 20


def test_modified_newton_keeps_its_matrix_and_meets_the_same_stop(pendulum):
    """Modified Newton forms far fewer matrices than full Newton; both stop at the tolerance 1e-10, so their end
    states agree to 1e-9 m."""
    control = ResidualStop(relative_tolerance=1e-10)
    full = GeneralizedAlpha(0.7, newton_control=control).solve(pendulum, 1.0, 100)
    modified = GeneralizedAlpha(0.7, modified_newton=True, newton_control=control).solve(pendulum, 1.0, 100)
    assert modified.statistics.jacobian_evaluations < full.statistics.jacobian_evaluations / 5
    assert full.statistics.jacobian_evaluations == full.statistics.newton_iterations
    np.testing.assert_allclose(modified.q[-1], full.q[-1], rtol=0, atol=1e-9)


def test_dense_and_sparse_paths_take_the_same_iterations(pendulum):
    results = [Newmark(0.6, modified_newton=True, linear_algebra=path, newton_control=ResidualStop(1e-6))
               .solve(pendulum, 1.0, 100) for path in ("dense", "sparse")]
    assert results[0].statistics.newton_iterations == results[1].statistics.newton_iterations
    assert results[0].statistics.jacobian_evaluations == results[1].statistics.jacobian_evaluations
    np.testing.assert_allclose(results[0].q[-1], results[1].q[-1], rtol=0, atol=1e-12)


def test_each_iteration_evaluates_the_residual_once_on_the_dense_path():
    """The update comes from the rows already evaluated for the stopping test (DenseNewtonKernel.update): the
    kernel's rows are evaluated once a counted residual evaluation (the start of a step and each iteration), its
    newton_iterate (which evaluates the rows itself) never; the end state is the sparse path's."""
    solver = GeneralizedAlpha(0.7, linear_algebra="dense", native=False, compile=False,
                              newton_control=ResidualStop(1e-8))
    pendulum = build_pendulum()[0].assemble()   # (its own: a kernel of the SX Functions, bound here)
    calls = {"rows": 0, "iterate": 0}
    kernel = dense_kernel(pendulum, solver.index, compile=False)
    kernel._bound_inputs()
    for name, function in (("rows", kernel._rows), ("iterate", kernel._iterate)):
        def counted(evaluate=function.evaluate, name=name):
            calls[name] += 1
            return evaluate()
        function.evaluate = counted
    result = solver.solve(pendulum, 0.5, 50, progress=False)
    sparse = GeneralizedAlpha(0.7, linear_algebra="sparse", newton_control=ResidualStop(1e-8)).solve(pendulum, 0.5,
                                                                                                   50)
    assert calls == {"rows": result.statistics.residual_evaluations, "iterate": 0}
    assert result.statistics.residual_evaluations == result.statistics.newton_iterations + 50
    np.testing.assert_allclose(result.q[-1], sparse.q[-1], rtol=0, atol=1e-12)


def test_the_norm_weighs_the_constraint_rows_by_their_divisor():
    rows = np.array([3.0, 0.0, 4.0 / 0.5])
    assert ResidualStop().norm(rows, 2, 0.5) == pytest.approx(5.0)
    assert ResidualStop(coordinate_factor=math.sqrt(3)).norm(rows, 2, 0.5) == pytest.approx(5.0 / math.sqrt(3))


def test_floatframes_own_stop_is_unchanged():
    """Without newton_control the end state and the counts are those before the option, bit for bit (recorded
    from the commit before it, each on a pendulum of its own: modified Newton's matrix renewal estimates its cost
    from the system's Functions before compiled ones replace them)."""
    full = GeneralizedAlpha(0.7).solve(build_pendulum()[0].assemble(), 1.0, 100)
    modified = GeneralizedAlpha(0.7, modified_newton=True).solve(build_pendulum()[0].assemble(), 1.0, 100)
    assert full.q[-1].tolist() == [-0.5899378036018192, -0.0003403802250094953, 0.0, 8.605768836520615e-05, 0.0,
                                   0.0, -0.29830574253264563]
    assert modified.q[-1].tolist() == [-0.5899378036176659, -0.0003403802201236808, 0.0, 8.605768712995717e-05,
                                       0.0, 0.0, -0.29830574254084385]
    assert (full.statistics.newton_iterations, modified.statistics.newton_iterations,
            modified.statistics.jacobian_evaluations) == (298, 379, 27)


def test_newton_control_must_be_a_residual_stop():
    with pytest.raises(TypeError, match="ResidualStop"):
        GeneralizedAlpha(newton_control="exudyn")


COUNTS = ("steps", "newton_iterations", "jacobian_evaluations", "factorizations", "residual_evaluations",
          "rejected_steps")
NATIVE_SCHEMES = {
    "modified": lambda control: GeneralizedAlpha(0.5, modified_newton=True, compile=True, newton_control=control),
    "full": lambda control: GeneralizedAlpha(0.9, compile=True, newton_control=control),
    "newmark index 2": lambda control: Newmark(modified_newton=True, index=2, compile=True, newton_control=control),
}
NATIVE_CONTROLS = {
    "Exudyn's defaults": ResidualStop(),
    "loose, exact matrix": ResidualStop(relative_tolerance=1e-4, exudyn_jacobian=False),
    "matrix every step": ResidualStop(relative_tolerance=1e-6, jacobian_per_step=True, adapt_initial_residual=False),
    "restarts": ResidualStop(contractivity=1e-3, max_modified_iterations=2, max_restart_iterations=1),
}


@pytest.mark.skipif(compiler() is None, reason="the C step loop needs a C compiler")
@pytest.mark.parametrize("model", ["pendulum", "pushed_pendulum"])
@pytest.mark.parametrize("scheme", NATIVE_SCHEMES)
@pytest.mark.parametrize("control", NATIVE_CONTROLS)
def test_the_c_loop_takes_the_python_loops_iterations_bit_for_bit(request, model, scheme, control):
    """The C step loop (native_loop.c) with ResidualStop: every step in C, the same counts (iterations, matrices,
    residual evaluations) and the same states to the last bit as the Python loop (with a turning load: the matrix
    less its part, as Exudyn's)."""
    system = request.getfixturevalue(model)
    results = []
    for in_c in (False, True):
        solver = NATIVE_SCHEMES[scheme](NATIVE_CONTROLS[control])
        solver.native = in_c
        results.append(solver.solve(system, 0.5, 500, progress=False, store_every=3))
    in_python, in_c = results
    assert in_python.info["native_steps"] == 0 and in_c.info["native_steps"] == in_c.statistics.steps == 500
    for count in COUNTS:
        assert getattr(in_c.statistics, count) == getattr(in_python.statistics, count), count
    for name in ("t", "q", "v", "a", "lam"):
        assert np.array_equal(getattr(in_c, name), getattr(in_python, name)), name


@pytest.mark.skipif(compiler() is None, reason="the C step loop needs a C compiler")
def test_a_failed_step_in_c_is_the_python_loops(pendulum):
    """Two iterations allowed, a tolerance they cannot meet: both loops halve the step down to min_step and fail
    with the same message and partial result."""
    failures = []
    for in_c in (False, True):
        solver = GeneralizedAlpha(0.7, max_iterations=2, min_step=0.005, compile=True,
                                  newton_control=ResidualStop(relative_tolerance=1e-14, absolute_tolerance=0.0))
        solver.native = in_c
        with pytest.raises(SolverError, match="of the step's first") as caught:
            solver.solve(pendulum, 1.0, 100, progress=False)
        failures.append(caught.value)
    assert str(failures[0]) == str(failures[1])
    assert failures[1].result.info["native_steps"] == failures[1].result.statistics.steps
    for count in COUNTS:
        assert getattr(failures[1].result.statistics, count) == getattr(failures[0].result.statistics, count)
