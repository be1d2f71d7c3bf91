"""What every verbalization is built from: literals, quantifiers and the clauses of a
fact type's readings with a phrase and determiner per role.

:class:`Phrasing` holds the schema a construct is said against; the sentences of
declarations (:mod:`arest.forml2.verbalizer`), constraints
(:mod:`arest.forml2.constraint_sentences`) and rules (:mod:`arest.forml2.rule_sentences`)
are built on it.
"""

from __future__ import annotations

import re

from arest.errors import ArestError
from arest.forml2.constructs import Constraint, FactTypeDecl, Reading
from arest.forml2.negation import negative
from arest.forml2.parser import keywords
from arest.forml2.rules import implied_adjective
from arest.forml2.schema import Resolution, Schema

NUMERAL = re.compile(r"-?\d+(\.\d+)?")
COMPARATORS = {
    "<": "less than",
    ">": "greater than",
    "=": "equal to",
    "<=": "less than or equal to",
    ">=": "greater than or equal to",
    "<>": "not equal to",
}
"""The words that say each comparison operator."""
AGGREGATE_WORDS = frozenset({"count", "sum", "average", "avg", "minimum", "min", "maximum", "max"})
"""Keywords the grammar also reads as a noun's adjective (its rule ``aggregate_word``)."""


class VerbalizationError(ArestError, ValueError):
    """Raised by :func:`arest.forml2.verbalize` for a construct no FORML 2 sentence of the
    grammar reads back to (a deontic acyclic ring, a uniqueness over some but not all of a
    ternary's other roles, a rule atom whose variable its reading cannot name); the message
    says which construct and why."""


def quote(value: str) -> str:
    """A literal: ``'…'`` with ``''`` for a quote.

    >>> quote("it's")
    "'it''s'"
    """
    return "'" + value.replace("'", "''") + "'"


def article(word: str) -> str:
    """``a`` or ``an`` before ``word``.

    >>> article("Order"), article("Item")
    ('an', 'an')
    >>> article("Task")
    'a'
    """
    return "an" if word[:1].lower() in "aeiou" else "a"


def capitalise(text: str) -> str:
    """The sentence with its first letter upper-cased.

    >>> capitalise("each Task has some Tag")
    'Each Task has some Tag'
    """
    return text[:1].upper() + text[1:]


def bound_text(low: int | None, high: int | None) -> str:
    """``at most one``, ``exactly 3``, ``more than one``, ``at least 2 and at most 5``.

    >>> bound_text(None, 1), bound_text(2, None), bound_text(2, 5)
    ('at most one', 'more than one', 'at least 2 and at most 5')
    """

    def number(n: int) -> str:
        return "one" if n == 1 else str(n)

    if low == high and low is not None:
        return f"exactly {number(low)}"
    if high is None and low == 2:
        return "more than one"
    if high is None and low is not None:
        return f"at least {number(low)}"
    if low is None and high is not None:
        return f"at most {number(high)}"
    return f"at least {number(low or 0)} and at most {number(high or 0)}"


class Phrasing:
    """Clauses of one schema's fact types."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema

    def fact_type(self, fact_type: str) -> FactTypeDecl:
        found = self.schema.fact_types.get(fact_type)
        if found is None:
            raise VerbalizationError(f"{fact_type} is not a fact type of this schema")
        return found

    def clause(
        self,
        ft: FactTypeDecl,
        reading: Reading,
        phrases: dict[int, str],
        determiners: dict[int, str] | None = None,
        negated: bool = False,
    ) -> str:
        """A reading with each role's phrase; a determiner before a noun after predicate
        words takes their trailing adjective along (``has at most one parent Task``).
        ``negated`` denies the predicate by its verb (``does not have``, ``is not``)."""
        dets = determiners or {}
        parts = [reading.words[0]]
        for position, role in enumerate(reading.order):
            det = dets.get(role, "")
            words = parts.pop()
            adjective = implied_adjective(words) if position else ""
            movable = adjective not in keywords() or adjective in AGGREGATE_WORDS
            if det and adjective and movable and adjective.isalpha():
                words = words[: -len(adjective)].rstrip()
                det = f"{det} {adjective}"
            parts.append(words)
            parts.append(f"{det} {phrases[role]}" if det else phrases[role])
            parts.append(reading.words[position + 1])
        if negated:
            denied = negative(parts[2]) if not reading.words[0] else None
            if denied is None:
                raise VerbalizationError(
                    f"`{reading.text(ft.roles)}` has no verb to deny: no negated sentence"
                )
            parts[2] = denied
        return " ".join(p for p in parts if p)

    def quantified(self, ft: FactTypeDecl, reading: Reading, dets: dict[int, str]) -> str:
        """A reading of ``ft`` naming every role by its noun, with determiners."""
        phrases = {role: ft.roles[role] for role in range(len(ft.roles))}
        return self.clause(ft, reading, phrases, dets)

    def reading_where(
        self, ft: FactTypeDecl, first: int | None = None, last: int | None = None
    ) -> Reading | None:
        """A reading of ``ft`` that mentions role ``first`` first (or ``last`` last)."""
        for reading in ft.readings:
            if first is not None and reading.order[0] == first:
                return reading
            if last is not None and reading.order[-1] == last:
                return reading
        return None

    def inverse(self, ft: FactTypeDecl, first: int) -> Reading | None:
        """For a binary fact type with no reading from role ``first``, the generic inverse
        ``<that role's noun> has <the other>``, when it resolves to ``ft`` alone."""
        if len(ft.roles) != 2:
            return None
        reading = Reading((first, 1 - first), ("", "has", ""))
        nouns = tuple(ft.roles[r] for r in reading.order)
        found = self.schema.resolve(nouns, reading.words)
        return reading if found == Resolution(ft.id, reading.order) else None

    def membership(self, fact_type: str) -> tuple[str, str] | None:
        """The (supertype, subtype) whose membership fact type this is, if it is one."""
        for link in self.schema.subtypes:
            if link.membership == fact_type:
                return link.sup, link.sub
        return None

    def deontic(self, c: Constraint, body: str) -> str:
        """The sentence of a constraint's body: as is, or under its deontic operator."""
        if c.modality != "deontic":
            return capitalise(body) + "."
        return f"It is {c.operator} that {body}."
