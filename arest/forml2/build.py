"""Syntax → constructs: declarations, fact types and instance facts.

:class:`Builder` holds one reading's schema and diagnostics while the sentences are
interpreted in three passes (nouns, then fact types, then everything that refers to fact
types); :mod:`arest.forml2.constraints` interprets constraints and rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from arest.forml2.constructs import (
    Construct,
    FactTypeDecl,
    InstanceFact,
    NounDecl,
    Objectification,
    Reading,
    Source,
    SubtypeDecl,
)
from arest.forml2.machines import MACHINE_FACT_TYPES
from arest.forml2.schema import Resolution, Schema, fact_type_id
from arest.forml2.syntax import Clause, Noun, Statement
from arest.forml2.system_settings import setting_problem
from arest.forml2.system_urls import EXTERNAL_SYSTEM_URL, url_problem
from arest.records import record

RESERVED = (
    "each",
    "some",
    "no",
    "at most",
    "at least",
    "exactly",
    "if",
    "iff",
    "when",
    "then",
    "that",
    "obligatory",
    "forbidden",
    "permitted",
    "possible",
    "impossible",
)


@record
class Issue:
    """A problem found while interpreting a sentence: its source, offset in the sentence,
    message, and whether it is only a warning."""

    source: Source
    offset: int
    message: str
    warning: bool = False


@dataclass
class Builder:
    """The state of one reading: schema, constructs found, issues, strictness."""

    schema: Schema
    strict: bool = False
    constructs: list[tuple[Source, Construct]] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    auto_declared: set[str] = field(default_factory=set)

    def error(self, source: Source, message: str, offset: int = 0) -> None:
        self.issues.append(Issue(source, offset, message))

    def emit(self, source: Source, construct: Construct) -> None:
        self.constructs.append((source, construct))

    # ---- nouns ------------------------------------------------------------------------------
    def declare(self, source: Source, decl: NounDecl, offset: int = 0) -> None:
        """Declare a noun; re-declaring it identically is accepted (and still yields its
        construct: every sentence says something), differently is an error."""
        existing = self.schema.nouns.get(decl.name)
        if existing is not None and existing.name not in self.auto_declared:
            if (existing.kind, existing.reference) != (decl.kind, decl.reference):
                self.error(
                    source,
                    f"`{decl.name}` is already declared as {_describe(existing)}"
                    f" ({existing.source.path}:{existing.source.line}); this declares it as"
                    f" {_describe(decl)}",
                    offset,
                )
            else:
                self.emit(source, decl)
            return
        self.auto_declared.discard(decl.name)
        lowered = f" {decl.name.lower()} "
        quoted = source.text.lstrip().startswith(("Noun '", "'"))
        for word in RESERVED:
            if f" {word} " in lowered and not quoted:
                self.error(
                    source,
                    f"noun `{decl.name}` contains the reserved word `{word}`; quote the name"
                    f" to declare it: Noun '{decl.name}' is {_article(decl)}.",
                    offset,
                )
                return
        self.schema.nouns[decl.name] = decl
        self.emit(source, decl)
        for component in decl.reference:
            if component[:1].isupper() and len(decl.reference) >= 1:
                if component not in self.schema.nouns:
                    self.schema.nouns[component] = NounDecl(component, "value", (), source)
                    self.auto_declared.add(component)
                roles = (decl.name, component)
                words = ("", "has", "")
                implicit = self.schema.add_fact_type(
                    FactTypeDecl(
                        fact_type_id(roles, words), roles, (Reading((0, 1), words),), "", source
                    )
                )
                self.emit(source, implicit)

    def noun(self, source: Source, noun: Noun) -> str:
        """The declared name a noun occurrence denotes (plural folded); undeclared nouns are
        an error in strict mode, declared as value types with a warning otherwise."""
        if noun.name in self.schema.nouns:
            return noun.name
        stem = noun.name.rstrip("0123456789")
        if stem != noun.name and stem in self.schema.nouns:
            return stem
        for suffix, replacement in (("ies", "y"), ("es", ""), ("s", "")):
            stem = noun.name[: -len(suffix)] + replacement
            if noun.name.endswith(suffix) and stem in self.schema.nouns:
                return stem
        if self.strict:
            self.error(
                source,
                f"`{noun.name}` is not a declared noun (strict mode): declare"
                f" it, e.g. `{noun.name} is a value type.`",
                noun.offset,
            )
        else:
            self.issues.append(
                Issue(
                    source,
                    noun.offset,
                    f"`{noun.name}` is not declared; declared it as a value type",
                    True,
                )
            )
            decl = NounDecl(noun.name, "value", (), source)
            self.schema.nouns[noun.name] = decl
            self.auto_declared.add(noun.name)
        return noun.name

    def declarations(self, source: Source, st: Statement) -> None:
        """Pass 1: nouns and subtypes."""
        parts = st.parts
        if st.form == "reserved":
            name = f"{parts['word'].capitalize()} {parts['noun'].name}"
            self.error(
                source,
                f"noun `{name}` begins with the reserved word `{parts['word']}`; quote the"
                f" name to declare it: Noun '{name}' is {parts['kind']}.",
            )
        elif st.form == "entity":
            reference = parts["reference"] or ("id",)
            self.declare(source, NounDecl(parts["noun"].name, "entity", tuple(reference), source))
        elif st.form == "value":
            self.declare(source, NounDecl(parts["noun"].name, "value", (), source))
        elif st.form == "abstract":
            self.declare(source, NounDecl(parts["noun"].name, "abstract", (), source))
        elif st.form in ("subtype", "partition", "exclusive", "disjunctive"):
            subs = (parts["sub"],) if st.form == "subtype" else parts["subs"]
            sup = parts["sup"]
            for sub in subs:
                if sub.name not in self.schema.nouns:
                    self.declare(source, NounDecl(sub.name, "entity", ("id",), source))
                link = SubtypeDecl(sub.name, sup.name, source)
                if link not in self.schema.subtypes:
                    self.schema.subtypes.append(link)
                self.emit(source, link)

    # ---- fact types -------------------------------------------------------------------------
    def reading_of(self, source: Source, clause: Clause) -> tuple[tuple[str, ...], Reading] | None:
        """The role nouns and reading a determiner-free clause declares."""
        for phrase in clause.phrases:
            if phrase.det or phrase.path or phrase.relative or phrase.itself or phrase.pre:
                self.error(
                    source,
                    "a fact type reading names its nouns plainly, without"
                    " quantifiers, `that`, possessives or relative clauses",
                    phrase.noun.offset,
                )
                return None
        roles = tuple(self.noun(source, p.noun) for p in clause.phrases)
        return roles, Reading(tuple(range(len(roles))), clause.words)

    def fact_type(self, source: Source, clauses: tuple[Clause, ...], mode: str) -> str | None:
        """Declare a fact type from its readings (``/`` separates alternate readings, which
        must name the same nouns)."""
        first = self.reading_of(source, clauses[0])
        if first is None:
            return None
        roles, primary = first
        readings = [primary]
        for clause in clauses[1:]:
            other = self.reading_of(source, clause)
            if other is None:
                return None
            nouns, reading = other
            if sorted(nouns) != sorted(roles):
                self.error(
                    source,
                    f"alternate reading names {', '.join(nouns)} but the fact"
                    f" type's roles are {', '.join(roles)}",
                )
                return None
            used: list[int] = []
            for noun in nouns:
                used.append(next(i for i, r in enumerate(roles) if r == noun and i not in used))
            readings.append(Reading(tuple(used), reading.words))
        ft_id = fact_type_id(roles, primary.words)
        decl = self.schema.add_fact_type(FactTypeDecl(ft_id, roles, tuple(readings), mode, source))
        self.emit(source, FactTypeDecl(decl.id, roles, tuple(readings), mode, source))
        return ft_id

    def fact_types(self, source: Source, st: Statement) -> None:
        """Pass 2: fact type readings and objectifications."""
        if st.form == "entity" and st.parts["objectifies"] is not None:
            ft = self.fact_type(source, (st.parts["objectifies"],), "")
            if ft is not None:
                self.emit(source, Objectification(st.parts["noun"].name, ft, False, source))
        elif st.form == "plain" and not _has_literal(st.parts["clauses"]):
            clauses: tuple[Clause, ...] = st.parts["clauses"]
            if any(p.det for c in clauses for p in c.phrases):
                return
            self.fact_type(source, clauses, st.marker)

    # ---- instance facts ---------------------------------------------------------------------
    def instance_fact(self, source: Source, clause: Clause) -> None:
        """``Order 'ord-1' is placed by Customer 'acme'.``  A noun written without a literal
        where the fact type has a ``Noun`` role names itself: ``User is backed by External
        System 'auth'`` is ``Noun 'User' is backed by External System 'auth'``."""
        nouns = tuple(self.noun(source, p.noun) for p in clause.phrases)
        values = [p.literal for p in clause.phrases]
        found = self.schema.resolve(nouns, clause.words)
        if isinstance(found, str) and any(v is None for v in values):
            as_noun = tuple("Noun" if v is None else n for n, v in zip(nouns, values, strict=True))
            named = self.schema.resolve(as_noun, clause.words)
            if isinstance(named, Resolution):
                found = named
                values = [n if v is None else v for n, v in zip(nouns, values, strict=True)]
        if isinstance(found, str):
            self.error(source, found, clause.phrases[0].noun.offset)
            return
        if found.fact_type not in self.schema.fact_types:
            self._membership(source, found.fact_type, nouns, values)
            return
        missing = [p.noun.name for p, v in zip(clause.phrases, values, strict=True) if v is None]
        if missing:
            self.error(
                source,
                f"an instance fact gives every role a value: quote one for"
                f" {', '.join(missing)} (e.g. {missing[0]} 'x')",
            )
            return
        ordered = [""] * len(values)
        for value, role in zip(values, found.roles, strict=True):
            ordered[role] = value or ""
        fact = InstanceFact(found.fact_type, tuple(ordered), source)
        problem = (url_problem(ordered[1]) if found.fact_type == EXTERNAL_SYSTEM_URL
                   else setting_problem(found.fact_type, ordered[-1]))
        if problem is not None:
            self.error(source, problem)
            return
        if self._contradicts_reference(source, fact):
            return
        self.emit(source, fact)
        if found.fact_type in MACHINE_FACT_TYPES:
            self.schema.machine_facts.append(fact)
        if found.fact_type == "State_Machine_Definition_is_for_Noun":
            self.schema.machines.add(ordered[1])
            implicit = (ordered[1], "Status")
            self.schema.add_fact_type(
                FactTypeDecl(
                    fact_type_id(implicit, ("", "has", "")),
                    implicit,
                    (Reading((0, 1), ("", "has", "")),),
                    "",
                    source,
                )
            )

    def _membership(self, source: Source, fact_type: str, nouns: tuple[str, ...],
                    values: list[str | None]) -> None:
        """``Clinician 'x' is a Nurse.`` (or ``… is a Nurse 'x'``): the entity is in the
        subtype, a fact of its unary membership fact type; two different names are two
        entities, which no membership relates."""
        named = set(filter(None, values))
        if len(named) != 1:
            self.error(
                source,
                f"a membership fact names one entity: write {nouns[0]} 'x' is a {nouns[1]}.",
            )
            return
        self.emit(source, InstanceFact(fact_type, (named.pop(),), source))

    def _contradicts_reference(self, source: Source, fact: InstanceFact) -> bool:
        """A fact that gives an entity a different value for its own reference mode
        (``Brand 'acme' has Brand Name 'Acme Corp'`` where Brand is identified by Brand
        Name) contradicts the reference scheme: ``Brand 'acme'`` *is* the Brand whose
        Brand Name is 'acme'."""
        ft = self.schema.fact_types[fact.fact_type]
        if len(ft.roles) != 2:
            return False
        owner = self.schema.nouns.get(ft.roles[0])
        if owner is None or owner.reference != (ft.roles[1],) or fact.values[0] == fact.values[1]:
            return False
        self.error(
            source,
            f"{ft.roles[0]} '{fact.values[0]}' is identified by {ft.roles[1]}"
            f" '{fact.values[0]}' ({ft.roles[0]}(.{ft.roles[1]})), so it cannot have"
            f" {ft.roles[1]} '{fact.values[1]}'; write {ft.roles[0]} '{fact.values[1]}' to"
            f" name that {ft.roles[0]}, or identify {ft.roles[0]} by another reference mode",
        )
        return True

    def identification(self, source: Source, st: Statement) -> None:
        """``This association with A, B provides the preferred identification scheme for X``."""
        noun = st.parts["noun"].name
        wanted = sorted(n.name for n in st.parts["nouns"])
        for source_, construct in list(self.constructs):
            if isinstance(construct, Objectification) and construct.noun == noun:
                roles = self.schema.fact_types[construct.fact_type].roles
                if sorted(roles) != wanted:
                    self.error(
                        source,
                        f"{noun} objectifies {construct.fact_type}, whose roles"
                        f" are {', '.join(roles)}, not {', '.join(wanted)}",
                    )
                    return
                index = self.constructs.index((source_, construct))
                self.constructs[index] = (
                    source_,
                    Objectification(noun, construct.fact_type, True, construct.source),
                )
                return
        self.error(
            source,
            f"{noun} objectifies no fact type: declare it first with"
            f" `{noun}(.id) is an entity type where <reading>.`",
        )


def _has_literal(clauses: tuple[Clause, ...]) -> bool:
    return any(p.literal is not None for c in clauses for p in c.phrases)


def _describe(decl: NounDecl) -> str:
    if decl.kind == "entity":
        return f"an entity type identified by ({', '.join('.' + r for r in decl.reference)})"
    return "a value type" if decl.kind == "value" else "an abstract type"


def _article(decl: NounDecl) -> str:
    return {"entity": "an entity type", "value": "a value type"}.get(decl.kind, "abstract")
