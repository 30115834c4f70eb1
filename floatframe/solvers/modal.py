"""Linearized eigenvalue (modal) analysis about a state of the assembled system.

About (t, q, v, lambda) the equations of motion linearize to M dq_tt + D dq_t + K dq + C_q^T dlambda = 0,
C_q dq = 0, with the exact Jacobians of the assembled residual:

    M = dR/da,  D = dR/dv,  K = dR/dq (including d(C_q^T lambda)/dq and the loads' Jacobian)

The undamped eigenproblem K phi = omega^2 M phi is solved on the constrained motion, either

- on the null space N of C_q (C_q N = 0, from the SVD of C_q): (N^T K N) x = omega^2 (N^T M N) x, phi = N x,
  dense (``scipy.linalg.eigh``), or for a few modes of a large system sparse, by shift-invert Lanczos
  (``scipy.sparse.linalg.eigsh``) on the saddle-point pencil ([[K, C_q^T], [C_q, 0]], [[M, 0], [0, 0]]);
- with chosen coordinates held fixed (their rows and columns removed), constraints ignored;
- with the constraints ignored.

K and M are symmetrized; ``ModalResult.asymmetry`` reports the relative size of the skew part of K
that this drops (non-zero for follower loads or a non-equilibrium state). It is measured on the motions
the coordinates can make: Euler parameters do no work along theta (forces enter their rows as
P J^T F, P = I - theta theta^T / theta^T theta), so K is taken as P K P, which the constraint
theta^T theta = 1 leaves unchanged on the constrained motion.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import numpy as np
import scipy.linalg
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from floatframe.linalg import null_space, shift_below_spectrum
from floatframe.solvers.result import SolverError

CONSTRAINT_MODES = ("null_space", "ignore")


@dataclass
class LinearizedSystem:
    """Sparse M, D, K (n, n) and C_q (m, n) about one state."""

    mass: sp.csc_matrix
    damping: sp.csc_matrix
    stiffness: sp.csc_matrix
    constraint_jacobian: sp.csc_matrix
    q: np.ndarray  # the state's coordinates (change from reference)


@dataclass
class ModalResult:
    """Eigenvalues omega^2 [rad^2/s^2] in ascending order, (k,), and mode shapes phi as columns, (n, k),
    in the full coordinates; ``asymmetry`` = |K - K^T|_F / |K + K^T|_F of P K P before symmetrizing
    (P: the Euler-parameter projection, see the module docstring)."""

    eigenvalues: np.ndarray
    eigenvectors: np.ndarray
    asymmetry: float = 0.0

    @property
    def frequencies(self) -> np.ndarray:
        """Eigenfrequencies sqrt(|omega^2|) / (2 pi) [Hz]."""
        return np.sqrt(np.abs(self.eigenvalues)) / (2 * np.pi)


def linearize(system, t=0.0, q=None, v=None, lam=None, load_stiffness=True) -> LinearizedSystem:
    """M, D, K and C_q of ``system`` (an AssembledSystem) at (t, q, v, lambda), a = 0.

    Defaults: the initial state with lambda = 0. ``load_stiffness=False`` leaves the loads' Jacobian
    out of K (as Exudyn's eigenvalue computation does).
    """
    n, m = system.n_coordinates, system.n_multipliers
    q = system.q_initial if q is None else np.asarray(q, dtype=float)
    v = system.v_initial if v is None else np.asarray(v, dtype=float)
    lam = np.zeros(m) if lam is None else np.asarray(lam, dtype=float)
    a = np.zeros(n)
    mass = system.mass_matrix(t, q, v, a, lam)
    stiffness = system.newton_matrix(t, q, v, a, lam, 0.0, 0.0, 1.0)[:n, :n]
    damping = system.newton_matrix(t, q, v, a, lam, 0.0, 1.0, 0.0)[:n, :n]
    if not load_stiffness:
        jacobian = system.load_residual()(t, q, system.input_vector(float(t)),
                                                  system.parameter_vector() if system.parameters else np.zeros(0))[1]
        stiffness = stiffness - ca.DM(jacobian).sparse()
    return LinearizedSystem(sp.csc_matrix(mass), sp.csc_matrix(damping), sp.csc_matrix(stiffness),
                            system.constraint_jacobian(t, q), q)


def constraint_null_space(constraint_jacobian, tolerance=1e-12) -> np.ndarray:
    """Orthonormal basis N (n, n - r) of the null space of C_q (m, n); r counts the singular values
    above ``tolerance`` (absolute, as Exudyn)."""
    dense = constraint_jacobian.toarray() if sp.issparse(constraint_jacobian) else np.asarray(constraint_jacobian)
    return null_space(dense, tolerance)


def eigenmodes(system, t=0.0, q=None, v=None, lam=None, n_modes=0, constraints="null_space",
               constrained_coordinates=(), sparse=False, shift=None, tolerance=1e-12,
               load_stiffness=True) -> ModalResult:
    """Undamped eigenvalues omega^2 and mode shapes about a state (default: the initial state).

    Parameters
    ----------
    n_modes : number of lowest modes (0: all; required > 0 with ``sparse``).
    constraints : "null_space" (modes of the constrained system) or "ignore" (C_q left out).
    constrained_coordinates : coordinates held fixed (rows and columns removed); only with
        constraints="ignore" or a system without constraints.
    sparse : shift-invert Lanczos for the ``n_modes`` eigenvalues nearest ``shift`` (default: 1 % of
        the typical omega^2 below zero, so that rigid-body zeros do not make the shifted matrix singular).
    tolerance : singular values of C_q up to this count as zero (null-space dimension).
    load_stiffness : include the loads' Jacobian in K.
    """
    if constraints not in CONSTRAINT_MODES:
        raise ValueError(f"eigenmodes: constraints must be one of {CONSTRAINT_MODES}, got {constraints!r}")
    n = system.n_coordinates
    fixed = np.unique(np.asarray(constrained_coordinates, dtype=int))
    if fixed.size and (fixed.min() < 0 or fixed.max() >= n):
        raise ValueError(f"eigenmodes: constrained_coordinates must lie in 0..{n - 1}, got {fixed.tolist()}")
    use_constraints = constraints == "null_space" and system.n_multipliers > 0
    if fixed.size and use_constraints:
        raise ValueError("eigenmodes: constrained_coordinates replace the constraints; pass constraints='ignore' "
                         "or leave constrained_coordinates empty")
    if sparse and not 0 < n_modes < n - fixed.size:
        raise ValueError(f"eigenmodes: the sparse solver needs 0 < n_modes < {n - fixed.size}, got {n_modes}")
    linear = linearize(system, t, q, v, lam, load_stiffness)
    stiffness, mass = linear.stiffness, linear.mass
    projection = _rotation_projection(system, linear.q)
    asymmetry = _asymmetry(projection @ stiffness @ projection)
    stiffness, mass = (stiffness + stiffness.T) / 2, (mass + mass.T) / 2
    free = np.setdiff1d(np.arange(n), fixed)
    if fixed.size:
        stiffness, mass = stiffness[free][:, free], mass[free][:, free]
    if use_constraints:
        if sparse:
            values, vectors = _saddle_point_modes(stiffness, mass, linear.constraint_jacobian, n_modes, shift)
        else:
            basis = constraint_null_space(linear.constraint_jacobian, tolerance)
            values, reduced = _dense_modes(basis.T @ (stiffness @ basis), basis.T @ (mass @ basis), "N^T M N")
            vectors = basis @ reduced
    elif sparse:
        values, vectors = _shift_invert(stiffness, mass, n_modes, shift)
    else:
        values, vectors = _dense_modes(stiffness.toarray(), mass.toarray(), "M")
    order = np.argsort(values)
    values, vectors = values[order], vectors[:, order]
    if n_modes:
        values, vectors = values[:n_modes], vectors[:, :n_modes]
    if fixed.size:
        full = np.zeros((n, vectors.shape[1]))
        full[free] = vectors
        vectors = full
    return ModalResult(values, vectors, asymmetry)


def complex_eigenvalues(linear: LinearizedSystem, basis=None) -> tuple[np.ndarray, np.ndarray]:
    """Eigenvalues s of (s^2 M + s D + K) phi = 0 (unsorted) and their eigenvectors [phi; s phi] (2n, 2n).

    With a null-space ``basis`` N the matrices are first projected, N^T (.) N, and phi = N x.
    """
    mass, damping, stiffness = (x.toarray() for x in (linear.mass, linear.damping, linear.stiffness))
    if basis is not None:
        mass, damping, stiffness = (basis.T @ x @ basis for x in (mass, damping, stiffness))
    k = mass.shape[0]
    zero = np.zeros((k, k))
    # first-order form A x_t + B x = 0, x = [q; q_t]: [[0, M], [M, 0]] x_t + [[K, D], [0, -M]] x = 0
    a_matrix = np.block([[zero, mass], [mass, zero]])
    b_matrix = np.block([[stiffness, damping], [zero, -mass]])
    values, vectors = scipy.linalg.eig(-b_matrix, a_matrix)
    if basis is not None:
        vectors = np.block([[basis, np.zeros_like(basis)], [np.zeros_like(basis), basis]]) @ vectors
    return values, vectors


def _rotation_projection(system, q) -> sp.csc_matrix:
    """P (n, n): the identity with I - theta theta^T / theta^T theta on each Euler-parameter node's rows."""
    projection = sp.lil_matrix(sp.eye(system.n_coordinates))
    for rows in system.euler_parameter_rows:
        theta = system.q_reference[rows] + q[rows]
        projection[np.ix_(rows, rows)] = np.eye(4) - np.outer(theta, theta) / (theta @ theta)
    return projection.tocsc()


def _asymmetry(matrix) -> float:
    total = sp.linalg.norm(matrix + matrix.T) if matrix.nnz else 0.0
    return float(sp.linalg.norm(matrix - matrix.T) / total) if total > 0 else 0.0


def _dense_modes(stiffness, mass, what):
    stiffness = stiffness.toarray() if sp.issparse(stiffness) else stiffness
    mass = mass.toarray() if sp.issparse(mass) else mass
    try:
        return scipy.linalg.eigh(stiffness, mass)
    except np.linalg.LinAlgError:
        raise SolverError(f"eigenmodes: the mass matrix {what} on the constrained motion is not positive "
                          f"definite: some coordinates (or constrained directions) have no mass") from None


def _shift_invert(stiffness, mass, n_modes, shift):
    sigma = shift_below_spectrum(stiffness, mass) if shift is None else shift
    try:
        return spla.eigsh(sp.csc_matrix(stiffness), k=n_modes, M=sp.csc_matrix(mass), sigma=sigma, which="LM")
    except RuntimeError as exc:
        raise SolverError(f"eigenmodes: shift-invert at sigma = {sigma:.3g} failed ({exc}): K - sigma M is "
                          f"singular; give another shift") from None


def _saddle_point_modes(stiffness, mass, constraint_jacobian, n_modes, shift):
    """Lowest modes of the constrained system without a null-space basis.

    The pencil ([[K, C^T], [C, 0]], [[M, 0], [0, 0]]) has the constrained eigenvalues and infinite ones
    (the multipliers); shift-invert maps the infinite ones to zero, so Lanczos returns the finite ones
    nearest the shift. The q-part of each eigenvector satisfies C phi = 0.
    """
    n, m = stiffness.shape[0], constraint_jacobian.shape[0]
    sigma = shift_below_spectrum(stiffness, mass) if shift is None else shift
    a_matrix = sp.bmat([[stiffness, constraint_jacobian.T], [constraint_jacobian, None]], format="csc")
    b_matrix = sp.bmat([[mass, None], [None, sp.csc_matrix((m, m))]], format="csc")
    try:
        inverse = spla.splu(a_matrix - sigma * b_matrix)
    except RuntimeError as exc:
        raise SolverError(f"eigenmodes: [[K - sigma M, C_q^T], [C_q, 0]] at sigma = {sigma:.3g} is singular "
                          f"({exc}): redundant constraints, or give another shift") from None
    operator = spla.LinearOperator(a_matrix.shape, matvec=inverse.solve, dtype=float)
    values, vectors = spla.eigsh(a_matrix, k=n_modes, M=b_matrix, sigma=sigma, which="LM", OPinv=operator)
    vectors = vectors[:n]
    norms = np.sqrt(np.einsum("ij,ij->j", vectors, mass @ vectors))
    return values, vectors / norms
