"""What a FORML 2 text says, as labels, and every label the reader can produce: how a
generator of readings (:func:`arest.testing.readings`) shows it reaches every form the
reader accepts and every kind of construct it builds.

The inventory is read off the reader and the compiler, not listed by hand, so that a form
or kind added to them is missing from a generator until the generator says it:

- ``grammar:<rule>``: every rule of the grammar (``forml2.lark``) that builds a node of a
  parse tree, but ``reserved_decl`` (read only to say how to quote a noun);
- ``construct:<class>``: every class of :data:`arest.forml2.Construct`;
- ``<class>.<field>``: every optional part of a construct (a field with a default: a
  constraint's bounds, comparison, values, joins, restrictions, modality…; a fact type's
  derivation mode; an objectification that identifies), set to something else;
- ``constraint:<kind>``: every kind the compiler checks (alethic), and
  ``deontic:<kind>`` the kinds a deontic sentence can state;
- ``condition:<class>``: every kind of derivation rule condition, and a negated atom;
- ``machine:<fact type>``: every fact type of the metamodel that states a state machine
  (statuses, transitions, events, triggers, effects).

>>> said("Vorn(.id) is an entity type.\\nVorn smokes.\\nVorn 'v' smokes.\\n", {}) <= inventory()
True
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from functools import lru_cache
from typing import Any, get_args

from arest.compiler.checks import KINDS
from arest.compiler.fields import status_fact_type
from arest.forml2 import (
    Aggregation,
    Atom,
    Constraint,
    Construct,
    DerivationRule,
    InstanceFact,
    metamodel,
)
from arest.forml2.constructs import Condition
from arest.forml2.lexicon import lex
from arest.forml2.parser import keywords, parse_masked, parser
from arest.testing.forml2 import read_known

REFUSED_RULES = frozenset({"reserved_decl"})
"""Grammar rules that only ever give a diagnostic."""
DEONTIC_KINDS = ("UC", "MC", "FC", "VC", "SS", "IR", "AS", "AT", "SY", "IT", "TR", "RF")
"""The kinds a deontic sentence states: a set comparison, an equality, an external
constraint and an acyclic ring have no deontic sentence."""
MACHINE_NOUNS = frozenset({"State Machine Definition", "Status", "Transition"})
"""The metamodel's nouns that a state machine's facts are about."""


def grammar_rules() -> frozenset[str]:
    """The grammar's rules that build a node of a parse tree (not the ``?`` rules lark
    inlines, nor its own ``_`` ones), but :data:`REFUSED_RULES`.

    >>> {"entity_decl", "conditional", "aggregate", "np_relative"} <= grammar_rules()
    True
    """
    built = {str(rule.alias or rule.origin.name) for rule in parser().rules
             if not rule.options.expand1}
    return frozenset(n for n in built if not n.startswith("_")) - REFUSED_RULES


def machine_fact_types() -> frozenset[str]:
    """The metamodel's fact types a state machine is stated in: those about a status, a
    transition or a machine definition, but their reference schemes and the metamodel's
    own status fact types."""
    schema = metamodel().schema
    found = set()
    for ft in schema.fact_types.values():
        reference = len(ft.roles) == 2 and schema.nouns[ft.roles[0]].reference == ft.roles[1:]
        if set(ft.roles) & MACHINE_NOUNS and not reference and ft.id != status_fact_type(
                ft.roles[0]):
            found.add(ft.id)
    return frozenset(found)


def _optional(construct_class: type) -> list[tuple[str, Any]]:
    return [(f.name, f.default) for f in fields(construct_class)
            if f.compare and f.default is not MISSING]


@lru_cache(maxsize=1)
def inventory() -> frozenset[str]:
    """Every label :func:`said` can give (see the module's docstring)."""
    classes: tuple[type, ...] = get_args(Construct)
    labels = {f"grammar:{rule}" for rule in grammar_rules()}
    labels |= {f"construct:{c.__name__}" for c in classes}
    labels |= {f"{c.__name__}.{name}" for c in classes for name, _ in _optional(c)}
    labels |= {f"constraint:{kind}" for kind in KINDS}
    labels |= {f"deontic:{kind}" for kind in DEONTIC_KINDS}
    labels |= {f"condition:{c.__name__}" for c in get_args(Condition)} | {"condition:negated"}
    labels |= {f"machine:{fact_type}" for fact_type in machine_fact_types()}
    return frozenset(labels)


def said(text: str, shapes: dict[str, Any]) -> frozenset[str]:
    """The labels of what ``text`` says, read on top of the metamodel (the parses of its
    sentence shapes kept in ``shapes``, for the next text)."""
    reading = read_known(text, shapes)
    names = set(reading.schema.nouns)
    labels = {f"grammar:{node.data}" for source, _ in reading.sentences
              for node in parse_masked(lex(source.text, names, keywords()).masked,
                                       shapes).iter_subtrees()}
    machines = machine_fact_types()
    for c in reading.constructs:
        labels.add(f"construct:{type(c).__name__}")
        labels |= {f"{type(c).__name__}.{name}" for name, default in _optional(type(c))
                   if getattr(c, name) != default}
        if isinstance(c, Constraint):
            labels.add(f"{'constraint' if c.modality == 'alethic' else 'deontic'}:{c.kind}")
        elif isinstance(c, DerivationRule):
            labels |= _conditions(c.conditions)
        elif isinstance(c, InstanceFact) and c.fact_type in machines:
            labels.add(f"machine:{c.fact_type}")
    return frozenset(labels) & inventory()


def _conditions(conditions: tuple[Condition, ...]) -> set[str]:
    found = set()
    for c in conditions:
        found.add(f"condition:{type(c).__name__}")
        if isinstance(c, Atom) and c.negated:
            found.add("condition:negated")
        if isinstance(c, Aggregation):
            found |= _conditions(c.where)
    return found
