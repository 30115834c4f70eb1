"""Exudyn's ``exudyn.shells``: meshes and boundary conditions of ANCF thin plates. Beams and plates as bodies are
outside floatframe's scope (docs/exudyn.md, "Out of scope"): its names are placeholders that refuse to be used,
naming the scope."""
from floatframe.exudyn._unknown import Unsupported, module_getattr

EXUDYN_NAMES = ["AddClampToGround", "AddDistributedClampToEdge", "AddEdgeSpringDamper", "AddNodeConstraints",
                "AddRotationalSpringDamper", "AddSlopeConformityConstraints", "AddSphericalJointToGround",
                "ApplyEdgeLoad", "ShellMesh", "SurfaceMap"]
globals().update({name: Unsupported(name, "exudyn.shells", [], scope_of="ObjectANCFThinPlate")
                  for name in EXUDYN_NAMES})
__all__ = list(EXUDYN_NAMES)
__getattr__ = module_getattr("floatframe.exudyn.shells", [], EXUDYN_NAMES)
