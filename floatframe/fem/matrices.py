"""Consistent and lumped mass and linear-elastic stiffness matrices assembled with scikit-fem.

All matrices are ``scipy.sparse.csr_matrix`` of size 3 N x 3 N in node-major interleaved
ordering: coordinate ``3 * i + k`` is displacement component k (x, y, z) of node i.

Elements (scikit-fem element, isoparametric: the geometry is mapped with the element's own
shape functions, so curved quadratic elements keep their mid-edge nodes):

- Tet4: ``ElementTetP1``; Hex8: ``ElementHex1`` (trilinear);
- Tet10: ``ElementTetP2`` on ``MeshTet2``; Hex20: ``ElementHexS2`` (20-node serendipity).

Quadrature (scikit-fem ``intorder`` = polynomial degree integrated exactly; on hexahedra the
tensor Gauss rule with ceil((intorder + 1) / 2) points a direction):

- Hex8 mass: order 4, i.e. 3 x 3 x 3 Gauss points, exact for any trilinear hexahedron
  (the integrand N_i N_j det J has degree at most 4 per reference direction);
- Hex8 stiffness: order 3, i.e. the standard 2 x 2 x 2 Gauss rule (exact for parallelepipeds);
- Tet4 mass: order 2 (exact); Tet4 stiffness: order 1 (constant strain, exact);
- Tet10 mass: order 6 (15 points), exact for straight edges and, as Abaqus C3D10's, accurate beyond
  round-off for slightly curved ones (order 4, 11 points, is exact only for straight edges);
  Tet10 stiffness: order 2 (4 points, Abaqus C3D10's; exact for straight edges);
- Hex20 mass and stiffness: order 4, i.e. 3 x 3 x 3 Gauss points (Abaqus C3D20's rule; exact for
  parallelepipeds); the ``"reduced"`` stiffness: 2 x 2 x 2 points (Abaqus C3D20R).

Stiffness formulations:

- ``"full"``: the standard displacement element, all strain terms at the quadrature points;
- ``"bbar"``: Abaqus's formulation of each element type: the first-order elements are selectively
  reduced (mean dilatation, Hughes' B-bar): the volumetric strain is replaced by its element
  average. This is the Abaqus C3D8 element and reproduces Abaqus' exported C3D8 stiffness matrices;
  for Tet4 it equals ``"full"``. Tet10 and Hex20 stay fully integrated standard elements, as Abaqus
  C3D10 and C3D20;
- ``"reduced"``: Hex20 with 2 x 2 x 2 Gauss points (Abaqus C3D20R); tetrahedra as ``"full"``;
  not available for Hex8 (one point would need hourglass control).

Lumped mass (``lumped=True``): per element, row sums for Tet4 and Hex8 (equal to Abaqus's lumped
mass of C3D4 and C3D8), HRZ (Hinton-Rock-Zienkiewicz: the diagonal of the consistent element matrix
scaled to the element's mass) for Tet10 and Hex20, whose corner row sums are negative: -m/20 of
the element mass m on a Tet10, -m/8 on a parallelepiped Hex20.
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from skfem import (Basis, ElementHex0, ElementHex1, ElementHexS2, ElementTetP0, ElementTetP1, ElementTetP2,
                   ElementVector, MeshHex, MeshHex1, MeshTet, MeshTet2, asm)

from floatframe.errors import ModelError
from floatframe.rotations import skew

from .forms import (deviatoric_elasticity_form, dilatation_coupling, elasticity_form, lame_parameters,
                    mass_form, scalar_mass)
from .mesh import CORNER_TYPE, EDGES, NODES_PER_ELEMENT, Mesh, hex_corner_jacobians

MASS_INTORDER = {"Hex8": 4, "Tet4": 2, "Tet10": 6, "Hex20": 4}
STIFFNESS_INTORDER = {"Hex8": 3, "Tet4": 1, "Tet10": 2, "Hex20": 4}
REDUCED_STIFFNESS_INTORDER = {"Tet4": 1, "Tet10": 2, "Hex20": 3}
FORMULATIONS = ("full", "bbar", "reduced")


@dataclass(repr=False)
class MeshHex20(MeshHex1):
    """scikit-fem mesh of 20-node serendipity hexahedra (isoparametric)."""

    elem: type = ElementHexS2


_SKFEM_MESH = {"Hex8": MeshHex, "Tet4": MeshTet, "Tet10": MeshTet2, "Hex20": MeshHex20}
_SKFEM_ELEMENT = {"Hex8": ElementHex1, "Tet4": ElementTetP1, "Tet10": ElementTetP2, "Hex20": ElementHexS2}
_SKFEM_CONSTANT_ELEMENT = {"Hex8": ElementHex0, "Tet4": ElementTetP0}
# scikit-fem vertex j of a first-order element is Abaqus/VTK vertex _SKFEM_CORNER_ORDER[kind][j]
_SKFEM_CORNER_ORDER = {"Hex8": [0, 4, 3, 1, 7, 5, 2, 6], "Tet4": [0, 1, 2, 3]}
_MEAN_DILATATION_TYPES = ("Hex8", "Tet4")
_ROW_SUM_LUMPED_TYPES = ("Hex8", "Tet4")


def _skfem_node_order(kind):
    """Abaqus/VTK node of each scikit-fem local node of ``kind``: the corners by
    ``_SKFEM_CORNER_ORDER``, mid-edge nodes found at the midpoints of their corners' reference points."""
    corners = CORNER_TYPE[kind]
    reference = np.empty((NODES_PER_ELEMENT[kind], 3))
    reference[_SKFEM_CORNER_ORDER[corners]] = _SKFEM_ELEMENT[corners].doflocs
    for node, edge in enumerate(EDGES.get(kind, ()), start=NODES_PER_ELEMENT[corners]):
        reference[node] = reference[list(edge)].mean(axis=0)
    distances = np.linalg.norm(_SKFEM_ELEMENT[kind].doflocs[:, None, :] - reference[None, :, :], axis=2)
    order = np.argmin(distances, axis=1)
    assert np.array_equal(np.sort(order), np.arange(order.size)) and distances.min(axis=1).max() == 0.0
    return order


_SKFEM_NODE_ORDER = {kind: _skfem_node_order(kind) for kind in NODES_PER_ELEMENT}


DEGENERATE_VOLUME = 1e-10   # a corner Jacobian determinant below this fraction of the element's extent cubed


def check_material(youngs_modulus=None, poissons_ratio=None, density=None) -> None:
    """ValueError naming the parameter unless E > 0 [Pa], -1 < nu < 0.5 and rho > 0 [kg/m^3] (those given)."""
    checks = (("youngs_modulus", youngs_modulus, lambda value: value > 0.0, "positive"),
              ("poissons_ratio", poissons_ratio, lambda value: -1.0 < value < 0.5, "in (-1, 0.5)"),
              ("density", density, lambda value: value > 0.0, "positive"))
    for name, value, valid, wanted in checks:
        if value is not None and not (np.isfinite(value) and valid(value)):
            raise ValueError(f"material parameter {name} must be {wanted}, got {value}")


def check_elements(mesh: Mesh) -> None:
    """ValueError unless the mesh has volume elements and none is degenerate or inverted.

    At the corners, the determinant of the map from the reference element (``hex_corner_jacobians``; for a
    tetrahedron its 6 times signed volume) measures the element. Below DEGENERATE_VOLUME times the element's
    extent cubed (in the reference element's units) the element is degenerate (flat). With determinants of
    both signs it is inverted: tangled, its map folds over. An element whose determinants are all negative is
    only numbered mirror-wise (as Netgen's tetrahedra are); scikit-fem integrates with |det J|, so it gets the
    right matrices and is accepted. The message names the element type, its number, its nodes and the fault."""
    if not any(len(connectivity) for connectivity in mesh.elements.values()):
        raise ValueError("the mesh has no volume elements (Tet4, Tet10, Hex8 or Hex20); FE matrices need them")
    for kind, connectivity in mesh.elements.items():
        corner_kind = CORNER_TYPE[kind]
        corners = connectivity[:, :NODES_PER_ELEMENT[corner_kind]]
        points = mesh.nodes[corners]                                        # (E, corners, 3)
        extent = np.ptp(points, axis=1).max(axis=1)                         # (E,) [m]
        if corner_kind == "Hex8":   # dx/dxi on the reference cube [-1, 1]^3: half the edge vectors
            determinants, tolerance = hex_corner_jacobians(mesh.nodes, corners), DEGENERATE_VOLUME * (extent / 2) ** 3
        else:
            determinants = np.linalg.det(points[:, 1:] - points[:, :1])[:, None]
            tolerance = DEGENERATE_VOLUME * extent ** 3
        faults = (("degenerate (a corner of zero volume)", (np.abs(determinants) <= tolerance[:, None]).any(axis=1)),
                  ("inverted (corner volumes of both signs: a tangled element)",
                   (determinants > 0).any(axis=1) & (determinants < 0).any(axis=1)))
        for fault, bad in faults:
            if bad.any():
                element = int(np.flatnonzero(bad)[0])
                raise ValueError(f"{kind} element {element} (nodes {connectivity[element].tolist()}) is {fault}; "
                                 f"{int(bad.sum())} of {len(connectivity)} {kind} elements are")


def mass_matrix(mesh: Mesh, density: float, lumped: bool = False) -> sp.csr_matrix:
    """Consistent or lumped mass matrix [kg], shape (3 N, 3 N), for ``density`` [kg/m^3].

    ``lumped``: diagonal, per element row sums (Tet4, Hex8) or HRZ (Tet10, Hex20), see the module text.
    Raises ValueError for a density that is not positive and for a mesh without volume elements or with an
    inverted or degenerate one (``check_elements``).
    """
    check_material(density=density)
    check_elements(mesh)
    if not lumped:  # rho u . v couples equal components only: M = M_scalar (x) I_3, 9 times fewer element entries
        scalar = _assembled(mesh, MASS_INTORDER, lambda kind, basis: density * asm(scalar_mass, basis), _scalar_bases)
        return sp.kron(scalar, sp.identity(3), format="csr")
    diagonal = np.zeros(mesh.n_coordinates)
    for kind, basis, coordinates in _vector_bases(mesh, MASS_INTORDER):
        local = mass_form(density).elemental(basis).tolocal()
        if kind in _ROW_SUM_LUMPED_TYPES:
            element_diagonal = local.sum(axis=2)
        else:
            element_diagonal = np.diagonal(local, axis1=1, axis2=2)
            element_diagonal = element_diagonal * (local.sum(axis=(1, 2)) / element_diagonal.sum(axis=1))[:, None]
        diagonal += np.bincount(coordinates[basis.element_dofs].ravel(), weights=element_diagonal.T.ravel(),
                                minlength=mesh.n_coordinates)
    return sp.diags(diagonal, format="csr")


def stiffness_matrix(mesh: Mesh, youngs_modulus: float, poissons_ratio: float,
                     formulation: str = "full") -> sp.csr_matrix:
    """Linear-elastic stiffness matrix [N/m], shape (3 N, 3 N), isotropic material.

    Parameters
    ----------
    mesh : Mesh
        Tet4, Tet10, Hex8 and/or Hex20 mesh [m].
    youngs_modulus, poissons_ratio : float
        E [Pa] and nu [-].
    formulation : {"full", "bbar", "reduced"}
        Standard displacement elements; Abaqus's elements (mean-dilatation B-bar Hex8 as C3D8, the
        others standard); or reduced-integration Hex20 (C3D20R). See the module text.

    Raises ValueError for E <= 0, nu outside (-1, 0.5) and a mesh without volume elements or with an
    inverted or degenerate one (``check_elements``).
    """
    if formulation not in FORMULATIONS:
        raise ValueError(f"unknown formulation {formulation!r}, expected one of {FORMULATIONS}")
    check_material(youngs_modulus=youngs_modulus, poissons_ratio=poissons_ratio)
    check_elements(mesh)
    if formulation == "reduced" and "Hex8" in mesh.elements:
        raise ValueError("formulation 'reduced' is not available for Hex8 (a one-point hexahedron needs "
                         "hourglass control); use 'bbar' (Abaqus C3D8) or 'full'")
    lam, mu = lame_parameters(youngs_modulus, poissons_ratio)

    def element_stiffness(kind, basis):
        if formulation == "bbar" and kind in _MEAN_DILATATION_TYPES:
            return asm(deviatoric_elasticity_form(mu), basis) + _mean_dilatation(kind, basis, lam + 2.0 * mu / 3.0)
        return asm(elasticity_form(lam, mu), basis)

    intorder = REDUCED_STIFFNESS_INTORDER if formulation == "reduced" else STIFFNESS_INTORDER
    return _assembled(mesh, intorder, element_stiffness)


def linear_elastic_matrices(mesh: Mesh, youngs_modulus: float, poissons_ratio: float, density: float,
                            formulation: str = "full", lumped: bool = False) -> tuple[sp.csr_matrix, sp.csr_matrix]:
    """Mass [kg] and stiffness [N/m] matrices, each shape (3 N, 3 N).

    Parameters
    ----------
    mesh : Mesh
        Tet4, Tet10, Hex8 and/or Hex20 mesh, coordinates in [m].
    youngs_modulus : float
        E [Pa].
    poissons_ratio : float
        nu [-].
    density : float
        rho [kg/m^3].
    formulation : {"full", "bbar", "reduced"}
        Stiffness formulation, see :func:`stiffness_matrix`.
    lumped : bool
        Lumped instead of consistent mass, see :func:`mass_matrix`.
    """
    return (mass_matrix(mesh, density, lumped),
            stiffness_matrix(mesh, youngs_modulus, poissons_ratio, formulation))


def add_node_mass(mass_matrix: sp.spmatrix, node: int, mass: float) -> sp.csr_matrix:
    """Copy of ``mass_matrix`` with a point mass [kg] (finite, >= 0) added on the 3 diagonal entries of ``node``."""
    n = mass_matrix.shape[0]
    if not 0 <= 3 * node + 2 < n:
        raise ValueError(f"node {node} is outside a mass matrix of size {n}")
    if not (np.isfinite(mass) and mass >= 0):
        raise ValueError(f"the point mass on node {node} must be finite and >= 0 kg, got {mass}")
    coordinates = 3 * node + np.arange(3)
    point_mass = sp.csr_matrix((np.full(3, float(mass)), (coordinates, coordinates)), shape=(n, n))
    return (sp.csr_matrix(mass_matrix) + point_mass).tocsr()


def lumped_mass_matrix(mass_matrix: sp.spmatrix) -> sp.csr_matrix:
    """Diagonal row-sum lumped copy of a mass matrix [kg].

    For Hex8 and Tet4 meshes this equals the lumped mass Abaqus exports. Not for Tet10 and Hex20:
    their corner row sums are negative; use ``mass_matrix(mesh, density, lumped=True)`` (HRZ).
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


def gyroscopic_matrix(mass_matrix: sp.spmatrix, axis: int) -> sp.csr_matrix:
    """G = (I_N kron skew(e)) M, shape (3 N, 3 N) [kg], for spin about the unit axis e (0: x, 1: y, 2: z).

    For a mass matrix of the usual form M_s kron I_3 this is M_s kron skew(e), and the Coriolis forces of the
    nodal velocities v (3 N,) [m/s] in a frame spinning at Omega [rad/s] about e are 2 Omega G v [N].
    """
    if axis not in (0, 1, 2):
        raise ModelError(f"gyroscopic_matrix: axis must be 0, 1 or 2 (x, y, z), got {axis!r}")
    mass = sp.csr_matrix(mass_matrix)
    spin = np.asarray(skew(np.eye(3)[axis]), dtype=float)      # skew(e) x = e x x
    return sp.csr_matrix(sp.kron(sp.identity(mass.shape[0] // 3), spin) @ mass)


def center_of_mass(nodes: np.ndarray, mass_matrix: sp.spmatrix) -> np.ndarray:
    """Centre of mass [m], (3,), of a mesh with node positions ``nodes`` (N, 3) [m] and its mass matrix
    (3 N, 3 N) [kg]: Phi_t^T M x / m, with Phi_t the unit translations and m = Phi_t^T M Phi_t.

    A full FFRF body whose mesh is shifted by it (``nodes - center_of_mass(nodes, M)``) has its frame origin
    at the undeformed centre of mass; with the Tisserand conditions the frame then moves with the centre of
    mass, and the body's linear momentum is m times the frame's velocity (see docs/ffrf.md).
    """
    nodes = np.asarray(nodes, dtype=float)
    translations = rigid_body_modes(nodes)[:, :3]                    # Phi_t, (3 N, 3)
    weighted = sp.csr_matrix(mass_matrix).T @ translations           # M^T Phi_t, (3 N, 3)
    mass = np.trace(translations.T @ weighted) / 3.0
    if not mass > 0.0:
        raise ValueError(f"center_of_mass: the mass matrix gives a total mass of {mass} kg, which is not positive")
    return weighted.T @ nodes.reshape(-1) / mass


def _assembled(mesh, intorder, element_matrix, bases=None):
    """Sum over the element types of ``element_matrix(kind, basis)`` in mesh coordinates, symmetrized
    (removes the round-off asymmetry of the summed element contributions). ``bases``: ``_vector_bases``
    (the default; a (3 N, 3 N) matrix) or ``_scalar_bases`` (an (N, N) matrix on the mesh nodes)."""
    bases = bases or _vector_bases
    n = mesh.n_coordinates if bases is _vector_bases else mesh.n_nodes
    total = sp.csr_matrix((n, n))
    for kind, basis, coordinates in bases(mesh, intorder):
        matrix = sp.coo_matrix(element_matrix(kind, basis))
        total = total + sp.csr_matrix((matrix.data, (coordinates[matrix.row], coordinates[matrix.col])),
                                      shape=(n, n))
    return (0.5 * (total + total.T)).tocsr()


def _vector_bases(mesh, intorder):
    """(kind, basis, coordinates) per element type with elements: a scikit-fem vector basis with
    quadrature of ``intorder[kind]`` and the mesh coordinate of each of its dofs."""
    for kind, skfem_mesh, local in _skfem_meshes(mesh):
        basis = Basis(skfem_mesh, ElementVector(_SKFEM_ELEMENT[kind]()), intorder=intorder[kind])
        yield kind, basis, _mesh_coordinates(basis, local, 3)


def _scalar_bases(mesh, intorder):
    """(kind, basis, nodes) per element type with elements: a scikit-fem scalar basis with quadrature of
    ``intorder[kind]`` and the mesh node of each of its dofs."""
    for kind, skfem_mesh, local in _skfem_meshes(mesh):
        basis = Basis(skfem_mesh, _SKFEM_ELEMENT[kind](), intorder=intorder[kind])
        yield kind, basis, _mesh_coordinates(basis, local, 1)


def _skfem_meshes(mesh):
    """(kind, scikit-fem mesh, local) per element type with elements; ``local`` (E, n) the mesh nodes of the
    elements in scikit-fem's local order."""
    for kind, connectivity in mesh.elements.items():
        if len(connectivity) == 0:
            continue
        local = connectivity[:, _SKFEM_NODE_ORDER[kind]]
        used, numbering = np.unique(local, return_inverse=True)
        yield kind, _SKFEM_MESH[kind](np.ascontiguousarray(mesh.nodes[used].T),
                                      np.ascontiguousarray(numbering.reshape(local.shape).T)), local


def _mesh_coordinates(basis, local, components):
    """Mesh coordinate (``components`` node + component) of each dof of a basis with 3 (vector) or 1 (scalar)
    ``components``; ``local``: (E, n) the mesh nodes of the elements in scikit-fem's local order. Local dof
    components j + k is component k of node j."""
    per_element = (components * local.T[:, None, :] + np.arange(components)[None, :, None]).reshape(
        components * local.shape[1], -1)
    coordinates = np.zeros(basis.N, dtype=np.int64)
    coordinates[basis.element_dofs] = per_element
    if not np.array_equal(coordinates[basis.element_dofs], per_element):
        raise ValueError("elements sharing an edge have different mid-edge nodes on it")
    return coordinates


def _mean_dilatation(kind, basis, bulk_modulus):
    """kappa C^T V^-1 C: the volumetric stiffness with the element-averaged volumetric strain."""
    constant = basis.with_element(_SKFEM_CONSTANT_ELEMENT[kind]())
    coupling = asm(dilatation_coupling, basis, constant).tocsr()
    volumes = asm(scalar_mass, constant).diagonal()
    return bulk_modulus * (coupling.T @ sp.diags(1.0 / volumes) @ coupling)
