"""Redundant constraints: rows of the constraint Jacobian C_q that depend linearly on earlier rows at the
initial state (a planar loop drawn with revolute joints in 3D, two joints repeating each other), found for
``System.assemble`` to remove or refuse."""
from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.sparse as sp

REDUNDANCY_TOLERANCE = 1e-10   # a row is dependent where its part outside the earlier rows' span is below this
                               # fraction of its norm (C_q at the initial state)


class RedundantConstraintsWarning(UserWarning):
    """Constraint equations dependent at the initial state were removed from the DAE (``System.assemble``)."""


def dependent_constraint_rows(constraint_jacobian: sp.csc_matrix, tolerance: float = REDUNDANCY_TOLERANCE
                              ) -> np.ndarray:
    """The rows of C_q (m, n) that depend linearly on earlier rows, in order (see ``redundant_constraints``)."""
    jacobian = sp.csr_matrix(constraint_jacobian)
    columns = np.unique(jacobian.indices)
    if jacobian.shape[0] == 0 or columns.size == 0:
        return np.zeros(0, dtype=int)
    dense = jacobian[:, columns].toarray()
    if not np.all(np.isfinite(dense)):
        return np.zeros(0, dtype=int)
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
