"""The checks: each constraint kind as an FFP function from keys to violations.

Every check maps a sequence of keys to ⟨⟨key, evidence⟩, …⟩, the keys that violate the
constraint with the facts that show it, and reads D only through the primitives that read
it by index (:mod:`arest.algebra.environment`).  Each kind also says which keys of a delta
its check needs (its triggers; :mod:`arest.compiler.constraints`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from arest.algebra import Object
from arest.algebra.forms import alpha, comp, cond, cons, const, filter_, insert
from arest.records import record

if TYPE_CHECKING:
    from arest.compiler.schema import ConstraintInfo, Schema

ADDED, REMOVED, ENTITIES = "added", "removed", "entities"
NOTHING = const(())

_COMPARISONS = {">": "gt", "<": "lt", ">=": "ge", "<=": "le", "=": "eq"}

Trigger = tuple[str, str, tuple[int, ...]]
Check = tuple[list[Trigger], Object]
"""A check and the triggers that give its keys; a kind may need several (a list)."""


# -- building blocks: functions of a key ----------------------------------------------------
def _number(n: int) -> Object:
    return const(str(n))


def _all(predicates: Sequence[Object]) -> Object:
    """p₁ ∧ … ∧ pₙ (T when n = 0)."""
    if not predicates:
        return const("T")
    return predicates[0] if len(predicates) == 1 else comp(insert("and"), cons(*predicates))


def _any(predicates: Sequence[Object]) -> Object:
    if not predicates:
        return const("F")
    return predicates[0] if len(predicates) == 1 else comp(insert("or"), cons(*predicates))


def _not(predicate: Object) -> Object:
    return comp("not", predicate)


def _nonempty(sequence: Object) -> Object:
    return comp("not", "null", sequence)


def facts_with(fact_type: str, roles: Sequence[int]) -> Object:
    """key ⟨v₁,…,vₘ⟩ ↦ the facts of the fact type whose roles (0-based) hold v₁,…,vₘ: an
    indexed lookup on the first role, then a filter on the others."""
    first = comp("matching", cons(const(fact_type), _number(roles[0] + 1), "1"))
    if len(roles) == 1:
        return first
    same = _all([
        comp("eq", cons(comp(str(index + 1), "1"), comp(str(role + 1), "2")))
        for index, role in enumerate(roles) if index > 0
    ])
    return comp(alpha("2"), filter_(same), "distl", cons("id", first))


def holding(facts: Object, restricted: Sequence[tuple[int, str]]) -> Object:
    """The facts that hold each (role, value) of ``restricted`` (roles 0-based): a clause's
    literals (``Parcel has Status 'Shipped'``) select among the facts its key selects.

    >>> show(apply(holding("id", [(1, "Shipped")]), read("<<p1, Packed>, <p2, Shipped>>")))
    '<<p2, Shipped>>'
    """
    if not restricted:
        return facts
    literal = _all([comp("eq", cons(str(role + 1), const(value))) for role, value in restricted])
    return comp(filter_(literal), facts)


def _count(fact_type: str, roles: Sequence[int]) -> Object:
    if len(roles) == 1:
        return comp("count", cons(const(fact_type), _number(roles[0] + 1), "1"))
    return comp("length", facts_with(fact_type, roles))


def _holds(fact_type: str, fact: Object) -> Object:
    return comp("holds", cons(const(fact_type), fact))


def _violations(violated: Object, detail: Object) -> Object:
    """⟨k, …⟩ ↦ ⟨⟨k, detail:k⟩ | violated:k = T⟩."""
    return comp(alpha(cons("id", detail)), filter_(violated))


def _unsatisfied(satisfied: Object, detail: Object) -> Object:
    """The keys where satisfied is not T (⊥ too: a value that cannot be compared fails)."""
    return _violations(comp("null", filter_(satisfied), cons("id")), detail)


def _roles_1(roles: Sequence[int]) -> tuple[int, ...]:
    return tuple(role + 1 for role in roles)


# -- a shape the system layer runs without the evaluator -------------------------------------
@record
class CountBound:
    """A check that counts the facts of one fact type holding a key's value in one role:
    a uniqueness over that role (violated above one fact; the evidence is those facts) or a
    mandatory role played in that one fact type (violated at none; the evidence names the
    fact type).  :meth:`check` is the FFP object it stands for, which stays the semantics:
    ``arest.system.validate`` runs such a check by index only where it gives that object's
    value.

    >>> bound = CountBound("Customer_has_Name", 0, mandatory=False)
    >>> count_bound(bound.check()) == bound, count_bound(NOTHING)
    (True, None)
    """

    fact_type: str
    role: int
    """The counted role, 0-based."""
    mandatory: bool

    def check(self) -> Object:
        """The check as :func:`_uniqueness` and :func:`_mandatory` build it."""
        counted = _count(self.fact_type, [self.role])
        if self.mandatory:
            plays = comp("gt", cons(counted, _number(0)))
            return _violations(_not(_any([plays])), const((self.fact_type,)))
        more_than_one = comp("gt", cons(counted, _number(1)))
        return _violations(more_than_one, facts_with(self.fact_type, [self.role]))


def count_bound(check: Object) -> CountBound | None:
    """The :class:`CountBound` whose check is ``check`` (equal as objects), or None."""
    try:
        predicate = check[2][1]  # type: ignore[index]
        if predicate[1] == "not":  # type: ignore[index]
            predicate = predicate[2]  # type: ignore[index]
        counted = predicate[2][1][2]  # type: ignore[index]
        fact_type, position = counted[1][1], counted[2][1]  # type: ignore[index]
    except (IndexError, TypeError):
        return None
    if type(fact_type) is not str or type(position) is not str or not (
            position.isascii() and position.isdigit() and int(position) >= 1):
        return None
    for mandatory in (False, True):
        bound = CountBound(fact_type, int(position) - 1, mandatory)
        if bound.check() == check:
            return bound
    return None


# -- the kinds -------------------------------------------------------------------------------
def _external_uniqueness(
    clause: list[tuple[str, tuple[int, ...]]], schema: Schema
) -> Check | None:
    """UC across binary fact types that share one noun N at their other roles: no two
    entities of N have the same combination of values (``For each Room and Time, at most one
    Booking is in that Room and is at that Time``).  The key is an entity of N; an entity
    without a value in some fact type has no combination (its value is ⊥, the filter drops
    it)."""
    parts: list[tuple[str, int, int]] = []
    for fact_type, roles in clause:
        nouns = schema.fact_types[fact_type].roles
        if len(nouns) != 2 or len(roles) != 1:
            return None
        parts.append((fact_type, roles[0], 1 - roles[0]))
    if len({schema.fact_types[f].roles[other] for f, _, other in parts}) != 1:
        return None

    def value_of_entity(fact_type: str, role: int, other: int) -> Object:
        """⟨e⟩ ↦ e's value in the fact type (⊥ when it has none)."""
        facts = comp("matching", cons(const(fact_type), _number(other + 1), "1"))
        return comp("1", alpha(str(role + 1)), facts)

    first, role, other = parts[0]
    sharing_first = comp(alpha(str(other + 1)), "matching", cons(
        const(first), _number(role + 1), value_of_entity(first, role, other)))

    def fact_of(fact_type: str, role: int, other: int) -> Object:
        """⟨⟨e⟩, e′⟩ ↦ the fact of e′ with e's value."""
        built = ["2", comp(value_of_entity(fact_type, role, other), "1")]
        return cons(*(built if other == 0 else built[::-1]))

    same = _all([_holds(f, fact_of(f, r, o)) for f, r, o in parts[1:]])
    sharing = comp(alpha("2"), filter_(same), "distl", cons("id", sharing_first))
    violated = comp("gt", cons(comp("length", sharing), _number(1)))
    triggers: list[Trigger] = [(ADDED, f, (o + 1,)) for f, _, o in parts]
    return triggers, _violations(violated, sharing)


def _uniqueness(c: ConstraintInfo, schema: Schema) -> Check | None:
    if c.restrictions:
        return None
    (clause,) = c.clauses()
    if len(clause) != 1:
        return _external_uniqueness(clause, schema)
    fact_type, roles = clause[0]
    if len(roles) == len(schema.fact_types[fact_type].roles):
        return [], NOTHING  # every fact is unique: a relation is a set
    more_than_one = comp("gt", cons(_count(fact_type, roles), _number(1)))
    return [(ADDED, fact_type, _roles_1(roles))], _violations(
        more_than_one, facts_with(fact_type, roles)
    )


def _frequency(c: ConstraintInfo, schema: Schema) -> Check | None:
    if c.restrictions:
        return None
    (clause,) = c.clauses()
    if len(clause) != 1:
        return None
    fact_type, roles = clause[0]
    count = _count(fact_type, roles)
    outside = []
    if c.minimum is not None:
        outside.append(comp("lt", cons(count, _number(c.minimum))))
    if c.maximum is not None:
        outside.append(comp("gt", cons(count, _number(c.maximum))))
    occurs = comp("gt", cons(count, _number(0)))
    violated = _all([occurs, _any(outside)])
    triggers = [(ADDED, fact_type, _roles_1(roles)), (REMOVED, fact_type, _roles_1(roles))]
    return triggers, _violations(violated, facts_with(fact_type, roles))


def _entity_noun(clause: list[tuple[str, tuple[int, ...]]], schema: Schema) -> str | None:
    nouns = {schema.fact_types[f].roles[roles[0]] for f, roles in clause if len(roles) == 1}
    return nouns.pop() if len(nouns) == 1 else None


def _mandatory(c: ConstraintInfo, schema: Schema) -> Check | None:
    if c.restrictions:
        return None
    (clause,) = c.clauses()
    noun = _entity_noun(clause, schema)
    if noun is None:
        return None
    plays = [comp("gt", cons(_count(f, roles), _number(0))) for f, roles in clause]
    triggers: list[Trigger] = [(ENTITIES, noun, ())]
    triggers += [(REMOVED, f, _roles_1(roles)) for f, roles in clause]
    return triggers, _violations(_not(_any(plays)), const(tuple(f for f, _ in clause)))


def _set_of_clauses(c: ConstraintInfo, schema: Schema) -> Check | None:
    """XO, XC, OR over clauses that each select facts by a key of the same shape (and hold
    the clause's literals)."""
    clauses = [clause[0] for clause in c.clauses() if len(clause) == 1]
    if len(clauses) != len(c.clauses()) or len({len(r) for _, r in clauses}) != 1:
        return None
    literals = [c.restricted(number, f) for number, (f, _) in enumerate(clauses, start=1)]
    if sum(len(found) for found in literals) != len(c.restrictions):
        return None
    selected = [
        holding(facts_with(f, roles), found)
        for (f, roles), found in zip(clauses, literals, strict=True)
    ]
    satisfied = comp("length", filter_("id"), cons(*(_nonempty(s) for s in selected)))
    limit = {"XC": ("gt", 1), "OR": ("eq", 0), "XO": ("eq", 1)}[c.kind]
    violated = comp(limit[0], cons(satisfied, _number(limit[1])))
    if c.kind == "XO":
        violated = _not(violated)
    triggers: list[Trigger] = []
    for f, roles in clauses:
        if c.kind != "OR":
            triggers.append((ADDED, f, _roles_1(roles)))
        if c.kind != "XC":
            triggers.append((REMOVED, f, _roles_1(roles)))
    noun = _entity_noun(clauses, schema)
    if c.kind != "XC" and noun is not None:
        triggers.append((ENTITIES, noun, ()))
    return triggers, _violations(violated, cons(*selected))


def _aligned(
    first: tuple[str, tuple[int, ...]], second: tuple[str, tuple[int, ...]], schema: Schema
) -> tuple[int, ...] | None:
    """second's roles ordered to correspond to first's roles, noun by noun."""
    first_nouns = [schema.fact_types[first[0]].roles[r] for r in first[1]]
    remaining = list(second[1])
    ordered: list[int] = []
    for noun in first_nouns:
        match = next(
            (r for r in remaining if schema.fact_types[second[0]].roles[r] == noun), None
        )
        if match is None:
            return None
        remaining.remove(match)
        ordered.append(match)
    return tuple(ordered) if not remaining else None


def _join_subset(c: ConstraintInfo, schema: Schema) -> list[Check] | None:
    """A subset whose first clause joins two fact types (``If some Customer places some Order
    then that Order has Shipping Address equal to that Customer's Shipping Address``): for
    every x and y the join pairs, ⟨x, y⟩ must be a fact of the second clause.  Literals of
    the first joined fact type select among its facts; others are not enforced.

    The key is x (an Order).  A new fact of the first joined fact type names its x; a removed
    fact of the second clause names its x; a new fact of the other joined fact type names the
    join value (a Customer), whose xs are checked — a second part keyed the same way."""
    clauses = c.clauses()
    if len(c.joins) != 1 or len(clauses) != 2 or len(clauses[0]) != 2 or len(clauses[1]) != 1:
        return None
    fa, ja, fb, jb, _ = c.joins[0]
    spans = dict(clauses[0])
    target, target_roles = clauses[1][0]
    if set(spans) != {fa, fb} or any(len(roles) != 1 for roles in spans.values()):
        return None
    restricted = c.restricted(1, fa)
    if len(restricted) != len(c.restrictions):
        return None
    ra, rb = spans[fa][0], spans[fb][0]
    x_noun, y_noun = schema.fact_types[fa].roles[ra], schema.fact_types[fb].roles[rb]
    target_nouns = [schema.fact_types[target].roles[r] for r in target_roles]
    if x_noun == y_noun or sorted(target_nouns) != sorted([x_noun, y_noun]) or len(
        schema.fact_types[target].roles
    ) != 2:
        return None
    joined = comp(alpha(str(ja + 1)), holding(
        comp("matching", cons(const(fa), _number(ra + 1), "1")), restricted))
    expand = comp("distl", cons("1", comp(
        alpha(str(rb + 1)), "matching", cons(const(fb), _number(jb + 1), "2"))))
    pairs = comp("concat", alpha(expand), "distl", cons("1", joined))
    fact = cons(*("1" if noun == x_noun else "2"
                  for noun in schema.fact_types[target].roles))
    missing = comp(filter_(_not(_holds(target, fact))), pairs)
    check = _violations(_nonempty(missing), missing)
    x_role = schema.fact_types[target].roles.index(x_noun)
    xs_of_join = comp(alpha(cons("id")), alpha(str(ra + 1)), holding(
        comp("matching", cons(const(fa), _number(ja + 1), "1")), restricted))
    by_join = comp(check, "concat", alpha(xs_of_join))
    return [
        ([(ADDED, fa, (ra + 1,)), (REMOVED, target, (x_role + 1,))], check),
        ([(ADDED, fb, (jb + 1,))], by_join),
    ]


def _subset(c: ConstraintInfo, schema: Schema) -> Check | list[Check] | None:
    if c.joins:
        return _join_subset(c, schema) if c.kind == "SS" else None
    clauses = c.clauses()
    if len(clauses) != 2 or len(clauses[0]) != 1 or len(clauses[1]) != 1:
        return None
    (sub_type, sub_roles), (sup_type, _) = clauses[0][0], clauses[1][0]
    sup_roles = _aligned(clauses[0][0], clauses[1][0], schema)
    if sup_roles is None:
        return None
    sub_literals, sup_literals = c.restricted(1, sub_type), c.restricted(2, sup_type)
    if len(sub_literals) + len(sup_literals) != len(c.restrictions):
        return None
    sub = holding(facts_with(sub_type, sub_roles), sub_literals)
    sup = holding(facts_with(sup_type, sup_roles), sup_literals)
    if c.kind == "SS":
        violated = _all([_nonempty(sub), comp("null", sup)])
        triggers = [(ADDED, sub_type, _roles_1(sub_roles)),
                    (REMOVED, sup_type, _roles_1(sup_roles))]
    else:  # EQ
        violated = _not(comp("eq", cons(comp("null", sub), comp("null", sup))))
        triggers = [(event, f, _roles_1(roles)) for event in (ADDED, REMOVED)
                    for f, roles in ((sub_type, sub_roles), (sup_type, sup_roles))]
    return triggers, _violations(violated, cons(sub, sup))


def _ring(c: ConstraintInfo, schema: Schema) -> Check | None:
    if c.restrictions:
        return None
    (clause,) = c.clauses()
    if len(clause) != 1 or len(schema.fact_types[clause[0][0]].roles) != 2:
        return None
    f = clause[0][0]
    added, removed = (ADDED, f, ()), (REMOVED, f, ())
    forward, backward = _holds(f, "id"), _holds(f, cons("2", "1"))
    same = comp("eq", cons("1", "2"))
    if c.kind == "IR":
        return [added], _violations(same, "id")
    if c.kind == "AS":
        return [added], _violations(backward, "id")
    if c.kind == "AT":
        return [added], _violations(_all([_not(same), backward]), "id")
    if c.kind == "SY":
        return [added, removed], _violations(
            _not(comp("eq", cons(forward, backward))), "id"
        )
    if c.kind == "AC":
        cycle = comp("path", cons(const(f), "2", "1"))
        return [added], _violations(_nonempty(cycle), cycle)
    # Pairs ⟨key, fact⟩ for the facts that start where the key ends (y, z), end where it
    # starts (w, x), or start where it starts (x, z).
    after = comp("distl", cons("id", comp("matching", cons(const(f), _number(1), "2"))))
    before = comp("distl", cons("id", comp("matching", cons(const(f), _number(2), "1"))))
    beside = comp("distl", cons("id", comp("matching", cons(const(f), _number(1), "1"))))
    x_to_z = _holds(f, cons(comp("1", "1"), comp("2", "2")))  # ⟨(x,y), (y,z)⟩ ↦ (x,z)?
    w_to_y = _holds(f, cons(comp("1", "2"), comp("2", "1")))  # ⟨(x,y), (w,x)⟩ ↦ (w,y)?
    z_to_y = _holds(f, cons(comp("2", "2"), comp("2", "1")))  # ⟨(x,y), (x,z)⟩ ↦ (z,y)?
    if c.kind == "IT":
        found = [filter_(x_to_z), filter_(w_to_y), filter_(z_to_y)]
        witnesses = cons(comp(found[0], after), comp(found[1], before), comp(found[2], beside))
        violated = _any([_nonempty(comp(found[0], after)), _nonempty(comp(found[1], before)),
                         _nonempty(comp(found[2], beside))])
        return [added], _violations(violated, witnesses)
    if c.kind == "TR":
        missing_after = comp(filter_(_not(x_to_z)), after)
        missing_before = comp(filter_(_not(w_to_y)), before)
        bridged = comp(filter_(z_to_y), beside)
        violated = cond(
            forward,
            _any([_nonempty(missing_after), _nonempty(missing_before)]),
            _nonempty(bridged),
        )
        return [added, removed], _violations(
            violated, cons(missing_after, missing_before, bridged)
        )
    if c.kind == "RF":
        node_plays = comp("gt", cons(comp("+", cons(
            comp("count", cons(const(f), _number(1), "1")),
            comp("count", cons(const(f), _number(2), "1")),
        )), _number(0)))
        loop = _holds(f, cons("1", "1"))
        triggers: list[Trigger] = [(event, f, (role,)) for event in (ADDED, REMOVED)
                                   for role in (1, 2)]
        return triggers, _violations(_all([node_plays, _not(loop)]), "id")
    return None


def _value(c: ConstraintInfo, schema: Schema) -> Check | None:
    if c.restrictions:
        return None
    if c.comparison is not None:
        (clause,) = c.clauses()
        if len(clause) != 1 or len(clause[0][1]) != 1:
            return None
        f, (role,) = clause[0]
        op, operand = c.comparison
        primitive = _COMPARISONS.get(op)
        compared = (
            comp(primitive, cons(str(role + 1), const(operand))) if primitive
            # The reader writes "not equal to" as <>.
            else _not(comp("eq", cons(str(role + 1), const(operand)))) if op in ("<>", "!=")
            else None
        )
        if compared is None:
            return None
        if c.operator == "forbidden":
            return [(ADDED, f, ())], _violations(compared, "id")
        return [(ADDED, f, ())], _unsatisfied(compared, "id")
    if not c.noun or c.noun not in schema.nouns:
        return None
    allowed = const(tuple(sorted(set(c.allowed))))
    member = _nonempty(comp(filter_("eq"), "distl", cons("1", allowed)))
    triggers: list[Trigger] = [
        (ADDED, fact_type.id, (position + 1,))
        for fact_type in schema.played_by(c.noun)
        for position, noun in enumerate(fact_type.roles) if noun == c.noun
    ]
    return triggers, _unsatisfied(member, cons("1", allowed))


KINDS = {
    "UC": _uniqueness, "FC": _frequency, "MC": _mandatory, "XO": _set_of_clauses,
    "XC": _set_of_clauses, "OR": _set_of_clauses, "SS": _subset, "EQ": _subset,
    "IR": _ring, "AS": _ring, "AT": _ring, "SY": _ring, "IT": _ring, "TR": _ring,
    "AC": _ring, "RF": _ring, "VC": _value,
}
