"""The small-model path of the explicit schemes' accelerations (floatframe/solvers/explicit.py: DenseTerms, LapackLU)
and the numerics of the Lie-group steps (floatframe/exudyn/_lie_group_explicit.py).

Claims: R(t, q, v, 0, 0) and M(t, q, v) of the one buffered Function equal the assembled system's ``residual`` and
``mass_matrix`` to the bit on models without linear terms (a rigid body on a rotation vector, a planar body) and to
round-off with them (a generic ODE2 object's dense constant mass); the accelerations then equal those of the sparse
path to the bit, the fixed coordinates' at zero, and the LU of a constant M is kept (one factorization a path);
inputs and parameters are read at every evaluation (a = F(t) / m exactly, after a change of m too), and a mass that
becomes zero is reported as a singular mass matrix naming the node. A Lie-group step's stages and the angular
accelerations from SX Functions (M solved symbolically) equal the Python stages' (LAPACK) to round-off (1e-13),
across the angle pi where the accelerations are taken at the shorter rotation vector, and whole solves of RK44 (also
with the last stage's accelerations and a coordinate held) and DOPRI5 agree to 1e-11 with the same steps. The Python
stages' products T(v) w, T(v)^-1 w, the composition of rotation vectors and (dT/dv v_t) v_t on 3 floats equal
lieGroupBasics' matrices and composition to round-off (1e-15 relative) and central differences of T(v + s v_t) v_t
(1e-8) over the series and closed-form branches (angles 1e-3 .. 4 rad).
"""
import numpy as np
import pytest

import floatframe as ff
import floatframe.exudyn.lieGroupBasics as basics
from floatframe.components.generic_ode2 import ObjectGenericODE2
from floatframe.components.planar import MarkerBodyRigid2D, NodeRigidBody2D, ObjectRigidBody2D
from floatframe.components.rigid_rotation_vector import (MarkerBodyRigidRotationVector,
                                                          NodeRigidBodyRotationVector, ObjectRigidBodyRotationVector)
from floatframe.exudyn import _lie_group_explicit as stages
from floatframe.exudyn._lie_group_explicit import LIE_GROUP_EMBEDDED, LIE_GROUP_FIXED_STEP, lie_group_nodes
from floatframe.parameters import Input, Parameter
from floatframe.solvers.explicit import Accelerations, DenseTerms
from floatframe.solvers.result import SolverError

ANGLES = (1e-3, 0.015, 0.5, 2.0, 4.0)   # T's series (< 0.01), T^-1's (<= 0.02), the SE(3) series (< 1), closed forms


def rotation_vector_body(rotation=(0.7, -1.1, 2.0), velocities=(0.1, 0.0, 0.0, 1.0, -2.0, 3.0), core=False,
                         fixed_x=False):
    """A body on a rotation vector, its centre of mass off the node, under gravity, a body-fixed force and a torque
    (M depends on the rotation); ``core``: (System, assembled); ``fixed_x``: its x held by a CoordinateConstraint."""
    system = ff.System()
    node = system.add(NodeRigidBodyRotationVector([0.0, 0.0, 0.0, *rotation], initial_velocities=list(velocities)))
    offset = np.array([0.1, -0.3, 0.2])
    inertia = np.array([[0.4, 0.02, -0.01], [0.02, 0.3, 0.03], [-0.01, 0.03, 0.2]])   # about the centre of mass
    inertia_node = inertia + 2.5 * (offset @ offset * np.eye(3) - np.outer(offset, offset))
    body = system.add(ObjectRigidBodyRotationVector(node, 2.5, inertia_node, center_of_mass=offset))
    system.add(ff.LoadMassProportional(system.add(ff.MarkerBodyMass(body)), [0.0, 0.0, -9.81]))
    point = system.add(MarkerBodyRigidRotationVector(body, [0.2, 0.1, -0.4]))
    system.add(ff.LoadForceVector(point, [1.0, -2.0, 0.5], body_fixed=True))
    system.add(ff.LoadTorqueVector(point, [0.3, 0.2, -0.1]))
    if fixed_x:
        point_ground = system.add(ff.NodePointGround([0.0, 0.0, 0.0]))
        system.add(ff.CoordinateConstraint([system.add(ff.MarkerNodeCoordinate(point_ground, 0)),
                                            system.add(ff.MarkerNodeCoordinate(node, 0))]))
    return (system, system.assemble()) if core else system.assemble()


def planar_body():
    """A planar rigid body with its centre of mass off the node on a spring to the ground, under a weight."""
    system = ff.System()
    node = system.add(NodeRigidBody2D([0.0, 0.0, 0.0], initial_velocities=[0.3, 0.0, 2.0]))
    body = system.add(ObjectRigidBody2D(node, 2.0, 0.5, center_of_mass=(0.2, 0.1)))
    ground = system.add(ff.ObjectGround())
    system.add(ff.CartesianSpringDamper([system.add(ff.MarkerBodyPosition(ground, [0.5, 0.0, 0.0])),
                                         system.add(MarkerBodyRigid2D(body, [0.5, 0.0, 0.0]))],
                                        [50.0, 80.0, 0.0], [0.5, 0.5, 0.0]))
    system.add(ff.LoadForceVector(system.add(MarkerBodyRigid2D(body, [0.2, 0.1, 0.0])), [0.0, -19.62, 0.0]))
    return system.assemble()


def chain(count, dense_mass=False, fixed_coordinate=None):
    """``count`` points on Cartesian springs in a row from the ground under a load; ``dense_mass``: one generic ODE2
    object with a dense constant mass (a linear term L_a) instead of mass points; ``fixed_coordinate``: that
    coordinate of the first point held by a CoordinateConstraint to the ground."""
    system = ff.System()
    ground = system.add(ff.ObjectGround())
    nodes = [system.add(ff.NodePoint([1.0 + i, 0.0, 0.0], [0.01 * i, 0.02, 0.0])) for i in range(count)]
    if dense_mass:
        system.add(ObjectGenericODE2(nodes, mass_matrix=np.full((3 * count, 3 * count), 0.1) + np.eye(3 * count)))
    else:
        for node in nodes:
            system.add(ff.ObjectMassPoint(node, 1.5))
    previous = system.add(ff.MarkerBodyPosition(ground, [0.0, 0.0, 0.0]))
    for node in nodes:
        marker = system.add(ff.MarkerNodePosition(node))
        system.add(ff.CartesianSpringDamper([previous, marker], [40.0, 50.0, 60.0], [0.1, 0.1, 0.1]))
        previous = marker
    system.add(ff.LoadForceVector(previous, [0.0, -3.0, 1.0]))
    if fixed_coordinate is not None:
        point_ground = system.add(ff.NodePointGround([0.0, 0.0, 0.0]))
        system.add(ff.CoordinateConstraint([system.add(ff.MarkerNodeCoordinate(point_ground, fixed_coordinate)),
                                            system.add(ff.MarkerNodeCoordinate(nodes[0], fixed_coordinate))]))
    return system.assemble()


def random_states(assembled, count, seed=3):
    rng = np.random.default_rng(seed)
    n = assembled.n_coordinates
    for _ in range(count):
        yield rng.uniform(0.0, 2.0), rng.normal(size=n), 5.0 * rng.normal(size=n)


@pytest.mark.parametrize("model", [rotation_vector_body, planar_body])
def test_dense_terms_equal_the_systems_residual_and_mass_matrix_to_the_bit(model):
    assembled = model()
    terms = DenseTerms.of(assembled)
    n, m = assembled.n_coordinates, assembled.n_multipliers
    for t, q, v in random_states(assembled, 20):
        residual, mass = terms(t, q, v)
        assert np.array_equal(residual, assembled.residual(t, q, v, np.zeros(n), np.zeros(m)))
        assert np.array_equal(mass, assembled.mass_matrix(t, q, v).toarray())


def test_dense_terms_with_a_linear_mass_term_equal_the_systems_to_round_off():
    assembled = chain(3, dense_mass=True)
    terms = DenseTerms.of(assembled)
    n = assembled.n_coordinates
    for t, q, v in random_states(assembled, 10):
        residual, mass = terms(t, q, v)
        expected_residual = assembled.residual(t, q, v, np.zeros(n), np.zeros(0))
        expected_mass = assembled.mass_matrix(t, q, v).toarray()
        assert np.abs(mass - expected_mass).max() <= 1e-15 * np.abs(expected_mass).max()
        assert np.abs(residual - expected_residual).max() <= 1e-14 * np.abs(expected_residual).max()
        assert mass[0, 1] == 0.1 and mass[0, 0] == 1.1    # the linear term L_a is in it


def test_accelerations_equal_the_sparse_paths_and_keep_the_lu_of_a_constant_mass_matrix():
    assembled = chain(3, fixed_coordinate=1)
    q0 = np.zeros(assembled.n_coordinates)
    dense, sparse = Accelerations(assembled, 0.0, q0, "test"), Accelerations(assembled, 0.0, q0, "test")
    sparse._dense_wanted = False
    assert dense.fixed.tolist() == [1]
    for t, q, v in random_states(assembled, 6):
        a = dense(t, q, v)
        assert np.array_equal(a, sparse(t, q, v))
        assert a[1] == 0.0 and np.abs(a).max() > 1.0
    assert dense._dense is not None and sparse._dense is None
    assert (dense.factorizations, sparse.factorizations) == (2, 1)   # the first evaluation's, then the dense path's


def test_inputs_and_parameters_are_read_at_each_evaluation_and_a_zero_mass_is_reported():
    system = ff.System()
    node = system.add(ff.NodePoint([0.0, 0.0, 0.0]))
    system.add(ff.ObjectMassPoint(node, Parameter("mass", 2.0)))
    system.add(ff.LoadForceVector(system.add(ff.MarkerNodePosition(node)), Input("force", 3)))
    assembled = system.assemble()
    assembled.set_input("force", lambda t: [t, 2.0 * t, -t])
    accelerations = Accelerations(assembled, 0.0, np.zeros(3), "test")
    rest = np.zeros(3)
    for t in (0.5, 1.5, 3.0):
        assert accelerations(t, rest, rest).tolist() == [t / 2.0, t, -t / 2.0]
    assert accelerations._dense is not None
    assembled.set_parameter("mass", 4.0)
    assert accelerations(3.0, rest, rest).tolist() == [0.75, 1.5, -0.75]
    assembled.set_parameter("mass", 0.0)
    with pytest.raises(SolverError, match="singular mass matrix at t = 1; no mass acts on NodePoint 0"):
        accelerations(1.0, rest, rest)


def rotation_vector(angle, seed):
    axis = np.random.default_rng(seed).normal(size=3)
    return angle * axis / np.linalg.norm(axis)


@pytest.mark.parametrize("angle", ANGLES)
def test_lie_group_stage_products_equal_lie_group_basics_to_round_off(angle):
    vector, other = rotation_vector(angle, 1), np.random.default_rng(2).normal(size=3)
    increment = rotation_vector(min(angle, 3.0), 4)

    def close(ours, theirs):
        return np.abs(np.asarray(ours) - theirs).max() <= 1e-15 * max(1.0, np.abs(theirs).max())

    assert close(stages._tangent_product(vector.tolist(), other.tolist()), basics.TExpSO3(vector) @ other)
    assert close(stages._inverse_tangent_product(vector.tolist(), other.tolist()), basics.TExpSO3Inv(vector) @ other)
    assert close(stages._compose(vector.tolist(), increment.tolist()),
                 basics.CompositionRuleForRotationVectors(vector, increment))
    short = stages.short_rotation_vector(vector)
    assert np.linalg.norm(short) <= np.pi + 1e-15
    assert np.abs(basics.ExpSO3(short) - basics.ExpSO3(vector)).max() < 1e-14


@pytest.mark.parametrize("angle", ANGLES)
def test_lie_group_rate_term_is_the_derivative_of_the_tangent_operator(angle):
    """(dT/dv v_t) v_t = d/ds T(v + s v_t) v_t at s = 0, by central differences."""
    vector, rate = rotation_vector(angle, 5), np.random.default_rng(6).normal(size=3)
    step = 1e-6
    difference = (basics.TExpSO3(vector + step * rate) - basics.TExpSO3(vector - step * rate)) @ rate / (2 * step)
    term = np.array(stages._rate_term(vector.tolist(), rate.tolist()))
    assert np.abs(term - difference).max() <= 1e-8 * max(1.0, np.abs(difference).max())


def lie_group_scheme(name, **options):
    table = LIE_GROUP_FIXED_STEP if name in LIE_GROUP_FIXED_STEP else LIE_GROUP_EMBEDDED
    return table[name](**options)


@pytest.mark.parametrize("name", ["ExplicitMidpoint", "RK44", "RK67", "DOPRI5"])
def test_lie_group_stages_of_the_sx_function_equal_the_python_stages(name):
    """From a rotation of angle 3.1 rad turning fast enough that the stages pass pi."""
    system, assembled = rotation_vector_body((0.0, 3.1, 0.0), (0.1, 0.0, 0.0, 1.0, 30.0, 3.0), core=True)
    scheme = lie_group_scheme(name)
    scheme.set_lie_group_nodes(*lie_group_nodes(system))
    state = scheme.init(assembled, 0.0, assembled.q_initial, assembled.v_initial)
    assert scheme._kernel() is not None
    w = scheme._angular_form(state.q, state.v)
    expected = scheme._python_angular_accelerations(0.0, state.q, w)
    assert np.abs(scheme._angular_accelerations(0.0, state.q, w) - expected).max() <= 1e-13 * np.abs(expected).max()
    increments, accelerations = scheme._stages(state, 0.01)
    expected_increments, expected_accelerations = scheme._python_stages(state, 0.01)
    for ours, theirs in ((increments, expected_increments), (accelerations, expected_accelerations)):
        assert np.abs(ours - theirs).max() <= 1e-13 * np.abs(theirs).max()
    start = scheme.lie_references[0] + state.q[3:6]
    angles = [np.linalg.norm(basics.CompositionRuleForRotationVectors(start, increment[3:6]))
              for increment in 0.01 * scheme.a[1:] @ increments]
    assert max(angles) > np.pi > np.linalg.norm(start)   # the stages pass pi


@pytest.mark.parametrize("name, options, steps, fixed_x", [
    ("RK44", {}, 200, False), ("RK44", dict(end_accelerations=False), 200, True),
    ("DOPRI5", dict(rtol=1e-8, atol=1e-8), 10, False)])
def test_lie_group_solves_with_the_sx_stages_equal_those_with_python_stages(name, options, steps, fixed_x):
    velocities = (0.0, 0.0, 0.0, 1.0, -2.0, 3.0) if fixed_x else (0.1, 0.0, 0.0, 1.0, -2.0, 3.0)
    system, assembled = rotation_vector_body(velocities=velocities, core=True, fixed_x=fixed_x)
    results = []
    for python in (False, True):
        scheme = lie_group_scheme(name, **options)
        scheme.set_lie_group_nodes(*lie_group_nodes(system))
        if python:
            scheme._kernel = lambda: None
        results.append(scheme.solve(assembled, 1.0, steps))
    fast, python = results
    assert fast.q.shape == python.q.shape and fast.statistics.steps == python.statistics.steps
    assert np.abs(fast.q - python.q).max() <= 1e-11 * np.abs(python.q).max()
    assert np.abs(fast.v - python.v).max() <= 1e-11 * np.abs(python.v).max()
    assert np.abs(python.q[-1] - python.q[0]).max() > 0.1   # it moved
    assert np.abs(fast.a - python.a).max() <= 1e-11 * np.abs(python.a).max()
    assert not fixed_x or (np.all(fast.q[:, 0] == 0.0) and np.abs(fast.lam).max() > 0.1)
