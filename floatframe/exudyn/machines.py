"""Exudyn's ``exudyn.machines`` (ball bearings and other machine elements built on contact) is outside floatframe's scope:
importing it raises an ExudynLayerError that names the scope (docs/exudyn.md, "Out of scope"), so that a script
stops with a refusal, not a ModuleNotFoundError."""
from floatframe.exudyn._names import ExudynLayerError, out_of_scope

raise ExudynLayerError("floatframe.exudyn does not support exudyn.machines" + out_of_scope("machines"))
