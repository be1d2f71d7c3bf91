"""The digest of the asserted facts: incremental equals from scratch, derived facts do not
count, and a restart that would give other facts than were acknowledged refuses to open."""

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.algebra.relations import Relation
from arest.runtime import StorageError
from arest.runtime.digest import asserted_delta, state_digest, text
from arest.runtime.storage import FORMAT
from arest.system.derive import without_derived_facts
from arest.testing import commands, schemas

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "readings" / "orders"

FAMILY = """\
Person(.Name) is an entity type.
Person1 is parent of Person2.
Person1 is grandparent of Person2.
* Person1 is grandparent of Person3 if Person1 is parent of Person2 \
and Person2 is parent of Person3.
"""


class FoldsOften(Relation):
    """Folds its layers into a new base after a few edits, and cuts its trail soon."""

    compaction_floor = 3


EDITS = st.lists(st.tuples(st.booleans(), st.sampled_from("abcdef"), st.sampled_from("xy"),
                           st.sampled_from([True, ("why",)])), max_size=40)


def payloads(relation: Relation) -> dict[Any, Any]:
    return dict(relation.items())


@settings(max_examples=100)
@given(st.sampled_from([Relation, FoldsOften]), EDITS)
def test_changes_since_is_the_difference_of_two_versions(kind, edits) -> None:  # type: ignore[no-untyped-def]
    versions = [kind(2)]
    for adding, first, second, payload in edits:
        relation = versions[-1]
        fact = (first, second)
        versions.append(relation.add(fact, payload) if adding else relation.remove(fact))
        if len(versions) % 7 == 0:  # a batch, as commands make them
            versions.append(versions[-1].updated([(("z", first), True)], [fact]))
    contents = [payloads(version) for version in versions]
    for earlier, before in zip(versions, contents, strict=True):
        for later, after in zip(versions, contents, strict=True):
            expected = {(fact, before.get(fact), after.get(fact)) for fact in {*before, *after}
                        if before.get(fact) != after.get(fact)}
            found = list(later.changes_since(earlier))
            assert len(found) == len(set(found)) and set(found) == expected


@pytest.mark.slow
@settings(max_examples=60)
@given(schemas(), st.lists(st.one_of(commands(), st.just(("snapshot", {})),
                                     st.just(("rollback", {"id": "snap-0"}))), max_size=10))
def test_the_incremental_digest_equals_the_digest_from_scratch(readings, sequence) -> None:  # type: ignore[no-untyped-def]
    tenant = arest.Tenant.open(db=":memory:")
    if not tenant.call("compile", {"readings": readings}).get("rejected", True):
        for key, request in sequence:
            tenant.call(key, request)
            assert tenant.digest == text(state_digest(tenant.state))


def test_derived_facts_do_not_count(tmp_path: Path) -> None:
    readings = tmp_path / "family.md"
    readings.write_text(FAMILY)
    with arest.Tenant.open(readings) as tenant:
        before = tenant.state
        out = tenant.call("assert", {"fact_type": "Person_is_parent_of_Person",
                                     "bindings": ["bob", "cy"]})
        assert not out["rejected"]
        tenant.call("assert", {"fact_type": "Person_is_parent_of_Person",
                               "bindings": ["ann", "bob"]})
        state = tenant.state
    grandparents = state["Person_is_grandparent_of_Person"]
    assert isinstance(grandparents, Relation) and ("ann", "cy") in grandparents  # by the `*` rule
    delta = asserted_delta(before, state, state.keys())
    assert all(cell != "Person_is_grandparent_of_Person" for cell, _ in delta.added)
    stripped = state.set("Person_is_grandparent_of_Person", without_derived_facts(grandparents))
    assert state_digest(stripped) == state_digest(state)
    assert tenant.digest == text(state_digest(state))


def _orders(db: Path, count: int = 3) -> str:
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        for n in range(count):
            tenant.call("create:Customer", {"id": f"c{n}@x", "Name": f"C{n}"})
        return tenant.digest


def test_a_restart_checks_and_keeps_the_digest(tmp_path: Path) -> None:
    db = tmp_path / "shop.db"
    digest = _orders(db)
    with arest.Tenant.open(ORDERS, db=db) as again:  # replayed from the kept base
        assert again.digest == digest
        again.checkpoint()
    with arest.Tenant.open(ORDERS, db=db) as third:  # restored from the checkpoint
        assert third.digest == digest == text(state_digest(third.state))


def test_an_altered_journal_entry_is_an_error_naming_it(tmp_path: Path) -> None:
    db = tmp_path / "shop.db"
    _orders(db)
    with closing(sqlite3.connect(db)) as connection, connection:
        connection.execute("UPDATE journal SET input = ? WHERE sequence = 2",
                           (json.dumps({"id": "c1@x", "Name": "Mallory"}),))
    with pytest.raises(StorageError) as caught:
        arest.Tenant.open(ORDERS, db=db)
    assert "journal entry 2 (create:Customer)" in str(caught.value)
    assert "Mallory" in str(caught.value) and str(db) in str(caught.value)


def test_an_altered_checkpointed_cell_is_an_error(tmp_path: Path) -> None:
    db = tmp_path / "shop.db"
    _orders(db)
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        tenant.checkpoint()
    with closing(sqlite3.connect(db)) as connection, connection:
        (cell,) = connection.execute(
            "SELECT contents FROM cells WHERE name = 'Customer_has_Name'").fetchone()
        connection.execute("UPDATE cells SET contents = ? WHERE name = 'Customer_has_Name'",
                           (cell.replace('"C1"', '"Mallory"'),))
    with pytest.raises(StorageError) as caught:
        arest.Tenant.open(ORDERS, db=db)
    assert "checkpoint as of journal entry 3" in str(caught.value)


def test_an_altered_digest_is_an_error(tmp_path: Path) -> None:
    db = tmp_path / "shop.db"
    _orders(db)
    with closing(sqlite3.connect(db)) as connection, connection:
        connection.execute("UPDATE journal SET digest = ? WHERE sequence = 3",
                           (text(12345),))
    with pytest.raises(StorageError, match="journal entry 3"):
        arest.Tenant.open(ORDERS, db=db)


def test_a_database_of_the_first_format_opens_and_gains_digests(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with closing(sqlite3.connect(db)) as connection, connection:
        connection.executescript("""
            CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT);
            CREATE TABLE journal (sequence INTEGER PRIMARY KEY, key TEXT NOT NULL,
                                  input TEXT NOT NULL, context TEXT NOT NULL);
            CREATE TABLE base (key TEXT PRIMARY KEY, state TEXT);
            CREATE TABLE cells (name TEXT PRIMARY KEY, contents TEXT NOT NULL);
            INSERT INTO meta VALUES ('format', 'arest-journal-1');
        """)
        connection.execute(
            "INSERT INTO journal (key, input, context) VALUES (?, ?, ?)",
            ("create:Customer", json.dumps({"id": "ann@x", "Name": "Ann"}),
             json.dumps({"now": "2025-01-01T00:00:00Z", "source": "Human"})))
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        assert arest.apply(tenant.state, "read:Customer", "ann@x")[0]["Name"] == "Ann"
        tenant.call("create:Customer", {"id": "bo@x", "Name": "Bo"})
        digest = tenant.digest
    with arest.Tenant.open(ORDERS, db=db) as again:
        assert again.digest == digest
    with closing(sqlite3.connect(db)) as connection:
        rows = connection.execute("SELECT digest FROM journal ORDER BY sequence").fetchall()
        (found,) = connection.execute("SELECT value FROM meta WHERE name='format'").fetchone()
    assert rows[0] == (None,) and rows[1] == (digest,) and found == FORMAT


def test_another_format_is_a_clear_error(tmp_path: Path) -> None:
    db = tmp_path / "future.db"
    with closing(sqlite3.connect(db)) as connection, connection:
        connection.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT)")
        connection.execute("INSERT INTO meta VALUES ('format', 'arest-journal-9')")
    with pytest.raises(StorageError, match="arest-journal-9"):
        arest.Tenant.open(ORDERS, db=db)
