"""A command's footprint: the cells of D it read and wrote, recorded while it runs.

SYSTEM is pure, so a command's output and D′ depend on the cells it read and nothing else
(its input and context are fixed).  Run on a snapshot S through :meth:`Footprint.view`, a
command records each cell name it looks up (present or not) and each it stores.  If every
cell of its footprint holds the same object in the current state C as in S, running it on C
would read the same values and so compute the same output and the same written cells:

    footprint ∩ changed(S, C) = ∅  ⇒  apply(C) = (out, C with the written cells of D′)

which :meth:`Footprint.merged` builds.  Enumerating the cells (``len``, iteration, equality)
reads the whole of D: the footprint is then every cell.  Truthiness is not a read: D always
holds the metamodel's cells, so it is never empty.  A footprint made with a
:class:`~arest.runtime.budget.Budget` checks it at every read, so a command past its
budget stops there (:class:`~arest.runtime.budget.BudgetSpent`).

>>> from arest.algebra import EMPTY_STATE, store_all
>>> S = store_all(EMPTY_STATE, [("a", "1"), ("b", "2"), ("c", "3")])
>>> footprint = Footprint()
>>> D = footprint.view(S)
>>> after = footprint.state_of(D.set("b", D.get("a")))
>>> sorted(footprint.read), sorted(footprint.written)
(['a'], ['b'])
>>> C = S.set("c", "30")                     # another command changed a cell not in it
>>> footprint.unchanged(S, C), sorted(footprint.merged(C, after).items())
(True, [('a', '1'), ('b', '1'), ('c', '30')])
>>> footprint.unchanged(S, S.set("a", "10"))
False
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, cast

from arest.algebra import State
from arest.algebra.relations import Cell
from arest.runtime.budget import Budget

_ABSENT = object()


class Footprint:
    """The cells one run of a command read and wrote; ``whole`` when it read them all."""

    __slots__ = ("budget", "read", "whole", "written")

    def __init__(self, budget: Budget | None = None) -> None:
        self.read: set[str] = set()
        self.written: dict[str, None] = {}
        """The cells written, in the order first written: a set whose order is the
        command's own, so that what a journal entry lists follows it whatever the hash seed
        (:func:`arest.runtime.digest.recorded_assertions` lists a create's facts in it)."""
        self.whole = False
        self.budget = budget

    def reading(self, name: object) -> None:
        """Record a read of the named cell, once the budget allows it."""
        if self.budget is not None:
            self.budget.check()
        self.read.add(name)  # type: ignore[arg-type]

    def view(self, state: State) -> State:
        """state as the command sees it: a view that records this footprint."""
        return cast(State, _View(state, self))

    def state_of(self, result: State) -> State | None:
        """The state a command returned through :meth:`view`; None when it returned one the
        view did not make (then its writes are unknown)."""
        if isinstance(result, _View) and result._footprint is self:
            return result._state
        return None

    def cells(self) -> set[str]:
        """Every cell named: read or written."""
        return self.read.union(self.written)

    def unchanged(self, snapshot: State, current: State) -> bool:
        """Whether no cell of the footprint changed between snapshot and current."""
        if current is snapshot:
            return True
        if self.whole:
            return False
        return all(current.get(name, _ABSENT) is snapshot.get(name, _ABSENT)
                   for name in self.cells())

    def merged(self, current: State, after: State) -> State:
        """current with every written cell as after holds it (absent: removed)."""
        with current.mutate() as batch:
            for name in self.written:
                contents = after.get(name)
                if contents is None:
                    batch.pop(name, None)
                else:
                    batch[name] = contents
            merged: State = batch.finish()
        return merged


class _View:
    """A state that records its reads and writes in a footprint; what it makes records too."""

    __slots__ = ("_footprint", "_read", "_state", "_written")

    def __init__(self, state: State, footprint: Footprint) -> None:
        self._state, self._footprint = state, footprint
        self._read = footprint.read.add if footprint.budget is None else footprint.reading
        self._written = footprint.written

    @property
    def shown(self) -> State:
        """The state this view shows, whose reads nothing records: for what SYSTEM reads
        without depending on it (:func:`arest.system.evolution.governed`)."""
        return self._state

    def read_all(self, names: Iterable[str]) -> State:
        """The state shown, each named cell recorded as read: what reading them one by one
        through the view records (for a caller that knows their contents already)."""
        if self._footprint.budget is not None:
            self._footprint.budget.check()
        self._footprint.read.update(names)
        return self._state

    def _as_view(self, state: State) -> _View:
        return self if state is self._state else _View(state, self._footprint)

    def get(self, name: str, default: Any = None) -> Any:
        self._read(name)
        return self._state.get(name, default)

    def __getitem__(self, name: str) -> Cell:
        self._read(name)
        return self._state[name]

    def __contains__(self, name: object) -> bool:
        self._read(name)  # type: ignore[arg-type]
        return name in self._state

    def set(self, name: str, contents: Cell) -> _View:
        self._written[name] = None
        return self._as_view(self._state.set(name, contents))

    def delete(self, name: str) -> _View:
        self._written[name] = None
        return self._as_view(self._state.delete(name))

    def update(self, cells: Any = (), **more: Cell) -> _View:
        changes = dict(cells, **more)
        self._written.update(dict.fromkeys(changes))
        return self._as_view(self._state.update(changes))

    def mutate(self) -> _Mutation:
        return _Mutation(self._state.mutate(), self._footprint)

    def _whole(self) -> State:
        if self._footprint.budget is not None:
            self._footprint.budget.check()
        self._footprint.whole = True
        return self._state

    def __len__(self) -> int:
        return len(self._whole())

    def __iter__(self) -> Iterator[str]:
        return iter(self._whole())

    def keys(self) -> Iterable[str]:
        return self._whole().keys()

    def values(self) -> Iterable[Cell]:
        return self._whole().values()

    def items(self) -> Iterable[tuple[str, Cell]]:
        return self._whole().items()

    def __bool__(self) -> bool:
        return bool(self._state)

    def __eq__(self, other: object) -> bool:
        return bool(self._whole() == (other._state if isinstance(other, _View) else other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<view of {len(self._state)} cells>"


class _Mutation:
    """A batch of writes to a view's state (``mutate``), recording like the view."""

    __slots__ = ("_batch", "_footprint")

    def __init__(self, batch: Any, footprint: Footprint) -> None:
        self._batch, self._footprint = batch, footprint

    def get(self, name: str, default: Any = None) -> Any:
        self._footprint.reading(name)
        return self._batch.get(name, default)

    def __getitem__(self, name: str) -> Cell:
        self._footprint.reading(name)
        return cast(Cell, self._batch[name])

    def __contains__(self, name: str) -> bool:
        self._footprint.reading(name)
        return name in self._batch

    def set(self, name: str, contents: Cell) -> None:
        self._footprint.written[name] = None
        self._batch.set(name, contents)

    def __setitem__(self, name: str, contents: Cell) -> None:
        self.set(name, contents)

    def __delitem__(self, name: str) -> None:
        self._footprint.written[name] = None
        del self._batch[name]

    def pop(self, name: str, *default: Any) -> Any:
        self._footprint.written[name] = None
        return self._batch.pop(name, *default)

    def update(self, cells: Any = (), **more: Cell) -> None:
        changes = dict(cells, **more)
        self._footprint.written.update(dict.fromkeys(changes))
        self._batch.update(changes)

    def finish(self) -> _View:
        return _View(self._batch.finish(), self._footprint)

    def __len__(self) -> int:
        self._footprint.whole = True
        return len(self._batch)

    def __enter__(self) -> _Mutation:
        return self

    def __exit__(self, *exception: object) -> None:
        self._batch.__exit__(*exception)
