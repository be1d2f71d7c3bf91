"""Where a tenant's accepted commands are kept: a journal, in memory or in SQLite.

A journal entry is one accepted command: its sequence number, key, input and context (the
time and the signal source), so that replaying the journal on the same readings rebuilds the
same D.  SQLite runs in WAL mode with ``synchronous=FULL``: an entry is on disk when
:meth:`Storage.append` returns.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

FORMAT = "arest-journal-1"


class StorageError(RuntimeError):
    """Raised when a database cannot be used: not an arest database, corrupt, truncated, or
    written by another format.  The message names the file and what was found."""


@dataclass(frozen=True)
class Entry:
    sequence: int
    key: str
    input: Any
    context: dict[str, str]


class Storage(Protocol):
    """A journal of accepted commands."""

    def append(self, key: str, request: Any, context: dict[str, str]) -> int:
        """Keep one accepted command; durable when this returns; its sequence number."""
        ...

    def entries(self, after: int = 0) -> Iterator[Entry]:
        """The kept commands after sequence number ``after``, in order."""
        ...

    def base(self, key: str) -> str | None:
        """The compiled state kept for readings with this key (:mod:`arest.runtime.codec`)."""
        ...

    def keep_base(self, key: str, state: str) -> None:
        """Keep the compiled state of the readings with this key, in place of any other."""
        ...

    def checkpoint(self, sequence: int, key: str, cells: dict[str, str | None]) -> None:
        """Keep the cells that changed (None: gone) as of journal entry ``sequence``, for the
        readings with this key; one transaction."""
        ...

    def restore(self, key: str) -> tuple[int, dict[str, str]] | None:
        """The last checkpoint for readings with this key: its sequence and every cell."""
        ...

    def close(self) -> None: ...


class MemoryStorage:
    """A journal that lives as long as the process: for tests and ``:memory:`` tenants."""

    def __init__(self) -> None:
        self._entries: list[Entry] = []
        self._base: tuple[str, str] | None = None

    def base(self, key: str) -> str | None:
        return self._base[1] if self._base is not None and self._base[0] == key else None

    def keep_base(self, key: str, state: str) -> None:
        self._base = (key, state)

    def checkpoint(self, sequence: int, key: str, cells: dict[str, str | None]) -> None:
        return None  # a memory journal dies with the process: nothing to restart from

    def restore(self, key: str) -> tuple[int, dict[str, str]] | None:
        return None

    def append(self, key: str, request: Any, context: dict[str, str]) -> int:
        entry = Entry(len(self._entries) + 1, key, json.loads(json.dumps(request)), dict(context))
        self._entries.append(entry)
        return entry.sequence

    def entries(self, after: int = 0) -> Iterator[Entry]:
        return iter([entry for entry in self._entries if entry.sequence > after])

    def close(self) -> None:
        return None


class SqliteStorage:
    """The journal in a SQLite file (WAL, full synchronous commits)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT)")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS journal (sequence INTEGER PRIMARY KEY, key TEXT NOT"
                " NULL, input TEXT NOT NULL, context TEXT NOT NULL)"
            )
            self._db.execute("CREATE TABLE IF NOT EXISTS base (key TEXT PRIMARY KEY, state TEXT)")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS cells (name TEXT PRIMARY KEY, contents TEXT NOT NULL)"
            )
            self._db.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?)", (FORMAT,))
            (found,) = self._db.execute("SELECT value FROM meta WHERE name='format'").fetchone()
            self._db.execute("PRAGMA quick_check").fetchone()
        except sqlite3.DatabaseError as error:
            raise StorageError(f"{path}: not a usable arest database ({error})") from None
        if found != FORMAT:
            raise StorageError(f"{path}: written in format {found!r}; this arest reads {FORMAT}")

    def append(self, key: str, request: Any, context: dict[str, str]) -> int:
        cursor = self._db.execute(
            "INSERT INTO journal (key, input, context) VALUES (?, ?, ?)",
            (key, json.dumps(request), json.dumps(context)),
        )
        return int(cursor.lastrowid or 0)

    def entries(self, after: int = 0) -> Iterator[Entry]:
        try:
            rows = self._db.execute(
                "SELECT sequence, key, input, context FROM journal WHERE sequence > ?"
                " ORDER BY sequence", (after,),
            ).fetchall()
        except sqlite3.DatabaseError as error:
            raise StorageError(f"{self.path}: the journal cannot be read ({error})") from None
        for sequence, key, text, context in rows:
            try:
                yield Entry(sequence, key, json.loads(text), json.loads(context))
            except ValueError:
                raise StorageError(
                    f"{self.path}: journal entry {sequence} is damaged ({text[:40]!r})"
                ) from None

    def base(self, key: str) -> str | None:
        row = self._db.execute("SELECT state FROM base WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def keep_base(self, key: str, state: str) -> None:
        with self._db:
            self._db.execute("BEGIN")
            self._db.execute("DELETE FROM base")
            self._db.execute("INSERT INTO base VALUES (?, ?)", (key, state))

    def checkpoint(self, sequence: int, key: str, cells: dict[str, str | None]) -> None:
        with self._db:
            self._db.execute("BEGIN")
            stored = self._db.execute("SELECT value FROM meta WHERE name='checkpoint key'")
            if (row := stored.fetchone()) is None or row[0] != key:
                self._db.execute("DELETE FROM cells")  # cells of other readings are no use
            for name, contents in cells.items():
                if contents is None:
                    self._db.execute("DELETE FROM cells WHERE name = ?", (name,))
                else:
                    self._db.execute("INSERT OR REPLACE INTO cells VALUES (?, ?)",
                                     (name, contents))
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('checkpoint key', ?)", (key,))
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('checkpoint', ?)",
                             (str(sequence),))

    def restore(self, key: str) -> tuple[int, dict[str, str]] | None:
        meta = dict(self._db.execute("SELECT name, value FROM meta").fetchall())
        if meta.get("checkpoint key") != key or "checkpoint" not in meta:
            return None
        cells = dict(self._db.execute("SELECT name, contents FROM cells").fetchall())
        return int(meta["checkpoint"]), cells

    def close(self) -> None:
        self._db.close()


def open_storage(db: str | Path) -> Storage:
    """``:memory:`` → :class:`MemoryStorage`; a path → :class:`SqliteStorage`."""
    if str(db) == ":memory:":
        return MemoryStorage()
    return SqliteStorage(Path(db))
