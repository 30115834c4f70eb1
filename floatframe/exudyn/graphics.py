"""Exudyn's ``graphics``: named colours, material colours and graphics-data constructors whose results are kept
only.

floatframe renders nothing; ``graphics.Sphere(...)``, ``graphics.Brick(...)`` and any other
constructor return a plain dict ``{'type': name, **arguments}`` so that a script's visualization
items can be stored and exported.
"""
from __future__ import annotations


class color:
    """Exudyn 1.13.6's named RGBA colours (4 floats in [0, 1]; ``default`` is Exudyn's 'no colour')."""

    red = [1.0, 0.0, 0.0, 1.0]
    green = [0.0, 1.0, 0.0, 1.0]
    blue = [0.0, 0.0, 1.0, 1.0]
    cyan = [0.0, 1.0, 1.0, 1.0]
    magenta = [1.0, 0.0, 1.0, 1.0]
    yellow = [1.0, 1.0, 0.0, 1.0]
    orange = [1.0, 0.5, 0.0, 1.0]
    pink = [1.0, 0.0, 0.5, 1.0]
    lawngreen = [0.5, 1.0, 0.0, 1.0]
    springgreen = [0.0, 1.0, 0.5, 1.0]
    violet = [0.5, 0.0, 1.0, 1.0]
    dodgerblue = [0.0, 0.5, 1.0, 1.0]
    lightred = [0.9, 0.4, 0.4, 1.0]
    lightgreen = [0.4, 0.9, 0.4, 1.0]
    steelblue = [0.4, 0.4, 0.9, 1.0]
    brown = [0.65, 0.2, 0.2, 1.0]
    black = [0.0, 0.0, 0.0, 1.0]
    darkgrey = [0.2, 0.2, 0.2, 1.0]
    darkgrey2 = [0.35, 0.35, 0.35, 1.0]
    grey = [0.5, 0.5, 0.5, 1.0]
    lightgrey = [0.7, 0.7, 0.7, 1.0]
    lightgrey2 = [0.85, 0.85, 0.85, 1.0]
    white = [1.0, 1.0, 1.0, 1.0]
    default = [-1.0, -1.0, -1.0, -1.0]
    defaultBody = [0.4, 0.4, 0.9, 1.0]
    defaultJoint = [0.6, 0.6, 0.8, 1.0]
    defaultFFRF = [0.0, 1.0, 0.0, 1.0]


class material:
    """Exudyn 1.13.6's material colours: ``indexX`` and ``X`` = [-1, -1, -1, indexX] (a colour whose alpha
    selects the renderer's material; kept, not rendered)."""

    indexBase = 1000
    indexDefault = 1000
    indexMatt = 1001
    indexSteel = 1002
    indexPlastic = 1003
    indexChrome = 1004
    indexShiny = 1005
    indexTransparent = 1006
    indexGlass = 1007
    indexMirror = 1008
    indexEmission = 1009
    default = [-1, -1, -1, indexDefault]
    matt = [-1, -1, -1, indexMatt]
    steel = [-1, -1, -1, indexSteel]
    plastic = [-1, -1, -1, indexPlastic]
    chrome = [-1, -1, -1, indexChrome]
    shiny = [-1, -1, -1, indexShiny]
    transparent = [-1, -1, -1, indexTransparent]
    glass = [-1, -1, -1, indexGlass]
    mirror = [-1, -1, -1, indexMirror]
    emission = [-1, -1, -1, indexEmission]


colorList = [color.red, color.green, color.blue, color.cyan, color.magenta, color.yellow, color.orange,
             color.pink, color.lawngreen, color.violet, color.springgreen, color.dodgerblue, color.grey,
             color.darkgrey, color.lightgrey, color.brown]


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
