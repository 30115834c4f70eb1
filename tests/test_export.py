"""Claims about the ParaView export: the files hold the mesh at its simulated global positions."""
import meshio
import numpy as np
import pytest

import floatframe as ff
from floatframe.components.reference_conditions import add_tisserand_frame
from floatframe import rotations
from floatframe.export import write_paraview
from model_helpers import small_beam


def test_paraview_series_holds_positions_and_displacements_of_every_step(tmp_path):
    system = ff.System()
    body, mesh = small_beam(system, angular_velocity=(0.0, 0.0, 5.0), velocity=(1.0, 0.0, 0.0))
    add_tisserand_frame(system, body)
    sensor = system.add(ff.SensorSuperElement(body, 7, "Position"))
    assembled = system.assemble()
    result = ff.GeneralizedAlpha(0.8).solve(assembled, 0.01, 4)
    collection = write_paraview(tmp_path / "beam", assembled, body, {"hexahedron": mesh.elements["Hex8"]}, result)
    assert collection.read_text().count("<DataSet") == len(result.t) == 5
    last = meshio.read(tmp_path / "beam_0004.vtu")
    assert last.points[7] == pytest.approx(result.sensor(sensor)[-1], rel=1e-12)
    assert last.point_data["displacement"] == pytest.approx(last.points - (mesh.nodes + [0.1, -0.2, 0.3]), abs=1e-12)
    assert np.linalg.norm(last.point_data["displacement"], axis=1).min() > 5e-3  # it moved by 1 m/s * 0.01 s
    assert last.cells_dict["hexahedron"].shape == (4, 8)


def test_a_reduced_order_body_is_written_as_its_full_mesh_through_the_mode_basis(tmp_path):
    from floatframe.components.ffrf_reduced import add_reduced_ffrf_body
    from floatframe.fem import block_mesh, eigenmodes, linear_elastic_matrices

    mesh = block_mesh(0.4, 0.1, 0.1, 4, 1, 1)
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=2.1e8, poissons_ratio=0.3, density=7850.0)
    modes = eigenmodes(mass, stiffness, 6)
    system = ff.System()
    body = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes, angular_velocity=(0.0, 0.0, 50.0))
    velocity = system.add(ff.SensorSuperElement(body, 19, "Velocity"))
    assembled = system.assemble()
    result = ff.GeneralizedAlpha(0.8).solve(assembled, 0.01, 4)
    write_paraview(tmp_path / "reduced", assembled, body, {"hexahedron": mesh.elements["Hex8"]}, result)
    last = meshio.read(tmp_path / "reduced_0004.vtu")
    q = result.q[-1]
    theta = q[3:7] + [1.0, 0.0, 0.0, 0.0]
    local = mesh.nodes + (modes.vectors @ q[7:]).reshape(-1, 3)               # x_ref + Psi zeta
    expected = q[:3] + local @ rotations.rotation_matrix(theta).T
    assert last.points == pytest.approx(expected, rel=1e-12, abs=1e-14)
    assert np.abs(modes.vectors @ q[7:]).max() > 1e-7                          # the mesh is deformed
    assert last.point_data["velocity"][19] == pytest.approx(result.sensor(velocity)[-1], rel=1e-12)


def test_the_mesh_of_a_body_is_rebuilt_node_for_node_with_coincident_nodes():
    """A body made from a mesh with an intended crack (duplicate_nodes="keep") keeps its nodes when its mesh is
    rebuilt for the output: coincident nodes are neither refused nor merged there."""
    from floatframe.export import mesh_from_cells

    nodes = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0], [1, 1, 0], [1, 0, 1]], dtype=float)
    mesh = mesh_from_cells(nodes, {"tetra": [[0, 1, 2, 3], [4, 5, 2, 6]]})
    assert mesh.n_nodes == 7 and mesh.elements["Tet4"].tolist() == [[0, 1, 2, 3], [4, 5, 2, 6]]


# --- saved runs (save_result / load_result): compact, exact, old files still read -----------------------------
def save_version1(path, assembled, body, cells, result, material, model=""):
    """A run written as floatframe wrote it up to format version 1: every array, the derived ones included."""
    from floatframe.export import frame_and_deformation, mesh_from_cells, stress_history

    reference, local = body.reference_mesh_positions(), body.reference_positions.reshape(-1, 3)
    motion = frame_and_deformation(assembled, body, result)
    positions = motion["FramePosition"][:, None, :] + np.einsum(
        "kij,knj->kni", motion["FrameRotation"], local[None] + motion["Deformation"])
    arrays = {"format": "floatframe-result", "version": 1, "model": model, "t": np.asarray(result.t),
              "reference_positions": reference, "local_positions": local, "frame_position": motion["FramePosition"],
              "frame_rotation": motion["FrameRotation"], "deformation": motion["Deformation"],
              "displacement": positions - reference[None],
              "sensor_names": np.array(result.sensor_names, dtype=str),
              "sensor_variables": np.array([s.output_variable_type for s in assembled.system.sensors], dtype=str),
              "stress": stress_history(body, mesh_from_cells(local, cells), motion, material)}
    arrays.update({f"cells_{kind}": np.asarray(block, dtype=int) for kind, block in cells.items()})
    arrays.update({f"sensor_{i}": np.asarray(values) for i, values in enumerate(result.sensors)})
    if "ModalCoordinates" in motion:
        arrays["modal_coordinates"] = motion["ModalCoordinates"]
    np.savez_compressed(path, **arrays)
    return path


@pytest.fixture(scope="module")
def slider_crank_run():
    """The ready slider-crank (reduced rod, 4 modes), 300 steps of 1 ms."""
    from floatframe.models.slider_crank import build_slider_crank

    model = build_slider_crank()
    assembled = model.system.assemble()
    result = ff.GeneralizedAlpha(model.spectral_radius).solve(assembled, 300 * model.h, 300)
    return model, assembled, result


def assert_same_run(loaded, reference):
    for name in ("t", "frame_position", "frame_rotation", "local_positions", "reference_positions"):
        np.testing.assert_array_equal(getattr(loaded, name), getattr(reference, name))
    for name in ("deformation", "displacement", "stress"):
        expected = getattr(reference, name)
        np.testing.assert_allclose(getattr(loaded, name), expected, rtol=0, atol=1e-13 * np.abs(expected).max())
    for a, b in zip(loaded.sensors, reference.sensors, strict=True):
        np.testing.assert_array_equal(a, b)
    assert loaded.sensor_names == reference.sensor_names and loaded.sensor_variables == reference.sensor_variables


def test_a_saved_mechanism_is_fifty_times_smaller_and_loads_the_same_run(slider_crank_run, tmp_path):
    """A reduced link is saved as its modal coordinates and mode basis: the loaded deformation, displacement
    and stresses equal those version 1 stored, to round-off, from a file 77 times smaller at 301 steps (the mode
    basis, mesh and cells are most of it; 141 times at the 1001 steps of 'run slider-crank')."""
    from floatframe.export import load_result, save_result

    model, assembled, result = slider_crank_run
    rod = model.rod
    old = save_version1(tmp_path / "v1.npz", assembled, rod.body, rod.cells, result, rod.stress_material)
    new = save_result(tmp_path / "v2.npz", assembled, rod.body, rod.cells, result, rod.stress_material)
    assert new.stat().st_size * 50 < old.stat().st_size
    assert new.stat().st_size < 200_000                               # bytes, 301 stored steps: 160 kB
    loaded, reference = load_result(new), load_result(old)
    assert np.abs(reference.stress).max() > 1e5                        # Pa: the rod is loaded
    assert_same_run(loaded, reference)
    np.testing.assert_array_equal(loaded.modal_coordinates, reference.modal_coordinates)


def test_a_full_body_keeps_every_digit_or_single_precision_on_request(tmp_path):
    from floatframe.export import load_result, save_result

    system = ff.System()
    body, mesh = small_beam(system, angular_velocity=(0.0, 0.0, 50.0))
    add_tisserand_frame(system, body)
    system.add(ff.SensorSuperElement(body, 7, "Position"))
    assembled = system.assemble()
    result = ff.GeneralizedAlpha(0.8).solve(assembled, 0.02, 20)
    cells, material = {"hexahedron": mesh.elements["Hex8"]}, dict(youngs_modulus=2.1e8, poissons_ratio=0.3)
    reference = load_result(save_version1(tmp_path / "v1.npz", assembled, body, cells, result, material))
    double = save_result(tmp_path / "double.npz", assembled, body, cells, result, material)
    single = save_result(tmp_path / "single.npz", assembled, body, cells, result, material, precision="single")
    assert_same_run(load_result(double), reference)
    assert single.stat().st_size < 0.75 * double.stat().st_size < 0.5 * (tmp_path / "v1.npz").stat().st_size
    loaded = load_result(single)
    assert loaded.deformation.dtype == np.float64
    scale = np.abs(reference.deformation).max()
    assert scale > 1e-5
    assert np.abs(loaded.deformation - reference.deformation).max() <= 6e-8 * scale
    assert np.abs(loaded.stress - reference.stress).max() <= 1e-6 * np.abs(reference.stress).max()
    with pytest.raises(ValueError, match="save_result: precision must be 'double' or 'single', got 'half'"):
        save_result(tmp_path / "half.npz", assembled, body, cells, result, material, precision="half")


def test_a_version_1_file_without_stress_still_loads(slider_crank_run, tmp_path):
    from floatframe.export import load_result

    model, assembled, result = slider_crank_run
    rod = model.rod
    path = save_version1(tmp_path / "v1.npz", assembled, rod.body, rod.cells, result, rod.stress_material)
    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files if name != "stress"}
    np.savez_compressed(tmp_path / "no_stress.npz", **arrays)
    loaded = load_result(tmp_path / "no_stress.npz")
    assert loaded.stress is None
    np.testing.assert_array_equal(loaded.deformation, arrays["deformation"])
    np.testing.assert_array_equal(loaded.displacement, arrays["displacement"])
