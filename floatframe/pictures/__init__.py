"""Pictures of results: animations of the deformed body (GIF or MP4), mode-shape grids and sensor plots,
drawn with matplotlib (3D polygons, headless Agg) and written with imageio (docs/pictures.md).

Command line: ``floatframe animate RUN.npz``, ``floatframe modes MODEL``, ``floatframe plot RUN.npz``;
a run is saved by ``floatframe run rotor-disc --save RUN.npz`` (:func:`floatframe.export.save_result`).
"""
from .dependencies import MissingDependencyError, require
from .render import (COLORINGS, animate, auto_deformation_scale, draw_surface, frame_figure, mode_figure,
                     node_values, plot_sensor, read_sensor, sensor_figure, surface_of, write_mode_grid)

__all__ = [
    "COLORINGS",
    "MissingDependencyError",
    "animate",
    "auto_deformation_scale",
    "draw_surface",
    "frame_figure",
    "mode_figure",
    "node_values",
    "plot_sensor",
    "read_sensor",
    "require",
    "sensor_figure",
    "surface_of",
    "write_mode_grid",
]
