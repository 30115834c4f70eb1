"""Benchmark: free-free eigenmodes (floatframe.fem.eigenmodes) against mesh size, and against Exudyn.

    python benchmarks/modes.py                 # block meshes up to ~100,000 coordinates, 8 modes
    python benchmarks/modes.py --quick         # the two smaller meshes only

Part 1: steel block meshes (Hex8) of growing size; FE assembly time and mode time separately, with the
sparse shift-invert solver. Part 2 (needs ../shared/data and exudyn): the rotor-disc matrices, 8 modes,
floatframe and Exudyn's FEMinterface.ComputeEigenmodes (sparse) in one run, median of --repeat.
Part 3 (same needs): Hurty-Craig-Bampton modes, end faces as interfaces, 8 fixed-interface modes,
RBE2 and RBE3: floatframe.fem.craig_bampton_modes and Exudyn's FEMinterface.ComputeHurtyCraigBamptonModes
(sparse) in one run, median of --repeat, on the rotor disc and on the second block mesh of part 1.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from floatframe.fem import add_node_mass, block_mesh, eigenmodes, linear_elastic_matrices  # noqa: E402
from floatframe.fem import craig_bampton_modes, read_abaqus_inp, read_abaqus_mtx  # noqa: E402

SIZES = [(20, 4, 4), (40, 8, 8), (60, 14, 14), (80, 19, 19)]
ROTOR = HERE.parent.parent / "shared" / "data" / "rotorDisc" / "rotorDiscTest"


def mesh_sizes(quick: bool) -> None:
    print("| coordinates | assembly [s] | 8 modes [s] | lowest f [Hz] |")
    print("|---:|---:|---:|---:|")
    for nx, ny, nz in SIZES[:2] if quick else SIZES:
        start = time.perf_counter()
        mesh = block_mesh(2.0, 0.4, 0.4, nx, ny, nz)
        mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=2.1e11, poissons_ratio=0.3, density=7850)
        assembled = time.perf_counter()
        modes = eigenmodes(mass, stiffness, 8, solver="sparse", node_positions=mesh.nodes)
        done = time.perf_counter()
        print(f"| {mass.shape[0]} | {assembled - start:.2f} | {done - assembled:.2f} | {modes.frequencies_hz[0]:.3f} |")


def exudyn_fem_module(part: int):
    """exudyn.FEM, or None (with a note that the part is skipped) without the rotor data or exudyn."""
    if not ROTOR.with_suffix(".inp").exists():
        print(f"rotor-disc data not found: part {part} skipped")
        return None
    try:
        import exudyn.FEM as exudyn_fem
    except ImportError:
        print(f"exudyn not installed: part {part} skipped")
        return None
    return exudyn_fem


def exudyn_rotor(exudyn_fem):
    """Exudyn's FEMinterface with the rotor disc as in its test models: stiffness x 1e-2, 0.1 kg at node 9."""
    fem = exudyn_fem.FEMinterface()
    fem.ImportFromAbaqusInputFile(f"{ROTOR}.inp", typeName="Instance", name="rotor-1")
    fem.ReadMassMatrixFromAbaqus(f"{ROTOR}MASS1.mtx")
    fem.ReadStiffnessMatrixFromAbaqus(f"{ROTOR}STIF1.mtx")
    fem.ScaleStiffnessMatrix(1e-2)
    fem.AddNodeMass(9, 0.1)
    return fem


def against_exudyn(repeat: int) -> None:
    exudyn_fem = exudyn_fem_module(2)
    if exudyn_fem is None:
        return
    mass = add_node_mass(read_abaqus_mtx(f"{ROTOR}MASS1.mtx"), 9, 0.1)
    stiffness = 1e-2 * read_abaqus_mtx(f"{ROTOR}STIF1.mtx")
    fem = exudyn_rotor(exudyn_fem)
    ours, theirs = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        eigenmodes(mass, stiffness, 8, solver="sparse")
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        fem.ComputeEigenmodes(8, excludeRigidBodyModes=6, useSparseSolver=True)
        theirs.append(time.perf_counter() - start)
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"rotor disc ({mass.shape[0]} coordinates), 8 modes: floatframe {a:.3f} s, exudyn {b:.3f} s, "
          f"ratio exudyn/floatframe {b / a:.2f}")


def craig_bampton_against_exudyn(repeat: int) -> None:
    exudyn_fem = exudyn_fem_module(3)
    if exudyn_fem is None:
        return
    mesh = read_abaqus_inp(f"{ROTOR}.inp", instance="rotor-1")
    mass = add_node_mass(read_abaqus_mtx(f"{ROTOR}MASS1.mtx"), 9, 0.1)
    stiffness = 1e-2 * read_abaqus_mtx(f"{ROTOR}STIF1.mtx")
    faces = [mesh.nodes_in_plane((0.0, 0.0, z), (0.0, 0.0, 1.0)) for z in (0.0, 0.5)]
    fem = exudyn_rotor(exudyn_fem)
    time_craig_bampton("rotor disc", mass, stiffness, mesh.nodes, faces, fem, exudyn_fem, repeat)
    block = block_mesh(2.0, 0.4, 0.4, *SIZES[1])
    mass, stiffness = linear_elastic_matrices(block, youngs_modulus=2.1e11, poissons_ratio=0.3, density=7850)
    faces = [block.nodes_in_plane((x, 0.0, 0.0), (1.0, 0.0, 0.0)) for x in (0.0, 2.0)]
    fem = exudyn_fem.FEMinterface()     # the block has no Abaqus file: Exudyn's attributes set directly
    fem.nodes, fem.massMatrix, fem.stiffnessMatrix = {"Position": block.nodes}, mass.tocsr(), stiffness.tocsr()
    time_craig_bampton("block", mass, stiffness, block.nodes, faces, fem, exudyn_fem, repeat)


def time_craig_bampton(name, mass, stiffness, nodes, faces, fem, exudyn_fem, repeat) -> None:
    for variant in ("RBE2", "RBE3"):
        mode = getattr(exudyn_fem.HCBstaticModeSelection, variant)
        ours, theirs = [], []
        for _ in range(repeat):
            start = time.perf_counter()
            craig_bampton_modes(mass, stiffness, nodes, faces, 8, variant=variant, solver="sparse")
            ours.append(time.perf_counter() - start)
            start = time.perf_counter()
            fem.ComputeHurtyCraigBamptonModes([list(face) for face in faces], 8, useSparseSolver=True,
                                              computationMode=mode)
            theirs.append(time.perf_counter() - start)
        a, b = statistics.median(ours), statistics.median(theirs)
        print(f"{name} ({mass.shape[0]} coordinates, interfaces of {len(faces[0])} and {len(faces[1])} nodes), "
              f"Craig-Bampton {variant}, 6 static + 8 modes: floatframe {a:.4f} s, exudyn {b:.4f} s, "
              f"ratio exudyn/floatframe {b / a:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the two smaller meshes only")
    parser.add_argument("--repeat", type=int, default=3, help="runs of part 2 (median)")
    arguments = parser.parse_args()
    mesh_sizes(arguments.quick)
    against_exudyn(arguments.repeat)
    craig_bampton_against_exudyn(arguments.repeat)
