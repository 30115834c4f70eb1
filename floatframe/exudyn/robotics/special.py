"""Exudyn's ``exudyn.robotics.special`` (manipulability measures) is not part of floatframe.exudyn: importing it raises
an ExudynLayerError that says what floatframe.exudyn.robotics covers."""
from floatframe.exudyn.robotics.roboticsCore import refuse_submodule

refuse_submodule("special", "manipulability measures")
