"""What every subcommand of the command line shares: the names of the ready models (from the one table,
``floatframe.models.registry``), the help format and the
argument types (an ``argparse.ArgumentTypeError`` becomes a usage error with exit status 2). The subcommands
(``floatframe.cli``, ``floatframe.compare``, ``floatframe.ocp``, ``floatframe.pictures.cli``,
``floatframe.study.command``) import these from here, and ``floatframe.cli`` imports the subcommands."""
from __future__ import annotations

import argparse
import difflib
import math
from pathlib import Path

from floatframe.models.registry import descriptions, model_names

MODELS = descriptions("run") | descriptions("compare")   # name -> description (floatframe.models.registry)
MECHANISMS = model_names("run", kind="mechanism")
RUN_MODELS = model_names("run")
HELP_FORMAT = argparse.ArgumentDefaultsHelpFormatter


# --- argument types shared by the subcommands (an ArgumentTypeError becomes a usage error) -------
def number(convert, accept, description: str):
    """An argument type: ``convert(text)`` (int or float) that ``accept(value)`` must hold for."""
    def parse(text: str):
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {description}, got '{text}'") from None
        if not accept(value):
            raise argparse.ArgumentTypeError(f"must be {description}, got {text}")
        return value
    return parse


positive_int = number(int, lambda value: value >= 1, "a positive integer")
positive_float = number(float, lambda value: 0 < value < math.inf, "a positive number")
non_negative_float = number(float, lambda value: 0 <= value < math.inf, "a number >= 0")
finite_float = number(float, math.isfinite, "a finite number")


def comma_list(item_type):
    """An argument type: comma-separated values, each converted (and checked) by ``item_type``."""
    def convert(text: str) -> list:
        items = [item.strip() for item in text.split(",") if item.strip()]
        if not items:
            raise argparse.ArgumentTypeError(f"must be a comma-separated list, got '{text}'")
        return [item_type(item) for item in items]
    return convert


def one_of(names, what: str, files: bool = False):
    """An argument type: one of ``names`` (or, with ``files``, an existing file); else an error that
    names the closest one (the hyphenated name for an underscore spelling)."""
    def convert(text: str) -> str:
        if text in names or (files and Path(text).is_file()):
            return text
        hyphenated = text.replace("_", "-")
        close = [hyphenated] if hyphenated in names else difflib.get_close_matches(text, names, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        choices = ", ".join(names) + (" or a Python file that defines build()" if files else "")
        raise argparse.ArgumentTypeError(f"unknown {what} '{text}'{hint} (choose from {choices})")
    return convert
