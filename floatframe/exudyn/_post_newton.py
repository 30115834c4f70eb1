"""Exudyn's data coordinates that switch between Newton solves, and its post-Newton step, on floatframe.

A NodeGenericData that is not a turn counter holds data coordinates that no equation solves for: the layer keeps
their values per configuration (Initial, Current, StartOfStep: ``DataCoordinates``, ``mbs._data``). A
CoordinateSpringDamperExt with sticking friction or limit stops reads its node's three values as a Parameter of
the assembled system (``data_parameter_name``), so its force changes only when the values are published
(``DataCoordinates.publish``). After each Newton solve ``PostNewtonSwitching`` calls the user's post-Newton function
(``mbs.SetPostNewtonUserFunction``) and the objects' switching (``CoordinateSpringDamperExt.switch_data``), as
Exudyn's PostNewton does; ``floatframe.solvers.switching`` takes the steps (Exudyn's discontinuous iteration and
adaptive step size). Models with neither take the ordinary step loop.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from floatframe.components.constraints import CoordinateConstraint
from floatframe.components.coordinate_spring_damper_ext import CoordinateSpringDamperExt
from floatframe.errors import UserFunctionError
from floatframe.exudyn._names import ConfigurationType, ExudynLayerError, member_name
from floatframe.parameters import Parameter
from floatframe.solvers.switching import Switching

CONFIGURATIONS = ("Initial", "Current", "StartOfStep")


def data_parameter_name(node_number: int) -> str:
    """The name of the Parameter that carries the values of data node ``node_number`` into the DAE."""
    return f"node{int(node_number)}.dataCoordinates"


def data_parameter(mbs, node_number: int) -> Parameter:
    """The Parameter of data node ``node_number`` in the assembly under way: one object, shared by the node
    (``NodeData``) and the objects that read it (``mbs._data_parameters``, emptied at each assembly)."""
    kept = mbs._data_parameters
    if node_number not in kept:
        kept[node_number] = Parameter(data_parameter_name(node_number), data_values(mbs.items("node")[node_number]))
    return kept[node_number]


def data_values(item) -> np.ndarray:
    """The initial values of a NodeGenericData item (zeros where none are given)."""
    initial = np.asarray(item.initialCoordinates, dtype=float).reshape(-1)
    return initial.copy() if initial.size else np.zeros(int(item.numberOfDataCoordinates))


class DataCoordinates:
    """The values of the data nodes that are not turn counters (node number -> (k,) array), per configuration."""

    def __init__(self, mbs):
        self.mbs = mbs
        self.nodes = [number for number, item in enumerate(mbs.items("node")) if item.type_string == "GenericData"
                      and mbs._core.items("node")[number].n_coordinates == 0]
        initial = {node: data_values(mbs.items("node")[node]) for node in self.nodes}
        self.values = {kind: {node: value.copy() for node, value in initial.items()} for kind in CONFIGURATIONS}

    def copy(self, source: str, target: str) -> None:
        """Configuration ``target`` takes the values of ``source``."""
        self.values[target] = {node: value.copy() for node, value in self.values[source].items()}

    def publish(self) -> None:
        """The Current values into the assembled system's Parameters (of the nodes an object reads)."""
        assembled = self.mbs._assembled
        for node, value in self.values["Current"].items():
            name = data_parameter_name(node)
            if name in assembled.parameter_values:
                assembled.set_parameter(name, value)

    def get(self, configuration) -> np.ndarray:
        """All data coordinates of a configuration in node order (Exudyn's vector); turn counters' angles from the
        configuration's state."""
        kind = _kind(configuration, "GetDataCoordinates")
        blocks = []
        for number, item in enumerate(self.mbs.items("node")):
            if item.type_string != "GenericData":
                continue
            if number in self.values[kind]:
                blocks.append(self.values[kind][number])
            else:   # a turn counter: its DAE coordinate
                node = self.mbs._core.items("node")[number]
                rows = np.asarray(node.coordinate_indices, dtype=int).reshape(-1)
                blocks.append(self.mbs.state(kind)[1][rows] + self.mbs._assembled.q_reference[rows])
        return np.concatenate(blocks) if blocks else np.zeros(0)

    def set(self, values, configuration) -> None:
        """Set the data coordinates of a configuration (all, in node order); also during a solve (Current)."""
        kind = _kind(configuration, "SetDataCoordinates")
        values = np.asarray(values, dtype=float).reshape(-1)
        sizes = [(number, int(item.numberOfDataCoordinates)) for number, item in enumerate(self.mbs.items("node"))
                 if item.type_string == "GenericData"]
        if values.size != sum(size for _, size in sizes):
            raise ExudynLayerError(f"systemData.SetDataCoordinates: expected {sum(size for _, size in sizes)} "
                                   f"values (the data coordinates of the NodeGenericData nodes), got {values.size}")
        start = 0
        for number, size in sizes:
            if number not in self.values[kind]:
                raise ExudynLayerError(f"systemData.SetDataCoordinates: NodeGenericData {number} is a turn counter, "
                                       f"whose angle floatframe integrates as a coordinate; it cannot be set")
            self.values[kind][number] = values[start:start + size].copy()
            start += size
        if kind == "Current":
            self.publish()


def _kind(configuration, function: str) -> str:
    kind = member_name(configuration, ConfigurationType, f"systemData.{function}", "configuration")
    if kind not in CONFIGURATIONS:
        raise ExudynLayerError(f"systemData.{function}: configuration {kind} is not supported for data coordinates "
                               f"(supported: {', '.join(CONFIGURATIONS)})")
    return kind


def velocity_level_rows(mbs) -> np.ndarray:
    """The constraint rows of the velocity-level ObjectConnectorCoordinates (floatframe's CoordinateConstraint, whose
    integral form the index-3 schemes impose otherwise), for steps that impose them at velocity level, as Exudyn's
    index-3 scheme does (``GeneralizedAlpha.velocity_rows``)."""
    rows = [np.asarray(item.multiplier_indices, dtype=int).reshape(-1) for item in mbs._core.objects
            if isinstance(item, CoordinateConstraint) and item.velocity_level and item.active]
    return np.concatenate(rows) if rows else np.zeros(0, dtype=int)


def switching_objects(mbs) -> list:
    """(object number, core CoordinateSpringDamperExt, data node number) of the objects whose data switch."""
    return [(number, component, int(mbs.items("object")[number].nodeNumber))
            for number, component in enumerate(mbs._core.objects)
            if isinstance(component, CoordinateSpringDamperExt) and component.switches and component.data is not None]


def refuse_switching(mbs, caller: str) -> None:
    """Raise ExudynLayerError where ``caller`` (a solve without Exudyn's discontinuous iteration) would meet a model
    that switches after Newton solves."""
    if PostNewtonSwitching.wanted(mbs):
        raise ExudynLayerError(f"{caller}: the model switches data after each Newton solve (a post-Newton user "
                               f"function, or CoordinateSpringDamperExt data nodes); only SolveDynamic with an "
                               f"implicit solver iterates that switching")


class PostNewtonSwitching(Switching):
    """A model's post-Newton step: the user's function, then the objects' switching (``switching_objects``), each
    with the state of the finished Newton solve as Current; the error is |the function's error| plus the largest
    object error (Exudyn's PostNewton). ``solver``: the solver object whose ``it`` the user function may read."""

    def __init__(self, mbs, solver):
        self.mbs, self.solver = mbs, solver
        self.function = mbs._post_newton_function
        self.objects = switching_objects(mbs)
        assembled = mbs._assembled
        self.motion = {number: assembled.output_function(
            lambda ctx, component=component: ca.vertcat(*component.displacement_velocity(ctx)), f"object{number}_u")
            for number, component, _ in self.objects}

    @staticmethod
    def wanted(mbs) -> bool:
        """Whether the model switches after Newton solves (a post-Newton function or switching objects)."""
        return mbs._post_newton_function is not None or bool(switching_objects(mbs))

    def begin_step(self, state) -> None:
        self.mbs._data.copy("Current", "StartOfStep")
        self.start = (float(state.t), state.q.copy(), state.v.copy(), state.a.copy(), state.lam.copy())
        self.mbs._configurations["StartOfStep"] = self.start

    def before_attempt(self, t: float, h: float) -> None:
        it = self.solver.it
        it.currentStepSize, it.currentTime = float(h), float(t)
        function = self.mbs._pre_step_function
        if function is not None:
            self.mbs._assembled.current_state = self.start
            if function(self.mbs, float(t)) is False:
                raise ExudynLayerError("SolveDynamic: a pre-step function returned False; floatframe cannot stop a "
                                       "solve with post-Newton switching early")

    def after_newton(self, state, h: float) -> tuple[float, float]:
        mbs = self.mbs
        current = (float(state.t), state.q, state.v, state.a, state.lam)
        mbs._assembled.current_state = current
        error, recommended = 0.0, -1.0
        if self.function is not None:
            error, recommended = self._call_function(float(state.t))
        data = mbs._data.values
        object_error = 0.0
        for number, component, node in self.objects:
            if not mbs.items("object")[number].activeConnector:
                continue
            u, u_t = self.motion[number](*current)
            data["Current"][node], switched = component.switch_data(float(u), float(u_t), data["Current"][node],
                                                                    data["StartOfStep"][node])
            object_error = max(object_error, switched)
        mbs._data.publish()
        return error + object_error, recommended

    def _call_function(self, t: float) -> tuple[float, float]:
        """The user's post-Newton function f(mbs, t) -> [error, recommended step size]."""
        try:
            values = np.asarray(self.function(self.mbs, t), dtype=float).reshape(-1)
        except Exception as exc:
            raise UserFunctionError(f"the post-Newton user function raised {type(exc).__name__}: {exc}",
                                    "MainSystem", "postNewtonUserFunction") from exc
        if values.size != 2 or not np.isfinite(values).all():
            raise UserFunctionError(f"the post-Newton user function must return two finite numbers [error, "
                                    f"recommendedStepSize], got {values.tolist()}", "MainSystem",
                                    "postNewtonUserFunction")
        return abs(float(values[0])), float(values[1]) if values[1] >= 0 else -1.0

    def reject(self) -> None:
        self.mbs._data.copy("StartOfStep", "Current")
        self.mbs._data.publish()
