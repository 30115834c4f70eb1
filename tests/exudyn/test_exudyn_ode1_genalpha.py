"""ODE1 coordinates under generalized-alpha with spectralRadius < 1 and Newmark with newmarkGamma != 1/2 (the
schemes whose velocity formula is not the trapezoidal rule) against exudyn 1.13.6.

Claims: Exudyn takes its ODE1 coordinates x by the trapezoidal rule inside these steps and its ODE2 coordinates by
the scheme; floatframe.exudyn does the same (GeneralizedAlpha.trapezoidal_coordinates), so x, x' and the ODE2
coordinates of the model of test_exudyn_generic_ode1.py (sensors at every step, node and object outputs,
systemData) equal exudyn's to 1e-9 of their scale, with x'(0) = 0 as exudyn, for rho = 0.9 (Exudyn's default),
0.6 and 0, full and modified Newton, an adaptive step, Newmark with gamma 0.6 at index 3 and 2, with a Python
right-hand side (the sparse path) and without (the dense kernel); the scheme there is floatframe's trapezoidal rule
on x, not its generalized-alpha velocity formula (whose x differs from exudyn's by far more than the tolerance)."""
import numpy as np
import pytest

exudyn = pytest.importorskip("exudyn")
import exudyn.itemInterface as exitems  # noqa: E402

import floatframe.exudyn as ffexu  # noqa: E402
from floatframe.exudyn import itemInterface as ffitems  # noqa: E402
from floatframe.exudyn._items_ode1 import ode1_rows  # noqa: E402
from floatframe.solvers import GeneralizedAlpha  # noqa: E402
from exudyn_style_models import full_newton_settings  # noqa: E402
from test_exudyn_generic_ode1 import assert_same, model, run  # noqa: E402

ALPHA = "timeIntegration.generalizedAlpha."
SCHEMES = {
    "rho 0.9 (default)": {},
    "rho 0.6": {ALPHA + "spectralRadius": 0.6},
    "rho 0": {ALPHA + "spectralRadius": 0.0},
    "rho 0.6, modified Newton": {ALPHA + "spectralRadius": 0.6, "timeIntegration.newton.useModifiedNewton": True},
    "Newmark gamma 0.6": {ALPHA + "useNewmark": True, ALPHA + "newmarkGamma": 0.6, ALPHA + "newmarkBeta": 0.3025},
    "Newmark gamma 0.6, index 2": {ALPHA + "useNewmark": True, ALPHA + "newmarkGamma": 0.6,
                                   ALPHA + "newmarkBeta": 0.3025, ALPHA + "useIndex2Constraints": True},
    "rho 0.7, adaptive step": {ALPHA + "spectralRadius": 0.7, "timeIntegration.adaptiveStep": True},
}


@pytest.mark.parametrize("user_function", [True, False], ids=["Python rhs", "compiled"])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_trapezoidal_rule_on_x_inside_the_scheme_as_exudyn(scheme, user_function):
    ours = run(ffexu, ffitems, "GeneralizedAlpha", SCHEMES[scheme], user_function=user_function)
    theirs = run(exudyn, exitems, "GeneralizedAlpha", SCHEMES[scheme], user_function=user_function)
    assert_same(ours, theirs)
    np.testing.assert_array_equal(ours["sensors"][0][0, 1:], [1.0, 0.0, 0.0])   # x(0)
    np.testing.assert_array_equal(ours["sensors"][1][0, 1:], np.zeros(3))       # x'(0) = 0, as exudyn


def test_the_layer_steps_x_by_the_trapezoidal_rule_and_that_is_what_agrees():
    """The solver the layer runs takes the ODE1 coordinates by the trapezoidal rule; floatframe's generalized-alpha
    velocity formula on x (a floatframe solver passed as solver=...) ends 1e-5 or more from exudyn's x."""
    mbs, node, _, _ = model(ffexu, ffitems, user_function=False)
    mbs.SolveDynamic(full_newton_settings(ffexu, 200, 1.0))
    np.testing.assert_array_equal(mbs.sys["dynamicSolver"].trapezoidal_coordinates, ode1_rows(mbs))
    theirs = np.asarray(run(exudyn, exitems, "GeneralizedAlpha", user_function=False)["node"][0])
    grid = ffexu.SimulationSettings()   # the grid only: with solver=... the scheme settings are that solver's
    grid.timeIntegration.numberOfSteps, grid.timeIntegration.endTime = 200, 1.0
    grid.solution.file.write = False
    mbs.SolveDynamic(grid, solver=GeneralizedAlpha(0.9, relative_tolerance=1e-12))
    plain = mbs.GetNodeOutput(node, ffexu.OutputVariableType.Coordinates)
    assert np.abs(plain - theirs).max() > 1e-5 * np.abs(theirs).max()
