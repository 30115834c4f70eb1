"""mbs.CreateFFRFReducedOrderObject against exudyn 1.13.6: the items it adds (a reduced-order body and a
MarkerSuperElementRigid per boundary node set), the dict it returns, and the motion of the rotor hung from one
of those markers by mbs.CreateSphericalJoint (a marker in itemNumbers sets the joint position)."""
import numpy as np
import pytest

import exudyn_style_models as models
from floatframe.exudyn import FEM as ffFEM
from floatframe.exudyn._names import ExudynLayerError

FACES = (0.0, 0.5)   # z [m] of the rotor's end faces


def rotor_with_boundaries(fem_module):
    """The rotor with its two end faces as boundary node sets (equal weights) and Craig-Bampton modes on them."""
    fem = models.rotor_fem(fem_module)
    for z in FACES:
        face = fem.GetNodesInPlane([0, 0, z], [0, 0, 1])
        fem.nodeSets.append({"Name": f"face{int(z * 10)}", "NodeNumbers": face, "type": "boundary",
                             "NodeWeights": list(np.ones(len(face)) / len(face))})
    nodes, weights = fem.GetBoundaryNodeSetsAsLists()
    fem.ComputeHurtyCraigBamptonModes(boundaryNodesList=nodes, nEigenModes=6, boundaryNodesWeights=weights,
                                      useSparseSolver=True)
    return fem


def hung_rotor(exu, ii, fem_module):
    """The rotor spinning about z, its face at z = 0 held by a spherical joint to the ground, under gravity;
    sensors: both markers' positions and the frame's angular velocity."""
    fem = rotor_with_boundaries(fem_module)
    mbs = exu.SystemContainer().AddSystem()
    created = mbs.CreateFFRFReducedOrderObject(name="rotor", femInterface=fem, initialAngularVelocity=[0, 0, 20.0],
                                               gravity=[0, -9.81, 0], referencePosition=[0.1, 0, 0],
                                               superElementRigidMarkersOffsets=[[0, 0, 0], [0.02, 0, 0]])
    ground = mbs.CreateGround()
    mbs.CreateSphericalJoint(itemNumbers=[created["rotor:face0"], ground])
    sensors = [mbs.AddSensor(ii.SensorMarker(markerNumber=created[name], storeInternal=True,
                                             outputVariableType=exu.OutputVariableType.Position))
               for name in ("rotor:face0", "rotor:face5")]
    sensors.append(mbs.AddSensor(ii.SensorNode(nodeNumber=created["FFRFReducedOrderObjectDict"]["nRigidBody"],
                                               storeInternal=True,
                                               outputVariableType=exu.OutputVariableType.AngularVelocity)))
    mbs.Assemble()
    return mbs, sensors, models.tight_settings(exu, 50, 1e-4), created


@pytest.mark.exudyn
def test_the_created_items_and_the_motion_are_exudyns(shared_rotor_data):
    """Measured: 0 and 1.1e-13 of the scale for the two marker positions, 9e-10 for the frame's angular velocity
    (the Craig-Bampton basis leaves the frame's motion less determined, so the Newton tolerance shows there)."""
    exu = pytest.importorskip("exudyn")
    import exudyn.FEM as exudyn_fem
    import exudyn.itemInterface as exudyn_items

    import floatframe.exudyn as ffexu
    from floatframe.exudyn import itemInterface as ffitems

    results = []
    for module, items, fem_module in ((exu, exudyn_items, exudyn_fem), (ffexu, ffitems, ffFEM)):
        mbs, sensors, settings, created = hung_rotor(module, items, fem_module)
        module.SolveDynamic(mbs, settings)
        marker = mbs.GetMarker(created["rotor:face5"])
        results.append((created, marker, [mbs.GetSensorStoredData(s) for s in sensors],
                        [mbs.GetNode(n)["name"] for n in range(mbs.systemData.NumberOfNodes())]))
    (theirs, their_marker, reference, their_nodes), (mine, my_marker, ours, my_nodes) = results
    assert list(mine) == list(theirs)
    assert {key: int(value) for key, value in mine.items() if key != "FFRFReducedOrderObjectDict"} == {
        key: int(value) for key, value in theirs.items() if key != "FFRFReducedOrderObjectDict"}
    assert {key: None if value is None else int(value) for key, value in
            mine["FFRFReducedOrderObjectDict"].items()} == {
        key: None if value is None else int(value) for key, value in theirs["FFRFReducedOrderObjectDict"].items()}
    assert my_nodes == their_nodes
    assert my_marker["name"] == their_marker["name"] == "rotor:face5"
    np.testing.assert_array_equal(np.asarray(my_marker["offset"]), np.asarray(their_marker["offset"]))
    np.testing.assert_array_equal(np.asarray(my_marker["meshNodeNumbers"]), np.asarray(their_marker["meshNodeNumbers"]))
    assert np.abs(reference[1][:, 1:] - reference[1][0, 1:]).max() > 1e-3   # the free face moves by > 1 mm
    for expected, actual, tolerance in zip(reference, ours, (1e-8, 1e-8, 1e-8)):
        scale = np.abs(expected[:, 1:]).max()
        np.testing.assert_allclose(actual[:, 1:], expected[:, 1:], atol=tolerance * scale, rtol=0)


def test_a_marker_name_in_use_and_wrong_offsets_are_refused(shared_rotor_data):
    import floatframe.exudyn as ffexu
    from floatframe.exudyn import itemInterface as ffitems

    fem = rotor_with_boundaries(ffFEM)
    mbs = ffexu.SystemContainer().AddSystem()
    with pytest.raises(ExudynLayerError, match=r"superElementRigidMarkersOffsets must be 2 x 3"):
        mbs.CreateFFRFReducedOrderObject(name="rotor", femInterface=fem, superElementRigidMarkersOffsets=[0, 0, 1])
    ground = mbs.AddObject(ffitems.ObjectGround())
    mbs.AddMarker(ffitems.MarkerBodyPosition(name="rotor:face0", bodyNumber=ground))
    with pytest.raises(ExudynLayerError, match=r"a marker named 'rotor:face0' exists already"):
        mbs.CreateFFRFReducedOrderObject(name="rotor", femInterface=fem)
    created = mbs.CreateFFRFReducedOrderObject(name=None, femInterface=fem)
    assert [key for key in created if key != "FFRFReducedOrderObjectDict"] == ["face0", "face5"]
    with pytest.raises(ExudynLayerError, match=r"position must be \[\]"):
        mbs.CreateSphericalJoint(itemNumbers=[created["face0"], ground], position=[0, 0, 0])
