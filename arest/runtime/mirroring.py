"""The current facts mirrored into the Rmap tables of a tenant kept in PostgreSQL.

Beside its ``arest_`` tables, a tenant's schema holds the tables of
:func:`~arest.compiler.rmap.relational_schema` (and the views of its derived fact types),
holding the export of D (:func:`~arest.compiler.rmap.export.rows`), so that any SQL client
reads what arest holds.  Each journal entry changes them in its own transaction
(:meth:`~arest.runtime.postgres.PostgresStorage.append`'s ``within``):

- by :func:`~arest.compiler.rmap.mirror.mirror_changes` of the command's asserted delta,
  when the tables mirror the entry before it under the same layout;
- else by a rewrite: the tables mirrored so far are dropped, the DDL of D′'s layout run, and
  every row of D′ inserted (:func:`~arest.compiler.rmap.mirror.mirror_population`): a
  command that changed the layout (``compile``, an applied Domain Change, a rollback to other
  readings), or a mirror missing or behind (a journal older than mirroring).

``arest_meta``'s row ``mirror`` says which entry the tables mirror, under which layout, and
which tables are arest's, so a mirror is never silently stale.  A layout is the PostgreSQL
DDL of a D's readings; it is computed again only when a cell describing the readings is
another object (a tenant keeps the last one: :class:`Layouts`).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, runtime_checkable

from arest.algebra import State
from arest.compiler.rmap import Tables, ddl, relational_schema, views_of
from arest.compiler.rmap.mirror import Statement, dropped_tables, mirror_changes
from arest.compiler.rmap.mirror import mirror_population as population_statements
from arest.compiler.rmap.names import quoted
from arest.compiler.rmap.reach import ExportShape
from arest.compiler.schema import schema_of
from arest.forml2.bundled import metamodel
from arest.runtime.digest import Delta
from arest.runtime.storage import Pending, StorageError

DIALECT = "postgresql"

RESERVED = frozenset({"arest_meta", "arest_journal", "arest_base", "arest_cells",
                      "arest_shared", "arest_refers"})
"""The storage's own tables (:mod:`arest.runtime.postgres`): no mirrored table may be one."""

READINGS_CELLS = ("readings:source", "derivations", "machines")
"""Cells describing the readings beside the metamodel's fact types."""


class Executes(Protocol):
    """A database connection, as far as the mirror uses one (psycopg's)."""

    def execute(self, query: Any, params: Any = None) -> Any: ...


@runtime_checkable
class MirroringStorage(Protocol):
    """A storage that mirrors the facts: its appends run the mirror's statements in their
    transaction, and it brings the mirror to an entry on open."""

    def append(self, batch: Sequence[Pending],
               within: Callable[[Any], None] | None = None) -> None: ...

    def at_last_entry(self, sequence: int, within: Callable[[Any], None]) -> bool: ...


@dataclass(frozen=True)
class Layout:
    """The tables of one readings: the Rmap, its PostgreSQL DDL (views included), its
    digest, and what reading a D's rows needs of the readings (worked out once)."""

    tables: Tables
    views: tuple[str, ...]
    script: str
    digest: str
    shape: ExportShape

    @property
    def names(self) -> list[str]:
        return [table.name for table in self.tables.tables]


def layout_of(state: State) -> Layout:
    """The mirror's layout for D's readings; :class:`StorageError` when a table would take
    the name of one of the storage's own tables.

    >>> import arest
    >>> layout_of(arest.compile(ORDERS)).names
    ['customer', 'order']
    >>> try:
    ...     layout_of(arest.compile("Arest Meta(.id) is an entity type."))
    ... except StorageError as error:
    ...     print(str(error).split(",")[0])
    the readings map a fact type or noun to table arest_meta
    """
    tables = relational_schema(schema_of(state))
    views = views_of(state, tables)
    script = ddl(tables, DIALECT, views)
    if clashing := sorted(RESERVED & {table.name for table in tables.tables}):
        raise StorageError(f"the readings map a fact type or noun to table {clashing[0]},"
                           " the name of one of arest's own tables in PostgreSQL: rename"
                           " that noun or fact type")
    digest = hashlib.sha256(script.encode()).hexdigest()[:16]
    return Layout(tables, tuple(view.name for view in views.views), script, digest,
                  ExportShape(state, tables))


class Layouts:
    """The layout of the last readings asked about, kept while the cells describing the
    readings are the same objects (a command on the population leaves them be)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: tuple[tuple[Any, ...], Layout] | None = None
        self._cells = tuple(sorted(metamodel().schema.fact_types)) + READINGS_CELLS

    def __call__(self, state: State) -> Layout:
        key = tuple(state.get(name) for name in self._cells)
        with self._lock:
            last = self._last
        if last is not None and all(a is b for a, b in zip(last[0], key, strict=True)):
            return last[1]
        layout = layout_of(state)
        with self._lock:
            self._last = (key, layout)
        return layout


@dataclass(frozen=True)
class Step:
    """What the tables become at entry ``sequence``: ``changes`` when they mirror entry
    ``since`` under layout ``was`` (None: always rewrite), else the rewrite of ``state``."""

    since: int
    was: str
    changes: list[Statement] | None
    sequence: int
    layout: Layout
    state: State


def step(layouts: Layouts, before: State, after: State, delta: Delta,
         sequence: int) -> Step:
    """The mirror's step for a command taking D (entry ``sequence - 1``) to D′."""
    was, now = layouts(before), layouts(after)
    changes = None
    if was.digest == now.digest:
        changes = mirror_changes(now.tables, before, after, delta.added, delta.removed,
                                 DIALECT, now.shape)
    return Step(sequence - 1, was.digest, changes, sequence, now, after)


def current(layouts: Layouts, state: State, sequence: int) -> Step:
    """The step that leaves tables mirroring D at ``sequence`` as they are, else rewrites
    them: for an open."""
    layout = layouts(state)
    return Step(sequence, layout.digest, [], sequence, layout, state)


def run(steps: Sequence[Step], connection: Executes) -> None:
    """Take the tables through the steps' entries in turn on the connection, in its
    transaction (the tenant's schema first on its search path), and record where they are."""
    row = connection.execute("SELECT value FROM arest_meta WHERE name = 'mirror'").fetchone()
    kept: dict[str, Any] = json.loads(row[0]) if row is not None else {}
    mirrors = (kept.get("sequence"), kept.get("layout"))
    made = {"tables": kept.get("tables", []), "views": kept.get("views", [])}
    for taken in steps:
        if taken.changes is not None and mirrors == (taken.since, taken.was):
            statements = taken.changes
        else:
            for kind in ("view", "table"):
                for name in made[f"{kind}s"]:
                    connection.execute(f"DROP {kind.upper()} IF EXISTS"
                                       f" {quoted(name, DIALECT)} CASCADE")
            for statement in dropped_tables(taken.layout.tables, DIALECT):
                connection.execute(statement.sql)
            connection.execute(taken.layout.script)
            statements = population_statements(taken.layout.tables, taken.state, DIALECT)
            made = {"tables": taken.layout.names, "views": list(taken.layout.views)}
        for statement in statements:
            connection.execute(statement.sql, statement.parameters)
        mirrors = (taken.sequence, taken.layout.digest)
    record = json.dumps({"sequence": mirrors[0], "layout": mirrors[1], **made})
    connection.execute("INSERT INTO arest_meta VALUES ('mirror', %s) ON CONFLICT (name)"
                       " DO UPDATE SET value = excluded.value", (record,))


class Mirror:
    """A tenant's mirror: its appends carry the mirror's steps, and :meth:`bring_to` makes
    the tables mirror D on open.  A step may be worked out before its entry is numbered
    (outside the tenant's commit lock), and numbered when it is appended."""

    def __init__(self, storage: MirroringStorage) -> None:
        self._storage = storage
        self._layouts = Layouts()

    def step(self, before: State, after: State, delta: Delta, sequence: int = 0) -> Step:
        """The step taking the tables from D to D′, as entry ``sequence``."""
        return step(self._layouts, before, after, delta, sequence)

    def append(self, batch: Sequence[tuple[Pending, Step]]) -> None:
        """Append the entries, each taking the tables a step further, in one transaction;
        a step worked out before its entry was numbered takes the entry's number."""
        steps = [replace(taken, since=entry.sequence - 1, sequence=entry.sequence)
                 for entry, taken in batch]
        self._storage.append([entry for entry, _ in batch],
                             within=lambda connection: run(steps, connection))

    def bring_to(self, state: State, sequence: int) -> bool:
        """Make the tables mirror D, the journal's entry ``sequence``, unless they do; False
        (nothing done) when the journal has gone past it."""
        taken = current(self._layouts, state, sequence)
        return self._storage.at_last_entry(sequence,
                                           lambda connection: run([taken], connection))
