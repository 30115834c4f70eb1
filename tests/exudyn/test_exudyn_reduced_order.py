"""Claims about the reduced-order layer against exudyn 1.13.6 on the rotor disc: the interface computes
Exudyn's invariants, and a spinning supported rotor moves as in Exudyn for eigenmodes."""
import numpy as np
import pytest

import exudyn_style_models as models
from floatframe.exudyn import FEM as ffFEM
from floatframe.exudyn._items import REDUCED_ORDER_MATRICES


@pytest.mark.exudyn
def test_the_interface_computes_exudyns_invariants_to_round_off(shared_rotor_data):
    exudyn_fem = pytest.importorskip("exudyn.FEM")
    interfaces = []
    for module in (ffFEM, exudyn_fem):
        fem = models.rotor_fem(module)
        fem.ComputeEigenmodes(8, excludeRigidBodyModes=6, useSparseSolver=False)
        fem.modeBasis["matrix"] = interfaces[0].modeBasis if interfaces else fem.modeBasis["matrix"]
        interfaces.append(module.ObjectFFRFreducedOrderInterface(fem))
    ours, theirs = interfaces
    names = ["massMatrixReduced", "stiffnessMatrixReduced", "xRef", "inertiaLocal", "Mtt", "chiU", "chiUtilde",
             *REDUCED_ORDER_MATRICES]
    for name in names:
        expected = np.asarray(getattr(theirs, name))
        actual = np.asarray(getattr(ours, name))
        assert actual.shape == expected.shape, name
        # scale: the largest entry, or sqrt(m) [kg^0.5 m] for blocks that vanish for mass-normalised elastic modes
        scale = max(np.abs(expected).max(), np.sqrt(theirs.totalMass))
        assert np.abs(actual - expected).max() <= 1e-12 * scale, name
    assert ours.totalMass == pytest.approx(theirs.totalMass, rel=1e-14)
    assert (ours.nModes, ours.nNodes, ours.nODE2FFRFreduced) == (theirs.nModes, theirs.nNodes, theirs.nODE2FFRFreduced)
