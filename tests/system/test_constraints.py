"""Every constraint kind, each with a satisfying and a violating population; alethic
violations reject (D′ = D), deontic ones are reported and commit."""

from typing import Any

import pytest

import arest

PEOPLE = """\
Person(.Name) is an entity type.
Car(.VIN) is an entity type.
Age is a value type.
Nickname is a value type.
Language is a value type.
Colour is a value type.
  The possible values of Colour are 'red', 'blue'.
"""


def domain(readings: str) -> Any:
    return arest.compile(PEOPLE + readings)


def asserting(D: Any, fact_type: str, *values: str) -> tuple[dict[str, Any], Any]:
    return arest.apply(D, "assert", {"fact_type": fact_type, "bindings": list(values)})


def kinds(out: dict[str, Any]) -> list[str]:
    return [v["kind"] for v in out["violations"]]


def test_uniqueness_rejects_a_second_value_and_names_the_facts() -> None:
    D = domain("Person has Age.\n  Each Person has at most one Age.\n")
    out, D1 = asserting(D, "Person_has_Age", "ann", "30")
    assert not out["rejected"]
    out, D2 = asserting(D1, "Person_has_Age", "ann", "31")
    assert out["rejected"] and D2 is D1 and kinds(out) == ["UC"]
    violation = out["violations"][0]
    assert violation["reading"] == "Each Person has at most one Age."
    assert violation["modality"] == "alethic" and violation["constraint_id"].startswith("c-")
    assert violation["detail"]["evidence"] == [["ann", "30"], ["ann", "31"]]


def test_spanning_uniqueness_over_two_roles_of_three() -> None:
    D = domain("Person has Nickname in Language.\n"
               "For each Person and Language that Person has at most one Nickname in that "
               "Language.\n")
    _, D1 = asserting(D, "Person_has_Nickname_in_Language", "ann", "Annie", "en")
    out, _ = asserting(D1, "Person_has_Nickname_in_Language", "ann", "Anita", "es")
    assert not out["rejected"]
    out, _ = asserting(D1, "Person_has_Nickname_in_Language", "ann", "Nan", "en")
    assert kinds(out) == ["UC"] and out["rejected"]


def test_mandatory_on_create_and_on_retract() -> None:
    D = domain("Person has Age.\n  Each Person has exactly one Age.\n")
    out, D1 = arest.apply(D, "create:Person", {"id": "ann"})
    assert out["rejected"] and kinds(out) == ["MC"] and D1 is D
    out, D1 = arest.apply(D, "create:Person", {"id": "ann", "Age": 30})
    assert not out["rejected"] and out["entity"]["Age"] == "30"
    out, D2 = arest.apply(D1, "retract", {"fact_type": "Person_has_Age",
                                          "bindings": {"Person": "ann", "Age": "30"}})
    assert out["rejected"] and kinds(out) == ["MC"] and D2 is D1


def test_frequency_bounds() -> None:
    D = domain("Person has Nickname.\n  Each Person has at least 2 and at most 3 Nickname.\n")
    out, D1 = arest.apply(D, "create:Person", {"id": "ann", "Nickname": ["a", "b"]})
    assert not out["rejected"]
    out, _ = arest.apply(D, "create:Person", {"id": "bob", "Nickname": ["a"]})
    assert kinds(out) == ["FC"]
    out, _ = arest.apply(D1, "update:Person", {"id": "ann", "Nickname": ["c", "d"]})
    assert kinds(out) == ["FC"] and out["rejected"]


def test_one_sided_frequency() -> None:
    D = domain("Person has Nickname.\n  Each Person has at most 2 Nickname.\n")
    out, _ = arest.apply(D, "create:Person", {"id": "ann", "Nickname": ["a", "b", "c"]})
    assert kinds(out) == ["FC"]


def test_value_constraint_on_a_value_type() -> None:
    D = domain("Car has Colour.\n")
    assert not asserting(D, "Car_has_Colour", "c1", "red")[0]["rejected"]
    out, _ = asserting(D, "Car_has_Colour", "c1", "green")
    assert kinds(out) == ["VC"] and out["rejected"]


def test_deontic_comparisons_warn_and_commit_only_where_they_compare() -> None:
    D = domain("Person has Age.\nIt is forbidden that a Person has Age greater than 150.\n"
               "It is obligatory that each Person has Age greater than 0.\n")
    out, D1 = asserting(D, "Person_has_Age", "ann", "100")
    assert out["violations"] == [] and D1 is not D
    out, D2 = asserting(D, "Person_has_Age", "bob", "200")
    assert not out["rejected"] and D2 is not D
    assert [(v["kind"], v["modality"]) for v in out["violations"]] == [("VC", "deontic")]
    assert out["violations"][0]["reading"] == (
        "It is forbidden that a Person has Age greater than 150.")
    out, _ = asserting(D, "Person_has_Age", "cy", "0")
    assert [v["reading"] for v in out["violations"]] == [
        "It is obligatory that each Person has Age greater than 0."]


def test_a_comparison_not_equal_to_a_value_is_checked() -> None:
    D = domain("Person has Age.\nEach Person has Age not equal to 0.\n")
    out, _ = asserting(D, "Person_has_Age", "ann", "0")
    assert out["rejected"] and kinds(out) == ["VC"]
    out, _ = asserting(D, "Person_has_Age", "ann", "1")
    assert not out["rejected"]


CARS = """\
Person owns Car.
Person rents Car.
Person leases Car.
"""


@pytest.mark.parametrize(
    ("clauses", "kind", "bad", "good"),
    [
        ("exactly one", "XO", [("owns", "p1", "c1"), ("rents", "p2", "c1")],
         [("owns", "p1", "c1")]),
        ("at most one", "XC", [("owns", "p1", "c1"), ("rents", "p2", "c1")],
         [("owns", "p1", "c1"), ("owns", "p2", "c1")]),
    ],
)
def test_set_comparisons_over_clauses(
    clauses: str, kind: str, bad: list[tuple[str, str, str]], good: list[tuple[str, str, str]]
) -> None:
    D = domain(CARS + f"For each Car, {clauses} of the following holds:\n"
               "  some Person owns that Car;\n  some Person rents that Car.\n")
    state = D
    for verb, person, car in good:
        out, state = asserting(state, f"Person_{verb}_Car", person, car)
        assert not out["rejected"], out
    state, found = D, []
    for verb, person, car in bad:
        out, state = asserting(state, f"Person_{verb}_Car", person, car)
        found += kinds(out)
    assert kind in found


def test_subset() -> None:
    D = domain(CARS + "If some Person rents some Car then that Person owns that Car.\n")
    out, _ = asserting(D, "Person_rents_Car", "p1", "c1")
    assert kinds(out) == ["SS"]
    _, D1 = asserting(D, "Person_owns_Car", "p1", "c1")
    out, D2 = asserting(D1, "Person_rents_Car", "p1", "c1")
    assert not out["rejected"]
    out, _ = arest.apply(D2, "retract", {"fact_type": "Person_owns_Car",
                                         "bindings": ["p1", "c1"]})
    assert kinds(out) == ["SS"]


RINGS = {
    "IR": ("No Person likes itself.", [("a", "a")], [("a", "b")]),
    "AS": ("Person1 likes Person2 is asymmetric.", [("a", "b"), ("b", "a")], [("a", "b")]),
    "SY": ("If Person1 likes Person2 then Person2 likes Person1.", [("a", "b")],
           [("a", "b"), ("b", "a")]),
    "AC": ("Person1 likes Person2 is acyclic.", [("a", "b"), ("b", "c"), ("c", "a")],
           [("a", "b"), ("b", "c")]),
    "IT": ("Person1 likes Person2 is intransitive.", [("a", "b"), ("b", "c"), ("a", "c")],
           [("a", "b"), ("b", "c")]),
}


@pytest.mark.parametrize("kind", sorted(RINGS))
def test_ring_constraints(kind: str) -> None:
    sentence, bad, good = RINGS[kind]
    D = domain("Person likes Person.\n" + sentence + "\n")
    assert {c["kind"] for c in arest.apply(D, "schema", {"fact_type": "Person_likes_Person"})[0][
        "constraints"]} == {kind}
    state, rejected = D, False
    for fact in bad:
        out, state = asserting(state, "Person_likes_Person", *fact)
        rejected = rejected or out["rejected"]
    assert rejected
    if kind == "SY":
        return  # its good population is reached only in one command: below
    state = D
    for fact in good:
        out, state = asserting(state, "Person_likes_Person", *fact)
        assert not out["rejected"], out


def test_a_transitive_ring_derives_its_closure_instead_of_rejecting() -> None:
    D = domain("Person likes Person.\nPerson1 likes Person2 is transitive.\n")
    state = D
    for fact in [("a", "b"), ("b", "c")]:
        out, state = asserting(state, "Person_likes_Person", *fact)
        assert not out["rejected"]
    assert out["derived"] == [{"fact_type": "Person_likes_Person",
                               "bindings": {"Person1": "a", "Person2": "c"}}]
    rows = arest.apply(state, "query:Person_likes_Person")[0]["rows"]
    assert [(r["Person1"], r["Person2"], r["derived"]) for r in rows] == [
        ("a", "b", False), ("a", "c", True), ("b", "c", False)]


def test_symmetric_population_in_one_compile() -> None:
    D = domain("Person likes Person.\nIf Person1 likes Person2 then Person2 likes Person1.\n"
               "Person 'a' likes Person 'b'.\nPerson 'b' likes Person 'a'.\n")
    out, D1 = arest.apply(D, "retract", {"fact_type": "Person_likes_Person",
                                         "bindings": ["a", "b"]})
    assert kinds(out) == ["SY"] and D1 is D


def test_the_initial_population_is_validated() -> None:
    with pytest.raises(arest.ReadingError) as caught:
        domain("Person has Age.\n  Each Person has at most one Age.\n"
               "Person 'ann' has Age '30'.\nPerson 'ann' has Age '31'.\n")
    assert "<compile 1>:9:3:" in str(caught.value) and "UC" in str(caught.value)


def test_a_command_reports_all_its_violations() -> None:
    D = domain("Person has Age.\n  Each Person has exactly one Age.\nCar has Colour.\n"
               "Person owns Car.\n")
    out, _ = arest.apply(D, "create:Person", {"id": "ann", "Age": ["1", "2"]})
    assert out["error"]["code"] == "invalid_input"  # a single-valued field takes one value
    out, _ = arest.apply(D, "create:Car", {"id": "c1", "Colour": "green", "Person": "ann"})
    assert sorted(kinds(out)) == ["MC", "VC"]


def test_equality_both_ways() -> None:
    D = domain(CARS + "Person owns some Car if and only if Person rents some Car.\n")
    kinds_found = {c["kind"] for c in arest.apply(D, "schema")[0]["constraints"]
                   if "if and only if" in c["reading"]}
    assert kinds_found == {"EQ"}
    out, _ = asserting(D, "Person_owns_Car", "p1", "c1")
    assert kinds(out) == ["EQ"]
    out, _ = asserting(D, "Person_rents_Car", "p1", "c2")
    assert kinds(out) == ["EQ"]
    out, _ = arest.apply(D, "create:Person", {"id": "p1", "Person_owns_Car": "c1",
                                              "Person_rents_Car": "c1"})
    assert not out["rejected"], out


def test_antisymmetric_allows_loops_but_not_pairs() -> None:
    D = domain("Person likes Person.\nPerson1 likes Person2 is antisymmetric.\n")
    out, D1 = asserting(D, "Person_likes_Person", "a", "a")
    assert not out["rejected"]
    _, D2 = asserting(D1, "Person_likes_Person", "a", "b")
    out, _ = asserting(D2, "Person_likes_Person", "b", "a")
    assert kinds(out) == ["AT"] and out["rejected"]


def test_reflexive_needs_the_loop() -> None:
    D = domain("Person likes Person.\nPerson1 likes Person2 is reflexive.\n")
    out, _ = asserting(D, "Person_likes_Person", "a", "a")
    assert not out["rejected"]
    out, _ = asserting(D, "Person_likes_Person", "a", "b")
    assert out["rejected"] and set(kinds(out)) == {"RF"}
    assert sorted(v["detail"]["key"] for v in out["violations"]) == [["a"], ["b"]]


def test_inclusive_or_over_clauses() -> None:
    D = domain(CARS + "For each Car, at least one of the following holds:\n"
               "  some Person owns that Car;\n  some Person rents that Car.\n"
               "Car has Colour.\n")
    out, _ = arest.apply(D, "create:Car", {"id": "c1", "Colour": "red"})
    assert kinds(out) == ["OR"] and out["rejected"]
    out, D1 = arest.apply(D, "create:Car", {"id": "c1", "Person_owns_Car": "p1"})
    assert not out["rejected"], out
    out, _ = arest.apply(D1, "retract", {"fact_type": "Person_owns_Car",
                                         "bindings": ["p1", "c1"]})
    assert kinds(out) == ["OR"]


def test_disjunctive_mandatory() -> None:
    D = domain(CARS + "Each Person owns some Car or rents some Car.\nPerson has Age.\n")
    out, _ = arest.apply(D, "create:Person", {"id": "ann", "Age": "3"})
    assert kinds(out) == ["MC"]
    out, _ = arest.apply(D, "create:Person", {"id": "ann", "Person_rents_Car": "c1"})
    assert not out["rejected"], out


def test_external_uniqueness_across_fact_types() -> None:
    D = domain("Booking(.id) is an entity type.\nRoom is a value type.\nTime is a value type.\n"
               "Booking is in Room.\nBooking is at Time.\n"
               "For each Room and Time, at most one Booking is in that Room and is at that "
               "Time.\n")
    out, D1 = arest.apply(D, "create:Booking", {"id": "b1", "Room": "r1", "Time": "9"})
    assert not out["rejected"]
    out, D2 = arest.apply(D1, "create:Booking", {"id": "b2", "Room": "r1", "Time": "10"})
    assert not out["rejected"]
    out, _ = arest.apply(D2, "create:Booking", {"id": "b3", "Room": "r1", "Time": "9"})
    assert kinds(out) == ["UC"] and out["rejected"]
    assert sorted(out["violations"][0]["detail"]["evidence"]) == ["b1", "b3"]


PUBLISHING = """\
Article(.Slug) is an entity type.
Content Body is a value type.
Content Status is a value type.
Article has Content Body.
Article has Content Status.
State Machine Definition 'Article' is for Noun 'Article'.
Status 'Draft' is initial in State Machine Definition 'Article'.
Status 'Published' is defined in State Machine Definition 'Article'.
Transition 'publish' is defined in State Machine Definition 'Article'.
Transition 'publish' is from Status 'Draft'.
Transition 'publish' is to Status 'Published'.
"""
BEFORE_VALUE = ("It is obligatory that each Article has Content Body before Content Status is "
                "'published'.")
BEFORE_STATUS = "It is obligatory that each Article has Content Body before Status is 'Published'."


def test_an_obligation_before_a_value_warns_once_the_value_is_given() -> None:
    D = arest.compile(PUBLISHING + BEFORE_VALUE + "\n")
    out, _ = arest.apply(D, "create:Article", {"id": "a1", "Content Status": "draft"})
    assert not out["rejected"] and out["violations"] == []
    out, D1 = arest.apply(D, "create:Article", {"id": "a1", "Content Status": "published"})
    assert not out["rejected"] and D1 is not D
    assert [(v["kind"], v["modality"], v["reading"], v["detail"]["key"])
            for v in out["violations"]] == [("SS", "deontic", BEFORE_VALUE, ["a1"])]
    out, _ = arest.apply(D1, "update:Article", {"id": "a1", "Content Body": "text"})
    assert not out["rejected"] and out["violations"] == []


def test_an_obligation_before_a_status_warns_at_the_transition_into_it() -> None:
    D = arest.compile(PUBLISHING + BEFORE_STATUS + "\n")
    out, D = arest.apply(D, "create:Article", {"id": "a1"})
    assert not out["rejected"] and out["violations"] == []
    out, D1 = arest.apply(D, "transition:Article", {"id": "a1", "event": "publish"})
    assert not out["rejected"] and D1 is not D
    assert [(v["kind"], v["modality"], v["reading"]) for v in out["violations"]] == [
        ("SS", "deontic", BEFORE_STATUS)]
    assert arest.apply(D1, "get:Article", {"id": "a1"})[0]["status"] == "Published"
    D = arest.apply(D, "update:Article", {"id": "a1", "Content Body": "text"})[1]
    out, _ = arest.apply(D, "transition:Article", {"id": "a1", "event": "publish"})
    assert not out["rejected"] and out["violations"] == []
