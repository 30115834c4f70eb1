"""The command ``floatframe study MODEL ...``: a study of a ready model, its record and export, and a plot."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from floatframe.study.errors import StudyError
from floatframe.study.models import STUDY_MODELS
from floatframe.study.record import OUTPUT_COLUMNS
from floatframe.study.run import run_study
from floatframe.study.samples import grid, latin_hypercube, monte_carlo


def study_main(argv: list[str]) -> int:
    """``floatframe study MODEL (--param NAME=v1,v2,... | --samples N --dist NAME=kind:a:b ...)``: runs the
    study, writes its record ``study.sqlite``, its export ``study.csv`` or ``study.parquet`` (``--format``) and
    ``study.png`` (each output against each parameter, or the histograms of a sampled study) into ``--output``;
    returns the exit code (usage errors, status 2, for wrong arguments and a study that cannot start; a missing
    package raises MissingDependencyError, one line and status 1 from ``floatframe.cli.main``)."""
    import argparse

    from floatframe.command_line import HELP_FORMAT, positive_float, positive_int
    from floatframe.optional import require
    from floatframe.paths import output_folder_argument

    def assignment(numbers: bool):
        def parse(text):
            name, _, values = text.partition("=")
            if not name or not values:
                raise argparse.ArgumentTypeError(f"'{text}': give NAME=VALUES")
            if not numbers:
                return name.strip(), values
            try:
                return name.strip(), [float(v) for v in values.split(",") if v.strip()]
            except ValueError:
                raise argparse.ArgumentTypeError(f"'{text}': values must be numbers") from None
        return parse

    parser = argparse.ArgumentParser(prog="floatframe study", formatter_class=HELP_FORMAT,
                                     description="A parameter study of a ready model on dask.distributed.")
    parser.add_argument("model", choices=sorted(STUDY_MODELS),
                        help="the study function: pendulum (its period), rotor-disc (its largest displacement "
                             "against disc_radius), rotor-disc-supports (the same against support_stiffness and "
                             "support_damping, one model built per worker) or oscillator (displacements against "
                             "stiffness and damping)")
    parser.add_argument("--param", type=assignment(True), action="append", default=[],
                        help="NAME=v1,v2,...: a grid over these values (repeat for more parameters)")
    parser.add_argument("--samples", type=positive_int, default=None, help="number of random samples")
    parser.add_argument("--dist", type=assignment(False), action="append", default=[],
                        help="NAME=normal:mu:sigma, uniform:low:high or lognormal:mu:sigma (with --samples)")
    parser.add_argument("--latin-hypercube", action="store_true", help="Latin-hypercube instead of Monte Carlo")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random samples")
    parser.add_argument("--scheduler", default=None, help="address of a running dask scheduler (default: a "
                        "LocalCluster on this machine)")
    parser.add_argument("--workers", type=positive_int, default=None, help="LocalCluster worker processes "
                        "(default: the number of cores)")
    parser.add_argument("--timeout", type=positive_float, default=10.0,
                        help="seconds to wait for the scheduler given by --scheduler")
    parser.add_argument("--time-limit", type=positive_float, default=None,
                        help="seconds a run may take; a longer one is a 'timeout' row and its worker is restarted "
                             "(default: %(default)s, no limit)")
    parser.add_argument("--output", type=output_folder_argument, default="output",
                        help="folder for study.sqlite (the record), study.csv (or .parquet) and study.png")
    parser.add_argument("--format", choices=("csv", "parquet"), default="csv",
                        help="file format of the export (parquet needs pyarrow)")
    existing = parser.add_mutually_exclusive_group()
    existing.add_argument("--resume", action="store_true",
                          help="continue the study in --output: run only the samples without a row (refused if "
                               "the record holds another study)")
    existing.add_argument("--restart", action="store_true",
                          help="delete the study in --output and start over")
    arguments = parser.parse_args(argv)
    require("pandas", "a parameter study", "study")      # floatframe.cli.main makes a missing one a line
    require("distributed", "a parameter study", "study", package="dask[distributed]")
    if arguments.format == "parquet":
        require("pyarrow", "a study's Parquet export (--format parquet)", "study")
    function = STUDY_MODELS[arguments.model]
    output = Path(arguments.output)
    rows = output / f"study.{arguments.format}"
    try:                       # run_study checks the samples and the output file before it sends anything
        samples = _cli_samples(arguments)
        table = run_study(function, samples, scheduler=arguments.scheduler, workers=arguments.workers,
                          output=rows, resume=arguments.resume, restart=arguments.restart,
                          time_limit=arguments.time_limit, timeout=arguments.timeout)
    except StudyError as error:
        parser.error(str(error))
    print(table.to_string(index=False))
    failed = int((table["status"] != "ok").sum())
    plot = _plot_study(table, list(samples[0]), output / "study.png", sampled=not arguments.param)
    wrote = f"{rows}, {rows.with_suffix('.sqlite')} and {plot}" if plot else \
        f"{rows} and {rows.with_suffix('.sqlite')} (no plot: no run succeeded)"
    print(f"{len(table)} runs, {failed} failed; wrote {wrote}")
    return 0


def _cli_samples(arguments) -> list[dict]:
    if arguments.param and (arguments.samples or arguments.dist):
        raise StudyError("study: give --param (a grid) or --samples with --dist, not both")
    if arguments.param:
        return grid(**dict(arguments.param))
    if not arguments.samples or not arguments.dist:
        raise StudyError("study: --samples needs --dist (and --dist needs --samples); or give --param")
    sampler = latin_hypercube if arguments.latin_hypercube else monte_carlo
    return sampler(arguments.samples, arguments.seed, **dict(arguments.dist))


def _plot_study(table, names, path: Path, sampled: bool) -> Path | None:
    """Each output against each parameter (a grid), or each output's histogram (sampled); None (no file) when
    no run succeeded."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    outputs = [c for c in table.columns if c not in names and c not in OUTPUT_COLUMNS]
    ok = table[table["status"] == "ok"]
    if not outputs or ok.empty:
        return None
    columns = 1 if sampled else len(names)
    figure, axes = plt.subplots(len(outputs), columns, figsize=(4 * columns + 2, 3 * len(outputs)), squeeze=False)
    for i, output in enumerate(outputs):
        if sampled:
            axes[i, 0].hist(ok[output], bins=max(5, int(np.sqrt(len(ok)))))
            axes[i, 0].set_xlabel(output)
            axes[i, 0].set_ylabel("runs")
        for j, name in enumerate([] if sampled else names):
            axes[i, j].plot(ok[name], ok[output], "o")
            axes[i, j].set_xlabel(name)
            axes[i, j].set_ylabel(output)
        for axis in axes[i]:
            axis.grid(True)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path
