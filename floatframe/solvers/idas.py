"""SUNDIALS IDAS (variable-order BDF, through ``casadi.integrator``) on an index-1 reformulation.

IDAS accepts semi-explicit index-1 DAEs. The assembled index-3 system becomes one with differential
states x = (q, v) and algebraic states z = (a, lambda):

    q' = v,   v' = a
    0 = R(t, q, v, a, lambda)                                      (equations of motion)
    0 = C_q a + (d^2C/dt^2 - C_q a) + 2 alpha dC/dt + beta^2 C      (constraints at acceleration level)

whose algebraic Jacobian [[M, C_q^T], [C_q, 0]] is regular when the constraints are independent. The
acceleration-level constraint lets the position and velocity constraints drift; the drift control is
chosen by the user:

- ``"baumgarte"``: the alpha and beta terms above (``baumgarte=(alpha, beta)`` in 1/s), one IDAS run;
- ``"projection"``: alpha = beta = 0, and at restart times q and v are projected onto C = 0 and
  dC/dt = 0 (minimum-norm corrections), a and lambda recomputed, and IDAS restarted. The restart times are
  output times, at most ``max_restarts`` of them in a solve: with up to that many outputs every output is one;
  with more, every k-th output (k = ceil(outputs / max_restarts)) and the last, and the outputs between are
  IDAS' own interpolation (its dense output, the BDF interpolating polynomial), so that many output times cost
  interpolation only and leave the accuracy of the run with fewer outputs (with ``pre_step``, every output);
- ``"none"``: alpha = beta = 0 without projection (to see the drift).

floatframe computes consistent initial values (q, v projected, then a, lambda from the
acceleration-level system) and gives IDAS the matching x' = (v, a); IDAS' own ``calc_ic`` is off.
CasADi passes the exact sparse Jacobian of the DAE to IDAS; the linear solver is ``csparse`` for small
systems and MUMPS for large ones (``linear_solver="auto"``).

Tolerances of the algebraic states. ``suppress_algebraic`` leaves a and lambda out of IDAS' local error
test, but IDAS' Newton iteration still stops only when the correction of every unknown, a and lambda
included, is below its tolerance rtol |y_i| + atol. On a flexible body a and lambda cannot be resolved
that finely: the residual sums inertial and elastic forces of 1e4-1e9 (N, N/m) whose rounding error
alone moves a near-zero acceleration by more than rtol |a_i| + atol at rtol = 1e-10, so every Newton
iteration fails (IDA_CONV_FAIL at t ~ 0). With ``algebraic_scale=True`` (default) a is measured against
the largest initial acceleration and lambda against the largest force divided by the largest entry of
C_q: atol_a = atol + rtol max|a0|, atol_lambda = atol + rtol F0 / max|C_q| (F0 = max(|R(q0, v0, 0, 0)|,
|M a0|)), which leaves q and v, and so the accuracy, as they were.

On a restart the derivative x' changes, but IDAS takes it only when the integrator is built. The
projection mode therefore integrates y = x - (t - t_k) x'_k over each output interval [t_k, t_k+1]
(y' = x' - x'_k, zero at t_k); BDF formulas are exact on the linear term, so this is the same method.
"""
from __future__ import annotations

import contextlib
import ctypes
import io
import os
import re
import sys
import time
import traceback

import casadi as ca
import numpy as np
import scipy.sparse as sp

from floatframe.errors import UserFunctionError
from floatframe.solvers.linear import consistent_accelerations, singular_cause, solve_or_explain
from floatframe.solvers.loop import Scheme, State
from floatframe.solvers.result import SolverError, SolverStatistics
from floatframe.solvers.safeguards import DRIFT, STRICT, check_count, check_positive, user_function_failure

DRIFT_CONTROLS = ("projection", "baumgarte", "none")
SMALL_SYSTEM = 500   # unknowns (q, v, a, lambda) up to which linear_solver="auto" takes csparse
IDAS_FAILURES = {
    "IDA_TOO_MUCH_WORK": "max_num_steps internal steps were taken before the next output time",
    "IDA_TOO_MUCH_ACC": "the requested accuracy cannot be reached (tolerances too tight)",
    "IDA_ERR_FAIL": "the error test failed repeatedly or the step size reached its minimum "
                    "(a singularity, or a discontinuity in the model)",
    "IDA_CONV_FAIL": "the Newton iteration failed to converge repeatedly (a discontinuity or singular "
                     "configuration, or Newton tolerances of a and lambda below their rounding error: see "
                     "algebraic_scale)",
    "IDA_LSETUP_FAIL": "the linear solver setup failed (singular iteration matrix: redundant constraints or "
                       "coordinates without mass)",
    "IDA_LSOLVE_FAIL": "the linear solve failed (singular iteration matrix: redundant constraints or "
                       "coordinates without mass)",
    "IDA_RES_FAIL": "the DAE residual could not be evaluated (not finite)",
    "IDA_REP_RES_ERR": "the DAE residual failed repeatedly (not finite)",
    "IDA_CONSTR_FAIL": "the inequality constraints could not be met",
}


class IDAS(Scheme):
    """IDAS on the index-1 (acceleration-level) form of the assembled system.

    Parameters
    ----------
    rtol, atol : IDAS relative and absolute tolerances (on q and v; on a and lambda see ``algebraic_scale``).
    max_step : largest internal step [s] > 0 (None: no limit).
    linear_solver : CasADi linear solver plugin for the Newton systems, e.g. ``"csparse"``; ``"auto"``:
        csparse up to ``SMALL_SYSTEM`` unknowns of the DAE, MUMPS above.
    drift : ``"projection"``, ``"baumgarte"`` or ``"none"`` (see the module docstring).
    baumgarte : (alpha, beta) [1/s] of the Baumgarte terms 2 alpha dC/dt + beta^2 C.
    max_num_steps : internal steps allowed per output interval (per restart interval with projection).
    max_restarts : with ``drift="projection"``, the most restarts (projections) in a solve; outputs between
        two restarts are interpolated by IDAS (see the module docstring).
    projection_tolerance : the projections stop when |C| and |dC/dt| are below this times the
        coordinate (velocity) scale.
    max_projection_iterations : Gauss-Newton iterations of the position projection.
    suppress_algebraic : leave a and lambda out of IDAS' local error test (they follow from q and v).
    algebraic_scale : measure the Newton corrections of a and lambda against the size of the initial
        accelerations and forces (see the module docstring); False: against rtol |y_i| + atol.
    """

    name = "idas"
    order = 5   # the highest BDF order; IDAS varies the order from 1 to 5
    adaptive = True
    # relative tolerances (position, velocity) of the initial state's gaps (floatframe.solvers.safeguards): the
    # positions strict; the velocities as for index-3 schemes, so that IDAS may continue from their end states
    initial_tolerances = (STRICT, DRIFT)

    def __init__(self, rtol=1e-6, atol=1e-8, max_step=None, linear_solver="auto", drift="projection",
                 baumgarte=(10.0, 10.0), max_num_steps=100_000, projection_tolerance=1e-12,
                 max_projection_iterations=20, suppress_algebraic=True, algebraic_scale=True, max_restarts=64):
        if drift not in DRIFT_CONTROLS:
            raise ValueError(f"IDAS: drift must be one of {DRIFT_CONTROLS}, got {drift!r}")
        rtol, atol = check_positive("IDAS", "rtol", rtol), check_positive("IDAS", "atol", atol)
        if linear_solver != "auto" and not (isinstance(linear_solver, str) and ca.has_linsol(linear_solver)):
            raise ValueError(f"IDAS: linear_solver must be 'auto' or a CasADi linear solver plugin that is installed "
                             f"(e.g. 'csparse', 'mumps'), got {linear_solver!r}")
        max_step = check_positive("IDAS", "max_step", max_step, optional=True)
        max_num_steps = check_count("IDAS", "max_num_steps", max_num_steps)
        self.max_restarts = check_count("IDAS", "max_restarts", max_restarts)
        projection_tolerance = check_positive("IDAS", "projection_tolerance", projection_tolerance)
        max_projection_iterations = check_count("IDAS", "max_projection_iterations", max_projection_iterations)
        alpha, beta = (float(x) for x in baumgarte)
        if alpha < 0 or beta < 0:
            raise ValueError(f"IDAS: the Baumgarte parameters must be >= 0, got {baumgarte}")
        self.rtol, self.atol, self.max_step = float(rtol), float(atol), max_step
        self.linear_solver = linear_solver
        self.drift = drift
        self.baumgarte = (alpha, beta) if drift == "baumgarte" else (0.0, 0.0)
        self.max_num_steps = int(max_num_steps)
        self.projection_tolerance = projection_tolerance
        self.max_projection_iterations = max_projection_iterations
        self.suppress_algebraic = bool(suppress_algebraic)
        self.algebraic_scale = bool(algebraic_scale)
        self.statistics = SolverStatistics()
        self._cache = {}

    # --- consistent states ------------------------------------------------------------------
    def consistent_state(self, system, t: float, q, v) -> State:
        """Project q onto C = 0 and v onto dC/dt = 0, then solve for a and lambda (raises SolverError)."""
        q = self.project_positions(system, t, np.array(q, dtype=float))
        v = self.project_velocities(system, t, q, np.array(v, dtype=float))
        a, lam = consistent_accelerations(system, t, q, v, "idas")
        return State(t, q, v, a, a.copy(), lam)

    def project_positions(self, system, t, q) -> np.ndarray:
        """Minimum-norm Gauss-Newton projection of q onto C(t, q) = 0."""
        m = system.n_multipliers
        if m == 0:
            return q
        scale = 1.0 + np.abs(q + system.q_reference).max()
        tolerance = self.projection_tolerance * scale
        violation = np.abs(system.constraints(t, q)).max()
        for _ in range(self.max_projection_iterations):
            if violation <= tolerance:
                return q
            constraints = system.constraints(t, q)
            jacobian = system.constraint_jacobian(t, q)
            q = q + _minimum_norm_correction(system, t, jacobian, -constraints, "position projection")
            previous, violation = violation, np.abs(system.constraints(t, q)).max()
            if not np.isfinite(violation) or violation > 1e3 * max(previous, tolerance):
                break
        if violation <= tolerance:
            return q
        rows = np.argsort(-np.abs(system.constraints(t, q)))[:3]
        raise SolverError(f"idas: the state at t = {t:.6g} cannot be projected onto the position constraints: "
                          f"|C| = {violation:.3e} after {self.max_projection_iterations} Gauss-Newton iterations "
                          f"(tolerance {tolerance:.1e}); largest violations in: {system.describe_constraints(rows)}",
                          t)

    def project_velocities(self, system, t, q, v) -> np.ndarray:
        """Minimum-norm projection of v onto C_q v + C_t = 0 (linear: one solve)."""
        if system.n_multipliers == 0:
            return v
        jacobian = system.constraint_jacobian(t, q)
        return v + _minimum_norm_correction(system, t, jacobian, -system.constraint_velocity(t, q, v),
                                            "velocity projection")

    def tolerances(self, system, state: State) -> np.ndarray:
        """Absolute tolerances (3n + m,) of (q, v, a, lambda): atol, with ``algebraic_scale`` plus rtol times
        the scale of a and of lambda at ``state`` (see the module docstring)."""
        n, m = system.n_coordinates, system.n_multipliers
        tolerances = np.full(3 * n + m, self.atol)
        if not self.algebraic_scale:
            return tolerances
        t, q, v = state.t, state.q, state.v
        force = max(_max_abs(system.residual(t, q, v, np.zeros(n), np.zeros(m))),
                    _max_abs(system.mass_matrix(t, q, v) @ state.a))
        tolerances[2 * n:3 * n] += self.rtol * _max_abs(state.a)
        if m:
            jacobian = _max_abs(system.constraint_jacobian(t, q).data)
            tolerances[3 * n:] += self.rtol * force / jacobian if jacobian > 0 else 0.0
        return tolerances

    def linear_solver_for(self, system) -> str:
        """The CasADi linear solver plugin: ``linear_solver``, or for "auto" by the size of the DAE."""
        if self.linear_solver != "auto":
            return self.linear_solver
        return "csparse" if 3 * system.n_coordinates + system.n_multipliers <= SMALL_SYSTEM else "mumps"

    # --- the index-1 DAE ----------------------------------------------------------------------
    def _integrator(self, system, shifted: bool, t0: float, t_out, xdot0, tolerances):
        """casadi IDAS integrator of the index-1 DAE; shifted: over [0, H] for y = x - tau x'_k;
        ``tolerances``: the absolute tolerances of (q, v, a, lambda)."""
        symbol = ca.MX  # the residual enters with the core's exact blocked Jacobian (an MX Function)
        n, m = system.n_coordinates, system.n_multipliers
        parameters = system.parameter_vector() if getattr(system, "parameters", None) else np.zeros(0)
        n_shift = 1 + 2 * n if shifted else 0
        tau, x, z = symbol.sym("t"), symbol.sym("x", 2 * n), symbol.sym("z", n + m)
        p_all = symbol.sym("p", parameters.size + n_shift)
        model_p, shift = p_all[:parameters.size], p_all[parameters.size:]
        t = tau + shift[0] if shifted else tau
        state = x + tau * shift[1:] if shifted else x
        q, v, a, lam = state[:n], state[n:], z[:n], z[n:]
        u = _symbolic_inputs(system, t, symbol)

        ode, alg = index1_equations(system, t, q, v, a, lam, u, model_p, self.baumgarte)
        ode = ode - (shift[1:] if shifted else 0)
        options = {"calc_ic": False, "reltol": self.rtol, "abstolv": list(tolerances),
                   "linear_solver": self.linear_solver_for(system), "max_num_steps": self.max_num_steps,
                   "suppress_algebraic": self.suppress_algebraic,
                   "init_xdot": list(np.zeros(2 * n) if shifted else xdot0)}
        if self.max_step is not None:
            options["max_step_size"] = float(self.max_step)
        # one batch of directional derivatives for the whole DAE Jacobian: each batch evaluates the exact
        # residual Jacobian once (the rotor-disc's DAE Jacobian took 0.17 s in batches of 64, 0.024 s in one)
        dae = ca.Function("dae", [tau, x, z, p_all, symbol(0, 1)], [ode, alg, symbol(0, 1), symbol(0, 1)],
                          ca.dyn_in(), ca.dyn_out(), {"max_num_dir": 3 * n + m + 1})
        try:
            return ca.integrator("idas", "idas", dae, t0, list(t_out), options), parameters
        except RuntimeError as exc:
            raise SolverError(f"idas: could not build the IDAS integrator: {_casadi_message(exc)}") from None

    def solve(self, system, *arguments, **options):
        """``Scheme.solve`` (the arguments of ``GeneralizedAlpha.solve``; ``h``, ``a0`` and ``lam0`` must be None,
        see ``check_options``); a failed solve frees the MUMPS integrators that its error holds."""
        try:
            return super().solve(system, *arguments, **options)
        except SolverError as failure:
            self._release(system, failure)
            raise

    # --- the loop's hooks (floatframe.solvers.loop) ------------------------------------------------
    def check_options(self, h, a0, lam0, pre_step) -> None:
        """IDAS chooses its own steps (``h`` must be None: limit them with ``max_step``) and starts from
        consistent accelerations (``a0``, ``lam0`` must be None); ``pre_step`` is called before each output
        interval and needs ``drift="projection"`` (the other modes integrate the whole grid in one IDAS call).
        Within the tolerance of the initial check, the start is projected to round-off by the minimum-norm
        change."""
        owner = "IDAS.solve"
        if h is not None:
            raise ValueError(f"{owner}: IDAS chooses its own steps; h is not used (limit them with max_step)")
        if a0 is not None or lam0 is not None:
            raise ValueError(f"{owner}: IDAS starts from consistent accelerations and multipliers; a0 and lam0 "
                             f"cannot be given")
        self._restart_every_output = pre_step is not None   # pre_step may change the state at every output
        if pre_step is not None and self.drift != "projection":
            raise ValueError(f"{owner}: pre_step needs drift='projection' (drift={self.drift!r} integrates the "
                             f"whole grid in one IDAS call)")

    def init(self, system, t0: float, q, v, accelerations=None, multipliers=None) -> State:
        return self.consistent_state(system, t0, q, v)

    def start(self, system, state: State, grid, n_steps: int) -> "_Run":
        """The run's tolerances and, without projection, the one IDAS call over the whole grid."""
        run = _Run(self.tolerances(system, state))
        if self.drift != "projection":
            n = system.n_coordinates
            built = time.perf_counter()
            integrator, parameters = self._integrator(system, False, grid[0], grid[1:],
                                                      np.concatenate([state.v, state.a]), run.tolerances)
            run.setup_time += time.perf_counter() - built
            xf, zf = self._call(integrator, system, grid[0], np.concatenate([state.q, state.v]),
                                np.concatenate([state.a, state.lam]), parameters)
            with _quiet_stdout():   # frees the integrator: MUMPS prints a banner on stdout then
                integrator = None
            run.ahead = [State(grid[k], xf[:n, k - 1], xf[n:, k - 1], zf[:n, k - 1], zf[:n, k - 1], zf[n:, k - 1])
                         for k in range(1, grid.size)]
            run.observe(system, [state, *run.ahead])
        else:
            every = 1 if getattr(self, "_restart_every_output", False) else -(-(grid.size - 1) // self.max_restarts)
            run.grid, run.restarts = grid, set(range(every, grid.size, every)) | {grid.size - 1}
            run.observe(system, [state])
        return run

    def advance(self, system, state: State, t_target: float, h: float, prepared: "_Run" = None) -> State:
        """The state at the output time t_target: the next one of the whole-grid call or of the last restart
        interval, or one IDAS call over the outputs up to the next restart time (IDAS interpolates those
        between), whose end is projected onto C = 0 and dC/dt = 0."""
        run = prepared
        if run.ahead:
            return run.ahead.pop(0)
        n = system.n_coordinates
        first = run.next_output
        last = min(k for k in run.restarts if k >= first)
        offsets = run.grid[first:last + 1] - state.t      # the outputs of this restart interval, from its start
        interval = float(offsets[-1])
        key = (id(system), tuple(np.round(offsets, 15)), tuple(system.parameter_vector()) if system.parameters
               else (), self.rtol, self.atol, self.max_step, self.linear_solver, self.max_num_steps,
               run.tolerances.tobytes())
        if key not in self._cache:
            built = time.perf_counter()
            self._cache = {key: self._integrator(system, True, 0.0, list(offsets), None, run.tolerances)}
            run.setup_time += time.perf_counter() - built
        xdot = np.concatenate([state.v, state.a])
        integrator, parameters = self._cache[key]
        try:
            xf, zf = self._call(integrator, system, state.t, np.concatenate([state.q, state.v]),
                                np.concatenate([state.a, state.lam]), np.concatenate([parameters, [state.t], xdot]))
        except (SolverError, UserFunctionError) as error:
            if last > first:   # again output by output: the failure's time and the partial result are then
                run.restarts |= set(range(first, last))                  # those of a restart at every output
                return self.advance(system, state, t_target, h, run)
            if isinstance(error, UserFunctionError):
                raise user_function_failure(error, state.t, self.name) from error
            raise
        try:
            between = []
            for j, offset in enumerate(offsets[:-1]):       # IDAS' dense output, not projected
                x = xf[:, j] + offset * xdot
                between.append(State(run.grid[first + j], x[:n], x[n:], zf[:n, j], zf[:n, j], zf[n:, j]))
            x_end = xf[:, -1] + interval * xdot
            q, v = x_end[:n], x_end[n:]
            run.drift_before_projection[0] = max(run.drift_before_projection[0],
                                                 _max_abs(system.constraints(run.grid[last], q)))
            run.drift_before_projection[1] = max(run.drift_before_projection[1],
                                                 _max_abs(system.constraint_velocity(run.grid[last], q, v)))
            end = self.consistent_state(system, run.grid[last], q, v)
        except UserFunctionError as error:
            raise user_function_failure(error, state.t, self.name) from error
        run.observe(system, [*between, end])
        run.next_output = last + 1
        run.ahead = [*between, end]
        return run.ahead.pop(0)

    def describe(self, h) -> dict:
        return dict(rtol=self.rtol, atol=self.atol, max_step=self.max_step, linear_solver=self.linear_solver,
                    drift=self.drift, baumgarte=self.baumgarte)

    def finish(self, system, states, info, prepared) -> None:
        """The largest constraint violations and the set-up time into ``info``; free the MUMPS integrators."""
        self._release(system)
        if prepared is None:
            return
        info.update(linear_solver=self.linear_solver_for(system), setup_time=prepared.setup_time,
                    position_violation=prepared.violation[0], velocity_violation=prepared.violation[1])
        if self.drift == "projection":
            info.update(position_drift_before_projection=prepared.drift_before_projection[0],
                        velocity_drift_before_projection=prepared.drift_before_projection[1],
                        restarts=len(prepared.restarts))

    def _release(self, system, failure=None):
        """Free the MUMPS-based integrators (MUMPS prints a banner on stdout when freed), also those that
        the frames of a failure's traceback (and of the CasADi error behind it) hold."""
        if self.linear_solver_for(system) == "mumps":
            with _quiet_stdout():
                while failure is not None:
                    traceback.clear_frames(failure.__traceback__)
                    failure = failure.__context__
                self._cache = {}

    def _call(self, integrator, system, t_start, x0, z0, p):
        """One IDAS call; failures become SolverError naming the cause and the time."""
        messages = io.StringIO()
        callbacks = [callback for callback in system.user_function_callbacks if hasattr(callback, "failure")]
        for callback in callbacks:
            callback.failure = None
        try:
            with contextlib.redirect_stderr(messages), contextlib.redirect_stdout(messages):
                result = integrator(x0=x0, z0=z0, p=p)
        except RuntimeError as exc:
            text = str(exc) + messages.getvalue()
            code = re.search(r"IDA_[A-Z_]+", text)
            code = code.group(0) if code else "unknown"
            at = re.search(r"At t = ([-+0-9.eE]+)", messages.getvalue())
            t_fail = (float(at.group(1)) + (t_start if self.drift == "projection" else 0.0)) if at else t_start
            self._add_statistics(integrator.stats())
            failed = [callback.failure for callback in callbacks if callback.failure is not None]
            if failed:   # a user function failed inside CasADi, which reports only its own error
                raise user_function_failure(failed[0], t_fail, self.name) from failed[0]
            cause = IDAS_FAILURES.get(code, _casadi_message(exc))
            if code in ("IDA_LSETUP_FAIL", "IDA_LSOLVE_FAIL"):
                n = system.n_coordinates
                matrix = system.newton_matrix(t_start, x0[:n], x0[n:], z0[:n], z0[n:], 1.0, 0.0, 0.0)
                cause += f"; at the start of the interval: {singular_cause(system, t_start, matrix)}"
            raise SolverError(f"idas: IDAS failed at t = {t_fail:.6g} ({code}): {cause}", t_fail) from None
        self._add_statistics(integrator.stats())
        return np.asarray(result["xf"]), np.asarray(result["zf"])

    def _add_statistics(self, stats):
        s = self.statistics
        s.steps += int(stats.get("nsteps", 0))
        s.newton_iterations += int(stats.get("nniters", 0))
        s.jacobian_evaluations += int(stats.get("nlinsetups", 0))
        s.factorizations += int(stats.get("nlinsetups", 0))
        s.residual_evaluations += int(stats.get("nfevals", 0))
        s.rejected_steps += int(stats.get("netfails", 0)) + int(stats.get("nncfails", 0))


class _Run:
    """What an IDAS solve keeps between output intervals: the tolerances, the states of a whole-grid call not
    yet handed out, the set-up time of the integrators [s] and the largest constraint violations."""

    def __init__(self, tolerances):
        self.tolerances = tolerances
        self.ahead = []
        self.grid, self.restarts, self.next_output = None, set(), 1   # projection: output grid, restart indices
        self.setup_time = 0.0
        self.violation = [0.0, 0.0]                 # largest |C| and |dC/dt| of the states so far
        self.drift_before_projection = [0.0, 0.0]   # the same before each projection

    def observe(self, system, states) -> None:
        position, velocity = constraint_violation(system, states)
        self.violation = [max(self.violation[0], position), max(self.violation[1], velocity)]


def index1_equations(system, t, q, v, a, lam, u, p, baumgarte=(0.0, 0.0)):
    """The index-1 form: ode = [v; a], alg = [R; C_q a + d^2C/dt^2 - C_q a (+ Baumgarte terms)].

    Arguments are MX expressions; R enters with the core's exact blocked Jacobian. Baumgarte
    (alpha, beta) adds 2 alpha dC/dt + beta^2 C to the acceleration-level constraint.
    """
    functions = system.functions
    alpha, beta = baumgarte
    constraint_rows = (functions["constraint_jacobian"](t, q, u, p) @ a
                       + functions["constraint_acceleration_rest"](t, q, v, u, p))
    if alpha:
        constraint_rows += 2 * alpha * functions["constraint_velocity"](t, q, v, u, p)
    if beta:
        constraint_rows += beta ** 2 * functions["constraints"](t, q, u, p)
    residual = system.residual_with_jacobian()(t, q, v, a, lam, u, p)
    return ca.vertcat(v, a), ca.vertcat(residual, constraint_rows)


def _symbolic_inputs(system, t, symbol):
    """u(t) as an expression of the symbolic time: input signals must be traceable by CasADi."""
    parts = []
    for item in getattr(system, "inputs", []):
        signal = system.input_signals[item.name]
        if signal is None:
            raise SolverError(f"idas: Input '{item.name}' has no signal: set one with set_input")
        try:
            value = signal(t)
            expression = ca.vertcat(*value) if isinstance(value, (list, tuple)) else ca.vec(symbol(value))
        except Exception as exc:
            raise SolverError(f"idas: the signal of Input '{item.name}' cannot be evaluated on CasADi's symbolic "
                              f"time ({type(exc).__name__}: {exc}); IDAS needs u(t) inside its steps: write the "
                              f"signal with CasADi/NumPy arithmetic, or use genalpha") from None
        if expression.numel() != item.size:
            raise SolverError(f"idas: the signal of Input '{item.name}' gave {expression.numel()} values, "
                              f"expected {item.size}")
        parts.append(expression)
    return ca.vertcat(*parts) if parts else symbol(0, 1)


def constraint_violation(system, states) -> tuple[float, float]:
    """Largest |C| and |dC/dt| over the given states."""
    if system.n_multipliers == 0:
        return 0.0, 0.0
    position = max(_max_abs(system.constraints(s.t, s.q)) for s in states)
    velocity = max(_max_abs(system.constraint_velocity(s.t, s.q, s.v)) for s in states)
    return position, velocity


def _minimum_norm_correction(system, t, jacobian, right, what) -> np.ndarray:
    """dq of least norm with C_q dq = right, from [[I, C_q^T], [C_q, 0]]."""
    n = system.n_coordinates
    matrix = sp.bmat([[sp.identity(n), jacobian.T], [jacobian, None]], format="csc")
    return solve_or_explain(system, t, matrix, np.concatenate([np.zeros(n), right]), what, "idas")[:n]


@contextlib.contextmanager
def _quiet_stdout():
    """Send the C-level standard output (file descriptor 1) to /dev/null inside the block; buffered native
    output is flushed before the descriptor is restored (else it would reach the terminal at exit)."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            yield
    finally:
        _flush_native_output()
        os.dup2(saved, 1)
        os.close(saved)


def _flush_native_output():
    """Flush C's stdio buffers and those of the Fortran runtime (MUMPS writes through it) where loaded."""
    ctypes.CDLL(None).fflush(None)
    try:
        with open("/proc/self/maps") as maps:
            runtimes = {line.split()[-1] for line in maps if "libgfortran" in line}
    except OSError:   # not Linux
        return
    for runtime in runtimes:
        flush = getattr(ctypes.CDLL(runtime), "_gfortran_flush_i4", None)
        if flush is not None:
            flush(None)   # a null unit flushes all units


def _max_abs(values) -> float:
    return float(np.abs(values).max()) if np.size(values) else 0.0


def _casadi_message(exc: Exception) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[-1] if lines else repr(exc)
