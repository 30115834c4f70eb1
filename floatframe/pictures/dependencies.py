"""The pictures' optional packages (the ``pictures`` extra: imageio, imageio-ffmpeg)."""
from __future__ import annotations

from floatframe.optional import MissingDependencyError
from floatframe.optional import require as require_extra

EXTRA = "pictures"


def require(module: str, purpose: str, package: str | None = None):
    """Import ``module`` or raise MissingDependencyError naming ``package`` and the ``pictures`` extra."""
    return require_extra(module, purpose, EXTRA, package)


__all__ = ["EXTRA", "MissingDependencyError", "require"]
