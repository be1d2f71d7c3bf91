"""The tenant's clock: the time a command runs at, as ISO-8601 UTC with microseconds.

    utc_text(t) = YYYY-MM-DDTHH:MM:SS.uuuuuuZ   for t nanoseconds since the epoch

A tenant stamps every command with the time (an input: replay is deterministic), so the
clock runs once per command.  :class:`UtcClock` keeps the text of the last second it read,
``YYYY-MM-DDTHH:MM:SS.``, and formats only the microseconds after it while the second lasts:
the same text as :func:`utc_text` (a property test states it), without a calendar
conversion per command.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

NANOSECONDS = 1_000_000_000


def utc_text(nanoseconds: int) -> str:
    """The ISO-8601 UTC text of an instant, microseconds kept (the nanoseconds truncated).

    >>> utc_text(1_700_000_000_123_456_789)
    '2023-11-14T22:13:20.123456Z'
    """
    seconds, rest = divmod(nanoseconds, NANOSECONDS)
    instant = datetime.fromtimestamp(seconds, UTC).replace(microsecond=rest // 1000)
    return instant.isoformat(timespec="microseconds").replace("+00:00", "Z")


def utc_now() -> str:
    """The clock: the current time as :func:`utc_text` writes it."""
    return utc_text(time.time_ns())


class UtcClock:
    """:func:`utc_now` with the text of its last second kept (one clock per tenant).

    >>> readings = iter([1_700_000_000_123_456_789, 1_700_000_000_999_999_999,
    ...                  1_700_000_001_000_000_000])
    >>> clock = UtcClock(readings.__next__)
    >>> clock(), clock(), clock()
    ('2023-11-14T22:13:20.123456Z', '2023-11-14T22:13:20.999999Z', '2023-11-14T22:13:21.000000Z')
    """

    __slots__ = ("_kept", "_reading")

    def __init__(self, reading: Callable[[], int] = time.time_ns) -> None:
        self._reading = reading
        self._kept: tuple[int | None, str] = (None, "")
        """The last second read and its text up to the seconds: one value, so that a
        thread reads both at once."""

    def __call__(self) -> str:
        seconds, rest = divmod(self._reading(), NANOSECONDS)
        second, prefix = self._kept
        if seconds != second:
            prefix = utc_text(seconds * NANOSECONDS)[:-7]  # up to the point
            self._kept = (seconds, prefix)
        return f"{prefix}{rest // 1000:06d}Z"
