"""SystemContainer, MainSystem and SolveDynamic: Exudyn's scripting interface on floatframe's core.

A MainSystem keeps the items as Exudyn item records; ``Assemble`` translates them one to one into a
:class:`floatframe.System` (same numbers per family) and assembles it. Outputs (``GetNodeOutput``, ...)
are CasADi functions of the core's state, evaluated at the current state: the initial state after
``Assemble``, the state of the ongoing Newton iteration inside user functions, the final state after
``SolveDynamic``.
"""
from __future__ import annotations

import warnings

import numpy as np

from floatframe.components.base import ModelError
from floatframe.exudyn import _solve
from floatframe.exudyn._items import as_item, frame_parameters, translate
from floatframe.exudyn._coordinates import ae_rows
from floatframe.exudyn._items_ode1 import ODE1SystemData, ode2_rows, with_ode1_kept
from floatframe.exudyn._post_newton import DataCoordinates, data_values
from floatframe.exudyn._lie_group_explicit import exudyn_velocities, floatframe_velocities
from floatframe.exudyn._translate import ACCESS_BY_FUNCTION, live_parameter_name, output_name
from floatframe.exudyn._names import ConfigurationType, ExudynLayerError, member_name, out_of_scope, unknown
from floatframe.exudyn._unknown import UnknownNameError
from floatframe.exudyn._renderer_materials import GraphicsMaterialList
from floatframe.exudyn._settings import VisualizationSettings
from floatframe.exudyn._step_functions import as_exudyn_value, checked_function, from_exudyn_value
from floatframe.assembly import System

FAMILIES = ("node", "object", "marker", "load", "sensor")
EXUDYN_VERSION = "1.13.6"   # the Exudyn release whose interface the layer follows


IMAGE_CALLS = ("RedrawAndGetImage",)   # renderer functions whose caller needs what was rendered


def renderer_call(name: str):
    """A renderer function: warns that nothing is rendered and returns; one that would return an image raises."""
    def call(*arguments, **keywords):
        if name.rsplit(".", 1)[-1] in IMAGE_CALLS:
            raise ExudynLayerError(f"{name}: floatframe has no renderer, so there is no image to return"
                                   f"{out_of_scope(name)}")
        warnings.warn(f"{name}: floatframe has no renderer; the call is ignored", stacklevel=2)
        return False
    call.__name__ = name
    return call


class _Renderer:
    """``SC.renderer``: every method warns and returns."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return renderer_call(f"renderer.{name}")


class SystemContainer:
    """Holds the systems of a script and the (kept, not rendered) visualization settings."""

    def __init__(self):
        self.systems = []
        self.visualizationSettings = VisualizationSettings()
        self.renderer = _Renderer()
        self.renderer.materials = GraphicsMaterialList()   # kept, not rendered

    def AddSystem(self) -> "MainSystem":
        system = MainSystem(self)
        self.systems.append(system)
        return system

    def NumberOfSystems(self) -> int:
        return len(self.systems)

    def GetSystem(self, number: int) -> "MainSystem":
        return self.systems[number]

    def Reset(self):
        self.systems.clear()

    def GetRenderState(self) -> dict:
        return {}

    SetRenderState = staticmethod(renderer_call("SetRenderState"))
    WaitForRenderEngineStopFlag = staticmethod(renderer_call("WaitForRenderEngineStopFlag"))
    RedrawAndSaveImage = staticmethod(renderer_call("RedrawAndSaveImage"))
    AttachToRenderEngine = staticmethod(renderer_call("AttachToRenderEngine"))
    DetachFromRenderEngine = staticmethod(renderer_call("DetachFromRenderEngine"))


class SystemData(ODE1SystemData):
    """``mbs.systemData``: the system's coordinate vectors per configuration, as Exudyn's SystemData.

    Configurations: Initial (the start of the next solve), Current (the state of the last solve, or the one
    being iterated inside user functions), Reference (the nodes' reference coordinates; Exudyn keeps no
    reference velocities, accelerations or multipliers and returns empty vectors for them), StartOfStep
    (the start of the last step), Visualization (nothing is rendered: the state at Assemble unless set).
    """

    VECTORS = {"GetODE2Coordinates": 1, "GetODE2Coordinates_t": 2, "GetODE2Coordinates_tt": 3, "GetAECoordinates": 4}

    def __init__(self, mbs: "MainSystem"):
        self._mbs = mbs

    def _get(self, function: str, configuration) -> np.ndarray:
        kind = member_name(configuration, ConfigurationType, f"systemData.{function}", "configuration")
        if kind == "Reference":
            return self._mbs.reference_coordinates() if function == "GetODE2Coordinates" else np.zeros(0)
        state = self._mbs.state(kind)
        values = exudyn_velocities(self._mbs, function, state, np.array(state[self.VECTORS[function]], dtype=float))
        if function == "GetAECoordinates":
            return values[ae_rows(self._mbs, values.size)]     # without the turn counters' rows
        return values[ode2_rows(self._mbs)]   # no ODE1 or data coordinates

    def _set(self, function: str, coordinates, configuration):
        kind = member_name(configuration, ConfigurationType, f"systemData.{function}", "configuration")
        position = self.VECTORS[function.replace("Set", "Get")]
        coordinates = with_ode1_kept(self._mbs, function, position, coordinates, kind)
        coordinates, velocities = floatframe_velocities(self._mbs, function, coordinates, kind)   # Lie-group nodes
        self._mbs.set_state_vector(function, position, coordinates, kind)
        if velocities is not None:   # new rotation vectors of Lie-group nodes, the same angular velocities
            self._mbs.set_state_vector("SetODE2Coordinates_t", 2, velocities, kind)

    def GetODE2Coordinates(self, configuration=ConfigurationType.Current) -> np.ndarray:
        """ODE2 coordinates of a configuration: changes from the reference values (Reference: these values)."""
        return self._get("GetODE2Coordinates", configuration)

    def GetODE2CoordinatesTotal(self, configuration=ConfigurationType.Current) -> np.ndarray:
        """Reference values plus the ODE2 coordinates of a configuration (Reference: the reference values)."""
        kind = member_name(configuration, ConfigurationType, "systemData.GetODE2CoordinatesTotal", "configuration")
        reference = self._mbs.reference_coordinates()
        return reference if kind == "Reference" else reference + self._get("GetODE2Coordinates", configuration)

    def GetODE2Coordinates_t(self, configuration=ConfigurationType.Current) -> np.ndarray:
        """ODE2 velocities of a configuration (Reference: empty, as Exudyn)."""
        return self._get("GetODE2Coordinates_t", configuration)

    def GetODE2Coordinates_tt(self, configuration=ConfigurationType.Current) -> np.ndarray:
        """ODE2 accelerations of a configuration (Reference: empty, as Exudyn)."""
        return self._get("GetODE2Coordinates_tt", configuration)

    def GetAECoordinates(self, configuration=ConfigurationType.Current) -> np.ndarray:
        """Algebraic coordinates (Lagrange multipliers) of a configuration (Reference: empty, as Exudyn)."""
        return self._get("GetAECoordinates", configuration)

    def SetODE2Coordinates(self, coordinates, configuration=ConfigurationType.Current):
        """Set the ODE2 coordinates of a configuration; Initial ones are the start of the next solve."""
        self._set("SetODE2Coordinates", coordinates, configuration)

    def SetODE2Coordinates_t(self, coordinates, configuration=ConfigurationType.Current):
        """Set the ODE2 velocities of a configuration; Initial ones are the start of the next solve."""
        self._set("SetODE2Coordinates_t", coordinates, configuration)

    def SetODE2Coordinates_tt(self, coordinates, configuration=ConfigurationType.Current):
        """Set the ODE2 accelerations of a configuration (Initial: used when the solve does not compute them)."""
        self._set("SetODE2Coordinates_tt", coordinates, configuration)

    def SetAECoordinates(self, coordinates, configuration=ConfigurationType.Current):
        """Set the multipliers of a configuration (Initial: used when the solve does not compute them)."""
        self._set("SetAECoordinates", coordinates, configuration)

    def GetDataCoordinates(self, configuration=ConfigurationType.Current) -> np.ndarray:
        """The data coordinates of the NodeGenericData nodes in node order (Initial, Current or StartOfStep)."""
        mbs = self._mbs
        if mbs._tracing:
            raise ExudynLayerError("systemData.GetDataCoordinates: data coordinates change between Newton solves; "
                                   "a user function that reads them is called, not traced")
        if mbs._data is None or mbs._dirty:   # during Assemble (a user function's sample calls): the initial values
            values = [data_values(item) for item in mbs.items("node") if item.type_string == "GenericData"]
            return np.concatenate(values) if values else np.zeros(0)
        return mbs._data.get(configuration)

    def SetDataCoordinates(self, coordinates, configuration=ConfigurationType.Current):
        """Set the data coordinates (all, in node order) of a configuration; Current ones also during a solve
        (a post-Newton function switches them), where the DAE reads them from the next Newton solve on."""
        self._mbs._require_assembled("systemData.SetDataCoordinates")
        self._mbs._data.set(coordinates, configuration)

    def GetTime(self, configurationType=ConfigurationType.Current) -> float:
        """The time [s] of a configuration."""
        return float(self._mbs.state(configurationType)[0])

    def SetTime(self, newTime, configurationType=ConfigurationType.Current):
        """Set the time [s] of a configuration (as the other Set functions: not during a solve)."""
        kind = member_name(configurationType, ConfigurationType, "systemData.SetTime", "configurationType")
        self._mbs.set_state_vector("SetTime", 0, newTime, kind)

    def NumberOfNodes(self) -> int:
        return len(self._mbs.items("node"))

    def NumberOfObjects(self) -> int:
        return len(self._mbs.items("object"))

    def NumberOfMarkers(self) -> int:
        return len(self._mbs.items("marker"))

    def NumberOfLoads(self) -> int:
        return len(self._mbs.items("load"))

    def NumberOfSensors(self) -> int:
        return len(self._mbs.items("sensor"))

    def ODE2Size(self) -> int:
        """The number of ODE2 coordinates (after Assemble)."""
        return int(ode2_rows(self._mbs).size) if self._mbs._core is not None else 0

    def GetNodeLTGODE2(self, nodeNumber) -> list:
        """The indices of the node's coordinates in the ODE2 coordinate vectors (empty for a node without ODE2
        coordinates: ground, data and ODE1 nodes)."""
        self._mbs.item("node", nodeNumber, "systemData.GetNodeLTGODE2", "nodeNumber")
        self._mbs._require_assembled("systemData.GetNodeLTGODE2")
        node = self._mbs._core.items("node")[int(nodeNumber)]
        rows = ode2_rows(self._mbs)   # the DAE coordinates that are ODE2 coordinates, increasing
        return [int(np.searchsorted(rows, row)) for row in np.asarray(node.coordinate_indices, dtype=int).reshape(-1)
                if row in rows] if node.n_coordinates else []

    def GetObjectLTGODE2(self, objectNumber) -> list:
        """The ODE2 indices of a body's coordinates: those of its nodes in their order (``nodeNumber`` or
        ``nodeNumbers``). Connectors (whose coordinates are their markers') are refused."""
        item = self._mbs.item("object", objectNumber, "systemData.GetObjectLTGODE2", "objectNumber")
        nodes = getattr(item, "nodeNumbers", None)
        nodes = [item.nodeNumber] if nodes is None and getattr(item, "nodeNumber", None) is not None else nodes
        if nodes is None:
            raise ExudynLayerError(f"systemData.GetObjectLTGODE2: object {int(objectNumber)} ({item.type_string}) has "
                                   f"no nodes of its own; floatframe.exudyn gives the coordinates of bodies (for a "
                                   f"connector use GetNodeLTGODE2 of its markers' nodes)")
        return [index for node in np.asarray(nodes, dtype=int).reshape(-1) for index in self.GetNodeLTGODE2(int(node))]

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        supported = [n for n in dir(type(self)) if not n.startswith("_")]
        raise UnknownNameError(str(unknown("SystemData function", name, supported, "floatframe.exudyn")))


class MainSystem:
    """Exudyn's MainSystem on floatframe: add items, ``Assemble``, solve, read outputs.

    floatframe extras: :meth:`GetFloatframeSystem` (the core model), :meth:`GetAssembledSystem` (exact
    sparse Jacobians, CasADi symbols for IDAS and sensitivities), :meth:`GetSimulationResult`.
    """

    def __init__(self, container: SystemContainer | None = None):
        self._container = container
        self._items = {family: [] for family in FAMILIES}
        self.variables = {}
        self.sys = {}
        self.systemData = SystemData(self)
        self._core = None
        self._assembled = None
        self._state = None
        self._solving = False
        self._result = None
        self._sensor_data = {}
        self._outputs = {}
        self._dirty = True
        self._initial_state = None       # set by SolveDynamic(updateInitialValues=True) or systemData
        self._configurations = {}        # StartOfStep, Visualization: set by the solvers or systemData
        self._pre_step_function = None   # the step user functions (``_step_functions``): callables or None
        self._post_step_function = None
        self._pre_newton_residual_function = None
        self._system_jacobian_function = None
        self._current_writable = False   # during a post-step function: the Current state may be set
        self._post_newton_function = None
        self._data = None                # the data coordinates outside the DAE (_post_newton.DataCoordinates)
        self._tracing = False            # a user function is being traced (``_translate.call_traceable``)
        self._data_parameters = {}       # node number -> the data Parameter of the assembly under way

    def Reset(self):
        """Remove every item and what was assembled or solved, as Exudyn's Reset; ``variables`` and ``sys`` stay."""
        variables, system_dict = self.variables, self.sys
        self.__init__(self._container)
        self.variables, self.sys = variables, system_dict

    # --- adding and reading items ---------------------------------------------------------------
    def _add(self, family, item) -> int:
        item = as_item(family, item)
        number = len(self._items[family])
        if not item.name:
            item.name = f"{family}{number}"
        self._items[family].append(item)
        self._dirty = True
        return number

    def AddNode(self, item) -> int:
        """Add a node (item or dict); returns its number."""
        return self._add("node", item)

    def AddObject(self, item) -> int:
        """Add an object (body or connector; item or dict); returns its number."""
        return self._add("object", item)

    def AddMarker(self, item) -> int:
        return self._add("marker", item)

    def AddLoad(self, item) -> int:
        return self._add("load", item)

    def AddSensor(self, item) -> int:
        return self._add("sensor", item)

    def items(self, family: str) -> list:
        return self._items[family]

    def item(self, family: str, number, owner: str = "", what: str = ""):
        """The item record of a family by number, or an error naming the caller."""
        items = self._items[family]
        try:
            index = int(number)
        except (TypeError, ValueError):
            index = -1
        if not 0 <= index < len(items):
            where = f"{owner}: {what} " if owner else f"{family} number "
            raise ExudynLayerError(f"{where}{number!r} does not exist (the system has {len(items)} {family}s)")
        return items[index]

    def _item_dict(self, family, number) -> dict:
        item = self.item(family, number)
        data = dict(item)
        if family == "object" and item.type_string == "FFRF" and self._core is not None and not self._dirty:
            data.update(self._ffrf_physics(int(number)))
        return data

    def _ffrf_physics(self, number) -> dict:
        component = self._core.objects[number]
        inertia = np.asarray(component.inertia)
        center = np.asarray(component.center_of_mass)
        return dict(physicsMass=component.mass, physicsInertia=inertia, physicsCenterOfMass=center,
                    mass=component.mass, inertia=inertia, centerOfMass=center)

    def GetNode(self, number) -> dict:
        return self._item_dict("node", number)

    def GetNodeODE2Index(self, nodeNumber) -> int:
        """The index of the node's first coordinate in the ODE2 coordinate vectors (systemData)."""
        self.item("node", nodeNumber, "GetNodeODE2Index", "nodeNumber")
        self._require_assembled("GetNodeODE2Index")
        node = self._core.items("node")[int(nodeNumber)]
        rows = ode2_rows(self)
        if not node.n_coordinates or node.coordinate_indices[0] not in rows:
            raise ExudynLayerError(f"GetNodeODE2Index: node {int(nodeNumber)} ({node.label}) has no ODE2 coordinates")
        return int(np.searchsorted(rows, node.coordinate_indices[0]))

    def GetObject(self, number) -> dict:
        """The object's parameters; for ObjectFFRF after ``Assemble`` also physicsMass, physicsInertia,
        physicsCenterOfMass (and the names mass, inertia, centerOfMass)."""
        return self._item_dict("object", number)

    def GetMarker(self, number) -> dict:
        """The marker's parameters; a MarkerBodyRigid gives both localPosition and localHT, the one not set filled
        from the other (as Exudyn's)."""
        data = self._item_dict("marker", number)
        item = self.item("marker", number)
        if item.type_string == "BodyRigid":
            position, rotation = frame_parameters(item, int(number), "localHT", "localPosition")
            transformation = np.eye(4)
            transformation[:3, :3], transformation[:3, 3] = rotation, position
            data["localPosition"], data["localHT"] = position, transformation
        return data

    def GetLoad(self, number) -> dict:
        return self._item_dict("load", number)

    def GetSensor(self, number) -> dict:
        return self._item_dict("sensor", number)

    def _get_parameter(self, family, number, name):
        data = self._item_dict(family, number)
        name = self.item(family, number).current_name(name, stacklevel=3)
        if name not in data:
            raise unknown("parameter", name, data, f"{type(self.item(family, number)).__name__} {number}")
        return data[name]

    def _set_parameter(self, family, number, name, value):
        """Change an item parameter. A live one (loads, connector offsets and coefficients) takes effect in
        the assembled system at once, also during a solve; any other one marks the system for assembly."""
        item = self.item(family, number)
        if str(name)[:1] == "V" and str(name)[1:2].islower():   # a visualization entry ('Vshow'): kept, not drawn
            item.visualization[str(name)[1:]] = value
            return
        current = item.current_name(name, stacklevel=3)
        live = current in item.live and self._assembled is not None and not self._dirty
        if self._solving and not live and self._drawn_only(family, int(number), current):
            setattr(item, current, value)   # nothing in the DAE reads it: kept, with no new assembly
            return
        if self._solving and not live:
            changeable = f"only {', '.join(item.live)}" if item.live else "no parameter"
            raise ExudynLayerError(f"Set{family.capitalize()}Parameter({number}, '{name}'): floatframe can change "
                                   f"{changeable} of a {type(item).__name__} during a solve (the DAE is assembled "
                                   f"before it); let a user function read the value from mbs.variables instead")
        try:
            setattr(item, current, value)
        except ExudynLayerError:
            raise unknown("parameter", name, [*item.parameters, *item.deprecated, "name"],
                          f"{type(item).__name__} {number}") from None
        if live:
            try:
                self._assembled.set_parameter(live_parameter_name(item, int(number), current), value)
            except ValueError as exc:
                raise ExudynLayerError(f"Set{family.capitalize()}Parameter({number}, '{name}'): {exc}") from None
        else:
            self._dirty = True

    def _drawn_only(self, family: str, number: int, name: str) -> bool:
        """Whether only drawing reads a parameter: the placement of an ObjectGround that no marker or sensor
        refers to (a scene's background moved by a pre-step function)."""
        if family != "object" or name not in ("referencePosition", "referenceRotation") or \
                type(self.item(family, number)).__name__ != "ObjectGround":
            return False
        for item in (*self.items("marker"), *self.items("sensor")):
            for field in ("bodyNumber", "objectNumber", "bodyNumbers"):
                referred = getattr(item, field, None) if field in item.parameters else None
                if referred is not None and number in np.atleast_1d(np.asarray(referred, dtype=object)).tolist():
                    return False
        return True

    def GetObjectParameter(self, objectNumber, parameterName):
        return self._get_parameter("object", objectNumber, parameterName)

    def SetObjectParameter(self, objectNumber, parameterName, value):
        """Change a parameter; the system is assembled again before the next solve."""
        self._set_parameter("object", objectNumber, parameterName, value)

    def GetNodeParameter(self, nodeNumber, parameterName):
        return self._get_parameter("node", nodeNumber, parameterName)

    def SetNodeParameter(self, nodeNumber, parameterName, value):
        self._set_parameter("node", nodeNumber, parameterName, value)

    def GetMarkerParameter(self, markerNumber, parameterName):
        return self._get_parameter("marker", markerNumber, parameterName)

    def SetMarkerParameter(self, markerNumber, parameterName, value):
        """Change a marker parameter (e.g. the offset of a relative marker); the system is assembled again before
        the next solve (no marker parameter is live: none can change during a solve)."""
        self._set_parameter("marker", markerNumber, parameterName, value)

    def GetLoadParameter(self, loadNumber, parameterName):
        return self._get_parameter("load", loadNumber, parameterName)

    def SetLoadParameter(self, loadNumber, parameterName, value):
        self._set_parameter("load", loadNumber, parameterName, value)

    def GetSensorParameter(self, sensorNumber, parameterName):
        return self._get_parameter("sensor", sensorNumber, parameterName)

    def GetDictionary(self) -> dict:
        """The system as Exudyn's dict: '__version__', 'nodeList', 'objectList', 'markerList', 'loadList',
        'sensorList' (the item dicts of GetNode, ...), 'userFunctions', 'settings', and 'variables' and
        'systemVariables', which are mbs.variables and mbs.sys themselves (as in Exudyn)."""
        return {"__version__": EXUDYN_VERSION,
                **{f"{family}List": [self._item_dict(family, number) for number in range(len(self._items[family]))]
                   for family in FAMILIES},
                "userFunctions": {"preStepFunction": as_exudyn_value(self._pre_step_function),
                                  "postStepFunction": as_exudyn_value(self._post_step_function),
                                  "postNewtonFunction": as_exudyn_value(self._post_newton_function),
                                  "preNewtonResidualFunction": as_exudyn_value(self._pre_newton_residual_function),
                                  "systemJacobianFunction": as_exudyn_value(self._system_jacobian_function)},
                "settings": {"interactiveMode": False}, "variables": self.variables, "systemVariables": self.sys}

    def SetDictionary(self, systemDict: dict):
        """Replace the system by the one of a dict of GetDictionary (items, step user functions, variables)."""
        missing = [f"{family}List" for family in FAMILIES if f"{family}List" not in systemDict]
        if missing:
            raise ExudynLayerError(f"SetDictionary: the dict has no {', '.join(missing)}")
        self.__init__(self._container)
        for family in FAMILIES:
            for item in systemDict[f"{family}List"]:
                self._add(family, dict(item))
        functions = {key: from_exudyn_value(value) for key, value in systemDict.get("userFunctions", {}).items()}
        self.SetPreStepUserFunction(functions.get("preStepFunction"))
        self.SetPostStepUserFunction(functions.get("postStepFunction"))
        self.SetPreNewtonResidualUserFunction(functions.get("preNewtonResidualFunction"))
        self.SetSystemJacobianUserFunction(functions.get("systemJacobianFunction"))
        self.SetPostNewtonUserFunction(functions.get("postNewtonFunction"))
        self.variables = systemDict.get("variables", {})
        self.sys = systemDict.get("systemVariables", {})

    def NumberOfNodes(self) -> int:
        return len(self._items["node"])

    def NumberOfObjects(self) -> int:
        return len(self._items["object"])

    def NumberOfMarkers(self) -> int:
        return len(self._items["marker"])

    def NumberOfLoads(self) -> int:
        return len(self._items["load"])

    def NumberOfSensors(self) -> int:
        return len(self._items["sensor"])

    # --- assembly ---------------------------------------------------------------------------------
    def Assemble(self):
        """Translate all items into core components and assemble the DAE."""
        core = System()
        core.user_function_handle = self
        self._data_parameters = {}
        for family in FAMILIES:
            for number, item in enumerate(self._items[family]):
                core.add(translate(item, number, self))
        self._core, self._assembled, self._outputs = core, None, {}
        self._state, self._result, self._sensor_data, self._initial_state = None, None, {}, None
        self._configurations = {}
        self._assembled = core.assemble()
        self._data = DataCoordinates(self)
        self._state = self.state(ConfigurationType.Initial)
        self._configurations = {"StartOfStep": self._state, "Visualization": self._state}   # copies, as Exudyn's
        self._dirty = False

    def _require_assembled(self, what: str):
        if self._core is None or self._dirty:
            raise ExudynLayerError(f"{what}: call mbs.Assemble() first (items were added or changed)")

    def GetFloatframeSystem(self) -> System:
        """The core :class:`floatframe.System` built by the last ``Assemble``."""
        self._require_assembled("GetFloatframeSystem")
        return self._core

    def GetAssembledSystem(self):
        """The core :class:`floatframe.AssembledSystem` (exact sparse Jacobians, CasADi symbols)."""
        self._require_assembled("GetAssembledSystem")
        return self._assembled

    def GetSimulationResult(self):
        """The :class:`floatframe.SimulationResult` of the last ``SolveDynamic`` (None before)."""
        return self._result

    # --- state and outputs --------------------------------------------------------------------------
    def state(self, configuration=ConfigurationType.Current):
        """(t, q, v, a, lambda) of a configuration: Current, Initial, Reference (q = 0: no change from the
        reference), StartOfStep or Visualization (the state at Assemble where not set otherwise)."""
        if self._core is None:
            raise ExudynLayerError("no coordinates yet: call mbs.Assemble() first")
        kind = member_name(configuration, ConfigurationType, "MainSystem", "configuration")
        if kind in ("StartOfStep", "Visualization"):
            if kind not in self._configurations:
                kind = "Initial"
            elif self._configurations[kind] is None:
                raise ExudynLayerError("configuration StartOfStep: the last solve stored only every few steps "
                                       "(sensor or solution write period above the step size) and ran without a "
                                       "pre-step function, so the start of its last step is not known; set "
                                       "mbs.SetPreStepUserFunction (any function returning True) to record it")
            else:
                return self._configurations[kind]
        if kind == "Current":
            if self._solving and self._assembled is not None and self._assembled.current_state is not None:
                return self._assembled.current_state
            if self._state is not None:
                return self._state
            kind = "Initial"
        if kind == "Initial" and self._initial_state is not None:
            return self._initial_state
        nodes = [n for n in self._core.nodes if n.n_coordinates]
        n = sum(node.n_coordinates for node in nodes)
        assembled = self._assembled or self._core.assembled
        m = assembled.n_multipliers if assembled is not None else 0
        q, v = np.zeros(n), np.zeros(n)
        if kind == "Initial":
            for node in nodes:
                q[node.coordinate_indices] = node.initial_coordinates
                v[node.coordinate_indices] = node.initial_velocities
        elif kind != "Reference":
            raise ExudynLayerError(f"configuration {kind} is not supported; use Current, Initial, Reference, "
                                   f"StartOfStep or Visualization")
        return (0.0, q, v, np.zeros(n), np.zeros(m))

    def reference_coordinates(self) -> np.ndarray:
        """The ODE2 reference coordinates of the nodes, in the order of the coordinates."""
        if self._core is None:
            raise ExudynLayerError("no coordinates yet: call mbs.Assemble() first")
        nodes = [n for n in self._core.nodes if n.n_coordinates]
        reference = np.zeros(sum(node.n_coordinates for node in nodes))
        for node in nodes:
            reference[node.coordinate_indices] = node.reference_coordinates
        return reference[ode2_rows(self)]

    def set_state_vector(self, function: str, position: int, values, kind: str):
        """systemData.Set...: replace entry ``position`` (1 q, 2 v, 3 a, 4 lambda) of configuration ``kind``."""
        if self._core is None:
            raise ExudynLayerError(f"systemData.{function}: call mbs.Assemble() first")
        if kind == "Reference":
            raise ExudynLayerError(f"systemData.{function}: floatframe builds the reference configuration into "
                                   f"the model at Assemble and cannot change it afterwards; set the nodes' "
                                   f"referenceCoordinates (mbs.SetNodeParameter) instead")
        writing_step = self._solving and kind == "Current" and self._current_writable   # in a post-step function
        if self._solving and not writing_step:
            raise ExudynLayerError(f"systemData.{function}: floatframe cannot change the {kind} state during a "
                                   f"solve (except the Current one in a post-step function); change the initial "
                                   f"state before it")
        state = list(self.state(kind))
        size = np.size(state[position])
        values = np.array(values, dtype=float).reshape(-1)
        if values.size != size:
            raise ExudynLayerError(f"systemData.{function}: expected {size} values for the {kind} configuration, "
                                   f"got {values.size}")
        state[position] = float(values[0]) if position == 0 else values
        state = tuple(np.copy(x) if isinstance(x, np.ndarray) else x for x in state)
        if kind == "Initial":
            self._initial_state = state
        elif writing_step:
            self._assembled.current_state = state
        elif kind == "Current":
            self._state = state
        else:
            self._configurations[kind] = state

    def _reference_before_assemble(self, configuration) -> bool:
        """An output of the Reference configuration while the items are not assembled (or changed since): Exudyn
        gives it from the items' reference values, here through a scratch assembly of the items as they are."""
        return (self._core is None or self._dirty) and configuration is not None and member_name(
            configuration, ConfigurationType, "MainSystem", "configuration") == "Reference"

    def _scratch_core(self) -> System:
        """The items as they are now, translated and assembled apart from the system's own assembly."""
        core = System()
        core.user_function_handle = self
        self._data_parameters = {}
        for family in FAMILIES:
            for number, item in enumerate(self._items[family]):
                core.add(translate(item, number, self))
        core.assemble()
        self._scratch = core
        return core

    def _evaluate(self, key, build, configuration):
        if self._reference_before_assemble(configuration):
            scratch = self._scratch.assembled
            n, m = scratch.n_coordinates, scratch.n_multipliers
            value = scratch.output_function(build, str(key[0]))(0.0, np.zeros(n), np.zeros(n), np.zeros(n),
                                                                  np.zeros(m))
            return value[0] if value.size == 1 else value
        assembled = self._assembled or (self._core.assembled if self._core is not None else None)
        if assembled is None:
            raise ExudynLayerError(f"{key[0]}: call mbs.Assemble() first")
        t, q, v, a, lam = self.state(configuration)
        function = self._outputs.get(key)
        if function is None:
            try:
                function = assembled.output_function(build, str(key[0]))
            except ModelError:
                raise ExudynLayerError(f"{key[0]} {key[1]}: this output needs a user function and cannot be "
                                       f"evaluated outside the solver") from None
            self._outputs[key] = function
        value = function(t, q, v, a, lam)
        return value[0] if value.size == 1 else value

    def _output(self, function, family, number, variableType, configuration=None):
        """(item, component, variable name) for an output function, checked against the item table."""
        item = self.item(family, number, function, f"{family}Number")
        variable = output_name(item, int(number), variableType, item, int(number), ACCESS_BY_FUNCTION[function])
        if self._reference_before_assemble(configuration):
            return item, self._scratch_core().items(family)[int(number)], variable
        if self._core is None:
            raise ExudynLayerError(f"{function}: call mbs.Assemble() first (or ask for the Reference configuration)")
        return item, self._core.items(family)[int(number)], variable

    def GetMarkerOutput(self, markerNumber, variableType, configuration=ConfigurationType.Current):
        """An output variable of a marker (those SensorMarker records: Position, Displacement, Velocity; rigid markers
        also Rotation, RotationMatrix, AngularVelocity(Local); coordinate markers Coordinates(_t), an array also
        with one entry)."""
        _, marker, variable = self._output("GetMarkerOutput", "marker", markerNumber, variableType, configuration)
        value = self._evaluate(("GetMarkerOutput", int(markerNumber), variable),
                               lambda ctx: marker.output(ctx, variable), configuration)
        return np.atleast_1d(value) if variable in ("Coordinates", "Coordinates_t") else value   # arrays, as Exudyn's

    def GetNodeOutput(self, nodeNumber, variableType, configuration=ConfigurationType.Current):
        """An output variable of a node (Position, Velocity, Displacement, Rotation, RotationMatrix, ...)."""
        _, node, variable = self._output("GetNodeOutput", "node", nodeNumber, variableType, configuration)
        return self._evaluate(("GetNodeOutput", int(nodeNumber), variable),
                              lambda ctx: node.output(ctx, variable), configuration)

    def GetObjectOutput(self, objectNumber, variableType, configuration=ConfigurationType.Current):
        """An output variable of an object (connectors: Force, ...; ObjectFFRF: Coordinates, ..., Force)."""
        _, component, variable = self._output("GetObjectOutput", "object", objectNumber, variableType,
                                              configuration)
        return self._evaluate(("GetObjectOutput", int(objectNumber), variable),
                              lambda ctx: component.output(ctx, variable), configuration)

    def GetObjectOutputBody(self, objectNumber, variableType, localPosition=(0.0, 0.0, 0.0),
                            configuration=ConfigurationType.Current):
        """An output variable of a body at the body-fixed point ``localPosition`` (ObjectFFRF: of the object)."""
        item, component, variable = self._output("GetObjectOutputBody", "object", objectNumber, variableType,
                                                 configuration)
        point = tuple(float(x) for x in localPosition)
        if item.type_string == "FFRF":
            def build(ctx):
                return component.output(ctx, variable)
        else:
            def build(ctx):
                return component.output(ctx, variable, point)
        return self._evaluate(("GetObjectOutputBody", int(objectNumber), variable, point), build, configuration)

    def GetObjectOutputSuperElement(self, objectNumber, variableType, meshNodeNumber,
                                    configuration=ConfigurationType.Current):
        """An output variable of one mesh node (0-based mesh node number) of an ObjectFFRF(reducedOrder) or of an
        ObjectGenericODE2 (there the output of that node, which the node must have)."""
        _, component, variable = self._output("GetObjectOutputSuperElement", "object", objectNumber, variableType,
                                              configuration)
        component.check_mesh_node(int(meshNodeNumber), component)
        if variable not in component.mesh_outputs:
            raise ExudynLayerError(f"GetObjectOutputSuperElement: mesh node {meshNodeNumber} of {component.label} has "
                                   f"no output variable '{variable}' (its nodes have {list(component.mesh_outputs)})")
        return self._evaluate(("GetObjectOutputSuperElement", int(objectNumber), variable, int(meshNodeNumber)),
                              lambda ctx: component.mesh_node_output(ctx, int(meshNodeNumber), variable),
                              configuration)

    def GetSensorStoredData(self, sensorNumber) -> np.ndarray:
        """Stored sensor values of the last solve, one row per stored step: [t, values...]."""
        self.item("sensor", sensorNumber, "GetSensorStoredData", "sensorNumber")
        if int(sensorNumber) not in self._sensor_data:
            raise ExudynLayerError(f"GetSensorStoredData: sensor {sensorNumber} has no data yet; call "
                                   f"SolveDynamic first")
        return self._sensor_data[int(sensorNumber)].copy()

    def GetSensorValues(self, sensorNumber, configuration=ConfigurationType.Current):
        """Current value of a sensor (as Exudyn: the output it records)."""
        item = self.item("sensor", sensorNumber, "GetSensorValues", "sensorNumber")
        recorded = getattr(self, "_recorded_sensors", None)
        if recorded is not None and int(sensorNumber) in recorded:    # inside a SensorUserFunction's evaluation
            values = recorded[int(sensorNumber)]
            return values[0] if values.size == 1 else values.copy()
        self._require_assembled("GetSensorValues")
        if item.type_string == "UserFunction":
            values = np.asarray(item.sensorUserFunction(self, float(self.state(
                member_name(configuration, ConfigurationType, "GetSensorValues", "configuration"))[0]),
                list(item.sensorNumbers), list(item.factors), configuration), dtype=float).reshape(-1)
            return values[0] if values.size == 1 else values
        component = self._core.sensors[int(sensorNumber)]
        return self._evaluate(("GetSensorValues", int(sensorNumber), item.type_string),
                              component.expression, configuration)

    # --- solving ----------------------------------------------------------------------------------
    def SolveDynamic(self, simulationSettings=None, **keywords) -> bool:
        """``mbs.SolveDynamic(settings)``, the same as ``exu.SolveDynamic(mbs, settings)``."""
        return _solve.SolveDynamic(self, simulationSettings, **keywords)

    def SetPreStepUserFunction(self, function):
        """Call function(mbs, t) before each step of SolveDynamic, t being the step's end time and the
        outputs those at its start; when it returns False the solve ends after that step (as Exudyn).
        0 or None removes it."""
        self._pre_step_function = checked_function("_pre_step_function", function)

    def GetPreStepUserFunction(self, asDict=False):
        """The pre-step function as exudyn 1.13.6 gives it, whatever ``asDict``: {'function': f, 'type': 'Python'},
        or 0 when none is set (the same for the other Get...UserFunction)."""
        return as_exudyn_value(self._pre_step_function)

    def SetPostStepUserFunction(self, function):
        """Call function(mbs, t) -> bool with the initial state and after each step of SolveDynamic, before the
        state is stored; it may set the Current coordinates (systemData.SetODE2Coordinates, ...), from which the
        next step starts; False ends the solve after that step. 0 or None removes it (``_step_functions``)."""
        self._post_step_function = checked_function("_post_step_function", function)

    def GetPostStepUserFunction(self, asDict=False):
        """The post-step function: {'function': f, 'type': 'Python'}, or 0 (see GetPreStepUserFunction)."""
        return as_exudyn_value(self._post_step_function)

    def SetPreNewtonResidualUserFunction(self, function):
        """Call function(mbs, t, newtonIt, discontinuousIt) before each Newton residual of an implicit step, the
        Current state the Newton iterate (newtonIt 0: the step's start); it returns nothing and may change item
        parameters, e.g. loads. 0 or None removes it (``_step_functions``)."""
        self._pre_newton_residual_function = checked_function("_pre_newton_residual_function", function)

    def GetPreNewtonResidualUserFunction(self, asDict=False):
        """The pre-Newton residual function: {'function': f, 'type': 'Python'}, or 0 (see GetPreStepUserFunction)."""
        return as_exudyn_value(self._pre_newton_residual_function)

    def SetSystemJacobianUserFunction(self, function):
        """Call function(mbs, t, factorODE2, factorODE2_t, factorODE1) -> MatrixContainer (sparse, at ODE2
        indices) at each new iteration matrix of an implicit step; its entries are added to Exudyn's Jacobian
        (right-hand-side convention: a spring k added by a pre-Newton function gives -k factorODE2). 0 or None
        removes it (``_step_functions``)."""
        self._system_jacobian_function = checked_function("_system_jacobian_function", function)

    def GetSystemJacobianUserFunction(self, asDict=False):
        """The system Jacobian function: {'function': f, 'type': 'Python'}, or 0 (see GetPreStepUserFunction)."""
        return as_exudyn_value(self._system_jacobian_function)

    def SetPostNewtonUserFunction(self, function):
        """Call function(mbs, t) -> [error, recommendedStepSize] after each Newton solve of SolveDynamic's implicit
        schemes, the outputs those of the solved state: it may switch data coordinates (systemData.SetDataCoordinates),
        and an error above discontinuous.iterationTolerance solves the step again, or retakes it smaller
        (recommendedStepSize >= 0), as in Exudyn (``floatframe.solvers.switching``). 0 or None removes it."""
        self._post_newton_function = checked_function("_post_newton_function", function)

    def GetPostNewtonUserFunction(self, asDict=False):
        """The post-Newton function: {'function': f, 'type': 'Python'}, or 0 (see GetPreStepUserFunction)."""
        return as_exudyn_value(self._post_newton_function)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name in ("WaitForUserToContinue", "SendRedrawSignal", "DrawSystemGraph", "SolutionViewer"):
            return renderer_call(f"mbs.{name}")
        supported = [n for n in dir(type(self)) if not n.startswith("_")]
        raise UnknownNameError(str(unknown("MainSystem function", name, supported, "floatframe.exudyn"))
                               + out_of_scope(name))

    def __repr__(self):
        counts = ", ".join(f"{len(v)} {k}s" for k, v in self._items.items())
        return f"MainSystem({counts})"


