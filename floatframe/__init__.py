"""floatframe: flexible multibody dynamics in the floating frame of reference formulation, on CasADi."""
from floatframe.components import *  # noqa: F401,F403
from floatframe.components import __all__ as _component_names
from floatframe.solvers import GeneralizedAlpha, SimulationResult, SolverError
from floatframe.system import AssembledSystem, System

__version__ = "0.1.0"
__all__ = [*_component_names, "System", "AssembledSystem", "GeneralizedAlpha", "SimulationResult", "SolverError"]
