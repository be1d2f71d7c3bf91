"""The engine and SQL agree, both ways (DESIGN §10).

Generated schemas state every constraint kind SQL can state: internal uniqueness (one role,
and spanning an n-ary), mandatory roles, value constraints (an enumeration of words, one of
numerals, a comparison with a number), irreflexive rings (absorbed and in a table of their
own, over simple and compound keys), an external uniqueness within one table, a one-to-one,
a subtype, roles played by entities (foreign keys, NOT NULL ones in a cycle too).  Generated
populations hold valid and invalid facts: a second value where at most one is allowed, a
missing mandatory fact, a value outside its constraint, a self-loop on an irreflexive ring, a
compound key's missing component; generated rows also hold dangling references (a fact
brings its entities into arest, so only rows can).

1. arest's export of a population loads into SQLite running the generated DDL (foreign keys
   on, and ``PRAGMA foreign_key_check`` clean) exactly when arest finds no alethic violation
   of a constraint the tables state.
2. Rows SQLite accepts under the DDL (generated straight into the tables), read back as facts
   through the placements, break no constraint the tables state.

A disagreement's message names the constraint, the SQL error and the rows or facts.
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.algebra import State
from arest.compiler.change import Change
from arest.compiler.population import membership_fact_type
from arest.compiler.rmap import Tables, ddl, relational_schema
from arest.compiler.rmap.export import Row, inserts, rows
from arest.compiler.rmap.model import BOOLEAN
from arest.compiler.rmap.names import quoted
from arest.compiler.schema import schema_of
from arest.system.validate import all_violations
from arest.testing import bulk_load

BASE = """\
Person(.id) is an entity type.
Team(.Team Code) is an entity type.
Name is a value type.
Level is a value type.
Score is a value type.
Points is a value type.
Rank is a value type.
Row Code is a value type.
Seat Number is a value type.
"""

# The values each noun's roles and columns draw from: valid ones, and ones some constraint
# refuses (``bogus``, ``150``, ``2.0`` where only ``2`` is allowed, ``1e1`` and ``abc`` that
# are not numerals, though SQLite would read ``1e1`` as a number).
POOLS: dict[str, tuple[str, ...]] = {
    "Person": ("p1", "p2", "p3"),
    "Captain": ("p1", "p2"),
    "Team": ("t1", "t2"),
    "Team Code": ("t1", "t2"),
    "Name": ("n1", "n2"),
    "Level": ("low", "high", "bogus"),
    "Score": ("5", "-3", "99.5", "150", "2.0", "1e1", "abc"),
    "Points": ("1", "2", "2.0", "7", "x"),
    "Rank": ("r1", "r2"),
    # A seat's id is its components joined by '-', as arest makes it.
    "Seat": ("r1-1", "r1-2", "r2-1"),
    "Row Code": ("r1", "r2"),
    "Seat Number": ("1", "2"),
}
COMPONENTS = {"row_code": "Row Code", "seat_number": "Seat Number"}
"""A compound key's column (a seat's, or a column referring to one) by its last words."""


@dataclass(frozen=True)
class Case:
    """Readings, and the fact types they declare with each role's noun."""

    readings: str
    fact_types: dict[str, tuple[str, ...]]


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """A schema made of a random choice of blocks, each block some fact types and the
    constraints on them that SQL can state."""
    text = [BASE]
    fact_types: dict[str, tuple[str, ...]] = {}

    def some(sentences: str, **declared: tuple[str, ...]) -> None:
        text.append(sentences)
        fact_types.update(declared)

    bound = st.sampled_from(["at most one", "exactly one"])
    if draw(st.booleans()):
        some(f"Person has Name.\n  Each Person has {draw(bound)} Name.\n",
             Person_has_Name=("Person", "Name"))
    if draw(st.booleans()):
        some("Person has Level.\n  Each Person has at most one Level.\n",
             Person_has_Level=("Person", "Level"))
        if draw(st.booleans()):
            some("The possible values of Level are 'low', 'high'.\n")
    if draw(st.booleans()):
        compared = draw(st.sampled_from(["less than 100", "at least 0", "greater than -5"]))
        some(f"Person has Score.\n  Each Person has at most one Score.\n"
             f"  Each Person has Score {compared}.\n", Person_has_Score=("Person", "Score"))
    if draw(st.booleans()):
        some("Person has Points.\n  Each Person has at most one Points.\n"
             "The possible values of Points are 1, 2, 3.\n",
             Person_has_Points=("Person", "Points"))
    if draw(st.booleans()):
        some(f"Person plays for Team.\n  Each Person plays for {draw(bound)} Team.\n",
             Person_plays_for_Team=("Person", "Team"))
        if "Person_has_Name" in fact_types and draw(st.booleans()):
            some("For each Team and Name, at most one Person plays for that Team and has"
                 " that Name.\n")
    if draw(st.booleans()):
        some("Person mentors Person.\n", Person_mentors_Person=("Person", "Person"))
        if draw(st.booleans()):
            some(f"  Each Person mentors {draw(bound)} Person.\n")
        if draw(st.booleans()):
            some("Person mentors Person is irreflexive.\n")
    if draw(st.booleans()):
        some(f"Team is led by Person.\n  Each Team is led by {draw(bound)} Person.\n",
             Team_is_led_by_Person=("Team", "Person"))
        if draw(st.booleans()):
            some("  For each Person, at most one Team is led by that Person.\n")
    if draw(st.booleans()):
        some("Person likes Team.\n", Person_likes_Team=("Person", "Team"))
    if draw(st.booleans()):
        some("Person rates Team with Score.\n"
             "  Each Person rates each Team with at most one Score.\n",
             Person_rates_Team_with_Score=("Person", "Team", "Score"))
    if draw(st.booleans()):
        some("Person is active.\n", Person_is_active=("Person",))
    if draw(st.booleans()):
        some("Seat(.Row Code, .Seat Number) is an entity type.\nSeat is next to Seat.\n",
             Seat_is_next_to_Seat=("Seat", "Seat"), Seat_has_Row_Code=("Seat", "Row Code"),
             Seat_has_Seat_Number=("Seat", "Seat Number"))
        if draw(st.booleans()):
            some(f"  Each Seat is next to {draw(bound)} Seat.\n")
        some("Seat is next to Seat is irreflexive.\n")
    if draw(st.booleans()):
        some(f"Captain is a subtype of Person.\nCaptain has Rank.\n"
             f"  Each Captain has {draw(bound)} Rank.\n",
             Captain_has_Rank=("Captain", "Rank"),
             **{membership_fact_type("Captain", "Person"): ("Person",)})
    return Case("".join(text), fact_types)


def populations(case: Case) -> st.SearchStrategy[list[tuple[str, tuple[str, ...]]]]:
    """Facts of the case's fact types, any values of their roles' pools."""
    facts = [st.tuples(st.just(fact_type), st.tuples(*(st.sampled_from(POOLS[n]) for n in nouns)))
             for fact_type, nouns in sorted(case.fact_types.items())]
    return st.lists(st.one_of(facts), max_size=8) if facts else st.just([])


def stated_violations(D: State, tables: Tables) -> list[dict[str, Any]]:
    """arest's alethic violations of the constraints the tables state."""
    stated = set(tables.stated)
    return [v for v in all_violations(D)
            if v["modality"] == "alethic" and v["constraint_id"] in stated]


def connect(tables: Tables) -> sqlite3.Connection:
    connection = sqlite3.connect(":memory:", isolation_level=None)
    connection.execute("PRAGMA foreign_keys = ON")
    connection.executescript(ddl(tables, "sqlite"))
    return connection


def load_error(tables: Tables, table_rows: dict[str, list[Row]]) -> str | None:
    """Why SQLite refuses the export of the rows (the statement and its error); None when it
    loads and every foreign key holds."""
    connection = connect(tables)
    for statement in inserts(tables, table_rows, "sqlite").splitlines():
        try:
            connection.execute(statement)
        except sqlite3.Error as error:
            return f"{error}\n    at: {statement}"
    dangling = connection.execute("PRAGMA foreign_key_check").fetchall()
    return f"foreign keys that do not hold: {dangling}" if dangling else None


def suspects(tables: Tables, error: str) -> list[str]:
    """The constraints whose table and columns the SQL error names: so a disagreement's
    message says which reading SQLite applied."""
    found: list[str] = []
    for table in tables.tables:
        if f"{table.name}." not in error and f"INTO {quoted(table.name, 'sqlite')} " not in error:
            continue
        for check in table.checks:
            found.append(f"{check.constraint} (CHECK): {check.reading}")
        for unique in table.uniques:
            found.append(f"{', '.join(unique.constraints)} (UNIQUE {unique.columns})")
        found.extend(f"NOT NULL {table.name}.{c.name}" for c in table.columns
                     if not c.nullable and f"{table.name}.{c.name}" in error)
        if "FOREIGN KEY" in error:
            found.extend(f"FOREIGN KEY {table.name} {key.columns} -> {key.table}"
                         for key in table.foreign_keys)
    return found


def described(violations: list[dict[str, Any]]) -> str:
    return "\n".join(f"  {v['constraint_id']} ({v['kind']}): {v['reading']}"
                     f" at {v['detail']['key']}" for v in violations) or "  none"


def test_the_cases_draw_on_every_kind_sql_states() -> None:
    schema = schema_of(arest.compile(FULL))
    tables = relational_schema(schema)
    assert {c.kind for c in schema.constraints.values() if c.id in tables.stated} == {
        "UC", "MC", "VC", "IR"}
    assert [u.reading for u in tables.unstated if u.modality == "alethic"] == []


FULL = BASE + """\
Person has Name.
  Each Person has exactly one Name.
Person plays for Team.
  Each Person plays for at most one Team.
For each Team and Name, at most one Person plays for that Team and has that Name.
Person has Score.
  Each Person has at most one Score.
  Each Person has Score less than 100.
Person mentors Person.
  Each Person mentors at most one Person.
Person mentors Person is irreflexive.
Seat(.Row Code, .Seat Number) is an entity type.
Seat is next to Seat.
Seat is next to Seat is irreflexive.
"""


def check_export_loads_exactly_when_arest_accepts(case: Case,
                                                  facts: list[tuple[str, tuple[str, ...]]]
                                                  ) -> bool:
    """Asserts that the export loads exactly when arest accepts; whether it accepts."""
    D = bulk_load(arest.compile(case.readings), facts)
    tables = relational_schema(schema_of(D))
    assert not [u for u in tables.unstated if u.modality == "alethic"], (
        "a generated constraint the tables do not state:\n"
        + "\n".join(f"  {u.id} ({u.kind}, {u.why}): {u.reading}" for u in tables.unstated))
    found = stated_violations(D, tables)
    table_rows = rows(D, tables)
    error = load_error(tables, table_rows)
    if found and error is None:
        pytest.fail("arest finds violations that SQLite loads without complaint:\n"
                    f"{described(found)}\nrows: {table_rows}\nreadings:\n{case.readings}")
    if error is not None and not found:
        pytest.fail(f"SQLite refuses what arest accepts:\n  {error}\nwhich states:\n  "
                    + "\n  ".join(suspects(tables, error) or ["(no constraint found)"])
                    + f"\nfacts: {facts}\nreadings:\n{case.readings}")
    return not found


def check_rows_sqlite_accepts_are_facts_arest_accepts(case: Case, data: st.DataObject) -> None:
    D = arest.compile(case.readings)
    tables = relational_schema(schema_of(D))
    connection = connect(tables)
    connection.execute("PRAGMA foreign_keys = OFF")
    for table in tables.tables:
        names = ", ".join(quoted(c.name, "sqlite") for c in table.columns)
        marks = ", ".join("?" for _ in table.columns)
        cell = {c.name: (st.sampled_from([0, 1]) if c.type == BOOLEAN
                         else st.sampled_from(pool(c.name, c.noun)) if not c.nullable
                         else st.none() | st.sampled_from(pool(c.name, c.noun)))
                for c in table.columns}
        for row in data.draw(st.lists(st.fixed_dictionaries(cell), max_size=4),
                             label=table.name):
            # A row SQLite refuses is not part of what it accepts.
            with contextlib.suppress(sqlite3.IntegrityError):
                connection.execute(f"INSERT INTO {quoted(table.name, 'sqlite')} ({names})"
                                   f" VALUES ({marks})", [row[c.name] for c in table.columns])
    # Rows whose foreign keys dangle go, until every foreign key holds.
    while dangling := connection.execute("PRAGMA foreign_key_check").fetchall():
        for table_name, rowid, _, _ in dangling:
            connection.execute(f"DELETE FROM {quoted(table_name, 'sqlite')} WHERE rowid = ?",
                               (rowid,))
    connection.execute("PRAGMA foreign_keys = ON")
    facts = read_back(connection, tables)
    change = Change(D)
    for noun, entity in facts.entities:
        change.touch(noun, entity)
    for fact_type, fact in facts.facts:
        change.add(fact_type, fact)
    found = stated_violations(change.state, tables)
    assert not found, ("SQLite accepts rows that arest refuses:\n" + described(found)
                       + f"\nfacts: {facts.facts}\nreadings:\n{case.readings}")


def pool(column: str, noun: str) -> tuple[str, ...]:
    """The values a column draws from: its noun's, or a compound key component's."""
    component = next((n for name, n in COMPONENTS.items() if column.endswith(name)), None)
    return POOLS[component] if component and noun in ("Seat", component) else POOLS[noun]


@dataclass(frozen=True)
class ReadBack:
    entities: list[tuple[str, str]]
    facts: list[tuple[str, tuple[str, ...]]]


def read_back(connection: sqlite3.Connection, tables: Tables) -> ReadBack:
    """The entities (a row of an entity or subtype table) and facts (through each fact type's
    placement) the database holds; an entity of a compound key is its components joined by
    '-', the id arest gives it."""
    entities: list[tuple[str, str]] = []
    for table in tables.tables:
        if table.kind != "fact type":
            keys = ", ".join(quoted(key, "sqlite") for key in table.primary_key)
            entities.extend((table.source, "-".join(map(str, found))) for found in
                            connection.execute(
                                f"SELECT {keys} FROM {quoted(table.name, 'sqlite')}"))
    facts: list[tuple[str, tuple[str, ...]]] = []
    for placement in tables.placements:
        cells = [cell for cell in placement.columns]
        if len(cells) == 2 and cells[0] == cells[1]:
            continue  # a reference scheme's value: the row's key, not a fact
        names = [name for cell in cells for name in cell]
        select = ", ".join(quoted(n, "sqlite") for n in names)
        where = " AND ".join(f"{quoted(n, 'sqlite')} IS NOT NULL" for n in names)
        if placement.flag:
            where += f" AND {quoted(placement.flag, 'sqlite')}"
        for found in connection.execute(
                f"SELECT {select} FROM {quoted(placement.table, 'sqlite')} WHERE {where}"):
            values = iter(found)
            facts.append((placement.fact_type, tuple(
                "-".join(str(next(values)) for _ in cell) for cell in cells)))
    return ReadBack(entities, facts)


@settings(max_examples=25)
@given(st.data())
def test_an_export_loads_into_sqlite_exactly_when_arest_accepts(data: st.DataObject) -> None:
    case = data.draw(cases(), label="readings")
    check_export_loads_exactly_when_arest_accepts(
        case, data.draw(populations(case), label="facts"))


@settings(max_examples=25)
@given(cases(), st.data())
def test_rows_sqlite_accepts_are_facts_arest_accepts(case: Case, data: st.DataObject) -> None:
    check_rows_sqlite_accepts_are_facts_arest_accepts(case, data)


@pytest.mark.slow
@settings(max_examples=300)
@given(st.data())
def test_an_export_loads_exactly_when_arest_accepts_at_length(data: st.DataObject) -> None:
    case = data.draw(cases(), label="readings")
    check_export_loads_exactly_when_arest_accepts(
        case, data.draw(populations(case), label="facts"))


@pytest.mark.slow
@settings(max_examples=300)
@given(cases(), st.data())
def test_rows_sqlite_accepts_are_facts_arest_accepts_at_length(case: Case,
                                                              data: st.DataObject) -> None:
    check_rows_sqlite_accepts_are_facts_arest_accepts(case, data)


POINTS = Case(BASE + "Person has Points.\n  Each Person has at most one Points.\n"
                     "The possible values of Points are 1, 2, 3.\n",
              {"Person_has_Points": ("Person", "Points")})
SCORE = Case(BASE + "Person has Score.\n  Each Person has at most one Score.\n"
                    "  Each Person has Score less than 100.\n",
             {"Person_has_Score": ("Person", "Score")})
LEADER = Case(BASE + "Person plays for Team.\n  Each Person plays for at most one Team.\n"
                     "Team is led by Person.\n  Each Team is led by exactly one Person.\n",
              {"Person_plays_for_Team": ("Person", "Team"),
               "Team_is_led_by_Person": ("Team", "Person")})
CAPTAIN = Case(BASE + "Captain is a subtype of Person.\nCaptain has Rank.\n"
                      "  Each Captain has exactly one Rank.\n",
               {"Captain_has_Rank": ("Captain", "Rank"), "Person_is_a_Captain": ("Person",)})


@pytest.mark.parametrize(("case", "facts", "accepted"), [
    # arest's atoms are text: 2.0 is not among 1, 2, 3 (a NUMERIC column made it 2).
    (POINTS, [("Person_has_Points", ("p1", "2.0"))], False),
    # Not a numeral, though SQLite reads it as 10 in a NUMERIC column.
    (SCORE, [("Person_has_Score", ("p1", "1e1"))], False),
    # Two values where the row has room for one (the export kept the last).
    (POINTS, [("Person_has_Points", ("p1", "1")), ("Person_has_Points", ("p1", "2"))], False),
    # A membership fact makes a Captain, whose Rank is mandatory.
    (CAPTAIN, [("Person_is_a_Captain", ("p1",))], False),
    # A NOT NULL key goes first, a nullable one back is set later (team was inserted first).
    (LEADER, [("Person_plays_for_Team", ("p1", "t1")), ("Team_is_led_by_Person", ("t1", "p1"))],
     True),
    (SCORE, [("Person_has_Score", ("p1", "-3")), ("Person_has_Score", ("p2", "99.5"))], True),
], ids=["2.0 is not 2", "1e1 is not a numeral", "a second value", "a membership",
        "an order of tables", "valid"])
def test_disagreements_found_before_agree_no_more(case: Case,
                                                  facts: list[tuple[str, tuple[str, ...]]],
                                                  accepted: bool) -> None:
    assert check_export_loads_exactly_when_arest_accepts(case, facts) is accepted
