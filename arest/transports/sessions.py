"""How many MCP sessions a key may hold open, and how long an unused one stays open.

A session is a streamable HTTP session (``mcp-session-id``) or an SSE stream (``GET /sse``).
Each key the server accepts (or, on a server without keys, everyone) holds at most
``per_key`` sessions on each of the two transports; a request that would open one more is
answered 503 until one closes.  The keys are fixed when the server starts, so the server
as a whole holds at most ``per_key`` × keys sessions per transport.  A session no request
has used for ``idle_seconds`` is closed; its client opens a new one.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Final

from arest.errors import envelope

MAX_SESSIONS_PER_KEY: Final = 256
IDLE_SESSION_SECONDS: Final = 300.0


@dataclass(frozen=True)
class SessionLimits:
    """The bounds on sessions (``arest serve --max-sessions-per-key N
    --session-idle-seconds S``): ValueError for a bound that bounds nothing.

    >>> SessionLimits(per_key=2, idle_seconds=0.5)
    SessionLimits(per_key=2, idle_seconds=0.5)
    >>> SessionLimits(per_key=0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: per_key: a key holds at least one session ...
    """

    per_key: int = MAX_SESSIONS_PER_KEY
    idle_seconds: float = IDLE_SESSION_SECONDS

    def __post_init__(self) -> None:
        if isinstance(self.per_key, bool) or not isinstance(self.per_key, int) or (
                self.per_key < 1):
            raise ValueError(f"per_key: a key holds at least one session (a whole number"
                             f" ≥ 1), not {self.per_key!r}")
        if not (math.isfinite(self.idle_seconds) and self.idle_seconds > 0):
            raise ValueError(f"idle_seconds: a positive, finite number of seconds, not"
                             f" {self.idle_seconds!r}")


def too_many_sessions(limits: SessionLimits) -> bytes:
    """The body of the 503 that refuses one session more: the error ``limit_exceeded``,
    naming the bound.

    >>> json.loads(too_many_sessions(SessionLimits(per_key=2)))["error"]["limit"]
    2
    """
    return json.dumps(envelope(
        "limit_exceeded", f"this key holds {limits.per_key} open sessions, the most it may:"
        " close one (or let one go idle) before opening another",
        limit=limits.per_key)).encode()
