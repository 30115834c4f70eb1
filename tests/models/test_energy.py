"""Claims about floatframe.models.energy: it gives the kinetic, elastic and gravity energy of a model, and it
refuses what it cannot account for."""
import numpy as np
import pytest

import floatframe as ff
from floatframe.components.base import ModelError
from floatframe.models.energy import mechanical_energy

GRAVITY = np.array([0.0, 0.0, -9.81])


def test_a_mass_sliding_down_a_tilted_axis_trades_height_for_speed_exactly():
    """ObjectMass1D on an axis tilted by a = 0.4 rad below the horizontal: at s = g sin(a) t^2 / 2 and
    v = g sin(a) t the total energy is the start's (closed form, no integration)."""
    angle, mass = 0.4, 3.0
    axis = np.array([np.cos(angle), 0.0, -np.sin(angle)])
    rotation = np.column_stack([axis, [0.0, 1.0, 0.0], np.cross(axis, [0.0, 1.0, 0.0])])
    system = ff.System()
    node = system.add(ff.Node1D([0.0]))
    system.add(ff.ObjectMass1D(node, mass, reference_position=(1.0, 2.0, 3.0), reference_rotation=rotation))
    assembled = system.assemble()
    start = mechanical_energy(assembled, 0.0, np.zeros(1), np.zeros(1), GRAVITY)
    assert start.total == pytest.approx(mass * 9.81 * 3.0, rel=1e-15)        # V = -m g . x at height 3 m
    t = 0.7
    slope = 9.81 * np.sin(angle)
    later = mechanical_energy(assembled, t, np.array([0.5 * slope * t ** 2]), np.array([slope * t]), GRAVITY)
    assert later.kinetic == pytest.approx(0.5 * mass * (slope * t) ** 2, rel=1e-14)
    assert later.total == pytest.approx(start.total, rel=1e-14)


def test_the_gravity_potential_of_an_offset_rigid_body_is_that_of_its_centre_of_mass():
    """A rigid body turned by 90 degrees about x with its centre of mass b = (0, 0.3, 0) from the node: the centre
    is 0.3 m above the node, V = -m g . (x_node + A b)."""
    system = ff.System()
    theta = [np.cos(np.pi / 4), np.sin(np.pi / 4), 0.0, 0.0]
    node = system.add(ff.NodeRigidBodyEP([0.0, 0.0, 1.0, *theta]))
    system.add(ff.ObjectRigidBody(node, 2.0, [0.28, 0.1, 0.28, 0, 0, 0], center_of_mass=(0.0, 0.3, 0.0)))
    assembled = system.assemble()
    energy = mechanical_energy(assembled, 0.0, np.zeros(7), np.zeros(7), GRAVITY)
    assert energy.gravity == pytest.approx(2.0 * 9.81 * 1.3, rel=1e-14)
    assert energy.kinetic == 0.0 and energy.elastic == 0.0


def test_a_spring_damper_is_refused_rather_than_left_out():
    system = ff.System()
    node = system.add(ff.NodePoint([0.0, 0.0, 0.0]))
    system.add(ff.ObjectMassPoint(node, 1.0))
    ground = system.add(ff.ObjectGround())
    system.add(ff.CartesianSpringDamper([system.add(ff.MarkerBodyPosition(ground)),
                                         system.add(ff.MarkerNodePosition(node))], [1.0, 1.0, 1.0]))
    assembled = system.assemble()
    with pytest.raises(ModelError, match="CartesianSpringDamper"):
        mechanical_energy(assembled, 0.0, np.zeros(3), np.zeros(3))
