"""Lie-group generalized-alpha (Bruls, Cardona and Arnold 2012, Mech. Mach. Theory 48) for Euler-parameter nodes.

The standard scheme (``floatframe.solvers.genalpha``) updates every coordinate additively, so the Euler
parameters theta of a rotation leave the unit sphere within the step and the norm constraint
theta^T theta - 1 = 0 pulls them back. Here each Euler-parameter node (``DAE.euler_parameter_rows``) is
integrated on the rotation group: its velocity is the body-fixed angular velocity omega (3), its acceleration
the angular acceleration omega_t (3), and with the algorithmic accelerations abar of the node (3)

    Delta_n     = omega_n + h (1/2 - beta) abar_n + h beta abar_{n+1}
    theta_{n+1} = theta_n * exp(h Delta_n)                     (quaternion product; exp(w) = [cos |w|/2, sin |w|/2 w/|w|])
    omega_{n+1} = omega_n + h (1 - gamma) abar_n + h gamma abar_{n+1}
    (1 - alpha_m) abar_{n+1} + alpha_m abar_n = (1 - alpha_f) omega_t,{n+1} + alpha_f omega_t,n

while the other coordinates follow the standard (vector-space) formulas of ``floatframe.solvers.alpha``.
theta_{n+1} is a product of unit quaternions: its norm is 1 to round-off by construction, the norm
constraint is not solved for. The DAE still sees Euler-parameter states (floatframe's convention
omega = G_local(theta) theta_t, ``floatframe.rotations.g_local``):

    theta_t = G_local(theta)^T omega / 4,   theta_tt = G_local(theta_t)^T omega / 4 + G_local(theta)^T omega_t / 4.

Newton solves for x = (a of the other coordinates, omega_t of each node, lambda) with the rows
[R(t, q, v, a, lambda); C / beta'] without the nodes' norm-constraint rows (which hold identically; their
multipliers stay unknowns: the residual's four theta rows of a node determine the node's three angular
accelerations and its norm multiplier). The iteration matrix is exact: the contract's newton_matrix at the
factors (1, 0, 0), (0, 1, 0), (0, 0, 1) gives R_a, R_v, R_q, C_q and R_lambda, chained with the derivatives of
(q, v, a) with respect to x; the rotation blocks (4 x 3 per node) are CasADi's derivatives of the update
above, which contain the tangent operator of the exponential map: d theta_{n+1} = G_local(theta_{n+1})^T
T(h Delta) h d Delta / 4 (``floatframe.rotations.t_exp_so3``). Models of at most DENSE_SIZE coordinates and
multipliers without Python user functions evaluate rows and matrix in one CasADi Function (the node updates
composed with the contract's ``residual_with_jacobian`` and ``functions["constraints"]``, differentiated by
CasADi); the others through ``residual`` and ``newton_matrix``. Full Newton, a new matrix every iteration (a
modified Newton was measured no faster: the rows cost as much as the matrix here), dense LAPACK LU up to DENSE_SIZE
unknowns, sparse LU above; fixed steps (a failed step is halved, as in every fixed-step scheme of
``floatframe.solvers.loop``).

The algorithmic accelerations of a node are stored in ``State.abar``'s theta rows in Euler-parameter form,
G_local(theta)^T abar / 4, from which G_local(theta) gives them back (G_local G_local^T = 4 I on |theta| = 1).
"""
from __future__ import annotations

import math

import casadi as ca
import numpy as np
import scipy.sparse as sp

from floatframe import rotations
from floatframe.linalg import euclidean_norm
from floatframe.solvers.alpha import not_converged, not_finite, predictor, step_factors
from floatframe.solvers.genalpha import EPS, GeneralizedAlpha
from floatframe.solvers.linear import LapackLU, factorize, singular_cause
from floatframe.solvers.loop import State
from floatframe.solvers.result import SolverError

DENSE_SIZE = 200             # models of at most this many coordinates and multipliers: dense iteration matrix
NORM_ROW_TOLERANCE = 1e-10   # a constraint row is a node's norm constraint where C_q's row is 2 theta to this


class LieGroupGeneralizedAlpha(GeneralizedAlpha):
    """Index-3 generalized-alpha with the Euler-parameter nodes' rotations updated on the rotation group.

    Parameters
    ----------
    spectral_radius : rho_infinity in [0, 1] (the coefficients of :class:`GeneralizedAlpha`).
    relative_tolerance, absolute_tolerance : Newton stops when the update of the accelerations x satisfies
        |dx| <= relative_tolerance |x| + absolute_tolerance (plus the round-off floor of the constraint rows).
    max_iterations : Newton iterations per step before the step fails (and is halved).
    min_step : smallest step [s] the halving may reach (default: the requested step / 2^10).
    """

    name = "genalpha-lie"
    order = 2

    def __init__(self, spectral_radius=0.9, relative_tolerance=1e-10, absolute_tolerance=1e-12,
                 max_iterations=25, min_step=None):
        super().__init__(spectral_radius, False, relative_tolerance, absolute_tolerance, max_iterations, 3,
                         min_step, "auto", False, native=False)

    def prepare(self, system, n_steps: int = 0):
        return _LieNewton(self, system)

    def start(self, system, state: State, grid, n_steps: int):
        return self.prepare(system, n_steps)

    def native_loop(self, system, prepared):
        return None

    def rejected(self) -> None:
        """Nothing is kept between iterations."""

    def finish(self, system, states: list, info: dict, prepared) -> None:
        info["lie_group_nodes"] = len(system.euler_parameter_rows)

    def describe(self, h) -> dict:
        return dict(h=h, spectral_radius=self.spectral_radius_label(), index=3, rotations="Lie group")

    def step(self, system, state: State, h: float, prepared=None) -> State:
        """Advance by h (full Newton); raises SolverError if Newton fails."""
        newton = self.prepare(system) if prepared is None else prepared
        c_q, c_v, kappa = step_factors(h, self.alpha_m, self.alpha_f, self.beta, self.gamma)
        t = state.t + h
        newton.start(state, h, c_q, c_v, kappa)
        x = newton.initial_unknowns(state)
        stats = self.statistics
        coordinate_scale = np.abs(state.q + system.q_reference).max(initial=0.0) + 1.0
        roundoff = 10 * EPS * coordinate_scale * math.sqrt(max(system.n_multipliers, 1)) / c_q
        accelerations = newton.n_unknowns
        size, residual = np.inf, None
        for iteration in range(1, self.max_iterations + 1):
            stats.residual_evaluations += 1
            stats.jacobian_evaluations += 1
            residual, matrix = newton.rows_and_matrix(x)
            if not np.isfinite(residual).all() or not np.isfinite(matrix.data if sp.issparse(matrix) else matrix).all():
                raise SolverError(not_finite(t, iteration), t)
            stats.factorizations += 1
            try:
                update = (factorize(matrix) if sp.issparse(matrix) else LapackLU(matrix)).solve(residual)
            except RuntimeError as exc:
                raise SolverError(f"{self.name}: singular iteration matrix at t = {t:.6g} ({exc}); "
                                  f"{singular_cause(system, t, newton.standard_matrix())}", t) from None
            x -= update
            stats.newton_iterations += 1
            size = euclidean_norm(update[:accelerations])
            scale = euclidean_norm(x[:accelerations])
            if size <= self.relative_tolerance * scale + self.absolute_tolerance + roundoff:
                break
        else:
            raise SolverError(not_converged(t, self.max_iterations, euclidean_norm(residual), size), t)
        stats.steps += 1
        return newton.finish(x)


class _LieNewton:
    """The rows, the iteration matrix and the state of one Lie-group step, for a system's node layout."""

    def __init__(self, solver, system):
        self.solver, self.system = solver, system
        n, m = system.n_coordinates, system.n_multipliers
        self.rotation_rows = [np.asarray(rows, dtype=int) for rows in system.euler_parameter_rows]
        k = len(self.rotation_rows)
        rotation = np.concatenate(self.rotation_rows) if k else np.zeros(0, dtype=int)
        self.other = np.setdiff1d(np.arange(n), rotation)
        self.n, self.m, self.k = n, m, k
        self.n_unknowns = self.other.size + 3 * k      # accelerations: other coordinates, then 3 per node
        self.norm_rows = _norm_constraint_rows(system, self.rotation_rows)
        self.kept_rows = np.setdiff1d(np.arange(m), self.norm_rows)
        self.node_update = _node_update(solver.alpha_m, solver.alpha_f, solver.beta, solver.gamma)
        self.node_updates = self.node_update.map(max(k, 1))
        inputs = self.node_update.sx_in()
        self.node_states = ca.Function("lie_node_states", inputs, self.node_update(*inputs)[:4]).map(max(k, 1))
        # d(q, v, a)/dx: the other coordinates' columns (times c_q, c_v, 1), and where each node's 4 x 3 block goes
        columns = np.arange(self.other.size)
        self._other_selection = sp.csc_matrix((np.ones(self.other.size), (self.other, columns)),
                                              shape=(n, self.n_unknowns))
        self._block_rows = np.array([[rows[r] for r in range(4) for _ in range(3)] for rows in self.rotation_rows],
                                    dtype=int).reshape(-1)
        self._block_columns = np.array([[self.other.size + 3 * i + c for _ in range(4) for c in range(3)]
                                        for i in range(k)], dtype=int).reshape(-1)
        self.evaluated = None   # (t, q, v, a, lambda) of the last iteration matrix
        self.kernel = (_newton_kernel(self, system) if self.n + m <= DENSE_SIZE and not system.has_user_functions
                       else None)

    # --- the step ---------------------------------------------------------------------------
    def start(self, state: State, h, c_q, c_v, kappa):
        solver, system = self.solver, self.system
        self.t, self.h, self.c_q, self.c_v, self.kappa = state.t + h, h, c_q, c_v, kappa
        known = predictor(state.q, state.v, state.a, state.abar, h, solver.alpha_m, solver.alpha_f, solver.beta,
                          solver.gamma)
        self.q_known, self.v_known, self.abar_known = (part[self.other] for part in known)
        self.reference = system.q_reference
        if self.k:   # each node at step n (a column each): theta, omega, omega_t, abar
            self.theta_n = thetas = np.column_stack([state.q[r] + self.reference[r] for r in self.rotation_rows])
            self.omega_n = np.column_stack([rotations.g_local(thetas[:, i]) @ state.v[r]
                                            for i, r in enumerate(self.rotation_rows)])
            self.omega_t_n = np.column_stack([rotations.g_local(thetas[:, i]) @ state.a[r]
                                              for i, r in enumerate(self.rotation_rows)])
            self.abar_n = np.column_stack([rotations.g_local(thetas[:, i]) @ state.abar[r]
                                           for i, r in enumerate(self.rotation_rows)])
            self.nodes_n = (self.theta_n, self.omega_n, self.omega_t_n, self.abar_n)
        else:
            self.nodes_n = (np.zeros((4, 0)), np.zeros((3, 0)), np.zeros((3, 0)), np.zeros((3, 0)))

    def initial_unknowns(self, state: State) -> np.ndarray:
        """x = (a of the other coordinates, omega_t of each node, lambda) of the step's start."""
        parts = [state.a[self.other]]
        if self.k:
            parts.append(self.omega_t_n.T.reshape(-1))
        parts.append(state.lam)
        return np.concatenate(parts)

    def _states(self, x, derivatives=True):
        """q, v, a, abar (n,) and (with ``derivatives``, else None) the rotation blocks (d theta, d theta_t,
        d theta_tt)/d omega_t (4, 3k)."""
        n_other = self.other.size
        a_other = x[:n_other]
        q, v, a, abar = (np.zeros(self.n) for _ in range(4))
        q[self.other] = self.q_known + self.c_q * a_other
        v[self.other] = self.v_known + self.c_v * a_other
        a[self.other] = a_other
        abar[self.other] = self.abar_known + self.kappa * a_other
        blocks = None
        if self.k:
            omega_t = x[n_other:self.n_unknowns].reshape(self.k, 3).T
            update = self.node_updates if derivatives else self.node_states
            out = [np.asarray(o) for o in update(self.theta_n, self.omega_n, self.omega_t_n, self.abar_n, omega_t, self.h)]
            theta, theta_t, theta_tt, abar_theta = out[:4]
            for i, rows in enumerate(self.rotation_rows):
                q[rows] = theta[:, i] - self.reference[rows]
                v[rows], a[rows], abar[rows] = theta_t[:, i], theta_tt[:, i], abar_theta[:, i]
            blocks = tuple(out[4:]) if derivatives else None
        return q, v, a, abar, blocks

    def rows_and_matrix(self, x):
        """The Newton rows [R; C_kept / beta'] and their exact Jacobian in x: a NumPy array for models of at most
        DENSE_SIZE coordinates and multipliers (SciPy's sparse overhead dominates there), else sparse."""
        system, t, n = self.system, self.t, self.n
        if self.kernel is not None:
            self.evaluated = x.copy()
            rows, matrix = self.kernel(x, t, self.h, self.c_q, self.c_v, self.kappa, self.q_known, self.v_known,
                                       self.abar_known, *self.nodes_n, system.input_vector(float(t)),
                                       system.parameters_now())
            return np.asarray(rows).ravel(), matrix.full()
        lam = x[self.n_unknowns:]
        q, v, a, _, blocks = self._states(x)
        rows = np.concatenate([system.residual(t, q, v, a, lam), system.constraints(t, q)[self.kept_rows] / self.c_q])
        self.evaluated = (t, q, v, a, lam)
        r_a, r_v, r_q = (system.newton_matrix(t, q, v, a, lam, *factors)
                         for factors in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)))
        if self.n + self.m <= DENSE_SIZE:
            r_a, r_v, r_q = (matrix.toarray() for matrix in (r_a, r_v, r_q))
            d_q, d_v, d_a = (np.zeros((n, self.n_unknowns)) for _ in range(3))
            columns = np.arange(self.other.size)
            for d, factor in zip((d_q, d_v, d_a), (self.c_q, self.c_v, 1.0)):
                d[self.other, columns] = factor
            if blocks is not None:
                for d, block in zip((d_q, d_v, d_a), blocks):
                    d[self._block_rows, self._block_columns] = block.reshape(4, self.k, 3).transpose(1, 0, 2).reshape(-1)
            top = r_a[:n, :n] @ d_a + r_v[:n, :n] @ d_v + r_q[:n, :n] @ d_q
            bottom = r_q[n:, :n][self.kept_rows] @ d_q / self.c_q
            return rows, np.block([[top, r_a[:n, n:]], [bottom, np.zeros((bottom.shape[0], self.m))]])
        r_a, r_v, r_q = (matrix.tocsc() for matrix in (r_a, r_v, r_q))
        d_q, d_v, d_a = (self._other_selection * factor for factor in (self.c_q, self.c_v, 1.0))
        if blocks is not None:
            shape = (n, self.n_unknowns)
            # block (4, 3k): node i's 4 x 3 derivative in columns 3i..3i+2, entries row by row per node
            d_q, d_v, d_a = (d + sp.csc_matrix((block.reshape(4, self.k, 3).transpose(1, 0, 2).reshape(-1),
                                                (self._block_rows, self._block_columns)), shape=shape)
                             for d, block in zip((d_q, d_v, d_a), blocks))
        top = r_a[:n, :n] @ d_a + r_v[:n, :n] @ d_v + r_q[:n, :n] @ d_q
        bottom = (r_q[n:, :n][self.kept_rows] @ d_q) / self.c_q
        return rows, sp.bmat([[top, r_a[:n, n:]], [bottom, None]], format="csc")

    def standard_matrix(self):
        """The standard scheme's iteration matrix at the last iterate, for the diagnosis of a singular matrix."""
        if self.kernel is not None:   # evaluated holds x
            q, v, a, _, _ = self._states(self.evaluated)
            return self.system.newton_matrix(self.t, q, v, a, self.evaluated[self.n_unknowns:], 1.0, self.c_v, self.c_q)
        return self.system.newton_matrix(*self.evaluated, 1.0, self.c_v, self.c_q)

    def finish(self, x) -> State:
        q, v, a, abar, _ = self._states(x, derivatives=False)
        lam = x[self.n_unknowns:].copy()
        self.system.current_state = (self.t, q, v, a, lam)
        return State(self.t, q, v, a, abar, lam)


def _newton_kernel(newton, system) -> ca.Function:
    """One CasADi Function of the Newton iteration of a small model without Python user functions:
    (x, t, h, c_q, c_v, kappa, q_known, v_known, abar_known, theta_n, omega_n, omega_t_n, abar_n, u, p) ->
    (the rows, their Jacobian in x), the node updates composed with the contract's complete residual
    (``residual_with_jacobian``) and constraint Functions and differentiated by CasADi: the same numbers as the
    evaluation through ``residual`` and ``newton_matrix``, without their per-call overhead."""
    n, m, k, other = newton.n, newton.m, newton.k, newton.other
    x = ca.SX.sym("x", newton.n_unknowns + m)
    t, h, c_q, c_v, kappa = (ca.SX.sym(name) for name in ("t", "h", "c_q", "c_v", "kappa"))
    q_known, v_known, abar_known = (ca.SX.sym(name, other.size) for name in ("q_known", "v_known", "abar_known"))
    theta_n, omega_n, omega_t_n, abar_n = (ca.SX.sym(name, rows, k) for name, rows in
                                           (("theta_n", 4), ("omega_n", 3), ("omega_t_n", 3), ("abar_n", 3)))
    u, p = ca.SX.sym("u", system.input_vector(0.0).size), ca.SX.sym("p", system.parameters_now().size)
    a_other, lam = x[:other.size], x[newton.n_unknowns:]
    q, v, a = ([None] * n for _ in range(3))
    for j, i in enumerate(other):
        q[i], v[i], a[i] = q_known[j] + c_q * a_other[j], v_known[j] + c_v * a_other[j], a_other[j]
    node = newton.node_update
    for i, rows in enumerate(newton.rotation_rows):
        omega_t = x[other.size + 3 * i:other.size + 3 * i + 3]
        theta, theta_t, theta_tt = node(theta_n[:, i], omega_n[:, i], omega_t_n[:, i], abar_n[:, i], omega_t, h)[:3]
        for r, row in enumerate(rows):
            q[row], v[row], a[row] = theta[r] - system.q_reference[row], theta_t[r], theta_tt[r]
    q, v, a = (ca.vertcat(*entries) for entries in (q, v, a))
    residual = system.residual_with_jacobian()(t, q, v, a, lam, u, p)
    constraints = system.functions["constraints"](t, q, u, p)
    rows = ca.vertcat(residual, constraints[[int(r) for r in newton.kept_rows]] / c_q) if newton.kept_rows.size \
        else residual
    return ca.Function("lie_group_newton", [x, t, h, c_q, c_v, kappa, q_known, v_known, abar_known, theta_n, omega_n,
                                            omega_t_n, abar_n, u, p], [rows, ca.jacobian(rows, x)])


def _norm_constraint_rows(system, rotation_rows) -> np.ndarray:
    """The constraint row theta^T theta - 1 of each Euler-parameter node: its row of C_q at the initial state is
    2 theta in the node's theta columns and zero elsewhere. ValueError naming the node where none is found."""
    q = system.q_initial
    jacobian = sp.csr_matrix(system.constraint_jacobian(0.0, q))
    found = []
    for rows in rotation_rows:
        theta = q[rows] + system.q_reference[rows]
        match = None
        for r in range(jacobian.shape[0]):
            row = jacobian.getrow(r).toarray().ravel()
            outside = np.delete(row, rows)
            if (not np.any(outside) and np.abs(row[rows] - 2 * theta).max() <= NORM_ROW_TOLERANCE
                    and r not in found):
                match = r
                break
        if match is None:
            raise ValueError(f"LieGroupGeneralizedAlpha: no Euler-parameter norm constraint (theta^T theta - 1) "
                             f"found for the node of {system.describe_coordinates(rows)}")
        found.append(match)
    return np.array(found, dtype=int)


def quaternion_exponential(w):
    """exp(w) = [cos(|w|/2), sin(|w|/2) w / |w|] (CasADi), by its series below |w| = 1e-3."""
    angle2 = ca.sumsqr(w)
    small = angle2 < 1e-6
    angle = ca.sqrt(ca.if_else(small, 1e-6, angle2))
    factor = ca.if_else(small, 0.5 - angle2 / 48 + angle2 ** 2 / 3840, ca.sin(0.5 * angle) / angle)
    scalar = ca.if_else(small, 1 - angle2 / 8 + angle2 ** 2 / 384, ca.cos(0.5 * angle))
    return ca.vertcat(scalar, factor * w)


def quaternion_product(p, r):
    """p * r for quaternions with the scalar part first."""
    return ca.vertcat(p[0] * r[0] - ca.dot(p[1:], r[1:]), p[0] * r[1:] + r[0] * p[1:] + ca.cross(p[1:], r[1:]))


def _node_update(alpha_m, alpha_f, beta, gamma) -> ca.Function:
    """One node's step: (theta_n, omega_n, omega_t_n, abar_n, omega_t, h) -> (theta, theta_t, theta_tt,
    abar in Euler-parameter form, and the derivatives of theta, theta_t, theta_tt with respect to omega_t)."""
    theta_n, omega_n, omega_t_n, abar_n = (ca.SX.sym(name, size) for name, size in
                                           (("theta_n", 4), ("omega_n", 3), ("omega_t_n", 3), ("abar_n", 3)))
    omega_t, h = ca.SX.sym("omega_t", 3), ca.SX.sym("h")
    kappa = (1 - alpha_f) / (1 - alpha_m)
    abar = (alpha_f * omega_t_n - alpha_m * abar_n) / (1 - alpha_m) + kappa * omega_t
    increment = omega_n + h * (0.5 - beta) * abar_n + h * beta * abar
    omega = omega_n + h * (1 - gamma) * abar_n + h * gamma * abar
    theta = quaternion_product(theta_n, quaternion_exponential(h * increment))
    g = rotations.g_local(theta)
    theta_t = g.T @ omega / 4
    theta_tt = rotations.g_local(theta_t).T @ omega / 4 + g.T @ omega_t / 4
    outputs = [theta, theta_t, theta_tt, g.T @ abar / 4,
               ca.jacobian(theta, omega_t), ca.jacobian(theta_t, omega_t), ca.jacobian(theta_tt, omega_t)]
    return ca.Function("lie_node_update", [theta_n, omega_n, omega_t_n, abar_n, omega_t, h], outputs)


__all__ = ["LieGroupGeneralizedAlpha"]
