"""Asserting ``<Sup>_is_a_<Sub>`` makes the entity one of the subtype: it joins the
subtype's population, so the subtype's constraints hold it and derivation sees it;
retracting it takes the entity out, with the facts in which it plays the subtype's roles.
A bulk load, the facts added one at a time and the ``assert`` command agree on it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.compiler.cells import POPULATION_PREFIX
from arest.compiler.change import Change
from arest.runtime.digest import state_digest
from arest.testing import bulk_load, populations
from tests.corpus import loaded

READINGS = Path(__file__).parents[2] / "readings"
SHIPPED_DOMAINS = sorted(path.name for path in READINGS.iterdir() if path.is_dir())


def fact(fact_type: str, *bindings: str) -> dict[str, Any]:
    return {"fact_type": fact_type, "bindings": list(bindings)}


NAMED = fact("Clinician_has_Full_Name", "cx", "Ann")
A_DOCTOR = fact("Clinician_is_a_Doctor", "cx")


def doctors(D: Any) -> list[str]:
    return sorted(item["id"] for item in arest.apply(D, "list:Doctor")[0]["items"])


def test_a_doctor_without_a_specialty_is_refused_for_the_mandatory_specialty() -> None:
    D = loaded("clinic")
    out, after = arest.apply(D, "assert", {"facts": [NAMED, A_DOCTOR]})
    assert out["rejected"] and after is D
    assert [(v["kind"], v["reading"]) for v in out["violations"]] == [
        ("MC", "Each Doctor has exactly one Specialty.")]
    assert "cx" not in doctors(after)


def test_a_doctor_with_a_specialty_is_accepted_and_listed_as_a_doctor() -> None:
    D = loaded("clinic")
    specialty = fact("Doctor_has_Specialty", "cx", "cardiology")
    out, after = arest.apply(D, "assert", {"facts": [NAMED, A_DOCTOR, specialty]})
    assert not out["rejected"], out["violations"]
    assert "cx" in doctors(after)
    listed = arest.apply(after, "get:Doctor", {"id": "cx"})[0]
    assert listed["Specialty"] == "cardiology"


def test_creating_a_doctor_asserting_its_membership_and_bulk_load_reach_one_d() -> None:
    D = loaded("clinic")
    specialty = fact("Doctor_has_Specialty", "cx", "cardiology")
    _, created = arest.apply(D, "create:Doctor",
                             {"id": "cx", "Full Name": "Ann", "Specialty": "cardiology"})
    _, asserted = arest.apply(D, "assert", {"facts": [NAMED, A_DOCTOR, specialty]})
    loaded_in_bulk = bulk_load(D, [(f["fact_type"], tuple(f["bindings"]))
                                   for f in (NAMED, A_DOCTOR, specialty)])
    assert created == asserted == loaded_in_bulk
    assert "cx" in doctors(created)


def test_the_membership_alone_makes_the_entity_one_of_the_subtype() -> None:
    D = arest.compile("Clinician(.id) is an entity type.\nDoctor is a subtype of Clinician.\n"
                      "Doctor has Specialty.\n  Each Doctor has exactly one Specialty.")
    out, _ = arest.apply(D, "assert", A_DOCTOR)
    assert out["rejected"]
    assert [v["reading"] for v in out["violations"]] == ["Each Doctor has exactly one Specialty."]


def test_retracting_the_membership_takes_the_entity_out_of_the_subtype() -> None:
    D = loaded("clinic")
    specialty = fact("Doctor_has_Specialty", "cx", "cardiology")
    _, D = arest.apply(D, "assert", {"facts": [NAMED, A_DOCTOR, specialty]})
    # Doctor and Nurse are exclusive and exhaustive: a Clinician is exactly one of them.
    partition = [("XO", "{Doctor, Nurse} are mutually exclusive and exhaustive subtypes of "
                        "Clinician.")]
    out, after = arest.apply(D, "retract", A_DOCTOR)
    assert out["rejected"] and after is D
    assert [(v["kind"], v["reading"]) for v in out["violations"]] == partition
    out, after = arest.apply(D, "assert", fact("Clinician_is_a_Nurse", "cx"))
    assert out["rejected"] and after is D
    assert [(v["kind"], v["reading"]) for v in out["violations"]] == partition
    change = Change(D)
    change.remove("Clinician_is_a_Doctor", ("cx",))
    change.add("Clinician_is_a_Nurse", ("cx",))
    assert ("cx",) not in change.state[POPULATION_PREFIX + "Doctor"]
    assert ("cx",) in change.state[POPULATION_PREFIX + "Nurse"]
    assert ("cx", "cardiology") not in change.state["Doctor_has_Specialty"]


def test_retracting_the_membership_frees_the_entity_of_the_subtypes_constraints() -> None:
    D = arest.compile("Clinician(.id) is an entity type.\nDoctor is a subtype of Clinician.\n"
                      "Doctor has Specialty.\n  Each Doctor has exactly one Specialty.")
    _, D = arest.apply(D, "assert", {"facts": [A_DOCTOR, fact("Doctor_has_Specialty", "cx",
                                                                   "general")]})
    assert doctors(D) == ["cx"]
    out, after = arest.apply(D, "retract", A_DOCTOR)
    assert not out["rejected"], out["violations"]
    assert doctors(after) == []
    assert arest.apply(after, "list:Clinician")[0]["total"] == 1
    assert arest.apply(after, "query:Doctor_has_Specialty")[0]["rows"] == []


SEEN_BY_A_DOCTOR = """\
Clinician(.id) is an entity type.
Doctor is a subtype of Clinician.
Visit(.id) is an entity type.
Visit is with Clinician.
Visit is seen by Doctor.
* Visit is seen by Doctor iff Visit is with Clinician and that Clinician is a Doctor.
"""


def test_derivation_sees_the_entity_join_and_leave_the_subtype() -> None:
    _, D = arest.apply(arest.compile(SEEN_BY_A_DOCTOR), "assert",
                       fact("Visit_is_with_Clinician", "v1", "cx"))
    seen = fact("Visit_is_seen_by_Doctor", "v1", "cx")
    out, D = arest.apply(D, "assert", A_DOCTOR)
    assert [(d["fact_type"], list(d["bindings"].values())) for d in out["derived"]] == [
        (seen["fact_type"], seen["bindings"])]
    assert doctors(D) == ["cx"]
    _, D = arest.apply(D, "retract", A_DOCTOR)
    assert arest.apply(D, "query:Visit_is_seen_by_Doctor")[0]["rows"] == []
    assert doctors(D) == []


def one_at_a_time(D: Any, facts: tuple[tuple[str, tuple[str, ...]], ...]) -> Any:
    change = Change(D)
    for fact_type, added in facts:
        change.add(fact_type, added)
    return change.state


def cells_of(D: Any, names: set[str]) -> dict[str, set[tuple[str, ...]]]:
    return {name: set(D[name]) for name in sorted(names) if name in D}


@pytest.mark.parametrize("name", SHIPPED_DOMAINS)
@settings(max_examples=10)
@given(data=st.data())
def test_bulk_load_one_at_a_time_and_assert_agree_on_the_shipped_domains(
        name: str, data: st.DataObject) -> None:
    """``arest.testing.populations`` on the example domains: bulk_load and the facts added
    one at a time give the same D (the same digest), and the ``assert`` command puts every
    entity in the same populations and writes the same facts."""
    D = loaded(name)
    population = data.draw(populations(D))
    bulk = bulk_load(D, population.facts)
    one = one_at_a_time(D, population.facts)
    assert bulk == one
    assert state_digest(bulk) == state_digest(one)
    if not population.facts:
        return
    out, asserted = arest.apply(D, *population.command())
    assert not out["rejected"], out["violations"]
    written = {cell for cell in bulk if cell.startswith(POPULATION_PREFIX)} | {
        fact_type for fact_type, _ in population.facts}
    assert cells_of(asserted, written) == cells_of(bulk, written)


def test_a_rule_deriving_membership_of_a_subtype_is_a_diagnostic_at_its_sentence() -> None:
    """A derived member would escape the subtype's constraints, which hold its asserted
    members: the reader refuses the rule where it stands rather than accept it unenforced."""
    text = ("Clinician(.Name) is an entity type.\n"
            "Doctor is a subtype of Clinician.\n"
            "Licence Code is a value type.\n"
            "Clinician has Licence Code.\n"
            "Each Clinician has at most one Licence Code.\n"
            "* Clinician is a Doctor if Clinician has some Licence Code.\n")
    with pytest.raises(arest.ReadingError) as refused:
        arest.compile(text)
    [diagnostic] = refused.value.diagnostics
    assert (diagnostic.line, diagnostic.column) == (6, 1)
    assert "membership of the subtype Doctor" in diagnostic.message
    assert "Assert `Clinician is a Doctor`" in diagnostic.message
