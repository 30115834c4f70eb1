"""The fixed cost of a tiny model's solve on floatframe.exudyn against exudyn 1.13.6 (issue 28 item 4).

    python benchmarks/tiny_solve.py [--repeat 5] [--steps 100]

The model is Exudyn's MiniExample of ObjectMassPoint: a mass point, 100 steps of the default SolveDynamic. Each
measurement runs in a fresh process (what Exudyn's test suite does with every script): the time of the item calls
with mbs.Assemble() (translation and symbolic build) and of mbs.SolveDynamic(), and where floatframe's solve goes
(timers around the solver's functions: the kernel (built, or loaded from the cache), the C loop's set-up (where
the kernel is compiled), the consistent initial accelerations in C, the stored states' results). Three floatframe
cases: a first run (empty kernel cache: the virtual machine), a first run that compiles ahead
(FLOATFRAME_COMPILE_AHEAD=1), and a later run (the kernel in the cache, the C step loop). Medians of ``--repeat``
processes, in ms; exudyn's solve time beside them.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

CHILD = r'''
import json, sys, time, warnings
warnings.simplefilter("ignore")
code, steps = sys.argv[1], int(sys.argv[2])
timers = {}
if code == "floatframe":
    import floatframe.exudyn as exu
    from floatframe.exudyn import itemInterface as items
    import floatframe.solvers.genalpha as genalpha
    import floatframe.solvers.loop as loop

    def timed(module, name, label):
        function = getattr(module, name)
        def call(*arguments, **keywords):
            started = time.perf_counter()
            try:
                return function(*arguments, **keywords)
            finally:
                timers[label] = timers.get(label, 0.0) + time.perf_counter() - started
        setattr(module, name, call)
    import floatframe.solvers.native as native
    timed(genalpha, "dense_kernel", "kernel")
    timed(native.NativeLoop, "set_up_now", "C loop set-up")
    timed(native.NativeLoop, "initial_accelerations", "initial accelerations")
    timed(loop, "collect", "results")
else:
    import exudyn as exu
    import exudyn.itemInterface as items
begun = time.perf_counter()
SC = exu.SystemContainer()
mbs = SC.AddSystem()
mbs.AddObject(items.ObjectGround(referencePosition=[0, 0, 0]))
node = mbs.AddNode(items.NodePoint(referenceCoordinates=[1, 1, 0], initialCoordinates=[0.5, 0, 0],
                                   initialVelocities=[0.5, 0, 0]))
mbs.AddObject(items.ObjectMassPoint(nodeNumber=node, physicsMass=1))
mbs.Assemble()
assembled = time.perf_counter()
settings = exu.SimulationSettings()
settings.timeIntegration.numberOfSteps = steps
settings.timeIntegration.endTime = steps * 0.01
settings.solutionSettings.writeSolutionToFile = False
mbs.SolveDynamic(settings)
solved = time.perf_counter()
timers = {name: 1e3 * value for name, value in timers.items()}
timers.update({"items and Assemble": 1e3 * (assembled - begun), "SolveDynamic": 1e3 * (solved - assembled)})
print(json.dumps(timers))
'''


def run(code: str, steps: int, environment: dict) -> dict:
    """One fresh process: its timers [ms]."""
    output = subprocess.run([sys.executable, "-c", CHILD, code, str(steps)], capture_output=True, text=True,
                            env=environment, check=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def wait_for_compilers(cache: str, limit: float = 60.0) -> None:
    """Until no background compilation is left in the cache (its scratch folders are gone)."""
    ends = time.perf_counter() + limit
    while time.perf_counter() < ends and any(name.startswith("build_") for name in os.listdir(cache)):
        time.sleep(0.05)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="fresh processes a case (medians)")
    parser.add_argument("--steps", type=int, default=100, help="steps of the solve")
    arguments = parser.parse_args(argv)
    cases = {}
    try:
        import exudyn  # noqa: F401  (only to know whether the reference runs)
        cases["exudyn"] = [run("exudyn", arguments.steps, dict(os.environ)) for _ in range(arguments.repeat)]
    except ImportError:
        print("exudyn is not installed: floatframe only")
    first, ahead, later = [], [], []
    for _ in range(arguments.repeat):
        with tempfile.TemporaryDirectory() as cache:
            environment = dict(os.environ, FLOATFRAME_CACHE=cache)
            first.append(run("floatframe", arguments.steps, environment))
        with tempfile.TemporaryDirectory() as cache:
            environment = dict(os.environ, FLOATFRAME_CACHE=cache, FLOATFRAME_COMPILE_AHEAD="1")
            ahead.append(run("floatframe", arguments.steps, environment))
            wait_for_compilers(cache)
            environment.pop("FLOATFRAME_COMPILE_AHEAD")
            later.append(run("floatframe", arguments.steps, environment))
    cases.update({"floatframe, first run": first, "floatframe, first run compiling ahead": ahead,
                  "floatframe, later run (kernel cached)": later})
    columns = ["items and Assemble", "SolveDynamic", "kernel", "C loop set-up", "initial accelerations", "results"]
    print(f"ObjectMassPoint, {arguments.steps} steps, medians of {arguments.repeat} fresh processes [ms]")
    print("| case | " + " | ".join(columns) + " |")
    print("|---|" + "---:|" * len(columns))
    for case, records in cases.items():
        cells = [f"{statistics.median(record.get(column, float('nan')) for record in records):.2f}"
                 if any(column in record for record in records) else "" for column in columns]
        print(f"| {case} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
