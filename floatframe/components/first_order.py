"""First-order coordinates x with x' = A x + b + f_user(t, x) (Exudyn's NodeGenericODE1 and ObjectGenericODE1).

floatframe's DAE is second order, so a :class:`NodeODE1` with n first-order coordinates x owns n coordinates of
the DAE and uses them as follows: their velocities v are x, their accelerations a are x'. Their positions q are
the time integral of x; no equation depends on them. The node adds a to its rows, and an
:class:`ObjectGenericODE1` on the node adds the right-hand side, so that the rows read

    x' - (A x + b + f_user(t, x)) = 0;

loads on the node's rows (generalized forces) add to the right-hand side. A node without an object keeps x
constant. x is stored as a change from the node's reference values x_ref, as all coordinates are; the
equations see x without x_ref (CoordinatesTotal is x_ref + x), as in Exudyn.

What the schemes do with x:

- explicit Runge-Kutta schemes integrate (q, v) with v' = a(t, q, v): x takes exactly the stages and weights
  of the same method applied to x' = f(t, x);
- Newmark with gamma = 1/2 (the trapezoidal rule) updates v_{n+1} = v_n + h/2 (a_n + a_{n+1}): the
  trapezoidal rule on x;
- generalized-alpha updates v with its algorithmic accelerations: second-order accurate on x, and the
  trapezoidal rule only for rho_infinity = 1 (alpha_m = alpha_f = gamma = 1/2); with the node's coordinates in
  ``GeneralizedAlpha(trapezoidal_coordinates=...)`` (``first_order_rows``) it takes x by the trapezoidal rule
  whatever rho, as Exudyn does.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from floatframe.components.base import Component, Context, resolve
from floatframe.components.external import NumericCallback
from floatframe.components.nodes import Node

FIRST_ORDER_OUTPUTS = ("Coordinates", "Coordinates_t", "CoordinatesTotal")


class NodeODE1(Node):
    """n first-order coordinates x (e.g. the states of a linear state-space system), see the module.

    The node owns n coordinates of the DAE: v = x, a = x', q = the integral of x over time (in no equation).
    Outputs: Coordinates (x, change from the reference values), Coordinates_t (x'), CoordinatesTotal
    (x_ref + x).

    Parameters
    ----------
    reference_coordinates : (n,) array_like, n >= 1
        Reference values x_ref, in the coordinates' own units; n sets the number of coordinates.
    initial_coordinates : (n,) array_like, optional
        Initial x (change from x_ref); default zeros.
    """

    type_name = "NodeODE1"
    output_variables = FIRST_ORDER_OUTPUTS
    first_order = True

    def __init__(self, reference_coordinates, initial_coordinates=None, name=""):
        self.n_coordinates = int(np.size(reference_coordinates))
        n = self.n_coordinates
        initial = np.zeros(n) if initial_coordinates is None else initial_coordinates
        # the DAE coordinates: q (the integral of x) starts at 0 from reference 0, v = x starts at x(0)
        super().__init__(np.zeros(n), np.zeros(n), initial, name)
        if n == 0:
            raise self.error("needs at least one coordinate")
        self.first_order_reference = self.vector(reference_coordinates, n, "reference_coordinates")
        self.first_order_initial = self.vector(initial, n, "initial_coordinates")

    def add_terms(self, ctx: Context) -> None:
        """x' on the left-hand side of the node's rows."""
        rows = self.coordinate_indices
        ctx.add_linear(rows, rows, sp.identity(self.n_coordinates, format="csr"), "a")

    def output(self, ctx: Context, variable: str):
        """Coordinates (x), Coordinates_t (x') or CoordinatesTotal (x_ref + x) as a CasADi expression."""
        self.check_output(variable)
        if variable == "Coordinates":
            return ctx.velocities(self)
        if variable == "Coordinates_t":
            return ctx.accelerations(self)
        return ctx.velocities(self) + self.first_order_reference


class ObjectGenericODE1(Component):
    """x' = A x + b + f_user(t, x) on the first-order coordinates x of ``node_numbers`` (see the module).

    Parameters
    ----------
    node_numbers : sequence of NodeODE1 (items or numbers)
        Their coordinates, in this order, are x (n in all).
    system_matrix : (n, n) array_like or sparse, optional
        A, in 1/s; None or empty: zero.
    rhs_vector : (n,) array_like, optional
        b, constant, in the coordinates' units per second; None or empty: zero.
    rhs_user_function : callable, optional
        ``function(handle, t, object_number, x)`` returning f_user (n,), ``handle`` the system's
        ``user_function_handle`` (the MainSystem in the Exudyn layer) and x without the reference values;
        called numerically and differentiated by forward differences.
    """

    family = "object"
    type_name = "ObjectGenericODE1"
    output_variables = FIRST_ORDER_OUTPUTS

    def __init__(self, node_numbers, system_matrix=None, rhs_vector=None, rhs_user_function=None, name=""):
        super().__init__(name)
        self.node_numbers = list(node_numbers)
        if not self.node_numbers:
            raise self.error("node_numbers is empty")
        self.system_matrix = system_matrix
        self.rhs_vector = None if rhs_vector is None else np.asarray(rhs_vector, dtype=float).reshape(-1)
        if rhs_user_function is not None and not callable(rhs_user_function):
            raise self.error(f"rhs_user_function must be callable, got {rhs_user_function!r}")
        self.rhs_user_function = rhs_user_function
        self._callback = None

    def connect(self, system):
        self.nodes = [resolve(system, "node", ref, self, f"node_numbers[{i}]")
                      for i, ref in enumerate(self.node_numbers)]
        wrong = [node.label for node in self.nodes if not isinstance(node, NodeODE1)]
        if wrong:
            raise self.error(f"node_numbers must refer to first-order nodes (NodeODE1), got {', '.join(wrong)}")
        self._system = system
        self._callback = None
        n = sum(node.n_coordinates for node in self.nodes)
        self.n_object_coordinates = n
        matrix = self.system_matrix
        if matrix is not None:
            matrix = sp.csr_matrix(matrix, dtype=float) if sp.issparse(matrix) else np.asarray(matrix, dtype=float)
            if np.prod(matrix.shape) == 0:
                matrix = None
            elif matrix.shape != (n, n):
                raise self.error(f"system_matrix has shape {matrix.shape}, but the nodes have {n} coordinates")
            elif not np.all(np.isfinite(matrix.data if sp.issparse(matrix) else matrix)):
                raise self.error("system_matrix has entries that are not finite")
        self.system_matrix = matrix
        if self.rhs_vector is not None:
            if self.rhs_vector.size not in (0, n):
                raise self.error(f"rhs_vector has {self.rhs_vector.size} entries, but the nodes have {n} coordinates")
            if not np.all(np.isfinite(self.rhs_vector)):
                raise self.error("rhs_vector has entries that are not finite")

    def _user_callback(self):
        if self._callback is None:
            system, function = self._system, self.rhs_user_function

            def call(t, x):
                return function(system.user_function_handle, float(t[0]), self.index, x)

            self._callback = NumericCallback(f"{self.type_name}{self.index}_rhs", call,
                                             [1, self.n_object_coordinates], (self.n_object_coordinates, 1))
        return self._callback

    def add_terms(self, ctx: Context) -> None:
        import casadi as ca

        rows = np.concatenate([node.coordinate_indices for node in self.nodes])
        if self.system_matrix is not None:
            ctx.add_linear(rows, rows, -self.system_matrix, "v")
        if self.rhs_vector is not None and self.rhs_vector.size:
            ctx.add_force(rows, ca.DM(self.rhs_vector))
        if self.rhs_user_function is not None:
            x = ca.vertcat(*[ctx.velocities(node) for node in self.nodes])
            ctx.add_force(rows, ctx.external(self._user_callback(), [ctx.t, x]))

    def check(self, assembled) -> None:
        """Call the user function once at the initial state: a failure or a wrong size is reported now."""
        if self.rhs_user_function is None:
            return
        x0 = np.concatenate([node.first_order_initial for node in self.nodes])
        try:
            value = np.asarray(self.rhs_user_function(self._system.user_function_handle, 0.0, self.index, x0),
                               dtype=float)
        except Exception as exc:
            raise self.error(f"rhs user function failed at the initial state: {exc!r}") from exc
        if value.size != self.n_object_coordinates:
            raise self.error(f"rhs user function returned shape {value.shape}, expected "
                             f"({self.n_object_coordinates},)")

    def output(self, ctx: Context, variable: str):
        """Coordinates (x), Coordinates_t (x') or CoordinatesTotal (x_ref + x) of the object's nodes."""
        import casadi as ca

        self.check_output(variable)
        return ca.vertcat(*[node.output(ctx, variable) for node in self.nodes])


def first_order_rows(system) -> np.ndarray:
    """The coordinate indices of a built system's first-order nodes (their v are x, their a are x')."""
    rows = [node.coordinate_indices for node in system.nodes if getattr(node, "first_order", False)]
    return np.concatenate(rows).astype(int) if rows else np.zeros(0, dtype=int)
