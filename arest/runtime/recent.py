"""The latest asserted facts that hold, read from the journal's recorded facts, newest first."""

from __future__ import annotations

import json
from typing import Any

from arest.algebra import State
from arest.algebra.relations import Relation
from arest.compiler.cells import population_cell
from arest.runtime.storage import Storage
from arest.system.derive import is_derived

RECENT_PAGE = 64
"""Journal entries read at a time by :func:`recent_facts`."""


def recent_facts(storage: Storage, state: State, limit: int) -> list[dict[str, Any]]:
    """Up to ``limit`` facts the journal's entries asserted that state still holds as asserted
    facts of a fact type, newest first, each once at its latest assertion: its fact type,
    its values in role order, the time and the sequence number of the entry."""
    fact_types = state.get(population_cell("Fact Type"))
    found: list[dict[str, Any]] = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    before: int | None = None
    while len(found) < limit:
        entries = storage.recent(before, RECENT_PAGE)
        for entry in entries:
            added = json.loads(entry.facts or "{}").get("+", [])
            for cell, values in reversed(added):
                fact = tuple(values)
                if (cell, fact) in seen or len(found) >= limit:
                    continue
                seen.add((cell, fact))
                relation = state.get(cell)
                payload = relation.payload(fact) if isinstance(relation, Relation) else None
                if (payload is not None and not is_derived(payload)
                        and isinstance(fact_types, Relation) and (cell,) in fact_types):
                    found.append({"fact_type": cell, "values": list(values),
                                  "time": entry.context.get("now"),
                                  "sequence": entry.sequence})
        if len(entries) < RECENT_PAGE:
            break
        before = entries[-1].sequence
    return found
