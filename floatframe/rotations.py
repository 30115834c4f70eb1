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


def rotation_matrix_unit_form(theta):
    """A_E(theta) = I + 2 theta0 e~ + 2 e~ e~ (e = theta_1..3), 3x3: the rotation matrix in the form that takes
    |theta| = 1 for granted (Exudyn's EP2RotationMatrix). It equals :func:`rotation_matrix` where |theta| = 1;
    off it (the norm drifts in the index-2 schemes) A_E is the one Exudyn evaluates, the other is |theta|^2
    times a rotation."""
    t0, t1, t2, t3 = (theta[i] for i in range(4))
    return _stack([
        [1 - 2 * (t2 * t2 + t3 * t3), 2 * (t1 * t2 - t0 * t3), 2 * (t1 * t3 + t0 * t2)],
        [2 * (t1 * t2 + t0 * t3), 1 - 2 * (t1 * t1 + t3 * t3), 2 * (t2 * t3 - t0 * t1)],
        [2 * (t1 * t3 - t0 * t2), 2 * (t2 * t3 + t0 * t1), 1 - 2 * (t1 * t1 + t2 * t2)],
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


# --- elementary rotations, Tait-Bryan angles, rotation vectors and homogeneous transformations -----
def _is_symbolic(value) -> bool:
    return isinstance(value, (ca.SX, ca.MX, ca.DM))


def _cos(angle):
    return ca.cos(angle) if _is_symbolic(angle) else np.cos(angle)


def _sin(angle):
    return ca.sin(angle) if _is_symbolic(angle) else np.sin(angle)


def rotation_matrix_x(angle):
    """A_x(angle), 3x3: rotation by ``angle`` [rad] about the first axis."""
    c, s = _cos(angle), _sin(angle)
    return _stack([[1 + 0 * c, 0 * c, 0 * c], [0 * c, c, -s], [0 * c, s, c]], angle)


def rotation_matrix_y(angle):
    """A_y(angle), 3x3: rotation by ``angle`` [rad] about the second axis."""
    c, s = _cos(angle), _sin(angle)
    return _stack([[c, 0 * c, s], [0 * c, 1 + 0 * c, 0 * c], [-s, 0 * c, c]], angle)


def rotation_matrix_z(angle):
    """A_z(angle), 3x3: rotation by ``angle`` [rad] about the third axis."""
    c, s = _cos(angle), _sin(angle)
    return _stack([[c, -s, 0 * c], [s, c, 0 * c], [0 * c, 0 * c, 1 + 0 * c]], angle)


def rotation_matrix_from_rot_xyz(angles):
    """A = A_x(a0) A_y(a1) A_z(a2), 3x3, for Tait-Bryan angles (a0, a1, a2) in rad (consecutive x, y, z)."""
    c0, s0 = _cos(angles[0]), _sin(angles[0])
    c1, s1 = _cos(angles[1]), _sin(angles[1])
    c2, s2 = _cos(angles[2]), _sin(angles[2])
    return _stack([[c1 * c2, -c1 * s2, s1],
                   [s0 * s1 * c2 + c0 * s2, -s0 * s1 * s2 + c0 * c2, -s0 * c1],
                   [-c0 * s1 * c2 + s0 * s2, c0 * s1 * s2 + s0 * c2, c0 * c1]], angles)


def rot_xyz_from_rotation_matrix(matrix):
    """Tait-Bryan angles (a0, a1, a2) in rad with A = A_x A_y A_z; a1 in [-pi/2, pi/2].

    The convention of Exudyn's ``Rotation`` output of Euler-parameter nodes and rigid bodies.
    ``matrix`` is a 3x3 NumPy array or CasADi expression. At the singularity cos(a1) = 0 only
    a0 + a2 (or a2 - a0) is defined: for a NumPy matrix a0 = 0 is returned.
    """
    if _is_symbolic(matrix):
        a = matrix
        return ca.vertcat(ca.atan2(-a[1, 2], a[2, 2]), ca.atan2(a[0, 2], ca.sqrt(a[1, 2] ** 2 + a[2, 2] ** 2)),
                          ca.atan2(-a[0, 1], a[0, 0]))
    a = np.asarray(matrix, dtype=float)
    cos_a1 = np.hypot(a[1, 2], a[2, 2])
    a1 = np.arctan2(a[0, 2], cos_a1)
    if cos_a1 > 1e-14:
        return np.array([np.arctan2(-a[1, 2], a[2, 2]), a1, np.arctan2(-a[0, 1], a[0, 0])])
    return np.array([0.0, a1, np.arctan2(a[1, 0], a[1, 1])])


def euler_parameters_from_rot_xyz(angles):
    """Euler parameters (scalar first) of the Tait-Bryan angles: the product of the three half-angle
    quaternions q_x(a0) q_y(a1) q_z(a2)."""
    c0, s0 = _cos(0.5 * angles[0]), _sin(0.5 * angles[0])
    c1, s1 = _cos(0.5 * angles[1]), _sin(0.5 * angles[1])
    c2, s2 = _cos(0.5 * angles[2]), _sin(0.5 * angles[2])
    theta = [c0 * c1 * c2 - s0 * s1 * s2, s0 * c1 * c2 + c0 * s1 * s2,
             c0 * s1 * c2 - s0 * c1 * s2, c0 * c1 * s2 + s0 * s1 * c2]
    return ca.vertcat(*theta) if _is_symbolic(angles) else np.array(theta, dtype=float)


def rot_xyz_g_global(angles):
    """G(a), 3x3: global angular velocity omega = G(a) a_t for Tait-Bryan angles a."""
    c0, s0 = _cos(angles[0]), _sin(angles[0])
    c1, s1 = _cos(angles[1]), _sin(angles[1])
    return _stack([[1 + 0 * c0, 0 * c0, s1], [0 * c0, c0, -c1 * s0], [0 * c0, s0, c0 * c1]], angles)


def rot_xyz_g_local(angles):
    """G_local(a), 3x3: body-fixed angular velocity omega_b = G_local(a) a_t for Tait-Bryan angles a."""
    c1, s1 = _cos(angles[1]), _sin(angles[1])
    c2, s2 = _cos(angles[2]), _sin(angles[2])
    return _stack([[c1 * c2, s2, 0 * c1], [-c1 * s2, c2, 0 * c1], [s1, 0 * c1, 1 + 0 * c1]], angles)


def rot_xyz_t(angular_velocity, angles) -> np.ndarray:
    """a_t = G(a)^-1 omega for a global angular velocity [rad/s]; singular where cos(a1) = 0."""
    g = rot_xyz_g_global(np.asarray(angles, dtype=float))
    return np.linalg.solve(g, np.asarray(angular_velocity, dtype=float))


def rotation_matrix_from_rotation_vector(vector):
    """A = exp(skew(v)), 3x3 (Rodrigues): rotation by the angle |v| [rad] about the axis v / |v|.

    Exact for every angle (no reduction modulo 2 pi is needed). Below 0.01 rad the coefficients are
    their series in |v|^2, which keeps CasADi expressions and their derivatives finite at v = 0.
    """
    angle2 = vector[0] ** 2 + vector[1] ** 2 + vector[2] ** 2
    sin_term, cos_term = _series_or_exact(angle2, lambda phi: _sin(phi) / phi, (1.0, -1 / 6, 1 / 120),
                                          lambda phi: (1 - _cos(phi)) / phi ** 2, (1 / 2, -1 / 24, 1 / 720))
    tilde = skew(vector)
    return _identity_like(vector) + sin_term * tilde + cos_term * (tilde @ tilde)


def rotation_vector_from_rotation_matrix(matrix) -> np.ndarray:
    """Rotation vector v (|v| in [0, pi]) with exp(skew(v)) = A, from the Euler parameters of A."""
    theta = euler_parameters_from_rotation_matrix(matrix)
    sine_half = np.linalg.norm(theta[1:])
    if sine_half == 0.0:
        return np.zeros(3)
    return 2 * np.arctan2(sine_half, theta[0]) * theta[1:] / sine_half


def homogeneous_transformation(rotation, translation) -> np.ndarray:
    """T, 4x4: [[A, r], [0, 1]], mapping local points p to global ones A p + r."""
    t = np.eye(4)
    t[:3, :3] = np.asarray(rotation, dtype=float)
    t[:3, 3] = np.asarray(translation, dtype=float)
    return t


def inverse_homogeneous_transformation(transformation) -> np.ndarray:
    """T^-1, 4x4: [[A^T, -A^T r], [0, 1]]."""
    t = np.asarray(transformation, dtype=float)
    return homogeneous_transformation(t[:3, :3].T, -t[:3, :3].T @ t[:3, 3])


def rotation_matrix_rows(matrix):
    """The 9 entries of a 3x3 rotation matrix row by row (Exudyn's ``RotationMatrix`` output)."""
    if _is_symbolic(matrix):
        return ca.vec(matrix.T)
    return np.asarray(matrix, dtype=float).reshape(-1)


SERIES_LIMIT = 0.01   # below this rotation angle [rad] the exponential map and its tangent use their series


def t_exp_so3(rotation_vector):
    """Tangent operator of the exponential map, I - (1 - cos phi)/phi^2 theta~ + (1 - sin phi/phi)/phi^2 theta~^2,
    which maps d theta/dt to the angular velocity it causes (as Exudyn's TExpSO3); series below 0.01 rad."""
    theta = rotation_vector
    angle2 = theta[0] ** 2 + theta[1] ** 2 + theta[2] ** 2
    first, second = _series_or_exact(angle2, lambda phi: -(1 - _cos(phi)) / phi ** 2, (-1 / 2, 1 / 24, -1 / 720),
                                     lambda phi: (1 - _sin(phi) / phi) / phi ** 2, (1 / 6, -1 / 120, 1 / 5040))
    tilde = skew(theta)
    return _identity_like(theta) + first * tilde + second * (tilde @ tilde)


def _series_or_exact(angle2, exact_a, series_a, exact_b, series_b):
    """Two coefficient functions of phi, by their series in phi^2 below SERIES_LIMIT, else exactly."""
    def series(coefficients):
        return coefficients[0] + coefficients[1] * angle2 + coefficients[2] * angle2 ** 2
    if not _is_symbolic(angle2):
        phi = float(np.sqrt(angle2))
        if phi < SERIES_LIMIT:
            return series(series_a), series(series_b)
        return exact_a(phi), exact_b(phi)
    small = angle2 < SERIES_LIMIT ** 2
    phi = ca.sqrt(ca.if_else(small, SERIES_LIMIT ** 2, angle2))     # finite in the branch that is not taken
    return (ca.if_else(small, series(series_a), exact_a(phi)), ca.if_else(small, series(series_b), exact_b(phi)))


def _identity_like(vector):
    return ca.DM.eye(3) if _is_symbolic(vector) else np.eye(3)


def z_angle(theta0, theta3):
    """The angle [rad] of a rotation about z alone (theta1 = theta2 = 0): 2 atan2(theta3, theta0) (NumPy or
    CasADi)."""
    symbolic = isinstance(theta0, (ca.SX, ca.MX)) or isinstance(theta3, (ca.SX, ca.MX))
    return 2 * (ca.atan2(theta3, theta0) if symbolic else np.arctan2(theta3, theta0))


def z_rate(theta0, theta3, theta0_t, theta3_t):
    """omega_z = 2 (theta0 theta3_t - theta3 theta0_t) [rad/s] of a rotation about z alone."""
    return 2 * (theta0 * theta3_t - theta3 * theta0_t)


# --- the rotation vector of a symbolic rotation matrix, and the tangent operator (the springs between frames) ---
LOG_SERIES_LIMIT = 1e-2       # |sin(phi/2)| below which log(R) uses its series
TANGENT_SERIES_LIMIT = 2e-2   # rotation angle [rad] below which T^-1 uses its series (Exudyn's 0.02)


def rotation_log(matrix):
    """w = log(R), the rotation vector of a symbolic rotation matrix (|w| < pi), through its Euler parameters
    theta0 = sqrt(1 + tr R) / 2, e = vee(R - R^T) / (4 theta0), w = 2 atan2(|e|, theta0) e / |e|; the
    factor 2 atan2(s, c) / s by its series in s^2 / c^2 for small s (finite derivatives at R = I).
    Near a half turn (tr R -> -1) theta0 -> 0 and the logarithm is singular, as it is in Exudyn."""
    theta0 = 0.5 * ca.sqrt(1 + matrix[0, 0] + matrix[1, 1] + matrix[2, 2])
    e = ca.vertcat(matrix[2, 1] - matrix[1, 2], matrix[0, 2] - matrix[2, 0], matrix[1, 0] - matrix[0, 1]) / (4 * theta0)
    s2 = ca.sumsqr(e)
    small = s2 < LOG_SERIES_LIMIT ** 2
    s = ca.sqrt(ca.if_else(small, LOG_SERIES_LIMIT ** 2, s2))       # finite in the branch that is not taken
    x = s2 / theta0 ** 2
    factor = ca.if_else(small, 2 / theta0 * (1 - x / 3 + x ** 2 / 5 - x ** 3 / 7), 2 * ca.atan2(s, theta0) / s)
    return factor * e


def tangent_exp_inverse(w):
    """T^-1(w) = beta I + w~ / 2 + gamma w w^T, beta = (phi/2) cot(phi/2), gamma = (1 - beta) / phi^2 (phi = |w|),
    the inverse tangent operator of the exponential map (Exudyn's TExpSO3Inv); series below 0.02 rad."""
    phi2 = ca.sumsqr(w)
    small = phi2 < TANGENT_SERIES_LIMIT ** 2
    phi = ca.sqrt(ca.if_else(small, TANGENT_SERIES_LIMIT ** 2, phi2))
    beta_exact = 0.5 * phi * ca.cos(0.5 * phi) / ca.sin(0.5 * phi)
    gamma_series = 1 / 12 + phi2 / 720 + phi2 ** 2 / 30240 + phi2 ** 3 / 1209600
    gamma = ca.if_else(small, gamma_series, (1 - beta_exact) / phi ** 2)
    beta = ca.if_else(small, 1 - gamma_series * phi2, beta_exact)
    return beta * ca.DM.eye(3) + 0.5 * skew(w) + gamma * (w @ w.T)
