"""Checkpoints: the cells a restart starts from, so that it replays only the journal after.

A checkpoint at entry n keeps the cells of Dₙ that are not the objects the last checkpoint
kept (by identity: an unchanged cell is the same object), each encoded without the facts
derived again on load; recovery (:mod:`arest.runtime.recovery`) rebuilds Dₙ from them and
replays the entries after n.  A tenant keeps one as commands accumulate (:meth:`Checkpoints.due`),
outside its commit lock, on a durable D; one at a time, never going back to an earlier entry.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from arest.algebra import EMPTY_STATE, State
from arest.algebra.relations import Relation
from arest.runtime.codec import Encoded, encoded_cell
from arest.runtime.digest import text
from arest.runtime.storage import Storage
from arest.system.derive import rebuilt_on_load, without_derived_facts

if TYPE_CHECKING:
    from arest.runtime.following import Current

CHECKPOINT_EVERY = 500
"""The fewest accepted commands between checkpoints of the cells they changed."""

CHECKPOINT_SHARE = 10
"""A checkpoint writes whole changed cells, so it waits for at least one command per
``CHECKPOINT_SHARE`` facts in the state: its cost per command stays constant as the state
grows, and a restart replays at most that many commands."""


def changed_cells_encoded(before: State, state: State) -> dict[str, Encoded | None]:
    """The cells of state that are not the objects before holds, encoded (the facts derived
    again on load left out), and None for each cell of before that state lacks.

    >>> from arest.algebra import store
    >>> before = store(EMPTY_STATE, "a", "1")
    >>> sorted(changed_cells_encoded(before, store(before, "b", "2")))
    ['b']
    >>> changed_cells_encoded(before, EMPTY_STATE)
    {'a': None}
    """
    in_memory = rebuilt_on_load(state)
    changed: dict[str, Encoded | None] = {
        name: encoded_cell(without_derived_facts(contents)
                           if name in in_memory and isinstance(contents, Relation)
                           else contents)
        for name, contents in state.items()
        if before.get(name) is not contents
    }
    changed.update({name: None for name in before if name not in state})
    return changed


def fact_count(state: State) -> int:
    """The facts the relations of state hold."""
    return sum(len(cell) for cell in state.values() if isinstance(cell, Relation))


class Checkpoints:
    """A tenant's checkpoints in its storage, under the key of its readings; the last one
    kept holds D ``checkpointed`` as entry ``sequence``."""

    def __init__(self, storage: Storage, key: str, checkpointed: State, sequence: int,
                 state: State) -> None:
        self._storage, self._key = storage, key
        self._keeping = threading.Lock()
        self._checkpointed, self.sequence = checkpointed, sequence
        self._due_at = self._next_due(sequence, fact_count(state))

    def _next_due(self, sequence: int, facts: int) -> float:
        """The first entry :meth:`due` finds due after a checkpoint as of ``sequence`` of a
        D with that many facts: ``CHECKPOINT_EVERY`` entries on, or one per
        ``CHECKPOINT_SHARE`` facts if more; never (∞) on a storage that does not outlive
        the process: there is nothing to restart from."""
        if not self._storage.durable:
            return float("inf")
        return sequence + max(CHECKPOINT_EVERY, facts // CHECKPOINT_SHARE)

    def due(self, sequence: int) -> bool:
        """Whether entry ``sequence`` is far enough past the last checkpoint for another
        (a comparison: every command asks)."""
        return sequence >= self._due_at

    def worth_keeping(self, sequence: int) -> bool:
        """Whether a restart at entry ``sequence`` would replay ``CHECKPOINT_EVERY`` entries
        or more after the last checkpoint."""
        return sequence - self.sequence >= CHECKPOINT_EVERY

    def keep(self, current: Current, wait: bool) -> None:
        """Keep the cells changed since the last checkpoint, unless a checkpoint as late is
        kept, or (``wait`` false) another thread is keeping one now."""
        if not self._storage.durable or not self._keeping.acquire(blocking=wait):
            return  # nothing to restart from, or another thread is keeping one now
        state, sequence, digest = current
        try:
            if sequence < self.sequence or (
                    sequence == self.sequence and self._checkpointed is not EMPTY_STATE):
                return
            before = self._checkpointed
            since = None if before is EMPTY_STATE else self.sequence
            if not self._storage.checkpoint(sequence, self._key,
                                            changed_cells_encoded(before, state),
                                            text(digest), since):
                # Another process checkpointed since this one did: keep every cell.
                self._storage.checkpoint(sequence, self._key,
                                         changed_cells_encoded(EMPTY_STATE, state),
                                         text(digest), None)
            self._checkpointed, self.sequence = state, sequence
            self._due_at = self._next_due(sequence, fact_count(state))
        finally:
            self._keeping.release()
