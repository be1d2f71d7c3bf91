"""A plan's or a set of checks' cells known to hold (``arest.system.held_cells``) answer as
reading every cell does: over any sequence of states, each made from an earlier one by
writing cells (carried or not), ``holds`` is the identity of every cell read; and a sequence
of compiled creates, each over the state the one before reached (where the cells known to
hold are read no more), answers as the interpreted creates do."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from arest.algebra import EMPTY_STATE, State, store_all
from arest.runtime.footprint import Footprint
from arest.system.apply import interpret, run
from arest.system.commands import parse_key
from arest.system.context import read_context
from arest.system.create_plans import plans_for
from arest.system.held_cells import HeldCells, carry_all, carry_known
from tests.corpus import loaded

NAMES = ("a", "b", "c", "d")
READ = ("a", "b")


def read_each(held: HeldCells, state: State) -> bool:
    return all(state.get(name) is contents for name, contents in zip(
        held.names, held.contents, strict=True))


steps = st.lists(st.tuples(
    st.integers(0, 7),  # the version written from
    st.sets(st.sampled_from(NAMES), max_size=3),  # the cells written
    st.booleans(),  # whether the write is carried
    st.booleans(),  # whether it is written (and carried) through a recording view
    st.sampled_from(["one", "all", "known"]),  # the carry: HeldCells.carry, carry_all, or
    # carry_known where the cells read none of those written (else carry_all)
), max_size=12)


def _carry_by(way: str, held: HeldCells) -> Any:
    if way == "one":
        return held.carry
    if way == "known":
        return lambda before, after, written: (carry_known([held], before, after)
                                               if held.reads_none_of(written)
                                               else carry_all([held], before, after, written))
    return lambda before, after, written: carry_all([held, held], before, after, written)


@settings(max_examples=60)
@given(steps, st.lists(st.tuples(st.integers(0, 12), st.booleans()), max_size=6))
@example([(0, {"a"}, False, False, "one"), (1, {"c"}, True, False, "known")], [(2, False)])
def test_cells_known_to_hold_are_the_cells_held(
        writes: list[tuple[int, set[str], bool, bool, str]], asked: list[tuple[int, bool]]
) -> None:
    """Asked through a recording view too: it answers as reading every cell does, and its
    footprint records what reading them one by one through the view records; carried one
    by one, with others (``carry_all``) or, where it read none of the cells written, as
    cells known to read none (``carry_known``)."""
    first = store_all(EMPTY_STATE, [(name, (name,)) for name in NAMES])
    held = HeldCells(first, READ)
    versions = [first]
    for n, (start, written, carried, viewed, way) in enumerate(writes):
        carry = _carry_by(way, held)
        before = versions[start % len(versions)]
        cells = {name: (name, n) for name in written}
        if viewed:
            footprint = Footprint()
            view = footprint.view(before)
            written_view = view.update(cells)
            made = footprint.state_of(written_view)
            assert made is not None
            if carried:
                carry(view, written_view, written)
            after = made
        else:
            after = before.update(cells)
            if carried:
                carry(before, after, written)
        versions.append(after)
        for index, through_view in asked:
            version = versions[index % len(versions)]
            if through_view:
                footprint, alone = Footprint(), Footprint()
                answer = held.holds(footprint.view(version))
                assert answer == read_each(held, alone.view(version))
                assert footprint.read == alone.read
            else:
                assert held.holds(version) == read_each(held, version)
            assert not held.known(version) or read_each(held, version)


def test_a_recording_view_is_never_known_so_its_reads_are_recorded() -> None:
    state = store_all(EMPTY_STATE, [(name, (name,)) for name in NAMES])
    footprint = Footprint()
    view = footprint.view(state)
    held = HeldCells(view, READ)
    assert held.holds(view) and not held.known(view)
    assert footprint.read == set(READ)


HUMAN = read_context({"source": "Human"})


def answered_alike(state: Any, key: str, request: Any) -> Any:
    command = parse_key(key, request)
    out, after = run(state, command, HUMAN)
    expected, reached = interpret(state, command, HUMAN)
    assert out == expected and after == reached
    return after  # the compiled create's D′: the next command starts from it


@settings(max_examples=8, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Customer", "Order", "schema"]),
                          st.integers(0, 3)), min_size=2, max_size=10))
def test_compiled_creates_over_the_states_they_reach_answer_as_interpreted(
        steps: list[tuple[str, int]]) -> None:
    """Between the creates, a cell a plan read may be written by hand (a copy of its
    contents: equal, not the same object), which no carry sees."""
    D = loaded("orders")
    customers = ["ann@example.com"]
    D = answered_alike(D, "create:Customer", {"id": customers[0], "Name": "Ann"})
    for n, (kind, pick) in enumerate(steps):
        if kind == "Customer":
            customers.append(f"c{n}@example.com")
            D = answered_alike(D, "create:Customer", {"id": customers[-1], "Name": f"C {n}"})
        elif kind == "Order":
            D = answered_alike(D, "create:Order", {
                "id": f"o-{n}", "Customer": customers[pick % len(customers)]})
        else:
            plan = plans_for(D).plan(D, "Customer", frozenset({"id", "Name"}))
            assert plan is not None
            name = plan.read.names[pick % len(plan.read.names)]
            contents = D.get(name)
            if type(contents) is tuple and contents:
                D = D.set(name, (*contents,))  # equal, another object
