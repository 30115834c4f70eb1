"""MkDocs hook: the component catalogue page, generated from the code at every build.

The page ``catalogue.md`` is not a file in ``docs/``: :func:`floatframe.catalogue.catalogue_markdown` writes
it from the component classes when the site is built, so it always describes the code being documented:
the package next to ``mkdocs.yml`` (as mkdocstrings reads it), not another installed copy.
"""
import sys
from pathlib import Path

from mkdocs.structure.files import File


def on_files(files, config):
    """Add the generated catalogue page to the site's files."""
    root = str(Path(config.config_file_path).resolve().parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    from floatframe.catalogue import catalogue_markdown

    files.append(File.generated(config, "catalogue.md", content=catalogue_markdown()))
    return files
