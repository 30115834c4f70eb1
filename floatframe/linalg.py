"""Linear algebra shared by the components, the FE module and the solvers."""
from __future__ import annotations

import math
import os

import casadi as ca
import numpy as np
import scipy.sparse.linalg as spla


def euclidean_norm(vector) -> float:
    """|vector|_2 of a real vector (k,): the square root of its dot product, the value np.linalg.norm gives, without
    that function's dispatch (the solvers take it a few times a Newton iteration, on small vectors)."""
    return math.sqrt(np.dot(vector, vector))


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


PARDISO_MIN_SIZE = 10_000   # below this many unknowns PARDISO's set-up (about 0.4 s) costs more than it saves
# MKL's conditional numerical reproducibility, asked for before floatframe first loads MKL (unless MKL_CBWR is set):
# without it PARDISO sums in an order that changes from run to run (threads, memory alignment), so eigenmodes, and
# the compiled kernels named by models built from them, differed in their last bits between two runs of a script
MKL_REPRODUCIBLE = "AUTO,STRICT"


def positive_definite_solve(matrix):
    """b -> A^-1 b for a sparse symmetric positive definite A, factorized once.

    With the optional extra ``fast`` (pypardiso: Intel MKL's PARDISO, a multithreaded supernodal
    Cholesky with nested-dissection ordering) the factorization of a large 3D mesh's matrix takes a
    fraction of SuperLU's time: 8 modes of a 97,200-coordinate block in 42 s instead of 195 s. Below
    ``PARDISO_MIN_SIZE`` unknowns, or without the extra, SuperLU (``sparse_lu``)
    is used. PARDISO runs in MKL's reproducible mode (``MKL_REPRODUCIBLE``, unless the environment sets
    MKL_CBWR): the same bits in every run of the same solve.
    """
    pypardiso = None
    if matrix.shape[0] >= PARDISO_MIN_SIZE:   # importing MKL alone takes a few tenths of a second
        os.environ.setdefault("MKL_CBWR", MKL_REPRODUCIBLE)
        try:
            import pypardiso
        except ImportError:
            pass
    if pypardiso is None:
        return sparse_lu(matrix).solve
    return _PardisoCholesky(pypardiso, matrix).solve


class _PardisoCholesky:
    """One PARDISO factorization (matrix type 2: real symmetric positive definite, upper triangle) and its
    solves. pypardiso's own ``solve`` hashes the matrix on every call to find its factorization; here the
    factorization is known, so each solve is PARDISO's phase 33 alone."""

    def __init__(self, pypardiso, matrix):
        import scipy.sparse as sp

        self.upper = sp.triu(sp.csr_matrix(matrix), format="csr")
        self.upper.sort_indices()
        self.solver = pypardiso.PyPardisoSolver(mtype=2)
        self.solver.factorize(self.upper)

    def solve(self, right_hand_side):
        self.solver.set_phase(33)
        right = np.asfortranarray(np.asarray(right_hand_side, dtype=float).reshape(self.upper.shape[0], -1))
        return self.solver._call_pardiso(self.upper, right).reshape(np.shape(right_hand_side))


def quadratic_energy(stiffness, displacement, mass, velocity):
    """1/2 u^T K u + 1/2 w^T M w [J] (elastic plus kinetic energy) for NumPy or CasADi vectors u, w and
    constant K, M (dense or scipy.sparse)."""
    if isinstance(displacement, (ca.SX, ca.MX)):
        return (0.5 * ca.bilin(ca.DM(stiffness), displacement, displacement)
                + 0.5 * ca.bilin(ca.DM(mass), velocity, velocity))
    return 0.5 * displacement @ (stiffness @ displacement) + 0.5 * velocity @ (mass @ velocity)


CONSTRAINT_HEAVY_FRACTION = 0.1   # sparse_lu: above this fraction of zero diagonal entries, COLAMD ordering,
CONSTRAINT_HEAVY_MIN_SIZE = 1000   # from this many unknowns on (below, either order factorizes in well under 1 ms)


def sparse_lu(matrix):
    """SuperLU factorization tuned for iteration matrices (symmetric pattern, saddle point).

    Diagonal preference and a small pivot threshold (0.01); threshold pivoting keeps the zero-diagonal constraint
    block solvable. The column ordering: minimum degree on the pattern of A^T + A for FE matrices with few
    constraint rows; COLAMD for matrices of at least ``CONSTRAINT_HEAVY_MIN_SIZE`` unknowns where more than
    ``CONSTRAINT_HEAVY_FRACTION`` of the diagonal is zero (many joints: there the zero-diagonal pivots delayed by
    threshold pivoting spoil the minimum-degree order; a chain of 400 rigid bodies, 5200 unknowns: 240 ms and 3.3
    million factor entries against COLAMD's 3.8 ms and 96,000). Smaller matrices keep the minimum-degree order:
    a different order changes the round-off, and with it the steps of IDAS's error control (Andrews' squeezer at
    rtol 1e-10 lost half a digit with COLAMD).
    """
    matrix = matrix.tocsc()
    diagonal = matrix.diagonal()
    constraint_heavy = diagonal.size >= CONSTRAINT_HEAVY_MIN_SIZE and \
        np.count_nonzero(diagonal == 0) > CONSTRAINT_HEAVY_FRACTION * diagonal.size
    return spla.splu(matrix, permc_spec="COLAMD" if constraint_heavy else "MMD_AT_PLUS_A", diag_pivot_thresh=0.01,
                     options=dict(SymmetricMode=True))
