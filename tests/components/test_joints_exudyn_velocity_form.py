"""Claims about GenericJoint(velocity_form="exudyn"), Exudyn's velocity rows of the joints at index 2 (joints.py):

- on unit Euler parameters (tangent rates) its index-2 rows, reactions and velocity outputs equal those of the
  default form (d/dt of the equations), for subsets of the axes and the named joints;
- off the unit norm its rows are Exudyn's, written out below in NumPy (axis rates A_E (omega_b x (R a)),
  point velocities v + A_E (omega_b x p)), and differ from the default's where axis rates enter; its reactions are the default's
  (Exudyn's constraint Jacobian, J^T lambda with omega = G theta_t);
- its index-2 Newton matrix is the exact Jacobian (finite differences in lambda and in the rates);
- the default form is unchanged (d/dt of the equations: test_joints.py).
"""
import numpy as np
import pytest

import floatframe as ff
from floatframe import rotations
from model_helpers import random_state

TURN0 = rotations.rotation_matrix_from_rot_xyz([0.3, -0.2, 0.7])       # rotation_marker0 / 1
TURN1 = rotations.rotation_matrix_from_rot_xyz([-0.5, 0.1, 0.2])
LOCAL_ROTATIONS = [rotations.rotation_matrix_from_rot_xyz(angles) for angles in ([0.1, 0.4, -0.2], [0.6, -0.3, 0.1])]
LOCAL_POSITIONS = [np.array([0.2, 0.0, 0.1]), np.array([-0.1, 0.1, 0.0])]
PATTERNS = [(1, 1, 1, 1, 1, 1), (0, 1, 1, 1, 1, 1), (1, 0, 1, 0, 1, 1), (1, 1, 1, 1, 0, 0), (0, 0, 1, 0, 0, 1),
            (1, 1, 1, 0, 0, 0)]
OUTPUTS = ("Velocity", "VelocityLocal", "AngularVelocityLocal")


def two_bodies(velocity_form, axes=(1, 1, 1, 1, 1, 1), joint=None):
    """Two rigid bodies on unit-form nodes (the Exudyn layer's), joined at marker frames with local positions and
    rotations by a GenericJoint of ``axes`` (or the named ``joint``); sensors of the velocity outputs."""
    system = ff.System()
    markers = []
    for position, theta, local_position, local_rotation in zip(
            ([0.1, -0.2, 0.3], [0.4, -0.1, 0.2]), ([0.9, 0.3, -0.2, 0.2], [0.8, -0.1, 0.4, 0.3]),
            LOCAL_POSITIONS, LOCAL_ROTATIONS):
        theta = np.array(theta) / np.linalg.norm(theta)
        node = system.add(ff.NodeRigidBodyEP([*position, *theta], unit_form=True))
        body = system.add(ff.ObjectRigidBody(node, 2.0, [0.3, 0.4, 0.5, 0.0, 0.0, 0.0]))
        markers.append(system.add(ff.MarkerBodyRigid(body, local_position, local_rotation)))
    if joint is None:
        item = system.add(ff.GenericJoint(markers, axes, TURN0, TURN1, velocity_form=velocity_form))
    else:
        item = system.add(joint(markers, TURN0, TURN1, velocity_form=velocity_form))
    for variable in OUTPUTS:
        system.add(ff.SensorObject(item, variable))
    return system.assemble(check_redundancy=False)                  # the random states are not consistent


def joint_rows(assembled):
    return [i for i, owner in enumerate(assembled.constraint_owners) if "Joint" in owner]


def off_unit_norm(assembled, q, v, norm):
    """q, v with every theta scaled to |theta| = norm (theta_t kept tangent)."""
    q, v = q.copy(), v.copy()
    for node in assembled.system.nodes:
        rows = node.coordinate_indices[3:]
        theta = node.reference_coordinates[3:] + q[rows]
        q[rows] = norm * theta / np.linalg.norm(theta) - node.reference_coordinates[3:]
    return q, v


def skew(x):
    return np.array([[0.0, -x[2], x[1]], [x[2], 0.0, -x[0]], [-x[1], x[0], 0.0]])


def rotation_rows(flags):
    """(axis of J0, axis of J1) of the rotation equations (joints.py's module docstring)."""
    locked = [k for k in range(3) if flags[k]]
    if len(locked) == 3:
        return [(2, 1), (2, 0), (0, 1)]
    if len(locked) == 2:
        free = ({0, 1, 2} - set(locked)).pop()
        return [(free, j) for j in range(3) if j != free]
    if len(locked) == 1:
        return [((locked[0] + 1) % 3, (locked[0] + 2) % 3)]
    return []


def exudyn_rows(assembled, q, v, axes):
    """Exudyn's index-2 rows of ObjectJointGeneric, in NumPy: per body A_E = I + 2 theta0 e~ + 2 e~ e~,
    omega_b = G_local theta_t, marker frame A_E R, point p: x = x_n + A_E p, v = x_n' + A_E (omega_b x p); joint
    axes t_k = A_E R T e_k (T = rotation_marker), rates t_k' = A_E (omega_b x (R T e_k))."""
    frames, rates, points, velocities = [], [], [], []
    for node, turn, local_rotation, local_position in zip(assembled.system.nodes, (TURN0, TURN1), LOCAL_ROTATIONS,
                                                          LOCAL_POSITIONS):
        rows = node.coordinate_indices
        x, theta = node.reference_coordinates[:3] + q[rows[:3]], node.reference_coordinates[3:] + q[rows[3:]]
        e_tilde = skew(theta[1:])
        rotation = np.eye(3) + 2 * theta[0] * e_tilde + 2 * e_tilde @ e_tilde
        t0, t1, t2, t3 = theta
        g_local = 2 * np.array([[-t1, t0, t3, -t2], [-t2, -t3, t0, t1], [-t3, t2, -t1, t0]])
        omega = g_local @ v[rows[3:]]
        in_body = local_rotation @ turn
        frames.append(rotation @ in_body)
        rates.append(np.column_stack([rotation @ np.cross(omega, in_body[:, k]) for k in range(3)]))
        points.append(x + rotation @ local_position)
        velocities.append(v[rows[:3]] + rotation @ np.cross(omega, local_position))
    dp, dv = points[1] - points[0], velocities[1] - velocities[0]
    if all(axes[:3]):
        translation = list(dv)
    else:
        translation = [frames[0][:, k] @ dv + rates[0][:, k] @ dp for k in range(3) if axes[k]]
    rotation = [rates[0][:, a] @ frames[1][:, b] + frames[0][:, a] @ rates[1][:, b] for a, b in rotation_rows(axes[3:])]
    return np.array(translation + rotation)


@pytest.mark.parametrize("axes", PATTERNS, ids=lambda axes: "".join(map(str, axes)))
def test_on_unit_euler_parameters_exudyns_rows_reactions_and_outputs_equal_the_default_form(axes):
    exudyn, derivative = two_bodies("exudyn", axes), two_bodies("derivative", axes)
    assert exudyn.has_index2_form
    rng = np.random.default_rng(5)
    for _ in range(3):
        t, q, v, a, lam = random_state(exudyn, rng)
        rates = derivative.constraint_velocity(t, q, v, index=2)
        np.testing.assert_allclose(exudyn.constraint_velocity(t, q, v, index=2), rates, rtol=0,
                                   atol=1e-13 * np.abs(rates).max())
        residual = derivative.residual(t, q, v, a, lam, index=2)
        np.testing.assert_allclose(exudyn.residual(t, q, v, a, lam, index=2), residual, rtol=0,
                                   atol=1e-13 * np.abs(residual).max())
        for ours, theirs in zip(exudyn.sensor_values(t, q, v, a, lam), derivative.sensor_values(t, q, v, a, lam)):
            np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-14)


@pytest.mark.parametrize("joint", [ff.RevoluteJoint, ff.PrismaticJoint, ff.UniversalJoint, ff.CylindricalJoint])
def test_on_unit_euler_parameters_the_named_joints_rows_equal_the_default_form(joint):
    exudyn, derivative = two_bodies("exudyn", joint=joint), two_bodies("derivative", joint=joint)
    t, q, v, _, _ = random_state(exudyn, np.random.default_rng(2))
    rates = derivative.constraint_velocity(t, q, v, index=2)
    np.testing.assert_allclose(exudyn.constraint_velocity(t, q, v, index=2), rates, rtol=0,
                               atol=1e-13 * np.abs(rates).max())


@pytest.mark.parametrize("axes", PATTERNS, ids=lambda axes: "".join(map(str, axes)))
def test_off_the_unit_norm_the_rows_are_exudyns_and_the_reactions_stay_its_constraint_jacobian(axes):
    exudyn, derivative = two_bodies("exudyn", axes), two_bodies("derivative", axes)
    rows = joint_rows(exudyn)
    t, q, v, a, lam = random_state(exudyn, np.random.default_rng(9))
    q, v = off_unit_norm(exudyn, q, v, 1.01)
    ours = exudyn.constraint_velocity(t, q, v, index=2)[rows]
    np.testing.assert_allclose(ours, exudyn_rows(exudyn, q, v, axes), rtol=0, atol=1e-13 * np.abs(ours).max())
    difference = np.abs(ours - derivative.constraint_velocity(t, q, v, index=2)[rows]).max()
    if axes == (1, 1, 1, 0, 0, 0):                                   # v1 - v0 only: the same in both forms
        assert difference == 0
    else:
        assert difference > 1e-3 * np.abs(ours).max()
    residual = derivative.residual(t, q, v, a, lam, index=2)          # J^T lambda of the same Jacobian
    np.testing.assert_allclose(exudyn.residual(t, q, v, a, lam, index=2), residual, rtol=0,
                               atol=1e-13 * np.abs(residual).max())


def test_off_the_unit_norm_the_velocity_outputs_are_exudyns():
    """Velocity (marker 0), VelocityLocal J0^T (v1 - v0), AngularVelocityLocal J0^T (A_E1 omega_b1 - A_E0 omega_b0),
    with the NumPy kinematics of exudyn_rows (J0 = A_E0 R0 T0)."""
    assembled = two_bodies("exudyn")
    t, q, v, a, lam = random_state(assembled, np.random.default_rng(4))
    q, v = off_unit_norm(assembled, q, v, 1.01)
    frames, velocities, omegas = [], [], []
    for node, turn, local_rotation, local_position in zip(assembled.system.nodes, (TURN0, TURN1), LOCAL_ROTATIONS,
                                                          LOCAL_POSITIONS):
        rows = node.coordinate_indices
        theta = node.reference_coordinates[3:] + q[rows[3:]]
        rotation = np.array(rotations.rotation_matrix_unit_form(theta))
        omega = np.array(rotations.g_local(theta)) @ v[rows[3:]]
        frames.append(rotation @ local_rotation @ turn)
        velocities.append(v[rows[:3]] + rotation @ np.cross(omega, local_position))
        omegas.append(rotation @ omega)
    expected = [velocities[0], frames[0].T @ (velocities[1] - velocities[0]), frames[0].T @ (omegas[1] - omegas[0])]
    for ours, theirs in zip(assembled.sensor_values(t, q, v, a, lam), expected):
        np.testing.assert_allclose(np.ravel(ours), theirs, rtol=0, atol=1e-13)
    default = two_bodies("derivative").sensor_values(t, q, v, a, lam)
    assert max(np.abs(np.ravel(ours) - np.ravel(theirs)).max()
               for ours, theirs in zip(assembled.sensor_values(t, q, v, a, lam), default)) > 1e-4


def test_the_index2_newton_matrix_of_exudyns_form_is_the_exact_jacobian_in_lambda_and_the_rates():
    assembled = two_bodies("exudyn", (0, 1, 1, 1, 0, 1))
    t, q, v, a, lam = random_state(assembled, np.random.default_rng(6))
    q, v = off_unit_norm(assembled, q, v, 1.01)
    n, m = assembled.n_coordinates, assembled.n_multipliers
    matrix = assembled.newton_matrix(t, q, v, a, lam, 0.0, 0.0, 0.0, index=2).toarray()
    step = 1e-6
    for k in range(m):
        shift = step * np.eye(m)[k]
        difference = (assembled.residual(t, q, v, a, lam + shift, index=2)
                      - assembled.residual(t, q, v, a, lam - shift, index=2)) / (2 * step)
        np.testing.assert_allclose(matrix[:n, n + k], difference, atol=1e-8)
    for k in range(n):
        shift = step * np.eye(n)[k]
        difference = (assembled.constraint_velocity(t, q, v + shift, index=2)
                      - assembled.constraint_velocity(t, q, v - shift, index=2)) / (2 * step)
        np.testing.assert_allclose(matrix[n:, k], difference, atol=1e-8)


def test_an_unknown_velocity_form_is_refused_naming_the_joint():
    with pytest.raises(ff.ModelError, match=r"GenericJoint 'g': velocity_form must be one of \('derivative', "
                                            r"'exudyn'\), got 'exact'"):
        ff.GenericJoint([0, 1], name="g", velocity_form="exact")
