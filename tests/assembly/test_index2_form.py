"""Claims about the index-2 form of a spherical joint on a rigid body (Exudyn's velocity-level equations).

The index-2 schemes write the joint as v1 - v0 = 0 with the point velocity v + A_E (omega_b x p),
omega_b = G_local theta_t, A_E = I + 2 theta0 e~ + 2 e~ e~ (not normalised), and take its reactions
as J^T lambda, J = d(velocity equations)/dv. On theta^T theta = 1 this is dC/dt and C_q^T lambda.
"""
import numpy as np

import floatframe as ff
from floatframe.models.pendulum import build_pendulum
from floatframe.solvers import Newmark

LOCAL = np.array([-0.5, 0.2, 0.1])


def pendulum():
    """A rigid body on a spherical joint at a body point off its centre, under gravity."""
    system = ff.System()
    node = system.add(ff.NodeRigidBodyEP([0.5, -0.2, -0.1, 1.0, 0.0, 0.0, 0.0]))
    body = system.add(ff.ObjectRigidBody(node, 2.0, [0.1, 0.2, 0.3, 0.0, 0.0, 0.0]))
    ground = system.add(ff.ObjectGround())
    system.add(ff.SphericalJoint([system.add(ff.MarkerBodyPosition(ground)),
                                  system.add(ff.MarkerBodyRigid(body, LOCAL))]))
    system.add(ff.LoadForceVector(system.add(ff.MarkerBodyPosition(body)), [0.0, -2 * 9.81, 0.0]))
    sensor = system.add(ff.SensorNode(node, "Position"))
    return system.assemble(), sensor


def state(norm, seed=3):
    """q (change from the reference), v with theta of the given norm, theta_t orthogonal to theta."""
    rng = np.random.default_rng(seed)
    theta = rng.normal(size=4)
    theta *= norm / np.linalg.norm(theta)
    theta_t = rng.normal(size=4)
    theta_t -= theta * (theta @ theta_t) / (theta @ theta)
    q = np.concatenate([rng.normal(size=3), theta]) - np.array([0.5, -0.2, -0.1, 1.0, 0.0, 0.0, 0.0])
    return q, np.concatenate([rng.normal(size=3), theta_t]), theta, theta_t


def exudyn_point_velocity(v, theta, theta_t, p):
    """v + A_E (G_local theta_t x p), written out in NumPy."""
    e = theta[1:]
    e_tilde = np.array([[0, -e[2], e[1]], [e[2], 0, -e[0]], [-e[1], e[0], 0]])
    rotation = np.eye(3) + 2 * theta[0] * e_tilde + 2 * e_tilde @ e_tilde
    t0, t1, t2, t3 = theta
    g_local = 2 * np.array([[-t1, t0, t3, -t2], [-t2, -t3, t0, t1], [-t3, t2, -t1, t0]])
    return v[:3] + rotation @ np.cross(g_local @ theta_t, p)


def test_on_unit_euler_parameters_the_index2_form_is_dC_dt_and_its_reactions_C_q_T_lambda():
    assembled, _ = pendulum()
    q, v, _, _ = state(1.0)
    a, lam = np.zeros(7), np.array([2.0, 0.3, -1.2, 0.7])
    np.testing.assert_allclose(assembled.constraint_velocity(0.0, q, v, index=2),
                               assembled.constraint_velocity(0.0, q, v), atol=1e-13)
    np.testing.assert_allclose(assembled.residual(0.0, q, v, a, lam, index=2),
                               assembled.residual(0.0, q, v, a, lam), atol=1e-12)


def test_off_unit_norm_the_joint_rows_are_exudyns_point_velocities_and_differ_from_dC_dt():
    assembled, _ = pendulum()
    q, v, theta, theta_t = state(1.01)
    index2 = assembled.constraint_velocity(0.0, q, v, index=2)
    rows = [i for i, owner in enumerate(assembled.constraint_owners) if "SphericalJoint" in owner]
    assert len(rows) == 3
    np.testing.assert_allclose(index2[rows], exudyn_point_velocity(v, theta, theta_t, LOCAL), atol=1e-13)
    assert np.abs(index2[rows] - assembled.constraint_velocity(0.0, q, v)[rows]).max() > 1e-3


def test_the_index2_iteration_matrix_is_the_exact_jacobian_in_lambda_and_v():
    """Finite differences of the index-2 residual and velocity rows in lambda and in the rates."""
    assembled, _ = pendulum()
    q, v, _, _ = state(1.01)
    a, lam = np.zeros(7), np.linspace(-1.0, 1.0, assembled.n_multipliers)
    n, m = 7, assembled.n_multipliers
    matrix = assembled.newton_matrix(0.0, q, v, a, lam, 0.0, 0.0, 0.0, index=2).toarray()
    step = 1e-6
    for k in range(m):
        shift = np.zeros(m)
        shift[k] = step
        difference = (assembled.residual(0.0, q, v, a, lam + shift, index=2)
                      - assembled.residual(0.0, q, v, a, lam - shift, index=2)) / (2 * step)
        np.testing.assert_allclose(matrix[:n, n + k], difference, atol=1e-8)
    for k in range(n):
        shift = np.zeros(n)
        shift[k] = step
        difference = (assembled.constraint_velocity(0.0, q, v + shift, index=2)
                      - assembled.constraint_velocity(0.0, q, v - shift, index=2)) / (2 * step)
        np.testing.assert_allclose(matrix[n:, k], difference, atol=1e-8)


def test_index2_trapezoidal_converges_with_order_two_to_a_fine_index3_solution():
    """Errors at t = 0.4 s against index-3 Newmark at h / 64; halving h divides them by about 4."""
    assembled, sensor = pendulum()
    reference = Newmark(0.5, 0.25, relative_tolerance=1e-12).solve(assembled, 0.4, 40 * 64).sensor(sensor)[-1]
    errors = [np.abs(Newmark(0.5, 0.25, index=2, relative_tolerance=1e-12).solve(assembled, 0.4, steps)
                     .sensor(sensor)[-1] - reference).max() for steps in (40, 80, 160)]
    ratios = np.array(errors[:-1]) / np.array(errors[1:])
    assert errors[0] < 1e-3
    np.testing.assert_allclose(ratios, 4.0, rtol=0.05)  # measured 4.000, 4.005


def test_the_dense_and_the_sparse_newton_paths_give_the_same_index2_solution():
    assembled, sensor = pendulum()
    runs = [Newmark(0.5, 0.25, index=2, relative_tolerance=1e-12, linear_algebra=path).solve(assembled, 0.4, 40)
            .sensor(sensor) for path in ("dense", "sparse")]
    np.testing.assert_allclose(runs[0], runs[1], rtol=0, atol=1e-12)


def test_a_load_called_numerically_leaves_the_index2_form_intact():
    """A load function that cannot be traced (a Python branch on t) is a callback in the graph; the index-2
    velocity equations of a joint on a rigid body do not depend on it, and the system assembles (it did not:
    the velocity equations took the multipliers as an input of the callback's graph)."""
    system, info = build_pendulum()
    marker = system.add(ff.MarkerBodyRigid(info.body))
    system.add(ff.LoadTorqueVector(marker, lambda t: [0.0, 0.0, 0.2 if t < 0.1 else 0.0]))
    assembled = system.assemble()
    q, v = np.zeros(assembled.n_coordinates), np.zeros(assembled.n_coordinates)
    v[:3] = [0.1, -0.2, 0.3]
    velocity = assembled.constraint_velocity(0.0, q, v, index=2)
    np.testing.assert_allclose(velocity[:3], assembled.constraint_velocity(0.0, q, v)[:3], atol=1e-14)
