"""Following a shared journal: the commands other processes kept, taken in here too.

A tenant on a journal other processes append to (:class:`~arest.runtime.storage.SharedStorage`)
reads the entries after the last one its D holds and takes in each: it applies the asserted
facts the entry recorded when they are the command's whole effect
(:func:`arest.runtime.effects.applied`), and otherwise runs the command again with its
recorded time and source (:func:`arest.runtime.recovery.replayed`); either way checked
against the digest the entry recorded: :func:`replayed_entries`.  It does so when its own
append loses the race for a sequence number, and, through a :class:`Follower`, whenever
another process's commit is announced.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator

from arest.algebra import State
from arest.runtime.effects import applied
from arest.runtime.recovery import ReplayError, replayed
from arest.runtime.storage import Entry, SharedStorage, StorageError

FOLLOW_WAIT = 0.5
"""Seconds a follower waits for news of another process's commit before it reads the journal
anyway (an announcement lost with a connection is then made up for), and the longest a
stop waits for it."""

Current = tuple[State, int, int]
"""D, the sequence number of the last entry it holds, and its digest."""


def replayed_entries(shown_as: str, current: Current, entries: Iterable[Entry]
                     ) -> Iterator[Current]:
    """D after each of the entries that follow ``current``, in order, each applied or run
    again and checked by its digest; :class:`StorageError` when the journal skips a
    sequence number or an entry replays to other asserted facts than it recorded."""
    state, sequence, digest = current
    for entry in entries:
        if entry.sequence != sequence + 1:
            raise StorageError(f"{shown_as}: the journal skips from entry {sequence} to"
                               f" {entry.sequence}")
        taken = applied(state, digest, entry)
        state, digest = taken if taken is not None else replayed(shown_as, state, digest,
                                                                 entry, True)
        sequence = entry.sequence
        yield state, sequence, digest


class Follower:
    """A thread that calls ``catch_up`` whenever the storage announces a commit after the
    entry ``held()`` names (the last the tenant holds: its own commits are announced too),
    and at least every :data:`FOLLOW_WAIT` seconds, until stopped.  An error while catching
    up is retried after a wait (the database may be unreachable for a while), unless
    ``parted()`` says the tenant can go on no more."""

    def __init__(self, storage: SharedStorage, catch_up: Callable[[], object],
                 parted: Callable[[], bool], held: Callable[[], int]) -> None:
        self._storage, self._catch_up, self._parted = storage, catch_up, parted
        self._held = held
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._follow, name="arest-follow", daemon=True)
        self._thread.start()

    def _follow(self) -> None:
        while not self._stopping.is_set():
            try:
                announced = self._storage.await_news(FOLLOW_WAIT)
                if not self._stopping.is_set() and (
                        announced is None or announced > self._held()):
                    self._catch_up()
            except (StorageError, ReplayError):
                if self._parted():
                    return  # every call of the tenant says so
                self._stopping.wait(FOLLOW_WAIT)

    def stop(self) -> None:
        """Stop following, once the thread is done with what it was doing."""
        self._stopping.set()
        self._thread.join()
