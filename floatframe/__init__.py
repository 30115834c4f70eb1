"""floatframe: flexible multibody dynamics in the floating frame of reference formulation, on CasADi.

The top level holds the components, ``System``, the solvers (``GeneralizedAlpha``, ``GeneralizedAlphaGGL``,
``HHTAlpha``, ``LieGroupGeneralizedAlpha``, ``RadauIIA``, ``AdaptiveRadauIIA``, ``IDAS``, ``Newmark``, ``Trapezoidal``, ``StaticSolver``, and
``eigenmodes`` for modal analysis), their result
and error types, and ``Parameter``, ``Input`` and
``InputSignal`` for symbolic parameters and input signals.
"""
from floatframe.components import *  # noqa: F401,F403
from floatframe.components import __all__ as _component_names
from floatframe.parameters import Input, InputSignal, Parameter
from floatframe.solvers import (IDAS, AdaptiveRadauIIA, GeneralizedAlpha, GeneralizedAlphaGGL, HHTAlpha,
                                LieGroupGeneralizedAlpha, Newmark, RadauIIA, SimulationResult, SolverError, SolverStatistics, StaticSolver, Trapezoidal,
                                eigenmodes)
from floatframe.assembly import AssembledSystem, System

__version__ = "0.8.0"  # the newest version in CHANGELOG.md
__all__ = [*_component_names, "System", "AssembledSystem", "GeneralizedAlpha", "GeneralizedAlphaGGL", "HHTAlpha",
           "LieGroupGeneralizedAlpha", "RadauIIA", "AdaptiveRadauIIA", "IDAS", "Newmark", "Trapezoidal", "StaticSolver", "eigenmodes", "SimulationResult", "SolverError", "SolverStatistics", "Parameter", "Input", "InputSignal"]
