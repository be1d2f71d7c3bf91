"""The entity and fact verbs on the example domain and on readings of our own."""

from pathlib import Path
from typing import Any

import pytest

import arest

EXAMPLE = arest.load(Path(__file__).resolve().parents[2] / "readings" / "orders")


def run(D: Any, key: str, request: Any = None) -> tuple[dict[str, Any], Any]:
    return arest.apply(D, key, request)


@pytest.fixture
def shop() -> Any:
    out, D = run(EXAMPLE, "create:Customer", {"id": "ann@x.com", "Name": "Ann"})
    assert not out["rejected"]
    return D


def test_create_an_order_with_its_line_items_in_one_command(shop: Any) -> None:
    out, D = run(shop, "create:Order", {
        "Order Number": "o-1", "Customer": "ann@x.com", "Priority": "rush",
        "LineItem": [{"Product": "sku-hammer", "Quantity": 2},
                     {"id": "li-x", "Product": "sku-nails", "Quantity": 1.5}],
    })
    assert out["rejected"] is False and out["violations"] == []
    order = out["entity"]
    assert order["id"] == "o-1" and order["Customer"] == "ann@x.com"
    assert order["LineItem"] == ["li-x", "line-item-1"]
    assert run(D, "read:LineItem", "li-x")[0]["Quantity"] == "1.5"
    assert run(D, "read:LineItem", {"id": "line-item-1"})[0]["Order"] == "o-1"


def test_identity_rules(shop: Any) -> None:
    out, D = run(shop, "create:Order", {"Customer": "ann@x.com"})
    assert out["entity"]["id"] == "order-1"  # auto id: the noun's slug and a counter
    out, _ = run(D, "create:Order", {"id": "order-1", "Customer": "ann@x.com"})
    assert out["error"]["code"] == "entity_exists"
    out, _ = run(D, "create:Order", {"id": "a", "Order Number": "b", "Customer": "ann@x.com"})
    assert out["error"] == {**out["error"], "code": "invalid_input", "path": "$.Order Number"}


def test_compound_reference_schemes() -> None:
    D = arest.compile("Resource(.Site, .Slug) is an entity type.\n"
                      "Site is a value type.\nSlug is a value type.\nResource has Title.\n")
    out, D1 = run(D, "create:Resource", {"Site": "myapp", "Slug": "orders", "Title": "O"})
    assert out["entity"]["id"] == "myapp-orders"
    out, _ = run(D, "create:Resource", {"id": "my-app-orders"})
    assert out["entity"]["Site"] == "my-app" and out["entity"]["Slug"] == "orders"
    out, _ = run(D1, "create:Resource", {"id": "x-y", "Site": "myapp", "Slug": "orders"})
    assert out["error"]["code"] == "invalid_input"


def test_unknown_and_ambiguous_names_list_candidates(shop: Any) -> None:
    out, D = run(shop, "create:Customer", {"id": "bo@x.com", "Nmae": "Bo"})
    assert out["error"]["code"] == "unknown_field" and "Name" in out["error"]["candidates"]
    assert D is shop
    out, _ = run(shop, "create:Custmer", {"id": "x"})
    assert out["error"]["code"] == "unknown_noun" and out["error"]["candidates"][0] == "Customer"
    out, _ = run(shop, "create:Name", {"id": "x"})
    assert out["error"]["code"] == "invalid_input"  # a value type is not created


def test_update_replaces_adds_and_retracts(shop: Any) -> None:
    _, D = run(shop, "create:Product", {"id": "sku-saw", "Name": "Saw", "Category": "tools"})
    out, D = run(D, "update:Product", {"id": "sku-saw", "Name": "Hand saw",
                                       "Category": ["hardware"]})
    assert out["entity"]["Name"] == "Hand saw"
    assert out["entity"]["Category"] == ["hardware", "tools"]
    out, D = run(D, "update:Product", {"id": "sku-saw", "Category": None})
    assert "Category" not in out["entity"]
    out, D2 = run(D, "update:Product", {"id": "sku-saw", "Name": None})
    assert out["rejected"] and [v["kind"] for v in out["violations"]] == ["MC"] and D2 is D
    out, _ = run(D, "update:Product", {"id": "sku-nothing", "Name": "x"})
    assert out["error"]["code"] == "unknown_entity"


def test_flags_and_rows() -> None:
    D = arest.compile("Person(.id) is an entity type.\nPerson is retired.\n"
                      "Person speaks Language at Level.\n")
    out, D = run(D, "create:Person", {"id": "p", "is retired": True,
                                      "Person_speaks_Language_at_Level": [
                                          {"Language": "fr", "Level": "B2"}]})
    assert out["entity"]["is retired"] is True
    assert out["entity"]["Person_speaks_Language_at_Level"] == [{"Language": "fr", "Level": "B2"}]
    out, _ = run(D, "update:Person", {"id": "p", "is retired": False})
    assert "is retired" not in out["entity"]
    out, _ = run(D, "update:Person", {"id": "p", "is retired": "yes"})
    assert out["error"]["code"] == "invalid_input"


def test_read_get_and_list(shop: Any) -> None:
    assert run(shop, "read:Customer", "ann@x.com")[0]["Name"] == "Ann"
    assert run(shop, "get:Customer", {"id": "ann@x.com"})[0]["id"] == "ann@x.com"
    assert run(shop, "get:Customer")[0]["total"] == 1
    assert run(shop, "read:Customer", "nobody")[0]["error"]["code"] == "unknown_entity"


def test_assert_retract_verify_with_numbered_roles(shop: Any) -> None:
    ring = "Category_has_parent_Category"
    out, _ = run(shop, "assert", {"fact_type": ring, "bindings": {"Category": "x"}})
    assert out["error"]["code"] == "ambiguous_field"
    out, D = run(shop, "assert", {"fact_type": ring,
                                  "bindings": {"Category1": "garden", "Category2": "all"}})
    assert not out["rejected"] and out["fact"]["bindings"] == {"Category1": "garden",
                                                                "Category2": "all"}
    verdict, same = run(D, "verify", {"fact_type": ring, "bindings": ["all", "garden"]})
    assert verdict["would_reject"] and same is D
    assert [v["kind"] for v in verdict["violations"]] == ["AC"]
    out, D2 = run(D, "retract", {"fact_type": ring, "bindings": ["garden", "all"]})
    assert not out["rejected"] and run(D2, "query:" + ring, {"Category1": "garden"})[0][
        "rows"] == []
    out, _ = run(D2, "retract", {"fact_type": ring, "bindings": ["garden", "all"]})
    assert not out["rejected"] and out["violations"] == []  # nothing to retract
    out, _ = run(shop, "assert", {"fact_type": "Order_placed", "bindings": []})
    assert out["error"]["code"] == "unknown_fact_type"


def test_query_and_project(shop: Any) -> None:
    rows = run(shop, "query:Product_is_in_Category")[0]["rows"]
    assert rows == [{"Product": "sku-hammer", "Category": "tools", "derived": False},
                    {"Product": "sku-nails", "Category": "hardware", "derived": False}]
    out = run(shop, "query:Product_is_in_Category", {"Category": "tools"})[0]
    assert out["total"] == 1
    out = run(shop, "project", {"fact_type": "Category_has_parent_Category",
                                "roles": ["Category2"]})[0]
    assert out["rows"] == [{"Category2": "all"}, {"Category2": "hardware"}]
    out = run(shop, "project", {"noun": "Product", "roles": ["Name"],
                                "filter": {"Category": "tools"}})[0]
    assert out["rows"] == [{"Name": "Hammer"}]
    out = run(shop, "project", {"noun": "Product", "roles": ["Colour"]})[0]
    assert out["error"]["code"] == "unknown_field"


def test_snapshots_and_rollback(shop: Any) -> None:
    out, D1 = arest.apply(shop, "snapshot", {"label": ""}, {"now": "2025-01-01T00:00:00Z"})
    assert out == {"id": "snap-0"}
    _, D2 = run(D1, "update:Customer", {"id": "ann@x.com", "Name": "Annie"})
    out, D3 = arest.apply(D2, "snapshot", {"label": "after"}, {"now": "2025-02-01T00:00:00Z"})
    out, D4 = run(D3, "rollback", {"id": "snap-0"})
    assert out == {"id": "snap-0", "rolled_back": True}
    assert run(D4, "read:Customer", "ann@x.com")[0]["Name"] == "Ann"
    listed = run(D4, "snapshots")[0]["snapshots"]
    assert [s["id"] for s in listed] == ["snap-0", "after"]  # rollback keeps every snapshot
    assert listed[0]["taken_at"] == "2025-01-01T00:00:00Z"
    out, D5 = run(D4, "rollback", {"id": "after"})
    assert run(D5, "read:Customer", "ann@x.com")[0]["Name"] == "Annie"
    out, _ = run(D4, "rollback", {"id": "nope"})
    assert out["error"]["code"] == "unknown_snapshot"
    out, _ = run(D4, "snapshot", {})
    assert out == {"id": "snap-2"}  # auto labels skip labels in use
    out, _ = run(D4, "snapshot", {"label": 7})
    assert out["error"]["path"] == "$.label"


def test_compile_is_validated_self_modification(shop: Any) -> None:
    out, D = run(shop, "compile", {"readings": "Customer has Phone.\n"})
    assert out["rejected"] is False
    assert any(f["id"] == "Customer_has_Phone" for f in run(D, "schema")[0]["fact_types"])
    out, D2 = run(shop, "compile", {
        "readings": "Customer has Phone.\n  Each Customer has exactly one Phone.\n"})
    assert out["rejected"] and D2 is shop
    assert {v["reading"] for v in out["violations"]} == {"Each Customer has exactly one Phone."}
    out, _ = run(shop, "compile", {"readings": "Each Customer has."})
    assert out["error"]["code"] == "reading_error"
    assert out["error"]["diagnostics"][0]["line"] == 1


def test_derived_fact_types_refuse_writes() -> None:
    D = arest.compile("Person(.id) is an entity type.\nPerson has Score. *\n")
    out, _ = run(D, "assert", {"fact_type": "Person_has_Score", "bindings": ["p", "1"]})
    assert out["error"]["code"] == "derived_fact_type"
