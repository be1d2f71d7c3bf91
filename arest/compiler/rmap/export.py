"""A tenant's population as rows of its relational schema, and as SQL INSERTs.

:func:`rows` reads D's asserted facts into the tables of :func:`relational_schema`: a row per
entity of each entity type (and of each supertype it has), an absorbed fact type filling its
columns of its entity's row (a second value where the table's key allows one is a second
row of that key, which the table refuses, as arest refuses the facts), a unary its BOOLEAN
column, a fact type of its own table a row per fact.  An entity arest knows only from a
fact it plays in has its row too, so every foreign key holds.  Derived facts are not stored
(a derived fact type has no table; a semi-derived one, or a transitive ring, keeps its
asserted facts only).  :func:`inserts`
writes the rows so that each foreign key finds its row: tables referred to first, a nullable
column referring to its own table (or to a table of a cycle) set by an UPDATE once every row
is in, and a NOT NULL one in a cycle checked when the transaction commits.
"""

from __future__ import annotations

from arest.algebra import State
from arest.algebra.relations import ASSERTED, Fact
from arest.compiler.population import (
    entity_ids,
    membership_fact_type,
    relation_in,
    role_nouns,
    supertypes,
)
from arest.compiler.rmap.model import BOOLEAN, ForeignKey, Table, Tables
from arest.compiler.rmap.names import quoted
from arest.compiler.rmap.sql import DIALECTS, literal

Value = str | bool | None
Row = dict[str, Value]


def rows(state: State, tables: Tables) -> dict[str, list[Row]]:
    """Per table name, its rows (column -> value; ``None`` for no fact, ``True``/``False``
    for a unary), from D's asserted facts.

    >>> import arest
    >>> from arest.compiler.rmap import relational_schema
    >>> from arest.compiler.schema import schema_of
    >>> D = arest.compile("Order 'o1' was placed by Customer 'acme'.", arest.compile(ORDERS))
    >>> rows(D, relational_schema(schema_of(D)))
    {'customer': [{'id': 'acme'}], 'order': [{'id': 'o1', 'customer': 'acme'}]}
    """
    return RowBuilder(state, tables).run()


class RowBuilder:
    """The rows of an export, built entity by entity and fact by fact: one run of
    :func:`rows`, and the mirror's rows of one entity (its state lives and dies with it)."""

    def __init__(self, state: State, tables: Tables) -> None:
        self.state = state
        self.tables = tables
        self.entity_tables = {t.source: t for t in tables.tables if t.kind != "fact type"}
        self.keyed: dict[str, dict[tuple[Value, ...], Row]] = {
            t.name: {} for t in tables.tables}
        self.second: dict[str, list[Row]] = {}
        """Rows repeating an entity's key, for the values its row has no room for."""
        self.parents: dict[str, list[str]] = {}
        """Each noun's supertypes, read once per noun: the export meets an entity per fact."""

    def run(self) -> dict[str, list[Row]]:
        for noun in self.entity_tables:
            for entity in entity_ids(self.state, noun):
                self.entity(noun, entity)
        for placement in self.tables.placements:
            table = self.tables.table(placement.table)
            nouns = role_nouns(self.state, placement.fact_type)
            owner = next((index for index, cell in enumerate(placement.columns)
                          if cell == table.primary_key), None)
            # The owner's row is made below (with its supertypes' rows): only the other
            # roles played by entities need theirs made here.
            played = [(index, noun) for index, noun in enumerate(nouns)
                      if noun in self.entity_tables
                      and (table.kind == "fact type" or index != owner)]
            for fact in self._asserted(placement.fact_type):
                for index, noun in played:
                    if index < len(fact):
                        self.entity(noun, fact[index])
                if table.kind == "fact type":
                    row: Row = {}
                    for noun, cell, value in zip(nouns, placement.columns, fact, strict=False):
                        row.update(zip(cell, self.key_values(noun, value), strict=True))
                    self.keyed[table.name].setdefault(tuple(row.values()), row)
                    continue
                if owner is None:  # a subtype's membership, at its supertype's key columns
                    self.entity(table.source, fact[0])
                    continue
                entity_row = self.entity(table.source, fact[owner])
                if placement.flag:
                    entity_row[placement.flag] = True
                for index, (noun, cell) in enumerate(zip(nouns, placement.columns,
                                                         strict=False)):
                    # A reference component is the row's key, set from the entity's facts.
                    if index != owner and not set(cell) <= set(table.primary_key):
                        self._fill(table, entity_row,
                                   dict(zip(cell, self.key_values(noun, fact[index]),
                                            strict=True)))
        return {name: [*found.values(), *self.second.get(name, [])]
                for name, found in self.keyed.items()}

    def _fill(self, table: Table, entity_row: Row, values: Row) -> None:
        """The values in the entity's row; where the row already holds another value (a
        second fact where the uniqueness the table's key states allows one), a second row of
        the same key holds it, so that the table refuses the population as arest does."""
        if all(entity_row.get(name) in (None, value) for name, value in values.items()):
            entity_row.update(values)
        else:
            self.second.setdefault(table.name, []).append({**entity_row, **values})

    def _asserted(self, fact_type: str) -> list[Fact]:
        relation = relation_in(self.state, fact_type)
        if relation is None:
            return []
        return sorted(fact for fact, payload in relation.items() if payload is ASSERTED)

    def key_values(self, noun: str, value: str) -> tuple[Value, ...]:
        """The key columns' values of an entity (its id, or its compound reference's
        components, ``None`` for one arest does not hold once, which the NOT NULL key
        refuses as arest refuses the entity); a value's own value."""
        table = self.entity_tables.get(noun)
        if table is None or len(table.primary_key) == 1:
            return (value,)
        components: list[Value] = []
        for column in table.primary_key:
            component = table.column(column).noun
            # The scheme is the noun's own, or a supertype's: the nearest that has the facts.
            relations = (relation_in(self.state, f"{owner}_has_{component}".replace(" ", "_"))
                         for owner in (noun, *supertypes(self.state, noun)))
            relation = next((r for r in relations if r is not None), None)
            found = [f[1] for f in relation.matching(0, value)] if relation is not None else []
            components.append(found[0] if len(found) == 1 else None)
        return tuple(components)

    def entity(self, noun: str, entity: str) -> Row:
        """The entity's row in its noun's table (made, with its supertypes' rows, when new)."""
        for parent in self._supertypes(noun):
            if parent in self.entity_tables:
                self._entity_row(parent, entity)
        return self._entity_row(noun, entity)

    def _supertypes(self, noun: str) -> list[str]:
        parents = self.parents.get(noun)
        if parents is None:
            parents = self.parents[noun] = list(supertypes(self.state, noun))
        return parents

    def _entity_row(self, noun: str, entity: str) -> Row:
        """The entity's row in the noun's table; a subtype identified otherwise than its
        supertype holds the supertype's key in the columns of its membership's placement."""
        table = self.entity_tables[noun]
        row = self._row(table, self.key_values(noun, entity))
        for parent in self._supertypes(noun):
            placement = self.tables.placement(membership_fact_type(noun, parent))
            if placement is not None and placement.columns[0] != table.primary_key:
                row.update(zip(placement.columns[0], self.key_values(parent, entity),
                               strict=True))
        return row

    def _row(self, table: Table, key: tuple[Value, ...]) -> Row:
        found = self.keyed[table.name]
        if key not in found:
            row: Row = {c.name: (False if c.type == BOOLEAN else None) for c in table.columns}
            row.update(zip(table.primary_key, key, strict=True))
            found[key] = row
        return found[key]


def inserts(tables: Tables, table_rows: dict[str, list[Row]], dialect: str) -> str:
    """INSERT statements for the rows, in an order the foreign keys accept: a table after
    those its NOT NULL foreign keys refer to; a nullable column referring to its own table,
    or to a table inserted later, is inserted NULL and set by an UPDATE after every INSERT.
    A NOT NULL foreign key in a cycle of them is checked at commit (the DDL declares it
    ``DEFERRABLE INITIALLY DEFERRED``), so the statements are then one transaction.

    >>> from arest.compiler.rmap.model import Column
    >>> table = Table("t", "entity", "T", (Column("id", "text", False, "T"),
    ...               Column("n", "text", True, "N")), ("id",))
    >>> print(inserts(Tables((table,), (), (), ()), {"t": [{"id": "it's", "n": "2"}]},
    ...               "sqlite"), end="")
    INSERT INTO t (id, n) VALUES ('it''s', '2');
    """
    if dialect not in DIALECTS:
        raise ValueError(f"no SQL dialect {dialect!r}: expected one of {', '.join(DIALECTS)}")
    ordered = insert_order(tables)
    position = {table.name: index for index, table in enumerate(ordered)}
    lines: list[str] = []
    updates: list[str] = []
    for table in ordered:
        later = {column for key in table.foreign_keys
                 if position[key.table] >= position[table.name] and _nullable(table, key)
                 for column in key.columns}
        names = ", ".join(quoted(c.name, dialect) for c in table.columns)
        for row in table_rows.get(table.name, []):
            values = ", ".join(
                "NULL" if c.name in later else _value(row.get(c.name)) for c in table.columns)
            lines.append(f"INSERT INTO {quoted(table.name, dialect)} ({names}) VALUES"
                         f" ({values});")
            deferred = [c for c in table.columns if c.name in later
                        and row.get(c.name) is not None]
            if deferred:
                sets = ", ".join(f"{quoted(c.name, dialect)} = {_value(row[c.name])}"
                                 for c in deferred)
                where = " AND ".join(f"{quoted(k, dialect)} = {_value(row[k])}"
                                     for k in table.primary_key)
                updates.append(f"UPDATE {quoted(table.name, dialect)} SET {sets}"
                               f" WHERE {where};")
    statements = [*lines, *updates]
    if any(key.deferred and table_rows.get(table.name)
           for table in tables.tables for key in table.foreign_keys):
        statements = ["BEGIN;", *statements, "COMMIT;"]
    return "".join(line + "\n" for line in statements)


def _nullable(table: Table, key: ForeignKey) -> bool:
    return all(table.column(c).nullable for c in key.columns)


def _value(value: Value) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return literal(value)


def insert_order(tables: Tables) -> list[Table]:
    """The tables, each after the tables its NOT NULL foreign keys refer to (those checked
    at commit aside: they close cycles), in their own order otherwise."""
    ordered: list[Table] = []
    done: set[str] = set()

    def visit(table: Table) -> None:
        if table.name in done:
            return
        done.add(table.name)
        for key in table.foreign_keys:
            if not key.deferred and not _nullable(table, key):
                visit(tables.table(key.table))
        ordered.append(table)

    for table in tables.tables:
        visit(table)
    return ordered
