"""Claims about floatframe.assembly.functions.sparse_jacobian: the blocked Jacobian (dense rows and columns split
off, only the rows and columns that hold entries differentiated) equals CasADi's plain Jacobian entry for entry,
with the same pattern."""
import casadi as ca
import numpy as np

from floatframe.assembly.functions import sparse_jacobian


def evaluated(jacobian, x, value):
    return ca.Function("j", [x], [jacobian])(value)


def assert_same_jacobian(expression, x, value):
    blocked, plain = sparse_jacobian(expression, x), ca.jacobian(expression, x)
    assert blocked.shape == plain.shape
    assert blocked.sparsity() == plain.sparsity()
    np.testing.assert_array_equal(np.asarray(evaluated(blocked, x, value)), np.asarray(evaluated(plain, x, value)))


def test_with_dense_rows_and_columns_like_a_floating_frame():
    """Two frame coordinates couple to every 'mesh' coordinate (dense columns), two rows sum over all of them
    (dense rows), and each mesh row depends on its own coordinate."""
    n = 400
    x = ca.SX.sym("x", n)
    frame = x[:2]
    mesh_rows = [ca.sin(x[i]) * frame[0] + x[i] ** 2 * frame[1] for i in range(2, n)]
    expression = ca.vertcat(ca.sum1(x[2:] ** 2) * frame[0], ca.sum1(ca.cos(x[2:])), *mesh_rows)
    assert_same_jacobian(expression, x, np.random.default_rng(0).standard_normal(n))


def test_with_few_rows_and_columns_holding_entries():
    """Most rows are constant (as the FFRF residual's mesh rows without their linear terms, which only hold
    user-function values): only the rest is differentiated, and the result keeps its place."""
    n = 300
    x = ca.SX.sym("x", n)
    expression = ca.SX.zeros(n)
    expression[5] = x[3] * x[7]
    expression[200] = ca.exp(x[250]) + x[3]
    expression[120:130] = 2.0
    assert_same_jacobian(expression, x, np.random.default_rng(1).standard_normal(n))


def test_without_dependence_the_jacobian_is_empty():
    x = ca.SX.sym("x", 5)
    jacobian = sparse_jacobian(ca.DM.ones(3) + ca.SX.zeros(3), x)
    assert jacobian.shape == (3, 5) and jacobian.nnz() == 0
