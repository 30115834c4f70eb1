"""Claims about parameter studies (floatframe.study) on dask.distributed: rows equal the same runs in-process,
failures are rows, an interrupted study resumes, the samplers sample what they say, bad input is refused
before anything is sent."""
import numpy as np
import pandas as pd
import pytest

from floatframe.study import (StudyError, grid, latin_hypercube, monte_carlo, pendulum_period, run_one, run_study)

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
    second = run_study(pendulum_period, grid(length=[0.8, 1.2, 1.6]), workers=1, output=output, progress=False)
    np.testing.assert_array_equal(second["wall_time"][:2], first["wall_time"])   # read back, not run again
    written = pd.read_parquet(output) if suffix == "parquet" else pd.read_csv(output)
    assert len(written) == 3 and second["period"][2] > second["period"][1]
    assert sorted(written["length"]) == [0.8, 1.2, 1.6] and list(tmp_path.iterdir()) == [output]


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


@pytest.mark.parametrize("samples, fault", [
    ([], "no samples"),
    ([{"length": 1.0}, {"mass": 2.0}], r"sample 1 has parameters \['mass'\], the first one \['length'\]"),
    ([{"size": 1.0}], "pendulum_period has no parameter 'size'"),
    ([{"length": 1.0}], r"output study.xlsx must end in .csv or .parquet, not '.xlsx'"),
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
