"""The bundled metamodel: ``arest/readings/*.md`` read on top of nothing, the readings every
tenant's readings continue from.

Reading it parses a few hundred sentences, most of a start-up's time, so the package ships
the result (``arest/readings/metamodel.artifact``) beside the texts, under a key: a digest
of the metamodel's texts and of the reader's own sources and grammar.  An artifact whose key
is not the current one was built from other texts or by another reader and is ignored (the
texts are read instead), so it can make a start slow but never wrong.  The test suite
checks that the shipped artifact is current and rebuilds it on request.

The artifact is two lines of JSON, ``{"key": …, "fact_types": […]}`` and ``[facts…]``, then
the reading pickled, and within that the parse shapes (lark trees) pickled apart again, each
unpickled on first use: SYSTEM guards the metamodel's fact types on every command and needs
only their names (:func:`metamodel_fact_types`), so a start that reads no readings reads the
first line alone (the facts, 49 kB of JSON, on first use of :func:`metamodel_facts`), and
loads neither ``pickle`` nor the reader nor lark.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, MutableMapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from arest.hashes import blake2b

if TYPE_CHECKING:
    from lark import Token, Tree

    from arest.forml2.facts import Fact
    from arest.forml2.reading import Reading

ARTIFACT = "metamodel.artifact"

PACKAGE = Path(__file__).parents[1]
"""arest's folder, which holds the metamodel's texts and the reader's sources: read as files
beside this module, not through ``importlib.resources``, whose import (zipfile with it)
would cost every start a few ms; arest is installed as a folder."""


def metamodel_texts() -> tuple[tuple[str, str], ...]:
    """The metamodel's readings as (name, text), in name order."""
    folder = PACKAGE / "readings"
    return tuple(
        (entry.name, entry.read_text("utf-8"))
        for entry in sorted(folder.iterdir(), key=lambda e: e.name)
        if entry.name.endswith(".md")
    )


def metamodel_key(texts: tuple[tuple[str, str], ...]) -> str:
    """A digest of the texts and of everything that reads them: the reader's modules and
    its grammar (BLAKE2b-256: about 330 kB each start, which CPython's own SHA-256 takes
    about five times as long to hash)."""
    digest = blake2b(digest_size=32)
    for name, text in texts:
        digest.update(name.encode() + b"\0" + text.encode() + b"\0")
    sources = sorted((e.name, e) for e in (PACKAGE / "forml2").iterdir()
                     if e.name.endswith((".py", ".lark")))
    for name, source in sources:  # as bytes: the sources are hashed, never read as text
        digest.update(name.encode() + b"\0" + source.read_bytes() + b"\0")
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
            import pickle

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


FACT_TYPE_READINGS: Final = "Fact_Type_has_Reading_Text"
"""The metamodel fact type with one fact per fact type (its id and a reading text)."""


def fact_types(facts: tuple[Fact, ...]) -> frozenset[str]:
    """The fact types the facts declare: ``{t | (Fact_Type_has_Reading_Text, (t, _)) ∈ facts}``.

    >>> sorted(fact_types((("Fact_Type_has_Reading_Text", ("A_has_B", "A has B")),
    ...                    ("Noun_has_Object_Type", ("A", "entity")))))
    ['A_has_B']
    """
    return frozenset(values[0] for name, values in facts if name == FACT_TYPE_READINGS)


def artifact(reading: Reading, key: str) -> bytes:
    """What ``arest/readings/metamodel.artifact`` holds: the line ``{"key": key,
    "fact_types": the facts' fact types, sorted}``, the line of the reading's facts, then
    ⟨reading without its shapes, the shapes pickled⟩ pickled."""
    import pickle
    from dataclasses import replace

    head = json.dumps({"key": key, "fact_types": sorted(fact_types(reading.facts))},
                      ensure_ascii=True)
    facts = json.dumps(reading.facts, ensure_ascii=True)
    shapes = pickle.dumps(dict(reading.shapes), protocol=pickle.HIGHEST_PROTOCOL)
    rest = pickle.dumps((replace(reading, shapes={}), shapes), protocol=pickle.HIGHEST_PROTOCOL)
    return head.encode() + b"\n" + facts.encode() + b"\n" + rest


def _texts(values: Any) -> bool:
    return type(values) is list and all(type(v) is str for v in values)


def _head(key: str) -> tuple[frozenset[str], bytes] | None:
    """The shipped artifact's fact types and what follows its first line, if it was built
    under ``key``."""
    path = PACKAGE / "readings" / ARTIFACT
    if not path.is_file():
        return None
    head, _, rest = path.read_bytes().partition(b"\n")
    try:
        found: Any = json.loads(head)
    except ValueError:  # an artifact of another version: read the texts
        return None
    if type(found) is not dict or found.get("key") != key or not _texts(
            found.get("fact_types")):
        return None
    return frozenset(found["fact_types"]), rest


def _stored(key: str) -> tuple[tuple[Fact, ...], bytes] | None:
    """The shipped artifact's facts and its pickled reading, if it was built under ``key``."""
    head = _head(key)
    if head is None:
        return None
    line, _, rest = head[1].partition(b"\n")
    try:
        found: Any = json.loads(line)
        facts = tuple((name, tuple(values)) for name, values in found)
    except (ValueError, KeyError, TypeError):
        return None
    if any(type(name) is not str or any(type(v) is not str for v in values)
           for name, values in facts) or fact_types(facts) != head[0]:
        return None
    return facts, rest


@lru_cache(maxsize=1)
def _current_key() -> str:
    return metamodel_key(metamodel_texts())


@lru_cache(maxsize=1)
def _shipped() -> tuple[tuple[Fact, ...], bytes] | None:
    """:func:`_stored` under the current texts' and reader's key."""
    return _stored(_current_key())


@lru_cache(maxsize=1)
def metamodel_fact_types() -> frozenset[str]:
    """``fact_types(metamodel().facts)``, read from the shipped artifact's first line alone
    when it is current.

    >>> metamodel_fact_types() == fact_types(metamodel().facts)
    True
    >>> "Noun_has_Object_Type" in metamodel_fact_types()
    True
    """
    head = _head(_current_key())
    return head[0] if head is not None else fact_types(metamodel().facts)


def _unpickled(pickled: bytes) -> Reading | None:
    """The reading of an artifact, its shapes left pickled until first used."""
    import pickle
    from dataclasses import replace

    from arest.forml2.reading import Reading

    reading, shapes = pickle.loads(pickled)
    if isinstance(reading, Reading) and isinstance(shapes, bytes):
        return replace(reading, shapes=PickledShapes(shapes))
    return None


@lru_cache(maxsize=1)
def metamodel() -> Reading:
    """The bundled metamodel: the shipped artifact when it is current, else the texts read
    (``read(text, known=metamodel())`` continues from it)."""
    shipped = _shipped()
    reading = _unpickled(shipped[1]) if shipped is not None else None
    return reading or read_metamodel(metamodel_texts())


def metamodel_facts() -> tuple[Fact, ...]:
    """``metamodel().facts``, taken from the shipped artifact without decoding a construct
    when it is current.

    >>> metamodel_facts() == metamodel().facts
    True
    >>> ("Noun_has_Object_Type", ("Noun", "entity")) in metamodel_facts()
    True
    """
    shipped = _shipped()
    return shipped[0] if shipped is not None else metamodel().facts
