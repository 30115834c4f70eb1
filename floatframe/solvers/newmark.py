"""Newmark's method and the trapezoidal rule: generalized-alpha with alpha_m = alpha_f = 0.

    q_{n+1} = q_n + h v_n + h^2 (1/2 - beta) a_n + h^2 beta a_{n+1}
    v_{n+1} = v_n + h (1 - gamma) a_n + h gamma a_{n+1}

with the equations of motion and the constraints enforced at t_{n+1}. gamma = 1/2 gives second order
and no numerical damping (beta = 1/4: the trapezoidal rule, or average-acceleration method); gamma > 1/2
damps high frequencies but is first order. On index-3 constrained systems the undamped case leaves
the Lagrange multipliers oscillating from step to step; positions and velocities keep their order.
"""
from __future__ import annotations

import math
import warnings

from floatframe.solvers.genalpha import GeneralizedAlpha


class StabilityWarning(UserWarning):
    """A scheme's parameters make it only conditionally stable."""


def critical_frequency_step(gamma: float, beta: float) -> float:
    """Omega_crit = 1 / sqrt(gamma / 2 - beta): the largest omega h at which Newmark (gamma, beta < gamma / 2) is
    stable on an undamped oscillator (Hughes, The Finite Element Method, section 9.1)."""
    return 1.0 / math.sqrt(gamma / 2 - beta)


class Newmark(GeneralizedAlpha):
    """Newmark's method on the index-3 (or index-2) DAE; the parameters other than gamma and beta are those of
    :class:`~floatframe.solvers.genalpha.GeneralizedAlpha`.

    Parameters
    ----------
    gamma, beta : float
        Newmark parameters; default gamma = 0.6 with beta = (gamma + 1/2)^2 / 4, the numerically damped
        first-order choice that keeps index-3 Newmark stable. gamma < 1/2 or beta <= 0 are refused;
        beta < gamma / 2 (conditionally stable) gives a StabilityWarning with the critical omega h.
    """

    name = "newmark"

    def __init__(self, gamma=0.6, beta=None, modified_newton=False, relative_tolerance=1e-10,
                 absolute_tolerance=1e-12, max_iterations=25, index=3, min_step=None, linear_algebra="auto",
                 compile="auto", *, newton_control=None, trapezoidal_coordinates=()):
        super().__init__(1.0, modified_newton, relative_tolerance, absolute_tolerance, max_iterations,
                         index, min_step, linear_algebra, compile, newton_control=newton_control,
                         trapezoidal_coordinates=trapezoidal_coordinates)
        if not 0.5 <= gamma < math.inf:
            raise ValueError(f"Newmark: gamma must be >= 1/2 for stability, got {gamma}")
        self.alpha_m = self.alpha_f = 0.0
        self.gamma = float(gamma)
        self.beta = 0.25 * (self.gamma + 0.5) ** 2 if beta is None else float(beta)
        if not 0 < self.beta < math.inf:
            raise ValueError(f"Newmark: beta must be > 0 (the constraint rows are divided by h^2 beta), got {beta}")
        if self.beta < self.gamma / 2:
            warnings.warn(f"Newmark: beta = {self.beta:g} < gamma / 2 = {self.gamma / 2:g} is only conditionally "
                          f"stable: omega h must stay below {critical_frequency_step(self.gamma, self.beta):.3g} for "
                          f"every frequency omega of the model, including the infinite ones of index-3 constraints; "
                          f"unconditionally stable: gamma >= 1/2 and beta >= gamma / 2", StabilityWarning,
                          stacklevel=2)

    @property
    def order(self) -> int:
        """2 for gamma = 1/2, else 1."""
        return 2 if abs(self.gamma - 0.5) < 1e-14 else 1

    def describe(self, h) -> dict:
        return dict(h=h, gamma=self.gamma, beta=self.beta, index=self.index)


class Trapezoidal(Newmark):
    """The trapezoidal rule: Newmark with gamma = 1/2, beta = 1/4 (second order, no damping)."""

    name = "trapezoidal"

    def __init__(self, modified_newton=False, relative_tolerance=1e-10, absolute_tolerance=1e-12,
                 max_iterations=25, index=3, min_step=None, linear_algebra="auto", compile="auto", *,
                 newton_control=None, trapezoidal_coordinates=()):
        super().__init__(0.5, 0.25, modified_newton, relative_tolerance, absolute_tolerance, max_iterations,
                         index, min_step, linear_algebra, compile, newton_control=newton_control,
                         trapezoidal_coordinates=trapezoidal_coordinates)
