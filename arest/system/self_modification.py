"""compile: self-modification, itself a SYSTEM application (the paper's corollary).

The readings are read on top of D's, the schema and the constraints are recompiled, and the
whole population is validated again: when it would violate an alethic constraint, the new
readings are rejected with the violations and D′ = D.
"""

from __future__ import annotations

from typing import Any

from arest.algebra import State
from arest.compiler.readings import build, read_sources, sources_of
from arest.forml2 import ReadingError
from arest.system.derive import derive_all
from arest.system.errors import Refusal, invalid_input
from arest.system.validate import alethic, all_violations

Output = dict[str, Any]


def reading_refusal(error: ReadingError) -> Refusal:
    """``reading_error`` with every diagnostic: path, line, column, message."""
    return Refusal(
        "reading_error", str(error),
        diagnostics=[{"path": d.path, "line": d.line, "column": d.column,
                      "message": d.message} for d in error.diagnostics],
    )


def compile_readings(state: State, request: Any) -> tuple[Output, State]:
    """compile ``{readings}`` — the command result of reading the text on top of D's
    readings, and D′ (D when the population would violate an alethic constraint).

    >>> import arest
    >>> D = arest.compile("Order(.id) is an entity type.")
    >>> out, D = compile_readings(D, {"readings": "Customer(.id) is an entity type."})
    >>> out["rejected"], arest.apply(D, "list:Customer")[0]["total"]
    (False, 0)
    """
    if not isinstance(request, dict) or set(request) != {"readings"} or not isinstance(
        request["readings"], str
    ):
        raise invalid_input("$", 'an object with "readings": FORML 2 text')
    if not request["readings"].strip():
        raise invalid_input("$.readings", "at least one FORML 2 sentence")
    previous = sources_of(state)
    sources = (*previous, (f"<compile {len(previous) + 1}>", request["readings"]))
    try:
        built = build(state, sources, read_sources(sources))
    except ReadingError as error:
        raise reading_refusal(error) from None
    after = derive_all(built)
    found = all_violations(after)
    rejected = bool(alethic(found))
    out: Output = {"rejected": rejected, "violations": found, "derived": [], "effects": [],
                   "next_actions": []}
    return out, (state if rejected else after)
