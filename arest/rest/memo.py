"""What REST builds from the schema alone (the OpenAPI document, the tables' picture), kept by
the identity of the cells its build read: a bounded, thread-safe memo.

    memo(D) = build(D), computed once while every cell the build read holds the same object

A build that enumerates D's cells reads every cell's name, and the compiled cells come from
the metamodel relations it reads by name too, so no cell it did not read can change what it
built while those stay the same object.  A command that leaves the schema alone gives the
same value at the cost of a lookup.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from arest.algebra import State
from arest.runtime.footprint import Footprint

T = TypeVar("T")


class ByCellsRead(Generic[T]):
    """build(D) for the states seen last (at most ``limit``), each kept with the cells its
    build read and the objects they held.

    >>> import arest
    >>> builds = []
    >>> memo = ByCellsRead(lambda state: builds.append(1) or len(state.get("machines")))
    >>> D = arest.compile(TASKS)  # a Task machine (conftest.py)
    >>> _, D2 = arest.apply(D, "create:Task", {"id": "t1"})
    >>> memo(D), memo(D2), len(builds)
    (2, 2, 1)
    """

    def __init__(self, build: Callable[[State], T], limit: int = 8) -> None:
        self._build = build
        self._limit = limit
        self._lock = threading.Lock()
        self._entries: list[tuple[tuple[tuple[str, object], ...], T]] = []

    def __call__(self, state: State) -> T:
        with self._lock:
            entries = list(self._entries)
        for cells, built in entries:
            if all(state.get(name) is contents for name, contents in cells):
                return built
        footprint = Footprint()
        built = self._build(footprint.view(state))
        cells = tuple((name, state.get(name)) for name in sorted(footprint.read))
        with self._lock:
            self._entries = [(cells, built), *self._entries][:self._limit]
        return built
