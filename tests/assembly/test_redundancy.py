"""The redundancy test of constraint Jacobians (floatframe.assembly.redundancy).

Claims: on a chain of 150 rigid bodies' constraint rows (900 rows of a rigid-body chain's pattern, random entries) the sparse saddle-point test finds full rank and gives the dense test's answer (no dependent row) in
a small fraction of its time; one row added as a combination of two others is found by the exact test, as the
dense QR finds it; exactly dependent rows make the sparse test answer False (never a false 'full rank').
"""
import time

import numpy as np
import scipy.sparse as sp

from floatframe.assembly import redundancy
from floatframe.assembly.redundancy import clearly_full_rank, dependent_constraint_rows


def joint_chain_rows(n_bodies=400, rows_per_joint=5, seed=1):
    """Rows of a chain's constraint Jacobian: joint k couples the 7 coordinates of bodies k-1 and k (body -1:
    the ground), with random entries; plus each body's Euler-parameter norm row on its 4 rotation coordinates."""
    rng = np.random.default_rng(seed)
    n = 7 * n_bodies
    rows, cols, values = [], [], []
    row = 0
    for body in range(n_bodies):
        coupled = np.arange(7 * max(body - 1, 0), 7 * (body + 1)) if body else np.arange(7)
        for _ in range(rows_per_joint):
            rows += [row] * coupled.size
            cols += list(coupled)
            values += list(rng.normal(size=coupled.size))
            row += 1
        rows += [row] * 4
        cols += list(range(7 * body + 3, 7 * body + 7))
        values += list(rng.normal(size=4))
        row += 1
    return sp.csr_matrix((values, (rows, cols)), shape=(row, n))


def test_a_full_rank_chain_is_found_full_rank_by_the_sparse_test_quickly():
    rows = joint_chain_rows(n_bodies=150)
    assert rows.shape[0] >= redundancy.SPARSE_TEST_MIN_ROWS
    started = time.perf_counter()
    assert dependent_constraint_rows(rows).size == 0
    sparse_time = time.perf_counter() - started
    dense_threshold = redundancy.SPARSE_TEST_MIN_ROWS
    try:
        redundancy.SPARSE_TEST_MIN_ROWS = rows.shape[0] + 1   # the dense test alone
        started = time.perf_counter()
        assert dependent_constraint_rows(rows).size == 0
        dense_time = time.perf_counter() - started
    finally:
        redundancy.SPARSE_TEST_MIN_ROWS = dense_threshold
    assert sparse_time < 0.2 * dense_time


def test_a_dependent_row_is_found_as_the_dense_test_finds_it():
    rows = joint_chain_rows(n_bodies=60)
    dependent = sp.csr_matrix(rows[10] - 3.0 * rows[40])
    with_dependent = sp.vstack([rows[:200], dependent, rows[200:]]).tocsr()
    assert not clearly_full_rank(sp.csr_matrix(sp.diags(1 / np.sqrt(
        np.asarray(with_dependent.multiply(with_dependent).sum(axis=1)).ravel())) @ with_dependent))
    np.testing.assert_array_equal(dependent_constraint_rows(with_dependent), [200])


def test_the_sparse_test_says_full_rank_only_where_it_is():
    rows = joint_chain_rows(n_bodies=40)
    unit = lambda m: sp.csr_matrix(sp.diags(1 / np.sqrt(np.asarray(m.multiply(m).sum(axis=1)).ravel())) @ m)  # noqa
    assert clearly_full_rank(unit(rows))
    repeated = sp.vstack([rows, rows[[3, 17, 100]]]).tocsr()
    assert not clearly_full_rank(unit(repeated))
