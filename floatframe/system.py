"""The system builder: items in, one implicit index-3 DAE out.

    R(t, q, v, a, lambda, u, p) = M(q) a + (damping, stiffness, quadratic velocity terms) - f + C_q^T lambda = 0
    C(t, q, u, p) = 0       (u: input signals, p: symbolic parameters; both usually empty)

``System`` collects nodes, objects (bodies and connectors), markers, loads and sensors, numbered per
family in the order added. ``System.assemble()`` gives every node its coordinates, lets each component
declare its terms as CasADi expressions, and returns an :class:`AssembledSystem`: numeric functions of
the residual, the constraints and their exact sparse Jacobians. Solvers see only that.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import casadi as ca
import numpy as np
import scipy.linalg
import scipy.sparse as sp

from floatframe.components.base import Component, Context, ModelError
from floatframe.components.connectors import Connector
from floatframe.components.external import to_casadi
from floatframe.components.nodes import NodeRigidBodyEP
from floatframe.user_function_terms import UserFunctionTerms

FAMILIES = ("node", "object", "marker", "load", "sensor")


class System:
    """A multibody model under construction."""

    def __init__(self):
        self._items = {family: [] for family in FAMILIES}
        self.assembled = None  # the AssembledSystem of the last assemble()
        self.user_function_handle = self  # first argument of user functions (the Exudyn layer sets its mbs)

    def items(self, family: str) -> list:
        return self._items[family]

    @property
    def nodes(self):
        return self._items["node"]

    @property
    def objects(self):
        return self._items["object"]

    @property
    def markers(self):
        return self._items["marker"]

    @property
    def loads(self):
        return self._items["load"]

    @property
    def sensors(self):
        return self._items["sensor"]

    def add(self, item: Component) -> int:
        """Add an item; returns its number within its family (node, object, marker, load, sensor)."""
        if not isinstance(item, Component) or item.family not in self._items:
            raise ModelError(f"System.add: expected a node, object, marker, load or sensor, got {item!r}")
        if item.index is not None:
            raise item.error("was already added to a system")
        family = self._items[item.family]
        item.index = len(family)
        item.owner = self
        family.append(item)
        return item.index

    def assemble(self, check_redundancy: bool = True) -> "AssembledSystem":
        """Number the coordinates, check every reference, and build the symbolic DAE.

        With ``check_redundancy`` (the default) constraints that are linearly dependent at the initial state
        (e.g. a spherical and a revolute joint on the same pair of markers) are refused with a ModelError
        that names them (see ``redundant_constraints``): their multipliers would not be unique and the Newton
        matrix singular.
        """
        started = time.perf_counter()
        offset = 0
        for node in self.nodes:
            node.coordinate_indices = np.arange(offset, offset + node.n_coordinates)
            offset += node.n_coordinates
        n_coordinates = offset
        bodies = [o for o in self.objects if not isinstance(o, Connector)]
        connectors = [o for o in self.objects if isinstance(o, Connector)]
        for item in [*bodies, *self.markers, *connectors, *self.loads, *self.sensors]:
            item.connect(self)
        offset = 0
        owners, norm_rows = [], []  # norm_rows: the Euler-parameter norm constraints
        for item in [*self.nodes, *connectors]:
            count = getattr(item, "n_constraints", 0)
            item.multiplier_indices = np.arange(offset, offset + count)
            owners += [item.label] * count
            norm_rows += [isinstance(item, NodeRigidBodyEP)] * count
            offset += count
        n_multipliers = offset

        q_reference = np.zeros(n_coordinates)
        q_initial = np.zeros(n_coordinates)
        v_initial = np.zeros(n_coordinates)
        for node in self.nodes:
            if node.n_coordinates:
                q_reference[node.coordinate_indices] = node.reference_coordinates
                q_initial[node.coordinate_indices] = node.initial_coordinates
                v_initial[node.coordinate_indices] = node.initial_velocities

        ctx = Context(t=ca.SX.sym("t"), q=ca.SX.sym("q", n_coordinates), v=ca.SX.sym("v", n_coordinates),
                      a=ca.SX.sym("a", n_coordinates), lam=ca.SX.sym("lam", n_multipliers),
                      q_reference=q_reference, system=self, q_initial=q_initial)
        ctx.project_rotation_rates([n.coordinate_indices[3:] for n in self.nodes if isinstance(n, NodeRigidBodyEP)])
        for item in [*self.nodes, *self.objects, *self.loads]:
            item.add_terms(ctx)

        residual = ca.SX.zeros(n_coordinates)
        for indices, terms in ctx.lhs:
            residual[indices] += terms
        linear = {name: sp.csc_matrix((n_coordinates, n_coordinates)) for name in ("q", "v", "a")}
        for rows, columns, matrix, variable in ctx.linear:
            block = sp.coo_matrix(matrix)
            linear[variable] = linear[variable] + sp.csc_matrix(
                (block.data, (rows[block.row], columns[block.col])), shape=(n_coordinates, n_coordinates))
        constraint_parts = []
        for item in [*self.nodes, *connectors]:
            if item.multiplier_indices.size:
                equations = ctx.constraints.get(item)
                if equations is None or equations.numel() != item.multiplier_indices.size:
                    raise item.error("declared constraints that it did not add")
                constraint_parts.append(equations)
        constraints = ca.vertcat(*constraint_parts) if constraint_parts else ca.SX(0, 1)
        if ca.depends_on(constraints, ca.vertcat(ctx.v, ctx.a, ctx.lam)):
            raise ModelError("position-level constraints may depend only on q and t")
        reactions = reaction_forces(ctx, constraints, norm_rows)  # + C_q^T lambda, see there
        residual += reactions
        index2 = index2_form(ctx, [*self.nodes, *connectors], constraints, norm_rows, reactions)

        sensor_expressions = [ca.vec(s.expression(ctx)) for s in self.sensors]
        assembled = AssembledSystem(ctx, residual, linear, constraints, sensor_expressions, q_reference, q_initial,
                                    v_initial, owners, self, time.perf_counter() - started, index2)
        self.assembled = assembled  # user functions may query the system during the checks
        for item in [*self.objects, *self.loads]:
            item.check(assembled)
        if check_redundancy:
            redundant = redundant_constraints(assembled.initial_constraint_jacobian(), owners)
            if redundant:
                raise ModelError(f"redundant constraints at the initial state: {redundant}; remove them, or free "
                                 f"their axes (constrained_axes), or assemble(check_redundancy=False)")
        return assembled


def redundant_constraints(constraint_jacobian: sp.csc_matrix, owners: list, tolerance: float = 1e-10) -> str:
    """Which constraint rows depend linearly on earlier ones ('' if none), from C_q (m, n) at one state.

    Gram-Schmidt on the rows of C_q (on the coordinates that constraints touch), in their order, leaves of row
    k the part that the rows before it do not span; below ``tolerance`` times the row's norm the row is
    redundant (so the later of two repeating joints is named), and its least-squares combination of
    the earlier independent rows names the constraints it repeats. NaN entries (a parameter without value)
    make the check undecidable: it is then skipped.
    """
    jacobian = sp.csr_matrix(constraint_jacobian)
    columns = np.unique(jacobian.indices)
    if jacobian.shape[0] == 0 or columns.size == 0:
        return ""
    dense = jacobian[:, columns].toarray()
    if not np.all(np.isfinite(dense)):
        return ""
    diagonal = np.abs(np.diag(scipy.linalg.qr(dense.T, mode="r", pivoting=True)[0]))
    if diagonal.size == dense.shape[0] and diagonal.min() > tolerance * diagonal.max():
        return ""                                    # full rank (LAPACK, fast); else find the rows in order
    basis = np.zeros((0, dense.shape[1]))            # orthonormal rows spanning the independent rows so far
    dependent = []
    for row, values in enumerate(dense):
        rest = values - basis.T @ (basis @ values)
        rest -= basis.T @ (basis @ rest)             # twice: Gram-Schmidt stays orthogonal
        size = np.linalg.norm(rest)
        if size <= tolerance * max(np.linalg.norm(values), 1e-300):
            dependent.append(row)
        else:
            basis = np.vstack([basis, rest / size])
    if not dependent:
        return ""
    independent = np.setdiff1d(np.arange(dense.shape[0]), dependent)
    findings = {}                                   # owner -> (count of its redundant rows, owners it repeats)
    for row in dependent:
        earlier = independent[independent < row]
        coefficients = np.linalg.lstsq(dense[earlier].T, dense[row], rcond=None)[0]
        count, partners = findings.get(owners[row], (0, set()))
        partners |= {owners[earlier[i]] for i in np.flatnonzero(np.abs(coefficients) > 1e-8)}
        findings[owners[row]] = (count + 1, partners)
    return "; ".join(f"{count} equation{'s' if count > 1 else ''} of {owner} repeat "
                     f"{', '.join(sorted(partners)) or 'nothing (zero rows)'}"
                     for owner, (count, partners) in findings.items())


@dataclass
class Symbols:
    """The symbolic DAE for users who build on it (IDAS, optimal control); u inputs, p parameters."""

    t: ca.SX
    q: ca.SX
    v: ca.SX
    a: ca.SX
    lam: ca.SX
    residual: ca.SX
    constraints: ca.SX
    externals: list
    u: ca.SX
    p: ca.SX


class AssembledSystem:
    """Numeric functions of an assembled model; what solvers work with.

    Attributes: ``n_coordinates`` (n), ``n_multipliers`` (m), ``q_reference``, ``q_initial``,
    ``v_initial`` (n,), ``euler_parameter_rows`` (the coordinate indices of each Euler-parameter
    node's theta), ``build_time`` [s], ``symbols``.

    ``functions`` are CasADi Functions of the outputs. With Python user functions (callbacks) in the
    residual, ``user_functions`` (a UserFunctionTerms) evaluates the outputs that hold them numerically, each
    user function once per residual; ``functions`` then has those that solvers differentiate themselves
    (residual, sensors) as MX Functions with the callbacks spliced in, and no iteration matrices: these are
    ``newton_matrix`` and ``mass_matrix`` only.
    """

    def __init__(self, ctx, nonlinear_residual, linear, constraints, sensor_expressions, q_reference, q_initial,
                 v_initial, constraint_owners, system, build_time, index2=None):
        started = time.perf_counter()
        self.system = system
        self.n_coordinates = ctx.q.numel()
        self.n_multipliers = ctx.lam.numel()
        self.q_reference, self.q_initial, self.v_initial = q_reference, q_initial, v_initial
        self.constraint_owners = constraint_owners
        self.current_state = None
        self.context = ctx  # the symbolic context of the assembly, for further outputs

        sensors = ca.vertcat(*sensor_expressions) if sensor_expressions else ca.SX(0, 1)
        linear_casadi = {name: to_casadi(matrix) for name, matrix in linear.items()}
        residual = (nonlinear_residual + linear_casadi["q"] @ ctx.q + linear_casadi["v"] @ ctx.v
                    + linear_casadi["a"] @ ctx.a)
        self.parameters = list(ctx.parameters)   # Parameter objects, in the order of p
        self.inputs = list(ctx.inputs)           # Input objects, in the order of u
        u_symbol = ca.vertcat(*ctx.inputs.values()) if ctx.inputs else ca.SX(0, 1)
        p_symbol = ca.vertcat(*ctx.parameters.values()) if ctx.parameters else ca.SX(0, 1)
        self.symbols = Symbols(ctx.t, ctx.q, ctx.v, ctx.a, ctx.lam, residual, constraints, ctx.externals,
                               u_symbol, p_symbol)
        t, q, v, a, lam, u, p = ctx.t, ctx.q, ctx.v, ctx.a, ctx.lam, u_symbol, p_symbol
        placeholders = [placeholder for placeholder, _, _ in ctx.externals]  # user-function values, inputs here
        symbol = ca.SX
        c_a, c_v, c_q = symbol.sym("c_a"), symbol.sym("c_v"), symbol.sym("c_q")
        constraint_jacobian = sparse_jacobian(constraints, q)
        # c_a R_a + c_v R_v + c_q R_q in one exact Jacobian: d/d(delta) of R(q + c_q delta, v + c_v delta,
        # a + c_a delta) at delta = 0, for the nonlinear rest; the constant linear parts are added as they are.
        # User functions' values are held fixed here; see floatframe.user_function_terms for their part.
        delta = symbol.sym("delta", self.n_coordinates)
        nonlinear = ca.Function("nonlinear", [t, q, v, a, lam, u, p, *placeholders], [nonlinear_residual])
        shifted = nonlinear(t, q + c_q * delta, v + c_v * delta, a + c_a * delta, lam, u, p, *placeholders)
        nonlinear_jacobian = sparse_jacobian(shifted, delta)
        iteration = (nonlinear_jacobian + c_a * linear_casadi["a"] + c_v * linear_casadi["v"]
                     + c_q * linear_casadi["q"])
        newton_matrix = ca.blockcat([[iteration, sparse_jacobian(residual, lam)],
                                     [constraint_jacobian, symbol(self.n_multipliers, self.n_multipliers)]])
        constraint_velocity = constraint_jacobian @ v + ca.jacobian(constraints, t)             # dC/dt
        constraint_acceleration_rest = ca.jtimes(constraint_velocity, ca.vertcat(q, t), ca.vertcat(v, 1))
        state = [t, q, v, a, lam]
        index2_outputs = {}
        self.has_index2_form = index2 is not None
        if index2 is not None:  # the connectors' own velocity-level form, see index2_form
            # two functions, so that the velocity equations do not take lambda (an MX call would keep it as input)
            velocity_index2 = ca.Function("index2_velocity", [ctx.t, ctx.q, ctx.v, u_symbol, p_symbol],
                                          [index2[0]])(t, q, v, u, p)
            correction = ca.Function("index2_correction", [ctx.t, ctx.q, ctx.v, ctx.lam, u_symbol, p_symbol],
                                     [index2[1]])(t, q, v, lam, u, p)
            residual_index2 = residual + correction
            newton_matrix_index2 = ca.blockcat([
                [iteration + c_q * sparse_jacobian(correction, q), sparse_jacobian(residual_index2, lam)],
                [sparse_jacobian(velocity_index2, v), symbol(self.n_multipliers, self.n_multipliers)]])
            index2_outputs = {
                "residual_index2": (state, residual_index2),
                "newton_matrix_index2": (state + [c_a, c_v, c_q, delta], newton_matrix_index2),
                "constraint_velocity_index2": ([t, q, v], velocity_index2),
            }
        outputs = {
            "residual": (state, residual),
            "constraints": ([t, q], constraints),
            "newton_matrix": (state + [c_a, c_v, c_q, delta], newton_matrix),  # evaluated at delta = 0
            "constraint_jacobian": ([t, q], constraint_jacobian),
            "constraint_velocity": ([t, q, v], constraint_velocity),
            "constraint_acceleration_rest": ([t, q, v], constraint_acceleration_rest),  # d2C/dt2 - C_q a
            "mass_matrix": (state + [c_a, c_v, c_q, delta], iteration),
            "sensors": (state, sensors),
            **index2_outputs,
        }
        # every function also takes the inputs u and the parameters p, last (then the user-function values)
        iteration_matrices = ("newton_matrix", "newton_matrix_index2", "mass_matrix")  # + user functions' part
        self.functions = {name: _function(name, inputs + [u, p], output, placeholders, name in iteration_matrices)
                          for name, (inputs, output) in outputs.items()}
        self.user_functions = None
        if ctx.externals:  # evaluated numerically; symbolic users get the callbacks spliced into MX functions
            with_values = {name: function for name, function in self.functions.items()
                           if function.n_in() > len(outputs[name][0]) + 2}
            self.user_functions = UserFunctionTerms(ctx.externals, with_values, state, u, p, (c_a, c_v, c_q), delta,
                                                    nonlinear_residual)
            spliced_names = [name for name in with_values if name not in iteration_matrices]
            mx_symbols, spliced = _splice_externals(state + [u, p], [nonlinear_residual, residual] + [
                outputs[name][1] for name in spliced_names], ctx.externals)
            self.functions = {name: function for name, function in self.functions.items()
                              if function.n_in() == len(outputs[name][0]) + 2}
            self.functions.update({name: ca.Function(name, mx_symbols, [expression])
                                   for name, expression in zip(spliced_names, spliced[2:])})
            state, (nonlinear_residual, residual), (u, p) = mx_symbols[:5], spliced[:2], mx_symbols[5:]
        self.parameter_values = {parameter.name: parameter.value for parameter in self.parameters}
        self.input_signals = {item.name: item.signal for item in self.inputs}
        self._jacobian_parts = (state, nonlinear_residual, residual, linear_casadi, u, p)
        self._residual_with_jacobian = None
        self._load_residual = None
        self._sensor_slices = np.cumsum([0] + [e.numel() for e in sensor_expressions])
        self._sparse_cache = {}
        self._no_shift = np.zeros(self.n_coordinates)
        self.pending_checks = []  # checks (assembled -> None) that wait for the values of all parameters
        self.build_time = build_time + time.perf_counter() - started

    @property
    def euler_parameter_rows(self) -> list:
        """The coordinate indices (4,) of each Euler-parameter node's theta."""
        return self.context.rotation_indices

    def residual_with_jacobian(self) -> ca.Function:
        """R(t, q, v, a, lam, u, p) as a CasADi Function whose Jacobian is the exact blocked one.

        For integrators that differentiate their DAE themselves (IDAS): CasADi's plain AD of R would
        colour the dense reference-frame rows and columns column by column. Built on first use.
        """
        if self._residual_with_jacobian is None:
            (t, q, v, a, lam), nonlinear, residual, linear, u, p = self._jacobian_parts
            inputs = [t, q, v, a, lam, u, p]
            blocks = [ca.jacobian(residual, t),
                      sparse_jacobian(nonlinear, q) + linear["q"],
                      sparse_jacobian(nonlinear, v) + linear["v"],
                      sparse_jacobian(nonlinear, a) + linear["a"],
                      sparse_jacobian(residual, lam), ca.jacobian(residual, u), ca.jacobian(residual, p)]
            names = ["t", "q", "v", "a", "lam", "u", "p"]
            output = type(q).sym("out_R", residual.shape)
            jacobian = ca.Function("jac_residual_exact", inputs + [output], blocks, names + ["out_R"],
                                   [f"jac_R_{name}" for name in names])
            self._residual_with_jacobian = ca.Function(
                "residual_exact", inputs, [residual], names, ["R"], {"custom_jacobian": jacobian, "jac_penalty": 0})
        return self._residual_with_jacobian

    # --- evaluation -------------------------------------------------------------------------
    def residual(self, t, q, v, a, lam, index=3) -> np.ndarray:
        """R (n,); ``index=2``: with the reactions of the index-2 form (``index2_form``) where there is one."""
        self.current_state = (t, q, v, a, lam)
        return _dense(self._call(self.form_name("residual", index), t, q, v, a, lam))

    def constraints(self, t, q) -> np.ndarray:
        return _dense(self._call("constraints", t, q))

    def constraint_velocity(self, t, q, v, index=3) -> np.ndarray:
        """dC/dt (m,); ``index=2``: the velocity-level equations of the index-2 form where there is one."""
        return _dense(self._call(self.form_name("constraint_velocity", index), t, q, v))

    def constraint_acceleration_rest(self, t, q, v) -> np.ndarray:
        """d^2 C / dt^2 - C_q a: the acceleration-level constraint is C_q a + this = 0."""
        return _dense(self._call("constraint_acceleration_rest", t, q, v))

    def newton_matrix(self, t, q, v, a, lam, c_a, c_v, c_q, index=3) -> sp.csc_matrix:
        """[[c_a R_a + c_v R_v + c_q R_q, R_lambda], [C_q, 0]], exact and sparse, (n+m, n+m).

        ``index=2``: of the index-2 form where there is one, with J = d(velocity equations)/dv for C_q.
        """
        self.current_state = (t, q, v, a, lam)
        return self._sparse(self.form_name("newton_matrix", index), t, q, v, a, lam, c_a, c_v, c_q, self._no_shift)

    def form_name(self, name, index) -> str:
        """The name of function ``name`` in ``functions`` for the scheme of this index (see index2_form)."""
        return name + "_index2" if index == 2 and self.has_index2_form else name

    def constraint_jacobian(self, t, q) -> sp.csc_matrix:
        return self._sparse("constraint_jacobian", t, q)

    def mass_matrix(self, t, q, v, a=None, lam=None) -> sp.csc_matrix:
        """M(q) = dR/da, (n, n)."""
        a = np.zeros(self.n_coordinates) if a is None else a
        lam = np.zeros(self.n_multipliers) if lam is None else lam
        return self._sparse("mass_matrix", t, q, v, a, lam, 1.0, 0.0, 0.0, self._no_shift)

    def initial_matrices(self) -> tuple[sp.csc_matrix, sp.csc_matrix]:
        """M and C_q at the initial state (t = 0, q_initial, v_initial), for the checks at assembly; cached.

        A parameter without value or an input without signal enters as NaN (a check then cannot decide).
        """
        if "initial" not in self._sparse_cache:
            u, p = self._initial_inputs_and_parameters()
            state = (0.0, self.q_initial, self.v_initial, np.zeros(self.n_coordinates), np.zeros(self.n_multipliers))
            self._sparse_cache["initial"] = (self._sparse_values("mass_matrix", *state, 1.0, 0.0, 0.0, self._no_shift, u, p),
                                             self.initial_constraint_jacobian())
        return self._sparse_cache["initial"]

    def initial_constraint_jacobian(self) -> sp.csc_matrix:
        """C_q (m, n) at t = 0 and q_initial (NaN where a parameter or input has no value yet)."""
        return self._sparse_values("constraint_jacobian", 0.0, self.q_initial, *self._initial_inputs_and_parameters())

    def _initial_inputs_and_parameters(self) -> tuple[np.ndarray, np.ndarray]:
        u = np.concatenate([np.full(item.size, np.nan) if self.input_signals[item.name] is None
                            else np.atleast_1d(np.asarray(self.input_signals[item.name](0.0), dtype=float))
                            for item in self.inputs]) if self.inputs else np.zeros(0)
        p = np.concatenate([np.full(parameter.size, np.nan) if self.parameter_values[parameter.name] is None
                            else self.parameter_values[parameter.name] for parameter in self.parameters]
                           ) if self.parameters else np.zeros(0)
        return u, p

    def sensor_values(self, t, q, v, a, lam) -> list[np.ndarray]:
        values = _dense(self._call("sensors", t, q, v, a, lam))
        return [values[self._sensor_slices[i]:self._sensor_slices[i + 1]] for i in range(len(self._sensor_slices) - 1)]

    def _sparse(self, name, t, *arguments) -> sp.csc_matrix:
        return self._sparse_values(name, t, *arguments, self.input_vector(float(t)), self._parameters_now())

    def _sparse_values(self, name, *arguments) -> sp.csc_matrix:
        """A sparse output as scipy CSC; ``arguments`` include u and p."""
        function = self.functions[name] if name in self.functions else self.user_functions.functions[name]
        if name not in self._sparse_cache:
            sparsity = function.sparsity_out(0)
            self._sparse_cache[name] = (np.array(sparsity.row()), np.array(sparsity.colind()), sparsity.shape)
        if name not in self.functions:  # with user-function values and their part (a state, 3 factors, delta)
            return self.user_functions.matrix(name, arguments[:5], arguments[5:8], *arguments[-2:],
                                              self._sparse_cache[name])
        rows, column_pointers, shape = self._sparse_cache[name]
        values = np.array(function(*arguments).nonzeros())
        return sp.csc_matrix((values, rows, column_pointers), shape=shape)

    def output_function(self, build, name: str = "output"):
        """A numeric function (t, q, v, a, lam) -> array of the expression ``build(context)``.

        ``build`` takes the assembly's symbolic context (e.g. ``lambda ctx: node.output(ctx, "Position")``).
        """
        ctx = self.context
        known_externals = len(ctx.externals)
        expression = ca.vec(build(ctx))
        if len(ctx.externals) > known_externals or (ctx.externals and ca.depends_on(
                expression, ca.vertcat(*[ca.vec(p) for p, _, _ in ctx.externals]))):
            del ctx.externals[known_externals:]
            raise ModelError(f"output '{name}' depends on a user function and can only be evaluated by a solver")
        function = ca.Function(name, [ctx.t, ctx.q, ctx.v, ctx.a, ctx.lam, self.symbols.u, self.symbols.p],
                               [expression])
        return lambda t, q, v, a, lam: _dense(function(t, q, v, a, lam, self.input_vector(float(t)),
                                                       self._parameters_now()))

    # --- parameters and inputs --------------------------------------------------------------
    def set_parameter(self, name: str, value) -> None:
        """Value of a symbolic Parameter for simulation. Once all parameters have values, the checks of
        assembly that needed them run (e.g. an FFRF body's reference conditions, which a rigid body's mass
        Parameter on its frame node decides)."""
        if name not in self.parameter_values:
            raise KeyError(f"no Parameter '{name}'; the system has {sorted(self.parameter_values) or 'none'}")
        size = next(p.size for p in self.parameters if p.name == name)
        value = np.atleast_1d(np.asarray(value, dtype=float)).reshape(-1)
        if value.size != size:
            raise ValueError(f"Parameter '{name}' has size {size}, got {value.size} values")
        self.parameter_values[name] = value
        if self.pending_checks and all(v is not None for v in self.parameter_values.values()):
            self._sparse_cache.pop("initial", None)
            for check in list(self.pending_checks):
                check(self)  # may raise; it then stays pending for the next value
                self.pending_checks.remove(check)

    def set_input(self, name: str, signal) -> None:
        """Signal of an Input for simulation: an InputSignal or any callable t -> values."""
        if name not in self.input_signals:
            raise KeyError(f"no Input '{name}'; the system has {sorted(self.input_signals) or 'none'}")
        self.input_signals[name] = signal

    def parameter_vector(self) -> np.ndarray:
        """p for simulation; fails clearly for a parameter that has no value."""
        missing = [name for name, value in self.parameter_values.items() if value is None]
        if missing:
            raise ValueError(f"symbolic parameter(s) {missing} have no value: set them with set_parameter")
        values = [self.parameter_values[p.name] for p in self.parameters]
        return np.concatenate(values) if values else np.zeros(0)

    def input_vector(self, t: float) -> np.ndarray:
        """u(t) for simulation; fails clearly for an input without signal or beyond its end."""
        values = []
        for item in self.inputs:
            signal = self.input_signals[item.name]
            if signal is None:
                raise ValueError(f"Input '{item.name}' has no signal: set one with set_input")
            end = getattr(signal, "end", None)
            if end is not None and t > end + 1e-12:
                raise ValueError(f"the signal of Input '{item.name}' ends at t = {end:.6g}, before t = {t:.6g}")
            value = np.atleast_1d(np.asarray(signal(t), dtype=float)).reshape(-1)
            if value.size != item.size:
                raise ValueError(f"the signal of Input '{item.name}' gave {value.size} values, expected {item.size}")
            values.append(value)
        return np.concatenate(values) if values else np.zeros(0)

    def _call(self, name, t, *arguments):
        u, p = self.input_vector(float(t)), self._parameters_now()
        if self.user_functions is not None and name in self.user_functions.functions:  # with user functions
            return self.user_functions.call(name, (t, *arguments[:4]), (t, *arguments), u, p)
        return self.functions[name](t, *arguments, u, p)

    def _parameters_now(self):
        return self.parameter_vector() if self.parameters else np.zeros(0)

    def load_residual(self) -> ca.Function:
        """(t, q, u, p) -> (R_loads, dR_loads/dq): the loads' own part of the residual R (i.e. -f_loads).

        For load stepping and for linearizations without the loads. Built on first use from the loads'
        terms on a context that shares the assembly's symbols; loads given by numeric (non-traceable)
        user functions cannot be taken apart this way and raise ModelError.
        """
        if self._load_residual is None:
            ctx = self.context
            loads_ctx = Context(t=ctx.t, q=ctx.q, v=ctx.v, a=ctx.a, lam=ctx.lam, q_reference=ctx.q_reference,
                                system=ctx.system, kinematic_velocity=ctx.kinematic_velocity,
                                rotation_indices=ctx.rotation_indices, parameters=ctx.parameters, inputs=ctx.inputs)
            for load in self.system.loads:
                load.add_terms(loads_ctx)
            if loads_ctx.externals:
                raise ModelError("the loads' part of the residual cannot be taken apart where loads are given by "
                                 "numeric user functions: use a load function of t built from arithmetic and "
                                 "CasADi/NumPy functions")
            part = ca.SX.zeros(self.n_coordinates)
            for indices, terms in loads_ctx.lhs:
                part[indices] += terms
            self._load_residual = ca.Function("load_residual", [ctx.t, ctx.q, self.symbols.u, self.symbols.p],
                                              [part, ca.jacobian(part, ctx.q)])
        return self._load_residual

    def describe_coordinates(self, coordinates) -> str:
        """The nodes owning the given coordinate indices and their local numbers, for error messages."""
        wanted = set(int(c) for c in coordinates)
        parts = []
        for node in self.system.nodes:
            local = [k for k, index in enumerate(node.coordinate_indices) if int(index) in wanted]
            if local:
                parts.append(f"{node.label} coordinate{'s' if len(local) > 1 else ''} {', '.join(map(str, local))}")
        return "; ".join(parts)

    def describe_constraints(self, rows) -> str:
        """Owners of the given constraint rows, for error messages."""
        names = sorted({self.constraint_owners[r] for r in rows if 0 <= r < len(self.constraint_owners)})
        return ", ".join(names) if names else "(none)"


def index2_form(ctx, items, constraints, norm_rows, reactions):
    """(velocity equations J v + c (m,), their reactions minus ``reactions`` (n,)), or None.

    Where connectors declare their own velocity-level equations (``Context.add_velocity_constraint``:
    a spherical joint on a rigid body, in Exudyn's omega form with the unnormalised A_E), the index-2
    schemes use them instead of dC/dt, and the reactions become J^T lambda with J = d/dv of them (the
    Euler-parameter norm rows keep C_q^T lambda). On theta^T theta = 1 both forms are equal; they differ
    by O(theta^T theta - 1), the drift of the norm at index 2. Other rows keep dC/dt = C_q v + C_t.
    """
    if not ctx.velocity_constraints:
        return None
    parts = []
    for item in items:
        if not item.multiplier_indices.size:
            continue
        equations = ctx.velocity_constraints.get(item)
        if equations is None:
            position = ctx.constraints[item]
            equations = ca.jtimes(position, ctx.q, ctx.v) + ca.jacobian(position, ctx.t)
        elif equations.numel() != item.multiplier_indices.size:
            raise item.error("declared velocity-level constraints of another size than its constraints")
        parts.append(equations)
    velocity = ca.vertcat(*parts)
    if ca.depends_on(velocity, ca.vertcat(ctx.a, ctx.lam)):
        raise ModelError("velocity-level constraints may depend only on q, v and t")
    mask = ca.DM(np.asarray(norm_rows, dtype=float))
    jacobian = ca.jacobian(velocity, ctx.v)                                                      # J
    index2_reactions = ca.jtimes(constraints, ctx.q, mask * ctx.lam, True) + jacobian.T @ ((1 - mask) * ctx.lam)
    return velocity, index2_reactions - reactions


def reaction_forces(ctx, constraints, norm_rows) -> ca.SX:
    """C_q^T lambda, with the reactions of all constraints but the Euler-parameter norms projected (P).

    Like applied forces (``Context.add_force_at``), joint reactions do work on rotations only through
    omega = G theta_t: their part along theta is removed, and only the norm constraint
    theta^T theta - 1 = 0 acts along theta. Coordinates do not change (that part was carried by the norm
    constraint's multiplier before), and the multipliers agree with Exudyn's.
    """
    if constraints.numel() == 0:
        return ca.SX.zeros(ctx.q.numel())
    mask = ca.DM(np.asarray(norm_rows, dtype=float))
    norms = ca.jtimes(constraints, ctx.q, mask * ctx.lam, True)
    others = ca.jtimes(constraints, ctx.q, (1 - mask) * ctx.lam, True)
    return norms + ctx.project_rotations(others)


def sparse_jacobian(expression, variable, dense_factor: float = 4.0):
    """Exact Jacobian d expression / d variable, computed in blocks.

    A few dense rows and columns (the reference-frame coordinates couple to every mesh node) would make
    plain AD colouring need one sweep per column. Rows and columns with more than ``dense_factor`` times
    the median number of entries and more than a quarter of the full length are split off: their
    Jacobian is taken in reverse (rows) or forward (columns) mode, the sparse rest with colouring.
    Build time then grows linearly with the mesh.
    """
    n_rows, n_columns = expression.numel(), variable.numel()
    if n_rows == 0 or n_columns == 0 or isinstance(expression, ca.MX):
        return ca.jacobian(expression, variable)
    pattern = ca.jacobian_sparsity(expression, variable)
    if pattern.nnz() == 0:  # no dependence at all (e.g. a model whose residual is linear)
        return ca.jacobian(expression, variable)
    rows, columns = (np.asarray(index, dtype=int) for index in pattern.get_triplet())
    row_counts = np.bincount(rows, minlength=n_rows)
    column_counts = np.bincount(columns, minlength=n_columns)
    dense_rows = np.flatnonzero(row_counts > max(dense_factor * np.median(row_counts[row_counts > 0]),
                                                 n_columns / 4, 16))
    dense_columns = np.flatnonzero(column_counts > max(dense_factor * np.median(column_counts[column_counts > 0]),
                                                       n_rows / 4, 16))
    if dense_rows.size == 0 and dense_columns.size == 0:
        return ca.jacobian(expression, variable)
    sparse_rows = np.setdiff1d(np.arange(n_rows), dense_rows).tolist()
    sparse_columns = np.setdiff1d(np.arange(n_columns), dense_columns).tolist()
    jacobian = type(expression)(n_rows, n_columns)
    if sparse_rows and sparse_columns:
        jacobian[sparse_rows, sparse_columns] = ca.jacobian(expression[sparse_rows], variable[sparse_columns])
    if dense_columns.size:
        jacobian[:, dense_columns.tolist()] = ca.jacobian(expression, variable[dense_columns.tolist()])
    if dense_rows.size and sparse_columns:  # the dense columns of these rows are done already
        jacobian[dense_rows.tolist(), sparse_columns] = ca.jacobian(expression[dense_rows.tolist()],
                                                                     variable[sparse_columns])
    return jacobian


def _dense(value) -> np.ndarray:
    return np.asarray(ca.DM(value)).reshape(-1) if not isinstance(value, np.ndarray) else value.reshape(-1)


def _function(name, inputs, output, placeholders, always: bool = False) -> ca.Function:
    """An SX Function of ``inputs``, and of the user-function ``placeholders`` last where ``output`` holds
    them (or ``always``, where there are any)."""
    if placeholders and (always or ca.depends_on(output, ca.vertcat(*[ca.vec(p) for p in placeholders]))):
        return ca.Function(name, inputs + placeholders, [output])
    return ca.Function(name, inputs, [output])


def _splice_externals(symbols, expressions, externals):
    """Replace callback placeholders by the callbacks themselves (in an MX graph), so that every
    derivative taken afterwards includes them by the chain rule. Without callbacks: unchanged."""
    if not externals:
        return symbols, expressions
    placeholders = [p for p, _, _ in externals]
    inner = ca.Function("inner", symbols + placeholders, expressions)
    external_inputs = ca.Function("external_inputs", symbols, [x for _, _, xs in externals for x in xs])
    mx_symbols = [ca.MX.sym(f"s{i}", *s.shape) for i, s in enumerate(symbols)]
    values = external_inputs.call(mx_symbols)
    external_values, position = [], 0
    for _, callback, xs in externals:
        external_values.append(callback(*values[position:position + len(xs)]))
        position += len(xs)
    return mx_symbols, inner.call(mx_symbols + external_values)
