"""Exudyn's first-order (ODE1) items: NodeGenericODE1 and ObjectGenericODE1, on the core's
:mod:`floatframe.components.first_order` (x carried as the velocities of auxiliary DAE coordinates, x' as their
accelerations).

What the layer adds to the translation:

- the ODE1 coordinates are not ODE2 coordinates: ``systemData.GetODE2Coordinates`` and the like leave them out,
  ``systemData.GetODE1Coordinates`` (x) and ``GetODE1Coordinates_t`` (x') return them (:class:`ODE1SystemData`);
- the schemes: Exudyn's implicit solvers (generalized-alpha, Newmark, TrapezoidalIndex2) integrate ODE1
  coordinates with the trapezoidal rule inside their steps, x_{n+1} = x_n + h/2 (x'_n + x'_{n+1}) with
  x'_{n+1} = f(t_{n+1}, x_{n+1}), starting from x' = 0 (its initial ODE1 rates are zero, also with
  computeInitialAccelerations). floatframe's scheme updates x = v with its velocity formula, which is that rule
  where gamma = 1/2 and alpha_m = alpha_f (Newmark with newmarkGamma = 1/2, TrapezoidalIndex2, generalized-alpha
  with spectralRadius = 1); for the other settings the solve takes the ODE1 coordinates by the trapezoidal rule
  (``GeneralizedAlpha.trapezoidal_coordinates``), the ODE2 ones by the scheme (:func:`first_order_start`).
  The explicit Runge-Kutta solvers take the same stages on x as Exudyn's; VelocityVerlet (Exudyn: explicit
  Euler on ODE1 coordinates) is refused.
"""
from __future__ import annotations

import copy
import math

import numpy as np

from floatframe.components.first_order import NodeODE1, ObjectGenericODE1 as CoreGenericODE1
from floatframe.exudyn import _items
from floatframe.exudyn._coordinates import ae_rows, auxiliary_rows, data_rows
from floatframe.exudyn._items import register
from floatframe.exudyn._names import ConfigurationType, ExudynLayerError, member_name
from floatframe.exudyn._translate import fe_matrix, is_unset, unsupported
from floatframe.solvers.genalpha import GeneralizedAlpha

ODE1_OUTPUTS = ("Coordinates", "Coordinates_t", "CoordinatesTotal")


@register("NodeGenericODE1", "node", "GenericODE1", dict(
    referenceCoordinates=[], initialCoordinates=[], numberOfODE1Coordinates=0),
    outputs=dict(node=ODE1_OUTPUTS), doc="Exudyn's NodeGenericODE1: first-order coordinates x (see the module).")
def NodeGenericODE1(item, number, mbs):
    size = int(item.numberOfODE1Coordinates)
    if size < 1:
        raise unsupported(item, number, "numberOfODE1Coordinates", "must be at least 1")
    given = {name: np.asarray(getattr(item, name), dtype=float).reshape(-1)
             for name in ("referenceCoordinates", "initialCoordinates")}
    for name, value in given.items():
        if value.size != size:   # Exudyn has no defaults for them either
            raise unsupported(item, number, name, f"has {value.size} entries, but numberOfODE1Coordinates is {size}")
    return NodeODE1(given["referenceCoordinates"], given["initialCoordinates"], name=item.name)


@register("ObjectGenericODE1", "object", "GenericODE1", dict(
    nodeNumbers=[], systemMatrix=[], rhsVector=[], rhsUserFunction=0),
    ignored=("coordinateIndexPerNode", "tempCoordinates", "tempCoordinates_t"),
    outputs=dict(object=ODE1_OUTPUTS),
    doc="Exudyn's ObjectGenericODE1: x' = A x + b + f_user(mbs, t, objectNumber, x) on NodeGenericODE1 nodes.")
def ObjectGenericODE1(item, number, mbs):
    for i, node in enumerate(item.nodeNumbers):
        if mbs.item("node", node, f"ObjectGenericODE1 {number}", f"nodeNumbers[{i}]").type_string != "GenericODE1":
            raise unsupported(item, number, "nodeNumbers", f"must refer to NodeGenericODE1 nodes; node {node} is not one")
    function = None if is_unset(item.rhsUserFunction) else item.rhsUserFunction
    vector = None if is_unset(item.rhsVector) else np.asarray(item.rhsVector, dtype=float)
    return CoreGenericODE1(item.nodeNumbers, fe_matrix(item.systemMatrix), vector, function, name=item.name)


def _publish(classes):
    """Enter item classes registered after ``_items`` built its tables into them. This module is loaded by
    ``_solve`` and ``_system`` (which use its functions), so during the package's import, before the modules that
    copy the tables (``utilities``, ``itemInterface``, the package) read them; ``_items`` does not import it, which
    would make an import circle."""
    for cls in classes:
        _items.BY_TYPE[(cls.family, cls.type_string)] = cls
        visualization = type("V" + cls.__name__, (_items.VisualizationItem,),
                             {"__doc__": f"Visualization of {cls.__name__}."})
        _items.VISUALIZATION_CLASSES["V" + cls.__name__] = visualization
        _items.SUPPORTED_NAMES.extend([cls.__name__, "V" + cls.__name__])


_publish([NodeGenericODE1, ObjectGenericODE1])


# --- coordinates ----------------------------------------------------------------------------------
def ode1_rows(mbs) -> np.ndarray:
    """The DAE coordinates that carry ODE1 coordinates (their v are x), in the order of the nodes."""
    rows = [node.coordinate_indices for node in mbs._core.nodes if getattr(node, "first_order", False)]
    return np.concatenate(rows).astype(int) if rows else np.zeros(0, dtype=int)


def ode2_rows(mbs) -> np.ndarray:
    """The DAE coordinates that are ODE2 coordinates: all but the ODE1 ones and those Exudyn keeps as data
    coordinates or does not have (``_coordinates``)."""
    nodes = [node for node in mbs._core.nodes if node.n_coordinates]
    keep = np.ones(sum(node.n_coordinates for node in nodes), dtype=bool)
    keep[ode1_rows(mbs)] = False
    keep[data_rows(mbs)] = False
    keep[auxiliary_rows(mbs)] = False
    return np.flatnonzero(keep)


def with_ode1_kept(mbs, function: str, position: int, values, kind: str):
    """The full DAE vector for ``systemData.SetODE2...`` (``SetAECoordinates``) given Exudyn's ODE2 values
    (algebraic coordinates) only, the others (ODE1, data coordinates, turn counters' multipliers) kept; values
    unchanged where there are no others or the size is wrong (the caller reports it)."""
    if kind == "Reference" or mbs._core is None:
        return values
    full = np.array(mbs.state(kind)[position], dtype=float)
    rows = ae_rows(mbs, full.size) if function == "SetAECoordinates" else ode2_rows(mbs)
    given = np.array(values, dtype=float).reshape(-1)
    if rows.size == full.size or given.size != rows.size:
        return values
    full[rows] = given
    return full


class ODE1SystemData:
    """The ODE1 part of ``mbs.systemData`` (a base of the layer's SystemData): x and x' per configuration."""

    def _ode1(self, function: str, position: int, configuration) -> np.ndarray:
        kind = member_name(configuration, ConfigurationType, f"systemData.{function}", "configuration")
        mbs = self._mbs
        if kind == "Reference":   # Exudyn: the reference values of x, and no reference rates
            if position == 3:
                return np.zeros(0)
            nodes = [node for node in mbs._core.nodes if getattr(node, "first_order", False)]
            return np.concatenate([node.first_order_reference for node in nodes]) if nodes else np.zeros(0)
        return np.array(mbs.state(kind)[position], dtype=float)[ode1_rows(mbs)]

    def _set_ode1(self, function: str, position: int, values, configuration):
        kind = member_name(configuration, ConfigurationType, f"systemData.{function}", "configuration")
        rows = ode1_rows(self._mbs)
        values = np.array(values, dtype=float).reshape(-1)
        if values.size != rows.size:
            raise ExudynLayerError(f"systemData.{function}: expected {rows.size} values (the ODE1 coordinates), got "
                                   f"{values.size}")
        full = np.array(self._mbs.state(kind)[position], dtype=float) if kind != "Reference" else np.zeros(0)
        if full.size:
            full[rows] = values
        self._mbs.set_state_vector(function, position, full, kind)

    def GetODE1Coordinates(self, configuration=ConfigurationType.Current) -> np.ndarray:
        """The ODE1 coordinates x of a configuration (Reference: their reference values)."""
        return self._ode1("GetODE1Coordinates", 2, configuration)

    def GetODE1Coordinates_t(self, configuration=ConfigurationType.Current) -> np.ndarray:
        """The rates x' of the ODE1 coordinates (Initial: zero, as Exudyn; Reference: empty)."""
        return self._ode1("GetODE1Coordinates_t", 3, configuration)

    def SetODE1Coordinates(self, coordinates, configuration=ConfigurationType.Current):
        """Set the ODE1 coordinates x of a configuration; Initial ones are the start of the next solve."""
        self._set_ode1("SetODE1Coordinates", 2, coordinates, configuration)

    def SetODE1Coordinates_t(self, coordinates, configuration=ConfigurationType.Current):
        """Set the rates x' of a configuration (Initial: the start of the next implicit solve)."""
        self._set_ode1("SetODE1Coordinates_t", 3, coordinates, configuration)

    def ODE1Size(self, configuration=ConfigurationType.Current) -> int:
        """The number of ODE1 coordinates."""
        return int(ode1_rows(self._mbs).size)


# --- the schemes ----------------------------------------------------------------------------------
def _ode1_nodes(mbs) -> list:
    return [number for number, item in enumerate(mbs.items("node")) if item.type_string == "GenericODE1"]


class _EstimateOnODE1Coordinates:
    """An embedded Runge-Kutta pair whose error estimate leaves out the integrals q of the ODE1 coordinates
    (``ode1_rows``): Exudyn's estimate is over the ODE2 coordinates, their velocities and the ODE1 coordinates x,
    and the integrals are no state of its. The scheme's own estimate is taken with the differences of those q set
    to zero and rescaled from its count of 2 n terms to the 2 n - n_ODE1 that remain."""

    ode1_rows = np.zeros(0, dtype=int)

    def error(self, state, q, v, q_embedded, v_embedded) -> float:
        q_embedded = np.array(q_embedded, dtype=float)
        q_embedded[self.ode1_rows] = q[self.ode1_rows]
        terms = 2 * q.size
        return super().error(state, q, v, q_embedded, v_embedded) * math.sqrt(terms / (terms - self.ode1_rows.size))


def _estimate_on_ode1_coordinates(solver, rows):
    """A copy of the embedded pair ``solver`` with the error estimate of :class:`_EstimateOnODE1Coordinates`."""
    adapted = copy.copy(solver)
    adapted.__class__ = type(type(solver).__name__, (_EstimateOnODE1Coordinates, type(solver)),
                             {"__module__": type(solver).__module__, "__doc__": type(solver).__doc__})
    adapted.ode1_rows = np.asarray(rows, dtype=int)
    return adapted


def first_order_start(mbs, solver, kind: str, start: dict, t0: float):
    """(solver, start) of a solve whose scheme the settings chose, for a model with ODE1 coordinates: refuses the
    schemes whose numbers on x differ from Exudyn's (see the module), steps x by the trapezoidal rule in the
    implicit ones whose velocity formula is not that rule, starts them from x' = 0 and takes the error estimate of
    the embedded pairs over x, not its integral q."""
    rows = ode1_rows(mbs)
    if not rows.size:
        return solver, start
    nodes = _ode1_nodes(mbs)
    if kind == "VelocityVerlet":
        raise ExudynLayerError(f"SolveDynamic: solverType VelocityVerlet with the ODE1 coordinates of NodeGenericODE1 "
                               f"{nodes}: Exudyn advances ODE1 coordinates by explicit Euler steps inside its "
                               f"velocity Verlet scheme, floatframe's VelocityVerlet treats them as velocities; "
                               f"choose a Runge-Kutta solverType (e.g. RK44)")
    alpha_m, alpha_f, gamma = (getattr(solver, name, None) for name in ("alpha_m", "alpha_f", "gamma"))
    if gamma is None:   # an explicit Runge-Kutta scheme: the same stages on x as Exudyn's
        if getattr(solver, "adaptive", False):
            solver = _estimate_on_ode1_coordinates(solver, rows)
        return solver, start
    if abs(gamma - 0.5) > 1e-14 or abs(alpha_m - alpha_f) > 1e-14:   # the velocity formula is not the rule
        if not (isinstance(solver, GeneralizedAlpha) and solver._steps_trapezoidal()):
            raise ExudynLayerError(
                f"SolveDynamic: solverType {kind} with the ODE1 coordinates of NodeGenericODE1 {nodes}: Exudyn "
                f"integrates ODE1 coordinates with the trapezoidal rule inside its implicit solvers; floatframe's "
                f"{type(solver).__name__} cannot take them so (alpha_m = {alpha_m:.6g}, alpha_f = {alpha_f:.6g}, "
                f"gamma = {gamma:.6g})")
        solver.trapezoidal_coordinates = rows
    if "a0" not in start:   # Exudyn computes the initial ODE2 accelerations, and sets the ODE1 rates to zero
        from floatframe.solvers.linear import consistent_accelerations

        assembled = mbs._assembled
        q0 = assembled.q_initial if start.get("q0") is None else start["q0"]
        v0 = assembled.v_initial if start.get("v0") is None else start["v0"]
        a0, lam0 = consistent_accelerations(assembled, t0, q0, v0, solver.name)
        a0[rows] = 0.0
        start = dict(start, a0=a0, lam0=lam0)
    return solver, start


def refuse_ode1_outside_dynamics(mbs, caller: str):
    """The assembled system for ``caller``; the static solve and the linearized analyses refuse ODE1 coordinates
    (Exudyn 1.13.6 calls them untested there: its static solve does not converge on them, its eigenvalues and
    degrees of freedom leave them out with a warning that the results may be wrong)."""
    rows = ode1_rows(mbs)
    if rows.size and caller != "SolveDynamic":
        raise ExudynLayerError(f"{caller}: the model has the ODE1 coordinates of NodeGenericODE1 {_ode1_nodes(mbs)}; "
                               f"floatframe takes them in SolveDynamic only (Exudyn 1.13.6 warns that its static solver is "
                               f"untested with them and that its linearized results leave them out or may be wrong)")
    return mbs._assembled
