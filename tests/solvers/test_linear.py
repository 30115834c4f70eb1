"""The bordered (Schur-complement) LU of FFRF Newton matrices: accuracy, kept ordering, fallbacks, fill-in."""
import numpy as np
import pytest
import scipy.sparse as sp

from floatframe.components.ffrf import add_ffrf_body
from floatframe.components.reference_conditions import add_tisserand_frame
from floatframe.fem.matrices import linear_elastic_matrices
from floatframe.fem.mesh import block_mesh
from floatframe.solvers import linear
from floatframe.solvers.genalpha import GeneralizedAlpha
from floatframe.solvers.linear import BorderedLU, border_indices, factorize, sparse_lu
from floatframe.assembly import System

H = 1e-3


@pytest.fixture(scope="module")
def beam():
    """The free Hex8 beam (832 coordinates) with the Tisserand frame, and its state after 3 steps."""
    mesh = block_mesh(1.0, 0.1, 0.1, 10, 4, 4)
    mass, stiffness = linear_elastic_matrices(mesh, 2.1e11, 0.3, 7850)
    system = System()
    body = add_ffrf_body(system, mesh.nodes, mass, stiffness, angular_velocity=(0, 0, 2.0), velocity=(1, 0, 0))
    add_tisserand_frame(system, body)
    assembled = system.assemble()
    result = GeneralizedAlpha(0.5).solve(assembled, 3 * H, 3)
    return assembled, result


def newton_matrix(beam, step=-1, c_v=H / 2, c_q=H * H / 4):
    assembled, result = beam
    return assembled.newton_matrix(result.t[step], result.q[step], result.v[step], result.a[step],
                                   result.lam[step], 1.0, c_v, c_q).tocsc()


@pytest.fixture
def bordered_everywhere(monkeypatch):
    """factorize uses the bordered LU at any size, with an empty cache of analysed patterns."""
    monkeypatch.setattr(linear, "BORDERED_MIN_SIZE", 0)
    monkeypatch.setattr(linear, "_PATTERNS", type(linear._PATTERNS)())


def relative_error(solution, reference):
    return np.linalg.norm(solution - reference) / np.linalg.norm(reference)


def test_border_is_frame_tisserand_and_norm_rows(beam):
    n = beam[0].n_coordinates
    expected = list(range(7)) + list(range(n, n + 7))   # frame, Euler-parameter norm, Tisserand
    assert border_indices(newton_matrix(beam)).tolist() == expected


@pytest.mark.parametrize("c_v, c_q", [(0.0, 0.0), (H / 2, H * H / 4)])
def test_bordered_solve_equals_dense_solve(beam, c_v, c_q):
    matrix = newton_matrix(beam, c_v=c_v, c_q=c_q)
    right = np.random.default_rng(3).standard_normal((matrix.shape[0], 3))
    reference = np.linalg.solve(matrix.toarray(), right)
    factors = BorderedLU(matrix)
    assert relative_error(factors.solve(right[:, 0]), reference[:, 0]) < 1e-10
    assert relative_error(factors.solve(right), reference) < 1e-10
    assert relative_error(factors.solve(right[:, 1]), sparse_lu(matrix).solve(right[:, 1])) < 1e-10
    assert factors.backward_error() < 1e-15


def test_ordering_kept_for_same_pattern_and_redone_for_new_one(beam, bordered_everywhere):
    first, second = newton_matrix(beam, step=0), newton_matrix(beam, step=-1)
    assert np.array_equal(first.indices, second.indices) and not np.allclose(first.data, second.data)
    right = np.linspace(-1.0, 1.0, first.shape[0])
    analysed = factorize(first)
    reused = factorize(second)
    assert isinstance(reused, BorderedLU) and not analysed.reused_ordering and reused.reused_ordering
    assert relative_error(reused.solve(right), np.linalg.solve(second.toarray(), right)) < 1e-10
    changed = second.tolil()
    changed[10, 500] = changed[500, 10] = 1e-3 * abs(second[10, 10])   # two entries outside the pattern
    changed = changed.tocsc()
    redone = factorize(changed)
    assert isinstance(redone, BorderedLU) and not redone.reused_ordering
    assert relative_error(redone.solve(right), np.linalg.solve(changed.toarray(), right)) < 1e-10


def test_generalized_alpha_with_bordered_lu_follows_plain_lu(beam, monkeypatch):
    assembled, _ = beam
    plain = GeneralizedAlpha(0.5).solve(assembled, 5 * H, 5)
    monkeypatch.setattr(linear, "BORDERED_MIN_SIZE", 0)
    bordered = GeneralizedAlpha(0.5).solve(assembled, 5 * H, 5)
    assert relative_error(bordered.q[-1], plain.q[-1]) < 1e-10
    assert relative_error(bordered.v[-1], plain.v[-1]) < 1e-10
    assert relative_error(bordered.a[-1], plain.a[-1]) < 1e-8   # lambda: round-off (1e-14) on a free body


def test_fill_in_below_plain_lu(beam):
    matrix = newton_matrix(beam)
    plain = sparse_lu(matrix)
    assert BorderedLU(matrix).fill_in < 0.97 * (plain.L.nnz + plain.U.nnz)


def rigid_chain_newton_matrix(n_bodies=300, seed=2):
    """The pattern of a chain of rigid bodies with Euler parameters and revolute joints as the assembly numbers it,
    [[M, C^T], [C, 0]]: per body a 3x3 and a 4x4 block of M; first the bodies' norm rows on their 4 parameters, then
    per joint 3 position rows on the 14 coordinates of the two bodies and 2 rows on their 8 parameters (random
    entries; the first joint holds body 0 to the ground)."""
    rng = np.random.default_rng(seed)
    n = 7 * n_bodies
    blocks = sp.block_diag([block for _ in range(n_bodies) for block in
                            (np.eye(3) + 0.1 * rng.normal(size=(3, 3)), np.eye(4) + 0.1 * rng.normal(size=(4, 4)))])
    couplings = [np.arange(7 * body + 3, 7 * body + 7) for body in range(n_bodies)]
    for body in range(n_bodies):
        both = np.arange(7 * max(body - 1, 0), 7 * (body + 1))
        parameters = both[np.isin(both % 7, (3, 4, 5, 6))]
        couplings += [both, both, both, parameters, parameters]
    rows = np.concatenate([np.full(coupled.size, row) for row, coupled in enumerate(couplings)])
    columns = np.concatenate(couplings)
    constraints = sp.csr_matrix((rng.normal(size=rows.size), (rows, columns)), shape=(len(couplings), n))
    return sp.bmat([[blocks, constraints.T], [constraints, None]], format="csc")


def test_constraint_heavy_matrices_are_ordered_by_colamd():
    """Many zero-diagonal rows (here 46 %): the factors are SuperLU's with the COLAMD order (on Exudyn's
    perf3DRigidBodies chain of 400 bodies the minimum-degree order filled its factors 3.3 million entries deep
    against COLAMD's 96,000; docs/performance.md), and solve to round-off."""
    import scipy.sparse.linalg as spla
    matrix = rigid_chain_newton_matrix()
    assert np.count_nonzero(matrix.diagonal() == 0) > 0.4 * matrix.shape[0]
    factors = sparse_lu(matrix)
    reference = spla.splu(matrix, permc_spec="COLAMD", diag_pivot_thresh=0.01, options=dict(SymmetricMode=True))
    np.testing.assert_array_equal(factors.perm_c, reference.perm_c)
    right = np.random.default_rng(3).normal(size=matrix.shape[0])
    solution = factors.solve(right)
    assert np.abs(matrix @ solution - right).max() < 1e-10 * np.abs(right).max() * np.abs(solution).max()


def test_fe_matrices_keep_the_minimum_degree_order(beam):
    """An FFRF Newton matrix (few constraint rows) is factorized as before: the same factors as with the minimum-
    degree order on A^T + A."""
    import scipy.sparse.linalg as spla
    matrix = sp.csc_matrix(newton_matrix(beam))
    reference = spla.splu(matrix, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.01, options=dict(SymmetricMode=True))
    factors = sparse_lu(matrix)
    assert (factors.L.nnz, factors.U.nnz) == (reference.L.nnz, reference.U.nnz)
    np.testing.assert_array_equal(factors.perm_c, reference.perm_c)


def arrow_matrix(n=60, zero_at=None, interior_value=0.0):
    """Diagonal 2..3 with one dense first row and column (the border); the diagonal entry at zero_at is a
    stored interior_value, which makes the interior block singular (0) or nearly so."""
    diagonal = np.linspace(2.0, 3.0, n)
    if zero_at is not None:
        diagonal[zero_at] = interior_value
    rows = np.concatenate([np.arange(n), np.zeros(n - 1, int), np.arange(1, n)])
    columns = np.concatenate([np.arange(n), np.arange(1, n), np.zeros(n - 1, int)])
    values = np.concatenate([diagonal, np.ones(n - 1), np.linspace(0.5, 1.0, n - 1)])
    return sp.csc_matrix((values, (rows, columns)), shape=(n, n))


def test_singular_interior_falls_back_to_plain_lu(bordered_everywhere):
    matrix = arrow_matrix(zero_at=7, interior_value=0.0)
    assert border_indices(matrix).tolist() == [0]
    right = np.arange(1.0, matrix.shape[0] + 1)
    factors = factorize(matrix)
    assert not isinstance(factors, BorderedLU)
    assert relative_error(factors.solve(right), np.linalg.solve(matrix.toarray(), right)) < 1e-12


def test_refinement_repairs_nearly_singular_interior(bordered_everywhere):
    matrix = arrow_matrix(zero_at=7, interior_value=1e-17)   # cond(A) = 259, cond(A_II) = 3e17
    right = np.arange(1.0, matrix.shape[0] + 1)
    reference = np.linalg.solve(matrix.toarray(), right)
    factors = factorize(matrix)
    assert isinstance(factors, BorderedLU) and factors.backward_error() < 1e-15
    assert relative_error(factors.solve(right, refine=False), reference) > 0.1
    assert relative_error(factors.solve(right), reference) < 1e-12


def test_row_emptied_by_the_border_joins_it(bordered_everywhere):
    matrix = arrow_matrix(zero_at=7)
    matrix.eliminate_zeros()   # index 7 keeps entries in the border row and column only, as the norm constraint
    assert border_indices(matrix).tolist() == [0, 7]
    right = np.arange(1.0, matrix.shape[0] + 1)
    factors = factorize(matrix)
    assert isinstance(factors, BorderedLU)
    assert relative_error(factors.solve(right), np.linalg.solve(matrix.toarray(), right)) < 1e-12


def test_singular_matrix_raises_as_plain_lu(bordered_everywhere):
    matrix = arrow_matrix().tolil()
    matrix[0, :] = 0.0   # the border row gone: singular
    matrix = matrix.tocsc()
    assert border_indices(matrix).tolist() == [0]
    with pytest.raises(RuntimeError, match="singular"):
        sparse_lu(matrix)
    with pytest.raises(RuntimeError, match="singular"):
        factorize(matrix)


def test_the_single_thread_context_limits_blas_and_restores_it_each_time():
    """single_threaded_blas(size >= SINGLE_THREAD_MIN_SIZE): BLAS on one thread inside, as before outside; the
    second use (the process's thread pools found once) does the same."""
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from floatframe.solvers.linear import SINGLE_THREAD_MIN_SIZE, single_threaded_blas

    def blas_threads():
        return [pool["num_threads"] for pool in threadpoolctl.threadpool_info() if pool["user_api"] == "blas"]

    before = blas_threads()
    for _ in range(2):
        with single_threaded_blas(SINGLE_THREAD_MIN_SIZE):
            assert blas_threads() == [1] * len(before)
        assert blas_threads() == before


def test_lapack_lu_solves_and_refuses_an_exactly_singular_matrix():
    """LAPACK's getrf reports an exactly zero pivot (info > 0): RuntimeError as SuperLU's; a regular matrix solves."""
    regular = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])
    right = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(linear.LapackLU(regular.copy()).solve(right), np.linalg.solve(regular, right),
                               rtol=1e-14)
    singular = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0]])
    with pytest.raises(RuntimeError, match="exactly singular"):
        linear.LapackLU(singular)
