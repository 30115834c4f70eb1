"""The DAE contract: what a solver may use of an assembled model, and nothing else.

The assembly (``floatframe.assembly.System.assemble``) returns an object that satisfies :class:`DAE`; every
solver in ``floatframe.solvers`` reads a model only through these members. A solver of your own written
against this Protocol runs on every floatframe model (docs/solvers.md, "Bring your own solver"), and
``tests/solvers/test_contract.py`` runs every built-in solver on a wrapper that exposes these members only.

The DAE is the implicit index-3 system of n coordinates q (change from ``q_reference``) and m multipliers
lambda

    R(t, q, v, a, lambda) = 0     (n,)   equations of motion, R = M a + ... + C_q^T lambda
    C(t, q) = 0                   (m,)   position-level constraints

with v = dq/dt and a = dv/dt. Time t in s, coordinates in their own units (m, and 1 for Euler parameters).
Evaluation methods take NumPy arrays and return NumPy arrays (vectors) or ``scipy.sparse.csc_matrix``.
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable

import casadi as ca
import numpy as np
import scipy.sparse as sp

CONTRACT = (
    # sizes and states
    "n_coordinates", "n_multipliers", "q_reference", "q_initial", "v_initial", "euler_parameter_rows",
    "current_state",
    # equations
    "residual", "constraints", "constraint_velocity", "constraint_input_rate", "constraint_acceleration_rest",
    "constraint_jacobian", "mass_matrix", "newton_matrix", "load_residual", "exudyn_matrix_difference",
    # the iteration matrix and the functions behind the evaluations (for compiled and buffered paths)
    "form_name", "constraint_rows_name", "numeric_function", "use_numeric", "evaluation_work",
    "iteration_matrix_nonzeros", "fingerprint", "functions", "symbols", "residual_with_jacobian",
    # sensors
    "sensor_values", "sensor_names", "sensor_variables", "sensor_slices",
    # parameters and inputs
    "parameters", "parameter_vector", "parameters_now", "inputs", "input_signals", "input_vector",
    # user functions, and the monitors a solver calls at its stored states
    "has_user_functions", "user_function_callbacks", "monitors",
    # words for messages
    "describe_coordinates", "describe_constraints", "constraint_owners", "coordinates_by_node",
)


@runtime_checkable
class DAE(Protocol):
    """An assembled model as the solvers see it (see the module docstring).

    Attributes
    ----------
    n_coordinates, n_multipliers : n and m.
    q_reference, q_initial, v_initial : (n,) reference coordinates and the initial state (q as change from the
        reference).
    euler_parameter_rows : the coordinate indices (4,) of each Euler-parameter node's theta.
    current_state : (t, q, v, a, lambda) of the last evaluation; a solver sets it before user functions run
        (they may query outputs of the state being solved for).
    parameters, inputs : the symbolic Parameter and Input objects, in the order of p and u;
        input_signals : name -> signal t -> values.
    sensor_names : one name per sensor; sensor_variables : each sensor's output variable ("Position", ...: the
        units of its columns); sensor_slices : (k + 1,) bounds of each sensor's rows in the stacked sensor output.
    constraint_owners : the label of the item that owns each constraint row (m,).
    has_user_functions : whether Python user functions (CasADi callbacks) enter the residual: such a model
        is evaluated through ``residual`` and ``newton_matrix`` only (no buffered or compiled kernels);
        user_function_callbacks : those callbacks (each has ``failure``, the UserFunctionError of its last
        failed call).
    functions : name -> complete CasADi Function of (inputs..., u, p), for symbolic solvers (IDAS);
        symbols : the symbolic DAE (``u``, ``p`` among them).
    """

    n_coordinates: int
    n_multipliers: int
    q_reference: np.ndarray
    q_initial: np.ndarray
    v_initial: np.ndarray
    current_state: tuple | None
    parameters: list
    inputs: list
    input_signals: dict
    constraint_owners: list

    @property
    def euler_parameter_rows(self) -> list: ...

    @property
    def sensor_names(self) -> list[str]: ...

    @property
    def sensor_variables(self) -> list[str]: ...

    @property
    def sensor_slices(self) -> np.ndarray: ...

    @property
    def has_user_functions(self) -> bool: ...

    @property
    def user_function_callbacks(self) -> list: ...

    @property
    def monitors(self) -> list:
        """Callables (t, q, v) -> None to call at every stored state (warnings where the model leaves its range
        of validity, e.g. a linear FFRF body spinning too fast): with one state (t a float, q and v (n,)) or with
        stored states stacked (t (k,), q and v (k, n)), taken in their order."""

    @property
    def functions(self) -> dict: ...

    @property
    def symbols(self): ...

    def residual(self, t, q, v, a, lam, index=3) -> np.ndarray:
        """R (n,); ``index=2``: the residual of the index-2 form (its reactions) where the model has one."""

    def constraints(self, t, q) -> np.ndarray:
        """C (m,)."""

    def constraint_velocity(self, t, q, v, index=3) -> np.ndarray:
        """dC/dt = C_q v + C_t (m,) with the inputs held at u(t); ``index=2``: the index-2 form's velocity rows."""

    def constraint_input_rate(self, t, q) -> np.ndarray:
        """C_u du/dt (m,), the part of dC/dt from the input signals."""

    def constraint_acceleration_rest(self, t, q, v) -> np.ndarray:
        """d^2C/dt^2 - C_q a (m,): the acceleration-level constraint is C_q a + this = 0."""

    def constraint_jacobian(self, t, q) -> sp.csc_matrix:
        """C_q (m, n)."""

    def mass_matrix(self, t, q, v, a=None, lam=None) -> sp.csc_matrix:
        """M = dR/da (n, n)."""

    def newton_matrix(self, t, q, v, a, lam, c_a, c_v, c_q, index=3) -> sp.csc_matrix:
        """[[c_a R_a + c_v R_v + c_q R_q, R_lambda], [C_q, 0]] (n+m, n+m), exact."""

    def load_residual(self) -> ca.Function:
        """(t, q, u, p) -> (the loads' part of R, its q-Jacobian), for load stepping."""

    def exudyn_matrix_difference(self) -> ca.Function | None:
        """(t, q, v, u, p, c_q, c_v) -> the part of the iteration matrix that Exudyn's Jacobian has otherwise
        (n, n), or None."""

    def form_name(self, name: str, index: int) -> str:
        """The name of the numeric function ``name`` ("residual", "newton_matrix", ...) of the index-3 or
        index-2 form."""

    def constraint_rows_name(self, index: int) -> str:
        """The name of the constraint rows a scheme of ``index`` enforces (C, or the velocity rows)."""

    def numeric_function(self, name: str) -> ca.Function:
        """The numeric CasADi Function ``name`` of (inputs..., u, p) that the evaluations use (without the
        constant linear terms of FE bodies, which ``residual`` and ``newton_matrix`` add)."""

    def use_numeric(self, functions: dict) -> None:
        """Evaluate these Functions (e.g. compiled ones) in place of the numeric Functions of the same names."""

    def fingerprint(self, serialized, structured=()) -> str:
        """A text that changes whenever the complete Functions of these names would (``serialized`` in full,
        ``structured`` by their output's pattern), found without forming them: the key of cached compiled code."""

    def evaluation_work(self, name: str) -> int:
        """Operations of one evaluation of function ``name``, for cost estimates."""

    def iteration_matrix_nonzeros(self, name: str = "newton_matrix") -> int:
        """Structural nonzeros of an iteration matrix."""

    def residual_with_jacobian(self) -> ca.Function:
        """R(t, q, v, a, lam, u, p) as a CasADi Function with the exact blocked Jacobian."""

    def sensor_values(self, t, q, v, a, lam, parameters=None) -> list[np.ndarray]:
        """Each sensor's values at the state, with the parameters p (default: their current values; a solve whose
        ``pre_step`` changes them evaluates each stored state with those of its step)."""

    def parameter_vector(self) -> np.ndarray:
        """p (raises where a Parameter has no value)."""

    def parameters_now(self) -> np.ndarray:
        """p, or an empty vector without Parameters."""

    def input_vector(self, t: float) -> np.ndarray:
        """u(t)."""

    def describe_coordinates(self, coordinates) -> str:
        """The nodes owning these coordinate indices, for messages."""

    def describe_constraints(self, rows) -> str:
        """The owners of these constraint rows, for messages."""

    def coordinates_by_node(self) -> list[tuple[str, np.ndarray]]:
        """(label, coordinate indices) of each node with coordinates."""
