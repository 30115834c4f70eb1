"""Mechanical energy of an assembled model, for the checks of the ready models: kinetic, elastic and gravity.

- kinetic T = 1/2 v^T M(q) v with the assembled mass matrix (the Hessian of T in the coordinates, Euler
  parameters included);
- elastic U = 1/2 q_f^T K q_f of each FFRF body (zeta^T K_red zeta for a reduced one);
- gravity V = -g . sum_b m_b x_b of the bodies' centres of mass x_b, with g [m/s^2] global.

Bodies: ObjectRigidBody (centre of mass anywhere), ObjectMassPoint, ObjectMass1D, ObjectFFRF,
ObjectFFRFReducedOrder (the ground has none).
Components that store energy otherwise (spring-dampers) are refused, so that a total is never silently
incomplete.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from floatframe import components as c
from floatframe import rotations
from floatframe.components.base import ModelError
from floatframe.components.connectors import Connector



def stores_no_energy(item) -> bool:
    """The ground and ideal constraints (connectors with Lagrange multipliers) store no energy."""
    return isinstance(item, c.ObjectGround) or (isinstance(item, Connector) and item.n_constraints > 0)


@dataclass
class Energy:
    """Energies [J] at one state."""

    kinetic: float
    elastic: float
    gravity: float

    @property
    def total(self) -> float:
        return self.kinetic + self.elastic + self.gravity


def _total(node, q):
    return node.reference_coordinates + q[node.coordinate_indices]


def _first_moment_and_elastic(body, q):
    """(m x_com (3,), elastic energy) of one body at the coordinates q."""
    if isinstance(body, c.ObjectMassPoint):
        return float(body.mass[0]) * _total(body.node, q), 0.0
    if isinstance(body, c.ObjectMass1D):                   # along the rotated x axis from its reference point
        position = body.reference_position + body.reference_rotation[:, 0] * _total(body.node, q)[0]
        return float(body.mass[0]) * position, 0.0
    if isinstance(body, c.ObjectRigidBody):
        mass = float(np.asarray(body.mass).reshape(-1)[0])
        pose = _total(body.node, q)
        offset = np.asarray(getattr(body, "center_of_mass", np.zeros(3)), dtype=float)
        return mass * (pose[:3] + rotations.rotation_matrix(pose[3:]) @ offset), 0.0
    if isinstance(body, c.FloatingFrameBody):
        frame = _total(body.rigid_node, q)
        flexible = q[body.coordinate_indices[7:]]
        if isinstance(body, c.ObjectFFRFReducedOrder):
            moment_matrix, stiffness = body.invariants.phit_t_psi, body.invariants.stiffness_reduced
        else:
            moment_matrix, stiffness = body.mass_phi_t.T, body.stiffness_matrix_ff
        local_moment = body.mass * body.center_of_mass + moment_matrix @ flexible    # m chi + S_f q_f
        return (body.mass * frame[:3] + rotations.rotation_matrix(frame[3:]) @ local_moment,
                0.5 * float(flexible @ (stiffness @ flexible)))
    raise ModelError(f"mechanical_energy: {body.label} stores energy in a way it does not know (it knows rigid "
                     f"bodies, mass points, Mass1D, FFRF bodies and ideal constraints)")


def mechanical_energy(assembled, t, q, v, gravity=(0.0, 0.0, 0.0)) -> Energy:
    """The energies of the model at (t, q, v); ``gravity`` g [m/s^2] of the potential."""
    kinetic = 0.5 * float(v @ (assembled.mass_matrix(t, q, v) @ v))
    moment, elastic = np.zeros(3), 0.0
    for item in assembled.system.objects:
        if stores_no_energy(item):
            continue
        first_moment, body_elastic = _first_moment_and_elastic(item, q)
        moment, elastic = moment + first_moment, elastic + body_elastic
    return Energy(kinetic, elastic, -float(np.asarray(gravity, dtype=float) @ moment))
