"""Pass 3 of reading: each statement that refers to fact types goes to the interpretation
its form calls for (constraint, possibility, rule, instance fact, identification)."""

from __future__ import annotations

from dataclasses import replace

from arest.forml2.build import Builder
from arest.forml2.constraints import RING, Interpreter
from arest.forml2.constructs import Constraint, Source, Span, constraint_id
from arest.forml2.external import disjunctive_mandatory, external
from arest.forml2.rules import Rules
from arest.forml2.schema import Resolution
from arest.forml2.syntax import Clause, Distinct, Phrase, Statement


def interpret(builder: Builder, source: Source, st: Statement) -> None:
    """Pass 3: constraints, possibilities, rules, instance facts and identification."""
    it = Interpreter(builder, source)
    form = st.form
    if form == "plain":
        clauses: tuple[Clause, ...] = st.parts["clauses"]
        if any(p.literal is not None for c in clauses for p in c.phrases):
            if len(clauses) > 1:
                builder.error(
                    source,
                    "an instance fact has one reading; ` / ` separates the"
                    " alternate readings of a fact type",
                )
            else:
                builder.instance_fact(source, clauses[0])
        elif any(p.det for c in clauses for p in c.phrases):
            if st.annotation:
                it.quantified(clauses[0])
                if it.count and RING[st.annotation] != "IR":
                    builder.error(
                        source,
                        f"the annotation ({st.annotation}) does not match"
                        " the sentence, which states an irreflexive ring constraint",
                    )
            else:
                it.quantified(clauses[0])
    elif form == "values":
        noun = builder.noun(source, st.parts["noun"])
        reading = source.text
        builder.emit(
            source,
            Constraint(
                "VC",
                (),
                values=st.parts["values"],
                noun=noun,
                id=constraint_id(reading),
                reading=reading,
                source=source,
            ),
        )
    elif form in ("exclusive", "partition", "disjunctive"):
        sup = st.parts["sup"].name
        links = [
            f"{sup.replace(' ', '_')}_is_a_{s.name.replace(' ', '_')}" for s in st.parts["subs"]
        ]
        spans = tuple((Span(m, (0,)),) for m in links)
        if form == "partition" or (form == "exclusive" and st.parts["exhaustive"]):
            it.constraint("XO", spans)
        else:
            it.constraint("XC" if form == "exclusive" else "OR", spans)
    elif form == "identification":
        builder.identification(source, st)
    elif form == "possibility":
        it.possibility(st.parts["clause"])
    elif form == "deontic":
        body = st.parts["body"]
        if isinstance(body, Statement) and body.form == "temporal":
            obligation_before(it, body, st.parts["op"])
        elif isinstance(body, Statement):
            conditional(it, body, "deontic", st.parts["op"])
        elif any(p.relative is not None for p in body.phrases):
            it.relative(body, st.parts["op"])
        else:
            it.quantified(body, "deontic", st.parts["op"])
    elif form == "external":
        external(it, st)
    elif form == "disjunctive_mandatory":
        disjunctive_mandatory(it, st)
    elif form == "set":
        it.set_comparison(st)
    elif form == "spanning":
        it.spanning(st)
    elif form == "ring":
        it.ring(st.parts["clause"], st.parts["kinds"])
    elif form == "equality":
        it.equality(st)
    elif form == "conditional":
        conditional(it, st)
    elif form == "derivation":
        Rules(it).rule(
            st.marker, st.parts["keyword"], st.parts["consequent"], st.parts["disjuncts"]
        )


def conditional(
    it: Interpreter, st: Statement, modality: str = "alethic", operator: str = ""
) -> None:
    """``If … then …``: a derivation rule when marked (``*``, ``**``, ``+``) or when the
    consequent's fact type is derived; else a ring constraint when every clause is about
    one fact type whose nouns are all one noun; else a subset constraint.  A premise
    ``Person1 is not Person2`` belongs to a ring constraint only (the antisymmetric form)."""
    premises: tuple[Clause | Distinct, ...] = st.parts["antecedent"]
    antecedent = tuple(p for p in premises if isinstance(p, Clause))
    distinct = tuple(p for p in premises if isinstance(p, Distinct))
    consequent: tuple[Clause, ...] = st.parts["consequent"]
    rule = modality == "alethic" and (st.marker or _derived(it, consequent[-1]))
    if rule and not distinct:
        mode = st.marker or _derived(it, consequent[-1])
        Rules(it).rule(mode, "if-then", consequent[0], (antecedent,))
        return
    clauses = antecedent + consequent
    resolved = [it.resolve(c) for c in clauses]
    results = [r for r in resolved if r is not None]
    if len(results) != len(resolved):
        return
    names = {n for _, nouns in results for n in nouns}
    fact_types = {r.fact_type for r, _ in results}
    ring = len(names) == 1 and len(fact_types) == 1
    if distinct and (rule or not ring):
        it.b.error(
            it.source,
            "`<Noun>1 is not <Noun>2` is a premise of the antisymmetric ring form only:"
            " `If <Noun>1 <verb> <Noun>2 and <Noun>1 is not <Noun>2 then it is impossible"
            " that <Noun>2 <verb> <Noun>1.`",
            distinct[0].left.offset,
        )
        return
    if ring:
        it.conditional_ring(st, results, distinct, modality, operator)
        return
    it.subset(antecedent, consequent, results, modality, operator)


def obligation_before(it: Interpreter, st: Statement, operator: str) -> None:
    """``It is obligatory that each Article has Content Body before Content Status is
    'published'``: once an Article has that value it should have some Content Body, which
    is the deontic subset ``It is obligatory that if some Article has Content Status
    'published' then that Article has some Content Body``.  The value is the one fact type
    between the subject and the noun (a state machine's ``Status`` among them), so the
    obligation is checked when a command, or a transition, gives the subject that value."""
    clause: Clause = st.parts["clause"]
    subject, *others = clause.phrases
    accepted = ("`It is obligatory that each Article has Content Body before Content Status"
                " is 'published'.`")
    if operator != "obligatory":
        it.b.error(it.source, f"`before` says from when something is obligatory: {accepted}")
        return
    if subject.det != "each" or subject.literal is not None or any(
        p.det not in ("", "some") or p.literal is not None for p in others
    ):
        it.b.error(
            it.source,
            f"an obligation with `before` is about each object of its subject: {accepted}",
            subject.noun.offset,
        )
        return
    value = Phrase(st.parts["noun"], literal=st.parts["value"])
    antecedent = Clause((replace(subject, det="some"), value), ("", "has", ""))
    consequent = Clause(
        (replace(subject, det="that"), *(replace(p, det="some") for p in others)),
        clause.words,
        clause.comparison,
    )
    parts = {"antecedent": (antecedent,), "consequent": (consequent,), "impossible": False}
    conditional(it, Statement("conditional", parts), "deontic", operator)


def _derived(it: Interpreter, clause: Clause) -> str:
    """The derivation mode of the declared fact type a clause reads, if it reads one."""
    schema = it.b.schema
    if any(p.noun.name not in schema.nouns for p in clause.phrases if not p.itself):
        return ""
    nouns = tuple(clause.phrases[0].noun.name if p.itself else p.noun.name for p in clause.phrases)
    found = schema.resolve(nouns, it.words(clause))
    target = schema.fact_types.get(found.fact_type) if isinstance(found, Resolution) else None
    return target.mode if target is not None else ""
