"""Claims about the assembled DAE: its Jacobians are exact, its mass matrix is symmetric positive definite;
and about the package's top level."""
import re
import warnings
from pathlib import Path

import numpy as np

import pytest

import floatframe as ff
from model_helpers import newton_matrix_error, random_state, small_beam
from floatframe.components.reference_conditions import add_tisserand_frame


def mixed_model():
    """FFRF beam on a spherical joint and a spring-damper, a rigid body, loads of every kind."""
    system = ff.System()
    body, mesh = small_beam(system, angular_velocity=(1.0, 2.0, 30.0), damping=True)
    add_tisserand_frame(system, body)
    ground = system.add(ff.ObjectGround())
    corner = system.add(ff.MarkerSuperElementPosition(body, [0, 1, 2], [0.5, 0.3, 0.2]))
    system.add(ff.SphericalJoint([system.add(ff.MarkerBodyPosition(ground, (0.1, -0.2, 0.3))), corner]))
    tip = system.add(ff.MarkerSuperElementPosition(body, [19, 18], [0.5, 0.5]))
    system.add(ff.CartesianSpringDamper([tip, system.add(ff.MarkerBodyPosition(ground, (0.5, -0.2, 0.4)))],
                                        [1e4, 2e4, 3e4], [10.0, 20.0, 30.0]))
    rigid_node = system.add(ff.NodeRigidBodyEP([1, 0, 0, 1, 0, 0, 0], initial_velocities=[0, 0, 0, 0, 1, 2, 3]))
    rigid = system.add(ff.ObjectRigidBody(rigid_node, 2.0, [0.15, 0.2, 0.3, 0.01, 0.02, 0.03]))
    rigid_marker = system.add(ff.MarkerBodyRigid(rigid))
    system.add(ff.LoadForceVector(rigid_marker, lambda t: [np.sin(t), 0.0, -9.81 * 2.0]))
    system.add(ff.LoadTorqueVector(rigid_marker, [0.1, -0.2, 0.3]))
    system.add(ff.LoadForceVector(tip, [0.0, 0.0, -50.0]))
    system.add(ff.LoadCoordinate(system.add(ff.MarkerNodeCoordinate(body.node_numbers[5], 1)), 3.0))
    system.add(ff.SphericalJoint([system.add(ff.MarkerBodyPosition(rigid, (0.1, 0, 0))),
                                  system.add(ff.MarkerSuperElementPosition(body, [17], [1.0]))]))
    return system.assemble()


def test_iteration_matrix_equals_central_finite_differences_at_random_states():
    assert newton_matrix_error(mixed_model(), np.random.default_rng(1)) <= 1e-6


def test_mass_matrix_is_symmetric_and_positive_definite_on_the_constraint_tangent_space():
    assembled = mixed_model()
    rng = np.random.default_rng(2)
    for _ in range(5):
        t, q, v, a, lam = random_state(assembled, rng, scale=5e-2)
        mass = assembled.mass_matrix(t, q, v).toarray()
        assert np.abs(mass - mass.T).max() <= 1e-12 * np.abs(mass).max()
        # M is singular along theta (Euler parameters) and along the rigid-body modes of the mesh that the
        # Tisserand frame removes: positive definite on the null space of the constraint Jacobian
        jacobian = assembled.constraint_jacobian(t, q).toarray()
        _, _, vt = np.linalg.svd(jacobian)
        null_space = vt[jacobian.shape[0]:].T
        eigenvalues = np.linalg.eigvalsh(null_space.T @ mass @ null_space)
        assert eigenvalues.min() > 1e-9 * eigenvalues.max()


def test_constraint_acceleration_term_matches_second_time_derivative():
    assembled = mixed_model()
    rng = np.random.default_rng(3)
    t, q, v, a, lam = random_state(assembled, rng)
    h = 1e-4

    def constraint_at(s):
        return assembled.constraints(t + s, q + s * v + 0.5 * s * s * a)

    second = (constraint_at(h) - 2 * constraint_at(0.0) + constraint_at(-h)) / h ** 2
    predicted = assembled.constraint_jacobian(t, q) @ a + assembled.constraint_acceleration_rest(t, q, v)
    assert np.abs(second - predicted).max() <= 1e-5 * max(1.0, np.abs(predicted).max())


def test_build_reports_its_time_and_sizes():
    assembled = mixed_model()
    assert assembled.n_coordinates == 7 + 60 + 7
    assert assembled.n_multipliers == 2 + 3 + 3 + 6
    assert 0 < assembled.build_time < 30


def test_iteration_matrix_with_user_functions_matches_finite_differences():
    """Callbacks enter by the chain rule with forward differences inside: agreement to 1e-5 relative."""
    system = ff.System()
    body, mesh = small_beam(system, angular_velocity=(1.0, 2.0, 30.0))
    add_tisserand_frame(system, body)
    weights = np.linspace(1.0, 2.0, 67)
    body.force_user_function = lambda mbs, t, item, q, q_t: np.sin(3 * q) * 1e3 + weights * q_t ** 2 + t
    body.mass_matrix_user_function = lambda mbs, t, item, q, q_t: np.diag(1.0 + q ** 2)
    assembled = system.assemble()
    rng = np.random.default_rng(8)
    n = assembled.n_coordinates
    c_a, c_v, c_q = 1.0, 0.37, 0.011
    t, q, v, a, lam = random_state(assembled, rng)
    exact = assembled.newton_matrix(t, q, v, a, lam, c_a, c_v, c_q).toarray()[:n, :n]

    def shifted(step):
        return assembled.residual(t, q + c_q * step, v + c_v * step, a + c_a * step, lam)

    numeric = np.zeros((n, n))
    for k in range(n):
        e = np.zeros(n)
        e[k] = 1e-5
        numeric[:, k] = (shifted(e) - shifted(-e)) / 2e-5
    assert np.abs(exact - numeric).max() <= 1e-5 * np.abs(exact).max()


def test_a_model_without_constraints_assembles_without_numpy_warnings():
    """Its residual does not depend on q, v or a at all: the blocked Jacobian must not take a median of nothing."""
    system = ff.System()
    node = system.add(ff.NodePoint([0.0, 0.0, 0.0]))
    system.add(ff.LoadCoordinate(system.add(ff.MarkerNodeCoordinate(node, 1)), 2.5))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assembled = system.assemble()
        zeros = np.zeros(3)
        assert assembled.n_multipliers == 0
        assert assembled.residual(0.0, zeros, zeros, zeros, np.zeros(0)) == pytest.approx([0.0, -2.5, 0.0], abs=0)
        assert assembled.newton_matrix(0.0, zeros, zeros, zeros, np.zeros(0), 1.0, 0.5, 0.25).nnz == 0


def test_the_top_level_exports_the_solvers_and_the_parameter_types():
    from floatframe import parameters, solvers

    assert (ff.IDAS, ff.Newmark, ff.Trapezoidal, ff.GeneralizedAlpha) == (
        solvers.IDAS, solvers.Newmark, solvers.Trapezoidal, solvers.GeneralizedAlpha)
    assert (ff.Parameter, ff.Input, ff.InputSignal) == (parameters.Parameter, parameters.Input, parameters.InputSignal)
    assert all(hasattr(ff, name) for name in ff.__all__)


def test_every_ff_name_in_the_docs_exists_at_the_top_level():
    root = Path(__file__).resolve().parents[1]
    texts = [path.read_text() for path in [root / "README.md", *sorted((root / "docs").glob("*.md"))]]
    names = {name for text in texts for name in re.findall(r"\bff\.([A-Za-z_]\w*)", text)}
    assert {"System", "GeneralizedAlpha", "IDAS"} <= names
    assert sorted(name for name in names if not hasattr(ff, name)) == []
