"""The rows of a tenant's export one entity or one fact at a time, and what a delta of
asserted facts reaches: what :mod:`arest.compiler.rmap.mirror` compares before and after a
command.

An entity has a row in the table of its entity type, and of each supertype, when it is in the
population of that type or of a subtype, or plays a role of that type in an asserted fact of
a stored fact type (so every foreign key holds): exactly the rows of
:func:`~arest.compiler.rmap.export.rows`, whose key columns it reuses.
"""

from __future__ import annotations

from arest.algebra import State
from arest.algebra.relations import ASSERTED, Fact
from arest.compiler.cells import POPULATION_PREFIX
from arest.compiler.population import relation_in, role_nouns, supertypes
from arest.compiler.rmap.export import Row, RowBuilder, Value  # its keys: rows agree
from arest.compiler.rmap.model import BOOLEAN, Placement, Table, Tables


class ExportShape:
    """What :class:`ExportRows` reads of the readings alone (the tables, each fact type's
    role nouns, the supertypes): the same for every D of those readings, so that it is
    worked out once per readings, not per command."""

    def __init__(self, state: State, tables: Tables) -> None:
        self.tables = tables
        self.entity_tables = {t.source: t for t in tables.tables if t.kind != "fact type"}
        self.placements = {p.fact_type: p for p in tables.placements}
        self.owners = {p.fact_type: _owner(tables, p) for p in tables.placements}
        self.nouns = {p.fact_type: role_nouns(state, p.fact_type) for p in tables.placements}
        self.lineage = {noun: [noun, *(s for s in supertypes(state, noun)
                                       if s in self.entity_tables)]
                        for noun in self.entity_tables}
        self.family: dict[str, list[Table]] = {}
        for noun, table in sorted(self.entity_tables.items()):
            self.family.setdefault(self.root(noun), []).append(table)
        self.makers = self._makers()
        self.absorbed: dict[str, list[Placement]] = {}
        for placement in tables.placements:
            if self.owner(placement) is not None:
                self.absorbed.setdefault(placement.table, []).append(placement)

    def root(self, noun: str) -> str:
        return self.lineage[noun][-1]

    def owner(self, placement: Placement) -> int | None:
        """The role whose entity's row holds an absorbed fact type; None for its own table."""
        return self.owners[placement.fact_type]

    def _makers(self) -> dict[str, tuple[list[str], list[tuple[str, int]]]]:
        """Per entity type with a table: the populations, and the roles of stored fact
        types, in which an entity makes the export give it a row there (a subtype's make
        its supertypes' rows too)."""
        makers: dict[str, tuple[list[str], list[tuple[str, int]]]] = {
            noun: ([], []) for noun in self.entity_tables}
        for noun, lineage in self.lineage.items():
            for reached in lineage:
                makers[reached][0].append(noun)
        for fact_type, placement in self.placements.items():
            playing = list(enumerate(self.nouns[fact_type]))
            owner = self.owner(placement)
            if owner is not None:
                playing.append((owner, self.tables.table(placement.table).source))
            for role, noun in playing:
                for reached in self.lineage.get(noun, []):
                    makers[reached][1].append((fact_type, role))
        return makers


def _owner(tables: Tables, placement: Placement) -> int | None:
    table = tables.table(placement.table)
    if table.kind == "fact type":
        return None
    return next(index for index, cell in enumerate(placement.columns)
                if cell == table.primary_key)


class ExportRows:
    """The rows of D's export one at a time: an entity's row in a table (or none), a fact's
    row in its fact type's table, each as :func:`~arest.compiler.rmap.export.rows` gives it.

    >>> import arest
    >>> from arest.compiler.rmap import relational_schema
    >>> from arest.compiler.schema import schema_of
    >>> D = arest.compile("Order 'o1' was placed by Customer 'acme'.", arest.compile(ORDERS))
    >>> found = ExportRows(D, relational_schema(schema_of(D)))
    >>> found.entity_row(found.tables.table("order"), "o1"), found.entity_row(
    ...     found.tables.table("order"), "o2")
    ({'id': 'o1', 'customer': 'acme'}, None)

    ``shape``: the :class:`ExportShape` of D's readings, when one is at hand.
    """

    def __init__(self, state: State, tables: Tables, shape: ExportShape | None = None
                 ) -> None:
        self.state = state
        self.tables = tables
        self.export = RowBuilder(state, tables)
        self.shape = ExportShape(state, tables) if shape is None else shape
        self.entity_tables = self.shape.entity_tables
        self.placements = self.shape.placements
        self.nouns = self.shape.nouns
        self.family = self.shape.family
        self.makers = self.shape.makers
        self.absorbed = self.shape.absorbed

    def root(self, noun: str) -> str:
        return self.shape.root(noun)

    def owner(self, placement: Placement) -> int | None:
        return self.shape.owner(placement)

    def asserted(self, fact_type: str, fact: Fact) -> bool:
        relation = relation_in(self.state, fact_type)
        return relation is not None and relation.payload(fact) is ASSERTED

    def _playing(self, fact_type: str, role: int, entity: str) -> list[Fact]:
        relation = relation_in(self.state, fact_type)
        if relation is None:
            return []
        return sorted(fact for fact in relation.matching(role, entity)
                      if relation.payload(fact) is ASSERTED)

    def _known(self, noun: str, entity: str) -> bool:
        populations, roles = self.makers[noun]
        for maker in populations:
            population = relation_in(self.state, POPULATION_PREFIX + maker)
            if population is not None and (entity,) in population:
                return True
        for fact_type, role in roles:
            relation = relation_in(self.state, fact_type)
            if relation is not None and any(relation.payload(fact) is ASSERTED
                                            for fact in relation.matching(role, entity)):
                return True
        return False

    def entity_row(self, table: Table, entity: str) -> Row | None:
        """The entity's row in its type's (or a supertype's) table; None when it has none."""
        if not self._known(table.source, entity):
            return None
        row: Row = {c.name: (False if c.type == BOOLEAN else None) for c in table.columns}
        row.update(zip(table.primary_key, self.export.key_values(table.source, entity),
                       strict=True))
        for placement in self.absorbed.get(table.name, []):
            owner = self.owner(placement)
            assert owner is not None
            nouns = self.nouns[placement.fact_type]
            for fact in self._playing(placement.fact_type, owner, entity):
                if placement.flag:
                    row[placement.flag] = True
                for index, (noun, cell) in enumerate(zip(nouns, placement.columns,
                                                         strict=False)):
                    if index != owner:
                        row.update(zip(cell, self.export.key_values(noun, fact[index]),
                                       strict=True))
        return row

    def fact_row(self, placement: Placement, fact: Fact) -> tuple[Value, ...]:
        """The row of a fact in its fact type's own table, in the table's column order."""
        row: Row = {}
        for noun, cell, value in zip(self.nouns[placement.fact_type], placement.columns, fact,
                                     strict=False):
            row.update(zip(cell, self.export.key_values(noun, value), strict=True))
        return tuple(row[c.name] for c in self.tables.table(placement.table).columns)

    def entities_in(self, fact_type: str, fact: Fact) -> list[tuple[str, str]]:
        """The (root entity type, entity) pairs whose rows a fact makes or fills."""
        found = [(self.root(noun), value) for noun, value in zip(self.nouns[fact_type], fact,
                                                                 strict=False)
                 if noun in self.entity_tables]
        placement = self.placements[fact_type]
        owner = self.owner(placement)
        if owner is not None:
            found.append((self.root(self.tables.table(placement.table).source), fact[owner]))
        return found


class Reach:
    """What a delta reaches: the entities (by their root entity type) whose rows may change,
    and the facts of fact types with tables of their own.

    >>> import arest
    >>> from arest.compiler.rmap import relational_schema
    >>> from arest.compiler.schema import schema_of
    >>> D = arest.compile(ORDERS)
    >>> reach = Reach(ExportRows(D, relational_schema(schema_of(D))))
    >>> reach.fact("Order_was_placed_by_Customer", ("o1", "acme"))
    >>> sorted(reach.entities), reach.facts
    ([('Customer', 'acme'), ('Order', 'o1')], {})
    """

    def __init__(self, rows: ExportRows) -> None:
        self.rows = rows
        self.entities: set[tuple[str, str]] = set()
        self.facts: dict[str, set[Fact]] = {}

    def fact(self, cell: str, fact: Fact) -> None:
        if cell.startswith(POPULATION_PREFIX):
            noun = cell[len(POPULATION_PREFIX):]
            if noun in self.rows.entity_tables:
                self.entities.add((self.rows.root(noun), fact[0]))
            return
        placement = self.rows.placements.get(cell)
        if placement is None:
            return
        self.entities.update(self.rows.entities_in(cell, fact))
        if self.rows.owner(placement) is None:
            self.facts.setdefault(cell, set()).add(fact)
