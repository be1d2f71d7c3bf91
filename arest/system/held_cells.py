"""The cells a compiled decision read, with their contents, and the last state known to hold
them: a plan or a set of checks is looked up once and then holds wherever those cells are the
same objects.

    holds(S)  ⇔  ∀ n ∈ names: S.get(n) is contents[n]
    holds(S) ∧ names ∩ written = ∅  ⇒  holds(S with the written cells)

The second line is why a state reached by writing cells none of which was read holds too,
without reading its cells: a create over a state known to hold leaves one known to hold,
and the next create over it (the usual sequence of commands) reads none of the cells.  The
state known is kept by a weak reference, so nothing keeps an old D alive, and only a plain
D is known.  A recording view (:mod:`arest.runtime.footprint`) is asked through the plain D
it shows: when that is known, the view records every cell read at once (its footprint is
what reading them one by one records), so a tenant's creates, each on a view of the D the
one before reached, read none of the cells either.

>>> from arest.algebra import EMPTY_STATE, store_all
>>> S = store_all(EMPTY_STATE, [("schema", ("a",)), ("facts", ("x",))])
>>> held = HeldCells(S, ("schema",))
>>> after = S.set("facts", ("x", "y"))
>>> held.carry(S, after, {"facts"})
>>> held.known(after), held.holds(after), held.holds(S.set("schema", ("b",)))
(True, True, False)
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Collection, Iterable
from operator import is_
from typing import Final

from arest.algebra import EMPTY_STATE, State

__all__ = ["HeldCells", "carry_all", "carry_known"]

_PLAIN: Final = type(EMPTY_STATE)
"""The type of a plain D: a view of one (which records what it reads) is never known."""


def _shown(state: State) -> State:
    """The plain D a recording view shows (:mod:`arest.runtime.footprint`), else state."""
    # A plain D, the common case, is told by its type: asking it for an attribute it lacks
    # costs an exception inside getattr.
    return state if type(state) is _PLAIN else getattr(state, "shown", state)


def _nothing() -> None:
    return None


class HeldCells:
    """Cells read (names) and their contents over the state they were read in; whether a
    state holds them (each the same object), remembering the last plain state that did."""

    __slots__ = ("_known", "_read", "contents", "names")

    def __init__(self, state: State, names: tuple[str, ...]) -> None:
        self.names = names
        self.contents: tuple[object, ...] = tuple(map(state.get, names))
        self._read = frozenset(names)
        self._known: Callable[[], State | None] = _nothing
        self._remember(state)

    def _remember(self, state: State) -> None:
        # One attribute written whole: a thread reading it meets one state or the other,
        # each of which holds.
        if type(state) is _PLAIN:
            self._known = weakref.ref(state)

    def known(self, state: State) -> bool:
        """Whether state is the one remembered to hold (no cell read)."""
        return self._known() is state

    def holds(self, state: State) -> bool:
        """Whether every cell read is the same object in state.  On a recording view whose
        state is the one known, every cell read is recorded at once, as reading each would."""
        known = self._known()
        if known is state:
            return True
        shown = _shown(state)
        if known is shown and shown is not state:
            state.read_all(self._read)  # type: ignore[attr-defined]
            return True
        if all(map(is_, map(state.get, self.names), self.contents)):
            self._remember(shown)
            return True
        return False

    def carry(self, before: State, after: State, written: Collection[str]) -> None:
        """after is before with the cells written changed: known to hold when before was
        and none of them was read."""
        if type(before) is _PLAIN and type(after) is _PLAIN:  # the common case, no calls
            if self._known() is before and self._read.isdisjoint(written):
                self._known = weakref.ref(after)
        elif self._known() is _shown(before) and self._read.isdisjoint(written):
            self._remember(_shown(after))

    def reads_none_of(self, written: Collection[str]) -> bool:
        """Whether none of the cells written is one read."""
        return self._read.isdisjoint(written)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HeldCells):
            return NotImplemented
        return self.names == other.names and all(map(is_, self.contents, other.contents))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"HeldCells({self.names!r})"


def carry_all(held: Iterable[HeldCells], before: State, after: State,
              written: Collection[str]) -> None:
    """:meth:`HeldCells.carry` of each of held: :func:`carry_known` of those that read none
    of the cells written.

        carry_all(held, b, a, w) = carry_known([h ∈ held | h reads none of w], b, a)
    """
    carry_known([cells for cells in held if cells._read.isdisjoint(written)], before, after)


def carry_known(held: Iterable[HeldCells], before: State, after: State) -> None:
    """:meth:`HeldCells.carry` of each of held, each of which read none of the cells
    written (the caller knows it): each known over a plain before is known over a plain
    after, the weak reference to after made once for all."""
    if type(before) is not _PLAIN or type(after) is not _PLAIN:
        for cells in held:
            cells.carry(before, after, ())
        return
    known_after: Callable[[], State | None] | None = None
    for cells in held:
        if cells._known() is before:
            if known_after is None:
                known_after = weakref.ref(after)
            cells._known = known_after
