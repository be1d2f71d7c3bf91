"""Derivation rules → canonical FORML 2: ``* <consequent> iff <conditions>.`` and
``* If <conditions> then <consequent>.``, each atom said by its fact type's primary reading
with its variables as the nouns (``Comment1``, ``done Task Count``), a negated atom by its
verb denied (``Task is not open``, ``Employee does not report to Employee2``), a comparison
as ``that <variable> is <comparator> <operand>``.

>>> from arest.forml2 import read
>>> r = read("Task is done.\\nTask is open.\\n* Task is done iff Task is not open.\\n")
>>> RuleSentences(r.schema).rule(r.constructs[-1])
'* Task is done iff Task is not open.'
"""

from __future__ import annotations

from arest.forml2.constructs import (
    Aggregation,
    Atom,
    Comparison,
    Computation,
    Condition,
    DerivationRule,
)
from arest.forml2.phrasing import (
    COMPARATORS,
    NUMERAL,
    Phrasing,
    VerbalizationError,
    article,
    capitalise,
)
from arest.forml2.rules import implied_adjective

_OPERATORS = frozenset({"plus", "minus", "times", "divided by", "reduced by", "+", "-", "*", "/"})
_CONVERSE = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "=": "=", "<>": "<>"}


def constant(term: str) -> bool:
    """Whether a term is a numeral or a quoted literal rather than a variable.

    >>> constant("100"), constant("'gold'"), constant("Amount")
    (True, True, False)
    """
    return term.startswith("'") or NUMERAL.fullmatch(term) is not None


def operand(term: str) -> str:
    """A term where a comparison or computation names it: ``that`` before a variable.

    >>> operand("Start Time2"), operand("-2.5")
    ('that Start Time2', '-2.5')
    """
    return term if constant(term) else f"that {term}"


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
        mentioned: set[str] = set(named)
        for c in conditions:
            if isinstance(c, Computation):
                mentioned.update(c.expression)
            elif isinstance(c, Comparison):
                mentioned.update((c.left, c.right))
        possessives = {p for p in mentioned if "'s " in p}
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
        if isinstance(condition, Comparison):
            return self.comparison(condition)
        if isinstance(condition, Computation):
            parts = [part if part in _OPERATORS else operand(part) for part in condition.expression]
            return f"{condition.variable} is {' '.join(parts)}"
        where = self.conditions(condition.where, (condition.target,))
        return f"{condition.variable} is the {condition.op} of {condition.target}" + (
            f" where {where}" if where else ""
        )

    def comparison(self, comparison: Comparison) -> str:
        """``that Amount is greater than 100``; a constant on the left is said on the
        right, the operator turned about (``100 < Amount`` is ``Amount > 100``)."""
        left, op, right = comparison.left, comparison.op, comparison.right
        if constant(left):
            if constant(right):
                raise VerbalizationError(f"{comparison} compares no variable")
            left, op, right = right, _CONVERSE[op], left
        if op not in COMPARATORS:
            raise VerbalizationError(f"{op} is not a comparison operator")
        return f"that {left} is {COMPARATORS[op]} {operand(right)}"

    def atom(self, atom: Atom) -> str:
        link = self.membership(atom.fact_type)
        if link is not None:
            return self.member(atom, *link)
        ft = self.fact_type(atom.fact_type)
        if len(atom.terms) != len(ft.roles):
            raise VerbalizationError(f"{atom} has a term per role of {ft.id}")
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
            if not self.plays(bare, noun):
                raise VerbalizationError(f"the variable {term} does not name a {noun}")
            phrases[role] = bare
        # A variable named twice in one clause is one object only where `that` says so.
        variables = [t for t in atom.terms if not t.startswith("'")]
        dets = {role: "that" for role, t in enumerate(atom.terms) if variables.count(t) > 1}
        return self.clause(ft, reading, phrases, dets, negated=atom.negated)

    def member(self, atom: Atom, sup: str, sub: str) -> str:
        """``Customer is a Premium Customer``: a unary membership atom."""
        if len(atom.terms) != 1:
            raise VerbalizationError(f"{atom} names the one {sup} that is a {sub}")
        (term,) = atom.terms
        if term.startswith("'"):
            term = f"{sup} {term}"
        elif not self.plays(term, sup) and not self.plays(sup, term):
            raise VerbalizationError(f"the variable {term} does not name a {sup}")
        verb = "is not" if atom.negated else "is"
        return f"{term} {verb} {article(sub)} {sub}"

    def plays(self, variable: str, noun: str) -> bool:
        """Whether a variable (noun and subscript) names a ``noun``, or a subtype of it."""
        own = variable.rstrip("0123456789")
        return own == noun or self.schema.is_subtype(own, noun)
