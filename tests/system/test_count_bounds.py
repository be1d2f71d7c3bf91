"""A uniqueness or mandatory check over one role, answered by counting in the relation's index
(``arest.system.validate.checked``), has the FFP evaluator's value: over generated relations,
keys and definitions, and over every constraint and key of generated populations of the
example domains."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.algebra import BOTTOM, apply, evaluate
from arest.algebra.relations import Relation
from arest.compiler.cells import constraint_ids
from arest.compiler.change import Change, Delta
from arest.compiler.checks import ADDED, ENTITIES, REMOVED, CountBound, count_bound
from arest.compiler.population import entity_ids
from arest.system.compiled_checks import _atom_keys, _bound_holds, woken_checks
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


@given(cases(), st.data())
def test_a_bound_found_to_hold_from_a_delta_is_one_the_evaluator_finds_unbroken(
        case: tuple[dict[str, Any], CountBound, list[Any]], data: st.DataObject) -> None:
    """``compiled_checks._bound_holds`` skips a part only where its check finds nothing
    for the keys ``_atom_keys`` reads of the delta."""
    state, bound, _ = case
    values = st.sampled_from([*ATOMS, ("a",)])
    delta = Delta(
        added={FACT_TYPE: set(data.draw(st.lists(st.tuples(values, values, values), max_size=3)))},
        removed={FACT_TYPE: set(data.draw(st.lists(st.tuples(atoms), max_size=1)))},
        entities={"N": set(data.draw(st.lists(values, max_size=3)))})
    keyed = data.draw(st.sampled_from([((ADDED, FACT_TYPE, 0),), ((ADDED, FACT_TYPE, 2),),
                                       ((ENTITIES, "N", -1), (REMOVED, FACT_TYPE, -1))]))
    if not (plain(state) and _bound_holds(state, bound, keyed, delta)):
        return
    keys = _atom_keys(keyed, delta)
    assert keys is not None
    assert not keys or checked(state, bound.check(), keys, True) == ()


def test_the_bounds_an_order_s_create_wakes_are_found_to_hold() -> None:
    """The step is taken: a create that breaks no bound skips each of them."""
    D = arest.compile("Order(.id) is an entity type.\nCustomer(.id) is an entity type.\n"
                      "Order was placed by Customer.\n"
                      "Each Order was placed by exactly one Customer.")
    change = Change(D)
    change.add("Order_was_placed_by_Customer", ("o1", "acme"))
    delta = change.delta
    checks = woken_checks(change.state, tuple(delta.added), (), tuple(delta.entities))
    keyed = [(bound, keys) for _, parts in checks.constraints for _, _, bound, keys in parts
             if keys is not None]
    assert keyed and checks.plain
    assert all(_bound_holds(change.state, bound, keys, delta) for bound, keys in keyed
               if bound is not None)
