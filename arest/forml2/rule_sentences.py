"""Derivation rules → canonical FORML 2: ``* <consequent> iff <conditions>.`` and
``* If <conditions> then <consequent>.``, each atom said by its fact type's primary reading
with its variables as the nouns (``Comment1``, ``done Task Count``).

>>> from arest.forml2 import read
>>> r = read("Task is done.\\nTask is open.\\n* Task is done iff no Task is open.\\n")
>>> RuleSentences(r.schema).rule(r.constructs[-1])
'* Task is done iff no Task is open.'
"""

from __future__ import annotations

from arest.forml2.constructs import Aggregation, Atom, Computation, Condition, DerivationRule
from arest.forml2.phrasing import NUMERAL, Phrasing, VerbalizationError, article, capitalise
from arest.forml2.rules import implied_adjective

_OPERATORS = frozenset({"plus", "minus", "times", "divided by", "reduced by", "+", "-", "*", "/"})


class RuleSentences(Phrasing):
    """Says derivation rules against one schema."""

    def rule(self, rule: DerivationRule) -> str:
        head = self.atom(rule.consequent)
        conditions = self.conditions(rule.conditions)
        if rule.keyword == "if-then":
            return f"{rule.mode} If {conditions} then {head}."
        return f"{rule.mode} {capitalise(head)} {rule.keyword} {conditions}."

    def conditions(self, conditions: tuple[Condition, ...], named: tuple[str, ...] = ()) -> str:
        """Conditions joined by ``and``, leaving out the trailing ``has`` atoms the reader
        adds for the possessives (``that Order's Amount``) they or ``named`` name."""
        written = list(conditions)
        possessives = {p for p in named if "'s " in p} | {
            part
            for c in conditions
            if isinstance(c, Computation)
            for part in c.expression
            if "'s " in part
        }
        while (
            written
            and isinstance(written[-1], Atom)
            and any(t in possessives for t in written[-1].terms)
        ):
            written.pop()
        if any(isinstance(c, Aggregation) for c in written[:-1]):
            raise VerbalizationError("an aggregation is a rule's last condition")
        return " and ".join(self.condition(c) for c in written)

    def condition(self, condition: Condition) -> str:
        if isinstance(condition, Atom):
            return self.atom(condition)
        if isinstance(condition, Computation):
            parts = [
                part
                if part in _OPERATORS or NUMERAL.fullmatch(part) or part.startswith("'")
                else f"that {part}"
                for part in condition.expression
            ]
            return f"{condition.variable} is {' '.join(parts)}"
        where = self.conditions(condition.where, (condition.target,))
        return f"{condition.variable} is the {condition.op} of {condition.target}" + (
            f" where {where}" if where else ""
        )

    def atom(self, atom: Atom) -> str:
        link = self.membership(atom.fact_type)
        if link is not None:
            sup, sub = atom.terms
            det = "no " if atom.negated else ""
            return f"{det}{sup} is {article(sub)} {sub}"
        ft = self.fact_type(atom.fact_type)
        reading = ft.readings[0]
        phrases: dict[int, str] = {}
        for position, role in enumerate(reading.order):
            noun, term = ft.roles[role], atom.terms[role]
            if term.startswith("'"):
                phrases[role] = f"{noun} {term}"
                continue
            adjective = implied_adjective(reading.words[position]) if position else ""
            bare = term[len(adjective) + 1 :] if adjective else term
            if adjective and not term.startswith(adjective + " "):
                raise VerbalizationError(f"{term} cannot follow `{reading.words[position]}`")
            if bare.rstrip("0123456789") != noun:
                raise VerbalizationError(f"the variable {term} does not name a {noun}")
            phrases[role] = bare
        dets = {reading.order[0]: "no"} if atom.negated else {}
        return self.clause(ft, reading, phrases, dets)
