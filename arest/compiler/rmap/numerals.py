"""SQL that compares values as arest does: an atom is text, and a comparison reads it as a
number only when it is a numeral (``-12``, ``3.50``); a comparison with a value that is not
a numeral is false.  Columns hold text (``2`` and ``2.0`` are two values), so every
comparison tests its columns for numerals before it compares their numbers.

    compared(a, op, b) = numeral(a) ∧ numeral(b) ∧ number(a) op number(b)
"""

from __future__ import annotations

from collections.abc import Sequence

_OPERATORS = {"<": "<", ">": ">", "<=": "<=", ">=": ">=", "=": "=", "<>": "<>", "!=": "<>"}


def is_numeral(expression: str, dialect: str) -> str:
    """The condition that the text is a numeral: an optional ``-``, digits, at most one
    ``.`` between digits.

    >>> print(is_numeral("x", "postgresql"))
    x ~ '^-?[0-9]+([.][0-9]+)?$'
    """
    if dialect == "sqlite":
        # GLOB has no repetition: a digit first (after an optional '-'), then digits and at
        # most one '.', not last.
        return (f"({expression} GLOB '[0-9]*' OR {expression} GLOB '-[0-9]*')"
                f" AND substr({expression}, 2) NOT GLOB '*[^0-9.]*'"
                f" AND {expression} NOT GLOB '*.' AND {expression} NOT GLOB '*.*.*'")
    return f"{expression} ~ '^-?[0-9]+([.][0-9]+)?$'"


def compared(sides: Sequence[tuple[str, bool]], operator: str, dialect: str) -> str:
    """``left operator right`` over numbers, each side an SQL expression and whether it is a
    column (tested for a numeral) rather than a numeral written bare.

    >>> print(compared([("t.points", True), ("5", False)], ">", "postgresql"))
    CASE WHEN t.points ~ '^-?[0-9]+([.][0-9]+)?$' THEN CAST(t.points AS NUMERIC) > 5 ELSE FALSE END
    """
    left, right = (f"CAST({e} AS NUMERIC)" if column else e for e, column in sides)
    comparison = f"{left} {_OPERATORS[operator]} {right}"
    tests = [is_numeral(e, dialect) for e, column in sides if column]
    if dialect == "sqlite":  # SQLite's CAST of a non-numeral is 0, never an error
        return "(" + " AND ".join([*(f"({t})" for t in tests), comparison]) + ")"
    # CASE, not AND: PostgreSQL may evaluate AND's operands in any order, and the CAST of a
    # non-numeral is an error rather than false.
    return f"CASE WHEN {' AND '.join(tests)} THEN {comparison} ELSE FALSE END"
