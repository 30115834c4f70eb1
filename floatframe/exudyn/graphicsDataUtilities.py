"""Exudyn's ``graphicsDataUtilities`` names scripts use: ``color4red``, ``color4lightred``, ... and ``color4list``,
and the deprecated ``GraphicsDataRectangle`` and ``GraphicsDataOrthoCubeLines``, which return Exudyn 1.13.6's
line graphics dicts (kept, not rendered)."""
import warnings

import numpy as np

from floatframe.exudyn.graphics import color, colorList

globals().update({f"color4{name}": value for name, value in vars(color).items() if not name.startswith("_")})
color4list = colorList


def _deprecated(name: str, use: str):
    warnings.warn(f"graphicsDataUtilities.{name} is deprecated since 1.11.0 and removed in 2029; use {use} instead",
                  DeprecationWarning, stacklevel=3)


def GraphicsDataRectangle(xMin, yMin, xMax, yMax, color=[0.0, 0.0, 0.0, 1.0]) -> dict:
    """The outline of the rectangle [xMin, xMax] x [yMin, yMax] in the plane z = 0: Exudyn's dict
    {'type': 'Line', 'color', 'data': the five corners as rows of x, y, z}."""
    _deprecated("GraphicsDataRectangle", "graphics.Lines with the five corner points")
    corners = [xMin, yMin, 0, xMax, yMin, 0, xMax, yMax, 0, xMin, yMax, 0, xMin, yMin, 0]
    return {"type": "Line", "color": list(color), "data": np.array(corners).reshape((-1, 3))}


def GraphicsDataOrthoCubeLines(xMin, yMin, zMin, xMax, yMax, zMax, color=[0.0, 0.0, 0.0, 1.0]) -> dict:
    """The edges of the box [xMin, xMax] x [yMin, yMax] x [zMin, zMax] as one line: Exudyn's dict
    {'type': 'Line', 'color', 'data': 18 points as rows of x, y, z, in Exudyn's order}."""
    _deprecated("GraphicsDataOrthoCubeLines", "graphics.Brick(centerPoint, size, addFaces=False, addEdges=True)")
    points = [xMin, yMin, zMin, xMin, yMax, zMin, xMin, yMin, zMin, xMax, yMin, zMin, xMax, yMax, zMin,
              xMax, yMin, zMin, xMax, yMin, zMax, xMax, yMax, zMax, xMax, yMin, zMax, xMin, yMin, zMax,
              xMin, yMax, zMax, xMin, yMin, zMax, xMin, yMin, zMin, xMin, yMax, zMin, xMax, yMax, zMin,
              xMax, yMax, zMax, xMin, yMax, zMax, xMin, yMax, zMin]
    return {"type": "Line", "color": list(color), "data": np.array(points).reshape((-1, 3))}


__all__ = [name for name in globals() if name.startswith("color4")] + ["GraphicsDataRectangle",
                                                                        "GraphicsDataOrthoCubeLines"]
