"""The reduced-order body on a NodeRigidBodyRxyz frame (ObjectFFRFreducedOrderInterface(rigidBodyNodeType=
NodeType.RotationRxyz)) against exudyn 1.13.6, and a mode basis with rigid-body motions, which the body takes
where constraints hold its frame (Exudyn's NGsolveModalAnalysis)."""
import numpy as np
import pytest

import exudyn_style_models as models
from floatframe.components.base import ModelError
from floatframe.exudyn import FEM as ffFEM
from floatframe.exudyn._names import ExudynLayerError


def rxyz_rotor_with_user_functions(exu, ii, fem_module, mode_basis):
    """The rotor (the 8 eigenmodes ``mode_basis``, the same for both codes: its repeated frequencies leave the
    eigenvectors open) on an Rxyz frame turned and spinning, with Exudyn's CMS user functions and gravity;
    returns (mbs, cms)."""
    fem = models.rotor_fem(fem_module)
    fem.ComputeEigenmodes(8, excludeRigidBodyModes=6, useSparseSolver=True)
    fem.modeBasis["matrix"] = mode_basis
    cms = fem_module.ObjectFFRFreducedOrderInterface(fem, rigidBodyNodeType=exu.NodeType.RotationRxyz)
    mbs = exu.SystemContainer().AddSystem()

    def force(mbs, t, item, q, q_t):
        return cms.UFforceFFRFreducedOrder(exu, mbs, t, q, q_t)

    def mass(mbs, t, item, q, q_t):
        return cms.UFmassFFRFreducedOrder(exu, mbs, t, q, q_t)
    turn = np.array([[0.0, -1, 0], [1, 0, 0], [0, 0, 1]])
    cms.AddObjectFFRFreducedOrderWithUserFunctions(exu, mbs, UFforce=force, UFmassMatrix=mass,
                                                   rotationMatrixRef=turn, initialAngularVelocity=[2.0, 1.0, 20.0],
                                                   gravity=[0, -9.81, 3.0])
    mbs.Assemble()
    return mbs, cms


@pytest.mark.exudyn
def test_the_cms_user_functions_on_an_rxyz_frame_are_exudyns(shared_rotor_data):
    """The layer's UFmass/UFforceFFRFreducedOrder (the body's own terms, with the rate terms (d G_l / dt) theta_t
    of the Tait-Bryan angles, as Exudyn's Python functions) at a random state: to round-off (measured 2e-17 and
    8e-17 of the scale); without the rate terms the forces would differ by 3e-2 of the scale."""
    exu = pytest.importorskip("exudyn")
    import exudyn.FEM as exudyn_fem
    import exudyn.itemInterface as exudyn_items

    import floatframe.exudyn as ffexu
    from floatframe.exudyn import itemInterface as ffitems

    rng = np.random.default_rng(3)
    q = np.concatenate([rng.uniform(-0.1, 0.1, 3), rng.uniform(-0.4, 0.4, 3), rng.uniform(-1e-3, 1e-3, 8)])
    q_t = np.concatenate([rng.uniform(-1, 1, 3), rng.uniform(-5, 5, 3), rng.uniform(-0.1, 0.1, 8)])
    fem = models.rotor_fem(ffFEM)
    fem.ComputeEigenmodes(8, excludeRigidBodyModes=6, useSparseSolver=True)
    values = []
    for module, items, fem_module in ((exu, exudyn_items, exudyn_fem), (ffexu, ffitems, ffFEM)):
        mbs, cms = rxyz_rotor_with_user_functions(module, items, fem_module, fem.modeBasis["matrix"])
        assert cms.nODE2rot == 3 and cms.nODE2FFRFreduced == 14
        assert len(mbs.GetNode(0)["referenceCoordinates"]) == 6
        mbs.systemData.SetODE2Coordinates(q)        # Exudyn's functions take A from the node's current state
        mbs.systemData.SetODE2Coordinates_t(q_t)
        values.append((np.asarray(cms.UFmassFFRFreducedOrder(module, mbs, 0.0, q, q_t)),
                       np.asarray(cms.UFforceFFRFreducedOrder(module, mbs, 0.0, q, q_t)).reshape(-1)))
    (their_mass, their_force), (my_mass, my_force) = values
    np.testing.assert_allclose(my_mass, their_mass, atol=1e-13 * np.abs(their_mass).max(), rtol=0)
    np.testing.assert_allclose(my_force, their_force, atol=1e-12 * np.abs(their_force).max(), rtol=0)


def craig_bampton_rotor(frame_held, node_type="RotationRxyz"):
    """The rotor with Craig-Bampton modes of its two end faces (their static modes contain the rigid-body
    motions), its frame free or held by coordinate constraints on all its coordinates; assembled."""
    import floatframe.exudyn as ffexu
    from floatframe.exudyn import itemInterface as ii

    fem = models.rotor_fem(ffFEM)
    faces = [fem.GetNodesInPlane([0, 0, z], [0, 0, 1]) for z in (0.0, 0.5)]
    fem.ComputeHurtyCraigBamptonModes(boundaryNodesList=faces, nEigenModes=4, useSparseSolver=True,
                                      excludeRigidBodyMotion=False)
    cms = ffFEM.ObjectFFRFreducedOrderInterface(fem, rigidBodyNodeType=getattr(ffexu.NodeType, node_type))
    mbs = ffexu.SystemContainer().AddSystem()
    body = cms.AddObjectFFRFreducedOrder(mbs)
    if frame_held:
        ground = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=mbs.AddNode(ii.NodePointGround()), coordinate=0))
        for k in range(len(mbs.GetNode(body["nRigidBody"])["referenceCoordinates"])):
            frame = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=body["nRigidBody"], coordinate=k))
            mbs.AddObject(ii.ObjectConnectorCoordinate(markerNumbers=[ground, frame]))
    mbs.Assemble()
    return mbs, body


def test_a_basis_with_rigid_body_motions_needs_the_frame_held(shared_rotor_data):
    """Exudyn takes any basis (a free frame then leaves the mass matrix singular); the layer takes one with
    rigid-body motions where constraints hold all frame coordinates, and refuses it at assembly otherwise."""
    mbs, body = craig_bampton_rotor(frame_held=True)
    assert mbs.GetObject(body["oFFRFreducedOrder"])["objectType"] == "FFRFreducedOrder"
    with pytest.raises((ModelError, ExudynLayerError), match=r"rigid-body motion of the mesh.*hold all coordinates "
                                                              r"of the frame node by constraints"):
        craig_bampton_rotor(frame_held=False)
    with pytest.raises((ModelError, ExudynLayerError), match=r"rigid-body motion of the mesh"):
        craig_bampton_rotor(frame_held=False, node_type="RotationEulerParameters")


def test_other_frame_node_types_are_refused():
    fem = ffFEM.FEMinterface()
    with pytest.raises(ExudynLayerError, match=r"rigidBodyNodeType NodeType.RotationRotationVector is not supported"):
        ffFEM.ObjectFFRFreducedOrderInterface(fem, rigidBodyNodeType="NodeType.RotationRotationVector")
