"""Exudyn's explicit solverTypes mapped onto floatframe's explicit schemes (``floatframe.solvers.explicit``).

- ExplicitEuler, ExplicitMidpoint, RK33, RK44, RK67: the same Butcher tableaux with fixed steps
  (endTime - startTime) / numberOfSteps; ``timeIntegration.explicit.computeEndOfStepAccelerations`` chooses the
  stored accelerations (the end state's, or the last stage's);
- ODE23, DOPRI5 (and DVERK6, which Exudyn 1.13.6 lists but refuses as not implemented): the embedded pairs with
  Exudyn's step control (``step_control="exudyn"``: its error norm, step rule and output times, see
  ``floatframe.solvers.explicit_adaptive``), ``timeIntegration.automaticStepSize`` (False: fixed steps),
  relativeTolerance, absoluteTolerance, stepSizeSafety, stepSizeMaxIncrease, initialStepSize (0: the largest
  step), minimumStepSize, and (endTime - startTime) / numberOfSteps as the largest step;
- VelocityVerlet: Exudyn's form (``floatframe.solvers.explicit.VelocityVerlet``).

``timeIntegration.explicit.eliminateConstraints`` True eliminates CoordinateConstraints to the ground and
refuses other constraints (Exudyn refuses them too); False integrates as if there were no constraints.
``useLieGroupIntegration`` integrates the rotation vectors of NodeRigidBodyRotVecLG on the rotation group
(``floatframe.exudyn._lie_group_explicit``; False: as coordinates with their rates);
``computeMassMatrixInversePerBody`` and ``reuseConstantMassMatrix`` change how M is inverted, not a.
"""
from __future__ import annotations

import numpy as np

from floatframe.exudyn._lie_group_explicit import (LIE_GROUP_EMBEDDED, LIE_GROUP_FIXED_STEP, lie_group_nodes,
                                                  refuse_velocity_verlet)
from floatframe.solvers.explicit import RK33, RK44, RK67, ExplicitEuler, ExplicitMidpoint, VelocityVerlet
from floatframe.solvers.explicit_adaptive import DOPRI5, DVERK6, ODE23

FIXED_STEP = {"ExplicitEuler": ExplicitEuler, "ExplicitMidpoint": ExplicitMidpoint, "RK33": RK33, "RK44": RK44,
              "RK67": RK67}
EMBEDDED = {"ODE23": ODE23, "DOPRI5": DOPRI5, "DVERK6": DVERK6}
EXPLICIT = (*FIXED_STEP, *EMBEDDED, "VelocityVerlet")


def explicit_solver(settings, solver_type: str, mbs=None):
    """floatframe's scheme for Exudyn's explicit ``solver_type`` with the settings' parameters."""
    explicit = "timeIntegration.explicit."
    rows, references = lie_group_nodes(mbs.GetFloatframeSystem()) if mbs is not None and settings.get(
        explicit + "useLieGroupIntegration") else ([], [])
    scheme = _scheme(settings, solver_type, rows)
    if len(rows):
        scheme.set_lie_group_nodes(rows, references)
    return scheme


def _scheme(settings, solver_type: str, lie_group_rows):
    explicit = "timeIntegration.explicit."
    fixed_step, embedded = (LIE_GROUP_FIXED_STEP, LIE_GROUP_EMBEDDED) if len(lie_group_rows) else (FIXED_STEP,
                                                                                                   EMBEDDED)
    constraints = "eliminate" if settings.get(explicit + "eliminateConstraints") else "ignore"
    end_accelerations = bool(settings.get(explicit + "computeEndOfStepAccelerations"))
    if solver_type == "VelocityVerlet":
        refuse_velocity_verlet(lie_group_rows)
        return VelocityVerlet(constraints=constraints)
    if solver_type in FIXED_STEP:
        return fixed_step[solver_type](end_accelerations=end_accelerations, constraints=constraints)
    get = settings.get
    step = (float(get("timeIntegration.endTime")) - float(get("timeIntegration.startTime"))) / \
        float(get("timeIntegration.numberOfSteps"))
    first = float(get("timeIntegration.initialStepSize"))
    return embedded[solver_type](
        rtol=_relative_tolerance(float(get("timeIntegration.relativeTolerance"))),
        atol=float(get("timeIntegration.absoluteTolerance")),
        automatic_step_size=bool(get("timeIntegration.automaticStepSize")), first_step=first if first > 0 else None,
        max_step=step, min_step=float(get("timeIntegration.minimumStepSize")),
        safety=float(get("timeIntegration.stepSizeSafety")),
        max_increase=float(get("timeIntegration.stepSizeMaxIncrease")), end_accelerations=end_accelerations,
        constraints=constraints, step_control="exudyn")


def _relative_tolerance(relative: float) -> float:
    """Exudyn's relativeTolerance; its 0 (the error scaled by absoluteTolerance alone) as the smallest normal float,
    whose product with any state is below half an ulp of absoluteTolerance (floatframe's pairs take rtol > 0)."""
    return relative if relative != 0 else float(np.finfo(float).tiny)
