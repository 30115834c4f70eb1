"""Claims about failed and inconsistent runs in the Exudyn layer: a failed SolveDynamic leaves the sensors with
the run up to the failure, never an earlier run's data; an unwritable sensor file is refused before the
solve; an initial state off a joint is taken as Exudyn takes it (the first step closes the joint)."""
import numpy as np
import pytest

import floatframe.exudyn as fexu
import floatframe.exudyn.itemInterface as fii
from exudyn_style_models import pendulum, tight_settings
from floatframe.solvers import SolverError


def failing_gravity(failing_after):
    """A gravity load function that raises after the time in the list ``failing_after`` (changeable)."""
    def gravity(mbs, t, load):
        if t > failing_after[0]:
            raise RuntimeError("sensor cable cut")
        return load
    return gravity


def test_a_failed_solve_leaves_the_sensors_with_its_own_partial_run_not_the_previous_one():
    failing_after = [1.0]
    mbs, (sensor, _), _ = pendulum(fexu, fii, load_user_function=failing_gravity(failing_after))
    mbs.SolveDynamic(tight_settings(fexu, 20, 1e-3))
    assert mbs.GetSensorStoredData(sensor)[-1, 0] == pytest.approx(0.02)
    failing_after[0] = 0.0105
    with pytest.raises(SolverError, match=r"at t = 0\.011: the load user function of LoadForceVector\d raised "
                                          r"RuntimeError: sensor cable cut"):
        mbs.SolveDynamic(tight_settings(fexu, 20, 1e-3))
    data = mbs.GetSensorStoredData(sensor)
    assert data.shape == (11, 4) and data[-1, 0] == pytest.approx(0.010)


def test_an_unwritable_sensor_file_is_refused_before_the_solve(tmp_path):
    blocker = tmp_path / "results"
    blocker.write_text("a file where a folder is wanted")
    mbs, _, _ = pendulum(fexu, fii, file_name=str(blocker / "position.txt"))
    with pytest.raises(fexu.ExudynLayerError,
                       match=r"sensor 0 \(SensorNode\): its fileName '.*results/position.txt' cannot be written"):
        mbs.SolveDynamic(tight_settings(fexu, 20, 1e-3))
    assert mbs.sys.get("dynamicSolver") is None          # refused before any solve


@pytest.mark.exudyn
def test_a_start_off_the_joint_is_taken_as_exudyn_takes_it_the_first_step_closes_the_joint():
    exudyn = pytest.importorskip("exudyn")
    import exudyn.itemInterface as eii
    ours, (sensor, _), _ = pendulum(fexu, fii, offset=0.05)
    theirs, _, _ = pendulum(exudyn, eii, offset=0.05)
    for mbs, exu in ((ours, fexu), (theirs, exudyn)):
        mbs.SolveDynamic(tight_settings(exu, 20, 1e-3))
    ours, theirs = ours.GetSensorStoredData(sensor), theirs.GetSensorStoredData(sensor)
    assert ours[0, 1] == theirs[0, 1] == pytest.approx(0.55)
    assert np.abs(ours[1, 1:] - theirs[1, 1:]).max() < 1e-9      # both snap onto the joint in the first step
    assert ours[1, 1] == pytest.approx(0.5, abs=1e-9)
