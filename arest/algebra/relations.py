"""Relations: the population of one fact type, a set of facts with an index per role.

A fact is a tuple of atoms, one per role in role order, and carries a payload: why it holds
(:data:`ASSERTED` for a plain assertion, or an FFP object a derivation attaches).  A relation
is persistent: ``add``, ``remove`` and ``updated`` return a new relation sharing almost all
of the old one, and return the relation itself when nothing changes.  Programs see a relation
as the FFP object ⟨fact, …⟩ in sorted order (:meth:`Relation.as_object`); the named primitives
that must not read a whole relation use its indexes.

A relation is three layers, whose meaning is ``facts = (base − removed) ∪ overlay``:

- the *base*, a frozen ``dict`` fact → payload (possibly absent), with a per-role index
  (value → facts) built on first use and shared by every relation over that base;
- the *overlay*, persistent maps value → {fact: payload} per role, for the facts added or
  re-payloaded since the base was frozen; the first role's map is the overlay itself, and
  another role's is built from it the first time that role is searched, then kept up by every
  edit of the relation and of those made from it (until then an edit writes one path, not
  one per role);
- *removed*, a persistent set of base facts that are hidden.

The overlay never repeats a visible base fact, so each layer is read once and nothing is
counted twice.  When overlay and removed pass ``max(compaction_floor, len(base) // 2)``
entries, everything folds into a new base (a new dict: older relations keep theirs), so a
change costs amortized O(1) and a huge batch costs what a dict costs.

Beside the layers, a relation keeps the *trail* of its edits since the base: the facts each
edit touched, newest first, so that :meth:`Relation.changes_since` finds what changed between
two versions in proportion to the edits between them, not to the relation.

>>> r = Relation.of(2, [("ord-1", "acme"), ("ord-2", "acme"), ("ord-3", "zeta")])
>>> len(r), ("ord-2", "acme") in r, r.count(1, "acme")
(3, True, 2)
>>> sorted(r.matching(1, "acme"))
[('ord-1', 'acme'), ('ord-2', 'acme')]
>>> r.add(("ord-1", "acme")) is r, len(r.remove(("ord-1", "acme")))
(True, 2)
>>> frozen = Relation.frozen(2, {("ord-1", "acme"): True, ("ord-2", "acme"): True})
>>> frozen.remove(("ord-2", "acme")).add(("ord-3", "zeta")) == r.remove(("ord-2", "acme"))
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator
from itertools import chain
from typing import Any, ClassVar, Final, Protocol, TypeAlias

from arest.algebra.layers import Base, Implied, batch_edited, edited
from arest.algebra.layers import Fact as Fact
from arest.algebra.layers import Index as _Index
from arest.algebra.objects import Object
from arest.algebra.persistent import EMPTY, PersistentMap, with_items, without_keys

ASSERTED: Final = True
"""The payload of a fact that was simply asserted: what ``add(fact)`` and ``extended`` give."""

_ABSENT: Final = object()
"""The payload of a fact that is not there, inside this module (``payload`` says None)."""

_Trail: TypeAlias = "tuple[tuple[Fact, ...], Any, int] | tuple[Fact, Any, int, bool] | None"
"""A relation's edits since its base, newest first: (facts the edit touched, the trail before
it, facts on the trail), or for an edit adding one fact (fact, the trail before it, facts on
the trail, True), which builds no tuple around the fact; None before the first edit."""

_CUT: Final[tuple[tuple[Fact, ...], Any, int]] = ((), None, 0)
"""Where a trail was cut: the edits before it are forgotten (see ``Relation._edited``)."""

_Indexes: TypeAlias = "tuple[_Index | None, ...]"
"""A relation's overlay indexes, one per role: the first always there (the overlay itself),
another None until its role is first searched (:meth:`Relation._index`)."""



class _ByValue(Protocol):
    def get(self, value: str, default: Collection[Fact], /) -> Collection[Fact]: ...


class _Matching:
    """:meth:`Relation.matching` as a mapping's ``get``, for a relation in several layers:
    the layers' maps are read once here, not on every probe of a join."""

    __slots__ = ("in_base", "in_overlay", "removed")

    def __init__(self, base: Base, overlay: _Index, role: int,
                 removed: PersistentMap[Fact, bool]) -> None:
        self.in_base, self.in_overlay, self.removed = base.index(role), overlay, removed

    def get(self, value: str, default: Collection[Fact], /) -> Collection[Fact]:
        listed: Collection[Fact] = self.in_base.get(value, ())
        removed = self.removed
        if removed and listed:
            listed = [fact for fact in listed if fact not in removed]
        in_overlay = self.in_overlay.get(value)
        if in_overlay:
            return [*listed, *in_overlay]
        return listed or default


class Relation:
    """A set of facts of one arity, each with a payload, indexed by the value in each role.

    In the overlay, the index of the first role is also the set itself and holds the
    payloads (the other roles' indexes hold True): a fact is there when it is among the facts
    its first value selects, so adding a fact writes one path per role kept and nothing more.
    The index of a later role is kept from the first search of that role on (by the relation
    searched and every relation edited from it): a fact type whose later roles nobody
    searches, a Customer's Name, costs its writes one path and not two.  Building it writes a
    slot of a relation that is already shared, but only with what the overlay already says,
    so no reader can tell (two threads may both build it: each keeps an equal map).

        r._index(i) = {v ↦ {f: True | f ∈ overlay(r), f[i] = v}}   for 0 < i < arity

    ``compaction_floor`` is the least number of overlay and removed entries that folds the
    layers into a new base; a subclass may lower it (tests do, to fold often).
    """

    __slots__ = ("_base", "_indexes", "_removed", "_size", "_trail", "arity")

    compaction_floor: ClassVar[int] = 4096

    def __init__(self, arity: int) -> None:
        self.arity = arity
        self._base: Base | None = None
        self._indexes: _Indexes = (EMPTY, *(None,) * (arity - 1)) if arity else ()
        self._removed: PersistentMap[Fact, bool] = EMPTY
        self._size = 0
        self._trail: _Trail = None

    def _layered(
        self, base: Base | None, indexes: _Indexes,
        removed: PersistentMap[Fact, bool], size: int, trail: _Trail = None,
    ) -> Relation:
        new = object.__new__(type(self))
        new.arity, new._base, new._indexes = self.arity, base, indexes
        new._removed, new._size, new._trail = removed, size, trail
        return new

    def _edited(self, facts: tuple[Fact, ...]) -> _Trail:
        """The trail with one more edit, touching facts.  A trail longer than twice the
        layered entries (or the compaction floor) is cut, so that it never holds much more
        than the layers themselves: a diff across the cut reads the layers instead."""
        trail = self._trail
        length = (trail[2] if trail is not None else 0) + len(facts)
        # The floor test first: it is free, and short trails never need the layers counted.
        if length > 2 * self.compaction_floor and length > 2 * (
                self._layered_entries() + len(facts)):
            return (facts, _CUT, len(facts))
        return (facts, trail, length)

    @classmethod
    def frozen(cls, arity: int, facts: dict[Fact, object],
               implied: Implied | None = None) -> Relation:
        """The relation holding facts (fact → payload), wrapped in O(1): the dict becomes its base.

        The relation owns facts from now on: the caller must not change the dict afterwards,
        and vouches that every key is a tuple of arity atoms (nothing is checked, so nothing
        is read).  An index is built the first time a role is searched.  With ``implied``, a
        value that is an atom stands for the payload ``implied`` expands it to
        (:class:`~arest.algebra.layers.Implied`), and the caller vouches that no other value
        is an atom; every reader of the relation sees the payloads expanded.

        >>> r = Relation.frozen(2, {("a", "x"): True, ("b", "x"): ("rule-1",)})
        >>> len(r), r.payload(("b", "x")), sorted(r.matching(1, "x"))
        (2, ('rule-1',), [('a', 'x'), ('b', 'x')])
        >>> from arest.algebra.layers import KEPT
        >>> s = Relation.frozen(2, {("a", "c"): "b"}, Implied(("rule-1", "0"), (0, KEPT, 1)))
        >>> whole = Relation.frozen(2, {("a", "c"): ("rule-1", "0", ("a", "b", "c"))})
        >>> s.payload(("a", "c")), s == whole
        (('rule-1', '0', ('a', 'b', 'c')), True)
        """
        empty = cls(arity)
        if not facts:
            return empty
        return empty._layered(Base(arity, facts, implied), empty._indexes, EMPTY, len(facts))

    @classmethod
    def of(cls, arity: int, facts: Iterable[Fact]) -> Relation:
        """The relation holding facts, each ASSERTED.

        Like every batch, a batch of more than ``compaction_floor`` (4096) facts becomes a
        frozen base instead of persistent maps.  Measured on two-role facts: 1e5 facts take
        0.22 s as maps and 0.02 s as a base (0.03 s with its first index of a role); 1.6e6
        facts take 6.4 s as maps and 0.27 s as a base.  Smaller batches stay maps: 4096
        facts cost 6 ms there, and a small relation that then changes fact by fact never
        pays for an index rebuild or a fold.

        >>> len(Relation.of(1, [("a",), ("a",), ("b",)]))
        2
        """
        return cls(arity).extended(facts)

    def add(self, fact: Fact, payload: object = ASSERTED) -> Relation:
        """This relation with fact in it, carrying payload; itself when fact is there with an
        equal payload (a different payload replaces it).

        >>> r = Relation.of(1, [("a",)])
        >>> r.add(("a",)) is r, r.add(("a",), ("why",)).payload(("a",))
        (True, ('why',))
        """
        arity = self.arity
        if len(fact) != arity:
            raise ValueError(f"a fact of {len(fact)} roles in a relation of {arity}")
        if not arity:
            known = self._find(fact)
            return self if known is not _ABSENT and known == payload else self._changed(
                {fact: payload})
        indexes = self._indexes
        first: _Index = indexes[0]  # type: ignore[assignment]
        head = fact[0]
        group = first.get(head)
        if group is None:
            group = EMPTY
        else:
            known = group.get(fact, _ABSENT)
            if known is not _ABSENT:
                return self if known == payload else self._changed({fact: payload})
        base = self._base
        base_size = 0
        if base is not None:
            in_base = base.facts.get(fact, _ABSENT)
            if in_base is not _ABSENT:
                if base.implied is not None:
                    in_base = base.implied.payload(fact, in_base)
                if fact not in self._removed and in_base == payload:
                    return self
                return self._changed({fact: payload})
            base_size = len(base.facts)
        # A new fact: one path per role in the overlay, unless the layers are due a fold
        # (``_put_new``, inline: the hot path of every write).
        removed, size, floor = self._removed, self._size, self.compaction_floor
        layered = size - base_size + 2 * len(removed)  # _layered_entries, inline
        if layered >= floor and layered >= base_size // 2:
            return self._changed({fact: payload})
        written = first.set(head, group.set(fact, payload))
        if arity == 1:
            indexes = (written,)
        elif arity == 2:
            second, value = indexes[1], fact[1]
            indexes = (written, None if second is None else second.set(
                value, second.get(value, EMPTY).set(fact, True)))
        else:
            indexes = (written, *[
                None if index is None else index.set(value, index.get(value, EMPTY).set(
                    fact, True)) for index, value in zip(indexes[1:], fact[1:], strict=True)])
        # The trail grows by one edit (``_edited``, inline: the same cut).
        trail = self._trail
        length = (trail[2] if trail is not None else 0) + 1
        if length > 2 * floor and length > 2 * (layered + 1):
            trail = (fact, _CUT, 1, True)
        else:
            trail = (fact, trail, length, True)
        new = object.__new__(type(self))
        new.arity, new._base, new._indexes = arity, base, indexes
        new._removed, new._size, new._trail = removed, size + 1, trail
        return new

    def add_new_in(self, role: int, fact: Fact) -> Relation | None:
        """This relation with fact added (ASSERTED) where no fact holds fact's value of role
        ``role`` there; None where one does.  The probe of that role's index that finds the
        value new finds the fact new too, so the fact itself is not looked up; and the
        value's count is then 1.

            r.add_new_in(i, f) = r.add(f)   where r.count(i, f[i]) = 0;  None elsewhere

        >>> r = Relation.of(2, [("ann", "Ann")])
        >>> r.add_new_in(0, ("bo", "Ann")) == r.add(("bo", "Ann")), r.add_new_in(1, ("bo", "Ann"))
        (True, None)
        """
        if len(fact) != self.arity:
            raise ValueError(f"a fact of {len(fact)} roles in a relation of {self.arity}")
        value = fact[role]
        index = self._indexes[role]
        if (index if index is not None else self._index(role)).get(value):
            return None
        base = self._base
        base_size = 0
        if base is not None:
            listed = base.index(role).get(value)
            if listed:
                removed = self._removed
                if not removed or not all(map(removed.__contains__, listed)):
                    return None
                return self.add(fact)  # its base facts all hidden: the fact may be one
            base_size = len(base.facts)
        group = EMPTY if role == 0 else self._overlay().get(fact[0], EMPTY)
        return self._put_new(fact, ASSERTED, group, base_size)

    def _put_new(self, fact: Fact, payload: object, group: PersistentMap[Fact, object],
                 base_size: int) -> Relation:
        """This relation with fact, in no layer, put in with payload: one path per role in
        the overlay (group: the overlay's facts of its first value), unless the layers are
        due a fold."""
        removed, size, floor = self._removed, self._size, self.compaction_floor
        layered = size - base_size + 2 * len(removed)  # _layered_entries, inline
        if layered >= floor and layered >= base_size // 2:
            return self._changed({fact: payload})
        arity, base, indexes = self.arity, self._base, self._indexes
        first: _Index = indexes[0]  # type: ignore[assignment]
        head = fact[0]
        written = first.set(head, group.set(fact, payload))
        if arity == 1:
            indexes = (written,)
        elif arity == 2:
            second, value = indexes[1], fact[1]
            indexes = (written, None if second is None else second.set(
                value, second.get(value, EMPTY).set(fact, True)))
        else:
            indexes = (written, *[
                None if index is None else index.set(value, index.get(value, EMPTY).set(
                    fact, True)) for index, value in zip(indexes[1:], fact[1:], strict=True)])
        # The trail grows by one edit (``_edited``, inline: the same cut).
        trail = self._trail
        length = (trail[2] if trail is not None else 0) + 1
        if length > 2 * floor and length > 2 * (layered + 1):
            trail = (fact, _CUT, 1, True)
        else:
            trail = (fact, trail, length, True)
        new = object.__new__(type(self))
        new.arity, new._base, new._indexes = arity, base, indexes
        new._removed, new._size, new._trail = removed, size + 1, trail
        return new

    def extended(self, facts: Iterable[Fact]) -> Relation:
        """This relation with many facts added in one batch, ASSERTED; facts already there keep
        their payloads.

        >>> Relation.of(2, [("a", "x")]).extended([("b", "x"), ("a", "x")]).count(1, "x")
        2
        """
        new: dict[Fact, object] = dict.fromkeys(facts, ASSERTED)
        if self._size:
            new = {fact: payload for fact, payload in new.items() if fact not in self}
        if not new:
            return self
        if set(map(len, new)) != {self.arity}:
            raise ValueError(f"facts of another arity in a relation of {self.arity}")
        return self._changed(new)

    def remove(self, fact: Fact) -> Relation:
        """This relation without fact; itself when fact is not there."""
        if self._find(fact) is _ABSENT:
            return self
        if self.arity and (self._base is None or fact not in self._base.facts):
            # A fact of the overlay only: its path in each role's index goes.
            indexes: list[_Index | None] = []
            for index, value in zip(self._indexes, fact, strict=True):
                if index is None:
                    indexes.append(None)
                    continue
                rest = index[value].delete(fact)
                indexes.append(index.set(value, rest) if rest else index.delete(value))
            return self._layered(self._base, tuple(indexes), self._removed, self._size - 1,
                                 self._edited((fact,)))
        return self._changed({fact: _ABSENT})

    def updated(
        self, added: Iterable[tuple[Fact, object]] = (), removed: Iterable[Fact] = ()
    ) -> Relation:
        """This relation with removed taken out, then each (fact, payload) of added put in
        (the last payload given for a fact wins), in one batch; itself when nothing changes.

        >>> r = Relation.of(2, [("a", "x"), ("b", "x")])
        >>> s = r.updated([(("c", "y"), ("why",)), (("a", "x"), True)], removed=[("b", "x")])
        >>> sorted(s.items()), r.updated([(("a", "x"), True)]) is r
        ([(('a', 'x'), True), (('c', 'y'), ('why',))], True)
        """
        net: dict[Fact, object] = dict.fromkeys(removed, _ABSENT)
        net.update(added)
        if not self._size:
            changes = {fact: payload for fact, payload in net.items() if payload is not _ABSENT}
        else:
            changes = {}
            for fact, payload in net.items():
                known = self._find(fact)
                if payload is _ABSENT:
                    unchanged = known is _ABSENT
                else:
                    unchanged = known is not _ABSENT and known == payload
                if not unchanged:
                    changes[fact] = payload
        if not changes:
            return self
        if any(len(fact) != self.arity for fact, payload in changes.items()
               if payload is not _ABSENT):
            raise ValueError(f"facts of another arity in a relation of {self.arity}")
        return self._changed(changes)

    def with_new(self, facts: dict[Fact, object]) -> Relation:
        """This relation with each fact of facts (fact → payload) put in, in one batch; the
        caller vouches that none of them is in the relation and that each has its arity (as
        :meth:`frozen` vouches for its dict), so nothing is looked up first.  The relation
        owns facts from now on.

        >>> r = Relation.of(2, [("a", "x")])
        >>> sorted(r.with_new({("b", "x"): ("why",)}).items()), len(r)
        ([(('a', 'x'), True), (('b', 'x'), ('why',))], 1)
        """
        if not facts:
            return self
        if self._folds_with(len(facts)):
            return self._folded(facts)
        # Each fact is new to every layer: one path per role, nothing hidden or shown.
        written = [(fact, payload, True) for fact, payload in facts.items()]
        return self._layered(self._base, edited(self._indexes, written, []), self._removed,
                             self._size + len(facts), self._edited(tuple(facts)))

    def _changed(self, changes: dict[Fact, object]) -> Relation:
        """This relation with each change made: fact → its new payload, or _ABSENT to remove.

        Every change changes something (a new fact, a new payload, a fact that is there to
        remove), and every added fact has the relation's arity.
        """
        if self._folds_with(len(changes)):
            return self._folded(changes)
        return self._overlaid(changes)

    def _folds_with(self, changes: int) -> bool:
        """Whether that many more layered entries fold the layers into a new base."""
        base_size = len(self._base.facts) if self._base is not None else 0
        # A relation without roles has no overlay index to hold its one possible fact.
        return not self.arity or self._layered_entries() + changes > max(
            self.compaction_floor, base_size // 2)

    def _layered_entries(self) -> int:
        """How many entries overlay and removed hold together, in O(1)."""
        base_size = len(self._base.facts) if self._base is not None else 0
        overlaid = self._size - (base_size - len(self._removed))
        return overlaid + len(self._removed)

    def _folded(self, changes: dict[Fact, object]) -> Relation:
        """The changed relation as a single new base (the old base dict is left as it was).

        changes is a dict this module built, so an empty relation takes it as the base as is.
        """
        if not self._size:
            return type(self).frozen(self.arity, changes)  # nothing there: all are additions
        base = self._base
        implied = base.implied if base is not None else None
        if implied is not None and any(type(payload) is str for payload in chain(
                changes.values(), *(p.values() for p in self._overlay().values()))):
            implied = None  # an atom payload of its own: the kept atoms are expanded
        if base is None:
            facts: dict[Fact, object] = {}
        elif implied is None and base.implied is not None:
            facts = base.payloads()  # a new dict, every kept atom expanded
        else:
            facts = dict(base.facts)
        for fact in self._removed:
            del facts[fact]
        for payloads in self._overlay().values():
            facts.update(payloads.items())
        facts.update(changes)
        for fact in [fact for fact, payload in changes.items() if payload is _ABSENT]:
            del facts[fact]
        return type(self).frozen(self.arity, facts, implied)

    def _overlaid(self, changes: dict[Fact, object]) -> Relation:
        """The changed relation with the base as it is, the changes made in overlay and removed."""
        base_facts = self._base.facts if self._base is not None else {}
        implied = self._base.implied if self._base is not None else None
        overlay, removed, size = self._overlay(), self._removed, self._size
        written: list[tuple[Fact, object, bool]] = []  # (fact, payload, new to the overlay)
        dropped: list[Fact] = []  # facts leaving the overlay
        hidden: list[Fact] = []  # base facts to hide
        shown: list[Fact] = []  # base facts to show again
        for fact, payload in changes.items():
            in_overlay = fact in overlay.get(fact[0], EMPTY)
            in_base = base_facts.get(fact, _ABSENT)
            if implied is not None and in_base is not _ABSENT:
                in_base = implied.payload(fact, in_base)
            was_hidden = fact in removed
            size += (payload is not _ABSENT) - (
                in_overlay or (in_base is not _ABSENT and not was_hidden))
            # The base says it already: the fact needs neither overlay nor removed.
            as_base = in_base is not _ABSENT and payload is not _ABSENT and in_base == payload
            if payload is not _ABSENT and not as_base:
                written.append((fact, payload, not in_overlay))
            elif in_overlay:
                dropped.append(fact)
            hide = in_base is not _ABSENT and not as_base
            if hide and not was_hidden:
                hidden.append(fact)
            elif was_hidden and not hide:
                shown.append(fact)
        indexes = edited(self._indexes, written, dropped)
        if hidden:
            removed = with_items(removed, ((fact, True) for fact in hidden))
        if shown:
            removed = without_keys(removed, shown)
        return self._layered(self._base, indexes, removed, size, self._edited(tuple(changes)))

    def _overlay(self) -> _Index:
        """The overlay's first-role index: first value → {fact: payload}."""
        return self._indexes[0] if self._indexes else EMPTY  # type: ignore[return-value]

    def _index(self, role: int) -> _Index:
        """The overlay's index of role ``role``: value → {fact: True} (the payloads under
        the first role), built from the overlay and kept here the first time it is asked."""
        indexes = self._indexes
        index = indexes[role]
        if index is not None:
            return index
        index = batch_edited(EMPTY, role, [(fact, True) for payloads in self._overlay().values()
                                           for fact in payloads], [])
        # Only this slot changes: a thread that builds another role's index at the same time
        # may write its tuple over this one, and the lost index is built again when asked.
        self._indexes = (*indexes[:role], index, *indexes[role + 1:])
        return index

    def _find(self, fact: object) -> object:
        """fact's payload, or _ABSENT when fact is not in the relation."""
        if type(fact) is not tuple or len(fact) != self.arity:
            return _ABSENT
        base = self._base
        if base is not None:
            payload = base.facts.get(fact, _ABSENT)
            if payload is not _ABSENT and fact not in self._removed:
                return payload if base.implied is None else base.implied.payload(fact, payload)
        if not fact:
            return _ABSENT
        overlay: _Index = self._indexes[0]  # type: ignore[assignment]
        return overlay.get(fact[0], EMPTY).get(fact, _ABSENT)

    def payload(self, fact: Fact) -> object | None:
        """The payload fact carries; None when fact is not in the relation.

        >>> r = Relation.of(1, [("a",)]).add(("b",), ("why",))
        >>> r.payload(("a",)), r.payload(("b",)), r.payload(("c",))
        (True, ('why',), None)
        """
        found = self._find(fact)
        return None if found is _ABSENT else found

    def lookup(self) -> Callable[[Fact], object | None]:
        """:meth:`payload` as a function that reads the layers once, for a caller looking up
        many facts of one relation (the heads a derivation finds): fact ↦ its payload, None
        when it is not there.

        >>> r = Relation.frozen(1, {("a",): True, ("b",): True}).remove(("b",)).add(("c",))
        >>> find = r.lookup()
        >>> find(("a",)), find(("b",)), find(("c",)), find(("d",))
        (True, None, True, None)
        """
        if not self.arity:
            return self.payload
        overlay = self._overlay()
        if self._base is None:
            def in_overlay(fact: Fact) -> object | None:
                return overlay.get(fact[0], EMPTY).get(fact)
            return in_overlay
        stored_in_base, removed = self._base.facts.get, self._removed
        implied = self._base.implied
        in_base: Callable[[Fact], object | None] = stored_in_base
        if implied is not None:
            def expanded(fact: Fact) -> object | None:
                stored = stored_in_base(fact)
                return implied.expand(fact, stored) if type(stored) is str else stored
            in_base = expanded
        if not overlay and not removed:
            return in_base
        def in_layers(fact: Fact) -> object | None:
            payload = in_base(fact)
            if payload is not None and fact not in removed:
                return payload
            return overlay.get(fact[0], EMPTY).get(fact)
        return in_layers

    def membership(self) -> Callable[[Fact], bool]:
        """``fact in self`` as a function that reads the layers once, for a caller checking
        many facts of one relation (the heads a derivation finds); it reads no payload, so
        none kept implied is rebuilt.

        >>> r = Relation.frozen(1, {("a",): True, ("b",): True}).remove(("b",)).add(("c",))
        >>> held = r.membership()
        >>> held(("a",)), held(("b",)), held(("c",)), held(("d",))
        (True, False, True, False)
        """
        if not self.arity:
            return self.__contains__
        overlay = self._overlay()
        if self._base is None:
            def in_overlay(fact: Fact) -> bool:
                return fact in overlay.get(fact[0], EMPTY)
            return in_overlay
        facts, removed = self._base.facts, self._removed
        if not overlay and not removed:
            return facts.__contains__
        def in_layers(fact: Fact) -> bool:
            return (fact in facts and fact not in removed) or fact in overlay.get(fact[0], EMPTY)
        return in_layers

    def changes_since(
        self, earlier: Relation
    ) -> Iterator[tuple[Fact, object | None, object | None]]:
        """Δ(earlier, self): each fact whose payload differs between earlier and this relation,
        as (fact, payload in earlier, payload here), None where the fact is absent; in no
        particular order.

        Costs O(edits between them) when this relation was made from earlier by edits over
        the same base (its trail reaches earlier's); O(layered entries) when the two share a
        base otherwise; O(len(earlier) + len(self)) when they do not (after a fold, which
        itself cost that much).

        >>> r = Relation.of(2, [("a", "x"), ("b", "x")])
        >>> s = r.add(("c", "y")).remove(("a", "x")).add(("b", "x"), ("why",))
        >>> sorted(s.changes_since(r), key=str)
        [(('a', 'x'), True, None), (('b', 'x'), True, ('why',)), (('c', 'y'), None, True)]
        >>> list(s.add(("d", "z")).remove(("d", "z")).changes_since(s))
        []
        """
        if self is earlier:
            return iter(())
        if self._base is not earlier._base:
            return self._changes_by_content(earlier)
        touched: list[Fact] = []
        stop, node = earlier._trail, self._trail
        while node is not stop:
            if node is None or node is _CUT:  # earlier is not on this trail: read the layers
                touched = [*self._removed, *earlier._removed]
                for payloads in chain(self._overlay().values(), earlier._overlay().values()):
                    touched.extend(payloads)
                break
            if len(node) == 4:  # one fact added
                touched.append(node[0])
            else:
                touched.extend(node[0])
            node = node[1]
        return self._changes_among(earlier, dict.fromkeys(touched))

    def _changes_among(
        self, earlier: Relation, facts: Iterable[Fact]
    ) -> Iterator[tuple[Fact, object | None, object | None]]:
        for fact in facts:
            before, after = earlier._find(fact), self._find(fact)
            if before is after or (before is not _ABSENT and after is not _ABSENT
                                   and before == after):
                continue
            yield (fact, None if before is _ABSENT else before,
                   None if after is _ABSENT else after)

    def _changes_by_content(
        self, earlier: Relation
    ) -> Iterator[tuple[Fact, object | None, object | None]]:
        before = dict(earlier.items())
        for fact, payload in self.items():
            known = before.pop(fact, _ABSENT)
            if known is _ABSENT or known != payload:
                yield (fact, None if known is _ABSENT else known, payload)
        for fact, payload in before.items():
            yield (fact, payload, None)

    def items(self) -> Iterator[tuple[Fact, object]]:
        """Each fact with its payload, in no particular order.

        >>> sorted(Relation.of(1, [("a",)]).add(("b",), ("why",)).items())
        [(('a',), True), (('b',), ('why',))]
        """
        base = self._base
        if base is not None:
            removed, implied = self._removed, base.implied
            if implied is not None:
                expand = implied.expand
                yield from ((fact, expand(fact, payload) if type(payload) is str else payload)
                            for fact, payload in base.facts.items() if fact not in removed)
            elif removed:
                yield from ((fact, payload) for fact, payload in base.facts.items()
                            if fact not in removed)
            else:
                yield from base.facts.items()
        for payloads in self._overlay().values():
            yield from payloads.items()

    def plain_items(self) -> Iterator[tuple[Fact, object]]:
        """Each fact whose payload is no tuple (ASSERTED, or an atom), with its payload: the
        facts no derivation supports, found without expanding a payload kept implied (which
        stands for a tuple).

        >>> sorted(Relation.of(1, [("a",)]).add(("b",), ("why",)).plain_items())
        [(('a',), True)]
        """
        base = self._base
        if base is None or base.implied is None:
            return ((fact, payload) for fact, payload in self.items()
                    if type(payload) is not tuple)
        removed = self._removed
        return chain(
            ((fact, payload) for fact, payload in base.facts.items()
             if type(payload) is not tuple and type(payload) is not str
             and fact not in removed),
            ((fact, payload) for payloads in self._overlay().values()
             for fact, payload in payloads.items() if type(payload) is not tuple))

    def __contains__(self, fact: object) -> bool:
        return self._find(fact) is not _ABSENT

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Fact]:
        if self._base is not None and not self._removed and not self._overlay():
            return iter(self._base.facts)  # a frozen relation: its dict's keys, read in C
        return self._layered_facts()

    def _layered_facts(self) -> Iterator[Fact]:
        if self._base is not None:
            removed = self._removed
            if removed:
                yield from (fact for fact in self._base.facts if fact not in removed)
            else:
                yield from self._base.facts
        for payloads in self._overlay().values():
            yield from payloads

    def __eq__(self, other: object) -> bool:
        """The same facts with equal payloads, however each relation is layered."""
        if not isinstance(other, Relation):
            return NotImplemented
        if (self.arity, self._size) != (other.arity, other._size):
            return False
        if self._base is not other._base:
            if (self._base is not None and other._base is not None
                    and not self._layered_entries() and not other._layered_entries()):
                mine, theirs = self._base, other._base
                if mine.implied is None and theirs.implied is None:
                    return mine.facts == theirs.facts
                if mine.implied == theirs.implied and mine.facts == theirs.facts:
                    return True
                # A payload kept implied in one base may be whole in the other: expanded.
            return all(other._find(fact) == payload for fact, payload in self.items())
        if self._base is None:
            return bool(self._overlay() == other._overlay())
        if self._removed is other._removed and self._overlay() is other._overlay():
            return True
        # Over one base, only the facts either relation layered on top can differ.
        touched = {*self._removed, *other._removed}
        for payloads in chain(self._overlay().values(), other._overlay().values()):
            touched.update(payloads)
        return all(self._find(fact) == other._find(fact) for fact in touched)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        items = sorted(self.items())  # facts are distinct, so payloads are never compared
        if all(payload is ASSERTED for _, payload in items):
            return f"Relation({self.arity}, {[fact for fact, _ in items]!r})"
        return f"Relation({self.arity}, {dict(items)!r})"

    def matching(self, role: int, value: str) -> Iterator[Fact]:
        """The facts whose role ``role`` (0-based) holds value, by index."""
        index = self._indexes[role]
        in_overlay = (index if index is not None else self._index(role)).get(value, EMPTY)
        if self._base is None:
            return iter(in_overlay)
        listed = self._base.index(role).get(value, ())
        removed = self._removed
        in_base = (fact for fact in listed if fact not in removed) if removed else iter(listed)
        return chain(in_base, in_overlay) if in_overlay else in_base

    def by_value(self, role: int) -> _ByValue:
        """The index of role ``role`` as a mapping value ↦ its facts, whose ``get(value,
        default)`` a join calls row after row (the same facts as :meth:`matching`).

        >>> index = Relation.frozen(2, {("a", "x"): True, ("b", "x"): True}).by_value(1)
        >>> sorted(index.get("x", ())), list(index.get("y", ()))
        ([('a', 'x'), ('b', 'x')], [])
        """
        in_overlay = self._indexes[role]
        if in_overlay is None:
            in_overlay = self._index(role)
        if self._base is None:
            return in_overlay
        if not self._removed and not in_overlay:
            return self._base.index(role)
        return _Matching(self._base, in_overlay, role, self._removed)

    def indexed(self, roles: Iterable[int]) -> Relation:
        """This relation, with the index of each of roles built now rather than on the first
        search of that role: whoever produced the relation pays for what its readers probe.

        >>> r = Relation.frozen(2, {("a", "x"): True, ("b", "x"): True}).indexed([1])
        >>> r.is_indexed(1), r.is_indexed(0)
        (True, False)
        """
        if self._base is not None:
            for role in roles:
                self._base.index(role)
        return self

    def is_indexed(self, role: int) -> bool:
        """Whether a search of role ``role`` finds its index built (no O(len) pause first).

        >>> r = Relation.frozen(2, {("a", "x"): True})
        >>> r.is_indexed(0), list(r.matching(0, "a")) and r.is_indexed(0)
        (False, True)
        """
        return self._base is None or self._base.is_indexed(role)

    def count(self, role: int, value: str) -> int:
        """How many facts hold value in role ``role``, by index.

        >>> r = Relation.frozen(2, {("a", "x"): True, ("b", "x"): True})
        >>> r.count(1, "x"), r.remove(("a", "x")).count(1, "x")
        (2, 1)
        """
        index = self._indexes[role]
        counted = len((index if index is not None else self._index(role)).get(value, EMPTY))
        if self._base is None:
            return counted
        listed = self._base.index(role).get(value, ())
        removed = self._removed
        if not removed or not listed:
            return counted + len(listed)
        # Whichever is shorter, the removed facts or the value's base facts, is read.
        if len(removed) < len(listed):
            hidden = sum(1 for fact in removed if fact[role] == value)
        else:
            hidden = sum(1 for fact in listed if fact in removed)
        return counted + len(listed) - hidden

    def values(self, role: int) -> Iterator[str]:
        """The distinct values in role ``role``.

        >>> sorted(Relation.of(2, [("a", "x"), ("b", "x")]).values(1))
        ['x']
        """
        in_overlay = self._indexes[role]
        if in_overlay is None:
            in_overlay = self._index(role)
        if self._base is None:
            return iter(in_overlay)
        by_value = self._base.index(role)
        # A base value is gone when every one of its base facts is removed.
        hits = Counter(fact[role] for fact in self._removed)
        gone = {value for value, n in hits.items() if n == len(by_value[value])}
        in_base = (value for value in by_value if value not in gone) if gone else iter(by_value)
        return chain(in_base, (
            value for value in in_overlay if value not in by_value or value in gone))

    def as_object(self) -> Object:
        """The relation as an FFP object: its facts, sorted (payloads are not shown).

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
