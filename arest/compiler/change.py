"""A command's change: facts added to and removed from D one at a time, and the delta.

A :class:`Change` starts from a state and keeps the state it has reached; each fact added
puts its entity-typed values in their nouns' populations (and their supertypes'), so that a
reference to an entity nobody created is an entity to validate like any other.  Its
:class:`Delta` is what the command changed, from which validation and derivation start.

>>> import arest
>>> D = arest.compile("Order(.id) is an entity type.\\nCustomer(.id) is an entity type.\\n"
...                   "Order was placed by Customer.")
>>> change = Change(D)
>>> change.add("Order_was_placed_by_Customer", ("o1", "acme"))
True
>>> sorted(change.delta.entities["Customer"]), sorted(change.state[population_cell("Order")])
(['acme'], [('o1',)])
"""

from __future__ import annotations

from collections.abc import Iterable

from arest.algebra import State
from arest.algebra.memo import IdentityMemo
from arest.algebra.relations import Fact, Relation
from arest.compiler.cells import (
    FACT_TYPE_ROLES,
    NOUN_OBJECT_TYPES,
    NOUN_REFERENCE_SCHEMES,
    NOUN_SUPERTYPES,
    population_cell,
)
from arest.compiler.population import (
    membership_fact_type,
    noun_kind,
    relation_in,
    role_nouns,
    supertypes,
)
from arest.records import field, mutable_record


@mutable_record
class Delta:
    """What a command changed: facts added and removed per fact type, the entities per
    noun that were created or named by an added fact, and those that left a noun's
    population (deleted)."""

    added: dict[str, set[Fact]] = field(default_factory=dict)
    removed: dict[str, set[Fact]] = field(default_factory=dict)
    entities: dict[str, set[str]] = field(default_factory=dict)
    gone: dict[str, set[str]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.entities or self.gone)


_SCHEMA_CELLS = (FACT_TYPE_ROLES, NOUN_OBJECT_TYPES, NOUN_SUPERTYPES, NOUN_REFERENCE_SCHEMES)
"""The schema cells a change looks up: a fact added to one of them makes it look afresh."""


class _Lookups:
    """What a change looks up in the schema (roles, kinds, supertypes, reference schemes),
    remembered for every change over the same schema cells: they are immutable, so the
    answers hold as long as the cells are the same objects."""

    def __init__(self) -> None:
        self.roles: dict[str, tuple[str, ...]] = {}
        self.entity_kind: dict[str, bool] = {}
        self.member_of: dict[str, tuple[str, ...]] = {}
        self.reference: dict[str, tuple[str, ...]] = {}
        self.entity_roles: dict[str, tuple[tuple[int, str], ...]] = {}
        self.parents: dict[str, tuple[str, ...]] = {}
        self.children: dict[str, tuple[str, ...]] = {}
        self.membership_subtypes: dict[str, str] | None = None


_lookups_by_schema_cells: IdentityMemo[_Lookups] = IdentityMemo(
    lambda *cells: _Lookups(), limit=64)
"""The lookups of every change over the same schema cells (by identity).  Their dicts fill
as changes ask; each answer is a pure function of those cells, so threads that fill one at
once write equal values."""


def _lookups(state: State) -> _Lookups:
    return _lookups_by_schema_cells(*(state.get(name) for name in _SCHEMA_CELLS))


class Change:
    """Facts added to and removed from a state, one at a time, recording the delta.

    The delta is net against ``origin``, the state the change started from: a fact in
    ``delta.added`` is in ``state`` and not in ``origin``, one in ``delta.removed`` the other
    way round (adding then removing a fact leaves it out of both)."""

    def __init__(self, state: State) -> None:
        self.origin = state
        self.state = state
        self.delta = Delta()
        self._touched: set[tuple[str, str]] = set()
        self._use(_lookups(state))

    def _use(self, lookups: _Lookups) -> None:
        self._roles = lookups.roles
        self._entity_kind = lookups.entity_kind
        self._member_of = lookups.member_of
        self._reference = lookups.reference
        self._entity_roles = lookups.entity_roles
        self._parents = lookups.parents
        self._lookups = lookups

    def roles(self, fact_type: str) -> tuple[str, ...]:
        """The nouns playing a fact type's roles, in role order."""
        if fact_type not in self._roles:
            self._roles[fact_type] = role_nouns(self.state, fact_type)
        return self._roles[fact_type]

    def is_entity_type(self, noun: str) -> bool:
        """Whether a noun is an entity type (not a value type)."""
        if noun not in self._entity_kind:
            self._entity_kind[noun] = noun_kind(self.state, noun) == "entity"
        return self._entity_kind[noun]

    def reference(self, noun: str) -> tuple[str, ...]:
        """The noun's reference scheme: its components (``("id",)`` by default)."""
        if noun not in self._reference:
            relation = relation_in(self.state, NOUN_REFERENCE_SCHEMES)
            schemes = [s for _, s in relation.matching(0, noun)] if relation is not None else []
            parts = schemes[0].split(",") if schemes else ["id"]
            own = tuple(p.strip() for p in parts if p.strip()) or ("id",)
            parents = self.member_of(noun)[1:]
            # A subtype declared without a reference scheme is identified as its supertype is.
            self._reference[noun] = self.reference(parents[0]) if own == ("id",) and parents \
                else own
        return self._reference[noun]

    def _relation(self, name: str, arity: int) -> Relation:
        found = relation_in(self.state, name)
        return Relation(arity) if found is None else found

    def parents(self, noun: str) -> tuple[str, ...]:
        """The noun's direct supertypes."""
        if noun not in self._parents:
            relation = relation_in(self.state, NOUN_SUPERTYPES)
            self._parents[noun] = tuple(
                sorted(sup for _, sup in relation.matching(0, noun)) if relation is not None
                else ()
            )
        return self._parents[noun]

    def children(self, noun: str) -> tuple[str, ...]:
        """The noun's direct subtypes."""
        if noun not in self._lookups.children:
            relation = relation_in(self.state, NOUN_SUPERTYPES)
            self._lookups.children[noun] = tuple(
                sorted(sub for sub, _ in relation.matching(1, noun)) if relation is not None
                else ()
            )
        return self._lookups.children[noun]

    def membership_subtype(self, fact_type: str) -> str | None:
        """The subtype whose membership fact type ``<Sup>_is_a_<Sub>`` this is; None for any
        other fact type.

        >>> import arest
        >>> D = arest.compile("Clinician(.id) is an entity type.\\n"
        ...                   "Doctor is a subtype of Clinician.")
        >>> Change(D).membership_subtype("Clinician_is_a_Doctor")
        'Doctor'
        """
        if self._lookups.membership_subtypes is None:
            relation = relation_in(self.state, NOUN_SUPERTYPES)
            self._lookups.membership_subtypes = {
                membership_fact_type(sub, sup): sub for sub, sup in relation or ()}
        return self._lookups.membership_subtypes.get(fact_type)

    def member_of(self, noun: str) -> tuple[str, ...]:
        """The noun and its supertypes: every population an entity of the noun is in."""
        if noun not in self._member_of:
            self._member_of[noun] = (noun, *supertypes(self.state, noun))
        return self._member_of[noun]

    def touch(self, noun: str, entity: str) -> None:
        """The entity exists (in its noun's population and its supertypes').  A new one is in
        the delta, to be validated whole; facts added about an existing one can only wake the
        constraints of the fact types they are in."""
        if (noun, entity) in self._touched:
            return
        self._touched.add((noun, entity))
        for member_of in self.member_of(noun):
            population = self._relation(population_cell(member_of), 1)
            grown = population.add((entity,))
            if grown is not population:
                self.state = self.state.set(population_cell(member_of), grown)
                self.delta.entities.setdefault(member_of, set()).add(entity)
        for parent in self.parents(noun):
            self.add(membership_fact_type(noun, parent), (entity,))

    def touch_all(self, noun: str, entities: set[str]) -> None:
        """:meth:`touch` for many entities at once (a bulk load)."""
        for member_of in self.member_of(noun):
            population = self._relation(population_cell(member_of), 1)
            grown = population.extended((entity,) for entity in sorted(entities))
            if grown is not population:
                self.state = self.state.set(population_cell(member_of), grown)
            self.delta.entities.setdefault(member_of, set()).update(entities)
        for parent in self.parents(noun):
            fact_type = membership_fact_type(noun, parent)
            relation = self._relation(fact_type, 1)
            self.state = self.state.set(
                fact_type, relation.extended((entity,) for entity in sorted(entities)))

    def entity_roles(self, fact_type: str) -> tuple[tuple[int, str], ...]:
        """The positions of the fact type's entity-typed roles, with their nouns."""
        if fact_type not in self._entity_roles:
            self._entity_roles[fact_type] = tuple(
                (position, noun) for position, noun in enumerate(self.roles(fact_type))
                if self.is_entity_type(noun)
            )
        return self._entity_roles[fact_type]

    def add(self, fact_type: str, fact: Fact) -> bool:
        """Assert one fact; True when it was not there before."""
        if fact_type in _SCHEMA_CELLS:
            self._use(_Lookups())  # the schema itself changes: look it up afresh
        relation = self._relation(fact_type, len(fact))
        grown = relation.add(fact)
        touched = self._touched
        for position, noun in self.entity_roles(fact_type):
            if (noun, fact[position]) not in touched:
                self.touch(noun, fact[position])
        new = grown is not relation
        if new:
            self.state = self.state.set(fact_type, grown)
            removed = self.delta.removed.get(fact_type)
            if removed is not None and fact in removed:
                removed.discard(fact)
            else:
                self.delta.added.setdefault(fact_type, set()).add(fact)
        subtype = self.membership_subtype(fact_type)
        if subtype is not None and (subtype, fact[0]) not in touched:
            self.touch(subtype, fact[0])  # ``Clinician 'x' is a Doctor``: x is a Doctor
        return new

    def add_all(self, fact_type: str, facts: Iterable[Fact]) -> None:
        """:meth:`add` for many facts of one fact type: the relation grows in one batch and
        each entity they name is touched once; the state and the delta are those adding
        them one at a time reaches.

        >>> import arest
        >>> D = arest.compile("Order(.id) is an entity type.\\nOrder has Amount.")
        >>> one, many = Change(D), Change(D)
        >>> for fact in [("o1", "5"), ("o2", "7"), ("o1", "5")]:
        ...     _ = one.add("Order_has_Amount", fact)
        >>> many.add_all("Order_has_Amount", [("o1", "5"), ("o2", "7"), ("o1", "5")])
        >>> one.delta == many.delta, one.state == many.state
        (True, True)
        """
        batch = list(dict.fromkeys(facts))
        if not batch:
            return
        if fact_type in _SCHEMA_CELLS:
            for fact in batch:
                self.add(fact_type, fact)
            return
        for position, noun in self.entity_roles(fact_type):
            self.touch_many(noun, (fact[position] for fact in batch))
        subtype = self.membership_subtype(fact_type)
        if subtype is not None:
            self.touch_many(subtype, (fact[0] for fact in batch))  # each x is a Sub
        relation = self._relation(fact_type, len(batch[0]))
        grown = relation.extended(batch)
        if grown is relation:
            return
        self.state = self.state.set(fact_type, grown)
        removed = self.delta.removed.get(fact_type, set())
        new = [fact for fact in batch if fact not in relation]
        added = self.delta.added.setdefault(fact_type, set())
        for fact in new:
            if fact in removed:
                removed.discard(fact)
            else:
                added.add(fact)
        if not added:
            del self.delta.added[fact_type]

    def touch_many(self, noun: str, entities: Iterable[str]) -> None:
        """:meth:`touch` for many entities of one noun: each population grows in one batch
        and only the entities it did not hold enter the delta, as touching each does."""
        fresh = [entity for entity in dict.fromkeys(entities)
                 if (noun, entity) not in self._touched]
        if not fresh:
            return
        self._touched.update((noun, entity) for entity in fresh)
        for member_of in self.member_of(noun):
            population = self._relation(population_cell(member_of), 1)
            joining = [entity for entity in fresh if (entity,) not in population]
            if joining:
                self.state = self.state.set(
                    population_cell(member_of), population.extended((e,) for e in joining))
                self.delta.entities.setdefault(member_of, set()).update(joining)
        for parent in self.parents(noun):
            self.add_all(membership_fact_type(noun, parent), ((entity,) for entity in fresh))

    def remove(self, fact_type: str, fact: Fact) -> bool:
        """Retract one fact; True when it was there."""
        if fact_type in _SCHEMA_CELLS:
            self._use(_Lookups())
        relation = relation_in(self.state, fact_type)
        if relation is None or fact not in relation:
            return False
        self.state = self.state.set(fact_type, relation.remove(fact))
        added = self.delta.added.get(fact_type)
        if added is not None and fact in added:
            added.discard(fact)
        else:
            self.delta.removed.setdefault(fact_type, set()).add(fact)
        subtype = self.membership_subtype(fact_type)
        if subtype is not None:
            self.leave(subtype, fact[0])  # x is no longer a Doctor
        return True

    def leave(self, subtype: str, entity: str) -> None:
        """The entity is no longer of the subtype: it leaves the subtype's population and
        those of the subtype's own subtypes, and the facts in which it plays their roles
        (their membership facts included) are retracted with it, as deleting it would; it
        stays in the supertypes' populations.

        >>> import arest
        >>> D = arest.compile("Clinician(.id) is an entity type.\\n"
        ...                   "Doctor is a subtype of Clinician.\\nDoctor has Specialty.")
        >>> change = Change(D)
        >>> _ = change.add("Doctor_has_Specialty", ("cx", "general"))
        >>> _ = change.remove("Clinician_is_a_Doctor", ("cx",))
        >>> [sorted(change.state[population_cell(n)]) for n in ("Clinician", "Doctor")]
        [[('cx',)], []]
        >>> sorted(change.state["Doctor_has_Specialty"])
        []
        """
        self._touched.discard((subtype, entity))
        roles = relation_in(self.state, FACT_TYPE_ROLES)
        for fact_type, _, position in sorted(roles.matching(1, subtype)) if roles else ():
            relation = relation_in(self.state, fact_type)
            for fact in sorted(relation.matching(int(position), entity)) if relation else ():
                self.remove(fact_type, fact)
        for parent in self.parents(subtype):
            self.remove(membership_fact_type(subtype, parent), (entity,))
        for child in self.children(subtype):
            if (entity,) in (relation_in(self.state, population_cell(child)) or ()):
                self.leave(child, entity)
        population = relation_in(self.state, population_cell(subtype))
        if population is not None and (entity,) in population:
            self.state = self.state.set(population_cell(subtype), population.remove((entity,)))
            self.delta.gone.setdefault(subtype, set()).add(entity)

    def forget(self, noun: str, entity: str) -> None:
        """The entity leaves its noun's population and its supertypes'."""
        for member_of in (noun, *supertypes(self.state, noun)):
            population = relation_in(self.state, population_cell(member_of))
            if population is not None and (entity,) in population:
                shrunk = population.remove((entity,))
                self.state = self.state.set(population_cell(member_of), shrunk)
                self.delta.gone.setdefault(member_of, set()).add(entity)



def with_populations(state: State) -> State:
    """D with every entity-typed value of every fact in its nouns' populations."""
    change = Change(state)
    fact_types = relation_in(state, FACT_TYPE_ROLES)
    for fact_type in sorted({fact[0] for fact in fact_types or ()}):
        relation = relation_in(state, fact_type)
        roles = change.roles(fact_type)
        for position, noun in enumerate(roles):
            if relation is not None and change.is_entity_type(noun):
                for value in sorted(relation.values(position)):
                    change.touch(noun, value)
    for sub, sup in sorted(relation_in(state, NOUN_SUPERTYPES) or ()):
        members = relation_in(state, membership_fact_type(sub, sup))
        for (entity,) in sorted(members or ()):
            change.touch(sub, entity)  # ``Clinician 'x' is a Nurse.``: x is a Nurse
    return change.state
