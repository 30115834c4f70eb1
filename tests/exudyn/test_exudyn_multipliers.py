"""Lagrange multipliers agree with exudyn 1.13.6, not only the coordinates."""
import numpy as np
import pytest

import floatframe.exudyn as ffexu
from exudyn_style_models import pendulum
from floatframe.exudyn import itemInterface as ffitems


def pushed_off_centre(exu, items):
    """A tumbling rigid body with a force at a point away from its centre of mass, 0.1 s."""
    mbs = exu.SystemContainer().AddSystem()
    rates = 0.5 * np.array([0.0, 0.3, 0.1, 0.2])  # theta_t, tangent to theta = [1, 0, 0, 0]
    node = mbs.AddNode(items.NodeRigidBodyEP(referenceCoordinates=[0, 0, 0, 1, 0, 0, 0],
                                             initialVelocities=[0, 0, 0, *rates]))
    body = mbs.AddObject(items.ObjectRigidBody(nodeNumber=node, mass=2.0, inertia=[1, 2, 3, 0, 0, 0]))
    marker = mbs.AddMarker(items.MarkerBodyPosition(bodyNumber=body, localPosition=[0.3, 0.1, -0.2]))
    mbs.AddLoad(items.LoadForceVector(markerNumber=marker, loadVector=[1.0, -2.0, 0.5]))
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = 100
    settings.timeIntegration.endTime = 0.1
    settings.solutionSettings.writeSolutionToFile = False
    exu.SolveDynamic(mbs, settings)
    return mbs.systemData.GetODE2Coordinates(), mbs.systemData.GetAECoordinates()


@pytest.mark.exudyn
def test_a_force_off_the_centre_puts_no_load_on_the_euler_parameter_constraint():
    """Forces do work on rotations only through omega = G theta_t, so the Euler-parameter multiplier stays
    near zero as in exudyn (it was -0.026 when the generalized force kept a part along theta)."""
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    reference_q, reference_lambda = pushed_off_centre(exu, items)
    q, lam = pushed_off_centre(ffexu, ffitems)
    np.testing.assert_allclose(q, reference_q, rtol=0, atol=1e-9)
    assert abs(reference_lambda[0]) < 1e-8
    assert abs(lam[0]) < 1e-8


def pendulum_multipliers(exu, items):
    """The pendulum of exudyn_style_models after 0.4 s, Newton to 1e-12: multipliers comparable to 1e-8."""
    mbs, _, settings = pendulum(exu, items)
    exu.SolveDynamic(mbs, settings)
    return mbs.systemData.GetODE2Coordinates(), mbs.systemData.GetAECoordinates()


@pytest.mark.exudyn
def test_joint_reactions_put_no_load_on_the_euler_parameter_constraint():
    """Joint reactions act on rotations only through omega = G theta_t too: the joint multipliers (the
    reaction force) agree with exudyn, and the Euler-parameter multiplier stays near zero as in exudyn
    (it was 18.0 when the reactions kept a part along theta)."""
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    reference_q, reference_lambda = pendulum_multipliers(exu, items)
    q, lam = pendulum_multipliers(ffexu, ffitems)
    np.testing.assert_allclose(q, reference_q, rtol=0, atol=1e-9)
    np.testing.assert_allclose(lam[1:], reference_lambda[1:], rtol=0, atol=1e-8 * np.abs(reference_lambda).max())
    assert abs(reference_lambda[0]) < 1e-8
    assert abs(lam[0]) < 1e-8
