"""IDAS drift bounds over 1 s, step-size retry, and errors that name the cause and the time."""
import numpy as np
import pytest

from floatframe.components import MarkerBodyPosition, ModelError, ObjectGround, SphericalJoint
from floatframe.models.pendulum import build_pendulum
from floatframe.solvers.genalpha import GeneralizedAlpha
from floatframe.solvers.idas import IDAS
from floatframe.solvers.result import SolverError

GRID = np.linspace(0.0, 1.0, 21)


def test_idas_projection_drift_bound(pendulum):
    """rtol 1e-8: before each projection |C| < 1e-8 m and |dC/dt| < 1e-7 m/s; after it, |C| < 1e-12."""
    system, _ = pendulum
    info = IDAS(rtol=1e-8, atol=1e-10, drift="projection").solve(system, GRID).info
    assert info["position_drift_before_projection"] < 1e-8
    assert info["velocity_drift_before_projection"] < 1e-7
    assert info["position_violation"] < 1e-12 and info["velocity_violation"] < 1e-12


def test_idas_baumgarte_drift_bound(pendulum):
    """Baumgarte (10, 10) 1/s, rtol 1e-8: |C| < 1e-8 m, |dC/dt| < 1e-7 m/s over 1 s."""
    system, _ = pendulum
    info = IDAS(rtol=1e-8, atol=1e-10, drift="baumgarte").solve(system, GRID).info
    assert info["position_violation"] < 1e-8 and info["velocity_violation"] < 1e-7
    assert info["baumgarte"] == (10.0, 10.0)


def test_consistent_initial_state_is_projected():
    """A body displaced 5 cm off the joint starts on the constraints (|C| < 1e-12) after projection."""
    system, _ = build_pendulum(perturbation=0.05)
    assembled = system.assemble()
    assert np.abs(assembled.constraints(0.0, assembled.q_initial)).max() > 0.04
    state = IDAS().consistent_state(assembled, 0.0, assembled.q_initial, assembled.v_initial)
    assert np.abs(assembled.constraints(0.0, state.q)).max() < 1e-12
    residual = assembled.residual(0.0, state.q, state.v, state.a, state.lam)
    assert np.abs(residual).max() < 1e-10


def unprojectable_pendulum():
    """A second joint holds the centre of mass at x = 5 m, out of reach of the 1 m pendulum."""
    system, info = build_pendulum()
    ground = system.add(ObjectGround())
    system.add(SphericalJoint([system.add(MarkerBodyPosition(ground, [5.0, 0.0, 0.0])),
                               system.add(MarkerBodyPosition(info.body))], [1, 0, 0], name="far"))
    return system.assemble()


def test_inconsistent_state_that_cannot_be_projected():
    with pytest.raises(SolverError, match=r"t = 0 does not meet the constraints: SphericalJoint 4 'far': position "
                                          r"gap 4\.7 m"):
        IDAS().solve(unprojectable_pendulum(), GRID)
    with pytest.raises(SolverError, match=r"t = 0 cannot be projected.*\|C\| = [0-9.e+]+") as failure:
        IDAS().solve(unprojectable_pendulum(), GRID, initial="project")
    assert failure.value.time == 0.0


def redundant_pendulum():
    system, info = build_pendulum()
    ground = system.add(ObjectGround())
    system.add(SphericalJoint([system.add(MarkerBodyPosition(ground)),
                               system.add(MarkerBodyPosition(info.body, [0.0, info.length, 0.0]))], name="twin"))
    return system.assemble(check_redundancy=False)  # the assembly's own check would refuse it first


@pytest.mark.parametrize("solver", [IDAS(), GeneralizedAlpha()])
def test_redundant_constraints_are_named(solver):
    """The assembly refuses redundant joints; assembled without that check, the solvers still name them."""
    with pytest.raises(ModelError, match=r"redundant constraints at the initial state: 3 equations of "
                                         r"SphericalJoint \d+ 'twin' repeat SphericalJoint \d+"):
        redundant_pendulum().system.assemble(redundant="refuse")
    system = redundant_pendulum()
    with pytest.raises(SolverError, match=r"t = 0\b.*redundant constraints involving: .*'twin'"):
        solver.solve_grid(system, GRID)


def test_idas_failure_names_cause_and_time(pendulum):
    system, _ = pendulum
    with pytest.raises(SolverError, match=r"IDAS failed at t = [0-9.e-]+ \(IDA_TOO_MUCH_WORK\)") as failure:
        IDAS(rtol=1e-10, atol=1e-12, max_num_steps=20, drift="baumgarte").solve(system, GRID)
    assert 0.0 < failure.value.time < 1.0


def test_step_reduction_recovers(pendulum, position_error):
    """Newton limited to 2 iterations fails at h = 0.05; halving and retrying still meets 2e-5 m."""
    system, info = pendulum
    solver = GeneralizedAlpha(0.9, max_iterations=2)
    result = solver.solve_grid(system, GRID, h=0.05)
    assert result.statistics.rejected_steps > 0
    assert position_error(result, info) < 2e-5


def test_step_below_minimum_is_a_clear_error(pendulum):
    system, _ = pendulum
    with pytest.raises(SolverError, match=r"step size fell below the minimum .* at t = 0\b.*Newton did not converge"):
        GeneralizedAlpha(0.9, max_iterations=1, min_step=1e-3).solve_grid(system, GRID, h=0.05)
