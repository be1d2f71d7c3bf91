"""What a reading may say an external system's numbers are (DESIGN §13), checked as read.

    setting_problem(fact type, value) = None                       for a value it takes
                                      = what is wrong with it     otherwise

``Freshness Seconds`` is a number of seconds, 0 or more (0: every read asks again);
``Timeout Seconds`` a number of seconds above 0, the deadline of one request to the system
(connect, headers and body, its redirects included); ``Max Response Bytes`` a whole number
above 0, the longest body read from it.  A system without the reading has the server's own
bound (``arest serve --outbound-timeout``, ``--outbound-max-bytes``).

>>> setting_problem(TIMEOUT, "2.5") is None, setting_problem(MAX_BYTES, "65536") is None
(True, True)
>>> print(setting_problem(TIMEOUT, "soon"))
Timeout Seconds 'soon': a number of seconds above 0 (e.g. '5' or '0.5')
>>> print(setting_problem(MAX_BYTES, "1.5"))
Max Response Bytes '1.5': a whole number of bytes above 0 (e.g. '1048576')
"""

from __future__ import annotations

import math

FRESHNESS = "External_System_has_Freshness_Seconds"
TIMEOUT = "External_System_has_Timeout_Seconds"
MAX_BYTES = "External_System_has_Max_Response_Bytes"


def seconds(value: str) -> float | None:
    """A number of seconds as a reading writes it; None when it is not a finite number ≥ 0.

    >>> seconds("60"), seconds("0.5"), seconds("soon"), seconds("-1"), seconds("inf")
    (60.0, 0.5, None, None, None)
    """
    try:
        number = float(value)
    except ValueError:
        return None
    return number if math.isfinite(number) and number >= 0 else None


def byte_count(value: str) -> int | None:
    """A whole number of bytes as a reading writes it (digits only); None otherwise.

    >>> byte_count("65536"), byte_count("1e6"), byte_count("-1")
    (65536, None, None)
    """
    return int(value) if value.isascii() and value.isdigit() else None


def setting_problem(fact_type: str, value: str) -> str | None:
    """What keeps value from being the setting the fact type gives, or None when it may be
    (and for a fact type that is no such setting)."""
    if fact_type == FRESHNESS and seconds(value) is None:
        return f"Freshness Seconds {value!r}: a number of seconds, 0 or more (e.g. '60')"
    if fact_type == TIMEOUT and not seconds(value):
        return f"Timeout Seconds {value!r}: a number of seconds above 0 (e.g. '5' or '0.5')"
    if fact_type == MAX_BYTES and not byte_count(value):
        return (f"Max Response Bytes {value!r}: a whole number of bytes above 0"
                " (e.g. '1048576')")
    return None
