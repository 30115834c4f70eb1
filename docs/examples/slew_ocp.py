"""Tutorial step 4: an optimal-control problem.

A hub turns a flexible beam (a reduced body of 4 clamped-root modes, ``floatframe.ocp.slew``) by 30 degrees
in 2 s and must leave it at rest. The OCP finds the hub torque, piecewise constant on 40 steps, that does
this with little effort and little vibration energy at the end; IPOPT solves it with exact derivatives of
the discretised equations. The optimal torque and the rigid-body bang-bang torque are then simulated on a
finer step past the end of the manoeuvre. It prints the residual tip vibration of the optimal move:

    residual_vibration_mm = ...

Run from the repository root:  python docs/examples/slew_ocp.py [--output DIR]
(``python -m floatframe ocp slew`` is the same example with more options.)
"""
import argparse
from pathlib import Path

import numpy as np

from floatframe.ocp.slew import reference_torque, simulate, slew_model, solve_slew

ANGLE, DURATION, STEPS = np.radians(30.0), 2.0, 40


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default="output/tutorial", help="folder for the plot")
    output = Path(parser.parse_args(argv).output)
    output.mkdir(parents=True, exist_ok=True)

    model = slew_model()
    print(f"{model.assembled.n_coordinates} coordinates, first clamped frequency {model.first_frequency:g} Hz")
    solution = solve_slew(model, ANGLE, DURATION, n_steps=STEPS)
    print(f"IPOPT: {solution.status}; hub angle error {solution.angle_error:.1e} rad")
    optimal = simulate(model, solution.torque, DURATION, after=2 * DURATION)
    bang_bang = simulate(model, reference_torque(model, ANGLE, DURATION, STEPS), DURATION, after=2 * DURATION)
    print(f"bang-bang torque: residual vibration {bang_bang.amplitude * 1e3:.3f} mm")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(2, 1, figsize=(6, 5), sharex=True)
    for run, label in ((optimal, "optimal"), (bang_bang, "bang-bang")):
        axes[0].step(run.t, run.torque, where="pre", label=label)
        axes[1].plot(run.t, run.tip * 1e3, label=label)
    axes[0].set_ylabel("hub torque [N m]")
    axes[1].set_ylabel("tip deflection [mm]")
    axes[1].set_xlabel("t [s]")
    axes[0].legend()
    figure.tight_layout()
    figure.savefig(output / "slew_ocp.png", dpi=100)
    print(f"residual_vibration_mm = {optimal.amplitude * 1e3:.6f}")


if __name__ == "__main__":
    main()
