"""Supports kept implied: a from-scratch derivation gives the facts, supports, order and
stored form that the derivation gave when every support was a whole ⟨rule, plan, row⟩
tuple built from the evaluator's rows, and a command over it maintains the same state.

The oracle below is that derivation as it was written (each plan's rows from the
evaluator, the first row finding a head its support), kept here to compare against."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import arest
from arest.algebra.relations import ASSERTED, Relation
from arest.compiler.cells import asserted_cell
from arest.compiler.population import with_facts
from arest.runtime.codec import encode_cell
from arest.system.derive import (
    Store,
    aggregate,
    derive_all,
    heads,
    program_of,
    relation_of,
    rows,
    without_derived_facts,
)
from arest.system.explain import explain

READINGS = """\
Node(.id) is an entity type.
Weight is a value type.
Node links to Node.
  Node1 links to Node2 is transitive.
Node1 is two hops from Node2.
Node1 is near Node2.
  Node1 is near Node2 is transitive.
Node is marked.
Node is blocked.
Node is free.
Node has Weight.
Node has reach Weight.
* Node1 is two hops from Node3 iff Node1 links to Node2 and Node2 links to Node3.
+ Node1 is near Node3 if Node1 links to Node2 and Node2 links to Node3.
+ Node1 is near Node2 if Node2 is marked and Node1 links to Node2.
* Node is free iff Node is marked and Node is not blocked.
* Node has reach Weight iff reach Weight is the sum of Weight where Node links to some Node2 \
and that Node2 has Weight.
"""
"""A linear closure (``links to``, asserted only), a closure that rules derive into as
well (``is near``: its closure rule joins the derived relation with itself, and two rules
and the closure's two plans write supports into one relation), a join, a negation and an
aggregation over the closure."""

D0 = arest.compile(READINGS)
NODES = st.sampled_from("abcdefg")
FACTS = st.lists(st.one_of(
    st.tuples(st.just("Node_links_to_Node"), st.tuples(NODES, NODES)),
    st.tuples(st.sampled_from(["Node_is_marked", "Node_is_blocked"]), st.tuples(NODES)),
    st.tuples(st.just("Node_has_Weight"), st.tuples(NODES, st.sampled_from(["1", "2.5"]))),
), max_size=30)


def whole_supports(state: Any) -> Any:
    """The from-scratch fixed point with every support whole, as derive_all computed it
    before supports were kept implied."""
    program = program_of(state)
    for rule in program.rules():
        state = state.update({rule.fact_type: without_derived_facts(
            relation_of(state, rule.fact_type, rule.arity))})
    state = state.update({asserted_cell(f): Relation.frozen(2, dict.fromkeys(
        relation_of(state, f, 2), ASSERTED)) for f in program.asserted})
    for stratum in program.strata:
        store = Store(state, stratum, scratch=True)
        for rule in stratum:
            if rule.is_aggregation:
                aggregate(store, rule, None, state)
        joins = [rule for rule in stratum if not rule.is_aggregation]
        fresh: dict[str, list[Any]] = {}
        for rule in joins:
            index, plan = next((i, p) for i, p in enumerate(rule.seeds) if not p.negated)
            _enter(store, fresh, rule, str(index), plan,
                   relation_of(state, plan.seed, rule.arity), state)
        while fresh:
            current, fresh = fresh, {}
            at = store.view()
            for rule in joins:
                for index, plan in enumerate(rule.seeds):
                    if plan.seed in current and not plan.negated:
                        _enter(store, fresh, rule, str(index), plan, current[plan.seed], at)
        state = store.result()
    return state


def _enter(store: Store, fresh: dict[str, list[Any]], rule: Any, plan_id: str, plan: Any,
           seeds: Any, at: Any) -> None:
    """Each head of the plan's rows (the evaluator's) not yet derived enters with its
    support ⟨rule, plan, row⟩, the first row finding it."""
    facts = store.facts[rule.fact_type]
    for head, row in heads(plan, rows(plan, tuple(seeds), at)):
        if head not in facts:
            facts[head] = (rule.id, plan_id, row)
            fresh.setdefault(rule.fact_type, []).append(head)


def derived_fact_types(state: Any) -> list[str]:
    return sorted({rule.fact_type for rule in program_of(state).rules()})


@given(FACTS)
def test_implied_supports_give_the_whole_supports_order_and_stored_form(facts: Any) -> None:
    D = with_facts(D0, facts)
    implied, whole = derive_all(D), whole_supports(D)
    for fact_type in derived_fact_types(D):
        now, then = implied.get(fact_type), whole.get(fact_type)
        assert isinstance(now, Relation) and isinstance(then, Relation)
        assert list(now.items()) == list(then.items())
        assert now == then and then == now
        assert encode_cell(now) == encode_cell(then)
        for fact in then:
            assert now.payload(fact) == then.payload(fact) == now.lookup()(fact)


@given(FACTS, st.data())
def test_explanations_and_commands_over_implied_supports_are_the_same(
        facts: Any, data: st.DataObject) -> None:
    D = with_facts(D0, facts)
    implied, whole = derive_all(D), whole_supports(D)
    for fact_type in ("Node_links_to_Node", "Node_is_near_Node", "Node_is_two_hops_from_Node"):
        for fact in sorted(relation_of(whole, fact_type, 2))[:6]:
            request = {"fact_type": fact_type, "bindings": list(fact)}
            assert explain(implied, request) == explain(whole, request)
    edge = data.draw(st.tuples(NODES, NODES))
    verb = data.draw(st.sampled_from(["assert", "retract"]))
    command = {"fact_type": "Node_links_to_Node", "bindings": list(edge)}
    out_now, after_now = arest.apply(implied, verb, command)
    out_then, after_then = arest.apply(whole, verb, command)
    assert out_now == out_then
    for fact_type in derived_fact_types(D):
        now, then = after_now.get(fact_type), after_then.get(fact_type)
        assert isinstance(now, Relation) and isinstance(then, Relation)
        assert sorted(now.items(), key=str) == sorted(then.items(), key=str)


def test_a_relation_holding_an_atom_payload_keeps_every_support_whole() -> None:
    """An atom kept for a support would read as that payload: where a fact of the relation
    carries an atom of its own, no support is kept implied."""
    D = with_facts(D0, [("Node_links_to_Node", ("a", "b")), ("Node_links_to_Node", ("b", "c"))])
    links = relation_of(D, "Node_links_to_Node", 2).add(("c", "d"), "note")
    D = D.update({"Node_links_to_Node": links})
    derived = relation_of(derive_all(D), "Node_links_to_Node", 2)
    assert derived.payload(("c", "d")) == "note"
    assert list(derived.items()) == list(relation_of(whole_supports(D), "Node_links_to_Node",
                                                      2).items())
