"""Radau IIA (floatframe/solvers/radau.py): the measured orders of positions, velocities and multipliers at index 3,
the two linear solvers, agreement with IDAS on the pendulum and Andrews' mechanism, the step-size control, and
the contract."""
import warnings

import numpy as np
import pytest

import floatframe as ff
from floatframe.compare import make_solver, mixed_significant_correct_digits, scheme_class, solver_kind
from floatframe.models.andrews import T_END, build_andrews
from floatframe.solvers.radau import BUTCHER, NODES, AdaptiveRadauIIA, RadauIIA
from model_helpers import ContractOnly

TIGHT = dict(relative_tolerance=1e-15, absolute_tolerance=1e-17, max_iterations=30)


def final_states(system, steps, t_end=1.0):
    """The fixed-step results at t_end for each number of steps."""
    return {k: RadauIIA(**TIGHT).solve_grid(system, np.array([0.0, t_end]), h=t_end / k) for k in steps}


def orders(errors):
    return np.log2(np.array(errors[:-1]) / np.array(errors[1:]))


def test_the_butcher_table_is_radau_iia_of_three_stages():
    # order conditions up to 5 of the collocation method: sum_j a_ij c_j^(k-1) = c_i^k / k, b = last row
    for k in range(1, 4):
        assert BUTCHER @ NODES ** (k - 1) == pytest.approx(NODES ** k / k, abs=1e-15)
    for k in range(1, 6):
        assert BUTCHER[2] @ NODES ** (k - 1) == pytest.approx(1.0 / k, abs=1e-15)


def test_positions_converge_with_the_declared_order_five(pendulum):
    system, info = pendulum
    results = final_states(system, (10, 20, 40))
    reference = info.position_reference(np.array([0.0, 1.0]), rtol=1e-13, atol=1e-16)[-1]
    errors = [np.abs(results[k].sensor(info.position_sensor)[-1] - reference).max() for k in (10, 20, 40)]
    # measured 7.05e-7, 2.37e-8, 7.60e-10: orders 4.90, 4.96
    assert RadauIIA.order == 5 and AdaptiveRadauIIA.order == 5
    assert np.all(np.abs(orders(errors) - 5.0) < 0.2), (errors, orders(errors))


def test_velocities_converge_with_order_three_and_multipliers_with_order_two(pendulum):
    # Hairer, Lubich and Roche: at index 3 the s-stage Radau IIA gives h^s in v and h^(s-1) in lambda
    system, _ = pendulum
    results = final_states(system, (10, 20, 40, 640))
    fine = results.pop(640)
    velocity = [np.abs(results[k].v[-1] - fine.v[-1]).max() for k in (10, 20, 40)]
    multiplier = [np.abs(results[k].lam[-1] - fine.lam[-1]).max() for k in (10, 20, 40)]
    # measured: v 2.91, 2.97; lambda 2.16, 2.05
    assert np.all(np.abs(orders(velocity) - 3.0) < 0.2), (velocity, orders(velocity))
    assert np.all(np.abs(orders(multiplier) - 2.0) < 0.25), (multiplier, orders(multiplier))


def test_the_transformed_and_the_full_newton_systems_give_the_same_steps(pendulum):
    system, _ = pendulum
    grid = np.linspace(0.0, 0.5, 6)
    transformed = RadauIIA(linear_solver="transformed").solve_grid(system, grid, h=0.02)
    full = RadauIIA(linear_solver="full").solve_grid(system, grid, h=0.02)
    assert transformed.statistics.newton_iterations == full.statistics.newton_iterations
    assert np.abs(transformed.q - full.q).max() <= 1e-12
    assert np.abs(transformed.lam - full.lam).max() <= 1e-9 * np.abs(full.lam).max()


def test_the_steps_keep_the_position_constraints(pendulum):
    system, _ = pendulum
    result = RadauIIA().solve_grid(system, np.linspace(0.0, 1.0, 11), h=0.05)
    gaps = [np.abs(system.constraints(t, q)).max() for t, q in zip(result.t, result.q)]
    assert max(gaps) <= 1e-12


def test_it_agrees_with_idas_at_tight_tolerance_on_the_pendulum(pendulum):
    system, info = pendulum
    grid = np.linspace(0.0, 1.0, 11)
    reference = ff.IDAS(rtol=1e-10, atol=1e-12).solve_grid(system, grid)
    result = RadauIIA().solve_grid(system, grid, h=0.01)
    scale = np.abs(reference.sensor(0)).max()
    # measured 4.4e-10 m from IDAS, which is itself 4.1e-10 m from the angle ODE (Radau: 5.5e-10)
    assert np.abs(result.sensor(0) - reference.sensor(0)).max() <= 2e-9 * scale


@pytest.fixture(scope="module")
def andrews():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # the nine repeated loop rows, removed at assembly
        mechanism = build_andrews()
        return mechanism, mechanism.system.assemble()


def test_it_agrees_with_idas_and_the_published_solution_on_andrews_mechanism(andrews):
    mechanism, system = andrews
    grid = np.linspace(0.0, T_END, 31)
    reference = ff.IDAS(rtol=1e-10, atol=1e-12).solve_grid(system, grid)
    result = AdaptiveRadauIIA(rtol=1e-11, atol=1e-14).solve(system, t_grid=grid)
    sensor = mechanism.sensor
    scale = np.abs(reference.sensor(sensor)).max()
    # measured 5e-8 of the motion from IDAS; 7.5 mixed-error digits of the test set's y(1..7) at 0.03 s
    assert np.abs(result.sensor(sensor) - reference.sensor(sensor)).max() <= 3e-7 * scale
    assert mixed_significant_correct_digits(*mechanism.published(result)) >= 7.0


def test_the_step_size_control_meets_tighter_tolerances_with_smaller_errors(pendulum):
    system, info = pendulum
    grid = np.linspace(0.0, 1.0, 11)
    reference = info.position_reference(grid, rtol=1e-13, atol=1e-16)
    errors, steps = [], []
    for rtol in (1e-4, 1e-7, 1e-10):
        solver = AdaptiveRadauIIA(rtol=rtol, atol=rtol * 1e-3)
        result = solver.solve(system, t_grid=grid)
        assert np.array_equal(result.t, grid)
        errors.append(np.abs(result.sensor(0) - reference).max())
        steps.append(solver.statistics.steps)
    # measured 1.4e-5, 3.3e-7, 3.3e-10 m in 16, 31, 69 steps (RADAU5 aims at rtol' = 0.1 rtol^(2/3))
    assert errors[0] > 20 * errors[1] > 400 * errors[2]
    assert errors[2] <= 1e-9 and steps[0] < steps[1] < steps[2]


def test_the_adaptive_scheme_refuses_a_step_size(pendulum):
    system, _ = pendulum
    with pytest.raises(ValueError, match="AdaptiveRadauIIA chooses its own steps"):
        AdaptiveRadauIIA().solve(system, 0.1, 2, h=0.01)


@pytest.mark.parametrize("options, message", [
    (dict(linear_solver="lu"), "linear_solver must be 'transformed' or 'full'"),
    (dict(relative_tolerance=0.0, absolute_tolerance=0.0), "both 0"),
    (dict(max_iterations=0), "max_iterations"),
])
def test_settings_outside_their_range_are_refused_naming_them(options, message):
    with pytest.raises(ValueError, match=message):
        RadauIIA(**options)


def oscillator(force_user_function=None):
    """A mass point (2 kg) on a spring to the ground (200 N/m in x, y and z), 0.1 m off; no constraints. With
    ``force_user_function`` the x spring is a CoordinateSpringDamper whose force is that Python function."""
    system = ff.System()
    node = system.add(ff.NodePoint([0.0, 0.0, 0.0], initial_coordinates=[0.1, 0.0, 0.0]))
    system.add(ff.ObjectMassPoint(node, 2.0))
    if force_user_function is None:
        ground = system.add(ff.MarkerBodyPosition(system.add(ff.ObjectGround())))
        system.add(ff.CartesianSpringDamper([ground, system.add(ff.MarkerNodePosition(node))], [200.0] * 3))
    else:
        ground = system.add(ff.MarkerNodeCoordinate(system.add(ff.NodePointGround([0.0, 0.0, 0.0])), 0))
        system.add(ff.CoordinateSpringDamper([ground, system.add(ff.MarkerNodeCoordinate(node, 0))], 0.0,
                                             force_user_function=force_user_function))
    return system.assemble()


@pytest.mark.parametrize("solver, options", [(RadauIIA(), dict(h=0.01)), (AdaptiveRadauIIA(1e-9, 1e-12), {})],
                         ids=["fixed", "adaptive"])
def test_a_model_without_constraints_follows_its_closed_form(solver, options):
    grid = np.linspace(0.0, 1.0, 11)
    result = solver.solve(oscillator(), t_grid=grid, **options)
    # omega = 10 rad/s; measured 1.2e-9 m (h omega = 0.1) and 3.1e-10 m
    assert np.abs(result.q[:, 0] - 0.1 * np.cos(10.0 * grid)).max() <= 5e-9


@pytest.mark.parametrize("solver", [RadauIIA(), AdaptiveRadauIIA()], ids=["fixed", "adaptive"])
def test_a_failing_user_function_ends_the_solve_naming_it(solver):
    def force(t, u, u_t):
        if t > 0.05:
            raise ZeroDivisionError("the spring broke")
        return 400.0 * float(u)

    with pytest.raises(ff.SolverError, match="force user function of CoordinateSpringDamper.*the spring broke") as error:
        solver.solve(oscillator(force), 0.5, 10)
    assert error.value.result.t[-1] == pytest.approx(0.05)


def test_adaptive_settings_outside_their_range_are_refused_naming_them():
    with pytest.raises(ValueError, match="rtol"):
        AdaptiveRadauIIA(rtol=0.0)
    with pytest.raises(ValueError, match="first_step"):
        AdaptiveRadauIIA(first_step=-1e-6)


@pytest.mark.parametrize("solver", [RadauIIA(), AdaptiveRadauIIA(rtol=1e-8)], ids=["fixed", "adaptive"])
def test_it_runs_on_the_contract_alone_with_the_same_numbers(pendulum, solver):
    system, _ = pendulum
    direct = solver.solve(system, 0.2, 10)
    through_contract = solver.solve(ContractOnly(system), 0.2, 10)
    assert np.array_equal(through_contract.q, direct.q)


def test_compare_takes_both_schemes_by_module_and_class():
    assert scheme_class("floatframe.solvers.radau:RadauIIA") is RadauIIA
    assert solver_kind("floatframe.solvers.radau:RadauIIA") == "h"
    assert solver_kind("floatframe.solvers.radau:AdaptiveRadauIIA") == "rtol"
    adaptive = make_solver("floatframe.solvers.radau:AdaptiveRadauIIA", 1e-6)
    assert (adaptive.rtol, adaptive.atol) == (1e-6, pytest.approx(1e-9))
    assert ff.RadauIIA is RadauIIA and ff.AdaptiveRadauIIA is AdaptiveRadauIIA
