"""Each noun's navigation links (Theorem 4, DESIGN §5), compiled into the cell ``links:<Noun>``.

For noun n and each binary fact type f it plays, with U_f the roles under f's uniqueness
constraint and S_f the others:

- *related*, always: the facts of f about the entity (in either role of a ring), a
  collection on n filtered by n. Keyed by f's id, ``/<plural of n>/<id>/<fact type id>``:
  ``Order_was_placed_by_Customer``.
- *parent*: n's role is in U_f and the other role is in S_f, so each entity has at most one
  of the other noun's entities. Keyed by that noun's slug, ``/<its plural>/<its id>``:
  ``customer`` → ``/customers/acme``; absent while the entity has no such fact.
- *children*: the converse, n's role in S_f and the other in U_f (each LineItem belongs to
  exactly one Order). Keyed by the child noun's plural, ``/<plural of n>/<id>/<that key>``:
  ``line-items`` → ``/orders/ord-1/line-items``.
- *peers*: f's uniqueness constraint spans both roles (many-to-many), a navigable peer
  resource. Keyed by the other noun's plural, ``/<plural of n>/<id>/<that key>``:
  ``courses`` → ``/students/s1/courses``.

The phrase "the nouns in S_f are children of the nouns in U_f" is read as the links of
DESIGN §5's example: an Order (in U_f of ``Order was placed by Customer``) has its Customer
as parent, and its LineItems (in U_f of ``LineItem belongs to Order``) as children.

U_f is the set of roles with an alethic uniqueness constraint of their own; without one, it
is both roles: the facts of f form a set, so the uniqueness constraint that spans both roles
holds even when it is not written. So a one-to-one fact type (a uniqueness constraint on each
role) has S_f = ∅ and gives neither parent nor children, and is no peer either: only its
related link. Parent, children and peers point at entities, so they are given only where the
other role's noun is an entity type; a value (an Amount) is reached through the related
link. ``<Noun> has Status`` gives no link: it is the ``status`` of the representation, and
the machine's transitions are its links; nor does a reference mode (``Order has Order
Number``), whose value is the entity's own id.

Keys: where two of these parent, children or peer links lead to the same noun (an Airport
that Flights depart from and arrive at; a Person who owns one Car and rents many) or would
share a key, and for a ring (``Category has parent Category``, where the noun is on both
sides), each such link is keyed by the words of f's reading without the noun's own role,
slugged: ``departs-from-airport`` and ``parent-category`` for parents (a leading ``has`` is
dropped, as field names drop it), ``flight-departs-from`` and ``category-has-parent`` for
children. Related keys are fact type ids, which no noun slug or plural spells (they hold
``_``). Should two keys still meet, the later one, in the order below, gets ``-2``, ``-3``,
…; ``self`` is never taken. A children, peer or related link's path segment after the
entity is its key.

A subtype's entities play their supertypes' roles, so a noun's links are its own and its
supertypes', nearest first.

The cell holds an FFP object, one ⟨key, rel, fact type, role, other role, other noun⟩ per
link (roles as numerals, 0-based), parents first, then children, peers and related, each by
key.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from arest.algebra import Object
from arest.compiler.cells import links_cell
from arest.compiler.fields import status_fact_type
from arest.forml2.urls import plural as plural
from arest.forml2.urls import slug as slug
from arest.records import record

if TYPE_CHECKING:
    from arest.compiler.schema import FactTypeInfo, Schema

PARENT, CHILDREN, PEERS, RELATED = "parent", "children", "peers", "related"
RELS = (PARENT, CHILDREN, PEERS, RELATED)
"""The rel of each kind of navigation link, in the order a representation lists them."""


@record
class Link:
    """One navigation link of a noun: through ``fact_type``, from the noun's ``role`` to the
    ``other`` role, whose noun is ``noun``."""

    key: str
    rel: str
    fact_type: str
    role: int
    other: int
    noun: str

    def as_object(self) -> Object:
        """The link as the FFP object ``links:<Noun>`` holds."""
        return (self.key, self.rel, self.fact_type, str(self.role), str(self.other), self.noun)

    @classmethod
    def from_object(cls, obj: Object) -> Link:
        """The link a cell holds: the inverse of :meth:`as_object`."""
        assert type(obj) is tuple and len(obj) == 6
        key, rel, fact_type, role, other, noun = obj
        assert type(key) is str and type(rel) is str and type(fact_type) is str
        assert type(role) is str and type(other) is str and type(noun) is str
        return cls(key, rel, fact_type, int(role), int(other), noun)


def _unique_roles(schema: Schema) -> dict[str, set[int]]:
    """Per fact type, the roles with an alethic uniqueness constraint of their own."""
    unique: dict[str, set[int]] = {}
    for constraint in schema.constraints.values():
        if constraint.kind == "UC" and constraint.modality == "alethic" \
                and len(constraint.spans) == 1:
            fact_type, role, _ = constraint.spans[0]
            unique.setdefault(fact_type, set()).add(role)
    return unique


def _rel(unique: set[int], role: int) -> str | None:
    """parent, children or peers for the noun at role of a binary fact type whose roles with a
    uniqueness constraint of their own are ``unique``; None for one-to-one."""
    if not unique:
        return PEERS
    if unique == {0, 1}:
        return None
    return PARENT if role in unique else CHILDREN


def _words(fact_type: FactTypeInfo, role: int) -> str:
    """The words of the fact type's reading without the noun at role, slugged.

    >>> from arest.compiler.schema import FactTypeInfo
    >>> ring = FactTypeInfo("Category_has_parent_Category", ("Category", "Category"),
    ...                     ("Category has parent Category",), "")
    >>> _words(ring, 0), _words(ring, 1)
    ('parent-category', 'category-has-parent')
    """
    reading = fact_type.readings[0] if fact_type.readings else fact_type.id.replace("_", " ")
    noun = fact_type.roles[role]
    if role == 0 and reading.startswith(noun + " "):
        rest = reading[len(noun) + 1:]
        return slug(rest.removeprefix("has "))
    if role == 1 and reading.endswith(" " + noun):
        return slug(reading[:-len(noun) - 1])
    return slug(fact_type.id.replace("_", " "))


def _lineage(schema: Schema, noun: str) -> list[str]:
    """The noun and its supertypes, transitively, nearest first."""
    found, pending = [noun], [noun]
    while pending:
        info = schema.nouns.get(pending.pop(0))
        for parent in info.supertypes if info is not None else ():
            if parent not in found:
                found.append(parent)
                pending.append(parent)
    return found


def _is_status(fact_type: FactTypeInfo) -> bool:
    return fact_type.roles[1] == "Status" and fact_type.id == status_fact_type(fact_type.roles[0])


def links_of(schema: Schema, noun: str,
             played: dict[str, list[FactTypeInfo]] | None = None,
             unique: dict[str, set[int]] | None = None) -> tuple[Link, ...]:
    """The noun's navigation links, in the order of its representation.

    ``played`` (noun → the binary fact types it plays) and ``unique`` (:func:`_unique_roles`)
    may be given when computing many nouns' links over one schema.
    """
    if played is None:
        played = _binary_played(schema)
    if unique is None:
        unique = _unique_roles(schema)
    navigation: list[tuple[str, FactTypeInfo, int, bool]] = []
    related: list[Link] = []
    for current in _lineage(schema, noun):
        for fact_type in played.get(current, ()):
            ring = fact_type.roles[0] == fact_type.roles[1]
            first = fact_type.roles.index(current)
            related.append(Link(fact_type.id, RELATED, fact_type.id, first, 1 - first,
                                fact_type.roles[1 - first]))
            for role in (0, 1) if ring else (first,):
                other = fact_type.roles[1 - role]
                info = schema.nouns.get(other)
                rel = _rel(unique.get(fact_type.id, set()), role)
                if rel is not None and info is not None and info.kind == "entity":
                    navigation.append((rel, fact_type, role, ring))

    def base_key(rel: str, other: str) -> str:
        info = schema.nouns.get(other)
        return slug(other) if rel == PARENT else plural(other, info.plural if info else None)

    bases = [base_key(rel, ft.roles[1 - role]) for rel, ft, role, _ in navigation]
    shared = Counter(bases)
    targets = Counter(ft.roles[1 - role] for _, ft, role, _ in navigation)
    found: list[Link] = []
    for (rel, ft, role, ring), base in zip(navigation, bases, strict=True):
        other = ft.roles[1 - role]
        by_reading = ring or shared[base] > 1 or targets[other] > 1
        found.append(Link(_words(ft, role) if by_reading else base, rel, ft.id, role, 1 - role,
                          other))
    ordered = sorted(found, key=lambda link: (RELS.index(link.rel), link.key)) + sorted(
        related, key=lambda link: link.key)
    taken = {"self"}
    out: list[Link] = []
    for link in ordered:
        key, n = link.key, 1
        while key in taken:
            n += 1
            key = f"{link.key}-{n}"
        taken.add(key)
        out.append(link if key == link.key else Link(key, link.rel, link.fact_type, link.role,
                                                     link.other, link.noun))
    return tuple(out)


def _is_reference(schema: Schema, fact_type: FactTypeInfo) -> bool:
    """Whether the fact type is a noun's reference mode (``Order has Order Number``), whose
    value is the entity's own id."""
    owner = schema.nouns.get(fact_type.roles[0])
    return owner is not None and owner.reference == (fact_type.roles[1],) \
        and fact_type.id == f"{owner.name} has {fact_type.roles[1]}".replace(" ", "_")


def _binary_played(schema: Schema) -> dict[str, list[FactTypeInfo]]:
    """noun → the binary fact types it plays that give links, by fact type id."""
    played: dict[str, list[FactTypeInfo]] = {}
    for fact_type in schema.fact_types.values():
        if len(fact_type.roles) != 2 or _is_status(fact_type) or _is_reference(schema, fact_type):
            continue
        for noun in dict.fromkeys(fact_type.roles):
            played.setdefault(noun, []).append(fact_type)
    return played


def link_cells(schema: Schema) -> list[tuple[str, Object]]:
    """``links:<Noun>`` for every noun: its navigation links as an FFP object."""
    played, unique = _binary_played(schema), _unique_roles(schema)
    return [
        (links_cell(noun),
         tuple(link.as_object() for link in links_of(schema, noun, played, unique)))
        for noun in schema.nouns
    ]
