"""Spring-dampers between two markers: Cartesian, on coordinates, along the line between two points, and the
rigid-body and torsional spring-dampers between joint frames."""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe import rotations
from floatframe.components.connectors import (Connector, ConnectorUserFunction, _active_flag, _check_non_negative,
                                              _check_symmetric_semidefinite, _JointFrameMixin)
from floatframe.components.joints import TurnCounting, exudyn_angular_velocity
from floatframe.rotations import rotation_log, tangent_exp_inverse


def relative_velocity(ctx, markers, difference):
    """d/dt of ``difference`` = x1 - x0 of the two markers' points; where a marker is on a rigid body of a node in
    Exudyn's unit form (``NodeRigidBodyEP(unit_form=True)``) the difference of the markers' velocities, the point
    velocity v + A_E (omega_b x p) on such a body (equal where the Euler parameters have unit norm)."""
    if any(getattr(getattr(marker, "body", None), "unit_form", False) for marker in markers):
        v0, v1 = (marker.velocity(ctx) for marker in markers)
        return v1 - v0
    return ctx.time_derivative(difference)


class CartesianSpringDamper(Connector):
    """Force F = k (x1 - x0 - offset) + d (v1 - v0) per global axis, acting +F on m0 and -F on m1.

    The output ``Force`` is F, the force on marker 0 (as Exudyn's): positive when the spring is stretched.

    ``force_user_function(t, displacement, velocity) -> F`` (3 values) replaces the formula; it gets
    x1 - x0 - offset [m] and v1 - v0 [m/s] (as Exudyn's springForceUserFunction). ``active`` False
    (Exudyn's activeConnector; 0/1 or a Parameter of it) makes F zero.

    Parameters
    ----------
    marker_numbers : sequence of two position or rigid markers
        Marker 0 and marker 1.
    stiffness : (3,) array_like or Parameter, N/m
        k >= 0, one value per global axis.
    damping : (3,) array_like or Parameter, N s/m, default (0, 0, 0)
        d >= 0, one value per global axis.
    offset : (3,) array_like or Parameter, m, default (0, 0, 0)
        Unstressed value of x1 - x0.
    force_user_function : callable or None, default None
        f(t, displacement, velocity) -> (3,) force in N; replaces the formula (keyword only).
    active : bool, 0/1 or Parameter, default True
        False (0) makes the force zero (keyword only).
    allow_negative : bool, default False
        Accept negative stiffness and damping values (keyword only): a negative stiffness pushes the markers
        apart, as a linearised destabilising force does (e.g. of a magnetic bearing), a negative damping feeds
        energy in. Otherwise they are refused, as by :class:`SpringDamper`.
    """

    type_name = "CartesianSpringDamper"
    output_variables = ("Force", "Displacement", "Velocity")

    def __init__(self, marker_numbers, stiffness, damping=(0.0, 0.0, 0.0), offset=(0.0, 0.0, 0.0), name="", *,
                 force_user_function=None, active=True, allow_negative=False):
        super().__init__(marker_numbers, name)
        self.stiffness = self.vector(stiffness, 3, "stiffness", symbolic=True)
        self.damping = self.vector(damping, 3, "damping", symbolic=True)
        for what in ("stiffness", "damping"):
            _check_non_negative(self, getattr(self, what), what, allow_negative)
        self.offset = self.vector(offset, 3, "offset", symbolic=True)
        self.force_user_function = ConnectorUserFunction(self, force_user_function)
        self.active = _active_flag(self, active)

    def force(self, ctx):
        x0, x1 = (m.position(ctx) for m in self.markers)
        difference = x1 - x0
        velocity = relative_velocity(ctx, self.markers, difference)
        if self.force_user_function:
            force = self.force_user_function.force(
                ctx, [difference - ctx.value(self.offset), velocity], 3)
        else:
            force = (ctx.value(self.stiffness) * (difference - ctx.value(self.offset))
                     + ctx.value(self.damping) * velocity)
        return ctx.value(self.active) * force

    def add_terms(self, ctx):
        force = self.force(ctx)
        self.markers[0].apply_force(ctx, force)
        self.markers[1].apply_force(ctx, -force)

    def output(self, ctx, variable):
        x0, x1 = (m.position(ctx) for m in self.markers)
        outputs = {"Force": lambda: self.force(ctx), "Displacement": lambda: x1 - x0,
                   "Velocity": lambda: ctx.time_derivative(x1 - x0)}
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
        return outputs[variable]()


class CoordinateSpringDamper(Connector):
    """Force f = k (q1 - q0 - offset) + d (q1_t - q0_t) between two coordinate markers (one coordinate each),
    acting +f on q0 and -f on q1; ``stiffness`` [N/m], ``damping`` [N s/m], ``offset`` in the coordinate's
    unit. The output ``Force`` is f.

    ``force_user_function(t, displacement, velocity) -> f`` replaces the formula; it gets q1 - q0 and
    q1_t - q0_t (offset not subtracted, as Exudyn's springForceUserFunction). ``active`` False (Exudyn's
    activeConnector; 0/1 or a Parameter of it) makes f zero.

    Parameters
    ----------
    marker_numbers : sequence of two single-coordinate markers
        q0 and q1.
    stiffness : float or Parameter, N/m
        k >= 0, force per unit of the coordinate (N m/rad for a rotation coordinate).
    damping : float or Parameter, N s/m, default 0.0
        d >= 0, force per unit rate of the coordinate.
    offset : float or Parameter, default 0.0
        Unstressed value of q1 - q0, in the coordinate's unit.
    force_user_function : callable or None, default None
        f(t, displacement, velocity) -> float force; replaces the formula (keyword only).
    active : bool, 0/1 or Parameter, default True
        False (0) makes the force zero (keyword only).
    allow_negative : bool, default False
        Accept a negative stiffness or damping (keyword only), as for :class:`CartesianSpringDamper`.
    """

    type_name = "CoordinateSpringDamper"
    output_variables = ("Force", "Displacement", "Velocity")
    marker_kinds = ("coordinates",)

    def __init__(self, marker_numbers, stiffness, damping=0.0, offset=0.0, name="", *, force_user_function=None,
                 active=True, allow_negative=False):
        super().__init__(marker_numbers, name)
        self.stiffness = self.vector(stiffness, 1, "stiffness", symbolic=True)
        self.damping = self.vector(damping, 1, "damping", symbolic=True)
        for what in ("stiffness", "damping"):
            _check_non_negative(self, getattr(self, what), what, allow_negative)
        self.offset = self.vector(offset, 1, "offset", symbolic=True)
        self.force_user_function = ConnectorUserFunction(self, force_user_function)
        self.active = _active_flag(self, active)

    def add_terms(self, ctx):
        q0, q1 = (marker.coordinates(ctx) for marker in self.markers)
        for k, q in enumerate((q0, q1)):
            if q.numel() != 1:
                raise self.error(f"marker_numbers[{k}] ({self.markers[k].label}) must give one coordinate, "
                                 f"gives {q.numel()}")
        ctx.add_force(np.arange(ctx.q.numel()), ca.jtimes(q0 - q1, ctx.q, self.force(ctx), True))  # f d(q0 - q1)

    def force(self, ctx):
        q0, q1 = (marker.coordinates(ctx) for marker in self.markers)
        if self.force_user_function:
            force = self.force_user_function.force(ctx, [q1 - q0, ctx.time_derivative(q1 - q0)], 1)
        else:
            force = (ctx.value(self.stiffness) * (q1 - q0 - ctx.value(self.offset))
                     + ctx.value(self.damping) * ctx.time_derivative(q1 - q0))
        return ctx.value(self.active) * force

    def output(self, ctx, variable):
        q0, q1 = (marker.coordinates(ctx) for marker in self.markers)
        outputs = {"Force": lambda: self.force(ctx), "Displacement": lambda: q1 - q0,
                   "Velocity": lambda: ctx.time_derivative(q1 - q0)}
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
        return outputs[variable]()


class SpringDamper(Connector):
    """Spring-damper along the line between two points (Exudyn ObjectConnectorSpringDamper).

    With dp = x1 - x0, L = |dp|, the direction v_f = dp / L and L_t = v_f . (v1 - v0), the scalar force

        f_SD = k (L - L0) + d (L_t - L0_t) + f_a    [N]  (tension positive)

    acts as +f_SD v_f on marker 0 and -f_SD v_f on marker 1. ``stiffness`` k [N/m], ``damping`` d [N s/m],
    ``force`` f_a [N], ``reference_length`` L0 [m], ``velocity_offset`` L0_t [m/s]. The markers must not
    coincide (v_f is undefined at L = 0).

    ``force_user_function(t, elongation, elongation_rate) -> f_SD`` replaces the formula; it gets
    L - L0 [m] and L_t - L0_t [m/s] (floats, or symbols while it is traced).

    Outputs: Distance L, Displacement dp, Velocity v1 - v0, Force f_SD v_f (global), ForceLocal f_SD.
    ``active`` False (Exudyn's activeConnector; 0/1 or a Parameter of it) makes f_SD zero.

    Parameters
    ----------
    marker_numbers : sequence of two position or rigid markers
        Marker 0 and marker 1; they must not coincide.
    stiffness : float or Parameter, N/m
        k >= 0.
    damping : float or Parameter, N s/m, default 0.0
        d >= 0.
    force : float or Parameter, N, default 0.0
        f_a, a constant force added along the line (tension positive).
    reference_length : float or Parameter, m, default 0.0
        L0 >= 0.
    force_user_function : callable or None, default None
        f(t, elongation, elongation_rate) -> f_SD in N; replaces the formula.
    velocity_offset : float or Parameter, m/s, default 0.0
        L0_t (keyword only).
    active : bool, 0/1 or Parameter, default True
        False (0) makes f_SD zero (keyword only).
    """

    type_name = "SpringDamper"
    output_variables = ("Distance", "Displacement", "Velocity", "Force", "ForceLocal")

    def __init__(self, marker_numbers, stiffness, damping=0.0, force=0.0, reference_length=0.0,
                 force_user_function=None, name="", *, velocity_offset=0.0, active=True):
        super().__init__(marker_numbers, name)
        self.stiffness = self.vector(stiffness, 1, "stiffness", symbolic=True)
        self.damping = self.vector(damping, 1, "damping", symbolic=True)
        self.force_value = self.vector(force, 1, "force", symbolic=True)
        self.reference_length = self.vector(reference_length, 1, "reference_length", symbolic=True)
        self.velocity_offset = self.vector(velocity_offset, 1, "velocity_offset", symbolic=True)
        for what in ("stiffness", "damping", "reference_length"):
            _check_non_negative(self, getattr(self, what), what)
        self.force_user_function = ConnectorUserFunction(self, force_user_function)
        self.active = _active_flag(self, active)

    def kinematics(self, ctx):
        x0, x1 = (m.position(ctx) for m in self.markers)
        difference = x1 - x0
        length = ca.norm_2(difference)
        return difference, length, difference / length, relative_velocity(ctx, self.markers, difference)

    def scalar_force(self, ctx):
        _, length, direction, velocity = self.kinematics(ctx)
        elongation = length - ctx.value(self.reference_length)                    # L - L0
        rate = ca.dot(direction, velocity) - ctx.value(self.velocity_offset)       # L_t - L0_t
        if self.force_user_function:
            force = self.force_user_function.force(ctx, [elongation, rate], 1)
        else:
            force = (ctx.value(self.stiffness) * elongation + ctx.value(self.damping) * rate
                     + ctx.value(self.force_value))
        return ctx.value(self.active) * force

    def add_terms(self, ctx):
        force = self.scalar_force(ctx) * self.kinematics(ctx)[2]                   # f_SD v_f
        self.markers[0].apply_force(ctx, force)
        self.markers[1].apply_force(ctx, -force)

    def output(self, ctx, variable):
        difference, length, direction, velocity = self.kinematics(ctx)
        outputs = {"Distance": lambda: length, "Displacement": lambda: difference, "Velocity": lambda: velocity,
                   "Force": lambda: self.scalar_force(ctx) * direction, "ForceLocal": lambda: self.scalar_force(ctx)}
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
        return outputs[variable]()


class RigidBodySpringDamper(_JointFrameMixin, Connector):
    """6-DOF spring-damper between two rigid markers (Exudyn ObjectConnectorRigidBodySpringDamper).

    With the joint frames J0 = A_m0 rotation_marker0 and J1 = A_m1 rotation_marker1, Exudyn's default
    formulation (``intrinsic=False``) measures in J = J0:

        u   = [J0^T (x1 - x0), rot_xyz(J0^T J1)]              (rotation: Tait-Bryan x-y-z angles [rad])

    the intrinsic one (``intrinsic=True``, Exudyn's useIntrinsicFormulation) takes the SE(3) logarithm of
    the relative frame and measures in the mid frame J = J0 exp(w/2):

        w = log(J0^T J1) (rotation vector, |w| < pi),  u = [T^-1(w)^T J0^T (x1 - x0), w]

    (T the tangent operator of the exponential map). In both

        u_t = [J^T (v1 - v0), J^T (omega1 - omega0)]          (the angular velocity, not d/dt of the angles)
        [f; m] = K (u - offset) + D u_t                       (J coordinates, N and N m)

    The global force J f acts on marker 0 and -J f on marker 1 (at their points), the global torque J m
    likewise; the intrinsic formulation gives both markers the further torque -r x (J f) with
    r = -J d / 2 (d the first three entries of u), Exudyn's lever of the force about the mid point. The
    torque is not the work conjugate of the angles, so the rotational spring is conservative only for
    small relative rotations (as in Exudyn). ``stiffness`` K and ``damping`` D (6x6) must be symmetric
    positive semi-definite (Exudyn accepts any 6x6 matrix; a non-symmetric one is refused here).

    ``force_user_function(t, displacement, rotation, velocity, angular_velocity) -> [f, m]`` (6 values)
    replaces the formula; the arguments are the four 3-vectors of u and u_t above (offset not subtracted).

    Outputs (J coordinates): DisplacementLocal, VelocityLocal, Rotation, AngularVelocityLocal, ForceLocal,
    TorqueLocal. ``active`` False (Exudyn's activeConnector; 0/1 or a Parameter of it) removes the force
    and torque from the bodies; ForceLocal and TorqueLocal still give K (u - offset) + D u_t, as Exudyn's.

    Parameters
    ----------
    marker_numbers : sequence of two rigid markers
        Marker 0 and marker 1.
    stiffness : (6, 6) array_like
        K, symmetric positive semidefinite; rows [force (N), torque (N m)] against columns [displacement (m),
        rotation (rad)].
    damping : (6, 6) array_like or None, default None
        D, symmetric positive semidefinite, in the units of K per second; None: zero.
    rotation_marker0 : (3, 3) array_like, rotation matrix (R^T R = I, det R = 1), default identity
        Joint frame to marker 0's frame.
    rotation_marker1 : (3, 3) array_like, rotation matrix (R^T R = I, det R = 1), default identity
        Joint frame to marker 1's frame.
    offset : (6,) array_like or Parameter, [m, m, m, rad, rad, rad], default zeros
        Unstressed value of u.
    force_user_function : callable or None, default None
        f(t, displacement, rotation, velocity, angular_velocity) -> (6,) [f (N), m (N m)]; replaces the formula.
    intrinsic : bool, default False
        Use the intrinsic (SE(3) logarithm) formulation (keyword only).
    active : bool, 0/1 or Parameter, default True
        False (0) removes force and torque from the bodies (keyword only).
    """

    type_name = "RigidBodySpringDamper"
    output_variables = ("DisplacementLocal", "VelocityLocal", "Rotation", "AngularVelocityLocal", "ForceLocal",
                        "TorqueLocal")

    def __init__(self, marker_numbers, stiffness, damping=None, rotation_marker0=np.eye(3),
                 rotation_marker1=np.eye(3), offset=(0.0,) * 6, force_user_function=None, name="", *,
                 intrinsic=False, active=True):
        super().__init__(marker_numbers, name)
        self.stiffness = self.matrix(stiffness, (6, 6), "stiffness")
        self.damping = np.zeros((6, 6)) if damping is None else self.matrix(damping, (6, 6), "damping")
        for what in ("stiffness", "damping"):
            _check_symmetric_semidefinite(self, getattr(self, what), what)
        self.offset = self.vector(offset, 6, "offset", symbolic=True)
        self.intrinsic = bool(intrinsic)
        self._set_joint_rotations(rotation_marker0, rotation_marker1)
        self.force_user_function = ConnectorUserFunction(self, force_user_function)
        self.active = _active_flag(self, active)

    def relative_motion(self, ctx):
        """(J, displacement, rotation, velocity, angular velocity), the vectors in J coordinates."""
        joint0, joint1 = self.joint_frames(ctx)
        x0, x1 = (m.position(ctx) for m in self.markers)
        if self.intrinsic:
            rotation = rotation_log(joint0.T @ joint1)                                   # w = log(J0^T J1)
            displacement = tangent_exp_inverse(rotation).T @ (joint0.T @ (x1 - x0))
            joint = joint0 @ rotations.rotation_matrix_from_rotation_vector(0.5 * rotation)  # mid frame
        else:
            joint = joint0
            displacement = joint0.T @ (x1 - x0)
            rotation = rotations.rot_xyz_from_rotation_matrix(joint0.T @ joint1)
        velocity = joint.T @ relative_velocity(ctx, self.markers, x1 - x0)
        return joint, displacement, rotation, velocity, self.relative_angular_velocity(ctx, joint)

    def force_torque(self, ctx):
        """[f; m], J coordinates (6,)."""
        _, displacement, rotation, velocity, angular_velocity = self.relative_motion(ctx)
        if self.force_user_function:
            return self.force_user_function.force(ctx, [displacement, rotation, velocity, angular_velocity], 6)
        u = ca.vertcat(displacement, rotation) - ctx.value(self.offset)
        return ca.DM(self.stiffness) @ u + ca.DM(self.damping) @ ca.vertcat(velocity, angular_velocity)

    def add_terms(self, ctx):
        joint, displacement = self.relative_motion(ctx)[:2]
        local = ctx.value(self.active) * self.force_torque(ctx)
        force, torque = joint @ local[:3], joint @ local[3:]
        # intrinsic: the lever of the force about the mid point, the same on both markers (Exudyn's)
        lever = ca.cross(joint @ (-0.5 * displacement), force) if self.intrinsic else ca.DM.zeros(3)
        self.markers[0].apply_force(ctx, force)
        self.markers[1].apply_force(ctx, -force)
        self.markers[0].apply_torque(ctx, torque - lever)
        self.markers[1].apply_torque(ctx, -torque - lever)

    def output(self, ctx, variable):
        _, displacement, rotation, velocity, angular_velocity = self.relative_motion(ctx)
        outputs = {"DisplacementLocal": lambda: displacement, "VelocityLocal": lambda: velocity,
                   "Rotation": lambda: rotation, "AngularVelocityLocal": lambda: angular_velocity,
                   "ForceLocal": lambda: self.force_torque(ctx)[:3], "TorqueLocal": lambda: self.force_torque(ctx)[3:]}
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
        return outputs[variable]()


class TorsionalSpringDamper(TurnCounting, _JointFrameMixin, Connector):
    """Torsional spring-damper about the joint z axis between two rigid markers (Exudyn
    ObjectConnectorTorsionalSpringDamper).

    With J0 = A_m0 rotation_marker0, J1 = A_m1 rotation_marker1, the angle phi = the third Tait-Bryan
    x-y-z angle of J0^T J1 (in (-pi, pi]: atan2(-R01, R00)) and omega_z = e_z . J0^T (omega1 - omega0):

        tau = k (phi - offset) + d (omega_z - velocity_offset) + torque    [N m]

    acts as the global torque J0 e_z tau on marker 0 and -J0 e_z tau on marker 1. ``stiffness`` k
    [N m/rad] and ``damping`` d [N m s/rad] >= 0. Beyond +-pi this angle jumps by 2 pi.

    ``turn_node`` (a NodeGenericODE2 with one coordinate p, no mass) makes the angle continuous over any
    number of turns, the role of Exudyn's data node (``nodeNumber``): phi_c = p + wrap(phi - p), with
    wrap(x) = atan2(sin x, cos x) in (-pi, pi], and p follows phi_c through the constraint wrap(phi - p) = 0
    (its multiplier is zero: it exerts nothing). Newton starts each step from the last p, so the turns are
    counted while the angle changes by less than pi per step, as in Exudyn, which updates its data node
    after each step. The node's initial coordinate picks the turn at the start (phi_c(0) is the angle
    nearest to it); at assembly p and its rate start at phi_c(0) and d phi / dt (consistent initial values:
    with a wrong start rate the rates of the massless p would oscillate without decay under the undamped
    generalized-alpha scheme, rho = 1, and its predictor could jump a turn).

    ``force_user_function(t, rotation, angular_velocity) -> tau`` replaces the formula (phi, omega_z).
    ``torque`` [N m] may be a Parameter or an :class:`~floatframe.parameters.Input`: with k = d = 0 the
    connector is a motor in the joint, +tau on marker 0 and -tau on marker 1 (a drive torque for optimal
    control, ``floatframe.ocp.arm``).

    Outputs: Rotation phi, AngularVelocityLocal omega_z, TorqueLocal tau. ``active`` False (Exudyn's
    activeConnector; 0/1 or a Parameter of it) removes the torque from the bodies; TorqueLocal still gives
    tau, as Exudyn's.

    Parameters
    ----------
    marker_numbers : sequence of two rigid markers
        Marker 0 and marker 1.
    stiffness : float or Parameter, N m/rad
        k >= 0.
    damping : float or Parameter, N m s/rad, default 0.0
        d >= 0.
    rotation_marker0 : (3, 3) array_like, rotation matrix (R^T R = I, det R = 1), default identity
        Joint frame to marker 0's frame.
    rotation_marker1 : (3, 3) array_like, rotation matrix (R^T R = I, det R = 1), default identity
        Joint frame to marker 1's frame.
    offset : float or Parameter, rad, default 0.0
        Unstressed angle.
    velocity_offset : float or Parameter, rad/s, default 0.0
        Rate at which the damper exerts no torque.
    torque : float, Parameter or Input, N m, default 0.0
        Torque added to the spring and damper torque (a motor torque with k = d = 0).
    force_user_function : callable or None, default None
        f(t, rotation, angular_velocity) -> tau in N m; replaces the formula.
    active : bool, 0/1 or Parameter, default True
        False (0) removes the torque from the bodies (keyword only).
    turn_node : NodeGenericODE2 with one coordinate, int or None, default None
        Counts the turns, so that the angle is continuous beyond +-pi (keyword only); it adds one constraint.
    """

    type_name = "TorsionalSpringDamper"
    output_variables = ("Rotation", "AngularVelocityLocal", "TorqueLocal")

    def __init__(self, marker_numbers, stiffness, damping=0.0, rotation_marker0=np.eye(3), rotation_marker1=np.eye(3),
                 offset=0.0, velocity_offset=0.0, torque=0.0, force_user_function=None, name="", *, active=True,
                 turn_node=None):
        super().__init__(marker_numbers, name)
        self._set_turn_node(turn_node)
        self.n_constraints = 0 if turn_node is None else 1
        self.stiffness = self.vector(stiffness, 1, "stiffness", symbolic=True)
        self.damping = self.vector(damping, 1, "damping", symbolic=True)
        for what in ("stiffness", "damping"):
            _check_non_negative(self, getattr(self, what), what)
        self.offset = self.vector(offset, 1, "offset", symbolic=True)
        self.velocity_offset = self.vector(velocity_offset, 1, "velocity_offset", symbolic=True)
        self.torque = self.vector(torque, 1, "torque", symbolic="input")
        self._set_joint_rotations(rotation_marker0, rotation_marker1)
        self.force_user_function = ConnectorUserFunction(self, force_user_function)
        self.active = _active_flag(self, active)

    def connect(self, system):
        super().connect(system)
        self._connect_turn_node(system)

    def check(self, assembled):
        """Consistent start values of the turn node (:class:`~floatframe.components.joints.TurnCounting`)."""
        self._set_turn_start_values(assembled)

    def relative_rotation(self, ctx):
        """(J0, phi (continuous phi_c with a turn node), omega_z); where a marker is on a node in Exudyn's unit form,
        omega_z = e_z . J0^T (A_E1 omega_b1 - A_E0 omega_b0) as Exudyn's (``joints.exudyn_angular_velocity``; equal
        where the Euler parameters have unit norm)."""
        joint0, angle = self.continuous_angle(ctx)
        if any(getattr(getattr(m, "body", getattr(m, "node", None)), "unit_form", False) for m in self.markers):
            omega0, omega1 = (exudyn_angular_velocity(ctx, m) for m in self.markers)
            return joint0, angle, ca.dot(joint0[:, 2], omega1 - omega0)
        return joint0, angle, self.relative_angular_velocity(ctx, joint0)[2]

    def scalar_torque(self, ctx):
        _, angle, rate = self.relative_rotation(ctx)
        if self.force_user_function:
            return self.force_user_function.force(ctx, [angle, rate], 1)
        return (ctx.value(self.stiffness) * (angle - ctx.value(self.offset))
                + ctx.value(self.damping) * (rate - ctx.value(self.velocity_offset)) + ctx.value(self.torque))

    def add_terms(self, ctx):
        joint0 = self.relative_rotation(ctx)[0]
        torque = joint0[:, 2] * (ctx.value(self.active) * self.scalar_torque(ctx))  # J0 e_z tau
        self.markers[0].apply_torque(ctx, torque)
        self.markers[1].apply_torque(ctx, -torque)
        if self.turn_node is not None:
            ctx.add_constraint(self, self.turn_equation(ctx))                      # wrap(phi - p) = 0

    def output(self, ctx, variable):
        _, angle, rate = self.relative_rotation(ctx)
        outputs = {"Rotation": lambda: angle, "AngularVelocityLocal": lambda: rate,
                   "TorqueLocal": lambda: self.scalar_torque(ctx)}
        if variable not in outputs:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(outputs)}")
        return outputs[variable]()
