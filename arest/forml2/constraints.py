"""Syntax → constraints and possibilities (the sentences that refer to fact types).

Every constraint records its spans: the roles of the fact types it constrains, one tuple
per clause, found by :meth:`Schema.resolve`.
"""

from __future__ import annotations

from arest.forml2.build import Builder
from arest.forml2.constructs import Constraint, Possibility, Source, Span, constraint_id
from arest.forml2.schema import Resolution
from arest.forml2.syntax import Clause, Phrase, Statement

RING = {
    "irreflexive": "IR",
    "asymmetric": "AS",
    "antisymmetric": "AT",
    "symmetric": "SY",
    "intransitive": "IT",
    "transitive": "TR",
    "acyclic": "AC",
    "reflexive": "RF",
}
_NEGATION = ("not", "does", "do", "did")


class Interpreter:
    """Interprets one sentence that refers to fact types, emitting into a :class:`Builder`."""

    def __init__(self, builder: Builder, source: Source) -> None:
        self.b = builder
        self.source = source
        self.count = 0

    # ---- helpers ----------------------------------------------------------------------------
    def terms(self, clause: Clause) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """A clause's declared nouns and the predicate words around them (a phrase's
        leading words joined to the words before it, negation left out)."""
        subject = clause.phrases[0]
        nouns = tuple(
            self.b.noun(self.source, subject.noun if p.itself else p.noun) for p in clause.phrases
        )
        words = tuple(
            " ".join(
                w for w in (clause.words[i], clause.phrases[i].pre if i < len(nouns) else "") if w
            )
            for i in range(len(clause.words))
        )
        return nouns, tuple(" ".join(x for x in w.split() if x not in _NEGATION) for w in words)

    def resolve(
        self, clause: Clause, elided: str = ""
    ) -> tuple[Resolution, tuple[str, ...]] | None:
        """The fact type a clause reads and its nouns, or None after reporting why not.

        ``elided`` is the predicate a continuation may leave leading words of out
        (``is in that Room and at that Time``: ``at`` stands for ``is at``): when the
        words as written read no fact type exactly, the shortest leading part of
        ``elided`` that makes them read one is put back."""
        nouns, words = self.terms(clause)
        if elided and len(words) > 1:
            given = elided.split()
            for size in range(len(given) + 1):
                head = " ".join(given[:size])
                tried = (words[0], f"{head} {words[1]}".strip(), *words[2:])
                exact = self.b.schema.resolve(nouns, tried, exact=True)
                if isinstance(exact, Resolution):
                    return exact, nouns
        found = self.b.schema.resolve(nouns, words)
        if isinstance(found, str):
            self.b.error(self.source, found, clause.phrases[0].noun.offset)
            return None
        return found, nouns

    def constraint(self, kind: str, spans: tuple[tuple[Span, ...], ...], **more: object) -> None:
        self.count += 1
        reading = self.source.text
        self.b.emit(
            self.source,
            Constraint(
                kind,
                spans,
                id=constraint_id(reading, self.count),
                reading=reading,
                source=self.source,
                **more,  # type: ignore[arg-type]
            ),
        )

    def cardinality(
        self,
        unique: tuple[Span, ...],
        mandatory: tuple[Span, ...],
        low: int | None,
        high: int | None,
        **more: object,
    ) -> None:
        """``at most one`` → UC; ``exactly one`` → UC and MC; ``some`` / ``at least one`` →
        MC; any other bounds → FC.  ``unique`` spans the roles a uniqueness or frequency
        counts over, ``mandatory`` the role that must be played."""
        if (low, high) == (None, 1):
            self.constraint("UC", (unique,), **more)
        elif (low, high) == (1, 1):
            self.constraint("UC", (unique,), **more)
            self.constraint("MC", (mandatory,), **more)
        elif (low, high) == (1, None):
            self.constraint("MC", (mandatory,), **more)
        else:
            self.constraint("FC", (unique,), bounds=(low, high), **more)

    # ---- single-clause constraints ---------------------------------------------------------
    def quantified(self, clause: Clause, modality: str = "alethic", operator: str = "") -> None:
        """``Each A … at most one B``, ``a Review has Rating less than 1``, ``No A … itself``.

        The quantified phrase's role is the one counted: a uniqueness or frequency spans the
        other roles (``Each Plan has at most one Price per Interval`` spans Plan and
        Interval), a mandatory constraint the subject's role."""
        found = self.resolve(clause)
        if found is None:
            return
        resolution, _ = found
        ft = resolution.fact_type
        subject = clause.phrases[0]
        extra: dict[str, object] = {"modality": modality, "operator": operator}
        if subject.det == "no" and (
            clause.phrases[-1].itself or clause.phrases[-1].det == "the same"
        ):
            self.constraint("IR", ((Span(ft, tuple(sorted(resolution.roles[:2]))),),), **extra)
            return
        bounded = [
            i for i, p in enumerate(clause.phrases) if p.bound is not None or p.det == "some"
        ]
        if clause.comparison is not None:
            op, operand = clause.comparison.op, clause.comparison.operand
            if not isinstance(operand, str):
                self.b.error(
                    self.source,
                    "a comparison in a constraint compares with a number or a quoted value",
                )
                return
            role = resolution.roles[-1]
            self.constraint("VC", ((Span(ft, (role,)),),), comparison=(op, operand), **extra)
            return
        if subject.det not in ("each", "a", "an", "some") or len(bounded) != 1 or bounded[0] == 0:
            self.b.error(
                self.source,
                "a constraint on one fact type reads `Each <Noun> <verb>"
                " at most one|exactly one|some|at least n <Noun>.`",
                subject.noun.offset,
            )
            return
        bound = clause.phrases[bounded[0]].bound
        low, high = (1, None) if bound is None else (bound.low, bound.high)
        others = tuple(sorted(r for i, r in enumerate(resolution.roles) if i != bounded[0]))
        self.cardinality(
            (Span(ft, others),), (Span(ft, (resolution.roles[0],)),), low, high, **extra
        )

    def possibility(self, clause: Clause) -> None:
        found = self.resolve(clause)
        if found is None:
            return
        resolution, _ = found
        bounded = next((i for i, p in enumerate(clause.phrases) if p.bound is not None), 0)
        bound = clause.phrases[bounded].bound
        self.b.emit(
            self.source,
            Possibility(
                resolution.fact_type,
                None if bound is None else (bound.low, bound.high),
                resolution.roles[0],
                self.source,
            ),
        )

    def relative(self, clause: Clause, operator: str) -> None:
        """``It is forbidden that a Notification has a Recipient Email that has no
        Preference``: the related value must (or must not) play the relative clause's role:
        a subset constraint between the two clauses."""
        holder = next(p for p in clause.phrases if p.relative is not None)
        assert holder.relative is not None
        main = Clause(
            tuple(Phrase(p.noun, p.det, p.bound, p.pre, p.literal) for p in clause.phrases),
            clause.words,
        )
        first = self.resolve(main)
        inner = holder.relative
        negated = any(p.det == "no" for p in inner.phrases)
        second = self.resolve(inner)
        if first is None or second is None:
            return
        index = clause.phrases.index(holder)
        spans = (
            (Span(first[0].fact_type, (first[0].roles[index],)),),
            (Span(second[0].fact_type, (second[0].roles[0],)),),
        )
        if operator == "forbidden" and negated:
            operator = "obligatory"
        self.constraint("SS", spans, modality="deontic", operator=operator)

    # ---- multi-clause constraints -----------------------------------------------------------
    def clause_span(self, clause: Clause, noun: str | None) -> Span | None:
        """The role ``noun`` plays in a clause of a multi-clause constraint: its anaphoric
        occurrence (``that Task``) when there is one, else its first; the first role when
        the constraint names no noun."""
        found = self.resolve(clause)
        if found is None:
            return None
        resolution, nouns = found
        index = anaphor(clause, nouns, noun)
        return Span(resolution.fact_type, (resolution.roles[index],))

    def set_comparison(self, st: Statement) -> None:
        noun = self.b.noun(self.source, st.parts["noun"]) if st.parts["noun"] else None
        kind = {"exactly one": "XO", "at most one": "XC", "at least one": "OR"}[st.parts["quant"]]
        spans = [self.clause_span(c, noun) for c in st.parts["clauses"]]
        if all(s is not None for s in spans):
            self.constraint(kind, tuple((s,) for s in spans if s is not None))

    def spanning(self, st: Statement) -> None:
        found = self.resolve(st.parts["clause"])
        if found is None:
            return
        resolution, nouns = found
        used: list[int] = []
        for noun in st.parts["nouns"]:
            name = self.b.noun(self.source, noun)
            index = next((i for i, n in enumerate(nouns) if n == name and i not in used), None)
            if index is None:
                self.b.error(self.source, f"{name} plays no role of {resolution.fact_type}")
                return
            used.append(index)
        roles = tuple(sorted(resolution.roles[i] for i in used))
        self.constraint("UC", ((Span(resolution.fact_type, roles),),))

    def ring(self, clause: Clause, kinds: tuple[str, ...]) -> None:
        found = self.resolve(clause)
        if found is None:
            return
        resolution, nouns = found
        if len(nouns) != 2:
            self.b.error(self.source, "a ring constraint is on a fact type with two roles")
            return
        for kind in kinds:
            self.constraint(RING[kind], ((Span(resolution.fact_type, (0, 1)),),))

    def equality(self, st: Statement) -> None:
        """``… if and only if …``: spans the role, in each clause, of the noun the right
        clause refers back to with ``that`` (else their alphabetically first common noun)."""
        left, right = st.parts["left"], st.parts["right"]
        names = [[self.b.noun(self.source, p.noun) for p in c.phrases] for c in (left, right)]
        common = set(names[0]) & set(names[1])
        anaphoric = [n for n, p in zip(names[1], right.phrases, strict=True) if p.det == "that"]
        noun = next((n for n in anaphoric if n in common), None) or next(iter(sorted(common)), None)
        spans = (self.clause_span(left, noun), self.clause_span(right, noun))
        if spans[0] is not None and spans[1] is not None:
            self.constraint("EQ", ((spans[0],), (spans[1],)))

    def subset(
        self,
        antecedent: tuple[Clause, ...],
        consequent: tuple[Clause, ...],
        results: list[tuple[Resolution, tuple[str, ...]]],
        modality: str,
        operator: str,
    ) -> None:
        """``If some A … some B then that A … some C``: per clause, the roles of the
        variables (noun and subscript) that antecedent and consequent share."""

        def variables(clauses: tuple[Clause, ...]) -> set[str]:
            return {p.noun.variable for c in clauses for p in c.phrases if not p.itself}

        shared = variables(antecedent) & variables(consequent)
        spans = []
        for (resolution, _), clause in zip(results, antecedent + consequent, strict=True):
            roles = tuple(
                sorted(
                    resolution.roles[i]
                    for i, p in enumerate(clause.phrases)
                    if p.noun.variable in shared
                )
            )
            spans.append((Span(resolution.fact_type, roles or resolution.roles[:1]),))
        self.constraint("SS", tuple(spans), modality=modality, operator=operator)

    def conditional_ring(self, st: Statement, ft: str, modality: str, operator: str) -> None:
        antecedent: tuple[Clause, ...] = st.parts["antecedent"]
        consequent: tuple[Clause, ...] = st.parts["consequent"]
        chained = len(antecedent) > 1
        negative = st.parts["impossible"] or any(
            "not" in w.split() for c in consequent for w in c.words
        )
        itself = any(p.itself for c in consequent for p in c.phrases)
        if itself:
            kind = "RF"
        elif chained:
            kind = "IT" if negative else "TR"
        else:
            kind = "AS" if negative else "SY"
        if st.annotation and RING[st.annotation] != kind:
            self.b.error(
                self.source,
                f"the annotation ({st.annotation}) does not match the"
                f" sentence, which states a {_name(kind)} ring constraint",
            )
            return
        self.constraint(kind, ((Span(ft, (0, 1)),),), modality=modality, operator=operator)


def _name(kind: str) -> str:
    return next(k for k, v in RING.items() if v == kind)


def anaphor(
    clause: Clause, nouns: tuple[str, ...], noun: str | None, used: list[int] | None = None
) -> int:
    """The phrase of ``clause`` that ``noun`` names: an unused ``that`` occurrence first,
    then any unused occurrence, else phrase 0."""
    taken = used or []
    candidates = [i for i, n in enumerate(nouns) if n == noun and i not in taken]
    that = [i for i in candidates if clause.phrases[i].det == "that"]
    return (that or candidates or [0])[0]
