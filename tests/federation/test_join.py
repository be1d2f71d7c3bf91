"""The join adds a fetched collection's facts in one pass per fact type, and reaches what
creating the items one at a time (as ``create`` does) reaches: the same D, the same facts
asserted, the same ids, the same answers, and the same refusal for an item that does not
map."""

from __future__ import annotations

from typing import Any

import hypothesis.strategies as st
from hypothesis import given

import arest
from arest.algebra import State
from arest.algebra.relations import Fact
from arest.compiler.change import Change
from arest.compiler.population import exists
from arest.system.entity_verbs import create_entity, set_fields, settle
from arest.system.errors import Refusal
from arest.system.federated import item_fields, joined_all

READINGS = """
Customer(.Customer Id) is an entity type.
Customer has Name.
  Each Customer has at most one Name.
Customer has Email.
Customer is vip.
Manager(.Manager Id) is an entity type.
Customer is managed by Manager.
  Each Customer is managed by at most one Manager.
Customer is named.
* Customer is named iff Customer has some Name.
Order(.Order Id) is an entity type.
Order was placed by Customer.
  Each Order was placed by at most one Customer.

Noun 'Customer' is backed by External System 'crm'.
External System 'crm' has URL 'https://crm.example.com'.
"""

D = arest.compile(READINGS)
_, LOCAL = arest.apply(D, "create:Order", {"id": "o1", "Customer": "c1"})
_, LOCAL = arest.apply(LOCAL, "create:Manager", {"id": "m1"})
BASES = {"empty": D, "local": LOCAL}


def one_at_a_time(state: State, noun: str, items: list[Any]
                  ) -> tuple[State, set[tuple[str, Fact]], frozenset[str]]:
    """Each item mapped and created (or, for an entity D holds, given its fields) one at a
    time, as ``create`` would: the reference the join must reach."""
    change = Change(state)
    ids = set()
    for position, item in enumerate(items):
        path = f"$[{position}]"
        entity, values = item_fields(state, noun, item, path)
        ids.add(entity)
        if exists(change.state, noun, entity):
            change.touch(noun, entity)
            set_fields(change, noun, entity, values, path, replace=False)
        else:
            create_entity(change, noun, {"id": entity, **values}, path)
    asserted = {(fact_type, fact) for fact_type, facts in change.delta.added.items()
                for fact in facts}
    after, _, _ = settle(state, change)
    return after, asserted, frozenset(ids)


ids = st.one_of(st.sampled_from(["c1", "c2", "c3", "m1", ""]), st.integers(0, 3),
                st.just(True), st.none())
scalars = st.one_of(st.sampled_from(["Acme", "Bolt", "", "m1", "m2"]), st.integers(-2, 2),
                    st.floats(0, 2, allow_nan=False), st.booleans(), st.none())
values = st.one_of(scalars, st.lists(scalars, max_size=3), st.just({"nested": 1}))
fields_named = st.sampled_from(["Name", "Email", "is vip", "Manager", "Customer Id", "noun",
                                "status", "unknown"])
anything = st.one_of(
    st.dictionaries(st.sampled_from(["id", "Customer Id"]), ids, min_size=1).flatmap(
        lambda named: st.dictionaries(fields_named, values, max_size=4).map(
            lambda rest: {**rest, **named})),
    st.sampled_from([[], "c1", {"Name": "no id"}]),
)
mapped = st.fixed_dictionaries(
    {"id": st.sampled_from(["c1", "c2", "c3", 4])},
    optional={"Name": st.sampled_from(["Acme", "Bolt", 7, 1.5]),
              "Email": st.lists(st.sampled_from(["a@x", "b@x", "c@x"]), max_size=3),
              "is vip": st.booleans(), "Manager": st.sampled_from(["m1", "m2"]),
              "noun": st.just("Customer"), "unknown": scalars})
items = st.one_of(mapped, mapped, mapped, anything)

def outcome(run: Any) -> Any:
    try:
        return run()
    except Refusal as refusal:
        return refusal.envelope


@given(base=st.sampled_from(sorted(BASES)),
       collection=st.one_of(st.lists(mapped, max_size=6), st.lists(items, max_size=6)))
def test_the_join_reaches_what_creating_each_item_reaches(base: str,
                                                          collection: list[Any]) -> None:
    state = BASES[base]
    expected = outcome(lambda: one_at_a_time(state, "Customer", collection))

    def join() -> tuple[State, set[tuple[str, Fact]], frozenset[str]]:
        found = joined_all(state, [("Customer", collection)])
        return found.state, found.asserted[0], found.ids[0]

    found = outcome(join)
    assert found == expected
    if isinstance(expected, tuple):
        for command in ("list:Customer", "list:Order", "query:Customer_is_named"):
            assert arest.apply(found[0], command)[0] == arest.apply(expected[0], command)[0]


def test_an_item_the_join_refuses_is_named_at_its_path() -> None:
    collection = [{"id": "c1", "Name": "Acme"}, {"id": "c2", "Name": ["A", "B"]}]
    try:
        joined_all(D, [("Customer", collection)])
    except Refusal as refusal:
        error = refusal.envelope["error"]
    assert error["code"] == "invalid_input" and error["path"] == "$[1].Name"
