"""floatframe.exudyn.lieGroupBasics and lieGroupIntegration against exudyn 1.13.6 (skipped without exudyn) and
against finite differences.

Claims: every function of lieGroupBasics equals exudyn's to 1e-12 on random inputs over the angle ranges of its
series and closed-form branches (rotation angles 1e-4 .. 3 rad); TExpSO3 is the body-fixed tangent operator
(R^T dR = (T dv)~, central differences to 1e-8) and TExpSO3Inv its inverse; TExpSE3 is the right-trivialized
tangent operator of ExpSE3 (differences to 1e-8) and TExpSE3Inv its inverse (1e-12), where exudyn's two differ
from these (it squares Omega~ entry by entry, and its TExpSE3Inv's closed form is not its series' function), and
equal exudyn's where its formulas hold (Omega . U = 0, angles below 0.01 rad); the RK1 and RK4 Euler-equation
integrators give exudyn's trajectories (1e-11 over 200 steps) and refuse an unknown solver name; the star imports
give exudyn's names.
"""
import zlib

import numpy as np
import pytest
import scipy.linalg

import floatframe.exudyn.lieGroupBasics as basics
import floatframe.exudyn.lieGroupIntegration as integration
from floatframe.exudyn import ExudynLayerError

exudyn_basics = pytest.importorskip("exudyn.lieGroupBasics")
exudyn_integration = pytest.importorskip("exudyn.lieGroupIntegration")

ANGLES = (1e-4, 5e-3, 0.015, 0.3, 1.5, 3.0)     # rotation angles [rad] over the series and closed-form branches
DIFFERENCE_STEP = 1e-6


def random_rotation_vector(rng, angle):
    axis = rng.normal(size=3)
    return angle * axis / np.linalg.norm(axis)


def unit(vector):
    return vector / np.linalg.norm(vector)


def arguments(name, rng, angle):
    """Random arguments of the function ``name`` with rotation vectors of the given angle."""
    rotation = random_rotation_vector(rng, angle)
    twist = np.r_[rng.normal(size=3), rotation]
    euler = unit(rng.normal(size=4))
    return {
        "ExpSO3": (rotation,), "ExpS3": (rotation,), "TExpSO3": (rotation,), "TExpSO3Inv": (rotation,),
        "LogSO3": (exudyn_basics.ExpSO3(rotation),),
        "ExpSE3": (twist,), "LogSE3": (exudyn_basics.ExpSE3(twist),),
        "ExpR3xSO3": (twist,), "TExpR3xSO3": (twist,), "TExpR3xSO3Inv": (twist,),
        "R3xSO3Matrix": (rng.normal(size=3), exudyn_basics.ExpSO3(rotation)),
        "R3xSO3Matrix2RotationMatrix": (exudyn_basics.ExpR3xSO3(twist),),
        "R3xSO3Matrix2Translation": (exudyn_basics.ExpR3xSO3(twist),),
        "CompositionRuleForEulerParameters": (euler, unit(rng.normal(size=4))),
        "CompositionRuleForRotationVectors": (random_rotation_vector(rng, 2.0), rotation),
        "CompositionRuleRotXYZAnglesRotationVector": (rng.uniform(-1.2, 1.2, size=3), rotation),
        "CompositionRuleDirectProductR3AndS3": (np.r_[rng.normal(size=3), euler], twist),
        "CompositionRuleSemiDirectProductR3AndS3": (np.r_[rng.normal(size=3), euler], twist),
        "CompositionRuleDirectProductR3AndR3RotVec": (rng.normal(size=6), twist),
        "CompositionRuleSemiDirectProductR3AndR3RotVec": (rng.normal(size=6), twist),
        "CompositionRuleDirectProductR3AndR3RotXYZAngles": (rng.uniform(-1.2, 1.2, size=6), twist),
        "CompositionRuleSemiDirectProductR3AndR3RotXYZAngles": (rng.uniform(-1.2, 1.2, size=6), twist),
        "Sinc": (angle,), "Cot": (angle,),
    }[name]


AS_EXUDYN = [name for name in basics.__all__ if name not in ("TExpSE3", "TExpSE3Inv")]


def test_all_names_are_exudyns():
    assert sorted(basics.__all__) == sorted(exudyn_basics.__all__)
    assert sorted(integration.__all__) == sorted(exudyn_integration.__all__)


@pytest.mark.parametrize("name", AS_EXUDYN)
def test_function_equals_exudyn(name):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    for angle in ANGLES:
        for _ in range(5):
            values = arguments(name, rng, angle)
            ours = np.asarray(getattr(basics, name)(*values), dtype=float)
            theirs = np.asarray(getattr(exudyn_basics, name)(*values), dtype=float)
            assert ours.shape == theirs.shape
            assert np.abs(ours - theirs).max() <= 1e-12, (name, angle, values)


def hat(twist):
    """The 4 x 4 matrix [[Omega~, U], [0, 0]] of the twist [U, Omega]."""
    matrix = np.zeros((4, 4))
    matrix[:3, :3] = basics.rotations.skew(twist[3:])
    matrix[:3, 3] = twist[:3]
    return matrix


def vee(matrix):
    return np.r_[matrix[:3, 3], matrix[2, 1], matrix[0, 2], matrix[1, 0]]


@pytest.mark.parametrize("angle", ANGLES)
def test_t_exp_so3_is_the_body_fixed_tangent_operator(angle):
    rotation_vector = random_rotation_vector(np.random.default_rng(1), angle)
    rotation = basics.ExpSO3(rotation_vector)
    assert np.abs(rotation - scipy.linalg.expm(basics.rotations.skew(rotation_vector))).max() < 1e-14
    columns = []
    for direction in np.eye(3):
        change = (basics.ExpSO3(rotation_vector + DIFFERENCE_STEP * direction)
                  - basics.ExpSO3(rotation_vector - DIFFERENCE_STEP * direction)) / (2 * DIFFERENCE_STEP)
        columns.append(vee(np.block([[rotation.T @ change, np.zeros((3, 1))], [np.zeros((1, 4))]]))[3:])
    tangent = basics.TExpSO3(rotation_vector)
    assert np.abs(np.array(columns).T - tangent).max() < 1e-8
    assert np.abs(basics.TExpSO3Inv(rotation_vector) @ tangent - np.eye(3)).max() < 1e-12


@pytest.mark.parametrize("angle", ANGLES)
def test_t_exp_se3_is_the_right_trivialized_tangent_operator(angle):
    rng = np.random.default_rng(2)
    twist = np.r_[rng.normal(size=3), random_rotation_vector(rng, angle)]
    exponential = scipy.linalg.expm(hat(twist))
    assert np.abs(basics.ExpSE3(twist) - exponential).max() < 1e-13
    columns = []
    for direction in np.eye(6):
        change = (scipy.linalg.expm(hat(twist + DIFFERENCE_STEP * direction))
                  - scipy.linalg.expm(hat(twist - DIFFERENCE_STEP * direction))) / (2 * DIFFERENCE_STEP)
        columns.append(vee(np.linalg.solve(exponential, change)))
    tangent = basics.TExpSE3(twist)
    assert np.abs(np.array(columns).T - tangent).max() < 1e-8
    assert np.abs(basics.TExpSE3Inv(twist) @ tangent - np.eye(6)).max() < 1e-12


@pytest.mark.parametrize("angle", (1e-4, 5e-3))
def test_t_exp_se3_equals_exudyn_where_its_formulas_hold(angle):
    """Omega . U = 0 removes the entrywise-squared term; below 0.01 rad exudyn's TExpSE3Inv uses its series."""
    rng = np.random.default_rng(3)
    rotation_vector = random_rotation_vector(rng, angle)
    translation = np.cross(rotation_vector, rng.normal(size=3))
    twist = np.r_[translation, rotation_vector]
    assert np.abs(basics.TExpSE3(twist) - exudyn_basics.TExpSE3(twist)).max() < 1e-12
    assert np.abs(basics.TExpSE3Inv(twist) - exudyn_basics.TExpSE3Inv(twist)).max() < 1e-12


def test_composition_of_rotation_vectors_is_the_product_of_rotations():
    rng = np.random.default_rng(4)
    for _ in range(20):
        first, second = random_rotation_vector(rng, 2.5), random_rotation_vector(rng, 2.5)
        composed = basics.CompositionRuleForRotationVectors(first, second)
        assert np.linalg.norm(composed) <= 2 * np.pi
        assert np.abs(basics.ExpSO3(composed) - basics.ExpSO3(first) @ basics.ExpSO3(second)).max() < 1e-13


def euler_equations(rotation_vector, angular_velocity):
    """d omega / dt of a free body with J = diag(1, 2, 3) and a body-fixed torque (0.1, 0, 0.2)."""
    inertia = np.diag([1.0, 2.0, 3.0])
    return np.linalg.solve(inertia, np.array([0.1, 0.0, 0.2]) - np.cross(angular_velocity,
                                                                         inertia @ angular_velocity))


@pytest.mark.parametrize("solver", ("RK1", "RK4"))
def test_rk_integrators_equal_exudyn(solver):
    start = ([0.1, 0.2, 0.3], [1.0, 2.0, 3.0], 2.0, 200)
    ours = integration.RK_SolveEulersEOMWithProposedApproach(euler_equations, *start, solver)
    theirs = exudyn_integration.RK_SolveEulersEOMWithProposedApproach(euler_equations, *start, solver)
    for key in ("time", "rotationVector", "angularVelocity"):
        assert np.abs(ours[key] - theirs[key]).max() < 1e-11
    assert np.linalg.norm(ours["rotationVector"][-1]) <= 2 * np.pi


def test_rk4_step_and_rk1_from_acceleration_equal_exudyn():
    rotation, velocity, h = np.array([0.4, -1.0, 2.0]), np.array([3.0, -1.0, 0.5]), 0.01
    ours = integration.ComputeStepWithRK4(euler_equations, rotation, velocity, h)
    theirs = exudyn_integration.ComputeStepWithRK4(euler_equations, rotation, velocity, h)
    assert np.abs(np.r_[ours[0], ours[1]] - np.r_[theirs[0], theirs[1]]).max() < 1e-14
    acceleration = euler_equations(rotation, velocity)
    ours = integration.ComputeStepWithRK1FromAcceleration(acceleration, rotation, velocity, h)
    theirs = exudyn_integration.ComputeStepWithRK1FromAcceleration(acceleration, rotation, velocity, h)
    assert np.abs(np.r_[ours[0], ours[1]] - np.r_[theirs[0], theirs[1]]).max() < 1e-14


def test_rk4_conserves_the_free_bodys_energy_to_its_order():
    """Torque-free: the kinetic energy after 1 s with h = 1e-3 changes by far less than with h = 1e-2 (4th order)."""
    inertia = np.diag([1.0, 2.0, 3.0])

    def free(rotation_vector, angular_velocity):
        return np.linalg.solve(inertia, -np.cross(angular_velocity, inertia @ angular_velocity))

    changes = []
    for steps in (100, 1000):
        result = integration.RK_SolveEulersEOMWithProposedApproach(free, [0, 0, 0], [1.0, 2.0, 3.0], 1.0, steps, "RK4")
        energy = [0.5 * w @ inertia @ w for w in result["angularVelocity"][[0, -1]]]
        changes.append(abs(energy[1] - energy[0]))
    assert changes[1] < 1e-3 * changes[0]


def test_unknown_solver_is_refused():
    with pytest.raises(ExudynLayerError, match="RK1' or 'RK4'.*'RK2'"):
        integration.RK_SolveEulersEOMWithProposedApproach(euler_equations, [0, 0, 0], [1, 0, 0], 1.0, 10, "RK2")


def test_wrong_sizes_are_refused_naming_the_function():
    with pytest.raises(ExudynLayerError, match="ExpSO3: Omega must have 3 entries"):
        basics.ExpSO3([1.0, 2.0])
    with pytest.raises(ExudynLayerError, match="CompositionRuleSemiDirectProductR3AndS3: q0 must have 7 entries"):
        basics.CompositionRuleSemiDirectProductR3AndS3(np.zeros(6), np.zeros(6))


def test_star_imports_give_the_public_names():
    ours, theirs = {}, {}
    exec("from floatframe.exudyn.lieGroupIntegration import *", ours)
    exec("from exudyn.lieGroupIntegration import *", theirs)
    assert set(ours) - {"__builtins__"} == set(theirs) - {"__builtins__"}


# --- NodeRigidBodyRotVecLG against exudyn ------------------------------------------------------------------------
import floatframe.exudyn as ffexu  # noqa: E402
import floatframe.exudyn.utilities as ffutilities  # noqa: E402
from floatframe.exudyn import itemInterface as ffitems  # noqa: E402

exudyn = pytest.importorskip("exudyn")
import exudyn.itemInterface as exitems  # noqa: E402
import exudyn.utilities as exutilities  # noqa: E402

FLOATFRAME = (ffexu, ffitems, ffutilities)
EXUDYN = (exudyn, exitems, exutilities)
NODE_OUTPUTS = ["Coordinates", "Coordinates_t", "CoordinatesTotal", "Position", "Velocity", "AngularVelocity",
                "AngularVelocityLocal", "Rotation", "RotationMatrix"]


def spinning_bodies(exu, items, utilities, solver_type, steps, end_time, lie_group=True):
    """A body on a NodeRigidBodyRotVecLG under gravity and a body-fixed force (centre of mass off the node), and a
    second one from CreateRigidBody(nodeType=RotationRotationVector) tied to it by a spring-damper; the sensors'
    stored values."""
    mbs = exu.SystemContainer().AddSystem()
    node = mbs.AddNode(items.NodeRigidBodyRotVecLG(referenceCoordinates=[0, 0, 0, 0.2, -0.1, 0.3],
                                                   initialCoordinates=[0, 0, 0.1, 0.1, 0.05, 0],
                                                   initialVelocities=[0.1, 0, 0, 0.5, 3.0, -1.2]))
    body = mbs.AddObject(items.ObjectRigidBody(nodeNumber=node, mass=3.0, inertia=[0.4, 0.6, 0.5, 0.01, 0, 0.02],
                                               centerOfMass=[0.05, 0.1, 0]))
    mbs.AddLoad(items.LoadMassProportional(markerNumber=mbs.AddMarker(items.MarkerBodyMass(bodyNumber=body)),
                                           loadVector=[0, 0, -9.81]))
    tip = mbs.AddMarker(items.MarkerBodyRigid(bodyNumber=body, localPosition=[0, 0.3, 0]))
    mbs.AddLoad(items.LoadForceVector(markerNumber=tip, loadVector=[1.0, 0, 0.5], bodyFixed=True))
    inertia = utilities.InertiaCuboid(density=1000, sideLengths=[0.1, 0.2, 0.3])
    other = mbs.CreateRigidBody(referencePosition=[0, 0.5, 0], referenceRotationMatrix=utilities.RotationMatrixZ(0.4),
                                initialAngularVelocity=[0.3, -0.2, 2.0], inertia=inertia,
                                nodeType=exu.NodeType.RotationRotationVector, returnDict=True)
    anchor = mbs.AddMarker(items.MarkerBodyRigid(bodyNumber=other["bodyNumber"], localPosition=[0, -0.1, 0]))
    mbs.AddObject(items.ObjectConnectorSpringDamper(markerNumbers=[tip, anchor], stiffness=200, damping=1,
                                                    referenceLength=0.2))
    sensors = [mbs.AddSensor(items.SensorNode(nodeNumber=n, storeInternal=True,
                                              outputVariableType=getattr(exu.OutputVariableType, variable)))
               for n in (node, other["nodeNumber"]) for variable in NODE_OUTPUTS]
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = steps
    settings.timeIntegration.endTime = end_time
    settings.timeIntegration.explicit.useLieGroupIntegration = lie_group
    settings.timeIntegration.verboseMode = 0
    settings.solution.file.write = False
    mbs.SolveDynamic(settings, solverType=getattr(exu.DynamicSolverType, solver_type))
    return [mbs.GetSensorStoredData(sensor) for sensor in sensors]


def relative_differences(ours, theirs):
    differences = []
    for name, a, b in zip(NODE_OUTPUTS * 2, ours, theirs):
        assert a.shape == b.shape, name
        differences.append(np.abs(a - b).max() / max(1.0, np.abs(b).max()))
    return np.array(differences)


def test_rotation_vector_node_under_rk4_differs_from_exudyns_lie_group_rk4_by_truncation_error():
    """RK4 in the rotation-vector coordinates and Exudyn's Lie-group RK4 (h |omega| = 6e-3 rad) differ by the
    methods' truncation errors only: every output over 0.5 s agrees to 1e-9 of its scale (measured 4.2e-10), and
    half the step divides the differences by about 16 (order 4; at least 10 asserted)."""
    coarse = relative_differences(spinning_bodies(*FLOATFRAME, "RK44", 500, 0.5, lie_group=False),
                                  spinning_bodies(*EXUDYN, "RK44", 500, 0.5))
    fine = relative_differences(spinning_bodies(*FLOATFRAME, "RK44", 1000, 0.5, lie_group=False),
                                spinning_bodies(*EXUDYN, "RK44", 1000, 0.5))
    assert coarse.max() < 1e-9
    assert np.all(fine < coarse / 10)


def spinning_top(exu, items, solver_type, steps, end_time, **fields):
    """explicitLieGroupIntegratorTest's body (150 rad/s: its rotation vector passes angles of 2 pi many times),
    free, under gravity at its centre of mass off the node; the end values of its sensors and solver.it
    (``fields``: timeIntegration.<name> = value)."""
    mbs = exu.SystemContainer().AddSystem()
    mass, offset = 15.0, np.array([0.0, 1.0, 0.0])
    inertia = np.diag([0.234375, 0.46875, 0.234375]) + mass * (offset @ offset * np.eye(3) - np.outer(offset, offset))
    node = mbs.AddNode(items.NodeRigidBodyRotVecLG(referenceCoordinates=[0, 0, 0, 0.2, -0.1, 0.3],
                                                   initialVelocities=[0.1, 0, 0, 0, 150, -4.61538]))
    body = mbs.AddObject(items.ObjectRigidBody(nodeNumber=node, mass=mass, inertia=[
        inertia[0, 0], inertia[1, 1], inertia[2, 2], inertia[1, 2], inertia[0, 2], inertia[0, 1]]))
    mbs.AddLoad(items.LoadForceVector(markerNumber=mbs.AddMarker(items.MarkerBodyPosition(
        bodyNumber=body, localPosition=list(offset))), loadVector=[0, 0, -mass * 9.81]))
    sensors = [mbs.AddSensor(items.SensorNode(nodeNumber=node, storeInternal=True,
                                              outputVariableType=getattr(exu.OutputVariableType, variable)))
               for variable in NODE_OUTPUTS]
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = steps
    settings.timeIntegration.endTime = end_time
    settings.timeIntegration.verboseMode = 0
    settings.solution.file.write = False
    for name, value in fields.items():
        setattr(settings.timeIntegration, name, value)
    mbs.SolveDynamic(settings, solverType=getattr(exu.DynamicSolverType, solver_type))
    return [mbs.GetSensorStoredData(sensor)[-1, 1:] for sensor in sensors], mbs.sys["dynamicSolver"].it


@pytest.mark.parametrize("solver_type", ["ExplicitMidpoint", "RK44", "RK67"])
def test_lie_group_explicit_schemes_equal_exudyns(solver_type):
    """useLieGroupIntegration (default True): 0.3 s at h = 1e-3 (45 rad of rotation, the rotation vector composed on
    the group with angles in [0, 2 pi] as Exudyn's): every output equals exudyn's to 1e-11 of its scale (round-off
    of 300 steps; measured 4.7e-14 .. 1.4e-13); Coordinates included, so the composed rotation vectors are the same
    representatives; solver.it.currentStepIndex is exudyn's (steps + 1)."""
    ours, our_iteration = spinning_top(ffexu, ffitems, solver_type, 300, 0.3)
    theirs, their_iteration = spinning_top(exudyn, exitems, solver_type, 300, 0.3)
    for name, a, b in zip(NODE_OUTPUTS, ours, theirs):
        assert np.abs(a - b).max() <= 1e-11 * max(1.0, np.abs(b).max()), name
    assert our_iteration.currentStepIndex == their_iteration.currentStepIndex == 301
    assert our_iteration.currentStepSize == pytest.approx(their_iteration.currentStepSize, rel=1e-12)


def test_lie_group_dopri5_takes_exudyns_steps():
    """DOPRI5 with explicitLieGroupIntegratorTest's tolerances (absoluteTolerance 1e-10, relativeTolerance 0) over
    0.1 s: the error of the rotation rows is taken on the composed rotation vectors and the angular velocities, as
    Exudyn's; the same 411 accepted and 1 rejected steps, and every output to 1e-11 of its scale (measured 2e-14)."""
    fields = dict(absoluteTolerance=1e-10, relativeTolerance=0.0)
    ours, our_iteration = spinning_top(ffexu, ffitems, "DOPRI5", 100, 0.1, **fields)
    theirs, their_iteration = spinning_top(exudyn, exitems, "DOPRI5", 100, 0.1, **fields)
    assert (our_iteration.currentStepIndex, our_iteration.rejectedAutomaticStepSizeSteps) == \
        (their_iteration.currentStepIndex, their_iteration.rejectedAutomaticStepSizeSteps) == (412, 1)
    for name, a, b in zip(NODE_OUTPUTS, ours, theirs):
        assert np.abs(a - b).max() <= 1e-11 * max(1.0, np.abs(b).max()), name


def test_velocity_verlet_with_lie_group_nodes_is_refused():
    with pytest.raises(ffexu.ExudynLayerError, match="VelocityVerlet with timeIntegration.explicit.useLieGroup"):
        spinning_top(ffexu, ffitems, "VelocityVerlet", 10, 0.01)


# --- MainSolverImplicitSecondOrder with a Newton user function (Exudyn's Python Lie-group RK4) -------------------
def two_tied_bodies(exu, items, lie_group, steps, record=None):
    """Two bodies on NodeRigidBodyRotVecLG (explicitLieGroupMBSTest's kind): the first one's position held by
    CoordinateConstraints, a CartesianSpringDamper between them, gravity, initial rotations and spins; solved by
    MainSolverImplicitSecondOrder with UserFunctionNewtonLieGroupRK4 (``record``: the solver's ODE2 right-hand
    side and mass matrix at the first call, wrapped around it). Sensor data, end outputs and mbs.sys lists."""
    mbs = exu.SystemContainer().AddSystem()
    nodes = [mbs.AddNode(items.NodeRigidBodyRotVecLG(referenceCoordinates=[0, 0, 0, 0.3, -0.2, 0.1],
                                                     initialVelocities=[0, 0, 0, 1.0, 8.0, -2.0])),
             mbs.AddNode(items.NodeRigidBodyRotVecLG(referenceCoordinates=[0, 1, 0, 2.0, 1.5, -1.0],
                                                     initialCoordinates=[0, 0, 0, 0.2, 0.1, 0.3],
                                                     initialVelocities=[0.5, 0, 0, -3.0, 2.0, 5.0]))]
    bodies = [mbs.AddObject(items.ObjectRigidBody(nodeNumber=n, mass=15.0, inertia=[15.2, 0.47, 15.2, 0, 0, 0.1]))
              for n in nodes]
    points = [mbs.AddMarker(items.MarkerBodyPosition(bodyNumber=bodies[0], localPosition=[0.1, 0.5, 0])),
              mbs.AddMarker(items.MarkerBodyPosition(bodyNumber=bodies[1], localPosition=[0.1, -0.5, 0]))]
    for body in bodies:
        mbs.AddLoad(items.LoadForceVector(markerNumber=mbs.AddMarker(items.MarkerBodyPosition(
            bodyNumber=body, localPosition=[0, 1, 0])), loadVector=[0, 0, -147.15]))
    ground = mbs.AddMarker(items.MarkerNodeCoordinate(nodeNumber=mbs.AddNode(items.NodePointGround()), coordinate=0))
    for coordinate in range(3):
        mbs.AddObject(items.ObjectConnectorCoordinate(markerNumbers=[ground, mbs.AddMarker(
            items.MarkerNodeCoordinate(nodeNumber=nodes[0], coordinate=coordinate))]))
    mbs.AddObject(items.ObjectConnectorCartesianSpringDamper(markerNumbers=points, stiffness=[1e4, 1e4, 1e4]))
    sensors = [mbs.AddSensor(items.SensorNode(nodeNumber=n, storeInternal=True,
                                              outputVariableType=getattr(exu.OutputVariableType, variable)))
               for n in nodes for variable in ("Coordinates", "AngularVelocityLocal", "Position", "RotationMatrix")]
    mbs.Assemble()
    lie_group.LieGroupExplicitRKInitialize(mbs)
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = steps
    settings.timeIntegration.endTime = 0.2
    settings.timeIntegration.verboseMode = 0
    settings.solution.sensors.writePeriod = 0.2 / steps
    solver = exu.MainSolverImplicitSecondOrder()

    def newton(solver_, mbs_, settings_):
        if record is not None and not record:
            solver_.ComputeODE2RHS(mbs_)
            solver_.ComputeMassMatrix(mbs_)
            record.extend([solver_.GetSystemResidual()[:solver_.GetODE2size()], solver_.GetSystemMassMatrix()])
        return lie_group.UserFunctionNewtonLieGroupRK4(solver_, mbs_, settings_)

    solver.SetUserFunctionNewton(mbs, newton)
    solver.SolveSystem(mbs, settings)
    lists = {key: mbs.sys[key] for key in ("lieGroupODE2indices", "constrainedToGroundCoordinatesList",
                                           "constrainedCoordinatesList")}
    ends = [mbs.GetNodeOutput(nodes[1], exu.OutputVariableType.AngularVelocity),
            mbs.systemData.GetODE2Coordinates(), mbs.systemData.GetODE2Coordinates_t()]
    return [mbs.GetSensorStoredData(s) for s in sensors], ends, lists


def test_python_lie_group_rk4_through_the_newton_user_function_equals_exudyn():
    """200 steps of 1e-3 s: every stored sensor value, the end coordinates and velocities (angular velocities in the
    rotation rows) equal exudyn's to 1e-11 of their scale; the first step's ODE2 right-hand side and mass matrix
    (Exudyn's coordinates) to 1e-12; LieGroupExplicitRKInitialize's lists are exudyn's."""
    import exudyn.lieGroupIntegration as exudyn_lie_group
    our_record, their_record = [], []
    ours = two_tied_bodies(ffexu, ffitems, integration, 200, our_record)
    theirs = two_tied_bodies(exudyn, exitems, exudyn_lie_group, 200, their_record)
    assert ours[2] == theirs[2]
    for a, b in zip(ours[0] + ours[1], theirs[0] + theirs[1]):
        assert np.shape(a) == np.shape(b)
        assert np.abs(np.asarray(a) - b).max() <= 1e-11 * max(1.0, np.abs(b).max())
    for a, b in zip(our_record, their_record):
        assert np.shape(a) == np.shape(b)
        assert np.abs(a - b).max() <= 1e-12 * max(1.0, np.abs(b).max())


def test_system_data_gives_exudyns_velocity_coordinates_of_lie_group_nodes():
    """GetODE2Coordinates_t has the body-fixed angular velocity in the rotation rows (initially and after a solve);
    SetODE2Coordinates keeps it while the rotation vector changes; Set/GetTime; GetNodeODE2Index; all as exudyn."""
    values = []
    for exu, items in ((ffexu, ffitems), (exudyn, exitems)):
        mbs = exu.SystemContainer().AddSystem()
        mbs.AddNode(items.NodePointGround())
        node = mbs.AddNode(items.NodeRigidBodyRotVecLG(referenceCoordinates=[0, 0, 0, 0.3, -0.2, 2.5],
                                                       initialVelocities=[0.1, 0, 0, 1.0, 2.0, -3.0]))
        mbs.AddObject(items.ObjectRigidBody(nodeNumber=node, mass=2.0, inertia=[0.3, 0.4, 0.5, 0, 0, 0]))
        mbs.Assemble()
        data = mbs.systemData
        found = [data.GetODE2Coordinates_t(configuration=exu.ConfigurationType.Initial), mbs.GetNodeODE2Index(node)]
        settings = exu.SimulationSettings()
        settings.timeIntegration.numberOfSteps = 100
        settings.timeIntegration.endTime = 0.5
        settings.timeIntegration.verboseMode = 0
        mbs.SolveDynamic(settings, solverType=exu.DynamicSolverType.RK44)
        found += [data.GetODE2Coordinates_t(), data.GetTime()]
        data.SetODE2Coordinates([0, 0, 0, 0.5, 0.5, 0.5])
        found += [data.GetODE2Coordinates_t(), mbs.GetNodeOutput(node, exu.OutputVariableType.AngularVelocityLocal)]
        data.SetODE2Coordinates_t([0, 0, 0, 1.0, 0, 0])
        data.SetTime(0.25)
        found += [mbs.GetNodeOutput(node, exu.OutputVariableType.AngularVelocityLocal), data.GetTime()]
        values.append(found)
    for a, b in zip(*values):
        assert np.abs(np.asarray(a) - b).max() <= 1e-12 * max(1.0, np.abs(b).max())


def test_create_revolute_joint_on_rotation_vector_and_tait_bryan_bodies_is_exudyns():
    """CreateRevoluteJoint reads a body's reference rotation from its node's own parameters (rotation vector,
    Tait-Bryan angles; it took them as Euler parameters and failed): the joint markers equal exudyn's."""
    markers = []
    for exu, utilities in ((ffexu, ffutilities), (exudyn, exutilities)):
        mbs = exu.SystemContainer().AddSystem()
        ground = mbs.CreateGround()
        rotation = utilities.RotationMatrixZ(0.4) @ utilities.RotationMatrixX(0.3)
        for node_type in (exu.NodeType.RotationRotationVector, exu.NodeType.RotationRxyz):
            body = mbs.CreateRigidBody(referencePosition=[1, 2, 3], referenceRotationMatrix=rotation,
                                       inertia=utilities.InertiaCuboid(1000, [0.1, 0.2, 0.3]), nodeType=node_type)
            mbs.CreateRevoluteJoint(bodyNumbers=[ground, body], position=[1.1, 2, 3], axis=[0, 0, 1],
                                    useGlobalFrame=True)
        markers.append([np.asarray(mbs.GetMarker(i)["localHT"], dtype=float)
                        for i in range(mbs.systemData.NumberOfMarkers())])
    assert len(markers[0]) == len(markers[1]) == 4
    for ours, theirs in zip(*markers):
        assert np.abs(ours - theirs).max() < 1e-14
