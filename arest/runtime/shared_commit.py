"""Group commit on a shared journal: the commands queued for a tenant's commit lock, appended
in one transaction, each checked as if it were alone.

On a journal other processes append to (:class:`~arest.runtime.storage.SharedStorage`), a
command run on a snapshot S becomes a :class:`Proposal`: its D′ on S, its footprint, its
journal entry (not yet numbered) and whether a precondition guarded it.  Whichever thread
holds the tenant's commit lock takes every proposal queued meanwhile, a batch ⟨p₁,…,pₙ⟩, and
chains it on D₀, the D the tenant holds (:func:`chained`, Definition 2 for each in turn):

    Dᵢ = D′ᵢ                               if Dᵢ₋₁ is pᵢ's snapshot
    Dᵢ = Dᵢ₋₁ with pᵢ's written cells      if footprint(pᵢ) ∩ changed(Sᵢ, Dᵢ₋₁) = ∅
                                             and no precondition guarded pᵢ
    Dᵢ = Dᵢ₋₁, pᵢ runs again               otherwise

A precondition read more than the footprint records, so a guarded proposal merges nothing.
The entries of the chained proposals are appended after D₀'s, in one transaction with their
mirror steps (:meth:`SharedCommit.commit_batch`); when another process appended first the
tenant takes in what it missed (:meth:`SharedCommit.catch_up`) and chains them again on the
new D₀ (one left out once runs again whatever the new D₀).  D after the batch is installed
once it is durable, and every thread answers after the transaction that holds its entry has
committed.  What a command brings is worked out before the lock (its delta and mirror step),
used as it is when it lands on its own snapshot.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, NamedTuple

from arest.algebra import State
from arest.runtime.digest import Delta, asserted_delta, recorded, text
from arest.runtime.following import Current, replayed_entries
from arest.runtime.footprint import Footprint
from arest.runtime.recovery import ReplayError
from arest.runtime.runner import changed_cells
from arest.runtime.storage import JournalMoved, Pending, SharedStorage, StorageError

if TYPE_CHECKING:
    from arest.runtime.mirroring import Mirror, Step

__all__ = ["Link", "Proposal", "SharedCommit", "chained"]


class Proposal:
    """A command ready to commit on a shared journal: its D′ on its snapshot, its delta and
    mirror step there, and, once a batch took it, what came of it (D after it, or None to
    run again; or the error that kept the batch)."""

    def __init__(self, snapshot: State, after: State, footprint: Footprint | None,
                 command: Pending, guarded: bool, delta: Delta, step: Step | None) -> None:
        self.snapshot, self.after, self.footprint = snapshot, after, footprint
        self.command, self.guarded, self.delta, self.step = command, guarded, delta, step
        self.done = False
        self.committed: Current | None = None
        self.failed: BaseException | None = None

    def finish(self, committed: Current | None) -> None:
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


class Link(NamedTuple):
    """A proposal chained onto a D: its numbered entry, D after it, and its mirror step."""

    proposal: Proposal
    entry: Pending
    after: Current
    step: Step | None


def chained(current: Current, batch: Sequence[Proposal], mirror: Mirror | None
            ) -> list[Link]:
    """The batch's proposals that land on ``current`` one after another, each numbered
    after the one before and carrying the digest of D after it; a proposal that must run
    again is left out (and D goes on from the one before it).

    >>> from arest.algebra import EMPTY_STATE, store_all
    >>> S = store_all(EMPTY_STATE, [("a", "1"), ("b", "2"), ("c", "3")])
    >>> def proposal(cell: str, value: str, guarded: bool = False) -> Proposal:
    ...     footprint = Footprint()
    ...     after = footprint.state_of(footprint.view(S).set(cell, value))
    ...     entry = Pending(0, f"set {cell}", "{}", "{}", "", "")
    ...     delta = asserted_delta(S, after, [cell])
    ...     return Proposal(S, after, footprint, entry, guarded, delta, None)
    >>> links = chained((S, 7, 0), [proposal("a", "10"), proposal("b", "20"),
    ...                             proposal("a", "11"), proposal("c", "30", guarded=True)],
    ...                 None)
    >>> [(link.entry.key, link.entry.sequence) for link in links]  # a again and c run again
    [('set a', 8), ('set b', 9)]
    >>> sorted(links[-1].after[0].items())
    [('a', '10'), ('b', '20'), ('c', '3')]
    """
    state, sequence, digest = current
    links = []
    for proposal in batch:
        prepared = proposal.on(state)
        if prepared is None:
            continue
        after, delta, step = prepared
        if step is None and mirror is not None:
            step = mirror.step(state, after, delta)
        digest, facts = recorded(digest, delta)
        sequence += 1
        entry = proposal.command._replace(sequence=sequence, digest=text(digest), facts=facts)
        links.append(Link(proposal, entry, (after, sequence, digest), step))
        state = after
    return links


def _mirror_of(storage: SharedStorage) -> Mirror | None:
    """The Rmap mirror of a shared journal that mirrors the facts (PostgreSQL's), else None."""
    from arest.runtime.mirroring import Mirror, MirroringStorage

    return Mirror(storage) if isinstance(storage, MirroringStorage) else None


class SharedCommit:
    """A tenant's commits to a shared journal.  ``held()`` is the D the tenant holds (with
    its sequence number and digest), ``install`` makes a durable D the tenant's, and
    ``part`` stops the tenant when the journal holds what it cannot take in."""

    def __init__(self, storage: SharedStorage, shown_as: str, held: Callable[[], Current],
                 install: Callable[[Current], None], part: Callable[[BaseException], None]
                 ) -> None:
        self.storage, self._shown_as = storage, shown_as
        self._held, self._install, self._part = held, install, part
        self.mirror = _mirror_of(storage)
        """The Rmap tables the facts are mirrored into, beside the journal."""
        self._proposing = threading.Lock()
        self._proposals: list[Proposal] = []
        """Proposals waiting for the commit lock, ready to append."""

    def propose(self, snapshot: State, after: State, footprint: Footprint | None,
                command: Pending, guarded: bool) -> Proposal:
        """A command's D′ on its snapshot, with its delta and mirror step worked out now,
        outside the commit lock (used as they are when it commits on that snapshot).  The
        step is left to the commit when D has moved already: it would be worked out again
        on the D it lands on, or not at all (the command runs again)."""
        delta = asserted_delta(snapshot, after, changed_cells(snapshot, after, footprint))
        step = (None if self.mirror is None or self._held()[0] is not snapshot
                else self.mirror.step(snapshot, after, delta))
        return Proposal(snapshot, after, footprint, command, guarded, delta, step)

    def commit(self, proposal: Proposal, committing: threading.Lock, holding: bool
               ) -> Current | None:
        """Commit the proposal with those other threads queued for the commit lock
        ``committing`` meanwhile, in one transaction (:meth:`commit_batch`); D after it, or
        None when it must run again.  ``holding``: this thread holds the lock already."""
        with self._proposing:
            self._proposals.append(proposal)
        lock: AbstractContextManager[object] = nullcontext() if holding else committing
        with lock:
            if not proposal.done:
                with self._proposing:
                    queued, self._proposals = self._proposals, []
                # The lock holder's own first: it may have run on the latest D, exclusively.
                self.commit_batch([proposal, *(p for p in queued if p is not proposal)])
        if proposal.failed is not None:
            raise proposal.failed
        return proposal.committed

    def commit_batch(self, batch: Sequence[Proposal]) -> None:
        """Append the entries of the batch's proposals that land on the D the tenant holds
        (:func:`chained`), in one transaction, then install D after them; when another
        process appended first, catch up and chain those again.  A proposal left out is
        done at once: it runs again.  Every proposal of the batch is done when this
        returns: D after it, None (run it again), or the error.  For the holder of the
        tenant's commit lock."""
        batch = list(batch)
        try:
            while batch:
                links = chained(self._held(), batch, self.mirror)
                landing = {id(link.proposal) for link in links}
                for proposal in batch:
                    if id(proposal) not in landing:
                        proposal.finish(None)
                try:
                    if self.mirror is None:
                        self.storage.append([link.entry for link in links])
                    else:  # with a mirror, chained worked out every link's step
                        self.mirror.append([(link.entry, link.step) for link in links
                                            if link.step is not None])
                except JournalMoved:
                    self.catch_up()
                    batch = [link.proposal for link in links]
                    continue
                # Durable before it is installed: whoever reads this D finds it in the journal.
                if links:
                    self._install(links[-1].after)
                for link in links:
                    link.proposal.finish(link.after)
                return
        except BaseException as error:
            for proposal in batch:
                if not proposal.done:
                    proposal.fail(error)
            raise

    def catch_up(self) -> None:
        """Take in the entries other processes appended since the last one the tenant holds,
        installing D after each (:mod:`arest.runtime.following`).  For the holder of the
        commit lock.  An entry that does not replay to its digest parts the tenant from the
        journal."""
        entries = self.storage.entries(after=self._held()[1])  # a failed read changes nothing
        try:
            for caught_up in replayed_entries(self._shown_as, self._held(), entries):
                self._install(caught_up)
        except (StorageError, ReplayError) as error:
            self._part(error)
            raise

    def mirror_held(self) -> None:
        """Make the mirror's tables hold the tenant's D, catching up first while another
        process appends meanwhile.  For the holder of the commit lock."""
        while self.mirror is not None and not self.mirror.bring_to(*self._held()[:2]):
            self.catch_up()
