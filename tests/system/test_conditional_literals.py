"""A literal in a clause of a subset, equality or set comparison restricts which facts count:
``If some Parcel has Colour 'red' then …`` asks nothing of a blue parcel.  Through every
verb that can break one: create, update, assert, retract and a state machine's transition."""

from typing import Any

import arest

PARCELS = """\
Parcel(.id) is an entity type.
Tracking Number is a value type.
Colour is a value type.
Priority is a value type.
Weight is a value type.
Parcel has Tracking Number.
Parcel has Colour.
  Each Parcel has at most one Colour.
Parcel has Priority.
  Each Parcel has at most one Priority.
Parcel has Weight.
Parcel is rush.
"""


def domain(readings: str) -> Any:
    return arest.compile(PARCELS + readings)


def kinds(out: dict[str, Any]) -> list[str]:
    return [v["kind"] for v in out["violations"]]


def fact(fact_type: str, **bindings: str) -> dict[str, Any]:
    return {"fact_type": fact_type, "bindings": bindings}


RED = "If some Parcel has Colour 'red' then that Parcel has some Tracking Number.\n"


def test_an_antecedent_literal_asks_nothing_of_other_values() -> None:
    D = domain(RED)
    out, _ = arest.apply(D, "create:Parcel", {"id": "p1", "Colour": "blue"})
    assert not out["rejected"], out["violations"]
    out, after = arest.apply(D, "create:Parcel", {"id": "p2", "Colour": "red"})
    assert out["rejected"] and kinds(out) == ["SS"] and after is D
    assert out["violations"][0]["detail"]["evidence"] == [[["p2", "red"]], []]
    out, _ = arest.apply(D, "create:Parcel", {"id": "p3", "Colour": "red",
                                              "Tracking Number": "T3"})
    assert not out["rejected"]


def test_changing_to_the_literal_or_losing_the_consequent_is_caught() -> None:
    D = domain(RED)
    _, D1 = arest.apply(D, "create:Parcel", {"id": "p1", "Colour": "blue"})
    out, after = arest.apply(D1, "update:Parcel", {"id": "p1", "Colour": "red"})
    assert out["rejected"] and kinds(out) == ["SS"] and after is D1
    out, after = arest.apply(D1, "assert", fact("Parcel_has_Colour", Parcel="p2", Colour="red"))
    assert out["rejected"] and kinds(out) == ["SS"] and after is D1
    out, D2 = arest.apply(D1, "assert", fact("Parcel_has_Colour", Parcel="p2", Colour="green"))
    assert not out["rejected"]
    out, D3 = arest.apply(D2, "create:Parcel", {"id": "p3", "Colour": "red",
                                                "Tracking Number": "T3"})
    assert not out["rejected"]
    out, after = arest.apply(D3, "retract", fact("Parcel_has_Tracking_Number", Parcel="p3",
                                                 **{"Tracking Number": "T3"}))
    assert out["rejected"] and kinds(out) == ["SS"] and after is D3
    _, D4 = arest.apply(D3, "update:Parcel", {"id": "p1", "Tracking Number": "T1"})
    out, _ = arest.apply(D4, "retract", fact("Parcel_has_Tracking_Number", Parcel="p1",
                                             **{"Tracking Number": "T1"}))
    assert not out["rejected"], out["violations"]


def test_a_consequent_literal_is_satisfied_only_by_that_value() -> None:
    D = domain("If some Parcel is rush then that Parcel has Priority 'high'.\n")
    out, _ = arest.apply(D, "create:Parcel", {"id": "p1", "is rush": True, "Priority": "low"})
    assert out["rejected"] and kinds(out) == ["SS"]
    out, D1 = arest.apply(D, "create:Parcel", {"id": "p1", "is rush": True, "Priority": "high"})
    assert not out["rejected"], out["violations"]
    out, after = arest.apply(D1, "update:Parcel", {"id": "p1", "Priority": "low"})
    assert out["rejected"] and kinds(out) == ["SS"] and after is D1
    out, _ = arest.apply(D, "create:Parcel", {"id": "p2", "Priority": "low"})
    assert not out["rejected"]


def test_literals_on_both_sides_and_a_numeral() -> None:
    D = domain("If some Parcel has Weight 3 then that Parcel has Colour 'red'.\n")
    out, _ = arest.apply(D, "create:Parcel", {"id": "p1", "Weight": 3, "Colour": "blue"})
    assert out["rejected"] and kinds(out) == ["SS"]
    out, _ = arest.apply(D, "create:Parcel", {"id": "p1", "Weight": 3, "Colour": "red"})
    assert not out["rejected"], out["violations"]
    out, _ = arest.apply(D, "create:Parcel", {"id": "p1", "Weight": 4, "Colour": "blue"})
    assert not out["rejected"], out["violations"]


def test_equality_and_exclusive_or_with_literals() -> None:
    D = domain("Some Parcel has Colour 'red' if and only if that Parcel is rush.\n")
    out, _ = arest.apply(D, "create:Parcel", {"id": "p1", "Colour": "blue"})
    assert not out["rejected"], out["violations"]
    out, _ = arest.apply(D, "create:Parcel", {"id": "p1", "Colour": "blue", "is rush": True})
    assert kinds(out) == ["EQ"]
    out, _ = arest.apply(D, "create:Parcel", {"id": "p1", "Colour": "red", "is rush": True})
    assert not out["rejected"], out["violations"]
    D = domain("For each Parcel, at most one of the following holds: that Parcel has Colour"
               " 'red'; that Parcel has Priority 'low'.\n")
    out, _ = arest.apply(D, "create:Parcel", {"id": "p1", "Colour": "red", "Priority": "high"})
    assert not out["rejected"], out["violations"]
    out, _ = arest.apply(D, "create:Parcel", {"id": "p1", "Colour": "red", "Priority": "low"})
    assert kinds(out) == ["XC"]


SHIPPING = """\
Parcel(.id) is an entity type.
Tracking Number is a value type.
Parcel has Tracking Number.
State Machine Definition 'Parcel' is for Noun 'Parcel'.
Status 'Packed' is initial in State Machine Definition 'Parcel'.
Status 'Shipped' is defined in State Machine Definition 'Parcel'.
Transition 'ship' is defined in State Machine Definition 'Parcel'.
Transition 'ship' is from Status 'Packed'.
Transition 'ship' is to Status 'Shipped'.
If some Parcel has Status 'Shipped' then that Parcel has some Tracking Number.
"""


def test_a_guard_on_a_status_is_checked_when_the_status_changes() -> None:
    D = arest.compile(SHIPPING)
    out, D1 = arest.apply(D, "create:Parcel", {"id": "p1"})
    assert not out["rejected"], out["violations"]
    assert out["entity"]["status"] == "Packed"
    out, after = arest.apply(D1, "transition:Parcel", {"id": "p1", "event": "ship"})
    assert out["rejected"] and kinds(out) == ["SS"] and after is D1
    assert out["violations"][0]["detail"]["evidence"] == [[["p1", "Shipped"]], []]
    out, D2 = arest.apply(D1, "update:Parcel", {"id": "p1", "Tracking Number": "T1"})
    assert not out["rejected"], out["violations"]
    out, D3 = arest.apply(D2, "transition:Parcel", {"id": "p1", "event": "ship"})
    assert not out["rejected"], out["violations"]
    assert out["entity"]["status"] == "Shipped"
    out, after = arest.apply(D3, "retract", fact("Parcel_has_Tracking_Number", Parcel="p1",
                                                 **{"Tracking Number": "T1"}))
    assert out["rejected"] and kinds(out) == ["SS"] and after is D3


ORDERS = """\
Customer(.id) is an entity type.
Order(.id) is an entity type.
Shipping Address is a value type.
Channel is a value type.
Customer has Shipping Address.
  Each Customer has at most one Shipping Address.
Order has Shipping Address.
Order is placed by Customer via Channel.
If some Order is placed by some Customer via Channel 'web' then that Order has Shipping Address
  equal to that Customer's Shipping Address.
"""


def placed(order: str, channel: str) -> dict[str, Any]:
    return {"fact_type": "Order_is_placed_by_Customer_via_Channel",
            "bindings": [order, "c1", channel]}


def test_a_join_subset_joins_only_the_facts_holding_its_literal() -> None:
    D = arest.compile(ORDERS)
    _, D1 = arest.apply(D, "create:Customer", {"id": "c1", "Shipping Address": "A1"})
    out, _ = arest.apply(D1, "assert", placed("o1", "phone"))
    assert not out["rejected"], out["violations"]
    out, _ = arest.apply(D1, "assert", placed("o1", "web"))
    assert out["rejected"] and kinds(out) == ["SS"]
    # A new address for the customer reaches the orders it placed on the web only.
    _, D2 = arest.apply(D, "create:Customer", {"id": "c1"})
    _, D3 = arest.apply(D2, "assert", placed("o1", "phone"))
    out, _ = arest.apply(D3, "update:Customer", {"id": "c1", "Shipping Address": "A1"})
    assert not out["rejected"], out["violations"]
    _, D4 = arest.apply(D2, "assert", placed("o2", "web"))
    out, _ = arest.apply(D4, "update:Customer", {"id": "c1", "Shipping Address": "A1"})
    assert out["rejected"] and kinds(out) == ["SS"]
