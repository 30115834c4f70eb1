"""The GGL (stabilized index-2) generalized-alpha: both constraint levels hold, where index 3 leaves
dC/dt and index 2 leaves C to the discretization error; the results agree with index 3 to O(h^2)."""
import numpy as np

from floatframe.compare import _State
from floatframe.solvers.genalpha import GeneralizedAlpha
from floatframe.solvers.genalpha_ggl import GeneralizedAlphaGGL
from floatframe.solvers.idas import constraint_violation

GRID = np.linspace(0.0, 1.0, 11)


def violations(system, result):
    """Largest |C| and |dC/dt| over the stored states."""
    return constraint_violation(system, [_State(*row) for row in zip(result.t, result.q, result.v)])


def test_ggl_holds_both_constraint_levels(pendulum):
    """h = 0.01 s over 1 s: GGL |C| and |dC/dt| < 1e-13; index 3 has |dC/dt| > 1e-6 m/s, index 2 |C| > 1e-6 m."""
    system, _ = pendulum
    ggl = violations(system, GeneralizedAlphaGGL(0.9).solve_grid(system, GRID, h=0.01))
    index3 = violations(system, GeneralizedAlpha(0.9).solve_grid(system, GRID, h=0.01))
    index2 = violations(system, GeneralizedAlpha(0.9, index=2).solve_grid(system, GRID, h=0.01))
    assert ggl[0] < 1e-13 and ggl[1] < 1e-13, ggl
    assert index3[1] > 1e-6 and index2[0] > 1e-6, (index3, index2)


def test_ggl_agrees_with_index3_and_the_reference(pendulum, position_error):
    """h = 0.005 s: error against the ODE reference < 2e-5 m, and within 10% of index-3 generalized-alpha's."""
    system, info = pendulum
    ggl = position_error(GeneralizedAlphaGGL(0.9).solve_grid(system, GRID, h=0.005), info)
    index3 = position_error(GeneralizedAlpha(0.9).solve_grid(system, GRID, h=0.005), info)
    assert ggl < 2e-5 and abs(ggl - index3) < 0.1 * index3, (ggl, index3)


def iterations_per_step(system, solver):
    solver.solve_grid(system, GRID, h=0.01)
    assert solver.statistics.rejected_steps == 0
    return solver.statistics.iterations_per_step


def test_ggl_newton_costs_what_index_2_and_3_cost(pendulum):
    """h = 0.01 s: full Newton 3.00 iterations per step (index 3: 2.98), modified Newton 4.99 (index 2: 5.28)."""
    system, _ = pendulum
    full = iterations_per_step(system, GeneralizedAlphaGGL(0.9))
    assert full <= iterations_per_step(system, GeneralizedAlpha(0.9)) + 0.1
    modified = iterations_per_step(system, GeneralizedAlphaGGL(0.9, modified_newton=True))
    assert modified <= iterations_per_step(system, GeneralizedAlpha(0.9, index=2, modified_newton=True))
