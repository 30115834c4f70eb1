"""Exudyn's MainSolverImplicitSecondOrder for scripts that drive the steps themselves.

With ``SetUserFunctionNewton(mbs, f)``, ``SolveSystem`` takes the settings' numberOfSteps equal steps and calls
f(solver, mbs, simulationSettings) in place of each step's Newton iteration, with the Current configuration at
the step's start and its time at the step's end, StartOfStep the step's start (Exudyn's order); f moves the
state with ``mbs.systemData.Set...`` and returns True. What f may ask the solver: ``it`` (currentStepSize,
currentTime, currentStepIndex, startTime, endTime, numberOfSteps), GetODE2size, GetAEsize, ComputeODE2RHS and
GetSystemResidual (f(t, q, q_t) with M q_tt = f), ComputeMassMatrix and GetSystemMassMatrix (M), in Exudyn's
coordinates: the velocity coordinates of a NodeRigidBodyRotVecLG are its body-fixed angular velocity w, so with
v_t = P w (P = T(v)^-1 in its rotation rows, identity elsewhere) the model's M_v v_tt = f_v becomes

    (P^T M_v P) w_t = P^T (f_v - M_v (dP/dt) w),

evaluated at the rotation vector of the same rotation with angle <= pi. The sensors store every step of the
sensors' write period. Without a Newton user function ``SolveSystem`` is ``SolveDynamic`` with the settings.
"""
from __future__ import annotations

import numpy as np

from floatframe.exudyn import _solve
from floatframe.exudyn._items_ode1 import ode2_rows
from floatframe.exudyn._iteration import SolverIterationData, iteration_data
from floatframe.exudyn._lie_group_explicit import angular_velocities, lie_group_nodes, rate_of_rates, short_state
from floatframe.exudyn._names import ExudynLayerError
from floatframe.exudyn._post_newton import refuse_switching
from floatframe.exudyn._settings import SimulationSettings
from floatframe.exudyn.lieGroupBasics import TExpSO3Inv
from floatframe.solvers.loop import State, collect
from floatframe.solvers.result import SolverStatistics

OWNER = "MainSolverImplicitSecondOrder"


class MainSolverImplicitSecondOrder:
    """Exudyn's implicit second-order solver object (see the module): a Newton user function per step, and the
    system functions it needs."""

    def __init__(self):
        self.it = SolverIterationData()
        self._newton = None
        self._mbs = None
        self._residual = None
        self._mass = None
        self._evaluated = None

    def SetUserFunctionNewton(self, mainSystem, userFunction):
        """Call ``userFunction(solver, mainSystem, simulationSettings)`` in place of each step's Newton iteration."""
        if not callable(userFunction):
            raise ExudynLayerError(f"{OWNER}.SetUserFunctionNewton: the user function must be callable, got "
                                   f"{userFunction!r}")
        self._newton, self._mbs = userFunction, mainSystem

    # --- the system functions, in Exudyn's coordinates ---------------------------------------------------
    def _assembled(self, mainSystem, what):
        mainSystem._require_assembled(f"{OWNER}.{what}")
        return mainSystem._assembled

    def GetODE2size(self) -> int:
        return int(ode2_rows(self._require_system("GetODE2size")).size)

    def GetAEsize(self) -> int:
        return int(self._assembled(self._require_system("GetAEsize"), "GetAEsize").n_multipliers)

    def _require_system(self, what):
        if self._mbs is None:
            raise ExudynLayerError(f"{OWNER}.{what}: the solver has no system yet (SetUserFunctionNewton or "
                                   f"SolveSystem first)")
        return self._mbs

    def _evaluation_state(self, mainSystem, what):
        """(assembled, t, q, v, P, dP/dt w, M) of the Current configuration for the model's functions: Lie-group
        nodes at their rotation vectors of angle <= pi, v their rates there; M the model's mass matrix (dense).
        Kept while the Current state is the same (ComputeODE2RHS and ComputeMassMatrix of one state)."""
        assembled = self._assembled(mainSystem, what)
        current = mainSystem.state("Current")
        if self._evaluated is not None and self._evaluated[0] is current and self._evaluated[1] is assembled:
            return self._evaluated[1:]
        t, q, v = current[:3]
        rows, references = lie_group_nodes(mainSystem._core)
        projection = np.eye(q.size)
        correction = np.zeros(q.size)
        if len(rows):
            angular = angular_velocities(rows, references, q, v)
            q, v = short_state(rows, references, q, angular)
            for node_rows, reference in zip(rows, references):
                projection[np.ix_(node_rows, node_rows)] = TExpSO3Inv(reference + q[node_rows])
            correction = rate_of_rates(rows, references, q, v, angular)
        assembled.current_state = (t, q, v, np.zeros(q.size), np.zeros(assembled.n_multipliers))
        mass = assembled.mass_matrix(t, q, v).toarray()
        self._evaluated = (current, assembled, t, q, v, projection, correction, mass)
        return self._evaluated[1:]

    def ComputeODE2RHS(self, mainSystem):
        """f of M q_tt = f at the Current configuration (no constraint forces), kept for GetSystemResidual."""
        self._mbs = mainSystem
        assembled, t, q, v, projection, correction, mass = self._evaluation_state(mainSystem, "ComputeODE2RHS")
        force = -assembled.residual(t, q, v, np.zeros(q.size), np.zeros(assembled.n_multipliers)) - mass @ correction
        self._residual = (projection.T @ force)[ode2_rows(mainSystem)]

    def GetSystemResidual(self) -> np.ndarray:
        if self._residual is None:
            raise ExudynLayerError(f"{OWNER}.GetSystemResidual: call ComputeODE2RHS first")
        return self._residual.copy()

    def ComputeMassMatrix(self, mainSystem):
        """M at the Current configuration (dense), kept for GetSystemMassMatrix."""
        self._mbs = mainSystem
        _, _, _, _, projection, _, mass = self._evaluation_state(mainSystem, "ComputeMassMatrix")
        rows = ode2_rows(mainSystem)
        self._mass = (projection.T @ mass @ projection)[np.ix_(rows, rows)]

    def GetSystemMassMatrix(self) -> np.ndarray:
        if self._mass is None:
            raise ExudynLayerError(f"{OWNER}.GetSystemMassMatrix: call ComputeMassMatrix first")
        return self._mass.copy()

    # --- the solve ------------------------------------------------------------------------------------------
    def SolveSystem(self, mainSystem, simulationSettings=None) -> bool:
        """The steps of the settings with the Newton user function, or ``SolveDynamic`` without one."""
        settings = simulationSettings if simulationSettings is not None else SimulationSettings()
        self._mbs = mainSystem
        if self._newton is None:
            _solve.SolveDynamic(mainSystem, settings, storeSolver=False)
            self.it = iteration_data(mainSystem.GetSimulationResult(), _solve.solver_options(settings), False)
            return True
        _solve.assemble_if_needed(mainSystem, True, f"{OWNER}.SolveSystem")
        refuse_switching(mainSystem, f"{OWNER}.SolveSystem with a Newton user function")
        options = _solve.solver_options(settings)
        steps = int(options["steps"])
        start, end = options["start_time"], options["end_time"]
        h = (end - start) / steps
        store_every = max(1, int(round(options["sensor_period"] / h))) if options["sensor_period"] > 0 else 1
        t, q, v, a, lam = (np.copy(x) if isinstance(x, np.ndarray) else x for x in mainSystem.state("Initial"))
        mainSystem._state = (start, q, v, a, lam)
        stored = [State(start, q, v, a, a, lam)]
        self.it = SolverIterationData(startTime=start, endTime=end, numberOfSteps=steps, currentStepSize=h,
                                      currentTime=start, currentStepIndex=0, newtonStepsCount=0,
                                      rejectedAutomaticStepSizeSteps=0)
        for k in range(1, steps + 1):
            step_start = start + (k - 1) * h
            step_end = start + k * h
            mainSystem._configurations["StartOfStep"] = (step_start, *mainSystem._state[1:])
            mainSystem._state = (step_end, *mainSystem._state[1:])
            self.it.currentStepIndex, self.it.currentTime = k, step_end
            accepted = self._newton(self, mainSystem, settings)
            if not accepted:
                raise ExudynLayerError(f"{OWNER}.SolveSystem: the Newton user function returned {accepted!r} at "
                                       f"step {k} (t = {step_end:.6g} s); floatframe does not repeat a step")
            mainSystem._state = (step_end, *mainSystem._state[1:])
            if k % store_every == 0 or k == steps:
                _, q, v, a, lam = mainSystem._state
                stored.append(State(step_end, q.copy(), v.copy(), a.copy(), a.copy(), lam.copy()))
        self.it.currentStepIndex = steps + 1
        result = collect(mainSystem._assembled, stored, SolverStatistics(steps=steps), "Newton user function",
                         {"user_function": getattr(self._newton, "__name__", "")})
        _solve.store_result(mainSystem, result, options)
        return True
