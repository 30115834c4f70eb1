"""Claims about the mass point and the coordinate spring-damper: an undamped mass point on a coordinate
spring oscillates about the offset with sqrt(k/m), the spring's Force is k (q1 - q0 - offset), and
wrong nodes and markers are refused."""
import numpy as np
import pytest

import floatframe as ff


def oscillator(stiffness=400.0, mass=2.0, offset=0.05, start=0.15):
    system = ff.System()
    node = system.add(ff.NodePoint([0.0, 0.0, 0.0], initial_coordinates=[start, 0.0, 0.0]))
    body = system.add(ff.ObjectMassPoint(node, mass))
    ground = system.add(ff.MarkerNodeCoordinate(system.add(ff.NodePointGround([0.0, 0.0, 0.0])), 0))
    spring = system.add(ff.CoordinateSpringDamper([ground, system.add(ff.MarkerNodeCoordinate(node, 0))],
                                                  stiffness, 0.0, offset))
    force = system.add(ff.SensorObject(spring, "Force"))
    position = system.add(ff.SensorBody(body, "Position"))
    return system, force, position


def test_an_undamped_mass_point_on_a_coordinate_spring_oscillates_about_the_offset():
    system, force, position = oscillator()
    result = ff.GeneralizedAlpha(1.0).solve(system.assemble(), 1.0, 4000)
    omega = np.sqrt(400.0 / 2.0)
    exact = 0.05 + 0.10 * np.cos(omega * result.t)
    # rho = 1 is the trapezoidal rule: amplitude kept, phase error omega^3 h^2 t / 12 (1.47e-5 rad after 1 s)
    phase_error = omega ** 3 * (1.0 / 4000) ** 2 * 1.0 / 12
    assert np.abs(result.sensor(position)[:, 0] - exact).max() == pytest.approx(0.10 * phase_error, rel=1e-3)
    assert result.sensor(force)[:, 0] == pytest.approx(400.0 * (result.sensor(position)[:, 0] - 0.05), rel=1e-12)


def test_a_mass_point_needs_a_point_node_and_a_spring_needs_coordinate_markers():
    system = ff.System()
    node = system.add(ff.NodeRigidBodyEP([0, 0, 0, 1, 0, 0, 0]))
    system.add(ff.ObjectMassPoint(node, 1.0))
    with pytest.raises(ff.ModelError, match="ObjectMassPoint 0: node_number must refer to a NodePoint"):
        system.assemble()
    system = ff.System()
    node = system.add(ff.NodePoint([0, 0, 0]))
    system.add(ff.ObjectMassPoint(node, 1.0))
    position = system.add(ff.MarkerNodePosition(node))
    system.add(ff.CoordinateSpringDamper([position, position], 1.0))
    with pytest.raises(ff.ModelError, match=r"CoordinateSpringDamper 1: marker_numbers\[0\].*must be a coordinates marker"):
        system.assemble()
    with pytest.raises(ff.ModelError, match="ObjectMassPoint: mass must be >= 0"):
        ff.ObjectMassPoint(0, -1.0)
