"""Claims about ObjectFFRF's matrix form (nodal_products="matrix"): the terms with the FE mass matrix as one
MX Function of sparse products with a hand-derived sparse Jacobian. It must give the scalar SX form's
residual and Newton matrix, an exact Jacobian, the same motion under every solver, and a graph that does not
grow with the mesh."""
import casadi as ca
import numpy as np
import pytest

import floatframe as ff
from model_helpers import exact_function_errors, random_state
from floatframe.components.ffrf import SCALAR_PRODUCTS_LIMIT, add_ffrf_body
from floatframe.components.reference_conditions import add_tisserand_frame
from floatframe.fem import block_mesh, linear_elastic_matrices

THETA = np.array([0.9, 0.1, 0.3, 0.2]) / np.linalg.norm([0.9, 0.1, 0.3, 0.2])


def spinning_beam(form, nx=4, ny=1, gravity=True):
    """A damped steel beam (stiffness / 1000), spinning and tumbling, with a Tisserand frame, gravity and a
    spring from a mesh node to the ground; assembled with the given form of the nodal products."""
    mesh = block_mesh(0.4, 0.1, 0.1, nx, ny, ny)
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=2.1e8, poissons_ratio=0.3, density=7850.0)
    system = ff.System()
    body = add_ffrf_body(system, mesh.nodes, mass, stiffness, 1e-4 * stiffness, position=(0.1, -0.2, 0.3),
                         euler_parameters=THETA, velocity=(0.5, 0.0, -0.2), angular_velocity=(1.0, -2.0, 20.0),
                         nodal_products=form)
    add_tisserand_frame(system, body)
    if gravity:
        system.add(ff.LoadMassProportional(system.add(ff.MarkerBodyMass(body)), (0.0, 0.0, -9.81)))
    tip = system.add(ff.MarkerSuperElementPosition(body, [mesh.node_at_point((0.4, 0.1, 0.1))], [1.0]))
    ground = system.add(ff.MarkerNodePosition(system.add(ff.NodePointGround((0.5, 0.0, 0.0)))))
    system.add(ff.CartesianSpringDamper([ground, tip], stiffness=(1e3, 2e3, 3e3), damping=(5.0, 5.0, 5.0)))
    return system.assemble(), body


@pytest.fixture(scope="module")
def both_forms():
    return {form: spinning_beam(form)[0] for form in ("scalar", "matrix")}


def test_the_hand_derived_jacobian_equals_casadis_ad_and_central_differences():
    """frame_terms' sparse Jacobian at a random point, against CasADi's AD of the same expressions and
    against central differences of the function."""
    _, body = spinning_beam("matrix", gravity=False)
    function = body.frame_terms()
    versus_ad, versus_differences = exact_function_errors(function, seed=6)
    assert versus_ad <= 1e-13
    assert versus_differences <= 1e-8
    point = np.random.default_rng(6).standard_normal(sum(function.input_sizes))
    parts = np.split(point, np.cumsum(function.input_sizes)[:-1])
    stacked = ca.MX.sym("x", point.size)
    given = np.array(ca.Function("given", [stacked], [function.jacobian(stacked)])(point))
    assert np.abs(np.array(function.stacked_jacobian(*parts)) - given).max() == 0.0


def test_the_matrix_form_has_the_residual_and_newton_matrix_of_the_scalar_form(both_forms):
    t, q, v, a, lam = random_state(both_forms["scalar"], np.random.default_rng(7), scale=0.05)
    residuals = [both_forms[form].residual(t, q, v, a, lam) for form in ("scalar", "matrix")]
    assert np.abs(residuals[1] - residuals[0]).max() <= 1e-13 * np.abs(residuals[0]).max()
    for factors in ((1.0, 0.37, 0.011), (0.2, 1.5, 3.0)):
        matrices = [both_forms[form].newton_matrix(t, q, v, a, lam, *factors).toarray() for form in ("scalar", "matrix")]
        assert np.abs(matrices[1] - matrices[0]).max() <= 1e-13 * np.abs(matrices[0]).max()


def test_the_newton_matrix_of_the_matrix_form_equals_central_differences_of_its_residual(both_forms):
    assembled = both_forms["matrix"]
    t, q, v, a, lam = random_state(assembled, np.random.default_rng(8), scale=0.05)
    n = assembled.n_coordinates
    c_a, c_v, c_q = 1.0, 0.7, 0.3
    exact = assembled.newton_matrix(t, q, v, a, lam, c_a, c_v, c_q).toarray()[:n]
    step = 1e-6

    def residual(x):
        return assembled.residual(t, q + c_q * x[:n], v + c_v * x[:n], a + c_a * x[:n], lam + x[n:])

    numeric = np.column_stack([(residual(e) - residual(-e)) / (2 * step) for e in step * np.eye(exact.shape[1])])
    assert np.abs(exact - numeric).max() <= 1e-7 * np.abs(exact).max()


def test_both_forms_move_alike_under_generalized_alpha_and_idas(both_forms):
    """Twenty generalized-alpha steps agree to round-off; IDAS (which takes the residual's Jacobian from
    residual_with_jacobian, through the Function's given Jacobian) agrees to its tolerance."""
    finals = {form: ff.GeneralizedAlpha(spectral_radius=0.8).solve(system, 0.02, 20).q[-1]
              for form, system in both_forms.items()}
    moved = np.abs(finals["scalar"] - both_forms["scalar"].q_initial).max()
    assert moved > 1e-3
    assert np.abs(finals["matrix"] - finals["scalar"]).max() <= 1e-11 * moved
    idas = {form: ff.IDAS(rtol=1e-9, atol=1e-11).solve(system, 0.005, 5).q[-1] for form, system in both_forms.items()}
    assert np.abs(idas["matrix"] - idas["scalar"]).max() <= 1e-7 * moved


def test_the_matrix_forms_graph_does_not_grow_with_the_mesh():
    """The MX Function of the terms and of its Jacobian has as many nodes for a 4 x 1 x 1 as for a 16 x 2 x 2
    mesh (12 times the nodes), and 'auto' picks the matrix form above SCALAR_PRODUCTS_LIMIT mesh coordinates."""
    sizes = {}
    for nx, ny in ((4, 1), (16, 2)):
        _, body = spinning_beam("auto", nx, ny, gravity=False)
        function = body.frame_terms()
        sizes[nx] = (function.function.n_nodes(), function.stacked_jacobian.n_nodes())
        assert body.matrix_form == (3 * body.n_mesh_nodes > SCALAR_PRODUCTS_LIMIT)
    assert sizes[4] == sizes[16]


def test_an_unknown_form_is_refused_with_the_choices():
    with pytest.raises(ff.ModelError, match="nodal_products must be 'auto', 'scalar' or 'matrix'"):
        spinning_beam("dense")
