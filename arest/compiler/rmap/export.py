"""A tenant's population as rows of its relational schema, and as SQL INSERTs.

:func:`rows` reads D's asserted facts into the tables of :func:`relational_schema`: a row per
entity of each entity type (and of each supertype it has), an absorbed fact type filling its
columns of its entity's row, a unary its BOOLEAN column, a fact type of its own table a row
per fact.  An entity arest knows only from a fact it plays in has its row too, so every
foreign key holds.  Derived facts are not stored (a derived fact type has no table; a
semi-derived one, or a transitive ring, keeps its asserted facts only).  :func:`inserts`
writes the rows so that each foreign key finds its row: tables referred to first, and a
column referring to its own table (or to a table of a cycle) set by an UPDATE once every row
is in.
"""

from __future__ import annotations

from arest.algebra import State
from arest.algebra.numerals import is_numeral
from arest.algebra.relations import ASSERTED, Fact
from arest.compiler.population import entity_ids, relation_in, role_nouns, supertypes
from arest.compiler.rmap.ddl import DIALECTS, literal
from arest.compiler.rmap.model import BOOLEAN, NUMERIC, Table, Tables
from arest.compiler.rmap.names import quoted

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
    return _Export(state, tables).run()


class _Export:
    """One run of :func:`rows` (its state lives and dies with the call)."""

    def __init__(self, state: State, tables: Tables) -> None:
        self.state = state
        self.tables = tables
        self.entity_tables = {t.source: t for t in tables.tables if t.kind != "fact type"}
        self.keyed: dict[str, dict[tuple[Value, ...], Row]] = {
            t.name: {} for t in tables.tables}
        # Read once per noun, not once per entity: the export touches each entity per fact.
        self.parents: dict[str, list[str]] = {}

    def run(self) -> dict[str, list[Row]]:
        for noun in self.entity_tables:
            for entity in entity_ids(self.state, noun):
                self.entity(noun, entity)
        for placement in self.tables.placements:
            table = self.tables.table(placement.table)
            nouns = role_nouns(self.state, placement.fact_type)
            owner = next((index for index, cell in enumerate(placement.columns)
                          if cell == table.primary_key), 0)
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
                entity_row = self.entity(table.source, fact[owner])
                if placement.flag:
                    entity_row[placement.flag] = True
                for index, (noun, cell) in enumerate(zip(nouns, placement.columns,
                                                         strict=False)):
                    if index != owner:
                        entity_row.update(zip(cell, self.key_values(noun, fact[index]),
                                              strict=True))
        return {name: list(found.values()) for name, found in self.keyed.items()}

    def _asserted(self, fact_type: str) -> list[Fact]:
        relation = relation_in(self.state, fact_type)
        if relation is None:
            return []
        return sorted(fact for fact, payload in relation.items() if payload is ASSERTED)

    def key_values(self, noun: str, value: str) -> tuple[str, ...]:
        """The key columns' values of an entity (its id, or its compound reference's
        components); a value's own value."""
        table = self.entity_tables.get(noun)
        if table is None or len(table.primary_key) == 1:
            return (value,)
        components: list[str] = []
        for column in table.primary_key:
            component = table.column(column).noun
            fact_type = f"{self._root(noun)}_has_{component}".replace(" ", "_")
            relation = relation_in(self.state, fact_type)
            found = [f[1] for f in relation.matching(0, value)] if relation is not None else []
            components.append(found[0] if found else "")
        if all(components):
            return tuple(components)
        return tuple(value.rsplit("-", len(table.primary_key) - 1))

    def _root(self, noun: str) -> str:
        chain = [s for s in supertypes(self.state, noun) if s in self.entity_tables]
        return chain[-1] if chain else noun

    def entity(self, noun: str, entity: str) -> Row:
        """The entity's row in its noun's table (made, with its supertypes' rows, when new)."""
        parents = self.parents.get(noun)
        if parents is None:
            parents = self.parents[noun] = [
                parent for parent in supertypes(self.state, noun) if parent in self.entity_tables]
        for parent in parents:
            self._row(self.entity_tables[parent], self.key_values(parent, entity))
        return self._row(self.entity_tables[noun], self.key_values(noun, entity))

    def _row(self, table: Table, key: tuple[str, ...]) -> Row:
        found = self.keyed[table.name]
        if key not in found:
            row: Row = {c.name: (False if c.type == BOOLEAN else None) for c in table.columns}
            row.update(zip(table.primary_key, key, strict=True))
            found[key] = row
        return found[key]


def inserts(tables: Tables, table_rows: dict[str, list[Row]], dialect: str) -> str:
    """INSERT statements for the rows, in an order the foreign keys accept: a table after
    those it refers to; a column referring to its own table, or back along a cycle of
    tables, is inserted NULL and set by an UPDATE after every INSERT.

    >>> from arest.compiler.rmap.model import Column
    >>> table = Table("t", "entity", "T", (Column("id", "text", False, "T"),
    ...               Column("n", NUMERIC, True, "N")), ("id",))
    >>> print(inserts(Tables((table,), (), (), ()), {"t": [{"id": "it's", "n": "2"}]},
    ...               "sqlite"), end="")
    INSERT INTO t (id, n) VALUES ('it''s', 2);
    """
    if dialect not in DIALECTS:
        raise ValueError(f"no SQL dialect {dialect!r}: expected one of {', '.join(DIALECTS)}")
    ordered = _ordered(tables)
    position = {table.name: index for index, table in enumerate(ordered)}
    lines: list[str] = []
    updates: list[str] = []
    for table in ordered:
        later = {column for key in table.foreign_keys
                 if position[key.table] >= position[table.name]
                 and all(table.column(c).nullable for c in key.columns)
                 for column in key.columns}
        names = ", ".join(quoted(c.name, dialect) for c in table.columns)
        for row in table_rows.get(table.name, []):
            values = ", ".join(
                "NULL" if c.name in later else _value(row.get(c.name), c.type)
                for c in table.columns)
            lines.append(f"INSERT INTO {quoted(table.name, dialect)} ({names}) VALUES"
                         f" ({values});")
            deferred = [c for c in table.columns if c.name in later
                        and row.get(c.name) is not None]
            if deferred:
                sets = ", ".join(f"{quoted(c.name, dialect)} = {_value(row[c.name], c.type)}"
                                 for c in deferred)
                where = " AND ".join(
                    f"{quoted(k, dialect)} = {_value(row[k], table.column(k).type)}"
                    for k in table.primary_key)
                updates.append(f"UPDATE {quoted(table.name, dialect)} SET {sets}"
                               f" WHERE {where};")
    return "".join(line + "\n" for line in [*lines, *updates])


def _value(value: Value, column_type: str) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return literal(value, column_type == NUMERIC and is_numeral(value))


def _ordered(tables: Tables) -> list[Table]:
    """The tables, each after the tables it refers to (a cycle broken where it closes)."""
    ordered: list[Table] = []
    visiting: set[str] = set()
    done: set[str] = set()

    def visit(table: Table) -> None:
        if table.name in done or table.name in visiting:
            return
        visiting.add(table.name)
        for key in table.foreign_keys:
            if key.table != table.name:
                visit(tables.table(key.table))
        visiting.discard(table.name)
        done.add(table.name)
        ordered.append(table)

    for table in tables.tables:
        visit(table)
    return ordered
