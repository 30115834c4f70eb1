"""First-order coordinates (floatframe.components.first_order): NodeODE1 and ObjectGenericODE1 against closed forms.

Claims: x' = A x + b on a NodeODE1 follows x(t) = e^(At) x0 + A^-1 (e^(At) - I) b; the classical Runge-Kutta
method on the DAE equals RK4 applied to x' = f directly (to round-off) and converges with order 4; Newmark
with gamma = 1/2 equals the trapezoidal rule on x (to round-off) from x'(0) = a0; a time-dependent user
right-hand side enters at the stage times (x' = -2 x + sin 3t in closed form); the outputs are x, x' and
x_ref + x; a node without object keeps x; bad parameters are refused naming the object."""
import numpy as np
import pytest
from scipy.linalg import expm

from floatframe.assembly.builder import System
from floatframe.components.first_order import NodeODE1, ObjectGenericODE1, first_order_rows
from floatframe.errors import ModelError
from floatframe.solvers import Newmark
from floatframe.solvers.explicit import RK44

A = np.array([[0.0, 1.0, 0.0], [-100.0, -0.4, 0.0], [0.0, 2.0, -10.0]])
B = np.array([0.0, 1.0, 50.0])
X_REFERENCE = np.array([0.5, 0.0, 1.0])
X0 = np.array([1.0, 0.0, -0.3])


def model(rhs_user_function=None, matrix=A, vector=B, x0=X0):
    system = System()
    node = NodeODE1(X_REFERENCE[:len(x0)], x0)
    system.add(node)
    system.add(ObjectGenericODE1([node], matrix, vector, rhs_user_function))
    return system, node


def exact(t):
    """x(t) of x' = A x + B from X0."""
    propagator = expm(A * t)
    return propagator @ X0 + np.linalg.solve(A, (propagator - np.eye(3)) @ B)


def rk4(h, steps):
    x = X0.copy()
    f = lambda y: A @ y + B  # noqa: E731
    for _ in range(steps):
        k1 = f(x)
        k2 = f(x + h / 2 * k1)
        k3 = f(x + h / 2 * k2)
        k4 = f(x + h * k3)
        x = x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return x


def test_rk44_is_rk4_on_x_and_converges_to_the_matrix_exponential():
    errors = []
    for steps in (200, 400):
        system, node = model()
        result = RK44().solve(system.assemble(), 1.0, steps)
        x = result.v[-1][node.coordinate_indices]
        np.testing.assert_allclose(x, rk4(1.0 / steps, steps), rtol=0, atol=1e-12 * np.abs(x).max())
        errors.append(np.abs(x - exact(1.0)).max())
    assert errors[1] < 1e-5
    assert 14 < errors[0] / errors[1] < 18     # order 4: 2^4


def test_trapezoidal_rule_from_a0():
    system, node = model()
    assembled = system.assemble()
    h, steps = 0.01, 100
    for a0 in (np.zeros(3), A @ X0 + B):
        result = Newmark(gamma=0.5, beta=0.25, relative_tolerance=1e-14).solve(
            assembled, 1.0, steps, a0=a0, lam0=np.zeros(0))
        x, rate = X0.copy(), a0.copy()
        for _ in range(steps):
            x = np.linalg.solve(np.eye(3) - h / 2 * A, x + h / 2 * rate + h / 2 * B)
            rate = A @ x + B
        rows = node.coordinate_indices
        np.testing.assert_allclose(result.v[-1][rows], x, rtol=0, atol=1e-10 * np.abs(x).max())
        np.testing.assert_allclose(result.a[-1][rows], rate, rtol=0, atol=1e-9 * np.abs(rate).max())
    assert np.abs(result.v[-1][rows] - exact(1.0)).max() < 2e-2 * np.abs(exact(1.0)).max()


def test_time_dependent_user_function_against_closed_form():
    calls = []

    def rhs(handle, t, number, x):
        calls.append((number, x.shape, float(x[0])))
        return np.array([np.sin(3 * t)])

    system, node = model(rhs, matrix=[[-2.0]], vector=[], x0=np.array([1.0]))
    result = RK44().solve(system.assemble(), 2.0, 400)
    closed = (1 + 3 / 13) * np.exp(-2 * result.t) + (2 * np.sin(3 * result.t) - 3 * np.cos(3 * result.t)) / 13
    np.testing.assert_allclose(result.v[:, 0], closed, rtol=0, atol=1e-9)
    np.testing.assert_allclose(result.a[-1, 0], -2 * closed[-1] + np.sin(6.0), rtol=0, atol=1e-9)
    assert calls[0] == (0, (1,), 1.0)     # the object number (objects counted apart from nodes), x0 without x_ref
    assert any(abs(x - closed[-1]) < 1e-9 for _, _, x in calls)


def test_outputs_and_rows():
    system, node = model()
    other = NodeODE1([0.0, 0.0], [2.0, -1.0])    # no object: x stays
    system.add(other)
    assembled = system.assemble()
    result = RK44().solve(assembled, 0.5, 50)
    np.testing.assert_allclose(result.v[-1][other.coordinate_indices], [2.0, -1.0], rtol=0, atol=0)
    np.testing.assert_array_equal(first_order_rows(system), np.arange(5))
    state = (0.5, result.q[-1], result.v[-1], result.a[-1], result.lam[-1])
    rows = node.coordinate_indices
    outputs = {name: assembled.output_function(lambda ctx, name=name: node.output(ctx, name), name)(*state)
               for name in ("Coordinates", "Coordinates_t", "CoordinatesTotal")}
    x = result.v[-1][rows]
    np.testing.assert_allclose(np.ravel(outputs["Coordinates"]), x, rtol=0, atol=0)
    np.testing.assert_allclose(np.ravel(outputs["Coordinates_t"]), A @ x + B, rtol=1e-12, atol=1e-10)
    np.testing.assert_allclose(np.ravel(outputs["CoordinatesTotal"]), x + X_REFERENCE, rtol=0, atol=0)
    with pytest.raises(ModelError, match="no output variable|Position"):
        node.check_output("Position")


@pytest.mark.parametrize("change, message", [
    (dict(matrix=np.eye(2)), "system_matrix has shape"),
    (dict(vector=[1.0, 2.0]), "rhs_vector has 2 entries"),
    (dict(matrix=[[np.nan, 0, 0]] * 3), "not finite"),
])
def test_bad_parameters_are_refused(change, message):
    system, _ = model(**change)
    with pytest.raises(ModelError, match=message):
        system.assemble()


def test_second_order_nodes_are_refused():
    from floatframe.components.nodes import NodeGenericODE2

    system = System()
    node = NodeGenericODE2([0.0, 0.0])
    system.add(node)
    system.add(ObjectGenericODE1([node], np.eye(2)))
    with pytest.raises(ModelError, match="first-order nodes"):
        system.assemble()
    with pytest.raises(ModelError, match="callable"):
        ObjectGenericODE1([node], rhs_user_function=3.0)
