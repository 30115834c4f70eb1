"""Claims about missing optional packages: every command that needs one ends in one line that names the package and
the extra to install, and exit status 1, never a traceback (the package is made unimportable with a None entry in
sys.modules, which makes its import raise ImportError)."""
import subprocess
import sys
from pathlib import Path

import pytest

from floatframe.cli import main
from floatframe.optional import MissingDependencyError, missing_package, require

ROOT = Path(__file__).resolve().parents[1]


def hide(monkeypatch, *packages):
    """Make ``packages`` and their submodules unimportable for this test."""
    for name in [name for name in sys.modules if name.split(".")[0] in packages]:
        monkeypatch.setitem(sys.modules, name, None)
    for name in packages:
        monkeypatch.setitem(sys.modules, name, None)


def failure(argv) -> str:
    """Run the command line, expect the exit of a missing package; returns its message."""
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    message = exit_info.value.code
    assert isinstance(message, str) and "\n" not in message   # SystemExit(str): one line on stderr, status 1
    return message


def test_require_names_the_package_and_the_extra(monkeypatch):
    hide(monkeypatch, "imageio")
    with pytest.raises(MissingDependencyError) as error:
        require("imageio.v3", "writing a GIF", "pictures", package="imageio")
    assert str(error.value) == ("writing a GIF needs the optional package 'imageio', which is not installed; install "
                                "floatframe's 'pictures' extra: pip install 'floatframe[pictures]' (or pip install "
                                "imageio)")


def test_a_package_of_another_library_is_named_with_its_install_line():
    error = missing_package(ModuleNotFoundError("No module named 'h5py'", name="h5py"), "reading mesh.xdmf")
    assert isinstance(error, ImportError)
    assert str(error) == "reading mesh.xdmf needs the package 'h5py', which is not installed: pip install h5py"


def test_run_bracket_without_ngsolve_names_the_ngsolve_extra(monkeypatch, tmp_path):
    hide(monkeypatch, "netgen", "ngsolve")
    assert failure(["run", "bracket", "--output", str(tmp_path)]) == (
        "floatframe run: meshing the bracket with Netgen needs the optional package 'ngsolve', which is not "
        "installed; install floatframe's 'ngsolve' extra: pip install 'floatframe[ngsolve]' (or pip install ngsolve)")


def test_compare_on_a_cluster_without_dask_names_the_study_extra_before_any_run(monkeypatch, tmp_path):
    import floatframe.compare

    def loaded(*arguments, **options):
        raise AssertionError("the model was loaded before the missing package was found")

    monkeypatch.setattr(floatframe.compare, "load_model", loaded)
    hide(monkeypatch, "distributed")
    assert failure(["compare", "pendulum", "--workers", "2", "--out", str(tmp_path)]) == (
        "floatframe compare: compare on a dask cluster (--workers, --scheduler) needs the optional package "
        "'dask[distributed]', which is not installed; install floatframe's 'study' extra: pip install "
        "'floatframe[study]' (or pip install 'dask[distributed]')")


def test_animate_without_imageio_is_one_line_naming_the_pictures_extra(monkeypatch, tmp_path):
    monkeypatch.setattr("floatframe.export.load_result", lambda path: path)
    hide(monkeypatch, "imageio")
    assert failure(["animate", str(tmp_path / "run.npz"), "--output", str(tmp_path / "run.mp4")]).startswith(
        "floatframe animate: floatframe animate (writing GIF and MP4 files) needs the optional package 'imageio', "
        "which is not installed; install floatframe's 'pictures' extra: pip install 'floatframe[pictures]'")


def test_an_mp4_without_imageio_ffmpeg_names_it(monkeypatch, tmp_path):
    monkeypatch.setattr("floatframe.export.load_result", lambda path: path)
    hide(monkeypatch, "imageio_ffmpeg")
    assert failure(["animate", str(tmp_path / "run.npz"), "--output", str(tmp_path / "run.mp4")]) == (
        "floatframe animate: an MP4 animation needs the optional package 'imageio-ffmpeg', which is not installed; "
        "install floatframe's 'pictures' extra: pip install 'floatframe[pictures]' (or pip install imageio-ffmpeg)")


def test_modes_of_an_hdf5_mesh_without_h5py_names_h5py(monkeypatch, tmp_path):
    mesh = tmp_path / "part.xdmf"
    mesh.write_text('<?xml version="1.0"?><Xdmf Version="3.0"><Domain><Grid Name="part"><Topology '
                    'TopologyType="Tetrahedron" NumberOfElements="1"><DataItem Dimensions="1 4" Format="HDF">'
                    'part.h5:/cells</DataItem></Topology><Geometry GeometryType="XYZ"><DataItem Dimensions="4 3" '
                    'Format="HDF">part.h5:/points</DataItem></Geometry></Grid></Domain></Xdmf>')
    hide(monkeypatch, "h5py")
    assert failure(["modes", str(mesh), "--output", str(tmp_path / "modes.png")]) == (
        f"floatframe modes: reading the mesh file {mesh} needs the package 'h5py', which is not installed: "
        "pip install h5py")


def test_the_installed_command_prints_one_line_and_exits_with_status_1(tmp_path):
    script = ("import sys; sys.modules['netgen'] = sys.modules['netgen.csg'] = None; "
              "from floatframe.cli import main; sys.exit(main(sys.argv[1:]))")
    completed = subprocess.run([sys.executable, "-c", script, "run", "bracket", "--output", str(tmp_path)],
                               capture_output=True, text=True, cwd=tmp_path, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert completed.returncode == 1
    assert completed.stderr.splitlines() == [
        "floatframe run: meshing the bracket with Netgen needs the optional package 'ngsolve', which is not "
        "installed; install floatframe's 'ngsolve' extra: pip install 'floatframe[ngsolve]' (or pip install ngsolve)"]
