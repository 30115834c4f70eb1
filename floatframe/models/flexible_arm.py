"""A robot-like arm in a horizontal plane: a rigid upper link and a flexible forearm on two revolute joints,
driven by joint torques.

The shoulder joint holds the upper link (rigid bar, length L1, an ObjectRigidBody with its node at its
centre) at the origin, turning about the global z axis; the elbow joint holds the forearm (flexible, length
L2, ``floatframe.models.flexible_link``) at the upper link's tip. No gravity (the plane is horizontal). The
shoulder torque tau_1 acts on the upper link (the ground takes -tau_1), the elbow torque tau_2 on the
forearm's root face (the upper link takes -tau_2). It starts at rest, stretched along +x.

The torques are functions of time ``t -> (tau_1, tau_2)`` [N m]; the default is a smooth pulse of 0.3 s
that turns the arm and leaves it vibrating, free, afterwards. With a stiff forearm the arm follows the rigid
two-link chain (``floatframe.models.rigid_two_link``) driven by the same torques. With ``controlled=True`` the
torques are the Inputs "shoulder torque" and "elbow torque" instead, applied by joint motors
(TorsionalSpringDampers of zero stiffness): the model of the arm's optimal control (``floatframe.ocp.arm``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from floatframe import components as c
from floatframe.components.base import checked_keywords
from floatframe.models.flexible_link import ALUMINIUM, FlexibleLink, add_flexible_link
from floatframe.models.rigid_two_link import RigidTwoLink
from floatframe.parameters import Input
from floatframe.assembly import System

PULSE = 0.3  # [s]


def default_torques(t):
    """tau_1 = 2 sin^2(pi t / T) N m and tau_2 = -0.5 sin(2 pi t / T) N m for t < T = 0.3 s, then zero (written
    without a branch on t, so that it traces symbolically)."""
    pulse = t < PULSE
    return (2.0 * np.sin(np.pi * t / PULSE) ** 2 * pulse, -0.5 * np.sin(2 * np.pi * t / PULSE) * pulse)


def _no_torque(t):
    """The motors' signal until one is set: no torque."""
    return 0.0


@dataclass
class FlexibleArm:
    """A built arm and the numbers to run and read it."""

    system: System
    upper_link: int             # ObjectRigidBody
    forearm: FlexibleLink
    length1: float
    mass1: float
    inertia1: float             # J_1 about its centre, about z [kg m^2]
    torques: object             # t -> (tau_1, tau_2)
    tip_sensor: int             # SensorSuperElement: Position of the forearm's tip-face centre
    joints: tuple               # (shoulder, elbow) RevoluteJoint numbers
    deflection_sensor: int = -1  # SensorSuperElement: DisplacementLocal of the tip-face centre (forearm frame)
    upper_node: int = -1        # the upper link's NodeRigidBodyEP
    assembled: object = None    # the assembled system, where the caller assembled it (floatframe.ocp.arm)
    h: float = 1e-3
    spectral_radius: float = 0.8

    def rigid_reference(self) -> RigidTwoLink:
        return RigidTwoLink(self.mass1, self.length1, self.inertia1, self.forearm.mass, self.forearm.length,
                            self.forearm.inertia_about_centre)

    def rigid_tip(self, result) -> np.ndarray:
        """The rigid arm's forearm tip (k, 3) at the result's times."""
        return self.rigid_tip_positions(result.t)

    def rigid_tip_positions(self, t_grid) -> np.ndarray:
        """Tip of the forearm (k, 3) of the rigid arm driven by the same torques, on ``t_grid``."""
        reference = self.rigid_reference()
        theta, _ = reference.solve(t_grid, (0.5 * np.pi, 0.5 * np.pi), torques=self.torques)
        return reference.tip_positions(theta)


@checked_keywords
def build_flexible_arm(length1=0.4, length2=0.5, width=0.01, modes: int | None = 4, n_elements=100,
                       stiffness_scale=1.0, torques=default_torques, controlled=False,
                       craig_bampton=True, element="Hex8") -> FlexibleArm:
    """Build the arm; ``modes=None`` makes the forearm the full FFRF mesh, ``craig_bampton`` chooses the basis of
    the reduced forearm (see flexible_link). ``element``: the forearm's hexahedra, "Hex8" (the default, with
    elements half as long as the bar is wide: first clamped bending frequency 7 % above Euler-Bernoulli's, sag
    13 % short; kept because the arm OCP, floatframe.ocp.arm, is tuned on it) or "Hex20" (with n_elements=20:
    within 0.6 % and 1.1 %, tests/models/test_links.py).

    ``controlled=True``: the joint torques are the Inputs "shoulder torque" and "elbow torque" (size 1, N m;
    zero until set with ``assembled.set_input``) and ``torques`` is not used."""
    system = System()
    mass1 = ALUMINIUM["density"] * length1 * (2 * width) ** 2       # the upper link: section 2w x 2w
    transverse = mass1 * (length1 ** 2 + (2 * width) ** 2) / 12.0
    node1 = system.add(c.NodeRigidBodyEP([0.5 * length1, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]))
    upper = system.add(c.ObjectRigidBody(node1, mass1, [mass1 * (2 * width) ** 2 / 6.0, transverse, transverse,
                                                        0, 0, 0], name="upper link"))
    forearm = add_flexible_link(system, length2, width, n_elements, modes, craig_bampton,
                                stiffness_scale=stiffness_scale, position=(length1, 0.0, 0.0), name="forearm",
                                element=element)
    ground = system.add(c.ObjectGround())
    upper_root = system.add(c.MarkerBodyRigid(upper, (-0.5 * length1, 0.0, 0.0)))
    upper_tip = system.add(c.MarkerBodyRigid(upper, (0.5 * length1, 0.0, 0.0)))
    ground_frame = system.add(c.MarkerBodyRigid(ground))
    shoulder = system.add(c.RevoluteJoint([ground_frame, upper_root], name="shoulder"))
    elbow = system.add(c.RevoluteJoint([upper_tip, forearm.root_marker], name="elbow"))
    if controlled:   # motors: +tau on marker 0 (the driven body), -tau on marker 1 (the body that drives it)
        system.add(c.TorsionalSpringDamper([upper_root, ground_frame], 0.0, torque=Input("shoulder torque", signal=_no_torque),
                                           name="shoulder motor"))
        system.add(c.TorsionalSpringDamper([forearm.root_marker, upper_tip], 0.0, torque=Input("elbow torque", signal=_no_torque),
                                           name="elbow motor"))
        torques = None
    else:
        system.add(c.LoadTorqueVector(upper_root, lambda t: [0.0, 0.0, torques(t)[0]], name="shoulder torque"))
        system.add(c.LoadTorqueVector(upper_tip, lambda t: [0.0, 0.0, -torques(t)[1]], name="elbow reaction"))
        system.add(c.LoadTorqueVector(forearm.root_marker, lambda t: [0.0, 0.0, torques(t)[1]], name="elbow torque"))
    tip = system.add(c.SensorSuperElement(forearm.body, forearm.tip_node, "Position"))
    deflection = system.add(c.SensorSuperElement(forearm.body, forearm.tip_node, "DisplacementLocal"))
    return FlexibleArm(system, upper, forearm, length1, mass1, transverse, torques, tip, (shoulder, elbow),
                       deflection_sensor=deflection, upper_node=node1)
