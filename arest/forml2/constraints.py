"""Syntax → constraints and possibilities (the sentences that refer to fact types).

Every constraint records its spans: the roles of the fact types it constrains, one tuple
per clause, found by :meth:`Schema.resolve`; the clauses of a subset, equality or set
comparison also record the literals they write on other roles (:mod:`arest.forml2.literals`).
A form that cannot keep a literal says so: a constraint never drops one.
"""

from __future__ import annotations

from arest.forml2.build import Builder
from arest.forml2.constructs import (
    Constraint,
    Join,
    Possibility,
    Restriction,
    Source,
    Span,
    constraint_id,
)
from arest.forml2.literals import Written, ambiguous, restrictions, written
from arest.forml2.schema import Resolution
from arest.forml2.syntax import Clause, Distinct, Phrase, Statement

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
_NEGATIVE = frozenset(("not", "cannot", "never"))
_LITERAL_SUBSET = "`If some Parcel has Status 'Shipped' then that Parcel has some Tracking Number.`"
_LITERAL_FORMS = (
    f"{_LITERAL_SUBSET}, `Some Parcel has Colour 'red' if and only if that Parcel is rush.`"
    " and `For each Parcel, exactly one of the following holds: that Parcel has Colour"
    " 'red'; that Parcel is rush.`"
)


class Interpreter:
    """Interprets one sentence that refers to fact types, emitting into a :class:`Builder`."""

    def __init__(self, builder: Builder, source: Source) -> None:
        self.b = builder
        self.source = source
        self.count = 0

    # ---- helpers ----------------------------------------------------------------------------
    def terms(self, clause: Clause) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """A clause's declared nouns and its predicate words (:meth:`words`)."""
        subject = clause.phrases[0]
        nouns = tuple(
            self.b.noun(self.source, subject.noun if p.itself else p.noun) for p in clause.phrases
        )
        return nouns, self.words(clause)

    def words(self, clause: Clause) -> tuple[str, ...]:
        """The predicate words around a clause's phrases (a phrase's leading words joined to
        the words before it, negation left out)."""
        words = tuple(
            " ".join(
                w
                for w in (
                    clause.words[i],
                    clause.phrases[i].pre if i < len(clause.phrases) else "",
                )
                if w
            )
            for i in range(len(clause.words))
        )
        return tuple(" ".join(x for x in w.split() if x not in _NEGATION) for w in words)

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

    def no_literal(self, *clauses: Clause) -> bool:
        """True when no phrase of ``clauses`` holds a literal; else reports that only the
        clauses of a subset, equality or set comparison keep one."""
        held = next((p for c in clauses for p in c.phrases if p.literal is not None), None)
        if held is None:
            return True
        self.b.error(
            self.source,
            f"this form cannot keep the literal on {held.noun.name}: a literal restricts a"
            f" clause of a subset, equality or set comparison, as in {_LITERAL_FORMS}",
            held.noun.offset,
        )
        return False

    def values(self, clauses: tuple[Clause, ...]) -> Written | None:
        """The literals ``clauses`` write (:func:`arest.forml2.literals.written`), or None
        after reporting a numeral that may as well be a subscript."""
        unclear = ambiguous(self.source.text, clauses)
        if unclear is None:
            return written(self.source.text, clauses)
        noun = unclear.noun
        self.b.error(
            self.source,
            f"`{noun.name} {noun.subscript}` is the value {noun.subscript} or a variable"
            f" {noun.variable}: write `{noun.name} '{noun.subscript}'` for the value, or"
            f" `some {noun.variable}` for any {noun.name}",
            noun.offset,
        )
        return None

    def unspanned(self, spans: tuple[Span, ...], kept: tuple[Restriction, ...]) -> bool:
        """True when no restriction is on a role its clause spans; else reports it.  A
        spanned role holds the object the clauses share, which a literal would fix."""
        spanned = {(span.fact_type, role) for span in spans for role in span.roles}
        clash = next((r for r in kept if (r.fact_type, r.role) in spanned), None)
        if clash is None:
            return True
        self.b.error(
            self.source,
            f"the literal '{clash.value}' is on the role the clauses share"
            f" ({clash.fact_type} [{clash.role}]); write the literal on another role, as in"
            f" {_LITERAL_FORMS}",
        )
        return False

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
        if not self.no_literal(clause):
            return
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
        values = self.values((main, inner))
        if values is None:
            return
        kept = restrictions(1, first[0], values, 0) + restrictions(2, second[0], values, 1)
        if not self.unspanned(spans[0] + spans[1], kept):
            return
        if operator == "forbidden" and negated:
            operator = "obligatory"
        self.constraint(
            "SS", spans, modality="deontic", operator=operator, restrictions=kept
        )

    # ---- multi-clause constraints -----------------------------------------------------------
    def clause_span(
        self, clauses: tuple[Clause, ...], index: int, noun: str | None, values: Written
    ) -> tuple[Span, tuple[Restriction, ...]] | None:
        """The role ``noun`` plays in clause ``index`` of a multi-clause constraint: its
        anaphoric occurrence (``that Task``) when there is one, else its first; the first
        role when the constraint names no noun.  With the literals the clause writes on its
        other roles (``values``, :func:`arest.forml2.literals.written`)."""
        clause = clauses[index]
        found = self.resolve(clause)
        if found is None:
            return None
        resolution, nouns = found
        phrase = anaphor(clause, nouns, noun, [i for k, i in values if k == index])
        span = Span(resolution.fact_type, (resolution.roles[phrase],))
        kept = restrictions(index + 1, resolution, values, index)
        return (span, kept) if self.unspanned((span,), kept) else None

    def clause_spans(
        self, clauses: tuple[Clause, ...], noun: str | None
    ) -> tuple[tuple[tuple[Span, ...], ...], tuple[Restriction, ...]] | None:
        """:meth:`clause_span` of every clause: the spans, one clause each, and the
        restrictions; None when one does not resolve or fixes its spanned role."""
        values = self.values(clauses)
        if values is None:
            return None
        found = [self.clause_span(clauses, i, noun, values) for i in range(len(clauses))]
        if any(f is None for f in found):
            return None
        pairs = [f for f in found if f is not None]
        return tuple((span,) for span, _ in pairs), tuple(r for _, kept in pairs for r in kept)

    def set_comparison(self, st: Statement) -> None:
        noun = self.b.noun(self.source, st.parts["noun"]) if st.parts["noun"] else None
        kind = {"exactly one": "XO", "at most one": "XC", "at least one": "OR"}[st.parts["quant"]]
        found = self.clause_spans(tuple(st.parts["clauses"]), noun)
        if found is not None:
            self.constraint(kind, found[0], restrictions=found[1])

    def spanning(self, st: Statement) -> None:
        if not self.no_literal(st.parts["clause"]):
            return
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
        if not self.no_literal(clause):
            return
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
        values = self.values((left, right))
        if values is None:
            return
        names = [
            [
                self.b.noun(self.source, p.noun)
                for i, p in enumerate(c.phrases)
                if (k, i) not in values
            ]
            for k, c in enumerate((left, right))
        ]
        common = set(names[0]) & set(names[1])
        anaphoric = [
            self.b.noun(self.source, p.noun)
            for i, p in enumerate(right.phrases)
            if p.det == "that" and (1, i) not in values
        ]
        if len({n for n in anaphoric if n in common}) > 1:
            self.pair_equality(left, right, values)
            return
        noun = next((n for n in anaphoric if n in common), None) or next(iter(sorted(common)), None)
        found = self.clause_spans((left, right), noun)
        if found is not None:
            self.constraint("EQ", found[0], restrictions=found[1])

    def pair_equality(self, left: Clause, right: Clause, values: Written) -> None:
        """``Some Person lives in some City if and only if that Person was born in that
        City.``: the right clause refers back to several nouns, so the two clauses hold the
        same combinations of them.  A noun the right clause does not refer back to is its
        own (existential) variable."""
        found = [self.resolve(clause) for clause in (left, right)]
        if found[0] is None or found[1] is None:
            return
        (lres, _), (rres, _) = found[0], found[1]
        lterms = clause_terms(0, left, lres, values)
        rterms = list(clause_terms(1, right, rres, values))
        for i, phrase in enumerate(right.phrases):
            if phrase.det != "that" and (1, i) not in values:
                rterms[rres.roles[i]] += " (right)"
        shared = set(lterms) & set(rterms)
        spans = tuple(
            (Span(res.fact_type, tuple(r for r, t in enumerate(terms) if t in shared)),)
            for res, terms in ((lres, lterms), (rres, rterms))
        )
        self.constraint("EQ", spans, restrictions=(*restrictions(1, lres, values, 0),
                                                   *restrictions(2, rres, values, 1)),
                        terms=(lterms, tuple(rterms)), antecedents=1)

    def subset(
        self,
        antecedent: tuple[Clause, ...],
        consequent: tuple[Clause, ...],
        results: list[tuple[Resolution, tuple[str, ...]]],
        modality: str,
        operator: str,
    ) -> None:
        """``If some A … some B then that A … some C``: per clause, the roles of the
        variables (noun and subscript) that antecedent and consequent share, and the
        literals it writes on other roles (``If some Parcel has Status 'Shipped' then …``).
        A consequent ending ``… C equal to that B's C`` is a join subset
        (:meth:`join_subset`)."""
        clauses = antecedent + consequent
        values = self.values(clauses)
        if values is None:
            return

        def variables(indices: range) -> set[str]:
            return {
                p.noun.variable
                for k in indices
                for i, p in enumerate(clauses[k].phrases)
                if not p.itself and (k, i) not in values
            }

        shared = variables(range(len(antecedent))) & variables(
            range(len(antecedent), len(clauses))
        )
        spans: list[tuple[Span, ...]] = []
        kept: list[Restriction] = []
        for k, ((resolution, _), clause) in enumerate(zip(results, clauses, strict=True)):
            roles = tuple(
                sorted(
                    resolution.roles[i]
                    for i, p in enumerate(clause.phrases)
                    if p.noun.variable in shared and (k, i) not in values
                )
            )
            if values and not roles:
                self.b.error(
                    self.source,
                    "a subset constraint with a literal relates the objects its clauses"
                    " share: refer back with `that <Noun>` in every clause, as in"
                    f" {_LITERAL_SUBSET}",
                    clause.phrases[0].noun.offset,
                )
                return
            spans.append((Span(resolution.fact_type, roles or resolution.roles[:1]),))
            kept.extend(restrictions(k + 1, resolution, values, k))
        terms = tuple(clause_terms(k, clause, resolution, values)
                      for k, ((resolution, _), clause) in enumerate(
                          zip(results, clauses, strict=True)))
        joins: tuple[Join, ...] = ()
        if any(c.comparison is not None for c in clauses):
            joined = self.join_subset(antecedent, consequent, results, spans)
            if joined is None:
                return
            if any(r.clause != joined.clause for r in kept):
                self.b.error(
                    self.source,
                    "a join subset keeps literals only in the antecedent clause that names"
                    " the possessive's owner",
                )
                return
            joins = (joined,)
        self.constraint(
            "SS",
            tuple(spans),
            modality=modality,
            operator=operator,
            joins=joins,
            restrictions=tuple(kept),
            terms=() if joins else terms,
            antecedents=0 if joins else len(antecedent),
        )

    def join_subset(
        self,
        antecedent: tuple[Clause, ...],
        consequent: tuple[Clause, ...],
        results: list[tuple[Resolution, tuple[str, ...]]],
        spans: list[tuple[Span, ...]],
    ) -> Join | None:
        """``If some Customer places some Order then that Order has Shipping Address equal
        to that Customer's Shipping Address``: for every Customer c and Order o with o
        placed by c and every Shipping Address a of c, o has a.  The subset side is the
        join path: the antecedent clause that binds the owner (Customer) joined, on the
        owner's role, to the fact type its possessive names (``Customer has Shipping
        Address``), whose compared role it projects; the superset side spans the compared
        role too.  ``spans`` (one tuple per clause) is extended in place; the join, or None
        after a diagnostic."""
        form = (
            "a comparison in a subset constraint reads `If some A … some B then that A has C"
            " equal to that B's C.`: C's value in the consequent equals the one the"
            " antecedent's B has"
        )
        last = consequent[-1]
        comparison = last.comparison
        if (
            len(consequent) != 1
            or any(c.comparison is not None for c in antecedent)
            or comparison is None
            or comparison.op != "="
            or not isinstance(comparison.operand, Phrase)
            or len(comparison.operand.path) != 1
        ):
            self.b.error(self.source, form)
            return None
        owner_phrase = comparison.operand
        owner = self.b.noun(self.source, owner_phrase.noun)
        target = self.b.noun(self.source, owner_phrase.path[0])
        bound = [
            (k, i)
            for k, clause in enumerate(antecedent)
            for i, p in enumerate(clause.phrases)
            if p.noun.variable == owner_phrase.noun.variable
        ]
        compared_noun = self.b.noun(self.source, last.phrases[-1].noun)
        if not bound or compared_noun != target:
            self.b.error(
                self.source,
                f"{form}; here {owner_phrase.noun.variable} must be a variable of the"
                f" antecedent and the compared noun {compared_noun} must be {target}",
                owner_phrase.noun.offset,
            )
            return None
        path = self.b.schema.resolve((owner, target), ("", "has", ""))
        if isinstance(path, str):
            self.b.error(self.source, path, owner_phrase.path[0].offset)
            return None
        k, i = bound[0]
        holder = results[k][0]
        if path.fact_type == holder.fact_type:
            self.b.error(self.source, f"{form}; {path.fact_type} cannot join itself")
            return None
        # The consequent's compared role joins the roles its shared variables span.
        (superset,) = spans[-1]
        compared = results[-1][0].roles[-1]
        roles = tuple(sorted({*superset.roles, compared}))
        spans[-1] = (Span(superset.fact_type, roles),)
        spans[k] = (*spans[k], Span(path.fact_type, (path.roles[1],)))
        return Join(
            k + 1,
            Span(holder.fact_type, (holder.roles[i],)),
            Span(path.fact_type, (path.roles[0],)),
        )

    def conditional_ring(
        self,
        st: Statement,
        results: list[tuple[Resolution, tuple[str, ...]]],
        distinct: tuple[Distinct, ...],
        modality: str,
        operator: str,
    ) -> None:
        """A conditional over one ring fact type: the kind its variables' pattern states
        (:func:`ring_kind`); another pattern is a diagnostic listing the forms.  A literal
        names one object, which no ring constraint does: with one, the sentence is a subset
        constraint between the clauses (``If some Person1 likes Person 'bob' then that
        Person1 likes Person 'alice'``)."""
        antecedent = tuple(p for p in st.parts["antecedent"] if isinstance(p, Clause))
        consequent: tuple[Clause, ...] = st.parts["consequent"]
        clauses = antecedent + consequent
        negated = any(w in _NEGATIVE for c in consequent for ws in c.words for w in ws.split())
        if any(p.literal is not None for c in clauses for p in c.phrases):
            if distinct or negated or st.parts["impossible"] or st.annotation or any(
                p.itself for c in clauses for p in c.phrases
            ):
                self.b.error(
                    self.source,
                    "a literal names one object, so this is no ring constraint; as a subset"
                    " constraint it reads `If some Person1 likes Person 'bob' then that"
                    " Person1 likes Person 'alice'.` (no `is not`, negation, `itself` or"
                    " ring annotation)",
                )
                return
            self.subset(antecedent, consequent, results, modality, operator)
            return
        pairs = [_pair(c, r) for c, (r, _) in zip(clauses, results, strict=True)]
        kind = None
        if len(consequent) == 1:
            different = {frozenset((d.left.variable, d.right.variable)) for d in distinct}
            kind = ring_kind(pairs[:-1], pairs[-1], st.parts["impossible"] != negated, different)
        if kind is None:
            self.b.error(
                self.source,
                "a conditional over one ring fact type reads `If X1 R X2 then X2 R X1`"
                " (symmetric), `… then it is impossible that X2 R X1` (asymmetric), `If X1 R"
                " X2 and X1 is not X2 then it is impossible that X2 R X1` (antisymmetric),"
                " `If X1 R X2 and X2 R X3 then X1 R X3` (transitive), `… then it is impossible"
                " that X1 R X3` (intransitive), `If X1 R X2 then X1 R itself` (reflexive)",
            )
            return
        if st.annotation and RING[st.annotation] != kind:
            self.b.error(
                self.source,
                f"the annotation ({st.annotation}) does not match the"
                f" sentence, which states a {_name(kind)} ring constraint",
            )
            return
        ft = results[0][0].fact_type
        self.constraint(kind, ((Span(ft, (0, 1)),),), modality=modality, operator=operator)


def _pair(clause: Clause, resolution: Resolution) -> tuple[str, str]:
    """A ring clause's two variables in role order (``itself`` stays ``itself``)."""
    terms = ["", ""]
    for phrase, role in zip(clause.phrases, resolution.roles, strict=True):
        terms[role] = "itself" if phrase.itself else phrase.noun.variable
    return terms[0], terms[1]


def ring_kind(
    premises: list[tuple[str, str]],
    conclusion: tuple[str, str],
    negative: bool,
    different: set[frozenset[str]],
) -> str | None:
    """The ring kind a conditional states, from its premises' and conclusion's variables
    (role order), whether the conclusion is negated, and the pairs of variables a premise
    says are different; None for any other pattern.

    >>> ring_kind([("P1", "P2")], ("P2", "P1"), True, {frozenset(("P1", "P2"))})
    'AT'
    >>> ring_kind([("P1", "P2"), ("P2", "P3")], ("P1", "P3"), False, set())
    'TR'
    >>> ring_kind([("P1", "P2")], ("P1", "P2"), False, set()) is None
    True
    """
    u, v = conclusion
    if len(premises) == 1:
        ((x, y),) = premises
        if x == y:
            return None
        if v == "itself" and u in (x, y) and not different:
            # Anything related to something relates (or, negated, never relates) to itself.
            return "IR" if negative else "RF"
        if (u, v) != (y, x) or not different <= {frozenset((x, y))}:
            return None
        # x ≠ y adds nothing to symmetry: the conclusion holds whenever x = y.
        return ("AT" if different else "AS") if negative else "SY"
    if len(premises) == 2 and not different:
        first, second = premises
        if first[1] != second[0]:
            first, second = second, first
        (x, y), (z, w) = first, second
        if y == z and len({x, y, w}) == 3 and (u, v) == (x, w):
            return "IT" if negative else "TR"
    return None


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


def clause_terms(index: int, clause: Clause, resolution: Resolution,
                 values: Written) -> tuple[str, ...]:
    """The term at each role of the fact type clause ``index`` reads: the variable its
    phrase names there (``itself`` names the subject's), or the quoted literal it writes.

    >>> from arest.forml2.syntax import Noun
    >>> clause = Clause((Phrase(Noun("Parcel"), "some"), Phrase(Noun("Colour"), literal="red")),
    ...                 ("", "has", ""))
    >>> clause_terms(0, clause, Resolution("Parcel_has_Colour", (0, 1)), {(0, 1): "red"})
    ('Parcel', "'red'")
    """
    terms = [""] * len(resolution.roles)
    subject = clause.phrases[0].noun
    for i, phrase in enumerate(clause.phrases):
        value = values.get((index, i))
        terms[resolution.roles[i]] = (
            "'" + value.replace("'", "''") + "'" if value is not None
            else (subject if phrase.itself else phrase.noun).variable
        )
    return tuple(terms)
