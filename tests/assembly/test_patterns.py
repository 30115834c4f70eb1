"""Claims about reading CasADi patterns into NumPy (floatframe.components.external): the row indices and column
pointers are those of Sparsity.row() and colind(), for patterns read through lists and for large ones read by
one evaluation, with empty rows and columns and rectangular shapes."""
import casadi as ca
import numpy as np
import pytest
import scipy.sparse as sp

from floatframe.assembly.patterns import LIST_READ_LIMIT, csc_arrays, pattern_ones


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
