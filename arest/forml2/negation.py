"""Negated predicates: ``does not report to`` reads ``reports to``, and back.

A rule condition may deny a fact type's reading by its verb (``Task is not blocked``,
``Employee does not report to some Employee``, ``Task does not have Tag``).  The reading a
negated predicate stands for is found by trying its affirmative forms, most likely first;
:func:`negative` says a reading's predicate negated so that :func:`affirmatives` finds it
again.
"""

from __future__ import annotations

AUXILIARIES = frozenset(
    {"is", "are", "was", "were", "can", "may", "must", "will", "shall", "should", "would"}
)
"""Verbs negated by a following ``not`` (``is not blocked``)."""

_IRREGULAR = {"has": "have", "does": "do", "goes": "go"}
_SIBILANT = ("s", "sh", "ch", "x", "z", "o")


def third_person(verb: str) -> list[str]:
    """The third-person singular forms a base verb may take, most likely first.

    >>> third_person("report"), third_person("carry"), third_person("watch")
    (['reports', 'reportes'], ['carries', 'carrys'], ['watches', 'watchs'])
    >>> third_person("have")
    ['has']
    """
    for said, base in _IRREGULAR.items():
        if verb == base:
            return [said]
    if verb.endswith("y") and len(verb) > 1 and verb[-2] not in "aeiou":
        return [verb[:-1] + "ies", verb + "s"]
    if verb.endswith(_SIBILANT):
        return [verb + "es", verb + "s"]
    return [verb + "s", verb + "es"]


def affirmatives(words: str) -> list[str]:
    """The predicate words a negated predicate may deny, most likely first: ``not`` left
    out, and a ``does``/``do`` before it taken into the verb after it.  Words without
    ``not`` are their own only form.

    >>> affirmatives("does not report to")
    ['reports to', 'reportes to', 'report to']
    >>> affirmatives("is not assigned to"), affirmatives("places")
    (['is assigned to'], ['places'])
    >>> affirmatives("does not have done")[0]
    'has done'
    """
    tokens = words.split()
    if "not" not in tokens:
        return [words]
    at = tokens.index("not")
    before, after = tokens[:at], tokens[at + 1 :]
    if before and before[-1] in ("does", "do") and after:
        verb, rest = after[0], after[1:]
        forms = third_person(verb) if before[-1] == "does" else [verb, *third_person(verb)]
        said = [" ".join([*before[:-1], form, *rest]) for form in forms]
        return [*said, " ".join([*before[:-1], *after])]
    return [" ".join([*before, *after])]


def base_form(verb: str) -> str:
    """The base form of a third-person singular verb.

    >>> [base_form(v) for v in ("reports", "carries", "watches", "plays", "has", "uses")]
    ['report', 'carry', 'watch', 'play', 'have', 'use']
    """
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(tuple(s + "es" for s in _SIBILANT if s != "s")) or verb.endswith("sses"):
        return verb[:-2]
    return verb[:-1]


def negative(words: str) -> str | None:
    """A reading's predicate words denied by their verb, or None when the first word is
    neither an auxiliary nor a third-person verb.

    >>> negative("is blocked"), negative("reports to"), negative("has done")
    ('is not blocked', 'does not report to', 'does not have done')
    >>> negative("per") is None
    True
    """
    tokens = words.split()
    if not tokens:
        return None
    verb, rest = tokens[0], tokens[1:]
    if verb in AUXILIARIES:
        return " ".join([verb, "not", *rest])
    if verb in _IRREGULAR or (
        verb.isalpha() and verb.endswith("s") and not verb.endswith("ss") and len(verb) > 2
    ):
        negated = " ".join(["does", "not", base_form(verb), *rest])
        if words in affirmatives(negated):
            return negated
    return None
