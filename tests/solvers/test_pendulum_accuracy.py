"""Every solver on the rigid pendulum against the closed-form period and the angle ODE (scipy, rtol 1e-12)."""
import numpy as np
import pytest

from floatframe.models.pendulum import build_pendulum
from floatframe.solvers.genalpha import GeneralizedAlpha
from floatframe.solvers.idas import IDAS
from floatframe.solvers.newmark import Newmark, Trapezoidal

T_GRID = np.linspace(0.0, 2.0, 41)


@pytest.mark.parametrize("drift", ["projection", "baumgarte", "none"])
def test_idas_within_tolerance(pendulum, position_error, drift):
    system, info = pendulum
    result = IDAS(rtol=1e-8, atol=1e-10, drift=drift).solve(system, T_GRID)
    assert position_error(result, info) < 1e-6          # L = 1 m: 100 x rtol
    assert result.info["drift"] == drift


@pytest.mark.parametrize("solver, bound", [
    (GeneralizedAlpha(0.9), 2e-5), (GeneralizedAlpha(0.9, index=2), 2e-5),
    (Trapezoidal(), 2e-5), (Newmark(0.6), 1e-3)])
def test_fixed_step_within_its_error(pendulum, position_error, solver, bound):
    """h = 2e-3 over 2 s: second order ~ 5 h^2, Newmark (gamma 0.6, first order) ~ 0.3 h."""
    system, info = pendulum
    result = solver.solve_grid(system, T_GRID, h=2e-3)
    assert position_error(result, info) < bound


def crossing_times(result, component=0):
    """Times where the x position crosses zero, refined by one Newton step on (x, x')."""
    x = result.sensor(0)[:, component]
    times = []
    for k in np.flatnonzero(np.sign(x[:-1]) != np.sign(x[1:])):
        velocity = (x[k + 1] - x[k]) / (result.t[k + 1] - result.t[k])
        times.append(result.t[k] - x[k] / velocity)
    return np.array(times)


@pytest.mark.parametrize("solver", [IDAS(rtol=1e-10, atol=1e-12, drift="baumgarte"), GeneralizedAlpha(0.9)])
def test_small_oscillation_period(solver):
    """angle0 = 0.01: the period exceeds 2 pi sqrt(J/(m g L)) by angle0^2/16 = 6e-6 relative."""
    system, info = build_pendulum(angle0=0.01)
    grid = np.linspace(0.0, 2.2 * info.small_oscillation_period, 2201)
    result = (solver.solve(system.assemble(), grid) if isinstance(solver, IDAS)
              else solver.solve_grid(system.assemble(), grid))
    crossings = crossing_times(result)
    period = 2 * np.mean(np.diff(crossings))
    assert len(crossings) >= 4
    assert abs(period / info.small_oscillation_period - 1) < 5e-5
