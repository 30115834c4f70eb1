"""Moved to ``floatframe.assembly.functions``; the old names import from here with a DeprecationWarning."""
from floatframe.assembly.moved import moved_names

__getattr__ = moved_names("floatframe.system_functions", {
    name: "floatframe.assembly.functions" for name in ("ITERATION_MATRICES", "Symbols", "SystemFunctions",
                                                       "sparse_jacobian")})
