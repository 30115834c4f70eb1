"""Kane's spin-up beam (Kane, Ryan and Banerjee 1987): a cantilever on a hub whose angle is prescribed.

The beam (L = 10 m, EI = 1.4e4 N m^2, rho A = 1.2 kg/m, EA = 2.8e7 N) is a square Hex20 bar whose section
(width b = sqrt(12 EI / EA)) and material (E = EA / b^2, rho = rho A / b^2, nu = 0) give these values, along x from
the hub axis, clamped at x = 0. The hub turns about z by

    theta(t) = (Omega_s / T) (t^2 / 2 + (T / 2 pi)^2 (cos(2 pi t / T) - 1))   for t < T = 15 s,
    theta(t) = Omega_s (t - T / 2)                                            after,

imposed on the body's frame node by :class:`PrescribedHubRotation` (frame origin at the hub, only the rotation about
z left, set to theta(t)). The beam deflects in the plane of rotation; its tip deflection in the rotating frame is the
mean body-fixed y displacement of the tip face.

The beam is an ObjectFFRFReducedOrder on its ``modes`` clamped modes (``craig_bampton_modes`` of the root face), or
with ``full=True`` an ObjectFFRF (1,471 coordinates) with its root face held by CoordinateConstraints and its elastic
forces K q_f summed accurately (``elastic_forces="accurate"``: in bending the products K_ij q_j of this slender solid
mesh cancel by seven digits, and the rounding of a plain sum keeps Newton from converging). With ``stiffening`` (default) the
body gets the centrifugal and angular-acceleration load cases of :func:`floatframe.fem.geometric_stiffness_cases`;
without, it is the linear FFRF body, which softens and diverges at Omega_s = 4 and 10 rad/s.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import numpy as np

from floatframe.components import CoordinateConstraint, MarkerNodeCoordinate, NodePointGround
from floatframe.components.base import Component, resolve
from floatframe.components.connectors import Connector
from floatframe.components.ffrf import add_ffrf_body
from floatframe.components.ffrf_reduced import add_reduced_ffrf_body
from floatframe.components.nodes import NodeRigidBodyEP
from floatframe.solvers.result import write_table
from floatframe.fem import block_mesh, craig_bampton_modes, geometric_stiffness_cases, linear_elastic_matrices
from floatframe.assembly import System

LENGTH = 10.0               # L [m]
BENDING_STIFFNESS = 1.4e4   # EI [N m^2]
MASS_PER_LENGTH = 1.2       # rho A [kg/m]
AXIAL_STIFFNESS = 2.8e7     # EA [N]
RAMP_TIME = 15.0            # T [s]


def hub_angle(t, spin: float, ramp_time: float = RAMP_TIME):
    """theta(t) [rad] of the hub for the final speed ``spin`` = Omega_s [rad/s]; ``t`` a number or a CasADi scalar."""
    ramp = spin / ramp_time * (t ** 2 / 2 + (ramp_time / (2 * np.pi)) ** 2 * (np.cos(2 * np.pi * t / ramp_time) - 1)
                               if not isinstance(t, (ca.SX, ca.MX)) else
                               t ** 2 / 2 + (ramp_time / (2 * np.pi)) ** 2 * (ca.cos(2 * np.pi * t / ramp_time) - 1))
    steady = spin * (t - ramp_time / 2)
    if isinstance(t, (ca.SX, ca.MX)):
        return ca.if_else(t < ramp_time, ramp, steady)
    return ramp if t < ramp_time else steady


class PrescribedHubRotation(Connector):
    """Holds a NodeRigidBodyEP at the origin and turns it about z by ``angle(t)`` [rad] (a function of the CasADi time):
    q_t = 0, theta_1 = theta_2 = 0, theta_3 cos(angle / 2) - theta_0 sin(angle / 2) = 0 (6 equations; with the node's
    Euler-parameter norm they fix its 7 coordinates). A constraint on one node, without markers."""

    type_name = "PrescribedHubRotation"
    n_constraints = 6

    def __init__(self, node, angle, name=""):
        Component.__init__(self, name)
        if not callable(angle):
            raise self.error(f"angle must be a function of the time, got {angle!r}")
        self.node_number, self.angle = node, angle
        self.multiplier_indices = np.zeros(0, dtype=int)

    def connect(self, system):
        self.node = resolve(system, "node", self.node_number, self, "node")
        if not isinstance(self.node, NodeRigidBodyEP):
            raise self.error(f"node must be a NodeRigidBodyEP, got {self.node.label}")

    def add_terms(self, ctx):
        theta = self.node.euler_parameters(ctx)
        half = self.angle(ctx.t) / 2
        ctx.add_constraint(self, ca.vertcat(self.node.position(ctx), theta[1], theta[2],
                                            theta[3] * ca.cos(half) - theta[0] * ca.sin(half)))


@dataclass
class SpinUpBeam:
    """A built spin-up model: the system, the body, its mesh and the tip-face nodes."""

    system: System
    body: object
    mesh: object
    tip_nodes: np.ndarray
    spin: float
    stiffening: bool
    statistics: object = None   # the solver's SolverStatistics after run_spin_up_beam

    def tip_deflection(self, q: np.ndarray) -> np.ndarray:
        """Tip deflection in the rotating frame [m] (the tip face's mean body-fixed y displacement) for coordinates
        q (steps, n) of the assembled system."""
        q = np.atleast_2d(q)
        if hasattr(self.body, "invariants"):
            rows = self.body.invariants.mode_basis[3 * self.tip_nodes + 1].mean(axis=0)        # mean Psi_y of the tip
            return q[:, self.body.modal_node.coordinate_indices] @ rows
        columns = [self.body.mesh_nodes[node].coordinate_indices[1] for node in self.tip_nodes]
        return q[:, columns].mean(axis=1)


def beam_section():
    """Width b [m], Young's modulus E [Pa] and density rho [kg/m^3] of the square section with Kane's EI, EA, rho A."""
    width = np.sqrt(12 * BENDING_STIFFNESS / AXIAL_STIFFNESS)              # I / A = b^2 / 12 = EI / EA
    return width, AXIAL_STIFFNESS / width ** 2, MASS_PER_LENGTH / width ** 2


def build_spin_up_beam(spin: float = 4.0, stiffening: bool = True, modes: int = 12, elements: int = 40,
                       full: bool = False, elastic_forces: str = "accurate") -> SpinUpBeam:
    """Build Kane's spin-up beam for the final hub speed ``spin`` = Omega_s [rad/s] with ``elements`` Hex20 along the
    beam; a reduced body on ``modes`` clamped modes, or the full body (``full``) with its elastic forces summed
    ``elastic_forces`` ("accurate" or "plain", see ObjectFFRF: the plain sum's rounding stalls Newton from 0.3 s on)."""
    width, youngs_modulus, density = beam_section()
    mesh = block_mesh(LENGTH, width, width, elements, 1, 1, element="Hex20")
    mesh.nodes[:, 1:] -= width / 2                                              # section centred on the x axis
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus, 0.0, density)
    root = np.flatnonzero(np.isclose(mesh.nodes[:, 0], 0.0))
    tip = np.flatnonzero(np.isclose(mesh.nodes[:, 0], LENGTH))
    options = {}
    if stiffening:
        options["geometric_stiffness"] = geometric_stiffness_cases(mesh, youngs_modulus, 0.0, mass, stiffness,
                                                                   held_nodes=root, frame_cases=("omega", "alpha"),
                                                                   name="beam")
    system = System()
    if full:
        body = add_ffrf_body(system, mesh.nodes, mass, stiffness, name="beam", elastic_forces=elastic_forces,
                             **options)
        ground = system.add(MarkerNodeCoordinate(system.add(NodePointGround((0.0, 0.0, 0.0))), 0))
        for node in root:
            for k in range(3):
                system.add(CoordinateConstraint([ground, system.add(MarkerNodeCoordinate(body.node_numbers[1 + node],
                                                                                          k))]))
    else:
        basis = craig_bampton_modes(mass, stiffness, mesh.nodes, [root], modes, solver="sparse")
        body = add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, basis, name="beam", **options)
    system.add(PrescribedHubRotation(body.node_numbers[0], lambda t: hub_angle(t, spin), name="hub"))
    return SpinUpBeam(system, body, mesh, tip, spin, stiffening)


def run_spin_up_beam(spin: float = 4.0, stiffening: bool = True, modes: int = 12, elements: int = 40,
                     full: bool = False, end_time: float = 20.0, step: float = 0.01, spectral_radius: float = 0.8,
                     progress: bool | None = None):
    """Integrate the spin-up over ``end_time`` [s] with generalized-alpha, step ``step`` [s] (``progress``: the solve's
    progress bar, default for 2000 steps or more); returns (times [s], tip deflection [m], the model, whose
    ``statistics`` are the solver's). A diverging linear body ends early where Newton fails; the times say how far
    it got."""
    from floatframe.solvers.genalpha import GeneralizedAlpha
    from floatframe.solvers.result import SolverError

    model = build_spin_up_beam(spin, stiffening, modes, elements, full)
    assembled = model.system.assemble()
    solver = GeneralizedAlpha(spectral_radius=spectral_radius)
    try:
        result = solver.solve(assembled, t_end=end_time, n_steps=int(round(end_time / step)), progress=progress)
    except SolverError as error:
        partial = getattr(error, "result", None)
        if partial is None:
            raise
        result = partial
    model.statistics = result.statistics
    return np.asarray(result.t), model.tip_deflection(np.asarray(result.q)), model


def spin_up_main(argv=None) -> int:
    """``floatframe run spin-up-beam [--spin 4|10] [--no-stiffening] [--modes N] [--full] [--step H] [--output DIR]``:
    integrate Kane's spin-up over 20 s with and without stiffening (only without: ``--no-stiffening``), print the peak
    tip deflections and write DIR/spin_up_beam.png and DIR/spin_up_beam_tip.csv."""
    import argparse
    from pathlib import Path

    from floatframe.command_line import HELP_FORMAT, positive_float, positive_int
    from floatframe.paths import check_output_file, output_folder_argument

    parser = argparse.ArgumentParser(prog="floatframe run spin-up-beam", formatter_class=HELP_FORMAT,
                                     description="Kane's spin-up beam: tip deflection with and without geometric "
                                                 "stiffening (docs/geometric_stiffening.md)")
    parser.add_argument("--spin", type=positive_float, default=4.0, help="final hub speed Omega_s [rad/s]")
    parser.add_argument("--no-stiffening", action="store_true", help="only the linear FFRF body (it diverges)")
    parser.add_argument("--modes", type=positive_int, default=12, help="clamped modes of the reduced beam")
    parser.add_argument("--full", action="store_true",
                        help="the full FE body (1,471 coordinates) instead of the reduced one: about 5 min a run")
    parser.add_argument("--step", type=positive_float, default=0.01, help="time step [s]")
    parser.add_argument("--output", type=output_folder_argument, default="output", help="folder for the plot and CSV")
    arguments = parser.parse_args(argv)
    output = Path(arguments.output)
    for path in (output / "spin_up_beam.png", output / "spin_up_beam_tip.csv"):
        check_output_file(path)
    runs = {}
    for stiffening in ((False,) if arguments.no_stiffening else (True, False)):
        times, tip, _ = run_spin_up_beam(arguments.spin, stiffening, arguments.modes, full=arguments.full,
                                         step=arguments.step)
        label = "stiffened" if stiffening else "linear FFRF"
        runs[label] = (times, tip)
        print(f"spin-up beam, Omega_s = {arguments.spin:g} rad/s, {label}: peak tip deflection {tip.min():.4f} m at "
              f"{times[np.argmin(tip)]:.2f} s; reached t = {times[-1]:.2f} s, tip {tip[-1]:.4g} m there")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    output.mkdir(parents=True, exist_ok=True)
    figure, axes = plt.subplots(figsize=(7, 4))
    for label, (times, tip) in runs.items():
        axes.plot(times, tip, label=label)
    axes.set_ylim(-2.5 if arguments.spin > 5 else -1.5, 0.5)
    axes.set_xlabel("t [s]")
    axes.set_ylabel("tip deflection [m]")
    axes.set_title(f"Kane's spin-up beam, Omega_s = {arguments.spin:g} rad/s")
    axes.legend()
    figure.tight_layout()
    figure.savefig(output / "spin_up_beam.png", dpi=120)
    plt.close(figure)
    times = next(iter(runs.values()))[0]
    columns = [times] + [np.interp(times, t, tip, right=np.nan) for t, tip in runs.values()]
    write_table(output / "spin_up_beam_tip.csv", ["t [s]", *(f"tip deflection {label} [m]" for label in runs)],
                np.column_stack(columns), "run spin-up-beam")
    print(f"wrote {output / 'spin_up_beam.png'} and {output / 'spin_up_beam_tip.csv'}")
    return 0
