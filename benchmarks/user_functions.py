"""Benchmark: ObjectFFRF user functions, floatframe.exudyn against exudyn, in one run.

    python benchmarks/user_functions.py                       # both models, 40 steps, both codes
    python benchmarks/user_functions.py --models state --steps 10

One Exudyn-style script, run on ``exudyn`` (1.13.6) and on ``floatframe.exudyn``: the rotor-disc mesh of
``../shared/data/rotorDisc`` (115 nodes: 352 coordinates with the frame), stiffness scaled by 1e-2, 0.1 kg
unbalance at mesh node 9, spinning at 50 Hz about z on two Cartesian spring-damper bearings, the Tisserand
frame (ObjectFFRFinterface.AddObjectFFRF); generalized-alpha rho = 0.5, modified Newton, h = 1e-4. Models:

- ``state``: computeFFRFterms=False, and the FFRF terms come from Python: a ``forceUserFunction`` giving the
  quadratic velocity vector f_v(q, q_t) and a ``massMatrixUserFunction`` giving the whole dense (352, 352)
  mass matrix M(q) (both written with NumPy in this file). The same model with computeFFRFterms=True and
  no user functions is run too (``native``): the results must agree.
- ``constant``: computeFFRFterms=True, a ``forceUserFunction`` adding a rotating force on one mesh node and a
  ``massMatrixUserFunction`` returning a constant dense matrix (a 0.5 kg point mass on the frame translation).

Each run is a fresh process (``--run``), so that its peak memory (the maximum resident set size) is its own.
Build: the script up to and including ``mbs.Assemble()``; solve: ``SolveDynamic``. Printed: build and solve
times, peak memory, user-function calls per step, and the sum |sensor| over the stored steps.
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

from exudyn_settings import performance_settings  # noqa: E402
from modes import exudyn_rotor  # noqa: E402
H = 1e-4


def euler_parameter_matrices(theta):
    """Rotation matrix A and G_local (omega_local = G_local theta_t) of Euler parameters theta (4,)."""
    t0, t1, t2, t3 = theta
    rotation = np.array([[t0 * t0 + t1 * t1 - t2 * t2 - t3 * t3, 2 * (t1 * t2 - t0 * t3), 2 * (t1 * t3 + t0 * t2)],
                         [2 * (t1 * t2 + t0 * t3), t0 * t0 - t1 * t1 + t2 * t2 - t3 * t3, 2 * (t2 * t3 - t0 * t1)],
                         [2 * (t1 * t3 - t0 * t2), 2 * (t2 * t3 + t0 * t1), t0 * t0 - t1 * t1 - t2 * t2 + t3 * t3]])
    g_local = 2 * np.array([[-t1, t0, t3, -t2], [-t2, -t3, t0, t1], [-t3, t2, -t1, t0]])
    return rotation, g_local


def stacked_skew(vectors):
    """(n_f, 3): the skew matrices of the nodal 3-vectors of ``vectors`` (n_f,) stacked."""
    x = np.asarray(vectors).reshape(-1, 3)
    skew = np.zeros((x.shape[0], 3, 3))
    skew[:, 0, 1], skew[:, 0, 2], skew[:, 1, 2] = -x[:, 2], x[:, 1], -x[:, 0]
    skew[:, 1, 0], skew[:, 2, 0], skew[:, 2, 1] = x[:, 2], -x[:, 1], x[:, 0]
    return skew.reshape(-1, 3)


class FFRFTerms:
    """The ObjectFFRF mass matrix and quadratic velocity vector of the specification, with NumPy, for user
    functions: ``mass(q)`` (n_c, n_c) dense, ``quadratic_velocity(q, q_t)`` (n_c,); q without reference values."""

    def __init__(self, mass_ff, x_ref, theta_ref):
        self.mass_ff = mass_ff                        # scipy.sparse (n_f, n_f)
        self.x_ref = np.asarray(x_ref, dtype=float).reshape(-1)
        self.theta_ref = np.asarray(theta_ref, dtype=float)
        phi_t = np.kron(np.ones((self.x_ref.size // 3, 1)), np.eye(3))
        self.phi_t_mass = np.asarray((mass_ff.T @ phi_t).T)                        # Phi_t^T M (3, n_f)
        self.mass_tt = self.phi_t_mass @ phi_t
        self.mass_dense = mass_ff.toarray()

    def mass(self, q):
        rotation, g_local = euler_parameter_matrices(self.theta_ref + q[3:7])
        p_skew = stacked_skew(self.x_ref + q[7:])
        mass_p = np.asarray(self.mass_ff @ p_skew)                               # M p~
        m = np.zeros((q.size, q.size))
        m[:3, :3] = self.mass_tt
        m[:3, 3:7] = -rotation @ (self.phi_t_mass @ p_skew) @ g_local
        m[:3, 7:] = rotation @ self.phi_t_mass
        m[3:7, 3:7] = g_local.T @ (p_skew.T @ mass_p) @ g_local
        m[3:7, 7:] = -g_local.T @ mass_p.T
        m[7:, 7:] = self.mass_dense
        m[3:, :3] = m[:3, 3:].T
        m[7:, 3:7] = m[3:7, 7:].T
        return m

    def quadratic_velocity(self, q, q_t):
        rotation, g_local = euler_parameter_matrices(self.theta_ref + q[3:7])
        p = (self.x_ref + q[7:]).reshape(-1, 3)
        omega = g_local @ q_t[3:7]
        w = np.cross(omega, np.cross(omega, p)) + 2 * np.cross(omega, q_t[7:].reshape(-1, 3))
        mass_w = self.mass_ff @ w.reshape(-1)                                    # M (Omega~ Omega~ p + 2 Omega~ q_f_t)
        return np.concatenate([-rotation @ (self.phi_t_mass @ w.reshape(-1)),
                               g_local.T @ np.cross(mass_w.reshape(-1, 3), p).sum(axis=0), -mass_w])


def rotor(exu, ii, fem_module, model: str, steps: int, calls: dict):
    """The Exudyn-style script (see the module docstring); returns (mbs, sensor, settings)."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    fem = exudyn_rotor(fem_module)
    fem.ComputeEigenmodes(4, excludeRigidBodyModes=6, useSparseSolver=False)
    body = fem_module.ObjectFFRFinterface(fem).AddObjectFFRF(
        exu, mbs, positionRef=[0, 0, 0], eulerParametersRef=[1, 0, 0, 0], initialVelocity=[0, 0, 0],
        initialAngularVelocity=[0, 0, 2 * np.pi * 50])
    rotor_body = body["oFFRF"]
    ground = mbs.AddObject(ii.ObjectGround(referencePosition=[0, 0, 0]))
    for z, stiffness in ((0.0, [2e8, 2e8, 2e8]), (0.5, [2e8, 2e8, 0.0])):
        face = fem.GetNodesInPlane([0, 0, z], [0, 0, 1])
        on_rotor = mbs.AddMarker(ii.MarkerSuperElementPosition(bodyNumber=rotor_body, meshNodeNumbers=np.array(face),
                                                               weightingFactors=np.ones(len(face)) / len(face)))
        on_ground = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, z]))
        mbs.AddObject(ii.CartesianSpringDamper(markerNumbers=[on_rotor, on_ground], stiffness=stiffness,
                                               damping=[2e6] * 3))
    sensor = mbs.AddSensor(ii.SensorSuperElement(bodyNumber=rotor_body, meshNodeNumber=fem.GetNodeAtPoint([0, 0, 0.25]),
                                                 storeInternal=True, writeToFile=False,
                                                 outputVariableType=exu.OutputVariableType.Displacement))
    if model == "state":
        terms = FFRFTerms(fem.GetMassMatrix(sparse=True), fem.GetNodePositionsAsArray(), [1, 0, 0, 0])

        def force(mbs, t, item, q, q_t):
            calls["force"] += 1
            return terms.quadratic_velocity(np.asarray(q), np.asarray(q_t))

        def mass(mbs, t, item, q, q_t):
            calls["mass"] += 1
            return terms.mass(np.asarray(q))
        mbs.SetObjectParameter(rotor_body, "computeFFRFterms", False)
    elif model == "constant":
        point_mass = np.zeros((352, 352))
        point_mass[:3, :3] = 0.5 * np.eye(3)
        node = 7 + 3 * fem.GetNodeAtPoint([0, 0, 0.25])

        def force(mbs, t, item, q, q_t):
            calls["force"] += 1
            f = np.zeros(len(q))
            f[:3] = -1e3 * np.asarray(q_t[:3])                      # drag on the frame (global)
            f[node:node + 3] = [2e3 * np.sin(300 * t), 1e3, 0.0]    # body-fixed force on the middle axis node
            return f

        def mass(mbs, t, item, q, q_t):
            calls["mass"] += 1
            return point_mass
    if model != "native":
        mbs.SetObjectParameter(rotor_body, "forceUserFunction", force)
        mbs.SetObjectParameter(rotor_body, "massMatrixUserFunction", mass)
    mbs.Assemble()
    return mbs, sensor, performance_settings(exu, steps, H, H)


def run(code: str, model: str, steps: int) -> dict:
    """One run in this process: build and solve times [s], peak memory [MB], user-function calls, the sensor."""
    if code == "exudyn":
        import exudyn as exu
        import exudyn.FEM as fem_module
        import exudyn.itemInterface as ii
    else:
        import floatframe.exudyn as exu
        from floatframe.exudyn import FEM as fem_module
        from floatframe.exudyn import itemInterface as ii
    imported = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    calls = {"force": 0, "mass": 0}
    started = time.perf_counter()
    mbs, sensor, ss = rotor(exu, ii, fem_module, model, steps, calls)
    build = time.perf_counter() - started
    calls_build = dict(calls)
    started = time.perf_counter()
    exu.SolveDynamic(mbs, ss)
    solve = time.perf_counter() - started
    data = np.asarray(mbs.GetSensorStoredData(sensor))
    return dict(build=build, solve=solve, peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                imported_mb=imported, force_calls=calls["force"] - calls_build["force"],
                mass_calls=calls["mass"] - calls_build["mass"], measure=float(np.abs(data[:, 1:]).sum()),
                data=data.tolist())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--models", default="state,constant")
    parser.add_argument("--codes", default="exudyn,floatframe")
    parser.add_argument("--run", nargs=2, metavar=("CODE", "MODEL"), help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.run:
        print(json.dumps(run(*arguments.run, arguments.steps)))
        return
    print(f"rotor disc, 352 coordinates, {arguments.steps} steps of h = {H:g} s, generalized-alpha rho = 0.5, "
          f"modified Newton; each run a fresh process")
    print("| model | code | build [s] | solve [s] | peak memory [MB] (after imports) | force UF calls | mass UF calls "
          "| sum abs(sensor) |")
    print("|---|---|---|---|---|---|---|---|")
    for model in arguments.models.split(","):
        results = {}
        runs = [(code, model) for code in arguments.codes.split(",")]
        if model == "state":
            runs += [(code, "native") for code in arguments.codes.split(",")]
        for code, variant in runs:
            output = subprocess.run([sys.executable, __file__, "--steps", str(arguments.steps), "--run", code, variant],
                                    capture_output=True, text=True)
            if output.returncode:
                print(f"| {variant} | {code} | failed: {output.stderr.strip().splitlines()[-1]} | | | | | |")
                continue
            r = json.loads(output.stdout.strip().splitlines()[-1])
            results[code, variant] = r
            print(f"| {variant} | {code} | {r['build']:.2f} | {r['solve']:.2f} | {r['peak_mb']:.0f} "
                  f"({r['imported_mb']:.0f}) | {r['force_calls']} | {r['mass_calls']} | {r['measure']:.12g} |",
                  flush=True)
        pairs = [(("floatframe", model), ("exudyn", model))]
        if model == "state":   # the user functions' terms against the body's own
            pairs += [((code, "state"), (code, "native")) for code in ("floatframe", "exudyn")]
        for first, second in pairs:
            if first in results and second in results:
                compare(f"{first[0]} {first[1]} / {second[0]} {second[1]}", results[first], results[second])


def compare(label: str, ours: dict, theirs: dict) -> None:
    """A table row of the ratios of two runs and the largest difference of their sensors."""
    difference = np.abs(np.array(ours["data"]) - np.array(theirs["data"]))[:, 1:].max()
    scale = np.abs(np.array(theirs["data"])[:, 1:]).max()
    print(f"| {label} | ratio | {ours['build'] / theirs['build']:.2f} | {ours['solve'] / theirs['solve']:.2f} | "
          f"{ours['peak_mb'] / theirs['peak_mb']:.2f} | | | max difference {difference / scale:.1e} of the largest "
          f"abs(sensor) |", flush=True)

if __name__ == "__main__":
    main()
