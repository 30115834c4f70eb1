"""Exudyn's explicit Lie-group integration (``timeIntegration.explicit.useLieGroupIntegration``) of the rotation
vectors of NodeRigidBodyRotVecLG, on floatframe's explicit Runge-Kutta schemes.

Each such node's rotation is advanced on the rotation group, its other coordinates (and all other nodes') by the
scheme's usual formulas. With the body-fixed angular velocity w (the node's velocity coordinates in Exudyn) and
the angular accelerations W_j of the stages, stage i of a tableau (c, A, b) has the rotation increment
U_i = h sum_j a_ij K_j and

    v_i = v0 composed with U_i (``lieGroupBasics.CompositionRuleForRotationVectors``),
    w_i = w0 + h sum_j a_ij W_j,    K_i = T(U_i)^-1 w_i (``lieGroupBasics.TExpSO3Inv``),

and the step ends at v0 composed with h sum_i b_i K_i, w0 + h sum_i b_i W_i: the stages of Exudyn's explicit
solvers for these nodes (Holzinger and Gerstmayr's Lie-group Runge-Kutta methods). The composed rotation vector
has its angle in [0, 2 pi] as Exudyn's.

floatframe's model keeps the rotation vector v and its rate v_t = T(v)^-1 w as coordinates. The accelerations of a
stage are evaluated at the rotation vector of the same rotation with angle at most pi (v (1 - 2 pi / |v|) beyond
pi), where T is well conditioned, and turned into angular accelerations by d w/dt = T(v) v_tt + (dT/dv v_t) v_t.
The stored states carry v_t = T(v)^-1 w of the composed rotation vector (its outputs are those of the rotation).

On a model of up to ``SX_STAGES_LIMIT`` coordinates without Python user functions or inputs a whole step (its
stages, end states and end accelerations) is one buffered SX Function (``step_function``: the same formulas on
CasADi scalars, both branches of each series formed and one taken, each stage's M_ff solved symbolically); other
models take the steps in Python, the 3-vectors of a node as Python floats and the accelerations by LAPACK's LU
(``floatframe.solvers.explicit.Accelerations``). The two agree to round-off (tests/solvers/test_explicit_dense.py).
"""
from __future__ import annotations

import math
from types import SimpleNamespace

import casadi as ca
import numpy as np

from floatframe.buffers import BufferedFunction
from floatframe.components.rigid_rotation_vector import NodeRigidBodyRotationVector
from floatframe.exudyn._names import ExudynLayerError
from floatframe.exudyn.lieGroupBasics import (INVERSE_SERIES_ANGLE, SE3_SERIES_ANGLE, TANGENT_SERIES_ANGLE,
                                             _inverse_coefficient, _series)
from floatframe.solvers.explicit import RK33, RK44, RK67, ExplicitEuler, ExplicitMidpoint
from floatframe.solvers.explicit_adaptive import DOPRI5, DVERK6, ODE23
from floatframe.solvers.loop import State

# The 3-vectors of one node are lists of Python floats here: a stage's few dozen operations on them cost less than
# NumPy's calls on arrays of 3 (the formulas are those of ``lieGroupBasics``, entry by entry).


def _axis_form_product(vector, w, diagonal, skew, outer) -> list:
    """(diagonal I + skew v~ + outer v v^T) w, the form of T(v) and T(v)^-1; v, w: 3 floats or SX scalars each."""
    x, y, z = vector
    a, b, c = w
    return [(diagonal + outer * x * x) * a + (outer * x * y - skew * z) * b + (outer * x * z + skew * y) * c,
            (outer * x * y + skew * z) * a + (diagonal + outer * y * y) * b + (outer * y * z - skew * x) * c,
            (outer * x * z - skew * y) * a + (outer * y * z + skew * x) * b + (diagonal + outer * z * z) * c]


def _tangent_product(vector, rate) -> list:
    """T(v) v_t with T(v) = I - (1 - cos phi)/phi^2 v~ + (phi - sin phi)/phi^3 v~ v~ (``rotations.t_exp_so3``'s
    formula and series below 0.01 rad), v~ v~ = v v^T - phi^2 I; v, v_t: 3 floats each."""
    x, y, z = vector
    angle2 = x * x + y * y + z * z
    if angle2 < TANGENT_SERIES_ANGLE ** 2:
        first = -0.5 + angle2 / 24 - angle2 * angle2 / 720
        second = 1 / 6 - angle2 / 120 + angle2 * angle2 / 5040
    else:
        angle = math.sqrt(angle2)
        first = -(1 - math.cos(angle)) / angle2
        second = (1 - math.sin(angle) / angle) / angle2
    diagonal = 1 - second * angle2
    return _axis_form_product(vector, rate, diagonal, first, second)


def _inverse_tangent_product(vector, w) -> list:
    """T(v)^-1 w with T^-1 = beta I + v~ / 2 + gamma v v^T (``lieGroupBasics.TExpSO3Inv``); v, w: 3 floats each."""
    x, y, z = vector
    a, b, c = w
    angle2 = x * x + y * y + z * z
    if angle2 == 0:
        return [a, b, c]
    angle = math.sqrt(angle2)
    gamma = _inverse_coefficient(angle)
    beta = 1 - gamma * angle2 if angle <= INVERSE_SERIES_ANGLE else 0.5 * angle / math.tan(0.5 * angle)
    return _axis_form_product(vector, w, beta, 0.5, gamma)


def _cross(a, b) -> list:
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def _rate_coefficients(angle: float):
    """c2 = (phi - sin phi)/phi^3, c3 = (2 - 2 cos phi - phi sin phi)/phi^4, c4 = (phi (2 + cos phi) - 3 sin phi)/phi^5
    (``lieGroupBasics``' SE(3) coefficients, by their series below 1 rad)."""
    p2 = angle * angle
    if angle < SE3_SERIES_ANGLE:
        return _series("c2", p2), _series("c3", p2), _series("c4", p2)
    c, s = math.cos(angle), math.sin(angle)
    return (angle - s) / (p2 * angle), (2 - 2 * c - angle * s) / p2 ** 2, (angle * (2 + c) - 3 * s) / (p2 ** 2 * angle)


def _rate_term(vector, rate) -> list:
    """(dT/dv v_t) v_t = (v . v_t) (c3 v x v_t - c4 v x (v x v_t)) + c2 v_t x (v x v_t), the part of d/dt (T v_t)
    without v_tt (c2, c3, c4: ``_rate_coefficients``, the derivatives of T's); v, v_t: 3 floats each."""
    x, y, z = vector
    a, b, c = rate
    c2, c3, c4 = _rate_coefficients(math.sqrt(x * x + y * y + z * z))
    cross = _cross(vector, rate)
    double, outer = _cross(vector, cross), _cross(rate, cross)
    along = x * a + y * b + z * c
    return [along * (c3 * cross[k] - c4 * double[k]) + c2 * outer[k] for k in range(3)]


def _compose(first, second) -> list:
    """The rotation vector of exp(v0~) exp(Omega~) with its angle in [0, 2 pi] (``lieGroupBasics.
    CompositionRuleForRotationVectors``: the product of the two unit quaternions); v0, Omega: 3 floats each."""
    x0, y0, z0 = first
    x1, y1, z1 = second
    half0 = 0.5 * math.sqrt(x0 * x0 + y0 * y0 + z0 * z0)
    half1 = 0.5 * math.sqrt(x1 * x1 + y1 * y1 + z1 * z1)
    c0, c1 = math.cos(half0), math.cos(half1)
    s0 = 1.0 if half0 == 0 else math.sin(half0) / half0
    s1 = 1.0 if half1 == 0 else math.sin(half1) / half1
    scalar = c0 * c1 - 0.25 * s0 * s1 * (x0 * x1 + y0 * y1 + z0 * z1)      # cos(w/2)
    own0, own1, both = s0 * c1, c0 * s1, 0.5 * s0 * s1
    cross = _cross(first, second)
    axis = [own0 * x0 + own1 * x1 + both * cross[0], own0 * y0 + own1 * y1 + both * cross[1],
            own0 * z0 + own1 * z1 + both * cross[2]]                         # 2 sin(w/2) n
    angle = 2 * math.atan2(math.sqrt(abs(1 - scalar * scalar)), scalar)
    length = math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2])
    return [0.0, 0.0, 0.0] if length == 0 else [angle / length * entry for entry in axis]


def _short(vector) -> list:
    """The rotation vector (3 floats) of the same rotation with angle at most pi."""
    angle = math.sqrt(vector[0] * vector[0] + vector[1] * vector[1] + vector[2] * vector[2])
    if angle <= math.pi:
        return vector
    factor = 1 - 2 * math.pi / angle
    return [entry * factor for entry in vector]


def short_rotation_vector(vector) -> np.ndarray:
    """The rotation vector of the same rotation with angle at most pi."""
    return np.array(_short(np.asarray(vector, dtype=float).tolist()))


def angular_velocities(rows_list, references, q, v) -> np.ndarray:
    """The velocities v with each node's rotation rows w = T(v) v_t (Exudyn's velocity coordinates)."""
    w = np.array(v, dtype=float)
    for rows, reference in zip(rows_list, references):
        w[rows] = _tangent_product((reference + q[rows]).tolist(), w[rows].tolist())
    return w


def rate_velocities(rows_list, references, q, w) -> np.ndarray:
    """The velocities with each node's rotation rows v_t = T(v)^-1 w (floatframe's)."""
    v = np.array(w, dtype=float)
    for rows, reference in zip(rows_list, references):
        v[rows] = _inverse_tangent_product((reference + q[rows]).tolist(), v[rows].tolist())
    return v


def short_state(rows_list, references, q, w):
    """(q, v_t) with each node's rotation vector replaced by that of angle <= pi and v_t = T^-1 w there."""
    q_short, v_short = np.array(q, dtype=float), np.array(w, dtype=float)
    for rows, reference in zip(rows_list, references):
        vector = _short((reference + q[rows]).tolist())
        q_short[rows] = np.subtract(vector, reference)
        v_short[rows] = _inverse_tangent_product(vector, v_short[rows].tolist())
    return q_short, v_short


def angular_accelerations(rows_list, references, q, v, a) -> np.ndarray:
    """The accelerations a with each node's rotation rows d w/dt = T(v) v_tt + (dT/dv v_t) v_t."""
    a = np.array(a, dtype=float)
    for rows, reference in zip(rows_list, references):
        vector = (reference + q[rows]).tolist()
        rate_part = _rate_term(vector, v[rows].tolist())
        a[rows] = [x + y for x, y in zip(_tangent_product(vector, a[rows].tolist()), rate_part)]
    return a


def rate_accelerations(rows_list, references, q, v, angular) -> np.ndarray:
    """The accelerations with each node's rotation rows v_tt = T^-1 (d w/dt - (dT/dv v_t) v_t)."""
    a = np.array(angular, dtype=float)
    for rows, reference in zip(rows_list, references):
        vector = (reference + q[rows]).tolist()
        rate_part = _rate_term(vector, v[rows].tolist())
        a[rows] = _inverse_tangent_product(vector, [x - y for x, y in zip(a[rows].tolist(), rate_part)])
    return a


def rate_of_rates(rows_list, references, q, v, w) -> np.ndarray:
    """d/dt (T^-1) w per node's rotation rows (zero elsewhere): v_tt = T^-1 d w/dt + this, = -T^-1 (dT/dv v_t) v_t."""
    term = np.zeros(np.size(v))
    for rows, reference in zip(rows_list, references):
        vector = (reference + q[rows]).tolist()
        term[rows] = [-x for x in _inverse_tangent_product(vector, _rate_term(vector, v[rows].tolist()))]
    return term


# --- the same on CasADi scalars: a step's stages as one SX Function -----------------------------------------------
SX_STAGES_LIMIT = 12   # coordinates up to which a step's stages are one SX Function (M solved symbolically)


def _sx_tangent_product(vector, rate) -> list:
    """``_tangent_product`` of SX scalars (both branches formed, one taken)."""
    x, y, z = vector
    angle2 = x * x + y * y + z * z
    angle = ca.sqrt(angle2)
    series = angle2 < TANGENT_SERIES_ANGLE ** 2
    first = ca.if_else(series, -0.5 + angle2 / 24 - angle2 * angle2 / 720, -(1 - ca.cos(angle)) / angle2)
    second = ca.if_else(series, 1 / 6 - angle2 / 120 + angle2 * angle2 / 5040, (1 - ca.sin(angle) / angle) / angle2)
    diagonal = 1 - second * angle2
    return _axis_form_product(vector, rate, diagonal, first, second)


def _sx_advanced(nodes, q0, increment, w0, change, fixed, q_fixed):
    """(q, w) as lists of SX scalars: q0 + increment with each node's rotation vector composed on the rotation group
    (``_sx_compose``), w0 + change, and the held coordinates at their values with zero velocity."""
    start, rotation_increment = ca.vertsplit(q0), ca.vertsplit(increment)
    q, w = ca.vertsplit(q0 + increment), ca.vertsplit(w0 + change)
    for rows, reference in nodes:
        composed = _sx_compose([reference[k] + start[row] for k, row in enumerate(rows)],
                               [rotation_increment[row] for row in rows])
        for k, row in enumerate(rows):
            q[row] = composed[k] - reference[k]
    for k, value in zip(fixed, q_fixed):
        q[int(k)], w[int(k)] = ca.SX(float(value)), ca.SX(0.0)
    return q, w


def _sx_inverse_tangent_product(vector, w) -> list:
    """``_inverse_tangent_product`` of SX scalars (at angle 0 its series gives the identity)."""
    x, y, z = vector
    angle2 = x * x + y * y + z * z
    angle = ca.sqrt(angle2)
    series = angle <= INVERSE_SERIES_ANGLE
    half = 0.5 * angle
    gamma = ca.if_else(series, 1 / 12 + angle ** 2 / 720 + angle ** 4 / 30240, (1 - half / ca.tan(half)) / angle ** 2)
    beta = ca.if_else(series, 1 - gamma * angle2, 0.5 * angle / ca.tan(0.5 * angle))
    return _axis_form_product(vector, w, beta, 0.5, gamma)


def _sx_rate_term(vector, rate) -> list:
    """``_rate_term`` of SX scalars."""
    x, y, z = vector
    a, b, c = rate
    angle = ca.sqrt(x * x + y * y + z * z)
    p2 = angle * angle
    cosine, sine = ca.cos(angle), ca.sin(angle)
    series = angle < SE3_SERIES_ANGLE
    c2 = ca.if_else(series, _series("c2", p2), (angle - sine) / (p2 * angle))
    c3 = ca.if_else(series, _series("c3", p2), (2 - 2 * cosine - angle * sine) / p2 ** 2)
    c4 = ca.if_else(series, _series("c4", p2), (angle * (2 + cosine) - 3 * sine) / (p2 ** 2 * angle))
    cross = _cross(vector, rate)
    double, outer = _cross(vector, cross), _cross(rate, cross)
    along = x * a + y * b + z * c
    return [along * (c3 * cross[k] - c4 * double[k]) + c2 * outer[k] for k in range(3)]


def _sx_compose(first, second) -> list:
    """``_compose`` of SX scalars."""
    x0, y0, z0 = first
    x1, y1, z1 = second
    half0 = 0.5 * ca.sqrt(x0 * x0 + y0 * y0 + z0 * z0)
    half1 = 0.5 * ca.sqrt(x1 * x1 + y1 * y1 + z1 * z1)
    c0, c1 = ca.cos(half0), ca.cos(half1)
    s0 = ca.if_else(half0 == 0, 1.0, ca.sin(half0) / half0)
    s1 = ca.if_else(half1 == 0, 1.0, ca.sin(half1) / half1)
    scalar = c0 * c1 - 0.25 * s0 * s1 * (x0 * x1 + y0 * y1 + z0 * z1)
    own0, own1, both = s0 * c1, c0 * s1, 0.5 * s0 * s1
    cross = _cross(first, second)
    axis = [own0 * x0 + own1 * x1 + both * cross[0], own0 * y0 + own1 * y1 + both * cross[1],
            own0 * z0 + own1 * z1 + both * cross[2]]
    angle = 2 * ca.atan2(ca.sqrt(ca.fabs(1 - scalar * scalar)), scalar)
    length = ca.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2])
    return [ca.if_else(length == 0, 0.0, angle / length * entry) for entry in axis]


def _sx_short(vector) -> list:
    """``_short`` of SX scalars."""
    angle = ca.sqrt(vector[0] * vector[0] + vector[1] * vector[1] + vector[2] * vector[2])
    factor = 1 - 2 * math.pi / angle
    return [ca.if_else(angle > math.pi, entry * factor, entry) for entry in vector]


def _sx_angular_accelerations(system, nodes, free, t, q, w, p) -> list:
    """``LieGroupStages._python_angular_accelerations`` on SX: the accelerations (n SX scalars) at (t, q, w) (lists
    of n SX scalars; ``nodes``: [(rotation rows, reference)] as lists), each node's rotation rows d w/dt at its
    rotation vector of angle <= pi, M_ff solved symbolically."""
    n, m = system.n_coordinates, system.n_multipliers
    functions = system.functions
    residual, mass = functions["residual"], functions["mass_matrix"]
    none, zero, no_multipliers = ca.DM.zeros(residual.size1_in(5)), ca.DM.zeros(n), ca.DM.zeros(m)
    q_short, v_short = list(q), list(w)
    for rows, reference in nodes:
        vector = _sx_short([reference[k] + q[row] for k, row in enumerate(rows)])
        rates = _sx_inverse_tangent_product(vector, [w[row] for row in rows])
        for k, row in enumerate(rows):
            q_short[row], v_short[row] = vector[k] - reference[k], rates[k]
    q_stage, v_stage = ca.vertcat(*q_short), ca.vertcat(*v_short)
    right = -ca.densify(residual(t, q_stage, v_stage, zero, no_multipliers, none, p))
    matrix = ca.densify(mass(t, q_stage, v_stage, zero, no_multipliers, 1.0, 0.0, 0.0, zero, none, p))
    acceleration = [ca.SX(0.0)] * n
    for k, value in zip(free, ca.vertsplit(ca.solve(matrix[free, free], right[free]))):
        acceleration[k] = value
    for rows, reference in nodes:
        vector = [reference[k] + q_short[row] for k, row in enumerate(rows)]
        angular = _sx_tangent_product(vector, [acceleration[row] for row in rows])
        extra = _sx_rate_term(vector, [v_short[row] for row in rows])
        for k, row in enumerate(rows):
            acceleration[row] = angular[k] + extra[k]
    return acceleration


def _node_lists(rows_list, references) -> list:
    return [([int(k) for k in rows], [float(x) for x in reference]) for rows, reference in zip(rows_list, references)]


def end_function(system, rows_list, references, free) -> ca.Function:
    """The angular accelerations (t, q, w, p) -> W of ``LieGroupStages._angular_accelerations`` as an SX Function
    (M_ff solved symbolically)."""
    n = system.n_coordinates
    t, q, w = ca.SX.sym("t"), ca.SX.sym("q", n), ca.SX.sym("w", n)
    p = ca.SX.sym("p", system.functions["residual"].size1_in(6))
    acceleration = _sx_angular_accelerations(system, _node_lists(rows_list, references), [int(k) for k in free], t,
                                             ca.vertsplit(q), ca.vertsplit(w), p)
    return ca.Function("lie_group_accelerations", [t, q, w, p], [ca.vertcat(*acceleration)])


def _stage(system, rows_list, references, fixed, q_fixed, free) -> ca.Function:
    """One stage as an SX Function (t_i, q0, w0, U, dw, p) -> (K_i, W_i): the stage at rotation increment U and
    w = w0 + dw (the sums of the tableau's weights), as ``LieGroupStages._python_stages`` takes it, with M_ff solved
    symbolically."""
    n = system.n_coordinates
    t, q0, w0 = ca.SX.sym("t"), ca.SX.sym("q0", n), ca.SX.sym("w0", n)
    increment, change = ca.SX.sym("U", n), ca.SX.sym("dw", n)
    p = ca.SX.sym("p", system.functions["residual"].size1_in(6))
    nodes = _node_lists(rows_list, references)
    q, w = _sx_advanced(nodes, q0, increment, w0, change, fixed, q_fixed)
    acceleration = _sx_angular_accelerations(system, nodes, [int(k) for k in free], t, q, w, p)
    rotation_increment = ca.vertsplit(increment)
    for rows, reference in nodes:
        rates = _sx_inverse_tangent_product([rotation_increment[row] for row in rows], [w[row] for row in rows])
        for k, row in enumerate(rows):
            w[row] = rates[k]
    return ca.Function("lie_group_stage", [t, q0, w0, increment, change, p],
                       [ca.vertcat(*w), ca.vertcat(*acceleration)])


def step_function(system, tableau, end_accelerations, rows_list, references, fixed, q_fixed, free) -> ca.Function:
    """A step of ``LieGroupStages`` as one SX Function (t, q0, v0, a0, h, p) -> [K (n, s), W (n, s), w0, q, v, w,
    angular, a[, q_embedded, v_embedded, w_embedded]] stacked column by column into one vector: the stages
    (``_stage`` chained; a0: the first stage's angular accelerations), the end (q, v) of the weights b (and of the
    embedded weights) as ``_combine`` forms them, their angular velocities w as ``error`` takes them, and with
    ``end_accelerations`` the end's angular accelerations and accelerations a as ``_end_state`` takes them (else
    zeros); for a model whose complete residual and mass matrix are SX Functions without inputs."""
    n = system.n_coordinates
    nodes = _node_lists(rows_list, references)
    stage = _stage(system, rows_list, references, fixed, q_fixed, free)
    angular_accelerations_at = end_function(system, rows_list, references, free)
    t, h = ca.SX.sym("t"), ca.SX.sym("h")
    q0, v0, a0 = ca.SX.sym("q0", n), ca.SX.sym("v0", n), ca.SX.sym("a0", n)
    p = ca.SX.sym("p", stage.size1_in(5))

    def node_products(product_of, q, values):
        """``values`` with each node's rotation rows replaced by product_of(its rotation vector, those rows)."""
        q, values = ca.vertsplit(q), ca.vertsplit(values)
        for rows, reference in nodes:
            product = product_of([reference[k] + q[row] for k, row in enumerate(rows)], [values[row] for row in rows])
            for k, row in enumerate(rows):
                values[row] = product[k]
        return ca.vertcat(*values)

    def angular_form(q, v):
        return node_products(_sx_tangent_product, q, v)

    def rate_form(q, w):
        return node_products(_sx_inverse_tangent_product, q, w)

    def combine(weights):
        factors = [h * float(weight) for weight in weights]
        step_increment, change = factors[0] * increments[0], factors[0] * accelerations[0]
        for i in range(1, len(factors)):
            step_increment = step_increment + factors[i] * increments[i]
            change = change + factors[i] * accelerations[i]
        q, w = _sx_advanced(nodes, q0, step_increment, w0, change, fixed, q_fixed)
        q = ca.vertcat(*q)
        v = rate_form(q, ca.vertcat(*w))
        return q, v, angular_form(q, v)

    w0 = angular_form(q0, v0)
    c, a, b, b_embedded = tableau.arrays()
    increments, accelerations = [w0], [a0]
    for i in range(1, c.size):
        weights = [a[i, j] * h for j in range(i)]
        rotation_increment, change = weights[0] * increments[0], weights[0] * accelerations[0]
        for j in range(1, i):
            rotation_increment = rotation_increment + weights[j] * increments[j]
            change = change + weights[j] * accelerations[j]
        increment, acceleration = stage(t + c[i] * h, q0, w0, rotation_increment, change, p)
        increments.append(increment)
        accelerations.append(acceleration)
    q, v, w = combine(b)
    if end_accelerations:
        angular = angular_accelerations_at(t + h, q, w, p)
        rates, extra, turned = ca.vertsplit(angular), ca.vertsplit(angular), ca.vertsplit(q)
        velocities = ca.vertsplit(v)
        for rows, reference in nodes:
            vector = [reference[k] + turned[row] for k, row in enumerate(rows)]
            rate_part = _sx_rate_term(vector, [velocities[row] for row in rows])
            product = _sx_inverse_tangent_product(vector, [extra[row] - rate_part[k] for k, row in enumerate(rows)])
            for k, row in enumerate(rows):
                rates[row] = product[k]
        end = [angular, ca.vertcat(*rates)]
    else:
        end = [ca.SX.zeros(n), ca.SX.zeros(n)]
    outputs = [ca.horzcat(*increments), ca.horzcat(*accelerations), w0, q, v, w, *end]
    if b_embedded is not None:
        outputs += list(combine(b_embedded))
    stacked = ca.vertcat(*[ca.vec(ca.densify(x)) for x in outputs])
    return ca.Function("lie_group_step", [t, q0, v0, a0, h, p], [stacked])


def lie_group_nodes(system):
    """(rows (k, 3), reference rotation vectors (k, 3)) of the NodeRigidBodyRotVecLG of an assembled core system."""
    nodes = [node for node in system.nodes if isinstance(node, NodeRigidBodyRotationVector)]
    rows = np.array([node.coordinate_indices[3:6] for node in nodes], dtype=int).reshape(-1, 3)
    references = np.array([node.reference_coordinates[3:6] for node in nodes], dtype=float).reshape(-1, 3)
    return rows, references


class LieGroupStages:
    """Stages and steps of an explicit Runge-Kutta scheme with the rotation vectors of NodeRigidBodyRotVecLG on the
    rotation group (see the module); put before the scheme's class."""

    lie_rows = np.zeros((0, 3), dtype=int)
    lie_references = np.zeros((0, 3))
    _lie_start = None
    _w_start = None
    _step_kernel = None
    _step_end = None

    def set_lie_group_nodes(self, rows, references) -> None:
        self.lie_rows = np.asarray(rows, dtype=int).reshape(-1, 3)
        self.lie_references = np.asarray(references, dtype=float).reshape(-1, 3)
        self.name = f"{self.name} (Lie group)"

    def native_loop(self, system, prepared):
        """The Python steps only (the batched loop knows no Lie-group update)."""
        return None

    # --- between floatframe's velocities (v_t) and Exudyn's (w) -------------------------------------------
    def _angular_form(self, q, v) -> np.ndarray:
        return angular_velocities(self.lie_rows, self.lie_references, q, v)

    def _rate_form(self, q, w) -> np.ndarray:
        return rate_velocities(self.lie_rows, self.lie_references, q, w)

    def _angular_accelerations(self, t, q, w) -> np.ndarray:
        """The accelerations with each node's rotation rows d w/dt, evaluated at its rotation vector of angle <= pi:
        by the SX Function of the kernel where there is one and its values are finite, else in Python."""
        kernel = self._kernel()
        if kernel is not None:
            angular = kernel.end(t, q, w, self._accelerations.system.parameters_now())[0]
            if np.isfinite(angular).all():
                self._count()
                return angular.copy()
        return self._python_angular_accelerations(t, q, w)

    def _python_angular_accelerations(self, t, q, w) -> np.ndarray:
        """``_angular_accelerations`` in Python (``Accelerations``: LAPACK's LU)."""
        q_short, v_short = short_state(self.lie_rows, self.lie_references, q, w)
        a = self._accelerations(t, q_short, v_short)
        self._count()
        return angular_accelerations(self.lie_rows, self.lie_references, q_short, v_short, a)

    def _rate_accelerations(self, q, v, angular) -> np.ndarray:
        return rate_accelerations(self.lie_rows, self.lie_references, q, v, angular)

    def _compose(self, start, increments, target) -> None:
        """Write each node's rotation, the start's composed with its rows of ``increments``, into ``target``."""
        for rows, reference in zip(self.lie_rows, self.lie_references):
            target[rows] = np.subtract(_compose((reference + start[rows]).tolist(), increments[rows].tolist()),
                                       reference)

    # --- the steps --------------------------------------------------------------------------------------
    def _start_angular_velocities(self, state: State) -> np.ndarray:
        """w of the step's start (that of its stages where they were taken from this state)."""
        start = self._w_start
        if start is not None and start[0] is state.q and start[1] is state.v:
            return start[2]
        return self._angular_form(state.q, state.v)

    def _first_angular_stage(self, state: State, w0=None) -> np.ndarray:
        start = self._lie_start
        if start is not None and start[0] is state.q and start[1] is state.v:
            return start[2]
        return self._angular_accelerations(state.t, state.q, self._angular_form(state.q, state.v) if w0 is None
                                           else w0)

    def init(self, system, t0, q, v, accelerations=None, multipliers=None) -> State:
        self._step_kernel = None
        return super().init(system, t0, q, v, accelerations, multipliers)

    def _kernel(self):
        """The buffered SX Functions ``step`` (``step_function``) and ``end`` (``end_function``) where the model
        allows them (small, no Python user functions, no inputs; built at the first step of a solve), else None."""
        if self._step_kernel is None:
            system, accelerations = self._accelerations.system, self._accelerations
            simple = (system.n_coordinates <= SX_STAGES_LIMIT and not system.has_user_functions
                      and not system.inputs and all(system.functions[name].is_a("SXFunction")
                                                    for name in ("residual", "mass_matrix")))
            self._step_kernel = SimpleNamespace(
                step=BufferedFunction(step_function(system, self.tableau, self.end_accelerations, self.lie_rows,
                                                    self.lie_references, accelerations.fixed, self._q_fixed,
                                                    accelerations.free)),
                end=BufferedFunction(end_function(system, self.lie_rows, self.lie_references, accelerations.free))
            ) if simple else False
        return self._step_kernel or None

    def _stages(self, state: State, h: float):
        """The stage increments K (s, n) (velocities, and T(U_i)^-1 w_i in the rotation rows) and accelerations
        W (s, n) (angular accelerations in the rotation rows): one call of the step's SX Function where there is
        one, whose end states ``_combine``, ``error`` and ``_end_state`` then take (``_step_end``); where it gives
        values that are not finite, the Python stages (which report the cause)."""
        self._step_end = None
        kernel = self._kernel()
        if kernel is None:
            return self._python_stages(state, h)
        stages, n = self.tableau.stages, state.q.size
        first = self._first_angular_stage(state)
        values = kernel.step(state.t, state.q, state.v, first, h, self._accelerations.system.parameters_now())[0]
        if not np.isfinite(values).all():
            return self._python_stages(state, h)
        values = values.copy()       # (the buffer is the next step's; its pieces are views of this copy)
        self.statistics.residual_evaluations += stages - 1
        pieces = values.reshape(-1, n)          # K (stages rows), W (stages rows), then one row a vector
        increments, accelerations = pieces[:stages], pieces[stages:2 * stages]
        names = ["w0", "q", "v", "w", "angular", "a", "q_embedded", "v_embedded", "w_embedded"]
        self._step_end = SimpleNamespace(increments=increments, **dict(zip(names, pieces[2 * stages:])))
        self._w_start = (state.q, state.v, self._step_end.w0)
        return increments, accelerations

    def _python_stages(self, state: State, h: float):
        """``_stages`` in Python: the accelerations of each stage by ``Accelerations`` (LAPACK's LU)."""
        stages, n = self.tableau.stages, state.q.size
        increments, accelerations = np.empty((stages, n)), np.empty((stages, n))
        w0 = self._angular_form(state.q, state.v)
        self._w_start = (state.q, state.v, w0)
        increments[0] = w0                       # T(0)^-1 = I
        accelerations[0] = self._first_angular_stage(state, w0)
        for i in range(1, stages):
            weights = self.a[i, :i] * h
            rotation_increment = weights @ increments[:i]
            q = state.q + rotation_increment
            self._compose(state.q, rotation_increment, q)
            w = w0 + weights @ accelerations[:i]
            self._accelerations.hold(q, w, self._q_fixed)
            accelerations[i] = self._python_angular_accelerations(state.t + self.c[i] * h, q, w)
            increments[i] = w
            for rows in self.lie_rows:
                increments[i, rows] = _inverse_tangent_product(rotation_increment[rows].tolist(), w[rows].tolist())
        return increments, accelerations

    def _combine(self, state, h, weights, increments, accelerations):
        """(q, v) at the step's end for the weights: rotations composed, v_t of the end's rotation vectors (the step
        Function's where it took these stages)."""
        end = self._step_end
        if end is not None and increments is end.increments and weights is self.b:
            return end.q, end.v
        if end is not None and increments is end.increments and weights is self.b_embedded:
            return end.q_embedded, end.v_embedded
        step_increment = (h * weights) @ increments
        q = state.q + step_increment
        self._compose(state.q, step_increment, q)
        w = self._start_angular_velocities(state) + (h * weights) @ accelerations
        self._accelerations.hold(q, w, self._q_fixed)
        return q, self._rate_form(q, w)

    def _end_state(self, t, q, v, accelerations) -> State:
        end = self._step_end
        if self.end_accelerations and end is not None and q is end.q and v is end.v:
            self._lie_start = (q, v, end.angular)
            lam = self._accelerations.multipliers(t, q, v, end.a)
            self.statistics.steps += 1
            return State(t, q, v, end.a, end.a, lam)
        if self.end_accelerations:
            angular = self._angular_accelerations(t, q, self._angular_form(q, v))
            self._lie_start = (q, v, angular)
        else:
            angular = accelerations[-1].copy()
            angular[self._accelerations.fixed] = 0.0
            self._lie_start = None
        a = self._rate_accelerations(q, v, angular)
        lam = self._accelerations.multipliers(t, q, v, a)
        self.statistics.steps += 1
        return State(t, q, v, a, a, lam)

    def error(self, state, q, v, q_embedded, v_embedded) -> float:
        """The embedded pair's error with the rotation rows' velocities as angular velocities (as Exudyn's)."""
        end = self._step_end
        if end is not None and q is end.q and q_embedded is end.q_embedded and v is end.v \
                and v_embedded is end.v_embedded:
            return super().error(SimpleNamespace(q=state.q, v=end.w0), q, end.w, q_embedded, end.w_embedded)
        start = SimpleNamespace(q=state.q, v=self._angular_form(state.q, state.v))
        return super().error(start, q, self._angular_form(q, v), q_embedded,
                             self._angular_form(q_embedded, v_embedded))


def _lie_group_class(scheme):
    return type(f"LieGroup{scheme.__name__}", (LieGroupStages, scheme),
                {"__doc__": f"{scheme.__name__} with the rotation vectors of NodeRigidBodyRotVecLG on the rotation "
                            f"group (``floatframe.exudyn._lie_group_explicit``)."})


LIE_GROUP_FIXED_STEP = {scheme.__name__: _lie_group_class(scheme)
                        for scheme in (ExplicitEuler, ExplicitMidpoint, RK33, RK44, RK67)}
LIE_GROUP_EMBEDDED = {scheme.__name__: _lie_group_class(scheme) for scheme in (ODE23, DOPRI5, DVERK6)}


def refuse_velocity_verlet(rows) -> None:
    if len(rows):
        raise ExudynLayerError("SolveDynamic: solverType VelocityVerlet with timeIntegration.explicit."
                               "useLieGroupIntegration = True is not supported for NodeRigidBodyRotVecLG (floatframe's "
                               "Lie-group update is made for the Runge-Kutta schemes); use RK44 or another "
                               "Runge-Kutta solverType")


# --- systemData: Exudyn's velocity coordinates of the nodes -------------------------------------------------------
def exudyn_velocities(mbs, function: str, state, values) -> np.ndarray:
    """systemData.GetODE2Coordinates_t (_tt) of a state (full vectors) with each NodeRigidBodyRotVecLG's rotation
    rows as Exudyn's: the body-fixed angular velocity (acceleration); other vectors as they are."""
    if function not in ("GetODE2Coordinates_t", "GetODE2Coordinates_tt") or mbs._core is None or \
            np.size(values) != np.size(state[1]):
        return values
    rows, references = lie_group_nodes(mbs._core)
    if not len(rows):
        return values
    if function == "GetODE2Coordinates_t":
        return angular_velocities(rows, references, state[1], values)
    return angular_accelerations(rows, references, state[1], state[2], values)


def floatframe_velocities(mbs, function: str, values, kind: str):
    """(values, velocities) for systemData.Set... (full vectors): Exudyn's angular velocities (accelerations) of the
    NodeRigidBodyRotVecLG turned into rotation-vector rates; for new coordinates also the velocities that keep the
    nodes' angular velocities (None where nothing changes)."""
    if mbs._core is None or kind == "Reference" or function not in (
            "SetODE2Coordinates", "SetODE2Coordinates_t", "SetODE2Coordinates_tt"):
        return values, None
    rows, references = lie_group_nodes(mbs._core)
    state = mbs.state(kind)
    if not len(rows) or np.size(values) != np.size(state[1]):
        return values, None
    q, v = state[1], state[2]
    values = np.asarray(values, dtype=float).reshape(-1)
    if function == "SetODE2Coordinates_t":
        return rate_velocities(rows, references, q, values), None
    if function == "SetODE2Coordinates_tt":
        return rate_accelerations(rows, references, q, v, values), None
    return values, rate_velocities(rows, references, values, angular_velocities(rows, references, q, v))
