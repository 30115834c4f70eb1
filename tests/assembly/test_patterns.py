"""Claims about reading CasADi patterns into NumPy (floatframe.components.external): the row indices and column
pointers are those of Sparsity.row() and colind(), for patterns read through lists and for large ones read by
one evaluation, with empty rows and columns and rectangular shapes; and an iteration matrix on its structural pattern
is the sum of its parts."""
import casadi as ca
import numpy as np
import pytest
import scipy.sparse as sp

from floatframe.assembly.patterns import LIST_READ_LIMIT, MatrixPatterns, csc_arrays, pattern_ones


@pytest.mark.parametrize("shape, density", [((40, 30), 0.1), ((900, 2000), 0.1), ((3, 80000), 0.6)])
def test_csc_arrays_are_the_rows_and_column_pointers_of_the_pattern(shape, density):
    keep_rows, keep_columns = np.ones(shape[0]), np.ones(shape[1])
    keep_rows[1], keep_columns[7] = 0.0, 0.0              # an empty row and an empty column
    matrix = sp.csc_matrix(sp.diags(keep_rows) @ sp.random(*shape, density=density, format="csc", random_state=2)
                           @ sp.diags(keep_columns))
    matrix.eliminate_zeros()
    sparsity = ca.Sparsity(*shape, matrix.indptr.tolist(), matrix.indices.tolist())
    rows, pointers = csc_arrays(sparsity)
    assert rows.dtype == np.int64 and pointers.dtype == np.int64
    np.testing.assert_array_equal(rows, np.array(sparsity.row()))
    np.testing.assert_array_equal(pointers, np.array(sparsity.colind()))
    ones = pattern_ones(rows, pointers, sparsity.shape)
    assert ones.shape == shape and (ones != (matrix != 0)).nnz == 0


def test_the_large_cases_take_the_evaluation_path():
    assert 900 * 2000 * 0.1 > LIST_READ_LIMIT and 3 * 80000 * 0.6 > LIST_READ_LIMIT > 40 * 30


def test_the_iteration_matrix_is_its_parts_summed_where_linear_terms_cancel_at_one():
    """An iteration matrix on its structural pattern equals c_a L_a + c_v L_v + c_q L_q plus its Function's part, also
    at an entry where L_a + L_v + L_q = 0 (L_v = -L_q there) that the Function does not fill, and with a stored zero
    in L_a; the structural pattern is the union of the parts' entries (MatrixPatterns.structural)."""
    n, size = 3, 4                                    # 3 coordinates and 1 multiplier
    state = ca.SX.sym("x", size)
    output = ca.sparsify(ca.vertcat(state[0], 0, 0, state[1]) @ ca.DM([[1, 0, 0, 1]]))   # column 0 and row 0
    function = ca.Function("newton_matrix", [state], [output])
    linear = {"a": sp.csc_matrix(([2.0, 0.0], ([1, 2], [1, 0])), shape=(n, n)),
              "v": sp.csc_matrix(([5.0], ([2], [1])), shape=(n, n)),
              "q": sp.csc_matrix(([-5.0, 7.0], ([2, 0], [1, 2])), shape=(n, n))}
    patterns = MatrixPatterns({"newton_matrix": function}, linear, n)
    nonzeros = function(ca.DM([3.0, 4.0, 0.0, 0.0])).nonzeros()
    matrix = patterns.iteration_matrix("newton_matrix", np.array(nonzeros), 1.0, 2.0, 0.5)
    expected = np.array(function(ca.DM([3.0, 4.0, 0.0, 0.0])).full())
    expected[:n, :n] += (1.0 * linear["a"] + 2.0 * linear["v"] + 0.5 * linear["q"]).toarray()
    np.testing.assert_array_equal(matrix.toarray(), expected)
    assert expected[2, 1] == 7.5                      # 2 * 5 + 0.5 * (-5): the entry whose ones-sum cancels
    rows, pointers, keys = patterns.structural("newton_matrix", (size, size))
    assert keys.tolist() == sorted(set(keys.tolist())) and 2 + size * 1 in keys.tolist() and 0 + size * 2 in keys
