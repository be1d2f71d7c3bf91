"""Reading limits: the largest sentence the reader parses.

Parsing is near-linear in a sentence's length, but what follows a parse is not: each
clause of a rule is a join the compiler plans against every other, and each nested clause
(a relative clause ``… that has …``, an aggregate's ``where``) multiplies the ways a
sentence can be read.  So a sentence is refused, before it is parsed, when it is longer than
:data:`MAX_SENTENCE_CHARACTERS`, joins more than :data:`MAX_CLAUSES` clauses, nests more
than :data:`MAX_NESTING` clauses, or writes a numeral of more than
:data:`MAX_NUMERAL_DIGITS` digits.  Each limit is far above any sentence of the corpora the
project reads (at most 227 characters, 3 clauses, 1 nested clause, a 4-digit numeral).

>>> too_long("Customer has Name.") is None
True
>>> too_large("each «0» has at most 12 «1».") is None
True
>>> column, message = too_large("«0» has «1»" + " and «1»" * 100 + ".")
>>> column, message[:31], message[62:92]
(805, 'this sentence joins 101 clauses', 'a sentence joins at most 100: ')
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

MAX_SENTENCE_CHARACTERS: Final = 10_000
"""The longest sentence read, in characters."""

MAX_CLAUSES: Final = 100
"""The most clauses one sentence joins with ``and``, ``or``, ``;`` or ``/``."""

MAX_NESTING: Final = 8
"""The most nested clauses in one sentence: relative clauses (``that`` right after a noun
or a literal) and ``where`` clauses."""

MAX_NUMERAL_DIGITS: Final = 1_000
"""The most digits a numeral in a sentence has."""

# A masked sentence's tokens (see :mod:`arest.forml2.lexicon`): noun «k» and literal ‹k›
# placeholders, numerals, words, and single characters.
_TOKEN: Final = re.compile(r"(«\d+»|‹\d+›)|(-?\d+(?:\.\d+)?)|([^\W\d]+|\S)")
_JOINERS: Final = frozenset({"and", "or", ";", "/"})


def too_long(text: str) -> tuple[int, str] | None:
    """``(offset, message)`` when ``text`` is longer than a sentence may be, else None.

    >>> offset, message = too_long("x" * 10_001)
    >>> offset, message[:39], message[41:71]
    (10000, 'this sentence is 10,001 characters long', 'a sentence has at most 10,000:')
    """
    if len(text) <= MAX_SENTENCE_CHARACTERS:
        return None
    return (MAX_SENTENCE_CHARACTERS, f"this sentence is {len(text):,} characters long; a "
            f"sentence has at most {MAX_SENTENCE_CHARACTERS:,}: split it into several sentences")


def too_large(masked: str) -> tuple[int, str] | None:
    """``(column, message)`` for the first limit a masked sentence passes, checked in this
    order: its clauses, its nesting, each numeral's digits; the 1-based column of
    ``masked`` is where the sentence passes it.  None within every limit.

    >>> too_large("«0» has «1» that has «2»" + " that has «2»" * 8 + ".")[1][:40]
    'this sentence nests 9 clauses (relative '
    >>> too_large("each «0» has at most " + "9" * 1001 + " «1».")
    (22, 'a numeral has at most 1,000 digits; `99999999…` has 1,001')
    """
    marks = list(_marks(masked))
    joiners = [column for column, kind, _ in marks if kind == "joiner"]
    if len(joiners) + 1 > MAX_CLAUSES:
        return (joiners[MAX_CLAUSES - 1],
                f"this sentence joins {len(joiners) + 1:,} clauses with `and`, `or`, `;` or"
                f" `/`; a sentence joins at most {MAX_CLAUSES:,}: split it into several"
                " sentences")
    nested = [column for column, kind, _ in marks if kind == "nested"]
    if len(nested) > MAX_NESTING:
        return (nested[MAX_NESTING],
                f"this sentence nests {len(nested):,} clauses (relative clauses `… that …` and"
                f" `where` clauses); a sentence nests at most {MAX_NESTING}: derive the inner"
                " facts in a rule of their own")
    for column, kind, numeral in marks:
        digits = sum(c.isdigit() for c in numeral)
        if kind == "numeral" and digits > MAX_NUMERAL_DIGITS:
            return (column, f"a numeral has at most {MAX_NUMERAL_DIGITS:,} digits;"
                    f" `{numeral[:8]}…` has {digits:,}")
    return None


def _marks(masked: str) -> Iterator[tuple[int, str, str]]:
    """``(column, kind, token)`` for each token a limit counts: a ``joiner`` of clauses,
    the word that opens a ``nested`` clause (``where``, or ``that`` right after a noun or a
    literal), a ``numeral``."""
    previous = ""
    for match in _TOKEN.finditer(masked):
        placeholder, number, other = match.groups()
        column = match.start() + 1
        if number is not None:
            yield column, "numeral", number
        elif other in _JOINERS:
            yield column, "joiner", other
        elif other == "where" or (other == "that" and previous.endswith(("»", "›"))):
            yield column, "nested", other
        previous = placeholder or number or other or ""
