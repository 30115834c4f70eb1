"""Weak forms of linear elastodynamics for scikit-fem bases."""

from skfem import BilinearForm
from skfem.helpers import ddot, div, dot, grad, sym_grad


def lame_parameters(youngs_modulus: float, poissons_ratio: float) -> tuple[float, float]:
    """Lame parameters (lambda, mu) [Pa] from Young's modulus [Pa] and Poisson's ratio [-]."""
    lam = youngs_modulus * poissons_ratio / ((1.0 + poissons_ratio) * (1.0 - 2.0 * poissons_ratio))
    mu = youngs_modulus / (2.0 * (1.0 + poissons_ratio))
    return lam, mu


def mass_form(density: float) -> BilinearForm:
    """Consistent mass, rho u . v, density [kg/m^3]."""

    @BilinearForm
    def mass(u, v, _):
        return density * dot(u, v)

    return mass


def elasticity_form(lam: float, mu: float) -> BilinearForm:
    """Isotropic linear elasticity, 2 mu eps(u) : eps(v) + lambda tr eps(u) tr eps(v), Lame parameters [Pa].

    Written as 2 mu eps(u) : grad(v) + lambda div(u) div(v), the same (eps(u) is symmetric, so its product with
    the skew part of grad(v) vanishes) with one strain per pair of basis functions instead of two."""

    @BilinearForm
    def elasticity(u, v, _):
        return 2.0 * mu * ddot(sym_grad(u), grad(v)) + lam * div(u) * div(v)

    return elasticity


def deviatoric_elasticity_form(mu: float) -> BilinearForm:
    """Deviatoric part of isotropic elasticity, 2 mu dev eps(u) : dev eps(v), shear modulus [Pa]; written as
    2 mu (eps(u) : grad(v) - div(u) div(v) / 3), as in :func:`elasticity_form`."""

    @BilinearForm
    def deviatoric(u, v, _):
        return 2.0 * mu * (ddot(sym_grad(u), grad(v)) - div(u) * div(v) / 3.0)

    return deviatoric


@BilinearForm
def dilatation_coupling(u, q, _):
    """Volumetric strain tested with a pressure-like field, div(u) q [1/m]."""
    return div(u) * q


@BilinearForm
def scalar_mass(p, q, _):
    """L2 product of scalar fields, p q."""
    return p * q
