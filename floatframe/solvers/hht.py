"""The Hilber-Hughes-Taylor (HHT-alpha) method: generalized-alpha with alpha_m = 0.

In the Chung-Hulbert convention (equilibrium at the time (1 - alpha_f) t_{n+1} + alpha_f t_n) HHT-alpha is

    alpha_m = 0,  alpha_f = alpha in [0, 1/3],  gamma = 1/2 + alpha,  beta = (1 + alpha)^2 / 4

(Hilber, Hughes and Taylor 1977 write alpha_HHT = -alpha in [-1/3, 0] and weight the new state by 1 + alpha_HHT;
Chung and Hulbert 1993, eq. (17), and Arnold and Bruls 2007, section 3, give the form above). On the index-3
DAE it runs in Arnold and Bruls' form (``floatframe.solvers.alpha``: the equations of motion at t_{n+1},
the acceleration-like variables abar carry the alpha weighting), second order in q, v with
gamma = 1/2 + alpha_f - alpha_m. Its spectral radius at infinity is rho = (1 - alpha) / (1 + alpha):
1 at alpha = 0 (the trapezoidal rule) down to 1/2 at alpha = 1/3, where HHT-alpha equals generalized-alpha
with rho = 1/2 (alpha_m = (2 rho - 1) / (rho + 1) = 0, alpha_f = rho / (rho + 1) = 1/3).
"""
from __future__ import annotations

from floatframe.solvers.genalpha import GeneralizedAlpha


class HHTAlpha(GeneralizedAlpha):
    """HHT-alpha on the index-3 (or index-2) DAE; the parameters other than alpha are those of
    :class:`~floatframe.solvers.genalpha.GeneralizedAlpha`.

    Parameters
    ----------
    alpha : float in [0, 1/3], default 0.1
        The numerical damping (Chung-Hulbert sign: alpha_f = alpha); rho_infinity = (1 - alpha) / (1 + alpha).
    """

    name = "hht"
    order = 2

    def __init__(self, alpha=0.1, modified_newton=False, relative_tolerance=1e-10, absolute_tolerance=1e-12,
                 max_iterations=25, index=3, min_step=None, linear_algebra="auto", compile="auto"):
        super().__init__(1.0, modified_newton, relative_tolerance, absolute_tolerance, max_iterations,
                         index, min_step, linear_algebra, compile)
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0.0 <= alpha <= 1.0 / 3.0:
            raise ValueError(f"HHTAlpha: alpha must be a number in [0, 1/3] (alpha_f of Chung and Hulbert; "
                             f"Hilber's alpha is -alpha), got {alpha!r}")
        self.alpha = float(alpha)
        self.alpha_m = 0.0                                  # alpha_m
        self.alpha_f = self.alpha                           # alpha_f
        self.gamma = 0.5 + self.alpha                       # gamma = 1/2 + alpha_f - alpha_m
        self.beta = 0.25 * (1.0 + self.alpha) ** 2          # beta = (1 + alpha)^2 / 4

    @property
    def spectral_radius(self) -> float:
        """rho_infinity = (1 - alpha) / (1 + alpha)."""
        return (1.0 - self.alpha) / (1.0 + self.alpha)

    def describe(self, h) -> dict:
        return dict(h=h, alpha=self.alpha, spectral_radius=self.spectral_radius, index=self.index)


__all__ = ["HHTAlpha"]
