"""Relations: the population of one fact type, a set of facts with an index per role.

A fact is a tuple of atoms, one per role in role order.  A relation is persistent: ``add``
and ``remove`` return a new relation sharing all but one path of each index with the old
one, and return the relation itself when nothing changes.  Programs see a relation as the
FFP object ⟨fact, …⟩ in sorted order (:meth:`Relation.as_object`); the named primitives
that must not read a whole relation use its indexes.

>>> r = Relation.of(2, [("ord-1", "acme"), ("ord-2", "acme"), ("ord-3", "zeta")])
>>> len(r), ("ord-2", "acme") in r, r.count(1, "acme")
(3, True, 2)
>>> sorted(r.matching(1, "acme"))
[('ord-1', 'acme'), ('ord-2', 'acme')]
>>> r.add(("ord-1", "acme")) is r, len(r.remove(("ord-1", "acme")))
(True, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, TypeAlias

from arest.algebra.objects import Object
from arest.algebra.persistent import EMPTY, PersistentMap, with_items

Fact: TypeAlias = tuple[str, ...]
_Index: TypeAlias = PersistentMap[str, PersistentMap[Fact, bool]]


class Relation:
    """A set of facts of one arity, indexed by the value in each role.

    The index of the first role is also the set itself: a fact is in the relation when it is
    among the facts its first value selects, so adding a fact writes one path per role and
    nothing more.
    """

    __slots__ = ("_indexes", "_size", "arity")

    def __init__(
        self, arity: int, indexes: tuple[_Index, ...] | None = None, size: int = 0
    ) -> None:
        self.arity = arity
        self._indexes: tuple[_Index, ...] = (
            indexes if indexes is not None else tuple(EMPTY for _ in range(arity))
        )
        self._size = size

    @classmethod
    def of(cls, arity: int, facts: Iterable[Fact]) -> Relation:
        """The relation holding facts.

        >>> len(Relation.of(1, [("a",), ("a",), ("b",)]))
        2
        """
        return cls(arity).extended(facts)

    def add(self, fact: Fact) -> Relation:
        """This relation with fact in it; itself when fact is already there."""
        if len(fact) != self.arity:
            raise ValueError(f"a fact of {len(fact)} roles in a relation of {self.arity}")
        if fact in self:
            return self
        indexes = tuple(
            index.set(value, index.get(value, EMPTY).set(fact, True))
            for index, value in zip(self._indexes, fact, strict=True)
        )
        return Relation(self.arity, indexes, self._size + 1)

    def extended(self, facts: Iterable[Fact]) -> Relation:
        """This relation with many facts added in one batch per index (a bulk load).

        >>> Relation.of(2, [("a", "x")]).extended([("b", "x"), ("a", "x")]).count(1, "x")
        2
        """
        new = [fact for fact in dict.fromkeys(facts) if fact not in self]
        if not new:
            return self
        if any(len(fact) != self.arity for fact in new):
            raise ValueError(f"facts of another arity in a relation of {self.arity}")
        indexes: list[_Index] = []
        for role, index in enumerate(self._indexes):
            grouped: dict[str, dict[Fact, bool]] = {}
            for fact in new:
                grouped.setdefault(fact[role], {})[fact] = True
            indexes.append(with_items(index, (
                # A value new to the index gets its facts' map built in one go.
                (value, with_items(index[value], group.items()) if value in index
                 else PersistentMap(group))
                for value, group in grouped.items()
            )))
        return Relation(self.arity, tuple(indexes), self._size + len(new))

    def remove(self, fact: Fact) -> Relation:
        """This relation without fact; itself when fact is not there."""
        if fact not in self:
            return self
        indexes: list[_Index] = []
        for index, value in zip(self._indexes, fact, strict=True):
            remaining = index[value].delete(fact)
            indexes.append(index.set(value, remaining) if remaining else index.delete(value))
        return Relation(self.arity, tuple(indexes), self._size - 1)

    def __contains__(self, fact: object) -> bool:
        if not self._indexes or type(fact) is not tuple or len(fact) != self.arity:
            return False
        return fact in self._indexes[0].get(fact[0], EMPTY)

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Fact]:
        for facts in self._indexes[0].values() if self._indexes else ():
            yield from facts

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Relation):
            return NotImplemented
        return (self.arity, self._size) == (other.arity, other._size) and (
            not self._indexes or self._indexes[0] == other._indexes[0]
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Relation({self.arity}, {sorted(self)!r})"

    def matching(self, role: int, value: str) -> Iterator[Fact]:
        """The facts whose role ``role`` (0-based) holds value, by index."""
        return iter(self._indexes[role].get(value, EMPTY))

    def count(self, role: int, value: str) -> int:
        """How many facts hold value in role ``role``, by index."""
        return len(self._indexes[role].get(value, EMPTY))

    def values(self, role: int) -> Iterator[str]:
        """The distinct values in role ``role``.

        >>> sorted(Relation.of(2, [("a", "x"), ("b", "x")]).values(1))
        ['x']
        """
        return iter(self._indexes[role])

    def as_object(self) -> Object:
        """The relation as an FFP object: its facts, sorted.

        >>> Relation.of(2, [("b", "1"), ("a", "2")]).as_object()
        (('a', '2'), ('b', '1'))
        """
        return tuple(sorted(self))


class Archive:
    """Earlier states of D kept in a cell of D, by label, each with the time it was taken.

    Persistent like the rest: ``with_state`` returns a new archive.

    >>> archive = Archive().with_state("v1", "2024-01-01T00:00:00Z", {})
    >>> archive.labels(), "v1" in archive
    (['v1'], True)
    """

    __slots__ = ("_states",)

    def __init__(self, states: PersistentMap[str, tuple[str, Any]] = EMPTY) -> None:
        self._states = states

    def with_state(self, label: str, taken_at: str, state: Any) -> Archive:
        return Archive(self._states.set(label, (taken_at, state)))

    def __contains__(self, label: object) -> bool:
        return label in self._states

    def state(self, label: str) -> Any:
        return self._states[label][1]

    def taken_at(self, label: str) -> str:
        return str(self._states[label][0])

    def labels(self) -> list[str]:
        """Labels in the order the states were taken (then by label)."""
        return sorted(self._states, key=lambda label: (self._states[label][0], label))

    def __len__(self) -> int:
        return len(self._states)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Archive):
            return NotImplemented
        return bool(self._states == other._states)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Archive({self.labels()!r})"

    def as_object(self) -> Object:
        """The archive as programs see it: ⟨⟨label, taken at⟩, …⟩ (the states stay host values)."""
        return tuple((label, self.taken_at(label)) for label in self.labels())


Cell: TypeAlias = "Object | Relation | Archive"
"""What a cell of D holds: an FFP object (a definition, a table), a fact type's relation, or
an archive of earlier states (snapshots)."""
