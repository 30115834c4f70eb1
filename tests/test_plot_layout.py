"""Claims about every plot the commands write: no label, title or tick label is cut off at the figure's edge, and no
title or axis label overlaps another one or another axes' tick labels (each figure is checked as it is saved, by
the extents matplotlib draws it with)."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.figure  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from floatframe.cli import main  # noqa: E402

EDGE = 1.0   # [pixels] a text may touch the figure's edge by this much


def labels(axes):
    """The axes' title(s) and axis labels that are shown."""
    texts = [axes.title, axes._left_title, axes._right_title, axes.xaxis.label, axes.yaxis.label]
    return [text for text in texts if text.get_visible() and text.get_text().strip()]


def tick_labels(axes):
    """The tick labels that are drawn: those at major ticks within the view limits (matplotlib keeps labels of
    ticks beyond them, which it does not draw); none for 3D axes, whose ticks are placed in projection."""
    if axes.name == "3d":
        return []
    drawn = []
    for axis, (low, high) in ((axes.xaxis, axes.get_xlim()), (axes.yaxis, axes.get_ylim())):
        low, high = min(low, high), max(low, high)
        margin = 1e-9 * max(abs(low), abs(high), 1e-300)
        for location, text in zip(axis.get_majorticklocs(), axis.get_majorticklabels()):
            if low - margin <= location <= high + margin and text.get_visible() and text.get_text().strip():
                drawn.append(text)
    return drawn


def layout_faults(figure) -> list[str]:
    """What is cut off or overlapping in ``figure``, as drawn."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    frame = figure.bbox
    faults, named = [], []
    suptitle = getattr(figure, "_suptitle", None)
    if suptitle is not None and suptitle.get_text().strip():
        named.append((suptitle, None))
    for axes in figure.axes:
        named += [(text, axes) for text in labels(axes)]
        for text in tick_labels(axes) + [legend_text for legend in [axes.get_legend()] if legend is not None
                                         for legend_text in legend.get_texts()]:
            box = text.get_window_extent(renderer)
            if (box.x0 < frame.x0 - EDGE or box.y0 < frame.y0 - EDGE or box.x1 > frame.x1 + EDGE
                    or box.y1 > frame.y1 + EDGE):
                faults.append(f"'{text.get_text()}' cut off at the figure's edge")
    boxes = [(text, axes, text.get_window_extent(renderer)) for text, axes in named]
    for text, _, box in boxes:
        if (box.x0 < frame.x0 - EDGE or box.y0 < frame.y0 - EDGE or box.x1 > frame.x1 + EDGE
                or box.y1 > frame.y1 + EDGE):
            faults.append(f"'{text.get_text()}' cut off at the figure's edge")
    for i, (text, _, box) in enumerate(boxes):
        for other, _, other_box in boxes[i + 1:]:
            if box.overlaps(other_box):
                faults.append(f"'{text.get_text()}' overlaps '{other.get_text()}'")
        for axes in figure.axes:
            for tick in tick_labels(axes):
                if axes is not boxes[i][1] and box.overlaps(tick.get_window_extent(renderer)):
                    faults.append(f"'{text.get_text()}' overlaps the tick label '{tick.get_text()}' of other axes")
    return faults


@pytest.fixture
def saved_figures(monkeypatch):
    """Every figure saved during the test, checked for its layout as it is saved: the list of (path, faults). At
    matplotlib's default font size (the Exudyn layer's PlotSensor sets the global one, as exudyn does, for the
    rest of a session)."""
    saved = []
    original = matplotlib.figure.Figure.savefig

    def checked(figure, path, *arguments, **options):
        saved.append((str(path), layout_faults(figure)))
        return original(figure, path, *arguments, **options)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", checked)
    with matplotlib.rc_context({"font.size": matplotlib.rcParamsDefault["font.size"]}):
        yield saved


COMMANDS = {
    "rotor-disc": ["run", "rotor-disc", "--steps", "4"],
    "double-pendulum": ["run", "double-pendulum", "--steps", "20"],
    "compare": ["compare", "pendulum", "--solvers", "genalpha,idas", "--refinements", "1,2", "--tolerances",
                "1e-4,1e-6"],
    "modes": ["modes", "rotor-disc", "--count", "3"],
    "spin-up-beam": ["run", "spin-up-beam", "--spin", "4", "--step", "0.05"],
    "ocp-slew": ["ocp", "slew", "--steps", "10"],
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_plot_of_a_command_has_no_cut_off_or_overlapping_text(name, saved_figures, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = COMMANDS[name] + (["--output", str(tmp_path / "out")] if name != "modes" else
                             ["--output", str(tmp_path / "modes.png")])
    assert main(argv) == 0
    assert saved_figures, f"{name} saved no figure"
    for path, faults in saved_figures:
        assert not faults, f"{path}: {faults}"


def test_a_sensor_csv_plot_has_no_cut_off_or_overlapping_text(saved_figures, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["run", "double-pendulum", "--steps", "10", "--output", str(tmp_path / "out")]) == 0
    saved_figures.clear()
    assert main(["plot", str(tmp_path / "out" / "double_pendulum_tip.csv"), "--output", str(tmp_path / "tip.png")]) == 0
    assert saved_figures and not saved_figures[0][1], saved_figures


def test_the_check_finds_a_cut_off_title_and_overlapping_labels():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    figure = matplotlib.figure.Figure(figsize=(3, 2))
    FigureCanvasAgg(figure)
    top, bottom = figure.subplots(2, 1)
    top.set_xlabel("a long x label of the upper axes")
    bottom.set_title("the lower axes' title, long enough to leave the figure on both sides")
    bottom.plot(np.arange(3))
    faults = layout_faults(figure)
    assert any("cut off" in fault for fault in faults)
    assert any("overlaps" in fault for fault in faults)
