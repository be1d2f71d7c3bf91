"""Syntax → derivation rules: clauses become atoms, comparisons, computations and
aggregations.

A condition's clause reads a fact type by its words: a reading with the clause's nouns, or
with a supertype in place of a subtype (an Employee plays the roles of a Person; the
nearest supertype first), its predicate negated or not (``is not``, ``does not report
to``, ``has no``); ``<A> is a <B>`` for a subtype B of A is B's membership; a binary ``<A>
has <B>`` also finds the one fact type between A and B.  A clause whose words read another
fact type of the same nouns is a diagnostic, never that fact type.

A clause ``<X> is <comparator> <operand>`` (``that Amount is greater than 100``, ``Start
Time1 is less than Start Time2``) is a :class:`Comparison`; a clause of a fact type
followed by a comparison (``Order has Amount greater than 100``) is its atom and a
comparison of the last phrase's term.  A negated clause cannot compare (``Customer has
no Tier equal to 'gold'``): a comparison is a condition of its own, not denied with an atom.
"""

from __future__ import annotations

from collections.abc import Iterator

from arest.forml2.constraints import Interpreter
from arest.forml2.constructs import (
    Aggregation,
    Atom,
    Comparison,
    Computation,
    Condition,
    DerivationRule,
    FactTypeDecl,
    Reading,
    rule_id,
)
from arest.forml2.negation import affirmatives
from arest.forml2.schema import Resolution, fact_type_id, normal
from arest.forml2.syntax import Aggregate, Clause, Computed, Phrase
from arest.forml2.syntax import Comparison as Compared

_PREPOSITIONS = frozenset({"by", "to", "in", "of", "for", "with", "at", "on", "from", "per", "via"})
_LINKS = frozenset({"into", "as", "has", "have", "is", "are", "a", "an", "the", "and", "or"})
_NOT_ADJECTIVES = _PREPOSITIONS | _LINKS


def implied_adjective(before: str) -> str:
    """The adjective that the predicate words before a noun lend its rule variable: their
    last word, when there are several and it is not a preposition, verb or article
    (``has done`` + ``Task Count`` names ``done Task Count``).

    >>> implied_adjective("has done"), implied_adjective("is assigned to"), implied_adjective("has")
    ('done', '', '')
    """
    words = before.split()
    return words[-1] if len(words) > 1 and words[-1] not in _NOT_ADJECTIVES else ""


def literal(value: str) -> str:
    """A literal as a rule term: quoted, ``''`` for a quote.

    >>> literal("Done"), literal("it's")
    ("'Done'", "'it''s'")
    """
    return "'" + value.replace("'", "''") + "'"


def _written(item: Clause | Computed | Aggregate | Phrase | str) -> Iterator[str]:
    """The variables a rule's syntax names as written (noun and subscript)."""
    if isinstance(item, Phrase):
        yield item.noun.name + item.noun.subscript
    elif isinstance(item, Clause):
        for phrase in item.phrases:
            yield from _written(phrase)
        if item.comparison is not None:
            yield from _written(item.comparison.operand)
    elif isinstance(item, Computed):
        for part in (item.target, *item.expression):
            yield from _written(part)
    elif isinstance(item, Aggregate):
        yield from _written(item.target)
        yield from _written(item.of)
        for condition in item.where:
            yield from _written(condition)


class Rules:
    """Derivation rules: clauses → atoms, comparisons, computations and aggregations."""

    def __init__(self, interpreter: Interpreter) -> None:
        self.i = interpreter
        self.b = interpreter.b
        self.extra: list[Atom] = []
        self.used: set[str] = set()

    # ---- variables --------------------------------------------------------------------------
    def variable(self, phrase: Phrase, before: str = "") -> str:
        name = self.b.noun(self.i.source, phrase.noun)
        subscript = phrase.noun.subscript or phrase.noun.name[len(name) :]
        name += subscript
        # A subscript names the variable outright (``is near Node2``): the words before it
        # are the predicate's, not an adjective of the variable.
        adjective = "" if subscript.isdigit() else phrase.pre or implied_adjective(before)
        base = f"{adjective} {name}" if adjective else name
        for step in phrase.path:
            owner = base
            target = self.b.noun(self.i.source, step)
            base = f"{owner}'s {target}"
            found = self.b.schema.resolve((name, target), ("", "has", ""))
            if isinstance(found, str):
                self.b.error(self.i.source, found, step.offset)
            else:
                terms = [owner, base]
                ordered = [terms[found.roles.index(r)] for r in range(2)]
                self.extra.append(Atom(found.fact_type, tuple(ordered)))
            name = target
        return base

    def fresh(self, variable: str, noun: str) -> str:
        """``variable`` made distinct by the first subscript the rule does not use."""
        subscript = 2
        while f"{noun}{subscript}" in self.used:
            subscript += 1
        self.used.add(f"{noun}{subscript}")
        return f"{variable}{subscript}"

    def values(self, clause: Clause, words: tuple[str, ...]) -> list[str]:
        """Per phrase, its term: a literal, or the variable the phrase names given the
        predicate ``words`` before it.  An unsubscripted variable named twice is two
        objects: see :class:`Atom`."""
        values: list[str] = []
        plain: dict[str, list[int]] = {}
        for index, phrase in enumerate(clause.phrases):
            if phrase.literal is not None:
                values.append(literal(phrase.literal))
            elif phrase.itself:
                values.append(values[0])
            else:
                values.append(self.variable(phrase, words[index]))
                noun = self.b.noun(self.i.source, phrase.noun)
                if noun == phrase.noun.name + phrase.noun.subscript and not phrase.path:
                    plain.setdefault(values[-1], []).append(index)
        for indices in plain.values():
            anchors = [i for i in indices if clause.phrases[i].det == "that"] or indices[:1]
            for index in indices:
                if index not in anchors:
                    noun = self.b.noun(self.i.source, clause.phrases[index].noun)
                    values[index] = self.fresh(values[index], noun)
        return values

    # ---- fact types -------------------------------------------------------------------------
    def lookup(
        self, clause: Clause, loose: bool = True
    ) -> tuple[Resolution, tuple[str, ...]] | str:
        """The fact type a condition's clause reads and its affirmative predicate words,
        or why there is none (see the module docstring); not ``loose``, a clause ``<A> has
        <B>`` reads only a reading that says so."""
        schema = self.b.schema
        subject = clause.phrases[0]
        nouns = tuple(
            self.b.noun(self.i.source, subject.noun if p.itself else p.noun) for p in clause.phrases
        )
        written = tuple(
            " ".join(
                w for w in (clause.words[i], clause.phrases[i].pre if i < len(nouns) else "") if w
            )
            for i in range(len(clause.words))
        )
        forms = [written]
        for index, segment in enumerate(written):
            forms = [(*f[:index], a, *f[index + 1 :]) for f in forms for a in affirmatives(segment)]
        for words in forms:
            for group in schema.generalisations(nouns):
                matches = {
                    r
                    for candidate in group
                    if isinstance(r := schema.resolve(candidate, words, exact=True), Resolution)
                }
                if len(matches) > 1:
                    listed = "; ".join(sorted(r.fact_type for r in matches))
                    return (
                        f"`{_said(nouns, words)}` reads {listed} through different supertypes:"
                        " name the supertype whose fact type is meant"
                    )
                if matches:
                    return matches.pop(), words
        words = forms[0]
        said = _said(nouns, words)
        found = schema.resolve(nouns, words)
        plain = tuple(normal(w) for w in words)
        if isinstance(found, str):
            same = [schema.reading_text(schema.fact_types[f]) for f in schema.candidates(nouns)]
            if not same:
                return found
            return (
                f"no fact type reads `{said}`: use one of the readings with its nouns"
                f" ({'; '.join(same)}), or declare `{said}.`"
            )
        if len(nouns) == 2 and (
            (plain[1] in ("is a", "is an") and not plain[2] and self.membership(found.fact_type))
            or (loose and plain == ("", "has", ""))
        ):
            return found, words
        other = schema.fact_types.get(found.fact_type)
        named = schema.reading_text(other) if other is not None else found.fact_type
        return (
            f"no fact type reads `{said}`: use the reading with its nouns ({named}), or"
            f" declare `{said}.`"
        )

    def membership(self, fact_type: str) -> bool:
        return any(link.membership == fact_type for link in self.b.schema.subtypes)

    def atom(self, clause: Clause) -> tuple[Atom, list[str]] | None:
        """The clause's atom and each phrase's term, or None after a diagnostic."""
        found = self.lookup(clause)
        if isinstance(found, str):
            self.b.error(self.i.source, found, clause.phrases[0].noun.offset)
            return None
        resolution, words = found
        values = self.values(clause, words)
        negated = any(p.det == "no" for p in clause.phrases) or any(
            "not" in w.split() for w in clause.words
        )
        if self.membership(resolution.fact_type):
            return Atom(resolution.fact_type, (values[0],), negated), values
        terms = [""] * len(resolution.roles)
        for index, value in enumerate(values):
            terms[resolution.roles[index]] = value
        return Atom(resolution.fact_type, tuple(terms), negated), values

    # ---- conditions -------------------------------------------------------------------------
    def operand(self, compared: Compared) -> str:
        operand = compared.operand
        if isinstance(operand, str):
            return literal(operand) if compared.quoted else operand
        return literal(operand.literal) if operand.literal is not None else self.variable(operand)

    def comparison(self, clause: Clause) -> list[Condition]:
        """``that Amount is greater than 100``: a comparison; ``Order has Amount greater
        than 100``: the atom and a comparison of its last phrase's term."""
        compared = clause.comparison
        assert compared is not None
        negated = (
            "a negated condition cannot compare: the comparison would not be denied with it;"
            " compare in a condition of its own (`… and that Amount is greater than 100`)"
        )
        if len(clause.phrases) == 1 and tuple(normal(w) for w in clause.words) == ("", "is"):
            (subject,) = clause.phrases
            if subject.det == "no":
                self.b.error(self.i.source, negated, subject.noun.offset)
                return []
            left = literal(subject.literal) if subject.literal is not None else None
            left = left or self.variable(subject)
            return [Comparison(left, compared.op, self.operand(compared))]
        found = self.atom(Clause(clause.phrases, clause.words))
        if found is None:
            return []
        atom, values = found
        if atom.negated:
            self.b.error(self.i.source, negated, clause.phrases[0].noun.offset)
            return []
        return [atom, Comparison(values[-1], compared.op, self.operand(compared))]

    def condition(self, item: Clause | Computed | Aggregate, outer: set[str]) -> list[Condition]:
        if isinstance(item, Clause):
            if item.comparison is not None:
                return self.comparison(item)
            found = self.atom(item)
            return [] if found is None else [found[0]]
        if isinstance(item, Computed):
            expression = tuple(
                part if isinstance(part, str) else self.variable(part) for part in item.expression
            )
            return [Computation(self.variable(item.target), expression)]
        saved, self.extra = self.extra, []
        target = self.aggregate_target(item.of)
        where: list[Condition] = []
        for sub in item.where:
            where.extend(self.condition(sub, outer))
        where.extend(self.extra)
        self.extra = saved
        inner = {t for c in where if isinstance(c, Atom) for t in c.terms}
        group = tuple(sorted(v for v in inner & outer if v != target))
        return [Aggregation(self.variable(item.target), item.op, target, tuple(where), group)]

    def aggregate_target(self, phrase: Phrase) -> str:
        """``LineItem Amount``: an undeclared run of declared nouns is a role path."""
        name = phrase.noun.name
        if name not in self.b.schema.nouns:
            words = name.split()
            for cut in range(1, len(words)):
                owner, part = " ".join(words[:cut]), " ".join(words[cut:])
                if owner in self.b.schema.nouns and part in self.b.schema.nouns:
                    found = self.b.schema.resolve((owner, part), ("", "has", ""))
                    if isinstance(found, Resolution):
                        terms = [owner, f"{owner}'s {part}"]
                        self.extra.append(
                            Atom(
                                found.fact_type,
                                tuple(terms[found.roles.index(r)] for r in range(2)),
                            )
                        )
                        return terms[1]
        return self.variable(phrase)

    # ---- rules ------------------------------------------------------------------------------
    def rule(
        self,
        mode: str,
        keyword: str,
        consequent: Clause,
        disjuncts: tuple[tuple[Clause | Computed | Aggregate, ...], ...],
    ) -> None:
        """One :class:`DerivationRule` per disjunct of the body, all deriving the
        consequent's fact type: a fact holds when any disjunct derives it."""
        self.used = {
            name for item in (consequent, *(c for d in disjuncts for c in d))
            for name in _written(item)
        }
        errors = self.errors()
        if len(disjuncts) > 1 and any(isinstance(c, Aggregate) for d in disjuncts for c in d):
            self.b.error(
                self.i.source,
                "an aggregation cannot be one alternative of `or`: state each alternative"
                " as a rule of its own (`* A has B iff …` once per alternative)",
            )
            return
        head = self.consequent(consequent, mode or "*")
        if head is None:
            return
        # The consequent's possessives bind in every disjunct.
        shared: list[Condition] = list(self.extra)
        self.extra = []
        bodies = [self.body(head, conditions) + shared for conditions in disjuncts]
        if self.errors() > errors:
            # Without the condition it could not read, the rule would derive too much.
            return
        if len(bodies) > 1 and not self.bound_in_each(head, bodies):
            return
        reading = self.i.source.text
        declared = self.b.schema.fact_types.get(head.fact_type)
        for number, body in enumerate(bodies, start=1 if len(bodies) > 1 else 0):
            self.b.emit(
                self.i.source,
                DerivationRule(
                    mode or (declared.mode if declared is not None else "") or "*",
                    keyword,
                    head,
                    tuple(body),
                    rule_id(reading, number),
                    reading,
                    self.i.source,
                ),
            )

    def body(
        self, head: Atom, conditions: tuple[Clause | Computed | Aggregate, ...]
    ) -> list[Condition]:
        """One conjunction's conditions, with the atoms its possessives imply."""
        # Top-level atoms first: an aggregation groups by the variables they bind.
        atoms = {
            index: self.condition(item, set())
            for index, item in enumerate(conditions)
            if isinstance(item, Clause)
        }
        outer = set(head.terms) | {
            t for found in atoms.values() for c in found if isinstance(c, Atom) for t in c.terms
        }
        body: list[Condition] = []
        for index, item in enumerate(conditions):
            body.extend(atoms[index] if index in atoms else self.condition(item, outer))
        body.extend(self.extra)
        self.extra = []
        return body

    def bound_in_each(self, head: Atom, bodies: list[list[Condition]]) -> bool:
        """Whether every disjunct binds each of the consequent's variables (by a clause it
        affirms, or a computation); a diagnostic naming the first that does not."""
        for number, body in enumerate(bodies, start=1):
            bound = {t for c in body if isinstance(c, Atom) and not c.negated for t in c.terms}
            bound |= {c.variable for c in body if isinstance(c, Computation)}
            missing = [t for t in head.terms if not t.startswith("'") and t not in bound]
            if missing:
                self.b.error(
                    self.i.source,
                    f"alternative {number} of the `or` does not name {missing[0]}, which the"
                    " consequent names: each alternative must say which"
                    f" {missing[0]} it derives the fact for",
                )
                return False
        return True

    def errors(self) -> int:
        return sum(not issue.warning for issue in self.b.issues)

    def consequent(self, clause: Clause, mode: str) -> Atom | None:
        """The consequent's atom; a consequent that reads no fact type (nor, for a
        subtype, its supertype's) is declared here, derived, with the rule's mode."""
        if clause.comparison is not None:
            compared = clause.comparison
            operand = compared.operand
            if isinstance(operand, Phrase):
                said = operand.noun.name + operand.noun.subscript
            else:
                said = literal(operand) if compared.quoted else operand
            self.b.error(
                self.i.source,
                f"the consequent of a derivation rule cannot compare (`{compared.op} {said}`):"
                " derive the fact, and compare in a condition",
            )
            return None
        nouns = tuple(self.b.noun(self.i.source, p.noun) for p in clause.phrases)
        named = set(self.used)
        found = self.lookup(clause, loose=False)
        if isinstance(found, str) and all(not p.det or p.det == "that" for p in clause.phrases):
            reading = Reading(tuple(range(len(nouns))), clause.words)
            decl = FactTypeDecl(
                fact_type_id(nouns, clause.words), nouns, (reading,), mode, self.i.source
            )
            self.b.schema.add_fact_type(decl)
            self.b.emit(self.i.source, decl)
        atom = self.atom(clause)
        if atom is not None and self.used != named:
            # A second object the conditions could not name: no fact could be derived.
            noun = min(self.used - named).rstrip("0123456789")
            self.b.error(
                self.i.source,
                f"the consequent names {noun} twice: write {noun}1 and {noun}2 for two"
                " objects, or `itself` for one",
            )
            return None
        return None if atom is None else atom[0]


def _said(nouns: tuple[str, ...], words: tuple[str, ...]) -> str:
    """A clause's text from its nouns and predicate words."""
    parts = [words[0]]
    for noun, after in zip(nouns, words[1:], strict=True):
        parts += [noun, after]
    return " ".join(p for p in parts if p)
