"""MarkerSuperElementRigid against exudyn 1.13.6 with both rotation formulas (useAlternativeApproach True:
inertia-weighted, False: distance-weighted) on an ObjectGenericODE2 of point nodes (no floating frame) and, for
the distance-weighted formula, on the reduced-order rotor: marker kinematics in a deformed, moving state and
short dynamic runs with a joint and a torque on such markers."""
import numpy as np
import pytest

import exudyn_style_models as models
from floatframe.exudyn import FEM as ffFEM

# an irregular block of 8 point nodes [m]: a 0.4 x 0.3 x 0.2 box, corners moved
CORNERS = np.array([[x, y, z] for x in (0.0, 0.4) for y in (0.0, 0.3) for z in (0.0, 0.2)])
CORNERS = CORNERS + 0.03 * np.array([[0, 1, 0], [1, 0, -1], [0, 0, 1], [-1, 1, 0], [1, 1, 0], [0, -1, 1],
                                     [1, 0, 0], [0, 1, -1]])
MARKED = [0, 1, 2, 3, 5]                            # nodes of the marker (unsymmetric, unequal weights)
WEIGHTS = np.array([0.3, 0.1, 0.25, 0.2, 0.15])
OTHER = [4, 6, 7]


def spring_network(stiffness=2e5, mass=0.5):
    """Mass (diagonal, kg) and stiffness (axial springs between all node pairs, N/m) matrices, 24 x 24."""
    n = len(CORNERS)
    K = np.zeros((3 * n, 3 * n))
    for i in range(n):
        for j in range(i + 1, n):
            e = CORNERS[j] - CORNERS[i]
            block = stiffness * np.outer(e, e) / (e @ e)
            for a, b, sign in ((i, i, 1), (j, j, 1), (i, j, -1), (j, i, -1)):
                K[3 * a:3 * a + 3, 3 * b:3 * b + 3] += sign * block
    return mass * np.eye(3 * n), K


def block_model(exu, ii, alternative, deformed=True):
    """The block as an ObjectGenericODE2; nodes displaced and moving (deformed) so that the marker turns."""
    rng = np.random.default_rng(7)
    mbs = exu.SystemContainer().AddSystem()
    M, K = spring_network()
    nodes = []
    for position in CORNERS:
        displacement = rng.uniform(-0.02, 0.02, 3) if deformed else np.zeros(3)
        velocity = rng.uniform(-0.5, 0.5, 3) if deformed else np.zeros(3)
        nodes.append(mbs.AddNode(ii.NodePoint(referenceCoordinates=list(position),
                                              initialCoordinates=list(displacement),
                                              initialVelocities=list(velocity))))
    body = mbs.AddObject(ii.ObjectGenericODE2(nodeNumbers=nodes, massMatrix=exu.MatrixContainer(M),
                                              stiffnessMatrix=exu.MatrixContainer(K),
                                              dampingMatrix=exu.MatrixContainer(1e-3 * K)))
    marker = mbs.AddMarker(ii.MarkerSuperElementRigid(bodyNumber=body, meshNodeNumbers=np.array(MARKED),
                                                      weightingFactors=WEIGHTS, offset=[0.01, -0.02, 0.0],
                                                      useAlternativeApproach=alternative))
    return mbs, nodes, body, marker


KINEMATICS = ("Position", "Velocity", "RotationMatrix", "AngularVelocity", "AngularVelocityLocal")


@pytest.mark.exudyn
@pytest.mark.parametrize("alternative", [True, False], ids=["inertia-weighted", "distance-weighted"])
def test_marker_kinematics_on_a_generic_ode2_are_exudyns(alternative):
    """Agree to 1e-13 of the scale (round-off) for both formulas, AngularVelocityLocal in Exudyn's frame (floating
    frame, not the marker's turned one); the two formulas differ by > 1e-2 here, so the comparison tells them
    apart."""
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as exudyn_items

    import floatframe.exudyn as ffexu
    from floatframe.exudyn import itemInterface as ffitems

    values = {}
    for code, module, items in (("exudyn", exu, exudyn_items), ("floatframe", ffexu, ffitems)):
        for flag in (alternative, not alternative):
            mbs, _, _, marker = block_model(module, items, flag)
            mbs.Assemble()
            values[code, flag] = {name: np.asarray(mbs.GetMarkerOutput(
                marker, getattr(module.OutputVariableType, name)), dtype=float).reshape(-1) for name in KINEMATICS}
    for name in KINEMATICS:
        expected, actual = values["exudyn", alternative][name], values["floatframe", alternative][name]
        np.testing.assert_allclose(actual, expected, atol=1e-13 * np.abs(expected).max(), rtol=0, err_msg=name)
    rotations = [values["exudyn", flag]["RotationMatrix"] for flag in (alternative, not alternative)]
    assert np.abs(rotations[0] - rotations[1]).max() > 1e-2


def clamped_block(exu, ii, alternative):
    """The block clamped by a GenericJoint (all six axes) at the marker, a torque and a force on a second
    MarkerSuperElementRigid (the other nodes and node 5); sensors: the free nodes' displacements and the second
    marker's angular velocity."""
    mbs, nodes, body, marker = block_model(exu, ii, alternative, deformed=False)
    ground = mbs.AddObject(ii.ObjectGround())
    ground_marker = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=ground, localPosition=[0.1, 0.1, 0.05]))
    mbs.AddObject(ii.GenericJoint(markerNumbers=[ground_marker, marker], constrainedAxes=[1] * 6))
    tip = mbs.AddMarker(ii.MarkerSuperElementRigid(bodyNumber=body, meshNodeNumbers=np.array([*OTHER, 5]),
                                                   weightingFactors=[0.4, 0.3, 0.2, 0.1],
                                                   useAlternativeApproach=alternative))
    mbs.AddLoad(ii.LoadTorqueVector(markerNumber=tip, loadVector=[300.0, -200.0, 500.0]))
    mbs.AddLoad(ii.LoadForceVector(markerNumber=tip, loadVector=[0.0, -1e3, 2e2]))
    sensors = [mbs.AddSensor(ii.SensorNode(nodeNumber=nodes[k], storeInternal=True,
                                           outputVariableType=exu.OutputVariableType.Displacement)) for k in OTHER]
    sensors.append(mbs.AddSensor(ii.SensorMarker(markerNumber=tip, storeInternal=True,
                                                 outputVariableType=exu.OutputVariableType.AngularVelocity)))
    mbs.Assemble()
    return mbs, sensors, models.tight_settings(exu, 100, 2e-4)


@pytest.mark.exudyn
@pytest.mark.parametrize("alternative", [True, False], ids=["inertia-weighted", "distance-weighted"])
def test_a_clamped_and_twisted_generic_ode2_moves_as_in_exudyn(alternative):
    """Measured: 9e-11 (inertia-weighted) and 5e-14 (distance-weighted) of the scale (node displacements, marker
    angular velocity); with the tangent operator in the distance-weighted torque Jacobian they would differ by
    1.4e-3."""
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as exudyn_items

    import floatframe.exudyn as ffexu
    from floatframe.exudyn import itemInterface as ffitems

    def builder(module, items, _fem_module):
        return clamped_block(module, items, alternative)

    reference, _ = models.run(builder, exu, exudyn_items, None)
    ours, _ = models.run(builder, ffexu, ffitems, None)
    for theirs, mine in zip(reference, ours):
        scale = np.abs(theirs[:, 1:]).max()
        assert scale > 0
        np.testing.assert_allclose(mine[:, 1:], theirs[:, 1:], atol=1e-8 * scale, rtol=0)


def torqued_rotor_distance_weighted(exu, ii, fem_module):
    """The reduced rotor (8 eigenmodes) on a spring-damper at its left face, spinning, with a torque on a
    distance-weighted MarkerSuperElementRigid at its right face (Exudyn's rotation Jacobian without the
    tangent operator); sensors: the right face marker's angular velocity and the frame's."""
    fem = models.rotor_fem(fem_module)
    fem.ComputeEigenmodes(8, excludeRigidBodyModes=6, useSparseSolver=True)
    cms = fem_module.ObjectFFRFreducedOrderInterface(fem)
    mbs = exu.SystemContainer().AddSystem()
    body = cms.AddObjectFFRFreducedOrder(mbs, initialAngularVelocity=[0, 0, 20.0])
    ground = mbs.AddObject(ii.ObjectGround())
    left = fem.GetNodesInPlane([0, 0, 0], [0, 0, 1])
    right = fem.GetNodesInPlane([0, 0, 0.5], [0, 0, 1])
    held = mbs.AddMarker(ii.MarkerSuperElementPosition(bodyNumber=body["oFFRFreducedOrder"],
                                                       meshNodeNumbers=np.array(left),
                                                       weightingFactors=np.ones(len(left)) / len(left)))
    ground_marker = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, 0]))
    mbs.AddObject(ii.ObjectConnectorCartesianSpringDamper(markerNumbers=[held, ground_marker],
                                                          stiffness=[2e6] * 3, damping=[2e3] * 3))
    marker = mbs.AddMarker(ii.MarkerSuperElementRigid(bodyNumber=body["oFFRFreducedOrder"],
                                                      meshNodeNumbers=np.array(right),
                                                      weightingFactors=np.linspace(1, 2, len(right))
                                                      / np.linspace(1, 2, len(right)).sum(),
                                                      useAlternativeApproach=False))
    mbs.AddLoad(ii.LoadTorqueVector(markerNumber=marker, loadVector=[2000.0, 0.0, 500.0]))
    sensors = [mbs.AddSensor(ii.SensorMarker(markerNumber=marker, storeInternal=True,
                                             outputVariableType=exu.OutputVariableType.AngularVelocityLocal)),
               mbs.AddSensor(ii.SensorNode(nodeNumber=body["nRigidBody"], storeInternal=True,
                                           outputVariableType=exu.OutputVariableType.AngularVelocity))]
    mbs.Assemble()
    return mbs, sensors, models.tight_settings(exu, 100, 1e-4)


@pytest.mark.exudyn
def test_a_torque_on_a_distance_weighted_marker_of_the_reduced_rotor_is_exudyns(shared_rotor_data):
    """Measured: 1.1e-10 (marker) and 1.4e-10 (frame) of the scale; with the tangent operator in the torque
    Jacobian 6.5e-4."""
    exu = pytest.importorskip("exudyn")
    import exudyn.FEM as exudyn_fem
    import exudyn.itemInterface as exudyn_items

    import floatframe.exudyn as ffexu
    from floatframe.exudyn import itemInterface as ffitems

    reference, _ = models.run(torqued_rotor_distance_weighted, exu, exudyn_items, exudyn_fem)
    ours, _ = models.run(torqued_rotor_distance_weighted, ffexu, ffitems, ffFEM)
    for theirs, mine in zip(reference, ours):
        scale = np.abs(theirs[:, 1:]).max()
        assert np.abs(theirs[:, 1:] - theirs[0, 1:]).max() > 1e-3 * scale   # the torque changes the motion
        np.testing.assert_allclose(mine[:, 1:], theirs[:, 1:], atol=1e-8 * scale, rtol=0)
