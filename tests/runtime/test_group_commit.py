"""Group commit: entries reach the journal in order, several to a transaction, and a batch
that cannot be written stops the tenant instead of letting D run ahead of the journal."""

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

import arest
from arest.runtime import MemoryStorage, SqliteStorage, StorageError
from arest.runtime.group_commit import GroupCommit
from arest.runtime.storage import Pending

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "readings" / "orders"


def pending(sequence: int) -> Pending:
    return Pending(sequence, "snapshot", "{}", '{"now": "t", "source": "System"}', "v1:0", "{}")


class Slow(MemoryStorage):
    """Holds each batch until released, and remembers the batches."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list[list[int]] = []
        self.gate = threading.Event()

    def append(self, batch: Sequence[Pending]) -> None:
        self.gate.wait(timeout=10)
        self.batches.append([entry.sequence for entry in batch])
        super().append(batch)


def test_entries_queued_during_a_write_share_the_next_transaction() -> None:
    storage = Slow()
    queue = GroupCommit(storage, durable=0)
    queue.enqueue(pending(1))
    first = threading.Thread(target=queue.wait, args=(1,))
    first.start()
    while not queue._writing:  # the first batch is being written
        threading.Event().wait(0.001)
    for sequence in (2, 3, 4):
        queue.enqueue(pending(sequence))
    waiters = [threading.Thread(target=queue.wait, args=(n,)) for n in (2, 3, 4)]
    for waiter in waiters:
        waiter.start()
    storage.gate.set()
    for thread in [first, *waiters]:
        thread.join(timeout=10)
    assert storage.batches == [[1], [2, 3, 4]]
    assert queue.durable == 4 and [e.sequence for e in storage.entries()] == [1, 2, 3, 4]


class Failing(MemoryStorage):
    def append(self, batch: Sequence[Pending]) -> None:
        raise OSError("disk full")


def test_a_batch_that_cannot_be_written_breaks_the_queue() -> None:
    queue = GroupCommit(Failing(), durable=0)
    queue.enqueue(pending(1))
    with pytest.raises(StorageError, match="disk full"):
        queue.wait(1)
    with pytest.raises(StorageError, match="open it again"):
        queue.check()


def test_a_tenant_whose_journal_fails_refuses_to_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "shop.db"
    tenant = arest.Tenant.open(ORDERS, db=db)
    tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"})

    def broken(self: SqliteStorage, batch: Sequence[Pending]) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    with monkeypatch.context() as patch:
        patch.setattr(SqliteStorage, "append", broken)
        with pytest.raises(StorageError, match="disk I/O error"):
            tenant.call("create:Customer", {"id": "bo@x", "Name": "Bo"})
    with pytest.raises(StorageError, match="open it again"):
        tenant.call("list:Customer")
    with pytest.raises(StorageError):
        tenant.close()  # the database is let go all the same
    with arest.Tenant.open(ORDERS, db=db) as again:  # what was acknowledged, nothing more
        names = [c["Name"] for c in arest.apply(again.state, "list:Customer")[0]["items"]]
        assert names == ["Ann"]
