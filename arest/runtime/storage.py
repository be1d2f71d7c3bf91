"""Where a tenant's accepted commands are kept: a journal, in memory, in SQLite or in
PostgreSQL (:mod:`arest.runtime.postgres`, shared by several processes).

A journal entry is one accepted command: its sequence number, key, input and context (the
time and the signal source), so that replaying the journal on the same readings rebuilds the
same D; and, written in the same row, the digest of the asserted facts after it and the
asserted facts it added and removed (:mod:`arest.runtime.digest`), so that a replay is
checked entry by entry and the latest facts can be listed.  Entries are appended in
batches, one transaction each (a group commit: one fsync for the commands that arrived
while the last batch was being written).  SQLite runs in WAL mode with ``synchronous=FULL``:
a batch is on disk when :meth:`Storage.append` returns.

A checkpoint keeps the cells that changed since the one before, the sequence number they
are as of, and the digest of their asserted facts, in one transaction.  The shared cells a
cell refers to (a snapshot's cells, :mod:`arest.runtime.codec`) are kept once each, by
address, whatever number of cells refer to them; one no cell refers to any more is dropped
in the checkpoint that dropped the last reference.

Every method may be called from any thread: each storage serializes its own work.
"""

# No `from __future__ import annotations` here: typing compiles a NamedTuple's annotations
# given as text, and the first compile() of a process sets up the AST's types (about 1.5 ms
# of a reopen; tests/runtime/test_compiled.py checks a reopen compiles nothing).
import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from itertools import chain
from pathlib import Path
from typing import Any, NamedTuple, Protocol, runtime_checkable

from arest.records import record
from arest.runtime.codec import Encoded
from arest.runtime.database_url import is_postgresql
from arest.runtime.integrity import FORMAT, OLDER_FORMATS, StorageError, check, create
from arest.runtime.lockfile import LockFile

__all__ = ["FORMAT", "OLDER_FORMATS", "Entry", "JournalMoved", "MemoryStorage", "Pending",
           "Restored", "SharedStorage", "SqliteStorage", "Storage", "StorageError", "open_storage"]


class JournalMoved(StorageError):
    """Raised by a shared storage's ``append`` when another process kept an entry under one
    of the batch's sequence numbers first; nothing of the batch is kept.  The appender
    reads the entries it missed and tries again."""

class Entry(NamedTuple):
    """One accepted command as kept: ``digest`` is the digest of the asserted facts after
    it (None in an older format), ``facts`` the JSON text of what it added and removed."""

    sequence: int
    key: str
    input: Any
    context: dict[str, str]
    digest: str | None = None
    facts: str | None = None


class Pending(NamedTuple):
    """An accepted command on its way to the journal: its input and context as the JSON
    texts to keep, and its sequence number, which the tenant gives."""

    sequence: int
    key: str
    input: str
    context: str
    digest: str
    facts: str


@record
class Restored:
    """The last checkpoint: its sequence number, every cell, its digest (None when an
    older format wrote it), and the shared cells the cells refer to (address → text)."""

    sequence: int
    cells: dict[str, str]
    digest: str | None
    shared: dict[str, str]


class Storage(Protocol):
    """A journal of accepted commands, with checkpoints of D."""

    durable: bool
    """Whether the journal outlives the process (only then are checkpoints worth keeping)."""

    def append(self, batch: Sequence[Pending]) -> None:
        """Keep accepted commands, in sequence order after those kept, in one transaction;
        durable when this returns, and not kept at all when it raises."""
        ...

    def entries(self, after: int = 0) -> Iterator[Entry]:
        """The kept commands after sequence number ``after``, in order."""
        ...

    def recent(self, before: int | None, count: int) -> list[Entry]:
        """Up to ``count`` kept commands that recorded their facts, newest first, with a
        sequence number below ``before`` (None: the newest)."""
        ...

    def base(self, key: str) -> str | None:
        """The compiled state kept for readings with this key (:mod:`arest.runtime.codec`)."""
        ...

    def keep_base(self, key: str, state: str) -> None:
        """Keep the compiled state of the readings with this key, in place of any other."""
        ...

    def checkpoint(self, sequence: int, key: str, cells: dict[str, Encoded | None],
                   digest: str, since: int | None = None) -> bool:
        """Keep the cells that changed (None: gone) since the checkpoint as of ``since``
        (None: ``cells`` is every cell), as of journal entry ``sequence``, for the readings
        with this key, with the digest of D's asserted facts; one transaction.  Each shared
        cell is kept once, and one that no cell refers to any more is dropped.  False when
        a shared storage holds another checkpoint than ``since`` (nothing kept: give every
        cell); a storage with one writer holds the one it last kept and answers True."""
        ...

    def restore(self, key: str) -> Restored | None:
        """The last checkpoint for readings with this key."""
        ...

    def disk_space_bytes(self) -> int:
        """The bytes the database takes on disk (0 in memory)."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class SharedStorage(Storage, Protocol):
    """A journal other processes append to as well: an append may raise
    :class:`JournalMoved`, and the entries a process missed are read from the journal."""

    def last_sequence(self) -> int:
        """The sequence number of the last entry kept, by any process (0: none)."""
        ...

    def await_news(self, timeout: float) -> int | None:
        """Wait up to ``timeout`` seconds for a commit to be announced (by any process, this
        one too); the last sequence number announced since the last call, or None when
        none was in that time (or announcements may have been lost).  For one thread at a
        time."""
        ...


class MemoryStorage:
    """A journal that lives as long as the process: for tests and ``:memory:`` tenants."""

    durable = False

    def __init__(self) -> None:
        self._entries: list[Pending] = []  # read back as entries only when asked
        self._base: tuple[str, str] | None = None
        self._lock = threading.Lock()

    def base(self, key: str) -> str | None:
        return self._base[1] if self._base is not None and self._base[0] == key else None

    def keep_base(self, key: str, state: str) -> None:
        self._base = (key, state)

    def checkpoint(self, sequence: int, key: str, cells: dict[str, Encoded | None],
                   digest: str, since: int | None = None) -> bool:
        return True  # a memory journal dies with the process: nothing to restart from

    def restore(self, key: str) -> Restored | None:
        return None

    def append(self, batch: Sequence[Pending]) -> None:
        with self._lock:
            self._entries.extend(batch)

    @staticmethod
    def _entry(kept: Pending) -> Entry:
        return Entry(kept.sequence, kept.key, json.loads(kept.input), json.loads(kept.context),
                     kept.digest, kept.facts)

    def entries(self, after: int = 0) -> Iterator[Entry]:
        with self._lock:
            return map(self._entry, self._entries[after:])

    def recent(self, before: int | None, count: int) -> list[Entry]:
        with self._lock:
            end = len(self._entries) if before is None else max(0, before - 1)
            return [self._entry(kept) for kept in self._entries[max(0, end - count):end][::-1]]

    def disk_space_bytes(self) -> int:
        return 0

    def close(self) -> None:
        return None


ROWS_PER_INSERT = 64
"""The most journal entries one ``INSERT`` appends: 384 parameters, within every SQLite's
limit (999 before 3.32), and few enough statement texts for the connection's cache of
prepared statements (128) to keep them all."""


def _insert(rows: int) -> str:
    """The ``INSERT`` of ``rows`` journal entries.

    >>> _insert(2).partition(" VALUES ")[2]
    '(?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?)'
    """
    return ("INSERT INTO journal (sequence, key, input, context, digest, facts) VALUES "
            + ", ".join(("(?, ?, ?, ?, ?, ?)",) * rows))


_INSERTS = tuple(_insert(rows) for rows in range(ROWS_PER_INSERT + 1))
"""The ``INSERT`` of each number of entries up to ``ROWS_PER_INSERT`` (SQLite's cache keeps
each prepared)."""


def _flat(rows: Sequence[Pending]) -> Sequence[Any]:
    """The parameters of :func:`_insert` for these entries, in order."""
    return rows[0] if len(rows) == 1 else tuple(chain.from_iterable(rows))


class SqliteStorage:
    """The journal in a SQLite file (WAL, full synchronous commits), held with its lock file
    (:mod:`arest.runtime.lockfile`) and checked on open (:mod:`arest.runtime.integrity`)."""

    durable = True

    def __init__(self, path: Path) -> None:
        self.path = path
        real = Path(os.path.realpath(path))  # a symlink locks the file it names
        self._real = real
        self._lock = threading.Lock()
        self._lock_file = LockFile(real, path)
        try:
            self._db, identity, last = _opened(real, str(path), self._lock_file)
        except BaseException:
            self._lock_file.release()
            raise
        self._lock_file.record(last, identity)
        self._appending = self._db.cursor()
        """The cursor every append runs on: ``Connection.execute`` makes a cursor per call."""
        self._closed = False

    def append(self, batch: Sequence[Pending]) -> None:
        if not batch:
            return
        with self._lock:
            db = self._appending
            if len(batch) <= ROWS_PER_INSERT:
                # One statement is its own transaction (SQLite commits a statement outside
                # BEGIN as it ends, with the same fsync): no BEGIN and COMMIT around it, and
                # one release of the interpreter's lock, not three, on the writer's way to
                # the fsync the other threads wait for.
                db.execute(_INSERTS[len(batch)], _flat(batch))
            else:
                db.execute("BEGIN")
                try:
                    for start in range(0, len(batch), ROWS_PER_INSERT):
                        rows = batch[start:start + ROWS_PER_INSERT]
                        db.execute(_INSERTS[len(rows)], _flat(rows))
                    db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        self._db.rollback()
                    raise
            self._lock_file.acknowledge(batch[-1].sequence)

    def _rows(self, query: str, parameters: tuple[Any, ...]) -> list[Any]:
        try:
            with self._lock:
                return self._db.execute(query, parameters).fetchall()
        except sqlite3.DatabaseError as error:
            raise StorageError(f"{self.path}: the journal cannot be read ({error})") from None

    def _entry(self, row: tuple[Any, ...]) -> Entry:
        sequence, key, text, context, digest, facts = row
        try:
            return Entry(sequence, key, json.loads(text), json.loads(context), digest, facts)
        except (TypeError, ValueError):
            raise StorageError(
                f"{self.path}: journal entry {sequence} is damaged ({text[:40]!r})"
            ) from None

    def entries(self, after: int = 0) -> Iterator[Entry]:
        rows = self._rows("SELECT sequence, key, input, context, digest, facts FROM journal"
                          " WHERE sequence > ? ORDER BY sequence", (after,))
        return map(self._entry, rows)

    def recent(self, before: int | None, count: int) -> list[Entry]:
        rows = self._rows(
            "SELECT sequence, key, input, context, digest, facts FROM journal"
            " WHERE sequence < ? AND facts IS NOT NULL ORDER BY sequence DESC LIMIT ?",
            (2**62 if before is None else before, count),
        )
        return [self._entry(row) for row in rows]

    def base(self, key: str) -> str | None:
        rows = self._rows("SELECT state FROM base WHERE key = ?", (key,))
        return None if not rows or rows[0][0] is None else str(rows[0][0])

    def keep_base(self, key: str, state: str) -> None:
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute("DELETE FROM base")
            self._db.execute("INSERT INTO base VALUES (?, ?)", (key, state))

    def checkpoint(self, sequence: int, key: str, cells: dict[str, Encoded | None],
                   digest: str, since: int | None = None) -> bool:
        with self._lock, self._db:
            self._db.execute("BEGIN")
            stored = self._db.execute("SELECT value FROM meta WHERE name='checkpoint key'")
            if (row := stored.fetchone()) is None or row[0] != key:
                for table in ("cells", "refers", "shared"):  # other readings' cells are no use
                    self._db.execute(f"DELETE FROM {table}")
            # Each kind of row in one statement for all the cells (a first checkpoint writes
            # hundreds): within the transaction the rows kept are those of a statement per
            # cell, as the cells given touch only their own cells and refers rows.
            dropped = self._db.executemany("DELETE FROM refers WHERE cell = ?",
                                           [(name,) for name in cells])
            referring = dropped.rowcount > 0  # summed over the names
            kept = [(name, contents) for name, contents in cells.items() if contents is not None]
            self._db.executemany("DELETE FROM cells WHERE name = ?",
                                 [(name,) for name, contents in cells.items() if contents is None])
            self._db.executemany("INSERT OR REPLACE INTO cells VALUES (?, ?)",
                                 [(name, contents.text) for name, contents in kept])
            self._db.executemany("INSERT OR IGNORE INTO shared VALUES (?, ?)",
                                 [item for _, contents in kept for item in contents.shared.items()])
            self._db.executemany("INSERT INTO refers VALUES (?, ?)",
                                 [(name, where) for name, contents in kept
                                  for where in contents.shared])
            if referring:
                self._db.execute("DELETE FROM shared WHERE address NOT IN"
                                 " (SELECT address FROM refers)")
            self._db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [
                ("checkpoint key", key), ("checkpoint", str(sequence)),
                ("checkpoint digest", digest)])
        return True

    def restore(self, key: str) -> Restored | None:
        meta = dict(self._rows("SELECT name, value FROM meta", ()))
        if meta.get("checkpoint key") != key or "checkpoint" not in meta:
            return None
        cells = dict(self._rows("SELECT name, contents FROM cells", ()))
        shared = dict(self._rows("SELECT address, contents FROM shared", ()))
        return Restored(int(meta["checkpoint"]), cells, meta.get("checkpoint digest"), shared)

    def disk_space_bytes(self) -> int:
        total = 0
        for suffix in ("", "-wal", "-shm"):
            # A missing file is one SQLite has not made, or has removed.
            with contextlib.suppress(OSError):
                total += os.path.getsize(f"{self._real}{suffix}")
        return total

    def close(self) -> None:
        """Mark the database closed and fold the write-ahead log into the file, so the file
        alone holds every entry; then let it go."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                _fold(self._db, open_=False)
            except sqlite3.DatabaseError:
                pass  # the entries are in the log, which the next open reads
            finally:
                self._db.close()
                self._lock_file.release()


def _fold(db: sqlite3.Connection, open_: bool) -> None:
    """Record whether the database is open, then fold the write-ahead log into the file
    (``wal_checkpoint(TRUNCATE)``; a reader, such as a backup, may hold part of it back)."""
    db.execute("INSERT OR REPLACE INTO meta VALUES ('open', ?)", ("1" if open_ else "0",))
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()


def _opened(real: Path, shown: str, lock_file: LockFile) -> tuple[sqlite3.Connection, str, int]:
    """The connection to a checked database (made whole when there is no file), its
    identity and its last journal entry; the database is then marked open."""
    try:
        existed = real.exists()
        if existed and real.stat().st_size == 0:
            raise StorageError(
                f"{shown}: the file is empty (0 bytes): its contents were lost, or its making"
                " was cut short; restore it from a backup, or remove it to start anew")
        wal_present = os.path.exists(f"{real}-wal")
        db = sqlite3.connect(real, isolation_level=None, check_same_thread=False)
    except (OSError, sqlite3.Error) as error:
        raise StorageError(f"{shown}: cannot be opened ({error})") from None
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        identity = check(db, shown, wal_present, lock_file.previous) if existed else create(db)
        (last,) = db.execute("SELECT coalesce(max(sequence), 0) FROM journal").fetchone()
        _fold(db, open_=True)
    except sqlite3.DatabaseError as error:
        db.close()
        raise StorageError(f"{shown}: not a usable arest database ({error})") from None
    except BaseException:
        db.close()
        raise
    return db, identity, int(last)


def open_storage(db: str | Path) -> Storage:
    """``:memory:`` → :class:`MemoryStorage`; ``postgresql://…`` → ``PostgresStorage``
    (:mod:`arest.runtime.postgres`, which needs psycopg); a path → :class:`SqliteStorage`.

    >>> journal = open_storage(":memory:")
    >>> journal.append([Pending(1, "create:Order", '{"id": "o1"}', '{"source": "Agent"}',
    ...                         "v1:0", "{}")])
    >>> [(e.sequence, e.key, e.input, e.context) for e in journal.entries()]
    [(1, 'create:Order', {'id': 'o1'}, {'source': 'Agent'})]
    >>> journal.durable, journal.restore("readings"), journal.disk_space_bytes()
    (False, None, 0)
    """
    if str(db) == ":memory:":
        return MemoryStorage()
    if is_postgresql(db):
        try:
            from arest.runtime.postgres import PostgresStorage
        except ImportError as error:
            raise StorageError(
                f"a PostgreSQL database needs psycopg ({error}): pip install"
                " 'arest[postgresql]'") from None
        return PostgresStorage(db)
    return SqliteStorage(Path(db))
