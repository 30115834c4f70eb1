"""benchmarks/exudyn_suite.py, the runner of Exudyn's test suite on both codes, on three of Exudyn's test models
vendored in testmodels/ (laid out as Exudyn's repository, with Exudyn's import lines): nothing is fetched.

Claims: each runs on exudyn and on floatframe and the runner finds their results equal (sphericalJointTest was 0.25
off and genericJointUserFunctionTest 10.4 relative before issue 28); the table and CSV say so; a missing repository
copy ends the runner with 0 and a message; the import lines are switched binding the same names."""
import csv
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "benchmarks" / "exudyn_suite.py"
TEST_MODELS = Path(__file__).parent / "testmodels"
SCRIPTS = ["sphericalJointTest", "genericJointUserFunctionTest", "springDamperUserFunctionTest"]


def runner_module():
    spec = importlib.util.spec_from_file_location("exudyn_suite", RUNNER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def repository_copy(folder: Path) -> Path:
    """The vendored test models as a checkout of Exudyn's repository, their import lines Exudyn's again."""
    models = folder / "main" / "pythonDev" / "TestModels"
    (models / "MiniExamples").mkdir(parents=True)
    (folder / "main" / "pythonDev" / "Examples").mkdir()
    for name in SCRIPTS:
        text = (TEST_MODELS / f"{name}.py").read_text()
        (models / f"{name}.py").write_text(re.sub(r"^(import|from) floatframe\.exudyn", r"\1 exudyn", text,
                                                  flags=re.MULTILINE))
    return folder


@pytest.mark.exudyn
def test_the_runner_finds_three_test_models_equal_on_both_codes(tmp_path):
    pytest.importorskip("exudyn")
    repository, output = repository_copy(tmp_path / "EXUDYN"), tmp_path / "table"
    finished = subprocess.run([sys.executable, str(RUNNER), "--repository", str(repository), "--output", str(output),
                               "--timeout", "300"], capture_output=True, text=True, cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr[-2000:]
    with open(output / "exudyn_suite.csv") as stream:
        rows = {row["script"]: row for row in csv.DictReader(stream)}
    assert sorted(rows) == sorted(SCRIPTS)
    for name, row in rows.items():
        assert (row["exudyn"], row["floatframe"], row["compared"]) == ("runs", "runs", "testResult"), name
        assert float(row["relative difference"]) < 1e-7, name
        assert float(row["solve exudyn [s]"]) > 0 and float(row["solve floatframe [s]"]) > 0, name
    table = (output / "exudyn_suite.md").read_text()
    assert "| all | 3 | 3 | 3 | 3 | 0 | 0 | 0 | 0 | 0 |" in table
    assert "| sphericalJointTest | TestModels | runs | runs | testResult |" in table


def test_without_the_repository_copy_the_runner_says_so_and_ends_with_0(tmp_path):
    finished = subprocess.run([sys.executable, str(RUNNER), "--repository", str(tmp_path / "absent"), "--output",
                               str(tmp_path / "table")], capture_output=True, text=True, cwd=tmp_path)
    assert finished.returncode == 0
    assert "repository copy not found" in finished.stdout
    assert not (tmp_path / "table").exists()


@pytest.mark.parametrize("line, switched", [
    ("import exudyn as exu", "import floatframe.exudyn as exu"),
    ("import exudyn", "import floatframe.exudyn as exudyn"),
    ("from exudyn.utilities import * #includes itemInterface", "from floatframe.exudyn.utilities import *"),
    ("    import exudyn.graphics as graphics", "    import floatframe.exudyn.graphics as graphics"),
    ("import exudyn.plot", "import floatframe.exudyn.plot; import floatframe.exudyn as exudyn"),
    ("import exudyn as exu, numpy as np", "import floatframe.exudyn as exu; import numpy as np"),
    ("import exudynX", "import exudynX"),
])
def test_only_the_import_lines_are_switched_binding_the_same_names(line, switched):
    module = runner_module()
    assert module.for_floatframe(f"x = 1\n{line}\ny = exudyn_value\n") == f"x = 1\n{switched}\ny = exudyn_value\n"


def test_the_adjustments_for_exudyn_1_11_names_are_the_same_for_both_codes():
    """The preamble follows the last top-level import of exudyn; graphics off; bodyOrNodeList renamed."""
    module = runner_module()
    text = "import exudyn as exu\nfrom exudyn.utilities import *\nuseGraphics = True\nmbs.Create(bodyOrNodeList=[1])\n"
    adjusted = module.adjusted(text)
    assert adjusted.startswith("import exudyn as exu\nfrom exudyn.utilities import *\n" + module.PREAMBLE)
    assert "useGraphics = False\n" in adjusted and "itemNumbers=[1]" in adjusted and "bodyOrNodeList" not in adjusted
    switched = module.for_floatframe(adjusted)
    def other_lines(text):
        return [line for line in text.splitlines() if not re.match(r"\s*(import|from) ", line)]
    assert other_lines(switched) == other_lines(adjusted)                                # nothing else changed
    assert not re.search(r"^\s*(import|from) exudyn\b", switched, flags=re.MULTILINE)   # every import switched


def test_exudyn_1_11s_vector_helpers_give_what_they_gave():
    """VSum sums a vector's entries (Exudyn 1.11's basicUtilities; the robot scripts' results are such sums)."""
    preamble = runner_module().PREAMBLE
    namespace = {}
    exec("import numpy as np\n" + preamble[preamble.index("def NormL2"):], namespace)
    assert namespace["VSum"]([1.5, -0.25, 2.0]) == 3.25
    assert namespace["VAdd"]([1, 2], [3, 4]) == [4, 6] and namespace["VMult"]([1, 2], [3, 4]) == 11
    assert namespace["NormL2"]([3.0, 4.0]) == 5.0


def test_results_are_compared_relative_to_their_size_and_a_model_at_rest_absolutely():
    """A relative gap, except where ODE2 displacements are zero to round-off (a model at rest): the gap itself."""
    relative_difference = runner_module().relative_difference
    assert relative_difference([1.0, 2.02], [1.0, 2.0]) == pytest.approx(0.01)
    assert relative_difference([3e-13], [1e-13]) == pytest.approx(2.0)                  # a tiny testResult stays relative
    assert relative_difference([0.0, 0.0], [0.0, 1.1e-16], "ODE2") == pytest.approx(1.1e-16)
    assert relative_difference([0.0, 2e-12], [0.0, 1e-12], "ODE2") == pytest.approx(1e-12)
    assert relative_difference([0.0, 4e-12], [0.0, 2e-12], "ODE2") == pytest.approx(1.0)  # above round-off: relative
    assert relative_difference([1.0], [1.0, 2.0]) is None


class FakeSystemData:
    def __init__(self, coordinates, nodes, objects):
        self.coordinates, self.nodes, self.objects = coordinates, nodes, objects

    def GetODE2Coordinates(self):
        return self.coordinates

    def NumberOfNodes(self):
        return len(self.nodes)

    def NumberOfObjects(self):
        return len(self.objects)


class FakeSystem:
    """A ground point, a rigid node (7) and a modal node (2) of a reduced-order body, as item dicts."""

    def __init__(self, sign):
        nodes = [{"nodeType": "PointGround", "referenceCoordinates": [0, 0, 0]},
                 {"nodeType": "RigidBodyEP", "referenceCoordinates": [0] * 7},
                 {"nodeType": "GenericODE2", "referenceCoordinates": [0, 0]}]
        basis = sign * np.array([[1.0, 0], [0, 2], [3, 1]])
        objects = [{"objectType": "FFRFreducedOrder", "nodeNumbers": [1, 2], "modeBasis": basis}]
        coordinates = np.array([*range(7), sign * 0.5, sign * -1.0])
        self.systemData = FakeSystemData(coordinates, nodes, objects)

    def GetNode(self, number):
        return self.systemData.nodes[number]

    def GetObject(self, number):
        return self.systemData.objects[number]


def test_modal_coordinates_are_compared_as_mesh_displacements():
    runner = runner_module()
    results = [runner.basis_free_coordinates(FakeSystem(sign), None) for sign in (1.0, -1.0)]
    for result, source in results:
        assert source == "ODE2, modal coordinates as mesh displacements"
        np.testing.assert_array_equal(result, [0, 1, 2, 3, 4, 5, 6, 0.5, -2.0, 0.5])
    plain = FakeSystem(1.0)
    plain.systemData.objects = []
    result, source = runner.basis_free_coordinates(plain, None)
    assert source == "ODE2" and result.size == 9


def test_update_keeps_earlier_rows_and_replaces_those_run_now(tmp_path):
    runner = runner_module()
    earlier = [{"script": name, "group": "TestModels", "exudyn": "runs", "floatframe": status, "compared": "ODE2",
                "relative difference": difference, "solve exudyn [s]": 0.1, "solve floatframe [s]": 0.2}
               for name, status, difference in (("a", "runs", 1e-9), ("b", "refused: x", None))]
    with open(tmp_path / "exudyn_suite.csv", "w", newline="") as stream:
        writer = runner.csv.DictWriter(stream, fieldnames=list(earlier[0]))
        writer.writeheader()
        writer.writerows(earlier)
    now = [dict(earlier[1], floatframe="runs", **{"relative difference": 2e-12})]
    merged = runner.merged_rows(tmp_path / "exudyn_suite.csv", now)
    assert [row["script"] for row in merged] == ["a", "b"]
    assert merged[0]["relative difference"] == 1e-9 and merged[0]["solve floatframe [s]"] == 0.2
    assert merged[1]["floatframe"] == "runs" and merged[1]["relative difference"] == 2e-12


def test_exudyns_records_of_an_earlier_run_are_reused(tmp_path):
    """With --reuse-exudyn the exudyn column comes from the earlier record (a deliberately wrong result here, so
    that the reuse shows), floatframe runs; a script without a record would run exudyn again."""
    import json

    repository, output = repository_copy(tmp_path / "EXUDYN"), tmp_path / "table"
    kept = tmp_path / "earlier" / "exudyn" / "sphericalJointTest"
    kept.mkdir(parents=True)
    kept.joinpath("record.json").write_text(json.dumps(
        {"status": "ran", "message": "", "solve_time": 0.5, "solves": 1, "result": [1.0], "result_source": "testResult"}))
    finished = subprocess.run([sys.executable, str(RUNNER), "--repository", str(repository), "--output", str(output),
                               "--only", "sphericalJointTest", "--reuse-exudyn", str(tmp_path / "earlier"),
                               "--timeout", "300"], capture_output=True, text=True, cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr[-2000:]
    with open(output / "exudyn_suite.csv") as stream:
        (row,) = list(csv.DictReader(stream))
    assert (row["exudyn"], row["floatframe"], row["solve exudyn [s]"]) == ("runs", "runs", "0.5")
    assert float(row["relative difference"]) > 1.0          # floatframe's 4.409... against the record's 1.0


def test_repeated_timing_keeps_the_median_run_of_short_solves_only():
    """--repeat N: a run that solves in less than --repeat-below seconds is timed N times and the median run's record
    is kept (with all times); a longer one, or one that did not run, is timed once."""
    timed_runs = runner_module().timed_runs

    def runs(*times):
        remaining = list(times)
        return lambda: {"status": "ran", "solve_time": remaining.pop(0), "result": [0.0]}
    short = timed_runs(runs(0.003, 0.001, 0.002), repeat=3, below=1.0)
    assert short["solve_time"] == 0.002 and short["solve_times"] == [0.003, 0.001, 0.002]
    assert timed_runs(runs(0.004, 0.001, 0.001, 0.003), repeat=4, below=1.0)["solve_time"] == 0.001   # lower median
    assert timed_runs(runs(2.0, 0.001), repeat=3, below=1.0)["solve_time"] == 2.0
    refused = timed_runs(lambda: {"status": "refused", "solve_time": None}, repeat=3, below=1.0)
    assert refused["status"] == "refused" and "solve_times" not in refused


def test_out_of_scope_refusals_are_marked_and_counted_apart(tmp_path):
    """A script refused for an out-of-scope feature gets the record "refused: out of scope (<scope>) ..." (from the
    layer's own error, run in a child as the runner runs scripts); the summary counts the test models exudyn runs,
    those out of scope, and those within scope that agree (Examples and what exudyn cannot run are left out)."""
    runner = runner_module()
    script = tmp_path / "contact.py"
    script.write_text("from floatframe.exudyn.utilities import *\nObjectContactSphereSphere()\n")
    spec = tmp_path / "spec.json"
    spec.write_text(runner.json.dumps({"script": str(script), "code": "floatframe",
                                       "output": str(tmp_path / "record.json")}))
    subprocess.run([sys.executable, str(RUNNER), "--child", str(spec)], cwd=tmp_path, capture_output=True)
    record = runner.json.loads((tmp_path / "record.json").read_text())
    assert record["status"] == "refused"
    assert record["message"].startswith("out of scope (contact (contact objects, general contact, rolling discs)) ")
    rows = [{"script": name, "group": group, "exudyn": exudyn, "floatframe": ours, "relative difference": difference}
            for name, group, exudyn, ours, difference in (
                ("a", "TestModels", "runs", "runs", 1e-9), ("b", "TestModels", "runs", "runs", 1e-3),
                ("c", "MiniExamples", "runs", "refused: out of scope (contact) x", None),
                ("d", "TestModels", "runs", "refused: a gap", None), ("e", "TestModels", "crashed", "runs", None),
                ("f", "Examples", "runs", "runs", 1e-9))]
    assert runner.scope_count(rows) == ("Test models that exudyn runs: 4; refused as out of floatframe's scope: 1; "
                                        "within scope: 3, of which 1 run and agree to 1e-05.")
