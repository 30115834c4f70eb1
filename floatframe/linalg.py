"""Linear algebra shared by the components, the FE module and the solvers."""
from __future__ import annotations

import numpy as np


def null_space(matrix, tolerance: float) -> np.ndarray:
    """Orthonormal basis (columns, (k, k - r)) of the null space of ``matrix`` (m, k), from its SVD; r
    counts the singular values above ``tolerance`` (absolute). An empty matrix gives the identity."""
    matrix = np.asarray(matrix, dtype=float)
    if matrix.shape[0] == 0:
        return np.eye(matrix.shape[1])
    _, singular_values, vt = np.linalg.svd(matrix, full_matrices=matrix.shape[0] < matrix.shape[1])  # vt: all of R^k
    return vt[int(np.sum(singular_values > tolerance)):].T


def typical_eigenvalue(stiffness, mass) -> float:
    """The typical omega^2 [1/s^2] of K x = omega^2 M x: mean |diagonal| of K over that of M (1 where
    either is zero)."""
    k_diagonal, m_diagonal = np.abs(stiffness.diagonal()), np.abs(mass.diagonal())
    typical = k_diagonal.mean() / m_diagonal.mean() if m_diagonal.mean() > 0 else 1.0
    return typical if typical > 0 else 1.0


def shift_below_spectrum(stiffness, mass) -> float:
    """Shift-invert point below zero by 1 % of the typical omega^2: close enough that the lowest modes
    are the nearest, far enough that rigid-body zeros do not swamp their accuracy."""
    return -1e-2 * typical_eigenvalue(stiffness, mass)
