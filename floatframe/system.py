"""Moved to ``floatframe.assembly`` (System: ``floatframe.assembly.builder``, AssembledSystem:
``floatframe.assembly.assembled``); the old names import from here with a DeprecationWarning."""
from floatframe.assembly.moved import moved_names

__getattr__ = moved_names("floatframe.system", {
    "System": "floatframe.assembly.builder", "FAMILIES": "floatframe.assembly.builder",
    "AssembledSystem": "floatframe.assembly.assembled",
    "SPIN_CHECK_MAX_COORDINATES": "floatframe.assembly.assembled",
    "RedundantConstraintsWarning": "floatframe.assembly.redundancy",
    "REDUNDANCY_TOLERANCE": "floatframe.assembly.redundancy",
    "dependent_constraint_rows": "floatframe.assembly.redundancy",
    "redundant_constraints": "floatframe.assembly.redundancy",
    "index2_form": "floatframe.assembly.forms", "reaction_forces": "floatframe.assembly.forms"})
