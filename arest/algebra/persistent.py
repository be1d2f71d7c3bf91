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

import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final, TypeVar

if TYPE_CHECKING:
    from immutables import Map as PersistentMap


def _c_map() -> type:
    """immutables' ``Map``, its C extension loaded as the package's ``__init__`` loads it,
    without the rest of that ``__init__``: the typing Protocols it defines for its type stubs
    (``immutables._protocols``), 2-4 ms of every start, which nothing here uses.  The
    extension keeps one module per process (single-phase initialisation), so an
    ``import immutables`` after gives the same ``Map`` (``sys.modules`` is left without
    the extension, for the package to load and bind as its own); like the package, it is
    registered as a ``Mapping``.  Anything but the C extension where the package is found (its
    pure-Python map, another layout), or a package loaded already, is taken from the package
    itself."""
    loaded = sys.modules.get("immutables")
    if loaded is not None:
        return loaded.Map  # type: ignore[no-any-return]
    from importlib.machinery import ExtensionFileLoader, PathFinder
    from importlib.util import module_from_spec

    package = PathFinder.find_spec("immutables")
    spec = None if package is None or not package.submodule_search_locations else (
        PathFinder.find_spec("immutables._map", package.submodule_search_locations))
    if spec is None or not isinstance(spec.loader, ExtensionFileLoader):
        from immutables import Map

        return Map
    module = module_from_spec(spec)
    spec.loader.exec_module(module)
    if sys.modules.get(spec.name) is module:  # left for the package to load as it would
        del sys.modules[spec.name]
    found: type = module.Map
    Mapping.register(found)
    return found


if not TYPE_CHECKING:
    PersistentMap = _c_map()

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
