"""Solvers: each takes an AssembledSystem and returns a SimulationResult."""
from floatframe.solvers.genalpha import GeneralizedAlpha
from floatframe.solvers.idas import IDAS
from floatframe.solvers.newmark import Newmark, Trapezoidal
from floatframe.solvers.result import SimulationResult, SolverError, SolverStatistics

__all__ = ["GeneralizedAlpha", "IDAS", "Newmark", "Trapezoidal", "SimulationResult", "SolverError", "SolverStatistics"]
