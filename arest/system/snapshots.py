"""snapshot, rollback, snapshots: earlier states of D kept in D itself (DESIGN §5).

A snapshot is the state D without its registry; the registry, the cell ``snapshots``, is an
archive that taking a snapshot grows and a rollback leaves alone, so that rolling back keeps
every snapshot.  A snapshot's id is its label; without one (or with ``""``) it is ``snap-N``,
N the number of snapshots held (``snap-0`` first), skipping labels in use; taking a label
again replaces that snapshot; rollback does not consume it.

How many snapshots a tenant may hold is the runtime's limit, not part of SYSTEM: the tenant
asks :func:`beyond_limit` before it runs ``snapshot`` (:mod:`arest.runtime.tenant`).
"""

from __future__ import annotations

from typing import Any

from arest.algebra import State
from arest.algebra.relations import Archive
from arest.compiler.cells import SNAPSHOTS_CELL
from arest.system.context import Context
from arest.system.errors import Refusal, invalid_input

Output = dict[str, Any]


def _registry(state: State) -> Archive:
    contents = state.get(SNAPSHOTS_CELL)
    return contents if isinstance(contents, Archive) else Archive()


def snapshot(state: State, request: Any, context: Context) -> tuple[Output, State]:
    """snapshot ``{label?}`` — the snapshot's id, and D with D (its registry aside) kept
    under it.

    >>> from arest.algebra import EMPTY_STATE
    >>> out, D = snapshot(EMPTY_STATE, None, Context())
    >>> out, snapshot(D, {"label": "before"}, Context())[0], snapshots(D, {})["snapshots"]
    ({'id': 'snap-0'}, {'id': 'before'}, [{'id': 'snap-0', 'taken_at': '1970-01-01T00:00:00Z'}])
    """
    request = {} if request is None else request
    if not isinstance(request, dict) or set(request) - {"label"}:
        raise invalid_input("$", 'an object with an optional "label"')
    registry = _registry(state)
    label = request.get("label")
    if label is None or label == "":
        n = len(registry)
        while f"snap-{n}" in registry:
            n += 1
        label = f"snap-{n}"
    elif not isinstance(label, str):
        raise invalid_input("$.label", "a string (empty or absent: an auto label)")
    captured = state.delete(SNAPSHOTS_CELL) if SNAPSHOTS_CELL in state else state
    grown = registry.with_state(label, context.now, captured)
    return {"id": label}, state.set(SNAPSHOTS_CELL, grown)


def rollback(state: State, request: Any) -> tuple[Output, State]:
    """rollback ``{id}`` — D as the snapshot kept it, with every snapshot still held.

    >>> from arest.algebra import EMPTY_STATE
    >>> _, D = snapshot(EMPTY_STATE, {"label": "empty"}, Context())
    >>> out, back = rollback(D.set("Order_has_Amount", "changed"), {"id": "empty"})
    >>> out, list(back)
    ({'id': 'empty', 'rolled_back': True}, ['snapshots'])
    """
    if not isinstance(request, dict) or set(request) != {"id"} or not isinstance(
        request["id"], str
    ):
        raise invalid_input("$", 'an object with the snapshot "id"')
    registry = _registry(state)
    label = request["id"]
    if label not in registry:
        raise Refusal("unknown_snapshot", f"no snapshot {label!r}", id=label,
                      candidates=registry.labels())
    restored: State = registry.state(label)
    return {"id": label, "rolled_back": True}, restored.set(SNAPSHOTS_CELL, registry)


def snapshots(state: State, request: Any) -> Output:
    """snapshots — every snapshot held: its id and when it was taken."""
    if request not in (None, {}):
        raise invalid_input("$", "{}")
    registry = _registry(state)
    return {"snapshots": [{"id": label, "taken_at": registry.taken_at(label)}
                          for label in registry.labels()]}


def beyond_limit(state: State, request: Any, limit: int) -> Refusal | None:
    """``limit_exceeded`` when a snapshot of state under request would make the registry
    hold more than limit snapshots (a new label, or none, while limit are held); None when
    it would not, or when the request is not of the shape ``snapshot`` takes (the command
    itself refuses that).  Retaking a label in use replaces its snapshot, so it is never
    beyond the limit.

    >>> from arest.algebra import EMPTY_STATE
    >>> from arest.system.context import Context
    >>> D = snapshot(EMPTY_STATE, {"label": "v1"}, Context())[1]
    >>> beyond_limit(D, {"label": "v1"}, 1) is None, beyond_limit(D, {}, 2) is None
    (True, True)
    >>> beyond_limit(D, {"label": "v2"}, 1).envelope["error"]["code"]
    'limit_exceeded'
    """
    registry = _registry(state)
    if len(registry) < limit:
        return None
    request = {} if request is None else request
    if not isinstance(request, dict) or set(request) - {"label"}:
        return None
    label = request.get("label")
    if (label is not None and not isinstance(label, str)) or label in registry:
        return None
    return Refusal(
        "limit_exceeded",
        f"this tenant keeps at most {limit} snapshots and holds {len(registry)}: take a"
        " snapshot under a label in use to replace it (the tenant's max_snapshots sets the"
        " limit)", limit=limit, candidates=registry.labels())
