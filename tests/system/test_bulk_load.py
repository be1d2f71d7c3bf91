"""``arest.testing.bulk_load`` builds each relation in one batch, and the D it gives is the D
reached by adding the same facts one at a time (``Change.add``, what an assert does before
validation): the same facts in every fact type, and every entity in its noun's population,
its supertypes' and the subtype's membership fact types — whatever D held before.  Its
layout (the order of every relation's facts and of each role's index groups, which the
derivation and the digest of a run follow) is the layout of the plain bulk load it was
written from (:func:`plain_bulk_load`, kept here as the oracle), whether the facts come as
pairs or grouped by fact type."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain
from operator import itemgetter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import arest
from arest.algebra import State, store_all
from arest.algebra.relations import Relation
from arest.compiler.cells import NOUN_SUPERTYPES, population_cell
from arest.compiler.change import Change
from arest.compiler.population import membership_fact_type, relation_in
from arest.testing import bulk_load

READINGS = """\
Person(.id) is an entity type.
Employee is a subtype of Person.
Team(.id) is an entity type.
Employee works in Team.
Person mentors Person.
Person has Nickname.
Person likes Team.
Team has Colour.
Team has Motto.
Person has Shoe Size.
Team meets in Room.
Person visits Room.
Room(.id) is an entity type.
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
TEAMS, ROOMS = ("red", "blue", "cy"), ("r1", "r2")
more_facts = st.sampled_from([
    ("Person_likes_Team", PEOPLE, TEAMS), ("Team_has_Colour", TEAMS, ("green", "red")),
    ("Team_has_Motto", TEAMS, ("go",)), ("Person_has_Shoe_Size", PEOPLE, ("9", "10")),
    ("Team_meets_in_Room", TEAMS, ROOMS), ("Person_visits_Room", PEOPLE, ROOMS),
]).flatmap(lambda kind: st.tuples(
    st.just(kind[0]), st.tuples(st.sampled_from(kind[1]), st.sampled_from(kind[2]))))


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


def plain_bulk_load(state: State, facts: Iterable[tuple[str, tuple[str, ...]]]) -> State:
    """The bulk load as first written (one Python step per fact to group them, the entities'
    1-tuples listed and each relation extended from a list): the layout's oracle."""
    grouped: dict[str, list[tuple[str, ...]]] = {}
    for fact_type, fact in facts:
        grouped.setdefault(fact_type, []).append(fact)
    lookups = Change(state)
    additions: dict[str, list[tuple[str, ...]]] = {}
    named: dict[str, list[Iterable[str]]] = {}
    for fact_type, batch in grouped.items():
        additions.setdefault(fact_type, []).extend(batch)
        for position, noun in lookups.entity_roles(fact_type):
            named.setdefault(noun, []).append(map(itemgetter(position), batch))
    for sub, sup in sorted(relation_in(state, NOUN_SUPERTYPES) or ()):
        members = grouped.get(membership_fact_type(sub, sup))
        if members:
            named.setdefault(sub, []).append(map(itemgetter(0), members))
    for noun, values in named.items():
        entities = list(zip(dict.fromkeys(chain.from_iterable(values))))
        for member_of in lookups.member_of(noun):
            additions.setdefault(population_cell(member_of), []).extend(entities)
        for parent in lookups.parents(noun):
            additions.setdefault(membership_fact_type(noun, parent), []).extend(entities)
    cells: list[tuple[str, Relation]] = []
    for name, added in additions.items():
        current = state.get(name)
        relation = current if isinstance(current, Relation) else Relation(len(added[0]))
        grown = relation.extended(added)
        if grown is not current:
            cells.append((name, grown))
    return store_all(state, cells)


def layout(state: State) -> list[tuple[str, Any]]:
    """D cell by cell in its own order; a relation as its facts with their payloads in
    iteration order and, per role, its values in order each with its facts in order."""
    shown: list[tuple[str, Any]] = []
    for name, contents in state.items():
        if isinstance(contents, Relation):
            groups = [[(value, list(contents.by_value(role).get(value, ())))
                       for value in contents.values(role)] for role in range(contents.arity)]
            shown.append((name, (list(contents.items()), groups)))
        else:
            shown.append((name, contents))
    return shown


def grouped_by_fact_type(added: list[tuple[str, tuple[str, ...]]]
                         ) -> dict[str, list[tuple[str, ...]]]:
    grouped: dict[str, list[tuple[str, ...]]] = {}
    for fact_type, fact in added:
        grouped.setdefault(fact_type, []).append(fact)
    return grouped


@given(st.lists(facts, max_size=8), st.lists(st.one_of(facts, more_facts), max_size=40))
def test_bulk_load_lays_d_out_as_the_plain_bulk_load_does(
    before: list[tuple[str, tuple[str, ...]]], added: list[tuple[str, tuple[str, ...]]]
) -> None:
    start = one_at_a_time(D, before)
    expected = layout(plain_bulk_load(start, added))
    assert layout(bulk_load(start, added)) == expected
    assert layout(bulk_load(start, iter(added))) == expected
    assert layout(bulk_load(start, grouped_by_fact_type(added))) == expected


def test_a_large_bulk_load_lays_d_out_as_the_plain_bulk_load_does() -> None:
    # Past the compaction floor: frozen bases, each index group in the order of its facts.
    added = [("Person_mentors_Person", (f"p{n * 7919 % 6000}", f"p{n // 3}"))
             for n in range(6_000)]
    added += [("Person_is_a_Employee", (f"p{n}",)) for n in range(0, 6_000, 5)]
    added += [("Employee_works_in_Team", (f"p{n}", f"t{n % 9}")) for n in range(0, 6_000, 3)]
    # Nine fact types, some of one entity's roles, some of another's.
    added += [(fact_type, (f"p{n}", f"{fact_type}{n % 4}")) for n in range(0, 6_000, 11)
              for fact_type in ("Person_likes_Team", "Person_has_Shoe_Size",
                                "Person_visits_Room", "Person_has_Nickname")]
    added += [(fact_type, (f"t{n}", f"r{n % 2}")) for n in range(9)
              for fact_type in ("Team_meets_in_Room", "Team_has_Colour")]
    assert len({fact_type for fact_type, _ in added}) == 9
    expected = layout(plain_bulk_load(D, added))
    assert layout(bulk_load(D, added)) == expected
    assert layout(bulk_load(D, grouped_by_fact_type(added))) == expected
