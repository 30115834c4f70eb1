"""Claims about saved runs (export.save_result / load_result) and the stress in the VTU export: the file
holds the simulated mesh motion, sensors and the recovered stresses of full and reduced bodies, and says
clearly when it is not a run."""
import meshio
import numpy as np
import pytest

import floatframe as ff
from floatframe.components.reference_conditions import add_tisserand_frame
from floatframe.export import load_result, mesh_from_cells, mesh_node_trajectories, save_result, write_paraview
from floatframe.fem import block_mesh, eigenmodes, linear_elastic_matrices
from floatframe.fem.stress import nodal_stresses, von_mises
from model_helpers import small_beam

MATERIAL = dict(youngs_modulus=2.1e8, poissons_ratio=0.3)   # small_beam's steel with its stiffness scale 1e-3


@pytest.fixture(scope="module")
def spinning_beam(tmp_path_factory):
    """A beam spinning at 50 rad/s about z from a tilted pose, 12 steps; saved with stresses."""
    system = ff.System()
    body, mesh = small_beam(system, angular_velocity=(0.0, 0.0, 50.0),
                            euler_parameters=(np.cos(0.3), np.sin(0.3), 0.0, 0.0))
    add_tisserand_frame(system, body)
    system.add(ff.SensorSuperElement(body, 7, "Displacement"))
    system.add(ff.SensorSuperElement(body, 19, "Position"))
    assembled = system.assemble()
    result = ff.GeneralizedAlpha(0.8).solve(assembled, 0.012, 12)
    cells = {"hexahedron": mesh.elements["Hex8"]}
    path = save_result(tmp_path_factory.mktemp("run") / "beam", assembled, body, cells, result, MATERIAL, "beam")
    return dict(path=path, assembled=assembled, body=body, mesh=mesh, result=result, cells=cells)


def test_saved_run_holds_the_simulated_mesh_motion_and_sensors(spinning_beam):
    path, result = spinning_beam["path"], spinning_beam["result"]
    assert path.name == "beam.npz" and path.stat().st_size > 0
    saved = load_result(path)
    trajectories = mesh_node_trajectories(spinning_beam["assembled"], spinning_beam["body"], result)
    np.testing.assert_allclose(saved.positions(), trajectories["Position"], rtol=0, atol=1e-14)
    np.testing.assert_allclose(saved.displacement, trajectories["Displacement"], rtol=0, atol=1e-14)
    assert saved.t.shape == (13,) and saved.model == "beam"
    assert np.abs(saved.deformation).max() > 1e-4                       # the spin deforms the beam
    for number in range(2):
        np.testing.assert_array_equal(saved.sensor(number), result.sensor(number))
    assert saved.sensor_variables == ["Displacement", "Position"]
    np.testing.assert_array_equal(saved.cells["hexahedron"], spinning_beam["mesh"].elements["Hex8"])


def test_the_deformation_scale_magnifies_only_the_elastic_part(spinning_beam):
    saved = load_result(spinning_beam["path"])
    step, scale = 12, 30.0
    frame = saved.frame_rotation[step]
    expected = saved.positions()[step] + (scale - 1.0) * saved.deformation[step] @ frame.T
    np.testing.assert_allclose(saved.positions(scale)[step], expected, atol=1e-13)
    np.testing.assert_array_equal(saved.positions(scale, [0, step]), saved.positions(scale)[[0, step]])
    np.testing.assert_allclose(frame @ frame.T, np.eye(3), atol=1e-12)


def test_saved_stress_is_the_recovery_of_the_body_fixed_deformation(spinning_beam):
    saved = load_result(spinning_beam["path"])
    mesh = block_mesh(0.4, 0.1, 0.1, 4, 1, 1)
    expected = nodal_stresses(mesh, saved.deformation, **MATERIAL)
    np.testing.assert_allclose(saved.stress, expected, rtol=1e-12, atol=1e-9)
    assert von_mises(saved.stress[-1]).max() > 1e4


def test_paraview_export_with_a_material_writes_stress_and_von_mises(spinning_beam, tmp_path):
    run = spinning_beam
    write_paraview(tmp_path / "beam", run["assembled"], run["body"], run["cells"], run["result"], material=MATERIAL)
    last = meshio.read(tmp_path / "beam_0012.vtu")
    saved = load_result(run["path"])
    np.testing.assert_allclose(last.point_data["stress"], saved.stress[12], rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(last.point_data["von_mises"], von_mises(saved.stress[12]), rtol=1e-12)


def test_a_reduced_body_saves_its_stress_from_post_processing_modes(tmp_path):
    mesh = block_mesh(0.4, 0.1, 0.1, 4, 1, 1, element="Tet4")
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=2.1e8, poissons_ratio=0.3, density=7850.0)
    modes = eigenmodes(mass, stiffness, 6)
    system = ff.System()
    body = ff.add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes, angular_velocity=(0.0, 0.0, 50.0))
    assembled = system.assemble()
    result = ff.GeneralizedAlpha(0.8).solve(assembled, 0.01, 5)
    path = save_result(tmp_path / "reduced.npz", assembled, body, {"tetra": mesh.elements["Tet4"]}, result, MATERIAL)
    saved = load_result(path)
    np.testing.assert_allclose(saved.modal_coordinates, result.q[:, 7:], rtol=0, atol=1e-15)
    np.testing.assert_allclose(saved.deformation, (result.q[:, 7:] @ modes.vectors.T).reshape(6, -1, 3), atol=1e-15)
    full = nodal_stresses(mesh, saved.deformation, **MATERIAL)
    assert np.abs(full).max() > 1e3
    np.testing.assert_allclose(saved.stress, full, rtol=1e-10, atol=1e-9 * np.abs(full).max())


def test_loading_something_else_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="floatframe run MODEL --save"):
        load_result(tmp_path / "missing.npz")
    np.savez(tmp_path / "other.npz", t=np.arange(3.0))
    with pytest.raises(ValueError, match="not a floatframe result file"):
        load_result(tmp_path / "other.npz")
    (tmp_path / "text.npz").write_text("hello")
    with pytest.raises(ValueError, match="not a floatframe result file"):
        load_result(tmp_path / "text.npz")


def test_unknown_sensor_names_the_sensors_there_are(spinning_beam):
    with pytest.raises(ValueError, match="no sensor 5; the run has 2 sensors: 0 'SensorSuperElement'"):
        load_result(spinning_beam["path"]).sensor(5)


def test_cells_without_stress_recovery_are_named():
    with pytest.raises(ValueError, match=r"\['wedge'\]"):
        mesh_from_cells(np.zeros((6, 3)), {"wedge": np.arange(6)[None]})
