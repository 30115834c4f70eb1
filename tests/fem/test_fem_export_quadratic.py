"""The ParaView export of a body meshed with quadratic elements."""
import meshio
import numpy as np
import pytest

import floatframe as ff
from floatframe.components.ffrf_reduced import add_reduced_ffrf_body
from floatframe.export import write_paraview
from floatframe.fem import block_mesh, eigenmodes, linear_elastic_matrices


@pytest.mark.parametrize("element, cell_type", [("Tet10", "tetra10"), ("Hex20", "hexahedron20")])
def test_quadratic_body_is_written_with_quadratic_cells(tmp_path, element, cell_type):
    """A spinning reduced-order Tet10 or Hex20 body: the VTU files hold tetra10 / hexahedron20 cells in
    the mesh's connectivity and every node, corner or mid-edge, at its simulated position."""
    mesh = block_mesh(0.4, 0.1, 0.1, 2, 1, 1, element=element)
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=2.1e8, poissons_ratio=0.3, density=7850.0)
    system = ff.System()
    body = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, eigenmodes(mass, stiffness, 4),
                                 angular_velocity=(0.0, 0.0, 50.0))
    corner, middle = mesh.node_at_point((0.4, 0.1, 0.1)), mesh.node_at_point((0.4, 0.1, 0.05))
    sensors = [system.add(ff.SensorSuperElement(body, node, "Position")) for node in (corner, middle)]
    assembled = system.assemble()
    result = ff.GeneralizedAlpha(0.8).solve(assembled, 0.01, 3)
    write_paraview(tmp_path / "body", assembled, body, mesh.to_meshio().cells_dict, result)
    last = meshio.read(tmp_path / "body_0003.vtu")
    np.testing.assert_array_equal(last.cells_dict[cell_type], mesh.elements[element])
    for node, sensor in zip((corner, middle), sensors):
        assert last.points[node] == pytest.approx(result.sensor(sensor)[-1], rel=1e-12)
    assert np.linalg.norm(last.points[corner] - mesh.nodes[corner]) > 1e-3   # it turned (50 rad/s for 0.03 s)
