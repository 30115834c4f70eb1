"""At which steps Exudyn writes its outputs (sensor values, the coordinates solution file), and which stored states
of a floatframe solve those are.

Exudyn writes a series of period P on steps of size h as follows: the initial state (unless
``solution.file.writeInitialValues`` is False), then each step whose time is at least the last written time's
count plus P (to 1e-10 s; the count goes on from max(count + P, the step's time)), and always the last step. Where
P is a multiple of h those are every (P / h)-th step; otherwise the spacing varies (P = 2.5 h: steps 0, 3, 5, 8,
10, ...), and where P <= h every step is written.
"""
from __future__ import annotations

import math

import numpy as np

TIME_TOLERANCE = 1e-10   # [s], Exudyn's for "at or after"
GCD_PIECE = 256          # steps a piece in storage_period


def written_steps(n_steps: int, h: float, period: float, initial: bool = True) -> np.ndarray:
    """The step indices (0: the initial state, n_steps: the last step) at which Exudyn writes a series of period
    ``period`` [s] on ``n_steps`` steps of ``h`` [s]; with ``initial`` False the initial state is left out."""
    if period <= h + TIME_TOLERANCE:
        return np.arange(0 if initial else 1, n_steps + 1)
    multiple = round(period / h)
    if abs(multiple * h - period) <= TIME_TOLERANCE:   # every multiple-th step (without the initial state: 1 first)
        regular = np.arange(multiple, n_steps, multiple)
        return np.concatenate([[0] if initial else [1], regular[regular > 1], [n_steps]]).astype(int)
    steps, count, k = ([0], period, 1) if initial else ([], 0.0, 1)
    while k < n_steps:
        k = max(k, math.ceil((count - TIME_TOLERANCE) / h))
        if k >= n_steps:
            break
        steps.append(k)
        count = max(count + period, k * h)
        k += 1
    return np.array(steps + [n_steps], dtype=int)


def written_rows(times, period: float, initial: bool = True) -> np.ndarray:
    """The rows of steps at ``times`` (k,) [s] (the initial state first; steps of any sizes) at which Exudyn writes a
    series of period ``period`` [s], by the rule of ``written_steps``; with ``initial`` False the initial state is
    left out."""
    since = np.asarray(times, dtype=float) - float(times[0])
    rows, count = ([0], period) if initial else ([], 0.0)
    for k in range(1, since.size - 1):
        if since[k] >= count - TIME_TOLERANCE:
            rows.append(k)
            count = max(count + period, since[k])
    return np.array(rows + [since.size - 1], dtype=int)


def storage_period(n_steps: int, *step_sets) -> int:
    """Every how many steps a solve must store its state to keep all ``step_sets`` (increasing, as
    ``written_steps`` gives them; the last step is always stored). By math.gcd of Python integers (0, the initial
    state, divides nothing away): numpy's masks and gcd, the first in a process, took 0.1 of a tiny model's 1.7 ms
    solve."""
    period = 0
    for steps in step_sets:
        steps = np.asarray(steps)
        for start in range(0, steps.size, GCD_PIECE):   # in pieces, to stop at a period of 1
            piece = steps[start:start + GCD_PIECE].tolist()
            while piece and piece[-1] >= n_steps:   # the last step
                piece.pop()
            period = math.gcd(period, *piece)
            if period == 1:
                return 1
    return period or max(n_steps, 1)


def stored_rows(steps, n_rows: int, stored_every: int) -> np.ndarray:
    """Indices of the ``steps`` (increasing, as ``written_steps`` gives them) among a solve's ``n_rows`` stored
    states (every ``stored_every``-th step and the last, which is always kept: a solve that stopped early ends
    there)."""
    steps = np.asarray(steps)
    if stored_every == 1 and steps.size == n_rows and n_rows and steps[0] == 0 and steps[-1] == n_rows - 1:
        return np.arange(n_rows)   # every stored state (the general case below: 0.05 ms of a tiny solve)
    chosen = np.zeros(n_rows, dtype=bool)
    at_stored = steps[(steps % stored_every == 0) & (steps < n_rows * stored_every)]   # (np.isin: 0.1 ms)
    chosen[at_stored // stored_every] = True
    chosen[-1] = True
    return np.flatnonzero(chosen)
