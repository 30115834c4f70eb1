"""Errors shared by the components, the assembly and the solvers."""
from __future__ import annotations


class ModelError(ValueError):
    """Bad input, found before any integration; the message names the component and the fault."""


class UserFunctionError(RuntimeError):
    """A Python user function raised, or returned a value of the wrong size or not finite, during a solve.

    ``component`` names the item (type and number) and ``function`` which of its user functions it was; the
    user function's own exception, if any, is chained as ``__cause__``. The solvers turn it into a
    SolverError that adds the time.
    """

    def __init__(self, message: str, component: str = "", function: str = ""):
        super().__init__(message)
        self.component, self.function = component, function
