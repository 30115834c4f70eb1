"""The comparison harness on the pendulum: table, files, and errors that fall with the setting."""
import csv

import numpy as np

from floatframe.compare import compare_main, load_model, run_comparison


def test_run_comparison_writes_table_and_plot(tmp_path):
    model = load_model("pendulum")
    rows = run_comparison(model, ["idas-baumgarte", "genalpha", "newmark"], tolerances=(1e-4, 1e-7),
                          refinements=(1, 4), t_end=1.0, n_outputs=10, out_dir=tmp_path, progress=False)
    assert len(rows) == 6 and all(r.status == "ok" for r in rows)
    errors = {(r.solver, r.value): r.error for r in rows}
    assert errors[("idas-baumgarte", 1e-7)] < errors[("idas-baumgarte", 1e-4)] < 1e-3
    assert errors[("genalpha", 0.025)] < errors[("genalpha", 0.1)] / 10          # second order: ~ 16x
    assert errors[("newmark", 0.025)] < errors[("newmark", 0.1)] / 3             # first order: ~ 4x
    with (tmp_path / "comparison.csv").open() as stream:
        table = list(csv.DictReader(stream))
    assert len(table) == 6 and float(table[0]["wall_time"]) > 0
    assert np.isfinite(float(table[0]["position_violation"]))
    assert (tmp_path / "comparison.md").read_text().count("\n| ") == 7
    assert (tmp_path / "work_precision.png").stat().st_size > 10_000


def test_compare_main_on_a_model_file(tmp_path):
    model_file = tmp_path / "my_model.py"
    model_file.write_text("from floatframe.models.pendulum import build_pendulum\n"
                          "T_END = 0.5\nN_OUTPUTS = 5\n\ndef build():\n    return build_pendulum(angle0=0.2)\n")
    status = compare_main([str(model_file), "--solvers", "idas,trapezoidal", "--tolerances", "1e-6",
                           "--refinements", "2", "--out", str(tmp_path / "out")])
    assert status == 0
    text = (tmp_path / "out" / "comparison.md").read_text()
    assert "| idas | rtol=1e-06 |" in text and "| trapezoidal | h=0.05 |" in text


def test_the_ladder_on_two_dask_workers_equals_the_runs_in_process():
    """The same runs as tasks on a LocalCluster of 2 workers (each loads the pendulum once): the same steps,
    Newton iterations and errors as in-process (measured: identical), in the order of the ladder."""
    import pytest

    pytest.importorskip("distributed")
    options = dict(solvers=["idas", "genalpha", "trapezoidal"], tolerances=(1e-6,), refinements=(1, 2), t_end=0.5,
                   n_outputs=5, progress=False)
    here = run_comparison("pendulum", **options)
    there = run_comparison("pendulum", **options, workers=2)
    assert [(r.solver, r.value) for r in there] == [(r.solver, r.value) for r in here]
    assert all(r.status == "ok" for r in there) and len(there) == 5
    for mine, theirs in zip(here, there):
        assert (theirs.steps, theirs.newton_iterations) == (mine.steps, mine.newton_iterations)
        assert theirs.error == pytest.approx(mine.error, rel=1e-9, abs=0) and theirs.error > 0
