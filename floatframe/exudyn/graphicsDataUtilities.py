"""Exudyn's ``graphicsDataUtilities`` names scripts use: ``color4red``, ``color4lightred``, ... and ``color4list``."""
from floatframe.exudyn.graphics import color, colorList

globals().update({f"color4{name}": value for name, value in vars(color).items() if not name.startswith("_")})
color4list = colorList
__all__ = [name for name in globals() if name.startswith("color4")]
