"""Exudyn's views of a system's coordinates where floatframe carries more in its DAE (floatframe.exudyn._coordinates):
a TorsionalSpringDamper's turn counter (NodeGenericData) is a data coordinate, not an ODE2 coordinate, and its
constraint no algebraic coordinate; the integral coordinate of a velocity-level connector is not there at all. The
ODE2 vectors, node indices and the solution file's columns are exudyn 1.13.6's."""
import numpy as np
import pytest

import floatframe.exudyn as ffexu
import floatframe.exudyn.itemInterface as ffitems
import floatframe.exudyn.utilities as ffutilities


def spinning_body_with_a_turn_counter(exu, ii, utilities, file_name):
    """A body turning about z on a generic joint, over a turn in 3 s against a weak TorsionalSpringDamper whose
    NodeGenericData counts the turns; a mass point added after the data node; the solution file written."""
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.AddObject(ii.ObjectGround())
    body = mbs.CreateRigidBody(inertia=utilities.InertiaCuboid(1000, [0.1, 0.2, 0.3]), referencePosition=[0, 0, 0],
                               initialAngularVelocity=[0, 0, 5])
    ground_marker = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=ground))
    body_marker = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body))
    mbs.AddObject(ii.ObjectJointGeneric(markerNumbers=[ground_marker, body_marker], constrainedAxes=[1, 1, 1, 1, 1, 0]))
    counter = mbs.AddNode(ii.NodeGenericData(initialCoordinates=[0], numberOfDataCoordinates=1))
    mbs.AddObject(ii.ObjectConnectorTorsionalSpringDamper(markerNumbers=[ground_marker, body_marker], stiffness=0.01,
                                                          nodeNumber=counter))
    point = mbs.CreateMassPoint(referencePosition=[1, 0, 0], initialVelocity=[0, 0.5, 0], physicsMass=1.0)
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = 300
    settings.timeIntegration.endTime = 3.0
    settings.timeIntegration.verboseMode = 0
    settings.timeIntegration.newton.relativeTolerance = 1e-12
    settings.solution.file.name = str(file_name)
    mbs.SolveDynamic(settings)
    point_node = mbs.GetObject(point)["nodeNumber"]
    return mbs, mbs.systemData.GetODE2Coordinates(), mbs.GetNodeODE2Index(point_node)


def header_counts(path):
    lines = [line for line in open(path) if line.startswith("#number of")]
    return [eval(line.split("=")[1]) for line in lines[:2]]


@pytest.mark.exudyn
def test_a_turn_counter_is_a_data_coordinate_as_in_exudyn(tmp_path):
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as ii
    import exudyn.utilities as utilities
    _, reference, reference_index = spinning_body_with_a_turn_counter(exu, ii, utilities, tmp_path / "exudyn.txt")
    mbs, ours, index = spinning_body_with_a_turn_counter(ffexu, ffitems, ffutilities, tmp_path / "ours.txt")
    assert ours.size == reference.size == 10 and index == reference_index == 7
    np.testing.assert_allclose(ours, reference, rtol=0, atol=1e-8 * np.abs(reference).max())
    (system, written), (system_ours, written_ours) = header_counts(tmp_path / "exudyn.txt"), \
        header_counts(tmp_path / "ours.txt")
    assert system_ours[3] == system[3] == 1 and written_ours[6] == written[6] == 1          # nData
    assert system_ours[:2] == system[:2] and written_ours[:5] == written[:5]                # ODE2, ODE1 columns
    angle, angle_ours = (np.loadtxt(tmp_path / name, delimiter=",", comments="#")[:, -1]
                         for name in ("exudyn.txt", "ours.txt"))
    assert angle[-1] > 2 * np.pi                                                           # over a turn
    np.testing.assert_allclose(angle_ours, angle, rtol=0, atol=1e-8 * angle[-1])
    # the turn constraint's multiplier (always 0) is no algebraic coordinate: the Euler-parameter norm and the joint's
    # five constrained axes are (Exudyn also keeps a row, lambda = 0, for the joint's free axis)
    assert mbs.systemData.GetAECoordinates().size == 6 and system[2] == 7


@pytest.mark.exudyn
def test_a_velocity_level_connectors_integral_is_no_coordinate_of_exudyns():
    """The rotor coupled to a body's angular velocity (test_exudyn_rotation_coordinate): the integral coordinate of
    the velocity row is not among the ODE2 coordinates, which equal exudyn's after the solve."""
    exu = pytest.importorskip("exudyn")
    import exudyn.itemInterface as ii
    import exudyn.utilities as utilities
    from test_exudyn_rotation_coordinate import coupled_body
    vectors = []
    for code, items, helpers in ((exu, ii, utilities), (ffexu, ffitems, ffutilities)):
        mbs, _ = coupled_body(code, items, helpers)
        settings = code.SimulationSettings()
        settings.timeIntegration.numberOfSteps, settings.timeIntegration.endTime = 100, 0.1
        settings.timeIntegration.newton.relativeTolerance = 1e-12
        settings.solution.file.write = False
        code.SolveDynamic(mbs, settings)
        vectors.append(mbs.systemData.GetODE2Coordinates())
    reference, ours = vectors
    assert ours.size == reference.size == 8
    np.testing.assert_allclose(ours, reference, rtol=0, atol=1e-7 * np.abs(reference).max())
