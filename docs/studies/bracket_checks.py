"""The numbers of docs/bracket.md: the bracket's mesh, its Craig-Bampton frequencies against the full FE model's,
and its static deflection under gravity against the full model's.

    python docs/studies/bracket_checks.py [--mesh-size 0.005]

For each number of fixed-interface eigenmodes (0, 4, 8, 16) the bracket (floatframe.models.bracket) is built on
the same Netgen mesh; the reduced body's frequencies clamped at hole A (eigenvalues of K_red, M_red) are compared
with the full FE model's clamped at hole A, and its static deflection hanging at rest with the full model's under
the same loads, once with hole B rigid (RBE2, as in the basis) and once with hole B deformable. Last, the swing
of 1 s (8 eigenmodes) with steps of 1e-3, 5e-4 and 2.5e-4 s: the weight's largest distance from the rigid
bracket's. Prints Markdown tables.
"""
from __future__ import annotations

import argparse

import numpy as np
import scipy.linalg

from floatframe.models.bracket import build, clamped_frequencies, clamped_static_deflection
from floatframe.solvers import GeneralizedAlpha

EIGENMODE_COUNTS = (0, 4, 8, 16)
FREQUENCIES = 6


def reduced_frequencies(model, count):
    """The lowest ``count`` frequencies [Hz] of the reduced bracket clamped at hole A (its frame held)."""
    invariants = model.body.invariants
    values = scipy.linalg.eigh(invariants.stiffness_reduced, invariants.mass_reduced, eigvals_only=True)
    return np.sqrt(values[:count]) / (2.0 * np.pi)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mesh-size", type=float, default=0.005, help="Netgen's largest element size [m]")
    arguments = parser.parse_args()
    models = {n: build(mesh_size=arguments.mesh_size, n_eigenmodes=n) for n in EIGENMODE_COUNTS}
    first = models[EIGENMODE_COUNTS[0]]
    mesh, holes = first.mesh, first.holes
    print(f"mesh size {arguments.mesh_size:g} m: {mesh.n_nodes} nodes, "
          f"{', '.join(f'{len(block)} {kind}' for kind, block in mesh.elements.items())}, "
          f"{3 * mesh.n_nodes} coordinates; {holes[0].size} and {holes[1].size} nodes on holes A and B; "
          f"mass {first.bracket_mass:.5f} kg; pivot {np.array2string(first.pivot, precision=7)} m")

    full = clamped_frequencies(first.mass_matrix, first.stiffness_matrix, holes[0], FREQUENCIES)
    print("\n| eigenmodes | " + " | ".join(f"f{k + 1} [Hz]" for k in range(FREQUENCIES)) + " |")
    print("|---|" + "---|" * FREQUENCIES)
    print("| full FE model | " + " | ".join(f"{f:.2f}" for f in full) + " |")
    for n, model in models.items():
        reduced = reduced_frequencies(model, FREQUENCIES)
        print(f"| {n} + 6 static | " + " | ".join(f"{f:.2f} ({f / r - 1:+.1e})" for f, r in zip(reduced, full)) + " |")

    print("\n| eigenmodes | hanging angle [deg] | bolt deflection [um] | vs full, rigid hole B | vs full, deformable "
          "hole B | whole field vs full, rigid hole B |")
    print("|---|---|---|---|---|---|")
    for n, model in models.items():
        hanging = build(mesh_size=arguments.mesh_size, n_eigenmodes=n, angle=model.hanging_angle())
        angle, deflection, load = hanging.static_equilibrium()
        rigid = clamped_static_deflection(hanging.stiffness_matrix, holes[0], load, holes[1], mesh.nodes)
        deformable = clamped_static_deflection(hanging.stiffness_matrix, holes[0], load)
        bolt = deflection[holes[1]].mean(axis=0)
        errors = [np.linalg.norm(bolt - full_model[holes[1]].mean(axis=0)) / np.linalg.norm(bolt)
                  for full_model in (rigid, deformable)]
        field = np.linalg.norm(deflection - rigid, axis=1).max() / np.linalg.norm(rigid, axis=1).max()
        print(f"| {n} | {np.degrees(angle):.4f} | {np.linalg.norm(bolt) * 1e6:.4f} | {errors[0]:.1e} | "
              f"{errors[1]:.1e} | {field:.1e} |")

    print("\n| step [s] | largest distance of the weight from the rigid bracket's [m] |")
    print("|---|---|")
    model, assembled = models[8], models[8].system.assemble()
    for h in (1e-3, 5e-4, 2.5e-4):
        steps = int(round(1.0 / h))
        result = GeneralizedAlpha(model.spectral_radius, modified_newton=True).solve(assembled, 1.0, steps,
                                                                                      progress=False)
        distance = np.linalg.norm(result.sensor(model.tip_sensor) - model.rigid_tip(result), axis=1).max()
        print(f"| {h:g} | {distance:.3e} |")


if __name__ == "__main__":
    main()
