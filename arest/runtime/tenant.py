"""Tenant: the one mutable holder of a current D, durable before each answer.

``Tenant.open(*readings, db=…)`` loads the readings and recovers D from the database
(:mod:`arest.runtime.recovery`).  ``call(key, input)`` stamps the command with the time and its
signal source (time is an input, so replay is deterministic), applies SYSTEM, and keeps an
accepted command in the journal, with the digest of the asserted facts after it, before it
returns.  A command that changes nothing (an error, a rejection, a read) is not kept.

Commands run concurrently, isolated cell by cell (Definition 2).  Each runs on the D current
when it starts, recording its footprint (:mod:`arest.runtime.footprint`), and commits under a
short lock: when no cell of its footprint changed meanwhile, its written cells go into the
current D and its journal entry is queued; otherwise it runs again on the new D.  The caller
then waits for the entry to be on disk, written with the others queued meanwhile in one
transaction (:mod:`arest.runtime.group_commit`).  Commands on disjoint cells never wait for
each other's work; on a shared cell they serialize; the journal's order is a serial order
that gives the same D and the same outputs.  After ``OPTIMISTIC_ATTEMPTS`` conflicts a
command runs holding the lock, so it cannot starve.  A create its plan's straight-line steps
answer, finding no other command on its way to the journal, runs on D itself (no view to
record through) and its entry is written from the facts it asserted, by the command itself
when the journal is idle (:meth:`GroupCommit.claim`); only when another
command committed meanwhile is its footprint recorded, by running it again on a view of the
same D, and it commits as the others do.  A database is open in one process at a
time, or, in PostgreSQL, by several (:mod:`arest.runtime.postgres`): then the commands queued
for the commit lock are appended in one transaction, each as if alone
(:mod:`arest.runtime.shared_commit`), and each process follows the others' commits
(:mod:`arest.runtime.following`).  Checkpoints of the changed cells shorten a restart
(:mod:`arest.runtime.checkpoints`).  A tenant holds at most ``max_snapshots`` snapshots:
``snapshot`` under a new label beyond that is refused (``limit_exceeded``) before it runs.
A command given a budget (:mod:`arest.runtime.budget`) that spends it, or whose caller
cancels it, is answered ``limit_exceeded`` with D as it was.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from json.encoder import encode_basestring, encode_basestring_ascii
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final

from arest.algebra import State
from arest.api import read_files
from arest.hashes import sha256
from arest.runtime import recovery
from arest.runtime.budget import Budget, BudgetSpent
from arest.runtime.checkpoints import Checkpoints
from arest.runtime.clock import UtcClock, utc_now
from arest.runtime.codec import FORMAT as CODEC
from arest.runtime.database_url import is_postgresql, shown
from arest.runtime.digest import recorded_assertions, recorded_between, text
from arest.runtime.footprint import Footprint
from arest.runtime.group_commit import GroupCommit
from arest.runtime.lockfile import TenantLocked
from arest.runtime.recovery import ReplayError
from arest.runtime.runner import changed_cells, run_recording
from arest.runtime.storage import Pending, SharedStorage, Storage, StorageError, open_storage
from arest.system.commands import VERBS, Command, Effect, Limits, parse_key
from arest.system.compiled_create import flat_answer
from arest.system.context import SOURCES, SYSTEM, Context, read_context
from arest.system.errors import Refusal, invalid_input
from arest.version import __version__

if TYPE_CHECKING:
    # A federation, a follower and a shared journal's commits need HTTP or a shared journal
    # (and the Rmap, to mirror it): their modules load with them, not with every tenant.
    from arest.runtime.federation import Federation
    from arest.runtime.following import Follower
    from arest.runtime.shared_commit import SharedCommit
    from arest.system.flat_create import Asserted

__all__ = ["ReplayError", "Tenant", "TenantLocked", "readings_key", "utc_now"]


OPTIMISTIC_ATTEMPTS = 3
"""Runs of a command that may find a cell of its footprint changed before it commits; the
next run holds the commit lock throughout."""

_tuple_new: Final = tuple.__new__

MAX_SNAPSHOTS = Limits().snapshots
"""The most snapshots a tenant holds unless opened with another ``max_snapshots``."""



def readings_key(sources: tuple[tuple[str, str], ...]) -> str:
    """What a kept state depends on: the readings' paths and texts, the bundled metamodel and
    this arest's version (so that a changed compiler compiles afresh)."""
    from arest.forml2.bundled import metamodel_texts

    bundled = metamodel_texts()
    digest = sha256(json.dumps([__version__, CODEC, bundled, sources]).encode())
    return digest.hexdigest()


def _context_text(context: Context) -> str:
    """The context as JSON, made by hand: it is one per command, and always these two keys.

    >>> json.loads(_context_text(Context("2025-01-01T00:00:00Z", "Human")))
    {'now': '2025-01-01T00:00:00Z', 'source': 'Human'}
    """
    return _context_json(context.now, context.source)


def _context_json(now: str, source: str) -> str:
    """:func:`_context_text` of the context of that time and source, for a command that
    needs no :class:`Context` besides."""
    return f'{{"now": {encode_basestring(now)}, "source": {encode_basestring(source)}}}'


def _input_text(value: Any) -> str:
    """``json.dumps(value)``, made by hand for the usual input, an object of strings (the
    encoder ``json.dumps`` builds for each call costs more than such an input's text).

    >>> _input_text({"id": "ann@x", "Name": "Ann"}), _input_text([1, {"a": None}])
    ('{"id": "ann@x", "Name": "Ann"}', '[1, {"a": null}]')
    """
    if type(value) is dict:
        fields = []
        for key, field in value.items():
            if type(key) is not str or type(field) is not str:
                return json.dumps(value)
            fields.append(f"{encode_basestring_ascii(key)}: {encode_basestring_ascii(field)}")
        return "{" + ", ".join(fields) + "}"
    return json.dumps(value)


class Tenant:
    """A durable tenant over readings and a database (``:memory:`` for none)."""

    def __init__(self, recovered: recovery.Recovered, storage: Storage, key: str,
                 clock: Callable[[], str],
                 max_snapshots: int = MAX_SNAPSHOTS, shown_as: str = "") -> None:
        self._current = (recovered.state, recovered.sequence, recovered.digest)
        """D, the sequence number of the last command in it, and its digest: one value, so
        that a reader takes all three at once."""
        self._storage = storage
        self._journal = GroupCommit(storage, recovered.sequence)
        self._clock = clock
        self._limits = Limits(snapshots=max_snapshots)
        self._committing = threading.Lock()
        """Held to check a footprint, install a D′ and queue its journal entry (or, on a
        shared journal, append the entries of the proposals queued)."""
        self._checkpoints = Checkpoints(storage, key, recovered.checkpointed,
                                        recovered.checkpoint_sequence, recovered.state)
        self._shown_as = shown_as
        """The database as messages name it."""
        self._shared: SharedCommit | None = None
        """The commits, when other processes append to the storage's journal too."""
        if isinstance(storage, SharedStorage):
            from arest.runtime.shared_commit import SharedCommit

            self._shared = SharedCommit(storage, shown_as, lambda: self._current,
                                        self._install, self._journal.fail)
        self._follower: Follower | None = None
        self._federation: Federation | None = None

    @classmethod
    def open(cls, *readings: str | Path, db: str | Path = ":memory:",
             clock: Callable[[], str] | None = None, max_snapshots: int = MAX_SNAPSHOTS
             ) -> Tenant:
        """Load the readings, open the database, recover D (checkpoint + checked replay).

        ``clock``: what stamps each command with its time (default: a
        :class:`~arest.runtime.clock.UtcClock` of the tenant's own).

        ``max_snapshots``: the most snapshots D may hold; ``snapshot`` under a new label is
        then refused (``limit_exceeded``).  Snapshots held already are kept whatever it is.
        """
        if isinstance(max_snapshots, bool) or not isinstance(max_snapshots, int) or (
                max_snapshots < 0):
            raise ValueError(f"max_snapshots: expected a whole number ≥ 0, not {max_snapshots!r}")
        shown_as = shown(db) if is_postgresql(db) else str(db)
        storage = open_storage(db)  # holds the database's lock file until closed
        try:
            sources = read_files(*readings)
            key = readings_key(sources)
            recovered = recovery.recover(storage, shown_as, key, sources)
            tenant = cls(recovered, storage, key, UtcClock() if clock is None else clock,
                         max_snapshots, shown_as)
            if recovered.rebased:  # new readings: keep D whole under them before the base
                tenant._checkpoints.keep(tenant._current, wait=True)
            if recovered.base_to_keep is not None:
                storage.keep_base(key, recovered.base_to_keep)
            if tenant._shared is not None:
                tenant._shared.mirror_held()
        except BaseException:
            storage.close()
            raise
        if tenant._shared is not None:
            from arest.runtime.following import Follower

            tenant._follower = Follower(tenant._shared.storage, tenant.catch_up, tenant._parted,
                                        lambda: tenant._current[1])
        return tenant

    def federate(self, federation: Federation) -> None:
        """Answer the commands about backed nouns through federation (DESIGN §13)."""
        self._federation = federation

    @property
    def state(self) -> State:
        """The current D (a value: keep it as a snapshot if you like).  It may hold a
        command whose journal entry is being written; ``call`` answers nothing before what
        it read is durable."""
        return self._current[0]

    @property
    def sequence(self) -> int:
        """The sequence number of the last command the current D holds (0 for none): an
        answer computed on D reflects no command after it (docs/scale.md)."""
        return self._current[1]

    @property
    def digest(self) -> str:
        """The digest of the current D's asserted facts, ``v1:`` and 64 hex digits
        (:mod:`arest.runtime.digest`); the journal keeps it with every entry."""
        return text(self._current[2])

    @property
    def version(self) -> tuple[int, str]:
        """The current D's :attr:`sequence` and :attr:`digest`, read together: one D's
        both, so two servers of a tenant at one sequence hold one D when their digests
        agree (docs/scale.md)."""
        _, sequence, digest = self._current
        return sequence, text(digest)

    @property
    def shared(self) -> bool:
        """Whether other processes may commit to this tenant's journal (PostgreSQL): only
        then can the journal hold commands D does not."""
        return self._shared is not None

    def call(self, key: str, request: Any = None, source: str = SYSTEM) -> dict[str, Any]:
        """Apply the command a key and its input make; an accepted change is durable before
        this returns."""
        try:
            command = parse_key(key, request)
        except Refusal as refusal:
            return refusal.envelope
        return self.run(command, source)

    def run(self, command: Command, source: str = SYSTEM,
            precondition: Callable[[State], dict[str, Any] | None] | None = None,
            budget: Budget | None = None, outbound: bool = True) -> dict[str, Any]:
        """Apply one command from the given Signal Source; an accepted change is durable
        before this returns.  A ``precondition`` (an HTTP ``If-Match``) is checked on the D
        the command runs on, under the commit lock, so nothing commits between the check
        and the command; what it returns instead of None is the answer, D unchanged.  A
        ``budget`` spent (or cancelled) at a read of D or before the commit makes the
        answer its ``limit_exceeded``, D unchanged.  ``outbound``: whether the caller holds
        the permission to make the server fetch from an external system (``forbidden`` when
        the command would and it does not)."""
        try:
            encoded = _input_text(command.input)
            if source not in SOURCES:  # read_context accepts every other source as it is
                read_context({"source": source})
        except (TypeError, ValueError, RecursionError) as error:
            message = ("the input nests too deeply" if isinstance(error, RecursionError)
                       else "the input is not JSON")
            return invalid_input("$", "JSON values", message).envelope
        except Refusal as refusal:
            return refusal.envelope
        self._journal.check()
        if (precondition is None and budget is None and self._federation is None
                and self._shared is None and self._journal.idle):
            alone = self._run_alone(command, source, encoded)
            if alone is not None:
                return alone
        if self._federation is not None:
            snapshot, seen, _ = self._current
            answered = self._federation.answer(snapshot, command, Context(self._clock(), source),
                                               outbound)
            if answered is not None:  # a read of fetched facts, or a refused write
                self._journal.wait(seen)
                return answered
        attempt = 0 if precondition is None else OPTIMISTIC_ATTEMPTS
        rechecked = False
        while True:
            exclusive = attempt >= OPTIMISTIC_ATTEMPTS
            outer: AbstractContextManager[Any] = self._committing if exclusive else nullcontext()
            with outer:
                if exclusive and self._shared is not None:
                    # Another process may be ahead: a precondition is checked, and a command
                    # that lost the race runs, on the journal's latest D.
                    self._shared.catch_up()
                snapshot, seen, _ = self._current
                refused = None if precondition is None else precondition(snapshot)
                if refused is not None:
                    out, committed = refused, None
                else:
                    context = Context(self._clock(), source)
                    out, after, footprint = self._run_within_limits(snapshot, command,
                                                                    context, budget)
                    spent = None if budget is None or after is snapshot else budget.spent()
                    if spent is not None:  # an answer only for a command within its budget
                        out, after = spent, snapshot
                if refused is not None or after is snapshot:
                    committed = None
                    if refused is None and not rechecked and self._refused_on_stale_d(out, seen):
                        rechecked = True  # run again on the journal's latest D, once
                        attempt = max(attempt, OPTIMISTIC_ATTEMPTS)
                        continue
                else:
                    if self._shared is not None:
                        committed = self._shared.commit(self._shared.propose(
                            snapshot, after, footprint, Pending(
                                0, command.key, encoded, _context_text(context), "", ""),
                            precondition is not None), self._committing, holding=exclusive)
                    else:
                        inner: AbstractContextManager[Any] = (nullcontext() if exclusive
                                                              else self._committing)
                        with inner:
                            committed = self._commit(snapshot, after, footprint, command.key,
                                                     encoded, context)
                    if committed is None:
                        attempt += 1
                        continue
            # Nothing is answered before what it rests on is in the journal.
            self._journal.wait(seen if committed is None else committed[1])
            if committed is not None and self._checkpoints.due(committed[1]):
                self._checkpoints.keep(committed, wait=False)
            return out

    def _run_alone(self, command: Command, source: str, encoded: str
                   ) -> dict[str, Any] | None:
        """:meth:`run` of a create its plan's straight-line steps answer
        (:func:`arest.system.compiled_create.flat_answer`), for a command that finds no
        other on its way to the journal: on D itself, with no recording view, its journal
        entry from the facts it asserted (:func:`recorded_assertions`).  A footprint is
        needed only when another command committed meanwhile: then it is recorded by running
        the command again on a view of the same D (SYSTEM is pure: the same answer), and the
        commit goes on as :meth:`run`'s.  None where the command is no such create, or a
        cell of its footprint changed (then :meth:`run` runs it again on the new D)."""
        snapshot, seen, _ = self._current
        answered = flat_answer(snapshot, command) if VERBS[command.verb].beyond is None else None
        if answered is None:
            return None
        out, after, asserted = answered
        journal = self._journal
        if after is snapshot:  # rejected: nothing to keep
            journal.wait(seen)
            return out
        now = self._clock()
        with self._committing:
            claimed = self._commit_asserted(snapshot, after, asserted, command.key, encoded,
                                            _context_json(now, source))
        if claimed is not None:
            committed, entry = claimed
            if entry is None:  # queued behind a batch being written
                journal.wait(committed[1])
            else:
                journal.write_claimed(entry)
        else:  # another command committed since: record the footprint
            context = Context(now, source)
            out, after, footprint = run_recording(snapshot, command, context)
            if after is snapshot:
                return None
            with self._committing:
                recorded = self._commit(snapshot, after, footprint, command.key, encoded,
                                        context)
            if recorded is None:
                return None
            committed = recorded
            journal.wait(committed[1])
        if self._checkpoints.due(committed[1]):
            self._checkpoints.keep(committed, wait=False)
        return out

    def _refused_on_stale_d(self, out: dict[str, Any], seen: int) -> bool:
        """Whether a command was refused (an error or a rejection) on a D the shared
        journal has gone past: another process's commands may have made it acceptable.
        A journal of one writer is never ahead of its D."""
        return (self._shared is not None and ("error" in out or bool(out.get("rejected")))
                and self._shared.storage.last_sequence() > seen)

    def read_now(self, command: Command, source: str = SYSTEM) -> dict[str, Any] | None:
        """The output of a command that reads D (its verb's effect is READS), on the current
        D, without waiting: None when some of what D holds is still on its way to the
        journal (then :meth:`run` answers it, once that is durable).  It never blocks, so an
        event loop may call it for a cheap read."""
        if VERBS[command.verb].effect is not Effect.READS:
            return None
        snapshot, seen, _ = self._current
        if self._federation is not None and self._federation.backed_target(snapshot, command):
            return None  # it fetches: run answers it
        if self._journal.durable < seen:
            return None
        self._journal.check()
        try:
            if source not in SOURCES:
                read_context({"source": source})
        except Refusal as refusal:
            return refusal.envelope
        out, _, _ = run_recording(snapshot, command, Context(self._clock(), source))
        return out

    def _run_within_limits(self, snapshot: State, command: Command, context: Context,
                           budget: Budget | None = None
                           ) -> tuple[dict[str, Any], State, Footprint | None]:
        """SYSTEM on snapshot, unless the command would go beyond the tenant's limits (then
        its refusal, D unchanged).  The limits are the runtime's, checked here and not in
        SYSTEM: they bound what this tenant keeps on disk, and a replay must accept every
        journaled command whatever limits the tenant is opened with now."""
        beyond = VERBS[command.verb].beyond
        refusal = None if beyond is None else beyond(snapshot, command.input, self._limits)
        if refusal is not None:
            return refusal.envelope, snapshot, None
        try:
            return run_recording(snapshot, command, context, budget)
        except BudgetSpent as spent:
            return spent.envelope, snapshot, None

    def _commit(self, snapshot: State, after: State, footprint: Footprint | None, key: str,
                request: str, context: Context) -> tuple[State, int, int] | None:
        """Install the command's D′ and queue its journal entry, unless a cell of its
        footprint changed since its snapshot (None: run it again).  Holds the commit lock."""
        current, sequence, digest = self._current
        if current is not snapshot:
            if footprint is None or not footprint.unchanged(snapshot, current):
                return None
            after = footprint.merged(current, after)
        digest, facts = recorded_between(digest, current, after,
                                         changed_cells(current, after, footprint))
        sequence += 1
        self._journal.enqueue(Pending(sequence, key, request, _context_text(context),
                                      text(digest), facts))
        self._current = (after, sequence, digest)
        return self._current

    def _commit_asserted(self, snapshot: State, after: State, asserted: Asserted, key: str,
                         request: str, context: str
                         ) -> tuple[tuple[State, int, int], Pending | None] | None:
        """:meth:`_commit` of a command run on D itself, its entry written from the facts it
        asserted: the D installed, and the entry when the journal was idle and it is the
        caller's to write at once (:meth:`GroupCommit.claim`; None: queued); None when D
        is no longer snapshot.  Holds the commit lock."""
        current, sequence, digest = self._current
        if current is not snapshot:
            return None
        digest, facts = recorded_assertions(digest, current, after, asserted)
        sequence += 1
        # Made as the tuple it is: a named tuple's own constructor is a Python call more.
        entry = _tuple_new(Pending, (sequence, key, request, context, text(digest), facts))
        claimed = self._journal.claim(entry)
        self._current = committed = (after, sequence, digest)
        return committed, entry if claimed else None

    def _install(self, current: tuple[State, int, int]) -> None:
        """Make a D whose journal entries are durable this tenant's (under the commit lock)."""
        self._journal.kept(current[1])
        self._current = current

    def catch_up(self) -> int:
        """Run now the commands other processes kept in a shared journal since this tenant
        last read it (a tenant follows them by itself, as they are announced); the sequence
        number of the last command D holds.  On a journal of one writer, nothing to do."""
        if self._shared is not None:
            with self._committing:
                self._shared.catch_up()
        return self._current[1]

    def _parted(self) -> bool:
        try:
            self._journal.check()
        except StorageError:
            return True
        return False

    def checkpoint(self) -> None:
        """Keep the changed cells now (also done as commands accumulate, and on close)."""
        current = self._current
        self._journal.wait(current[1])
        self._checkpoints.keep(current, wait=True)

    def recent_facts(self, limit: int = 100) -> list[dict[str, Any]]:
        """The most recently asserted facts that hold now, newest first, each once: its fact
        type, its values in role order, the time and the journal sequence number of the
        command that asserted it.  Read from the journal, so it survives a restart.

        Facts of the readings themselves, of the entity populations and derived facts are
        not listed; a fact asserted again is listed at its latest assertion.
        """
        from arest.runtime.recent import recent_facts

        return recent_facts(self._storage, self._current[0], limit)

    def disk_space_bytes(self) -> int:
        """The database's size on disk: the file, its write-ahead log and its shared-memory
        index (0 for ``:memory:``)."""
        return self._storage.disk_space_bytes()

    def close(self) -> None:
        """Wait for the journal, checkpoint when a restart would replay at length, and let
        the database go (to another process, too)."""
        try:
            if self._follower is not None:
                self._follower.stop()
            self._journal.wait(self._current[1])
            if self._checkpoints.worth_keeping(self._current[1]):
                self.checkpoint()
        finally:
            self._storage.close()

    def __enter__(self) -> Tenant:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
