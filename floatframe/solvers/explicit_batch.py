"""Many fixed explicit steps a call: the batched step loop of the explicit schemes.

On a small model one explicit stage is a residual and a mass-matrix evaluation of a few microseconds, and the
Python around it (``ExplicitRungeKutta.step``, ``Scheme.advance``, NumPy and SciPy calls) costs some 100 us a
stage. Here a whole step is one CasADi Function of (q, v, a, t, h, u, p) built from the contract's
``residual_with_jacobian`` (a = M^-1 (-R(t, q, v, 0, 0)), M its exact a-Jacobian, solved by LAPACK's LU; up to
``SYMBOLIC_SOLVE_LIMIT`` free coordinates an SX Function with M_ff solved symbolically), evaluated through NumPy
buffers; many grid intervals a call of ``run``: the same stages, the same arithmetic up to the order of the sums
(results within a few 1e-16 relative a step of the Python loop's). The shared loop
(``floatframe.solvers.loop.integrate``) hands the grid to it through ``ExplicitRungeKutta.native_loop`` where the
model has at most ``BATCH_LIMIT`` free coordinates, no Input signals and no Python user functions, and no
``pre_step`` is given; elsewhere the Python loop runs.

An SX step is chained over a block of ``block`` steps (``mapaccum``, ``BLOCKS``), one call a block, and the block
is compiled to C as the implicit solvers' kernels are (``floatframe.solvers.compiling``: the same bits, cached
across runs): at once where the library is cached, else in the background once the first call of ``run`` shows
that the rest of the solve would take longer than compiling (or ahead, ``compile_ahead``), and the calls switch to
it between two calls. (Compiling the step alone does not pay: CasADi's call of it from the chained Function costs
as much as the virtual machine's evaluation, 0.6 us a step of a mass on a spring.) The steps after the last full
block, and MX steps, are taken one buffered call at a time.
"""
from __future__ import annotations

import time

import casadi as ca
import numpy as np
import scipy.sparse as sp

from floatframe.buffers import BufferedFunction
from floatframe.solvers.compiling import (CompiledKernel, apply_compile_option, code_digest, compile_ahead,
                                          compiler)
from floatframe.solvers.loop import State, StateRows

BATCH_LIMIT = 100          # free coordinates up to which the steps are batched (dense LU a stage)
STEPS_PER_CALL = 16_384    # steps of one call of ``run`` (memory: 3 n of them kept)
BLOCKS = (256, 1024, 4096, 16_384)   # SX steps chained in one call: CasADi unrolls mapaccum, so its build grows
# with them; a solve takes the largest block of at most 1/256 of its steps (256 at least)
SYMBOLIC_SOLVE_LIMIT = 12  # free coordinates up to which a step is one SX Function (or the like work, symbolic_step)


def batchable(scheme, system) -> bool:
    """Whether ``scheme``'s steps on ``system`` can run batched (see the module docstring)."""
    accelerations = scheme._accelerations
    return (accelerations is not None and accelerations.free.size <= BATCH_LIMIT and not system.inputs
            and not system.has_user_functions)


class BlockKernel(CompiledKernel):
    """``block`` chained explicit steps (``mapaccum`` of an SX step) that can be switched to their compiled
    library: ``buffered`` evaluates (q, v, a, t (1, block), h (1, block), u, p) -> (q, v, a) (n, block) each.
    ``step``: the SX step Function, or a callable that builds it; ``key``: a text that determines the step, where
    known without it (``step_key``), so that a cached block is loaded without building the step or the chain."""

    def __init__(self, step, block: int, key: str | None = None):
        self._step, self.block, self._key = step, block, key
        self._functions = None
        self.buffered = None     # bound on first use (``bind``), or to the compiled library

    @property
    def step(self) -> ca.Function:
        if not isinstance(self._step, ca.Function):
            self._step = self._step()
        return self._step

    def library_key(self) -> str:
        determinant = self._key if self._key is not None else self.step.serialize()
        return "".join([code_digest(__name__), f"explicit steps, block {self.block}", determinant])

    def function_names(self) -> list:
        return ["explicit_steps"]

    @property
    def functions(self) -> list:
        if self._functions is None:
            step, block = self.step, self.block
            chained = step.mapaccum("explicit_chain", block, 3)
            # q, v, a (n,); t, h (1, block); u, p once: the same at every step
            arguments = [ca.MX.sym(step.name_in(i), step.sparsity_in(i)) for i in range(3)] + \
                [ca.MX.sym(step.name_in(i), 1, block) for i in (3, 4)] + \
                [ca.MX.sym(step.name_in(i), step.sparsity_in(i)) for i in (5, 6)]
            results = chained(*arguments[:5], *(ca.repmat(x, 1, block) for x in arguments[5:]))
            self._functions = [ca.Function("explicit_steps", arguments, [ca.densify(x) for x in results])]
        return self._functions

    def bind(self) -> None:
        """Evaluate the virtual machine's chain unless a library is bound."""
        if self.buffered is None:
            self._bind(self.functions)

    def _bind(self, functions) -> None:
        self.buffered = BufferedFunction(functions[0])   # dense outputs: read through buffers


class BatchedLoop:
    """The batched steps of one solve of an explicit fixed-step ``scheme`` (an ExplicitRungeKutta or
    VelocityVerlet): ``ready()``, and ``run(...)``, a generator of (k, State) as the shared loop takes them,
    tested against the growth bound here (``checks_growth``)."""

    checks_growth = True

    def __init__(self, scheme, system, n_steps: int = 0):
        self.scheme, self.system, self.n_steps = scheme, system, n_steps
        self.block = max([BLOCKS[0]] + [block for block in BLOCKS if 256 * block <= n_steps])
        self.kernel = None       # BlockKernel of ``block`` SX steps, or None (MX steps: not compiled)
        self.step_function = None
        self.single_step = None  # the MX step through buffers
        self.grid = None
        self.steps_taken = 0
        self.deciding = False    # whether the first call's time still decides about compiling

    def ready(self) -> bool:
        if self.step_function is None and self.kernel is None:
            if symbolic_step(self.scheme):   # an SX step (see step_function)
                self.kernel = apply_compile_option(                            # cached? (found without the step)
                    BlockKernel(self._step_function, self.block, step_key(self.scheme, self.system)), "auto")
                self.deciding = not self.kernel.is_compiled and compiler() is not None
            else:
                self.step_function = step_function(self.scheme, self.system)
        return True

    def _step_function(self) -> ca.Function:
        """The SX step, built when the block kernel needs it (not where its library is cached)."""
        self.step_function = step_function(self.scheme, self.system)
        if not self.step_function.is_a("SXFunction"):   # batchable() leaves out the models whose step is MX
            raise RuntimeError("explicit steps: the step of a model without user functions is not an SX Function")
        return self.step_function

    def _switch(self, started: float, steps: int) -> None:
        """After a call of ``steps`` steps since ``started``: decide about compiling (first call), or take the
        compiled block once its background compilation has finished."""
        kernel = self.kernel
        if kernel is None:
            return
        if self.deciding:
            self.deciding = False
            rest = (time.perf_counter() - started) / max(steps, 1) * (self.n_steps - self.steps_taken)
            if rest > kernel.compile_seconds() or compile_ahead():
                kernel.start_compiling()
        kernel.poll()

    def _steps(self, count: int, q, v, a, times, steps, inputs, parameters, states: list) -> None:
        """``count`` chained steps from (q, v, a) into ``states``, [q, v, a] (n, count) each; a full block through
        the kernel's buffers (no conversion of its arrays: 0.3 of 0.9 us a step of a mass on a spring went to
        them)."""
        n = q.size
        if self.kernel is not None:
            # fewer steps than a block (the end of a call): the block's other steps have h = 0, which leaves the
            # state as it is (q + 0 x = q); a chained Function of their number would be built anew instead
            # (27-43 ms for 232 steps of connectorGravityTest's RK67)
            if count < self.block:
                times = np.concatenate([times, np.full((1, self.block - count), times[0, -1])], axis=1)
                steps = np.concatenate([steps, np.zeros((1, self.block - count))], axis=1)
            self.kernel.bind()
            results = self.kernel.buffered(q, v, a, times, steps, inputs, parameters)
            for stored, result in zip(states, results):
                stored[:] = result.reshape(n, self.block, order="F")[:, :count]
            return
        # MX steps: one buffered step at a time (chaining them does not pay: 54 ms to build 256 of
        # connectorGravityTest's steps, 35 us a step to evaluate them against 31 us one by one)
        if self.single_step is None:
            step = self.step_function
            arguments = [step.mx_in(i) for i in range(step.n_in())]
            self.single_step = BufferedFunction(ca.Function("explicit_step_dense", arguments,
                                                            [ca.densify(x) for x in step(*arguments)]))
        for j in range(count):
            q, v, a = self.single_step(q, v, a, times[0, j], steps[0, j], inputs, parameters)
            for stored, value in zip(states, (q, v, a)):
                stored[:, j] = value

    def run(self, state: State, grid, counts, first: int, store_every: int, check_every: int, bound):
        """Advance from ``state`` (at grid time first - 1) over the next grid intervals of the same step count
        (up to STEPS_PER_CALL steps, at least one interval); yields one block (k_last, StateRows) of the states at
        the grid times the shared loop stores or checks, and at the last one of the call."""
        scheme, system = self.scheme, self.system
        if self.grid is not grid:
            self.grid, self.spacing = grid, np.diff(grid)
        spacing = self.spacing
        count = int(counts[first - 1])             # the intervals of this call: all of this step count
        length = max(1, min(STEPS_PER_CALL // count, grid.size - first))
        same = np.flatnonzero(counts[first - 1:first - 1 + length] != count)
        length = int(same[0]) if same.size else length
        last = first + length - 1
        intervals = np.arange(first, last + 1)
        # the step ends as Scheme.advance takes them: grid[k-1] + j spacing / count, the last one grid[k]
        targets = grid[intervals - 1][:, None] + np.arange(1, count + 1)[None, :] * spacing[intervals - 1][:, None] \
            / count
        targets[:, -1] = grid[intervals]
        starts = np.concatenate([grid[intervals - 1][:, None], targets[:, :-1]], axis=1)
        times, steps = starts.reshape(1, -1), (targets - starts).reshape(1, -1)
        ends = np.arange(1, length + 1) * count - 1
        a = scheme._first_stage(state) if scheme.end_accelerations else state.a   # the first stage's, if used
        parameters, inputs = system.parameters_now(), np.zeros(0)
        q, v = state.q, state.v
        # the states of all steps of the call, each block's written in place (stacking the blocks afterwards took
        # 0.25 ms of a 4 ms solve of 8,000 steps)
        q_all, v_all, a_all = states = [np.empty((q.size, times.size)) for _ in range(3)]
        started = time.perf_counter()
        for begin in range(0, times.size, self.block):
            size = min(self.block, times.size - begin)
            block = [x[:, begin:begin + size] for x in states]
            self._steps(size, q, v, a, times[:, begin:begin + size], steps[:, begin:begin + size], inputs,
                        parameters, block)
            q, v, a = (x[:, -1] for x in block)
        self.steps_taken += times.size
        self._switch(started, times.size)
        stats = scheme.statistics
        stats.steps += times.size
        stats.residual_evaluations += times.size * scheme.evaluations_per_step()
        wanted = (intervals % store_every == 0) | (intervals == grid.size - 1) | (intervals == last)
        if bound is not None:
            wanted |= intervals % check_every == 0
        columns = ends[wanted]
        # the wanted states as rows (views of one copy each), and their growth test at once (checks_growth)
        q_rows, v_rows, a_rows = (np.ascontiguousarray(x[:, columns].T) for x in (q_all, v_all, a_all))
        count = columns.size
        if bound is not None:
            within = ((np.einsum("ij,ij->i", q_rows, q_rows) <= bound.position_limit ** 2)
                      & (np.einsum("ij,ij->i", v_rows, v_rows) <= bound.velocity_limit ** 2))   # NaN: False
            if not within.all():
                count = int(np.argmin(within))
        multipliers, empty = scheme._accelerations.multipliers, np.zeros(system.n_multipliers)
        has_multipliers = scheme._accelerations.fixed.size > 0
        if count:   # the kept states as one block of rows [t, q, v, a, abar = a, lam] (a State a row: 5 us each)
            n, m = q_rows.shape[1], system.n_multipliers
            kept = intervals[wanted][:count]
            block = StateRows.empty(kept, n, m)
            block.times[:] = grid[kept]
            block.q[:], block.v[:], block.a[:], block.abar[:] = (q_rows[:count], v_rows[:count], a_rows[:count],
                                                                 a_rows[:count])
            block.lam[:] = [multipliers(t, q, v, a) for t, q, v, a in
                            zip(block.times, q_rows, v_rows, a_rows)] if has_multipliers and m else 0.0
            block.last = State(block.t, block.q[-1], block.v[-1], block.a[-1], block.abar[-1], block.lam[-1])
            scheme._start = (block.last.q, block.last.v, block.last.a) if scheme.end_accelerations else None
            yield int(kept[-1]), block
        if count < columns.size:
            k, row = int(intervals[wanted][count]), count
            raise bound.failure(State(float(grid[k]), q_rows[row], v_rows[row], a_rows[row], a_rows[row], empty))


def symbolic_step(scheme) -> bool:
    """Whether the step is an SX Function with M_ff solved symbolically: up to SYMBOLIC_SOLVE_LIMIT free
    coordinates, or more whose M_ff falls apart into diagonal blocks (the block-triangular form of its nonzero
    entries at the initial state; CasADi's symbolic solve takes the blocks one by one) of at most the work of
    one dense block of that size (the sum of their cubed sizes): mass points and rigid bodies that only springs
    and loads couple. Their compiled step blocks are some 7 times faster than the MX step with LAPACK's LU (connectorGravityTest, 15 coordinates of
    mass points: 30 -> 4.4 ms)."""
    accelerations = scheme._accelerations
    free = accelerations.free
    if free.size <= SYMBOLIC_SOLVE_LIMIT:
        return True
    if accelerations._mass is None:   # (the scheme's init factorizes M_ff: its pattern is known before a step)
        return False
    data, indices, pointers = accelerations._mass    # M at the initial state, on the iteration matrix's pattern:
    size = pointers.size - 1                          # its nonzero entries estimate the blocks (a misjudged block
    mass = sp.csc_matrix((data, indices, pointers), shape=(size, size))[free][:, free].tocsc()   # costs time only)
    mass.eliminate_zeros()
    mass.sort_indices()
    blocks = ca.Sparsity(free.size, free.size, mass.indptr.tolist(), mass.indices.tolist()).btf()[3]
    return bool(sum(block ** 3 for block in np.diff(blocks)) <= SYMBOLIC_SOLVE_LIMIT ** 3)


def step_key(scheme, system) -> str:
    """A text that determines ``step_function(scheme, system)`` of a model without user functions, found without
    building it: the scheme's stages, the fixed coordinates and their values, and the system's fingerprint of its
    residual (building the step for its serialization took 4-8 ms of a small explicit solve)."""
    accelerations = scheme._accelerations
    stages = [np.asarray(x, dtype=float) for x in (scheme.c, scheme.a, scheme.b)]
    q_fixed = np.zeros(0) if scheme._q_fixed is None else np.asarray(scheme._q_fixed, dtype=float)
    arrays = [*stages, np.asarray(accelerations.fixed, dtype=np.int64), q_fixed]
    return "".join([f"{scheme.name} {bool(scheme.end_accelerations)} {system.n_coordinates} {system.n_multipliers} "]
                   + [f"{array.shape}{array.tobytes().hex()}" for array in arrays]
                   + [system.fingerprint(("residual",))])


def step_function(scheme, system) -> ca.Function:
    """The step (q, v, a, t, h, u, p) -> (q1, v1, a1) of ``scheme`` as a CasADi Function (a: the accelerations
    stored with the state; used as the first stage where they are the state's own)."""
    n, m = system.n_coordinates, system.n_multipliers
    residual = system.residual_with_jacobian()
    accelerations = scheme._accelerations
    # an SX step (the residual inlined, M_ff solved symbolically) for a few free coordinates: 1.5-5 times faster
    # than the MX graph; else MX with LAPACK's LU
    symbolic = residual.is_a("SXFunction") and symbolic_step(scheme)
    sym = ca.SX.sym if symbolic else ca.MX.sym
    q, v, a_in, t, h = sym("q", n), sym("v", n), sym("a", n), sym("t"), sym("h")
    u, p = sym("u", residual.size1_in(5)), sym("p", residual.size1_in(6))
    free = [int(i) for i in accelerations.free]
    held = np.zeros(n)
    held[accelerations.fixed] = 1.0
    kept, q_fixed = ca.DM(1.0 - held), np.zeros(n)
    q_fixed[accelerations.fixed] = scheme._q_fixed

    a_sym = sym("a_any", n)
    value = residual(t, q, v, a_sym, ca.DM.zeros(m), u, p)
    rows = ca.Function("rows", [t, q, v, a_sym, u, p], [value, ca.jacobian(value, a_sym)])
    right, mass = rows(t, q, v, ca.DM.zeros(n), u, p)
    a_free = ca.solve(mass[free, free], -right[free]) if symbolic else ca.solve(mass[free, free], -right[free],
                                                                                "lapacklu")
    if len(free) < n:     # zeros at the fixed coordinates
        a_free = ca.mtimes(ca.DM(ca.Sparsity.triplet(n, len(free), free, list(range(len(free)))), 1.0), a_free)
    evaluate = ca.Function("explicit_accelerations", [t, q, v, u, p], [a_free])

    def hold(x, value_fixed):
        return x * kept + ca.DM(value_fixed) if accelerations.fixed.size else x

    if scheme.name == "velocity-verlet":
        v_half = hold(v + (0.5 * h) * a_in, np.zeros(n))
        q1 = hold(q + h * v_half, q_fixed)
        a1 = evaluate(t + h, q1, v_half, u, p)
        return ca.Function("explicit_step", [q, v, a_in, t, h, u, p], [q1, v_half + (0.5 * h) * a1, a1])
    c, a, b = scheme.c, scheme.a, scheme.b
    velocities, stages = [], []
    for i in range(c.size):
        if i == 0:
            q_i, v_i = q, v
            stages.append(a_in if scheme.end_accelerations else evaluate(t, q, v, u, p))
        else:
            q_i = hold(q + sum((a[i, j] * h) * velocities[j] for j in range(i) if a[i, j] != 0.0), q_fixed)
            v_i = hold(v + sum((a[i, j] * h) * stages[j] for j in range(i) if a[i, j] != 0.0), np.zeros(n))
            stages.append(evaluate(t + c[i] * h, q_i, v_i, u, p))
        velocities.append(v_i)
    q1 = hold(q + sum((b[i] * h) * velocities[i] for i in range(c.size) if b[i] != 0.0), q_fixed)
    v1 = hold(v + sum((b[i] * h) * stages[i] for i in range(c.size) if b[i] != 0.0), np.zeros(n))
    a1 = evaluate(t + h, q1, v1, u, p) if scheme.end_accelerations else hold(stages[-1], np.zeros(n))
    return ca.Function("explicit_step", [q, v, a_in, t, h, u, p], [q1, v1, a1])
