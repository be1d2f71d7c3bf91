"""Compiled readings kept beside them, so that a new database of known readings reads none.

Opening a database that keeps no compiled state reads and compiles the readings, most of a
fresh start.  The tenant keeps what that gives, encoded as a database keeps its base state
(:mod:`arest.runtime.codec`), in ``.arest/<digest of the paths>.base`` in the readings'
folder, as CPython keeps bytecode in ``__pycache__``; the next database opened on the same
readings decodes it instead.  The file's first line is its key: the readings key (their
paths and texts, the bundled metamodel, arest's version, the codec) and the size and time of
each of arest's own source files, so that changed readings, a changed metamodel or a changed
compiler make it stale.  A stale, damaged or unreadable file is never used (the readings are
compiled and the file replaced), and a folder that cannot be written keeps none.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from arest.hashes import sha256

FOLDER = ".arest"
"""The folder beside the readings that holds their compiled state."""


SOURCE_SUFFIXES = (".py", ".lark", ".md", ".pickle", ".artifact")
"""The files of arest whose change makes a kept compiled state stale."""


@lru_cache(maxsize=1)
def sources_signature() -> str:
    """A digest of the path, size and modification time of each of arest's source files: it
    changes when the package is edited or another version installed (as ``.pyc`` files are
    checked against their source).  Held once per process: the package does not change
    under a running process.  The folders are listed with ``os.scandir``, about 2 ms where
    ``Path.rglob`` took about 7 (a path object per file, ``__pycache__`` included)."""
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    digest = sha256()
    for relative, size, modified in sorted(_source_files(package)):
        digest.update(f"{relative}\0{size}\0{modified}\0".encode())
    return digest.hexdigest()


def _source_files(package: str) -> list[tuple[str, int, int]]:
    """(path relative to the package, size, modification time in ns) of each source file
    under the package's folder, subfolders included."""
    found: list[tuple[str, int, int]] = []
    folders = [""]
    while folders:
        folder = folders.pop()
        with os.scandir(os.path.join(package, folder)) as entries:
            for entry in entries:
                relative = f"{folder}/{entry.name}" if folder else entry.name
                if entry.is_dir(follow_symlinks=False):
                    folders.append(relative)
                elif entry.name.endswith(SOURCE_SUFFIXES):
                    stat = entry.stat()
                    found.append((relative, stat.st_size, stat.st_mtime_ns))
    return found


def artifact_key(readings_key: str) -> str:
    """What a kept compiled state must have been made under to be used: the readings key and
    the signature of arest's sources (:func:`sources_signature`)."""
    return sha256(f"{readings_key}\0{sources_signature()}".encode()).hexdigest()


def artifact_path(sources: tuple[tuple[str, str], ...]) -> Path | None:
    """Where the compiled state of these readings is kept: in ``.arest`` in the first
    readings file's folder, named by a digest of every path (so that two sets of readings
    in one folder keep one file each); None for no readings.

    >>> artifact_path((("shop/orders.md", "Customer has Name."),)).parent.as_posix()
    'shop/.arest'
    >>> artifact_path(())
    """
    if not sources:
        return None
    name = sha256("\0".join(path for path, _ in sources).encode()).hexdigest()[:24]
    return Path(sources[0][0]).parent / FOLDER / f"{name}.base"


def kept_compiled(sources: tuple[tuple[str, str], ...], key: str) -> str | None:
    """The encoded compiled state kept for these readings under ``key``
    (:func:`artifact_key`), or None when none is, or one made under another key."""
    path = artifact_path(sources)
    if path is None:
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    first, _, state = text.partition("\n")
    return state if first == key and state else None


def keep_compiled(sources: tuple[tuple[str, str], ...], key: str, state: str) -> None:
    """Keep the encoded compiled state of these readings under ``key``, in place of any
    other: written whole to a new file that then replaces the old one, so that a reader
    never sees half of it; nothing is kept where the folder cannot be written."""
    path = artifact_path(sources)
    if path is None:
        return
    import tempfile  # only keeping a state writes a file: a start that finds one does not

    try:
        path.parent.mkdir(exist_ok=True)
        handle, written = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            os.chmod(written, 0o644)  # as readable as the readings beside it
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(f"{key}\n{state}")
            os.replace(written, path)
        except BaseException:
            os.unlink(written)
            raise
    except OSError:
        return  # a read-only folder: every new database compiles the readings
