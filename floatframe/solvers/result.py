"""The result type every solver returns, the error a failed solve raises, and the time grid every
solver's ``solve`` takes."""
from __future__ import annotations

import csv
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np


# The unit of each output variable (SI; "-" dimensionless, "SI" the unit of the coordinate itself: m, rad, ...).
OUTPUT_UNITS = {
    "Position": "m", "Displacement": "m", "DisplacementLocal": "m", "Distance": "m",
    "Velocity": "m/s", "VelocityLocal": "m/s", "Acceleration": "m/s^2", "AccelerationLocal": "m/s^2",
    "Rotation": "rad", "Angle": "rad", "RotationMatrix": "-", "HomogeneousTransformation": "m or -",
    "AngularVelocity": "rad/s", "AngularVelocityLocal": "rad/s",
    "AngularAcceleration": "rad/s^2", "AngularAccelerationLocal": "rad/s^2",
    "Force": "N", "ForceLocal": "N", "Torque": "N m", "TorqueLocal": "N m",
    "StressLocal": "Pa", "StrainLocal": "-",
    "Coordinates": "SI", "CoordinatesTotal": "SI", "Coordinates_t": "SI/s", "Coordinates_tt": "SI/s^2",
    "Load": "N or N m",
}
_COMPONENTS = {3: ("x", "y", "z"), 6: ("xx", "yy", "zz", "yz", "xz", "xy"),
               9: tuple(f"A{i}{j}" for i in range(3) for j in range(3)),
               16: tuple(f"T{i}{j}" for i in range(4) for j in range(4))}
_VOIGT_VARIABLES = ("StressLocal", "StrainLocal")


def column_name(quantity: str, unit: str) -> str:
    """One column of floatframe's tables: ``"quantity [unit]"`` ("-" for a dimensionless quantity)."""
    return f"{quantity} [{unit or '-'}]"


def sensor_columns(name: str, variable: str, size: int) -> list[str]:
    """Column names of a sensor of ``size`` values: ``"<name> <variable> <component> [<unit>]"``, e.g.
    ``"tip Position x [m]"``, ``"hinge Angle [rad]"``; components x, y, z of 3-vectors, xx ... xy (Voigt) of
    stresses and strains, A00 ... A22 of rotation matrices, else 0, 1, ...; the unit from ``OUTPUT_UNITS``
    ("?" for a variable it does not know)."""
    label = " ".join(part for part in (name, variable) if part) or "sensor"
    unit = OUTPUT_UNITS.get(variable, "?")
    if size == 1:
        return [column_name(label, unit)]
    components = _COMPONENTS.get(size) if size != 6 or variable in _VOIGT_VARIABLES else None
    components = components or tuple(str(i) for i in range(size))
    return [column_name(f"{label} {component}", unit) for component in components]


def write_table(path, columns, values, owner: str = "write_table") -> Path:
    """Write a table as CSV in floatframe's one header style: a first line of comma-separated column names, each
    ``"quantity [unit]"`` (:func:`column_name`), then one row per line with every digit of the floats (repr).

    ``numpy.loadtxt(path, delimiter=",", skiprows=1)`` and ``pandas.read_csv(path)`` read it; :func:`read_table`
    gives the names and values back. An OutputPathError (an OSError) naming ``owner``, the path and the cause
    if it cannot be written there; a ValueError if the names do not match the columns or lack a unit."""
    from floatframe.paths import check_output_file

    values = np.asarray(values, dtype=float)
    values = values.reshape(-1, 1) if values.ndim == 1 else values
    columns = [str(name) for name in columns]
    if values.ndim != 2 or values.shape[1] != len(columns):
        raise ValueError(f"{owner}: {len(columns)} column names for values of shape {values.shape}")
    without_unit = [name for name in columns if not (name.endswith("]") and " [" in name)]
    if without_unit:
        raise ValueError(f"{owner}: column names need a unit, 'quantity [unit]': {without_unit}")
    path = check_output_file(path, owner)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(columns)
        writer.writerows(values.tolist())
    return path


def read_table(path) -> tuple[list[str], np.ndarray]:
    """(column names, values (k, columns)) of a CSV written by :func:`write_table` or
    :meth:`SimulationResult.write_csv`."""
    with Path(path).open(newline="") as stream:
        names = next(csv.reader(stream))
    return names, np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)


class UnknownSensorError(IndexError):
    """``SimulationResult.sensor`` was given a number that is not one of the result's sensors."""


class SolverError(RuntimeError):
    """A solve failed; the message says at which time and why.

    ``time`` [s] is where it failed; ``result`` the SimulationResult of what was computed before (the stored
    states up to the last accepted step, their sensors and the statistics, ``result.failure`` the message),
    or None where the solve failed before its first step.
    """

    def __init__(self, message: str, time: float | None = None, result: "SimulationResult | None" = None):
        super().__init__(message)
        self.time = time
        self.result = result


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
    ``sensors`` a list (one per sensor, in sensor order) of (k, size) arrays, ``sensor_names`` their
    names, ``statistics``. ``stopped`` is True when a ``pre_step`` function ended the solve early;
    ``failure`` is the message of the SolverError whose partial result this is ('' for a finished solve).
    ``sensor_variables`` the output variable of each sensor (e.g. "Position"), which gives the units of
    :meth:`write_csv`'s columns (empty where the solver did not record them).
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
    sensor_names: list = field(default_factory=list)
    stopped: bool = False
    failure: str = ""
    sensor_variables: list = field(default_factory=list)

    def sensor(self, number: int, with_time: bool = False) -> np.ndarray:
        """Values of sensor ``number`` (k, size); with a leading time column if ``with_time``.

        Raises UnknownSensorError (an IndexError) naming the sensors there are.
        """
        if not isinstance(number, (int, np.integer)) or isinstance(number, bool) or \
                not 0 <= number < len(self.sensors):
            names = self.sensor_names if len(self.sensor_names) == len(self.sensors) else [""] * len(self.sensors)
            there = ", ".join(f"{i} '{name}'" if name else str(i) for i, name in enumerate(names)) or "none"
            raise UnknownSensorError(f"SimulationResult.sensor: no sensor {number!r}; the result has "
                                     f"{len(self.sensors)} sensors: {there}")
        values = self.sensors[number]
        return np.column_stack([self.t, values]) if with_time else values

    def sensor_columns(self, number: int) -> list[str]:
        """The column names of sensor ``number`` with their units (:func:`sensor_columns`), e.g.
        ``["tip Position x [m]", "tip Position y [m]", "tip Position z [m]"]``."""
        values = self.sensor(number)
        name = self.sensor_names[number] if number < len(self.sensor_names) else ""
        variable = self.sensor_variables[number] if number < len(self.sensor_variables) else ""
        return sensor_columns(name, variable, values.shape[1])

    def write_csv(self, path, number: int) -> Path:
        """Write sensor ``number`` as CSV, time first, in floatframe's one header style (:func:`write_table`):
        ``t [s],tip Position x [m],tip Position y [m],tip Position z [m]``, then one row per stored step.
        ``numpy.loadtxt(path, delimiter=",", skiprows=1)`` or ``pandas.read_csv(path)`` read it. An
        OutputPathError (an OSError) naming the path and the cause if it cannot be written there."""
        return write_table(path, [column_name("t", "s")] + self.sensor_columns(number),
                           self.sensor(number, with_time=True), "write_csv")


def time_grid(owner: str, t_end=None, n_steps=None, t_grid=None, t0: float = 0.0) -> np.ndarray:
    """The output times of a solve: ``t_grid`` as given, or t0 + k (t_end - t0) / n_steps, k = 0..n_steps.

    An array given as ``t_end`` is taken as the grid (the older form ``solve(system, t_grid)``).
    Raises ValueError naming ``owner`` for a missing, non-increasing or ambiguous grid.
    """
    if t_grid is None and t_end is not None and np.ndim(t_end) == 1:
        t_grid, t_end = t_end, None
    if t_grid is not None:
        if t_end is not None or n_steps is not None:
            raise ValueError(f"{owner}: give either t_grid or t_end with n_steps, not both")
        grid = np.asarray(t_grid, dtype=float)
        if grid.ndim != 1 or grid.size < 2 or np.any(np.diff(grid) <= 0) or not np.all(np.isfinite(grid)):
            raise ValueError(f"{owner}: t_grid must be increasing with at least 2 finite times")
        return grid
    if t_end is None or n_steps is None:
        raise ValueError(f"{owner}: give t_end and n_steps, or t_grid")
    if int(n_steps) != n_steps or n_steps < 1 or not math.inf > t_end > t0:
        raise ValueError(f"{owner}: need an integer n_steps >= 1 and t_end > t0 (finite), got n_steps = {n_steps}, "
                         f"t_end = {t_end}, t0 = {t0}")
    n_steps = int(n_steps)
    h = (t_end - t0) / n_steps
    grid = np.arange(n_steps + 1, dtype=float)   # t0 + k h, as floats do it (in place: no temporaries)
    grid *= h
    grid += t0
    grid[0] = t0
    return grid


GRID_ROUNDING = 1e-9   # relative: a grid interval this close to h is one step of h (grid times carry round-off)


def steps_per_interval(spacing, h) -> np.ndarray:
    """Number of equal steps of at most h [s] that divide each grid interval (``spacing``, (k,)).

    The times of a uniform grid carry round-off of a few ulp of t, which at t ~ 0.5 s is 1e-12 of a 1e-4 s
    step: an interval that exceeds h by such an amount is still one step (a tolerance of 1e-12 split about
    one interval in sixty of a 6,000-step run into two half steps, and changed the result).
    """
    return np.maximum(1, np.ceil(np.asarray(spacing, dtype=float) / h * (1 - GRID_ROUNDING))).astype(int)


def wants_stop(answer) -> bool:
    """A pre_step function's answer: False (or another false value except None) ends the solve."""
    return answer is not None and not bool(answer)
