"""Exudyn's ``exudyn.robotics.rosInterface`` (the ROS interface) is not part of floatframe.exudyn: importing it raises
an ExudynLayerError that says what floatframe.exudyn.robotics covers."""
from floatframe.exudyn.robotics.roboticsCore import refuse_submodule

refuse_submodule("rosInterface", "the ROS interface")
