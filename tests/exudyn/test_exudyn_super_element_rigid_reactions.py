"""Reactions of a GenericJoint at a MarkerSuperElementRigid against exudyn 1.13.6: Exudyn's connector Jacobian
takes the marker's rotation Jacobian A [G, T(theta_m) W^-1 sum_k w_k p_k~ Psi_k], T the body-side tangent operator
of exp, while the derivative of the marker's orientation A exp(theta_m~) has T(theta_m)^T; the joint's reactions
act through Exudyn's Jacobian (GenericJoint.reaction_equations), its equations stay C(q) = 0."""
import numpy as np
import pytest

import exudyn_style_models as models
from floatframe.components import markers
from floatframe.exudyn import FEM as ffFEM


def clamped_rotor(exu, ii, fem_module, alternative_approach=True):
    """The rotor with eigenmodes (stiffness scaled to 1e-4), its left face z = 0 clamped by a GenericJoint at a
    MarkerSuperElementRigid (all six axes), under gravity -y and a torque about x and z on the right face: the static
    deflection, bent and twisted, so that the marker's rotation theta_m is not along the reaction moment. Returns the ODE2 coordinates with the modal ones
    as mesh displacements (the modes' signs differ between the codes)."""
    fem = models.rotor_fem(fem_module)
    fem.ScaleStiffnessMatrix(1e-2)
    fem.ComputeEigenmodes(8, excludeRigidBodyModes=6, useSparseSolver=True)
    cms = fem_module.ObjectFFRFreducedOrderInterface(fem)
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    body = cms.AddObjectFFRFreducedOrder(mbs, gravity=[0, -9.81, 0])
    ground = mbs.AddObject(ii.ObjectGround())
    faces = [fem.GetNodesInPlane([0, 0, z], [0, 0, 1]) for z in (0.0, 0.5)]
    rigid = [mbs.AddMarker(ii.MarkerSuperElementRigid(bodyNumber=body["oFFRFreducedOrder"],
                                                      meshNodeNumbers=np.array(face),
                                                      weightingFactors=np.ones(len(face)) / len(face),
                                                      useAlternativeApproach=alternative_approach))
             for face in faces]
    ground_marker = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=ground, localPosition=[0, 0, 0]))
    mbs.AddObject(ii.GenericJoint(markerNumbers=[ground_marker, rigid[0]], constrainedAxes=[1, 1, 1, 1, 1, 1]))
    mbs.AddLoad(ii.LoadTorqueVector(markerNumber=rigid[1], loadVector=[300.0, 0.0, 300.0]))
    mbs.Assemble()
    ss = exu.SimulationSettings()
    ss.staticSolver.newton.relativeTolerance = 1e-12
    ss.solutionSettings.writeSolutionToFile = False
    exu.SolveStatic(mbs, ss)
    q = np.asarray(mbs.systemData.GetODE2Coordinates())
    return np.concatenate([q[:7], np.asarray(cms.modeBasis) @ q[7:]])


@pytest.mark.exudyn
@pytest.mark.parametrize("alternative_approach", [True, False], ids=["inertia-weighted", "distance-weighted"])
def test_the_clamped_flexible_rotor_deflects_as_in_exudyn(shared_rotor_data, monkeypatch, alternative_approach):
    """Measured: 2e-14 (inertia-weighted) and 2e-13 (distance-weighted) of the largest coordinate; with C_q^T lambda,
    the derivative of the orientation, 4.7e-2 and 7.6e-4."""
    exu = pytest.importorskip("exudyn")
    import exudyn.FEM as exudyn_fem
    import exudyn.itemInterface as exudyn_items

    import floatframe.exudyn as ffexu
    from floatframe.exudyn import itemInterface as ffitems

    reference = clamped_rotor(exu, exudyn_items, exudyn_fem, alternative_approach)
    ours = clamped_rotor(ffexu, ffitems, ffFEM, alternative_approach)
    scale = np.abs(reference).max()
    assert np.abs(ours - reference).max() <= 1e-9 * scale

    monkeypatch.setattr(markers.MarkerSuperElementRigid, "rotation_jacobian_is_derivative", True)  # "exact"
    exact = clamped_rotor(ffexu, ffitems, ffFEM, alternative_approach)
    assert np.abs(exact - reference).max() > 1e3 * 1e-9 * scale


def test_the_core_marker_takes_the_exact_reactions_unless_asked_for_exudyns():
    from floatframe.errors import ModelError
    assert markers.MarkerSuperElementRigid(0, [0, 1, 2], [1 / 3] * 3).rotation_jacobian_is_derivative
    assert not markers.MarkerSuperElementRigid(0, [0, 1, 2], [1 / 3] * 3, reactions="exudyn").rotation_jacobian_is_derivative
    with pytest.raises(ModelError, match="reactions must be one of"):
        markers.MarkerSuperElementRigid(0, [0, 1, 2], [1 / 3] * 3, reactions="Exudyn")
