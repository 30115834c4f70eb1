"""Markers: the points, frames and coordinates that connectors and loads act on.

A marker gives its kinematics as CasADi expressions of the coordinates; velocities follow by
automatic differentiation and forces are applied by virtual work (see ``Context.add_force_at``).
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe import rotations
from floatframe.components.base import Component, resolve
from floatframe.components.bodies import ObjectRigidBody, rotation_parameter
from floatframe.components.ffrf import FloatingFrameBody
from floatframe.components.nodes import NodePointGround, NodeRigidBodyEP


# The output variables of each kind of marker (those of Exudyn's SensorMarker); a kind not named has none
OUTPUTS_OF_KIND = {
    "position": ("Position", "Displacement", "Velocity"),
    "rigid": ("Position", "Displacement", "Velocity", "Rotation", "RotationMatrix", "AngularVelocity",
              "AngularVelocityLocal", "HomogeneousTransformation"),
    "coordinates": ("Coordinates", "Coordinates_t"),
}


class Marker(Component):
    """Base of the markers: the points, frames and coordinates that connectors and loads act on.

    A marker's ``output_variables`` are those of its ``kind`` (``OUTPUTS_OF_KIND``), set when its class is
    made unless the class declares its own: position markers Position, Displacement, Velocity; rigid markers
    also Rotation, RotationMatrix, AngularVelocity(Local) and HomogeneousTransformation; coordinate markers
    Coordinates and Coordinates_t; the body-mass marker none."""

    family = "marker"
    kind = ""  # "position", "rigid" (position and orientation) or "coordinates"

    # True where the marker has its own index-2 point velocity (ObjectRigidBody.point_velocity)
    has_index2_velocity = False

    def __init_subclass__(cls, **kwargs):
        """The output variables of the class's kind, unless the class declares its own."""
        super().__init_subclass__(**kwargs)
        if "output_variables" not in cls.__dict__:
            cls.output_variables = OUTPUTS_OF_KIND.get(cls.kind, ())

    def velocity_index2(self, ctx):
        """The point's velocity [m/s] for the index-2 schemes: dx/dt = x_q v + x_t unless a marker says otherwise."""
        position = self.position(ctx)
        return ca.jtimes(position, ctx.q, ctx.v) + ca.jacobian(position, ctx.t)

    def position(self, ctx):
        raise self.error("gives no position")

    def velocity(self, ctx):
        """The point's velocity [m/s] as the spring-dampers take it: dx/dt along the kinematic velocity, unless a
        marker says otherwise (a point on a rigid body: ``ObjectRigidBody.point_velocity``)."""
        return ctx.time_derivative(self.position(ctx))

    def coordinates(self, ctx):
        raise self.error("gives no coordinates")

    def available_outputs(self) -> tuple:
        """The output variables of the marker (its ``output_variables``: Exudyn's SensorMarker's for its kind)."""
        return self.output_variables

    def output(self, ctx, variable: str):
        """An output variable of the marker (Exudyn's SensorMarker): Position [m], Displacement from the position
        with all coordinates at their reference values [m], Velocity [m/s] (``velocity``); rigid markers also
        Rotation (Tait-Bryan x-y-z angles of the marker frame [rad]), RotationMatrix (row by row),
        AngularVelocity and AngularVelocityLocal (global, marker frame) [rad/s], HomogeneousTransformation (4x4,
        row by row); coordinate markers Coordinates (change from reference) and Coordinates_t."""
        self.check_output(variable)
        outputs = {
            "Coordinates": lambda: self.coordinates(ctx),
            "Coordinates_t": lambda: ctx.time_derivative(self.coordinates(ctx)),
            "Position": lambda: self.position(ctx),
            "Displacement": lambda: self.position(ctx) - ca.substitute(self.position(ctx), ctx.q,
                                                                      ca.DM.zeros(ctx.q.numel())),
            "Velocity": lambda: self.velocity(ctx),
            "Rotation": lambda: rotations.rot_xyz_from_rotation_matrix(self.rotation_matrix(ctx)),
            "RotationMatrix": lambda: rotations.rotation_matrix_rows(self.rotation_matrix(ctx)),
            "AngularVelocity": lambda: self.angular_velocity(ctx),
            "AngularVelocityLocal": lambda: self.rotation_matrix(ctx).T @ self.angular_velocity(ctx),
            "HomogeneousTransformation": lambda: ca.vec(ca.vertcat(
                ca.horzcat(self.rotation_matrix(ctx), self.position(ctx)), ca.DM([[0, 0, 0, 1]])).T),
        }
        return outputs[variable]()

    def apply_force(self, ctx, force):
        """Apply a global force [N] at the marker's point."""
        ctx.add_force_at(self.position(ctx), force)

    def apply_torque(self, ctx, torque):
        raise self.error("cannot take a torque: it is not a rigid-body marker")


class _RigidMixin:
    """Orientation and torques of markers with a frame: the frame of a node, a body or a set of mesh nodes,
    turned by the marker's constant ``local_rotation`` R (Exudyn's localHT rotation): rotation A R."""

    kind = "rigid"
    local_rotation = np.eye(3)

    def rotation_node(self):
        """The Euler-parameter node that turns the marker (None: a frame that does not turn)."""
        return None

    def base_rotation(self, ctx):
        """A, 3x3: the rotation of the node or body that carries the marker."""
        node = self.rotation_node()
        return ca.DM.eye(3) if node is None else node.rotation_matrix(ctx)

    def rotation_matrix(self, ctx):
        """A R, 3x3: marker frame to global."""
        rotation = self.base_rotation(ctx)
        return rotation if np.array_equal(self.local_rotation, np.eye(3)) else rotation @ ca.DM(self.local_rotation)

    def angular_velocity(self, ctx):
        """omega of the marker's frame, global [rad/s] (G theta_t of its node; a constant R does not change it)."""
        node = self.rotation_node()
        return ca.DM.zeros(3) if node is None else node.angular_velocity(ctx)

    rotation_jacobian_is_derivative = True   # False: jacobian_angular_velocity is not d/dt of the orientation

    def jacobian_angular_velocity(self, ctx):
        """omega whose derivative by q_t is the marker's rotation Jacobian as Exudyn forms it (torques and
        connector reactions act through it): the angular velocity, for a marker on a node or a rigid body."""
        return self.angular_velocity(ctx)

    def apply_torque(self, ctx, torque):
        """Generalized force G^T tau of a global torque [N m] on the Euler parameters (none on a frame that
        does not turn)."""
        node = self.rotation_node()
        if node is not None:
            ctx.add_force(node.coordinate_indices[3:], rotations.g_global(node.euler_parameters(ctx)).T @ torque)


class MarkerNodePosition(Marker):
    """The position of a node (NodePoint, NodePointGround, NodeRigidBodyEP): forces act at it.

    Parameters
    ----------
    node_number : NodePoint, NodePointGround, NodeRigidBodyEP or int
        The node (item or number).
    """

    type_name = "MarkerNodePosition"
    kind = "position"

    def __init__(self, node_number, name=""):
        super().__init__(name)
        self.node_number = node_number

    def connect(self, system):
        self.node = resolve(system, "node", self.node_number, self, "node_number")
        if self.node.n_reference < 3:
            raise self.error(f"{self.node.label} has no position")

    def position(self, ctx):
        return self.node.position(ctx)


class MarkerNodeRigid(_RigidMixin, MarkerNodePosition):
    """The frame of a rigid-body node, moved by ``local_position`` p [m] and turned by ``local_rotation`` R
    (both in node axes, Exudyn's localHT): position x + A p, rotation A R.

    Parameters
    ----------
    node_number : NodeRigidBodyEP or int
        The node (item or number).
    local_rotation : (3, 3) array_like, rotation matrix (R^T R = I, det R = 1), default identity
        R, marker frame to node frame.
    local_position : (3,) array_like, m, default (0, 0, 0)
        p, in node axes.
    """

    type_name = "MarkerNodeRigid"

    def __init__(self, node_number, local_rotation=np.eye(3), local_position=(0.0, 0.0, 0.0), name=""):
        super().__init__(node_number, name)
        self.local_rotation = rotation_parameter(self, local_rotation, "local_rotation")
        self.local_position = self.vector(local_position, 3, "local_position")

    def connect(self, system):
        super().connect(system)
        if not isinstance(self.node, NodeRigidBodyEP):
            raise self.error(f"node_number must refer to a rigid-body node, got {self.node.label}")

    def rotation_node(self):
        return self.node

    def position(self, ctx):
        if not np.any(self.local_position):
            return self.node.position(ctx)
        return self.node.position(ctx) + self.node.rotation_matrix(ctx) @ ca.DM(self.local_position)


class MarkerNodeCoordinates(Marker):
    """All coordinates of a node (change from reference).

    Parameters
    ----------
    node_number : node or int
        The node (item or number) whose coordinates the marker gives.
    """

    type_name = "MarkerNodeCoordinates"
    kind = "coordinates"

    def __init__(self, node_number, name=""):
        super().__init__(name)
        self.node_number = node_number

    def connect(self, system):
        self.node = resolve(system, "node", self.node_number, self, "node_number")

    def coordinates(self, ctx):
        return ctx.coordinates(self.node)


class MarkerNodeCoordinate(MarkerNodeCoordinates):
    """One coordinate of a node (change from reference); on a ground node it is 0.

    Parameters
    ----------
    node_number : node or int
        The node (item or number).
    coordinate : int
        0-based index of the coordinate in the node (0, 1, 2 on a NodePointGround, whose value is 0).
    """

    type_name = "MarkerNodeCoordinate"

    def __init__(self, node_number, coordinate, name=""):
        super().__init__(node_number, name)
        self.coordinate = coordinate

    def connect(self, system):
        super().connect(system)
        available = 3 if isinstance(self.node, NodePointGround) else self.node.n_coordinates
        if not (isinstance(self.coordinate, (int, np.integer)) and 0 <= self.coordinate < available):
            raise self.error(f"coordinate {self.coordinate!r} is out of range for {self.node.label} "
                             f"with {available} coordinates")

    def coordinates(self, ctx):
        if self.node.n_coordinates == 0:
            return ca.SX.zeros(1)
        return ctx.coordinates(self.node)[int(self.coordinate)]


class MarkerBodyPosition(Marker):
    """A point fixed on a body (ground, rigid body, or the reference frame of an FFRF body).

    Parameters
    ----------
    body_number : body or int
        ObjectGround, ObjectRigidBody, ObjectMassPoint, ObjectMass1D or an FFRF body (its reference frame).
    local_position : (3,) array_like, m, default (0, 0, 0)
        The point, in body axes.
    """

    type_name = "MarkerBodyPosition"
    kind = "position"

    def __init__(self, body_number, local_position=(0.0, 0.0, 0.0), name=""):
        super().__init__(name)
        self.body_number = body_number
        self.local_position = self.vector(local_position, 3, "local_position")

    def connect(self, system):
        self.body = resolve(system, "object", self.body_number, self, "body_number")
        if not hasattr(self.body, "local_position"):
            raise self.error(f"body_number must refer to a body, got {self.body.label}")

    def position(self, ctx):
        return self.body.local_position(ctx, self.local_position)

    @property
    def has_index2_velocity(self):
        return hasattr(self.body, "point_velocity")

    def velocity_index2(self, ctx):
        """The point's velocity in the index-2 form (``ObjectRigidBody.point_velocity``) on a rigid body."""
        if self.has_index2_velocity:
            return self.body.point_velocity(ctx, self.local_position)
        return super().velocity_index2(ctx)

    def velocity(self, ctx):
        """On a rigid body of a node in the unit form v + A_E (omega_b x p), Exudyn's point velocity
        (``ObjectRigidBody.point_velocity``, equal to dx/dt where the Euler parameters have unit norm); else dx/dt."""
        if getattr(self.body, "unit_form", False):
            return self.body.point_velocity(ctx, self.local_position)
        return super().velocity(ctx)

    def apply_force(self, ctx, force):
        """Apply a global force [N] at the point; on a rigid body of a node in the unit form through the omega
        form (``ObjectRigidBody.apply_point_force``, Exudyn's)."""
        if getattr(self.body, "unit_form", False):
            self.body.apply_point_force(ctx, self.local_position, force)
        else:
            super().apply_force(ctx, force)


class MarkerBodyRigid(_RigidMixin, MarkerBodyPosition):
    """A frame fixed on a body with an orientation (ground, rigid body, ObjectMass1D, the reference frame of
    ObjectFFRF and ObjectFFRFReducedOrder) at ``local_position`` p [m], turned by ``local_rotation`` R
    (both in body axes, Exudyn's localHT): position of the body point p, rotation A R.

    Parameters
    ----------
    body_number : body with an orientation, or int
        ObjectGround, ObjectRigidBody, ObjectMass1D, ObjectFFRF or ObjectFFRFReducedOrder.
    local_position : (3,) array_like, m, default (0, 0, 0)
        p, in body axes.
    local_rotation : (3, 3) array_like, rotation matrix (R^T R = I, det R = 1), default identity
        R, marker frame to body frame.
    """

    type_name = "MarkerBodyRigid"

    def __init__(self, body_number, local_position=(0.0, 0.0, 0.0), local_rotation=np.eye(3), name=""):
        super().__init__(body_number, local_position, name)
        self.local_rotation = rotation_parameter(self, local_rotation, "local_rotation")

    def connect(self, system):
        super().connect(system)
        if not (isinstance(self.body, FloatingFrameBody) or getattr(self.body, "has_orientation", False)):
            raise self.error(f"body_number must refer to a body with an orientation (ground, rigid body, "
                             f"ObjectMass1D, ObjectFFRF, ObjectFFRFReducedOrder), got {self.body.label}, which "
                             f"has none: use a MarkerBodyPosition")

    def rotation_node(self):
        if isinstance(self.body, ObjectRigidBody):
            return self.body.node
        if isinstance(self.body, FloatingFrameBody):
            return self.body.rigid_node
        return None

    def base_rotation(self, ctx):
        if self.rotation_node() is None:
            return self.body.rotation_matrix(ctx)      # constant: ground, ObjectMass1D
        return super().base_rotation(ctx)


class MarkerSuperElementPosition(Marker):
    """Weighted sum of mesh-node positions of an FFRF body, including the frame motion.

    Parameters
    ----------
    body_number : ObjectFFRF, ObjectFFRFReducedOrder or int
        The FFRF body.
    mesh_node_numbers : (k,) sequence of int
        0-based mesh-node numbers (the frame node not counted), k >= 1.
    weighting_factors : (k,) array_like
        Dimensionless weights w_k of the node positions, usually summing to 1.
    """

    type_name = "MarkerSuperElementPosition"
    kind = "position"

    def __init__(self, body_number, mesh_node_numbers, weighting_factors, name=""):
        super().__init__(name)
        self.body_number = body_number
        self.mesh_node_numbers = [int(k) for k in np.asarray(mesh_node_numbers).reshape(-1)]
        self.weighting_factors = self.vector(weighting_factors, len(self.mesh_node_numbers), "weighting_factors")
        if not self.mesh_node_numbers:
            raise self.error("mesh_node_numbers is empty")

    def connect(self, system):
        self.body = resolve(system, "object", self.body_number, self, "body_number")
        if not isinstance(self.body, FloatingFrameBody):
            raise self.error(f"body_number must refer to an FFRF body (ObjectFFRF, ObjectFFRFReducedOrder), got {self.body.label}")
        for k in self.mesh_node_numbers:
            self.body.check_mesh_node(k, self)

    def position(self, ctx):
        return self.body.weighted_position(ctx, self.mesh_node_numbers, self.weighting_factors)


class _GenericODE2Mesh:
    """The mesh of an ObjectGenericODE2 as MarkerSuperElementRigid sees it: its nodes (3 coordinates each, in the
    object's node list) are the mesh nodes, with no floating frame (identity rotation, zero angular velocity)."""

    def __init__(self, body, owner):
        nodes = body.nodes
        wrong = [node.label for node in nodes if len(node.coordinate_indices) != 3
                 or len(node.reference_coordinates) != 3]
        if wrong:
            raise owner.error(f"{body.label}: the mesh nodes of a MarkerSuperElementRigid need 3 coordinates each "
                              f"(NodePoint); {wrong[:3]} have not")
        self.nodes = nodes
        self.label = body.label
        self.n_mesh_nodes = len(nodes)
        self.reference_positions = np.concatenate([np.asarray(node.reference_coordinates, dtype=float)
                                                   for node in nodes])

    def check_mesh_node(self, mesh_node, owner):
        if not 0 <= mesh_node < self.n_mesh_nodes:
            raise owner.error(f"mesh node {mesh_node!r} is out of range for {self.label} with {self.n_mesh_nodes} "
                              f"nodes")

    def frame(self, ctx):
        return dict(position=ca.DM.zeros(3), rotation=ca.DM.eye(3), omega=ca.DM.zeros(3))

    def mesh_node_local(self, ctx, mesh_node, which):
        node = self.nodes[mesh_node]
        return ctx.coordinates(node) if which == "q" else ctx.velocities(node)

    def weighted_position(self, ctx, mesh_nodes, weights):
        return sum(w * self.nodes[k].position(ctx) for k, w in zip(mesh_nodes, weights))

    def weighted_local_displacement(self, ctx, mesh_nodes, weights):
        return sum(w * self.mesh_node_local(ctx, k, "q") for k, w in zip(mesh_nodes, weights))

    def weighted_moment(self, ctx, mesh_nodes, weights, levers, which="q"):
        return sum(w * ca.cross(ca.DM(lever), self.mesh_node_local(ctx, k, which))
                   for k, w, lever in zip(mesh_nodes, weights, np.asarray(levers, dtype=float)))


class MarkerSuperElementRigid(_RigidMixin, MarkerSuperElementPosition):
    """Position and orientation of a set of mesh nodes of an FFRF body (full or reduced) or of an
    ObjectGenericODE2 (its nodes, no floating frame), as Exudyn's MarkerSuperElementRigid with
    rotationsExponentialMap = 2 and either rotation formula (useAlternativeApproach).

    With the weighted mean x_m = sum_k w_k x_ref,k, the levers p_k = x_ref,k - x_m, the mean displacement
    u_m = sum_k w_k u_k and the weighting W:

    - inertia-weighted (``alternative_approach=True``, Exudyn's default): W = -sum_k w_k p_k~ p_k~ (regular
      unless the nodes lie on a line);
    - distance-weighted (``alternative_approach=False``, Exudyn's standard approach): W = (sum_k w_k |p_k|^2) I;
    - position: frame position + A (offset + sum_k w_k (x_ref,k + u_k));
    - rotation vector of the nodes in the frame: theta_m = W^-1 sum_k w_k p_k x (u_k - u_m);
    - orientation: A exp(theta_m~) R, R the constant ``local_rotation`` (Exudyn's localHT; offset its translation);
    - angular velocity: A (omega_frame,local + T(theta_m) omega_m), omega_m = W^-1 sum_k w_k p_k x (u_k_t - u_m_t),
      T the tangent operator of the exponential map (rotations.t_exp_so3).

    The output AngularVelocityLocal is Exudyn's: in the frame A R (without exp(theta_m~)).
    Torques act through the rotation Jacobian Exudyn uses: d omega / d q_t with T(theta_m) for the
    inertia-weighted rotation, without it (A (omega_frame,local + omega_m)) for the distance-weighted one; the
    reactions of the joints at the marker too where ``reactions="exudyn"``.
    Without a floating frame (ObjectGenericODE2) A = I, the frame position and angular velocity are zero.

    Parameters
    ----------
    body_number : ObjectFFRF, ObjectFFRFReducedOrder, ObjectGenericODE2 or int
        The body; the nodes of an ObjectGenericODE2 must have 3 coordinates (NodePoint).
    mesh_node_numbers : (k,) sequence of int
        0-based mesh-node numbers (for an ObjectGenericODE2: places in its node list), not all on one line.
    weighting_factors : (k,) array_like
        Dimensionless weights w_k, usually summing to 1.
    offset : (3,) array_like, m, default (0, 0, 0)
        Added to the weighted position, in the body frame.
    local_rotation : (3, 3) array_like, rotation matrix (R^T R = I, det R = 1), default identity
        R, marker frame to the frame of the mesh nodes.
    alternative_approach : bool, default True
        The rotation formula: inertia-weighted (True) or distance-weighted (False), see above.
    reactions : {"exact", "exudyn"}, default "exact"
        How the reactions of a GenericJoint at the marker act: "exact", C_q^T lambda, the derivative of its
        equations (the reactions do no work on motions that the joint allows); "exudyn", through the rotation
        Jacobian Exudyn uses for torques, which for the inertia-weighted rotation has T(theta_m) where the
        derivative of A exp(theta_m~) has T(theta_m)^T (Exudyn 1.13.6's results; they differ by O(|theta_m|)).
    """

    type_name = "MarkerSuperElementRigid"
    REACTIONS = ("exact", "exudyn")

    def __init__(self, body_number, mesh_node_numbers, weighting_factors, offset=(0.0, 0.0, 0.0),
                 local_rotation=np.eye(3), name="", alternative_approach=True, reactions="exact"):
        super().__init__(body_number, mesh_node_numbers, weighting_factors, name)
        if reactions not in self.REACTIONS:
            raise self.error(f"reactions must be one of {self.REACTIONS}, got {reactions!r}")
        self.reactions = reactions
        self.offset = self.vector(offset, 3, "offset")
        self.local_rotation = rotation_parameter(self, local_rotation, "local_rotation")
        self.alternative_approach = bool(alternative_approach)

    def connect(self, system):
        body = resolve(system, "object", self.body_number, self, "body_number")
        if body.type_name == "ObjectGenericODE2":    # by name: components.generic_ode2 imports this module
            self.body, self.mesh = body, _GenericODE2Mesh(body, self)
            for k in self.mesh_node_numbers:
                self.mesh.check_mesh_node(k, self)
        else:
            super().connect(system)
            self.mesh = self.body
        reference = self.mesh.reference_positions.reshape(-1, 3)[self.mesh_node_numbers]
        self.levers = reference - self.weighting_factors @ reference                       # p_k
        weighting = -sum(w * rotations.skew(p) @ rotations.skew(p) for w, p in zip(self.weighting_factors, self.levers))
        singular_values = np.linalg.svd(weighting, compute_uv=False)
        if not singular_values[-1] > 1e-10 * singular_values[0]:
            raise self.error("its mesh nodes lie on a line (or coincide): their weighted positions do not "
                             "determine a rotation (W = -sum w_k p_k~ p_k~ is singular)")
        if not self.alternative_approach:
            weighting = np.trace(weighting) / 2 * np.eye(3)                              # sum w_k |p_k|^2 I
        self.weighting_inverse = np.linalg.inv(weighting)                                 # W^-1

    def position(self, ctx):
        frame = self.mesh.frame(ctx)
        return (self.mesh.weighted_position(ctx, self.mesh_node_numbers, self.weighting_factors)
                + frame["rotation"] @ ca.DM(self.offset))

    def relative_rotation(self, ctx, which="q"):
        """theta_m ("q") or the rate omega_m ("v"): W^-1 sum_k w_k p_k x (u_k - u_m), body-fixed (3,)."""
        moment = self.mesh.weighted_moment(ctx, self.mesh_node_numbers, self.weighting_factors, self.levers, which)
        mean = self.mesh.weighted_local_displacement(ctx, self.mesh_node_numbers, self.weighting_factors)
        if which != "q":
            mean = ca.jtimes(mean, ctx.q, ctx.v)
        lever_sum = ca.DM(self.weighting_factors @ self.levers)                            # zero for sum w = 1
        return ca.DM(self.weighting_inverse) @ (moment - ca.cross(lever_sum, mean))

    def base_rotation(self, ctx):
        """A exp(theta_m~): the frame's rotation turned by the rotation of the mesh nodes."""
        return self.mesh.frame(ctx)["rotation"] @ rotations.rotation_matrix_from_rotation_vector(
            self.relative_rotation(ctx))

    def angular_velocity(self, ctx, tangent=True):
        """A (omega_frame,local + T(theta_m) omega_m), global; without T for ``tangent=False``."""
        frame = self.mesh.frame(ctx)
        rate = self.relative_rotation(ctx, "v")
        if tangent:
            rate = rotations.t_exp_so3(self.relative_rotation(ctx)) @ rate
        return frame["rotation"] @ (frame["omega"] + rate)

    def output(self, ctx, variable: str):
        """As :meth:`Marker.output`, except AngularVelocityLocal, which is Exudyn's: the angular velocity in the
        frame A R (floating frame turned by the local rotation, not by exp(theta_m~))."""
        if variable != "AngularVelocityLocal":
            return super().output(ctx, variable)
        self.check_output(variable)
        frame = self.mesh.frame(ctx)["rotation"]
        if not np.array_equal(self.local_rotation, np.eye(3)):
            frame = frame @ ca.DM(self.local_rotation)
        return frame.T @ self.angular_velocity(ctx)

    @property
    def rotation_jacobian_is_derivative(self) -> bool:
        """Whether the joints at the marker take C_q^T lambda (``reactions="exact"``) or act through Exudyn's
        rotation Jacobian (``reactions="exudyn"``)."""
        return self.reactions == "exact"

    def jacobian_angular_velocity(self, ctx):
        """A (omega_frame,local + T(theta_m) omega_m), without T for the distance-weighted rotation: Exudyn's
        rotation Jacobian. T(theta_m) is the tangent operator of exp on the body side; the derivative of
        A exp(theta_m~) has T(theta_m)^T, so this differs from it by O(|theta_m|) (see the class)."""
        return self.angular_velocity(ctx, tangent=self.alternative_approach)

    def apply_torque(self, ctx, torque):
        """Generalized force J^T tau of a global torque [N m], J Exudyn's rotation Jacobian (see the class)."""
        omega = self.jacobian_angular_velocity(ctx)
        ctx.add_force(np.arange(ctx.q.numel()), ca.jtimes(omega, ctx.v, torque, True))


class MarkerBodyMass(Marker):
    """The whole mass of a body, for mass-proportional loads (gravity): LoadMassProportional acts on it.

    Parameters
    ----------
    body_number : body with mass, or int
        ObjectRigidBody, ObjectMassPoint, ObjectMass1D, ObjectFFRF or ObjectFFRFReducedOrder.
    """

    type_name = "MarkerBodyMass"
    kind = "body mass"  # no output variables: it stands for the body's mass, not a point or frame

    def __init__(self, body_number, name=""):
        super().__init__(name)
        self.body_number = body_number

    def connect(self, system):
        self.body = resolve(system, "object", self.body_number, self, "body_number")
        if not hasattr(self.body, "add_mass_proportional_load"):
            raise self.error(f"body_number must refer to a body with mass (rigid body, mass point, ObjectMass1D, "
                             f"ObjectFFRF, ObjectFFRFReducedOrder), got {self.body.label}")

    def apply_mass_proportional_load(self, ctx, acceleration):
        self.body.add_mass_proportional_load(ctx, acceleration)


class MarkerObjectODE2Coordinates(Marker):
    """All coordinates of an object in the object's order, including their reference values.

    Parameters
    ----------
    object_number : object or int
        An object that owns coordinates (ObjectFFRF, ObjectFFRFReducedOrder).
    """

    type_name = "MarkerObjectODE2Coordinates"
    kind = "coordinates"

    def __init__(self, object_number, name=""):
        super().__init__(name)
        self.object_number = object_number

    def connect(self, system):
        self.body = resolve(system, "object", self.object_number, self, "object_number")
        if not hasattr(self.body, "coordinate_indices"):
            raise self.error(f"{self.body.label} has no coordinates")

    def coordinates(self, ctx):
        indices = self.body.coordinate_indices
        return ctx.q[indices] + ctx.q_reference[indices]
