"""delete removes the entity and every fact it plays a role in; it is rejected only when
that breaks a constraint on something else.  A noun whose machine declares `delete` fires
it instead."""

from __future__ import annotations

from typing import Any

import arest

SHOP = """Customer(.id) is an entity type.
Order(.id) is an entity type.
Name is a value type.
Order was placed by Customer.
  Each Order was placed by exactly one Customer.
Customer has Name.
  Each Customer has exactly one Name.
"""

MACHINE = """State Machine Definition 'Order' is for Noun 'Order'.
Status 'Open' is initial in State Machine Definition 'Order'.
Transition 'close' is defined in State Machine Definition 'Order'.
Transition 'close' is from Status 'Open'.
Transition 'close' is to Status 'Closed'.
"""


def shop(readings: str = SHOP) -> Any:
    D = arest.apply(arest.compile(readings), "create:Customer", {"id": "acme", "Name": "Acme"})[1]
    out, D = arest.apply(D, "create:Order", {"id": "o1", "Customer": "acme"})
    assert not out["rejected"], out["violations"]
    return D


def ids(D: Any, noun: str) -> list[str]:
    return [item["id"] for item in arest.apply(D, f"list:{noun}")[0]["items"]]


def test_deleting_an_entity_with_its_own_mandatory_roles_is_accepted() -> None:
    out, D = arest.apply(shop(), "delete:Order", {"id": "o1"})
    assert not out["rejected"] and out["violations"] == []
    assert out["deleted"] == {"noun": "Order", "id": "o1"}
    assert ids(D, "Order") == [] and ids(D, "Customer") == ["acme"]
    assert arest.apply(D, "query:Order_was_placed_by_Customer")[0]["rows"] == []
    assert arest.apply(D, "read:Customer", "acme")[0]["Name"] == "Acme"


def test_deleting_an_entity_another_needs_is_rejected_for_that_other_only() -> None:
    D = shop()
    out, after = arest.apply(D, "delete:Customer", {"id": "acme"})
    assert out["rejected"] and after is D and out["deleted"] is None
    assert [v["reading"] for v in out["violations"]] == [
        "Each Order was placed by exactly one Customer."]
    D = arest.apply(D, "delete:Order", {"id": "o1"})[1]
    out, D = arest.apply(D, "delete:Customer", {"id": "acme"})
    assert not out["rejected"] and ids(D, "Customer") == []


def test_a_machine_without_a_delete_event_deletes_like_a_noun_without_one() -> None:
    D = shop(SHOP + MACHINE)
    assert arest.apply(D, "read:Order", "o1")[0]["status"] == "Open"
    out, D = arest.apply(D, "delete:Order", {"id": "o1"})
    assert not out["rejected"] and ids(D, "Order") == []
    assert arest.apply(D, "query:Order_has_Status")[0]["rows"] == []


def test_a_machine_with_a_delete_event_fires_it_and_keeps_the_entity() -> None:
    deleting = MACHINE + ("Transition 'delete' is defined in State Machine Definition 'Order'.\n"
                          "Transition 'delete' is from Status 'Open'.\n"
                          "Transition 'delete' is to Status 'Deleted'.\n")
    D = shop(SHOP + deleting)
    closed = arest.apply(D, "transition:Order", {"id": "o1", "event": "close"})[1]
    out, _ = arest.apply(closed, "delete:Order", {"id": "o1"})
    assert out["error"]["code"] == "no_delete_transition"
    out, D = arest.apply(D, "delete:Order", {"id": "o1"})
    assert not out["rejected"] and out["entity"]["status"] == "Deleted"
    assert ids(D, "Order") == [] and arest.apply(D, "list:Order", {"include_terminal": True})[
        0]["items"][0]["id"] == "o1"


def test_deleting_a_supertype_entity_takes_it_out_of_its_subtypes() -> None:
    D = arest.compile("Person(.id) is an entity type.\nEmployee is a subtype of Person.\n"
                      "Badge is a value type.\nEmployee has Badge.\n"
                      "  Each Employee has exactly one Badge.\n")
    D = arest.apply(D, "create:Employee", {"id": "ann", "Badge": "b1"})[1]
    out, D = arest.apply(D, "delete:Person", {"id": "ann"})
    assert not out["rejected"] and ids(D, "Person") == [] and ids(D, "Employee") == []
    assert arest.apply(D, "query:Employee_has_Badge")[0]["rows"] == []
