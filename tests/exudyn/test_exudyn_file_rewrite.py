"""Output files that exist already are rewritten in place (``floatframe.exudyn._solution_file.RewrittenFile``),
with the same bytes as a file written anew.

Claims: the coordinates solution file (text and binary) and a sensor file written over an existing file, longer or
shorter than the new content, hold exactly the bytes of the same solve written to a new path (the date and cpu-time
lines aside); a solution file opened and closed before anything is written is left empty, as opening it with "w"
leaves it; with ``append`` the earlier content stays in front; ``stored_rows`` picks the stored states of the
written steps as the membership test it replaces, ``storage_period`` is the gcd of the steps between the first and
the last; ``writable`` (the sensor files' check before the solve) tells files and folders that can be written.
"""
import re

import numpy as np
import pytest

import floatframe.exudyn as exu
from floatframe.exudyn import itemInterface as items
from floatframe.exudyn._output_steps import storage_period, stored_rows, written_steps
from floatframe.exudyn._solution_file import SolutionFile
from floatframe.exudyn._solve import writable

VARYING = re.compile(rb"\d{4}-\d\d-\d\d,\d\d:\d\d:\d\d|cpuTime=[^,]*")   # dates, the solve's time


@pytest.fixture(autouse=True)
def in_tmp_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def spring_mass(sensor_file=""):
    """A mass point on a spring under gravity with a position sensor (written to ``sensor_file`` where given)."""
    mbs = exu.SystemContainer().AddSystem()
    node = mbs.AddNode(items.NodePoint(referenceCoordinates=[0, 0, 0], initialVelocities=[1, 2, 0]))
    mbs.AddObject(items.ObjectMassPoint(mass=2.0, nodeNumber=node))
    marker = mbs.AddMarker(items.MarkerNodePosition(nodeNumber=node))
    mbs.AddLoad(items.LoadForceVector(markerNumber=marker, loadVector=[0, -9.81, 0]))
    anchor = mbs.AddMarker(items.MarkerBodyPosition(bodyNumber=mbs.AddObject(items.ObjectGround()),
                                                    localPosition=[0, 1, 0]))
    mbs.AddObject(items.ObjectConnectorSpringDamper(markerNumbers=[anchor, marker], stiffness=100, damping=1,
                                                    referenceLength=0.5))
    mbs.AddSensor(items.SensorNode(nodeNumber=node, outputVariableType=exu.OutputVariableType.Position,
                                   writeToFile=bool(sensor_file), fileName=sensor_file))
    mbs.Assemble()
    return mbs


def solve(name, binary=False, append=False, sensor_file=""):
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = 20
    settings.timeIntegration.endTime = 0.2
    settings.timeIntegration.verboseMode = 0
    settings.solution.file.name = name
    settings.solution.file.binary = binary
    settings.solution.file.append = append
    spring_mass(sensor_file).SolveDynamic(settings)


def content(path) -> bytes:
    with open(path, "rb") as stream:
        return VARYING.sub(b"", stream.read())


@pytest.mark.parametrize("binary", [False, True])
@pytest.mark.parametrize("old_size", [1, 100_000])
def test_solution_file_over_an_existing_file_holds_the_bytes_of_a_new_one(tmp_path, binary, old_size):
    solve("new.dat", binary)
    (tmp_path / "old.dat").write_bytes(b"x" * old_size)
    solve("old.dat", binary)
    assert 1 < (tmp_path / "new.dat").stat().st_size < 100_000
    assert content("old.dat") == content("new.dat")


def test_sensor_file_over_an_existing_file_holds_the_bytes_of_a_new_one(tmp_path):
    solve("a.txt", sensor_file="new_sensor.txt")
    for old_size in (1, 100_000):
        (tmp_path / "old_sensor.txt").write_bytes(b"y" * old_size)
        solve("a.txt", sensor_file="old_sensor.txt")
        assert (tmp_path / "old_sensor.txt").read_bytes() == (tmp_path / "new_sensor.txt").read_bytes()
    assert (tmp_path / "new_sensor.txt").read_bytes().count(b"\n") == 6 + 21   # header, then t = 0, 0.01, ..., 0.2


def test_solution_file_closed_before_anything_is_written_is_empty(tmp_path):
    (tmp_path / "run.txt").write_text("an earlier run\n" * 100)
    settings = exu.SimulationSettings()
    settings.solution.file.name = "run.txt"
    file = SolutionFile.of(settings, "implicit second order time integration", 10)
    file.close()
    assert (tmp_path / "run.txt").read_bytes() == b""


def test_append_keeps_the_earlier_content_in_front(tmp_path):
    (tmp_path / "run.txt").write_text("#an earlier run\n")
    solve("run.txt", append=True)
    once = (tmp_path / "run.txt").read_text()
    assert once.startswith("#an earlier run\n#floatframe.exudyn implicit")
    solve("run.txt", append=True)
    assert (tmp_path / "run.txt").read_text().count("#floatframe.exudyn implicit") == 2


@pytest.mark.parametrize("n_steps", [1, 7, 100])
@pytest.mark.parametrize("period", [0.001, 0.002, 0.0025, 0.01])
@pytest.mark.parametrize("initial", [True, False])
def test_stored_rows_are_the_stored_states_of_the_written_steps(n_steps, period, initial):
    steps = written_steps(n_steps, 0.001, period, initial)
    for stored_every in (1, 2, 5, n_steps):
        for n_rows in {n_steps // stored_every + 1, max(n_steps // stored_every, 1), 1}:   # (a solve cut short)
            membership = np.isin(np.arange(n_rows) * stored_every, steps)
            membership[-1] = True
            assert np.array_equal(stored_rows(steps, n_rows, stored_every), np.flatnonzero(membership))


@pytest.mark.parametrize("n_steps", [1, 7, 100])
def test_storage_period_is_the_gcd_of_the_inner_steps(n_steps):
    for periods in [(0.001,), (0.002, 0.003), (0.0025,), (0.004, 0.006), (0.5,)]:
        step_sets = [written_steps(n_steps, 0.001, period, True) for period in periods]
        inner = np.concatenate([steps[(steps > 0) & (steps < n_steps)] for steps in step_sets])
        expected = int(np.gcd.reduce(inner)) if inner.size else n_steps
        assert storage_period(n_steps, *step_sets) == expected


def test_writable_tells_files_and_folders_that_can_be_written_from_those_that_cannot(tmp_path):
    (tmp_path / "a_file.txt").write_text("x")
    assert writable(str(tmp_path / "a_file.txt"))
    assert writable(str(tmp_path / "new.txt"))                  # a new file in a folder that exists
    assert not writable(str(tmp_path / "missing" / "new.txt"))  # (check_sensor_files then makes the folder)
    assert not writable(str(tmp_path / "a_file.txt" / "new.txt"))
    assert not writable(str(tmp_path))                          # a folder is no file


def test_sensor_file_in_a_folder_that_does_not_exist_yet_is_written_there(tmp_path):
    solve("a.txt", sensor_file="made/here/sensor.txt")
    solve("a.txt", sensor_file="sensor.txt")
    assert (tmp_path / "made" / "here" / "sensor.txt").read_bytes() == (tmp_path / "sensor.txt").read_bytes()


def test_a_device_as_solution_file_is_written_without_cutting_it():
    solve("/dev/null")   # (a character device has no length to cut it to)
    solve("/dev/null", binary=True)
