"""Snapshots in a durable tenant: shared on disk, checked on reopen, at most max_snapshots."""

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

import arest
from arest.runtime import StorageError
from arest.runtime.storage import FORMAT
from arest.runtime.tenant import MAX_SNAPSHOTS

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "readings" / "orders"


def _build(db: Path | str, customers: int, snapshots: int, **options: int) -> arest.Tenant:
    tenant = arest.Tenant.open(ORDERS, db=db, **options)
    for n in range(customers):
        assert not tenant.call("create:Customer", {"id": f"c{n}@x", "Name": f"C{n}"})["rejected"]
    for k in range(snapshots):
        n = k % customers
        tenant.call("update:Customer", {"id": f"c{n}@x", "Name": f"C{n}-{k}"})
        assert tenant.call("snapshot", {"label": f"s{k}"}) == {"id": f"s{k}"}
    return tenant


def _size(db: Path) -> int:
    with closing(sqlite3.connect(db)) as connection:
        connection.execute("VACUUM")
    return db.stat().st_size


def test_snapshots_on_disk_cost_what_changed(tmp_path: Path) -> None:
    with _build(tmp_path / "none.db", 30, 0) as tenant:
        tenant.checkpoint()
    with _build(tmp_path / "taken.db", 30, 40) as tenant:
        assert tenant.call("rollback", {"id": "s10"})["rolled_back"]
        tenant.call("update:Customer", {"id": "c0@x", "Name": "After the rollback"})
        assert tenant.call("snapshot", {"label": "after"}) == {"id": "after"}
        tenant.checkpoint()
        state = tenant.state
    # Kept whole, each snapshot would be about the size of D; shared, 40 take under one D.
    assert _size(tmp_path / "taken.db") < 2 * _size(tmp_path / "none.db")
    with arest.Tenant.open(ORDERS, db=tmp_path / "taken.db") as again:
        assert again.state == state
        assert arest.apply(again.state, "rollback", {"id": "s3"})[1] == arest.apply(
            state, "rollback", {"id": "s3"})[1]


def test_a_replaced_snapshot_leaves_no_cells_behind(tmp_path: Path) -> None:
    db = tmp_path / "shop.db"

    def shared_cells() -> int:
        with closing(sqlite3.connect(db)) as connection:
            return int(connection.execute("SELECT count(*) FROM shared").fetchone()[0])

    with _build(db, 5, 1) as tenant:
        tenant.checkpoint()
        first = shared_cells()
        for k in range(5):  # the same label again: the snapshot is replaced
            tenant.call("create:Customer", {"id": f"new{k}@x", "Name": "N"})
            tenant.call("snapshot", {"label": "s0"})
            tenant.checkpoint()
        assert shared_cells() == first  # each replaced snapshot's own cells are dropped


@pytest.mark.parametrize(("change", "found"), [
    ("UPDATE shared SET contents = replace(contents, 'C1', 'C7') WHERE contents LIKE '%C1%'",
     "damaged"),
    ("DELETE FROM shared", "missing"),
])
def test_a_damaged_snapshot_is_a_storage_error(tmp_path: Path, change: str, found: str) -> None:
    db = tmp_path / "shop.db"
    with _build(db, 3, 3) as tenant:
        tenant.checkpoint()
    with closing(sqlite3.connect(db)) as connection, connection:
        assert connection.execute(change).rowcount > 0
    with pytest.raises(StorageError, match=f"cannot be read .shared cell .* is {found}"):
        arest.Tenant.open(ORDERS, db=db)


def test_a_database_of_format_2_opens_by_replaying_its_journal(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with _build(db, 3, 3) as tenant:
        tenant.checkpoint()
        state = tenant.state
    with closing(sqlite3.connect(db)) as connection, connection:
        # What arest-journal-2 left: no shared cells, a checkpoint and a base under the key
        # of the codec that kept snapshots whole.
        connection.executescript("""
            DROP TABLE shared; DROP TABLE refers;
            UPDATE meta SET value = 'arest-journal-2' WHERE name = 'format';
            UPDATE meta SET value = 'key of arest-cells-1' WHERE name = 'checkpoint key';
            UPDATE base SET key = 'key of arest-cells-1';
            UPDATE cells SET contents = '{"s": []}' WHERE name = 'snapshots';
        """)
    with arest.Tenant.open(ORDERS, db=db) as again:
        assert again.state == state
    with closing(sqlite3.connect(db)) as connection:
        (found,) = connection.execute("SELECT value FROM meta WHERE name='format'").fetchone()
    assert found == FORMAT
    with arest.Tenant.open(ORDERS, db=db) as reopened:  # from the new checkpoint, checked
        assert reopened.state == state


def test_a_new_label_beyond_the_limit_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "shop.db"
    with _build(db, 2, 2, max_snapshots=2) as tenant:
        before, digest = tenant.state, tenant.digest
        for request in ({"label": "s9"}, {}, None, {"label": ""}):
            out = tenant.call("snapshot", request)
            assert out["error"]["code"] == "limit_exceeded"
            assert out["error"]["limit"] == 2 and out["error"]["candidates"] == ["s0", "s1"]
            assert "at most 2 snapshots" in out["error"]["message"]
        assert tenant.state is before and tenant.digest == digest
        assert tenant.call("snapshot", {"label": 7})["error"]["code"] == "invalid_input"
        assert tenant.call("snapshot", {"label": "s1"}) == {"id": "s1"}  # replaced: allowed
        assert tenant.call("rollback", {"id": "s0"})["rolled_back"]
    with arest.Tenant.open(ORDERS, db=db, max_snapshots=1) as smaller:  # kept, none added
        assert len(arest.apply(smaller.state, "snapshots")[0]["snapshots"]) == 2
        assert smaller.call("snapshot", {})["error"]["code"] == "limit_exceeded"
    with arest.Tenant.open(ORDERS, db=db, max_snapshots=3) as larger:
        assert larger.call("snapshot", {}) == {"id": "snap-2"}


def test_the_default_limit_and_a_wrong_one(tmp_path: Path) -> None:
    assert MAX_SNAPSHOTS == 100
    with arest.Tenant.open(ORDERS) as tenant:
        for k in range(MAX_SNAPSHOTS):
            assert tenant.call("snapshot", {}) == {"id": f"snap-{k}"}
        assert tenant.call("snapshot", {})["error"]["code"] == "limit_exceeded"
    for wrong in (-1, 2.5, True):
        with pytest.raises(ValueError, match="max_snapshots"):
            arest.Tenant.open(ORDERS, max_snapshots=wrong)  # type: ignore[arg-type]
