"""Exudyn-style scripts on floatframe: the two rotor-disc references of shared/data/README.md, and
three further models compared with the exudyn package itself (marked ``exudyn``)."""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

import exudyn_style_models as models
import floatframe.exudyn as ffexu
from floatframe.exudyn import FEM as ffFEM
from floatframe.exudyn import itemInterface as ffitems

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "user_functions.py"


def floatframe_run(builder):
    return models.run(builder, ffexu, ffitems, ffFEM)


def exudyn_run(builder):
    exu = pytest.importorskip("exudyn")
    import exudyn.FEM as FEM
    import exudyn.itemInterface as items
    return models.run(builder, exu, items, FEM)


@pytest.mark.parametrize("builder, reference", [(models.rotor_tisserand, models.README_TISSERAND),
                                                (models.rotor_constrained, models.README_CONSTRAINED)])
def test_rotor_disc_reproduces_readme_numbers(shared_rotor_data, builder, reference):
    (data,), mbs = floatframe_run(builder)
    assert data[0, 0] == 0.0 and data.shape[1] == 4
    measure = np.abs(data).sum()  # README measure: sum of |[t, ux, uy, uz]| over the stored steps
    assert measure == pytest.approx(reference, rel=1e-6)
    assert_rotor_physics(mbs.GetObject(0))


def assert_rotor_physics(data):
    """Mass, inertia and centre of mass computed from the mass matrix (with the unbalance)."""
    assert data["physicsMass"] == pytest.approx(78.06605109486411, rel=1e-12)
    assert data["physicsInertia"][2, 2] == pytest.approx(1.03444, rel=1e-5)
    assert data["physicsCenterOfMass"] == pytest.approx([0.0, 2.51049509e-04, 1.87879449e-01], abs=1e-9)


@pytest.mark.exudyn
@pytest.mark.parametrize("builder", [models.free_block, models.pendulum_block, models.user_function_block])
def test_block_models_match_exudyn(shared_block_data, builder):
    reference, _ = exudyn_run(builder)
    ours, _ = floatframe_run(builder)
    for exudyn_data, floatframe_data in zip(reference, ours):
        assert floatframe_data.shape == exudyn_data.shape
        scale = np.abs(exudyn_data[:, 1:]).max()
        np.testing.assert_allclose(floatframe_data[:, 0], exudyn_data[:, 0], atol=1e-12)
        np.testing.assert_allclose(floatframe_data[:, 1:], exudyn_data[:, 1:], atol=1e-6 * scale, rtol=0)


def test_block_models_run_without_exudyn(shared_block_data):
    """The same scripts give plausible results on floatframe alone (no exudyn needed)."""
    (_, omega, _, position), mbs = floatframe_run(models.free_block)
    assert np.linalg.norm(omega[-1, 1:]) == pytest.approx(np.linalg.norm(omega[0, 1:]), rel=1e-2)
    assert position[-1, 0] == pytest.approx(0.1)
    assert np.all(np.isfinite(position))


@pytest.mark.exudyn
def test_a_mass_point_on_springs_under_gravity_matches_exudyn():
    """ObjectMassPoint, ObjectConnectorCoordinateSpringDamper with an offset, a CartesianSpringDamper and
    LoadMassProportional on a MarkerBodyMass (measured: 8e-16 of the scale)."""
    reference, _ = exudyn_run(models.mass_point_on_springs)
    ours, _ = floatframe_run(models.mass_point_on_springs)
    for exudyn_data, floatframe_data in zip(reference, ours):
        scale = np.abs(exudyn_data[:, 1:]).max()
        np.testing.assert_allclose(floatframe_data[:, 1:], exudyn_data[:, 1:], atol=1e-12 * scale, rtol=0)


@pytest.mark.exudyn
def test_rotor_with_force_and_constant_mass_user_functions_matches_exudyn(shared_rotor_data):
    """The 'constant' model of benchmarks/user_functions.py (the rotor disc, 352 coordinates, an ObjectFFRF with
    a forceUserFunction and a constant dense massMatrixUserFunction), 10 steps (measured: 2e-8 of the scale
    after 40 steps). The mass matrix is not differenced: called once per residual evaluation only."""
    pytest.importorskip("exudyn")
    spec = importlib.util.spec_from_file_location("user_functions_benchmark", BENCHMARK)
    benchmark = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(benchmark)
    reference, ours = (benchmark.run(code, "constant", 10) for code in ("exudyn", "floatframe"))
    exudyn_data, floatframe_data = np.array(reference["data"]), np.array(ours["data"])
    scale = np.abs(exudyn_data[:, 1:]).max()
    np.testing.assert_allclose(floatframe_data[:, 0], exudyn_data[:, 0], atol=1e-12)
    np.testing.assert_allclose(floatframe_data[:, 1:], exudyn_data[:, 1:], atol=1e-6 * scale, rtol=0)
    differences = ours["force_calls"] - ours["mass_calls"]  # both once per residual; the force 352 more per matrix
    assert differences > 0 and differences % 352 == 0
