"""Syntax → external constraints: the uniqueness and mandatory constraints over roles of
several fact types, said in one sentence whose clauses share their subject.

- ``For each Plan and Interval that Plan has that Interval at most one Price.``: a
  uniqueness over the named nouns' roles of one fact type.
- ``For each Room and Time, at most one Booking is in that Room and is at that Time.``
  (Halpin's external uniqueness): each Room and Time combination is joined by at most one
  Booking.  One clause of spans, one span per fact type, each the named nouns' roles there.
- ``Each Person owns some Car or rents some Car.`` (disjunctive mandatory, ORM's
  inclusive-or): each Person plays at least one of the subject's roles.  One clause of
  spans, one span per fact type, each the subject's role there.

A later clause leaves its subject out (``and is at that Time``, ``or rents some Car``) and
may leave out the leading words of the first clause's predicate (``and at that Time``).
"""

from __future__ import annotations

from arest.forml2.constraints import Interpreter, anaphor
from arest.forml2.constructs import Span
from arest.forml2.schema import Resolution
from arest.forml2.syntax import Clause, Phrase, Statement

_EXTERNAL_FORM = (
    "an external uniqueness constraint reads `For each A and B, that A <verb> that B at most"
    " one C.` or, across fact types, `For each A and B, at most one C <verb> that A and"
    " <verb> that B.`"
)


def external(it: Interpreter, st: Statement) -> None:
    """``For each …``: on one fact type, or across the fact types of its clauses."""
    if st.parts["continuations"]:
        _across(it, st)
        return
    clause: Clause = st.parts["clause"]
    if not it.no_literal(clause):
        return
    found = it.resolve(clause)
    if found is None:
        return
    resolution, nouns = found
    names = [it.b.noun(it.source, n) for n in st.parts["nouns"]]
    used: list[int] = []
    for name in names:
        index = anaphor(clause, nouns, name, used)
        if nouns[index] == name:
            used.append(index)
    bounded = [i for i, p in enumerate(clause.phrases) if p.bound is not None]
    if len(used) != len(names) or len(bounded) != 1 or bounded[0] in used:
        it.b.error(it.source, _EXTERNAL_FORM)
        return
    bound = clause.phrases[bounded[0]].bound
    assert bound is not None
    roles = tuple(sorted(resolution.roles[i] for i in used))
    span = (Span(resolution.fact_type, roles),)
    it.cardinality(span, span, bound.low, bound.high)


def _clauses(
    it: Interpreter, first: Clause, continuations: tuple[Clause, ...]
) -> list[tuple[Clause, Resolution]] | None:
    """Every clause with the first one's subject, resolved (a later one's predicate may
    leave out the first one's leading words); None when one does not resolve or two are
    about the same fact type."""
    subject = first.phrases[0]
    elided = it.terms(first)[1][1] if len(first.words) > 1 else ""
    out: list[tuple[Clause, Resolution]] = []
    for index, clause in enumerate((first, *continuations)):
        whole = clause if index == 0 else clause.with_subject(Phrase(subject.noun))
        found = it.resolve(whole, elided if index else "")
        if found is None:
            return None
        out.append((whole, found[0]))
    fact_types = [r.fact_type for _, r in out]
    repeated = sorted({f for f in fact_types if fact_types.count(f) > 1})
    if repeated:
        it.b.error(
            it.source,
            f"two clauses read {repeated[0]}: the clauses of an external constraint are"
            " about different fact types",
        )
        return None
    return out


def _across(it: Interpreter, st: Statement) -> None:
    """``For each Room and Time, at most one Booking is in that Room and is at that Time``:
    each named noun is one ``that`` phrase of one clause; every other phrase is the
    subject, which the bound counts."""
    first: Clause = st.parts["clause"]
    subject = first.phrases[0]
    clauses = _clauses(it, first, st.parts["continuations"])
    if clauses is None:
        return
    names = [it.b.noun(it.source, n) for n in st.parts["nouns"]]
    spans: list[Span] = []
    named: list[str] = []
    for clause, resolution in clauses:
        roles: list[int] = []
        for index, phrase in enumerate(clause.phrases[1:], start=1):
            noun = it.b.noun(it.source, phrase.noun)
            if phrase.det != "that" or noun not in names or phrase.bound is not None:
                it.b.error(it.source, _EXTERNAL_FORM, phrase.noun.offset)
                return
            roles.append(resolution.roles[index])
            named.append(noun)
        if not roles:
            it.b.error(it.source, _EXTERNAL_FORM)
            return
        spans.append(Span(resolution.fact_type, tuple(sorted(roles))))
    if sorted(named) != sorted(names) or subject.bound is None or subject.det != "quant":
        it.b.error(it.source, _EXTERNAL_FORM, subject.noun.offset)
        return
    bound = (subject.bound.low, subject.bound.high)
    if bound not in ((None, 1), (1, 1)):
        it.b.error(
            it.source,
            "an external uniqueness constraint across fact types counts `at most one`",
            subject.noun.offset,
        )
        return
    it.constraint("UC", (tuple(spans),))
    if bound == (1, 1):
        combination = " and ".join(names)
        it.b.error(
            it.source,
            f"`exactly one` across fact types would also say that every {combination}"
            f" combination is joined by some {subject.noun.name}, which no ORM constraint"
            " states: the uniqueness is kept, the rest is not; write `at most one`",
            subject.noun.offset,
        )


def disjunctive_mandatory(it: Interpreter, st: Statement) -> None:
    """``Each Person owns some Car or rents some Car``: the subject's role in each
    clause's fact type; every other phrase says ``some``."""
    clauses = _clauses(it, st.parts["clause"], st.parts["continuations"])
    if clauses is None:
        return
    spans: list[Span] = []
    for clause, resolution in clauses:
        for phrase in clause.phrases[1:]:
            some = phrase.det == "some" or (
                phrase.bound is not None and (phrase.bound.low, phrase.bound.high) == (1, None)
            )
            if not some:
                it.b.error(
                    it.source,
                    "a disjunctive mandatory constraint reads `Each A <verb> some B or"
                    " <verb> some C.`",
                    phrase.noun.offset,
                )
                return
        spans.append(Span(resolution.fact_type, (resolution.roles[0],)))
    it.constraint("MC", (tuple(spans),))
