"""Claims about output paths (floatframe.paths): every command and function that writes checks its paths before
the work; a place it cannot write is an error that names the path and the cause, on the command line a usage
error with exit status 2; the check itself creates nothing."""
import os
import sys
from pathlib import Path

import numpy as np
import pytest

import floatframe.compare
import floatframe.export
from floatframe.cli import main
from floatframe.paths import OutputPathError, check_output_file, check_output_folder


@pytest.fixture
def regular_file(tmp_path):
    """A regular file, tmp_path/notes.txt, where a folder would be needed."""
    path = tmp_path / "notes.txt"
    path.write_text("not a folder\n")
    return path


@pytest.fixture
def unwritable_folder(tmp_path):
    """An existing folder in which no file can be created: a folder without write permission, or, as root (who
    writes regardless of permissions), Linux's /sys, which refuses new files to everyone."""
    if os.geteuid() != 0:
        folder = tmp_path / "locked"
        folder.mkdir()
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)
    elif sys.platform.startswith("linux") and Path("/sys").is_dir():
        yield Path("/sys")
    else:
        pytest.skip("running as root on a system without /sys: no folder refuses files to this user")


def test_a_path_under_a_regular_file_names_the_file(regular_file):
    with pytest.raises(OutputPathError, match=f"write_csv: cannot write the file '{regular_file}/run/s.csv': "
                                              f"'{regular_file}' is a file, not a folder"):
        check_output_file(regular_file / "run" / "s.csv", "write_csv")
    with pytest.raises(OutputPathError, match=f"'{regular_file}' is a file, not a folder"):
        check_output_folder(regular_file / "plots")


def test_a_folder_where_a_file_is_wanted_and_a_file_where_a_folder_is_wanted(tmp_path, regular_file):
    with pytest.raises(OutputPathError, match=f"cannot write the file '{tmp_path}': it is a folder; give a file name"):
        check_output_file(tmp_path)
    with pytest.raises(OutputPathError, match=f"cannot write in the folder '{regular_file}': it is a file, "
                                              "not a folder"):
        check_output_folder(regular_file)


def test_a_folder_that_refuses_files_names_the_folder_and_the_systems_reason(unwritable_folder):
    with pytest.raises(OutputPathError, match=f"no file or folder can be created in '{unwritable_folder}' "
                                              r"\(Permission denied\)"):
        check_output_file(unwritable_folder / "floatframe-run" / "s.csv")
    with pytest.raises(OutputPathError, match=r"no file can be created in it \(Permission denied\)"):
        check_output_folder(unwritable_folder)


def test_writable_paths_pass_and_the_check_creates_nothing(tmp_path):
    assert check_output_file(tmp_path / "a" / "b" / "s.csv") == tmp_path / "a" / "b" / "s.csv"
    assert check_output_folder(tmp_path / "plots") == tmp_path / "plots"
    assert check_output_folder(tmp_path) == tmp_path
    existing = tmp_path / "old.csv"
    existing.write_text("t,value0\n")
    assert check_output_file(existing) == existing
    assert existing.read_text() == "t,value0\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["old.csv"]


def test_the_output_path_error_is_an_os_error_as_the_error_of_writing_would_be(regular_file):
    with pytest.raises(OSError):
        check_output_file(regular_file / "s.csv")


# --- every writing function checks before its work ---------------------------------------------------------------
def test_write_csv_refuses_a_path_under_a_file(regular_file):
    from floatframe.solvers.result import SimulationResult, SolverStatistics

    empty = np.zeros((2, 1))
    result = SimulationResult(np.array([0.0, 1.0]), empty, empty, empty, empty, [np.ones((2, 3))], SolverStatistics())
    with pytest.raises(OutputPathError, match=f"write_csv: cannot write the file '{regular_file}/s.csv': "
                                              f"'{regular_file}' is a file"):
        result.write_csv(regular_file / "s.csv", 0)


def test_the_paraview_export_checks_before_computing_a_step(regular_file, tmp_path, monkeypatch):
    def computed(*arguments):
        raise AssertionError("the mesh motion was computed before the path was checked")

    monkeypatch.setattr(floatframe.export, "mesh_node_trajectories", computed)
    monkeypatch.setattr(floatframe.export, "frame_and_deformation", computed)
    with pytest.raises(OutputPathError, match=f"write_paraview: cannot write in the folder '{regular_file}/vtk'"):
        floatframe.export.write_paraview(regular_file / "vtk" / "beam", None, None, {"hexahedron": [range(8)]}, None)
    (tmp_path / "beam.pvd").mkdir()
    with pytest.raises(OutputPathError, match="beam.pvd': it is a folder; give a file name"):
        floatframe.export.write_paraview(tmp_path / "beam", None, None, {"hexahedron": [range(8)]}, None)
    (tmp_path / "beam.pvd.npz").mkdir()
    with pytest.raises(OutputPathError, match=f"save_result: cannot write the file '{tmp_path}/beam.pvd.npz'"):
        floatframe.export.save_result(tmp_path / "beam.pvd", None, None, {"tetra": [[0, 1, 2, 3]]}, None)


def test_the_comparison_checks_its_folder_before_loading_the_model(regular_file, monkeypatch):
    def loaded(*arguments, **options):
        raise AssertionError("the model was loaded before the output folder was checked")

    monkeypatch.setattr(floatframe.compare, "load_model", loaded)
    with pytest.raises(OutputPathError, match=f"run_comparison: cannot write the file '{regular_file}/out/"
                                              "comparison.csv': "):
        floatframe.compare.run_comparison("pendulum", out_dir=regular_file / "out")


def test_the_pictures_check_before_drawing(regular_file):
    from floatframe.pictures import animate, plot_sensor, write_mode_grid

    with pytest.raises(OutputPathError, match=f"animate: cannot write the file '{regular_file}/a.gif'"):
        animate([], regular_file / "a.gif")
    with pytest.raises(OutputPathError, match=f"plot_sensor: cannot write the file '{regular_file}/p.png'"):
        plot_sensor(regular_file.with_name("missing.csv"), regular_file / "p.png")
    with pytest.raises(OutputPathError, match=f"write_mode_grid: cannot write the file '{regular_file}/m.png'"):
        write_mode_grid(regular_file / "m.png", None, None, None, None)


# --- the command line: a usage error, exit status 2, before any model is built ------------------------------------
def usage_error(capsys, argv) -> str:
    """Run the command line, expect argparse's exit 2 with a usage line; returns the error line."""
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    error = capsys.readouterr()
    assert error.out == "" and error.err.startswith(f"usage: floatframe {argv[0]}")
    return error.err.splitlines()[-1]


@pytest.mark.parametrize("argv, message", [
    (["run", "rotor-disc", "--output", "{file}/out"],
     "floatframe run: error: argument --output: cannot write in the folder '{file}/out': '{file}' is a file, "
     "not a folder"),
    (["run", "slider-crank", "--output", "{file}"],
     "floatframe run: error: argument --output: cannot write in the folder '{file}': it is a file, not a folder"),
    (["run", "bracket", "--save", "{file}/bracket.npz"],
     "floatframe run: error: argument --save: cannot write the file '{file}/bracket.npz': '{file}' is a file"),
    (["run", "rotor-disc", "--save", "{folder}"],
     "floatframe run: error: argument --save: cannot write the file '{folder}.npz': it is a folder; give a "
     "file name"),
    (["compare", "pendulum", "--out", "{file}/cmp"],
     "floatframe compare: error: argument --out: cannot write in the folder '{file}/cmp': '{file}' is a file"),
    (["ocp", "slew", "--output", "{file}/slew"],
     "floatframe ocp slew: error: argument --output: cannot write in the folder '{file}/slew': '{file}' is a file"),
    (["ocp", "arm", "--output", "{file}"],
     "floatframe ocp arm: error: argument --output: cannot write in the folder '{file}': it is a file"),
    (["animate", "{file}", "--output", "{file}/rotor.gif"],
     "floatframe animate: error: argument --output: cannot write the file '{file}/rotor.gif': '{file}' is a file"),
    (["animate", "{folder}.gif"],
     "floatframe animate: error: cannot write the file '{folder}.gif': it is a folder; give a file name"),
    (["plot", "{file}", "--output", "{folder}"],
     "floatframe plot: error: argument --output: cannot write the file '{folder}': it is a folder; give a file name"),
    (["plot", "{file}", "--output", "{file}/sensor.png"],
     "floatframe plot: error: argument --output: cannot write the file '{file}/sensor.png': '{file}' is a file"),
    (["modes", "rotor-disc", "--output", "{file}/modes.png"],
     "floatframe modes: error: argument --output: cannot write the file '{file}/modes.png': '{file}' is a file"),
])
def test_an_unwritable_output_is_a_usage_error_naming_the_path_and_the_cause(capsys, tmp_path, regular_file, argv,
                                                                            message):
    for name in ("taken", "taken.npz", "taken.gif"):
        (tmp_path / name).mkdir()
    places = {"file": str(regular_file), "folder": str(tmp_path / "taken")}
    argv = [item.format(**places) for item in argv]
    assert usage_error(capsys, argv).startswith(message.format(**places))


def test_an_unwritable_folder_is_a_usage_error_on_the_command_line(capsys, unwritable_folder):
    line = usage_error(capsys, ["run", "rotor-disc", "--output", str(unwritable_folder / "floatframe-run")])
    assert line == (f"floatframe run: error: argument --output: cannot write in the folder "
                    f"'{unwritable_folder}/floatframe-run': no file or folder can be created in '{unwritable_folder}' "
                    "(Permission denied)")


def test_the_default_outputs_of_modes_and_plot_are_checked_too(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("output").write_text("a file where modes puts its folder\n")
    assert usage_error(capsys, ["modes", "rotor-disc"]) == (
        "floatframe modes: error: cannot write the file 'output/rotor_disc_modes.png': 'output' is a file, not a "
        "folder")
    Path("run.csv").write_text("t,value0\n0,1\n1,2\n")
    Path("run_sensor0.png").mkdir()
    assert usage_error(capsys, ["plot", "run.csv"]) == (
        "floatframe plot: error: cannot write the file 'run_sensor0.png': it is a folder; give a file name")


@pytest.mark.parametrize("argv, taken", [
    (["run", "rotor-disc", "--steps", "1", "--output", "{out}"], "rotor_disc_tisserand.png"),
    (["run", "rotor-disc", "--steps", "1", "--paraview", "--output", "{out}"], "rotor_disc_tisserand.pvd"),
    (["run", "slider-crank", "--steps", "1", "--output", "{out}"], "slider_crank_tip.csv"),
    (["compare", "pendulum", "--out", "{out}"], "work_precision.png"),
    (["ocp", "arm", "--output", "{out}"], "arm.csv"),
])
def test_a_folder_in_the_place_of_an_output_file_is_found_before_the_solve(capsys, tmp_path, argv, taken):
    (tmp_path / taken).mkdir()
    line = usage_error(capsys, [item.format(out=tmp_path) for item in argv])
    assert line.endswith(f"cannot write the file '{tmp_path / taken}': it is a folder; give a file name")
