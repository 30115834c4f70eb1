"""The result type every solver returns, and the error a failed solve raises."""
from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np


class SolverError(RuntimeError):
    """A solve failed; the message says at which time and why."""

    def __init__(self, message: str, time: float | None = None):
        super().__init__(message)
        self.time = time


@dataclass
class SolverStatistics:
    steps: int = 0
    newton_iterations: int = 0
    jacobian_evaluations: int = 0
    factorizations: int = 0
    residual_evaluations: int = 0
    rejected_steps: int = 0
    solve_time: float = 0.0   # wall time of the integration [s]

    @property
    def iterations_per_step(self) -> float:
        return self.newton_iterations / max(self.steps, 1)


@dataclass
class SimulationResult:
    """Stored states and sensor values over time.

    ``t`` (k,), ``q``, ``v``, ``a`` (k, n) coordinates as change from reference, ``lam`` (k, m),
    ``sensors`` a list (one per sensor, in sensor order) of (k, size) arrays, ``statistics``.
    """

    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    a: np.ndarray
    lam: np.ndarray
    sensors: list
    statistics: SolverStatistics
    solver: str = ""
    info: dict = field(default_factory=dict)

    def sensor(self, number: int, with_time: bool = False) -> np.ndarray:
        """Values of sensor ``number`` (k, size); with a leading time column if ``with_time``."""
        values = self.sensors[number]
        return np.column_stack([self.t, values]) if with_time else values

    def write_csv(self, path, number: int) -> Path:
        """Write one sensor as CSV (time first), for spreadsheets and other tools."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = self.sensor(number, with_time=True)
        with path.open("w", newline="") as stream:
            writer = csv.writer(stream)
            writer.writerow(["t"] + [f"value{i}" for i in range(data.shape[1] - 1)])
            writer.writerows(data.tolist())
        return path
