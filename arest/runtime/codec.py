"""D as JSON: how the runtime keeps a compiled state on disk.

Each cell is one JSON value: an FFP object as itself (atoms are strings, sequences lists, ⊥
null) under ``"o"``; a relation as its arity and facts under ``"r"`` and ``"f"``; an archive
of snapshots as its states under ``"a"``.  ``decode(encode(D))`` equals D cell for cell.

A fact whose payload is not ASSERTED is listed under ``"p"`` with its payload, as
⟨fact, payload⟩ pairs, instead of under ``"f"``; a relation of plain assertions has no
``"p"``, so it reads as it always did.

**Snapshots share structure.**  A snapshot's cells are *shared cells*, each kept once under
its address (the BLAKE2b-128 hash of its JSON text), however many snapshots hold it.  A
snapshot is listed as the cells that differ from the snapshot listed before it
(``{"+": {name: address}, "-": [name, …]}``), and a relation that changed by a few facts is
kept as those facts over its version in that earlier snapshot (``{"r": arity, "d": address,
"f"/"p": added, "x": removed}``).  So a snapshot costs what changed since the one before,
not the whole D.  :func:`encode_cell` carries the shared cells inside the text (under
``"b"``); :func:`encoded_cell` gives them apart, for a storage that keeps each once
(:mod:`arest.runtime.storage`).  Decoding checks each shared cell against its address.

>>> from arest.algebra import EMPTY_STATE, store
>>> from arest.algebra.relations import Relation
>>> D = store(store(EMPTY_STATE, "a", ("x", ("y",))), "R", Relation.of(2, [("o1", "c1")]))
>>> decode(encode(D)) == D
True
>>> derived = Relation.of(2, [("o1", "c1")]).add(("o2", "c1"), ("rule", "o1"))
>>> encode_cell(derived)
'{"r":2,"f":[["o1","c1"]],"p":[[["o2","c1"],["rule","o1"]]]}'
>>> decode_cell(encode_cell(derived)) == derived
True
"""

from __future__ import annotations

import json
from collections import ChainMap
from collections.abc import Mapping
from typing import Any, NamedTuple

from arest.algebra import EMPTY_STATE, State, store_all
from arest.algebra.objects import BOTTOM, from_json
from arest.algebra.relations import ASSERTED, Archive, Cell, Fact, Relation
from arest.hashes import blake2b
from arest.runtime.sealed import SEAL

FORMAT = "arest-cells-2"
"""Format 2 keeps snapshots as shared cells and differences (format 1 kept each whole)."""

DELTA_SHARE = 4
"""A changed relation is kept as a difference when the difference has fewer facts than
``1 / DELTA_SHARE`` of the relation; otherwise whole (a difference must save room)."""


Encoded = NamedTuple("Encoded", [("text", str), ("shared", dict[str, str])])  # noqa: UP014
Encoded.__doc__ = """A cell as kept apart from its shared cells: its JSON text, and each shared
cell it refers to (address → JSON text), directly or through another.  (Its fields given as
types, not as the texts this module's annotations are, which ``typing`` would compile.)"""


def address(text: str) -> str:
    """Where a shared cell is kept: the hex BLAKE2b-128 hash of its JSON text.

    >>> address('{"o":"x"}')
    '41129d4f6e08cb315301482518fe2521'
    """
    return blake2b(text.encode(), digest_size=16).hexdigest()


def _null_for_bottom(value: object) -> None:
    """⊥ as JSON's null: of an FFP object's parts, the one JSON does not write by itself (an
    atom is a str, a sequence a tuple, which JSON writes as the list
    :func:`~arest.algebra.objects.as_json` makes)."""
    if value is BOTTOM:
        return None
    raise TypeError(f"not an FFP object: {value!r}")


_text = json.JSONEncoder(separators=(",", ":"), default=_null_for_bottom,
                         check_circular=False).encode
"""A JSON value (its FFP objects as they are) as compact text: ``_text(v)`` is
``json.dumps(as_json-ed v, separators=(",", ":"))``, with no list built for an object's
sequence and no encoder made per call (an encoder keeps nothing between calls).  No check
for a value holding itself, which costs a third of the writing of a relation's facts: a
cell's value holds none (its facts and objects are tuples, which cannot hold themselves, in
lists and dicts the codec makes anew)."""


def _facts(items: Any) -> dict[str, Any]:
    """``"f"`` (asserted facts) and ``"p"`` (⟨fact, payload⟩ pairs, only when any).  A fact
    and a payload stay as they are: JSON writes a tuple as the list it would be."""
    asserted: list[Fact] = []
    derived: list[tuple[Fact, object]] = []
    keep = asserted.append
    for fact, payload in items:
        if payload is ASSERTED:
            keep(fact)
        else:  # a payload is an FFP object by the contract of a cell of D
            derived.append((fact, payload))
    value: dict[str, Any] = {"f": asserted}
    if derived:
        value["p"] = derived
    return value


def _relation_value(relation: Relation) -> dict[str, Any]:
    """A relation as ``"r"``, ``"f"`` and ``"p"``: what ``{"r": arity, **_facts(items)}``
    holds, its asserted facts listed by one comprehension (a checkpoint lists every fact of
    each changed relation, and few are derived), the derived ones read again only when the
    asserted are fewer than the relation's facts."""
    asserted = [fact for fact, payload in relation.items() if payload is ASSERTED]
    value: dict[str, Any] = {"r": relation.arity, "f": asserted}
    if len(asserted) != len(relation):
        value["p"] = [(fact, payload) for fact, payload in relation.items()
                      if payload is not ASSERTED]
    return value


class _Writer:
    """Encodes cells, keeping each shared cell once; an object met again (by identity)
    reuses its address."""

    def __init__(self) -> None:
        self.shared: dict[str, str] = {}
        self._known: dict[int, tuple[Cell, str]] = {}  # the cell is held so its id stays its own

    def value(self, contents: Cell) -> dict[str, Any]:
        if isinstance(contents, Relation):
            return _relation_value(contents)
        if isinstance(contents, Archive):
            return {"a": self._archive(contents)}
        return {"o": contents}  # written by _text as as_json(contents) would be

    def _archive(self, archive: Archive) -> list[list[Any]]:
        listed: list[list[Any]] = []
        earlier: State = EMPTY_STATE
        addresses: dict[str, str] = {}
        for label in archive.labels():
            state: State = archive.state(label)
            added = {name: self.shared_address(contents, earlier.get(name), addresses.get(name))
                     for name, contents in state.items() if earlier.get(name) is not contents}
            removed = sorted(name for name in earlier if name not in state)
            addresses.update(added)
            for name in removed:
                del addresses[name]
            listed.append([label, archive.taken_at(label), {"+": added, "-": removed}])
            earlier = state
        return listed

    def shared_address(self, contents: Cell, earlier: Cell | None, earlier_at: str | None
                       ) -> str:
        """The address of contents kept as a shared cell: as a difference from earlier (kept
        at earlier_at) when that is much smaller, else whole."""
        known = self._known.get(id(contents))
        if known is not None and known[0] is contents:
            return known[1]
        value = None
        if isinstance(contents, Relation) and isinstance(earlier, Relation) and (
                earlier_at is not None and earlier.arity == contents.arity):
            value = _difference(contents, earlier, earlier_at)
        text = _text(self.value(contents) if value is None else value)
        where = address(text)
        self.shared[where] = text
        self._known[id(contents)] = (contents, where)
        return where


def _difference(relation: Relation, earlier: Relation, earlier_at: str) -> dict[str, Any] | None:
    """relation as the facts it adds to and removes from earlier; None when not much smaller."""
    most = len(relation) // DELTA_SHARE
    changes = []
    for change in relation.changes_since(earlier):
        changes.append(change)
        if len(changes) > most:
            return None
    added = ((fact, payload) for fact, _, payload in changes if payload is not None)
    removed = [list(fact) for fact, _, payload in changes if payload is None]
    return {"r": relation.arity, "d": earlier_at, **_facts(added), "x": removed}


def _whole_relation(arity: int, value: dict[str, Any]) -> Relation:
    """The relation of ``"f"`` and ``"p"`` as one frozen base: what
    ``Relation(arity).updated(added)`` holds (the last payload given for a fact wins), its
    indexes built on first use rather than each fact written into persistent maps; a fact
    of another arity is refused as ``updated`` refuses it."""
    facts: dict[Fact, object] = dict.fromkeys(map(tuple, value["f"]), ASSERTED)
    for fact, payload in value.get("p", ()):
        facts[tuple(fact)] = from_json(payload)
    if any(len(fact) != arity for fact in facts):
        raise ValueError(f"facts of another arity in a relation of {arity}")
    return Relation.frozen(arity, facts)


class _Reader:
    """Decodes cells, each shared cell once (checked against its address), so that the
    snapshots decoded share their cells as they did when encoded."""

    def __init__(self, shared: Mapping[str, str], memo: dict[str, Cell]) -> None:
        self._shared = shared
        self._memo = memo
        self._reading: set[str] = set()

    def cell(self, value: Any) -> Cell:
        if not isinstance(value, dict):
            raise ValueError("not an encoded cell")
        if "r" in value:
            return self._relation(value)
        if "a" in value:
            return self._archive(value["a"])
        return from_json(value["o"])

    def _relation(self, value: dict[str, Any]) -> Relation:
        if "d" not in value:
            return _whole_relation(int(value["r"]), value)
        added: list[tuple[Fact, object]] = [(tuple(fact), ASSERTED) for fact in value["f"]]
        added.extend((tuple(fact), from_json(payload)) for fact, payload in value.get("p", ()))
        earlier = self.shared_cell(value["d"])
        if not isinstance(earlier, Relation) or earlier.arity != int(value["r"]):
            raise ValueError(f"shared cell {value['d']} is not a relation of arity {value['r']}")
        return earlier.updated(added, [tuple(fact) for fact in value["x"]])

    def _archive(self, listed: list[Any]) -> Archive:
        archive, state = Archive(), EMPTY_STATE
        for label, taken_at, change in listed:
            state = store_all(state, ((name, self.shared_cell(where))
                                      for name, where in change["+"].items()))
            for name in change["-"]:
                state = state.delete(name)
            archive = archive.with_state(label, taken_at, state)
        return archive

    def shared_cell(self, where: str) -> Cell:
        """The shared cell kept at an address."""
        if where in self._memo:
            return self._memo[where]
        text = self._shared.get(where)
        if text is None:
            raise ValueError(f"shared cell {where} is missing")
        if address(text) != where or where in self._reading:
            raise ValueError(f"shared cell {where} is damaged")
        self._reading.add(where)
        try:
            contents = self.cell(json.loads(text))
        finally:
            self._reading.discard(where)
        self._memo[where] = contents
        return contents


def encode(state: State) -> str:
    """D as a JSON text."""
    writer = _Writer()
    cells = {name: writer.value(state[name]) for name in sorted(state)}
    return _text({"format": FORMAT, "cells": cells, "shared": writer.shared})


def encoded_cell(contents: Cell) -> Encoded:
    """One cell as a JSON text referring to its shared cells, and those cells (for
    checkpoints of changed cells: a storage keeps each shared cell once)."""
    writer = _Writer()
    return Encoded(_text(writer.value(contents)), writer.shared)


def encode_cell(contents: Cell) -> str:
    """One cell as a JSON text holding its shared cells too (under ``"b"``)."""
    writer = _Writer()
    value = writer.value(contents)
    if writer.shared:
        value["b"] = writer.shared
    return _text(value)


def decode_cell(text: str, shared: Mapping[str, str] | None = None,
                memo: dict[str, Cell] | None = None) -> Cell:
    """The cell a JSON text from :func:`encode_cell` or :func:`encoded_cell` holds, its
    shared cells read from the text or from shared; ValueError when it is not one or a
    shared cell is missing or damaged.  Cells decoded with one memo share their shared cells.
    """
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError("not an encoded cell")
    found: Mapping[str, str] = shared if shared is not None else {}
    if "b" in value:
        found = ChainMap(value["b"], dict(found))
    return _decoded(_Reader(found, {} if memo is None else memo), value)


def _decoded(reader: _Reader, value: Any) -> Cell:
    try:
        return reader.cell(value)
    except RecursionError:
        raise ValueError("shared cells nest too deeply") from None


def decode(text: str) -> State:
    """The D a JSON text from :func:`encode` holds, read after its sealed digest's line when
    it leads with one (:mod:`arest.runtime.sealed`); ValueError when it is not one."""
    if text.startswith(SEAL):
        text = text.partition("\n")[2]
    document = json.loads(text)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} document")
    reader = _Reader(document.get("shared", {}), {})
    return store_all(EMPTY_STATE, ((name, _decoded(reader, value))
                                   for name, value in document["cells"].items()))
