"""Exudyn-compatible scripting layer: run an Exudyn FFRF script on floatframe by changing its imports.

``import exudyn as exu`` becomes ``import floatframe.exudyn as exu`` (likewise ``exudyn.utilities``,
``exudyn.itemInterface``, ``exudyn.FEM``, ``exudyn.graphics``). The layer owns no physics: each item
becomes one component of :mod:`floatframe.components` and ``SolveDynamic`` runs floatframe's
generalized-alpha. See ``docs/exudyn.md`` for what is supported and where results differ.
"""
from __future__ import annotations

import warnings

from floatframe.exudyn._items import ITEM_CLASSES, SHORT_NAMES, VISUALIZATION_CLASSES
from floatframe.exudyn._matrix import MatrixContainer
from floatframe.exudyn._names import (ConfigurationType, DynamicSolverType, ExudynLayerError, ItemType,
                                      LinearSolverType, OutputVariableType, unknown)
from floatframe.exudyn._settings import SimulationSettings, VisualizationSettings
from floatframe.exudyn._system import MainSystem, SystemContainer, SolveDynamic, renderer_call
from floatframe.exudyn._analysis import ComputeODE2Eigenvalues, SolveStatic  # also binds them to MainSystem

__version__ = "1.13.6-floatframe"


def GetVersionString(addDetails: bool = False) -> str:
    return __version__


def Print(*arguments, **keywords):
    """Exudyn's Print: prints to the console."""
    print(*arguments, **keywords)


def SetWriteToConsole(flag: bool):
    """Accepted; floatframe always prints to the console."""


def SetWriteToFile(filename: str = "", flagWriteToFile: bool = True, flagAppend: bool = False):
    warnings.warn("SetWriteToFile: console output is not copied to a file by floatframe", stacklevel=2)


StartRenderer = renderer_call("StartRenderer")
StopRenderer = renderer_call("StopRenderer")
DoRendererIdleTasks = renderer_call("DoRendererIdleTasks")


def IsRendererActive() -> bool:
    return False

globals().update({cls.__name__: cls for cls in ITEM_CLASSES})
globals().update(SHORT_NAMES)
globals().update(VISUALIZATION_CLASSES)

__all__ = ["SystemContainer", "MainSystem", "SolveDynamic", "SimulationSettings", "VisualizationSettings",
           "MatrixContainer", "OutputVariableType", "ConfigurationType", "DynamicSolverType", "LinearSolverType",
           "ItemType", "ExudynLayerError", "Print", "StartRenderer", "StopRenderer", "DoRendererIdleTasks",
           "GetVersionString", "SetWriteToConsole", "SetWriteToFile"]


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(str(unknown("name", name, [*__all__, *(c.__name__ for c in ITEM_CLASSES)],
                                     "floatframe.exudyn")))
