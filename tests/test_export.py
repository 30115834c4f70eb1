"""Claims about the ParaView export: the files hold the mesh at its simulated global positions."""
import meshio
import numpy as np
import pytest

import floatframe as ff
from floatframe.components.ffrf import add_tisserand_frame
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
