"""Hypothesis strategies for FORML 2: generated schemas (nouns, fact types of arity 1–3 with
readings, subtypes and objectifications), constructs of every kind over them, and
:func:`readings`, whole texts saying them.  Re-exported (``readings``) by :mod:`arest.testing`.

A schema is drawn as FORML 2 text and read; constructs are then drawn as values over the
read schema, so that verbalizing them is exercised on constructs no sentence wrote.

>>> from hypothesis import given, settings
>>> from arest.forml2 import metamodel, read
>>> @settings(max_examples=5, deadline=None)
... @given(readings())
... def reads_cleanly(text):
...     assert read(text, known=metamodel()).diagnostics == ()
>>> reads_cleanly()
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from arest.forml2 import (
    Atom,
    Comparison,
    Constraint,
    Construct,
    DerivationRule,
    FactTypeDecl,
    InstanceFact,
    Join,
    Possibility,
    Reading,
    Span,
    read,
    verbalize,
)
from arest.forml2.phrasing import VerbalizationError
from arest.forml2.schema import Resolution

WORDS = ("Vorn", "Kalt", "Bram", "Quill", "Tessa", "Mirel", "Oban", "Pell", "Rusk", "Zeno")
VERBS = ("has", "owns", "is assigned to", "is held in", "uses", "belongs to", "likes")
UNARY = ("is active", "is archived", "smokes")
BETWEEN = ("per", "in", "at", "for")
INVERSE = {"owns": "is owned by", "uses": "is used by", "likes": "is liked by"}
RING_KINDS = ("IR", "AS", "AT", "SY", "IT", "TR", "AC", "RF")
DEONTIC_RINGS = ("IR", "AS", "AT", "SY", "IT", "TR", "RF")
OPERATORS = ("obligatory", "forbidden", "permitted")
COMPARED = ("<", ">", "<=", ">=", "=", "<>")
CONSTANTS = ("100", "-2.5", "'gold'", "'it''s'")


@dataclass(frozen=True)
class Schema:
    """A generated schema: its text and the reading of it."""

    text: str
    reading: Reading

    def __repr__(self) -> str:
        return f"Schema({self.text!r})"

    @property
    def fact_types(self) -> list[FactTypeDecl]:
        return [c for c in self.reading.constructs if isinstance(c, FactTypeDecl)]

    @property
    def fact_types_by_id(self) -> dict[str, FactTypeDecl]:
        return self.reading.schema.fact_types


@st.composite
def noun_names(draw: st.DrawFn, count: int) -> list[str]:
    """``count`` distinct noun names of one or two capitalised words."""
    names = st.one_of(
        st.sampled_from(WORDS),
        st.tuples(st.sampled_from(WORDS), st.sampled_from(WORDS))
        .filter(lambda p: p[0] != p[1])
        .map(" ".join),
    )
    drawn = draw(st.lists(names, min_size=count, max_size=count, unique=True))
    # A name that is another's plural would fold into it.
    return [n for n in drawn if not any(n in (m + "s", m + "es") for m in drawn)]


@st.composite
def fact_type_sentences(draw: st.DrawFn, entities: list[str], nouns: list[str]) -> list[str]:
    """Fact type readings of arity 1–3 (alternate readings for some binaries, a ring)."""
    out: list[str] = []
    for _ in range(draw(st.integers(2, 6))):
        arity = draw(st.integers(1, 3))
        first = draw(st.sampled_from(entities))
        if arity == 1:
            out.append(f"{first} {draw(st.sampled_from(UNARY))}.")
            continue
        verb = draw(st.sampled_from(VERBS))
        second = draw(st.sampled_from(nouns))
        if arity == 2:
            text = f"{first} {verb} {second}"
            if verb in INVERSE and second != first and draw(st.booleans()):
                text += f" / {second} {INVERSE[verb]} {first}"
            out.append(text + ".")
            continue
        third = draw(st.sampled_from([n for n in nouns if n not in (first, second)] or [first]))
        if third in (first, second):
            continue
        out.append(f"{first} {verb} {second} {draw(st.sampled_from(BETWEEN))} {third}.")
    ring = draw(st.sampled_from(entities))
    out.append(f"{ring} {draw(st.sampled_from(('blocks', 'is parent of', 'follows')))} {ring}.")
    return out


@st.composite
def schemas(draw: st.DrawFn) -> Schema:
    """Nouns (entity types with simple, compound or default reference schemes, value types),
    subtypes, an objectification and fact types, as text, read."""
    names = draw(noun_names(draw(st.integers(4, 7))))
    split = max(2, len(names) // 2)
    entities, values = names[:split], names[split:]
    lines = [f"{v} is a value type." for v in values]
    for entity in entities:
        scheme = draw(
            st.sampled_from(
                ["", "(.id)"] + [f"(.{v})" for v in values] + [f"(.{', .'.join(values[:2])})"]
            )
        )
        lines.append(f"{entity}{scheme} is an entity type.")
    lines += draw(fact_type_sentences(entities, names))
    if draw(st.booleans()):
        first, second = entities[0], draw(st.sampled_from(names[1:]))
        lines.append(f"Pairing(.id) is an entity type where {first} pairs with {second}.")
        if draw(st.booleans()):
            lines.append(
                f"This association with {first} and {second} provides the preferred"
                " identification scheme for Pairing."
            )
    if len(entities) >= 2 and draw(st.booleans()):
        lines.append(f"{entities[1]} is a subtype of {entities[0]}.")
    text = "\n".join(dict.fromkeys(lines)) + "\n"
    return Schema(text, read(text))


def _span(ft: FactTypeDecl, roles: tuple[int, ...]) -> tuple[tuple[Span, ...], ...]:
    return ((Span(ft.id, roles),),)


@st.composite
def bounds(draw: st.DrawFn) -> tuple[int | None, int | None]:
    """Frequency bounds other than the uniqueness and mandatory ones."""
    low = draw(st.one_of(st.none(), st.integers(2, 4)))
    high = draw(st.one_of(st.none(), st.integers(max(low or 2, 2), 6)))
    if low is None and high is None:
        high = 3
    return (low, high)


@st.composite
def cardinality(draw: st.DrawFn, schema: Schema) -> Constraint:
    """UC, MC or FC on one fact type (binary single roles, n-ary all-but-one, spanning)."""
    fts = [ft for ft in schema.fact_types if len(ft.roles) > 1]
    ft = draw(st.sampled_from(fts))
    kind = draw(st.sampled_from(("UC", "MC", "FC")))
    arity = len(ft.roles)
    counted = draw(st.integers(0, arity - 1))
    if kind == "MC":
        roles: tuple[int, ...] = (draw(st.integers(0, arity - 1)),)
    elif kind == "UC" and draw(st.booleans()):
        roles = tuple(range(arity))
    else:
        roles = tuple(r for r in range(arity) if r != counted)
    modality = draw(st.sampled_from(("alethic", "deontic")))
    operator = draw(st.sampled_from(OPERATORS)) if modality == "deontic" else ""
    subject = roles[0] if kind == "MC" else next(r for r in roles if r != counted)
    if modality == "deontic" and (
        (len(roles) != arity - 1 and kind != "MC")
        or not any(r.order[0] == subject or len(set(ft.roles)) == 2 == arity for r in ft.readings)
    ):
        modality, operator = "alethic", ""
    return Constraint(
        kind,
        _span(ft, roles),
        modality,
        operator,
        bounds=draw(bounds()) if kind == "FC" else None,
    )


@st.composite
def value_constraint(draw: st.DrawFn, schema: Schema) -> Constraint:
    """A value list on a noun, or a comparison on the last role of a reading."""
    if draw(st.booleans()):
        nouns = sorted(schema.reading.schema.nouns)
        values = draw(
            st.lists(
                st.text("abcxyz' -1", min_size=1, max_size=5).filter(lambda v: v.strip() == v),
                min_size=1,
                max_size=4,
                unique=True,
            )
        )
        return Constraint("VC", (), values=tuple(values), noun=draw(st.sampled_from(nouns)))
    ft = draw(st.sampled_from([f for f in schema.fact_types if len(f.roles) > 1]))
    reading = draw(st.sampled_from(ft.readings))
    op = draw(st.sampled_from(("<", ">", "=", "<=", ">=", "<>")))
    operand = draw(st.one_of(st.integers(-5, 100).map(str), st.sampled_from(("x", "it's"))))
    modality = draw(st.sampled_from(("alethic", "deontic")))
    operator = draw(st.sampled_from(OPERATORS)) if modality == "deontic" else ""
    return Constraint(
        "VC", _span(ft, (reading.order[-1],)), modality, operator, comparison=(op, operand)
    )


@st.composite
def ring(draw: st.DrawFn, schema: Schema) -> Constraint:
    rings = [ft for ft in schema.fact_types if len(ft.roles) == 2 and len(set(ft.roles)) == 1]
    ft = draw(st.sampled_from(rings))
    if draw(st.booleans()):
        kind = draw(st.sampled_from(DEONTIC_RINGS))
        return Constraint(kind, _span(ft, (0, 1)), "deontic", draw(st.sampled_from(OPERATORS)))
    return Constraint(draw(st.sampled_from(RING_KINDS)), _span(ft, (0, 1)))


def _plays(schema: Schema, noun: str) -> list[tuple[FactTypeDecl, int]]:
    """(fact type, role) pairs where ``noun`` plays exactly one role."""
    return [(ft, ft.roles.index(noun)) for ft in schema.fact_types if ft.roles.count(noun) == 1]


@st.composite
def set_comparison(draw: st.DrawFn, schema: Schema) -> Constraint:
    """XO, XC or OR over clauses in which one noun plays a role; EQ over two of them."""
    nouns = [n for n in schema.reading.schema.nouns if len(_plays(schema, n)) >= 2]
    noun = draw(st.sampled_from(nouns))
    played = draw(
        st.lists(st.sampled_from(_plays(schema, noun)), min_size=2, max_size=3, unique=True)
    )
    spans = tuple((Span(ft.id, (role,)),) for ft, role in played)
    kind = draw(st.sampled_from(("XO", "XC", "OR", "EQ")))
    return Constraint(kind, spans[:2] if kind == "EQ" else spans)


@st.composite
def subset(draw: st.DrawFn, schema: Schema) -> Constraint:
    """SS between two fact types that share only one noun, spanning its roles."""
    a, b, noun = draw(st.sampled_from(_subset_pairs(schema)))
    modality = draw(st.sampled_from(("alethic", "deontic")))
    operator = draw(st.sampled_from(OPERATORS)) if modality == "deontic" else ""
    spans = ((Span(a.id, (a.roles.index(noun),)),), (Span(b.id, (b.roles.index(noun),)),))
    return Constraint("SS", spans, modality, operator)


def _subset_pairs(schema: Schema) -> list[tuple[FactTypeDecl, FactTypeDecl, str]]:
    return [
        (a, b, noun)
        for a in schema.fact_types
        for b in schema.fact_types
        if a.id != b.id and not b.mode
        for noun in set(a.roles) & set(b.roles)
        if set(a.roles) & set(b.roles) == {noun}
        and a.roles.count(noun) == 1
        and b.roles.count(noun) == 1
    ]


def _join_subsets(schema: Schema) -> list[tuple[FactTypeDecl, FactTypeDecl, FactTypeDecl, str]]:
    """(held, path, then, owner): ``If some <held> then <then> … T equal to that owner's
    T`` where ``owner has T`` reads ``path`` and the clauses share a noun other than T."""
    out: list[tuple[FactTypeDecl, FactTypeDecl, FactTypeDecl, str]] = []
    for held in schema.fact_types:
        for path in _binaries(schema):
            for owner_role, owner in enumerate(path.roles):
                target = path.roles[1 - owner_role]
                found = schema.reading.schema.resolve((owner, target), ("", "has", ""))
                if (
                    path.id == held.id
                    or found != Resolution(path.id, (owner_role, 1 - owner_role))
                    or len(set(held.roles)) != len(held.roles)
                    or owner not in held.roles
                    or target in held.roles
                ):
                    continue
                out.extend(
                    (held, path, then, owner)
                    for then in schema.fact_types
                    if then.id not in (held.id, path.id)
                    and not then.mode
                    and len(set(then.roles)) == len(then.roles)
                    and set(then.roles) & set(held.roles)
                    and target in then.roles
                    and any(r.order[-1] == then.roles.index(target) for r in then.readings)
                )
    return out


@st.composite
def join_subset(draw: st.DrawFn, schema: Schema) -> Constraint:
    """A join subset: the subset side joins ``held`` to ``path`` on the owner's roles and
    projects the roles of the nouns ``then`` shares and ``path``'s other role."""
    held, path, then, owner = draw(st.sampled_from(_join_subsets(schema)))
    modality = draw(st.sampled_from(("alethic", "deontic")))
    operator = draw(st.sampled_from(OPERATORS)) if modality == "deontic" else ""
    path_owner = path.roles.index(owner)
    target = path.roles[1 - path_owner]
    projected = tuple(r for r, n in enumerate(held.roles) if n in then.roles)
    compared = tuple(r for r, n in enumerate(then.roles) if n in held.roles or n == target)
    spans = (
        (Span(held.id, projected), Span(path.id, (1 - path_owner,))),
        (Span(then.id, compared),),
    )
    join = Join(1, Span(held.id, (held.roles.index(owner),)), Span(path.id, (path_owner,)))
    return Constraint("SS", spans, modality, operator, joins=(join,))


def _joins(schema: Schema, noun: str) -> list[tuple[FactTypeDecl, int]]:
    """(fact type, role) pairs where ``noun`` plays exactly that role and a reading starts
    with it: the clauses of an external constraint joined by ``noun``."""
    return [
        (ft, role)
        for ft, role in _plays(schema, noun)
        if any(r.order[0] == role for r in ft.readings)
    ]


def _joined_nouns(schema: Schema) -> list[str]:
    return [n for n in schema.reading.schema.nouns if len(_joins(schema, n)) >= 2]


@st.composite
def external(draw: st.DrawFn, schema: Schema) -> Constraint:
    """A uniqueness or mandatory constraint over two or three fact types joined by one noun:
    ``For each B and C, at most one A … that B and … that C.`` spans the other roles,
    ``Each A … some B or … some C.`` the joining noun's."""
    noun = draw(st.sampled_from(_joined_nouns(schema)))
    joins = draw(
        st.lists(
            st.sampled_from(_joins(schema, noun)),
            min_size=2,
            max_size=3,
            unique_by=lambda j: j[0].id,
        )
    )
    spans = tuple(
        Span(ft.id, tuple(r for r in range(len(ft.roles)) if r != role)) for ft, role in joins
    )
    named = [schema.fact_types_by_id[s.fact_type].roles[r] for s in spans for r in s.roles]
    # A uniqueness names each other noun once by `For each …` (and never the joining noun).
    unique = all(s.roles for s in spans) and len(set(named)) == len(named) and noun not in named
    if not unique or draw(st.booleans()):
        return Constraint("MC", (tuple(Span(ft.id, (role,)) for ft, role in joins),))
    return Constraint("UC", (spans,))


@st.composite
def possibility(draw: st.DrawFn, schema: Schema) -> Possibility:
    ft = draw(st.sampled_from(schema.fact_types))
    reading = draw(st.sampled_from(ft.readings))
    bound = draw(st.sampled_from([None, (2, None), (None, 1), (1, 1)]))
    return Possibility(ft.id, bound, reading.order[0])


@st.composite
def instance_fact(draw: st.DrawFn, schema: Schema) -> InstanceFact:
    ft = draw(st.sampled_from(schema.fact_types))
    values = st.text("abc' xyz-12", min_size=1, max_size=6).filter(lambda v: v.strip() == v)
    drawn = draw(st.lists(values, min_size=len(ft.roles), max_size=len(ft.roles)))
    owner = schema.reading.schema.nouns.get(ft.roles[0])
    if len(ft.roles) == 2 and owner is not None and owner.reference == (ft.roles[1],):
        drawn[1] = drawn[0]  # Vorn 'a' has Kalt 'a': its own reference, not a contradiction
    return InstanceFact(ft.id, tuple(drawn))


def _binaries(schema: Schema) -> list[FactTypeDecl]:
    return [ft for ft in schema.fact_types if len(ft.roles) == 2 and len(set(ft.roles)) == 2]


@st.composite
def derivation_rule(draw: st.DrawFn, schema: Schema) -> DerivationRule:
    """``* A r B iff A s B [and …]`` over fact types with the consequent's nouns."""
    head = draw(st.sampled_from(_binaries(schema)))
    body = [ft for ft in schema.fact_types if set(ft.roles) <= set(head.roles) and ft != head]
    conditions = draw(st.lists(st.sampled_from(body), min_size=1, max_size=2)) if body else []
    if not conditions:
        conditions = [head]
    atoms = tuple(Atom(ft.id, ft.roles, draw(st.booleans())) for ft in conditions)
    variables = sorted({t for a in atoms for t in a.terms})
    operands = st.one_of(st.sampled_from(variables), st.sampled_from(CONSTANTS))
    compared = st.builds(
        Comparison, st.sampled_from(variables), st.sampled_from(COMPARED), operands
    )
    comparisons = tuple(draw(st.lists(compared, max_size=1)))
    mode = draw(st.sampled_from(("*", "**", "+")))
    keyword = draw(st.sampled_from(("iff", "if", "when", "if-then")))
    return DerivationRule(mode, keyword, Atom(head.id, head.roles), atoms + comparisons)


def constructs(schema: Schema) -> st.SearchStrategy[Construct]:
    """Any construct over ``schema``: the ones read from its text, and drawn constraints,
    possibilities, instance facts and rules."""
    read_back = [c for c in schema.reading.constructs]
    options: list[st.SearchStrategy[Construct]] = [
        st.sampled_from(read_back),
        cardinality(schema),
        value_constraint(schema),
        ring(schema),
        possibility(schema),
        instance_fact(schema),
    ]
    if _binaries(schema):
        options.append(derivation_rule(schema))
    nouns = schema.reading.schema.nouns
    if any(len(_plays(schema, n)) >= 2 for n in nouns):
        options.append(set_comparison(schema))
    if _subset_pairs(schema):
        options.append(subset(schema))
    if _joined_nouns(schema):
        options.append(external(schema))
    if _join_subsets(schema):
        options.append(join_subset(schema))
    return st.one_of(options)


def _machine(entities: list[str]) -> st.SearchStrategy[str]:
    """A state machine over one of the entity types, its statuses, transitions and events."""
    return st.sampled_from(entities).map(lambda noun: "\n".join((
        f"State Machine Definition '{noun}' is for Noun '{noun}'.",
        f"Status 'Open' is initial in State Machine Definition '{noun}'.",
        f"Transition 'close' is defined in State Machine Definition '{noun}'.",
        "Transition 'close' is from Status 'Open'.",
        "Transition 'close' is to Status 'Closed'.",
    )))


def readings(max_constructs: int = 6) -> st.SearchStrategy[str]:
    """FORML 2 texts across every construct the reader knows: a generated schema (entity
    and value types with every kind of reference scheme, subtypes, an objectification, fact
    types of arity 1–3 with alternate readings, a ring), up to ``max_constructs`` drawn
    constructs said in their canonical sentences (cardinality, value, ring, set-comparison,
    subset, join-subset and external constraints, alethic and deontic; possibilities;
    instance facts; derivation rules) and, now and then, a state machine.  Every text reads
    without a diagnostic; compiling one may still refuse instance facts that break its
    constraints, as it would a user's."""
    return schemas().flatmap(lambda schema: st.tuples(
        st.just(schema),
        st.lists(constructs(schema).map(lambda c: _sentence(c, schema)).filter(bool),
                 max_size=max_constructs),
        st.one_of(st.just(""), _machine(sorted(
            n for n, info in schema.reading.schema.nouns.items()
            if info.kind == "entity" and n in schema.text)))).map(_said))


def _sentence(construct: Construct, schema: Schema) -> str:
    """The construct's canonical sentence, or "" for one no reading of the schema can say
    (a constraint spanning a role that starts none of its fact type's readings)."""
    try:
        return verbalize(construct, schema.reading)
    except VerbalizationError:
        return ""


def _said(drawn: tuple[Schema, list[str], str]) -> str:
    schema, sentences, machine = drawn
    return schema.text + "".join(f"{sentence}\n" for sentence in [*sentences, machine] if sentence)
