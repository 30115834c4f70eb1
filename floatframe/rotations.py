"""Euler parameters: rotation matrix and the matrices G relating angular velocity to theta_t.

Euler parameters theta = [theta0, theta1, theta2, theta3] with theta0 the scalar part and
|theta| = 1. All functions accept CasADi symbols or NumPy arrays of length 4.
"""
from __future__ import annotations

import casadi as ca
import numpy as np


def _stack(rows, like):
    if isinstance(like, (ca.SX, ca.MX, ca.DM)):
        return ca.vertcat(*[ca.horzcat(*row) for row in rows])
    return np.array(rows, dtype=float)


def rotation_matrix(theta):
    """A(theta), 3x3: transforms body-fixed (local) vectors to global ones."""
    t0, t1, t2, t3 = (theta[i] for i in range(4))
    return _stack([
        [t0 * t0 + t1 * t1 - t2 * t2 - t3 * t3, 2 * (t1 * t2 - t0 * t3), 2 * (t1 * t3 + t0 * t2)],
        [2 * (t1 * t2 + t0 * t3), t0 * t0 - t1 * t1 + t2 * t2 - t3 * t3, 2 * (t2 * t3 - t0 * t1)],
        [2 * (t1 * t3 - t0 * t2), 2 * (t2 * t3 + t0 * t1), t0 * t0 - t1 * t1 - t2 * t2 + t3 * t3],
    ], theta)


def g_local(theta):
    """G_local(theta), 3x4: body-fixed angular velocity omega_b = G_local theta_t."""
    t0, t1, t2, t3 = (theta[i] for i in range(4))
    return _stack([
        [-2 * t1, 2 * t0, 2 * t3, -2 * t2],
        [-2 * t2, -2 * t3, 2 * t0, 2 * t1],
        [-2 * t3, 2 * t2, -2 * t1, 2 * t0],
    ], theta)


def g_global(theta):
    """G(theta), 3x4: global angular velocity omega = G theta_t."""
    t0, t1, t2, t3 = (theta[i] for i in range(4))
    return _stack([
        [-2 * t1, 2 * t0, -2 * t3, 2 * t2],
        [-2 * t2, 2 * t3, 2 * t0, -2 * t1],
        [-2 * t3, -2 * t2, 2 * t1, 2 * t0],
    ], theta)


def skew(vector):
    """The 3x3 matrix with skew(a) @ b = a x b."""
    x, y, z = (vector[i] for i in range(3))
    return _stack([[0 * x, -z, y], [z, 0 * x, -x], [-y, x, 0 * x]], vector)


def euler_parameters_from_rotation_matrix(matrix) -> np.ndarray:
    """Euler parameters (theta0 >= 0) of a proper rotation matrix (Shepperd's method)."""
    a = np.asarray(matrix, dtype=float)
    trace = np.trace(a)
    candidates = [trace, a[0, 0], a[1, 1], a[2, 2]]
    k = int(np.argmax(candidates))
    if k == 0:
        t0 = 0.5 * np.sqrt(1 + trace)
        theta = [t0, (a[2, 1] - a[1, 2]) / (4 * t0), (a[0, 2] - a[2, 0]) / (4 * t0), (a[1, 0] - a[0, 1]) / (4 * t0)]
    else:
        i, j, l = [(0, 1, 2), (1, 2, 0), (2, 0, 1)][k - 1]
        ti = 0.5 * np.sqrt(1 + 2 * a[i, i] - trace)
        theta = np.zeros(4)
        theta[1 + i] = ti
        theta[0] = (a[l, j] - a[j, l]) / (4 * ti)
        theta[1 + j] = (a[j, i] + a[i, j]) / (4 * ti)
        theta[1 + l] = (a[l, i] + a[i, l]) / (4 * ti)
    theta = np.asarray(theta, dtype=float)
    return theta if theta[0] >= 0 else -theta


def euler_parameters_t(angular_velocity, theta) -> np.ndarray:
    """theta_t for a global angular velocity: theta_t = G(theta)^T omega / 4 (valid for |theta| = 1)."""
    return 0.25 * g_global(np.asarray(theta, dtype=float)).T @ np.asarray(angular_velocity, dtype=float)


def tait_bryan_xyz(matrix):
    """Tait-Bryan angles [phi_x, phi_y, phi_z] [rad] of a rotation matrix A = A_x(phi_x) A_y(phi_y) A_z(phi_z).

    The convention of Exudyn's ``Rotation`` output of Euler-parameter nodes. ``matrix`` is a 3x3
    CasADi expression or NumPy array; phi_y lies in [-pi/2, pi/2] (singular at |phi_y| = pi/2).
    """
    symbolic = isinstance(matrix, (ca.SX, ca.MX, ca.DM))
    atan2, sqrt, fabs = (ca.atan2, ca.sqrt, ca.fabs) if symbolic else (np.arctan2, np.sqrt, np.abs)
    a = matrix if symbolic else np.asarray(matrix, dtype=float)
    angles = [atan2(-a[1, 2], a[2, 2]), atan2(a[0, 2], sqrt(fabs(1.0 - a[0, 2] * a[0, 2]))), atan2(-a[0, 1], a[0, 0])]
    return ca.vertcat(*angles) if symbolic else np.array(angles)


def rotation_matrix_rows(matrix):
    """The 9 entries of a 3x3 rotation matrix row by row (Exudyn's ``RotationMatrix`` output)."""
    if isinstance(matrix, (ca.SX, ca.MX, ca.DM)):
        return ca.vec(matrix.T)
    return np.asarray(matrix, dtype=float).reshape(-1)
