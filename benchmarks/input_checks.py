"""Benchmark: the cost of the input checks of issue 23 item 4 on the beam of benchmarks/ffrf_scaling.py.

    python benchmarks/input_checks.py                 # 10k and 100k coordinates
    python benchmarks/input_checks.py --sizes 10k

Per size: the time of the FE matrices (the yardstick of the build, which also includes the assembly: see
``ffrf_scaling.py --no-exudyn``), and the median of 3 runs of each check: the mass matrix's and the stiffness
matrix's definiteness (one sparse factorization each, ``floatframe.components.ffrf.definiteness_fault``) and the
search for coincident mesh nodes (``floatframe.fem.mesh.coincident_node_pairs``, one k-d tree query).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]


def median_seconds(function, repeat: int = 3) -> float:
    """Median wall time [s] of ``repeat`` calls of ``function()``."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return float(np.median(times))


def main() -> None:
    from ffrf_scaling import SIZES, beam

    from floatframe.components.ffrf import definiteness_fault
    from floatframe.fem.mesh import coincident_node_pairs

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10k,100k", help=f"comma-separated, of {list(SIZES)}")
    labels = parser.parse_args().sizes.split(",")
    print("| size | coordinates | FE matrices [s] | mass check [s] | stiffness check [s] | coincident nodes [s] |")
    print("|---|---|---|---|---|---|")
    for label in labels:
        mesh, mass, stiffness, fe_seconds = beam(SIZES[label])
        checks = [median_seconds(lambda: definiteness_fault(mass, "mass_matrix_ff")),
                  median_seconds(lambda: definiteness_fault(stiffness, "stiffness_matrix_ff")),
                  median_seconds(lambda: coincident_node_pairs(mesh.nodes))]
        print(f"| {label} | {mass.shape[0]} | {fe_seconds:.3g} | " + " | ".join(f"{s:.3g}" for s in checks) + " |")


if __name__ == "__main__":
    main()
