"""arest.testing's strategies over a user's domain: what D accepts, what breaks one named
constraint, commands over every verb, machine and rule, and readings that read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arest
from arest.forml2.constructs import constraint_id
from arest.system.derive import derive_all
from arest.system.validate import alethic, all_violations
from arest.testing import bulk_load, command_sequences, commands, populations
from arest.testing.domains import Population, command_keys

DOMAINS = sorted(p.name for p in (Path(__file__).parents[2] / "readings").iterdir() if p.is_dir())
LOADED: dict[str, Any] = {}


def domain(name: str) -> Any:
    if name not in LOADED:
        LOADED[name] = arest.load(Path(__file__).parents[2] / "readings" / name)
    return LOADED[name]


def alethic_ids(out: dict[str, Any]) -> set[str]:
    return {v["constraint_id"] for v in out.get("violations", []) if v["modality"] == "alethic"}


def test_a_population_is_one_assert_of_its_facts() -> None:
    population = Population((("Customer_has_Name", ("ann", "Ann")),))
    out, D = arest.apply(domain("orders"), *population.command())
    assert not out["rejected"]
    assert arest.apply(D, "read:Customer", "ann")[0]["Name"] == "Ann"


def test_the_shops_command_keys_reach_every_verb_machine_and_rule() -> None:
    keys = command_keys(domain("orders"))
    assert {"assert", "retract", "snapshot", "rollback", "transition:Order", "create:Order",
            "update:Customer", "delete:Order", "query:Customer_has_Unpaid_Order_Count"} <= set(keys)


@settings(max_examples=10)
@given(st.data())
def test_commands_over_a_domain_are_its_keys(data: st.DataObject) -> None:
    D = domain("orders")
    key, _ = data.draw(commands(D))
    assert key in command_keys(D)


@pytest.mark.slow
@pytest.mark.parametrize("name", DOMAINS)
@settings(max_examples=25)
@given(data=st.data())
def test_every_valid_population_is_accepted(name: str, data: st.DataObject) -> None:
    D = domain(name)
    population = data.draw(populations(D))
    if population.facts:  # the empty population is valid and no command writes it
        out, _ = arest.apply(D, *population.command())
        assert not out["rejected"], out["violations"]


@pytest.mark.slow
@pytest.mark.parametrize("name", DOMAINS)
# genealogy's constraints are mostly rings and subtypes, which no single change breaks alone:
# most of its draws are discarded.
@settings(max_examples=25, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_an_invalid_population_is_rejected_for_exactly_the_constraint_it_names(
        name: str, data: st.DataObject) -> None:
    D = domain(name)
    population = data.draw(populations(D, invalid=True))
    assert population.breaks is not None
    out, after = arest.apply(D, *population.command())
    assert out["rejected"] and after is D
    assert alethic_ids(out) == {population.breaks.id}


# One fact type, or a pair, for each kind a population breaks by adding facts: frequency
# (an upper and a lower bound), subset, equality, exclusion, and uniqueness over a ternary.
BREAKABLE = """\
Person(.Name) is an entity type.
Car(.VIN) is an entity type.
Place(.id) is an entity type.
Nickname is a value type.
Hobby is a value type.
Age is a value type.
Year is a value type.
Person has Nickname.
  Each Person has at most 2 Nicknames.
Person has Hobby.
  Each Person has at least 2 and at most 3 Hobbies.
Person owns Car.
Person rents Car.
Person leases Car.
For each Car, at most one of the following holds:
  some Person owns that Car; some Person rents that Car.
If some Person leases some Car then that Person owns some Car.
Person is insured.
Person has Age.
Some Person is insured if and only if that Person has some Age.
Person lived at Place in Year.
  Each Person lived at at most one Place per Year.
"""


def breakable() -> Any:
    if "breakable" not in LOADED:
        LOADED["breakable"] = arest.compile(BREAKABLE)
    return LOADED["breakable"]


def from_scratch(D: Any, population: Population) -> set[str]:
    """The alethic constraints a full validation finds broken once the facts are in D
    without a check (derived facts recomputed)."""
    return {v["constraint_id"] for v in alethic(all_violations(derive_all(
        bulk_load(D, population.facts))))}


def assert_breaks_exactly(D: Any, population: Population) -> None:
    assert population.breaks is not None
    out, after = arest.apply(D, *population.command())
    assert out["rejected"] and after is D
    assert alethic_ids(out) == {population.breaks.id}
    assert from_scratch(D, population) == {population.breaks.id}


@pytest.mark.parametrize("reading", [
    "Each Person has at most 2 Nicknames.",
    "Each Person has at least 2 and at most 3 Hobbies.",
    "If some Person leases some Car then that Person owns some Car.",
    "Some Person is insured if and only if that Person has some Age.",
    "For each Car, at most one of the following holds:"
    " some Person owns that Car; some Person rents that Car.",
    "Each Person lived at at most one Place per Year.",
])
@settings(max_examples=2, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(data=st.data())
def test_a_population_breaks_each_kind_alone(reading: str, data: st.DataObject) -> None:
    D = breakable()
    aimed = constraint_id(reading)
    population = data.draw(populations(D, invalid=True, breaking={aimed}))
    assert population.breaks is not None and population.breaks.id == aimed
    assert_breaks_exactly(D, population)


@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_the_verdict_on_a_broken_population_is_its_constraint_alone(
        data: st.DataObject) -> None:
    D = breakable()
    assert_breaks_exactly(D, data.draw(populations(D, invalid=True)))


@pytest.mark.slow
@settings(max_examples=25)
@given(command_sequences(domain("orders"), max_size=8))
def test_a_command_sequence_never_raises(sequence: list[tuple[str, Any]]) -> None:
    D = domain("orders")
    for key, request in sequence:
        out, D = arest.apply(D, key, request)
        assert isinstance(out, dict)

