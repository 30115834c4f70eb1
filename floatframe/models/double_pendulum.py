"""A double pendulum under gravity: a rigid first link and a flexible second link, on revolute joints.

Both links are aluminium bars of square section ``width`` along their local x axis, in the x-y plane,
gravity -y. Link 1 (rigid, length L1, an ObjectRigidBody with its node at its centre) turns about the
global z axis at the origin; link 2 (flexible, length L2, ``floatframe.models.flexible_link``: reduced on
Craig-Bampton modes of its end faces, or the full mesh) hangs from the tip of link 1 by a revolute joint
on its root face. Released at rest with both links along +x (horizontal).

The rigid double pendulum (``floatframe.models.rigid_two_link``) is the reference, which a stiff link 2
(``stiffness_scale`` large) follows.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from floatframe import components as c
from floatframe.models.flexible_link import ALUMINIUM, FlexibleLink, add_flexible_link
from floatframe.models.rigid_two_link import RigidTwoLink
from floatframe.assembly import System

GRAVITY = 9.81


@dataclass
class DoublePendulum:
    """A built double pendulum and the numbers to run and read it."""

    system: System
    link1: int                  # the ObjectRigidBody
    link2: FlexibleLink
    length1: float
    mass1: float
    inertia1: float             # J_1 about its centre, about z [kg m^2]
    gravity: tuple              # g [m/s^2], global
    tip_sensor: int             # SensorSuperElement: Position of the node at link 2's tip-face centre
    joints: tuple               # (ground-link 1, link 1-link 2) RevoluteJoint numbers
    h: float = 1e-3
    spectral_radius: float = 0.8

    def rigid_reference(self) -> RigidTwoLink:
        """The rigid double pendulum with the same links."""
        return RigidTwoLink(self.mass1, self.length1, self.inertia1, self.link2.mass, self.link2.length,
                            self.link2.inertia_about_centre)

    def rigid_tip(self, result) -> np.ndarray:
        """The rigid mechanism's tip of link 2 (k, 3) at the result's times."""
        return self.rigid_tip_positions(result.t)

    def rigid_tip_positions(self, t_grid) -> np.ndarray:
        """Tip of link 2 (k, 3) of the rigid double pendulum released from the horizontal, on ``t_grid``."""
        reference = self.rigid_reference()
        theta, _ = reference.solve(t_grid, (0.5 * np.pi, 0.5 * np.pi), gravity_down=-self.gravity[1])
        return reference.tip_positions(theta)


def build_double_pendulum(length1=0.5, length2=0.5, width=0.02, modes: int | None = 4, n_elements=50,
                          stiffness_scale=1.0, gravity=GRAVITY) -> DoublePendulum:
    """Build the double pendulum; ``modes=None`` makes link 2 the full FFRF mesh (see flexible_link)."""
    system = System()
    density = ALUMINIUM["density"]
    mass1 = density * length1 * width ** 2
    transverse = mass1 * (length1 ** 2 + width ** 2) / 12.0
    node1 = system.add(c.NodeRigidBodyEP([0.5 * length1, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]))
    link1 = system.add(c.ObjectRigidBody(node1, mass1, [mass1 * width ** 2 / 6.0, transverse, transverse, 0, 0, 0],
                                         name="link 1"))
    link2 = add_flexible_link(system, length2, width, n_elements, modes, stiffness_scale=stiffness_scale,
                              position=(length1, 0.0, 0.0), name="link 2")
    ground = system.add(c.ObjectGround())
    shoulder = system.add(c.RevoluteJoint([system.add(c.MarkerBodyRigid(ground)),
                                           system.add(c.MarkerBodyRigid(link1, (-0.5 * length1, 0.0, 0.0)))],
                                          name="pivot"))
    elbow = system.add(c.RevoluteJoint([system.add(c.MarkerBodyRigid(link1, (0.5 * length1, 0.0, 0.0))),
                                        link2.root_marker], name="elbow"))
    g = (0.0, -float(gravity), 0.0)
    for body in (link1, link2.body):
        system.add(c.LoadMassProportional(system.add(c.MarkerBodyMass(body)), g))
    tip = system.add(c.SensorSuperElement(link2.body, link2.tip_node, "Position"))
    return DoublePendulum(system, link1, link2, length1, mass1, transverse, g, tip, (shoulder, elbow))
