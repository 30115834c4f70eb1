"""Exudyn's coordinates solution file (``simulationSettings.solution.file``), written by SolveDynamic and SolveStatic.

The file is text, as Exudyn's: nine ``#`` header lines (the fifth, ``#number of written coordinates [nODE2, nVel2,
nAcc2, nODE1, nVel1, nAlgebraic, nData] = [...]``, is what ``LoadSolutionFile`` reads), then one comma-separated row
per written state: time, ODE2 coordinates (displacements from the reference values), ODE2 velocities, ODE2
accelerations, ODE1 coordinates, ODE1 velocities, algebraic coordinates (the multipliers), in Exudyn's coordinate
order, each group as the ``export`` settings choose; two ``#`` footer lines close it. floatframe has no data
coordinates, so nData is 0.

Rows: at Exudyn's steps (``floatframe.exudyn._output_steps``: the initial state unless ``writeInitialValues`` is
False, then every writePeriod, and the last step); SolveStatic writes every load step. The file is written after the
solve, from the stored states (up to the failure where a solve fails); Exudyn streams it during the solve. Binary
files (``solution.file.binary``) are refused.
"""
from __future__ import annotations

import platform
import time
from pathlib import Path

import numpy as np

from floatframe import __version__
from floatframe.exudyn._names import ExudynLayerError
from floatframe.exudyn._output_steps import written_steps

EXPORTED = ("velocities", "accelerations", "ODE1Velocities", "algebraicCoordinates")
VERSION_LINE = (f"#floatframe version = {__version__}; Python{platform.python_version()}; {platform.system()} "
                f"{platform.machine()} FLOAT64")


def format_rows(rows: np.ndarray, precision: int) -> str:
    """Rows of numbers as comma-separated text lines with ``precision`` significant digits (C++ streams' default
    format, as Exudyn writes them). One format string per row: a join over a generator per value took 2 ms of a
    6 ms solve."""
    if not rows.size:
        return ""
    row_format = ",".join([f"%.{precision}g"] * rows.shape[1]) + "\n"
    return "".join([row_format % row for row in map(tuple, rows.tolist())])


class SolutionFile:
    """The coordinates solution file one solve writes: its settings read before the solve.

    Parameters
    ----------
    settings : the SimulationSettings of the solve.
    solver_name : the scheme as the header names it (Exudyn's wording, e.g. 'implicit second order time
        integration').
    steps : the planned number of steps (header).
    static : True for SolveStatic (no velocities or accelerations written).
    """

    def __init__(self, settings, solver_name: str, steps: int, static: bool = False):
        get = settings.get
        name = str(get("solution.file.name"))
        self.path = Path(name if "." in name else name + ".txt")   # Exudyn adds .txt where the name has no dot
        self.period = float(get("solution.file.writePeriod"))
        self.precision = int(get("solution.precision"))
        self.append = bool(get("solution.file.append"))
        self.header = bool(get("solution.file.writeHeader"))
        self.footer = bool(get("solution.file.writeFooter"))
        self.initial = bool(get("solution.file.writeInitialValues"))
        self.information = str(get("solution.file.information")).replace("\n", "_")
        self.export = {key: bool(get(f"solution.file.export.{key}")) for key in EXPORTED}
        self.solver_name, self.steps, self.static = solver_name, int(steps), static
        self.stream = None
        self.started = time.strftime("%Y-%m-%d,%H:%M:%S")

    @classmethod
    def of(cls, settings, solver_name: str, steps: int, static: bool = False) -> "SolutionFile | None":
        """The solve's solution file, opened; None where the settings write none (``solution.file.write`` False or
        an empty name); raises ExudynLayerError before the solve where the file cannot be written."""
        if not settings.get("solution.file.write") or not str(settings.get("solution.file.name")):
            return None
        if settings.get("solution.file.binary"):
            raise ExudynLayerError("simulationSettings.solution.file.binary = True: floatframe writes the coordinates "
                                   "solution file as text only; set it to False (or solution.file.write = False)")
        file = cls(settings, solver_name, steps, static)
        file.open()
        return file

    def open(self):
        """Make the file's folder and open the file for writing, as Exudyn does at the start of a solve."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.stream = open(self.path, "a" if self.append else "w", encoding="utf-8")
        except OSError as exc:
            raise ExudynLayerError(f"simulationSettings.solution.file.name: the coordinates solution file "
                                   f"'{self.path}' cannot be written: {exc.strerror or exc}") from None

    def close(self):
        """Close the file (it keeps what was written)."""
        if self.stream is not None:
            self.stream.close()
            self.stream = None

    def row_steps(self, n_steps: int, h: float) -> np.ndarray:
        """The steps at which the file gets a row, of ``n_steps`` steps of ``h`` [s] (``_output_steps``)."""
        return written_steps(n_steps, h, self.period, self.initial)

    def write(self, times, columns: dict, statistics=None, cpu_time: float = 0.0, failed: bool = False):
        """Write the file.

        Parameters
        ----------
        times : (k,) times [s] (SolveStatic: load factors) of the written rows.
        columns : dict of (k, n) arrays: 'ODE2', 'ODE2_t', 'ODE2_tt', 'ODE1', 'ODE1_t', 'AE' (empty where a system
            has none of them).
        statistics : the solve's statistics (steps, newton_iterations, jacobian_evaluations) for the footer.
        cpu_time : the solve's time [s] for the footer; failed : the solve stopped with an error.
        """
        times = np.asarray(times, dtype=float).reshape(-1)
        k = times.size
        dynamic = not self.static   # a static solve writes no velocities or accelerations
        groups = [("ODE2", True), ("ODE2_t", dynamic and self.export["velocities"]),
                  ("ODE2_tt", dynamic and self.export["accelerations"]),
                  ("ODE1", True), ("ODE1_t", dynamic and self.export["ODE1Velocities"]),
                  ("AE", self.export["algebraicCoordinates"])]
        blocks = [times.reshape(k, 1)] + [np.asarray(columns[key], dtype=float).reshape(k, -1)
                                          for key, written in groups if written]
        text = format_rows(np.hstack(blocks), self.precision)
        if self.header:
            text = self._header(columns) + text
        if self.footer:
            text += self._footer(statistics, cpu_time, failed)
        self.stream.write(text)
        self.close()

    def _header(self, columns: dict) -> str:
        size = {key: np.shape(value)[1] if np.ndim(value) == 2 else 0 for key, value in columns.items()}
        n_ode2, n_ode1, n_ae = size["ODE2"], size["ODE1"], size["AE"]
        # Exudyn's header counts ODE1 velocities with export.velocities, its rows with export.ODE1Velocities
        dynamic = not self.static
        written = [n_ode2, n_ode2 * (dynamic and self.export["velocities"]),
                   n_ode2 * (dynamic and self.export["accelerations"]), n_ode1,
                   n_ode1 * (dynamic and self.export["velocities"]), n_ae * self.export["algebraicCoordinates"], 0]
        # the column names follow the export settings alone, also where a static solve writes no velocities
        contents = ["time"] + [label for label, present in (
            ("ODE2 displacements", n_ode2), ("ODE2 velocities", n_ode2 and self.export["velocities"]),
            ("ODE2 accelerations", n_ode2 and self.export["accelerations"]), ("ODE1 coordinates", n_ode1),
            ("ODE1 velocities", written[4]), ("AE coordinates", n_ae and self.export["algebraicCoordinates"]))
            if present]
        planned = "load steps" if self.static else "time steps"
        lines = [f"#floatframe.exudyn {self.solver_name} {'static ' if self.static else ''}solver solution file",
                 f"#simulation started={self.started}",
                 f"#columns contain: {', '.join(contents)}",
                 f"#number of system coordinates [nODE2, nODE1, nAlgebraic, nData] = [{n_ode2},{n_ode1},{n_ae},0]",
                 f"#number of written coordinates [nODE2, nVel2, nAcc2, nODE1, nVel1, nAlgebraic, nData] = "
                 f"[{','.join(str(n) for n in written)}]",
                 f"#total columns exported  (excl. time) = {sum(written)}",
                 f"#number of {planned} (planned) = {self.steps}",
                 VERSION_LINE,
                 "#"]
        if self.information:
            lines.append(f"#solution information = {self.information}")
        return "\n".join(lines) + "\n"

    def _footer(self, statistics, cpu_time: float, failed: bool) -> str:
        steps = getattr(statistics, "steps", 0)
        iterations = getattr(statistics, "newton_iterations", 0)
        jacobians = getattr(statistics, "jacobian_evaluations", 0)
        return (f"#simulation finished={time.strftime('%Y-%m-%d,%H:%M:%S')}\n"
                f"#Solver Info: cpuTime={cpu_time:.6g},stepReductionFailed(or step failed)={int(failed)},"
                f"discontinuousIterationSuccessful=1,newtonSolutionDiverged=0,massMatrixNotInvertible=0,"
                f"total time steps={steps},total Newton iterations={iterations},total Newton jacobians={jacobians}\n")
