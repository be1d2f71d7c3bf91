"""arest.testing's strategies over a user's domain: what D accepts, what breaks one named
constraint, commands over every verb, machine and rule, and readings that read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arest
from arest.forml2 import metamodel, read
from arest.testing import command_sequences, commands, populations, readings
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


@pytest.mark.slow
@settings(max_examples=25)
@given(command_sequences(domain("orders"), max_size=8))
def test_a_command_sequence_never_raises(sequence: list[tuple[str, Any]]) -> None:
    D = domain("orders")
    for key, request in sequence:
        out, D = arest.apply(D, key, request)
        assert isinstance(out, dict)


@pytest.mark.slow
@settings(max_examples=30)
@given(readings())
def test_generated_readings_read_without_a_diagnostic(text: str) -> None:
    assert read(text, known=metamodel()).diagnostics == ()
