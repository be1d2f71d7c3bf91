"""Applying a journal entry's recorded effect instead of running its command again.

A journal entry records the asserted facts its command added and removed, and marks them
``exact`` when they are everything the command changed: every cell it wrote is a relation
whose only changes are those facts, as plain assertions (no derivation's support, no state
machine, no snapshot; :func:`arest.runtime.digest.asserted_delta`).  Then, for the D the
command ran on,

    D′ = D with each removed fact taken out of its cell and each added fact put in, ASSERTED,

and a process following the journal applies the facts (:func:`applied`, about the cost of
parsing them) rather than run SYSTEM again.  It is checked as a run is: every removed fact
must be asserted in D, every added fact absent, and the digest after them the one the entry
recorded.  An entry not exact, or failing a check, is None here: the follower runs it again,
and that run is checked against the digest too (a mismatch then parts the follower from the
journal, loudly: :func:`arest.runtime.recovery.replayed`).  A restart replays from the
checkpoint by running each command, so a D followed by applying is compared with one
rebuilt from scratch in the tests.
"""

from __future__ import annotations

import json
from typing import Any

from arest.algebra import State, store_all
from arest.algebra.relations import ASSERTED, Fact, Relation
from arest.runtime.digest import Delta, advanced, parsed
from arest.runtime.storage import Entry


def applied(state: State, digest: int, entry: Entry) -> tuple[State, int] | None:
    """D′ and its digest after the entry's recorded facts, when they are its whole effect and
    fit D (see the module); None when the command must run again instead.

    >>> import arest
    >>> from arest.runtime.digest import recorded, state_digest, text
    >>> D = arest.compile("Order 'o1' was placed by Customer 'acme'.", arest.compile(ORDERS))
    >>> placed = ("Order_was_placed_by_Customer", ("o2", "acme"))
    >>> digest, facts = recorded(state_digest(D), Delta(added=[placed], exact=True))
    >>> entry = Entry(2, "create:Order", {}, {}, text(digest), facts)
    >>> after, kept = applied(D, state_digest(D), entry)
    >>> ("o2", "acme") in after["Order_was_placed_by_Customer"], kept == digest
    (True, True)
    >>> applied(after, kept, entry) is None  # o2 is placed already: run it instead
    True
    """
    delta = _exact_delta(entry.facts)
    expected = None if entry.digest is None else parsed(entry.digest)
    if delta is None or expected is None:
        return None
    changes: dict[str, tuple[list[Fact], list[Fact]]] = {}
    for cell, fact in delta.added:
        changes.setdefault(cell, ([], []))[0].append(fact)
    for cell, fact in delta.removed:
        changes.setdefault(cell, ([], []))[1].append(fact)
    cells = []
    for cell, (added, removed) in changes.items():
        relation = state.get(cell)
        if not isinstance(relation, Relation) or not _fits(relation, added, removed):
            return None
        cells.append((cell, relation.updated([(fact, ASSERTED) for fact in added], removed)))
    after_digest = advanced(digest, delta)
    if after_digest != expected:
        return None
    return store_all(state, cells), after_digest


def _fits(relation: Relation, added: list[Fact], removed: list[Fact]) -> bool:
    """Whether the facts can be what a command did to the relation: each removed one
    asserted in it, each added one absent, each of its arity, none both."""
    if set(added) & set(removed) or len(set(added)) != len(added):
        return False
    return (all(len(fact) == relation.arity and relation.payload(fact) is ASSERTED
                for fact in removed)
            and all(len(fact) == relation.arity and relation.payload(fact) is None
                    for fact in added))


def _exact_delta(facts: str | None) -> Delta | None:
    """The delta a journal entry's facts record, when marked exact and well formed."""
    try:
        recorded: Any = json.loads(facts or "{}")
    except ValueError:
        return None
    if not isinstance(recorded, dict) or recorded.get("exact") is not True:
        return None
    delta = Delta(exact=True)
    for sign, into in (("+", delta.added), ("-", delta.removed)):
        items = recorded.get(sign, [])
        if not isinstance(items, list):
            return None
        for item in items:
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
                    and isinstance(item[1], list)
                    and all(isinstance(value, str) for value in item[1])):
                return None
            into.append((item[0], tuple(item[1])))
    return delta
