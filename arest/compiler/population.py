"""P: one relation per fact type, named by its id; the entity populations, and what they say.

Each entity type has a population, the unary relation ``population:<Noun>``: an entity
exists from the moment it is created or a fact names it in a role of its type, until it is
deleted (a command records this in a :class:`arest.compiler.change.Change`).  The functions
here read P: a fact type's roles, a noun's kind and supertypes, a population.

>>> import arest
>>> D = arest.compile("Order(.id) is an entity type.\\nCustomer(.id) is an entity type.\\n"
...                   "Order was placed by Customer.")
>>> role_nouns(D, "Order_was_placed_by_Customer"), noun_kind(D, "Order")
(('Order', 'Customer'), 'entity')
>>> entity_ids(arest.apply(D, "create:Order", {"id": "o1", "Customer": "acme"})[1], "Customer")
['acme']
"""

from __future__ import annotations

from collections.abc import Iterable

from arest.algebra import State, store_all
from arest.algebra.relations import Fact, Relation
from arest.compiler.cells import (
    FACT_TYPE_READINGS,
    FACT_TYPE_ROLES,
    NOUN_OBJECT_TYPES,
    NOUN_SUPERTYPES,
    population_cell,
)


def relation_in(state: State, name: str) -> Relation | None:
    """The relation in a cell of D; None when the cell holds none (absent, or another kind).

    >>> from arest.algebra import EMPTY_STATE
    >>> relation_in(EMPTY_STATE.set("R", Relation(2)), "R").arity, relation_in(EMPTY_STATE, "R")
    (2, None)
    """
    contents = state.get(name)
    return contents if isinstance(contents, Relation) else None


def role_nouns(state: State, fact_type: str) -> tuple[str, ...]:
    """The fact type's role nouns in role order, from the metamodel's relation."""
    relation = relation_in(state, FACT_TYPE_ROLES)
    if relation is None:
        return ()
    roles = sorted((int(position), noun) for _, noun, position in relation.matching(0, fact_type))
    return tuple(noun for _, noun in roles)


def noun_kind(state: State, noun: str) -> str:
    """``entity``, ``value`` or ``abstract``; empty for a noun D does not know."""
    relation = relation_in(state, NOUN_OBJECT_TYPES)
    kinds = [kind for _, kind in relation.matching(0, noun)] if relation is not None else []
    return kinds[0] if kinds else ""


def supertypes(state: State, noun: str) -> list[str]:
    """The noun's supertypes, transitively, nearest first."""
    relation = relation_in(state, NOUN_SUPERTYPES)
    found: list[str] = []
    pending = [noun]
    while pending and relation is not None:
        for _, parent in sorted(relation.matching(0, pending.pop(0))):
            if parent not in found:
                found.append(parent)
                pending.append(parent)
    return found


def membership_fact_type(sub: str, sup: str) -> str:
    """The unary fact type ``<Sup> is a <Sub>`` whose facts are the subtype's population seen
    from the supertype (subtype membership clauses span it).

    >>> membership_fact_type("DigitalProduct", "Product")
    'Product_is_a_DigitalProduct'
    """
    return f"{sup.replace(' ', '_')}_is_a_{sub.replace(' ', '_')}"


def membership_facts(state: State) -> list[tuple[str, Fact]]:
    """The metamodel facts declaring each subtype's membership fact type."""
    relation = relation_in(state, NOUN_SUPERTYPES)
    facts: list[tuple[str, Fact]] = []
    for sub, sup in sorted(relation) if relation is not None else ():
        fact_type = membership_fact_type(sub, sup)
        facts.append((FACT_TYPE_READINGS, (fact_type, f"{sup} is a {sub}")))
        facts.append((FACT_TYPE_ROLES, (fact_type, sup, "0")))
    return facts


def entity_ids(state: State, noun: str) -> list[str]:
    """The noun's population, sorted."""
    relation = relation_in(state, population_cell(noun))
    return sorted(fact[0] for fact in relation) if relation is not None else []


def exists(state: State, noun: str, entity: str) -> bool:
    """Whether the entity is in the noun's population."""
    relation = relation_in(state, population_cell(noun))
    return relation is not None and (entity,) in relation


def with_facts(state: State, facts: Iterable[tuple[str, Fact]]) -> State:
    """D with every (fact type id, fact) added to its fact type's relation, populations
    aside (see :func:`with_populations`); D itself is returned when nothing was new."""
    changed: dict[str, Relation] = {}
    for fact_type, fact in facts:
        current = changed[fact_type] if fact_type in changed else (
            relation_in(state, fact_type) or Relation(len(fact))
        )
        changed[fact_type] = current.add(fact)
    return store_all(state, changed.items())
