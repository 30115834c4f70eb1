"""Claims about the rigid body on a rotation vector (components/rigid_rotation_vector.py, Exudyn's
NodeRigidBodyRotVecLG): its rotation matrix is exp(v~); its body-fixed angular velocity T(v) v_t is
vee(A^T dA/dt) of the motion (central differences); its initial velocities are the body-fixed angular velocity;
its accelerations at a state equal those of the same body on Euler parameters (centre of mass off the node,
gravity, a body-fixed force and torque); a free asymmetric gyroscope keeps its energy and its angular momentum
(global) to the order of the scheme; an initial rotation vector of angle 2 pi is refused."""
import numpy as np
import pytest
import scipy.linalg

import floatframe as ff
from floatframe import rotations
from floatframe.components.rigid_rotation_vector import (NodeRigidBodyRotationVector, ObjectRigidBodyRotationVector,
                                                          MarkerBodyRigidRotationVector)
from floatframe.components.nodes import NodeRigidBodyEP

ROTATION_VECTOR = np.array([0.7, -1.1, 2.0])            # angle 2.4 rad
OMEGA_LOCAL = np.array([1.0, -2.0, 3.0])
MASS = 2.5
INERTIA = np.array([[0.4, 0.02, -0.01], [0.02, 0.3, 0.03], [-0.01, 0.03, 0.2]])
OFFSET = np.array([0.1, -0.3, 0.2])
GRAVITY = [0.0, 0.0, -9.81]
# the inertia about the node (as the body takes it): about the centre of mass plus m (b^T b I - b b^T)
INERTIA_NODE = INERTIA + MASS * (OFFSET @ OFFSET * np.eye(3) - np.outer(OFFSET, OFFSET))


def vee(matrix):
    return np.array([matrix[2, 1], matrix[0, 2], matrix[1, 0]])


def body_system(node):
    """A body with its centre of mass off the node under gravity, a body-fixed force and a global torque."""
    system = ff.System()
    node_number = system.add(node)
    on_rotation_vector = isinstance(node, NodeRigidBodyRotationVector)
    body_class = ObjectRigidBodyRotationVector if on_rotation_vector else ff.ObjectRigidBody
    marker_class = MarkerBodyRigidRotationVector if on_rotation_vector else ff.MarkerBodyRigid
    body = system.add(body_class(node_number, MASS, INERTIA_NODE, center_of_mass=OFFSET))
    system.add(ff.LoadMassProportional(system.add(ff.MarkerBodyMass(body)), GRAVITY))
    point = system.add(marker_class(body, [0.2, 0.1, -0.4]))
    system.add(ff.LoadForceVector(point, [1.0, -2.0, 0.5], body_fixed=True))
    system.add(ff.LoadTorqueVector(point, [0.3, 0.2, -0.1]))
    sensors = [system.add(ff.SensorNode(node_number, variable))
               for variable in ("AngularVelocity", "AngularAcceleration", "Acceleration", "RotationMatrix")]
    return system, sensors


def accelerations(assembled, t, q, v):
    """(a, lambda) of the index-3 DAE at (t, q, v)."""
    n, m = assembled.n_coordinates, assembled.n_multipliers
    mass = assembled.mass_matrix(t, q, v).toarray()
    jacobian = assembled.constraint_jacobian(t, q).toarray().reshape(m, n)
    matrix = np.block([[mass, jacobian.T], [jacobian, np.zeros((m, m))]])
    right = -np.concatenate([assembled.residual(t, q, v, np.zeros(n), np.zeros(m)),
                             assembled.constraint_acceleration_rest(t, q, v)])
    solution = np.linalg.solve(matrix, right)
    return solution[:n], solution[n:]


def test_rotation_matrix_is_the_exponential():
    system = ff.System()
    node = system.add(NodeRigidBodyRotationVector([0, 0, 0, *ROTATION_VECTOR]))
    sensor = system.add(ff.SensorNode(node, "RotationMatrix"))
    assembled = system.assemble()
    q, v = assembled.q_initial, assembled.v_initial
    rows = assembled.sensor_values(0.0, q, v, np.zeros(6), np.zeros(0))[sensor]
    assert np.abs(rows.reshape(3, 3) - scipy.linalg.expm(rotations.skew(ROTATION_VECTOR))).max() < 1e-14


@pytest.mark.parametrize("rotation_vector", [ROTATION_VECTOR, np.array([1e-3, 2e-3, -4e-3]), np.zeros(3)])
def test_angular_velocity_is_that_of_the_motion(rotation_vector):
    """Along v(t) = v0 + t v_t: omega_b = vee(A^T dA/dt) by central differences (1e-9), omega = A omega_b, and the
    node built with initial velocities [velocity, omega_b] has exactly these rates v_t."""
    rates = np.array([0.4, 0.9, -0.6])
    step = 1e-6
    change = (np.asarray(rotations.rotation_matrix_from_rotation_vector(rotation_vector + step * rates))
              - np.asarray(rotations.rotation_matrix_from_rotation_vector(rotation_vector - step * rates))) / (2 * step)
    rotation = np.asarray(rotations.rotation_matrix_from_rotation_vector(rotation_vector))
    omega_local = vee(rotation.T @ change)
    system = ff.System()
    node = system.add(NodeRigidBodyRotationVector([0, 0, 0, *rotation_vector],
                                                  initial_velocities=[0, 0, 0, *omega_local]))
    sensors = [system.add(ff.SensorNode(node, variable))
               for variable in ("AngularVelocityLocal", "AngularVelocity", "Coordinates_t")]
    assembled = system.assemble()
    q, v = assembled.q_initial, assembled.v_initial
    assert np.abs(v[3:] - rates).max() < 1e-9
    local, global_, coordinates_t = assembled.sensor_values(0.0, q, v, np.zeros(6), np.zeros(0))
    assert np.abs(local - omega_local).max() < 1e-14
    assert np.abs(global_ - rotation @ omega_local).max() < 1e-14
    assert np.abs(coordinates_t[3:] - omega_local).max() < 1e-14


def test_accelerations_equal_those_on_euler_parameters():
    """Same body, same state: angular velocity and acceleration (global), node acceleration, rotation matrix."""
    rotation = np.asarray(rotations.rotation_matrix_from_rotation_vector(ROTATION_VECTOR))
    theta = rotations.euler_parameters_from_rotation_matrix(rotation)
    omega = rotation @ OMEGA_LOCAL
    velocity = [0.3, -0.2, 0.1]
    nodes = [NodeRigidBodyRotationVector([0.1, 0.2, 0.3, *ROTATION_VECTOR],
                                         initial_velocities=[*velocity, *OMEGA_LOCAL]),
             NodeRigidBodyEP([0.1, 0.2, 0.3, *theta],
                             initial_velocities=[*velocity, *rotations.euler_parameters_t(omega, theta)])]
    values = []
    for node in nodes:
        system, sensors = body_system(node)
        assembled = system.assemble()
        q, v = assembled.q_initial, assembled.v_initial
        a, lam = accelerations(assembled, 0.0, q, v)
        values.append(assembled.sensor_values(0.0, q, v, a, lam))
    for ours, reference in zip(*values):
        assert np.abs(ours - reference).max() < 1e-12 * max(1.0, np.abs(reference).max())


def free_gyroscope(steps):
    """A torque-free asymmetric body over 1 s (RK44): the largest change of its energy and of its global angular
    momentum."""
    inertia = np.diag([0.3, 0.5, 0.7])
    system = ff.System()
    node = system.add(NodeRigidBodyRotationVector([0, 0, 0, 0.2, -0.1, 0.3],
                                                  initial_velocities=[0, 0, 0, 0.4, 2.5, 0.3]))
    system.add(ObjectRigidBodyRotationVector(node, 1.0, inertia))
    local = system.add(ff.SensorNode(node, "AngularVelocityLocal"))
    matrix = system.add(ff.SensorNode(node, "RotationMatrix"))
    result = ff.solvers.explicit.RK44().solve(system.assemble(), 1.0, steps)
    omegas, rotations_ = result.sensor(local), result.sensor(matrix).reshape(-1, 3, 3)
    energy = 0.5 * np.einsum("ti,ij,tj->t", omegas, inertia, omegas)
    momentum = np.einsum("tij,jk,tk->ti", rotations_, inertia, omegas)
    return np.abs(energy - energy[0]).max() / energy[0], np.abs(momentum - momentum[0]).max() / np.abs(momentum[0]).max()


def test_free_gyroscope_keeps_energy_and_angular_momentum():
    """RK4 in the rotation-vector coordinates: the changes fall as h^4 (halving h divides them by 16: measured 15.8
    and 15.9) and are below 2e-12 (energy) and 4e-11 (momentum) at h = 5e-3 s (measured 1.1e-12, 3.1e-11)."""
    (energy_20, momentum_20), (energy_40, momentum_40) = free_gyroscope(20), free_gyroscope(40)
    assert 14 < energy_20 / energy_40 < 18 and 14 < momentum_20 / momentum_40 < 18
    energy_200, momentum_200 = free_gyroscope(200)
    assert energy_200 < 2e-12 and momentum_200 < 4e-11


def test_initial_rotation_of_a_full_turn_is_refused():
    with pytest.raises(Exception, match="2 pi"):
        NodeRigidBodyRotationVector([0, 0, 0, 0, 2 * np.pi, 0])
