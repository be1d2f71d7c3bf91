"""Syntax → derivation rules: clauses become atoms, computations and aggregations."""

from __future__ import annotations

from arest.forml2.constraints import Interpreter
from arest.forml2.constructs import (
    Aggregation,
    Atom,
    Computation,
    Condition,
    DerivationRule,
    FactTypeDecl,
    Reading,
    rule_id,
)
from arest.forml2.schema import Resolution, fact_type_id
from arest.forml2.syntax import Aggregate, Clause, Computed, Phrase

_NOT_ADJECTIVES = frozenset(
    [
        "by",
        "to",
        "in",
        "of",
        "for",
        "with",
        "at",
        "on",
        "from",
        "has",
        "have",
        "is",
        "are",
        "a",
        "an",
        "the",
        "and",
        "or",
        "per",
        "via",
        "into",
        "as",
    ]
)


def implied_adjective(before: str) -> str:
    """The adjective that the predicate words before a noun lend its rule variable: their
    last word, when there are several and it is not a preposition, verb or article
    (``has done`` + ``Task Count`` names ``done Task Count``).

    >>> implied_adjective("has done"), implied_adjective("is assigned to"), implied_adjective("has")
    ('done', '', '')
    """
    words = before.split()
    return words[-1] if len(words) > 1 and words[-1] not in _NOT_ADJECTIVES else ""


class Rules:
    """Derivation rules: clauses → atoms, computations and aggregations."""

    def __init__(self, interpreter: Interpreter) -> None:
        self.i = interpreter
        self.b = interpreter.b
        self.extra: list[Atom] = []

    def variable(self, phrase: Phrase, before: str = "") -> str:
        adjective = phrase.pre or implied_adjective(before)
        name = self.b.noun(self.i.source, phrase.noun)
        name += phrase.noun.subscript or phrase.noun.name[len(name) :]
        base = f"{adjective} {name}" if adjective else name
        for step in phrase.path:
            owner = base
            target = self.b.noun(self.i.source, step)
            base = f"{owner}'s {target}"
            found = self.b.schema.resolve((name, target), ("", "has", ""))
            if isinstance(found, str):
                self.b.error(self.i.source, found, step.offset)
            else:
                terms = [owner, base]
                ordered = [terms[found.roles.index(r)] for r in range(2)]
                self.extra.append(Atom(found.fact_type, tuple(ordered)))
            name = target
        return base

    def atom(self, clause: Clause) -> Atom | None:
        if clause.comparison is not None:
            # An atom has no place for a comparison: reading the clause without it would
            # derive facts the sentence does not allow.
            self.b.error(
                self.i.source,
                "a condition of a derivation rule cannot compare (`"
                f"{clause.comparison.op} {clause.comparison.operand}`) here; state the"
                " comparison as a constraint, or derive from facts without one",
            )
            return None
        found = self.i.resolve(clause)
        if found is None:
            return None
        resolution, _ = found
        terms = [""] * len(resolution.roles)
        negated = any(p.det == "no" for p in clause.phrases) or any(
            "not" in w.split() for w in clause.words
        )
        for index, phrase in enumerate(clause.phrases):
            value = (
                f"'{phrase.literal}'"
                if phrase.literal is not None
                else self.variable(phrase, clause.words[index])
            )
            terms[resolution.roles[index]] = value
        return Atom(resolution.fact_type, tuple(terms), negated)

    def condition(self, item: Clause | Computed | Aggregate, outer: set[str]) -> list[Condition]:
        if isinstance(item, Clause):
            atom = self.atom(item)
            return [] if atom is None else [atom]
        if isinstance(item, Computed):
            expression = tuple(
                part if isinstance(part, str) else self.variable(part) for part in item.expression
            )
            return [Computation(self.variable(item.target), expression)]
        target = self.aggregate_target(item.of)
        where: list[Condition] = []
        for sub in item.where:
            where.extend(self.condition(sub, outer))
        where.extend(self.extra)
        self.extra = []
        inner = {t for c in where if isinstance(c, Atom) for t in c.terms}
        group = tuple(sorted(v for v in inner & outer if v != target))
        return [Aggregation(self.variable(item.target), item.op, target, tuple(where), group)]

    def aggregate_target(self, phrase: Phrase) -> str:
        """``LineItem Amount``: an undeclared run of declared nouns is a role path."""
        name = phrase.noun.name
        if name not in self.b.schema.nouns:
            words = name.split()
            for cut in range(1, len(words)):
                owner, part = " ".join(words[:cut]), " ".join(words[cut:])
                if owner in self.b.schema.nouns and part in self.b.schema.nouns:
                    found = self.b.schema.resolve((owner, part), ("", "has", ""))
                    if isinstance(found, Resolution):
                        terms = [owner, f"{owner}'s {part}"]
                        self.extra.append(
                            Atom(
                                found.fact_type,
                                tuple(terms[found.roles.index(r)] for r in range(2)),
                            )
                        )
                        return terms[1]
        return self.variable(phrase)

    def rule(
        self,
        mode: str,
        keyword: str,
        consequent: Clause,
        conditions: tuple[Clause | Computed | Aggregate, ...],
    ) -> None:
        head = self.consequent(consequent, mode or "*")
        if head is None:
            return
        # Top-level atoms first: an aggregation groups by the variables they bind.
        atoms = {
            index: self.condition(item, set())
            for index, item in enumerate(conditions)
            if isinstance(item, Clause)
        }
        outer = set(head.terms) | {
            t for found in atoms.values() for c in found if isinstance(c, Atom) for t in c.terms
        }
        body: list[Condition] = []
        for index, item in enumerate(conditions):
            body.extend(atoms[index] if index in atoms else self.condition(item, outer))
        body.extend(self.extra)
        reading = self.i.source.text
        declared = self.b.schema.fact_types[head.fact_type]
        self.b.emit(
            self.i.source,
            DerivationRule(
                mode or declared.mode or "*",
                keyword,
                head,
                tuple(body),
                rule_id(reading),
                reading,
                self.i.source,
            ),
        )

    def consequent(self, clause: Clause, mode: str) -> Atom | None:
        """The consequent's atom; a consequent fact type not yet declared is declared here,
        derived, with the rule's mode."""
        nouns = tuple(self.b.noun(self.i.source, p.noun) for p in clause.phrases)
        found = self.b.schema.resolve(nouns, clause.words, exact=True)
        if isinstance(found, str) and all(not p.det or p.det == "that" for p in clause.phrases):
            reading = Reading(tuple(range(len(nouns))), clause.words)
            decl = FactTypeDecl(
                fact_type_id(nouns, clause.words), nouns, (reading,), mode, self.i.source
            )
            self.b.schema.add_fact_type(decl)
            self.b.emit(self.i.source, decl)
        return self.atom(clause)
