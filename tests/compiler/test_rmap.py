"""The relational schema (Rmap, DESIGN §10) and its DDL: each mapping rule on a small
domain, golden DDL for the example domains in both dialects, every corpus domain's DDL run by
SQLite, and SQLite refusing what the tables state (NOT NULL, CHECK, foreign keys) while
accepting a valid population.

``AREST_REGENERATE_GOLDEN=1 pytest tests/compiler/test_rmap.py`` rewrites the golden files;
review the diff before committing it.
"""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.compiler.rmap import DIALECTS, Tables, ddl, relational_schema
from arest.compiler.rmap.names import quoted, snake
from arest.compiler.rmap.views import views_of
from arest.compiler.schema import schema_of
from arest.testing import graph_schemas, schemas
from tests import postgres as pg
from tests.corpus import OWN_READINGS, TUTOR_FILES

GOLDEN = Path(__file__).resolve().parent / "golden"
# A fixed list, so that a missing folder fails instead of collecting nothing.
DOMAINS = ("clinic", "genealogy", "library", "orders", "tracker")
# Sentences of two tutor files that give an entity a second reference value: arest refuses
# them (docs/readings.md, Reference schemes), so the DDL is made from the rest.
SECOND_NAME = re.compile(r"(Brand|Channel) '[^']+' has \1 Name '[^']+'\.")


def tables_of(text: str) -> Tables:
    return relational_schema(schema_of(arest.compile(text)))


def database(tables: Tables) -> sqlite3.Connection:
    connection = sqlite3.connect(":memory:")
    connection.execute("PRAGMA foreign_keys = ON")
    connection.executescript(ddl(tables, "sqlite"))
    return connection


def columns(tables: Tables, table: str) -> dict[str, tuple[str, bool]]:
    return {c.name: (c.type, c.nullable) for c in tables.table(table).columns}


SHOP = """\
Customer(.Email) is an entity type.
Order(.Order Number) is an entity type.
Order was placed by Customer.
  Each Order was placed by exactly one Customer.
Order has Note.
  Each Order has at most one Note.
Order is rush.
Customer places Order.
"""


def test_a_functional_fact_type_is_a_column_not_null_when_mandatory() -> None:
    tables = tables_of(SHOP)
    assert columns(tables, "order") == {
        "order_number": ("text", False), "customer": ("text", False),
        "note": ("text", True), "is_rush": ("boolean", False)}
    assert tables.table("order").primary_key == ("order_number",)
    assert tables.placement("Order_was_placed_by_Customer").table == "order"
    assert tables.placement("Order_was_placed_by_Customer").columns == (
        ("order_number",), ("customer",))


def test_a_role_played_by_an_entity_is_a_foreign_key() -> None:
    (key,) = tables_of(SHOP).table("order").foreign_keys
    assert (key.columns, key.table, key.references) == (("customer",), "customer", ("email",))


def test_a_fact_type_without_a_single_role_uniqueness_is_a_table_keyed_by_its_uniqueness() -> None:
    tables = tables_of(SHOP + """\
Student(.Student Id) is an entity type.
Course(.Code) is an entity type.
Student takes Course in Term.
  Each Student takes each Course in at most one Term.
""")
    table = tables.table("student_takes_course_in_term")
    assert [c.name for c in table.columns] == ["student", "course", "term"]
    assert table.primary_key == ("student", "course")
    assert tables.placement("Student_takes_Course_in_Term").columns == (
        ("student",), ("course",), ("term",))
    # Many to many (no uniqueness declared): the whole fact is the key, as a relation is a set.
    assert tables.table("customer_places_order").primary_key == ("customer", "order")


def test_a_unary_is_a_boolean_column() -> None:
    tables = tables_of(SHOP)
    assert tables.placement("Order_is_rush").columns == (("order_number",),)
    assert "is_rush BOOLEAN NOT NULL DEFAULT FALSE" in ddl(tables, "postgresql")


VALUES = SHOP + """\
Order has Priority.
  Each Order has at most one Priority.
  The possible values of Priority are 'low', 'high'.
Order has Quantity.
  Each Order has at most one Quantity.
  Each Order has Quantity less than 100.
Order has Points.
  Each Order has at most one Points.
  The possible values of Points are 1, 2, 3.
"""
NUMERALS_REFUSED = ["100", "lots", "1e1", "5.", "-", "1.2.3", " 5", "+5", ".5"]


def test_a_value_constraint_is_a_check_and_numbers_compare_as_numbers() -> None:
    tables = tables_of(VALUES)
    checks = {check.columns[0]: check for check in tables.table("order").checks}
    assert checks["priority"].values == ("high", "low")
    # Values are text, as arest's atoms: a comparison compares a numeral's number.
    assert columns(tables, "order")["quantity"] == ("text", True)
    text = ddl(tables, "postgresql")
    assert "CHECK (priority IN ('high', 'low'))" in text
    assert "THEN CAST(quantity AS NUMERIC) < 100 ELSE FALSE END" in text
    connection = database(tables)
    connection.execute("INSERT INTO customer VALUES ('ann@x')")
    insert = ("INSERT INTO \"order\" (order_number, customer, priority, quantity)"
              " VALUES (?, ?, ?, ?)")
    connection.execute(insert, ("o1", "ann@x", "low", "99"))
    connection.execute(insert, ("o2", "ann@x", None, None))
    connection.execute(insert, ("o7", "ann@x", None, "-12.50"))
    connection.execute(insert, ("o8", "ann@x", None, 7))
    for bad in [("o3", "ann@x", "urgent", None), ("o6", "ann@x", None, 250),
                *[(f"q{i}", "ann@x", None, q) for i, q in enumerate(NUMERALS_REFUSED)]]:
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            connection.execute(insert, bad)
    # An enumeration of numerals lists texts, as arest compares atoms: 2.0 is not 2.
    connection.execute("INSERT INTO \"order\" (order_number, customer, points)"
                       " VALUES ('p1', 'ann@x', 2)")
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        connection.execute("INSERT INTO \"order\" (order_number, customer, points)"
                           " VALUES ('p2', 'ann@x', '2.0')")


def test_postgresql_checks_numerals_as_sqlite_does(pg_database: pg.Database) -> None:
    pg.run_sql(pg_database, ddl(tables_of(VALUES), "postgresql"))
    pg.run_sql(pg_database, "INSERT INTO customer VALUES ('ann@x');"
                            " INSERT INTO \"order\" (order_number, customer, quantity, points)"
                            " VALUES ('o1', 'ann@x', '-12.50', '2'), ('o2', 'ann@x', '99', NULL);")
    for index, bad in enumerate([*(f"'{q}', NULL" for q in NUMERALS_REFUSED), "NULL, '2.0'"]):
        with pytest.raises(pg.SqlRefused) as refused:
            pg.run_sql(pg_database, "INSERT INTO \"order\" (order_number, customer, quantity,"
                                    f" points) VALUES ('b{index}', 'ann@x', {bad});")
        assert refused.value.sqlstate == "23514", bad  # a CHECK, not a cast error


def test_a_deontic_constraint_is_never_a_check() -> None:
    tables = tables_of(SHOP + """\
Order has Quantity.
  Each Order has at most one Quantity.
It is forbidden that an Order has Quantity greater than 10.
""")
    assert tables.table("order").checks == ()
    (listed,) = tables.unstated
    assert (listed.kind, listed.modality) == ("VC", "deontic")
    assert "It is forbidden that an Order has Quantity greater than 10." in ddl(tables, "sqlite")


def test_an_irreflexive_ring_is_a_check_and_other_rings_are_listed() -> None:
    tables = tables_of("""\
Category(.Code) is an entity type.
Category has parent Category.
  Each Category has at most one parent Category.
Category has parent Category is irreflexive.
Category has parent Category is acyclic.
""")
    (check,) = tables.table("category").checks
    assert (check.kind, check.columns) == ("differ", ("code", "parent_category"))
    assert [(u.kind, u.modality) for u in tables.unstated] == [("AC", "alethic")]
    connection = database(tables)
    connection.execute("INSERT INTO category VALUES ('tools', NULL)")
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        connection.execute("INSERT INTO category VALUES ('loop', 'loop')")


COMPOUND_RING = """\
Site(.id) is an entity type.
Slug is a value type.
Resource(.Site, .Slug) is an entity type.
Resource links to Resource.
  Each Resource links to at most one Resource.
Resource links to Resource is irreflexive.
Resource cites Resource.
Resource cites Resource is irreflexive.
"""


def test_an_irreflexive_ring_over_a_compound_key_is_a_check_on_its_components() -> None:
    tables = tables_of(COMPOUND_RING)
    assert tables.unstated == ()
    text = ddl(tables, "sqlite")
    assert "CHECK (site <> links_to_resource_site OR slug <> links_to_resource_slug)" in text
    assert "CHECK (resource1_site <> resource2_site OR resource1_slug <> resource2_slug)" in text
    connection = database(tables)
    connection.executemany("INSERT INTO site VALUES (?)", [("s1",), ("s2",)])
    connection.executemany("INSERT INTO resource VALUES (?, ?, NULL, NULL)",
                           [("s1", "a"), ("s2", "a"), ("s1", "b")])
    # Another site's resource of the same slug, or the same site's of another slug: not a loop.
    connection.execute("UPDATE resource SET links_to_resource_site = 's2',"
                       " links_to_resource_slug = 'a' WHERE site = 's1' AND slug = 'a'")
    connection.execute("INSERT INTO resource_cites_resource VALUES ('s1', 'a', 's1', 'b')")
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        connection.execute("UPDATE resource SET links_to_resource_site = 's1',"
                           " links_to_resource_slug = 'b' WHERE site = 's1' AND slug = 'b'")
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        connection.execute("INSERT INTO resource_cites_resource VALUES ('s2', 'a', 's2', 'a')")


def test_postgresql_refuses_a_loop_over_a_compound_key(pg_database: pg.Database) -> None:
    pg.run_sql(pg_database, ddl(tables_of(COMPOUND_RING), "postgresql"))
    pg.run_sql(pg_database, "INSERT INTO site VALUES ('s1'), ('s2');"
                            " INSERT INTO resource VALUES ('s1', 'a', 's2', 'a'), ('s2', 'a', NULL,"
                            " NULL); INSERT INTO resource_cites_resource"
                            " VALUES ('s1', 'a', 's2', 'a');")
    for loop in ["UPDATE resource SET links_to_resource_site = 's2' WHERE site = 's2';"
                 " UPDATE resource SET links_to_resource_slug = 'a' WHERE site = 's2';",
                 "INSERT INTO resource_cites_resource VALUES ('s1', 'a', 's1', 'a');"]:
        with pytest.raises(pg.SqlRefused) as refused:
            pg.run_sql(pg_database, f"BEGIN; {loop} COMMIT;")
        assert refused.value.sqlstate == "23514", loop


def test_an_external_uniqueness_in_one_table_is_unique() -> None:
    tables = tables_of("""\
Visit(.Visit Number) is an entity type.
Room(.Room Number) is an entity type.
Visit is held in Room.
  Each Visit is held in at most one Room.
Visit has Start Time.
  Each Visit has exactly one Start Time.
For each Room and Start Time, at most one Visit is held in that Room and has that Start Time.
""")
    (unique,) = tables.table("visit").uniques
    assert set(unique.columns) == {"room", "start_time"}
    assert tables.unstated == ()


def test_a_one_to_one_is_absorbed_on_its_mandatory_side_with_unique_on_the_other() -> None:
    tables = tables_of("""\
Person(.Name) is an entity type.
Desk(.Desk Number) is an entity type.
Person sits at Desk.
  Each Person sits at at most one Desk.
  For each Desk, exactly one Person sits at that Desk.
""")
    assert tables.placement("Person_sits_at_Desk").table == "desk"
    assert columns(tables, "desk") == {"desk_number": ("text", False), "person": ("text", False)}
    assert [u.columns for u in tables.table("desk").uniques] == [("person",)]
    assert tables.unstated == ()


def test_subtypes_are_tables_keyed_as_their_supertype() -> None:
    tables = tables_of("""\
Clinician(.Staff Code) is an entity type.
Doctor is a subtype of Clinician.
Clinician has Full Name.
  Each Clinician has exactly one Full Name.
Doctor has Specialty.
  Each Doctor has exactly one Specialty.
""")
    doctor = tables.table("doctor")
    assert (doctor.kind, doctor.primary_key) == ("subtype", ("staff_code",))
    assert columns(tables, "doctor") == {"staff_code": ("text", False),
                                         "specialty": ("text", False)}
    (key,) = doctor.foreign_keys
    assert (key.table, key.references) == ("clinician", ("staff_code",))
    # Membership is a row of the subtype's table.
    assert tables.placement("Clinician_is_a_Doctor").table == "doctor"
    connection = database(tables)
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        connection.execute("INSERT INTO doctor VALUES ('s1', 'cardiology')")


OWN_SCHEME = """\
Clinician(.Staff Code) is an entity type.
Doctor(.License Number) is an entity type.
Doctor is a subtype of Clinician.
Clinician has Full Name.
  Each Clinician has exactly one Full Name.
Doctor has Specialty.
  Each Doctor has exactly one Specialty.
Patient(.Patient Number) is an entity type.
Patient sees Doctor.
  Each Patient sees at most one Doctor.
"""


def test_a_subtype_with_its_own_reference_scheme_is_keyed_by_it() -> None:
    tables = tables_of(OWN_SCHEME)
    doctor = tables.table("doctor")
    assert (doctor.kind, doctor.primary_key) == ("subtype", ("license_number",))
    assert columns(tables, "doctor") == {"license_number": ("text", False),
                                         "staff_code": ("text", False),
                                         "specialty": ("text", False)}
    # Its supertype's key is a column of its own: one doctor row per clinician row.
    assert [u.columns for u in doctor.uniques] == [("staff_code",)]
    assert [(k.columns, k.table, k.references) for k in doctor.foreign_keys] == [
        (("staff_code",), "clinician", ("staff_code",))]
    assert tables.placement("Clinician_is_a_Doctor").columns == (("staff_code",),)
    assert tables.placement("Doctor_has_License_Number").columns == (
        ("license_number",), ("license_number",))
    # A role a Doctor plays refers to the doctor's own key.
    assert [(k.columns, k.table, k.references) for k in tables.table("patient").foreign_keys
            ] == [(("doctor",), "doctor", ("license_number",))]
    assert tables.unstated == ()
    connection = database(tables)
    connection.execute("INSERT INTO clinician VALUES ('s1', 'Dr Who')")
    connection.execute("INSERT INTO doctor VALUES ('L-1', 's1', 'cardiology')")
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
        connection.execute("INSERT INTO doctor VALUES ('L-2', 's1', 'surgery')")
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        connection.execute("INSERT INTO doctor VALUES ('L-3', 's9', 'surgery')")
    # A subtype declared without a scheme stays keyed as its supertype.
    plain = tables_of(OWN_SCHEME.replace("Doctor(.License Number) is an entity type.\n", ""))
    assert plain.table("doctor").primary_key == ("staff_code",)
    assert plain.table("doctor").uniques == ()


def test_a_compound_reference_is_a_key_of_several_columns() -> None:
    tables = tables_of("""\
Site(.Host) is an entity type.
Resource(.Site, .Slug) is an entity type.
Page(.Url) is an entity type.
Page links to Resource.
  Each Page links to at most one Resource.
""")
    assert tables.table("resource").primary_key == ("site", "slug")
    assert tables.placement("Page_links_to_Resource").columns == (
        ("url",), ("resource_site", "resource_slug"))
    (key,) = tables.table("page").foreign_keys
    assert key.references == ("site", "slug")
    (key,) = tables.table("resource").foreign_keys
    assert (key.columns, key.table, key.references) == (("site",), "site", ("host",))
    assert tables.unstated == ()  # the reference scheme's constraints are the primary key


def test_derived_fact_types_are_listed_not_stored() -> None:
    tables = relational_schema(schema_of(arest.load(OWN_READINGS / "orders")))
    assert [d.fact_type for d in tables.derived] == ["Customer_has_Unpaid_Order_Count"]
    assert tables.placement("Customer_has_Unpaid_Order_Count") is None
    assert "unpaid_order_count" not in columns(tables, "customer")


def test_the_metamodel_is_not_the_tenants() -> None:
    tables = relational_schema(schema_of(arest.load(OWN_READINGS / "orders")))
    assert {t.name for t in tables.tables} == {
        "category", "customer", "line_item", "order", "product", "product_is_in_category"}
    # A machine's status is a column of its noun's table, without a metamodel table to refer to.
    assert columns(tables, "order")["status"] == ("text", True)


def test_names_are_snake_case_and_quoted_only_where_a_dialect_needs() -> None:
    assert [snake(n) for n in ("LineItem", "Member Name", "Order_was_placed_by_Customer")] == [
        "line_item", "member_name", "order_was_placed_by_customer"]
    assert [quoted(n, d) for n in ("order", "user", "line_item") for d in DIALECTS] == [
        '"order"', '"order"', "user", '"user"', "line_item", "line_item"]


def test_a_valid_population_loads_and_sqlite_refuses_what_the_tables_state() -> None:
    connection = database(relational_schema(schema_of(arest.load(OWN_READINGS / "orders"))))
    connection.execute("INSERT INTO customer (email, name) VALUES ('ann@x', 'Ann')")
    connection.execute("INSERT INTO \"order\" (order_number, customer, priority, status)"
                       " VALUES ('ord-1', 'ann@x', 'rush', 'Placed')")
    refused = {
        "NOT NULL": "INSERT INTO \"order\" (order_number) VALUES ('ord-2')",
        "CHECK": "INSERT INTO \"order\" (order_number, customer, priority)"
                 " VALUES ('ord-3', 'ann@x', 'whenever')",
        "FOREIGN KEY": "INSERT INTO \"order\" (order_number, customer) VALUES ('ord-4', 'bob@x')",
        "UNIQUE": "INSERT INTO customer (email, name) VALUES ('ann@x', 'Another Ann')",
    }
    for word, statement in refused.items():
        with pytest.raises(sqlite3.IntegrityError, match=word):
            connection.execute(statement)
    assert connection.execute("SELECT customer FROM \"order\"").fetchall() == [("ann@x",)]


def sql(name: str, dialect: str) -> str:
    """What ``arest sql`` prints for an example domain: its tables and views."""
    return with_views(arest.load(OWN_READINGS / name), dialect)


def with_views(D: Any, dialect: str) -> str:
    tables = relational_schema(schema_of(D))
    return ddl(tables, dialect, views_of(D, tables))


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("name", DOMAINS)
def test_golden_ddl(name: str, dialect: str) -> None:
    path = GOLDEN / f"{name}.{dialect}.sql"
    text = sql(name, dialect)
    if os.environ.get("AREST_REGENERATE_GOLDEN") == "1":
        path.write_text(text, "utf-8")
    assert path.read_text("utf-8") == text


@pytest.mark.parametrize("name", DOMAINS)
def test_an_own_domain_runs_in_sqlite_and_schema_says_where_each_fact_is(name: str) -> None:
    D = arest.load(OWN_READINGS / name)
    tables = relational_schema(schema_of(D))
    every_constraint_once(schema_of(D), tables)
    connection = sqlite3.connect(":memory:")
    connection.execute("PRAGMA foreign_keys = ON")
    connection.executescript(with_views(D, "sqlite"))
    for view in views_of(D, tables).views:
        connection.execute(f"SELECT * FROM {quoted(view.name, 'sqlite')}")
    described, _ = arest.apply(D, "schema", {"sql": True})
    assert described["fact_types"]
    for fact_type in described["fact_types"]:
        where: dict[str, Any] | None = fact_type["sql"]
        if where is None:
            assert fact_type.get("derivation_mode") or any(
                r["fact_type"] == fact_type["id"] for r in described["rules"])
            continue
        assert len(where["columns"]) == len(fact_type["roles"])
        names = [name for cell in where["columns"]
                 for name in ([cell] if isinstance(cell, str) else cell)]
        select = ", ".join(quoted(c, "sqlite") for c in names)
        connection.execute(f"SELECT {select} FROM {quoted(where['table'], 'sqlite')}")


@pytest.mark.parametrize("name", TUTOR_FILES)
def test_a_tutor_domain_runs_in_sqlite(name: str, tutor_corpus: Path) -> None:
    D = arest.compile(tutor_text(tutor_corpus, name))
    tables = relational_schema(schema_of(D))
    connection = sqlite3.connect(":memory:")
    connection.executescript(with_views(D, "sqlite"))
    for view in views_of(D, tables).views:
        connection.execute(f"SELECT * FROM {quoted(view.name, 'sqlite')}")
    assert ddl(tables, "postgresql").count("CREATE TABLE") == len(tables.tables)


def tutor_text(tutor_corpus: Path, name: str) -> str:
    return "\n".join(line for line in (tutor_corpus / name).read_text().splitlines()
                     if not SECOND_NAME.fullmatch(line))


@pytest.mark.parametrize("name", DOMAINS)
def test_an_own_domain_runs_in_postgresql(name: str, pg_database: pg.Database) -> None:
    D = arest.load(OWN_READINGS / name)
    tables = relational_schema(schema_of(D))
    pg.run_sql(pg_database, with_views(D, "postgresql"))
    found = pg.query(pg_database, "SELECT count(*) FROM information_schema.tables"
                                  " WHERE table_schema = 'public' AND table_type = 'BASE TABLE'")
    assert int(found[0][0]) == len(tables.tables)
    found = pg.query(pg_database, "SELECT count(*) FROM information_schema.views"
                                  " WHERE table_schema = 'public'")
    assert int(found[0][0]) == len(views_of(D, tables).views)


@pytest.mark.parametrize("name", TUTOR_FILES)
def test_a_tutor_domain_runs_in_postgresql(name: str, tutor_corpus: Path,
                                           pg_database: pg.Database) -> None:
    D = arest.compile(tutor_text(tutor_corpus, name))
    pg.run_sql(pg_database, with_views(D, "postgresql"))


def test_postgresql_refuses_what_the_tables_state(pg_database: pg.Database) -> None:
    pg.run_sql(pg_database, sql("orders", "postgresql"))
    pg.run_sql(pg_database, "INSERT INTO customer (email, name) VALUES ('ann@x', 'Ann');")
    for statement, state in [
            ("INSERT INTO customer (email) VALUES ('bo@x');", "23502"),  # NOT NULL
            ("INSERT INTO \"order\" (order_number, customer, status)"
             " VALUES ('o-1', 'nobody', 'Placed');", "23503")]:  # FOREIGN KEY
        with pytest.raises(pg.SqlRefused) as refused:
            pg.run_sql(pg_database, statement)
        assert refused.value.sqlstate == state


def test_rest_schema_takes_sql() -> None:
    from arest.rest.answer import Request, answer
    from arest.runtime import Tenant
    from arest.system.permissions import AGENT_PRINCIPAL

    with Tenant.open(OWN_READINGS / "orders", db=":memory:") as tenant:
        def get(path: str, *query: tuple[str, str]) -> Any:
            return answer(tenant, Request("GET", path, AGENT_PRINCIPAL, tuple(query)))

        placed = {f["id"]: f.get("sql") for f in get("/schema", ("sql", "true")).body[
            "fact_types"]}
        assert placed["Order_was_placed_by_Customer"] == {
            "table": "order", "columns": ["order_number", "customer"]}
        around = get("/schema/Order", ("sql", "1")).body["fact_types"]
        assert all("sql" in f for f in around)
        assert all("sql" not in f for f in get("/schema").body["fact_types"])
        assert get("/schema", ("sql", "maybe")).status == 400


def test_the_worked_example_shows_the_ddl_arest_prints() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "sql.md").read_text("utf-8")
    assert f"```sql\n{sql('orders', 'sqlite')}```" in page


@settings(max_examples=30)
@given(st.one_of(schemas(), graph_schemas()))
def test_every_generated_schema_maps_and_runs_in_sqlite(readings: str) -> None:
    schema = schema_of(arest.compile(readings))
    tables = relational_schema(schema)
    database(tables)
    ddl(tables, "postgresql")
    derived = {d.fact_type for d in tables.derived}
    for placement in tables.placements:
        table = tables.table(placement.table)
        assert {name for cell in placement.columns for name in cell} <= {
            c.name for c in table.columns}
        assert placement.fact_type not in derived
    deontic = {c.id for c in schema.constraints.values() if c.modality == "deontic"}
    assert not deontic & {check.constraint for t in tables.tables for check in t.checks}
    assert not deontic & {i for t in tables.tables for u in t.uniques for i in u.constraints}
    assert deontic <= {u.id for u in tables.unstated}
    every_constraint_once(schema, tables)


def every_constraint_once(schema: Any, tables: Tables) -> None:
    """The tables state each constraint of the tenant's or list it, never both."""
    listed = [u.id for u in tables.unstated]
    assert len(set(listed)) == len(listed) and not set(listed) & set(tables.stated)
    own = {c.id for c in schema.constraints.values()} - set(
        schema_of(arest.compile("")).constraints)
    assert own == set(listed) | set(tables.stated)


def test_a_table_of_a_fact_type_arest_adds_to_holds_its_asserted_facts() -> None:
    tables = tables_of("""\
Member(.Card Number) is an entity type.
Member has Card.
  Each Member has at most one Card.
Member may borrow.
+ Member may borrow if Member has Card.
Region(.Code) is an entity type.
Region contains Region.
Region contains Region is transitive.
""")
    assert [(d.fact_type, d.mode) for d in tables.completed] == [
        ("Member_may_borrow", "+"), ("Region_contains_Region", "closure")]
    assert tables.placement("Member_may_borrow").table == "member"
    assert "-- Tables that hold the asserted facts only" in ddl(tables, "sqlite")


@pytest.mark.parametrize("first", [
    "", "import arest.compiler.rmap.sql, arest.compiler.rmap.views; "])
def test_every_name_of_the_package_is_what_it_names_whatever_was_imported_before(
        first: str) -> None:
    # The package loads its submodules on first use; a submodule imported before, by name,
    # must not shadow the function or class the package gives under the same name.
    import subprocess
    import sys

    probe = (first + "import arest.compiler.rmap as rmap; import types; "
             "print(sorted(n for n in rmap.__all__ if isinstance(getattr(rmap, n), "
             "types.ModuleType)))")
    completed = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                               check=True)
    assert completed.stdout == "[]\n"
