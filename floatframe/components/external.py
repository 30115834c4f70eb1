"""Python callables inside the CasADi graph.

A user function (e.g. ObjectFFRF's ``force_user_function``) returns NumPy values and cannot be traced
symbolically. It enters the residual as a CasADi ``Callback`` whose derivatives CasADi takes by
finite differences; the system builder wires the callback's output into the symbolic graph. The same
mechanism takes an :class:`ExactFunction`: CasADi matrix products with an exact Jacobian of their own (the
reduced-order body's terms in many modes).
"""
from __future__ import annotations

import warnings

import casadi as ca
import numpy as np
import scipy.sparse as sp

from floatframe.buffers import BufferedFunction
from floatframe.errors import UserFunctionError

ROOT_EPS = np.sqrt(np.finfo(float).eps)  # relative step of forward differences


class NumericCallback(ca.Callback):
    """Wraps ``function(*numpy_inputs) -> array`` with fixed input sizes and output shape."""

    def __init__(self, name: str, function, input_sizes: list[int], output_shape: tuple[int, int]):
        ca.Callback.__init__(self)
        self.function = function
        self.input_sizes = list(input_sizes)
        self.output_shape = tuple(output_shape)
        self.state_independent = False  # set where the value is known not to change with the state
        self.jacobian = None  # (inputs...) -> d value / d [inputs stacked] (sparse), where known: no differences
        self.failure = None  # the UserFunctionError of the last failed call (CasADi's own error hides it)
        self.construct(name, {"enable_fd": True, "fd_method": "forward"})

    def get_n_in(self):
        return len(self.input_sizes)

    def get_n_out(self):
        return 1

    def get_sparsity_in(self, i):
        return ca.Sparsity.dense(self.input_sizes[i], 1)

    def get_sparsity_out(self, i):
        return ca.Sparsity.dense(*self.output_shape)

    def eval(self, arguments):
        return [ca.DM(self.values(np.concatenate([np.asarray(a, dtype=float).reshape(-1) for a in arguments])))]

    def values(self, stacked: np.ndarray) -> np.ndarray:
        """The function's value (output_shape) at its inputs stacked into one vector; a failure of the user
        function is a UserFunctionError naming it (see ``checked_call``)."""
        return self.checked_call(self.function, split(stacked, self.input_sizes, self._bounds()), self.output_shape)

    def _bounds(self) -> list:
        """Where each input starts and ends in the stacked vector (kept: a user function is called at every
        Newton iteration, and the cumulative sum was a sixth of a small model's solve)."""
        if getattr(self, "_input_bounds", None) is None:
            self._input_bounds = np.cumsum([0, *self.input_sizes]).tolist()
        return self._input_bounds

    def checked_call(self, function, arguments, shape) -> np.ndarray:
        """``function(*arguments)`` as a float array of ``shape``; raises UserFunctionError (kept as
        ``failure``) when it raises, returns a value of another size, or NaN or inf."""
        try:
            value = function(*arguments)
        except Exception as exc:
            raise self._failed("raised {}: {}".format(type(exc).__name__, exc)) from exc
        try:
            array = np.asarray(value, dtype=float)
        except (TypeError, ValueError) as exc:
            raise self._failed(f"returned {type(value).__name__}, not numbers") from exc
        if array.size != shape[0] * shape[1]:
            raise self._failed(f"returned {array.size} values, expected {shape[0] * shape[1]} (shape {shape})")
        if not np.isfinite(array).all():
            raise self._failed("returned NaN or inf")
        return array.reshape(shape)

    def _failed(self, what) -> UserFunctionError:
        """The UserFunctionError of a failed call (kept as ``failure``): '<what the function did>' after the
        words that name it, the '<kind> user function of <owner>' of the callback's name 'owner_kind'."""
        owner, _, kind = self.name().partition("_")
        self.failure = UserFunctionError(f"the {kind or 'load'} user function of {owner} {what}", owner, kind)
        return self.failure

    def derivative(self, stacked: np.ndarray, value: np.ndarray, seed: np.ndarray) -> np.ndarray:
        """The derivative of the value (at ``stacked``, where it is ``value``) along ``seed``: a forward
        difference, one call (none where ``state_independent``: zero)."""
        if self.state_independent:
            return np.zeros_like(value)
        step = ROOT_EPS * max(1.0, np.abs(stacked[seed != 0]).max()) / np.abs(seed).max()
        return (self.values(stacked + step * seed) - value) / step


def split(stacked: np.ndarray, sizes, bounds=None) -> list[np.ndarray]:
    """``stacked`` cut into consecutive pieces of the given sizes (copies); ``bounds``: their cumulative sums
    from 0, where known."""
    bounds = np.cumsum([0, *sizes]).tolist() if bounds is None else bounds
    return [stacked[bounds[i]:bounds[i + 1]].copy() for i in range(len(sizes))]


class MatrixTimesVector(NumericCallback):
    """``matrix_function(*inputs) @ w`` (w the last input), e.g. a mass-matrix user function times the
    accelerations. Its derivative along w is the matrix itself (exact); along the other inputs a forward
    difference of ``matrix_function`` times w where ``differenced`` (else none: the iteration matrix then takes
    the matrix only; set False where it is constant, ``state_independent``)."""

    def __init__(self, name: str, matrix_function, input_sizes: list[int], matrix_shape: tuple[int, int]):
        self.matrix_function = matrix_function
        self.matrix_shape = tuple(matrix_shape)
        self._last_matrix = (None, None)  # (stacked inputs but w, the matrix there) of the last call
        self.differenced = True
        super().__init__(name, self._product, [*input_sizes, matrix_shape[1]], (matrix_shape[0], 1))

    def matrix(self, stacked: np.ndarray) -> np.ndarray:
        """The matrix at the inputs ``stacked`` (without w); the last one is kept."""
        inputs, _ = self._last_matrix
        if inputs is None or not np.array_equal(inputs, stacked):
            self._last_matrix = (stacked.copy(), self._matrix_at(stacked))
        return self._last_matrix[1]

    def _matrix_at(self, stacked: np.ndarray) -> np.ndarray:
        return self.checked_call(self.matrix_function, split(stacked, self.input_sizes[:-1]), self.matrix_shape)

    def _product(self, *arguments):
        self._last_matrix = (None, None)  # a call of the user function each time
        return self.matrix(np.concatenate(arguments[:-1])) @ arguments[-1]

    def derivative(self, stacked, value, seed):
        size = self.matrix_shape[1]
        inputs, w, along_inputs = stacked[:-size], stacked[-size:], seed[:-size]
        matrix = self.matrix(inputs)
        result = matrix @ seed[-size:]                                     # along w: the matrix itself
        if self.differenced and not self.state_independent and np.any(along_inputs):
            step = ROOT_EPS * max(1.0, np.abs(inputs[along_inputs != 0]).max()) / np.abs(along_inputs).max()
            result = result + (self._matrix_at(inputs + step * along_inputs) @ w - matrix @ w) / step
        return result.reshape(value.shape)


SAMPLE_TIMES = (0.0, 0.37, 1.9, 12.5)  # [s] where a traced function is checked against numeric calls


def symbolic_or_callback(function, t: ca.SX, size: int, name: str, owner):
    """``function(t)`` as an SX expression if it can be traced, else None (to become a callback).

    Functions built from arithmetic and CasADi/NumPy ufuncs trace symbolically; anything that needs
    numbers (branches on the value, SciPy calls) does not. A trace can also go wrong without an error:
    CasADi turns ``float(symbol)`` into NaN, so ``lambda t: [math.sin(float(t)), 0, 0]`` would trace to
    a constant. The traced expression is therefore kept only where it gives what the function gives on
    numbers at ``SAMPLE_TIMES``.
    """
    try:
        with warnings.catch_warnings():  # NumPy ufuncs on CasADi symbols are what tracing relies on
            warnings.simplefilter("ignore", FutureWarning)
            value = function(t)
        expression = ca.vec(ca.SX(value)) if not isinstance(value, (list, tuple)) else ca.vertcat(*value)
    except Exception:
        return None
    if expression.numel() != size:
        raise owner.error(f"{name} must return {size} values, got {expression.numel()}")
    return expression if traces_faithfully(function, t, expression) else None


def traces_faithfully(function, t: ca.SX, expression: ca.SX) -> bool:
    """Whether the traced ``expression`` of ``function(t)`` equals the function's numeric values."""
    traced = ca.Function("traced", [t], [expression])
    for time in SAMPLE_TIMES:
        numeric = np.asarray(function(time), dtype=float).reshape(-1)
        symbolic = np.asarray(traced(time), dtype=float).reshape(-1)
        scale = max(1.0, float(np.max(np.abs(numeric), initial=0.0)))
        if not np.allclose(symbolic, numeric, rtol=1e-12, atol=1e-12 * scale):
            return False
    return True


class ExactFunction:
    """A CasADi Function (MX) with its exact Jacobian given, for ``Context.external``.

    Written into an SX graph, a dense (r, c) matrix times a vector is r c scalar nodes, and CasADi's Jacobian of
    such a graph costs O(r c^2). As one MX Function, matrix products are one node each, and with the Jacobian
    given (``custom_jacobian``) every derivative through it (Newton matrix, IDAS, optimal control) is exact and
    takes no AD. ``inputs``: MX symbols (column vectors), ``output``: an MX column of them, ``jacobians``: MX
    expressions d output / d input_i of the inputs, one per input.
    """

    def __init__(self, name: str, inputs, output, jacobians):
        names = [x.name() for x in inputs]
        self.input_sizes = [x.numel() for x in inputs]
        self.output_shape = (output.numel(), 1)
        nominal = ca.MX.sym("out", *self.output_shape)   # CasADi passes the output value too; not needed
        self.jacobian_function = ca.Function(f"jac_{name}", [*inputs, nominal], list(jacobians), [*names, "out"],
                                             [f"jac_out_{n}" for n in names])
        # d output / d [x_1; ...; x_k] as one sparse matrix, for numeric evaluation (UserFunctionTerms)
        self.stacked_jacobian = ca.Function(f"{name}_stacked_jacobian", list(inputs), [ca.horzcat(*jacobians)])
        self.with_ad = ca.Function(f"{name}_ad", list(inputs), [output])   # the same with CasADi's AD, for checks
        self.function = ca.Function(name, list(inputs), [output], names, ["out"],
                                    {"custom_jacobian": self.jacobian_function, "jac_penalty": 0,
                                     "enable_forward": False, "enable_reverse": False, "enable_fd": False})

    def __call__(self, *inputs):
        return self.function(*inputs)

    state_independent = False
    _numeric = None   # the BufferedFunction of ``numeric_function``, made at the first numeric call

    def values(self, stacked: np.ndarray) -> np.ndarray:
        """The output (output_shape) at the inputs stacked into one vector, evaluated numerically (for the
        system's numeric evaluation of externals, ``floatframe.assembly.user_function_terms``): through buffers
        (``numeric``), without CasADi's conversions of each input and the output."""
        if self._numeric is None:
            self._numeric = BufferedFunction(self.numeric_function())
            self._numeric_bounds = np.cumsum([0, *self.input_sizes]).tolist()
        evaluate, bounds = self._numeric, self._numeric_bounds
        for i, array in enumerate(evaluate.inputs):
            array[:] = stacked[bounds[i]:bounds[i + 1]]
        evaluate.evaluate()
        return evaluate.outputs[0].reshape(self.output_shape).copy()

    def numeric_function(self) -> ca.Function:
        """The Function with a dense output, for numeric evaluation. It stays MX: its matrix products are one
        node each (ObjectFFRFconvergenceTestHinge, 32 modes: 20 us a call as MX, 50 us as the SX expansion's
        44,000 scalar operations)."""
        inputs = self.function.mx_in()
        return ca.Function(f"{self.function.name()}_numeric", inputs, [ca.densify(self.function(*inputs))])

    def jacobian(self, stacked):
        """d output / d x for x = [x_1; ...; x_k] stacked (an MX column), for the system builder."""
        sizes = np.cumsum([0] + self.input_sizes)
        parts = [stacked[int(sizes[i]):int(sizes[i + 1])] for i in range(len(self.input_sizes))]
        return ca.horzcat(*self.jacobian_function(*parts, ca.MX(*self.output_shape)))


def to_casadi(matrix: sp.spmatrix) -> ca.DM:
    """A scipy.sparse matrix as a sparse CasADi DM (no densification)."""
    csc = sp.csc_matrix(matrix)
    csc.sort_indices()
    sparsity = ca.Sparsity(csc.shape[0], csc.shape[1], csc.indptr.tolist(), csc.indices.tolist())
    return ca.DM(sparsity, csc.data)
