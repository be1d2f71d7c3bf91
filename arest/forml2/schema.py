"""The declared schema a reading is resolved against, and clause → fact type resolution.

A clause (``Each Order has at most one Coupon``) names nouns in some order with predicate
words between them.  :meth:`Schema.resolve` finds the one fact type it is about: first a
reading with the same nouns in the same order and the same words (alternate readings
included), else the unique fact type with the same multiset of nouns (so
``Each Order has at most one Coupon`` finds ``Coupon is applied to Order``), else a
subtype-membership clause (``that Product is a DigitalProduct``).  It never takes "the
first fact type that matches": two candidates are an ambiguity, reported with both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

from arest.forml2.constructs import FactTypeDecl, InstanceFact, NounDecl, SubtypeDecl
from arest.records import record


def fact_type_id(nouns: tuple[str, ...], words: tuple[str, ...]) -> str:
    """DESIGN §2: role nouns (spaces → ``_``, case kept) and the words between and after
    them (lower-cased), joined with ``_``; words before the first role are dropped.

    >>> fact_type_id(("Order", "Customer"), ("", "was placed by", ""))
    'Order_was_placed_by_Customer'
    >>> fact_type_id(("Plan", "Price", "Interval"), ("", "has", "per", ""))
    'Plan_has_Price_per_Interval'
    >>> fact_type_id(("Preference", "Urgency"), ("", "has", "threshold"))
    'Preference_has_Urgency_threshold'
    """
    parts: list[str] = []
    for index, noun in enumerate(nouns):
        parts.append(noun.replace(" ", "_"))
        between = words[index + 1].strip().lower()
        if between:
            parts.append(between.replace(" ", "_"))
    return "_".join(parts)


def normal(words: str) -> str:
    """Predicate words compared case- and space-insensitively.

    >>> normal("  Is  placed by ")
    'is placed by'
    """
    return " ".join(words.lower().split())


@record
class Resolution:
    """A clause resolved: the fact type and, per clause phrase, the role it fills."""

    fact_type: str
    roles: tuple[int, ...]


@dataclass
class Schema:
    """Nouns, subtypes, fact types and the indexes that resolve clauses; built up as a
    reading proceeds and handed to later readings as ``known``."""

    nouns: dict[str, NounDecl] = field(default_factory=dict)
    subtypes: list[SubtypeDecl] = field(default_factory=list)
    fact_types: dict[str, FactTypeDecl] = field(default_factory=dict)
    machines: set[str] = field(default_factory=set)
    metamodel: frozenset[str] = frozenset()
    machine_facts: list[InstanceFact] = field(default_factory=list)
    """The state machine facts read so far: a later reading's transitions are checked
    against earlier readings' machines (:mod:`arest.forml2.machines`)."""

    def copy(self) -> Schema:
        """An independent copy (a later reading never changes an earlier one's schema)."""
        return Schema(
            dict(self.nouns),
            list(self.subtypes),
            dict(self.fact_types),
            set(self.machines),
            self.metamodel,
            list(self.machine_facts),
        )

    def is_subtype(self, sub: str, sup: str) -> bool:
        """Whether ``sub`` is a (transitive) subtype of ``sup``."""
        frontier = {sub}
        seen: set[str] = set()
        while frontier:
            current = frontier.pop()
            seen.add(current)
            for link in self.subtypes:
                if link.sub == current:
                    if link.sup == sup:
                        return True
                    if link.sup not in seen:
                        frontier.add(link.sup)
        return False

    def supertypes(self, noun: str) -> dict[str, int]:
        """The noun's supertypes and how many subtype links up each is, nearest first.

        >>> s = Schema(subtypes=[SubtypeDecl("Manager", "Employee"),
        ...                      SubtypeDecl("Employee", "Person")])
        >>> s.supertypes("Manager")
        {'Employee': 1, 'Person': 2}
        """
        found: dict[str, int] = {}
        frontier = [noun]
        while frontier:
            current = frontier.pop(0)
            for link in self.subtypes:
                if link.sub == current and link.sup not in found and link.sup != noun:
                    found[link.sup] = found.get(current, 0) + 1
                    frontier.append(link.sup)
        return found

    def generalisations(self, nouns: tuple[str, ...]) -> list[list[tuple[str, ...]]]:
        """The noun tuples a clause over ``nouns`` may read, a subtype standing for any of
        its supertypes: grouped by how many subtype steps they take, fewest first (the
        first group is ``[nouns]``).

        >>> s = Schema(subtypes=[SubtypeDecl("Employee", "Person")])
        >>> s.generalisations(("Employee", "Employee"))[1:]
        [[('Employee', 'Person'), ('Person', 'Employee')], [('Person', 'Person')]]
        """
        options = [[(noun, 0), *self.supertypes(noun).items()] for noun in nouns]
        groups: dict[int, list[tuple[str, ...]]] = {}
        for combination in product(*options):
            steps = sum(d for _, d in combination)
            groups.setdefault(steps, []).append(tuple(n for n, _ in combination))
        return [groups[steps] for steps in sorted(groups)]

    def add_fact_type(self, fact_type: FactTypeDecl) -> FactTypeDecl:
        """Declare a fact type, merging readings into an existing one with the same id."""
        existing = self.fact_types.get(fact_type.id)
        if existing is not None:
            readings = existing.readings + tuple(
                r for r in fact_type.readings if r not in existing.readings
            )
            merged = FactTypeDecl(
                existing.id,
                existing.roles,
                readings,
                existing.mode or fact_type.mode,
                existing.source,
            )
            self.fact_types[existing.id] = merged
            return merged
        self.fact_types[fact_type.id] = fact_type
        return fact_type

    def candidates(self, nouns: tuple[str, ...]) -> list[str]:
        """Fact types whose role nouns are ``nouns`` as a multiset."""
        wanted = sorted(nouns)
        return [ft.id for ft in self.fact_types.values() if sorted(ft.roles) == wanted]

    def resolve(
        self, nouns: tuple[str, ...], words: tuple[str, ...], exact: bool = False
    ) -> Resolution | str:
        """The fact type a clause with these nouns and words reads, or why there is none.

        >>> from arest.forml2.constructs import FactTypeDecl, Reading
        >>> s = Schema()
        >>> _ = s.add_fact_type(FactTypeDecl("Coupon_is_applied_to_Order", ("Coupon", "Order"),
        ...     (Reading((0, 1), ("", "is applied to", "")),)))
        >>> s.resolve(("Order", "Coupon"), ("", "has", ""))
        Resolution(fact_type='Coupon_is_applied_to_Order', roles=(1, 0))
        """
        wanted = tuple(normal(w) for w in words)
        for ft in self.fact_types.values():
            if len(ft.roles) != len(nouns):
                continue
            for reading in ft.readings:
                if (
                    tuple(ft.roles[i] for i in reading.order) == nouns
                    and tuple(normal(w) for w in reading.words) == wanted
                ):
                    return Resolution(ft.id, reading.order)
        if exact:
            return "no reading matches exactly"
        if len(nouns) == 2 and wanted[1] in ("is a", "is an") and not wanted[2]:
            for link in self.subtypes:
                if (link.sup, link.sub) == nouns or (
                    link.sub == nouns[1] and self.is_subtype(nouns[1], nouns[0])
                ):
                    return Resolution(link.membership, (0, 1))
        found = self.candidates(nouns)
        if len(nouns) == 2 and nouns[1] == "Status" and nouns[0] in self.machines:
            implicit = f"{nouns[0].replace(' ', '_')}_has_Status"
            if implicit not in found:
                found.append(implicit)
        if len(found) == 1:
            roles_of = (
                self.fact_types[found[0]].roles
                if found[0] in self.fact_types
                else (nouns[0], "Status")
            )
            used: list[int] = []
            for noun in nouns:
                role = next(i for i, r in enumerate(roles_of) if r == noun and i not in used)
                used.append(role)
            return Resolution(found[0], tuple(used))
        text = " ".join(
            part for index, noun in enumerate(nouns) for part in (words[index], noun) if part
        ) + (" " + words[-1] if words[-1] else "")
        if found:
            listed = "; ".join(
                self.reading_text(self.fact_types[f]) if f in self.fact_types else f for f in found
            )
            return f"`{text}` could be any of these fact types: {listed}; use one's reading"
        near = [
            self.reading_text(ft)
            for ft in self.fact_types.values()
            if set(ft.roles) & set(nouns) and not set(ft.roles) <= self.metamodel
        ][:4]
        hint = f"; fact types with these nouns: {'; '.join(near)}" if near else ""
        return f"no fact type reads `{text}`: declare it first{hint}"

    def reading_text(self, fact_type: FactTypeDecl) -> str:
        """The primary reading of a fact type."""
        return fact_type.readings[0].text(fact_type.roles)
