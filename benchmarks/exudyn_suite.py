"""Exudyn's own test suite and flexible-body Examples, run on exudyn and on floatframe.exudyn by changing imports.

    python benchmarks/exudyn_suite.py [--repository PATH] [--only NAME,...] [--timeout S] [--output DIR] [--warm]
                                      [--repeat N] [--repeat-below S] [--without-solution-file]

The scripts come from a copy of Exudyn's public repository (https://github.com/jgerstmayr/EXUDYN): the top level
and ``MiniExamples`` of ``main/pythonDev/TestModels`` and the flexible-body scripts of ``main/pythonDev/Examples``
(those that name FFRF, FEMinterface or CMSobject, and flexibleRotor3Dtest). The copy is a checkout (a folder with
``main/pythonDev``) or a bare git directory (read with ``git show``); ``--repository`` or EXUDYN_REPOSITORY names it.
Where there is none, the runner says so and exits with 0.

Each script runs twice, each time in its own subprocess with a time limit, from a folder holding the repository's
``testData``: once as it is on exudyn, once on floatframe with only its imports switched (``exudyn`` ->
``floatframe.exudyn``). Both runs get the same adjustments for names of Exudyn 1.11 (whose scripts the repository
holds) that 1.13.6 no longer has (``ADJUSTMENTS``, ``PREAMBLE``), ``useGraphics = False``, a ``modelUnitTests``
module as Exudyn's test suite provides it, matplotlib without windows and an empty ``netgen.gui`` (netgen's window). On
exudyn the renderer calls are no-ops (Exudyn aborts without a display); floatframe's are already.

Recorded per script and code: ran, refused (floatframe's ExudynLayerError or ModelError: the first line of its
message, after "out of scope (<scope>)" where the error names one of the scopes of docs/exudyn.md, "Out of scope"), crashed (the exception type and where), timeout; the result (``exudynTestGlobals.testResult``, else the
ODE2 coordinates after the last solve) and the relative difference max|ours - exudyn's| / max|exudyn's| (for ODE2
coordinates that are zero to round-off, a model at rest, the gap itself: ``relative_difference``); the time
spent inside SolveDynamic/SolveStatic (with ``--warm``: of floatframe's second run of the script on the machine,
whose first run compiled its kernels ahead, FLOATFRAME_COMPILE_AHEAD=1; the first run's time is listed beside it;
with ``--without-solution-file``: both codes' solves without the coordinates solution file that they write by
default (the solver alone); with ``--repeat N``: the median of N timed runs of each code where a run solves in less than ``--repeat-below``
seconds, as the machine's noise decides ratios near 1 of millisecond solves). Written to
``<output>/exudyn_suite.md`` and ``.csv`` (default ``output/exudyn-suite``).
"""
from __future__ import annotations

import argparse
import csv
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

DEFAULT_REPOSITORY = "/work/.mirror/jgerstmayr+EXUDYN/repo"
TEST_MODELS = "main/pythonDev/TestModels"
EXAMPLES = "main/pythonDev/Examples"
NOT_MODELS = {"modelUnitTests.py", "runTestSuite.py", "runTestSuiteRefSol.py", "runUnitTests.py",
              "runPerformanceTests.py", "runTestExamples.py"}
FLEXIBLE = re.compile(r"FFRF|FEMinterface|CMSobject")
EXTRA_EXAMPLES = ("flexibleRotor3Dtest.py",)
AGREE = 1e-5   # relative difference counted as agreement in the summary
OUT_OF_SCOPE_MARK = "outside floatframe's scope"   # floatframe.exudyn's refusals of an out-of-scope feature say this
OUT_OF_SCOPE_PREFIX = "out of scope"               # ... and the record's message then starts with this
ROUND_OFF_DISPLACEMENT = 1e-12   # displacements [m, rad, 1] this small are round-off of a model at rest
NO_SOLUTION_FILE = "EXUDYN_SUITE_NO_SOLUTION_FILE"   # set: the solves write no coordinates solution file

# Exudyn 1.11 names that Exudyn 1.13.6 no longer has, applied to the script text for both codes alike
ADJUSTMENTS = [(re.compile(r"([(,]\s*)(bodyOrNodeList|bodyList)\s*=(?!=)"), r"\1itemNumbers="),  # keywords only
               (re.compile(r"\bNodePoint3DSlope(1|23)\b"), r"NodePointSlope\1"),
               (re.compile(r"^from exudyn\.basicUtilities import NormL2\b.*$", re.MULTILINE),
                "from exudyn.basicUtilities import *")]
# graphics-data functions of 1.11 and their names in 1.13.6's exudyn.graphics (same arguments)
GRAPHICS_DATA = {"AddEdgesAndSmoothenNormals": "AddEdgesAndSmoothenNormals", "GraphicsDataOrthoCubePoint": "Brick", "GraphicsDataOrthoCube": "BrickXYZ", "GraphicsDataCube": "Cuboid",
                 "GraphicsDataSphere": "Sphere", "GraphicsDataCylinder": "Cylinder", "GraphicsDataArrow": "Arrow",
                 "GraphicsDataBasis": "Basis", "GraphicsDataFrame": "Frame", "GraphicsDataCheckerBoard": "CheckerBoard",
                 "GraphicsDataQuad": "Quad", "GraphicsDataLine": "Lines", "GraphicsDataCircle": "Circle",
                 "GraphicsDataText": "Text", "GraphicsDataRigidLink": "RigidLink",
                 "GraphicsDataSolidOfRevolution": "SolidOfRevolution", "GraphicsDataSolidExtrusion": "SolidExtrusion",
                 "GraphicsDataFromPointsAndTrigs": "FromPointsAndTrigs", "GraphicsDataFromSTLfileTxt": "FromSTLfileASCII",
                 "GraphicsDataFromSTLfile": "FromSTLfile"}
# defined after the script's imports for both codes alike: what 1.11's ``from exudyn.utilities import *`` gave
PREAMBLE = '''
#+++ exudyn_suite: names of Exudyn 1.11's utilities that 1.13.6 no longer exports (the same for both codes)
import exudyn
from exudyn.graphicsDataUtilities import *
import exudyn.graphics as _graphics_of_1_13
try:
    from exudyn.beams import *
except ImportError:
    pass
for _old, _new in %r.items():
    if _old not in globals() and hasattr(_graphics_of_1_13, _new):
        globals()[_old] = getattr(_graphics_of_1_13, _new)
import numpy as np
from math import sqrt, sin, cos, tan, asin, acos, atan, atan2, exp, log, pi
def NormL2(vector): return float(np.linalg.norm(vector))
def VAdd(v0, v1): return [a + b for a, b in zip(v0, v1)]
def VSub(v0, v1): return [a - b for a, b in zip(v0, v1)]
def VMult(v0, v1): return sum(a * b for a, b in zip(v0, v1))
def ScalarMult(scalar, v): return [scalar * a for a in v]
def Vec2Tilde(v): return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
def Tilde2Vec(m): return [-m[1][2], m[0][2], -m[0][1]]
def VSum(vector): return sum(vector)
#+++
''' % GRAPHICS_DATA


# --- the repository copy --------------------------------------------------------------------------------------------
class Repository:
    """A checkout (folder with main/pythonDev) or a bare git directory of Exudyn's repository."""

    def __init__(self, path: Path):
        self.path = path
        self.git = (path / "HEAD").is_file() and (path / "objects").is_dir()

    @staticmethod
    def find(given: str | None):
        """The repository at ``given`` (or EXUDYN_REPOSITORY, or the mirror's place), None where it is absent."""
        path = Path(given or os.environ.get("EXUDYN_REPOSITORY") or DEFAULT_REPOSITORY)
        repository = Repository(path)
        return repository if repository.git or (path / "main" / "pythonDev").is_dir() else None

    def _git(self, *arguments, binary=False):
        return subprocess.run(["git", f"--git-dir={self.path}", *arguments], check=True, capture_output=True,
                              text=not binary).stdout

    def files(self, folder: str) -> list[str]:
        """The file names (not folders) directly in ``folder``."""
        if self.git:
            listing = self._git("ls-tree", "HEAD", folder + "/")
            return sorted(line.split("\t")[1].rsplit("/", 1)[-1] for line in listing.splitlines()
                          if line.split()[1] == "blob")
        return sorted(p.name for p in (self.path / folder).iterdir() if p.is_file())

    def read(self, path: str) -> str:
        if self.git:
            return self._git("show", f"HEAD:{path}")
        return (self.path / path).read_text(errors="replace")

    def extract(self, folder: str, destination: Path) -> bool:
        """Copy ``folder`` to ``destination`` (False where the copy has no such folder)."""
        if self.git:
            try:
                archive = self._git("archive", "--format=tar", "HEAD", folder, binary=True)
            except subprocess.CalledProcessError:
                return False
            with tempfile.TemporaryFile() as stream:
                stream.write(archive)
                stream.seek(0)
                with tarfile.open(fileobj=stream) as tar:
                    tar.extractall(destination / "_archive", filter="data")
            shutil.move(str(destination / "_archive" / folder), str(destination / Path(folder).name))
            shutil.rmtree(destination / "_archive")
            return True
        source = self.path / folder
        if not source.is_dir():
            return False
        shutil.copytree(source, destination / source.name)
        return True


def select_scripts(repository: Repository, only=None) -> list[tuple[str, str]]:
    """[(group, repository path)] of the suite's scripts: TestModels, MiniExamples, flexible Examples."""
    scripts = [("TestModels", f"{TEST_MODELS}/{name}") for name in repository.files(TEST_MODELS)
               if name.endswith(".py") and name not in NOT_MODELS]
    scripts += [("MiniExamples", f"{TEST_MODELS}/MiniExamples/{name}")
                for name in repository.files(f"{TEST_MODELS}/MiniExamples")
                if name.endswith(".py") and name != "miniExamplesFileList.py"]   # a list of the others
    for name in repository.files(EXAMPLES):
        path = f"{EXAMPLES}/{name}"
        if name.endswith(".py") and (name in EXTRA_EXAMPLES or FLEXIBLE.search(repository.read(path))):
            scripts.append(("Examples", path))
    if only:
        wanted = {name.removesuffix(".py") for name in only}
        scripts = [(group, path) for group, path in scripts if Path(path).stem in wanted]
    return scripts


# --- the script text ------------------------------------------------------------------------------------------------
IMPORT = re.compile(r"^(?P<indent>[ \t]*)(?P<statement>import exudyn\b.*|from exudyn\b.*)$", re.MULTILINE)


def switch_import(match) -> str:
    """One import line of exudyn as the same import of floatframe.exudyn, binding the same names."""
    indent, statement = match.group("indent"), match.group("statement")
    code, comment = (statement.split("#", 1) + [""])[:2]
    code = code.rstrip()
    if code.startswith("from "):
        return indent + code.replace("from exudyn", "from floatframe.exudyn", 1)
    parts = [part.strip() for part in code[len("import "):].split(",")]
    lines = []
    for part in parts:
        module, _, alias = part.partition(" as ")
        module, alias = module.strip(), alias.strip()
        if not module.startswith("exudyn"):
            lines.append(f"import {part}")
        elif alias:
            lines.append(f"import floatframe.{module} as {alias}")
        elif module == "exudyn":
            lines.append("import floatframe.exudyn as exudyn")
        else:                                   # import exudyn.plot: the package as exudyn, the module loaded
            lines.append(f"import floatframe.{module}; import floatframe.exudyn as exudyn")
    return indent + "; ".join(lines)


def adjusted(text: str) -> str:
    """The script with the 1.11-name adjustments and graphics off, the same for both codes."""
    for pattern, replacement in ADJUSTMENTS:
        text = pattern.sub(replacement, text)
    text = re.sub(r"^(\s*useGraphics\s*=\s*)True\b", r"\1False", text, flags=re.MULTILINE)
    imports = list(re.finditer(r"^(import exudyn\b|from exudyn\b).*$", text, flags=re.MULTILINE))
    if imports:
        end = imports[-1].end()
        text = text[:end] + "\n" + PREAMBLE + text[end:]
    return text


def for_floatframe(text: str) -> str:
    """Only the import lines switched to floatframe.exudyn."""
    return IMPORT.sub(switch_import, text)


# --- one run, in the child process ------------------------------------------------------------------------------
def child(spec_path: str) -> None:
    """Run one prepared script (spec: script, code, result file) and write what happened as JSON."""
    import contextlib
    import io
    import runpy
    import traceback
    import types

    spec = json.loads(Path(spec_path).read_text())
    script, code = spec["script"], spec["code"]
    record = {"status": "ran", "message": "", "solve_time": 0.0, "solves": 0, "result": None, "result_source": ""}
    test_globals = types.SimpleNamespace(useGraphics=False, performTests=True, testResult=None, testError=0.0,
                                         testTolFact=1, isPerformanceTest=False, useCorrectedAccGenAlpha=True,
                                         useNewGenAlphaSolver=True)
    sys.modules["modelUnitTests"] = types.SimpleNamespace(exudynTestGlobals=test_globals,
                                                          ExudynTestStructure=types.SimpleNamespace)
    os.environ["MPLBACKEND"] = "Agg"
    sys.modules["netgen.gui"] = types.ModuleType("netgen.gui")   # netgen's window, which needs a display
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        plt.show = lambda *arguments, **keywords: None
        plt.pause = lambda *arguments, **keywords: None
    except ImportError:
        pass
    last = {}
    depth = [0]

    def without_solution_file(arguments, keywords):
        """The arguments of SolveDynamic/SolveStatic with solutionSettings.writeSolutionToFile = False (the settings
        given, or the code's defaults)."""
        module = importlib.import_module("exudyn" if code == "exudyn" else "floatframe.exudyn")
        settings_type = type(module.SimulationSettings())   # (floatframe's SimulationSettings is a factory)
        given = [a for a in (*arguments, *keywords.values()) if isinstance(a, settings_type)]
        if given:
            given[0].solutionSettings.writeSolutionToFile = False
            return arguments, keywords
        settings = module.SimulationSettings()
        settings.solutionSettings.writeSolutionToFile = False
        return arguments, dict(keywords, simulationSettings=settings)

    no_solution_file = os.environ.get(NO_SOLUTION_FILE) == "1"

    def timed(function):
        def call(*arguments, **keywords):
            if no_solution_file and depth[0] == 0:
                arguments, keywords = without_solution_file(arguments, keywords)
            depth[0] += 1
            started = time.perf_counter()
            try:
                return function(*arguments, **keywords)
            finally:
                depth[0] -= 1
                if depth[0] == 0:
                    record["solve_time"] += time.perf_counter() - started
                    record["solves"] += 1
                    if arguments:
                        last["mbs"] = arguments[0]
        call.__wrapped__ = function
        return call

    if code == "exudyn":
        import exudyn
        import exudyn.solver
        module, main_system = exudyn, exudyn.MainSystem
        solve_modules = [exudyn, exudyn.solver]
        quiet = lambda *arguments, **keywords: None          # noqa: E731  (the renderer needs a display)
        renderer = type(exudyn.SystemContainer().renderer)
        for name in ("Start", "Stop", "DoIdleTasks", "Attach", "Detach", "SendRedrawSignal", "ZoomAll",
                     "RedrawAndSaveImage", "SetState", "DisableView", "EnableView"):
            if hasattr(renderer, name):
                setattr(renderer, name, quiet)
        for name in ("StartRenderer", "StopRenderer", "DoRendererIdleTasks"):
            setattr(exudyn, name, quiet)
        for name in ("WaitForRenderEngineStopFlag", "AttachToRenderEngine", "DetachFromRenderEngine",
                     "RenderEngineZoomAll"):
            setattr(exudyn.SystemContainer, name, quiet)
        try:
            import exudyn.interactive as interactive
            for name in ("SolutionViewer", "AnimateModes", "InteractiveDialog"):
                setattr(interactive, name, quiet)
            main_system.SolutionViewer = quiet
        except ImportError:
            pass
        refusals = ()
    else:
        import floatframe.exudyn as module
        from floatframe.components.base import ModelError
        from floatframe.exudyn import _analysis, _solve
        from floatframe.exudyn._names import ExudynLayerError
        main_system = module.MainSystem
        solve_modules = [module, _solve, _analysis]
        refusals = (ExudynLayerError, ModelError)
    for target in solve_modules:
        for name in ("SolveDynamic", "SolveStatic"):
            if hasattr(target, name):
                setattr(target, name, timed(getattr(target, name)))
    for name in ("SolveDynamic", "SolveStatic"):
        if hasattr(main_system, name):
            setattr(main_system, name, timed(getattr(main_system, name)))
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            runpy.run_path(script, run_name="__main__")
    except BaseException as exc:   # the script's own failure, whatever it is, is what is recorded
        if isinstance(exc, SystemExit) and not exc.code:
            pass
        else:
            frames = traceback.extract_tb(exc.__traceback__)
            own = [f for f in frames if f.filename == script]
            where = f"{Path(script).name}:{own[-1].lineno}" if own else ""
            inner = frames[-1] if frames else None
            if inner is not None and inner.filename != script:
                where += f" ({Path(inner.filename).name}:{inner.name})"
            first_line = (str(exc).strip().splitlines() or [""])[0][:200]
            scope = re.search(r"; ([^;]*): " + OUT_OF_SCOPE_MARK, str(exc))
            if isinstance(exc, refusals) and scope:
                record.update(status="refused", message=f"{OUT_OF_SCOPE_PREFIX} ({scope.group(1)}) {first_line}")
            elif isinstance(exc, refusals):
                record.update(status="refused", message=first_line)
            else:
                record.update(status="crashed", message=f"{type(exc).__name__} at {where}: {first_line}")
    result = test_globals.testResult
    if result is not None:
        record.update(result=numbers(result), result_source="testResult")
    elif "mbs" in last:
        try:
            result, source = basis_free_coordinates(last["mbs"], module)
            record.update(result=numbers(result), result_source=source)
        except Exception as exc:   # a system that cannot give its coordinates: no result to compare
            record["result_source"] = f"none ({type(exc).__name__})"
    record["printed"] = printed.getvalue()[-2000:]
    Path(spec["output"]).write_text(json.dumps(record))


def basis_free_coordinates(mbs, module):
    """(the ODE2 coordinates, 'ODE2'); where the system has ObjectFFRFreducedOrder bodies, their modal coordinates
    are replaced by the mesh displacements they give (mode basis times modal coordinates), as the modes' signs (and
    their basis in repeated eigenvalues) are arbitrary and differ between the codes' eigensolvers."""
    import numpy as np
    coordinates = np.asarray(mbs.systemData.GetODE2Coordinates(), dtype=float)
    offsets, start = [], 0
    nodes = mbs.systemData.NumberOfNodes()
    for number in range(nodes):
        node = mbs.GetNode(number)
        kind = str(node.get("nodeType", ""))
        size = 0 if kind.endswith(("PointGround", "GenericData")) else len(node.get("referenceCoordinates", []))
        offsets.append((start, size))
        start += size
    replaced = {}
    for number in range(mbs.systemData.NumberOfObjects()):
        item = mbs.GetObject(number)
        if str(item.get("objectType", "")).endswith("FFRFreducedOrder"):
            modal = int(item["nodeNumbers"][1])
            first, size = offsets[modal]
            field = np.asarray(item["modeBasis"], dtype=float) @ coordinates[first:first + size]
            replaced[first] = (size, field)
    if not replaced or start != coordinates.size:
        return coordinates, "ODE2"
    parts, position = [], 0
    for first in sorted(replaced):
        size, field = replaced[first]
        parts += [coordinates[position:first], field]
        position = first + size
    parts.append(coordinates[position:])
    return np.concatenate(parts), "ODE2, modal coordinates as mesh displacements"


def numbers(value):
    """A result as a flat list of floats (None where it is not numeric)."""
    import numpy as np
    try:
        array = np.asarray(value, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        return None
    return [float(x) for x in array]


# --- the parent: prepare, run, compare, write ----------------------------------------------------------------------
def run_warm(repository, data_folders, group, path, folder, timeout, repeat=1, below=1.0):
    """floatframe's record of a script's second run on this machine: a first run with FLOATFRAME_COMPILE_AHEAD=1
    (kernels whose compilation does not pay within one run are compiled in the background and cached) and, once
    its compilers have ended, the timed run (``timed_runs``: ``repeat`` of them where it is short). The first run's
    solve time is kept as ``first_solve_time``."""
    first = run_one(repository, data_folders, group, path, "floatframe", folder, timeout, compile_ahead=True)
    if first["status"] != "ran":
        return first
    second = timed_runs(lambda: run_one(repository, data_folders, group, path, "floatframe", folder, timeout),
                        repeat, below)
    second["first_solve_time"] = first.get("solve_time")
    return second


def timed_runs(run, repeat: int, below: float) -> dict:
    """``run()``'s record, run ``repeat`` times where its first solve took less than ``below`` seconds: the record
    of the median solve time (the machine is shared; a single run of a 1 ms solve varies by tens of percent),
    with all solve times in ``solve_times``."""
    records = [run()]
    if records[0]["status"] == "ran" and (records[0]["solve_time"] or 0.0) < below:
        records += [run() for _ in range(repeat - 1)]
    timed = sorted((record for record in records if record["status"] == "ran"), key=lambda r: r["solve_time"] or 0.0)
    if not timed or len(timed) < len(records):
        return records[0]
    chosen = dict(timed[(len(timed) - 1) // 2])
    chosen["solve_times"] = [record["solve_time"] for record in records]
    return chosen


def wait_for_session(process_group: int, limit: float) -> None:
    """Wait (at most ``limit`` s) until no process of the session ``process_group`` is left: compilers that a
    script started in the background outlive it."""
    ends = time.perf_counter() + limit
    while time.perf_counter() < ends:
        try:
            os.killpg(process_group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)


def run_one(repository, data_folders, group, path, code, folder, timeout, compile_ahead=False):
    """Prepare the script for ``code`` in ``folder`` and run it in a subprocess; the child's record. With
    ``compile_ahead`` (floatframe) the run compiles its kernels for later runs and this waits for the compilers."""
    name = Path(path).name
    work = folder / code / Path(path).stem
    (work / "solution").mkdir(parents=True, exist_ok=True)
    (work / Path(path).parent.name).mkdir(exist_ok=True)     # paths from pythonDev: TestModels/testData/...
    for data in data_folders.get(group, []):
        for link in (work / data.name, work / Path(path).parent.name / data.name):
            if not link.exists():
                link.symlink_to(data, target_is_directory=True)
    text = adjusted(repository.read(path))
    if code == "floatframe":
        text = for_floatframe(text)
    script = work / name
    script.write_text(text)
    spec = work / "spec.json"
    output = work / "record.json"
    spec.write_text(json.dumps({"script": str(script), "code": code, "output": str(output)}))
    started = time.perf_counter()
    environment = dict(os.environ, MPLBACKEND="Agg", OMP_NUM_THREADS="1", PYTHONWARNINGS="ignore")
    environment.pop("DISPLAY", None)
    if compile_ahead:
        environment["FLOATFRAME_COMPILE_AHEAD"] = "1"
    try:
        with open(work / "log.txt", "w") as log:
            process = subprocess.Popen([sys.executable, __file__, "--child", str(spec)], cwd=work, stdout=log,
                                       stderr=subprocess.STDOUT, env=environment, start_new_session=compile_ahead)
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                raise
        if compile_ahead:
            wait_for_session(process.pid, timeout)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "message": f"more than {timeout:g} s", "solve_time": None, "result": None,
                "result_source": "", "wall_time": timeout}
    if not output.exists():
        tail = (work / "log.txt").read_text(errors="replace").strip().splitlines()[-1:] or ["no output"]
        return {"status": "crashed", "message": f"the process ended without a record: {tail[0][:200]}",
                "solve_time": None, "result": None, "result_source": "", "wall_time": time.perf_counter() - started}
    record = json.loads(output.read_text())
    record["wall_time"] = time.perf_counter() - started
    return record


def relative_difference(ours, reference, source="testResult"):
    """max|ours - reference| / max|reference| (None where either is missing or the sizes differ).

    Where the result is ODE2 coordinates (displacements from the reference configuration) that are zero to round-off
    (max|reference| <= ROUND_OFF_DISPLACEMENT: a model that stays at rest), the gap itself, as where they are zero."""
    if ours is None or reference is None or len(ours) != len(reference) or not reference:
        return None
    scale = max(abs(x) for x in reference)
    gap = max(abs(a - b) for a, b in zip(ours, reference))
    at_rest = source.startswith("ODE2") and scale <= ROUND_OFF_DISPLACEMENT
    return gap / scale if scale > 0 and not at_rest else gap


def describe(record) -> str:
    if record["status"] == "ran":
        return "runs"
    return f"{record['status']}: {record['message']}" if record["message"] else record["status"]


def row_of(group, path, exudyn_record, ours):
    difference = None
    if exudyn_record["status"] == ours["status"] == "ran" and exudyn_record["result_source"] == ours["result_source"]:
        difference = relative_difference(ours["result"], exudyn_record["result"], ours["result_source"])
    return {"script": Path(path).stem, "group": group, "exudyn": describe(exudyn_record),
            "floatframe": describe(ours), "compared": ours.get("result_source") or "",
            "relative difference": difference, "solve exudyn [s]": exudyn_record.get("solve_time"),
            "solve floatframe [s]": ours.get("solve_time"),
            "solve floatframe first run [s]": ours.get("first_solve_time")}


def summary(rows) -> list[str]:
    """Counts per group: both run and agree (to AGREE), both run and differ, refused, crashed, timeout."""
    lines = ["| group | scripts | exudyn runs | floatframe runs | agree to 1e-5 | differ | no result compared | "
             "refused | crashed | timeout |", "|---|---|---|---|---|---|---|---|---|---|"]
    for group in ("TestModels", "MiniExamples", "Examples", "all"):
        chosen = [row for row in rows if group in ("all", row["group"])]
        both = [row for row in chosen if row["exudyn"] == "runs" and row["floatframe"] == "runs"]
        agree = [row for row in both if row["relative difference"] is not None and row["relative difference"] <= AGREE]
        differ = [row for row in both if row["relative difference"] is not None and row["relative difference"] > AGREE]
        counts = [len(chosen), sum(row["exudyn"] == "runs" for row in chosen),
                  sum(row["floatframe"] == "runs" for row in chosen), len(agree), len(differ),
                  len(both) - len(agree) - len(differ)]
        counts += [sum(row["floatframe"].startswith(kind) for row in chosen) for kind in ("refused", "crashed", "timeout")]
        lines.append(f"| {group} | " + " | ".join(str(c) for c in counts) + " |")
    lines += ["", scope_count(rows)]
    for column, which in (("solve floatframe [s]", ""),
                          ("solve floatframe first run [s]", ", floatframe's first run")):
        ratios = sorted(row[column] / row["solve exudyn [s]"] for row in rows
                        if row["exudyn"] == "runs" and row["floatframe"] == "runs" and row["solve exudyn [s]"]
                        and row.get(column) is not None)
        if ratios:
            lines.append("")
            lines.append(f"Solve time floatframe/exudyn{which} over the {len(ratios)} scripts that ran on both (time "
                         f"inside SolveDynamic/SolveStatic): median {median_of(ratios):.3g}, range {ratios[0]:.3g} to "
                         f"{ratios[-1]:.3g}.")
    if os.environ.get(NO_SOLUTION_FILE) == "1":
        lines += ["", "The solves wrote no coordinates solution file (--without-solution-file)."]
    return lines


def scope_count(rows) -> str:
    """How many test models (TestModels and MiniExamples) that exudyn runs lie within floatframe's scope (are not
    refused as out of scope), and how many of those run on floatframe and agree."""
    models = [row for row in rows if row["group"] != "Examples" and row["exudyn"] == "runs"]
    within = [row for row in models if not row["floatframe"].startswith(f"refused: {OUT_OF_SCOPE_PREFIX}")]
    agree = [row for row in within if row["floatframe"] == "runs" and row["relative difference"] is not None
             and row["relative difference"] <= AGREE]
    return (f"Test models that exudyn runs: {len(models)}; refused as out of floatframe's scope: "
            f"{len(models) - len(within)}; within scope: {len(within)}, of which {len(agree)} run and agree to {AGREE:g}.")


def median_of(values: list) -> float:
    """The median of sorted ``values``."""
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else 0.5 * (values[middle - 1] + values[middle])


def number(value, digits=3) -> str:
    return "" if value is None else f"{value:.{digits}g}"


def markdown(rows, command) -> str:
    lines = ["# Exudyn's test suite and flexible-body Examples on floatframe.exudyn", "",
             f"Made by `{command}` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.", ""]
    lines += summary(rows) + ["", "| script | group | exudyn | floatframe | compared | relative difference | "
                                  "solve exudyn [s] | solve floatframe [s] | solve floatframe, first run [s] |",
                                  "|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        cells = [row["script"], row["group"], row["exudyn"], row["floatframe"], row["compared"],
                 number(row["relative difference"], 2), number(row["solve exudyn [s]"]),
                 number(row["solve floatframe [s]"]), number(row.get("solve floatframe first run [s]"))]
        lines.append("| " + " | ".join(str(c).replace("|", "/") for c in cells) + " |")
    return "\n".join(lines) + "\n"


NUMERIC = ("relative difference", "solve exudyn [s]", "solve floatframe [s]", "solve floatframe first run [s]")


def merged_rows(earlier_csv: Path, rows) -> list:
    """The rows of an earlier table (its CSV) in their order, those of the scripts run now replaced."""
    with open(earlier_csv, newline="") as stream:
        earlier = list(csv.DictReader(stream))
    for row in earlier:
        for key in NUMERIC:
            row[key] = float(row[key]) if row.get(key) not in (None, "") else None
    new = {(row["group"], row["script"]): row for row in rows}
    merged = [new.pop((row["group"], row["script"]), row) for row in earlier]
    return merged + list(new.values())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repository", help=f"Exudyn's repository copy (default: EXUDYN_REPOSITORY or "
                                              f"{DEFAULT_REPOSITORY})")
    parser.add_argument("--only", help="comma-separated script names (without .py)")
    parser.add_argument("--timeout", type=float, default=60.0, help="time limit per script and code [s]")
    parser.add_argument("--output", default="output/exudyn-suite", help="folder for the table (Markdown, CSV)")
    parser.add_argument("--codes", default="exudyn,floatframe", help="the codes to run (exudyn, floatframe)")
    parser.add_argument("--keep", help="folder for the prepared scripts and their logs (default: a temporary one)")
    parser.add_argument("--update", help="folder of an earlier table (exudyn_suite.csv): its rows are kept for the "
                                         "scripts not run now, and the scripts run now replace theirs")
    parser.add_argument("--reuse-exudyn", help="folder of an earlier run's --keep: exudyn's records found there "
                                               "(<folder>/exudyn/<script>/record.json) are taken instead of running "
                                               "exudyn again (the reference does not change between runs)")
    parser.add_argument("--warm", action="store_true",
                        help="time floatframe's second run of each script (the first with FLOATFRAME_COMPILE_AHEAD=1 "
                             "compiles and caches its kernels); the first run's time is listed too")
    parser.add_argument("--repeat", type=int, default=1,
                        help="time each script this many times per code where its first timed run solved in less "
                             "than --repeat-below seconds, and keep the median (default 1)")
    parser.add_argument("--repeat-below", type=float, default=1.0, help="see --repeat [s] (default 1)")
    parser.add_argument("--without-solution-file", action="store_true",
                        help="both codes' solves with solutionSettings.writeSolutionToFile = False: no coordinates "
                             "solution file, which both write by default (the solvers alone; the scripts are otherwise "
                             "unchanged)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.child:
        child(arguments.child)
        return 0
    if arguments.without_solution_file:
        os.environ[NO_SOLUTION_FILE] = "1"   # read by the children
    repository = Repository.find(arguments.repository)
    if repository is None:
        print(f"Exudyn's repository copy not found (--repository, EXUDYN_REPOSITORY or {DEFAULT_REPOSITORY}): "
              f"nothing to run")
        return 0
    codes = tuple(code.strip() for code in arguments.codes.split(","))
    try:
        import exudyn  # noqa: F401  (only to know whether the reference runs)
    except ImportError:
        print("exudyn is not installed: the scripts run on floatframe only")
        codes = tuple(code for code in codes if code != "exudyn")
    scripts = select_scripts(repository, arguments.only.split(",") if arguments.only else None)
    folder = Path(arguments.keep) if arguments.keep else Path(tempfile.mkdtemp(prefix="exudyn-suite-"))
    folder.mkdir(parents=True, exist_ok=True)
    data = folder / "data"
    data.mkdir(exist_ok=True)
    data_folders = {}
    for group, source in (("TestModels", TEST_MODELS), ("MiniExamples", TEST_MODELS), ("Examples", EXAMPLES)):
        target = data / Path(source).name
        if not target.exists():
            target.mkdir()
            repository.extract(f"{source}/testData", target)
        data_folders[group] = [p for p in target.iterdir() if p.is_dir()]
    absent = {"status": "not run", "message": "", "solve_time": None, "result": None, "result_source": ""}
    rows = []
    for index, (group, path) in enumerate(scripts, 1):
        records = {}
        for code in codes:
            kept = Path(arguments.reuse_exudyn) / code / Path(path).stem / "record.json" \
                if arguments.reuse_exudyn and code == "exudyn" else None
            if kept is not None and kept.is_file():
                records[code] = json.loads(kept.read_text())
            elif code == "floatframe" and arguments.warm:
                records[code] = run_warm(repository, data_folders, group, path, folder, arguments.timeout,
                                         arguments.repeat, arguments.repeat_below)
            else:
                def timed_run(code=code, group=group, path=path):
                    return run_one(repository, data_folders, group, path, code, folder, arguments.timeout)
                records[code] = timed_runs(timed_run, arguments.repeat, arguments.repeat_below)
        row = row_of(group, path, records.get("exudyn", absent), records.get("floatframe", absent))
        rows.append(row)
        print(f"[{index}/{len(scripts)}] {row['script']}: exudyn {row['exudyn'][:60]} | floatframe "
              f"{row['floatframe'][:80]} | difference {number(row['relative difference'], 2)}", flush=True)
    if arguments.update:
        rows = merged_rows(Path(arguments.update) / "exudyn_suite.csv", rows)
    output = Path(arguments.output)
    output.mkdir(parents=True, exist_ok=True)
    command = "python benchmarks/exudyn_suite.py " + " ".join(argv if argv is not None else sys.argv[1:])
    (output / "exudyn_suite.md").write_text(markdown(rows, command.strip()))
    with open(output / "exudyn_suite.csv", "w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]) if rows else ["script"])
        writer.writeheader()
        writer.writerows(rows)
    print("\n".join(summary(rows)))
    print(f"written: {output / 'exudyn_suite.md'}, {output / 'exudyn_suite.csv'}")
    if not arguments.keep:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
