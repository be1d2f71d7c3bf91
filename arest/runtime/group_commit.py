"""Group commit: accepted commands reach the journal in order, several to one transaction.

A tenant installs a command's D′ as soon as it commits (so the next command can run on it)
and queues its journal entry here; the caller then waits until that entry is durable
before it answers.  The first waiter that finds no write in progress takes every queued
entry and writes them in one transaction, outside any lock the tenant holds, while the
other commands go on running; the others wait for it, and one of them writes the next
batch.  Entries are written in sequence order and a batch is all or nothing, so whenever
an entry is durable, every entry before it is too: an answer never rests on a command the
journal could lose.

A command that finds no batch written or queued at its commit, a single writer's usual
case, claims its entry as a batch of its own and writes it itself (:meth:`GroupCommit.claim`),
with no queue between: the same batch the first waiter would have taken.

A written batch wakes first the earliest waiter whose entry is still queued, to write the
next batch (so the next fsync starts soonest), then the waiters it made durable, and no
other: with many writers, waking those whose entries are still queued would only send them
back to sleep, each taking the interpreter's lock in turn.

A batch that cannot be written (a full disk, a vanished file) leaves D ahead of the journal,
so the queue breaks: every waiter, then and after, gets :class:`StorageError`.

>>> from arest.runtime.storage import MemoryStorage, Pending
>>> storage = MemoryStorage()
>>> queue = GroupCommit(storage, durable=0)
>>> queue.enqueue(Pending(1, "snapshot", "{}", "{}", "v1:0", "{}"))
>>> queue.wait(1)
>>> queue.durable, [entry.sequence for entry in storage.entries()]
(1, [1])
"""

from __future__ import annotations

import threading

from arest.runtime.storage import Pending, Storage, StorageError


class GroupCommit:
    """The queue of journal entries between commit and durability."""

    def __init__(self, storage: Storage, durable: int) -> None:
        self._storage = storage
        self._guard = threading.Lock()
        self._queued: list[Pending] = []
        self._writing = False
        self._broken: BaseException | None = None
        self._sleepers: list[tuple[int, threading.Lock]] = []
        """The waiters asleep, each with the sequence it waits for and the lock (held) that
        wakes it when released, in the order they fell asleep."""
        self.durable = durable
        """The sequence number of the last entry on disk."""

    @property
    def idle(self) -> bool:
        """Whether no batch is being written and none is queued: a single writer's usual
        state between commands.  Read without the guard, so only a hint (a tenant runs a
        command on D itself when it is likely alone, and checks at its commit)."""
        return not (self._writing or self._queued)

    def enqueue(self, entry: Pending) -> None:
        """Queue an entry (in sequence order: the tenant calls this under its commit lock)."""
        with self._guard:
            self._queued.append(entry)

    def claim(self, entry: Pending) -> bool:
        """:meth:`enqueue`, but when no batch is being written or queued, make the entry a
        batch of its own that the caller writes (True): then :meth:`write_claimed` is what
        ``enqueue`` and ``wait`` would have done, with no queue between.

            claim(e); write_claimed(e)  ≡  enqueue(e); wait(e.sequence)   (when idle)

        A command queued meanwhile finds a batch being written and sleeps until it is
        durable, as behind any batch; so every entry before the claimed one is durable
        already, and the journal's order is the sequence order still.  Called, as
        ``enqueue`` is, under the tenant's commit lock."""
        with self._guard:
            if self._writing or self._queued or self._broken is not None:
                self._queued.append(entry)
                return False
            self._writing = True
            return True

    def write_claimed(self, entry: Pending) -> None:
        """Write the entry :meth:`claim` gave the caller, then wake the next writer and
        those its batch made durable, as :meth:`wait` does after a batch; raises
        :class:`StorageError`, the queue broken, when it cannot be written."""
        try:
            self._storage.append((entry,))
        except BaseException as error:
            with self._guard:
                self._broken = error
                self._writing = False
                self._wake()
            raise StorageError(f"the journal could not be written ({error})") from error
        with self._guard:
            self.durable = entry.sequence
            self._writing = False
            if self._sleepers:  # a lone writer's usual case: nobody to wake
                self._wake()

    def check(self) -> None:
        """Raise :class:`StorageError` when a batch could not be written."""
        if self._broken is not None:
            raise StorageError(f"the journal could not be written ({self._broken}); the"
                               " tenant holds commands it could not keep: open it again")

    def kept(self, sequence: int) -> None:
        """Record that every entry up to ``sequence`` is durable, kept without the queue (a
        shared journal's entries are kept in the transaction that commits them)."""
        with self._guard:
            self.durable = max(self.durable, sequence)
            self._wake()

    def fail(self, error: BaseException) -> None:
        """Break the queue: D and the journal parted, so every waiter gets
        :class:`StorageError` from now on."""
        with self._guard:
            self._broken = error
            self._wake()

    def _wake(self) -> None:
        """Wake the earliest sleeper whose entry is still queued, to write the next batch
        (first, so the next fsync starts soonest), then those whose entries are durable;
        every sleeper once the queue is broken.  Holds the guard."""
        if not self._sleepers:  # a single writer's usual case: nobody to wake
            return
        broken, durable = self._broken is not None, self.durable
        asleep = [] if broken else [sleeper for sleeper in self._sleepers
                                    if sleeper[0] > durable]
        if asleep:
            writer = min(asleep, key=lambda sleeper: sleeper[0])
            asleep = [sleeper for sleeper in asleep if sleeper is not writer]
            writer[1].release()
        for sequence, woken in self._sleepers:
            if broken or sequence <= durable:
                woken.release()
        self._sleepers = asleep

    def wait(self, sequence: int) -> None:
        """Return when every entry up to ``sequence`` is durable, writing batches as needed."""
        guard = self._guard
        guard.acquire()
        try:
            while self.durable < sequence:
                self.check()
                if self._writing:
                    woken = threading.Lock()
                    woken.acquire()
                    self._sleepers.append((sequence, woken))
                    guard.release()
                    try:
                        woken.acquire()  # released by _wake
                    finally:
                        guard.acquire()
                    continue
                batch, self._queued = self._queued, []
                if not batch:
                    raise RuntimeError(f"journal entry {sequence} was never queued")
                self._writing = True
                guard.release()
                try:
                    self._storage.append(batch)
                except BaseException as error:
                    guard.acquire()
                    self._broken = error
                    raise StorageError(f"the journal could not be written ({error})") from error
                else:
                    guard.acquire()
                    self.durable = batch[-1].sequence
                finally:
                    self._writing = False
                    self._wake()
        finally:
            guard.release()
