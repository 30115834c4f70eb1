"""Consistent mass and linear-elastic stiffness matrices assembled with scikit-fem.

All matrices are ``scipy.sparse.csr_matrix`` of size 3 N x 3 N in node-major interleaved
ordering: coordinate ``3 * i + k`` is displacement component k (x, y, z) of node i.

Quadrature (scikit-fem ``intorder`` = polynomial degree integrated exactly):

- Hex8 mass: order 4, i.e. 3 x 3 x 3 Gauss points, exact for any trilinear hexahedron
  (the integrand N_i N_j det J has degree at most 4 per reference direction);
- Hex8 stiffness: order 3, i.e. the standard 2 x 2 x 2 Gauss rule (exact for parallelepipeds);
- Tet4 mass: order 2 (exact); Tet4 stiffness: order 1 (constant strain, exact).

Stiffness formulations:

- ``"full"``: the standard displacement element, all strain terms at the quadrature points;
- ``"bbar"``: selectively reduced (mean dilatation, Hughes' B-bar) element: the volumetric strain
  is replaced by its element average. This is the formulation of the Abaqus C3D8 element and
  reproduces Abaqus' exported C3D8 stiffness matrices. For Tet4 it equals ``"full"``.
"""

import numpy as np
import scipy.sparse as sp
from skfem import (Basis, ElementHex0, ElementHex1, ElementTetP0, ElementTetP1, ElementVector, MeshHex,
                   MeshTet, asm)

from .forms import (deviatoric_elasticity_form, dilatation_coupling, elasticity_form, lame_parameters,
                    mass_form, scalar_mass)
from .mesh import Mesh

MASS_INTORDER = {"Hex8": 4, "Tet4": 2}
STIFFNESS_INTORDER = {"Hex8": 3, "Tet4": 1}
FORMULATIONS = ("full", "bbar")

_SKFEM_MESH = {"Hex8": MeshHex, "Tet4": MeshTet}
_SKFEM_ELEMENT = {"Hex8": ElementHex1, "Tet4": ElementTetP1}
_SKFEM_CONSTANT_ELEMENT = {"Hex8": ElementHex0, "Tet4": ElementTetP0}
# scikit-fem vertex j of an element is Abaqus/VTK vertex _SKFEM_NODE_ORDER[kind][j]
_SKFEM_NODE_ORDER = {"Hex8": [0, 4, 3, 1, 7, 5, 2, 6], "Tet4": [0, 1, 2, 3]}


def mass_matrix(mesh: Mesh, density: float) -> sp.csr_matrix:
    """Consistent mass matrix [kg], shape (3 N, 3 N), for ``density`` [kg/m^3]."""
    total = _zero(mesh)
    for basis in _vector_bases(mesh, MASS_INTORDER):
        total = total + _interleaved(asm(mass_form(density), basis), basis)
    return _symmetric(total)


def stiffness_matrix(mesh: Mesh, youngs_modulus: float, poissons_ratio: float,
                     formulation: str = "full") -> sp.csr_matrix:
    """Linear-elastic stiffness matrix [N/m], shape (3 N, 3 N), isotropic material.

    Parameters
    ----------
    mesh : Mesh
        Hex8 and/or Tet4 mesh [m].
    youngs_modulus, poissons_ratio : float
        E [Pa] and nu [-].
    formulation : {"full", "bbar"}
        Standard displacement element, or mean-dilatation B-bar element (as Abaqus C3D8).
    """
    if formulation not in FORMULATIONS:
        raise ValueError(f"unknown formulation {formulation!r}, expected one of {FORMULATIONS}")
    lam, mu = lame_parameters(youngs_modulus, poissons_ratio)
    total = _zero(mesh)
    for basis in _vector_bases(mesh, STIFFNESS_INTORDER):
        if formulation == "full":
            matrix = asm(elasticity_form(lam, mu), basis)
        else:
            matrix = asm(deviatoric_elasticity_form(mu), basis) + _mean_dilatation(basis, lam + 2.0 * mu / 3.0)
        total = total + _interleaved(matrix, basis)
    return _symmetric(total)


def linear_elastic_matrices(mesh: Mesh, youngs_modulus: float, poissons_ratio: float, density: float,
                            formulation: str = "full") -> tuple[sp.csr_matrix, sp.csr_matrix]:
    """Consistent mass [kg] and stiffness [N/m] matrices, each shape (3 N, 3 N).

    Parameters
    ----------
    mesh : Mesh
        Hex8 and/or Tet4 mesh, coordinates in [m].
    youngs_modulus : float
        E [Pa].
    poissons_ratio : float
        nu [-].
    density : float
        rho [kg/m^3].
    formulation : {"full", "bbar"}
        Stiffness formulation, see :func:`stiffness_matrix`.
    """
    return mass_matrix(mesh, density), stiffness_matrix(mesh, youngs_modulus, poissons_ratio, formulation)


def add_node_mass(mass_matrix: sp.spmatrix, node: int, mass: float) -> sp.csr_matrix:
    """Copy of ``mass_matrix`` with a point mass [kg] added on the 3 diagonal entries of ``node``."""
    n = mass_matrix.shape[0]
    if not 0 <= 3 * node + 2 < n:
        raise ValueError(f"node {node} is outside a mass matrix of size {n}")
    coordinates = 3 * node + np.arange(3)
    point_mass = sp.csr_matrix((np.full(3, float(mass)), (coordinates, coordinates)), shape=(n, n))
    return (sp.csr_matrix(mass_matrix) + point_mass).tocsr()


def lumped_mass_matrix(mass_matrix: sp.spmatrix) -> sp.csr_matrix:
    """Diagonal row-sum lumped copy of a mass matrix [kg].

    For Hex8 and Tet4 meshes this equals the lumped mass Abaqus exports.
    """
    return sp.diags(np.asarray(mass_matrix.sum(axis=1)).ravel(), format="csr")


def rigid_body_modes(nodes: np.ndarray) -> np.ndarray:
    """Rigid-body displacement modes, shape (3 N, 6): unit translations along x, y, z, then
    infinitesimal rotations about the x, y, z axes through the origin (u = e_k x r) [m/rad]."""
    nodes = np.asarray(nodes, dtype=float)
    modes = np.zeros((nodes.shape[0], 3, 6))
    modes[:, :, :3] = np.eye(3)
    for k, axis in enumerate(np.eye(3)):
        modes[:, :, 3 + k] = np.cross(axis, nodes)
    return modes.reshape(-1, 6)


def _vector_bases(mesh, intorder):
    """One scikit-fem vector basis per element type with elements, quadrature of ``intorder``."""
    for kind, connectivity in mesh.elements.items():
        if len(connectivity) == 0:
            continue
        skfem_mesh = _SKFEM_MESH[kind](np.ascontiguousarray(mesh.nodes.T),
                                       np.ascontiguousarray(connectivity[:, _SKFEM_NODE_ORDER[kind]].T))
        yield Basis(skfem_mesh, ElementVector(_SKFEM_ELEMENT[kind]()), intorder=intorder[kind])


def _mean_dilatation(basis, bulk_modulus):
    """kappa C^T V^-1 C: the volumetric stiffness with the element-averaged volumetric strain."""
    kind = "Hex8" if isinstance(basis.mesh, MeshHex) else "Tet4"
    constant = basis.with_element(_SKFEM_CONSTANT_ELEMENT[kind]())
    coupling = asm(dilatation_coupling, basis, constant).tocsr()
    volumes = asm(scalar_mass, constant).diagonal()
    return bulk_modulus * (coupling.T @ sp.diags(1.0 / volumes) @ coupling)


def _interleaved(matrix, basis):
    """Reorder a scikit-fem vector-basis matrix to node-major interleaved coordinates."""
    to_skfem = basis.nodal_dofs.T.ravel()
    return sp.csr_matrix(matrix)[to_skfem][:, to_skfem]


def _symmetric(matrix):
    """Remove the round-off asymmetry of the summed element contributions."""
    return (0.5 * (matrix + matrix.T)).tocsr()


def _zero(mesh):
    return sp.csr_matrix((mesh.n_coordinates, mesh.n_coordinates))
