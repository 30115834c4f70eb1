"""Claims about the bracket (floatframe.models.bracket), on the coarse mesh (Netgen size 0.01 m, 2322 Tet10 nodes):
its bolt-hole node sets are Netgen's named hole surfaces, its Craig-Bampton frequencies approach the full FE
model's from above, its static deflection under gravity is the full model's, its swing holds the joints, keeps its
energy and follows the rigid bracket, and the commands run it, save it and animate it."""
import imageio.v3 as iio
import numpy as np
import pytest
import scipy.linalg

pytest.importorskip("netgen.csg")

from floatframe.cli import main  # noqa: E402
from floatframe.export import load_result, save_result  # noqa: E402
from floatframe.fem import boundary_node_sets  # noqa: E402
from floatframe.models.bracket import (HOLE_NAMES, BracketGeometry, build, clamped_frequencies,  # noqa: E402
                                       clamped_static_deflection, mesh_bracket)
from floatframe.models.energy import mechanical_energy  # noqa: E402
from floatframe.solvers import GeneralizedAlpha  # noqa: E402

COARSE = 0.01


@pytest.fixture(scope="module")
def bracket():
    return build(mesh_size=COARSE)


def test_the_hole_nodes_are_netgens_named_hole_surfaces():
    """Nodes on the cylinders of the holes (Mesh.nodes_on_cylinder) are exactly the nodes of Netgen's boundaries
    "hole A" and "hole B", mid-edge nodes included. Netgen gave the same mesh on every run here (2322 nodes, 1032
    Tet10); the counts are asserted within 10 % in case another Netgen version meshes a little differently."""
    geometry = BracketGeometry()
    meshed = mesh_bracket(COARSE, geometry=geometry)
    assert 2100 <= meshed.mesh.n_nodes <= 2550 and 930 <= len(meshed.mesh.elements["Tet10"]) <= 1140
    named = boundary_node_sets(meshed.netgen_mesh, HOLE_NAMES)
    for nodes, name, centre in zip(meshed.holes, HOLE_NAMES, geometry.hole_centres):
        np.testing.assert_array_equal(nodes, named[name])
        assert nodes.size >= 40
        radial = np.linalg.norm(meshed.mesh.nodes[nodes, :2] - centre[:2], axis=1)
        np.testing.assert_allclose(radial, geometry.hole_radius, atol=1e-9)
        depth = meshed.mesh.nodes[nodes, 2]
        assert depth.min() == pytest.approx(0.0, abs=1e-12) and depth.max() == pytest.approx(geometry.thickness)
    again = mesh_bracket(COARSE, geometry=geometry)
    assert again.mesh.n_nodes == meshed.mesh.n_nodes


def test_the_bracket_pivots_on_hole_a_and_its_modes_vanish_there(bracket):
    """Hole A is the excluded first interface: every column of the basis is zero on its nodes, so the frame is the
    hole's; the pivot (the hole nodes' mean) lies within 2e-5 m of the hole's axis at mid-thickness (measured
    8.0e-6 m off the axis, 1.0e-5 m below mid-thickness: the nodes of the hole are not quite symmetric, and the
    weights are equal)."""
    rows = (3 * bracket.holes[0][:, None] + np.arange(3)).reshape(-1)
    assert np.abs(bracket.modes.vectors[rows]).max() == 0.0
    assert bracket.modes.n_static == 6 and bracket.modes.n_modes == 6 + 8
    np.testing.assert_allclose(bracket.pivot, [0.0, 0.0, 0.5 * BracketGeometry().thickness], atol=2e-5)
    assert bracket.bracket_mass == pytest.approx(2700.0 * 0.005 * (0.15 * 0.03 + 0.08 * 0.03 - 2 * np.pi * 0.005 ** 2),
                                                 rel=1e-3)


def test_craig_bampton_frequencies_approach_the_full_models_from_above(bracket):
    """Clamped at hole A, the reduced body's frequencies (eigenvalues of K_red, M_red) are upper bounds of the full
    FE model's (Rayleigh-Ritz), fall as fixed-interface modes are added, and with 8 modes are within 0.1 % for
    the lowest four (measured 2.9e-5, 2.9e-4, 7.4e-4, 8.7e-4; the rest is hole B made rigid by RBE2)."""
    full = clamped_frequencies(bracket.mass_matrix, bracket.stiffness_matrix, bracket.holes[0], 4)
    assert full[0] == pytest.approx(130.97, rel=1e-3)
    previous = np.full(4, np.inf)
    for n_eigenmodes in (0, 4, 8, 16):
        model = bracket if n_eigenmodes == 8 else build(mesh_size=COARSE, n_eigenmodes=n_eigenmodes)
        invariants = model.body.invariants
        reduced = np.sqrt(scipy.linalg.eigh(invariants.stiffness_reduced, invariants.mass_reduced,
                                            eigvals_only=True)[:4]) / (2 * np.pi)
        assert np.all(reduced >= full * (1 - 1e-10))
        assert np.all(reduced <= previous * (1 + 1e-10))
        previous = reduced
        if n_eigenmodes == 8:
            assert np.all(reduced / full - 1 < 1e-3)
    assert previous[0] / full[0] - 1 < 5e-5


def test_the_static_deflection_under_gravity_is_the_full_models():
    """Hanging at rest (static solver, started from the rigid bracket's hanging angle): the deflection of the
    reduced bracket against the full FE model under the same loads (its weight and the bolted weight, in the body
    frame), clamped at hole A. With hole B rigid in the full model too, hole B's motion is the same to 1e-9: a
    Craig-Bampton basis condenses interface loads exactly, whatever the number of eigenmodes. The deflection of the
    whole bracket needs the fixed-interface modes for the bracket's own weight: its largest error is 1.3e-3 of the
    largest deflection with no eigenmodes and 5.6e-5 with 16. Against the full model with a deformable hole B,
    the reduced bracket's bolt deflects 0.30 % less (its RBE2 hole is rigid, as a bolt makes it); the bolt's
    deflection is about 3 micrometres."""
    for n_eigenmodes, field_error in ((0, (5e-4, 3e-3)), (16, (0.0, 2e-4))):
        model = build(mesh_size=COARSE, n_eigenmodes=n_eigenmodes)
        model = build(mesh_size=COARSE, n_eigenmodes=n_eigenmodes, angle=model.hanging_angle())
        angle, deflection, load = model.static_equilibrium()
        assert angle == pytest.approx(model.angle, abs=1e-4)
        hole_a, hole_b = model.holes
        rigid_bolt = clamped_static_deflection(model.stiffness_matrix, hole_a, load, hole_b, model.mesh.nodes)
        deformable = clamped_static_deflection(model.stiffness_matrix, hole_a, load)
        error = np.linalg.norm(deflection - rigid_bolt, axis=1).max() / np.linalg.norm(rigid_bolt, axis=1).max()
        assert field_error[0] < error < field_error[1]
        bolt, reference = deflection[hole_b].mean(axis=0), deformable[hole_b].mean(axis=0)
        assert 2e-6 < np.linalg.norm(reference) < 5e-6
        np.testing.assert_allclose(bolt, rigid_bolt[hole_b].mean(axis=0), rtol=0, atol=1e-9 * np.linalg.norm(bolt))
        assert 1e-3 < np.linalg.norm(bolt - reference) / np.linalg.norm(reference) < 1e-2


def swing(model, h, steps, spectral_radius):
    assembled = model.system.assemble()
    result = GeneralizedAlpha(spectral_radius, relative_tolerance=1e-12, absolute_tolerance=1e-12).solve(
        assembled, steps * h, steps)
    return assembled, result


def test_the_swing_holds_its_joints_and_follows_the_rigid_bracket(bracket, tmp_path):
    """Released from the horizontal for 0.3 s with the model's numerical damping: the mean of hole A's nodes stays
    at the pivot and the weight at the mean of hole B's nodes, to round-off (from the saved mesh motion, not from
    the joints' own outputs); the weight stays within 2e-5 m of the rigid bracket's (measured 8.8e-6 m) after
    swinging through 0.2 m, and the bracket deflects by micrometres."""
    assembled, result = swing(bracket, bracket.h, 300, bracket.spectral_radius)
    saved = load_result(save_result(tmp_path / "swing.npz", assembled, bracket.body, bracket.cells, result,
                                    bracket.stress_material, "bracket"))
    positions = saved.reference_positions[None] + saved.displacement
    np.testing.assert_allclose(positions[:, bracket.holes[0]].mean(axis=1), np.tile(bracket.pivot, (301, 1)),
                               rtol=0, atol=1e-14)
    weight = result.sensor(bracket.tip_sensor)
    np.testing.assert_allclose(positions[:, bracket.holes[1]].mean(axis=1), weight, rtol=0, atol=1e-13)
    rigid = bracket.rigid_tip(result)
    assert np.linalg.norm(weight - weight[0], axis=1).max() > 0.2
    assert np.linalg.norm(weight - rigid, axis=1).max() < 2e-5
    assert 2e-6 < np.linalg.norm(saved.deformation, axis=-1).max() < 2e-5
    assert np.abs(saved.stress).max() > 1e5


def test_without_numerical_damping_the_energy_error_is_second_order_in_the_step(bracket):
    """Spectral radius 1, 0.3 s: the total energy changes by at most 1e-4 of the kinetic energy (measured 4e-5
    at h = 1e-3 s), 3 to 5 times less at half the step."""
    errors = []
    for h, steps in ((1e-3, 300), (5e-4, 600)):
        assembled, result = swing(bracket, h, steps, 1.0)
        energies = [mechanical_energy(assembled, t, q, v, bracket.gravity)
                    for t, q, v in zip(result.t, result.q, result.v)]
        total = np.array([energy.total for energy in energies])
        kinetic = max(energy.kinetic for energy in energies)
        assert kinetic > 0.3
        errors.append(np.abs(total - total[0]).max() / kinetic)
    assert errors[0] < 1e-4 and 3.0 < errors[0] / errors[1] < 5.0


def test_a_stiff_bracket_swings_as_the_rigid_one_to_second_order_in_the_step():
    """Spectral radius 1, 0.3 s: with a 100 times stiffer bracket the weight's largest distance from the rigid
    bracket's falls 4-fold per halved step (measured 3.9e-6 m and 1.0e-6 m), so the rigid reference
    (Bracket.rigid_swing, an ODE of the rigid body) is the limit; the aluminium bracket stays further away
    (9.0e-6 m and 6.5e-6 m): its flexibility."""
    from floatframe.models.flexible_link import ALUMINIUM

    distances = {}
    for scale in (1.0, 100.0):
        model = build(mesh_size=COARSE, material=dict(ALUMINIUM, youngs_modulus=scale * ALUMINIUM["youngs_modulus"]))
        for h, steps in ((1e-3, 300), (5e-4, 600)):
            _, result = swing(model, h, steps, 1.0)
            distances[scale, h] = np.linalg.norm(result.sensor(model.tip_sensor) - model.rigid_tip(result),
                                                 axis=1).max()
    assert 3.0 < distances[100.0, 1e-3] / distances[100.0, 5e-4] < 5.0
    assert distances[100.0, 5e-4] < 2e-6
    assert distances[1.0, 5e-4] > 4 * distances[100.0, 5e-4]


@pytest.mark.slow
def test_the_reduced_bracket_swings_as_the_full_fe_bracket():
    """0.1 s from the horizontal (spectral radius 0.8), the weight of the reduced bracket against that of the full
    FE bracket (6966 mesh coordinates, Tisserand frame; about 35 s with modified Newton, 3.5 min with full
    Newton at tolerance 1e-12), whose hinge and bolt markers average the hole
    nodes. With RBE3 interfaces, which average the holes in the same way, the reduced bracket is the full one to
    1e-3 of the flexible part (the weight's distance from the rigid bracket's, 2.7e-6 m; measured 9.2e-10 m, also
    with 32 modes: the reduction is not what is left). With RBE2 the holes are rigid and the flexible part is 7 %
    larger (measured 1.8e-7 m)."""
    def weight_and_rigid(**options):
        model = build(mesh_size=COARSE, **options)
        result = GeneralizedAlpha(model.spectral_radius, modified_newton=True).solve(model.system.assemble(), 0.1,
                                                                                      100)
        return result.sensor(model.tip_sensor), model.rigid_tip(result)

    full, rigid = weight_and_rigid(n_eigenmodes=None)
    flexible_part = np.linalg.norm(full - rigid, axis=1).max()
    assert 2e-6 < flexible_part < 4e-6
    rbe3, _ = weight_and_rigid(variant="RBE3")
    assert np.linalg.norm(rbe3 - full, axis=1).max() < 1e-3 * flexible_part
    rbe2, _ = weight_and_rigid(variant="RBE2")
    assert 0.03 * flexible_part < np.linalg.norm(rbe2 - full, axis=1).max() < 0.1 * flexible_part


def test_rbe3_modes_keep_the_mean_motion_of_hole_a_at_zero():
    """With RBE3 interfaces hole A's weighted mean displacement and mean rotation vanish for every mode (to 1e-12 of
    the modes' largest entry), so that the hinge's marker on hole A moves with the frame; the modes themselves do
    not vanish there."""
    model = build(mesh_size=COARSE, variant="RBE3")
    hole = model.holes[0]
    shapes = model.modes.vectors.reshape(-1, 3, model.modes.n_modes)[hole]           # (nodes, 3, modes)
    lever = model.mesh.nodes[hole] - model.mesh.nodes[hole].mean(axis=0)
    largest = np.abs(model.modes.vectors).max()
    assert np.abs(shapes.mean(axis=0)).max() < 1e-12 * largest
    assert np.abs(np.cross(lever[:, :, None], shapes, axis=1).mean(axis=0)).max() < 1e-12 * largest
    assert np.abs(shapes).max() > 1e-3 * largest


def test_run_save_and_animate_the_bracket(tmp_path, capsys):
    run = tmp_path / "bracket.npz"
    assert main(["run", "bracket", "--mesh-size", str(COARSE), "--steps", "20", "--output", str(tmp_path),
                 "--save", str(run)]) == 0
    printed = capsys.readouterr().out
    assert "2322 nodes, 1032 Tet10; 130 and 130 nodes on the surfaces of holes A and B" in printed
    assert "6 static modes of hole B and 8 fixed-interface eigenmodes" in printed
    assert "20 steps of 0.001 s" in printed and "every 10th step stored" in printed
    saved = load_result(run)
    assert saved.model == "bracket" and saved.t.shape == (3,) and saved.modal_coordinates.shape == (3, 14)
    tip = np.loadtxt(tmp_path / "bracket_tip.csv", delimiter=",", skiprows=1)
    np.testing.assert_allclose(tip[:, 1:], saved.sensor(0), rtol=1e-15)
    assert (tmp_path / "bracket.png").stat().st_size > 10_000
    gif = tmp_path / "bracket.gif"
    assert main(["animate", str(run), "--output", str(gif), "--max-frames", "3", "--elevation", "90",
                 "--azimuth", "-90"]) == 0
    frames = iio.imread(gif, index=None)
    assert frames.shape == (3, 480, 640, 3) and np.abs(frames[0].astype(int) - frames[-1]).max() > 0


@pytest.mark.parametrize("argv, message", [
    (["run", "bracket", "--stiffness-scale", "2"], "not options of the bracket"),
    (["run", "bracket", "--full", "--modes", "4"], "exclude each other"),
    (["run", "rotor-disc", "--mesh-size", "0.01"], "--mesh-size and --variant are for the bracket"),
    (["run", "slider-crank", "--variant", "RBE3"], "--mesh-size and --variant are for the bracket"),
])
def test_options_of_other_models_are_refused(argv, message):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert message in str(exit_info.value.code)


@pytest.mark.parametrize("call, message", [
    (lambda: BracketGeometry(hole_radius=0.015), "below half the width"),
    (lambda: BracketGeometry(thickness=-0.005), "thickness must be a positive length"),
    (lambda: BracketGeometry(drop=0.02), "must exceed the width"),
    (lambda: mesh_bracket(0.0), "mesh_size must be a positive length"),
    (lambda: mesh_bracket(0.05), "coarser than the arm width"),
    (lambda: mesh_bracket(COARSE, order=3), "order must be 1 (Tet4) or 2 (Tet10)"),
    (lambda: mesh_bracket(COARSE, tolerance=-1.0), "0 nodes found on the cylinder of hole A"),
    (lambda: clamped_static_deflection(np.eye(6), [0], np.zeros((2, 3)), [1]), "need the node_positions"),
    (lambda: clamped_static_deflection(np.eye(6), [0], np.zeros((2, 3)), [0, 1], np.zeros((2, 3))),
     "must be disjoint"),
    (lambda: build(mesh_size=COARSE, n_eigenmodes=-1), "n_eigenmodes must be an integer >= 0 or None"),
    (lambda: build(mesh_size=COARSE, variant="coordinates"), "variant must be 'RBE2' or 'RBE3'"),
    (lambda: build(mesh_size=COARSE, variant="RBE3").static_equilibrium(), "variant 'RBE2'"),
    (lambda: build(mesh_size=COARSE, weight=-1.0), "weight must be a mass >= 0"),
])
def test_bad_input_is_refused_with_a_message(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()
