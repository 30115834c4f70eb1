"""The coordinates solution file of SolveDynamic and SolveStatic against exudyn 1.13.6's (skipped without exudyn).

Claims: by default both codes write solution/coordinatesSolution.txt with the same header (columns, numbers of
system and written coordinates, planned steps) and the same rows (times, ODE2 coordinates, velocities,
accelerations, ODE1 coordinates and velocities, algebraic coordinates) to the Newton tolerance, for the implicit,
explicit (rigid bodies with Lie-group nodes among them) and static solvers; writePeriod chooses the rows as in
exudyn where it is a multiple of the step, independently of the sensors' period; the export, initial-value, header,
footer and information settings change the file as in exudyn; writeSolutionToFile = False writes none; a file that
cannot be written is refused before the solve, naming the setting; LoadSolutionFile reads both codes' files into the
same arrays, and exudyn's reader reads floatframe's file. The binary file (solution.file.binary): exudyn's
LoadBinarySolutionFile reads floatframe's as exudyn's own of the same solve (dynamic, static, the export, period,
initial-value and precision settings), the two files hold the same header and footer entries except the version,
solver title and date strings, and their bytes are the same where those and the data agree; floatframe's reader
reads both; a file cut off within a row is refused (safeMode keeps the whole rows, as exudyn's reader does).
"""
import numpy as np
import pytest

import floatframe
import floatframe.exudyn as ffexu
from floatframe.exudyn import itemInterface as ffitems
from floatframe.exudyn import utilities as ffutilities

exudyn = pytest.importorskip("exudyn")
import exudyn.itemInterface as exitems  # noqa: E402
import exudyn.utilities as exutilities  # noqa: E402
from floatframe.exudyn._solution_file import read_binary_solution_file  # noqa: E402

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


def test_load_solution_file_refuses_headerless_and_ragged_files_naming_the_fault(tmp_path):
    """A file without the solution-file header and one with a cut-off row are refused naming the fault; safeMode
    skips the cut-off row and keeps the others."""
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


BINARY_PATH = "solution/coordinatesSolution.sol"
# entries of the binary header and footer that name the writer or the time: all others must be equal
WRITER_ENTRIES = ("version", "solver", "started", "footer")


def static_solve(exu, mbs, **solution):
    settings = settings_for(exu, **solution)
    settings.staticSolver.numberOfLoadSteps = 3
    mbs.SolveStatic(settings)


def binary_files_of_both(build, solve, path=BINARY_PATH):
    """Both codes' binary file after ``solve(exu, mbs)`` on ``build(exu, items)``: (bytes, exudyn's
    LoadBinarySolutionFile, floatframe's LoadBinarySolutionFile, floatframe's read_binary_solution_file) each."""
    files = []
    for exu, items in (FLOATFRAME, EXUDYN):
        mbs, _ = build(exu, items)
        solve(exu, mbs)
        with open(path, "rb") as stream:
            content = stream.read()
        files.append((content, exutilities.LoadBinarySolutionFile(path, verbose=False),
                      ffutilities.LoadBinarySolutionFile(path, verbose=False), read_binary_solution_file(path)))
    return files


def assert_same_loaded(ours, theirs):
    """floatframe's reader gives exactly exudyn's reader's dict for one file."""
    assert ours["columnsExported"] == list(theirs["columnsExported"])
    assert (ours["nColumns"], ours["nRows"]) == (theirs["nColumns"], theirs["nRows"])
    assert ours["data"].dtype == theirs["data"].dtype
    np.testing.assert_array_equal(ours["data"], theirs["data"])


@pytest.mark.parametrize("model, solve, shape", [
    (constrained_spring_mass, lambda exu, mbs: mbs.SolveDynamic(settings_for(exu, file__binary=True,
                                                                             file__writePeriod=0.02)), (6, 11)),
    (lambda exu, items: constrained_spring_mass(exu, items, first_order=True),
     lambda exu, mbs: mbs.SolveDynamic(settings_for(exu, file__binary=True, file__writePeriod=0.025),
                                       solverType=exu.DynamicSolverType.TrapezoidalIndex2), (5, 15)),
    (lambda exu, items: constrained_spring_mass(exu, items, first_order=True),
     lambda exu, mbs: mbs.SolveDynamic(settings_for(
         exu, file__binary=True, file__export__velocities=False, file__export__accelerations=False,
         file__export__ODE1Velocities=False, file__writeInitialValues=False),
         solverType=exu.DynamicSolverType.TrapezoidalIndex2), (10, 7)),
    (constrained_spring_mass,
     lambda exu, mbs: mbs.SolveDynamic(settings_for(exu, file__binary=True, file__export__algebraicCoordinates=False,
                                                    file__writePeriod=0.0, file__writeInitialValues=False)), (10, 10)),
    (constrained_spring_mass, lambda exu, mbs: static_solve(exu, mbs, file__binary=True), (4, 5))])
def test_binary_file_reads_as_exudyns_in_both_readers(model, solve, shape):
    """Dynamic (with ODE1 coordinates, export flags off, a period of 2.5 steps, without the initial state) and
    static: exudyn's reader gives the same dict for floatframe's file as for exudyn's (data to the solves'
    agreement), floatframe's reader gives exactly exudyn's reader's dict for either file, and the header and footer
    entries are equal but the version, solver title (after its first word) and dates."""
    (our_bytes, ours_by_exudyn, ours_by_ours, our_entries), (their_bytes, theirs_by_exudyn, theirs_by_ours,
                                                             their_entries) = binary_files_of_both(model, solve)
    assert_same_loaded(ours_by_ours, ours_by_exudyn)
    assert_same_loaded(theirs_by_ours, theirs_by_exudyn)
    assert ours_by_exudyn["data"].shape == theirs_by_exudyn["data"].shape == shape
    assert list(ours_by_exudyn["columnsExported"]) == list(theirs_by_exudyn["columnsExported"])
    assert ours_by_exudyn["nColumns"] == theirs_by_exudyn["nColumns"] == shape[1] - 1
    np.testing.assert_allclose(ours_by_exudyn["data"][:, 0], theirs_by_exudyn["data"][:, 0], rtol=0, atol=1e-12)
    scale = np.maximum(np.abs(theirs_by_exudyn["data"]).max(axis=0), 1.0)
    assert np.max(np.abs(ours_by_exudyn["data"] - theirs_by_exudyn["data"]) / scale) < 1e-8

    assert {key: value for key, value in our_entries.items() if key not in WRITER_ENTRIES + ("data",)} == \
        {key: value for key, value in their_entries.items() if key not in WRITER_ENTRIES + ("data",)}
    assert our_entries["solver"].split(" ", 1) == ["floatframe.exudyn", their_entries["solver"].split(" ", 1)[1]]
    assert (our_entries["version"], their_entries["version"]) == (f"floatframe {floatframe.__version__}", "1.13.6")
    assert len(our_entries["started"]) == len(their_entries["started"]) == len("2026-12-05,20:31:02")
    # the footer's flags and step count; the Newton counts are each solver's own
    assert our_entries["footer"]["solverInfo"][:5] == their_entries["footer"]["solverInfo"][:5]
    assert our_entries["footer"]["solverInfo"][4] == (3 if shape == (4, 5) else 10)
    # the type sizes block is Exudyn's byte for byte; the files differ in length by the writer's strings alone
    assert our_bytes[:16] == their_bytes[:16] == b"EXUBIN\n\x04\x08\x08" + bytes(6)
    written = sum(len(our_entries[key]) - len(their_entries[key]) for key in ("version", "solver"))
    assert len(our_bytes) - len(their_bytes) == written


def test_binary_file_below_8_digits_holds_float32_as_exudyns():
    """solution.precision 6: both codes store the reals as float32 (type size 4), read back as float32 arrays that
    agree to float32's resolution."""
    files = binary_files_of_both(constrained_spring_mass, lambda exu, mbs: mbs.SolveDynamic(
        settings_for(exu, file__binary=True, file__writePeriod=0.05, precision=6)))
    (our_bytes, ours_by_exudyn, ours_by_ours, _), (their_bytes, theirs_by_exudyn, theirs_by_ours, _) = files
    assert our_bytes[8] == their_bytes[8] == 4
    assert_same_loaded(ours_by_ours, ours_by_exudyn)
    assert_same_loaded(theirs_by_ours, theirs_by_exudyn)
    assert ours_by_exudyn["data"].dtype == np.float32 and ours_by_exudyn["data"].shape == (3, 11)
    scale = np.maximum(np.abs(theirs_by_exudyn["data"]).max(axis=0), 1.0)
    assert np.max(np.abs(ours_by_exudyn["data"] - theirs_by_exudyn["data"]) / scale) < 4 * np.finfo(np.float32).eps


def test_binary_file_name_append_and_information_as_exudyns():
    """A name without a dot gets '.sol'; append does not apply to the binary file (a second solve rewrites it);
    the information string is stored with its line break; both as exudyn."""
    def solve_twice(exu, mbs):
        for _ in range(2):
            mbs.SolveDynamic(settings_for(exu, file__binary=True, file__writePeriod=0.05, file__append=True,
                                          file__name="other/run", file__information="two\nlines"))

    files = binary_files_of_both(constrained_spring_mass, solve_twice, path="other/run.sol")
    for content, by_exudyn, by_ours, entries in files:
        assert by_exudyn["nRows"] == by_ours["nRows"] == 3
        assert entries["information"] == "two\nlines"
        assert content.count(b"EXUBIN") == 1
    np.testing.assert_allclose(files[0][1]["data"][:, 1:], files[1][1]["data"][:, 1:], rtol=0,
                               atol=1e-8 * np.abs(files[1][1]["data"]).max())


def test_binary_file_without_header_or_footer_as_exudyns():
    """writeFooter False: no end marker, read with a warning by floatframe's reader; writeHeader False: both files
    are the rows and the footer alone (the same length), which LoadSolutionFile refuses naming the missing header."""
    with pytest.warns(RuntimeWarning, match="ends after its 3 rows without the end marker"):
        files = binary_files_of_both(constrained_spring_mass, lambda exu, mbs: mbs.SolveDynamic(
            settings_for(exu, file__binary=True, file__writePeriod=0.05, file__writeFooter=False)))
    (our_bytes, ours_by_exudyn, _, our_entries), (their_bytes, theirs_by_exudyn, _, their_entries) = files
    assert our_entries["footer"] is None and their_entries["footer"] is None
    assert len(our_bytes) - len(their_bytes) == sum(len(our_entries[key]) - len(their_entries[key])
                                                    for key in ("version", "solver"))
    assert ours_by_exudyn["nRows"] == theirs_by_exudyn["nRows"] == 3

    lengths = []
    for exu, items in (FLOATFRAME, EXUDYN):
        mbs, _ = constrained_spring_mass(exu, items)
        mbs.SolveDynamic(settings_for(exu, file__binary=True, file__writePeriod=0.05, file__writeHeader=False))
        with open(BINARY_PATH, "rb") as stream:
            content = stream.read()
        assert not content.startswith(b"EXUBIN")
        lengths.append(len(content))
        with pytest.raises(ValueError, match="neither text nor a binary solution file with its header"):
            ffutilities.LoadSolutionFile(BINARY_PATH, verbose=False)
    # 3 rows of (count, 11 float64) and the footer: -1, two strings, 7 indices, 'EXUEND'
    assert lengths[0] == lengths[1] == 3 * (4 + 11 * 8) + 4 + (4 + 20) + (4 + 19) + (4 + 7 * 4) + (4 + 6)


def test_cut_off_binary_file_is_refused_or_read_to_its_last_whole_row(tmp_path):
    """A binary file cut within a row (a solve killed while writing): floatframe's reader refuses it naming the row;
    with safeMode it reads the whole rows before the cut, with a warning, as exudyn's reader does always; a file
    cut within its header is refused."""
    mbs, _ = constrained_spring_mass(*FLOATFRAME)
    mbs.SolveDynamic(settings_for(ffexu, file__binary=True))
    with open(BINARY_PATH, "rb") as stream:
        content = stream.read()
    footer = 4 + (4 + 20) + (4 + 19) + (4 + 7 * 4) + (4 + 6)
    cut = tmp_path / "cut.sol"
    cut.write_bytes(content[:len(content) - footer - 5 * 8])   # row 10 keeps 6 of its 11 reals
    with pytest.raises(ValueError, match="cut off within row 10 .*safeMode=True reads the 10 whole rows"):
        ffutilities.LoadSolutionFile(str(cut), verbose=False)
    with pytest.warns(RuntimeWarning, match="ends after its 10 rows without the end marker"):
        loaded = ffutilities.LoadSolutionFile(str(cut), verbose=False, safeMode=True)
    by_exudyn = exutilities.LoadBinarySolutionFile(str(cut), verbose=False)
    assert loaded["nRows"] == by_exudyn["nRows"] == 10
    np.testing.assert_array_equal(loaded["data"], by_exudyn["data"])
    np.testing.assert_array_equal(loaded["data"], ffutilities.LoadSolutionFile(BINARY_PATH, verbose=False)["data"][:10])
    assert ffutilities.LoadBinarySolutionFile(BINARY_PATH, maxRows=4, verbose=False)["nRows"] == 4
    cut.write_bytes(content[:60])
    with pytest.raises(ValueError, match="within its header"):
        ffutilities.LoadBinarySolutionFile(str(cut), verbose=False)
