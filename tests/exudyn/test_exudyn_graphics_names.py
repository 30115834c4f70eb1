"""Graphics-only names of Exudyn's scripts: harmless, and what exudyn 1.13.6 returns (issue 28, item 3)."""
import warnings

import numpy as np
import pytest

import floatframe.exudyn.graphicsDataUtilities as ffgdu


@pytest.mark.exudyn
@pytest.mark.parametrize("name, arguments", [
    ("GraphicsDataRectangle", (-1.5, -2.0, 3.0, 4.5, [0.1, 0.1, 0.8, 1])),
    ("GraphicsDataRectangle", (0, 0, 1, 2)),
    ("GraphicsDataOrthoCubeLines", (-0.3, -0.1, -0.1, 0.3, 0.1, 0.2, [0.8, 0.1, 0.1, 1])),
    ("GraphicsDataOrthoCubeLines", (0, 0, 0, 1, 2, 3)),
])
def test_deprecated_graphics_data_functions_return_exudyns_dicts_and_warn_as_exudyn(name, arguments):
    exudyn_gdu = pytest.importorskip("exudyn.graphicsDataUtilities")
    with pytest.warns(DeprecationWarning, match=f"^graphicsDataUtilities.{name} is deprecated since 1.11.0 and "
                                                f"removed in 2029; use graphics."):
        ours = getattr(ffgdu, name)(*arguments)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # exudyn reports a deprecated function once per process
        theirs = getattr(exudyn_gdu, name)(*arguments)
    assert ours.keys() == theirs.keys() and ours["type"] == theirs["type"] == "Line"
    assert ours["color"] == theirs["color"]
    assert ours["data"].shape == theirs["data"].shape and np.array_equal(ours["data"], theirs["data"])


@pytest.mark.exudyn
def test_the_star_imports_give_the_graphics_data_names_where_exudyn_gives_them():
    """graphicsDataUtilities exports them, utilities does not (as in Exudyn 1.13.6)."""
    pytest.importorskip("exudyn")
    for module in ("graphicsDataUtilities", "utilities"):
        ours, theirs = {}, {}
        exec(f"from floatframe.exudyn.{module} import *", ours)
        exec(f"from exudyn.{module} import *", theirs)
        for name in ("GraphicsDataRectangle", "GraphicsDataOrthoCubeLines"):
            assert (name in ours) == (name in theirs), (module, name)
