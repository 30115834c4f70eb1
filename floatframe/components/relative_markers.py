"""The relative translation and rotation of two body frames along or about an axis of the first, as one coordinate
(Exudyn's MarkerBodiesRelativeTranslationCoordinate and MarkerBodiesRelativeRotationCoordinate), for a
:class:`~floatframe.components.constraints.CoordinateConstraint`.

Both markers stand on two rigid frames: frame 0 with rotation A0, point p0 and angular velocity omega_0, frame 1
with A1, p1, omega_1 (rigid markers, e.g. MarkerBodyRigid at a point of each body). ``axis0`` a0 is given in frame
0; g = A0 a0 is it in global coordinates (as Exudyn, a0 is not normalised in g).

Translation: value u = g . (p1 - p0) - offset [m]; its rate is du/dt; its Jacobian, through which a constraint's
reactions act, is Exudyn's g . (J1 - J0) (J_i = dp_i/dq): it leaves out the term (p1 - p0) . dg/dq of the turning
axis, so it is the derivative of u only where frame 0 does not turn or the points coincide.

Rotation: value phi = atan2(z . R y, y . R y) - offset [rad], R = A0^T A1, (a0/|a0|, y, z) the orthonormal basis
that Exudyn builds from a0 (``orthogonal_basis``): the angle of the relative rotation about a0. Its rate and
its Jacobian are Exudyn's g . (omega_1 - omega_0), which is d phi/dt where the relative rotation is about a0 only
(as in a revolute joint about a0) and |a0| = 1. With a turn node (Exudyn's NodeGenericData, here a massless
NodeGenericODE2 with one coordinate) phi is continuous over any number of turns: a :class:`RelativeRotationTurns`
object, which the marker adds to the system it joins, keeps the node on the angle (``TurnCounting`` of the joints).
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe.components.base import resolve
from floatframe.components.connectors import Connector
from floatframe.components.joints import TurnCounting
from floatframe.components.markers import Marker
from floatframe.errors import ModelError


def orthogonal_basis(axis) -> tuple[np.ndarray, np.ndarray]:
    """(y, z): unit vectors normal to ``axis`` (3,) and to each other, with (axis, y, z) right-handed, chosen as
    Exudyn chooses them: y from global x (global y where the axis is near global x) without its part along the
    axis. An axis of zero length gives global x and y."""
    axis = np.asarray(axis, dtype=float)
    length = np.linalg.norm(axis)
    if length == 0.0:
        return np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])
    unit = axis / length
    near_x = abs(unit[0]) > 0.5 and abs(unit[1]) < 0.1 and abs(unit[2]) < 0.1
    normal = np.array([0.0, 1.0, 0.0]) if near_x else np.array([1.0, 0.0, 0.0])
    normal = normal - (normal @ unit) * unit
    normal /= np.linalg.norm(normal)
    return normal, np.cross(unit, normal)


class _BodiesRelativeCoordinate(Marker):
    """What both relative markers share: the two frames, the axis, the offset, the outputs."""

    kind = "coordinates"
    output_variables = ("Coordinates", "Coordinates_t")
    jacobian_is_derivative = False   # a CoordinateConstraint takes the reactions through ``jacobian_rate``

    def __init__(self, frame_markers, axis0=(1.0, 0.0, 0.0), offset=0.0, name=""):
        super().__init__(name)
        if len(frame_markers) != 2:
            raise self.error(f"frame_markers must hold 2 rigid markers, got {len(frame_markers)}")
        self.frame_markers = list(frame_markers)
        self.axis0 = self.vector(axis0, 3, "axis0")
        self.offset = float(self.vector(offset, 1, "offset")[0])
        self.coordinate = 0          # a single coordinate: CoordinateConstraint takes it

    def connect(self, system):
        self.frames = []
        for i, marker in enumerate(self.frame_markers):
            if isinstance(marker, Marker) and marker.owner is None:   # a frame of its own, not in the system
                try:
                    marker.connect(system)
                except ModelError as exc:
                    raise self.error(f"frame_markers[{i}]: {exc}") from None
                frame = marker
            else:
                frame = resolve(system, "marker", marker, self, f"frame_markers[{i}]")
            if frame.kind != "rigid":
                raise self.error(f"frame_markers[{i}] ({frame.label}) must be a rigid marker (a frame)")
            self.frames.append(frame)

    def axis_global(self, ctx):
        """g = A0 a0 (3,), the axis in global coordinates."""
        return self.frames[0].rotation_matrix(ctx) @ ca.DM(self.axis0)

    def rate(self, ctx):
        """The rate of the coordinate as Exudyn's marker gives it (Coordinates_t)."""
        return ctx.time_derivative(self.coordinates(ctx))

    def output(self, ctx, variable: str):
        """Coordinates: the value (offset subtracted); Coordinates_t: its rate as Exudyn's (``rate``)."""
        self.check_output(variable)
        return self.coordinates(ctx) if variable == "Coordinates" else self.rate(ctx)


class MarkerBodiesRelativeTranslationCoordinate(_BodiesRelativeCoordinate):
    """u = g . (p1 - p0) - offset [m], the translation of frame 1's point relative to frame 0's along frame 0's
    axis a0, g = A0 a0 (Exudyn's MarkerBodiesRelativeTranslationCoordinate). A CoordinateConstraint's reactions
    act through g . (J1 - J0) (the axis held; see the module).

    Parameters
    ----------
    frame_markers : sequence of two rigid markers
        Frame 0 and frame 1 (p_i: their points, A0: frame 0's rotation): markers of the system (items or
        numbers) or rigid markers not added to any system (e.g. MarkerBodyRigid at a point of each body), which
        this marker connects itself.
    axis0 : (3,) array_like, default (1, 0, 0)
        a0, in frame 0 (not normalised).
    offset : float, m, default 0.0
        Subtracted from the value.
    """

    type_name = "MarkerBodiesRelativeTranslationCoordinate"

    def _positions(self, ctx):
        return [frame.position(ctx) for frame in self.frames]

    def coordinates(self, ctx):
        position0, position1 = self._positions(ctx)
        return ca.dot(self.axis_global(ctx), position1 - position0) - self.offset

    def jacobian_rate(self, ctx):
        """g . (J1 - J0) v [m/s]: the rate with the axis held, linear in v (Exudyn's Jacobian)."""
        position0, position1 = self._positions(ctx)
        return ca.dot(self.axis_global(ctx), ca.jtimes(position1 - position0, ctx.q, ctx.v))


class MarkerBodiesRelativeRotationCoordinate(_BodiesRelativeCoordinate):
    """phi [rad], the angle of frame 1's rotation relative to frame 0 about frame 0's axis a0, minus ``offset``
    (Exudyn's MarkerBodiesRelativeRotationCoordinate); rate and Jacobian g . (omega_1 - omega_0), g = A0 a0 (see
    the module). In (-pi, pi] without a turn node; with one, continuous over turns.

    Parameters
    ----------
    frame_markers : sequence of two rigid markers
        Frame 0 and frame 1, as for MarkerBodiesRelativeTranslationCoordinate (only their rotations enter).
    axis0 : (3,) array_like, default (1, 0, 0)
        a0, in frame 0.
    offset : float, rad, default 0.0
        Subtracted from the angle (before the turns are counted, as in Exudyn).
    turn_node : NodeGenericODE2 with one coordinate, int or None, default None
        Counts the turns (keyword only): a massless node whose coordinate follows the angle; its initial
        coordinate picks the turn at the start (the angle nearest to it). Joining a system, the marker adds a
        :class:`RelativeRotationTurns` object with the node's constraint to it.
    """

    type_name = "MarkerBodiesRelativeRotationCoordinate"

    def __init__(self, frame_markers, axis0=(1.0, 0.0, 0.0), offset=0.0, name="", *, turn_node=None):
        super().__init__(frame_markers, axis0, offset, name)
        self.basis = orthogonal_basis(self.axis0)
        self.turn_node_number = turn_node
        self.turns = None

    def companions(self) -> list:
        """The turn counter's object, which joins the system with the marker (none without a turn node)."""
        if self.turn_node_number is None:
            return []
        self.turns = RelativeRotationTurns(self, self.turn_node_number, name=f"{self.label} turns")
        return [self.turns]

    def principal_angle(self, ctx):
        """atan2(z . R y, y . R y) - offset [rad], R = A0^T A1: the angle before the turns are counted."""
        relative = self.frames[0].rotation_matrix(ctx).T @ self.frames[1].rotation_matrix(ctx)
        y, z = (ca.DM(vector) for vector in self.basis)
        return ca.atan2(ca.dot(z, relative @ y), ca.dot(y, relative @ y)) - self.offset

    def coordinates(self, ctx):
        if self.turns is None:
            return self.principal_angle(ctx)
        return self.turns.continuous_angle(ctx)[1]

    def jacobian_rate(self, ctx):
        """g . (omega_1 - omega_0) [rad/s] with the frames' Jacobian angular velocities (Exudyn's Jacobian)."""
        omega0, omega1 = (frame.jacobian_angular_velocity(ctx) for frame in self.frames)
        return ca.dot(self.axis_global(ctx), omega1 - omega0)

    def rate(self, ctx):
        """g . (omega_1 - omega_0) [rad/s], Exudyn's rate of the angle."""
        omega0, omega1 = (frame.angular_velocity(ctx) for frame in self.frames)
        return ca.dot(self.axis_global(ctx), omega1 - omega0)


class RelativeRotationTurns(TurnCounting, Connector):
    """The turn counter of a MarkerBodiesRelativeRotationCoordinate: one constraint, wrap(phi - p) = 0, that keeps
    the turn node's coordinate p on the marker's angle and exerts nothing (``TurnCounting``). The marker adds it
    to the system it joins; it is not made by hand.

    Parameters
    ----------
    marker : MarkerBodiesRelativeRotationCoordinate
        The marker whose turns it counts.
    turn_node : NodeGenericODE2 with one coordinate or int
        The turn node.
    """

    type_name = "RelativeRotationTurns"
    n_constraints = 1

    def __init__(self, marker, turn_node, name=""):
        super().__init__([marker, marker], name)
        self.marker = marker
        self._set_turn_node(turn_node)

    def connect(self, system):
        self._connect_turn_node(system)

    def principal_angle(self, ctx):
        """(None, the marker's angle before the turns are counted)."""
        return None, self.marker.principal_angle(ctx)

    def add_terms(self, ctx):
        ctx.add_constraint(self, self.turn_equation(ctx))

    def check(self, assembled):
        self._set_turn_start_values(assembled)


__all__ = ["MarkerBodiesRelativeTranslationCoordinate", "MarkerBodiesRelativeRotationCoordinate",
           "RelativeRotationTurns", "orthogonal_basis"]
