"""derive from a delta: a command's changes brought to the fixed point by DRed (delete and
re-derive), which needs no derivation counts and holds for recursive rules:

1. *over-delete*, in the state before the command: every derived fact with a derivation
   through a fact that left (or through a negated fact that arrived), and so on through the
   stratum's rules;
2. *re-derive*: each over-deleted fact that the goal plan still derives from what is left
   comes back, with a new support;
3. *insert*: semi-naive from the facts that arrived (or negated facts that left) and the
   re-derived ones.

An aggregation is recomputed for each group whose facts changed, in the states before and
after; a count rule whose every moved target is decided without its group moves each
group's count by its own step instead (:mod:`arest.system.derive_counts`).  The store, plans
and supports are those of :mod:`arest.system.derive`.
"""

from __future__ import annotations

from arest import system
from arest.algebra import State
from arest.algebra.relations import ASSERTED, Fact, Relation
from arest.compiler.cells import asserted_cell, population_cell
from arest.compiler.derivations import Program, Rule
from arest.system.derive import (
    GOAL,
    Changes,
    Facts,
    Store,
    aggregate,
    heads,
    insert,
    is_derived,
    program_of,
    relation_of,
    rounds,
    rows,
)


def derive(before: State, state: State, added: Facts, removed: Facts,
           entities: dict[str, set[str]] | None = None, *,
           counts: bool = True) -> tuple[State, Changes]:
    """The state after a command whose asserted facts changed by (added, removed) from
    ``before`` (and whose entities joined their populations), with its derived facts
    maintained; and what derivation changed.  With ``counts`` (the default) a count rule's
    groups move by its own step where that decides; without, DRed recounts every touched
    group (the same state, supports and changes)."""
    program = program_of(state)
    changes = Changes()
    relevant = program.relevant
    if not relevant or (relevant.isdisjoint(added) and relevant.isdisjoint(removed)
                        and not any(population_cell(n) in relevant for n in entities or ())):
        return state, changes
    # The caller's sets are shared, never changed: a set grows by a new one in its place.
    plus = {f: facts for f, facts in added.items() if facts}
    for noun, ids in (entities or {}).items():
        if ids:
            cell = population_cell(noun)
            joined: set[Fact] = {(e,) for e in ids}
            plus[cell] = plus[cell] | joined if cell in plus else joined
    minus = {f: facts for f, facts in removed.items() if facts}
    state = _asserted_changes(state, program, plus, minus)
    if not plus and not minus:
        return state, changes
    for stratum, touched_by in zip(program.strata, program.touched_by, strict=True):
        if touched_by.isdisjoint(plus) and touched_by.isdisjoint(minus):
            continue
        found = Changes()
        state = _stratum(before, state, stratum, plus, minus, found, counts)
        for fact_type, facts in found.added.items():
            if facts:
                changes.add_all(fact_type, facts)
                plus[fact_type] = plus[fact_type] | facts if fact_type in plus else facts
        for fact_type, facts in found.removed.items():
            for fact in facts:
                changes.remove(fact_type, fact)
            if facts:
                minus[fact_type] = minus[fact_type] | facts if fact_type in minus else facts
    return state, changes


def _asserted_changes(state: State, program: Program, plus: Facts, minus: Facts) -> State:
    """The asserted facts of transitive rings follow the command's asserted changes."""
    cells = {}
    for fact_type in program.asserted:
        came = {f for f in plus.get(fact_type, ())
                if relation_of(state, fact_type, 2).payload(f) is ASSERTED}
        went = minus.get(fact_type, set())
        if came or went:
            name = asserted_cell(fact_type)
            cells[name] = relation_of(state, name, 2).updated(
                ((f, ASSERTED) for f in came), went)
            if came:
                plus[name] = came
            if went:
                minus[name] = set(went)
    return state.update(cells) if cells else state


def _stratum(before: State, state: State, stratum: tuple[Rule, ...], plus: Facts,
             minus: Facts, changes: Changes, counts: bool) -> State:
    counted: set[str] = set()
    if counts:
        cells: dict[str, Relation] = {}
        for rule in stratum:
            if rule.is_aggregation and rule.fact_type not in cells:
                # Each step reads the stratum's input state: an aggregation reads only
                # lower strata, and a second rule of the same fact type is DRed's.
                moved = system.derive_counts.count_step(rule, before, state, plus, minus, changes)
                if moved is not None:
                    cells.update(moved)
                    counted.add(rule.id)
        if cells:
            state = state.update(cells)
        if len(counted) == len(stratum):
            return state
    store = Store(state, stratum, scratch=False)
    for rule in stratum:
        if rule.is_aggregation and rule.id not in counted:
            aggregate(store, rule, _touched_groups(rule, before, state, plus, minus), state,
                       changes)
    joins = [rule for rule in stratum if not rule.is_aggregation]
    if not joins:
        return store.result()
    derived = set(store.arity)
    # 1. over-delete, in the state before the command.
    gone: Facts = {}
    frontier: Facts = {f: set(minus.get(f, ())) for f in _seeded(joins, False)}
    arrived_negated: Facts = {f: set(plus.get(f, ())) for f in _seeded(joins, True)}
    first = True
    while any(frontier.values()) or (first and any(arrived_negated.values())):
        following: Facts = {}
        for rule in joins:
            for plan in rule.seeds:
                seeds = (arrived_negated if plan.negated else frontier).get(plan.seed)
                if not seeds or (plan.negated and not first):
                    continue
                for head, _ in heads(plan, rows(plan, seeds, before)):
                    if is_derived(store.payload(rule.fact_type, head)):
                        store.drop(rule.fact_type, head)
                        gone.setdefault(rule.fact_type, set()).add(head)
                        following.setdefault(rule.fact_type, set()).add(head)
        frontier = {f: facts for f, facts in following.items() if f in derived}
        first = False
    # 2. re-derive what is left derivable, and what was retracted but is derivable.
    current = store.view()
    delta: Facts = {}
    for rule in joins:
        candidates = gone.get(rule.fact_type, set()) | minus.get(rule.fact_type, set())
        if candidates:
            insert(store, rule, GOAL, rule.goal, tuple(candidates), current, delta)
    for fact_type, facts in gone.items():
        for fact in facts:
            if store.payload(fact_type, fact) is None:
                changes.remove(fact_type, fact)
    # 3. insert from what arrived and from what a negation no longer blocks.
    current = store.view()
    for rule in joins:
        for index, plan in enumerate(rule.seeds):
            seeds = (minus if plan.negated else plus).get(plan.seed)
            if seeds:
                insert(store, rule, str(index), plan, tuple(seeds), current, delta, changes)
    rounds(store, joins, delta, changes)
    return store.result()


def _seeded(rules: list[Rule], negated: bool) -> set[str]:
    return {plan.seed for rule in rules for plan in rule.seeds if plan.negated == negated}


def _touched_groups(rule: Rule, before: State, state: State, plus: Facts,
                    minus: Facts) -> set[Fact]:
    """The groups of an aggregation that the changed facts belong to, before or after.

    A positive clause's facts that left counted in the state before, and those that arrived
    count after.  A negated clause's plan finds the rows its facts block, so a negated fact
    that arrived withdrew rows of the state before, and one that left frees rows of the
    state after."""
    groups: set[Fact] = set()
    for plan in rule.seeds:
        went, came = minus.get(plan.seed), plus.get(plan.seed)
        if plan.negated:
            went, came = came, went
        for seeds, at in ((went, before), (came, state)):
            if seeds:
                groups.update(head for head, _ in heads(plan, rows(plan, tuple(seeds), at)))
    return groups
