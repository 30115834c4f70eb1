"""Exudyn's ``lieGroupIntegration`` on floatframe: explicit Runge-Kutta steps on the rotation group for rotation
vectors (Holzinger and Gerstmayr's scheme) and the pieces of Exudyn's Python Lie-group RK4 for a multibody system.

The rotation vector v of a body and its body-fixed angular velocity w are advanced by stages whose rotation
increments are K_i = h T^-1(c_i K_{i-1}) (w0 + c_i k_{i-1}) (T the tangent operator, ``lieGroupBasics.TExpSO3``)
and whose rotation is v0 composed with c_i K_{i-1} (``CompositionRuleForRotationVectors``), never v0 + c_i K_{i-1}:
the rotation vector stays a rotation of the group at every stage. Velocities and all other coordinates follow the
classical RK formulas.

The multibody functions (LieGroupExplicitRKInitialize, UserFunctionNewtonLieGroupRK4, ...) work on the nodes of
type RigidBodyRotVecLG (coordinates [position, rotation vector], velocities [velocity, body-fixed angular
velocity]) and on ConnectorCoordinate constraints between node coordinates, which they hold by copying
coordinates (factor1 = 1 and offset = 0 only). They need the solver interface that Exudyn's
MainSolverImplicitSecondOrder gives a Newton user function.
"""
from __future__ import annotations

import numpy as np

from floatframe.exudyn._names import ConfigurationType, ExudynLayerError
from floatframe.exudyn._unknown import module_getattr
from floatframe.exudyn.lieGroupBasics import CompositionRuleForRotationVectors, TExpSO3Inv

__all__ = [
    "ComputeStepWithRK1", "ComputeStepWithRK1FromAcceleration", "ComputeStepWithRK4",
    "RK_SolveEulersEOMWithProposedApproach", "LieGroupExplicitRKInitialize",
    "ExplicitRKComputeSystemAcceleration", "LieGroupComputeKstage",
    "ExplicitRKApplyCoordinateConstraints", "LieGroupUpdateStageSystemCoordinates",
    "UserFunctionNewtonLieGroupRK4",
]

LIE_GROUP_NODE = "RigidBodyRotVecLG"
ROTATION = slice(3, 6)          # the rotation vector's rows in a Lie-group node


def _float3(value) -> np.ndarray:
    return np.asarray(value, dtype=float).reshape(3)


def ComputeStepWithRK1FromAcceleration(v0_t, v0, w0, h):
    """One explicit Euler step on the group from the angular acceleration v0_t: w = w0 + h v0_t, then v0 composed
    with h w. Returns [v, w]."""
    angular_velocity = _float3(w0) + h * _float3(v0_t)
    return [CompositionRuleForRotationVectors(_float3(v0), h * angular_velocity), angular_velocity]


def ComputeStepWithRK1(ODE2RHS, v0, w0, h):
    """One explicit Euler step on the group of d w/dt = ODE2RHS(v, w) (w body-fixed). Returns [v, w]."""
    return ComputeStepWithRK1FromAcceleration(ODE2RHS(v0, w0), v0, w0, h)


def ComputeStepWithRK4(ODE2RHS, v0, w0, h):
    """One classical RK4 step on the group of d w/dt = ODE2RHS(v, w): four stages, the stage rotations v0 composed
    with c K of the previous stage (c = 0, 1/2, 1/2, 1), the increments K = h T^-1(c K_prev) (w0 + c k_prev).
    Returns [v, w]."""
    rotation0, angular_velocity0 = _float3(v0), _float3(w0)
    factors = (0.0, 0.5, 0.5, 1.0)
    k_stages, rotation_stages = [], []
    k_previous = rotation_previous = np.zeros(3)
    for factor in factors:
        stage_velocity = angular_velocity0 + factor * k_previous
        stage_rotation = rotation0 if factor == 0 else CompositionRuleForRotationVectors(rotation0,
                                                                                         factor * rotation_previous)
        k_previous = h * np.asarray(ODE2RHS(stage_rotation, stage_velocity), dtype=float)
        rotation_previous = h * TExpSO3Inv(factor * rotation_previous) @ stage_velocity
        k_stages.append(k_previous)
        rotation_stages.append(rotation_previous)
    weights = (1 / 6, 2 / 6, 2 / 6, 1 / 6)
    velocity = angular_velocity0 + sum(w * k for w, k in zip(weights, k_stages))
    increment = sum(w * big_k for w, big_k in zip(weights, rotation_stages))
    return [CompositionRuleForRotationVectors(rotation0, increment), velocity]


def RK_SolveEulersEOMWithProposedApproach(ODE2RHS, v0, w0, tEnd, numberOfSteps, solver):
    """Integrate d w/dt = ODE2RHS(v, w) with ``numberOfSteps`` fixed steps to ``tEnd`` by "RK1" or "RK4" on the
    group. Returns {"time", "rotationVector", "angularVelocity"} (arrays of numberOfSteps + 1 rows)."""
    steps = {"RK1": ComputeStepWithRK1, "RK4": ComputeStepWithRK4}
    if solver not in steps:
        raise ExudynLayerError(f"RK_SolveEulersEOMWithProposedApproach: solver must be 'RK1' or 'RK4', got "
                               f"{solver!r}")
    step = steps[solver]
    count = int(numberOfSteps)
    h = tEnd / count
    time = np.zeros(count + 1)
    rotation = np.zeros((count + 1, 3))
    angular_velocity = np.zeros((count + 1, 3))
    rotation[0], angular_velocity[0] = _float3(v0), _float3(w0)
    for i in range(count):
        rotation[i + 1], angular_velocity[i + 1] = step(ODE2RHS, rotation[i], angular_velocity[i], h)
        time[i + 1] = (i + 1) * h
    return {"time": time, "rotationVector": rotation, "angularVelocity": angular_velocity}


# --- the multibody Lie-group RK4 through a Newton user function ------------------------------------------------
def _coordinate_of_marker(mainSys, marker_number, connector_number):
    """The global ODE2 row of a NodeCoordinate marker (None for a ground node's)."""
    marker = mainSys.GetMarker(marker_number)
    if marker["markerType"] != "NodeCoordinate":
        raise ExudynLayerError(f"LieGroupExplicitRKInitialize: ConnectorCoordinate {connector_number} uses marker "
                               f"{marker_number} of type {marker['markerType']}; the Lie-group RK holds only "
                               f"constraints between NodeCoordinate markers")
    node = mainSys.GetNode(marker["nodeNumber"])
    if node["nodeType"] == "PointGround":
        return None
    return mainSys.GetNodeODE2Index(marker["nodeNumber"]) + marker["coordinate"]


def LieGroupExplicitRKInitialize(mainSys):
    """Store in ``mainSys.sys`` what the Lie-group RK needs: the first ODE2 row and the reference rotation vector
    of every RigidBodyRotVecLG node ('lieGroupODE2indices', 'lieGroupReferenceRotations') and the coordinates the
    active ConnectorCoordinates fix to the ground ('constrainedToGroundCoordinatesList') or to each other
    ('constrainedCoordinatesList'). A connector with factor1 != 1 or offset != 0 is reported and left out (as
    Exudyn does)."""
    from floatframe.exudyn import Print
    rows, references, to_ground, pairs = [], [], [], []
    for number in range(mainSys.systemData.NumberOfNodes()):
        node = mainSys.GetNode(number)
        if node["nodeType"] == LIE_GROUP_NODE:
            rows.append(mainSys.GetNodeODE2Index(number))
            references.append(np.asarray(node["referenceCoordinates"], dtype=float)[ROTATION])
    for number in range(mainSys.systemData.NumberOfObjects()):
        item = mainSys.GetObject(number)
        if item["objectType"] != "ConnectorCoordinate":
            continue
        if item["factor1"] != 1 or item["offset"] != 0:
            Print(f"LieGroupExplicitRKInitialize: ConnectorCoordinate {number} is left out: the Lie-group RK "
                  f"holds it only with factor1 = 1 and offset = 0")
            continue
        if not item["activeConnector"]:
            continue
        coordinates = [row for row in (_coordinate_of_marker(mainSys, marker, number)
                                       for marker in item["markerNumbers"]) if row is not None]
        if len(coordinates) == 2:
            pairs.append(coordinates)
        elif len(coordinates) == 1:
            to_ground.append(coordinates[0])
        else:
            raise ExudynLayerError(f"LieGroupExplicitRKInitialize: ConnectorCoordinate {number} connects two ground "
                                   f"coordinates; nothing to constrain")
    mainSys.sys["lieGroupODE2indices"] = rows
    mainSys.sys["lieGroupReferenceRotations"] = references
    mainSys.sys["constrainedToGroundCoordinatesList"] = to_ground
    mainSys.sys["constrainedCoordinatesList"] = pairs


def ExplicitRKComputeSystemAcceleration(mainSolver, mainSys, nODE2):
    """The ODE2 accelerations M^-1 f of the current state; for a pair of coordinates held equal, the first one's
    equation gets the second's mass entries and force (the second's rows are overwritten later)."""
    mainSolver.ComputeODE2RHS(mainSys)
    force = np.array(mainSolver.GetSystemResidual(), dtype=float)[:nODE2]
    mainSolver.ComputeMassMatrix(mainSys)
    mass = np.array(mainSolver.GetSystemMassMatrix(), dtype=float)
    for kept, copied in mainSys.sys["constrainedCoordinatesList"]:
        mass[kept, kept] += mass[kept, copied] + mass[copied, kept] + mass[copied, copied]
        force[kept] += force[copied]
    return np.linalg.solve(mass, force)[:nODE2]


def LieGroupComputeKstage(mainSys, u0, v0, h, nODE2, Kprev, kprev, factK):
    """The coordinate increments of a stage, h (v0 + factK kprev), with the rotation rows of each Lie-group node
    h T^-1(factK Kprev) (w0 + factK kprev)."""
    start_velocity = np.asarray(v0, dtype=float)[:nODE2]
    increments = h * (start_velocity + factK * np.asarray(kprev, dtype=float))
    for row in mainSys.sys["lieGroupODE2indices"]:
        rows = slice(row + 3, row + 6)
        increments[rows] = h * TExpSO3Inv(factK * np.asarray(Kprev, dtype=float)[rows]) @ (
            start_velocity[rows] + factK * np.asarray(kprev, dtype=float)[rows])
    return increments


def ExplicitRKApplyCoordinateConstraints(mainSys):
    """Set the coordinates (and velocities) fixed to the ground to 0 and the second of each pair to the first."""
    coordinates = mainSys.systemData.GetODE2Coordinates()
    velocities = mainSys.systemData.GetODE2Coordinates_t()
    for row in mainSys.sys["constrainedToGroundCoordinatesList"]:
        coordinates[row] = velocities[row] = 0.0
    for kept, copied in mainSys.sys["constrainedCoordinatesList"]:
        coordinates[copied], velocities[copied] = coordinates[kept], velocities[kept]
    mainSys.systemData.SetODE2Coordinates(coordinates)
    mainSys.systemData.SetODE2Coordinates_t(velocities)


def _compose_rotations(mainSys, start, increments, factor, coordinates):
    """Write into ``coordinates`` each Lie-group node's rotation: (reference + start) composed with
    factor * increment, less the reference."""
    for row, reference in zip(mainSys.sys["lieGroupODE2indices"], mainSys.sys["lieGroupReferenceRotations"]):
        rows = slice(row + 3, row + 6)
        reference = np.asarray(reference, dtype=float)
        coordinates[rows] = CompositionRuleForRotationVectors(reference + start[rows],
                                                              factor * increments[rows]) - reference


def LieGroupUpdateStageSystemCoordinates(mainSys, u0, v0, nODE2, Kprev, kprev, factK):
    """Set the system to the stage state: u0 + factK Kprev and v0 + factK kprev, the Lie-group nodes' rotations
    composed on the group; then the coordinate constraints."""
    start = np.asarray(u0, dtype=float)[:nODE2]
    coordinates = start + factK * np.asarray(Kprev, dtype=float)
    velocities = np.asarray(v0, dtype=float)[:nODE2] + factK * np.asarray(kprev, dtype=float)
    _compose_rotations(mainSys, start, np.asarray(Kprev, dtype=float), factK, coordinates)
    mainSys.systemData.SetODE2Coordinates(coordinates)
    mainSys.systemData.SetODE2Coordinates_t(velocities)
    ExplicitRKApplyCoordinateConstraints(mainSys)


def UserFunctionNewtonLieGroupRK4(mainSolver, mainSys, sims):
    """Newton user function of MainSolverImplicitSecondOrder that replaces the implicit step by one classical RK4
    step with the Lie-group nodes' rotations on the group (LieGroupExplicitRKInitialize first). Returns True."""
    h = mainSolver.it.currentStepSize
    end_time = mainSys.systemData.GetTime()
    start_time = mainSys.systemData.GetTime(ConfigurationType.StartOfStep)
    size = mainSolver.GetODE2size()
    u0 = np.array(mainSys.systemData.GetODE2Coordinates(), dtype=float)
    v0 = np.array(mainSys.systemData.GetODE2Coordinates_t(), dtype=float)

    mainSys.systemData.SetTime(start_time)
    k_stages = [h * ExplicitRKComputeSystemAcceleration(mainSolver, mainSys, size)]
    big_k_stages = [h * v0[:size]]
    for factor, stage_time in ((0.5, start_time + 0.5 * h), (0.5, start_time + 0.5 * h), (1.0, start_time + h)):
        mainSys.systemData.SetTime(stage_time)
        LieGroupUpdateStageSystemCoordinates(mainSys, u0, v0, size, big_k_stages[-1], k_stages[-1], factor)
        k_new = h * ExplicitRKComputeSystemAcceleration(mainSolver, mainSys, size)
        big_k_stages.append(LieGroupComputeKstage(mainSys, u0, v0, h, size, big_k_stages[-1], k_stages[-1], factor))
        k_stages.append(k_new)

    mainSys.systemData.SetTime(end_time)
    weights = (1 / 6, 2 / 6, 2 / 6, 1 / 6)
    velocities = v0 + sum(w * k for w, k in zip(weights, k_stages))
    increments = sum(w * big_k for w, big_k in zip(weights, big_k_stages))
    coordinates = u0 + increments
    _compose_rotations(mainSys, u0, increments, 1.0, coordinates)
    mainSys.systemData.SetODE2Coordinates(coordinates)
    mainSys.systemData.SetODE2Coordinates_t(velocities)
    ExplicitRKApplyCoordinateConstraints(mainSys)
    return True


__getattr__ = module_getattr("floatframe.exudyn.lieGroupIntegration", __all__, [])
