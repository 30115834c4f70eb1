"""The CasADi functions of an assembled model, formed from its symbolic pieces (what ``AssembledSystem``
evaluates is kept apart from how its functions are made).

Two sets of functions share one table of outputs (:meth:`SystemFunctions.outputs`):

- **numeric**: what the solvers' calls evaluate at every step, formed at assembly. The constant linear
  terms of the residual (K q_f, D v_f, M a_f of FE bodies, declared with ``Context.add_linear``) are left
  out: ``AssembledSystem`` adds them and their part of the iteration matrix with SciPy, so neither the
  graph nor the functions grow with the entries of the FE matrices.
- **complete** (``AssembledSystem.functions``): the whole DAE with the linear terms inside, for users that
  build on it symbolically (IDAS, optimal control, the compiled dense path); formed on first use.

Every function takes (its inputs, u, p), then the user-function values where it holds any (see
``floatframe.assembly.user_function_terms``). The iteration matrices take (t, q, v, a, lam, c_a, c_v, c_q, delta):
c_a R_a + c_v R_v + c_q R_q is d/d(delta) of R(q + c_q delta, v + c_v delta, a + c_a delta) at delta = 0.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import numpy as np

from floatframe.components.external import to_casadi

ITERATION_MATRICES = ("newton_matrix", "newton_matrix_index2", "mass_matrix")


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


class SystemFunctions:
    """Forms the functions of an assembly from its context ``ctx`` and symbolic pieces.

    ``nonlinear_residual`` (n,) is R without the linear terms ``linear`` ({"q", "v", "a"}: constant scipy
    matrices (n, n), R = nonlinear + L_q q + L_v v + L_a a); ``constraints`` (m,); ``sensors`` the stacked
    sensor expressions; ``index2`` the connectors' velocity-level form (velocity equations, reaction
    correction) or None.
    """

    def __init__(self, ctx, nonlinear_residual, linear, constraints, sensors, index2):
        self.ctx = ctx
        self.linear = linear
        self.u = ca.vertcat(*ctx.inputs.values()) if ctx.inputs else ca.SX(0, 1)
        self.p = ca.vertcat(*ctx.parameters.values()) if ctx.parameters else ca.SX(0, 1)
        self.state = [ctx.t, ctx.q, ctx.v, ctx.a, ctx.lam]
        self.placeholders = [placeholder for placeholder, _, _ in ctx.externals]  # user-function values
        self.nonlinear_residual, self.constraints, self.sensors = nonlinear_residual, constraints, sensors
        t, q, v, a, lam = self.state
        u, p = self.u, self.p
        self.factors = [ca.SX.sym("c_a"), ca.SX.sym("c_v"), ca.SX.sym("c_q")]
        c_a, c_v, c_q = self.factors
        self.delta = ca.SX.sym("delta", q.numel())
        self.constraint_jacobian = sparse_jacobian(constraints, q)
        # the exact iteration matrix of the nonlinear rest, with user functions' values held fixed (see
        # floatframe.assembly.user_function_terms for their part)
        nonlinear = ca.Function("nonlinear", [t, q, v, a, lam, u, p, *self.placeholders], [nonlinear_residual])
        shifted = nonlinear(t, q + c_q * self.delta, v + c_v * self.delta, a + c_a * self.delta, lam, u, p,
                            *self.placeholders)
        self.nonlinear_iteration = sparse_jacobian(shifted, self.delta)
        self.reaction_jacobian = sparse_jacobian(nonlinear_residual, lam)       # R_lambda (linear terms: none)
        self.constraint_velocity = self.constraint_jacobian @ v + ca.jacobian(constraints, t)       # dC/dt
        self.constraint_acceleration_rest = ca.jtimes(self.constraint_velocity, ca.vertcat(q, t), ca.vertcat(v, 1))
        self.index2 = None
        if index2 is not None:  # the connectors' own velocity-level form, see floatframe.assembly.forms.index2_form
            # two functions, so that the velocity equations do not take lambda (an MX call would keep it as input)
            velocity = ca.Function("index2_velocity", [t, q, v, u, p], [index2[0]])(t, q, v, u, p)
            correction = ca.Function("index2_correction", [t, q, v, lam, u, p], [index2[1]])(t, q, v, lam, u, p)
            self.index2 = dict(velocity=velocity, correction=correction,
                               iteration=c_q * sparse_jacobian(correction, q),
                               reaction_jacobian=sparse_jacobian(nonlinear_residual + correction, lam),
                               velocity_jacobian=sparse_jacobian(velocity, v))
        outputs = self.outputs(with_linear=False)
        self.input_counts = {name: len(inputs) for name, (inputs, _) in outputs.items()}  # before u and p
        self.numeric = {name: _function(name, inputs + [u, p], output, self.placeholders, name in ITERATION_MATRICES)
                        for name, (inputs, output) in outputs.items()}
        self._complete = None
        self._residual_with_jacobian = None

    def linear_casadi(self) -> dict:
        """The linear terms' matrices as sparse DMs."""
        return {name: to_casadi(matrix) for name, matrix in self.linear.items()}

    def outputs(self, with_linear: bool) -> dict:
        """name -> (inputs, expression); ``with_linear``: the linear terms inside (else left to the caller)."""
        t, q, v, a, lam = self.state
        c_a, c_v, c_q = self.factors
        m = lam.numel()
        residual, iteration = self.nonlinear_residual, self.nonlinear_iteration
        if with_linear:
            linear = self.linear_casadi()
            residual = residual + linear["q"] @ q + linear["v"] @ v + linear["a"] @ a
            iteration = iteration + c_a * linear["a"] + c_v * linear["v"] + c_q * linear["q"]
        matrix_inputs = self.state + self.factors + [self.delta]
        outputs = {
            "residual": (self.state, residual),
            "constraints": ([t, q], self.constraints),
            "newton_matrix": (matrix_inputs, ca.blockcat([[iteration, self.reaction_jacobian],
                                                          [self.constraint_jacobian, ca.SX(m, m)]])),
            "constraint_jacobian": ([t, q], self.constraint_jacobian),
            "constraint_velocity": ([t, q, v], self.constraint_velocity),
            "constraint_acceleration_rest": ([t, q, v], self.constraint_acceleration_rest),  # d2C/dt2 - C_q a
            "mass_matrix": (matrix_inputs, iteration),
            "sensors": (self.state, self.sensors),
        }
        if self.index2 is not None:
            form = self.index2
            outputs["residual_index2"] = (self.state, residual + form["correction"])
            outputs["newton_matrix_index2"] = (matrix_inputs, ca.blockcat([
                [iteration + form["iteration"], form["reaction_jacobian"]],
                [form["velocity_jacobian"], ca.SX(m, m)]]))
            outputs["constraint_velocity_index2"] = ([t, q, v], form["velocity"])
        return outputs

    def complete(self) -> tuple[dict, list, list]:
        """(functions, symbols, [nonlinear residual, residual]) of the whole DAE, formed on first use.

        Without user functions: SX Functions of (inputs, u, p). With them, the callbacks are spliced into
        MX Functions of (t, q, v, a, lam, u, p), so that derivatives taken afterwards include them by the
        chain rule; the iteration matrices are then not among the functions (``AssembledSystem`` forms
        them numerically).
        """
        if self._complete is None:
            outputs = self.outputs(with_linear=True)
            functions = {name: _function(name, inputs + [self.u, self.p], output, self.placeholders,
                                         name in ITERATION_MATRICES) for name, (inputs, output) in outputs.items()}
            symbols = self.state + [self.u, self.p]
            expressions = [self.nonlinear_residual, outputs["residual"][1]]
            if self.placeholders:
                with_values = [name for name, function in functions.items()
                               if function.n_in() > len(outputs[name][0]) + 2]
                spliced_names = [name for name in with_values if name not in ITERATION_MATRICES]
                symbols, spliced = _splice_externals(symbols, expressions + [outputs[name][1] for name in spliced_names],
                                                     self.ctx.externals)
                functions = {name: function for name, function in functions.items() if name not in with_values}
                functions.update({name: ca.Function(name, symbols, [expression])
                                  for name, expression in zip(spliced_names, spliced[2:])})
                nonlinear_outputs = self.outputs(with_linear=False)
                for name in ("residual", "residual_index2"):   # these with their exact Jacobian, see there
                    if name in spliced_names:
                        functions[name] = self._spliced_with_jacobian(name, nonlinear_outputs[name][1])
                expressions = spliced[:2]
            self._complete = (functions, symbols, expressions)
        return self._complete

    def symbols(self) -> Symbols:
        """The symbolic DAE (SX, the residual with its linear terms)."""
        t, q, v, a, lam = self.state
        linear = self.linear_casadi()
        residual = self.nonlinear_residual + linear["q"] @ q + linear["v"] @ v + linear["a"] @ a
        return Symbols(t, q, v, a, lam, residual, self.constraints, self.ctx.externals, self.u, self.p)

    def residual_with_jacobian(self) -> ca.Function:
        """R(t, q, v, a, lam, u, p) as a CasADi Function whose Jacobian is the exact blocked one.

        For integrators that differentiate their DAE themselves (IDAS): CasADi's plain AD of R would
        colour the dense reference-frame rows and columns column by column. Formed on first use.
        """
        if self._residual_with_jacobian is None and self.placeholders:
            self._residual_with_jacobian = self.complete()[0]["residual"]
        if self._residual_with_jacobian is None:
            _, inputs, (nonlinear, residual) = self.complete()
            t, q, v, a, lam, u, p = inputs
            linear = self.linear_casadi()
            blocks = [ca.jacobian(residual, t),
                      sparse_jacobian(nonlinear, q) + linear["q"],
                      sparse_jacobian(nonlinear, v) + linear["v"],
                      sparse_jacobian(nonlinear, a) + linear["a"],
                      sparse_jacobian(residual, lam), ca.jacobian(residual, u), ca.jacobian(residual, p)]
            names = ["t", "q", "v", "a", "lam", "u", "p"]
            output = type(q).sym("out_R", residual.shape)
            jacobian = ca.Function("jac_residual_exact", list(inputs) + [output], blocks, names + ["out_R"],
                                   [f"jac_R_{name}" for name in names])
            self._residual_with_jacobian = ca.Function(
                "residual_exact", list(inputs), [residual], names, ["R"],
                {"custom_jacobian": jacobian, "jac_penalty": 0})
        return self._residual_with_jacobian


    def _spliced_with_jacobian(self, name, expression) -> ca.Function:
        """``expression`` f (SX, a residual without its linear terms, with user-function placeholders E_k) plus
        the linear terms L_q q + L_v v + L_a a, as an MX Function of (t, q, v, a, lam, u, p) with the callbacks
        E_k = c_k(X_k) spliced in, and its exact Jacobian given by the chain rule in sparse factors:
        d/dx = D_x f + L_x + sum_k D_E_k f . dE_k/dX_k . D_x X_k. D_x f, D_E_k f and D_x X_k are sparse SX
        Jacobians (dense frame rows and columns split off, ``sparse_jacobian``); dE_k/dX_k is the callback's
        own (an ExactFunction's given Jacobian, a user function's differences). CasADi's AD of the spliced
        graph would colour the dense rows and columns one sweep each. Each product with a constant matrix
        is one MX node."""
        symbols = self.state + [self.u, self.p]
        externals = self.ctx.externals
        names = ["t", "q", "v", "a", "lam", "u", "p"]
        mx_symbols = [ca.MX.sym(n, *x.shape) for n, x in zip(names, symbols)]
        inputs_of = [ca.Function(f"{name}_X{k}", symbols, [ca.vertcat(*xs)]) for k, (_, _, xs) in enumerate(externals)]
        x_values = [function(*mx_symbols) for function in inputs_of]
        e_values = []
        for (_, callback, xs), x in zip(externals, x_values):
            sizes = np.cumsum([0] + [e.numel() for e in xs]).tolist()
            e_values.append(callback(*ca.vertsplit(x, sizes)))
        arguments = symbols + self.placeholders
        linear = self.linear_casadi()
        value = (ca.Function(f"{name}_inner", arguments, [expression])(*mx_symbols, *e_values)
                 + linear["q"] @ mx_symbols[1] + linear["v"] @ mx_symbols[2] + linear["a"] @ mx_symbols[3])
        e_jacobians = []
        for (_, callback, _), x in zip(externals, x_values):
            if hasattr(callback, "stacked_jacobian"):
                e_jacobians.append(callback.jacobian(x))
            else:
                x_symbol = ca.MX.sym("x", x.shape)
                sizes = np.cumsum([0] + list(callback.input_sizes)).tolist()
                by_differences = ca.Function("e", [x_symbol], [ca.jacobian(
                    callback(*ca.vertsplit(x_symbol, sizes)), x_symbol)])
                e_jacobians.append(by_differences(x))
        by_value = [ca.Function(f"{name}_dE{k}", arguments, [ca.jacobian(expression, ca.vec(placeholder))])(
            *mx_symbols, *e_values) for k, placeholder in enumerate(self.placeholders)]
        blocks = []
        for i, symbol in enumerate(symbols):
            block = ca.Function(f"{name}_d{names[i]}", arguments, [sparse_jacobian(expression, symbol)])(
                *mx_symbols, *e_values) + (linear[names[i]] if names[i] in linear else 0)
            for k, (_, _, xs) in enumerate(externals):
                x_by_symbol = sparse_jacobian(ca.vertcat(*xs), symbol)
                if x_by_symbol.nnz():
                    block += by_value[k] @ (e_jacobians[k] @ ca.Function(f"{name}_dX{k}{names[i]}", symbols, [
                        x_by_symbol])(*mx_symbols))
            blocks.append(block)
        output = ca.MX.sym("out", expression.shape)
        jacobian = ca.Function(f"jac_{name}", mx_symbols + [output], blocks, names + ["out"],
                               [f"jac_out_{n}" for n in names])
        return ca.Function(name, mx_symbols, [value], names, ["out"], {"custom_jacobian": jacobian, "jac_penalty": 0})


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
        return type(expression)(n_rows, n_columns)
    rows, columns = (np.asarray(index, dtype=int) for index in pattern.get_triplet())
    used_rows, used_columns = np.unique(rows), np.unique(columns)
    if used_rows.size < n_rows / 2 or used_columns.size < n_columns / 2:
        # few rows or columns hold entries (the FFRF residual without its linear terms): differentiate those only,
        # as AD of the whole expression costs in proportion to its size, not to the entries
        jacobian = type(expression)(n_rows, n_columns)
        jacobian[used_rows.tolist(), used_columns.tolist()] = sparse_jacobian(
            expression[used_rows.tolist()], variable[used_columns.tolist()], dense_factor)
        return jacobian
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
