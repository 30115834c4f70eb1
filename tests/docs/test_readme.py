"""Claims about the README's Use example: it runs as printed and prints the output the README shows (a result
that moves: the shaft end pushed along x moves along x)."""
import contextlib
import io
import re
from pathlib import Path

import numpy as np

README = Path(__file__).resolve().parents[2] / "README.md"


def use_section() -> str:
    text = README.read_text()
    return text[text.index("## Use"):text.index("\n## ", text.index("## Use") + 1)]


def test_the_use_example_prints_the_output_the_readme_shows():
    section = use_section()
    code = re.search(r"```python\n(.*?)```", section, flags=re.DOTALL).group(1)
    shown = re.search(r"prints.*?```\n(.*?)```", section, flags=re.DOTALL).group(1)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    values, expected = (np.array([float(x) for x in re.findall(r"[-+0-9.e]+", text)])
                        for text in (printed.getvalue(), shown))
    assert values.shape == expected.shape == (3,)
    np.testing.assert_allclose(values, expected, rtol=0, atol=1e-8)   # the README prints 8 significant digits
    assert values[0] > 0 and values[0] == np.abs(values).max()          # it moves most along the push
