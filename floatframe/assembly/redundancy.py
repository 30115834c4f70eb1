"""Redundant constraints: rows of the constraint Jacobian C_q that depend linearly on earlier rows at the
initial state (a planar loop drawn with revolute joints in 3D, two joints repeating each other), found for
``System.assemble`` to remove or refuse."""
from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.sparse as sp
import scipy.sparse.linalg as spla

REDUNDANCY_TOLERANCE = 1e-10   # a row is dependent where its part outside the earlier rows' span is below this
                               # fraction of its norm (C_q at the initial state)


class RedundantConstraintsWarning(UserWarning):
    """Constraint equations dependent at the initial state were removed from the DAE (``System.assemble``)."""


FULL_RANK_PIVOT_RATIO = 1e-8   # the sparse test's smallest accepted pivot, relative to the largest
SPARSE_TEST_MIN_ROWS = 200     # below this many rows the dense QR is quick anyway


def clearly_full_rank(rows: sp.csr_matrix) -> bool:
    """Whether C (m, n) with rows of unit norm clearly has full row rank: the sparse LU (COLAMD) of the saddle-point
    matrix [[I, C^T], [C, 0]], regular exactly when C has full row rank, has no pivot below FULL_RANK_PIVOT_RATIO
    times the largest. Dependent rows leave a pivot of round-off size (1e-17 relative on a 400-body chain with one
    row added); False sends the rows to the exact, dense test."""
    m, n = rows.shape
    saddle = sp.bmat([[sp.identity(n, format="csc"), rows.T], [rows, None]], format="csc")
    try:
        pivots = np.abs(spla.splu(saddle, permc_spec="COLAMD").U.diagonal())
    except RuntimeError:   # exactly singular
        return False
    return bool(pivots.min() > FULL_RANK_PIVOT_RATIO * pivots.max())


def dependent_constraint_rows(constraint_jacobian: sp.csc_matrix, tolerance: float = REDUNDANCY_TOLERANCE
                              ) -> np.ndarray:
    """The rows of C_q (m, n) that depend linearly on earlier rows, in order (see ``redundant_constraints``).

    Many rows (at least SPARSE_TEST_MIN_ROWS) are first tested by ``clearly_full_rank`` (a 400-body chain's 2400
    rows: 20 ms, where the dense QR with pivoting took 11 s); the rest, and rows that may be dependent, by a QR
    with column pivoting of the dense rows."""
    jacobian = sp.csr_matrix(constraint_jacobian)
    columns = np.unique(jacobian.indices)
    if jacobian.shape[0] == 0 or columns.size == 0:
        return np.zeros(0, dtype=int)
    if not np.all(np.isfinite(jacobian.data)):
        return np.zeros(0, dtype=int)
    if jacobian.shape[0] >= SPARSE_TEST_MIN_ROWS:
        touched = jacobian[:, columns]
        norms = np.sqrt(np.asarray(touched.multiply(touched).sum(axis=1)).ravel())
        if np.all(norms > 0) and clearly_full_rank(sp.csr_matrix(sp.diags(1.0 / norms) @ touched)):
            return np.zeros(0, dtype=int)
    dense = jacobian[:, columns].toarray()
    diagonal = np.abs(np.diag(scipy.linalg.qr(dense.T, mode="r", pivoting=True)[0]))
    if diagonal.size == dense.shape[0] and diagonal.min() > tolerance * diagonal.max():
        return np.zeros(0, dtype=int)                # full rank (LAPACK, fast); else find the rows in order
    basis = np.zeros((0, dense.shape[1]))            # orthonormal rows spanning the independent rows so far
    dependent = []
    for row, values in enumerate(dense):
        rest = values - basis.T @ (basis @ values)
        rest -= basis.T @ (basis @ rest)             # twice: Gram-Schmidt stays orthogonal
        size = np.linalg.norm(rest)
        if size <= tolerance * max(np.linalg.norm(values), 1e-300):
            dependent.append(row)
        else:
            basis = np.vstack([basis, rest / size])
    return np.asarray(dependent, dtype=int)


def redundant_constraints(constraint_jacobian: sp.csc_matrix, owners: list,
                          tolerance: float = REDUNDANCY_TOLERANCE) -> str:
    """Which constraint rows depend linearly on earlier ones ('' if none), from C_q (m, n) at one state.

    Gram-Schmidt on the rows of C_q (on the coordinates that constraints touch), in their order, leaves of row
    k the part that the rows before it do not span; below ``tolerance`` times the row's norm the row is
    redundant (so the later of two repeating joints is named), and its least-squares combination of
    the earlier independent rows names the constraints it repeats. NaN entries (a parameter without value)
    make the check undecidable: it is then skipped.
    """
    dependent = dependent_constraint_rows(constraint_jacobian, tolerance)
    if not dependent.size:
        return ""
    jacobian = sp.csr_matrix(constraint_jacobian)
    dense = jacobian[:, np.unique(jacobian.indices)].toarray()
    independent = np.setdiff1d(np.arange(dense.shape[0]), dependent)
    findings = {}                                   # owner -> (count of its redundant rows, owners it repeats)
    for row in dependent:
        earlier = independent[independent < row]
        coefficients = np.linalg.lstsq(dense[earlier].T, dense[row], rcond=None)[0]
        count, partners = findings.get(owners[row], (0, set()))
        partners |= {owners[earlier[i]] for i in np.flatnonzero(np.abs(coefficients) > 1e-8)}
        findings[owners[row]] = (count + 1, partners)
    return "; ".join(f"{count} equation{'s' if count > 1 else ''} of {owner} repeat "
                     f"{', '.join(sorted(partners)) or 'nothing (zero rows)'}"
                     for owner, (count, partners) in findings.items())
