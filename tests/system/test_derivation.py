"""Derivation rules, one kind at a time, over the project's corpus and over inline readings: what a
user sees in command results, queries and explanations."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.algebra.relations import Relation
from arest.system.derive import derive_all, program_of
from tests.corpus import OWN_READINGS

CLINIC = OWN_READINGS / "clinic"


def asserting(D: Any, fact_type: str, *values: str) -> tuple[dict[str, Any], Any]:
    out, after = arest.apply(D, "assert", {"fact_type": fact_type, "bindings": list(values)})
    assert "error" not in out, out
    return out, after


def rows(D: Any, fact_type: str) -> list[tuple[str, ...]]:
    found = arest.apply(D, f"query:{fact_type}")[0]["rows"]
    return [tuple(v for k, v in row.items() if k != "derived") for row in found]


def derived_rows(D: Any, fact_type: str) -> list[tuple[Any, ...]]:
    found = arest.apply(D, f"query:{fact_type}")[0]["rows"]
    return [tuple(row.values()) for row in found]


# -- the project's corpus (readings/) ---------------------------------------------------
PATIENT = {"id": "p-1", "Full Name": "Pat", "Phone": "555", "Home Address": "1 Main St"}
VISIT = {"Patient": "p-1", "Clinician": "dr-lee", "Home Address": "1 Main St",
         "Start Time": "2024-05-01T09:00:00Z", "End Time": "2024-05-01T10:30:00Z"}


def test_visit_total_by_sum_with_visit_and_charges_created_in_one_command() -> None:
    D = arest.load(CLINIC)
    visit = {
        "Visit Number": "v-1", **VISIT,
        "Charge": [
            {"id": "ch-1", "Procedure": "exam", "Quantity": "2", "Amount": "10"},
            {"id": "ch-2", "Procedure": "x-ray", "Quantity": "1", "Amount": "5.50"},
        ],
    }
    D = arest.apply(D, "create:Patient", PATIENT)[1]
    out, D1 = arest.apply(D, "create:Visit", visit)
    assert not out["rejected"], out["violations"]
    assert {"fact_type": "Visit_has_Amount",
            "bindings": {"Visit": "v-1", "Amount": "15.5"}} in out["derived"]
    assert out["entity"]["Amount"] == "15.5"
    out, D2 = arest.apply(D1, "update:Charge", {"id": "ch-1", "Amount": "1"})
    assert rows(D2, "Visit_has_Amount") == [("v-1", "6.5")]
    out, D3 = arest.apply(D2, "update:Visit", {"id": "v-1", "Amount": "99"})
    assert out["error"]["code"] == "derived_fact_type" and D3 is D2


def test_visit_duration_by_minus() -> None:
    D = arest.apply(arest.load(CLINIC), "create:Patient", PATIENT)[1]
    visit = {"Visit Number": "v-1", **VISIT,
             "Charge": [{"Procedure": "exam", "Quantity": "1", "Amount": "10"}]}
    out, D1 = arest.apply(D, "create:Visit", visit)
    assert "error" not in out and not out["rejected"], out
    assert {"fact_type": "Visit_has_Duration",
            "bindings": {"Visit": "v-1", "Duration": "5400"}} in out["derived"]
    assert ("v-1", "5400") in rows(D1, "Visit_has_Duration")


ACCESS = """\
User(.Name) is an entity type.
Organization(.Name) is an entity type.
App(.Slug) is an entity type.
Domain(.Domain Name) is an entity type.
Team(.Name) is an entity type.
Access is a value type.
User owns Organization.
User belongs to Organization.
User belongs to Team.
Team manages App.
App belongs to Organization.
Domain belongs to App.
Domain has Access.
User accesses Domain.
+ User accesses Domain if User owns Organization and App belongs to that Organization \
and Domain belongs to that App.
+ User accesses Domain if User belongs to Organization and App belongs to that Organization \
and Domain belongs to that App and Domain has Access 'members'.
+ User accesses Domain if User belongs to Team and that Team manages App \
and Domain belongs to that App.
+ User accesses Domain if Domain has Access 'public'.
"""


def test_partial_access_rules_are_unioned() -> None:
    """Appendix B: any one of the partial rules suffices; asserted access coexists."""
    D = arest.compile(ACCESS + "User 'ann' owns Organization 'acme'.\n"
                      "App 'crm' belongs to Organization 'acme'.\n"
                      "Domain 'sales' belongs to App 'crm'.\n"
                      "User 'bob' belongs to Organization 'acme'.\n"
                      "Domain 'wiki' belongs to App 'crm'.\n"
                      "Domain 'wiki' has Access 'members'.\n"
                      "User 'cy' belongs to Team 'ops'.\nTeam 'ops' manages App 'crm'.\n"
                      "Domain 'home' has Access 'public'.\nUser 'dee' owns Organization 'x'.\n")
    got = set(rows(D, "User_accesses_Domain"))
    assert {("ann", "sales"), ("ann", "wiki"), ("bob", "wiki"), ("cy", "sales"),
            ("cy", "wiki")} <= got
    assert ("bob", "sales") not in got
    # `+`: an asserted fact coexists with the derived ones and is not withdrawn by them.
    out, D1 = asserting(D, "User_accesses_Domain", "dee", "sales")
    assert not out["rejected"] and ("dee", "sales") in rows(D1, "User_accesses_Domain")
    out, D2 = arest.apply(D1, "retract", {"fact_type": "App_belongs_to_Organization",
                                          "bindings": ["crm", "acme"]})
    left = set(rows(D2, "User_accesses_Domain"))
    assert ("dee", "sales") in left and ("ann", "sales") not in left
    assert ("cy", "sales") in left  # still through the team
    out, D3 = arest.apply(D2, "create:User", {"Name": "eve"})
    assert {"fact_type": "User_accesses_Domain",
            "bindings": {"User": "eve", "Domain": "home"}} in out["derived"]
    # A variable the rule ranges over a population rests on no fact: only Access is shown.
    node = arest.apply(D3, "explain", {"fact_type": "User_accesses_Domain",
                                       "bindings": ["eve", "home"]})[0]
    assert [a["reading"] for a in node["antecedents"]] == ["Domain 'home' has Access 'public'."]


# -- rule kinds ------------------------------------------------------------------------------
FAMILY = """\
Person(.Name) is an entity type.
Person1 is parent of Person2.
Person1 is grandparent of Person2.
* Person1 is grandparent of Person3 if Person1 is parent of Person2 \
and Person2 is parent of Person3.
"""


def test_joins_through_subscripted_variables_and_retraction_withdraws() -> None:
    D = arest.compile(FAMILY)
    D = asserting(D, "Person_is_parent_of_Person", "ann", "bob")[1]
    out, D = asserting(D, "Person_is_parent_of_Person", "bob", "cy")
    assert out["derived"] == [{"fact_type": "Person_is_grandparent_of_Person",
                               "bindings": {"Person1": "ann", "Person2": "cy"}}]
    assert derived_rows(D, "Person_is_grandparent_of_Person") == [("ann", "cy", True)]
    out, D = arest.apply(D, "retract", {"fact_type": "Person_is_parent_of_Person",
                                        "bindings": ["ann", "bob"]})
    assert rows(D, "Person_is_grandparent_of_Person") == []


def test_a_fully_derived_fact_type_refuses_assertion() -> None:
    D = arest.compile(FAMILY)
    out, D1 = arest.apply(D, "assert", {"fact_type": "Person_is_grandparent_of_Person",
                                        "bindings": ["a", "b"]})
    assert out["error"]["code"] == "derived_fact_type" and D1 is D


def test_explain_goes_down_to_asserted_facts() -> None:
    D = arest.compile(FAMILY + "Person 'ann' is parent of Person 'bob'.\n"
                      "Person 'bob' is parent of Person 'cy'.\n")
    node = arest.apply(D, "explain", {"fact_type": "Person_is_grandparent_of_Person",
                                      "bindings": {"Person1": "ann", "Person2": "cy"}})[0]
    assert node["derived"] and node["reading"] == "Person 'ann' is grandparent of Person 'cy'."
    assert node["rule"]["reading"].startswith("* Person1 is grandparent of Person3 if")
    assert [(a["reading"], a["derived"], a["antecedents"]) for a in node["antecedents"]] == [
        ("Person 'ann' is parent of Person 'bob'.", False, []),
        ("Person 'bob' is parent of Person 'cy'.", False, []),
    ]
    missing = arest.apply(D, "explain", {"fact_type": "Person_is_grandparent_of_Person",
                                         "bindings": ["cy", "ann"]})[0]
    assert missing["error"]["code"] == "invalid_input"


TASKS = """\
Task(.id) is an entity type.
Milestone(.id) is an entity type.
Points is a value type.
Task targets Milestone.
Task has Points.
  Each Task has at most one Points.
Milestone has Task Count.
Milestone has total Points.
Milestone has mean Points.
Milestone has lowest Points.
Milestone has highest Points.
* Milestone has Task Count iff Task Count is the count of Task where Task targets that Milestone.
* Milestone has total Points iff total Points is the sum of Points \
where some Task targets that Milestone and that Task has Points.
* Milestone has mean Points iff mean Points is the avg of Points \
where some Task targets that Milestone and that Task has Points.
* Milestone has lowest Points iff lowest Points is the min of Points \
where some Task targets that Milestone and that Task has Points.
* Milestone has highest Points iff highest Points is the max of Points \
where some Task targets that Milestone and that Task has Points.
"""


def test_aggregates_by_group_and_an_empty_group_derives_nothing() -> None:
    D = arest.compile(TASKS)
    for task, points in [("t1", "3"), ("t2", "5"), ("t3", "3")]:
        D = asserting(D, "Task_targets_Milestone", task, "m1")[1]
        D = asserting(D, "Task_has_Points", task, points)[1]
    D = asserting(D, "Task_targets_Milestone", "t4", "m2")[1]
    assert rows(D, "Milestone_has_Task_Count") == [("m1", "3"), ("m2", "1")]
    assert rows(D, "Milestone_has_total_Points") == [("m1", "11")]  # m2: no Points at all
    assert rows(D, "Milestone_has_lowest_Points") == [("m1", "3")]
    assert rows(D, "Milestone_has_highest_Points") == [("m1", "5")]
    assert rows(D, "Milestone_has_mean_Points") == [("m1", "3.666666666666666666666666667")]
    D = arest.apply(D, "retract", {"fact_type": "Task_targets_Milestone",
                                   "bindings": ["t4", "m2"]})[1]
    assert rows(D, "Milestone_has_Task_Count") == [("m1", "3")]


NEGATION = """\
Task(.id) is an entity type.
Task is open.
Task is blocked.
Task is ready.
Task has Owner.
Task is unowned.
* Task is ready iff Task is open and Task is not blocked.
* Task is unowned iff Task is open and Task has no Owner.
"""


def test_negation_is_stratified_and_follows_the_negated_facts() -> None:
    D = arest.compile(NEGATION)
    D = asserting(D, "Task_is_open", "t1")[1]
    assert rows(D, "Task_is_ready") == [("t1",)] and rows(D, "Task_is_unowned") == [("t1",)]
    D = asserting(D, "Task_is_blocked", "t1")[1]
    D = asserting(D, "Task_has_Owner", "t1", "ann")[1]
    assert rows(D, "Task_is_ready") == [] and rows(D, "Task_is_unowned") == []
    D = asserting(D, "Task_has_Owner", "t1", "bob")[1]
    D = arest.apply(D, "retract", {"fact_type": "Task_has_Owner", "bindings": ["t1", "ann"]})[1]
    assert rows(D, "Task_is_unowned") == []  # bob still owns it
    D = arest.apply(D, "retract", {"fact_type": "Task_is_blocked", "bindings": ["t1"]})[1]
    assert rows(D, "Task_is_ready") == [("t1",)]


ARITHMETIC = """\
Order(.id) is an entity type.
Amount is a value type.
Discount Percent is a value type.
Order has Amount.
Order has Discount Percent.
Order has discounted Amount.
Order has doubled Amount.
* Order has discounted Amount iff Order has Amount and Order has Discount Percent \
and discounted Amount is that Amount reduced by that Discount Percent.
* Order has doubled Amount iff Order has Amount and doubled Amount is that Amount times 2.
"""


def test_arithmetic_bindings_and_non_numerals_derive_nothing() -> None:
    D = arest.compile(ARITHMETIC)
    D = asserting(D, "Order_has_Amount", "o1", "80")[1]
    D = asserting(D, "Order_has_Discount_Percent", "o1", "25")[1]
    D = asserting(D, "Order_has_Amount", "o2", "n/a")[1]
    assert rows(D, "Order_has_discounted_Amount") == [("o1", "60")]
    assert rows(D, "Order_has_doubled_Amount") == [("o1", "160")]


def test_a_rule_that_reads_what_it_derives_is_a_compile_error() -> None:
    with pytest.raises(arest.ReadingError) as caught:
        arest.compile("Person(.Name) is an entity type.\nPerson1 knows Person2.\n"
                      "* Person1 knows Person3 if Person1 knows Person2 "
                      "and Person2 knows Person3.\n")
    assert "depend on itself" in str(caught.value) and ":3:" in str(caught.value)


def test_a_cycle_through_negation_is_a_compile_error() -> None:
    with pytest.raises(arest.ReadingError) as caught:
        arest.compile("Thing(.id) is an entity type.\nThing is here.\nThing is odd.\n"
                      "Thing is even.\n"
                      "* Thing is odd iff Thing is here and Thing is not even.\n"
                      "* Thing is even iff Thing is here and Thing is not odd.\n")
    assert "cycle through negation" in str(caught.value)


def test_derived_facts_are_validated_like_asserted_ones() -> None:
    D = arest.compile(FAMILY + "  Each Person1 is grandparent of at most one Person2.\n")
    D = asserting(D, "Person_is_parent_of_Person", "ann", "bob")[1]
    D = asserting(D, "Person_is_parent_of_Person", "bob", "cy")[1]
    out, D1 = asserting(D, "Person_is_parent_of_Person", "bob", "di")
    assert out["rejected"] and D1 is D
    assert out["violations"][0]["kind"] == "UC"


COMPARING = """\
Order(.id) is an entity type.
Meeting(.id) is an entity type.
Amount is a value type.
Start Time is a value type.
Order has Amount.
Order is large.
Meeting has Start Time.
Meeting1 precedes Meeting2.
* Order is large iff Order has Amount and that Amount is greater than 100.
* Meeting1 precedes Meeting2 iff Meeting1 has Start Time1 and Meeting2 has Start Time2 \
and Start Time1 is less than Start Time2.
"""


def test_numeric_filters_and_cross_antecedent_comparisons() -> None:
    D = arest.compile(COMPARING)
    for order, amount in [("o1", "50"), ("o2", "150"), ("o3", "lots")]:
        D = asserting(D, "Order_has_Amount", order, amount)[1]
    for meeting, start in [("m1", "2024-01-01T10:00:00Z"), ("m2", "2024-01-01T09:00:00Z"),
                           ("m3", "2024-01-02T08:00:00Z")]:
        D = asserting(D, "Meeting_has_Start_Time", meeting, start)[1]
    assert rows(D, "Order_is_large") == [("o2",)]
    assert rows(D, "Meeting_precedes_Meeting") == [("m1", "m3"), ("m2", "m1"), ("m2", "m3")]
    D = asserting(D, "Order_has_Amount", "o1", "101")[1]
    assert rows(D, "Order_is_large") == [("o1",), ("o2",)]


SUBTYPES = """\
Person(.Name) is an entity type.
Employee is a subtype of Person.
Person is adult.
Employee is staff.
* Employee is staff iff Employee is adult.
"""


def test_a_subtype_plays_its_supertype_roles_in_rules() -> None:
    D = arest.compile(SUBTYPES)
    D = arest.apply(D, "create:Employee", {"Name": "ann"})[1]
    D = asserting(D, "Person_is_adult", "ann")[1]
    D = asserting(D, "Person_is_adult", "bob")[1]
    assert rows(D, "Employee_is_staff") == [("ann",)]


def test_rules_compiled_at_run_time_derive_over_the_population() -> None:
    D = arest.compile("Person(.Name) is an entity type.\nPerson1 is parent of Person2.\n"
                      "Person 'ann' is parent of Person 'bob'.\n"
                      "Person 'bob' is parent of Person 'cy'.\n")
    out, D1 = arest.apply(D, "compile", {"readings": "Person1 is grandparent of Person2.\n"
                                         "* Person1 is grandparent of Person3 if Person1 is "
                                         "parent of Person2 and Person2 is parent of Person3.\n"})
    assert not out["rejected"], out
    assert rows(D1, "Person_is_grandparent_of_Person") == [("ann", "cy")]
    rules = arest.apply(D1, "schema")[0]["rules"]
    assert "Person_is_grandparent_of_Person" in [r["fact_type"] for r in rules]


def test_verify_reports_violations_of_derived_facts_without_committing() -> None:
    D = arest.compile(FAMILY + "  Each Person1 is grandparent of at most one Person2.\n"
                      "Person 'ann' is parent of Person 'bob'.\n"
                      "Person 'bob' is parent of Person 'cy'.\n")
    out = arest.apply(D, "verify", {"fact_type": "Person_is_parent_of_Person",
                                    "bindings": ["bob", "di"]})[0]
    assert out["would_reject"] and out["violations"][0]["kind"] == "UC"
    assert rows(D, "Person_is_grandparent_of_Person") == [("ann", "cy")]


def test_retracting_an_asserted_fact_that_is_also_derived_leaves_it_derived() -> None:
    D = arest.compile(ACCESS + "User 'ann' owns Organization 'acme'.\n"
                      "App 'crm' belongs to Organization 'acme'.\n"
                      "Domain 'sales' belongs to App 'crm'.\n")
    D = asserting(D, "User_accesses_Domain", "ann", "sales")[1]
    assert derived_rows(D, "User_accesses_Domain") == [("ann", "sales", False)]
    out, D = arest.apply(D, "retract", {"fact_type": "User_accesses_Domain",
                                        "bindings": ["ann", "sales"]})
    assert not out["rejected"]
    assert derived_rows(D, "User_accesses_Domain") == [("ann", "sales", True)]


def test_a_fully_derived_fact_type_refuses_retraction() -> None:
    D = arest.compile(FAMILY + "Person 'a' is parent of Person 'b'.\n"
                      "Person 'b' is parent of Person 'c'.\n")
    out, D1 = arest.apply(D, "retract", {"fact_type": "Person_is_grandparent_of_Person",
                                         "bindings": ["a", "c"]})
    assert out["error"]["code"] == "derived_fact_type" and D1 is D


def test_a_long_closure_explains_to_a_bounded_depth_that_encodes_as_json() -> None:
    import json

    from arest.system.explain import MAX_DEPTH

    D = arest.compile("Region(.id) is an entity type.\nRegion contains Region.\n"
                      "  Region1 contains Region2 is transitive.\n")
    for i in range(MAX_DEPTH + 20):
        D = asserting(D, "Region_contains_Region", str(i), str(i + 1))[1]
    node = arest.apply(D, "explain", {"fact_type": "Region_contains_Region",
                                      "bindings": ["0", str(MAX_DEPTH + 20)]})[0]
    json.dumps(node)
    depth = 0
    while node["antecedents"]:
        node, depth = node["antecedents"][0], depth + 1
    assert depth == MAX_DEPTH - 1 and node.get("truncated") is True


OPEN_ISSUES = """\
Issue(.id) is an entity type.
Assignee(.Handle) is an entity type.
Issue is assigned to Assignee.
  Each Issue is assigned to at most one Assignee.
Assignee has open Issue Count.
* Assignee has open Issue Count iff open Issue Count is the count of Issue
  where Issue is assigned to that Assignee and Issue does not have Status 'Closed'.
State Machine Definition 'Issue' is for Noun 'Issue'.
Status 'Open' is initial in State Machine Definition 'Issue'.
Status 'Closed' is defined in State Machine Definition 'Issue'.
Transition 'close' is defined in State Machine Definition 'Issue'.
Transition 'close' is from Status 'Open'.
Transition 'close' is to Status 'Closed'.
"""


def test_a_count_follows_the_fact_its_where_clause_negates() -> None:
    D = arest.compile(OPEN_ISSUES)
    _, D = arest.apply(D, "create:Issue", {"id": "i-1", "Assignee": "ann"})
    _, D = arest.apply(D, "create:Issue", {"id": "i-2", "Assignee": "ann"})
    assert rows(D, "Assignee_has_open_Issue_Count") == [("ann", "2")]
    _, D = arest.apply(D, "transition:Issue", {"id": "i-1", "event": "close"})
    assert rows(D, "Assignee_has_open_Issue_Count") == [("ann", "1")]
    _, D = arest.apply(D, "transition:Issue", {"id": "i-2", "event": "close"})
    assert rows(D, "Assignee_has_open_Issue_Count") == []
    assert rows(derive_all(D), "Assignee_has_open_Issue_Count") == []


ANCESTRY = """\
Person(.Name) is an entity type.
Person is parent of Person.
Person is ancestor of Person.
  Person is ancestor of Person is transitive.
* Person1 is ancestor of Person2 if Person1 is parent of Person2.
"""


def test_a_transitive_ring_closes_over_derived_facts() -> None:
    D = arest.compile(ANCESTRY)
    for parent, child in (("a", "b"), ("b", "c"), ("c", "d")):
        _, D = asserting(D, "Person_is_parent_of_Person", parent, child)
    ancestors = {("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("c", "d")}
    assert set(rows(D, "Person_is_ancestor_of_Person")) == ancestors
    why, _ = arest.apply(D, "explain", {"fact_type": "Person_is_ancestor_of_Person",
                                        "bindings": ["a", "d"]})
    assert why["derived"] is True
    out, D = arest.apply(D, "retract", {"fact_type": "Person_is_parent_of_Person",
                                        "bindings": ["b", "c"]})
    assert "error" not in out, out
    assert set(rows(D, "Person_is_ancestor_of_Person")) == {("a", "b"), ("c", "d")}
    assert rows(derive_all(D), "Person_is_ancestor_of_Person") == rows(
        D, "Person_is_ancestor_of_Person")


def test_a_transitive_ring_closes_over_derived_facts_from_scratch() -> None:
    D = arest.compile(ANCESTRY + "Person 'a' is parent of Person 'b'.\n"
                      "Person 'b' is parent of Person 'c'.\nPerson 'c' is parent of Person 'd'.\n")
    assert len(rows(D, "Person_is_ancestor_of_Person")) == 6


# -- disjunction -----------------------------------------------------------------------------
MOOD = """\
Person(.Name) is an entity type.
Person is happy.
Person is rich.
Person is healthy.
Person is rested.
* Person is happy iff Person is rich or Person is healthy and Person is rested.
"""


def test_a_disjunctive_rule_derives_while_any_disjunct_holds() -> None:
    D = arest.compile(MOOD)
    out, D = asserting(D, "Person_is_rich", "ann")
    assert out["derived"] == [{"fact_type": "Person_is_happy", "bindings": {"Person": "ann"}}]
    # `and` binds tighter than `or`: healthy alone derives nothing.
    out, D = asserting(D, "Person_is_healthy", "bob")
    assert out["derived"] == [] and rows(D, "Person_is_happy") == [("ann",)]
    D = asserting(D, "Person_is_healthy", "ann")[1]
    D = asserting(D, "Person_is_rested", "ann")[1]
    # Both disjuncts hold for ann: withdrawing one leaves the fact derived by the other.
    out, D = arest.apply(D, "retract", {"fact_type": "Person_is_rich", "bindings": ["ann"]})
    assert rows(D, "Person_is_happy") == [("ann",)]
    assert rows(derive_all(D), "Person_is_happy") == [("ann",)]
    node = arest.apply(D, "explain", {"fact_type": "Person_is_happy", "bindings": ["ann"]})[0]
    assert node["rule"]["reading"] == MOOD.splitlines()[-1]
    assert [a["reading"] for a in node["antecedents"]] == [
        "Person 'ann' is healthy.", "Person 'ann' is rested."]
    out, D = arest.apply(D, "retract", {"fact_type": "Person_is_rested", "bindings": ["ann"]})
    assert rows(D, "Person_is_happy") == [] == rows(derive_all(D), "Person_is_happy")


def test_a_disjunctive_rule_compiled_at_run_time_derives_over_the_population() -> None:
    D = arest.compile(MOOD.splitlines()[0] + "\nPerson is rich.\nPerson is healthy.\n"
                      "Person 'ann' is rich.\nPerson 'bob' is healthy.\nPerson 'cy' is rich.\n")
    out, D1 = arest.apply(D, "compile", {"readings": "Person is happy.\n"
                                         "* Person is happy iff Person is rich or Person is"
                                         " healthy.\n"})
    assert not out["rejected"], out
    assert sorted(rows(D1, "Person_is_happy")) == [("ann",), ("bob",), ("cy",)]
    assert rows(derive_all(D1), "Person_is_happy") == rows(D1, "Person_is_happy")


MOOD_FACTS = st.tuples(st.sampled_from(["assert", "retract"]),
                       st.sampled_from(["Person_is_rich", "Person_is_healthy",
                                        "Person_is_rested"]),
                       st.sampled_from("abc"))
MOOD_STATE = arest.compile(MOOD)


@settings(max_examples=60)
@given(st.lists(MOOD_FACTS, min_size=1, max_size=12))
def test_a_disjunctive_rule_maintained_by_deltas_equals_it_from_scratch(
        commands: list[tuple[str, str, str]]) -> None:
    D = MOOD_STATE
    held: dict[str, set[str]] = {"Person_is_rich": set(), "Person_is_healthy": set(),
                                 "Person_is_rested": set()}
    for verb, fact_type, person in commands:
        out, D = arest.apply(D, verb, {"fact_type": fact_type, "bindings": [person]})
        assert "error" not in out, out
        (held[fact_type].add if verb == "assert" else held[fact_type].discard)(person)
        happy = held["Person_is_rich"] | (held["Person_is_healthy"] & held["Person_is_rested"])
        assert set(rows(D, "Person_is_happy")) == {(p,) for p in happy}
    assert set(rows(derive_all(D), "Person_is_happy")) == set(rows(D, "Person_is_happy"))


def test_a_subscripted_variable_after_a_predicate_word_is_not_an_adjective() -> None:
    D = arest.compile("Node(.id) is an entity type.\nNode is near Node.\nNode has near Count.\n"
                      "* Node has near Count iff near Count is the count of Node2 where that Node"
                      " is near Node2.\nNode 'a' is near Node 'b'.\nNode 'a' is near Node 'c'.\n")
    assert rows(D, "Node_has_near_Count") == [("a", "2")]


def test_a_derivation_left_unindexed_has_the_same_facts_and_builds_an_index_when_probed(
) -> None:
    # indexed=False is for a derivation no command follows: the same facts and supports,
    # no index built that nothing reads, and a command after it still right (it builds
    # the index it probes then).
    D = arest.compile(ANCESTRY + "Person 'a' is parent of Person 'b'.\n"
                      "Person 'b' is parent of Person 'c'.\n")
    indexed, bare = derive_all(D), derive_all(D, indexed=False)
    closure = "Person_is_ancestor_of_Person"
    assert list(bare[closure].items()) == list(indexed[closure].items())
    roles = program_of(D).probed_roles[closure]
    assert roles and not any(bare[closure].is_indexed(role) for role in roles)
    _, after = asserting(bare, "Person_is_parent_of_Person", "c", "d")
    assert {("a", "d"), ("b", "d"), ("c", "d")} <= set(rows(after, closure))
    assert set(rows(after, closure)) == set(rows(derive_all(after), closure))


def test_after_derivation_every_role_a_plan_probes_is_indexed() -> None:
    # The derivation that made a relation builds the indexes its rules search, so the
    # first command after it pays for no index of the whole relation.
    D = derive_all(arest.compile(ANCESTRY + "Person 'a' is parent of Person 'b'.\n"
                                 "Person 'b' is parent of Person 'c'.\n"))
    probed = program_of(D).probed_roles
    assert probed["Person_is_ancestor_of_Person"]
    for fact_type, roles in probed.items():
        relation = D.get(fact_type)
        if isinstance(relation, Relation):
            assert all(relation.is_indexed(role) for role in roles), (fact_type, roles)
    _, D = asserting(D, "Person_is_parent_of_Person", "c", "d")
    assert {("a", "d"), ("b", "d"), ("c", "d")} <= set(rows(D, "Person_is_ancestor_of_Person"))
