"""Exudyn's ``exudyn.robotics.models`` (Exudyn's robot model data (Puma560, UR5, Panda, ...)) is not part of
floatframe.exudyn: importing it raises an ExudynLayerError that says what floatframe.exudyn.robotics covers."""
from floatframe.exudyn.robotics.roboticsCore import refuse_submodule

refuse_submodule("models", "Exudyn's robot model data (Puma560, UR5, Panda, ...)")
