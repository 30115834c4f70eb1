"""A slider-crank with a flexible connecting rod, driven by a torque on the crank, with a piston.

In the x-y plane, no gravity. The crank (rigid bar, length r, an ObjectRigidBody with its node at its
centre) turns about the global z axis at the origin, driven by the torque ``torque(t)`` [N m] about z. The
connecting rod (flexible, length l, ``floatframe.models.flexible_link``) joins the crank pin to the piston
(a rigid block of mass ``piston_mass``) that slides along the x axis. It starts at top dead centre, crank
and rod along +x, at rest.

The joints are chosen so that a rigid rod would give no redundant constraint (a planar mechanism made of
revolute joints only is over-constrained in 3D): a revolute joint between ground and crank (5 equations), a
spherical joint at the crank pin (3), a universal joint at the piston pin (4: it leaves the rod's swing in
the plane and its tilt out of it free, and holds its spin about its own axis) and a prismatic joint along x
between ground and piston (5); 17 equations on 18 rigid-body coordinates leave the one degree of freedom.

With a rigid rod the piston follows the crank angle phi by x_p = r cos phi + sqrt(l^2 - r^2 sin^2 phi), and
the work of the torque equals the change of kinetic energy; both are checked in tests/models.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from floatframe import components as c
from floatframe.components.base import checked_keywords
from floatframe.models.flexible_link import ALUMINIUM, FlexibleLink, add_flexible_link
from floatframe.assembly import System

# joint frame of the universal joint on the piston: its x axis (a free rotation) along the global z axis
JOINT_X_ALONG_Z = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])


def default_torque(t):
    """0.2 N m about z for the first 0.1 s, then none: the crank spins up, then runs freely (written without a
    branch on t, so that it traces symbolically)."""
    return [0.0, 0.0, 0.2 * (t < 0.1)]


@dataclass
class SliderCrank:
    """A built slider-crank and the numbers to run and read it."""

    system: System
    crank: int                  # ObjectRigidBody
    crank_node: int
    rod: FlexibleLink
    piston: int                 # ObjectRigidBody
    crank_length: float
    torque: object              # t -> (3,) [N m]
    piston_sensor: int          # SensorBody: Position of the piston
    crank_sensor: int           # SensorNode: AngularVelocity of the crank
    tip_sensor: int             # SensorSuperElement: Position of the rod's tip-face centre
    h: float = 1e-3
    spectral_radius: float = 0.8

    def crank_angle(self, result) -> np.ndarray:
        """phi (k,) [rad], unwrapped, from the crank's Euler parameters (a rotation about z)."""
        node = self.system.nodes[self.crank_node]
        theta = result.q[:, node.coordinate_indices[3:]] + node.reference_coordinates[3:]
        return np.unwrap(2.0 * np.arctan2(theta[:, 3], theta[:, 0]))

    def rigid_tip(self, result) -> np.ndarray:
        """The rigid mechanism's rod tip, the piston pin (x_p(phi), 0, 0) (k, 3), at the result's crank angles."""
        x = self.rigid_piston_position(self.crank_angle(result))
        return np.column_stack([x, np.zeros_like(x), np.zeros_like(x)])

    def rigid_piston_position(self, crank_angle) -> np.ndarray:
        """x_p = r cos phi + sqrt(l^2 - r^2 sin^2 phi) [m] of the rigid mechanism."""
        r, l = self.crank_length, self.rod.length
        return r * np.cos(crank_angle) + np.sqrt(l ** 2 - (r * np.sin(crank_angle)) ** 2)


@checked_keywords
def build_slider_crank(crank_length=0.1, rod_length=0.3, width=0.01, piston_mass=0.2, modes: int | None = 4,
                       n_elements=12, stiffness_scale=1.0, torque=default_torque) -> SliderCrank:
    """Build the slider-crank; ``modes=None`` makes the rod the full FFRF mesh (see flexible_link).

    The rod is ``n_elements`` Hex20 along, 2 x 2 across: with 12 (elements 2.5 widths long) its first clamped
    bending frequency is 0.9 % above Euler-Bernoulli's and its sag under its own weight 1.8 % short of it
    (tests/models/test_links.py); the 60 Hex8 of the rod before issue 29 were 7 % and 13 % off."""
    system = System()
    density = ALUMINIUM["density"]
    crank_mass = density * crank_length * width ** 2
    transverse = crank_mass * (crank_length ** 2 + width ** 2) / 12.0
    crank_node = system.add(c.NodeRigidBodyEP([0.5 * crank_length, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]))
    crank = system.add(c.ObjectRigidBody(crank_node, crank_mass,
                                         [crank_mass * width ** 2 / 6.0, transverse, transverse, 0, 0, 0],
                                         name="crank"))
    rod = add_flexible_link(system, rod_length, width, n_elements, modes, stiffness_scale=stiffness_scale,
                            position=(crank_length, 0.0, 0.0), name="rod", element="Hex20")
    piston_inertia = piston_mass * (2 * width) ** 2 / 6.0           # a cube of edge 2 w
    piston_node = system.add(c.NodeRigidBodyEP([crank_length + rod_length, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]))
    piston = system.add(c.ObjectRigidBody(piston_node, piston_mass, [piston_inertia] * 3 + [0.0] * 3, name="piston"))
    ground = system.add(c.ObjectGround())
    ground_marker = system.add(c.MarkerBodyRigid(ground))
    crank_root = system.add(c.MarkerBodyRigid(crank, (-0.5 * crank_length, 0.0, 0.0)))
    crank_pin = system.add(c.MarkerBodyRigid(crank, (0.5 * crank_length, 0.0, 0.0)))
    piston_marker = system.add(c.MarkerBodyRigid(piston))
    system.add(c.RevoluteJoint([ground_marker, crank_root], name="crank bearing"))
    system.add(c.SphericalJoint([crank_pin, rod.root_marker], name="crank pin"))
    system.add(c.UniversalJoint([piston_marker, rod.tip_marker], rotation_marker0=JOINT_X_ALONG_Z, name="piston pin"))
    system.add(c.PrismaticJoint([ground_marker, piston_marker], name="cylinder"))
    system.add(c.LoadTorqueVector(crank_root, torque))
    piston_sensor = system.add(c.SensorBody(piston, "Position"))
    crank_sensor = system.add(c.SensorNode(crank_node, "AngularVelocity"))
    tip_sensor = system.add(c.SensorSuperElement(rod.body, rod.tip_node, "Position"))
    return SliderCrank(system, crank, crank_node, rod, piston, crank_length, torque, piston_sensor, crank_sensor,
                       tip_sensor)
