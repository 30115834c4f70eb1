"""The step control of the embedded pairs (floatframe/solvers/explicit_adaptive.py): floatframe's own (the default,
unchanged by the option) and Exudyn 1.13.6's (``step_control="exudyn"``): its error norm with signed scales, its
steps across output times, its warning at the smallest step. The agreement with exudyn itself is measured in
tests/exudyn/test_exudyn_explicit.py and test_exudyn_lie_group.py."""
import math
import warnings
from types import SimpleNamespace

import numpy as np
import pytest

from floatframe.solvers.explicit_adaptive import DOPRI5, ODE23, StepSizeWarning
from floatframe.solvers.result import SolverError
from test_explicit import oscillator, planar_body


def test_the_error_norms_scale_by_magnitudes_by_default_and_by_the_signed_maximum_as_exudyn():
    start = SimpleNamespace(q=np.array([-2.0, 0.5]), v=np.array([1.0, -3.0]))
    q, v = np.array([-2.1, 0.4]), np.array([1.2, -3.5])
    q_embedded, v_embedded = q + [1e-3, -2e-3], v + [3e-3, 1e-3]
    rtol, atol = 1e-2, 0.021
    differences = np.array([1e-3, -2e-3, 3e-3, 1e-3])
    ends, starts = np.concatenate([q_embedded, v_embedded]), np.concatenate([start.q, start.v])
    magnitudes = atol + rtol * np.maximum(np.abs(ends), np.abs(starts))
    signed = atol + rtol * np.maximum(ends, starts)      # max(-2.099, -2) = -2: 0.021 - 0.02, not 0.021 + 0.02099
    expected = [math.sqrt(np.mean((differences / scale) ** 2)) for scale in (magnitudes, signed)]
    ours = [scheme(rtol=rtol, atol=atol, step_control=control).error(start, q, v, q_embedded, v_embedded)
            for scheme in (DOPRI5, ODE23) for control in ("floatframe", "exudyn")]
    assert ours == pytest.approx(expected * 2, rel=1e-14)
    assert expected[1] > 5 * expected[0]      # 0.51 against 0.061: the example tells the two apart


@pytest.mark.parametrize("scheme, build, steps, rejected, end", [
    (DOPRI5, oscillator, 60, 1, 0.07053478), (DOPRI5, planar_body, 73, 1, 1.15832214),
    (ODE23, oscillator, 122, 3, 0.07052833), (ODE23, planar_body, 173, 2, 1.15832215)])
def test_the_default_control_is_unchanged(scheme, build, steps, rejected, end):
    """Counts and end coordinate measured with the module before the option existed (the same bits: q and t of the
    planar body at rtol 1e-7, atol 1e-9 compared with np.array_equal); states at the output times."""
    tolerance = 1e-8 if scheme is DOPRI5 else 1e-6
    result = scheme(rtol=tolerance, atol=tolerance).solve(build(), 1.0, 20)
    assert (result.statistics.steps, result.statistics.rejected_steps) == (steps, rejected)
    assert result.q[-1, 0] == pytest.approx(end, abs=1e-8)
    assert np.array_equal(result.t, np.linspace(0.0, 1.0, 21))
    assert "step_control" not in result.info


def test_exudyns_control_takes_its_steps_across_the_output_times():
    """Each output time takes the first step ending at or after it; the steps are cut at the end time only."""
    grid = np.linspace(0.0, 1.0, 21)
    result = DOPRI5(rtol=1e-7, atol=1e-9, step_control="exudyn").solve(planar_body(), 1.0, 20)
    assert result.info["step_control"] == "exudyn"
    assert result.t[-1] == 1.0
    late = result.t[1:-1] - grid[1:-1]
    assert np.all(late >= -1e-10) and np.all(late < 0.05) and np.count_nonzero(late > 1e-6) >= 15
    assert (result.statistics.steps, result.statistics.rejected_steps) == (53, 6)   # floatframe's: 61, 1
    reference = DOPRI5(rtol=1e-10, atol=1e-12).solve(planar_body(), 1.0, 20)
    assert np.abs(result.q[-1] - reference.q[-1]).max() < 1e-6


def unit_oscillator():
    """x'' = -x (unit mass and stiffness) from x = 1 at rest: with an absolute tolerance alone DOPRI5's error per
    step is the same at every phase (measured: 0.9 h_opt = 0.112333 s from the third step on)."""
    return oscillator(mass=1.0, stiffness=1.0, start=1.0)


def test_exudyns_control_accepts_the_first_step_at_min_step_with_a_warning_and_fails_at_a_later_one():
    """min_step between 0.9 h_opt and h_opt: the first step (1 s, the largest) gets h_new = min_step and is taken
    with a warning; the others at min_step meet the tolerance. Above h_opt the second step is rejected at min_step,
    which Exudyn repeats without end: here a SolverError."""
    scheme = DOPRI5(rtol=1e-300, atol=1e-8, min_step=0.118, step_control="exudyn")
    with pytest.warns(StepSizeWarning, match="min_step = 0.118"):
        result = scheme.solve(unit_oscillator(), 3.0, 3)
    assert result.t[1] == 1.0 and result.statistics.rejected_steps == 0
    assert result.statistics.steps == 1 + math.ceil(2.0 / 0.118)
    assert abs(result.q[-1, 0] - math.cos(3.0)) > 1e-5              # the first step's error stays (5.2e-5)
    controlled = DOPRI5(rtol=1e-300, atol=1e-8, min_step=1e-8, step_control="exudyn").solve(unit_oscillator(), 3.0, 3)
    assert abs(controlled.q[-1, 0] - math.cos(3.0)) < 1e-6
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", StepSizeWarning)
        with pytest.raises(SolverError, match="stays above 1 at the smallest step"):
            DOPRI5(rtol=1e-300, atol=1e-8, min_step=0.2, step_control="exudyn").solve(unit_oscillator(), 3.0, 3)


def test_an_unknown_step_control_is_refused():
    with pytest.raises(ValueError, match="step_control must be one of"):
        DOPRI5(step_control="scipy")
