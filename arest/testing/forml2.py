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

from dataclasses import dataclass, replace
from typing import Any

from hypothesis import strategies as st

from arest.forml2 import (
    Aggregation,
    Atom,
    Comparison,
    Constraint,
    Construct,
    DerivationRule,
    FactTypeDecl,
    InstanceFact,
    Join,
    NounDecl,
    Objectification,
    Possibility,
    Reading,
    Span,
    SubtypeDecl,
    metamodel,
    read,
    verbalize,
)
from arest.forml2.constructs import Condition
from arest.forml2.constructs import Reading as FactTypeReading
from arest.forml2.phrasing import VerbalizationError
from arest.forml2.schema import Resolution
from arest.forml2.schema import Schema as ReaderSchema

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
def schemas(draw: st.DrawFn, shapes: dict[str, Any] | None = None) -> Schema:
    """Nouns (entity types with simple, compound or default reference schemes, value types),
    subtypes, an objectification and fact types, as text, read (keeping the parses of its
    sentence shapes in ``shapes``, when given)."""
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
    if shapes is None:
        return Schema(text, read(text))
    nothing_known = Reading((), (), (), (), (), ReaderSchema(), shapes)
    reading = read(text, known=nothing_known)
    shapes.update(reading.shapes)
    return Schema(text, reading)


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
def instance_fact(draw: st.DrawFn, schema: Schema,
                  among: list[FactTypeDecl] | None = None) -> InstanceFact:
    """A fact of one of the schema's fact types (of ``among``, when given)."""
    ft = draw(st.sampled_from(schema.fact_types if among is None else among))
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


# -- sentences the verbalizer does not write -------------------------------------------------
# The verbalizer says each construct in one canonical sentence; the reader accepts more forms
# than those.  These are said as text over the generated schema, so that every form is read.

Led = tuple[FactTypeDecl, FactTypeReading]
"""A fact type and one of its readings."""

FAMILIES = (("Alder", "Birch", "Cedar"), ("Hazel", "Holly", "Juniper"),
            ("Larch", "Maple", "Walnut"), ("Pine", "Rowan", "Spruce"))
"""Supertypes with two subtypes each, in words no generated noun uses."""
ABSTRACT = "Elm"
QUOTED = ("Noun 'Each Way Bet' is an entity type.", "'No Show Fee' is a value type.")
"""Declarations of nouns holding reserved words, each quoted one of the two ways."""
MODES = ("*", "**", "+")


def _say(reading: FactTypeReading, phrases: tuple[str, ...]) -> str:
    """The reading with ``phrases`` (in role order) at its roles.

    >>> _say(FactTypeReading((1, 0), ("", "places", "")), ("Order", "some Customer"))
    'some Customer places Order'
    """
    return reading.text(phrases)


def _led_by(schema: Schema, noun: str, arity: int | None = None
            ) -> list[Led]:
    """(fact type, reading) pairs whose reading starts with ``noun``, a role it plays once,
    among asserted fact types whose nouns are all distinct (of ``arity`` roles, when given)."""
    return [(ft, r) for ft in schema.fact_types for r in ft.readings
            if not ft.mode and len(set(ft.roles)) == len(ft.roles)
            and (arity is None or len(ft.roles) == arity) and ft.roles[r.order[0]] == noun]


def _binary_pairs(schema: Schema) -> list[Led]:
    return [pair for noun in schema.reading.schema.nouns for pair in _led_by(schema, noun, 2)]


def _subtype_families() -> list[str]:
    """A supertype and two subtypes said by each of the subtype sentences, one family
    each: a partition, mutually exclusive subtypes (exhaustive or not), a disjunction of
    declared subtypes."""
    said = []
    for (sup, first, second), form in zip(FAMILIES, (
        "{sup} is partitioned into {first}, {second}.",
        "{{{first}, {second}}} are mutually exclusive subtypes of {sup}.",
        "{{{first}, {second}}} are mutually exclusive and exhaustive subtypes of {sup}.",
        "{first} is a subtype of {sup}.\n{second} is a subtype of {sup}.\n"
        "Each {sup} is a {first} or a {second}.",
    ), strict=True):
        declared = form.format(sup=sup, first=first, second=second)
        said.append(f"{sup}(.id) is an entity type.\n{declared}")
    return said


def _ring_fact_type(schema: Schema) -> Led | None:
    found = [(ft, r) for ft in schema.fact_types for r in ft.readings
             if len(ft.roles) == 2 and len(set(ft.roles)) == 1 and r.order == (0, 1)]
    return found[0] if found else None


def _conditional_rings(schema: Schema) -> list[str]:
    """A ring constraint in each of its conditional forms (the kind follows from the
    pattern of the variables), and ``No A … itself`` with its annotation."""
    ring = _ring_fact_type(schema)
    if ring is None:
        return []
    ft, reading = ring
    noun = ft.roles[0]

    def said(a: str, b: str) -> str:
        return _say(reading, (f"{noun}{a}", f"{noun}{b}"))

    impossible = "it is impossible that "
    return [
        f"If {said('1', '2')} then {said('2', '1')}.",
        f"If {said('1', '2')} then {impossible}{said('2', '1')}.",
        f"If {said('1', '2')} and {noun}1 is not {noun}2 then {impossible}{said('2', '1')}.",
        f"If {said('1', '2')} and {said('2', '3')} then {said('1', '3')}.",
        f"If {said('1', '2')} and {said('2', '3')} then {impossible}{said('1', '3')}.",
        f"If {said('1', '2')} then {_say(reading, (f'{noun}1', 'itself'))}.",
        f"{_say(reading, (f'No {noun}', 'itself'))}. (irreflexive)",
    ]


def _every_kind(schema: Schema) -> st.SearchStrategy[list[Constraint]]:
    """On the ring fact type: a constraint of every ring kind, alethic and (where a deontic
    sentence says it) deontic, a spanning uniqueness, and a deontic uniqueness, mandatory
    and frequency."""
    ring = _ring_fact_type(schema)
    if ring is None:
        return st.just([])
    span = _span(ring[0], (0, 1))
    first = _span(ring[0], (0,))
    operators = st.sampled_from(OPERATORS)
    return st.tuples(*(
        [st.just(Constraint(kind, span)) for kind in ("UC", *RING_KINDS)]
        + [st.builds(Constraint, st.just(kind), st.just(span), st.just("deontic"), operators)
           for kind in DEONTIC_RINGS]
        + [st.builds(Constraint, st.just(kind), st.just(first), st.just("deontic"), operators,
                     bounds=st.just((None, 2) if kind == "FC" else None))
           for kind in ("UC", "MC", "FC")])).map(list)


FIXED_FORMS = (
    "Ash(.id) is an entity type.\nAsh has parent Ash.\nEach Ash has at most one parent Ash.",
    "Beech is a value type.\nCherry is a value type.\nDamson is a value type.\n"
    "Bundle(.id) is an entity type where Beech has Cherry and Damson.",
    "Fig(.id) is an entity type.\nFig is near or far.",
    "Grape(.id) is an entity type.\nGuava is a value type.\nGrape has max Guava.",
    "Kiwi(.id) is an entity type.\nLemon is a value type.\nLime is a value type.\n"
    "Kiwi has Lemon per Lime.\n"
    "For each Kiwi and Lime that Kiwi has that Lime at most one Lemon.",
)
"""Small schemas of their own (in words no generated noun uses) that take the grammar's
rarer paths: a word before a quantified noun, ``and``, ``or`` and an aggregate's word inside
a reading, and a quantifier right after a noun (the lesson's n-ary uniqueness)."""


def _spanning_lesson(schema: Schema) -> st.SearchStrategy[str]:
    """A spanning uniqueness in the lesson's form."""
    pairs = _binary_pairs(schema)
    if not pairs:
        return st.just("")
    return st.sampled_from(pairs).map(lambda p: (
        f"Each {p[0].roles[p[1].order[0]]}, {p[0].roles[p[1].order[1]]} combination occurs"
        f" at most once in the population of {p[1].text(p[0].roles)}."))


def _deontic_relative(schema: Schema) -> st.SearchStrategy[str]:
    """``It is forbidden that a A … a B that … no C``: a deontic subset through a relative
    clause."""
    chains = [(first, second) for first in _binary_pairs(schema)
              for second in _led_by(schema, first[0].roles[first[1].order[1]], 2)
              if not set(second[0].roles) & {first[0].roles[first[1].order[0]]}]
    if not chains:
        return st.just("")

    def said(chain: tuple[Led, Led], operator: str, det: str) -> str:
        (ft, reading), (inner, relative) = chain
        holder, held = reading.order
        # The relative clause leaves out its subject: the noun it follows.
        rest = FactTypeReading(relative.order[1:], relative.words[1:])
        tail = rest.text(tuple(f"{det} {n}" for n in inner.roles))
        phrases = [""] * 2
        phrases[holder] = f"a {ft.roles[holder]}"
        phrases[held] = f"{ft.roles[held]} that {tail}"
        return f"It is {operator} that {_say(reading, tuple(phrases))}."

    return st.builds(said, st.sampled_from(chains), st.sampled_from(OPERATORS),
                     st.sampled_from(("no", "some")))


def _rule_forms(schema: Schema, derived: set[str]) -> list[st.SearchStrategy[str]]:
    """Derivation rules the constructs drawn do not say, each deriving a fact type of its
    own from fact types no drawn rule derives: an aggregate over a ``where``, a computation,
    a disjunction, and a fact type declared derived by its marker with a rule by ``if`` or
    ``when``."""
    forms: list[st.SearchStrategy[str]] = []
    pairs = [p for p in _binary_pairs(schema) if p[0].id not in derived]
    if pairs:
        forms.append(st.sampled_from(pairs).map(_aggregate))
    valued = [p for p in pairs
              if schema.reading.schema.nouns[p[0].roles[p[1].order[1]]].kind == "value"]
    if valued:
        forms.append(st.sampled_from(valued).map(lambda p: (
            "Measure is a value type.\n"
            f"* {p[0].roles[p[1].order[0]]} has Measure iff {p[1].text(p[0].roles)} and"
            f" Measure is {p[0].roles[p[1].order[1]]} times 2.")))
    led = {noun: [p for p in _led_by(schema, noun) if p[0].id not in derived]
           for noun in sorted(schema.reading.schema.nouns)}
    either = [noun for noun, found in led.items() if len({ft.id for ft, _ in found}) >= 2]
    if either:
        forms.append(st.sampled_from(either).flatmap(lambda noun: st.lists(
            st.sampled_from(led[noun]), min_size=2, max_size=2, unique_by=lambda p: p[0].id
        ).map(lambda two: f"* {noun} is noted iff "
              + " or ".join(r.text(ft.roles) for ft, r in two) + ".")))
    marked = [noun for noun, found in led.items() if found]
    if marked:
        forms.append(st.sampled_from(marked).flatmap(lambda noun: st.tuples(
            st.sampled_from(MODES), st.sampled_from(led[noun]),
            st.sampled_from(("if", "when"))).map(
            lambda p: f"{noun} is flagged. {p[0]}\n"
            f"{p[0]} {noun} is flagged {p[2]} {p[1][1].text(p[1][0].roles)}.")))
    return forms


def _aggregate(pair: Led) -> str:
    ft, reading = pair
    owner, counted = (ft.roles[r] for r in reading.order)
    where = _say(reading, tuple(f"that {n}" if n == owner else n for n in ft.roles))
    return (f"Tally is a value type.\n* {owner} has Tally iff Tally is the count of {counted}"
            f" where {where}.")


def _machine(schema: Schema, derived: set[str]) -> st.SearchStrategy[str]:
    """A state machine over an entity type: initial, defined and terminal statuses,
    transitions from one or two statuses, an Event Type and a Fact Type triggering them, a
    verb performed during a transition and one in a status; and, where the noun leads a
    binary reading, a guard (a subset over its Status) and an obligation ``before`` a
    status."""
    nouns = sorted(n for n, info in schema.reading.schema.nouns.items()
                   if info.kind == "entity" and len(info.reference) < 2 and n in schema.text
                   and not any(n in family for family in FAMILIES))
    if not nouns:
        return st.just("")
    # A noun that leads a binary reading gets a guard and an obligation too.
    leading = [n for n in nouns if any(p[0].id not in derived for p in _led_by(schema, n, 2))]
    def parts(noun: str) -> st.SearchStrategy[tuple[str, Led | None, Led | None]]:
        triggers: list[Led | None] = [*_led_by(schema, noun)]
        guarded: list[Led | None] = [p for p in _led_by(schema, noun, 2)
                                     if p[0].id not in derived]
        return st.tuples(st.just(noun), st.sampled_from(triggers or [None]),
                         st.sampled_from(guarded or [None]))

    return st.sampled_from(leading or nouns).flatmap(parts).map(_machine_text)


def _machine_text(drawn: tuple[str, Led | None, Led | None]) -> str:
    noun, trigger, guarded = drawn
    machine = f"State Machine Definition '{noun}'"
    lines = [
        f"{machine} is for Noun '{noun}'.",
        f"Status 'Open' is initial in {machine}.",
        f"Status 'Held' is defined in {machine}.",
        f"Status 'Closed' is terminal in {machine}.",
        f"Transition 'hold' is defined in {machine}.",
        "Transition 'hold' is from Status 'Open'.",
        "Transition 'hold' is to Status 'Held'.",
        "Transition 'hold' is triggered by Event Type 'pause'.",
        f"Transition 'close' is defined in {machine}.",
        "Transition 'close' is from Status 'Open'.",
        "Transition 'close' is from Status 'Held'.",
        "Transition 'close' is to Status 'Closed'.",
        "Verb 'notify' is performed during Transition 'close'.",
        "Verb 'archive' is performed in Status 'Closed'.",
        "Verb 'welcome' is performed in Status 'Open'.",
    ]
    if trigger is not None:
        quoted = trigger[1].text(trigger[0].roles).replace("'", "''")
        lines.append(f"Transition 'close' is triggered by Fact Type '{quoted}'.")
    if guarded is not None:
        ft, reading = guarded
        other = ft.roles[reading.order[1]]
        that = _say(reading, tuple(f"that {n}" if n == noun else f"some {other}"
                                   for n in ft.roles))
        each = _say(reading, tuple(f"each {n}" if n == noun else other for n in ft.roles))
        lines.append(f"If some {noun} has Status 'Closed' then {that}.")
        lines.append(f"It is obligatory that {each} before Status is 'Held'.")
    return "\n".join(lines)


def _acyclic(drawn: list[Construct]) -> list[Construct]:
    """The constructs without the rules that would make derivation recursive: each rule
    kept derives a fact type no other kept rule derives or reads, and reads none derived."""
    heads: set[str] = set()
    read_: set[str] = set()
    kept: list[Construct] = []
    for c in drawn:
        if isinstance(c, DerivationRule):
            reads = {a.fact_type for a in c.conditions if isinstance(a, Atom)}
            head = c.consequent.fact_type
            if head in heads | read_ or reads & (heads | {head}):
                continue
            heads.add(head)
            read_ |= reads
        kept.append(c)
    return kept


def _unsafe_for_facts(reading: Reading) -> set[str]:
    """The fact types of a text where an instance fact could break something: those a
    constraint, a rule or a machine's trigger names, derived ones, and those naming a noun
    that a constraint spans, a subtype or objectification relates, or a compound reference
    identifies (such an entity must come with other facts)."""
    schema = reading.schema
    nouns: set[str] = set()
    fact_types: set[str] = set()
    for c in reading.constructs:
        if isinstance(c, Constraint):
            nouns.add(c.noun)
            for clause in c.spans:
                for span in clause:
                    fact_types.add(span.fact_type)
                    ft = schema.fact_types.get(span.fact_type)
                    nouns.update(ft.roles if ft is not None else ())
        elif isinstance(c, DerivationRule):
            fact_types.add(c.consequent.fact_type)
            fact_types.update(_read_by(c.conditions))
        elif isinstance(c, SubtypeDecl):
            nouns.update((c.sub, c.sup))
        elif isinstance(c, Objectification):
            nouns.add(c.noun)
            nouns.update(schema.fact_types[c.fact_type].roles)
        elif isinstance(c, NounDecl) and len(c.reference) > 1:
            nouns.add(c.name)
    nouns.update(noun for noun in schema.machines)
    return fact_types | {ft.id for ft in schema.fact_types.values()
                         if ft.mode or set(ft.roles) & nouns}


def _read_by(conditions: tuple[Condition, ...]) -> set[str]:
    found: set[str] = set()
    for c in conditions:
        if isinstance(c, Atom):
            found.add(c.fact_type)
        elif isinstance(c, Aggregation):
            found |= _read_by(c.where)
    return found


_SHAPES_KEPT = 4096


def readings(max_constructs: int = 6, every_form: bool = False,
             machines: bool = False) -> st.SearchStrategy[str]:
    """FORML 2 texts across every form the reader accepts, each read without a diagnostic
    and compiled without an error.

    A generated schema (entity and value types with every kind of reference scheme,
    subtypes, an objectification, fact types of arity 1–3 with alternate readings, a ring);
    up to ``max_constructs`` constructs drawn as values and said in their canonical
    sentences (uniqueness incl. spanning and external, mandatory incl. disjunctive,
    frequency, value lists and comparisons, the ring kinds, set comparisons, equality,
    subset and join subset, alethic and deontic; possibilities; derivation rules); then, each
    now and then, the forms no canonical sentence writes: subtype families (partition,
    mutually exclusive and exhaustive subtypes, a disjunction of subtypes), an abstract noun,
    quoted declarations, conditional and annotated rings, the lesson's spanning uniqueness,
    a deontic relative clause, rules with an aggregate, a computation, a disjunction or a
    marked fact type, and a state machine with its statuses, transitions, events, triggers,
    effects, a guard and an obligation ``before`` a status.  Instance facts come last, only
    on fact types where no constraint, rule or machine could object to them, so that the
    text compiles.

    ``every_form`` draws texts that hold all of it at once: exactly ``max_constructs``
    constructs and every one of the other forms (for :mod:`arest.testing.coverage`, which
    lists what a text says and every kind the reader knows).  ``machines`` draws texts
    that always hold a state machine and the derivation rules the schema allows (the
    machine's start and derivation in every create of its noun)."""
    # Each text is read once more to place its instance facts; sentences of one shape
    # share a parse, so the strategy keeps the parses it made (a memo of its own).
    shapes: dict[str, Any] = {}
    return schemas(shapes).flatmap(
        lambda schema: _text(schema, max_constructs, every_form, shapes, machines))


def _checkable(construct: Construct, schema: Schema) -> bool:
    """Whether the compiler has a check for the construct (instance facts are placed apart):
    a join subset compares with a binary fact type, an external uniqueness spans one role
    of each of its binary fact types."""
    if isinstance(construct, Constraint) and construct.joins:
        return len(schema.fact_types_by_id[construct.spans[-1][0].fact_type].roles) == 2
    if isinstance(construct, Constraint) and construct.kind == "UC" and len(
            construct.spans[0]) > 1:
        return all(len(span.roles) == 1
                   and len(schema.fact_types_by_id[span.fact_type].roles) == 2
                   for span in construct.spans[0])
    return not isinstance(construct, InstanceFact)


def read_known(text: str, shapes: dict[str, Any]) -> Reading:
    """``read(text, known=metamodel())``, the parses of sentence shapes kept in ``shapes``
    (at most a few thousand) for the next text."""
    if len(shapes) > _SHAPES_KEPT:
        shapes.clear()
    reading = read(text, known=replace(metamodel(), shapes=shapes))
    shapes.update(reading.shapes)
    return reading


@st.composite
def _text(draw: st.DrawFn, schema: Schema, max_constructs: int, every_form: bool,
          shapes: dict[str, Any], machines: bool = False) -> str:
    drawn: list[Construct] = _acyclic(draw(st.lists(
        constructs(schema).filter(lambda c: _checkable(c, schema)),
        min_size=max_constructs if every_form else 0, max_size=max_constructs)))
    if every_form:
        drawn += draw(_every_kind(schema))
    sentences = [_sentence(c, schema) for c in drawn]
    derived = {c.consequent.fact_type for c in drawn if isinstance(c, DerivationRule)}
    said: list[list[str]] = [_subtype_families(), [f"{ABSTRACT} is abstract."], list(QUOTED),
                             _conditional_rings(schema),
                             *([form] for form in FIXED_FORMS)]
    forms = [_spanning_lesson(schema), _deontic_relative(schema),
             *_rule_forms(schema, derived), _machine(schema, derived)]
    for choices in said:
        if every_form:
            sentences += choices
        elif choices and draw(st.booleans()) is True:
            sentences.append(draw(st.sampled_from(choices)))
    # With machines, the rules and the machine (every form after the first two) are said.
    sentences += [draw(form) for n, form in enumerate(forms)
                  if every_form or (machines and n >= 2) or draw(st.booleans())]
    text = schema.text + "".join(f"{s}\n" for s in sentences if s)
    unsafe = _unsafe_for_facts(read_known(text, shapes))
    safe = [ft for ft in schema.fact_types if ft.id not in unsafe]
    if safe:
        facts = draw(st.lists(instance_fact(schema, safe), min_size=1 if every_form else 0,
                              max_size=3))
        text += "".join(f"{_sentence(f, schema)}\n" for f in facts)
    return text


def _sentence(construct: Construct, schema: Schema) -> str:
    """The construct's canonical sentence, or "" for one no reading of the schema can say
    (a constraint spanning a role that starts none of its fact type's readings)."""
    try:
        return verbalize(construct, schema.reading)
    except VerbalizationError:
        return ""
