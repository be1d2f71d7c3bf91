"""Recovery: D from the last checkpoint and the journal after it, checked by the digest.

``recover`` starts from the last checkpoint kept for these readings (or from the compiled
readings when there is none), replays every later journal entry, and checks each against
the digest it recorded (:mod:`arest.runtime.digest`):

- the checkpoint's cells must hold the asserted facts its digest says, else
  :class:`StorageError` (a damaged or altered cell);
- each replayed entry must leave the digest it recorded, else :class:`StorageError` naming
  the entry and the facts replay gave against those it recorded;
- an entry no longer accepted is a :class:`ReplayError` listing what it reported, when the
  readings changed; on the readings it was written under, it was damaged: a
  :class:`StorageError`.

A journal written under other readings (they changed on disk, or arest changed) cannot be
checked against its digests: it is replayed on the new readings, each command validated as it
runs, and then the whole population is validated once more; any alethic violation fails the
open with every violation listed.  The caller then keeps a checkpoint under the new readings.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from arest.algebra import EMPTY_STATE, State, store_all
from arest.algebra.relations import Cell
from arest.collector import held_off
from arest.errors import ArestError
from arest.records import mutable_record
from arest.runtime.codec import decode, decode_cell, encode
from arest.runtime.digest import (
    Delta,
    advanced,
    asserted_delta,
    parsed,
    recorded,
    state_digest,
    text,
)
from arest.runtime.runner import changed_cells, run_recording
from arest.runtime.sealed import sealed, unsealed
from arest.runtime.storage import Entry, Restored, Storage, StorageError
from arest.system.commands import parse_key
from arest.system.context import read_context
from arest.system.derive import derive_all, rebuilt_on_load
from arest.system.errors import Refusal
from arest.system.validate import alethic, all_violations


class ReplayError(ArestError, RuntimeError):
    """Raised on open when a journaled command is no longer accepted, or the population
    violates an alethic constraint, on readings that changed since the journal was written;
    the message lists every error or violation (the constraint's reading, kind, detail)."""


def described(out: dict[str, Any]) -> str:
    """What a refused command reported: its error, or one line per alethic violation."""
    if "error" in out:
        error = out["error"]
        return f"{error.get('code')}: {error.get('message')}"
    return violations_text(alethic(out.get("violations", [])))


def violations_text(violations: list[dict[str, Any]]) -> str:
    """One indented line per violation: its reading, kind and modality, and its detail.

    >>> print(violations_text([{"reading": "Each Customer has exactly one Name.",
    ...     "kind": "MC", "modality": "alethic", "detail": {"key": ["c1"]}}]))
    <BLANKLINE>
      - Each Customer has exactly one Name. (MC, alethic): {"key": ["c1"]}
    """
    return "".join(
        f"\n  - {v.get('reading')} ({v.get('kind')}, {v.get('modality')}):"
        f" {json.dumps(v.get('detail'), ensure_ascii=False)}" for v in violations
    )


@mutable_record
class Recovered:
    """D after recovery, with what the tenant needs to go on: the last sequence number and
    the digest, what the last checkpoint holds, the compiled base to keep, encoded (when the
    database does not hold it yet), and whether D must be checkpointed whole (new readings)."""

    state: State
    sequence: int
    digest: int
    checkpointed: State
    checkpoint_sequence: int
    base_to_keep: str | None
    rebased: bool


def _checkpointed(db: str | Path, restored: Restored) -> tuple[State, int]:
    """The checkpoint's D, its shared cells decoded once each, and its digest, checked."""
    sequence, recorded = restored.sequence, restored.digest
    memo: dict[str, Cell] = {}
    try:
        state = store_all(EMPTY_STATE, ((name, decode_cell(text_, restored.shared, memo))
                                        for name, text_ in restored.cells.items()))
    except (ValueError, KeyError, TypeError) as error:
        raise StorageError(f"{db}: a checkpointed cell cannot be read ({error})") from None
    digest = state_digest(state)
    if recorded is not None and _recorded(db, recorded, f"the checkpoint as of entry {sequence}"
                                          ) not in (None, digest):
        raise StorageError(
            f"{db}: the checkpoint as of journal entry {sequence} does not hold the asserted"
            f" facts it recorded (digest {text(digest)}, recorded {recorded}): a cell was"
            " damaged or altered")
    return state, digest


def _recorded(db: str | Path, recorded: str, where: str) -> int | None:
    try:
        return parsed(recorded)
    except ValueError:
        raise StorageError(f"{db}: {where} has a damaged digest ({recorded[:80]!r})") from None


def _base(storage: Storage, key: str, sources: tuple[tuple[str, str], ...]
          ) -> tuple[State, int, str | None, bool]:
    """The compiled readings: (D, its digest, its encoding when the database does not keep
    it yet, whether the journal was written under them).  A damaged kept copy is compiled
    again."""
    kept = storage.base(key)
    if kept is not None:
        try:
            state, digest, _ = _decoded(kept)
            return state, digest, None, True
        except (ValueError, KeyError, TypeError):
            return (*_compiled(sources, key), True)
    return (*_compiled(sources, key), False)


def _decoded(kept: str) -> tuple[State, int, str]:
    """The D a kept text holds, its digest and the text to keep: the digest sealed beside
    the text and the text as it is when the seal holds for exactly this text
    (:mod:`arest.runtime.sealed`), else the digest recomputed from D and the text sealed
    anew with it."""
    encoded, sealed_digest = unsealed(kept)
    with held_off():  # the decoded D is kept whole: a collection would find nothing
        state = decode(encoded)
    digest = None if sealed_digest is None else _parsed_or_none(sealed_digest)
    if digest is None:
        digest = state_digest(state)
        return state, digest, sealed(encoded, text(digest))
    return state, digest, kept


def _parsed_or_none(stored: str) -> int | None:
    try:
        return parsed(stored)
    except ValueError:
        return None


def _compiled(sources: tuple[tuple[str, str], ...], key: str) -> tuple[State, int, str]:
    """D from the readings, its digest and its encoding with the digest sealed beside it:
    decoded from the compiled state kept beside them when it was made from these readings by
    this arest (:mod:`arest.runtime.compiled`), else compiled, and then kept there."""
    from arest.runtime.compiled import artifact_key, keep_compiled, kept_compiled

    artifact = artifact_key(key)
    kept = kept_compiled(sources, artifact)
    if kept is not None:
        try:
            return _decoded(kept)
        except (ValueError, KeyError, TypeError):
            pass  # a damaged file: compile, and replace it
    from arest.api import load_sources  # the reader loads only when readings are compiled

    state = load_sources(sources)
    digest = state_digest(state)
    encoded = sealed(encode(state), text(digest))
    keep_compiled(sources, artifact, encoded)
    return state, digest, encoded


def _mismatch(db: str | Path, entry: Entry, digest: int, delta: Delta) -> StorageError:
    return StorageError(
        f"{db}: journal entry {entry.sequence} ({entry.key}) replays to other asserted facts"
        f" than it recorded (digest {text(digest)}, recorded {entry.digest}); replay gave"
        f" {recorded(0, delta)[1][:400]}, the journal recorded {(entry.facts or '{}')[:400]}")


def replayed(db: str | Path, state: State, digest: int, entry: Entry, checked: bool
             ) -> tuple[State, int]:
    """D and its digest after one journal entry, run again with its recorded context; when
    ``checked`` (the journal was written under these readings), the digest it recorded must
    be the one the run gives (see the module)."""
    try:
        out, after, footprint = run_recording(
            state, parse_key(entry.key, entry.input), read_context(entry.context))
    except Refusal as refusal:
        out, after, footprint = refusal.envelope, state, None
    if "error" in out or out.get("rejected"):
        if checked:  # SYSTEM is deterministic: it accepted this entry on these readings
            raise StorageError(
                f"{db}: journal entry {entry.sequence} ({entry.key}) is not accepted on"
                f" the readings it was written under ({described(out)}): the entry was"
                " damaged or altered")
        raise ReplayError(f"{db}: journal entry {entry.sequence} ({entry.key}) is not"
                          f" accepted on these readings: {described(out)}")
    delta = asserted_delta(state, after, changed_cells(state, after, footprint))
    digest = advanced(digest, delta)
    if checked and entry.digest is not None and _recorded(
        db, entry.digest, f"journal entry {entry.sequence}"
    ) not in (None, digest):
        raise _mismatch(db, entry, digest, delta)
    return after, digest


def recover(storage: Storage, db: str | Path, key: str,
            sources: tuple[tuple[str, str], ...]) -> Recovered:
    """D for these readings from the database: checkpoint + replay, checked (see the module)."""
    restored = storage.restore(key)
    base_to_keep: str | None = None
    if restored is not None:
        with held_off():  # the decoded D is kept whole: a collection would find nothing
            state, digest = _checkpointed(db, restored)
        checkpointed, start, checked = state, restored.sequence, True
        if rebuilt_on_load(state):
            state = derive_all(state)
    else:
        state, digest, base_to_keep, checked = _base(storage, key, sources)
        checkpointed, start = EMPTY_STATE, 0
    sequence = start
    for entry in storage.entries(after=start):
        state, digest = replayed(db, state, digest, entry, checked)
        sequence = entry.sequence
    rebased = not checked and sequence > start
    if rebased:
        found = alethic(all_violations(state))
        if found:
            raise ReplayError(f"{db}: the population violates the readings"
                              f"{violations_text(found)}")
    return Recovered(state, sequence, digest, checkpointed, start, base_to_keep, rebased)
