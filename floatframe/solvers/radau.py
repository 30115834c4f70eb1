"""Radau IIA of order 5 (three stages) for the index-3 DAE, with Hairer's index scaling.

The mechanical DAE q' = v, v' = a, R(t, q, v, a, lambda) = 0, C(t, q) = 0 as a first-order system in
(q, v) takes the three-stage Radau IIA method (Butcher matrix ``BUTCHER``, nodes ``NODES``, c_3 = 1). With the
stage accelerations A_i and multipliers L_i as unknowns, the stage velocities and positions are

    V_i = v_n + h sum_j a_ij A_j,     Q_i = q_n + c_i h v_n + h^2 sum_j (a^2)_ij A_j

(the method applied to q' = v as well), and the 3 (n + m) stage equations

    R(t_n + c_i h, Q_i, V_i, A_i, L_i) = 0,     C(t_n + c_i h, Q_i) / h^2 = 0     (i = 1, 2, 3)

are solved by a simplified Newton iteration whose matrix is taken at (t_n, q_n, v_n, a_n, lambda_n):

    J = I (x) [[M, C_q^T], [0, 0]] + h a (x) [[R_v, 0], [0, 0]] + a^2 (x) [[h^2 R_q, 0], [C_q, 0]].

The method is stiffly accurate: the new state is the last stage (q, v, a, lambda)_{n+1} = (Q_3, V_3, A_3, L_3),
so C(t_{n+1}, q_{n+1}) = 0 holds to the Newton tolerance.

Linear algebra (``linear_solver``): "transformed" (default) diagonalises a = T diag(g, w, conj w) T^-1 (Hairer and
Wanner, Solving ODEs II, section IV.8): J falls apart into one real block
[[M + h g R_v + h^2 g^2 R_q, C_q^T], [C_q, 0]] and one complex block of the same form with w, each of n + m
unknowns, from the contract's Jacobian blocks (``DAE.newton_matrix`` with the factors (1, 0, 0), (0, 1, 0),
(0, 0, 1)). "full" factorizes the real 3 (n + m) matrix J itself; both give the same iterates to round-off
(dense LAPACK LU up to ``DENSE_LIMIT`` unknowns a block, SuperLU above). On Andrews' mechanism (n + m = 97)
the transformed system takes 1.10 s for 300 steps, the full one 1.75 s.

Convergence tests in Hairer's index scaling (RADAU5): the Newton updates are measured in (Q, V, L), the
positions (index 1) with the weight 1 / (atol + rtol |q|_max), the velocities (index 2) with h / (atol +
rtol |v|_max) and the multipliers (index 3) with h^2 / (atol + rtol |lambda|_max), so that their updates,
which the constraint rows C / h^2 make O(eps / h) and O(eps / h^2), do not stall the iteration at small steps.
(RADAU5 scales component by component; here each group by its largest magnitude, the velocities by at least
|q|_max / 1 s, so that components that start at zero are not held to atol alone.) Newton stops when
theta / (1 - theta) |dZ| <= 1 (theta: the measured contraction; before it is measured, |dZ| <= 1), and
fails when theta >= 0.99, or when the contraction predicts no convergence within ``max_iterations``; with a
Jacobian carried over from an earlier step it first retries with a new one. The first iterate is the previous
step's collocation polynomial of a and lambda, extrapolated.

The price of the index scaling at fixed steps: the velocities are resolved to rtol |v| / h a step, whose sum
over T / h steps moves the positions by about rtol |v| T^2 / h^2. On Andrews' mechanism at
relative_tolerance 1e-14, h = 5e-5, 2.5e-5, 1.25e-5 s give 9.0, 8.2, 7.8 significant digits: below some h a
tighter tolerance, not a smaller step, gains digits. :class:`AdaptiveRadauIIA` ties the Newton tolerance to
its error tolerance as RADAU5 does, and has RADAU5's error estimate and step-size control.

Order (Hairer, Lubich and Roche 1989; Hairer and Wanner, section VII.4): for index-3 problems the positions
converge with order 2s - 1 = 5, the velocities with order s = 3 and the multipliers with s - 1 = 2 (``order``
is the positions' 5). tests/solvers/test_radau.py measures 4.90, 4.96 (positions), 2.91, 2.97 (velocities)
and 2.16, 2.05 (multipliers) on the pendulum.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.linalg
import scipy.sparse as sp

from floatframe.errors import UserFunctionError
from floatframe.linalg import sparse_lu
from floatframe.solvers.linear import consistent_accelerations, factorize, singular_cause
from floatframe.solvers.loop import Scheme, State
from floatframe.solvers.result import SolverError
from floatframe.solvers.safeguards import (DRIFT, STRICT, check_count, check_nonnegative, check_positive,
                                           user_function_failure)

SQRT6 = math.sqrt(6.0)
NODES = np.array([(4.0 - SQRT6) / 10.0, (4.0 + SQRT6) / 10.0, 1.0])
BUTCHER = np.array([[(88.0 - 7.0 * SQRT6) / 360.0, (296.0 - 169.0 * SQRT6) / 1800.0, (-2.0 + 3.0 * SQRT6) / 225.0],
                    [(296.0 + 169.0 * SQRT6) / 1800.0, (88.0 + 7.0 * SQRT6) / 360.0, (-2.0 - 3.0 * SQRT6) / 225.0],
                    [(16.0 - SQRT6) / 36.0, (16.0 + SQRT6) / 36.0, 1.0 / 9.0]])
BUTCHER_SQUARED = BUTCHER @ BUTCHER
DENSE_LIMIT = 500           # unknowns per block up to which the blocks are factorized by dense LAPACK LU
EPS = np.finfo(float).eps
SAFETY = 0.9                # RADAU5's safety factor of the step-size control
# RADAU5's weights of the stage increments in the error estimate (DD1, DD2, DD3)
ERROR_WEIGHTS = np.array([-(13.0 + 7.0 * SQRT6) / 3.0, (-13.0 + 7.0 * SQRT6) / 3.0, -1.0 / 3.0])
STEP_CHANGE_TOLERANCE = 1e-8  # relative change of h below which a factorized matrix serves the next step


def _eigen_decomposition():
    """(eigenvalues (3,), T (3, 3), T^-1) of BUTCHER, the real eigenvalue first, then w and conj(w)."""
    values, vectors = np.linalg.eig(BUTCHER)
    real = int(np.argmin(np.abs(values.imag)))
    pair = [k for k in range(3) if k != real]
    upper = pair[0] if values[pair[0]].imag > 0 else pair[1]
    eigenvalues = np.array([values[real].real, values[upper], np.conj(values[upper])])
    transform = np.column_stack([vectors[:, real].real, vectors[:, upper], np.conj(vectors[:, upper])])
    return eigenvalues, transform, np.linalg.inv(transform)


EIGENVALUES, TRANSFORM, TRANSFORM_INVERSE = _eigen_decomposition()


class RadauIIA(Scheme):
    """Three-stage Radau IIA (order 5 in the positions) on the index-3 DAE, fixed steps on the loop's grid.

    Parameters
    ----------
    relative_tolerance, absolute_tolerance : Newton's stopping test, with the weights 1 / (atol + rtol |y|_max)
        of the positions, velocities and multipliers (|y|_max: the group's largest magnitude at the step's
        start), index-scaled (see the module docstring); >= 0, not both 0.
    max_iterations : simplified Newton iterations per step before the step fails.
    linear_solver : "transformed" (a real and a complex block of n + m unknowns) or "full" (the real
        3 (n + m) system).
    jacobian_reuse : a step whose Newton contraction stayed below this keeps the Jacobian for the next step
        (and its LU for a step of the same size): RADAU5's THET, 0.001; 0 evaluates it at every step.
    min_step : smallest step [s] the loop's halving may reach (default: the requested step / 2^10).
    """

    name = "radau5-fixed"
    order = 5
    initial_tolerances = (STRICT, DRIFT)

    def __init__(self, relative_tolerance=1e-12, absolute_tolerance=1e-14, max_iterations=10,
                 linear_solver="transformed", jacobian_reuse=1e-3, min_step=None):
        super().__init__()
        owner = type(self).__name__
        self.relative_tolerance = check_nonnegative(owner, "relative_tolerance", relative_tolerance)
        self.absolute_tolerance = check_nonnegative(owner, "absolute_tolerance", absolute_tolerance)
        if self.relative_tolerance == 0.0 and self.absolute_tolerance == 0.0:
            raise ValueError(f"{owner}: relative_tolerance and absolute_tolerance are both 0; Newton's stopping "
                             f"test needs one of them > 0")
        self.max_iterations = check_count(owner, "max_iterations", max_iterations)
        if linear_solver not in ("transformed", "full"):
            raise ValueError(f"{owner}: linear_solver must be 'transformed' or 'full', got {linear_solver!r}")
        self.linear_solver = linear_solver
        self.jacobian_reuse = check_nonnegative(owner, "jacobian_reuse", jacobian_reuse)
        self.min_step = check_positive(owner, "min_step", min_step, optional=True)
        self._jacobian = None      # _Jacobian of an earlier state, kept while Newton contracts fast
        self._matrix = None        # its factorized stage matrix for one step size
        self._last_step = None     # the last accepted _Stages (their polynomials start the next Newton iteration)

    # --- the loop's hooks ---------------------------------------------------------------------
    def init(self, system, t0, q, v, accelerations=None, multipliers=None) -> State:
        """The initial state: q, v and the consistent accelerations and multipliers (or the given ones)."""
        if accelerations is None:
            if multipliers is not None:
                raise ValueError(f"{self.name}: initial multipliers need initial accelerations as well")
            a, lam = consistent_accelerations(system, t0, q, v, self.name)
        else:
            a = np.array(accelerations, dtype=float).reshape(-1)
            lam = (np.zeros(system.n_multipliers) if multipliers is None
                   else np.array(multipliers, dtype=float).reshape(-1))
            if a.size != system.n_coordinates or lam.size != system.n_multipliers:
                raise ValueError(f"{self.name}: initial accelerations need {system.n_coordinates} entries and "
                                 f"multipliers {system.n_multipliers}, got {a.size} and {lam.size}")
        return State(t0, q, v, a, a.copy(), lam)

    def start(self, system, state, grid, n_steps):
        self._jacobian = self._matrix = self._last_step = None

    def rejected(self) -> None:
        self._matrix = None      # the Jacobian, of the step's start, serves the smaller step

    def linear_algebra_size(self, system) -> int:
        """3 (n + m): the stages' operations (and the "full" linear solver's matrix) are three times the DAE's size;
        on a loaded 2-CPU machine OpenBLAS's threads there made Andrews' mechanism (97 unknowns) ten times slower."""
        return 3 * (system.n_coordinates + system.n_multipliers)

    def describe(self, h) -> dict:
        return dict(h=h, stages=3, linear_solver=self.linear_solver, relative_tolerance=self.relative_tolerance)

    # --- one step -----------------------------------------------------------------------------
    def step(self, system, state: State, h: float, prepared=None) -> State:
        """The state at state.t + h (the last stage); SolverError when Newton fails with a new Jacobian."""
        stages = self._solve_stages(system, state, h, self.relative_tolerance, self.absolute_tolerance, 1.0, 1.0)
        self._accept(stages)
        return stages.state

    def _accept(self, stages) -> None:
        self.statistics.steps += 1
        self._last_step = stages
        if stages.theta >= self.jacobian_reuse:
            self._jacobian = self._matrix = None

    def _solve_stages(self, system, state, h, rtol, atol, newton_tolerance, eta_start):
        """The stages of a step of size h (_Stages), by simplified Newton to ``newton_tolerance`` in the weighted
        norm; with a Jacobian of an earlier state it retries once with a new one, then raises SolverError."""
        while True:
            fresh = self._jacobian is None or self._jacobian.t == state.t   # the Jacobian of this step's start
            if self._jacobian is None:
                self._jacobian = _Jacobian(system, state)
                self._matrix = None
                self.statistics.jacobian_evaluations += 1
            if self._matrix is None or not self._matrix.serves(h):
                self._matrix = self._jacobian.factorize(h, self.linear_solver, system, self.name)
                self.statistics.factorizations += self._matrix.factorizations
            try:
                return self._newton(system, state, h, self._matrix, rtol, atol, newton_tolerance, eta_start)
            except _NotConverged as failure:
                self._matrix = None
                if not fresh:            # an earlier state's Jacobian: once more with this state's
                    self._jacobian = None
                    continue
                raise SolverError(f"{self.name}: {failure} at t = {state.t + h:.6g} (h = {h:.3g} s)",
                                  state.t + h) from None

    def _weights(self, system, state, h, rtol, atol):
        """Index-scaled weights of positions, velocities (x h) and multipliers (x h^2): 1 / (atol + rtol scale),
        the scale the group's largest magnitude; for the velocities at least the positions' over 1 s (as in
        ``floatframe.solvers.safeguards``), so that a start from rest does not hold them to atol alone."""
        position_scale = np.abs(state.q + system.q_reference).max(initial=0.0)
        velocity_scale = max(np.abs(state.v).max(initial=0.0), position_scale / 1.0)
        return (1.0 / (atol + rtol * position_scale), h / (atol + rtol * velocity_scale),
                h * h / (atol + rtol * np.abs(state.lam).max(initial=0.0)))

    def _newton(self, system, state, h, matrix, rtol, atol, newton_tolerance, eta_start):
        """Simplified Newton on the stage equations: the _Stages of the step."""
        n, m = system.n_coordinates, system.n_multipliers
        t_stages = state.t + NODES * h
        accelerations, multipliers = self._starting_stages(state, h)   # A_i (3, n), L_i (3, m)
        weight_q, weight_v, weight_l = self._weights(system, state, h, rtol, atol)
        count = 3 * (2 * n + m)
        rows = np.empty((3, n + m))
        eta = eta_start    # before a contraction is measured
        previous, theta = None, 1.0
        stats = self.statistics
        for iteration in range(1, self.max_iterations + 1):
            velocities = state.v + h * (BUTCHER @ accelerations)
            positions = state.q + h * np.outer(NODES, state.v) + h * h * (BUTCHER_SQUARED @ accelerations)
            for i in range(3):
                rows[i, :n] = system.residual(t_stages[i], positions[i], velocities[i], accelerations[i],
                                              multipliers[i])
                rows[i, n:] = system.constraints(t_stages[i], positions[i]) / (h * h)
            stats.residual_evaluations += 3
            if not np.isfinite(rows).all():
                raise _NotConverged(f"the stage residual is not finite (iteration {iteration})")
            update = matrix.solve(rows)                 # J update = -rows
            accelerations += update[:, :n]
            multipliers += update[:, n:]
            stats.newton_iterations += 1
            size = math.sqrt((np.sum((h * h * (BUTCHER_SQUARED @ update[:, :n]) * weight_q) ** 2)
                              + np.sum((h * (BUTCHER @ update[:, :n]) * weight_v) ** 2)
                              + np.sum((update[:, n:] * weight_l) ** 2)) / count)
            if not math.isfinite(size):
                raise _NotConverged(f"the Newton update is not finite (iteration {iteration})")
            if previous is not None:
                theta = size / previous if previous > 0.0 else 0.0
                if theta >= 0.99:
                    raise _NotConverged(f"Newton diverges (contraction {theta:.3g} in iteration {iteration})")
                if (size > newton_tolerance and theta ** (self.max_iterations - iteration) / (1.0 - theta) * size
                        > newton_tolerance):
                    raise _NotConverged(f"Newton contracts too slowly to converge in {self.max_iterations} "
                                        f"iterations (contraction {theta:.3g})")
                eta = theta / (1.0 - theta)
            if eta * size <= newton_tolerance or size == 0.0:
                break
            previous = size
        else:
            raise _NotConverged(f"Newton did not converge in {self.max_iterations} iterations "
                                f"(scaled update {size:.3e})")
        velocities = state.v + h * (BUTCHER @ accelerations)
        positions = state.q + h * np.outer(NODES, state.v) + h * h * (BUTCHER_SQUARED @ accelerations)
        end = State(state.t + h, positions[2], velocities[2], accelerations[2].copy(), accelerations[2].copy(),
                    multipliers[2].copy())
        return _Stages(end, state, h, positions, velocities, accelerations, multipliers, theta, eta, iteration)

    def _starting_stages(self, state, h):
        """Newton's first iterate of the stages: the previous step's collocation polynomials of a and lambda
        (through its start and its three stages) extrapolated to the new stage times; at the first step
        a_n and lambda_n."""
        last = self._last_step
        if last is None or abs(last.state.t - state.t) > 1e-12 * max(1.0, abs(state.t)):
            return np.tile(state.a, (3, 1)), np.tile(state.lam, (3, 1))
        basis = _lagrange_basis(1.0 + NODES * (h / last.h))     # (3 new stages, 4 old points)
        return (basis @ np.vstack([last.start.a, last.accelerations]),
                basis @ np.vstack([last.start.lam, last.multipliers]))


class AdaptiveRadauIIA(RadauIIA):
    """Three-stage Radau IIA with RADAU5's error estimate and step-size control (Hairer and Wanner, section IV.8).

    The loop asks for whole output intervals; the scheme takes steps of its own within them (the last one cut
    to end on the output time). Tolerances as RADAU5 takes them: rtol' = 0.1 rtol^(2/3), atol' = rtol' atol / rtol,
    Newton to fnewt = max(10 eps / rtol', min(0.03, rtol'^(1/2))) of them; the error estimate
    err = E^-1 (f(t_n, y_n) + M (d_1 Z_1 + d_2 Z_2 + d_3 Z_3) / h), E = M / (g h) - J (g: the real eigenvalue of
    the Butcher matrix; E is the real block of the stage matrix), in the index-scaled norm with these weights;
    a step with err > 1 is repeated with a smaller h (the first one with h / 10); the next step size is
    h min(5, max(1/8, 0.9 (2 k_max + 1) / (2 k_max + k) err^(-1/4))) with Gustafsson's predictive controller
    (k: the Newton iterations), and h is kept while the factor is within [1, 1.2].

    Parameters
    ----------
    rtol, atol : the error tolerances (relative, absolute in the units of q, v and lambda); > 0.
    first_step : the first step [s] (RADAU5's default 1e-6 s).
    max_step : the largest step [s] (default: unbounded but by the output intervals).
    max_num_steps : the most steps (accepted and rejected) in one solve.
    max_iterations : Newton iterations per step (RADAU5's 7).
    linear_solver, jacobian_reuse : as for :class:`RadauIIA`.
    """

    name = "radau5"
    adaptive = True

    def __init__(self, rtol=1e-6, atol=None, first_step=1e-6, max_step=None, max_num_steps=1_000_000,
                 max_iterations=7, linear_solver="transformed", jacobian_reuse=1e-3):
        owner = type(self).__name__
        rtol = check_positive(owner, "rtol", rtol)
        atol = rtol if atol is None else check_positive(owner, "atol", atol)
        super().__init__(rtol, atol, max_iterations, linear_solver, jacobian_reuse)
        self.rtol, self.atol = rtol, atol
        self.first_step = check_positive(owner, "first_step", first_step)
        self.max_step = check_positive(owner, "max_step", max_step, optional=True)
        self.max_num_steps = check_count(owner, "max_num_steps", max_num_steps)
        self.step_rtol = 0.1 * self.rtol ** (2.0 / 3.0)          # RADAU5's conversion of the tolerances
        self.step_atol = self.step_rtol * self.atol / self.rtol
        self.newton_tolerance = max(10.0 * EPS / self.step_rtol, min(0.03, math.sqrt(self.step_rtol)))

    def check_options(self, h, a0, lam0, pre_step) -> None:
        if h is not None:
            raise ValueError(f"{type(self).__name__} chooses its own steps: h is not an option (rtol, atol, "
                             f"first_step and max_step are)")

    def describe(self, h) -> dict:
        return dict(rtol=self.rtol, atol=self.atol, stages=3, linear_solver=self.linear_solver)

    def start(self, system, state, grid, n_steps):
        super().start(system, state, grid, n_steps)
        self._h = self.first_step
        self._first, self._reject = True, False
        self._eta = 1.0
        self._accepted = None     # (h, err) of the last accepted step, for the predictive controller

    def advance(self, system, state: State, t_target: float, h: float, prepared=None) -> State:
        """The state at t_target by ``step`` (which controls its own steps; no halving of the interval)."""
        try:
            return self.step(system, state, t_target - state.t, prepared)
        except UserFunctionError as error:
            failure = user_function_failure(error, state.t, self.name)
            failure.state = state
            raise failure from error

    def step(self, system, state: State, interval: float, prepared=None) -> State:
        """Steps of its own from state.t to state.t + interval; SolverError when the step size would vanish."""
        target = state.t + interval
        stats = self.statistics
        while state.t < target - 1e-14 * max(1.0, abs(target)):
            h = self._h if self.max_step is None else min(self._h, self.max_step)
            remaining = target - state.t
            h = remaining if h >= remaining * (1.0 - 1e-12) else h
            if h < 10.0 * EPS * max(1.0, abs(state.t)):
                raise _failure(self.name, f"the step size fell to {h:.3g} s", state)
            if stats.steps + stats.rejected_steps >= self.max_num_steps:
                raise _failure(self.name, f"{self.max_num_steps} steps (max_num_steps) did not reach "
                                          f"t = {target:.6g}", state)
            eta_start = max(self._eta, EPS) ** 0.8
            try:
                stages = self._solve_stages(system, state, h, self.step_rtol, self.step_atol,
                                            self.newton_tolerance, eta_start)
            except SolverError:          # Newton failed with a new Jacobian: halve the step
                stats.rejected_steps += 1
                self._h, self._reject = 0.5 * h, True
                continue
            self._eta = stages.eta
            error = self._error_estimate(system, state, stages)
            factor = min(SAFETY, SAFETY * (2 * self.max_iterations + 1) / (2 * self.max_iterations
                                                                             + stages.iterations))
            quotient = max(1.0 / 8.0, min(5.0, error ** 0.25 / factor))
            if error < 1.0:
                if self._accepted is not None:       # Gustafsson's predictive controller
                    h_accepted, error_accepted = self._accepted
                    predictive = h_accepted / h * (error * error / error_accepted) ** 0.25 / SAFETY
                    quotient = max(quotient, max(1.0 / 8.0, min(5.0, predictive)))
                self._accepted = (h, max(1e-2, error))
                h_new = h / quotient
                if self._reject:
                    h_new = min(h_new, h)
                if self._matrix is not None and stages.theta < self.jacobian_reuse and 1.0 <= h_new / h <= 1.2:
                    h_new = h                        # keep the factorized matrix
                self._accept(stages)
                self._first = self._reject = False
                state = stages.state
                self._h = h_new
            else:
                stats.rejected_steps += 1
                self._h = 0.1 * h if self._first else h / quotient
                self._reject = True
        return state

    def _error_estimate(self, system, state, stages) -> float:
        """RADAU5's error estimate of the step in the index-scaled weighted norm."""
        n, h = system.n_coordinates, stages.h
        gamma = h * EIGENVALUES[0].real
        jacobian, matrix = self._jacobian, self._matrix      # those of the step's Newton iteration
        if isinstance(matrix, _TransformedMatrix):
            block = matrix.blocks[0]
        else:
            block = jacobian.real_block(h)
            self.statistics.factorizations += 1
        combination = ERROR_WEIGHTS @ np.hstack([stages.positions - state.q, stages.velocities - state.v]) / h
        mass_q, mass_v = combination[:n], jacobian.base[:n, :n] @ combination[n:]

        def estimate(q, v, lam):
            right_q = v + mass_q                                        # f_q = v, plus M F1
            right_v = -system.residual(state.t, q, v, np.zeros(n), lam) + mass_v   # f_v = -R(a = 0)
            right_l = system.constraints(state.t, q)
            stiffness = jacobian.r_q[:n, :n]
            c_q = jacobian.base[n:, :n]
            solution = block.solve(np.concatenate([gamma * right_v - gamma * gamma * (stiffness @ right_q),
                                                   -right_l / gamma - c_q @ right_q]))
            error_v = solution[:n]
            return gamma * (right_q + error_v), error_v, solution[n:] / gamma

        weights = self._weights(system, state, h, self.step_rtol, self.step_atol)
        count = 2 * n + system.n_multipliers
        errors = estimate(state.q, state.v, state.lam)
        error = _weighted_norm(errors, weights, count)
        if error >= 1.0 and (self._first or self._reject):   # RADAU5: once more from y_n + err (stiff components)
            errors = estimate(state.q + errors[0], state.v + errors[1], state.lam + errors[2])
            error = _weighted_norm(errors, weights, count)
        return max(error, 1e-10)


def _weighted_norm(errors, weights, count) -> float:
    return math.sqrt(sum(float(np.sum((e * w) ** 2)) for e, w in zip(errors, weights)) / count)


def _failure(solver, what, state) -> SolverError:
    error = SolverError(f"{solver}: {what} at t = {state.t:.6g}", state.t)
    error.state = state
    return error


@dataclass
class _Stages:
    """A step's solved stages (3, n) or (3, m), its end state, and how Newton went."""

    state: State
    start: State
    h: float
    positions: np.ndarray
    velocities: np.ndarray
    accelerations: np.ndarray
    multipliers: np.ndarray
    theta: float          # the last contraction rate
    eta: float            # theta / (1 - theta)
    iterations: int


class _Jacobian:
    """The Jacobian blocks at a state: ``base`` = [[M, C_q^T], [C_q, 0]], ``r_v`` = [[R_v, 0], [0, 0]], ``r_q`` =
    [[R_q, 0], [0, 0]] ((n + m) square; dense NumPy up to DENSE_LIMIT unknowns, else sparse)."""

    def __init__(self, system, state):
        self.t, self.n = state.t, system.n_coordinates
        blocks = [system.newton_matrix(state.t, state.q, state.v, state.a, state.lam, *factors)
                  for factors in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))]
        size = blocks[0].shape[0]
        self.dense = size <= DENSE_LIMIT
        blocks = [block.toarray() if self.dense else sp.csc_matrix(block) for block in blocks]
        self.motion = (np.diag if self.dense else sp.diags)((np.arange(size) < self.n).astype(float))  # R's rows
        self.base = blocks[0]
        self.r_v, self.r_q = (self.motion @ block @ self.motion for block in blocks[1:])

    def factorize(self, h, linear_solver, system, solver):
        """The factorized stage matrix for steps of size h; SolverError naming the cause when singular."""
        try:
            if linear_solver == "transformed":
                return _TransformedMatrix(h, self.n, self.base, self.r_v, self.r_q)
            return _FullMatrix(h, self.n, self.base, self.r_v, self.r_q, self.motion)
        except RuntimeError as exc:
            raise SolverError(f"{solver}: singular stage matrix at t = {self.t:.6g} ({exc}); "
                              f"{singular_cause(system, self.t, sp.csc_matrix(self.base))}", self.t) from None

    def real_block(self, h):
        """The LU of [[M + g h R_v + (g h)^2 R_q, C_q^T], [C_q, 0]] (g: the real eigenvalue of the Butcher
        matrix), the matrix of the error estimate."""
        value = EIGENVALUES[0].real
        return _lu(self.base + (h * value) * self.r_v + (h * h * value * value) * self.r_q)


def _lagrange_basis(times) -> np.ndarray:
    """The Lagrange basis of the points (0, c_1, c_2, c_3 = 1) evaluated at ``times`` (k,): (k, 4)."""
    points = np.concatenate([[0.0], NODES])
    basis = np.ones((len(times), 4))
    for j in range(4):
        for k in range(4):
            if k != j:
                basis[:, j] *= (times - points[k]) / (points[j] - points[k])
    return basis


class _NotConverged(Exception):
    """A simplified Newton iteration that failed (the message says how)."""


class _TransformedMatrix:
    """The stage matrix diagonalised by the eigenvectors T of the Butcher matrix: one real and one complex
    block [[M + h w R_v + h^2 w^2 R_q, C_q^T], [C_q, 0]], factorized."""

    factorizations = 2

    def __init__(self, h, n, base, r_v, r_q):
        self.h, self.n = h, n
        self.blocks = [_lu(base + (h * value) * r_v + (h * h * value * value) * r_q)
                       for value in (EIGENVALUES[0].real, EIGENVALUES[1])]

    def serves(self, h) -> bool:
        return abs(h - self.h) <= STEP_CHANGE_TOLERANCE * self.h

    def solve(self, rows) -> np.ndarray:
        """The update (3, n + m) of the stage unknowns: J update = -rows, with rows (3, n + m)."""
        n = self.n
        transformed = TRANSFORM_INVERSE @ rows        # (3, n + m) complex
        solutions = []
        for k in range(2):
            right = transformed[k].real.copy() if k == 0 else transformed[k].copy()
            right[n:] /= (EIGENVALUES[0].real if k == 0 else EIGENVALUES[1]) ** 2  # block k's C rows carry w_k^2
            solutions.append(self.blocks[k].solve(-right))
        return (TRANSFORM @ np.vstack([solutions[0], solutions[1], np.conj(solutions[1])])).real


class _FullMatrix:
    """The real stage matrix J of 3 (n + m) unknowns (stage by stage), factorized by sparse LU."""

    factorizations = 1

    def __init__(self, h, n, base, r_v, r_q, motion):
        self.h, self.n = h, n
        mass = motion @ base                            # [[M, C_q^T], [0, 0]]
        stiffness = h * h * r_q + (base - mass)         # [[h^2 R_q, 0], [C_q, 0]]
        kron, identity = (np.kron, np.identity) if isinstance(base, np.ndarray) else (sp.kron, sp.identity)
        matrix = kron(identity(3), mass) + kron(h * BUTCHER, r_v) + kron(BUTCHER_SQUARED, stiffness)
        self.lu = _lu(matrix if isinstance(matrix, np.ndarray) else sp.csc_matrix(matrix), DENSE_LIMIT * 3)

    def serves(self, h) -> bool:
        return abs(h - self.h) <= STEP_CHANGE_TOLERANCE * self.h

    def solve(self, rows) -> np.ndarray:
        return self.lu.solve(-rows.reshape(-1)).reshape(rows.shape)


def _lu(matrix, dense_limit=DENSE_LIMIT):
    """An LU with ``solve`` of a real or complex matrix (NumPy or sparse): dense LAPACK up to ``dense_limit``
    unknowns, else SuperLU."""
    if matrix.shape[0] <= dense_limit:
        dense = matrix if isinstance(matrix, np.ndarray) else matrix.toarray()
        factors = scipy.linalg.lu_factor(dense, check_finite=False)
        if np.any(np.diag(factors[0]) == 0.0):
            raise RuntimeError("Factor is exactly singular")
        return _DenseLU(factors)
    matrix = sp.csc_matrix(matrix)
    return sparse_lu(matrix) if np.iscomplexobj(matrix.data) else factorize(matrix)


class _DenseLU:
    def __init__(self, factors):
        self.factors = factors

    def solve(self, right):
        return scipy.linalg.lu_solve(self.factors, right, check_finite=False)


__all__ = ["RadauIIA", "AdaptiveRadauIIA", "BUTCHER", "NODES"]
