"""The rotor-disc model reproduces Exudyn 1.13.6's reference numbers on the reference data."""
import numpy as np
import pytest

from floatframe.fem import read_abaqus_inp, read_abaqus_mtx
from floatframe.models.rotor_disc import build_rotor_disc
from floatframe.solvers import GeneralizedAlpha

# sum over all stored rows of |[t, u_x, u_y, u_z]| (the time column included, as Exudyn's test sums it)
REFERENCE = {"tisserand": 0.035521880690182486, "constrained": 0.0064600108120842666}


def reference_model(shared_data, setup):
    folder = shared_data / "rotorDisc"
    mesh = read_abaqus_inp(folder / "rotorDiscTest.inp", instance="rotor-1")
    mass = read_abaqus_mtx(folder / "rotorDiscTestMASS1.mtx")
    stiffness = read_abaqus_mtx(folder / "rotorDiscTestSTIF1.mtx")
    return build_rotor_disc(setup, mesh.nodes, mass, stiffness, unbalance_node=9)


@pytest.mark.parametrize("setup", ["tisserand", "constrained"])
@pytest.mark.parametrize("modified_newton", [False, True])
def test_reference_measure_matches_exudyn_to_relative_1e_6(shared_data, setup, modified_newton):
    model = reference_model(shared_data, setup)
    steps = model.default_steps()
    result = GeneralizedAlpha(0.5, modified_newton=modified_newton).solve(model.system.assemble(), steps * 1e-4, steps)
    measure = np.abs(result.sensor(model.sensor, with_time=True)).sum()
    assert measure == pytest.approx(REFERENCE[setup], rel=1e-6)
    displacement_only = np.abs(result.sensor(model.sensor)).sum()
    time_only = 1e-4 * sum(range(steps + 1))
    assert displacement_only == pytest.approx(REFERENCE[setup] - time_only, rel=1e-6)


def test_tisserand_conditions_hold_over_the_run_on_the_built_in_mesh():
    model = build_rotor_disc("tisserand")
    assembled = model.system.assemble()
    result = GeneralizedAlpha(0.5).solve(assembled, 10e-4, 10)
    for q in result.q:
        assert np.abs(assembled.constraints(0.0, q)).max() < 1e-9
    assert np.abs(result.sensor(model.sensor)).max() > 1e-7  # the disc does move
