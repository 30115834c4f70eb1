"""The one Euclidean norm of the solvers' convergence tests and growth bound (floatframe.linalg.euclidean_norm)."""
import numpy as np

from floatframe.linalg import euclidean_norm


def test_euclidean_norm_is_numpys_to_the_bit():
    """np.linalg.norm's value on random vectors of the sizes the Newton loops see, a Python float, and 5 for (3, 4)."""
    rng = np.random.default_rng(7)
    for size in (0, 1, 3, 7, 12, 60, 1000):
        vector = rng.standard_normal(size) * 10.0 ** rng.integers(-8, 8)
        value = euclidean_norm(vector)
        assert type(value) is float
        assert value == float(np.linalg.norm(vector))
    assert euclidean_norm(np.array([3.0, 4.0])) == 5.0
    assert np.isnan(euclidean_norm(np.array([1.0, np.nan])))


def test_the_solvers_share_it():
    """genalpha, genalpha_ggl and genalpha_lie use the shared helper, and the growth bound's scales use it: q_scale
    of a state with q_reference + q = (3, 4) is 5."""
    from floatframe.solvers import genalpha, genalpha_ggl, genalpha_lie

    from types import SimpleNamespace

    from floatframe.solvers.loop import State
    from floatframe.solvers.safeguards import GrowthBound

    assert genalpha._norm is genalpha_ggl.euclidean_norm is genalpha_lie.euclidean_norm is euclidean_norm
    system = SimpleNamespace(q_reference=np.array([1.0, 4.0]))
    state = State(0.0, np.array([2.0, 0.0]), np.array([6.0, 8.0]), np.array([0.0, 0.5]), np.zeros(2), np.zeros(0))
    bound = GrowthBound(system, state, 2.0, 10.0, "test")
    assert bound.position_limit == 10.0 * (5.0 + 10.0 * 2.0 + 0.5 * 0.5 * 4.0)
    assert bound.velocity_limit == 10.0 * (10.0 + 0.5 * 2.0 + 5.0)
