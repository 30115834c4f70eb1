"""Benchmark: how a free FFRF body with a Tisserand frame scales from 1k to 100k coordinates (issue 12, item 7).

    python benchmarks/ffrf_scaling.py                                   # 1k 3k 10k 12k 30k 100k, floatframe + Exudyn
    python benchmarks/ffrf_scaling.py --sizes 1k,3k --timeout 900 --exudyn-timeout 300
    python benchmarks/ffrf_scaling.py --sizes 30k,100k --linear-algebra-only
    python benchmarks/ffrf_scaling.py --sizes 3k,10k --lu both --no-exudyn     # solver with bordered / plain LU

The model: the Hex8 beam ``block_mesh(1.0, 0.1, 0.1, nx, 4, 4)`` (steel, E = 2.1e11 Pa, nu = 0.3,
7850 kg/m^3), free, spinning at 2 rad/s about z and moving at 1 m/s along x, with the Tisserand frame; nx
is chosen for ~1k, 3k, 10k, 30k and 100k coordinates (7 frame coordinates plus 3 per node). 20 steps of
generalized-alpha, h = 1e-3 s, spectral radius 0.5, modified Newton, in floatframe and in Exudyn 1.13.6
(ObjectFFRF via ``ObjectFFRFinterface.AddObjectFFRF``, Tisserand frame; its sparse solver EigenSparse, which
Exudyn advises above 1000 unknowns: with the default dense solver 20 steps at 1k coordinates take ~1 min).

Each size and code runs in its own process (peak memory = that process's maximum resident set size) with a
time limit; a run beyond it is reported as 'did not finish in N s'. Per size:

- floatframe: build = mesh and FE matrices (``fe``) + ``System.assemble()`` (``assembly``); the 20 steps and
  the time per step; Newton iterations and factorizations; peak memory; at the last state, the Newton matrix's
  factorization by the plain SuperLU (``sparse_lu``) and by the bordered LU (``BorderedLU``, first with the
  ordering analysis, then reusing it): time and fill-in (nnz(L) + nnz(U), for the bordered LU plus its dense
  n x k and k x k blocks); and ``scipy.sparse.linalg.splu(K)`` of the FE stiffness matrix (scipy defaults),
  the yardstick of the issue's targets (at 12k coordinates: build <= 25 x and 20 steps <= 50 x that time;
  at 100k: peak memory <= 16 GB).
- ``--linear-algebra-only`` (and, for floatframe, after a time-out of the full run): the same factorizations
  on a Newton matrix assembled here from M and K with the FFRF block structure (:func:`ffrf_newton_matrix`),
  without a System.

Printed: one Markdown table; written: a log-log plot of build time, time per step and peak memory against
coordinates (``--plot``, default docs/figures/ffrf_scaling.png).
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]  # this checkout's floatframe, the other benchmarks

# label -> nx: 7 + 75 (nx + 1) coordinates; 12k (12,082) is the beam of the targets
SIZES = {"1k": 13, "3k": 40, "10k": 133, "12k": 160, "30k": 399, "100k": 1333}
LENGTH, WIDTH, CROSS_ELEMENTS = 1.0, 0.1, 4
YOUNG, POISSON, DENSITY = 2.1e11, 0.3, 7850.0
ANGULAR_VELOCITY, VELOCITY = (0.0, 0.0, 2.0), (1.0, 0.0, 0.0)
H, STEPS, SPECTRAL_RADIUS = 1e-3, 20, 0.5


def peak_memory_mb() -> float:
    """This process's maximum resident set size [MB]."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def beam(nx: int):
    """(mesh, M, K, seconds) of the beam with nx elements along it; M, K csr (3 N, 3 N)."""
    from floatframe.fem.matrices import linear_elastic_matrices
    from floatframe.fem.mesh import block_mesh

    started = time.perf_counter()
    mesh = block_mesh(LENGTH, WIDTH, WIDTH, nx, CROSS_ELEMENTS, CROSS_ELEMENTS)
    mass, stiffness = linear_elastic_matrices(mesh, YOUNG, POISSON, DENSITY)
    return mesh, mass, stiffness, time.perf_counter() - started


def stiffness_lu_seconds(stiffness) -> float:
    """Time [s] of one ``scipy.sparse.linalg.splu`` of K with scipy's default options (the yardstick)."""
    import scipy.sparse.linalg as spla

    matrix = stiffness.tocsc()
    started = time.perf_counter()
    spla.splu(matrix)
    return time.perf_counter() - started


def ffrf_newton_matrix(nodes, mass, stiffness, h=H, omega=ANGULAR_VELOCITY, seed=0):
    """A Newton matrix with the block structure of a free FFRF body with the Tisserand frame, (n + 7, n + 7) csc.

    Coordinates [frame position (3), Euler parameters (4), mesh displacements (3 N)], multipliers [Euler-parameter
    norm (1), Tisserand (6)]: the coordinate block is c_a L^T M L + c_v M (I x 2 [omega]x) on the mesh + c_q K on
    the mesh, with L = [R^T (x) 1, -[x]x G, I] at a random rotation; the constraint rows are 2 theta^T and
    [1 (x) I, [x_ref]x]^T M, their transposes the multiplier columns. c_a = 1, c_v = h / 2, c_q = h^2 / 4.
    """
    import scipy.sparse as sp

    rng = np.random.default_rng(seed)
    theta = rng.standard_normal(4)
    theta /= np.linalg.norm(theta)
    t0, t1, t2, t3 = theta
    rotation = np.array([[t0 * t0 + t1 * t1 - t2 * t2 - t3 * t3, 2 * (t1 * t2 - t0 * t3), 2 * (t1 * t3 + t0 * t2)],
                         [2 * (t1 * t2 + t0 * t3), t0 * t0 - t1 * t1 + t2 * t2 - t3 * t3, 2 * (t2 * t3 - t0 * t1)],
                         [2 * (t1 * t3 - t0 * t2), 2 * (t2 * t3 + t0 * t1), t0 * t0 - t1 * t1 - t2 * t2 + t3 * t3]])
    g_local = 2 * np.array([[-t1, t0, t3, -t2], [-t2, -t3, t0, t1], [-t3, t2, -t1, t0]])
    positions = np.asarray(nodes, dtype=float)
    positions = positions - positions.mean(axis=0)
    n_nodes = positions.shape[0]
    translation = np.tile(rotation.T, (n_nodes, 1))                       # (3 N, 3)
    reference_skew = _stacked_skew(positions)                               # (3 N, 3)
    rotation_columns = -reference_skew @ g_local                            # (3 N, 4)
    frame = np.hstack([translation, rotation_columns])                      # (3 N, 7)
    mass = sp.csr_matrix(mass)
    mass_frame = mass @ frame                                               # M L_frame, dense (3 N, 7)
    c_v, c_q = h / 2, h * h / 4
    gyroscopic = sp.kron(sp.identity(n_nodes), 2 * _stacked_skew(np.asarray(omega, dtype=float))[:3])
    elastic = (mass + c_v * (mass @ gyroscopic) + c_q * stiffness).tocsr()
    tisserand = np.hstack([np.tile(np.eye(3), (n_nodes, 1)), reference_skew]).T @ mass   # (6, 3 N)
    norm_row = np.zeros((1, 7))
    norm_row[0, 3:] = 2 * theta
    blocks = [[sp.csr_matrix(frame.T @ mass_frame), sp.csr_matrix(mass_frame.T), sp.csr_matrix(norm_row.T), None],
              [sp.csr_matrix(mass_frame), elastic, None, sp.csr_matrix(tisserand.T)],
              [sp.csr_matrix(norm_row), None, None, None],
              [None, sp.csr_matrix(tisserand), None, None]]
    return sp.bmat(blocks, format="csc")


def _stacked_skew(vectors):
    """(3 N, 3): the skew matrices [x_i]x of the 3-vectors (N, 3) stacked."""
    x = np.asarray(vectors, dtype=float).reshape(-1, 3)
    skew = np.zeros((x.shape[0], 3, 3))
    skew[:, 0, 1], skew[:, 0, 2], skew[:, 1, 2] = -x[:, 2], x[:, 1], -x[:, 0]
    skew[:, 1, 0], skew[:, 2, 0], skew[:, 2, 1] = x[:, 2], -x[:, 1], x[:, 0]
    return skew.reshape(-1, 3)


def compare_factorizations(matrix, seed=1, with_plain=True) -> dict:
    """Time [s] and fill-in of the bordered and the plain LU of ``matrix``, the bordered solve's accuracy, and
    the process's peak memory [MB] after the bordered LUs (before the plain one). ``with_plain=False``: the
    bordered LU alone (the plain one needs 17 GB at 100k coordinates)."""
    from floatframe.solvers.linear import BorderedLU, sparse_lu

    started = time.perf_counter()
    bordered = BorderedLU(matrix)                          # with the analysis: border, ordering, block positions
    analysed_seconds = time.perf_counter() - started
    started = time.perf_counter()
    reused = BorderedLU(matrix, bordered.pattern)          # reusing it, as factorize does on the next matrix
    reused_seconds = time.perf_counter() - started
    right = np.random.default_rng(seed).standard_normal(matrix.shape[0])
    started = time.perf_counter()
    solution = reused.solve(right)
    solve_seconds = time.perf_counter() - started
    bordered = dict(bordered_lu_s=analysed_seconds, bordered_reused_lu_s=reused_seconds,
                    bordered_fill=int(reused.fill_in), border=int(reused.border.size),
                    bordered_solve_s=solve_seconds, bordered_peak_mb=peak_memory_mb(),
                    bordered_residual=float(np.linalg.norm(matrix @ solution - right) / np.linalg.norm(right)))
    if not with_plain:
        return bordered
    started = time.perf_counter()
    plain = sparse_lu(matrix)
    plain_seconds = time.perf_counter() - started
    reference = plain.solve(right)
    return dict(bordered, plain_lu_s=plain_seconds, plain_fill=int(plain.L.nnz + plain.U.nnz),
                plain_peak_mb=peak_memory_mb(),
                difference_to_plain=float(np.linalg.norm(solution - reference) / np.linalg.norm(reference)))


def run_floatframe(nx: int, steps: int, lu: str = "auto", with_plain: bool = True) -> dict:
    """Build and solve in floatframe; the factorizations of the last Newton matrix. ``lu="plain"``: the solver
    factorizes with the plain SuperLU at every size (``BORDERED_MIN_SIZE`` set beyond the model)."""
    from floatframe.components.ffrf import add_ffrf_body
    from floatframe.components.reference_conditions import add_tisserand_frame
    from floatframe.solvers import linear
    from floatframe.solvers.genalpha import GeneralizedAlpha
    from floatframe.assembly import System

    if lu == "plain":
        linear.BORDERED_MIN_SIZE = sys.maxsize
    imported = peak_memory_mb()
    mesh, mass, stiffness, fe_seconds = beam(nx)
    yardstick = stiffness_lu_seconds(stiffness)
    started = time.perf_counter()
    system = System()
    body = add_ffrf_body(system, mesh.nodes, mass, stiffness, angular_velocity=ANGULAR_VELOCITY, velocity=VELOCITY)
    add_tisserand_frame(system, body)
    assembled = system.assemble()
    assembly_seconds = time.perf_counter() - started
    result = GeneralizedAlpha(SPECTRAL_RADIUS, modified_newton=True).solve(assembled, steps * H, steps)
    statistics = result.statistics
    solved_memory = peak_memory_mb()
    matrix = assembled.newton_matrix(result.t[-1], result.q[-1], result.v[-1], result.a[-1], result.lam[-1],
                                     1.0, H / 2, H * H / 4)
    return dict(code="floatframe" if lu == "auto" else "floatframe, plain LU", coordinates=assembled.n_coordinates,
                fe_s=fe_seconds, assembly_s=assembly_seconds,
                build_s=fe_seconds + assembly_seconds, solve_s=statistics.solve_time,
                per_step_s=statistics.solve_time / steps, newton=statistics.newton_iterations,
                factorizations=statistics.factorizations, stiffness_lu_s=yardstick, peak_mb=solved_memory,
                imported_mb=imported, **compare_factorizations(matrix.tocsc(), with_plain=with_plain))


def run_linear_algebra(nx: int, with_plain: bool = True) -> dict:
    """The factorizations on a Newton matrix assembled from M and K here (no System)."""
    imported = peak_memory_mb()
    mesh, mass, stiffness, fe_seconds = beam(nx)
    yardstick = stiffness_lu_seconds(stiffness)
    matrix = ffrf_newton_matrix(mesh.nodes, mass, stiffness)
    return dict(code="linear algebra", coordinates=matrix.shape[0] - 7, fe_s=fe_seconds, stiffness_lu_s=yardstick,
                imported_mb=imported, matrix_peak_mb=peak_memory_mb(),
                **compare_factorizations(matrix, with_plain=with_plain))


def run_exudyn(nx: int, steps: int) -> dict:
    """Build and solve the same beam in Exudyn (ObjectFFRF, Tisserand frame, its generalized-alpha)."""
    import exudyn as exu
    from exudyn.FEM import FEMinterface, ObjectFFRFinterface
    from exudyn_settings import performance_settings

    imported = peak_memory_mb()
    mesh, mass, stiffness, fe_seconds = beam(nx)
    started = time.perf_counter()
    system_container = exu.SystemContainer()
    mbs = system_container.AddSystem()
    fem = FEMinterface()
    fem.nodes = {"Position": np.asarray(mesh.nodes, dtype=float)}
    fem.massMatrix, fem.stiffnessMatrix = mass.tocsr(), stiffness.tocsr()
    fem.modeBasis = {"matrix": np.zeros((mass.shape[0], 0)), "type": "NormalModes"}   # required, unused
    ffrf = ObjectFFRFinterface(fem)
    ffrf.AddObjectFFRF(exu, mbs, positionRef=[0, 0, 0], eulerParametersRef=[1, 0, 0, 0],
                       initialVelocity=list(VELOCITY), initialAngularVelocity=list(ANGULAR_VELOCITY),
                       gravity=[0, 0, 0], constrainRigidBodyMotion=True)
    mbs.Assemble()
    assembly_seconds = time.perf_counter() - started
    settings = performance_settings(exu, steps, H, sensor_period=steps * H)
    settings.linearSolverType = exu.LinearSolverType.EigenSparse   # Exudyn's advice above 1000 unknowns
    started = time.perf_counter()
    exu.SolveDynamic(mbs, settings)
    solve_seconds = time.perf_counter() - started
    solver = mbs.sys["dynamicSolver"] if "dynamicSolver" in mbs.sys else None
    newton = int(solver.it.newtonStepsCount) if solver is not None else None
    return dict(code="exudyn", coordinates=mbs.systemData.ODE2Size(), fe_s=fe_seconds, assembly_s=assembly_seconds,
                build_s=fe_seconds + assembly_seconds, solve_s=solve_seconds, per_step_s=solve_seconds / steps,
                newton=newton, peak_mb=peak_memory_mb(), imported_mb=imported)


def in_subprocess(code: str, label: str, steps: int, timeout: float, lu: str = "auto", with_plain: bool = True) -> dict:
    """One run in a fresh process; on time-out {'timeout': timeout}."""
    command = [sys.executable, __file__, "--worker", code, "--sizes", label, "--steps", str(steps), "--lu", lu]
    command += [] if with_plain else ["--no-plain-lu"]
    try:
        finished = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return dict(code=code, label=label, timeout=timeout)
    lines = [line for line in finished.stdout.splitlines() if line.startswith("{")]
    if finished.returncode != 0 or not lines:
        return dict(code=code, label=label, error=(finished.stderr.strip().splitlines() or ["no output"])[-1])
    return dict(json.loads(lines[-1]), label=label)


def _cell(row: dict, key: str, digits: str = ".3g") -> str:
    value = row.get(key)
    return "" if value is None else (f"{value:{digits}}" if isinstance(value, float) else str(value))


def print_tables(rows: list[dict]) -> None:
    """The runs as two Markdown tables: build, solve and memory; the linear algebra."""
    print("| size | code | coordinates | FE matrices [s] | assembly [s] | build [s] | 20 steps [s] | per step [s] "
          "| Newton it. | factorizations | peak memory [MB] | splu(K) [s] | build / splu(K) | steps / splu(K) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        if row["code"] == "linear algebra":
            continue
        if "timeout" in row or "error" in row or "skipped" in row:
            why = (f"did not finish in {row['timeout']:.0f} s" if "timeout" in row else
                   f"not run: {row['skipped']}" if "skipped" in row else f"failed: {row['error']}")
            print(f"| {row['label']} | {row['code']} | {why} |||||||||||")
            continue
        yardstick = row.get("stiffness_lu_s")
        ratios = (f"{row['build_s'] / yardstick:.0f} | {row['solve_s'] / yardstick:.0f}" if yardstick else " | ")
        print(f"| {row['label']} | {row['code']} | {row['coordinates']} | {_cell(row, 'fe_s')} | "
              f"{_cell(row, 'assembly_s')} | {_cell(row, 'build_s')} | {_cell(row, 'solve_s')} | "
              f"{_cell(row, 'per_step_s')} | {_cell(row, 'newton')} | {_cell(row, 'factorizations')} | "
              f"{row['peak_mb']:.0f} | {_cell(row, 'stiffness_lu_s')} | {ratios} |")
    print()
    print("| size | matrix | n + m | border | plain LU [s] | plain fill | bordered LU, first [s] | bordered LU, "
          "reused ordering [s] | bordered fill | fill ratio | bordered solve [s] | rel. difference | peak memory "
          "after the bordered / plain LU [MB] |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        if row["code"] == "linear algebra" and "plain_fill" not in row:
            why = next((f"{key}: {row[key]}" for key in ("timeout", "skipped", "error") if key in row), "")
            print(f"| {row['label']} | from M, K | {why} ||||||||||")
        if "bordered_fill" not in row:
            continue
        source = "from M, K" if row["code"] == "linear algebra" else "System"
        if "plain_fill" not in row:
            print(f"| {row['label']} | {source} | {row['coordinates'] + 7} | {row['border']} | not run | | "
                  f"{_cell(row, 'bordered_lu_s')} | {_cell(row, 'bordered_reused_lu_s')} | {row['bordered_fill']:,} | "
                  f"| {_cell(row, 'bordered_solve_s')} | residual {row['bordered_residual']:.1e} | "
                  f"{row['bordered_peak_mb']:.0f} / |")
            continue
        print(f"| {row['label']} | {source} | {row['coordinates'] + 7} | {row['border']} | {_cell(row, 'plain_lu_s')} "
              f"| {row['plain_fill']:,} | {_cell(row, 'bordered_lu_s')} | {_cell(row, 'bordered_reused_lu_s')} | "
              f"{row['bordered_fill']:,} | {row['plain_fill'] / row['bordered_fill']:.2f} | "
              f"{_cell(row, 'bordered_solve_s')} | {row['difference_to_plain']:.1e} | "
              f"{row['bordered_peak_mb']:.0f} / {row['plain_peak_mb']:.0f} |")


def plot(rows: list[dict], path: Path) -> None:
    """Log-log plot of build time, time per step and peak memory against coordinates, per code."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 3, figsize=(13, 4))
    codes = dict.fromkeys(row["code"] for row in rows if row["code"] != "linear algebra")
    for code, marker in zip(codes, "osDx"):
        finished = [row for row in rows if row["code"] == code and "build_s" in row]
        if not finished:
            continue
        coordinates = [row["coordinates"] for row in finished]
        for axis, key in zip(axes, ("build_s", "per_step_s", "peak_mb")):
            axis.loglog(coordinates, [row[key] for row in finished], marker=marker, label=code)
    algebra = [row for row in rows if "bordered_reused_lu_s" in row]
    if algebra:
        algebra.sort(key=lambda row: row["coordinates"])
        coordinates = [row["coordinates"] for row in algebra]
        plain = [row for row in algebra if "plain_lu_s" in row]
        axes[1].loglog([row["coordinates"] for row in plain], [row["plain_lu_s"] for row in plain], ":", marker="^",
                       label="plain LU")
        axes[1].loglog(coordinates, [row["bordered_reused_lu_s"] for row in algebra], ":", marker="v",
                       label="bordered LU")
    for axis, title in zip(axes, ("build [s]", "time per step [s] (and one LU)", "peak memory [MB]")):
        axis.set_xlabel("coordinates")
        axis.set_title(title)
        axis.grid(True, which="both", alpha=0.3)
        if axis.get_legend_handles_labels()[0]:
            axis.legend()
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1k,3k,10k,12k,30k,100k", help=f"comma-separated, of {list(SIZES)}")
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--timeout", type=float, default=1200.0, help="per floatframe run [s]")
    parser.add_argument("--exudyn-timeout", type=float, default=300.0, help="per Exudyn run [s]")
    parser.add_argument("--linear-algebra-timeout", type=float, default=900.0)
    parser.add_argument("--no-exudyn", action="store_true")
    parser.add_argument("--linear-algebra-only", action="store_true",
                        help="only the factorizations, on matrices assembled from M and K")
    parser.add_argument("--lu", choices=("auto", "plain", "both"), default="auto",
                        help="plain: floatframe's solver uses the plain SuperLU at every size; both: a run with each, "
                             "one after the other (A/B)")
    parser.add_argument("--plain-lu-max", default="30k", help="largest size at which the plain LU is compared")
    parser.add_argument("--no-plain-lu", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--plot", default=str(HERE.parent / "docs" / "figures" / "ffrf_scaling.png"))
    parser.add_argument("--json", help="also write the rows to this file")
    parser.add_argument("--worker", choices=("floatframe", "exudyn", "linear-algebra"), help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    labels = arguments.sizes.split(",")
    unknown = [label for label in labels if label not in SIZES]
    if unknown:
        parser.error(f"unknown sizes {unknown}, expected some of {list(SIZES)}")
    if arguments.worker:
        nx = SIZES[labels[0]]
        with_plain = not arguments.no_plain_lu
        run = {"floatframe": lambda: run_floatframe(nx, arguments.steps, arguments.lu, with_plain),
               "exudyn": lambda: run_exudyn(nx, arguments.steps),
               "linear-algebra": lambda: run_linear_algebra(nx, with_plain)}[arguments.worker]
        print(json.dumps(run()), flush=True)
        return
    rows = []
    cut = {}   # run name -> the size whose run hit the time limit: larger sizes are not run
    variants = {"auto": ["auto"], "plain": ["plain"], "both": ["auto", "plain"]}[arguments.lu]
    for label in labels:
        runs = [("linear-algebra", "auto")] if arguments.linear_algebra_only else (
            [("floatframe", lu) for lu in variants] + ([] if arguments.no_exudyn else [("exudyn", "auto")]))
        for code, lu in runs:
            name = "linear algebra" if code == "linear-algebra" else code if lu == "auto" else f"{code}, plain LU"
            if name in cut:
                rows.append(dict(code=name, label=label, skipped=cut[name]))
                continue
            timeout = {"floatframe": arguments.timeout, "exudyn": arguments.exudyn_timeout,
                       "linear-algebra": arguments.linear_algebra_timeout}[code]
            with_plain = SIZES[label] <= SIZES[arguments.plain_lu_max]
            row = in_subprocess(code, label, arguments.steps, timeout, lu, with_plain)
            row["code"] = name
            rows.append(row)
            if "timeout" in row:
                cut[name] = f"{label} did not finish in {timeout:.0f} s"
            if code == "floatframe" and "bordered_fill" not in row and lu == "auto":
                extra = in_subprocess("linear-algebra", label, arguments.steps, arguments.linear_algebra_timeout,
                                      with_plain=with_plain)
                rows.append(dict(extra, code="linear algebra"))
        print(f"{label}: " + "; ".join(f"{r['code']} " + next((k for k in ("timeout", "error", "skipped") if k in r),
                                                              "done") for r in rows if r["label"] == label),
              file=sys.stderr, flush=True)
    print_tables(rows)
    if arguments.json:
        Path(arguments.json).write_text(json.dumps(rows, indent=1))
    plot(rows, Path(arguments.plot))


if __name__ == "__main__":
    main()
