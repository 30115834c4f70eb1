"""Exudyn's ``exudyn.interactive``: its windows (mode animation, solution viewer, dialogs) need a renderer.

floatframe has none, so each function warns that the call is ignored and returns None, with Exudyn 1.13.6's
parameters (a misspelt keyword is still a TypeError). Scripts call them after the computation, to look at it.
"""
from __future__ import annotations

import warnings

from floatframe.exudyn._unknown import module_getattr


def _ignored(name: str):
    warnings.warn(f"interactive.{name}: floatframe has no renderer; the call is ignored", stacklevel=3)


def AnimateModes(systemContainer, mainSystem, nodeNumber, period=0.04, stepsPerPeriod=30, showTime=True,
                 renderWindowText="", runOnStart=False, runMode=0, scaleAmplitude=1, title="", fontSize=12,
                 checkRenderEngineStopFlag=True, systemEigenVectors=None):
    """Exudyn's mode animation window: ignored (no renderer)."""
    _ignored("AnimateModes")


def SolutionViewer(mainSystem, solution=None, rowIncrement=1, timeout=0.04, runOnStart=True, runMode=2,
                   fontSize=12, title="", checkRenderEngineStopFlag=True, windowSize=None):
    """Exudyn's solution player: ignored (no renderer)."""
    _ignored("SolutionViewer")


def InteractiveDialog(mbs, simulationSettings, simulationFunction, dialogItems, plots=None, period=0.04,
                      realtimeFactor=1, userStartSimulation=None, title="", showTime=False, fontSize=12,
                      doTimeIntegration=True, runOnStart=False, addLabelStringVariables=False,
                      addSliderVariables=False, checkRenderEngineStopFlag=True, userOnChange=None,
                      useSysVariables=False, windowSize=None):
    """Exudyn's Tk dialog with sliders around a running simulation: ignored (no renderer)."""
    _ignored("InteractiveDialog")


def ShowImage(systemContainer, size=[800, 600], modelRotation=None, zoomAll=True, show=True, fileName=""):  # noqa: B006
    """Exudyn's rendered image of the system: ignored (no renderer)."""
    _ignored("ShowImage")


SUPPORTED = ["AnimateModes", "SolutionViewer", "InteractiveDialog", "ShowImage"]
EXUDYN_NAMES = ["ConfigureDialogColumns", "ConvertImages2Video", "InteractiveImages2Video"]
__all__ = SUPPORTED
__getattr__ = module_getattr("floatframe.exudyn.interactive", SUPPORTED, EXUDYN_NAMES)
