"""Exudyn's ``graphics``: named colours and graphics-data constructors whose results are kept only.

floatframe renders nothing; ``graphics.Sphere(...)``, ``graphics.Brick(...)`` and any other
constructor return a plain dict ``{'type': name, **arguments}`` so that a script's visualization
items can be stored and exported.
"""
from __future__ import annotations


class color:
    """Named RGBA colours (4 floats in [0, 1])."""

    black = [0.0, 0.0, 0.0, 1.0]
    white = [1.0, 1.0, 1.0, 1.0]
    red = [1.0, 0.0, 0.0, 1.0]
    green = [0.0, 1.0, 0.0, 1.0]
    blue = [0.0, 0.0, 1.0, 1.0]
    yellow = [1.0, 1.0, 0.0, 1.0]
    cyan = [0.0, 1.0, 1.0, 1.0]
    magenta = [1.0, 0.0, 1.0, 1.0]
    orange = [1.0, 0.5, 0.0, 1.0]
    brown = [0.6, 0.3, 0.1, 1.0]
    lila = [0.7, 0.3, 0.9, 1.0]
    grey = [0.5, 0.5, 0.5, 1.0]
    gray = grey
    darkgrey = [0.25, 0.25, 0.25, 1.0]
    darkgrey2 = [0.35, 0.35, 0.35, 1.0]
    lightgrey = [0.75, 0.75, 0.75, 1.0]
    lightred = [0.9, 0.4, 0.4, 1.0]
    lightgreen = [0.4, 0.9, 0.4, 1.0]
    steelblue = [0.27, 0.51, 0.71, 1.0]
    dodgerblue = [0.12, 0.56, 1.0, 1.0]
    transparent = [0.0, 0.0, 0.0, 0.0]
    default = [-1.0, -1.0, -1.0, -1.0]
    defaultBody = [0.4, 0.4, 0.9, 1.0]


colorList = [color.red, color.green, color.blue, color.yellow, color.cyan, color.magenta, color.orange,
             color.brown, color.lila, color.grey, color.steelblue, color.dodgerblue, color.lightred,
             color.lightgreen, color.darkgrey, color.black]


def _constructor(name: str):
    def construct(*arguments, **keywords):
        return {"type": name, "arguments": list(arguments), **keywords}
    construct.__name__ = name
    construct.__doc__ = f"graphics.{name}: returns its arguments as a dict (kept, not rendered)."
    return construct


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _constructor(name)
