"""Exudyn's ``exudyn.robotics.utilities`` (lidar sensors on general contact, URDF and Robotics Toolbox import) is not
part of floatframe.exudyn: importing it raises an ExudynLayerError that says what floatframe.exudyn.robotics covers."""
from floatframe.exudyn._names import out_of_scope
from floatframe.exudyn.robotics.roboticsCore import refuse_submodule

refuse_submodule("utilities",
                 "lidar sensors on general contact, URDF and Robotics Toolbox import",
                 out_of_scope("GeneralContact"))
