"""Exudyn's ``plot.PlotSensor`` (also ``mbs.PlotSensor``): sensor data as matplotlib curves.

A curve's source is a sensor number (its stored data, ``mbs.GetSensorStoredData``), a sensor file
name (Exudyn's format: ``#`` header, then ``time,values`` rows) or an array with the time in column 0.
Components count from 0 after the time column (-1 is the time, ``componentNorm`` the norm of all values).
"""
from __future__ import annotations

import inspect
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from floatframe.exudyn._names import ExudynLayerError, OutputVariableType, closest, member_name
from floatframe.exudyn._unknown import module_getattr

componentNorm = -2

_DEFAULTS = SimpleNamespace(xLabel="time (s)", yLabel=None, fontSize=16, colors=[], lineStyles=[], lineWidths=[],
                            markerStyles=[], markerSizes=[], markerDensity=0.08, majorTicksX=10, majorTicksY=10,
                            sizeInches=[6.4, 4.8])

_LINE_CODES = [colour + style for style in ("-", ":", "--", "-.") for colour in "rgbkcmy"]
_XYZ_VARIABLES = {"Force", "Torque", "Position", "Displacement", "Velocity", "Acceleration", "Rotation",
                  "AngularVelocity", "AngularAcceleration"}
_EXTRA_KEYWORDS = ("minorTicksXon", "minorTicksYon", "logScaleX", "logScaleY", "fileCommentChar", "fileDelimiterChar")


def PlotSensorDefaults() -> SimpleNamespace:
    """The defaults PlotSensor uses for arguments left at None (change them here once for all later plots)."""
    return _DEFAULTS


def PlotLineCode(index: int) -> str:
    """Matplotlib colour and line-style code of curve ``index`` ('r-', 'g-', ..., 28 codes, then 'k:')."""
    return _LINE_CODES[index] if index < len(_LINE_CODES) else "k:"


class _Curve:
    """One curve's data [t, values...], sensor name and output-variable name."""

    def __init__(self, mbs, source, number, keywords):
        if isinstance(source, np.ndarray):
            self.data, self.name, self.variable = source, "", ""
        elif isinstance(source, (str, Path)):
            self.data = np.loadtxt(source, comments=keywords.get("fileCommentChar", "#"),
                                   delimiter=keywords.get("fileDelimiterChar", ","), ndmin=2)
            self.name, self.variable = Path(source).stem, _file_variable(source)
        elif isinstance(source, (int, np.integer)) and not isinstance(source, bool):
            if mbs is None:
                raise ExudynLayerError(f"PlotSensor: sensor {source} needs the MainSystem (mbs.PlotSensor(...))")
            sensor = mbs.GetSensor(int(source))
            self.data = mbs.GetSensorStoredData(int(source))
            self.name = sensor["name"]
            self.variable = _sensor_variable(mbs, sensor)
        else:
            raise ExudynLayerError(f"PlotSensor: sensorNumbers[{number}] must be a sensor number, a file name or an "
                                   f"array, got {source!r}")
        if self.data.ndim != 2 or self.data.shape[1] < 2:
            raise ExudynLayerError(f"PlotSensor: data of sensorNumbers[{number}] must have rows [t, values...], "
                                   f"got shape {self.data.shape}")

    def column(self, component: int, number: int) -> np.ndarray:
        if component == componentNorm:   # row by row, as Exudyn: the axis form sums in another order (1 ulp)
            return np.array([np.linalg.norm(row) for row in self.data[:, 1:]])
        if not -1 <= component < self.data.shape[1] - 1:
            raise ExudynLayerError(f"PlotSensor: component {component} of sensorNumbers[{number}] does not exist "
                                   f"(the data has {self.data.shape[1] - 1} values after the time)")
        return self.data[:, component + 1]

    def label(self, component: int, use_xyz: bool) -> str:
        plain = self.variable.replace("Local", "")
        if use_xyz and 0 <= component < 3 and plain in _XYZ_VARIABLES:
            suffix = "XYZ"[component]
        elif use_xyz and 0 <= component < 6 and plain in ("Strain", "Stress"):
            suffix = ["XX", "YY", "ZZ", "YZ", "XZ", "XY"][component]
        else:
            suffix = str(component)
        return f"{self.name}, {self.variable}{suffix}"


def _sensor_variable(mbs, sensor: dict) -> str:
    """The variable name in a sensor's curve labels: its OutputVariableType; for a SensorLoad 'Force' or
    'Torque' (ForceVector, TorqueVector) or else 'Load'; for other sensors without one their sensorType."""
    if "outputVariableType" in sensor:
        return member_name(sensor["outputVariableType"], OutputVariableType, sensor["name"], "outputVariableType")
    if sensor.get("sensorType") == "Load":
        load_type = mbs.GetLoad(sensor["loadNumber"])["loadType"]
        return load_type.replace("Vector", "") if load_type in ("ForceVector", "TorqueVector") else "Load"
    return str(sensor.get("sensorType", ""))


def _file_variable(path) -> str:
    """The OutputVariableType named in a sensor file's header ('' if none)."""
    with open(path) as stream:
        for line in stream:
            if not line.startswith("#"):
                break
            if "OutputVariableType" in line and "=" in line:
                return line.split("=", 1)[1].strip().replace("OutputVariableType.", "")
    return ""


def _per_curve(value, count: int, what: str, scalar_types) -> list:
    """A setting given once for all curves or as a list of at least one entry per curve."""
    if isinstance(value, scalar_types):
        return [value] * count
    if isinstance(value, (list, tuple)) and len(value) >= count:
        return list(value)
    raise ExudynLayerError(f"PlotSensor: {what} must be a single value or a list with one entry per curve "
                           f"({count}), got {value!r}")


def _as_list(value) -> list:
    return list(value) if isinstance(value, (list, tuple, np.ndarray)) and not isinstance(value, str) else [value]


def PlotSensor(mbs, sensorNumbers=(), components=0, xLabel=None, yLabel=None, labels=(), colorCodeOffset=0,
               newFigure=True, closeAll=False, componentsX=(), title="", figureName="", fontSize=None, colors=None,
               lineStyles=None, lineWidths=None, markerStyles=None, markerSizes=None, markerDensity=None, rangeX=(),
               rangeY=(), majorTicksX=None, majorTicksY=None, offsets=(), factors=(), subPlot=(), sizeInches=None,
               fileName="", useXYZcomponents=True, legendArgs=None, **keywords) -> list:
    """Plot components of sensors over time (or over another component) with matplotlib.

    ``sensorNumbers``: one source or a list (sensor number, file name or array [t, values...]);
    ``components``: one component or one per source (a single source is repeated for a list of
    components); ``componentsX``: the x components (default time, -1); ``factors``, ``offsets``: plotted
    value factor * (value + offset); ``labels``: legend entries (default '<sensor name>, <variable><X|Y|Z|i>');
    ``yLabel`` None: the variable names; ``fileName``: save the figure (format from the extension).
    Further keywords: minorTicksXon, minorTicksYon, logScaleX, logScaleY, fileCommentChar,
    fileDelimiterChar. Returns [matplotlib.pyplot, figure, axes, lines of the last curve].
    """
    import matplotlib
    import matplotlib.pyplot as plt
    from matplotlib import ticker

    for key in keywords:
        if key not in _EXTRA_KEYWORDS:
            arguments = [*inspect.signature(PlotSensor).parameters, *_EXTRA_KEYWORDS]
            raise ExudynLayerError(f"PlotSensor: unknown argument '{key}'{closest(key, arguments)}")
    defaults = _DEFAULTS
    xLabel, fontSize = _pick(xLabel, defaults.xLabel), _pick(fontSize, defaults.fontSize)
    yLabel = _pick(yLabel, defaults.yLabel)
    colors, lineStyles = _pick(colors, defaults.colors), _pick(lineStyles, defaults.lineStyles)
    lineWidths, markerStyles = _pick(lineWidths, defaults.lineWidths), _pick(markerStyles, defaults.markerStyles)
    markerSizes, markerDensity = _pick(markerSizes, defaults.markerSizes), _pick(markerDensity, defaults.markerDensity)
    majorTicksX, majorTicksY = _pick(majorTicksX, defaults.majorTicksX), _pick(majorTicksY, defaults.majorTicksY)
    size = _pick(sizeInches, defaults.sizeInches)

    sources, component_list = _as_list(sensorNumbers), _as_list(components)
    if len(component_list) == 1 and len(sources) != 1:
        component_list *= len(sources)
    if len(sources) == 1 and len(component_list) != 1:
        sources *= len(component_list)
    if len(sources) != len(component_list):
        raise ExudynLayerError(f"PlotSensor: {len(sources)} sensorNumbers and {len(component_list)} components; give "
                               f"as many of each, or one of either")
    count = len(sources)
    x_components = [-1] * count if _empty(componentsX) else _per_curve(componentsX, count, "componentsX",
                                                                       (int, np.integer))
    factor_list = [1.0] * count if _empty(factors) else _per_curve(factors, count, "factors", (int, float))
    offset_list = [0.0] * count if _empty(offsets) else _per_curve(offsets, count, "offsets",
                                                                     (int, float, np.ndarray))
    curves = [_Curve(mbs, source, i, keywords) for i, source in enumerate(sources)]
    legend = [curve.label(c, useXYZcomponents) for curve, c in zip(curves, component_list)]
    if not _empty(labels):
        legend = [labels] if isinstance(labels, str) and count == 1 else _per_curve(labels, count, "labels", ())
    if yLabel is None:
        variables = [curve.variable for curve in curves]
        yLabel = variables[0] if len(set(variables)) == 1 else ", ".join(variables)

    if closeAll:
        plt.close("all")
    plt.rcParams.update({"font.size": fontSize})
    figure, axes, line = None, None, None
    if count:
        figure = _figure(plt, figureName, newFigure)
        if not _empty(subPlot):
            nx, ny, position = subPlot
            figure.add_subplot(ny, nx, position)
            figure.set_size_inches(nx * size[0], ny * size[1], forward=True)
        else:
            figure.set_size_inches(size[0], size[1], forward=True)
    for i, (curve, component) in enumerate(zip(curves, component_list)):
        x, y = curve.column(x_components[i], i), curve.column(component, i)
        offset = offset_list[i]
        if isinstance(offset, np.ndarray):
            if offset.shape != curve.data.shape or component == componentNorm:
                raise ExudynLayerError(f"PlotSensor: offsets[{i}] as an array must have the data's shape "
                                       f"{curve.data.shape} (and no componentNorm), got {offset.shape}")
            y = factor_list[i] * (y + offset[:, component + 1])
            if x_components[i] != -1:
                x = x + offset[:, x_components[i] + 1]
        else:
            y = factor_list[i] * (y + offset)
        line = plt.plot(x, y, **_style(i, count, colorCodeOffset, colors, lineStyles, lineWidths, markerStyles,
                                       markerSizes, markerDensity, len(x)), label=legend[i])
        axes = plt.gca()
    if count:
        _decorate(plt, ticker, axes, xLabel, yLabel, title, rangeX, rangeY, majorTicksX, majorTicksY, keywords)
        if legendArgs is None:
            figure.legend()
        elif isinstance(legendArgs, dict):
            figure.legend(**legendArgs)
        else:
            figure.legend(loc=legendArgs)
        figure.tight_layout()
        if matplotlib.get_backend().lower() != "agg":
            plt.show(block=False)
        if fileName:
            Path(fileName).parent.mkdir(parents=True, exist_ok=True)
            figure.savefig(fileName)
    return [plt, figure, axes, line]


def _pick(value, default):
    """The argument, or the default where it is None."""
    return default if value is None else value


def _empty(value) -> bool:
    return isinstance(value, (list, tuple)) and len(value) == 0


def _figure(plt, name, new):
    if name:
        if new and plt.fignum_exists(name):
            plt.close(name)
        return plt.figure(name)
    if new or not plt.get_fignums():
        return plt.figure()
    return plt.figure(plt.get_fignums()[-1])


def _style(i, count, offset, colors, line_styles, line_widths, marker_styles, marker_sizes, marker_density, n_points):
    """Keyword arguments of plt.plot for curve i."""
    code = PlotLineCode(i + offset)
    style = dict(color=code[0], linestyle=code[1:], linewidth=1, marker="", fillstyle="full", markersize=6,
                 markevery=None)
    if not _empty(line_styles):
        style["linestyle"] = _per_curve(line_styles, count, "lineStyles", (str,))[i]
    if not _empty(line_widths):
        style["linewidth"] = _per_curve(line_widths, count, "lineWidths", (int, float))[i]
    if not _empty(colors):
        style["color"] = _per_curve(colors, count, "colors", (str,))[i]
    if not _empty(marker_sizes):
        style["markersize"] = _per_curve(marker_sizes, count, "markerSizes", (int, float))[i]
    if not _empty(marker_styles):
        marker = _per_curve(marker_styles, count, "markerStyles", (str,))[i]
        style["fillstyle"] = "none" if " " in marker else "full"
        style["marker"] = marker.replace(" ", "")
        if isinstance(marker_density, int):
            style["markevery"] = int(1 + n_points / marker_density) if marker_density else None
        else:
            style["markevery"] = marker_density
    return style


def _decorate(plt, ticker, axes, x_label, y_label, title, range_x, range_y, ticks_x, ticks_y, keywords):
    plt.xlabel(x_label)
    plt.ylabel(y_label)
    axes.grid(True, "major", "both")
    axes.xaxis.set_major_locator(ticker.MaxNLocator(ticks_x))
    axes.yaxis.set_major_locator(ticker.MaxNLocator(ticks_y))
    if keywords.get("logScaleX"):
        plt.xscale("log")
    if keywords.get("logScaleY"):
        plt.yscale("log")
    if keywords.get("minorTicksXon"):
        axes.xaxis.set_minor_locator(ticker.AutoMinorLocator())
    if keywords.get("minorTicksYon"):
        axes.yaxis.set_minor_locator(ticker.AutoMinorLocator())
    if title:
        plt.title(title)
    for limits, setter, what in ((range_x, plt.xlim, "rangeX"), (range_y, plt.ylim, "rangeY")):
        if not _empty(limits):
            if len(limits) != 2:
                raise ExudynLayerError(f"PlotSensor: {what} must be [minimum, maximum], got {limits!r}")
            setter(limits)


__all__ = ["componentNorm", "PlotSensorDefaults", "PlotLineCode", "PlotSensor"]
__getattr__ = module_getattr("floatframe.exudyn.plot", __all__)
