"""Command line of the pictures: ``floatframe animate RUN.npz``, ``floatframe modes MODEL|MESH`` and
``floatframe plot RUN.npz|SENSOR.csv`` (a run is written by ``floatframe run rotor-disc --save RUN.npz``)."""
from __future__ import annotations

import argparse
from pathlib import Path

from floatframe.command_line import number, positive_float, positive_int
from floatframe.models.registry import model_names
from floatframe.components.base import ModelError
from floatframe.optional import missing_package
from floatframe.paths import OutputPathError, check_output_file, output_file_argument

from .render import COLORINGS, FPS_RANGE, VIDEO_SUFFIXES

HELP_FORMAT = argparse.ArgumentDefaultsHelpFormatter
poissons_ratio = number(float, lambda value: -1 < value < 0.5, "a number in (-1, 0.5)")
frames_per_second = number(float, lambda value: FPS_RANGE[0] <= value <= FPS_RANGE[1],
                           f"a number from {FPS_RANGE[0]:g} to {FPS_RANGE[1]:g}")
MODE_MODELS = model_names("modes")   # ready models with a mode grid (floatframe.models.registry)


def video_path(text: str) -> Path:
    """An argparse type: a writable path ending in .gif or .mp4."""
    if Path(text).suffix.lower() not in VIDEO_SUFFIXES:
        raise argparse.ArgumentTypeError(f"must end in {' or '.join(VIDEO_SUFFIXES)}, got '{text}'")
    return Path(output_file_argument()(text))


def checked_output(parser, path) -> Path:
    """``path`` as a Path, or ``parser``'s usage error (exit status 2) naming why it cannot be written."""
    try:
        return check_output_file(path)
    except OutputPathError as error:
        parser.error(str(error))


def animate_main(argv) -> int:
    parser = argparse.ArgumentParser(
        prog="floatframe animate", formatter_class=HELP_FORMAT,
        description="Render a saved run (floatframe run rotor-disc --save RUN.npz) as a GIF or MP4 of the deformed "
                    "body (or bodies), off-screen. Colorings: " + "; ".join(f"{k}: {v}" for k, v in COLORINGS.items()))
    parser.add_argument("result", nargs="+",
                        help="a run saved as .npz (floatframe run MODEL --save RUN.npz); several files of one run "
                             "(one flexible body each, from floatframe.export.save_result) are drawn together")
    parser.add_argument("--output", type=video_path, default=None,
                        help="the animation, .gif or .mp4 (default: the run's name with .gif)")
    parser.add_argument("--scale", type=positive_float, default=None,
                        help="deformation scale factor (default: automatic, the largest deformation drawn at 5 %% "
                             "of the body's size, rounded to 1, 2 or 5 times a power of ten)")
    parser.add_argument("--color", choices=tuple(COLORINGS), default="deformation", help="what the colors show")
    parser.add_argument("--fps", type=frames_per_second, default=20.0, help="frames per second")
    parser.add_argument("--max-frames", type=positive_int, default=60,
                        help="largest number of frames (stored steps evenly spread)")
    parser.add_argument("--elevation", type=float, default=20.0, help="camera elevation [deg]")
    parser.add_argument("--azimuth", type=float, default=-60.0, help="camera azimuth [deg]")
    arguments = parser.parse_args(argv)
    from floatframe.export import load_result
    from .render import animate

    output = checked_output(parser, arguments.output or Path(arguments.result[0]).with_suffix(".gif"))
    try:
        saved = [load_result(result) for result in arguments.result]
        info = animate(saved, output, arguments.scale, arguments.color, arguments.fps, arguments.max_frames,
                       (arguments.elevation, arguments.azimuth))
    except (OSError, ValueError) as error:
        raise SystemExit(f"floatframe animate: {error}") from None
    low, high = info["range"]
    bodies = f"{info['bodies']} bodies, " if info["bodies"] > 1 else ""
    print(f"wrote {info['path']}: {bodies}{info['frames']} frames, deformation x {info['scale']:g}, "
          f"colors {arguments.color} from {low:.3g} to {high:.3g}")
    return 0


def mode_source(text: str) -> str:
    if text in MODE_MODELS or Path(text).is_file():
        return text
    raise argparse.ArgumentTypeError(f"'{text}' is neither a built-in model ({', '.join(MODE_MODELS)}) nor a mesh file")


def read_mesh_file(source: str):
    """The :class:`floatframe.fem.Mesh` in the file ``source``; SystemExit naming the file and the fault where it
    is not a volume mesh that meshio reads, MissingDependencyError where meshio needs a package for its format."""
    import meshio

    from floatframe.fem import read_mesh

    try:
        return read_mesh(source)
    except ImportError as error:
        raise missing_package(error, f"reading the mesh file {source}") from None
    except (OSError, ValueError, meshio.ReadError) as error:
        if isinstance(error.__cause__, ImportError):   # read_mesh names meshio's failed import as a ValueError
            raise missing_package(error.__cause__, f"reading the mesh file {source}") from None
        message = str(error)
        if source not in message:
            message = f"{source}: not a volume mesh that meshio reads ({message})"
        raise SystemExit(f"floatframe modes: {message}") from None


def modes_main(argv) -> int:
    parser = argparse.ArgumentParser(
        prog="floatframe modes", formatter_class=HELP_FORMAT,
        description="A PNG grid of the first free-free eigenmodes with their frequencies: of the rotor-disc model's "
                    "rotor (its matrices as 'run rotor-disc --modes N' uses them), or of any volume mesh meshio reads "
                    "(tetra, tetra10, hexahedron, hexahedron20; coordinates in m) with the given material.")
    parser.add_argument("source", type=mode_source, help=f"one of {', '.join(MODE_MODELS)} or a mesh file")
    parser.add_argument("--count", type=positive_int, default=6, help="number of modes")
    parser.add_argument("--columns", type=positive_int, default=3, help="grid columns")
    parser.add_argument("--refinement", type=positive_int, default=1,
                        help="rotor-disc: mesh refinement factor")
    parser.add_argument("--youngs-modulus", type=positive_float, default=2.1e11,
                        help="mesh file: E [Pa]")
    parser.add_argument("--poissons-ratio", type=poissons_ratio, default=0.3, help="mesh file: nu [-]")
    parser.add_argument("--density", type=positive_float, default=7850.0,
                        help="mesh file: rho [kg/m^3]")
    parser.add_argument("--output", type=output_file_argument(), default=None,
                        help="the PNG (default: output/<source>_modes.png)")
    arguments = parser.parse_args(argv)
    stem = arguments.source.replace("-", "_") if arguments.source in MODE_MODELS else Path(arguments.source).stem
    output = checked_output(parser, arguments.output or Path("output") / f"{stem}_modes.png")
    import numpy as np

    from floatframe.fem import eigenmodes, linear_elastic_matrices
    from .render import write_mode_grid

    try:
        if arguments.source in MODE_MODELS:
            from floatframe.models.rotor_disc import build_rotor_disc

            model = build_rotor_disc(refinement=arguments.refinement, modes=arguments.count)
            nodes, cells, modes = model.mesh_nodes, model.cells, model.modes
            title = f"{arguments.source}: free-free eigenmodes"
        else:
            mesh = read_mesh_file(arguments.source)
            mass, stiffness = linear_elastic_matrices(mesh, arguments.youngs_modulus, arguments.poissons_ratio,
                                                      arguments.density)
            modes = eigenmodes(mass, stiffness, arguments.count, node_positions=mesh.nodes)
            nodes, title = mesh.nodes, f"{Path(arguments.source).name}: free-free eigenmodes"
            cells = mesh.to_meshio().cells_dict
    except ModelError as error:   # --count, --refinement, ... that the model or the mesh cannot take
        parser.error(str(error))
    except (OSError, ValueError) as error:
        raise SystemExit(f"floatframe modes: {error}") from None
    from .render import surface_of

    path = write_mode_grid(output, nodes, surface_of(nodes, cells), modes.vectors, modes.frequencies_hz,
                           arguments.count, title, arguments.columns)
    print(f"wrote {path}: modes 1 to {min(arguments.count, modes.n_modes)}, frequencies [Hz]: "
          + np.array2string(modes.frequencies_hz[:arguments.count], precision=2, max_line_width=120))
    return 0


def plot_main(argv) -> int:
    parser = argparse.ArgumentParser(
        prog="floatframe plot", formatter_class=HELP_FORMAT,
        description="A PNG time-series plot of one sensor of a saved run (.npz from floatframe run --save) or of a "
                    "sensor CSV (as floatframe run writes).")
    parser.add_argument("result", help="a saved run (.npz) or a sensor CSV")
    parser.add_argument("--sensor", type=int, default=0, help="sensor number in the saved run")
    parser.add_argument("--output", type=output_file_argument(), default=None,
                        help="the PNG (default: the result's name with _sensorN.png)")
    arguments = parser.parse_args(argv)
    from .render import plot_sensor

    source = Path(arguments.result)
    output = checked_output(parser, arguments.output or source.with_name(f"{source.stem}_sensor{arguments.sensor}.png"))
    try:
        path = plot_sensor(source, output, arguments.sensor)
    except (OSError, ValueError) as error:
        raise SystemExit(f"floatframe plot: {error}") from None
    print(f"wrote {path}")
    return 0


COMMANDS = {"animate": animate_main, "modes": modes_main, "plot": plot_main}


def pictures_main(command: str, argv) -> int:
    """Run the pictures subcommand ``command`` (animate, modes or plot) with its arguments ``argv``."""
    from floatframe.command_line import RUN_MODELS

    argv = list(argv)
    model = next((item for item in argv if not item.startswith("-")), None)
    if command in ("animate", "plot") and model in RUN_MODELS and not Path(model).exists():
        raise SystemExit(f"floatframe {command}: '{model}' is a model, not a saved run; run and save it first: "
                         f"floatframe run {model} --save output/run.npz, then floatframe {command} output/run.npz")
    return COMMANDS[command](argv)
