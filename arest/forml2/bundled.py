"""The bundled metamodel: ``arest/readings/*.md`` read on top of nothing, the readings every
tenant's readings continue from.

Reading it parses a few hundred sentences, most of a start-up's time, so the package ships
the result (``arest/readings/metamodel.pickle``) beside the texts, under a key: a digest of
the metamodel's texts and of the reader's own sources and grammar.  An artifact whose key
is not the current one was built from other texts or by another reader and is ignored (the
texts are read instead), so it can make a start slow but never wrong.  The test suite
checks that the shipped artifact is current and rebuilds it on request.

The artifact keeps the parse shapes (lark trees) pickled apart and unpickles them on first
use, so that a process that only looks the metamodel up (SYSTEM guards the metamodel's fact
types on every command) loads neither lark nor the parser.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import pickle
from collections.abc import Iterator, MutableMapping
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from arest.forml2.reading import Reading

if TYPE_CHECKING:
    from lark import Token, Tree

ARTIFACT = "metamodel.pickle"


def metamodel_texts() -> tuple[tuple[str, str], ...]:
    """The metamodel's readings as (name, text), in name order."""
    folder = importlib.resources.files("arest").joinpath("readings")
    return tuple(
        (entry.name, entry.read_text("utf-8"))
        for entry in sorted(folder.iterdir(), key=lambda e: e.name)
        if entry.name.endswith(".md")
    )


def metamodel_key(texts: tuple[tuple[str, str], ...]) -> str:
    """A digest of the texts and of everything that reads them: the reader's modules and
    its grammar."""
    digest = hashlib.sha256()
    reader = importlib.resources.files("arest").joinpath("forml2")
    sources = sorted((e for e in reader.iterdir() if e.name.endswith((".py", ".lark"))),
                     key=lambda e: e.name)
    for name, text in (*texts, *((e.name, e.read_text("utf-8")) for e in sources)):
        digest.update(name.encode() + b"\0" + text.encode() + b"\0")
    return digest.hexdigest()


def read_metamodel(texts: tuple[tuple[str, str], ...]) -> Reading:
    """The texts read in order, strictly, each on top of the ones before."""
    from arest.forml2.reader import read

    reading: Reading | None = None
    for name, text in texts:
        reading = read(text, f"arest/readings/{name}", known=reading, strict=True)
    assert reading is not None
    schema = reading.schema
    schema.metamodel = frozenset(schema.nouns)
    return reading


class PickledShapes(MutableMapping[str, "Tree[Token]"]):
    """Parse shapes kept pickled until first used (then unpickled once, which loads lark)."""

    def __init__(self, pickled: bytes) -> None:
        self._pickled = pickled
        self._shapes: dict[str, Tree[Token]] | None = None

    def _decoded(self) -> dict[str, Tree[Token]]:
        if self._shapes is None:
            shapes: dict[str, Tree[Token]] = pickle.loads(self._pickled)
            self._shapes = shapes
        return self._shapes

    def __getitem__(self, key: str) -> Tree[Token]:
        return self._decoded()[key]

    def __setitem__(self, key: str, value: Tree[Token]) -> None:
        self._decoded()[key] = value

    def __delitem__(self, key: str) -> None:
        del self._decoded()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._decoded())

    def __len__(self) -> int:
        return len(self._decoded())


def artifact(reading: Reading, key: str) -> bytes:
    """What ``arest/readings/metamodel.pickle`` holds: ⟨key, reading without its shapes,
    the shapes pickled⟩ pickled."""
    shapes = pickle.dumps(dict(reading.shapes), protocol=pickle.HIGHEST_PROTOCOL)
    return pickle.dumps((key, replace(reading, shapes={}), shapes),
                        protocol=pickle.HIGHEST_PROTOCOL)


def _shipped(key: str) -> Reading | None:
    path = importlib.resources.files("arest").joinpath("readings", ARTIFACT)
    if not path.is_file():
        return None
    try:
        stored: Any = pickle.loads(path.read_bytes())
    except Exception:  # an artifact of another version: read the texts instead
        return None
    if type(stored) is tuple and len(stored) == 3 and stored[0] == key \
            and isinstance(stored[1], Reading) and isinstance(stored[2], bytes):
        return replace(stored[1], shapes=PickledShapes(stored[2]))
    return None


@lru_cache(maxsize=1)
def metamodel() -> Reading:
    """The bundled metamodel: the shipped artifact when it is current, else the texts read
    (``read(text, known=metamodel())`` continues from it)."""
    texts = metamodel_texts()
    return _shipped(metamodel_key(texts)) or read_metamodel(texts)
