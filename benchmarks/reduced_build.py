"""Build time of a reduced-order body once its modes exist, for two mesh sizes and 8 to 64 modes.

    python benchmarks/reduced_build.py [--modes 8 16 32 64]

Times separately: the invariants (ReducedOrderInvariants.from_fe_matrices, the only step that touches the
mesh) and the assembly of the system (symbolic residual and Jacobians). The modes are computed first and
not timed. Meshes: the built-in rotor disc (735 coordinates) and its refinement (3,879 coordinates).
"""
from __future__ import annotations

import argparse
import time

import floatframe as ff
from floatframe.components.ffrf_reduced import ReducedOrderInvariants, add_reduced_ffrf_body
from floatframe.fem import eigenmodes, linear_elastic_matrices, rotor_disc_mesh

MESHES = {"rotor disc": dict(), "refined rotor disc": dict(n_circumferential=16, n_radial_shaft=2, n_radial_disc=2,
                                                          axial_element_size=0.025)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", type=int, nargs="+", default=[8, 16, 32, 64])
    arguments = parser.parse_args(argv)
    print("| mesh | coordinates | modes | invariants [s] | assembly [s] |")
    print("|---|---|---|---|---|")
    for name, options in MESHES.items():
        mesh = rotor_disc_mesh(**options)
        mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=2.1e11, poissons_ratio=0.3, density=7850.0)
        for count in arguments.modes:
            modes = eigenmodes(mass, stiffness, count, node_positions=mesh.nodes)
            start = time.perf_counter()
            ReducedOrderInvariants.from_fe_matrices(mass, stiffness, modes, mesh.nodes)
            invariants = time.perf_counter() - start
            system = ff.System()
            add_reduced_ffrf_body(system, mesh.nodes, mass, stiffness, modes)
            start = time.perf_counter()
            system.assemble()
            assembly = time.perf_counter() - start
            print(f"| {name} | {mass.shape[0]} | {count} | {invariants:.3f} | {assembly:.3f} |", flush=True)


if __name__ == "__main__":
    main()
