"""Moved to ``floatframe.assembly.user_function_terms``; the old name imports from here with a DeprecationWarning."""
from floatframe.assembly.moved import moved_names

__getattr__ = moved_names("floatframe.user_function_terms",
                          {"UserFunctionTerms": "floatframe.assembly.user_function_terms"})
