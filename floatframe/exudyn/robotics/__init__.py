"""Exudyn's ``exudyn.robotics`` for serial robots in redundant coordinates (see :mod:`.roboticsCore`) and its
trajectories (:mod:`.motion`).

The kinematic tree (``Robot.CreateKinematicTree``, ``exudyn.JointType``) is outside floatframe's scope, and so are
the submodules ``special``, ``mobile``, ``utilities``, ``models``, ``future`` and ``rosInterface``: using them
raises an ExudynLayerError that names what floatframe.exudyn.robotics covers (docs/exudyn.md)."""
from floatframe.exudyn.robotics.roboticsCore import *  # noqa: F401,F403
from floatframe.exudyn.robotics.roboticsCore import __all__, __getattr__  # noqa: F401
