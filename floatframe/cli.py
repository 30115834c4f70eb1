"""Command line: ``floatframe run rotor-disc``, ``floatframe compare MODEL --solvers ...``."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

MODELS = {"rotor-disc": "a spinning flexible rotor with a disc on spring-damper supports (built-in Hex8 mesh)"}


def run_rotor_disc(arguments) -> int:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from floatframe.models.rotor_disc import build_rotor_disc
    from floatframe.solvers import GeneralizedAlpha

    model = build_rotor_disc(arguments.setup, refinement=arguments.refinement)
    assembled = model.system.assemble()
    steps = arguments.steps
    solver = GeneralizedAlpha(model.spectral_radius, modified_newton=True)
    result = solver.solve(assembled, steps * model.h, steps)
    displacement = result.sensor(model.sensor)
    stats = result.statistics
    print(f"rotor-disc ({arguments.setup}): {assembled.n_coordinates} coordinates, "
          f"{assembled.n_multipliers} constraints, {len(model.mesh_nodes)} mesh nodes")
    print(f"build {assembled.build_time:.3f} s, solve {stats.solve_time:.3f} s, {stats.steps} steps of "
          f"{model.h:g} s, {stats.iterations_per_step:.1f} Newton iterations per step, "
          f"{stats.jacobian_evaluations} Jacobians")
    print(f"axis node at the disc: final displacement {np.array2string(displacement[-1], precision=4)} m, "
          f"sum |u| = {np.abs(displacement).sum():.6e} m")
    output = Path(arguments.output)
    output.mkdir(parents=True, exist_ok=True)
    figure, axes = plt.subplots(figsize=(7, 4))
    for k, label in enumerate("xyz"):
        axes.plot(result.t * 1e3, displacement[:, k] * 1e6, label=f"u_{label}")
    axes.set_xlabel("t [ms]")
    axes.set_ylabel("displacement [um]")
    axes.set_title(f"rotor-disc ({arguments.setup}): axis node at the disc")
    axes.grid(True)
    axes.legend()
    figure.tight_layout()
    plot = output / f"rotor_disc_{arguments.setup}.png"
    figure.savefig(plot, dpi=120)
    csv = result.write_csv(output / f"rotor_disc_{arguments.setup}_sensor.csv", model.sensor)
    print(f"wrote {plot} and {csv}")
    if arguments.paraview:
        from floatframe.export import write_paraview
        collection = write_paraview(output / f"rotor_disc_{arguments.setup}", assembled, model.body, model.cells, result)
        print(f"wrote {collection} (open it in ParaView)")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="floatframe", description="Flexible multibody dynamics (FFRF) on CasADi.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run a built-in model",
                              description="Models: " + "; ".join(f"{k}: {v}" for k, v in MODELS.items()))
    run.add_argument("model", choices=sorted(MODELS))
    run.add_argument("--setup", choices=("tisserand", "constrained"), default="tisserand")
    run.add_argument("--steps", type=int, default=200, help="number of steps of 1e-4 s (default 200: one revolution)")
    run.add_argument("--refinement", type=int, default=1, help="mesh refinement factor")
    run.add_argument("--output", default="output", help="folder for the plot and the sensor CSV")
    run.add_argument("--paraview", action="store_true", help="also write the mesh motion as a VTU/PVD series")
    commands.add_parser("compare", help="compare DAE solvers on a model: error against cost (see compare --help)")
    commands.add_parser("ocp", help="optimal control with flexible bodies, e.g. 'ocp slew' (see ocp --help)")
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "compare":  # these subcommands parse their own options
        from floatframe.compare import compare_main
        return compare_main(argv[1:])
    if argv and argv[0] == "ocp":
        from floatframe.ocp import ocp_main
        return ocp_main(argv[1:])
    arguments = parser.parse_args(argv)
    return run_rotor_disc(arguments)


if __name__ == "__main__":
    sys.exit(main())
