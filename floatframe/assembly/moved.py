"""The old module names of the assembly layer (``floatframe.system``, ``floatframe.system_functions``,
``floatframe.user_function_terms``) still import, with a DeprecationWarning naming each name's new module."""
import importlib
import warnings


def moved_names(old: str, names: dict):
    """A module ``__getattr__`` for the old module ``old`` whose ``names`` (name -> new module) moved."""
    def __getattr__(name):
        if name not in names:
            raise AttributeError(f"module {old!r} has no attribute {name!r}")
        warnings.warn(f"{old}.{name} moved to {names[name]}; import it from there (System and AssembledSystem "
                      f"also from floatframe)", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(names[name]), name)
    return __getattr__
