"""A study's record: one SQLite database (the standard library's sqlite3) that holds the study's identity and one
typed row per finished sample, written in one transaction per row, with the CSV or Parquet file written from it
as an export.

The record of ``output/study.csv`` (or ``.parquet``) is ``output/study.sqlite``; an output ending in ``.sqlite``
is the record alone. SQLite makes each row one transaction: a process killed at any moment leaves the rows
committed before, never half a row, and the sample whose row was cut is run again on resume. The exports are
written to ``NAME.partial`` and renamed over the file, so they are always whole too.
"""
from __future__ import annotations

import contextlib
import json
import math
import os
import sqlite3
import time
from pathlib import Path

from floatframe.study.errors import StudyError

#: the columns after the parameters and outputs: run time [s], "ok" / "failed" / "timeout", the failure's cause
OUTPUT_COLUMNS = ("wall_time", "status", "error")
STATUSES = ("ok", "failed", "timeout")
#: the record's layout; a record of another format is refused
RECORD_FORMAT = 1
#: seconds between two exports while a study runs (the export is also written when the study ends)
EXPORT_INTERVAL = 1.0
EXPORT_SUFFIXES = (".csv", ".parquet")
RECORD_SUFFIX = ".sqlite"


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def record_path(output) -> Path:
    """The record of the output file ``output``: ``output`` itself for a ``.sqlite`` file, else the ``.sqlite``
    file of the same name beside it."""
    output = Path(output)
    return output if output.suffix == RECORD_SUFFIX else output.with_suffix(RECORD_SUFFIX)


class StudyRecord:
    """The record of one study: its identity and its rows, in a SQLite database, with the CSV/Parquet export.

    The identity is the study function (:func:`~floatframe.study.functions.function_identity`), the parameter
    names, the sampler (:class:`~floatframe.study.samples.Samples`, without the number of samples) and, once
    the first run succeeded, the output names. Parameters, outputs and ``wall_time`` are REAL columns (a
    missing output, as in a failed row, is NULL and reads as NaN), ``status`` and ``error`` TEXT; the parameter
    values are unique.

    Parameters
    ----------
    output : str, Path or None
        ``.csv``, ``.parquet`` (an export beside the record ``.sqlite``) or ``.sqlite`` (the record only); None
        keeps the record in memory.
    identity : dict
        ``{"function": str, "parameters": [str, ...], "sampler": str}``.
    resume : bool, default False
        Continue the study in an existing record (refused if its identity differs).
    restart : bool, default False
        Delete an existing record and export and start over.

    Raises
    ------
    StudyError
        Before any run: an output of another suffix; a place that cannot be written (naming the path and the
        reason); an existing record without ``resume`` or ``restart``; a record of another study, or one that
        is not a study record, with ``resume``; an export without a record beside it, unless ``restart``.
    """

    #: SQLite's write-ahead log with ``synchronous = NORMAL``: a commit is a write to the log, fsync'ed at
    #: checkpoints; a killed process loses no committed row (a power cut may lose the last ones, never the file).
    #: 47-57 us a row against 0.8-16 ms with the rollback journal and FULL synchronisation
    #: (python benchmarks/study_store.py, docs/performance.md).
    JOURNAL_MODE = "WAL"
    SYNCHRONOUS = "NORMAL"

    def __init__(self, output, identity: dict, *, resume: bool = False, restart: bool = False):
        if resume and restart:
            raise StudyError("run_study: give resume=True or restart=True, not both")
        self.identity = {"function": identity["function"], "parameters": list(identity["parameters"]),
                         "sampler": identity["sampler"]}
        self.parameters = self.identity["parameters"]
        self.outputs: list[str] | None = None
        self._created = False
        self._made_folders: list[Path] = []
        self.export_path = None
        self._exported_at = -math.inf
        if output is None:
            self.path = None
            self.connection = sqlite3.connect(":memory:", isolation_level=None)
            self._create(self.connection)
            return
        output = Path(output)
        if output.suffix not in (*EXPORT_SUFFIXES, RECORD_SUFFIX):
            raise StudyError(f"run_study: output {output} must end in .csv, .parquet or .sqlite, not "
                             f"'{output.suffix}'")
        if output.suffix == ".parquet":
            from floatframe.optional import require
            require("pyarrow", f"run_study's output {output}", "study")
        self.path = record_path(output)
        self.export_path = output if output.suffix in EXPORT_SUFFIXES else None
        self._check_place(output)
        exists = self.path.exists()
        if restart:
            for path in (self.path, *self._sidecars, self.export_path):
                if path is not None and path.exists():
                    path.unlink()
        elif exists and not resume:
            raise StudyError(f"run_study: {self.path} already holds a study ({self._describe_file()}); give "
                             f"resume=True (floatframe study --resume) to run only the samples without a row, or "
                             f"restart=True (--restart) to start over")
        elif not exists and self.export_path is not None and self.export_path.exists():
            raise StudyError(f"run_study: {self.export_path} exists but has no study record {self.path} beside "
                             f"it; give restart=True (floatframe study --restart) to replace it, or another output")
        self.connection = None
        try:
            if restart or not exists:
                self._create_file()
            self.connection = sqlite3.connect(self.path, isolation_level=None, timeout=10.0)
            self.connection.execute(f"PRAGMA journal_mode = {self.JOURNAL_MODE}")
            self.connection.execute(f"PRAGMA synchronous = {self.SYNCHRONOUS}")
            self._open_existing()
            self._check_export_writable()
        except BaseException as error:
            if self.connection is not None:
                self.connection.close()
            if isinstance(error, sqlite3.DatabaseError) and exists and not restart:
                raise StudyError(f"run_study: {self.path} is not a study record that can be read and written "
                                 f"({type(error).__name__}: {error}); give restart=True (--restart) to replace "
                                 f"it") from None
            if isinstance(error, (OSError, sqlite3.DatabaseError)):
                raise StudyError(f"run_study: cannot write the study's output {output} "
                                 f"({type(error).__name__}: {error})") from None
            raise

    # --- opening ---------------------------------------------------------------------------------
    @property
    def _sidecars(self) -> list[Path]:
        """SQLite's journal files beside the record (present while it is open, or after a crash)."""
        return [self.path.with_name(self.path.name + suffix) for suffix in ("-journal", "-wal", "-shm")]

    def _check_place(self, output: Path) -> None:
        """The record and the export can be written (``floatframe.paths.check_output_file``: not under a regular
        file, not a folder, in a folder that takes files); then the output's folder is made."""
        from floatframe.paths import OutputPathError, check_output_file

        try:
            for path in (self.export_path, self.path):
                if path is not None:
                    check_output_file(path, "run_study")
            missing = [folder for folder in [self.path.parent, *self.path.parent.parents] if not folder.exists()]
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._made_folders = missing
        except OSError as error:
            message = str(error) if isinstance(error, OutputPathError) else \
                f"run_study: cannot write the study's output {output} ({type(error).__name__}: {error})"
            raise StudyError(message) from None

    def _check_export_writable(self) -> None:
        if self.export_path is not None:
            partial = self._partial
            with open(partial, "wb"):
                pass
            partial.unlink()

    @property
    def _partial(self) -> Path:
        return self.export_path.with_name(self.export_path.name + ".partial")

    def _describe_file(self) -> str:
        """'N rows of FUNCTION over PARAMETERS' of the record at ``self.path``, or why it cannot be read."""
        try:
            with sqlite3.connect(f"file:{self.path}?mode=ro", uri=True) as connection:
                stored = dict(connection.execute("SELECT name, value FROM identity").fetchall())
                count = connection.execute("SELECT count(*) FROM rows").fetchone()[0]
            connection.close()
            return (f"{count} rows of {json.loads(stored['function'])} over "
                    f"{', '.join(json.loads(stored['parameters']))}")
        except (sqlite3.DatabaseError, KeyError, ValueError) as error:
            return f"which cannot be read as a study record: {type(error).__name__}: {error}"

    def _create(self, connection) -> None:
        """The tables of an empty record, and its identity, in one transaction on ``connection``."""
        self._check_names(self.parameters, "parameter")
        columns = ", ".join([*(f"{_quoted(name)} REAL NOT NULL" for name in self.parameters),
                             "wall_time REAL", "status TEXT NOT NULL", "error TEXT NOT NULL",
                             f"UNIQUE ({', '.join(map(_quoted, self.parameters))})"])
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("CREATE TABLE identity (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        connection.execute(f"CREATE TABLE rows ({columns})")
        stored = {**self.identity, "outputs": None, "format": RECORD_FORMAT}
        connection.executemany("INSERT INTO identity VALUES (?, ?)",
                               [(name, json.dumps(value)) for name, value in stored.items()])
        connection.execute("COMMIT")

    def _create_file(self) -> None:
        """A new record made under a temporary name and renamed into place, so that a process killed meanwhile
        leaves no record without its tables."""
        fresh = self.path.with_name(self.path.name + ".new")
        for path in (fresh, fresh.with_name(fresh.name + "-journal")):
            path.unlink(missing_ok=True)
        connection = sqlite3.connect(fresh, isolation_level=None)
        try:
            self._create(connection)
        finally:
            connection.close()
        os.replace(fresh, self.path)
        self._created = True

    def _open_existing(self) -> None:
        try:
            stored = {name: json.loads(value)
                      for name, value in self.connection.execute("SELECT name, value FROM identity")}
            count = self.connection.execute("SELECT count(*) FROM rows").fetchone()[0]
        except (sqlite3.DatabaseError, ValueError) as error:
            raise sqlite3.DatabaseError(f"no study identity ({error})") from None
        if stored.get("format") != RECORD_FORMAT:
            raise StudyError(f"run_study: {self.path} is a study record of format {stored.get('format')!r}, this "
                             f"floatframe writes format {RECORD_FORMAT}; give restart=True (--restart) to start over")
        differences = [f"{name} {stored.get(name)!r} (this study: {value!r})" for name, value in self.identity.items()
                       if stored.get(name) != value]
        if differences:
            raise StudyError(f"run_study: {self.path} holds {count} rows of another study: its "
                             f"{'; '.join(differences)}; give restart=True (floatframe study --restart) to start "
                             f"over, or another output")
        self.outputs = stored.get("outputs")

    @staticmethod
    def _check_names(names, kind: str) -> None:
        taken = {name.lower() for name in OUTPUT_COLUMNS}
        for name in names:
            if not isinstance(name, str) or not name:
                raise StudyError(f"run_study: the {kind} name {name!r} is not a non-empty string")
            if name.lower() in taken:
                raise StudyError(f"run_study: the {kind} name {name!r} is taken (by the table's own columns or, "
                                 f"in any case of letters, by another name)")
            taken.add(name.lower())

    # --- writing ---------------------------------------------------------------------------------
    def _transaction(self):
        connection = self.connection

        class Transaction:
            def __enter__(self):
                connection.execute("BEGIN IMMEDIATE")

            def __exit__(self, kind, value, traceback):
                connection.execute("COMMIT" if kind is None else "ROLLBACK")
        return Transaction()

    def keys(self) -> set:
        """The parameter values (tuples of floats in the order of the parameters) that have a row."""
        names = ", ".join(map(_quoted, self.parameters))
        return {tuple(row) for row in self.connection.execute(f"SELECT {names} FROM rows")}

    def add(self, row: dict) -> dict:
        """Write one finished row in one transaction; returns the row as written.

        The first "ok" row fixes the study's output names (new REAL columns); a later "ok" row with other
        output names is written as a failed row that names both lists.
        """
        row = dict(row)
        outputs = [name for name in row if name not in self.parameters and name not in OUTPUT_COLUMNS]
        if row["status"] == "ok" and self.outputs is not None and outputs != self.outputs:
            row = {**{name: row[name] for name in self.parameters}, "wall_time": row["wall_time"],
                   "status": "failed", "error": f"ValueError: the run returned the outputs {outputs}, the study's "
                                                f"first runs {self.outputs}"}
            outputs = []
        if row["status"] != "ok":
            outputs = []
        with self._transaction():
            if row["status"] == "ok" and self.outputs is None:
                try:
                    self._check_names([*self.parameters, *outputs], "output")
                except StudyError as error:
                    row = {**{name: row[name] for name in self.parameters}, "wall_time": row["wall_time"],
                           "status": "failed", "error": f"ValueError: {str(error).removeprefix('run_study: ')}"}
                    outputs = []
                else:
                    for name in outputs:
                        self.connection.execute(f"ALTER TABLE rows ADD COLUMN {_quoted(name)} REAL")
                    self.connection.execute("UPDATE identity SET value = ? WHERE name = 'outputs'",
                                            (json.dumps(outputs),))
                    self.outputs = outputs
            columns = [*self.parameters, *outputs, *OUTPUT_COLUMNS]
            values = [float(row[name]) for name in [*self.parameters, *outputs, "wall_time"]]
            values += [str(row["status"]), str(row.get("error") or "")]
            try:
                self.connection.execute(f"INSERT INTO rows ({', '.join(map(_quoted, columns))}) "
                                        f"VALUES ({', '.join('?' * len(columns))})", values)
            except sqlite3.IntegrityError as error:
                if "UNIQUE" not in str(error):
                    raise
                raise StudyError(f"run_study: {self.path} already has a row for "
                                 f"{dict(zip(self.parameters, values))}; is another process writing this study?") \
                    from None
        return {name: value for name, value in zip(columns, values)}

    # --- reading and export ----------------------------------------------------------------------
    def table(self):
        """All rows in the order they were written, as a pandas DataFrame: the parameters, the outputs and
        ``wall_time`` as float64 (NaN where a failed row has no output), ``status`` and ``error`` as str."""
        import pandas as pd

        columns = [*self.parameters, *(self.outputs or []), *OUTPUT_COLUMNS]
        cursor = self.connection.execute(f"SELECT {', '.join(map(_quoted, columns))} FROM rows ORDER BY rowid")
        frame = pd.DataFrame.from_records(cursor.fetchall(), columns=columns)
        return frame.astype({name: "float64" for name in columns[:-2]} | {"status": str, "error": str})

    def export(self, force: bool = False) -> None:
        """Write the CSV or Parquet export from the record (to ``NAME.partial``, then renamed over the file):
        with ``force``, or when the last one is ``EXPORT_INTERVAL`` seconds old."""
        if self.export_path is None or (not force and time.monotonic() - self._exported_at < EXPORT_INTERVAL):
            return
        table = self.table()
        partial = self._partial
        if self.export_path.suffix == ".csv":
            table.to_csv(partial, index=False)
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq

            arrow = pa.Table.from_pandas(table, preserve_index=False)
            identity = {**self.identity, "outputs": self.outputs, "format": RECORD_FORMAT}
            metadata = {**(arrow.schema.metadata or {}), b"floatframe.study": json.dumps(identity).encode()}
            pq.write_table(arrow.replace_schema_metadata(metadata), partial)
        os.replace(partial, self.export_path)
        self._exported_at = time.monotonic()

    def close(self, export: bool = False) -> None:
        """Close the record; with ``export``, write the export first if the record has rows. A record made by
        this object that has no row (a study that stopped before its first row) is deleted with its journal."""
        count = self.connection.execute("SELECT count(*) FROM rows").fetchone()[0]
        if export and count:
            self.export(force=True)
        self.connection.close()
        if self.path is not None and self._created and not count:
            for path in (self.path, *self._sidecars):
                path.unlink(missing_ok=True)
            for folder in self._made_folders:          # deepest first; only folders this record made, if empty
                with contextlib.suppress(OSError):
                    folder.rmdir()


def read_study(path):
    """A study's table from its output file, typed as :func:`run_study` returns it.

    Parameters
    ----------
    path : str or Path
        The ``.sqlite`` record, or a ``.csv`` / ``.parquet`` export. An export is read from the record beside
        it when there is one (the export may be up to ``EXPORT_INTERVAL`` s older), else from the file itself:
        every column but ``status`` and ``error`` as float64.

    Returns
    -------
    pandas.DataFrame
        The parameters, the outputs, ``wall_time``, ``status``, ``error``, in the order the rows were written.
    """
    import pandas as pd

    path = Path(path)
    record = record_path(path)
    if record.is_file():
        with sqlite3.connect(f"file:{record}?mode=ro", uri=True) as connection:
            stored = {name: json.loads(value) for name, value in connection.execute("SELECT name, value FROM identity")}
            columns = [*stored["parameters"], *(stored["outputs"] or []), *OUTPUT_COLUMNS]
            rows = connection.execute(f"SELECT {', '.join(map(_quoted, columns))} FROM rows ORDER BY rowid").fetchall()
        connection.close()
        frame = pd.DataFrame.from_records(rows, columns=columns)
    elif path.suffix == ".parquet":
        frame = pd.read_parquet(path)
    else:
        frame = pd.read_csv(path, dtype={"status": str, "error": str}, keep_default_na=False,
                            float_precision="round_trip")
    numbers = [name for name in frame.columns if name not in ("status", "error")]
    frame[numbers] = frame[numbers].replace("", float("nan"))
    return frame.astype({name: "float64" for name in numbers} | {"status": str, "error": str})
