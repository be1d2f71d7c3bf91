"""The shop of the README (readings/orders) behaves as its README says: an order's life
cycle, deleting an order, and the count of a customer's unpaid orders."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import arest
from arest.algebra import State

ORDERS = Path(__file__).resolve().parents[2] / "readings" / "orders"


@pytest.fixture(scope="module")
def shop() -> State:
    """Ann with two orders, o-1 and o-2, both just placed."""
    D = arest.load(ORDERS)
    _, D = arest.apply(D, "create:Customer", {"id": "ann@example.com", "Name": "Ann"})
    for order in ("o-1", "o-2"):
        out, D = arest.apply(D, "create:Order", {
            "id": order, "Customer": "ann@example.com",
            "LineItem": [{"Product": "sku-nails", "Quantity": 1}]})
        assert out["rejected"] is False
    return D


def fire(D: State, *events: str, order: str = "o-1") -> tuple[dict[str, Any], State]:
    out: dict[str, Any] = {}
    for event in events:
        out, D = arest.apply(D, "transition:Order", {"id": order, "event": event})
        assert out["rejected"] is False, out["violations"]
    return out, D


def status(D: State, order: str = "o-1") -> str:
    return str(arest.apply(D, "read:Order", order)[0]["status"])


def unpaid(D: State) -> list[list[str]]:
    return [[r["Customer"], r["Unpaid Order Count"]]
            for r in arest.apply(D, "query:Customer_has_Unpaid_Order_Count")[0]["rows"]]


def test_an_order_is_placed_paid_shipped_and_delivered(shop: State) -> None:
    assert status(shop) == "Placed"
    _, D = fire(shop, "pay", "ship", "deliver")
    assert status(D) == "Delivered"
    assert [e["id"] for e in arest.apply(D, "list:Order")[0]["items"]] == ["o-2"]
    listed = arest.apply(D, "list:Order", {"include_terminal": True})[0]["items"]
    assert [e["id"] for e in listed] == ["o-1", "o-2"]


@pytest.mark.parametrize("paid", [(), ("pay",)])
def test_an_order_is_cancelled_before_it_ships(shop: State, paid: tuple[str, ...]) -> None:
    _, D = fire(shop, *paid, "cancel")
    assert status(D) == "Cancelled"


def test_a_shipped_order_cannot_be_cancelled(shop: State) -> None:
    _, D = fire(shop, "pay", "ship")
    out, same = arest.apply(D, "transition:Order", {"id": "o-1", "event": "cancel"})
    assert (out["rejected"], same is D) == (True, True)
    assert [(v["kind"], v["detail"]) for v in out["violations"]] == [
        ("transition", {"status": "Shipped", "event": "cancel", "legal": ["deliver"]})]


def test_deleting_an_unpaid_order_cancels_it_and_keeps_its_record(shop: State) -> None:
    out, D = arest.apply(shop, "delete:Order", {"id": "o-1"})
    assert (out["rejected"], out["entity"]["status"]) == (False, "Cancelled")
    assert "deleted" not in out  # fired its delete event: nothing left D
    assert arest.apply(D, "read:Order", "o-1")[0]["LineItem"] == ["line-item-1"]


def test_deleting_a_paid_order_is_refused_with_the_legal_events(shop: State) -> None:
    _, D = fire(shop, "pay")
    out, _ = arest.apply(D, "delete:Order", {"id": "o-1"})
    assert out["error"]["code"] == "no_delete_transition"
    assert out["error"]["events"] == ["cancel", "ship"]


def test_the_unpaid_count_follows_the_orders_statuses(shop: State) -> None:
    assert unpaid(shop) == [["ann@example.com", "2"]]
    _, D = fire(shop, "pay")
    assert unpaid(D) == [["ann@example.com", "1"]]
    assert arest.apply(D, "read:Customer", "ann@example.com")[0]["Unpaid Order Count"] == "1"
    _, D = fire(D, "cancel", order="o-2")
    assert unpaid(D) == []
    why, _ = arest.apply(shop, "explain", {"fact_type": "Customer_has_Unpaid_Order_Count",
                                           "bindings": ["ann@example.com", "2"]})
    assert sorted(a["reading"] for a in why["antecedents"]) == [
        "Order 'o-1' has Status 'Placed'.", "Order 'o-1' was placed by Customer 'ann@example.com'.",
        "Order 'o-2' has Status 'Placed'.", "Order 'o-2' was placed by Customer 'ann@example.com'."]
    assert not any(a["derived"] for a in why["antecedents"])
