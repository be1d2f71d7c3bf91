"""Cells: fetch ↑ and store ↓ over D agree with Backus's cell sequence, and never mutate."""

from hypothesis import given
from hypothesis import strategies as st

from arest.algebra import (
    BOTTOM,
    EMPTY_STATE,
    apply,
    as_object,
    evaluate,
    fetch,
    from_object,
    read,
    store,
    store_all,
)
from arest.testing import objects, small_atoms

names = st.sampled_from(["a", "b", "c", "Order_was_placed_by_Customer", "constraint:c-1"])
states = st.lists(st.tuples(names, objects(small_atoms(), max_leaves=4)), max_size=5).map(
    lambda cells: store_all(EMPTY_STATE, cells)
)


@given(states, names, objects(small_atoms(), max_leaves=4))
def test_store_then_fetch(state, name, contents) -> None:  # type: ignore[no-untyped-def]
    before = dict(state.items())
    after = store(state, name, contents)
    assert fetch(after, name) == contents
    assert dict(state.items()) == before  # D itself is unchanged
    for other in before:
        if other != name:
            assert fetch(after, other) == before[other]


@given(states, names, objects(small_atoms(), max_leaves=4))
def test_host_cells_agree_with_the_primitives(state, name, contents) -> None:  # type: ignore[no-untyped-def]
    cells = as_object(state)
    assert apply("fetch", (name, cells)) == fetch(state, name)
    assert from_object(apply("store", (name, contents, cells))) == store(state, name, contents)
    assert from_object(cells) == state


@given(states, names)
def test_fetch_reads_the_state_the_reducer_runs_in(state, name) -> None:  # type: ignore[no-untyped-def]
    assert apply("fetch", name, state) == fetch(state, name)
    assert evaluate("fetch", name, state) == fetch(state, name)


def test_a_cell_holding_a_definition_gives_its_atom_meaning() -> None:
    state = store(EMPTY_STATE, "SECOND", read("<COMP, 1, tl>"))
    assert apply("SECOND", read("<a, b, c>"), state) == "b"
    assert fetch(state, "missing") is BOTTOM


def test_storing_the_same_contents_returns_the_same_state() -> None:
    state = store(EMPTY_STATE, "a", "1")
    assert store(state, "a", fetch(state, "a")) is state
