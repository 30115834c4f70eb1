"""The first run of a model, with an empty kernel cache, against later runs (cached kernel) and the virtual machine
only (compile=False): wall time of the solve, the steps the C loop took, and whether the kernel was compiled during
the run (compile="auto" compiles in the background once the run's remaining steps would take longer on the virtual
machine than compiling; docs/performance.md, "Cold start").

    python benchmarks/cold_start.py [--steps 2000,20000] [--models pendulum,reduced-rotor]

Each run is a subprocess; the empty-cache runs get a fresh FLOATFRAME_CACHE directory, the cached run follows a
compile=True run (which waits for the compiler) in the same directory.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

RUN = r"""
import json, sys, time, warnings
warnings.simplefilter("ignore")
import floatframe as ff
model, steps, compile_option = sys.argv[1], int(sys.argv[2]), sys.argv[3]
compile_option = {"auto": "auto", "false": False, "true": True}[compile_option]
if model == "reduced-rotor":
    from floatframe.models.rotor_disc import build_rotor_disc
    built = build_rotor_disc(modes=8)
    system, h = built.system.assemble(), built.h
else:
    from floatframe.models.pendulum import build_pendulum
    built, _ = build_pendulum()
    system, h = built.assemble(), 0.01
started = time.perf_counter()
result = ff.GeneralizedAlpha(0.5, modified_newton=True, compile=compile_option).solve(system, steps * h, steps,
                                                                                       progress=False)
print(json.dumps(dict(wall=time.perf_counter() - started, native=result.info.get("native_steps", 0))))
"""


def measure(model, steps, compile_option, cache) -> dict:
    environment = dict(os.environ, FLOATFRAME_CACHE=cache)
    done = subprocess.run([sys.executable, "-c", RUN, model, str(steps), compile_option], env=environment,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default="2000,20000")
    parser.add_argument("--models", default="pendulum,reduced-rotor")
    arguments = parser.parse_args()
    print("| model | steps | virtual machine [s] | auto, empty cache [s] (C-loop steps) | compile=True, empty cache "
          "[s] | auto, kernel cached [s] (C-loop steps) |")
    print("|---|---:|---:|---:|---:|---:|")
    for model in arguments.models.split(","):
        for steps in (int(s) for s in arguments.steps.split(",")):
            with tempfile.TemporaryDirectory() as cache:
                machine = measure(model, steps, "false", cache)
                cold = measure(model, steps, "auto", cache)
            with tempfile.TemporaryDirectory() as cache:
                compiled = measure(model, steps, "true", cache)    # waits for the compiler, then caches
                warm = measure(model, steps, "auto", cache)
            print(f"| {model} | {steps} | {machine['wall']:.2f} | {cold['wall']:.2f} ({cold['native']}) | "
                  f"{compiled['wall']:.2f} | {warm['wall']:.2f} ({warm['native']}) |")


if __name__ == "__main__":
    main()
