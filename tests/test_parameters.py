"""Claims about symbolic parameters and input signals."""
import casadi as ca
import numpy as np
import pytest

import floatframe as ff
from floatframe.parameters import Input, InputSignal, Parameter


def spinning_wheel(torque):
    """A rigid wheel (Jzz = 0.5 kg m^2) on a frictionless axis, driven about z by ``torque``."""
    system = ff.System()
    node = system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0]))
    body = system.add(ff.ObjectRigidBody(node, Parameter("mass", 2.0), [0.3, 0.3, 0.5, 0, 0, 0]))
    system.add(ff.LoadTorqueVector(system.add(ff.MarkerBodyRigid(body)), torque))
    sensor = system.add(ff.SensorNode(node, "AngularVelocity"))
    return system.assemble(), sensor


def test_piecewise_linear_torque_input_gives_the_closed_form_spin_rate():
    """omega_z(t) = integral of the torque / Jzz; the Euler-parameter discretisation errs O(h^2) (~1e-7 here)."""
    assembled, sensor = spinning_wheel(Input("torque", 3))
    grid = np.linspace(0.0, 1.0, 5)
    torques = np.zeros((5, 3))
    torques[:, 2] = [1.0, -2.0, 0.5, 3.0, 0.0]
    assembled.set_input("torque", InputSignal(grid, torques, kind="linear"))
    result = ff.GeneralizedAlpha(1.0).solve(assembled, 1.0, 400)
    trapezoids = 0.5 * (torques[1:, 2] + torques[:-1, 2]) * 0.25
    expected = np.cumsum(trapezoids) / 0.5                  # omega_z = integral of torque / Jzz
    assert result.sensor(sensor)[100::100, 2] == pytest.approx(expected, rel=2e-6)


def test_piecewise_constant_signal_holds_each_value_on_its_left_open_interval():
    signal = InputSignal([0.0, 1.0, 2.0], [[5.0], [7.0]])
    assert [signal(t)[0] for t in (0.0, 0.5, 1.0, 1.0 + 1e-9, 2.0)] == [5.0, 5.0, 5.0, 7.0, 7.0]
    with pytest.raises(ValueError, match="outside the signal's grid"):
        signal(2.5)


def test_an_input_signal_shorter_than_the_horizon_is_refused_with_its_end():
    assembled, _ = spinning_wheel(Input("torque", 3))
    assembled.set_input("torque", InputSignal([0.0, 0.5], [[0.0, 0.0, 1.0]]))
    with pytest.raises(ValueError, match=r"signal of Input 'torque' ends at t = 0.5, before t = 0.6"):
        ff.GeneralizedAlpha().solve(assembled, 1.0, 10)


def test_a_parameter_without_value_is_refused_before_simulation():
    system = ff.System()
    node = system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0]))
    system.add(ff.ObjectRigidBody(node, Parameter("mass", size=1), [0.3, 0.3, 0.5, 0, 0, 0]))
    assembled = system.assemble()
    with pytest.raises(ValueError, match=r"symbolic parameter\(s\) \['mass'\] have no value"):
        ff.GeneralizedAlpha().solve(assembled, 1.0, 2)
    assembled.set_parameter("mass", 3.0)
    assert ff.GeneralizedAlpha().solve(assembled, 1.0, 2).t[-1] == pytest.approx(1.0)


def test_residual_derivative_with_respect_to_parameters_matches_finite_differences():
    system = ff.System()
    node = system.add(ff.NodePoint([0.0, 0.0, 0.0]))
    rigid = system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0], initial_velocities=[0, 0, 0, 0, 1, 0, 0]))
    system.add(ff.ObjectRigidBody(rigid, Parameter("mass", 2.0), Parameter("inertia", [0.3, 0.4, 0.5, 0.01, 0.02, 0.03])))
    ground = system.add(ff.ObjectGround())
    system.add(ff.CartesianSpringDamper([system.add(ff.MarkerBodyPosition(ground)), system.add(ff.MarkerNodeRigid(rigid))],
                                        Parameter("k", [10.0, 20.0, 30.0]), Parameter("d", [1.0, 2.0, 3.0])))
    del node
    assembled = system.assemble()
    symbols = assembled.symbols
    jacobian = ca.Function("dRdp", [symbols.t, symbols.q, symbols.v, symbols.a, symbols.lam, symbols.p],
                           [ca.jacobian(symbols.residual, symbols.p)])
    rng = np.random.default_rng(7)
    n, m = assembled.n_coordinates, assembled.n_multipliers
    state = (0.1, 0.1 * rng.standard_normal(n), rng.standard_normal(n), rng.standard_normal(n), rng.standard_normal(m))
    p0 = assembled.parameter_vector()
    exact = np.array(jacobian(*state, p0))
    numeric = np.zeros_like(exact)
    function = ca.Function("R", [symbols.t, symbols.q, symbols.v, symbols.a, symbols.lam, symbols.p], [symbols.residual])
    for k in range(p0.size):
        e = np.zeros(p0.size)
        e[k] = 1e-6
        numeric[:, k] = (np.array(function(*state, p0 + e)) - np.array(function(*state, p0 - e))).ravel() / 2e-6
    assert np.abs(exact - numeric).max() <= 1e-7 * max(1.0, np.abs(exact).max())
    assert sorted(p.name for p in assembled.parameters) == ["d", "inertia", "k", "mass"]
