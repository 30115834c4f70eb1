"""Dense linear algebra shared by the components and the solvers."""
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
