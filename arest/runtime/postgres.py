"""The journal in PostgreSQL: one schema per tenant, shared by every process that serves it.

``postgresql://user@host/db?tenant=shop`` names the database and, by its ``tenant``
parameter (``arest`` when absent), the schema that holds the tenant; every other parameter
goes to libpq as it is.  The schema holds the tables of :mod:`arest.runtime.storage`'s SQLite
format, prefixed ``arest_`` so that they sit beside tables mirroring the population:

- ``arest_journal``: one row per accepted command, ``sequence`` its primary key: two
  processes appending under one sequence number conflict, and the one that loses gets
  :class:`~arest.runtime.storage.JournalMoved` (it catches up and tries again);
- ``arest_meta``, ``arest_cells``, ``arest_shared``, ``arest_refers``: the last checkpoint,
  written by one process at a time (an advisory lock), never going back;
- ``arest_base``: the compiled base readings.

Each append notifies the channel named after the schema (``NOTIFY``, delivered when its
transaction commits), so every other process can follow (:meth:`PostgresStorage.await_news`).
An append's transaction may run the caller's own statements too (``within``), so that what
they write commits or vanishes with the journal entry: the tenant mirrors the facts into the
Rmap tables so (:mod:`arest.runtime.mirroring`).

psycopg 3 (``pip install 'arest[postgresql]'``) is imported by this module only; the
embedded install never loads it.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg import sql

from arest.runtime.codec import Encoded
from arest.runtime.database_url import shown, split_tenant
from arest.runtime.storage import Entry, JournalMoved, Pending, Restored, StorageError

FORMAT = "arest-postgresql-1"
"""What ``arest_meta`` records as the schema's format."""

TABLES = {
    "arest_meta": "(name text PRIMARY KEY, value text NOT NULL)",
    "arest_journal": "(sequence bigint PRIMARY KEY, key text NOT NULL, input text NOT NULL,"
                     " context text NOT NULL, digest text NOT NULL, facts text NOT NULL)",
    "arest_base": "(key text PRIMARY KEY, state text NOT NULL)",
    "arest_cells": "(name text PRIMARY KEY, contents text NOT NULL)",
    "arest_shared": "(address text PRIMARY KEY, contents text NOT NULL)",
    "arest_refers": "(cell text NOT NULL, address text NOT NULL, PRIMARY KEY (cell, address))",
}


class PostgresStorage:
    """A tenant's journal and checkpoints in a schema of a PostgreSQL database: one
    connection for the storage's work (serialized, as SQLite's), one that listens."""

    durable = True

    def __init__(self, url: str) -> None:
        self.path = shown(url)
        self._connect_to, self.tenant = split_tenant(url)
        self._schema = sql.Identifier(self.tenant)
        self._channel = f"arest_{self.tenant}"
        self._lock = threading.Lock()
        with _Failing(self.path, "cannot connect"):
            self._db = psycopg.connect(self._connect_to, autocommit=True)
        try:
            self._listening = self._listener()
            self._made_or_checked()
        except BaseException:
            self.close()
            raise

    def _listener(self) -> psycopg.Connection[Any]:
        with _Failing(self.path, "cannot connect"):
            listening = psycopg.connect(self._connect_to, autocommit=True)
            listening.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self._channel)))
        return listening

    @contextmanager
    def _working(self, what: str) -> Iterator[psycopg.Connection[Any]]:
        """Within: the storage's connection, held by this thread alone, connected again when
        it was lost (a restarted server); a psycopg error becomes a :class:`StorageError`
        saying what could not be done."""
        with self._lock, _Failing(self.path, what):
            if self._db.broken:
                self._db = psycopg.connect(self._connect_to, autocommit=True)
            yield self._db

    def _statement(self, text: str) -> sql.Composed:
        """A statement whose ``{s}`` is the tenant's schema."""
        return sql.SQL(text).format(s=self._schema)

    def _made_or_checked(self) -> None:
        """Make the schema whole on first use (one transaction, one maker at a time: the
        advisory lock keeps two processes starting together from racing), else check it."""
        with self._working("cannot be opened"), self._db.transaction():
            self._db.execute("SELECT pg_advisory_xact_lock(hashtext(%s))",
                             (f"arest schema {self.tenant}",))
            tables = {name for (name,) in self._db.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
                (self.tenant,))}
            if "arest_meta" not in tables:
                if tables & set(TABLES):
                    raise StorageError(f"{self.path}: tenant {self.tenant} has lost its"
                                       " arest_meta table; restore the schema from a backup")
                self._create()
                return
            self._check(tables)

    def _create(self) -> None:
        self._db.execute(self._statement("CREATE SCHEMA IF NOT EXISTS {s}"))
        for name, columns in TABLES.items():
            self._db.execute(self._statement(f"CREATE TABLE {{s}}.{name} {columns}"))
        self._db.execute(self._statement("CREATE INDEX ON {s}.arest_refers (address)"))
        with self._db.cursor() as cursor:
            cursor.executemany(self._statement("INSERT INTO {s}.arest_meta VALUES (%s, %s)"),
                               [("format", FORMAT), ("database id", secrets.token_hex(16))])

    def _check(self, tables: set[str]) -> None:
        """The schema is arest's, of this format, whole, and its journal runs 1, 2, … with no
        gap, as far as its checkpoint at least."""
        meta = self._meta()
        if meta.get("format") != FORMAT:
            raise StorageError(f"{self.path}: tenant {self.tenant} is written in format"
                               f" {meta.get('format')!r}; this arest reads {FORMAT}")
        if missing := sorted(set(TABLES) - tables):
            raise StorageError(f"{self.path}: tenant {self.tenant} has lost its"
                               f" {', '.join(missing)}; restore the schema from a backup")
        row = self._db.execute(self._statement(
            "SELECT count(*), coalesce(min(sequence), 0), coalesce(max(sequence), 0)"
            " FROM {s}.arest_journal")).fetchone()
        count, first, last = row if row is not None else (0, 0, 0)
        if count and (first != 1 or last != count):
            raise StorageError(f"{self.path}: the journal of tenant {self.tenant} has lost"
                               f" entries: it holds {count} of entries {first} to {last}")
        if int(meta.get("checkpoint", "0")) > last:
            raise StorageError(f"{self.path}: the journal of tenant {self.tenant} ends at"
                               f" entry {last}, before its checkpoint: entries were lost")

    def _meta(self) -> dict[str, str]:
        rows = self._db.execute(self._statement("SELECT name, value FROM {s}.arest_meta"))
        return {str(name): str(value) for name, value in rows}

    def append(self, batch: Sequence[Pending],
               within: Callable[[psycopg.Connection[Any]], None] | None = None) -> None:
        """Keep the batch in one transaction, and notify the other processes when it
        commits; :class:`JournalMoved` when another process kept an entry under one of its
        sequence numbers first (nothing kept).  ``within`` runs in the same transaction,
        after the entries are written, given the connection: what it writes commits with
        them, and an error it raises keeps nothing."""
        if not batch:
            return
        with self._working("cannot keep the journal"), self._db.transaction(), \
                self._db.cursor() as cursor:
            try:
                cursor.executemany(self._statement(
                    "INSERT INTO {s}.arest_journal (sequence, key, input, context, digest,"
                    " facts) VALUES (%s, %s, %s, %s, %s, %s)"), batch)
            except psycopg.errors.UniqueViolation:
                raise JournalMoved(f"{self.path}: journal entry {batch[0].sequence} of tenant"
                                   f" {self.tenant} was kept by another process") from None
            if within is not None:
                self._within(within, f"journal entry {batch[-1].sequence}")
            cursor.execute("SELECT pg_notify(%s, %s)",
                           (self._channel, str(batch[-1].sequence)))

    def _within(self, within: Callable[[psycopg.Connection[Any]], None], what: str) -> None:
        """Run the caller's statements, the tenant's schema first on the search path; a
        database error they meet is a :class:`StorageError` saying so (not a conflict)."""
        self._db.execute(self._statement("SET LOCAL search_path TO {s}"))
        try:
            within(self._db)
        except psycopg.Error as error:
            raise StorageError(f"{self.path}: the statements in the transaction of {what}"
                               f" of tenant {self.tenant} failed ({_reason(error)});"
                               " nothing was kept") from None

    def at_last_entry(self, sequence: int,
                      within: Callable[[psycopg.Connection[Any]], None]) -> bool:
        """Run ``within`` in a transaction during which no entry is appended, when the
        journal's last entry is ``sequence``; False (nothing run) when it is another."""
        with self._working("cannot mirror the facts"), self._db.transaction():
            # Appends wait until this commits; two of these wait for each other.
            self._db.execute(self._statement(
                "LOCK TABLE {s}.arest_journal IN SHARE ROW EXCLUSIVE MODE"))
            row = self._db.execute(self._statement(
                "SELECT coalesce(max(sequence), 0) FROM {s}.arest_journal")).fetchone()
            if row is None or int(row[0]) != sequence:
                return False
            self._within(within, f"the mirror at entry {sequence}")
        return True

    def last_sequence(self) -> int:
        """The sequence number of the last entry kept, by any process (0: none)."""
        rows = self._rows("SELECT coalesce(max(sequence), 0) FROM {s}.arest_journal", ())
        return int(rows[0][0])

    def await_news(self, timeout: float) -> int | None:
        """Wait up to ``timeout`` seconds for a commit to be announced; the last sequence
        number announced since the last call (those waiting are read at once), or None when
        none came, or when the listening connection was lost and made again (announcements
        were lost with it).  For one thread at a time."""
        try:
            if self._listening.broken or self._listening.closed:
                self._listening.close()  # a reconnection that fails leaves it closed
                self._listening = self._listener()
                return None
            announced = [int(notice.payload) for notice in
                         self._listening.notifies(timeout=timeout, stop_after=1)]
            if announced:
                announced += [int(notice.payload) for notice in
                              self._listening.notifies(timeout=0)]
        except psycopg.Error as error:
            raise StorageError(f"{self.path}: stopped hearing from the database"
                               f" ({_reason(error)})") from None
        except ValueError:
            return None  # a payload not ours on our channel: read the journal to be sure
        return max(announced, default=None)

    def _rows(self, query: str, parameters: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self._working("cannot be read"):
            return self._db.execute(self._statement(query), parameters).fetchall()

    def _entry(self, row: tuple[Any, ...]) -> Entry:
        sequence, key, text, context, digest, facts = row
        try:
            return Entry(sequence, key, json.loads(text), json.loads(context), digest, facts)
        except (TypeError, ValueError):
            raise StorageError(f"{self.path}: journal entry {sequence} of tenant {self.tenant}"
                               f" is damaged ({text[:40]!r})") from None

    def entries(self, after: int = 0) -> Iterator[Entry]:
        rows = self._rows("SELECT sequence, key, input, context, digest, facts"
                          " FROM {s}.arest_journal WHERE sequence > %s ORDER BY sequence",
                          (after,))
        return map(self._entry, rows)

    def recent(self, before: int | None, count: int) -> list[Entry]:
        rows = self._rows("SELECT sequence, key, input, context, digest, facts"
                          " FROM {s}.arest_journal WHERE sequence < %s"
                          " ORDER BY sequence DESC LIMIT %s",
                          (2**62 if before is None else before, count))
        return [self._entry(row) for row in rows]

    def base(self, key: str) -> str | None:
        rows = self._rows("SELECT state FROM {s}.arest_base WHERE key = %s", (key,))
        return str(rows[0][0]) if rows else None

    def keep_base(self, key: str, state: str) -> None:
        with self._working("cannot keep the base"), self._db.transaction():
            self._db.execute(self._statement("DELETE FROM {s}.arest_base WHERE key <> %s"),
                             (key,))
            self._db.execute(self._statement(
                "INSERT INTO {s}.arest_base VALUES (%s, %s) ON CONFLICT (key)"
                " DO UPDATE SET state = excluded.state"), (key, state))

    def checkpoint(self, sequence: int, key: str, cells: dict[str, Encoded | None],
                   digest: str, since: int | None = None) -> bool:
        """Keep the cells changed since the checkpoint as of ``since`` (None: ``cells`` is
        every cell, and any other is dropped); False, keeping nothing, when the checkpoint
        kept now is another (a process checkpointed meanwhile): then give every cell.  A
        checkpoint as new as ``sequence`` or newer is left as it is, and so is one under
        other readings unless ``cells`` is every cell (a process that opened under new
        readings replaces it; one still running on the old readings does not)."""
        with self._working("cannot keep a checkpoint"), self._db.transaction():
            # One checkpointer at a time, the first checkpoint too (no row to lock yet).
            self._db.execute("SELECT pg_advisory_xact_lock(hashtext(%s))",
                             (f"arest checkpoint {self.tenant}",))
            kept = self._meta()
            same_key = kept.get("checkpoint key", key) == key
            at = int(kept["checkpoint"]) if same_key and "checkpoint" in kept else None
            if at is not None and at >= sequence:
                return True
            if since is not None and not same_key:
                return True  # a process on other readings leaves their checkpoint alone
            if since is not None and at != since:
                return False
            self._write_cells(cells, whole=since is None or not same_key)
            with self._db.cursor() as cursor:
                cursor.executemany(self._statement(
                    "INSERT INTO {s}.arest_meta VALUES (%s, %s) ON CONFLICT (name)"
                    " DO UPDATE SET value = excluded.value"), [
                    ("checkpoint key", key), ("checkpoint", str(sequence)),
                    ("checkpoint digest", digest)])
        return True

    def _write_cells(self, cells: dict[str, Encoded | None], whole: bool) -> None:
        with self._db.cursor() as cursor:
            if whole:
                for table in ("arest_cells", "arest_refers", "arest_shared"):
                    cursor.execute(self._statement(f"DELETE FROM {{s}}.{table}"))
            gone = list(cells)
            cursor.execute(self._statement(
                "DELETE FROM {s}.arest_refers WHERE cell = ANY(%s)"), (gone,))
            referring = cursor.rowcount > 0
            cursor.execute(self._statement("DELETE FROM {s}.arest_cells WHERE name = ANY(%s)"),
                           ([name for name, contents in cells.items() if contents is None],))
            kept = [(name, contents) for name, contents in cells.items() if contents is not None]
            cursor.executemany(self._statement(
                "INSERT INTO {s}.arest_cells VALUES (%s, %s) ON CONFLICT (name)"
                " DO UPDATE SET contents = excluded.contents"),
                [(name, contents.text) for name, contents in kept])
            cursor.executemany(self._statement(
                "INSERT INTO {s}.arest_shared VALUES (%s, %s) ON CONFLICT DO NOTHING"),
                [pair for _, contents in kept for pair in contents.shared.items()])
            cursor.executemany(self._statement("INSERT INTO {s}.arest_refers VALUES (%s, %s)"),
                               [(name, where) for name, contents in kept
                                for where in contents.shared])
            if referring:
                cursor.execute(self._statement(
                    "DELETE FROM {s}.arest_shared WHERE address NOT IN"
                    " (SELECT address FROM {s}.arest_refers)"))

    def restore(self, key: str) -> Restored | None:
        """The last checkpoint for these readings, read as of one moment (a checkpoint
        another process keeps meanwhile is not half read)."""
        with self._working("cannot be read"), self._db.transaction():
            self._db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            meta = self._meta()
            if meta.get("checkpoint key") != key or "checkpoint" not in meta:
                return None
            cells: dict[str, str] = dict(self._db.execute(self._statement(
                "SELECT name, contents FROM {s}.arest_cells")).fetchall())
            shared: dict[str, str] = dict(self._db.execute(self._statement(
                "SELECT address, contents FROM {s}.arest_shared")).fetchall())
        return Restored(int(meta["checkpoint"]), cells, meta.get("checkpoint digest"), shared)

    def disk_space_bytes(self) -> int:
        """The bytes the tenant's tables and their indexes take."""
        rows = self._rows("SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)"
                          " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                          " WHERE n.nspname = %s AND c.relkind = 'r'", (self.tenant,))
        return int(rows[0][0])

    def close(self) -> None:
        with self._lock:
            for connection in (getattr(self, "_db", None), getattr(self, "_listening", None)):
                if connection is not None:
                    connection.close()


class _Failing:
    """Within: a psycopg error becomes a :class:`StorageError` naming the database."""

    def __init__(self, path: str, what: str) -> None:
        self.path, self.what = path, what

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: object) -> None:
        if isinstance(error, psycopg.Error):
            raise StorageError(f"{self.path}: {self.what} ({_reason(error)})") from None


def _reason(error: psycopg.Error) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
