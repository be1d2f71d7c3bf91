"""A tenant's population exported as SQL (``arest export``): the DDL and INSERTs load into
SQLite (foreign keys on) and PostgreSQL, and each fact type read back through its placement
(its table and columns) gives exactly arest's asserted facts."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from click.testing import CliRunner

import arest
from arest.algebra import State
from arest.algebra.relations import ASSERTED
from arest.cli import main
from arest.compiler.population import relation_in
from arest.compiler.rmap import Tables, ddl, relational_schema
from arest.compiler.rmap.export import inserts, rows
from arest.compiler.rmap.names import quoted
from arest.compiler.schema import schema_of
from tests import postgres as pg
from tests.compiler.test_rmap import OWN_SCHEME
from tests.corpus import OWN_READINGS

DOMAINS = ("clinic", "genealogy", "library", "orders", "tracker")


def shop() -> State:
    """readings/orders with customers whose ids and names hold a quote, an order with line
    items, and a transition."""
    D = arest.load(OWN_READINGS / "orders")
    commands: list[tuple[str, Any]] = [
        ("create:Customer", {"id": "o'brien@example.com", "Name": "O'Brien"}),
        ("create:Customer", {"id": "ann@example.com", "Name": "Ann", "is a reseller": True}),
        ("create:Order", {"id": "o-1", "Customer": "o'brien@example.com", "Priority": "rush"}),
        ("create:LineItem", {"id": "li-1", "Order": "o-1", "Product": "sku-hammer",
                             "Quantity": "2", "Amount": "19.90"}),
        ("create:LineItem", {"id": "li-2", "Order": "o-1", "Product": "sku-nails",
                             "Quantity": "0"}),
        ("transition:Order", {"id": "o-1", "event": "pay"}),
        ("create:Order", {"id": "o-2", "Customer": "ann@example.com"}),
    ]
    for key, request in commands:
        out, D = arest.apply(D, key, request)
        assert not out.get("rejected"), (key, out)
    return D


def populations() -> list[tuple[str, State]]:
    found = [(name, arest.load(OWN_READINGS / name)) for name in DOMAINS]
    return [*found, ("orders with a shop", shop())]


def asserted(D: State, fact_type: str) -> set[tuple[str, ...]]:
    relation = relation_in(D, fact_type)
    return {fact for fact, payload in relation.items() if payload is ASSERTED} \
        if relation is not None else set()


def placements(D: State) -> dict[str, dict[str, Any]]:
    """Where each stored fact type lives, as ``schema`` with ``"sql": true`` says, but for a
    reference scheme's one value: it is the row's key (``Customer has Email``), not a fact
    arest stores."""
    out = arest.apply(D, "schema", {"sql": True})[0]
    return {f["id"]: f["sql"] for f in out["fact_types"]
            if f["sql"] is not None and not f["sql"].get("view")
            and (len(f["sql"]["columns"]) < 2
                                         or len(set(map(str, f["sql"]["columns"]))) > 1)}


def read_back(fetch: Any, where: dict[str, Any]) -> set[tuple[str, ...]]:
    """A fact type's facts read from the database at its table and columns."""
    name = quoted(where["table"], "postgresql")
    cells = where["columns"]
    assert all(isinstance(cell, str) for cell in cells), "no compound keys in these domains"
    if "flag" in where:
        found = fetch(f"SELECT {quoted(where['flag'], 'postgresql')},"
                      f" {quoted(cells[0], 'postgresql')} FROM {name}")
        return {(str(key),) for flag, key in found if flag in (1, True, "t")}
    selected = ", ".join(quoted(c, "postgresql") for c in cells)
    present = " AND ".join(f"{quoted(c, 'postgresql')} IS NOT NULL" for c in cells)
    return {tuple(str(v) for v in row)
            for row in fetch(f"SELECT {selected} FROM {name} WHERE {present}")}


def export(D: State, dialect: str) -> tuple[Tables, str]:
    tables = relational_schema(schema_of(D))
    return tables, ddl(tables, dialect) + inserts(tables, rows(D, tables), dialect)


@pytest.mark.parametrize(("name", "D"), populations(), ids=lambda v: v if isinstance(v, str)
                         else "")
def test_an_export_loads_into_sqlite_and_reads_back_as_arest_facts(name: str, D: State) -> None:
    tables, script = export(D, "sqlite")
    connection = sqlite3.connect(":memory:")
    connection.execute("PRAGMA foreign_keys = ON")
    connection.executescript(script)
    assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
    fetch = lambda sql: connection.execute(sql).fetchall()  # noqa: E731
    stored = 0
    completed = {d.fact_type for d in tables.completed}
    for fact_type, where in placements(D).items():
        facts = asserted(D, fact_type)
        stored += len(facts)
        assert read_back(fetch, where) == facts, fact_type
        if fact_type not in completed:
            queried = arest.apply(D, f"query:{fact_type}")[0]
            assert len(queried["rows"]) == queried["total"]
            assert {tuple(str(v) for k, v in row.items() if k != "derived")
                    for row in queried["rows"]} == facts, fact_type
    if name != "genealogy":
        assert stored > 0


def test_quotes_numbers_unaries_and_statuses_are_written_as_sql_values() -> None:
    D = shop()
    _, script = export(D, "sqlite")
    assert "'o''brien@example.com'" in script
    connection = sqlite3.connect(":memory:")
    connection.execute("PRAGMA foreign_keys = ON")
    connection.executescript(script)
    assert connection.execute(
        'SELECT name, is_a_reseller FROM customer ORDER BY email').fetchall() == [
        ("Ann", 1), ("O'Brien", 0)]
    assert connection.execute(
        'SELECT order_number, status FROM "order" ORDER BY order_number').fetchall() == [
        ("o-1", "Paid"), ("o-2", "Placed")]
    assert connection.execute(
        "SELECT id, quantity, amount FROM line_item ORDER BY id").fetchall() == [
        ("li-1", "2", "19.90"), ("li-2", "0", None)]


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
"""


def test_an_entity_with_a_compound_reference_is_a_row_keyed_by_its_components() -> None:
    D = arest.compile(COMPOUND)
    out, D = arest.apply(D, "create:Resource", {"Site": "s1", "Slug": "a-b", "Title": "T"})
    out, D = arest.apply(D, "create:Page", {"id": "p1", "Resource": out["entity"]["id"]})
    assert not out.get("rejected"), out
    _, script = export(D, "sqlite")
    connection = sqlite3.connect(":memory:")
    connection.execute("PRAGMA foreign_keys = ON")
    connection.executescript(script)
    assert connection.execute("SELECT id FROM site").fetchall() == [("s1",)]
    assert connection.execute("SELECT site, slug, title FROM resource").fetchall() == [
        ("s1", "a-b", "T")]
    assert connection.execute("SELECT id, resource_site, resource_slug FROM page"
                              ).fetchall() == [("p1", "s1", "a-b")]


@pytest.mark.parametrize(("name", "D"), populations(), ids=lambda v: v if isinstance(v, str)
                         else "")
def test_an_export_loads_into_postgresql(name: str, D: State,
                                         pg_database: pg.Database) -> None:
    _, script = export(D, "postgresql")
    pg.run_sql(pg_database, script)

    def fetch(sql: str) -> list[tuple[str, ...]]:
        return pg.query(pg_database, sql)

    for fact_type, where in placements(D).items():
        assert read_back(fetch, where) == asserted(D, fact_type), fact_type


def test_arest_export_prints_the_ddl_the_inserts_and_the_deontic_violations(tmp_path: Any,
                                                                           ) -> None:
    db = str(tmp_path / "shop.db")
    readings = str(OWN_READINGS / "orders")
    runner = CliRunner()
    for key, request in [
        ("create:Customer", '{"id": "o\'brien@example.com", "Name": "O\'Brien"}'),
        ("create:Order", '{"id": "o-1", "Customer": "o\'brien@example.com"}'),
        ("create:LineItem", '{"id": "li-1", "Order": "o-1", "Product": "sku-hammer",'
                            ' "Quantity": "0"}'),
    ]:
        result = runner.invoke(main, ["apply", key, request, "--readings", readings,
                                           "--db", db])
        assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["export", readings, "--db", db])
    assert result.exit_code == 0, result.output
    assert "CREATE TABLE" in result.output
    assert "INSERT INTO customer (email, is_a_reseller, name) VALUES" \
        " ('o''brien@example.com', FALSE, 'O''Brien');" in result.output
    assert "-- deontic: It is forbidden that a LineItem has Quantity less than 1.: 1 facts" \
        in result.output
    connection = sqlite3.connect(":memory:")
    connection.execute("PRAGMA foreign_keys = ON")
    connection.executescript(result.output)
    assert connection.execute("SELECT quantity FROM line_item").fetchall() == [("0",)]
    data = runner.invoke(main, ["export", readings, "--db", db, "--data-only"])
    assert data.exit_code == 0 and "CREATE TABLE" not in data.output
    assert "INSERT INTO" in data.output
    missing = runner.invoke(main, ["export", readings])
    assert missing.exit_code != 0


CYCLE = """\
Person(.id) is an entity type.
Team(.Team Code) is an entity type.
Person plays for Team.
  Each Person plays for exactly one Team.
Team is led by Person.
  Each Team is led by exactly one Person.
Person mentors Person.
  Each Person mentors exactly one Person.
Person mentors Person is irreflexive.
"""
CYCLE_FACTS = """\
Person 'ann' plays for Team 't1'.
Person 'bo' plays for Team 't2'.
Team 't1' is led by Person 'bo'.
Team 't2' is led by Person 'ann'.
Person 'ann' mentors Person 'bo'.
Person 'bo' mentors Person 'ann'.
"""


def cycle() -> State:
    D = arest.compile(CYCLE_FACTS, arest.compile(CYCLE))
    assert not arest.apply(D, "validate")[0].get("violations")
    return D


def test_not_null_foreign_keys_in_a_cycle_are_checked_at_commit() -> None:
    D = cycle()
    tables, script = export(D, "sqlite")
    deferred = {(t.name, k.columns) for t in tables.tables for k in t.foreign_keys if k.deferred}
    assert deferred == {("person", ("team",)), ("team", ("person",)),
                        ("person", ("mentors_person",))}
    assert "REFERENCES team (team_code) DEFERRABLE INITIALLY DEFERRED" in script
    assert "BEGIN;\n" in script and script.endswith("COMMIT;\n")
    connection = sqlite3.connect(":memory:", isolation_level=None)
    connection.execute("PRAGMA foreign_keys = ON")
    connection.executescript(script)
    assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
    assert connection.execute("SELECT id, team, mentors_person FROM person ORDER BY id"
                              ).fetchall() == [("ann", "t1", "bo"), ("bo", "t2", "ann")]
    # Checked at commit, still checked: a row whose key refers to nothing is refused then.
    connection.execute("BEGIN")
    connection.execute("INSERT INTO person VALUES ('cy', 't9', 'ann')")
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        connection.execute("COMMIT")


def test_a_not_null_foreign_key_goes_first_and_a_nullable_one_back_is_set_later() -> None:
    D = arest.compile("Person 'ann' plays for Team 't1'.\nTeam 't1' is led by Person 'ann'.",
                      arest.compile(CYCLE.replace("plays for exactly one", "plays for at most one")
                                    .split("Person mentors")[0]))
    tables, script = export(D, "sqlite")
    assert not any(k.deferred for t in tables.tables for k in t.foreign_keys)
    assert "BEGIN;" not in script
    assert script.index("INSERT INTO person") < script.index("INSERT INTO team")
    assert "UPDATE person SET team = 't1' WHERE id = 'ann';" in script
    connection = sqlite3.connect(":memory:")
    connection.execute("PRAGMA foreign_keys = ON")
    connection.executescript(script)
    assert connection.execute("SELECT id, team FROM person").fetchall() == [("ann", "t1")]


def test_not_null_foreign_keys_in_a_cycle_load_into_postgresql(pg_database: pg.Database,
                                                               ) -> None:
    D = cycle()
    _, script = export(D, "postgresql")
    pg.run_sql(pg_database, script)
    assert pg.query(pg_database, "SELECT id, team, mentors_person FROM person ORDER BY id"
                    ) == [("ann", "t1", "bo"), ("bo", "t2", "ann")]
    with pytest.raises(pg.SqlRefused) as refused:
        pg.run_sql(pg_database, "BEGIN; INSERT INTO person VALUES ('cy', 't9', 'ann'); COMMIT;")
    assert refused.value.sqlstate == "23503"


def own_scheme() -> State:
    D = arest.compile("Clinician 's1' has Full Name 'Ann'.\nClinician 's1' is a Doctor.\n"
                      "Doctor 's1' has Specialty 'cardiology'.\n"
                      "Patient 'pt-1' sees Doctor 's1'.", arest.compile(OWN_SCHEME))
    out, D = arest.apply(D, "create:Doctor", {"id": "L-9", "Full Name": "Bo",
                                              "Specialty": "surgery"})
    assert not out.get("rejected"), out
    return D


def test_a_subtype_with_its_own_reference_scheme_exports_its_rows() -> None:
    D = own_scheme()
    _, script = export(D, "sqlite")
    connection = sqlite3.connect(":memory:")
    connection.execute("PRAGMA foreign_keys = ON")
    connection.executescript(script)
    assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
    # arest gives an entity one id in all its populations: both keys hold it.
    assert connection.execute("SELECT license_number, staff_code, specialty FROM doctor"
                              " ORDER BY license_number").fetchall() == [
        ("L-9", "L-9", "surgery"), ("s1", "s1", "cardiology")]
    fetch = lambda sql: connection.execute(sql).fetchall()  # noqa: E731
    for fact_type, where in placements(D).items():
        assert read_back(fetch, where) == asserted(D, fact_type), fact_type


def test_a_subtype_with_its_own_reference_scheme_loads_into_postgresql(
        pg_database: pg.Database) -> None:
    D = own_scheme()
    pg.run_sql(pg_database, export(D, "postgresql")[1])
    for fact_type, where in placements(D).items():
        assert read_back(lambda sql: pg.query(pg_database, sql), where) == asserted(
            D, fact_type), fact_type
