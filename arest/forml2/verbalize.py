"""Constructs → canonical FORML 2: each construct said as the sentence(s) that read back to it.

The sentence is generated from the construct and the schema it was read against, never
echoed from its source, so non-canonical sources normalise: ``No Task blocks the same
Task. (irreflexive)`` is said ``Task blocks Task is irreflexive.``.  Reading the result
against the same schema gives an equal construct (ids, readings and sources aside).

>>> from arest.forml2 import metamodel, read, verbalize
>>> r = read("Task(.Task Id) is an entity type.\\nTask blocks Task.\\n"
...          "No Task blocks the same Task. (irreflexive)\\n", known=metamodel())
>>> verbalize(r.constructs[-1], r)
'Task blocks Task is irreflexive.'
>>> verbalize(r.constructs[0], r)
'Task(.Task Id) is an entity type.'
"""

from __future__ import annotations

import re

from arest.forml2.build import RESERVED
from arest.forml2.constraints import RING
from arest.forml2.constructs import (
    Aggregation,
    Atom,
    Computation,
    Condition,
    Constraint,
    Construct,
    DerivationRule,
    FactTypeDecl,
    InstanceFact,
    NounDecl,
    Objectification,
    Possibility,
    Reading,
    Span,
    SubtypeDecl,
)
from arest.forml2.lexicon import STOPWORDS
from arest.forml2.parser import keywords
from arest.forml2.reader import Reading as Known
from arest.forml2.rules import implied_adjective
from arest.forml2.schema import Resolution, Schema

_ADJECTIVE = {v: k for k, v in RING.items()}
_COMPARATOR = {
    "<": "less than",
    ">": "greater than",
    "=": "equal to",
    "<=": "less than or equal to",
    ">=": "greater than or equal to",
    "<>": "not equal to",
}
_SETQ = {"XO": "exactly one", "XC": "at most one", "OR": "at least one"}
_OPERATORS = frozenset({"plus", "minus", "times", "divided by", "reduced by", "+", "-", "*", "/"})
_NUMERAL = re.compile(r"-?\d+(\.\d+)?")


class VerbalizationError(ValueError):
    """Raised by :func:`verbalize` for a construct no FORML 2 sentence of the grammar reads
    back to (a deontic acyclic ring, a uniqueness over some but not all of a ternary's
    other roles, a rule atom whose variable its reading cannot name); the message says
    which construct and why."""


def verbalize(construct: Construct, known: Known) -> str:
    """The canonical sentence(s) of ``construct``, one per line, in the terms of ``known``
    (the reading it came from, or one with the same schema)."""
    return _Speaker(known.schema).say(construct)


def quote(value: str) -> str:
    """A literal: ``'…'`` with ``''`` for a quote.

    >>> quote("it's")
    "'it''s'"
    """
    return "'" + value.replace("'", "''") + "'"


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def _bound_text(low: int | None, high: int | None) -> str:
    """``at most one``, ``exactly 3``, ``more than one``, ``at least 2 and at most 5``."""

    def number(n: int) -> str:
        return "one" if n == 1 else str(n)

    if low == high and low is not None:
        return f"exactly {number(low)}"
    if high is None and low == 2:
        return "more than one"
    if high is None and low is not None:
        return f"at least {number(low)}"
    if low is None and high is not None:
        return f"at most {number(high)}"
    return f"at least {number(low or 0)} and at most {number(high or 0)}"


def needs_quoting(name: str) -> bool:
    """Whether a noun's declaration must quote it (``Noun 'Each Way Bet' …``): it holds a
    reserved word or a keyword, or a word that is not capitalised.

    >>> needs_quoting("Each Way Bet"), needs_quoting("Order Number")
    (True, False)
    """
    words = name.split()
    lowered = f" {name.lower()} "
    return (
        any(f" {word} " in lowered for word in RESERVED)
        or any(w in STOPWORDS or not w[:1].isupper() for w in words)
        or not all(w.replace("_", "").isalnum() for w in words)
    )


class _Speaker:
    """Says constructs against one schema."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema

    # ---- dispatch ---------------------------------------------------------------------------
    def say(self, construct: Construct) -> str:
        if isinstance(construct, NounDecl):
            return self.noun_decl(construct)
        if isinstance(construct, FactTypeDecl):
            readings = " / ".join(r.text(construct.roles) for r in construct.readings)
            return f"{readings}." + (f" {construct.mode}" if construct.mode else "")
        if isinstance(construct, SubtypeDecl):
            return f"{self.declared(construct.sub)} is a subtype of {construct.sup}."
        if isinstance(construct, Objectification):
            return self.objectification(construct)
        if isinstance(construct, InstanceFact):
            return self.instance_fact(construct)
        if isinstance(construct, Constraint):
            return self.constraint(construct)
        if isinstance(construct, Possibility):
            return self.possibility(construct)
        return self.rule(construct)

    def fact_type(self, fact_type: str) -> FactTypeDecl:
        found = self.schema.fact_types.get(fact_type)
        if found is None:
            raise VerbalizationError(f"{fact_type} is not a fact type of this schema")
        return found

    def declared(self, name: str) -> str:
        return f"Noun {quote(name)}" if needs_quoting(name) else name

    # ---- declarations -----------------------------------------------------------------------
    def noun_decl(self, decl: NounDecl) -> str:
        name = self.declared(decl.name)
        if decl.kind == "value":
            return f"{name} is a value type."
        if decl.kind == "abstract":
            return f"{name} is abstract."
        return f"{name}{self.refmode(decl)} is an entity type."

    def refmode(self, decl: NounDecl) -> str:
        if not decl.reference:
            return ""
        return "(" + ", ".join("." + r for r in decl.reference) + ")"

    def objectification(self, obj: Objectification) -> str:
        ft = self.fact_type(obj.fact_type)
        decl = self.schema.nouns.get(obj.noun, NounDecl(obj.noun, "entity", ("id",)))
        text = (
            f"{self.declared(obj.noun)}{self.refmode(decl)} is an entity type where"
            f" {ft.readings[0].text(ft.roles)}."
        )
        if obj.identifying:
            nouns = list(ft.roles)
            listed = ", ".join(nouns[:-1]) + (", and " if len(nouns) > 2 else " and ")
            listed = nouns[0] if len(nouns) == 1 else listed + nouns[-1]
            text += (
                f"\nThis association with {listed} provides the preferred identification"
                f" scheme for {obj.noun}."
            )
        return text

    def instance_fact(self, fact: InstanceFact) -> str:
        ft = self.fact_type(fact.fact_type)
        phrases = {role: f"{ft.roles[role]} {quote(v)}" for role, v in enumerate(fact.values)}
        return _capitalise(self.clause(ft, ft.readings[0], phrases)) + "."

    # ---- clauses ----------------------------------------------------------------------------
    def clause(
        self,
        ft: FactTypeDecl,
        reading: Reading,
        phrases: dict[int, str],
        determiners: dict[int, str] | None = None,
    ) -> str:
        """A reading with each role's phrase; a determiner before a noun after predicate
        words takes their trailing adjective along (``has at most one parent Task``)."""
        dets = determiners or {}
        parts = [reading.words[0]]
        for position, role in enumerate(reading.order):
            det = dets.get(role, "")
            words = parts.pop()
            adjective = implied_adjective(words) if position else ""
            if det and adjective and adjective not in keywords() and adjective.isalpha():
                words = words[: -len(adjective)].rstrip()
                det = f"{det} {adjective}"
            parts.append(words)
            parts.append(f"{det} {phrases[role]}" if det else phrases[role])
            parts.append(reading.words[position + 1])
        return " ".join(p for p in parts if p)

    def reading_where(
        self, ft: FactTypeDecl, first: int | None = None, last: int | None = None
    ) -> Reading | None:
        """A reading of ``ft`` that mentions role ``first`` first (or ``last`` last)."""
        for reading in ft.readings:
            if first is not None and reading.order[0] == first:
                return reading
            if last is not None and reading.order[-1] == last:
                return reading
        return None

    def inverse(self, ft: FactTypeDecl, first: int) -> Reading | None:
        """For a binary fact type with no reading from role ``first``, the generic inverse
        ``<that role's noun> has <the other>``, when it resolves to ``ft`` alone."""
        if len(ft.roles) != 2:
            return None
        reading = Reading((first, 1 - first), ("", "has", ""))
        nouns = tuple(ft.roles[r] for r in reading.order)
        found = self.schema.resolve(nouns, reading.words)
        return reading if found == Resolution(ft.id, reading.order) else None

    def membership(self, fact_type: str) -> tuple[str, str] | None:
        for link in self.schema.subtypes:
            if link.membership == fact_type:
                return link.sup, link.sub
        return None

    # ---- constraints ------------------------------------------------------------------------
    def constraint(self, c: Constraint) -> str:
        if c.kind == "VC" and c.comparison is None:
            values = ", ".join(quote(v) for v in c.values)
            return f"The possible values of {c.noun} are {values}."
        if c.kind in _SETQ:
            return self.set_comparison(c)
        if c.kind == "SS":
            return self.subset(c)
        if c.kind == "EQ":
            return self.equality(c)
        (span,) = self.single(c)
        if c.kind in _ADJECTIVE:
            return self.ring(c, span)
        if c.kind == "VC":
            return self.comparison(c, span)
        return self.cardinality(c, span)

    def single(self, c: Constraint) -> tuple[Span]:
        if len(c.spans) != 1 or len(c.spans[0]) != 1:
            raise VerbalizationError(f"a {c.kind} constraint spans one fact type: {c.spans}")
        return (c.spans[0][0],)

    def deontic(self, c: Constraint, body: str) -> str:
        if c.modality != "deontic":
            return _capitalise(body) + "."
        return f"It is {c.operator} that {body}."

    def cardinality(self, c: Constraint, span: Span) -> str:
        ft = self.fact_type(span.fact_type)
        arity = len(ft.roles)
        bounds = {"UC": (None, 1), "MC": (1, None)}.get(c.kind) or c.bounds or (None, None)
        quantifier = "some" if c.kind == "MC" else _bound_text(*bounds)
        if c.kind != "MC" and set(span.roles) == set(range(arity)):
            return self.spanning(c, ft)
        if c.kind == "MC":
            (subject,) = span.roles
            counted = next((r for r in range(arity) if r != subject), None)
        else:
            missing = [r for r in range(arity) if r not in span.roles]
            if len(missing) != 1:
                raise VerbalizationError(
                    f"{c.kind} over roles {span.roles} of {ft.id}: a uniqueness or frequency"
                    " spans all roles, or all but the counted one"
                )
            counted = missing[0]
            subject = next(r for r in range(arity) if r != counted)
        if counted is None:
            raise VerbalizationError(f"a mandatory role of the unary {ft.id} has no sentence")
        reading = next(
            (r for r in ft.readings if r.order[0] != counted and r.order[0] in span.roles), None
        )
        if reading is not None:
            dets = {role: "" for role in range(arity)}
            dets[reading.order[0]] = "each"
            dets[counted] = quantifier
            phrases = {role: ft.roles[role] for role in range(arity)}
            return self.deontic(c, self.clause(ft, reading, phrases, dets))
        if c.modality == "deontic":
            inverse = self.inverse(ft, subject)
            if inverse is None:
                raise VerbalizationError(f"no reading of {ft.id} starts with a role it spans")
            dets = {subject: "each", counted: quantifier}
            phrases = {role: ft.roles[role] for role in range(arity)}
            return self.deontic(c, self.clause(ft, inverse, phrases, dets))
        # The external form names the counted-over roles with anaphoric `that`.
        reading = ft.readings[0]
        if c.kind == "MC":
            quantifier = "at least one"
        # `some` on the roles neither named nor counted (a mandatory role of a ternary).
        named = list(span.roles)
        dets = {role: "that" if role in named else "some" for role in range(arity)}
        dets[counted] = quantifier
        phrases = {role: ft.roles[role] for role in range(arity)}
        nouns = " and ".join(ft.roles[r] for r in named)
        return f"For each {nouns}, {self.clause(ft, reading, phrases, dets)}."

    def spanning(self, c: Constraint, ft: FactTypeDecl) -> str:
        if c.kind != "UC" or c.modality != "alethic":
            raise VerbalizationError(f"a {c.modality} {c.kind} over every role has no sentence")
        nouns = ", ".join(ft.roles)
        return (
            f"In each population of {ft.readings[0].text(ft.roles)}, each {nouns} combination"
            " occurs at most once."
        )

    def comparison(self, c: Constraint, span: Span) -> str:
        assert c.comparison is not None
        ft = self.fact_type(span.fact_type)
        (role,) = span.roles
        reading = self.reading_where(ft, last=role)
        if reading is None:
            raise VerbalizationError(f"no reading of {ft.id} ends with role {role}")
        op, operand = c.comparison
        value = operand if _NUMERAL.fullmatch(operand) else quote(operand)
        subject = ft.roles[reading.order[0]]
        det = "each" if c.operator in ("", "obligatory") else _article(subject)
        phrases = {r: ft.roles[r] for r in range(len(ft.roles))}
        body = self.clause(ft, reading, phrases, {reading.order[0]: det})
        return self.deontic(c, f"{body} {_COMPARATOR[op]} {value}")

    def ring(self, c: Constraint, span: Span) -> str:
        ft = self.fact_type(span.fact_type)
        if len(ft.roles) != 2 or len(set(ft.roles)) != 1:
            raise VerbalizationError(f"{ft.id} is not a ring fact type")
        reading = ft.readings[0]
        if c.modality == "alethic":
            return f"{reading.text(ft.roles)} is {_ADJECTIVE[c.kind]}."
        noun = ft.roles[0]
        first, second = reading.order

        def said(x: str, y: str, det_x: str = "", det_y: str = "") -> str:
            dets = {first: det_x, second: det_y}
            return self.clause(ft, reading, {first: x, second: y}, dets)

        n1, n2, n3 = f"{noun}1", f"{noun}2", f"{noun}3"
        bodies = {
            "IR": said(noun, noun, "no", "the same"),
            "SY": f"if {said(n1, n2, 'some', 'some')} then {said(n2, n1, 'that', 'that')}",
            "AS": f"if {said(n1, n2, 'some', 'some')} then it is impossible that"
            f" {said(n2, n1, 'that', 'that')}",
            "TR": f"if {said(n1, n2)} and {said(n2, n3)} then {said(n1, n3)}",
            "IT": f"if {said(n1, n2)} and {said(n2, n3)} then it is impossible that {said(n1, n3)}",
            "RF": f"if {said(n1, n2, 'some', 'some')} then {said(n1, 'itself', 'that')}",
        }
        if c.kind not in bodies:
            raise VerbalizationError(f"a deontic {_ADJECTIVE[c.kind]} constraint has no sentence")
        return self.deontic(c, bodies[c.kind])

    def set_clause(self, span: Span, det_first: str) -> tuple[str, str]:
        """One clause of a set comparison and the noun of its spanned role."""
        (role,) = span.roles
        link = self.membership(span.fact_type)
        if link is not None:
            sup, sub = link
            return f"{det_first} {sup} is {_article(sub)} {sub}", sup
        ft = self.fact_type(span.fact_type)
        reading = ft.readings[0]
        dets = {r: "some" for r in range(len(ft.roles))}
        dets[role] = det_first
        phrases = {r: ft.roles[r] for r in range(len(ft.roles))}
        return self.clause(ft, reading, phrases, dets), ft.roles[role]

    def set_comparison(self, c: Constraint) -> str:
        if c.modality != "alethic":
            raise VerbalizationError("a set comparison has no deontic sentence")
        said = [self.set_clause(spans[0], "that") for spans in c.spans]
        nouns = {noun for _, noun in said}
        clauses = "; ".join(text for text, _ in said)
        if len(nouns) == 1:
            return f"For each {nouns.pop()}, {_SETQ[c.kind]} of the following holds: {clauses}."
        raise VerbalizationError(f"the clauses of a {c.kind} constraint span different nouns")

    def equality(self, c: Constraint) -> str:
        left, left_noun = self.set_clause(c.spans[0][0], "some")
        right, right_noun = self.set_clause(c.spans[1][0], "that")
        if left_noun != right_noun:
            raise VerbalizationError("an equality constraint spans one noun's roles")
        return _capitalise(f"{left} if and only if {right}.")

    def subset(self, c: Constraint) -> str:
        """``If some A … some B then that A … some C``: the spanned roles are the variables
        the clauses share; a noun that appears twice in one clause gets subscripts."""
        clauses: list[str] = []
        seen: set[str] = set()
        counts: dict[str, int] = {}
        spanned: list[tuple[FactTypeDecl, tuple[int, ...]]] = []
        for spans in c.spans:
            (span,) = spans
            spanned.append((self.fact_type(span.fact_type), span.roles))
        repeated = {n for ft, _ in spanned for n in ft.roles if ft.roles.count(n) > 1}
        for index, (ft, roles) in enumerate(spanned):
            consequent = index == len(spanned) - 1
            phrases: dict[int, str] = {}
            dets: dict[int, str] = {}
            occurrence: dict[str, int] = {}
            for role, noun in enumerate(ft.roles):
                occurrence[noun] = occurrence.get(noun, 0) + 1
                if role in roles:
                    variable = noun + (str(occurrence[noun]) if noun in repeated else "")
                else:
                    counts[noun] = counts.get(noun, 0) + 1
                    variable = noun + (str(10 + counts[noun]) if noun in repeated else "")
                phrases[role] = variable
                dets[role] = "that" if variable in seen and role in roles else "some"
                if not consequent:
                    seen.add(variable)
            clauses.append(self.clause(ft, ft.readings[0], phrases, dets))
        body = f"if {' and '.join(clauses[:-1])} then {clauses[-1]}"
        return self.deontic(c, body)

    def possibility(self, p: Possibility) -> str:
        ft = self.fact_type(p.fact_type)
        reading = self.reading_where(ft, first=p.role) or self.inverse(ft, p.role)
        if reading is None:
            raise VerbalizationError(f"no reading of {ft.id} starts with role {p.role}")
        quantifier = "some" if p.bounds is None else _bound_text(*p.bounds)
        dets = {r: "some" for r in range(len(ft.roles))}
        if len(reading.order) > 1:
            dets[reading.order[1]] = quantifier
        else:
            dets[p.role] = quantifier
        phrases = {r: ft.roles[r] for r in range(len(ft.roles))}
        return f"It is possible that {self.clause(ft, reading, phrases, dets)}."

    # ---- derivation rules -------------------------------------------------------------------
    def rule(self, rule: DerivationRule) -> str:
        head = self.atom(rule.consequent)
        conditions = self.conditions(rule.conditions)
        if rule.keyword == "if-then":
            return f"{rule.mode} If {conditions} then {head}."
        return f"{rule.mode} {_capitalise(head)} {rule.keyword} {conditions}."

    def conditions(self, conditions: tuple[Condition, ...], named: tuple[str, ...] = ()) -> str:
        """Conditions joined by ``and``, leaving out the trailing ``has`` atoms the reader
        adds for the possessives (``that Order's Amount``) they or ``named`` name."""
        written = list(conditions)
        possessives = {p for p in named if "'s " in p} | {
            part
            for c in conditions
            if isinstance(c, Computation)
            for part in c.expression
            if "'s " in part
        }
        while (
            written
            and isinstance(written[-1], Atom)
            and any(t in possessives for t in written[-1].terms)
        ):
            written.pop()
        if any(isinstance(c, Aggregation) for c in written[:-1]):
            raise VerbalizationError("an aggregation is a rule's last condition")
        return " and ".join(self.condition(c) for c in written)

    def condition(self, condition: Condition) -> str:
        if isinstance(condition, Atom):
            return self.atom(condition)
        if isinstance(condition, Computation):
            parts = [
                part
                if part in _OPERATORS or _NUMERAL.fullmatch(part) or part.startswith("'")
                else f"that {part}"
                for part in condition.expression
            ]
            return f"{condition.variable} is {' '.join(parts)}"
        where = self.conditions(condition.where, (condition.target,))
        return f"{condition.variable} is the {condition.op} of {condition.target}" + (
            f" where {where}" if where else ""
        )

    def atom(self, atom: Atom) -> str:
        link = self.membership(atom.fact_type)
        if link is not None:
            sup, sub = atom.terms
            det = "no " if atom.negated else ""
            return f"{det}{sup} is {_article(sub)} {sub}"
        ft = self.fact_type(atom.fact_type)
        reading = ft.readings[0]
        phrases: dict[int, str] = {}
        for position, role in enumerate(reading.order):
            noun, term = ft.roles[role], atom.terms[role]
            if term.startswith("'"):
                phrases[role] = f"{noun} {term}"
                continue
            adjective = implied_adjective(reading.words[position]) if position else ""
            bare = term[len(adjective) + 1 :] if adjective else term
            if adjective and not term.startswith(adjective + " "):
                raise VerbalizationError(f"{term} cannot follow `{reading.words[position]}`")
            if bare.rstrip("0123456789") != noun:
                raise VerbalizationError(f"the variable {term} does not name a {noun}")
            phrases[role] = bare
        dets = {reading.order[0]: "no"} if atom.negated else {}
        return self.clause(ft, reading, phrases, dets)
