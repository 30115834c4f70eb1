"""Optimal control and exact sensitivities on assembled floatframe models.

- :mod:`floatframe.ocp.step`: one generalized-alpha step as a CasADi implicit function (step map), the
  step equations for simultaneous transcriptions, and a differentiable rollout;
- :mod:`floatframe.ocp.sensitivities`: IDAS on the index-1 form with forward/adjoint sensitivities, and
  dq(T)/dp in forward or adjoint mode;
- :mod:`floatframe.ocp.transcription`: the rest-to-rest OCP on the generalized-alpha transcription (Opti and
  IPOPT), shared by the examples;
- :mod:`floatframe.ocp.slew`: the rest-to-rest slew of a flexible hub-beam;
- :mod:`floatframe.ocp.arm`: the point-to-point motion of the two-link arm with a flexible forearm.

``ocp_main(["slew", ...])`` and ``ocp_main(["arm", ...])`` run the examples and write their plots
(``python -m floatframe ocp slew``, ``python -m floatframe ocp arm``).
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

OUTPUT_FILES = {"slew": ("slew.png", "slew.csv"), "arm": ("arm.png", "arm.csv")}


def ocp_main(argv: list[str]) -> int:
    """Command line of the OCP examples; returns the exit code."""
    from floatframe.command_line import HELP_FORMAT, finite_float, non_negative_float, positive_float, positive_int
    from floatframe.components.base import ModelError
    from floatframe.ocp.arm import ARM_MODES
    from floatframe.paths import OutputPathError, check_output_file, output_folder_argument

    parser = argparse.ArgumentParser(prog="floatframe ocp", description="Optimal control examples.",
                                     formatter_class=HELP_FORMAT)
    commands = parser.add_subparsers(dest="example", required=True)
    slew = commands.add_parser("slew", help="rest-to-rest slew of a flexible hub-beam (optimal vs open-loop torque)",
                               formatter_class=HELP_FORMAT)
    slew.add_argument("--output", type=output_folder_argument, default="output",
                      help="folder for the plots and the CSV")
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
    arm = commands.add_parser("arm", help="point-to-point motion of the arm with a flexible forearm (optimal vs "
                              "the rigid arm's computed torques)", formatter_class=HELP_FORMAT)
    arm.add_argument("--output", type=output_folder_argument, default="output", help="folder for the plot and the CSV")
    arm.add_argument("--shoulder", type=finite_float, default=60.0, help="target shoulder angle [deg]")
    arm.add_argument("--elbow", type=finite_float, default=45.0, help="target elbow angle [deg]")
    arm.add_argument("--duration", type=positive_float, default=2.0, help="manoeuvre time T [s]")
    arm.add_argument("--steps", type=positive_int, default=160, help="generalized-alpha steps (torque values) on [0, T]")
    arm.add_argument("--modes", type=positive_int, default=ARM_MODES, help="clamped-root modes of the reduced forearm")
    arm.add_argument("--weight", type=non_negative_float, default=10.0, help="weight of the final vibration energy")
    arm.add_argument("--full-mesh-check", action="store_true",
                     help="also re-simulate both torques on the full FFRF mesh of the forearm")
    arm.add_argument("--verbose", action="store_true", help="print IPOPT's iterations")
    arguments = parser.parse_args(argv)
    example = slew if arguments.example == "slew" else arm
    if arguments.example == "slew" and arguments.angle == 0:
        slew.error("argument --angle: a slew by 0 deg is no manoeuvre (the OCP is scaled by its torque); give a "
                   "non-zero angle")
    if arguments.example == "arm" and arguments.shoulder == arguments.elbow == 0:
        arm.error("arguments --shoulder and --elbow: the target 0 / 0 deg is the start, no manoeuvre (the OCP is "
                  "scaled by its torques); give a non-zero angle")
    try:
        for name in OUTPUT_FILES[arguments.example]:
            check_output_file(Path(arguments.output) / name)
        return run_slew(arguments) if arguments.example == "slew" else run_arm(arguments)
    except (OutputPathError, ModelError) as error:  # wrong arguments found when the model is built
        example.error(str(error))


def _solved(solve):
    """Run an OCP (``solve()``) and print IPOPT's summary; None, after printing the error, if IPOPT failed."""
    from floatframe.ocp.transcription import OCPError

    try:
        solution = solve()
    except OCPError as error:
        print(f"error: {error}")
        return None
    print(f"IPOPT: {solution.status} in {solution.iterations} iterations, {solution.solve_time:.1f} s; terminal "
          f"errors on the OCP's grid: angle {solution.angle_error:.2e} rad, rate {solution.rate_error:.2e} rad/s")
    return solution


def terminal_angles(t, angles, duration: float) -> tuple[np.ndarray, np.ndarray]:
    """The angles (k,) [rad] of a re-simulation at the end of the manoeuvre T = ``duration`` and at its last
    time; ``angles`` (n,) or (n, k) over ``t`` (n,)."""
    angles = np.asarray(angles, dtype=float).reshape(len(t), -1)
    at_end = np.array([np.interp(duration, t, column) for column in angles.T])
    return at_end, angles[-1]


def _re_simulated(names, targets, at_end, last, t_last) -> str:
    """One line: the re-simulation's angles at T against the targets [deg], and at its last time."""
    errors = ", ".join(f"{name} {np.degrees(a):.2f} deg (target {np.degrees(b):g}, error {a - b:.2e} rad)"
                       for name, a, b in zip(names, at_end, targets))
    later = " / ".join(f"{np.degrees(a):.2f}" for a in last)
    return f"re-simulated with 4x finer steps: at T {errors}; at {t_last:g} s {later} deg"


def _vibrations(what, optimal, reference, reference_name) -> str:
    """One line: the residual vibration amplitudes [mm] of the optimal and the reference motion and their ratio."""
    return (f"{what}: optimal {optimal.amplitude * 1e3:.3f} mm, {reference_name} {reference.amplitude * 1e3:.3f} mm, "
            f"ratio {reference.amplitude / optimal.amplitude:.1f}")


def run_arm(arguments) -> int:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from floatframe.ocp.arm import arm_model, reference_torques, simulate_arm, solve_arm
    model = arm_model(modes=arguments.modes)
    target = np.radians([arguments.shoulder, arguments.elbow])
    duration, steps = arguments.duration, arguments.steps
    print(f"arm: reduced forearm ({model.forearm.modes.n_modes} modes), {model.assembled.n_coordinates} coordinates, "
          f"{model.assembled.n_multipliers} constraints; target {arguments.shoulder:g} / {arguments.elbow:g} deg "
          f"in {duration:g} s")
    solution = _solved(lambda: solve_arm(model, target, duration, steps, vibration_weight=arguments.weight,
                                         verbose=arguments.verbose))
    if solution is None:
        return 1
    reference = reference_torques(model, target, duration, steps)
    motions = [simulate_arm(model, torques, duration, duration) for torques in (solution.torques, reference)]
    at_end, last = terminal_angles(motions[0].t, motions[0].angles, duration)
    print(_re_simulated(["shoulder", "elbow"], target, at_end, last, motions[0].t[-1]))
    print(_vibrations("residual tip vibration after T (4x finer steps)", *motions, "computed torque"))
    if arguments.full_mesh_check:
        full = arm_model(modes=None)
        checks = [simulate_arm(full, torques, duration, duration) for torques in (solution.torques, reference)]
        print(_vibrations(f"the same torques on the full FFRF forearm ({full.assembled.n_coordinates} coordinates)",
                          *checks, "computed torque"))
    output = Path(arguments.output)
    output.mkdir(parents=True, exist_ok=True)
    figure, axes = plt.subplots(3, 1, figsize=(8, 9), sharex=True)
    for torques, label in ((solution.torques, "optimal"), (reference, "computed torque (rigid arm)")):
        for joint, style in ((0, "-"), (1, "--")):
            axes[0].step(solution.t[1:], torques[:, joint], where="pre", linestyle=style,
                         label=f"{label}, {('shoulder', 'elbow')[joint]}")
    for motion, label in zip(motions, ("optimal", "computed torque")):
        axes[1].plot(motion.t, np.degrees(motion.angles), label=[f"{label}, shoulder", f"{label}, elbow"])
        axes[2].plot(motion.t, motion.deflection * 1e3, label=label)
    for axis, ylabel in zip(axes, ("joint torque [N m]", "joint angle [deg]", "tip deflection [mm]")):
        axis.axvline(duration, color="gray", linestyle=":")
        axis.set_ylabel(ylabel)
        axis.grid(True)
        axis.legend(fontsize="small")
    axes[2].set_xlabel("t [s]")
    figure.tight_layout()
    plot = output / OUTPUT_FILES["arm"][0]
    figure.savefig(plot, dpi=120)
    csv = output / OUTPUT_FILES["arm"][1]
    optimal, computed = motions
    from floatframe.solvers.result import write_table

    write_table(csv, ["t [s]", "shoulder angle optimal [rad]", "elbow angle optimal [rad]",
                      "tip deflection optimal [m]", "shoulder angle computed torque [rad]",
                      "elbow angle computed torque [rad]", "tip deflection computed torque [m]"],
                np.column_stack([optimal.t, optimal.angles, optimal.deflection, computed.angles, computed.deflection]),
                "ocp arm")
    print(f"wrote {plot} and {csv}")
    return 0


def run_slew(arguments) -> int:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from floatframe.ocp.slew import (FULL_ELEMENTS, REDUCED_ELEMENTS, reference_torque, simulate, slew_model,
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
    solution = _solved(lambda: solve_slew(model, angle, duration, arguments.steps, vibration_weight=arguments.weight,
                                          verbose=arguments.verbose))
    if solution is None:
        return 1
    after = 2 * duration
    optimal = simulate(model, solution.torque, duration, after)
    reference = simulate(model, reference_torque(model, angle, duration, arguments.steps, arguments.reference),
                         duration, after)
    hub_at_end, hub_last = terminal_angles(optimal.t, optimal.hub_angle, duration)
    print(_re_simulated(["hub"], [angle], hub_at_end, hub_last, optimal.t[-1]))
    print(_vibrations("residual tip vibration after T (4x finer steps)", optimal, reference, arguments.reference))
    full = None
    if model.reduced:      # the same torques on the full FFRF mesh of the same fine mesh
        full_model = slew_model(full_mesh=True, **beam)
        full = (simulate(full_model, solution.torque, duration, after),
                simulate(full_model, reference_torque(full_model, angle, duration, arguments.steps,
                                                      arguments.reference), duration, after))
        print(_vibrations(f"the same torques on the full FFRF mesh ({full_model.assembled.n_coordinates} coordinates)",
                          *full, arguments.reference))
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
    axes[0].set_title(f"slew to {arguments.angle:g} deg in {duration:g} s (OCP grid: error "
                      f"{solution.angle_error:.1e} rad; re-simulated: {np.degrees(hub_at_end[0]):.2f} deg at T)\n"
                      f"residual tip vibration {optimal.amplitude * 1e3:.2f} mm (optimal) vs "
                      f"{reference.amplitude * 1e3:.2f} mm ({arguments.reference})", fontsize="medium")
    figure.tight_layout()
    plot = output / OUTPUT_FILES["slew"][0]
    figure.savefig(plot, dpi=120)
    csv = output / OUTPUT_FILES["slew"][1]
    columns = [optimal.t, optimal.torque, optimal.hub_angle, optimal.tip, reference.torque, reference.hub_angle,
               reference.tip]
    names = ["t [s]", "torque optimal [N m]", "hub angle optimal [rad]", "tip deflection optimal [m]",
             "torque reference [N m]", "hub angle reference [rad]", "tip deflection reference [m]"]
    if full:
        columns += [full[0].tip, full[1].tip]
        names += ["tip deflection optimal full mesh [m]", "tip deflection reference full mesh [m]"]
    from floatframe.solvers.result import write_table

    write_table(csv, names, np.column_stack(columns), "ocp slew")
    print(f"wrote {plot} and {csv}")
    return 0
