"""Exudyn's ``exudyn.robotics`` (serial robots on kinematic trees, their motion and special models) is outside floatframe's scope:
importing it raises an ExudynLayerError that names the scope (docs/exudyn.md, "Out of scope"), so that a script
stops with a refusal, not a ModuleNotFoundError."""
from floatframe.exudyn._names import ExudynLayerError, out_of_scope

raise ExudynLayerError("floatframe.exudyn does not support exudyn.robotics" + out_of_scope("robotics"))
