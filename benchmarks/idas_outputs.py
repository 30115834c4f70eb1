"""IDAS with many output times: Andrews' squeezing mechanism (floatframe.models.andrews) at rtol = 1e-10 with 60 and
with 600 equally spaced outputs over [0, 0.03] s, in one run: internal steps, Newton iterations, set-up and solve
time, and the significant correct digits (scd) of the test set's solution at t = 0.03 s.

    python benchmarks/idas_outputs.py [--repeat 3] [--rtol 1e-10] [--max-restarts 64]

With projection (the default drift control) IDAS restarts at most ``max_restarts`` times; the outputs between two
restarts are IDAS' interpolation. ``--max-restarts 100000`` gives the behaviour before: a restart at every output.
"""
import argparse
import time

import numpy as np

from floatframe.compare import significant_correct_digits
from floatframe.models.andrews import T_END, build_andrews
from floatframe.solvers import IDAS


def run(outputs: int, rtol: float, max_restarts: int) -> dict:
    andrews = build_andrews()
    system = andrews.system.assemble()
    solver = IDAS(rtol=rtol, atol=rtol * 1e-3, drift="projection", max_restarts=max_restarts)
    started = time.perf_counter()
    result = solver.solve(system, t_grid=np.linspace(0.0, T_END, outputs + 1))
    wall = time.perf_counter() - started
    values, published = andrews.published(result)
    stats = result.statistics
    return dict(outputs=outputs, steps=stats.steps, newton=stats.newton_iterations, wall=wall,
                setup=result.info.get("setup_time", float("nan")), solve=stats.solve_time,
                scd=significant_correct_digits(values, published))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each grid; the medians are shown")
    parser.add_argument("--rtol", type=float, default=1e-10)
    parser.add_argument("--max-restarts", type=int, default=64)
    arguments = parser.parse_args()
    rows = {}
    for _ in range(arguments.repeat):              # alternate the grids (shared, noisy machines)
        for outputs in (60, 600):
            rows.setdefault(outputs, []).append(run(outputs, arguments.rtol, arguments.max_restarts))
    print(f"Andrews, IDAS rtol {arguments.rtol:g}, max_restarts {arguments.max_restarts}, medians of "
          f"{arguments.repeat}")
    print("| outputs | steps | Newton iterations | set-up [s] | solve [s] | scd |")
    print("|---:|---:|---:|---:|---:|---:|")
    for outputs, runs in rows.items():
        median = {key: float(np.median([r[key] for r in runs])) for key in runs[0]}
        print(f"| {outputs} | {median['steps']:.0f} | {median['newton']:.0f} | {median['setup']:.3f} | "
              f"{median['solve']:.3f} | {median['scd']:.2f} |")
    ratio = np.median([r["solve"] for r in rows[600]]) / np.median([r["solve"] for r in rows[60]])
    print(f"solve time 600 / 60 outputs: {ratio:.2f}")


if __name__ == "__main__":
    main()
