"""What a database must hold when it is opened: damage is a :class:`StorageError`, never an
empty or partial tenant.

A new database (no file at the path) is made whole in one transaction: every table, its
format, an identity (``database id``, random) and the last journal entry that may lack a
digest (``unchecked through``: 0, or the last entry an upgrade from format 1 found).  An
existing file must show what it recorded of itself:

- it is an arest database: not empty (0 bytes), with a ``meta`` table naming a format this
  arest reads, and every table of that format (a dropped table is not made again empty);
- ``PRAGMA quick_check`` answers ``ok``;
- it was closed, or its write-ahead log is there: an open writes ``open = 1`` and folds the
  log into the file at once, a clean close writes ``open = 0`` and folds it again; so a file
  that says ``open = 1`` with no ``-wal`` beside it lost the entries the log held (the log
  was deleted, or the file was copied alone from a live tenant);
- its journal runs 1, 2, … with no gap, at least as far as its checkpoint, and as far as the
  last entry acknowledged for this database (the lock file's record,
  :mod:`arest.runtime.lockfile`): a shorter journal lost acknowledged entries (a truncated
  log, an older copy of the file put in its place);
- every entry after ``unchecked through`` has its digest and facts.

An older format-3 database, made before the identity was kept, gets one on its first open,
with ``unchecked through`` its last entry without a digest.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable

from arest.errors import ArestError
from arest.runtime.lockfile import Acknowledged

FORMAT = "arest-journal-3"
"""Format 2 added each entry's digest and facts, and the checkpoint's digest; format 3 adds
the shared cells of checkpointed snapshots, kept once each."""

OLDER_FORMATS = ("arest-journal-2", "arest-journal-1")
"""Formats opened by adding what later formats added.  Format 1's entries and checkpoint
carry no digest, so they are replayed unchecked, as they were written.  Both kept their
checkpoint and base in codec format 1 (snapshots whole), under a readings key that is not
this arest's: their journal is replayed once and D checkpointed anew."""

TABLES = {
    "meta": "(name TEXT PRIMARY KEY, value TEXT)",
    "journal": "(sequence INTEGER PRIMARY KEY, key TEXT NOT NULL, input TEXT NOT NULL,"
               " context TEXT NOT NULL, digest TEXT, facts TEXT)",
    "base": "(key TEXT PRIMARY KEY, state TEXT)",
    "cells": "(name TEXT PRIMARY KEY, contents TEXT NOT NULL)",
    "shared": "(address TEXT PRIMARY KEY, contents TEXT NOT NULL)",
    "refers": "(cell TEXT NOT NULL, address TEXT NOT NULL, PRIMARY KEY (cell, address))",
}
"""The tables of format 3; ``shared`` and ``refers`` are the ones format 3 added."""

ADDED_IN_FORMAT_3 = ("shared", "refers")


class StorageError(ArestError, RuntimeError):
    """Raised when a database cannot be used: not an arest database, empty, corrupt,
    truncated, missing a table or its write-ahead log, holding a journal shorter than what
    was acknowledged or with an entry that lost its digest, written by another format, or
    whose replay does not give the asserted facts it recorded.  The message names the file
    and what was found."""


def _make_tables(db: sqlite3.Connection, names: Iterable[str] = tuple(TABLES)) -> None:
    for name in names:
        db.execute(f"CREATE TABLE IF NOT EXISTS {name} {TABLES[name]}")
    db.execute("CREATE INDEX IF NOT EXISTS referred ON refers (address)")


def create(db: sqlite3.Connection) -> str:
    """Make a new database whole, in one transaction; its identity."""
    # ``secrets.token_hex(16)``, without importing ``secrets`` (and ``random``, ``hmac``,
    # ``base64`` with it, about 2.5 ms of a new database's start): both read os.urandom.
    identity = os.urandom(16).hex()
    db.execute("BEGIN")
    _make_tables(db)
    db.executemany("INSERT INTO meta VALUES (?, ?)", [
        ("format", FORMAT), ("database id", identity), ("unchecked through", "0")])
    db.execute("COMMIT")
    return identity


def _meta(db: sqlite3.Connection) -> dict[str, str]:
    return {str(name): str(value) for name, value in db.execute("SELECT name, value FROM meta")}


def check(db: sqlite3.Connection, shown: str, wal_present: bool,
          previous: Acknowledged | None) -> str:
    """Check an existing database (see the module), upgrade an older format; its identity.
    Raises :class:`StorageError` naming what is wrong; sqlite3 errors are the caller's."""
    tables = {str(name) for (name,) in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "meta" not in tables or (meta := _meta(db)).get("format") is None:
        raise StorageError(f"{shown}: holds no arest database (no format recorded)")
    found = meta["format"]
    if found != FORMAT and found not in OLDER_FORMATS:
        raise StorageError(f"{shown}: written in format {found!r}; this arest reads {FORMAT}"
                           f" and {', '.join(OLDER_FORMATS)}")
    verdict = [str(row[0]) for row in db.execute("PRAGMA quick_check")]
    if verdict != ["ok"]:
        raise StorageError(f"{shown}: the file is damaged (quick_check: {'; '.join(verdict[:5])})")
    required = [name for name in TABLES if found == FORMAT or name not in ADDED_IN_FORMAT_3]
    if missing := [name for name in required if name not in tables]:
        raise StorageError(f"{shown}: has lost its {', '.join(missing)} table"
                           f"{'s' if len(missing) > 1 else ''}; restore it from a backup")
    if meta.get("open") == "1" and not wal_present:
        raise StorageError(
            f"{shown}: was not closed and its write-ahead log ({shown}-wal) is missing, so the"
            " entries it held are lost (a file copied alone from a running tenant is not a"
            " backup: use `arest backup`); restore it from a backup")
    if found != FORMAT:
        _upgrade(db, found)
        meta = _meta(db)
    if "database id" not in meta:
        meta = _identify(db)
    _check_journal(db, shown, meta, previous)
    return meta["database id"]


def _upgrade(db: sqlite3.Connection, found: str) -> None:
    """Format 1 → 2: the journal gains its digest and facts columns, empty for the entries
    already there (the last of them is ``unchecked through``).  2 → 3: the tables of shared
    cells."""
    db.execute("BEGIN")
    columns = {row[1] for row in db.execute("PRAGMA table_info(journal)")}
    for column in ("digest", "facts"):
        if column not in columns:
            db.execute(f"ALTER TABLE journal ADD COLUMN {column} TEXT")
    _make_tables(db, ADDED_IN_FORMAT_3)
    db.execute("UPDATE meta SET value = ? WHERE name = 'format'", (FORMAT,))
    db.execute("COMMIT")


def _identify(db: sqlite3.Connection) -> dict[str, str]:
    """Give a database made before identities were kept its identity, taking its entries
    without a digest as they are (they are format 1's, or were damaged before it could be
    known)."""
    import secrets

    (unchecked,) = db.execute("SELECT coalesce(max(sequence), 0) FROM journal"
                              " WHERE digest IS NULL OR facts IS NULL").fetchone()
    db.execute("BEGIN")
    db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [
        ("database id", secrets.token_hex(16)), ("unchecked through", str(unchecked))])
    db.execute("COMMIT")
    return _meta(db)


def _check_journal(db: sqlite3.Connection, shown: str, meta: dict[str, str],
                   previous: Acknowledged | None) -> None:
    count, first, last = db.execute(
        "SELECT count(*), coalesce(min(sequence), 0), coalesce(max(sequence), 0)"
        " FROM journal").fetchone()
    if count and (first != 1 or last != count):
        raise StorageError(f"{shown}: the journal has lost entries: it holds {count} of"
                           f" entries {first} to {last}; restore it from a backup")
    try:
        checkpoint = int(meta.get("checkpoint", "0"))
        unchecked = int(meta.get("unchecked through", "0"))
    except ValueError:
        raise StorageError(f"{shown}: its checkpoint record is damaged") from None
    if checkpoint > last:
        raise StorageError(f"{shown}: the journal ends at entry {last}, before its checkpoint"
                           f" (as of entry {checkpoint}): entries were lost")
    if previous is not None and previous.database == meta["database id"] and (
            previous.sequence > last):
        raise StorageError(
            f"{shown}: the journal ends at entry {last}, but entry {previous.sequence} was"
            " acknowledged (the lock file's record): its write-ahead log was truncated or an"
            " older copy of the file replaced it; restore it from a backup")
    row = db.execute("SELECT min(sequence) FROM journal WHERE sequence > ? AND"
                     " (digest IS NULL OR facts IS NULL)", (unchecked,)).fetchone()
    if row[0] is not None:
        raise StorageError(f"{shown}: journal entry {row[0]} has lost its digest (every entry"
                           f" after {unchecked} records one): the journal was altered")
