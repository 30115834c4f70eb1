"""velocityLevel and activeConnector of Exudyn's coordinate constraints and spherical joint, run on exudyn 1.13.6 and
on floatframe.exudyn (claims marked ``exudyn``):

- a velocity-level coordinate constraint drives a point at the offset speed, and one with factor1 couples two
  sprung points through their velocities; a velocity-level ObjectConnectorCoordinateVector does the same on
  two coordinates at once: every sensor agrees with exudyn to 1e-8 of its scale (positions, velocities, the
  coordinate constraints' and the joint's forces);
- inactive constraints (activeConnector=False: a coordinate constraint, a coordinate-vector constraint, a
  spherical joint) leave the motion free and report zero force, as in exudyn;
- the core imposes a velocity-level constraint as its integral from the initial state: the positions keep
  it without drift.
"""
import numpy as np
import pytest

import exudyn_style_models as models
import floatframe as ff
import floatframe.exudyn as ffexu
from floatframe.exudyn import itemInterface as ffitems


def sprung_points(exu, ii):
    mbs = exu.SystemContainer().AddSystem()
    ground = mbs.AddNode(ii.NodePointGround(referenceCoordinates=[0, 0, 0]))
    m_ground = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=ground, coordinate=0))
    nodes = [mbs.AddNode(ii.NodePoint(referenceCoordinates=[0.0, y, 0.0], initialCoordinates=[0.1 * y, 0.0, 0.0],
                                      initialVelocities=[0.3, 0.2 * y, 0.0])) for y in (1.0, 2.0, 3.0)]
    for node, mass in zip(nodes, (1.0, 2.5, 0.7)):
        mbs.AddObject(ii.ObjectMassPoint(nodeNumber=node, physicsMass=mass))
    coordinate = [[mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=node, coordinate=k)) for k in range(3)]
                  for node in nodes]
    whole = [mbs.AddMarker(ii.MarkerNodeCoordinates(nodeNumber=node)) for node in nodes]
    for node, stiffness in zip(range(3), (40.0, 90.0, 25.0)):   # springs to the ground in y and z
        for k in (1, 2):
            mbs.AddObject(ii.ObjectConnectorCoordinateSpringDamper(markerNumbers=[m_ground, coordinate[node][k]],
                                                                   stiffness=stiffness * k, damping=0.3))
    mbs.AddLoad(ii.LoadCoordinate(markerNumber=coordinate[1][1], load=5.0))
    constraints = [
        # point 0 moves along x at 0.3 m/s
        mbs.AddObject(ii.ObjectConnectorCoordinate(markerNumbers=[m_ground, coordinate[0][0]], offset=0.3,
                                                   velocityLevel=True)),
        # 2 v1_y - v0_y = 0.6 couples points 0 and 1 (consistent with their initial velocities 0.2 and 0.4)
        mbs.AddObject(ii.ObjectConnectorCoordinate(markerNumbers=[coordinate[0][1], coordinate[1][1]], factor1=2.0,
                                                   offset=0.6, velocityLevel=True)),
        # v2_x - v1_x = 0 and v2_z - v1_z = 0 (a coordinate vector, rows x and z)
        mbs.AddObject(ii.ObjectConnectorCoordinateVector(markerNumbers=[whole[1], whole[2]],
                                                         scalingMarker0=np.array([[1.0, 0, 0], [0, 0, 1.0]]),
                                                         scalingMarker1=np.array([[1.0, 0, 0], [0, 0, 1.0]]),
                                                         offset=[0.0, 0.0], velocityLevel=True)),
        # inactive ones
        mbs.AddObject(ii.ObjectConnectorCoordinate(markerNumbers=[m_ground, coordinate[2][1]], activeConnector=False)),
        mbs.AddObject(ii.ObjectConnectorCoordinateVector(markerNumbers=[whole[0], whole[2]], scalingMarker0=np.eye(3),
                                                         scalingMarker1=np.eye(3), activeConnector=False)),
        mbs.AddObject(ii.ObjectJointSpherical(
            markerNumbers=[mbs.AddMarker(ii.MarkerNodePosition(nodeNumber=nodes[0])),
                           mbs.AddMarker(ii.MarkerNodePosition(nodeNumber=nodes[2]))], activeConnector=False)),
    ]
    variables = exu.OutputVariableType
    sensors = [mbs.AddSensor(ii.SensorNode(nodeNumber=node, outputVariableType=variable, storeInternal=True,
                                           writeToFile=False))
               for node in nodes for variable in (variables.Position, variables.Velocity)]
    sensors += [mbs.AddSensor(ii.SensorObject(objectNumber=number, outputVariableType=variables.Force,
                                              storeInternal=True, writeToFile=False))
                for number in constraints if number not in (constraints[2], constraints[4])]   # vectors: no outputs
    mbs.Assemble()
    return mbs, sensors


def sensor_data(exu, ii):
    mbs, sensors = sprung_points(exu, ii)
    exu.SolveDynamic(mbs, models.tight_settings(exu, 400, 1e-3))
    return [mbs.GetSensorStoredData(number) for number in sensors]


@pytest.fixture(scope="module")
def both():
    exudyn = pytest.importorskip("exudyn")
    import exudyn.itemInterface as items
    return sensor_data(exudyn, items), sensor_data(ffexu, ffitems)


@pytest.mark.exudyn
def test_velocity_level_and_inactive_constraints_match_exudyn(both):
    """Each sensor to 1e-8 of its largest value; a force that exudyn gives as exactly zero (the driven point's
    x is free of load) to 1e-8 of the model's largest constraint force (floatframe's multiplier carries
    round-off there: 1e-8 N at the end)."""
    reference, ours = both
    force_scale = max(np.abs(theirs[:, 1:]).max() for theirs in reference[6:])
    for number, (theirs, mine) in enumerate(zip(reference, ours)):
        assert mine.shape == theirs.shape
        scale = max(np.abs(theirs[:, 1:]).max(), force_scale if number >= 6 else 1e-3)
        np.testing.assert_allclose(mine[:, 1:], theirs[:, 1:], rtol=0, atol=1e-8 * scale, err_msg=f"sensor {number}")


@pytest.mark.exudyn
def test_the_constraints_act_as_stated(both):
    _, ours = both
    t = ours[0][:, 0]
    velocity0, velocity1, velocity2 = ours[1][:, 1:], ours[3][:, 1:], ours[5][:, 1:]
    np.testing.assert_allclose(velocity0[:, 0], 0.3, rtol=0, atol=1e-12)                 # v0_x = 0.3
    np.testing.assert_allclose(2 * velocity1[:, 1] - velocity0[:, 1], 0.6, rtol=0, atol=1e-10)
    np.testing.assert_allclose(velocity2[:, [0, 2]], velocity1[:, [0, 2]], rtol=0, atol=1e-10)
    assert np.ptp(velocity1[:, 1]) > 0.1                                                # the coupled points move
    for force in ours[8:10]:                                                            # inactive: no force
        np.testing.assert_array_equal(force[:, 1:], 0.0)
    assert np.abs(ours[7][:, 1:]).max() > 0.1 and t[-1] == pytest.approx(0.4)          # the coupling pulls


def test_a_velocity_level_constraint_holds_its_integral_without_drift():
    """Core: v_x = 0.3 imposed at velocity level keeps x = x(0) + 0.3 t to round-off at every step (an
    integration of the velocities would drift by the scheme's error)."""
    system = ff.System()
    ground = system.add(ff.NodePointGround([0.0, 0.0, 0.0]))
    point = system.add(ff.NodePoint([0.0, 0.0, 0.0], initial_coordinates=[0.2, 0.0, 0.0],
                                    initial_velocities=[0.3, 0.0, 0.0]))
    system.add(ff.ObjectMassPoint(point, 1.5))
    system.add(ff.CoordinateConstraint([system.add(ff.MarkerNodeCoordinate(ground, 0)),
                                        system.add(ff.MarkerNodeCoordinate(point, 0))], offset=0.3,
                                       velocity_level=True))
    system.add(ff.LoadCoordinate(system.add(ff.MarkerNodeCoordinate(point, 0)), lambda t: np.sin(20 * t)))
    result = ff.GeneralizedAlpha(0.6).solve(system.assemble(), 1.0, 50)
    np.testing.assert_allclose(result.q[:, 0], 0.2 + 0.3 * result.t, rtol=0, atol=1e-13)     # x of the point
    np.testing.assert_allclose(result.v[:, 0], 0.3, rtol=0, atol=1e-10)
    assert np.abs(result.lam).max() > 0.5                     # the constraint carries the sinusoidal load
