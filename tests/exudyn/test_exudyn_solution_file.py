"""The coordinates solution file of SolveDynamic and SolveStatic against exudyn 1.13.6's (skipped without exudyn).

Claims: by default both codes write solution/coordinatesSolution.txt with the same header (columns, numbers of
system and written coordinates, planned steps) and the same rows (times, ODE2 coordinates, velocities,
accelerations, ODE1 coordinates and velocities, algebraic coordinates) to the Newton tolerance, for the implicit,
explicit (rigid bodies with Lie-group nodes among them) and static solvers; writePeriod chooses the rows as in
exudyn where it is a multiple of the step, independently of the sensors' period; the export, initial-value, header,
footer and information settings change the file as in exudyn; writeSolutionToFile = False writes none; a binary
file and a file that cannot be written are refused before the solve, naming the setting; LoadSolutionFile reads
both codes' files into the same arrays, and exudyn's reader reads floatframe's file.
"""
import numpy as np
import pytest

import floatframe.exudyn as ffexu
from floatframe.exudyn import itemInterface as ffitems
from floatframe.exudyn import utilities as ffutilities

exudyn = pytest.importorskip("exudyn")
import exudyn.itemInterface as exitems  # noqa: E402
import exudyn.utilities as exutilities  # noqa: E402

FLOATFRAME, EXUDYN = (ffexu, ffitems), (exudyn, exitems)
COMPARED_HEADER = slice(2, 7)   # columns, system and written coordinates, total columns, planned steps


@pytest.fixture(autouse=True)
def in_tmp_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def constrained_spring_mass(exu, items, first_order=False):
    """A mass point on a spring under gravity, its z held by a CoordinateConstraint (one algebraic coordinate);
    with ``first_order`` also a decaying 2-coordinate ODE1 system; a sensor of the position."""
    mbs = exu.SystemContainer().AddSystem()
    node = mbs.AddNode(items.NodePoint(referenceCoordinates=[0, 0, 0], initialVelocities=[1, 2, 0]))
    mbs.AddObject(items.ObjectMassPoint(mass=2.0, nodeNumber=node))
    marker = mbs.AddMarker(items.MarkerNodePosition(nodeNumber=node))
    mbs.AddLoad(items.LoadForceVector(markerNumber=marker, loadVector=[0, -9.81, 0]))
    anchor = mbs.AddMarker(items.MarkerBodyPosition(bodyNumber=mbs.AddObject(items.ObjectGround()),
                                                    localPosition=[0, 1, 0]))
    mbs.AddObject(items.ObjectConnectorSpringDamper(markerNumbers=[anchor, marker], stiffness=100, damping=1,
                                                    referenceLength=0.5))
    ground = mbs.AddMarker(items.MarkerNodeCoordinate(nodeNumber=mbs.AddNode(items.NodePointGround()), coordinate=0))
    mbs.AddObject(items.ObjectConnectorCoordinate(markerNumbers=[ground, mbs.AddMarker(
        items.MarkerNodeCoordinate(nodeNumber=node, coordinate=2))]))
    if first_order:
        ode1 = mbs.AddNode(items.NodeGenericODE1(referenceCoordinates=[0.0, 0.0], initialCoordinates=[1.0, -0.5],
                                                 numberOfODE1Coordinates=2))
        mbs.AddObject(items.ObjectGenericODE1(nodeNumbers=[ode1], systemMatrix=np.array([[-2.0, 1.0], [0.0, -3.0]]),
                                              rhsVector=[0.0, 1.0]))
    sensor = mbs.AddSensor(items.SensorNode(nodeNumber=node, storeInternal=True,
                                            outputVariableType=exu.OutputVariableType.Position))
    mbs.Assemble()
    return mbs, sensor


def settings_for(exu, steps=10, end_time=0.1, **solution):
    """Full Newton to 1e-12 (the two codes' Newton stops differ only below it) and the given solution settings."""
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = steps
    settings.timeIntegration.endTime = end_time
    settings.timeIntegration.newton.relativeTolerance = 1e-12
    settings.timeIntegration.newton.absoluteTolerance = 1e-14
    settings.timeIntegration.newton.useModifiedNewton = False
    settings.timeIntegration.verboseMode = 0
    for name, value in solution.items():   # name: the path below settings.solution, '__' for '.'
        *branches, field = name.split("__")
        target = settings.solution
        for branch in branches:
            target = getattr(target, branch)
        setattr(target, field, value)
    return settings


def read(path="solution/coordinatesSolution.txt"):
    """(header lines, data rows) of a solution file."""
    with open(path) as stream:
        lines = stream.read().splitlines()
    header = [line for line in lines if line.startswith("#")]
    rows = np.array([[float(x) for x in line.split(",")] for line in lines if line and not line.startswith("#")])
    return header, rows


def solve_both(build, solve):
    """Both codes' (header, rows) of the default solution file after ``solve(exu, mbs)`` on ``build(exu, items)``."""
    files = []
    for exu, items in (FLOATFRAME, EXUDYN):
        mbs, _ = build(exu, items)
        solve(exu, mbs)
        files.append(read())
    return files


def assert_same_file(ours, theirs, scale_tolerance=1e-8):
    (our_header, our_rows), (their_header, their_rows) = ours, theirs
    assert our_header[COMPARED_HEADER] == their_header[COMPARED_HEADER]
    assert our_rows.shape == their_rows.shape
    np.testing.assert_allclose(our_rows[:, 0], their_rows[:, 0], rtol=0, atol=1e-12)
    scale = np.maximum(np.abs(their_rows).max(axis=0), 1.0)
    assert np.max(np.abs(our_rows - their_rows) / scale) < scale_tolerance


def test_generalized_alpha_file_has_exudyns_header_and_rows():
    files = solve_both(constrained_spring_mass,
                       lambda exu, mbs: mbs.SolveDynamic(settings_for(exu, file__writePeriod=0.02)))
    assert_same_file(*files)
    header, rows = files[0]
    assert header[4].endswith("= [3,3,3,0,0,1,0]")
    np.testing.assert_allclose(rows[:, 0], [0, 0.02, 0.04, 0.06, 0.08, 0.1], atol=1e-12)


def test_ode1_coordinates_and_velocities_are_written_as_exudyns():
    files = solve_both(lambda exu, items: constrained_spring_mass(exu, items, first_order=True),
                       lambda exu, mbs: mbs.SolveDynamic(settings_for(exu, file__writePeriod=0.01),
                                                         solverType=exu.DynamicSolverType.TrapezoidalIndex2))
    (header, rows), (_, their_rows) = files
    assert header[4].endswith("= [3,3,3,2,2,1,0]")
    # exudyn starts its ODE1 velocities from x' = 0 in the file's first row; floatframe writes the same start
    assert_same_file(*files)


def test_write_period_is_independent_of_the_sensor_period():
    """File rows every 0.03 s, sensor rows every 0.02 s, steps of 0.01 s: both as exudyn's."""
    results = []
    for exu, items in (FLOATFRAME, EXUDYN):
        mbs, sensor = constrained_spring_mass(exu, items)
        mbs.SolveDynamic(settings_for(exu, file__writePeriod=0.03, sensors__writePeriod=0.02))
        results.append((read(), mbs.GetSensorStoredData(sensor)))
    (ours, our_sensor), (theirs, their_sensor) = results
    assert_same_file(ours, theirs)
    np.testing.assert_allclose(ours[1][:, 0], [0, 0.03, 0.06, 0.09, 0.1], atol=1e-12)
    assert our_sensor.shape == their_sensor.shape == (6, 4)
    np.testing.assert_allclose(our_sensor, their_sensor, rtol=0, atol=1e-9)


@pytest.mark.parametrize("options, file_times, sensor_times", [
    (dict(file__writePeriod=0.025, sensors__writePeriod=0.03), [0, 0.03, 0.05, 0.08, 0.1], [0, 0.03, 0.06, 0.09, 0.1]),
    (dict(file__writePeriod=0.0, sensors__writePeriod=0.02, file__writeInitialValues=False),
     np.arange(1, 11) / 100, [0.01, 0.02, 0.04, 0.06, 0.08, 0.1]),
    (dict(file__writePeriod=0.035, sensors__writePeriod=0.0), [0, 0.04, 0.07, 0.1], np.arange(11) / 100)])
def test_periods_that_are_no_multiple_of_the_step_write_at_exudyns_steps(options, file_times, sensor_times):
    """Exudyn writes the first step at or after the last written time plus the period (P = 2.5 h: steps 0, 3, 5, 8,
    10), every step where P = 0, and without writeInitialValues neither the file nor the sensors have the initial
    state: the same rows in both codes."""
    results = []
    for exu, items in (FLOATFRAME, EXUDYN):
        mbs, sensor = constrained_spring_mass(exu, items)
        mbs.SolveDynamic(settings_for(exu, **options))
        results.append((read(), mbs.GetSensorStoredData(sensor)))
    (ours, our_sensor), (theirs, their_sensor) = results
    np.testing.assert_allclose(theirs[1][:, 0], file_times, atol=1e-12)
    np.testing.assert_allclose(their_sensor[:, 0], sensor_times, atol=1e-12)
    assert_same_file(ours, theirs)
    assert our_sensor.shape == their_sensor.shape
    np.testing.assert_allclose(our_sensor, their_sensor, rtol=0, atol=1e-9)


def test_explicit_runge_kutta_on_a_lie_group_node_as_exudyn():
    """RK44 with a NodeRigidBodyRotVecLG: its velocities and accelerations in the file are exudyn's (body-fixed
    angular velocities), to the round-off of the two codes' identical fixed-step stages; except the accelerations
    of the first row, which exudyn's explicit solvers write as zeros (they have not computed them yet) and floatframe
    as the initial state's (docs/exudyn.md)."""
    def spinning_body(exu, items):
        mbs = exu.SystemContainer().AddSystem()
        node = mbs.AddNode(items.NodeRigidBodyRotVecLG(referenceCoordinates=[0, 0, 0, 0.2, -0.1, 0.3],
                                                       initialVelocities=[0.1, 0, 0, 0.5, 3.0, -1.2]))
        body = mbs.AddObject(items.ObjectRigidBody(nodeNumber=node, mass=3.0, inertia=[0.4, 0.6, 0.5, 0.01, 0, 0.02]))
        mbs.AddLoad(items.LoadForceVector(markerNumber=mbs.AddMarker(items.MarkerBodyPosition(
            bodyNumber=body, localPosition=[0, 0.3, 0])), loadVector=[1.0, 0, -9.81]))
        mbs.Assemble()
        return mbs, None

    files = solve_both(spinning_body, lambda exu, mbs: mbs.SolveDynamic(
        settings_for(exu, steps=100, end_time=0.5), solverType=exu.DynamicSolverType.RK44))
    assert files[0][0][0].startswith("#floatframe.exudyn explicit time integration (RK44) solver solution file")
    (our_header, our_rows), (their_header, their_rows) = files
    assert our_rows.shape == (51, 19)
    accelerations = slice(13, 19)
    np.testing.assert_array_equal(their_rows[0, accelerations], np.zeros(6))
    assert np.abs(our_rows[0, accelerations]).max() > 1.0
    our_rows[0, accelerations] = 0.0
    assert_same_file((our_header, our_rows), (their_header, their_rows), scale_tolerance=1e-12)


def test_static_file_has_exudyns_load_steps():
    def solve(exu, mbs):
        settings = settings_for(exu)
        settings.staticSolver.numberOfLoadSteps = 3
        mbs.SolveStatic(settings)

    files = solve_both(constrained_spring_mass, solve)
    assert_same_file(*files)
    header, rows = files[0]
    assert header[4].endswith("= [3,0,0,0,0,1,0]")
    np.testing.assert_allclose(rows[:, 0], [0, 1 / 3, 2 / 3, 1], atol=1e-12)


@pytest.mark.parametrize("options", [
    dict(file__export__velocities=False, file__export__accelerations=False),
    dict(file__export__algebraicCoordinates=False, file__writeInitialValues=False),
    dict(file__writeHeader=False, file__writeFooter=False),
    dict(file__information="two\nlines", file__name="other/run")])
def test_file_settings_change_the_file_as_exudyns(options):
    path = "other/run.txt" if "file__name" in options else "solution/coordinatesSolution.txt"
    files = []
    for exu, items in (FLOATFRAME, EXUDYN):
        mbs, _ = constrained_spring_mass(exu, items)
        mbs.SolveDynamic(settings_for(exu, file__writePeriod=0.05, **options))
        files.append(read(path))
    (our_header, our_rows), (their_header, their_rows) = files
    assert len(our_header) == len(their_header)
    if our_header:
        assert our_header[COMPARED_HEADER] == their_header[COMPARED_HEADER]
        assert [line for line in our_header if "information" in line] == \
            [line for line in their_header if "information" in line]
    assert our_rows.shape == their_rows.shape
    np.testing.assert_allclose(our_rows, their_rows, rtol=0, atol=1e-8 * np.abs(their_rows).max())


def test_no_file_without_write_and_refusals_before_the_solve(tmp_path):
    mbs, _ = constrained_spring_mass(*FLOATFRAME)
    mbs.SolveDynamic(settings_for(ffexu, file__write=False))
    assert not (tmp_path / "solution").exists()
    with pytest.raises(ffexu.ExudynLayerError, match="solution.file.binary = True"):
        mbs.SolveDynamic(settings_for(ffexu, file__binary=True))
    (tmp_path / "blocked").write_text("a file where a folder should be")
    with pytest.raises(ffexu.ExudynLayerError, match="solution.file.name.*blocked/run.txt' cannot be written"):
        mbs.SolveDynamic(settings_for(ffexu, file__name="blocked/run"))
    assert mbs.systemData.GetTime() == pytest.approx(0.1)   # the refused solves left the first one's state


def test_load_solution_file_reads_both_codes_files_alike():
    loaded = []
    for exu, items in (FLOATFRAME, EXUDYN):
        mbs, _ = constrained_spring_mass(exu, items)
        mbs.SolveDynamic(settings_for(exu))
        loaded.append((ffutilities.LoadSolutionFile("solution/coordinatesSolution.txt", verbose=False),
                       exutilities.LoadSolutionFile("solution/coordinatesSolution.txt", verbose=False)))
    (ours_by_ours, ours_by_exudyn), (theirs_by_ours, theirs_by_exudyn) = loaded
    for ours, theirs in ((ours_by_ours, ours_by_exudyn), (theirs_by_ours, theirs_by_exudyn)):
        assert ours["columnsExported"] == list(theirs["columnsExported"])
        assert (ours["nColumns"], ours["nRows"]) == (theirs["nColumns"], theirs["nRows"]) == (10, 11)
        np.testing.assert_array_equal(ours["data"], theirs["data"])
    np.testing.assert_allclose(ours_by_ours["data"], theirs_by_ours["data"], rtol=0, atol=1e-8)


def test_load_solution_file_refuses_binary_headerless_and_ragged_files_naming_the_fault(tmp_path):
    """A binary file (Exudyn's EXUBIN), a file without the solution-file header and one with a cut-off row are refused
    naming the fault; safeMode skips the cut-off row and keeps the others."""
    binary = tmp_path / "binary.sol"
    binary.write_bytes(b"EXUBIN" + bytes(20))
    with pytest.raises(ffexu.ExudynLayerError, match="binary solution files; floatframe reads the text files only"):
        ffutilities.LoadSolutionFile(str(binary), verbose=False)
    headerless = tmp_path / "headerless.txt"
    headerless.write_text("0,1,2\n0.1,1.5,2.5\n")
    with pytest.raises(ValueError, match="has no solution-file header"):
        ffutilities.LoadSolutionFile(str(headerless), verbose=False)
    assert ffutilities.LoadSolutionFile(str(headerless), verbose=False, hasHeader=False)["data"].shape == (2, 3)
    mbs, _ = constrained_spring_mass(*FLOATFRAME)
    mbs.SolveDynamic(settings_for(ffexu, file__writeFooter=False))
    path = tmp_path / "solution" / "coordinatesSolution.txt"
    path.write_text(path.read_text() + "0.11,1.0\n")   # a row cut off, as by a solve that was killed
    with pytest.raises(ValueError, match="rows without 11 values"):
        ffutilities.LoadSolutionFile(str(path), verbose=False)
    loaded = ffutilities.LoadSolutionFile(str(path), verbose=False, safeMode=True)
    assert loaded["nRows"] == 11 and loaded["data"][-1, 0] == pytest.approx(0.1)
