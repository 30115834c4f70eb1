"""Bodies without flexibility: the ground and the rigid body on an Euler-parameter node."""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe import rotations
from floatframe.components.base import Component, resolve
from floatframe.components.nodes import NodeRigidBodyEP
from floatframe.parameters import Parameter


class Body(Component):
    family = "object"

    def local_position(self, ctx, local_position):
        """Global position of a body-fixed point [m]."""
        raise self.error("has no body-fixed points")

    def output(self, ctx, variable, local_position=(0.0, 0.0, 0.0)):
        position = self.local_position(ctx, np.asarray(local_position, dtype=float))
        outputs = {
            "Position": lambda: position,
            "Displacement": lambda: position - self.reference_point(local_position),
            "Velocity": lambda: ctx.time_derivative(position),
        }
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
        return outputs[variable]()


class ObjectGround(Body):
    """The fixed ground; markers on it give fixed points."""

    type_name = "ObjectGround"

    def __init__(self, reference_position=(0.0, 0.0, 0.0), name=""):
        super().__init__(name)
        self.reference_position = self.vector(reference_position, 3, "reference_position")

    def local_position(self, ctx, local_position):
        return ca.DM(self.reference_position + np.asarray(local_position, dtype=float))

    def reference_point(self, local_position):
        return self.reference_position + np.asarray(local_position, dtype=float)


def inertia_from_six(values) -> np.ndarray:
    """3x3 inertia tensor from [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy] (the usual six-entry order)."""
    jxx, jyy, jzz, jyz, jxz, jxy = values
    return np.array([[jxx, jxy, jxz], [jxy, jyy, jyz], [jxz, jyz, jzz]], dtype=float)


class ObjectRigidBody(Body):
    """Rigid body with its centre of mass at an Euler-parameter node.

    Parameters: ``physics_mass`` [kg], ``physics_inertia`` [kg m^2] about the COM in body axes,
    as 3x3 or six entries [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy].
    """

    type_name = "ObjectRigidBody"

    def __init__(self, node_number, physics_mass, physics_inertia, name=""):
        super().__init__(name)
        self.node_number = node_number
        self.physics_mass = self.vector(physics_mass, 1, "physics_mass", symbolic=True)
        if isinstance(physics_inertia, Parameter):
            self.physics_inertia = self.vector(physics_inertia, 6, "physics_inertia", symbolic=True)
        else:
            inertia = np.asarray(physics_inertia, dtype=float)
            if inertia.size == 6:
                inertia = inertia_from_six(self.vector(inertia, 6, "physics_inertia"))
            self.physics_inertia = self.matrix(inertia, (3, 3), "physics_inertia")
            if not np.allclose(self.physics_inertia, self.physics_inertia.T, rtol=1e-12, atol=0):
                raise self.error("physics_inertia must be symmetric")
        if not isinstance(self.physics_mass, Parameter) and self.physics_mass[0] < 0:
            raise self.error(f"physics_mass must be >= 0, got {self.physics_mass[0]}")

    def connect(self, system):
        self.node = resolve(system, "node", self.node_number, self, "node_number")
        if not isinstance(self.node, NodeRigidBodyEP):
            raise self.error(f"node_number must refer to a NodeRigidBodyEP, got {self.node.label}")

    def add_terms(self, ctx):
        node = self.node
        theta = node.euler_parameters(ctx)
        theta_t = ctx.velocities(node)[3:]
        acceleration = ctx.accelerations(node)
        g_local = rotations.g_local(theta)
        omega = g_local @ theta_t
        inertia = ctx.value(self.physics_inertia)
        if inertia.numel() == 6:  # a Parameter [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy]
            inertia = ca.vertcat(ca.horzcat(inertia[0], inertia[5], inertia[4]),
                                 ca.horzcat(inertia[5], inertia[1], inertia[3]),
                                 ca.horzcat(inertia[4], inertia[3], inertia[2]))
        # m a_t and G_l^T (J (G_l theta_tt + G_l,t theta_t) + omega x J omega)
        translational = ctx.value(self.physics_mass) * acceleration[:3]
        rotational = g_local.T @ (inertia @ (g_local @ acceleration[3:] + rotations.g_local(theta_t) @ theta_t)
                                  + ca.cross(omega, inertia @ omega))
        ctx.add_lhs(node.coordinate_indices, ca.vertcat(translational, rotational))

    def local_position(self, ctx, local_position):
        return self.node.position(ctx) + self.node.rotation_matrix(ctx) @ ca.DM(local_position)

    def reference_point(self, local_position):
        theta = self.node.reference_coordinates[3:]
        return self.node.reference_coordinates[:3] + rotations.rotation_matrix(theta) @ np.asarray(local_position)
