"""Measured convergence order of each fixed-step scheme from three step sizes."""
import numpy as np
import pytest

from floatframe.solvers.genalpha import GeneralizedAlpha
from floatframe.solvers.genalpha_ggl import GeneralizedAlphaGGL
from floatframe.solvers.newmark import Newmark, Trapezoidal

SCHEMES = [GeneralizedAlpha(0.9), GeneralizedAlpha(0.5, index=2), Trapezoidal(), Newmark(0.6), GeneralizedAlphaGGL(0.9)]


@pytest.mark.parametrize("solver", SCHEMES, ids=lambda s: f"{s.name}-index{s.index}" if s.name != "genalpha-index2" else "ggl")
def test_measured_order_matches_theory(pendulum, position_error, solver):
    system, info = pendulum
    grid = np.linspace(0.0, 1.0, 11)
    errors = [position_error(solver.solve_grid(system, grid, h=h), info) for h in (0.02, 0.01, 0.005)]
    orders = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    assert np.all(np.abs(orders - solver.order) < 0.2), (errors, orders)


def test_declared_orders():
    assert [s.order for s in SCHEMES] == [2, 2, 2, 1, 2]
