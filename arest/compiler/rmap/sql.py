"""The relational schema written as SQL DDL for SQLite or PostgreSQL.

Both dialects get the same tables, keys, UNIQUEs and CHECKs.  SQLite declares its foreign
keys inside each table (it checks them only on rows, so the order of tables is free);
PostgreSQL checks that a referenced table exists, so its foreign keys are added once every
table is created, which also allows tables that refer to each other.  Values are ``TEXT``
(arest's atoms are text: ``2`` and ``2.0`` are two values), unaries ``BOOLEAN NOT NULL
DEFAULT FALSE``.  A comparison's CHECK asks that the text be a numeral (``-12``, ``3.50``)
and compares its number, as arest's comparison does.  The views of the derived fact types
(:mod:`~arest.compiler.rmap.views`) follow the tables.
"""

from __future__ import annotations

from arest.compiler.rmap.dialects import DIALECTS
from arest.compiler.rmap.model import BOOLEAN, TEXT, Check, Column, ForeignKey, Table, Tables
from arest.compiler.rmap.names import quoted
from arest.compiler.rmap.numerals import compared
from arest.compiler.rmap.views import Views, create_view

__all__ = ["DIALECTS", "ddl", "literal"]
_TYPES = {TEXT: "TEXT", BOOLEAN: "BOOLEAN"}
_TITLES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


def literal(value: str, numeric: bool = False) -> str:
    """A value as an SQL literal: a numeral bare where it is compared as a number, else a
    quoted string.

    >>> literal("it's"), literal("13", numeric=True), literal("13")
    ("'it''s'", '13', "'13'")
    """
    return value if numeric else "'" + value.replace("'", "''") + "'"


def ddl(tables: Tables, dialect: str, views: Views | None = None) -> str:
    """The DDL that creates the tables in the dialect (``sqlite`` or ``postgresql``), then
    the views of the derived fact types (:func:`~arest.compiler.rmap.views.views_of`), with
    comments listing what they leave to arest.

    >>> import arest
    >>> from arest.compiler.rmap import relational_schema
    >>> from arest.compiler.schema import schema_of
    >>> text = ddl(relational_schema(schema_of(arest.compile(ORDERS))), "postgresql")
    >>> print(text[text.index('CREATE TABLE "order"'):].strip())
    CREATE TABLE "order" (
        id TEXT NOT NULL,
        customer TEXT,
        PRIMARY KEY (id)
    );
    <BLANKLINE>
    ALTER TABLE "order" ADD FOREIGN KEY (customer) REFERENCES customer (id);
    """
    if dialect not in DIALECTS:
        raise ValueError(f"no SQL dialect {dialect!r}: expected one of {', '.join(DIALECTS)}")
    lines = [
        f"-- The relational schema of these readings (Halpin's Rmap), {_TITLES[dialect]}"
        " dialect,",
        "-- written by arest (docs/sql.md says how each fact type maps to a table and column).",
    ]
    if dialect == "sqlite":
        lines.append("-- SQLite checks the foreign keys when the connection runs"
                     " PRAGMA foreign_keys = ON.")
    lines.append("")
    for table in tables.tables:
        lines.extend(_create(table, dialect))
        lines.append("")
    if dialect == "postgresql":
        for table in tables.tables:
            for key in table.foreign_keys:
                lines.append(
                    f"ALTER TABLE {quoted(table.name, dialect)} ADD FOREIGN KEY"
                    f" ({_names(key.columns, dialect)}) REFERENCES {quoted(key.table, dialect)}"
                    f" ({_names(key.references, dialect)}){_deferred(key)};")
        if any(table.foreign_keys for table in tables.tables):
            lines.append("")
    views = views or Views()
    if views.views:
        lines.append("-- Derived fact types as views: each computes the facts arest derives"
                     " (docs/sql.md, Views).")
    for view in views.views:
        lines.extend(create_view(view, dialect))
        lines.append("")
    lines.extend(_left_to_arest(tables, views))
    return "\n".join(lines).rstrip("\n") + "\n"


def _names(names: tuple[str, ...], dialect: str) -> str:
    return ", ".join(quoted(name, dialect) for name in names)


def _deferred(key: ForeignKey) -> str:
    """A NOT NULL key in a cycle of them is checked at commit: rows that refer to each other
    go in within one transaction."""
    return " DEFERRABLE INITIALLY DEFERRED" if key.deferred else ""


def _column(column: Column, dialect: str) -> str:
    text = f"{quoted(column.name, dialect)} {_TYPES[column.type]}"
    if not column.nullable:
        text += " NOT NULL"
    if column.type == BOOLEAN:
        text += " DEFAULT FALSE"
    return text


def _create(table: Table, dialect: str) -> list[str]:
    parts: list[list[str]] = [[_column(column, dialect)] for column in table.columns]
    parts.append([f"PRIMARY KEY ({_names(table.primary_key, dialect)})"])
    for unique in table.uniques:
        said = [f"-- {', '.join(unique.constraints)}"] if unique.constraints else []
        parts.append([*said, f"UNIQUE ({_names(unique.columns, dialect)})"])
    for check in table.checks:
        parts.append([f"-- {check.constraint}: {_one_line(check.reading)}",
                      f"CHECK ({_condition(check, dialect)})"])
    if dialect == "sqlite":
        for key in table.foreign_keys:
            parts.append([f"FOREIGN KEY ({_names(key.columns, dialect)}) REFERENCES"
                          f" {quoted(key.table, dialect)} ({_names(key.references, dialect)})"
                          f"{_deferred(key)}"])
    lines = [f"CREATE TABLE {quoted(table.name, dialect)} ("]
    for index, part in enumerate(parts):
        comma = "," if index < len(parts) - 1 else ""
        lines.extend(f"    {line}" for line in part[:-1])
        lines.append(f"    {part[-1]}{comma}")
    lines.append(");")
    return lines


def _condition(check: Check, dialect: str) -> str:
    """The CHECK's condition; NULL (a role without a fact) passes, as in arest."""
    first = quoted(check.columns[0], dialect)
    if check.kind == "in":
        values = ", ".join(literal(value) for value in check.values)
        return f"{first} IN ({values})"
    if check.kind == "differ":
        # Two compound keys differ when some component does (a NULL one passes, as above).
        half = len(check.columns) // 2
        return " OR ".join(
            f"{quoted(one, dialect)} <> {quoted(other, dialect)}"
            for one, other in zip(check.columns[:half], check.columns[half:], strict=True))
    return f"{first} IS NULL OR " + compared(
        [(first, True), (literal(check.values[0], True), False)], check.operator, dialect)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _left_to_arest(tables: Tables, views: Views) -> list[str]:
    """Comments: the constraints the tables do not state, and the derived fact types no
    view computes, with why."""
    lines: list[str] = []
    alethic = [u for u in tables.unstated if u.modality != "deontic"]
    deontic = [u for u in tables.unstated if u.modality == "deontic"]
    if alethic:
        lines.append("-- Constraints arest enforces that these tables do not state:")
        lines.extend(f"--   {u.id} ({u.kind}, {u.why}): {_one_line(u.reading)}" for u in alethic)
    if deontic:
        lines.append("-- Deontic constraints: arest reports their violations and accepts the"
                     " change, so no table refuses them:")
        lines.extend(f"--   {u.id} ({u.kind}): {_one_line(u.reading)}" for u in deontic)
    why = {u.fact_type: u.why for u in views.unviewed}
    unviewed = [d for d in tables.derived if views.view(d.fact_type) is None]
    if unviewed:
        lines.append("-- Derived fact types that no view computes: arest derives their facts;"
                     " no table stores them:")
        for derived in unviewed:
            because = f", {why[derived.fact_type]}" if derived.fact_type in why else ""
            lines.append(f"--   {derived.fact_type} ({derived.mode}{because})")
            lines.extend(f"--     {_one_line(rule)}" for rule in derived.rules)
    if tables.completed:
        lines.append("-- Tables that hold the asserted facts only: arest derives more facts of"
                     " these fact types:")
        for derived in tables.completed:
            lines.append(f"--   {derived.fact_type} ({derived.mode})")
            lines.extend(f"--     {_one_line(rule)}" for rule in derived.rules)
    return lines
