"""Exudyn's solver iteration data as scripts read it: ``solver.it`` (SolverIterationData) after a solve."""
from __future__ import annotations

from floatframe.exudyn._names import ExudynLayerError


class SolverIterationData:
    """``mbs.sys['dynamicSolver'].it``: the iteration data of the last solve, the fields floatframe has.

    currentStepIndex is the number of accepted steps + 1 (Exudyn's count after a solve), currentTime, startTime,
    endTime, numberOfSteps (the settings'), currentStepSize (the fixed step; adaptive schemes: not given),
    newtonStepsCount (floatframe's Newton iterations, which are not Exudyn's), rejectedAutomaticStepSizeSteps.
    Reading another field raises an ExudynLayerError naming it.
    """

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise ExudynLayerError(f"solver.it.{name} is not given by floatframe (it has: "
                               f"{', '.join(sorted(self.__dict__))})")


def iteration_data(result, options: dict, adaptive: bool) -> SolverIterationData:
    """The iteration data of a finished solve from its result and the settings' time grid (``_solve.solver_options``)."""
    statistics = result.statistics
    fields = dict(currentStepIndex=statistics.steps + 1, currentTime=float(result.t[-1]),
                  startTime=options["start_time"], endTime=options["end_time"],
                  numberOfSteps=int(options["steps"]), newtonStepsCount=statistics.newton_iterations,
                  rejectedAutomaticStepSizeSteps=statistics.rejected_steps)
    if not adaptive:
        fields["currentStepSize"] = (options["end_time"] - options["start_time"]) / options["steps"]
    return SolverIterationData(**fields)
