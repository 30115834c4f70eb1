"""Explicit Runge-Kutta schemes and velocity Verlet for models without constraints (Exudyn's explicit solvers).

The equations of motion R(t, q, v, a, 0) = 0 are linear in a with dR/da = M, so the accelerations of a state are

    M(q) a = -R(t, q, v, 0, 0),

and the first-order system (q, v)' = (v, a(t, q, v)) takes an explicit Runge-Kutta method of Butcher tableau
(c, A, b): stage i is at t + c_i h with

    Q_i = q + h sum_j a_ij V_j,    V_i = v + h sum_j a_ij A_j,    A_i = a(t + c_i h, Q_i, V_i),

and the step is q + h sum_i b_i V_i, v + h sum_i b_i A_i (Exudyn's explicit solvers take the same stages).
The tableaux (``TABLEAUX``): explicit Euler (1 stage, order 1), the explicit midpoint rule (2, order 2), Heun's
third-order method (3, order 3), the classical Runge-Kutta method (4, order 4), Butcher's seven-stage method of
order 6 (1964), and the embedded pairs of Bogacki and Shampine (3(2), MATLAB's ode23), Dormand and Prince (5(4))
and Verner's 6(5) pair of Hull, Enright and Jackson's DVERK with step-size control (``explicit_adaptive``:
:class:`ODE23`, :class:`DOPRI5`, :class:`DVERK6`; Exudyn 1.13.6 lists DVERK6 but refuses it as not
implemented).

Constraints. An explicit scheme has no multipliers to solve for. Constraint rows that fix one coordinate (C_q has
one nonzero in the row and C does not depend on time: a CoordinateConstraint of a node coordinate to the ground)
are eliminated: that coordinate is held where its row is zero, with v = a = 0, the other accelerations solve
M_ff a_f = -R_f(t, q, v, 0, 0), and each multiplier follows from its coordinate's row of R. Every other
constraint row (joints, the Euler-parameter norm of a NodeRigidBodyEP) is refused with an error naming its
owners (``constraints="ignore"`` integrates as if they were absent, lambda = 0, as Exudyn's
eliminateConstraints = False). Exudyn 1.13.6 does the same in kind: it refuses nodes with algebraic variables
(Euler parameters) and any constraint other than a CoordinateConstraint to the ground, which it eliminates by
setting the coordinate and its velocity to zero after each step (its stages let the coordinate move within the
step; here it does not move at all, so results on such models agree with Exudyn's to the discretisation error,
not to round-off, where a force couples the fixed coordinate to the free ones). An explicit step would also drift
off the unit norm of Euler parameters, with nothing to bring it back: free rotations take nodes without
constraints (NodeRigidBody2D, NodeRigidBodyRxyz).

On small models without Input signals or user functions the fixed-step schemes take their steps in batches of
one CasADi call (``floatframe.solvers.explicit_batch``, the same numbers); the Python steps here otherwise. These
evaluate R(t, q, v, 0, 0) and M of a model of up to ``DENSE_LIMIT`` coordinates without Python user functions from
one buffered SX Function into a dense M (``DenseTerms``: the same values as the sparse evaluations) and solve by
LAPACK's LU (``LapackLU``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import casadi as ca
import numpy as np
import scipy.sparse as sp

from floatframe.buffers import BufferedFunction
from floatframe.errors import UserFunctionError
from floatframe.solvers.explicit_batch import BatchedLoop, batchable
from floatframe.solvers.linear import LapackLU, factorize
from floatframe.solvers.loop import Scheme, State
from floatframe.solvers.result import SolverError
from floatframe.solvers.safeguards import user_function_failure

DENSE_LIMIT = 200     # free coordinates up to which M_ff is sliced and factorized dense
SQRT5 = math.sqrt(5.0)


@dataclass(frozen=True)
class ButcherTableau:
    """An explicit Runge-Kutta method: nodes c (s,), strictly lower-triangular A (s, s), weights b (s,), its
    order; an embedded pair also has the weights ``embedded`` (s,) of a solution of ``embedded_order``."""

    name: str
    nodes: tuple
    matrix: tuple
    weights: tuple
    order: int
    embedded: tuple | None = None
    embedded_order: int | None = None

    @property
    def stages(self) -> int:
        return len(self.nodes)

    def arrays(self):
        """(c, A, b, b_embedded or None) as NumPy arrays."""
        return (np.array(self.nodes, dtype=float), np.array(self.matrix, dtype=float),
                np.array(self.weights, dtype=float),
                None if self.embedded is None else np.array(self.embedded, dtype=float))


def _lower(rows, size):
    """A strictly lower-triangular (size, size) matrix from its rows below the diagonal."""
    matrix = [[0.0] * size for _ in range(size)]
    for i, row in enumerate(rows, start=1):
        matrix[i][:len(row)] = [float(x) for x in row]
    return tuple(tuple(row) for row in matrix)


_C1, _C2 = 0.5 - SQRT5 / 10.0, 0.5 + SQRT5 / 10.0        # Butcher's order-6 nodes (Gauss-Lobatto points)

TABLEAUX = {
    "ExplicitEuler": ButcherTableau("explicit-euler", (0.0,), ((0.0,),), (1.0,), 1),
    "ExplicitMidpoint": ButcherTableau("explicit-midpoint", (0.0, 0.5), _lower([[0.5]], 2), (0.0, 1.0), 2),
    "RK33": ButcherTableau("rk33", (0.0, 1.0 / 3.0, 2.0 / 3.0), _lower([[1.0 / 3.0], [0.0, 2.0 / 3.0]], 3),
                           (0.25, 0.0, 0.75), 3),
    "RK44": ButcherTableau("rk44", (0.0, 0.5, 0.5, 1.0), _lower([[0.5], [0.0, 0.5], [0.0, 0.0, 1.0]], 4),
                           (1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0), 4),
    "RK67": ButcherTableau(
        "rk67", (0.0, _C1, _C2, _C1, _C2, _C1, 1.0),
        _lower([[_C1],
                [-SQRT5 / 10.0, 0.5 + SQRT5 / 5.0],
                [7.0 * SQRT5 / 20.0 - 0.75, SQRT5 / 4.0 - 0.25, 1.5 - 7.0 * SQRT5 / 10.0],
                [1.0 / 12.0 - SQRT5 / 60.0, 0.0, 1.0 / 6.0, 7.0 * SQRT5 / 60.0 + 0.25],
                [SQRT5 / 60.0 + 1.0 / 12.0, 0.0, 0.75 - 5.0 * SQRT5 / 12.0, 1.0 / 6.0, 3.0 * SQRT5 / 10.0 - 0.5],
                [1.0 / 6.0, 0.0, 25.0 * SQRT5 / 12.0 - 55.0 / 12.0, -7.0 * SQRT5 / 12.0 - 25.0 / 12.0,
                 5.0 - 2.0 * SQRT5, 2.5 + SQRT5 / 2.0]], 7),
        (1.0 / 12.0, 0.0, 0.0, 0.0, 5.0 / 12.0, 5.0 / 12.0, 1.0 / 12.0), 6),
    "ODE23": ButcherTableau(
        "ode23", (0.0, 0.5, 0.75, 1.0), _lower([[0.5], [0.0, 0.75], [2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0]], 4),
        (2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0, 0.0), 3, (7.0 / 24.0, 0.25, 1.0 / 3.0, 0.125), 2),
    "DOPRI5": ButcherTableau(
        "dopri5", (0.0, 0.2, 0.3, 0.8, 8.0 / 9.0, 1.0, 1.0),
        _lower([[0.2], [3.0 / 40.0, 9.0 / 40.0], [44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0],
                [19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0],
                [9017.0 / 3168.0, -355.0 / 33.0, 46732.0 / 5247.0, 49.0 / 176.0, -5103.0 / 18656.0],
                [35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0]], 7),
        (35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0, 0.0), 5,
        (5179.0 / 57600.0, 0.0, 7571.0 / 16695.0, 393.0 / 640.0, -92097.0 / 339200.0, 187.0 / 2100.0, 1.0 / 40.0),
        4),
    "DVERK6": ButcherTableau(
        "dverk6", (0.0, 1.0 / 6.0, 4.0 / 15.0, 2.0 / 3.0, 5.0 / 6.0, 1.0, 1.0 / 15.0, 1.0),
        _lower([[1.0 / 6.0], [4.0 / 75.0, 16.0 / 75.0], [5.0 / 6.0, -8.0 / 3.0, 2.5],
                [-165.0 / 64.0, 55.0 / 6.0, -425.0 / 64.0, 85.0 / 96.0],
                [2.4, -8.0, 4015.0 / 612.0, -11.0 / 36.0, 88.0 / 255.0],
                [-8263.0 / 15000.0, 124.0 / 75.0, -643.0 / 680.0, -81.0 / 250.0, 2484.0 / 10625.0, 0.0],
                [3501.0 / 1720.0, -300.0 / 43.0, 297275.0 / 52632.0, -319.0 / 2322.0, 24068.0 / 84065.0, 0.0,
                 3850.0 / 26703.0]], 8),
        (3.0 / 40.0, 0.0, 875.0 / 2244.0, 23.0 / 72.0, 264.0 / 1955.0, 0.0, 125.0 / 11592.0, 43.0 / 616.0), 6,
        (13.0 / 160.0, 0.0, 2375.0 / 5984.0, 5.0 / 16.0, 12.0 / 85.0, 3.0 / 44.0, 0.0, 0.0), 5),
}

CONSTRAINT_MODES = ("eliminate", "ignore")


class Accelerations:
    """a(t, q, v) of the explicit schemes: M_ff a_f = -R_f(t, q, v, 0, 0) with the fixed coordinates' a = 0
    (see the module docstring); the mass matrix's LU is kept while M does not change.

    Attributes
    ----------
    fixed : coordinate indices held at their initial values; rows : the constraint row fixing each;
    free : the other coordinates; evaluations, factorizations : counts.
    """

    def __init__(self, system, t0, q0, solver: str, constraints: str = "eliminate"):
        self.system, self.solver = system, solver
        n, m = system.n_coordinates, system.n_multipliers
        self.fixed = np.zeros(0, dtype=int)
        self.rows = np.zeros(0, dtype=int)
        self.pivots = np.zeros(0)
        if m and constraints == "eliminate":
            self.rows, self.fixed, self.pivots = fixed_coordinates(system, t0, q0, solver)
        self.free = np.setdiff1d(np.arange(n), self.fixed)
        self.lam_zero = np.zeros(m)
        self.acceleration_zero = np.zeros(n)
        # R and M dense from one buffered Function from the second evaluation on (a batched solve evaluates here
        # once: it need not form the system's complete Functions)
        self._dense = None
        self._dense_wanted = n <= DENSE_LIMIT and not system.has_user_functions
        self._sparse_mass = None   # (data, indices, indptr) of the factorized M (sparse path)
        self._factorized_bits = None    # the bytes of the factorized M_ff (dense path)
        self._lu = None
        self.evaluations = self.factorizations = 0

    def __call__(self, t, q, v) -> np.ndarray:
        """The accelerations a (n,) at (t, q, v); SolverError where M_ff is singular or a is not finite."""
        system = self.system
        system.current_state = (t, q, v, self.acceleration_zero, self.lam_zero)
        if self._dense is None and self._dense_wanted and self.evaluations:
            self._dense = DenseTerms.of(system)
            self._dense_wanted = self._dense is not None
        if self._dense is not None:
            residual, mass = self._dense(t, q, v)
            right = -residual
            lu = self._factorized_dense(mass, t)
        else:
            right = -system.residual(t, q, v, self.acceleration_zero, self.lam_zero)
            lu = self._factorized(system.mass_matrix(t, q, v), t)
        self.evaluations += 1
        if self.fixed.size:
            a = np.zeros(system.n_coordinates)
            a[self.free] = lu.solve(right[self.free])
        else:
            a = lu.solve(right)
        if not np.isfinite(a).all():
            rows = self.free[~np.isfinite(a[self.free])]
            raise SolverError(f"{self.solver}: the accelerations are not finite at t = {t:.6g} "
                              f"({system.describe_coordinates(rows[:6])}): a load, user function or the state "
                              f"gives NaN or inf", t)
        return a

    @property
    def _mass(self):
        """(data, indices, indptr) of the last factorized M (n, n) as CSC, or None before the first (the batched
        loop estimates M_ff's diagonal blocks from it)."""
        if self._dense is None or self._factorized_bits is None:
            return self._sparse_mass
        mass = sp.csc_matrix(self._dense.matrix)
        return mass.data, mass.indices, mass.indptr

    def _factorized_dense(self, mass, t):
        """The LU of M_ff from the dense M (n, n), the last one while M_ff's bits are unchanged."""
        block = mass[np.ix_(self.free, self.free)] if self.fixed.size else mass
        bits = block.tobytes()
        if bits == self._factorized_bits:
            return self._lu
        try:
            self._lu = LapackLU(block, overwrite=False)   # (block may be a view of DenseTerms' buffer)
        except RuntimeError:
            raise SolverError(f"{self.solver}: singular mass matrix at t = {t:.6g}; "
                              f"{self._massless(sp.csc_matrix(block))}", t) from None
        self._factorized_bits = bits
        self.factorizations += 1
        return self._lu

    def _factorized(self, mass, t):
        """The LU of M_ff, the last one while M's entries are unchanged (M constant, or q-independent parts)."""
        if not sp.isspmatrix_csc(mass):
            mass = sp.csc_matrix(mass)
        key = (mass.data, mass.indices, mass.indptr)
        if self._sparse_mass is not None and all(x.shape == y.shape and np.array_equal(x, y)
                                                 for x, y in zip(key, self._sparse_mass)):
            return self._lu
        if self.free.size <= DENSE_LIMIT:       # small: dense slicing and LAPACK (sparse slicing costs more)
            block = mass.toarray()
            if self.fixed.size:
                block = block[np.ix_(self.free, self.free)]
            block = np.asfortranarray(block)
        else:
            block = mass[self.free][:, self.free] if self.fixed.size else mass
        try:
            self._lu = LapackLU(block) if isinstance(block, np.ndarray) else factorize(block)
        except RuntimeError:
            raise SolverError(f"{self.solver}: singular mass matrix at t = {t:.6g}; "
                              f"{self._massless(sp.csc_matrix(block))}", t) from None
        self._sparse_mass = tuple(x.copy() for x in key)
        self.factorizations += 1
        return self._lu

    def _massless(self, mass) -> str:
        empty = self.free[np.flatnonzero(np.abs(mass).sum(axis=1).A1 == 0)]
        if empty.size:
            return f"no mass acts on {self.system.describe_coordinates(empty[:12])}"
        return "the mass matrix has dependent rows (coordinates whose inertia is not independent)"

    def multipliers(self, t, q, v, a) -> np.ndarray:
        """lambda (m,) of the eliminated rows (from their coordinates' rows of R; zero for ignored rows)."""
        lam = np.zeros(self.system.n_multipliers)
        if self.fixed.size:
            residual = self.system.residual(t, q, v, a, lam)
            lam[self.rows] = -residual[self.fixed] / self.pivots
        return lam

    def hold(self, q, v, q_fixed) -> None:
        """Put the fixed coordinates back to their values, at rest (in place)."""
        if self.fixed.size:
            q[self.fixed] = q_fixed
            v[self.fixed] = 0.0


class DenseTerms:
    """R(t, q, v, 0, 0) (n,) and M(t, q, v) (n, n) of a model without Python user functions from one buffered SX
    Function: the system's complete residual and mass-matrix Functions (``functions``, linear terms inside) with
    a = 0, lambda = 0, c_a = 1, c_v = c_q = 0 put in, so that CasADi drops the terms these zeros remove (M of a
    rigid body with a rotation vector: 232 instead of 2,701 instructions; the same values where they are finite).
    """

    def __init__(self, system):
        n = system.n_coordinates
        functions = system.functions
        residual, mass = functions["residual"], functions["mass_matrix"]
        t, q, v = ca.SX.sym("t"), ca.SX.sym("q", n), ca.SX.sym("v", n)
        u, p = ca.SX.sym("u", residual.size1_in(5)), ca.SX.sym("p", residual.size1_in(6))
        zero, no_multipliers = ca.DM.zeros(n), ca.DM.zeros(system.n_multipliers)
        terms = ca.Function("explicit_terms", [t, q, v, u, p],
                            [ca.densify(residual(t, q, v, zero, no_multipliers, u, p)),
                             ca.densify(mass(t, q, v, zero, no_multipliers, 1.0, 0.0, 0.0, zero, u, p))])
        self.system = system
        self.buffered = BufferedFunction(terms)
        self.residual = self.buffered.outputs[0]
        self.matrix = self.buffered.outputs[1].reshape(n, n).T    # (column by column in the buffer: a view)

    @classmethod
    def of(cls, system):
        """The terms of ``system``, or None where its complete residual or mass matrix is not an SX Function (Python
        user functions)."""
        functions = None if system.has_user_functions else system.functions
        if functions is None or not all(name in functions and functions[name].is_a("SXFunction")
                                        for name in ("residual", "mass_matrix")):
            return None
        return cls(system)

    def __call__(self, t, q, v):
        """(R (n,), M (n, n)) at (t, q, v), a = 0 and lambda = 0: views of buffers that the next call overwrites."""
        system, inputs = self.system, self.buffered.inputs
        inputs[0][:] = t
        inputs[1][:] = q
        inputs[2][:] = v
        if inputs[3].size:
            inputs[3][:] = system.input_vector(float(t))
        if inputs[4].size:
            inputs[4][:] = system.parameters_now()
        self.buffered.evaluate()
        return self.residual, self.matrix


def _structure(matrix) -> sp.csr_matrix:
    """The stored entries of a sparse matrix as ones (explicit zeros included)."""
    matrix = sp.csr_matrix(matrix)
    return sp.csr_matrix((np.ones(matrix.nnz), matrix.indices, matrix.indptr), shape=matrix.shape)


def fixed_coordinates(system, t0, q0, solver: str):
    """(rows, coordinates, pivots) of the constraint rows that fix one coordinate each (C_q has one nonzero in the
    row, C does not depend on time); ValueError naming the solver and the owners of any other row."""
    m = system.n_multipliers
    jacobian = sp.csr_matrix(system.constraint_jacobian(t0, q0))
    # the stored entries (the structure) at q0 and at a perturbed state: a row may have one nonzero value only at
    # q0, as the Euler-parameter norm theta^T theta - 1 at theta = [1, 0, 0, 0]
    perturbed = q0 + 1e-3 * (1.0 + np.abs(q0 + system.q_reference)) * np.cos(np.arange(q0.size) + 0.5)
    pattern = _structure(jacobian) + _structure(system.constraint_jacobian(t0, perturbed))
    counts = np.diff(pattern.indptr)
    rate = (np.abs(system.constraint_velocity(t0, q0, np.zeros(system.n_coordinates)))
            + np.abs(system.constraint_input_rate(t0, q0)))
    scale = max(1.0, float(np.abs(q0 + system.q_reference).max(initial=0.0)))
    refused = [r for r in range(m) if counts[r] != 1 or rate[r] > 1e-12 * scale]
    rows = np.array([r for r in range(m) if r not in set(refused)], dtype=int)
    coordinates = np.array([pattern.indices[pattern.indptr[r]] for r in rows], dtype=int)
    values, counts_per_coordinate = np.unique(coordinates, return_counts=True)
    doubled = [int(r) for r, c in zip(rows, coordinates) if counts_per_coordinate[np.searchsorted(values, c)] > 1]
    if refused or doubled:
        named = system.describe_constraints(sorted(set(refused) | set(doubled)))
        raise ValueError(f"{solver}: an explicit scheme integrates M(q) a = f(t, q, v) and solves for no "
                         f"multipliers; it eliminates only constraints that fix one coordinate to a constant (a "
                         f"CoordinateConstraint to the ground), but {len(refused) + len(doubled)} of the model's "
                         f"{m} constraint rows are not of that kind (owners: {named}). Euler-parameter nodes carry a "
                         f"norm constraint and joints couple coordinates: use an implicit scheme (GeneralizedAlpha, "
                         f"RadauIIA, IDAS) for them, or constraints='ignore' to integrate as if they were absent")
    pivots = np.array([jacobian[r, c] for r, c in zip(rows, coordinates)]) if rows.size else np.zeros(0)
    if np.any(pivots == 0.0):
        raise ValueError(f"{solver}: a constraint row that fixes one coordinate has a zero derivative at the "
                         f"initial state (owners: {system.describe_constraints(rows[pivots == 0.0])})")
    return rows, coordinates, pivots


class ExplicitRungeKutta(Scheme):
    """An explicit Runge-Kutta method of a Butcher tableau with fixed steps on the loop's grid.

    Parameters
    ----------
    tableau : ButcherTableau (e.g. ``TABLEAUX["RK44"]``).
    end_accelerations : True: the stored a of a step is a(t_{n+1}, q_{n+1}, v_{n+1}), one more evaluation that
        the next step's first stage reuses (Exudyn's computeEndOfStepAccelerations); False: the last stage's.
    constraints : "eliminate" (fixed coordinates held, every other constraint refused) or "ignore" (all
        constraints left out, lambda = 0; a model with Euler parameters then has a singular mass matrix).
    """

    adaptive = False
    batched = True     # False: always the Python step loop (for comparison)

    def __init__(self, tableau: ButcherTableau, end_accelerations: bool = True, constraints: str = "eliminate"):
        super().__init__()
        owner = type(self).__name__
        if not isinstance(tableau, ButcherTableau):
            raise TypeError(f"{owner}: tableau must be a ButcherTableau, got {type(tableau).__name__}")
        if constraints not in CONSTRAINT_MODES:
            raise ValueError(f"{owner}: constraints must be one of {CONSTRAINT_MODES}, got {constraints!r}")
        self.tableau = tableau
        self.name = tableau.name
        self.order = tableau.order
        self.end_accelerations = bool(end_accelerations)
        self.constraints = constraints
        self.c, self.a, self.b, self.b_embedded = tableau.arrays()
        self._accelerations = None
        self._q_fixed = None
        self._start = None        # (q, v, a) of the last step's end, computed there (reused as the first stage)
        self._n_steps = 0         # the steps of the solve under way

    # --- the loop's hooks ---------------------------------------------------------------------
    def check_options(self, h, a0, lam0, pre_step) -> None:
        if a0 is not None or lam0 is not None:
            raise ValueError(f"{type(self).__name__}: an explicit scheme computes the accelerations (and the "
                             f"multipliers of fixed coordinates) from the state: a0 and lam0 are not options")

    def init(self, system, t0, q, v, accelerations=None, multipliers=None) -> State:
        """The initial state with a = a(t0, q, v) (a0 is not taken: ``check_options``); a fixed coordinate is
        held where its constraint row is zero (one Newton step from q: exact for a CoordinateConstraint), at rest."""
        evaluator = self._accelerations = Accelerations(system, t0, q, self.name, self.constraints)
        self._q_fixed = q[evaluator.fixed].copy()
        if evaluator.fixed.size:
            self._q_fixed -= system.constraints(t0, q)[evaluator.rows] / evaluator.pivots
        q, v = q.copy(), v.copy()
        self._accelerations.hold(q, v, self._q_fixed)
        a = self._accelerations(t0, q, v)
        self._count()
        lam = self._accelerations.multipliers(t0, q, v, a)
        self._start = (q, v, a)
        return State(t0, q, v, a, a, lam)

    def describe(self, h) -> dict:
        return dict(h=h, stages=self.tableau.stages, end_accelerations=self.end_accelerations,
                    constraints=self.constraints)

    def advance(self, system, state: State, t_target: float, h: float, prepared=None) -> State:
        """One step to t_target: an explicit step does not fail by its size, so no halving."""
        try:
            return self.step(system, state, t_target - state.t, prepared)
        except UserFunctionError as error:
            failure = user_function_failure(error, t_target, self.name)
            failure.state = state
            raise failure from error
        except SolverError as failure:
            failure.state = state
            raise

    def finish(self, system, states, info, prepared) -> None:
        info["eliminated_coordinates"] = int(self._accelerations.fixed.size) if self._accelerations else 0

    def native_loop(self, system, prepared):
        """The batched step loop (``floatframe.solvers.explicit_batch``) where it applies (``batched`` True,
        fixed steps, a small model without Input signals or user functions), else None."""
        if self.adaptive or not self.batched or not batchable(self, system):
            return None
        return BatchedLoop(self, system, self._n_steps)

    def start(self, system, state, grid, n_steps):
        self._n_steps = n_steps
        return super().start(system, state, grid, n_steps)

    def evaluations_per_step(self) -> int:
        """Acceleration evaluations a step (with end accelerations the next step's first stage is reused)."""
        return self.tableau.stages

    # --- one step -----------------------------------------------------------------------------
    def _count(self):
        self.statistics.residual_evaluations += 1

    def _first_stage(self, state: State) -> np.ndarray:
        """a at the step's start: the previous step's end accelerations where they were computed there."""
        start = self._start
        if start is not None and start[0] is state.q and start[1] is state.v:
            return start[2]
        self._count()
        return self._accelerations(state.t, state.q, state.v)

    def _stages(self, state: State, h: float):
        """The stage velocities V (s, n) and accelerations A (s, n) of a step of size h."""
        s, n = self.tableau.stages, state.q.size
        velocities, accelerations = np.empty((s, n)), np.empty((s, n))
        evaluate = self._accelerations
        for i in range(s):
            if i == 0:
                q, v = state.q, state.v
                accelerations[0] = self._first_stage(state)
            else:
                weights = self.a[i, :i] * h
                q = state.q + weights @ velocities[:i]
                v = state.v + weights @ accelerations[:i]
                evaluate.hold(q, v, self._q_fixed)
                accelerations[i] = evaluate(state.t + self.c[i] * h, q, v)
                self._count()
            velocities[i] = v
        return velocities, accelerations

    def _combine(self, state, h, weights, velocities, accelerations):
        """(q, v) = start + h sum_i weights_i (V_i, A_i), the fixed coordinates held."""
        q = state.q + (h * weights) @ velocities
        v = state.v + (h * weights) @ accelerations
        self._accelerations.hold(q, v, self._q_fixed)
        return q, v

    def _end_state(self, t, q, v, accelerations) -> State:
        if self.end_accelerations:
            a = self._accelerations(t, q, v)
            self._count()
            self._start = (q, v, a)
        else:
            a = accelerations[-1].copy()
            a[self._accelerations.fixed] = 0.0
            self._start = None
        lam = self._accelerations.multipliers(t, q, v, a)
        self.statistics.steps += 1
        return State(t, q, v, a, a, lam)

    def step(self, system, state: State, h: float, prepared=None) -> State:
        """The state at state.t + h."""
        velocities, accelerations = self._stages(state, h)
        q, v = self._combine(state, h, self.b, velocities, accelerations)
        return self._end_state(state.t + h, q, v, accelerations)


def _fixed_family(key: str, doc: str):
    """A one-line subclass of ExplicitRungeKutta for TABLEAUX[key]."""

    def __init__(self, end_accelerations: bool = True, constraints: str = "eliminate"):
        ExplicitRungeKutta.__init__(self, TABLEAUX[key], end_accelerations, constraints)

    tableau = TABLEAUX[key]
    return type(key, (ExplicitRungeKutta,), dict(
        __init__=__init__, name=tableau.name, order=tableau.order, __module__=__name__,
        __doc__=f"{doc} (``TABLEAUX['{key}']``, order {tableau.order}); parameters as "
                f":class:`ExplicitRungeKutta` without the tableau."))


ExplicitEuler = _fixed_family("ExplicitEuler", "The explicit Euler method")
ExplicitMidpoint = _fixed_family("ExplicitMidpoint", "The explicit midpoint rule")
RK33 = _fixed_family("RK33", "Heun's three-stage method of order 3")
RK44 = _fixed_family("RK44", "The classical four-stage Runge-Kutta method")
RK67 = _fixed_family("RK67", "Butcher's seven-stage method of order 6 (1964)")


class VelocityVerlet(ExplicitRungeKutta):
    """Velocity Verlet as Exudyn 1.13.6 takes it: with a_n the accelerations stored at t_n,

        v_half = v_n + h/2 a_n,   q_{n+1} = q_n + h v_half,   a_{n+1} = a(t_{n+1}, q_{n+1}, v_half),
        v_{n+1} = v_half + h/2 a_{n+1},

    one evaluation a step. Order 2 where the forces do not depend on the velocities; with damping the
    accelerations taken at v_half make it first order (measured in tests/solvers/test_explicit.py).

    Parameters
    ----------
    constraints : as :class:`ExplicitRungeKutta`.
    """

    name = "velocity-verlet"
    order = 2

    def __init__(self, constraints: str = "eliminate"):
        super().__init__(TABLEAUX["ExplicitEuler"], True, constraints)
        self.name, self.order = VelocityVerlet.name, VelocityVerlet.order

    def describe(self, h) -> dict:
        return dict(h=h, constraints=self.constraints)

    def evaluations_per_step(self) -> int:
        return 1

    def _first_stage(self, state: State) -> np.ndarray:
        """The accelerations stored with the state (those of the previous step's end, at its half-step
        velocities)."""
        return state.a

    def step(self, system, state: State, h: float, prepared=None) -> State:
        """The state at state.t + h (the accelerations of the state are those of the previous step's end)."""
        v_half = state.v + 0.5 * h * state.a
        q = state.q + h * v_half
        self._accelerations.hold(q, v_half, self._q_fixed)
        t = state.t + h
        a = self._accelerations(t, q, v_half)
        self._count()
        v = v_half + 0.5 * h * a
        lam = self._accelerations.multipliers(t, q, v, a)
        self.statistics.steps += 1
        return State(t, q, v, a, a, lam)


__all__ = ["ButcherTableau", "TABLEAUX", "ExplicitRungeKutta", "ExplicitEuler", "ExplicitMidpoint", "RK33", "RK44",
           "RK67", "VelocityVerlet", "Accelerations", "fixed_coordinates"]
