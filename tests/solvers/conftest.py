"""Shared fixtures of the solver tests: the rigid pendulum and its reference."""
import numpy as np
import pytest

from floatframe.models.pendulum import build_pendulum


@pytest.fixture(scope="session")
def pendulum():
    system, info = build_pendulum()
    return system.assemble(), info


@pytest.fixture(scope="session")
def position_error():
    """Largest deviation [m] of the centre of mass from the angle-ODE solution (scipy, rtol 1e-12)."""
    def error(result, info, sensor=0):
        return float(np.abs(result.sensor(sensor) - info.position_reference(result.t)).max())
    return error
