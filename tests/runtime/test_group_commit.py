"""Group commit: entries reach the journal in order, several to a transaction, and a batch
that cannot be written stops the tenant instead of letting D run ahead of the journal."""

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


class FailingWhenReleased(Slow):
    def append(self, batch: Sequence[Pending]) -> None:
        self.gate.wait(timeout=10)
        raise OSError("disk full")


def test_every_waiter_asleep_behind_a_failing_batch_gets_the_error() -> None:
    storage = FailingWhenReleased()
    queue = GroupCommit(storage, durable=0)
    queue.enqueue(pending(1))
    errors: list[BaseException] = []

    def wait(sequence: int) -> None:
        try:
            queue.wait(sequence)
        except StorageError as error:
            errors.append(error)

    first = threading.Thread(target=wait, args=(1,))
    first.start()
    while not queue._writing:
        threading.Event().wait(0.001)
    for sequence in (2, 3):
        queue.enqueue(pending(sequence))
    waiters = [threading.Thread(target=wait, args=(n,)) for n in (1, 2, 3)]
    for waiter in waiters:
        waiter.start()
    while len(queue._sleepers) < 3:  # all three asleep behind the write
        threading.Event().wait(0.001)
    storage.gate.set()
    for thread in [first, *waiters]:
        thread.join(timeout=10)
    assert not any(thread.is_alive() for thread in [first, *waiters])
    assert len(errors) == 4 and all("disk full" in str(error) for error in errors)


class Pausing(MemoryStorage):
    """Takes a millisecond per batch, as an fsync would: writers queue behind it."""

    def append(self, batch: Sequence[Pending]) -> None:
        threading.Event().wait(0.001)
        super().append(batch)


def test_waiters_are_answered_in_batches_until_every_entry_is_durable() -> None:
    storage = Pausing()
    queue = GroupCommit(storage, durable=0)
    lock = threading.Lock()
    sequence = [0]

    def writer() -> None:
        for _ in range(50):
            with lock:  # the tenant's commit lock: entries are queued in sequence order
                sequence[0] += 1
                mine = sequence[0]
                queue.enqueue(pending(mine))
            queue.wait(mine)
            assert queue.durable >= mine

    threads = [threading.Thread(target=writer) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert not any(thread.is_alive() for thread in threads)
    assert [entry.sequence for entry in storage.entries()] == list(range(1, 401))


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


# A lone writer's claim: ``claim(e); write_claimed(e)`` is ``enqueue(e); wait(e.sequence)``.

STEPS = st.lists(st.sampled_from(["claim", "enqueue", "wait"]), max_size=12)


@settings(max_examples=50, deadline=None)
@given(STEPS)
def test_a_claimed_write_is_an_enqueue_and_its_wait(steps: list[str]) -> None:
    """Over any single thread's steps (an entry claimed and written at once, or queued and
    waited for later): the same batches in the same order, the same durable sequence, as
    when every entry is queued and each ``claim`` waits for its own."""
    claimed, queued = Slow(), Slow()
    claimed.gate.set()
    queued.gate.set()
    by_claim, by_queue = GroupCommit(claimed, durable=0), GroupCommit(queued, durable=0)
    sequence = 0
    for step in steps:
        if step == "wait":
            by_claim.wait(sequence)
            by_queue.wait(sequence)
            continue
        sequence += 1
        entry = pending(sequence)
        if step == "enqueue":
            by_claim.enqueue(entry)
            by_queue.enqueue(entry)
            continue
        if by_claim.claim(entry):
            by_claim.write_claimed(entry)
        else:  # a batch queued before it: behind that batch, as a queued entry
            by_claim.wait(sequence)
        by_queue.enqueue(entry)
        by_queue.wait(sequence)
    assert claimed.batches == queued.batches
    assert by_claim.durable == by_queue.durable
    assert list(claimed.entries()) == list(queued.entries())


def test_entries_queued_during_a_claimed_write_share_the_next_transaction() -> None:
    """Fixed: a claimed write in progress; entries committed meanwhile are queued, their
    waiters sleep, and the first woken writes them all in one batch."""
    storage = Slow()
    queue = GroupCommit(storage, durable=0)
    assert queue.claim(pending(1)) and not queue.idle
    first = threading.Thread(target=queue.write_claimed, args=(pending(1),))
    first.start()
    for sequence in (2, 3, 4):
        assert not queue.claim(pending(sequence))  # a batch is being written: queued
    waiters = [threading.Thread(target=queue.wait, args=(n,)) for n in (2, 3, 4)]
    for waiter in waiters:
        waiter.start()
    while len(queue._sleepers) < 3:
        threading.Event().wait(0.001)
    storage.gate.set()
    for thread in [first, *waiters]:
        thread.join(timeout=10)
    assert storage.batches == [[1], [2, 3, 4]] and queue.durable == 4 and queue.idle


def test_a_claimed_write_that_fails_breaks_the_queue_for_every_waiter() -> None:
    storage = FailingWhenReleased()
    queue = GroupCommit(storage, durable=0)
    assert queue.claim(pending(1))
    errors: list[BaseException] = []

    def run(function: Any, *arguments: Any) -> None:
        try:
            function(*arguments)
        except StorageError as error:
            errors.append(error)

    first = threading.Thread(target=run, args=(queue.write_claimed, pending(1)))
    first.start()
    assert not queue.claim(pending(2))
    waiter = threading.Thread(target=run, args=(queue.wait, 2))
    waiter.start()
    while not queue._sleepers:
        threading.Event().wait(0.001)
    storage.gate.set()
    for thread in (first, waiter):
        thread.join(timeout=10)
    assert len(errors) == 2 and all("disk full" in str(error) for error in errors)
    assert not queue.claim(pending(3))  # broken: nothing more is claimed
    with pytest.raises(StorageError, match="open it again"):
        queue.check()
