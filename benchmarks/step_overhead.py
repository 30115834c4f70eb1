"""Benchmark: per-step cost of generalized-alpha on small models, floatframe against Exudyn, in one run.

    python benchmarks/step_overhead.py                 # 20,000 steps of 1e-4 s, 3 alternating repeats
    python benchmarks/step_overhead.py --steps 2000 --repeat 1

The set-up of Exudyn's performance test TestModels/perfObjectFFRFreducedOrder.py: generalized-alpha with
spectral radius 0.5, modified Newton, h = 1e-4, 20,000 steps, sensors stored every 0.1 s, each code with
its own default Newton tolerances. Models:
- ``pendulum``: floatframe.models.pendulum (7 coordinates, 4 constraints: Euler-parameter norm and
  spherical joint), and the same pendulum written for Exudyn;
- ``spinning-rotor``: floatframe.models.spinning_rotor, a rigid rotor on the spring-damper supports of
  Exudyn's test (7 coordinates, 1 constraint), and the same rotor written for Exudyn;
- ``reduced-rotor``: Exudyn's performance set-up itself (needs ../shared/data/rotorDisc): the rotor-disc
  mesh and matrices, stiffness scaled by 1e-2, 0.1 kg unbalance at mesh node 9, 8 free-free eigenmodes,
  ObjectFFRFReducedOrder spinning at 50 Hz on the two spring-damper supports (15 coordinates,
  1 constraint); floatframe.models.rotor_disc.build_rotor_disc(modes=8) against the script's model.
- ``chain``: three rigid links (bars of 0.5 m, 1 kg) on revolute joints about z, the first to the ground
  with a torsional spring-damper (10 N m/rad, 0.1 N m s/rad), under gravity, released horizontal
  (21 coordinates, 18 constraints), and the same chain written for Exudyn.
floatframe runs four ways: the dense low-overhead path compiled to C with its step loop in C as well
(``compile=True``, the default ``native=True``: floatframe.solvers.native), the same with the step loop in
Python (``native=False``), the dense path on CasADi's virtual machine (``compile=False``; ``compile="auto"``
picks compiled or not by an estimate), and the sparse path that every model took before
(``linear_algebra="sparse"``). Build is the model plus
``assemble()`` and the solver's ``prepare`` (the dense kernel, compiled) for floatframe, the model plus
``Assemble()`` for Exudyn; solve is the integration alone. The compiled kernels go to a fresh temporary
cache, so the first compiled build of each model includes the compiler ("first build"; the first one of
the run also compiles the C step loop, once for all models); later ones find the library in the cache.
Medians of ``--repeat`` runs, alternating the codes.
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
sys.path[:0] = [str(HERE.parent), str(HERE)]  # this checkout's floatframe, the other benchmarks

from exudyn_settings import performance_settings  # noqa: E402

from floatframe import components as c  # noqa: E402
from floatframe.fem import read_abaqus_inp, read_abaqus_mtx  # noqa: E402
from floatframe.models.pendulum import build_pendulum  # noqa: E402
from floatframe.models.rotor_disc import build_rotor_disc  # noqa: E402
from floatframe.models.spinning_rotor import SUPPORT_DAMPING, SUPPORT_STIFFNESS, build_spinning_rotor  # noqa: E402
from floatframe.solvers import GeneralizedAlpha  # noqa: E402
from floatframe.assembly import System  # noqa: E402

DATA = HERE.parent.parent / "shared" / "data" / "rotorDisc"
H = 1e-4
SENSOR_PERIOD = 0.1  # [s], Exudyn's sensorsWritePeriod in the performance test


CHAIN = dict(links=3, length=0.5, mass=1.0, width=0.02, stiffness=10.0, damping=0.1, gravity=9.81)


def chain_inertia(mass, length, width):
    """[Jxx, Jyy, Jzz, Jyz, Jxz, Jxy] of a bar of square section along x about its centre [kg m^2]."""
    transverse = mass * (length ** 2 + width ** 2) / 12.0
    return [mass * width ** 2 / 6.0, transverse, transverse, 0.0, 0.0, 0.0]


def floatframe_chain(links, length, mass, width, stiffness, damping, gravity):
    """(System, tip sensor) of the rigid chain: links along +x from the origin, revolute joints about z, a
    torsional spring-damper in the first joint."""
    system = System()
    previous = system.add(c.MarkerBodyRigid(system.add(c.ObjectGround())))
    for i in range(links):
        node = system.add(c.NodeRigidBodyEP([(i + 0.5) * length, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]))
        body = system.add(c.ObjectRigidBody(node, mass, chain_inertia(mass, length, width)))
        root = system.add(c.MarkerBodyRigid(body, (-0.5 * length, 0.0, 0.0)))
        system.add(c.RevoluteJoint([previous, root]))
        if i == 0:
            system.add(c.TorsionalSpringDamper([previous, root], stiffness, damping))
        system.add(c.LoadMassProportional(system.add(c.MarkerBodyMass(body)), (0.0, -gravity, 0.0)))
        previous = system.add(c.MarkerBodyRigid(body, (0.5 * length, 0.0, 0.0)))
    return system, system.add(c.SensorBody(body, "Position", (0.5 * length, 0.0, 0.0)))


def floatframe_model(model: str):
    """(System, number of the sensor to sum) of a benchmark model."""
    if model == "chain":
        return floatframe_chain(**CHAIN)
    if model == "pendulum":
        system, info = build_pendulum()
        return system, info.position_sensor
    if model == "spinning-rotor":
        system, info = build_spinning_rotor()
        return system, info.position_sensor
    mesh = read_abaqus_inp(DATA / "rotorDiscTest.inp", instance="rotor-1")
    rotor = build_rotor_disc(nodes=mesh.nodes, mass_matrix=read_abaqus_mtx(DATA / "rotorDiscTestMASS1.mtx"),
                             stiffness_matrix=read_abaqus_mtx(DATA / "rotorDiscTestSTIF1.mtx"), unbalance_node=9,
                             modes=8)
    return rotor.system, rotor.sensor


def floatframe_run(model: str, steps: int, linear_algebra: str, compile, native: bool = True) -> dict:
    started = time.perf_counter()
    system, sensor = floatframe_model(model)
    assembled = system.assemble()
    solver = GeneralizedAlpha(0.5, modified_newton=True, linear_algebra=linear_algebra, compile=compile,
                              native=native)
    solver.prepare(assembled, steps)
    build = time.perf_counter() - started
    store_every = max(1, int(round(SENSOR_PERIOD / H)))
    result = solver.solve(assembled, steps * H, steps, progress=False, store_every=store_every)
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


def exudyn_chain(exu, ii, links, length, mass, width, stiffness, damping, gravity):
    """The rigid chain of ``floatframe_chain`` written for Exudyn."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ii.ObjectGround())
    previous = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=ground, localPosition=[0, 0, 0]))
    for i in range(links):
        node = mbs.AddNode(ii.NodeRigidBodyEP(referenceCoordinates=[(i + 0.5) * length, 0, 0, 1, 0, 0, 0]))
        body = mbs.AddObject(ii.ObjectRigidBody(nodeNumber=node, mass=mass, inertia=chain_inertia(mass, length, width)))
        root = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body, localPosition=[-0.5 * length, 0, 0]))
        mbs.AddObject(ii.ObjectJointRevoluteZ(markerNumbers=[previous, root]))
        if i == 0:
            mbs.AddObject(ii.ObjectConnectorTorsionalSpringDamper(markerNumbers=[previous, root], stiffness=stiffness,
                                                                  damping=damping))
        centre = mbs.AddMarker(ii.MarkerBodyMass(bodyNumber=body))
        mbs.AddLoad(ii.LoadMassProportional(markerNumber=centre, loadVector=[0, -gravity, 0]))
        previous = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=body, localPosition=[0.5 * length, 0, 0]))
    sensor = mbs.AddSensor(ii.SensorBody(bodyNumber=body, localPosition=[0.5 * length, 0, 0], storeInternal=True,
                                         writeToFile=False, outputVariableType=exu.OutputVariableType.Position))
    return mbs, sensor


def exudyn_reduced_rotor(exu, ii):
    """The model of Exudyn's TestModels/perfObjectFFRFreducedOrder.py (without graphics)."""
    import exudyn.FEM as fem_module

    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    fem = fem_module.FEMinterface()
    fem.ImportFromAbaqusInputFile(str(DATA / "rotorDiscTest.inp"), typeName="Instance", name="rotor-1")
    fem.ReadMassMatrixFromAbaqus(str(DATA / "rotorDiscTestMASS1.mtx"))
    fem.ReadStiffnessMatrixFromAbaqus(str(DATA / "rotorDiscTestSTIF1.mtx"))
    fem.ScaleStiffnessMatrix(1e-2)
    fem.AddNodeMass(fem.GetNodeAtPoint(point=[0.0, 0.19598444, 0.15]), 0.1)  # mesh node 9
    fem.ComputeEigenmodes(8, excludeRigidBodyModes=6, useSparseSolver=True)
    body = fem_module.ObjectFFRFreducedOrderInterface(fem).AddObjectFFRFreducedOrder(
        mbs, positionRef=[0, 0, 0], initialVelocity=[0, 0, 0], initialAngularVelocity=[0, 0, 50 * 2 * np.pi])
    ground = mbs.AddObject(ii.ObjectGround(referencePosition=[0, 0, 0]))
    k, d = SUPPORT_STIFFNESS, SUPPORT_DAMPING
    for z, stiffness in ((0.0, [k, k, k]), (0.5, [k, k, 0])):
        face = fem.GetNodesInPlane([0, 0, z], [0, 0, 1])
        marker = mbs.AddMarker(ii.MarkerSuperElementPosition(bodyNumber=body["oFFRFreducedOrder"],
                                                             meshNodeNumbers=np.array(face),
                                                             weightingFactors=np.ones(len(face)) / len(face)))
        ground_marker = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[0, 0, z]))
        mbs.AddObject(ii.CartesianSpringDamper(markerNumbers=[marker, ground_marker], stiffness=stiffness,
                                               damping=[d, d, d]))
    sensor = mbs.AddSensor(ii.SensorSuperElement(bodyNumber=body["oFFRFreducedOrder"],
                                                 meshNodeNumber=fem.GetNodeAtPoint([0, 0, 0.25]), storeInternal=True,
                                                 outputVariableType=exu.OutputVariableType.Displacement))
    return mbs, sensor


EXUDYN_MODELS = {"pendulum": exudyn_pendulum, "spinning-rotor": exudyn_spinning_rotor,
                 "reduced-rotor": exudyn_reduced_rotor,
                 "chain": lambda exu, ii: exudyn_chain(exu, ii, **CHAIN)}


def exudyn_run(model: str, steps: int) -> dict:
    import exudyn as exu
    import exudyn.itemInterface as ii

    started = time.perf_counter()
    mbs, sensor = EXUDYN_MODELS[model](exu, ii)
    mbs.Assemble()
    build = time.perf_counter() - started
    settings = performance_settings(exu, steps, H, SENSOR_PERIOD)
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
    parser.add_argument("--models", default="pendulum,spinning-rotor,reduced-rotor,chain")
    arguments = parser.parse_args()
    try:
        import exudyn  # noqa: F401
        have_exudyn = True
    except ImportError:
        have_exudyn = False
    with tempfile.TemporaryDirectory(prefix="floatframe-kernels-") as cache:
        os.environ["FLOATFRAME_CACHE"] = cache
        compare(arguments.steps, arguments.repeat, arguments.models.split(","), have_exudyn)


def compare(steps: int, repeat: int, models, have_exudyn: bool) -> None:
    print(f"{steps} steps of h = {H:g} s, generalized-alpha rho = 0.5, modified Newton; "
          f"median of {repeat} alternating runs")
    print("| model | code | first build [s] | build [s] | solve [s] | solve per step [ms] | Newton it./step | "
          "Jacobians | measure |")
    print("|---|---|---|---|---|---|---|---|---|")
    codes = {"floatframe, compiled": lambda model: floatframe_run(model, steps, "auto", True),
             "floatframe, compiled, Python loop": lambda model: floatframe_run(model, steps, "auto", True, False),
             "floatframe, not compiled": lambda model: floatframe_run(model, steps, "auto", False),
             "floatframe, sparse path": lambda model: floatframe_run(model, steps, "sparse", False)}
    if have_exudyn:
        codes["exudyn"] = lambda model: exudyn_run(model, steps)
    for model in models:
        if model == "reduced-rotor" and not DATA.is_dir():
            print(f"| {model} | skipped: no reference data at {DATA} | | | | | | | |")
            continue
        runs = {code: [] for code in codes}
        for _ in range(repeat):
            for code, run in codes.items():
                runs[code].append(run(model))
        medians = {code: {key: statistics.median(r[key] for r in results) for key in results[0]}
                   for code, results in runs.items()}
        for code, median in medians.items():
            first = runs[code][0]["build"]
            print(f"| {model} | {code} | {first:.3f} | {median['build']:.3f} | {median['solve']:.3f} | "
                  f"{median['solve'] / steps * 1e3:.4f} | {median['iterations']:.2f} | {median['jacobians']:.0f} | "
                  f"{median['measure']:.12g} |")
        sparse = medians["floatframe, sparse path"]["solve"]
        for code in ("floatframe, compiled", "floatframe, compiled, Python loop", "floatframe, not compiled"):
            solve = medians[code]["solve"]
            print(f"| {model} | speed-up of {code} over the sparse path | | | {sparse / solve:.1f} | | | | |")
            if have_exudyn:
                print(f"| {model} | solve-time ratio Exudyn / {code} | | | {medians['exudyn']['solve'] / solve:.2f} "
                      f"| | | | |")


if __name__ == "__main__":
    main()
