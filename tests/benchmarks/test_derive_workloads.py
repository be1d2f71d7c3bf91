"""The derivation benchmark's workloads have the shapes its docstrings promise, and arest's load
builds what its derivation reads."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "derive_workloads.py"


def _load(path: Path) -> ModuleType:
    """The benchmark folder is not a package: load the module from its file."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


workloads = _load(SCRIPT)
Edge = tuple[str, str]
sizes = st.integers(min_value=0, max_value=2_000)


def number(name: str) -> int:
    return int(name.lstrip("rp"))


def closure(edges: list[Edge]) -> set[Edge]:
    """Naive transitive closure: join the whole closure with the edges until nothing is new."""
    result = set(edges)
    while True:
        step = {(a, d) for a, b in result for c, d in edges if b == c} - result
        if not step:
            return result
        result |= step


@given(sizes)
def test_the_dag_has_n_distinct_edges_from_earlier_to_later_regions(n: int) -> None:
    edges = workloads.tc_dag(n)
    assert len(edges) == n == len(set(edges))
    assert all(number(container) < number(region) for container, region in edges)
    containers = Counter(region for _, region in edges)
    assert set(containers.values()) <= {1, 2}
    assert sorted(number(region) for region in containers) == list(
        range(1, len(containers) + 1)
    )


@given(sizes, sizes)
def test_a_smaller_dag_is_a_prefix_of_a_larger_one(m: int, n: int) -> None:
    small, large = sorted((m, n))
    assert workloads.tc_dag(large)[:small] == workloads.tc_dag(small)


def test_about_a_tenth_of_the_regions_have_a_second_container() -> None:
    edges = workloads.tc_dag(100_000)
    containers = Counter(region for _, region in edges)
    twice = sum(1 for count in containers.values() if count == 2)
    assert 0.09 < twice / len(containers) < 0.11
    assert workloads.tc_dag(100_000, seed=1) == edges
    assert workloads.tc_dag(1_000, seed=2) != edges[:1_000]


@given(sizes)
def test_chains_hold_n_edges_in_chains_of_fifty(n: int) -> None:
    edges = workloads.tc_chain(n)
    assert len(edges) == n == len(set(edges))
    heads = Counter(head.split(".")[0] for head, _ in edges)
    assert all(count == workloads.CHAIN_LENGTH for count in list(heads.values())[:-1])


def test_a_chain_closure_holds_n_times_51_over_2_facts() -> None:
    edges = workloads.tc_chain(200)
    assert len(closure(edges)) == 200 * 51 // 2
    assert len(closure(workloads.tc_chain(10, length=4))) == 2 * (4 * 5 // 2) + 2 * 3 // 2


@given(sizes)
def test_the_parent_facts_form_a_forest(n: int) -> None:
    facts = workloads.gp(n)
    assert len(facts) == n
    children = [child for _, child in facts]
    assert len(set(children)) == n  # each person has at most one parent
    assert all(number(parent) < number(child) for parent, child in facts)


def test_about_one_percent_of_the_persons_are_roots() -> None:
    facts = workloads.gp(100_000)
    persons = 1 + max(number(child) for _, child in facts)
    roots = persons - len(facts)
    assert 0.008 < roots / persons < 0.012


def test_new_edges_refuse_more_than_the_dag_can_take() -> None:
    with pytest.raises(ValueError, match="at most 1 new edges"):
        workloads.new_edges(2, 2)


@given(st.integers(min_value=10, max_value=2_000), st.integers(min_value=0, max_value=30))
def test_new_edges_are_new_and_keep_the_dag_acyclic(n: int, k: int) -> None:
    dag = workloads.tc_dag(n)
    added = workloads.new_edges(n, k)
    regions = {region for edge in dag for region in edge}
    assert len(added) == len(set(added)) == k
    assert not set(added) & set(dag)
    assert all(number(a) < number(b) for a, b in added)
    assert {region for edge in added for region in edge} <= regions
    assert workloads.new_edges(n, k) == added


@pytest.mark.parametrize("query", ["tc", "gp"])
def test_arest_loads_the_indexes_its_derivation_probes_and_no_other(query: str) -> None:
    from arest.algebra.relations import Relation
    from arest.system.derive import program_of

    engine = _load(SCRIPT.parent / "derive_arest.py")
    # More edges than a batch kept as persistent maps: the relation is a frozen base, whose
    # indexes are built when someone asks.
    edges = workloads.tc_chain(5_000) if query == "tc" else workloads.gp(5_000)
    D = engine.arest_load(query, edges)
    program = program_of(D)
    for fact_type, roles in program.probed_roles.items():
        relation = D.get(fact_type)
        if isinstance(relation, Relation) and len(relation) > Relation.compaction_floor:
            kept = fact_type not in program.derived()
            assert all(relation.is_indexed(role) == kept for role in roles), fact_type
    # Whatever the load built, the derivation indexes every role a plan probes, and its
    # answer is the query's.
    derived = engine.arest_derive(query, D)
    for fact_type, roles in program.probed_roles.items():
        relation = derived.get(fact_type)
        if isinstance(relation, Relation):
            assert all(relation.is_indexed(role) for role in roles), fact_type
    answer = engine.arest_export(query, derived)
    if query == "tc":
        assert len(answer) == 5_000 * 51 // 2 and set(edges) <= answer
    else:
        children: dict[str, list[str]] = {}
        for parent, child in edges:
            children.setdefault(parent, []).append(child)
        assert answer == {(a, c) for a, b in edges for c in children.get(b, ())}
