"""Kane's spin-up beam over 20 s with the full FFRF body (1,471 coordinates) and the reduced one (12 clamped modes),
both stiffened, against the geometrically exact reference (tests/models/data/spin_up_reference.csv, Exudyn ANCF
cable); the linear reduced body for comparison.

For Omega_s = 4 and 10 rad/s: peak tip deflection and its time, the largest deviation from the reference at its
samples (every 0.05 s) in % of the reference's peak, Newton iterations, rejected steps and the solve time. Writes the
full body's tip at the reference's times to tests/models/data/spin_up_full_body.csv and, with ``--figures``,
docs/figures/spin_up_beam_4.png and _10.png (about 10 min in all: 2 x 4.5 min for the full body).

    python benchmarks/spin_up_beam_full.py [--spins 4,10] [--figures] [--plain-steps N]

``--plain-steps N``: first integrate N steps of the full body with elastic_forces="plain" and report its Newton
iterations (the stall that the accurate sum removes).
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from floatframe.models.spin_up_beam import build_spin_up_beam, run_spin_up_beam  # noqa: E402

REFERENCE = ROOT / "tests" / "models" / "data" / "spin_up_reference.csv"
OUTPUT = ROOT / "tests" / "models" / "data" / "spin_up_full_body.csv"
FIGURES = ROOT / "docs" / "figures"


def plain_iterations(spin: float, steps: int) -> str:
    """Newton iterations of the first ``steps`` steps of the full body with plain elastic forces."""
    from floatframe.solvers.genalpha import GeneralizedAlpha
    from floatframe.solvers.result import SolverError

    assembled = build_spin_up_beam(spin, True, full=True, elastic_forces="plain").system.assemble()
    solver = GeneralizedAlpha(spectral_radius=0.8)
    started = time.perf_counter()
    try:
        result = solver.solve(assembled, t_end=0.01 * steps, n_steps=steps, progress=False)
        statistics = result.statistics
    except SolverError as error:
        statistics = solver.statistics
        return f"plain elastic forces: failed at t = {error.time:.3g} s ({statistics.newton_iterations} iterations)"
    return (f"plain elastic forces, {steps} steps: {statistics.newton_iterations} Newton iterations, "
            f"{statistics.rejected_steps} rejected steps, {time.perf_counter() - started:.1f} s")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spins", default="4,10")
    parser.add_argument("--figures", action="store_true", help="redraw docs/figures/spin_up_beam_<spin>.png")
    parser.add_argument("--plain-steps", type=int, default=0)
    args = parser.parse_args(argv)
    reference = np.loadtxt(REFERENCE, delimiter=",")
    columns = {4.0: 1, 10.0: 2}
    recorded = [reference[:, 0]]
    for spin in (float(value) for value in args.spins.split(",")):
        exact = reference[:, columns[spin]]
        peak = np.abs(exact).max()
        if args.plain_steps:
            print(f"Omega_s = {spin:g} rad/s, full body, {plain_iterations(spin, args.plain_steps)}")
        runs = {}
        for label, options in (("full body", dict(full=True)), ("reduced body", {}),
                               ("linear FFRF (reduced)", dict(stiffening=False))):
            started = time.perf_counter()
            times, tip, model = run_spin_up_beam(spin, **{"stiffening": True, **options}, progress=False)
            elapsed = time.perf_counter() - started
            runs[label] = (times, tip)
            statistics = model.statistics
            if times[-1] < 20.0 - 1e-9:
                print(f"Omega_s = {spin:g} rad/s, {label}: stopped at {times[-1]:.2f} s")
                continue
            ours = np.interp(reference[:, 0], times, tip)
            k = int(np.argmin(tip))
            print(f"Omega_s = {spin:g} rad/s, {label}: peak {tip[k]:.4f} m at {times[k]:.2f} s (exact {exact.min():.4f} m "
                  f"at {reference[np.argmin(exact), 0]:.2f} s); largest deviation {100 * np.abs(ours - exact).max() / peak:.2f} % "
                  f"of the peak; {statistics.newton_iterations} Newton iterations in {statistics.steps} steps, "
                  f"{statistics.rejected_steps} rejected; {elapsed:.1f} s with the build")
            if label == "full body":
                recorded.append(ours)
        if args.figures:
            figure_of(spin, runs, reference[:, 0], exact)
    if len(recorded) == 3:
        np.savetxt(OUTPUT, np.column_stack(recorded), delimiter=",", fmt="%.8g",
                   header="t [s], tip deflection [m] of the stiffened full body (40 Hex20, 1,471 coordinates) at "
                          "Omega_s = 4 and 10 rad/s; python benchmarks/spin_up_beam_full.py")
        print(f"wrote {OUTPUT}")
    return 0


def figure_of(spin, runs, reference_times, exact):
    """docs/figures/spin_up_beam_<spin>.png: the exact beam, both stiffened bodies and the linear one."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    axes.plot(reference_times, exact, color="black", linewidth=3, alpha=0.35, label="exact beam (ANCF cable)")
    styles = {"full body": dict(color="tab:blue"), "reduced body": dict(color="tab:orange", linestyle="--"),
              "linear FFRF (reduced)": dict(color="tab:red", linestyle=":")}
    for label, (times, tip) in runs.items():
        axes.plot(times, tip, label=f"stiffened {label}" if "linear" not in label else label, **styles[label])
    axes.set_ylim(-2.5 if spin > 5 else -1.5, 0.5)
    axes.set_xlim(0, 20)
    axes.set_xlabel("t [s]")
    axes.set_ylabel("tip deflection [m]")
    axes.set_title(f"Kane's spin-up beam, Omega_s = {spin:g} rad/s")
    axes.legend(loc="lower right")
    figure.tight_layout()
    path = FIGURES / f"spin_up_beam_{spin:g}.png"
    figure.savefig(path, dpi=120)
    plt.close(figure)
    print(f"wrote {path}")


if __name__ == "__main__":
    sys.exit(main())
