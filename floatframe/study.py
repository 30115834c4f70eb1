"""Parameter studies on dask.distributed: one model function of named parameters run over a grid, a list of
samples, Monte Carlo or Latin-hypercube samples, on a local cluster or an existing one.

A study function takes the parameters as keyword arguments and returns a dict of named scalar outputs, e.g.
:func:`pendulum_period`. :func:`run_study` sends one task per sample to the cluster and returns a
``pandas.DataFrame`` with one row per run: the parameters, the outputs, ``wall_time`` [s], ``status``
("ok" or "failed") and ``error`` (the exception of a failed run, which does not stop the study). With
``output`` the rows are written to a CSV or Parquet file as they arrive, and a study started again with the
same file runs only the samples that have no row yet.

A study over symbolic ``Parameter`` s of one model builds the model once per worker: :class:`ModelStudy`
(build, then set values and solve in each task) and :class:`SensorStudy` (a sensor's values through the
differentiable step map, optionally with their exact gradient). :func:`dask_client` and :func:`run_on_dask`
are the Dask set-up that ``floatframe.compare`` also uses to send the solver ladder to a cluster.

Dask rather than Ray: the same ``Client`` runs on a laptop (``LocalCluster``) and on a cluster (a scheduler
address, dask-jobqueue for HPC batch systems), its futures and ``as_completed`` give the rows as they finish,
and it is built around NumPy/pandas data, which is what a study produces (docs/parameter_studies.md).
"""
from __future__ import annotations

import contextlib
import functools
import importlib.util
import itertools
import os
import threading
import time
from pathlib import Path
from typing import Callable

import numpy as np

OUTPUT_COLUMNS = ("wall_time", "status", "error")


class StudyError(ValueError):
    """A study that cannot start: the message names the parameter or sample at fault."""


# --- samples -------------------------------------------------------------------------------------
def grid(**values) -> list[dict]:
    """All combinations of the given values, e.g. ``grid(length=[0.5, 1.0], mass=[1, 2])`` (4 samples)."""
    names = list(values)
    lists = [np.atleast_1d(np.asarray(values[name], dtype=float)).tolist() for name in names]
    for name, entries in zip(names, lists):
        if not entries:
            raise StudyError(f"grid: parameter '{name}' has no values")
    return [dict(zip(names, combination)) for combination in itertools.product(*lists)]


def distribution(spec):
    """A frozen scipy.stats distribution from one or a string "normal:mu:sigma", "uniform:low:high" or
    "lognormal:mu:sigma" (mu, sigma of the logarithm)."""
    import scipy.stats as stats

    if hasattr(spec, "ppf"):
        return spec
    kind, *numbers = str(spec).split(":")
    try:
        a, b = (float(x) for x in numbers)
    except ValueError:
        raise StudyError(f"distribution '{spec}': give kind:a:b with two numbers, e.g. normal:1.0:0.05") from None
    makers = {"normal": lambda: stats.norm(a, b), "uniform": lambda: stats.uniform(a, b - a),
              "lognormal": lambda: stats.lognorm(b, scale=np.exp(a))}
    if kind not in makers:
        raise StudyError(f"distribution '{spec}': unknown kind '{kind}' (normal, uniform, lognormal)")
    if kind == "uniform" and b <= a:
        raise StudyError(f"distribution '{spec}': the second number must be above the first")
    if kind != "uniform" and b <= 0:
        raise StudyError(f"distribution '{spec}': the second number must be positive")
    return makers[kind]()


def monte_carlo(n: int, seed: int = 0, **distributions) -> list[dict]:
    """``n`` independent random samples of the named distributions (see :func:`distribution`)."""
    frozen = {name: distribution(spec) for name, spec in distributions.items()}
    rng = np.random.default_rng(seed)
    columns = {name: d.rvs(size=int(n), random_state=rng) for name, d in frozen.items()}
    return [{name: float(columns[name][k]) for name in frozen} for k in range(int(n))]


def latin_hypercube(n: int, seed: int = 0, **distributions) -> list[dict]:
    """``n`` Latin-hypercube samples: each distribution's n equiprobable strata hit once (scipy.stats.qmc)."""
    from scipy.stats import qmc

    frozen = {name: distribution(spec) for name, spec in distributions.items()}
    unit = qmc.LatinHypercube(d=len(frozen), seed=seed).random(int(n))
    return [{name: float(d.ppf(unit[k, j])) for j, (name, d) in enumerate(frozen.items())} for k in range(int(n))]


# --- models built once per worker ----------------------------------------------------------------
class ModelStudy:
    """A study function in two parts: a model with symbolic Parameters, built once per worker, and a run on it.

    ``build(names)`` returns the model (e.g. an assembled system) in which the study's parameters ``names``
    (a sorted tuple) are symbolic :class:`~floatframe.parameters.Parameter` objects; ``solve(model, **values)``
    sets their numeric values (``assembled.set_parameter``), solves and returns the outputs. Called as a study
    function, ``ModelStudy(build, solve)(**values)`` builds the model on the first call in a worker process
    and thread (:func:`built_model`, keyed by ``build`` and the names; :func:`model_builds` counts the
    builds) and only solves on later ones. So each task sends the study function (its two functions by
    reference) and one parameter dict, not a model. ``build`` and ``solve`` must be module-level functions.

    Parameters
    ----------
    build : callable
        ``build(names) -> model``, ``names`` the sorted tuple of the study's parameter names.
    solve : callable
        ``solve(model, **values) -> dict`` of named scalar outputs; its keyword parameters are the study's.
    cache : bool, default True
        False builds the model on every call (the reference that the cached runs must equal).
    name : str, optional
        The study function's name in messages; default the name of ``solve``.

    Notes
    -----
    A solve must leave no state in the model that the next run would see: it sets every Parameter it
    varies. Tasks of one worker share its model only within a thread, so a worker with several threads
    builds it once per thread.
    """

    def __init__(self, build: Callable, solve: Callable, cache: bool = True, name: str | None = None):
        import inspect

        self.build, self.solve, self.cache = build, solve, cache
        self.__name__ = name or getattr(solve, "__name__", "ModelStudy")
        signature = inspect.signature(solve)
        self.__signature__ = signature.replace(parameters=list(signature.parameters.values())[1:])
        self.__doc__ = solve.__doc__

    def __call__(self, **values) -> dict:
        names = tuple(sorted(values))
        model = built_model(self.build, names) if self.cache else self.build(names)
        return self.solve(model, **values)

    def uncached(self) -> "ModelStudy":
        """The same study function building its model on every call."""
        return ModelStudy(self.build, self.solve, cache=False, name=self.__name__)

    def __repr__(self):
        return (f"ModelStudy({self.build.__name__}, {self.solve.__name__}"
                f"{'' if self.cache else ', cache=False'}, name={self.__name__!r})")


_BUILD_COUNTS: dict = {}


@functools.lru_cache(maxsize=16)
def _built_in_thread(make: Callable, arguments: tuple, thread: int):
    key = f"{make.__module__}.{make.__qualname__}{_describe(arguments)}"
    _BUILD_COUNTS[key] = _BUILD_COUNTS.get(key, 0) + 1
    return make(*arguments)


def _describe(arguments: tuple) -> str:
    return "(" + ", ".join(getattr(a, "__qualname__", None) or repr(a) for a in arguments) + ")"


def built_model(make: Callable, *arguments):
    """``make(*arguments)``, made on the first call in this process and thread and taken from a cache later.

    The cache (``functools.lru_cache``) holds the 16 models used last. ``make`` and ``arguments`` are its key:
    module-level functions (which unpickling gives back as the same object) and values such as tuples of
    names and numbers. :func:`model_builds` counts the calls of ``make``.

    Parameters
    ----------
    make : callable
        A module-level function that builds the model.
    *arguments
        Hashable arguments of ``make``.
    """
    return _built_in_thread(make, arguments, threading.get_ident())


def model_builds() -> dict:
    """How many models :func:`built_model` has made in this process.

    Returns
    -------
    dict
        ``"module.make(arguments)"`` -> count. On a cluster, ``client.run(model_builds)`` gives each worker's.
    """
    return dict(_BUILD_COUNTS)


class SensorStudy:
    """A study function over symbolic Parameters whose outputs are one sensor's values at given times, through
    the differentiable generalized-alpha step map; with ``gradient`` each run also returns their exact
    derivatives with respect to the study's parameters.

    Each worker process (and thread) builds the model and the CasADi function of the run
    (:func:`floatframe.ocp.step.sensor_response`, with its Jacobian) once per set of parameter names; each
    task only evaluates it. The derivatives come from the implicit-function theorem on every step (no finite
    differences).

    Parameters
    ----------
    build : callable
        ``build(names) -> AssembledSystem`` with symbolic Parameters; a module-level function.
    parameters : tuple of str or callable
        The study's parameter names, each a scalar Parameter of the model; or a module-level function of the
        study's parameters (keywords with defaults) that returns the model's Parameter values by name, written
        with arithmetic only (it is also called with CasADi symbols), e.g. a scalar support stiffness that sets
        two size-3 Parameters. Parameters it does not return keep their values.
    sensor : int
        The sensor's number in the model.
    times : sequence of float
        Output times [s], multiples of ``h``.
    h : float
        Step size [s].
    spectral_radius : float, default 0.9
        Of generalized-alpha.
    tolerance : float, default 1e-9
        Of the Newton iteration of each step (residual rows of R and C / beta').
    gradient : bool, default False
        Also return ``d{output}_{i}_d{name}``: the derivative of output i with respect to parameter ``name``.
    output : str, default "sensor"
        Name of the outputs: ``{output}_{i}`` for time i of a scalar sensor, ``{output}_{i}_{j}`` for
        component j of a vector one.
    name : str, optional
        The study function's name in messages; default ``SensorStudy(build's name)``.
    """

    def __init__(self, build: Callable, parameters, sensor: int, times, h: float, *, spectral_radius: float = 0.9,
                 tolerance: float = 1e-9, gradient: bool = False, output: str = "sensor", name: str | None = None):
        import inspect

        if not h > 0:
            raise StudyError(f"SensorStudy: the step size h must be positive, got {h!r}")
        self.build, self.parameters, self.sensor, self.h = build, parameters, int(sensor), float(h)
        self.steps = tuple(int(round(t / self.h)) for t in times)
        mismatched = [t for t, k in zip(times, self.steps) if abs(k * self.h - t) > 1e-9 * max(abs(t), self.h)]
        if mismatched or not self.steps or min(self.steps) < 1 or list(self.steps) != sorted(set(self.steps)):
            raise StudyError(f"SensorStudy: times must increase and be positive multiples of h = {h:g} s, got "
                             f"{list(times)}")
        self.spectral_radius, self.tolerance, self.gradient, self.output = spectral_radius, tolerance, gradient, output
        if callable(parameters):
            self.__signature__ = inspect.signature(parameters)
        else:
            self.__signature__ = inspect.Signature([inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY)
                                                    for name in parameters])
        self.__name__ = name or f"SensorStudy({getattr(build, '__name__', build)})"

    def __call__(self, **values) -> dict:
        names = tuple(sorted(values))
        function = built_model(_sensor_response_function, self.build, names, self.parameters, self.sensor,
                               self.steps, self.h, self.spectral_radius, self.tolerance, self.gradient)
        results = function(np.array([float(values[name]) for name in names]))
        y = np.array(results[0] if self.gradient else results).reshape(len(self.steps), -1)
        labels = [f"{self.output}_{i}" if y.shape[1] == 1 else f"{self.output}_{i}_{j}"
                  for i in range(y.shape[0]) for j in range(y.shape[1])]
        outputs = dict(zip(labels, y.reshape(-1)))
        if self.gradient:
            jacobian = np.array(results[1])
            for column, name in enumerate(names):
                outputs.update({f"d{label}_d{name}": jacobian[row, column] for row, label in enumerate(labels)})
        return outputs

    def with_gradient(self) -> "SensorStudy":
        """The same study whose runs also return the derivatives."""
        return SensorStudy(self.build, self.parameters, self.sensor, [k * self.h for k in self.steps], self.h,
                           spectral_radius=self.spectral_radius, tolerance=self.tolerance, gradient=True,
                           output=self.output, name=self.__name__)


def _sensor_response_function(build, names, parameters, sensor, steps, h, spectral_radius, tolerance, gradient):
    """The CasADi function s -> sensor values (and their Jacobian) of a :class:`SensorStudy` (s: the values of
    ``names``)."""
    import casadi as ca

    from floatframe.ocp.step import sensor_response

    assembled = build(names)
    s = ca.MX.sym("s", len(names))
    symbols = {name: s[k] for k, name in enumerate(names)}
    values = parameters(**symbols) if callable(parameters) else {name: symbols[name] for name in names}
    known = {parameter.name: parameter for parameter in assembled.parameters}
    unknown = [name for name in values if name not in known]
    if unknown:
        raise StudyError(f"SensorStudy: the model has no Parameter {unknown[0]!r}; it has {sorted(known)}")
    entries = {name: value if isinstance(value, (list, tuple)) else [value] for name, value in values.items()}
    p = ca.vertcat(*[ca.vertcat(*entries[q.name]) if q.name in entries
                     else ca.MX(assembled.parameter_values[q.name]) for q in assembled.parameters])
    return sensor_response(assembled, sensor, steps, h, s, p, spectral_radius, tolerance, gradient)


# --- running -------------------------------------------------------------------------------------
def run_one(function: Callable, parameters: dict) -> dict:
    """One row: the parameters, the function's outputs, the wall time and the status (never raises)."""
    started = time.perf_counter()
    try:
        outputs = function(**parameters)
        row = {**parameters, **{name: float(value) for name, value in outputs.items()}, "status": "ok", "error": ""}
    except Exception as exc:                      # a failed run is a row, not the end of the study
        row = {**parameters, "status": "failed", "error": f"{type(exc).__name__}: {exc}"}
    row["wall_time"] = time.perf_counter() - started
    return row


def run_study(function: Callable, samples: list[dict], *, client=None, scheduler: str | None = None,
              workers: int | None = None, output: str | Path | None = None, progress: bool = True,
              timeout: float = 10.0):
    """Run ``function(**sample)`` for every sample on dask.distributed; returns a pandas DataFrame.

    Parameters
    ----------
    function : callable
        The study function: keyword parameters in, a dict of named scalar outputs out (e.g. a
        :class:`ModelStudy`, whose model each worker builds once).
    samples : list of dict
        The parameter sets, all with the same names (:func:`grid`, :func:`monte_carlo`, ...).
    client : distributed.Client, optional
        An existing client; else ``scheduler``; else a LocalCluster of ``workers`` (see :func:`dask_client`).
    scheduler : str, optional
        Address of a running dask scheduler, e.g. ``"tcp://host:8786"``.
    workers : int, optional
        Worker processes of the LocalCluster (default: the machine's cores), closed afterwards.
    output : str or Path, optional
        A ``.csv`` or ``.parquet`` file that receives each row as it arrives; samples that already have a row
        there are not run again.
    progress : bool, default True
        Show a tqdm bar.
    timeout : float, default 10
        Seconds to wait for the scheduler at ``scheduler``.

    Returns
    -------
    pandas.DataFrame
        One row per sample in the samples' order: the parameters, the outputs, ``wall_time``, ``status``,
        ``error``.

    Raises
    ------
    StudyError
        Before any task is sent: samples that are not dicts of the same names, a name ``function`` does not
        take, an output file of another suffix or of another study, a scheduler that cannot be reached
        within ``timeout``.
    """
    import pandas as pd

    names = _checked_samples(function, samples)
    row_file = None if output is None else RowFile(output)
    rows = _finished_rows(row_file, names)
    todo = [sample for sample in samples if _key(sample, names) not in rows]
    if todo:
        with dask_client(client, scheduler, workers, timeout) as active:
            for row in run_on_dask(active, run_one, [(function, sample) for sample in todo], progress):
                rows[_key(row, names)] = row
                if row_file is not None:
                    row_file.add(row)
    table = pd.DataFrame([rows[_key(sample, names)] for sample in samples])   # in the order of the samples
    order = [*names, *[c for c in table.columns if c not in names and c not in OUTPUT_COLUMNS], *OUTPUT_COLUMNS]
    return table[[c for c in order if c in table.columns]]


@contextlib.contextmanager
def dask_client(client=None, scheduler: str | None = None, workers: int | None = None, timeout: float = 10.0):
    """A dask.distributed ``Client``: ``client`` itself, or one connected to ``scheduler``, or one on a new
    ``LocalCluster`` of ``workers`` single-threaded processes (default: the machine's cores); the ones made
    here are closed on exit. The study and the solver comparison (``floatframe.compare``) run through it.

    Parameters
    ----------
    client : distributed.Client, optional
        Used as it is (and not closed).
    scheduler : str, optional
        Address of a running scheduler, e.g. ``"tcp://host:8786"``.
    workers : int, optional
        Processes of the LocalCluster made when neither ``client`` nor ``scheduler`` is given.
    timeout : float, default 10
        Seconds to wait for the scheduler at ``scheduler``.

    Yields
    ------
    distributed.Client

    Raises
    ------
    StudyError
        When the scheduler at ``scheduler`` cannot be reached within ``timeout`` seconds (the message names
        the address and the timeout), for a ``timeout`` that is not a positive number and for ``workers``
        that is not a positive integer.
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ImportError("floatframe.study needs dask.distributed: pip install 'floatframe[study]'") from None
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise StudyError(f"workers must be a positive integer, got {workers!r}")
    if not (isinstance(timeout, (int, float)) and timeout > 0):
        raise StudyError(f"the scheduler's timeout must be a positive number of seconds, got {timeout!r}")
    if client is not None:
        yield client
        return
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=timeout)
        except (OSError, TimeoutError, ValueError) as failure:
            raise StudyError(f"cannot reach the dask scheduler at {scheduler} within the timeout of {timeout:g} s "
                             f"({type(failure).__name__}: {failure})") from None
        with client:
            yield client
        return
    with _without_malloc_trim():
        cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                               dashboard_address=None)
    with cluster, Client(cluster) as client:
        yield client


@contextlib.contextmanager
def _without_malloc_trim():
    """Spawn Dask workers without MALLOC_TRIM_THRESHOLD_ (for :func:`dask_client`'s LocalCluster).

    Dask's nanny sets it to 64 kB in the workers' environment (``distributed.nanny.pre-spawn-environ``), and
    it leaves the variable in this process's environment too, where later spawns inherit it. Any fixed value
    turns off glibc's adaptive thresholds: freed memory goes back to the system at once and every array above
    128 kB is mapped afresh. A floatframe run allocates and frees many such arrays, and the page faults made
    a run of ``rotor_disc_supports`` 1.4 times slower in a worker than in the process (median 1.12-1.18 s
    against 0.82-0.85 s; ``python benchmarks/study_scaling.py --inside``). Workers that should keep Dask's
    setting: pass your own ``client``.
    """
    import dask

    environment = dict(dask.config.get("distributed.nanny.pre-spawn-environ", {}))
    environment.pop("MALLOC_TRIM_THRESHOLD_", None)
    inherited = os.environ.pop("MALLOC_TRIM_THRESHOLD_", None)
    try:
        with dask.config.set({"distributed.nanny.pre-spawn-environ": environment}):
            yield
    finally:
        if inherited is not None:
            os.environ["MALLOC_TRIM_THRESHOLD_"] = inherited


def run_on_dask(client, function: Callable, arguments: list[tuple], progress: bool = False, description="study"):
    """Run ``function(*args)`` for each tuple of ``arguments`` as tasks on ``client``.

    Parameters
    ----------
    client : distributed.Client
        The client, e.g. from :func:`dask_client`.
    function : callable
        A module-level function (Dask pickles it by name).
    arguments : list of tuple
        One tuple of arguments per task.
    progress : bool, default False
        Show a tqdm bar labelled ``description``.
    description : str, default "study"
        The bar's label.

    Yields
    ------
    object
        Each task's result as it finishes (``distributed.as_completed``), not in the order of ``arguments``.
    """
    from distributed import as_completed
    from tqdm import tqdm

    futures = [client.submit(function, *args, pure=False) for args in arguments]
    for future in tqdm(as_completed(futures), total=len(futures), desc=description, disable=not progress):
        yield future.result()


def _checked_samples(function, samples) -> list[str]:
    import inspect

    if not callable(function):
        raise StudyError(f"run_study: the study function must be callable, got {function!r}")
    if not samples:
        raise StudyError("run_study: no samples")
    names = list(samples[0])
    for k, sample in enumerate(samples):
        if not isinstance(sample, dict) or list(sample) != names:
            raise StudyError(f"run_study: sample {k} has parameters {list(sample) if isinstance(sample, dict) else sample!r}"
                             f", the first one {names}")
    signature = inspect.signature(function)
    accepts_any = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())
    unknown = [name for name in names if name not in signature.parameters and not accepts_any]
    if unknown:
        raise StudyError(f"run_study: {getattr(function, '__name__', function)} has no parameter "
                         f"{', '.join(map(repr, unknown))}; it takes {', '.join(signature.parameters)}")
    return names


def _key(sample: dict, names) -> tuple:
    return tuple(float(sample[name]) for name in names)


def _finished_rows(row_file, names) -> dict:
    """Rows already in the output file, by their parameter values."""
    if row_file is None:
        return {}
    rows = row_file.read()
    missing = [name for name in names if rows and name not in rows[0]]
    if missing:
        raise StudyError(f"run_study: {row_file.path} has no column {missing[0]!r}; it belongs to another study")
    return {_key(row, names): row for row in rows}


class RowFile:
    """The study's output file, chosen by its suffix: ``.csv`` (each row appended) or ``.parquet`` (rewritten
    whole on each row, to a temporary file that then replaces it, so that an interrupted study leaves a
    readable file; pyarrow).

    Parameters
    ----------
    path : str or Path
        The file; its folder is made on the first row.

    Raises
    ------
    StudyError
        For another suffix, or for ``.parquet`` without pyarrow.
    """

    SUFFIXES = (".csv", ".parquet")

    def __init__(self, path):
        self.path = Path(path)
        if self.path.suffix not in self.SUFFIXES:
            raise StudyError(f"run_study: output {self.path} must end in .csv or .parquet, not "
                             f"'{self.path.suffix}'")
        if self.parquet and importlib.util.find_spec("pyarrow") is None:
            raise StudyError(f"run_study: output {self.path} needs pyarrow: pip install 'floatframe[study]'")
        self._rows = None

    @property
    def parquet(self) -> bool:
        return self.path.suffix == ".parquet"

    def read(self) -> list[dict]:
        """The rows in the file (none if it does not exist)."""
        import pandas as pd

        if not self.path.is_file():
            self._rows = []
        elif self.parquet:
            self._rows = pd.read_parquet(self.path).to_dict("records")
        else:
            self._rows = pd.read_csv(self.path, keep_default_na=False).to_dict("records")
        return list(self._rows)

    def add(self, row: dict) -> None:
        """Write one more row."""
        import pandas as pd

        if self._rows is None:
            self.read()
        self._rows.append(row)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.parquet:
            partial = self.path.with_name(self.path.name + ".partial")
            pd.DataFrame(self._rows).to_parquet(partial, index=False)
            os.replace(partial, self.path)
            return
        frame = pd.DataFrame([row])
        if self.path.is_file():
            columns = list(pd.read_csv(self.path, nrows=0).columns)
            frame = frame.reindex(columns=columns + [c for c in frame.columns if c not in columns])
        frame.to_csv(self.path, mode="a", header=not self.path.is_file(), index=False)


# --- study functions of the ready models ---------------------------------------------------------
def pendulum_period(length=1.0, mass=2.0, radius_of_gyration=0.2, angle0=0.3, steps_per_period=200):
    """The rigid pendulum (``floatframe.models.pendulum``) released at ``angle0`` [rad]: its period [s] from
    the simulation (two upward zero crossings of the centre's x, interpolated) and the closed-form small-
    oscillation period."""
    from floatframe.models.pendulum import build_pendulum
    from floatframe.solvers.genalpha import GeneralizedAlpha

    if length <= 0 or mass <= 0:
        raise ValueError(f"length and mass must be positive, got length={length}, mass={mass}")
    system, info = build_pendulum(length=length, mass=mass, radius_of_gyration=radius_of_gyration, angle0=angle0)
    period = info.small_oscillation_period
    t_end = 2.2 * period
    result = GeneralizedAlpha(1.0).solve(system.assemble(), t_end, int(np.ceil(2.2 * steps_per_period)),
                                         progress=False)
    x = result.sensor(info.position_sensor)[:, 0]
    rising = np.flatnonzero((x[:-1] < 0) & (x[1:] >= 0))
    if rising.size < 2:
        raise RuntimeError(f"the pendulum crossed x = 0 upward {rising.size} times in {t_end:.3g} s")
    times = [result.t[k] - x[k] * (result.t[k + 1] - result.t[k]) / (x[k + 1] - x[k]) for k in rising[:2]]
    return {"period": times[1] - times[0], "period_small_oscillation": period}


def rotor_disc_response(disc_radius=0.2, steps=10):
    """The rotor disc of ``floatframe.models.rotor_disc`` (Tisserand frame, full Hex8 mesh of
    ``rotor_disc_mesh``, steel) with a disc of ``disc_radius`` [m]: the largest displacement [m] of the axis
    node at the disc over ``steps`` steps of the model's step size."""
    from floatframe.fem import linear_elastic_matrices, rotor_disc_mesh
    from floatframe.models.rotor_disc import STEEL, build_rotor_disc
    from floatframe.solvers.genalpha import GeneralizedAlpha

    mesh = rotor_disc_mesh(disc_radius=disc_radius)
    mass, stiffness = linear_elastic_matrices(mesh, **STEEL)
    rotor = build_rotor_disc(nodes=mesh.nodes, mass_matrix=mass, stiffness_matrix=stiffness)
    result = GeneralizedAlpha(rotor.spectral_radius).solve(rotor.system.assemble(), steps * rotor.h, int(steps),
                                                           progress=False)
    return {"max_displacement": float(np.abs(result.sensor(rotor.sensor)).max())}


def _rotor_disc_on_symbolic_supports(names):
    """The rotor disc of :func:`rotor_disc_response` (default disc) with symbolic supports, assembled."""
    from floatframe.models.rotor_disc import build_rotor_disc

    rotor = build_rotor_disc(symbolic_supports=True)
    return rotor, rotor.system.assemble()


def _rotor_disc_support_run(model, support_stiffness=2e8, support_damping=2e6, steps=10):
    """The rotor disc (built-in mesh, Tisserand frame) on supports of ``support_stiffness`` [N/m] and
    ``support_damping`` [N s/m], symbolic Parameters of one model built once per worker: the largest
    displacement [m] of the axis node at the disc over ``steps`` steps of the model's step size."""
    from floatframe.models.rotor_disc import support_parameter_values
    from floatframe.solvers.genalpha import GeneralizedAlpha

    if support_stiffness <= 0 or support_damping < 0:
        raise ValueError(f"support_stiffness must be positive and support_damping >= 0, got "
                         f"{support_stiffness}, {support_damping}")
    rotor, assembled = model
    for name, value in support_parameter_values(support_stiffness, support_damping).items():
        assembled.set_parameter(name, value)
    result = GeneralizedAlpha(rotor.spectral_radius).solve(assembled, steps * rotor.h, int(steps), progress=False)
    return {"max_displacement": float(np.abs(result.sensor(rotor.sensor)).max())}


#: the rotor disc against its supports' stiffness and damping, built once per worker (a :class:`ModelStudy`)
rotor_disc_supports = ModelStudy(_rotor_disc_on_symbolic_supports, _rotor_disc_support_run,
                                 name="rotor_disc_supports")


def _reduced_rotor_disc_on_symbolic_supports(names):
    """The rotor disc reduced to 4 free-free eigenmodes, with symbolic supports, assembled."""
    from floatframe.models.rotor_disc import build_rotor_disc

    return build_rotor_disc(modes=4, symbolic_supports=True).system.assemble()


def rotor_support_parameters(support_stiffness=2e8, support_damping=2e6) -> dict:
    """The rotor disc's support Parameters (``SUPPORT_PARAMETERS``) for a support stiffness [N/m] and damping
    [N s/m] (arithmetic only: a :class:`SensorStudy` calls it with CasADi symbols)."""
    from floatframe.models.rotor_disc import support_parameter_values

    return support_parameter_values(support_stiffness, support_damping)


#: the displacement of the reduced rotor disc's axis node at the disc at 1, ..., 5 ms (outputs
#: ``displacement_{i}_{j}``, i the time, j = x, y, z as 0, 1, 2) against the supports' stiffness and damping,
#: through the step map; ``rotor_disc_sensitivity.with_gradient()`` also returns the exact derivatives
rotor_disc_sensitivity = SensorStudy(_reduced_rotor_disc_on_symbolic_supports, rotor_support_parameters, sensor=0,
                                     times=[1e-3, 2e-3, 3e-3, 4e-3, 5e-3], h=1e-4, spectral_radius=0.5,
                                     tolerance=1e-6, output="displacement", name="rotor_disc_sensitivity")


def oscillator_response(stiffness=40.0, damping=0.5, mass=1.0, times=(0.2, 0.4, 0.6, 0.8, 1.0), steps=100,
                        gradient=False):
    """A point mass [kg] on a spring-damper along x (released from x = 0.1 m at rest), its ``stiffness``
    [N/m] and ``damping`` [N s/m] symbolic Parameters: the displacements x(t_i) [m] at ``times`` [s] (outputs
    ``x_0``, ``x_1``, ...) after generalized-alpha steps of ``times[-1] / steps``; with ``gradient`` also
    their exact derivatives ``dx_i_dstiffness`` and ``dx_i_ddamping`` (through the step map,
    ``floatframe.ocp.step``, by the implicit-function theorem)."""
    import casadi as ca

    import floatframe.components as fc
    from floatframe.ocp.step import initial_state, step_map
    from floatframe.parameters import Parameter
    from floatframe.system import System

    system = System()
    ground = system.add(fc.NodePointGround([0.0, 0.0, 0.0]))
    point = system.add(fc.NodePoint([0.0, 0.0, 0.0], initial_coordinates=[0.1, 0.0, 0.0]))
    system.add(fc.ObjectMassPoint(point, mass))
    system.add(fc.CoordinateSpringDamper([system.add(fc.MarkerNodeCoordinate(ground, 0)),
                                          system.add(fc.MarkerNodeCoordinate(point, 0))],
                                         Parameter("stiffness", stiffness), Parameter("damping", damping)))
    assembled = system.assemble()
    h = times[-1] / steps
    samples = {int(round(t / h)): i for i, t in enumerate(times)}
    p = ca.MX.sym("p", len(assembled.parameters))
    no_input = ca.MX(0, 1)
    a, lam = initial_state(assembled)(0.0, assembled.q_initial, assembled.v_initial, no_input, p)
    state, step, displacements = (assembled.q_initial, assembled.v_initial, a, a, lam), step_map(assembled), []
    for k in range(1, steps + 1):
        state = tuple(step((k - 1) * h, h, *state, no_input, p))
        if k in samples:
            displacements.append(state[0][0])
    x = ca.vertcat(*displacements)
    values, jacobian = ca.Function("response", [p], [x, ca.jacobian(x, p)])(assembled.parameter_vector())
    values, jacobian = np.array(values).reshape(-1), np.array(jacobian)
    outputs = {f"x_{i}": values[i] for i in range(len(times))}
    if gradient:
        for j, parameter in enumerate(assembled.parameters):
            outputs.update({f"dx_{i}_d{parameter.name}": jacobian[i, j] for i in range(len(times))})
    return outputs


def fit_stiffness(measured, initial=30.0, **options):
    """The stiffness [N/m] whose :func:`oscillator_response` best matches the ``measured`` displacements
    (least squares), found by scipy's Gauss-Newton-type ``least_squares`` with the exact gradient."""
    from scipy.optimize import least_squares

    measured = np.asarray(measured, dtype=float)

    def residual_and_jacobian(k):
        outputs = oscillator_response(stiffness=float(k[0]), gradient=True, **options)
        n = measured.size
        return (np.array([outputs[f"x_{i}"] for i in range(n)]) - measured,
                np.array([[outputs[f"dx_{i}_dstiffness"]] for i in range(n)]))

    cache = {}

    def evaluate(k):
        key = float(k[0])
        if key not in cache:
            cache[key] = residual_and_jacobian(k)
        return cache[key]

    solution = least_squares(lambda k: evaluate(k)[0], [initial], jac=lambda k: evaluate(k)[1], xtol=1e-14,
                             ftol=1e-14, gtol=1e-14)
    return float(solution.x[0])


STUDY_MODELS = {"pendulum": pendulum_period, "rotor-disc": rotor_disc_response,
                "rotor-disc-supports": rotor_disc_supports, "oscillator": oscillator_response}


# --- command line ----------------------------------------------------------------------------------
def study_main(argv: list[str]) -> int:
    """``floatframe study MODEL (--param NAME=v1,v2,... | --samples N --dist NAME=kind:a:b ...)``: runs the
    study, writes ``study.csv`` or ``study.parquet`` (``--format``; resumable) and ``study.png`` (each output
    against each parameter, or the histograms of a sampled study) into ``--output``; returns the exit code."""
    import argparse

    from floatframe.cli import HELP_FORMAT, positive_float, positive_int

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
    parser.add_argument("--output", default="output", help="folder for study.csv (or .parquet) and study.png")
    parser.add_argument("--format", choices=("csv", "parquet"), default="csv",
                        help="file format of the rows (parquet needs pyarrow)")
    arguments = parser.parse_args(argv)
    function = STUDY_MODELS[arguments.model]
    output = Path(arguments.output)
    rows = output / f"study.{arguments.format}"
    try:                       # run_study checks the samples against the function before it sends anything
        samples = _cli_samples(arguments)
        table = run_study(function, samples, scheduler=arguments.scheduler, workers=arguments.workers,
                          output=rows, timeout=arguments.timeout)
    except StudyError as error:
        parser.error(str(error))
    print(table.to_string(index=False))
    failed = int((table["status"] != "ok").sum())
    plot = _plot_study(table, list(samples[0]), output / "study.png", sampled=not arguments.param)
    print(f"{len(table)} runs, {failed} failed; wrote {rows} and {plot}")
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


def _plot_study(table, names, path: Path, sampled: bool) -> Path:
    """Each output against each parameter (a grid), or each output's histogram (sampled)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    outputs = [c for c in table.columns if c not in names and c not in OUTPUT_COLUMNS]
    ok = table[table["status"] == "ok"]
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
