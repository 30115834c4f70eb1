"""Claims about user functions in the residual (floatframe.assembly.user_function_terms): each called once per residual
evaluation, differenced only when the iteration matrix is formed, a constant mass matrix not differentiated,
the iteration matrix equal to finite differences of the residual, and results equal to the same model
without user functions."""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

from floatframe.solvers import GeneralizedAlpha
from model_helpers import newton_matrix_error, random_state
from test_ffrf import beam_system

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "user_functions.py"


def ffrf_terms(body, mesh):
    """The FFRFTerms of benchmarks/user_functions.py for ``body`` (frame not rotated in its reference): its mass
    matrix and quadratic velocity vector computed with NumPy, as user functions do."""
    spec = importlib.util.spec_from_file_location("user_functions_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.FFRFTerms(body.mass_matrix_ff, mesh.nodes, [1.0, 0.0, 0.0, 0.0])


def counting(function, calls, kind):
    def counted(system, t, item, q, q_t):
        calls[kind] += 1
        return function(q, q_t)
    return counted


def beam_with_user_functions(constant_mass=False, mass_matrix_jacobian="exact", **options):
    """The spinning small beam, its FFRF terms given by user functions (computeFFRFterms off), or, with
    ``constant_mass``, its own terms plus a constant 0.3 kg on the frame translation as a user mass matrix."""
    system, body, mesh = beam_system(angular_velocity=(0.3, -0.2, 2.0), velocity=(0.1, 0.0, 0.2), **options)
    body.mass_matrix_jacobian = mass_matrix_jacobian
    calls = {"force": 0, "mass": 0}
    if constant_mass:
        extra = np.zeros((body.n_coordinates, body.n_coordinates))
        extra[:3, :3] = 0.3 * np.eye(3)
        body.force_user_function = counting(lambda q, q_t: -2.0 * q_t, calls, "force")
        body.mass_matrix_user_function = counting(lambda q, q_t: extra, calls, "mass")
    else:
        terms = ffrf_terms(body, mesh)
        body.compute_ffrf_terms = False
        body.force_user_function = counting(terms.quadratic_velocity, calls, "force")
        body.mass_matrix_user_function = counting(lambda q, q_t: terms.mass(q), calls, "mass")
    return system, body, calls


@pytest.mark.parametrize("constant_mass, mass_matrix_jacobian", [(False, "exact"), (True, "exact"), (False, "value")])
def test_user_functions_are_called_once_per_residual_and_differenced_only_for_the_matrix(constant_mass,
                                                                                        mass_matrix_jacobian):
    """A state-dependent mass matrix is differenced with mass_matrix_jacobian="exact" only; the force always."""
    system, body, calls = beam_with_user_functions(constant_mass, mass_matrix_jacobian)
    differenced = mass_matrix_jacobian == "exact" and not constant_mass
    assembled = system.assemble()
    callbacks = dict(body._user_callbacks)
    assert callbacks["mass"].state_independent == constant_mass
    t, q, v, a, lam = random_state(assembled, np.random.default_rng(3))
    calls.update(force=0, mass=0)
    for k in range(3):
        assembled.residual(t, q, v, a + k, lam)
    assert calls == {"force": 3, "mass": 3}
    calls.update(force=0, mass=0)
    assembled.newton_matrix(t, q, v, a + 2, lam, 1.0, 0.37, 0.011)  # at the state of the last residual
    n_c = body.n_coordinates                                          # one difference per body coordinate
    assert calls == {"force": n_c, "mass": n_c if differenced else 0}
    calls.update(force=0, mass=0)
    assembled.newton_matrix(t, q + 1e-3, v, a, lam, 1.0, 0.37, 0.011)  # another state: the values first
    assert calls == {"force": 1 + n_c, "mass": 1 + n_c if differenced else 1}


@pytest.mark.parametrize("constant_mass", [False, True])
def test_the_newton_matrix_with_user_functions_equals_finite_differences_of_the_residual(constant_mass):
    system, _, _ = beam_with_user_functions(constant_mass)
    assert newton_matrix_error(system.assemble(), np.random.default_rng(11)) <= 1e-8  # measured: 3.2e-10, 3.8e-10


@pytest.mark.parametrize("mass_matrix_jacobian", ["exact", "value"])
def test_ffrf_terms_by_user_functions_give_the_results_of_the_body_itself(mass_matrix_jacobian):
    """The body's own FFRF terms as force and mass-matrix user functions: the same motion (40 steps), with the
    mass matrix's state derivative in the iteration matrix or without it (Newton converges to the same
    solution)."""
    results = []
    for user_functions in (False, True):
        if user_functions:
            system, _, _ = beam_with_user_functions(mass_matrix_jacobian=mass_matrix_jacobian)
        else:
            system, _, _ = beam_system(angular_velocity=(0.3, -0.2, 2.0), velocity=(0.1, 0.0, 0.2))
        solver = GeneralizedAlpha(0.5, modified_newton=True)
        results.append(solver.solve(system.assemble(), 0.02, 40).q)
    native, ours = results
    assert np.abs(ours - native).max() <= 1e-12 * np.abs(native).max()  # measured: 1.3e-14 (both)


def test_an_unknown_mass_matrix_jacobian_is_refused():
    from floatframe.components.base import ModelError
    from floatframe.components.ffrf import ObjectFFRF

    with pytest.raises(ModelError, match="mass_matrix_jacobian must be 'value' or 'exact'"):
        ObjectFFRF([0, 1], np.eye(3), np.eye(3), mass_matrix_jacobian="numeric")
