"""Tutorial step 5: a solver comparison.

The pendulum of step 1 (``pendulum.py``, loaded as a model file) is solved by IDAS at two tolerances and by
generalized-alpha and Newmark at three step sizes. Each run's error is the largest deviation of the sensor
from a tight IDAS reference, relative to its largest value. ``floatframe.compare`` writes the table
(CSV, Markdown) and the work-precision plot. From the errors at h, h/2 and h/4 it prints the observed
order of convergence of each fixed-step scheme:

    genalpha_order = ...
    newmark_order = ...

Run from the repository root:  python docs/examples/compare_solvers.py [--output DIR]
(``python -m floatframe compare pendulum --solvers idas,genalpha,newmark`` is the command-line form.)
"""
import argparse
from pathlib import Path

import numpy as np

from floatframe.compare import load_model, run_comparison

PENDULUM = Path(__file__).with_name("pendulum.py")


def observed_order(rows, solver):
    """Least-squares slope of log(error) against log(h) over the solver's runs."""
    runs = [row for row in rows if row.solver == solver and row.status == "ok"]
    h = np.array([row.value for row in runs])
    error = np.array([row.error for row in runs])
    return np.polyfit(np.log(h), np.log(error), 1)[0]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default="output/tutorial", help="folder for the table and the plot")
    output = Path(parser.parse_args(argv).output) / "comparison"

    model = load_model(str(PENDULUM))
    rows = run_comparison(model, solvers=("idas", "genalpha", "newmark"), tolerances=(1e-4, 1e-6),
                          refinements=(2, 4, 8), out_dir=output, progress=False)
    for row in rows:
        print(f"{row.solver:10s} {row.setting:12s} error {row.error:.2e}  {row.steps:4d} steps  "
              f"{row.wall_time:.3f} s")
    print(f"wrote {output / 'comparison.md'} and {output / 'work_precision.png'}")
    print(f"genalpha_order = {observed_order(rows, 'genalpha'):.3f}")
    print(f"newmark_order = {observed_order(rows, 'newmark'):.3f}")


if __name__ == "__main__":
    main()
