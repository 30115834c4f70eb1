"""The layer's Newton iteration is Exudyn's (``floatframe.solvers.genalpha.ResidualStop``): on models whose result
depends on where Newton stops, floatframe.exudyn and exudyn 1.13.6 take the same iterations (solver.it) and reach
the same states."""
import functools
import importlib

import numpy as np
import pytest

import floatframe.exudyn as ffexu
from floatframe.exudyn._solve import dynamic_solver
from floatframe.solvers.genalpha import ResidualStop

exudyn = pytest.importorskip("exudyn")


def planar_pendulum(exu, tip_force=False):
    """A RigidBody2D hanging by a RevoluteJoint2D at a body-fixed point 0.5 m off its centre, swinging from
    horizontal, with a second one hinged to its tip (the joints' reactions turn with the bodies); ``tip_force``: a
    Force of 20 N along -y at the second body's tip besides (a load that turns with the body)."""
    ii = importlib.import_module(exu.__name__ + ".itemInterface")
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.AddObject(ii.ObjectGround())
    last = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, 0]))
    for k in range(2):
        node = mbs.AddNode(ii.NodeRigidBody2D(referenceCoordinates=[0.5 + k, 0, 0]))
        body = mbs.AddObject(ii.ObjectRigidBody2D(mass=2.0, inertia=0.2, nodeNumber=node))
        mbs.AddObject(ii.ObjectJointRevolute2D(markerNumbers=[
            last, mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=body, localPosition=[-0.5, 0, 0]))]))
        mbs.AddLoad(ii.LoadMassProportional(markerNumber=mbs.AddMarker(ii.MarkerBodyMass(bodyNumber=body)),
                                            loadVector=[0, -9.81, 0]))
        last = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=body, localPosition=[0.5, 0, 0]))
    if tip_force:
        mbs.AddLoad(ii.LoadForceVector(markerNumber=last, loadVector=[0, -20.0, 0]))
    mbs.Assemble()
    return mbs, node


def pushed_pendulum(exu):
    return planar_pendulum(exu, tip_force=True)


def spinning_top(exu):
    """A rigid body on Tait-Bryan angles (Rxyz) spinning at 30 rad/s about its axis, held at a point of that axis by
    a spherical joint (its mass matrix and the joint's reactions turn with it). On Euler parameters the iteration
    counts differ (full Newton at 1e-4: exudyn 627, floatframe 394): Exudyn's Jacobian of a joint on such a body
    is not floatframe's at a = 0, lambda = 0 (the first update's residual 3.53 against 3.43 of 61.6)."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.CreateGround()
    inertia = importlib.import_module(exu.__name__ + ".utilities").InertiaCylinder(density=1000, length=0.2,
                                                                                   outerRadius=0.1, axis=2)
    body = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0, 0.05, 0.15], nodeType=exu.NodeType.RotationRxyz,
                               initialAngularVelocity=[0, 0, 30], gravity=[0, -9.81, 0])
    mbs.CreateSphericalJoint(bodyNumbers=[ground, body], position=[0, 0, 0])
    mbs.Assemble()
    return mbs, mbs.GetObject(body)["nodeNumber"]


MODELS = {"planar pendulum": planar_pendulum, "pushed pendulum": pushed_pendulum, "spinning top": spinning_top}


@functools.lru_cache(maxsize=None)
def solve(exu, model, modified, relative_tolerance, weighted=False, newmark=False, absolute_tolerance=1e-10,
          loads_jacobian=0):
    """200 steps of 5 ms; returns (solver.it.newtonStepsCount, the ODE2 coordinates at the end, the measured node's
    position)."""
    mbs, node = MODELS[model](exu)
    ss = exu.SimulationSettings()
    ss.timeIntegration.numberOfSteps = 200
    ss.timeIntegration.endTime = 1.0
    ss.timeIntegration.verboseMode = 0
    ss.solution.file.write = False
    ss.timeIntegration.newton.useModifiedNewton = modified
    ss.timeIntegration.newton.relativeTolerance = relative_tolerance
    ss.timeIntegration.newton.absoluteTolerance = absolute_tolerance
    ss.timeIntegration.newton.weightTolerancePerCoordinate = weighted
    ss.timeIntegration.generalizedAlpha.spectralRadius = 0.8
    ss.timeIntegration.generalizedAlpha.useNewmark = newmark
    ss.timeIntegration.computeLoadsJacobian = loads_jacobian
    solver = exu.MainSolverImplicitSecondOrder()
    solver.SolveSystem(mbs, ss)
    position = np.array(mbs.GetNodeOutput(node, exu.OutputVariableType.Position))
    return solver.it.newtonStepsCount, np.array(mbs.systemData.GetODE2Coordinates()), position


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("modified", [False, True], ids=["full Newton", "modified Newton"])
@pytest.mark.parametrize("relative_tolerance", [1e-4, 1e-8])
def test_iterations_and_states_are_exudyns(model, modified, relative_tolerance):
    """The same number of Newton iterations as exudyn, and the end state to 1e-9 m (the stop at 1e-4 alone moves
    it by far more, see the next test)."""
    count_exudyn, q_exudyn, _ = solve(exudyn, model, modified, relative_tolerance)
    count, q, _ = solve(ffexu, model, modified, relative_tolerance)
    assert count == count_exudyn
    np.testing.assert_allclose(q, q_exudyn, rtol=0, atol=1e-9)


@pytest.mark.parametrize("model", MODELS)
def test_the_stop_moves_the_result_as_in_exudyn(model):
    """At relativeTolerance 1e-4 the end position differs from that at 1e-8 by more than 1e-7 m on both codes, and
    the two codes' differences agree to 1e-9 m."""
    moved = [solve(code, model, True, 1e-4)[2] - solve(code, model, True, 1e-8)[2] for code in (exudyn, ffexu)]
    assert np.abs(moved[0]).max() > 1e-7
    np.testing.assert_allclose(moved[1], moved[0], rtol=0, atol=1e-9)


def test_weight_tolerance_per_coordinate_and_newmark_are_exudyns():
    """The planar pendulum with Newmark (trapezoidal; the undamped top needs Exudyn's step reduction), full Newton
    stopped by absoluteTolerance 1e-6 alone (relativeTolerance 1e-14); weightTolerancePerCoordinate divides the
    residual norm by sqrt(n + m), so that fewer iterations meet it: the same counts and end states as exudyn with
    and without it."""
    counts = {}
    for weighted in (False, True):
        count_exudyn, q_exudyn, _ = solve(exudyn, "planar pendulum", False, 1e-14, weighted, True, 1e-6)
        count, q, _ = solve(ffexu, "planar pendulum", False, 1e-14, weighted, True, 1e-6)
        assert count == count_exudyn
        np.testing.assert_allclose(q, q_exudyn, rtol=0, atol=1e-9)
        counts[weighted] = count
    assert counts[True] < counts[False]


def test_compute_loads_jacobian_is_exudyns():
    """computeLoadsJacobian = 1 keeps the turning load's part of the matrix (Exudyn differentiates the loads): the
    counts change on both codes and stay equal."""
    counts = [solve(exudyn, "pushed pendulum", True, 1e-8)[0], solve(exudyn, "pushed pendulum", True, 1e-8,
                                                                      loads_jacobian=1)[0]]
    assert counts[0] != counts[1]
    assert [solve(ffexu, "pushed pendulum", True, 1e-8)[0],
            solve(ffexu, "pushed pendulum", True, 1e-8, loads_jacobian=1)[0]] == counts


def test_the_layer_passes_exudyns_newton_settings():
    settings = ffexu.SimulationSettings()
    newton = settings.timeIntegration.newton
    newton.relativeTolerance, newton.absoluteTolerance = 1e-5, 1e-7
    newton.maxModifiedNewtonIterations, newton.maxModifiedNewtonRestartIterations = 4, 3
    newton.modifiedNewtonContractivity, newton.modifiedNewtonJacUpdatePerStep = 0.3, True
    newton.adaptInitialResidual = False
    assert dynamic_solver(settings, "GeneralizedAlpha").newton_control == ResidualStop(
        relative_tolerance=1e-5, absolute_tolerance=1e-7, max_modified_iterations=4, max_restart_iterations=3,
        contractivity=0.3, jacobian_per_step=True, adapt_initial_residual=False)
    settings.timeIntegration.computeLoadsJacobian = 2
    assert dynamic_solver(settings, "GeneralizedAlpha").newton_control.loads_jacobian
    assert dynamic_solver(settings, "GeneralizedAlpha", exudyn_newton=False).newton_control is None
