"""Constructs → canonical FORML 2: each construct said as the sentence(s) that read back to it.

The sentence is generated from the construct and the schema it was read against, never
echoed from its source, so non-canonical sources normalise: ``No Task blocks the same
Task. (irreflexive)`` is said ``Task blocks Task is irreflexive.``.  Reading the result
against the same schema gives an equal construct (ids, readings and sources aside).

>>> from arest.forml2 import metamodel, read, verbalize
>>> r = read("Task(.Task Id) is an entity type.\\nTask blocks Task.\\n"
...          "No Task blocks the same Task. (irreflexive)\\n", known=metamodel())
>>> verbalize(r.constructs[-1], r)
'Task blocks Task is irreflexive.'
>>> verbalize(r.constructs[0], r)
'Task(.Task Id) is an entity type.'
"""

from __future__ import annotations

from arest.forml2.build import RESERVED
from arest.forml2.constraint_sentences import ConstraintSentences
from arest.forml2.constructs import (
    Constraint,
    Construct,
    DerivationRule,
    FactTypeDecl,
    InstanceFact,
    NounDecl,
    Objectification,
    Possibility,
    SubtypeDecl,
)
from arest.forml2.lexicon import STOPWORDS
from arest.forml2.phrasing import Phrasing, VerbalizationError, capitalise, quote
from arest.forml2.reader import Reading as Known
from arest.forml2.rule_sentences import RuleSentences

__all__ = ["VerbalizationError", "needs_quoting", "quote", "verbalize"]


def verbalize(construct: Construct, known: Known) -> str:
    """The canonical sentence(s) of ``construct``, one per line, in the terms of ``known``
    (the reading it came from, or one with the same schema)."""
    if isinstance(construct, Constraint):
        return ConstraintSentences(known.schema).constraint(construct)
    if isinstance(construct, Possibility):
        return ConstraintSentences(known.schema).possibility(construct)
    if isinstance(construct, DerivationRule):
        return RuleSentences(known.schema).rule(construct)
    return _Declarations(known.schema).say(construct)


def needs_quoting(name: str) -> bool:
    """Whether a noun's declaration must quote it (``Noun 'Each Way Bet' …``): it holds a
    reserved word or a keyword, or a word that is not capitalised.

    >>> needs_quoting("Each Way Bet"), needs_quoting("Order Number")
    (True, False)
    """
    words = name.split()
    lowered = f" {name.lower()} "
    return (
        any(f" {word} " in lowered for word in RESERVED)
        or any(w in STOPWORDS or not w[:1].isupper() for w in words)
        or not all(w.replace("_", "").isalnum() for w in words)
    )


class _Declarations(Phrasing):
    """Says declarations and instance facts against one schema."""

    def say(
        self, construct: NounDecl | FactTypeDecl | SubtypeDecl | Objectification | InstanceFact
    ) -> str:
        if isinstance(construct, NounDecl):
            return self.noun_decl(construct)
        if isinstance(construct, FactTypeDecl):
            readings = " / ".join(r.text(construct.roles) for r in construct.readings)
            return f"{readings}." + (f" {construct.mode}" if construct.mode else "")
        if isinstance(construct, SubtypeDecl):
            return f"{self.declared(construct.sub)} is a subtype of {construct.sup}."
        if isinstance(construct, Objectification):
            return self.objectification(construct)
        return self.instance_fact(construct)

    def declared(self, name: str) -> str:
        return f"Noun {quote(name)}" if needs_quoting(name) else name

    def noun_decl(self, decl: NounDecl) -> str:
        name = self.declared(decl.name)
        if decl.kind == "value":
            return f"{name} is a value type."
        if decl.kind == "abstract":
            return f"{name} is abstract."
        return f"{name}{self.refmode(decl)} is an entity type."

    def refmode(self, decl: NounDecl) -> str:
        if not decl.reference:
            return ""
        return "(" + ", ".join("." + r for r in decl.reference) + ")"

    def objectification(self, obj: Objectification) -> str:
        ft = self.fact_type(obj.fact_type)
        decl = self.schema.nouns.get(obj.noun, NounDecl(obj.noun, "entity", ("id",)))
        text = (
            f"{self.declared(obj.noun)}{self.refmode(decl)} is an entity type where"
            f" {ft.readings[0].text(ft.roles)}."
        )
        if obj.identifying:
            nouns = list(ft.roles)
            listed = ", ".join(nouns[:-1]) + (", and " if len(nouns) > 2 else " and ")
            listed = nouns[0] if len(nouns) == 1 else listed + nouns[-1]
            text += (
                f"\nThis association with {listed} provides the preferred identification"
                f" scheme for {obj.noun}."
            )
        return text

    def instance_fact(self, fact: InstanceFact) -> str:
        ft = self.fact_type(fact.fact_type)
        phrases = {role: f"{ft.roles[role]} {quote(v)}" for role, v in enumerate(fact.values)}
        return capitalise(self.clause(ft, ft.readings[0], phrases)) + "."
