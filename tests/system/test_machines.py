"""State machines: statuses, transitions, actions, delete, facts as events, effects; the
machines of the project's corpus (readings/), and random event sequences against the
fold."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

import arest
from arest.algebra import apply, evaluate
from arest.compiler.machines import Machine
from arest.system.machines import machine_of
from tests.corpus import OWN_DOMAINS, OWN_READINGS


def corpus(name: str) -> Any:
    """A domain of the project's corpus."""
    return arest.load(OWN_READINGS / name)


def clinic() -> Any:
    """The clinic with one Visit, 'v1', in its initial status."""
    D = corpus("clinic")
    D = arest.apply(D, "create:Patient", {"id": "p1", "Full Name": "Pat", "Phone": "555",
                                          "Home Address": "1 Main"})[1]
    out, D = arest.apply(D, "create:Visit", {
        "Visit Number": "v1", "Patient": "p1", "Clinician": "dr-lee", "Home Address": "1 Main",
        "Start Time": "09:00", "End Time": "09:30",
        "Charge": [{"id": "ch1", "Procedure": "exam", "Quantity": "1", "Amount": "5"}]})
    assert not out["rejected"], out["violations"]
    return D


PRIORITY = "high"


def firing(D: Any, noun: str, entity: str, event: str) -> tuple[dict[str, Any], Any]:
    return arest.apply(D, f"transition:{noun}", {"id": entity, "event": event})


def test_an_entity_starts_in_the_initial_status_and_moves_by_events() -> None:
    D = clinic()
    assert arest.apply(D, "read:Visit", "v1")[0]["status"] == "Booked"
    for event, status in [("check-in", "Checked In"), ("see", "Seen"), ("bill", "Billed")]:
        out, D = firing(D, "Visit", "v1", event)
        assert not out["rejected"] and out["entity"]["status"] == status
    assert arest.apply(D, "query:Visit_has_Status")[0]["rows"] == [
        {"Visit": "v1", "Status": "Billed", "derived": False}]


def test_an_illegal_event_is_rejected_with_the_status_and_the_legal_events() -> None:
    D = clinic()
    out, D1 = firing(D, "Visit", "v1", "bill")
    assert out["rejected"] and D1 is D
    assert out["violations"][0]["kind"] == "transition"
    assert out["violations"][0]["detail"] == {"status": "Booked", "event": "bill",
                                              "legal": ["cancel", "check-in"]}
    out, D1 = firing(D, "Visit", "v1", "teleport")
    assert out["error"]["code"] == "unknown_event" and "bill" in out["error"]["events"]


def test_two_transitions_share_the_event_cancel() -> None:
    D = clinic()
    out, _ = firing(D, "Visit", "v1", "cancel")
    assert out["entity"]["status"] == "Cancelled"
    D2 = firing(D, "Visit", "v1", "check-in")[1]
    out, _ = firing(D2, "Visit", "v1", "cancel")
    assert out["entity"]["status"] == "Cancelled"


def test_two_machines_on_two_nouns() -> None:
    D = clinic()
    out, D = arest.apply(D, "create:Payment", {"id": "pay-1", "Visit": "v1", "Amount": "5",
                                               "Payment Method": "card"})
    assert not out["rejected"], out
    assert out["entity"]["status"] == "Pending"
    assert firing(D, "Payment", "pay-1", "authorize")[0]["entity"]["status"] == "Authorized"
    assert arest.apply(D, "read:Visit", "v1")[0]["status"] == "Booked"


def test_actions_list_the_legal_events() -> None:
    D = clinic()
    assert arest.apply(D, "actions", {"noun": "Visit", "id": "v1"})[0] == {
        "id": "v1", "noun": "Visit", "status": "Booked", "actions": [
            {"event": "cancel", "to": "Cancelled", "href": "/visits/v1/transition",
             "method": "POST"},
            {"event": "check-in", "to": "Checked In", "href": "/visits/v1/transition",
             "method": "POST"}]}


def test_terminal_entities_are_left_out_of_lists_unless_asked() -> None:
    D = firing(clinic(), "Visit", "v1", "cancel")[1]
    assert arest.apply(D, "list:Visit")[0]["total"] == 0
    listed = arest.apply(D, "list:Visit", {"include_terminal": True})[0]
    assert [item["status"] for item in listed["items"]] == ["Cancelled"]


def test_status_is_maintained_only_by_the_machine() -> None:
    D = clinic()
    out, _ = arest.apply(D, "assert", {"fact_type": "Visit_has_Status",
                                       "bindings": ["v1", "Seen"]})
    assert out["error"]["code"] == "derived_fact_type"
    out, _ = arest.apply(D, "update:Visit", {"id": "v1", "status": "Seen"})
    assert out["error"]["code"] == "derived_fact_type"


def test_the_done_count_rule_reads_the_status_the_fold_keeps() -> None:
    D = corpus("tracker")
    D = arest.apply(D, "create:Milestone", {"id": "m1", "Project": "core"})[1]
    for issue in ("i1", "i2"):
        out, D = arest.apply(D, "create:Issue", {"id": issue, "Title": issue,
                                                 "Priority": PRIORITY, "Project": "core",
                                                 "Milestone": "m1"})
        assert not out["rejected"], out["violations"]
    rows = arest.apply(D, "query:Milestone_has_total_Issue_Count")[0]["rows"]
    assert [(r["Milestone"], r["Issue Count"]) for r in rows] == [("m1", "2")]
    for event in ("triage", "start", "submit-for-review", "approve"):
        out, D = firing(D, "Issue", "i1", event)
        assert not out["rejected"], out["violations"]
    assert {"fact_type": "Milestone_has_done_Issue_Count",
            "bindings": {"Milestone": "m1", "Issue Count": "1"}} in out["derived"]
    D = firing(D, "Issue", "i1", "reopen")[1]
    assert arest.apply(D, "query:Milestone_has_done_Issue_Count")[0]["rows"] == []


def test_a_retry_cycle_returns_to_queued() -> None:
    D = corpus("tracker")
    machine = machine_of(D, "Build")
    assert machine is not None and machine.terminal == ("Passed",)
    fold = evaluate(machine.fold(), ("Queued", ("run", "fail", "retry", "run", "pass")), D)
    assert fold == "Passed"


@cache
def corpus_machines() -> list[tuple[Any, Machine]]:
    """Every machine of the project's corpus, with its D."""
    found = []
    for domain in OWN_DOMAINS:
        D = corpus(domain)
        for noun in D.get("machines", ()):
            machine = machine_of(D, str(noun))
            assert machine is not None
            found.append((D, machine))
    return found


@st.composite
def event_runs(draw: st.DrawFn) -> tuple[Any, Machine, str, tuple[str, ...]]:
    """A corpus machine, a status of it, and events: its own and one it does not have."""
    D, machine = draw(st.sampled_from(corpus_machines()))
    statuses = sorted({machine.initial, *(t.source for t in machine.transitions)})
    events = st.sampled_from([*machine.events, "no-such-event"])
    return D, machine, draw(st.sampled_from(statuses)), tuple(draw(st.lists(events,
                                                                            max_size=8)))


@given(event_runs())
def test_the_fold_over_events_is_the_successive_transitions(
        run: tuple[Any, Machine, str, tuple[str, ...]]) -> None:
    D, machine, status, events = run
    expected = status
    for event in events:
        legal = [t.target for t in machine.legal(expected) if t.event == event]
        after = evaluate(machine.function, (expected, event), D)
        assert after == (legal[0] if legal else ())  # φ: not legal from there
        expected = legal[0] if legal else expected
    assert evaluate(machine.fold(), (status, events), D) == expected
    assert apply(machine.fold(), (status, events), D) == expected  # the reference reducer


def test_declared_terminal_statuses_and_initial_without_declaration() -> None:
    D = corpus("library")
    machine = machine_of(D, "Loan")
    assert machine is not None
    assert machine.initial == "Active"
    assert machine.terminal == ("Returned", "Written Off")


MACHINE_READINGS = """\
Ticket(.id) is an entity type.
Ticket is escalated.
State Machine Definition 'Ticket' is for Noun 'Ticket'.
Status 'Open' is initial in State Machine Definition 'Ticket'.
Status 'Urgent' is defined in State Machine Definition 'Ticket'.
Status 'Closed' is defined in State Machine Definition 'Ticket'.
Transition 'escalate' is defined in State Machine Definition 'Ticket'.
Transition 'escalate' is from Status 'Open'.
Transition 'escalate' is to Status 'Urgent'.
Transition 'escalate' is triggered by Fact Type 'Ticket is escalated'.
Transition 'delete' is defined in State Machine Definition 'Ticket'.
Transition 'delete' is from Status 'Open'.
Transition 'delete' is from Status 'Urgent'.
Transition 'delete' is to Status 'Closed'.
Verb 'page' is performed during Transition 'escalate'.
Verb 'archive' is performed in Status 'Closed'.
"""


def test_facts_are_events_and_verbs_are_effects() -> None:
    D = arest.compile(MACHINE_READINGS)
    D = arest.apply(D, "create:Ticket", {"id": "t1"})[1]
    out, D = arest.apply(D, "update:Ticket", {"id": "t1", "is escalated": True})
    assert out["entity"]["status"] == "Urgent"
    assert out["effects"] == [{"verb": "page", "noun": "Ticket", "id": "t1",
                               "transition": "escalate", "event": "escalate"}]
    out, D = arest.apply(D, "delete:Ticket", {"id": "t1"})
    assert out["entity"]["status"] == "Closed"
    assert out["effects"] == [{"verb": "archive", "noun": "Ticket", "id": "t1",
                               "status": "Closed"}]
    out, _ = arest.apply(D, "delete:Ticket", "t1")
    assert out["error"]["code"] == "no_delete_transition" and out["error"]["events"] == []


def test_delete_without_a_machine_retracts_the_entity() -> None:
    D = arest.compile("Person(.Name) is an entity type.\nCar(.VIN) is an entity type.\n"
                      "Car is owned by Person.\n  Each Car is owned by exactly one Person.\n")
    D = arest.apply(D, "create:Person", {"Name": "ann"})[1]
    D = arest.apply(D, "create:Person", {"Name": "bob"})[1]
    D = arest.apply(D, "create:Car", {"VIN": "v1", "Person": "ann"})[1]
    out, D1 = arest.apply(D, "delete:Person", "ann")
    assert out["rejected"] and D1 is D  # the car would have no owner
    out, D2 = arest.apply(D, "delete:Person", "bob")
    assert not out["rejected"] and out["deleted"] == {"noun": "Person", "id": "bob"}
    assert [p["id"] for p in arest.apply(D2, "list:Person")[0]["items"]] == ["ann"]


class VisitEvents(RuleBasedStateMachine):
    """Random events on one Visit: the stored status is always the fold of the accepted
    events from s₀."""

    def __init__(self) -> None:
        super().__init__()
        self.D = clinic()
        self.accepted: list[str] = []

    @rule(event=st.sampled_from(["check-in", "see", "bill", "close", "cancel", "bogus"]))
    def fire(self, event: str) -> None:
        out, after = firing(self.D, "Visit", "v1", event)
        if "error" in out:
            assert event == "bogus" and after is self.D
        elif out["rejected"]:
            assert after is self.D
        else:
            self.accepted.append(event)
            self.D = after

    @invariant()
    def status_is_the_fold(self) -> None:
        machine = machine_of(self.D, "Visit")
        assert machine is not None
        replayed = evaluate(machine.fold(), (machine.initial, tuple(self.accepted)), self.D)
        assert arest.apply(self.D, "read:Visit", "v1")[0]["status"] == replayed


TestVisitEvents = pytest.mark.slow(VisitEvents.TestCase)


def test_links_hold_the_legal_transitions_keyed_by_event() -> None:
    D = clinic()
    links = arest.apply(D, "read:Visit", "v1")[0]["_links"]
    assert list(links)[:3] == ["self", "cancel", "check-in"]
    assert links["check-in"] == {"href": "/visits/v1/transition", "method": "POST",
                                 "event": "check-in"}
    D = firing(D, "Visit", "v1", "cancel")[1]
    links = arest.apply(D, "read:Visit", "v1")[0]["_links"]
    assert "cancel" not in links and "check-in" not in links  # terminal: no transition


def transition_links(entity: dict[str, Any]) -> set[str]:
    return {rel for rel, link in entity["_links"].items() if link.get("method") == "POST"}


def test_next_actions_are_the_legal_events_the_links_offer() -> None:
    D = clinic()
    out, D = firing(D, "Visit", "v1", "check-in")
    assert out["next_actions"] == [
        {"key": "transition:Visit", "input": {"id": "v1", "event": event}, "to": to}
        for event, to in [("cancel", "Cancelled"), ("see", "Seen")]]
    assert {a["input"]["event"] for a in out["next_actions"]} == transition_links(out["entity"])
    out, D1 = firing(D, "Visit", "v1", "bill")  # not legal from Checked In: D′ = D
    assert out["rejected"] and D1 is D
    assert [a["input"]["event"] for a in out["next_actions"]] == ["cancel", "see"]
    out, _ = firing(D, "Visit", "v1", "cancel")  # a terminal status: nothing is legal
    assert out["next_actions"] == [] and transition_links(out["entity"]) == set()


def test_next_actions_are_empty_without_a_machine() -> None:
    out, _ = arest.apply(clinic(), "create:Patient", {"id": "p2", "Full Name": "Sam",
                                                      "Phone": "556", "Home Address": "2 Elm"})
    assert not out["rejected"] and "status" not in out["entity"]
    assert out["next_actions"] == []


def test_a_cycle_without_an_exit_is_a_compile_warning() -> None:
    D = arest.compile(MACHINE_READINGS + "Transition 'reopen' is defined in State Machine "
                      "Definition 'Ticket'.\nTransition 'reopen' is from Status 'Closed'.\n"
                      "Transition 'reopen' is to Status 'Open'.\n")
    assert any("form a cycle no transition leaves" in w and "Closed, Open, Urgent" in w
               for w in arest.warnings(D))
    # The tracker's cycles (rework, reopen, retry) each have an exit: no warning.
    assert not any("cycle" in w for w in arest.warnings(corpus("tracker")))
