"""What the translations of the item table (:mod:`floatframe.exudyn._items`) share.

Each registered item translates itself into one component of :mod:`floatframe.components`; the
helpers here check the parts of an item that the core cannot represent (an error naming the item and
the parameter, never a silent drop) and look up output variables.

Output variables are reached in four ways, as in Exudyn; each item lists its variables per way:

========================  ==========================================  ================
access                    MainSystem function                         sensor
========================  ==========================================  ================
``node``                  ``GetNodeOutput``                           ``SensorNode``
``object``                ``GetObjectOutput``                         ``SensorObject``
``body``                  ``GetObjectOutputBody``                     ``SensorBody``
``superElement``          ``GetObjectOutputSuperElement``             ``SensorSuperElement``
========================  ==========================================  ================
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from floatframe.exudyn._names import ExudynLayerError, OutputVariableType, member_name, unknown
from floatframe.parameters import Parameter

ACCESS_BY_FUNCTION = {"GetNodeOutput": "node", "GetObjectOutput": "object", "GetObjectOutputBody": "body",
                      "GetObjectOutputSuperElement": "superElement", "GetMarkerOutput": "marker"}
ACCESS_NAMES = {"node": "GetNodeOutput and SensorNode", "object": "GetObjectOutput and SensorObject",
                "body": "GetObjectOutputBody and SensorBody",
                "superElement": "GetObjectOutputSuperElement and SensorSuperElement",
                "marker": "GetMarkerOutput and SensorMarker"}


def label(item, number) -> str:
    """``ObjectRigidBody 3 'arm'``: the item in messages."""
    return f"{type(item).__name__} {number}" + (f" '{item.name}'" if item.name else "")


def unsupported(item, number, parameter, reason="is not supported by floatframe") -> ExudynLayerError:
    return ExudynLayerError(f"{label(item, number)}: parameter '{parameter}' = {getattr(item, parameter)!r} {reason}")


def is_unset(value) -> bool:
    """Exudyn's way of saying 'no function / no matrix': 0, None or an empty container."""
    if value is None or (isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0):
        return True
    if callable(value):
        return False
    matrix = getattr(value, "matrix", value)
    return matrix is None or (not sp.issparse(matrix) and np.size(matrix) == 0)


def check_unset(item, number, *parameters):
    """Fail on any of ``parameters`` that is set (user functions, matrices the core does not take)."""
    for parameter in parameters:
        if not is_unset(getattr(item, parameter)):
            raise unsupported(item, number, parameter)


def fe_matrix(value):
    """A MatrixContainer, scipy.sparse matrix or array as what ObjectFFRF takes (None if unset)."""
    if is_unset(value):
        return None
    if hasattr(value, "check_declared_shape"):   # a MatrixContainer
        value.check_declared_shape("ObjectFFRF / ObjectGenericODE2 matrix")
    return getattr(value, "matrix", value)


def user_function_for_load(function, mbs, nominal):
    """Exudyn load user functions get (mbs, t, nominal load); the core wants f(t)."""
    return lambda t: call_traceable(mbs, function, t, nominal)


def call_traceable(mbs, function, t, *arguments):
    """function(mbs, t, *arguments) for the core, which may trace it with a symbolic t: meanwhile
    ``mbs._tracing`` is True, and reading data coordinates raises, so that a function that reads them (they change
    between Newton solves) is called, not traced."""
    mbs._tracing = not isinstance(t, (float, int, np.floating))
    try:
        return function(mbs, t, *arguments)
    finally:
        mbs._tracing = False


def live_parameter_name(item, number, parameter) -> str:
    """The name of the core Parameter that carries a live item parameter, e.g. 'load2.loadVector'."""
    return f"{item.family}{number}.{parameter}"


def live_value(item, number, parameter):
    """A live item parameter (see ``register(live=...)``) as a core Parameter holding its value."""
    return Parameter(live_parameter_name(item, number, parameter), getattr(item, parameter))


def load_value(item, number, mbs, value_parameter, function_parameter):
    """The load value of a load item for the core: its live value, or its user function as f(t)."""
    value = getattr(item, value_parameter)
    function = getattr(item, function_parameter)
    if is_unset(function):
        return live_value(item, number, value_parameter)
    nominal = value if np.ndim(value) == 0 else np.asarray(value, dtype=float)
    return user_function_for_load(function, mbs, nominal)


def output_name(owner_item, owner_number, variable, target, target_number, access: str) -> str:
    """The name of an output variable of ``target`` through ``access``, or an error naming the supported ones.

    ``owner_item`` is the sensor (or the target itself for the MainSystem functions).
    """
    owner = label(owner_item, owner_number)
    name = member_name(variable, OutputVariableType, owner, "outputVariableType")
    supported = list(target.available_outputs(access))
    if not supported:
        raise ExudynLayerError(f"{owner}: {label(target, target_number)} has no output variables for "
                               f"{ACCESS_NAMES[access]}")
    if name not in supported:
        where = "" if target is owner_item else f" of {label(target, target_number)}"
        raise unknown("output variable", name, supported, f"{owner}{where} (supported: {supported})")
    return name


def sensor_output(item, number, mbs) -> tuple:
    """(target number, output variable name) of a sensor item, checked against its target's outputs."""
    family, parameter, access = item.target
    target_number = getattr(item, parameter)
    target = mbs.item(family, target_number, label(item, number), parameter)
    return target_number, output_name(item, number, item.outputVariableType, target, target_number, access)
