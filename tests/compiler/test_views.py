"""Derived fact types as SQL views: the rules that are joins, projections, negations or counts
are views named and shaped like the table the fact type would have, the others are listed
with why; and for any population, a view's rows in the exported database are exactly the
facts arest derives."""

from __future__ import annotations

import sqlite3
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arest
from arest.algebra import State
from arest.cli import main
from arest.compiler.population import relation_in
from arest.compiler.rmap import ddl, relational_schema
from arest.compiler.rmap.export import inserts, rows
from arest.compiler.rmap.names import quoted
from arest.compiler.rmap.views import Views, views_of
from arest.compiler.schema import schema_of
from tests import postgres as pg
from tests.corpus import OWN_READINGS

TASKS = """\
Task(.id) is an entity type.
Person(.Name) is an entity type.
Label is a value type.
Task is assigned to Person.
Task is blocked.
Task has Label.
  Each Task has at most one Label.
Person is busy.
* Person is busy if Task is assigned to Person and Task is not blocked.
Task is ready.
* Task is ready if Task has Label 'ready' and Task is not blocked.
* Task is ready if Task has Label 'urgent'.
Person is idle.
* Person is idle if Person is not busy.
Person has Task Count.
* Person has Task Count iff Task Count is the count of Task where Task is assigned to that Person.
Points is a value type.
  The possible values of Points are 1, 2, 3, 5, 8.
Task has Points.
  Each Task has at most one Points.
Task is big.
* Task is big iff Task has Points and that Points is greater than 3.
Person has big Task Count.
* Person has big Task Count iff big Task Count is the count of Task
  where Task is assigned to that Person and Task has Points and that Points is at least 5.
"""
"""Negation, a literal, a union of two rules, a view over a view, a variable that ranges over
its noun's population, a count over a fact type with a table of its own, and comparisons of
a number column (alone and within a count)."""


@cache
def domain(name: str) -> State:
    return arest.compile(TASKS) if name == "tasks" else arest.load(OWN_READINGS / name)


def views(D: State) -> Views:
    return views_of(D, relational_schema(schema_of(D)))


def exported(D: State, dialect: str = "sqlite") -> str:
    """What ``arest export`` prints: the DDL with the views, then the rows."""
    tables = relational_schema(schema_of(D))
    return ddl(tables, dialect, views_of(D, tables)) + inserts(tables, rows(D, tables), dialect)


def view_rows(fetch: Any, D: State, fact_type: str) -> set[tuple[str, ...]]:
    view = views(D).view(fact_type)
    assert view is not None, fact_type
    found = fetch(f"SELECT * FROM {quoted(view.name, 'postgresql')}")
    return {tuple(str(value) for value in row) for row in found}


def derived(D: State, fact_type: str) -> set[tuple[str, ...]]:
    relation = relation_in(D, fact_type)
    return set(relation) if relation is not None else set()


def assert_views_agree(D: State) -> None:
    """Every view, read from the exported population in SQLite, holds arest's facts."""
    connection = sqlite3.connect(":memory:")
    connection.execute("PRAGMA foreign_keys = ON")
    connection.executescript(exported(D))
    for view in views(D).views:
        assert view_rows(lambda sql: connection.execute(sql).fetchall(), D,
                         view.fact_type) == derived(D, view.fact_type), view.fact_type


def test_a_count_a_join_and_negations_are_views_and_the_rest_are_listed_with_why() -> None:
    assert [v.fact_type for v in views(domain("orders")).views] == [
        "Customer_has_Unpaid_Order_Count"]
    assert [v.fact_type for v in views(domain("genealogy")).views] == [
        "Person_is_grandparent_of_Person"]
    library = views(domain("library"))
    assert [v.fact_type for v in library.views] == [
        "Copy_is_available", "Loan_is_long", "Member_has_Loan_Count"]
    assert {u.fact_type: u.why.split(":")[0] for u in library.unviewed} == {
        "Loan_has_Allowed_Days": "a computation", "Loan_has_Fine": "a computation"}
    # A comparison of a column with a numeral is a view (true where the column holds one).
    assert views(domain("tracker")).view("Issue_is_big") is not None
    tracker = {u.fact_type: u.why.split(":")[0] for u in views(domain("tracker")).unviewed}
    assert tracker["Milestone_has_mean_Points"] == "an average"
    assert tracker["Milestone_has_smallest_Points"] == "a minimum"


def test_a_view_is_named_and_shaped_like_the_table_its_fact_type_would_have() -> None:
    view = views(domain("orders")).view("Customer_has_Unpaid_Order_Count")
    assert view is not None
    assert view.name == "customer_has_unpaid_order_count"
    assert [(c.name, c.type) for c in view.columns] == [
        ("customer", "text"), ("unpaid_order_count", "text")]
    grandparent = views(domain("genealogy")).view("Person_is_grandparent_of_Person")
    assert grandparent is not None
    assert [c.name for c in grandparent.columns] == ["person1", "person2"]


def test_the_ddl_creates_each_view_after_the_views_it_reads_and_lists_the_others() -> None:
    D = domain("tasks")
    text = ddl(relational_schema(schema_of(D)), "sqlite", views(D))
    assert text.index("CREATE VIEW person_is_busy") < text.index("CREATE VIEW person_is_idle")
    assert "UNION" in text and "NOT EXISTS" in text
    library = domain("library")
    listed = ddl(relational_schema(schema_of(library)), "sqlite", views(library))
    assert "--   Loan_has_Fine (*, a computation: arest computes with numerals" in listed
    assert "CREATE VIEW loan_is_long AS" in listed
    assert "CREATE VIEW copy_is_available AS" in listed
    # A semi-derived fact type's table holds its asserted facts: listed, not a view.
    assert "--   Member_may_borrow (+)" in listed and "VIEW member_may_borrow" not in listed


ORDER_EVENTS = ("pay", "cancel", "ship", "deliver")


@st.composite
def shop_commands(draw: st.DrawFn) -> list[tuple[str, dict[str, Any]]]:
    customers = draw(st.integers(1, 3))
    commands: list[tuple[str, dict[str, Any]]] = [
        ("create:Customer", {"id": f"c{i}@x", "Name": f"C'{i}"}) for i in range(customers)]
    for j in range(draw(st.integers(0, 6))):
        commands.append(("create:Order", {"id": f"o{j}",
                                          "Customer": f"c{draw(st.integers(0, 3))}@x"}))
    for _ in range(draw(st.integers(0, 6))):
        commands.append(("transition:Order", {"id": f"o{draw(st.integers(0, 5))}",
                                              "event": draw(st.sampled_from(ORDER_EVENTS))}))
    return commands


def fact(fact_type: str, *values: str) -> tuple[str, dict[str, Any]]:
    return "assert", {"fact_type": fact_type, "bindings": list(values)}


def unfact(fact_type: str, *values: str) -> tuple[str, dict[str, Any]]:
    return "retract", {"fact_type": fact_type, "bindings": list(values)}


PEOPLE = st.sampled_from(["ann", "bob", "cy", "di", "ed"])
PARENTHOOD = st.lists(
    st.tuples(st.sampled_from([fact, unfact]), PEOPLE, PEOPLE).map(
        lambda t: t[0]("Person_is_parent_of_Person", t[1], t[2])), min_size=2, max_size=10)

TASK = st.sampled_from(["t1", "t2", "t3"])
TASK_COMMANDS = st.lists(st.one_of(
    st.tuples(TASK, PEOPLE).map(lambda t: fact("Task_is_assigned_to_Person", *t)),
    st.tuples(TASK, PEOPLE).map(lambda t: unfact("Task_is_assigned_to_Person", *t)),
    TASK.map(lambda t: fact("Task_is_blocked", t)),
    st.tuples(TASK, st.sampled_from(["ready", "urgent", "later"])).map(
        lambda t: fact("Task_has_Label", *t)),
    PEOPLE.map(lambda p: ("create:Person", {"id": p})),
    st.tuples(TASK, st.sampled_from(["1", "3", "5", "8"])).map(
        lambda t: fact("Task_has_Points", *t)),
), min_size=2, max_size=10)


def populated(name: str, commands: list[tuple[str, dict[str, Any]]]) -> State:
    """The domain after the commands arest accepts."""
    D = domain(name)
    for key, request in commands:
        out, after = arest.apply(D, key, request)
        if not out.get("rejected") and "error" not in out:
            D = after
    return D


COMMANDS = {
    "orders": shop_commands(),
    "genealogy": PARENTHOOD,
    "tasks": TASK_COMMANDS,
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_views_rows_after_export_are_the_facts_arest_derives(name: str,
                                                              data: st.DataObject) -> None:
    assert_views_agree(populated(name, data.draw(COMMANDS[name])))


def test_the_own_domains_populations_agree_with_their_views() -> None:
    for name in ("genealogy", "library", "orders", "tracker"):
        assert views(domain(name)).views, name
        assert_views_agree(domain(name))
    D = populated("orders", [("create:Customer", {"id": "ann@x", "Name": "Ann"}),
                             ("create:Order", {"id": "o1", "Customer": "ann@x"}),
                             ("create:Order", {"id": "o2", "Customer": "ann@x"})])
    assert derived(D, "Customer_has_Unpaid_Order_Count") == {("ann@x", "2")}
    assert_views_agree(D)


def test_arest_export_gives_a_database_whose_view_counts_the_unpaid_orders(tmp_path: Any
                                                                          ) -> None:
    db, readings = str(tmp_path / "shop.db"), str(OWN_READINGS / "orders")
    runner = CliRunner()
    for key, request in [
        ("create:Customer", '{"id": "ann@x", "Name": "Ann"}'),
        ("create:Order", '{"id": "o-1", "Customer": "ann@x"}'),
        ("create:Order", '{"id": "o-2", "Customer": "ann@x"}'),
        ("transition:Order", '{"id": "o-2", "event": "pay"}'),
    ]:
        result = runner.invoke(main, ["apply", key, request, "--readings", readings,
                                      "--db", db])
        assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["export", readings, "--db", db])
    assert result.exit_code == 0, result.output
    connection = sqlite3.connect(":memory:")
    connection.executescript(result.output)
    assert connection.execute("SELECT customer, unpaid_order_count"
                              " FROM customer_has_unpaid_order_count").fetchall() == [
        ("ann@x", "1")]


@pytest.mark.parametrize("name", ["genealogy", "library", "orders", "tasks", "tracker"])
def test_the_views_agree_with_arest_in_postgresql(name: str, pg_database: pg.Database) -> None:
    D = domain(name)
    pg.run_sql(pg_database, exported(D, "postgresql"))
    for view in views(D).views:
        assert view_rows(lambda sql: pg.query(pg_database, sql), D,
                         view.fact_type) == derived(D, view.fact_type), view.fact_type


def test_the_worked_example_reads_the_derived_view(monkeypatch: pytest.MonkeyPatch) -> None:
    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "sql.md").read_text("utf-8")
    start = page.index("```python\n", page.index("## Worked example")) + len("```python\n")
    code = page[start:page.index("```", start)]
    assert "FROM customer_has_unpaid_order_count" in code
    monkeypatch.chdir(root)
    exec(compile(code, "docs/sql.md", "exec"), {})  # its asserts are the example's checks


COMPOUND = """\
Site(.id) is an entity type.
Resource(.Site, .Slug) is an entity type.
Slug is a value type.
Title is a value type.
Resource has Title.
  Each Resource has at most one Title.
Page(.id) is an entity type.
Page shows Resource.
  Each Page shows at most one Resource.
Page is titled.
* Page is titled if Page shows Resource and Resource has Title.
Page features Resource.
* Page features Resource if Page shows Resource.
Member(.id) is an entity type.
Card is a value type.
Member has Card.
  Each Member has at most one Card.
Member may borrow.
+ Member may borrow if Member has Card.
Member is welcome.
* Member is welcome if Member may borrow.
Member is loud.
* Member is loud if Member is welcome.
"""


def test_an_entity_with_a_compound_key_joins_on_every_key_column() -> None:
    D = arest.compile(COMPOUND)
    for site, slug, title in (("s1", "a", "A"), ("s1", "b", "")):
        request = {"Site": site, "Slug": slug} | ({"Title": title} if title else {})
        out, D = arest.apply(D, "create:Resource", request)
        resource = out["entity"]["id"]
        out, D = arest.apply(D, "create:Page", {"id": f"p-{slug}", "shows Resource": resource})
        assert "error" not in out and not out.get("rejected"), out
    features = views(D).view("Page_features_Resource")
    assert features is not None
    assert [c.name for c in features.columns] == ["page", "resource_site", "resource_slug"]
    connection = sqlite3.connect(":memory:")
    connection.executescript(exported(D))
    assert connection.execute("SELECT * FROM page_is_titled").fetchall() == [("p-a",)]
    assert sorted(connection.execute("SELECT * FROM page_features_resource").fetchall()) == [
        ("p-a", "s1", "a"), ("p-b", "s1", "b")]
    assert derived(D, "Page_is_titled") == {("p-a",)}


def test_a_rule_over_facts_no_table_holds_in_full_is_not_a_view() -> None:
    why = {u.fact_type: u.why for u in views(arest.compile(COMPOUND)).unviewed}
    assert why == {
        "Member_is_welcome": "it reads Member_may_borrow, whose table holds only its asserted"
                             " facts",
        "Member_is_loud": "it reads Member_is_welcome, which is not a view",
    }


def test_schema_with_sql_gives_a_derived_fact_type_its_view() -> None:
    out = arest.apply(domain("library"), "schema", {"sql": True})[0]
    where = {f["id"]: f["sql"] for f in out["fact_types"]}
    assert where["Member_has_Loan_Count"] == {
        "table": "member_has_loan_count", "columns": ["member", "loan_count"], "view": True}
    assert where["Loan_is_long"] == {"table": "loan_is_long", "columns": ["loan"], "view": True}
    assert where["Loan_has_Fine"] is None
    assert where["Member_may_borrow"] == {"table": "member", "columns": ["card_number"],
                                          "flag": "may_borrow"}
