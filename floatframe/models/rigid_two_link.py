"""The rigid two-link chain in a plane, the reference of the double pendulum and the flexible arm.

Link i (mass m_i, length L_i, centre of mass at c_i = L_i / 2 along it, inertia J_i about its centre)
turns about the joint at its root; link 1's root is fixed, link 2's is at link 1's tip. With the absolute
angles theta_i of the links, measured from the direction ``-e_y`` (downward for gravity g e_y, g < 0), the
equations of motion are

    M(theta) theta'' = Q - h(theta, theta') + gravity terms,
    M = [[J1 + m1 c1^2 + m2 L1^2, m2 L1 c2 cos(theta1 - theta2)], [m2 L1 c2 cos(theta1 - theta2), J2 + m2 c2^2]],
    h = m2 L1 c2 sin(theta1 - theta2) [theta2'^2, -theta1'^2],
    gravity terms = -g_down [(m1 c1 + m2 L1) sin theta1, m2 c2 sin theta2]  (g_down = -g_y),

and joint torques tau_1 (ground on link 1) and tau_2 (link 1 on link 2) give Q = [tau_1 - tau_2, tau_2].
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp


@dataclass(frozen=True)
class RigidTwoLink:
    """Masses [kg], lengths [m] and inertias about the centres [kg m^2] of the two links."""

    mass1: float
    length1: float
    inertia1: float
    mass2: float
    length2: float
    inertia2: float

    def mass_and_force(self, theta, omega, gravity_down=0.0):
        """M(theta) (2, 2) and the torque-free right-hand side -h(theta, theta') + gravity terms (2,)."""
        m1, l1, j1, m2, l2, j2 = (self.mass1, self.length1, self.inertia1, self.mass2, self.length2, self.inertia2)
        c1, c2 = 0.5 * l1, 0.5 * l2
        coupling = m2 * l1 * c2
        (theta1, theta2), (omega1, omega2) = theta, omega
        mass = np.array([[j1 + m1 * c1 ** 2 + m2 * l1 ** 2, coupling * np.cos(theta1 - theta2)],
                         [coupling * np.cos(theta1 - theta2), j2 + m2 * c2 ** 2]])
        force = np.array([-coupling * np.sin(theta1 - theta2) * omega2 ** 2
                          - (m1 * c1 + m2 * l1) * gravity_down * np.sin(theta1),
                          coupling * np.sin(theta1 - theta2) * omega1 ** 2 - m2 * c2 * gravity_down * np.sin(theta2)])
        return mass, force

    def solve(self, t_grid, theta0, omega0=(0.0, 0.0), gravity_down=0.0, torques=None, rtol=1e-12, atol=1e-12):
        """theta (k, 2) and theta' (k, 2) on ``t_grid`` (scipy DOP853); ``torques(t) -> (tau_1, tau_2)`` [N m]."""
        def rates(t, y):
            tau1, tau2 = (0.0, 0.0) if torques is None else torques(t)
            mass, force = self.mass_and_force(y[:2], y[2:], gravity_down)
            return [*y[2:], *np.linalg.solve(mass, force + [tau1 - tau2, tau2])]

        t_grid = np.asarray(t_grid, dtype=float)
        solution = solve_ivp(rates, (t_grid[0], t_grid[-1]), [*theta0, *omega0], method="DOP853", t_eval=t_grid,
                             rtol=rtol, atol=atol, max_step=np.inf)
        return solution.y[:2].T, solution.y[2:].T

    def joint_torques(self, theta, omega, alpha, gravity_down=0.0) -> np.ndarray:
        """Inverse dynamics: the joint torques (tau_1, tau_2) [N m] that give the angular accelerations
        ``alpha`` at (theta, theta'), from M alpha = Q - h + gravity terms, Q = [tau_1 - tau_2, tau_2]."""
        mass, force = self.mass_and_force(theta, omega, gravity_down)
        generalized = mass @ np.asarray(alpha, dtype=float) - force
        return np.array([generalized[0] + generalized[1], generalized[1]])

    def tip_positions(self, theta) -> np.ndarray:
        """Tip of link 2 (k, 3) for the angles theta (k, 2) (measured from -e_y)."""
        theta1, theta2 = theta[:, 0], theta[:, 1]
        return np.column_stack([self.length1 * np.sin(theta1) + self.length2 * np.sin(theta2),
                                -self.length1 * np.cos(theta1) - self.length2 * np.cos(theta2),
                                np.zeros_like(theta1)])
