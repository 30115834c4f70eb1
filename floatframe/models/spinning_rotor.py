"""A rigid rotor spinning on two Cartesian spring-damper supports: the rigid stand-in for Exudyn's
reduced-order rotor-disc performance model (the same supports, spin and step).

A rigid body (mass m, inertia J about its centre of mass, with a small product of inertia J_xz, a
dynamic unbalance) has its centre of mass at (0, 0, L/2) on the z axis. The body points (0, 0, -L/2) and
(0, 0, +L/2) are tied to the ground points (0, 0, 0) and (0, 0, L) by spring-dampers, stiffness
k = 2e8 N/m per axis (the right one without axial stiffness) and damping d = 0.01 k. The body starts
spinning about z at ``spin`` [rad/s] and moving sideways at ``lateral_velocity`` [m/s] along x; the
unbalance makes it wobble on the supports. No gravity.
7 coordinates and 1 constraint (the Euler-parameter norm).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from floatframe.components import (CartesianSpringDamper, MarkerBodyPosition, NodeRigidBodyEP, ObjectGround,
                                   ObjectRigidBody, SensorNode)
from floatframe.assembly import System

SUPPORT_STIFFNESS = 2e8  # k [N/m], as in Exudyn's perfObjectFFRFreducedOrder.py
SUPPORT_DAMPING = 0.01 * SUPPORT_STIFFNESS  # d [N s/m]


@dataclass
class SpinningRotorInfo:
    """Parameters of a built spinning rotor and the numbers of its items."""

    mass: float
    inertia: list            # [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy] [kg m^2]
    length: float
    spin: float
    node: int
    position_sensor: int
    angular_velocity_sensor: int


def build_spinning_rotor(mass=30.0, inertia=(0.8, 0.8, 1.2, 0.0, 0.01, 0.0), length=0.5, spin=50 * 2 * np.pi,
                         lateral_velocity=0.01):
    """Build the rotor; returns (System, SpinningRotorInfo). ``inertia`` as Exudyn's six entries."""
    system = System()
    half = 0.5 * length
    # omega = G theta_t with G = 2 [-theta_1:3, theta_0 I - tilde(theta_1:3)]: at theta = [1, 0, 0, 0],
    # omega = spin e_z needs theta_t = [0, 0, 0, spin / 2]
    theta_rate = [0.0, 0.0, 0.0, 0.5 * spin]
    node = system.add(NodeRigidBodyEP([0.0, 0.0, half, 1.0, 0.0, 0.0, 0.0],
                                      initial_velocities=[lateral_velocity, 0.0, 0.0, *theta_rate]))
    body = system.add(ObjectRigidBody(node, mass, list(inertia), name="rotor"))
    ground = system.add(ObjectGround())
    k, d = SUPPORT_STIFFNESS, SUPPORT_DAMPING
    for body_point, ground_point, stiffness in (([0.0, 0.0, -half], [0.0, 0.0, 0.0], [k, k, k]),
                                                ([0.0, 0.0, half], [0.0, 0.0, length], [k, k, 0.0])):
        system.add(CartesianSpringDamper([system.add(MarkerBodyPosition(body, body_point)),
                                          system.add(MarkerBodyPosition(ground, ground_point))],
                                         stiffness, [d, d, d]))
    position = system.add(SensorNode(node, "Position"))
    angular_velocity = system.add(SensorNode(node, "AngularVelocity"))
    info = SpinningRotorInfo(mass, list(inertia), length, spin, node, position, angular_velocity)
    return system, info
