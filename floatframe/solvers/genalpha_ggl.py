"""Generalized-alpha on the stabilized index-2 (Gear-Gupta-Leimkuhler) form: C = 0 and dC/dt = 0 both hold.

The index-2 scheme enforces dC/dt = 0 only, and its positions drift from C = 0. GGL adds a second
multiplier mu that moves the positions along the constraint normals, so that both levels can hold:

    q_{n+1} = q_n + h v_n + h^2 (1/2 - beta) abar_n + beta' (a_{n+1} + C_q(t_n, q_n)^T mu_{n+1})
    v_{n+1} = v_n + h (1 - gamma) abar_n + h gamma abar_{n+1}            (abar as in genalpha.py)
    R(t_{n+1}, q_{n+1}, v_{n+1}, a_{n+1}, lambda_{n+1}) = 0,   C(t_{n+1}, q_{n+1}) = 0,   dC/dt(t_{n+1}, q_{n+1}, v_{n+1}) = 0

with beta' = h^2 beta (1 - alpha_f)/(1 - alpha_m) (Arnold, Cardona, Bruls, Nonlinear Dyn. 2016: the
stabilized index-2 formulation; the normals are taken at the step's start, which changes the step by
O(h^2 |mu|) = O(h^5), as mu = O(h^3)). Newton solves for (a, lambda, mu) with rows [R; C / beta'; dC/dt / gamma'];
in the iteration matrix

    [[M + gamma' R_v + beta' R_q,   C_q^T,   beta' R_q C_q0^T],
     [C_q,                          0,       C_q C_q0^T      ],
     [C_q,                          0,       0               ]]

the O(h) terms of the dC/dt rows (d(C_q v)/dq times beta'/gamma') are left out, as in the index-2 scheme.
Positions and velocities converge with second order, and mu is not stored (it restarts at 0 each step).
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from floatframe.linalg import euclidean_norm
from floatframe.solvers.genalpha import GeneralizedAlpha, MatrixRenewal, _SparseNewton, refresh_cost
from floatframe.solvers.loop import State
from floatframe.solvers.safeguards import STRICT


class GeneralizedAlphaGGL(GeneralizedAlpha):
    """Generalized-alpha with position and velocity constraints (GGL stabilized index 2), sparse path.

    Parameters
    ----------
    spectral_radius, modified_newton, relative_tolerance, absolute_tolerance, max_iterations, min_step :
        as :class:`~floatframe.solvers.genalpha.GeneralizedAlpha`.
    """

    name = "genalpha-index2"

    def __init__(self, spectral_radius=0.9, modified_newton=False, relative_tolerance=1e-10,
                 absolute_tolerance=1e-12, max_iterations=25, min_step=None):
        super().__init__(spectral_radius, modified_newton, relative_tolerance, absolute_tolerance, max_iterations,
                         2, min_step, "sparse")

    @property
    def position_rows(self) -> bool:
        return True

    @property
    def initial_tolerances(self) -> tuple[float, float]:
        """Both constraint levels hold at every step: strict on both."""
        return STRICT, STRICT

    def prepare(self, system, n_steps: int = 0):
        self._renewal = MatrixRenewal(refresh_cost(system, 3))
        return _GGLNewton(self, system)

    def describe(self, h) -> dict:
        return dict(super().describe(h), formulation="GGL")


class _GGLNewton(_SparseNewton):
    """Newton for (a, lambda, mu); mu lives here, a and lambda in the caller's arrays (see _SparseNewton)."""

    def start(self, state: State, h, c_q, c_v, kappa):
        super().start(state, h, c_q, c_v, kappa)
        self.normals = self.system.constraint_jacobian(state.t, state.q).T.tocsc()   # C_q(t_n, q_n)^T
        self.mu = np.zeros(self.system.n_multipliers)

    def _state(self, a):
        return self.q_known + self.c_q * (a + self.normals @ self.mu), self.v_known + self.c_v * a

    def rows(self, a, lam, iteration: int = 0) -> np.ndarray:
        """[R; C / beta'; dC/dt / gamma'] at the iterate."""
        system, t = self.system, self.t
        q, v = self._state(a)
        return np.concatenate([system.residual(t, q, v, a, lam), system.constraints(t, q) / self.c_q,
                               system.constraint_velocity(t, q, v) / self.c_v])

    def factorize(self, a, lam):
        system, n, t = self.system, self.n, self.t
        q, v = self._state(a)
        matrix = system.newton_matrix(t, q, v, a, lam, 1.0, self.c_v, self.c_q)
        stiffness = system.newton_matrix(t, q, v, a, lam, 0.0, 0.0, self.c_q)[:n, :n]     # beta' R_q
        iteration, reactions, jacobian = matrix[:n, :n], matrix[:n, n:], matrix[n:, :n]
        blocks = [[iteration, reactions, stiffness @ self.normals],
                  [jacobian, None, jacobian @ self.normals],
                  [jacobian, None, None]]
        return self.solver._lu(system, sp.bmat(blocks, format="csc"), t, "GGL iteration matrix")

    def iterate(self, a, lam, factorization, residual=None, iteration: int = 0):
        if residual is None:
            residual = self.rows(a, lam)
            if not np.isfinite(residual).all():
                return np.inf, np.inf, residual, False
        update = factorization.solve(residual)
        n, m = self.n, lam.size
        a -= update[:n]
        lam -= update[n:n + m]
        self.mu -= update[n + m:]
        # the positions move by beta' (da + C_q0^T dmu): measure that against a
        return euclidean_norm(update[:n] + self.normals @ update[n + m:]), euclidean_norm(a), residual, True

    def finish(self, t, a, lam) -> State:
        q, v = self._state(a)
        return State(t, q, v, a, self.abar_known + self.kappa * a, lam)
