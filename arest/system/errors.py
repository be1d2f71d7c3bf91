"""The error envelope of DESIGN §5: ``{"error": {"code", "message", …}}``.

Errors are not violations: an error says the command could not be understood (an unknown
key, noun, field; input of the wrong shape); D is unchanged.  Inside the system layer a
handler stops with :class:`Refusal`; :func:`arest.system.apply` turns it into the envelope.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arest.errors import ArestError, envelope

CODES = frozenset(
    {
        "unknown_key", "unknown_noun", "unknown_entity", "unknown_fact_type", "unknown_field",
        "ambiguous_field", "unknown_event", "entity_exists", "derived_fact_type",
        "no_delete_transition", "unknown_snapshot", "invalid_input", "reading_error",
        "not_allowed", "limit_exceeded", "forbidden", "unknown_link",
        "external_unavailable",
    }
)


class Refusal(ArestError):
    """Raised inside a handler when the command cannot be carried out as given."""

    def __init__(self, code: str, message: str, **details: Any) -> None:
        assert code in CODES, code
        super().__init__(message)
        self.envelope: dict[str, Any] = envelope(code, message, **details)


def closest(name: str, candidates: Iterable[str], limit: int = 5) -> list[str]:
    """The candidates most like name, best first (all of them when few), for error messages.

    >>> closest("Ordr", ["Order", "Customer", "Orders"])
    ['Order', 'Orders']
    """
    import difflib  # only a refusal needs it: a start pays nothing for it

    pool = sorted(set(candidates))
    if len(pool) <= limit:
        return pool if not name else difflib.get_close_matches(name, pool, limit, 0.5) or pool
    return difflib.get_close_matches(name, pool, limit, 0.5)


def invalid_input(path: str, expected: str, message: str | None = None) -> Refusal:
    """``invalid_input`` naming where in the input (``$.filter.Customer``) and what was wanted."""
    return Refusal(
        "invalid_input", message or f"{path}: expected {expected}", path=path, expected=expected
    )
