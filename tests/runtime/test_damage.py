"""Damage to a database is a StorageError naming what is wrong, never an empty or partial
tenant: one test per kind of damage."""

import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

import arest
from arest.runtime import StorageError, TenantLocked

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "readings" / "orders"
CUSTOMERS = 50

CRASHING = """
import os, arest
tenant = arest.Tenant.open({orders!r}, db={db!r})
for n in range({count}):
    tenant.call("create:Customer", {{"id": f"c{{n}}@x", "Name": f"C{{n}}"}})
os._exit(0)  # every call acknowledged, the tenant never closed
"""


def written(db: Path) -> Path:
    """A closed database holding CUSTOMERS customers, one journal entry each."""
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        for n in range(CUSTOMERS):
            tenant.call("create:Customer", {"id": f"c{n}@x", "Name": f"C{n}"})
    return db


def crashed(db: Path) -> Path:
    """A database whose process ended after CUSTOMERS acknowledged calls without closing it:
    the entries are in its write-ahead log."""
    script = CRASHING.format(orders=str(ORDERS), db=str(db), count=CUSTOMERS)
    subprocess.run([sys.executable, "-c", script], check=True)
    assert Path(f"{db}-wal").stat().st_size > 0
    return db


def altered(db: Path, *statements: str) -> None:
    with closing(sqlite3.connect(db)) as connection:
        for statement in statements:
            connection.execute(statement)
        connection.commit()


def refused(db: Path) -> str:
    with pytest.raises(StorageError) as caught:
        arest.Tenant.open(ORDERS, db=db)
    assert str(db) in str(caught.value)
    return str(caught.value)


def test_an_empty_file_is_an_error(tmp_path: Path) -> None:
    db = tmp_path / "shop.db"
    db.write_bytes(b"")
    assert "empty (0 bytes)" in refused(db)


def test_a_file_copied_alone_from_a_running_tenant_is_an_error(tmp_path: Path) -> None:
    source = tmp_path / "live" / "shop.db"
    source.parent.mkdir()
    copy = tmp_path / "copy" / "shop.db"
    copy.parent.mkdir()
    with arest.Tenant.open(ORDERS, db=source) as tenant:
        for n in range(CUSTOMERS):
            tenant.call("create:Customer", {"id": f"c{n}@x", "Name": f"C{n}"})
        shutil.copyfile(source, copy)
    message = refused(copy)
    assert "write-ahead log" in message and "arest backup" in message


def test_a_deleted_write_ahead_log_is_an_error(tmp_path: Path) -> None:
    db = crashed(tmp_path / "shop.db")
    Path(f"{db}-wal").unlink()
    Path(f"{db}-shm").unlink()
    assert "write-ahead log" in refused(db)


def test_a_truncated_write_ahead_log_is_an_error(tmp_path: Path) -> None:
    db = crashed(tmp_path / "shop.db")
    log = Path(f"{db}-wal")
    frame = 24 + 4096  # the log: a 32-byte header, then frames of a header and a page
    frames = (log.stat().st_size - 32) // frame
    with log.open("r+b") as file:
        file.truncate(32 + frame * (frames // 2))  # whole frames: a log cut at a commit
    Path(f"{db}-shm").unlink()
    assert f"entry {CUSTOMERS} was acknowledged" in refused(db)


def test_entries_lost_from_the_end_of_the_journal_are_an_error(tmp_path: Path) -> None:
    db = written(tmp_path / "shop.db")
    altered(db, "DELETE FROM journal WHERE sequence > 40")
    assert "ends at entry 40" in refused(db)


def test_a_dropped_journal_table_is_an_error(tmp_path: Path) -> None:
    db = written(tmp_path / "shop.db")
    altered(db, "DROP TABLE journal")
    assert "lost its journal table" in refused(db)


def test_a_journal_entry_without_its_digest_is_an_error(tmp_path: Path) -> None:
    db = written(tmp_path / "shop.db")
    altered(db, "UPDATE journal SET digest = NULL WHERE sequence = 3")
    assert "journal entry 3 has lost its digest" in refused(db)


def test_a_journal_entry_altered_so_it_is_refused_is_an_error(tmp_path: Path) -> None:
    db = written(tmp_path / "shop.db")
    altered(db, "UPDATE journal SET context = 7 WHERE sequence = 2")
    assert "journal entry 2 (create:Customer) is not accepted on the readings it was" in (
        refused(db))


def test_a_damaged_checkpoint_record_is_an_error(tmp_path: Path) -> None:
    db = written(tmp_path / "shop.db")
    altered(db, "INSERT OR REPLACE INTO meta VALUES ('checkpoint', 'forty')")
    assert "checkpoint record is damaged" in refused(db)


def test_a_damaged_page_that_reads_still_is_an_error(tmp_path: Path) -> None:
    db = written(tmp_path / "shop.db")
    with closing(sqlite3.connect(db)) as connection:
        (root,) = connection.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'referred'").fetchone()
        (size,) = connection.execute("PRAGMA page_size").fetchone()
    with db.open("r+b") as file:  # an index page whose cells point outside it
        file.seek((root - 1) * size)
        file.write(b"\x0a\x00\x00\x00\x05")
    assert "quick_check" in refused(db)


def test_a_new_database_and_a_closed_one_open(tmp_path: Path) -> None:
    db = written(tmp_path / "shop.db")
    assert not Path(f"{db}-wal").exists()  # folded into the file on close
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        assert arest.apply(tenant.state, "list:Customer")[0]["total"] == CUSTOMERS


def test_a_symlink_to_an_open_database_gets_the_lock(tmp_path: Path) -> None:
    db = tmp_path / "shop.db"
    link = tmp_path / "elsewhere.db"
    link.symlink_to(db)
    with arest.Tenant.open(ORDERS, db=db), pytest.raises(TenantLocked):
        arest.Tenant.open(ORDERS, db=link)


def test_a_backup_of_a_live_tenant_opens_with_its_data(tmp_path: Path) -> None:
    db, copy = tmp_path / "shop.db", tmp_path / "backups" / "shop.db"
    copy.parent.mkdir()
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        for n in range(CUSTOMERS):
            tenant.call("create:Customer", {"id": f"c{n}@x", "Name": f"C{n}"})
        done = subprocess.run([sys.executable, "-m", "arest", "backup", str(db), str(copy)],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        tenant.call("create:Customer", {"id": "later@x", "Name": "Later"})  # still writing
        again = subprocess.run([sys.executable, "-m", "arest", "backup", str(db), str(copy)],
                               capture_output=True, text=True)
        assert again.returncode == 2 and "exists" in again.stderr
    assert not Path(f"{copy}-wal").exists()
    with arest.Tenant.open(ORDERS, db=copy) as restored:
        customers = arest.apply(restored.state, "list:Customer", {"limit": 100})[0]
        assert customers["total"] == CUSTOMERS
    with arest.Tenant.open(ORDERS, db=db) as original:
        assert arest.apply(original.state, "list:Customer")[0]["total"] == CUSTOMERS + 1


def test_a_backup_restored_in_place_of_the_original_opens(tmp_path: Path) -> None:
    db = written(tmp_path / "shop.db")
    copy = tmp_path / "copy.db"
    done = subprocess.run([sys.executable, "-m", "arest", "backup", str(db), str(copy)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        tenant.call("create:Customer", {"id": "later@x", "Name": "Later"})
    shutil.copyfile(copy, db)  # restored: an earlier journal, but another database's
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        assert arest.apply(tenant.state, "list:Customer")[0]["total"] == CUSTOMERS


def test_backing_up_what_is_not_a_database_exits_1(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "arest", "backup", str(tmp_path / "no.db"),
                           str(tmp_path / "copy.db")], capture_output=True, text=True)
    assert done.returncode == 1 and done.stderr.startswith("arest:")
    assert not (tmp_path / "copy.db").exists()
