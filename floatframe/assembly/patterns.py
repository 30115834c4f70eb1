"""Sparse patterns of an assembled model's matrices, and the bookkeeping that keeps each iteration matrix on
one fixed pattern.

CasADi gives a Function's sparse output as its nonzeros on a pattern that never changes; SciPy's sums and
products drop entries that happen to be zero. A factorization that keeps its symbolic analysis across steps
(``floatframe.solvers.linear.BorderedLU``) needs the same pattern every time, so each iteration matrix is laid
on its *structural* pattern: that of the sum of its parts (the Function's output, the constant linear terms,
the user functions' part) with every entry set to one, which cannot cancel.
"""
from __future__ import annotations

import casadi as ca
import numpy as np
import scipy.sparse as sp

LIST_READ_LIMIT = 100_000   # csc_arrays: patterns with fewer entries are read through Python lists


def csc_arrays(sparsity: ca.Sparsity) -> tuple[np.ndarray, np.ndarray]:
    """(row index of each entry (nnz,), column pointers (n_columns + 1,)) of a CasADi pattern, int64.

    ``sparsity.row()`` passes through a Python list, 0.1 s per million entries. A large pattern is read by one
    evaluation instead: diag(x) P, with P the pattern's ones and x = (0, 1, ..., n_rows - 1), has the pattern
    of P and the row index of each entry as its value, written into a NumPy buffer (about 4 times faster).
    """
    column_pointers = np.array(sparsity.colind(), dtype=np.int64)
    if sparsity.nnz() < LIST_READ_LIMIT:
        return np.array(sparsity.row(), dtype=np.int64), column_pointers
    row_number = ca.MX.sym("row_number", sparsity.size1())
    rows_of = ca.Function("rows_of_entries", [row_number],
                          [ca.mtimes(ca.diag(row_number), ca.MX(ca.DM.ones(sparsity)))])
    buffer, evaluate = rows_of.buffer()
    numbers, rows = np.arange(sparsity.size1(), dtype=float), np.empty(sparsity.nnz())
    buffer.set_arg(0, memoryview(numbers))
    buffer.set_res(0, memoryview(rows))
    evaluate()
    return rows.astype(np.int64), column_pointers


def pattern_ones(rows, column_pointers, shape) -> sp.csc_matrix:
    """A CSC pattern (row indices, column pointers, shape; e.g. a CasADi one read by :func:`csc_arrays`) as a
    scipy CSC matrix of ones (sums and products of such never cancel)."""
    return sp.csc_matrix((np.ones(len(rows)), rows, column_pointers), shape=shape)


def column_major_keys(row_indices, column_pointers, shape) -> np.ndarray:
    """column * rows + row of each entry of a CSC pattern (row indices, column pointers): sorted where the
    rows are sorted in each column, so that searchsorted finds entries of one pattern in another."""
    return np.repeat(np.arange(shape[1]), np.diff(column_pointers)) * shape[0] + row_indices


def union_of_patterns(shape, *keys) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row indices, column pointers, sorted keys) of the union of patterns given by their ``keys``
    (:func:`column_major_keys`) in a matrix of ``shape``: one sort of the keys, where SciPy's sums of sparse matrices
    took 3 of a 4 ms static solve of a reduced body."""
    union = np.unique(np.concatenate(keys)) if keys else np.zeros(0, dtype=np.int64)
    rows, columns = np.divmod(union, shape[0])[::-1]
    pointers = np.concatenate([[0], np.cumsum(np.bincount(columns, minlength=shape[1]))])
    return rows, pointers, union


class MatrixPatterns:
    """The patterns of an assembly's numeric Functions and of its iteration matrices, each found once.

    ``numeric``: the dict of numeric Functions (name -> Function; a compiled Function that replaces one keeps its
    pattern); ``linear``: {"q", "v", "a"} -> the constant linear terms L_q, L_v, L_a (n, n); ``user_functions``:
    the assembly's UserFunctionTerms or None.
    """

    def __init__(self, numeric: dict, linear: dict, n_coordinates: int, user_functions=None):
        self.numeric = numeric
        self.linear = linear
        self.n_coordinates = n_coordinates
        self.user_functions = user_functions
        self._outputs = {}        # Function name -> (row indices, column pointers, shape) of its output
        self._linear_union = {}   # shape -> the linear terms' matrices on their common pattern
        self._fixed = {}          # iteration matrix name -> its structural pattern
        self._scatter = {}        # iteration matrix name -> where its parts go in that pattern

    def output(self, name) -> tuple[np.ndarray, np.ndarray, tuple]:
        """(row indices, column pointers, shape) of the output of numeric Function ``name``."""
        if name not in self._outputs:
            sparsity = self.numeric[name].sparsity_out(0)
            self._outputs[name] = (*csc_arrays(sparsity), sparsity.shape)
        return self._outputs[name]

    def iteration_matrix(self, name, nonzeros, c_a, c_v, c_q) -> sp.csc_matrix:
        """Iteration matrix ``name`` on its structural pattern from its Function's ``nonzeros`` and
        c_a L_a + c_v L_v + c_q L_q: both parts scattered into the pattern's values at positions found once,
        with no sparse sums (which took 1 ms of a 2 ms matrix at 359 unknowns)."""
        if name not in self._scatter:
            rows, column_pointers, shape = self.output(name)
            indices, pointers, keys = self.structural(name, shape)
            function_keys = column_major_keys(rows, column_pointers, shape)
            linear_indices, linear_pointers, linear_values = self.linear_union(shape)
            self._scatter[name] = (shape, indices, pointers, np.searchsorted(keys, function_keys),
                                   np.searchsorted(keys, column_major_keys(linear_indices, linear_pointers, shape)),
                                   linear_values)
        shape, indices, pointers, function_positions, linear_positions, (on_a, on_v, on_q) = self._scatter[name]
        values = np.zeros(indices.size)
        values[function_positions] = nonzeros
        values[linear_positions] += float(c_a) * on_a + float(c_v) * on_v + float(c_q) * on_q
        return sp.csc_matrix((values, indices, pointers), shape=shape)

    def on_structural(self, name, matrix) -> sp.csc_matrix:
        """``matrix`` on the structural pattern of iteration matrix ``name``, explicit zeros included."""
        indices, pointers, keys = self.structural(name, matrix.shape)
        matrix = sp.csc_matrix(matrix)
        matrix.sum_duplicates()
        wanted = column_major_keys(matrix.indices, matrix.indptr, matrix.shape)
        positions = np.minimum(np.searchsorted(keys, wanted), keys.size - 1)
        if not np.array_equal(keys[positions], wanted):
            raise RuntimeError(f"{name}: an entry outside the structural pattern of the iteration matrix")
        values = np.zeros(keys.size)
        values[positions] = matrix.data
        return sp.csc_matrix((values, indices, pointers), shape=matrix.shape)

    def structural(self, name, shape):
        """(row indices, column pointers, sorted keys column * rows + row) of the structural pattern of
        iteration matrix ``name``: the sum of its parts with every entry one."""
        if name not in self._fixed and self._only_function(name):   # its Function's pattern (CasADi's: sorted)
            rows, column_pointers, _ = self.output(name)
            self._fixed[name] = (rows, column_pointers, column_major_keys(rows, column_pointers, shape))
        if name not in self._fixed:   # the Function's entries, every linear term's, the user functions' nonzeros
            rows, column_pointers, _ = self.output(name)
            linear_rows, linear_pointers, _ = self.linear_union(shape)
            keys = [column_major_keys(rows, column_pointers, shape),
                    column_major_keys(linear_rows, linear_pointers, shape)]
            if self.user_functions is not None and name in self.user_functions.functions:
                part = sp.csc_matrix(self.user_functions.structural_part(shape))
                part.sum_duplicates()
                keys.append(column_major_keys(part.indices, part.indptr, shape)[part.data != 0])
            self._fixed[name] = union_of_patterns(shape, *keys)
        return self._fixed[name]

    def _only_function(self, name) -> bool:
        """Whether iteration matrix ``name`` is its Function's output alone: no linear terms (models without FE
        bodies) and no user-function part."""
        return (all(self.linear[part].nnz == 0 for part in "avq")
                and not (self.user_functions is not None and name in self.user_functions.functions))

    def linear_iteration(self, c_a, c_v, c_q, shape) -> sp.csc_matrix:
        """c_a L_a + c_v L_v + c_q L_q of the linear terms, padded with zeros to ``shape`` (CSC): one weighted
        sum of the value arrays of ``linear_union``."""
        indices, pointers, (on_a, on_v, on_q) = self.linear_union(shape)
        return sp.csc_matrix((float(c_a) * on_a + float(c_v) * on_v + float(c_q) * on_q, indices, pointers),
                             shape=shape)

    def linear_union(self, shape):
        """(row indices, column pointers, (values of L_a, L_v, L_q)) of the linear terms' matrices laid on the
        union of their patterns, padded with zeros to ``shape``; made once per shape."""
        if shape not in self._linear_union and all(self.linear[name].nnz == 0 for name in "avq"):
            self._linear_union[shape] = (np.zeros(0, dtype=np.int32), np.zeros(shape[1] + 1, dtype=np.int32),
                                         [np.zeros(0)] * 3)
        if shape not in self._linear_union:   # (the entries that are not zero: stored zeros are left out)
            entries = []
            for name in "avq":
                matrix = sp.csc_matrix(self.linear[name], copy=True)   # (n, n), in the upper left of ``shape``
                matrix.sum_duplicates()
                nonzero = matrix.data != 0
                matrix_keys = column_major_keys(matrix.indices, matrix.indptr, (shape[0], matrix.shape[1]))
                entries.append((matrix_keys[nonzero], matrix.data[nonzero]))
            rows, pointers, keys = union_of_patterns(shape, *(entry_keys for entry_keys, _ in entries))
            values = []
            for entry_keys, data in entries:
                on_union = np.zeros(keys.size)
                on_union[np.searchsorted(keys, entry_keys)] = data
                values.append(on_union)
            self._linear_union[shape] = (rows, pointers, values)
        return self._linear_union[shape]
