"""Claims about IDAS with many output times (drift="projection"): outputs cost interpolation only. IDAS restarts
(and projects) at most ``max_restarts`` times; the outputs between are its dense output. A grid with up to that
many outputs runs exactly as before (a restart at every output); a grid ten times finer takes the same internal
steps and gives the same accuracy, and its interpolated outputs are as accurate as the restart points."""
import numpy as np
import pytest

from floatframe.models.pendulum import build_pendulum
from floatframe.solvers.idas import IDAS

T_END = 2.0
RTOL = 1e-8


@pytest.fixture(scope="module")
def pendulum():
    system, info = build_pendulum()
    return system.assemble(), info.position_sensor


def solve(pendulum, outputs, **options):
    system, sensor = pendulum
    result = IDAS(rtol=RTOL, atol=RTOL * 1e-3, **options).solve(system, t_grid=np.linspace(0.0, T_END, outputs + 1))
    return result, result.sensor(sensor)


@pytest.fixture(scope="module")
def reference(pendulum):
    """The centre's position on the 640-output grid from IDAS at rtol 1e-11, restarting at every output."""
    system, sensor = pendulum
    result = IDAS(rtol=1e-11, atol=1e-14, max_restarts=10**6).solve(system, t_grid=np.linspace(0.0, T_END, 641))
    return result.sensor(sensor)


def test_up_to_max_restarts_outputs_every_output_is_a_restart_and_nothing_changes(pendulum):
    few, few_positions = solve(pendulum, 40)
    every, every_positions = solve(pendulum, 40, max_restarts=10**6)
    assert few.info["restarts"] == every.info["restarts"] == 40
    assert np.array_equal(few_positions, every_positions)
    assert few.statistics.steps == every.statistics.steps


def test_ten_times_more_outputs_take_the_same_internal_steps(pendulum):
    coarse, _ = solve(pendulum, 64)
    fine, _ = solve(pendulum, 640)                                 # every 10th output a restart
    before, _ = solve(pendulum, 640, max_restarts=10**6)          # a restart at every output, as before
    assert coarse.info["restarts"] == fine.info["restarts"] == 64
    assert fine.statistics.steps <= 1.05 * coarse.statistics.steps
    assert before.statistics.steps > 2 * coarse.statistics.steps   # what restarting at every output cost


def test_interpolated_outputs_are_as_accurate_as_the_restart_points(pendulum, reference):
    _, coarse_positions = solve(pendulum, 64)
    _, fine_positions = solve(pendulum, 640)
    coarse_error = np.abs(coarse_positions - reference[::10]).max()
    fine_error = np.abs(fine_positions - reference).max()
    assert fine_error <= 3 * coarse_error
    assert fine_error < 1e-6            # [m], at rtol 1e-8 on a 1 m pendulum


def test_the_dense_outputs_meet_the_constraints_to_the_tolerance(pendulum):
    fine, _ = solve(pendulum, 640)
    assert fine.info["position_violation"] < 1e-7
    assert fine.info["position_drift_before_projection"] < 1e-7


def test_max_restarts_must_be_a_positive_count():
    with pytest.raises(ValueError, match="max_restarts"):
        IDAS(max_restarts=0)
