"""Claims about bringing one's own solver (docs/solvers.md): the BDF2 scheme of docs/examples/bdf2_scheme.py,
written against the DAE contract on the shared loop in a few dozen lines, converges with the order it
declares, agrees with IDAS at tight tolerance, runs on a model through the contract alone, and runs in
``compare`` beside the built-in solvers."""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

import floatframe as ff
from floatframe.cli import main
from floatframe.models.pendulum import build_pendulum

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "bdf2_scheme.py"


@pytest.fixture(scope="module")
def bdf2():
    spec = importlib.util.spec_from_file_location("bdf2_scheme", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_is_a_few_dozen_lines_of_scheme(bdf2):
    source = EXAMPLE.read_text().splitlines()
    start = next(k for k, line in enumerate(source) if line.startswith("class BDF2"))
    end = next(k for k, line in enumerate(source) if line.startswith("def measured_order"))
    assert end - start <= 60


def test_the_measured_order_is_the_declared_one(bdf2):
    orders = bdf2.measured_order()
    assert np.all(np.abs(orders - bdf2.BDF2.order) <= 0.1), orders


def test_it_agrees_with_idas_at_tight_tolerance(bdf2):
    system, info = build_pendulum()
    assembled = system.assemble()
    ours = bdf2.BDF2().solve(assembled, 0.5, 2000).sensor(info.position_sensor)
    reference = ff.IDAS(rtol=1e-10, atol=1e-12).solve(assembled, 0.5, 2000).sensor(info.position_sensor)
    assert np.abs(ours - reference).max() < 2e-6          # second order at h = 2.5e-4: (h / 0.05)^2 x 1.4e-2 of 1 m


def test_it_runs_in_compare_beside_the_built_in_solvers(tmp_path, capsys):
    code = main(["compare", "pendulum", "--solvers", f"genalpha,{EXAMPLE}:BDF2", "--refinements", "1,2",
                 "--out", str(tmp_path / "comparison")])
    assert code == 0
    table = (tmp_path / "comparison" / "comparison.csv").read_text().splitlines()
    ours = [line for line in table if line.startswith(f"{EXAMPLE}:BDF2")]
    assert len(ours) == 2 and all(line.rstrip().endswith("ok") for line in ours)


def test_a_solver_that_is_not_a_scheme_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_status:
        main(["compare", "pendulum", "--solvers", f"{EXAMPLE}:measured_order", "--out", str(tmp_path / "c")])
    assert exit_status.value.code == 2
    assert "has no Scheme subclass measured_order" in capsys.readouterr().err
