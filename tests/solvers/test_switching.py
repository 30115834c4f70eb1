"""The step loop of models whose values switch after Newton solves (floatframe.solvers.switching), on a spring-mass
whose stiffness is a Parameter that a hook switches."""
import numpy as np
import pytest

import floatframe as ff
from floatframe.parameters import Parameter
from floatframe.solvers import GeneralizedAlpha, SolverError
from floatframe.solvers.genalpha import ResidualStop
from floatframe.solvers.switching import StepControl, Switching, integrate_switching


def spring_mass(stiffness=100.0):
    """A 1 kg mass at 0.1 m on a spring of stiffness Parameter 'k' [N/m]; the assembled system."""
    system = ff.System()
    ground = system.add(ff.NodePointGround([0.0, 0.0, 0.0]))
    node = system.add(ff.Node1D([0.0], initial_coordinates=[0.1]))
    system.add(ff.ObjectMass1D(node, 1.0))
    system.add(ff.CoordinateSpringDamper([system.add(ff.MarkerNodeCoordinate(ground, 0)),
                                          system.add(ff.MarkerNodeCoordinate(node, 0))], Parameter("k", stiffness)))
    return system.assemble()


class StiffenOnce(Switching):
    """Switches k to 400 N/m after the first Newton solve, with the error ``error`` (recommending ``recommended``)."""

    def __init__(self, system, error, recommended=-1.0):
        self.system, self.error, self.recommended = system, error, recommended
        self.calls, self.rejections = [], 0

    def begin_step(self, state):
        self.start = self.system.parameters_now().copy()

    def after_newton(self, state, h):
        self.calls.append((state.t, h))
        if self.system.parameters_now()[0] == 400.0:
            return 0.0, -1.0
        self.system.set_parameter("k", 400.0)
        return self.error, self.recommended

    def reject(self):
        self.rejections += 1
        self.system.set_parameter("k", self.start)


def solver():
    return GeneralizedAlpha(0.9, newton_control=ResidualStop(relative_tolerance=1e-12), native=False)


def test_a_switch_above_the_tolerance_solves_the_step_again_with_the_new_values():
    """The first step is solved again with k = 400: the run equals a run with k = 400 from the same start (a0 = -10
    m/s^2 of k = 100; to the Newton tolerance), and takes two solves in its first step, one in each later step."""
    system = spring_mass()
    hook = StiffenOnce(system, error=1.0)
    result = integrate_switching(solver(), system, 0.0, 0.1, 10, hook, StepControl(tolerance=1e-6))
    reference = solver().solve(spring_mass(400.0), 0.1, 10, a0=[-10.0])
    assert [t for t, _ in hook.calls[:3]] == pytest.approx([0.01, 0.01, 0.02])
    assert len(hook.calls) == 11 and result.statistics.steps == 10
    np.testing.assert_allclose(result.q[-1], reference.q[-1], rtol=0, atol=1e-12)


def test_a_switch_below_the_tolerance_keeps_the_step():
    """With an error below the tolerance the first step stays as solved with k = 100, later steps take k = 400."""
    system = spring_mass()
    hook = StiffenOnce(system, error=1e-9)
    result = integrate_switching(solver(), system, 0.0, 0.1, 10, hook, StepControl(tolerance=1e-6))
    reference = solver().solve(spring_mass(400.0), 0.1, 10, a0=[-10.0])
    assert len(hook.calls) == 10
    assert abs(result.q[-1, 0] - reference.q[-1, 0]) > 1e-6


def test_a_recommended_step_retakes_the_step_smaller_and_grows_back():
    """A recommendation of 0.004 s retakes the first step (values back to k = 100) with min(0.75 h, 0.004) = 0.004 s;
    there the same recommendation is not below the step (Exudyn's margin 1e-8), so the step is retaken once more
    with 0.75 h = 0.003 s, where the repeated solve with k = 400 is accepted. After recovery_steps = 2 steps the
    step doubles, up to the nominal 0.01 s; the last step ends at 0.1 s."""
    system = spring_mass()
    hook = StiffenOnce(system, error=1.0, recommended=0.004)
    control = StepControl(tolerance=1e-6, max_iterations=2, recovery_steps=2, recovery_iterations=7)
    result = integrate_switching(solver(), system, 0.0, 0.1, 10, hook, control)
    assert hook.rejections == 2 and result.statistics.rejected_steps == 2
    assert [h for _, h in hook.calls[:4]] == pytest.approx([0.01, 0.004, 0.003, 0.003])
    steps = np.diff(result.t)
    assert steps[:5] == pytest.approx([0.003, 0.003, 0.006, 0.006, 0.01])
    assert result.t[-1] == pytest.approx(0.1, abs=1e-15)


def test_a_step_that_cannot_be_reduced_fails_with_the_accepted_states():
    system = spring_mass()
    hook = StiffenOnce(system, error=1.0, recommended=0.004)
    control = StepControl(tolerance=1e-6, max_iterations=2, adaptive=False)
    with pytest.raises(SolverError, match="the step of 0.01 s from t = 0 failed .* adaptive steps are off") as failure:
        integrate_switching(solver(), system, 0.0, 0.1, 10, hook, control)
    assert failure.value.result.t.tolist() == [0.0]
