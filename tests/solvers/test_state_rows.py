"""StateRows (floatframe/solvers/loop.py), the block of stacked states of the compiled loops: its columns, and the
shared loop's storage of blocks and single states with the model's monitors at them."""
import numpy as np
import pytest

from floatframe.solvers.explicit import RK44
from floatframe.solvers.loop import MONITOR_BLOCK, State, StateRows, stacked
from test_explicit import oscillator   # a mass point (2 kg) on a coordinate spring (100 N/m), started 0.1 m out


def test_the_columns_are_views_of_the_row_layout():
    """Row [t, q, v, a, abar, lam] (n = 3, m = 2): each column is the view of its slice (a write shows in the rows),
    state(i) is row i's copy, and row(state) gives the row back."""
    rng = np.random.default_rng(5)
    n, m = 3, 2
    rows = rng.standard_normal((4, 1 + 4 * n + m))
    block = StateRows(np.arange(4), rows, n)
    assert np.array_equal(block.times, rows[:, 0])
    for j, name in enumerate(("q", "v", "a", "abar")):
        column = getattr(block, name)
        assert column.shape == (4, n) and np.shares_memory(column, rows)
        assert np.array_equal(column, rows[:, 1 + j * n:1 + (j + 1) * n])
    assert block.lam.shape == (4, m) and np.array_equal(block.lam, rows[:, 1 + 4 * n:])
    block.abar[2, 1] = 42.0
    assert rows[2, 1 + 3 * n + 1] == 42.0
    state = block.state(2)
    assert state.t == rows[2, 0] and block.t == rows[3, 0]
    assert np.array_equal(state.abar, rows[2, 1 + 3 * n:1 + 4 * n]) and np.array_equal(state.lam, rows[2, -m:])
    assert np.array_equal(StateRows.row(state), rows[2:3])
    state.q[0] = -1.0
    assert rows[2, 1] != -1.0


def test_states_without_multipliers_stack_with_blocks():
    """m = 0: a State's empty lam and a block's (k, 0) stack to (k, 0)."""
    n = 2
    rows = np.arange(2 * (1 + 4 * n), dtype=float).reshape(2, -1)
    first = State(-1.0, *(np.full(n, -k, dtype=float) for k in range(4)), np.zeros(0))
    t, q, v, a, lam = stacked([first, StateRows(np.arange(1, 3), rows, n)], n)
    assert t.tolist() == [-1.0, 0.0, 9.0]
    assert q.tolist() == [[0.0, 0.0], [1.0, 2.0], [10.0, 11.0]]
    assert a[1:].tolist() == [[5.0, 6.0], [14.0, 15.0]] and lam.shape == (3, 0)


@pytest.mark.parametrize("batched", [True, False], ids=["blocks", "states"])
def test_the_monitors_see_exactly_the_stored_states(batched):
    """Every stored state goes to the model's monitors once, in order: the batched loop's as stacked blocks (no State
    a row), the Python loop's stacked in blocks of MONITOR_BLOCK and the rest at the end; their t, q, v are the
    result's to the bit, and the cosine solution's to 1e-6 (RK44, h = 1e-3)."""
    system = oscillator()
    seen = []
    system._monitors = [lambda t, q, v: seen.append((np.atleast_1d(t).copy(), np.atleast_2d(q).copy(),
                                                     np.atleast_2d(v).copy()))]
    scheme = RK44()
    scheme.batched = batched
    result = scheme.solve(system, 1.0, 1000, store_every=3)
    assert (type(scheme.native_loop(system, None)).__name__ == "BatchedLoop") == batched
    sizes = [t.size for t, _, _ in seen]
    assert max(sizes) > 1 if batched else sizes == [MONITOR_BLOCK] * (335 // MONITOR_BLOCK) + [335 % MONITOR_BLOCK]
    for got, expected in zip((np.concatenate(column) for column in zip(*seen)), (result.t, result.q, result.v)):
        assert np.array_equal(got, expected)
    assert result.t.size == 335 and result.info["monitor_time"] > 0.0
    assert np.abs(result.q[:, 0] - 0.1 * np.cos(np.sqrt(50.0) * result.t)).max() < 1e-6
