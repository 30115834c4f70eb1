"""Solver comparison: every solver on the same model, accuracy against cost.

``run_comparison`` runs each chosen solver over a range of tolerances (IDAS) or step sizes (the
fixed-step schemes) on one assembled model, measures the error of one sensor against a reference
solution (IDAS at tight tolerances, or generalized-alpha with a small step) and the constraint
violation at position and velocity level, and writes a table (CSV and Markdown) and a work-precision
plot (error against wall time, log-log, PNG). ``compare_main(argv)`` is the command line
``python -m floatframe compare MODEL --solvers idas,genalpha,...`` (MODEL: ``pendulum``, ``rotor-disc``,
``rotor-disc-constrained`` or a model file). ``--external CSV`` sets rows measured elsewhere (a ``comparison.csv``
of the same columns, e.g. benchmarks/testset_codes.py's Fortran RADAU5 and DASSL) beside the runs in the table and
the plot. With ``--workers K`` or ``--scheduler ADDRESS`` the runs are
tasks on dask.distributed (a LocalCluster, or a running cluster), set up as the parameter studies are
(``floatframe.study.dask_client``); each worker loads the model once.

The error of a run is max_k |s_k - s_ref,k| / max_k |s_ref,k| over the output times and the sensor's
components (a relative max-norm error). Wall time is the integration time; IDAS' one-time setup
(building the index-1 DAE and its Jacobian) is listed separately.
"""
from __future__ import annotations

import argparse
import contextlib
import csv
import importlib
import importlib.util
import time
import warnings
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np
from tqdm import tqdm

from floatframe.components.base import ModelError
from floatframe.optional import require
from floatframe.paths import OutputPathError, check_output_file, output_folder_argument
from floatframe.solvers.genalpha import GeneralizedAlpha
from floatframe.solvers.genalpha_ggl import GeneralizedAlphaGGL
from floatframe.solvers.genalpha_lie import LieGroupGeneralizedAlpha
from floatframe.solvers.hht import HHTAlpha
from floatframe.solvers.explicit import RK44, RK67
from floatframe.solvers.explicit_adaptive import DOPRI5
from floatframe.solvers.idas import IDAS, constraint_violation
from floatframe.solvers.loop import Scheme
from floatframe.solvers.newmark import Newmark, Trapezoidal
from floatframe.solvers.radau import AdaptiveRadauIIA, RadauIIA
from floatframe.solvers.result import SolverError
from floatframe.solvers.sundae import SundialsIDA

# name -> (factory(setting) -> solver, kind of setting)
SOLVERS = {
    "idas": (lambda rtol: IDAS(rtol=rtol, atol=rtol * 1e-3, drift="projection"), "rtol"),
    "idas-baumgarte": (lambda rtol: IDAS(rtol=rtol, atol=rtol * 1e-3, drift="baumgarte"), "rtol"),
    "genalpha": (lambda h: GeneralizedAlpha(0.5, modified_newton=True), "h"),
    "genalpha-index2": (lambda h: GeneralizedAlphaGGL(0.5, modified_newton=True), "h"),
    "genalpha-velocity": (lambda h: GeneralizedAlpha(0.5, modified_newton=True, index=2), "h"),
    "genalpha-lie": (lambda h: LieGroupGeneralizedAlpha(0.5), "h"),
    "trapezoidal": (lambda h: Trapezoidal(modified_newton=True), "h"),
    "newmark": (lambda h: Newmark(0.6, modified_newton=True), "h"),
    "hht": (lambda h: HHTAlpha(0.1, modified_newton=True), "h"),
    "radau5": (lambda rtol: AdaptiveRadauIIA(rtol=rtol, atol=rtol * 1e-3), "rtol"),
    "radau5-fixed": (lambda h: RadauIIA(), "h"),
    "rk44": (lambda h: RK44(), "h"),                  # explicit: models without constraints (docs/solvers.md)
    "rk67": (lambda h: RK67(), "h"),
    "dopri5": (lambda rtol: DOPRI5(rtol=rtol, atol=rtol * 1e-3), "rtol"),
    "sundae-ida": (lambda rtol: SundialsIDA(rtol=rtol, atol=rtol * 1e-3), "rtol"),   # needs scikit-sundae
}
DEFAULT_TOLERANCES = (1e-4, 1e-6, 1e-8)
DEFAULT_REFINEMENTS = (1, 2, 4, 8)   # fixed steps per output interval
OUTPUT_FILES = {"csv": "comparison.csv", "md": "comparison.md", "png": "work_precision.png"}
# comparison.csv: Run field -> column name ("quantity [unit]", docs/conventions.md; solver, setting, status are text)
CSV_COLUMNS = {"solver": "solver", "setting": "setting", "value": "rtol or h [-, s]", "wall_time": "wall time [s]",
               "setup_time": "setup time [s]", "steps": "steps [-]", "newton_iterations": "Newton iterations [-]",
               "jacobian_evaluations": "Jacobians [-]", "error": "error [-]",
               "position_violation": "max abs C [m, rad]", "velocity_violation": "max abs dC/dt [m/s, rad/s]",
               "scd": "scd [digits]", "mescd": "mescd [digits]", "warmup_time": "warm-up [s]", "status": "status"}


def significant_correct_digits(values, reference) -> float:
    """scd = -log10(max_i |y_i - y_ref,i| / |y_ref,i|) over the components with y_ref,i != 0: the test set's
    measure (subroutine SCD of the IVP test set's drivers, "using relative error"); inf for an exact answer."""
    values, reference = np.ravel(values).astype(float), np.ravel(reference).astype(float)
    if values.shape != reference.shape:
        raise ValueError(f"significant_correct_digits: {values.size} values for {reference.size} reference values")
    used = reference != 0.0
    error = np.max(np.abs(values[used] - reference[used]) / np.abs(reference[used]), initial=0.0)
    return float(-np.log10(error)) if error > 0.0 else float("inf")


def mixed_significant_correct_digits(values, reference, ratio: float = 1.0) -> float:
    """mescd = -log10(max_i |y_i - y_ref,i| / (ratio + |y_ref,i|)), ratio = atol / rtol: the mixed-error scd of
    the IVP test set (release 2.4, section "The mixed error"); with ratio 1 the absolute error of components
    below 1 and the relative error of those above."""
    values, reference = np.ravel(values).astype(float), np.ravel(reference).astype(float)
    if values.shape != reference.shape:
        raise ValueError(f"mixed_significant_correct_digits: {values.size} values for {reference.size} "
                         f"reference values")
    if not ratio > 0.0:
        raise ValueError(f"mixed_significant_correct_digits: ratio (atol / rtol) must be positive, got {ratio}")
    error = np.max(np.abs(values - reference) / (ratio + np.abs(reference)), initial=0.0)
    return float(-np.log10(error)) if error > 0.0 else float("inf")


@dataclass
class ComparisonModel:
    """An assembled model with the sensor to compare and the default time span."""

    system: object        # AssembledSystem
    sensor: int = 0
    t_end: float = 1.0
    n_outputs: int = 20
    name: str = "model"
    published: object = None   # result -> (solution components at t_end, the published reference values)


@dataclass
class Run:
    """One row of the comparison table."""

    solver: str
    setting: str
    value: float
    wall_time: float
    setup_time: float
    steps: int
    newton_iterations: int
    jacobian_evaluations: int
    error: float
    position_violation: float
    velocity_violation: float
    scd: float = np.nan          # significant correct digits of the published solution (relative error)
    mescd: float = np.nan        # the same with the mixed error (atol / rtol = 1)
    warmup_time: float = np.nan  # [s], the solver's first (untimed) run on the first output interval
    status: str = "ok"


def read_runs(path) -> list[Run]:
    """The rows of a CSV in the columns of ``comparison.csv`` (``CSV_COLUMNS``; further columns are ignored), to set
    beside a comparison's own runs. ValueError naming the file, and the row and column where a value is wrong."""
    types = {"str": str, "float": float, "int": int}
    kinds = {field.name: types[str(field.type)] for field in fields(Run)}
    with Path(path).open(newline="") as stream:
        reader = csv.DictReader(stream)
        missing = [column for column in CSV_COLUMNS.values() if column not in (reader.fieldnames or [])]
        if missing:
            raise ValueError(f"{path}: no column {', '.join(repr(c) for c in missing)} (the columns of comparison.csv)")
        runs = []
        for number, row in enumerate(reader, start=2):
            values = {}
            for name, column in CSV_COLUMNS.items():
                try:
                    values[name] = kinds[name](row[column])
                except (TypeError, ValueError):
                    raise ValueError(f"{path}, line {number}: {column} is {row[column]!r}, not a {kinds[name].__name__}"
                                     ) from None
            runs.append(Run(**values))
    return runs


def load_model(model: str, **options) -> ComparisonModel:
    """A ready model that ``compare`` offers (``floatframe.models.registry``: pendulum, rotor-disc,
    rotor-disc-constrained, andrews) or a Python file.

    A file defines ``build()`` returning a System, an AssembledSystem, a (System, info) pair or an object
    with ``.system``; optional module constants ``SENSOR``, ``T_END`` and ``N_OUTPUTS``. A file without
    ``build()``, or whose ``build()`` returns none of these, is a ModelError (a ValueError).
    """
    from floatframe.models.registry import MODELS_BY_NAME, load, model_names

    name = model.replace("_", "-") if not Path(model).is_file() else model  # rotor_disc as rotor-disc
    if name in model_names("compare"):
        ready = MODELS_BY_NAME[name]
        return ComparisonModel(**load(ready.compare)(**ready.compare_options, **options))
    path = Path(model)
    if not path.is_file():
        raise ModelError(f"compare: unknown model '{model}': give {', '.join(model_names('compare'))} "
                         f"or a Python file that defines build()")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not callable(getattr(module, "build", None)):
        raise ModelError(f"compare: {path} defines no build() function")
    built = module.build(**options)
    built = built[0] if isinstance(built, tuple) and built else built
    built = getattr(built, "system", built) if not hasattr(built, "assemble") else built
    assembled = built.assemble() if hasattr(built, "assemble") else built
    if not hasattr(assembled, "n_coordinates"):
        raise ModelError(f"compare: build() of {path} returned {type(assembled).__name__}; it must return a System, "
                         f"an AssembledSystem, a (System, info) pair or an object with .system")
    return ComparisonModel(assembled, getattr(module, "SENSOR", 0), getattr(module, "T_END", 1.0),
                           getattr(module, "N_OUTPUTS", 20), path.stem)


def scheme_class(name: str) -> type:
    """The Scheme subclass that ``name`` ("package.module:Class" or "path/to/file.py:Class") names: a solver of
    one's own (docs/solvers.md, "Bring your own solver"). ValueError saying what is wrong otherwise."""
    where, _, class_name = name.rpartition(":")
    if not where or not class_name:
        raise ValueError(f"compare: unknown solver '{name}'; choose from {sorted(SOLVERS)}, or give your own as "
                         f"module:Class or file.py:Class")
    try:
        if where.endswith(".py"):
            spec = importlib.util.spec_from_file_location(Path(where).stem, where)
            if spec is None or not Path(where).is_file():
                raise ImportError(f"no file {where}")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
    except ImportError as exc:
        raise ValueError(f"compare: solver '{name}': cannot import {where}: {exc}") from None
    scheme = getattr(module, class_name, None)
    if not (isinstance(scheme, type) and issubclass(scheme, Scheme)):
        raise ValueError(f"compare: solver '{name}': {where} has no Scheme subclass {class_name} "
                         f"(floatframe.solvers.loop.Scheme)")
    return scheme


def solver_kind(name: str) -> str:
    """The setting a solver is run over: "rtol" (adaptive schemes) or "h" (fixed-step ones)."""
    if name in SOLVERS:
        return SOLVERS[name][1]
    return "rtol" if scheme_class(name).adaptive else "h"


def make_solver(name: str, setting: float):
    """The solver ``name`` for ``setting``: a built-in one, or one's own Scheme (adaptive ones are made with
    rtol=setting, atol=setting * 1e-3, fixed-step ones without arguments)."""
    if name in SOLVERS:
        return SOLVERS[name][0](setting)
    scheme = scheme_class(name)
    return scheme(rtol=setting, atol=setting * 1e-3) if scheme.adaptive else scheme()


def solve(solver, system, t_grid, setting: float):
    """Run a solver on the output grid (fixed-step schemes take the step size ``setting``)."""
    return solver.solve(system, t_grid=t_grid, h=None if solver.adaptive else setting, progress=False)


def reference_solution(model: ComparisonModel, t_grid, reference: str = "idas", rtol: float = 1e-10,
                       h: float | None = None):
    """Sensor values of the reference: IDAS at ``rtol`` or generalized-alpha (rho 0.5) with step h."""
    if reference == "idas":
        result = IDAS(rtol=rtol, atol=rtol * 1e-3, drift="projection").solve(model.system, t_grid)
    elif reference == "genalpha":
        h = (t_grid[1] - t_grid[0]) / 64 if h is None else h
        result = GeneralizedAlpha(0.5, modified_newton=True).solve_grid(model.system, t_grid, h=h)
    else:
        raise ValueError(f"compare: reference must be 'idas' or 'genalpha', got {reference!r}")
    return result.sensor(model.sensor)


def run_comparison(model, solvers=("idas", "genalpha"), tolerances=DEFAULT_TOLERANCES,
                   refinements=DEFAULT_REFINEMENTS, t_end=None, n_outputs=None, reference="idas",
                   reference_rtol=1e-10, out_dir=None, progress=True, *, client=None, scheduler=None,
                   workers=None, timeout=10.0, external=()) -> list[Run]:
    """Run every solver over its settings; returns the rows and, with ``out_dir``, writes
    ``comparison.csv``, ``comparison.md`` and ``work_precision.png`` there.

    Parameters
    ----------
    model : ComparisonModel or str
        A model, or a model name or file for :func:`load_model`.
    solvers : sequence of str
        Names from ``SOLVERS``.
    tolerances : sequence of float
        rtol values of the IDAS runs.
    refinements : sequence of int
        Fixed steps per output interval of the fixed-step runs (h = output interval / r).
    t_end, n_outputs : float, int, optional
        End time [s] and number of output intervals; None takes the model's.
    reference : {"idas", "genalpha"}
        The reference solution's solver (run in this process).
    reference_rtol : float
        rtol of an IDAS reference.
    out_dir : str or Path, optional
        Folder for the table and the plot.
    progress : bool
        Show a tqdm bar.
    client, scheduler, workers, timeout
        With any of ``client``, ``scheduler`` or ``workers``, the runs are tasks on dask.distributed, set up
        as for a parameter study (:func:`floatframe.study.dask_client`): each worker loads the model once
        (``model`` must then be a name or a file that the workers can read) and a row's wall time is the
        worker's. Without them, the runs are made here one after the other.
    external : sequence of Run
        Rows measured elsewhere (:func:`read_runs`), written beside the runs in the table and the plot, not
        returned.

    Returns
    -------
    list of Run
        One row per solver and setting, in the order of ``solvers`` and of the settings.
    """
    distributed = client is not None or scheduler is not None or workers is not None
    if distributed and not isinstance(model, str):
        raise ValueError("compare: runs on a cluster need the model's name or file (each worker loads it), "
                         f"got {type(model).__name__}")
    if out_dir is not None:
        check_outputs(out_dir, "run_comparison")
    if distributed:
        require("distributed", "compare on a dask cluster (--workers, --scheduler)", "study",
                package="dask[distributed]")
    model_name = model if isinstance(model, str) else None
    model = load_model(model) if isinstance(model, str) else model
    t_end = model.t_end if t_end is None else t_end
    n_outputs = model.n_outputs if n_outputs is None else n_outputs
    t_grid = np.linspace(0.0, t_end, n_outputs + 1)
    interval = t_end / n_outputs
    plan = []
    for name in solvers:
        kind = solver_kind(name)
        values = tolerances if kind == "rtol" else [interval / r for r in refinements]
        plan += [(name, kind, float(value)) for value in values]
    from floatframe.study import dask_client, run_on_dask

    # the cluster first: a scheduler that cannot be reached is an error before the reference is computed
    with dask_client(client, scheduler, workers, timeout) if distributed else contextlib.nullcontext() as active:
        try:
            reference_values = reference_solution(model, t_grid, reference, reference_rtol,
                                                  interval / (4 * max(refinements)))
        except SolverError as failure:
            setting = f"rtol {reference_rtol:g}" if reference == "idas" else f"h {interval / (4 * max(refinements)):g}"
            raise SolverError(f"compare: the reference solution ({reference}, {setting}) failed, so no error can be "
                              f"measured: {failure}", failure.time) from None
        scale = max(np.abs(reference_values).max(), 1e-300)
        if active is None:
            first = {}
            for name, kind, value in plan:
                first.setdefault(name, (kind, value))
            warmup = {name: warmup_time(model, name, kind, value, t_grid) for name, (kind, value) in first.items()}
            rows = [comparison_run(model, name, kind, value, t_grid, reference_values, scale) for name, kind, value
                    in tqdm(plan, desc=f"compare {model.name}", unit="run", disable=not progress)]
            for row in rows:
                row.warmup_time = warmup[row.solver]
        else:
            rows = [None] * len(plan)
            tasks = [(k, model_name, *entry, t_grid, reference_values, scale) for k, entry in enumerate(plan)]
            for k, row in run_on_dask(active, _run_on_worker, tasks, progress, f"compare {model.name}"):
                rows[k] = row
    if out_dir is not None:
        write_outputs(rows + list(external), Path(out_dir), model.name, reference)
    return rows


def warmup_time(model: ComparisonModel, name: str, kind: str, value: float, t_grid) -> float:
    """[s] of an untimed first run of solver ``name`` over the first output interval (function compilation,
    buffers, caches): made before the timed runs so that no row's time holds it; NaN where it fails. A kernel
    that ``compile="auto"`` decides to compile is compiled in the background during the timed runs (forcing it
    here cost 100 s of gcc on Andrews' dense kernel, more than all its rows), so a model's first comparison may
    time a row on the virtual machine that later comparisons time compiled."""
    solver = make_solver(name, value)
    started = time.perf_counter()
    try:
        solve(solver, model.system, t_grid[:2], value if kind == "rtol" else min(value, t_grid[1]))
    except (SolverError, ValueError):   # the timed run then says why
        return np.nan
    return time.perf_counter() - started


def comparison_run(model: ComparisonModel, name: str, kind: str, value: float, t_grid, reference_values,
                   scale: float) -> Run:
    """One row: solver ``name`` with its setting ``value`` (of ``kind`` "rtol" or "h") on ``model`` over
    ``t_grid``, its sensor error against ``reference_values`` relative to ``scale``; a SolverError is a
    failed row."""
    solver = make_solver(name, value)
    started = time.perf_counter()
    try:
        result = solve(solver, model.system, t_grid, value)
    except SolverError as failure:
        return Run(name, f"{kind}={value:.3g}", value, time.perf_counter() - started, 0.0, 0, 0, 0,
                   np.nan, np.nan, np.nan, status=f"failed: {failure}")
    except ValueError as refusal:   # a scheme that does not take this model (an explicit one and constraints)
        return Run(name, f"{kind}={value:.3g}", value, 0.0, 0.0, 0, 0, 0, np.nan, np.nan, np.nan,
                   status=f"refused: {refusal}")
    states = [_State(*row) for row in zip(result.t, result.q, result.v)]
    position, velocity = constraint_violation(model.system, states)
    error = np.abs(result.sensor(model.sensor) - reference_values).max() / scale
    stats = result.statistics
    digits = (np.nan, np.nan)
    if model.published is not None and np.isclose(result.t[-1], model.t_end):
        values, published = model.published(result)
        digits = (significant_correct_digits(values, published), mixed_significant_correct_digits(values, published))
    return Run(name, f"{kind}={value:.3g}", value, stats.solve_time, result.info.get("setup_time", 0.0),
               stats.steps, stats.newton_iterations, stats.jacobian_evaluations, float(error), position, velocity,
               scd=digits[0], mescd=digits[1])


def _run_on_worker(index: int, model_name: str, name: str, kind: str, value: float, t_grid, reference_values,
                   scale: float) -> tuple[int, Run]:
    """A comparison run as a dask task: the model is loaded once per worker (floatframe.study.built_model)."""
    from floatframe.study import built_model

    model = built_model(load_model, model_name)
    return index, comparison_run(model, name, kind, value, t_grid, reference_values, scale)


@dataclass
class _State:
    t: float
    q: np.ndarray
    v: np.ndarray


def check_outputs(out_dir, owner: str) -> dict:
    """The paths of :func:`write_outputs` in ``out_dir``; OutputPathError (naming ``owner``) if one cannot be
    written."""
    paths = {kind: Path(out_dir) / name for kind, name in OUTPUT_FILES.items()}
    for path in paths.values():
        check_output_file(path, owner)
    return paths


def write_outputs(rows: list[Run], out_dir: Path, title: str, reference: str) -> dict:
    """Write comparison.csv, comparison.md and work_precision.png; returns their paths."""
    paths = check_outputs(out_dir, "write_outputs")
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    with paths["csv"].open("w", newline="") as stream:   # the one header style, text columns without a unit
        writer = csv.writer(stream)
        writer.writerow(CSV_COLUMNS.values())
        for row in rows:
            writer.writerow(asdict(row)[field] for field in CSV_COLUMNS)
    digits = any(np.isfinite(r.mescd) for r in rows)
    header = ["solver", "setting (rtol [-] or h [s])", "wall time [s]", "warm-up [s]", "setup [s]", "steps",
              "Newton it.", "Jacobians", "error [-]", *(["scd [digits]", "mescd [digits]"] if digits else []),
              "max abs C [m, rad]", "max abs dC/dt [m/s, rad/s]", "status"]
    lines = [f"Comparison on {title} (error: relative max-norm of the sensor against the {reference} reference"
             + ("; scd, mescd: significant correct digits of the published solution at the end time, relative and "
                "mixed error as the IVP test set defines them" if digits else "")
             + "; wall time excludes the warm-up run, listed apart)", "",
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in rows:
        lines.append(f"| {r.solver} | {r.setting} | {r.wall_time:.3f} | {r.warmup_time:.3f} | {r.setup_time:.3f} | "
                     f"{r.steps} | {r.newton_iterations} | {r.jacobian_evaluations} | {r.error:.2e} | "
                     + (f"{r.scd:.2f} | {r.mescd:.2f} | " if digits else "")
                     + f"{r.position_violation:.1e} | {r.velocity_violation:.1e} | {r.status.splitlines()[0]} |")
    paths["md"].write_text("\n".join(lines) + "\n")
    import matplotlib.pyplot as plt

    figure = work_precision_figure(rows, title, digits)
    figure.savefig(paths["png"], dpi=120)
    plt.close(figure)
    return paths


def work_precision_figure(rows: list[Run], title: str, digits: bool):
    """The work-precision plot of ``rows``: mescd (``digits``) or the relative sensor error against wall time.

    The log axes are labelled at 1, 2 and 5 times the powers of ten where the data span less than two
    decades, and at the powers of ten otherwise, as plain numbers: their labels do not overlap.
    """
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FormatStrFormatter, LogLocator, NullFormatter

    figure, axes = plt.subplots(figsize=(6.4, 4.8))
    for name in dict.fromkeys(r.solver for r in rows):
        mine = [r for r in rows if r.solver == name and r.status == "ok"
                and (np.isfinite(r.mescd) if digits else r.error > 0)]
        if mine:
            measure = [r.mescd for r in mine] if digits else [r.error for r in mine]
            axes.plot([r.wall_time for r in mine], measure, "o-", label=name)
    axes.set_xscale("log")
    if not digits:
        axes.set_yscale("log")
    for axis, limits in ((axes.xaxis, axes.get_xlim()), *(() if digits else ((axes.yaxis, axes.get_ylim()),))):
        decades = np.log10(limits[1] / limits[0])
        axis.set_major_locator(LogLocator(base=10.0, subs=(1.0, 2.0, 5.0) if decades < 2 else (1.0,), numticks=12))
        axis.set_major_formatter(FormatStrFormatter("%g"))
        axis.set_minor_formatter(NullFormatter())
    axes.set_xlabel("wall time [s] (warm-up excluded)")
    axes.set_ylabel("mescd [significant correct digits]" if digits else "relative sensor error [-]")
    axes.set_title(f"Work-precision: {title}")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()
    figure.tight_layout()
    return figure


def solver_argument(text: str) -> str:
    """A --solvers entry: a built-in name, or one's own Scheme as module:Class or file.py:Class (checked by
    importing it)."""
    if ":" not in text:
        from floatframe.command_line import one_of
        return one_of(tuple(SOLVERS), "solver")(text)
    try:
        scheme_class(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("compare: ")) from None
    return text


def external_argument(text: str) -> list[Run]:
    """A --external entry: the rows of that CSV (:func:`read_runs`)."""
    try:
        return read_runs(text)
    except (OSError, ValueError) as exc:
        raise argparse.ArgumentTypeError(f"cannot read {text}: {exc}") from None


def compare_main(argv=None) -> int:
    """``python -m floatframe compare MODEL --solvers idas,genalpha,...``"""
    from floatframe.command_line import HELP_FORMAT, comma_list, one_of, positive_float, positive_int
    from floatframe.models.registry import model_names

    parser = argparse.ArgumentParser(prog="floatframe compare", description=__doc__.splitlines()[0],
                                     formatter_class=HELP_FORMAT)
    parser.add_argument("model", type=one_of(model_names("compare"), "model", files=True),
                        help=f"{', '.join(model_names('compare'))}, or a Python file with build()")
    parser.add_argument("--solvers", type=comma_list(solver_argument), default="idas,genalpha",
                        help=f"comma-separated, from {','.join(SOLVERS)}, or your own as module:Class or "
                             f"file.py:Class (a floatframe.solvers.loop.Scheme)")
    parser.add_argument("--tolerances", type=comma_list(positive_float),
                        default=",".join(f"{x:g}" for x in DEFAULT_TOLERANCES), help="rtol values of the IDAS runs")
    parser.add_argument("--refinements", type=comma_list(positive_int),
                        default=",".join(str(x) for x in DEFAULT_REFINEMENTS),
                        help="fixed steps per output interval of the fixed-step runs")
    parser.add_argument("--t-end", type=positive_float, default=None, help="end time [s]; None takes the model's")
    parser.add_argument("--outputs", type=positive_int, default=None,
                        help="number of output intervals; None takes the model's")
    parser.add_argument("--reference", choices=("idas", "genalpha"), default="idas", help="reference solver")
    parser.add_argument("--reference-rtol", type=positive_float, default=1e-10, help="rtol of the IDAS reference")
    parser.add_argument("--output", type=output_folder_argument, default="output",
                        help="output folder of comparison.csv, comparison.md and work_precision.png")
    parser.add_argument("--out", type=output_folder_argument, default=None,
                        help="deprecated alias of --output")
    parser.add_argument("--external", type=external_argument, action="append", default=[], metavar="CSV",
                        help="rows measured elsewhere in the columns of comparison.csv, set beside the runs in the "
                             "table and the plot (repeatable)")
    parser.add_argument("--scheduler", default=None, help="send the runs to the dask scheduler at this address")
    parser.add_argument("--workers", type=positive_int, default=None,
                        help="send the runs to a dask LocalCluster of this many worker processes")
    parser.add_argument("--timeout", type=positive_float, default=10.0,
                        help="seconds to wait for the scheduler given by --scheduler")
    args = parser.parse_args(argv)
    if args.out is not None:
        if args.output != "output":
            parser.error("give --output only (--out is its deprecated alias)")
        warnings.warn("compare: --out is deprecated, use --output", FutureWarning, stacklevel=2)
    args.out = args.out if args.out is not None else args.output
    if args.scheduler is not None and args.workers is not None:
        parser.error("give --scheduler (a running cluster) or --workers (a local one), not both")
    from floatframe.study import StudyError
    try:
        check_outputs(args.out, "--output")
        rows = run_comparison(args.model, args.solvers, args.tolerances, args.refinements, args.t_end, args.outputs,
                              args.reference, args.reference_rtol, args.out, scheduler=args.scheduler,
                              workers=args.workers, timeout=args.timeout,
                              external=[run for rows in args.external for run in rows])
    except (StudyError, OutputPathError, ModelError) as error:
        parser.error(str(error))
    print((Path(args.out) / "comparison.md").read_text())
    return 0 if all(r.status == "ok" for r in rows) else 1
