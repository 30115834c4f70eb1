"""Claims about the index-3 generalized-alpha scheme: its parameters, its order, its failures."""
import numpy as np
import pytest

import floatframe as ff
from model_helpers import small_beam
from floatframe.components.reference_conditions import add_tisserand_frame
from floatframe.models.pendulum import build_pendulum
from floatframe.models.rotor_disc import build_rotor_disc
from floatframe.solvers import GeneralizedAlpha, SolverError
from floatframe.solvers.genalpha import MatrixRenewal, refresh_cost


def test_parameters_follow_from_the_spectral_radius():
    solver = GeneralizedAlpha(spectral_radius=0.5)
    assert (solver.alpha_m, solver.alpha_f, solver.gamma, solver.beta) == pytest.approx((0.0, 1 / 3, 5 / 6, 4 / 9))
    undamped = GeneralizedAlpha(spectral_radius=1.0)
    assert (undamped.alpha_m, undamped.alpha_f, undamped.gamma, undamped.beta) == pytest.approx((0.5, 0.5, 0.5, 0.25))


def pinned_flexible_beam():
    """A flexible beam spinning on a spherical joint under gravity: rotation, deformation and constraints.

    Its pin starts moving at 1 m/s (the spin is about the frame origin, not the pin): the solves take that
    state as given (initial="accept"), and the first step closes the joint's velocity gap, as these tests
    were written with."""
    system = ff.System()
    body, mesh = small_beam(system, angular_velocity=(0.0, 0.0, 20.0), stiffness_scale=1e-4)
    add_tisserand_frame(system, body)
    ground = system.add(ff.ObjectGround())
    left, right = mesh.nodes_in_plane((0, 0, 0), (1, 0, 0)), mesh.nodes_in_plane((0.4, 0, 0), (1, 0, 0))
    pin = system.add(ff.MarkerSuperElementPosition(body, left, np.full(left.size, 1 / left.size)))
    pin_position = np.array([0.1, -0.2, 0.3]) + mesh.nodes[left].mean(axis=0)
    system.add(ff.SphericalJoint([system.add(ff.MarkerBodyPosition(ground, pin_position)), pin]))
    tip = system.add(ff.MarkerSuperElementPosition(body, right, np.full(right.size, 1 / right.size)))
    system.add(ff.LoadForceVector(tip, [0.0, -200.0, 0.0]))
    sensor = system.add(ff.SensorSuperElement(body, 19, "Position"))
    return system.assemble(), sensor


@pytest.mark.slow
def test_measured_order_is_two_when_the_step_is_halved():
    assembled, sensor = pinned_flexible_beam()
    t_end = 0.005  # h = 2e-4, 1e-4, 5e-5 against h = 6.25e-6
    finals = {}
    for steps in (25, 50, 100, 800):
        result = GeneralizedAlpha(spectral_radius=0.8).solve(assembled, t_end, steps, initial="accept")
        finals[steps] = result.sensor(sensor)[-1]
    errors = [np.linalg.norm(finals[s] - finals[800]) for s in (25, 50, 100)]
    orders = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    assert GeneralizedAlpha.order == 2
    assert np.all((1.8 <= orders) & (orders <= 2.2)), orders


def test_modified_and_full_newton_give_the_same_solution():
    assembled, sensor = pinned_flexible_beam()
    full = GeneralizedAlpha(0.6).solve(assembled, 0.005, 20, initial="accept")
    modified = GeneralizedAlpha(0.6, modified_newton=True).solve(assembled, 0.005, 20, initial="accept")
    assert modified.sensor(sensor) == pytest.approx(full.sensor(sensor), rel=1e-9, abs=1e-12)
    assert modified.statistics.jacobian_evaluations < full.statistics.jacobian_evaluations


def test_redundant_constraints_are_named_with_the_time():
    system = ff.System()
    node = system.add(ff.NodePoint([0.0, 0.0, 0.0]))
    ground = system.add(ff.NodePointGround([0.0, 0.0, 0.0]))
    system.add(ff.ObjectRigidBody  # a point mass needs a body; use a mass on a rigid node instead
               (system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0])), 1.0, [1, 1, 1, 0, 0, 0]))
    point, fixed = system.add(ff.MarkerNodeCoordinate(node, 0)), system.add(ff.MarkerNodeCoordinate(ground, 0))
    system.add(ff.CoordinateConstraint([fixed, point], name="first"))
    system.add(ff.CoordinateConstraint([fixed, point], name="twin"))
    with pytest.raises(SolverError, match=r"t = 0.*(first|twin)"):
        GeneralizedAlpha().solve(system.assemble(check_redundancy=False), 0.01, 2)


def test_newton_failure_reports_time_iterations_and_residual():
    assembled, _ = pinned_flexible_beam()
    solver = GeneralizedAlpha(0.6, max_iterations=1)
    with pytest.raises(SolverError, match=r"did not converge at t = .* after 1 iterations \(residual norm"):
        solver.solve(assembled, 0.01, 2, initial="accept")


def spring_mass_in_x():
    """A point mass on a linear spring in x: the iteration matrix is the same at every state."""
    system = ff.System()
    node = system.add(ff.NodePoint([0.0, 0.0, 0.0], initial_coordinates=[0.01, 0.0, 0.0]))
    system.add(ff.ObjectMassPoint(node, 2.0))
    ground = system.add(ff.NodePointGround([0.0, 0.0, 0.0]))
    markers = [system.add(ff.MarkerNodeCoordinate(ground, 0)), system.add(ff.MarkerNodeCoordinate(node, 0))]
    system.add(ff.CoordinateSpringDamper(markers, stiffness=800.0, damping=1.0))
    return system.assemble()


@pytest.mark.parametrize("linear_algebra", ["dense", "sparse"])
def test_modified_newton_keeps_one_matrix_over_a_uniform_grid(linear_algebra):
    # the steps t_k - t_(k-1) of the grid differ in their last bits; that is not a new step size
    solver = GeneralizedAlpha(0.5, modified_newton=True, linear_algebra=linear_algebra, compile=False)
    result = solver.solve(spring_mass_in_x(), 0.7, 7000)
    assert np.unique(np.diff(result.t)).size > 1
    assert result.statistics.jacobian_evaluations == 1
    decay, omega = 0.25, np.sqrt(800.0 / 2.0 - 0.25 ** 2)  # d / 2m, the damped frequency
    closed_form = 0.01 * np.exp(-decay * 0.7) * (np.cos(omega * 0.7) + decay / omega * np.sin(omega * 0.7))
    assert result.q[-1, 0] == pytest.approx(closed_form, rel=1e-4)


def test_a_new_matrix_is_due_once_a_step_costs_more_than_the_average_since_the_last_one():
    renewal = MatrixRenewal(refresh_cost=6.0)
    renewal.renewed()
    renewal.step_done(2)             # on the new matrix: A = (6 + 2) / 1 = 8 from now on
    assert not renewal.due
    for iterations in (4, 5, 5):     # A: 8 -> 6 -> 5.33 -> 5.25; each step cost less than A before it
        renewal.step_done(iterations)
        assert not renewal.due
    renewal.step_done(6)             # 6 > 5.25: the average would rise
    assert renewal.due
    renewal.renewed()
    assert not renewal.due and renewal.cost == 6.0 and renewal.steps == 0


def test_the_refresh_cost_grows_with_the_model_and_is_the_same_for_both_paths():
    pendulum = build_pendulum()[0].assemble()
    rotor = build_rotor_disc("tisserand").system.assemble()
    assert 1.0 < refresh_cost(pendulum, 3) < 10.0 < refresh_cost(rotor, 3)
    dense = GeneralizedAlpha(0.5, modified_newton=True, linear_algebra="dense", compile=False)
    sparse = GeneralizedAlpha(0.5, modified_newton=True, linear_algebra="sparse")
    runs = [solver.solve(pendulum, 0.5, 500, progress=False).statistics for solver in (dense, sparse)]
    assert runs[0].jacobian_evaluations == runs[1].jacobian_evaluations < 50
    assert runs[0].newton_iterations == runs[1].newton_iterations
