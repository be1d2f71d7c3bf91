"""Syntax: what a sentence says, before the schema is consulted.

Phrases, clauses, rule conditions and statements as :mod:`arest.forml2.transform` builds
them from parse trees.  Nothing here knows which fact types exist: that is
:mod:`arest.forml2.build`'s job.
"""

from __future__ import annotations

from typing import Any

from arest.records import field, record


@record
class Noun:
    """A noun as written: its name, subscript (``Person1`` → ``1``), plural and offset."""

    name: str
    subscript: str = ""
    plural: bool = False
    declared: bool = True
    offset: int = 0

    @property
    def variable(self) -> str:
        """The rule variable this occurrence names: ``Comment`` + subscript."""
        return self.name + self.subscript


@record
class Bound:
    """A frequency: ``at most one`` = Bound(None, 1), ``at least 2 and at most 5`` = (2, 5)."""

    low: int | None
    high: int | None
    column: int = field(default=1, compare=False, repr=False)
    """Where it is written in the sentence, for a diagnostic; not part of its value."""


@record
class Phrase:
    """A noun phrase in a clause: determiner, quantifier, words before the noun, the noun,
    its literal, its possessive path (``Customer's Shipping Address``) and relative clause."""

    noun: Noun
    det: str = ""
    bound: Bound | None = None
    pre: str = ""
    literal: str | None = None
    path: tuple[Noun, ...] = ()
    relative: Clause | None = None
    itself: bool = False


@record
class Comparison:
    """``less than 1``: an operator (``<``, ``>``, ``=``, ``<=``, ``>=``, ``<>``) and an
    operand: a noun phrase, or a numeral or a literal's value (``quoted``)."""

    op: str
    operand: Phrase | str
    quoted: bool = False


@record
class Clause:
    """Phrases and the predicate words around them: ``words[i]`` precedes ``phrases[i]``,
    ``words[-1]`` follows the last phrase."""

    phrases: tuple[Phrase, ...]
    words: tuple[str, ...]
    comparison: Comparison | None = None

    def with_subject(self, subject: Phrase) -> Clause:
        """A continuation (``… and is at that Time``, ``… or rents some Car``: a clause
        whose subject is left out) with ``subject`` put back in front."""
        return Clause((subject, *self.phrases), ("", *self.words), self.comparison)


@record
class Distinct:
    """``Person1 is not Person2``: a premise saying two variables name different objects."""

    left: Noun
    right: Noun


@record
class Computed:
    """``Duration is that End Time minus that Start Time``: target and infix expression."""

    target: Phrase
    expression: tuple[Phrase | str, ...]


@record
class Aggregate:
    """``X is the sum of Y where …``."""

    target: Phrase
    op: str
    of: Phrase
    where: tuple[Clause | Computed | Aggregate, ...] = ()


Condition = Clause | Computed | Aggregate


@record
class Statement:
    """One sentence's syntax: ``form`` names the grammar rule, ``parts`` its pieces."""

    form: str
    parts: dict[str, Any] = field(default_factory=dict)
    marker: str = ""
    annotation: str = ""
