"""A count rule maintained as its own incremental step: each group's count moves by the
targets that entered and left it, instead of DRed recounting the group.

A count rule derives, per group g, the number n(g) = |T(g)| of distinct targets t over the
rows of its join chain (:mod:`arest.system.row_chains`), and no fact where T(g) is empty.
From a command's delta, with P the state before and P' the state after:

    T'(g) = T(g) − lost(g) ∪ gained(g)

where the candidates lost(g) are the targets of the rows the rule's seed plans find from
the facts that left, in P, and gained(g) those from the facts that arrived, in P' (every
row of one state that the other lacks uses such a fact).  A candidate is decided without
reading its group when one relation the chain reads t from holds no fact for t in the other
state: then t is in no row there.  When every candidate is so decided, lost(g) ⊆ T(g) and
gained(g) ∩ T(g) = ∅, so n'(g) = n(g) − |lost(g)| + |gained(g)|, read from the group's
derived fact: the old count fact goes, the new one comes with the support DRed gives it,
⟨rule, ``group``, ⟨group values⟩⟩ (none when n'(g) = 0).  Anywhere else (a candidate not
so decided, a group whose count fact is not this rule's alone, D redefining a primitive
the chain applies, a rule of another shape) :func:`count_step` answers None and DRed
recounts the groups.  ``tests/system/test_derive_counts.py`` states that the settled state,
its supports and the command's derived delta are DRed's and a derivation from scratch's.
"""

from __future__ import annotations

from arest.algebra import Object, State
from arest.algebra.memo import IdentityMemo
from arest.algebra.relations import Fact, Relation
from arest.compiler.derivations import Rule
from arest.compiler.plans import Plan, literal_of
from arest.records import record
from arest.system.derive import GROUP, SMALL_BATCH, Changes, Facts, Row, relation_of, rows
from arest.system.row_chains import CHAIN_ATOMS, Chain, chain_of, links_of

Witness = tuple[str, int, int, tuple[tuple[int, str], ...]]
"""(relation, its arity, the role holding the target, the literal roles): every row with
target t uses a fact of the relation with t in that role and those literals."""


SeedRun = tuple[str, Plan, Chain | None, tuple[int, ...], int]
"""Per seed plan: its seed fact type, the plan, its chain (:func:`~arest.system.row_chains.
chain_of`, run directly where :func:`_plain` holds; None where the plan is no chain and
:func:`~arest.system.derive.rows` evaluates it), the group values' columns in its rows (in
the group key's order) and the target's column."""


@record
class CountShape:
    """What the step reads of a recognised count rule."""

    seeds: tuple[SeedRun, ...]
    """Per seed plan, in the rule's order."""
    witnesses: tuple[Witness, ...]
    relations: tuple[tuple[str, int], ...]
    """Every relation the chains (the goal's and the seed plans') join, with the arity each
    needs."""
    group_roles: tuple[tuple[int, int], ...]
    """(consequent role, index in the group key) of each group variable."""
    count_role: int
    consequent: tuple[tuple[int, str], ...]
    """Per consequent role: (index in the group key, ""), (-1, "") for the count, or (-2,
    the literal)."""


def shape_of(rule: Rule) -> CountShape | None:
    """The rule's count shape; None unless it is a count of a column its joins bring in,
    over the goal's chain of a bind and joins, seeded by positive plans whose rows hold the
    target and whose heads are the group variables."""
    op, group_vars, variable = rule.aggregate
    total, goal = rule.total, rule.goal
    if op != "count" or total is None or not rule.seeds:
        return None
    steps = total.steps
    if not (type(steps) is tuple and len(steps) == 3 and steps[0] == "COMP"
            and steps[1] == "aggregate" and type(steps[2]) is tuple and len(steps[2]) == 3
            and steps[2][0] == "CONS" and steps[2][2] == goal.steps):
        return None
    spec = steps[2][1]
    if not (type(spec) is tuple and len(spec) == 2 and spec[0] == "CONST"):
        return None
    counted = _counted(spec[1], goal.variables, group_vars)
    links = links_of(goal.steps)
    if counted is None or links is None:
        return None
    witnesses = _witnesses(links, counted)
    if not witnesses:
        return None
    target = goal.variables[counted]
    targets = []
    for plan in rule.seeds:
        if plan.negated or target not in plan.variables or not all(
                kind == "=" for kind, _ in plan.head) or tuple(
                plan.variables[int(v) - 1] for _, v in plan.head) != group_vars:
            return None
        targets.append(plan.variables.index(target))
    consequent = rule.consequent
    if consequent.count(variable) != 1 or any(
            consequent.count(g) != 1 for g in group_vars):
        return None
    template = tuple((group_vars.index(term), "") if term in group_vars
                     else (-1, "") if term == variable else (-2, str(literal_of(term)))
                     for term in consequent)
    chains = tuple(chain_of(plan.steps) for plan in rule.seeds)
    relations = {(name, len(join)) for name, join in links[1] if type(join) is tuple}
    for chain in chains:
        if chain is not None:
            relations.update(chain.relations)
    return CountShape(
        tuple((plan.seed, plan, chain, tuple(int(v) - 1 for _, v in plan.head), column)
              for plan, chain, column in zip(rule.seeds, chains, targets, strict=True)),
        witnesses, tuple(sorted(relations)),
        tuple((consequent.index(g), i) for i, g in enumerate(group_vars)),
        consequent.index(variable), template)


def _counted(spec: Object, variables: tuple[str, ...], group_vars: tuple[str, ...]
             ) -> int | None:
    """The counted column of ``⟨count, ⟨g, …⟩, t⟩`` when its groups are the group
    variables in order."""
    if not (type(spec) is tuple and len(spec) == 3 and spec[0] == "count"
            and type(spec[1]) is tuple and type(spec[2]) is str):
        return None
    columns = [int(c) - 1 for c in (*spec[1], spec[2])
               if type(c) is str and c.isdigit() and 1 <= int(c) <= len(variables)]
    if len(columns) != len(spec[1]) + 1:
        return None
    if tuple(variables[c] for c in columns[:-1]) != group_vars:
        return None
    return columns[-1]


def _witnesses(links: tuple[Object, tuple[tuple[str, Object], ...]], target: int
               ) -> tuple[Witness, ...]:
    """Each join that probes by the target's column or brings it in: (relation, arity,
    role, literal roles).  None of them when the bind brings it in (a group value)."""
    bind, joins = links
    assert type(bind) is tuple
    width = sum(1 for term in bind if term == "+")
    if target < width:
        return ()
    found: list[Witness] = []
    for name, spec in joins:
        assert type(spec) is tuple
        # chain_of recognised each spec: its literals and its probe's column are strings.
        literals = tuple((role, str(term[1])) for role, term in enumerate(spec)
                         if type(term) is tuple and term[0] == "'")
        for role, term in enumerate(spec):
            if type(term) is tuple and term[0] == "=" and int(str(term[1])) - 1 == target:
                found.append((name, len(spec), role, literals))
            elif term == "+":
                if width == target:
                    found.append((name, len(spec), role, literals))
                width += 1
    return tuple(found)


_shapes = IdentityMemo(shape_of, limit=256)
"""Each rule's count shape (or None), by the rule's identity: the rules are decoded once
per program (:func:`arest.system.derive.program_of`)."""


def count_step(rule: Rule, before: State, state: State, plus: Facts, minus: Facts,
               changes: Changes) -> dict[str, Relation] | None:
    """The rule's relation after the command, its count facts moved by the targets that
    entered and left their groups, with the changes recorded as DRed records them; None
    where this step does not decide (DRed recounts there)."""
    shape = _shapes(rule)
    fact_type = rule.fact_type
    if shape is None or fact_type in plus or fact_type in minus:
        return None
    if not (_plain(shape, before) and _plain(shape, state)):
        return None
    lost: dict[Fact, set[str]] = {}
    gained: dict[Fact, set[str]] = {}
    for seed, plan, chain, group, column in shape.seeds:
        went, came = minus.get(seed), plus.get(seed)
        if went:
            for row in _seed_rows(plan, chain, went, before):
                lost.setdefault(tuple([row[c] for c in group]), set()).add(row[column])
        if came:
            for row in _seed_rows(plan, chain, came, state):
                gained.setdefault(tuple([row[c] for c in group]), set()).add(row[column])
    if not (lost or gained):
        return {}
    witnesses = shape.witnesses
    for moved, other in ((lost, state), (gained, before)):
        for targets in moved.values():
            for target in targets:
                if not _in_no_row(target, witnesses, other):
                    return None
    relation = relation_of(state, fact_type, rule.arity)
    moves = []
    for key in sorted(lost.keys() | gained.keys()) if lost else sorted(gained):
        step = len(gained.get(key, ())) - len(lost.get(key, ()))
        held = _group_facts(relation, shape.group_roles, key)
        old: Fact | None = None
        count = 0
        if held:
            old = held[0]
            if len(held) != 1 or relation.payload(old) != (rule.id, GROUP, key):
                return None  # the group's fact is not this rule's count alone
            value = old[shape.count_role]
            if not (type(value) is str and value.isdigit()):
                return None
            count = int(value)
        if count + step < 0 or (old is None and key in lost):
            return None  # a group that lost a target had a count: D was not settled
        if step:
            moves.append((key, old, count + step))
    dropped: list[Fact] = []
    put: dict[Fact, object] = {}
    for key, old, count in moves:
        if old is not None:
            dropped.append(old)
            changes.remove(fact_type, old)
        if count:
            wanted = _count_fact(shape.consequent, key, count)
            put[wanted] = (rule.id, GROUP, key)
            changes.add(fact_type, wanted)
    if not dropped and not put:
        return {}
    return {fact_type: relation.updated(put.items(), dropped) if dropped
            else relation.with_new(put)}


def _seed_rows(plan: Plan, chain: Chain | None, facts: set[Fact], state: State
               ) -> tuple[Row, ...]:
    """``rows(plan, facts, state)`` where :func:`_plain` holds of state: a small batch of
    facts of the chain's seed arity runs its steps as ``chain_rows`` would once it has
    checked what ``_plain`` checked."""
    if chain is not None and len(facts) <= SMALL_BATCH:
        arity = chain.seed_arity
        found = tuple(facts)
        if all(type(fact) is tuple and len(fact) == arity for fact in found):
            for step in chain.steps:
                found = step(found, state)
            return found
    return rows(plan, facts, state)


def _plain(shape: CountShape, state: State) -> bool:
    """Whether state leaves the chains' meaning alone: it defines none of the atoms they
    apply, and each relation they join is of the arity they read or absent."""
    for atom in CHAIN_ATOMS:
        if atom in state:
            return False
    for name, arity in shape.relations:
        cell = state.get(name)
        if cell is not None and not (isinstance(cell, Relation) and cell.arity == arity):
            return False
    return True


def _in_no_row(target: str, witnesses: tuple[Witness, ...], state: State) -> bool:
    """Whether some relation a row reads the target from holds no fact for it in state."""
    for name, _, role, literals in witnesses:
        cell = state.get(name)
        if not isinstance(cell, Relation):
            return True
        if not any(all(fact[r] == v for r, v in literals)
                   for fact in cell.matching(role, target)):
            return True
    return False


def _group_facts(relation: Relation, group_roles: tuple[tuple[int, int], ...], key: Fact
                 ) -> list[Fact]:
    """The relation's facts that hold the group's values in the group roles."""
    if not group_roles:
        return list(relation)
    role, index = group_roles[0]
    return [fact for fact in relation.matching(role, key[index])
            if all(fact[r] == key[i] for r, i in group_roles)]


def _count_fact(consequent: tuple[tuple[int, str], ...], key: Fact, count: int) -> Fact:
    """The consequent for a group's count, as DRed's aggregation builds it: per role, a
    group value (by its index in the key), the count (-1) or a literal (-2)."""
    return tuple([key[i] if i >= 0 else str(count) if i == -1 else literal
                  for i, literal in consequent])
