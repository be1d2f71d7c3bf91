"""The SQLite journal's append: a batch of any size is one transaction, kept whole or not
at all, whose entries read back as they were given; the lock file's acknowledgement, which
stores only the sequence field, reads as a whole record would; and an input's text, made by
hand for an object of strings, is the one ``json.dumps`` makes."""

import json
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arest.runtime.lockfile import LockFile, parsed_record
from arest.runtime.storage import ROWS_PER_INSERT, Pending, SqliteStorage
from arest.runtime.tenant import _input_text

texts = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
batch_sizes = st.lists(st.integers(1, 2 * ROWS_PER_INSERT + 3), min_size=1, max_size=4)


def entry(sequence: int, key: str, value: str) -> Pending:
    return Pending(sequence, key, json.dumps({"v": value}),
                   '{"now": "t", "source": "System"}', f"v1:{sequence:064x}", "{}")


def batches(sizes: list[int], keys: list[str]) -> list[list[Pending]]:
    made, sequence = [], 0
    for size in sizes:
        made.append([entry(sequence + n + 1, keys[(sequence + n) % len(keys)], str(n))
                     for n in range(size)])
        sequence += size
    return made


@settings(max_examples=15, deadline=None)
@given(batch_sizes, st.lists(texts, min_size=1, max_size=5))
def test_appended_batches_read_back_as_given_and_acknowledged(sizes: list[int],
                                                              keys: list[str]) -> None:
    made = batches(sizes, keys)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.db"
        storage = SqliteStorage(path)
        for batch in made:
            storage.append(batch)
        read = [(e.sequence, e.key, e.digest, e.facts) for e in storage.entries()]
        storage.close()
        assert read == [(p.sequence, p.key, p.digest, p.facts) for b in made for p in b]
        lock = path.with_name("journal.db.lock").read_text()
        assert parsed_record(lock) is not None
        assert parsed_record(lock).sequence == sum(sizes)  # type: ignore[union-attr]


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 2 * ROWS_PER_INSERT + 3), st.data())
def test_a_batch_that_fails_keeps_nothing_of_itself(size: int, data: st.DataObject) -> None:
    clash = data.draw(st.integers(0, size - 1), label="entry numbered as one kept")
    with tempfile.TemporaryDirectory() as folder:
        storage = SqliteStorage(Path(folder) / "journal.db")
        storage.append([entry(1, "kept", "0")])
        batch = [entry(2 + n, "new", str(n)) for n in range(size)]
        batch[clash] = batch[clash]._replace(sequence=1)
        with pytest.raises(sqlite3.IntegrityError):
            storage.append(batch)
        storage.append([entry(2, "after", "0")])  # the connection is usable, not in a transaction
        assert [(e.sequence, e.key) for e in storage.entries()] == [(1, "kept"), (2, "after")]
        storage.close()


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10**20 - 1), st.integers(0, 10**20 - 1), st.from_regex(r"[0-9a-f]{1,32}",
                                                                            fullmatch=True))
def test_an_acknowledgement_reads_as_the_whole_record(first: int, then: int,
                                                      database: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        acknowledged = LockFile(Path(folder) / "a.db", "a.db")
        recorded = LockFile(Path(folder) / "b.db", "b.db")
        acknowledged.record(first, database)
        acknowledged.acknowledge(then)
        recorded.record(then, database)
        texts = [Path(folder, name).read_bytes() for name in ("a.db.lock", "b.db.lock")]
        acknowledged.release()
        recorded.release()
    assert texts[0] == texts[1]


any_text = st.text(st.characters(exclude_categories=()), max_size=8)  # lone surrogates too
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(any_text, any_text, max_size=6) | json_values)
def test_an_input_is_kept_as_json_dumps_writes_it(value: object) -> None:
    assert _input_text(value) == json.dumps(value)
