"""Load functions of time: traced into the symbolic DAE where that is faithful, called numerically
otherwise, with the same motion either way."""
import math

import numpy as np
import pytest

import floatframe as ff

MASS = 2.0


def pushed_body(force):
    """A free rigid body of mass 2 kg pushed along x by force(t); returns the assembled system and the load."""
    system = ff.System()
    node = system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0]))
    body = system.add(ff.ObjectRigidBody(node, MASS, [1, 1, 1, 0, 0, 0]))
    marker = system.add(ff.MarkerBodyRigid(body, [0, 0, 0]))
    load = ff.LoadForceVector(marker, force)
    system.add(load)
    system.add(ff.SensorNode(node, "Position"))
    return system.assemble(), load


FORCES = {
    "traced (NumPy ufunc)": lambda t: [np.sin(t), 0.0, 0.0],
    "float() of the time": lambda t: [math.sin(float(t)), 0.0, 0.0],
    "branch on the value": lambda t: [math.sin(t) if t >= 0 else 0.0, 0.0, 0.0],
}


@pytest.mark.parametrize("kind", FORCES)
def test_a_force_sin_t_moves_the_body_as_the_closed_form_says(kind):
    """x(t) = (t - sin t) / m from rest; second-order accurate at h = 1e-3 over 1 s."""
    assembled, _ = pushed_body(FORCES[kind])
    result = ff.GeneralizedAlpha(spectral_radius=1.0).solve(assembled, 1.0, 1000)
    x = result.sensor(0)[:, 0]
    exact = (result.t - np.sin(result.t)) / MASS
    assert np.max(np.abs(x - exact)) < 1e-6 * np.max(np.abs(exact))


def test_float_of_the_symbolic_time_is_not_traced_into_a_constant():
    """CasADi gives float(symbol) = NaN without an error; such a function becomes a numeric callback."""
    _, traced = pushed_body(FORCES["traced (NumPy ufunc)"])
    _, numeric = pushed_body(FORCES["float() of the time"])
    assert not hasattr(traced, "_callback")
    assert hasattr(numeric, "_callback")
