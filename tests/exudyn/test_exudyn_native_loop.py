"""Claims about the Exudyn layer's step loop: a script without a pre-step function runs in the C step loop
(floatframe.solvers.native) once its kernel is compiled (compile="auto": cached, or compiled when the run is
long enough) with the same numbers as the Python loop that a pre-step function needs; StartOfStep
after the solve is the start of the last step either way."""
import numpy as np

import floatframe.exudyn as ffexu
from exudyn_style_models import pendulum
from floatframe.exudyn import itemInterface as ffitems
from floatframe.solvers import GeneralizedAlpha


def solved(pre_step: bool):
    mbs, sensors, settings = pendulum(ffexu, ffitems)
    GeneralizedAlpha(compile=True).solve(mbs._assembled, 0.01, 1)   # the compiled kernel cached, as after a long run
    if pre_step:
        mbs.SetPreStepUserFunction(lambda mbs, t: True)
    ffexu.SolveDynamic(mbs, settings)
    return mbs, sensors


def test_without_a_pre_step_function_every_step_runs_in_c_with_the_python_loops_numbers():
    in_c, sensors = solved(pre_step=False)
    in_python, _ = solved(pre_step=True)
    assert in_c._result.info["native_steps"] == in_c._result.statistics.steps == 40
    assert in_python._result.info["native_steps"] == 0
    for sensor in sensors:
        c_values, python_values = in_c.GetSensorStoredData(sensor), in_python.GetSensorStoredData(sensor)
        assert np.abs(c_values - python_values).max() <= 1e-12 * np.abs(python_values).max()
    assert in_c._result.statistics.newton_iterations == in_python._result.statistics.newton_iterations


def test_start_of_step_is_the_start_of_the_last_step_in_both_loops():
    kinds = ffexu.ConfigurationType
    runs = [solved(pre_step)[0] for pre_step in (False, True)]
    starts = [mbs.systemData.GetODE2Coordinates(configuration=kinds.StartOfStep) for mbs in runs]
    assert np.abs(starts[0] - starts[1]).max() <= 1e-12
    current = runs[0].systemData.GetODE2Coordinates(configuration=kinds.Current)
    assert np.abs(current - starts[0]).max() > 1e-3      # the last step moved the pendulum
