"""Mirroring (``arest/compiler/rmap/mirror.py``): tables loaded with the export of D₀, then
changed by each command's mirror statements, hold exactly the rows of the export of Dₙ:

    load(export(D₀)) ; mirror(D₀, D₁, δ₁) ; … ; mirror(Dₙ₋₁, Dₙ, δₙ)  =  load(export(Dₙ))

for command sequences on the orders domain, the shop of the mapping tests, and a domain with a
spanning uniqueness, unaries, subtypes, a ring and a compound reference; in SQLite (foreign
keys on), and, for fewer sequences, in PostgreSQL through psql."""

from __future__ import annotations

import functools
import json
import sqlite3
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.algebra import State
from arest.compiler.rmap import Tables, ddl, relational_schema
from arest.compiler.rmap.export import inserts, rows
from arest.compiler.rmap.mirror import (
    Statement,
    dropped_tables,
    mirror_changes,
    mirror_population,
    script,
)
from arest.compiler.rmap.names import quoted
from arest.compiler.schema import schema_of
from arest.runtime.digest import Delta, asserted_delta, recorded
from tests import postgres as pg
from tests.compiler.test_rmap import SHOP
from tests.corpus import OWN_READINGS

Command = tuple[str, dict[str, Any]]

SCHOOL = """\
Person(.Person Id) is an entity type.
Student is a subtype of Person.
Tutor is a subtype of Person.
Course(.Code) is an entity type.
Section(.Course, .Number) is an entity type.
Name is a value type.
Term is a value type.
Number is a value type.
Email is a value type.
Person has Name.
  Each Person has at most one Name.
Person has Email.
  Each Person has at most one Email.
  For each Email, at most one Person has that Email.
Student takes Course in Term.
  Each Student takes each Course in at most one Term.
Student is on probation.
Tutor mentors Student.
  Each Student is mentored by at most one Tutor.
Course has prerequisite Course.
  Each Course has at most one prerequisite Course.
Student attends Section.
  Each Student attends at most one Section.
It is obligatory that each Person has some Name.
"""


@functools.cache
def domain(name: str) -> State:
    if name == "orders":
        return arest.load(OWN_READINGS / "orders")
    return arest.compile(SHOP if name == "shop" else SCHOOL)


SEEDS: dict[str, list[Command]] = {
    "orders": [
        ("create:Customer", {"id": "c1", "Name": "Ann"}),
        ("create:Customer", {"id": "c'2", "Name": "O'Brien", "is a reseller": True}),
        ("create:Order", {"id": "o1", "Customer": "c1", "LineItem": [
            {"id": "li1", "Product": "sku-nails", "Quantity": "1"}]}),
    ],
    "shop": [
        ("create:Customer", {"id": "ann@x"}),
        ("create:Customer", {"id": "bo@x"}),
        ("create:Order", {"id": "o1", "was placed by Customer": "ann@x", "is rush": True}),
    ],
    "school": [
        ("create:Student", {"id": "p1", "Name": "Ann"}),
        ("create:Tutor", {"id": "p2", "Name": "Bo"}),
        ("create:Course", {"id": "c1"}),
        ("create:Course", {"id": "c2", "prerequisite Course": "c1"}),
        ("create:Section", {"Course": "c1", "Number": "1"}),
    ],
}


@functools.cache
def seeded(name: str) -> State:
    """The domain with a few entities, so that random commands find some to change."""
    D = domain(name)
    for key, request in SEEDS[name]:
        out, D = arest.apply(D, key, request)
        assert out.get("rejected") is False, (key, out)
    return D


def _command(key: str, ids: list[str], fields: dict[str, st.SearchStrategy[Any]]
             ) -> st.SearchStrategy[Command]:
    return st.tuples(st.just(key), st.fixed_dictionaries(
        {"id": st.sampled_from(ids)}, optional=fields))


def _fact(fact_type: str, roles: dict[str, list[str]]) -> st.SearchStrategy[Command]:
    return st.tuples(st.sampled_from(["assert", "retract"]), st.fixed_dictionaries({
        "fact_type": st.just(fact_type),
        "bindings": st.fixed_dictionaries({r: st.sampled_from(v) for r, v in roles.items()})}))


def orders_commands() -> st.SearchStrategy[Command]:
    customers, orders, items = ["c1", "c'2"], ["o1", "o2"], ["li1", "li2"]
    products, categories = ["sku-hammer", "sku-nails", "p3"], ["all", "hardware", "x"]
    name, maybe = st.sampled_from(["Ann", "O'Brien"]), st.none()
    return st.one_of(
        _command("create:Customer", customers, {
            "Name": name, "is a reseller": st.just(True)}).map(_named),
        _command("update:Customer", customers, {"Name": name,
                                                "is a reseller": st.just(True) | maybe}),
        _command("delete:Customer", customers, {}),
        _command("create:Order", orders, {
            "Customer": st.sampled_from(customers),
            "Priority": st.sampled_from(["low", "rush"]),
            "LineItem": st.lists(st.fixed_dictionaries({
                "Product": st.sampled_from(products),
                "Quantity": st.sampled_from(["0", "2"])}), max_size=1)}),
        _command("update:Order", orders, {"Priority": st.sampled_from(["normal"]) | maybe,
                                          "Customer": st.sampled_from(customers)}),
        _command("transition:Order", orders, {
            "event": st.sampled_from(["pay", "ship", "cancel"])}),
        _command("delete:Order", orders, {}),
        _command("create:LineItem", items, {
            "Order": st.sampled_from(orders), "Product": st.sampled_from(products),
            "Quantity": st.sampled_from(["0", "1"]), "Amount": st.just("9.90")}),
        _command("update:LineItem", items, {"Amount": st.just("1") | maybe,
                                            "Product": st.sampled_from(products)}),
        _command("delete:LineItem", items, {}),
        _command("create:Product", products, {"Name": name}),
        _command("delete:Product", products, {}),
        _command("delete:Category", categories, {}),
        _fact("Category_has_parent_Category",
              {"Category1": categories, "Category2": categories}),
        _fact("Product_is_in_Category", {"Product": products, "Category": categories}),
    )


def _named(command: Command) -> Command:
    """A Customer's Name is mandatory: a create without one is refused, and says little."""
    key, request = command
    return key, {"Name": "Zoë", **request}


def shop_commands() -> st.SearchStrategy[Command]:
    customers, orders = ["ann@x", "bo@x"], ["o1", "o2", "o3"]
    maybe = st.none()
    return st.one_of(
        _command("create:Customer", customers, {}),
        _command("delete:Customer", customers, {}),
        _command("create:Order", orders, {
            "was placed by Customer": st.sampled_from(customers),
            "Note": st.just("fragile"), "is rush": st.just(True)}).map(
            lambda c: (c[0], {"was placed by Customer": "ann@x", **c[1]})),
        _command("update:Order", orders, {"Note": st.just("late") | maybe,
                                          "is rush": st.just(True) | maybe,
                                          "was placed by Customer": st.sampled_from(customers)}),
        _command("delete:Order", orders, {}),
        _fact("Customer_places_Order", {"Customer": customers, "Order": orders}),
        _fact("Order_is_rush", {"Order": orders}),
    )


def school_commands() -> st.SearchStrategy[Command]:
    people, courses = ["p1", "p2", "p3"], ["c1", "c2", "c3"]
    sections = ["c1-1", "c2-1", "c1-2"]
    name, maybe = st.sampled_from(["Ann", "Bo"]), st.none()
    return st.one_of(
        _command("create:Person", people, {"Name": name}),
        _command("create:Student", people, {"Name": name, "is on probation": st.just(True)}),
        _command("create:Tutor", people, {}),
        _command("update:Person", people, {"Name": name | maybe,
                                           "Email": st.sampled_from(["a@x", "b@x"]) | maybe}),
        _command("update:Student", people, {"is on probation": st.just(True) | maybe,
                                            "Section": st.sampled_from(sections) | maybe}),
        _command("delete:Person", people, {}),
        _command("delete:Student", people, {}),
        _command("create:Course", courses, {"prerequisite Course": st.sampled_from(courses)}),
        _command("update:Course", courses, {
            "prerequisite Course": st.sampled_from(courses) | maybe}),
        _command("delete:Course", courses, {}),
        st.tuples(st.just("create:Section"), st.fixed_dictionaries({
            "Course": st.sampled_from(courses), "Number": st.sampled_from(["1", "2"])})),
        _command("delete:Section", sections, {}),
        _fact("Student_takes_Course_in_Term", {
            "Student": people, "Course": courses, "Term": ["spring", "summer"]}),
        _fact("Tutor_mentors_Student", {"Tutor": people, "Student": people}),
        _fact("Student_is_on_probation", {"Student": people}),
    )


COMMANDS = {"orders": orders_commands, "shop": shop_commands, "school": school_commands}


def changed_cells(before: State, after: State) -> list[str]:
    """The cells whose contents differ (as the runtime finds them without a footprint)."""
    names = [name for name, contents in after.items() if before.get(name) is not contents]
    return [*names, *(name for name in before if name not in after)]


def run(D: State, commands: list[Command]) -> tuple[State, list[tuple[State, State, Delta]]]:
    """Dₙ, and per command D, D′ and the asserted facts it added and removed."""
    steps = []
    for key, request in commands:
        _, after = arest.apply(D, key, request)
        steps.append((D, after, asserted_delta(D, after, changed_cells(D, after))))
        D = after
    return D, steps


def sqlite_tables(tables: Tables, script_text: str) -> sqlite3.Connection:
    connection = sqlite3.connect(":memory:")
    connection.execute("PRAGMA foreign_keys = ON")
    connection.executescript(ddl(tables, "sqlite") + script_text)
    return connection


def contents(connection: sqlite3.Connection, tables: Tables) -> dict[str, list[Any]]:
    return {t.name: sorted(connection.execute(f"SELECT * FROM {quoted(t.name, 'sqlite')}"),
                           key=repr) for t in tables.tables}


def execute(connection: sqlite3.Connection, statements: list[Statement]) -> None:
    for statement in statements:
        connection.execute(statement.sql, statement.parameters)


def mirrored_in_sqlite(D0: State, commands: list[Command]) -> None:
    tables = relational_schema(schema_of(D0))
    mirror = sqlite_tables(tables, inserts(tables, rows(D0, tables), "sqlite"))
    Dn, steps = run(D0, commands)
    for before, after, delta in steps:
        execute(mirror, mirror_changes(tables, before, after, delta.added, delta.removed,
                                       "sqlite"))
    assert relational_schema(schema_of(Dn)) == tables
    assert mirror.execute("PRAGMA foreign_key_check").fetchall() == []
    expected = sqlite_tables(tables, inserts(tables, rows(Dn, tables), "sqlite"))
    assert contents(mirror, tables) == contents(expected, tables)


@settings(max_examples=90)
@given(st.sampled_from(sorted(COMMANDS)).flatmap(
    lambda name: st.tuples(st.just(name), st.lists(COMMANDS[name](), max_size=8))))
def test_mirroring_each_command_gives_the_export_of_the_last_state(
        case: tuple[str, list[Command]]) -> None:
    name, commands = case
    mirrored_in_sqlite(seeded(name), commands)


SEQUENCES: dict[str, list[Command]] = {
    "orders": [
        ("create:Customer", {"id": "o'brien", "Name": "O'Brien", "is a reseller": True}),
        ("create:Order", {"id": "o1", "Customer": "o'brien", "Priority": "rush",
                          "LineItem": [{"Product": "sku-nails", "Quantity": "0"}]}),
        ("assert", {"fact_type": "Category_has_parent_Category",
                    "bindings": {"Category1": "all", "Category2": "x"}}),
        ("update:Customer", {"id": "o'brien", "is a reseller": None}),
        ("update:Order", {"id": "o1", "Priority": None}),
        ("transition:Order", {"id": "o1", "event": "pay"}),
        ("create:Customer", {"id": "ann", "Name": "Ann"}),
        ("update:Order", {"id": "o1", "Customer": "ann"}),
        ("delete:Customer", {"id": "o'brien"}),
        ("retract", {"fact_type": "Product_is_in_Category",
                     "bindings": {"Product": "sku-nails", "Category": "hardware"}}),
        ("delete:Category", {"id": "hardware"}),
    ],
    "shop": [
        ("create:Order", {"id": "o1", "was placed by Customer": "ann@x", "Note": "it's",
                          "is rush": True}),
        ("assert", {"fact_type": "Customer_places_Order",
                    "bindings": {"Customer": "bo@x", "Order": "o1"}}),
        ("update:Order", {"id": "o1", "Note": None, "is rush": None}),
        ("retract", {"fact_type": "Customer_places_Order",
                     "bindings": {"Customer": "bo@x", "Order": "o1"}}),
        ("delete:Order", {"id": "o1"}),
    ],
    "school": [
        ("create:Student", {"id": "p1", "Name": "Ann", "is on probation": True,
                            "Email": "a@x"}),
        ("create:Course", {"id": "c1", "prerequisite Course": "c2"}),
        ("assert", {"fact_type": "Student_takes_Course_in_Term",
                    "bindings": {"Student": "p1", "Course": "c1", "Term": "summer"}}),
        ("create:Tutor", {"id": "p2"}),
        ("assert", {"fact_type": "Tutor_mentors_Student",
                    "bindings": {"Tutor": "p2", "Student": "p1"}}),
        ("create:Section", {"Course": "c1", "Number": "1"}),
        ("update:Student", {"id": "p1", "Section": "c1-1"}),
        ("retract", {"fact_type": "Student_takes_Course_in_Term",
                     "bindings": {"Student": "p1", "Course": "c1", "Term": "summer"}}),
        ("update:Person", {"id": "p1", "Email": None}),
        ("update:Person", {"id": "p2", "Email": "a@x"}),
        ("delete:Person", {"id": "p2"}),
        ("update:Course", {"id": "c1", "prerequisite Course": "c1"}),
    ],
}


@pytest.mark.parametrize("name", sorted(SEQUENCES))
def test_a_worked_sequence_mirrors_in_sqlite_and_changes_every_kind_of_table(name: str
                                                                             ) -> None:
    mirrored_in_sqlite(domain(name), SEQUENCES[name])
    _, steps = run(domain(name), SEQUENCES[name])
    assert all(delta for _, _, delta in steps), "each command of the sequence changes D"


def test_a_deontic_violation_is_mirrored() -> None:
    D0 = domain("school")
    out, D1 = arest.apply(D0, "create:Student", {"id": "p1", "Name": "Ann"})
    out, D2 = arest.apply(D1, "update:Person", {"id": "p1", "Name": None})
    assert (out["rejected"], [v["modality"] for v in out["violations"]]) == (
        False, ["deontic"])
    tables = relational_schema(schema_of(D0))
    mirror = sqlite_tables(tables, script(mirror_population(tables, D1, "sqlite")))
    delta = asserted_delta(D1, D2, changed_cells(D1, D2))
    execute(mirror, mirror_changes(tables, D1, D2, delta.added, delta.removed, "sqlite"))
    assert mirror.execute("SELECT person_id, name FROM person").fetchall() == [("p1", None)]
    assert mirror.execute("SELECT person_id FROM student").fetchall() == [("p1",)]


def test_mirroring_a_population_loads_what_the_export_loads() -> None:
    Dn, _ = run(domain("orders"), SEQUENCES["orders"][:6])
    tables = relational_schema(schema_of(Dn))
    statements = mirror_population(tables, Dn, "sqlite")
    mirror = sqlite_tables(tables, "")
    execute(mirror, statements)
    expected = sqlite_tables(tables, inserts(tables, rows(Dn, tables), "sqlite"))
    assert contents(mirror, tables) == contents(expected, tables)
    assert any(s.sql.startswith("UPDATE category SET parent_category") for s in statements)


def test_a_schema_change_drops_and_rewrites_the_tables() -> None:
    Dn, _ = run(domain("orders"), SEQUENCES["orders"][:3])
    tables = relational_schema(schema_of(Dn))
    db = sqlite_tables(tables, inserts(tables, rows(Dn, tables), "sqlite"))
    db.executescript(script(dropped_tables(tables, "sqlite")))
    assert db.execute("SELECT name FROM sqlite_master").fetchall() == []
    db.executescript(ddl(tables, "sqlite") + script(mirror_population(tables, Dn, "sqlite")))
    expected = sqlite_tables(tables, inserts(tables, rows(Dn, tables), "sqlite"))
    assert contents(db, tables) == contents(expected, tables)


def test_an_unknown_dialect_is_refused_with_the_dialects() -> None:
    with pytest.raises(ValueError, match="expected one of sqlite, postgresql"):
        mirror_population(relational_schema(schema_of(domain("shop"))), domain("shop"),
                          "mysql")


def pg_rows(database: pg.Database, tables: Tables, schemas: tuple[str, ...]
            ) -> dict[str, list[tuple[str, ...]]]:
    """Each schema's rows, as JSON, per table: one psql call."""
    selects = [f"SELECT '{schema}.{t.name}', row_to_json(r)::text FROM"
               f" {schema}.{quoted(t.name, 'postgresql')} r"
               for schema in schemas for t in tables.tables]
    found: dict[str, list[tuple[str, ...]]] = {schema: [] for schema in schemas}
    for table, row in pg.query(database, " UNION ALL ".join(selects)):
        found[table.split(".")[0]].append((table.split(".", 1)[1], row))
    return {schema: sorted(found[schema]) for schema in schemas}


@pytest.mark.parametrize("name", sorted(SEQUENCES))
def test_mirroring_in_postgresql_gives_the_export_of_the_last_state(
        name: str, pg_database: pg.Database) -> None:
    D0 = domain(name)
    tables = relational_schema(schema_of(D0))
    Dn, steps = run(D0, SEQUENCES[name])
    changes = [s for before, after, delta in steps for s in mirror_changes(
        tables, before, after, delta.added, delta.removed, "postgresql")]
    assert any("%s" in s.sql for s in changes)
    text = ddl(tables, "postgresql")
    pg.run_sql(pg_database, f"""
CREATE SCHEMA mirrored; SET search_path TO mirrored;
{text}{script(mirror_population(tables, D0, "postgresql"))}
{script(changes)}
CREATE SCHEMA exported; SET search_path TO exported;
{text}{inserts(tables, rows(Dn, tables), "postgresql")}""")
    found = pg_rows(pg_database, tables, ("mirrored", "exported"))
    assert found["mirrored"] == found["exported"]
    assert found["exported"], "the last state has rows"


@settings(max_examples=4)
@given(commands=st.lists(school_commands(), min_size=3, max_size=8))
def test_mirroring_random_commands_in_postgresql(commands: list[Command],
                                                 postgres: pg.Database) -> None:
    database = postgres
    D0 = seeded("school")
    tables = relational_schema(schema_of(D0))
    Dn, steps = run(D0, commands)
    changes = [s for before, after, delta in steps for s in mirror_changes(
        tables, before, after, delta.added, delta.removed, "postgresql")]
    text = ddl(tables, "postgresql")
    pg.run_sql(database, f"""
DROP SCHEMA IF EXISTS mirrored CASCADE; DROP SCHEMA IF EXISTS exported CASCADE;
CREATE SCHEMA mirrored; SET search_path TO mirrored;
{text}{inserts(tables, rows(D0, tables), "postgresql")}{script(changes)}
CREATE SCHEMA exported; SET search_path TO exported;
{text}{inserts(tables, rows(Dn, tables), "postgresql")}""")
    found = pg_rows(database, tables, ("mirrored", "exported"))
    assert found["mirrored"] == found["exported"]


def test_a_journal_entrys_facts_mirror_as_the_delta_does() -> None:
    D0 = domain("orders")
    _, steps = run(D0, SEQUENCES["orders"][:3])
    tables = relational_schema(schema_of(D0))
    for before, after, delta in steps:
        assert delta.added
        journaled = json.loads(recorded(0, delta)[1])
        assert mirror_changes(tables, before, after, journaled.get("+", []),
                              journaled.get("-", []), "postgresql") == mirror_changes(
            tables, before, after, delta.added, delta.removed, "postgresql")


def mirrored_between(before: State, after: State) -> None:
    """The law for any two populations of one schema, not only a command's."""
    tables = relational_schema(schema_of(before))
    mirror = sqlite_tables(tables, inserts(tables, rows(before, tables), "sqlite"))
    cells = {*before.keys(), *after.keys()}
    delta = asserted_delta(before, after, sorted(cells))
    execute(mirror, mirror_changes(tables, before, after, delta.added, delta.removed, "sqlite"))
    expected = sqlite_tables(tables, inserts(tables, rows(after, tables), "sqlite"))
    assert contents(mirror, tables) == contents(expected, tables)


def test_two_rows_swapping_a_unique_columns_values_in_one_change() -> None:
    emails = "Person 'p1' has Email '{}'.\nPerson 'p2' has Email '{}'.\n"
    mirrored_between(arest.compile(SCHOOL + emails.format("a@x", "b@x")),
                     arest.compile(SCHOOL + emails.format("b@x", "a@x")))


def test_a_ring_of_rows_going_at_once() -> None:
    ring = "Course 'c1' has prerequisite Course 'c2'.\nCourse 'c2' has prerequisite Course 'c1'.\n"
    mirrored_between(arest.compile(SCHOOL + ring), arest.compile(SCHOOL))
    mirrored_between(arest.compile(SCHOOL), arest.compile(SCHOOL + ring))


def school_facts() -> st.SearchStrategy[list[dict[str, Any]]]:
    """A population of the school's fact types that keeps its uniquenesses (as fact items of
    ``assert``)."""
    people, courses = ["p1", "p2", "p3"], ["c1", "c2"]

    def functional(fact_type: str, keys: list[str], key: str, role: str,
                   values: list[str]) -> st.SearchStrategy[list[dict[str, Any]]]:
        return st.dictionaries(st.sampled_from(keys), st.sampled_from(values)).map(
            lambda found: [{"fact_type": fact_type, "bindings": {key: k, role: v}}
                           for k, v in sorted(found.items())])

    emails = st.permutations(["a@x", "b@x", "c@x"]).flatmap(lambda order: st.lists(
        st.sampled_from(people), unique=True).map(lambda holders: [
            {"fact_type": "Person_has_Email", "bindings": {"Person": p, "Email": order[i]}}
            for i, p in enumerate(holders)]))
    takes = st.dictionaries(st.tuples(st.sampled_from(people), st.sampled_from(courses)),
                            st.sampled_from(["spring", "summer"])).map(lambda found: [
        {"fact_type": "Student_takes_Course_in_Term",
         "bindings": {"Student": s, "Course": c, "Term": t}} for (s, c), t in found.items()])
    probation = st.lists(st.sampled_from(people), unique=True).map(lambda found: [
        {"fact_type": "Student_is_on_probation", "bindings": {"Student": s}} for s in found])
    parts = [functional("Person_has_Name", people, "Person", "Name", ["Ann", "Bo"]),
             functional("Tutor_mentors_Student", people, "Student", "Tutor", people),
             functional("Course_has_prerequisite_Course", courses, "Course1", "Course2",
                        courses),
             emails, takes, probation]
    return st.tuples(*parts).map(lambda found: [fact for part in found for fact in part])


def populated(D: State, verb: str, facts: list[dict[str, Any]]) -> State:
    if not facts:
        return D
    out, D = arest.apply(D, verb, {"facts": facts})
    assert out["rejected"] is False, out
    return D


@settings(max_examples=60)
@given(st.tuples(school_facts(), school_facts()))
def test_mirroring_any_change_between_two_populations(
        pair: tuple[list[dict[str, Any]], list[dict[str, Any]]]) -> None:
    first, second = pair
    before = populated(domain("school"), "assert", first)
    gone = [fact for fact in first if fact not in second]
    after = populated(populated(before, "retract", gone), "assert",
                      [fact for fact in second if fact not in first])
    mirrored_between(before, after)
