"""Redundant constraints and ``linearSolver.ignoreSingularJacobian`` against exudyn 1.13.6 (skipped without exudyn).

Claims: Bricard's mechanism (six revolute joints in a closed loop of five bodies and the ground: by the count of
equations no freedom, in fact one, so one constraint equation depends on the others) runs on floatframe.exudyn with
the setting exudyn needs for it, ignoreSingularJacobian = True: floatframe removes the dependent row at Assemble,
with a RedundantConstraintsWarning naming the joints, and the motion under gravity equals exudyn's to 1e-11 of its
scale after 0.3 s (measured 5.9e-13, both with full Newton to 1e-12); the setting is classified as having no effect
on floatframe's numbers.
"""
import numpy as np
import pytest

from exudyn_style_models import full_newton_settings

import floatframe.exudyn as ffexu
from floatframe.assembly.redundancy import RedundantConstraintsWarning
from floatframe.exudyn import utilities as ffutilities
from floatframe.exudyn._settings import NO_EFFECT, classify

exudyn = pytest.importorskip("exudyn")
import exudyn.utilities as exutilities  # noqa: E402


def bricard(exu, utilities, steps=300, end_time=0.3):
    """Bricard's overconstrained 6R loop (Exudyn's bricardMechanism test model): ODE2 coordinates at the end."""
    mbs = exu.SystemContainer().AddSystem()
    length, width = 1.0, 0.1
    inertia = utilities.InertiaCuboid(density=100, sideLengths=[length, width, width]).Translated([0.5 * length, 0, 0])
    corners = [[0, 0, 0], [length, 0, 0], [length, -length, 0], [length, -length, length], [0, -length, length],
               [0, 0, length]]
    rotations = [np.eye(3), utilities.RotationMatrixZ(-0.5 * np.pi), utilities.RotationMatrixY(-0.5 * np.pi),
                 utilities.RotationMatrixZ(np.pi), utilities.RotationMatrixZ(0.5 * np.pi)]
    axes = [[0, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]]
    ground = mbs.AddObject(utilities.ObjectGround())
    previous = ground
    for k, corner in enumerate(corners):
        if k < 5:
            body = mbs.CreateRigidBody(inertia=inertia, referencePosition=corner, referenceRotationMatrix=rotations[k],
                                       gravity=[0, -9.81, 0])
            mbs.CreateRevoluteJoint(itemNumbers=[previous, body], position=corner, axis=axes[k])
            previous = body
        else:
            mbs.CreateGenericJoint(itemNumbers=[previous, ground], position=corner, constrainedAxes=[1, 1, 1, 0, 1, 1])
    mbs.Assemble()
    settings = full_newton_settings(exu, steps, end_time)
    settings.linearSolver.solverType = exu.LinearSolverType.EigenDense
    settings.linearSolver.ignoreSingularJacobian = True
    mbs.SolveDynamic(settings)
    return mbs.systemData.GetODE2Coordinates()


def test_bricard_mechanism_moves_as_exudyns_with_the_dependent_rows_removed():
    with pytest.warns(RedundantConstraintsWarning, match="removed 1 redundant constraint equation.*GenericJoint"):
        ours = bricard(ffexu, ffutilities)
    theirs = bricard(exudyn, exutilities)
    assert np.abs(theirs).max() > 0.05         # it moved (0.089 of a 1 m loop)
    assert np.abs(ours - theirs).max() < 1e-11 * np.abs(theirs).max()


def test_ignore_singular_jacobian_has_no_effect_on_floatframes_numbers():
    assert classify("linearSolver.ignoreSingularJacobian")[0] == NO_EFFECT
    assert classify("linearSolverSettings.ignoreSingularJacobian")[0] == NO_EFFECT
