"""Cells: the state D as a persistent map from cell names to contents (Backus 1978, §14).

Backus's state is the object ⟨⟨CELL, n₁, c₁⟩, …, ⟨CELL, nₖ, cₖ⟩⟩, with fetch ↑n and store ↓n.
Here D is the same thing held as a persistent map, so that fetch is a lookup, store copies
one path of the trie, and a snapshot is the value D itself.  :func:`as_object` gives the
cell sequence (names in order), and the primitives ``fetch`` and ``store`` agree with the
functions below on it.  The reducer runs *in* a state: D is the ``defs`` of
:func:`arest.algebra.apply`, so a cell holding a definition gives that atom its meaning, and
``fetch:n`` reads cell n.

>>> D = store(store(EMPTY_STATE, "a", "1"), "b", ("x", "y"))
>>> fetch(D, "b"), fetch(D, "z")
(('x', 'y'), ⊥)
>>> show(as_object(D))
'<<CELL, a, 1>, <CELL, b, <x, y>>>'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, TypeAlias

from arest.algebra.objects import BOTTOM, Object
from arest.algebra.persistent import EMPTY, PersistentMap, with_items
from arest.algebra.relations import Archive, Cell, Relation

State: TypeAlias = PersistentMap[str, Cell]
"""D: cell name → contents, an FFP object or a fact type's :class:`Relation`."""

EMPTY_STATE: Final[State] = EMPTY

CELL: Final = "CELL"
"""The first atom of ⟨CELL, name, contents⟩, a cell in D as one object (Backus §14)."""


def fetch(state: State, name: str) -> Cell:
    """Fetch: ↑n:D = the contents of the cell named n in D; ⊥ when D has no such cell.

    >>> fetch(store(EMPTY_STATE, "n", "v"), "n")
    'v'
    """
    contents = state.get(name)
    return BOTTOM if contents is None else contents


def store(state: State, name: str, contents: Cell) -> State:
    """Store: ↓n:⟨x, D⟩ = D with the cell named n holding x.  D itself is never changed, and
    storing what a cell already holds returns D itself.

    >>> D = store(EMPTY_STATE, "n", "v")
    >>> store(D, "n", "w") is D, store(D, "n", "v") is D, fetch(D, "n")
    (False, True, 'v')
    """
    return state.set(name, contents)


def store_all(state: State, cells: Iterable[tuple[str, Cell]]) -> State:
    """D with every (name, contents) stored, in one batch: ↓nₖ∘…∘↓n₁.

    >>> fetch(store_all(EMPTY_STATE, [("a", "1"), ("a", "2")]), "a")
    '2'
    """
    return with_items(state, cells)


def as_object(state: State) -> Object:
    """D as Backus's state object: ⟨⟨CELL, n, contents⟩, …⟩, cells ordered by name, a
    relation as its sorted facts.

    >>> as_object(EMPTY_STATE)
    ()
    """
    return tuple((CELL, name, contents_object(state[name])) for name in sorted(state))


def contents_object(contents: Cell) -> Object:
    """A cell's contents as an FFP object: a relation as its sorted facts.

    >>> contents_object(Relation.of(1, [("b",), ("a",)]))
    (('a',), ('b',))
    """
    return contents.as_object() if isinstance(contents, Relation | Archive) else contents


def from_object(cells: Object) -> State | None:
    """The state a cell sequence denotes, or None when the object is not one.

    >>> from_object(as_object(store(EMPTY_STATE, "a", "1"))) == store(EMPTY_STATE, "a", "1")
    True
    >>> from_object("a") is None
    True
    """
    if type(cells) is not tuple:
        return None
    pairs: list[tuple[str, Cell]] = []
    for cell in cells:
        if not (type(cell) is tuple and len(cell) == 3 and cell[0] == CELL
                and type(cell[1]) is str):
            return None
        pairs.append((cell[1], cell[2]))
    return with_items(EMPTY_STATE, pairs)
