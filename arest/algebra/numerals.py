"""Numerals and instants: the atoms that compute.

Atoms are text.  A numeral (``-12``, ``3.50``: ASCII digits, an optional sign and an optional
fraction) computes as a decimal number in one fixed :class:`decimal.Context` (28 significant
digits, half-even), never the thread's ambient context.  A result prints canonically: no
exponent, no trailing zeros, no point when integral (``2``, not ``2.0``).

ISO-8601 instants subtract: two date-times give seconds, two dates give days, and the same
pairs order by the sign of their difference.  Anything else is not a number: the
primitives give ⊥ for it.

>>> numeral(Decimal("4.50"))
'4.5'
>>> numeral(Decimal("1E+2"))
'100'
>>> difference("2024-03-01", "2024-02-01")
Decimal('29')
"""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import ROUND_HALF_EVEN, Context, Decimal
from typing import Final

CONTEXT: Final = Context(prec=28, rounding=ROUND_HALF_EVEN, Emax=999_999, Emin=-999_999, traps=[])
"""The one arithmetic context: results never depend on ``decimal.getcontext()``."""

_NUMERAL: Final = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")
_DATE: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_DATE_TIME: Final = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]{1,6})?)?"
    r"(?:Z|[+-][0-9]{2}:?[0-9]{2})?"
)
_SECONDS_PER_DAY: Final = Decimal(86_400)
_MICROSECONDS: Final = Decimal("0.000001")


def is_numeral(text: str) -> bool:
    """True when the atom is a numeral.

    >>> is_numeral("-12"), is_numeral("3.50"), is_numeral("1e5"), is_numeral(" 1")
    (True, True, False, False)
    """
    return _NUMERAL.fullmatch(text) is not None


def numeral_value(text: str) -> Decimal | None:
    """The decimal value of a numeral atom, or None for any other atom.

    >>> numeral_value("3.50"), numeral_value("abc")
    (Decimal('3.50'), None)
    """
    if text.isascii() and text.isdigit():
        return Decimal(text)
    if _NUMERAL.fullmatch(text) is None:
        return None
    return Decimal(text)


def numeral(value: Decimal) -> str | None:
    """The canonical numeral of a decimal value; None when the value is not finite.

    >>> numeral(Decimal("2.0")), numeral(Decimal("-0")), numeral(Decimal("0.125"))
    ('2', '0', '0.125')
    >>> numeral(Decimal("Infinity")) is None
    True
    """
    if not value.is_finite():
        return None
    text = str(value)
    if "E" in text:
        text = format(value.normalize(CONTEXT), "f")
    elif "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def instant(text: str) -> date | datetime | None:
    """An ISO-8601 date or date-time atom as a Python value, or None.

    >>> instant("2024-02-01"), instant("2024-02-01T10:00:00Z").tzname()
    (datetime.date(2024, 2, 1), 'UTC')
    >>> instant("yesterday") is None
    True
    """
    try:
        if _DATE.fullmatch(text):
            return date.fromisoformat(text)
        if _DATE_TIME.fullmatch(text):
            return datetime.fromisoformat(text)
    except ValueError:
        return None
    return None


def difference(left: str, right: str) -> Decimal | None:
    """left − right for two numerals, two dates (days) or two date-times (seconds); else None.

    Date-times must agree on having a time zone or not.

    >>> difference("10", "2.5")
    Decimal('7.5')
    >>> difference("2024-01-01T00:01:30", "2024-01-01T00:00:00")
    Decimal('90')
    >>> difference("2024-01-01", "2024-01-01T00:00:00") is None
    True
    """
    a, b = numeral_value(left), numeral_value(right)
    if a is not None and b is not None:
        return CONTEXT.subtract(a, b)
    x, y = instant(left), instant(right)
    if x is None or y is None:
        return None
    if isinstance(x, datetime) and isinstance(y, datetime):
        if (x.tzinfo is None) != (y.tzinfo is None):
            return None
        delta = x - y
        seconds = Decimal(delta.days) * _SECONDS_PER_DAY + Decimal(delta.seconds)
        if delta.microseconds:
            seconds = CONTEXT.add(seconds, Decimal(delta.microseconds) * _MICROSECONDS)
        return seconds
    if isinstance(x, datetime) or isinstance(y, datetime):
        return None
    return Decimal((x - y).days)


def compare(left: str, right: str) -> int | None:
    """The sign of left − right (−1, 0, 1) where :func:`difference` is defined; else None.

    >>> compare("2", "10"), compare("2024-05-01", "2024-04-30"), compare("a", "b")
    (-1, 1, None)
    """
    a, b = numeral_value(left), numeral_value(right)
    if a is not None and b is not None:
        return (a > b) - (a < b)
    gap = difference(left, right)
    if gap is None:
        return None
    return (gap > 0) - (gap < 0)
