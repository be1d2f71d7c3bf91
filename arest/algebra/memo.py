"""Memos of pure decodings, keyed by the identity of immutable cells: the one module-level
state the package keeps.

A cell holds an FFP object (a noun's fields, a compiled constraint, a function's code); the
layers above read it as Python values on every command.  The objects are immutable and D
keeps the same object in an unchanged cell from state to state, so decoding once per object
is enough.  The memo holds the objects themselves, so an identity is never reused while
cached: like ``re``'s pattern cache it can make a command faster, never different.

Safe under the tenant's threads without a lock: every step is one dict operation (atomic),
an entry is written whole and never changed, a reader checks that the entry holds its own
objects before using it, and eviction tolerates another thread evicting at the same time.
Two threads missing at once both decode and the later write wins: the values are equal.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from contextlib import suppress
from typing import Any, Generic, TypeVar

T = TypeVar("T")

_NOTHING: Any = object()
"""No object asked yet: one no caller holds."""


class IdentityMemo(Generic[T]):
    """decode(*objs), computed once per tuple of objects (by identity), at most ``limit``
    kept (the oldest entry goes first); the one object asked last is answered by one
    identity test.

    >>> calls = []
    >>> memo = IdentityMemo(lambda obj: calls.append(obj) or len(obj))
    >>> cell = ("a", "b")
    >>> memo(cell), memo(cell), len(calls)
    (2, 2, 1)
    >>> pair = IdentityMemo(lambda *cells: sum(cells, ()), limit=1)
    >>> pair(cell, ("c",)), pair(("d",), cell), pair()
    (('a', 'b', 'c'), ('d', 'a', 'b'), ())
    """

    def __init__(self, decode: Callable[..., T], limit: int = 4096) -> None:
        self._decode = decode
        self._limit = limit
        self._entries: dict[Any, tuple[tuple[Any, ...], T]] = {}
        # Written whole, so a thread reads one pair or the other, each right.
        self._last: tuple[Any, T | None] = (_NOTHING, None)

    def __call__(self, *objs: Any) -> T:
        # One cell is the common case, on every command: the one asked last answered by an
        # identity test, any other keyed by its id alone, nothing built for a hit.
        if len(objs) == 1:
            obj = objs[0]
            last = self._last
            if last[0] is obj:
                return last[1]  # type: ignore[return-value]
            entry = self._entries.get(id(obj))
            if entry is not None and entry[0][0] is obj:
                self._last = (obj, entry[1])
                return entry[1]
            key: Any = id(obj)
        else:
            key = tuple(map(id, objs))
            entry = self._entries.get(key)
            if entry is not None and all(map(operator.is_, entry[0], objs)):
                return entry[1]
        value = self._decode(*objs)
        # Evict until there is room: a pass that meets another thread's change to the dict
        # (RuntimeError, StopIteration) tries again, so the memo never drifts past its limit.
        while len(self._entries) >= self._limit:
            with suppress(StopIteration, RuntimeError):
                self._entries.pop(next(iter(self._entries)), None)
        self._entries[key] = (objs, value)
        if len(objs) == 1:
            self._last = (objs[0], value)
        return value

    def __len__(self) -> int:
        return len(self._entries)
