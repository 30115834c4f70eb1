"""Mode bases for reduced-order FFRF bodies: free-free eigenmodes without the rigid-body modes, and
Hurty-Craig-Bampton bases (static interface modes plus fixed-interface eigenmodes).

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

from floatframe.errors import ModelError
from floatframe.linalg import positive_definite_solve, shift_below_spectrum, sparse_lu, typical_eigenvalue

CLUSTER_TOLERANCE = 1e-6   # relative gap of omega^2 below which eigenvalues count as repeated
RIGID_TOLERANCE = 1e-9     # |omega^2| of a rigid-body mode, relative to the typical omega^2
DENSE_LIMIT = 1200         # "auto" uses the dense solver up to this many coordinates
EXTRA_MODES = 6            # computed beyond those asked for, so that the last cluster is complete


class RigidBodyModeCountError(ModelError):
    """The mesh's zero-frequency modes are not the ``n_rigid_body_modes`` asked to be removed."""


@dataclass(frozen=True)
class ModeBasis:
    """A mode basis Psi (n_f, n_modes) of body-fixed nodal displacements and its eigenvalues.

    ``eigenvalues`` are omega^2 [1/s^2] per column (for a static Craig-Bampton column its Rayleigh
    quotient psi^T K psi / psi^T M psi); ``kind`` says how the basis was made ("eigenmodes",
    "craig-bampton RBE2", "craig-bampton RBE3", "craig-bampton coordinates", "craig-bampton none"); the
    first ``n_static`` columns are static modes.
    """

    vectors: np.ndarray
    eigenvalues: np.ndarray
    kind: str = "eigenmodes"
    n_static: int = 0

    @property
    def n_modes(self) -> int:
        return self.vectors.shape[1]

    @property
    def frequencies_hz(self) -> np.ndarray:
        """Eigenfrequencies f = omega / (2 pi) [Hz]."""
        return np.sqrt(np.maximum(self.eigenvalues, 0.0)) / (2.0 * np.pi)


def tisserand_basis(modes: ModeBasis, mass_matrix, stiffness_matrix, node_positions) -> ModeBasis:
    """The basis with its rigid-body content removed in the M inner product: Psi - R (R^T M R)^-1 R^T M Psi.

    R (n_f, 6) are the rigid-body modes of the mesh. The new columns satisfy the Tisserand conditions
    Phi_t^T M psi = 0 and x_ref~^T M psi = 0, and with the rigid motions of the frame they span the same
    space as before; K psi is unchanged (K R = 0). A body on a Craig-Bampton basis needs this where its frame
    floats (e.g. a rotor on spring supports): the static modes carry rigid-body content, which leaves the
    frame's motion nearly undetermined (an ill-conditioned mass matrix) and lets the modal coordinates take
    over large rigid motions that their linear kinematics cannot describe (docs/reduced_order.md).
    Eigenmodes satisfy the conditions already. ``kind`` gets " (Tisserand)"; ``eigenvalues`` are the Rayleigh
    quotients psi^T K psi / psi^T M psi of the new columns.
    """
    from floatframe.fem.matrices import rigid_body_modes

    mass, stiffness = sp.csr_matrix(mass_matrix), sp.csr_matrix(stiffness_matrix)
    rigid = rigid_body_modes(node_positions)
    if rigid.shape[0] != modes.vectors.shape[0]:
        raise ModelError(f"tisserand_basis: {rigid.shape[0] // 3} node positions for a basis of "
                         f"{modes.vectors.shape[0]} rows")
    mass_rigid = np.asarray(mass @ rigid)
    vectors = modes.vectors - rigid @ np.linalg.solve(rigid.T @ mass_rigid, mass_rigid.T @ modes.vectors)
    quotients = (np.einsum("ij,ij->j", vectors, np.asarray(stiffness @ vectors))
                 / np.einsum("ij,ij->j", vectors, np.asarray(mass @ vectors)))
    return ModeBasis(vectors, quotients, f"{modes.kind} (Tisserand)", modes.n_static)


def eigenmodes(mass_matrix, stiffness_matrix, n_modes: int, n_rigid_body_modes: int = 6,
               solver: str = "auto", shift: float | None = None, node_positions=None) -> ModeBasis:
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
    node_positions : (n_f / 3, 3) [m], optional, for the sparse solver of a free body (6 rigid-body modes):
        the rigid-body modes are then built from the positions, checked (K R = 0) and deflated, so that
        Lanczos works on the elastic modes only. Without it they are computed with the others; Lanczos
        sees one vector of an exactly repeated eigenvalue at a time and can miss one of the six zeros
        on large meshes (an error then says so).
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
    sparse = solver == "sparse" or (solver == "auto" and n > DENSE_LIMIT)
    if node_positions is not None and n_rigid == 6 and sparse:
        rigid = _checked_rigid_body_modes(stiffness, node_positions)
        count = min(n_modes + EXTRA_MODES, n - n_rigid)
        values, vectors = _lowest_eigenpairs(mass, stiffness, count, solver, shift, deflation=rigid)
        if values[0] <= RIGID_TOLERANCE * typical_eigenvalue(stiffness, mass):
            raise RigidBodyModeCountError(f"eigenmodes: besides the 6 rigid-body modes the mesh has a zero-frequency mode "
                             f"(eigenvalue {values[0]:.3e}): a mechanism or disconnected parts")
    else:
        count = min(n_modes + n_rigid + EXTRA_MODES, n)
        values, vectors = _lowest_eigenpairs(mass, stiffness, count, solver, shift)
        _check_rigid_body_modes(values, n_rigid, typical_eigenvalue(stiffness, mass))
        values, vectors = values[n_rigid:], vectors[:, n_rigid:]
    vectors = vectors / np.sqrt(np.einsum("ij,ij->j", vectors, mass @ vectors))
    vectors = canonical_basis(vectors, values, mass)
    return ModeBasis(vectors[:, :n_modes], values[:n_modes], "eigenmodes")


def _checked_rigid_body_modes(stiffness, node_positions) -> np.ndarray:
    """The 6 rigid-body modes R (n_f, 6) of the node positions, after checking K R = 0 (a free mesh)."""
    from floatframe.fem.matrices import rigid_body_modes

    positions = np.asarray(node_positions, dtype=float)
    if positions.ndim != 2 or positions.shape[1] != 3 or 3 * positions.shape[0] != stiffness.shape[0]:
        raise ModelError(f"eigenmodes: node_positions must have shape ({stiffness.shape[0] // 3}, 3), got "
                         f"{positions.shape}")
    rigid = rigid_body_modes(positions)
    forces = np.abs(stiffness @ rigid).max(axis=0)
    scale = (abs(stiffness) @ np.abs(rigid)).max(axis=0)      # the size of the terms of K R
    if np.any(forces > 1e-9 * scale):
        worst = int(np.argmax(forces / scale))
        raise RigidBodyModeCountError(f"eigenmodes: the mesh is not free: K R != 0 for rigid-body mode {worst} "
                         f"(relative {forces[worst] / scale[worst]:.2e}); pass n_rigid_body_modes for a "
                         f"supported mesh")
    return rigid


def _lowest_eigenpairs(mass, stiffness, count, solver, shift, shifted_solve=None, deflation=None):
    """The ``count`` lowest eigenpairs of K x = omega^2 M x, sorted, not normalised: dense (eigh) or
    sparse shift-invert at ``shift`` (default: shift_below_spectrum); ``shifted_solve`` may hand over
    b -> (K - shift M)^-1 b from an existing factorization. The Lanczos start vector is a fixed
    pseudo-random one: a vector of ones is M-orthogonal to rigid rotations of symmetric meshes (a block
    with equal y and z extents), which Lanczos then finds only through round-off, or misses.
    ``deflation`` (n, r): a basis of zero modes (K R = 0) kept out of the Krylov space by the M-orthogonal
    projector P = I - R (R^T M R)^-1 R^T M on the start vector and after each solve (sparse path only)."""
    n = mass.shape[0]
    use_dense = solver == "dense" or (solver == "auto" and n <= DENSE_LIMIT) or count >= n - 1
    if use_dense:
        values, vectors = scipy.linalg.eigh(stiffness.toarray(), mass.toarray())
        return values[:count], vectors[:, :count]
    sigma = shift_below_spectrum(stiffness, mass) if shift is None else float(shift)
    try:
        if shifted_solve is not None:
            solve = shifted_solve
        elif sigma < 0:
            solve = positive_definite_solve(stiffness - sigma * mass)   # (K - sigma M)^-1, K + |sigma| M is SPD
        else:
            solve = sparse_lu(stiffness - sigma * mass).solve
        start = np.random.default_rng(0).standard_normal(n)
        if deflation is not None:
            mass_rigid = np.asarray(mass @ deflation)
            gram = np.linalg.inv(deflation.T @ mass_rigid)

            def project(x):
                return x - deflation @ (gram @ (mass_rigid.T @ x))

            solve_shifted, start = solve, project(start)

            def solve(b):
                return project(solve_shifted(b))
        inverse = spla.LinearOperator((n, n), matvec=solve, dtype=float)
        values, vectors = spla.eigsh(stiffness.tocsc(), k=count, M=mass.tocsc(), sigma=sigma, which="LM",
                                     v0=start, OPinv=inverse)
    except RuntimeError as exc:
        raise ModelError(f"eigenmodes: shift-invert at sigma = {sigma:.3g} failed ({exc}); give another "
                         f"shift") from None
    order = np.argsort(values)
    return values[order], vectors[:, order]


def craig_bampton_modes(mass_matrix, stiffness_matrix, node_positions, boundary_node_sets, n_eigenmodes: int,
                        variant: str = "RBE2", solver: str = "auto", boundary_weights=None,
                        exclude_rigid_body_motion: bool = True) -> ModeBasis:
    """Hurty-Craig-Bampton basis: static interface modes, then fixed-interface eigenmodes.

    Each boundary node set is an interface with the 6 motions of a rigid body (3 translations, then 3
    rotations about its weighted midpoint p0 = sum w_j x_j). The columns are those of Exudyn's
    FEMinterface.ComputeHurtyCraigBamptonModes:

    - "RBE2": the set's nodes move rigidly, u_j = u_0 + (x_j - p0) x theta (unit u_0 or theta), every
      other boundary node is held, and the interior follows statically, u_i = -K_ii^-1 K_ib u_b; the
      fixed-interface eigenmodes solve K_ii psi_i = omega^2 M_ii psi_i with all boundary nodes held.
    - "RBE3": the set's weighted mean motion is prescribed, C_k u = block_diag(I, W_k) with the rows
      C_k = [sum_j w_j I u_j; sum_j w_j (x_j - p0) x u_j] and W_k = -sum_j w_j skew(x_j - p0)^2, the other
      sets' mean motions vanish, and u is the minimum-energy solution (the saddle-point system
      [[K, C^T], [C, 0]]); each 6-column block is divided by its largest entry. The eigenmodes solve
      K psi = omega^2 M psi on the subspace C psi = 0 of all sets.
    - "coordinates": the original Craig-Bampton form, one static column per boundary coordinate (a unit
      displacement of that coordinate, the other boundary coordinates held, the interior following
      statically), with the eigenmodes of "RBE2". The columns span the rigid-body motions of the mesh,
      so ``exclude_rigid_body_motion`` does not apply; a reduced body on this basis needs constraints
      on its modal coordinates (Exudyn's allBoundaryNodes).
    - "none": the fixed-interface eigenmodes of "RBE2" only, no static columns (Exudyn's noStaticModes).

    Parameters
    ----------
    mass_matrix, stiffness_matrix : (n_f, n_f) of the free mesh, dense or scipy.sparse.
    node_positions : (n_f / 3, 3) reference node positions [m].
    boundary_node_sets : list of lists of 0-based node numbers, disjoint, each with at least 3
        non-collinear nodes.
    n_eigenmodes : number of fixed-interface eigenmodes after the static columns (0 allowed).
    variant : "RBE2", "RBE3", "coordinates" or "none".
    solver : eigensolver of the fixed-interface problem, as for :func:`eigenmodes`.
    boundary_weights : list of weight arrays per set (default 1 / n_nodes of the set each).
    exclude_rigid_body_motion : drop the first set's 6 static columns (they would carry the whole body's
        rigid-body motion, which the reference frame describes).

    Returns
    -------
    ModeBasis with ``n_static`` leading static columns: 6 (number of sets - 1 if excluded) for RBE2 and
    RBE3, 3 per boundary node for "coordinates", 0 for "none".
    """
    what = "craig_bampton_modes"
    mass, stiffness = _checked_pair(mass_matrix, stiffness_matrix, what)
    n = mass.shape[0]
    if variant not in VARIANTS:
        raise ModelError(f"{what}: variant must be one of {', '.join(map(repr, VARIANTS))}, got {variant!r}")
    if solver not in ("auto", "sparse", "dense"):
        raise ModelError(f"{what}: solver must be 'auto', 'sparse' or 'dense', got {solver!r}")
    if not isinstance(n_eigenmodes, (int, np.integer)) or isinstance(n_eigenmodes, bool) or n_eigenmodes < 0:
        raise ModelError(f"{what}: n_eigenmodes must be an integer of at least 0, got {n_eigenmodes!r}")
    n_eigenmodes = int(n_eigenmodes)
    positions = np.asarray(node_positions, dtype=float)
    if positions.ndim != 2 or positions.shape[1] != 3 or 3 * positions.shape[0] != n:
        raise ModelError(f"{what}: node_positions must have shape ({n // 3}, 3) for {n} coordinates, "
                         f"got {positions.shape}")
    interfaces = _interfaces(positions, boundary_node_sets, boundary_weights, what)
    static_sets = interfaces[1:] if exclude_rigid_body_motion else interfaces
    boundary = np.concatenate([interface.coordinates for interface in interfaces])
    interior = np.setdiff1d(np.arange(n), boundary)
    if interior.size == 0:
        raise ModelError(f"{what}: every node is in a boundary node set; the mesh needs interior nodes")
    if variant == "RBE3":
        static, held_solve = _rbe3_static_modes(stiffness, interfaces, static_sets, n, what)
        held_space = _rbe3_constrained_space(interfaces, interior, n, what)        # C u = 0
    else:
        boundary_motion = _held_boundary_motion(variant, static_sets, boundary, n)
        if boundary_motion.shape[1] + n_eigenmodes == 0:
            raise ModelError(f"{what}: the basis would be empty (n_eigenmodes = 0 and no static columns with "
                             f"variant {variant!r}" + (", one boundary set excluded as rigid-body motion)"
                                                       if variant == "RBE2" else ")"))
        static, held_solve = _held_boundary_static_modes(stiffness, boundary_motion, interior, n)
        held_space = sp.identity(n, format="csc")[:, interior]                     # u_b = 0
    values, vectors = _fixed_interface_modes(mass, stiffness, held_space, held_solve, n_eigenmodes, solver, what,
                                             positions)
    rayleigh = (np.einsum("ij,ij->j", static, stiffness @ static)
                / np.einsum("ij,ij->j", static, mass @ static))          # psi^T K psi / psi^T M psi
    return ModeBasis(np.hstack([static, vectors]), np.concatenate([rayleigh, values]),
                     f"craig-bampton {variant}", n_static=static.shape[1])


VARIANTS = ("RBE2", "RBE3", "coordinates", "none")


@dataclass(frozen=True)
class _Interface:
    """One boundary node set: its node numbers, their coordinates 3 j + (0, 1, 2), weights w_j and
    offsets x_j - p0 from the weighted midpoint p0."""

    nodes: np.ndarray
    coordinates: np.ndarray
    weights: np.ndarray
    offsets: np.ndarray

    @property
    def rigid_motion(self) -> np.ndarray:
        """T (3 n_nodes, 6): node j moves by [I, skew(x_j - p0)] (u_0, theta), Exudyn's column order."""
        identity = np.broadcast_to(np.eye(3), (self.nodes.size, 3, 3))
        return np.concatenate([identity, _skew_stack(self.offsets)], axis=2).reshape(-1, 6)

    @property
    def mean_motion_rows(self) -> np.ndarray:
        """C_k (6, 3 n_nodes): node j contributes w_j [I; skew(x_j - p0)]."""
        identity = np.broadcast_to(np.eye(3), (self.nodes.size, 3, 3))
        blocks = np.concatenate([identity, _skew_stack(self.offsets)], axis=1) * self.weights[:, None, None]
        return blocks.transpose(1, 0, 2).reshape(6, -1)

    @property
    def prescribed_mean_motion(self) -> np.ndarray:
        """block_diag(I, W) with W = -sum_j w_j skew(x_j - p0)^2 (the weighted second moment)."""
        skews = _skew_stack(self.offsets)
        second_moment = -np.einsum("j,jab,jbc->ac", self.weights, skews, skews)
        return scipy.linalg.block_diag(np.eye(3), second_moment)


def _skew_stack(vectors):
    """skew(a) (k, 3, 3) for rows a of ``vectors`` (k, 3): skew(a) @ b = a x b."""
    x, y, z = vectors.T
    zero = np.zeros_like(x)
    return np.stack([np.stack([zero, -z, y], -1), np.stack([z, zero, -x], -1), np.stack([-y, x, zero], -1)], 1)


def _interfaces(positions, boundary_node_sets, boundary_weights, what):
    """The checked boundary node sets as _Interface objects."""
    sets = list(boundary_node_sets) if boundary_node_sets is not None else []
    if not sets:
        raise ModelError(f"{what}: boundary_node_sets is empty; give at least one node set")
    if boundary_weights is not None and len(boundary_weights) != len(sets):
        raise ModelError(f"{what}: {len(boundary_weights)} weight arrays for {len(sets)} boundary node sets")
    n_nodes, owner, interfaces = positions.shape[0], {}, []
    for k, node_set in enumerate(sets):
        nodes = np.asarray(node_set).reshape(-1)
        if nodes.size == 0:
            raise ModelError(f"{what}: boundary node set {k} is empty")
        if nodes.dtype.kind not in "iu":
            as_float = np.asarray(nodes, dtype=float) if nodes.dtype.kind == "f" else None
            if as_float is None or not np.all(as_float == np.round(as_float)):
                raise ModelError(f"{what}: boundary node set {k} has entries that are not integer node numbers: "
                                 f"{nodes[:5].tolist()}")
            nodes = as_float.astype(np.int64)
        outside = nodes[(nodes < 0) | (nodes >= n_nodes)]
        if outside.size:
            raise ModelError(f"{what}: boundary node set {k} has node numbers outside 0..{n_nodes - 1}: "
                             f"{outside[:5].tolist()}")
        for node in nodes.tolist():
            if node in owner:
                place = "twice in set %d" % k if owner[node] == k else f"in sets {owner[node]} and {k}"
                raise ModelError(f"{what}: node {node} is {place}; boundary node sets must be disjoint")
            owner[node] = k
        if boundary_weights is None:
            weights = np.full(nodes.size, 1.0 / nodes.size)
        else:
            weights = np.asarray(boundary_weights[k], dtype=float).reshape(-1)
            if weights.size != nodes.size or not np.all(np.isfinite(weights)):
                raise ModelError(f"{what}: boundary weights of set {k} must be {nodes.size} finite numbers, "
                                 f"got {weights.size}")
        midpoint = weights @ positions[nodes]                                 # p0 = sum w_j x_j
        offsets = positions[nodes] - midpoint
        spread = np.linalg.svd(positions[nodes] - positions[nodes].mean(axis=0), compute_uv=False)
        if nodes.size < 3 or spread[1] <= 1e-9 * max(spread[0], 1e-300):
            raise ModelError(f"{what}: boundary node set {k} needs at least 3 non-collinear nodes for its 6 "
                             f"interface motions, got {nodes.size} node(s)"
                             + (" on one line" if nodes.size >= 3 else ""))
        coordinates = (3 * nodes[:, None] + np.arange(3)).reshape(-1)
        interfaces.append(_Interface(nodes, coordinates, weights, offsets))
    return interfaces


def _held_boundary_motion(variant, static_sets, boundary, n):
    """The boundary rows of the static columns (n_f, n_static), zero in the interior: "RBE2" set k rigid
    (T_k) with the other boundary nodes held; "coordinates" a unit displacement of one boundary
    coordinate each; "none" no columns."""
    if variant == "none":
        return np.zeros((n, 0))
    if variant == "coordinates":
        motion = np.zeros((n, boundary.size))
        motion[boundary, np.arange(boundary.size)] = 1.0
        return motion
    motion = np.zeros((n, 6 * len(static_sets)))
    for k, interface in enumerate(static_sets):
        motion[interface.coordinates, 6 * k:6 * k + 6] = interface.rigid_motion
    return motion


def _held_boundary_static_modes(stiffness, static, interior, n):
    """The static columns with their boundary rows given (``static``, filled in place): the interior
    follows, u_i = -K_ii^-1 K_ib u_b; and the held mesh's solve b -> u (u_i = K_ii^-1 b_i, u_b = 0) on
    the same factorization."""
    try:
        stiffness_interior_lu = sparse_lu(stiffness[interior][:, interior])
    except RuntimeError:
        raise ModelError("craig_bampton_modes: K_ii with all boundary nodes held is singular; the boundary "
                         "node sets do not hold the mesh (a part of it is free)") from None
    if static.shape[1]:
        static[interior] = stiffness_interior_lu.solve(-(stiffness[interior] @ static))

    def held_solve(load):
        displacement = np.zeros(n)
        displacement[interior] = stiffness_interior_lu.solve(load[interior])
        return displacement
    return static, held_solve


def _rbe3_static_modes(stiffness, interfaces, static_sets, n, what):
    """Minimum-energy displacements with the mean motions C u = f prescribed: [[K, C^T], [C, 0]] [u; lambda]
    = [0; f], f = block_diag(I, W) for the set, 0 for the others; each 6-column block / its largest entry.
    Also the held mesh's solve b -> u ([[K, C^T], [C, 0]] [u; lambda] = [b; 0]) on the same factorization."""
    constraint = _mean_motion_matrix(interfaces, n)
    n_rows = constraint.shape[0]
    scale = np.abs(stiffness.diagonal()).mean() / np.abs(constraint.data).max()   # rows s C, same u, better pivots
    saddle_point = sp.bmat([[stiffness, scale * constraint.T], [scale * constraint, None]], format="csc")
    right = np.zeros((n + n_rows, 6 * len(static_sets)))
    first = len(interfaces) - len(static_sets)                      # 1 where the first set is excluded
    for k, interface in enumerate(static_sets):
        row = n + 6 * (first + k)
        right[row:row + 6, 6 * k:6 * k + 6] = scale * interface.prescribed_mean_motion
    try:
        saddle_point_lu = sparse_lu(saddle_point)
    except RuntimeError:
        raise ModelError(f"{what}: the RBE3 saddle-point system is singular; the boundary node sets do not "
                         f"hold the rigid-body motion of the mesh") from None
    static = saddle_point_lu.solve(right)[:n] if right.shape[1] else np.zeros((n, 0))
    for k in range(len(static_sets)):
        block = static[:, 6 * k:6 * k + 6]
        largest = block.max()
        static[:, 6 * k:6 * k + 6] = block / (largest if largest != 0 else 1.0)

    def held_solve(load):
        return saddle_point_lu.solve(np.concatenate([load, np.zeros(n_rows)]))[:n]
    return static, held_solve


def _mean_motion_matrix(interfaces, n):
    """C (6 n_sets, n_f), sparse: the rows C_k of every set."""
    rows, columns, values = [], [], []
    for k, interface in enumerate(interfaces):
        local = interface.mean_motion_rows
        r, c = np.nonzero(local)
        rows.append(6 * k + r), columns.append(interface.coordinates[c]), values.append(local[r, c])
    return sp.csr_matrix((np.concatenate(values), (np.concatenate(rows), np.concatenate(columns))),
                         shape=(6 * len(interfaces), n))


def _rbe3_constrained_space(interfaces, interior, n, what):
    """P (n_f, n_f - 6 n_sets), sparse, with C P = 0: interior coordinates free; in each set, 6 dependent
    coordinates (the pivots of a QR with column pivoting of C_k = [A B]) follow from the others,
    u_dependent = -A^-1 B u_free, so that P has one dense row per dependent coordinate only."""
    rows, columns, values, column = [], [], [], 0
    for k, interface in enumerate(interfaces):
        local = interface.mean_motion_rows
        _, triangle, pivots = scipy.linalg.qr(local, mode="economic", pivoting=True)
        if abs(triangle[5, 5]) <= 1e-10 * abs(triangle[0, 0]):
            raise ModelError(f"{what}: the mean-motion rows of boundary node set {k} are rank deficient")
        dependent, free = pivots[:6], np.sort(pivots[6:])
        elimination = -np.linalg.solve(local[:, dependent], local[:, free])        # -A^-1 B, (6, m)
        new_columns = column + np.arange(free.size)
        rows += [interface.coordinates[free], np.repeat(interface.coordinates[dependent], free.size)]
        columns += [new_columns, np.tile(new_columns, 6)]
        values += [np.ones(free.size), elimination.reshape(-1)]
        column += free.size
    rows.append(interior), columns.append(column + np.arange(interior.size)), values.append(np.ones(interior.size))
    return sp.csc_matrix((np.concatenate(values), (np.concatenate(rows), np.concatenate(columns))),
                         shape=(n, column + interior.size))


def _fixed_interface_modes(mass, stiffness, space, held_solve, count, solver, what, positions):
    """The ``count`` lowest modes of K, M on the held subspace u = P y (P: ``space``), mass-normalised and
    canonical in the full coordinates; the interfaces must hold the mesh, which is checked also for ``count`` = 0,
    where the static columns alone would not show it: a lowest eigenvalue below RIGID_TOLERANCE of the typical
    omega^2 is refused only where its mode is a rigid motion of the parts it moves (:func:`_moves_parts_rigidly`).
    A slender body's physical lowest mode (a 500:1 cantilever's omega^2 is 2e-12 of the typical one) bends.

    Dense: eigh of P^T K P, P^T M P. Sparse: shift-invert at zero in the full coordinates with
    ``held_solve`` as the operator G = P (P^T K P)^-1 P^T; G M has the held modes as its eigenvectors
    with 1 / omega^2, and zeros off the subspace, which Lanczos (largest first) leaves alone.
    """
    n, n_free = mass.shape[0], space.shape[1]
    if count > n_free:
        raise ModelError(f"{what}: {count} fixed-interface eigenmodes asked for, but only {n_free} "
                         f"coordinates remain with the interfaces held")
    computed = min(count + EXTRA_MODES, n_free)       # also for count = 0: the lowest one checks the interfaces
    if solver == "dense" or (solver == "auto" and n_free <= DENSE_LIMIT) or computed >= n_free - 1:
        values, reduced = _lowest_eigenpairs((space.T @ mass @ space).tocsr(), (space.T @ stiffness @ space).tocsr(),
                                             computed, "dense", None)
        vectors = np.asarray(space @ reduced)
    else:
        values, vectors = _lowest_eigenpairs(mass, stiffness, computed, "sparse", 0.0, held_solve)
    if (values[0] <= RIGID_TOLERANCE * typical_eigenvalue(stiffness, mass)
            and _moves_parts_rigidly(vectors[:, 0], stiffness, positions)):
        raise ModelError(f"{what}: the lowest fixed-interface eigenvalue {values[0]:.4g} is zero to round-off and "
                         f"its mode moves a part of the mesh rigidly; the boundary node sets do not hold the mesh "
                         f"(a part of it is free)")
    vectors = vectors / np.sqrt(np.einsum("ij,ij->j", vectors, mass @ vectors))
    return values[:count], canonical_basis(vectors, values, mass)[:, :count]


RIGID_FIT_TOLERANCE = 1e-6   # relative residual of a rigid-motion fit below which a mode moves its part rigidly


def _moves_parts_rigidly(vector, stiffness, positions) -> bool:
    """Whether the mode ``vector`` (n_f,) is a rigid motion on each part it moves: the nodes that move (beyond
    1e-8 of the largest nodal displacement) split into the connected parts of K's node graph, and on each the
    least-squares rigid motion u = u_0 + theta x x_j leaves less than RIGID_FIT_TOLERANCE of the displacement.

    Scale-free, unlike the eigenvalue: a free part (disconnected, or hinged at nodes that stay put) moves
    rigidly, a physical mode of a slender body bends, however small its omega^2."""
    from scipy.sparse.csgraph import connected_components

    from floatframe.fem.matrices import rigid_body_modes

    nodal = np.asarray(vector, dtype=float).reshape(-1, 3)
    size = np.linalg.norm(nodal, axis=1)
    moving = np.flatnonzero(size > 1e-8 * size.max())
    graph = abs(sp.csr_matrix(stiffness))
    node_graph = sp.csr_matrix((graph.data, (graph.indices // 3, np.repeat(np.arange(graph.shape[0]) // 3,
                                                                             np.diff(graph.indptr)))),
                               shape=(nodal.shape[0], nodal.shape[0]))[moving][:, moving]
    _, labels = connected_components(node_graph, directed=False)
    for part in np.unique(labels):
        nodes = moving[labels == part]
        rigid = rigid_body_modes(positions[nodes] - positions[nodes].mean(axis=0))     # (3 n, 6)
        motion = nodal[nodes].reshape(-1)
        residual = motion - rigid @ np.linalg.lstsq(rigid, motion, rcond=None)[0]
        if np.linalg.norm(residual) > RIGID_FIT_TOLERANCE * np.linalg.norm(motion):
            return False
    return True


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
        raise RigidBodyModeCountError(f"eigenmodes: the {n_rigid} lowest eigenvalues {np.array2string(values[:n_rigid], precision=4)} "
                         f"are not zero to round-off ({RIGID_TOLERANCE:g} of the typical omega^2 {typical:.4g}): the "
                         f"mesh does not have {n_rigid} rigid-body modes; pass n_rigid_body_modes to match it")
    if n_rigid and n_zero > n_rigid:
        raise RigidBodyModeCountError(f"eigenmodes: the mesh has {n_zero if n_zero < values.size else 'at least %d' % n_zero} "
                         f"zero-frequency modes, more than {n_rigid} (a mechanism, disconnected parts or too few "
                         f"supports); pass n_rigid_body_modes to match it")


def _checked_pair(mass_matrix, stiffness_matrix, what_function="eigenmodes"):
    matrices = []
    for what, value in (("mass matrix", mass_matrix), ("stiffness matrix", stiffness_matrix)):
        matrix = sp.csr_matrix(value, dtype=float)
        if matrix.shape[0] != matrix.shape[1]:
            raise ModelError(f"{what_function}: the {what} must be square, got shape {matrix.shape}")
        if not np.all(np.isfinite(matrix.data)):
            raise ModelError(f"{what_function}: the {what} contains NaN or inf")
        matrices.append(matrix)
    if matrices[0].shape != matrices[1].shape:
        raise ModelError(f"{what_function}: mass matrix {matrices[0].shape} and stiffness matrix {matrices[1].shape} "
                         f"differ in shape")
    return matrices
