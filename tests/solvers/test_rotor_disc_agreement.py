"""IDAS and generalized-alpha agree on the rotor-disc model (Tisserand frame) over 1 ms."""
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from floatframe.models.rotor_disc import build_rotor_disc
from floatframe.solvers.genalpha import GeneralizedAlpha
from floatframe.solvers.idas import IDAS

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "rotorDisc"


def shared_mesh():
    """Nodes and FE matrices of the shared rotor-disc data (115 nodes), or None for the built-in mesh."""
    if not DATA.is_dir():
        return {}
    lines = (DATA / "rotorDiscTest.inp").read_text().splitlines()
    start = lines.index("*Node") + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("*"))
    nodes = np.array([[float(x) for x in line.split(",")[1:]] for line in lines[start:end]])

    def matrix(name):
        rows, columns, values = np.loadtxt(DATA / name, unpack=True)
        n = int(rows.max())
        return sp.csr_matrix((values, (rows.astype(int) - 1, columns.astype(int) - 1)), shape=(n, n))
    return dict(nodes=nodes, mass_matrix=matrix("rotorDiscTestMASS1.mtx"),
                stiffness_matrix=matrix("rotorDiscTestSTIF1.mtx"))


@pytest.mark.slow
def test_idas_and_genalpha_agree_on_rotor_disc():
    """Sensor (axis node at the disc) to a relative 1e-5: IDAS rtol 1e-10, genalpha h = 5e-7 (error ~ 3 h^2/T^2)."""
    rotor = build_rotor_disc("tisserand", **shared_mesh())
    system = rotor.system.assemble()
    grid = np.linspace(0.0, 1e-3, 11)
    idas = IDAS(rtol=1e-10, atol=1e-13, drift="projection").solve(system, grid).sensor(rotor.sensor)
    genalpha = GeneralizedAlpha(0.5, modified_newton=True).solve_grid(system, grid, h=5e-7).sensor(rotor.sensor)
    scale = np.abs(idas).max()
    assert scale > 1e-5                                           # the disc does move
    assert np.abs(idas - genalpha).max() / scale < 1e-5
