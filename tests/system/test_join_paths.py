"""Conditional constraints over join paths: every shape the reader accepts is enforced, and a
command's violations are exactly what full validation finds new."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.compiler.constraints import compile_constraints
from arest.compiler.schema import schema_of
from arest.system.validate import all_violations

GARAGES = """\
Person(.Name) is an entity type.
Car(.VIN) is an entity type.
Garage(.id) is an entity type.
City(.Name) is an entity type.
Person owns Car.
Car is kept in Garage.
Garage is in City.
Person lives in City.
{modality}some Person owns some Car and that Car is kept in some Garage and that Garage is in
  some City then that Person lives in that City.
"""

FAMILY = """\
Person(.Name) is an entity type.
Person is parent of Person.
Person is grandparent of Person.
Person is child of Person.
{modality}some Person1 is parent of some Person2 and that Person2 is parent of some Person3
  then that Person1 is grandparent of that Person3.
{modality}some Person1 is parent of some Person2 then that Person2 is child of that Person1.
"""

PARKING = """\
Car(.VIN) is an entity type.
Garage(.id) is an entity type.
City(.Name) is an entity type.
Car is registered.
Car is kept in Garage.
Garage is in City.
{modality}some Car is registered then that Car is kept in some Garage and that Garage is in
  some City.
"""

ALETHIC, DEONTIC = "If ", "It is obligatory that if "


def asserted(D: Any, fact_type: str, *values: str) -> tuple[dict[str, Any], Any]:
    return arest.apply(D, "assert", {"fact_type": fact_type, "bindings": list(values)})


def retracted(D: Any, fact_type: str, *values: str) -> tuple[dict[str, Any], Any]:
    return arest.apply(D, "retract", {"fact_type": fact_type, "bindings": list(values)})


@pytest.mark.parametrize("domain", [GARAGES, FAMILY, PARKING])
def test_every_join_path_the_reader_accepts_has_a_check(domain: str) -> None:
    for modality in (ALETHIC, DEONTIC):
        schema = schema_of(arest.compile(domain.format(modality=modality)))
        assert compile_constraints(schema)[1] == []  # nothing refused


def test_a_subset_over_a_three_step_join_path_rejects_the_fact_that_breaks_it() -> None:
    D = arest.compile(GARAGES.format(modality=ALETHIC))
    _, D = asserted(D, "Person_owns_Car", "ann", "c1")
    _, D = asserted(D, "Car_is_kept_in_Garage", "c1", "g1")
    out, same = asserted(D, "Garage_is_in_City", "g1", "paris")
    assert out["rejected"] and same is D
    assert out["violations"][0]["detail"] == {"key": ["ann", "paris"],
                                              "evidence": ["Person", "City"]}
    _, D = asserted(D, "Person_lives_in_City", "ann", "paris")
    out, D = asserted(D, "Garage_is_in_City", "g1", "paris")
    assert not out["rejected"], out
    out, same = retracted(D, "Person_lives_in_City", "ann", "paris")
    assert out["rejected"] and same is D
    out, D = retracted(D, "Car_is_kept_in_Garage", "c1", "g1")
    assert not out["rejected"], out
    out, D = retracted(D, "Person_lives_in_City", "ann", "paris")
    assert not out["rejected"], out


def test_a_self_join_keeps_its_variables_apart() -> None:
    D = arest.compile(FAMILY.format(modality=ALETHIC))
    _, D = asserted(D, "Person_is_child_of_Person", "bo", "al")
    _, D = asserted(D, "Person_is_parent_of_Person", "al", "bo")
    _, D = asserted(D, "Person_is_child_of_Person", "cy", "bo")
    out, same = asserted(D, "Person_is_parent_of_Person", "bo", "cy")
    assert out["rejected"] and same is D
    assert {v["detail"]["key"][0] + ">" + v["detail"]["key"][1]
            for v in out["violations"]} == {"al>cy"}
    # The two-clause ring subset aligns by variable, not by noun: bo is al's child.
    out, same = asserted(D, "Person_is_parent_of_Person", "bo", "al")
    assert out["rejected"]
    assert any(v["detail"]["key"] == ["bo", "al"] for v in out["violations"])


def test_a_fact_that_leaves_a_clause_binding_no_shared_variable_is_checked() -> None:
    D = arest.compile(PARKING.format(modality=ALETHIC))
    _, D = asserted(D, "Car_is_kept_in_Garage", "c1", "g1")
    _, D = asserted(D, "Garage_is_in_City", "g1", "paris")
    out, D = asserted(D, "Car_is_registered", "c1")
    assert not out["rejected"], out
    out, same = retracted(D, "Garage_is_in_City", "g1", "paris")
    assert out["rejected"] and same is D
    assert out["violations"][0]["detail"]["key"] == ["c1"]


NAMES = st.sampled_from(["a", "b", "c"])
DOMAINS = {
    GARAGES: ["Person_owns_Car", "Car_is_kept_in_Garage", "Garage_is_in_City",
              "Person_lives_in_City"],
    FAMILY: ["Person_is_parent_of_Person", "Person_is_grandparent_of_Person",
             "Person_is_child_of_Person"],
    PARKING: ["Car_is_registered", "Car_is_kept_in_Garage", "Garage_is_in_City"],
}


@st.composite
def commands(draw: st.DrawFn, fact_types: list[str], arity: dict[str, int]
             ) -> list[tuple[str, str, tuple[str, ...]]]:
    return draw(st.lists(st.tuples(
        st.sampled_from(["assert", "assert", "retract"]), st.sampled_from(fact_types),
        st.tuples(NAMES, NAMES, NAMES)).map(lambda c: (c[0], c[1], c[2][:arity[c[1]]])),
        max_size=14))


def _keyed(found: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(v["constraint_id"], repr(v["detail"]["key"])) for v in found}


@pytest.mark.parametrize("domain", list(DOMAINS))
@settings(max_examples=15)
@given(data=st.data())
def test_a_command_reports_exactly_the_violations_full_validation_finds_new(
        domain: str, data: st.DataObject) -> None:
    """A few command sequences per domain; the slow suite runs more."""
    reports_what_validation_finds(domain, data)


@pytest.mark.slow
@pytest.mark.parametrize("domain", list(DOMAINS))
@settings(max_examples=60)
@given(data=st.data())
def test_a_command_reports_exactly_the_violations_full_validation_finds_new_over_more(
        domain: str, data: st.DataObject) -> None:
    reports_what_validation_finds(domain, data)


def reports_what_validation_finds(domain: str, data: st.DataObject) -> None:
    D = arest.compile(domain.format(modality=DEONTIC))
    schema = schema_of(D)
    arity = {f: len(schema.fact_types[f].roles) for f in DOMAINS[domain]}
    before = _keyed(all_violations(D))
    for verb, fact_type, values in data.draw(commands(DOMAINS[domain], arity)):
        out, D = arest.apply(D, verb, {"fact_type": fact_type, "bindings": list(values)})
        if "error" in out:
            continue
        after = _keyed(all_violations(D))
        reported = _keyed(out["violations"])
        assert reported <= after
        assert after - before <= reported
        before = after


BIRTHPLACES = """\
Person(.Name) is an entity type.
City(.Name) is an entity type.
Person lives in City.
Person was born in City.
Some Person lives in some City if and only if that Person was born in that City.
"""


def test_an_equality_that_refers_back_to_two_nouns_compares_their_combinations() -> None:
    with pytest.raises(arest.ReadingError, match="EQ constraint"):
        arest.compile(BIRTHPLACES + "Person 'ann' lives in City 'paris'.\n"
                      "Person 'ann' was born in City 'rome'.\n")
    D = arest.compile(BIRTHPLACES + "Person 'ann' lives in City 'paris'.\n"
                      "Person 'ann' was born in City 'paris'.\n")
    out, same = retracted(D, "Person_was_born_in_City", "ann", "paris")
    assert out["rejected"] and same is D
    assert out["violations"][0]["detail"]["key"] == ["ann", "paris"]
    out, same = asserted(D, "Person_lives_in_City", "ann", "rome")
    assert out["rejected"] and same is D


ALETHIC_DOMAINS = {
    GARAGES.format(modality=ALETHIC): DOMAINS[GARAGES],
    FAMILY.format(modality=ALETHIC): DOMAINS[FAMILY],
    PARKING.format(modality=ALETHIC): DOMAINS[PARKING],
    BIRTHPLACES: ["Person_lives_in_City", "Person_was_born_in_City"],
}


@pytest.mark.parametrize("domain", list(ALETHIC_DOMAINS))
@settings(max_examples=12)
@given(data=st.data())
def test_no_accepted_command_leaves_a_violation_and_a_rejected_one_changes_nothing(
        domain: str, data: st.DataObject) -> None:
    """A few command sequences per domain; the slow suite runs more."""
    accepts_only_what_holds(domain, data)


@pytest.mark.slow
@pytest.mark.parametrize("domain", list(ALETHIC_DOMAINS))
@settings(max_examples=50)
@given(data=st.data())
def test_no_accepted_command_leaves_a_violation_over_more_sequences(
        domain: str, data: st.DataObject) -> None:
    accepts_only_what_holds(domain, data)


def accepts_only_what_holds(domain: str, data: st.DataObject) -> None:
    D = arest.compile(domain)
    schema = schema_of(D)
    fact_types = ALETHIC_DOMAINS[domain]
    arity = {f: len(schema.fact_types[f].roles) for f in fact_types}
    for _ in range(data.draw(st.integers(1, 6))):
        verb = data.draw(st.sampled_from(["assert", "assert", "retract"]))
        facts = data.draw(commands(fact_types, arity).filter(bool))
        out, after = arest.apply(D, verb, {"facts": [
            {"fact_type": f, "bindings": list(values)} for _, f, values in facts]})
        if "error" in out or out["rejected"]:
            assert after is D
            continue
        assert [v for v in all_violations(after) if v["modality"] == "alethic"] == []
        D = after
