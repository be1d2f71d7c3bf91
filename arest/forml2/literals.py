"""The values a constraint's clauses write on roles: what restricts which facts count.

``If some Parcel has Status 'Shipped' then that Parcel has some Tracking Number`` writes
``Shipped`` on the Status role of its first clause: only shipped parcels need a tracking
number.  A value is a quoted literal, or a numeral after a noun the sentence names once
with no determiner (``has Quantity 3``): the lexicon reads such a numeral as a subscript,
which distinguishes nothing when the noun occurs once.  ``Quantity3`` (no space) stays a
subscript, and a noun the sentence names again keeps its subscripts as names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from arest.forml2.constructs import Restriction
from arest.forml2.schema import Resolution
from arest.forml2.syntax import Clause, Phrase

Written = dict[tuple[int, int], str]
"""(clause index, phrase index) → the value that phrase writes (0-based indices)."""


def numeral(text: str, phrase: Phrase) -> bool:
    """Whether ``phrase`` is a noun followed by a numeral as ``text`` writes it (a space
    between them), with no determiner.

    >>> from arest.forml2.syntax import Noun
    >>> text = "If some Order has Quantity 3 then that Order is rush."
    >>> numeral(text, Phrase(Noun("Quantity", "3", offset=18)))
    True
    >>> numeral("Quantity3", Phrase(Noun("Quantity", "3")))
    False
    """
    noun = phrase.noun
    return (
        not phrase.det
        and not phrase.path
        and noun.subscript.isdigit()
        and text.startswith(f"{noun.name} {noun.subscript}", noun.offset)
    )


def written(text: str, clauses: Sequence[Clause]) -> Written:
    """The value each phrase of ``clauses`` (one sentence, ``text``) writes.

    >>> from arest.forml2.syntax import Noun
    >>> parcel, red = Phrase(Noun("Parcel"), "some"), Phrase(Noun("Colour"), literal="red")
    >>> written("", [Clause((parcel, red), ("", "has", ""))])
    {(0, 1): 'red'}
    """
    named = Counter(p.noun.name for c in clauses for p in c.phrases if not p.itself)
    out: Written = {}
    for k, clause in enumerate(clauses):
        for i, phrase in enumerate(clause.phrases):
            if phrase.literal is not None:
                out[(k, i)] = phrase.literal
            elif named[phrase.noun.name] == 1 and numeral(text, phrase):
                out[(k, i)] = phrase.noun.subscript
    return out


def ambiguous(text: str, clauses: Sequence[Clause]) -> Phrase | None:
    """A numeral after a noun the sentence names again, where no other occurrence of that
    noun has a subscript and nothing refers back to this one (``If some Parcel has Quantity
    3 then that Parcel has some Quantity``): a value or a variable, the sentence does not
    say which.

    >>> from arest.forml2.syntax import Noun
    >>> text = "Quantity 3 Quantity"
    >>> one, two = Phrase(Noun("Quantity", "3")), Phrase(Noun("Quantity", offset=11), "some")
    >>> ambiguous(text, [Clause((one, two), ("", "", ""))]) == one
    True
    """
    phrases = [p for c in clauses for p in c.phrases if not p.itself]
    for phrase in phrases:
        same = [p for p in phrases if p.noun.name == phrase.noun.name]
        if (
            len(same) > 1
            and numeral(text, phrase)
            and sum(p.noun.variable == phrase.noun.variable for p in same) == 1
            and not any(p.noun.subscript for p in same if p is not phrase)
        ):
            return phrase
    return None


def restrictions(
    number: int, resolution: Resolution, values: Written, index: int
) -> tuple[Restriction, ...]:
    """The restrictions of clause ``index`` of ``values`` (read to ``resolution``), as
    clause ``number`` (1-based) of the constraint, in role order.

    >>> restrictions(1, Resolution("Parcel_has_Colour", (0, 1)), {(0, 1): "red"}, 0)
    (Restriction(clause=1, fact_type='Parcel_has_Colour', role=1, value='red'),)
    """
    found = [
        Restriction(number, resolution.fact_type, resolution.roles[i], value)
        for (k, i), value in values.items()
        if k == index
    ]
    return tuple(sorted(found, key=lambda r: r.role))
