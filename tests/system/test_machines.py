"""State machines: statuses, transitions, actions, delete, facts as events, effects; the
corpus machines, and random event sequences against the fold."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

import arest
from arest.algebra import evaluate
from arest.system.machines import machine_of

CORPUS = Path(__file__).parents[2].parent / "shared" / "corpus" / "tutor-domains"
pytestmark = pytest.mark.skipif(not CORPUS.exists(), reason="the tutor corpus is beside us")


def corpus(name: str) -> Any:
    """A corpus domain, without the sentences the reader rejects (named in docs/readings.md)."""
    text = (CORPUS / f"{name}.md").read_text()
    kept = [line for line in text.splitlines()
            if not re.match(r"Channel '\w+' has Channel Name", line)
            and "before Content Status" not in line]
    return arest.compile("\n".join(kept))


def shop() -> Any:
    D = arest.load(CORPUS / "orders.md")
    D = arest.apply(D, "create:Customer", {"id": "acme", "Name": "Acme",
                                           "Shipping Address": "1 Main"})[1]
    out, D = arest.apply(D, "create:Order", {
        "Order Number": "o1", "Customer": "acme", "Shipping Address": "1 Main",
        "LineItem": [{"id": "li1", "Product": "w", "Quantity": "1", "Amount": "5"}]})
    assert not out["rejected"], out["violations"]
    return D


PRIORITY = "high"


def firing(D: Any, noun: str, entity: str, event: str) -> tuple[dict[str, Any], Any]:
    return arest.apply(D, f"transition:{noun}", {"id": entity, "event": event})


def test_an_entity_starts_in_the_initial_status_and_moves_by_events() -> None:
    D = shop()
    assert arest.apply(D, "read:Order", "o1")[0]["status"] == "Draft"
    for event, status in [("place", "Placed"), ("pay", "Paid"), ("ship", "Shipped")]:
        out, D = firing(D, "Order", "o1", event)
        assert not out["rejected"] and out["entity"]["status"] == status
    assert arest.apply(D, "query:Order_has_Status")[0]["rows"] == [
        {"Order": "o1", "Status": "Shipped", "derived": False}]


def test_an_illegal_event_is_rejected_with_the_status_and_the_legal_events() -> None:
    D = shop()
    out, D1 = firing(D, "Order", "o1", "ship")
    assert out["rejected"] and D1 is D
    assert out["violations"][0]["kind"] == "transition"
    assert out["violations"][0]["detail"] == {"status": "Draft", "event": "ship",
                                              "legal": ["cancel", "place"]}
    out, D1 = firing(D, "Order", "o1", "teleport")
    assert out["error"]["code"] == "unknown_event" and "ship" in out["error"]["events"]


def test_two_transitions_share_the_event_cancel() -> None:
    D = shop()
    out, _ = firing(D, "Order", "o1", "cancel")
    assert out["entity"]["status"] == "Cancelled"
    D2 = firing(D, "Order", "o1", "place")[1]
    out, _ = firing(D2, "Order", "o1", "cancel")
    assert out["entity"]["status"] == "Cancelled"


def test_two_machines_on_two_nouns() -> None:
    D = shop()
    out, D = arest.apply(D, "create:Payment", {"id": "pay-1", "Order": "o1", "Amount": "5",
                                               "Payment Method": "paypal"})
    assert not out["rejected"], out
    assert out["entity"]["status"] == "Pending"
    assert firing(D, "Payment", "pay-1", "authorize")[0]["entity"]["status"] == "Authorized"
    assert arest.apply(D, "read:Order", "o1")[0]["status"] == "Draft"


def test_actions_list_the_legal_events() -> None:
    D = shop()
    assert arest.apply(D, "actions", {"noun": "Order", "id": "o1"})[0] == {
        "id": "o1", "noun": "Order", "status": "Draft", "actions": [
            {"event": "cancel", "to": "Cancelled", "href": "/orders/o1/transition",
             "method": "POST"},
            {"event": "place", "to": "Placed", "href": "/orders/o1/transition",
             "method": "POST"}]}


def test_terminal_entities_are_left_out_of_lists_unless_asked() -> None:
    D = firing(shop(), "Order", "o1", "cancel")[1]
    assert arest.apply(D, "list:Order")[0]["total"] == 0
    listed = arest.apply(D, "list:Order", {"include_terminal": True})[0]
    assert [item["status"] for item in listed["items"]] == ["Cancelled"]


def test_status_is_maintained_only_by_the_machine() -> None:
    D = shop()
    out, _ = arest.apply(D, "assert", {"fact_type": "Order_has_Status",
                                       "bindings": ["o1", "Paid"]})
    assert out["error"]["code"] == "derived_fact_type"
    out, _ = arest.apply(D, "update:Order", {"id": "o1", "status": "Paid"})
    assert out["error"]["code"] == "derived_fact_type"


def test_the_done_count_rule_reads_the_status_the_fold_keeps() -> None:
    D = corpus("tasks")
    D = arest.apply(D, "create:Project", {"id": "p1", "Title": "Launch"})[1]
    D = arest.apply(D, "create:Milestone", {"id": "m1", "Project": "p1"})[1]
    for task in ("t1", "t2"):
        out, D = arest.apply(D, "create:Task", {"id": task, "Title": task, "Priority": PRIORITY,
                                                "Project": "p1", "Milestone": "m1"})
        assert not out["rejected"], out["violations"]
    rows = arest.apply(D, "query:Milestone_has_total_Task_Count")[0]["rows"]
    assert [(r["Milestone"], r["Task Count"]) for r in rows] == [("m1", "2")]
    for event in ("prioritize", "start", "submit-for-review", "approve"):
        out, D = firing(D, "Task", "t1", event)
        assert not out["rejected"], out["violations"]
    assert {"fact_type": "Milestone_has_done_Task_Count",
            "bindings": {"Milestone": "m1", "Task Count": "1"}} in out["derived"]
    D = firing(D, "Task", "t1", "reopen")[1]
    assert arest.apply(D, "query:Milestone_has_done_Task_Count")[0]["rows"] == []


def test_a_retry_cycle_returns_to_queued() -> None:
    D = corpus("notifications")
    machine = machine_of(D, "Notification")
    assert machine is not None and machine.terminal == ("Read",)
    fold = evaluate(machine.fold(), ("Queued", ("send", "fail", "retry", "send",
                                                "confirm-sent")), D)
    assert fold == "Sent"


def test_declared_terminal_statuses_and_initial_without_declaration() -> None:
    D = corpus("authoring")
    machine = machine_of(D, "Authoring Session")
    assert machine is not None
    assert machine.initial == "Inspect Existing Model"
    assert machine.terminal == ("Stage or Compile",)


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


class OrderEvents(RuleBasedStateMachine):
    """Random events on one Order: the stored status is always the fold of the accepted
    events from s₀."""

    def __init__(self) -> None:
        super().__init__()
        self.D = shop()
        self.accepted: list[str] = []

    @rule(event=st.sampled_from(["place", "pay", "ship", "deliver", "cancel", "refund",
                                 "bogus"]))
    def fire(self, event: str) -> None:
        out, after = firing(self.D, "Order", "o1", event)
        if "error" in out:
            assert event == "bogus" and after is self.D
        elif out["rejected"]:
            assert after is self.D
        else:
            self.accepted.append(event)
            self.D = after

    @invariant()
    def status_is_the_fold(self) -> None:
        machine = machine_of(self.D, "Order")
        assert machine is not None
        replayed = evaluate(machine.fold(), (machine.initial, tuple(self.accepted)), self.D)
        assert arest.apply(self.D, "read:Order", "o1")[0]["status"] == replayed


TestOrderEvents = OrderEvents.TestCase


def test_links_hold_the_legal_transitions_keyed_by_event() -> None:
    D = shop()
    links = arest.apply(D, "read:Order", "o1")[0]["_links"]
    assert list(links)[:3] == ["self", "cancel", "place"]
    assert links["place"] == {"href": "/orders/o1/transition", "method": "POST",
                              "event": "place"}
    D = firing(D, "Order", "o1", "cancel")[1]
    links = arest.apply(D, "read:Order", "o1")[0]["_links"]
    assert "cancel" not in links and "place" not in links  # a terminal status: no transition


def test_a_cycle_without_an_exit_is_a_compile_warning() -> None:
    D = arest.compile(MACHINE_READINGS + "Transition 'reopen' is defined in State Machine "
                      "Definition 'Ticket'.\nTransition 'reopen' is from Status 'Closed'.\n"
                      "Transition 'reopen' is to Status 'Open'.\n")
    assert any("form a cycle no transition leaves" in w and "Closed, Open, Urgent" in w
               for w in arest.warnings(D))
    assert not any("cycle" in w for w in arest.warnings(corpus("notifications")))
