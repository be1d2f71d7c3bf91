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


json_objects = st.recursive(st.one_of(atoms, st.none()), lambda inner: st.lists(inner, max_size=3),
                            max_leaves=12)
"""JSON values of FFP objects: atoms, null (⊥) and lists of them."""


def _general_from_json(x: object) -> object:
    """``from_json`` as first written: by ``isinstance``, one call per item."""
    from arest.algebra.objects import BOTTOM

    if isinstance(x, str):
        return x
    if isinstance(x, list):
        return tuple(_general_from_json(item) for item in x)
    return BOTTOM


@settings(max_examples=200)
@given(json_objects)
def test_from_json_is_the_general_decoding(value: object) -> None:
    from arest.algebra.objects import from_json

    assert from_json(value) == _general_from_json(value)
    assert from_json(["a", ["b", [None]], []]) == ("a", ("b", (from_json(None),)), ())


def _general_relation(value: dict[str, object]) -> Relation:
    """A kept relation as ``decode`` first built it: each fact put into an empty relation's
    persistent indexes in one batch (the last payload given for a fact wins)."""
    from arest.algebra.objects import from_json
    from arest.algebra.relations import ASSERTED

    added: list[tuple[tuple[str, ...], object]] = [
        (tuple(fact), ASSERTED) for fact in value["f"]]  # type: ignore[attr-defined]
    added.extend((tuple(fact), from_json(payload))
                 for fact, payload in value.get("p", ()))  # type: ignore[attr-defined]
    return Relation(int(value["r"])).updated(added)  # type: ignore[call-overload]


kept_relations = st.integers(0, 3).flatmap(lambda arity: st.fixed_dictionaries(
    {"r": st.just(arity),
     "f": st.lists(st.lists(st.sampled_from("abc"), min_size=arity, max_size=arity),
                   max_size=6)},
    optional={"p": st.lists(st.tuples(
        st.lists(st.sampled_from("abc"), min_size=arity, max_size=arity + (arity == 2)),
        json_objects).map(list), max_size=4)}))
"""Kept relations as JSON, facts repeated, in both lists, and (in ``"p"``) of a wrong arity."""


@settings(max_examples=300)
@given(kept_relations)
def test_a_kept_relation_decodes_to_what_the_general_build_holds(value: dict[str, object]
                                                                 ) -> None:
    text = json.dumps(value)
    try:
        expected: object = _general_relation(json.loads(text))
    except ValueError as error:
        expected = type(error)
    try:
        decoded = decode_cell(text)
    except ValueError as error:
        assert type(error) is expected
        return
    assert isinstance(expected, Relation) and decoded == expected
    assert sorted(decoded.items(), key=repr) == sorted(expected.items(), key=repr)
    for role in range(decoded.arity):
        for atom in "abc":
            assert sorted(decoded.matching(role, atom)) == sorted(expected.matching(role, atom))
    grown = decoded.add(("a",) * decoded.arity, ("new",)).remove(("b",) * decoded.arity)
    assert grown == expected.add(("a",) * decoded.arity, ("new",)).remove(("b",) * decoded.arity)
    assert sorted(grown.changes_since(decoded), key=repr) == sorted(
        expected.add(("a",) * decoded.arity, ("new",)).remove(("b",) * decoded.arity)
        .changes_since(expected), key=repr)


def test_a_kept_relation_decodes_to_one_base() -> None:
    text = '{"r":2,"f":[["o1","c1"],["o2","c1"]],"p":[[["o2","c1"],["rule","o1"]]]}'
    decoded = decode_cell(text)
    assert decoded == Relation.of(2, [("o1", "c1")]).add(("o2", "c1"), ("rule", "o1"))
    assert isinstance(decoded, Relation) and decoded.payload(("o2", "c1")) == ("rule", "o1")
    with pytest.raises(ValueError, match="another arity"):
        decode_cell('{"r":2,"f":[["o1"]]}')
