"""Benchmark: per-step cost of generalized-alpha on small models, floatframe against Exudyn, in one run.

    python benchmarks/step_overhead.py                 # 20,000 steps of 1e-4 s, 3 alternating repeats
    python benchmarks/step_overhead.py --steps 2000 --repeat 1

The set-up of Exudyn's performance test TestModels/perfObjectFFRFreducedOrder.py: generalized-alpha with
spectral radius 0.5, modified Newton, h = 1e-4, 20,000 steps, sensors stored every 0.1 s, each code with
its own default Newton tolerances. Models:
- ``pendulum``: floatframe.models.pendulum (7 coordinates, 4 constraints: Euler-parameter norm and
  spherical joint), and the same pendulum written for Exudyn;
- ``spinning-rotor``: floatframe.models.spinning_rotor, a rigid rotor on the spring-damper supports of
  Exudyn's test (7 coordinates, 1 constraint), and the same rotor written for Exudyn.
floatframe runs twice: on its default path (``linear_algebra="auto"``, the dense low-overhead path for
these sizes, compiled from 5000 steps on) and on the sparse path that every model took before
(``linear_algebra="sparse"``). Build is the model plus ``assemble()`` and the solver's ``prepare`` (the
dense kernel, compiled) for floatframe, the model plus ``Assemble()`` for Exudyn; solve is the
integration alone. The compiled kernels go to a fresh temporary cache, so the first floatframe build of
each model includes the compiler ("first build"); the later ones find the library in the cache. Medians
of ``--repeat`` runs, alternating the codes.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from floatframe.models.pendulum import build_pendulum  # noqa: E402
from floatframe.models.spinning_rotor import SUPPORT_DAMPING, SUPPORT_STIFFNESS, build_spinning_rotor  # noqa: E402
from floatframe.solvers import GeneralizedAlpha  # noqa: E402

H = 1e-4
SENSOR_PERIOD = 0.1  # [s], Exudyn's sensorsWritePeriod in the performance test


def floatframe_run(model: str, steps: int, linear_algebra: str) -> dict:
    started = time.perf_counter()
    system, info = build_pendulum() if model == "pendulum" else build_spinning_rotor()
    assembled = system.assemble()
    solver = GeneralizedAlpha(0.5, modified_newton=True, linear_algebra=linear_algebra)
    solver.prepare(assembled, steps)
    build = time.perf_counter() - started
    store_every = max(1, int(round(SENSOR_PERIOD / H)))
    result = solver.solve(assembled, steps * H, steps, progress=False, store_every=store_every)
    sensor = info.position_sensor
    stats = result.statistics
    return dict(build=build, solve=stats.solve_time, iterations=stats.iterations_per_step,
                jacobians=stats.jacobian_evaluations, measure=np.abs(result.sensor(sensor, with_time=True)).sum())


def exudyn_pendulum(exu, ii, length=1.0, mass=2.0, radius_of_gyration=0.2, gravity=9.81, angle0=0.3):
    """floatframe.models.pendulum written for Exudyn."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    centre = [length * np.sin(angle0), -length * np.cos(angle0), 0.0]
    node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=centre + [np.cos(angle0 / 2), 0, 0, np.sin(angle0 / 2)]))
    inertia = mass * radius_of_gyration ** 2
    body = mbs.AddObject(ii.ObjectRigidBody(nodeNumber=node, mass=mass,
                                            inertia=[inertia, inertia, inertia, 0, 0, 0]))
    ground = mbs.AddObject(ii.ObjectGround())
    pivot = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, 0]))
    joint = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=body, localPosition=[0, length, 0]))
    mbs.AddObject(ii.ObjectJointSpherical(markerNumbers=[pivot, joint]))
    centre_marker = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=body, localPosition=[0, 0, 0]))
    mbs.AddLoad(ii.LoadForceVector(markerNumber=centre_marker, loadVector=[0, -mass * gravity, 0]))
    sensor = mbs.AddSensor(ii.SensorBody(bodyNumber=body, storeInternal=True, writeToFile=False,
                                         outputVariableType=exu.OutputVariableType.Position))
    return mbs, sensor


def exudyn_spinning_rotor(exu, ii, mass=30.0, inertia=(0.8, 0.8, 1.2, 0.0, 0.01, 0.0), length=0.5,
                          spin=50 * 2 * np.pi, lateral_velocity=0.01):
    """floatframe.models.spinning_rotor written for Exudyn."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    half = 0.5 * length
    node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[0, 0, half, 1, 0, 0, 0],
                                          initialVelocities=[lateral_velocity, 0, 0, 0, 0, 0, 0.5 * spin]))
    body = mbs.AddObject(ii.ObjectRigidBody(nodeNumber=node, mass=mass, inertia=list(inertia)))
    ground = mbs.AddObject(ii.ObjectGround())
    k, d = SUPPORT_STIFFNESS, SUPPORT_DAMPING
    for body_point, ground_point, stiffness in (([0, 0, -half], [0, 0, 0], [k, k, k]),
                                                ([0, 0, half], [0, 0, length], [k, k, 0])):
        markers = [mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=body, localPosition=body_point)),
                   mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=ground_point))]
        mbs.AddObject(ii.CartesianSpringDamper(markerNumbers=markers, stiffness=stiffness, damping=[d, d, d]))
    sensor = mbs.AddSensor(ii.SensorNode(nodeNumber=node, storeInternal=True, writeToFile=False,
                                         outputVariableType=exu.OutputVariableType.Position))
    return mbs, sensor


def exudyn_run(model: str, steps: int) -> dict:
    import exudyn as exu
    import exudyn.itemInterface as ii

    started = time.perf_counter()
    mbs, sensor = exudyn_pendulum(exu, ii) if model == "pendulum" else exudyn_spinning_rotor(exu, ii)
    mbs.Assemble()
    build = time.perf_counter() - started
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = steps
    settings.timeIntegration.endTime = steps * H
    settings.timeIntegration.verboseMode = 0
    settings.timeIntegration.newton.useModifiedNewton = True
    settings.timeIntegration.generalizedAlpha.spectralRadius = 0.5
    settings.solution.sensors.writePeriod = SENSOR_PERIOD
    settings.solution.file.write = False
    solver = exu.MainSolverImplicitSecondOrder()
    started = time.perf_counter()
    solver.SolveSystem(mbs, settings)
    solve = time.perf_counter() - started
    return dict(build=build, solve=solve, iterations=solver.it.newtonStepsCount / steps,
                jacobians=solver.it.newtonJacobiCount, measure=np.abs(mbs.GetSensorStoredData(sensor)).sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--models", default="pendulum,spinning-rotor")
    arguments = parser.parse_args()
    try:
        import exudyn  # noqa: F401
        have_exudyn = True
    except ImportError:
        have_exudyn = False
    steps = arguments.steps
    os.environ["FLOATFRAME_CACHE"] = tempfile.mkdtemp(prefix="floatframe-kernels-")
    print(f"{steps} steps of h = {H:g} s, generalized-alpha rho = 0.5, modified Newton; "
          f"median of {arguments.repeat} alternating runs")
    print("| model | code | first build [s] | build [s] | solve [s] | solve per step [ms] | Newton it./step | "
          "Jacobians | measure |")
    print("|---|---|---|---|---|---|---|---|---|")
    codes = {"floatframe": lambda model: floatframe_run(model, steps, "auto"),
             "floatframe, sparse path": lambda model: floatframe_run(model, steps, "sparse")}
    if have_exudyn:
        codes["exudyn"] = lambda model: exudyn_run(model, steps)
    for model in arguments.models.split(","):
        runs = {code: [] for code in codes}
        for _ in range(arguments.repeat):
            for code, run in codes.items():
                runs[code].append(run(model))
        medians = {code: {key: statistics.median(r[key] for r in results) for key in results[0]}
                   for code, results in runs.items()}
        for code, median in medians.items():
            first = runs[code][0]["build"]
            print(f"| {model} | {code} | {first:.3f} | {median['build']:.3f} | {median['solve']:.3f} | "
                  f"{median['solve'] / steps * 1e3:.4f} | {median['iterations']:.2f} | {median['jacobians']:.0f} | "
                  f"{median['measure']:.12g} |")
        fast, sparse = medians["floatframe"]["solve"], medians["floatframe, sparse path"]["solve"]
        print(f"| {model} | speed-up of the dense path over the sparse path | | | {sparse / fast:.1f} | | | | |")
        if have_exudyn:
            print(f"| {model} | solve-time ratio Exudyn / floatframe | | | {medians['exudyn']['solve'] / fast:.2f} "
                  f"| | | | |")


if __name__ == "__main__":
    main()
