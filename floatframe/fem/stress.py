"""Linear-elastic strain and stress recovery at the mesh nodes, for full and reduced (modal) bodies.

Recovery: in every element the small strain eps = sym(grad u) is evaluated at the element's own nodes
(shape-function gradients of the isoparametric element at the node's reference coordinates), and each
mesh node takes the plain average over the elements that contain it. For Tet4 this is Exudyn's
``FEMinterface.ComputePostProcessingModes`` (constant strain per element, averaged by element count);
the same rule serves Tet10, Hex8 and Hex20. Strain is linear in the displacements, so recovery is one
sparse matrix B_n (6 N, 3 N) (:func:`strain_recovery_matrix`) and stress is D B_n u.

Components are in Voigt order (xx, yy, zz, yz, xz, xy), Exudyn's order, with engineering shear strains
(gamma_yz = 2 eps_yz, ...). Displacements are body-fixed (the deformation u_f of a floating-frame body),
so the stresses are the local ones (Exudyn's ``StressLocal``).

For a reduced body u_f = Psi zeta, the post-processing modes S = D B_n Psi (N, 6 m), column 6 j + c the
component c of mode j (Exudyn's ``postProcessingModes['matrix']`` layout), give the nodal stresses as
S zeta without the mesh (:func:`post_processing_modes`, :func:`modal_field`).
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from skfem import Basis

from .forms import lame_parameters
from .matrices import _SKFEM_ELEMENT, _SKFEM_MESH, _SKFEM_NODE_ORDER
from .mesh import Mesh

VOIGT = ("xx", "yy", "zz", "yz", "xz", "xy")
# (component, gradient direction j, displacement component k): eps_c += dN/dx_j u_k
_VOIGT_TERMS = ((0, 0, 0), (1, 1, 1), (2, 2, 2), (3, 2, 1), (3, 1, 2), (4, 2, 0), (4, 0, 2), (5, 1, 0), (5, 0, 1))
OUTPUTS = ("stress", "strain")


def strain_recovery_matrix(mesh: Mesh) -> sp.csr_matrix:
    """Nodal strain recovery B_n, shape (6 N, 3 N): row 6 i + c is Voigt component c of node i's averaged
    strain [-], column 3 i + k displacement component k of node i [m] (``floatframe.fem`` DOF order)."""
    rows, columns, values = [], [], []
    count = np.zeros(mesh.n_nodes)
    for kind, connectivity in mesh.elements.items():
        if len(connectivity) == 0:
            continue
        local = connectivity[:, _SKFEM_NODE_ORDER[kind]]      # (E, n) mesh node of each scikit-fem local node
        used, numbering = np.unique(local, return_inverse=True)
        skfem_mesh = _SKFEM_MESH[kind](np.ascontiguousarray(mesh.nodes[used].T),
                                       np.ascontiguousarray(numbering.reshape(local.shape).T))
        element = _SKFEM_ELEMENT[kind]()
        node_points = np.ascontiguousarray(element.doflocs.T)   # quadrature "points": the element's nodes
        basis = Basis(skfem_mesh, element, quadrature=(node_points, np.ones(node_points.shape[1])))
        # gradients[a][j, e, q] = dN_a / dx_j of element e at its local node q
        gradients = np.stack([basis.basis[a][0].grad for a in range(local.shape[1])])   # (n, 3, E, n)
        point_node = local[:, None, :]                          # (E, 1, q) node where the strain is evaluated
        shape_node = local[:, :, None]                          # (E, a, 1) node whose displacement enters
        np.add.at(count, local.ravel(), 1.0)
        for component, direction, displacement in _VOIGT_TERMS:
            entry = np.transpose(gradients[:, direction], (1, 0, 2))   # (E, a, q)
            rows.append(np.broadcast_to(6 * point_node + component, entry.shape).ravel())
            columns.append(np.broadcast_to(3 * shape_node + displacement, entry.shape).ravel())
            values.append(entry.ravel())
    if not rows:
        return sp.csr_matrix((6 * mesh.n_nodes, 3 * mesh.n_nodes))
    rows, columns, values = np.concatenate(rows), np.concatenate(columns), np.concatenate(values)
    weights = 1.0 / np.maximum(count, 1.0)
    return sp.csr_matrix((values * weights[rows // 6], (rows, columns)), shape=(6 * mesh.n_nodes, 3 * mesh.n_nodes))


def elasticity_matrix(youngs_modulus: float, poissons_ratio: float) -> np.ndarray:
    """Isotropic D (6, 6) [Pa]: Voigt stress = D Voigt strain (engineering shear strains)."""
    lam, mu = lame_parameters(youngs_modulus, poissons_ratio)
    matrix = np.zeros((6, 6))
    matrix[:3, :3] = lam
    matrix[np.arange(3), np.arange(3)] += 2.0 * mu
    matrix[np.arange(3, 6), np.arange(3, 6)] = mu
    return matrix


def nodal_strains(mesh: Mesh, displacements, recovery: sp.spmatrix | None = None) -> np.ndarray:
    """Averaged nodal strains (..., N, 6) [-] of body-fixed displacements (..., N, 3) or (..., 3 N) [m].

    ``recovery``: :func:`strain_recovery_matrix` of the mesh, when already built.
    """
    recovery = strain_recovery_matrix(mesh) if recovery is None else recovery
    array = np.asarray(displacements, dtype=float)
    if array.shape[-2:] == (mesh.n_nodes, 3):
        leading = array.shape[:-2]
    elif array.shape[-1:] == (3 * mesh.n_nodes,):
        leading = array.shape[:-1]
    else:
        raise ValueError(f"nodal_strains: displacements must end in ({mesh.n_nodes}, 3) or ({3 * mesh.n_nodes},), "
                         f"got {array.shape}")
    flat = array.reshape(-1, 3 * mesh.n_nodes)
    return (recovery @ flat.T).T.reshape(*leading, mesh.n_nodes, 6)


def nodal_stresses(mesh: Mesh, displacements, youngs_modulus: float, poissons_ratio: float,
                   recovery: sp.spmatrix | None = None) -> np.ndarray:
    """Averaged nodal stresses (..., N, 6) [Pa] of body-fixed displacements (..., N, 3) or (..., 3 N) [m],
    isotropic linear-elastic material (E [Pa], nu [-])."""
    return nodal_strains(mesh, displacements, recovery) @ elasticity_matrix(youngs_modulus, poissons_ratio).T


def von_mises(stress) -> np.ndarray:
    """Von Mises equivalent stress (...,) [Pa] of Voigt stresses (..., 6) [Pa]."""
    s = np.asarray(stress, dtype=float)
    normal = (s[..., 0] - s[..., 1]) ** 2 + (s[..., 1] - s[..., 2]) ** 2 + (s[..., 2] - s[..., 0]) ** 2
    return np.sqrt(0.5 * normal + 3.0 * (s[..., 3] ** 2 + s[..., 4] ** 2 + s[..., 5] ** 2))


def post_processing_modes(mesh: Mesh, mode_vectors, youngs_modulus: float | None = None,
                          poissons_ratio: float | None = None, output: str = "stress") -> np.ndarray:
    """Stress (or strain) field of each mode, (N, 6 m): column 6 j + c is Voigt component c at every node
    of mode j (Exudyn's ComputePostProcessingModes layout).

    ``mode_vectors`` Psi (3 N, m) [m per unit modal coordinate]; ``output`` "stress" ([Pa], needs E [Pa]
    and nu [-]) or "strain" ([-]).
    """
    if output not in OUTPUTS:
        raise ValueError(f"post_processing_modes: output must be one of {OUTPUTS}, got {output!r}")
    if output == "stress" and (youngs_modulus is None or poissons_ratio is None):
        raise ValueError("post_processing_modes: stress modes need youngs_modulus and poissons_ratio")
    vectors = np.asarray(mode_vectors, dtype=float)
    if vectors.ndim != 2 or vectors.shape[0] != 3 * mesh.n_nodes:
        raise ValueError(f"post_processing_modes: mode_vectors must be (3 N, m) = ({3 * mesh.n_nodes}, m), "
                         f"got {vectors.shape}")
    strains = np.asarray(strain_recovery_matrix(mesh) @ vectors).reshape(mesh.n_nodes, 6, -1)   # (N, 6, m)
    if output == "stress":
        strains = np.einsum("cd,ndm->ncm", elasticity_matrix(youngs_modulus, poissons_ratio), strains)
    return np.transpose(strains, (0, 2, 1)).reshape(mesh.n_nodes, -1)


def modal_field(modes_matrix, modal_coordinates) -> np.ndarray:
    """Nodal stress or strain (..., N, 6) from post-processing modes (N, 6 m) and modal coordinates
    zeta (..., m): sum_j zeta_j S_j."""
    matrix = np.asarray(modes_matrix, dtype=float)
    n_nodes = matrix.shape[0]
    per_mode = matrix.reshape(n_nodes, -1, 6)                  # (N, m, 6)
    return np.einsum("nmc,...m->...nc", per_mode, np.asarray(modal_coordinates, dtype=float))
