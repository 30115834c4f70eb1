"""Claims about NodeRigidBodyEP(unit_form=True), Exudyn's form of the rigid-body kinematics (nodes.py, bodies.py,
markers.py, springs.py):

- A_E = I + 2 theta0 e~ + 2 e~ e~ equals the homogeneous rotation matrix where |theta| = 1 and differs from it
  to first order off it;
- where |theta| = 1 and theta_t is tangent, a model of rigid bodies with point forces and spring-dampers of
  every kind has the same residual in both forms, and the same Newton matrix along the directions that keep
  |theta|; off the unit norm the residuals differ;
- the unit form's Newton matrix equals finite differences.
"""
import numpy as np

import floatframe as ff
from floatframe import rotations
from model_helpers import newton_matrix_error, random_state


def test_the_unit_form_is_the_rotation_on_the_unit_norm_and_differs_off_it():
    rng = np.random.default_rng(3)
    theta = rng.standard_normal(4)
    theta /= np.linalg.norm(theta)
    np.testing.assert_allclose(rotations.rotation_matrix_unit_form(theta), rotations.rotation_matrix(theta),
                               rtol=0, atol=1e-15)
    drifted = theta * np.sqrt(1 + 1e-4)
    difference = rotations.rotation_matrix_unit_form(drifted) - rotations.rotation_matrix(drifted)
    assert 1e-6 < np.abs(difference).max() < 1e-3


def bodies_on_springs(unit_form):
    """Two rigid bodies, a force at a point of each, the three spring-dampers between points of them and the ground."""
    system = ff.System()
    bodies = []
    for x, theta in ((0.0, [1, 0, 0, 0]), (1.0, [0.9, 0.3, -0.2, 0.2])):
        theta = np.array(theta) / np.linalg.norm(theta)
        node = system.add(ff.NodeRigidBodyEP([x, 0.1, 0.0, *theta], unit_form=unit_form))
        bodies.append(system.add(ff.ObjectRigidBody(node, 2.0, [0.3, 0.4, 0.5, 0.0, 0.0, 0.0])))
    ground = system.add(ff.ObjectGround())
    points = [system.add(ff.MarkerBodyRigid(body, [0.2, -0.1, 0.3])) for body in bodies]
    fixed = system.add(ff.MarkerBodyRigid(ground, [0.5, 0.0, 0.0]))
    system.add(ff.LoadForceVector(points[0], [1.0, -2.0, 0.5]))
    system.add(ff.LoadForceVector(system.add(ff.MarkerBodyPosition(bodies[1], [-0.3, 0.2, 0.1])), [0.0, 3.0, 1.0]))
    system.add(ff.CartesianSpringDamper([fixed, points[0]], [100.0, 200.0, 300.0], [1.0, 2.0, 3.0]))
    system.add(ff.SpringDamper([points[0], points[1]], 500.0, 5.0, reference_length=0.8))
    system.add(ff.RigidBodySpringDamper([fixed, points[1]], 50.0 * np.eye(6), 0.5 * np.eye(6)))
    return system.assemble()


def tangent_projector(assembled, q):
    """The projector onto the directions that keep |theta| (per node: I - theta theta^T / |theta|^2 on its Euler
    parameters), padded to the Newton matrix's size: the two forms' derivatives differ only along theta."""
    n = assembled.n_coordinates
    projector = np.eye(n + assembled.n_multipliers)
    for node in assembled.system.nodes:
        rows = node.coordinate_indices[3:]
        theta = node.reference_coordinates[3:] + q[rows]
        projector[np.ix_(rows, rows)] -= np.outer(theta, theta) / (theta @ theta)
    return projector


def test_on_the_unit_norm_both_forms_give_the_same_residual_and_newton_matrix_and_off_it_they_differ():
    """The Newton matrices are compared on the directions tangent to the unit norm: along theta the two forms'
    derivatives differ by construction (A_E(s theta) is not s^2 A(theta))."""
    unit, homogeneous = bodies_on_springs(True), bodies_on_springs(False)
    rng = np.random.default_rng(7)
    for _ in range(3):
        t, q, v, a, lam = random_state(unit, rng)
        np.testing.assert_allclose(unit.residual(t, q, v, a, lam), homogeneous.residual(t, q, v, a, lam),
                                   rtol=0, atol=1e-12)
        tangent = tangent_projector(unit, q)
        np.testing.assert_allclose(unit.newton_matrix(t, q, v, a, lam, 1.0, 0.37, 0.011).toarray() @ tangent,
                                   homogeneous.newton_matrix(t, q, v, a, lam, 1.0, 0.37, 0.011).toarray() @ tangent,
                                   rtol=0, atol=1e-10)
    drifted = q.copy()
    for node in unit.system.nodes:
        rows = node.coordinate_indices[3:]
        drifted[rows] = (node.reference_coordinates[3:] + q[rows]) * 1.01 - node.reference_coordinates[3:]
    gap = np.abs(unit.residual(t, drifted, v, a, lam) - homogeneous.residual(t, drifted, v, a, lam)).max()
    assert gap > 1e-3


def test_the_unit_forms_newton_matrix_equals_finite_differences():
    assert newton_matrix_error(bodies_on_springs(True), np.random.default_rng(11)) < 1e-6
