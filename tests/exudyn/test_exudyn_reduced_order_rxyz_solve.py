"""(For tests/exudyn/, after the geometric_stiffening.frame_angular_velocity change in /tmp/n28/geometric_stiffening.diff.)
Solves with the reduced-order body on a NodeRigidBodyRxyz frame: against exudyn 1.13.6 (its own FFRF terms, without
the rate terms of the angles) and against the same body on Euler parameters (the exact equations: same motion)."""
import numpy as np
import pytest

import exudyn_style_models as models
from floatframe.exudyn import FEM as ffFEM


def spinning_rotor(exu, ii, fem_module, node_type="RotationRxyz"):
    """The rotor (8 eigenmodes), turned, spinning and tumbling under gravity, on a spring-damper at its left face
    with a torque on a MarkerSuperElementRigid there; sensors: mid-axis displacement, frame angular velocity."""
    fem = models.rotor_fem(fem_module)
    fem.ComputeEigenmodes(8, excludeRigidBodyModes=6, useSparseSolver=True)
    cms = fem_module.ObjectFFRFreducedOrderInterface(fem, rigidBodyNodeType=getattr(exu.NodeType, node_type))
    mbs = exu.SystemContainer().AddSystem()
    turn = np.array([[0.0, -1, 0], [1, 0, 0], [0, 0, 1]]) @ np.array(
        [[1, 0, 0], [0, np.cos(0.3), -np.sin(0.3)], [0, np.sin(0.3), np.cos(0.3)]])
    body = cms.AddObjectFFRFreducedOrder(mbs, initialAngularVelocity=[2.0, 1.0, 20.0], rotationMatrixRef=turn,
                                         initialVelocity=[0.1, 0, 0], gravity=[0, -9.81, 3.0],
                                         stiffnessProportionalDamping=1e-3)
    ground = mbs.AddObject(ii.ObjectGround())
    face = fem.GetNodesInPlane([0, 0, 0], [0, 0, 1])
    marker = models.rigid_marker(ii, mbs, body["oFFRFreducedOrder"], face)
    centre = turn @ np.mean(fem.GetNodePositionsAsArray()[face], axis=0)
    ground_marker = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=list(centre)))
    mbs.AddObject(ii.ObjectConnectorCartesianSpringDamper(markerNumbers=[marker, ground_marker],
                                                          stiffness=[2e5] * 3, damping=[2e3] * 3))
    mbs.AddLoad(ii.LoadTorqueVector(markerNumber=marker, loadVector=[50.0, 0.0, 20.0]))
    sensors = models.reduced_rotor_sensors(exu, ii, mbs, body, fem)
    mbs.Assemble()
    return mbs, sensors, models.tight_settings(exu, 100, 1e-4)


@pytest.mark.exudyn
def test_a_tumbling_rotor_on_an_rxyz_frame_moves_as_in_exudyn(shared_rotor_data):
    """Measured: 1.9e-10 (displacement) and 8.8e-11 (angular velocity) of the scale; with the rate terms of the
    angles (the exact equations, frame_rate_terms=True) 0.1 and 0.04."""
    exu = pytest.importorskip("exudyn")
    import exudyn.FEM as exudyn_fem
    import exudyn.itemInterface as exudyn_items

    import floatframe.exudyn as ffexu
    from floatframe.exudyn import itemInterface as ffitems

    reference, _ = models.run(spinning_rotor, exu, exudyn_items, exudyn_fem)
    ours, _ = models.run(spinning_rotor, ffexu, ffitems, ffFEM)
    for theirs, mine in zip(reference, ours):
        scale = np.abs(theirs[:, 1:]).max()
        assert np.abs(theirs[:, 1:] - theirs[0, 1:]).max() > 1e-2 * scale
        np.testing.assert_allclose(mine[:, 1:], theirs[:, 1:], atol=1e-8 * scale, rtol=0)


def test_the_exact_rxyz_frame_moves_as_the_euler_parameter_frame(shared_rotor_data):
    """The core body with frame_rate_terms=True (default) on Tait-Bryan angles and on Euler parameters: the same
    motion in two coordinate sets, which the scheme integrates differently to second order. Measured: 2.4e-7 and
    3.4e-8 of the scale at h = 1e-4 s, 5.8e-8 and 8.3e-9 at h = 5e-5 s (ratio 4.1); without the rate terms 0.1."""
    import floatframe.components.ffrf_reduced as reduced
    import floatframe.exudyn as ffexu
    from floatframe.exudyn import itemInterface as ffitems

    original = reduced.ObjectFFRFReducedOrder.__init__

    def exact(self, *arguments, **keywords):   # the layer sets frame_rate_terms=False as Exudyn; the core default
        keywords["frame_rate_terms"] = True
        original(self, *arguments, **keywords)
    reduced.ObjectFFRFReducedOrder.__init__ = exact
    try:
        rxyz, _ = models.run(spinning_rotor, ffexu, ffitems, ffFEM)
    finally:
        reduced.ObjectFFRFReducedOrder.__init__ = original
    euler, _ = models.run(lambda e, i, f: spinning_rotor(e, i, f, "RotationEulerParameters"), ffexu, ffitems, ffFEM)
    for a, b in zip(euler, rxyz):
        scale = np.abs(a[:, 1:]).max()
        np.testing.assert_allclose(b[:, 1:], a[:, 1:], atol=1e-6 * scale, rtol=0)
