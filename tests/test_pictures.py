"""Claims about the pictures (floatframe.pictures): animations have one frame per drawn step, the colors are
the colormap of the nodal values, the deformation scale is a round number that draws the deformation at a
visible size, the mode grid's labels are the computed frequencies, the sensor plot draws the sensor, and a
missing optional package is an error that names the extra to install."""
import sys

import imageio.v3 as iio
import numpy as np
import pytest
import scipy.linalg
from matplotlib import colormaps
from matplotlib.colors import Normalize

import floatframe as ff
from floatframe.components.reference_conditions import add_tisserand_frame
from floatframe.export import load_result, save_result
from floatframe.fem import block_mesh, eigenmodes, linear_elastic_matrices
from floatframe.pictures import (COLORINGS, MissingDependencyError, animate, auto_deformation_scale, draw_surface,
                                 frame_figure, mode_figure, node_values, plot_sensor, require, sensor_figure,
                                 surface_of)
from floatframe.pictures.render import read_sensor
from model_helpers import small_beam

MATERIAL = dict(youngs_modulus=2.1e8, poissons_ratio=0.3)


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory):
    """A spinning beam, 10 steps, saved with stresses; also its sensor CSV."""
    system = ff.System()
    body, mesh = small_beam(system, angular_velocity=(0.0, 0.0, 50.0))
    add_tisserand_frame(system, body)
    system.add(ff.SensorSuperElement(body, 7, "Displacement"))
    assembled = system.assemble()
    result = ff.GeneralizedAlpha(0.8).solve(assembled, 0.01, 10)
    folder = tmp_path_factory.mktemp("pictures")
    path = save_result(folder / "beam.npz", assembled, body, {"hexahedron": mesh.elements["Hex8"]}, result,
                       MATERIAL, "beam")
    result.write_csv(folder / "beam_sensor.csv", 0)
    return load_result(path)


def test_gif_has_one_frame_per_drawn_step(saved_run, tmp_path):
    info = animate(saved_run, tmp_path / "beam.gif", max_frames=5, fps=10.0)
    frames = iio.imread(tmp_path / "beam.gif", index=None)
    assert frames.shape == (5, 480, 640, 3) and info["frames"] == 5
    assert iio.immeta(tmp_path / "beam.gif")["duration"] == 100            # ms a frame at 10 frames per second
    np.testing.assert_array_equal(info["steps"], [0, 2, 5, 8, 10])   # first and last stored steps included
    assert frames[0].std() > 10 and np.abs(frames[-1].astype(int) - frames[0]).max() > 50   # drawn, and moving


def test_mp4_has_one_frame_per_stored_step(saved_run, tmp_path):
    pytest.importorskip("imageio_ffmpeg")
    info = animate(saved_run, tmp_path / "beam.mp4", coloring="von-mises", deformation_scale=10.0)
    frames = iio.imread(tmp_path / "beam.mp4", index=None)
    assert frames.shape[0] == info["frames"] == len(saved_run.t) == 11
    metadata = iio.immeta(tmp_path / "beam.mp4")
    assert metadata["codec"] == "h264" and metadata["fps"] == 20.0 and metadata["size"] == (640, 480)
    assert info["scale"] == 10.0
    assert info["range"] == (0.0, pytest.approx(node_values(saved_run, "von-mises").max(), rel=1e-12))


def test_face_colors_are_the_colormap_of_the_mean_corner_value(saved_run):
    values = node_values(saved_run, "deformation")[-1]
    np.testing.assert_allclose(values, np.linalg.norm(saved_run.deformation[-1], axis=1))
    norm = Normalize(0.0, values.max())
    figure, axes = frame_figure(COLORINGS["deformation"], norm)
    triangles = surface_of(saved_run.local_positions, saved_run.cells)
    collection = draw_surface(axes, saved_run.positions()[-1], triangles, values, norm)
    figure.canvas.draw()
    face_values = values[triangles].mean(axis=1)
    np.testing.assert_allclose(collection.get_array(), face_values)
    expected = colormaps["viridis"](norm(face_values))
    drawn = collection.get_facecolor()
    assert drawn.shape == (len(triangles), 4)
    # matplotlib holds the faces in drawing order (back to front): compare the colors as rows sorted alike
    def rows_sorted(colors):
        return colors[np.lexsort(colors[:, :3].T[::-1])]
    np.testing.assert_allclose(rows_sorted(drawn), rows_sorted(expected), atol=1e-12)
    assert face_values.max() > 3 * face_values.min()        # the colors do vary over the body


@pytest.mark.parametrize("value, color", [(1.0, "top"), (0.0, "bottom")])
def test_rendered_pixels_have_the_color_of_the_value(saved_run, value, color):
    norm = Normalize(0.0, 1.0)
    figure, axes = frame_figure("value", norm)
    positions = saved_run.positions()[0]
    triangles = surface_of(saved_run.local_positions, saved_run.cells)
    draw_surface(axes, positions, triangles, np.full(len(positions), value), norm)
    axes.set_xlim(0.0, 0.6), axes.set_ylim(-0.4, 0.2), axes.set_zlim(0.0, 0.6)
    figure.canvas.draw()
    pixels = np.asarray(figure.canvas.buffer_rgba())[:, :450, :3].astype(float) / 255   # left of the colorbar
    target = np.array(colormaps["viridis"](value)[:3])
    other = np.array(colormaps["viridis"](1.0 - value)[:3])
    near = np.linalg.norm(pixels - target, axis=2) < 0.08
    assert near.sum() > 2000, color
    assert (np.linalg.norm(pixels - other, axis=2) < 0.08).sum() == 0


def test_automatic_deformation_scale_is_round_and_draws_five_percent_of_the_size():
    nodes = block_mesh(2.0, 0.5, 0.1, 2, 1, 1).nodes
    size = np.linalg.norm([2.0, 0.5, 0.1])
    for peak in (3e-6, 7e-5, 1.3e-3):
        deformation = np.zeros((3, len(nodes), 3))
        deformation[1, 4, 2] = peak
        scale = auto_deformation_scale(nodes, deformation)
        mantissa = scale / 10 ** np.floor(np.log10(scale))
        assert mantissa in (1.0, 2.0, 5.0)
        assert 0.05 * size / 2.5 < peak * scale <= 0.05 * size
    assert auto_deformation_scale(nodes, np.zeros((2, len(nodes), 3))) == 1.0
    assert auto_deformation_scale(nodes, np.full((1, len(nodes), 3), 0.5)) == 1.0   # already large: true size


def test_mode_grid_labels_are_the_computed_frequencies():
    mesh = block_mesh(1.0, 0.1, 0.05, 8, 1, 1)
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=7e10, poissons_ratio=0.33, density=2700.0)
    modes = eigenmodes(mass, stiffness, 5)
    figure = mode_figure(mesh.nodes, mesh.surface_triangles(), modes.vectors, modes.frequencies_hz, count=4)
    titles = [axes.get_title() for axes in figure.axes]
    assert len(titles) == 4
    eigenvalues = scipy.linalg.eigh(stiffness.toarray(), mass.toarray(), eigvals_only=True)[6:10]
    labelled = [float(title.split(": ")[1].removesuffix(" Hz")) for title in titles]
    assert titles[0].startswith("mode 1: ") and titles[3].startswith("mode 4: ")
    np.testing.assert_allclose(labelled, np.sqrt(eigenvalues) / (2 * np.pi), atol=0.006)
    assert labelled[0] > 10.0


def test_sensor_plot_draws_the_sensor_of_a_run_or_a_csv(saved_run, tmp_path):
    t, values, title, label = read_sensor(saved_run.path, 0)
    np.testing.assert_array_equal(values, saved_run.sensor(0))
    assert title == "beam: sensor 0 'SensorSuperElement'" and label == "Displacement [m]"
    figure = sensor_figure(t, values, title, label)
    assert figure.axes[0].get_ylabel() == "Displacement [m]"
    lines = figure.axes[0].get_lines()
    assert len(lines) == 3
    for component, line in enumerate(lines):
        np.testing.assert_array_equal(line.get_ydata(), values[:, component])
    csv_t, csv_values, _, _ = read_sensor(saved_run.path.with_name("beam_sensor.csv"))
    np.testing.assert_allclose(csv_values, values, rtol=1e-15)
    np.testing.assert_allclose(csv_t, saved_run.t, rtol=1e-15)
    path = plot_sensor(saved_run.path, tmp_path / "sensor.png")
    assert iio.imread(path).shape == (480, 840, 4)


def test_von_mises_coloring_of_a_run_without_stress_says_how_to_get_it(saved_run):
    from dataclasses import replace

    with pytest.raises(ValueError, match="holds no stresses; save it with a material"):
        node_values(replace(saved_run, stress=None), "von-mises")
    with pytest.raises(ValueError, match="unknown coloring 'speed'"):
        node_values(saved_run, "speed")


def colored_columns(frame) -> np.ndarray:
    """The pixel columns left of the colorbar that hold a colored (saturated) pixel: the drawn bodies."""
    pixels = frame[:, :450].astype(int)
    return np.flatnonzero((pixels.max(axis=2) - pixels.min(axis=2) > 60).any(axis=0))


def test_the_flexible_bodies_of_one_run_are_drawn_together(tmp_path, capsys):
    """Two beams of one run, 1 m apart along x, each saved by save_result: animated together (from above, x to the
    right) each frame shows two bodies, i.e. two separate groups of colored pixel columns, on one color scale; one
    beam alone gives one group; files of different times are refused."""
    from dataclasses import replace

    from floatframe.cli import main
    from floatframe.components.ffrf import add_ffrf_body

    system = ff.System()
    beams = [small_beam(system, angular_velocity=(0.0, 0.0, 20.0))]
    mesh = beams[0][1]
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=2.1e11, poissons_ratio=0.3, density=7850.0)
    beams.append((add_ffrf_body(system, mesh.nodes, mass, 1e-3 * stiffness, position=(1.1, -0.2, 0.3),
                                angular_velocity=(0.0, 0.0, -40.0)), mesh))
    for body, _ in beams:
        add_tisserand_frame(system, body)
    assembled = system.assemble()
    result = ff.GeneralizedAlpha(0.8).solve(assembled, 0.01, 10)
    paths = [save_result(tmp_path / f"beam{k}.npz", assembled, body, {"hexahedron": mesh.elements["Hex8"]}, result,
                         MATERIAL, f"beam {k}") for k, (body, _) in enumerate(beams)]
    runs = [load_result(path) for path in paths]
    info = animate(runs, tmp_path / "both.gif", max_frames=3, view=(90.0, -90.0))
    alone = animate(runs[0], tmp_path / "one.gif", max_frames=3, view=(90.0, -90.0))
    assert info["bodies"] == 2 and info["frames"] == 3
    assert info["scale"] == min(auto_deformation_scale(run.local_positions, run.deformation) for run in runs)
    largest = max(node_values(run, "deformation")[info["steps"]].max() for run in runs)
    assert info["range"] == (0.0, pytest.approx(largest, rel=1e-12))
    for frames, groups in ((iio.imread(tmp_path / "both.gif", index=None), 2),
                           (iio.imread(tmp_path / "one.gif", index=None), 1)):
        for frame in frames:
            columns = colored_columns(frame)
            assert columns.size > 20 and np.count_nonzero(np.diff(columns) > 20) + 1 == groups
    assert alone["bodies"] == 1
    with pytest.raises(ValueError, match="stored at different times"):
        animate([runs[0], replace(runs[1], t=2 * runs[1].t)], tmp_path / "bad.gif")
    assert main(["animate", str(paths[0]), str(paths[1]), "--output", str(tmp_path / "cli.gif"), "--max-frames",
                 "2"]) == 0
    assert "2 bodies, 2 frames" in capsys.readouterr().out


def test_animation_of_another_format_is_refused(saved_run, tmp_path):
    with pytest.raises(ValueError, match="GIF or MP4"):
        animate(saved_run, tmp_path / "beam.avi")


@pytest.mark.parametrize("module, package, suffix", [("imageio", "imageio", ".gif"),
                                                     ("imageio_ffmpeg", "imageio-ffmpeg", ".mp4")])
def test_missing_optional_package_names_the_pictures_extra(saved_run, tmp_path, monkeypatch, module, package, suffix):
    for name in list(sys.modules):
        if name == module or name.startswith(module + "."):
            monkeypatch.setitem(sys.modules, name, None)      # import of a None entry raises ImportError
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(MissingDependencyError) as error:
        animate(saved_run, tmp_path / f"beam{suffix}")
    message = str(error.value)
    assert f"'{package}'" in message and "pip install 'floatframe[pictures]'" in message
    assert isinstance(error.value, ImportError)
    assert not (tmp_path / f"beam{suffix}").exists()


def test_require_returns_an_installed_module():
    assert require("numpy", "a test") is np
