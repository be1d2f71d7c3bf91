"""Plans: a rule's body as FFP functions over batches of rows.

A plan starts from facts of one clause (a *seed*: semi-naive evaluation runs it on a delta)
or of the consequent (the *goal*: what still derives a fact), binds their variables, then
joins the remaining clauses greedily — the clause sharing most bound variables first — and
applies comparisons, computations and negations as soon as their variables are bound, each
step a row primitive of :mod:`arest.algebra.joins` applied to ⟨spec, rows⟩.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import Any

from arest.algebra import Object
from arest.algebra.forms import comp, cons, const
from arest.errors import ArestError
from arest.records import record

_COMPARISONS = {">": "gt", "<": "lt", ">=": "ge", "<=": "le", "=": "eq", "<>": "ne",
                "!=": "ne"}
_OPERATORS = {"plus": "+", "+": "+", "minus": "-", "-": "-", "times": "*", "*": "*",
              "divided by": "/", "/": "/", "reduced by": "%-"}
_TIGHT = frozenset({"*", "/"})

class RuleError(ArestError):
    """A rule the engine cannot evaluate, with the reason; the reader turns it into a
    diagnostic at the rule."""


# -- plans -----------------------------------------------------------------------------------
@record
class Plan:
    """An FFP function from seed facts to rows, and what its rows' columns are."""

    seed: str
    """The fact type (or cell) whose facts seed it; empty for a goal plan."""
    negated: bool
    """Seeded by a negated clause: its facts' arrival withdraws, their departure derives."""
    variables: tuple[str, ...]
    steps: Object
    head: tuple[tuple[str, str], ...]
    """Per consequent role: ``("=", k)`` the row's column k (1-based) or ``("'", v)``; for an
    aggregation's seed plans, the columns of the groups."""

    def as_object(self) -> Object:
        """The plan as an FFP object."""
        return (self.seed, "T" if self.negated else "F", self.variables, self.steps,
                tuple(self.head))

    @classmethod
    def from_object(cls, obj: Any) -> Plan:
        """The plan an FFP object holds: the inverse of :meth:`as_object`."""
        seed, negated, variables, steps, head = obj
        return cls(seed, negated == "T", tuple(variables), steps,
                   tuple((str(k), str(v)) for k, v in head))

    def probes(self) -> set[tuple[str, int]]:
        """(fact type, role) for each index the plan's joins look facts up by: the first
        bound role of each ``join`` or ``antijoin`` spec (:mod:`arest.algebra.joins`).

        >>> plan = Plan("R", False, ("x", "y", "z"), comp("join", cons(
        ...     const("S"), const(("+", ("=", "2"))), "id")), (("=", "1"), ("=", "3")))
        >>> plan.probes()
        {('S', 1)}
        """
        found: set[tuple[str, int]] = set()
        _probes(self.steps, found)
        return found


def _probes(steps: Object, found: set[tuple[str, int]]) -> None:
    """Add to found the (fact type, role) each join step of steps probes, at any depth."""
    if type(steps) is not tuple:
        return
    if (len(steps) == 3 and steps[0] == "COMP" and steps[1] in ("join", "antijoin")
            and type(steps[2]) is tuple and len(steps[2]) == 4 and steps[2][0] == "CONS"):
        name, spec = steps[2][1], steps[2][2]
        if (type(name) is tuple and name[0] == "CONST" and type(spec) is tuple
                and spec[0] == "CONST" and type(spec[1]) is tuple):
            role = next((r for r, term in enumerate(spec[1])
                         if type(term) is tuple and term and term[0] in ("=", "'")), None)
            if role is not None:
                found.add((str(name[1]), role))
            return
    for part in steps:
        _probes(part, found)


def literal_of(term: str) -> str | None:
    """The value of a quoted literal term (``'Done'``), or None for a variable.

    >>> literal_of("'Done'"), literal_of("'it''s'"), literal_of("Order")
    ('Done', "it's", None)
    """
    if len(term) >= 2 and term[0] == "'" and term[-1] == "'":
        return term[1:-1].replace("''", "'")
    return None


def operand_literal(term: str) -> str | None:
    """The value of an operand that is a constant: a numeral as written, or a quoted
    literal's value; None for a variable.

    >>> operand_literal("100"), operand_literal("'gold'"), operand_literal("Amount")
    ('100', 'gold', None)
    """
    from arest.algebra.numerals import is_numeral  # with decimal: not on a restart's path

    return term if is_numeral(term) else literal_of(term)


class _Body:
    """Greedy ordering of a body's conditions into row steps, from some bound variables."""

    def __init__(self, bound: Sequence[str], positive_vars: set[str]) -> None:
        self.columns: dict[str, int] = {}
        for name in bound:
            self.columns.setdefault(name, len(self.columns))
        self.positive_vars = positive_vars
        self.steps: list[Object] = []

    def spec(self, terms: Sequence[str], negated: bool) -> Object:
        """A clause's role spec; its new variables get the next columns in role order."""
        out: list[Object] = []
        seen: dict[str, int] = {}
        for role, term in enumerate(terms):
            literal = literal_of(term)
            if literal is not None:
                out.append(("'", literal))
            elif term in self.columns:
                out.append(("=", str(self.columns[term] + 1)))
            elif term in seen:
                out.append(("~", str(seen[term] + 1)))
            elif negated and term not in self.positive_vars:
                seen[term] = role
                out.append("_")
            else:
                seen[term] = role
                out.append("+")
        for term in seen:
            if not negated or term in self.positive_vars:
                self.columns[term] = len(self.columns)
        return tuple(out)

    def operand(self, term: str) -> Object:
        literal = operand_literal(term)
        if literal is not None:
            return ("'", literal)
        return ("=", str(self.columns[term] + 1))

    def known(self, term: str) -> bool:
        return operand_literal(term) is not None or term in self.columns

    def expression(self, parts: Sequence[str]) -> Object:
        """An infix expression as a tree, left to right; times and divided by bind tighter."""
        terms: list[Object] = [self.operand(parts[0])]
        loose: list[str] = []
        for index in range(1, len(parts) - 1, 2):
            op, right = _OPERATORS[parts[index]], self.operand(parts[index + 1])
            if op in _TIGHT:
                terms[-1] = (op, terms[-1], right)
            else:
                loose.append(op)
                terms.append(right)
        tree = terms[0]
        for op, right in zip(loose, terms[1:], strict=True):
            tree = (op, tree, right)
        return tree

    def step(self, primitive: str, *arguments: Object) -> None:
        self.steps.append(comp(primitive, cons(*(const(a) for a in arguments), "id")))

    def run(self, conditions: Sequence[Any], reading: str) -> None:
        """Order the conditions into steps: in passes over them in their order, each
        filter (comparison, computation, negation) whose variables are bound; between
        passes, the join of the positive atom with the most known terms (the first
        such).  :class:`_Agenda` keeps what is ready, so ordering n conditions costs
        O(n log n + their terms), not a scan of every condition per step."""
        agenda = _Agenda(conditions, self)
        while agenda.remaining:
            progressed = agenda.filter_pass()
            best = agenda.best_atom()
            if best is None:
                if agenda.remaining and not progressed:
                    raise RuleError(_unsafe(agenda.pending(), self.columns, reading))
                continue
            condition = conditions[best]
            spec = self.spec(condition.terms, negated=False)
            self.step("join", condition.fact_type, spec)
            agenda.bound_since()

    def apply_filter(self, condition: Any, kind: str) -> None:
        """The step of a filter whose variables are bound."""
        if kind == "comparison":
            op = _COMPARISONS[condition.op]
            self.step("select", (op, self.operand(condition.left),
                                 self.operand(condition.right)))
        elif kind == "computation":
            tree = self.expression(condition.expression)
            if condition.variable in self.columns:
                self.step("select", ("eq", self.operand(condition.variable), tree))
            else:
                self.step("extend", tree)
                self.columns[condition.variable] = len(self.columns)
        else:
            self.step("antijoin", condition.fact_type,
                      self.spec(condition.terms, negated=True))

    def function(self, first: Object) -> Object:
        return comp(*reversed(self.steps), first) if self.steps else first


class _Agenda:
    """The conditions a body has yet to order, indexed by variable: each positive atom's
    count of known terms and each filter's count of unbound variables change only when a
    variable is bound, so each binding updates the conditions naming it, and the next
    filter (by position, within a pass) and the best atom (most known terms, then
    position) come from heaps."""

    def __init__(self, conditions: Sequence[Any], body: _Body) -> None:
        self.conditions, self.body = conditions, body
        self.kinds = [clause_kind(c) for c in conditions]
        self.left = set(range(len(conditions)))
        self.known_terms: dict[int, int] = {}
        self.unbound: dict[int, int] = {}
        self.atoms_of: dict[str, list[tuple[int, int]]] = {}
        self.filters_of: dict[str, list[int]] = {}
        self.atoms: list[tuple[int, int]] = []
        self.ready: list[int] = []
        self.deferred: list[int] = []
        self.cursor = -1
        self.seen_columns = len(body.columns)
        for position, (condition, kind) in enumerate(zip(conditions, self.kinds, strict=True)):
            if kind == "atom" and not condition.negated:
                self._index_atom(position, condition.terms)
            elif kind in ("comparison", "computation", "atom"):
                self._index_filter(position, self._needed(condition, kind))

    def _needed(self, condition: Any, kind: str) -> set[str]:
        if kind == "comparison":
            terms = [condition.left, condition.right]
        elif kind == "computation":
            terms = list(condition.expression[::2])
        else:
            terms = [t for t in condition.terms if t in self.body.positive_vars]
        return {t for t in terms if operand_literal(t) is None}

    def _index_atom(self, position: int, terms: Sequence[str]) -> None:
        columns = self.body.columns
        known, counts = 0, dict[str, int]()
        for term in terms:
            if operand_literal(term) is not None or term in columns:
                known += 1
            if operand_literal(term) is None:
                counts[term] = counts.get(term, 0) + 1
        for term, times in counts.items():
            if term not in columns:
                self.atoms_of.setdefault(term, []).append((position, times))
        self.known_terms[position] = known
        heapq.heappush(self.atoms, (-known, position))

    def _index_filter(self, position: int, needed: set[str]) -> None:
        unbound = [term for term in needed if term not in self.body.columns]
        self.unbound[position] = len(unbound)
        for term in unbound:
            self.filters_of.setdefault(term, []).append(position)
        if not unbound:
            self._now_ready(position)

    def _now_ready(self, position: int) -> None:
        heapq.heappush(self.ready if position > self.cursor else self.deferred, position)

    @property
    def remaining(self) -> int:
        return len(self.left)

    def pending(self) -> list[Any]:
        """The conditions not yet ordered, in their order."""
        return [self.conditions[p] for p in sorted(self.left)]

    def bound_since(self) -> None:
        """Account for the variables the body bound since the last call."""
        names = list(self.body.columns)[self.seen_columns:]
        self.seen_columns = len(self.body.columns)
        for name in names:
            for position, times in self.atoms_of.pop(name, ()):
                if position in self.left:
                    self.known_terms[position] += times
                    heapq.heappush(self.atoms, (-self.known_terms[position], position))
            for position in self.filters_of.pop(name, ()):
                self.unbound[position] -= 1
                if not self.unbound[position] and position in self.left:
                    self._now_ready(position)

    def filter_pass(self) -> bool:
        """One pass over the conditions in order, applying each filter that is ready
        when the pass reaches it; whether any was."""
        self.ready.extend(self.deferred)
        heapq.heapify(self.ready)
        self.deferred = []
        progressed = False
        while self.ready:
            position = heapq.heappop(self.ready)
            self.cursor = position
            self.left.discard(position)
            self.body.apply_filter(self.conditions[position], self.kinds[position])
            self.bound_since()
            progressed = True
        self.cursor = -1
        return progressed

    def best_atom(self) -> int | None:
        """The position of the positive atom with the most known terms (the first of
        those), taken off the agenda; None when none is left."""
        while self.atoms:
            known, position = heapq.heappop(self.atoms)
            if position in self.left and -known == self.known_terms[position]:
                self.left.discard(position)
                return position
        return None


def clause_kind(condition: Any) -> str:
    """``atom``, ``comparison``, ``computation`` or ``aggregation``: the kind of a rule
    condition (:mod:`arest.forml2.constructs`)."""
    name = type(condition).__name__.lstrip("_")
    return {"Atom": "atom", "Computation": "computation", "Aggregation": "aggregation",
            "Comparison": "comparison"}.get(name, name)


def variables_of(condition: Any) -> set[str]:
    """The variables a condition names (its literals and numerals left out).

    >>> from arest.forml2.constructs import Atom, Comparison
    >>> sorted(variables_of(Atom("Order_has_Status", ("Order", "'Done'"))))
    ['Order']
    >>> sorted(variables_of(Comparison("Amount", ">", "100")))
    ['Amount']
    """
    kind = clause_kind(condition)
    if kind == "atom":
        return {t for t in condition.terms if literal_of(t) is None}
    if kind == "computation":
        return {condition.variable} | {
            p for p in condition.expression[::2] if operand_literal(p) is None}
    if kind == "comparison":
        return {t for t in (condition.left, condition.right) if operand_literal(t) is None}
    return {condition.variable}


def _unsafe(pending: Sequence[Any], columns: dict[str, int], reading: str) -> str:
    unbound = sorted({v for c in pending for v in variables_of(c)} - set(columns))
    return (f"`{reading}`: nothing binds {', '.join(unbound) or 'its conditions'}; every "
            "variable of a comparison, computation or negation must also occur in a "
            "positive condition")


def positive_vars(conditions: Sequence[Any], head_terms: Sequence[str]) -> set[str]:
    """The variables a positive condition (an atom not negated, or a computation) binds,
    and the consequent's: those a negation may take as bound."""
    found = {t for t in head_terms if literal_of(t) is None}
    for c in conditions:
        if clause_kind(c) == "atom" and not c.negated:
            found |= variables_of(c)
        elif clause_kind(c) == "computation":
            found.add(c.variable)
    return found


def _seed_spec(terms: Sequence[str], negated: bool, positive_vars: set[str]
               ) -> tuple[Object, list[str]]:
    body = _Body((), positive_vars)
    spec = body.spec(terms, negated)
    return spec, sorted(body.columns, key=body.columns.__getitem__)


def build_plan(seed: str, negated: bool, seed_terms: Sequence[str], rest: Sequence[Any],
          head_terms: Sequence[str], positive_vars: set[str], reading: str,
          outputs: Sequence[str] | None = None) -> Plan:
    """The plan from facts of ``seed`` (whose roles are ``seed_terms``) through the
    conditions ``rest`` to the rows that give the consequent ``head_terms`` (or
    ``outputs``); :class:`RuleError` when the conditions leave a wanted variable unbound.

    >>> from arest.forml2.constructs import Atom, Comparison
    >>> over = Comparison("Amount", ">", "100")
    >>> plan = build_plan("Order_has_Amount", False, ("Order", "Amount"), [over], ("Order",),
    ...                   {"Order", "Amount"}, "Each big Order ...")
    >>> plan.head, evaluate(plan.steps, (("o1", "50"), ("o2", "150")))
    ((('=', '1'),), (('o2', '150'),))
    """
    spec, bound = _seed_spec(seed_terms, negated, positive_vars)
    body = _Body(bound, positive_vars)
    body.run(rest, reading)
    wanted = head_terms if outputs is None else outputs
    missing = [t for t in wanted if literal_of(t) is None and t not in body.columns]
    if missing:
        raise RuleError(f"`{reading}`: the conditions do not bind {', '.join(missing)}")
    head = tuple(
        ("'", literal) if (literal := literal_of(t)) is not None
        else ("=", str(body.columns[t] + 1))
        for t in wanted
    )
    variables = tuple(sorted(body.columns, key=body.columns.__getitem__))
    first = comp("bind", cons(const(spec), "id"))
    return Plan(seed, negated, variables, body.function(first), head)
