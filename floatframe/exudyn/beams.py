"""Exudyn's ``exudyn.beams``: generators of ANCF cables and beam elements. Beams as bodies are outside floatframe's
scope (docs/exudyn.md, "Out of scope"): ``from floatframe.exudyn.beams import *`` gives placeholders that refuse
to be used, naming the scope, so that a script stops at the line that needs them."""
from floatframe.exudyn._unknown import Unsupported, module_getattr

EXUDYN_NAMES = ["CreateReevingCurve", "GenerateAleSlidingJoint", "GenerateBeamElementsAlongLine",
                "GenerateCircularArcANCFCable2D", "GenerateSlidingJoint", "GenerateStraightBeam",
                "GenerateStraightLineANCFCable", "GenerateStraightLineANCFCable2D", "PointsAndSlopes2ANCFCable2D"]
globals().update({name: Unsupported(name, "exudyn.beams", [], scope_of="ObjectANCFCable") for name in EXUDYN_NAMES})
__all__ = list(EXUDYN_NAMES)
__getattr__ = module_getattr("floatframe.exudyn.beams", [], EXUDYN_NAMES)
