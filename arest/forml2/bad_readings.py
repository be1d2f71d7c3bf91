"""The file of bad readings: malformed sentences, each under the message it should get.

``match_examples`` compares a failed parse with these examples' failures and reports the
message of the closest one, with ``ACCEPTED`` forms.  tests/forml2 checks that every
example fails to parse and maps back to its own message.
"""

from __future__ import annotations

GENERAL = (
    "Order(.Order Number) is an entity type.",
    "Order is placed by Customer.",
    "Each Order is placed by exactly one Customer.",
)

BAD: dict[str, tuple[str, ...]] = {
    "a fact type reading ends with a noun or predicate words, not a quantifier": (
        "Order has at most one.",
        "Each Order has at most one.",
    ),
    "a comparison compares a noun with a number or a quoted value; a temporal condition"
    " (`before`) reads only in an obligation": (
        "Each Order has Amount before Status is 'x'.",
        "Each Article has Content Body after Content Status is 'x'.",
    ),
    "a value list is quoted values separated by commas": (
        "The possible values of Size are S, M.",
        "The possible values of Size are.",
    ),
    "`If … then …` needs a clause on both sides": ("If Order has Amount then.",),
    "`If … then …` joins its conditions with `and`; alternatives (`or`) are read in a rule"
    " with `iff`, `if` or `when`": (
        "If Order is big or Order is late then Order is flagged.",
        "* If Order is big or Order is late then Order is flagged.",
    ),
}

ACCEPTED: dict[str, tuple[str, ...]] = {
    "a fact type reading ends with a noun or predicate words, not a quantifier": (
        "Each Order has at most one Coupon.",
    ),
    "a comparison compares a noun with a number or a quoted value; a temporal condition"
    " (`before`) reads only in an obligation": (
        "It is forbidden that a Review has Rating less than 1.",
        "It is obligatory that each Article has Content Body before Content Status is"
        " 'published'.",
    ),
    "a value list is quoted values separated by commas": (
        "The possible values of Size are 'S', 'M'.",
    ),
    "`If … then …` needs a clause on both sides": (
        "If some Order has some Coupon then that Order has some Amount.",
    ),
    "`If … then …` joins its conditions with `and`; alternatives (`or`) are read in a rule"
    " with `iff`, `if` or `when`": (
        "* Order is flagged iff Order is big or Order is late.",
    ),
}


def examples() -> list[tuple[str, list[str]]]:
    """(message, bad sentences) pairs in the shape ``match_examples`` takes."""
    return [(label, list(sentences)) for label, sentences in BAD.items()]
