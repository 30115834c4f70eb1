"""The moment of gravity on a reduced-order body whose modes move its centre of mass (Craig-Bampton modes), against
exudyn 1.13.6: Exudyn's LoadMassProportional on an ObjectFFRFreducedOrder takes the lever of the undeformed centre
of mass (the Jacobian of its DisplacementMassIntegral), and the layer's body does the same (gravity_moment=
"undeformed"); floatframe's own default is the deformed body's first mass moment."""
import numpy as np
import pytest

import exudyn_style_models as models
from floatframe.components import ffrf_reduced
from floatframe.exudyn import FEM as ffFEM


def rotor_pendulum(exu, ii, fem_module, steps=150, h=2e-3):
    """The rotor (stiffness scaled to 1e-3, Craig-Bampton modes fixed at its left face z = 0, 8 eigenmodes) as a
    pendulum: a GenericJoint at the left face's MarkerSuperElementRigid leaves the rotation about x free, gravity
    -y from AddObjectFFRFreducedOrder(gravity=...), starting horizontal at rest. Sensors: the displacement of the
    axis node at the disc and the frame's angular velocity."""
    fem = models.rotor_fem(fem_module)
    fem.ScaleStiffnessMatrix(1e-1)
    left = fem.GetNodesInPlane([0, 0, 0], [0, 0, 1])
    fem.ComputeHurtyCraigBamptonModes(boundaryNodesList=[left], nEigenModes=8, useSparseSolver=True)
    cms = fem_module.ObjectFFRFreducedOrderInterface(fem)
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    body = cms.AddObjectFFRFreducedOrder(mbs, gravity=[0, -9.81, 0])
    ground = mbs.AddObject(ii.ObjectGround())
    marker = models.rigid_marker(ii, mbs, body["oFFRFreducedOrder"], left)
    ground_marker = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=ground, localPosition=[0, 0, 0]))
    mbs.AddObject(ii.GenericJoint(markerNumbers=[ground_marker, marker], constrainedAxes=[1, 1, 1, 0, 1, 1]))
    sensors = models.reduced_rotor_sensors(exu, ii, mbs, body, fem)
    mbs.Assemble()
    return mbs, sensors, models.full_newton_settings(exu, steps, steps * h)


def largest_gap(ours, reference) -> float:
    """max |ours - reference| over both sensors, each relative to the largest entry of its reference."""
    return max(np.abs(mine[:, 1:] - theirs[:, 1:]).max() / np.abs(theirs[:, 1:]).max()
               for mine, theirs in zip(ours, reference))


@pytest.mark.exudyn
def test_a_craig_bampton_pendulum_under_gravity_swings_as_in_exudyn(shared_rotor_data, monkeypatch):
    """Measured: 4e-13 of the scale; with the deformed body's moment (floatframe's default) 8e-4, so the
    tolerance separates the two levers."""
    exu = pytest.importorskip("exudyn")
    import exudyn.FEM as exudyn_fem
    import exudyn.itemInterface as exudyn_items

    import floatframe.exudyn as ffexu
    from floatframe.exudyn import itemInterface as ffitems

    reference, _ = models.run(rotor_pendulum, exu, exudyn_items, exudyn_fem)
    ours, _ = models.run(rotor_pendulum, ffexu, ffitems, ffFEM)
    assert np.abs(reference[1][:, 1:]).max() > 1.0            # it swings: rad/s about x
    assert largest_gap(ours, reference) <= 1e-8

    layer_init = ffrf_reduced.ObjectFFRFReducedOrder.__init__

    def deformed_lever(self, *arguments, **keywords):
        layer_init(self, *arguments, **dict(keywords, gravity_moment="deformed"))
    monkeypatch.setattr(ffrf_reduced.ObjectFFRFReducedOrder, "__init__", deformed_lever)
    deformed, _ = models.run(rotor_pendulum, ffexu, ffitems, ffFEM)
    assert largest_gap(deformed, reference) > 1e3 * 1e-8
