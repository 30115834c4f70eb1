"""Momentum drift of a free, undamped, tumbling FFRF body with a Tisserand frame (issue 12, item 5).

    python benchmarks/momentum_drift.py [--steps 200] [--h 1e-3] [--no-exudyn]

The body is the tests' 0.4 x 0.1 x 0.1 m steel Hex8 beam (4 x 1 x 1 elements, stiffness scaled by 1e-3),
launched with a velocity (1, 2, -0.5) m/s and a spin (3, -2, 40) rad/s, no loads, spectral radius 1. It runs
twice: with the mesh as ``block_mesh`` numbers it (the frame origin at a corner, 0.21 m from the centre of
mass) and shifted so that the frame origin is the undeformed centre of mass. For each run and scheme it
prints the largest relative drift over the run of the linear momentum and of the angular momentum about the
global origin, both summed from the global nodal velocities with the consistent mass matrix.

Schemes: floatframe's index-3 generalized-alpha, its GGL stabilized index-2 form, and Exudyn's
generalized-alpha (index 3; skipped with --no-exudyn or when exudyn is not installed).
"""
from __future__ import annotations

import argparse

import numpy as np

import floatframe as ff
from floatframe import rotations
from floatframe.components.ffrf import add_ffrf_body, tisserand_rows
from floatframe.components.reference_conditions import add_tisserand_frame
from floatframe.fem import block_mesh, center_of_mass, linear_elastic_matrices

VELOCITY = np.array([1.0, 2.0, -0.5])           # [m/s]
ANGULAR_VELOCITY = np.array([3.0, -2.0, 40.0])  # [rad/s]
POSITION = np.array([0.1, -0.2, 0.3])           # [m]


def beam(centred: bool):
    """Node positions (N, 3) [m], mass and stiffness matrices (scipy.sparse) of the beam."""
    mesh = block_mesh(0.4, 0.1, 0.1, 4, 1, 1)
    mass, stiffness = linear_elastic_matrices(mesh, youngs_modulus=2.1e11, poissons_ratio=0.3, density=7850.0)
    nodes = mesh.nodes.copy()
    if centred:
        nodes -= center_of_mass(nodes, mass)
    return nodes, mass, 1e-3 * stiffness


def momenta(nodes, mass, q, v):
    """Linear and angular momentum (about the origin) of the body from its ODE2 coordinates q, v (7 + 3N,),
    q relative to the reference values, the frame's reference at POSITION, identity rotation."""
    theta = np.array([1.0, 0.0, 0.0, 0.0]) + q[3:7]
    rotation = rotations.rotation_matrix(theta)
    omega_local = rotations.g_local(theta) @ v[3:7]
    local = nodes + q[7:].reshape(-1, 3)
    positions = POSITION + q[:3] + local @ rotation.T
    local_velocities = rotation.T @ v[:3] + v[7:].reshape(-1, 3) + np.cross(omega_local, local)
    impulses = (mass @ local_velocities.reshape(-1)).reshape(-1, 3) @ rotation.T
    return impulses.sum(axis=0), np.cross(positions, impulses).sum(axis=0)


def drifts(nodes, mass, coordinates, velocities):
    """Largest relative drift of the linear and angular momentum over a run's states."""
    linear0, angular0 = momenta(nodes, mass, coordinates[0], velocities[0])
    linear = angular = 0.0
    for q, v in zip(coordinates[1:], velocities[1:]):
        p, h = momenta(nodes, mass, q, v)
        linear = max(linear, np.linalg.norm(p - linear0) / np.linalg.norm(linear0))
        angular = max(angular, np.linalg.norm(h - angular0) / np.linalg.norm(angular0))
    return linear, angular


def floatframe_run(nodes, mass, stiffness, solver, steps, h):
    system = ff.System()
    body = add_ffrf_body(system, nodes, mass, stiffness, position=POSITION, velocity=VELOCITY,
                         angular_velocity=ANGULAR_VELOCITY)
    add_tisserand_frame(system, body)
    result = solver.solve(system.assemble(), steps * h, steps)
    rows = body.coordinate_indices
    return result.q[:, rows], result.v[:, rows]


def exudyn_run(nodes, mass, stiffness, steps, h):
    """The same body in Exudyn (ObjectFFRF and its Tisserand CoordinateVectorConstraint); states at every step."""
    import exudyn as exu
    import exudyn.itemInterface as eii
    from exudyn.rigidBodyUtilities import AngularVelocity2EulerParameters_t

    mbs = exu.SystemContainer().AddSystem()
    theta_t = AngularVelocity2EulerParameters_t(ANGULAR_VELOCITY, [1.0, 0.0, 0.0, 0.0])
    frame = mbs.AddNode(eii.NodeRigidBodyEP(referenceCoordinates=list(POSITION) + [1.0, 0.0, 0.0, 0.0],
                                            initialVelocities=list(VELOCITY) + list(theta_t)))
    points = [mbs.AddNode(eii.NodePoint(referenceCoordinates=list(p))) for p in nodes]
    containers = []
    for matrix in (mass, stiffness):
        container = exu.MatrixContainer()
        triplets = matrix.tocoo()
        container.SetWithSparseMatrixCSR(nodes.size, nodes.size,
                                         np.column_stack([triplets.row, triplets.col, triplets.data]),
                                         useDenseMatrix=False)
        containers.append(container)
    body = mbs.AddObject(eii.ObjectFFRF(nodeNumbers=[frame] + points, massMatrixFF=containers[0],
                                        stiffnessMatrixFF=containers[1]))
    ground = mbs.AddNode(eii.NodePointGround(referenceCoordinates=[0, 0, 0]))
    scaling = np.zeros((6, 7 + nodes.size))
    scaling[:, 7:] = tisserand_rows(mass, nodes.reshape(-1))
    offset = scaling[:, 7:] @ nodes.reshape(-1)
    mbs.AddObject(eii.CoordinateVectorConstraint(
        markerNumbers=[mbs.AddMarker(eii.MarkerNodeCoordinates(nodeNumber=ground)),
                       mbs.AddMarker(eii.MarkerObjectODE2Coordinates(objectNumber=body))],
        scalingMarker1=scaling, offset=offset))
    states = []

    def record(mbs, t):
        states.append((np.array(mbs.systemData.GetODE2Coordinates()), np.array(mbs.systemData.GetODE2Coordinates_t())))
        return True

    mbs.SetPostStepUserFunction(record)
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = steps
    settings.timeIntegration.endTime = steps * h
    settings.timeIntegration.verboseMode = 0
    settings.timeIntegration.generalizedAlpha.spectralRadius = 1.0
    settings.timeIntegration.newton.relativeTolerance = 1e-12
    settings.timeIntegration.newton.absoluteTolerance = 1e-14
    settings.solution.file.write = False
    record(mbs, 0.0)
    exu.SolveDynamic(mbs, settings)
    n = 7 + nodes.size            # the body's coordinates come first: frame node, then the mesh nodes
    return np.array([q[:n] for q, _ in states]), np.array([v[:n] for _, v in states])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--h", type=float, default=1e-3, help="step [s]")
    parser.add_argument("--no-exudyn", action="store_true")
    args = parser.parse_args(argv)
    schemes = {"floatframe index 3": lambda *model: floatframe_run(*model, ff.GeneralizedAlpha(spectral_radius=1.0),
                                                                    args.steps, args.h),
               "floatframe GGL": lambda *model: floatframe_run(*model, ff.GeneralizedAlphaGGL(spectral_radius=1.0),
                                                                args.steps, args.h)}
    if not args.no_exudyn:
        try:
            import exudyn  # noqa: F401
            schemes["Exudyn index 3"] = lambda *model: exudyn_run(*model, args.steps, args.h)
        except ImportError:
            print("exudyn is not installed: its column is skipped")
    print(f"{args.steps} steps of {args.h:g} s; largest relative drift over the run")
    print(f"| frame origin | scheme | linear momentum | angular momentum |\n|---|---|---|---|")
    for centred in (False, True):
        nodes, mass, stiffness = beam(centred)
        for name, run in schemes.items():
            linear, angular = drifts(nodes, mass, *run(nodes, mass, stiffness))
            where = "centre of mass" if centred else "corner (0.21 m off)"
            print(f"| {where} | {name} | {linear:.2e} | {angular:.2e} |")


if __name__ == "__main__":
    main()
