"""The Dask set-up of studies and solver comparisons: :func:`dask_client` (a LocalCluster, a scheduler address or a
given client) and :func:`run_on_dask` (tasks whose results come back as they finish)."""
from __future__ import annotations

import contextlib
import os
from typing import Callable

from floatframe.study.errors import StudyError


@contextlib.contextmanager
def dask_client(client=None, scheduler: str | None = None, workers: int | None = None, timeout: float = 10.0,
                allowed_failures: int | None = None):
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
    allowed_failures : int, optional
        For the LocalCluster made here: how many times the scheduler sends a task again after the worker
        running it died (``distributed.scheduler.allowed-failures``; default Dask's, 3). :func:`run_study`
        passes 0 and sends a sample again itself only when its run had not started.

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
    from floatframe.optional import require

    distributed = require("distributed", "floatframe.study", "study", package="dask[distributed]")
    import dask

    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise StudyError(f"workers must be a positive integer, got {workers!r}")
    if not (isinstance(timeout, (int, float)) and timeout > 0):
        raise StudyError(f"the scheduler's timeout must be a positive number of seconds, got {timeout!r}")
    if client is not None:
        yield client
        return
    if scheduler is not None:
        try:
            client = distributed.Client(scheduler, timeout=timeout)
        except (OSError, TimeoutError, ValueError) as failure:
            raise StudyError(f"cannot reach the dask scheduler at {scheduler} within the timeout of {timeout:g} s "
                             f"({type(failure).__name__}: {failure})") from None
        with client:
            yield client
        return
    failures = {} if allowed_failures is None else {"distributed.scheduler.allowed-failures": int(allowed_failures)}
    with _without_malloc_trim(), dask.config.set(failures):
        cluster = distributed.LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                                           processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
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

