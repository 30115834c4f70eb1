"""A rigid pendulum built from floatframe components, with its closed-form and ODE references.

A rigid body (mass m, inertia J_c = m r_g^2 about its centre of mass, Euler-parameter node) hangs
from a spherical joint at the ground origin; the pivot is the body-fixed point (0, L, 0), so the
centre of mass lies a distance L below the pivot. Gravity acts along -y. Released at angle phi0 in
the x-y plane from rest, the body moves in that plane and the angle obeys

    (J_c + m L^2) phi'' = -m g L sin(phi),

with small-oscillation period T = 2 pi sqrt((J_c + m L^2) / (m g L)).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp

from floatframe.components import (LoadForceVector, MarkerBodyPosition, NodeRigidBodyEP, ObjectGround,
                                   ObjectRigidBody, SensorBody, SphericalJoint)
from floatframe.assembly import System


@dataclass
class PendulumInfo:
    """Parameters of a built pendulum and the numbers of its items."""

    length: float
    mass: float
    radius_of_gyration: float
    gravity: float
    angle0: float
    body: int
    joint: int
    position_sensor: int

    @property
    def pivot_inertia(self) -> float:
        """J_c + m L^2 [kg m^2]."""
        return self.mass * (self.radius_of_gyration ** 2 + self.length ** 2)

    @property
    def small_oscillation_period(self) -> float:
        """2 pi sqrt((J_c + m L^2) / (m g L)) [s]."""
        return 2 * np.pi * np.sqrt(self.pivot_inertia / (self.mass * self.gravity * self.length))

    def angle_reference(self, t_grid, rtol=1e-12, atol=1e-14) -> np.ndarray:
        """phi(t) on ``t_grid`` from the angle ODE, solved with scipy (DOP853)."""
        t_grid = np.asarray(t_grid, dtype=float)
        factor = self.mass * self.gravity * self.length / self.pivot_inertia
        solution = solve_ivp(lambda t, y: [y[1], -factor * np.sin(y[0])], (t_grid[0], t_grid[-1]),
                             [self.angle0, 0.0], method="DOP853", t_eval=t_grid, rtol=rtol, atol=atol)
        return solution.y[0]

    def position_reference(self, t_grid, **options) -> np.ndarray:
        """Centre-of-mass position (k, 3) from the angle ODE."""
        phi = self.angle_reference(t_grid, **options)
        return np.column_stack([self.length * np.sin(phi), -self.length * np.cos(phi), np.zeros_like(phi)])


def build_pendulum(length=1.0, mass=2.0, radius_of_gyration=0.2, gravity=9.81, angle0=0.3,
                   perturbation=0.0):
    """Build the pendulum; returns (System, PendulumInfo).

    ``perturbation`` [m] shifts the initial body position along x away from the joint, which makes
    the initial state inconsistent (for tests of the projection).
    """
    system = System()
    c, s = np.cos(angle0 / 2), np.sin(angle0 / 2)
    euler_parameters = [c, 0.0, 0.0, s]                 # rotation by angle0 about z
    centre = [length * np.sin(angle0) + perturbation, -length * np.cos(angle0), 0.0]
    node = system.add(NodeRigidBodyEP(centre + euler_parameters))
    inertia = mass * radius_of_gyration ** 2
    body = system.add(ObjectRigidBody(node, mass, [inertia, inertia, inertia, 0.0, 0.0, 0.0], name="pendulum"))
    ground = system.add(ObjectGround())
    joint = system.add(SphericalJoint([system.add(MarkerBodyPosition(ground)),
                                       system.add(MarkerBodyPosition(body, [0.0, length, 0.0]))], name="pivot"))
    system.add(LoadForceVector(system.add(MarkerBodyPosition(body)), [0.0, -mass * gravity, 0.0]))
    sensor = system.add(SensorBody(body, "Position"))
    info = PendulumInfo(length, mass, radius_of_gyration, gravity, angle0, body, joint, sensor)
    return system, info


def comparison(**options) -> dict:
    """The pendulum as ``floatframe compare`` runs it: assembled, its centre's position sensor, 2 s in 40 outputs
    (the fields of ``floatframe.compare.ComparisonModel``)."""
    system, info = build_pendulum(**options)
    return dict(system=system.assemble(), sensor=info.position_sensor, t_end=2.0, n_outputs=40, name="pendulum")
