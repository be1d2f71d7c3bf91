"""The root of every error arest raises on purpose, and the error envelope of DESIGN §5.

Each error class derives from :class:`ArestError` and, where Python has one, from the
built-in exception of its kind, so ``except ValueError`` keeps working where a library
expects it (lark raises through ``ValueError`` too):

    ReadingError(ArestError, ValueError)      NotationError(ArestError, ValueError)
    Refusal(ArestError)                       StorageError(ArestError, RuntimeError)

An error a command reports is an envelope, never an exception past ``apply``:

>>> envelope("unknown_noun", "no noun 'Ordr'", candidates=["Order"])
{'error': {'code': 'unknown_noun', 'message': "no noun 'Ordr'", 'candidates': ['Order']}}
"""

from __future__ import annotations

from typing import Any


class ArestError(Exception):
    """Raised by arest for a condition it names; a bug is any other exception."""


def envelope(code: str, message: str, **details: Any) -> dict[str, Any]:
    """``{"error": {"code", "message", …details}}``: how every error is answered."""
    return {"error": {"code": code, "message": message, **details}}
