"""Mode bases for reduced-order FFRF bodies: free-free eigenmodes without the rigid-body modes.

Conventions (docs/modes.md):

- the modes solve K psi = omega^2 M psi and are mass-normalised, Psi^T M Psi = I, so that
  Psi^T K Psi = diag(omega^2);
- the ``n_rigid_body_modes`` lowest eigenpairs are the rigid-body motions of a free mesh; they are
  removed after checking that their eigenvalues are zero to round-off (a mesh that is not free, or
  has more or fewer zero modes, is an error rather than a silently shifted basis);
- the basis is canonical, the same for the same matrices whatever the eigensolver's starting
  vector: within each cluster of equal eigenvalues (relative gap below ``CLUSTER_TOLERANCE``, as for
  the pairs of an axisymmetric rotor) the vectors are replaced by the M-orthonormalised projections
  of a fixed probe onto the cluster's eigenspace, which depend on the eigenspace only; a single
  vector's sign is chosen so that its M inner product with the probe's first column is positive.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from floatframe.components.base import ModelError
from floatframe.linalg import shift_below_spectrum, typical_eigenvalue
from floatframe.solvers.linear import sparse_lu

CLUSTER_TOLERANCE = 1e-6   # relative gap of omega^2 below which eigenvalues count as repeated
RIGID_TOLERANCE = 1e-9     # |omega^2| of a rigid-body mode, relative to the typical omega^2
DENSE_LIMIT = 1200         # "auto" uses the dense solver up to this many coordinates
EXTRA_MODES = 6            # computed beyond those asked for, so that the last cluster is complete


@dataclass(frozen=True)
class ModeBasis:
    """A mode basis Psi (n_f, n_modes) of body-fixed nodal displacements and its eigenvalues.

    ``eigenvalues`` are omega^2 [1/s^2] per column; ``kind`` says how the basis was made.
    """

    vectors: np.ndarray
    eigenvalues: np.ndarray
    kind: str = "eigenmodes"

    @property
    def n_modes(self) -> int:
        return self.vectors.shape[1]

    @property
    def frequencies_hz(self) -> np.ndarray:
        """Eigenfrequencies f = omega / (2 pi) [Hz]."""
        return np.sqrt(np.maximum(self.eigenvalues, 0.0)) / (2.0 * np.pi)


def eigenmodes(mass_matrix, stiffness_matrix, n_modes: int, n_rigid_body_modes: int = 6,
               solver: str = "auto", shift: float | None = None) -> ModeBasis:
    """The ``n_modes`` lowest elastic eigenmodes of a free (or partly free) FE mesh.

    Parameters
    ----------
    mass_matrix, stiffness_matrix : (n_f, n_f) symmetric, dense or scipy.sparse.
    n_modes : number of elastic modes returned.
    n_rigid_body_modes : number of zero-frequency modes removed (6 for a free 3D body); their
        eigenvalues must be zero to round-off, and no further zero must follow. With 0 nothing is
        removed: the lowest eigenpairs are returned, zero ones included.
    solver : "sparse" (shift-invert Lanczos, scipy.sparse.linalg.eigsh), "dense"
        (scipy.linalg.eigh) or "auto" (dense up to ``DENSE_LIMIT`` coordinates).
    shift : shift-invert point sigma [1/s^2] of the sparse solver; default below zero by 1 % of the
        typical omega^2, so that the rigid-body zeros stay regular.
    """
    mass, stiffness = _checked_pair(mass_matrix, stiffness_matrix)
    n = mass.shape[0]
    n_modes, n_rigid = int(n_modes), int(n_rigid_body_modes)
    if n_modes < 1 or n_rigid < 0:
        raise ModelError(f"eigenmodes: n_modes must be at least 1 and n_rigid_body_modes at least 0, "
                         f"got {n_modes} and {n_rigid}")
    if n_modes + n_rigid > n:
        raise ModelError(f"eigenmodes: {n_modes} modes and {n_rigid} rigid-body modes asked for, but the mesh "
                         f"has only {n} coordinates (at most {n - n_rigid} elastic modes)")
    if solver not in ("auto", "sparse", "dense"):
        raise ModelError(f"eigenmodes: solver must be 'auto', 'sparse' or 'dense', got {solver!r}")
    count = min(n_modes + n_rigid + EXTRA_MODES, n)
    use_dense = solver == "dense" or (solver == "auto" and n <= DENSE_LIMIT) or count >= n - 1
    if use_dense:
        values, vectors = scipy.linalg.eigh(stiffness.toarray(), mass.toarray())
        values, vectors = values[:count], vectors[:, :count]
    else:
        sigma = shift_below_spectrum(stiffness, mass) if shift is None else float(shift)
        try:
            shifted = sparse_lu(stiffness - sigma * mass)  # (K - sigma M)^-1 with a fill-reducing ordering
            inverse = spla.LinearOperator((n, n), matvec=shifted.solve, dtype=float)
            values, vectors = spla.eigsh(stiffness.tocsc(), k=count, M=mass.tocsc(), sigma=sigma, which="LM",
                                         v0=np.ones(n), OPinv=inverse)
        except RuntimeError as exc:
            raise ModelError(f"eigenmodes: shift-invert at sigma = {sigma:.3g} failed ({exc}); give another "
                             f"shift") from None
        order = np.argsort(values)
        values, vectors = values[order], vectors[:, order]
    _check_rigid_body_modes(values, n_rigid, typical_eigenvalue(stiffness, mass))
    values, vectors = values[n_rigid:], vectors[:, n_rigid:]
    vectors = vectors / np.sqrt(np.einsum("ij,ij->j", vectors, mass @ vectors))
    vectors = canonical_basis(vectors, values, mass)
    return ModeBasis(vectors[:, :n_modes], values[:n_modes], "eigenmodes")


def canonical_basis(vectors, eigenvalues, mass_matrix) -> np.ndarray:
    """The M-orthonormal basis (n_f, m) with one fixed choice of vectors in each repeated eigenspace.

    ``vectors`` are M-orthonormal eigenvectors sorted by ``eigenvalues``. Within a cluster X of equal
    eigenvalues the probe columns P (fixed, pseudo-random with seed 0) are projected onto span(X) in
    the M inner product, Y = X X^T M P, and orthonormalised in order (Cholesky of Y^T M Y): Y and so the
    result depend on span(X), not on the vectors the solver happened to return; the k-th vector of a
    cluster has a positive M inner product with the k-th probe column (the diagonal of L). A single
    vector's sign makes its M inner product with the first probe column positive (the largest entry
    would not do: symmetric meshes have modes with equal entries of both signs).
    """
    vectors = np.array(vectors, dtype=float)
    mass = sp.csr_matrix(mass_matrix)
    probe = np.random.default_rng(0).standard_normal((vectors.shape[1], vectors.shape[0])).T  # column j fixed for every m
    for cluster in _clusters(np.asarray(eigenvalues, dtype=float)):
        block = vectors[:, cluster]
        if cluster.size == 1:  # sign: positive M inner product with the first probe column
            vectors[:, cluster] = block * (-1.0 if float(block[:, 0] @ (mass @ probe[:, 0])) < 0 else 1.0)
            continue
        projected = block @ (block.T @ (mass @ probe[:, :cluster.size]))
        factor = np.linalg.cholesky(projected.T @ (mass @ projected))   # Y^T M Y = L L^T
        vectors[:, cluster] = scipy.linalg.solve_triangular(factor, projected.T, lower=True).T  # Y L^-T
    return vectors


def _clusters(eigenvalues):
    """Index arrays of consecutive (sorted) eigenvalues whose relative gap is below CLUSTER_TOLERANCE."""
    scale = max(np.abs(eigenvalues).max(initial=0.0), 1e-300)
    breaks = np.flatnonzero(np.diff(eigenvalues) > CLUSTER_TOLERANCE * scale) + 1
    return np.split(np.arange(eigenvalues.size), breaks)


def _check_rigid_body_modes(values, n_rigid, typical):
    """``n_rigid`` of the computed eigenvalues, and no more where n_rigid > 0, are zero to round-off
    (RIGID_TOLERANCE of the typical omega^2)."""
    zero = np.abs(values) <= RIGID_TOLERANCE * typical
    n_zero = int(np.sum(zero))
    if n_zero < n_rigid:
        raise ModelError(f"eigenmodes: the {n_rigid} lowest eigenvalues {np.array2string(values[:n_rigid], precision=4)} "
                         f"are not zero to round-off ({RIGID_TOLERANCE:g} of the typical omega^2 {typical:.4g}): the "
                         f"mesh does not have {n_rigid} rigid-body modes; pass n_rigid_body_modes to match it")
    if n_rigid and n_zero > n_rigid:
        raise ModelError(f"eigenmodes: the mesh has {n_zero if n_zero < values.size else 'at least %d' % n_zero} "
                         f"zero-frequency modes, more than {n_rigid} (a mechanism, disconnected parts or too few "
                         f"supports); pass n_rigid_body_modes to match it")


def _checked_pair(mass_matrix, stiffness_matrix):
    matrices = []
    for what, value in (("mass matrix", mass_matrix), ("stiffness matrix", stiffness_matrix)):
        matrix = sp.csr_matrix(value, dtype=float)
        if matrix.shape[0] != matrix.shape[1]:
            raise ModelError(f"eigenmodes: the {what} must be square, got shape {matrix.shape}")
        if not np.all(np.isfinite(matrix.data)):
            raise ModelError(f"eigenmodes: the {what} contains NaN or inf")
        matrices.append(matrix)
    if matrices[0].shape != matrices[1].shape:
        raise ModelError(f"eigenmodes: mass matrix {matrices[0].shape} and stiffness matrix {matrices[1].shape} "
                         f"differ in shape")
    return matrices
