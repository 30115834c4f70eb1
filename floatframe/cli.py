"""Command line: ``floatframe run MODEL``, ``floatframe compare MODEL --solvers ...``, ``floatframe ocp slew|arm``;
pictures: ``floatframe animate RUN.npz``, ``floatframe modes MODEL``, ``floatframe plot RUN.npz`` (floatframe.pictures).

Model names are hyphenated and the same in every command: ``rotor-disc`` (Tisserand frame),
``rotor-disc-constrained`` (mesh-coordinate constraints), the mechanisms, ``bracket`` (docs/bracket.md) and
``pendulum`` (``compare`` only). An underscore spelling (``rotor_disc``) is an error that names the hyphenated
one. Wrong arguments give argparse's usage message and exit status 2; so does an output path that cannot be
written (checked before any model is built, :mod:`floatframe.paths`). A missing optional package is one line on
stderr that names the extra to install, and exit status 1; so is a solve that fails (SolverError).
``--help`` shows the defaults of every subcommand.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from floatframe.command_line import HELP_FORMAT, MECHANISMS, MODELS, RUN_MODELS, one_of, positive_float, positive_int
from floatframe.components.base import ModelError
from floatframe.models.registry import MODELS_BY_NAME, load, model_names
from floatframe.optional import MissingDependencyError
from floatframe.paths import OutputPathError, check_output_file, output_file_argument, output_folder_argument
from floatframe.solvers.result import SolverError


def run_rotor_disc(arguments) -> int:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from floatframe.models.rotor_disc import STRESS_MATERIAL, build_rotor_disc
    from floatframe.solvers import GeneralizedAlpha

    setup = "constrained" if arguments.model == "rotor-disc-constrained" else "tisserand"
    if arguments.craig_bampton and arguments.modes is None:
        raise SystemExit("floatframe run: --craig-bampton needs --modes N (the number of fixed-interface eigenmodes)")
    if arguments.modes is not None and setup == "constrained":
        raise SystemExit("floatframe run: --modes makes a reduced rotor, which needs no reference conditions; "
                         "use it with rotor-disc")
    model = build_rotor_disc(setup, refinement=arguments.refinement, modes=arguments.modes,
                             craig_bampton=arguments.craig_bampton)
    setup = model.setup
    output = Path(arguments.output)
    plot, csv = output / f"rotor_disc_{setup}.png", output / f"rotor_disc_{setup}_sensor.csv"
    for path in (plot, csv, *([output / f"rotor_disc_{setup}.pvd"] if arguments.paraview else [])):
        check_output_file(path)
    if model.modes is not None:
        print(f"{model.modes.kind}: {model.modes.n_modes} modes" +
              (f" ({model.modes.n_static} static)" if model.modes.n_static else "") +
              ", frequencies [Hz]: " + np.array2string(model.modes.frequencies_hz, precision=2, max_line_width=120))
    assembled = model.system.assemble()
    steps = arguments.steps
    solver = GeneralizedAlpha(model.spectral_radius, modified_newton=True)
    result = solver.solve(assembled, steps * model.h, steps)
    displacement = result.sensor(model.sensor)
    stats = result.statistics
    print(f"{arguments.model}: {assembled.n_coordinates} coordinates, "
          f"{assembled.n_multipliers} constraints, {len(model.mesh_nodes)} mesh nodes")
    print(f"build {assembled.build_time:.3f} s, solve {stats.solve_time:.3f} s, {stats.steps} steps of "
          f"{model.h:g} s, {stats.iterations_per_step:.1f} Newton iterations per step, "
          f"{stats.jacobian_evaluations} Jacobians")
    print(f"axis node at the disc: final displacement {np.array2string(displacement[-1], precision=4)} m, "
          f"sum |u| = {np.abs(displacement).sum():.6e} m")
    output.mkdir(parents=True, exist_ok=True)
    figure, axes = plt.subplots(figsize=(7, 4))
    for k, label in enumerate("xyz"):
        axes.plot(result.t * 1e3, displacement[:, k] * 1e6, label=f"u_{label}")
    axes.set_xlabel("t [ms]")
    axes.set_ylabel("displacement [um]")
    axes.set_title(f"{arguments.model}: axis node at the disc")
    axes.grid(True)
    axes.legend()
    figure.tight_layout()
    figure.savefig(plot, dpi=120)
    csv = result.write_csv(csv, model.sensor)
    print(f"wrote {plot} and {csv}")
    if arguments.paraview:
        from floatframe.export import write_paraview
        collection = write_paraview(output / f"rotor_disc_{setup}", assembled, model.body, model.cells, result,
                                    material=STRESS_MATERIAL)
        print(f"wrote {collection} (open it in ParaView)")
    if arguments.save:
        from floatframe.export import save_result
        saved = save_result(arguments.save, assembled, model.body, model.cells, result, STRESS_MATERIAL,
                            arguments.model)
        print(f"wrote {saved} (picture it: floatframe animate {saved}; floatframe plot {saved})")
    return 0


def build_mechanism(name: str, modes: int | None, stiffness_scale: float):
    """The ready mechanism model ``name``: its link reduced to ``modes`` Craig-Bampton modes, or the full mesh."""
    from floatframe.models.registry import MODELS_BY_NAME, load

    return load(MODELS_BY_NAME[name].run)(modes=modes, stiffness_scale=stiffness_scale)


def check_tip_plot(output: Path, stem: str) -> None:
    """Raise OutputPathError unless :func:`write_tip_plot` can write its two files in ``output``."""
    for path in (output / f"{stem}.png", output / f"{stem}_tip.csv"):
        check_output_file(path)


def write_tip_plot(output: Path, stem: str, title: str, result, sensor: int, tip, rigid, what: str, rigid_label: str,
                   flexible_label: str) -> None:
    """Write ``output``/``stem``.png (the x-y paths of ``tip`` and ``rigid`` (k, 3) [m], and their distance over
    time) and ``output``/``stem``_tip.csv (the sensor ``sensor``), and print their names."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    output.mkdir(parents=True, exist_ok=True)
    deviation = np.linalg.norm(tip - rigid, axis=1)
    figure, (path_axes, deviation_axes) = plt.subplots(1, 2, figsize=(10, 4))
    path_axes.plot(rigid[:, 0], rigid[:, 1], "k--", label=rigid_label)
    path_axes.plot(tip[:, 0], tip[:, 1], label=flexible_label)
    path_axes.set_xlabel("x [m]")
    path_axes.set_ylabel("y [m]")
    path_axes.set_aspect("equal", adjustable="datalim")
    path_axes.set_title(f"path of the {what}")
    path_axes.legend()
    deviation_axes.plot(result.t, deviation * 1e3)
    deviation_axes.set_xlabel("t [s]")
    deviation_axes.set_ylabel(f"distance from the {rigid_label} [mm]")
    deviation_axes.set_title("flexible against rigid")
    for axes in (path_axes, deviation_axes):
        axes.grid(True)
    figure.suptitle(title)
    figure.tight_layout()
    plot = output / f"{stem}.png"
    figure.savefig(plot, dpi=120)
    plt.close(figure)
    csv = result.write_csv(output / f"{stem}_tip.csv", sensor)
    print(f"wrote {plot} and {csv}")


def run_mechanism(arguments) -> int:
    """Run a ready mechanism: its flexible link's tip against the rigid mechanism's, printed and plotted."""
    import numpy as np

    from floatframe.solvers import GeneralizedAlpha

    if arguments.craig_bampton:
        raise SystemExit("floatframe run: the mechanisms always use Craig-Bampton modes of the link's end faces; "
                         "--craig-bampton is for rotor-disc")
    modes = None if arguments.full else (arguments.modes or 4)
    stem = arguments.model.replace("-", "_")
    check_tip_plot(Path(arguments.output), stem)
    model = build_mechanism(arguments.model, modes, arguments.stiffness_scale)
    assembled = model.system.assemble()
    steps = arguments.steps
    result = GeneralizedAlpha(model.spectral_radius, modified_newton=True).solve(assembled, steps * model.h, steps)
    tip, rigid = result.sensor(model.tip_sensor), model.rigid_tip(result)
    stats = result.statistics
    link = "full mesh" if modes is None else f"{modes} Craig-Bampton modes (+6 static)"
    print(f"{arguments.model}: {assembled.n_coordinates} coordinates, {assembled.n_multipliers} constraints, "
          f"flexible link on {link}")
    print(f"build {assembled.build_time:.3f} s, solve {stats.solve_time:.3f} s, {stats.steps} steps of {model.h:g} s, "
          f"{stats.iterations_per_step:.1f} Newton iterations per step")
    deviation = np.linalg.norm(tip - rigid, axis=1)
    print(f"tip of the flexible link at t = {result.t[-1]:g} s: {np.array2string(tip[-1], precision=5)} m; "
          f"largest distance from the rigid mechanism's tip {deviation.max():.3e} m")
    write_tip_plot(Path(arguments.output), stem, arguments.model, result, model.tip_sensor, tip, rigid,
                   "link's tip", "rigid link", "flexible link")
    if arguments.save:
        from floatframe.export import save_result
        from floatframe.models.flexible_link import FlexibleLink
        link = next(part for part in vars(model).values() if isinstance(part, FlexibleLink))
        saved = save_result(arguments.save, assembled, link.body, link.cells, result, link.stress_material,
                            arguments.model)
        print(f"wrote {saved}: the flexible link (picture it: floatframe animate {saved})")
    return 0


def run_bracket(arguments) -> int:
    """Run the bracket (floatframe.models.bracket): mesh, Craig-Bampton basis, swing; the weight against the rigid
    bracket's, printed and plotted; with --save the bracket's run for the pictures."""
    import numpy as np

    from floatframe.models.bracket import build
    from floatframe.solvers import GeneralizedAlpha

    if arguments.craig_bampton or arguments.stiffness_scale != 1.0 or arguments.refinement != 1:
        raise SystemExit("floatframe run bracket: --craig-bampton, --stiffness-scale and --refinement are not options "
                         "of the bracket (it is reduced to Craig-Bampton modes of its bolt holes, --variant chooses "
                         "their kind, --full takes the full mesh instead; --mesh-size sets the mesh)")
    if arguments.full and arguments.modes is not None:
        raise SystemExit("floatframe run bracket: --full (the full FE mesh) and --modes N (a reduced bracket) "
                         "exclude each other")
    n_eigenmodes = None if arguments.full else (8 if arguments.modes is None else arguments.modes)
    check_tip_plot(Path(arguments.output), "bracket")
    try:
        model = build(mesh_size=arguments.mesh_size, n_eigenmodes=n_eigenmodes, variant=arguments.variant)
    except ValueError as error:  # a --mesh-size the bracket's mesh cannot take: a usage error, as for ModelError
        raise ModelError(str(error)) from None
    elements = ", ".join(f"{len(block)} {kind}" for kind, block in model.mesh.elements.items())
    print(f"bracket: Netgen mesh of size {arguments.mesh_size:g} m, {model.mesh.n_nodes} nodes, {elements}; "
          f"{model.holes[0].size} and {model.holes[1].size} nodes on the surfaces of holes A and B; "
          f"mass {model.bracket_mass:.4f} kg + weight {model.weight:g} kg")
    if model.modes is None:
        print("the full FE mesh: an ObjectFFRF with the Tisserand frame")
    else:
        print(f"{model.modes.kind}: {model.modes.n_static} static modes of hole B and {n_eigenmodes} fixed-interface "
              f"eigenmodes at [Hz] " + np.array2string(model.modes.frequencies_hz[model.modes.n_static:],
                                                        precision=1, max_line_width=120))
    assembled = model.system.assemble()
    steps = arguments.steps
    result = GeneralizedAlpha(model.spectral_radius, modified_newton=True).solve(
        assembled, steps * model.h, steps, store_every=model.store_every)
    tip, rigid = result.sensor(model.tip_sensor), model.rigid_tip(result)
    stats = result.statistics
    print(f"bracket: {assembled.n_coordinates} coordinates, {assembled.n_multipliers} constraints; build "
          f"{assembled.build_time:.3f} s, solve {stats.solve_time:.3f} s, {stats.steps} steps of {model.h:g} s, "
          f"{stats.iterations_per_step:.1f} Newton iterations per step; every {model.store_every}th step stored")
    print(f"weight at t = {result.t[-1]:g} s: {np.array2string(tip[-1], precision=5)} m; largest distance from the "
          f"rigid bracket's weight {np.linalg.norm(tip - rigid, axis=1).max():.3e} m")
    write_tip_plot(Path(arguments.output), "bracket", "bracket", result, model.tip_sensor, tip, rigid, "weight",
                   "rigid bracket", "flexible bracket")
    if arguments.save:
        from floatframe.export import save_result
        saved = save_result(arguments.save, assembled, model.body, model.cells, result, model.stress_material,
                            arguments.model)
        print(f"wrote {saved}: the bracket (picture it: floatframe animate {saved})")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="floatframe", description="Flexible multibody dynamics (FFRF) on CasADi.",
                                     formatter_class=HELP_FORMAT)
    commands = parser.add_subparsers(dest="command", required=True,
                                     metavar="{run,compare,ocp,study,animate,modes,plot}")
    run = commands.add_parser("run", help="run a built-in model", formatter_class=HELP_FORMAT,
                              description="Models: " + "; ".join(f"{k}: {MODELS[k]}" for k in RUN_MODELS))
    run.add_argument("model", type=one_of(RUN_MODELS, "model"), help=f"one of {', '.join(RUN_MODELS)}")
    run.add_argument("--steps", type=positive_int, default=argparse.SUPPRESS,
                     help="number of steps (default: 200 of 1e-4 s for rotor-disc, one revolution; 1000 of 1e-3 s "
                          "for the mechanisms and the bracket)")
    run.add_argument("--refinement", type=positive_int, default=1, help="mesh refinement factor")
    run.add_argument("--output", type=output_folder_argument, default="output",
                     help="folder for the plot and the sensor CSV")
    run.add_argument("--paraview", action="store_true",
                     help="also write the mesh motion (and rotor-disc's stress) as a VTU/PVD series")
    run.add_argument("--save", type=output_file_argument(".npz"), default=None, metavar="RUN.npz",
                     help="also save the run (rotor-disc: the rotor; mechanisms: the flexible link; bracket: the "
                          "bracket) for "
                          "'floatframe animate' and 'floatframe plot'")
    run.add_argument("--modes", type=positive_int, default=None,
                     help="rotor-disc: reduce the rotor to N free-free eigenmodes (ObjectFFRFReducedOrder); "
                          "mechanisms: N fixed-interface modes of the flexible link (default 4); bracket: N "
                          "fixed-interface modes of its bolt holes (default 8)")
    run.add_argument("--full", action="store_true",
                     help="mechanisms: the flexible link as the full FE mesh; bracket: the bracket as the full mesh")
    run.add_argument("--stiffness-scale", type=positive_float, default=1.0,
                     help="mechanisms: factor on the flexible link's stiffness")
    run.add_argument("--mesh-size", type=positive_float, default=0.005,
                     help="bracket: Netgen's largest element size [m]")
    run.add_argument("--variant", choices=("RBE2", "RBE3"), default="RBE2",
                     help="bracket: the Craig-Bampton interfaces at the bolt holes, rigid (RBE2) or averaged (RBE3)")
    run.add_argument("--craig-bampton", action="store_true",
                     help="with --modes: Craig-Bampton basis of the support faces (RBE2 static modes and N "
                          "fixed-interface eigenmodes) instead of eigenmodes")
    commands.add_parser("compare", help="compare DAE solvers on a model: error against cost (see compare --help)")
    commands.add_parser("ocp", help="optimal control with flexible bodies: 'ocp slew', 'ocp arm' (see ocp --help)")
    commands.add_parser("study", help="a parameter study on dask.distributed (see study --help)")
    commands.add_parser("animate", help="GIF or MP4 of a saved run's deformed body (see animate --help)")
    commands.add_parser("modes", help="PNG grid of a model's first eigenmodes (see modes --help)")
    commands.add_parser("plot", help="PNG time series of a saved run's sensor (see plot --help)")
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return dispatch(parser, run, argv)
    except (MissingDependencyError, SolverError) as error:  # a missing package, a solve that failed: one message
        raise SystemExit(f"floatframe {argv[0]}: {str(error).removeprefix(f'{argv[0]}: ')}") from None


def dispatch(parser, run, argv: list) -> int:
    """Run the command ``argv`` of ``parser`` (``run`` is its run subcommand's parser, for its usage errors)."""
    if argv and argv[0] == "compare":  # these subcommands parse their own options
        from floatframe.compare import compare_main
        return compare_main(argv[1:])
    if argv and argv[0] == "ocp":
        from floatframe.ocp import ocp_main
        return ocp_main(argv[1:])
    if argv and argv[0] == "study":
        from floatframe.study import study_main
        return study_main(argv[1:])
    if argv and argv[0] in ("animate", "modes", "plot"):
        from floatframe.pictures.cli import pictures_main
        return pictures_main(argv[0], argv[1:])
    own_options = [item for item in argv[1:] if item in model_names("run", kind="spin-up")] if argv[:1] == ["run"] else []
    if own_options:  # a model with options of its own (spin-up-beam: --spin, --no-stiffening, --full)
        rest = list(argv[1:])
        rest.remove(own_options[0])
        return load(MODELS_BY_NAME[own_options[0]].run)(rest)
    arguments = parser.parse_args(argv)
    try:
        return run_model(arguments)
    except (OutputPathError, ModelError) as error:  # wrong arguments found when the model is built
        run.error(str(error))


def run_model(arguments) -> int:
    """``floatframe run MODEL``: the bracket, a mechanism or the rotor-disc (spin-up-beam has its own options and is
    run by ``dispatch``)."""
    if arguments.model == "bracket":
        arguments.steps = getattr(arguments, "steps", 1000)
        return run_bracket(arguments)
    if arguments.mesh_size != 0.005 or arguments.variant != "RBE2":
        raise SystemExit("floatframe run: --mesh-size and --variant are for the bracket")
    if arguments.model in MECHANISMS:
        arguments.steps = getattr(arguments, "steps", 1000)
        return run_mechanism(arguments)
    if arguments.full or arguments.stiffness_scale != 1.0:
        raise SystemExit("floatframe run: --full and --stiffness-scale are for the mechanisms")
    arguments.steps = getattr(arguments, "steps", 200)
    return run_rotor_disc(arguments)


if __name__ == "__main__":
    sys.exit(main())
