"""Claims about the slew OCP on a coarse hub-beam (2 Hex8 elements, 43 coordinates, 60 steps)."""
import numpy as np
import pytest

from floatframe.models.slew import build_slew
from floatframe.ocp.slew import OCPError, reference_torque, simulate, solve_slew

ANGLE, DURATION, STEPS = np.pi / 6, 2.0, 60   # 30 deg in 2 s: tip deflections of a few cm


@pytest.fixture(scope="module")
def slew():
    model = build_slew(n_elements=2, first_frequency=1.0, hub_inertia=2.0)
    return model, solve_slew(model, ANGLE, DURATION, STEPS)


def test_the_slew_ocp_converges_to_rest_at_the_target_angle(slew):
    model, solution = slew
    assert solution.status == "Solve_Succeeded"
    assert solution.angle_error <= 1e-6
    assert solution.rate_error <= 1e-6
    assert abs(model.hub_angle(solution.q[-1]) - ANGLE) <= 1e-6


def test_optimal_residual_vibration_is_ten_times_below_bang_bang(slew):
    """Simulated on past T with zero torque, both with the OCP's own step (the model it optimises) and
    with 4x finer steps (closer to the continuous model): the residual tip vibration is >= 10x below
    the bang-bang one (measured: 21x and 14x)."""
    model, solution = slew
    bang_bang = reference_torque(model, ANGLE, DURATION, STEPS, "bang-bang")
    for refinement, factor in ((1, 10.0), (4, 10.0)):
        optimal = simulate(model, solution.torque, DURATION, 2 * DURATION, refinement)
        reference = simulate(model, bang_bang, DURATION, 2 * DURATION, refinement)
        assert reference.amplitude > factor * optimal.amplitude, (refinement, optimal.amplitude, reference.amplitude)


def test_an_ocp_that_ipopt_cannot_solve_raises_with_the_status_and_violation():
    model = build_slew(n_elements=2)
    with pytest.raises(OCPError, match=r"return status 'Maximum_Iterations_Exceeded' after 1 iterations; "
                                       r"last constraint violation [0-9.e+-]+"):
        solve_slew(model, ANGLE, DURATION, 10, ipopt_options={"max_iter": 1})
