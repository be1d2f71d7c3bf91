"""The public API: ``load``, ``compile``, ``apply``, ``warnings`` and ``ReadingError``.

This facade is the one place that reads readings files; it hands their text to the pure
reader (:mod:`arest.forml2`), the compiler builds D, and :func:`apply` is SYSTEM.

>>> import arest
>>> D = arest.compile("Customer(.Name) is an entity type.\\nCustomer is active.\\n"
...                   "Customer 'acme' is active.")
>>> arest.apply(D, "list:Customer")[0]["items"][0]["is active"]
True
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from arest.algebra import State
from arest.system import apply as _system_apply
from arest.system.derive import derive_all
from arest.system.validate import alethic, all_violations

if TYPE_CHECKING:
    from arest.compiler.readings import Source
    from arest.forml2 import ReadingError

__all__ = ["ReadingError", "apply", "compile", "load", "warnings"]


def __getattr__(name: str) -> Any:
    # The reader (and lark under it) loads when readings are read, not with the API: a
    # tenant reopened on its kept base state never reads any.
    if name == "ReadingError":
        from arest.forml2 import ReadingError

        return ReadingError
    raise AttributeError(f"module 'arest.api' has no attribute {name!r}")


def _files(paths: tuple[str | Path, ...]) -> list[Path]:
    files: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            # A folder's README.md says what the domain is for; it holds no readings.
            files.extend(sorted(f for f in path.glob("*.md") if f.name.lower() != "readme.md"))
        elif path.is_file():
            files.append(path)
        else:
            raise FileNotFoundError(f"no readings file or folder at {path}")
    return files


def read_files(*paths: str | Path) -> tuple[Source, ...]:
    """The readings at paths as (path, text) pairs: files, or folders' ``*.md`` in name order
    (a folder's ``README.md`` aside)."""
    return tuple((str(file), file.read_text(encoding="utf-8")) for file in _files(paths))


def load_sources(sources: tuple[Source, ...], strict: bool = False) -> State:
    """D from the bundled metamodel and readings given as (path, text) pairs."""
    from arest.compiler.readings import build, read_sources

    return _validated(derive_all(build(None, sources, read_sources(sources, strict))), sources,
                      strict)


def load(*paths: str | Path, strict: bool = False) -> State:
    """D from the bundled metamodel and the readings at paths (files, or folders of ``*.md``
    read in name order).  Raises :class:`ReadingError` listing every diagnostic."""
    return load_sources(read_files(*paths), strict)


def compile(text: str, D: State | None = None, strict: bool = False) -> State:
    """D with more readings: text read on top of D's readings (or the metamodel alone).
    Raises :class:`ReadingError` listing every diagnostic."""
    from arest.compiler.readings import build, read_sources, sources_of

    previous = sources_of(D) if D is not None else ()
    sources = (*previous, (f"<compile {len(previous) + 1}>", text))
    return _validated(derive_all(build(D, sources, read_sources(sources, strict))), sources,
                      strict)


def _validated(D: State, sources: tuple[Source, ...], strict: bool) -> State:
    """D, or :class:`ReadingError` naming each alethic constraint the population violates
    at the sentence that states it."""
    from arest.compiler.readings import read_sources, warnings_of
    from arest.forml2 import Diagnostic, ReadingError

    compiled = read_sources(sources, strict)
    problems = [
        Diagnostic(*compiled.source_of(v["constraint_id"]),
                   f"the population violates this {v['kind']} constraint: "
                   f"{v['detail']['key']} ({v['detail']['evidence']})", v["reading"])
        for v in alethic(all_violations(D))
    ]
    if problems:
        raise ReadingError(tuple(problems), warnings_of(D))
    return D


def warnings(D: State) -> list[str]:
    """The warnings reading D's readings gave (auto-declared nouns, …), compiler-style."""
    from arest.compiler.readings import warnings_of

    return list(warnings_of(D))


def apply(
    D: State, key: str, input: Any = None, context: dict[str, Any] | None = None
) -> tuple[dict[str, Any], State]:
    """SYSTEM: one command's output and the next state.  Pure, total, deterministic; bad
    input is an error in the output, never an exception, and leaves D as it was."""
    return _system_apply(D, key, input, context)
