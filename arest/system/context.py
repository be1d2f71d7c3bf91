"""What a runtime supplies with each command: the time and the Signal Source (DESIGN §3)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from arest.records import record
from arest.system.errors import invalid_input

EPOCH = "1970-01-01T00:00:00Z"

AGENT, HUMAN, SYSTEM = "Agent", "Human", "System"
SOURCES = (AGENT, HUMAN, SYSTEM)
"""The Signal Sources a command can come from (the metamodel's ``Signal Source`` values):
an agent over MCP, a person holding the admin key or at the terminal, the program itself."""


@record
class Context:
    """The time a command runs at (ISO 8601) and who sent it: Agent, Human or System."""

    now: str = EPOCH
    source: str = SYSTEM


DEFAULT = Context()
"""The context of a command given none: the epoch, from the System."""


def read_context(context: Any) -> Context:
    """The context of a command; defaults keep pure use deterministic.

    >>> read_context(None)
    Context(now='1970-01-01T00:00:00Z', source='System')
    """
    if context is None:
        return DEFAULT
    if not isinstance(context, dict):
        raise invalid_input("$context", "an object with optional now and source")
    unknown = sorted(set(context) - {"now", "source"})
    if unknown:
        raise invalid_input(f"$context.{unknown[0]}", "only now and source")
    now = context.get("now", EPOCH)
    if not isinstance(now, str):
        raise invalid_input("$context.now", "an ISO-8601 date-time")
    try:
        datetime.fromisoformat(now)
    except ValueError:
        raise invalid_input("$context.now", "an ISO-8601 date-time") from None
    source = context.get("source", SYSTEM)
    if source not in SOURCES:
        raise invalid_input("$context.source", " or ".join(SOURCES))
    return Context(now, source)
