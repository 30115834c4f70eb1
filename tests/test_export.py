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
