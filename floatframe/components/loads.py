"""Loads on markers: a force vector, a torque vector, a load on one coordinate, a mass-proportional load;
and Gravity, the mass-proportional load on every body of the system.

The value (``load_vector`` of a force or torque, ``load`` of a coordinate load, as in Exudyn) is kept
as ``load``.

Each takes a constant value, a function of time ``f(t)``, a :class:`Parameter` or an :class:`Input`
signal u(t). A function built from arithmetic and CasADi/NumPy functions is traced symbolically; any
other callable is called numerically.
"""
from __future__ import annotations

import numpy as np

from floatframe.components.base import Component, resolve
from floatframe.components.external import NumericCallback, symbolic_or_callback
from floatframe.parameters import Input, Parameter


class Load(Component):
    """Base of the loads: a value (constant, f(t), Parameter or Input) applied through a marker.

    Parameters
    ----------
    marker_number : marker or int
        The marker the load acts on (item or number); its kind is stated above.
    body_fixed : bool, default False
        The value is given in the marker's frame (rigid markers only), else globally.
    """

    family = "load"
    size = 3
    marker_kinds = ("position", "rigid")
    value_name = "load_vector"  # the parameter's name in messages

    def __init__(self, marker_number, load, body_fixed=False, name=""):
        super().__init__(name)
        self.marker_number = marker_number
        self.body_fixed = bool(body_fixed)
        if callable(load) and not isinstance(load, (Parameter, Input)):
            self.load = load
        else:
            self.load = self.vector(load, self.size, self.value_name, symbolic="input")

    def connect(self, system):
        self.marker = resolve(system, "marker", self.marker_number, self, "marker_number")
        if self.marker.kind not in self.marker_kinds:
            raise self.error(f"marker_number ({self.marker.label}) must be a {' or '.join(self.marker_kinds)} marker")
        if self.body_fixed and self.marker.kind != "rigid":
            raise self.error("body_fixed loads need a rigid-body marker")
        self.check_function()

    def check_function(self):
        """Call a load function once at t = 0: a wrong size is reported now."""
        if self.is_function:
            trial = np.asarray(self.load(0.0), dtype=float).reshape(-1)
            if trial.size != self.size:
                raise self.error(f"load function returned {trial.size} values at t = 0, expected {self.size}")

    @property
    def is_function(self) -> bool:
        return callable(self.load) and not isinstance(self.load, (Parameter, Input))

    def value(self, ctx):
        """The load vector at the symbolic time, global (a body-fixed load turned by its marker's rotation)."""
        value = self.given_value(ctx)
        return self.marker.rotation_matrix(ctx) @ value if self.body_fixed else value

    def given_value(self, ctx):
        """The load as given (size ``size``): constant, Parameter, Input or function of t, in body axes for a
        body-fixed load; what a SensorLoad records."""
        if not self.is_function:
            value = ctx.value(self.load)
        else:
            value = symbolic_or_callback(self.load, ctx.t, self.size, "load function", self)
            if value is None:
                callback = NumericCallback(f"{self.type_name}{self.index}", lambda t: self.load(float(t[0])),
                                           [1], (self.size, 1))
                self._callback = callback
                value = ctx.external(callback, [ctx.t])
        return value


class LoadForceVector(Load):
    """Force ``load_vector`` [N] at a position or rigid marker (global, or body-fixed with ``body_fixed``).

    Parameters
    ----------
    marker_number : position or rigid marker, or int
        Where the force acts.
    load_vector : (3,) array_like, f(t), Parameter or Input, N
        The force.
    """

    type_name = "LoadForceVector"

    def __init__(self, marker_number, load_vector, body_fixed=False, name=""):
        super().__init__(marker_number, load_vector, body_fixed, name)

    def add_terms(self, ctx):
        self.marker.apply_force(ctx, self.value(ctx))


class LoadTorqueVector(Load):
    """Torque ``load_vector`` [N m] on a rigid marker (global, or body-fixed with ``body_fixed``).

    Parameters
    ----------
    marker_number : rigid marker or int
        The frame the torque acts on.
    load_vector : (3,) array_like, f(t), Parameter or Input, N m
        The torque.
    """

    type_name = "LoadTorqueVector"
    marker_kinds = ("rigid",)

    def __init__(self, marker_number, load_vector, body_fixed=False, name=""):
        super().__init__(marker_number, load_vector, body_fixed, name)

    def add_terms(self, ctx):
        self.marker.apply_torque(ctx, self.value(ctx))


class LoadCoordinate(Load):
    """Generalized force ``load`` on the single coordinate of a MarkerNodeCoordinate.

    Parameters
    ----------
    marker_number : MarkerNodeCoordinate or int
        The coordinate the load acts on.
    load : float, f(t), Parameter or Input
        Generalized force conjugate to the coordinate (N for a coordinate in m, N m for one in rad).
    """

    type_name = "LoadCoordinate"
    size = 1
    marker_kinds = ("coordinates",)
    value_name = "load"

    def __init__(self, marker_number, load, name=""):
        super().__init__(marker_number, load, name=name)

    def connect(self, system):
        super().connect(system)
        if not hasattr(self.marker, "coordinate"):
            raise self.error(f"marker_number ({self.marker.label}) must be a single-coordinate marker")

    def add_terms(self, ctx):
        node = self.marker.node
        if node.n_coordinates:
            ctx.add_force(node.coordinate_indices[[int(self.marker.coordinate)]], self.value(ctx))


class LoadMassProportional(Load):
    """A body force per unit mass ``load_vector`` [m/s^2] (global), e.g. gravity (0, 0, -9.81), on the body
    of a MarkerBodyMass: every mass element gets rho g, in the body's generalized forces.

    Parameters
    ----------
    marker_number : MarkerBodyMass or int
        The body.
    load_vector : (3,) array_like, f(t), Parameter or Input, m/s^2
        Acceleration of the body force, global.
    """

    type_name = "LoadMassProportional"
    marker_kinds = ("body mass",)

    def __init__(self, marker_number, load_vector, name=""):
        super().__init__(marker_number, load_vector, False, name)

    def add_terms(self, ctx):
        self.marker.apply_mass_proportional_load(ctx, self.value(ctx))


def has_mass(body) -> bool:
    """Whether an object carries mass: a ``mass`` that is not zero (a Parameter counts), or an FFRF body."""
    from floatframe.components.ffrf import FloatingFrameBody

    if isinstance(body, FloatingFrameBody):
        return True
    mass = getattr(body, "mass", None)
    if mass is None:
        return False
    return isinstance(mass, (Parameter, Input)) or bool(np.any(np.asarray(mass, dtype=float) != 0))


class Gravity(Load):
    """A body force per unit mass ``acceleration`` [m/s^2] (global) on every body of the system that has mass
    (Modelica's World): the same terms as a LoadMassProportional on a MarkerBodyMass of each (rigid bodies at
    their centre of mass, mass points, ObjectMass1D, ObjectFFRF, ObjectFFRFReducedOrder). A constant, f(t) or a
    Parameter, like ``load_vector`` of the other loads. An object with mass that cannot take it is an error.

    Parameters
    ----------
    acceleration : (3,) array_like, f(t) or Parameter, m/s^2, default (0, 0, -9.81)
        Acceleration of gravity, global.
    """

    type_name = "Gravity"
    value_name = "acceleration"

    def __init__(self, acceleration=(0.0, 0.0, -9.81), name=""):
        super().__init__(None, acceleration, False, name)

    def connect(self, system):
        self.bodies = [body for body in system.objects if hasattr(body, "add_mass_proportional_load")]
        refused = [body.label for body in system.objects
                   if not hasattr(body, "add_mass_proportional_load") and has_mass(body)]
        if refused:
            raise self.error(f"cannot act on {', '.join(refused)}: it has mass but no mass-proportional load")
        self.check_function()

    def add_terms(self, ctx):
        if self.bodies:
            acceleration = self.value(ctx)
            for body in self.bodies:
                body.add_mass_proportional_load(ctx, acceleration)
