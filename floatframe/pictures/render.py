"""Drawing: the body's surface triangles as matplotlib 3D polygons, each colored by the mean of a nodal
value over its corners, on a fixed color scale and fixed axes over a whole animation; frames are rendered
off-screen (Agg canvas, no display, no pyplot state) and written as GIF (Pillow) or MP4 (imageio-ffmpeg).
"""
from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from mpl_toolkits.mplot3d.art3d import Poly3DCollection

from floatframe.paths import check_output_file

from .dependencies import require

COLORINGS = {"deformation": "elastic displacement |u_f| [m]", "displacement": "global displacement |u| [m]",
             "von-mises": "von Mises stress [Pa]"}
VIDEO_SUFFIXES = (".gif", ".mp4")
FPS_RANGE = (0.01, 1000.0)   # frames per second: a GIF stores a frame's time in 1/100 s as 16 bits (at most 655 s)
UNITS = {"Position": "m", "Displacement": "m", "DisplacementLocal": "m", "Velocity": "m/s", "VelocityLocal": "m/s",
         "Acceleration": "m/s^2", "AccelerationLocal": "m/s^2", "AngularVelocity": "rad/s",
         "AngularVelocityLocal": "rad/s", "Rotation": "rad", "Force": "N", "Torque": "N m", "Coordinates": "",
         "Coordinates_t": "", "StressLocal": "Pa", "StrainLocal": "-"}
FRAME_SIZE, FRAME_DPI = (8.0, 6.0), 80     # 640 x 480 pixels, multiples of 16 as H.264 wants
COLORMAP = "viridis"
DEFORMATION_FRACTION = 0.05   # automatic scale: largest drawn deformation = this fraction of the body's size


def surface_of(nodes, cells: dict) -> np.ndarray:
    """Outward boundary triangles (T, 3) of a mesh of ``nodes`` (N, 3) and meshio ``cells`` {type: (E, n)}."""
    from floatframe.export import mesh_from_cells

    return mesh_from_cells(nodes, cells).surface_triangles()


def node_values(saved, coloring: str) -> np.ndarray:
    """Nodal values (k, N) of a saved run (:class:`floatframe.export.SavedResult`) to color by: "deformation"
    |u_f| [m] (what the deformation scale magnifies), "displacement" |u| [m] global, "von-mises" [Pa]."""
    if coloring == "deformation":
        return np.linalg.norm(saved.deformation, axis=-1)
    if coloring == "displacement":
        return np.linalg.norm(saved.displacement, axis=-1)
    if coloring == "von-mises":
        if saved.stress is None:
            raise ValueError(f"{saved.path}: the run holds no stresses; save it with a material "
                             "(floatframe run rotor-disc --save, or export.save_result(..., material=...))")
        from floatframe.fem.stress import von_mises

        return von_mises(saved.stress)
    raise ValueError(f"unknown coloring {coloring!r}; choose one of {', '.join(COLORINGS)}")


def auto_deformation_scale(local_positions, deformation, fraction: float = DEFORMATION_FRACTION) -> float:
    """A round factor (1, 2 or 5 times a power of ten, at least 1) that draws the largest deformation
    |u_f| (of ``deformation`` (..., N, 3) [m]) at about ``fraction`` of the body's bounding-box diagonal."""
    size = np.linalg.norm(np.ptp(np.asarray(local_positions), axis=0))
    peak = np.linalg.norm(np.asarray(deformation), axis=-1).max(initial=0.0)
    if peak == 0.0 or fraction * size <= peak:
        return 1.0
    raw = fraction * size / peak
    power = 10.0 ** np.floor(np.log10(raw))
    return float(max(step for step in (1.0, 2.0, 5.0) if step * power <= raw) * power)


def draw_surface(axes, positions, triangles, values, norm, colormap=COLORMAP) -> Poly3DCollection:
    """Add the triangles (T, 3) at node ``positions`` (N, 3) [m] to 3D ``axes``, face color
    colormap(norm(mean of the corner ``values`` (N,))); unshaded, so the colors are exactly the scale's."""
    triangles = np.asarray(triangles)
    collection = Poly3DCollection(np.asarray(positions)[triangles], cmap=colormaps[colormap], norm=norm,
                                  edgecolors=(0.0, 0.0, 0.0, 0.25), linewidths=0.2)
    collection.set_array(np.asarray(values)[triangles].mean(axis=1))
    axes.add_collection3d(collection)
    return collection


def _set_limits(axes, points):
    """Axes limits around ``points`` (..., 3) with equal scale in x, y and z."""
    points = np.asarray(points).reshape(-1, 3)
    low, high = points.min(axis=0), points.max(axis=0)
    middle, half = (low + high) / 2, max((high - low).max() / 2, 1e-12) * 1.05
    for setter, centre in zip((axes.set_xlim, axes.set_ylim, axes.set_zlim), middle):
        setter(centre - half, centre + half)
    axes.set_box_aspect((1, 1, 1))
    axes.set_xlabel("x [m]")
    axes.set_ylabel("y [m]")
    axes.set_zlabel("z [m]")


def frame_figure(label: str, norm, view=(20.0, -60.0)):
    """An off-screen figure (640 x 480) with one 3D axes and a colorbar for ``norm``; returns (figure, axes)."""
    figure = Figure(figsize=FRAME_SIZE, dpi=FRAME_DPI)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot(projection="3d")
    axes.view_init(elev=view[0], azim=view[1])
    figure.colorbar(ScalarMappable(norm=norm, cmap=colormaps[COLORMAP]), ax=axes, shrink=0.7, label=label)
    return figure, axes


def _pixels(figure) -> np.ndarray:
    figure.canvas.draw()
    return np.asarray(figure.canvas.buffer_rgba())[..., :3].copy()


def animate(saved, path, deformation_scale: float | None = None, coloring: str = "deformation", fps: float = 20.0,
            max_frames: int = 60, view=(20.0, -60.0)) -> dict:
    """Render a saved run (:func:`floatframe.export.load_result`) as a GIF or MP4 (by ``path``'s suffix).

    ``saved`` is one saved body or a sequence of them: the flexible bodies of one run, each saved by
    :func:`floatframe.export.save_result` on the same time steps, drawn together in one scene. Each body is drawn
    at FramePosition + A (x_ref + s u_f), with one s = ``deformation_scale`` for all (default: automatic, the
    smallest of the bodies' :func:`auto_deformation_scale`), colored by ``coloring`` (:data:`COLORINGS`) on one
    scale for all bodies and frames; at most ``max_frames`` stored steps, evenly spread. Returns {"path",
    "frames", "scale", "steps", "range", "bodies"} (steps: the stored steps drawn; range: the color scale's
    (low, high); bodies: how many were drawn).
    """
    path = Path(path)
    if path.suffix.lower() not in VIDEO_SUFFIXES:
        raise ValueError(f"{path}: the animation is written as GIF or MP4; give a file ending in "
                         f"{' or '.join(VIDEO_SUFFIXES)}")
    check_output_file(path, "animate")
    if not FPS_RANGE[0] <= fps <= FPS_RANGE[1]:
        raise ValueError(f"animate: fps must be from {FPS_RANGE[0]:g} to {FPS_RANGE[1]:g} frames per second, got "
                         f"{fps!r}")
    bodies = [saved] if hasattr(saved, "deformation") else list(saved)
    if not bodies:
        raise ValueError("animate: no saved body to draw")
    for body in bodies[1:]:
        if body.t.shape != bodies[0].t.shape or not np.allclose(body.t, bodies[0].t, rtol=0, atol=1e-12):
            raise ValueError(f"{body.path} and {bodies[0].path} are stored at different times "
                             f"({len(body.t)} and {len(bodies[0].t)} steps); the bodies of one animation must come "
                             f"from one run")
    imageio = require("imageio.v3", "floatframe animate (writing GIF and MP4 files)", package="imageio")
    if path.suffix.lower() == ".mp4":
        require("imageio_ffmpeg", "an MP4 animation", package="imageio-ffmpeg")
    scale = min(auto_deformation_scale(body.local_positions, body.deformation) for body in bodies) \
        if deformation_scale is None else float(deformation_scale)
    t = bodies[0].t
    steps = np.unique(np.linspace(0, len(t) - 1, min(len(t), max_frames)).round().astype(int))
    positions = [body.positions(scale, steps) for body in bodies]
    values = [node_values(body, coloring)[steps] for body in bodies]
    largest = max(float(value.max()) for value in values)
    norm = Normalize(0.0, largest if largest > 0 else 1.0)
    triangles = [surface_of(body.local_positions, body.cells) for body in bodies]
    figure, axes = frame_figure(COLORINGS[coloring], norm, view)
    _set_limits(axes, np.concatenate([position.reshape(-1, 3) for position in positions]))
    name = " + ".join(dict.fromkeys(body.model or body.path.stem for body in bodies)) or path.stem
    frames = []
    for index, step in enumerate(steps):
        collections = [draw_surface(axes, position[index], surface, value[index], norm)
                       for position, surface, value in zip(positions, triangles, values)]
        axes.set_title(f"{name}: t = {t[step]:.4g} s, deformation x {scale:g}")
        frames.append(_pixels(figure))
        for collection in collections:
            collection.remove()
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() == ".gif":
        imageio.imwrite(path, np.stack(frames), duration=1000.0 / fps, loop=0)
    else:
        imageio.imwrite(path, np.stack(frames), fps=fps)
    return {"path": path, "frames": len(frames), "scale": scale, "steps": steps,
            "range": (float(norm.vmin), float(norm.vmax)), "bodies": len(bodies)}


def mode_figure(nodes, triangles, vectors, frequencies_hz, count: int | None = None, columns: int = 3,
                title: str = "", fraction: float = 0.1, view=(20.0, -60.0)) -> Figure:
    """A grid of the first ``count`` modes (columns of ``vectors`` (3 N, m) [m]) on the mesh ``nodes``
    (N, 3) [m]: each drawn with its largest displacement at ``fraction`` of the body's size, colored by
    |psi| relative to its largest, titled "mode j: f Hz" with ``frequencies_hz`` (m,)."""
    vectors = np.asarray(vectors, dtype=float)
    count = vectors.shape[1] if count is None else min(count, vectors.shape[1])
    if count < 1:
        raise ValueError("mode_figure: no modes to draw")
    rows = -(-count // columns)
    columns = min(columns, count)
    figure = Figure(figsize=(4.0 * columns, 3.6 * rows), dpi=100)
    FigureCanvasAgg(figure)
    nodes = np.asarray(nodes, dtype=float)
    size = np.linalg.norm(np.ptp(nodes, axis=0))
    norm = Normalize(0.0, 1.0)
    for j in range(count):
        shape = vectors[:, j].reshape(-1, 3)
        magnitude = np.linalg.norm(shape, axis=1)
        peak = magnitude.max() if magnitude.max() > 0 else 1.0
        positions = nodes + fraction * size / peak * shape
        axes = figure.add_subplot(rows, columns, j + 1, projection="3d")
        axes.view_init(elev=view[0], azim=view[1])
        draw_surface(axes, positions, triangles, magnitude / peak, norm)
        _set_limits(axes, positions)
        axes.set_title(f"mode {j + 1}: {frequencies_hz[j]:.2f} Hz")
    if title:
        figure.suptitle(title)
    figure.tight_layout()
    return figure


def write_mode_grid(path, nodes, triangles, vectors, frequencies_hz, count: int | None = None,
                    title: str = "", columns: int = 3) -> Path:
    """Write :func:`mode_figure` as a PNG; returns the path."""
    path = check_output_file(path, "write_mode_grid")
    path.parent.mkdir(parents=True, exist_ok=True)
    mode_figure(nodes, triangles, vectors, frequencies_hz, count, columns, title).savefig(path)
    return path


def sensor_figure(t, values, title: str, ylabel: str = "value") -> Figure:
    """A time-series plot of one sensor: ``values`` (k, size) against ``t`` (k,) [s], one line a component."""
    values = np.asarray(values, dtype=float).reshape(len(t), -1)
    figure = Figure(figsize=(7.0, 4.0), dpi=120)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    names = "xyz" if values.shape[1] == 3 else [str(i) for i in range(values.shape[1])]
    for component in range(values.shape[1]):
        axes.plot(t, values[:, component], label=f"component {names[component]}")
    axes.set_xlabel("t [s]")
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    axes.grid(True)
    if values.shape[1] > 1:
        axes.legend()
    figure.tight_layout()
    return figure


def read_sensor(source, number: int = 0):
    """(t (k,), values (k, size), title, axis label) of sensor ``number`` of a saved run (.npz), or of a sensor
    CSV (``SimulationResult.write_csv``: time first; ``number`` is then ignored). The label is the sensor's
    output variable with its unit, e.g. "Displacement [m]", where the run knows it."""
    source = Path(source)
    if source.suffix.lower() == ".csv":
        if not source.is_file():
            raise FileNotFoundError(f"{source}: no such file")
        with source.open(newline="") as stream:
            rows = list(csv.reader(stream))
        if len(rows) < 2 or not rows[0] or rows[0][0] not in ("t [s]", "t"):
            raise ValueError(f"{source}: not a sensor CSV (a header 't [s],...' and one row a time)")
        for line, row in enumerate(rows[1:], start=2):
            if len(row) != len(rows[0]) or not all(_is_number(value) for value in row):
                raise ValueError(f"{source}, line {line}: not a sensor CSV row ({len(rows[0])} numbers, as the "
                                 f"header has names): {','.join(row)!r}")
        data = np.array(rows[1:], dtype=float)
        units = {name.rsplit(" [", 1)[1][:-1] for name in rows[0][1:] if name.endswith("]") and " [" in name}
        return data[:, 0], data[:, 1:], source.stem, f"value [{units.pop()}]" if len(units) == 1 else "value"
    from floatframe.export import load_result

    saved = load_result(source)
    values = saved.sensor(number)
    name = saved.sensor_names[number] if number < len(saved.sensor_names) and saved.sensor_names[number] else ""
    variable = saved.sensor_variables[number] if number < len(saved.sensor_variables) else ""
    unit = UNITS.get(variable, "")
    label = (f"{variable} [{unit}]" if unit else variable) or "value"
    return saved.t, values, f"{saved.model or source.stem}: sensor {number}" + (f" '{name}'" if name else ""), label


def _is_number(text: str) -> bool:
    """Whether ``text`` reads as a float."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def plot_sensor(source, path, number: int = 0) -> Path:
    """Write the time series of sensor ``number`` of a saved run (or a sensor CSV) as a PNG; returns the path."""
    path = check_output_file(path, "plot_sensor")
    t, values, title, label = read_sensor(source, number)
    path.parent.mkdir(parents=True, exist_ok=True)
    sensor_figure(t, values, title, label).savefig(path)
    return path
