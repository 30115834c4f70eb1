"""benchmarks/testset_codes.py: the Fortran RADAU5 and DASSL on the IVP test set's Andrews mechanism and car axis,
and compare's --external rows. The runs are skipped where gfortran or the third-party sources (the benchmark's
default folder, or TESTSET_CODES) are absent; the measured digits below are from this repository's machine."""
import csv
import importlib.util
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from floatframe.compare import (CSV_COLUMNS, compare_main, mixed_significant_correct_digits, read_runs,
                                significant_correct_digits)

ROOT = Path(__file__).resolve().parents[2]
BENCHMARK = ROOT / "benchmarks" / "testset_codes.py"


def benchmark_module():
    spec = importlib.util.spec_from_file_location("testset_codes", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(the benchmark module, {solver: executable}) built from the sources folder into a fresh folder."""
    codes = benchmark_module()
    if shutil.which("gfortran") is None:
        pytest.skip("gfortran not installed")
    sources = Path(os.environ.get("TESTSET_CODES", codes.DEFAULT_SOURCES))
    try:
        executables, messages = codes.build(sources, tmp_path_factory.mktemp("testset-build"), ["radau5", "dassl"])
    except codes.Unavailable as missing:
        pytest.skip(str(missing))
    if len(executables) < 2:
        pytest.skip("; ".join(messages))
    return codes, executables


def one_row(codes, executables, solver, problem, m, control="all"):
    records = codes.run_solver(executables[solver], problem, range(m, m + 1), 0.0, control)
    (row,) = codes.rows_of(solver, problem, records)
    return records[0], row


def test_radau5_on_andrews_reaches_the_measured_digits(built):
    # rtol = atol = h0 = 1e-8 (m = 16): 145 steps, scd 5.30, mescd 5.83 on the seven angles
    codes, executables = built
    record, (run, cpu, repeats, rejected, evaluations) = one_row(codes, executables, "radau5", "andrews", 16)
    assert record["idid"] == 1 and run.status == "ok"
    assert record["rtol"] == pytest.approx(1e-8, rel=1e-15)
    assert 130 <= run.steps <= 160
    assert run.scd >= 5.2 and run.mescd >= 5.7
    # the digits are floatframe's measures of the angles against the published solution
    from floatframe.models.andrews import REFERENCE_ANGLES
    angles = np.array(record["y"][:7])
    assert run.scd == significant_correct_digits(angles, REFERENCE_ANGLES)
    assert run.mescd == mixed_significant_correct_digits(angles, REFERENCE_ANGLES)
    by_hand = -np.log10(np.max(np.abs(angles - REFERENCE_ANGLES) / np.abs(REFERENCE_ANGLES)))
    assert run.scd == pytest.approx(by_hand, abs=1e-12)


def test_radau5_converges_to_the_published_andrews_solution(built):
    # at rtol 1e-12 (m = 32) RADAU5 holds 7.65 digits of the angles (the test set's reference, PSIDE at 1e-14)
    codes, executables = built
    _, (run, *_) = one_row(codes, executables, "radau5", "andrews", 32)
    assert run.scd >= 7.5


def test_radau5_on_the_car_axis(built):
    # rtol 1e-8: 418 steps, scd 2.74 over all ten components (the multipliers limit it), mescd 4.53
    codes, executables = built
    record, (run, *_) = one_row(codes, executables, "radau5", "car-axis", 16)
    assert record["idid"] == 1 and 380 <= run.steps <= 460
    assert run.scd >= 2.6 and run.mescd >= 4.4
    from floatframe.models.car_axis import REFERENCE
    assert run.scd == significant_correct_digits(record["y"], REFERENCE)


def test_dassl_solves_andrews_only_with_the_higher_index_variables_left_out_of_its_error_test(built):
    codes, executables = built
    # positions controlled, velocities and accelerations/multipliers not: rtol 1e-8, 888 steps, scd 3.38
    record, (run, *_) = one_row(codes, executables, "dassl", "andrews", 16, control="index1")
    assert record["idid"] > 0 and run.status == "ok"
    assert 800 <= run.steps <= 980 and run.scd >= 3.2
    # every variable in the error test: DDASSL stops at the start (IDID -7: the corrector does not converge)
    record, (run, *_) = one_row(codes, executables, "dassl", "andrews", 16, control="all")
    assert record["idid"] < 0 and run.status.startswith("failed: IDID = ") and np.isnan(run.scd)


def test_missing_sources_are_named_and_the_benchmark_exits_with_0(tmp_path, capsys):
    codes = benchmark_module()
    assert codes.main(["--sources", str(tmp_path / "none"), "--build", str(tmp_path / "build"),
                       "--output", str(tmp_path / "out")]) == 0
    said = capsys.readouterr().out
    assert ("no Fortran sources" in said and "radau5.f" in said and "ddassl.f" in said) or "gfortran" in said
    assert not (tmp_path / "out").exists()


def test_a_folder_without_dassl_builds_radau5_and_names_what_dassl_lacks(built, tmp_path):
    codes, _ = built
    sources = Path(os.environ.get("TESTSET_CODES", codes.DEFAULT_SOURCES))
    partial = tmp_path / "sources"
    partial.mkdir()
    for path in sources.iterdir():
        if path.suffix.lower() in (".f", ".f90") and b"SUBROUTINE DDASSL" not in path.read_bytes().upper():
            shutil.copy(path, partial / path.name)
    executables, messages = codes.build(partial, tmp_path / "build", ["radau5", "dassl"])
    assert set(executables) == {"radau5"}
    assert len(messages) == 1 and "DDASSL (ddassl.f" in messages[0]


def test_external_rows_are_read_back_and_a_wrong_file_is_a_usage_error(tmp_path, capsys):
    codes = benchmark_module()
    from floatframe.compare import Run
    run = Run("RADAU5 (Fortran, this machine)", "rtol=1e-08", 1e-8, 0.0017, 0.0, 145, 0, 123, np.nan, np.nan,
              np.nan, scd=5.30, mescd=5.83)
    path = tmp_path / "andrews.csv"
    codes.write_rows(path, [(run, 0.0016, 120, 2, 1690)])
    (back,) = read_runs(path)
    assert back.solver == run.solver and back.steps == 145 and back.scd == 5.30 and back.wall_time == 0.0017
    assert np.isnan(back.error) and back.status == "ok"
    broken = tmp_path / "broken.csv"
    with broken.open("w", newline="") as stream:
        csv.writer(stream).writerows([list(CSV_COLUMNS.values()), ["x"] * len(CSV_COLUMNS)])
    with pytest.raises(ValueError, match=r"broken.csv, line 2: rtol or h \[-, s\] is 'x', not a float"):
        read_runs(broken)
    with pytest.raises(SystemExit) as exit_code:
        compare_main(["pendulum", "--external", str(broken), "--output", str(tmp_path / "out")])
    assert exit_code.value.code == 2
    assert "cannot read" in capsys.readouterr().err
