"""Errors for Exudyn names the layer does not have: module attributes, imports and placeholders."""
from __future__ import annotations

import dis
import sys

from floatframe.exudyn._names import ExudynLayerError, closest, out_of_scope


class UnknownNameError(ExudynLayerError, AttributeError):
    """``module.X`` for a name X the layer does not have (``hasattr`` gives False)."""


class UnknownNameImportError(ExudynLayerError, ImportError):
    """``from module import X`` for a name X the layer does not have."""


def suggestions(names) -> list:
    """The names to suggest for a misspelt one: visualization classes (V...) are never the closest match."""
    return [name for name in names if not (name[:1] == "V" and name[1:2].isupper())]


def missing_name(name: str, supported, module: str, exudyn_names=()) -> ExudynLayerError:
    """The error a module ``__getattr__`` raises for a name it does not have, naming the closest supported one.

    Python replaces an AttributeError raised during ``from module import X`` by its own ImportError,
    which drops the message; so when the caller's frame is at an IMPORT_FROM instruction the error is
    an ImportError. Otherwise it is an AttributeError, so ``hasattr`` and ``getattr(module, X, default)``
    behave as usual. Both are ExudynLayerErrors.
    """
    what = f"does not support exudyn's '{name}'" if name in exudyn_names else f"has no name '{name}'"
    message = f"{module} {what}{closest(name, suggestions(supported))}{out_of_scope(name)}"
    caller = sys._getframe(2)  # 0: here, 1: the module's __getattr__, 2: the code that asked for the name
    if caller.f_code.co_code[caller.f_lasti] == dis.opmap["IMPORT_FROM"]:
        return UnknownNameImportError(message)
    return UnknownNameError(message)


def module_getattr(module: str, supported, exudyn_names=()):
    """A module ``__getattr__`` (PEP 562) raising :func:`missing_name`; ``supported`` is read at call time."""
    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise missing_name(name, supported() if callable(supported) else supported, module, exudyn_names)
    return __getattr__


class Unsupported:
    """Placeholder for an Exudyn name the layer does not support: calling it, or using it in any other
    way (items, iteration, arithmetic, conversion), raises an ExudynLayerError naming it and the
    closest of the ``supported`` names."""

    def __init__(self, name: str, module: str, supported, scope_of: str | None = None):
        object.__setattr__(self, "_about", (name, module, suggestions(supported)))
        object.__setattr__(self, "_scope", out_of_scope(scope_of or name))

    def _refuse(self, *arguments, **keywords):
        name, module, supported = object.__getattribute__(self, "_about")
        raise ExudynLayerError(f"floatframe.exudyn does not support {module}.{name}{closest(name, supported)}"
                               f"{object.__getattribute__(self, '_scope')}")

    def __getattr__(self, attribute):
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        self._refuse()

    def __setattr__(self, attribute, value):
        self._refuse()

    def __repr__(self):
        return f"<unsupported exudyn name {object.__getattribute__(self, '_about')[0]}>"

    __call__ = __getitem__ = __setitem__ = __iter__ = __len__ = __bool__ = __float__ = __int__ = __index__ = _refuse
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __matmul__ = __rmatmul__ = _refuse
    __array__ = _refuse
