"""Cost of geometric stiffening (issue 24): build and step time of Kane's spin-up beam with the option on and off,
for reduced bodies of 8 to 64 clamped modes and a full body of about 10k coordinates.

Build: the model (mesh, FE matrices, modes, and with the option the load-case solves and K_G) plus System.assemble;
steps: generalized-alpha over the first ``--steps`` steps of 0.01 s of the spin-up at 4 rad/s (best of ``--repeat``).

    python benchmarks/geometric_stiffening.py [--modes 8,16,32,64] [--full-elements 277] [--steps 50] [--no-full]
"""
import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from floatframe.models.spin_up_beam import build_spin_up_beam  # noqa: E402
from floatframe.solvers.genalpha import GeneralizedAlpha  # noqa: E402


def measure(stiffening, modes=12, elements=40, full=False, steps=50, repeat=2):
    """(build time [s], time of ``steps`` steps [s], coordinates) of one configuration."""
    started = time.perf_counter()
    # the full body with plain elastic forces, as when docs/performance.md was measured (its Newton iterations stall
    # on their rounding later in the spin-up, which elastic_forces='accurate' removes: docs/geometric_stiffening.md)
    model = build_spin_up_beam(4.0, stiffening, modes, elements, full, elastic_forces="plain")
    assembled = model.system.assemble()
    build = time.perf_counter() - started
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        GeneralizedAlpha(spectral_radius=0.8).solve(assembled, t_end=0.01 * steps, n_steps=steps)
        best = min(best, time.perf_counter() - started)
    return build, best, assembled.n_coordinates


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default="8,16,32,64")
    parser.add_argument("--full-elements", type=int, default=277, help="Hex20 along the full beam (277: 10,0xx coordinates)")
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--no-full", action="store_true")
    args = parser.parse_args(argv)
    print("| body | coordinates | build off [s] | build on [s] | steps off [s] | steps on [s] |")
    print("|---|---:|---:|---:|---:|---:|")
    configurations = [dict(modes=int(m)) for m in args.modes.split(",")]
    if not args.no_full:
        configurations.append(dict(full=True, elements=args.full_elements, repeat=1))
    for configuration in configurations:
        off = measure(False, steps=args.steps, **configuration)
        on = measure(True, steps=args.steps, **configuration)
        label = "full" if configuration.get("full") else f"reduced, {configuration['modes']} modes"
        print(f"| {label} | {off[2]:,} | {off[0]:.2f} | {on[0]:.2f} | {off[1]:.3f} | {on[1]:.3f} |", flush=True)


if __name__ == "__main__":
    main()
