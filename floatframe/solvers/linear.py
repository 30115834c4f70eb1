"""Linear algebra shared by the solvers: the sparse LU, the bordered (Schur-complement) LU of matrices with a
few dense rows and columns, consistent accelerations, and naming the cause of a singular matrix."""
from __future__ import annotations

import contextlib
import functools

import warnings
import zlib
from collections import OrderedDict

import numpy as np
import scipy.linalg
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from floatframe.linalg import sparse_lu
from floatframe.solvers.result import SolverError

BORDERED_MIN_SIZE = 2_000   # below this many unknowns the plain LU is as fast (a few ms) and factorize uses it
BORDER_MIN_ENTRIES = 16     # a row or column is dense ("border") above max(this, BORDER_MEDIAN_FACTOR x median)
BORDER_MEDIAN_FACTOR = 4
BACKWARD_ERROR_LIMIT = 1e-12  # of a test solve; above it factorize falls back to the plain LU
BORDER_MAX_SIZE = 128       # more border indices than this: the dense Schur complement would cost more than it saves
DENSE_LU_MAX_SIZE = 500     # up to this many unknowns, a matrix with at least DENSE_LU_MIN_DENSITY of its
DENSE_LU_MIN_DENSITY = 0.15  # entries nonzero gets LAPACK's dense LU (faster than SuperLU there, docs/solvers.md)


SINGLE_THREAD_MIN_SIZE = 100   # unknowns from which the solvers' loops limit BLAS to one thread


def single_threaded_blas(size: int | None = None):
    """A context in which BLAS runs on one thread (threadpoolctl), for a system of ``size`` unknowns.

    A step's vector operations and triangular solves are too small for BLAS threads: on a shared 2-core
    machine OpenBLAS's thread hand-off made SuperLU's solves 6 times and np.dot 100 times slower at 12,000
    unknowns (docs/performance.md). The solvers' loops run inside this context. Below SINGLE_THREAD_MIN_SIZE
    unknowns (small models: pendulums, chains, reduced bodies) the context is empty: threadpoolctl's first limit
    in a process cost such a model's solve 14 ms, more than its steps."""
    if size is not None and size < SINGLE_THREAD_MIN_SIZE:
        return contextlib.nullcontext()
    return _blas_controller().limit(limits=1, user_api="blas")


@functools.lru_cache(maxsize=None)
def _blas_controller():
    """threadpoolctl's controller of the process's thread pools, found once (finding them, what each
    ``threadpool_limits`` call does, took 3-7 ms of every solve of 100 unknowns or more)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def _superlu_natural(matrix):
    """sparse_lu's SuperLU options with the columns (and, symmetric mode, the rows) kept in the given order."""
    return spla.splu(matrix, permc_spec="NATURAL", diag_pivot_thresh=0.01, options=dict(SymmetricMode=True))


def factorize(matrix):
    """The LU factorization the solvers use: an object with ``.solve(right)`` for (N,) and (N, k) right sides.

    A matrix of at most ``DENSE_LU_MAX_SIZE`` unknowns whose entries are at least ``DENSE_LU_MIN_DENSITY``
    nonzero gets a :class:`LapackLU`. A matrix of at least ``BORDERED_MIN_SIZE`` unknowns with dense rows and
    columns (the frame coordinates and Tisserand rows of an FFRF body; see :func:`border_indices`) gets a
    :class:`BorderedLU`, which reuses the
    fill-reducing ordering of the last matrices of the same pattern; any other matrix, and one whose interior
    block or Schur complement is singular or whose bordered solve has a backward error above
    ``BACKWARD_ERROR_LIMIT`` (a nearly singular interior), gets :func:`sparse_lu` (which raises RuntimeError
    when singular).
    """
    matrix = sp.csc_matrix(matrix)
    size = matrix.shape[0]
    if size <= DENSE_LU_MAX_SIZE and matrix.nnz >= DENSE_LU_MIN_DENSITY * size * size:
        return LapackLU(matrix.toarray())
    if size < BORDERED_MIN_SIZE or matrix.dtype != np.float64:
        return sparse_lu(matrix)
    pattern = _pattern_of(matrix)
    if pattern is None:
        return sparse_lu(matrix)
    try:
        bordered = BorderedLU(matrix, pattern)
    except _InteriorSingular:
        return sparse_lu(matrix)
    return bordered if bordered.backward_error() <= BACKWARD_ERROR_LIMIT else sparse_lu(matrix)


class LapackLU:
    """LAPACK's LU (getrf) of a dense square matrix, with ``solve(right)`` for (N,) and (N, k) right sides.

    Raises RuntimeError, as SuperLU does, when a pivot is exactly zero. ``overwrite``: getrf may take the matrix's
    memory for the factors (False where the caller still reads the matrix)."""

    __slots__ = ("factors", "pivots")

    def __init__(self, matrix: np.ndarray, overwrite: bool = True):
        self.factors, self.pivots, info = scipy.linalg.lapack.dgetrf(matrix, overwrite_a=overwrite)
        if info != 0:   # (info > 0: U(info, info) is exactly zero)
            raise RuntimeError("Factor is exactly singular")

    def solve(self, right) -> np.ndarray:
        """The solution (N,) or (N, k); LAPACK's getrs itself (scipy.linalg.lu_solve's checks cost more
        than the substitution at a few hundred unknowns)."""
        solution, _ = scipy.linalg.lapack.dgetrs(self.factors, self.pivots, right)
        return solution


def border_indices(matrix) -> np.ndarray:
    """Indices of the dense ("border") rows and columns of a square sparse matrix, sorted, (k,).

    Index i is in the border when its row or its column has more than max(BORDER_MIN_ENTRIES,
    BORDER_MEDIAN_FACTOR x the median count) entries, or when, with the border removed, its row or column
    has no entry left (e.g. a constraint on the border coordinates only, such as the Euler-parameter norm).
    Rows and columns are taken out together, so the interior block keeps its diagonal.
    """
    matrix = sp.csc_matrix(matrix)
    n = matrix.shape[0]
    column_counts = np.diff(matrix.indptr)
    row_counts = np.bincount(matrix.indices, minlength=n)
    limit = max(BORDER_MIN_ENTRIES, BORDER_MEDIAN_FACTOR * np.median(np.concatenate([column_counts, row_counts])))
    in_border = (column_counts > limit) | (row_counts > limit)
    if not in_border.any():
        return np.zeros(0, dtype=np.int64)
    rows = matrix.indices
    columns = np.repeat(np.arange(n), column_counts)
    while True:   # a row or column whose entries are all in the border is empty in the interior block
        inside = ~in_border[rows] & ~in_border[columns]
        left_in_row = np.bincount(rows[inside], minlength=n)
        left_in_column = np.bincount(columns[inside], minlength=n)
        emptied = ~in_border & ((left_in_row == 0) | (left_in_column == 0))
        if not emptied.any():
            return np.flatnonzero(in_border)
        in_border |= emptied


class _InteriorSingular(Exception):
    """The interior block or the Schur complement of a bordered matrix is singular."""


class _BorderPattern:
    """The symbolic analysis of one sparsity pattern for :class:`BorderedLU`: the border, the interior's
    fill-reducing order (from its first factorization) and where each block's entries sit in ``matrix.data``."""

    def __init__(self, matrix, border):
        n = matrix.shape[0]
        self.indptr = matrix.indptr.copy()
        self.indices = matrix.indices.copy()
        self.border = border
        self.order = np.setdiff1d(np.arange(n), border)   # interior indices, in the factorization's order
        self.ordered = False                               # whether order is the fill-reducing one yet
        self._gather(matrix)

    def _gather(self, matrix):
        """Blocks of the 1-based positions in matrix.data: interior (CSC), border columns, border rows."""
        positions = sp.csc_matrix((np.arange(1, matrix.nnz + 1, dtype=np.float64), self.indices, self.indptr),
                                  shape=matrix.shape)
        interior = positions[self.order][:, self.order].tocsc()
        interior.sort_indices()
        self.interior_indptr, self.interior_indices = interior.indptr, interior.indices
        self.interior_positions = interior.data.astype(np.int64) - 1
        self.border_columns = positions[self.order][:, self.border].toarray().astype(np.int64)   # A_IB, 0 = none
        self.border_rows = positions[self.border][:, self.order].tocsr()                       # A_BI
        self.border_block = positions[self.border][:, self.border].toarray().astype(np.int64)  # A_BB

    def matches(self, matrix) -> bool:
        return np.array_equal(matrix.indptr, self.indptr) and np.array_equal(matrix.indices, self.indices)

    def adopt_ordering(self, matrix, column_permutation):
        """Take the interior's fill-reducing order from SuperLU's perm_c of its first factorization."""
        self.order = self.order[np.argsort(column_permutation)]
        self.ordered = True
        self._gather(matrix)

    @staticmethod
    def values(data, positions):
        """Entries of a block from the 1-based positions (0: no entry), as a float array of their shape."""
        return np.where(positions > 0, data[np.maximum(positions - 1, 0)], 0.0)


_PATTERNS: OrderedDict = OrderedDict()   # (shape, nnz, checksum) -> _BorderPattern, or None for no border
_PATTERNS_KEPT = 4


def _pattern_of(matrix):
    """The cached analysis of matrix's pattern (verified entry by entry), analysed on first sight; None when
    the matrix has no usable border."""
    if not matrix.has_sorted_indices:
        matrix.sort_indices()
    key = (matrix.shape, matrix.nnz, zlib.crc32(matrix.indptr.tobytes()), zlib.crc32(matrix.indices.tobytes()))
    if key in _PATTERNS:
        pattern = _PATTERNS[key]
        _PATTERNS.move_to_end(key)
        if pattern is None or pattern.matches(matrix):
            return pattern
    border = border_indices(matrix)
    usable = 0 < border.size <= BORDER_MAX_SIZE
    pattern = _BorderPattern(matrix, border) if usable else None
    _PATTERNS[key] = pattern
    while len(_PATTERNS) > _PATTERNS_KEPT:
        _PATTERNS.popitem(last=False)
    return pattern


class BorderedLU:
    """LU factorization of a square sparse matrix with a few dense rows and columns (the border B) by the
    Schur complement on top of SuperLU's factorization of the sparse interior block I.

    With A = [[A_II, A_IB], [A_BI, A_BB]]: W = A_II^-1 A_IB, S = A_BB - A_BI W (dense, k x k), and
    x_B = S^-1 (b_B - A_BI A_II^-1 b_I), x_I = A_II^-1 b_I - W x_B, and one step of iterative refinement
    against A: on FFRF Newton matrices it brings the backward error from ~3e-16 to the plain LU's ~3e-17, and
    with a nearly singular interior block it turns an O(1) error into round-off (tests/solvers/test_linear.py),
    for the cost of a second solve (1-2 ms at 3k unknowns). The interior is factorized with SuperLU in the order
    of ``pattern``: minimum degree on its first factorization, then kept (permc_spec="NATURAL" on the
    pre-ordered block).

    Parameters
    ----------
    matrix : scipy.sparse.csc_matrix (N, N), float, sorted indices, with the pattern analysed in ``pattern``.
    pattern : _BorderPattern of matrix (``factorize`` finds it); ``BorderedLU(matrix)`` analyses afresh.

    Attributes
    ----------
    border : indices of the border rows and columns, (k,).
    interior_lu : SuperLU of the interior block (its ``L.nnz + U.nnz`` is the fill-in).
    reused_ordering : whether the interior was factorized in an ordering kept from an earlier matrix.
    pattern : the analysis, to pass to the next factorization of a matrix with the same pattern.

    Raises _InteriorSingular when the interior block or S is singular (``factorize`` then uses sparse_lu).
    """

    def __init__(self, matrix, pattern=None):
        matrix = sp.csc_matrix(matrix)
        if pattern is None:
            matrix.sort_indices()
            border = border_indices(matrix)
            if border.size == 0:
                raise ValueError("BorderedLU: the matrix has no dense rows or columns; use sparse_lu")
            pattern = _BorderPattern(matrix, border)
        elif not pattern.matches(matrix):
            raise ValueError("BorderedLU: the matrix does not have the pattern of the given analysis")
        self.matrix = matrix
        self.pattern = pattern
        self.border = pattern.border
        self.order = pattern.order
        self.reused_ordering = pattern.ordered
        data = matrix.data
        interior = sp.csc_matrix((data[pattern.interior_positions], pattern.interior_indices,
                                  pattern.interior_indptr), shape=(self.order.size,) * 2)
        try:
            self.interior_lu = _superlu_natural(interior) if pattern.ordered else sparse_lu(interior)
        except RuntimeError:
            raise _InteriorSingular from None
        self.border_rows = sp.csr_matrix((data[pattern.border_rows.data.astype(np.int64) - 1],
                                          pattern.border_rows.indices, pattern.border_rows.indptr),
                                         shape=pattern.border_rows.shape)
        self.border_columns_solved = self.interior_lu.solve(pattern.values(data, pattern.border_columns))
        schur = pattern.values(data, pattern.border_block) - self.border_rows @ self.border_columns_solved
        if not np.all(np.isfinite(schur)):
            raise _InteriorSingular
        with warnings.catch_warnings():   # a singular S is handled below
            warnings.simplefilter("ignore", scipy.linalg.LinAlgWarning)
            self.schur_lu = scipy.linalg.lu_factor(schur, check_finite=False)
        if np.any(np.diag(self.schur_lu[0]) == 0.0):
            raise _InteriorSingular
        if not pattern.ordered:
            pattern.adopt_ordering(matrix, self.interior_lu.perm_c)

    @property
    def fill_in(self) -> int:
        """Stored factor entries: nnz(L) + nnz(U) of the interior, plus the dense W (n_I x k) and S (k x k)."""
        k = self.border.size
        return self.interior_lu.L.nnz + self.interior_lu.U.nnz + self.order.size * k + k * k

    def backward_error(self, seed: int = 0) -> float:
        """|A x - b|_inf / (|A|_inf |x|_inf) of the solve of b = A x_true for a random x_true (one solve)."""
        expected = np.random.default_rng(seed).uniform(0.5, 1.5, self.matrix.shape[0])
        right = self.matrix @ expected
        solution = self.solve(right)
        norm = abs(self.matrix).sum(axis=1).max() * np.abs(solution).max()
        residual = np.abs(self.matrix @ solution - right).max()
        return float(residual / norm) if np.isfinite(residual) and norm > 0 else np.inf

    def _solve_once(self, right):
        interior = self.interior_lu.solve(right[self.order])
        border = scipy.linalg.lu_solve(self.schur_lu, right[self.border] - self.border_rows @ interior,
                                       check_finite=False)
        solution = np.empty_like(right)
        solution[self.order] = interior - self.border_columns_solved @ border
        solution[self.border] = border
        return solution

    def solve(self, right, refine: bool = True):
        """x with A x = right, for right (N,) or (N, r); ``refine``: one step of iterative refinement."""
        right = np.asarray(right, dtype=np.float64)
        columns = right.reshape(right.shape[0], -1)
        solution = self._solve_once(columns)
        if refine:
            solution += self._solve_once(columns - self.matrix @ solution)
        return solution.reshape(right.shape)


def singular_cause(system, t, matrix) -> str:
    """Name the constraints that are redundant (dependent rows of C_q), or say the mass matrix is singular."""
    n, m = system.n_coordinates, system.n_multipliers
    if m:
        jacobian = matrix[n:, :n].toarray()
        _, r, permutation = scipy.linalg.qr(jacobian.T, pivoting=True, mode="economic")
        diagonal = np.abs(np.diag(r)) if r.size else np.zeros(0)
        scale = diagonal.max() if diagonal.size else 0.0
        dependent = [int(permutation[k]) for k in range(len(diagonal)) if diagonal[k] <= 1e-10 * max(scale, 1e-300)]
        if dependent or scale == 0.0:
            rows = dependent or list(range(m))
            return f"redundant constraints involving: {system.describe_constraints(rows)}"
    empty = np.flatnonzero(np.abs(sp.csr_matrix(matrix)[:n]).sum(axis=1).A1 == 0)
    if empty.size:
        return (f"the mass matrix (or iteration matrix) is singular: no mass, stiffness or constraint acts on "
                f"{system.describe_coordinates(empty[:12])}{' ...' if empty.size > 12 else ''}")
    return "the mass matrix (or iteration matrix) is singular: coordinates without mass or stiffness"


def solve_or_explain(system, t, matrix, right, what: str, solver: str) -> np.ndarray:
    """Solve matrix x = right; a singular matrix raises SolverError naming the solver, time and cause."""
    try:
        solution = factorize(matrix).solve(right)
    except RuntimeError:
        solution = np.full(right.shape, np.nan)
    if not np.all(np.isfinite(solution)):
        raise SolverError(f"{solver}: singular {what} at t = {t:.6g}; {singular_cause(system, t, matrix)}", t)
    return solution


def consistent_accelerations(system, t, q, v, solver: str):
    """a, lambda from [[M, C_q^T], [C_q, 0]] [a; lambda] = [-R(q, v, 0, 0); -(d^2C/dt^2 - C_q a)]."""
    n, m = system.n_coordinates, system.n_multipliers
    right = np.concatenate([-system.residual(t, q, v, np.zeros(n), np.zeros(m)),
                            -system.constraint_acceleration_rest(t, q, v)])
    if not np.all(np.isfinite(right)):
        rows = np.flatnonzero(~np.isfinite(right))
        raise SolverError(f"{solver}: the residual is not finite at t = {t:.6g} in the initial state (rows "
                          f"{rows[:6].tolist()}): a load, user function or initial value gives NaN or inf", t)
    matrix = system.newton_matrix(t, q, v, np.zeros(n), np.zeros(m), 1.0, 0.0, 0.0)
    solution = solve_or_explain(system, t, matrix, right, "acceleration-level system [[M, C_q^T], [C_q, 0]]",
                                solver)
    return solution[:n], solution[n:]
