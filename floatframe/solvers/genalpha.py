"""Generalized-alpha for index-3 DAEs (Arnold and Bruls' form), with exact sparse Jacobians.

Per step of size h, with the algorithmic acceleration abar:

    q_{n+1} = q_n + h v_n + h^2 (1/2 - beta) abar_n + h^2 beta abar_{n+1}
    v_{n+1} = v_n + h (1 - gamma) abar_n + h gamma abar_{n+1}
    (1 - alpha_m) abar_{n+1} + alpha_m abar_n = (1 - alpha_f) a_{n+1} + alpha_f a_n
    R(t_{n+1}, q_{n+1}, v_{n+1}, a_{n+1}, lambda_{n+1}) = 0,   C(t_{n+1}, q_{n+1}) = 0

solved by Newton for (a_{n+1}, lambda_{n+1}). The parameters follow from the spectral radius at
infinity rho: alpha_m = (2 rho - 1)/(rho + 1), alpha_f = rho/(rho + 1), gamma = 1/2 + alpha_f - alpha_m,
beta = (gamma + 1/2)^2 / 4. The constraint rows are divided by d q / d a = beta' = h^2 beta (1 - alpha_f)/(1 - alpha_m),
so that the iteration matrix [[M + gamma' R_v + beta' R_q, C_q^T], [C_q, 0]] stays well scaled as h -> 0.

Variants: ``index=2`` enforces the velocity-level constraint dC/dt(t, q, v) = 0 instead of C = 0 (rows
divided by gamma' = h gamma (1 - alpha_f)/(1 - alpha_m)); positions then drift slowly. Newmark's method
(alpha_m = alpha_f = 0) and the trapezoidal rule are special cases, see ``floatframe.solvers.newmark``.
When Newton fails, the step is halved and retried down to ``min_step``.

Newton's stop: by default on the update of a (``GeneralizedAlpha.step``). With ``newton_control=ResidualStop(...)``
the iteration is Exudyn's instead (``ResidualStop``): it starts each step from a = 0, lambda = 0 and stops on the
norm of the unscaled residual [R; C] relative to the step's first one, with Exudyn's rules for renewing the matrix
of modified Newton and for restarting a step.

Small models (n + m <= ``floatframe.solvers.dense.DENSE_LIMIT``, no Python user functions) take the
low-overhead dense path of ``floatframe.solvers.dense``: the same Newton iteration, evaluated through
buffered CasADi calls and factorized by dense LAPACK LU (option ``linear_algebra``).

``newton_hooks`` (``NewtonHooks``) call Python inside the Newton iteration: before each evaluation of the rows
and at each new iteration matrix (the Exudyn layer's pre-Newton residual and system Jacobian user functions);
a scheme with them takes the sparse path in Python.
"""
from __future__ import annotations

import math
import weakref
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from floatframe.errors import ModelError
from floatframe.linalg import euclidean_norm as _norm
from floatframe.solvers.alpha import (coefficients, not_converged, not_finite, predictor, residual_not_converged,
                                      singular_matrix, step_factors, trapezoidal_step)
from floatframe.solvers.compiling import CompilePolicy, sparse_kernel
from floatframe.solvers.dense import SingularMatrix, dense_kernel, wants_dense
from floatframe.solvers.linear import consistent_accelerations, factorize, singular_cause
from floatframe.solvers.loop import Scheme, State, vector
from floatframe.solvers.native import NativeLoop, driver
from floatframe.solvers.result import SolverError, SolverStatistics
from floatframe.solvers.safeguards import (DRIFT, STRICT, check_count, check_nonnegative, check_positive,
                                           check_unit_interval)

EPS = np.finfo(float).eps
STEP_CHANGE_TOLERANCE = 1e-8  # relative change of h below which modified Newton keeps its matrix
CONTRACTION_LIMIT = 0.5       # modified Newton: above this rate an old matrix is always replaced
SEQUENTIAL_ROWS = 1000        # ResidualStop.norm sums up to this many rows in order (the dense path's, as C does)


class GeneralizedAlpha(Scheme):
    """Index-3 generalized-alpha with full or modified Newton on the exact sparse Jacobian.

    Parameters
    ----------
    spectral_radius : rho_infinity in [0, 1]; 1 is the undamped (trapezoidal-like) case.
    modified_newton : reuse the factorized iteration matrix across iterations and steps while Newton
        contracts well; otherwise refactor every iteration.
    relative_tolerance, absolute_tolerance : Newton stops when the update of a satisfies
        |da| <= relative_tolerance * |a| + absolute_tolerance (and the residual is small, see ``step``); >= 0.
    max_iterations : Newton iterations per step before the step fails (an integer >= 1).
    index : 3 (position-level constraints) or 2 (velocity-level constraints).
    min_step : smallest step [s] > 0 that the halving after a failed Newton iteration may reach
        (default: the requested step / 2^10).
    linear_algebra : "auto" (dense LAPACK with buffered calls for small models, see
        ``floatframe.solvers.dense``; sparse SuperLU otherwise), "dense" or "sparse".
    compile : on the dense path, evaluate compiled C code (True), CasADi's virtual machine (False), or
        "auto": compiled when cached, else compiled in the background when the solve would take longer
        (see ``floatframe.solvers.compiling.CompilePolicy``). On the sparse path the same holds for the
        residual and constraint rows (``floatframe.solvers.compiling.SparseNewtonFunctions``).
    native : on the dense path with the kernel compiled, take the steps in the C loop of
        ``floatframe.solvers.native`` (True, default; the same decisions and results, a fraction of the time
        on small models) or always in Python (False). Also an attribute, for the subclasses.
    newton_control : None (floatframe's stop on the update of a, above) or a ``ResidualStop``: Exudyn's
        Newton iteration, whose tolerances then replace relative_tolerance and absolute_tolerance.
    trapezoidal_coordinates : indices of coordinates that each step takes by the trapezoidal rule instead of the
        scheme's formulas (``floatframe.solvers.alpha.trapezoidal_step``; abar = a there), e.g. the coordinates
        of first-order nodes, whose v are first-order states x: Exudyn integrates its ODE1 coordinates so inside
        its generalized-alpha and Newmark steps. Also an attribute (``trapezoidal_coordinates``).

    Attributes
    ----------
    velocity_rows : None or sequence of int
        Constraint rows (k,) that index-3 steps impose at velocity level, dC/dt / gamma' (of
        ``AssembledSystem.constraint_velocity(index=2)``) instead of C / beta', as Exudyn's index-3 scheme imposes
        its velocity-level constraints; such solves take the sparse path.
    """

    order = 2
    name = "genalpha"
    newton_hooks = None      # NewtonHooks: Python calls inside the Newton iteration (the sparse path in Python)
    _started_native = None   # the C step loop that ``init`` set up for its consistent start (``native_loop``)

    def __init__(self, spectral_radius=0.9, modified_newton=False, relative_tolerance=1e-10,
                 absolute_tolerance=1e-12, max_iterations=25, index=3, min_step=None, linear_algebra="auto",
                 compile="auto", *, native=True, newton_control=None, trapezoidal_coordinates=()):
        spectral_radius = check_unit_interval("GeneralizedAlpha", "spectral_radius", spectral_radius)
        if index not in (2, 3):
            raise ValueError(f"GeneralizedAlpha: index must be 2 or 3, got {index}")
        if linear_algebra not in ("auto", "dense", "sparse"):
            raise ValueError(f"GeneralizedAlpha: linear_algebra must be 'auto', 'dense' or 'sparse', "
                             f"got {linear_algebra!r}")
        if compile not in ("auto", True, False):
            raise ValueError(f"GeneralizedAlpha: compile must be 'auto', True or False, got {compile!r}")
        owner = type(self).__name__
        relative_tolerance = check_nonnegative(owner, "relative_tolerance", relative_tolerance)
        absolute_tolerance = check_nonnegative(owner, "absolute_tolerance", absolute_tolerance)
        max_iterations = check_count(owner, "max_iterations", max_iterations)
        min_step = check_positive(owner, "min_step", min_step, optional=True)
        if newton_control is not None and not isinstance(newton_control, ResidualStop):
            raise TypeError(f"{owner}: newton_control must be None or a ResidualStop, got {newton_control!r}")
        self.newton_control = newton_control
        self._jacobian_due = True   # ResidualStop: the next iteration forms a new matrix (``_residual_step``)
        self.linear_algebra = linear_algebra
        self.compile = compile
        self.native = bool(native)
        self.alpha_m, self.alpha_f, self.beta, self.gamma = coefficients(spectral_radius)
        self.index = index
        self.min_step = min_step
        self.modified_newton = modified_newton
        self.relative_tolerance = relative_tolerance
        self.absolute_tolerance = absolute_tolerance
        self.max_iterations = max_iterations
        self.statistics = SolverStatistics()
        self._factorization = None
        self._renewal = MatrixRenewal(0.0)  # when modified Newton replaces its iteration matrix (``prepare``)
        self._native = None   # the C step loop of the current solve (``native_loop``)
        self.trapezoidal_coordinates = trapezoidal_coordinates
        self.velocity_rows = None   # constraint rows imposed at velocity level in index-3 steps (class docstring)

    @property
    def trapezoidal_coordinates(self) -> np.ndarray:
        """The coordinates (sorted indices, int64) that each step takes by the trapezoidal rule (see the class)."""
        return self._trapezoidal_coordinates

    @trapezoidal_coordinates.setter
    def trapezoidal_coordinates(self, coordinates) -> None:
        owner = type(self).__name__
        given = np.asarray(coordinates if coordinates is not None else (), dtype=object).reshape(-1)
        if any(isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 0 for k in given):
            raise ValueError(f"{owner}: trapezoidal_coordinates must be coordinate indices (integers >= 0), got "
                             f"{coordinates!r}")
        if given.size and not self._steps_trapezoidal():
            raise ValueError(f"{owner}: trapezoidal_coordinates are taken by GeneralizedAlpha's own steps only "
                             f"(and its subclasses that change only the coefficients)")
        self._trapezoidal_coordinates = np.unique(given.astype(np.int64))

    def _steps_trapezoidal(self) -> bool:
        """Whether this scheme takes ``trapezoidal_coordinates``: its steps and Newton evaluators are
        GeneralizedAlpha's."""
        return type(self).prepare is GeneralizedAlpha.prepare and self._steps_like_genalpha()

    def _checked_trapezoidal(self, system) -> tuple:
        """``trapezoidal_coordinates`` as a tuple of ints, checked against the coordinates of ``system``."""
        rows = self._trapezoidal_coordinates
        if rows.size and rows[-1] >= system.n_coordinates:
            raise ValueError(f"{type(self).__name__}: trapezoidal_coordinates has the index {rows[-1]}, but the "
                             f"system has {system.n_coordinates} coordinates")
        return tuple(rows.tolist())

    @property
    def initial_tolerances(self) -> tuple[float, float]:
        """Relative tolerances (position, velocity) of the initial state's constraint gaps: strict on the level
        the scheme enforces, loose on the one its results drift on (``floatframe.solvers.safeguards``)."""
        return (STRICT, DRIFT) if self.index == 3 else (DRIFT, STRICT)

    @property
    def mixed_rows(self) -> bool:
        """Whether index-3 steps impose some constraint rows at velocity level (``velocity_rows``)."""
        return self.index == 3 and self.velocity_rows is not None and len(self.velocity_rows) > 0

    @property
    def position_rows(self) -> bool:
        """Whether the Newton rows hold C / beta' (whose rounding error sets the floor of the stopping test)."""
        return self.index == 3

    # --- start ------------------------------------------------------------------------------
    def init(self, system, t0: float = 0.0, q=None, v=None, accelerations=None, multipliers=None) -> State:
        """Initial state at t0: coordinates q, velocities v (default: the system's initial values).

        Without ``accelerations`` the accelerations and multipliers are the consistent ones, from
        ``[[M, C_q^T], [C_q, 0]] [a; lambda] = [-R(q, v, 0, 0); -(d^2C/dt^2 - C_q a)]`` at t0. With
        ``accelerations`` (n,) the solve starts from them and from ``multipliers`` (m,) (default
        zero), as Exudyn does with computeInitialAccelerations=False.
        """
        q = system.q_initial.copy() if q is None else vector(q, system.n_coordinates, "q")
        v = system.v_initial.copy() if v is None else vector(v, system.n_coordinates, "v")
        if accelerations is None:
            if multipliers is not None:
                raise ValueError(f"{self.name}: initial multipliers need initial accelerations as well")
            a, lam = self._consistent_start(system, t0, q, v)
            self.statistics.factorizations += 1
        else:
            a = vector(accelerations, system.n_coordinates, "accelerations")
            lam = (np.zeros(system.n_multipliers) if multipliers is None
                   else vector(multipliers, system.n_multipliers, "multipliers"))
        return State(t0, q, v, a, a.copy(), lam)

    def _consistent_start(self, system, t0, q, v):
        """The consistent (a, lam) of ``init``: on the dense path from the kernel's initial_system (in C where
        the kernel is compiled and the driver loaded; that NativeLoop then takes the solve's steps, see
        ``native_loop``), else, and to name the cause of a singular matrix, ``consistent_accelerations``."""
        self._started_native = None
        if type(self).prepare is GeneralizedAlpha.prepare and self.newton_hooks is None and \
                wants_dense(system, self.linear_algebra):
            kernel = dense_kernel(system, self.index, self.compile, self._checked_trapezoidal(system))
            native = None
            if self.native and self._steps_like_genalpha() and self.compile is not False:
                native = NativeLoop.set_up_now(self, system, kernel)
            solution = native.initial_accelerations(t0, q, v) if native is not None else \
                kernel.initial_accelerations(t0, q, v, system.input_vector(float(t0)), system.parameters_now())
            if solution is not None:
                self._started_native = native
                system.current_state = (t0, q, v, np.zeros(system.n_coordinates), np.zeros(system.n_multipliers))
                return solution
        return consistent_accelerations(system, t0, q, v, self.name)

    # --- one step ---------------------------------------------------------------------------
    def prepare(self, system, n_steps: int = 0):
        """The Newton evaluator for ``system`` (dense or sparse path) for a solve of ``n_steps`` steps;
        builds (and, see ``compile``, compiles) the dense kernel on first use."""
        # (full Newton forms a matrix at every iteration and never asks MatrixRenewal: no estimate, 40 us)
        self._renewal = MatrixRenewal(refresh_cost(system, self.index) if self.modified_newton else 0.0)
        trapezoidal = self._checked_trapezoidal(system)
        if self.newton_hooks is not None:   # Python calls at each evaluation: the functions as they are
            return _SparseNewton(self, system, trapezoidal=trapezoidal, hooks=self.newton_hooks)
        if wants_dense(system, self.linear_algebra) and not self.mixed_rows:
            kernel = dense_kernel(system, self.index, self.compile, trapezoidal)
            if self.native and self.compile is not False:  # the C step loop's driver, compiled once per machine
                driver(wait=self.compile is True)
            policy = CompilePolicy(kernel, n_steps) if self.compile == "auto" else None
            return _DenseNewton(self, system, kernel, policy)
        if system.has_user_functions:  # user functions: their Python calls, nothing to compile
            return _SparseNewton(self, system, trapezoidal=trapezoidal)
        kernel = sparse_kernel(system, self.index, self.compile)
        return _SparseNewton(self, system, CompilePolicy(kernel, n_steps) if self.compile == "auto" else None,
                             trapezoidal)

    def step(self, system, state: State, h: float, newton=None) -> State:
        """Advance by h; raises SolverError if Newton fails. ``newton``: the evaluator of ``prepare``."""
        if self.newton_control is not None:
            return self._residual_step(system, state, h, self.prepare(system) if newton is None else newton)
        c_q, c_v, kappa = step_factors(h, self.alpha_m, self.alpha_f, self.beta, self.gamma)
        t = state.t + h
        newton = self.prepare(system) if newton is None else newton
        newton.start(state, h, c_q, c_v, kappa)
        a, lam = state.a.copy(), state.lam.copy()
        stats = self.statistics
        fresh = False   # the iteration matrix was formed in this iteration
        carried = True  # the iteration matrix comes from an earlier step (until one is formed in this one)
        previous_update = None
        modified = self.modified_newton
        # updates of a below the rounding error of the scaled constraint rows cannot be resolved
        coordinate_scale = np.abs(state.q + system.q_reference).max(initial=0.0) + 1.0
        roundoff = 10 * EPS * coordinate_scale * math.sqrt(max(system.n_multipliers, 1)) / (
            c_q if self.position_rows else c_v)
        for iteration in range(1, self.max_iterations + 1):
            stats.residual_evaluations += 1
            residual = None
            if (self._factorization is None or not modified or not _same_step(self._factorization[1], (c_q, c_v))
                    or (iteration == 1 and self._renewal.due)):
                residual = newton.rows(a, lam, iteration - 1)
                if not np.isfinite(residual).all():
                    raise _not_finite(t, iteration)
                self.statistics.jacobian_evaluations += 1
                self._factorization = (newton.factorize(a, lam), (c_q, c_v))
                self._renewal.renewed()
                fresh, carried = True, False
            # a, lam -= the update [[M + ...]]^-1 [R; C / c_q] at (a, lam), in place
            size, norm_a, residual, finite = newton.iterate(a, lam, self._factorization[0], residual, iteration - 1)
            if not finite:
                raise _not_finite(t, iteration)
            stats.newton_iterations += 1
            error = size  # with an old matrix Newton contracts linearly: estimate the remaining error
            rate = size / previous_update if previous_update else 1.0
            # the first update of a step removes the predictor's error, which the matrix of any step removes
            # alike: its ratio to the second says nothing about how an old matrix contracts. Unmeasured, the
            # rate is taken as CONTRACTION_LIMIT, the largest at which an old matrix is kept
            measured = previous_update is not None and not (carried and iteration == 2)
            if not fresh and modified and size > 0.0:  # (a zero update is converged)
                assumed = rate if measured else CONTRACTION_LIMIT
                error = size * assumed / (1.0 - assumed) if assumed < 1.0 else np.inf
            tolerance = self.relative_tolerance * norm_a + self.absolute_tolerance + roundoff
            if error <= tolerance:
                break
            if modified and previous_update is not None and not fresh and rate > CONTRACTION_LIMIT:
                self._factorization = None  # slow convergence with an old matrix: refresh it
                previous_update = None
                continue
            previous_update = size
            fresh = False
        else:
            raise SolverError(not_converged(t, self.max_iterations, _norm(residual), size), t)
        stats.steps += 1
        self._renewal.step_done(iteration)
        return newton.finish(t, a, lam)

    def _residual_step(self, system, state: State, h: float, newton) -> State:
        """``step`` with Exudyn's Newton iteration (``ResidualStop``, see there for the rules)."""
        control = self.newton_control
        c_q, c_v, kappa = step_factors(h, self.alpha_m, self.alpha_f, self.beta, self.gamma)
        t = state.t + h
        newton.start(state, h, c_q, c_v, kappa)
        n, stats = system.n_coordinates, self.statistics
        # the Newton rows hold C / c_q (index 3) or dC/dt / c_v (index 2); Exudyn's residual holds C or dC/dt
        row_scale = c_q if self.position_rows else c_v
        if self.mixed_rows:   # a scale per row: the velocity rows hold dC/dt / c_v
            row_scale = np.full(system.n_multipliers, c_q)
            row_scale[self.velocity_rows] = c_v
        a, lam = np.zeros(n), np.zeros(system.n_multipliers)
        residual = newton.rows(a, lam)
        stats.residual_evaluations += 1
        initial = control.norm(residual, n, row_scale)
        if not initial > control.absolute_tolerance:   # at least one iteration, no division by zero
            initial = 2.0 * control.absolute_tolerance
        current = last = initial
        full = not self.modified_newton
        restarted = extra_iteration = converged = False
        if control.jacobian_per_step:
            self._jacobian_due = True
        iterations = 0
        while not converged and iterations < self.max_iterations:
            iterations += 1
            stats.newton_iterations += 1
            if self._jacobian_due or full or self._factorization is None or (
                    control.renew_on_new_step_size and not _same_step(self._factorization[1], (c_q, c_v))):
                stats.jacobian_evaluations += 1
                self._factorization = (newton.factorize(a, lam, control.exudyn_jacobian, control.without_loads),
                                       (c_q, c_v))
                self._jacobian_due = False
            newton.update(a, lam, self._factorization[0], residual)   # from the rows of the stopping test
            residual = newton.rows(a, lam, iterations)
            stats.residual_evaluations += 1
            current = control.norm(residual, n, row_scale)
            if control.adapt_initial_residual and current > initial and iterations == 1:
                initial = last = current
            converged = current <= control.relative_tolerance * initial or current <= control.absolute_tolerance
            if converged and extra_iteration:   # a restarted step takes one iteration more
                extra_iteration = converged = False
                continue
            if converged:
                break
            extra_iteration = False
            diverged = not (math.isfinite(current) and np.isfinite(a).all() and np.isfinite(lam).all())
            if diverged and full:
                break
            if not full and iterations > control.max_modified_iterations:
                self._jacobian_due = True
            switched = False
            if not full and iterations > control.max_modified_iterations + \
                    control.max_restart_iterations * (not control.jacobian_per_step):
                full = switched = True
            contractivity = current / last
            last = current
            if not full and self.modified_newton and (diverged or switched or (
                    contractivity > control.contractivity and iterations > 2)):
                self._jacobian_due = True
                full = full or restarted
                if diverged or contractivity > 2.0 or full:   # start the step again, from a = 0, lambda = 0
                    restarted = extra_iteration = True
                    current = last = initial
                    a[:] = 0.0
                    lam[:] = 0.0
                    residual = newton.rows(a, lam, iterations)
                    stats.residual_evaluations += 1
        if not converged:
            raise SolverError(residual_not_converged(t, self.max_iterations, current, current / initial), t)
        stats.steps += 1
        return newton.finish(t, a, lam)

    def _lu(self, system, matrix, t, what):
        self.statistics.factorizations += 1
        try:
            return factorize(matrix)
        except RuntimeError as exc:
            raise SolverError(f"generalized-alpha: singular {what} at t = {t:.6g} ({exc}); "
                              f"{singular_cause(system, t, matrix)}", t) from None

    # --- the loop's hooks (floatframe.solvers.loop) ------------------------------------------
    def start(self, system, state: State, grid, n_steps: int):
        """A fresh Newton evaluator for the solve (no matrix kept from an earlier one)."""
        self._factorization = None
        self._jacobian_due = True
        self._native = None
        return self.prepare(system, n_steps)

    def finish(self, system, states: list, info: dict, prepared) -> None:
        """info["native_steps"]: the steps that the C loop took (the others were taken in Python)."""
        info["native_steps"] = self._native.steps if self._native is not None else 0

    def rejected(self) -> None:
        self._factorization = None

    def native_loop(self, system, prepared):
        """The C step loop (``floatframe.solvers.native.NativeLoop``) where it takes this scheme's steps: the
        option ``native``, the dense path (``prepared``), ``compile`` not False (Input signals are called back), and a
        scheme whose steps are GeneralizedAlpha's (subclasses that change only the coefficients); else None."""
        keeps_matrix = self.newton_control is not None and not self.newton_control.renew_on_new_step_size
        if not (self.native and self._steps_like_genalpha() and self.compile is not False
                and isinstance(prepared, _DenseNewton)) or keeps_matrix:
            return None
        started, self._started_native = self._started_native, None   # set up by ``init`` for this solve
        self._native = started if started is not None and started.system is system and \
            started.kernel is prepared.kernel else NativeLoop(self, system, prepared.kernel)
        return self._native

    def _steps_like_genalpha(self) -> bool:
        """Whether this scheme's steps are GeneralizedAlpha's (a subclass that changes only the coefficients),
        which the C loop takes (with either Newton stop)."""
        return (type(self).step is GeneralizedAlpha.step and type(self).advance is Scheme.advance
                and type(self).rejected is GeneralizedAlpha.rejected)

    def describe(self, h) -> dict:
        """Method parameters for result.info and comparison tables."""
        return dict(h=h, spectral_radius=self.spectral_radius_label(), index=self.index)

    def spectral_radius_label(self) -> float:
        return self.alpha_f / (1 - self.alpha_f)


class _SparseNewton:
    """Newton on the AssembledSystem's functions, the sparse iteration matrix and SuperLU.

    With the predictor (known parts) q_known, v_known, abar_known of the step, the iterate a gives
    q = q_known + c_q a, v = v_known + c_v a, abar = abar_known + kappa a; on the ``trapezoidal`` coordinates
    (``GeneralizedAlpha.trapezoidal_coordinates``) with the trapezoidal rule's known parts and factors
    (per coordinate: ``coordinate_factors``). ``hooks``: the scheme's NewtonHooks.
    """

    def __init__(self, solver, system, policy=None, trapezoidal=(), hooks=None):
        self.solver, self.system, self.policy = solver, system, policy
        self.hooks = hooks if hooks is not None else NewtonHooks()
        self.n = system.n_coordinates
        self.trapezoidal = np.asarray(trapezoidal, dtype=int)

    def start(self, state: State, h, c_q, c_v, kappa):
        if self.policy is not None:  # between steps: perhaps compile, or switch to the compiled Functions
            self.policy.before_step()
        solver = self.solver
        self.t, self.c_q, self.c_v, self.kappa = state.t + h, c_q, c_v, kappa
        self.q_known, self.v_known, self.abar_known = predictor(state.q, state.v, state.a, state.abar, h,
                                                                solver.alpha_m, solver.alpha_f, solver.beta, solver.gamma)
        self.coordinate_factors = (c_q, c_v, kappa)   # d(q, v, abar)/da: scalars, or (n,) with trapezoidal rows
        rows = self.trapezoidal
        if rows.size:
            q_known, v_known, trapezoidal_c_q, trapezoidal_c_v = trapezoidal_step(state.q[rows], state.v[rows],
                                                                                  state.a[rows], h)
            self.q_known[rows], self.v_known[rows], self.abar_known[rows] = q_known, v_known, 0.0
            self.trapezoidal_factors = (trapezoidal_c_q, trapezoidal_c_v)
            self.coordinate_factors = tuple(np.full(self.n, factor) for factor in (c_q, c_v, kappa))
            for factors, value in zip(self.coordinate_factors, (trapezoidal_c_q, trapezoidal_c_v, 1.0)):
                factors[rows] = value

    def rows(self, a, lam, iteration: int = 0) -> np.ndarray:
        """[R; C / c_q] (index 3) or [R; dC/dt / c_v] (index 2) at the iterate, the result of Newton iteration
        ``iteration`` of the step (0: its start), which the hook before_residual is told."""
        system, t = self.system, self.t
        c_q, c_v, _ = self.coordinate_factors
        q = self.q_known + c_q * a
        v = self.v_known + c_v * a
        if self.hooks.before_residual is not None:
            self.hooks.before_residual(t, q, v, a, lam, iteration)
        if self.solver.index == 3:
            constraint_rows = system.constraints(t, q) / self.c_q
            if self.solver.mixed_rows:   # Exudyn's velocity-level constraints: their velocity rows
                rows = self.solver.velocity_rows
                constraint_rows[rows] = system.constraint_velocity(t, q, v, index=2)[rows] / self.c_v
        else:
            constraint_rows = system.constraint_velocity(t, q, v, index=2) / self.c_v
        return np.concatenate([system.residual(t, q, v, a, lam, index=self.solver.index), constraint_rows])

    def factorize(self, a, lam, at_rest=False, without_loads=False):
        """LU of the iteration matrix at (a, lam); ``at_rest``: evaluated with a = 0, lambda = 0 where they enter R
        (q and v at the iterate), Exudyn's Jacobian (``ResidualStop``), ``without_loads`` besides: less the loads'
        part c_q d(-f_loads)/dq (none where the loads cannot be taken apart, ``AssembledSystem.load_residual``).
        With Python user functions only lambda = 0: a = 0 would call them once more per matrix (their values are
        kept for the iterate's state), so the matrix keeps d(M(q) a)/dq of the bodies whose mass matrix is a user
        function's or depends on q."""
        # index 2: the rows dC/dt / c_v have d/da = C_q + (c_q / c_v) d(C_q v)/dq; the O(h) second term is
        # left out of the iteration matrix (a simplified Newton iteration)
        c_q, c_v, _ = self.coordinate_factors
        q = self.q_known + c_q * a
        v = self.v_known + c_v * a
        if at_rest:
            a, lam = (a if self.system.has_user_functions else np.zeros_like(a)), np.zeros_like(lam)
        matrix = self.system.newton_matrix(self.t, q, v, a, lam, 1.0, self.c_v, self.c_q, index=self.solver.index)
        if self.trapezoidal.size:   # column j is M_j + c_v,j R_v,j + c_q,j R_q,j: the trapezoidal columns anew
            trapezoidal_c_q, trapezoidal_c_v = self.trapezoidal_factors
            replaced = np.zeros(matrix.shape[1])
            replaced[self.trapezoidal] = 1.0
            trapezoidal = self.system.newton_matrix(self.t, q, v, a, lam, 1.0, trapezoidal_c_v, trapezoidal_c_q,
                                                    index=self.solver.index)
            matrix = (matrix @ sp.diags(1.0 - replaced) + trapezoidal @ sp.diags(replaced)).tocsc()
        if self.hooks.matrix_addition is not None:
            addition = self.hooks.matrix_addition(self.t, self.c_q, self.c_v)
            if addition is not None:
                matrix = (matrix + addition).tocsc()
        if at_rest and without_loads:
            system = self.system
            u, p = system.input_vector(float(self.t)), system.parameters_now()
            loads = _loads_jacobian(system)
            if loads is not None:
                jacobian = loads(self.t, q, u, p)[1].sparse()
                matrix = matrix - self.c_q * _upper_left(jacobian, matrix.shape)
            difference = system.exudyn_matrix_difference()   # where Exudyn's matrix has other derivatives
            if difference is not None:
                matrix = matrix - _upper_left(difference(self.t, q, v, u, p, self.c_q, self.c_v).sparse(), matrix.shape)
        return self.solver._lu(self.system, matrix, self.t, "iteration matrix")

    def iterate(self, a, lam, factorization, residual=None, iteration: int = 0):
        """One Newton update of (a, lam) in place; (|update of a|, |a|, the rows, whether they are finite).
        ``residual``: the rows at (a, lam) when already evaluated (else evaluated, after ``iteration``)."""
        if residual is None:
            residual = self.rows(a, lam, iteration)
            if not np.isfinite(residual).all():
                return np.inf, np.inf, residual, False
        update = newton_update(a, lam, factorization, residual)
        return _norm(update[:self.n]), _norm(a), residual, True

    def update(self, a, lam, factorization, residual) -> None:
        newton_update(a, lam, factorization, residual)

    def finish(self, t, a, lam) -> State:
        c_q, c_v, kappa = self.coordinate_factors
        return State(t, self.q_known + c_q * a, self.v_known + c_v * a, a, self.abar_known + kappa * a, lam)


class _DenseNewton:
    """The same iteration through a DenseNewtonKernel: predictor, rows, LU solve and update in one
    buffered call per iteration, the iteration matrix dense, LAPACK LU."""

    def __init__(self, solver, system, kernel, policy=None):
        self.solver, self.system, self.kernel, self.policy = solver, system, kernel, policy
        self.scheme = (solver.alpha_m, solver.alpha_f, solver.beta, solver.gamma)

    def start(self, state: State, h, c_q, c_v, kappa):
        self.t = t = state.t + h
        system = self.system
        if self.policy is not None:  # between steps: perhaps compile, or switch to the compiled kernel
            self.policy.before_step()
        self.kernel.set_step(state, h, self.scheme, c_q, c_v, kappa, system.input_vector(float(t)),
                             system.parameters_now())

    def rows(self, a, lam, iteration: int = 0) -> np.ndarray:
        return self.kernel.rows(a, lam)

    def factorize(self, a, lam, at_rest=False, without_loads=False):
        self.solver.statistics.factorizations += 1
        try:
            return self.kernel.factorize(a, lam, at_rest, without_loads)
        except SingularMatrix as exc:
            raise SolverError(singular_matrix(self.t, str(exc), singular_cause(self.system, self.t, exc.matrix)),
                              self.t) from None

    def iterate(self, a, lam, factorization, residual=None, iteration: int = 0):
        return self.kernel.iterate(a, lam, factorization)

    def update(self, a, lam, factorization, residual) -> None:
        """From the rows already evaluated (Exudyn's stopping test), by getrs; the kernel's ``iterate`` would
        evaluate them again (the C loop's residual_step computes the same bits)."""
        newton_update(a, lam, factorization, residual)

    def finish(self, t, a, lam) -> State:
        q, v, abar = self.kernel.corrected()
        self.system.current_state = (t, q, v, a, lam)
        return State(t, q, v, a, abar, lam)


def _upper_left(block, shape) -> sp.csc_matrix:
    """A sparse (n, n) ``block`` as the upper left block of a sparse matrix of ``shape`` (zeros elsewhere)."""
    block = block.tocoo()
    return sp.csc_matrix((block.data, (block.row, block.col)), shape=shape)


def newton_update(a, lam, factorization, residual) -> np.ndarray:
    """The Newton update of (a, lam) in place from the ``residual`` (the rows at (a, lam)) and the iteration matrix's
    ``factorization`` (its ``solve``: SuperLU, or DenseLU's getrs); returns the update."""
    update = factorization.solve(residual)
    a -= update[:a.size]
    lam -= update[a.size:]
    return update


@dataclass(frozen=True)
class NewtonHooks:
    """Python calls inside the Newton iteration of GeneralizedAlpha and its subclasses (``newton_hooks``).

    before_residual : f(t, q, v, a, lam, iteration), called before each evaluation of the Newton rows with the
        iterate (t [s] the step's end, q, v, a (n,), lam (m,)) and the Newton iteration that gave it (0: the
        step's start); it may change the system's parameters, which that evaluation then uses.
    matrix_addition : f(t, c_q, c_v) -> (n + m, n + m) sparse matrix or None, added to each iteration matrix
        M + c_v R_v + c_q R_q (with its constraint blocks) that a step forms; c_q, c_v as in
        ``floatframe.solvers.alpha.step_factors``.
    """

    before_residual: Callable | None = None
    matrix_addition: Callable | None = None


@dataclass(frozen=True)
class ResidualStop:
    """Exudyn's Newton iteration for the implicit schemes (its NewtonSettings; defaults are Exudyn's).

    Each step starts from a = 0, lambda = 0. Its residual norm is |[R; C]|_2 / ``coordinate_factor`` (index 2:
    [R; dC/dt]), R = M a - f + C_q^T lambda [N] and C the unscaled constraint rows. Newton stops when the norm
    after an update is at most ``relative_tolerance`` times the step's first one (replaced by the first
    update's, if larger and ``adapt_initial_residual``) or at most ``absolute_tolerance``.

    Modified Newton (the scheme's ``modified_newton``) keeps its matrix across iterations and steps; it forms a
    new one at the next iteration when a step has taken more than ``max_modified_iterations``, when the norm
    falls by less than the factor ``contractivity`` from the third iteration on, or (``jacobian_per_step``) at
    every step. On such a slow contraction (rate above 2, or a second time in the step) or a non-finite iterate
    the step starts again from a = 0, lambda = 0 and takes one iteration more than the stop asks; past
    ``max_modified_iterations + max_restart_iterations`` iterations (without ``jacobian_per_step``) it goes on
    as full Newton. The scheme's ``max_iterations`` bounds the step's iterations, restarts included.

    ``exudyn_jacobian``: the iteration matrix is Exudyn's, floatframe's evaluated with a = 0 and lambda = 0 where
    they enter R (q, v at the iterate): without the terms d(M(q) a)/dq and d(R_lambda(q) lambda)/dq, which
    Exudyn's Jacobian (M, the applied and connector forces' derivatives, C_q) leaves out. Newton then contracts
    linearly where these terms matter (rotating bodies, joints at rotating markers), and its iteration counts
    are Exudyn's (with Python user functions called back: lambda = 0 only, see ``_SparseNewton.factorize``);
    False: floatframe's exact matrix. ``loads_jacobian`` (Exudyn's computeLoadsJacobian > 0): with Exudyn's
    matrix, keep the loads' part c_q d(-f_loads)/dq, which Exudyn's default leaves out (a force at a body-fixed
    point turns with the body). ``renew_on_new_step_size``: modified Newton forms a new matrix for a step of
    another size (floatframe's rule); False keeps it, as Exudyn's adaptive steps do (the step loop of
    ``floatframe.solvers.switching``; the C step loop always renews, so it does not take such solves).
    """

    relative_tolerance: float = 1e-8
    absolute_tolerance: float = 1e-10
    max_modified_iterations: int = 8
    max_restart_iterations: int = 7
    contractivity: float = 0.5
    jacobian_per_step: bool = False
    adapt_initial_residual: bool = True
    coordinate_factor: float = 1.0
    exudyn_jacobian: bool = True
    loads_jacobian: bool = False
    renew_on_new_step_size: bool = True

    @property
    def without_loads(self) -> bool:
        """Whether the iteration matrix leaves out the loads' part (Exudyn's matrix, computeLoadsJacobian = 0)."""
        return self.exudyn_jacobian and not self.loads_jacobian

    def norm(self, rows: np.ndarray, n: int, row_scale) -> float:
        """The residual norm of the Newton rows (n + m,) whose constraint rows are divided by ``row_scale`` (a number,
        or one per constraint row (m,)). Up to ``SEQUENTIAL_ROWS`` rows the squares are summed in order, as the C
        loop sums them (the same bits)."""
        if np.ndim(row_scale):
            return self.norm(np.concatenate((rows[:n], row_scale * rows[n:])), n, 1.0)
        if rows.size <= SEQUENTIAL_ROWS:   # (a running sum is in order: 5 us at 1000 rows, a Python loop 60 us)
            squares = rows * rows
            motion = float(np.cumsum(squares[:n])[-1]) if n else 0.0
            constraints = float(np.cumsum(squares[n:])[-1]) if rows.size > n else 0.0
        else:
            motion, constraints = float(rows[:n] @ rows[:n]), float(rows[n:] @ rows[n:])
        return math.sqrt(motion + row_scale * row_scale * constraints) / self.coordinate_factor


def _same_step(matrix_coefficients, coefficients) -> bool:
    """Whether a factorized iteration matrix's (c_q, c_v) serve a step with ``coefficients``: equal to a
    relative ``STEP_CHANGE_TOLERANCE``. Steps to the times of a grid differ in their last bits (t_target - t
    in floating point), which must not count as a new step size and force a new matrix."""
    return all(abs(new - old) <= STEP_CHANGE_TOLERANCE * abs(old)
               for old, new in zip(matrix_coefficients, coefficients))


class MatrixRenewal:
    """When modified Newton replaces its iteration matrix: the rule of least average cost per step.

    A new matrix costs r iterations (``refresh_cost``); steps on an ageing matrix take more and more
    iterations. The average cost per step since the last new matrix, A = (r + its iterations) / its steps,
    first falls, then rises: it is least when a step costs more than A. So once a step on an old matrix has
    taken more iterations than A, the next step starts with a new matrix (``due``). Within a step, the matrix
    is replaced when its contraction rate exceeds CONTRACTION_LIMIT (``GeneralizedAlpha.step``).
    """

    def __init__(self, refresh_cost: float):
        self.refresh_cost = refresh_cost
        self.cost = 0.0    # r plus the iterations of the steps since the last new matrix
        self.steps = 0     # steps completed since then
        self.due = False   # whether the next step starts with a new matrix

    def renewed(self) -> None:
        self.cost, self.steps, self.due = self.refresh_cost, 0, False

    def step_done(self, iterations: int) -> None:
        self.due = self.steps > 0 and iterations > self.cost / self.steps
        self.cost += iterations
        self.steps += 1


_refresh_costs = weakref.WeakKeyDictionary()  # AssembledSystem -> {index: refresh cost}


def refresh_cost(system, index: int) -> float:
    """A new iteration matrix and its LU, in Newton iterations of ``system``, estimated from operation counts.

    An iteration evaluates the residual and constraint rows and solves with the factors; a new matrix is
    evaluated and factorized. Operations: the SX Functions' instructions (``AssembledSystem.evaluation_work``),
    and for N unknowns and z nonzeros of the iteration matrix, min(N^3 / 3, z^2 / N) for the LU (dense, or a
    banded matrix with z / N entries a row) and min(N^2, 2 z) for the two triangular solves. The estimate
    depends on the model only, so the dense and sparse paths take the same Newton decisions; it is made
    once per system and index, from its SX Functions (before any compiled code replaces them).
    """
    per_system = _refresh_costs.setdefault(system, {})
    if index not in per_system:
        constraint_rows = system.constraint_rows_name(index)
        matrix = system.form_name("newton_matrix", index)
        size = system.n_coordinates + system.n_multipliers
        nonzeros = min(size * size, system.iteration_matrix_nonzeros(matrix))
        iteration = (system.evaluation_work(system.form_name("residual", index))
                     + system.evaluation_work(constraint_rows) + min(size * size, 2 * nonzeros))
        refresh = system.evaluation_work(matrix) + min(size ** 3 / 3, nonzeros ** 2 / size)
        per_system[index] = refresh / max(iteration, 1)
    return per_system[index]


_load_functions = weakref.WeakKeyDictionary()  # AssembledSystem -> its load_residual Function, or None


def _loads_jacobian(system):
    """``system.load_residual()``, (t, q, u, p) -> (R_loads, dR_loads/dq), kept per system; None where the loads
    cannot be taken apart (numeric user functions)."""
    if system not in _load_functions:
        try:
            _load_functions[system] = system.load_residual()
        except ModelError:
            _load_functions[system] = None
    return _load_functions[system]


def _not_finite(t, iteration) -> SolverError:
    return SolverError(not_finite(t, iteration), t)
