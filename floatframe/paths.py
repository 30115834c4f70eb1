"""Output paths, checked before the work: every command and function that writes files checks its paths first,
so that a place it cannot write is an error at once (naming the path and the cause), not after a long solve.

:func:`check_output_file` and :func:`check_output_folder` raise :class:`OutputPathError` (an OSError) when

- a path lies under a regular file (``results.csv/run.npz``),
- a file is wanted where a folder exists, or a folder where a file exists,
- no file can be created in the deepest existing folder on the way (no write permission, a read-only file system),
- an existing file cannot be opened for writing.

Nothing is created: the folder is probed with a temporary file that leaves no trace. The command line takes the
same checks as argument types (:func:`output_file_argument`, :func:`output_folder_argument`), so an unwritable
path is a usage error (exit status 2) before any model is built.
"""
from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path


class OutputPathError(OSError):
    """An output path that cannot be written; the message names the path and the cause."""


def _deepest_existing(path: Path) -> Path:
    """``path`` itself or its nearest ancestor that exists (``.`` for a relative path with none)."""
    for candidate in (path, *path.parents):
        try:
            if candidate.exists() or candidate.is_symlink():
                return candidate
        except OSError:  # not allowed to look inside its folder: an ancestor's check names the cause
            continue
    return Path(".")


def _folder_refuses_files(folder: Path) -> str | None:
    """Why no file can be created in the existing ``folder`` (the operating system's reason), or None."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return None
    except OSError as error:
        return error.strerror or str(error)


def unwritable_reason(path, folder: bool = False) -> str | None:
    """Why ``path`` cannot be written as a file (or, with ``folder``, as a folder to write files in), or None."""
    path = Path(path)
    existing = _deepest_existing(path)
    if existing == path:
        if folder and not path.is_dir():
            return "it is a file, not a folder"
        if not folder and path.is_dir():
            return "it is a folder; give a file name"
        if folder:
            reason = _folder_refuses_files(path)
            return None if reason is None else f"no file can be created in it ({reason})"
        try:
            with path.open("ab"):
                return None
        except OSError as error:
            return f"it cannot be opened for writing ({error.strerror or error})"
    if not existing.is_dir():
        return f"'{existing}' is a file, not a folder"
    reason = _folder_refuses_files(existing)
    return None if reason is None else f"no file or folder can be created in '{existing}' ({reason})"


def check_output_file(path, owner: str = "") -> Path:
    """``path`` as a Path if a file can be written there (its folders need not exist yet); else OutputPathError
    naming ``owner`` (the writing function or command), the path and the cause."""
    return _checked(Path(path), False, owner)


def check_output_folder(path, owner: str = "") -> Path:
    """``path`` as a Path if files can be written in that folder (it need not exist yet); else OutputPathError
    naming ``owner``, the path and the cause."""
    return _checked(Path(path), True, owner)


def _checked(path: Path, folder: bool, owner: str) -> Path:
    reason = unwritable_reason(path, folder)
    if reason is not None:
        prefix = f"{owner}: " if owner else ""
        raise OutputPathError(f"{prefix}cannot write {'in the folder' if folder else 'the file'} '{path}': {reason}")
    return path


def output_file_argument(suffix: str | None = None):
    """An argparse type: the text unchanged if a file can be written there; with ``suffix`` the file checked is the
    text with ``suffix`` appended where it does not end in it (as :func:`floatframe.export.save_result` writes)."""
    def convert(text: str) -> str:
        path = Path(text)
        if suffix is not None and path.suffix != suffix:
            path = path.with_name(path.name + suffix)
        try:
            check_output_file(path)
        except OutputPathError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        return text
    return convert


def output_folder_argument(text: str) -> str:
    """An argparse type: the text unchanged if files can be written in that folder."""
    try:
        check_output_folder(text)
    except OutputPathError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


__all__ = ["OutputPathError", "check_output_file", "check_output_folder", "output_file_argument",
           "output_folder_argument", "unwritable_reason"]
