"""Parameter studies on dask.distributed: one model function of named parameters run over a grid, a list of
samples, Monte Carlo or Latin-hypercube samples, on a local cluster or an existing one.

A study function takes the parameters as keyword arguments and returns a dict of named scalar outputs, e.g.
:func:`pendulum_period`. :func:`run_study` checks the samples and the output file, sends one task per sample to
the cluster and returns a ``pandas.DataFrame`` with one row per run: the parameters, the outputs,
``wall_time`` [s], ``status`` ("ok", "failed" or "timeout") and ``error`` (the cause of a failed run, which does
not stop the study). With ``output`` the rows go to the study's record (SQLite, one transaction per row, with
the study's identity) as they finish, and a CSV or Parquet export is written from it; ``resume=True`` runs only
the samples without a row, ``restart=True`` starts over.

The package, by job:

- ``samples``: :func:`grid`, :func:`monte_carlo`, :func:`latin_hypercube` and the checks of the samples;
- ``functions``: :class:`ModelStudy` and :class:`SensorStudy` (a model built once per worker), :func:`built_model`;
- ``cluster``: :func:`dask_client` and :func:`run_on_dask`, which ``floatframe.compare`` also uses;
- ``record``: :class:`StudyRecord` (the SQLite record and its export) and :func:`read_study`;
- ``run``: :func:`run_one` and :func:`run_study`;
- ``models``: the ready models' study functions; ``command``: ``floatframe study``.

Dask rather than Ray: the same ``Client`` runs on a laptop (``LocalCluster``) and on a cluster (a scheduler
address, dask-jobqueue for HPC batch systems), its futures and ``as_completed`` give the rows as they finish,
and it is built around NumPy/pandas data, which is what a study produces (docs/parameter_studies.md).
"""
from floatframe.study.cluster import dask_client, run_on_dask
from floatframe.study.command import study_main
from floatframe.study.errors import StudyError
from floatframe.study.functions import ModelStudy, SensorStudy, built_model, function_identity, model_builds
from floatframe.study.models import (STUDY_MODELS, fit_stiffness, oscillator_response, pendulum_period,
                                     rotor_disc_response, rotor_disc_sensitivity, rotor_disc_supports,
                                     rotor_support_parameters)
from floatframe.study.record import OUTPUT_COLUMNS, STATUSES, StudyRecord, read_study
from floatframe.study.run import checked_outputs, run_one, run_study
from floatframe.study.samples import Samples, checked_samples, distribution, grid, latin_hypercube, monte_carlo

__all__ = ["OUTPUT_COLUMNS", "STATUSES", "STUDY_MODELS", "ModelStudy", "Samples", "SensorStudy", "StudyError",
           "StudyRecord", "built_model", "checked_outputs", "checked_samples", "dask_client", "distribution",
           "fit_stiffness", "function_identity", "grid", "latin_hypercube", "model_builds", "monte_carlo",
           "oscillator_response", "pendulum_period", "read_study", "rotor_disc_response", "rotor_disc_sensitivity",
           "rotor_disc_supports", "rotor_support_parameters", "run_on_dask", "run_one", "run_study",
           "study_main"]
