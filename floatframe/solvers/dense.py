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

import weakref

import casadi as ca
import numpy as np
import scipy.sparse as sp
from scipy.linalg import lapack

# Largest n + m for the dense path. Measured on this project's machine (docs/performance.md): one dense
# getrf of order 100 takes about 50 us, a SuperLU factorization of a small sparse matrix 30-80 us plus
# its Python set-up; beyond a few hundred unknowns the O(N^3) dense LU loses to the sparse one on FE meshes.
DENSE_LIMIT = 100

_kernels = weakref.WeakKeyDictionary()  # AssembledSystem -> {index: DenseNewtonKernel, "sensors": BufferedFunction}


def wants_dense(system, linear_algebra: str) -> bool:
    """Whether ``system`` is solved on the dense path for the solver option ``linear_algebra``.

    ``"auto"``: dense for n + m <= DENSE_LIMIT without user-function callbacks; ``"dense"``: dense
    where possible (no callbacks); ``"sparse"``: never.
    """
    if linear_algebra == "sparse" or system.context.externals:
        return False
    if linear_algebra == "dense":
        return True
    return system.n_coordinates + system.n_multipliers <= DENSE_LIMIT


def dense_kernel(system, index: int) -> "DenseNewtonKernel":
    """The (cached) kernel of ``system`` for index-3 or index-2 constraint rows."""
    per_system = _kernels.setdefault(system, {})
    if index not in per_system:
        per_system[index] = DenseNewtonKernel(system, index)
    return per_system[index]


def sensor_evaluator(system):
    """(t, q, v, a, lam) -> list of sensor value arrays, as ``system.sensor_values`` gives them.

    Without user-function callbacks the sensors Function is evaluated through buffers (about 100 times
    less call overhead per stored state); with callbacks it is ``system.sensor_values`` itself.
    """
    if system.context.externals:
        return system.sensor_values
    per_system = _kernels.setdefault(system, {})
    if "sensors" not in per_system:
        per_system["sensors"] = BufferedFunction(system.functions["sensors"])
    function = per_system["sensors"]
    bounds = system._sensor_slices

    def values(t, q, v, a, lam):
        stacked = function(t, q, v, a, lam, system.input_vector(float(t)), system._parameters_now())[0]
        return [stacked[bounds[i]:bounds[i + 1]].copy() for i in range(len(bounds) - 1)]
    return values


class BufferedFunction:
    """A CasADi Function evaluated through buffers bound once to NumPy arrays.

    ``inputs[i]`` and ``outputs[j]`` are the bound arrays (float, contiguous, sized as the Function's
    inputs and outputs; a matrix output is stored column by column). Write into ``inputs`` in place,
    call ``evaluate()``, read ``outputs``.
    """

    def __init__(self, function: ca.Function):
        self.function = function
        self.inputs = [np.zeros(function.numel_in(i)) for i in range(function.n_in())]
        self.outputs = [np.zeros(function.nnz_out(j)) for j in range(function.n_out())]
        self._buffer, self.evaluate = function.buffer()
        for i, array in enumerate(self.inputs):
            self._buffer.set_arg(i, memoryview(array))
        for j, array in enumerate(self.outputs):
            self._buffer.set_res(j, memoryview(array))

    def __call__(self, *values) -> list[np.ndarray]:
        """Evaluate at ``values`` (copied into the input buffers); returns the output arrays (not copies)."""
        for array, value in zip(self.inputs, values):
            array[:] = value
        self.evaluate()
        return self.outputs


class DenseNewtonKernel:
    """The Newton rows and the dense iteration matrix of a generalized-alpha step as buffered Functions.

    With q = q_known + c_q a and v = v_known + c_v a:

        rows(t, q_known, v_known, a, lam, c_q, c_v, u, p) = [R(t, q, v, a, lam); C(t, q) / c_q]
        (index 2: [R; dC/dt(t, q, v) / c_v]),

        matrix(...) = [[M + c_v R_v + c_q R_q, R_lambda], [C_q, 0]]  (n+m, n+m), dense,

    the same functions the sparse path evaluates (``AssembledSystem.residual``, ``constraints``,
    ``constraint_velocity``, ``newton_matrix``), composed and expanded into one SX graph each.
    """

    def __init__(self, system, index: int):
        self.n, self.m = system.n_coordinates, system.n_multipliers
        functions = system.functions
        symbols = system.symbols
        t = ca.SX.sym("t")
        q_known, v_known, a = (ca.SX.sym(name, self.n) for name in ("q_known", "v_known", "a"))
        lam = ca.SX.sym("lam", self.m)
        c_q, c_v = ca.SX.sym("c_q"), ca.SX.sym("c_v")
        u, p = ca.SX.sym("u", symbols.u.numel()), ca.SX.sym("p", symbols.p.numel())
        q, v = q_known + c_q * a, v_known + c_v * a
        if index == 3:
            constraint_rows = functions["constraints"](t, q, u, p) / c_q
        else:
            constraint_rows = functions["constraint_velocity"](t, q, v, u, p) / c_v
        rows = ca.vertcat(functions["residual"](t, q, v, a, lam, u, p), constraint_rows)
        matrix = ca.densify(functions["newton_matrix"](t, q, v, a, lam, 1.0, c_v, c_q, ca.DM.zeros(self.n), u, p))
        arguments = [t, q_known, v_known, a, lam, c_q, c_v, u, p]
        self._rows = BufferedFunction(ca.Function("newton_rows", arguments, [rows]))
        self._matrix = BufferedFunction(ca.Function("dense_newton_matrix", arguments, [matrix]))

    def set_step(self, t, q_known, v_known, c_q, c_v, u, p) -> None:
        """Bind what stays fixed during one step's Newton iteration (both functions)."""
        for function in (self._rows, self._matrix):
            inputs = function.inputs
            inputs[0][0] = t
            inputs[1][:] = q_known
            inputs[2][:] = v_known
            inputs[5][0] = c_q
            inputs[6][0] = c_v
            inputs[7][:] = u
            inputs[8][:] = p

    def rows(self, a, lam) -> np.ndarray:
        """The Newton rows (n+m,) at the iterate (a, lam); a view into the output buffer."""
        inputs = self._rows.inputs
        inputs[3][:] = a
        inputs[4][:] = lam
        self._rows.evaluate()
        return self._rows.outputs[0]

    def factorize(self, a, lam) -> "DenseLU":
        """LU of the iteration matrix at (a, lam); raises np.linalg.LinAlgError with the matrix if singular."""
        inputs = self._matrix.inputs
        inputs[3][:] = a
        inputs[4][:] = lam
        self._matrix.evaluate()
        size = self.n + self.m
        matrix = self._matrix.outputs[0].reshape(size, size, order="F")
        return DenseLU(matrix)


class DenseLU:
    """LAPACK LU (getrf) of a dense matrix with a ``solve`` like SuperLU's."""

    def __init__(self, matrix: np.ndarray):
        self.factors, self.pivots, info = lapack.dgetrf(matrix)
        if info != 0:
            raise SingularMatrix(sp.csc_matrix(matrix),
                                 "Factor is exactly singular" if info > 0 else f"getrf failed ({info})")

    def solve(self, right: np.ndarray) -> np.ndarray:
        solution, _ = lapack.dgetrs(self.factors, self.pivots, right)
        return solution


class SingularMatrix(RuntimeError):
    """A dense iteration matrix without an LU; ``matrix`` (sparse) for naming the cause."""

    def __init__(self, matrix, message):
        super().__init__(message)
        self.matrix = matrix
