"""The generalized-alpha formulas (Arnold and Bruls' form), written once for every place that steps with them:
the sparse and dense Newton paths of ``floatframe.solvers.genalpha`` and the differentiable steps of
``floatframe.ocp.step``. Each function takes NumPy arrays or CasADi symbols alike.

With the algorithmic accelerations abar, one step of size h from state n is

    q_{n+1} = q_n + h v_n + h^2 (1/2 - beta) abar_n + h^2 beta abar_{n+1}
    v_{n+1} = v_n + h (1 - gamma) abar_n + h gamma abar_{n+1}
    (1 - alpha_m) abar_{n+1} + alpha_m abar_n = (1 - alpha_f) a_{n+1} + alpha_f a_n

so that, with the known parts (the predictor) and kappa = (1 - alpha_f) / (1 - alpha_m),

    abar_{n+1} = abar_known + kappa a_{n+1},  q_{n+1} = q_known + c_q a_{n+1},  v_{n+1} = v_known + c_v a_{n+1}

with c_q = h^2 beta kappa and c_v = h gamma kappa.

The messages of a failed step are here too, for the Python and the C step loop alike
(``floatframe.solvers.genalpha``, ``floatframe.solvers.native``).
"""
from __future__ import annotations


def coefficients(spectral_radius: float) -> tuple[float, float, float, float]:
    """(alpha_m, alpha_f, beta, gamma) for the spectral radius at infinity rho in [0, 1]:
    alpha_m = (2 rho - 1)/(rho + 1), alpha_f = rho/(rho + 1), gamma = 1/2 + alpha_f - alpha_m,
    beta = (gamma + 1/2)^2 / 4."""
    rho = float(spectral_radius)
    alpha_m = (2 * rho - 1) / (rho + 1)
    alpha_f = rho / (rho + 1)
    gamma = 0.5 + alpha_f - alpha_m
    return alpha_m, alpha_f, 0.25 * (gamma + 0.5) ** 2, gamma


def step_factors(h, alpha_m, alpha_f, beta, gamma):
    """(c_q, c_v, kappa): d q_{n+1} / d a_{n+1}, d v_{n+1} / d a_{n+1} and d abar_{n+1} / d a_{n+1}."""
    kappa = (1 - alpha_f) / (1 - alpha_m)
    return h * h * beta * kappa, h * gamma * kappa, kappa


def predictor(q, v, a, abar, h, alpha_m, alpha_f, beta, gamma):
    """(q_known, v_known, abar_known): the parts of q_{n+1}, v_{n+1}, abar_{n+1} known from state n."""
    abar_known = (alpha_f * a - alpha_m * abar) / (1 - alpha_m)
    q_known = q + h * v + h * h * (0.5 - beta) * abar + h * h * beta * abar_known
    v_known = v + h * (1 - gamma) * abar + h * gamma * abar_known
    return q_known, v_known, abar_known


def trapezoidal_step(q, v, a, h):
    """(q_known, v_known, c_q, c_v) of coordinates that a generalized-alpha step takes by the trapezoidal rule
    instead (``GeneralizedAlpha.trapezoidal_coordinates``; Exudyn's rule for its ODE1 coordinates):

        q_{n+1} = q_n + h v_n + h^2/4 (a_n + a_{n+1}),   v_{n+1} = v_n + h/2 (a_n + a_{n+1}),

    Newmark with beta = 1/4, gamma = 1/2 on the true accelerations (abar = a there: abar_known = 0, kappa = 1).
    q, v, a: state n of those coordinates; c_q = h^2/4 and c_v = h/2 multiply a_{n+1}."""
    c_q, c_v = h * h * 0.25, h * 0.5
    return q + h * v + c_q * a, v + c_v * a, c_q, c_v


def not_finite(t: float, iteration: int) -> str:
    """The message of a step whose Newton rows are not finite."""
    return f"generalized-alpha: the residual is not finite at t = {t:.6g} (iteration {iteration})"


def not_converged(t: float, max_iterations: int, residual_norm: float, update: float) -> str:
    """The message of a step whose Newton iteration did not converge."""
    return (f"generalized-alpha: Newton did not converge at t = {t:.6g} after {max_iterations} iterations "
            f"(residual norm {residual_norm:.3e}, last update {update:.3e})")


def residual_not_converged(t: float, max_iterations: int, residual_norm: float, ratio: float) -> str:
    """The message of a step whose Newton iteration with Exudyn's stop (``ResidualStop``) did not converge."""
    return (f"generalized-alpha: Newton did not converge at t = {t:.6g} after {max_iterations} iterations "
            f"(residual norm {residual_norm:.3e}, {ratio:.3e} of the step's first)")


def singular_matrix(t: float, reason: str, cause: str) -> str:
    """The message of a step whose iteration matrix has no LU (``reason``), with its ``cause`` in the model."""
    return f"generalized-alpha: singular iteration matrix at t = {t:.6g} ({reason}); {cause}"
