"""A flexible beam clamped to a rigid hub that turns about the global z axis, driven by a hub torque.

The beam (length L along x, square section w x w, Hex8 ``block_mesh(L, w, w, n_elements, n_s, n_s)`` with
n_s = ``section_elements``) is an
FFRF body whose reference-frame node is the hub: an ObjectRigidBody on that node adds the hub inertia,
CoordinateConstraints fix the node's position and its Euler parameters theta1 = theta2 = 0 (so that the
only rotation left is about z, by the angle phi = 2 atan2(theta3, theta0)), and the flexible
coordinates of the mesh nodes at the root face x = 0 are fixed (the beam is clamped to the hub; this
also makes the floating frame well defined). A ``LoadTorqueVector`` with the Input "torque" (size 3,
only its z entry is used by the slew) drives the hub.

The stiffness matrix is scaled so that the first bending frequency of the beam clamped at its root
is ``first_frequency`` [Hz]: a soft beam whose vibration matters on the time scale of the slew.

With ``modes=N`` the beam is instead an ObjectFFRFReducedOrder whose deformation is q_f = Psi zeta, with
Psi the N lowest eigenmodes of the (scaled) mesh clamped at its root face (``craig_bampton_modes`` with
the root face as the only boundary set and its rigid-body columns excluded). The root rows of Psi are
zero, so the root face moves with the frame (the hub node) and no clamp constraints are needed.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg

from floatframe import rotations
from floatframe.components import (CoordinateConstraint, LoadTorqueVector, MarkerNodeCoordinate, MarkerNodeRigid,
                                   NodePointGround, ObjectRigidBody, add_reduced_ffrf_body)
from floatframe.components.base import ModelError
from floatframe.components.ffrf import add_ffrf_body
from floatframe.fem import block_mesh, craig_bampton_modes, linear_elastic_matrices
from floatframe.linalg import quadratic_energy
from floatframe.parameters import Input
from floatframe.assembly import System


@dataclass
class SlewModel:
    """An assembled slew model and the indices an OCP needs.

    ``hub_rows`` (theta0, theta3) coordinate rows of the hub's Euler parameters; ``flexible_rows`` the
    rows of all flexible coordinates (nodal displacements q_f of the full mesh, or the modal coordinates
    zeta of the reduced beam); ``tip_rows`` the y rows of the tip-face nodes (full mesh only, else empty);
    ``rigid_inertia`` J = hub + beam inertia about z [kg m^2]; ``mass_ff``, ``stiffness_ff`` the beam's
    FE matrices (n_f, n_f; dense for the full mesh, scipy.sparse for the reduced beam). For the reduced
    beam ``mode_basis`` is Psi (n_f, n_m) (None for the full mesh).
    ``flexible_mass``, ``flexible_stiffness`` are the matrices of the flexible coordinates (M, K for the
    full mesh; M_red = Psi^T M Psi, K_red = Psi^T K Psi for the reduced beam) and ``tip_weights`` the row
    with tip deflection = tip_weights . q[flexible_rows] (the mean of the tip-face y rows, of Psi if reduced).
    """

    assembled: object
    body: object
    hub_node: object
    hub_rows: np.ndarray
    flexible_rows: np.ndarray
    tip_rows: np.ndarray
    rigid_inertia: float
    first_frequency: float
    mass_ff: np.ndarray
    stiffness_ff: np.ndarray
    length: float
    flexible_mass: np.ndarray
    flexible_stiffness: np.ndarray
    tip_weights: np.ndarray
    mode_basis: np.ndarray | None = None

    @property
    def reduced(self) -> bool:
        """True for the reduced-order beam (ObjectFFRFReducedOrder), False for the full FFRF mesh."""
        return self.mode_basis is not None

    def _hub_thetas(self, q):
        """(theta0, theta3) of the hub (reference plus change), their rows (i0, i3)."""
        rows = [int(i) for i in self.hub_rows]
        return [self.assembled.q_reference[i] + q[i] for i in rows], rows

    def hub_angle(self, q):
        """phi = 2 atan2(theta3, theta0) [rad] for a coordinate vector q (NumPy or CasADi)."""
        return rotations.z_angle(*self._hub_thetas(q)[0])

    def hub_rate(self, q, v):
        """omega_z = 2 (theta0 theta3_t - theta3 theta0_t) [rad/s] (theta1 = theta2 = 0)."""
        (theta0, theta3), (i0, i3) = self._hub_thetas(q)
        return rotations.z_rate(theta0, theta3, v[i0], v[i3])

    def vibration_energy(self, q, v):
        """Elastic plus relative kinetic energy of the beam [J]: 1/2 q_f^T K q_f + 1/2 v_f^T M v_f on the full
        mesh, 1/2 zeta^T K_red zeta + 1/2 zeta_t^T M_red zeta_t on the reduced beam (the same for q_f = Psi zeta)."""
        rows = self.flexible_rows.tolist()
        return quadratic_energy(self.flexible_stiffness, q[rows], self.flexible_mass, v[rows])

    def tip_deflection(self, q):
        """Mean body-fixed y displacement of the tip-face nodes [m], for q (n,) or (k, n)."""
        return np.asarray(q)[..., self.flexible_rows] @ self.tip_weights


def clamped_first_frequency(mass, stiffness, free_rows) -> float:
    """Lowest natural frequency [Hz] of the FE model with all other rows fixed."""
    k = stiffness[np.ix_(free_rows, free_rows)]
    m = mass[np.ix_(free_rows, free_rows)]
    eigenvalues = scipy.linalg.eigh(k, m, eigvals_only=True, subset_by_index=[0, 0])
    return float(np.sqrt(eigenvalues[0]) / (2 * np.pi))


def build_slew(length: float = 1.0, width: float = 0.05, n_elements: int = 2, first_frequency: float = 1.0,
               hub_inertia: float = 2.0, density: float = 2700.0, youngs_modulus: float = 7.0e10,
               poissons_ratio: float = 0.3, modes: int | None = None, section_elements: int = 1) -> SlewModel:
    """Build and assemble the hub-beam model (SI units; ``hub_inertia`` may be a Parameter).

    The mesh is ``block_mesh(length, width, width, n_elements, section_elements, section_elements)``.
    ``modes=None``: the full FFRF mesh with its root face clamped; ``modes=N``: an ObjectFFRFReducedOrder
    with the N lowest clamped-root eigenmodes of the same mesh (see the module docstring).
    """
    if modes is not None and (not isinstance(modes, (int, np.integer)) or isinstance(modes, bool) or modes < 1):
        raise ModelError(f"build_slew: modes must be None (full mesh) or a positive integer, got {modes!r}")
    mesh = block_mesh(length, width, width, n_elements, section_elements, section_elements)
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus, poissons_ratio, density)
    root = np.flatnonzero(np.abs(mesh.nodes[:, 0]) < 1e-12)
    tip = np.flatnonzero(np.abs(mesh.nodes[:, 0] - length) < 1e-12)

    system = System()
    if modes is None:
        mass, stiffness = mass.toarray(), stiffness.toarray()
        fixed = np.concatenate([3 * root + k for k in range(3)])
        free = np.setdiff1d(np.arange(stiffness.shape[0]), fixed)
        stiffness *= (first_frequency / clamped_first_frequency(mass, stiffness, free)) ** 2
        body = add_ffrf_body(system, mesh.nodes, mass, stiffness, name="beam")
    else:
        # the clamped-root modes of K and of s K are the same vectors, with omega^2 scaled by s; the lowest
        # clamped omega^2 (the first mode's eigenvalue) sets s, so the mesh is never made dense
        basis = craig_bampton_modes(mass, stiffness, mesh.nodes, [root.tolist()], int(modes),
                                    exclude_rigid_body_motion=True)
        stiffness = stiffness * ((2 * np.pi * first_frequency) ** 2 / basis.eigenvalues[0])
        body = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, basis.vectors, name="beam")
    hub = body.node_numbers[0]
    inertia = hub_inertia if not np.isscalar(hub_inertia) else [hub_inertia] * 3 + [0.0] * 3
    system.add(ObjectRigidBody(hub, 1.0, inertia, name="hub"))
    ground = system.add(MarkerNodeCoordinate(system.add(NodePointGround((0.0, 0.0, 0.0))), 0))

    def fix(node, coordinate, name):
        marker = system.add(MarkerNodeCoordinate(node, coordinate))
        system.add(CoordinateConstraint([ground, marker], name=name))

    for coordinate, label in ((0, "x"), (1, "y"), (2, "z"), (4, "theta1"), (5, "theta2")):
        fix(hub, coordinate, f"hub {label}")
    if modes is None:
        for node in root:
            for coordinate in range(3):
                fix(body.node_numbers[1 + node], coordinate, f"clamp node {node} {'xyz'[coordinate]}")
    system.add(LoadTorqueVector(system.add(MarkerNodeRigid(hub)), Input("torque", 3), name="hub torque"))
    assembled = system.assemble()

    hub_node = system.nodes[hub]
    beam_inertia = float(body.inertia[2, 2])
    hub_zz = float(hub_inertia if np.isscalar(hub_inertia) else np.asarray(hub_inertia.value)[2])
    tip_y = 3 * tip + 1                                       # rows of q_f of the tip-face y displacements
    if modes is None:
        tip_rows = np.array([system.nodes[body.node_numbers[1 + node]].coordinate_indices[1] for node in tip])
        tip_weights = np.zeros(mass.shape[0])
        tip_weights[tip_y] = 1.0 / tip.size
        return SlewModel(assembled, body, hub_node, hub_node.coordinate_indices[[3, 6]],
                         body.coordinate_indices[7:], tip_rows, hub_zz + beam_inertia, first_frequency, mass,
                         stiffness, length, mass, stiffness, tip_weights)
    invariants = body.invariants
    return SlewModel(assembled, body, hub_node, hub_node.coordinate_indices[[3, 6]], body.coordinate_indices[7:],
                     np.zeros(0, dtype=int), hub_zz + beam_inertia, first_frequency, mass, stiffness, length,
                     invariants.mass_reduced, invariants.stiffness_reduced,
                     invariants.mode_basis[tip_y].mean(axis=0), invariants.mode_basis)

