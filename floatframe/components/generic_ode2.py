"""A linear second-order object on a list of nodes (Exudyn's ObjectGenericODE2), with user functions.

    M q_tt + D q_t + K q = f + f_user(t, q, q_t)

q are the coordinates of the object's nodes, in their order (changes from the nodes' reference values, as the
nodes store them). A mass-matrix user function replaces M: M_user(t, q, q_t) q_tt. The user functions are
Python callables called as ``function(handle, t, object_number, q, q_t)`` (``handle`` the system's
``user_function_handle``: the MainSystem in the Exudyn layer) and enter the residual as numeric callbacks,
differentiated by forward differences, or, for the force, by a Jacobian user function where one is given.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from floatframe.components.base import Component, ModelError, resolve
from floatframe.components.external import MatrixTimesVector, NumericCallback
from floatframe.components.markers import Marker


class ObjectGenericODE2(Component):
    """M q_tt + D q_t + K q = f + f_user on the coordinates of ``node_numbers`` (see the module).

    Parameters
    ----------
    node_numbers : sequence of nodes (items or numbers)
        Their coordinates, in this order, are q (n in all).
    mass_matrix, stiffness_matrix, damping_matrix : (n, n) array_like or sparse, or None
        M, K, D in the coordinates' units; None: zero (M must then come from ``mass_matrix_user_function``).
    force_vector : (n,) array_like, optional
        f, constant.
    force_user_function, mass_matrix_user_function : callable, optional
        ``function(handle, t, object_number, q, q_t)`` returning f_user (n,) or M_user (n, n).
    jacobian_user_function : callable, optional
        ``function(handle, t, object_number, q, q_t, factor_q, factor_q_t)`` returning the Jacobian of the left-hand
        side's user part, -(factor_q d f_user/dq + factor_q_t d f_user/dq_t) (n, n), array or scipy.sparse (Exudyn's
        convention): the iteration matrix takes it in place of n forward differences of the force user function
        (two calls a matrix). Only with a force_user_function; it changes the iterations, not the solution.
    """

    family = "object"
    type_name = "ObjectGenericODE2"
    output_variables = ("Coordinates", "Coordinates_t", "Coordinates_tt")

    def __init__(self, node_numbers, mass_matrix=None, stiffness_matrix=None, damping_matrix=None,
                 force_vector=None, force_user_function=None, mass_matrix_user_function=None,
                 jacobian_user_function=None, name=""):
        super().__init__(name)
        self.node_numbers = list(node_numbers)
        if not self.node_numbers:
            raise self.error("node_numbers is empty")
        self.matrices = {"a": mass_matrix, "q": stiffness_matrix, "v": damping_matrix}
        self.force_vector = None if force_vector is None else np.asarray(force_vector, dtype=float).reshape(-1)
        for what, function in (("force_user_function", force_user_function),
                               ("mass_matrix_user_function", mass_matrix_user_function),
                               ("jacobian_user_function", jacobian_user_function)):
            if function is not None and not callable(function):
                raise self.error(f"{what} must be callable, got {function!r}")
        self.force_user_function = force_user_function
        self.mass_matrix_user_function = mass_matrix_user_function
        if jacobian_user_function is not None and force_user_function is None:
            raise self.error("jacobian_user_function is the Jacobian of the force_user_function, which is not given")
        self.jacobian_user_function = jacobian_user_function
        self._callbacks = {}

    def connect(self, system):
        self.nodes = [resolve(system, "node", ref, self, f"node_numbers[{i}]")
                      for i, ref in enumerate(self.node_numbers)]
        self._system = system
        self._callbacks = {}
        n = sum(node.n_coordinates for node in self.nodes)
        self.n_object_coordinates = n
        for variable, what in (("a", "mass_matrix"), ("q", "stiffness_matrix"), ("v", "damping_matrix")):
            matrix = self.matrices[variable]
            if matrix is not None:
                matrix = sp.csr_matrix(matrix, dtype=float) if sp.issparse(matrix) else np.asarray(matrix, dtype=float)
                if np.prod(matrix.shape) == 0:
                    matrix = None
                elif matrix.shape != (n, n):
                    raise self.error(f"{what} has shape {matrix.shape}, but the nodes have {n} coordinates")
            self.matrices[variable] = matrix
        if self.force_vector is not None and self.force_vector.size not in (0, n):
            raise self.error(f"force_vector has {self.force_vector.size} entries, but the nodes have {n} coordinates")
        if self.matrices["a"] is None and self.mass_matrix_user_function is None:
            raise self.error("needs a mass_matrix or a mass_matrix_user_function")

    def _callback(self, kind):
        if kind not in self._callbacks:
            system, function, n = self._system, (self.force_user_function if kind == "force"
                                                 else self.mass_matrix_user_function), self.n_object_coordinates

            def call(t, q, q_t):
                return function(system.user_function_handle, float(t[0]), self.index, q, q_t)

            name = f"{self.type_name}{self.index}_{kind}"
            self._callbacks[kind] = (MatrixTimesVector(name, call, [1, n, n], (n, n)) if kind == "mass"
                                     else NumericCallback(name, call, [1, n, n], (n, 1)))
            if kind == "force" and self.jacobian_user_function is not None:
                self._callbacks[kind].jacobian = self._force_jacobian
        return self._callbacks[kind]

    def _force_jacobian(self, t, q, q_t) -> sp.csr_matrix:
        """d f_user / d[t; q; q_t] (n, 1 + 2n) from the Jacobian user function at factors (1, 0) and (0, 1)
        (its value is the left-hand side's: the negative derivatives); nothing along t."""
        n = self.n_object_coordinates
        parts = [sp.csr_matrix((n, 1))]
        for factors in ((1.0, 0.0), (0.0, 1.0)):
            parts.append(-self._jacobian_value(float(t[0]), q, q_t, *factors))
        return sp.hstack(parts, format="csr")

    def _jacobian_value(self, t, q, q_t, factor_q, factor_q_t) -> sp.csr_matrix:
        """The Jacobian user function's matrix (n, n) at a state; a ModelError naming the object for another size."""
        n = self.n_object_coordinates
        value = self.jacobian_user_function(self._system.user_function_handle, t, self.index, q, q_t, factor_q,
                                            factor_q_t)
        matrix = sp.csr_matrix(value if sp.issparse(value) else np.asarray(value, dtype=float))
        if matrix.shape != (n, n):
            raise self.error(f"jacobian user function returned shape {matrix.shape}, expected {(n, n)}")
        return matrix

    def add_terms(self, ctx):
        import casadi as ca

        rows = np.concatenate([node.coordinate_indices for node in self.nodes])
        for variable, matrix in self.matrices.items():
            if matrix is not None and (variable != "a" or self.mass_matrix_user_function is None):
                ctx.add_linear(rows, rows, matrix, variable)
        if self.force_vector is not None and self.force_vector.size:
            ctx.add_force(rows, ca.DM(self.force_vector))
        q = ca.vertcat(*[ctx.coordinates(node) for node in self.nodes])
        v = ca.vertcat(*[ctx.velocities(node) for node in self.nodes])
        if self.force_user_function is not None:
            ctx.add_force(rows, ctx.external(self._callback("force"), [ctx.t, q, v]))
        if self.mass_matrix_user_function is not None:
            a = ca.vertcat(*[ctx.accelerations(node) for node in self.nodes])
            ctx.add_lhs(rows, ctx.external(self._callback("mass"), [ctx.t, q, v, a]))

    def check(self, assembled):
        """Call each user function once at the initial state: a failure or a wrong size is reported now."""
        q0 = np.concatenate([node.initial_coordinates for node in self.nodes])
        v0 = np.concatenate([node.initial_velocities for node in self.nodes])
        n = self.n_object_coordinates
        for kind, function, shape in (("force", self.force_user_function, (n,)),
                                      ("mass", self.mass_matrix_user_function, (n, n))):
            if function is None:
                continue
            try:
                value = np.asarray(function(self._system.user_function_handle, 0.0, self.index, q0, v0), dtype=float)
            except Exception as exc:
                raise self.error(f"{kind} user function failed at the initial state: {exc!r}") from exc
            if value.size != int(np.prod(shape)):
                raise self.error(f"{kind} user function returned shape {value.shape}, expected {shape}")
        if self.jacobian_user_function is not None:
            try:
                self._jacobian_value(0.0, q0, v0, 1.0, 0.0)
            except ModelError:   # a wrong size, named already
                raise
            except Exception as exc:
                raise self.error(f"jacobian user function failed at the initial state: {exc!r}") from exc

    def output(self, ctx, variable):
        """Coordinates, Coordinates_t, Coordinates_tt of the object's nodes (Exudyn's object outputs)."""
        import casadi as ca

        parts = {"Coordinates": ctx.coordinates, "Coordinates_t": ctx.velocities, "Coordinates_tt": ctx.accelerations}
        if variable not in parts:
            raise self.error(f"has no output variable '{variable}'; available: {sorted(parts)}")
        return ca.vertcat(*[parts[variable](node) for node in self.nodes])

    @property
    def mesh_outputs(self) -> tuple:
        """The output variables of the mesh nodes (the object's nodes, in its order): those all its nodes have."""
        names = [node.output_variables for node in self.nodes]
        return tuple(name for name in names[0] if all(name in others for others in names[1:]))

    def check_mesh_node(self, mesh_node, owner):
        if not (isinstance(mesh_node, (int, np.integer)) and 0 <= mesh_node < len(self.nodes)):
            raise owner.error(f"mesh node {mesh_node!r} is out of range for {self.label} with {len(self.nodes)} nodes")

    def mesh_node_output(self, ctx, mesh_node: int, variable: str):
        """Output variable of mesh node ``mesh_node`` (0-based in the node list): that node's own output, as in
        Exudyn (a super-element sensor on this object)."""
        return self.nodes[mesh_node].output(ctx, variable)


class MarkerGenericODE2Position(Marker):
    """Weighted sum of the positions of nodes of an ObjectGenericODE2 (Exudyn's MarkerSuperElementPosition on it):
    p = sum_i w_i x_(node k_i), the k_i counted in the object's node list; forces act through it.

    Parameters
    ----------
    body_number : ObjectGenericODE2 or int
    mesh_node_numbers : sequence of int
        Positions k_i in the object's node list.
    weighting_factors : sequence of float
        w_i, one per node.
    """

    type_name = "MarkerSuperElementPosition"
    kind = "position"

    def __init__(self, body_number, mesh_node_numbers, weighting_factors, name=""):
        super().__init__(name)
        self.body_number = body_number
        self.mesh_node_numbers = [int(k) for k in np.asarray(mesh_node_numbers).reshape(-1)]
        self.weighting_factors = self.vector(weighting_factors, len(self.mesh_node_numbers), "weighting_factors")

    def connect(self, system):
        self.body = resolve(system, "object", self.body_number, self, "body_number")
        if not isinstance(self.body, ObjectGenericODE2):
            raise self.error(f"body_number must refer to an ObjectGenericODE2, got {self.body.label}")
        count = len(self.body.node_numbers)
        wrong = [k for k in self.mesh_node_numbers if not 0 <= k < count]
        if wrong:
            raise self.error(f"mesh_node_numbers {wrong} are not among the object's {count} nodes")

    def position(self, ctx):
        nodes = [self.body.nodes[k] for k in self.mesh_node_numbers]
        return sum(w * node.position(ctx) for w, node in zip(self.weighting_factors.tolist(), nodes))
