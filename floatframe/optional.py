"""Optional dependencies (the pictures' imageio, the ngsolve mesh import, dask for compare on a cluster): a missing
one is an error that names the extra to install. The command line (:func:`floatframe.cli.main`) prints it as one
line on stderr and exits with status 1."""
from __future__ import annotations

import importlib


class MissingDependencyError(ImportError):
    """An optional package is not installed; the message says which extra installs it."""


def _install_hint(package: str) -> str:
    """``pip install PACKAGE``, quoted where the shell would read the brackets of an extra."""
    return f"pip install '{package}'" if "[" in package else f"pip install {package}"


def require(module: str, purpose: str, extra: str, package: str | None = None):
    """Import ``module`` or raise MissingDependencyError naming ``package`` (default: the module) and the extra."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        package = package or module
        raise MissingDependencyError(
            f"{purpose} needs the optional package '{package}', which is not installed; install floatframe's "
            f"'{extra}' extra: pip install 'floatframe[{extra}]' (or {_install_hint(package)})") from error


def missing_package(error: ImportError, purpose: str) -> MissingDependencyError:
    """The MissingDependencyError for an ImportError raised inside another library (e.g. meshio reading an HDF5
    based mesh without h5py): it names the missing package, which no floatframe extra installs."""
    package = (error.name or str(error)).split(".")[0]
    return MissingDependencyError(f"{purpose} needs the package '{package}', which is not installed: "
                                  f"{_install_hint(package)}")
