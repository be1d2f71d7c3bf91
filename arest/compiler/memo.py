"""Decoding the compiled cells of D, memoized by the identity of the cell's object.

A cell holds an FFP object (a noun's fields, a compiled constraint); the system layer reads
it as Python values on every command.  The objects are immutable and D keeps the same object
in an unchanged cell from state to state, so decoding once per object is enough.  The memo
holds the object itself, so an identity is never reused while cached: like ``re``'s pattern
cache it can make a command faster, never different.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Generic, TypeVar

from arest.algebra import Object

T = TypeVar("T")


class IdentityMemo(Generic[T]):
    """decode(obj), computed once per object (by identity), at most ``limit`` kept.

    >>> calls = []
    >>> memo = IdentityMemo(lambda obj: calls.append(obj) or len(obj))
    >>> cell = ("a", "b")
    >>> memo(cell), memo(cell), len(calls)
    (2, 2, 1)
    """

    def __init__(self, decode: Callable[[Object], T], limit: int = 4096) -> None:
        self._decode = decode
        self._limit = limit
        self._entries: dict[int, tuple[Object, T]] = {}

    def __call__(self, obj: Object) -> T:
        entry = self._entries.get(id(obj))
        if entry is not None and entry[0] is obj:
            return entry[1]
        value = self._decode(obj)
        if len(self._entries) >= self._limit:
            with suppress(StopIteration, RuntimeError):  # another thread evicted meanwhile
                self._entries.pop(next(iter(self._entries)), None)
        self._entries[id(obj)] = (obj, value)
        return value
