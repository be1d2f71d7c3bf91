"""The persistent map behind D and its cells: one module, so the choice can change in one place.

D and every cell index are hash array mapped tries with structural sharing: ``set`` copies
only the path to one leaf, so a snapshot is the map value itself (O(1)) and two states share
every unchanged entry.  ``benchmarks/bench_state.py`` chose immutables' HAMT over pyrsistent
and a copy-on-write dict; ``docs/performance.md`` has the figures.

An update that changes nothing returns the same map, so ``new is old`` tells a fixed point.

>>> m = EMPTY.set("a", 1)
>>> m.set("a", 1) is m, m.get("a"), len(m)
(True, 1, 1)
>>> with_items(m, [("b", 2), ("c", 3)]) == PersistentMap({"a": 1, "b": 2, "c": 3})
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final, TypeVar

from immutables import Map as PersistentMap

K = TypeVar("K")
V = TypeVar("V")

_ABSENT: Final = object()
EMPTY: Final[PersistentMap[Any, Any]] = PersistentMap()

__all__ = ["EMPTY", "PersistentMap", "with_items", "without_keys"]


def with_items(base: PersistentMap[K, V], items: Iterable[tuple[K, V]]) -> PersistentMap[K, V]:
    """base with every (key, value) of items set, in one batch; base itself is unchanged.

    When every value is already there (the same object), the result is base itself.

    >>> m = PersistentMap({"a": 1})
    >>> with_items(m, [("a", 1)]) is m
    True
    """
    changed = False
    with base.mutate() as batch:
        for key, value in items:
            if batch.get(key, _ABSENT) is not value:
                batch[key] = value
                changed = True
        result = batch.finish()
    return result if changed else base


def without_keys(base: PersistentMap[K, V], keys: Iterable[K]) -> PersistentMap[K, V]:
    """base without the given keys (absent keys are ignored); base itself is unchanged.

    >>> without_keys(PersistentMap({"a": 1, "b": 2}), ["a", "z"]) == PersistentMap({"b": 2})
    True
    """
    changed = False
    with base.mutate() as batch:
        for key in keys:
            if key in batch:
                del batch[key]
                changed = True
        result = batch.finish()
    return result if changed else base
