"""TimeDependentCoordinateConstraint (floatframe.components.time_constraints): prescribed motion and constraints
with coefficients that change in time, with exact time derivatives."""
import math

import numpy as np
import pytest

import floatframe as ff
from floatframe.components.base import ModelError
from floatframe.components.planar import NodePoint2D, ObjectMassPoint2D
from floatframe.components.time_constraints import TimeDependentCoordinateConstraint

MASS = 2.0


def circle(t):
    return [np.cos(t), np.sin(t)]


def driven_point(offset=circle, scaling=np.eye(2)):
    """A mass point whose coordinates follow ``offset``(t) (a circle of radius 1 at 1 rad/s by default)."""
    system = ff.System()
    node = system.add(NodePoint2D([0.0, 0.0], initial_coordinates=[1.0, 0.0], initial_velocities=[0.0, 1.0]))
    system.add(ObjectMassPoint2D(node, MASS))
    ground = system.add(ff.MarkerNodeCoordinates(system.add(ff.NodePointGround([0.0, 0.0, 0.0]))))
    coordinates = system.add(ff.MarkerNodeCoordinates(node))
    constraint = system.add(TimeDependentCoordinateConstraint([ground, coordinates], None, scaling, offset=offset,
                                                              name="path"))
    return system, constraint


def test_a_prescribed_path_is_followed_with_its_exact_velocity_and_force():
    system, constraint = driven_point()
    assembled = system.assemble()
    times = np.linspace(0.0, 1.0, 11)
    path = np.column_stack([np.cos(times), np.sin(times)])
    # without projection the index-1 form holds d2C/dt2 = 0 only, with the path's exact second derivative: the
    # motion drifts off the path by the integration error alone (measured 5.1e-12 m, 4.7e-12 m/s, 8.7e-13 N)
    result = ff.IDAS(rtol=1e-12, atol=1e-14, drift="none").solve_grid(assembled, times)
    assert np.max(np.abs(result.q - path)) < 1e-11
    assert np.max(np.abs(result.v - np.column_stack([-np.sin(times), np.cos(times)]))) < 1e-11
    # m a + lambda = 0: lambda = m (cos t, sin t), the centripetal force taken by the path with its sign reversed
    assert np.max(np.abs(result.lam - MASS * path)) < 1e-11
    projected = ff.IDAS(rtol=1e-6, atol=1e-8, drift="projection").solve_grid(assembled, times)
    assert np.max(np.abs(projected.q - path)) < 1e-14
    # generalized-alpha at index 3 holds C to round-off at every step
    steps = ff.GeneralizedAlpha(0.8).solve(assembled, 1.0, 100)
    assert np.max(np.abs(steps.q[-1] - [np.cos(1.0), np.sin(1.0)])) < 1e-14


def test_a_moving_coefficient_holds_a_point_on_a_turning_line():
    """n(t) . q = 0 with n = (cos t, sin t): a point at rest on the y axis is carried round on the normal line; with
    no force along the line it keeps its distance 1 from the origin only through the constraint force (m |q| w^2
    outwards is missing), so it drifts outwards as r(t) = cosh(t)."""
    system = ff.System()
    node = system.add(NodePoint2D([0.0, 0.0], initial_coordinates=[0.0, 1.0], initial_velocities=[-1.0, 0.0]))
    system.add(ObjectMassPoint2D(node, MASS))
    ground = system.add(ff.MarkerNodeCoordinates(system.add(ff.NodePointGround([0.0, 0.0, 0.0]))))
    coordinates = system.add(ff.MarkerNodeCoordinates(node))
    system.add(TimeDependentCoordinateConstraint([ground, coordinates], None, lambda t: [np.cos(t), np.sin(t)]))
    result = ff.IDAS(rtol=1e-12, atol=1e-14, drift="projection").solve_grid(system.assemble(),
                                                                             np.linspace(0.0, 1.5, 16))
    radius = np.hypot(result.q[:, 0], result.q[:, 1])
    # on a line turning at 1 rad/s a free bead obeys r'' = r: from r = 1, r' = 0, r = cosh t
    # measured: 8.9e-11 m from cosh t, 1.9e-12 m off the line
    assert np.max(np.abs(radius - np.cosh(result.t))) < 1e-9
    assert np.max(np.abs(result.q[:, 0] * np.cos(result.t) + result.q[:, 1] * np.sin(result.t))) < 1e-11


def test_functions_that_do_not_trace_and_wrong_sizes_are_refused_naming_the_constraint():
    with pytest.raises(ModelError, match=r"TimeDependentCoordinateConstraint .*'path'.*offset must be a function of t "
                                         r"built from arithmetic and CasADi or NumPy functions"):
        driven_point(offset=lambda t: [math.cos(float(t)), math.sin(float(t))])[0].assemble()
    with pytest.raises(ModelError, match=r"offset must be 2 values, got shape \(3,\) at t = 0"):
        driven_point(offset=lambda t: [np.cos(t), np.sin(t), 0.0])
    with pytest.raises(ModelError, match=r"scaling_marker1 \(for .*\) must be a 2 x 3 matrix, got shape \(2, 2\)"):
        system = ff.System()
        node = system.add(ff.NodePoint([0.0, 0.0, 0.0]))
        ground = system.add(ff.MarkerNodeCoordinates(system.add(ff.NodePointGround([0.0, 0.0, 0.0]))))
        system.add(TimeDependentCoordinateConstraint([ground, system.add(ff.MarkerNodeCoordinates(node))], None,
                                                     np.eye(2), offset=circle))
        system.assemble()
    with pytest.raises(ModelError, match=r"give scaling_marker0, scaling_marker1 or both"):
        TimeDependentCoordinateConstraint([0, 1], None, None)


def test_a_matrix_function_on_marker_0_turns_one_point_into_another():
    """q_B - R(t) q_A = 0 with R(t) the rotation by t and A driven round the unit circle at 1 rad/s: B goes round
    at 2 rad/s, (cos 2t, sin 2t); the matrix is given as rows of CasADi/NumPy expressions of t."""
    system, _ = driven_point()
    node_a = system.nodes[0]
    node_b = system.add(NodePoint2D([0.0, 0.0], initial_coordinates=[1.0, 0.0], initial_velocities=[0.0, 2.0]))
    system.add(ObjectMassPoint2D(node_b, MASS))
    markers = [system.add(ff.MarkerNodeCoordinates(node)) for node in (node_a, node_b)]
    system.add(TimeDependentCoordinateConstraint(
        markers, lambda t: [[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.eye(2), name="turned"))
    assembled = system.assemble()
    times = np.linspace(0.0, 1.0, 11)
    result = ff.IDAS(rtol=1e-6, atol=1e-8, drift="projection").solve_grid(assembled, times)
    rows = system.nodes[node_b].coordinate_indices
    assert np.max(np.abs(result.q[:, rows] - np.column_stack([np.cos(2 * times), np.sin(2 * times)]))) < 1e-13
    assert np.max(np.abs(result.v[:, rows] - 2 * np.column_stack([-np.sin(2 * times), np.cos(2 * times)]))) < 1e-12
