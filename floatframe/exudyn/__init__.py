"""Exudyn-compatible scripting layer: run an Exudyn FFRF script on floatframe by changing its imports.

``import exudyn as exu`` becomes ``import floatframe.exudyn as exu`` (likewise ``exudyn.utilities``,
``exudyn.itemInterface``, ``exudyn.FEM``, ``exudyn.graphics``, ``exudyn.plot``,
``exudyn.rigidBodyUtilities``). The layer owns no physics: each item becomes one component of
:mod:`floatframe.components` and ``SolveDynamic`` runs floatframe's generalized-alpha.
``mbs.CreateRigidBody``, ``mbs.CreateGround`` and ``mbs.PlotSensor`` come from
:mod:`floatframe.exudyn.mainSystemExtensions`, attached to MainSystem on import. See
``docs/exudyn.md`` for what is supported and where results differ.
"""
from __future__ import annotations

import platform
import warnings

from floatframe.exudyn._items import ITEM_CLASSES, SHORT_NAMES, VISUALIZATION_CLASSES
from floatframe.exudyn import _items_rigid_extra  # noqa: F401  (registers its items in _items' tables)
from floatframe.exudyn import _items_lie_group  # noqa: F401  (registers NodeRigidBodyRotVecLG)
from floatframe.exudyn import _items_relative  # noqa: F401  (registers the relative markers of two bodies)
from floatframe.exudyn._main_solver import MainSolverImplicitSecondOrder
from floatframe.exudyn._matrix import (Matrix3DList, Matrix6DList, MatrixContainer, Vector2DList,  # noqa: F401
                                       Vector3DList, Vector6DList)
from floatframe.exudyn._names import (ConfigurationType, DynamicSolverType, ExudynLayerError, ItemType,
                                      LinearSolverType, OutputVariableType)
from floatframe.exudyn._settings import SimulationSettings, VisualizationSettings
from floatframe.exudyn._solve import SolveDynamic
from floatframe.exudyn._system import MainSystem, SystemContainer, renderer_call
from floatframe.exudyn import graphics, itemInterface, plot, rigidBodyUtilities, utilities  # noqa: F401
from floatframe.exudyn import symbolic  # noqa: F401  (exu.symbolic, as in Exudyn)
from floatframe.exudyn.mainSystemExtensions import NodeType
from floatframe.exudyn._unknown import module_getattr
from floatframe.exudyn._analysis import (ComputeLinearizedSystem, ComputeODE2Eigenvalues,  # also bound to MainSystem
                                        ComputeSystemDegreeOfFreedom, SolveStatic)

__version__ = "1.13.6-floatframe"

sys = {}   # Exudyn's exu.sys: a dictionary scripts keep their own state in (e.g. a renderer state)


def GetVersionString(addDetails: bool = False) -> str:
    """The layer's version; with ``addDetails`` as Exudyn: '<version>; Python<x.y.z>; <system> <machine> FLOAT64'."""
    if not addDetails:
        return __version__
    return f"{__version__}; Python{platform.python_version()}; {platform.system()} {platform.machine()} FLOAT64"


class config:
    """Exudyn's ``exu.config``: the version; output settings are accepted and kept (floatframe prints to the
    console)."""

    outputPrecision = 6
    printToConsole = True
    suppressWarnings = False

    @staticmethod
    def Version(addDetails: bool = False) -> str:
        """As GetVersionString (Exudyn's ``exu.config.Version(addDetails=False)``)."""
        return GetVersionString(addDetails)


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
           "GetVersionString", "SetWriteToConsole", "SetWriteToFile", "NodeType",
           "SolveStatic", "MainSolverImplicitSecondOrder", "ComputeODE2Eigenvalues", "ComputeLinearizedSystem", "ComputeSystemDegreeOfFreedom", "config",
           "sys"]

# Top-level names of exudyn 1.13.6 that floatframe.exudyn does not have (taken from dir(exudyn)).
EXUDYN_NAMES = [
    "AccessFunctionType", "BeamSection", "BeamSectionGeometry", "CSolverTimer", "ComputeItemType",
    "Config",
    "ContactTypeIndex", "CrossSectionType", "DiscontinuousSettings", "Experimental", "ExplicitIntegrationSettings",
    "ExplicitIntegrationSettingsDeprecated", "ExudynArithmeticError", "ExudynError", "ExudynIndexError",
    "ExudynTypeError", "ExudynValueError", "GeneralContact", "GeneralizedAlphaSettings", "GraphicsMaterialList",
    "HT", "Help", "InfoStat", "InspectType", "InternalError", "InvalidIndex", "JointPreCheckCalcBodyMarkers",
    "JointType", "KeyCode", "LinearSolverSettings", "LinearSolverSettingsDeprecated", "LoadIndex",
    "MainSolverExplicit", "MainSolverStatic", "MarkerIndex", "MarkerType",
    "Matrix3DList", "Matrix6DList", "ModelError", "NewtonSettings", "NodeGroup", "NodeIndex",
    "NotImplementedFeatureError", "NumericalDifferentiationSettings", "ObjectIndex", "ObjectType", "Parallel",
    "RealtimeSettings", "Renderer", "RequireVersion", "SensorIndex", "SetLinalgOutputFormatPython",
    "SetOutputPrecision", "SetPrintDelayMilliSeconds", "ShowSettings", "SolutionFileExportSettings",
    "SolutionFileSettings", "SolutionRestartSettings", "SolutionSensorsSettings", "SolutionSettings",
    "SolutionSettingsDeprecated", "SolverConvergenceData", "SolverError", "SolverFileData",
    "SolverIterationData", "SolverLocalData", "SolverOutputData", "SolverSuccess", "Special", "SpecialBeams",
    "SpecialDeprecations", "SpecialExceptions", "SpecialSolver", "SpecialUserInterface", "StaticSolverSettings",
    "SuppressWarnings", "SystemData", "TimeIntegrationSettings", "VSettingsBeams", "VSettingsBodies",
    "VSettingsCamera", "VSettingsConnectors", "VSettingsContact", "VSettingsContour", "VSettingsContourAdvanced",
    "VSettingsDialogs", "VSettingsExportImages", "VSettingsGeneral", "VSettingsInteractive",
    "VSettingsInteractiveAdvanced", "VSettingsKinematicTree", "VSettingsLight", "VSettingsLoads",
    "VSettingsMarkers", "VSettingsMaterial", "VSettingsNodes", "VSettingsOpenGL", "VSettingsOpenGLAdvanced",
    "VSettingsRaytracer", "VSettingsRaytracerAdvanced", "VSettingsScene", "VSettingsSensors", "VSettingsShells",
    "VSettingsTraces", "VSettingsView", "VSettingsWindow", "VSettingsWindowDeprecated", "Vector2DList",
    "Vector3DList", "Vector6DList", "VisuGeneralContact", "advancedUtilities", "basicUtilities", "demos",
    "experimental", "interactive", "misc", "solver", "special", "symbolic", "variables",
]


__getattr__ = module_getattr("floatframe.exudyn", [*__all__, *(c.__name__ for c in ITEM_CLASSES)], EXUDYN_NAMES)
