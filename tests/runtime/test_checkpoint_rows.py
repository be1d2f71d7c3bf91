"""A SQLite checkpoint writes each kind of row in one statement for all its cells; the rows it
keeps are those of the general write, a statement of each kind per cell in turn."""

import sqlite3
import tempfile
import threading
from pathlib import Path
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from arest.runtime.codec import Encoded
from arest.runtime.integrity import _make_tables
from arest.runtime.storage import SqliteStorage


def _general_checkpoint(db: sqlite3.Connection, sequence: int, key: str,
                        cells: dict[str, Encoded | None], digest: str) -> None:
    """The checkpoint's write as first written: cell by cell."""
    with db:
        db.execute("BEGIN")
        stored = db.execute("SELECT value FROM meta WHERE name='checkpoint key'")
        if (row := stored.fetchone()) is None or row[0] != key:
            for table in ("cells", "refers", "shared"):
                db.execute(f"DELETE FROM {table}")
        referring = False
        for name, contents in cells.items():
            dropped = db.execute("DELETE FROM refers WHERE cell = ?", (name,))
            referring = referring or dropped.rowcount > 0
            if contents is None:
                db.execute("DELETE FROM cells WHERE name = ?", (name,))
                continue
            db.execute("INSERT OR REPLACE INTO cells VALUES (?, ?)", (name, contents.text))
            db.executemany("INSERT OR IGNORE INTO shared VALUES (?, ?)", contents.shared.items())
            db.executemany("INSERT INTO refers VALUES (?, ?)",
                           ((name, where) for where in contents.shared))
        if referring:
            db.execute("DELETE FROM shared WHERE address NOT IN (SELECT address FROM refers)")
        db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [
            ("checkpoint key", key), ("checkpoint", str(sequence)), ("checkpoint digest", digest)])


def _rows(db: sqlite3.Connection) -> tuple[list[tuple[str, str]], ...]:
    """The checkpoint's rows (of meta, the checkpoint's: a database's identity is its own)."""
    return tuple(sorted(db.execute(f"SELECT * FROM {rows}").fetchall()) for rows in (
        "cells", "shared", "refers", "meta WHERE name LIKE 'checkpoint%'"))


addresses = st.sampled_from(["a1", "a2", "a3", "a4"])
encoded = st.builds(Encoded, st.sampled_from(["{}", "[1]", '"x"']),
                    st.dictionaries(addresses, st.sampled_from(["s", "t"]), max_size=3))
checkpoints = st.lists(st.tuples(
    st.sampled_from(["k1", "k2"]),
    st.dictionaries(st.sampled_from(["A", "B", "C", "D"]), st.none() | encoded, max_size=4)),
    min_size=1, max_size=5)


def _in_memory() -> SimpleNamespace:
    """What ``SqliteStorage.checkpoint`` reads of its storage, on a database in memory with
    the journal's tables (no file, lock file or fsync per example)."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    _make_tables(db)
    return SimpleNamespace(_lock=threading.Lock(), _db=db)


@settings(max_examples=40)
@given(checkpoints)
def test_a_checkpoint_keeps_the_rows_of_the_general_write(
        sequence: list[tuple[str, dict[str, Encoded | None]]]) -> None:
    batched, general = _in_memory(), _in_memory()
    for number, (key, cells) in enumerate(sequence, 1):
        assert SqliteStorage.checkpoint(batched, number, key, cells,  # type: ignore[arg-type]
                                        f"v1:{number}", number - 1 or None)
        _general_checkpoint(general._db, number, key, cells, f"v1:{number}")
        assert _rows(batched._db) == _rows(general._db)


def test_a_cell_gone_and_a_shared_cell_no_longer_referred_to_are_dropped() -> None:
    with tempfile.TemporaryDirectory() as folder:
        storage = SqliteStorage(Path(folder) / "c.db")
        try:
            storage.checkpoint(1, "k", {"A": Encoded("{}", {"a1": "s"}), "B": Encoded("[]", {})},
                               "v1:1")
            storage.checkpoint(2, "k", {"A": Encoded("{}", {}), "B": None}, "v1:2", 1)
            cells, shared, refers, _ = _rows(storage._db)
            assert (cells, shared, refers) == ([("A", "{}")], [], [])
        finally:
            storage.close()
