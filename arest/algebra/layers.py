"""The layers of a relation: a frozen base of facts, and edits of the persistent overlay.

A relation (:mod:`arest.algebra.relations`) is base − removed ∪ overlay.  The base is a dict
fact → payload that nothing writes once it is here, with an index per role built the first
time that role is searched; the overlay is one persistent index per role, value →
{fact: payload} (True under the roles after the first).
"""

from __future__ import annotations

from typing import Final, TypeAlias

from arest.algebra.persistent import EMPTY, PersistentMap

Fact: TypeAlias = tuple[str, ...]
Index: TypeAlias = PersistentMap[str, PersistentMap[Fact, object]]
Group: TypeAlias = "tuple[Fact] | list[Fact]"
"""The base facts holding one value in one role: one in a 1-tuple, more in a list."""

_FEW: Final = 8
"""Up to this many facts, an overlay index is edited one path at a time rather than in a batch."""


class Base:
    """A frozen batch of facts, fact → payload, and an index per role built on first use.

    Shared by every relation layered on it, so nothing writes ``facts`` once it is here.
    An index (value → the facts holding it in that role) only caches what ``facts`` says:
    two threads racing to build it build the same thing.
    """

    __slots__ = ("_by_role", "facts")

    def __init__(self, arity: int, facts: dict[Fact, object]) -> None:
        self.facts = facts
        self._by_role: list[dict[str, Group] | None] = [None] * arity

    def index(self, role: int) -> dict[str, Group]:
        """value → the base facts holding value in role; O(len(facts)) the first time.

        A value held by one fact has a tuple of it, by more a list: most values of a role
        its uniqueness spans are held once, and a 1-tuple is one block where a list is two
        (docs/performance.md, Memory).

        >>> index = Base(2, {("a", "x"): True, ("b", "x"): True}).index
        >>> index(0)["a"], index(1)["x"]
        ((('a', 'x'),), [('a', 'x'), ('b', 'x')])
        """
        by_value = self._by_role[role]
        if by_value is None:
            by_value = {}
            for fact in self.facts:
                value = fact[role]
                group = by_value.get(value)
                if group is None:
                    by_value[value] = (fact,)
                elif isinstance(group, list):
                    group.append(fact)
                else:
                    by_value[value] = [group[0], fact]
            self._by_role[role] = by_value
        return by_value


def edited(
    indexes: tuple[Index, ...], written: list[tuple[Fact, object, bool]], dropped: list[Fact]
) -> tuple[Index, ...]:
    """The overlay indexes without the dropped facts and with each written (fact, payload,
    new) set: the payload under the first role, True under the others when the fact is new.

    Each index maps a value in its role to {fact: payload}.
    """
    if len(written) + len(dropped) <= _FEW:
        # Copying a path per fact is cheaper than opening batches for a handful of facts.
        edited = list(indexes)
        for role, index in enumerate(indexes):
            for fact in dropped:
                payloads = index[fact[role]].delete(fact)
                index = index.set(fact[role], payloads) if payloads else index.delete(fact[role])
            for fact, payload, new in written:
                if role == 0 or new:
                    index = index.set(fact[role], index.get(fact[role], EMPTY).set(
                        fact, payload if role == 0 else True))
            edited[role] = index
        return tuple(edited)
    return tuple(
        batch_edited(index, role, [(fact, payload if role == 0 else True)
                                    for fact, payload, new in written if role == 0 or new],
                      dropped)
        for role, index in enumerate(indexes)
    )


def batch_edited(
    index: Index, role: int, written: list[tuple[Fact, object]], dropped: list[Fact]
) -> Index:
    """index without the dropped facts and with each written (fact, payload) set, grouped by
    the value in role, one batch per map."""
    groups: dict[str, tuple[list[Fact], dict[Fact, object]]] = {}
    for fact in dropped:
        groups.setdefault(fact[role], ([], {}))[0].append(fact)
    for fact, payload in written:
        groups.setdefault(fact[role], ([], {}))[1][fact] = payload
    if not groups:
        return index
    with index.mutate() as outer:
        for value, (leaving, writing) in groups.items():
            payloads = outer.get(value)
            if payloads is None:  # a value new to the index gets its map built in one go
                outer[value] = PersistentMap(writing)
                continue
            with payloads.mutate() as batch:
                for fact in leaving:
                    del batch[fact]
                batch.update(writing)
                payloads = batch.finish()
            if payloads:
                outer[value] = payloads
            else:
                del outer[value]
        edited = outer.finish()
    return edited
