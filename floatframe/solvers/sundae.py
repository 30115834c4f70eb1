"""SUNDIALS IDA through scikit-SUNDAE (``sksundae``): a peer DAE code beside IDAS-through-CasADi.

The same index-1 form as ``floatframe.solvers.idas`` (differential states q, v; algebraic states a, lambda):

    F = [q' - v;  v' - a;  R(t, q, v, a, lambda);  C_q a + (d^2C/dt^2 - C_q a)] = 0

but evaluated as a user of another package would: the residual numerically through the DAE contract (``residual``,
``constraint_jacobian``, ``constraint_acceleration_rest``), IDA's own difference-quotient Jacobian (dense), and
one IDA run per output interval followed by the projection onto C = 0 and dC/dt = 0 that ``IDAS`` makes (with its
``consistent_state``). The tolerances of a and lambda are IDAS's ``algebraic_scale`` ones. It serves as a
second opinion on IDAS's numbers and costs, not as the fast path: every residual is a Python call.

Needs the optional package ``scikit-sundae`` (extra ``sundae``; ``dev`` installs it).
"""
from __future__ import annotations

import numpy as np

from floatframe.optional import require
from floatframe.solvers.idas import IDAS
from floatframe.solvers.loop import Scheme, State
from floatframe.solvers.result import SolverError, SolverStatistics
from floatframe.solvers.safeguards import DRIFT, STRICT, check_count, check_positive


class SundialsIDA(Scheme):
    """IDA (variable-order BDF) of SUNDIALS through scikit-SUNDAE on the index-1 form, projected after each output.

    Parameters
    ----------
    rtol, atol : IDA's relative and absolute tolerances (on q and v; a and lambda as ``IDAS.tolerances``).
    max_num_steps : internal steps allowed per output interval.
    """

    name = "sundae-ida"
    order = 5   # the highest BDF order
    adaptive = True
    initial_tolerances = (STRICT, DRIFT)

    def __init__(self, rtol=1e-6, atol=1e-8, max_num_steps=100_000):
        self.rtol = check_positive("SundialsIDA", "rtol", rtol)
        self.atol = check_positive("SundialsIDA", "atol", atol)
        self.max_num_steps = check_count("SundialsIDA", "max_num_steps", max_num_steps)
        self.projection = IDAS(rtol=self.rtol, atol=self.atol)   # consistent states and tolerances, as IDAS's
        self.statistics = SolverStatistics()

    def check_options(self, h, a0, lam0, pre_step) -> None:
        """IDA chooses its own steps (``h`` must be None) and starts from consistent accelerations."""
        if h is not None:
            raise ValueError("SundialsIDA.solve: IDA chooses its own steps; h is not used")
        if a0 is not None or lam0 is not None:
            raise ValueError("SundialsIDA.solve: IDA starts from consistent accelerations; a0 and lam0 cannot be given")

    def init(self, system, t0: float, q, v, accelerations=None, multipliers=None) -> State:
        return self.projection.consistent_state(system, t0, q, v)

    def start(self, system, state: State, grid, n_steps: int):
        require("sksundae", "SundialsIDA (IDA through scikit-SUNDAE)", "sundae", "scikit-sundae")
        return self.projection.tolerances(system, state)

    def advance(self, system, state: State, t_target: float, h: float, prepared=None) -> State:
        """The state at the output time t_target: one IDA run from state.t, then the projection."""
        from sksundae.ida import IDA

        n, m = system.n_coordinates, system.n_multipliers

        def residual(t, y, yp, res):
            q, v, a, lam = y[:n], y[n:2 * n], y[2 * n:3 * n], y[3 * n:]
            res[:n] = yp[:n] - v
            res[n:2 * n] = yp[n:2 * n] - a
            res[2 * n:3 * n] = system.residual(t, q, v, a, lam)
            res[3 * n:] = system.constraint_jacobian(t, q) @ a + system.constraint_acceleration_rest(t, q, v)

        solver = IDA(residual, rtol=self.rtol, atol=prepared, algebraic_idx=np.arange(2 * n, 3 * n + m),
                     max_num_steps=self.max_num_steps, linsolver="dense")
        y0 = np.concatenate([state.q, state.v, state.a, state.lam])
        yp0 = np.concatenate([state.v, state.a, np.zeros(n + m)])
        result = solver.solve(np.array([state.t, t_target]), y0, yp0)
        self._count(result)
        if not result.success:
            reached = float(result.t[-1]) if len(result.t) else state.t
            raise SolverError(f"{self.name}: IDA failed at t = {reached:.6g}: {result.message}", reached)
        end = np.asarray(result.y)[-1]
        return self.projection.consistent_state(system, t_target, end[:n], end[n:2 * n])

    def describe(self, h) -> dict:
        return dict(rtol=self.rtol, atol=self.atol)

    def _count(self, result) -> None:
        s = self.statistics
        s.steps += int(getattr(result, "nsteps", len(result.t) - 1))
        s.residual_evaluations += int(getattr(result, "nfev", 0))
        s.jacobian_evaluations += int(getattr(result, "njev", 0))
