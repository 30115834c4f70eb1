"""StaticSolver: Newton on R(t, q, 0, 0, lambda) = 0, C(t, q) = 0, with load steps."""
import numpy as np
import pytest

import floatframe as ff
from floatframe.solvers.static import StaticSolver

SPRING, CENTRE_SPRING, ARM = 1e3, 500.0, 0.5
FORCE = np.array([10.0, -20.0, 30.0])


def rigid_body_on_springs(torque=5.0, rotational_springs=True, load=None):
    """A rigid body on a centre spring and four springs at +-ARM on x and y, a force and a torque about
    z at the centre: u = F / (k_c + 4 k), sin(phi) = T / (4 k ARM^2)."""
    system = ff.System()
    node = system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0]))
    body = system.add(ff.ObjectRigidBody(node, 2.0, [0.1, 0.2, 0.3, 0, 0, 0]))
    ground = system.add(ff.ObjectGround())
    points = [([0, 0, 0], CENTRE_SPRING)]
    if rotational_springs:
        points += [([ARM, 0, 0], SPRING), ([-ARM, 0, 0], SPRING), ([0, ARM, 0], SPRING), ([0, -ARM, 0], SPRING)]
    for point, stiffness in points:
        markers = [system.add(ff.MarkerBodyPosition(b, point)) for b in (ground, body)]
        system.add(ff.CartesianSpringDamper(markers, [stiffness] * 3))
    centre = system.add(ff.MarkerBodyRigid(body, [0, 0, 0]))
    system.add(ff.LoadForceVector(centre, FORCE if load is None else load))
    system.add(ff.LoadTorqueVector(centre, [0.0, 0.0, torque]))
    return system.assemble()


def angle_about_z(q):
    theta = q[3:7] + np.array([1.0, 0, 0, 0])
    return 2 * np.arctan2(theta[3], theta[0])


def test_rigid_body_on_springs_matches_closed_form():
    torque = 0.9 * 4 * SPRING * ARM ** 2                 # sin(phi) = 0.9: a large rotation
    result = StaticSolver().solve(rigid_body_on_springs(torque))
    q = result.q[-1]
    np.testing.assert_allclose(q[:3], FORCE / (CENTRE_SPRING + 4 * SPRING), rtol=1e-12)
    assert angle_about_z(q) == pytest.approx(np.arcsin(0.9), rel=1e-12)
    np.testing.assert_allclose(result.v[-1], 0.0)
    assert result.t.tolist() == [0.0, 1.0]


def test_newton_converges_quadratically():
    solver = StaticSolver()
    solver.solve(rigid_body_on_springs(0.9 * 4 * SPRING * ARM ** 2))
    (norms,) = solver.residual_norms
    assert len(norms) <= 8 and norms[-1] < 1e-15 * norms[0]
    # in the last iterations r_{k+1} = C r_k^2 with one constant C (linear convergence: r_{k+1} = c r_k);
    # an iterate at the rounding floor (|r| ~ 1e3 eps |r_0|) measures rounding, not convergence
    resolved = [norm for norm in norms if norm > 1e3 * np.finfo(float).eps * norms[0]]
    constants = [resolved[k + 1] / resolved[k] ** 2 for k in range(len(resolved) - 4, len(resolved) - 1)]
    assert max(constants) < 10 * min(constants)
    assert norms[-2] / norms[-3] < 1e-2 * norms[-4] / norms[-5]  # the rate itself shrinks fast


def test_linear_problem_converges_in_one_step():
    solver = StaticSolver()
    solver.solve(rigid_body_on_springs(torque=0.0))
    assert solver.statistics.newton_iterations == 2          # the solution, then a zero update
    assert solver.residual_norms[0][1] < 1e-12 * solver.residual_norms[0][0]


def test_load_steps_scale_the_loads():
    solver = StaticSolver(number_of_load_steps=4, load_step_start=1.0, load_step_duration=2.0)
    result = solver.solve(rigid_body_on_springs(torque=0.0))
    np.testing.assert_allclose(result.t, [1.0, 1.5, 2.0, 2.5, 3.0])
    expected = np.outer([0, 0.25, 0.5, 0.75, 1.0], FORCE / (CENTRE_SPRING + 4 * SPRING))
    np.testing.assert_allclose(result.q[:, :3], expected, rtol=1e-12, atol=1e-16)


def test_geometric_load_factors():
    solver = StaticSolver(number_of_load_steps=3, geometric_range=100.0)
    np.testing.assert_allclose(solver.load_factors(), [0.01, 0.1, 1.0])
    result = solver.solve(rigid_body_on_springs(torque=0.0))
    np.testing.assert_allclose(result.q[1:, 0] / result.q[-1, 0], [0.01, 0.1, 1.0], rtol=1e-12)


def test_without_load_factor_every_step_carries_the_full_load():
    result = StaticSolver(number_of_load_steps=2, use_load_factor=False).solve(rigid_body_on_springs(torque=0.0))
    np.testing.assert_allclose(result.q[1, :3], result.q[2, :3], rtol=1e-14)


def test_stabilizer_changes_the_steps_but_not_the_solution():
    assembled = rigid_body_on_springs(torque=0.0)
    plain = StaticSolver(number_of_load_steps=2).solve(assembled)
    stabilized = StaticSolver(number_of_load_steps=2, stabilizer=10.0).solve(assembled)
    # step 1, f = 1/2: (K + s' M) q = f F with s' = 10 (1 - 1/4), M = 2 kg per translation
    stiffness = CENTRE_SPRING + 4 * SPRING
    np.testing.assert_allclose(stabilized.q[1, :3], 0.5 * FORCE / (stiffness + 7.5 * 2.0), rtol=1e-12)
    np.testing.assert_allclose(stabilized.q[-1], plain.q[-1], rtol=0, atol=1e-15)


def test_failed_steps_are_subdivided():
    torque = 0.99 * 4 * SPRING * ARM ** 2
    solver = StaticSolver(max_iterations=4)
    result = solver.solve(rigid_body_on_springs(torque))
    assert solver.statistics.rejected_steps >= 1
    assert result.t.size > 2 and result.t[-1] == 1.0
    assert angle_about_z(result.q[-1]) == pytest.approx(np.arcsin(0.99), rel=1e-12)


def test_no_convergence_is_an_error_naming_the_load_factor():
    solver = StaticSolver(max_iterations=2, adaptive_step=False)
    with pytest.raises(ff.SolverError, match=r"Newton did not converge at load factor 1 \(t = 1\)"):
        solver.solve(rigid_body_on_springs(0.9 * 4 * SPRING * ARM ** 2))


def test_missing_stiffness_is_an_error_naming_the_coordinates():
    with pytest.raises(ff.SolverError, match=r"singular Jacobian \[\[K, C_q\^T\], \[C_q, 0\]\] at t = 1; no "
                                             r"stiffness and no constraint holds NodeRigidBodyEP 0 coordinates "
                                             r"4, 5, 6: add a spring, support or constraint"):
        StaticSolver().solve(rigid_body_on_springs(torque=0.0, rotational_springs=False))


def test_load_steps_refuse_numeric_user_function_loads():
    assembled = rigid_body_on_springs(torque=0.0, load=lambda t: [10.0 if t > 0.5 else 5.0, 0.0, 0.0])
    result = StaticSolver().solve(assembled)                     # one step needs no scaling
    assert result.q[-1, 0] == pytest.approx(10.0 / (CENTRE_SPRING + 4 * SPRING), rel=1e-12)
    with pytest.raises(ff.SolverError, match=r"load stepping cannot scale the loads \(the loads' part of the residual "
                                             r"cannot be taken apart where loads are given by numeric user functions"):
        StaticSolver(number_of_load_steps=2).solve(assembled)


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="number_of_load_steps must be an integer >= 1"):
        StaticSolver(number_of_load_steps=0)
    with pytest.raises(ValueError, match="geometric_range must be > 1"):
        StaticSolver(number_of_load_steps=3, geometric_range=0.5)


def test_redundant_constraints_are_an_error_naming_them():
    assembled = rigid_body_on_springs(torque=0.0)
    system = assembled.system
    system.assembled = None
    ground = system.add(ff.MarkerNodeCoordinate(system.add(ff.NodePointGround([0.0, 0.0, 0.0])), 0))
    node_x = system.add(ff.MarkerNodeCoordinate(0, 0))
    for name in ("first", "second"):
        system.add(ff.CoordinateConstraint([ground, node_x], name=name))
    with pytest.raises(ff.SolverError, match=r"singular Jacobian .*redundant constraints involving: "
                                             r"CoordinateConstraint 8 'second'"):
        StaticSolver().solve(system.assemble(check_redundancy=False))
