"""Andrews' squeezing mechanism (floatframe.models.andrews) against the IVP test set's published solution at
t = 0.03 s (subroutine SOLN of andrews.f), and the test set's digit measures."""
import warnings

import numpy as np
import pytest

import floatframe as ff
from floatframe.compare import mixed_significant_correct_digits, significant_correct_digits
from floatframe.models.andrews import (INITIAL_ANGLES, REFERENCE_ANGLES, REFERENCE_RATES, T_END, build_andrews)
from floatframe.assembly import RedundantConstraintsWarning


@pytest.fixture(scope="module")
def andrews():
    built = build_andrews()
    with pytest.warns(RedundantConstraintsWarning, match=r"removed 9 redundant constraint equations") as caught:
        assembled = built.system.assemble()
    return built, assembled, [str(w.message) for w in caught]


def test_drawn_with_plain_revolute_joints_it_assembles_without_its_nine_repeated_loop_equations(andrews):
    built, assembled, messages = andrews
    assert len(messages) == 1
    assert [message.count("3 equations of RevoluteJoint") for message in messages] == [3]
    # 7 bodies: 49 coordinates; 10 revolute joints (50) and 7 norms less the 9 repeated rows: 48 multipliers
    assert (assembled.n_coordinates, assembled.n_multipliers) == (49, 48)
    start = ff.IDAS(rtol=1e-6, atol=1e-6, drift="none").solve_grid(assembled, [0.0, 1e-9])
    assert np.allclose(built.angles(start)[0], INITIAL_ANGLES, rtol=0, atol=1e-14)


@pytest.mark.slow
def test_idas_at_rtol_1e_10_reaches_8_correct_digits_of_the_test_sets_solution(andrews):
    built, assembled, _ = andrews
    result = ff.IDAS(rtol=1e-10, atol=1e-10, drift="none").solve_grid(assembled, np.linspace(0.0, T_END, 301))
    angles = built.angles(result)[-1]
    # measured: mescd 8.38, scd 7.50 (the angle gamma = 0.0408 rad carries the largest relative error)
    assert mixed_significant_correct_digits(angles, REFERENCE_ANGLES) >= 8.0
    assert significant_correct_digits(angles, REFERENCE_ANGLES) >= 7.3
    node = built.system.nodes[built.nodes[0]]
    crank_rate = result.v[-1, node.coordinate_indices[3:]]          # theta_t of the crank; omega_z = 2 (t0 t3_t - t3 t0_t)
    theta = result.q[-1, node.coordinate_indices[3:]] + node.reference_coordinates[3:]
    omega_z = 2.0 * (theta[0] * crank_rate[3] - theta[3] * crank_rate[0])
    assert abs(omega_z / REFERENCE_RATES[0] - 1.0) <= 1e-6             # beta' = 1139.92 rad/s


def test_the_digit_measures_follow_the_test_sets_definitions():
    reference = np.array([100.0, -0.01, 0.0])
    values = reference + np.array([1e-4, 1e-7, 1e-9])
    # relative: components with a nonzero reference only, max(1e-6, 1e-5) -> 5 digits
    assert significant_correct_digits(values, reference) == pytest.approx(5.0, abs=1e-9)
    # mixed with atol/rtol = 1: max(1e-4/101, 1e-7/1.01, 1e-9/1) -> -log10(9.90e-7)
    assert mixed_significant_correct_digits(values, reference) == pytest.approx(-np.log10(1e-4 / 101), abs=1e-9)
    assert mixed_significant_correct_digits(values, reference, ratio=1e-3) == pytest.approx(
        -np.log10(1e-7 / 0.011), abs=1e-9)
    assert significant_correct_digits(reference, reference) == np.inf
    with pytest.raises(ValueError, match=r"significant_correct_digits: 2 values for 3 reference values"):
        significant_correct_digits(values[:2], reference)
    with pytest.raises(ValueError, match=r"ratio \(atol / rtol\) must be positive, got 0"):
        mixed_significant_correct_digits(values, reference, ratio=0)
