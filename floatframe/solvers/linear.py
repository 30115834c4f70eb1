"""Linear algebra shared by the solvers: the sparse LU, consistent accelerations, and naming the cause
of a singular matrix."""
from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.sparse.linalg as spla

from floatframe.solvers.result import SolverError


def sparse_lu(matrix):
    """SuperLU factorization tuned for FE iteration matrices (symmetric pattern, saddle point).

    A minimum-degree ordering on the pattern of A^T + A with diagonal preference and a small pivot
    threshold (0.01) keeps the fill-in of 3D meshes 2-4 times below SuperLU's default; threshold
    pivoting keeps the zero-diagonal constraint block solvable.
    """
    return spla.splu(matrix.tocsc(), permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.01,
                     options=dict(SymmetricMode=True))


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
    return "the mass matrix (or iteration matrix) is singular: coordinates without mass or stiffness"


def solve_or_explain(system, t, matrix, right, what: str, solver: str) -> np.ndarray:
    """Solve matrix x = right; a singular matrix raises SolverError naming the solver, time and cause."""
    try:
        solution = sparse_lu(matrix).solve(right)
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
