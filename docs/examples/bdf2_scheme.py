"""Bring your own solver: the two-step BDF scheme for index-3 mechanical DAEs, written against floatframe's DAE
contract (floatframe/solvers/contract.py) on the shared time loop (floatframe/solvers/loop.py).

Per step of size h, with c = 2h/3 and the two previous states (implicit Euler, c = h, on the first step and
after a change of step size):

    v_{n+1} = (4 v_n - v_{n-1}) / 3 + c a_{n+1},   q_{n+1} = (4 q_n - q_{n-1}) / 3 + c v_{n+1}
    R(t_{n+1}, q_{n+1}, v_{n+1}, a_{n+1}, lambda_{n+1}) = 0,   C(t_{n+1}, q_{n+1}) / c^2 = 0

solved by Newton for (a, lambda) on the contract's iteration matrix [[M + c R_v + c^2 R_q, C_q^T], [C_q, 0]].

    python docs/examples/bdf2_scheme.py        # the measured order on the pendulum
    python -m floatframe compare pendulum --solvers genalpha,docs/examples/bdf2_scheme.py:BDF2
"""
import argparse

import numpy as np
import scipy.sparse.linalg as spla

from floatframe.solvers import SolverError
from floatframe.solvers.linear import consistent_accelerations
from floatframe.solvers.loop import Scheme, State


class BDF2(Scheme):
    """BDF2 on the index-3 DAE: second order in q and v; Newton to ``tolerance`` (relative) on a, above the
    rounding error of the constraint rows C / c^2."""

    name = "bdf2"
    order = 2

    def __init__(self, tolerance=1e-10, max_iterations=20):
        super().__init__()
        self.tolerance, self.max_iterations = tolerance, max_iterations
        self.previous = None                                  # (q, v, h) of the step before

    def init(self, system, t0, q, v, accelerations=None, multipliers=None):
        a, lam = consistent_accelerations(system, t0, q, v, self.name)
        return State(t0, q, v, a, a, lam)

    def start(self, system, state, grid, n_steps):
        self.previous = None

    def rejected(self):
        self.previous = None

    def step(self, system, state, h, prepared=None):
        if self.previous is not None and abs(self.previous[2] - h) <= 1e-12 * h:
            q_old, v_old, _ = self.previous
            c, q_known, v_known = 2 * h / 3, (4 * state.q - q_old) / 3, (4 * state.v - v_old) / 3
        else:
            c, q_known, v_known = h, state.q, state.v
        n, t = system.n_coordinates, state.t + h
        a, lam = state.a.copy(), state.lam.copy()
        for _ in range(self.max_iterations):
            v = v_known + c * a
            q = q_known + c * v
            rows = np.concatenate([system.residual(t, q, v, a, lam), system.constraints(t, q) / c ** 2])
            update = spla.spsolve(system.newton_matrix(t, q, v, a, lam, 1.0, c, c * c).tocsc(), rows)
            a, lam = a - update[:n], lam - update[n:]
            self.statistics.newton_iterations += 1
            roundoff = 100 * np.finfo(float).eps * (1.0 + np.abs(q + system.q_reference).max()) / c ** 2  # of C / c^2
            if np.linalg.norm(update[:n]) <= self.tolerance * (1.0 + np.linalg.norm(a)) + roundoff:
                break
        else:
            raise SolverError(f"{self.name}: Newton did not converge at t = {t:.6g}", t)
        self.statistics.steps += 1
        self.previous = (state.q, state.v, h)
        v = v_known + c * a
        return State(t, q_known + c * v, v, a, a, lam)


def measured_order(steps=(50, 100, 200), fine=3200, t_end=0.5):
    """log2 of the error ratios of the pendulum's final position at h and h/2, against a run at t_end/fine."""
    from floatframe.models.pendulum import build_pendulum

    system, info = build_pendulum()
    assembled = system.assemble()
    final = {n: BDF2().solve(assembled, t_end, n, progress=False).sensor(info.position_sensor)[-1] for n in (*steps, fine)}
    errors = [np.linalg.norm(final[n] - final[fine]) for n in steps]
    return np.log2(np.array(errors[:-1]) / np.array(errors[1:]))


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).add_argument("--output", default=None)
    for k, order in enumerate(measured_order()):
        print(f"order{k} = {order:.4f}")
