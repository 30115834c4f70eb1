"""A rotor on one coordinate (Exudyn's ObjectRotationalMass1D) and the rigid marker on it.

The coordinate c of a Node1D is the rotor's angle psi = c (reference value included) about its local z axis:
the rotor's frame is A = R Rz(psi), with R = ``reference_rotation`` (constant), at the fixed point
``reference_position``. Equation: J psi_tt = tau . (R e_z), tau the torques on it.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe.components.bodies import Body, one_coordinate_node, rotation_parameter
from floatframe.components.markers import MarkerBodyPosition, MarkerBodyRigid
from floatframe.components.planar import rotation_z
from floatframe.parameters import Parameter


class ObjectRotationalMass1D(Body):
    """Rotor of inertia J [kg m^2] about the axis R e_z through ``reference_position`` (see the module).

    Parameters
    ----------
    node_number : Node1D, NodeGenericODE2 with one coordinate, or int
        Its coordinate is the angle psi [rad].
    inertia : float or Parameter, kg m^2
        J >= 0.
    reference_position : (3,) array_like, m, default (0, 0, 0)
    reference_rotation : (3, 3) array_like, rotation matrix, default identity
        R; the rotor turns about its third column.

    Outputs (Exudyn's): Position, Displacement, Velocity of a body-fixed point, RotationMatrix, AngularVelocity
    (global), AngularVelocityLocal [0, 0, psi_t], Rotation (the scalar total angle psi).
    """

    type_name = "ObjectRotationalMass1D"
    has_orientation = True
    output_variables = ("Position", "Displacement", "Velocity", "RotationMatrix", "Rotation", "AngularVelocity",
                        "AngularVelocityLocal")

    def __init__(self, node_number, inertia, reference_position=(0.0, 0.0, 0.0), reference_rotation=np.eye(3),
                 name=""):
        super().__init__(name)
        self.node_number = node_number
        self.inertia = self.vector(inertia, 1, "inertia", symbolic=True)
        if not isinstance(self.inertia, Parameter) and self.inertia[0] < 0:
            raise self.error(f"inertia must be >= 0, got {self.inertia[0]}")
        self.reference_position = self.vector(reference_position, 3, "reference_position")
        self.reference_rotation = rotation_parameter(self, reference_rotation, "reference_rotation")

    def connect(self, system):
        self.node = one_coordinate_node(system, self)

    def angle(self, ctx):
        return ctx.total_coordinates(self.node)[0]

    def add_terms(self, ctx):
        ctx.add_lhs(self.node.coordinate_indices, ctx.value(self.inertia) * ctx.accelerations(self.node))

    def add_mass_proportional_load(self, ctx, acceleration):
        """Gravity on a rotor turning about a fixed point does no work."""

    def rotation_matrix(self, ctx):
        return ca.DM(self.reference_rotation) @ rotation_z(self.angle(ctx))

    def local_position(self, ctx, local_position):
        return ca.DM(self.reference_position) + self.rotation_matrix(ctx) @ ca.DM(local_position)

    def angular_velocity(self, ctx):
        return ca.DM(self.reference_rotation[:, 2]) * ctx.velocities(self.node)[0]

    def angular_acceleration(self, ctx):
        return ca.DM(self.reference_rotation[:, 2]) * ctx.accelerations(self.node)[0]

    def reference_point(self, local_position):
        psi = float(self.node.reference_coordinates[0])
        c, s = np.cos(psi), np.sin(psi)
        turned = self.reference_rotation @ np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
        return self.reference_position + turned @ np.asarray(local_position, dtype=float)

    def output(self, ctx, variable, local_position=(0.0, 0.0, 0.0)):
        if variable == "Rotation":
            return self.angle(ctx)
        return super().output(ctx, variable, local_position)

    def apply_torque(self, ctx, torque):
        """A global torque [N m]: its part along the axis R e_z on the angle."""
        ctx.add_force(self.node.coordinate_indices, ca.dot(ca.DM(self.reference_rotation[:, 2]), torque))


class MarkerBodyRigidRotor(MarkerBodyRigid):
    """A frame fixed on an ObjectRotationalMass1D: position and rotation of the body point, its angular velocity;
    torques act on the rotor's angle."""

    type_name = "MarkerBodyRigid"

    def connect(self, system):
        MarkerBodyPosition.connect(self, system)
        if not isinstance(self.body, ObjectRotationalMass1D):
            raise self.error(f"body_number must refer to an ObjectRotationalMass1D, got {self.body.label}")

    def base_rotation(self, ctx):
        return self.body.rotation_matrix(ctx)

    def angular_velocity(self, ctx):
        return self.body.angular_velocity(ctx)

    def apply_torque(self, ctx, torque):
        self.body.apply_torque(ctx, torque)
