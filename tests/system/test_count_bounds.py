"""A uniqueness or mandatory check over one role, answered by counting in the relation's index
(``arest.system.validate.checked``), has the FFP evaluator's value: over generated relations,
keys and definitions, and over every constraint and key of generated populations of the
example domains."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arest.algebra import BOTTOM, apply, evaluate
from arest.algebra.relations import Relation
from arest.compiler.cells import constraint_ids
from arest.compiler.checks import ENTITIES, CountBound, count_bound
from arest.compiler.population import entity_ids
from arest.system.validate import _compiled, checked, plain
from arest.testing import bulk_load, populations
from tests.corpus import loaded

FACT_TYPE = "R_has_S"
ATOMS = ("a", "b", "c", "1")

atoms = st.sampled_from(ATOMS)
odd_keys = st.sampled_from([(("a",),), (("b",), "a"), (), "a", BOTTOM])


@st.composite
def cases(draw: st.DrawFn) -> tuple[dict[str, Any], CountBound, list[Any]]:
    """A D of one cell, the fact type's: mostly a relation of one to three roles, sometimes
    absent or no relation, and sometimes also a cell named after an atom the check applies;
    a count bound over a role of it (now and then one it lacks); keys as a command's delta
    gives them (a value, or a few), now and then with one that is no tuple starting with an
    atom."""
    state: dict[str, Any] = {}
    arity = draw(st.integers(1, 3))
    kind = draw(st.sampled_from(["relation"] * 6 + ["absent", "other"]))
    if kind == "relation":
        state[FACT_TYPE] = Relation.of(arity, draw(st.lists(st.tuples(*[atoms] * arity),
                                                             max_size=8)))
    elif kind == "other":
        state[FACT_TYPE] = draw(st.sampled_from(["x", ("a", "b")]))
    if draw(st.integers(0, 3)) == 0:
        state[draw(st.sampled_from(["gt", "count", "not", "1", "matching"]))] = ("CONST", "T")
    role = draw(st.integers(0, arity - 1) | st.integers(0, 3))
    found: list[Any] = draw(st.lists(st.tuples(atoms) | st.tuples(atoms, atoms), max_size=5))
    if draw(st.integers(0, 3)) == 0:
        found.insert(draw(st.integers(0, len(found))), draw(odd_keys))
    return state, CountBound(FACT_TYPE, role, draw(st.booleans())), found


@given(cases())
def test_a_count_bound_by_index_is_the_evaluator_s_value(
        case: tuple[dict[str, Any], CountBound, list[Any]]) -> None:
    state, bound, drawn = case
    check = bound.check()
    assert count_bound(check) == bound
    value = checked(state, check, drawn, plain(state))
    assert value == evaluate(check, tuple(drawn), state)
    assert value == apply(check, tuple(drawn), state)


def test_a_d_that_defines_an_atom_of_a_count_bound_s_check_is_not_plain() -> None:
    """Such a D changes what the check means: the evaluator answers it."""
    for mandatory in (False, True):
        pending: list[Any] = [CountBound(FACT_TYPE, 0, mandatory).check()]
        while pending:
            item = pending.pop()
            if type(item) is tuple:
                pending.extend(item)
            elif item != FACT_TYPE:
                assert not plain({FACT_TYPE: Relation(2), item: ("CONST", "T")}), item
    assert plain({FACT_TYPE: Relation(2)})


def test_only_the_two_shapes_are_count_bounds() -> None:
    uniqueness = CountBound(FACT_TYPE, 0, mandatory=False).check()
    assert count_bound(uniqueness[:2]) is None  # type: ignore[index]
    assert count_bound(("COMP", "id", "id")) is None
    assert count_bound(str(uniqueness)) is None


EXAMPLES = Path(__file__).parents[2] / "readings"


def every_key_of(state: Any, triggers: Any) -> list[Any]:
    """Every key a part's triggers can select in the state (as full validation's keys)."""
    found: set[Any] = set()
    for event, target, roles in triggers:
        if event == ENTITIES:
            found.update((entity,) for entity in entity_ids(state, target))
            continue
        relation = state.get(target)
        if isinstance(relation, Relation):
            found.update(tuple(fact[role - 1] for role in roles) if roles else fact
                         for fact in relation)
    return sorted(found)


@settings(max_examples=20)
@given(st.sampled_from(["orders", "tracker", "library"]), st.booleans(), st.data())
def test_every_check_of_a_generated_population_is_the_evaluator_s(
        name: str, invalid: bool, data: st.DataObject) -> None:
    D = loaded(name)
    population = data.draw(populations(D, invalid=invalid))
    state = bulk_load(D, population.facts)
    bounds = 0
    for constraint_id in constraint_ids(state):
        constraint = _compiled(state, constraint_id)
        assert constraint is not None
        for triggers, check in constraint.parts():
            drawn = every_key_of(state, triggers)
            bounds += count_bound(check) is not None
            assert checked(state, check, drawn, plain(state)) == evaluate(
                check, tuple(drawn), state)
    assert bounds > 0
