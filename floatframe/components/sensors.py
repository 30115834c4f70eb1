"""Sensors: output variables recorded at every stored step of a solve."""
from __future__ import annotations

from floatframe.components.base import Component, resolve
from floatframe.components.ffrf import FloatingFrameBody
from floatframe.components.generic_ode2 import ObjectGenericODE2


class Sensor(Component):
    """Base of the sensors: an output variable recorded at every stored step of a solve.

    Parameters
    ----------
    output_variable_type : str
        Name of the output variable (Exudyn's OutputVariableType names, e.g. "Displacement"); the target's entry
        lists the names it accepts.
    """

    family = "sensor"

    def __init__(self, output_variable_type: str, name=""):
        super().__init__(name)
        self.output_variable_type = str(output_variable_type)

    def expression(self, ctx):
        """The recorded quantity as a CasADi expression of the state."""
        raise NotImplementedError


class SensorNode(Sensor):
    """An output variable of a node (its names in the node's entry).

    Parameters
    ----------
    node_number : node or int
        The node (item or number).
    """

    type_name = "SensorNode"

    def __init__(self, node_number, output_variable_type, name=""):
        super().__init__(output_variable_type, name)
        self.node_number = node_number

    def connect(self, system):
        self.node = resolve(system, "node", self.node_number, self, "node_number")

    def expression(self, ctx):
        return self.node.output(ctx, self.output_variable_type)


class SensorMarker(Sensor):
    """An output variable of a marker (Exudyn's SensorMarker; the names in ``Marker.output``).

    Parameters
    ----------
    marker_number : marker or int
        The marker (item or number).
    """

    type_name = "SensorMarker"

    def __init__(self, marker_number, output_variable_type, name=""):
        super().__init__(output_variable_type, name)
        self.marker_number = marker_number

    def connect(self, system):
        self.marker = resolve(system, "marker", self.marker_number, self, "marker_number")
        if self.output_variable_type not in self.marker.available_outputs():
            raise self.error(f"{self.marker.label} has no output variable '{self.output_variable_type}'; "
                             f"available: {list(self.marker.available_outputs())}")

    def expression(self, ctx):
        return self.marker.output(ctx, self.output_variable_type)


class SensorBody(Sensor):
    """Output of a body at a body-fixed point (or an object output where no point applies).

    Parameters
    ----------
    body_number : body or int
        The body (item or number).
    local_position : (3,) array_like, m, default (0, 0, 0)
        Body-fixed point whose output is recorded (FFRF bodies: not used, their object outputs are recorded).
    """

    type_name = "SensorBody"

    def __init__(self, body_number, output_variable_type, local_position=(0.0, 0.0, 0.0), name=""):
        super().__init__(output_variable_type, name)
        self.body_number = body_number
        self.local_position = self.vector(local_position, 3, "local_position")

    def connect(self, system):
        self.body = resolve(system, "object", self.body_number, self, "body_number")
        if not hasattr(self.body, "output"):
            raise self.error(f"{self.body.label} has no outputs")

    def expression(self, ctx):
        if isinstance(self.body, FloatingFrameBody):
            return self.body.output(ctx, self.output_variable_type)
        return self.body.output(ctx, self.output_variable_type, self.local_position)


class SensorObject(SensorBody):
    """

    Parameters
    ----------
    object_number : object or int
        The object (body or connector) whose output is recorded.
    """

    type_name = "SensorObject"

    def __init__(self, object_number, output_variable_type, name=""):
        super().__init__(object_number, output_variable_type, name=name)

    def expression(self, ctx):
        if hasattr(self.body, "local_position") and not isinstance(self.body, FloatingFrameBody):
            return self.body.output(ctx, self.output_variable_type, self.local_position)
        return self.body.output(ctx, self.output_variable_type)


class SensorSuperElement(Sensor):
    """Output of one mesh node of an FFRF body (mesh node numbers are 0-based, rigid node excluded) or of an
    ObjectGenericODE2 (its nodes, in their order).

    Parameters
    ----------
    body_number : ObjectFFRF, ObjectFFRFReducedOrder, ObjectGenericODE2 or int
        The body.
    mesh_node_number : int
        0-based mesh-node number (the frame node not counted).
    output_variable_type : str
        FFRF bodies: one of Position, Displacement, Velocity, Acceleration (global) or DisplacementLocal,
        VelocityLocal, AccelerationLocal (body frame); ObjectGenericODE2: an output of its mesh nodes.
    """

    type_name = "SensorSuperElement"

    def __init__(self, body_number, mesh_node_number, output_variable_type, name=""):
        super().__init__(output_variable_type, name)
        self.body_number = body_number
        self.mesh_node_number = mesh_node_number

    def connect(self, system):
        self.body = resolve(system, "object", self.body_number, self, "body_number")
        if not isinstance(self.body, (FloatingFrameBody, ObjectGenericODE2)):
            raise self.error(f"body_number must refer to a body with mesh nodes (ObjectFFRF, ObjectFFRFReducedOrder, "
                             f"ObjectGenericODE2), got {self.body.label}")
        self.body.check_mesh_node(self.mesh_node_number, self)
        if self.output_variable_type not in self.body.mesh_outputs:
            raise self.error(f"mesh nodes have no output variable '{self.output_variable_type}'; "
                             f"available: {list(self.body.mesh_outputs)}")

    def expression(self, ctx):
        return self.body.mesh_node_output(ctx, int(self.mesh_node_number), self.output_variable_type)



class SensorLoad(Sensor):
    """The value of a load as given (Exudyn's SensorLoad): the 3-vector of a force, torque, mass-proportional
    load or Gravity (in body axes for a body-fixed load), the scalar of a LoadCoordinate; a load function is
    evaluated at the time of each stored step.

    Parameters
    ----------
    load_number : load or int
        The load (item or number) whose value is recorded.
    """

    type_name = "SensorLoad"

    def __init__(self, load_number, name=""):
        super().__init__("Load", name)
        self.load_number = load_number

    def connect(self, system):
        self.load = resolve(system, "load", self.load_number, self, "load_number")

    def expression(self, ctx):
        return self.load.given_value(ctx)
