"""The layers of a relation: a frozen base of facts, and edits of the persistent overlay.

A relation (:mod:`arest.algebra.relations`) is base − removed ∪ overlay.  The base is a dict
fact → payload that nothing writes once it is here, with an index per role built the first
time that role is searched; the overlay is one persistent index per role, value →
{fact: payload} (True under the roles after the first, each None until its role is first
searched).

A base may keep payloads *implied* (:class:`Implied`): a payload that is one atom stands for
the payload its fact and that atom imply, so that a derivation of millions of facts keeps one
reference per fact where the payload it stands for is two tuples.  Readers never see the
atom: the relation gives every payload expanded.
"""

from __future__ import annotations

import gc
from typing import Final, TypeAlias, cast

from arest.algebra.persistent import EMPTY, PersistentMap
from arest.records import record

Fact: TypeAlias = tuple[str, ...]
Index: TypeAlias = PersistentMap[str, PersistentMap[Fact, object]]
Group: TypeAlias = "tuple[Fact, ...]"
"""The base facts holding one value in one role."""

_COLLECT_AFTER: Final = 1 << 16
"""From this many facts, building an index ends with a collection of the youngest generation."""

_FEW: Final = 8
"""Up to this many facts, an overlay index is edited one path at a time rather than in a batch."""


@record
class Implied:
    """The payloads a base keeps as one atom each: ⟨l₁, …, lₖ, ⟨c₁, …, cₙ⟩⟩ from a fact φ and
    its kept atom a, where cᵢ = a when ``columns[i]`` is :data:`KEPT`, else φ[columns[i]].

    A derivation's support ⟨rule, plan, row⟩ whose row holds the fact's values and one more
    (a closure's middle node) is such a payload: its labels are the rule and the plan.

    >>> implied = Implied(("rule-1", "0"), (0, KEPT, 1))
    >>> implied.expand(("a", "c"), "b")
    ('rule-1', '0', ('a', 'b', 'c'))
    >>> implied.payload(("a", "c"), True), implied.payload(("a", "c"), "b")[2]
    (True, ('a', 'b', 'c'))
    """

    labels: tuple[str, ...]
    columns: tuple[int, ...]

    def expand(self, fact: Fact, kept: str) -> tuple[object, ...]:
        """The payload the fact and its kept atom stand for."""
        return (*self.labels, tuple(kept if c == KEPT else fact[c] for c in self.columns))

    def payload(self, fact: Fact, stored: object) -> object:
        """The payload a stored value stands for: expanded when it is an atom (a kept one),
        itself otherwise."""
        return self.expand(fact, stored) if type(stored) is str else stored


KEPT: Final = -1
"""In :attr:`Implied.columns`, the column that holds the kept atom."""


class Base:
    """A frozen batch of facts, fact → payload, and an index per role built on first use.

    Shared by every relation layered on it, so nothing writes ``facts`` once it is here.
    An index (value → the facts holding it in that role) only caches what ``facts`` says:
    two threads racing to build it build the same thing.  With ``implied``, a stored value
    that is an atom stands for ``implied.payload(fact, atom)``: nothing else in such a base
    is an atom (:data:`~arest.algebra.relations.ASSERTED` is not, nor is a support).
    """

    __slots__ = ("_by_role", "facts", "implied")

    def __init__(self, arity: int, facts: dict[Fact, object],
                 implied: Implied | None = None) -> None:
        self.facts = facts
        self.implied = implied
        self._by_role: list[dict[str, Group] | None] = [None] * arity

    def payloads(self) -> dict[Fact, object]:
        """fact → payload, every implied one expanded (``facts`` itself when none is).

        >>> base = Base(2, {("a", "c"): "b", ("a", "b"): True}, Implied(("r", "0"), (0, KEPT, 1)))
        >>> base.payloads()
        {('a', 'c'): ('r', '0', ('a', 'b', 'c')), ('a', 'b'): True}
        """
        implied = self.implied
        if implied is None:
            return self.facts
        expand = implied.expand
        return {fact: expand(fact, stored) if type(stored) is str else stored
                for fact, stored in self.facts.items()}

    def is_indexed(self, role: int) -> bool:
        """Whether the index of role is built."""
        return self._by_role[role] is not None

    def index(self, role: int) -> dict[str, Group]:
        """value → the base facts holding value in role, each group a tuple; O(len(facts))
        the first time.

        Tuples, not lists: a tuple of facts (tuples of atoms) is one the garbage collector
        stops tracking, and then so is the index dict, so that a full collection no longer
        walks every fact of every index of a large relation — hundreds of ms at 10⁶ facts
        for each full collection a later command happens to trigger (docs/performance.md,
        Derivation).  A 1-tuple is also one block where a list is two (Memory).

        >>> index = Base(2, {("a", "x"): True, ("b", "x"): True}).index
        >>> index(0)["a"], index(1)["x"]
        ((('a', 'x'),), (('a', 'x'), ('b', 'x')))
        """
        by_value = self._by_role[role]
        if by_value is None:
            grouping: dict[str, tuple[Fact, ...] | list[Fact]] = {}
            get = grouping.get
            for fact in self.facts:
                value = fact[role]
                group = get(value)
                if group is None:
                    grouping[value] = (fact,)
                elif type(group) is list:
                    group.append(fact)
                else:
                    grouping[value] = [group[0], fact]
            for value, group in grouping.items():
                if type(group) is list:
                    grouping[value] = tuple(group)
            if len(self.facts) >= _COLLECT_AFTER:
                # Each tuple replaced a list, so the allocation count did not grow and no
                # collection ran: the first one to come, in whatever command, would examine
                # every group at once (0.3 s at 1.6e6 facts).  The build pays it, here.
                gc.collect(0)
            # Every group is a tuple now.
            by_value = self._by_role[role] = cast(dict[str, Group], grouping)
        return by_value


def edited(
    indexes: tuple[Index | None, ...], written: list[tuple[Fact, object, bool]],
    dropped: list[Fact]
) -> tuple[Index | None, ...]:
    """The overlay indexes without the dropped facts and with each written (fact, payload,
    new) set: the payload under the first role, True under the others when the fact is new.

    Each index maps a value in its role to {fact: payload}; one that is None (a role not
    indexed yet, built from the first role's when asked) stays None.
    """
    if len(written) + len(dropped) <= _FEW:
        # Copying a path per fact is cheaper than opening batches for a handful of facts.
        edited = list(indexes)
        for role, index in enumerate(indexes):
            if index is None:
                continue
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
        None if index is None else batch_edited(
            index, role, [(fact, payload if role == 0 else True)
                          for fact, payload, new in written if role == 0 or new], dropped)
        for role, index in enumerate(indexes)
    )


def batch_edited(
    index: Index, role: int, written: list[tuple[Fact, object]], dropped: list[Fact]
) -> Index:
    """index without the dropped facts and with each written (fact, payload) set, grouped by
    the value in role, one batch per map."""
    # Grouped by value without a default built per fact (``setdefault`` would build one).
    leaving: dict[str, list[Fact]] = {}
    for fact in dropped:
        value = fact[role]
        facts = leaving.get(value)
        if facts is None:
            leaving[value] = [fact]
        else:
            facts.append(fact)
    writing: dict[str, dict[Fact, object]] = {}
    for fact, payload in written:
        value = fact[role]
        group = writing.get(value)
        if group is None:
            writing[value] = {fact: payload}
        else:
            group[fact] = payload
    if not leaving and not writing:
        return index
    with index.mutate() as outer:
        for value in leaving.keys() | writing.keys():  # the result is the same in any order
            payloads = outer.get(value)
            if payloads is None:  # a value new to the index gets its map built in one go
                outer[value] = PersistentMap(writing[value])
                continue
            with payloads.mutate() as batch:
                for fact in leaving.get(value, ()):
                    del batch[fact]
                batch.update(writing.get(value, ()))
                payloads = batch.finish()
            if payloads:
                outer[value] = payloads
            else:
                del outer[value]
        edited = outer.finish()
    return edited
