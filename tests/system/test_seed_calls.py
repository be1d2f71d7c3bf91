"""The calls the AREST MCP verb reference shows, as it shows them: snapshot with an empty
label, project of a noun named as a fact type, search by part of a word."""

from __future__ import annotations

from typing import Any

import arest

SHOP = """Customer(.id) is an entity type.
Order(.id) is an entity type.
Name is a value type.
Customer has Name.
Order was placed by Customer.
State Machine Definition 'Order' is for Noun 'Order'.
Status 'Draft' is initial in State Machine Definition 'Order'.
Transition 'place' is defined in State Machine Definition 'Order'.
Transition 'place' is from Status 'Draft'.
Transition 'place' is to Status 'Placed'.
"""


def shop() -> Any:
    D = arest.compile(SHOP)
    D = arest.apply(D, "create:Customer", {"id": "acme", "Name": "Acme Corp"})[1]
    D = arest.apply(D, "create:Customer", {"id": "cme", "Name": "Other"})[1]
    D = arest.apply(D, "create:Customer", {"id": "zed", "Name": "Has cme inside"})[1]
    D = arest.apply(D, "create:Order", {"id": "o-1", "Customer": "acme"})[1]
    D = arest.apply(D, "create:Order", {"id": "o-2", "Customer": "acme"})[1]
    return arest.apply(D, "transition:Order", {"id": "o-1", "event": "place"})[1]


def test_snapshot_with_an_empty_label_takes_the_first_auto_label_snap_0() -> None:
    out, D = arest.apply(shop(), "snapshot", {"label": ""})
    assert out == {"id": "snap-0"}
    out, D = arest.apply(D, "snapshot", {})
    assert out == {"id": "snap-1"}
    assert arest.apply(D, "rollback", {"id": "snap-0"})[0]["rolled_back"] is True


def test_project_of_a_noun_named_as_a_fact_type_projects_its_entities() -> None:
    D = shop()
    out = arest.apply(D, "project", {"fact_type": "Order", "filter": {"status": "Placed"}})[0]
    assert out["rows"] == [{"id": "o-1", "Customer": ["acme"], "status": "Placed"}]
    named = arest.apply(D, "project", {"noun": "Order", "filter": {"status": "Placed"}})[0]
    assert out == named
    rows = arest.apply(D, "project", {"fact_type": "Order_was_placed_by_Customer"})[0]["rows"]
    assert len(rows) == 2  # a fact type is still a fact type


def test_search_finds_a_substring_below_whole_token_hits() -> None:
    D = shop()
    ids = [r["id"] for r in arest.apply(D, "search", {"query": "cme"})[0]["results"]]
    assert ids[:2] == ["Customer:cme", "Customer:zed"]  # the id, then the whole token
    assert ids[2:] == ["Customer:acme", "Order:o-2"]  # `acme`, and an Order whose Customer is
    # `acme` (o-1 is Placed: a terminal status, deleted, so not searched)
    assert arest.apply(D, "search", {"query": "qqq"})[0]["results"] == []
