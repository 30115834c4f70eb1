"""Claims about the pictures' command line: run --save, then animate, plot and modes exit 0 and write their
files (headless, also as a fresh process without a display); wrong input is a usage error or a message
that says what to do; a missing optional package names the extra."""
import os
import subprocess
import sys
from pathlib import Path

import imageio.v3 as iio
import numpy as np
import pytest

from floatframe.cli import main
from floatframe.export import load_result

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def rotor_run(tmp_path_factory):
    """``floatframe run rotor-disc --steps 4 --save``: the saved run's path."""
    folder = tmp_path_factory.mktemp("rotor")
    assert main(["run", "rotor-disc", "--steps", "4", "--output", str(folder), "--save", str(folder / "rotor")]) == 0
    return folder / "rotor.npz"


def test_run_save_writes_a_run_with_stress_and_the_sensor(rotor_run):
    saved = load_result(rotor_run)
    assert saved.model == "rotor-disc" and saved.t.shape == (5,)
    assert saved.stress.shape == (5, 245, 6) and saved.deformation.shape == (5, 245, 3)
    assert np.abs(saved.stress[-1]).max() > 1e5                # the spinning unbalanced rotor is stressed
    csv = np.loadtxt(rotor_run.with_name("rotor_disc_tisserand_sensor.csv"), delimiter=",", skiprows=1)
    np.testing.assert_allclose(saved.sensor(0), csv[:, 1:], rtol=1e-15)


def test_animate_plot_and_modes_exit_0_and_write_their_files(rotor_run, tmp_path, capsys):
    gif = tmp_path / "rotor.gif"
    assert main(["animate", str(rotor_run), "--output", str(gif), "--max-frames", "3", "--color", "von-mises",
                 "--scale", "50"]) == 0
    assert iio.imread(gif, index=None).shape == (3, 480, 640, 3)
    assert "3 frames, deformation x 50, colors von-mises from 0 to" in capsys.readouterr().out
    assert main(["plot", str(rotor_run), "--sensor", "0"]) == 0
    plot = rotor_run.with_name("rotor_sensor0.png")
    assert plot.stat().st_size > 10_000 and iio.imread(plot).shape[:2] == (480, 840)
    modes = tmp_path / "modes.png"
    assert main(["modes", "rotor-disc", "--count", "4", "--columns", "2", "--output", str(modes)]) == 0
    assert iio.imread(modes).shape[:2] == (720, 800)                 # 2 x 2 grid of 4.0 x 3.6 in at 100 dpi
    printed = capsys.readouterr().out
    assert f"wrote {modes}: modes 1 to 4, frequencies [Hz]: [145.22 145.22 158.65 159.17]" in printed


def test_a_mechanism_saves_its_flexible_link(tmp_path):
    from floatframe.fem.stress import nodal_stresses
    from floatframe.models.flexible_link import ALUMINIUM

    assert main(["run", "slider-crank", "--steps", "10", "--output", str(tmp_path), "--save",
                 str(tmp_path / "crank.npz")]) == 0
    saved = load_result(tmp_path / "crank.npz")
    assert saved.model == "slider-crank" and saved.t.shape == (11,)
    assert saved.modal_coordinates.shape[1] == 4 + 6                 # 4 fixed-interface + 6 static modes
    from floatframe.export import mesh_from_cells

    mesh = mesh_from_cells(saved.local_positions, saved.cells)
    expected = nodal_stresses(mesh, saved.deformation, ALUMINIUM["youngs_modulus"], ALUMINIUM["poissons_ratio"])
    np.testing.assert_allclose(saved.stress, expected, atol=1e-9 * np.abs(expected).max())
    assert np.abs(expected).max() > 1e3
    tip = np.loadtxt(tmp_path / "slider_crank_tip.csv", delimiter=",", skiprows=1)[:, 1:]
    assert any(values.shape == tip.shape and np.allclose(values, tip, rtol=1e-15, atol=0) for values in saved.sensors)


def test_modes_of_a_mesh_file(tmp_path, capsys, monkeypatch):
    from floatframe.fem import block_mesh, eigenmodes, linear_elastic_matrices

    monkeypatch.chdir(tmp_path)   # the default output folder is ./output
    mesh = block_mesh(1.0, 0.1, 0.1, 6, 1, 1, element="Tet4")
    mesh.to_meshio().write(tmp_path / "bar.vtu")
    assert main(["modes", str(tmp_path / "bar.vtu"), "--count", "2", "--youngs-modulus", "7e10",
                 "--density", "2700"]) == 0
    mass, stiffness = linear_elastic_matrices(mesh, 7e10, 0.3, 2700.0)
    frequencies = eigenmodes(mass, stiffness, 2).frequencies_hz
    assert np.array2string(frequencies, precision=2) in capsys.readouterr().out
    assert (tmp_path / "output" / "bar_modes.png").stat().st_size > 10_000


def test_animate_runs_headless_as_a_fresh_process(rotor_run, tmp_path):
    environment = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "MPLBACKEND")}
    environment["PYTHONPATH"] = str(ROOT)
    mp4 = tmp_path / "rotor.mp4"
    completed = subprocess.run([sys.executable, "-m", "floatframe", "animate", str(rotor_run), "--output", str(mp4)],
                               capture_output=True, text=True, env=environment, timeout=300)
    assert completed.returncode == 0, completed.stderr
    assert iio.imread(mp4, index=None).shape[0] == 5


@pytest.mark.parametrize("argv, message", [
    (["animate", "run.npz", "--output", "run.avi"], "argument --output: must end in .gif or .mp4, got 'run.avi'"),
    (["animate", "run.npz", "--scale", "0"], "argument --scale: must be a positive number, got 0"),
    (["animate", "run.npz", "--color", "speed"], "argument --color: invalid choice: 'speed'"),
    (["modes", "rotor-dsc"], "'rotor-dsc' is neither a built-in model (rotor-disc) nor a mesh file"),
    (["modes", "rotor-disc", "--count", "0"], "argument --count: must be a positive integer, got 0"),
])
def test_wrong_arguments_are_usage_errors(capsys, argv, message):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith(f"usage: floatframe {argv[0]}") and message in error


def test_wrong_files_and_sensors_say_what_to_do(rotor_run, tmp_path):
    with pytest.raises(SystemExit, match="floatframe animate: .*missing.npz: no such file .*--save"):
        main(["animate", str(tmp_path / "missing.npz")])
    with pytest.raises(SystemExit,
                       match="floatframe plot: .*no sensor 3; the run has 1 sensors: 0 'SensorSuperElement'"):
        main(["plot", str(rotor_run), "--sensor", "3"])
    with pytest.raises(SystemExit, match="'rotor-disc' is a model, not a saved run; run and save it first: "
                                         "floatframe run rotor-disc --save output/run.npz, then floatframe animate"):
        main(["animate", "rotor-disc"])


def test_animate_without_imageio_names_the_extra(rotor_run, tmp_path, monkeypatch):
    for name in [name for name in sys.modules if name == "imageio" or name.startswith("imageio.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "imageio", None)
    with pytest.raises(SystemExit) as exit_info:
        main(["animate", str(rotor_run), "--output", str(tmp_path / "rotor.gif")])
    assert "needs the optional package 'imageio'" in str(exit_info.value.code)
    assert "pip install 'floatframe[pictures]'" in str(exit_info.value.code)


@pytest.mark.parametrize("argv, message", [
    (["modes", "rotor-disc", "--count", "100000"], "eigenmodes: 100000 modes and 6 rigid-body modes asked for, but the "
                                                   "mesh has only 735 coordinates (at most 729 elastic modes)"),
    (["modes", "rotor-disc", "--poissons-ratio", "0.5"], "argument --poissons-ratio: must be a number in (-1, 0.5), "
                                                         "got 0.5"),
])
def test_arguments_the_model_cannot_take_are_usage_errors(capsys, monkeypatch, tmp_path, argv, message):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"floatframe modes: error: {message}"


@pytest.mark.parametrize("content, message", [
    ("t,value0\n0,1\n1\n", "{file}, line 3: not a sensor CSV row (2 numbers, as the header has names): '1'"),
    ("t,value0\n0,one\n", "{file}, line 2: not a sensor CSV row (2 numbers, as the header has names): '0,one'"),
    (None, "{file}: no such file"),
])
def test_a_sensor_csv_that_cannot_be_read_names_the_file_and_the_line(tmp_path, content, message):
    csv = tmp_path / "sensor.csv"
    if content is not None:
        csv.write_text(content)
    with pytest.raises(SystemExit) as exit_info:
        main(["plot", str(csv), "--output", str(tmp_path / "sensor.png")])
    assert exit_info.value.code == "floatframe plot: " + message.format(file=csv)


def test_a_file_that_is_no_mesh_names_the_file(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("a bracket, 3 cm wide\n")
    with pytest.raises(SystemExit) as exit_info:
        main(["modes", str(notes), "--output", str(tmp_path / "modes.png")])
    assert str(exit_info.value.code).startswith(f"floatframe modes: {notes}: not a")
    assert "Could not deduce file format" in str(exit_info.value.code)


def test_a_frame_rate_a_gif_or_mp4_cannot_store_is_refused_before_drawing(capsys, tmp_path):
    from floatframe.pictures import animate

    with pytest.raises(SystemExit) as exit_info:
        main(["animate", str(tmp_path / "run.npz"), "--fps", "1e-9"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == ("floatframe animate: error: argument --fps: must be a number "
                                                        "from 0.01 to 1000, got 1e-9")
    with pytest.raises(ValueError, match="animate: fps must be from 0.01 to 1000 frames per second, got 0.001"):
        animate([], tmp_path / "run.gif", fps=0.001)


def test_a_folder_given_as_the_saved_run_is_named_as_a_folder(tmp_path):
    with pytest.raises(SystemExit) as exit_info:
        main(["plot", str(tmp_path)])
    assert exit_info.value.code == (f"floatframe plot: {tmp_path}: a folder, not a saved run (a .npz file from "
                                    "'floatframe run MODEL --save RUN.npz')")
