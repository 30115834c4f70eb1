"""MainSystem extras of issue 28 against exudyn 1.13.6: ComputeLinearizedSystem, ComputeSystemDegreeOfFreedom."""
import numpy as np
import pytest

import floatframe.exudyn as ffx
from floatframe.exudyn import utilities as ffu

exudyn = pytest.importorskip("exudyn")
from exudyn import utilities as exu_utilities  # noqa: E402


def spring_mass_point(exu, utilities):
    """A mass point hanging from a tilted spring-damper (Exudyn's ComputeLinearizedSystem example layout)."""
    mbs = exu.SystemContainer().AddSystem()
    body = mbs.CreateMassPoint(referencePosition=[2, 0, 0], initialVelocity=[0, 5, 0], mass=1.5,
                               gravity=[0, -9.81, 0])
    ground = mbs.AddObject(utilities.ObjectGround())
    mbs.CreateSpringDamper(itemNumbers=[ground, body], localPosition0=[2.5, 1, 0.3], localPosition1=[0, 0, 0],
                           stiffness=1e4, damping=1e2, referenceLength=0.8)
    mbs.Assemble()
    return mbs


def jointed_rigid_body(exu, utilities, axes, active=True):
    """A rigid body (Euler parameters) on a tilted generic joint to the ground."""
    mbs = exu.SystemContainer().AddSystem()
    body = mbs.CreateRigidBody(inertia=utilities.InertiaCuboid(density=5000, sideLengths=[1, 0.1, 0.1]),
                               referencePosition=[6, 0, 0], initialAngularVelocity=[0, 8, 0], gravity=[0, -9.81, 0])
    ground = mbs.AddObject(utilities.ObjectGround())
    joint = mbs.CreateGenericJoint(itemNumbers=[ground, body], position=[5.5, 0, 0], constrainedAxes=axes,
                                   rotationMatrixAxes=utilities.RotationMatrixX(0.125 * np.pi), useGlobalFrame=True)
    if not active:
        mbs.SetObjectParameter(joint if not isinstance(joint, list) else joint[0], "activeConnector", False)
    mbs.Assemble()
    return mbs


def test_linearized_spring_mass_point_matches_exudyn():
    ours = ffx.ComputeLinearizedSystem(spring_mass_point(ffx, ffu))
    reference = exudyn.ComputeLinearizedSystem(spring_mass_point(exudyn, exu_utilities))
    assert len(ours) == 3
    for mine, theirs in zip(ours, reference):
        assert mine.shape == (3, 3)
        np.testing.assert_allclose(mine, theirs, rtol=1e-10, atol=1e-8)
    assert abs(ours[1][0, 1]) > 100  # the tilted, prestressed spring couples x and y


def test_linearized_system_projected_into_constraint_null_space_matches_exudyn():
    axes = [1, 1, 1, 1, 0, 0]
    ours = jointed_rigid_body(ffx, ffu, axes).ComputeLinearizedSystem(
        projectIntoConstraintNullspace=True, returnConstraintNullspace=True)
    reference = jointed_rigid_body(exudyn, exu_utilities, axes).ComputeLinearizedSystem(
        projectIntoConstraintNullspace=True, returnConstraintNullspace=True)
    assert len(ours) == 5 and ours[3] == []
    null_rows, reference_rows = ours[4], reference[4]
    assert null_rows.shape == reference_rows.shape == (2, 7)
    # the null-space basis is unique up to a rotation: compare the projector and the projected mass matrix
    # through it
    np.testing.assert_allclose(null_rows.T @ null_rows, reference_rows.T @ reference_rows, atol=1e-10)
    rotation = reference_rows @ null_rows.T
    np.testing.assert_allclose(rotation @ ours[0] @ rotation.T, reference[0], rtol=1e-10, atol=1e-10)
    assert np.linalg.eigvalsh(ours[0]).min() > 0


@pytest.mark.parametrize("axes, active", [([1, 1, 1, 1, 0, 0], True), ([1, 1, 1, 1, 1, 1], True),
                                          ([1, 1, 1, 1, 1, 1], False), ([1, 1, 0, 0, 0, 1], True)])
def test_degree_of_freedom_counts_match_exudyn(axes, active):
    ours = jointed_rigid_body(ffx, ffu, axes, active).ComputeSystemDegreeOfFreedom()
    reference = exudyn.ComputeSystemDegreeOfFreedom(jointed_rigid_body(exudyn, exu_utilities, axes, active))
    assert {key: int(value) for key, value in ours.items()} == {key: int(value) for key, value in reference.items()}
    assert ours["degreeOfFreedom"] == (6 - sum(axes) if active else 6)


def test_degree_of_freedom_counts_redundant_constraints_as_exudyn():
    def model(exu, utilities):
        mbs = jointed_rigid_body(exu, utilities, [1, 1, 1, 0, 0, 0])
        markers = [mbs.AddMarker(utilities.MarkerNodeCoordinate(nodeNumber=0, coordinate=0)),
                   mbs.AddMarker(utilities.MarkerNodeCoordinate(nodeNumber=0, coordinate=0))]
        ground = mbs.AddNode(utilities.NodePointGround())
        ground_marker = mbs.AddMarker(utilities.MarkerNodeCoordinate(nodeNumber=ground, coordinate=0))
        for marker in markers:  # the joint already holds x of the body's reference point: twice redundant
            mbs.AddObject(utilities.ObjectConnectorCoordinate(markerNumbers=[ground_marker, marker], offset=6.0))
        mbs.Assemble()
        return mbs.ComputeSystemDegreeOfFreedom(useSVD=True)
    ours, reference = model(ffx, ffu), model(exudyn, exu_utilities)
    assert {key: int(value) for key, value in ours.items()} == {key: int(value) for key, value in reference.items()}
    assert ours["redundantConstraints"] == 2
