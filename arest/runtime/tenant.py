"""Tenant: the one mutable holder of a current D, durable before each answer.

``Tenant.open(*readings, db=…)`` loads the readings and replays the journal; ``call(key,
input)`` stamps the command with the time and its signal source (time is an input, so replay
is deterministic), applies SYSTEM, and keeps an accepted command in the journal before it
returns.  A command that changes nothing (an error, a rejection, a read) is not kept.
A database is open in one process at a time.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.resources
import json
import os
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from arest import __version__
from arest.algebra import EMPTY_STATE, State, store_all
from arest.algebra.relations import Relation
from arest.api import apply, load_sources, read_files
from arest.runtime.codec import FORMAT as CODEC
from arest.runtime.codec import decode, decode_cell, encode, encode_cell
from arest.runtime.storage import Storage, StorageError, open_storage
from arest.system.derive import derive_all, rebuilt_on_load, without_derived_facts


class TenantLocked(RuntimeError):
    """Raised when a database is already open in another process; names the holder."""


class ReplayError(RuntimeError):
    """Raised on open when a journaled command is no longer accepted (the readings changed
    and the stored population would violate them); lists what it reported."""


CHECKPOINT_EVERY = 500
"""The fewest accepted commands between checkpoints of the cells they changed."""

CHECKPOINT_SHARE = 10
"""A checkpoint writes whole changed cells, so it waits for at least one command per
``CHECKPOINT_SHARE`` facts in the state: its cost per command stays constant as the state
grows, and a restart replays at most that many commands."""


def readings_key(sources: tuple[tuple[str, str], ...]) -> str:
    """What a kept state depends on: the readings' paths and texts, the bundled metamodel and
    this arest's version (so that a changed compiler compiles afresh)."""
    metamodel = importlib.resources.files("arest").joinpath("readings")
    bundled = sorted((entry.name, entry.read_text("utf-8")) for entry in metamodel.iterdir()
                     if entry.name.endswith(".md"))
    digest = hashlib.sha256(json.dumps([__version__, CODEC, bundled, sources]).encode())
    return digest.hexdigest()


def _base(storage: Storage, key: str, sources: tuple[tuple[str, str], ...]) -> State:
    """D for the readings: kept in the database, or compiled and kept; changed readings are
    compiled afresh (and the journal is replayed on them)."""
    kept = storage.base(key)
    if kept is not None:
        try:
            return decode(kept)
        except (ValueError, KeyError, TypeError):
            pass  # a damaged copy is compiled again from the readings
    state = load_sources(sources)
    storage.keep_base(key, encode(state))
    return state


def utc_now() -> str:
    """The clock: an ISO-8601 UTC time with microseconds."""
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _lock(path: Path) -> IO[str]:
    lock_path = path.with_name(path.name + ".lock")
    handle = open(lock_path, "a+", encoding="utf-8")  # noqa: SIM115 - held while open
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        raise TenantLocked(f"{path} is open in {holder}; close it there first") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"process {os.getpid()}")
    handle.flush()
    return handle


class Tenant:
    """A durable tenant over readings and a database (``:memory:`` for none)."""

    def __init__(self, state: State, storage: Storage, lock: IO[str] | None,
                 clock: Callable[[], str]) -> None:
        self._state = state
        self._storage = storage
        self._lock = lock
        self._clock = clock
        self._writing = threading.Lock()
        self._key = ""
        self._sequence = 0
        self._checkpointed = state
        self._since = 0
        self._facts = sum(len(cell) for cell in state.values() if isinstance(cell, Relation))

    @classmethod
    def open(cls, *readings: str | Path, db: str | Path = ":memory:",
             clock: Callable[[], str] = utc_now) -> Tenant:
        """Load the readings, open the database, replay its journal."""
        lock = None if str(db) == ":memory:" else _lock(Path(db))
        try:
            storage = open_storage(db)
            sources = read_files(*readings)
            key = readings_key(sources)
            restored = storage.restore(key)
            if restored is not None:
                sequence, cells = restored
                try:
                    state = store_all(EMPTY_STATE, ((name, decode_cell(text))
                                                    for name, text in cells.items()))
                except (ValueError, KeyError, TypeError) as error:
                    raise StorageError(f"{db}: a checkpointed cell cannot be read ({error})"
                                       ) from None
                checkpointed = state
                if rebuilt_on_load(state):
                    state = derive_all(state)
            else:
                sequence, state = 0, _base(storage, key, sources)
                checkpointed = EMPTY_STATE  # the first checkpoint keeps every cell
            for entry in storage.entries(after=sequence):
                out, after = apply(state, entry.key, entry.input, entry.context)
                if "error" in out or out.get("rejected"):
                    raise ReplayError(
                        f"{db}: journal entry {entry.sequence} ({entry.key}) is not accepted"
                        f" on these readings: {out.get('error') or out.get('violations')}"
                    )
                state = after
                sequence = entry.sequence
        except BaseException:
            if lock is not None:
                lock.close()
            raise
        tenant = cls(state, storage, lock, clock)
        tenant._key, tenant._sequence, tenant._checkpointed = key, sequence, checkpointed
        tenant._since = sequence - restored[0] if restored is not None else sequence
        return tenant

    @property
    def state(self) -> State:
        """The current D (a value: keep it as a snapshot if you like)."""
        return self._state

    def call(self, key: str, request: Any = None, source: str = "System") -> dict[str, Any]:
        """Apply one command; an accepted change is durable before this returns."""
        try:
            json.dumps(request)
        except (TypeError, ValueError, RecursionError) as error:
            message = ("the input nests too deeply" if isinstance(error, RecursionError)
                       else "the input is not JSON")
            return {"error": {"code": "invalid_input", "message": message, "path": "$",
                              "expected": "JSON values"}}
        with self._writing:
            context = {"now": self._clock(), "source": source}
            out, after = apply(self._state, key, request, context)
            if after is not self._state:
                self._sequence = self._storage.append(key, request, context)
                self._state = after
                self._since += 1
                if self._since >= max(CHECKPOINT_EVERY, self._facts // CHECKPOINT_SHARE):
                    self._checkpoint()
            return out

    def _checkpoint(self) -> None:
        """Keep the cells changed since the last checkpoint (by identity: an unchanged cell
        is the same object), so that a restart replays only the journal after it."""
        before, now = self._checkpointed, self._state
        in_memory = rebuilt_on_load(now)
        changed: dict[str, str | None] = {
            name: encode_cell(without_derived_facts(contents)
                              if name in in_memory and isinstance(contents, Relation)
                              else contents)
            for name, contents in now.items()
            if before.get(name) is not contents
        }
        changed.update({name: None for name in before if name not in now})
        self._storage.checkpoint(self._sequence, self._key, changed)
        self._checkpointed = now
        self._since = 0
        self._facts = sum(len(cell) for cell in now.values() if isinstance(cell, Relation))

    def checkpoint(self) -> None:
        """Keep the changed cells now (also done every CHECKPOINT_EVERY commands and on close)."""
        with self._writing:
            self._checkpoint()

    def close(self) -> None:
        # Closing checkpoints only what a restart would otherwise replay at length.
        if self._key and self._since >= CHECKPOINT_EVERY:
            self.checkpoint()
        self._storage.close()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def __enter__(self) -> Tenant:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
