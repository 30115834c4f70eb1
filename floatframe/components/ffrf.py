"""ObjectFFRF: a flexible body in the floating frame of reference formulation.

Coordinates (specification): q = [q_t (3, global), theta (4 Euler parameters), q_f (n_f, body-fixed)],
node 0 is the rigid-body node of the reference frame, nodes 1..n_nf are mesh nodes.

The equations of motion are written through the local nodal accelerations instead of the assembled
mass-matrix blocks, so that the symbolic graph holds one sparse product with each FE matrix and
O(n_f) further operations (its size and build time grow linearly with the mesh). With

    p     = x_ref + q_f                                  body-fixed nodal positions
    omega = G theta_t,   alpha = G theta_tt + G_t theta_t  (body-fixed angular velocity, acceleration)
    r_i   = a_f,i + alpha x p_i + omega x (omega x p_i) + 2 omega x v_f,i     per mesh node
    u     = M r                                          (M = massMatrixFF)

the mass-matrix blocks and the quadratic velocity vector of the specification give exactly

    row t:  M_tt a_t + A Phi_t^T u                      (= M_tt a_t + M_tr theta_tt + M_tf a_f - f_v,t)
    row r: -G^T p~^T (u + M Phi_t A^T a_t)              (= M_rt a_t + M_rr theta_tt + M_rf a_f - f_v,r)
    row f:  u + M Phi_t A^T a_t                          (= M_ft a_t + M_fr theta_tt + M a_f - f_v,f)

to which K q_f + D v_f, the force vector [f_r, A_bd^T f_f] and the user functions are added.
"""
from __future__ import annotations

import warnings

import casadi as ca
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from floatframe import rotations
from floatframe.linalg import null_space
from floatframe.components.base import Component, checked_keywords, resolve
from floatframe.components.accurate_products import AccurateProductFunction
from floatframe.components.external import ExactFunction, MatrixTimesVector, NumericCallback, to_casadi
from floatframe.components.nodes import NodePoint, NodeRigidBodyEP


ROUND_OFF = 1e-8  # relative to the largest diagonal entry: smaller negative values are round-off
SCALAR_PRODUCTS_LIMIT = 600  # nodal_products="auto": up to this many mesh coordinates the products are SX scalars


def negative_eigenvalue_count(matrix, shift: float) -> int:
    """Number of eigenvalues of the symmetric sparse ``matrix`` below ``-shift``.

    Sylvester's law of inertia: with diagonal pivoting only (a symmetric permutation P), P (K + s I) P^T =
    L U has as many negative pivots (diagonal of U) as K + s I has negative eigenvalues. A positive
    definite K + s I never needs another pivot. Where SuperLU needed one, or met an exactly singular
    matrix, K + s I is not positive definite, and 1 (a lower bound) is returned.
    """
    shifted = (sp.csc_matrix(matrix) + shift * sp.identity(matrix.shape[0], format="csc")).tocsc()
    try:
        factors = spla.splu(shifted, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0,
                            options=dict(SymmetricMode=True))
    except RuntimeError:
        return 1
    if not np.array_equal(factors.perm_r, factors.perm_c):
        return 1
    return int(np.sum(factors.U.diagonal() < 0.0))


def definiteness_fault(matrix, what: str, eigenvalues: bool = True) -> str | None:
    """Why the symmetric sparse ``matrix`` (n, n), an FE matrix of 3 coordinates per mesh node, is not positive
    semidefinite beyond round-off, or None: its negative diagonal entries (named with their coordinate and
    mesh node), else (``eigenvalues``) its eigenvalues below -s, s = ROUND_OFF (1e-8) max |K_ii|, counted by
    :func:`negative_eigenvalue_count` (one sparse factorization: 0.024 s for the mass matrix of the 10k-coordinate
    beam, 0.28 s at 100k, 1.5 % and 1.1 % of its build; ``python benchmarks/input_checks.py``)."""
    diagonal = matrix.diagonal()
    shift = ROUND_OFF * (np.abs(diagonal).max() if diagonal.size else 0.0)
    if shift == 0.0:
        return None
    negative = np.flatnonzero(diagonal < -shift)
    if negative.size:
        k = int(negative[np.argmin(diagonal[negative])])
        return (f"{what} has {negative.size} negative diagonal entr{'y' if negative.size == 1 else 'ies'}, "
                f"the smallest {diagonal[k]:.6g} at coordinate {k} (mesh node {k // 3}, {'xyz'[k % 3]})")
    if eigenvalues and (count := negative_eigenvalue_count(matrix, shift)):
        return (f"{what} has {count} negative eigenvalue{'s' if count > 1 else ''} below -{shift:.3g} "
                f"(-1e-8 max |K_ii|): it is indefinite")
    return None


FRAME_MESH_MOTIONS = ("translation along x", "translation along y", "translation along z",
                      "rotation about x", "rotation about y", "rotation about z")


def cross_columns(a, b):
    """Column-wise cross product of 3xN (or 3x1 broadcast against 3xN) CasADi matrices."""
    return ca.vertcat(a[1, :] * b[2, :] - a[2, :] * b[1, :],
                      a[2, :] * b[0, :] - a[0, :] * b[2, :],
                      a[0, :] * b[1, :] - a[1, :] * b[0, :])


def user_function(callback):
    """The function (t, q, q_t) that ``callback`` calls: the matrix of a MatrixTimesVector, else the value."""
    return getattr(callback, "matrix_function", callback.function)


def perturbed_states(q, v, count: int = 2):
    """``count`` states (q, v) near (q, v): every coordinate and velocity moved by a pseudo-random relative
    1e-3 (a fixed seed)."""
    generator = np.random.default_rng(7)
    return [(q + 1e-3 * (1 + np.abs(q)) * generator.uniform(-1, 1, q.size),
             v + 1e-3 * (1 + np.abs(v)) * generator.uniform(-1, 1, v.size)) for _ in range(count)]


def same_at_perturbed_states(callback, value, q, v) -> bool:
    """Whether ``callback`` (t, q, v) gives ``value`` at t = 0 and the ``perturbed_states`` of (q, v) too."""
    try:
        return all(np.array_equal(value, np.asarray(user_function(callback)(np.zeros(1), *state), dtype=float))
                   for state in perturbed_states(q, v))
    except Exception:
        return False


class FloatingFrameBody(Component):
    """What every body on a floating reference frame shares: the frame node, the outputs of the object
    and of its mesh nodes, markers on its mesh, and the force and mass-matrix user functions.

    Subclasses (:class:`ObjectFFRF`, ``ObjectFFRFReducedOrder``) set, when connected, ``rigid_node``
    (the NodeRigidBodyEP of the frame), ``object_nodes`` (the nodes whose coordinates the object owns, in
    the object's order), ``coordinate_indices``, ``n_mesh_nodes`` and ``reference_positions`` x_ref
    (n_f,), and implement :meth:`mesh_node_local` and :meth:`generalized_terms`. Markers and sensors of
    mesh nodes accept any FloatingFrameBody and use only these methods.

    Parameters
    ----------
    force_user_function : callable or None, default None
        f(system, t, item_number, q, q_t) -> (n_c,), added to the right-hand side.
    mass_matrix_user_function : callable or None, default None
        f(system, t, item_number, q, q_t) -> (n_c, n_c), added to the mass matrix.
    mass_matrix_jacobian : {"value", "exact"}, default "value"
        What the iteration matrix takes of the mass-matrix user function M_user(t, q, q_t): "value" c_a M_user
        only, as Exudyn does (M_user is called once per residual, and not for the matrix); "exact" adds
        c_q d(M_user a)/dq + c_v d(M_user a)/dq_t by forward differences (one call per object coordinate at
        each matrix update). Either way the residual holds M_user at the current state, so Newton converges to
        the same solution; "value" may need more iterations where M_user changes fast with the state. A
        constant M_user is not differenced in either case.
    name : str, default ""
        The item's name (labels and error messages).
    """

    family = "object"
    output_variables = ("Coordinates", "Coordinates_t", "Coordinates_tt", "Force")
    mesh_outputs = ("Position", "Displacement", "Velocity", "Acceleration", "DisplacementLocal", "VelocityLocal",
                    "AccelerationLocal")

    def __init__(self, force_user_function=None, mass_matrix_user_function=None, mass_matrix_jacobian="value",
                 name=""):
        super().__init__(name)
        for what, function in (("force_user_function", force_user_function),
                               ("mass_matrix_user_function", mass_matrix_user_function)):
            if function is not None and not callable(function):
                raise self.error(f"{what} must be callable, got {function!r}")
        if mass_matrix_jacobian not in ("value", "exact"):
            raise self.error(f"mass_matrix_jacobian must be 'value' or 'exact', got {mass_matrix_jacobian!r}")
        self.force_user_function = force_user_function
        self.mass_matrix_user_function = mass_matrix_user_function
        self.mass_matrix_jacobian = mass_matrix_jacobian

    def connect_frame(self, system, nodes):
        """Keep the object's nodes and coordinate indices (called by the subclass's ``connect``)."""
        self.rigid_node, self.object_nodes = nodes[0], list(nodes)
        self.coordinate_indices = np.concatenate([n.coordinate_indices for n in nodes])
        self._system = system
        self._user_callbacks = {}

    # --- kinematics -------------------------------------------------------------------------
    def frame(self, ctx):
        """Reference-frame quantities: position, A, G_local, theta, theta_t, omega_b."""
        node = self.rigid_node
        theta = node.euler_parameters(ctx)
        theta_t = ctx.velocities(node)[3:]
        return dict(position=node.position(ctx), rotation=rotations.rotation_matrix(theta),
                    g_local=rotations.g_local(theta), theta=theta, theta_t=theta_t,
                    omega=rotations.g_local(theta) @ theta_t)

    def object_vector(self, ctx, which: str):
        """The object's coordinates (change from reference, "q"), velocities ("v") or accelerations ("a")."""
        return {"q": ctx.q, "v": ctx.v, "a": ctx.a}[which][self.coordinate_indices.tolist()]

    def accelerations(self, ctx):
        return self.object_vector(ctx, "a")

    def mesh_node_local(self, ctx, mesh_node: int, which: str):
        """Body-fixed displacement u_f ("q"), its velocity ("v") or acceleration ("a") of one mesh node, 3-vector."""
        raise NotImplementedError

    def local_displacements(self, ctx, which: str = "q"):
        """u_f (or its rates) of all mesh nodes as a 3 x n_mesh_nodes matrix."""
        return ca.horzcat(*[self.mesh_node_local(ctx, k, which) for k in range(self.n_mesh_nodes)])

    def mesh_motion(self, ctx) -> dict:
        """Global Position, Displacement [m] and Velocity [m/s] of all mesh nodes, each 3 x n_mesh_nodes."""
        frame = self.frame(ctx)
        local = self.reference_positions.reshape(-1, 3).T + self.local_displacements(ctx)
        positions = frame["position"] + frame["rotation"] @ local
        reference = self.reference_mesh_positions().T
        velocities = ca.reshape(ctx.time_derivative(ca.vec(positions)), 3, self.n_mesh_nodes)
        return {"Position": positions, "Displacement": positions - reference, "Velocity": velocities}

    def weighted_local_displacement(self, ctx, mesh_nodes, weights):
        """sum_k w_k u_f,k, body-fixed (3,)."""
        return sum(w * self.mesh_node_local(ctx, k, "q") for k, w in zip(mesh_nodes, weights))

    def weighted_moment(self, ctx, mesh_nodes, weights, levers, which: str = "q"):
        """sum_k w_k lever_k x u_f,k (or its rates), body-fixed (3,); ``levers`` (len(mesh_nodes), 3) [m]."""
        return sum(w * ca.cross(ca.DM(lever), self.mesh_node_local(ctx, k, which))
                   for k, w, lever in zip(mesh_nodes, weights, np.asarray(levers, dtype=float)))

    # --- user functions ---------------------------------------------------------------------
    def _user_terms(self, ctx, acceleration):
        terms = ca.SX.zeros(self.n_coordinates)
        if self.force_user_function is None and self.mass_matrix_user_function is None:
            return terms
        object_q, object_v = self.object_vector(ctx, "q"), self.object_vector(ctx, "v")
        n_c = self.n_coordinates
        if self.force_user_function is not None:
            force = ctx.external(self._callback("force", self.force_user_function, (n_c, 1)), [ctx.t, object_q, object_v])
            terms -= force
        if self.mass_matrix_user_function is not None:  # M_user a: the matrix is its own a-derivative
            terms += ctx.external(self._callback("mass", self.mass_matrix_user_function, (n_c, n_c)),
                                  [ctx.t, object_q, object_v, acceleration])
        return terms

    def _callback(self, kind, function, shape):
        """The user function as a CasADi callback, made once per kind and kept alive with the object (the
        mass matrix's as M_user times the accelerations); ``check`` tries it after assembly."""
        if kind not in self._user_callbacks:
            system = self._system

            def call(t, q, q_t):
                return function(system.user_function_handle, float(t[0]), self.index, q, q_t)

            name, sizes = f"{self.type_name}{self.index}_{kind}", [1, self.n_coordinates, self.n_coordinates]
            self._user_callbacks[kind] = (MatrixTimesVector(name, call, sizes, shape) if kind == "mass"
                                          else NumericCallback(name, call, sizes, shape))
        return self._user_callbacks[kind]

    def check(self, assembled):
        """At the initial state: call each user function once (a wrong shape or a failure is reported now)."""
        self.check_user_functions()

    def check_user_functions(self):
        """Call each user function once at the initial state: a wrong shape or a failure is reported now.

        The mass-matrix user function's matrix must be positive semidefinite there (:meth:`check_user_mass_matrix`).
        A mass-matrix user function is called at two further states too (see ``perturbed_states``); where it
        gives the same matrix there, it is taken as independent of the state and not differentiated; else it
        is differenced for the iteration matrix only with ``mass_matrix_jacobian="exact"``.
        """
        q0 = np.concatenate([n.initial_coordinates for n in self.object_nodes])
        v0 = np.concatenate([n.initial_velocities for n in self.object_nodes])
        for kind, callback in self._user_callbacks.items():
            shape = getattr(callback, "matrix_shape", callback.output_shape)
            try:
                trial = np.asarray(user_function(callback)(np.zeros(1), q0, v0), dtype=float)
            except Exception as exc:
                raise self.error(f"{kind} user function failed at the initial state: {exc!r}") from exc
            if trial.size != shape[0] * shape[1] or (shape[1] > 1 and trial.shape != shape):
                raise self.error(f"{kind} user function returned shape {trial.shape}, expected "
                                 f"{shape if shape[1] > 1 else (shape[0],)}")
            if not np.all(np.isfinite(trial)):
                raise self.error(f"{kind} user function returned NaN or inf at the initial state")
            if kind == "mass":
                self.check_user_mass_matrix(trial)
                callback.state_independent = same_at_perturbed_states(callback, trial, q0, v0)
                callback.differenced = self.mass_matrix_jacobian == "exact" and not callback.state_independent

    def check_user_mass_matrix(self, matrix) -> None:
        """Refuse a mass user function's matrix (n_c, n_c) whose symmetric part has eigenvalues below -1e-8 max
        |M_ii| at the initial state (counted as in :func:`negative_eigenvalue_count`): the kinetic energy
        v^T M v / 2 it adds would be negative along them."""
        symmetric = 0.5 * (matrix + matrix.T)
        shift = ROUND_OFF * float(np.abs(np.diag(symmetric)).max())
        count = negative_eigenvalue_count(sp.csc_matrix(symmetric), shift) if shift > 0 else 0
        if count:
            raise self.error(f"mass user function returned a matrix with {count} negative eigenvalue"
                             f"{'s' if count > 1 else ''} below -{shift:.3g} (-1e-8 max |M_ii|, of its symmetric part, "
                             f"at the initial state): a mass matrix is positive semidefinite")

    # --- outputs ----------------------------------------------------------------------------
    def output(self, ctx, variable, local_position=None):
        """Object outputs: Coordinates, Coordinates_t, Coordinates_tt, Force (n_c,)."""
        if variable == "Coordinates":
            return self.object_vector(ctx, "q")
        if variable == "Coordinates_t":
            return self.object_vector(ctx, "v")
        if variable == "Coordinates_tt":
            return self.accelerations(ctx)
        if variable == "Force":  # all terms except mass * acceleration, as on the left-hand side
            return self.generalized_terms(ctx, ca.SX.zeros(self.n_coordinates))
        raise self.error(f"has no output variable '{variable}'; available: Coordinates, Coordinates_t, "
                         f"Coordinates_tt, Force (mesh-node outputs through a super-element sensor)")

    def check_mesh_node(self, mesh_node, owner):
        if not (isinstance(mesh_node, (int, np.integer)) and 0 <= mesh_node < self.n_mesh_nodes):
            raise owner.error(f"mesh node {mesh_node!r} is out of range for {self.label} "
                              f"with {self.n_mesh_nodes} mesh nodes")

    def mesh_node_output(self, ctx, mesh_node: int, variable: str):
        """Output variable of one mesh node (0-based, without the rigid node), 3-vector."""
        if variable in ("DisplacementLocal", "VelocityLocal", "AccelerationLocal"):
            return self.mesh_node_local(ctx, mesh_node, {"DisplacementLocal": "q", "VelocityLocal": "v",
                                                         "AccelerationLocal": "a"}[variable])
        frame = self.frame(ctx)
        p_local = self.reference_positions[3 * mesh_node:3 * mesh_node + 3] + self.mesh_node_local(ctx, mesh_node, "q")
        position = frame["position"] + frame["rotation"] @ p_local
        if variable == "Position":
            return position
        if variable == "Displacement":
            return position - self.reference_mesh_position(mesh_node)
        if variable == "Velocity":
            return ctx.time_derivative(position)
        if variable == "Acceleration":
            return ca.jtimes(ctx.time_derivative(position), ca.vertcat(ctx.q, ctx.v), ca.vertcat(ctx.v, ctx.a))
        raise self.error(f"mesh nodes have no output variable '{variable}'; available: {list(self.mesh_outputs)}")

    def reference_mesh_positions(self, mesh_nodes=None) -> np.ndarray:
        """Global positions (k, 3) of mesh nodes (default: all) in the reference configuration of frame and mesh."""
        frame_reference = self.rigid_node.reference_coordinates
        rotation = rotations.rotation_matrix(frame_reference[3:])
        local = self.reference_positions.reshape(-1, 3)
        return frame_reference[:3] + (local if mesh_nodes is None else local[mesh_nodes]) @ rotation.T

    def reference_mesh_position(self, mesh_node: int) -> np.ndarray:
        """Global position (3,) of one mesh node in the reference configuration."""
        return self.reference_mesh_positions([mesh_node])[0]

    def weighted_position(self, ctx, mesh_nodes, weights):
        """Global position of the weighted sum of mesh-node positions (super-element marker)."""
        frame = self.frame(ctx)
        x_ref = self.reference_positions.reshape(-1, 3)
        reference = sum(w * x_ref[k] for k, w in zip(mesh_nodes, weights))
        local = reference + self.weighted_local_displacement(ctx, mesh_nodes, weights)
        return frame["position"] + frame["rotation"] @ local

    def local_position(self, ctx, local_position):
        """Global position of a point fixed in the reference frame."""
        frame = self.frame(ctx)
        return frame["position"] + frame["rotation"] @ ca.DM(local_position)


class ObjectFFRF(FloatingFrameBody):
    """Flexible body in the floating frame of reference formulation (see module docstring).

    Parameters
    ----------
    node_numbers : list of nodes or node numbers
        Node 0 a NodeRigidBodyEP (the frame), the others NodePoint (the mesh nodes, n_f = 3 per node).
    mass_matrix_ff : (n_f, n_f) dense or scipy.sparse, kg
        Body-fixed FE mass matrix of the flexible coordinates only.
    stiffness_matrix_ff : (n_f, n_f) dense or scipy.sparse, N/m
        Body-fixed FE stiffness matrix of the flexible coordinates only.
    damping_matrix_ff : (n_f, n_f) dense or scipy.sparse, N s/m, or None, default None
        Body-fixed FE damping matrix; None: no damping.
    force_vector : (n_c,) array_like or None, default None
        Generalized force (N on positions, theta-forces on the Euler parameters); rigid part [global force,
        theta-forces] applied directly, flexible part given globally and transformed with A_bd^T.
    compute_ffrf_terms : bool, default True
        If False the FFRF mass terms and quadratic velocity vector are left out.
    nodal_products : {"auto", "scalar", "matrix"}, default "auto"
        How the products with the FE mass matrix enter the graph. "scalar": written into the SX graph
        (O(nnz(M)) nodes, differentiated by CasADi; the build grows with a large constant). "matrix": one MX
        Function of sparse matrix products (O(1) nodes) with its exact sparse Jacobian derived by hand
        (:meth:`frame_terms`); the build then takes little more than the FE matrices' own handling. "auto":
        "matrix" above ``SCALAR_PRODUCTS_LIMIT`` (600) mesh coordinates (docs/ffrf.md).
    allow_indefinite_stiffness : bool, default False
        Accept a stiffness matrix with negative eigenvalues (with a warning), e.g. one that includes the
        geometric stiffness of a compressed or prestressed structure. Otherwise such a matrix is refused: a
        linear elastic stiffness is positive semidefinite.
    geometric_stiffness : GeometricStiffnessCases or None, default None
        Unit load cases of the mesh (:func:`floatframe.fem.geometric_stiffness_cases`): the flexible rows get
        sum_k f_k K_G,k q_f with the amplitudes f_k of the frame motion, one MX Function with its exact Jacobian
        (:mod:`floatframe.components.geometric_stiffening`; docs/geometric_stiffening.md). None: no stiffening,
        the expression graph of the linear body.
    geometric_stiffness_amplitudes : dict or None, default None
        {interface case name (e.g. "tip force z"): amplitude, a number or a callable(ctx) -> CasADi scalar}; the
        interface cases named here are used, the others left out.
    elastic_forces : {"plain", "accurate"}, default "plain"
        How the elastic forces K q_f are summed. "plain": a sparse product in double precision, added by the
        system as a linear term. "accurate": each row as if summed exactly and rounded at the end
        (:mod:`floatframe.components.accurate_products`), through an ExactFunction whose Jacobian is K. A solid
        mesh of a slender beam in bending moves its nodes nearly rigidly, so the products K_ij q_j cancel by many
        digits, and the rounding error of the plain sum, eps sum_j |K_ij q_j|, becomes a random force on the soft
        modes that keeps Newton's updates above its tolerance (Kane's spin-up beam: docs/geometric_stiffening.md);
        "accurate" removes it at about 5 ms a residual for 120,000 nonzeros of K.

    The body needs reference conditions that fix the mesh relative to its frame (the Tisserand frame,
    :func:`~floatframe.components.reference_conditions.add_tisserand_frame`, or constraints on mesh-node
    coordinates); ``System.assemble`` refuses a body without them (see :meth:`ObjectFFRF.free_frame_motions`).
    """

    type_name = "ObjectFFRF"

    def __init__(self, node_numbers, mass_matrix_ff, stiffness_matrix_ff, damping_matrix_ff=None,
                 force_vector=None, force_user_function=None, mass_matrix_user_function=None,
                 compute_ffrf_terms=True, allow_indefinite_stiffness=False, nodal_products="auto", mass_matrix_jacobian="value", name="",
                 geometric_stiffness=None, geometric_stiffness_amplitudes=None, elastic_forces="plain"):
        super().__init__(force_user_function, mass_matrix_user_function, mass_matrix_jacobian, name)
        if elastic_forces not in ("plain", "accurate"):
            raise self.error(f"elastic_forces must be 'plain' or 'accurate', got {elastic_forces!r}")
        self.elastic_forces = elastic_forces
        self._elastic_force_function = None  # the AccurateProductFunction of K (elastic_forces="accurate")
        self.node_numbers = list(node_numbers)
        if len(self.node_numbers) < 2:
            raise self.error("node_numbers needs the rigid-body node and at least one mesh node")
        n_flexible = 3 * (len(self.node_numbers) - 1)
        self.mass_matrix_ff = self.fe_matrix(mass_matrix_ff, n_flexible, "mass_matrix_ff")
        self.stiffness_matrix_ff = self.fe_matrix(stiffness_matrix_ff, n_flexible, "stiffness_matrix_ff")
        self.check_definiteness(self.mass_matrix_ff, "mass_matrix_ff")
        self.check_definiteness(self.stiffness_matrix_ff, "stiffness_matrix_ff",
                                allow_indefinite=bool(allow_indefinite_stiffness))
        self.damping_matrix_ff = (None if damping_matrix_ff is None or np.size(damping_matrix_ff) == 0
                                  else self.fe_matrix(damping_matrix_ff, n_flexible, "damping_matrix_ff",
                                                      symmetric=False))
        self.n_coordinates = 7 + n_flexible
        self.force_vector = (None if force_vector is None or np.size(force_vector) == 0
                             else self.vector(force_vector, self.n_coordinates, "force_vector"))
        self.compute_ffrf_terms = bool(compute_ffrf_terms)
        if nodal_products not in ("auto", "scalar", "matrix"):
            raise self.error(f"nodal_products must be 'auto', 'scalar' or 'matrix', got {nodal_products!r}")
        self.matrix_form = nodal_products == "matrix" or (nodal_products == "auto"
                                                          and n_flexible > SCALAR_PRODUCTS_LIMIT)
        self._frame_terms = None  # the ExactFunction of the matrix form, made on first use (frame_terms)
        self.geometric_stiffness = None   # [(kind, index, amplitude)] of the used load cases, or None
        if geometric_stiffness is not None:
            from floatframe.components.geometric_stiffening import validated_cases

            self.geometric_stiffness, self.geometric_stiffness_matrices = validated_cases(
                self, geometric_stiffness, geometric_stiffness_amplitudes, n_flexible)            # K_G,k (n_f, n_f)
            self._stiffening_function = None
        self._compute_physics()

    # --- parameters -------------------------------------------------------------------------
    def fe_matrix(self, value, size, what, symmetric=True) -> sp.csr_matrix:
        """Validate an FE matrix (dense or sparse) and keep it as CSR."""
        if value is None:
            raise self.error(f"{what} is required")
        matrix = sp.csr_matrix(value, dtype=float) if sp.issparse(value) else None
        if matrix is None:
            array = np.asarray(value, dtype=float)
            if array.ndim != 2:
                raise self.error(f"{what} must be a 2D matrix, got {array.ndim} dimensions")
            matrix = sp.csr_matrix(array)
        if matrix.shape[0] != matrix.shape[1]:
            raise self.error(f"{what} must be square, got shape {matrix.shape}")
        if matrix.shape[0] != size:
            raise self.error(f"{what} has size {matrix.shape[0]}, expected 3 x (number of mesh nodes) = {size}")
        if not np.all(np.isfinite(matrix.data)):
            raise self.error(f"{what} contains NaN or inf")
        if symmetric:
            asymmetry = abs(matrix - matrix.T).max() if matrix.nnz else 0.0
            scale = abs(matrix).max() if matrix.nnz else 1.0
            if asymmetry > 1e-8 * scale:
                raise self.error(f"{what} is not symmetric: max |M - M^T| = {asymmetry:.3e} "
                                 f"(relative {asymmetry / scale:.3e} > 1e-8)")
        matrix.eliminate_zeros()
        return matrix

    def check_definiteness(self, matrix, what, eigenvalues=True, allow_indefinite=False) -> None:
        """Refuse a matrix that is not positive semidefinite beyond round-off; warn instead with
        ``allow_indefinite``.

        Round-off is 1e-8 max |K_ii|. A negative diagonal entry is found directly. With ``eigenvalues``
        the inertia of K + s I, s = 1e-8 max |K_ii|, is read from the pivots of one sparse symmetric
        factorization (Sylvester's law of inertia): each negative pivot is an eigenvalue of K below -s.
        That costs one factorization of the flexible block, once, when the body is made (see
        :func:`definiteness_fault`; for the mass and the stiffness matrix).
        """
        fault = definiteness_fault(matrix, what, eigenvalues)
        if fault is None:
            return
        if not allow_indefinite:
            remedy = ("; if it is intended (geometric stiffness of a compressed or prestressed structure), pass "
                      "allow_indefinite_stiffness=True" if what == "stiffness_matrix_ff" else "")
            raise self.error(f"{fault}; an FE {what.split('_')[0]} matrix is positive semidefinite{remedy}")
        warnings.warn(f"{self.label}: {fault}; accepted (allow_indefinite_stiffness=True)", stacklevel=3)

    def _compute_physics(self):
        """Constant invariants of the mass matrix: Phi_t^T M, M_tt, mass, inertia, COM."""
        n_nodes = self.mass_matrix_ff.shape[0] // 3
        phi_t = sp.kron(np.ones((n_nodes, 1)), sp.identity(3), format="csr")  # Phi_t, (n_f, 3)
        self.mass_phi_t = np.asarray((self.mass_matrix_ff @ phi_t).todense())  # M Phi_t, (n_f, 3)
        self.phi_t_mass = np.asarray((phi_t.T @ self.mass_matrix_ff).todense())  # Phi_t^T M, (3, n_f)
        self.mass_tt = phi_t.T @ self.mass_phi_t  # M_tt = Phi_t^T M Phi_t
        self.mass = float(np.trace(self.mass_tt) / 3.0)
        self.n_mesh_nodes = n_nodes

    def _nodes_before_connect(self):
        if self.owner is None:
            raise self.error("must be added to a system first")
        return [resolve(self.owner, "node", ref, self, f"node_numbers[{i}]") for i, ref in enumerate(self.node_numbers)]

    def object_reference_coordinates(self) -> np.ndarray:
        """Reference values of the object's coordinates (frame node, then mesh nodes), (n_c,), usable
        before assembly."""
        return np.concatenate([node.reference_coordinates for node in self._nodes_before_connect()])

    def connect(self, system):
        nodes = [resolve(system, "node", ref, self, f"node_numbers[{i}]") for i, ref in enumerate(self.node_numbers)]
        if not isinstance(nodes[0], NodeRigidBodyEP):
            raise self.error(f"node_numbers[0] must be a NodeRigidBodyEP (the reference frame), got {nodes[0].label}")
        first = {}
        for i, node in enumerate(nodes[1:], start=1):
            if not isinstance(node, NodePoint):
                raise self.error(f"node_numbers[{i}] must be a NodePoint (mesh node), got {node.label}")
            if id(node) in first:
                j = first[id(node)]
                raise self.error(f"node_numbers[{j}] and node_numbers[{i}] are the same {node.label} (mesh nodes "
                                 f"{j - 1} and {i - 1}): a mesh node listed twice has two rows in the FE matrices")
            first[id(node)] = i
        self.connect_frame(system, nodes)
        self.mesh_nodes = nodes[1:]
        self.reference_positions = np.concatenate([n.reference_coordinates for n in self.mesh_nodes])  # x_ref
        self.coordinate_index_per_node = np.cumsum([0, 7] + [3] * len(self.mesh_nodes))[:-1]
        x_ref = self.reference_positions
        self.center_of_mass = (self.mass_phi_t.T @ x_ref) / self.mass if self.mass else np.zeros(3)
        x_tilde = stacked_skew(x_ref)
        self.inertia = np.asarray((x_tilde.T @ self.mass_matrix_ff @ x_tilde).todense())  # x~^T M x~
        self._mass = to_casadi(self.mass_matrix_ff)

    # --- kinematics -------------------------------------------------------------------------
    def flexible(self, ctx, which: str):
        """Flexible coordinates (q, v or a) of all mesh nodes, stacked (n_f,)."""
        return self.object_vector(ctx, which)[7:]

    def add_mass_proportional_load(self, ctx, acceleration):
        """Generalized force of the body force rho g of every mass element, g [m/s^2] global (gravity).

        The nodal forces are f = M Phi_t A^T g (body-fixed, consistent with the mass matrix); by virtual
        work they give m g on the frame position, G_local^T sum_i p_i x f_i on the Euler parameters and
        f on the flexible coordinates (p_i the deformed body-fixed nodal positions)."""
        frame = self.frame(ctx)
        local = frame["rotation"].T @ acceleration                                  # A^T g
        forces = ca.DM(self.mass_phi_t) @ local                                     # f = M Phi_t A^T g
        moment = ca.sum2(cross_columns(self.local_positions(ctx), ca.reshape(forces, 3, self.n_mesh_nodes)))
        ctx.add_force(self.coordinate_indices, ca.vertcat(self.mass * acceleration, frame["g_local"].T @ moment,
                                                          forces))

    def mesh_node_local(self, ctx, mesh_node: int, which: str):
        """u_f, its velocity or acceleration of one mesh node: the coordinates of its NodePoint."""
        getter = {"q": ctx.coordinates, "v": ctx.velocities, "a": ctx.accelerations}[which]
        return getter(self.mesh_nodes[mesh_node])

    def local_displacements(self, ctx, which: str = "q"):
        """u_f (or its rates) of all mesh nodes as a 3 x n_mesh_nodes matrix."""
        return ca.reshape(self.flexible(ctx, which), 3, self.n_mesh_nodes)

    def local_positions(self, ctx):
        """p = x_ref + q_f as a 3 x n_nf matrix (one column per mesh node)."""
        return ca.reshape(self.reference_positions + self.flexible(ctx, "q"), 3, self.n_mesh_nodes)

    # --- equations --------------------------------------------------------------------------
    def add_terms(self, ctx):
        flexible = self.coordinate_indices[7:]
        ctx.add_lhs(self.coordinate_indices, self.generalized_terms(ctx, self.accelerations(ctx), linear=False,
                                                                    matrix=self.matrix_form))
        if self.elastic_forces == "accurate":                                                 # K q_f
            ctx.add_lhs(flexible, ctx.external(self.elastic_force_function(), [self.flexible(ctx, "q")]))
        else:
            ctx.add_linear(flexible, flexible, self.stiffness_matrix_ff, "q")
        if self.damping_matrix_ff is not None:
            ctx.add_linear(flexible, flexible, self.damping_matrix_ff, "v")                    # D v_f
        if self.compute_ffrf_terms:
            ctx.add_linear(flexible, flexible, self.mass_matrix_ff, "a")                       # M a_f
        if self.geometric_stiffness is not None:                                               # sum_k f_k K_G,k q_f
            from floatframe.components.geometric_stiffening import stiffening_terms

            ctx.add_lhs(flexible, stiffening_terms(self, ctx, self.geometric_stiffness,
                                                   self.geometric_stiffness_matrices, self.flexible(ctx, "q")))

    def elastic_force_function(self):
        """q_f -> K q_f summed accurately (an AccurateProductFunction with the Jacobian K), made once."""
        if self._elastic_force_function is None:
            self._elastic_force_function = AccurateProductFunction(f"{self.type_name}{self.index}_elastic_forces",
                                                                   self.stiffness_matrix_ff)
        return self._elastic_force_function

    def generalized_terms(self, ctx, acceleration, linear=True, matrix=False):
        """Left-hand side of the object's equations for the given accelerations (n_c,).

        With ``linear=False`` the constant-matrix terms K q_f, D v_f and M a_f of the flexible rows are
        left out (``add_terms`` declares them separately as linear terms). ``matrix=True`` takes the
        terms with the mass matrix from :meth:`frame_terms`, an external of ``ctx``, instead of writing
        them into the SX graph.
        """
        frame = self.frame(ctx)
        rotation, g_local = frame["rotation"], frame["g_local"]
        q_f, v_f = self.flexible(ctx, "q"), self.flexible(ctx, "v")
        a_t, theta_tt, a_f = acceleration[:3], acceleration[3:7], acceleration[7:]
        terms = ca.SX.zeros(self.n_coordinates)
        if self.compute_ffrf_terms and matrix:
            alpha = g_local @ theta_tt + rotations.g_local(frame["theta_t"]) @ frame["theta_t"]
            e = ctx.external(self.frame_terms(), [frame["omega"], alpha, rotation.T @ a_t, q_f, v_f, a_f])
            terms[:3] += ca.DM(self.mass_tt) @ a_t + rotation @ e[:3]           # M_tt a_t + A Phi_t^T u
            terms[3:7] += -g_local.T @ e[3:6]                                   # -G^T p~^T (u + M Phi_t A^T a_t)
            terms[7:] += e[6:] + (self._mass @ a_f if linear else 0)           # M (r - a_f) + M Phi_t A^T a_t
        elif self.compute_ffrf_terms:
            n = self.n_mesh_nodes
            p = self.local_positions(ctx)
            omega = frame["omega"]
            alpha = g_local @ theta_tt + rotations.g_local(frame["theta_t"]) @ frame["theta_t"]
            v_matrix = ca.reshape(v_f, 3, n)
            omega_x_p = cross_columns(omega, p)
            r_rest = cross_columns(alpha, p) + cross_columns(omega, omega_x_p) + 2 * cross_columns(omega, v_matrix)
            u_rest = self._mass @ ca.vec(r_rest)                         # M (r - a_f)
            u_acceleration = self._mass @ a_f                            # M a_f
            frame_term = ca.DM(self.mass_phi_t) @ (rotation.T @ a_t)     # M Phi_t A^T a_t
            u = u_rest + u_acceleration                                  # u = M r
            sum_u = ca.sum2(ca.reshape(u, 3, n))                         # Phi_t^T u
            moment = ca.sum2(cross_columns(ca.reshape(u + frame_term, 3, n), p))  # p~^T (u + M Phi_t A^T a_t)
            terms[:3] += ca.DM(self.mass_tt) @ a_t + rotation @ sum_u
            terms[3:7] += -g_local.T @ moment
            terms[7:] += u_rest + frame_term + (u_acceleration if linear else 0)
        if linear:
            terms[7:] += to_casadi(self.stiffness_matrix_ff) @ q_f         # K q_f
            if self.damping_matrix_ff is not None:
                terms[7:] += to_casadi(self.damping_matrix_ff) @ v_f       # D v_f
        if self.force_vector is not None:
            forces = self.force_vector
            local_flexible = rotation.T @ ca.DM(forces[7:].reshape(-1, 3).T)  # A_bd^T f_f
            terms -= ca.vertcat(ca.DM(forces[:7]), ca.vec(local_flexible))
        terms += self._user_terms(ctx, acceleration)
        return terms

    def frame_terms(self) -> ExactFunction:
        """The terms with the mass matrix as one Function of sparse matrix products, with its exact Jacobian.

        (omega, alpha, a_l = A^T a_t, q_f, v_f, a_f) -> [e_t (3); e_r (3); e_f (n_f)], the brackets of the
        module docstring's rows (row t = M_tt a_t + A e_t, row r = -G^T e_r, row f = e_f + M a_f):

            r_rest = alpha x p_i + omega x (omega x p_i) + 2 omega x v_f,i     (3 x n, a column per node)
            u = M (r_rest + a_f),  g = M Phi_t a_l,  W = u + g (3 x n)
            e_t = Phi_t^T u,   e_r = sum_i W_i x p_i,   e_f = M r_rest + g

        Every product with M is one MX node, so the graph does not grow with the mesh. The Jacobian, with
        P~ = [e_k x p_i]_k (n_f, 3) the stacked -p~ (d r_rest / d alpha = P~, and sum_i p_i x w_i = -P~^T w),
        S_q = alpha~ + omega~ omega~ = d r_rest,i / d p_i, S_v = 2 omega~ = d r_rest,i / d v_i and
        I (x) S the block-diagonal matrix of n copies of S (one MX node: vec(S) repeated, cast to its pattern):

            d e_f / d (q_f, v_f, a_f) = M (I (x) S_q),  M (I (x) S_v),  0     (sparse, the pattern of M in blocks)
            d e_t / d (q_f, v_f, a_f) = Phi_t^T M (I (x) S_q),  Phi_t^T M (I (x) S_v),  Phi_t^T M
            d e_r / d (q_f, v_f, a_f) = W~ - P~^T M (I (x) S_q),  -P~^T M (I (x) S_v),  -P~^T M   (W~ = [W_i~]_i)
            d / d (omega, alpha, a_l) of e_f, e_t, e_r: M X, Phi_t^T M X, -P~^T M X with X the matching
                d (r_rest + Phi_t a_l) / d (omega, alpha, a_l), (n_f, 3) each; column k of d r_rest / d omega
                is e_k x (omega x p_i) + omega x (e_k x p_i) + 2 e_k x v_f,i

        Evaluating the Jacobian costs O(nnz(M)).
        """
        if self._frame_terms is not None:
            return self._frame_terms
        n, n_f = self.n_mesh_nodes, 3 * self.n_mesh_nodes
        omega, alpha, a_local = (ca.MX.sym(name, 3) for name in ("omega", "alpha", "a_local"))
        q_f, v_f, a_f = (ca.MX.sym(name, n_f) for name in ("q_f", "v_f", "a_f"))
        mass, mass_phi_t, phi_t_mass = self._mass, ca.DM(self.mass_phi_t), ca.DM(self.phi_t_mass)
        eye = ca.DM.eye(3)
        p = ca.reshape(ca.DM(self.reference_positions) + q_f, 3, n)
        v = ca.reshape(v_f, 3, n)
        omega_x_p = cross_columns(omega, p)
        r_rest = ca.vec(cross_columns(alpha, p) + cross_columns(omega, omega_x_p) + 2 * cross_columns(omega, v))
        u_rest, frame_term = mass @ r_rest, mass_phi_t @ a_local
        u = u_rest + mass @ a_f
        w = ca.reshape(u + frame_term, 3, n)
        e_t = ca.sum2(ca.reshape(u, 3, n))
        e_r = ca.sum2(cross_columns(w, p))
        e_f = u_rest + frame_term

        p_cross = ca.horzcat(*[ca.vec(cross_columns(eye[:, k], p)) for k in range(3)])       # P~ (n_f, 3)
        p_cross_mass = (mass.T @ p_cross).T                                                   # P~^T M (3, n_f)
        r_by_omega = ca.horzcat(*[ca.vec(cross_columns(eye[:, k], omega_x_p) + cross_columns(omega, cross_columns(
            eye[:, k], p)) + 2 * cross_columns(eye[:, k], v)) for k in range(3)])             # d r_rest / d omega
        w_tilde = ca.reshape(ca.vertcat(*[cross_columns(w, eye[:, k]) for k in range(3)]), 3, n_f)  # [W_i~]_i
        s_q = rotations.skew(alpha) + rotations.skew(omega) @ rotations.skew(omega)
        s_v = 2 * rotations.skew(omega)
        pattern = block_diagonal_pattern(n)

        def times_blocks(s):          # M (I (x) S): one sparse product
            return mass @ ca.sparsity_cast(ca.repmat(ca.vec(s), n, 1), pattern)

        def rows_times_blocks(rows, s):  # B (I (x) S) for B (3, n_f)
            return rows @ ca.sparsity_cast(ca.repmat(ca.vec(s), n, 1), pattern)

        def frame_columns(x):         # d (e_t, e_r, e_f) for d (r_rest + Phi_t a_l) = x (n_f, 3)
            mass_x = mass @ x
            return ca.vertcat(phi_t_mass @ x, -p_cross.T @ mass_x, mass_x)

        d_omega = frame_columns(r_by_omega)
        d_alpha = frame_columns(p_cross)
        d_a_local = ca.vertcat(ca.DM(3, 3), -p_cross.T @ mass_phi_t, mass_phi_t)
        d_q_f = ca.vertcat(rows_times_blocks(phi_t_mass, s_q), w_tilde - rows_times_blocks(p_cross_mass, s_q),
                           times_blocks(s_q))
        d_v_f = ca.vertcat(rows_times_blocks(phi_t_mass, s_v), -rows_times_blocks(p_cross_mass, s_v),
                           times_blocks(s_v))
        d_a_f = ca.vertcat(phi_t_mass, -p_cross_mass, ca.DM(n_f, n_f))
        self._frame_terms = ExactFunction(f"{self.type_name}{self.index}_frame_terms",
                                          [omega, alpha, a_local, q_f, v_f, a_f], ca.vertcat(e_t, e_r, e_f),
                                          [d_omega, d_alpha, d_a_local, d_q_f, d_v_f, d_a_f])
        return self._frame_terms

    def check(self, assembled):
        """At the initial state: call each user function once (a wrong shape or a failure is reported
        now), and refuse the body if nothing fixes its mesh relative to its frame."""
        self.check_user_functions()
        self.check_reference_conditions(assembled)
        self.find_held_mesh_coordinates(assembled)

    def find_held_mesh_coordinates(self, assembled):
        """Keep ``held_mesh_coordinates``: the mesh coordinates (indices into q_f) that constraints of ``assembled``
        hold on their own at the initial state (``geometric_stiffening.held_mesh_coordinates``), for the body's
        lowest elastic frequency (spin-rate warning); a change forgets the frequency computed before."""
        from floatframe.components.geometric_stiffening import held_mesh_coordinates

        held = held_mesh_coordinates(self, assembled.initial_matrices()[1])
        previous = getattr(self, "held_mesh_coordinates", None)
        if held is None or previous is None or not np.array_equal(held, previous):
            self._lowest_elastic_frequency = None
        self.held_mesh_coordinates = held

    def check_reference_conditions(self, assembled):
        """Refuse the body if nothing fixes its mesh relative to its frame at the initial state. Where the
        mass matrix depends on a Parameter without value, the check waits until all parameters are set
        (``AssembledSystem.set_parameter``)."""
        free = self.free_frame_motions(assembled)
        if free is None:
            assembled.defer_check(self.check_reference_conditions)
        elif free:
            raise self.error(
                f"has no reference conditions for {', '.join(free)} (body axes): the frame moving one way and "
                f"the mesh the other leaves every material point in place, so the mass matrix is singular along "
                f"these motions and no constraint removes them. Add the Tisserand frame with "
                f"add_tisserand_frame(system, body) (floatframe.components.reference_conditions), or constrain "
                f"mesh-node coordinates that fix them (e.g. CoordinateConstraint on MarkerNodeCoordinate of mesh "
                f"nodes)")

    # --- reference conditions -----------------------------------------------------------------
    def frame_mesh_motions(self, q) -> np.ndarray:
        """The 6 rigid-body motions of the mesh relative to the frame, each paired with the opposite motion
        of the frame, at the system state ``q``; columns (n_c, 6) on the object's coordinates.

        Translation along the body axis e: frame position + A e, every mesh node - e. Rotation about e:
        theta + G_local^+ e (so that omega_b = e and theta . d theta = 0), every mesh node
        - e x (x_ref + q_f). To first order every material point r + A (x_ref + q_f) stays in place, so
        each column is a null vector of the body's mass matrix (tested).
        """
        theta = self.rigid_node.reference_coordinates[3:] + q[self.rigid_node.coordinate_indices[3:]]
        rotation, g_local = rotations.rotation_matrix(theta), rotations.g_local(theta)
        positions = (self.reference_positions + q[self.coordinate_indices[7:]]).reshape(-1, 3)
        motions = np.zeros((self.n_coordinates, 6))
        for k, axis in enumerate(np.eye(3)):
            motions[:3, k] = rotation @ axis
            motions[7:, k] = -np.tile(axis, self.n_mesh_nodes)
            motions[3:7, 3 + k] = np.linalg.lstsq(g_local, axis, rcond=None)[0]
            motions[7:, 3 + k] = -np.cross(axis, positions).reshape(-1)
        return motions

    def free_frame_motions(self, assembled) -> list[str] | None:
        """The motions of :meth:`frame_mesh_motions` that stay free at the initial state, named.

        Free: in the null space of the mass matrix (another item, e.g. a rigid body with mass on the frame
        node, can make M regular along them) and not removed by the constraint Jacobian (rank of C_q Z).
        Relative tolerances: 1e-9 of |M| |z| for M z = 0, 1e-8 for C_q z = 0 with unit rows of C_q.
        Returns e.g. ["translation along x", "rotation about z"], [] if the mesh is fixed, or None if M or
        C_q depend on a parameter without value.
        """
        mass, jacobian = assembled.initial_matrices()
        motions = np.zeros((assembled.n_coordinates, 6))   # on the system's coordinates
        motions[self.coordinate_indices] = self.frame_mesh_motions(assembled.q_initial)
        motions /= np.linalg.norm(motions, axis=0)
        scale = np.linalg.norm(abs(mass) @ abs(motions), axis=0)
        inertia = (mass @ motions) / np.where(scale > 0, scale, 1.0)
        if not np.all(np.isfinite(inertia)):
            return None
        massless = null_space(inertia, 1e-9)
        if massless.shape[1] == 0:
            return []
        row_norms = np.sqrt(np.asarray(jacobian.multiply(jacobian).sum(axis=1)).reshape(-1))
        reaction = ((jacobian @ motions) / np.where(row_norms > 0, row_norms, 1.0)[:, None]) @ massless
        if not np.all(np.isfinite(reaction)):
            return None
        free = massless @ null_space(reaction, 1e-8)
        weights = np.linalg.norm(free, axis=1)  # 1: that motion itself is free; 0: it is fixed
        names = [name for name, weight in zip(FRAME_MESH_MOTIONS, weights) if weight > 1 - 1e-6]
        if free.shape[1] > len(names):
            mixed = [name for name, weight in zip(FRAME_MESH_MOTIONS, weights) if 1e-6 < weight <= 1 - 1e-6]
            count = free.shape[1] - len(names)
            names.append(f"{count} combination{'s' if count > 1 else ''} of {', '.join(mixed)}")
        return names


@checked_keywords(forwards_to=ObjectFFRF)
def add_ffrf_body(system, node_positions, mass_matrix, stiffness_matrix, damping_matrix=None,
                  position=(0.0, 0.0, 0.0), euler_parameters=(1.0, 0.0, 0.0, 0.0), velocity=(0.0, 0.0, 0.0),
                  angular_velocity=(0.0, 0.0, 0.0), name="", **options):
    """Add a rigid reference node, one NodePoint per mesh node and the ObjectFFRF; returns the body.

    ``node_positions`` (N, 3) body-fixed reference positions [m]; ``position`` [m] and
    ``euler_parameters`` the frame's reference pose, a unit quaternion with the scalar part first
    (theta0, theta1, theta2, theta3), so (1, 0, 0, 0) is no rotation; ``velocity`` and
    ``angular_velocity`` (global, [m/s], [rad/s]) are the initial motion of the frame; mesh nodes start
    undeformed at rest relative to it. ``options`` go to :class:`ObjectFFRF` (e.g.
    ``allow_indefinite_stiffness``). The body still needs reference conditions, e.g.
    :func:`add_tisserand_frame`.
    """
    from floatframe import rotations
    from floatframe.components.nodes import NodePoint, NodeRigidBodyEP

    theta = np.asarray(euler_parameters, dtype=float)
    theta_t = rotations.euler_parameters_t(angular_velocity, theta)
    rigid = NodeRigidBodyEP(np.concatenate([position, theta]), initial_velocities=np.concatenate([velocity, theta_t]),
                            name=f"{name} frame" if name else "")
    nodes = [system.add(rigid)] + [system.add(NodePoint(p)) for p in np.asarray(node_positions, dtype=float)]
    body = ObjectFFRF(nodes, mass_matrix, stiffness_matrix, damping_matrix, name=name, **options)
    system.add(body)
    return body


def block_diagonal_pattern(n: int) -> ca.Sparsity:
    """The pattern of I_n (x) S for a dense 3 x 3 S, (3 n, 3 n): its nonzeros, column by column, are vec(S) n times."""
    blocks = sp.csc_matrix(sp.kron(sp.identity(n), np.ones((3, 3))))
    return ca.Sparsity(3 * n, 3 * n, blocks.indptr.tolist(), blocks.indices.tolist())


def stacked_skew(x_ref) -> sp.csr_matrix:
    """x~: the skew matrices of the nodal 3-vectors in x (n_f,) stacked into an (n_f, 3) sparse matrix."""
    x = np.asarray(x_ref, dtype=float).reshape(-1, 3)
    zero = np.zeros(len(x))
    skews = np.stack([np.stack([zero, -x[:, 2], x[:, 1]], axis=1),      # rows of x_i~, (n, 3, 3)
                      np.stack([x[:, 2], zero, -x[:, 0]], axis=1),
                      np.stack([-x[:, 1], x[:, 0], zero], axis=1)], axis=1)
    return sp.csr_matrix(skews.reshape(-1, 3))


def tisserand_rows(mass_matrix, x_ref) -> np.ndarray:
    """(6, n_f) rows Phi_t^T M and x_ref~^T M of the Tisserand-frame conditions (flexible part only)."""
    mass = sp.csr_matrix(mass_matrix)
    n = mass.shape[0] // 3
    phi_t = sp.kron(np.ones((n, 1)), sp.identity(3), format="csr")
    return np.vstack([(mass @ phi_t).T.toarray(), (mass.T @ stacked_skew(x_ref)).T.toarray()])
