"""Andrews' squeezing mechanism, the index-3 problem of the IVP test set (Bari/CWI), drawn with rigid bodies and
plain revolute joints.

Seven planar bodies: the crank (1) turns about O = (0, 0) under the torque mom = 0.033 N m; the rod (2) joins
its end P to the point E, where the bodies 3, 4 and 6 meet it; body 3 turns about B, the pairs 5-4 and 7-6
about A; a spring (c0 = 4530 N/m, l0 = 0.07785 m) pulls the point D of body 3 towards C. The test set's
coordinates are the angles beta (1), Theta (2 relative to 1), gamma (3), Phi (4 relative to 5), delta (5),
Omega (6 relative to 7), epsilon (7); here each body is a NodeRigidBodyEP at its centre of mass turned by its
absolute angle about z, with ten RevoluteJoints about z (O, P, B, A twice, G, H and E three times). The three
loop closures repeat three equations each in 3D (z translation, tilts): ``System.assemble`` removes those 9
rows. Geometry and masses: the test set's andrews.f (parameters of subroutine F; the centres of mass at the
distances ra, da, sqrt(sa^2 + sb^2), e - ea, sqrt(ta^2 + tb^2), zf - fa, sqrt(ua^2 + ub^2) that its mass matrix
holds; their directions do not matter where a body turns about a fixed point and there is no gravity).

Reference: Mazzia, F. and Magherini, C., Test Set for Initial Value Problem Solvers, release 2.4, University of
Bari (https://archimede.uniba.it/~testset/), problem "Andrews' squeezing mechanism", the solution at
t = 0.03 s of subroutine SOLN of andrews.f (PSIDE at rtol = atol = 1e-14 on a Cray C90), also in Hairer and
Wanner, Solving Ordinary Differential Equations II, section VII.7.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import floatframe as ff
from floatframe import rotations
from floatframe.assembly import System

T_END = 0.03   # [s], the test set's end point

# parameters of andrews.f (SI units: kg, kg m^2, m, N/m, N m)
M = (0.04325, 0.00365, 0.02373, 0.00706, 0.07050, 0.00706, 0.05498)
INERTIA = (2.194e-6, 4.410e-7, 5.255e-6, 5.667e-7, 1.169e-5, 5.667e-7, 1.912e-5)
XA, YA, XB, YB, XC, YC = -0.06934, -0.00227, -0.03635, 0.03273, 0.014, 0.072
C0, L0, MOM = 4530.0, 0.07785, 0.033
D, DA, E, EA, RR, RA = 28e-3, 115e-4, 2e-2, 1421e-5, 7e-3, 92e-5
SS, SA, SB, SC, SD = 35e-3, 1874e-5, 1043e-5, 18e-3, 2e-2
TA, TB, U, UA, UB, ZF, ZT, FA = 2308e-5, 916e-5, 4e-2, 1228e-5, 449e-5, 2e-2, 4e-2, 1421e-5

# the test set's consistent initial angles (beta, Theta, gamma, Phi, delta, Omega, epsilon) [rad], at rest
INITIAL_ANGLES = np.array([-0.0617138900142764496358948458001, 0.0, 0.455279819163070380255912382449,
                           0.222668390165885884674473185609, 0.487364979543842550225598953530,
                           -0.222668390165885884674473185609, 1.23054744454982119249735015568])

# y(1..14) of SOLN in andrews.f at t = 0.03 s: the seven angles [rad] and their rates [rad/s]
REFERENCE_ANGLES = np.array([0.1581077119629904e+2, -0.1575637105984298e+2, 0.4082224013073101e-1,
                             -0.5347301163226948e+0, 0.5244099658805304e+0, 0.5347301163226948e+0,
                             0.1048080741042263e+1])
REFERENCE_RATES = np.array([0.1139920302151208e+4, -0.1424379294994111e+4, 0.1103291221937134e+2,
                            0.1929337464421385e+2, 0.5735699284790808e+0, -0.1929337464421385e+2,
                            0.3231791658026955e+0])


def absolute_angles(relative: np.ndarray) -> np.ndarray:
    """The bodies' angles about z (7,) from the test set's angles (beta, Theta, gamma, Phi, delta, Omega, eps)."""
    beta, theta, gamma, phi, delta, omega, epsilon = relative
    return np.array([beta, beta + theta, gamma, phi + delta, delta, omega + epsilon, epsilon])


def test_set_angles(absolute: np.ndarray) -> np.ndarray:
    """The test set's angles (..., 7) from the bodies' absolute angles (..., 7) (inverse of absolute_angles)."""
    a = np.asarray(absolute)
    return np.stack([a[..., 0], a[..., 1] - a[..., 0], a[..., 2], a[..., 3] - a[..., 4], a[..., 4],
                     a[..., 5] - a[..., 6], a[..., 6]], axis=-1)


# per body: (points in body axes [m] with the body's reference point at 0, centre of mass in body axes [m]);
# body axes turned by the absolute angle of absolute_angles
BODY_POINTS = (
    ({"O": (0.0, 0.0), "P": (RR, 0.0)}, (RA, 0.0)),                                 # 1 crank
    ({"P": (0.0, 0.0), "E": (-D, 0.0)}, (-DA, 0.0)),                                # 2 rod
    ({"B": (0.0, 0.0), "E": (0.0, -SS), "D": (SD, -SC)}, (SA, SB)),                 # 3
    ({"G": (0.0, 0.0), "E": (0.0, -E)}, (0.0, -(E - EA))),                          # 4
    ({"A": (0.0, 0.0), "G": (ZT, 0.0)}, (TA, TB)),                                  # 5
    ({"H": (0.0, 0.0), "E": (ZF, 0.0)}, (ZF - FA, 0.0)),                            # 6
    ({"A": (0.0, 0.0), "H": (0.0, -U)}, (UA, UB)),                                  # 7
)
# the global position of each body's reference point: O, P, B, G, A, H, A
JOINTS = (("O", None, 0), ("P", 0, 1), ("B", None, 2), ("A", None, 4), ("G", 4, 3), ("A", None, 6), ("H", 6, 5),
          ("E", 1, 2), ("E", 1, 3), ("E", 1, 5))   # (point, body 0 or None for the ground, body 1)


@dataclass
class Andrews:
    """A built Andrews mechanism: the system, its body numbers and the centre-of-mass sensors."""

    system: System
    bodies: list            # ObjectRigidBody numbers, bodies 1..7 of the test set
    nodes: list             # their NodeRigidBodyEP numbers
    spring: int             # the SpringDamper between D and C
    sensor: int             # SensorBody: Position of body 3's centre of mass (the compare command's sensor)

    def absolute_angles(self, result) -> np.ndarray:
        """The bodies' angles about z (k, 7) [rad], unwrapped along the stored states."""
        angles = []
        for number in self.nodes:
            node = self.system.nodes[number]
            theta = result.q[:, node.coordinate_indices[3:]] + node.reference_coordinates[3:]
            angles.append(np.unwrap(2.0 * np.arctan2(theta[:, 3], theta[:, 0])))
        return np.column_stack(angles)

    def published(self, result) -> tuple[np.ndarray, np.ndarray]:
        """(the test set's y(1..7) at the last stored state, their published values at t = 0.03 s)."""
        return self.angles(result)[-1], REFERENCE_ANGLES

    def angles(self, result) -> np.ndarray:
        """The test set's angles y(1..7) (k, 7) [rad] along the stored states."""
        return test_set_angles(self.absolute_angles(result))


def body_frames(relative=INITIAL_ANGLES) -> tuple[list, list]:
    """(angles (7,), global position of each body's reference point (7, 2)) for the test set's angles."""
    angles = absolute_angles(relative)
    turn = [rotations.rotation_matrix_z(angle)[:2, :2] for angle in angles]
    origin = [None] * 7
    origin[0] = np.zeros(2)                                                  # O
    origin[1] = turn[0] @ BODY_POINTS[0][0]["P"]                             # P on the crank
    origin[2] = np.array([XB, YB])
    origin[4] = np.array([XA, YA])
    origin[3] = origin[4] + turn[4] @ BODY_POINTS[4][0]["G"]                 # G on body 5
    origin[6] = np.array([XA, YA])
    origin[5] = origin[6] + turn[6] @ BODY_POINTS[6][0]["H"]                 # H on body 7
    return angles, origin


def build_andrews() -> Andrews:
    """Andrews' squeezing mechanism at the test set's initial state (see the module docstring)."""
    angles, origin = body_frames()
    system = System()
    bodies, nodes, markers = [], [], []
    for k, (points, centre) in enumerate(BODY_POINTS):
        turn = rotations.rotation_matrix_z(angles[k])
        centre = np.array([*centre, 0.0])
        position = np.array([*origin[k], 0.0]) + turn @ centre
        theta = rotations.euler_parameters_from_rotation_matrix(turn)
        nodes.append(system.add(ff.NodeRigidBodyEP([*position, *theta])))
        inertia = INERTIA[k]                          # about the centre of mass, z; x and y only keep M regular
        bodies.append(system.add(ff.ObjectRigidBody(nodes[-1], M[k], [inertia, inertia, inertia, 0.0, 0.0, 0.0],
                                                    name=f"body {k + 1}")))
        markers.append({name: system.add(ff.MarkerBodyRigid(bodies[-1], [*(np.array(point) - centre[:2]), 0.0]))
                        for name, point in points.items()})
    ground = system.add(ff.ObjectGround())
    fixed = {"O": (0.0, 0.0), "B": (XB, YB), "A": (XA, YA)}
    for point, first, second in JOINTS:
        marker0 = (system.add(ff.MarkerBodyRigid(ground, [*fixed[point], 0.0])) if first is None
                   else markers[first][point])
        name = f"{point} ({'ground' if first is None else first + 1}-{second + 1})"
        system.add(ff.RevoluteJoint([marker0, markers[second][point]], name=name))
    system.add(ff.LoadTorqueVector(markers[0]["O"], [0.0, 0.0, MOM]))
    anchor = system.add(ff.MarkerBodyPosition(ground, [XC, YC, 0.0]))
    spring = system.add(ff.SpringDamper([anchor, markers[2]["D"]], C0, reference_length=L0, name="spring"))
    sensor = system.add(ff.SensorBody(bodies[2], "Position"))
    return Andrews(system, bodies, nodes, spring, sensor)


def comparison(**options) -> dict:
    """Andrews' mechanism as ``floatframe compare`` runs it: assembled, its sensor, T_END in 30 outputs, with the
    test set's published solution (the fields of ``floatframe.compare.ComparisonModel``)."""
    andrews = build_andrews(**options)
    return dict(system=andrews.system.assemble(), sensor=andrews.sensor, t_end=T_END, n_outputs=30, name="andrews",
                published=andrews.published)
