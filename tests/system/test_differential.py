"""The differential oracle: on generated schemas using every rule and constraint kind, after
every command of a random sequence, the D that commands maintained incrementally (DRed, the
woken constraints) holds what a derivation from scratch over the same asserted facts and a
full validation give."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import arest
from arest.algebra.relations import Relation
from arest.compiler.change import Change
from arest.compiler.readings import sources_of
from arest.system.derive import derive_all, is_derived, program_of
from arest.system.validate import alethic, all_violations
from arest.testing import (
    GRAPH_RULES,
    bulk_load,
    command_sequences,
    graph_scenarios,
    populations,
)
from tests.corpus import loaded

COMPILED: dict[str, Any] = {}


def compiled(readings: str) -> Any:
    if readings not in COMPILED:
        COMPILED[readings] = arest.compile(readings)
    return COMPILED[readings]


def derived_relations(D: Any) -> dict[str, dict[tuple[str, ...], bool]]:
    """Each derived fact type's facts, each with whether it is derived (else asserted)."""
    found = {}
    for fact_type in sorted(program_of(D).derived()):
        relation = D.get(fact_type)
        found[fact_type] = ({fact: is_derived(relation.payload(fact)) for fact in relation}
                            if isinstance(relation, Relation) else {})
    return found


def violation_keys(found: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(v["constraint_id"], repr(v["detail"])) for v in found}


def violated(found: list[dict[str, Any]]) -> set[tuple[str, str]]:
    """Each constraint with the keys it is violated at (a violation whose evidence changed,
    a fact of three over a uniqueness retracted, is not a new one)."""
    return {(v["constraint_id"], repr(v["detail"]["key"])) for v in found}


def assert_incremental_is_from_scratch(D: Any) -> None:
    scratch = derive_all(D)
    assert derived_relations(D) == derived_relations(scratch)
    assert violation_keys(all_violations(D)) == violation_keys(all_violations(scratch))


def would_break_an_alethic_constraint(D: Any, verb: str, request: dict[str, Any]) -> bool:
    """Whether the fact written, with every derived fact from scratch, breaks an alethic
    constraint in full validation (D itself breaks none: every accepted state is valid)."""
    change = Change(D)
    (change.add if verb == "assert" else change.remove)(
        request["fact_type"], tuple(request["bindings"]))
    return bool(alethic(all_violations(derive_all(change.state))))


def check_every_command(scenario: Any, D: Any = None) -> list[str]:
    """After each command, derived facts (and which are derived) and the violations of the
    incremental D are those of a from-scratch derivation; an accepted command reports
    violations full validation finds, every constraint violated at a key where it was not
    before among them;
    a write is rejected exactly when its state, derived from scratch, breaks an alethic
    constraint (facts that fire transitions aside: firing is the command's, not the state's).
    Returns each command's verb and outcome."""
    readings, sequence = scenario
    D = compiled(readings) if D is None else D
    outcomes = []
    for key, request in sequence:
        before = violated(all_violations(D))
        out, after = arest.apply(D, key, request)
        outcomes.append(f"{key.split(':')[0]}: " + (
            "error" if "error" in out else "rejected" if out.get("rejected") else "ok"))
        assert_incremental_is_from_scratch(after)
        if key in ("assert", "retract") and "fact_type" in request and "error" not in out and (
                "triggered by" not in readings):
            assert out["rejected"] == would_break_an_alethic_constraint(D, key, request)
        if after is not D and not out.get("rejected") and key != "rollback":
            reported = violated(out.get("violations", []))
            found = violated(all_violations(after))
            assert found - before <= reported <= found
        D = after
    return outcomes


def observed(outcomes: list[str]) -> None:
    for outcome in set(outcomes):
        event(outcome)


@pytest.mark.parametrize("rule", GRAPH_RULES, ids=lambda rule: rule[-1][2:40])
@settings(max_examples=2)
@given(data=st.data())
def test_each_rule_kind_keeps_the_from_scratch_fixed_point(rule: tuple[str, ...],
                                                           data: st.DataObject) -> None:
    """Each rule of the pool with a few others and constraints, commands writing what it
    reads (a few scenarios per rule; the slow suite runs more)."""
    observed(check_every_command(data.draw(graph_scenarios(rule, max_size=30))))


@pytest.mark.slow
@pytest.mark.parametrize("rule", GRAPH_RULES, ids=lambda rule: rule[-1][2:40])
@settings(max_examples=12)
@given(data=st.data())
def test_each_rule_kind_keeps_the_from_scratch_fixed_point_over_more_scenarios(
        rule: tuple[str, ...], data: st.DataObject) -> None:
    """The same, over more scenarios per rule."""
    observed(check_every_command(data.draw(graph_scenarios(rule, max_size=30))))


@settings(max_examples=12)
@given(graph_scenarios())
def test_every_command_keeps_the_from_scratch_fixed_point(scenario: Any) -> None:
    """Random mixes of rules and constraints (a few; the slow suite runs more)."""
    observed(check_every_command(scenario))


@pytest.mark.slow
@settings(max_examples=60)
@given(graph_scenarios())
def test_every_command_keeps_the_from_scratch_fixed_point_over_more_mixes(scenario: Any
                                                                           ) -> None:
    """The same, over more mixes."""
    observed(check_every_command(scenario))


SHIPPED_DOMAINS = sorted(path.name for path in (Path(__file__).parents[2] / "readings").iterdir()
                         if path.is_dir())


@pytest.mark.slow
@pytest.mark.parametrize("name", SHIPPED_DOMAINS)
@settings(max_examples=15)
@given(data=st.data())
def test_each_shipped_domain_keeps_the_from_scratch_fixed_point(name: str,
                                                                 data: st.DataObject) -> None:
    """The example domains of readings/, under ``arest.testing.command_sequences``: a valid
    population, then commands over every verb, machine and rule of the domain."""
    D = loaded(name)
    readings = "\n".join(text for _, text in sources_of(D))
    observed(check_every_command((readings, data.draw(command_sequences(D, max_size=10))), D))


@pytest.mark.slow
@pytest.mark.parametrize("name", SHIPPED_DOMAINS)
# genealogy's constraints are mostly rings and subtypes, which no single change breaks alone:
# most of its draws are discarded.
@settings(max_examples=10, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_a_broken_population_is_refused_incrementally_and_from_scratch_alike(
        name: str, data: st.DataObject) -> None:
    """``arest.testing.populations(D, invalid=True)`` on the example domains: the command's
    woken constraints and a full validation from scratch of D with the facts written as the
    command writes them, unchecked (one at a time or in bulk, alike), both find the one
    constraint the population names broken, and nothing else."""
    D = loaded(name)
    population = data.draw(populations(D, invalid=True))
    assert population.breaks is not None
    out, after = arest.apply(D, *population.command())
    change = Change(D)
    for fact_type, fact in population.facts:
        change.add(fact_type, fact)
    assert bulk_load(D, population.facts) == change.state
    scratch = all_violations(derive_all(change.state))
    assert out["rejected"] and after is D
    incremental = {v["constraint_id"] for v in alethic(out["violations"])}
    assert incremental == {v["constraint_id"] for v in alethic(scratch)} == {
        population.breaks.id}
