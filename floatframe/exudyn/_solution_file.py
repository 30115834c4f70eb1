"""Exudyn's coordinates solution file (``simulationSettings.solution.file``), written by SolveDynamic and SolveStatic.

The text file, as Exudyn's: nine ``#`` header lines (the fifth, ``#number of written coordinates [nODE2, nVel2,
nAcc2, nODE1, nVel1, nAlgebraic, nData] = [...]``, is what ``LoadSolutionFile`` reads), then one comma-separated row
per written state: time, ODE2 coordinates (displacements from the reference values), ODE2 velocities, ODE2
accelerations, ODE1 coordinates, ODE1 velocities, algebraic coordinates (the multipliers), data coordinates (the
turn counters' angles, ``floatframe.exudyn._coordinates``), in Exudyn's coordinate order, each group as the
``export`` settings choose; two ``#`` footer lines close it.

Rows: at Exudyn's steps (``floatframe.exudyn._output_steps``: the initial state unless ``writeInitialValues`` is
False, then every writePeriod, and the last step); SolveStatic writes every load step. The file is written after the
solve, from the stored states (up to the failure where a solve fails); Exudyn streams it during the solve.

The binary file (``solution.file.binary``; ``.sol`` added where the name has no dot), as Exudyn 1.13.6's, all numbers
little-endian: a 16-byte block (``EXUBIN``, a newline byte, the byte sizes of an index (4), a real (8 where
``solution.precision`` is at least 8, else 4: float32) and a pointer (8), the big-endian flag (0), five zero bytes);
the header (with ``writeHeader``): the strings version, mode ``Mode0000``, solver and start date, the index arrays
[nODE2, nODE1, nAlgebraic, nData] and the seven written counts, the indices total columns and planned steps, the
strings information (as given, line breaks kept) and ``EndOfHeader``; one record per row: the index ``1 + columns``
and the row's reals; the footer (with ``writeFooter``): the index -1, the strings ``simulation finished=`` and the end
date, the index array [step failed, discontinuous iteration successful, Newton diverged, mass matrix not invertible,
steps, Newton iterations, jacobians] and the string ``EXUEND``. A string is its byte count (an index) and its bytes,
an index array its length and its entries. As Exudyn, ``append`` does not apply to it (the file is rewritten).
"""
from __future__ import annotations

import os
import platform
import stat
import time
import warnings
from pathlib import Path

import numpy as np

from floatframe import __version__
from floatframe.exudyn._names import ExudynLayerError
from floatframe.exudyn._output_steps import written_steps

EXPORTED = ("velocities", "accelerations", "ODE1Velocities", "algebraicCoordinates", "dataCoordinates")
VERSION_LINE = (f"#floatframe version = {__version__}; Python{platform.python_version()}; {platform.system()} "
                f"{platform.machine()} FLOAT64")
BINARY_MARK = b"EXUBIN"
BINARY_MODE = "Mode0000"
END_OF_HEADER = "EndOfHeader"
END_OF_FILE = "EXUEND"
FINISHED = "simulation finished="
INDEX = np.dtype("<i4")          # Exudyn's Index (int) in the binary file
POINTER_SIZE = 8


def format_rows(rows: np.ndarray, precision: int) -> str:
    """Rows of numbers as comma-separated text lines with ``precision`` significant digits (C++ streams' default
    format, as Exudyn writes them). One format string per row: a join over a generator per value took 2 ms of a
    6 ms solve."""
    if not rows.size:
        return ""
    row_format = ",".join([f"%.{precision}g"] * rows.shape[1]) + "\n"
    return "".join([row_format % row for row in map(tuple, rows.tolist())])


class RewrittenFile:
    """A file written anew through the operating system's calls: opened without truncating it (or, with
    ``append``, for appending), written as bytes, and on ``close`` cut where what was written ends (a regular file;
    empty where nothing was written, as ``open(path, "w")`` leaves it). On ext4, truncating a file of data to zero on
    opening cost 0.3-1.1 ms of a tiny model's 1.7-4 ms solve (the file system then also writes it back on closing),
    overwriting it in place 0.05 ms; Python's file objects, the first of a process, 0.05 ms more. Raises OSError as
    ``open`` does."""

    def __init__(self, path, append: bool = False):
        self.append, self.written = append, 0
        self.descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else 0), 0o666)

    @classmethod
    def making_folder(cls, path: Path, append: bool = False) -> "RewrittenFile":
        """The file opened, its folder made first where opening fails (making an existing folder cost 0.05 ms);
        OSError where it still cannot be opened."""
        try:
            return cls(path, append)
        except OSError:
            path.parent.mkdir(parents=True, exist_ok=True)
            return cls(path, append)

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:   # (a regular file takes all at once; a pipe may take part)
            view = view[os.write(self.descriptor, view):]
        self.written += len(data)

    def close(self) -> None:
        if self.descriptor is None:
            return
        try:
            if not self.append and stat.S_ISREG(os.fstat(self.descriptor).st_mode):
                os.ftruncate(self.descriptor, self.written)
        finally:
            os.close(self.descriptor)
            self.descriptor = None


class SolutionFile:
    """The coordinates solution file one solve writes: its settings read before the solve.

    Parameters
    ----------
    settings : the SimulationSettings of the solve.
    solver_name : the scheme as the header names it (Exudyn's wording, e.g. 'implicit second order time
        integration').
    steps : the planned number of steps (header).
    static : True for SolveStatic (no velocities or accelerations written).
    """

    def __init__(self, settings, solver_name: str, steps: int, static: bool = False):
        get = settings.get
        name = str(get("solution.file.name"))
        self.binary = bool(get("solution.file.binary"))
        # Exudyn adds .txt (binary: .sol) where the name has no dot
        self.path = Path(name if "." in name else name + (".sol" if self.binary else ".txt"))
        self.period = float(get("solution.file.writePeriod"))
        self.precision = int(get("solution.precision"))
        self.append = bool(get("solution.file.append"))
        self.header = bool(get("solution.file.writeHeader"))
        self.footer = bool(get("solution.file.writeFooter"))
        self.initial = bool(get("solution.file.writeInitialValues"))
        self.information = str(get("solution.file.information"))
        # Exudyn's binary file stores reals as float64 from 8 digits on, as float32 below
        self.real = np.dtype("<f8" if self.precision >= 8 else "<f4")
        self.export = {key: bool(get(f"solution.file.export.{key}")) for key in EXPORTED}
        self.solver_name, self.steps, self.static = solver_name, int(steps), static
        self.stream = None   # the RewrittenFile, once opened
        self.started = time.strftime("%Y-%m-%d,%H:%M:%S")

    @classmethod
    def of(cls, settings, solver_name: str, steps: int, static: bool = False) -> "SolutionFile | None":
        """The solve's solution file, opened; None where the settings write none (``solution.file.write`` False or
        an empty name); raises ExudynLayerError before the solve where the file cannot be written."""
        if not settings.get("solution.file.write") or not str(settings.get("solution.file.name")):
            return None
        file = cls(settings, solver_name, steps, static)
        file.open()
        return file

    def open(self):
        """Make the file's folder and open the file for writing, as Exudyn does at the start of a solve (a binary file
        is rewritten also with ``append``, as in Exudyn): a ``RewrittenFile``, which ends where the new content
        does; the folder is made only where the file cannot be opened (making an existing one cost 0.05 ms)."""
        append = self.append and not self.binary
        try:
            self.stream = RewrittenFile.making_folder(self.path, append)
        except OSError as exc:
            raise ExudynLayerError(f"simulationSettings.solution.file.name: the coordinates solution file "
                                   f"'{self.path}' cannot be written: {exc.strerror or exc}") from None

    def close(self):
        """Close the file (it keeps what was written, and ends there unless appended to)."""
        if self.stream is not None:
            self.stream.close()
            self.stream = None

    def row_steps(self, n_steps: int, h: float) -> np.ndarray:
        """The steps at which the file gets a row, of ``n_steps`` steps of ``h`` [s] (``_output_steps``)."""
        return written_steps(n_steps, h, self.period, self.initial)

    def write(self, times, columns: dict, statistics=None, cpu_time: float = 0.0, failed: bool = False):
        """Write the file.

        Parameters
        ----------
        times : (k,) times [s] (SolveStatic: load factors) of the written rows.
        columns : dict of (k, n) arrays: 'ODE2', 'ODE2_t', 'ODE2_tt', 'ODE1', 'ODE1_t', 'AE', 'Data' (empty where a
            system has none of them; 'Data' may be left out).
        statistics : the solve's statistics (steps, newton_iterations, jacobian_evaluations) for the footer.
        cpu_time : the solve's time [s] for the footer; failed : the solve stopped with an error.
        """
        times = np.asarray(times, dtype=float).reshape(-1)
        k = times.size
        dynamic = not self.static   # a static solve writes no velocities or accelerations
        groups = [("ODE2", True), ("ODE2_t", dynamic and self.export["velocities"]),
                  ("ODE2_tt", dynamic and self.export["accelerations"]),
                  ("ODE1", True), ("ODE1_t", dynamic and self.export["ODE1Velocities"]),
                  ("AE", self.export["algebraicCoordinates"]), ("Data", self.export["dataCoordinates"])]
        columns = {"Data": np.zeros((k, 0)), **columns}
        blocks = [times.reshape(k, 1)] + [np.asarray(columns[key], dtype=float).reshape(k, -1)
                                          for key, written in groups if written]
        rows = np.hstack(blocks)
        if self.binary:
            self._write_binary(rows, columns, statistics, failed)
        else:
            text = format_rows(rows, self.precision)
            if self.header:
                text = self._header(columns) + text
            if self.footer:
                text += self._footer(statistics, cpu_time, failed)
            self.stream.write(text.encode("utf-8"))
        self.close()

    def _counts(self, columns: dict):
        """(nODE2, nODE1, nAlgebraic, nData, the seven written counts) of the header."""
        size = {key: np.shape(value)[1] if np.ndim(value) == 2 else 0 for key, value in columns.items()}
        n_ode2, n_ode1, n_ae, n_data = size["ODE2"], size["ODE1"], size["AE"], size["Data"]
        # Exudyn's header counts ODE1 velocities with export.velocities, its rows with export.ODE1Velocities
        dynamic = not self.static
        written = [n_ode2, n_ode2 * (dynamic and self.export["velocities"]),
                   n_ode2 * (dynamic and self.export["accelerations"]), n_ode1,
                   n_ode1 * (dynamic and self.export["velocities"]), n_ae * self.export["algebraicCoordinates"],
                   n_data * self.export["dataCoordinates"]]
        return n_ode2, n_ode1, n_ae, n_data, written

    def _solver_title(self) -> str:
        return f"floatframe.exudyn {self.solver_name} {'static ' if self.static else ''}solver solution file"

    def _header(self, columns: dict) -> str:
        n_ode2, n_ode1, n_ae, n_data, written = self._counts(columns)
        # the column names follow the export settings alone, also where a static solve writes no velocities
        contents = ["time"] + [label for label, present in (
            ("ODE2 displacements", n_ode2), ("ODE2 velocities", n_ode2 and self.export["velocities"]),
            ("ODE2 accelerations", n_ode2 and self.export["accelerations"]), ("ODE1 coordinates", n_ode1),
            ("ODE1 velocities", written[4]), ("AE coordinates", n_ae and self.export["algebraicCoordinates"]),
            ("Data coordinates", written[6]))
            if present]
        planned = "load steps" if self.static else "time steps"
        lines = [f"#{self._solver_title()}",
                 f"#simulation started={self.started}",
                 f"#columns contain: {', '.join(contents)}",
                 f"#number of system coordinates [nODE2, nODE1, nAlgebraic, nData] = [{n_ode2},{n_ode1},{n_ae},"
                 f"{n_data}]",
                 f"#number of written coordinates [nODE2, nVel2, nAcc2, nODE1, nVel1, nAlgebraic, nData] = "
                 f"[{','.join(str(n) for n in written)}]",
                 f"#total columns exported  (excl. time) = {sum(written)}",
                 f"#number of {planned} (planned) = {self.steps}",
                 VERSION_LINE,
                 "#"]
        if self.information:   # line breaks would end the header line: Exudyn writes them as '_'
            lines.append(f"#solution information = {self.information.replace(chr(10), '_')}")
        return "\n".join(lines) + "\n"

    def _footer(self, statistics, cpu_time: float, failed: bool) -> str:
        steps, iterations, jacobians = solver_counts(statistics)
        return (f"#simulation finished={time.strftime('%Y-%m-%d,%H:%M:%S')}\n"
                f"#Solver Info: cpuTime={cpu_time:.6g},stepReductionFailed(or step failed)={int(failed)},"
                f"discontinuousIterationSuccessful=1,newtonSolutionDiverged=0,massMatrixNotInvertible=0,"
                f"total time steps={steps},total Newton iterations={iterations},total Newton jacobians={jacobians}\n")

    def _write_binary(self, rows: np.ndarray, columns: dict, statistics, failed: bool):
        """Write the binary file: header, one record (count, reals) per row, footer, as the settings ask."""
        if self.header:
            n_ode2, n_ode1, n_ae, n_data, written = self._counts(columns)
            type_sizes = bytes([INDEX.itemsize, self.real.itemsize, POINTER_SIZE, 0])   # 0: little-endian
            self.stream.write(BINARY_MARK + b"\n" + type_sizes + bytes(5)
                              + binary_strings(f"floatframe {__version__}", BINARY_MODE, self._solver_title(),
                                               self.started)
                              + binary_indices([n_ode2, n_ode1, n_ae, n_data]) + binary_indices(written)
                              + np.array([sum(written), self.steps], dtype=INDEX).tobytes()
                              + binary_strings(self.information, END_OF_HEADER))
        records = np.empty(rows.shape[0], dtype=row_record(rows.shape[1], self.real))
        records["count"], records["values"] = rows.shape[1], rows
        self.stream.write(records.tobytes())
        if self.footer:
            steps, iterations, jacobians = solver_counts(statistics)
            self.stream.write(np.array([-1], dtype=INDEX).tobytes()
                              + binary_strings(FINISHED, time.strftime("%Y-%m-%d,%H:%M:%S"))
                              + binary_indices([int(failed), 1, 0, 0, steps, iterations, jacobians])
                              + binary_strings(END_OF_FILE))


def solver_counts(statistics) -> tuple:
    """(steps, Newton iterations, jacobians) of a solve's statistics (0 where it has none), for the footers."""
    return tuple(int(getattr(statistics, name, 0)) for name in ("steps", "newton_iterations",
                                                                "jacobian_evaluations"))


def binary_strings(*texts: str) -> bytes:
    """Strings as the binary file stores them: each its byte count (an index), then its UTF-8 bytes."""
    encoded = [text.encode("utf-8") for text in texts]
    return b"".join(np.array([len(data)], dtype=INDEX).tobytes() + data for data in encoded)


def binary_indices(values) -> bytes:
    """An index array as the binary file stores it: its length, then its entries."""
    return np.array([len(values), *values], dtype=INDEX).tobytes()


def row_record(n_values: int, real: np.dtype, index: np.dtype = INDEX) -> np.dtype:
    """The packed record of one row in the binary file: the index ``n_values`` (time included), then the reals."""
    return np.dtype([("count", index), ("values", real, (n_values,))])


class _Cursor:
    """Reads a binary solution file's bytes in order; raises EOFError where the bytes end before a value does."""

    def __init__(self, data: bytes, index: np.dtype):
        self.data, self.offset, self.index = data, 0, index

    def take(self, dtype: np.dtype, count: int = 1) -> np.ndarray:
        size = dtype.itemsize * count
        if count < 0 or self.offset + size > len(self.data):
            raise EOFError(self.offset)
        values = np.frombuffer(self.data, dtype=dtype, count=count, offset=self.offset)
        self.offset += size
        return values

    def integer(self) -> int:
        return int(self.take(self.index)[0])

    def integers(self) -> list:
        return [int(n) for n in self.take(self.index, self.integer())]

    def string(self) -> str:
        return self.take(np.dtype("u1"), self.integer()).tobytes().decode("utf-8", errors="replace")


def read_binary_solution_file(path, max_rows: int = -1, safe_mode: bool = False) -> dict:
    """Everything in a binary coordinates solution file (floatframe's or Exudyn's).

    Returns a dict: 'typeSizes' ([index, real, pointer] bytes), 'bigEndian', the header's 'version', 'mode',
    'solver', 'started', 'systemSizes' ([nODE2, nODE1, nAlgebraic, nData]), 'columnsExported' (the seven written
    counts), 'totalColumns', 'plannedSteps', 'information'; 'data' ((rows, 1 + totalColumns) in the file's real type:
    time, then the written coordinates; at most ``max_rows`` rows where it is not -1); 'footer' (None where the file
    has no end marker, else 'finished' and 'solverInfo', the seven counts of the footer).

    Raises ValueError for a file that is not one, has no whole header, or a row of another size; for a row cut off
    (a solve that stopped while writing) unless ``safe_mode``, which keeps the whole rows before it. A file whose
    rows end without the end marker (written without footer, or cut off between rows) is read with a warning.
    """
    path = str(path)
    with open(path, "rb") as stream:
        content = stream.read()
    if content[:6] != BINARY_MARK or len(content) < 16:
        raise ValueError(f"LoadBinarySolutionFile: '{path}' is no binary solution file (it does not start with "
                         f"EXUBIN and the 10 bytes of type sizes)")
    index_size, real_size, pointer_size, big_endian = content[7:11]
    if index_size not in (4, 8) or real_size not in (4, 8):
        raise ValueError(f"LoadBinarySolutionFile: '{path}' has an index of {index_size} bytes and a real of "
                         f"{real_size}; the file has 4 or 8 for both")
    order = ">" if big_endian else "<"
    index, real = np.dtype(f"{order}i{index_size}"), np.dtype(f"{order}f{real_size}")
    cursor = _Cursor(content, index)
    cursor.offset = 16
    try:
        result = {"typeSizes": [index_size, real_size, pointer_size], "bigEndian": bool(big_endian),
                  "version": cursor.string(), "mode": cursor.string(), "solver": cursor.string(),
                  "started": cursor.string(), "systemSizes": cursor.integers(), "columnsExported": cursor.integers(),
                  "totalColumns": cursor.integer(), "plannedSteps": cursor.integer(),
                  "information": cursor.string()}
        end_of_header = cursor.string()
    except EOFError as cut:
        raise ValueError(f"LoadBinarySolutionFile: '{path}' ends at byte {len(content)} within its header "
                         f"(byte {cut.args[0]})") from None
    if end_of_header != END_OF_HEADER:
        raise ValueError(f"LoadBinarySolutionFile: '{path}' has no '{END_OF_HEADER}' after its header (found "
                         f"{end_of_header[:20]!r}): not a solution file of this layout")
    n_values = sum(result["columnsExported"]) + 1
    record = row_record(n_values, real, index)
    whole = (len(content) - cursor.offset) // record.itemsize
    records = np.frombuffer(content, dtype=record, count=whole, offset=cursor.offset)
    other = np.flatnonzero(records["count"] != n_values)
    n_rows = int(other[0]) if other.size else whole
    if 0 <= max_rows < n_rows:
        n_rows = max_rows
    result["data"] = records["values"][:n_rows].astype(real.newbyteorder("="))
    result["footer"] = None
    if n_rows == max_rows:
        return result
    cursor.offset += n_rows * record.itemsize
    remaining = len(content) - cursor.offset
    try:
        count = cursor.integer() if remaining else None
    except EOFError:
        count = n_values   # a few bytes of the next row's count
    if count == -1:
        result["footer"] = {}
        try:
            cursor.string()   # 'simulation finished='
            result["footer"]["finished"] = cursor.string()
            result["footer"]["solverInfo"] = cursor.integers()
        except EOFError:
            pass              # the rows are whole: a footer cut off loses no data
        return result
    if count is not None and count != n_values:
        raise ValueError(f"LoadBinarySolutionFile: '{path}': row {n_rows} has {count} values where the header "
                         f"gives {n_values} (time included)")
    if count is not None and not safe_mode:
        raise ValueError(f"LoadBinarySolutionFile: '{path}' is cut off within row {n_rows} (at byte "
                         f"{len(content)}), as by a solve that stopped while writing; safeMode=True reads the "
                         f"{n_rows} whole rows before it")
    warnings.warn(f"LoadBinarySolutionFile: '{path}' ends after its {n_rows} rows without the end marker (-1): "
                  f"written without footer, or cut off between rows", RuntimeWarning, stacklevel=3)
    return result
