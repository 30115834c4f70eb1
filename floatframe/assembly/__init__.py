"""The assembly layer: the builder (``System``), the assembled DAE (``AssembledSystem``, which implements the
DAE contract of ``floatframe.solvers.contract``), its CasADi functions, user-function terms, sparse patterns,
constraint forms, redundancy handling and the components' post-assembly checks.

Modules: ``builder`` (System), ``assembled`` (AssembledSystem), ``functions`` (SystemFunctions, Symbols),
``user_function_terms``, ``patterns`` (MatrixPatterns, csc_arrays), ``forms`` (reactions, index-2 form),
``redundancy`` (dependent constraint rows).
"""
from floatframe.assembly.assembled import AssembledSystem
from floatframe.assembly.builder import System
from floatframe.assembly.redundancy import RedundantConstraintsWarning

__all__ = ["AssembledSystem", "RedundantConstraintsWarning", "System"]
