"""A backup: a consistent single-file copy of a tenant's database, live or closed.

SQLite's online backup (``sqlite3.Connection.backup``) reads the database as of one
transaction, through SQLite's own locks: a tenant holding the database open goes on
writing meanwhile, and the backup takes no lock file (that lock is for writers; a backup
writes only its copy).  The copy is then made a closed database of its own: no write-ahead
log (journal mode ``DELETE``), marked closed, and given a new identity, so that restoring it
over the original is not mistaken for the original losing entries
(:mod:`arest.runtime.integrity`).  It is checked as an open checks a database, then moved
into place whole, so a destination is either absent or a complete backup.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
from contextlib import closing
from pathlib import Path

from arest.runtime.integrity import StorageError, check


def backup(database: str | Path, destination: str | Path) -> int:
    """Copy ``database`` to ``destination`` (which must not exist); the number of journal
    entries the copy holds.  :class:`StorageError` when the source is not a usable arest
    database; :class:`FileExistsError` when the destination exists; :class:`OSError` when
    it cannot be written."""
    source, target = Path(os.path.realpath(database)), Path(destination)
    if not source.is_file():
        raise StorageError(f"{database}: no database there")
    if target.exists():
        raise FileExistsError(f"{destination} exists: choose a path that does not")
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        try:
            with closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as reading, \
                    closing(sqlite3.connect(partial, isolation_level=None)) as copy:
                reading.backup(copy)
                entries = _made_closed(copy, str(database))
        except sqlite3.DatabaseError as error:
            raise StorageError(f"{database}: cannot be backed up ({error})") from None
        with open(partial, "rb") as written:
            os.fsync(written.fileno())
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return entries


def _made_closed(copy: sqlite3.Connection, shown: str) -> int:
    """Make the copy a closed database of its own, check it; its journal entries."""
    copy.execute("PRAGMA journal_mode=DELETE")
    check(copy, shown, wal_present=True, previous=None)
    copy.execute("BEGIN")
    copy.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [
        ("open", "0"), ("database id", secrets.token_hex(16))])
    copy.execute("COMMIT")
    (entries,) = copy.execute("SELECT count(*) FROM journal").fetchone()
    return int(entries)
