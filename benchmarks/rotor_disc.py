"""Benchmark: floatframe against Exudyn on the rotor-disc model, and floatframe's build time against size.

    python benchmarks/rotor_disc.py            # both parts
    python benchmarks/rotor_disc.py --quick    # part 2 on the two smaller meshes only
    python benchmarks/rotor_disc.py --parts    # part 3 only

Part 1 (needs ../shared/data and, for the ratio, the exudyn package): both rotor-disc set-ups on the
reference mesh, with the reference settings (generalized-alpha, spectral radius 0.5, h = 1e-4, modified
Newton), run in one process, alternating floatframe (CasADi's virtual machine, and with the residual and
constraint rows compiled to C) and Exudyn `--repeat` times; the median times and the ratios Exudyn /
floatframe are printed. The compiled library is cached: the first compiled build, with the compiler, is
printed apart. Part 2: floatframe's build time (model and System.assemble) and
solve time on the built-in mesh refined along the axis only (10 to 80 elements), with the size of the
iteration matrix: build time per nonzero stays flat where build time grows linearly. Part 3 (``--parts``, needs
../shared/data): what one Newton iteration and one new iteration matrix cost on the reference mesh (Tisserand
set-up), each operation timed alone on one BLAS thread: the residual and constraint rows (virtual machine and
compiled), the iteration matrix, its factorization by SuperLU (``sparse_lu``) and by LAPACK (``LapackLU``),
and a solve with each.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from floatframe.fem import read_abaqus_inp, read_abaqus_mtx  # noqa: E402
from floatframe.fem import linear_elastic_matrices, rotor_disc_mesh  # noqa: E402
from floatframe.models.rotor_disc import STEEL, build_rotor_disc  # noqa: E402
from floatframe.solvers import GeneralizedAlpha  # noqa: E402

DATA = HERE.parent.parent / "shared" / "data" / "rotorDisc"
REFERENCE = {"tisserand": 0.035521880690182486, "constrained": 0.0064600108120842666}


def floatframe_run(setup: str, nodes, mass, stiffness, compile=False):
    """Build (model, assembly and the solver's prepare, which compiles or loads the compiled residual and
    constraint rows with ``compile=True``) and solve; the figures of one run."""
    started = time.perf_counter()
    model = build_rotor_disc(setup, nodes, mass, stiffness, unbalance_node=9)
    assembled = model.system.assemble()
    solver = GeneralizedAlpha(0.5, modified_newton=True, compile=compile)
    steps = model.default_steps()
    solver.prepare(assembled, steps)
    build = time.perf_counter() - started
    result = solver.solve(assembled, steps * 1e-4, steps)
    measure = np.abs(result.sensor(model.sensor, with_time=True)).sum()
    stats = result.statistics
    return dict(build=build, solve=stats.solve_time, iterations=stats.iterations_per_step,
                jacobians=stats.jacobian_evaluations, measure=measure)


def exudyn_run(setup: str):
    import exudyn
    import exudyn_rotor_disc as reference

    builder = reference.build_exudyn_tisserand if setup == "tisserand" else reference.build_exudyn_constrained
    started = time.perf_counter()
    _, mbs, sensor, settings = builder()
    build = time.perf_counter() - started
    solver = exudyn.MainSolverImplicitSecondOrder()
    started = time.perf_counter()
    solver.SolveSystem(mbs, settings)
    solve = time.perf_counter() - started
    steps = settings.timeIntegration.numberOfSteps
    measure = np.abs(mbs.GetSensorStoredData(sensor)).sum()
    return dict(build=build, solve=solve, iterations=solver.it.newtonStepsCount / steps,
                jacobians=solver.it.newtonJacobiCount, measure=measure)


def compare_with_exudyn(repeat: int) -> None:
    if not DATA.is_dir():
        print(f"part 1 skipped: no reference data at {DATA}")
        return
    try:
        import exudyn  # noqa: F401
        have_exudyn = True
    except ImportError:
        have_exudyn = False
    mesh = read_abaqus_inp(DATA / "rotorDiscTest.inp", instance="rotor-1")
    mass = read_abaqus_mtx(DATA / "rotorDiscTestMASS1.mtx")
    stiffness = read_abaqus_mtx(DATA / "rotorDiscTestSTIF1.mtx")
    print(f"part 1: reference mesh ({len(mesh.nodes)} nodes), median of {repeat} alternating runs")
    print("| set-up | code | build [s] | solve [s] | Newton it./step | Jacobians | measure | rel. to reference |")
    print("|---|---|---|---|---|---|---|---|")
    for setup in ("tisserand", "constrained"):
        runs = {"floatframe": [], "floatframe, compiled": [], "exudyn": []}
        first_compiled_build = floatframe_run(setup, mesh.nodes, mass, stiffness, compile=True)["build"]
        for _ in range(repeat):
            runs["floatframe"].append(floatframe_run(setup, mesh.nodes, mass, stiffness, compile=False))
            runs["floatframe, compiled"].append(floatframe_run(setup, mesh.nodes, mass, stiffness, compile=True))
            if have_exudyn:
                runs["exudyn"].append(exudyn_run(setup))
        print(f"| {setup} | floatframe, compiled: first build (with the compiler, unless cached) | "
              f"{first_compiled_build:.3f} | | | | | |")
        medians = {}
        for code, results in runs.items():
            if not results:
                continue
            median = {key: statistics.median(r[key] for r in results) for key in results[0]}
            medians[code] = median
            print(f"| {setup} | {code} | {median['build']:.3f} | {median['solve']:.3f} | {median['iterations']:.1f} | "
                  f"{median['jacobians']:.0f} | {median['measure']:.12g} | "
                  f"{(median['measure'] - REFERENCE[setup]) / REFERENCE[setup]:.1e} |")
        if "exudyn" in medians:
            for code in ("floatframe", "floatframe, compiled"):
                ratio = medians["exudyn"]["solve"] / medians[code]["solve"]
                print(f"| {setup} | solve-time ratio Exudyn / {code} | | {ratio:.1f} | | | | |")


def build_scaling(divisions) -> None:
    print("\npart 2: built-in mesh (consistent mass), Tisserand set-up, refined along the axis only (same "
          "cross-section, so the same bandwidth), 25 steps, modified Newton")
    print("| axial elements | coordinates | nonzeros of the iteration matrix | build [s] | build per 1e5 nonzeros [s] | "
          "solve [s] | solve per step and 1e5 nonzeros [ms] |")
    print("|---|---|---|---|---|---|---|")
    for elements in divisions:
        mesh = rotor_disc_mesh(axial_element_size=0.5 / elements)
        mass, stiffness = linear_elastic_matrices(mesh, **STEEL)
        started = time.perf_counter()
        model = build_rotor_disc("tisserand", mesh.nodes, mass, stiffness)
        assembled = model.system.assemble()
        build = time.perf_counter() - started
        nonzeros = assembled.iteration_matrix_nonzeros()
        result = GeneralizedAlpha(0.5, modified_newton=True).solve(assembled, 25e-4, 25)
        solve = result.statistics.solve_time
        print(f"| {elements} | {assembled.n_coordinates} | {nonzeros} | {build:.2f} | {build / nonzeros * 1e5:.2f} | "
              f"{solve:.2f} | {solve / 25 / nonzeros * 1e8:.2f} |")


def median_milliseconds(operation, repeat: int = 200) -> float:
    """Median time [ms] of ``operation()`` over ``repeat`` calls, after one call."""
    operation()
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        operation()
        times.append(time.perf_counter() - started)
    return 1e3 * statistics.median(times)


def operation_costs() -> None:
    from floatframe.solvers.compiling import sparse_kernel
    from floatframe.solvers.linear import LapackLU, single_threaded_blas, sparse_lu

    if not DATA.is_dir():
        print(f"part 3 skipped: no reference data at {DATA}")
        return
    mesh = read_abaqus_inp(DATA / "rotorDiscTest.inp", instance="rotor-1")
    model = build_rotor_disc("tisserand", mesh.nodes, read_abaqus_mtx(DATA / "rotorDiscTestMASS1.mtx"),
                             read_abaqus_mtx(DATA / "rotorDiscTestSTIF1.mtx"), unbalance_node=9)
    system = model.system.assemble()
    n, m = system.n_coordinates, system.n_multipliers
    t, q, v, a, lam = 0.0, system.q_initial, system.v_initial, np.ones(n), np.zeros(m)
    c_v, c_q = 0.5e-4, 0.3e-8
    matrix = system.newton_matrix(t, q, v, a, lam, 1.0, c_v, c_q)
    right = np.ones(n + m)
    rows = {}
    with single_threaded_blas():
        rows["residual, virtual machine"] = median_milliseconds(lambda: system.residual(t, q, v, a, lam))
        rows["constraint rows, virtual machine"] = median_milliseconds(lambda: system.constraints(t, q))
        rows["iteration matrix"] = median_milliseconds(lambda: system.newton_matrix(t, q, v, a, lam, 1.0, c_v, c_q), 50)
        superlu, lapack = sparse_lu(matrix), LapackLU(matrix.toarray())
        rows["factorization, SuperLU (sparse_lu)"] = median_milliseconds(lambda: sparse_lu(matrix), 50)
        rows["factorization, LAPACK (LapackLU)"] = median_milliseconds(lambda: LapackLU(matrix.toarray()), 50)
        rows["solve, SuperLU"] = median_milliseconds(lambda: superlu.solve(right))
        rows["solve, LAPACK"] = median_milliseconds(lambda: lapack.solve(right))
        sparse_kernel(system, 3, compile=True)
        rows["residual, compiled"] = median_milliseconds(lambda: system.residual(t, q, v, a, lam))
        rows["constraint rows, compiled"] = median_milliseconds(lambda: system.constraints(t, q))
    print(f"\npart 3: one operation on the reference mesh ({n} coordinates, {m} multipliers, "
          f"{matrix.nnz} nonzeros of the iteration matrix), median, one BLAS thread")
    print("| operation | time [ms] |")
    print("|---|---|")
    for name, milliseconds in rows.items():
        print(f"| {name} | {milliseconds:.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="the two smaller meshes of part 2 only")
    parser.add_argument("--parts", action="store_true", help="part 3 only: the cost of each operation")
    arguments = parser.parse_args()
    if arguments.parts:
        operation_costs()
        return
    compare_with_exudyn(arguments.repeat)
    build_scaling((10, 20) if arguments.quick else (10, 20, 40, 80))
    operation_costs()


if __name__ == "__main__":
    main()
