"""Solvers: each takes an AssembledSystem and returns a SimulationResult."""
from floatframe.solvers.genalpha import GeneralizedAlpha
from floatframe.solvers.result import SimulationResult, SolverError, SolverStatistics

__all__ = ["GeneralizedAlpha", "SimulationResult", "SolverError", "SolverStatistics"]
