"""The names of D's cells: what each cell holds, and the one place that spells its name.

D is a persistent map from cell names to contents (:mod:`arest.algebra.cells`).  A cell's
name says what it holds; this module owns every name pattern, its constructor (the name of
the cell that holds X), its parser (what a name names) and its scan (every cell of a kind).

name                          holds                                      written by
----------------------------  -----------------------------------------  ---------------------
``<fact type id>``            the fact type's relation (P): asserted     compile, commands,
  (``Customer_has_Name``)     facts, and derived ones with a support     ``system.derive``
``population:<Noun>``         the unary relation of the noun's entities  ``compiler.change``
``asserted:<fact type id>``   the asserted facts of a transitive ring    ``system.derive``,
                              that rules also derive                     ``system.dred``
``constraint:<id>``           a compiled constraint ⟨CONSTRAINT, …⟩      ``compiler.constraints``
``triggers:<fact type id>``   ⟨constraint id, …⟩ woken by facts added    ``compiler.constraints``
                              to or removed from the fact type
``triggers:entities:<Noun>``  ⟨constraint id, …⟩ woken by a new entity   ``compiler.constraints``
``derivation:<rule id>``      a compiled rule ⟨RULE, …⟩                  ``compiler.derivations``
``derivations``               the program: the rules by stratum          ``compiler.derivations``
``machine:<Noun>``            the noun's state machine ⟨MACHINE, …⟩      ``compiler.machines``
``machines``                  ⟨noun, …⟩: the nouns with a machine        ``compiler.machines``
``resolve:<Noun>``            the noun's fields                          ``compiler.fields``
``links:<Noun>``              the noun's links                           ``compiler.links``
``readings:source``           ⟨⟨path, text⟩, …⟩: the readings D is from  ``compiler.readings``
``readings:warnings``         ⟨warning, …⟩ from reading them             ``compiler.readings``
``counter:<Noun>``            the last automatic id's number, a numeral  ``system.entity_verbs``
``snapshots``                 the archive of earlier states of D         ``system.snapshots``

A fact type's id is its words joined by ``_``, never a colon, so it meets none of the other
names: a name with a prefix above, or one of the single words, is one of D's own cells.  The
compiler adds fact types of its own beside the declared ones: ``<Sup>_is_a_<Sub>`` for
subtype membership (:func:`arest.compiler.population.membership_fact_type`) and
``<Noun>_has_Status`` for a machine's statuses (:func:`arest.compiler.fields.status_fact_type`).
A metamodel fact type that more than one module reads is named once here too
(``FACT_TYPE_ROLES`` and those below it); the reader (:mod:`arest.forml2`), a layer below,
writes them by the same ids, as the metamodel's readings give them.

>>> constraint_cell("c-1"), constraint_id("constraint:c-1"), constraint_id("links:Order")
('constraint:c-1', 'c-1', None)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

POPULATION_PREFIX: Final = "population:"
ASSERTED_PREFIX: Final = "asserted:"
CONSTRAINT_PREFIX: Final = "constraint:"
FACT_TRIGGERS_PREFIX: Final = "triggers:"
ENTITY_TRIGGERS_PREFIX: Final = "triggers:entities:"
DERIVATION_PREFIX: Final = "derivation:"
MACHINE_PREFIX: Final = "machine:"
RESOLVE_PREFIX: Final = "resolve:"
LINKS_PREFIX: Final = "links:"
COUNTER_PREFIX: Final = "counter:"

PROGRAM_CELL: Final = "derivations"
"""The rules by stratum, lowest first (:class:`arest.compiler.derivations.Program`)."""
MACHINES_CELL: Final = "machines"
"""⟨noun, …⟩: the nouns with a machine."""
SOURCE_CELL: Final = "readings:source"
"""⟨⟨path, text⟩, …⟩: the readings D was compiled from."""
WARNINGS_CELL: Final = "readings:warnings"
"""⟨warning, …⟩: what reading them warned about."""
SNAPSHOTS_CELL: Final = "snapshots"
"""The archive of snapshots of D, each a D without this cell."""

FACT_TYPE_ROLES: Final = "Fact_Type_has_Noun_at_Position"
"""⟨fact type, noun, position⟩: each fact type's role nouns."""
FACT_TYPE_READINGS: Final = "Fact_Type_has_Reading_Text"
"""⟨fact type, reading⟩: each fact type's readings."""
NOUN_OBJECT_TYPES: Final = "Noun_has_Object_Type"
"""⟨noun, kind⟩: ``entity``, ``value`` or ``abstract``."""
NOUN_SUPERTYPES: Final = "Noun_has_supertype_Noun"
"""⟨subtype, supertype⟩: the direct subtype links."""
NOUN_REFERENCE_SCHEMES: Final = "Noun_has_Reference_Scheme"
"""⟨noun, components⟩: a reference scheme, its components joined by ``, ``."""
NOUN_PLURALS: Final = "Noun_has_Plural"
"""⟨noun, plural⟩: a declared plural, for urls."""
RULE_FACT_TYPES: Final = "Derivation_Rule_derives_Fact_Type"
"""⟨rule, fact type⟩: the fact type each rule derives."""
RULE_MODES: Final = "Derivation_Rule_has_Derivation_Mode"
"""⟨rule, mode⟩: ``*``, ``**`` or ``+``."""
MACHINE_NOUNS: Final = "State_Machine_Definition_is_for_Noun"
"""⟨machine, noun⟩: the noun each state machine definition is for."""
TRANSITION_FACT_TYPES: Final = "Transition_is_triggered_by_Fact_Type"
"""⟨transition, fact type⟩: the fact type whose facts fire a transition."""


def population_cell(noun: str) -> str:
    """The cell of the noun's population.

    >>> population_cell("Order")
    'population:Order'
    """
    return POPULATION_PREFIX + noun


def asserted_cell(fact_type: str) -> str:
    """The cell of the asserted facts of a fact type that rules also derive (a transitive
    ring).

    >>> asserted_cell("Region_contains_Region")
    'asserted:Region_contains_Region'
    """
    return ASSERTED_PREFIX + fact_type


def constraint_cell(constraint_id: str) -> str:
    """The cell of a compiled constraint."""
    return CONSTRAINT_PREFIX + constraint_id


def fact_triggers_cell(fact_type: str) -> str:
    """The cell listing the constraints that facts added to or removed from the fact type
    wake.

    >>> fact_triggers_cell("Order_was_placed_by_Customer")
    'triggers:Order_was_placed_by_Customer'
    """
    return FACT_TRIGGERS_PREFIX + fact_type


def entity_triggers_cell(noun: str) -> str:
    """The cell listing the constraints that a new entity of the noun wakes.

    >>> entity_triggers_cell("Order")
    'triggers:entities:Order'
    """
    return ENTITY_TRIGGERS_PREFIX + noun


def derivation_cell(rule_id: str) -> str:
    """The cell of a compiled derivation rule."""
    return DERIVATION_PREFIX + rule_id


def machine_cell(noun: str) -> str:
    """The cell of the noun's state machine; also the id of the violations it reports."""
    return MACHINE_PREFIX + noun


def resolve_cell(noun: str) -> str:
    """The cell of the noun's fields."""
    return RESOLVE_PREFIX + noun


def links_cell(noun: str) -> str:
    """The cell of the noun's links."""
    return LINKS_PREFIX + noun


def counter_cell(noun: str) -> str:
    """The cell of the number of the noun's last automatic id."""
    return COUNTER_PREFIX + noun


def _named(prefix: str, name: str) -> str | None:
    return name[len(prefix):] if name.startswith(prefix) else None


def population_noun(name: str) -> str | None:
    """The noun whose population the cell holds; None for any other cell.

    >>> population_noun("population:Order"), population_noun("Order_has_Amount")
    ('Order', None)
    """
    return _named(POPULATION_PREFIX, name)


def constraint_id(name: str) -> str | None:
    """The id of the constraint the cell holds; None for any other cell."""
    return _named(CONSTRAINT_PREFIX, name)


def resolved_noun(name: str) -> str | None:
    """The noun whose fields the cell holds; None for any other cell."""
    return _named(RESOLVE_PREFIX, name)


def fact_type_of(name: str) -> str:
    """The fact type whose facts a relation cell holds: an ``asserted:`` cell's fact type,
    any other cell itself.

    >>> fact_type_of("asserted:Region_contains_Region"), fact_type_of("Order_has_Amount")
    ('Region_contains_Region', 'Order_has_Amount')
    """
    return name.removeprefix(ASSERTED_PREFIX)


def is_asserted_cell(name: str) -> bool:
    """Whether the cell is an ``asserted:`` copy of a fact type's asserted facts."""
    return name.startswith(ASSERTED_PREFIX)


def is_population_cell(name: str) -> bool:
    """Whether the cell is a noun's population."""
    return name.startswith(POPULATION_PREFIX)


def _all_named(prefix: str, names: Iterable[str]) -> list[str]:
    return sorted(name[len(prefix):] for name in names if name.startswith(prefix))


def constraint_ids(names: Iterable[str]) -> list[str]:
    """The ids of every constraint among the cell names (D itself iterates its names),
    sorted.

    >>> constraint_ids(["constraint:c-2", "resolve:Order", "constraint:c-1"])
    ['c-1', 'c-2']
    """
    return _all_named(CONSTRAINT_PREFIX, names)


def resolved_nouns(names: Iterable[str]) -> list[str]:
    """Every noun with a ``resolve:`` cell among the names, sorted: the nouns D knows."""
    return _all_named(RESOLVE_PREFIX, names)


def populated_nouns(names: Iterable[str]) -> list[str]:
    """Every noun with a population cell among the names, sorted.

    >>> populated_nouns(["population:Order", "Order_has_Amount", "population:Customer"])
    ['Customer', 'Order']
    """
    return _all_named(POPULATION_PREFIX, names)
