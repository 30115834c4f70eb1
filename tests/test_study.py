"""Claims about parameter studies (floatframe.study) on dask.distributed: rows equal the same runs in-process,
failures are rows, an interrupted study resumes, the samplers sample what they say, bad input is refused
before anything is sent."""
import math
import os
import time

import numpy as np
import pandas as pd
import pytest

from floatframe.study import (StudyError, StudyRecord, grid, latin_hypercube, monte_carlo, pendulum_period,
                              read_study, run_one, run_study)

pytest.importorskip("distributed")
LENGTHS = [0.5, 1.0, 1.5, 2.0]


@pytest.fixture(scope="module")
def pendulum_study():
    return run_study(pendulum_period, grid(length=LENGTHS), workers=2, progress=False)


def test_a_study_on_two_local_workers_equals_the_same_runs_in_process(pendulum_study):
    assert list(pendulum_study["length"]) == LENGTHS and set(pendulum_study["status"]) == {"ok"}
    for row in pendulum_study.to_dict("records"):
        here = run_one(pendulum_period, {"length": row["length"]})
        assert row["period"] == pytest.approx(here["period"], rel=1e-13, abs=0)


def test_the_periods_match_the_closed_form_within_its_small_oscillation_accuracy(pendulum_study):
    """T / T0 = 1 + phi0^2 / 16 + O(phi0^4) for the release angle phi0 = 0.3 rad: 1.00565 (measured 1.0057
    for every length; the simulation's own error at 200 steps per period is about 1e-4)."""
    ratio = pendulum_study["period"] / pendulum_study["period_small_oscillation"]
    np.testing.assert_allclose(ratio, 1 + 0.3 ** 2 / 16 + 11 * 0.3 ** 4 / 3072, rtol=3e-4)
    assert np.all(np.diff(pendulum_study["period"]) > 0.3)            # longer pendulums swing slower


def test_a_failed_run_is_a_row_with_its_error(tmp_path):
    table = run_study(pendulum_period, grid(length=[1.0, -1.0]), workers=1, progress=False)
    assert list(table["status"]) == ["ok", "failed"]
    assert table["error"][1] == "ValueError: length and mass must be positive, got length=-1.0, mass=2.0"
    assert np.isnan(table["period"][1]) and table["period"][0] > 2.0


@pytest.mark.parametrize("suffix", ["csv", "parquet"])
def test_an_interrupted_study_runs_only_the_samples_without_a_row(tmp_path, suffix):
    if suffix == "parquet":
        pytest.importorskip("pyarrow")
    output = tmp_path / f"study.{suffix}"
    first = run_study(pendulum_period, grid(length=[0.8, 1.2]), workers=1, output=output, progress=False)
    second = run_study(pendulum_period, grid(length=[0.8, 1.2, 1.6]), workers=1, output=output, resume=True,
                       progress=False)
    np.testing.assert_array_equal(second["wall_time"][:2], first["wall_time"])   # read back, not run again
    written = pd.read_parquet(output) if suffix == "parquet" else pd.read_csv(output)
    assert len(written) == 3 and second["period"][2] > second["period"][1]
    assert sorted(written["length"]) == [0.8, 1.2, 1.6]
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted([output.name, "study.sqlite"])
    if suffix == "parquet":                       # the export carries the study's identity too
        import pyarrow.parquet as pq
        identity = pq.read_schema(output).metadata[b"floatframe.study"].decode()
        assert '"function": "floatframe.study.models.pendulum_period"' in identity
        assert '"outputs": ["period", "period_small_oscillation"]' in identity


def test_a_scheduler_that_cannot_be_reached_is_an_error_naming_it_and_the_timeout(tmp_path):
    """A closed local port and a 1 s timeout: the error names both, comes within a few seconds (measured
    1.5 s) and no row is written."""
    import socket
    import time

    with socket.socket() as probe:          # a port that was free a moment ago and has no listener now
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    started = time.perf_counter()
    with pytest.raises(StudyError, match=f"cannot reach the dask scheduler at {address} within the timeout of 1 s"):
        run_study(pendulum_period, grid(length=[1.0]), scheduler=address, timeout=1.0, output=tmp_path / "s.csv")
    assert time.perf_counter() - started < 8 and not (tmp_path / "s.csv").exists()


def test_the_samplers_sample_what_they_say():
    assert grid(a=[1, 2, 3], b=[0.5, 1.5]) == [{"a": a, "b": b} for a in (1.0, 2.0, 3.0) for b in (0.5, 1.5)]
    draws = monte_carlo(4000, seed=3, stiffness="normal:10:0.5", length="uniform:1:2")
    assert draws == monte_carlo(4000, seed=3, stiffness="normal:10:0.5", length="uniform:1:2")   # seeded
    values = np.array([[d["stiffness"], d["length"]] for d in draws])
    assert abs(values[:, 0].mean() - 10) < 4 * 0.5 / np.sqrt(4000) and abs(values[:, 0].std() - 0.5) < 0.02
    assert 1 <= values[:, 1].min() and values[:, 1].max() <= 2
    hypercube = latin_hypercube(50, seed=1, length="uniform:1:2", stiffness="normal:10:0.5")
    import scipy.stats as stats
    strata_length = np.floor((np.array([d["length"] for d in hypercube]) - 1) * 50).astype(int)
    strata_stiffness = np.floor(stats.norm(10, 0.5).cdf([d["stiffness"] for d in hypercube]) * 50).astype(int)
    assert sorted(strata_length) == list(range(50)) and sorted(strata_stiffness) == list(range(50))
    assert hypercube.sampler == "latin_hypercube(seed=1, length=uniform:1:2, stiffness=normal:10:0.5)"
    assert grid(a=[1, 2, 3])[:2].sampler == "grid" and draws[:10].sampler == draws.sampler   # a slice resumes


@pytest.mark.parametrize("samples, fault", [
    ([], "no samples"),
    ([{"length": 1.0}, {"mass": 2.0}], r"sample 1 has parameters \['mass'\], the first one \['length'\]"),
    ([{"size": 1.0}], "pendulum_period has no parameter 'size'"),
    ([{"length": 1.0}], r"output study.xlsx must end in .csv, .parquet or .sqlite, not '.xlsx'"),
    ([{"length": 1.0}, {"length": math.nan}], "sample 1 has length = nan; every value must be a finite number"),
    ([{"length": math.inf}], "sample 0 has length = inf; every value must be a finite number"),
    ([{"length": "1.0"}], "sample 0 has length = '1.0'; every value must be a finite number"),
    ([{"length": True}], "sample 0 has length = True; every value must be a finite number"),
    ([{"length": 1.0}, {"length": 2.0}, {"length": 1.0}], r"samples 0 and 2 are the same \(\{'length': 1.0\}\)"),
])
def test_bad_studies_are_refused_before_anything_is_sent(samples, fault):
    with pytest.raises(StudyError, match=fault):
        run_study(pendulum_period, samples, scheduler="tcp://127.0.0.1:1", output="study.xlsx")   # never reached


@pytest.mark.parametrize("options, fault", [
    (dict(workers=0), "workers must be a positive integer, got 0"),
    (dict(workers=1.5), "workers must be a positive integer, got 1.5"),
    (dict(scheduler="tcp://127.0.0.1:1", timeout=0), "timeout must be a positive number of seconds, got 0"),
])
def test_bad_cluster_settings_are_refused_before_anything_is_sent(options, fault):
    with pytest.raises(StudyError, match=fault):
        run_study(pendulum_period, grid(length=[1.0]), **options)


@pytest.mark.parametrize("spec, fault", [("normal:1", "two numbers"), ("beta:1:2", "unknown kind 'beta'"),
                                         ("normal:1:-2", "must be positive"), ("uniform:2:1", "above the first")])
def test_bad_distributions_are_refused(spec, fault):
    with pytest.raises(StudyError, match=fault):
        monte_carlo(3, x=spec)


def test_a_study_run_returns_the_exact_gradient_of_its_outputs():
    """oscillator_response(gradient=True): dx(t_i)/dk and dx(t_i)/dd through the step map equal central
    differences of the same simulation (measured to 3e-12 of the derivatives' size)."""
    from floatframe.study import oscillator_response

    base = {"stiffness": 37.3, "damping": 0.5}
    exact = oscillator_response(**base, gradient=True)
    for name, step in (("stiffness", 1e-5), ("damping", 1e-6)):
        plus = oscillator_response(**{**base, name: base[name] + step})
        minus = oscillator_response(**{**base, name: base[name] - step})
        for i in range(5):
            central = (plus[f"x_{i}"] - minus[f"x_{i}"]) / (2 * step)
            assert abs(exact[f"dx_{i}_d{name}"] - central) < 1e-8 * max(abs(central), 1e-3), (name, i)


def test_a_gradient_fit_of_the_stiffness_agrees_with_the_sweep():
    """Measured data made with k = 37.3 N/m: the least-squares fit with exact gradients from k = 30 finds
    37.3 to 1e-8; a sweep of the same responses over k = 30 ... 45 (step 0.5) on 2 workers has its smallest
    misfit at the grid point next to it."""
    from floatframe.study import fit_stiffness, oscillator_response

    truth = oscillator_response(37.3)
    measured = [truth[f"x_{i}"] for i in range(5)]
    assert fit_stiffness(measured, initial=30.0) == pytest.approx(37.3, abs=1e-8)
    sweep = run_study(oscillator_response, grid(stiffness=np.arange(30.0, 45.01, 0.5)), workers=2, progress=False)
    misfit = sum((sweep[f"x_{i}"] - measured[i]) ** 2 for i in range(5))
    assert sweep["stiffness"][int(np.argmin(misfit))] == 37.5


def test_a_model_with_symbolic_parameters_is_built_once_per_worker_and_equals_fresh_builds():
    """rotor_disc_supports: 6 support stiffnesses on 2 workers build the rotor disc (742 coordinates) at most
    once per worker, each task sends under 2 kB, and every row equals a fresh build in-process to 1e-12
    (measured: identical), while the stiffnesses change the output by far more than that."""
    import cloudpickle
    from distributed import Client, LocalCluster

    from floatframe.study import model_builds, rotor_disc_supports

    assert len(cloudpickle.dumps(rotor_disc_supports)) < 2000          # the study function, not a model
    stiffnesses = [1e7, 3e7, 1e8, 2e8, 5e8, 1e9]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        table = run_study(rotor_disc_supports, grid(support_stiffness=stiffnesses), client=client, progress=False)
        builds = client.run(model_builds)
    assert set(table["status"]) == {"ok"}
    counts = [sum(worker.values()) for worker in builds.values()]
    assert sorted(counts) in ([1, 1], [0, 1]), builds                 # not one build per task (6)
    fresh = [rotor_disc_supports.uncached()(support_stiffness=k)["max_displacement"] for k in stiffnesses]
    np.testing.assert_allclose(table["max_displacement"], fresh, rtol=1e-12, atol=0)
    assert np.ptp(fresh) > 1e-6 * np.abs(fresh).max()                   # the Parameter values reach the model


def test_a_sensor_study_returns_the_exact_gradient_of_a_flexible_model():
    """rotor_disc_sensitivity (the rotor disc reduced to 4 modes, its supports symbolic): the displacements
    through the step map equal the generalized-alpha solver on a numeric build (measured 3e-13), and the
    derivatives with respect to support stiffness and damping equal central differences of the same runs
    (relative step 1e-3; measured 3e-7 and 7e-7 of the largest derivative)."""
    from floatframe.models.rotor_disc import build_rotor_disc
    from floatframe.solvers.genalpha import GeneralizedAlpha
    from floatframe.study import rotor_disc_sensitivity

    base = {"support_stiffness": 2e6, "support_damping": 2e4}
    exact = rotor_disc_sensitivity.with_gradient()(**base)
    rotor = build_rotor_disc(modes=4, support_stiffness=2e6, support_damping=2e4)
    solved = GeneralizedAlpha(0.5).solve(rotor.system.assemble(), 5e-3, 50, progress=False).sensor(rotor.sensor)
    values = np.array([[exact[f"displacement_{i}_{j}"] for j in range(3)] for i in range(5)])
    np.testing.assert_allclose(values, solved[10::10], rtol=0, atol=1e-10 * np.abs(solved).max())
    labels = [f"displacement_{i}_{j}" for i in range(5) for j in range(3)]
    for name, value in base.items():
        step = 1e-3 * value
        plus = rotor_disc_sensitivity(**{**base, name: value + step})
        minus = rotor_disc_sensitivity(**{**base, name: value - step})
        central = np.array([(plus[label] - minus[label]) / (2 * step) for label in labels])
        derivative = np.array([exact[f"d{label}_d{name}"] for label in labels])
        assert np.abs(derivative - central).max() < 1e-5 * np.abs(central).max(), name
        assert np.abs(central).max() > 0


def test_a_sensor_study_on_the_cluster_carries_its_gradient_columns():
    """Three support stiffnesses on one worker: the rows hold the derivatives, equal to the runs in-process to
    round-off (measured 1e-11 for a derivative, identical values)."""
    from floatframe.study import rotor_disc_sensitivity

    study = rotor_disc_sensitivity.with_gradient()
    table = run_study(study, grid(support_stiffness=[1e6, 2e6, 4e6]), workers=1, progress=False)
    assert set(table["status"]) == {"ok"}
    for row in table.to_dict("records"):
        here = study(support_stiffness=row["support_stiffness"])
        assert row["displacement_4_1"] == pytest.approx(here["displacement_4_1"], rel=1e-12, abs=0)
        derivative = row["ddisplacement_4_1_dsupport_stiffness"]
        assert derivative == pytest.approx(here["ddisplacement_4_1_dsupport_stiffness"], rel=1e-9, abs=0)
    assert "ddisplacement_0_0_dsupport_damping" not in table      # only the study's parameters


def test_a_sensor_study_refuses_times_off_its_steps_and_unknown_parameters():
    from floatframe.study import SensorStudy, rotor_disc_sensitivity, rotor_support_parameters

    with pytest.raises(StudyError, match=r"multiples of h = 0.0001 s, got \[0.00015\]"):
        SensorStudy(rotor_disc_sensitivity.build, rotor_support_parameters, 0, [1.5e-4], 1e-4)
    with pytest.raises(StudyError, match="the step size h must be positive, got 0"):
        SensorStudy(rotor_disc_sensitivity.build, rotor_support_parameters, 0, [1e-3], 0)
    with pytest.raises(StudyError, match="rotor_disc_sensitivity has no parameter 'stiffness'; it takes "
                                         "support_stiffness, support_damping"):
        run_study(rotor_disc_sensitivity, grid(stiffness=[1.0]), scheduler="tcp://127.0.0.1:1")


def test_a_model_study_refuses_a_parameter_that_is_not_symbolic_before_anything_is_sent():
    """The disc radius changes the mesh, so it is no Parameter of rotor_disc_supports' model."""
    from floatframe.study import rotor_disc_supports

    with pytest.raises(StudyError, match="rotor_disc_supports has no parameter 'disc_radius'; it takes "
                                         "support_stiffness, support_damping, steps"):
        run_study(rotor_disc_supports, grid(disc_radius=[0.2]), scheduler="tcp://127.0.0.1:1")


def test_an_empty_range_is_refused_by_name():
    with pytest.raises(StudyError, match="grid: parameter 'length' has no values"):
        grid(length=[], mass=[1.0, 2.0])


def test_the_command_refuses_an_empty_range_before_any_run(capsys):
    from floatframe.study import study_main

    with pytest.raises(SystemExit):
        study_main(["pendulum", "--param", "length=", "--workers", "1"])
    assert "argument --param: 'length=': give NAME=VALUES" in capsys.readouterr().err


def test_local_workers_run_without_dasks_malloc_trim_threshold_and_the_environment_is_kept(monkeypatch):
    """Dask's MALLOC_TRIM_THRESHOLD_ (64 kB, which an earlier nanny leaves in this process's environment) made a
    run 1.4 times slower in a worker: dask_client's workers start without it, and this process keeps its own."""
    import os

    from floatframe.study import dask_client

    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "65536")
    with dask_client(workers=1) as client:
        seen = client.run(lambda: (os.environ.get("MALLOC_TRIM_THRESHOLD_"), os.environ.get("OMP_NUM_THREADS")))
    assert list(seen.values()) == [(None, "1")]          # Dask's other settings (one thread) still apply
    assert os.environ["MALLOC_TRIM_THRESHOLD_"] == "65536"


# --- the study's record: identity, types, failures, crashes -------------------------------------------
def doubled(x):
    """y = 2 x and z = x^2; a ValueError for x < 0 and a NaN y at x = 3."""
    if x < 0:
        raise ValueError(f"x must be >= 0, got {x}")
    return {"y": math.nan if x == 3 else 2.0 * x, "z": x * x}


def tripled(x):
    """Another study function of the same parameter name and outputs as :func:`doubled`."""
    return {"y": 3.0 * x, "z": x * x}


def stalls_at_one(x):
    """y = x, except that x = 1 never returns (an hour's sleep)."""
    if x == 1:
        time.sleep(3600)
    return {"y": x}


def ends_its_worker_at_one(x):
    """y = x, except that x = 1 ends the worker's process at once (as a crash in compiled code would)."""
    if x == 1:
        os._exit(1)
    return {"y": x}


@pytest.fixture(scope="module")
def client():
    """A LocalCluster of 2 workers that, as run_study's own, does not send a task again after its worker died."""
    from floatframe.study import dask_client

    with dask_client(workers=2, allowed_failures=0) as active:
        yield active


def test_a_resumed_study_with_failed_rows_keeps_its_columns_numeric(tmp_path, client):
    """The issue's case: resuming a study with failed rows turned the output column into strings, whose 'sum'
    was '0.01.09.016.0'. Now the ok rows of y sum to 2 (0 + 1 + 9 + 16) = 52 in the table, read back from the
    record and read from the CSV export by plain pandas."""
    output = tmp_path / "study.csv"
    run_study(doubled, grid(x=[0.0, -1.0, 1.0, 9.0]), client=client, output=output, progress=False)
    table = run_study(doubled, grid(x=[0.0, -1.0, 1.0, 9.0, 16.0]), client=client, output=output, resume=True,
                      progress=False)
    assert list(table["status"]) == ["ok", "failed", "ok", "ok", "ok"]
    assert table["error"][1] == "ValueError: x must be >= 0, got -1.0" and table["error"][0] == ""
    for frame in (table, read_study(output), pd.read_csv(output)):
        assert frame["y"].dtype == np.float64 and frame["wall_time"].dtype == np.float64
        assert frame.loc[frame["status"] == "ok", "y"].sum() == 52.0
    assert list(table.columns) == ["x", "y", "z", "wall_time", "status", "error"]


def test_a_nan_output_is_a_failed_row_with_its_cause_and_reads_back_as_nan(tmp_path, client):
    """The issue's case: a run returning NaN was stored as 'ok' and came back as ''. Now it is 'failed' with the
    cause, and its y reads back as NaN (a float); finite_outputs=False keeps it 'ok' with its NaN."""
    output = tmp_path / "study.sqlite"
    run_study(doubled, grid(x=[2.0, 3.0]), client=client, output=output, progress=False)
    table = run_study(doubled, grid(x=[2.0, 3.0]), client=client, output=output, resume=True, progress=False)
    assert list(table["status"]) == ["ok", "failed"]
    assert table["error"][1] == ("ValueError: output 'y' is nan (a NaN or infinite output is a failed run; "
                                 "finite_outputs=False keeps it)")
    stored = read_study(output).set_index("x")
    assert np.isnan(table["y"][1]) and table["y"][0] == 4.0 and np.isnan(stored["y"][3.0]) and stored["y"][2.0] == 4.0
    kept = run_study(doubled, grid(x=[3.0]), client=client, finite_outputs=False, progress=False)
    assert kept["status"][0] == "ok" and np.isnan(kept["y"][0]) and kept["z"][0] == 9.0


def test_a_record_of_another_study_is_refused_naming_the_file(tmp_path, client):
    """The issue's case: a file of another study function with the same parameter names was resumed as this
    one's. The record holds the function, the parameter names and the sampler; another of any of them is
    refused before anything runs, naming the file; restart=True starts over."""
    output = tmp_path / "study.csv"
    run_study(doubled, grid(x=[1.0, 2.0]), client=client, output=output, progress=False)
    record = tmp_path / "study.sqlite"
    with pytest.raises(StudyError, match=f"{record} holds 2 rows of another study: its function "
                                         f"'[a-z_.]*doubled' \\(this study: '[a-z_.]*tripled'\\); give restart=True"):
        run_study(tripled, grid(x=[1.0, 2.0, 3.0]), client=client, output=output, resume=True)
    with pytest.raises(StudyError, match=r"its sampler 'grid' \(this study: 'monte_carlo\(seed=0, "
                                         r"x=uniform:1:2\)'\)"):
        run_study(doubled, monte_carlo(2, x="uniform:1:2"), client=client, output=output, resume=True)
    assert sorted(read_study(output)["y"]) == [2.0, 4.0]                # untouched
    table = run_study(tripled, grid(x=[1.0, 2.0]), client=client, output=output, restart=True, progress=False)
    assert list(table["y"]) == [3.0, 6.0] and sorted(read_study(output)["y"]) == [3.0, 6.0]


def test_a_study_run_again_without_resume_or_restart_is_refused(tmp_path, client):
    """The issue's case: a study run a second time quietly reused the old rows. Now an existing record, or an
    export without a record (a leftover of an older floatframe), is refused naming it unless resume or restart
    is given; resume and restart together are refused."""
    output = tmp_path / "study.csv"
    first = run_study(doubled, grid(x=[1.0]), client=client, output=output, progress=False)
    with pytest.raises(StudyError, match=f"{tmp_path / 'study.sqlite'} already holds a study \\(1 rows of "
                                         f"[a-z_.]*doubled over x\\); give resume=True"):
        run_study(doubled, grid(x=[1.0]), client=client, output=output)
    with pytest.raises(StudyError, match="give resume=True or restart=True, not both"):
        run_study(doubled, grid(x=[1.0]), client=client, output=output, resume=True, restart=True)
    again = run_study(doubled, grid(x=[1.0]), client=client, output=output, restart=True, progress=False)
    assert again["wall_time"][0] != first["wall_time"][0]              # run again, not read back
    leftover = tmp_path / "old" / "study.csv"
    leftover.parent.mkdir()
    leftover.write_text("x,y,z,wall_time,status,error\n1.0,2.0,1.0,0.1,ok,\n")
    with pytest.raises(StudyError, match=f"{leftover} exists but has no study record "
                                         f"{leftover.with_suffix('.sqlite')} beside it"):
        run_study(doubled, grid(x=[1.0]), client=client, output=leftover, resume=True)


def test_the_header_is_the_same_whether_the_first_row_failed_or_not(tmp_path):
    """The issue's case: when the first row written failed, the CSV's header had fewer columns than the later
    rows. The export is written whole from the record, whose columns are the outputs of the first ok row."""
    identity = {"function": "doubled", "parameters": ["x"], "sampler": "grid"}
    failed = {"x": -1.0, "wall_time": 0.1, "status": "failed", "error": "ValueError: x must be >= 0"}
    ok = {"x": 2.0, "y": 4.0, "z": 4.0, "wall_time": 0.1, "status": "ok", "error": ""}
    headers = []
    for name, rows in (("failed_first", [failed, ok]), ("ok_first", [ok, failed])):
        record = StudyRecord(tmp_path / f"{name}.csv", identity)
        for row in rows:
            record.add(row)
        record.export(force=True)
        record.close()
        headers.append((tmp_path / f"{name}.csv").read_text().splitlines()[0])
        assert len(pd.read_csv(tmp_path / f"{name}.csv")) == 2
    assert headers == ["x,y,z,wall_time,status,error"] * 2


def test_a_run_with_other_outputs_than_the_first_is_a_failed_row_naming_both(tmp_path):
    record = StudyRecord(None, {"function": "f", "parameters": ["x"], "sampler": "grid"})
    record.add({"x": 1.0, "y": 2.0, "wall_time": 0.1, "status": "ok", "error": ""})
    written = record.add({"x": 2.0, "w": 4.0, "wall_time": 0.1, "status": "ok", "error": ""})
    assert written["status"] == "failed"
    assert written["error"] == "ValueError: the run returned the outputs ['w'], the study's first runs ['y']"
    assert list(record.table().columns) == ["x", "y", "wall_time", "status", "error"]


@pytest.mark.parametrize("outputs, cause", [
    ([1.0], "TypeError: the study function returned a list, not a dict of named outputs"),
    ({"y": [1.0, 2.0]}, "TypeError: output 'y' is not a scalar: shape (2,)"),
    ({"y": "tall"}, "TypeError: output 'y' is not a number: 'tall'"),
    ({"x": 1.0}, "ValueError: output name 'x' is taken by a parameter or the table's own columns"),
    ({"status": 1.0}, "ValueError: output name 'status' is taken by a parameter or the table's own columns"),
    ({"y": 1.0, "z": -math.inf}, "ValueError: output 'z' is -inf (a NaN or infinite output is a failed run"),
])
def test_outputs_that_are_not_named_finite_scalars_make_a_failed_row_with_the_cause(outputs, cause):
    row = run_one(lambda x: outputs, {"x": 1.0})
    assert row["status"] == "failed" and row["error"].startswith(cause) and "y" not in row


def test_a_file_that_is_no_study_record_is_refused_naming_it(tmp_path):
    """A record cut or overwritten by something else is refused on resume, not read as rows."""
    record = tmp_path / "study.sqlite"
    record.write_bytes(b"x,y\n1.0,2.")
    with pytest.raises(StudyError, match=f"{record} is not a study record that can be read and written "
                                         f"\\(DatabaseError: file is not a database\\)"):
        run_study(doubled, grid(x=[1.0]), output=record, resume=True, scheduler="tcp://127.0.0.1:1")


@pytest.mark.parametrize("make, fault", [
    (lambda: grid(x=[1.0, math.nan]), "grid: parameter 'x' has the value nan; every value must be a finite number"),
    (lambda: grid(x=[math.inf]), "grid: parameter 'x' has the value inf"),
    (lambda: monte_carlo(3, x="uniform:0:inf"), "distribution 'uniform:0:inf': both numbers must be finite"),
])
def test_samplers_refuse_values_that_are_not_finite(make, fault):
    with pytest.raises(StudyError, match=fault):
        make()


def test_a_sample_outside_its_distributions_support_is_refused_before_anything_is_sent():
    """Out of range means outside the support of the sample's distribution (uniform:0:1: [0, 1]; lognormal:
    [0, inf]), ends included; every value must also be a finite number."""
    draws = monte_carlo(3, seed=1, x="uniform:0:1", k="lognormal:0:1")
    draws[2]["x"] = 1.5
    with pytest.raises(StudyError, match=r"sample 2 has x = 1.5, outside the support \[0.0, 1.0\] of its "
                                         r"distribution uniform\(0.0, 1.0\)"):
        run_study(lambda x, k: {"y": x}, draws, scheduler="tcp://127.0.0.1:1")
    draws[2]["x"], draws[0]["k"] = 0.5, -0.1
    with pytest.raises(StudyError, match=r"sample 0 has k = -0.1, outside the support \[0.0, inf\]"):
        run_study(lambda x, k: {"y": x}, draws, scheduler="tcp://127.0.0.1:1")


@pytest.mark.parametrize("time_limit", [0, -1.0, math.inf, "2"])
def test_a_time_limit_that_is_not_a_positive_number_is_refused(time_limit):
    with pytest.raises(StudyError, match=f"time_limit must be a positive number of seconds, got {time_limit!r}"):
        run_study(doubled, grid(x=[1.0]), time_limit=time_limit, scheduler="tcp://127.0.0.1:1")


def test_a_run_over_the_time_limit_is_a_timeout_row_and_the_study_goes_on(client):
    """The issue's case: a run that never returns hung the study. With time_limit=1 it is a 'timeout' row after
    1 s of running (measured 1.0-1.1 s), its worker is restarted and the other samples are ok."""
    started = time.perf_counter()
    table = run_study(stalls_at_one, grid(x=[0.0, 1.0, 2.0, 3.0]), client=client, time_limit=1.0, progress=False)
    assert list(table["status"]) == ["ok", "timeout", "ok", "ok"] and list(table["y"][[0, 2, 3]]) == [0.0, 2.0, 3.0]
    assert table["error"][1].startswith("TimeoutError: the run took longer than the time limit of 1 s; its worker "
                                        "tcp://") and table["error"][1].endswith(" was restarted")
    assert 1.0 < table["wall_time"][1] < 2.0 and time.perf_counter() - started < 20
    assert client.run(lambda: 1) and len(client.scheduler_info()["workers"]) == 2      # both workers serve again


def test_a_run_that_ends_its_worker_is_a_failed_row_and_the_study_goes_on():
    """The issue's case: a run that killed its worker ended the whole study with KilledWorker. Now its sample
    is a failed row naming KilledWorker and the worker, which reported the run's start before it died; the
    samples queued on that worker are sent again and are ok."""
    table = run_study(ends_its_worker_at_one, grid(x=[0.0, 1.0, 2.0, 3.0]), workers=2, progress=False)
    assert list(table["status"]) == ["ok", "failed", "ok", "ok"] and list(table["y"][[0, 2, 3]]) == [0.0, 2.0, 3.0]
    assert table["error"][1].startswith("KilledWorker: the worker process running this sample died (tcp://")
    assert 0 <= table["wall_time"][1] < 5                     # from the run's start to the news of its death


def test_an_output_under_a_regular_file_is_refused_in_the_first_second_naming_it(tmp_path):
    """Before any cluster is contacted, and nothing is created."""
    blocker = tmp_path / "results"
    blocker.write_text("not a folder\n")
    output = blocker / "study.csv"
    started = time.perf_counter()
    with pytest.raises(StudyError, match=f"run_study: cannot write the file '{output}': '{blocker}' is a file, "
                                         f"not a folder"):
        run_study(doubled, grid(x=[1.0]), output=output, scheduler="tcp://127.0.0.1:1")
    assert time.perf_counter() - started < 1.0 and list(tmp_path.iterdir()) == [blocker]


KILLED_STUDY = """
import sys, time
import distributed, pandas
from floatframe.study import grid, run_study

def tick(x):
    time.sleep(0.002)
    return {"twice": 2.0 * x, "square": x * x}

print("started", flush=True)
run_study(tick, grid(x=range(int(sys.argv[3]))), scheduler=sys.argv[1], output=sys.argv[2], resume=True,
          progress=False)
"""


@pytest.mark.slow
def test_a_study_killed_at_random_moments_resumes_to_a_complete_typed_table_without_duplicates(tmp_path):
    """A study of 1,200 fast runs in its own process, SIGKILLed 20 times at random moments 0.2-1.0 s after its
    imports (while it connects, opens its record or writes rows; each time resumed), then run to its end: the
    record and its CSV hold each sample once, ok, typed, with the right values, and SQLite's integrity check
    passes. At least 5 kills come while rows are being written (measured 12-13; the first row comes about
    0.45 s after the imports)."""
    import signal
    import sqlite3
    import subprocess
    import sys

    from floatframe.study import dask_client

    count, kills, rng = 1200, 20, np.random.default_rng(5)
    output = tmp_path / "study.csv"
    record = tmp_path / "study.sqlite"

    def rows_written():
        if not record.exists():
            return 0
        with sqlite3.connect(record) as connection:
            written = connection.execute("SELECT count(*) FROM rows").fetchone()[0]
        connection.close()
        return written

    with dask_client(workers=1) as client:
        address = client.scheduler.address
        arguments = [sys.executable, "-c", KILLED_STUDY, address, str(output), str(count)]
        during_writes = 0
        for _ in range(kills):
            before = rows_written()
            with open(tmp_path / "stderr.txt", "w+b") as stderr:
                process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=stderr)
                if process.stdout.readline() != b"started\n":
                    process.wait()
                    stderr.seek(0)
                    pytest.fail(f"the study's process ended before its imports: {stderr.read()[-2000:]}")
            time.sleep(rng.uniform(0.2, 1.0))
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
            process.stdout.close()
            during_writes += before < rows_written() < count
        completed = subprocess.run(arguments, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert during_writes >= 5, during_writes
    table = read_study(output)
    assert len(table) == count and sorted(table["x"]) == list(map(float, range(count)))      # each once
    assert set(table["status"]) == {"ok"} and (table["twice"] == 2 * table["x"]).all()
    assert all(table[name].dtype == np.float64 for name in ("x", "twice", "square", "wall_time"))
    exported = pd.read_csv(output)
    assert len(exported) == count and exported["x"].is_unique and (exported["square"] == exported["x"] ** 2).all()
    with sqlite3.connect(record) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
