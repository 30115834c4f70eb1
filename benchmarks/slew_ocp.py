"""Benchmark: the slew OCP (30 deg in 2 s) on the full-mesh beam and on reduced beams of several sizes.

    python benchmarks/slew_ocp.py                  # full 2-element mesh and 16 elements reduced to 2, 4, 6, 8 modes
    python benchmarks/slew_ocp.py --quick          # reduced beams only (the full-mesh OCP takes ~45 s)
    python benchmarks/slew_ocp.py --steps 40 --angle 90 --duration 1

For each model: its size, build time (mesh, modes, assembly), OCP solve time (IPOPT alone, and the whole
``solve_slew`` call with the transcription and the initial guess), IPOPT iterations, and the residual tip
vibration after T of the optimal and the bang-bang torques simulated with 4x finer steps, on the model
itself and on the full FFRF body of the 16-element mesh (211 coordinates).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from floatframe.ocp.slew import REDUCED_ELEMENTS, reference_torque, simulate, slew_model, solve_slew  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="skip the full-mesh OCP")
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--angle", type=float, default=30.0, help="[deg]")
    parser.add_argument("--duration", type=float, default=2.0, help="[s]")
    parser.add_argument("--modes", default="2,4,6,8", help="comma-separated mode counts of the reduced beams")
    arguments = parser.parse_args()
    angle, duration, steps = np.radians(arguments.angle), arguments.duration, arguments.steps
    started = time.perf_counter()
    fine = slew_model(full_mesh=True, n_elements=REDUCED_ELEMENTS)
    print(f"full FFRF check mesh: {REDUCED_ELEMENTS} elements, {fine.assembled.n_coordinates} coordinates, "
          f"built in {time.perf_counter() - started:.2f} s")
    cases = [(f"reduced, {REDUCED_ELEMENTS} elements, {n} modes", dict(modes=int(n)))
             for n in arguments.modes.split(",")]
    if not arguments.quick:
        cases.insert(0, ("full mesh, 2 elements", dict(full_mesh=True)))
    print("| model | coordinates | build [s] | IPOPT [s] | solve_slew [s] | iterations | own: optimal / bang-bang [mm] "
          "| ratio | full 16-element mesh: optimal / bang-bang [mm] | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, options in cases:
        started = time.perf_counter()
        model = slew_model(**options)
        built = time.perf_counter()
        solution = solve_slew(model, angle, duration, steps)
        solved = time.perf_counter()
        bang_bang = reference_torque(model, angle, duration, steps, "bang-bang")
        own = [simulate(model, torque, duration, 2 * duration) for torque in (solution.torque, bang_bang)]
        full = [simulate(fine, torque, duration, 2 * duration) for torque in (solution.torque, bang_bang)]
        print(f"| {label} | {model.assembled.n_coordinates} | {built - started:.2f} | {solution.solve_time:.1f} | "
              f"{solved - built:.1f} | {solution.iterations} | {own[0].amplitude * 1e3:.2f} / "
              f"{own[1].amplitude * 1e3:.1f} | {own[1].amplitude / own[0].amplitude:.1f} | "
              f"{full[0].amplitude * 1e3:.2f} / {full[1].amplitude * 1e3:.1f} | "
              f"{full[1].amplitude / full[0].amplitude:.1f} |", flush=True)


if __name__ == "__main__":
    main()
