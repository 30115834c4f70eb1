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
    root = Path(__file__).resolve().parents[2]
    texts = [path.read_text() for path in [root / "README.md", *sorted((root / "docs").glob("*.md"))]]
    names = {name for text in texts for name in re.findall(r"\bff\.([A-Za-z_]\w*)", text)}
    assert {"System", "GeneralizedAlpha", "IDAS"} <= names
    assert sorted(name for name in names if not hasattr(ff, name)) == []


def planar_four_bar(redundant_drawing: bool):
    """A four-bar in the x-y plane under gravity (-y): ground pivots (0, 0) and (0.6, 0), crank 0.3 m standing
    up, coupler 0.7 m, rocker 0.5 m, hinges about z. Drawn with four revolute joints (3 equations repeated in
    3D), or with the rocker's ground joint holding x and y only (a revolute joint with freed axes).
    (assembled system, the rocker's ground joint, its ForceLocal sensor)."""
    from model_helpers import ground_marker, rigid_body
    from floatframe import rotations

    crank, coupler, rocker, base = 0.3, 0.7, 0.5, 0.6
    pin_b = np.array([0.0, crank, 0.0])
    gap = np.array([base, 0.0, 0.0]) - pin_b                  # from B to D
    distance = np.linalg.norm(gap)
    along = (coupler ** 2 - rocker ** 2 + distance ** 2) / (2 * distance)
    pin_c = pin_b + along * gap / distance + np.sqrt(coupler ** 2 - along ** 2) * np.array([-gap[1], gap[0], 0.0]) / distance
    system = ff.System()
    markers = []
    for start, end in [((0.0, 0.0, 0.0), pin_b), (pin_b, pin_c), (pin_c, (base, 0.0, 0.0))]:
        start, end = np.asarray(start), np.asarray(end)
        length = np.linalg.norm(end - start)
        angle = np.arctan2(*(end - start)[[1, 0]])
        transverse = 2.0 * length ** 2 / 12.0                 # 2 kg rods along their local x
        body, first = rigid_body(system, 0.5 * (start + end), 2.0, (1e-4, transverse, transverse, 0, 0, 0),
                                 rotations.rotation_matrix_z(angle), local_position=(-0.5 * length, 0.0, 0.0))
        markers.append((first, system.add(ff.MarkerBodyRigid(body, (0.5 * length, 0.0, 0.0)))))
    system.add(ff.RevoluteJoint([ground_marker(system), markers[0][0]], name="A"))
    system.add(ff.RevoluteJoint([markers[0][1], markers[1][0]], name="B"))
    system.add(ff.RevoluteJoint([markers[1][1], markers[2][0]], name="C"))
    closing = [ground_marker(system, (base, 0.0, 0.0)), markers[2][1]]
    joint = system.add(ff.RevoluteJoint(closing, name="D") if redundant_drawing
                       else ff.GenericJoint(closing, (1, 1, 0, 0, 0, 0), name="D"))
    system.add(ff.Gravity([0.0, -9.81, 0.0]))
    force = system.add(ff.SensorObject(joint, "ForceLocal"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assembled = system.assemble()
    return assembled, system.objects[joint], force, [str(w.message) for w in caught]


def test_a_planar_four_bar_of_four_revolute_joints_runs_and_equals_its_drawing_without_redundancy():
    redundant, joint, force, messages = planar_four_bar(True)
    plain, plain_joint, plain_force, plain_messages = planar_four_bar(False)
    assert plain_messages == [] and plain_joint.removed_constraint_rows.size == 0
    first = joint.index - 4                                           # A, B, C, the ground of D, D
    assert messages == ["removed 3 redundant constraint equations at the initial state: 3 equations of "
                        f"RevoluteJoint {first + 4} 'D' repeat RevoluteJoint {first} 'A', RevoluteJoint {first + 1} "
                        f"'B', RevoluteJoint {first + 2} 'C'"]
    assert list(joint.removed_constraint_rows) == [2, 3, 4]           # z translation, rotations about x and y
    assert redundant.n_multipliers == plain.n_multipliers == 3 + 15 + 2
    assert np.array_equal(joint.multiplier_indices, plain_joint.multiplier_indices)
    result = ff.GeneralizedAlpha(0.8).solve(redundant, 0.5, 200)
    reference = ff.GeneralizedAlpha(0.8).solve(plain, 0.5, 200)
    assert np.abs(result.sensor(force)[:, 0]).max() > 1.0             # it moves and loads the closing joint
    assert np.abs(result.q[-1] - result.q[0]).max() > 0.05
    assert np.abs(result.q - reference.q).max() <= 1e-12
    assert np.abs(result.lam - reference.lam).max() <= 1e-9 * np.abs(reference.lam).max()
    # the closing joint reports its kept rows (x, y); its removed z row reads 0, carried by A, B and C
    assert np.abs(result.sensor(force) - reference.sensor(plain_force)).max() <= 1e-9 * np.abs(reference.lam).max()
    assert np.abs(result.sensor(force)[:, 2]).max() == 0.0


def test_redundant_constraints_are_refused_on_request_and_the_option_is_checked():
    system = planar_four_bar(True)[0].system
    with pytest.raises(ff.ModelError, match=r"redundant constraints at the initial state: 3 equations of "
                                            r"RevoluteJoint \d+ 'D' repeat"):
        system.assemble(redundant="refuse")
    with pytest.raises(ff.ModelError, match=r"System.assemble: redundant must be 'remove' or 'refuse', got 'drop'"):
        system.assemble(redundant="drop")
