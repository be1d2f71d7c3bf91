"""D as JSON: how the runtime keeps a compiled state on disk.

Each cell is one JSON value: an FFP object as itself (atoms are strings, sequences lists, ⊥
null) under ``"o"``; a relation as its arity and facts under ``"r"`` and ``"f"``; an archive
of snapshots as its states under ``"s"``.  ``decode(encode(D))`` equals D cell for cell.

A fact whose payload is not ASSERTED is listed under ``"p"`` with its payload, as
⟨fact, payload⟩ pairs, instead of under ``"f"``; a relation of plain assertions has no
``"p"``, so it reads as it always did.

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
from typing import Any, cast

from arest.algebra import EMPTY_STATE, State, store_all
from arest.algebra.objects import Object, as_json, from_json
from arest.algebra.relations import ASSERTED, Archive, Cell, Fact, Relation

FORMAT = "arest-cells-1"


def _relation(relation: Relation) -> dict[str, Any]:
    asserted: list[list[str]] = []
    derived: list[list[Any]] = []
    for fact, payload in relation.items():
        if payload is ASSERTED:
            asserted.append(list(fact))
        else:  # a payload is an FFP object by the contract of a cell of D
            derived.append([list(fact), as_json(cast(Object, payload))])
    cell: dict[str, Any] = {"r": relation.arity, "f": asserted}
    if derived:
        cell["p"] = derived
    return cell


def _decoded_relation(value: dict[str, Any]) -> Relation:
    facts: dict[Fact, object] = {tuple(fact): ASSERTED for fact in value["f"]}
    facts.update((tuple(fact), from_json(payload)) for fact, payload in value.get("p", ()))
    return Relation(int(value["r"])).updated(facts.items())


def _cell(contents: Cell) -> dict[str, Any]:
    if isinstance(contents, Relation):
        return _relation(contents)
    if isinstance(contents, Archive):
        return {"s": [[label, contents.taken_at(label), _state(contents.state(label))]
                      for label in contents.labels()]}
    return {"o": as_json(contents)}


def _state(state: State) -> dict[str, Any]:
    return {name: _cell(state[name]) for name in sorted(state)}


def encode(state: State) -> str:
    """D as a JSON text."""
    return json.dumps({"format": FORMAT, "cells": _state(state)}, separators=(",", ":"))


def _decoded_cell(value: dict[str, Any]) -> Cell:
    if "r" in value:
        return _decoded_relation(value)
    if "s" in value:
        archive = Archive()
        for label, taken_at, state in value["s"]:
            archive = archive.with_state(label, taken_at, _decoded_state(state))
        return archive
    return from_json(value["o"])


def _decoded_state(cells: dict[str, Any]) -> State:
    return store_all(EMPTY_STATE, ((name, _decoded_cell(value)) for name, value in cells.items()))


def encode_cell(contents: Cell) -> str:
    """One cell as a JSON text (for checkpoints of changed cells)."""
    return json.dumps(_cell(contents), separators=(",", ":"))


def decode_cell(text: str) -> Cell:
    """The cell a JSON text from :func:`encode_cell` holds."""
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError("not an encoded cell")
    return _decoded_cell(value)


def decode(text: str) -> State:
    """The D a JSON text from :func:`encode` holds; ValueError when it is not one."""
    document = json.loads(text)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} document")
    return _decoded_state(document["cells"])
