"""Derivation rules → FFP objects, one cell ``derivation:<id>`` each, and the program.

A rule's body is evaluated a batch of rows at a time by the row primitives of
:mod:`arest.algebra.joins`.  For each clause that can change, the rule has a *seed plan*: an
FFP function from facts of that clause's fact type to the rows of the body's variables that
those facts take part in (semi-naive evaluation starts from a delta this way); the *goal
plan* starts from facts of the consequent instead and finds their derivations (to re-derive
what a retraction may have withdrawn, and to explain).  Each plan joins the remaining
clauses greedily, the clause sharing most bound variables first, and applies comparisons,
computations and negations as soon as their variables are bound.

An aggregation rule (``Amount is the sum of … where …``) has instead, per clause, a plan from
its facts to the groups they touch, and a goal plan from groups to the rows its aggregate
runs over.

A transitive ring (``Region contains Region is transitive``) derives its closure by the rule
R(x, z) ← R(x, y) ∧ asserted:R(y, z), linear in the asserted facts, which the cell
``asserted:<R>`` holds; when rules derive R as well, by R(x, z) ← R(x, y) ∧ R(y, z), so that
derived facts are steps of the closure too.

The program, cell ``derivations``, is ⟨⟨rule, …⟩, …⟩: the rules by stratum, lowest first.  A
stratum is a strongly connected component of the graph from the fact types a rule reads to
the one it derives; a cycle through negation or aggregation, or a rule that reads what it
derives, is a compile error naming the reading.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from arest.algebra import Object
from arest.algebra.forms import comp, cons, const
from arest.compiler.cells import (
    PROGRAM_CELL,
    asserted_cell,
    derivation_cell,
    fact_type_of,
    is_population_cell,
    population_cell,
)
from arest.compiler.plans import (
    Plan,
    RuleError,
    build_plan,
    clause_kind,
    literal_of,
    positive_vars,
    variables_of,
)
from arest.records import record

if TYPE_CHECKING:
    from arest.compiler.schema import Schema

RULE = "RULE"

_AGGREGATES = {"count": "count", "sum": "sum", "avg": "avg", "average": "avg", "min": "min",
               "minimum": "min", "max": "max", "maximum": "max"}


@record
class Rule:
    """A compiled rule as the engine reads it back from its cell."""

    id: str
    reading: str
    fact_type: str
    consequent: tuple[str, ...]
    """The consequent's terms, by variable name or ``'literal'``."""
    seeds: tuple[Plan, ...]
    goal: Plan
    """From consequent facts (for an aggregation: from groups) to the rows deriving them."""
    antecedents: tuple[tuple[str, tuple[str, ...]], ...]
    """The positive clauses (fact type, terms): what a derivation rests on, for
    explanations."""
    reads: tuple[tuple[str, bool], ...] = ()
    """The fact types the rule reads, each with whether through negation or aggregation."""
    aggregate: tuple[str, tuple[str, ...], str] = ("", (), "")
    """For an aggregation: (op, group variables, aggregate variable)."""
    total: Plan | None = None
    """For an aggregation: groups ↦ ⟨⟨group values ⌢ aggregate⟩⟩, when the group qualifies."""

    @property
    def arity(self) -> int:
        """The number of roles of the fact type the rule derives."""
        return len(self.consequent)

    @property
    def is_aggregation(self) -> bool:
        """Whether the rule derives a count or a sum over groups."""
        return bool(self.aggregate[0])

    def as_object(self) -> Object:
        """The rule as the FFP object its cell holds."""
        op, group, variable = self.aggregate
        return (RULE, self.id, self.reading, self.fact_type, self.consequent,
                tuple(p.as_object() for p in self.seeds), self.goal.as_object(),
                tuple((f, terms) for f, terms in self.antecedents),
                tuple((f, "T" if n else "F") for f, n in self.reads),
                (op, group, variable),
                () if self.total is None else (self.total.as_object(),))

    @classmethod
    def from_object(cls, obj: Any) -> Rule:
        """The rule a cell holds: the inverse of :meth:`as_object`."""
        (_, rid, reading, fact_type, consequent, seeds, goal, antecedents, reads, aggregate,
         total) = obj
        return cls(
            rid, reading, fact_type, tuple(consequent),
            tuple(Plan.from_object(p) for p in seeds), Plan.from_object(goal),
            tuple((str(f), tuple(terms)) for f, terms in antecedents),
            tuple((str(f), n == "T") for f, n in reads),
            (str(aggregate[0]), tuple(aggregate[1]), str(aggregate[2])),
            Plan.from_object(total[0]) if total else None,
        )


def compile_rule(rule: Any, head_nouns: Sequence[str] = (), recursive: bool = False,
                 typing: Typing | None = None) -> Rule:
    """A reader's :class:`~arest.forml2.DerivationRule` compiled; :class:`RuleError` when
    its shape cannot be evaluated, or when it reads what it derives (unless ``recursive``:
    the closure of a transitive ring).

    A consequent variable that no condition binds ranges over its noun's population
    (``+ User accesses Domain if Domain has Access 'public'``: every User), given the
    consequent's role nouns.  With ``typing``, a variable named by a subtype of the role's
    noun ranges over the subtype's population only."""
    head = rule.consequent
    conditions = list(rule.conditions)
    if typing is not None:
        conditions.extend(typing.restrictions(conditions))
    bound = {v for c in conditions if clause_kind(c) == "computation" or (
        clause_kind(c) == "atom" and not c.negated) for v in variables_of(c)}
    for role, term in enumerate(head.terms):
        if (literal_of(term) is None and term not in bound and role < len(head_nouns)
                and not any(clause_kind(c) == "aggregation" for c in conditions)):
            conditions.append(_Atom(population_cell(head_nouns[role]), (term,)))
            bound.add(term)
    aggregations = [c for c in conditions if clause_kind(c) == "aggregation"]
    reads = tuple(sorted(
        {(c.fact_type, bool(c.negated)) for c in conditions if clause_kind(c) == "atom"}
        | {(a.fact_type, True) for g in aggregations for a in g.where if clause_kind(a) == "atom"}))
    if not recursive and any(f == head.fact_type for f, _ in reads):
        raise RuleError(
            f"`{rule.reading}` reads the fact type it derives; a rule cannot depend on "
            "itself (for a closure, declare the ring transitive)")
    if aggregations:
        return _aggregation_rule(rule, conditions, aggregations, reads)
    positive = positive_vars(conditions, head.terms)
    if not any(clause_kind(c) == "atom" and not c.negated for c in conditions):
        raise RuleError(f"`{rule.reading}` has no positive condition to derive from")
    seeds = []
    for index, c in enumerate(conditions):
        if clause_kind(c) == "atom":
            # A negated clause's own plan checks it again: a fact that left may not have
            # been the only one blocking the derivation.
            rest = conditions if c.negated else conditions[:index] + conditions[index + 1:]
            seeds.append(build_plan(c.fact_type, c.negated, c.terms, rest, head.terms, positive,
                               rule.reading))
    goal = build_plan("", False, head.terms, conditions, head.terms, positive, rule.reading)
    antecedents = _antecedents(conditions)
    return Rule(rule.id, rule.reading, head.fact_type, tuple(head.terms), tuple(seeds), goal,
                antecedents, reads)


def _aggregation_rule(rule: Any, conditions: list[Any], aggregations: list[Any],
                      reads: tuple[tuple[str, bool], ...]) -> Rule:
    head = rule.consequent
    if len(aggregations) > 1:
        raise RuleError(f"`{rule.reading}`: one aggregation per rule")
    aggregation = aggregations[0]
    op = _AGGREGATES.get(aggregation.op)
    if op is None:
        raise RuleError(f"`{rule.reading}`: no aggregate {aggregation.op!r}; "
                        f"one of {', '.join(sorted(_AGGREGATES))}")
    outer = [c for c in conditions if c is not aggregation]
    where = list(aggregation.where)
    if any(clause_kind(c) == "aggregation" for c in where):
        raise RuleError(f"`{rule.reading}`: an aggregation inside an aggregation")
    group = tuple(aggregation.group)
    extra = [t for t in head.terms
             if literal_of(t) is None and t not in group and t != aggregation.variable]
    if extra or any(variables_of(c) & {aggregation.variable} for c in outer):
        raise RuleError(f"`{rule.reading}`: the consequent may name only the groups "
                        f"({', '.join(group)}) and the aggregate ({aggregation.variable})")
    inner_positive = positive_vars(where, group)
    outer_positive = positive_vars(outer, group)
    seeds = []
    for clauses, positive in ((where, inner_positive), (outer, outer_positive)):
        for index, c in enumerate(clauses):
            if clause_kind(c) == "atom":
                rest = clauses if c.negated else clauses[:index] + clauses[index + 1:]
                seeds.append(build_plan(c.fact_type, c.negated, c.terms, rest, group, positive,
                                   rule.reading))
    goal = build_plan("", False, group, where, group, inner_positive, rule.reading,
                 outputs=(*group, aggregation.target))
    # total: the groups that qualify (the outer clauses hold for them), then the aggregate
    # over the goal's rows of each.
    width = len(group)
    groups = tuple(str(i + 1) for i in range(width))
    steps = goal.steps
    if outer:
        qualifying = build_plan("", False, group, outer, group, outer_positive, rule.reading)
        distinct = comp("project", cons(const(groups), "id"))
        steps = comp(goal.steps, distinct, qualifying.steps)
    total_steps = comp("aggregate", cons(const((op, groups, goal.head[width][1])), steps))
    total = Plan("", False, (*group, aggregation.variable), total_steps,
                 tuple(("=", str(i + 1)) for i in range(width + 1)))
    antecedents = _antecedents(where)
    return Rule(rule.id, rule.reading, head.fact_type, tuple(head.terms), tuple(seeds), goal,
                antecedents, reads, (op, group, aggregation.variable), total)


@record
class Typing:
    """Each fact type's role nouns and each noun's supertypes (transitively): enough to see
    that ``Employee is adult`` asks a Person-role to hold an Employee."""

    roles: Mapping[str, tuple[str, ...]]
    supertypes: Mapping[str, frozenset[str]]

    @classmethod
    def of(cls, schema: Schema) -> Typing:
        """The typing of every role of the schema's fact types."""
        direct = {name: set(info.supertypes) for name, info in schema.nouns.items()}
        closed: dict[str, frozenset[str]] = {}
        for noun in direct:
            seen: set[str] = set()
            pending = list(direct[noun])
            while pending:
                parent = pending.pop()
                if parent not in seen:
                    seen.add(parent)
                    pending.extend(direct.get(parent, ()))
            closed[noun] = frozenset(seen)
        return cls({f: info.roles for f, info in schema.fact_types.items()}, closed)

    def noun_of(self, variable: str) -> str:
        """``Employee2`` → Employee; ``that Order's Amount`` → Amount; ``done Task Count`` →
        Task Count (the longest known noun the name ends with)."""
        name = variable.rsplit("'s ", 1)[-1].rstrip("0123456789")
        words = name.split()
        for start in range(len(words)):
            candidate = " ".join(words[start:])
            if candidate in self.supertypes:
                return candidate
        return name

    def restrictions(self, conditions: Sequence[Any]) -> list[Any]:
        """A population clause for each variable that a clause reads at a role of one of
        its noun's supertypes."""
        added: dict[str, Any] = {}
        for c in conditions:
            if clause_kind(c) != "atom" or c.negated:
                continue
            nouns = self.roles.get(c.fact_type, ())
            for term, role_noun in zip(c.terms, nouns, strict=False):
                noun = self.noun_of(term)
                if literal_of(term) is None and role_noun in self.supertypes.get(noun, ()):
                    added.setdefault(term, _Atom(population_cell(noun), (term,)))
        return list(added.values())


def _antecedents(clauses: Sequence[Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The facts a derivation rests on: its positive clauses over fact types, named as they
    are shown (a transitive ring's asserted facts are facts of the ring).  Population
    clauses say which entities a variable ranges over, not a fact, so they are left out."""
    return tuple(
        (fact_type_of(c.fact_type), tuple(c.terms)) for c in clauses
        if clause_kind(c) == "atom" and not c.negated and not is_population_cell(c.fact_type)
    )


def transitive_rule(fact_type: str, constraint_id: str, reading: str,
                    linear: bool = True) -> Rule:
    """The closure of a transitive ring: R(x, z) ← R(x, y) ∧ asserted:R(y, z) when R's
    facts are asserted only; R(x, z) ← R(x, y) ∧ R(y, z) when rules derive R too, whose
    facts are then steps of the closure like the asserted ones."""
    return compile_rule(_Closure(fact_type, reading, constraint_id, linear), recursive=True)


@record
class _Atom:
    fact_type: str
    terms: tuple[str, ...]
    negated: bool = False


class _Closure:
    """The closure rule in the reader's shape."""

    def __init__(self, fact_type: str, reading: str, constraint_id: str, linear: bool) -> None:
        self.id = f"transitive-{constraint_id}"
        self.reading = reading
        self.consequent = _Atom(fact_type, ("x", "z"))
        step = asserted_cell(fact_type) if linear else fact_type
        self.conditions = (_Atom(fact_type, ("x", "y")), _Atom(step, ("y", "z")))


# -- the program -----------------------------------------------------------------------------
def strata(rules: Sequence[Rule]) -> list[list[Rule]]:
    """Rules grouped by the strongly connected component of the fact type they derive,
    in dependency order (Tarjan's algorithm, iterative)."""
    derives: dict[str, list[Rule]] = {}
    for rule in rules:
        derives.setdefault(rule.fact_type, []).append(rule)
    edges: dict[str, set[str]] = {f: set() for f in derives}
    for rule in rules:
        for read, _ in rule.reads:
            if read in derives:
                edges[rule.fact_type].add(read)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    # Tarjan emits a component after every component it reaches: dependencies first.
    strata: list[list[Rule]] = []
    for component in components:
        members = set(component)
        stratum = [rule for f in component for rule in derives[f]]
        for rule in stratum:
            for read, negative in rule.reads:
                if negative and read in members:
                    raise RuleError(
                        f"`{rule.reading}` takes part in a cycle through negation or "
                        f"aggregation (via {read}); such rules have no single meaning")
        strata.append(sorted(stratum, key=lambda r: r.id))
    return strata


def program(schema: Schema, rules: Iterable[Any]) -> Program:
    """The compiled rules by stratum, the fact types whose asserted facts are kept apart, and
    the fully derived fact types with their mode; :class:`RuleError` for a rule or a set of
    rules that cannot be evaluated."""
    rules = list(rules)
    typing = Typing.of(schema)
    compiled = [compile_rule(rule, schema.fact_types[rule.consequent.fact_type].roles,
                             typing=typing)
                for rule in rules if rule.consequent.fact_type in schema.fact_types]
    derived_by_rules = {rule.fact_type for rule in compiled}
    asserted: list[str] = []
    closed: set[str] = set()
    for constraint in sorted(schema.constraints.values(), key=lambda c: c.id):
        if constraint.kind == "TR" and constraint.modality == "alethic":
            fact_type = constraint.spans[0][0]
            if fact_type in closed:
                continue
            closed.add(fact_type)
            linear = fact_type not in derived_by_rules
            compiled.append(transitive_rule(fact_type, constraint.id, constraint.reading,
                                            linear))
            if linear:
                asserted.append(fact_type)
    modes = {f: info.mode for f, info in schema.fact_types.items() if info.mode in FULLY}
    for rule in rules:
        if rule.mode in FULLY and rule.consequent.fact_type in schema.fact_types:
            modes.setdefault(rule.consequent.fact_type, rule.mode)
    return Program(tuple(tuple(stratum) for stratum in strata(compiled)), tuple(asserted),
                   tuple(sorted(modes.items())))


FULLY = ("*", "**")
"""The modes of a fully derived fact type: nothing asserts into it."""


def program_cells(program: Program) -> list[tuple[str, Object]]:
    """``derivation:<id>`` per rule and the program ``derivations``:
    ⟨⟨⟨rule, …⟩, …⟩, ⟨asserted fact type, …⟩, ⟨⟨fully derived fact type, mode⟩, …⟩⟩."""
    objects = [[rule.as_object() for rule in stratum] for stratum in program.strata]
    return [
        *((derivation_cell(rule.id), obj) for stratum, objs in zip(program.strata, objects,
                                                                   strict=True)
          for rule, obj in zip(stratum, objs, strict=True)),
        (PROGRAM_CELL, (tuple(tuple(objs) for objs in objects), program.asserted,
                        program.modes)),
    ]


@record
class Program:
    """The compiled program: the rules by stratum, and what they derive."""

    strata: tuple[tuple[Rule, ...], ...]
    asserted: tuple[str, ...]
    modes: tuple[tuple[str, str], ...] = ()
    """The fully derived fact types, each with its mode (``*`` or ``**``)."""

    @classmethod
    def from_object(cls, obj: Any) -> Program:
        """The program the ``derivations`` cell holds."""
        strata, asserted, modes = obj
        return cls(tuple(tuple(Rule.from_object(r) for r in stratum) for stratum in strata),
                   tuple(str(f) for f in asserted), tuple((str(f), str(m)) for f, m in modes))

    def rules(self) -> Iterable[Rule]:
        """Every rule, stratum by stratum."""
        for stratum in self.strata:
            yield from stratum

    @cached_property
    def fully_derived(self) -> dict[str, str]:
        """The fully derived fact types, each with its mode (``*`` or ``**``)."""
        return dict(self.modes)

    @cached_property
    def touched_by(self) -> tuple[frozenset[str], ...]:
        """Per stratum, the fact types whose change can change what it derives."""
        return tuple(frozenset({f for rule in stratum for f, _ in rule.reads}
                               | {rule.fact_type for rule in stratum})
                     for stratum in self.strata)

    @cached_property
    def relevant(self) -> frozenset[str]:
        """Every fact type whose change can change a derived fact (the asserted facts of a
        transitive ring included)."""
        return frozenset().union(*self.touched_by, self.asserted)

    @cached_property
    def probed_roles(self) -> dict[str, frozenset[int]]:
        """Per fact type, the roles whose index some plan of some rule looks facts up by
        (its seed plans, its goal plan, an aggregation's total)."""
        roles: dict[str, set[int]] = {}
        for rule in self.rules():
            for plan in (*rule.seeds, rule.goal, *((rule.total,) if rule.total else ())):
                for fact_type, role in plan.probes():
                    roles.setdefault(fact_type, set()).add(role)
        return {fact_type: frozenset(found) for fact_type, found in roles.items()}

    def derived(self) -> set[str]:
        """Every fact type some rule derives."""
        return {rule.fact_type for rule in self.rules()}

    @cached_property
    def written(self) -> frozenset[str]:
        """Every cell a derivation from a delta may write: the fact types the rules derive
        and the asserted cells of the transitive rings (:func:`arest.system.dred.derive`);
        the state it reaches differs from the one it started from in these cells alone."""
        return frozenset({rule.fact_type for rule in self.rules()}
                         | {asserted_cell(fact_type) for fact_type in self.asserted})


EMPTY_PROGRAM = Program((), ())
