"""The low-overhead path of the implicit solvers for small systems: buffered CasADi calls, dense LAPACK LU.

A small model (a rigid body, a reduced-order flexible body with a few modes) costs far less to evaluate
than to call: a CasADi Function called with NumPy arrays spends about 0.1 ms converting them, against
about 1 us for the evaluation itself. Here each function is evaluated through CasADi's buffer interface
(its inputs and outputs bound once to NumPy arrays), the Newton rows R and C / c_q (or dC/dt / c_v) come
from one Function of (q_known, v_known, a) instead of two calls and a concatenation, and the iteration
matrix is formed dense and factorized by LAPACK (getrf / getrs) instead of SuperLU.

The solvers choose this path for ``n_coordinates + n_multipliers <= DENSE_LIMIT`` and for models without
Python user functions; larger models keep the sparse path (``floatframe.solvers.linear.sparse_lu``).
"""
from __future__ import annotations

import functools
import math
import weakref

import casadi as ca
import numpy as np
import scipy.sparse as sp
from scipy.linalg import lapack

from floatframe.buffers import BufferedFunction
from floatframe.errors import ModelError
from floatframe.solvers.alpha import predictor, trapezoidal_step
from floatframe.solvers.compiling import CompiledKernel, apply_compile_option, code_digest, external_functions

# Largest n + m for the dense path. Measured on FFRF beams (docs/performance.md): the dense path beats the
# sparse one at 61 and 133 unknowns and is 16 times slower at 229 (dense matrix, O(N^2) substitution
# graph, O(N^3) LU).
DENSE_LIMIT = 100

_kernels = weakref.WeakKeyDictionary()  # AssembledSystem -> {index: DenseNewtonKernel, "sensors": BufferedFunction}


def wants_dense(system, linear_algebra: str) -> bool:
    """Whether ``system`` is solved on the dense path for the solver option ``linear_algebra``.

    ``"auto"``: dense for n + m <= DENSE_LIMIT without user-function callbacks; ``"dense"``: dense
    where possible (no callbacks); ``"sparse"``: never.
    """
    if linear_algebra == "sparse" or system.has_user_functions:
        return False
    if linear_algebra == "dense":
        return True
    return system.n_coordinates + system.n_multipliers <= DENSE_LIMIT


def dense_kernel(system, index: int, compile="auto", trapezoidal: tuple = ()) -> "DenseNewtonKernel":
    """The kernel of ``system`` for index-3 or index-2 constraint rows, kept for later solves; ``trapezoidal``: the
    coordinates it steps by the trapezoidal rule (``GeneralizedAlpha.trapezoidal_coordinates``, sorted).

    ``compile``: True, False or "auto", as ``floatframe.solvers.compiling.apply_compile_option`` takes it.
    """
    per_system = _kernels.setdefault(system, {})
    key = (index, trapezoidal) if trapezoidal else index
    if key not in per_system:
        per_system[key] = DenseNewtonKernel(system, index, trapezoidal)
    return apply_compile_option(per_system[key], compile)


SENSOR_BATCH_VALUES = 2_000_000   # state values (n x states) of one batched evaluation of the sensors
SENSOR_BATCH_STATES = 256         # at most this many states in one batched evaluation (CasADi's map, made once)


def sensor_series(system, t, q, v, a, lam, parameters=None) -> list:
    """Each sensor's values at the stored states, (k, size) per sensor, from their stacked times t (k,) and
    q, v, a (k, n), lam (k, m); ``parameters`` (k, number of p) gives each state's p (default: the current one).

    Without user-function callbacks the sensors Function is mapped over batches of states (CasADi's ``map``: the
    same evaluation of each, one call for many: 0.76 of a 4.2 s run with 100,000 stored states went to calling
    it state by state), evaluated through buffers (converting a call's arguments cost 1.2 us a state, 4 of a 12 ms
    Exudyn test of 2,000 states), a map of a batch size that balances its making against the calls (kept per
    system and size); with callbacks state by state.
    """
    count = len(system.sensor_names)
    if not count:
        return []
    if system.has_user_functions:
        if parameters is None:
            evaluate = sensor_evaluator(system)
            rows = [evaluate(*state) for state in zip(t, q, v, a, lam)]
        else:
            rows = [system.sensor_values(*state, parameters=p) for *state, p in zip(t, q, v, a, lam, parameters)]
        return [np.vstack([row[i] for row in rows]) for i in range(count)]
    # making a map of B states costs about 0.6 B us, a batch's call some 10 us besides its states: for k states
    # about B = 4 sqrt(k) is cheapest (a power of 2, so that solves of similar length share the map)
    balanced = 2 ** round(math.log2(max(16.0, 4.0 * math.sqrt(t.size))))
    batch = max(1, min(SENSOR_BATCH_STATES, balanced, t.size,
                       SENSOR_BATCH_VALUES // max(1, system.n_coordinates + system.n_multipliers)))
    mapped = _mapped_sensors(system, batch)
    # input i of the map is (size_i, batch) column by column: as (batch, size_i), a row a state; the output holds
    # each state's nonzeros in turn, at the rows ``nonzero_rows`` of its (size, 1) column
    blocks = [array.reshape(batch, -1) for array in mapped.inputs]
    output = mapped.outputs[0].reshape(batch, -1)
    sparsity = system.numeric_function("sensors").sparsity_out(0)
    nonzero_rows = np.asarray(sparsity.row(), dtype=int)
    values = np.zeros((t.size, sparsity.size1()))
    blocks[6][:] = system.parameters_now()
    for begin in range(0, t.size, batch):
        end = min(begin + batch, t.size)
        rows = np.minimum(np.arange(begin, begin + batch), end - 1)   # a last short batch repeats its last state
        if parameters is not None:
            blocks[6][:] = parameters[rows]
        blocks[0][:, 0] = t[rows]
        for block, stacked in zip(blocks[1:5], (q, v, a, lam)):
            block[:] = stacked[rows]
        if system.inputs:
            blocks[5][:] = [system.input_vector(float(time)) for time in t[rows]]
        mapped.evaluate()
        values[begin:end, nonzero_rows] = output[:end - begin]
    bounds = system.sensor_slices
    return [values[:, bounds[i]:bounds[i + 1]].copy() for i in range(count)]


def _mapped_sensors(system, batch: int) -> BufferedFunction:
    """The system's sensors Function mapped over ``batch`` states and bound to buffers (kept per system and batch
    size)."""
    per_system = _kernels.setdefault(system, {})
    key = ("sensors map", batch)
    if key not in per_system:
        per_system[key] = BufferedFunction(system.numeric_function("sensors").map(batch))
    return per_system[key]


def sensor_evaluator(system):
    """(t, q, v, a, lam) -> list of sensor value arrays, as ``system.sensor_values`` gives them.

    Without user-function callbacks the sensors Function is evaluated through buffers (about 100 times
    less call overhead per stored state); with callbacks it is ``system.sensor_values`` itself.
    """
    if system.has_user_functions:
        return system.sensor_values
    per_system = _kernels.setdefault(system, {})
    if "sensors" not in per_system:
        per_system["sensors"] = BufferedFunction(system.numeric_function("sensors"))
    function = per_system["sensors"]
    bounds = system.sensor_slices

    def values(t, q, v, a, lam):
        stacked = function(t, q, v, a, lam, system.input_vector(float(t)), system.parameters_now())[0]
        return [stacked[bounds[i]:bounds[i + 1]].copy() for i in range(len(bounds) - 1)]
    return values


class DenseNewtonKernel(CompiledKernel):
    """One generalized-alpha step's Newton iteration as buffered Functions of one shared input state.

    Inputs (shared): t_{n+1}, q_n, v_n, a_n, abar_n, the scheme [h, alpha_m, alpha_f, beta, gamma, c_q,
    c_v, kappa], u, p and the iterate a, lambda. From the predictor

        abar_known = (alpha_f a_n - alpha_m abar_n) / (1 - alpha_m),
        q_known = q_n + h v_n + h^2 (1/2 - beta) abar_n + h^2 beta abar_known,
        v_known = v_n + h (1 - gamma) abar_n + h gamma abar_known,

    and q = q_known + c_q a, v = v_known + c_v a (as ``GeneralizedAlpha.step``):

    - rows: [R(t, q, v, a, lam); C(t, q) / c_q] (index 2: [R; dC/dt(t, q, v) / c_v]), (n+m,), and q, v,
      abar = abar_known + kappa a at the iterate (the state of a step that converges there);
    - matrix: [[M + c_v R_v + c_q R_q, R_lambda], [C_q, 0]] dense (n+m, n+m), column by column;
    - loads_matrix: c_q d(-f_loads)/dq, the loads' part of the matrix's upper left block, dense (n, n) (Exudyn's
      Jacobian leaves it out, ``floatframe.solvers.genalpha.ResidualStop``; zero where the loads cannot be taken
      apart, ``AssembledSystem.load_residual``), plus the part whose derivatives Exudyn's Jacobian has otherwise
      (``AssembledSystem.exudyn_matrix_difference``, where a component has one);
    - iterate (with the LU factors and row permutation of that matrix): the rows, the update
      x = U^-1 L^-1 P r by substitution, a - x_a, lam - x_lam, |x_a|, |a - x_a|, r^T r, and q, v,
      abar = abar_known + kappa a at the updated iterate (Exudyn's Newton iteration updates from the rows it has
      already evaluated instead, by LAPACK's getrs: ``DenseLU.solve``).

    - initial_system (consistent initial accelerations, ``initial_accelerations``): at (t_{n+1}, q_n, v_n) the
      matrix [[M, R_lambda], [C_q, 0]] dense (n+m, n+m) and the rows [R(t, q, v, 0, 0); d^2C/dt^2 - C_q a]
      (n+m,), of the index-3 forms for either index (as ``floatframe.solvers.linear.consistent_accelerations``).

    R, C, dC/dt and the matrices are the AssembledSystem's own Functions, composed into one SX graph each.

    On the ``trapezoidal`` coordinates (``GeneralizedAlpha.trapezoidal_coordinates``) the known parts and the
    factors are the trapezoidal rule's (``floatframe.solvers.alpha.trapezoidal_step``: c_q = h^2/4, c_v = h/2,
    kappa = 1, abar_known = 0), and so are the factors of their columns of the matrix; the other coordinates'
    formulas and graph are those of a kernel without them.
    """

    FUNCTION_NAMES = ("newton_rows", "dense_newton_matrix", "newton_iterate", "initial_system", "loads_matrix")

    def __init__(self, system, index: int, trapezoidal: tuple = ()):
        self.n, self.m = system.n_coordinates, system.n_multipliers
        self.index = index
        self.trapezoidal = tuple(trapezoidal)
        self._system = weakref.ref(system)   # the system keeps its kernels (``_kernels``), not the other way round
        self._functions = None   # the SX Functions, built on first use (``functions``)
        self._rows = None        # the bound Functions (SX or compiled), bound on first use (``set_step``)

    def function_names(self) -> list:
        return list(self.FUNCTION_NAMES)

    def library_key(self) -> str:
        """The code's determinants without building the kernel: the digest of the code that composes it
        (this module and the predictor's, ``code_digest``), the index, and the system's fingerprint of the
        Functions it is composed of (``fingerprint``: the residual and constraint rows in full, the Newton
        matrix by its structure, which the assembly derives from them; none of them formed). A kernel found in
        the cache is then loaded without its SX graph, and without the system's complete Functions (forming
        these for the name took 3 of jointArgsTest's 14 ms solve; building and serializing the kernel, 50 of
        a 130 ms solve of a 35-coordinate model). The residual fixes the solution; a Newton matrix derived
        otherwise by a changed assembly of the same structure would change only the iterations."""
        system, index = self._system(), self.index
        serialized = (system.form_name("residual", index), system.constraint_rows_name(index), "residual")
        structured = (system.form_name("newton_matrix", index), "newton_matrix", "constraint_acceleration_rest")
        fingerprint = system.fingerprint(tuple(dict.fromkeys(serialized)), tuple(dict.fromkeys(structured)))
        trapezoidal = f", trapezoidal coordinates {list(self.trapezoidal)}" if self.trapezoidal else ""
        return "".join([code_digest(*KERNEL_CODE), f"dense Newton kernel, index {index}{trapezoidal}", fingerprint])

    @property
    def functions(self) -> list:
        """The kernel's SX Functions (built on first use: the virtual machine, compiling, or counting)."""
        if self._functions is None:
            self._functions = self._build(self._system(), self.index)
        return self._functions

    def _build(self, system, index: int) -> list:
        """The three SX Functions (see the class's description)."""
        n, m = self.n, self.m
        size = n + m
        functions = system.functions
        t = ca.SX.sym("t")
        q_n, v_n, a_n, abar_n = (ca.SX.sym(name, n) for name in ("q_n", "v_n", "a_n", "abar_n"))
        scheme = ca.SX.sym("scheme", 8)
        h, am, af, beta, gamma, c_q, c_v, kappa = (scheme[k] for k in range(8))
        u, p = ca.SX.sym("u", system.symbols.u.numel()), ca.SX.sym("p", system.symbols.p.numel())
        a, lam = ca.SX.sym("a", n), ca.SX.sym("lam", m)
        q_known, v_known, abar_known = predictor(q_n, v_n, a_n, abar_n, h, am, af, beta, gamma)
        # d(q, v, abar)/da per coordinate: the scheme's scalars, or (n,) with the trapezoidal coordinates' own
        factor_q, factor_v, factor_abar = c_q, c_v, kappa
        trapezoidal = list(self.trapezoidal)
        if trapezoidal:
            known_q, known_v, trapezoidal_c_q, trapezoidal_c_v = trapezoidal_step(q_n[trapezoidal], v_n[trapezoidal],
                                                                                   a_n[trapezoidal], h)
            q_known[trapezoidal], v_known[trapezoidal], abar_known[trapezoidal] = known_q, known_v, 0.0
            factor_q, factor_v, factor_abar = (ca.SX(n, 1) + factor for factor in (c_q, c_v, kappa))
            factor_q[trapezoidal], factor_v[trapezoidal] = trapezoidal_c_q, trapezoidal_c_v
            factor_abar[trapezoidal] = 1.0

        def rows_at(a, lam):
            q, v = q_known + factor_q * a, v_known + factor_v * a
            if index == 3:
                constraint_rows = functions["constraints"](t, q, u, p) / c_q
            else:
                constraint_rows = functions[system.form_name("constraint_velocity", 2)](t, q, v, u, p) / c_v
            return ca.vertcat(functions[system.form_name("residual", index)](t, q, v, a, lam, u, p), constraint_rows)

        q, v = q_known + factor_q * a, v_known + factor_v * a
        rows = rows_at(a, lam)
        matrix_function = functions[system.form_name("newton_matrix", index)]
        matrix = ca.densify(matrix_function(t, q, v, a, lam, 1.0, c_v, c_q, ca.DM.zeros(n), u, p))
        if trapezoidal:   # column j is M_j + c_v,j R_v,j + c_q,j R_q,j: the trapezoidal columns with their factors
            matrix[:, trapezoidal] = ca.densify(matrix_function(t, q, v, a, lam, 1.0, trapezoidal_c_v, trapezoidal_c_q,
                                                                ca.DM.zeros(n), u, p))[:, trapezoidal]
        factors, permutation = ca.SX.sym("lu", size, size), ca.SX.sym("permutation", size, size)
        update = _lu_substitution(factors, permutation @ rows)
        a_new, lam_new = a - update[:n, 0], lam - update[n:, 0]  # [.., 0]: a 1x1 update sliced stays a column
        scalars = ca.vertcat(ca.norm_2(update[:n]), ca.norm_2(a_new), ca.dot(rows, rows))
        corrected = [q_known + factor_q * a_new, v_known + factor_v * a_new, abar_known + factor_abar * a_new]
        state = [t, q_n, v_n, a_n, abar_n, scheme, u, p, a, lam]
        # the consistent start: [[M, R_lambda], [C_q, 0]] and [R(t, q, v, 0, 0); d^2C/dt^2 - C_q a] at (t, q_n, v_n)
        at_rest = (ca.DM.zeros(n), ca.DM.zeros(m))
        initial_matrix = ca.densify(functions["newton_matrix"](t, q_n, v_n, *at_rest, 1.0, 0.0, 0.0, ca.DM.zeros(n),
                                                               u, p))
        initial_rows = ca.vertcat(functions["residual"](t, q_n, v_n, *at_rest, u, p),
                                  functions["constraint_acceleration_rest"](t, q_n, v_n, u, p))
        try:   # the loads' own part of R, for Exudyn's Jacobian without it (ResidualStop)
            loads_jacobian = system.load_residual()(t, q, u, p)[1]
        except ModelError:
            loads_jacobian = ca.SX(n, n)
        loads_matrix = c_q * loads_jacobian if not trapezoidal else loads_jacobian @ ca.diag(factor_q)
        difference = system.exudyn_matrix_difference()   # where Exudyn's matrix has other derivatives
        if difference is not None:   # (its factors are the scheme's also on trapezoidal columns: iterations only)
            loads_matrix = loads_matrix + difference(t, q, v, u, p, c_q, c_v)
        loads_matrix = ca.densify(loads_matrix)
        at_iterate = [q, v, abar_known + factor_abar * a]
        return [ca.Function("newton_rows", state, [rows, *at_iterate]),
                ca.Function("dense_newton_matrix", state, [matrix]),
                ca.Function("newton_iterate", state + [factors, permutation],
                            [a_new, lam_new, rows, scalars, *corrected]),
                ca.Function("initial_system", state, [initial_matrix, initial_rows]),
                ca.Function("loads_matrix", state, [loads_matrix])]

    def _use_library(self) -> None:
        """Evaluate the compiled library from now on: its Functions are bound at the next ``set_step`` (the C
        loop of ``floatframe.solvers.native`` calls the library itself; binding them took 0.5 of a tiny model's
        3 ms solve)."""
        self._compilation = None
        self.is_compiled = True
        self._rows = None

    def _bind(self, functions) -> None:
        rows, matrix, iterate, initial, loads = functions
        self._rows = BufferedFunction(rows)
        shared = self._rows.inputs
        self._matrix = BufferedFunction(matrix, shared)
        self._loads = BufferedFunction(loads, shared)
        self._iterate = BufferedFunction(iterate, shared)
        self._initial = BufferedFunction(initial, shared)
        self._outputs = self._iterate.outputs[:4]
        self._bound = None  # the DenseLU whose factors are in the iterate Function's inputs
        self._state_at_iterate = self._iterate.outputs[4:]   # q, v, abar of the last rows or iterate call

    def set_step(self, state, h, scheme, c_q, c_v, kappa, u, p) -> None:
        """Bind the step from ``state`` (t_n, q_n, v_n, a_n, abar_n) by h; scheme = (alpha_m, alpha_f, beta, gamma)."""
        inputs = self._bound_inputs()
        inputs[0][0] = state.t + h
        inputs[1][:] = state.q
        inputs[2][:] = state.v
        inputs[3][:] = state.a
        inputs[4][:] = state.abar
        inputs[5][:] = (h, *scheme, c_q, c_v, kappa)
        inputs[6][:] = u
        inputs[7][:] = p

    def _bound_inputs(self) -> list:
        """The shared input buffers, binding the Functions first (the compiled library's, else the virtual
        machine's)."""
        if self._rows is None:
            self._bind(external_functions(self.function_names(), self.library()) if self.is_compiled
                       else self.functions)
        return self._rows.inputs

    def initial_accelerations(self, t, q, v, u, p):
        """(a, lam) of [[M, R_lambda], [C_q, 0]] [a; lam] = -[R(t, q, v, 0, 0); d^2C/dt^2 - C_q a], by LAPACK's
        getrf and getrs (the bits of the C loop's ``floatframe_native_initial``); None where the rows are not
        finite or the matrix is singular (``consistent_accelerations`` then says why)."""
        inputs = self._bound_inputs()
        inputs[0][0] = t
        inputs[1][:] = q
        inputs[2][:] = v
        for array in inputs[3:6] + inputs[8:10]:   # a_n, abar_n, the scheme, a, lam: zero (h = 0)
            array[:] = 0.0
        inputs[6][:] = u
        inputs[7][:] = p
        self._initial.evaluate()
        matrix, rows = self._initial.outputs
        return solve_initial_system(matrix, rows, self.n)

    def rows(self, a, lam) -> np.ndarray:
        """The Newton rows (n+m,) at the iterate (a, lam); a view into the output buffer."""
        inputs = self._rows.inputs
        inputs[8][:] = a
        inputs[9][:] = lam
        self._rows.evaluate()
        self._state_at_iterate = self._rows.outputs[1:]
        return self._rows.outputs[0]

    def factorize(self, a, lam, at_rest: bool = False, without_loads: bool = False) -> "DenseLU":
        """LU of the iteration matrix at (a, lam); raises SingularMatrix if it has none.

        ``at_rest``: the matrix evaluated with a = 0, lambda = 0 where they enter R, at the iterate's q, v (Exudyn's
        Jacobian, see ``floatframe.solvers.genalpha.ResidualStop``): v_n is shifted by c_v a and q_n by
        (c_q - h c_v) a for the evaluation, so that the predictor (q_known = q_n + h v_n + ..., v_known = v_n + ...)
        of a = 0 gives the iterate's q and v (on the trapezoidal coordinates with their c_q and c_v, as in C);
        ``without_loads`` besides: less the loads' part (loads_matrix)."""
        inputs = self._rows.inputs
        size, n = self.n + self.m, self.n
        if at_rest:
            q_n, v_n = inputs[1].copy(), inputs[2].copy()
            h, c_q, c_v = inputs[5][0], inputs[5][5], inputs[5][6]
            inputs[1][:] = q_n + (c_q - h * c_v) * a
            inputs[2][:] = v_n + c_v * a
            if self.trapezoidal:
                rows = list(self.trapezoidal)
                trapezoidal_c_q, trapezoidal_c_v = h * h * 0.25, h * 0.5   # (alpha.trapezoidal_step's)
                inputs[1][rows] = q_n[rows] + (trapezoidal_c_q - h * trapezoidal_c_v) * a[rows]
                inputs[2][rows] = v_n[rows] + trapezoidal_c_v * a[rows]
            inputs[8][:] = 0.0
            inputs[9][:] = 0.0
            self._matrix.evaluate()
            matrix = self._matrix.outputs[0].reshape(size, size, order="F")
            if without_loads:
                self._loads.evaluate()
                matrix = matrix.copy()
                matrix[:n, :n] -= self._loads.outputs[0].reshape(n, n, order="F")
            inputs[1][:] = q_n
            inputs[2][:] = v_n
        else:
            inputs[8][:] = a
            inputs[9][:] = lam
            self._matrix.evaluate()
            matrix = self._matrix.outputs[0].reshape(size, size, order="F")
        return DenseLU(matrix)

    def iterate(self, a, lam, factorization: "DenseLU"):
        """One Newton update of (a, lam) in place; (|update of a|, |a|, the rows, whether they are finite)."""
        inputs = self._iterate.inputs
        if factorization is not self._bound:
            inputs[10][:] = factorization.packed
            inputs[11][:] = factorization.permutation
            self._bound = factorization
        inputs[8][:] = a
        inputs[9][:] = lam
        self._iterate.evaluate()
        self._state_at_iterate = self._iterate.outputs[4:]
        a_new, lam_new, rows, scalars = self._outputs
        a[:] = a_new
        lam[:] = lam_new
        size, norm_a, square = scalars.tolist()
        finite = math.isfinite(square) or bool(np.isfinite(rows).all())  # r^T r may overflow alone
        return size, norm_a, rows, finite

    def corrected(self):
        """Copies of q, v, abar at the iterate of the last ``rows`` or ``iterate`` call (after ``iterate``: the
        updated one)."""
        return tuple(array.copy() for array in self._state_at_iterate)


def solve_initial_system(matrix: np.ndarray, rows: np.ndarray, n: int):
    """(a, lam) with ``matrix`` [a; lam] = -``rows`` (the flat column-major matrix and the rows of the kernel's
    initial_system), by getrf and getrs; None where the rows are not finite or getrf finds the matrix singular."""
    if not np.isfinite(rows).all():
        return None
    size = rows.size
    factors, pivots, info = lapack.dgetrf(matrix.reshape(size, size, order="F"))
    if info != 0:
        return None
    solution, info = lapack.dgetrs(factors, pivots, -rows)
    if info != 0 or not np.isfinite(solution).all():
        return None
    return solution[:n].copy(), solution[n:].copy()


def _lu_substitution(factors, right):
    """x with L U x = right: L unit lower and U upper triangular, packed in ``factors`` as LAPACK's getrf
    leaves them (L below the diagonal, U on and above)."""
    size = right.numel()
    forward = ca.SX.zeros(size)
    for i in range(size):                     # y_i = b_i - sum_{j<i} L_ij y_j
        forward[i] = right[i] - ca.dot(factors[i, :i].T, forward[:i]) if i else right[i]
    backward = ca.SX.zeros(size)
    for i in reversed(range(size)):           # x_i = (y_i - sum_{j>i} U_ij x_j) / U_ii
        rest = ca.dot(factors[i, i + 1:].T, backward[i + 1:]) if i < size - 1 else 0
        backward[i] = (forward[i] - rest) / factors[i, i]
    return backward


class DenseLU:
    """LAPACK LU (getrf) of a dense matrix, P A = L U, as flat column-major arrays for DenseNewtonKernel:
    ``packed`` (L and U) and ``permutation`` (the matrix P), and getrf's row interchanges ``pivots`` (0-based, as
    SciPy gives them) for ``solve``."""

    def __init__(self, matrix: np.ndarray):
        factors, pivots, info = lapack.dgetrf(matrix)
        if info != 0:
            raise SingularMatrix(sp.csc_matrix(matrix), self.singular_message(info))
        size = matrix.shape[0]
        self.packed = np.ravel(factors, order="F").copy()
        self.pivots = pivots
        order = list(range(size))
        for i, pivot in enumerate(pivots.tolist()):    # the row interchanges of getrf, in turn
            order[i], order[pivot] = order[pivot], order[i]
        self.permutation = np.zeros(size * size)
        self.permutation[_row_numbers(size) + size * np.array(order)] = 1.0  # P[k, order[k]] = 1, by column

    @classmethod
    def from_factors(cls, packed: np.ndarray, permutation: np.ndarray, pivots: np.ndarray) -> "DenseLU":
        """The DenseLU of factors, permutation and (0-based) pivots computed elsewhere (the C step loop,
        native_loop.c)."""
        lu = cls.__new__(cls)
        lu.packed, lu.permutation, lu.pivots = packed, permutation, pivots
        return lu

    def solve(self, rows: np.ndarray) -> np.ndarray:
        """x with A x = ``rows`` (n+m,), by LAPACK's getrs."""
        size = rows.size
        solution, info = lapack.dgetrs(self.packed.reshape(size, size, order="F"), self.pivots, rows)
        if info != 0:
            raise RuntimeError(f"getrs failed ({info})")
        return solution

    @staticmethod
    def singular_message(info: int) -> str:
        """Why getrf found no LU, from its ``info``."""
        return "Factor is exactly singular" if info > 0 else f"getrf failed ({info})"


@functools.lru_cache(maxsize=8)
def _row_numbers(size: int) -> np.ndarray:
    return np.arange(size)


class SingularMatrix(RuntimeError):
    """A dense iteration matrix without an LU; ``matrix`` (sparse) for naming the cause."""

    def __init__(self, matrix, message):
        super().__init__(message)
        self.matrix = matrix


# the code that composes the kernel from the system's Functions and derives those the fingerprint names by structure
KERNEL_CODE = (__name__, predictor.__module__, "floatframe.assembly.functions")
code_digest(*KERNEL_CODE)   # the kernels' source stamp, once a process: at import (0.1 ms)
