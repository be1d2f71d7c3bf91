"""A command ready to commit on a shared journal, waiting for the tenant's commit lock.

On a journal other processes append to, a tenant commits the commands queued meanwhile in
one transaction (:meth:`arest.runtime.tenant.Tenant._commit_batch`): whichever thread holds
the commit lock appends them all, each checked against the D it is appended on exactly as
if it were alone (Definition 2: its footprint unchanged since its snapshot, its written
cells put onto that D; else it runs again), and every thread answers once the transaction
that holds its entry has committed.  What a command brings is worked out before the lock:
its delta and its mirror step, used as they are when it commits on its own snapshot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arest.algebra import State
from arest.runtime.digest import Delta, asserted_delta
from arest.runtime.footprint import Footprint
from arest.runtime.runner import changed_cells
from arest.runtime.storage import Pending, StorageError

if TYPE_CHECKING:
    from arest.runtime.mirroring import Step


class Proposal:
    """A command ready to commit on a shared journal: its D′ on its snapshot, its delta and
    mirror step there, and, once a batch took it, what came of it (D after it, or None to
    run again; or the error that kept the batch)."""

    def __init__(self, snapshot: State, after: State, footprint: Footprint | None,
                 command: Pending, guarded: bool, delta: Delta, step: Step | None) -> None:
        self.snapshot, self.after, self.footprint = snapshot, after, footprint
        self.command, self.guarded, self.delta, self.step = command, guarded, delta, step
        self.done = False
        self.committed: tuple[State, int, int] | None = None
        self.failed: BaseException | None = None

    def finish(self, committed: tuple[State, int, int] | None) -> None:
        self.committed, self.done = committed, True

    def on(self, state: State) -> tuple[State, Delta, Step | None] | None:
        """D′, the delta and the mirror step on state, a D after the snapshot (the written
        cells put onto it; the step to be worked out again, None); None when a cell of the
        footprint changed since the snapshot, or a precondition read it (run it again)."""
        if state is self.snapshot:
            return self.after, self.delta, self.step
        footprint = self.footprint
        if self.guarded or footprint is None or not footprint.unchanged(self.snapshot, state):
            return None
        after = footprint.merged(state, self.after)
        return after, asserted_delta(state, after, changed_cells(state, after, footprint)), None

    def fail(self, error: BaseException) -> None:
        self.failed = error if isinstance(error, StorageError) else StorageError(
            f"the journal could not be written ({error})")
        self.done = True
