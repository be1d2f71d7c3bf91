"""Every constraint kind the compiler checks, on the project's own corpus (readings/), as a
user sees it through `arest.apply`: a command that breaks the constraint reports its kind,
modality and the sentence as the readings state it, with the id `schema` lists for it; alethic
violations reject the command (D′ is D), deontic ones are reported and the command commits."""

from __future__ import annotations

from typing import Any

import pytest

import arest
from arest.compiler.checks import KINDS
from tests.corpus import loaded

Violation = tuple[str, str, str]  # (kind, modality, reading)
Step = tuple[str, Any]


def asserting(fact_type: str, *values: str) -> dict[str, Any]:
    return {"fact_type": fact_type, "bindings": list(values)}


def seeded(name: str, steps: tuple[Step, ...]) -> Any:
    """The domain after commands that must pass without any violation."""
    D = loaded(name)
    for key, request in steps:
        out, D = arest.apply(D, key, request)
        assert "error" not in out and out["violations"] == [], (key, out)
    return D


def violations(D: Any, key: str, request: Any) -> tuple[set[Violation], bool, Any]:
    """The violations a command reports, each checked against `schema`; whether it was
    rejected; the state after it."""
    out, after = arest.apply(D, key, request)
    assert "error" not in out, out
    listed = {c["id"]: c for c in arest.apply(D, "schema")[0]["constraints"]}
    for v in out["violations"]:
        assert listed[v["constraint_id"]] == {"id": v["constraint_id"], "kind": v["kind"],
                                              "modality": v["modality"], "reading": v["reading"]}
    return {(v["kind"], v["modality"], v["reading"]) for v in out["violations"]}, \
        out["rejected"], after


PATIENT = ("create:Patient", {"id": "p1", "Full Name": "Pat", "Phone": "555",
                              "Home Address": "1 Main"})
VISIT = {"id": "v1", "Patient": "p1", "Clinician": "dr-lee", "Home Address": "1 Main",
         "Start Time": "09:00", "End Time": "09:30", "Room": "101",
         "Charge": [{"id": "ch1", "Procedure": "exam", "Quantity": "1", "Amount": "5"}]}
ADULT = ("create:Adult Member", {"id": "m1", "Email": "m1@x", "Library Card": "LC1"})
COPY = ("create:Copy", {"id": "c1", "Book": "978-0441478125", "Branch Library": "main",
                        "Condition": "good", "is shelved": True})
ISSUE = {"Title": "T", "Priority": "high", "Project": "core"}
ISSUES = tuple(("create:Issue", {"id": i, **ISSUE}) for i in ("i1", "i2", "i3"))
COMMENTS = (("create:Person", {"id": "bo", "Display Name": "Bo"}),
            ("create:Comment", {"id": "k1", "Issue": "i1", "Body": "b", "Person": "bo"}),
            ("create:Comment", {"id": "k2", "Issue": "i1", "Body": "b", "Person": "bo",
                                "replies to Comment": "k1"}))
BLOCKING = (("assert", asserting("Issue_blocks_Issue", "i1", "i2")),
            ("assert", asserting("Issue_blocks_Issue", "i2", "i3")))
PARENT = "Person_is_parent_of_Person"


def alethic(kind: str, reading: str) -> Violation:
    return (kind, "alethic", reading)


def deontic(kind: str, reading: str) -> Violation:
    return (kind, "deontic", reading)


# (domain, seed commands, command, the violations it reports)
CASES: dict[str, tuple[str, tuple[Step, ...], Step, set[Violation]]] = {
    "UC": ("clinic", (PATIENT, ("create:Visit", VISIT)),
           ("assert", asserting("Visit_is_with_Clinician", "v1", "rn-kim")),
           {alethic("UC", "Each Visit is with exactly one Clinician.")}),
    "UC external": ("library", (), ("create:Book", {
        "id": "978-x", "Title": "The Left Hand of Darkness", "Author": ["Ursula K. Le Guin"]}),
        {alethic("UC", "For each Title and Author, at most one Book has that Title and is "
                       "written by that Author.")}),
    "UC external in clinic": ("clinic", (PATIENT, ("create:Visit", VISIT)),
                              ("create:Visit", {**VISIT, "id": "v2", "Charge": [
                                  {"id": "ch2", "Procedure": "exam", "Quantity": "1",
                                   "Amount": "5"}]}),
                              {alethic("UC", "For each Room and Start Time, at most one Visit "
                                             "is held in that Room and has that Start Time.")}),
    "MC": ("clinic", (), ("create:Patient", {"id": "p1", "Phone": "555"}),
           {alethic("MC", "Each Patient has exactly one Full Name.")}),
    "MC disjunctive": ("clinic", (), ("create:Patient", {"id": "p1", "Full Name": "Pat"}),
                       {alethic("MC", "Each Patient has some Phone or has some Email.")}),
    "FC": ("clinic", (PATIENT,), ("update:Patient", {"id": "p1", "Emergency Contact": [
        "a", "b", "c"]}), {alethic("FC", "Each Patient has at most 2 Emergency Contacts.")}),
    "VC values": ("clinic", (), ("create:Doctor", {"id": "dr-x", "Full Name": "X",
                                                   "Specialty": "surgery"}),
                  {alethic("VC", "The possible values of Specialty are 'general', "
                                 "'pediatrics', 'cardiology', 'dermatology'.")}),
    "VC comparison": ("clinic", (PATIENT, ("create:Visit", VISIT)),
                      ("update:Charge", {"id": "ch1", "Quantity": "100"}),
                      {alethic("VC", "Each Charge has Quantity less than 100.")}),
    "SS join": ("clinic", (PATIENT,), ("create:Visit", {**VISIT, "Home Address": "2 Elm"}),
                {alethic("SS", "If some Patient books some Visit then that Visit has Home "
                               "Address equal to that Patient's Home Address.")}),
    "SS": ("tracker", (), ("assert", asserting("Issue_is_assigned_to_Person", "i9", "ann")),
           {alethic("SS", "If some Issue is assigned to some Person then that Issue belongs "
                          "to some Project."),
            alethic("MC", "Each Issue has exactly one Title."),
            alethic("MC", "Each Issue has exactly one Priority."),
            deontic("MC", "It is obligatory that each Issue has exactly one Priority."),
            alethic("MC", "Each Issue belongs to exactly one Project.")}),
    "EQ": ("genealogy", (), ("assert", asserting("Deceased_Person_has_Death_Year", "Ben", "1999")),
           {alethic("EQ", "Some Deceased Person has some Death Year if and only if that "
                          "Deceased Person has some Burial Place.")}),
    "XO subtypes": ("clinic", (), ("create:Clinician", {"id": "x", "Full Name": "X"}),
                    {alethic("XO", "{Doctor, Nurse} are mutually exclusive and exhaustive "
                                   "subtypes of Clinician.")}),
    "XO": ("library", (ADULT, COPY), ("update:Copy", {"id": "c1", "is lost": True}),
           {alethic("XO", "For each Copy, exactly one of the following holds: that Copy is "
                          "shelved; that Copy is on loan; that Copy is lost.")}),
    "XC": ("tracker", ISSUES, ("update:Issue", {"id": "i1", "is wont fix": True,
                                                "duplicates Issue": "i2"}),
           {alethic("XC", "For each Issue, at most one of the following holds: that Issue is "
                          "wont fix; that Issue duplicates some Issue.")}),
    "OR": ("library", (), ("create:Adult Member", {"id": "m1"}),
           {alethic("OR", "For each Member, at least one of the following holds: that Member "
                          "has some Email; that Member has some Phone.")}),
    "IR": ("genealogy", (), ("assert", asserting(PARENT, "Ben", "Ben")),
           {alethic("IR", "No Person is parent of itself."),
            alethic("AC", "Person is parent of Person is acyclic."),
            alethic("AS", "If Person1 is parent of Person2 then it is impossible that Person2 "
                          "is parent of Person1.")}),
    "AS": ("genealogy", (), ("assert", asserting(PARENT, "Ben", "Ada")),
           {alethic("AC", "Person is parent of Person is acyclic."),
            alethic("AS", "If Person1 is parent of Person2 then it is impossible that Person2 "
                          "is parent of Person1.")}),
    "AC": ("genealogy", (), ("assert", asserting(PARENT, "Cleo", "Ada")),
           {alethic("AC", "Person is parent of Person is acyclic.")}),
    "AT": ("genealogy", (("assert", asserting("Person_is_elder_of_Person", "Ben", "Cleo")),),
           ("assert", asserting("Person_is_elder_of_Person", "Cleo", "Ben")),
           {alethic("AT", "Person is elder of Person is antisymmetric.")}),
    "SY": ("genealogy", (), ("assert", asserting("Person_is_married_to_Person", "Ben", "Cleo")),
           {alethic("SY", "Person is married to Person is symmetric and irreflexive.")}),
    "RF": ("genealogy", (), ("assert", asserting("Person_is_kin_of_Person", "Ben", "Cleo")),
           {alethic("RF", "Person is kin of Person is reflexive.")}),
    "IT satisfied": ("tracker", (*ISSUES, *COMMENTS), ("create:Comment", {
        "id": "k3", "Issue": "i1", "Body": "b", "Person": "bo", "replies to Comment": "k2"}),
        set()),
    "IT violated": ("tracker", (*ISSUES, *COMMENTS, ("create:Comment", {
        "id": "k3", "Issue": "i1", "Body": "b", "Person": "bo", "replies to Comment": "k2"})),
        ("assert", asserting("Comment_replies_to_Comment", "k3", "k1")),
        {alethic("IT", "If Comment 1 replies to Comment 2 and Comment 2 replies to Comment 3, "
                       "then Comment 1 does not reply to Comment 3."),
         alethic("UC", "Each Comment replies to at most one Comment.")}),
    "AC tracker": ("tracker", (*ISSUES, *BLOCKING),
                   ("assert", asserting("Issue_blocks_Issue", "i3", "i1")),
                   {alethic("AC", "Issue blocks Issue is acyclic.")}),
    "deontic UC": ("tracker", ISSUES, ("assert", asserting("Issue_has_Priority", "i1", "low")),
                   {alethic("UC", "Each Issue has exactly one Priority."),
                    deontic("UC", "It is obligatory that each Issue has exactly one Priority.")}),
    "deontic VC": ("genealogy", (), ("assert", asserting("Person_has_Birth_Year", "Ben", "2200")),
                   {deontic("VC", "It is forbidden that a Person has Birth Year greater than "
                                  "2100.")}),
    "deontic SS": ("library", (COPY, ("create:Adult Member", {"id": "m3", "Phone": "1"})),
                   ("create:Loan", {"id": "l1", "Member": "m3", "Copy": "c1",
                                    "Loan Days": "14"}),
                   {deontic("SS", "It is forbidden that a Loan is taken by a Member that has no "
                                  "Library Card.")}),
    # With no Charge the Visit has no Amount to derive: the alethic MC rejects it too.
    "deontic MC": ("clinic", (PATIENT,), ("create:Visit", {**VISIT, "Charge": []}),
                   {alethic("MC", "Each Visit has exactly one Amount."),
                    deontic("MC", "It is obligatory that each Visit has at least one Charge.")}),
    # `It is permitted that a Member is waiting for more than one Book.` checks nothing.
    "permitted FC": ("library", (ADULT, ("create:Book", {
        "id": "978-1", "Title": "A Wizard of Earthsea", "Author": ["Ursula K. Le Guin"]}),
        ("assert", asserting(
        "Member_is_waiting_for_Book", "m1", "978-0441478125"))),
        ("assert", asserting("Member_is_waiting_for_Book", "m1", "978-1")), set()),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_constraint_kind_on_the_own_corpus(case: str) -> None:
    name, seed, (key, request), expected = CASES[case]
    D = seeded(name, seed)
    found, rejected, after = violations(D, key, request)
    assert found == expected
    assert rejected == any(modality == "alethic" for _, modality, _ in found)
    assert (after is D) == rejected


def test_every_kind_the_compiler_checks_is_violated_above() -> None:
    seen = {kind for *_, expected in CASES.values() for kind, _, _ in expected}
    # An alethic transitive ring derives its closure, so nothing can violate it.
    assert seen == set(KINDS) - {"TR"}
