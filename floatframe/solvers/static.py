"""Static equilibrium: Newton on the assembled DAE with a = 0 and the velocities held fixed (v = 0
unless given; Exudyn's static solver keeps the initial velocities).

    R(t, q, v, 0, lambda) = 0,   C(t, q) = 0

Newton's matrix is the exact Jacobian of (R, C) with respect to (q, lambda),
[[K, C_q^T], [C_q, 0]] with K = dR/dq (including d(C_q^T lambda)/dq and the load Jacobian), which is
``AssembledSystem.newton_matrix`` with c_a = 0, c_v = 0, c_q = 1.

Load stepping (as Exudyn's static solver): the loads are scaled by a load factor f that runs from the
first step to 1 over ``number_of_load_steps`` steps, in a quasi time t = t_start + f * duration. Step i of
n has f = i / n (arithmetic), or f = range^((i - 1)/(n - 1)) / range (geometric). The scaled residual is
R(t, q, 0, 0, lambda) - (1 - f) R_loads(t, q), where R_loads is the loads' part of R. A step whose Newton
iteration fails is retried with a smaller increment of f. An optional stabilizer s adds the
pseudo-dynamic term s (1 - f^2) M (q - q_start) to R in each step (q_start: the solution of the previous
step), and s (1 - f^2) M to the Jacobian; it vanishes at f = 1, so the final solution is unchanged.
"""
from __future__ import annotations

import time

import casadi as ca
import numpy as np
import scipy.linalg
import scipy.sparse as sp

from floatframe.errors import ModelError, UserFunctionError
from floatframe.solvers.loop import State, collect, partial_result, vector
from floatframe.solvers.linear import factorize, singular_cause
from floatframe.solvers.result import SimulationResult, SolverError, SolverStatistics
from floatframe.solvers.safeguards import (check_assembled, check_count, check_nonnegative, check_positive,
                                           user_function_failure)


class StaticSolver:
    """Static equilibrium by full (or modified) Newton with optional load stepping.

    Parameters
    ----------
    number_of_load_steps : load steps n >= 1; with 1 the full loads are applied at once.
    load_step_start, load_step_duration : quasi time [s] t = start + f * duration of load factor f
        (time-dependent loads and user functions see it).
    geometric_range : None for arithmetic load factors i/n, else the range d > 1 of geometric factors
        d^((i-1)/(n-1)) / d.
    use_load_factor : False applies the full loads in every step (the steps then only advance t).
    relative_tolerance, absolute_tolerance : Newton stops when |dq| <= relative_tolerance * scale
        + absolute_tolerance, scale = |q_reference + q|_inf + 1.
    max_iterations : Newton iterations per step before the step fails.
    modified_newton : keep the factorized matrix while Newton contracts by at least 1/2.
    adaptive_step : on a failed step retry with the increment of f times ``step_decrease``; the
        increment grows by ``step_increase`` again after a success, down to ``minimum_step``.
    stabilizer : s of the step term s (1 - f^2) M (q - q_start), as Exudyn's stabilizerODE2term.
    """

    name = "static"

    def __init__(self, number_of_load_steps=1, load_step_start=0.0, load_step_duration=1.0, geometric_range=None,
                 use_load_factor=True, relative_tolerance=1e-10, absolute_tolerance=1e-12, max_iterations=25,
                 modified_newton=False, adaptive_step=True, step_decrease=0.25, step_increase=2.0,
                 minimum_step=1e-8, stabilizer=0.0):
        if int(number_of_load_steps) != number_of_load_steps or number_of_load_steps < 1:
            raise ValueError(f"StaticSolver: number_of_load_steps must be an integer >= 1, got {number_of_load_steps}")
        if not load_step_duration > 0:
            raise ValueError(f"StaticSolver: load_step_duration must be > 0, got {load_step_duration}")
        if geometric_range is not None and not geometric_range > 1:
            raise ValueError(f"StaticSolver: geometric_range must be > 1, got {geometric_range}")
        if not 0 < step_decrease < 1 or not step_increase > 1:
            raise ValueError(f"StaticSolver: need 0 < step_decrease < 1 < step_increase, got {step_decrease}, "
                             f"{step_increase}")
        self.number_of_load_steps = int(number_of_load_steps)
        self.load_step_start = float(load_step_start)
        self.load_step_duration = float(load_step_duration)
        self.geometric_range = geometric_range
        self.use_load_factor = bool(use_load_factor)
        self.relative_tolerance = check_nonnegative("StaticSolver", "relative_tolerance", relative_tolerance)
        self.absolute_tolerance = check_nonnegative("StaticSolver", "absolute_tolerance", absolute_tolerance)
        self.max_iterations = check_count("StaticSolver", "max_iterations", max_iterations)
        self.modified_newton = bool(modified_newton)
        self.adaptive_step = bool(adaptive_step)
        self.step_decrease = step_decrease
        self.step_increase = step_increase
        self.minimum_step = check_positive("StaticSolver", "minimum_step", minimum_step)
        self.stabilizer = check_nonnegative("StaticSolver", "stabilizer", stabilizer)
        self.statistics = SolverStatistics()
        self.residual_norms = []    # per accepted load step: |(R, C)| at the start of each Newton iteration
        self._velocities = None

    def load_factors(self) -> np.ndarray:
        """The load factors f of the n steps, ending at 1."""
        n = self.number_of_load_steps
        if self.geometric_range is None or n == 1:
            return np.arange(1, n + 1) / n
        d = float(self.geometric_range)
        return d ** (np.arange(n) / (n - 1)) / d

    def solve(self, system, q0=None, lam0=None, v=None) -> SimulationResult:
        """Static solution from the start values q0 (default ``system.q_initial``) and lam0 (zeros), with
        the velocities held at v (default zero).

        Returns a SimulationResult with the start state and one state per accepted load step (t is the
        quasi time, a = 0); raises SolverError if Newton fails or the Jacobian is singular, with the accepted
        load steps as its partial result (``error.result``).
        """
        check_assembled("StaticSolver.solve", system)
        n, m = system.n_coordinates, system.n_multipliers
        q = system.q_initial.copy() if q0 is None else vector(q0, n, "q")
        lam = np.zeros(m) if lam0 is None else vector(lam0, m, "multipliers")
        zeros = np.zeros(n)
        self._velocities = zeros if v is None else vector(v, n, "v")
        velocities = self._velocities
        self.statistics, self.residual_norms = SolverStatistics(), []
        started = time.perf_counter()
        stored = [State(self.load_step_start, q.copy(), velocities, zeros, zeros, lam.copy())]
        info = dict(load_factors=self.load_factors())
        try:
            self._load_steps(system, q, lam, velocities, stored)
        except (SolverError, UserFunctionError) as error:
            failure = error if isinstance(error, SolverError) else \
                user_function_failure(error, stored[-1].t, "static solver")
            self.statistics.solve_time = time.perf_counter() - started
            failure.result = partial_result(system, stored, self.statistics, self.name, info, failure)
            if failure is error:
                raise
            raise failure from error
        self.statistics.solve_time = time.perf_counter() - started
        return collect(system, stored, self.statistics, self.name, info)

    def _load_steps(self, system, q, lam, velocities, stored):
        """The load steps from (q, lam), each accepted one appended to ``stored``."""
        zeros = np.zeros(system.n_coordinates)
        factor = 0.0
        for target in self.load_factors():
            increment = target - factor   # the whole step, subdivided only where Newton fails
            while factor < target - 1e-14:
                trial = min(factor + increment, target)
                try:
                    q, lam = self._newton(system, trial, q, lam)
                except _NotConverged as failure:
                    self.statistics.rejected_steps += 1
                    increment *= self.step_decrease
                    if not self.adaptive_step or increment < self.minimum_step:
                        raise SolverError(f"static solver: Newton did not converge at load factor {trial:.6g} "
                                          f"(t = {self._time(trial):.6g}): {failure}", self._time(trial)) from None
                    continue
                factor = trial
                stored.append(State(self._time(factor), q.copy(), velocities, zeros, zeros, lam.copy()))
                self.statistics.steps += 1
                increment *= self.step_increase

    def _time(self, factor: float) -> float:
        return self.load_step_start + factor * self.load_step_duration

    def _newton(self, system, factor, q, lam):
        """Newton iteration at load factor f from (q, lam); returns the converged (q, lam)."""
        n = system.n_coordinates
        t = self._time(factor)
        zeros, v = np.zeros(n), self._velocities
        scaled = self.use_load_factor and factor < 1.0
        c_a = self.stabilizer * (1.0 - factor ** 2)
        q_start, q, lam = q, q.copy(), lam.copy()
        norms, factorization, previous = [], None, None
        for _ in range(self.max_iterations):
            residual = np.concatenate([system.residual(t, q, v, zeros, lam), system.constraints(t, q)])
            if scaled:
                load_part, load_jacobian = self._load_part(system, t, q)
                residual[:n] -= (1.0 - factor) * load_part
            if c_a:
                residual[:n] += c_a * (system.mass_matrix(t, q, v) @ (q - q_start))
            self.statistics.residual_evaluations += 1
            norms.append(float(np.linalg.norm(residual)))
            if not np.all(np.isfinite(residual)):
                raise _NotConverged(f"the residual is not finite (iteration {len(norms)})")
            if factorization is None or not self.modified_newton:
                matrix = system.newton_matrix(t, q, v, zeros, lam, c_a, 0.0, 1.0)
                if scaled:
                    matrix = matrix - (1.0 - factor) * _padded(load_jacobian, matrix.shape)
                self.statistics.jacobian_evaluations += 1
                factorization = self._factorize(system, t, matrix)
            update = factorization.solve(residual)
            self.statistics.newton_iterations += 1
            q -= update[:n]
            lam -= update[n:]
            size = float(np.linalg.norm(update[:n]))
            if not np.all(np.isfinite(update)):
                raise singular_jacobian(system, t, matrix)
            scale = np.linalg.norm(q + system.q_reference, np.inf) + 1.0
            if size <= self.relative_tolerance * scale + self.absolute_tolerance:
                self.residual_norms.append(norms)
                return q, lam
            if self.modified_newton and previous is not None and size > 0.5 * previous:
                factorization = None
            previous = size
        raise _NotConverged(f"{self.max_iterations} iterations, residual norm {norms[-1]:.3e}, "
                            f"last update {size:.3e}")

    def _factorize(self, system, t, matrix):
        self.statistics.factorizations += 1
        try:
            return factorize(matrix)
        except RuntimeError:
            raise singular_jacobian(system, t, matrix) from None

    def _load_part(self, system, t, q):
        """The loads' part of R and its Jacobian d/dq at (t, q), for scaling the loads."""
        try:
            loads = system.load_residual()
        except ModelError as exc:
            raise SolverError(f"static solver: load stepping cannot scale the loads ({exc}); use a single load "
                              f"step or use_load_factor=False") from None
        u = system.input_vector(float(t))
        p = system.parameter_vector() if system.parameters else np.zeros(0)
        part, jacobian = loads(t, q, u, p)
        return np.asarray(ca.DM(part)).reshape(-1), ca.DM(jacobian).sparse()


def singular_jacobian(system, t, matrix) -> SolverError:
    """The error for a singular static Jacobian, naming redundant constraints or the unheld coordinates."""
    cause = singular_cause(system, t, matrix)
    free = "" if "redundant" in cause else coordinates_without_stiffness(system, matrix)
    if free:
        cause = (f"no stiffness and no constraint holds {free}: add a spring, support or constraint there "
                 f"(a static solution needs K to be regular on the constrained motion)")
    return SolverError(f"static solver: singular Jacobian [[K, C_q^T], [C_q, 0]] at t = {t:.6g}; {cause}", t)


class _NotConverged(Exception):
    """Newton failed in one load step (the step may be retried smaller)."""


def _padded(block, shape):
    """An (n, n) sparse block in the top-left corner of an (n+m, n+m) sparse matrix."""
    block = sp.coo_matrix(block)
    return sp.csc_matrix((block.data, (block.row, block.col)), shape=shape)


def coordinates_without_stiffness(system, matrix, max_size: int = 3000) -> str:
    """Name the nodes and coordinates along which the (n+m, n+m) static Jacobian is singular.

    Takes the null space of the dense matrix (systems up to ``max_size`` unknowns) and lists the
    coordinates that move in it, by node; an empty string if the matrix is too large or regular.
    """
    n = system.n_coordinates
    if matrix.shape[0] > max_size:
        return ""
    dense = matrix.toarray()
    _, singular_values, vt = scipy.linalg.svd(dense)
    tolerance = 1e-10 * max(singular_values[0], 1e-300)
    null = vt[singular_values <= tolerance]
    if null.size == 0:
        return ""
    motion = np.abs(null[:, :n]).max(axis=0)
    moving = motion > 1e-6 * max(motion.max(), 1e-300)
    return system.describe_coordinates(np.flatnonzero(moving))
