"""The cost of a study's record: rows per second written to the SQLite record (floatframe.study.StudyRecord) against
the other ways a row could be kept, the cost of an export, and the record's overhead per row in a study on Dask
against a run's time.

    python benchmarks/study_store.py [--rows 2000] [--study-rows 400] [--folder DIR]

Prints three tables:

- **writing rows**: one row (2 parameters, 3 outputs, wall time, status, error) at a time, each made durable
  against a killed process before the next: the record as floatframe writes it (SQLite, write-ahead log,
  ``synchronous = NORMAL``, one transaction per row); SQLite with its default rollback journal and
  ``synchronous = FULL``; one CSV line appended and flushed (no fsync), and with an fsync; pandas appending a
  one-row frame to a CSV after reading its header (floatframe's writer before the record);
- **exports**: writing the CSV and the Parquet file from the record at 100, 1,000 and 10,000 rows (it is
  written at most once a second while a study runs, and at its end);
- **a study**: ``run_study`` of a function that returns at once, on one LocalCluster worker: the time a row
  spent in the record (its methods timed), against the time of one ``pendulum_period`` run in this process,
  and the study's time a row with and without an output file.
"""
import argparse
import csv
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # this checkout's floatframe
from floatframe.study import StudyRecord, dask_client, grid, pendulum_period, run_study

IDENTITY = {"function": "benchmark", "parameters": ["stiffness", "damping"], "sampler": "grid"}


def row(k: int) -> dict:
    """A typical finished row: 2 parameters, 3 outputs."""
    return {"stiffness": 1e6 + k, "damping": 0.5, "x_0": 1e-3 * k, "x_1": 2e-3, "x_2": 3e-3, "wall_time": 0.1,
            "status": "ok", "error": ""}


def record_rows(folder: Path, count: int, journal_mode: str, synchronous: str) -> float:
    """Seconds per row written to a StudyRecord with the given SQLite settings."""
    record_class = type("Record", (StudyRecord,), {"JOURNAL_MODE": journal_mode, "SYNCHRONOUS": synchronous})
    record = record_class(folder / f"{journal_mode}-{synchronous}.sqlite", IDENTITY)
    started = time.perf_counter()
    for k in range(count):
        record.add(row(k))
    seconds = (time.perf_counter() - started) / count
    record.close()
    return seconds


def csv_lines(folder: Path, count: int, fsync: bool) -> float:
    """Seconds per CSV line appended and flushed (and fsync'ed)."""
    path = folder / f"lines-{fsync}.csv"
    started = time.perf_counter()
    with open(path, "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(list(row(0)))
        for k in range(count):
            writer.writerow(list(row(k).values()))
            file.flush()
            if fsync:
                os.fsync(file.fileno())
    return (time.perf_counter() - started) / count


def pandas_append(folder: Path, count: int) -> float:
    """Seconds per row appended by pandas after reading the file's header (floatframe's writer before)."""
    import pandas as pd

    path = folder / "pandas.csv"
    started = time.perf_counter()
    for k in range(count):
        frame = pd.DataFrame([row(k)])
        if path.is_file():
            columns = list(pd.read_csv(path, nrows=0).columns)
            frame = frame.reindex(columns=columns)
        frame.to_csv(path, mode="a", header=not path.is_file(), index=False)
    return (time.perf_counter() - started) / count


def export_times(folder: Path, sizes=(100, 1000, 10000)) -> list[tuple[int, float, float]]:
    """(rows, seconds of the CSV export, seconds of the Parquet export)."""
    results = []
    for size in sizes:
        timings = []
        for suffix in (".csv", ".parquet"):
            record = StudyRecord(folder / f"export-{size}-{suffix[1:]}{suffix}", IDENTITY)
            for k in range(size):
                record.add(row(k))
            started = time.perf_counter()
            record.export(force=True)
            timings.append(time.perf_counter() - started)
            record.close()
        results.append((size, *timings))
    return results


def immediate(x):
    """A study function that returns at once."""
    return {"twice": 2.0 * x, "square": x * x}


def study_overhead(folder: Path, count: int) -> tuple[float, float, float]:
    """A study of ``immediate`` on one worker: seconds a row spent in the record (opening it, writing the rows,
    the exports, reading the table back), and the study's seconds a row with an output file and without."""
    seconds = {"record": 0.0}

    def timed(method):
        def wrapper(*args, **kwargs):
            started = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                seconds["record"] += time.perf_counter() - started
        return wrapper

    samples = grid(x=range(count))
    with dask_client(workers=1) as client:
        run_study(immediate, grid(x=[-1.0]), client=client, progress=False)          # warm the worker
        timings = {}
        originals = {name: getattr(StudyRecord, name) for name in ("__init__", "add", "export", "table", "close")}
        for label, output in (("without", None), ("with", folder / "study.csv"), ("without again", None)):
            if output is not None:
                for name, method in originals.items():
                    setattr(StudyRecord, name, timed(method))
            started = time.perf_counter()
            run_study(immediate, samples, client=client, output=output, progress=False)
            timings[label] = (time.perf_counter() - started) / count
            for name, method in originals.items():
                setattr(StudyRecord, name, method)
    return seconds["record"] / count, timings["with"], (timings["without"] + timings["without again"]) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=2000, help="rows written by each writer")
    parser.add_argument("--study-rows", type=int, default=400, help="samples of the study on Dask")
    parser.add_argument("--folder", default=None, help="where the files are written (default: the system's "
                        "temporary folder; give one on the disk your studies write to)")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=arguments.folder) as name:
        folder = Path(name)
        slow_rows = max(50, arguments.rows // 20)          # the writers that fsync every row
        writers = [
            ("SQLite record, WAL, synchronous NORMAL (floatframe)", arguments.rows,
             lambda n: record_rows(folder, n, "WAL", "NORMAL")),
            ("SQLite, rollback journal, synchronous FULL (defaults)", slow_rows,
             lambda n: record_rows(folder, n, "DELETE", "FULL")),
            ("CSV line appended, flushed", arguments.rows, lambda n: csv_lines(folder, n, False)),
            ("CSV line appended, flushed and fsync'ed", slow_rows, lambda n: csv_lines(folder, n, True)),
            ("pandas: header read, one-row frame appended", slow_rows, lambda n: pandas_append(folder, n)),
        ]
        print(f"{'writer':58s} {'rows':>6s} {'us a row':>10s} {'rows/s':>10s}")
        for label, count, write in writers:
            seconds = write(count)
            print(f"{label:58s} {count:6d} {seconds * 1e6:10.1f} {1 / seconds:10.0f}")
        print(f"\n{'rows in the record':>20s} {'CSV export [ms]':>16s} {'Parquet export [ms]':>20s}")
        for size, csv_seconds, parquet_seconds in export_times(folder):
            print(f"{size:20d} {csv_seconds * 1e3:16.1f} {parquet_seconds * 1e3:20.1f}")
        record, with_output, without = study_overhead(folder, arguments.study_rows)
        pendulum_period(length=1.0)
        started = time.perf_counter()
        for _ in range(3):
            pendulum_period(length=1.0)
        run = (time.perf_counter() - started) / 3
        print(f"\na study of {arguments.study_rows} immediate runs on 1 worker: {record * 1e3:.3f} ms a row in the "
              f"record (open, rows, exports, table), {100 * record / run:.2f} % of one pendulum_period run "
              f"({run * 1e3:.0f} ms); the study took {with_output * 1e3:.2f} ms a row with the output file, "
              f"{without * 1e3:.2f} ms without (the record works while the worker runs)")

if __name__ == "__main__":
    main()
