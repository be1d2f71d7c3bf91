"""``arest.testing.bulk_load`` builds each relation in one batch, and the D it gives is the D
reached by adding the same facts one at a time (``Change.add``, what an assert does before
validation): the same facts in every fact type, and every entity in its noun's population,
its supertypes' and the subtype's membership fact types — whatever D held before."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import arest
from arest.algebra import State
from arest.compiler.cells import population_cell
from arest.compiler.change import Change
from arest.testing import bulk_load

READINGS = """\
Person(.id) is an entity type.
Employee is a subtype of Person.
Team(.id) is an entity type.
Employee works in Team.
Person mentors Person.
Person has Nickname.
"""
D = arest.compile(READINGS)
PEOPLE = ("ann", "bob", "cy", "dee")

facts = st.one_of(
    st.tuples(st.just("Employee_works_in_Team"),
              st.tuples(st.sampled_from(PEOPLE), st.sampled_from(("red", "blue")))),
    st.tuples(st.just("Person_mentors_Person"),
              st.tuples(st.sampled_from(PEOPLE), st.sampled_from(PEOPLE))),
    st.tuples(st.just("Person_has_Nickname"),
              st.tuples(st.sampled_from(PEOPLE), st.sampled_from(("Al", "Bo")))),
    st.tuples(st.just("Person_is_a_Employee"), st.tuples(st.sampled_from(PEOPLE))),
)


def one_at_a_time(state: State, added: list[tuple[str, tuple[str, ...]]]) -> State:
    change = Change(state)
    for fact_type, fact in added:
        change.add(fact_type, fact)
    return change.state


def test_bulk_load_puts_each_entity_in_its_populations() -> None:
    loaded = bulk_load(D, [("Employee_works_in_Team", ("ann", "red"))])
    assert set(loaded[population_cell("Employee")]) == {("ann",)}
    assert set(loaded[population_cell("Person")]) == {("ann",)}
    assert set(loaded[population_cell("Team")]) == {("red",)}
    assert loaded == one_at_a_time(D, [("Employee_works_in_Team", ("ann", "red"))])


def test_a_membership_fact_puts_the_entity_in_the_subtype_as_adding_it_does() -> None:
    loaded = bulk_load(D, [("Person_is_a_Employee", ("bob",))])
    assert set(loaded[population_cell("Employee")]) == {("bob",)}
    assert loaded == one_at_a_time(D, [("Person_is_a_Employee", ("bob",))])


@given(st.lists(facts, max_size=12), st.lists(facts, max_size=12))
def test_bulk_load_equals_adding_one_fact_at_a_time(
    before: list[tuple[str, tuple[str, ...]]], added: list[tuple[str, tuple[str, ...]]]
) -> None:
    start = one_at_a_time(D, before)
    assert bulk_load(start, added) == one_at_a_time(start, added)


def test_bulk_load_of_a_large_batch_equals_adding_one_fact_at_a_time() -> None:
    # Past the compaction floor a batch becomes a frozen base rather than persistent maps.
    added = [("Person_mentors_Person", (f"p{n}", f"p{n // 3}")) for n in range(5_000)]
    added += [("Employee_works_in_Team", (f"p{n}", "red")) for n in range(0, 5_000, 7)]
    loaded = bulk_load(one_at_a_time(D, added[:10]), added)
    assert loaded == one_at_a_time(D, added)
    assert len(loaded[population_cell("Person")]) == 5_000
