"""Optimal control and exact sensitivities on assembled floatframe models.

- :mod:`floatframe.ocp.step`: one generalized-alpha step as a CasADi implicit function (step map), the
  step equations for simultaneous transcriptions, and a differentiable rollout;
- :mod:`floatframe.ocp.sensitivities`: IDAS on the index-1 form with forward/adjoint sensitivities, and
  dq(T)/dp in forward or adjoint mode;
- :mod:`floatframe.ocp.slew`: the rest-to-rest slew of a flexible hub-beam solved with Opti and IPOPT.

``ocp_main(["slew", ...])`` runs the slew example and writes its plots (``python -m floatframe ocp slew``).
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np


def ocp_main(argv: list[str]) -> int:
    """Command line of the OCP examples; returns the exit code."""
    from floatframe.cli import HELP_FORMAT, finite_float, non_negative_float, positive_float, positive_int

    parser = argparse.ArgumentParser(prog="floatframe ocp", description="Optimal control examples.",
                                     formatter_class=HELP_FORMAT)
    commands = parser.add_subparsers(dest="example", required=True)
    slew = commands.add_parser("slew", help="rest-to-rest slew of a flexible hub-beam (optimal vs open-loop torque)",
                               formatter_class=HELP_FORMAT)
    slew.add_argument("--output", default="output", help="folder for the plots and the CSV")
    slew.add_argument("--angle", type=finite_float, default=30.0, help="slew angle [deg]")
    slew.add_argument("--duration", type=positive_float, default=2.0, help="slew time T [s]")
    slew.add_argument("--steps", type=positive_int, default=60, help="generalized-alpha steps (torque values) on [0, T]")
    slew.add_argument("--elements", type=positive_int, default=None,
                      help="Hex8 elements along the beam (default: 16 for the reduced beam, 2 with --full-mesh)")
    slew.add_argument("--modes", type=positive_int, default=4,
                      help="clamped-root modes of the reduced beam (the OCP's default model)")
    slew.add_argument("--full-mesh", action="store_true",
                      help="optimise on the full FFRF mesh instead of the reduced beam")
    slew.add_argument("--frequency", type=positive_float, default=1.0, help="first clamped bending frequency [Hz]")
    slew.add_argument("--hub-inertia", type=positive_float, default=2.0, help="hub inertia [kg m^2]")
    slew.add_argument("--weight", type=non_negative_float, default=10.0, help="weight of the final vibration energy")
    slew.add_argument("--reference", choices=("bang-bang", "smooth"), default="bang-bang",
                      help="open-loop torque to compare with")
    slew.add_argument("--verbose", action="store_true", help="print IPOPT's iterations")
    arguments = parser.parse_args(argv)
    return run_slew(arguments)


def run_slew(arguments) -> int:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from floatframe.ocp.slew import (FULL_ELEMENTS, REDUCED_ELEMENTS, OCPError, reference_torque, simulate, slew_model,
                                     solve_slew)

    elements = arguments.elements or (FULL_ELEMENTS if arguments.full_mesh else REDUCED_ELEMENTS)
    beam = dict(n_elements=elements, first_frequency=arguments.frequency, hub_inertia=arguments.hub_inertia)
    model = slew_model(full_mesh=arguments.full_mesh, modes=arguments.modes, **beam)
    angle, duration = np.radians(arguments.angle), arguments.duration
    assembled = model.assembled
    kind = (f"reduced beam ({elements} Hex8 elements, {model.mode_basis.shape[1]} clamped-root modes)" if model.reduced
            else f"full FFRF beam ({elements} Hex8 elements)")
    print(f"slew: {kind}, {assembled.n_coordinates} coordinates, {assembled.n_multipliers} constraints, "
          f"rigid inertia {model.rigid_inertia:.4g} kg m^2, first clamped frequency {model.first_frequency:g} Hz")
    try:
        solution = solve_slew(model, angle, duration, arguments.steps, vibration_weight=arguments.weight,
                              verbose=arguments.verbose)
    except OCPError as error:
        print(f"error: {error}")
        return 1
    print(f"IPOPT: {solution.status} in {solution.iterations} iterations, {solution.solve_time:.1f} s; "
          f"|phi(T) - target| = {solution.angle_error:.2e} rad, |omega(T)| = {solution.rate_error:.2e} rad/s")
    after = 2 * duration
    optimal = simulate(model, solution.torque, duration, after)
    reference = simulate(model, reference_torque(model, angle, duration, arguments.steps, arguments.reference),
                         duration, after)
    ratio = reference.amplitude / optimal.amplitude
    print(f"residual tip vibration after T (4x finer steps): optimal {optimal.amplitude * 1e3:.3f} mm, "
          f"{arguments.reference} {reference.amplitude * 1e3:.3f} mm, ratio {ratio:.1f}")
    full = None
    if model.reduced:      # the same torques on the full FFRF mesh of the same fine mesh
        full_model = slew_model(full_mesh=True, **beam)
        full = (simulate(full_model, solution.torque, duration, after),
                simulate(full_model, reference_torque(full_model, angle, duration, arguments.steps,
                                                      arguments.reference), duration, after))
        print(f"the same torques on the full FFRF mesh ({full_model.assembled.n_coordinates} coordinates): optimal "
              f"{full[0].amplitude * 1e3:.3f} mm, {arguments.reference} {full[1].amplitude * 1e3:.3f} mm, "
              f"ratio {full[1].amplitude / full[0].amplitude:.1f}")
    output = Path(arguments.output)
    output.mkdir(parents=True, exist_ok=True)
    figure, axes = plt.subplots(3, 1, figsize=(8, 9), sharex=True)
    for result, label in ((optimal, "optimal"), (reference, arguments.reference)):
        axes[0].step(result.t, result.torque, where="pre", label=label)
        axes[1].plot(result.t, np.degrees(result.hub_angle), label=label)
        axes[2].plot(result.t, result.tip * 1e3, label=label)
    for result, label in zip(full or (), ("optimal, full mesh", f"{arguments.reference}, full mesh")):
        axes[2].plot(result.t, result.tip * 1e3, linestyle="--", label=label)
    for axis, ylabel in zip(axes, ("hub torque [N m]", "hub angle [deg]", "tip deflection [mm]")):
        axis.axvline(duration, color="gray", linestyle=":")
        axis.set_ylabel(ylabel)
        axis.grid(True)
        axis.legend()
    axes[2].set_xlabel("t [s]")
    axes[0].set_title(f"slew by {arguments.angle:g} deg in {duration:g} s: residual tip vibration "
                      f"{optimal.amplitude * 1e3:.2f} mm (optimal) vs {reference.amplitude * 1e3:.2f} mm")
    figure.tight_layout()
    plot = output / "slew.png"
    figure.savefig(plot, dpi=120)
    csv = output / "slew.csv"
    columns = [optimal.t, optimal.torque, optimal.hub_angle, optimal.tip, reference.torque, reference.hub_angle,
               reference.tip]
    header = "t,torque_optimal,angle_optimal,tip_optimal,torque_reference,angle_reference,tip_reference"
    if full:
        columns += [full[0].tip, full[1].tip]
        header += ",tip_optimal_full_mesh,tip_reference_full_mesh"
    np.savetxt(csv, np.column_stack(columns), delimiter=",", header=header)
    print(f"wrote {plot} and {csv}")
    return 0
