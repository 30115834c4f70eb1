"""Claims about the command line: wrong arguments are usage errors (exit 2, no traceback), model names
are hyphenated in every command, and --help shows the defaults."""
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import floatframe.compare
from floatframe.cli import main

ROOT = Path(__file__).resolve().parents[1]


def usage_error(capsys, argv) -> str:
    """Run the command line, expect argparse's exit 2; returns stderr."""
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith("usage: floatframe")
    return error


@pytest.mark.parametrize("argv, message", [
    (["run", "rotor-disc", "--steps", "0"], "argument --steps: must be a positive integer, got 0"),
    (["run", "rotor-disc", "--steps", "ten"], "argument --steps: must be a positive integer, got 'ten'"),
    (["run", "rotor-disc", "--refinement", "0"], "argument --refinement: must be a positive integer, got 0"),
    (["run", "rotor-dsc"], "unknown model 'rotor-dsc'; did you mean 'rotor-disc'?"),
    (["run", "pendulum"], "unknown model 'pendulum'; did you mean 'double-pendulum'? (choose from rotor-disc, rotor-disc-constrained, double-pendulum, slider-crank, flexible-arm, bracket, spin-up-beam)"),
    (["compare", "pendulum", "--solvers", "idas,rk4"], "argument --solvers: unknown solver 'rk4'; did you mean 'rk44'? (choose from idas,"),
    (["compare", "pendulum", "--tolerances", "1e-6,-1"], "argument --tolerances: must be a positive number, got -1"),
    (["compare", "pendulum", "--refinements", "2,0"], "argument --refinements: must be a positive integer, got 0"),
    (["compare", "pendulm"], "unknown model 'pendulm'; did you mean 'pendulum'?"),
    (["compare", "pendulum", "--t-end", "0"], "argument --t-end: must be a positive number, got 0"),
    (["compare", "pendulum", "--workers", "0"], "argument --workers: must be a positive integer, got 0"),
    (["compare", "pendulum", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
     "give --scheduler (a running cluster) or --workers (a local one), not both"),
    (["compare", "pendulum", "--scheduler", "tcp://127.0.0.1:1", "--timeout", "1"],
     "cannot reach the dask scheduler at tcp://127.0.0.1:1 within the timeout of 1 s"),
    (["ocp", "slew", "--steps", "0"], "argument --steps: must be a positive integer, got 0"),
    (["ocp", "slew", "--duration", "-2"], "argument --duration: must be a positive number, got -2"),
    (["ocp", "slew", "--angle", "nan"], "argument --angle: must be a finite number, got nan"),
    (["ocp", "slew", "--weight", "-1"], "argument --weight: must be a number >= 0, got -1"),
    (["ocp", "slew", "--modes", "0"], "argument --modes: must be a positive integer, got 0"),
    (["ocp", "arm", "--steps", "0"], "argument --steps: must be a positive integer, got 0"),
    (["ocp", "arm", "--shoulder", "inf"], "argument --shoulder: must be a finite number, got inf"),
    (["ocp", "arm", "--modes", "-1"], "argument --modes: must be a positive integer, got -1"),
    (["ocp", "swing"], "argument example: invalid choice: 'swing'"),
    (["ocp"], "the following arguments are required: example"),
    ([], "the following arguments are required: {run,compare,ocp,study,animate,modes,plot}"),
])
def test_wrong_arguments_are_usage_errors_naming_the_fault(capsys, argv, message):
    assert message in usage_error(capsys, argv)


@pytest.mark.parametrize("argv, message", [
    (["study", "pendulum", "--param", "length=1", "--scheduler", "tcp://127.0.0.1:1", "--timeout", "1"],
     "cannot reach the dask scheduler at tcp://127.0.0.1:1 within the timeout of 1 s"),
    (["study", "pendulum", "--param", "length=1,x"], "argument --param: 'length=1,x': values must be numbers"),
    (["study", "pendulum", "--param", "length=1,nan"],
     "grid: parameter 'length' has the value nan; every value must be a finite number"),
    (["study", "pendulum", "--param", "size=1,2"], "run_study: pendulum_period has no parameter 'size'"),
    (["study", "pendulum", "--samples", "4"], "study: --samples needs --dist"),
    (["study", "pendulum", "--param", "length=1", "--samples", "4", "--dist", "mass=normal:2:0.1"],
     "study: give --param (a grid) or --samples with --dist, not both"),
    (["study", "pendulum", "--dist", "mass=gamma:2:0.1", "--samples", "3"], "unknown kind 'gamma'"),
    (["study", "pendulum", "--param", "length=1", "--resume", "--restart"],
     "argument --restart: not allowed with argument --resume"),
    (["study", "pendulum", "--param", "length=1", "--time-limit", "0"],
     "argument --time-limit: must be a positive number, got 0"),
    (["study", "swing"], "argument model: invalid choice: 'swing'"),
])
def test_wrong_study_arguments_are_usage_errors_naming_the_fault(capsys, monkeypatch, tmp_path, argv, message):
    """In an empty folder: no output of an earlier study in the working folder can change the outcome."""
    monkeypatch.chdir(tmp_path)
    assert message in usage_error(capsys, argv)
    assert list(tmp_path.iterdir()) == []                    # nothing written


def test_a_leftover_study_file_is_refused_naming_it_not_reused(capsys, monkeypatch, tmp_path):
    """An output/study.csv left by an earlier run (here one without a record, as an older floatframe wrote it)
    is neither resumed nor overwritten silently: the command names it and the switches."""
    monkeypatch.chdir(tmp_path)
    leftover = Path("output") / "study.csv"
    leftover.parent.mkdir()
    leftover.write_text("length,period,period_small_oscillation,wall_time,status,error\n1.0,2.01,2.0,0.1,ok,\n")
    error = usage_error(capsys, ["study", "pendulum", "--param", "length=1", "--workers", "1"])
    assert "run_study: output/study.csv exists but has no study record output/study.sqlite beside it; give " \
           "restart=True (floatframe study --restart) to replace it" in " ".join(error.split())
    assert leftover.read_text().endswith("1.0,2.01,2.0,0.1,ok,\n")


def test_a_study_output_under_a_regular_file_is_an_error_in_the_first_second(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    Path("results").write_text("a file, not a folder\n")
    started = time.perf_counter()
    error = usage_error(capsys, ["study", "pendulum", "--param", "length=1", "--output", "results/study"])
    assert time.perf_counter() - started < 1.0
    assert "argument --output: cannot write in the folder 'results/study': 'results' is a file, not a folder" \
        in " ".join(error.split())


def test_a_study_run_again_needs_resume_or_restart(capsys, monkeypatch, tmp_path):
    """The first run writes the record, the export and the plot; the second without a switch is refused naming
    the record; --resume reads the row back without running anything (no cluster is started)."""
    monkeypatch.chdir(tmp_path)
    assert main(["study", "pendulum", "--param", "length=1", "--workers", "1"]) == 0
    assert "1 runs, 0 failed; wrote output/study.csv, output/study.sqlite and output/study.png" in \
        capsys.readouterr().out
    error = usage_error(capsys, ["study", "pendulum", "--param", "length=1", "--workers", "1"])
    assert "run_study: output/study.sqlite already holds a study (1 rows of floatframe.study.models." \
           "pendulum_period over length); give resume=True (floatframe study --resume)" in " ".join(error.split())
    started = time.perf_counter()
    assert main(["study", "pendulum", "--param", "length=1", "--resume"]) == 0
    assert time.perf_counter() - started < 3 and "1 runs, 0 failed" in capsys.readouterr().out


@pytest.mark.parametrize("blocked, argv, purpose, package, quoted", [
    ("distributed", [], "a parameter study", "dask[distributed]", "'dask[distributed]'"),
    ("pandas", [], "a parameter study", "pandas", "pandas"),
    ("pyarrow", ["--format", "parquet"], "a study's Parquet export (--format parquet)", "pyarrow", "pyarrow"),
])
def test_a_missing_optional_package_is_one_line_naming_the_extra(tmp_path, blocked, argv, purpose, package, quoted):
    """A package of the study extra made unimportable (a module of its name that raises ImportError comes first
    on the path): the command ends with status 1 and one line, no traceback."""
    (tmp_path / f"{blocked}.py").write_text(f"raise ImportError('{blocked} is blocked by the test')\n")
    completed = subprocess.run([sys.executable, "-m", "floatframe", "study", "pendulum", "--param", "length=1",
                                *argv], capture_output=True, text=True, cwd=tmp_path,
                               env={"PYTHONPATH": f"{tmp_path}:{ROOT}", "PATH": ""})
    assert completed.returncode == 1 and "Traceback" not in completed.stderr
    assert completed.stderr.splitlines() == [
        f"floatframe study: {purpose} needs the optional package '{package}', which is not installed; install "
        f"floatframe's 'study' extra: pip install 'floatframe[study]' (or pip install {quoted})"]
    assert not (tmp_path / "output").exists()


@pytest.mark.parametrize("command", [["run"], ["compare"]])
def test_underscore_model_names_are_refused_naming_the_hyphenated_one(capsys, command):
    for wrong, right in (("rotor_disc", "rotor-disc"), ("rotor_disc_constrained", "rotor-disc-constrained")):
        assert f"unknown model '{wrong}'; did you mean '{right}'?" in usage_error(capsys, [*command, wrong])


def test_the_same_model_names_reach_the_comparison(monkeypatch, capsys, tmp_path):
    seen = {}

    def record(model, solvers, tolerances, refinements, t_end, outputs, reference, reference_rtol, out, *, scheduler,
               workers, timeout, external=()):
        seen.update(model=model, solvers=solvers, tolerances=tolerances, refinements=refinements, t_end=t_end,
                    workers=workers)
        Path(out).mkdir()
        (Path(out) / "comparison.md").write_text("table\n")
        return []

    monkeypatch.setattr(floatframe.compare, "run_comparison", record)
    status = main(["compare", "rotor-disc-constrained", "--solvers", "idas, newmark", "--tolerances", "1e-5,1e-7",
                   "--refinements", "3", "--t-end", "0.5", "--out", str(tmp_path / "out")])
    assert status == 0 and capsys.readouterr().out == "table\n\n"
    assert seen == dict(model="rotor-disc-constrained", solvers=["idas", "newmark"], tolerances=[1e-5, 1e-7],
                        refinements=[3], t_end=0.5, workers=None)


@pytest.mark.parametrize("argv, defaults", [
    (["run", "--help"], ["(default: 200 of 1e-4 s", "(default: 1)", "(default: output)"]),
    (["compare", "--help"], ["(default: idas,genalpha)", "(default: 1,2,4,8)", "(default: 1e-10)",
                             "(default: output)"]),
    (["ocp", "slew", "--help"], ["(default: 30.0)", "(default: 2.0)", "(default: 60)", "(default: bang-bang)",
                                 "(default: 4)"]),
    (["ocp", "arm", "--help"], ["(default: 60.0)", "(default: 45.0)", "(default: 2.0)", "(default: 160)",
                                "(default: 2)"]),
])
def test_help_shows_the_defaults_in_every_subcommand(capsys, argv, defaults):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 0
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
    assert all(default in text for default in defaults)


def test_the_installed_command_reports_a_usage_error_without_traceback():
    completed = subprocess.run([sys.executable, "-m", "floatframe", "run", "rotor-disc", "--steps", "0"],
                               capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert completed.returncode == 2
    assert "Traceback" not in completed.stderr
    assert "floatframe run: error: argument --steps: must be a positive integer, got 0" in completed.stderr


@pytest.mark.slow
def test_run_takes_the_constrained_set_up_by_its_model_name(capsys, tmp_path):
    assert main(["run", "rotor-disc-constrained", "--steps", "2", "--output", str(tmp_path)]) == 0
    summary = capsys.readouterr().out
    assert summary.startswith("rotor-disc-constrained: 742 coordinates, 7 constraints")
    assert (tmp_path / "rotor_disc_constrained.png").is_file()


@pytest.mark.slow
def test_ocp_slew_optimises_the_reduced_beam_and_re_simulates_on_the_full_mesh(capsys, tmp_path):
    assert main(["ocp", "slew", "--steps", "20", "--output", str(tmp_path)]) == 0
    summary = capsys.readouterr().out
    assert summary.startswith("slew: reduced beam (16 Hex8 elements, 4 clamped-root modes), 11 coordinates, "
                              "6 constraints")
    assert "the same torques on the full FFRF mesh (211 coordinates)" in summary
    header = (tmp_path / "slew.csv").read_text().splitlines()[0]
    assert header == ("t [s],torque optimal [N m],hub angle optimal [rad],tip deflection optimal [m],"
                      "torque reference [N m],hub angle reference [rad],tip deflection reference [m],"
                      "tip deflection optimal full mesh [m],tip deflection reference full mesh [m]")
    assert (tmp_path / "slew.png").is_file()
    # the summary's re-simulated hub angle at T is the one the CSV holds (not only the OCP grid's)
    at_end = float(re.search(r"re-simulated with 4x finer steps: at T hub ([-0-9.]+) deg \(target 30,", summary)[1])
    table = np.loadtxt(tmp_path / "slew.csv", delimiter=",", skiprows=1)
    assert at_end == pytest.approx(np.degrees(np.interp(2.0, table[:, 0], table[:, 2])), abs=0.006)


@pytest.mark.slow
def test_ocp_arm_optimises_the_controlled_arm_and_writes_its_plot(capsys, tmp_path):
    assert main(["ocp", "arm", "--steps", "40", "--output", str(tmp_path)]) == 0
    summary = capsys.readouterr().out
    assert summary.startswith("arm: reduced forearm (2 modes), 16 coordinates, 12 constraints; target 60 / 45 deg")
    assert "IPOPT: Solve_Succeeded" in summary and "residual tip vibration after T (4x finer steps)" in summary
    header = (tmp_path / "arm.csv").read_text().splitlines()[0]
    assert header == ("t [s],shoulder angle optimal [rad],elbow angle optimal [rad],tip deflection optimal [m],"
                      "shoulder angle computed torque [rad],elbow angle computed torque [rad],"
                      "tip deflection computed torque [m]")
    assert (tmp_path / "arm.png").is_file()


@pytest.mark.parametrize("argv, message", [
    (["run", "rotor-disc", "--modes", "100000"],
     "floatframe run: error: eigenmodes: 100000 modes and 6 rigid-body modes asked for, but the mesh has only 735 "
     "coordinates (at most 729 elastic modes)"),
    (["run", "bracket", "--mesh-size", "1"],
     "floatframe run: error: mesh_bracket: mesh_size 1.0 m is coarser than the arm width 0.03 m; use at most the "
     "width"),
    (["ocp", "slew", "--modes", "100", "--elements", "1"],
     "floatframe ocp slew: error: craig_bampton_modes: 100 fixed-interface eigenmodes asked for, but only 12 "
     "coordinates remain with the interfaces held"),
])
def test_arguments_the_model_cannot_take_are_usage_errors_not_tracebacks(capsys, monkeypatch, tmp_path, argv,
                                                                         message):
    monkeypatch.chdir(tmp_path)
    assert usage_error(capsys, argv).splitlines()[-1] == message
    assert list(tmp_path.iterdir()) == []                    # found before anything was written


@pytest.mark.parametrize("source, message", [
    ("x = 1\n", "compare: {file} defines no build() function"),
    ("def build():\n    return None\n", "compare: build() of {file} returned NoneType; it must return a System, an "
                                        "AssembledSystem, a (System, info) pair or an object with .system"),
])
def test_a_model_file_without_a_model_is_a_usage_error(capsys, tmp_path, source, message):
    model = tmp_path / "model.py"
    model.write_text(source)
    error = usage_error(capsys, ["compare", str(model), "--out", str(tmp_path / "out")])
    assert error.splitlines()[-1] == "floatframe compare: error: " + message.format(file=model)


@pytest.mark.parametrize("argv, message", [
    (["ocp", "slew", "--angle", "0"], "floatframe ocp slew: error: argument --angle: a slew by 0 deg is no manoeuvre "
                                      "(the OCP is scaled by its torque); give a non-zero angle"),
    (["ocp", "arm", "--shoulder", "0", "--elbow", "0"],
     "floatframe ocp arm: error: arguments --shoulder and --elbow: the target 0 / 0 deg is the start, no manoeuvre "
     "(the OCP is scaled by its torques); give a non-zero angle"),
])
def test_an_ocp_without_a_manoeuvre_is_a_usage_error_not_a_nan(capsys, tmp_path, argv, message):
    assert usage_error(capsys, [*argv, "--output", str(tmp_path)]).splitlines()[-1] == message


def test_a_failed_solve_ends_in_one_message_and_status_1(monkeypatch, tmp_path):
    from floatframe.solvers import GeneralizedAlpha
    from floatframe.solvers.result import SolverError

    def fail(*arguments, **options):
        raise SolverError("genalpha: at t = 0.001: Newton's iteration diverged", 0.001)

    monkeypatch.setattr(GeneralizedAlpha, "solve", fail)
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "double-pendulum", "--steps", "2", "--output", str(tmp_path)])
    assert exit_info.value.code == "floatframe run: genalpha: at t = 0.001: Newton's iteration diverged"
    assert list(tmp_path.iterdir()) == []


def test_a_failed_reference_of_the_comparison_is_one_message_naming_its_setting(tmp_path):
    with pytest.raises(SystemExit) as exit_info:
        main(["compare", "pendulum", "--solvers", "genalpha", "--reference-rtol", "1e-30", "--out", str(tmp_path)])
    assert str(exit_info.value.code).startswith(
        "floatframe compare: the reference solution (idas, rtol 1e-30) failed, so no error can be measured: idas: "
        "IDAS failed at t = 0")


def test_a_study_whose_runs_all_fail_writes_its_table_and_no_plot(capsys, monkeypatch, tmp_path):
    """The plot of a study without a successful run had no rows of axes and ended the command with a traceback
    after the study; now the table is written and the command says why there is no plot."""
    monkeypatch.chdir(tmp_path)
    assert main(["study", "pendulum", "--param", "length=-1", "--workers", "1"]) == 0
    assert "1 runs, 1 failed; wrote output/study.csv and output/study.sqlite (no plot: no run succeeded)" in \
        capsys.readouterr().out
    assert sorted(path.name for path in (tmp_path / "output").iterdir()) == ["study.csv", "study.sqlite"]
