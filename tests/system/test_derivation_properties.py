"""Derivation laws over random command sequences: maintaining the fixed point from each
command's delta gives what deriving from scratch gives, and both give the fixed point a
naive evaluator (written here, independently) reaches; derivation is idempotent, and
monotone for rules without negation or aggregation."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import arest
from arest.algebra.relations import Relation
from arest.system.derive import derive_all, is_derived

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
DERIVED = ("Node_links_to_Node", "Node_is_two_hops_from_Node", "Node_is_free",
           "Node_has_reach_Weight")

D0 = arest.compile(GRAPH)
NODES = st.sampled_from("abcde")
COMMAND = st.one_of(
    st.tuples(st.sampled_from(["assert", "retract"]), st.just("Node_links_to_Node"),
              st.tuples(NODES, NODES)),
    st.tuples(st.sampled_from(["assert", "retract"]),
              st.sampled_from(["Node_is_marked", "Node_is_blocked"]), st.tuples(NODES)),
    st.tuples(st.sampled_from(["assert", "retract"]), st.just("Node_has_Weight"),
              st.tuples(NODES, st.sampled_from(["1", "2", "2.5", "-3"]))),
)


def facts(D: Any, fact_type: str) -> set[tuple[str, ...]]:
    relation = D.get(fact_type)
    return set(relation) if isinstance(relation, Relation) else set()


def everything(D: Any) -> dict[str, set[tuple[str, ...]]]:
    return {fact_type: facts(D, fact_type) for fact_type in DERIVED}


def naive(asserted: dict[str, set[tuple[str, ...]]]) -> dict[str, set[tuple[str, ...]]]:
    """The rules above, applied until nothing changes, over plain sets."""
    links = set(asserted["Node_links_to_Node"])
    while True:
        more = {(a, d) for a, b in links for c, d in links if b == c} - links
        if not more:
            break
        links |= more
    marked = {n for (n,) in asserted["Node_is_marked"]}
    blocked = {n for (n,) in asserted["Node_is_blocked"]}
    weights = asserted["Node_has_Weight"]
    reach: set[tuple[str, ...]] = set()
    for node in {a for a, _ in links}:
        rows = {(n2, w) for a, n2 in links if a == node for m, w in weights if m == n2}
        if rows:
            total = sum((Decimal(w) for _, w in rows), Decimal(0))
            reach.add((node, str(total.normalize()) if total != total.to_integral() else
                       str(int(total))))
    return {
        "Node_links_to_Node": links,
        "Node_is_two_hops_from_Node": {(a, d) for a, b in links for c, d in links if b == c},
        "Node_is_free": {(n,) for n in marked - blocked},
        "Node_has_reach_Weight": reach,
    }


@given(st.lists(COMMAND, max_size=25))
def test_incremental_equals_from_scratch_equals_naive(commands: list[Any]) -> None:
    D = D0
    asserted: dict[str, set[tuple[str, ...]]] = {
        "Node_links_to_Node": set(), "Node_is_marked": set(), "Node_is_blocked": set(),
        "Node_has_Weight": set()}
    for verb, fact_type, fact in commands:
        out, D = arest.apply(D, verb, {"fact_type": fact_type, "bindings": list(fact)})
        assert "error" not in out and not out["rejected"], out
        (asserted[fact_type].add if verb == "assert" else asserted[fact_type].discard)(fact)
        assert everything(D) == everything(derive_all(D)) == naive(asserted)


@given(st.lists(COMMAND, max_size=15))
def test_derivation_is_idempotent(commands: list[Any]) -> None:
    D = D0
    for verb, fact_type, fact in commands:
        D = arest.apply(D, verb, {"fact_type": fact_type, "bindings": list(fact)})[1]
    once = derive_all(D)
    assert everything(derive_all(once)) == everything(once) == everything(D)


@given(st.lists(COMMAND, max_size=15), st.lists(COMMAND, max_size=10))
def test_positive_rules_are_monotone(first: list[Any], more: list[Any]) -> None:
    """Asserting more facts never withdraws a fact the positive rules derived."""
    D = D0
    for _, fact_type, fact in first:
        D = arest.apply(D, "assert", {"fact_type": fact_type, "bindings": list(fact)})[1]
    E = D
    for _, fact_type, fact in more:
        E = arest.apply(E, "assert", {"fact_type": fact_type, "bindings": list(fact)})[1]
    for fact_type in ("Node_links_to_Node", "Node_is_two_hops_from_Node"):
        assert facts(D, fact_type) <= facts(E, fact_type)


@given(st.lists(COMMAND, max_size=20))
def test_asserted_facts_survive_rederivation(commands: list[Any]) -> None:
    """Every asserted link stays asserted (not derived) whatever derivation does."""
    D = D0
    asserted: set[tuple[str, ...]] = set()
    for verb, fact_type, fact in commands:
        D = arest.apply(D, verb, {"fact_type": fact_type, "bindings": list(fact)})[1]
        if fact_type == "Node_links_to_Node":
            (asserted.add if verb == "assert" else asserted.discard)(fact)
    relation = D.get("Node_links_to_Node")
    for fact in asserted:
        assert isinstance(relation, Relation) and not is_derived(relation.payload(fact))
    for fact in facts(D, "Node_links_to_Node") - asserted:
        assert isinstance(relation, Relation) and is_derived(relation.payload(fact))
