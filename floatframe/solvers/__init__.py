"""Solvers: each takes an AssembledSystem. The time integrators return a SimulationResult; the static
solver the static states, ``eigenmodes`` a ModalResult."""
from floatframe.solvers.explicit import RK33, RK44, RK67, ExplicitEuler, ExplicitMidpoint, VelocityVerlet
from floatframe.solvers.explicit_adaptive import DOPRI5, DVERK6, ODE23
from floatframe.solvers.genalpha import GeneralizedAlpha
from floatframe.solvers.genalpha_ggl import GeneralizedAlphaGGL
from floatframe.solvers.genalpha_lie import LieGroupGeneralizedAlpha
from floatframe.solvers.hht import HHTAlpha
from floatframe.solvers.idas import IDAS
from floatframe.solvers.modal import ModalResult, eigenmodes, linearize
from floatframe.solvers.newmark import Newmark, Trapezoidal
from floatframe.solvers.radau import AdaptiveRadauIIA, RadauIIA
from floatframe.solvers.result import SimulationResult, SolverError, SolverStatistics
from floatframe.solvers.static import StaticSolver

__all__ = ["GeneralizedAlpha", "GeneralizedAlphaGGL", "LieGroupGeneralizedAlpha", "HHTAlpha", "IDAS", "Newmark", "RadauIIA", "AdaptiveRadauIIA", "Trapezoidal", "StaticSolver", "eigenmodes", "linearize",
           "ModalResult", "SimulationResult", "SolverError", "SolverStatistics",
           "ExplicitEuler", "ExplicitMidpoint", "RK33", "RK44", "RK67", "VelocityVerlet", "ODE23", "DOPRI5", "DVERK6"]
