"""Claims about the hub-beam model ``build_slew``: the reduced-order beam (``modes=N``) is the full FE mesh
clamped at its root, reduced to its N lowest clamped eigenmodes, with the same energy, tip deflection,
inertia and first frequency; the full-mesh path keeps its size."""
import numpy as np
import scipy.sparse as sp
import pytest
import scipy.linalg

from floatframe.components import ModelError
from floatframe.models.slew import build_slew

ELEMENTS, MODES = 8, 4


@pytest.fixture(scope="module")
def beams():
    return build_slew(n_elements=ELEMENTS, modes=MODES), build_slew(n_elements=ELEMENTS)


def clamped_matrices(full):
    """K, M of the full mesh with the root-face rows removed, and the free rows."""
    root = np.flatnonzero(np.abs(full.body.reference_positions.reshape(-1, 3)[:, 0]) < 1e-12)
    free = np.setdiff1d(np.arange(full.stiffness_ff.shape[0]), np.concatenate([3 * root + k for k in range(3)]))
    return full.stiffness_ff[np.ix_(free, free)], full.mass_ff[np.ix_(free, free)], free


def test_the_reduced_beam_has_the_lowest_clamped_eigenfrequencies_of_the_full_mesh(beams):
    reduced, full = beams
    stiffness, mass, _ = clamped_matrices(full)
    lowest = scipy.linalg.eigh(stiffness, mass, eigvals_only=True, subset_by_index=[0, MODES - 1])
    np.testing.assert_allclose(np.sort(np.diag(reduced.flexible_stiffness)), lowest, rtol=1e-9)
    np.testing.assert_allclose(reduced.flexible_stiffness, np.diag(lowest), atol=1e-8 * lowest.max())
    np.testing.assert_allclose(reduced.flexible_mass, np.eye(MODES), atol=1e-12)
    assert np.sqrt(lowest[0]) / (2 * np.pi) == pytest.approx(reduced.first_frequency, rel=1e-9)


def test_the_modes_vanish_at_the_root_so_no_clamp_constraints_are_needed(beams):
    reduced, full = beams
    _, _, free = clamped_matrices(full)
    fixed = np.setdiff1d(np.arange(reduced.mode_basis.shape[0]), free)
    assert np.abs(reduced.mode_basis[fixed]).max() == 0.0
    assert reduced.assembled.n_coordinates == 7 + MODES and reduced.assembled.n_multipliers == 6
    assert full.assembled.n_multipliers == 6 + 12


def test_energy_and_tip_deflection_equal_the_full_mesh_for_q_f_equal_psi_zeta(beams):
    reduced, full = beams
    rng = np.random.default_rng(3)
    zeta, zeta_t = rng.normal(size=MODES) * 1e-2, rng.normal(size=MODES) * 1e-1
    q, v = np.zeros(reduced.assembled.n_coordinates), np.zeros(reduced.assembled.n_coordinates)
    q[reduced.flexible_rows], v[reduced.flexible_rows] = zeta, zeta_t
    q_full, v_full = np.zeros(full.assembled.n_coordinates), np.zeros(full.assembled.n_coordinates)
    q_full[full.flexible_rows], v_full[full.flexible_rows] = reduced.mode_basis @ zeta, reduced.mode_basis @ zeta_t
    # the reduced K_red = Psi^T (K Psi) carries the round-off of K Psi, whose terms cancel to 1/121,000 here:
    # the energies agree to a few eps times the energy of |u|, |K| (measured 2.7), not to eps times the energy
    u = np.abs(q_full[full.flexible_rows])
    round_off = np.finfo(float).eps * 0.5 * u @ (abs(sp.csr_matrix(full.flexible_stiffness)) @ u)
    assert abs(reduced.vibration_energy(q, v) - full.vibration_energy(q_full, v_full)) <= 20.0 * round_off
    assert round_off < 1e-10 * full.vibration_energy(q_full, v_full)
    assert reduced.tip_deflection(q) == pytest.approx(full.tip_deflection(q_full), rel=1e-12)
    assert full.tip_deflection(q_full) == pytest.approx(q_full[full.tip_rows].mean(), rel=1e-12)


def test_the_rigid_inertia_is_the_same_for_both_beams(beams):
    reduced, full = beams
    beam = 2700.0 * 0.05 ** 2 * 1.0 ** 3 / 3 + 2700.0 * 0.05 ** 2 * 1.0 * 0.05 ** 2 / 3   # rho A (L^3/3 + L w^2/3)
    assert reduced.rigid_inertia == pytest.approx(full.rigid_inertia, rel=1e-12)
    assert full.rigid_inertia == pytest.approx(2.0 + beam, rel=1e-12)


def test_the_default_full_mesh_keeps_43_coordinates():
    model = build_slew()
    assert not model.reduced and model.assembled.n_coordinates == 43 and model.assembled.n_multipliers == 18


@pytest.mark.parametrize("modes", [0, -2, 2.5, True])
def test_a_mode_count_that_is_not_a_positive_integer_is_refused(modes):
    with pytest.raises(ModelError, match=r"build_slew: modes must be None \(full mesh\) or a positive integer"):
        build_slew(n_elements=ELEMENTS, modes=modes)


def test_more_modes_than_the_clamped_mesh_has_are_refused():
    with pytest.raises(ModelError, match=r"fixed-interface eigenmodes asked for, but only 12 coordinates remain"):
        build_slew(n_elements=1, modes=13)
