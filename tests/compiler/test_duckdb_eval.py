"""The DuckDB evaluator derives what the FFP evaluator derives: on random populations of a
program of positive join rules (transitive rings, one also derived by a rule, literals,
repeated variables), ``derive_all`` with every stratum DuckDB accepts run in DuckDB gives
the same facts, the same asserted facts, and for each derived fact a support ⟨rule, plan,
row⟩ that is a derivation of it in the result."""

from __future__ import annotations

from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.algebra.relations import Relation
from arest.compiler import duckdb_eval
from arest.system.derive import derive_all, is_derived, program_of, rows
from arest.testing import bulk_load

pytest.importorskip("duckdb", reason="the DuckDB evaluator needs the duckdb extra")

PROGRAM = """\
Node(.id) is an entity type.
Node links to Node.
  Node1 links to Node2 is transitive.
Node1 is two hops from Node2.
Node1 reaches Node2.
  Node1 reaches Node2 is transitive.
Node1 feeds Node2.
Node is looped.
Node has Kind.
Kind(.name) is an entity type.
Node1 is hot peer of Node2.
* Node1 is two hops from Node3 iff Node1 links to Node2 and Node2 links to Node3.
* Node1 reaches Node2 iff Node1 feeds Node2.
* Node is looped iff that Node feeds that Node.
* Node1 is hot peer of Node2 iff Node1 has Kind 'hot' and Node1 feeds Node2 \
and Node2 has Kind 'hot'.
"""
D0 = arest.compile(PROGRAM)
NODES = st.sampled_from("abcdef")
PAIRS = st.lists(st.tuples(NODES, NODES), max_size=12)
POPULATION = st.tuples(PAIRS, PAIRS, st.lists(st.tuples(NODES, st.sampled_from(
    ["hot", "cold"])), max_size=6))


def loaded(links: list[Any], feeds: list[Any], kinds: list[Any]) -> Any:
    return bulk_load(D0, [("Node_links_to_Node", p) for p in links]
                     + [("Node_feeds_Node", p) for p in feeds]
                     + [("Node_has_Kind", p) for p in kinds]
                     + [("Kind", (k,)) for _, k in kinds])


def test_every_stratum_of_the_program_is_accepted() -> None:
    derived = {rule.fact_type for s in program_of(D0).strata for rule in s
               if duckdb_eval.sql_plans(s) is not None}
    assert {"Node_links_to_Node", "Node_is_two_hops_from_Node", "Node_reaches_Node",
            "Node_is_looped", "Node_is_hot_peer_of_Node"} <= derived


# Each example opens a DuckDB database per stratum: a few examples keep the suite fast.
@settings(max_examples=15)
@given(POPULATION)
def test_duckdb_derives_what_the_ffp_evaluator_derives(population: Any) -> None:
    D = loaded(*population)
    expected = derive_all(D, in_duckdb=lambda state, stratum: False)
    found = derive_all(D, in_duckdb=lambda state, stratum: True)
    program = program_of(D)
    for stratum in program.strata:
        for rule in stratum:
            want, got = expected[rule.fact_type], found[rule.fact_type]
            assert isinstance(want, Relation) and isinstance(got, Relation)
            assert set(got) == set(want)
            for fact, payload in got.items():
                if not is_derived(payload):
                    assert want.payload(fact) == payload
    supports = {rule.id: rule for s in program.strata for rule in s}
    derivations: dict[tuple[str, int], set[tuple[str, ...]]] = {}
    for stratum in program.strata:
        if duckdb_eval.sql_plans(stratum) is None:
            continue
        for rule in stratum:
            relation = found[rule.fact_type]
            assert isinstance(relation, Relation)
            for fact, payload in relation.items():
                if not is_derived(payload):
                    continue
                rid, plan_id, row = cast(tuple[str, str, tuple[str, ...]], payload)
                plan = supports[rid].seeds[int(plan_id)]
                key = (rid, int(plan_id))
                if key not in derivations:
                    seeds = found.get(plan.seed)
                    derivations[key] = set(rows(plan, tuple(seeds) if isinstance(
                        seeds, Relation) else (), found))
                assert row in derivations[key]
                assert tuple(row[int(v) - 1] if k == "=" else v for k, v in plan.head) == fact


def test_a_closure_in_duckdb_records_the_path_step_by_step() -> None:
    D = loaded([("a", "b"), ("b", "c"), ("c", "d")], [], [])
    found = derive_all(D, in_duckdb=lambda state, stratum: True)
    relation = found["Node_links_to_Node"]
    assert isinstance(relation, Relation)
    assert relation.payload(("a", "d"))[1:] == ("0", ("a", "c", "d"))  # type: ignore[index]
    assert not is_derived(relation.payload(("a", "b")))
