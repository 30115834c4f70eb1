"""The comparison harness on the pendulum: table, files, and errors that fall with the setting."""
import csv

import numpy as np
import pytest

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
    assert len(table) == 6 and float(table[0]["wall time [s]"]) > 0          # names with units (conventions.md)
    assert np.isfinite(float(table[0]["max abs C [m, rad]"]))
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


def test_andrews_table_gives_the_test_sets_digits_the_warm_up_apart_and_the_units(tmp_path):
    """compare andrews: scd and mescd of the published solution at t = 0.03 s (IDAS rtol 1e-8: measured 6.66 and
    7.16 digits), each solver's warm-up run outside the timed rows, the units in the header."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        status = compare_main(["andrews", "--solvers", "idas,hht", "--tolerances", "1e-8", "--refinements", "4",
                               "--output", str(tmp_path / "andrews")])
    assert status == 0
    lines = (tmp_path / "andrews" / "comparison.md").read_text().splitlines()
    header = [cell.strip() for cell in lines[2].strip("|").split("|")]
    assert header[:5] == ["solver", "setting (rtol [-] or h [s])", "wall time [s]", "warm-up [s]", "setup [s]"]
    assert "scd [digits]" in header and "mescd [digits]" in header
    rows = {line.split("|")[1].strip(): [cell.strip() for cell in line.strip("|").split("|")] for line in lines[4:]}
    idas = rows["idas"]
    assert 6.3 <= float(idas[header.index("scd [digits]")]) <= 7.0
    assert 6.8 <= float(idas[header.index("mescd [digits]")]) <= 7.5
    assert float(rows["hht"][header.index("warm-up [s]")]) > 0.0
    assert (tmp_path / "andrews" / "work_precision.png").stat().st_size > 0


def test_compare_out_is_a_deprecated_alias_of_output(tmp_path):
    with pytest.warns(FutureWarning, match=r"compare: --out is deprecated, use --output"):
        compare_main(["pendulum", "--solvers", "idas", "--tolerances", "1e-4", "--t-end", "0.2", "--outputs", "2",
                      "--out", str(tmp_path / "old")])
    assert (tmp_path / "old" / "comparison.csv").is_file()


@pytest.mark.parametrize("times, errors", [(np.geomspace(0.03, 0.7, 6), np.geomspace(1e-1, 1e-9, 6)),
                                           (np.geomspace(1e-3, 3e2, 6), np.geomspace(1e-1, 1e-12, 6))],
                         ids=["within-two-decades", "six-decades"])
def test_the_work_precision_plot_labels_its_axes_without_overlap(times, errors):
    """Every tick label of both log axes is drawn apart from its neighbours, with at least two per axis."""
    import matplotlib.pyplot as plt

    from floatframe.compare import Run, work_precision_figure
    rows = [Run(solver, "h", 0.0, float(t), 0.0, 1, 1, 1, float(e * factor), 0.0, 0.0)
            for solver, factor in (("idas", 1.0), ("genalpha", 3.0)) for t, e in zip(times, errors)]
    figure = work_precision_figure(rows, "test", digits=False)
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    axes = figure.axes[0]
    for labels in (axes.get_xticklabels(), axes.get_yticklabels()):
        boxes = sorted((label.get_window_extent(renderer) for label in labels
                        if label.get_text() and label.get_visible()
                        and axes.get_window_extent(renderer).expanded(1.2, 1.2).overlaps(label.get_window_extent(renderer))),
                       key=lambda box: (box.x0, box.y0))
        assert len(boxes) >= 2
        assert not any(a.overlaps(b) for k, a in enumerate(boxes) for b in boxes[k + 1:])
    plt.close(figure)


def test_a_scheme_that_refuses_the_model_is_a_refused_row_naming_why():
    """An explicit scheme on the constrained pendulum: each of its rows says 'refused' with the scheme's reason; the
    other solvers' rows are computed as usual."""
    rows = run_comparison(load_model("pendulum"), solvers=["rk44", "genalpha"], refinements=[1])
    refused = [row for row in rows if row.solver == "rk44"]
    assert refused and all(row.status.startswith("refused: rk44: an explicit scheme") for row in refused)
    assert all(row.status == "ok" for row in rows if row.solver == "genalpha")


def test_the_csv_has_a_named_column_with_its_unit_for_every_field_of_a_row():
    from floatframe.compare import CSV_COLUMNS, Run

    assert set(CSV_COLUMNS) == set(Run.__dataclass_fields__)
    quantities = [name for field, name in CSV_COLUMNS.items() if field not in ("solver", "setting", "status")]
    assert all(name.endswith("]") and " [" in name for name in quantities)
