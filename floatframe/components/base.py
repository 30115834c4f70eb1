"""What every component shares: validation helpers and the symbolic context.

A component is a small class holding validated parameters. Nodes own ODE2 coordinates; objects,
connectors and loads add terms to the residual through a :class:`Context`, which hands out the
symbolic coordinates of the nodes they reference and collects their residual terms. Markers and
sensors are evaluated on the same context.

Residual sign convention (the same for every component):

    R(q, v, a, lambda, t) = M(q) a + (terms of D, K, quadratic velocity) - f(q, v, t) + C_q^T lambda = 0
    C(q, t) = 0

so mass, stiffness and damping terms are *added* with ``add_lhs``, applied forces with ``add_force``.
"""
from __future__ import annotations

import difflib
import functools
import inspect
from dataclasses import dataclass, field

import casadi as ca
import numpy as np

from floatframe.errors import ModelError
from floatframe.parameters import Input, Parameter


class UnknownKeywordError(TypeError):
    """A function or component was called with a keyword it does not take; the message names the function the
    user called, the keyword and the nearest valid keywords."""


def _keywords(function) -> tuple[set, bool]:
    """(the names ``function`` takes as keywords, whether it takes any keyword: ``**kwargs``)."""
    parameters = inspect.signature(function).parameters.values()
    names = {p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return names, any(p.kind is p.VAR_KEYWORD for p in parameters)


def unknown_keyword_error(called: str, keyword: str, valid) -> UnknownKeywordError:
    """The error for ``called(..., keyword=...)``: the nearest valid keywords by difflib, else all of them."""
    valid = sorted(valid)
    nearest = difflib.get_close_matches(keyword, valid, n=3, cutoff=0.6)
    hint = (f"did you mean {' or '.join(repr(name) for name in nearest)}?" if nearest
            else f"valid keywords: {', '.join(valid)}")
    return UnknownKeywordError(f"{called}() got an unexpected keyword argument {keyword!r}; {hint}")


def check_keywords(called: str, keywords, valid) -> None:
    """Raise :class:`UnknownKeywordError` for the first of ``keywords`` that is not in ``valid``."""
    for keyword in keywords:
        if keyword not in valid:
            raise unknown_keyword_error(called, keyword, valid)


def checked_keywords(function=None, *, forwards_to=None):
    """Decorator: a keyword the function does not take raises :class:`UnknownKeywordError` naming the function
    and the nearest valid keyword (difflib), before the function runs. ``forwards_to``: the callable (a class:
    its ``__init__``) that receives the function's ``**options``, whose keywords are then valid too.

    Components need no decorator: every :class:`Component` subclass checks the keywords of its constructor."""
    def decorate(wrapped):
        names, open_ended = _keywords(wrapped)
        if forwards_to is not None:
            target = forwards_to.__init__ if inspect.isclass(forwards_to) else forwards_to
            forwarded, open_ended = _keywords(target)
            names |= forwarded - {"self"}
        if open_ended:
            return wrapped

        @functools.wraps(wrapped)
        def call(*args, **kwargs):
            check_keywords(wrapped.__name__, kwargs, names)
            return wrapped(*args, **kwargs)
        return call
    return decorate(function) if function is not None else decorate


def _checked_constructor(init):
    """``__init__`` of a component class with its keywords checked; the error names the class the user called."""
    names, open_ended = _keywords(init)
    if open_ended:
        return init
    names.discard("self")

    @functools.wraps(init)
    def checked(self, *args, **kwargs):
        check_keywords(type(self).__name__, kwargs, names)
        init(self, *args, **kwargs)
    checked.keywords_checked = True
    return checked


class Component:
    """Base of all items: a name, an index in its family, and validation helpers.

    Parameters
    ----------
    name : str, default ""
        Label of the item, used in error messages and by the Exudyn layer.

    Attributes
    ----------
    output_variables : tuple of str
        The output variables the component's ``output`` method accepts (names of Exudyn's OutputVariableType,
        e.g. "Position"), declared by each class as data: ``output`` evaluates exactly these and refuses every
        other name with the component's error, and the catalogue lists them. Empty for a component without
        outputs (loads, sensors). The set belongs to the class, not to an instance's parameters (a joint's
        ``Angle`` is declared by the joints with one free rotation about z). The mesh-node outputs of an FFRF
        body are its ``mesh_outputs``.
    """

    family = "component"  # one of: node, object, marker, load, sensor
    type_name = "Component"
    output_variables: tuple = ()  # the names ``output`` accepts (see Attributes)

    def __init_subclass__(cls, **kwargs):
        """A wrong keyword of any component's constructor names the component and the nearest valid keyword."""
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is not None and not getattr(init, "keywords_checked", False):
            cls.__init__ = _checked_constructor(init)

    def __init__(self, name: str = ""):
        self.name = name
        self.index: int | None = None
        self.owner = None  # the System it was added to

    def companions(self) -> list:
        """Items this component brings into the system it joins, added right after it (``System.add``); none by
        default (e.g. the auxiliary node of a velocity-level connector)."""
        return []

    @property
    def label(self) -> str:
        """Human-readable identity used in every error message, e.g. ``ObjectFFRF 3 'rotor'``."""
        number = "" if self.index is None else f" {self.index}"
        named = f" '{self.name}'" if self.name else ""
        return f"{self.type_name}{number}{named}"

    def error(self, fault: str) -> ModelError:
        return ModelError(f"{self.label}: {fault}")

    def check_output(self, variable: str) -> None:
        """Refuse an output variable that this component does not declare (``output_variables``)."""
        if variable not in self.output_variables:
            raise self.error(f"has no output variable '{variable}'; available: {list(self.output_variables)}")

    # --- parameter checks used by subclasses --------------------------------------------------
    def vector(self, value, size: int | None, what: str, symbolic: bool = False):
        """A finite float vector of the given size (None: any size).

        With ``symbolic=True`` a :class:`Parameter` (or, for loads, an :class:`Input`) of that size is
        accepted and returned as it is; ``Context.value`` turns it into a symbol.
        """
        if isinstance(value, (Parameter, Input)):
            if not symbolic or (isinstance(value, Input) and symbolic != "input"):
                raise self.error(f"{what} cannot be a {type(value).__name__}")
            if size is not None and value.size != size:
                raise self.error(f"{what}: {value!r} has size {value.size}, expected {size}")
            if isinstance(value, Parameter) and value.value is not None and not np.all(np.isfinite(value.value)):
                raise self.error(f"{what}: {value!r} contains NaN or inf")
            return value
        try:
            array = np.asarray(value, dtype=float).reshape(-1)
        except (TypeError, ValueError):
            raise self.error(f"{what} must be a numeric vector, got {value!r}") from None
        if size is not None and array.size != size:
            raise self.error(f"{what} must have {size} entries, got {array.size}")
        if not np.all(np.isfinite(array)):
            raise self.error(f"{what} contains NaN or inf")
        return array

    def matrix(self, value, shape: tuple[int, int], what: str) -> np.ndarray:
        try:
            array = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            raise self.error(f"{what} must be a numeric matrix") from None
        if array.shape != shape:
            raise self.error(f"{what} must have shape {shape}, got {array.shape}")
        if not np.all(np.isfinite(array)):
            raise self.error(f"{what} contains NaN or inf")
        return array

    # --- hooks, overridden where they apply ---------------------------------------------------
    def connect(self, system) -> None:
        """Resolve references to other items (numbers or instances) and check them."""

    def add_terms(self, ctx: "Context") -> None:
        """Add this component's residual terms and constraints to the context."""

    def check(self, assembled) -> None:
        """Checks that need the assembled system (e.g. trying user functions), before any solve."""


def resolve(system, family: str, ref, owner: Component, what: str):
    """Turn a reference (an item of ``family`` or its number) into the item, or fail clearly."""
    items = system.items(family)
    if isinstance(ref, Component):
        if ref.family != family or ref.index is None or ref.index >= len(items) or items[ref.index] is not ref:
            raise owner.error(f"{what} {ref.label} is not a {family} of this system")
        return ref
    if isinstance(ref, (int, np.integer)) and not isinstance(ref, bool):
        if 0 <= ref < len(items):
            return items[int(ref)]
        raise owner.error(f"{what} {ref} is out of range: the system has {len(items)} {family}s")
    raise owner.error(f"{what} must be a {family} or its number, got {ref!r}")


@dataclass
class Context:
    """Symbolic state of the whole system and the collector of residual terms.

    ``q`` are coordinates as change from reference (as stored by the nodes), ``v`` and ``a`` their
    first and second time derivatives, ``lam`` the Lagrange multipliers, ``t`` the time [s].
    """

    t: ca.SX
    q: ca.SX
    v: ca.SX
    a: ca.SX
    lam: ca.SX
    q_reference: np.ndarray
    system: object = None
    q_initial: np.ndarray = None                     # the initial coordinates (change from reference)
    lhs: list = field(default_factory=list)          # (index array, SX terms) added to R
    constraints: dict = field(default_factory=dict)  # component -> SX constraint vector
    velocity_constraints: dict = field(default_factory=dict)  # component -> its index-2 form, see below
    velocity_reactions: dict = field(default_factory=dict)  # component -> J v of its index-2 reactions, see below
    reaction_forms: dict = field(default_factory=dict)  # component -> velocity form of its reactions, see below
    externals: list = field(default_factory=list)    # (placeholder, callback, input expressions)
    kinematic_velocity: ca.SX = None                 # v with Euler-parameter rates projected, see below
    rotation_indices: list = field(default_factory=list)  # coordinate indices of each node's Euler parameters
    linear: list = field(default_factory=list)       # (rows, columns, constant sparse matrix, "q" | "v" | "a")
    parameters: dict = field(default_factory=dict)   # Parameter -> SX symbol
    inputs: dict = field(default_factory=dict)       # Input -> SX symbol

    # --- coordinates ------------------------------------------------------------------------
    def coordinates(self, node) -> ca.SX:
        """Coordinates of a node as change from its reference values."""
        return self.q[node.coordinate_indices]

    def total_coordinates(self, node) -> ca.SX:
        """Coordinates of a node including their reference values."""
        return self.q[node.coordinate_indices] + self.q_reference[node.coordinate_indices]

    def velocities(self, node) -> ca.SX:
        return self.v[node.coordinate_indices]

    def accelerations(self, node) -> ca.SX:
        return self.a[node.coordinate_indices]

    def multipliers(self, component) -> ca.SX:
        return self.lam[component.multiplier_indices]

    def initial_value(self, expression: ca.SX) -> ca.DM:
        """The value of an expression of q alone at the initial coordinates, as a constant."""
        return ca.evalf(ca.substitute(expression, self.q, ca.DM(self.q_initial)))

    def time_derivative(self, expression: ca.SX) -> ca.SX:
        """d/dt of an expression of (q, t), by AD along the kinematic velocity.

        Rotations enter only through omega = G theta_t, as in the specification's velocity formulas:
        the part of theta_t along theta (zero in the exact solution, not in an index-3 discretisation,
        which enforces the constraints on position level only) is removed before differentiating.
        """
        velocity = self.v if self.kinematic_velocity is None else self.kinematic_velocity
        return ca.jtimes(expression, self.q, velocity) + ca.jacobian(expression, self.t)

    def project_rotation_rates(self, rotation_indices) -> None:
        """Set the kinematic velocity: P theta_t per Euler-parameter node, P = I - theta theta^T / (theta^T theta)."""
        self.rotation_indices = [np.asarray(indices) for indices in rotation_indices]
        self.kinematic_velocity = self.project_rotations(self.v)

    def project_rotations(self, vector: ca.SX) -> ca.SX:
        """``vector`` (n,) with P applied to each node's Euler-parameter rows (the part along theta removed)."""
        projected = ca.SX(vector)
        for indices in self.rotation_indices:
            theta = self.q[indices] + self.q_reference[indices]
            part = vector[indices]
            projected[indices] = part - theta * ca.dot(theta, part) / ca.dot(theta, theta)
        return projected

    def value(self, x):
        """A parameter value as a CasADi expression: a symbol for a Parameter or Input, else a constant."""
        if isinstance(x, Parameter):
            return self._symbol(self.parameters, x, "p")
        if isinstance(x, Input):
            return self._symbol(self.inputs, x, "u")
        return ca.DM(np.asarray(x, dtype=float))

    @staticmethod
    def _symbol(table, item, prefix):
        clash = [other for other in table if other.name == item.name and other is not item]
        if clash:
            raise ModelError(f"two different {type(item).__name__}s are named '{item.name}'")
        if item not in table:
            table[item] = ca.SX.sym(f"{prefix}_{item.name}", item.size)
        return table[item]

    # --- residual terms ---------------------------------------------------------------------
    def add_lhs(self, indices, terms) -> None:
        """Add ``terms`` to the residual rows ``indices`` (inertia, stiffness, damping)."""
        indices = np.asarray(indices, dtype=int).reshape(-1)
        if indices.size:
            self.lhs.append((indices, ca.vec(terms)))

    def add_linear(self, rows, columns, matrix, variable: str) -> None:
        """Add ``matrix @ variable[columns]`` to the residual rows, for a constant sparse matrix.

        Kept out of the differentiated graph: its Jacobian is the matrix itself (e.g. K q_f, D v_f).
        """
        self.linear.append((np.asarray(rows, dtype=int), np.asarray(columns, dtype=int), matrix, variable))

    def add_force(self, indices, force) -> None:
        """Add a generalized force (right-hand side) to the rows ``indices``."""
        self.add_lhs(indices, -ca.vec(force))

    def add_force_at(self, position: ca.SX, force: ca.SX) -> None:
        """Generalized force of a global ``force`` acting at the point ``position(q)``.

        By virtual work this is P J^T F with J = d position / d q, formed on the coordinates the point depends
        on only (so that the build stays linear in the number of forces), and P the projection of the kinematic
        velocity: rotations do work only through omega = G theta_t, so the
        Euler-parameter rows get no part along theta (G theta = 0). Without P that part would be
        carried by the Euler-parameter multiplier, and the multiplier would differ from Exudyn's.
        """
        jacobian = ca.jacobian(position, self.q)                                        # J, 3 x n, sparse
        columns = set(jacobian.sparsity().get_col())
        for group in self.rotation_indices:          # a node's Euler parameters are projected together
            if columns.intersection(group.tolist()):
                columns.update(group.tolist())
        columns = np.array(sorted(columns), dtype=int)
        generalized = jacobian[:, columns.tolist()].T @ force                           # J^T F on those rows only
        row_of = {int(column): row for row, column in enumerate(columns)}
        for group in self.rotation_indices:
            if int(group[0]) in row_of:
                rows = [row_of[int(column)] for column in group]
                theta = self.q[group.tolist()] + self.q_reference[group]
                part = generalized[rows]
                generalized[rows] = part - theta * ca.dot(theta, part) / ca.dot(theta, theta)
        self.lhs.append((columns, -generalized))

    def add_constraint(self, component, equations: ca.SX) -> None:
        """Position-level constraint equations C(q, t) = 0 owned by ``component``."""
        self.constraints[component] = ca.vec(equations)

    def add_velocity_constraint(self, component, equations: ca.SX, reactions: ca.SX | None = None) -> None:
        """The index-2 form of ``component``'s constraints, linear in v: J(q, t) v + c(q, t) = 0.

        Used by the index-2 schemes instead of dC/dt; its reactions are then J^T lambda. Equal to
        dC/dt where the Euler parameters have unit norm (see ``ObjectRigidBody.point_velocity``).
        ``reactions``: rows J_r(q, t) v + c_r (one per constraint) whose J_r^T lambda are the reactions at
        index 2 instead (Exudyn's joints, whose velocity rows and constraint Jacobian differ off the unit norm).
        """
        self.velocity_constraints[component] = ca.vec(equations)
        if reactions is not None:
            self.velocity_reactions[component] = ca.vec(reactions)

    def add_reaction_form(self, component, equations: ca.SX) -> None:
        """Equations J(q) v (one per constraint of ``component``, linear in v) whose J^T lambda are the
        component's reactions instead of C_q^T lambda, at every index. For connectors at markers whose rotation
        Jacobian, as Exudyn forms it, is not the derivative of their orientation (MarkerSuperElementRigid):
        the constraints C(q) = 0 stay, their reactions act through Exudyn's Jacobian."""
        self.reaction_forms[component] = ca.vec(equations)

    def external(self, callback, inputs: list) -> ca.SX:
        """A placeholder for ``callback(*inputs)``; the builder wires the call into the graph."""
        placeholder = ca.SX.sym(f"external{len(self.externals)}", *callback.output_shape)
        self.externals.append((placeholder, callback, [ca.vec(x) for x in inputs]))
        return placeholder
