"""Symbolic parameters and input signals.

A numeric component parameter given as a :class:`Parameter` becomes a CasADi symbol ``p`` of the
assembled DAE; a load given an :class:`Input` takes a symbol ``u``. The assembled system's functions
then depend on (t, q, v, a, lambda, u, p): exact derivatives with respect to parameters and inputs are
available for sensitivities and optimal control. For simulation, parameters take their values and
inputs their signals (see ``AssembledSystem.set_parameter`` and ``set_input``).
"""
from __future__ import annotations

import numpy as np


class Parameter:
    """A named numeric parameter (scalar or vector) that is kept symbolic in the DAE.

    ``value`` is used for simulation; it may be None for a parameter that is only optimised, in which
    case a simulation refuses to start until a value is set.
    """

    def __init__(self, name: str, value=None, size: int | None = None):
        self.name = str(name)
        self.value = None if value is None else np.atleast_1d(np.asarray(value, dtype=float)).reshape(-1)
        if size is None and self.value is None:
            raise ValueError(f"Parameter '{name}': give a value or a size")
        self.size = int(size if size is not None else self.value.size)
        if self.value is not None and self.value.size != self.size:
            raise ValueError(f"Parameter '{name}': value has {self.value.size} entries, size is {self.size}")

    def __repr__(self):
        return f"Parameter({self.name!r}, {None if self.value is None else self.value.tolist()})"


class Input:
    """A named input u(t) of the given size (e.g. a drive torque), set by a signal at simulation time."""

    def __init__(self, name: str, size: int = 1, signal=None):
        self.name = str(name)
        self.size = int(size)
        self.signal = signal

    def __repr__(self):
        return f"Input({self.name!r}, size={self.size})"


class InputSignal:
    """Values of an input on a time grid, piecewise constant or piecewise linear.

    Piecewise constant: value k holds on (t_k, t_{k+1}] (and at t_0), so that an implicit step from
    t_k to t_{k+1} sees value k at its end.

    ``grid`` (k+1,) increasing times [s]; ``values`` (k, size) for "constant", (k+1, size) for "linear".
    """

    def __init__(self, grid, values, kind: str = "constant"):
        self.grid = np.asarray(grid, dtype=float).reshape(-1)
        self.values = np.asarray(values, dtype=float).reshape(len(values), -1)
        if kind not in ("constant", "linear"):
            raise ValueError(f"InputSignal: kind must be 'constant' or 'linear', got {kind!r}")
        expected = self.grid.size - 1 if kind == "constant" else self.grid.size
        if self.values.shape[0] != expected:
            raise ValueError(f"InputSignal: {kind} signal on {self.grid.size} grid points needs {expected} values, "
                             f"got {self.values.shape[0]}")
        if np.any(np.diff(self.grid) <= 0):
            raise ValueError("InputSignal: the grid must increase strictly")
        self.kind = kind

    @property
    def end(self) -> float:
        return float(self.grid[-1])

    def __call__(self, t: float) -> np.ndarray:
        if t < self.grid[0] - 1e-12 or t > self.end + 1e-12:
            raise ValueError(f"InputSignal: t = {t:.6g} is outside the signal's grid [{self.grid[0]:.6g}, {self.end:.6g}]")
        if self.kind == "linear":
            return np.array([np.interp(t, self.grid, column) for column in self.values.T])
        interval = min(max(np.searchsorted(self.grid, t, side="left") - 1, 0), self.values.shape[0] - 1)
        return self.values[interval].copy()
