"""Build and solve time of a reduced-order body once its modes exist, for two mesh sizes and 8 to 128 modes.

    PYTHONPATH=$PWD python benchmarks/reduced_build.py [--modes 8 16 32 64 128] [--steps 100]

Times separately: the invariants (ReducedOrderInvariants.from_fe_matrices, the only step that touches the
mesh), the assembly of the system (symbolic residual and Jacobians) with each form of the modal products
("scalar": written into the SX graph, "matrix": one MX Function with its hand-derived Jacobian; "auto" takes
"scalar" up to SCALAR_PRODUCTS_LIMIT modes), and a solve of ``--steps`` generalized-alpha steps (h = 1e-4 s,
the solver's defaults; it includes the dense kernel the solver builds on its first solve of a model of up to
DENSE_LIMIT unknowns) of the spinning body in each form. The scalar form is assembled up to ``--scalar-up-to``
and solved up to ``--scalar-solve-up-to`` modes only (its assembly grows as n_m^3). The modes are computed first
and not timed. Meshes: the built-in rotor
disc (735 coordinates) and its refinement (3,879 coordinates).
"""
from __future__ import annotations

import argparse
import time

import floatframe as ff
from floatframe.components.ffrf_reduced import ReducedOrderInvariants, add_reduced_ffrf_body
from floatframe.fem import eigenmodes, linear_elastic_matrices, rotor_disc_mesh

MESHES = {"rotor disc": dict(), "refined rotor disc": dict(n_circumferential=16, n_radial_shaft=2, n_radial_disc=2,
                                                          axial_element_size=0.025)}
FORMS = ("scalar", "matrix")


def build_and_solve(mesh, mass, stiffness, modes, form, steps):
    """(assembly [s], solve [s] or None for no steps) of the free rotor spinning at 50 rad/s with
    ``modal_products=form``."""
    system = ff.System()
    add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes, modal_products=form,
                          angular_velocity=(0.0, 0.0, 50.0))
    start = time.perf_counter()
    assembled = system.assemble()
    assembly = time.perf_counter() - start
    if not steps:
        return assembly, None
    start = time.perf_counter()
    ff.GeneralizedAlpha().solve(assembled, steps * 1e-4, steps)
    return assembly, time.perf_counter() - start


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", type=int, nargs="+", default=[8, 16, 32, 64, 128])
    parser.add_argument("--scalar-up-to", type=int, default=64)
    parser.add_argument("--scalar-solve-up-to", type=int, default=32)
    parser.add_argument("--steps", type=int, default=100)
    arguments = parser.parse_args(argv)
    print("| mesh | coordinates | modes | invariants [s] | assembly, scalar [s] | assembly, matrix [s] | "
          f"{arguments.steps} steps, scalar [s] | {arguments.steps} steps, matrix [s] |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, options in MESHES.items():
        mesh = rotor_disc_mesh(**options)
        mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=2.1e11, poissons_ratio=0.3, density=7850.0)
        for count in arguments.modes:
            modes = eigenmodes(mass, stiffness, count, node_positions=mesh.nodes)
            start = time.perf_counter()
            ReducedOrderInvariants.from_fe_matrices(mass, stiffness, modes, mesh.nodes)
            invariants = time.perf_counter() - start
            times = {"matrix": build_and_solve(mesh, mass, stiffness, modes, "matrix", arguments.steps),
                     "scalar": build_and_solve(mesh, mass, stiffness, modes, "scalar", arguments.steps
                                               if count <= arguments.scalar_solve_up_to else 0)
                     if count <= arguments.scalar_up_to else (None, None)}
            cells = ["–" if times[form][k] is None else f"{times[form][k]:.3f}" for k in (0, 1) for form in FORMS]
            print(f"| {name} | {mass.shape[0]:,} | {count} | {invariants:.3f} | {' | '.join(cells)} |", flush=True)


if __name__ == "__main__":
    main()
