"""A cell's text, written with FFP objects as they are (⊥ as null by the encoder's default)
and a relation's asserted facts by one comprehension, is the text of the general encoding:
each object through ``as_json``, each fact and payload through ``_facts``' loop, ``json.dumps``."""

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arest.algebra import EMPTY_STATE, store
from arest.algebra.objects import BOTTOM, Object, as_json
from arest.algebra.relations import ASSERTED, Archive, Cell, Relation
from arest.runtime.codec import decode_cell, encode, encode_cell, encoded_cell

atoms = st.text(max_size=3)  # lone surrogates and quotes among them
objects: st.SearchStrategy[Object] = st.recursive(
    st.one_of(atoms, st.just(BOTTOM)),
    lambda inner: st.lists(inner, max_size=3).map(tuple), max_leaves=10)


def _general_value(contents: Cell) -> Any:
    """A relation or object cell as the codec first built it: facts as lists, payloads and
    objects through ``as_json``, one loop over the facts."""
    if isinstance(contents, Relation):
        asserted: list[Any] = []
        derived: list[Any] = []
        for fact, payload in contents.items():
            if payload is ASSERTED:
                asserted.append(list(fact))
            else:
                derived.append([list(fact), as_json(payload)])  # type: ignore[arg-type]
        value: dict[str, Any] = {"r": contents.arity, "f": asserted}
        if derived:
            value["p"] = derived
        return value
    return {"o": as_json(contents)}  # type: ignore[arg-type]


def _general_text(contents: Cell) -> str:
    return json.dumps(_general_value(contents), separators=(",", ":"))


relations = st.integers(0, 3).flatmap(lambda arity: st.lists(
    st.tuples(st.tuples(*[atoms] * arity), st.one_of(st.just(ASSERTED), objects)),
    max_size=6).map(lambda facts: Relation(arity).updated(facts)))


@settings(max_examples=50)
@given(st.one_of(relations, objects))
def test_a_cell_is_written_as_the_general_encoding_writes_it(contents: Cell) -> None:
    assert encode_cell(contents) == _general_text(contents)
    assert encoded_cell(contents) == (_general_text(contents), {})
    assert decode_cell(encode_cell(contents)) == contents


@settings(max_examples=25)
@given(st.lists(st.tuples(st.sampled_from("abc"), st.one_of(relations, objects)), max_size=4))
def test_a_state_and_its_snapshots_are_written_as_the_general_encoding_writes_them(
        cells: list[tuple[str, Cell]]) -> None:
    """Archives and whole states too: each cell inside them, shared or not, is the general text
    (parsed and written again by ``json.dumps``, whose lists are the objects' as_json)."""
    state = EMPTY_STATE
    archive = Archive()
    for number, (name, contents) in enumerate(cells):
        state = store(state, name, contents)
        archive = archive.with_state(f"s{number}", "2025-01-01T00:00:00Z", state)
    state = store(state, "snapshots", archive)
    for text in (encode(state), encode_cell(archive)):
        assert json.dumps(json.loads(text), separators=(",", ":")) == text
    kept = encoded_cell(archive)
    assert decode_cell(kept.text, kept.shared) == archive


def test_bottom_is_null_and_a_derived_fact_keeps_its_payload() -> None:
    relation = Relation.of(2, [("o1", "c1")]).add(("o2", "c1"), ("rule", BOTTOM, ("x",)))
    assert encode_cell(relation) == (
        '{"r":2,"f":[["o1","c1"]],"p":[[["o2","c1"],["rule",null,["x"]]]]}')
    assert encode_cell(relation) == _general_text(relation)
    assert encode_cell(("a", BOTTOM, ())) == '{"o":["a",null,[]]}' == _general_text(
        ("a", BOTTOM, ()))
    assert encode_cell(BOTTOM) == '{"o":null}'
