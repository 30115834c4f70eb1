"""A sensor whose values are computed after a solve from the recorded state (Exudyn's SensorUserFunction).

Its user function reads other sensors or outputs (Python, not traced), so it is not part of the solve: the
solve records no values for it, and the caller (the Exudyn layer) evaluates the function at each stored step
afterwards, with the state of that step.
"""
from __future__ import annotations

import casadi as ca

from floatframe.components.base import resolve
from floatframe.components.sensors import Sensor


class SensorFromRecord(Sensor):
    """Records nothing during the solve; ``sensor_numbers`` are the sensors its function reads, checked to exist.

    Parameters
    ----------
    sensor_numbers : sequence of sensors or int
    """

    type_name = "SensorFromRecord"

    def __init__(self, sensor_numbers, name=""):
        super().__init__("UserFunction", name)
        self.sensor_numbers = list(sensor_numbers)

    def connect(self, system):
        self.sensors = [resolve(system, "sensor", number, self, f"sensor_numbers[{i}]")
                        for i, number in enumerate(self.sensor_numbers)]

    def expression(self, ctx):
        return ca.DM.zeros(0)
