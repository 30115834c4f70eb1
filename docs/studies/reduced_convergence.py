"""Convergence of the reduced-order rotor disc toward the full FFRF rotor, for 4 to 64 modes.

    python docs/studies/reduced_convergence.py [--steps 100] [--output docs/figures]

The rotor-disc model (built-in Hex8 mesh, Tisserand frame for the full body) runs ``steps`` steps of
1e-4 s with each mode basis: free-free eigenmodes, and Craig-Bampton RBE2 and RBE3 bases of the two
support faces with the same number of fixed-interface eigenmodes (plus 6 static modes). The error is
max_t |u(t) - u_full(t)| / max_t |u_full(t)| of the global displacement of the axis node at the disc.
Prints a Markdown table and writes reduced_convergence.png and reduced_convergence.csv.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from floatframe.models.rotor_disc import build_rotor_disc
from floatframe.solvers import GeneralizedAlpha

MODE_COUNTS = (4, 8, 16, 32, 64)
BASES = {"eigenmodes": dict(), "Craig-Bampton RBE2": dict(craig_bampton="RBE2"),
         "Craig-Bampton RBE3": dict(craig_bampton="RBE3")}


def displacement(steps, **options):
    """(sensor trajectory (steps + 1, 3), build time [s], solve time [s]) of one rotor-disc model."""
    start = time.perf_counter()
    model = build_rotor_disc(**options)
    assembled = model.system.assemble()
    build = time.perf_counter() - start
    result = GeneralizedAlpha(model.spectral_radius, modified_newton=True).solve(
        assembled, steps * model.h, steps, progress=False)
    return result.sensor(model.sensor), build, result.statistics.solve_time


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--output", default="docs/figures")
    arguments = parser.parse_args(argv)
    output = Path(arguments.output)
    output.mkdir(parents=True, exist_ok=True)

    full, full_build, full_solve = displacement(arguments.steps)
    scale = np.abs(full).max()
    errors = {name: [] for name in BASES}
    rows = []
    for name, options in BASES.items():
        for count in MODE_COUNTS:
            reduced, build, solve = displacement(arguments.steps, modes=count, **options)
            error = np.abs(reduced - full).max() / scale
            errors[name].append(error)
            rows.append((name, count, error, build, solve))
    print(f"full FFRF rotor: build {full_build:.2f} s, solve {full_solve:.2f} s; {arguments.steps} steps of 1e-4 s\n")
    print("| basis | modes | relative error | build [s] | solve [s] |")
    print("|---|---|---|---|---|")
    for name, count, error, build, solve in rows:
        print(f"| {name} | {count} | {error:.2e} | {build:.2f} | {solve:.2f} |")
    np.savetxt(output / "reduced_convergence.csv", np.array([[c] + [errors[n][i] for n in BASES]
                                                             for i, c in enumerate(MODE_COUNTS)]),
               delimiter=",", header="modes," + ",".join(BASES), comments="")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 4))
    for name, marker in zip(BASES, "osd"):
        axes.loglog(MODE_COUNTS, errors[name], marker=marker, label=name)
    axes.set_xlabel("number of (fixed-interface) eigenmodes")
    axes.set_ylabel("max error of the disc-node displacement / max displacement")
    axes.set_title(f"Reduced rotor disc vs full FFRF ({arguments.steps} steps of 1e-4 s)")
    axes.grid(True, which="both")
    axes.legend()
    figure.tight_layout()
    figure.savefig(output / "reduced_convergence.png", dpi=120)
    print(f"\nwrote {output / 'reduced_convergence.png'} and {output / 'reduced_convergence.csv'}")


if __name__ == "__main__":
    main()
