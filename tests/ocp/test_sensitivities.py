"""Claims about exact sensitivities: generalized-alpha step map and IDAS against central differences."""
import casadi as ca
import numpy as np
import pytest

import floatframe as ff
from floatframe.models.slew import build_slew
from floatframe.ocp.sensitivities import central_differences, idas_final_state, parameter_jacobian
from floatframe.ocp.step import rollout, step_map
from floatframe.parameters import Input, InputSignal, Parameter


def spring_pendulum():
    """A rigid body on a spherical joint (Euler-parameter norm and joint constraints) with a spring,
    symbolic mass and spring stiffness, and a force input; returns the assembled system."""
    system = ff.System()
    node = system.add(ff.NodeRigidBodyEP([0.3, -0.9, 0.0, 1.0, 0.0, 0.0, 0.0]))
    body = system.add(ff.ObjectRigidBody(node, Parameter("mass", 2.0), [0.1, 0.12, 0.08, 0.0, 0.0, 0.0]))
    ground = system.add(ff.ObjectGround())
    system.add(ff.SphericalJoint([system.add(ff.MarkerBodyPosition(ground)),
                                  system.add(ff.MarkerBodyPosition(body, [-0.3, 0.9, 0.0]))]))
    system.add(ff.CartesianSpringDamper([system.add(ff.MarkerBodyPosition(ground, [1.0, 0.0, 0.0])),
                                         system.add(ff.MarkerBodyPosition(body))],
                                        Parameter("k", [5.0, 8.0, 3.0]), [0.1, 0.1, 0.1]))
    system.add(ff.LoadForceVector(system.add(ff.MarkerBodyPosition(body)), Input("force", 3)))
    return system.assemble()


def force_history(n):
    forces = np.zeros((3, n))
    forces[0] = np.sin(np.arange(n))
    forces[2] = 0.5
    return forces


def relative_error(exact, numeric):
    return np.abs(exact - numeric).max() / np.abs(exact).max()


def test_step_map_reproduces_the_generalized_alpha_solver():
    assembled = spring_pendulum()
    grid = np.linspace(0.0, 0.5, 21)
    forces = force_history(20)
    assembled.set_input("force", InputSignal(grid, forces.T))
    reference = ff.GeneralizedAlpha(0.9, relative_tolerance=1e-14, absolute_tolerance=1e-14).solve(assembled, 0.5, 20)
    q_end, v_end = rollout(assembled, grid, 0.9)(assembled.q_initial, assembled.v_initial, forces,
                                                 assembled.parameter_vector())
    assert np.abs(np.array(q_end).ravel() - reference.q[-1]).max() < 1e-12
    assert np.abs(np.array(v_end).ravel() - reference.v[-1]).max() < 1e-10


@pytest.mark.parametrize("mode", ["forward", "adjoint"])
def test_step_map_sensitivities_match_central_differences(mode):
    assembled = spring_pendulum()
    grid = np.linspace(0.0, 0.5, 21)
    final_state = rollout(assembled, grid, 0.9)
    arguments = (assembled.q_initial, assembled.v_initial, force_history(20), assembled.parameter_vector())
    _, exact = parameter_jacobian(final_state, *arguments, mode=mode)
    numeric = central_differences(final_state, *arguments)
    assert exact.shape == (7, 4)
    assert np.abs(exact).max() > 1e-2
    assert relative_error(exact, numeric) < 1e-5


@pytest.mark.parametrize("mode", ["forward", "adjoint"])
def test_idas_sensitivities_match_central_differences(mode):
    assembled = spring_pendulum()
    grid = np.linspace(0.0, 0.5, 6)
    final_state = idas_final_state(assembled, grid)
    arguments = (assembled.q_initial, assembled.v_initial, force_history(5), assembled.parameter_vector())
    _, exact = parameter_jacobian(final_state, *arguments, mode=mode)
    numeric = central_differences(final_state, *arguments)
    assert np.abs(exact).max() > 1e-2
    assert relative_error(exact, numeric) < 1e-5


def test_idas_and_generalized_alpha_sensitivities_agree_to_the_discretisation_error():
    assembled = spring_pendulum()
    arguments = (assembled.q_initial, assembled.v_initial, np.zeros((3, 1)), assembled.parameter_vector())
    _, with_idas = parameter_jacobian(idas_final_state(assembled, [0.0, 0.5]), *arguments)
    fine = rollout(assembled, [0.0, 0.5], 0.9, steps_per_interval=100)
    _, with_steps = parameter_jacobian(fine, *arguments)
    assert relative_error(with_idas, with_steps) < 1e-4


def test_flexible_beam_sensitivities_to_hub_inertia_and_torque_match_central_differences():
    """Slew model (2 Hex8 elements, 43 coordinates): dq(T)/d(hub inertia) through 6 steps, and the
    derivative with respect to the torque values, exact vs central differences."""
    model = build_slew(n_elements=2, first_frequency=1.0, hub_inertia=Parameter("hub", [2.0, 2.0, 2.0, 0, 0, 0]))
    assembled = model.assembled
    grid = np.linspace(0.0, 0.3, 7)
    torques = np.zeros((3, 6))
    torques[2] = [20.0, 25.0, 10.0, -5.0, -20.0, -30.0]
    final_state = rollout(assembled, grid, 0.9)
    arguments = (assembled.q_initial, assembled.v_initial, torques, assembled.parameter_vector())
    _, exact = parameter_jacobian(final_state, *arguments, mode="adjoint")
    numeric = central_differences(final_state, *arguments)
    assert relative_error(exact, numeric) < 1e-5
    tip_row = int(model.tip_rows[0])
    symbol = ca.MX.sym("U", 3, 6)
    tip = final_state(assembled.q_initial, assembled.v_initial, symbol, assembled.parameter_vector())[0][tip_row]
    gradient = np.array(ca.Function("g", [symbol], [ca.gradient(tip, symbol)])(torques))[2]
    step = 1e-4 * np.abs(torques[2]).max()
    numeric_gradient = []
    for k in range(6):
        shifted = [torques.copy(), torques.copy()]
        shifted[0][2, k] += step
        shifted[1][2, k] -= step
        values = [float(final_state(assembled.q_initial, assembled.v_initial, s, arguments[3])[0][tip_row]) for s in shifted]
        numeric_gradient.append((values[0] - values[1]) / (2 * step))
    assert np.abs(gradient).max() > 1e-5
    assert relative_error(gradient, np.array(numeric_gradient)) < 1e-5


def test_a_step_that_newton_cannot_solve_raises():
    assembled = spring_pendulum()
    step = step_map(assembled, 0.9, max_iterations=1)
    n = assembled.n_coordinates
    with pytest.raises(RuntimeError, match="rootfinder process failed"):
        step(0.0, 0.05, assembled.q_initial, np.ones(n), np.zeros(n), np.zeros(n), np.zeros(assembled.n_multipliers),
             [0, 0, 50.0], assembled.parameter_vector())
