"""The primitives that read D agree with a scan of the relation, in both evaluators."""

import itertools

from hypothesis import given
from hypothesis import strategies as st

from arest.algebra import BOTTOM, EMPTY_STATE, apply, evaluate, store
from arest.algebra.relations import Relation

values = st.sampled_from(["a", "b", "c"])
relations = st.lists(st.tuples(values, values), max_size=12).map(lambda fs: Relation.of(2, fs))


def both(f: str, x: object, state: object) -> object:
    reference = apply(f, x, state)  # type: ignore[arg-type]
    assert evaluate(f, x, state) == reference  # type: ignore[arg-type]
    return reference


@given(relations, st.sampled_from(["1", "2"]), values)
def test_count_and_matching_by_index(relation: Relation, role: str, value: str) -> None:
    state = store(EMPTY_STATE, "R", relation)
    expected = sorted(f for f in relation if f[int(role) - 1] == value)
    assert both("count", ("R", role, value), state) == str(len(expected))
    assert both("matching", ("R", role, value), state) == tuple(expected)
    assert both("values", ("R", role), state) == tuple(sorted({f[int(role) - 1] for f in relation}))


@given(relations, st.tuples(values, values))
def test_holds(relation: Relation, fact: tuple[str, str]) -> None:
    state = store(EMPTY_STATE, "R", relation)
    assert both("holds", ("R", fact), state) == ("T" if fact in relation else "F")


def test_a_fact_type_without_a_cell_is_empty_and_bad_arguments_are_bottom() -> None:
    state = store(store(EMPTY_STATE, "R", Relation.of(2, [("a", "b")])), "def", ("CONST", "x"))
    assert both("count", ("Missing", "1", "a"), state) == "0"
    assert both("matching", ("Missing", "1", "a"), state) == ()
    assert both("count", ("R", "3", "a"), state) is BOTTOM
    assert both("count", ("R", "0", "a"), state) is BOTTOM
    assert both("count", ("def", "1", "a"), state) is BOTTOM
    assert both("holds", ("R", ("a", ("b",))), state) is BOTTOM
    assert both("values", "R", state) is BOTTOM


@given(relations, values, values)
def test_path_finds_a_shortest_path_when_there_is_one(relation: Relation, a: str, b: str) -> None:
    state = store(EMPTY_STATE, "R", relation)
    found = both("path", ("R", a, b), state)
    distance, frontier = {a: 0}, {a}
    while frontier:
        frontier = {y for x, y in relation if x in frontier} - set(distance)
        distance.update({node: max(distance.values()) + 1 for node in frontier})
    if b not in distance:
        assert found == ()
    else:
        assert isinstance(found, tuple) and found[0] == a and found[-1] == b
        assert len(found) - 1 == distance[b]
        assert all((x, y) in relation for x, y in itertools.pairwise(found))
