"""Lie-group generalized-alpha (floatframe.solvers.genalpha_lie): measured orders on a torque-free tumbling body and
the pendulum, the Euler parameters' norm without the norm constraint, the tangent operator in its iteration
matrix, agreement with IDAS and, on a reduced FFRF rotor, with GeneralizedAlpha."""
import warnings

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import floatframe as ff
from floatframe import rotations
from floatframe.assembly import System
from floatframe.components import NodeRigidBodyEP, ObjectRigidBody
from floatframe.solvers.alpha import coefficients, step_factors
from floatframe.solvers.genalpha_lie import LieGroupGeneralizedAlpha, _node_update

STEPS = (0.02, 0.01, 0.005)
INERTIA = np.array([1.0, 2.0, 2.5])                  # principal, kg m^2: asymmetric
OMEGA0 = np.array([0.4, 2.0, 0.6])                   # body-fixed, rad/s: near the intermediate axis
THETA0 = rotations.euler_parameters_from_rot_xyz([0.3, -0.2, 0.5])
TUMBLE_GRID = np.linspace(0.0, 2.0, 11)


@pytest.fixture(scope="module")
def tumbling():
    """A free rigid body (no forces), its Euler-parameter rows, and the reference theta on TUMBLE_GRID from
    Euler's equations J omega_t + omega x J omega = 0 with theta_t = G_local^T omega / 4 (scipy DOP853, rtol 1e-13)."""
    system = System()
    node = system.add(NodeRigidBodyEP([0.0, 0.0, 0.0] + list(THETA0),
                                      initial_velocities=[0.1, 0.0, 0.0] + list(rotations.g_local(THETA0).T @ OMEGA0 / 4)))
    system.add(ObjectRigidBody(node, 3.0, list(INERTIA) + [0.0, 0.0, 0.0]))
    assembled = system.assemble()

    def rates(_, y):
        omega, theta = y[:3], y[3:]
        return np.concatenate([-np.cross(omega, INERTIA * omega) / INERTIA, rotations.g_local(theta).T @ omega / 4])
    reference = solve_ivp(rates, (TUMBLE_GRID[0], TUMBLE_GRID[-1]), np.concatenate([OMEGA0, THETA0]), method="DOP853",
                          t_eval=TUMBLE_GRID, rtol=1e-13, atol=1e-14).y[3:].T
    return assembled, assembled.euler_parameter_rows[0], reference


def euler_parameters(system, result, rows) -> np.ndarray:
    return result.q[:, rows] + system.q_reference[rows]


def orientation_error(thetas, references) -> float:
    """The largest rotation angle [rad] of A_ref^T A over the stored states."""
    return max(float(np.linalg.norm(rotations.rotation_vector_from_rotation_matrix(
        rotations.rotation_matrix(reference).T @ rotations.rotation_matrix(theta))))
        for theta, reference in zip(thetas, references))


def orders(errors) -> np.ndarray:
    return np.log2(np.array(errors[:-1]) / np.array(errors[1:]))


def test_tumbling_body_orientation_converges_with_the_declared_second_order(tumbling):
    system, rows, reference = tumbling
    solver = LieGroupGeneralizedAlpha()
    errors = [orientation_error(euler_parameters(system, solver.solve_grid(system, TUMBLE_GRID, h=h), rows), reference)
              for h in STEPS]
    assert solver.order == 2
    # measured 4.5e-5, 1.1e-5, 2.8e-6 rad: orders 2.000, 2.000
    assert np.all(np.abs(orders(errors) - 2.0) < 0.1), (errors, orders(errors))
    # the additive scheme's error at h = 0.02 s is 2.2e-4 rad, five times the Lie-group one
    standard = orientation_error(euler_parameters(system, ff.GeneralizedAlpha().solve_grid(system, TUMBLE_GRID, h=0.02),
                                                  rows), reference)
    assert errors[0] < 0.3 * standard, (errors[0], standard)


def test_euler_parameter_norm_is_one_to_round_off_without_the_norm_constraint(tumbling):
    """The Newton rows leave out the norm constraint (it is not enforced), yet |theta| = 1 to round-off over 400
    steps; the index-2 generalized-alpha, which enforces only its velocity row, drifts off the sphere."""
    system, rows, _ = tumbling
    solver = LieGroupGeneralizedAlpha()
    newton = solver.prepare(system)
    assert list(newton.norm_rows) == [0] and newton.kept_rows.size == system.n_multipliers - 1
    grid = np.linspace(0.0, 4.0, 401)
    lie = np.linalg.norm(euler_parameters(system, solver.solve_grid(system, grid, h=0.01), rows), axis=1)
    drift = np.linalg.norm(euler_parameters(system, ff.GeneralizedAlpha(index=2).solve_grid(system, grid, h=0.01), rows),
                           axis=1)
    assert np.abs(lie - 1.0).max() <= 50 * np.finfo(float).eps      # measured 2.6e-15 (a random walk of round-off)
    assert np.abs(drift - 1.0).max() > 1e-6                          # measured 2.5e-6


def test_pendulum_positions_and_orientation_converge_with_second_order(pendulum, position_error):
    system, info = pendulum
    rows = system.euler_parameter_rows[0]
    grid = np.linspace(0.0, 1.0, 11)
    solver = LieGroupGeneralizedAlpha()
    position_errors, angle_errors = [], []
    for h in STEPS:
        result = solver.solve_grid(system, grid, h=h)
        position_errors.append(position_error(result, info))
        phi = info.angle_reference(result.t)
        references = np.column_stack([np.cos(phi / 2), 0 * phi, 0 * phi, np.sin(phi / 2)])  # about z
        angle_errors.append(orientation_error(euler_parameters(system, result, rows), references))
    # measured positions 2.0e-4, 4.9e-5, 1.2e-5 m; angles of the same size in rad
    assert np.all(np.abs(orders(position_errors) - 2.0) < 0.1), (position_errors, orders(position_errors))
    assert np.all(np.abs(orders(angle_errors) - 2.0) < 0.1), (angle_errors, orders(angle_errors))


def heavy_top():
    """An asymmetric top (1 kg; 0.1, 0.15, 0.2 kg m^2) on a spherical joint 0.5 m below its centre of mass, tilted
    0.3 rad about x, spinning at 20 rad/s about its axis with 1 rad/s about x (body-fixed), under gravity -z."""
    from floatframe.components import LoadForceVector, MarkerBodyPosition, ObjectGround, SensorBody, SphericalJoint
    system = System()
    theta = rotations.euler_parameters_from_rot_xyz([0.3, 0.0, 0.0])
    rotation = rotations.rotation_matrix(theta)
    pivot = np.array([0.0, 0.0, -0.5])                     # body-fixed, from the centre of mass
    centre, omega_body = -rotation @ pivot, np.array([1.0, 0.0, 20.0])
    velocity = np.cross(rotation @ omega_body, centre)
    node = system.add(NodeRigidBodyEP(list(centre) + list(theta), initial_velocities=list(velocity) + list(
        rotations.g_local(theta).T @ omega_body / 4)))
    body = system.add(ObjectRigidBody(node, 1.0, [0.1, 0.15, 0.2, 0.0, 0.0, 0.0]))
    system.add(SphericalJoint([system.add(MarkerBodyPosition(system.add(ObjectGround()))),
                               system.add(MarkerBodyPosition(body, list(pivot)))]))
    system.add(LoadForceVector(system.add(MarkerBodyPosition(body)), [0.0, 0.0, -9.81]))
    system.add(SensorBody(body, "Position"))
    return system.assemble()


def test_heavy_top_converges_with_second_order_to_idas():
    """A constrained 3D rotation: against IDAS at rtol 1e-12, centre positions 3.8e-4, 9.4e-5, 2.3e-5 m and
    orientations 8.0e-4, 2.0e-4, 5.0e-5 rad at h = 4, 2, 1 ms (orders 2.00); GeneralizedAlpha: positions 1.6e-4,
    4.1e-5, 1.0e-5 m (smaller), orientations 2.8e-3, 7.0e-4, 1.8e-4 rad (3.5 times larger)."""
    system = heavy_top()
    rows = system.euler_parameter_rows[0]
    grid = np.linspace(0.0, 1.0, 11)
    reference = ff.IDAS(rtol=1e-12, atol=1e-14).solve_grid(system, grid)
    position_errors, angle_errors = [], []
    for h in (0.004, 0.002, 0.001):
        result = LieGroupGeneralizedAlpha().solve_grid(system, grid, h=h)
        position_errors.append(float(np.abs(result.sensor(0) - reference.sensor(0)).max()))
        angle_errors.append(orientation_error(euler_parameters(system, result, rows),
                                              euler_parameters(system, reference, rows)))
    assert np.all(np.abs(orders(position_errors) - 2.0) < 0.1), (position_errors, orders(position_errors))
    assert np.all(np.abs(orders(angle_errors) - 2.0) < 0.1), (angle_errors, orders(angle_errors))
    assert angle_errors[-1] <= 1e-4 and position_errors[-1] <= 5e-5


def test_pendulum_agrees_with_idas_at_tight_tolerance(pendulum):
    system, _ = pendulum
    grid = np.linspace(0.0, 1.0, 11)
    reference = ff.IDAS(rtol=1e-10, atol=1e-12).solve_grid(system, grid)
    result = LieGroupGeneralizedAlpha().solve_grid(system, grid, h=2e-3)
    scale = np.abs(reference.sensor(0)).max()
    # second order: (2e-3 / 5e-3)^2 of the 1.2e-5 m at h = 5e-3 s is 2e-6 m (measured 1.96e-6 of the motion,
    # GeneralizedAlpha's 1.96e-6 as well)
    assert np.abs(result.sensor(0) - reference.sensor(0)).max() <= 3e-6 * scale


def test_newton_matrix_contains_the_tangent_operator_of_the_exponential_map():
    """d theta_{n+1} / d omega_t = G_local(theta_{n+1})^T T(h Delta) h^2 beta kappa / 4, T = rotations.t_exp_so3."""
    alpha_m, alpha_f, beta, gamma = coefficients(0.7)
    h = 0.05
    c_q, _, kappa = step_factors(h, alpha_m, alpha_f, beta, gamma)
    theta_n, omega_n = THETA0, np.array([3.0, -7.0, 11.0])
    omega_t_n, abar_n, omega_t = np.array([1.0, 2.0, -3.0]), np.array([0.5, 1.5, -2.0]), np.array([-4.0, 6.0, 1.0])
    theta, *_, d_theta, _, _ = (np.asarray(o) for o in _node_update(alpha_m, alpha_f, beta, gamma)(
        theta_n, omega_n, omega_t_n, abar_n, omega_t, h))
    abar = (alpha_f * omega_t_n - alpha_m * abar_n) / (1 - alpha_m) + kappa * omega_t
    increment = omega_n + h * (0.5 - beta) * abar_n + h * beta * abar
    expected = rotations.g_local(theta.ravel()).T @ rotations.t_exp_so3(h * increment) * c_q / 4
    assert np.linalg.norm(h * increment) > 0.5                      # far from the series branch
    assert np.abs(d_theta - expected).max() <= 1e-14
    assert abs(np.linalg.norm(theta) - 1.0) <= 1e-15


@pytest.mark.parametrize("path", ["python dense", "python sparse"])
def test_the_evaluation_paths_take_the_same_steps(tumbling, monkeypatch, path):
    """Small models evaluate one CasADi Function of rows and Jacobian (the kernel); without it (Python user
    functions) the contract's residual and newton_matrix give a dense matrix, above DENSE_SIZE a sparse one.
    Forced here on the tumbling body: the same steps to round-off (measured 1.3e-14)."""
    from floatframe.solvers import genalpha_lie
    system, _, _ = tumbling
    kernel = LieGroupGeneralizedAlpha().solve_grid(system, TUMBLE_GRID, h=0.02)
    monkeypatch.setattr(genalpha_lie, "_newton_kernel", lambda newton, system: None)
    if path == "python sparse":
        monkeypatch.setattr(genalpha_lie, "DENSE_SIZE", 0)
    other = LieGroupGeneralizedAlpha()
    assert other.prepare(system).kernel is None
    result = other.solve_grid(system, TUMBLE_GRID, h=0.02)
    assert np.abs(result.q - kernel.q).max() <= 1e-13 and np.abs(result.v - kernel.v).max() <= 1e-12
    assert np.abs(kernel.q).max() > 0.1


def test_exact_iteration_matrix_takes_no_more_newton_iterations_than_the_standard_scheme(tumbling):
    system, _, _ = tumbling
    lie, standard = LieGroupGeneralizedAlpha(), ff.GeneralizedAlpha(linear_algebra="sparse")
    lie.solve_grid(system, TUMBLE_GRID, h=0.02)
    standard.solve_grid(system, TUMBLE_GRID, h=0.02)
    # measured 3.0 and 3.0 a step: quadratic convergence, the matrix is exact
    assert lie.statistics.iterations_per_step <= standard.statistics.iterations_per_step + 0.1


def test_reduced_ffrf_rotor_frame_runs_and_agrees_with_generalized_alpha_to_the_step_error():
    """The rotor reduced to 8 modes, whose frame is an Euler-parameter node spinning at 314 rad/s: 5 ms.
    Against GeneralizedAlpha at h = 1e-5 s as the reference, both schemes' errors at h = 2e-4 s are of the
    step's size (sensor: the same 4e-7 m); the Lie-group frame orientation is the more accurate."""
    from floatframe.models.rotor_disc import build_rotor_disc
    model = build_rotor_disc(modes=8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # the spin-rate warning of a linear FFRF body
        system = model.system.assemble()
        reference = ff.GeneralizedAlpha(0.5).solve(system, 0.005, 5, h=1e-5)
        lie = LieGroupGeneralizedAlpha(0.5).solve(system, 0.005, 5, h=2e-4)
        standard = ff.GeneralizedAlpha(0.5).solve(system, 0.005, 5, h=2e-4)
    sensor = model.sensor
    lie_error = np.abs(lie.sensor(sensor) - reference.sensor(sensor)).max()
    standard_error = np.abs(standard.sensor(sensor) - reference.sensor(sensor)).max()
    assert np.abs(reference.sensor(sensor)).max() > 1e-4               # the rotor deforms (3e-4 m)
    assert lie_error <= 1.2 * standard_error, (lie_error, standard_error)          # measured 4.0e-7, 4.1e-7
    assert np.abs(lie.sensor(sensor) - standard.sensor(sensor)).max() <= 1.2 * standard_error
    # the frame's coordinates (Euler parameters of a 1.6 rad turn): measured 5.8e-6 against 9.0e-5
    assert np.abs(lie.q - reference.q).max() <= 0.2 * np.abs(standard.q - reference.q).max()
    rows = system.euler_parameter_rows[0]
    assert np.abs(np.linalg.norm(euler_parameters(system, lie, rows), axis=1) - 1.0).max() <= 1e-15


def test_it_reads_the_model_through_the_dae_contract_only():
    from floatframe.models.pendulum import build_pendulum
    from model_helpers import ContractOnly
    system = build_pendulum(angle0=1.0)[0].assemble()
    direct = LieGroupGeneralizedAlpha().solve(system, 0.05, 10)
    through_contract = LieGroupGeneralizedAlpha().solve(ContractOnly(system), 0.05, 10)
    assert np.array_equal(direct.q, through_contract.q) and np.array_equal(direct.lam, through_contract.lam)
    assert np.abs(direct.q).max() > 1e-3
