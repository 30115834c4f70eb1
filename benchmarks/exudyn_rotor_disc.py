"""Reference runs of the two rotor-disc set-ups in Exudyn (the `exudyn` package, 1.13.6).

Builds, in Exudyn, the rotor with disc of ``shared/data/rotorDisc`` in the two
variants described in ``shared/data/README.md``, solves them with generalized-alpha
(spectral radius 0.5, h = 1e-4, modified Newton) and prints the README measure

    measure = sum |stored sensor array|

where the stored array has one row per stored step, ``[t, ux, uy, uz]``, ``u`` being
the global displacement of the mesh node at (0, 0, 0.25).  The README numbers
INCLUDE the time column (this is what ``abs(data).sum()`` gives on Exudyn's sensor
file); the script prints the value with and without it.

Both builders return ``(SC, mbs, sensor_number, simulation_settings)`` so that other
benchmarks can import them:

    from benchmarks.exudyn_rotor_disc import build_exudyn_tisserand, build_exudyn_constrained

Wall times: build = from creating the SystemContainer until after ``mbs.Assemble()``
(this includes reading the mesh and the matrices), solve = ``exu.SolveDynamic``.

Run:  python benchmarks/exudyn_rotor_disc.py
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

import exudyn as exu
import exudyn.itemInterface as eii
from exudyn.FEM import FEMinterface, ObjectFFRFinterface
from exudyn.rigidBodyUtilities import AngularVelocity2EulerParameters_t

DATA_DIR = Path(__file__).resolve().parents[1].parent / 'shared' / 'data'
ROTOR_DIR = DATA_DIR / 'rotorDisc'

REFERENCE_TISSERAND = 0.035521880690182486
REFERENCE_CONSTRAINED = 0.0064600108120842666

# model data of the README
STIFFNESS_SCALE = 1e-2
UNBALANCE_NODE = 9          # 0-based mesh node
UNBALANCE_MASS = 0.1        # kg
OMEGA0 = [0.0, 0.0, 50 * 2 * np.pi]
K_SUPPORT = 2e8
D_SUPPORT = 0.01 * K_SUPPORT
Z_LEFT, Z_RIGHT, Z_MID = 0.0, 0.5, 0.25
FRAME_BODY_MASS = 1e-3      # rigid body on the frame node (constrained set-up)

# wall-clock times of the last build, filled by the builders
last_build_timing: dict = {}


def _simulation_settings(end_time: float, h: float = 1e-4, spectral_radius: float = 0.5,
                         modified_newton: bool = True, relative_tolerance: float | None = None):
    """settings of the README: generalized-alpha, fixed h, sensors stored every step, no files"""
    ss = exu.SimulationSettings()
    ss.timeIntegration.numberOfSteps = int(round(end_time / h))
    ss.timeIntegration.endTime = end_time
    ss.timeIntegration.verboseMode = 0
    ss.timeIntegration.newton.useModifiedNewton = modified_newton
    if relative_tolerance is not None:
        ss.timeIntegration.newton.relativeTolerance = relative_tolerance
    ss.timeIntegration.generalizedAlpha.spectralRadius = spectral_radius
    ss.solution.file.write = False            # no coordinates solution file
    ss.solution.file.writePeriod = h
    ss.solution.sensors.active = True         # sensors store every writePeriod (internally only)
    ss.solution.sensors.writePeriod = h
    return ss


def _mesh_nodes_abaqus():
    """FEMinterface with the rotor mesh, the (unscaled) matrices read from the Abaqus files"""
    fem = FEMinterface()
    fem.ImportFromAbaqusInputFile(str(ROTOR_DIR / 'rotorDiscTest.inp'), typeName='Instance',
                                  name='rotor-1')
    fem.ReadMassMatrixFromAbaqus(str(ROTOR_DIR / 'rotorDiscTestMASS1.mtx'))
    fem.ReadStiffnessMatrixFromAbaqus(str(ROTOR_DIR / 'rotorDiscTestSTIF1.mtx'))
    fem.ScaleStiffnessMatrix(STIFFNESS_SCALE)
    return fem


def _add_supports_and_sensor(mbs, o_ffrf, fem, node_mid, ground_markers=None):
    """ground, averaged end-face markers, Cartesian spring-dampers and the displacement sensor"""
    if ground_markers is None:
        o_ground = mbs.AddObject(eii.ObjectGround(referencePosition=[0, 0, 0]))
        m_ground_left = mbs.AddMarker(eii.MarkerBodyPosition(bodyNumber=o_ground, localPosition=[0, 0, Z_LEFT]))
        m_ground_right = mbs.AddMarker(eii.MarkerBodyPosition(bodyNumber=o_ground, localPosition=[0, 0, Z_RIGHT]))
    else:
        m_ground_left, m_ground_right = ground_markers
    left = fem.GetNodesInPlane([0, 0, Z_LEFT], [0, 0, 1])
    right = fem.GetNodesInPlane([0, 0, Z_RIGHT], [0, 0, 1])
    m_left = mbs.AddMarker(eii.MarkerSuperElementPosition(
        bodyNumber=o_ffrf, meshNodeNumbers=np.array(left),
        weightingFactors=np.ones(len(left)) / len(left)))
    m_right = mbs.AddMarker(eii.MarkerSuperElementPosition(
        bodyNumber=o_ffrf, meshNodeNumbers=np.array(right),
        weightingFactors=np.ones(len(right)) / len(right)))
    mbs.AddObject(eii.CartesianSpringDamper(markerNumbers=[m_left, m_ground_left],
                                            stiffness=[K_SUPPORT] * 3, damping=[D_SUPPORT] * 3))
    mbs.AddObject(eii.CartesianSpringDamper(markerNumbers=[m_right, m_ground_right],
                                            stiffness=[K_SUPPORT, K_SUPPORT, 0], damping=[D_SUPPORT] * 3))
    return mbs.AddSensor(eii.SensorSuperElement(bodyNumber=o_ffrf, meshNodeNumber=node_mid,
                                               outputVariableType=exu.OutputVariableType.Displacement,
                                               storeInternal=True, writeToFile=False))


def build_exudyn_tisserand(end_time: float = 0.0025, **settings_kwargs):
    """set-up 1: ObjectFFRF via FEM.ObjectFFRFinterface.AddObjectFFRF (Tisserand frame =
    6 rows of one CoordinateVectorConstraint), supports by spring-dampers; 25 steps"""
    t0 = time.perf_counter()
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()

    fem = _mesh_nodes_abaqus()
    fem.AddNodeMass(UNBALANCE_NODE, UNBALANCE_MASS)
    # ObjectFFRFinterface only needs a mode basis to exist; it is not used by ObjectFFRF
    fem.modeBasis = {'matrix': np.zeros((3 * fem.NumberOfNodes(), 0)), 'type': 'NormalModes'}
    ffrf = ObjectFFRFinterface(fem)
    obj = ffrf.AddObjectFFRF(exu, mbs, positionRef=[0, 0, 0], eulerParametersRef=[1, 0, 0, 0],
                             initialVelocity=[0, 0, 0], initialAngularVelocity=OMEGA0,
                             gravity=[0, 0, 0])
    node_mid = fem.GetNodeAtPoint([0, 0, Z_MID])
    mbs.AddMarker(eii.MarkerNodeRigid(nodeNumber=obj['nRigidBody']))  # as in Exudyn's test; no action
    sensor = _add_supports_and_sensor(mbs, obj['oFFRF'], fem, node_mid)
    mbs.Assemble()
    t1 = time.perf_counter()
    last_build_timing.clear()
    last_build_timing.update(build=t1 - t0, setup='tisserand')
    mbs.variables['floatframe'] = dict(obj, nodeMid=node_mid, fem=fem)
    return SC, mbs, sensor, _simulation_settings(end_time, **settings_kwargs)


def build_exudyn_constrained(end_time: float = 0.001, **settings_kwargs):
    """set-up 2: ObjectFFRF added directly, frame node with a small rigid body (Euler-parameter
    constraint), 6 CoordinateConstraints (left axis node x,y,z; right axis node x,y; x of
    mesh node 9), supports by spring-dampers; 10 steps"""
    t0 = time.perf_counter()
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()

    fem = _mesh_nodes_abaqus()
    nodes = fem.GetNodePositionsAsArray()
    # dense matrices, unbalance added on the diagonal of the unbalance node
    mass = fem.GetMassMatrix(sparse=False)
    stiff = fem.GetStiffnessMatrix(sparse=False)
    for i in range(3):
        mass[3 * UNBALANCE_NODE + i, 3 * UNBALANCE_NODE + i] += UNBALANCE_MASS

    z_min, z_max = nodes[:, 2].min(), nodes[:, 2].max()
    z_mid = 0.5 * (z_min + z_max)
    on_axis = (np.abs(nodes[:, 0]) < 1e-6) & (np.abs(nodes[:, 1]) < 1e-6)
    n_left = int(np.where(on_axis & (np.abs(nodes[:, 2] - z_min) < 1e-6))[0][-1])
    n_right = int(np.where(on_axis & (np.abs(nodes[:, 2] - z_max) < 1e-6))[0][-1])
    n_mid = int(np.where(on_axis & (np.abs(nodes[:, 2] - z_mid) < 1e-6))[0][-1])

    o_ground0 = mbs.AddObject(eii.ObjectGround(referencePosition=[0, 0, 0]))
    mbs.AddMarker(eii.MarkerBodyRigid(bodyNumber=o_ground0, localPosition=[0, 0, 0]))  # unused
    ep0 = np.array([1.0, 0, 0, 0])
    n_rb = mbs.AddNode(eii.NodeRigidBodyEP(
        referenceCoordinates=[0, 0, 0] + list(ep0),
        initialVelocities=[0, 0, 0] + list(AngularVelocity2EulerParameters_t(OMEGA0, ep0))))
    mesh_nodes = [mbs.AddNode(eii.Point(referenceCoordinates=list(p))) for p in nodes]

    Kmc = exu.MatrixContainer()
    Kmc.SetWithDenseMatrix(stiff, useDenseMatrix=False)
    Mmc = exu.MatrixContainer()
    Mmc.SetWithDenseMatrix(mass, useDenseMatrix=False)
    o_ffrf = mbs.AddObject(eii.ObjectFFRF(nodeNumbers=[n_rb] + mesh_nodes,
                                          stiffnessMatrixFF=Kmc, massMatrixFF=Mmc))
    mbs.AddObject(eii.ObjectRigidBody(nodeNumber=n_rb, mass=FRAME_BODY_MASS,
                                      inertia=[FRAME_BODY_MASS] * 3 + [0, 0, 0]))
    mbs.AddMarker(eii.MarkerNodeRigid(nodeNumber=n_rb))  # unused

    n_gl = mbs.AddNode(eii.NodePointGround(referenceCoordinates=[0, 0, z_min]))
    n_gr = mbs.AddNode(eii.NodePointGround(referenceCoordinates=[0, 0, z_max]))
    m_gl = mbs.AddMarker(eii.MarkerNodeCoordinate(nodeNumber=n_gl, coordinate=0))
    m_gr = mbs.AddMarker(eii.MarkerNodeCoordinate(nodeNumber=n_gr, coordinate=0))
    m_gpl = mbs.AddMarker(eii.MarkerNodePosition(nodeNumber=n_gl))
    m_gpr = mbs.AddMarker(eii.MarkerNodePosition(nodeNumber=n_gr))
    # constraint order: left x, right x, left y, right y, left z, then x of the unbalance node
    for i in range(3):
        m = mbs.AddMarker(eii.MarkerNodeCoordinate(nodeNumber=mesh_nodes[n_left], coordinate=i))
        mbs.AddObject(eii.CoordinateConstraint(markerNumbers=[m_gl, m]))
        if i != 2:
            m = mbs.AddMarker(eii.MarkerNodeCoordinate(nodeNumber=mesh_nodes[n_right], coordinate=i))
            mbs.AddObject(eii.CoordinateConstraint(markerNumbers=[m_gr, m]))
    m = mbs.AddMarker(eii.MarkerNodeCoordinate(nodeNumber=mesh_nodes[UNBALANCE_NODE], coordinate=0))
    mbs.AddObject(eii.CoordinateConstraint(markerNumbers=[m_gr, m]))

    sensor = _add_supports_and_sensor(mbs, o_ffrf, fem, n_mid, ground_markers=(m_gpl, m_gpr))
    mbs.Assemble()
    t1 = time.perf_counter()
    last_build_timing.clear()
    last_build_timing.update(build=t1 - t0, setup='constrained')
    mbs.variables['floatframe'] = dict(nRigidBody=n_rb, nodeList=mesh_nodes, oFFRF=o_ffrf,
                                       nodeMid=n_mid, nodeLeft=n_left, nodeRight=n_right, fem=fem)
    return SC, mbs, sensor, _simulation_settings(end_time, **settings_kwargs)


def measure(data: np.ndarray) -> tuple[float, float]:
    """(sum |data| including the time column, sum |data| of the displacement columns only)"""
    data = np.asarray(data)
    return float(np.abs(data).sum()), float(np.abs(data[:, 1:]).sum())


def run(builder, reference: float, label: str):
    SC, mbs, sensor, ss = builder()
    t_build = last_build_timing['build']
    t0 = time.perf_counter()
    exu.SolveDynamic(mbs, ss)
    t_solve = time.perf_counter() - t0
    data = mbs.GetSensorStoredData(sensor)
    with_time, without_time = measure(data)
    print(f'{label}: steps stored = {data.shape[0]}, t_end = {data[-1, 0]:.6g}')
    print(f'  measure incl. time column = {with_time!r}   (README {reference!r}, '
          f'diff {with_time - reference:.3e}, exact: {with_time == reference})')
    print(f'  measure displacements only = {without_time!r}')
    print(f'  wall time: build {t_build:.4f} s, solve {t_solve:.4f} s')
    return dict(with_time=with_time, without_time=without_time, build=t_build, solve=t_solve)


def main():
    print('exudyn', exu.__version__, 'data', DATA_DIR)
    run(build_exudyn_tisserand, REFERENCE_TISSERAND, 'Tisserand frame (25 steps)')
    run(build_exudyn_constrained, REFERENCE_CONSTRAINED, 'coordinate constraints + frame body (10 steps)')


if __name__ == '__main__':
    main()
