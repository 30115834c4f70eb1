"""A flexible beam clamped to a rigid hub that turns about the global z axis, driven by a hub torque.

The beam (length L along x, square section w x w, Hex8 ``block_mesh(L, w, w, n_elements, 1, 1)``) is an
FFRF body whose reference-frame node is the hub: an ObjectRigidBody on that node adds the hub inertia,
CoordinateConstraints fix the node's position and its Euler parameters theta1 = theta2 = 0 (so that the
only rotation left is about z, by the angle phi = 2 atan2(theta3, theta0)), and the flexible
coordinates of the mesh nodes at the root face x = 0 are fixed (the beam is clamped to the hub; this
also makes the floating frame well defined). A ``LoadTorqueVector`` with the Input "torque" (size 3,
only its z entry is used by the slew) drives the hub.

The stiffness matrix is scaled so that the first bending frequency of the beam clamped at its root
is ``first_frequency`` [Hz]: a soft beam whose vibration matters on the time scale of the slew.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import numpy as np
import scipy.linalg

from floatframe.components import (CoordinateConstraint, LoadTorqueVector, MarkerNodeCoordinate, MarkerNodeRigid,
                                   NodePointGround, ObjectRigidBody)
from floatframe.components.ffrf import add_ffrf_body
from floatframe.fem import block_mesh, linear_elastic_matrices
from floatframe.parameters import Input
from floatframe.system import System


@dataclass
class SlewModel:
    """An assembled slew model and the indices an OCP needs.

    ``hub_rows`` (theta0, theta3) coordinate rows of the hub's Euler parameters; ``flexible_rows`` the
    rows of all flexible coordinates; ``tip_rows`` the y rows of the tip-face nodes; ``rigid_inertia``
    J = hub + beam inertia about z [kg m^2]; ``mass_ff``, ``stiffness_ff`` the beam's FE matrices.
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

    def hub_angle(self, q):
        """phi = 2 atan2(theta3, theta0) [rad] for a coordinate vector q (NumPy or CasADi)."""
        theta0 = self.assembled.q_reference[self.hub_rows[0]] + q[int(self.hub_rows[0])]
        theta3 = self.assembled.q_reference[self.hub_rows[1]] + q[int(self.hub_rows[1])]
        return 2 * (ca.atan2(theta3, theta0) if isinstance(q, (ca.SX, ca.MX)) else np.arctan2(theta3, theta0))

    def hub_rate(self, q, v):
        """omega_z = 2 (theta0 theta3_t - theta3 theta0_t) [rad/s] (theta1 = theta2 = 0)."""
        i0, i3 = int(self.hub_rows[0]), int(self.hub_rows[1])
        theta0 = self.assembled.q_reference[i0] + q[i0]
        theta3 = self.assembled.q_reference[i3] + q[i3]
        return 2 * (theta0 * v[i3] - theta3 * v[i0])

    def vibration_energy(self, q, v):
        """Elastic plus relative kinetic energy of the beam, 1/2 q_f^T K q_f + 1/2 v_f^T M v_f [J]."""
        q_f, v_f = q[self.flexible_rows.tolist()], v[self.flexible_rows.tolist()]
        if isinstance(q_f, (ca.SX, ca.MX)):
            return 0.5 * ca.bilin(ca.DM(self.stiffness_ff), q_f, q_f) + 0.5 * ca.bilin(ca.DM(self.mass_ff), v_f, v_f)
        return 0.5 * q_f @ self.stiffness_ff @ q_f + 0.5 * v_f @ self.mass_ff @ v_f

    def tip_deflection(self, q):
        """Mean body-fixed y displacement of the tip-face nodes [m], for q (n,) or (k, n)."""
        return np.asarray(q)[..., self.tip_rows].mean(axis=-1)


def clamped_first_frequency(mass, stiffness, free_rows) -> float:
    """Lowest natural frequency [Hz] of the FE model with all other rows fixed."""
    k = stiffness[np.ix_(free_rows, free_rows)]
    m = mass[np.ix_(free_rows, free_rows)]
    eigenvalues = scipy.linalg.eigh(k, m, eigvals_only=True, subset_by_index=[0, 0])
    return float(np.sqrt(eigenvalues[0]) / (2 * np.pi))


def build_slew(length: float = 1.0, width: float = 0.05, n_elements: int = 2, first_frequency: float = 1.0,
               hub_inertia: float = 2.0, density: float = 2700.0, youngs_modulus: float = 7.0e10,
               poissons_ratio: float = 0.3) -> SlewModel:
    """Build and assemble the hub-beam model (SI units; ``hub_inertia`` may be a Parameter)."""
    mesh = block_mesh(length, width, width, n_elements, 1, 1)
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus, poissons_ratio, density)
    mass, stiffness = mass.toarray(), stiffness.toarray()
    root = np.flatnonzero(np.abs(mesh.nodes[:, 0]) < 1e-12)
    tip = np.flatnonzero(np.abs(mesh.nodes[:, 0] - length) < 1e-12)
    fixed = np.concatenate([3 * root + k for k in range(3)])
    free = np.setdiff1d(np.arange(stiffness.shape[0]), fixed)
    stiffness *= (first_frequency / clamped_first_frequency(mass, stiffness, free)) ** 2

    system = System()
    body = add_ffrf_body(system, mesh.nodes, mass, stiffness, name="beam")
    hub = body.node_numbers[0]
    inertia = hub_inertia if not np.isscalar(hub_inertia) else [hub_inertia] * 3 + [0.0] * 3
    system.add(ObjectRigidBody(hub, 1.0, inertia, name="hub"))
    ground = system.add(MarkerNodeCoordinate(system.add(NodePointGround((0.0, 0.0, 0.0))), 0))

    def fix(node, coordinate, name):
        marker = system.add(MarkerNodeCoordinate(node, coordinate))
        system.add(CoordinateConstraint([ground, marker], name=name))

    for coordinate, label in ((0, "x"), (1, "y"), (2, "z"), (4, "theta1"), (5, "theta2")):
        fix(hub, coordinate, f"hub {label}")
    for node in root:
        for coordinate in range(3):
            fix(body.node_numbers[1 + node], coordinate, f"clamp node {node} {'xyz'[coordinate]}")
    system.add(LoadTorqueVector(system.add(MarkerNodeRigid(hub)), Input("torque", 3), name="hub torque"))
    assembled = system.assemble()

    hub_node = system.nodes[hub]
    tip_rows = np.array([system.nodes[body.node_numbers[1 + node]].coordinate_indices[1] for node in tip])
    beam_inertia = float(body.inertia[2, 2])
    hub_zz = float(hub_inertia if np.isscalar(hub_inertia) else np.asarray(hub_inertia.value)[2])
    return SlewModel(assembled, body, hub_node, hub_node.coordinate_indices[[3, 6]], body.coordinate_indices[7:],
                     tip_rows, hub_zz + beam_inertia, first_frequency, mass, stiffness, length)
