"""The rotor-disc model on the reference mesh, as a model file for the solver comparison.

    python -m floatframe compare benchmarks/rotor_disc_reference_model.py --solvers idas,genalpha,trapezoidal

Needs ../shared/data/rotorDisc (the reference data).
"""
from pathlib import Path

from floatframe.fem import read_abaqus_inp, read_abaqus_mtx
from floatframe.models.rotor_disc import build_rotor_disc

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "rotorDisc"
SENSOR = 0      # the axis node at the disc (the model's only sensor)
T_END = 1e-3    # [s]
N_OUTPUTS = 10


def build():
    mesh = read_abaqus_inp(DATA / "rotorDiscTest.inp", instance="rotor-1")
    model = build_rotor_disc("tisserand", mesh.nodes, read_abaqus_mtx(DATA / "rotorDiscTestMASS1.mtx"),
                             read_abaqus_mtx(DATA / "rotorDiscTestSTIF1.mtx"), unbalance_node=9)
    return model.system
