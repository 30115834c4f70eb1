"""Claims about ObjectFFRFReducedOrder: it is the full FFRF body projected on its modes, exactly; its
Jacobians are exact; a free body keeps its momenta; its outputs follow the specification; bad input is refused."""
import casadi as ca
import numpy as np
import pytest

import floatframe as ff
from model_helpers import exact_function_errors, random_state
from floatframe import rotations
from floatframe.components.base import ModelError
from floatframe.components.ffrf import add_ffrf_body
from floatframe.components.reference_conditions import add_tisserand_frame
from floatframe.components.ffrf_reduced import ObjectFFRFReducedOrder, ReducedOrderInvariants, add_reduced_ffrf_body
from floatframe.ocp.step import rollout
from floatframe.fem import block_mesh, eigenmodes, linear_elastic_matrices, rotor_disc_mesh

POSE = dict(position=(0.1, -0.2, 0.3), euler_parameters=(np.cos(0.2), 0.0, np.sin(0.2), 0.0))


@pytest.fixture(scope="module")
def beam():
    """The 0.4 x 0.1 x 0.1 m steel Hex8 beam (20 nodes, 60 coordinates), softened 1000 times, with all its
    54 elastic modes."""
    mesh = block_mesh(0.4, 0.1, 0.1, 4, 1, 1)
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=2.1e11, poissons_ratio=0.3, density=7850.0)
    stiffness = 1e-3 * stiffness
    return mesh, mass, stiffness, eigenmodes(mass, stiffness, mass.shape[0] - 6, solver="dense")


def full_and_reduced(beam, n_modes=None, **motion):
    mesh, mass, stiffness, modes = beam
    basis = modes.vectors[:, :n_modes]
    full_system, reduced_system = ff.System(), ff.System()
    full = add_ffrf_body(full_system, mesh.nodes, mass, stiffness, **POSE, **motion)
    add_tisserand_frame(full_system, full)
    reduced = add_reduced_ffrf_body(reduced_system, mesh.nodes, mass, stiffness, basis, **POSE, **motion)
    return full_system, full, reduced_system, reduced, basis


def lift(basis, x):
    """The full body's coordinates of a reduced state: H x with H = blockdiag(I_7, Psi)."""
    return np.concatenate([x[:7], basis @ x[7:]])


def test_with_a_complete_basis_the_residual_is_the_full_bodys_projected_on_the_modes(beam):
    full_system, _, reduced_system, _, basis = full_and_reduced(beam)
    full, reduced = full_system.assemble(), reduced_system.assemble()
    rng = np.random.default_rng(1)
    for _ in range(3):
        t, q, v, a, lam = random_state(reduced, rng)
        r_full = full.residual(t, lift(basis, q), lift(basis, v), lift(basis, a), np.zeros(full.n_multipliers))
        r_reduced = reduced.residual(t, q, v, a, np.zeros_like(lam))
        projected = np.concatenate([r_full[:7], basis.T @ r_full[7:]])    # H^T R_full
        assert np.abs(r_reduced - projected).max() <= 1e-12 * np.abs(projected).max()


def test_with_eight_modes_the_mass_matrix_is_the_full_one_projected_with_h(beam):
    full_system, _, reduced_system, _, basis = full_and_reduced(beam, n_modes=8)
    full, reduced = full_system.assemble(), reduced_system.assemble()
    t, q, v, a, lam = random_state(reduced, np.random.default_rng(2), scale=5e-2)
    h = np.zeros((full.n_coordinates, reduced.n_coordinates))
    h[:7, :7], h[7:, 7:] = np.eye(7), basis
    projected = h.T @ full.mass_matrix(t, lift(basis, q), lift(basis, v)).toarray() @ h
    assert np.abs(reduced.mass_matrix(t, q, v).toarray() - projected).max() <= 1e-12 * np.abs(projected).max()


def test_with_a_complete_basis_a_spinning_body_moves_as_the_full_body(beam):
    """Same trajectory of a corner node (global displacement) and of the frame to 1e-9 of the signal."""
    motion = dict(angular_velocity=(2.0, -1.0, 30.0), velocity=(0.5, 0.0, 0.0))
    full_system, full, reduced_system, reduced, basis = full_and_reduced(beam, **motion)
    corner = 19
    sensors = [system.add(ff.SensorSuperElement(body, corner, "Displacement"))
               for system, body in ((full_system, full), (reduced_system, reduced))]
    solver = ff.GeneralizedAlpha(spectral_radius=0.8, relative_tolerance=1e-13, absolute_tolerance=1e-15)
    results = [solver.solve(system.assemble(), 0.02, 100) for system in (full_system, reduced_system)]
    displacements = [result.sensors[sensor] for result, sensor in zip(results, sensors)]
    scale = np.abs(displacements[0]).max()
    assert scale > 1e-3
    assert np.abs(displacements[1] - displacements[0]).max() <= 1e-9 * scale
    frame = [result.q[:, body.rigid_node.coordinate_indices] for result, body in zip(results, (full, reduced))]
    assert np.abs(frame[1] - frame[0]).max() <= 1e-9 * np.abs(frame[0]).max()


@pytest.mark.slow
def test_with_a_complete_basis_the_reduced_rotor_disc_moves_as_the_full_body():
    """The built-in rotor-disc mesh, the model's coarsest (245 nodes, 735 coordinates), with all its 729 elastic
    modes (modal_products "matrix", chosen by "auto"), against the full body with a Tisserand frame: the same
    global and local (elastic) displacement of a rim node and the same frame coordinates over 10 steps, to 1e-9
    of each signal. Measured: 5e-14 (global), 1.2e-11 (local), 2e-14 (frame). Steel with its stiffness x 1e-2,
    as in Exudyn's performance model, so that the elastic displacement (2e-5 m) stands well above the round-off
    of the positions (with the full stiffness it is 1e-6 m, and the local agreement 3e-10)."""
    mesh = rotor_disc_mesh()
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=2.1e9, poissons_ratio=0.3, density=7850.0)
    modes = eigenmodes(mass, stiffness, mass.shape[0] - 6, solver="dense")
    motion = dict(angular_velocity=(2.0, -1.0, 30.0), velocity=(0.5, 0.0, 0.0), **POSE)
    full_system, reduced_system = ff.System(), ff.System()
    full = add_ffrf_body(full_system, mesh.nodes, mass, stiffness, **motion)
    add_tisserand_frame(full_system, full)
    reduced = add_reduced_ffrf_body(reduced_system, mesh.nodes, mass, stiffness, modes, **motion)
    assert reduced.n_modes == 729 and reduced.matrix_form
    rim = int(np.argmax(np.hypot(mesh.nodes[:, 0], mesh.nodes[:, 1])))
    names = ("Displacement", "DisplacementLocal")
    sensors = [{name: system.add(ff.SensorSuperElement(body, rim, name)) for name in names}
               for system, body in ((full_system, full), (reduced_system, reduced))]
    solver = ff.GeneralizedAlpha(spectral_radius=0.8, modified_newton=True, relative_tolerance=1e-13,
                                 absolute_tolerance=1e-15)
    results = [solver.solve(system.assemble(), 1e-3, 10) for system in (full_system, reduced_system)]
    for name in names:
        values = [result.sensors[sensor[name]] for result, sensor in zip(results, sensors)]
        scale = np.abs(values[0]).max()
        assert scale > (1e-3 if name == "Displacement" else 1e-5)
        assert np.abs(values[1] - values[0]).max() <= 1e-9 * scale
    frame = [result.q[:, body.rigid_node.coordinate_indices] for result, body in zip(results, (full, reduced))]
    assert np.abs(frame[1] - frame[0]).max() <= 1e-9 * np.abs(frame[0]).max()


@pytest.mark.parametrize("form", ["scalar", "matrix"])
def test_iteration_matrix_equals_central_finite_differences(beam, form):
    mesh, mass, stiffness, modes = beam
    system = ff.System()
    add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes.vectors[:, :8], rayleigh=(0.5, 1e-4),
                          modal_products=form, **POSE)
    assembled = system.assemble()
    rng = np.random.default_rng(3)
    n = assembled.n_coordinates
    c_a, c_v, c_q = 1.0, 0.37, 0.011
    t, q, v, a, lam = random_state(assembled, rng, scale=5e-2)
    exact = assembled.newton_matrix(t, q, v, a, lam, c_a, c_v, c_q).toarray()

    def stacked(x):
        step = x[:n]
        return np.concatenate([assembled.residual(t, q + c_q * step, v + c_v * step, a + c_a * step, lam + x[n:]),
                               assembled.constraints(t, q + step)])

    step = 1e-6
    numeric = np.column_stack([(stacked(e) - stacked(-e)) / (2 * step) for e in step * np.eye(exact.shape[1])])
    assert np.abs(exact - numeric).max() <= 1e-7 * np.abs(exact).max()


def spinning_beams(beam, n_modes=8):
    """The assembled beam reduced to a non-orthogonal basis of ``n_modes`` modes, with Rayleigh damping and a
    spin, once with each form of the modal products: {"scalar": ..., "matrix": ...}."""
    mesh, mass, stiffness, modes = beam
    mixing = np.eye(n_modes) + 0.3 * np.random.default_rng(5).standard_normal((n_modes, n_modes))
    assembled = {}
    for form in ("scalar", "matrix"):
        system = ff.System()
        add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes.vectors[:, :n_modes] @ mixing,
                              rayleigh=(0.5, 1e-4), modal_products=form, angular_velocity=(2.0, -1.0, 30.0), **POSE)
        assembled[form] = system.assemble()
    return assembled


def test_the_hand_derived_jacobian_of_the_matrix_form_equals_casadis_ad_and_central_differences(beam):
    """frame_terms' Jacobian, at a random point, against CasADi's AD of the same expressions (a Function without
    the given Jacobian) and against central differences."""
    mesh, mass, stiffness, modes = beam
    system = ff.System()
    body = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes.vectors[:, :6], rayleigh=(0.5, 1e-4))
    versus_ad, versus_differences = exact_function_errors(body.frame_terms(), seed=6)
    assert versus_ad <= 1e-13
    assert versus_differences <= 1e-8


def test_the_matrix_form_has_the_residual_and_newton_matrix_of_the_scalar_form(beam):
    assembled = spinning_beams(beam)
    t, q, v, a, lam = random_state(assembled["scalar"], np.random.default_rng(7), scale=0.5)
    residuals = [assembled[form].residual(t, q, v, a, lam) for form in ("scalar", "matrix")]
    assert np.abs(residuals[1] - residuals[0]).max() <= 1e-13 * np.abs(residuals[0]).max()
    for factors in ((1.0, 0.37, 0.011), (0.2, 1.5, 3.0)):
        matrices = [assembled[form].newton_matrix(t, q, v, a, lam, *factors).toarray() for form in ("scalar", "matrix")]
        assert np.abs(matrices[1] - matrices[0]).max() <= 1e-13 * np.abs(matrices[0]).max()


def test_idas_and_the_differentiable_step_map_run_on_the_matrix_form(beam):
    """IDAS (which takes the residual's Jacobian from residual_with_jacobian) and the OCP's generalized-alpha
    rollout with its exact derivative d q(T) / d q0 (through the rootfinder) give the scalar form's numbers: IDAS
    to its tolerance (its step-size control sees the round-off of either form; measured 2e-12), the rollout to
    round-off."""
    assembled = spinning_beams(beam, n_modes=4)
    finals, jacobians = {}, {}
    for form, system in assembled.items():
        finals[form] = ff.IDAS(rtol=1e-10, atol=1e-12).solve(system, 0.01, 5).q[-1]
        rollout_function = rollout(system, np.linspace(0.0, 0.01, 6), 0.9)
        q0 = ca.MX.sym("q0", system.n_coordinates)
        q_end = rollout_function(q0, system.v_initial, np.zeros((0, 5)), np.zeros(0))[0]
        jacobians[form] = np.array(ca.Function("j", [q0], [ca.jacobian(q_end, q0)])(system.q_initial))
    assert np.abs(finals["matrix"] - finals["scalar"]).max() <= 1e-10 * np.abs(finals["scalar"]).max()
    assert np.abs(jacobians["scalar"]).max() > 0.5
    assert np.abs(jacobians["matrix"] - jacobians["scalar"]).max() <= 1e-10 * np.abs(jacobians["scalar"]).max()


def momenta(body, basis, mass, positions, q, v):
    """Linear and angular momentum (about the origin) of the mesh, from the global nodal velocities."""
    rigid = body.rigid_node.coordinate_indices
    theta = body.rigid_node.reference_coordinates[3:] + q[rigid[3:]]
    rotation = rotations.rotation_matrix(theta)
    omega_local = rotations.g_local(theta) @ v[rigid[3:]]
    modal = body.modal_node.coordinate_indices
    local = positions + (basis @ q[modal]).reshape(-1, 3)
    local_velocities = (basis @ v[modal]).reshape(-1, 3) + np.cross(omega_local, local)
    global_positions = body.rigid_node.reference_coordinates[:3] + q[rigid[:3]] + local @ rotation.T
    impulses = (mass @ local_velocities.reshape(-1)).reshape(-1, 3) @ rotation.T + \
        np.asarray(mass.sum(axis=1)).reshape(-1, 3) * v[rigid[:3]]   # M (global velocity), M isotropic
    return impulses.sum(axis=0), np.cross(global_positions, impulses).sum(axis=0)


def momentum_drifts(beam, steps, t_end):
    mesh, mass, stiffness, modes = beam
    basis = modes.vectors[:, :8]
    system = ff.System()
    body = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, basis, angular_velocity=(3.0, -2.0, 40.0),
                                 velocity=(1.0, 2.0, -0.5), **POSE)
    system.nodes[body.node_numbers[1]].initial_velocities = np.linspace(0.0, 0.05, 8)
    result = ff.GeneralizedAlpha(spectral_radius=1.0).solve(system.assemble(), t_end, steps)
    linear0, angular0 = momenta(body, basis, mass, mesh.nodes, result.q[0], result.v[0])
    drifts = np.zeros(2)
    for q, v in zip(result.q[1:], result.v[1:]):
        linear, angular = momenta(body, basis, mass, mesh.nodes, q, v)
        drifts = np.maximum(drifts, [np.linalg.norm(linear - linear0) / np.linalg.norm(linear0),
                                     np.linalg.norm(angular - angular0) / np.linalg.norm(angular0)])
    return drifts, np.abs(result.q[-1][body.modal_node.coordinate_indices]).max()


def test_a_free_undamped_body_keeps_its_momenta_to_second_order_in_the_step(beam):
    drifts, deformation = momentum_drifts(beam, 400, 0.005)
    assert np.all(drifts <= 1e-8)
    assert deformation > 1e-6   # it vibrates while it spins: the test is not trivially rigid
    coarse, _ = momentum_drifts(beam, 200, 0.005)
    assert np.all(coarse / drifts > 3.5)


def test_mesh_node_outputs_follow_the_specification_formulas(beam):
    mesh, mass, stiffness, modes = beam
    basis = modes.vectors[:, :8]
    system = ff.System()
    body = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, basis, **POSE)
    k = 13
    names = ("Position", "Displacement", "Velocity", "DisplacementLocal", "VelocityLocal", "AccelerationLocal")
    sensors = {name: system.add(ff.SensorSuperElement(body, k, name)) for name in names}
    assembled = system.assemble()
    t, q, v, a, lam = random_state(assembled, np.random.default_rng(4))
    values = assembled.sensor_values(t, q, v, a, lam)
    rigid, modal = body.rigid_node.coordinate_indices, body.modal_node.coordinate_indices
    theta = body.rigid_node.reference_coordinates[3:] + q[rigid[3:]]
    rotation = rotations.rotation_matrix(theta)
    omega_local = rotations.g_local(theta) @ v[rigid[3:]]
    rows = basis[3 * k:3 * k + 3]
    p_local = mesh.nodes[k] + rows @ q[modal]
    origin = body.rigid_node.reference_coordinates[:3] + q[rigid[:3]]
    reference = POSE["position"] + rotations.rotation_matrix(np.array(POSE["euler_parameters"])) @ mesh.nodes[k]
    expected = {"Position": origin + rotation @ p_local, "Displacement": origin + rotation @ p_local - reference,
                "Velocity": v[rigid[:3]] + rotation @ (rows @ v[modal] + np.cross(omega_local, p_local)),
                "DisplacementLocal": rows @ q[modal], "VelocityLocal": rows @ v[modal],
                "AccelerationLocal": rows @ a[modal]}
    for name in names:
        assert values[sensors[name]] == pytest.approx(expected[name], rel=1e-12, abs=1e-14)


def test_mass_inertia_and_centre_of_mass_are_those_of_the_mesh(beam):
    mesh, mass, stiffness, modes = beam
    invariants = ReducedOrderInvariants.from_fe_matrices(mass, stiffness, modes.vectors[:, :4], mesh.nodes)
    lx, ly, lz, density = 0.4, 0.1, 0.1, 7850.0
    m = density * lx * ly * lz
    centre = np.array([lx, ly, lz]) / 2
    assert invariants.mass == pytest.approx(m, rel=1e-12)
    assert invariants.center_of_mass == pytest.approx(centre, rel=1e-12)
    about_centre = m / 12 * np.diag([ly ** 2 + lz ** 2, lx ** 2 + lz ** 2, lx ** 2 + ly ** 2])
    assert invariants.inertia == pytest.approx(about_centre + m * (centre @ centre * np.eye(3) - np.outer(centre, centre)),
                                               rel=1e-10, abs=1e-12 * m)
    assert invariants.mass_reduced == pytest.approx(np.eye(4), abs=1e-12)              # mass-normalised modes
    assert np.diag(invariants.stiffness_reduced) == pytest.approx(modes.eigenvalues[:4], rel=1e-10)


@pytest.mark.parametrize("basis, fault", [
    (lambda b: b[:-1], "59 rows, not 3 per mesh node"),
    (lambda b: b[:-3], "reference_positions must be 57 finite values"),
    (lambda b: np.where(np.arange(b.shape[1]) == 2, np.nan, b), "NaN"),
    (lambda b: np.column_stack([b[:, :3], b[:, :1] + b[:, 1:2]]), "rank-deficient"),
    (lambda b: np.column_stack([b[:, :3], np.tile([1.0, 0.0, 0.0], b.shape[0] // 3)]), "rigid-body motion"),
    (lambda b: np.zeros((b.shape[0], 0)), "at least one mode"),
])
def test_a_bad_mode_basis_is_refused_with_its_fault(beam, basis, fault):
    mesh, mass, stiffness, modes = beam
    with pytest.raises(ModelError, match=fault):
        add_reduced_ffrf_body(ff.System(), mesh.nodes, mass, stiffness, basis(modes.vectors[:, :4]), name="rotor")


def test_an_unknown_form_of_the_modal_products_is_refused(beam):
    mesh, mass, stiffness, modes = beam
    with pytest.raises(ModelError, match="modal_products must be 'auto', 'scalar' or 'matrix', got 'dense'"):
        add_reduced_ffrf_body(ff.System(), mesh.nodes, mass, stiffness, modes.vectors[:, :4], modal_products="dense")


def test_wrong_nodes_and_mesh_nodes_out_of_range_are_refused(beam):
    mesh, mass, stiffness, modes = beam
    invariants = ReducedOrderInvariants.from_fe_matrices(mass, stiffness, modes.vectors[:, :4], mesh.nodes)
    system = ff.System()
    frame = system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0]))
    point = system.add(ff.NodePoint([0, 0, 0]))
    system.add(ObjectFFRFReducedOrder([frame, point], invariants))
    with pytest.raises(ModelError, match="must be a NodeGenericODE2"):
        system.assemble()
    system = ff.System()
    frame = system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0]))
    modal = system.add(ff.NodeGenericODE2(np.zeros(5)))
    system.add(ObjectFFRFReducedOrder([frame, modal], invariants))
    with pytest.raises(ModelError, match="has 5 coordinates, but the mode basis has 4 modes"):
        system.assemble()
    system = ff.System()
    body = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes.vectors[:, :4])
    system.add(ff.SensorSuperElement(body, 20, "Position"))
    with pytest.raises(ModelError, match="mesh node 20 is out of range"):
        system.assemble()


def rigid_marker_values(system, body, nodes, state):
    marker = system.add(ff.MarkerSuperElementRigid(body, nodes, np.full(len(nodes), 1.0 / len(nodes)),
                                                   offset=(0.0, 0.01, 0.0)))
    assembled = system.assemble()
    marker_item = system.markers[marker]
    function = assembled.output_function(
        lambda ctx: ca.vertcat(marker_item.position(ctx), ca.vec(marker_item.rotation_matrix(ctx)),
                               marker_item.angular_velocity(ctx), marker_item.relative_rotation(ctx)), "marker")
    return np.asarray(function(*state)).reshape(-1), assembled


def test_super_element_rigid_marker_sees_an_imposed_small_rotation_of_its_nodes(beam):
    """u_k = phi x p_k + c on the tip face of the full body: the marker's relative rotation is phi exactly
    (the definition is linear in u), its orientation A exp(phi~), its position moves by c."""
    mesh, mass, stiffness, _ = beam
    system = ff.System()
    body = add_ffrf_body(system, mesh.nodes, mass, stiffness, **POSE)
    add_tisserand_frame(system, body)
    tip = np.flatnonzero(mesh.nodes[:, 0] > 0.4 - 1e-9)
    system.add(ff.SensorSuperElement(body, 0, "Position"))
    phi, shift = np.array([2e-3, -1e-3, 3e-3]), np.array([1e-3, 2e-3, -1e-3])
    probe = system.assemble()
    q = np.zeros(probe.n_coordinates)
    levers = mesh.nodes[tip] - mesh.nodes[tip].mean(axis=0)
    for k, lever in zip(tip, levers):
        q[system.nodes[body.node_numbers[1 + k]].coordinate_indices] = np.cross(phi, lever) + shift
    values, assembled = rigid_marker_values(system, body, tip, (0.0, q, np.zeros_like(q), np.zeros_like(q),
                                                                np.zeros(probe.n_multipliers)))
    rotation = rotations.rotation_matrix(np.array(POSE["euler_parameters"]))
    centre = mesh.nodes[tip].mean(axis=0) + shift + [0.0, 0.01, 0.0]
    assert values[:3] == pytest.approx(np.array(POSE["position"]) + rotation @ centre, rel=1e-13)
    assert values[15:18] == pytest.approx(phi, rel=1e-12)
    expected = rotation @ rotations.rotation_matrix_from_rotation_vector(phi)
    assert values[3:12].reshape(3, 3).T == pytest.approx(expected, rel=1e-13, abs=1e-15)


def test_super_element_rigid_marker_of_a_reduced_body_equals_that_of_the_full_body(beam):
    """With a complete basis and the lifted state: the same position, orientation and angular velocity
    (the reduced marker sums its weighted rows of Psi once)."""
    full_system, full, reduced_system, reduced, basis = full_and_reduced(beam)
    tip = np.flatnonzero(beam[0].nodes[:, 0] > 0.4 - 1e-9)
    probe = reduced_system.assemble()
    t, q, v, a, lam = random_state(probe, np.random.default_rng(8), scale=1e-3)
    full_probe = full_system.assemble()
    values_reduced, _ = rigid_marker_values(reduced_system, reduced, tip, (t, q, v, a, np.zeros_like(lam)))
    values_full, _ = rigid_marker_values(full_system, full, tip, (t, lift(basis, q), lift(basis, v), lift(basis, a),
                                                                  np.zeros(full_probe.n_multipliers)))
    assert np.abs(values_reduced - values_full).max() <= 1e-12 * np.abs(values_full).max()


def test_super_element_rigid_marker_on_collinear_nodes_is_refused(beam):
    mesh, mass, stiffness, modes = beam
    system = ff.System()
    body = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes.vectors[:, :4])
    line = np.flatnonzero((mesh.nodes[:, 1] < 1e-9) & (mesh.nodes[:, 2] < 1e-9))      # nodes on the x axis
    system.add(ff.MarkerSuperElementRigid(body, line, np.full(line.size, 1.0 / line.size)))
    with pytest.raises(ModelError, match="MarkerSuperElementRigid.*lie on a line"):
        system.assemble()


def test_a_mass_matrix_whose_node_blocks_are_not_multiples_of_the_identity_is_warned_about(beam):
    """The velocity terms from the invariants assume M_ij = m_ij I_3 (Exudyn's formulas do too)."""
    mesh, mass, stiffness, modes = beam
    coupled = mass.tolil()
    coupled[0, 1] = coupled[1, 0] = 0.1 * mass[0, 0]
    deviation = 0.1 * mass[0, 0] / abs(mass).max()
    with pytest.warns(UserWarning, match=r"node blocks of the mass matrix are not multiples of the identity "
                                         rf"\(deviation {deviation:.2e} of max \|M\|\)"):
        ReducedOrderInvariants.from_fe_matrices(coupled.tocsr(), stiffness, modes.vectors[:, :4], mesh.nodes)


def test_fe_matrices_of_the_wrong_size_are_refused(beam):
    mesh, mass, stiffness, modes = beam
    with pytest.raises(ModelError, match=r"stiffness_matrix_ff has shape \(57, 57\), expected \(60, 60\)"):
        ReducedOrderInvariants.from_fe_matrices(mass, stiffness[:57, :57], modes.vectors[:, :4], mesh.nodes)
