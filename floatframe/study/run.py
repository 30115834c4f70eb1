"""Running a study: :func:`run_one` (one row, never raises) and :func:`run_study` (every sample on Dask, the rows
written to the study's record as they finish, a time limit per run, dead workers survived)."""
from __future__ import annotations

import itertools
import math
import time
import uuid
from pathlib import Path
from typing import Callable

from floatframe.study.cluster import dask_client
from floatframe.study.errors import StudyError
from floatframe.study.functions import function_identity
from floatframe.study.record import OUTPUT_COLUMNS, StudyRecord
from floatframe.study.samples import checked_samples, sample_key

#: how many times a sample is sent again after the worker it was queued on died before its run started
RESUBMISSIONS = 3
#: seconds between two looks at the running tasks' time when nothing finished
POLL_INTERVAL = 0.02


def checked_outputs(outputs, parameters: dict, finite_outputs: bool = True) -> dict:
    """A run's outputs as floats, or an error that names what is wrong with them.

    Raises
    ------
    TypeError
        For outputs that are not a dict of named scalars.
    ValueError
        For a name that is a parameter's or one of ``OUTPUT_COLUMNS``, and, with ``finite_outputs``, for NaN
        or infinite values (naming each).
    """
    import numpy as np

    if not isinstance(outputs, dict):
        raise TypeError(f"the study function returned a {type(outputs).__name__}, not a dict of named outputs")
    values = {}
    for name, value in outputs.items():
        if not isinstance(name, str):
            raise TypeError(f"output name {name!r} is not a string")
        if name in parameters or name in OUTPUT_COLUMNS:
            raise ValueError(f"output name {name!r} is taken by a parameter or the table's own columns")
        if np.ndim(value) != 0:
            raise TypeError(f"output {name!r} is not a scalar: shape {np.shape(value)}")
        try:
            values[name] = float(value)
        except (TypeError, ValueError):
            raise TypeError(f"output {name!r} is not a number: {value!r}") from None
    bad = [f"{name!r} is {value}" for name, value in values.items() if not math.isfinite(value)]
    if bad and finite_outputs:
        raise ValueError(f"output {', '.join(bad)} (a NaN or infinite output is a failed run; finite_outputs=False "
                         f"keeps it)")
    return values


def run_one(function: Callable, parameters: dict, finite_outputs: bool = True) -> dict:
    """One row: the parameters, the function's outputs, the wall time [s] and the status (never raises).

    A run that raises, returns something other than a dict of named scalars or (with ``finite_outputs``) a NaN
    or infinite output is a "failed" row whose ``error`` is the cause (``ValueError: output 'y' is nan ...``).
    """
    started = time.perf_counter()
    try:
        outputs = checked_outputs(function(**parameters), parameters, finite_outputs)
        row = {**parameters, **outputs, "status": "ok", "error": ""}
    except Exception as exc:                      # a failed run is a row, not the end of the study
        row = {**parameters, "status": "failed", "error": f"{type(exc).__name__}: {exc}"}
    row["wall_time"] = time.perf_counter() - started
    return row


def _run_task(function: Callable, parameters: dict, finite_outputs: bool, topic: str) -> dict:
    """A study's task on a worker: tells the client that the run starts (event ``topic``, logged at the scheduler
    before the run, so that it arrives even if the run ends the worker's process), then :func:`run_one`."""
    from distributed import get_client, get_worker

    worker = get_worker()
    get_client().log_event(topic, {"key": worker.get_current_task(), "worker": worker.address})
    return run_one(function, parameters, finite_outputs)


def run_study(function: Callable, samples: list[dict], *, client=None, scheduler: str | None = None,
              workers: int | None = None, output: str | Path | None = None, resume: bool = False,
              restart: bool = False, time_limit: float | None = None, finite_outputs: bool = True,
              progress: bool = True, timeout: float = 10.0):
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
        The study's file: ``.csv`` or ``.parquet`` (an export of the record ``.sqlite`` beside it) or
        ``.sqlite`` (the record alone); each row is written to the record as it finishes.
    resume : bool, default False
        Continue the study in ``output``: run only the samples without a row. Refused when the file holds
        another study (function, parameter names or sampler).
    restart : bool, default False
        Delete the study in ``output`` and start over. Without ``resume`` or ``restart`` an existing record
        (or an export without one) is refused.
    time_limit : float, optional
        Seconds a run may take from its start in a worker; a longer one becomes a "timeout" row and its worker
        is restarted (a worker with a nanny, as in every LocalCluster). Default: no limit.
    finite_outputs : bool, default True
        A NaN or infinite output makes the row "failed"; False keeps such rows "ok".
    progress : bool, default True
        Show a tqdm bar.
    timeout : float, default 10
        Seconds to wait for the scheduler at ``scheduler``.

    Returns
    -------
    pandas.DataFrame
        One row per sample in the samples' order: the parameters, the outputs and ``wall_time`` [s] as
        float64, ``status`` ("ok", "failed" or "timeout") and ``error`` (the cause; "" for "ok") as str.

    Raises
    ------
    StudyError
        Before any task is sent: samples that are not dicts of the same names, values that are not finite
        numbers or lie outside their distribution's support, a sample given twice, a name ``function`` does
        not take, an output file of another suffix or in a place that cannot be written, an existing output
        without ``resume`` or ``restart``, or of another study with ``resume``, a ``time_limit`` that is not a
        positive number, a scheduler that cannot be reached within ``timeout``.
    floatframe.optional.MissingDependencyError
        Without pandas or dask.distributed (the ``study`` extra), or pyarrow for a ``.parquet`` output.
    """
    from floatframe.optional import require

    require("pandas", "run_study", "study")
    require("distributed", "run_study", "study", package="dask[distributed]")
    names = checked_samples(function, samples)
    if time_limit is not None and not (isinstance(time_limit, (int, float)) and 0 < time_limit < math.inf):
        raise StudyError(f"run_study: time_limit must be a positive number of seconds, got {time_limit!r}")
    identity = {"function": function_identity(function), "parameters": names,
                "sampler": getattr(samples, "sampler", "list")}
    record = StudyRecord(output, identity, resume=resume, restart=restart)
    try:
        finished = record.keys()
        todo = [sample for sample in samples if sample_key(sample, names) not in finished]
        if todo:
            with dask_client(client, scheduler, workers, timeout, allowed_failures=0) as active:
                for row in _run_on_cluster(active, function, todo, finite_outputs, time_limit, progress):
                    record.add(row)
                    record.export()
        table = record.table()
    finally:
        record.close(export=True)
    positions = {sample_key(row, names): k for k, row in enumerate(table[names].to_dict("records"))}
    return table.iloc[[positions[sample_key(sample, names)] for sample in samples]].reset_index(drop=True)


def _run_on_cluster(client, function: Callable, samples: list[dict], finite_outputs: bool,
                    time_limit: float | None, progress: bool):
    """The rows of ``samples`` run as tasks on ``client``, as they finish.

    A run longer than ``time_limit`` from its start (the task's event on its topic) is a "timeout" row; its
    task is cancelled and its worker restarted. A task that ends in an error of Dask's (``KilledWorker``: the
    worker died) is a "failed" row naming it if its run had started, else it is sent again, up to
    ``RESUBMISSIONS`` times.
    """
    from concurrent.futures import CancelledError

    from distributed import KilledWorker, as_completed
    from tqdm import tqdm

    topic = f"floatframe-study-{uuid.uuid4().hex}"
    numbers = itertools.count()
    started: dict = {}                      # task key -> (monotonic time of the start event, worker address)
    pending: dict = {}                      # task key -> (future, sample, attempt)
    finished = as_completed(with_results=True, raise_errors=False)

    def submit(sample, attempt):
        key = f"{topic}-{next(numbers)}"
        future = client.submit(_run_task, function, sample, finite_outputs, topic, key=key, pure=False)
        pending[key] = (future, sample, attempt)
        finished.add(future)

    def on_start(event):
        _, message = event
        started[message["key"]] = (time.monotonic(), message["worker"])

    client.subscribe_topic(topic, on_start)
    bar = tqdm(total=len(samples), desc="study", disable=not progress)
    try:
        for sample in samples:
            submit(sample, 1)
        while pending:
            batch = finished.next_batch(block=False)
            for future, result in batch:
                if future.key not in pending:       # cancelled after its timeout row
                    continue
                _, sample, attempt = pending.pop(future.key)
                if future.status == "error" and isinstance(result, tuple):
                    result = result[1]              # (type, exception, traceback) of the failed task
                start = started.pop(future.key, None)
                if isinstance(result, dict):
                    row = result
                else:
                    killed = isinstance(result, KilledWorker)
                    last_worker = getattr(getattr(result, "last_worker", None), "address", None)
                    was_running = killed and start is not None and start[1] == last_worker
                    if ((killed and not was_running) or isinstance(result, CancelledError)) and \
                            attempt <= RESUBMISSIONS:
                        submit(sample, attempt + 1)   # queued on a worker that died, or a result lost with it
                        continue
                    if was_running:
                        cause = f"KilledWorker: the worker process running this sample died ({start[1]})"
                    elif killed:
                        cause = f"KilledWorker: {attempt} workers died while this sample was queued on them"
                    else:
                        cause = f"{type(result).__name__}: {result}"
                    seconds = time.monotonic() - start[0] if was_running else math.nan
                    row = {**sample, "wall_time": seconds, "status": "failed", "error": cause}
                bar.update()
                yield row
            if time_limit is not None:
                for key, seconds in _over_time(client, pending, started, time_limit):
                    future, sample, _ = pending.pop(key)
                    client.cancel(future)
                    note = _restart_worker(client, started.pop(key)[1])
                    bar.update()
                    yield {**sample, "wall_time": seconds, "status": "timeout",
                           "error": f"TimeoutError: the run took longer than the time limit of {time_limit:g} s; "
                                    f"{note}"}
            if not batch:
                time.sleep(POLL_INTERVAL)
    finally:
        bar.close()
        client.unsubscribe_topic(topic)
        client.cancel([future for future, _, _ in pending.values()])


def _over_time(client, pending: dict, started: dict, time_limit: float) -> list[tuple[str, float]]:
    """The pending tasks running for longer than ``time_limit`` seconds, with their time: those whose start
    event is that old and that still run on the worker that sent it (a task whose worker died since, and which
    waits to run again, loses its start event)."""
    now = time.monotonic()
    late = [key for key in pending if key in started and now - started[key][0] > time_limit]
    if not late:
        return []
    processing = client.processing()
    over = []
    for key in late:
        if key in processing.get(started[key][1], ()):
            over.append((key, now - started[key][0]))
        else:
            del started[key]
    return over


def _restart_worker(client, worker: str) -> str:
    """Restart the worker at address ``worker``; returns what happened, for the timeout row's message."""
    try:
        status = client.restart_workers([worker], raise_for_error=False).get(worker, "unknown")
    except Exception as error:                  # a worker without a nanny, or a scheduler that refuses
        return f"its worker {worker} could not be restarted ({type(error).__name__}: {error}) and may stay busy"
    return f"its worker {worker} was restarted" if status == "OK" else \
        f"its worker {worker} could not be restarted ({status}) and may stay busy"
