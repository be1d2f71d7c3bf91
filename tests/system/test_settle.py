"""settle's delta, as P saw it, equals the definition: for every fact type the change or
derivation touched, the facts among those it named that are in P after and not before
(entered), and in P before and not after (left).  settle reads the state before only for the
fact types derivation did not move; the definition reads both states for every one.  The
laws hold over random edits on a domain whose ring is asserted and derived in one fact type
(a fact the change asserts may already be derived), and over whole command sequences on the
shop, where a create moves a derived count: the D (digest) and the output are the same."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import arest
from arest.compiler.change import Change, Delta
from arest.runtime.digest import state_digest
from arest.system import entity_verbs
from arest.system.derive import relation_of
from arest.system.dred import derive
from arest.testing import commands

GRAPH = """\
Node(.id) is an entity type.
Weight is a value type.
Node links to Node.
  Node1 links to Node2 is transitive.
Node1 is two hops from Node2.
Node is marked.
Node is blocked.
Node is free.
Node has Weight.
Node has reach Weight.
* Node1 is two hops from Node3 iff Node1 links to Node2 and Node2 links to Node3.
* Node is free iff Node is marked and Node is not blocked.
* Node has reach Weight iff reach Weight is the sum of Weight where Node links to some Node2 \
and that Node2 has Weight.
"""
GRAPH_D = arest.compile(GRAPH)
SHOP_D = arest.load(Path(__file__).resolve().parents[2] / "readings" / "orders")

NODES = st.sampled_from("abcd")
EDIT = st.one_of(
    st.tuples(st.booleans(), st.just("Node_links_to_Node"), st.tuples(NODES, NODES)),
    st.tuples(st.booleans(), st.sampled_from(["Node_is_marked", "Node_is_blocked"]),
              st.tuples(NODES)),
    st.tuples(st.booleans(), st.just("Node_has_Weight"),
              st.tuples(NODES, st.sampled_from(["1", "2", "-3"]))),
)


def defined_settle(before: Any, change: Change) -> tuple[Any, Delta, list[dict[str, Any]]]:
    """settle as its docstring defines it: every touched fact type read in both states."""
    after, derived = derive(before, change.state, change.delta.added, change.delta.removed,
                            change.delta.entities)
    if not derived.added and not derived.removed:
        return after, change.delta, []
    delta = Delta(entities=change.delta.entities, gone=change.delta.gone)
    for fact_type in {*change.delta.added, *change.delta.removed, *derived.added,
                      *derived.removed}:
        old, new = relation_of(before, fact_type, 0), relation_of(after, fact_type, 0)
        candidates = (change.delta.added.get(fact_type, set())
                      | change.delta.removed.get(fact_type, set())
                      | derived.added.get(fact_type, set())
                      | derived.removed.get(fact_type, set()))
        came = {f for f in candidates if f in new and f not in old}
        went = {f for f in candidates if f in old and f not in new}
        if came:
            delta.added[fact_type] = came
        if went:
            delta.removed[fact_type] = went
    return after, delta, entity_verbs._listed(change, derived, delta)


@contextmanager
def settled_by_definition() -> Iterator[None]:
    """The commands' settle replaced by :func:`defined_settle` while inside."""
    kept = entity_verbs.settle
    entity_verbs.settle = defined_settle
    try:
        yield
    finally:
        entity_verbs.settle = kept


def _same_delta(a: Delta, b: Delta) -> bool:
    def nonempty(facts: dict[str, set[Any]]) -> dict[str, set[Any]]:
        return {name: set(found) for name, found in facts.items() if found}
    return (nonempty(a.added), nonempty(a.removed)) == (nonempty(b.added), nonempty(b.removed))


@given(st.lists(EDIT, max_size=6), st.lists(EDIT, min_size=1, max_size=6))
def test_settle_gives_the_defined_delta(history: list[Any], edits: list[Any]) -> None:
    D = GRAPH_D
    for adding, fact_type, fact in history:
        D = arest.apply(D, "assert" if adding else "retract",
                        {"fact_type": fact_type, "bindings": list(fact)})[1]
    change = Change(D)
    for adding, fact_type, fact in edits:
        (change.add if adding else change.remove)(fact_type, fact)
    after, delta, listed = entity_verbs.settle(D, change)
    defined_after, defined_delta, defined_listed = defined_settle(D, change)
    assert state_digest(after) == state_digest(defined_after)
    assert _same_delta(delta, defined_delta)
    assert listed == defined_listed


@given(st.lists(commands(SHOP_D), min_size=1, max_size=8))
def test_commands_give_what_the_defined_settle_gives(sequence: list[tuple[str, Any]]) -> None:
    D = defined = SHOP_D
    for key, request in sequence:
        out, D = arest.apply(D, key, request)
        with settled_by_definition():
            defined_out, defined = arest.apply(defined, key, request)
        assert out == defined_out
        assert state_digest(D) == state_digest(defined)
