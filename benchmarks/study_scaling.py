"""Wall time of a rotor-disc study against the number of LocalCluster workers, and the cost per task against a
plain loop, in one run (these machines are shared: compare the ratios).

    python benchmarks/study_scaling.py [--runs 64] [--workers 1 2]

Each run builds the rotor disc (about 740 coordinates, full FFRF mesh) with another disc radius and takes 10
steps (floatframe.study.rotor_disc_response). Prints the loop's time, each cluster's time
(cluster start-up included, reported apart) and the overhead per task: (workers x wall - loop) / runs.
"""
import argparse
import time

import numpy as np

from floatframe.study import grid, rotor_disc_response, run_one, run_study


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=64)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    arguments = parser.parse_args()
    samples = grid(disc_radius=np.linspace(0.15, 0.25, arguments.runs))
    started = time.perf_counter()
    loop = [run_one(rotor_disc_response, sample) for sample in samples]
    loop_time = time.perf_counter() - started
    print(f"plain loop: {arguments.runs} runs in {loop_time:.1f} s ({loop_time / arguments.runs:.2f} s a run)")
    from distributed import Client, LocalCluster
    for workers in arguments.workers:
        started = time.perf_counter()
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            client.run(lambda: __import__("floatframe.study"))        # workers import floatframe once
            ready = time.perf_counter()
            table = run_study(rotor_disc_response, samples, client=client, progress=False)
            finished = time.perf_counter()
        assert np.allclose(table["max_displacement"], [row["max_displacement"] for row in loop], rtol=1e-12, atol=0)
        wall = finished - ready
        print(f"{workers} worker(s): cluster start {ready - started:.1f} s, study {wall:.1f} s, speed-up "
              f"{loop_time / wall:.2f}, overhead per task {(workers * wall - loop_time) / arguments.runs * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
