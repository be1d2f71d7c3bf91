"""The tables of :func:`relational_schema` kept in step with D, one command at a time.

A command adds and removes asserted facts (its delta).  :func:`mirror_changes` gives the SQL
statements that take tables holding the export of D (:func:`~arest.compiler.rmap.export.rows`)
to tables holding the export of D′, touching only the rows the delta reaches:

    load(export(D)) ; mirror_changes(D, D′, delta)  =  load(export(D′))

An entity's row appears when the entity first does (in its population, or in a fact of a
stored fact type) and goes when it is in neither, as in the export; an absorbed fact type sets
its columns (NULL once its fact is gone), a unary sets its flag TRUE or FALSE, a fact type of
its own table inserts or deletes a row per fact.  :func:`mirror_population` gives the rows of
a whole population, for tables just created (a schema change rewrites them).

The statements run in this order, so that every statement finds the foreign keys, primary
keys and UNIQUEs it needs, whether the foreign keys are checked per statement or deferred:

1. columns that become NULL, and a UNIQUE column about to take another value, are cleared
   (a row about to go also clears its columns that refer back along its own table or a
   cycle of tables, and its UNIQUE columns);
2. rows of fact types' tables are deleted;
3. rows are inserted, each table after those it refers to, a column that refers back set
   NULL (as the export does);
4. the new values are set, those columns included;
5. entities' rows are deleted, each table before those it refers to.

A statement is SQL with the dialect's placeholders (``?`` for SQLite's ``sqlite3``, ``%s``
for PostgreSQL's psycopg) and its parameters: text as ``str``, a unary as ``bool``, NULL as
``None``; :func:`script` writes statements as one SQL text with the values inline.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from arest.algebra import State
from arest.compiler.rmap.export import Row, Value, insert_order, rows
from arest.compiler.rmap.model import Table, Tables
from arest.compiler.rmap.names import quoted
from arest.compiler.rmap.reach import ExportRows, ExportShape, Reach
from arest.compiler.rmap.sql import DIALECTS, literal

PLACEHOLDERS = {"sqlite": "?", "postgresql": "%s"}
"""Each dialect's parameter placeholder: ``sqlite3``'s qmark, psycopg's format style."""


@dataclass(frozen=True)
class Statement:
    """One SQL statement of a dialect, its values as parameters in placeholder order."""

    sql: str
    parameters: tuple[Value, ...]
    dialect: str


def script(statements: Iterable[Statement]) -> str:
    """The statements as one SQL text, each value written inline as a literal.

    >>> print(script([Statement('DELETE FROM t WHERE "order" = ? AND b = ?',
    ...                         ("it's", True), "sqlite")]), end="")
    DELETE FROM t WHERE "order" = 'it''s' AND b = TRUE;
    """
    lines = []
    for statement in statements:
        pieces = statement.sql.split(PLACEHOLDERS[statement.dialect])
        text = pieces[0]
        for value, piece in zip(statement.parameters, pieces[1:], strict=True):
            text += _inline(value) + piece
        lines.append(text + ";\n")
    return "".join(lines)


def mirror_population(tables: Tables, state: State, dialect: str) -> list[Statement]:
    """INSERTs of every row of D's export into empty tables (then the UPDATEs that set the
    columns referring back along a cycle, as :func:`~arest.compiler.rmap.export.inserts`).

    >>> import arest
    >>> from arest.compiler.rmap import relational_schema
    >>> from arest.compiler.schema import schema_of
    >>> D = arest.compile("Order 'o1' was placed by Customer 'acme'.", arest.compile(ORDERS))
    >>> for statement in mirror_population(relational_schema(schema_of(D)), D, "postgresql"):
    ...     print(statement.sql, statement.parameters)
    INSERT INTO customer (id) VALUES (%s) ('acme',)
    INSERT INTO "order" (id, customer) VALUES (%s, %s) ('o1', 'acme')
    """
    _check(dialect)
    plan = _Plan(tables, dialect)
    for name, found in rows(state, tables).items():
        for row in found:
            plan.insert(tables.table(name), row)
    return plan.statements()


def mirror_changes(tables: Tables, before: State, after: State,
                   added: Iterable[tuple[str, Sequence[str]]],
                   removed: Iterable[tuple[str, Sequence[str]]],
                   dialect: str, shape: ExportShape | None = None) -> list[Statement]:
    """The statements that take the tables from the export of D (before) to that of D′
    (after), given the asserted facts the command added and removed, per cell (a fact
    type's id, or ``population:<Noun>``; other cells are not in the tables).  ``shape``:
    the :class:`~arest.compiler.rmap.reach.ExportShape` of D′'s readings, when at hand.

    >>> import arest
    >>> from arest.compiler.rmap import relational_schema
    >>> from arest.compiler.schema import schema_of
    >>> D = arest.compile(ORDERS)
    >>> after = arest.compile("Order 'o1' was placed by Customer 'acme'.", D)
    >>> for statement in mirror_changes(relational_schema(schema_of(D)), D, after,
    ...         [("Order_was_placed_by_Customer", ("o1", "acme"))], [], "sqlite"):
    ...     print(statement.sql, statement.parameters)
    INSERT INTO customer (id) VALUES (?) ('acme',)
    INSERT INTO "order" (id, customer) VALUES (?, ?) ('o1', 'acme')
    """
    _check(dialect)
    new = ExportRows(after, tables, shape)
    old = ExportRows(before, tables, new.shape)
    reach = Reach(new)
    for cell, fact in [*added, *removed]:
        reach.fact(cell, tuple(fact))
    plan = _Plan(tables, dialect)
    for root, entity in sorted(reach.entities):
        for table in new.family[root]:
            plan.entity_row(table, old.entity_row(table, entity), new.entity_row(table, entity))
    for fact_type, facts in sorted(reach.facts.items()):
        placement = new.placements[fact_type]
        table = tables.table(placement.table)
        was = {old.fact_row(placement, fact) for fact in facts if old.asserted(fact_type, fact)}
        now = {new.fact_row(placement, fact) for fact in facts if new.asserted(fact_type, fact)}
        for row in sorted(was - now):
            plan.delete_fact(table, dict(zip([c.name for c in table.columns], row,
                                             strict=True)))
        for row in sorted(now - was):
            plan.insert(table, dict(zip([c.name for c in table.columns], row, strict=True)))
    return plan.statements()


def dropped_tables(tables: Tables, dialect: str) -> list[Statement]:
    """``DROP TABLE IF EXISTS`` for each table, those referring to others first (PostgreSQL
    also drops, by ``CASCADE``, a foreign key of a table not among them).

    >>> from arest.compiler.rmap.model import Column
    >>> table = Table("order", "entity", "Order", (Column("id", "text", False, "Order"),),
    ...               ("id",))
    >>> [s.sql for s in dropped_tables(Tables((table,), (), (), ()), "postgresql")]
    ['DROP TABLE IF EXISTS "order" CASCADE']
    """
    _check(dialect)
    cascade = " CASCADE" if dialect == "postgresql" else ""
    return [Statement(f"DROP TABLE IF EXISTS {quoted(table.name, dialect)}{cascade}", (),
                      dialect) for table in reversed(insert_order(tables))]


def _check(dialect: str) -> None:
    if dialect not in DIALECTS:
        raise ValueError(f"no SQL dialect {dialect!r}: expected one of {', '.join(DIALECTS)}")


def _inline(value: Value) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return literal(value)


class _Plan:
    """The statements of one change, gathered by phase (the module's docstring says why)."""

    def __init__(self, tables: Tables, dialect: str) -> None:
        self.tables = tables
        self.dialect = dialect
        ordered = insert_order(tables)
        self.position = {table.name: index for index, table in enumerate(ordered)}
        self.later = {table.name: _refers_back(table, self.position) for table in ordered}
        self.unique = {table.name: {c for u in table.uniques for c in u.columns}
                       for table in ordered}
        self.cleared: list[Statement] = []
        self.fact_deletes: list[Statement] = []
        self.inserts: list[tuple[int, Statement]] = []
        self.sets: list[Statement] = []
        self.entity_deletes: list[tuple[int, Statement]] = []

    def statements(self) -> list[Statement]:
        inserts = [s for _, s in sorted(self.inserts, key=lambda p: p[0])]
        deletes = [s for _, s in sorted(self.entity_deletes, key=lambda p: -p[0])]
        return [*self.cleared, *self.fact_deletes, *inserts, *self.sets, *deletes]

    def _q(self, name: str) -> str:
        return quoted(name, self.dialect)

    def _where(self, table: Table, row: Row, columns: Sequence[str]
               ) -> tuple[str, tuple[Value, ...]]:
        mark = PLACEHOLDERS[self.dialect]
        return (" AND ".join(f"{self._q(c)} = {mark}" for c in columns),
                tuple(row[c] for c in columns))

    def _update(self, table: Table, row: Row, values: Mapping[str, Value]) -> Statement:
        mark = PLACEHOLDERS[self.dialect]
        sets = ", ".join(f"{self._q(c)} = {mark}" for c in values)
        where, keys = self._where(table, row, table.primary_key)
        return Statement(f"UPDATE {self._q(table.name)} SET {sets} WHERE {where}",
                         (*values.values(), *keys), self.dialect)

    def insert(self, table: Table, row: Row) -> None:
        later = self.later[table.name]
        names = ", ".join(self._q(c.name) for c in table.columns)
        marks = ", ".join(PLACEHOLDERS[self.dialect] for _ in table.columns)
        values = tuple(None if c.name in later else row.get(c.name) for c in table.columns)
        self.inserts.append((self.position[table.name], Statement(
            f"INSERT INTO {self._q(table.name)} ({names}) VALUES ({marks})", values,
            self.dialect)))
        deferred = {c: row[c] for c in sorted(later) if row.get(c) is not None}
        if deferred:
            self.sets.append(self._update(table, row, deferred))

    def delete_fact(self, table: Table, row: Row) -> None:
        where, values = self._where(table, row, [c.name for c in table.columns])
        self.fact_deletes.append(Statement(f"DELETE FROM {self._q(table.name)} WHERE {where}",
                                           values, self.dialect))

    def entity_row(self, table: Table, was: Row | None, now: Row | None) -> None:
        """The statements taking an entity's row from was to now (None: no row)."""
        key = table.primary_key
        if was is not None and now is not None and all(was[k] == now[k] for k in key):
            self._changed(table, was, now)
            return
        if was is not None:
            self._delete_entity(table, was)
        if now is not None:
            self.insert(table, now)

    def _changed(self, table: Table, was: Row, now: Row) -> None:
        changed = [c for c in table.columns if was[c.name] != now[c.name]]
        unique = self.unique[table.name]
        cleared = {c.name: None for c in changed if c.nullable and (
            now[c.name] is None or c.name in unique)}
        set_to = {c.name: now[c.name] for c in changed if now[c.name] is not None}
        if cleared:
            self.cleared.append(self._update(table, was, cleared))
        if set_to:
            self.sets.append(self._update(table, now, set_to))

    def _delete_entity(self, table: Table, was: Row) -> None:
        blocking = self.later[table.name] | self.unique[table.name]
        cleared = {c.name: None for c in table.columns if c.name in blocking
                   and c.nullable and was[c.name] is not None}
        if cleared:
            self.cleared.append(self._update(table, was, cleared))
        where, values = self._where(table, was, table.primary_key)
        self.entity_deletes.append((self.position[table.name], Statement(
            f"DELETE FROM {self._q(table.name)} WHERE {where}", values, self.dialect)))


def _refers_back(table: Table, position: dict[str, int]) -> frozenset[str]:
    """The columns of a foreign key to the table itself or to a table ordered after it (a
    cycle), when they may be NULL: inserted NULL, set once every row is in."""
    return frozenset(column for key in table.foreign_keys
                     if position[key.table] >= position[table.name]
                     and all(table.column(c).nullable for c in key.columns)
                     for column in key.columns)
