"""Optional dependencies (the pictures' imageio, the ngsolve mesh import): a missing one is an error that names
the extra to install."""
from __future__ import annotations

import importlib


class MissingDependencyError(ImportError):
    """An optional package is not installed; the message says which extra installs it."""


def require(module: str, purpose: str, extra: str, package: str | None = None):
    """Import ``module`` or raise MissingDependencyError naming ``package`` (default: the module) and the extra."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        package = package or module
        raise MissingDependencyError(
            f"{purpose} needs the optional package '{package}', which is not installed; install floatframe's "
            f"'{extra}' extra: pip install 'floatframe[{extra}]' (or pip install {package})") from error
