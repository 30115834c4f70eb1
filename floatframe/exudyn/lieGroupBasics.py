"""Exudyn's ``lieGroupBasics`` on floatframe: exponential maps, logarithms and tangent operators of SO(3), S(3),
SE(3) and R^3 x SO(3), and the composition rules of the explicit Lie-group integrators.

Conventions (those of Exudyn 1.13.6): a rotation vector v has the rotation matrix R = exp(v~) (Rodrigues); the
tangent operator T(v) maps d v/dt to the body-fixed angular velocity, R^T dR/dt = (T(v) v_t)~; Euler parameters
are scalar first; a 6-vector of SE(3) or R^3 x SO(3) is [U, Omega] (translation part first). The composition of
two rotation vectors is the rotation vector of exp(v0~) exp(Omega~) with its angle in [0, 2 pi] (not mapped to
[0, pi]), as Exudyn's.

Where Exudyn 1.13.6's TExpSE3 and TExpSE3Inv are not the tangent operator and its inverse, these are: Exudyn
squares Omega~ entry by entry in the (Omega . U) terms, and its TExpSE3Inv uses (2 - cot(phi/2)) / (2 phi^2)
for phi >= 0.01 where the series it uses below (1/12 + phi^2/720 + ...) is that of (2 - phi cot(phi/2)) /
(2 phi^2). Here T is right-trivialized, exp(x + dx) = exp(x) exp((T(x) dx)^), checked against differences.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from floatframe import rotations
from floatframe.exudyn._names import ExudynLayerError
from floatframe.exudyn._unknown import module_getattr

__all__ = [
    "Sinc", "Cot", "R3xSO3Matrix2RotationMatrix", "R3xSO3Matrix2Translation", "R3xSO3Matrix",
    "ExpSO3", "ExpS3", "LogSO3", "TExpSO3", "TExpSO3Inv", "ExpSE3", "LogSE3", "TExpSE3",
    "TExpSE3Inv", "ExpR3xSO3", "TExpR3xSO3", "TExpR3xSO3Inv", "CompositionRuleDirectProductR3AndS3",
    "CompositionRuleSemiDirectProductR3AndS3", "CompositionRuleDirectProductR3AndR3RotVec",
    "CompositionRuleSemiDirectProductR3AndR3RotVec",
    "CompositionRuleDirectProductR3AndR3RotXYZAngles",
    "CompositionRuleSemiDirectProductR3AndR3RotXYZAngles", "CompositionRuleForEulerParameters",
    "CompositionRuleForRotationVectors", "CompositionRuleRotXYZAnglesRotationVector",
]

TANGENT_SERIES_ANGLE = 0.01          # below this angle [rad] T(v) uses its series (as Exudyn)
INVERSE_SERIES_ANGLE = 0.02          # below this angle [rad] T(v)^-1 uses its series (as Exudyn)
SE3_SERIES_ANGLE = 1.0               # below this angle [rad] the SE(3) coefficients use their Taylor series
SE3_SERIES_TERMS = 14                # terms of those series (the first left out is below 1e-27 at 1 rad)


def _vector(value, size, function, what) -> np.ndarray:
    array = np.asarray(value, dtype=float).reshape(-1)
    if array.shape != (size,):
        raise ExudynLayerError(f"{function}: {what} must have {size} entries, got shape "
                               f"{np.shape(value)}")
    return array


def _square(value, size, function, what) -> np.ndarray:
    array = np.asarray(value, dtype=float)
    if array.shape != (size, size):
        raise ExudynLayerError(f"{function}: {what} must be a {size} x {size} matrix, got shape {array.shape}")
    return array


def _skew(vector) -> np.ndarray:
    """a~ with a~ b = a x b (NumPy, as ``rotations.skew``)."""
    x, y, z = vector
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def _cross(a, b) -> np.ndarray:
    """a x b of two 3-vectors (NumPy's cross costs ten times as much on them)."""
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def _vee(skew_matrix) -> np.ndarray:
    return np.array([skew_matrix[2, 1], skew_matrix[0, 2], skew_matrix[1, 0]])


def Sinc(x):
    """sin(x) / x, 1 at x = 0."""
    return 1.0 if x == 0 else math.sin(x) / x


def Cot(x):
    """cos(x) / sin(x) (infinite at multiples of pi: ZeroDivisionError at exactly 0)."""
    return 1.0 / math.tan(x)


def R3xSO3Matrix2RotationMatrix(G):
    """The rotation matrix (upper left 3 x 3 block) of a 7 x 7 element of R^3 x SO(3)."""
    return _square(G, 7, "R3xSO3Matrix2RotationMatrix", "G")[0:3, 0:3]


def R3xSO3Matrix2Translation(G):
    """The translation (rows 3-5 of the last column) of a 7 x 7 element of R^3 x SO(3)."""
    return _square(G, 7, "R3xSO3Matrix2Translation", "G")[3:6, 6]


def R3xSO3Matrix(x, R):
    """The 7 x 7 element of R^3 x SO(3) for the translation x and the rotation matrix R."""
    group = np.eye(7)
    group[0:3, 0:3] = _square(R, 3, "R3xSO3Matrix", "R")
    group[3:6, 6] = _vector(x, 3, "R3xSO3Matrix", "x")
    return group


def ExpSO3(Omega):
    """R = exp(Omega~), 3 x 3 (Rodrigues' formula)."""
    omega = _vector(Omega, 3, "ExpSO3", "Omega")
    angle = np.linalg.norm(omega)
    tilde = _skew(omega)
    return np.eye(3) + Sinc(angle) * tilde + 0.5 * Sinc(0.5 * angle) ** 2 * (tilde @ tilde)


def ExpS3(Omega):
    """The Euler parameters [cos(phi/2), sin(phi/2) n] of the rotation vector Omega = phi n."""
    omega = _vector(Omega, 3, "ExpS3", "Omega")
    angle = np.linalg.norm(omega)
    return np.concatenate(([math.cos(0.5 * angle)], 0.5 * Sinc(0.5 * angle) * omega))


def LogSO3(R):
    """log(R) as the skew matrix v~ of the rotation vector v (|v| <= pi), through the Euler parameters of R."""
    return _skew(rotations.rotation_vector_from_rotation_matrix(_square(R, 3, "LogSO3", "R")))


def TExpSO3(Omega):
    """T(Omega) = I - (1 - cos phi)/phi^2 Omega~ + (1 - sin phi/phi)/phi^2 Omega~^2: body-fixed angular velocity
    of d Omega / dt (phi = |Omega|; series below 0.01 rad)."""
    omega = _vector(Omega, 3, "TExpSO3", "Omega")
    if not omega.any():
        return np.eye(3)
    angle = np.linalg.norm(omega)
    tilde = _skew(omega)
    first = -0.5 * Sinc(0.5 * angle) ** 2
    if angle < TANGENT_SERIES_ANGLE:
        second = 1 / 6 - angle ** 2 / 120 + angle ** 4 / 5040
    else:
        second = (1 - math.sin(angle) / angle) / angle ** 2
    return np.eye(3) + first * tilde + second * (tilde @ tilde)


def _inverse_coefficient(angle: float) -> float:
    """gamma = (1 - beta) / phi^2 with beta = (phi/2) cot(phi/2): the Omega Omega^T factor of T^-1."""
    if angle <= INVERSE_SERIES_ANGLE:
        return 1 / 12 + angle ** 2 / 720 + angle ** 4 / 30240
    half = 0.5 * angle
    return (1 - half / math.tan(half)) / angle ** 2


def TExpSO3Inv(Omega):
    """T(Omega)^-1 = beta I + Omega~ / 2 + gamma Omega Omega^T, beta = (phi/2) cot(phi/2), gamma = (1 - beta)/phi^2
    (series of gamma below 0.02 rad; singular at phi = 2 pi)."""
    x, y, z = _vector(Omega, 3, "TExpSO3Inv", "Omega")
    angle2 = x * x + y * y + z * z
    if angle2 == 0:
        return np.eye(3)
    angle = math.sqrt(angle2)
    gamma = _inverse_coefficient(angle)
    beta = 1 - gamma * angle2 if angle <= INVERSE_SERIES_ANGLE else 0.5 * angle / math.tan(0.5 * angle)
    return np.array([[beta + gamma * x * x, gamma * x * y - 0.5 * z, gamma * x * z + 0.5 * y],
                     [gamma * x * y + 0.5 * z, beta + gamma * y * y, gamma * y * z - 0.5 * x],
                     [gamma * x * z - 0.5 * y, gamma * y * z + 0.5 * x, beta + gamma * z * z]])


def ExpSE3(x):
    """The 4 x 4 homogeneous transformation exp of the twist x = [U, Omega]: rotation ExpSO3(Omega), translation
    TExpSO3(Omega)^T U."""
    twist = _vector(x, 6, "ExpSE3", "x")
    return rotations.homogeneous_transformation(ExpSO3(twist[3:]), TExpSO3(twist[3:]).T @ twist[:3])


def LogSE3(H):
    """log(H) of a homogeneous transformation as the 4 x 4 matrix [[Omega~, U], [0, 0]] (inverse of ExpSE3)."""
    transformation = _square(H, 4, "LogSE3", "H")
    rotation_tilde = LogSO3(transformation[:3, :3])
    logarithm = np.zeros((4, 4))
    logarithm[:3, :3] = rotation_tilde
    logarithm[:3, 3] = TExpSO3Inv(_vee(rotation_tilde)).T @ transformation[:3, 3]
    return logarithm


def _bernoulli_even(count: int) -> list:
    """B_0, B_2, ..., B_{2 count - 2} as fractions (B_1 = -1/2 convention; the even ones do not depend on it)."""
    numbers = [Fraction(1)]
    for m in range(1, 2 * count - 1):
        numbers.append(-sum(Fraction(math.comb(m + 1, k)) * numbers[k] for k in range(m)) / (m + 1))
    return [float(numbers[2 * n]) for n in range(count)]


def _se3_series(terms: int = SE3_SERIES_TERMS) -> dict:
    """Coefficients of the series in phi^2 (constant first) of the SE(3) coefficients (see _se3_coefficients),
    from those of sin, cos and (phi/2) cot(phi/2) = sum (-1)^n B_2n phi^2n / (2n)!."""
    factorial = math.factorial
    bernoulli = _bernoulli_even(terms + 1)
    return {
        "c1": [(-1) ** k / factorial(2 * k) for k in range(1, terms + 1)],
        "c2": [(-1) ** (k + 1) / factorial(2 * k + 1) for k in range(1, terms + 1)],
        "c3": [(-1) ** (k + 1) * (2 - 2 * k) / factorial(2 * k) for k in range(2, terms + 2)],
        "c4": [(-1) ** k * (2 * k - 2) / factorial(2 * k + 1) for k in range(2, terms + 2)],
        "d1": [-(-1) ** n * bernoulli[n] / factorial(2 * n) for n in range(1, terms + 1)],
        # (phi sin phi + 4 cos phi + phi^2 - 4) / phi^6; d2 is it divided by sinc^2(phi/2)
        "n2": [(-1) ** (k - 1) * (2 * k - 4) / factorial(2 * k) for k in range(3, terms + 3)],
    }


SE3_SERIES = _se3_series()


def _series(name: str, p2: float) -> float:
    value = 0.0
    for coefficient in reversed(SE3_SERIES[name]):
        value = value * p2 + coefficient
    return value


def _se3_coefficients(angle: float):
    """The coefficients of the coupling block of the SE(3) tangent operator and of its inverse (phi = |Omega|):
    c1 = (cos phi - 1)/phi^2, c2 = (phi - sin phi)/phi^3, c3 = (2 - 2 cos phi - phi sin phi)/phi^4,
    c4 = (phi (2 + cos phi) - 3 sin phi)/phi^5, d1 = (2 - phi cot(phi/2))/(2 phi^2),
    d2 = (phi sin phi + 4 cos phi + phi^2 - 4)/(4 sin^2(phi/2) phi^4); below 1 rad by their Taylor series
    (the closed forms cancel there)."""
    p2 = angle * angle
    if angle < SE3_SERIES_ANGLE:
        numerator = _series("n2", p2)                   # (phi sin phi + 4 cos phi + phi^2 - 4) / phi^6
        d2 = numerator / Sinc(0.5 * angle) ** 2         # 4 sin^2(phi/2) / phi^2 = sinc^2(phi/2)
        return (_series("c1", p2), _series("c2", p2), _series("c3", p2), _series("c4", p2), _series("d1", p2), d2)
    c, s = math.cos(angle), math.sin(angle)
    c1 = (c - 1) / p2
    c2 = (angle - s) / (p2 * angle)
    c3 = (2 - 2 * c - angle * s) / p2 ** 2
    c4 = (angle * (2 + c) - 3 * s) / (p2 ** 2 * angle)
    d1 = (2 - angle / math.tan(0.5 * angle)) / (2 * p2)
    d2 = (angle * s + 4 * c + p2 - 4) / (4 * math.sin(0.5 * angle) ** 2 * p2 ** 2)
    return c1, c2, c3, c4, d1, d2


def TExpSE3(x):
    """The 6 x 6 tangent operator of ExpSE3 at x = [U, Omega]: [[T(Omega), T_UOmega], [0, T(Omega)]] with
    T_UOmega = c1 U~ + c2 (U~ Omega~ + Omega~ U~) + (Omega . U) (c3 Omega~ - c4 Omega~ Omega~)."""
    twist = _vector(x, 6, "TExpSE3", "x")
    u, omega = twist[:3], twist[3:]
    c1, c2, c3, c4, _, _ = _se3_coefficients(np.linalg.norm(omega))
    u_tilde, omega_tilde = _skew(u), _skew(omega)
    coupling = c1 * u_tilde + c2 * (u_tilde @ omega_tilde + omega_tilde @ u_tilde) + \
        (omega @ u) * (c3 * omega_tilde - c4 * omega_tilde @ omega_tilde)
    rotation_part = TExpSO3(omega)
    return np.block([[rotation_part, coupling], [np.zeros((3, 3)), rotation_part]])


def TExpSE3Inv(x):
    """The inverse of TExpSE3: [[T^-1, C], [0, T^-1]] with C = U~/2 + d1 (U~ Omega~ + Omega~ U~)
    + d2 (Omega . U) Omega~ Omega~."""
    twist = _vector(x, 6, "TExpSE3Inv", "x")
    u, omega = twist[:3], twist[3:]
    _, _, _, _, d1, d2 = _se3_coefficients(np.linalg.norm(omega))
    u_tilde, omega_tilde = _skew(u), _skew(omega)
    coupling = 0.5 * u_tilde + d1 * (u_tilde @ omega_tilde + omega_tilde @ u_tilde) + \
        d2 * (omega @ u) * (omega_tilde @ omega_tilde)
    inverse = TExpSO3Inv(omega)
    return np.block([[inverse, coupling], [np.zeros((3, 3)), inverse]])


def ExpR3xSO3(x):
    """The 7 x 7 element of R^3 x SO(3) of x = [U, Omega]: rotation ExpSO3(Omega), translation U."""
    twist = _vector(x, 6, "ExpR3xSO3", "x")
    return R3xSO3Matrix(twist[:3], ExpSO3(twist[3:]))


def TExpR3xSO3(x):
    """The 6 x 6 tangent operator of ExpR3xSO3: diag(I, T(Omega))."""
    twist = _vector(x, 6, "TExpR3xSO3", "x")
    tangent = np.eye(6)
    tangent[3:, 3:] = TExpSO3(twist[3:])
    return tangent


def TExpR3xSO3Inv(x):
    """The inverse of TExpR3xSO3: diag(I, T(Omega)^-1)."""
    twist = _vector(x, 6, "TExpR3xSO3Inv", "x")
    inverse = np.eye(6)
    inverse[3:, 3:] = TExpSO3Inv(twist[3:])
    return inverse


def CompositionRuleForEulerParameters(q, p):
    """The quaternion product q p of two sets of Euler parameters (scalar first)."""
    first = _vector(q, 4, "CompositionRuleForEulerParameters", "q")
    second = _vector(p, 4, "CompositionRuleForEulerParameters", "p")
    scalar = first[0] * second[0] - first[1:] @ second[1:]
    vector = first[0] * second[1:] + second[0] * first[1:] + _cross(first[1:], second[1:])
    return np.concatenate(([scalar], vector))


def CompositionRuleForRotationVectors(v0, Omega):
    """The rotation vector of exp(v0~) exp(Omega~): the product of the two unit quaternions, whose scalar part
    cos(w/2) gives the angle w in [0, 2 pi] (not mapped to [0, pi]) and whose vector part the axis."""
    first = _vector(v0, 3, "CompositionRuleForRotationVectors", "v0")
    second = _vector(Omega, 3, "CompositionRuleForRotationVectors", "Omega")
    half0, half1 = 0.5 * np.linalg.norm(first), 0.5 * np.linalg.norm(second)
    c0, c1, s0, s1 = math.cos(half0), math.cos(half1), Sinc(half0), Sinc(half1)
    scalar = c0 * c1 - 0.25 * s0 * s1 * (first @ second)           # cos(w/2)
    axis = s0 * c1 * first + c0 * s1 * second + 0.5 * s0 * s1 * _cross(first, second)   # 2 sin(w/2) n
    sine_half = math.sqrt(abs(1 - scalar * scalar))
    angle = 2 * math.atan2(sine_half, scalar)
    length = np.linalg.norm(axis)
    return np.zeros(3) if length == 0 else angle / length * axis


def _rotation_matrix_from_rot_xyz(angles) -> np.ndarray:
    return rotations.rotation_matrix_from_rot_xyz(np.asarray(angles, dtype=float))


def CompositionRuleRotXYZAnglesRotationVector(alpha0, Omega):
    """Tait-Bryan angles (x-y-z) of A(alpha0) exp(Omega~), each the nearest to alpha0's: alpha0 plus increments in
    (-pi, pi] (the second angle of the product taken in [-pi/2, pi/2]; at cos = 0 the first and third increments are
    0)."""
    angles0 = _vector(alpha0, 3, "CompositionRuleRotXYZAnglesRotationVector", "alpha0")
    rotation = _rotation_matrix_from_rot_xyz(angles0) @ ExpSO3(
        _vector(Omega, 3, "CompositionRuleRotXYZAnglesRotationVector", "Omega"))
    cos_second = math.sqrt(abs(1 - rotation[0, 2] ** 2))
    scale = 0.0 if cos_second == 0 else 1 / cos_second
    increments = []
    for (sine, cosine), start in zip((
            (-rotation[1, 2] * scale, rotation[2, 2] * scale), (rotation[0, 2], cos_second),
            (-rotation[0, 1] * scale, rotation[0, 0] * scale)), angles0):
        # the difference of the new angle (atan2(sine, cosine)) and the old one, as one atan2
        increments.append(math.atan2(sine * math.cos(start) - cosine * math.sin(start),
                                     cosine * math.cos(start) + sine * math.sin(start)))
    return angles0 + np.array(increments)


def _split(q0, incrementalMotionVector, size, function):
    state = _vector(q0, size, function, "q0")
    increment = _vector(incrementalMotionVector, 6, function, "incrementalMotionVector")
    return state[:3], state[3:], increment[:3], increment[3:]


def CompositionRuleDirectProductR3AndS3(q0, incrementalMotionVector):
    """[x0 + dx, theta0 ExpS3(Omega)] for q0 = [x0, Euler parameters theta0] and the increment [dx, Omega]."""
    x0, theta0, dx, omega = _split(q0, incrementalMotionVector, 7, "CompositionRuleDirectProductR3AndS3")
    return np.concatenate((x0 + dx, CompositionRuleForEulerParameters(theta0, ExpS3(omega))))


def CompositionRuleSemiDirectProductR3AndS3(q0, incrementalMotionVector):
    """[x0 + A(theta0) T(Omega)^T dx, theta0 ExpS3(Omega)]: the SE(3) composition with Euler parameters."""
    x0, theta0, dx, omega = _split(q0, incrementalMotionVector, 7, "CompositionRuleSemiDirectProductR3AndS3")
    rotation0 = rotations.rotation_matrix_unit_form(theta0)
    return np.concatenate((x0 + rotation0 @ (TExpSO3(omega).T @ dx),
                           CompositionRuleForEulerParameters(theta0, ExpS3(omega))))


def CompositionRuleDirectProductR3AndR3RotVec(q0, incrementalMotionVector):
    """[x0 + dx, composed rotation vector] for q0 = [x0, rotation vector v0] and the increment [dx, Omega]."""
    x0, v0, dx, omega = _split(q0, incrementalMotionVector, 6, "CompositionRuleDirectProductR3AndR3RotVec")
    return np.concatenate((x0 + dx, CompositionRuleForRotationVectors(v0, omega)))


def CompositionRuleSemiDirectProductR3AndR3RotVec(q0, incrementalMotionVector):
    """[x0 + ExpSO3(v0) T(Omega)^T dx, composed rotation vector] (translation increment in body axes)."""
    x0, v0, dx, omega = _split(q0, incrementalMotionVector, 6, "CompositionRuleSemiDirectProductR3AndR3RotVec")
    return np.concatenate((x0 + ExpSO3(v0) @ (TExpSO3(omega).T @ dx), CompositionRuleForRotationVectors(v0, omega)))


def CompositionRuleDirectProductR3AndR3RotXYZAngles(q0, incrementalMotionVector):
    """[x0 + dx, composed Tait-Bryan angles] for q0 = [x0, angles alpha0] and the increment [dx, Omega]."""
    x0, alpha0, dx, omega = _split(q0, incrementalMotionVector, 6, "CompositionRuleDirectProductR3AndR3RotXYZAngles")
    return np.concatenate((x0 + dx, CompositionRuleRotXYZAnglesRotationVector(alpha0, omega)))


def CompositionRuleSemiDirectProductR3AndR3RotXYZAngles(q0, incrementalMotionVector):
    """[x0 + A(alpha0) T(Omega)^T dx, composed Tait-Bryan angles] (translation increment in body axes)."""
    x0, alpha0, dx, omega = _split(q0, incrementalMotionVector, 6,
                                   "CompositionRuleSemiDirectProductR3AndR3RotXYZAngles")
    return np.concatenate((x0 + _rotation_matrix_from_rot_xyz(alpha0) @ (TExpSO3(omega).T @ dx),
                           CompositionRuleRotXYZAnglesRotationVector(alpha0, omega)))


__getattr__ = module_getattr("floatframe.exudyn.lieGroupBasics", __all__, [])
