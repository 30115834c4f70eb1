"""The step loop of the fixed-step generalized-alpha schemes in C, for models on the dense path.

On a small model the compiled dense kernel (``floatframe.solvers.dense``) evaluates a Newton iteration in
about a microsecond, and the Python loop around it (``GeneralizedAlpha.step``, ``Scheme.advance``) costs
5-7 us an iteration. Here that loop is C (``native_loop.c``, shipped beside this module): for many grid
times per call it takes the predictor, the Newton iterations with the modified-Newton rules (MatrixRenewal,
the contraction test, the roundoff floor), the dense LU (LAPACK's dgetrf, the one SciPy's ``lapack.dgetrf``
calls), the update (the kernel's own ``newton_iterate``; with ``newton_control`` LAPACK's dgetrs on the rows of the
stopping test, ``genalpha.newton_update``), the halving of failed steps and the states at
the grid times to store or check (or, with ``newton_control``, Exudyn's Newton iteration:
``GeneralizedAlpha._residual_step``). The kernel stays CasADi's generated code: the driver calls the
functions of the kernel's compiled library directly. Both loops take the same decisions on the same bits,
so the results are the same to the last bit (tests/solvers/test_native_loop.py).

The driver also computes the consistent initial accelerations from the kernel's ``initial_system`` with LAPACK's
dgetrf and dgetrs (``floatframe_native_initial``; ``GeneralizedAlpha.init`` sets the loop up for it, and the steps
use the same loop), and binds the kernel's library itself (``floatframe_native_bind``: dlopen, the Functions and
their work sizes), so that a solve's set-up is a few calls.

The driver is compiled once per machine (about 0.2 s, the compiler of ``floatframe.solvers.compiling``,
cached there as ``native_loop_<hash>.so``, named by the source file's stamp); it does not depend on the model,
and a cached one is loaded when this module is imported. The shared loop (``floatframe.solvers.loop.integrate``)
hands the grid to it where ``GeneralizedAlpha.native_loop`` gives a ``NativeLoop``: on the dense path, with the
kernel compiled, without ``pre_step`` or user functions (a model's Input signals are called back from C,
``_inputs_at``), for GeneralizedAlpha and the schemes that
only change its coefficients (Newmark, Trapezoidal, HHTAlpha), with either Newton stop (``newton_control``).
Elsewhere the Python loop runs, with the same results.
"""
from __future__ import annotations

import ctypes
import functools
import math
import warnings
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from scipy.linalg import cython_lapack

from floatframe.solvers.alpha import not_converged, not_finite, residual_not_converged, singular_matrix
from floatframe.solvers.compiling import Compilation, compiler, library_path, source_stamp
from floatframe.solvers.dense import DenseLU, DenseNewtonKernel
from floatframe.solvers.linear import singular_cause
from floatframe.solvers.loop import State, StateRows, step_size_failure
from floatframe.solvers.result import SolverError

SOURCE = Path(__file__).with_name("native_loop.c")
CALLS_PER_SOLVE = 20   # a solve's grid goes to C in about this many calls (progress bar, Ctrl-C between them),
MIN_GRID_TIMES_PER_CALL = 500   # of at least this many grid times each (a call's set-up costs about 40 us)

FAILURE_NOT_FINITE, FAILURE_SINGULAR, FAILURE_NOT_CONVERGED, FAILURE_INPUT = 1, 2, 3, 4
INPUTS_AT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_double)   # native_loop.c's Problem.inputs_at
RUN_DONE, RUN_GROWTH, RUN_FAILED = 0, 1, 2

_pointer, _integer, _real = ctypes.c_void_p, ctypes.c_longlong, ctypes.c_double


class _Problem(ctypes.Structure):
    """``Problem`` of native_loop.c: the kernel, the scheme, the options and the buffers of a solve."""
    _fields_ = ([(name, _pointer) for name in ("rows", "matrix", "iterate", "rows_arg", "matrix_arg", "iterate_arg",
                                               "rows_res", "matrix_res", "iterate_res", "iw", "w", "getrf")]
                + [("n", _integer), ("m", _integer)]
                + [(name, _real) for name in ("alpha_m", "alpha_f", "beta", "gamma", "relative_tolerance",
                                              "absolute_tolerance", "constraint_rows_root")]
                + [(name, _integer) for name in ("max_iterations", "modified", "position_rows")]
                + [("min_step", _real), ("refresh_cost", _real), ("q_reference", _pointer),
                   ("position_squared", _real), ("velocity_squared", _real)]
                + [(name, _pointer) for name in ("t_next", "scheme", "a", "lam", "factors", "permutation", "rows_out",
                                                 "matrix_out", "a_new", "lam_new", "iterate_rows", "scalars", "q_new",
                                                 "v_new", "abar_new", "pivots")]
                + [("initial", _pointer), ("initial_arg", _pointer), ("initial_res", _pointer),
                   ("initial_matrix", _pointer), ("initial_rows", _pointer), ("getrs", _pointer)]
                + [(name, _integer) for name in ("exudyn_control", "exudyn_jacobian", "max_modified_iterations",
                                                 "max_restart_iterations", "jacobian_per_step",
                                                 "adapt_initial_residual")]
                + [(name, _real) for name in ("stop_relative_tolerance", "stop_absolute_tolerance", "contractivity",
                                              "coordinate_factor")]
                + [("without_loads", _integer), ("shifted_q", _pointer), ("shifted_v", _pointer)]
                + [(name, _pointer) for name in ("loads", "loads_arg", "loads_res", "loads_out", "inputs_at")]
                + [("trapezoidal_count", _integer), ("trapezoidal_rows", _pointer)])


class _Run(ctypes.Structure):
    """``Run`` of native_loop.c: the state, the kept iteration matrix, MatrixRenewal, statistics, failure."""
    _fields_ = ([("t", _real)] + [(name, _pointer) for name in ("q", "v", "a", "abar", "lam")]
                + [("has_factorization", _integer), ("factorization_c_q", _real), ("factorization_c_v", _real),
                   ("renewal_cost", _real), ("renewal_steps", _integer), ("renewal_due", _integer)]
                + [(name, _integer) for name in ("steps", "newton_iterations", "jacobian_evaluations",
                                                 "factorizations", "residual_evaluations", "rejected_steps",
                                                 "failure", "failure_iteration", "failure_info")]
                + [(name, _real) for name in ("failure_time", "failure_residual_norm", "failure_update",
                                              "failure_min_step")]
                + [("jacobian_due", _integer)])


# the buffers of a solve in their order in one pool (native_loop.c's floatframe_native_layout)
BUFFERS = ("q", "v", "a_state", "abar", "lam_state", "t_next", "scheme", "u", "p", "a", "lam", "factors",
           "permutation", "a_new", "lam_new", "iterate_rows", "scalars", "q_new", "v_new", "abar_new", "rows_out",
           "matrix_out", "initial_matrix", "initial_rows", "w")

STATISTICS = ("steps", "newton_iterations", "jacobian_evaluations", "factorizations", "residual_evaluations",
              "rejected_steps")

_driver = None         # the loaded driver library
_compilation = None    # its compilation under way
_unavailable = False   # no compiler, or compiling failed


def driver(wait: bool, compile_missing: bool = True):
    """The driver library (ctypes.CDLL), compiled and cached on first use; None while it compiles in the
    background (``wait`` False), where it cannot be compiled (no compiler, or the compiler failed: then a
    RuntimeWarning, once, and the Python loop), or where it is not cached and not ``compile_missing``."""
    global _driver, _compilation, _unavailable
    if _driver is not None or _unavailable:
        return _driver
    path = library_path(source_stamp(SOURCE), prefix="native_loop")
    if not path.is_file():
        if not compile_missing:
            return None
        if _compilation is None or _compilation.library != path:   # (none yet, or into another cache)
            if compiler() is None:
                return None
            _compilation = Compilation(SOURCE.read_text(), path)
        try:
            if not _compilation.finished(wait=wait):
                return None
        except RuntimeError as exc:
            _unavailable = True
            warnings.warn(f"{exc} (native_loop.c); the solver steps in Python instead", RuntimeWarning)
            return None
        _compilation = None
    library = ctypes.CDLL(str(path))
    for name, arguments in (("floatframe_native_run", [_pointer] * 4 + [_integer] * 2 + [_pointer] * 4),
                            ("floatframe_native_initial", [_pointer] * 2),
                            ("floatframe_native_bind", [_pointer, ctypes.c_char_p, _pointer]),
                            ("floatframe_native_layout", [_pointer, _integer, _integer] + [_pointer] * 3),
                            ("floatframe_native_wire", [_pointer] * 8)):
        function = getattr(library, name)   # the structures and arrays by address (ctypes.addressof, _address)
        function.restype, function.argtypes = ctypes.c_int, arguments
    _driver = library
    return _driver


@functools.lru_cache(maxsize=None)
def _lapack(name: str) -> int:
    """The address of LAPACK's ``name`` (dgetrf, dgetrs) as SciPy's cython_lapack exports it."""
    capsule = cython_lapack.__pyx_capi__[name]
    capsule_name = ctypes.pythonapi.PyCapsule_GetName
    capsule_name.restype, capsule_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    pointer = ctypes.pythonapi.PyCapsule_GetPointer
    pointer.restype, pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    return pointer(capsule, capsule_name(capsule))


def _address(array: np.ndarray) -> int:
    return array.__array_interface__["data"][0]


class NativeLoop:
    """The C step loop for one solve of ``scheme`` (a GeneralizedAlpha) on ``system`` with the dense
    ``kernel``; ``ready()`` once the kernel is compiled and the driver loaded, ``run(...)`` (a generator)
    takes grid times from the shared loop.

    The scheme's kept iteration matrix (``_factorization``), its MatrixRenewal and its statistics go into
    the C loop at each call and come back after it, so that the Python loop and this one can take turns in
    one solve (under compile="auto" the kernel may be compiled in the background during the solve).
    """

    checks_growth = True   # ``run`` tests its states against the growth bound (in C)

    def __init__(self, scheme, system, kernel):
        self.scheme, self.system, self.kernel = scheme, system, kernel
        self.problem = None
        self.exported = None   # the scheme's _factorization as last set here
        self.chunk = None
        self.steps = 0         # steps taken in C

    @classmethod
    def set_up_now(cls, scheme, system, kernel) -> "NativeLoop | None":
        """A NativeLoop set up at once (for ``initial_accelerations`` before the steps), or None where the kernel
        is not compiled or the driver not loaded."""
        native = cls(scheme, system, kernel)
        return native if native._try_set_up() else None

    def ready(self) -> bool:
        """Whether the loop can take steps now (the kernel compiled, the driver loaded: then set up)."""
        return self._try_set_up()

    def _try_set_up(self) -> bool:
        if self.problem is not None:
            return True
        if not self.kernel.is_compiled:
            return False
        library = driver(wait=self.scheme.compile is True)
        if library is None:
            return False
        self._set_up(library)
        return True

    def _set_up(self, library) -> None:
        scheme, system = self.scheme, self.system
        self.library = library
        problem = self.problem = _Problem()
        # the kernel's library, its Functions and their work sizes: bound in C (through ctypes, 0.2 ms more)
        names = DenseNewtonKernel.FUNCTION_NAMES
        work = np.zeros(4 * len(names), dtype=np.int64)
        if library.floatframe_native_bind(ctypes.addressof(problem), str(self.kernel.library()).encode(),
                                          _address(work)):
            raise RuntimeError(f"the compiled kernel {self.kernel.library()} does not load or lacks a Function")
        self.n, self.m = n, m = system.n_coordinates, system.n_multipliers
        problem.n, problem.m = n, m
        # the buffers: one pool of doubles laid out and wired to the problem and the Functions in C (in Python,
        # the wiring took 0.13 ms of a tiny model's 1.4 ms solve)
        layout, sizes = np.zeros(2 * len(BUFFERS), dtype=np.int64), np.zeros(3, dtype=np.int64)
        inputs_size = sum(item.size for item in system.inputs)
        library.floatframe_native_layout(ctypes.addressof(problem), inputs_size, system.parameters_now().size,
                                         _address(work), _address(layout), _address(sizes))
        pool_size, pointer_count, integer_work = sizes.tolist()
        pool = np.zeros(pool_size)
        self.pointers = np.zeros(pointer_count, dtype=np.uint64)   # (kept alive with the loop, as the pool)
        self.integer_work = np.zeros(integer_work, dtype=np.int64)
        self.pivots = np.zeros(max(n + m, 1), dtype=np.intc)
        run = self.run_state = _Run()
        library.floatframe_native_wire(ctypes.addressof(problem), ctypes.addressof(run), _address(work),
                                       _address(layout), _address(pool), _address(self.pointers),
                                       _address(self.integer_work), _address(self.pivots))
        starts = layout.tolist()
        self.buffers = {name: pool[starts[2 * k]:starts[2 * k] + starts[2 * k + 1]] for k, name in enumerate(BUFFERS)}
        self.q_reference = np.ascontiguousarray(system.q_reference, dtype=float)
        problem.getrf, problem.getrs = _lapack("dgetrf"), _lapack("dgetrs")
        self.input_failure = None   # the exception of an Input signal that failed in a step (``_inputs_at``)
        if system.inputs:   # u(t) of each step from Python (4 us a step with a constant signal, the pendulum's)
            self.inputs_callback = INPUTS_AT(self._inputs_at)
            problem.inputs_at = ctypes.cast(self.inputs_callback, ctypes.c_void_p)
        self.trapezoidal_rows = np.asarray(self.kernel.trapezoidal, dtype=np.int64)   # (kept alive with the loop)
        problem.trapezoidal_count = self.trapezoidal_rows.size
        if self.trapezoidal_rows.size:
            problem.trapezoidal_rows = _address(self.trapezoidal_rows)
        problem.alpha_m, problem.alpha_f, problem.beta, problem.gamma = (scheme.alpha_m, scheme.alpha_f,
                                                                         scheme.beta, scheme.gamma)
        problem.relative_tolerance = scheme.relative_tolerance
        problem.absolute_tolerance = scheme.absolute_tolerance
        problem.constraint_rows_root = math.sqrt(max(m, 1))
        problem.max_iterations = scheme.max_iterations
        problem.modified = bool(scheme.modified_newton)
        problem.position_rows = bool(scheme.position_rows)
        problem.min_step = scheme.min_step if scheme.min_step is not None else 0.0
        problem.q_reference = _address(self.q_reference)
        control = scheme.newton_control
        problem.exudyn_control = control is not None
        if control is not None:   # ResidualStop (genalpha.py)
            problem.exudyn_jacobian = bool(control.exudyn_jacobian)
            problem.max_modified_iterations = control.max_modified_iterations
            problem.max_restart_iterations = control.max_restart_iterations
            problem.jacobian_per_step = bool(control.jacobian_per_step)
            problem.adapt_initial_residual = bool(control.adapt_initial_residual)
            problem.stop_relative_tolerance = control.relative_tolerance
            problem.stop_absolute_tolerance = control.absolute_tolerance
            problem.contractivity = control.contractivity
            problem.coordinate_factor = control.coordinate_factor
            problem.without_loads = control.without_loads

    def _inputs_at(self, t: float) -> int:
        """The C loop's callback: u(t) into the u buffer, as ``_DenseNewton.start`` sets it; 1 where a signal
        raises (the exception is kept and raised by ``run``, as the Python loop would raise it)."""
        try:
            self.buffers["u"][:] = self.system.input_vector(t)
        except Exception as failure:   # (an exception cannot cross the C loop)
            self.input_failure = failure
            return 1
        return 0

    def initial_accelerations(self, t, q, v):
        """(a, lam): ``DenseNewtonKernel.initial_accelerations`` in C (the same bits), or None where it finds the
        rows not finite or the matrix singular."""
        n, m, buffers = self.n, self.m, self.buffers
        self.run_state.t = t
        buffers["q"][:] = q
        buffers["v"][:] = v
        buffers["u"][:] = self.system.input_vector(float(t))
        buffers["p"][:] = self.system.parameters_now()
        if self.library.floatframe_native_initial(ctypes.addressof(self.problem), ctypes.addressof(self.run_state)):
            return None
        return buffers["a_state"][:n].copy(), buffers["lam_state"][:m].copy()

    def run(self, state: State, grid, counts, first: int, store_every: int, check_every: int, bound):
        """Advance from ``state`` (at grid time first - 1) over the next grid intervals; yields one block
        (k_last, StateRows) of the states at the grid times k that the shared loop stores or checks
        (``store_every``, ``check_every``, ``bound`` a GrowthBound or None), the last one at the end of this
        call's intervals. The C loop tests those
        states against the growth bound itself (the shared loop need not): a state beyond it raises the
        bound's SolverError after the states before it. A failed step (the step size below the minimum)
        raises SolverError as ``Scheme.advance`` does, after the states before it, with the last accepted
        state as ``state``."""
        scheme, system, problem, run, buffers = self.scheme, self.system, self.problem, self.run_state, self.buffers
        n, m = self.n, self.m
        if self.chunk is None:
            self.chunk = max(MIN_GRID_TIMES_PER_CALL, -(-(grid.size - 1) // CALLS_PER_SOLVE))
            self.grid = np.ascontiguousarray(grid, dtype=float)
            self.counts = np.ascontiguousarray(counts, dtype=np.int64)
        last = min(grid.size - 1, first + self.chunk - 1)
        times = np.arange(first, last + 1, dtype=np.int64)
        if store_every == 1:   # every state stored, and checked where there is a bound (the masks: 20 us)
            visits = times
            checked = np.full(times.size, int(bound is not None), dtype=np.int64)
        else:
            store = (times % store_every == 0) | (times == grid.size - 1)
            checked = (store | (times % check_every == 0)) if bound is not None else np.zeros(times.size, dtype=bool)
            wanted = store | checked
            wanted[-1] = True
            visits = np.ascontiguousarray(times[wanted])
            checked = checked[wanted].astype(np.int64)
        problem.position_squared = bound.position_limit ** 2 if bound is not None else math.inf
        problem.velocity_squared = bound.velocity_limit ** 2 if bound is not None else math.inf
        problem.refresh_cost = scheme._renewal.refresh_cost
        parameters = system.parameters_now()
        buffers["p"][:parameters.size] = parameters
        self._put_state(state)
        visited = np.empty((visits.size, StateRows.width(n, m)))
        written = ctypes.c_longlong(0)
        status = self.library.floatframe_native_run(
            ctypes.addressof(problem), ctypes.addressof(run), _address(self.grid), _address(self.counts), first,
            last, _address(visits), _address(checked), _address(visited), ctypes.addressof(written))
        self._take_back()
        rows = StateRows(visits[:written.value], visited[:written.value], n)
        count = written.value - (status == RUN_GROWTH)   # a last row beyond the growth bound is not a state kept
        if count:
            yield int(visits[count - 1]), rows.select(slice(0, count))
        if status == RUN_GROWTH:
            raise bound.failure(rows.state())
        if status == RUN_FAILED and run.failure == FAILURE_INPUT:
            failure, self.input_failure = self.input_failure, None
            raise failure
        if status == RUN_FAILED:
            raise self._failure()

    def _put_state(self, state: State) -> None:
        """The state, the kept iteration matrix and MatrixRenewal into the C structures."""
        scheme, run, buffers = self.scheme, self.run_state, self.buffers
        n, m = self.n, self.m
        run.t = state.t
        buffers["q"][:n] = state.q
        buffers["v"][:n] = state.v
        buffers["a_state"][:n] = state.a
        buffers["abar"][:n] = state.abar
        buffers["lam_state"][:m] = state.lam
        factorization = scheme._factorization
        run.has_factorization = factorization is not None
        if factorization is not None:
            if factorization is not self.exported:
                buffers["factors"][:] = factorization[0].packed
                buffers["permutation"][:] = factorization[0].permutation
                self.pivots[:n + m] = factorization[0].pivots + 1   # (getrf's in C are 1-based)
            run.factorization_c_q, run.factorization_c_v = factorization[1]
        renewal = scheme._renewal
        run.renewal_cost, run.renewal_steps, run.renewal_due = renewal.cost, renewal.steps, renewal.due
        run.jacobian_due = scheme._jacobian_due
        for name in STATISTICS:
            setattr(run, name, 0)

    def _take_back(self) -> None:
        """The kept iteration matrix, MatrixRenewal, the statistics and the system's current state back from C."""
        scheme, run, buffers = self.scheme, self.run_state, self.buffers
        n, m = self.n, self.m
        if run.has_factorization:
            lu = DenseLU.from_factors(buffers["factors"].copy(), buffers["permutation"].copy(),
                                      self.pivots[:n + m] - 1)
            self.exported = scheme._factorization = (lu, (run.factorization_c_q, run.factorization_c_v))
        else:
            self.exported = scheme._factorization = None
        renewal = scheme._renewal
        renewal.cost, renewal.steps, renewal.due = run.renewal_cost, run.renewal_steps, bool(run.renewal_due)
        scheme._jacobian_due = bool(run.jacobian_due)
        statistics = scheme.statistics
        for name in STATISTICS:
            setattr(statistics, name, getattr(statistics, name) + getattr(run, name))
        self.steps += run.steps
        self.system.current_state = (run.t, buffers["q"][:n].copy(), buffers["v"][:n].copy(),
                                     buffers["a_state"][:n].copy(), buffers["lam_state"][:m].copy())

    def _failure(self) -> SolverError:
        """The SolverError of ``Scheme.advance`` for the failure the C loop reports."""
        run, buffers, n, m = self.run_state, self.buffers, self.n, self.m
        t = run.failure_time
        if run.failure == FAILURE_NOT_FINITE:
            cause = not_finite(t, run.failure_iteration)
        elif run.failure == FAILURE_SINGULAR:
            size = n + m
            matrix = sp.csc_matrix(buffers["matrix_out"][:size * size].reshape(size, size, order="F"))
            cause = singular_matrix(t, DenseLU.singular_message(run.failure_info),
                                    singular_cause(self.system, t, matrix))
        elif self.scheme.newton_control is not None:
            cause = residual_not_converged(t, self.scheme.max_iterations, run.failure_residual_norm,
                                           run.failure_update)
        else:
            cause = not_converged(t, self.scheme.max_iterations, run.failure_residual_norm, run.failure_update)
        last = State(run.t, buffers["q"][:n].copy(), buffers["v"][:n].copy(), buffers["a_state"][:n].copy(),
                     buffers["abar"][:n].copy(), buffers["lam_state"][:m].copy())
        return step_size_failure(self.scheme.name, run.failure_min_step, last, cause)


# A cached driver is loaded with this module, as a C extension module would be: the library does not depend on
# the model, and loading it (0.2-0.4 ms in a fresh process) is a cost of the import, not of the first solve.
try:
    if driver(wait=False, compile_missing=False) is not None:
        _lapack("dgetrf"), _lapack("dgetrs")   # (their addresses: 40 us, once a process)
except OSError:   # a damaged library: the first solve that needs it reports it
    pass
