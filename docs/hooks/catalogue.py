"""MkDocs hook: the component catalogue page, generated from the code at every build.

The page ``catalogue.md`` is not a file in ``docs/``: :func:`floatframe.catalogue.catalogue_markdown` writes
it from the component classes when the site is built, so it always describes the code being documented.
"""
from mkdocs.structure.files import File

from floatframe.catalogue import catalogue_markdown


def on_files(files, config):
    """Add the generated catalogue page to the site's files."""
    files.append(File.generated(config, "catalogue.md", content=catalogue_markdown()))
    return files
