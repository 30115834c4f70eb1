"""The car axis problem of the IVP test set (Bari/CWI), index 3, drawn with planar mass points, springs, a distance
constraint and time-dependent coordinate constraints.

A car axle on a bumpy road, in the plane: the chassis ends P_l = (x_l, y_l) and P_r = (x_r, y_r) are two mass points
of mass k = M eps^2 / 2 under gravity g (along -y), joined by the rigid axle of length L (a DistanceConstraint). The
left wheel is at the origin O, the right wheel at B(t) = (x_b(t), y_b(t)) with y_b = r sin(omega t) (the bump) and
x_b = sqrt(L^2 - y_b^2), so the wheels stay L apart. Each end hangs on a spring of stiffness 1 and length L0 to its
wheel (SpringDamper O-P_l and B-P_r). The left end moves on the line through O normal to the wheels' axis,
x_b(t) x_l + y_b(t) y_l = 0: a TimeDependentCoordinateConstraint with the scaling [x_b(t), y_b(t)] on the
coordinates of P_l. B is a massless NodePoint2D whose coordinates follow (x_b(t), y_b(t)) by a second
TimeDependentCoordinateConstraint (S1 = I, offset (x_b(t), y_b(t))).

The nodes' reference positions are 0, so the coordinates are the test set's y(1..4) = (x_l, y_l, x_r, y_r) and the
velocities its y(5..8). Its multipliers y(9..10) belong to the constraints as it writes them, with + lambda phi_p^T
on the right-hand side: lambda_1 = -(the first constraint's multiplier), and lambda_2 = -(the distance constraint's
multiplier) / (2 L), since floatframe's distance constraint is |P_r - P_l| - L = 0 (gradient (P_l - P_r) / L where the
test set's is 2 (P_l - P_r)) and its multipliers enter the left-hand side.

Reference: Mazzia, F. and Magherini, C., Test Set for Initial Value Problem Solvers, release 2.4, University of
Bari (https://archimede.uniba.it/~testset/), problem "Car axis" (caraxis.f, revision 1.2 of 2006: parameters of
its subroutine FEVAL, initial values of INIT, the solution at t = 3 of SOLN); the reference in 21 digits of
deTestSet (Soetaert, Cash and Mazzia, the test set in R: its function reference("caraxis")), which ``published``
uses (see REFERENCE_SOLN_2006 for why); after Rentrop, Strehmel and Weiner and Hairer and Wanner, Solving
Ordinary Differential Equations II, section VII.7.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import floatframe as ff
from floatframe.assembly import System
from floatframe.components.planar import MarkerNodePosition2D, NodePoint2D, ObjectMassPoint2D
from floatframe.components.time_constraints import TimeDependentCoordinateConstraint

T_END = 3.0   # [s], the test set's end point

# parameters of caraxis.f
EPS, M, L, L0, R, OMEGA, G = 1e-2, 10.0, 1.0, 0.5, 0.1, 10.0, 1.0
MASS = M * EPS ** 2 / 2        # k [kg] of each chassis end
STIFFNESS = 1.0                # [N/m] of both springs (the test set's spring force (L0 - l) e)

# y(1..10) at t = 3: x_l, y_l, x_r, y_r [m], their rates [m/s], lambda_1, lambda_2. The test set's reference in
# 21 digits as its authors' R port deTestSet gives it (reference("caraxis") of its ex_reference.R)
REFERENCE = np.array([0.493455784275402809122e-1, 0.496989460230171153861e+0, 0.104174252488542151681e+1,
                      0.373911027265361256927e+0, -0.770583684040972357970e-1, 0.744686658723778553466e-2,
                      0.175568157537232222276e-1, 0.770341043779251976443e+0, -0.473688659084893324729e-2,
                      -0.110468033125734368808e-2])
# SOLN of caraxis.f revision 1.2 (2006): the same to 8.9 digits or more in y(1..8), but its multipliers y(9), y(10)
# differ from the above by 3.4e-8 and 7.3e-8 relative (7.5 and 7.1 digits), where an independent solve of the
# test set's equations agrees with the above to 12 digits (tests/models/test_car_axis.py)
REFERENCE_SOLN_2006 = np.array([0.4934557842755629e-01, 0.4969894602303324e+00, 0.1041742524885400e+01,
                                0.3739110272652214e+00, -0.7705836840321485e-01, 0.7446866596327776e-02,
                                0.1755681574942899e-01, 0.7703410437794031e+00, -0.4736886750784630e-02,
                                -0.1104680411345730e-02])
# y(1..8) of INIT in caraxis.f (consistent positions and velocities; the test set starts lambda at 0)
INITIAL = np.array([0.0, L0, L, L0, -L0 / L, 0.0, -L0 / L, 0.0])


def road_height(t):
    """y_b(t) = r sin(omega t) [m] of the right wheel (t a number or a CasADi symbol)."""
    return R * np.sin(OMEGA * t)


def road_point(t):
    """(x_b(t), y_b(t)) [m], the right wheel: x_b = sqrt(L^2 - y_b^2)."""
    height = road_height(t)
    return [np.sqrt(L ** 2 - height ** 2), height]


def road_velocity(t: float) -> np.ndarray:
    """d/dt (x_b, y_b) [m/s] at the time t (a number)."""
    x_b, y_b = road_point(t)
    rate = R * OMEGA * np.cos(OMEGA * t)
    return np.array([-y_b * rate / x_b, rate])


@dataclass
class CarAxis:
    """A built car axis: the system, its nodes and constraints, and the sensor of compare."""

    system: System
    left: int            # NodePoint2D P_l
    right: int           # NodePoint2D P_r
    road: int            # NodePoint2D B (massless, driven)
    wheel_line: int      # TimeDependentCoordinateConstraint x_b x_l + y_b y_l = 0
    axle: int            # DistanceConstraint |P_r - P_l| = L
    sensor: int          # SensorNode Position of P_r (the compare command's sensor)

    def test_set_solution(self, result) -> np.ndarray:
        """The test set's y(1..10) (k, 10) along the stored states of an assembled CarAxis system's solve."""
        nodes = [self.system.nodes[n] for n in (self.left, self.right)]
        columns = np.concatenate([node.coordinate_indices for node in nodes])
        line = self.system.objects[self.wheel_line].multiplier_indices
        axle = self.system.objects[self.axle].multiplier_indices
        return np.column_stack([result.q[:, columns], result.v[:, columns], -result.lam[:, line],
                                -result.lam[:, axle] / (2.0 * L)])

    def published(self, result) -> tuple[np.ndarray, np.ndarray]:
        """(the test set's y(1..10) at the last stored state, their published values at t = 3 s: REFERENCE)."""
        return self.test_set_solution(result)[-1], REFERENCE


def build_car_axis() -> CarAxis:
    """The test set's car axis at its initial state (see the module docstring)."""
    system = System()
    left = system.add(NodePoint2D([0.0, 0.0], initial_coordinates=INITIAL[0:2], initial_velocities=INITIAL[4:6],
                                  name="left end"))
    right = system.add(NodePoint2D([0.0, 0.0], initial_coordinates=INITIAL[2:4], initial_velocities=INITIAL[6:8],
                                   name="right end"))
    road = system.add(NodePoint2D([0.0, 0.0], initial_coordinates=road_point(0.0),
                                  initial_velocities=road_velocity(0.0), name="right wheel"))
    for node in (left, right):
        system.add(ObjectMassPoint2D(node, MASS))
    ground_node = system.add(ff.NodePointGround([0.0, 0.0, 0.0]))
    ground = system.add(ff.MarkerNodeCoordinates(ground_node))
    left_coordinates = system.add(ff.MarkerNodeCoordinates(left))
    road_coordinates = system.add(ff.MarkerNodeCoordinates(road))
    system.add(TimeDependentCoordinateConstraint([ground, road_coordinates], None, np.eye(2), offset=road_point,
                                                 name="road"))
    wheel_line = system.add(TimeDependentCoordinateConstraint([ground, left_coordinates], None,
                                                              lambda t: [road_point(t)], name="left wheel line"))
    left_point, right_point, wheel = (system.add(MarkerNodePosition2D(n)) for n in (left, right, road))
    origin = system.add(ff.MarkerNodePosition(ground_node))
    axle = system.add(ff.DistanceConstraint([left_point, right_point], L, name="axle"))
    system.add(ff.SpringDamper([origin, left_point], STIFFNESS, reference_length=L0, name="left spring"))
    system.add(ff.SpringDamper([wheel, right_point], STIFFNESS, reference_length=L0, name="right spring"))
    system.add(ff.Gravity([0.0, -G, 0.0]))
    sensor = system.add(ff.SensorNode(right, "Position"))
    return CarAxis(system, left, right, road, wheel_line, axle, sensor)


def comparison(**options) -> dict:
    """The car axis as ``floatframe compare`` runs it: assembled, its sensor, T_END in 30 outputs, with the test
    set's published solution (the fields of ``floatframe.compare.ComparisonModel``)."""
    car = build_car_axis(**options)
    return dict(system=car.system.assemble(), sensor=car.sensor, t_end=T_END, n_outputs=30, name="car-axis",
                published=car.published)
