"""IDAS and generalized-alpha agree on the rotor-disc model (Tisserand frame) over 1 ms."""
import numpy as np
import pytest

from floatframe.fem import read_abaqus_inp, read_abaqus_mtx
from floatframe.models.rotor_disc import build_rotor_disc
from floatframe.solvers.genalpha import GeneralizedAlpha
from floatframe.solvers.idas import IDAS


@pytest.mark.slow
def test_idas_and_genalpha_agree_on_rotor_disc(shared_data):
    """Sensor (axis node at the disc) to a relative 1e-5: IDAS rtol 1e-10, genalpha h = 5e-7 (error ~ 3 h^2/T^2)."""
    folder = shared_data / "rotorDisc"
    mesh = read_abaqus_inp(folder / "rotorDiscTest.inp", instance="rotor-1")
    rotor = build_rotor_disc("tisserand", mesh.nodes, read_abaqus_mtx(folder / "rotorDiscTestMASS1.mtx"),
                             read_abaqus_mtx(folder / "rotorDiscTestSTIF1.mtx"), unbalance_node=9)
    system = rotor.system.assemble()
    grid = np.linspace(0.0, 1e-3, 11)
    idas = IDAS(rtol=1e-10, atol=1e-13, drift="projection").solve(system, grid).sensor(rotor.sensor)
    genalpha = GeneralizedAlpha(0.5, modified_newton=True).solve_grid(system, grid, h=5e-7).sensor(rotor.sensor)
    scale = np.abs(idas).max()
    assert scale > 1e-5                                           # the disc does move
    assert np.abs(idas - genalpha).max() / scale < 1e-5
