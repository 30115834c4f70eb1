"""Numeric evaluation of an assembled system with Python user functions (callbacks) in its residual.

A user function enters the residual R as a placeholder E_k (its output, e.g. an FFRF body's force vector or
mass matrix) computed from inputs X_k(t, q, v, ...) (e.g. the body's coordinates). The symbolic parts are
CasADi SX Functions that take the placeholders' values as further inputs; here they are evaluated with

- R: each user function called once, at X_k of the state, then R(state, E);
- the iteration matrix c_a R_a + c_v R_v + c_q R_q: the SX Jacobian with E held fixed (for a mass-matrix
  user function this is c_a M_user: the mass matrix is its own a-derivative), plus, for every user function
  whose value depends on the state, dR/dE_k dE_k/dX_k dX_k/d(delta) by forward finite differences of the
  user function along the coordinates that X_k depends on (one call per such coordinate). The user
  functions' values at the state come from the residual evaluated there just before, when it was.

A callback with an exact Jacobian of its own (an ``ExactFunction``: the matrix forms of the FFRF bodies) gives
dE_k/dX_k as one sparse matrix instead (its ``stacked_jacobian``), and dR/dE_k dE_k/dX_k dX_k/d(delta) is a
product of three sparse matrices: no differences, and no dense block however large the body.

A solver with modified Newton forms the matrix rarely, so a user function is called once per residual
evaluation and its differences only at those updates. A user function marked ``state_independent`` (a
mass-matrix user function whose matrix did not change between states at assembly, see
``FloatingFrameBody.check_user_functions``) is not differenced at all.
"""
from __future__ import annotations

import casadi as ca
import numpy as np
import scipy.sparse as sp

from floatframe.assembly.patterns import csc_arrays, pattern_ones
from floatframe.components.external import split
from floatframe.buffers import BufferedFunction


class UserFunctionTerms:
    """The callbacks of ``externals`` [(placeholder, callback, input expressions)] of an assembly.

    ``functions``: name -> SX Function of (its inputs, u, p, E_1, ..., E_K); ``state`` (t, q, v, a, lam),
    ``factors`` (c_a, c_v, c_q) and ``delta`` (n,) the symbols of the assembly; ``nonlinear_residual`` the
    part of R that holds the placeholders.
    """

    def __init__(self, externals, functions, state, u, p, factors, delta, nonlinear_residual):
        self.callbacks = [callback for _, callback, _ in externals]
        self.functions = functions
        placeholders = [placeholder for placeholder, _, _ in externals]
        arguments = [*state, u, p]
        self.inputs = ca.Function("user_function_inputs", arguments,
                                  [ca.densify(ca.vertcat(*xs)) for _, _, xs in externals])
        t, q, v, a, lam = state
        c_a, c_v, c_q = factors
        shifted = [t, q + c_q * delta, v + c_v * delta, a + c_a * delta, lam, u, p]
        self.seeds, self.columns, self.rows, self.sensitivities = [], [], [], []
        for k, (placeholder, _, xs) in enumerate(externals):
            inputs = ca.Function(f"inputs{k}", arguments, [ca.vertcat(*xs)])
            jacobian = ca.jacobian(inputs(*shifted), delta)                  # dX_k / d(delta)
            columns = sorted(set(jacobian.sparsity().get_col()))
            seeds = ca.substitute(jacobian[:, columns], delta, ca.DM.zeros(delta.numel()))
            self.seeds.append(ca.Function(f"seeds{k}", arguments + list(factors), [seeds]))
            self.columns.append(np.array(columns, dtype=int))
            rows = sorted(set(ca.jacobian_sparsity(nonlinear_residual, ca.vec(placeholder)).row()))
            self.rows.append(np.array(rows, dtype=int))
            self.sensitivities.append(ca.Function(f"sensitivity{k}", arguments + placeholders, [
                ca.jacobian(nonlinear_residual[rows], ca.vec(placeholder))]))  # dR/dE_k, rows of R it enters
        self._last = [None] * len(self.callbacks)  # (X_k, E_k column by column) of the last call of each
        self._buffered = {}                         # id of a Function -> (it, its BufferedFunction)
        self._patterns = {}                         # id of a Function -> (it, (rows, column pointers, shape))

    def _evaluate(self, function: ca.Function, *values) -> list[np.ndarray]:
        """``function`` at ``values`` through buffers (no conversion of large arrays); its outputs' nonzeros."""
        return _kept(self._buffered, function, BufferedFunction)(*values)

    def _pattern(self, function: ca.Function) -> tuple[np.ndarray, np.ndarray, tuple]:
        """(rows, column pointers, shape) of ``function``'s sparse output, read once."""
        return _kept(self._patterns, function,
                     lambda f: (*csc_arrays(f.sparsity_out(0)), f.sparsity_out(0).shape))

    def _sparse(self, function: ca.Function, *values) -> sp.csc_matrix:
        """The sparse output of ``function`` at ``values``."""
        rows, pointers, shape = self._pattern(function)
        return sp.csc_matrix((self._evaluate(function, *values)[0].copy(), rows, pointers), shape=shape)

    def values(self, state, u, p, reuse: bool = False) -> list[np.ndarray]:
        """E_k at the state (each flattened column by column), each user function called once; with ``reuse``
        not where the last call had the same inputs X_k."""
        inputs = self._evaluate(self.inputs, *state, u, p)
        values = []
        for k, callback in enumerate(self.callbacks):
            x = inputs[k].copy()
            last = self._last[k]
            if not (reuse and last is not None and np.array_equal(last[0], x)):
                last = self._last[k] = (x, np.ravel(callback.values(x), order="F"))
            values.append(last[1])
        return values

    def call(self, name, state, arguments, u, p) -> np.ndarray:
        """Output ``name`` (a vector) at ``state`` (t, q, v, a, lam); ``arguments``: its inputs before u and p."""
        values = self.values(state, u, p)
        function = self.functions[name]
        rows, _, (size, _) = self._pattern(function)
        result = np.zeros(size)
        result[rows] = self._evaluate(function, *arguments, u, p, *values)[0]
        return result

    def structural_part(self, shape) -> sp.csc_matrix:
        """The pattern (ones) that the user functions' part of an iteration matrix of ``shape`` can fill:
        products of the patterns of dR/dE_k, dE_k/dX_k (dense for a user function) and dX_k/d(delta)."""
        part = sp.csc_matrix(shape)
        for k, callback in enumerate(self.callbacks):
            if not self.columns[k].size:
                continue
            seeds = pattern_ones(*self._pattern(self.seeds[k]))
            if hasattr(callback, "stacked_jacobian"):
                inner = pattern_ones(*self._pattern(callback.stacked_jacobian))
            else:
                inner = sp.csc_matrix(np.ones((int(np.prod(callback.output_shape)), seeds.shape[0])))
            block = sp.coo_matrix(pattern_ones(*self._pattern(self.sensitivities[k])) @ inner @ seeds)
            part = part + sp.csc_matrix((np.ones(block.nnz), (self.rows[k][block.row], self.columns[k][block.col])),
                                        shape=shape)
        return part

    def matrix(self, name, state, factors, u, p, sparsity) -> sp.csc_matrix:
        """The iteration matrix ``name`` (a function of state, factors, delta) at delta = 0, with the user
        functions' contributions; ``sparsity`` (rows, column pointers, shape) of its part with E fixed."""
        values = self.values(state, u, p, reuse=True)
        arguments = [*state, u, p]
        fixed = self._evaluate(self.functions[name], *state, *factors, 0.0, u, p, *values)[0].copy()
        rows, pointers, shape = sparsity
        matrix = sp.csc_matrix((fixed, rows, pointers), shape=shape)
        for k, callback in enumerate(self.callbacks):
            if not self.columns[k].size:
                continue
            seeds = self._sparse(self.seeds[k], *arguments, *factors)          # dX_k / d(delta), sparse
            x, value = self._last[k]
            if hasattr(callback, "stacked_jacobian"):                           # exact: dE_k / dX_k given
                changes = self._sparse(callback.stacked_jacobian, *split(x, callback.input_sizes)) @ seeds
            elif getattr(callback, "jacobian", None) is not None:               # the user's: dE_k / dX_k
                changes = callback.jacobian(*split(x, callback.input_sizes)) @ seeds
            else:                                                               # differences, by column
                value = value.reshape(callback.output_shape, order="F")
                dense_seeds = seeds.toarray()
                changes = np.zeros((value.size, seeds.shape[1]))
                for j in np.flatnonzero(np.abs(dense_seeds).max(axis=0) > 0):
                    changes[:, j] = np.ravel(callback.derivative(x, value, dense_seeds[:, j].copy()), order="F")
            block = sp.coo_matrix(self._sparse(self.sensitivities[k], *arguments, *values) @ changes)
            matrix = matrix + sp.csc_matrix((block.data, (self.rows[k][block.row], self.columns[k][block.col])),
                                            shape=shape)
        return matrix


def _kept(cache: dict, function: ca.Function, make):
    """``make(function)``, made once and kept in ``cache`` by the Function object (its id, checked against it): the
    callers keep their Functions, and asking CasADi for a name at every call cost 9,611 calls in 1,000 steps."""
    kept = cache.get(id(function))
    if kept is None or kept[0] is not function:
        kept = cache[id(function)] = (function, make(function))
    return kept[1]
