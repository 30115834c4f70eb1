"""Exudyn's ``exudyn.robotics.mobile`` (mobile robots on rolling wheels) is not part of floatframe.exudyn: importing it
raises an ExudynLayerError that says what floatframe.exudyn.robotics covers."""
from floatframe.exudyn._names import out_of_scope
from floatframe.exudyn.robotics.roboticsCore import refuse_submodule

refuse_submodule("mobile",
                 "mobile robots on rolling wheels",
                 out_of_scope("RollingDisc"))
