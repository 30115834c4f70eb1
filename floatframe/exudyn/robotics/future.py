"""Exudyn's ``exudyn.robotics.future`` (draft inverse kinematics) is not part of floatframe.exudyn: importing it raises
an ExudynLayerError that says what floatframe.exudyn.robotics covers."""
from floatframe.exudyn.robotics.roboticsCore import refuse_submodule

refuse_submodule("future", "draft inverse kinematics")
