"""Read-your-writes across servers (docs/scale.md): every answer names the sequence number
of the D it was computed on, and a request may name the least one it must be answered on.

    answered on D, D.sequence ≥ minimum        (waited for, at most MIN_SEQUENCE_WAIT_SECONDS)

A server's D follows the other servers' commits by itself; a request naming a sequence its
D has not reached yet makes it catch up with the journal at once, and then wait for the
followers, bounded.  On REST the sequence is the header ``Arest-Sequence`` and the minimum
``Arest-Min-Sequence`` (:mod:`arest.rest.routes` names them, the OpenAPI document shows
them); on MCP both are in a call's ``_meta`` (:data:`SEQUENCE_META`,
:data:`MIN_SEQUENCE_META`).
"""

from __future__ import annotations

import time
from typing import Any, Final

import anyio
import anyio.to_thread

from arest.runtime import Tenant

SEQUENCE_META: Final = "arest/sequence"
MIN_SEQUENCE_META: Final = "arest/min_sequence"
MIN_SEQUENCE_WAIT_SECONDS: Final = 2.0
"""How long a request naming a sequence not reached yet waits before it is answered
``not_yet`` (a client then retries, on this server or another)."""
RETRY_AFTER_SECONDS: Final = 1


class BadMinimum(ValueError):
    """Raised for a minimum sequence that is not a whole number ≥ 0 written in digits."""


def minimum_of(value: Any) -> int | None:
    """The minimum sequence a request names (None: none); :class:`BadMinimum` for a value
    that is not a whole number ≥ 0 (digits in a header, an integer in ``_meta``).

    >>> minimum_of("12"), minimum_of(7), minimum_of(None)
    (12, 7, None)
    >>> minimum_of("-1")
    Traceback (most recent call last):
    ...
    arest.transports.sequence.BadMinimum: a minimum sequence is a whole number ≥ 0, not '-1'
    """
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 18:
        return int(value)
    raise BadMinimum(f"a minimum sequence is a whole number ≥ 0, not {value!r}")


async def reached(tenant: Tenant, minimum: int | None,
                  seconds: float = MIN_SEQUENCE_WAIT_SECONDS) -> bool:
    """Whether the tenant's D holds the command numbered ``minimum`` (no minimum: yes),
    catching up with the journal and then waiting for it at most ``seconds``.  A tenant
    no other process writes to (SQLite) holds every command its journal does: it answers
    at once."""
    if minimum is None or tenant.sequence >= minimum:
        return True
    if not tenant.shared:
        return False
    deadline = time.monotonic() + seconds
    while True:
        await anyio.to_thread.run_sync(tenant.catch_up)
        if tenant.sequence >= minimum:
            return True
        if time.monotonic() >= deadline:
            return False
        await anyio.sleep(0.05)
