"""The codec keeps D cell for cell: relations, objects, snapshots; snapshots share cells."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.algebra import EMPTY_STATE, State, store
from arest.algebra.relations import Archive, Relation
from arest.runtime.codec import decode, decode_cell, encode, encode_cell, encoded_cell
from arest.testing import commands, schemas

COMPILED: dict[str, object] = {}


@settings(max_examples=40)
@given(schemas(), st.lists(st.one_of(commands(), st.just(("snapshot", {})),
                                     st.just(("rollback", {"id": "snap-0"}))), max_size=8))
def test_decode_inverts_encode(readings, sequence) -> None:  # type: ignore[no-untyped-def]
    if readings not in COMPILED:
        COMPILED[readings] = arest.compile(readings)
    D = COMPILED[readings]
    for key, request in sequence:
        D = arest.apply(D, key, request)[1]  # type: ignore[arg-type]
    again = decode(encode(D))  # type: ignore[arg-type]
    assert again == D
    assert arest.apply(again, "snapshots")[0] == arest.apply(D, "snapshots")[0]  # type: ignore[arg-type]
    for contents in D.values():  # type: ignore[attr-defined]
        assert decode_cell(encode_cell(contents)) == contents
        kept = encoded_cell(contents)
        assert decode_cell(kept.text, kept.shared) == contents


def _archive(*states: State) -> Archive:
    archive = Archive()
    for n, state in enumerate(states):
        archive = archive.with_state(f"s{n}", f"2025-01-01T00:00:{n:02d}Z", state)
    return archive


def _customers(count: int) -> Relation:
    return Relation.of(2, [(f"c{n}", f"Name {n}") for n in range(count)])


def test_snapshots_cost_what_changed_between_them() -> None:
    names = _customers(1000)
    fixed = Relation.of(1, [(f"t{n}",) for n in range(1000)])
    states = [store(store(EMPTY_STATE, "names", names), "fixed", fixed)]
    for n in range(20):  # each snapshot after one fact changed
        states.append(store(states[-1], "names",
                            states[-1]["names"].remove((f"c{n}", f"Name {n}")).add((f"c{n}", "x"))))
    one = len(encoded_cell(_archive(states[0])).text) + sum(
        map(len, encoded_cell(_archive(states[0])).shared.values()))
    kept = encoded_cell(_archive(*states))
    twenty_one = len(kept.text) + sum(map(len, kept.shared.values()))
    assert twenty_one < one * 1.2  # twenty more snapshots, each a fact and a name
    again = decode_cell(kept.text, kept.shared)
    assert again == _archive(*states)
    assert isinstance(again, Archive)
    first, last = again.state("s0"), again.state("s20")
    assert first["fixed"] is last["fixed"]  # decoded once, shared as when encoded
    assert last["names"] == states[-1]["names"]


def test_a_relation_rewritten_whole_is_kept_whole() -> None:
    before, after = _customers(10), Relation.of(2, [("a", "b")])
    kept = encoded_cell(_archive(store(EMPTY_STATE, "r", before), store(EMPTY_STATE, "r", after)))
    assert not any('"d"' in text for text in kept.shared.values())
    assert decode_cell(kept.text, kept.shared) == _archive(store(EMPTY_STATE, "r", before),
                                                           store(EMPTY_STATE, "r", after))


def test_a_missing_or_damaged_shared_cell_is_an_error() -> None:
    kept = encoded_cell(_archive(store(EMPTY_STATE, "r", _customers(3))))
    where, text = next(iter(kept.shared.items()))
    with pytest.raises(ValueError, match=f"shared cell {where} is missing"):
        decode_cell(kept.text, {})
    with pytest.raises(ValueError, match=f"shared cell {where} is damaged"):
        decode_cell(kept.text, {where: text.replace("c1", "c9")})


def test_a_document_of_another_format_is_an_error() -> None:
    old = json.dumps({"format": "arest-cells-1", "cells": {}})
    with pytest.raises(ValueError, match="not a arest-cells-2 document"):
        decode(old)


atoms = st.text(max_size=4)


@settings(max_examples=60)
@given(st.integers(1, 3).flatmap(lambda arity: st.lists(
    st.tuples(st.tuples(*[atoms] * arity), st.booleans()), max_size=8).map(
    lambda facts: (arity, facts))))
def test_a_relation_is_written_as_its_facts_listed(
        given_facts: tuple[int, list[tuple[tuple[str, ...], bool]]]) -> None:
    """A fact kept as its tuple is written as the JSON list it is: the text is the compact
    JSON of the decoded value (all lists), whatever the atoms (non-ASCII, quotes too)."""
    arity, facts = given_facts
    relation = Relation(arity).updated(
        [(fact, True if plain else ("why", fact[0])) for fact, plain in facts])
    text = encode_cell(relation)
    assert json.dumps(json.loads(text), separators=(",", ":")) == text
    assert decode_cell(text) == relation
