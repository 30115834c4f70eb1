"""Wall time of a rotor-disc study against the number of LocalCluster workers, with the model built for every
task and built once per worker, and the cost per task against a plain loop, in one run (these machines are
shared: compare the ratios).

    python benchmarks/study_scaling.py [--runs 64] [--workers 1 2]
    python benchmarks/study_scaling.py --inside [--repeat 4]

Each run solves the rotor disc (742 coordinates, full FFRF mesh, Tisserand frame) for 10 steps on supports of
another stiffness (floatframe.study.rotor_disc_supports, whose support stiffness and damping are symbolic
Parameters). "fresh" builds and assembles the model in every task (``rotor_disc_supports.uncached()``),
"once per worker" builds it on a worker's first task and only sets the Parameters afterwards. Prints:

- the build/solve split of one run, measured in-process;
- the plain loops (fresh, and with one model) and their time per run;
- for each number of workers and each variant: the study's wall time (the cluster's start-up reported apart),
  the speed-up over the same variant's loop, the overhead per task, (workers x wall - loop) / runs, and for
  "once per worker" the builds each worker made.

``--inside`` times one fresh run (``run_one``) inside its own process, the same way each time: in this process
with the default BLAS threads and with one, and as tasks on a LocalCluster of one single-threaded worker
(which runs its tasks in a thread pool, with one BLAS thread): one made with Dask's defaults, whose nanny sets
MALLOC_TRIM_THRESHOLD_=65536 in the worker, and the one ``floatframe.study.dask_client`` makes, without it.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # this checkout's floatframe
from floatframe.study import dask_client, grid, model_builds, rotor_disc_supports, run_one, run_study


def build_solve_split(repeats: int = 3) -> tuple[float, float]:
    """Mean time [s] of building and assembling the model, and of one 10-step solve on it."""
    builds, solves = [], []
    for _ in range(repeats):
        started = time.perf_counter()
        model = rotor_disc_supports.build(("support_stiffness",))
        built = time.perf_counter()
        rotor_disc_supports.solve(model, support_stiffness=2e8)
        builds.append(built - started)
        solves.append(time.perf_counter() - built)
    return float(np.mean(builds)), float(np.mean(solves))


def timed_run(support_stiffness: float = 2e8) -> float:
    """Seconds of one fresh run, measured where it runs."""
    started = time.perf_counter()
    run_one(rotor_disc_supports.uncached(), {"support_stiffness": support_stiffness})
    return time.perf_counter() - started


def inside(repeat: int) -> None:
    """One fresh run timed in this process and inside tasks on a 1-worker LocalCluster."""
    from distributed import Client, LocalCluster
    from threadpoolctl import threadpool_limits

    timed_run()
    in_process = [timed_run() for _ in range(repeat)]
    with threadpool_limits(limits=1, user_api="blas"):
        one_thread = [timed_run() for _ in range(repeat)]
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        client.submit(timed_run, pure=False).result()
        in_dask_worker = [client.submit(timed_run, pure=False).result() for _ in range(repeat)]
    with dask_client(workers=1) as client:
        client.submit(timed_run, pure=False).result()
        in_worker = [client.submit(timed_run, pure=False).result() for _ in range(repeat)]
    for name, times in (("in this process", in_process), ("in this process, one BLAS thread", one_thread),
                        ("inside a task on a 1-worker LocalCluster with Dask's environment", in_dask_worker),
                        ("inside a task on the 1-worker LocalCluster of floatframe.study.dask_client", in_worker)):
        print(f"one fresh run {name}: {min(times):.2f}-{max(times):.2f} s (median {np.median(times):.2f} s, "
              f"{repeat} runs)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=64)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--inside", action="store_true", help="only: one run timed inside its process and worker")
    parser.add_argument("--repeat", type=int, default=4, help="runs of each kind with --inside")
    arguments = parser.parse_args()
    if arguments.inside:
        inside(arguments.repeat)
        return
    runs = arguments.runs
    samples = grid(support_stiffness=np.linspace(1e8, 3e8, runs))
    build, solve = build_solve_split()
    print(f"one run in-process: build and assemble {build:.2f} s, solve 10 steps {solve:.2f} s")
    variants = {"fresh": rotor_disc_supports.uncached(), "once per worker": rotor_disc_supports}
    loops, reference = {}, None
    for name, function in variants.items():
        started = time.perf_counter()
        rows = [run_one(function, sample) for sample in samples]
        loops[name] = time.perf_counter() - started
        print(f"plain loop, {name}: {runs} runs in {loops[name]:.1f} s ({loops[name] / runs:.3f} s a run)")
        values = np.array([row["max_displacement"] for row in rows])
        reference = values if reference is None else reference
        assert np.allclose(values, reference, rtol=1e-12, atol=0), "the variants disagree"
    from distributed import Client, LocalCluster
    for workers in arguments.workers:
        started = time.perf_counter()
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            client.run(lambda: __import__("floatframe.study"))        # workers import floatframe once
            print(f"{workers} worker(s): cluster start {time.perf_counter() - started:.1f} s")
            for name, function in variants.items():
                ready = time.perf_counter()
                table = run_study(function, samples, client=client, progress=False)
                wall = time.perf_counter() - ready
                assert np.allclose(table["max_displacement"], reference, rtol=1e-12, atol=0)
                builds = ""
                if function.cache:
                    counts = [sum(counts.values()) for counts in client.run(model_builds).values()]
                    builds = f", builds per worker {counts}"
                print(f"  {name}: study {wall:.1f} s, speed-up {loops[name] / wall:.2f}, overhead per task "
                      f"{(workers * wall - loops[name]) / runs * 1e3:.0f} ms{builds}")


if __name__ == "__main__":
    main()
