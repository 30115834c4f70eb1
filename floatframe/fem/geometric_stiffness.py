"""Geometric (stress) stiffness of a prestressed FE mesh and the unit load cases of a floating frame.

Geometric stiffness of a prestress field sigma0 (Cauchy stress [Pa], 3 x 3, symmetric):

    K_G(sigma0) = integral over the body of  sigma0_ij  dN_a/dx_i dN_b/dx_j  delta_kl      (3 N, 3 N) [N/m]

the second variation of the Green-Lagrange strain energy at a prestress, written as the scikit-fem weak form
``grad(u) sigma0 : grad(v)`` (:func:`geometric_stiffness_form`) and assembled on the same bases, quadrature
and node ordering as the elastic stiffness (``floatframe.fem.matrices``; Tet4, Tet10, Hex8, Hex20). Tension
(sigma0 positive) stiffens, compression softens: K phi = lambda K_G phi gives the buckling load factor.

The prestress of a linear-elastic body in its floating frame is linear in the frame's motion and in the loads at
its interfaces, so it is a sum of unit load cases with time-varying amplitudes f_k:

    sigma0 = sum_k f_k sigma_k,   K_G = sum_k f_k K_G,k

- the inertia loads of the frame motion (d'Alembert forces -M a_k, with a body-fixed acceleration field a_k):
  the six products omega_i omega_j (centripetal field (omega omega^T - |omega|^2 I) p, split into
  (S_ij - delta_ij I) p, S_ii = e_i e_i^T, S_ij = e_i e_j^T + e_j e_i^T), the three angular accelerations
  (field e_i x p) and the three translational accelerations of the frame origin (field e_i), body-fixed;
- optionally unit forces and torques at named interface node sets (a joint's reaction), spread evenly over the
  set's nodes (a torque T as forces c x r_j, c = J^-1 T with J = sum_j (|r_j|^2 I - r_j r_j^T) about the set's
  midpoint).

Each unit case is one static solve K u_k = f_k with the body held by its reference conditions (the nodes of a
clamped interface, or inertia relief for a free body: the load's rigid-body resultant is removed,
f - M R (R^T M R)^-1 R^T f, and the mean rigid motion fixed by R^T M u = 0), and K_G,k = K_G(sigma(u_k)) with the
stress of u_k at the quadrature points. All matrices stay sparse; one factorization serves every case.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from skfem import BilinearForm, asm
from skfem.helpers import ddot, div, eye, grad, mul, sym_grad

from floatframe.errors import ModelError
from .forms import lame_parameters
from .matrices import STIFFNESS_INTORDER, _vector_bases, check_elements, check_material, rigid_body_modes
from .mesh import Mesh

AXES = "xyz"
OMEGA_PRODUCTS = ((0, 0), (1, 1), (2, 2), (1, 2), (0, 2), (0, 1))   # (i, j) of omega_i omega_j, Voigt order
FRAME_CASE_KINDS = ("omega", "alpha", "acceleration")
INTERFACE_COMPONENTS = tuple(f"force {a}" for a in AXES) + tuple(f"torque {a}" for a in AXES)


@BilinearForm
def stress_stiffness_form(u, v, w):
    """grad(u) sigma0 : grad(v) for the prestress ``w.stress`` (3, 3, elements, points) [Pa]."""
    return ddot(mul(grad(u), w.stress), grad(v))


def geometric_stiffness_form(lam: float, mu: float) -> BilinearForm:
    """grad(u) sigma0 : grad(v) with sigma0 = 2 mu eps(u0) + lambda tr eps(u0) I of the prestress displacement
    ``w.prestress`` (a vector field interpolated on the basis) [m], Lame parameters [Pa]."""

    @BilinearForm
    def geometric(u, v, w):
        strain = sym_grad(w.prestress)
        stress = 2.0 * mu * strain + lam * eye(div(w.prestress), 3)
        return ddot(mul(grad(u), stress), grad(v))

    return geometric


def geometric_stiffness_matrix(mesh: Mesh, displacements, youngs_modulus: float,
                               poissons_ratio: float) -> sp.csr_matrix:
    """K_G (3 N, 3 N) [N/m] of the prestress of the static displacement field ``displacements`` (3 N,) [m].

    The stress sigma0 = D eps(u0) of the isotropic material (E [Pa], nu [-]) is taken at the quadrature points
    of the elastic stiffness (``STIFFNESS_INTORDER``), where the FE solution's stress is most accurate.
    """
    check_material(youngs_modulus=youngs_modulus, poissons_ratio=poissons_ratio)
    check_elements(mesh)
    u0 = np.asarray(displacements, dtype=float).reshape(-1)
    if u0.size != mesh.n_coordinates:
        raise ValueError(f"geometric_stiffness_matrix: displacements must have {mesh.n_coordinates} entries "
                         f"(3 per mesh node), got {u0.size}")
    form = geometric_stiffness_form(*lame_parameters(youngs_modulus, poissons_ratio))
    return _assembled_with(mesh, lambda basis, coordinates: asm(form, basis,
                                                                prestress=basis.interpolate(u0[coordinates])))


def stress_geometric_stiffness_matrix(mesh: Mesh, stress) -> sp.csr_matrix:
    """K_G (3 N, 3 N) [N/m] of a prestress field given as a function ``stress(x)`` of the global points x
    (3, elements, points) [m] returning sigma0 (3, 3, elements, points) [Pa], or as a constant (3, 3) array."""
    check_elements(mesh)
    if callable(stress):
        field_of = stress
    else:
        constant = np.asarray(stress, dtype=float)
        if constant.shape != (3, 3):
            raise ValueError(f"stress_geometric_stiffness_matrix: a constant stress must be (3, 3), got {constant.shape}")
        field_of = lambda x: np.broadcast_to(constant[:, :, None, None], (3, 3) + x.shape[1:])  # noqa: E731
    return _assembled_with(mesh, lambda basis, coordinates: asm(stress_stiffness_form, basis,
                                                                stress=np.asarray(field_of(np.asarray(basis.global_coordinates())))))


def _assembled_with(mesh, element_matrix):
    """Sum over the element types of ``element_matrix(basis, coordinates)`` in mesh coordinates, symmetrized."""
    n = mesh.n_coordinates
    total = sp.csr_matrix((n, n))
    for _, basis, coordinates in _vector_bases(mesh, STIFFNESS_INTORDER):
        matrix = sp.coo_matrix(element_matrix(basis, coordinates))
        total = total + sp.csr_matrix((matrix.data, (coordinates[matrix.row], coordinates[matrix.col])), shape=(n, n))
    return (0.5 * (total + total.T)).tocsr()


# --- unit load cases -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PrestressCase:
    """One unit load case: its ``name`` (e.g. "omega_z omega_z", "alpha_x", "a_y", "tip force z"), ``kind``
    ("omega", "alpha", "acceleration" or "interface"), ``index`` ((i, j) for omega, (i,) for alpha and
    acceleration, (set name, component) for an interface), the unit load (n_f,) [N per unit amplitude], its
    static displacement (n_f,) [m] and K_G,k (n_f, n_f) [N/m per unit amplitude]."""

    name: str
    kind: str
    index: tuple
    load: np.ndarray
    displacement: np.ndarray
    geometric_stiffness: sp.csr_matrix


@dataclass(frozen=True)
class GeometricStiffnessCases:
    """The unit load cases of a body (:func:`geometric_stiffness_cases`): ``cases``, ``reference_conditions``
    (how the static solves held the body) and ``interface_sets`` {name: node numbers}."""

    cases: tuple
    reference_conditions: str
    interface_sets: dict = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        return [case.name for case in self.cases]

    @property
    def n_coordinates(self) -> int:
        return self.cases[0].geometric_stiffness.shape[0] if self.cases else 0

    def projected(self, mode_basis) -> list[np.ndarray]:
        """Psi^T K_G,k Psi (n_m, n_m) of each case for a mode basis Psi (n_f, n_m), symmetrized."""
        basis = np.asarray(getattr(mode_basis, "vectors", mode_basis), dtype=float)
        matrices = []
        for case in self.cases:
            reduced = basis.T @ np.asarray(case.geometric_stiffness @ basis)
            matrices.append(0.5 * (reduced + reduced.T))
        return matrices


def frame_inertia_loads(mass_matrix, node_positions, kinds=FRAME_CASE_KINDS) -> list[tuple[str, str, tuple, np.ndarray]]:
    """The unit inertia loads -M a_k (n_f,) [N per unit amplitude] of the frame motion, as (name, kind, index,
    load): the six products omega_i omega_j [1/s^2], the three angular accelerations alpha_i [1/s^2] and the
    three translational accelerations a_i [m/s^2] of the frame origin, all body-fixed."""
    mass = sp.csr_matrix(mass_matrix)
    positions = np.asarray(node_positions, dtype=float).reshape(-1, 3)                # p (N, 3), body-fixed
    loads = []
    if "omega" in kinds:
        for i, j in OMEGA_PRODUCTS:
            product = np.zeros((3, 3))
            product[i, j] += 1.0
            product[j, i] += 1.0 if i != j else 0.0
            field_ij = positions @ (product - (np.eye(3) if i == j else 0.0)).T         # (S_ij - delta_ij I) p
            loads.append((f"omega_{AXES[i]} omega_{AXES[j]}", "omega", (i, j), -(mass @ field_ij.reshape(-1))))
    if "alpha" in kinds:
        for i in range(3):
            field_i = np.cross(np.eye(3)[i], positions)                                # e_i x p
            loads.append((f"alpha_{AXES[i]}", "alpha", (i,), -(mass @ field_i.reshape(-1))))
    if "acceleration" in kinds:
        for i in range(3):
            field_i = np.tile(np.eye(3)[i], positions.shape[0])                         # e_i
            loads.append((f"a_{AXES[i]}", "acceleration", (i,), -(mass @ field_i)))
    return loads


def interface_unit_loads(node_positions, nodes, name: str) -> list[tuple[str, str, tuple, np.ndarray]]:
    """Unit forces and torques (about the set's midpoint) spread evenly over the interface ``nodes``, as
    (name, kind, index, load (n_f,)) [N per unit force or N m]."""
    positions = np.asarray(node_positions, dtype=float).reshape(-1, 3)
    nodes = np.asarray(nodes, dtype=int)
    levers = positions[nodes] - positions[nodes].mean(axis=0)                          # r_j (n, 3)
    polar = np.sum(levers ** 2) * np.eye(3) - levers.T @ levers                        # J = sum |r|^2 I - r r^T
    loads = []
    for component, label in enumerate(INTERFACE_COMPONENTS):
        nodal = np.zeros_like(positions)
        if component < 3:
            nodal[nodes, component] = 1.0 / nodes.size                                 # F / n
        else:
            c = np.linalg.lstsq(polar, np.eye(3)[component - 3], rcond=None)[0]          # c = J^-1 T
            nodal[nodes] = np.cross(c, levers)                                         # f_j = c x r_j
        loads.append((f"{name} {label}", "interface", (name, label), nodal.reshape(-1)))
    return loads


def static_displacements(stiffness_matrix, loads, held_coordinates=None, mass_matrix=None, node_positions=None,
                         what="load cases"):
    """Static displacements (n_f, k) [m] of the loads (n_f, k) [N]: with ``held_coordinates`` held at zero, or,
    given ``mass_matrix`` and ``node_positions`` instead, by inertia relief (the loads' rigid-body resultant
    removed, R^T M u = 0). One sparse factorization for all loads."""
    stiffness = sp.csc_matrix(stiffness_matrix)
    loads = np.asarray(loads, dtype=float).reshape(stiffness.shape[0], -1)
    n = stiffness.shape[0]
    if held_coordinates is not None:
        free = np.setdiff1d(np.arange(n), held_coordinates)
        try:
            factors = spla.splu(stiffness[free][:, free].tocsc())
        except RuntimeError:
            raise ModelError(f"{what}: the stiffness with the held nodes is singular: they do not hold the mesh "
                             f"(a part of it is free)") from None
        result = np.zeros_like(loads)
        result[free] = factors.solve(loads[free])
        return result
    mass = sp.csr_matrix(mass_matrix)
    rigid = rigid_body_modes(np.asarray(node_positions, dtype=float).reshape(-1, 3))   # R (n_f, 6)
    mass_rigid = np.asarray(mass @ rigid)                                              # M R
    gram = rigid.T @ mass_rigid                                                        # R^T M R
    balanced = loads - mass_rigid @ np.linalg.solve(gram, rigid.T @ loads)             # self-equilibrated part
    bordered = sp.bmat([[stiffness, sp.csc_matrix(mass_rigid)], [sp.csc_matrix(mass_rigid.T), None]], format="csc")
    try:
        factors = spla.splu(bordered)
    except RuntimeError:
        raise ModelError(f"{what}: [[K, M R], [R^T M, 0]] is singular: the mesh has more zero-energy motions than "
                         f"the six rigid-body ones (a mechanism or a free part)") from None
    return factors.solve(np.vstack([balanced, np.zeros((6, balanced.shape[1]))]))[:n]


def geometric_stiffness_cases(mesh: Mesh, youngs_modulus: float, poissons_ratio: float, mass_matrix,
                              stiffness_matrix, held_nodes=None, inertia_relief: bool = False,
                              frame_cases=FRAME_CASE_KINDS, interface_sets=None, held_coordinates=None,
                              name: str = "body") -> GeometricStiffnessCases:
    """Precompute the unit load cases of a body and K_G of each (see the module text).

    Parameters
    ----------
    mesh : Mesh, the body's mesh [m] in body-fixed coordinates (frame origin at the coordinates' origin).
    youngs_modulus, poissons_ratio : E [Pa], nu [-] of the stress recovery (those of ``stiffness_matrix``).
    mass_matrix, stiffness_matrix : (n_f, n_f) sparse FE matrices of the mesh [kg], [N/m].
    held_nodes : node numbers clamped in the static solves (e.g. the interface by which the frame holds the
        body); or ``held_coordinates``, mesh coordinates 3 i + k held (e.g. pinned supports); or
        ``inertia_relief=True`` for a free body. Exactly one of the three is required.
    frame_cases : which frame inertia cases: any of "omega" (6), "alpha" (3), "acceleration" (3).
    interface_sets : {set name: node numbers} for unit forces and torques (6 cases a set).
    name : the body's name for error messages.
    """
    what = f"geometric stiffness cases of {name}"
    n_nodes = mesh.n_nodes
    given = [label for label, value in (("held_nodes", held_nodes), ("held_coordinates", held_coordinates),
                                        ("inertia_relief", [1] if inertia_relief else None))
             if value is not None and len(value)]
    if len(given) != 1:
        raise ModelError(f"{what}: each unit load case is a static solve that needs reference conditions: pass "
                         f"held_nodes (the clamped interface), held_coordinates or inertia_relief=True (a free body), "
                         f"exactly one" + (f"; got {' and '.join(given)}" if given else ""))
    unknown = [kind for kind in frame_cases if kind not in FRAME_CASE_KINDS]
    if unknown:
        raise ModelError(f"{what}: unknown frame case kinds {unknown}, expected some of {FRAME_CASE_KINDS}")
    sets = {}
    for set_name, nodes in (interface_sets or {}).items():
        nodes = np.unique(np.asarray(nodes, dtype=int).reshape(-1))
        if nodes.size == 0 or nodes.min() < 0 or nodes.max() >= n_nodes:
            raise ModelError(f"{what}: interface set {set_name!r} must hold node numbers in 0..{n_nodes - 1}, got "
                             f"{nodes.tolist()[:8]}{'...' if nodes.size > 8 else ''}")
        sets[str(set_name)] = nodes
    loads = frame_inertia_loads(mass_matrix, mesh.nodes, frame_cases)
    for set_name, nodes in sets.items():
        loads += interface_unit_loads(mesh.nodes, nodes, set_name)
    if not loads:
        raise ModelError(f"{what}: no load cases (frame_cases and interface_sets are empty)")
    matrix = np.column_stack([load for *_, load in loads])
    if inertia_relief:
        displacements = static_displacements(stiffness_matrix, matrix, mass_matrix=mass_matrix,
                                             node_positions=mesh.nodes, what=what)
        conditions = "inertia relief"
    else:
        if held_nodes is not None and len(held_nodes):
            held = np.unique(np.asarray(held_nodes, dtype=int).reshape(-1))
            if held.min() < 0 or held.max() >= n_nodes:
                raise ModelError(f"{what}: held_nodes must be node numbers in 0..{n_nodes - 1}")
            coordinates, conditions = (3 * held[:, None] + np.arange(3)).reshape(-1), f"{held.size} held nodes"
        else:
            coordinates = np.unique(np.asarray(held_coordinates, dtype=int).reshape(-1))
            if coordinates.min() < 0 or coordinates.max() >= 3 * n_nodes:
                raise ModelError(f"{what}: held_coordinates must lie in 0..{3 * n_nodes - 1}")
            conditions = f"{coordinates.size} held coordinates"
        displacements = static_displacements(stiffness_matrix, matrix, held_coordinates=coordinates, what=what)
    cases = tuple(PrestressCase(case_name, kind, index, load, displacements[:, k],
                                geometric_stiffness_matrix(mesh, displacements[:, k], youngs_modulus, poissons_ratio))
                  for k, (case_name, kind, index, load) in enumerate(loads))
    return GeometricStiffnessCases(cases, conditions, sets)
