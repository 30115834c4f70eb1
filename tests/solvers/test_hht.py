"""HHT-alpha (floatframe.solvers.hht): its measured order, its two special cases, agreement with IDAS."""
import numpy as np
import pytest

import floatframe as ff
from floatframe.solvers.hht import HHTAlpha

GRID = np.linspace(0.0, 1.0, 11)


def test_measured_order_is_the_declared_second_order(pendulum, position_error):
    system, info = pendulum
    solver = HHTAlpha(0.2)
    errors = [position_error(solver.solve_grid(system, GRID, h=h), info) for h in (0.02, 0.01, 0.005)]
    orders = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    assert solver.order == 2
    assert np.all(np.abs(orders - 2.0) < 0.2), (errors, orders)


@pytest.mark.parametrize("alpha, same", [(1.0 / 3.0, ff.GeneralizedAlpha(0.5)), (0.0, ff.Trapezoidal())],
                         ids=["alpha-1/3-is-genalpha-rho-1/2", "alpha-0-is-trapezoidal"])
def test_its_ends_are_generalized_alpha_at_rho_one_half_and_the_trapezoidal_rule(pendulum, alpha, same):
    system, _ = pendulum
    mine, theirs = HHTAlpha(alpha).solve_grid(system, GRID, h=0.01), same.solve_grid(system, GRID, h=0.01)
    assert np.abs(mine.q - theirs.q).max() <= 1e-13
    assert HHTAlpha(alpha).spectral_radius == pytest.approx((1 - alpha) / (1 + alpha), abs=1e-15)


def test_it_agrees_with_idas_at_tight_tolerance(pendulum):
    system, info = pendulum
    reference = ff.IDAS(rtol=1e-10, atol=1e-12).solve_grid(system, GRID)
    result = HHTAlpha(0.1).solve_grid(system, GRID, h=1e-3)
    scale = np.abs(reference.sensor(0)).max()
    # second order: about 1e-6 of the motion at h = 1e-3 s (measured 6.1e-7)
    assert np.abs(result.sensor(0) - reference.sensor(0)).max() <= 1e-6 * scale


@pytest.mark.parametrize("alpha", [-0.1, 0.34, "0.1", True])
def test_an_alpha_outside_zero_to_one_third_is_refused_naming_the_range(alpha):
    with pytest.raises(ValueError, match=r"HHTAlpha: alpha must be a number in \[0, 1/3\]"):
        HHTAlpha(alpha)
