"""The assembled model: one implicit index-3 DAE as numeric functions, what solvers work with.

    R(t, q, v, a, lambda, u, p) = M(q) a + (damping, stiffness, quadratic velocity terms) - f + C_q^T lambda = 0
    C(t, q, u, p) = 0       (u: input signals, p: symbolic parameters; both usually empty)

:class:`AssembledSystem` implements the DAE contract (``floatframe.solvers.contract.DAE``): the residual, the
constraint rows at each level, the iteration matrix on its fixed pattern (``floatframe.assembly.patterns``),
sensors, parameters and inputs. Its functions are formed by ``floatframe.assembly.functions``; Python user
functions in the residual are evaluated by ``floatframe.assembly.user_function_terms``.
"""
from __future__ import annotations

import hashlib
import time

import casadi as ca
import numpy as np
import scipy.sparse as sp

from floatframe.assembly.functions import ITERATION_MATRICES, Symbols, SystemFunctions
from floatframe.assembly.patterns import MatrixPatterns
from floatframe.assembly.user_function_terms import UserFunctionTerms
from floatframe.buffers import BufferedFunction
from floatframe.components.base import Context, ModelError

SPIN_CHECK_MAX_COORDINATES = 3_000   # full FFRF bodies up to this size get the spin-rate warning (``monitors``)


class ParameterValues(dict):
    """Parameter name -> value (None until set), with a ``version`` that every assignment raises, so that the
    stacked vector p is made again only after a change (concatenating a dozen values at every evaluation was
    a tenth of a small model's Newton iteration)."""

    version = 0

    def __setitem__(self, name, value) -> None:
        super().__setitem__(name, value)
        self.version += 1

    def update(self, *arguments, **keywords) -> None:
        super().update(*arguments, **keywords)
        self.version += 1


def function_structure(function: ca.Function) -> str:
    """A cheap fingerprint of a Function: its output's shape, CasADi's hash of its sparsity pattern (computed from
    the pattern, the same in every process; 3 us, where hashing the pattern's arrays took 15-50 us) and its
    number of instructions."""
    sparsity = function.sparsity_out(0)
    return f"{sparsity.shape} {function.n_instructions()} {sparsity.hash()}"


class AssembledSystem:
    """Numeric functions of an assembled model; what solvers work with, through the members of the DAE
    contract (``floatframe.solvers.contract.DAE``) only.

    Attributes: ``n_coordinates`` (n), ``n_multipliers`` (m), ``q_reference``, ``q_initial``,
    ``v_initial`` (n,), ``euler_parameter_rows`` (the coordinate indices of each Euler-parameter
    node's theta), ``build_time`` [s], ``symbols``, ``functions``.

    The residual and iteration matrices are evaluated from the numeric functions of
    :class:`~floatframe.assembly.functions.SystemFunctions`, which leave out the constant linear terms
    (K q_f, D v_f, M a_f of FE bodies); they are added here with SciPy. ``functions`` are the complete CasADi
    Functions of the outputs for symbolic users, formed on first use. With Python user functions
    (callbacks) in the residual, ``user_functions`` (a UserFunctionTerms) evaluates the outputs that hold
    them numerically, each user function once per residual; ``functions`` then has those that solvers
    differentiate themselves (residual, sensors) as MX Functions with the callbacks spliced in, and no
    iteration matrices: these are ``newton_matrix`` and ``mass_matrix`` only.
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
        self.parameters = list(ctx.parameters)   # Parameter objects, in the order of p
        self.inputs = list(ctx.inputs)           # Input objects, in the order of u
        sensors = ca.vertcat(*sensor_expressions) if sensor_expressions else ca.SX(0, 1)
        self.forms = SystemFunctions(ctx, nonlinear_residual, linear, constraints, sensors, index2)
        self.has_index2_form = index2 is not None
        self._linear = {name: sp.csr_matrix(matrix) for name, matrix in linear.items()}
        self._linear_nonzeros = sum(int(matrix.indptr[-1]) for matrix in self._linear.values())   # (nnz: 2 us each)
        self._formed_numeric = dict(self.forms.numeric)   # as formed, whatever ``use_numeric`` puts in their place
        self.user_functions = None
        if ctx.externals:  # evaluated numerically, see floatframe.assembly.user_function_terms
            forms = self.forms
            with_values = {name: function for name, function in forms.numeric.items()
                           if function.n_in() > forms.input_counts[name] + 2}
            self.user_functions = UserFunctionTerms(ctx.externals, with_values, forms.state, forms.u, forms.p,
                                                    forms.factors, forms.delta, nonlinear_residual)
        self.parameter_values = ParameterValues((parameter.name, parameter.value) for parameter in self.parameters)
        self._parameter_vector = (-1, None)   # (the values' version, p): p is read at every evaluation
        self.input_signals = {item.name: item.signal for item in self.inputs}
        self._symbols = None
        self._load_residual = None
        self._exudyn_difference = None   # (Function or None,) once built (``exudyn_matrix_difference``)
        self._sensor_slices = np.cumsum([0] + [e.numel() for e in sensor_expressions])
        self.patterns = MatrixPatterns(self.forms.numeric, self._linear, self.n_coordinates, self.user_functions)
        self._sparse_cache = {}  # "initial" -> M and C_q at the initial state, see initial_matrices
        self._buffered = {}   # Function name -> BufferedFunction
        self._linear_stacked = None  # ([names], [L_q L_v L_a]) of the nonempty linear terms, see _with_linear_terms
        self._no_shift = np.zeros(self.n_coordinates)
        self._monitors = None   # see monitors
        self.pending_checks = []  # checks (assembled -> None) that wait for the values of all parameters (defer_check)
        self.build_time = build_time + time.perf_counter() - started

    @property
    def functions(self) -> dict:
        """The complete CasADi Functions of the outputs (name -> Function of (inputs, u, p)), formed on first use."""
        return self.forms.complete()[0]

    @property
    def symbols(self) -> Symbols:
        """The symbolic DAE for users who build on it (IDAS, optimal control), formed on first use."""
        if self._symbols is None:
            self._symbols = self.forms.symbols()
        return self._symbols

    @property
    def euler_parameter_rows(self) -> list:
        """The coordinate indices (4,) of each Euler-parameter node's theta."""
        return self.context.rotation_indices

    @property
    def sensor_names(self) -> list[str]:
        """Each sensor's name, or its type where it has none."""
        return [sensor.name or sensor.type_name for sensor in self.system.sensors]

    @property
    def sensor_variables(self) -> list[str]:
        """Each sensor's output variable (e.g. "Position"), which gives the units of its CSV columns."""
        return [str(getattr(sensor, "output_variable_type", "")) for sensor in self.system.sensors]

    @property
    def sensor_slices(self) -> np.ndarray:
        """(k + 1,) bounds of each sensor's rows in the stacked sensor output."""
        return self._sensor_slices

    @property
    def has_user_functions(self) -> bool:
        """Whether Python user functions (CasADi callbacks) enter the residual."""
        return bool(self.context.externals)

    @property
    def user_function_callbacks(self) -> list:
        """The callbacks of the Python user functions in the residual."""
        return [callback for _, callback, _ in self.context.externals]

    @property
    def monitors(self) -> list:
        """Callables (t, q, v) -> None that a solver calls at the states it stores: warnings where the model
        leaves its range of validity. Here: an FFRF body without geometric stiffening whose frame spins above
        0.3 of its lowest elastic frequency (``floatframe.components.geometric_stiffening.check_spin_rates``),
        for reduced bodies and full bodies of at most ``SPIN_CHECK_MAX_COORDINATES`` coordinates, where that
        frequency costs well under a second (larger bodies: call check_spin_rates yourself). Found once (the
        search took 20 us of a tiny model's 1.4 ms solve)."""
        if self._monitors is None:
            self._monitors = self._find_monitors()
        return self._monitors

    def _find_monitors(self) -> list:
        from floatframe.components.ffrf import FloatingFrameBody

        bodies = [body for body in self.system.objects if isinstance(body, FloatingFrameBody)
                  and getattr(body, "geometric_stiffness", None) is None
                  and (hasattr(body, "invariants") or body.n_coordinates <= SPIN_CHECK_MAX_COORDINATES)]
        if not bodies:
            return []
        from floatframe.components.geometric_stiffening import check_spin_rates_stacked

        def spin_rates(t, q, v):
            for body in bodies:
                if not getattr(body, "_spin_warning_given", False):   # (once a body warned, nothing to compute)
                    check_spin_rates_stacked(body, np.atleast_1d(t), np.atleast_2d(q), np.atleast_2d(v),
                                             self.q_reference)
        return [spin_rates]

    def numeric_function(self, name: str) -> ca.Function:
        """The numeric Function ``name`` that the evaluations use (see ``floatframe.assembly.functions``)."""
        return self.forms.numeric[name]

    def fingerprint(self, serialized, structured=()) -> str:
        """A text that changes whenever the complete Functions of these names would, found without forming them
        (for caches of code composed from them): the numeric Functions ``serialized`` in full, those
        ``structured`` by their output's pattern and instruction count, and the values of the constant linear
        terms that the complete Functions add. Not for models with Python user functions, whose callbacks no
        serialization holds (ValueError)."""
        if self.user_functions is not None:
            raise ValueError("fingerprint: a model with Python user functions has none (its callbacks are Python)")
        parts = [self._formed_numeric[name].serialize() for name in serialized]
        parts += [function_structure(self._formed_numeric[name]) for name in structured]
        digest = hashlib.sha256()
        for name in sorted(self._linear):
            matrix = self._linear[name]
            digest.update(f"{name} {matrix.shape} {matrix.nnz} ".encode())
            if matrix.nnz:   # (an empty matrix: its shape and count say it all)
                for array in (matrix.indptr, matrix.indices, matrix.data):
                    digest.update(np.ascontiguousarray(array).tobytes())
        return "".join(parts + [digest.hexdigest()])

    def residual_with_jacobian(self) -> ca.Function:
        """R(t, q, v, a, lam, u, p) as a CasADi Function whose Jacobian is the exact blocked one (for IDAS)."""
        return self.forms.residual_with_jacobian()

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

    def constraint_input_rate(self, t, q) -> np.ndarray:
        """C_u du/dt (m,): the part of dC/dt from the input signals, which ``constraint_velocity`` (u held at
        u(t)) leaves out; by a forward difference of the signals over 1e-7 max(1, |t|) s (zero without inputs)."""
        if not self.inputs or not self.n_multipliers:
            return np.zeros(self.n_multipliers)
        step = 1e-7 * max(1.0, abs(float(t)))
        now, later = self.input_vector(float(t)), self.input_vector(float(t) + step)
        if np.array_equal(now, later):
            return np.zeros(self.n_multipliers)
        function, p = self.forms.numeric["constraints"], self._parameters_now()
        rows, _, (size, _) = self.patterns.output("constraints")
        rate = np.zeros(size)
        ahead = self._evaluate(function, t, q, later, p)[0].copy()   # (the evaluator's output buffer is reused)
        rate[rows] = (ahead - self._evaluate(function, t, q, now, p)[0]) / step
        return rate

    def constraint_acceleration_rest(self, t, q, v) -> np.ndarray:
        """d^2 C / dt^2 - C_q a: the acceleration-level constraint is C_q a + this = 0."""
        return _dense(self._call("constraint_acceleration_rest", t, q, v))

    def newton_matrix(self, t, q, v, a, lam, c_a, c_v, c_q, index=3) -> sp.csc_matrix:
        """[[c_a R_a + c_v R_v + c_q R_q, R_lambda], [C_q, 0]], exact and sparse, (n+m, n+m).

        ``index=2``: of the index-2 form where there is one, with J = d(velocity equations)/dv for C_q.
        """
        self.current_state = (t, q, v, a, lam)
        return self._sparse(self.form_name("newton_matrix", index), t, q, v, a, lam, c_a, c_v, c_q, self._no_shift)

    def evaluation_work(self, name: str) -> int:
        """Operations of one evaluation of function ``name`` ("residual", "newton_matrix", ...), for the
        solvers' cost estimates: its numeric Function's CasADi instructions plus the nonzeros of the linear
        terms that a residual or iteration matrix adds. What is not an SX Function (user functions evaluated in
        Python, MX graphs, compiled code) counts as 0."""
        function = self.forms.numeric.get(name)
        work = function.n_instructions() if function is not None and function.is_a("SXFunction") else 0
        if name.startswith(("residual", "newton_matrix")):
            work += self._linear_nonzeros
        return work

    def use_numeric(self, functions: dict) -> None:
        """Evaluate these Functions (name -> Function with the same inputs and outputs, e.g. compiled C code)
        instead of the numeric Functions of the same names from now on."""
        for name, function in functions.items():
            self.forms.numeric[name] = function
            self._buffered.pop(function.name(), None)

    def iteration_matrix_nonzeros(self, name: str = "newton_matrix") -> int:
        """Structural nonzeros of iteration matrix ``name``: its Function's output and the linear terms
        (an upper bound where the two overlap)."""
        return self.forms.numeric[name].sparsity_out(0).nnz() + self._linear_nonzeros

    def form_name(self, name, index) -> str:
        """The name of function ``name`` in ``functions`` for the scheme of this index (see index2_form)."""
        return name + "_index2" if index == 2 and self.has_index2_form else name

    def constraint_rows_name(self, index) -> str:
        """The function of a scheme's constraint rows: C (index 3) or the velocity-level equations (index 2)."""
        return "constraints" if index == 3 else self.form_name("constraint_velocity", 2)

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
            n = self.n_coordinates
            state = (0.0, self.q_initial, self.v_initial, np.zeros(n), np.zeros(self.n_multipliers))
            # the iteration matrix with c_a = 1, c_v = c_q = 0 is [[M, R_lambda], [C_q, 0]]: the solvers' own
            # Function, so no separate mass-matrix Jacobian is formed (0.35 s of a 10k-coordinate assembly);
            # on its own pattern (the structural one that the LU keeps is the solvers' to form, when they need it)
            matrix = self._sparse_values("newton_matrix", *state, 1.0, 0.0, 0.0, self._no_shift, u, p,
                                         structural_pattern=False)
            self._sparse_cache["initial"] = (matrix[:n, :n].tocsc(), matrix[n:, :n].tocsc())
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

    def sensor_rows(self, number: int) -> slice:
        """The rows of sensor ``number`` in the stacked output of ``functions["sensors"]``."""
        if not 0 <= number < len(self._sensor_slices) - 1:
            raise IndexError(f"no sensor {number}; the system has {len(self._sensor_slices) - 1} sensors")
        return slice(int(self._sensor_slices[number]), int(self._sensor_slices[number + 1]))

    def sensor_values(self, t, q, v, a, lam, parameters=None) -> list[np.ndarray]:
        values = _dense(self._call("sensors", t, q, v, a, lam, parameters=parameters))
        return [values[self._sensor_slices[i]:self._sensor_slices[i + 1]] for i in range(len(self._sensor_slices) - 1)]

    def _sparse(self, name, t, *arguments) -> sp.csc_matrix:
        return self._sparse_values(name, t, *arguments, self.input_vector(float(t)), self._parameters_now())

    def _sparse_values(self, name, *arguments, structural_pattern: bool = True) -> sp.csc_matrix:
        """A sparse output as scipy CSC, with the linear terms' part for an iteration matrix; ``arguments``
        include u and p (an iteration matrix's: a state, 3 factors, delta, u, p). An iteration matrix comes on
        its structural pattern (``MatrixPatterns``), or with ``structural_pattern=False`` on the pattern of
        its parts' sum (for a single use, which need not pay for finding the structural pattern)."""
        function = self.forms.numeric[name]
        rows, column_pointers, shape = self.patterns.output(name)
        if self.user_functions is not None and name in self.user_functions.functions:  # their values and part
            matrix = self.user_functions.matrix(name, arguments[:5], arguments[5:8], *arguments[-2:],
                                                (rows, column_pointers, shape))
        elif name in ITERATION_MATRICES and structural_pattern:
            return self.patterns.iteration_matrix(name, self._evaluate(function, *arguments)[0], *arguments[5:8])
        else:
            matrix = sp.csc_matrix((self._evaluate(function, *arguments)[0].copy(), rows, column_pointers),
                                   shape=shape)
        if name not in ITERATION_MATRICES:
            return matrix
        matrix = matrix + self.patterns.linear_iteration(*arguments[5:8], matrix.shape)
        return self.patterns.on_structural(name, matrix) if structural_pattern else matrix

    def _with_linear_terms(self, name, residual, q, v, a) -> np.ndarray:
        """The residual ``residual`` of function ``name`` with L_q q + L_v v + L_a a added (a residual's)."""
        if name.startswith("residual"):
            if self._linear_stacked is None:  # [L_q L_v L_a] without the empty ones: one product
                used = [name for name in "qva" if self._linear[name].nnz]
                self._linear_stacked = (used, sp.hstack([self._linear[name] for name in used], format="csr")
                                        if used else None)
            used, stacked = self._linear_stacked
            if stacked is not None:
                state = {"q": q, "v": v, "a": a}
                residual = residual + stacked @ np.concatenate([state[name] for name in used])
        return residual

    def _evaluate(self, function: ca.Function, *values) -> list[np.ndarray]:
        """``function`` at ``values`` through buffers (no conversion of large arrays); its outputs' nonzeros
        (the buffers themselves: copy to keep them)."""
        name = function.name()
        if name not in self._buffered:
            self._buffered[name] = BufferedFunction(function)
        return self._buffered[name](*values)

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
        function = BufferedFunction(ca.Function(name, [ctx.t, ctx.q, ctx.v, ctx.a, ctx.lam, self.forms.u,
                                                       self.forms.p], [ca.densify(expression)]))

        def evaluate(t, q, v, a, lam) -> np.ndarray:   # (through buffers: 10 us a call, where DMs took 150)
            return function(t, q, v, a, lam, self.input_vector(float(t)), self._parameters_now())[0].copy()
        return evaluate

    # --- parameters and inputs --------------------------------------------------------------
    def defer_check(self, check) -> None:
        """Run ``check`` (assembled -> None, raising ModelError) once every Parameter has a value: the hook for a
        component's post-assembly check (``Component.check``) that a Parameter without value leaves undecided."""
        self.pending_checks.append(check)

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
        self.parameter_values[name] = value.copy()   # (not a view of the caller's array: p is kept)
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
        """p for simulation (read-only; made again after a change of ``parameter_values``); fails clearly for a
        parameter that has no value."""
        version, vector = self._parameter_vector
        if version != self.parameter_values.version:
            missing = [name for name, value in self.parameter_values.items() if value is None]
            if missing:
                raise ValueError(f"symbolic parameter(s) {missing} have no value: set them with set_parameter")
            values = [self.parameter_values[p.name] for p in self.parameters]
            vector = np.concatenate(values).astype(float) if values else np.zeros(0)
            vector.setflags(write=False)
            self._parameter_vector = (self.parameter_values.version, vector)
        return vector

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

    def _call(self, name, t, *arguments, parameters=None) -> np.ndarray:
        """Vector output ``name`` at (t, arguments) with u(t) and p (``parameters``, default the current values); a
        residual with its linear terms."""
        u = self.input_vector(float(t))
        p = self._parameters_now() if parameters is None else np.asarray(parameters, dtype=float)
        if self.user_functions is not None and name in self.user_functions.functions:  # with user functions
            values = self.user_functions.call(name, (t, *arguments[:4]), (t, *arguments), u, p)
        else:
            rows, _, (size, _) = self.patterns.output(name)
            nonzeros = self._evaluate(self.forms.numeric[name], t, *arguments, u, p)[0]
            if rows.size == size:   # dense
                values = nonzeros.copy()
            else:
                values = np.zeros(size)
                values[rows] = nonzeros
        return self._with_linear_terms(name, values, *arguments[:3]) if name.startswith("residual") else values

    def parameters_now(self) -> np.ndarray:
        """p, or an empty vector for a model without Parameters."""
        return self.parameter_vector() if self.parameters else np.zeros(0)

    _parameters_now = parameters_now

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
            self._load_residual = ca.Function("load_residual", [ctx.t, ctx.q, self.forms.u, self.forms.p],
                                              [part, ca.jacobian(part, ctx.q)])
        return self._load_residual

    def exudyn_matrix_difference(self):
        """(t, q, v, u, p, c_q, c_v) -> c_q dD/dq + c_v dD/dv (n, n), or None where no component has one: D is the
        residual part whose derivatives Exudyn's iteration matrix has otherwise than the residual
        (``add_exudyn_jacobian_difference`` of a component: its exact terms less the ones Exudyn's analytic Jacobian
        is the derivative of). Exudyn's matrix (``floatframe.solvers.genalpha.ResidualStop``) leaves it out, as the
        loads' part. Built on first use."""
        if self._exudyn_difference is None:
            owners = [item for item in self.system.objects if hasattr(item, "add_exudyn_jacobian_difference")]
            ctx = self.context
            part_ctx = Context(t=ctx.t, q=ctx.q, v=ctx.v, a=ctx.a, lam=ctx.lam, q_reference=ctx.q_reference,
                               system=ctx.system, kinematic_velocity=ctx.kinematic_velocity,
                               rotation_indices=ctx.rotation_indices, parameters=ctx.parameters, inputs=ctx.inputs)
            for item in owners:
                item.add_exudyn_jacobian_difference(part_ctx)
            if not part_ctx.lhs:
                self._exudyn_difference = (None,)
            else:
                part = ca.SX.zeros(self.n_coordinates)
                for indices, terms in part_ctx.lhs:
                    part[indices] += terms
                c_q, c_v = ca.SX.sym("c_q"), ca.SX.sym("c_v")
                matrix = c_q * ca.jacobian(part, ctx.q) + c_v * ca.jacobian(part, ctx.v)
                self._exudyn_difference = (ca.Function("exudyn_matrix_difference", [
                    ctx.t, ctx.q, ctx.v, self.forms.u, self.forms.p, c_q, c_v], [matrix]),)
        return self._exudyn_difference[0]

    def describe_coordinates(self, coordinates) -> str:
        """The nodes owning the given coordinate indices and their local numbers, for error messages."""
        wanted = set(int(c) for c in coordinates)
        parts = []
        for node in self.system.nodes:
            local = [k for k, index in enumerate(node.coordinate_indices) if int(index) in wanted]
            if local:
                parts.append(f"{node.label} coordinate{'s' if len(local) > 1 else ''} {', '.join(map(str, local))}")
        return "; ".join(parts)

    def coordinates_by_node(self) -> list[tuple[str, np.ndarray]]:
        """(label, coordinate indices) of each node that has coordinates, in node order."""
        return [(node.label, node.coordinate_indices) for node in self.system.nodes if node.n_coordinates]

    def describe_constraints(self, rows) -> str:
        """Owners of the given constraint rows, for error messages."""
        names = sorted({self.constraint_owners[r] for r in rows if 0 <= r < len(self.constraint_owners)})
        return ", ".join(names) if names else "(none)"


def _dense(value) -> np.ndarray:
    return np.asarray(ca.DM(value)).reshape(-1) if not isinstance(value, np.ndarray) else value.reshape(-1)
