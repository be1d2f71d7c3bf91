"""Constraints and possibilities → canonical FORML 2 (docs/readings.md, "Canonical forms").

>>> from arest.forml2 import read
>>> r = read("Task(.Task Id) is an entity type.\\nTag is a value type.\\nTask has Tag.\\n"
...          "Each Task has at most one Tag.\\n")
>>> ConstraintSentences(r.schema).constraint(r.constructs[-1])
'Each Task has at most one Tag.'
"""

from __future__ import annotations

from arest.forml2.constraints import RING
from arest.forml2.constructs import Constraint, FactTypeDecl, Possibility, Span
from arest.forml2.phrasing import (
    COMPARATORS,
    NUMERAL,
    Phrasing,
    VerbalizationError,
    article,
    bound_text,
    capitalise,
    quote,
)
from arest.forml2.schema import Resolution

_ADJECTIVE = {v: k for k, v in RING.items()}
_SETQ = {"XO": "exactly one", "XC": "at most one", "OR": "at least one"}


class ConstraintSentences(Phrasing):
    """Says constraints and possibilities against one schema."""

    def constraint(self, c: Constraint) -> str:
        self.said_literals(c)
        if c.restrictions and c.kind not in ("SS", "EQ", *_SETQ):
            raise VerbalizationError(f"a {c.kind} constraint keeps no literal: {c}")
        if c.kind == "VC" and c.comparison is None:
            values = ", ".join(quote(v) for v in c.values)
            return f"The possible values of {c.noun} are {values}."
        if c.kind in _SETQ:
            return self.set_comparison(c)
        if c.kind == "SS":
            return self.subset(c)
        if c.kind == "EQ":
            return self.equality(c)
        if c.kind in ("UC", "MC") and len(c.spans) == 1 and len(c.spans[0]) > 1:
            return self.external(c)
        (span,) = self.single(c)
        if c.kind in _ADJECTIVE:
            return self.ring(c, span)
        if c.kind == "VC":
            return self.comparison(c, span)
        return self.cardinality(c, span)

    def literals(self, c: Constraint, clause: int, span: Span) -> dict[int, str]:
        """Role → the literal phrase (``Status 'Shipped'``) clause ``clause`` (1-based)
        writes in ``span``'s fact type; a literal on a role the span covers, or in a fact
        type the clause does not span, has no sentence."""
        said: dict[int, str] = {}
        for r in c.restrictions:
            if r.clause != clause or r.fact_type != span.fact_type:
                continue
            ft = self.fact_type(span.fact_type)
            if r.role in span.roles or r.role in said or not 0 <= r.role < len(ft.roles):
                raise VerbalizationError(f"a literal on role {r.role} of {r.fact_type}: {c}")
            said[r.role] = f"{ft.roles[r.role]} {quote(r.value)}"
        return said

    def said_literals(self, c: Constraint) -> None:
        """Raises unless every restriction is on a fact type its clause spans."""
        spanned = {(n, s.fact_type) for n, spans in enumerate(c.spans, 1) for s in spans}
        if any((r.clause, r.fact_type) not in spanned for r in c.restrictions):
            raise VerbalizationError(f"a literal outside the clauses' fact types: {c}")

    def single(self, c: Constraint) -> tuple[Span]:
        if len(c.spans) != 1 or len(c.spans[0]) != 1:
            raise VerbalizationError(f"a {c.kind} constraint spans one fact type: {c.spans}")
        return (c.spans[0][0],)

    def cardinality(self, c: Constraint, span: Span) -> str:
        ft = self.fact_type(span.fact_type)
        arity = len(ft.roles)
        bounds = {"UC": (None, 1), "MC": (1, None)}.get(c.kind) or c.bounds or (None, None)
        quantifier = "some" if c.kind == "MC" else bound_text(*bounds)
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

    def external(self, c: Constraint) -> str:
        """One clause of spans over several fact types, each clause of the sentence said
        from the role the spans do not name (the joined noun), which later clauses leave
        out: ``For each Room and Time, at most one Booking is in that Room and is at that
        Time.`` (UC, the named roles spanned) and ``Each Person owns some Car or rents some
        Car.`` (MC, the joined roles spanned)."""
        if c.modality != "alethic":
            raise VerbalizationError(f"an external {c.kind} has no deontic sentence")
        said: list[str] = []
        joined_nouns: set[str] = set()
        named: list[str] = []
        for index, span in enumerate(c.spans[0]):
            ft = self.fact_type(span.fact_type)
            if c.kind == "MC":
                (joined,) = span.roles
                others = [r for r in range(len(ft.roles)) if r != joined]
                dets = {r: "some" for r in others}
            else:
                missing = [r for r in range(len(ft.roles)) if r not in span.roles]
                if len(missing) != 1:
                    raise VerbalizationError(
                        f"an external uniqueness leaves one role of {ft.id} unspanned"
                    )
                joined = missing[0]
                dets = {r: "that" for r in span.roles}
                named += [ft.roles[r] for r in span.roles]
            reading = self.reading_where(ft, first=joined)
            if reading is None:
                raise VerbalizationError(f"no reading of {ft.id} starts with role {joined}")
            joined_nouns.add(ft.roles[joined])
            phrases = {r: ft.roles[r] for r in range(len(ft.roles))}
            if index:
                phrases[joined] = ""
            elif c.kind == "UC":
                dets[joined] = "at most one"
            else:
                dets[joined] = "each"
            said.append(self.clause(ft, reading, phrases, dets))
        if len(joined_nouns) != 1:
            raise VerbalizationError(f"the fact types of an external {c.kind} share no role")
        if c.kind == "MC":
            return capitalise(" or ".join(said)) + "."
        if len(set(named)) != len(named) or joined_nouns & set(named):
            raise VerbalizationError("an external uniqueness names each of its nouns once")
        return f"For each {' and '.join(named)}, {' and '.join(said)}."

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
        value = operand if NUMERAL.fullmatch(operand) else quote(operand)
        subject = ft.roles[reading.order[0]]
        det = "each" if c.operator in ("", "obligatory") else article(subject)
        phrases = {r: ft.roles[r] for r in range(len(ft.roles))}
        body = self.clause(ft, reading, phrases, {reading.order[0]: det})
        return self.deontic(c, f"{body} {COMPARATORS[op]} {value}")

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
            "AT": f"if {said(n1, n2)} and {n1} is not {n2} then it is impossible that"
            f" {said(n2, n1)}",
            "IT": f"if {said(n1, n2)} and {said(n2, n3)} then it is impossible that {said(n1, n3)}",
            "RF": f"if {said(n1, n2, 'some', 'some')} then {said(n1, 'itself', 'that')}",
        }
        if c.kind not in bodies:
            raise VerbalizationError(f"a deontic {_ADJECTIVE[c.kind]} constraint has no sentence")
        return self.deontic(c, bodies[c.kind])

    def set_clause(
        self, span: Span, det_first: str, literals: dict[int, str] | None = None
    ) -> tuple[str, str]:
        """One clause of a set comparison and the noun of its spanned role; ``literals``
        the literal phrases of other roles (:meth:`literals`)."""
        (role,) = span.roles
        written = literals or {}
        link = self.membership(span.fact_type)
        if link is not None:
            sup, sub = link
            return f"{det_first} {sup} is {article(sub)} {sub}", sup
        ft = self.fact_type(span.fact_type)
        reading = ft.readings[0]
        dets = {r: "" if r in written else "some" for r in range(len(ft.roles))}
        dets[role] = det_first
        phrases = {r: written.get(r, ft.roles[r]) for r in range(len(ft.roles))}
        return self.clause(ft, reading, phrases, dets), ft.roles[role]

    def set_comparison(self, c: Constraint) -> str:
        if c.modality != "alethic":
            raise VerbalizationError("a set comparison has no deontic sentence")
        said = [
            self.set_clause(spans[0], "that", self.literals(c, n, spans[0]))
            for n, spans in enumerate(c.spans, 1)
        ]
        nouns = {noun for _, noun in said}
        clauses = "; ".join(text for text, _ in said)
        if len(nouns) == 1:
            return f"For each {nouns.pop()}, {_SETQ[c.kind]} of the following holds: {clauses}."
        raise VerbalizationError(f"the clauses of a {c.kind} constraint span different nouns")

    def equality(self, c: Constraint) -> str:
        if len(c.spans) != 2 or any(len(spans) != 1 for spans in c.spans):
            raise VerbalizationError(f"an equality spans one fact type per clause: {c}")
        (first,), (second,) = c.spans
        left, left_noun = self.set_clause(first, "some", self.literals(c, 1, first))
        right, right_noun = self.set_clause(second, "that", self.literals(c, 2, second))
        if left_noun != right_noun:
            raise VerbalizationError("an equality constraint spans one noun's roles")
        return capitalise(f"{left} if and only if {right}.")

    def join_subset(self, c: Constraint) -> str:
        """``If some Order is placed by some Customer then that Order has Shipping Address
        equal to that Customer's Shipping Address.``: the antecedent's fact type joined to
        the owner's ``has`` fact type (the possessive), whose compared role the
        consequent's last role equals.  Nouns appear once per clause."""
        shape = VerbalizationError(f"a join subset says one possessive comparison: {c}")
        if c.kind != "SS" or len(c.joins) != 1 or len(c.spans) != 2 or len(c.spans[1]) != 1:
            raise shape
        (join,) = c.joins
        spans = {span.fact_type: span for span in c.spans[0]}
        if (
            join.clause != 1
            or len(spans) != 2
            or set(spans)
            != {
                join.left.fact_type,
                join.right.fact_type,
            }
        ):
            raise shape
        held, path = self.fact_type(join.left.fact_type), self.fact_type(join.right.fact_type)
        (superset,) = c.spans[1]
        then = self.fact_type(superset.fact_type)
        if len(path.roles) != 2 or len(join.left.roles) != 1 or len(join.right.roles) != 1:
            raise shape
        (owner_role,), (path_owner,) = join.left.roles, join.right.roles
        (path_target,) = spans[path.id].roles
        owner, target = held.roles[owner_role], path.roles[path_target]
        literals = self.literals(c, 1, spans[held.id])
        if len(literals) != len(c.restrictions):
            raise shape
        named = {n for r, n in enumerate(held.roles) if r not in literals}
        if (
            path_owner == path_target
            or path.roles[path_owner] != owner
            or len(set(held.roles)) != len(held.roles)
            or len(set(then.roles)) != len(then.roles)
        ):
            raise shape
        compared = [r for r in superset.roles if then.roles[r] == target]
        shared = {r for r, n in enumerate(then.roles) if n in named}
        reading = self.reading_where(then, last=compared[0]) if len(compared) == 1 else None
        if (
            reading is None
            or set(superset.roles) != shared | set(compared)
            or set(spans[held.id].roles)
            != {r for r, n in enumerate(held.roles) if n in then.roles and r not in literals}
            or not spans[held.id].roles
            or self.schema.resolve((owner, target), ("", "has", ""))
            != Resolution(path.id, (path_owner, path_target))
        ):
            raise shape
        antecedent = self.clause(
            held,
            held.readings[0],
            {r: literals.get(r, n) for r, n in enumerate(held.roles)},
            {r: "" if r in literals else "some" for r in range(len(held.roles))},
        )
        dets = {r: "that" if r in shared else "some" for r in range(len(then.roles))}
        dets[compared[0]] = ""
        consequent = self.clause(then, reading, dict(enumerate(then.roles)), dets)
        body = f"if {antecedent} then {consequent} equal to that {owner}'s {target}"
        return self.deontic(c, body)

    def subset(self, c: Constraint) -> str:
        """``If some A … some B then that A … some C``: the spanned roles are the variables
        the clauses share; a noun that appears twice in one clause gets subscripts (its
        k-th spanned role ``<Noun>k``, the others ``<Noun>11``, …); a role a clause
        restricts holds its literal (``Status 'Shipped'``)."""
        if c.joins:
            return self.join_subset(c)
        clauses: list[str] = []
        seen: set[str] = set()
        counts: dict[str, int] = {}
        spanned: list[tuple[FactTypeDecl, tuple[int, ...], dict[int, str]]] = []
        for number, spans in enumerate(c.spans, 1):
            (span,) = spans
            literals = self.literals(c, number, span)
            spanned.append((self.fact_type(span.fact_type), span.roles, literals))
        repeated = {n for ft, _, _ in spanned for n in ft.roles if ft.roles.count(n) > 1}
        for index, (ft, roles, literals) in enumerate(spanned):
            consequent = index == len(spanned) - 1
            phrases: dict[int, str] = {}
            dets: dict[int, str] = {}
            occurrence: dict[str, int] = {}
            for role, noun in enumerate(ft.roles):
                if role in literals:
                    phrases[role], dets[role] = literals[role], ""
                    continue
                if role in roles:
                    # The clauses' spanned roles correspond in order, noun by noun.
                    occurrence[noun] = occurrence.get(noun, 0) + 1
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
        quantifier = "some" if p.bounds is None else bound_text(*p.bounds)
        dets = {r: "some" for r in range(len(ft.roles))}
        if len(reading.order) > 1:
            dets[reading.order[1]] = quantifier
        else:
            dets[p.role] = quantifier
        phrases = {r: ft.roles[r] for r in range(len(ft.roles))}
        return f"It is possible that {self.clause(ft, reading, phrases, dets)}."
