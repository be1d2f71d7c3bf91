"""The keys ``schema``, ``list:Noun``, ``list:Fact Type`` and ``list:<Noun>``; the error
envelope; apply never raises and never changes D on bad input."""

from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import arest

READINGS = """\
Customer(.Name) is an entity type.
Order(.Order Id) is an entity type.
Category(.Category Code) is an entity type.
Order was placed by Customer.
  Each Order was placed by exactly one Customer.
Order has Tag.
Customer is active.
Category has parent Category.
  Each Category has at most one parent Category.
Order 'ord-1' was placed by Customer 'acme'.
Order 'ord-2' was placed by Customer 'acme'.
Order 'ord-3' was placed by Customer 'zeta'.
Order 'ord-1' has Tag 'rush'.
Order 'ord-1' has Tag 'gift'.
Customer 'acme' is active.
Category 'phones' has parent Category 'electronics'.
"""

D = arest.compile(READINGS)


def call(key: str, request: Any = None) -> dict[str, Any]:
    out, after = arest.apply(D, key, request)
    assert after is D
    return out


def test_schema_lists_nouns_fact_types_constraints() -> None:
    out = call("schema")
    assert {"nouns", "fact_types", "constraints", "rules", "machines"} <= set(out)
    order = next(f for f in out["fact_types"] if f["id"] == "Order_was_placed_by_Customer")
    assert order["roles"] == [{"noun": "Order", "position": 0},
                              {"noun": "Customer", "position": 1}]
    kinds = {c["kind"] for c in out["constraints"]
             if c["reading"] == "Each Order was placed by exactly one Customer."}
    assert kinds == {"UC", "MC"}


def test_schema_around_a_fact_type() -> None:
    out = call("schema", {"fact_type": "Category_has_parent_Category"})
    assert [f["id"] for f in out["fact_types"]] == ["Category_has_parent_Category"]
    assert [n["name"] for n in out["nouns"]] == ["Category"]


def test_schema_errors_name_candidates() -> None:
    assert call("schema", {"noun": "Ordr"})["error"]["candidates"][0] == "Order"
    error = call("schema", {"fact_type": "Order_placed_by"})["error"]
    assert error["code"] == "unknown_fact_type"
    assert call("schema", {"nouns": "x"})["error"]["code"] == "invalid_input"


def test_entities_with_fields() -> None:
    items = {item["id"]: item for item in call("list:Order")["items"]}
    assert items["ord-1"]["Customer"] == "acme"  # single-valued: a uniqueness constraint
    assert items["ord-1"]["Tag"] == ["gift", "rush"]  # no uniqueness: a list
    assert items["ord-1"]["_links"]["self"] == {"href": "/orders/ord-1"}
    assert items["ord-1"]["_links"]["customer"] == {"href": "/customers/acme", "rel": "parent"}
    assert "Tag" not in items["ord-2"]
    customers = {item["id"]: item for item in call("list:Customer")["items"]}
    assert customers["acme"]["is active"] is True and "is active" not in customers["zeta"]
    assert customers["acme"]["Order"] == ["ord-1", "ord-2"]


def test_a_ring_field_is_named_by_its_reading() -> None:
    phones = next(i for i in call("list:Category")["items"] if i["id"] == "phones")
    assert phones["parent Category"] == "electronics"


def test_filter_limit_offset() -> None:
    out = call("list:Order", {"filter": {"Customer": "acme"}})
    assert [i["id"] for i in out["items"]] == ["ord-1", "ord-2"] and out["total"] == 2
    out = call("list:Order", {"filter": {"Tag": "rush"}})
    assert [i["id"] for i in out["items"]] == ["ord-1"]
    out = call("list:Order", {"limit": 1, "offset": 1})
    assert [i["id"] for i in out["items"]] == ["ord-2"] and out["total"] == 3
    out = call("list:Order", {"filter": {"Order_was_placed_by_Customer": "zeta"}})
    assert [i["id"] for i in out["items"]] == ["ord-3"]


def test_the_schema_as_entities() -> None:
    nouns = {item["id"]: item for item in call("list:Noun")["items"]}
    assert nouns["Order"]["Object Type"] == "entity"
    assert nouns["Order"]["Reference Scheme"] == "Order Id"
    assert "Domain Change" in nouns  # the metamodel's nouns are listed too
    fact_types = {item["id"] for item in call("list:Fact Type")["items"]}
    assert "Order_was_placed_by_Customer" in fact_types
    assert call("list:Fact Type", {"limit": 1})["items"][0]["_links"]["self"]["href"].startswith(
        "/fact-types/"
    )


@pytest.mark.parametrize(
    ("key", "request_", "code"),
    [
        ("lst:Order", None, "unknown_key"),
        ("list", None, "unknown_key"),
        ("list:", None, "unknown_key"),
        ("schema:Order", None, "unknown_key"),
        ("list:Ordr", None, "unknown_noun"),
        ("list:Order", {"filter": {"Colour": "red"}}, "unknown_field"),
        ("list:Order", {"limit": -1}, "invalid_input"),
        ("list:Order", {"limit": True}, "invalid_input"),
        ("list:Order", {"sort": "id"}, "invalid_input"),
        ("list:Order", "ord-1", "invalid_input"),
        ("list:Order", {"filter": {"Customer": ["acme"]}}, "invalid_input"),
    ],
)
def test_errors_carry_a_stable_code(key: str, request_: Any, code: str) -> None:
    error = call(key, request_)["error"]
    assert error["code"] == code and error["message"]


def test_an_unknown_field_lists_the_candidates() -> None:
    error = call("list:Order", {"filter": {"Custmer": "acme"}})["error"]
    assert error["field"] == "Custmer" and "Customer" in error["candidates"]


def test_a_bad_context_is_invalid_input() -> None:
    out, after = arest.apply(D, "schema", None, {"source": "Robot"})
    assert out["error"]["code"] == "invalid_input" and after is D
    out, _ = arest.apply(D, "schema", None, {"now": "yesterday"})
    assert out["error"]["path"] == "$context.now"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=3),
    max_leaves=8,
)
keys = st.one_of(
    st.sampled_from([
        "schema", "list:Order", "list:Noun", "list:Fact Type", "list:Customer", "create:Order",
        "create:Customer", "update:Order", "read:Order", "get:Order", "query:Order_has_Tag",
        "project", "assert", "retract", "verify", "compile", "snapshot", "rollback",
        "snapshots", "create:Noun", "update:Noun",
    ]),
    st.text(max_size=12),
    st.integers(),
)
plausible = st.one_of(
    st.fixed_dictionaries({"id": st.sampled_from(["ord-1", "ord-9", "acme", 3])},
                          optional={"Customer": json_values, "Tag": json_values,
                                    "Name": json_values, "LineItem": json_values}),
    st.fixed_dictionaries({"fact_type": st.sampled_from(["Order_has_Tag", "Nope", 1]),
                           "bindings": json_values}),
    st.fixed_dictionaries({}, optional={"noun": json_values, "fact_type": json_values,
                                        "roles": json_values, "filter": json_values,
                                        "label": json_values, "readings": json_values}),
)


@given(keys, st.one_of(json_values, plausible), st.one_of(st.none(), json_values))
@example("create:Order", {"id": "ord-9", "Customer": 10**5000}, None)
@example("read:Order", 10**5000, None)
@example("assert", {"fact_type": "Order_has_Tag", "bindings": ["ord-1", -10**5000]}, None)
@example("list:Order", {"filter": {"Tag": 10**5000}}, None)
@example(10**5000, None, None)
@example([[[[]]]] * 2, None, None)
def test_apply_never_raises(key: Any, request_: Any, context: Any) -> None:
    out, after = arest.apply(D, key, request_, context)
    assert isinstance(out, dict)
    if "error" in out or out.get("rejected"):
        assert after is D
    assert after is D or not out.get("rejected")


def test_the_schema_is_the_tenants_own_unless_all_is_asked() -> None:
    D = arest.compile(READINGS)
    own, same = arest.apply(D, "schema", {})
    assert same is D
    assert {n["name"] for n in own["nouns"]} == {
        "Customer", "Order", "Category", "Name", "Order Id", "Category Code", "Tag"}
    assert {f["id"] for f in own["fact_types"]} == {
        "Order_was_placed_by_Customer", "Order_has_Tag", "Customer_is_active",
        "Category_has_parent_Category", "Customer_has_Name", "Order_has_Order_Id",
        "Category_has_Category_Code"}
    every = arest.apply(D, "schema", {"all": True})[0]
    assert {"Noun", "Constraint", "Customer"} <= {n["name"] for n in every["nouns"]}
    assert len(every["fact_types"]) > len(own["fact_types"])
    assert arest.apply(D, "schema", {"all": "yes"})[0]["error"]["code"] == "invalid_input"


def test_schema_with_sql_says_where_each_fact_type_lives() -> None:
    out = call("schema", {"sql": True})
    where = {f["id"]: f["sql"] for f in out["fact_types"]}
    assert where["Order_was_placed_by_Customer"] == {"table": "order",
                                                     "columns": ["order_id", "customer"]}
    assert where["Order_has_Tag"] == {"table": "order_has_tag", "columns": ["order", "tag"]}
    assert where["Customer_is_active"] == {"table": "customer", "columns": ["name"],
                                           "flag": "is_active"}
    assert where["Category_has_parent_Category"] == {
        "table": "category", "columns": ["category_code", "parent_category"]}
    assert all("sql" not in f for f in call("schema")["fact_types"])
    around = call("schema", {"noun": "Order", "sql": True})["fact_types"]
    assert {f["id"] for f in around} >= {"Order_has_Tag"} and all("sql" in f for f in around)
    every = call("schema", {"all": True, "sql": True})["fact_types"]
    assert {f["id"]: f["sql"] for f in every}["Noun_has_Object_Type"] is None
    assert call("schema", {"sql": "yes"})["error"]["code"] == "invalid_input"
    assert call("schema", {"noun": "Order", "all": True, "sql": True})["error"]["code"] \
        == "invalid_input"
