"""Geometric stiffening of the FFRF bodies (issue 24): spinning cantilever against Wright et al. (1982), a pinned
column under an interface load against sqrt(1 - P / P_cr), the exact Jacobians, the warning and bad input."""
import warnings

import numpy as np
import pytest
import scipy.sparse.linalg as spla

import floatframe as ff
from floatframe import rotations
from floatframe.components import CoordinateConstraint, MarkerNodeCoordinate, NodePointGround
from floatframe.components.base import ModelError
from floatframe.components.ffrf import add_ffrf_body
from floatframe.components.ffrf_reduced import add_reduced_ffrf_body
from floatframe.components.geometric_stiffening import check_spin_rate, lowest_elastic_frequency
from floatframe.fem import block_mesh, craig_bampton_modes, geometric_stiffness_cases, linear_elastic_matrices
from floatframe.solvers.modal import eigenmodes

YOUNGS_MODULUS, DENSITY, LENGTH, WIDTH = 2.1e11, 7850.0, 1.0, 0.01
# first flapwise frequency omega sqrt(rho A L^4 / E I) of a uniform cantilever at lambda = Omega sqrt(rho A L^4 / E I),
# hub radius 0 (Wright, Smith, Thresher and Wang 1982, Table 1; Hodges and Rutkowski 1981)
WRIGHT = {0: 3.5160, 2: 4.1373, 4: 5.5850, 6: 7.3604, 10: 11.2023}


@pytest.fixture(scope="module")
def blade():
    """A 100:1 Hex20 cantilever along x, section centred on the x axis, clamped at x = 0 (the spin axis), nu = 0
    (Euler-Bernoulli's uniaxial stress); its 12 clamped modes and the six omega_i omega_j load cases."""
    mesh = block_mesh(LENGTH, WIDTH, WIDTH, 20, 1, 1, element="Hex20")
    mesh.nodes[:, 1:] -= WIDTH / 2
    mass, stiffness = linear_elastic_matrices(mesh, YOUNGS_MODULUS, 0.0, DENSITY)
    root = np.flatnonzero(np.isclose(mesh.nodes[:, 0], 0.0))
    modes = craig_bampton_modes(mass, stiffness, mesh.nodes, [root], 12, solver="sparse")
    cases = geometric_stiffness_cases(mesh, YOUNGS_MODULUS, 0.0, mass, stiffness, held_nodes=root,
                                      frame_cases=("omega",), name="blade")
    scale = np.sqrt(YOUNGS_MODULUS * WIDTH ** 4 / 12 / (DENSITY * WIDTH ** 2 * LENGTH ** 4))   # sqrt(EI / rho A L^4)
    return mesh, mass, stiffness, root, modes, cases, scale


def flap_and_lag(result, tip_rows, scale):
    """Lowest nondimensional frequencies of the modes whose tip moves mainly along z (flap) and y (lag)."""
    tip = np.abs(result.eigenvectors[tip_rows])                      # (2, modes): tip y, tip z
    frequencies = np.sqrt(np.abs(result.eigenvalues)) / scale
    flap = frequencies[(tip[1] > 0.1 * tip.max()) & (tip[1] > tip[0])]
    lag = frequencies[(tip[0] > 0.1 * tip.max()) & (tip[0] > tip[1])]
    return flap[0], lag[0]


def check_wright(flap, lag, lam):
    """Flap: Wright's table to 0.5 %. Lag (in-plane), hub radius 0: omega_lag^2 = omega_flap^2 - Omega^2."""
    assert flap == pytest.approx(WRIGHT[lam], rel=5e-3)
    assert lag == pytest.approx(np.sqrt(WRIGHT[lam] ** 2 - lam ** 2), rel=5e-3)


@pytest.mark.parametrize("lam", sorted(WRIGHT))
def test_spinning_cantilever_reduced_body(blade, lam):
    """The reduced body's own residual, linearized about steady spin (frame held at omega = lambda sqrt(EI/rho A L^4)
    about z): K + Omega^2 Psi^T K_G,zz Psi and the FFRF spin softening give Wright's frequencies."""
    mesh, mass, stiffness, _, modes, cases, scale = blade
    system = ff.System()
    body = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes, angular_velocity=(0, 0, lam * scale),
                                 geometric_stiffness=cases, name="blade")
    result = eigenmodes(system.assemble(), constraints="ignore", constrained_coordinates=body.rigid_node.coordinate_indices)
    tip = mesh.node_at_point((LENGTH, WIDTH / 2, WIDTH / 2))
    rows = modes.vectors[[3 * tip + 1, 3 * tip + 2]]
    physical = type(result)(result.eigenvalues, rows @ result.eigenvectors[body.modal_node.coordinate_indices])
    flap, lag = flap_and_lag(physical, [0, 1], scale)
    check_wright(flap, lag, lam)


@pytest.mark.parametrize("lam", [0, 4, 10])
def test_spinning_cantilever_full_body(blade, lam):
    """The same with the full ObjectFFRF, its root face held by CoordinateConstraints (coordinates held in the
    linearization)."""
    mesh, mass, stiffness, root, _, cases, scale = blade
    system = ff.System()
    body = add_ffrf_body(system, mesh.nodes, mass, stiffness, angular_velocity=(0, 0, lam * scale),
                         geometric_stiffness=cases, name="blade")
    ground = system.add(MarkerNodeCoordinate(system.add(NodePointGround((0.0, 0.0, 0.0))), 0))
    for node in root:
        for k in range(3):
            system.add(CoordinateConstraint([ground, system.add(MarkerNodeCoordinate(body.node_numbers[1 + node], k))]))
    assembled = system.assemble()
    held = np.concatenate([body.rigid_node.coordinate_indices] + [body.mesh_nodes[n].coordinate_indices for n in root])
    result = eigenmodes(assembled, constraints="ignore", constrained_coordinates=held, n_modes=8, sparse=True,
                        shift=0.0)
    tip = body.mesh_nodes[mesh.node_at_point((LENGTH, WIDTH / 2, WIDTH / 2))].coordinate_indices
    flap, lag = flap_and_lag(result, tip[1:], scale)
    check_wright(flap, lag, lam)


def test_without_stiffening_the_flap_frequency_does_not_rise(blade):
    """The linear FFRF body (the option off): at lambda = 4 the flap frequency stays at the non-rotating 3.516."""
    mesh, mass, stiffness, _, modes, _, scale = blade
    system = ff.System()
    body = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes, angular_velocity=(0, 0, 4 * scale))
    result = eigenmodes(system.assemble(), constraints="ignore", constrained_coordinates=body.rigid_node.coordinate_indices)
    tip = mesh.node_at_point((LENGTH, WIDTH / 2, WIDTH / 2))
    rows = modes.vectors[[3 * tip + 1, 3 * tip + 2]]
    physical = type(result)(result.eigenvalues, rows @ result.eigenvectors[body.modal_node.coordinate_indices])
    assert flap_and_lag(physical, [0, 1], scale)[0] == pytest.approx(WRIGHT[0], rel=5e-3)


def test_pinned_column_frequency_falls_with_the_axial_load():
    """A pinned-pinned Hex20 column (length 50 widths) under an axial end load through the interface case "top force
    z" with amplitude -P: omega(P) / omega(0) = sqrt(1 - P / P_cr), P_cr = pi^2 E I / L^2, within 1 %."""
    length, width = 1.0, 0.02
    mesh = block_mesh(width, width, length, 2, 2, 12, element="Hex20")
    mesh.nodes[:, :2] -= width / 2
    mass, stiffness = linear_elastic_matrices(mesh, YOUNGS_MODULUS, 0.0, DENSITY)
    base, top_centre = mesh.node_at_point((0, 0, 0)), mesh.node_at_point((0, 0, length))
    side = mesh.node_at_point((width / 2, 0, 0))                       # its y holds the torsion only
    held = np.array([3 * base, 3 * base + 1, 3 * base + 2, 3 * top_centre, 3 * top_centre + 1, 3 * side + 1])
    top = np.flatnonzero(np.isclose(mesh.nodes[:, 2], length))
    free = np.setdiff1d(np.arange(mesh.n_coordinates), held)
    _, vectors = spla.eigsh(stiffness[free][:, free].tocsc(), k=10, M=mass[free][:, free].tocsc(), sigma=0.0)
    modes = np.zeros((mesh.n_coordinates, 10))
    modes[free] = vectors
    cases = geometric_stiffness_cases(mesh, YOUNGS_MODULUS, 0.0, mass, stiffness, held_coordinates=held,
                                      frame_cases=(), interface_sets={"top": top}, name="column")
    critical = np.pi ** 2 * YOUNGS_MODULUS * width ** 4 / 12 / length ** 2

    def lateral(load):
        system = ff.System()
        body = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes, geometric_stiffness=cases,
                                     geometric_stiffness_amplitudes={"top force z": -load}, name="column")
        result = eigenmodes(system.assemble(), constraints="ignore",
                            constrained_coordinates=body.rigid_node.coordinate_indices)
        return np.sqrt(result.eigenvalues[0])

    unloaded = lateral(0.0)
    for ratio in (0.25, 0.5, 0.75):
        assert lateral(ratio * critical) / unloaded == pytest.approx(np.sqrt(1 - ratio), rel=1e-2)


def spinning_accelerating_systems(full):
    """The same small body without and with all twelve frame cases and a time-dependent interface case, its frame
    free (a Tisserand frame for the full body)."""
    from floatframe.components.reference_conditions import add_tisserand_frame

    mesh = block_mesh(0.3, 0.02, 0.02, 3, 1, 1, element="Hex8")
    mass, stiffness = linear_elastic_matrices(mesh, 7e10, 0.3, 2700.0)
    root = np.flatnonzero(np.isclose(mesh.nodes[:, 0], 0.0))
    cases = geometric_stiffness_cases(mesh, 7e10, 0.3, mass, stiffness, held_nodes=root,
                                      interface_sets={"tip": np.flatnonzero(np.isclose(mesh.nodes[:, 0], 0.3))})
    modes = craig_bampton_modes(mass, stiffness, mesh.nodes, [root], 6)
    assembled = []
    for options in ({}, dict(geometric_stiffness=cases,
                             geometric_stiffness_amplitudes={"tip force y": lambda ctx: 3e3 * ctx.t + 1e3})):
        system = ff.System()
        if full:
            add_tisserand_frame(system, add_ffrf_body(system, mesh.nodes, mass, stiffness, **options))
        else:
            add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes, **options)
        assembled.append(system.assemble())
    return assembled


@pytest.mark.parametrize("full", [False, True])
def test_iteration_matrix_is_exact(full):
    """The stiffening part of c_a R_a + c_v R_v + c_q R_q (the matrix with the option less the one without) against
    central differences of the stiffening part of the residual along a random direction, at a state where every
    amplitude (omega_i omega_j, alpha, A^T a_t, a time-dependent interface force) is non-zero."""
    linear, stiffened = spinning_accelerating_systems(full)
    n = linear.n_coordinates
    generator = np.random.default_rng(3)
    q = linear.q_initial + 1e-3 * generator.standard_normal(n)
    q[3:7] = [0.6, 0.5, -0.3, 0.2] - linear.q_reference[3:7]                 # a general orientation
    v, a = 3.0 * generator.standard_normal(n), 30.0 * generator.standard_normal(n)
    lam = np.zeros(linear.n_multipliers)
    direction = generator.standard_normal(n)
    c_a, c_v, c_q, step, t = 1.0, 0.7, 0.3, 1e-6, 0.4

    def stiffening_residual(h):
        state = (t, q + c_q * h * direction, v + c_v * h * direction, a + c_a * h * direction, lam)
        return stiffened.residual(*state)[:n] - linear.residual(*state)[:n]

    matrix = (stiffened.newton_matrix(t, q, v, a, lam, c_a, c_v, c_q)
              - linear.newton_matrix(t, q, v, a, lam, c_a, c_v, c_q))[:n, :n]
    exact = matrix @ direction
    difference = (stiffening_residual(step) - stiffening_residual(-step)) / (2 * step)
    assert np.abs(stiffening_residual(0.0)).max() > 0.0
    assert np.abs(exact - difference).max() < 1e-7 * np.abs(exact).max()


def test_bad_input_names_the_body(blade):
    mesh, mass, stiffness, root, modes, cases, _ = blade
    system = ff.System()
    with pytest.raises(ModelError, match="ObjectFFRFReducedOrder 'blade'.*GeometricStiffnessCases"):
        add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes, geometric_stiffness=[stiffness], name="blade")
    with pytest.raises(ModelError, match="ObjectFFRFReducedOrder 'blade'.*unknown interface load case 'hub force z'"):
        add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes, geometric_stiffness=cases, name="blade",
                              geometric_stiffness_amplitudes={"hub force z": 1.0})
    other = block_mesh(0.3, 0.02, 0.02, 3, 1, 1, element="Hex8")
    other_mass, other_stiffness = linear_elastic_matrices(other, 7e10, 0.3, 2700.0)
    other_cases = geometric_stiffness_cases(other, 7e10, 0.3, other_mass, other_stiffness, held_nodes=[0, 4, 8, 12])
    with pytest.raises(ModelError, match="ObjectFFRF 'blade'.*load cases of 48 mesh coordinates"):
        add_ffrf_body(system, mesh.nodes, mass, stiffness, geometric_stiffness=other_cases, name="blade")
    with pytest.raises(ModelError, match="geometric stiffness cases of blade.*reference conditions"):
        geometric_stiffness_cases(mesh, YOUNGS_MODULUS, 0.0, mass, stiffness, name="blade")


def test_spin_warning_once_per_body(blade):
    """A body without stiffening spinning above 0.3 omega_1 gets one warning naming it, the time and both numbers;
    with stiffening, none. omega_1 of the reduced body is its lowest modal frequency."""
    mesh, mass, stiffness, _, modes, cases, scale = blade
    system = ff.System()
    linear = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes, name="linear")
    stiffened = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes, geometric_stiffness=cases,
                                      name="stiffened")
    system.assemble()
    first = lowest_elastic_frequency(linear)
    assert first == pytest.approx(np.sqrt(modes.eigenvalues[0]), rel=1e-6)   # Lanczos against eigh: 2e-8
    assert first / scale == pytest.approx(WRIGHT[0], rel=5e-3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert not check_spin_rate(linear, 0.1, (0, 0, 0.29 * first))
        assert check_spin_rate(linear, 0.25, (0, 0, 0.31 * first))
        assert not check_spin_rate(linear, 0.5, (0, 0, 2 * first))
        assert not check_spin_rate(stiffened, 0.5, (0, 0, 2 * first))
    assert len(caught) == 1
    text = str(caught[0].message)
    assert "'linear'" in text and "t = 0.25 s" in text and f"{0.31 * first:.4g} rad/s" in text
    assert f"{first:.4g} rad/s" in text and "geometric_stiffness" in text


def test_spin_check_of_an_assembled_system(blade):
    """check_spin_rates reads each FFRF body's omega = G theta_t from the state (the call a solver makes after a step):
    a reduced body spinning at 0.5 omega_1 about a tilted axis is warned about once, naming it and |omega|."""
    from floatframe.components.geometric_stiffening import check_spin_rates

    mesh, mass, stiffness, _, modes, _, _ = blade
    first = np.sqrt(modes.eigenvalues[0])
    spin = 0.5 * first * np.array([0.0, 0.6, 0.8])
    system = ff.System()
    add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes, euler_parameters=(0.8, 0.6, 0.0, 0.0),
                          angular_velocity=spin, name="tilted")
    assembled = system.assemble()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_spin_rates(assembled, 1.5, assembled.q_initial, assembled.v_initial)
        check_spin_rates(assembled, 2.0, assembled.q_initial, assembled.v_initial)
    assert len(caught) == 1
    text = str(caught[0].message)
    assert "'tilted'" in text and "t = 1.5 s" in text and f"{0.5 * first:.4g} rad/s" in text


def test_stacked_states_are_checked_as_one_at_a_time(blade):
    """The monitor of stored states stacked (the C loop's blocks): omega of each state as frame_angular_velocity gives
    it, and one warning at the first state above 0.3 omega_1, naming its time."""
    from floatframe import rotations
    from floatframe.components.geometric_stiffening import (check_spin_rates_stacked, frame_angular_velocities,
                                                            frame_angular_velocity)

    mesh, mass, stiffness, _, modes, _, _ = blade
    first = np.sqrt(modes.eigenvalues[0])
    system = ff.System()
    body = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes, euler_parameters=(0.8, 0.6, 0.0, 0.0),
                                 name="tilted")
    assembled = system.assemble()
    rows = body.rigid_node.coordinate_indices[3:]
    axis = np.array([0.0, 0.6, 0.8])
    times = np.array([0.0, 0.5, 1.0, 1.5])
    q = np.tile(assembled.q_initial, (4, 1))
    v = np.tile(assembled.v_initial, (4, 1))
    theta = assembled.q_reference[rows] + q[0, rows]
    g_local = rotations.g_local(theta)
    for k, fraction in enumerate((0.0, 0.2, 0.4, 0.6)):   # theta_t = G_local^T omega / 4 gives omega (|theta| = 1)
        v[k, rows] = g_local.T @ (fraction * first * axis) / 4
    omegas = frame_angular_velocities(body, q, v, assembled.q_reference)
    for k in range(4):
        assert np.allclose(omegas[k], frame_angular_velocity(body, q[k], v[k], assembled.q_reference), rtol=1e-14,
                           atol=1e-12 * first)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert check_spin_rates_stacked(body, times, q, v, assembled.q_reference)
        assert not check_spin_rates_stacked(body, times, q, v, assembled.q_reference)
    assert len(caught) == 1 and "t = 1 s" in str(caught[0].message)
    assert f"{0.4 * first:.4g} rad/s" in str(caught[0].message)


@pytest.mark.parametrize("parameters", [4, 3], ids=["Euler parameters", "Tait-Bryan angles"])
def test_stacked_angular_velocities_are_each_states(parameters):
    """frame_angular_velocities on k random stacked states (frame coordinates scattered in q) gives
    frame_angular_velocity of each state to 1e-15 of |G| |theta_t| (the same products, summed in another order), for
    both frame nodes; at Tait-Bryan angles 0 (G_local = I) omega is theta_t."""
    from types import SimpleNamespace

    from floatframe.components.geometric_stiffening import frame_angular_velocities, frame_angular_velocity

    indices = np.array([7, 0, 5, 2, 9, 4, 1])[:3 + parameters]
    body = SimpleNamespace(rigid_node=SimpleNamespace(coordinate_indices=indices))
    rows = indices[3:]
    g_local_of = rotations.g_local if parameters == 4 else rotations.rot_xyz_g_local
    rng = np.random.default_rng(11)
    q_reference = rng.standard_normal(10)
    for count in (1, 2, 300):
        q, v = rng.standard_normal((count, 10)), rng.standard_normal((count, 10))
        omegas = frame_angular_velocities(body, q, v, q_reference)
        assert omegas.shape == (count, 3)
        for k in range(count):
            scale = np.abs(g_local_of(q_reference[rows] + q[k, rows])) @ np.abs(v[k, rows])
            assert np.all(np.abs(omegas[k] - frame_angular_velocity(body, q[k], v[k], q_reference)) <= 1e-15 * scale)
    if parameters == 3:
        q = np.tile(-q_reference, (2, 1))
        assert np.array_equal(frame_angular_velocities(body, q, v[:2], q_reference), v[:2, rows])


def clamped_blade(blade, hub: bool):
    """The blade as a full body with CoordinateConstraints on its root face's mesh coordinates; with ``hub`` its
    frame node is also held (turned by a prescribed hub angle, 0 here), else it floats."""
    from floatframe.models.spin_up_beam import PrescribedHubRotation

    mesh, mass, stiffness, root, _, _, _ = blade
    system = ff.System()
    body = add_ffrf_body(system, mesh.nodes, mass, stiffness, name="clamped")
    ground = system.add(MarkerNodeCoordinate(system.add(NodePointGround((0.0, 0.0, 0.0))), 0))
    for node in root:
        for k in range(3):
            system.add(CoordinateConstraint([ground, system.add(MarkerNodeCoordinate(body.node_numbers[1 + node], k))]))
    if hub:
        system.add(PrescribedHubRotation(body.node_numbers[0], lambda t: 0.0 * t, name="hub"))
    return system.assemble(), body


def free_mesh_frequency(blade):
    _, mass, stiffness, *_ = blade
    return np.sqrt(spla.eigsh(stiffness.tocsc(), 7, mass.tocsc(), sigma=-1.0)[0].max())     # 6 zeros, then omega_1


def test_a_floating_body_with_a_held_root_face_keeps_its_free_mesh_frequency(blade):
    """Mesh coordinates held relative to a floating frame are reference conditions: they choose the frame, and the
    body's elastic frequencies stay the free mesh's (so the rotor disc's 3-2-1 set-up is not warned about)."""
    _, body = clamped_blade(blade, hub=False)
    assert body.held_mesh_coordinates.size == 0
    # the free mesh's omega_1 by floatframe.fem.eigenmodes (rigid modes deflated) and by shift-invert Lanczos agree to
    # 5e-4 here; the clamped omega_1 is 6.4 times lower
    assert lowest_elastic_frequency(body) == pytest.approx(free_mesh_frequency(blade), rel=1e-3)


def test_full_body_spin_warning_uses_its_clamped_frequency(blade):
    """A full body clamped by CoordinateConstraints on its root face to a hub that the constraints hold: those
    3 x (root nodes) mesh coordinates are held, and omega_1 of the warning is the clamped beam's
    (3.516 sqrt(EI / rho A L^4) within 0.5 %), not the free mesh's (22.37, 6.4 times higher): at 0.5 of the clamped
    omega_1 the body is warned about."""
    from floatframe.components.geometric_stiffening import check_spin_rates

    _, _, _, root, _, _, scale = blade
    assembled, body = clamped_blade(blade, hub=True)
    assert body.held_mesh_coordinates.tolist() == sorted(3 * node + k for node in root for k in range(3))
    first = lowest_elastic_frequency(body)
    assert first / scale == pytest.approx(WRIGHT[0], rel=5e-3)
    assert free_mesh_frequency(blade) / first > 6.0
    v = assembled.v_initial.copy()
    v[body.rigid_node.coordinate_indices[3:7]] = 0.5 * 0.5 * first * np.array([0.0, 0.0, 0.0, 1.0])  # omega_z
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_spin_rates(assembled, 0.5, assembled.q_initial, v)
    assert len(caught) == 1 and f"lowest elastic frequency {first:.4g} rad/s" in str(caught[0].message)
