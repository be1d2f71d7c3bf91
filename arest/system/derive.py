"""derive: the least fixed point of the rules, from scratch or from a command's delta.

Derived facts live in their fact type's relation beside the asserted ones; a fact's payload
says which it is: ``ASSERTED``, or its support ⟨rule, plan, row⟩ — the rule that derived it,
which of the rule's plans found it (a seed plan's index, or ``goal``) and the row of
variable values, from which the antecedent facts are rebuilt (:mod:`arest.system.explain`).
An aggregation's support is ⟨rule, ``group``, ⟨group values⟩⟩.  Re-deriving never touches an
asserted fact.  When a fact has several derivations, the support is one of them.

Evaluation is semi-naive and stratified (:mod:`arest.compiler.derivations`): each round runs
the rules' seed plans on the previous round's new facts only.  From scratch here; from a
command's delta by DRed in :mod:`arest.system.dred`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from operator import itemgetter

from arest import algebra, system
from arest.algebra import Object, State
from arest.algebra.layers import KEPT, Implied
from arest.algebra.memo import IdentityMemo
from arest.algebra.relations import ASSERTED, Fact, Relation
from arest.compiler.cells import PROGRAM_CELL, RULE_FACT_TYPES, RULE_MODES, asserted_cell
from arest.compiler.derivations import EMPTY_PROGRAM, Program, Rule
from arest.compiler.plans import Plan, literal_of
from arest.records import field, mutable_record

_decoded = IdentityMemo(Program.from_object, limit=64)

Facts = dict[str, set[Fact]]
Row = tuple[str, ...]
GROUP = "group"
GOAL = "goal"


def program_of(state: State) -> Program:
    """The rules D was compiled with, by stratum."""
    contents = state.get(PROGRAM_CELL)
    return _decoded(contents) if type(contents) is tuple else EMPTY_PROGRAM


def derived_mode(state: State, fact_type: str) -> str:
    """``*`` or ``**`` when the fact type is fully derived (declared so, or derived by a
    ``*``/``**`` rule): nothing may assert into it; else empty.

    >>> import arest
    >>> D = arest.compile("Task(.id) is an entity type.\\nMilestone(.id) is an entity type.\\n"
    ...     "Task targets Milestone.\\nMilestone is targeted.\\n"
    ...     "* Milestone is targeted iff some Task targets that Milestone.")
    >>> derived_mode(D, "Milestone_is_targeted"), derived_mode(D, "Task_targets_Milestone")
    ('*', '')
    """
    return program_of(state).fully_derived.get(fact_type, "")


def rebuilt_on_load(state: State) -> frozenset[str]:
    """The fact types derived by ``*`` rules: their derived facts are kept in memory only
    and derived again when D is loaded (``**`` facts are stored)."""
    derives, modes = state.get(RULE_FACT_TYPES), state.get(RULE_MODES)
    if not isinstance(derives, Relation) or not isinstance(modes, Relation):
        return frozenset()
    mode = {rule: m for rule, m in modes}
    return frozenset(f for rule, f in derives if mode.get(rule) == "*"
                     and f in program_of(state).derived())


def without_derived_facts(relation: Relation) -> Relation:
    """The relation's asserted facts alone."""
    kept = dict(relation.plain_items())
    return relation if len(kept) == len(relation) else Relation.frozen(relation.arity, kept)


def is_derived(payload: object) -> bool:
    """Whether a fact's payload is a support (not ASSERTED, not absent): a tuple, as
    :meth:`~arest.algebra.relations.Relation.plain_items` leaves out."""
    return type(payload) is tuple


def relation_of(state: State, name: str, arity: int) -> Relation:
    """The relation in the named cell; an empty one of that arity when D has none.

    >>> from arest.algebra import EMPTY_STATE
    >>> len(relation_of(EMPTY_STATE, "Order_has_Amount", 2))
    0
    """
    contents = state.get(name)
    return contents if isinstance(contents, Relation) else Relation(arity)


SMALL_BATCH = 64
"""The most seeds a plan runs on as a recognised chain (:mod:`arest.system.row_chains`): a
command's batch, where the evaluator's work around each primitive is most of the cost; a
larger batch (a derivation from scratch) is the evaluator's, whose primitives are built for
it."""


def rows(plan: Plan, seeds: Iterable[Fact], state: State) -> tuple[Row, ...]:
    """The plan's rows from the seed facts, evaluated by the algebra against state (a small
    batch through its chain, which has the evaluator's value)."""
    batch = tuple(seeds)
    found: Object | None = (system.row_chains.chain_rows(plan.steps, batch, state)
                            if len(batch) <= SMALL_BATCH else None)
    if found is None:
        found = algebra.evaluate(plan.steps, batch, state)
    return found if type(found) is tuple else ()  # type: ignore[return-value]


def _columns(plan: Plan) -> tuple[int, ...] | None:
    """The consequent's columns in the plan's rows, when it has no literal."""
    if all(kind == "=" for kind, _ in plan.head):
        return tuple(int(v) - 1 for _, v in plan.head)
    return None


def heads(plan: Plan, found: Iterable[Row]) -> Iterable[tuple[Fact, Row]]:
    """Each row's consequent fact, with the row."""
    columns = _columns(plan)
    if columns is not None:
        if len(columns) == 2:
            a, b = columns
            return (((row[a], row[b]), row) for row in found)
        return ((tuple(row[c] for c in columns), row) for row in found)
    return ((tuple(row[int(v) - 1] if kind == "=" else v for kind, v in plan.head), row)
            for row in found)


@mutable_record
class Changes:
    """What derivation changed in P: facts per fact type that entered and left."""

    added: Facts = field(default_factory=dict)
    removed: Facts = field(default_factory=dict)

    def add(self, fact_type: str, fact: Fact) -> None:
        gone = self.removed.get(fact_type)
        if gone is not None and fact in gone:
            gone.discard(fact)
        else:
            self.added.setdefault(fact_type, set()).add(fact)

    def remove(self, fact_type: str, fact: Fact) -> None:
        came = self.added.get(fact_type)
        if came is not None and fact in came:
            came.discard(fact)
        else:
            self.removed.setdefault(fact_type, set()).add(fact)

    def add_all(self, fact_type: str, facts: Collection[Fact]) -> None:
        """``add`` of each fact, as one set update when none of them can cancel a removal.

        >>> changes = Changes(removed={"R": {("a",)}})
        >>> changes.add_all("R", [("a",), ("b",)]); changes
        Changes(added={'R': {('b',)}}, removed={'R': set()})
        """
        if not facts:
            return
        if self.removed.get(fact_type):
            for fact in facts:
                self.add(fact_type, fact)
        else:
            self.added.setdefault(fact_type, set()).update(facts)


class Store:
    """The relations a stratum derives, while it is evaluated.

    From scratch they are plain dicts of payloads, frozen into relations at the end (a bulk
    load); from a delta, pending writes go to the persistent relations at each round's end.

    From scratch, the supports of one plan per fact type are kept implied (``implied``):
    when the plan's row holds the fact's values and one more, the fact's payload in the dict
    is that one atom, which the relation expands to ⟨rule, plan, row⟩ when read
    (:class:`~arest.algebra.layers.Implied`), so that a fact keeps no tuple but itself.
    """

    def __init__(self, state: State, stratum: tuple[Rule, ...], scratch: bool) -> None:
        self.state = state
        self.scratch = scratch
        self.arity = {rule.fact_type: rule.arity for rule in stratum}
        self.facts: dict[str, dict[Fact, object]] = {}
        self.pending: dict[str, dict[Fact, object]] = {f: {} for f in self.arity}
        self.dropped: dict[str, set[Fact]] = {f: set() for f in self.arity}
        self.dropped_since_view: set[str] = set()
        """The fact types with a drop since the last view: without one, every pending fact
        was absent from the relation when it was put (``put`` and ``insert`` write only a
        fact P lacks)."""
        self.fresh: dict[str, list[Fact]] = {}
        """From scratch: the facts the current round derived, per fact type."""
        self.implied: dict[str, Implied] = {}
        """From scratch: per fact type, the plan whose supports its dict keeps implied."""
        self.seeding = frozenset(plan.seed for rule in stratum for plan in rule.seeds)
        """The fact types whose new facts seed a plan of the stratum: a round's new facts
        of any other are read by no later round."""
        for fact_type, arity in self.arity.items():
            relation = relation_of(state, fact_type, arity)
            if scratch:
                self.facts[fact_type] = dict(relation.items())

    def payload(self, fact_type: str, fact: Fact) -> object:
        if self.scratch:
            stored = self.facts[fact_type].get(fact)
            implied = self.implied.get(fact_type)
            return stored if implied is None else implied.payload(fact, stored)
        found = self.pending[fact_type].get(fact)
        if found is not None:
            return found
        if fact in self.dropped[fact_type]:
            return None
        return relation_of(self.state, fact_type, self.arity[fact_type]).payload(fact)

    def relation(self, fact_type: str) -> Relation:
        """The fact type's relation as of the last view: without the pending writes."""
        return relation_of(self.state, fact_type, self.arity[fact_type])

    def put(self, fact_type: str, fact: Fact, payload: object) -> None:
        if self.scratch:
            self.facts[fact_type][fact] = payload
        else:
            self.dropped[fact_type].discard(fact)
            self.pending[fact_type][fact] = payload

    def drop(self, fact_type: str, fact: Fact) -> None:
        if self.scratch:
            self.facts[fact_type].pop(fact, None)
        else:
            self.pending[fact_type].pop(fact, None)
            self.dropped[fact_type].add(fact)
            self.dropped_since_view.add(fact_type)

    def implied_by(self, rule: Rule, plan_id: str, plan: Plan,
                   columns: tuple[int, ...]) -> int | None:
        """From scratch: the column of the plan's rows whose atom the fact type's dict keeps
        for each fact the plan derives (its support implied), when the plan's rows hold the
        fact's values in ``columns`` and one more and no other plan's supports are implied
        there; None when the plan's supports are kept whole."""
        if len(plan.variables) != len(columns) + 1 or len(set(columns)) != len(columns):
            return None
        labels = (rule.id, plan_id)
        implied = self.implied.get(rule.fact_type)
        if implied is not None and implied.labels != labels:
            return None
        kept = next(c for c in range(len(plan.variables)) if c not in columns)
        if implied is None:
            if str in set(map(type, self.facts[rule.fact_type].values())):
                return None  # a payload of its own is an atom: an atom kept would be misread
            self.implied[rule.fact_type] = Implied(labels, tuple(
                KEPT if c == kept else columns.index(c) for c in range(len(plan.variables))))
        return kept

    def take_fresh(self) -> dict[str, list[Fact]]:
        """From scratch: the facts derived since the last call, per fact type."""
        fresh, self.fresh = self.fresh, {}
        return fresh

    def view(self) -> State:
        """The state with every write so far."""
        if self.scratch:
            return self.state.update({
                fact_type: Relation.frozen(self.arity[fact_type], dict(facts),
                                           self.implied.get(fact_type))
                for fact_type, facts in self.facts.items()
            })
        cells = {}
        for fact_type, arity in self.arity.items():
            pending, dropped = self.pending[fact_type], self.dropped[fact_type]
            if pending or dropped:
                relation = relation_of(self.state, fact_type, arity)
                cells[fact_type] = (relation.updated(pending.items(), dropped)
                                    if fact_type in self.dropped_since_view
                                    else relation.with_new(pending))
                self.pending[fact_type], self.dropped[fact_type] = {}, set()
        self.dropped_since_view = set()
        if cells:
            self.state = self.state.update(cells)
        return self.state

    def result(self) -> State:
        if self.scratch:
            return self.state.update({
                fact_type: Relation.frozen(self.arity[fact_type], facts,
                                           self.implied.get(fact_type))
                for fact_type, facts in self.facts.items()
            })
        return self.view()

    def derived_facts(self, rule: Rule, groups: set[Fact]) -> dict[Fact, list[Fact]]:
        """The facts an aggregation rule derived for each of the groups."""
        found: dict[Fact, list[Fact]] = {}
        if self.scratch:
            items: Iterable[tuple[Fact, object]] = self.facts[rule.fact_type].items()
            for fact, payload in items:
                if is_derived(payload) and payload[0] == rule.id:  # type: ignore[index]
                    key = payload[2]  # type: ignore[index]
                    if key in groups:
                        found.setdefault(key, []).append(fact)
            return found
        state = self.view()
        relation = relation_of(state, rule.fact_type, rule.arity)
        _, group_vars, _ = rule.aggregate
        probe = next((role for role, term in enumerate(rule.consequent)
                      if term in group_vars), None)
        for key in groups:
            candidates = (relation if probe is None else relation.matching(
                probe, key[group_vars.index(rule.consequent[probe])]))
            for fact in candidates:
                payload = relation.payload(fact)
                if is_derived(payload) and payload[0] == rule.id and payload[2] == key:  # type: ignore[index]
                    found.setdefault(key, []).append(fact)
        return found


# -- from scratch ----------------------------------------------------------------------------
def derive_all(state: State,
               in_duckdb: Callable[[State, tuple[Rule, ...]], bool] | None = None,
               indexed: bool = True) -> State:
    """D with every derived fact recomputed from the asserted ones.

    A stratum for which ``in_duckdb`` holds is evaluated by :mod:`arest.compiler.duckdb_eval`
    (DuckDB must be installed) when that accepts the stratum's shape; every other stratum by
    the FFP evaluator.  By default none is: DuckDB was slower end to end at every measured
    size.

    ``indexed`` (the default) ends by building the index of every role a plan probes, so
    the first command after the derivation pays for none (O(len) per role: seconds for a
    closure of millions of facts).  With ``indexed=False`` each index is built when a plan
    first probes it: for a derivation that no command follows, such as an analysis in a
    notebook, which then pays for no index it does not read.  The facts and their supports
    are the same either way.

    >>> import arest
    >>> from arest.compiler.population import with_facts
    >>> D = arest.compile("Task(.id) is an entity type.\\nMilestone(.id) is an entity type.\\n"
    ...     "Task targets Milestone.\\nMilestone is targeted.\\n"
    ...     "* Milestone is targeted iff some Task targets that Milestone.")
    >>> D = with_facts(D, [("Task_targets_Milestone", ("t1", "m1"))])  # asserted, not derived
    >>> len(D["Milestone_is_targeted"]), sorted(derive_all(D)["Milestone_is_targeted"])
    (0, [('m1',)])
    """
    program = program_of(state)
    if not program.strata:
        return state
    state = _with_asserted_cells(_without_derived(state, program), program)
    for stratum in program.strata:
        if in_duckdb is not None and in_duckdb(state, stratum):
            from arest.compiler import duckdb_eval  # only asked for by name: none by default

            found = duckdb_eval.derive_stratum(state, stratum)
            if found is not None:
                state = found
                continue
        store = Store(state, stratum, scratch=True)
        for rule in stratum:
            if rule.is_aggregation:
                aggregate(store, rule, None, state)
        joins = [rule for rule in stratum if not rule.is_aggregation]
        delta: Facts = {}
        for rule in joins:
            index, plan = next((i, p) for i, p in enumerate(rule.seeds) if not p.negated)
            seeds = relation_of(state, plan.seed, len(rule.consequent))
            insert(store, rule, str(index), plan, tuple(seeds), state, delta)
        rounds(store, joins, delta)
        state = store.result()
    return _indexed(state, program) if indexed else state


def _indexed(state: State, program: Program) -> State:
    """state, with the index of every role a plan probes built: the derivation that made a
    relation pays for its indexes, so the first command after it does not pay O(len) for one.
    """
    for fact_type, roles in program.probed_roles.items():
        relation = state.get(fact_type)
        if isinstance(relation, Relation):
            relation.indexed(roles)
    return state


def _without_derived(state: State, program: Program) -> State:
    cells: dict[str, Relation] = {}
    for rule in program.rules():
        relation = state.get(rule.fact_type)
        if isinstance(relation, Relation) and rule.fact_type not in cells:
            kept = dict(relation.plain_items())
            if len(kept) != len(relation):
                cells[rule.fact_type] = Relation.frozen(relation.arity, kept)
    return state.update(cells) if cells else state


def _with_asserted_cells(state: State, program: Program) -> State:
    cells = {
        asserted_cell(f): Relation.frozen(2, {
            fact: ASSERTED for fact, _ in relation_of(state, f, 2).plain_items()})
        for f in program.asserted
    }
    return state.update(cells) if cells else state


def insert(store: Store, rule: Rule, plan_id: str, plan: Plan, seeds: Iterable[Fact],
            state: State, delta: Facts, changes: Changes | None = None) -> None:
    """Run one plan on seeds; each consequent not yet in P enters with its support."""
    fact_type = rule.fact_type
    if store.scratch:
        # Every head enters ``facts`` the first time it is seen, so the round's new facts
        # are distinct without a set of their own.
        facts = store.facts[fact_type]
        fresh = store.fresh.setdefault(fact_type, [])
        columns = _columns(plan)
        if columns == (0, 2) and store.implied_by(rule, plan_id, plan, columns) == 1:
            batch = seeds if isinstance(seeds, (tuple, list)) else tuple(seeds)
            joined = system.row_chains.pair_join(plan.steps, batch, state)
            if joined is not None:
                _enter_pairs(facts, fresh if fact_type in store.seeding else None, batch,
                             *joined)
                return
        found = rows(plan, seeds, state)
        if columns is not None and len(columns) >= 2:
            # The hot loop of a closure: one dict probe per row.
            append = fresh.append
            kept = store.implied_by(rule, plan_id, plan, columns)
            if kept is not None:
                atoms = list(map(itemgetter(kept), found))
                if set(map(type, atoms)) <= {str}:  # atoms, as rows hold: never a support
                    for head, atom in zip(map(itemgetter(*columns), found), atoms, strict=True):
                        if head not in facts:
                            facts[head] = atom
                            append(head)
                    return
            rid = rule.id
            for head, row in zip(map(itemgetter(*columns), found), found, strict=True):
                if head not in facts:
                    facts[head] = (rid, plan_id, row)
                    append(head)
            return
        for head, row in heads(plan, found):
            if head not in facts:
                facts[head] = (rule.id, plan_id, row)
                fresh.append(head)
        return
    _enter(store, rule, plan_id, plan, rows(plan, seeds, state), delta, changes)


def _enter_pairs(facts: dict[Fact, object], fresh: list[Fact] | None, seeds: Sequence[Fact],
                 get: Callable[[str, Collection[Fact]], Collection[Fact]], column: int,
                 new: int) -> None:
    """From scratch, a pair join's rows ⟨a, b, φ[new]⟩ entered as they are found, without
    building them (:func:`~arest.system.row_chains.pair_join`): each head ⟨a, φ[new]⟩ not
    yet in facts enters with b, its row's middle, which the fact type's implied supports
    expand to ⟨rule, plan, ⟨a, b, φ[new]⟩⟩ — what the evaluator's rows would have given;
    and the round's new facts, when listed (``fresh``)."""
    empty: tuple[Fact, ...] = ()
    if fresh is None:
        # No later round reads them: ``setdefault`` keeps the first row's middle, one probe.
        keep = facts.setdefault
        for a, b in seeds:
            for fact in get(b if column else a, empty):
                keep((a, fact[new]), b)
        return
    append = fresh.append
    if column:
        for a, b in seeds:
            for fact in get(b, empty):
                head = (a, fact[new])
                if head not in facts:
                    facts[head] = b
                    append(head)
    else:
        for a, b in seeds:
            for fact in get(a, empty):
                head = (a, fact[new])
                if head not in facts:
                    facts[head] = b
                    append(head)


def _enter(store: Store, rule: Rule, plan_id: str, plan: Plan, found: tuple[Row, ...],
           delta: Facts, changes: Changes | None) -> None:
    """From a delta: each head of the rows found that P does not hold yet enters pending with
    its support (the first row that finds it), and delta and changes with it.

    P lacks a head when this derivation has not written it (everything written since the
    last view is pending) and the relation as of that view lacks it or this derivation
    dropped it."""
    fact_type = rule.fact_type
    pending, dropped = store.pending[fact_type], store.dropped[fact_type]
    held = store.relation(fact_type).membership()
    rid = rule.id
    entered: list[Fact] = []
    enter = entered.append
    columns = _columns(plan)
    pairs = (zip(map(itemgetter(*columns), found), found, strict=True)
             if columns is not None and len(columns) >= 2 else heads(plan, found))
    for head, row in pairs:
        if head in pending or (held(head) and head not in dropped):
            continue
        pending[head] = (rid, plan_id, row)
        enter(head)
    if dropped:
        dropped.difference_update(entered)
    delta.setdefault(fact_type, set()).update(entered)
    if changes is not None:
        changes.add_all(fact_type, entered)


def rounds(store: Store, rules: list[Rule], delta: Mapping[str, Collection[Fact]],
            changes: Changes | None = None) -> None:
    """Semi-naive rounds: each seed plan whose seed the stratum derives runs on the last
    round's new facts, until a round derives nothing."""
    derived = set(store.arity)
    # A plan seeded by a derived fact type reads the facts derived so far only when it joins
    # a derived fact type too; otherwise the state the rounds began with serves every round
    # (from a delta, the pending writes are what ``insert`` checks a head against).
    needs_view = _reads_own(rules, derived)
    if store.scratch:
        delta = {**delta, **store.take_fresh()}
    while any(delta.values()):
        state = store.view() if needs_view else store.state
        current = delta
        written: Facts = {}
        for rule in rules:
            for index, plan in enumerate(rule.seeds):
                seeds = current.get(plan.seed)
                if seeds and not plan.negated:
                    insert(store, rule, str(index), plan, seeds, state, written, changes)
        delta = store.take_fresh() if store.scratch else written


def _reads_own(rules: list[Rule], derived: set[str]) -> bool:
    """Whether a plan seeded by a derived fact type joins a derived fact type too (then each
    round must see what was derived so far, not only the last delta)."""
    return any(
        any(f in derived for f, _ in rule.reads if f != plan.seed)
        or sum(1 for other in rule.seeds if other.seed == plan.seed) > 1
        for rule in rules for plan in rule.seeds if plan.seed in derived
    )


def aggregate(store: Store, rule: Rule, groups: set[Fact] | None, state: State,
               changes: Changes | None = None) -> None:
    """Recompute an aggregation's facts for the groups (every group when None)."""
    assert rule.total is not None
    if groups is None:
        inner = next(p for p in rule.seeds if not p.negated)
        groups = {head for head, _ in heads(
            inner, rows(inner, tuple(relation_of(state, inner.seed, 1)), state))}
    if not groups:
        return
    old = store.derived_facts(rule, groups)
    totals = {row[:-1]: row[-1] for row in rows(rule.total, sorted(groups), state)}
    _, group_vars, variable = rule.aggregate
    for key in sorted(groups):
        wanted: Fact | None = None
        if key in totals:
            values = dict(zip(group_vars, key, strict=True))
            values[variable] = totals[key]
            wanted = tuple(values[t] if t in values else str(literal_of(t))
                           for t in rule.consequent)
        for fact in old.get(key, ()):
            if fact != wanted:
                store.drop(rule.fact_type, fact)
                if changes is not None:
                    changes.remove(rule.fact_type, fact)
        if wanted is not None and store.payload(rule.fact_type, wanted) is None:
            store.put(rule.fact_type, wanted, (rule.id, GROUP, key))
            if changes is not None:
                changes.add(rule.fact_type, wanted)
