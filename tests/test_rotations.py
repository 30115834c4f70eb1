"""floatframe.rotations: elementary rotations, Tait-Bryan angles, rotation vectors and homogeneous
transformations, checked against compositions, the matrix exponential, finite differences and round trips."""
import casadi as ca
import numpy as np
import pytest
from scipy.linalg import expm

from floatframe import rotations as rot

RNG = np.random.default_rng(14)
ANGLES = [RNG.uniform(-np.pi, np.pi, 3) * [1, 0.45, 1] for _ in range(8)]  # second angle inside (-pi/2, pi/2)


def assert_rotation(matrix):
    np.testing.assert_allclose(matrix @ matrix.T, np.eye(3), atol=1e-14)
    assert np.linalg.det(matrix) == pytest.approx(1.0, abs=1e-14)


def test_elementary_rotations_turn_the_axes_counter_clockwise():
    e = np.eye(3)
    np.testing.assert_allclose(rot.rotation_matrix_x(np.pi / 2) @ e[1], e[2], atol=1e-15)
    np.testing.assert_allclose(rot.rotation_matrix_y(np.pi / 2) @ e[2], e[0], atol=1e-15)
    np.testing.assert_allclose(rot.rotation_matrix_z(np.pi / 2) @ e[0], e[1], atol=1e-15)
    for function in (rot.rotation_matrix_x, rot.rotation_matrix_y, rot.rotation_matrix_z):
        assert_rotation(function(0.7))


@pytest.mark.parametrize("angles", ANGLES)
def test_rot_xyz_is_the_product_of_x_y_z_rotations(angles):
    composed = rot.rotation_matrix_x(angles[0]) @ rot.rotation_matrix_y(angles[1]) @ rot.rotation_matrix_z(angles[2])
    np.testing.assert_allclose(rot.rotation_matrix_from_rot_xyz(angles), composed, atol=1e-15)
    np.testing.assert_allclose(rot.rot_xyz_from_rotation_matrix(composed), angles, atol=1e-13)
    theta = rot.euler_parameters_from_rot_xyz(angles)
    assert theta @ theta == pytest.approx(1.0, abs=1e-15)
    np.testing.assert_allclose(rot.rotation_matrix(theta), composed, atol=1e-15)


def test_rot_xyz_at_gimbal_lock_still_reproduces_the_matrix():
    matrix = rot.rotation_matrix_from_rot_xyz([0.4, np.pi / 2, -0.3])
    angles = rot.rot_xyz_from_rotation_matrix(matrix)
    assert angles[0] == 0.0 and angles[1] == pytest.approx(np.pi / 2)
    np.testing.assert_allclose(rot.rotation_matrix_from_rot_xyz(angles), matrix, atol=1e-14)


@pytest.mark.parametrize("angles", ANGLES[:4])
def test_rot_xyz_g_matrices_match_finite_differences(angles):
    rates = np.array([0.3, -1.1, 0.7])
    h = 1e-6
    a = rot.rotation_matrix_from_rot_xyz(angles)
    a_t = (rot.rotation_matrix_from_rot_xyz(angles + h * rates)
           - rot.rotation_matrix_from_rot_xyz(angles - h * rates)) / (2 * h)
    omega_skew, omega_local_skew = a_t @ a.T, a.T @ a_t  # skew(omega) = A_t A^T, skew(omega_b) = A^T A_t
    omega = rot.rot_xyz_g_global(angles) @ rates
    np.testing.assert_allclose(rot.skew(omega), omega_skew, atol=1e-8)
    np.testing.assert_allclose(rot.skew(rot.rot_xyz_g_local(angles) @ rates), omega_local_skew, atol=1e-8)
    np.testing.assert_allclose(rot.rot_xyz_t(omega, angles), rates, atol=1e-13)


@pytest.mark.parametrize("vector", [RNG.normal(size=3) * s for s in (1e-9, 0.3, 1.0, 2.5, 9.0)])
def test_rotation_vector_is_the_exponential_of_its_skew_matrix(vector):
    matrix = rot.rotation_matrix_from_rotation_vector(vector)
    np.testing.assert_allclose(matrix, expm(rot.skew(vector)), atol=1e-14)
    assert_rotation(matrix)
    back = rot.rotation_vector_from_rotation_matrix(matrix)
    assert np.linalg.norm(back) <= np.pi
    np.testing.assert_allclose(rot.rotation_matrix_from_rotation_vector(back), matrix, atol=1e-14)
    if np.linalg.norm(vector) < np.pi:
        np.testing.assert_allclose(back, vector, atol=1e-14)


def test_zero_rotation_vector_is_the_identity():
    np.testing.assert_array_equal(rot.rotation_matrix_from_rotation_vector(np.zeros(3)), np.eye(3))
    np.testing.assert_array_equal(rot.rotation_vector_from_rotation_matrix(np.eye(3)), np.zeros(3))


def test_casadi_symbols_give_the_numpy_values_and_finite_derivatives():
    vector, angle = ca.SX.sym("v", 3), ca.SX.sym("phi")
    x = np.array([0.3, -0.5, 1.2])
    for function in (rot.rotation_matrix_from_rot_xyz, rot.euler_parameters_from_rot_xyz, rot.rot_xyz_g_global,
                     rot.rot_xyz_g_local, rot.rotation_matrix_from_rotation_vector):
        symbolic = ca.Function("f", [vector], [function(vector)])
        np.testing.assert_allclose(np.asarray(symbolic(x)).squeeze(), function(x), atol=1e-15,
                                   err_msg=function.__name__)
    for function in (rot.rotation_matrix_x, rot.rotation_matrix_y, rot.rotation_matrix_z):
        np.testing.assert_allclose(np.asarray(ca.Function("f", [angle], [function(angle)])(0.4)), function(0.4),
                                   atol=1e-15)
    jacobian = ca.Function("j", [vector], [ca.jacobian(rot.rotation_matrix_from_rotation_vector(vector), vector)])
    at_zero = np.asarray(jacobian(np.zeros(3)))
    np.testing.assert_allclose(at_zero[:, 2].reshape(3, 3, order="F"), rot.skew([0, 0, 1]), atol=1e-15)  # d exp / dv_z


def test_homogeneous_transformation_and_its_inverse():
    a, r = rot.rotation_matrix_from_rot_xyz([0.2, -0.4, 1.0]), np.array([1.0, -2.0, 0.5])
    t = rot.homogeneous_transformation(a, r)
    point = np.array([0.3, 0.1, -0.7])
    np.testing.assert_allclose((t @ [*point, 1])[:3], a @ point + r, atol=1e-15)
    np.testing.assert_allclose(rot.inverse_homogeneous_transformation(t) @ t, np.eye(4), atol=1e-15)
