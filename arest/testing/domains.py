"""Hypothesis strategies over a user's compiled domain D: populations D accepts, populations
that break one named constraint, and commands that exercise every verb, machine and rule.

Everything is read from D's schema (its tenant's nouns, fact types, constraints, rules and
machines), so the strategies work on any readings.  Re-exported by :mod:`arest.testing`.

>>> import arest
>>> from hypothesis import find
>>> D = arest.load("readings/orders")
>>> broken = find(populations(D, invalid=True), lambda p: p.breaks.kind == "UC")
>>> out, same = arest.apply(D, *broken.command())
>>> out["rejected"], broken.breaks.id in {v["constraint_id"] for v in out["violations"]}
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import partial
from itertools import islice, product
from typing import Any

from hypothesis import strategies as st

from arest.algebra import State
from arest.algebra.relations import Relation
from arest.compiler.derivations import Program
from arest.compiler.fields import fields_of, status_fact_type
from arest.compiler.population import entity_ids, membership_fact_type
from arest.compiler.schema import ConstraintInfo, Schema, schema_of
from arest.system import apply as system_apply
from arest.system.derive import program_of
from arest.system.search import tenant_fact_types

Fact = tuple[str, tuple[str, ...]]

ADD_ONLY_KINDS = frozenset({"UC", "VC", "XC", "IR", "AS", "AT", "AC", "IT"})
"""Constraint kinds that only a fact added can break (a fact removed never does)."""
REMOVE_ONLY_KINDS = frozenset({"MC", "OR"})
"""Constraint kinds that only a fact removed (or an entity without its facts) can break."""
BREAKABLE_KINDS = ("UC", "MC", "FC", "VC", "IR", "AC", "SS", "EQ", "XC")
"""The kinds :func:`populations` with ``invalid=True`` breaks, one constraint at a time."""

_VALUES = ("1", "2", "5", "x", "y")
_OUTSIDER = "not-a-listed-value"
_SETTLE_ROUNDS = 6


@dataclass(frozen=True)
class ConstraintRef:
    """A constraint named as arest reports it: its id, kind and reading."""

    id: str
    kind: str
    reading: str


@dataclass(frozen=True)
class Population:
    """Facts to assert on D in one command, and the constraint they break (None: none).

    >>> p = Population((("Customer_has_Name", ("ann", "Ann")),))
    >>> p.command()
    ('assert', {'facts': [{'fact_type': 'Customer_has_Name', 'bindings': ['ann', 'Ann']}]})
    """

    facts: tuple[Fact, ...]
    breaks: ConstraintRef | None = None

    def command(self) -> tuple[str, dict[str, Any]]:
        """The one ``assert`` command that writes the facts: ``(key, input)`` (the empty
        population is valid but has none: ``assert`` takes at least one fact)."""
        return ("assert", {"facts": [{"fact_type": fact_type, "bindings": list(bindings)}
                                     for fact_type, bindings in self.facts]})


@dataclass(frozen=True)
class Domain:
    """What the strategies read from D: the tenant's asserted fact types with their role
    nouns, the values each noun takes, and the alethic constraints that span them."""

    schema: Schema
    fact_types: dict[str, tuple[str, ...]]
    entity_nouns: tuple[str, ...]
    values: dict[str, tuple[str, ...]]
    """Each value noun's values, and each entity noun's ids: up to two D holds, three new."""
    constraints: tuple[ConstraintInfo, ...]
    reaches: dict[str, frozenset[str]]
    """Each fact type's derived fact types: those a change to it may change, through rules."""
    derived_constraints: tuple[ConstraintInfo, ...]
    """The alethic constraints over the tenant's derived fact types."""

    def downstream(self, fact_type: str) -> list[ConstraintInfo]:
        """The alethic constraints over a fact type a change to fact_type may derive into."""
        return [c for c in self.derived_constraints
                if any(span[0] in self.reaches.get(fact_type, ()) for span in c.spans)]

    def is_entity(self, noun: str) -> bool:
        """Whether noun is an entity type (else its values are written as they are)."""
        return noun in self.entity_nouns

    def unique_roles(self, fact_type: str) -> set[int]:
        """The roles of fact_type an alethic single-role uniqueness constraint spans."""
        return self._single_roles("UC", fact_type)

    def mandatory_roles(self, fact_type: str) -> set[int]:
        """The roles of fact_type an alethic simple mandatory constraint spans."""
        return self._single_roles("MC", fact_type)

    def _single_roles(self, kind: str, fact_type: str) -> set[int]:
        return {c.spans[0][1] for c in self.constraints
                if c.kind == kind and len(c.spans) == 1 and c.spans[0][0] == fact_type}

    def joined_subtype(self, fact_type: str) -> str | None:
        """The subtype whose membership fact type (``<Sup>_is_a_<Sub>``) this is: a fact of
        it makes an entity one of the subtype."""
        for noun, info in self.schema.nouns.items():
            if any(membership_fact_type(noun, sup) == fact_type for sup in info.supertypes):
                return noun
        return None

    def over_roles_of(self, noun: str) -> list[ConstraintInfo]:
        """The alethic constraints spanning a role the noun plays (a new entity of the noun
        may wake those that ask something of each one: a mandatory role, a partition)."""
        return [c for c in self.constraints if any(
            f in self.schema.fact_types and self.schema.fact_types[f].roles[r] == noun
            for f, r, _ in c.spans)]

    def spanning(self, fact_type: str) -> list[ConstraintInfo]:
        """The alethic constraints over fact_type: those spanning one of its roles, and
        value constraints on a noun that plays one."""
        nouns = set(self.fact_types[fact_type])
        return [c for c in self.constraints
                if any(span[0] == fact_type for span in c.spans)
                or (c.kind == "VC" and c.noun in nouns)]


def domain_of(D: State) -> Domain:
    """The domain the strategies draw over: D's tenant fact types that commands may assert
    (not derived by a rule, not a machine's status, not a reference scheme's), entity nouns,
    each value noun's values (a value constraint's, else a few words and numerals) and the alethic
    constraints.

    >>> import arest
    >>> domain = domain_of(arest.load("readings/orders"))
    >>> domain.fact_types["Order_was_placed_by_Customer"], domain.values["Priority"]
    (('Order', 'Customer'), ('low', 'normal', 'rush'))
    """
    schema = schema_of(D)
    references = {(noun, part) for noun, info in schema.nouns.items() for part in info.reference}
    derived = {rule.fact_type for rule in schema.rules.values()}
    fact_types: dict[str, tuple[str, ...]] = {}
    for fact_type in tenant_fact_types(D):
        info = schema.fact_types[fact_type]
        reference = len(info.roles) == 2 and tuple(info.roles) in references
        status = fact_type == status_fact_type(info.roles[0])
        declared = all(noun in schema.nouns for noun in info.roles)
        if declared and not (info.mode or fact_type in derived or reference or status):
            fact_types[fact_type] = info.roles
    nouns = {noun for roles in fact_types.values() for noun in roles}
    constraints = tuple(c for c in schema.constraints.values() if c.modality == "alethic" and (
        any(span[0] in fact_types for span in c.spans) or (c.kind == "VC" and c.noun in nouns)))
    allowed = {c.noun: c.allowed for c in constraints if c.kind == "VC" and c.noun}
    entities = tuple(sorted(n for n in nouns if schema.nouns[n].kind != "value"))
    values = {noun: allowed.get(noun, _VALUES) if noun not in entities else _ids(D, noun)
              for noun in sorted(nouns)}
    program = program_of(D)
    reaches = {fact_type: _reached(program, fact_type) for fact_type in fact_types}
    downstream = frozenset().union(*reaches.values())
    derived_constraints = tuple(c for c in schema.constraints.values() if c.modality == "alethic"
                                and any(span[0] in downstream for span in c.spans))
    return Domain(schema, fact_types, entities, values, constraints, reaches,
                  derived_constraints)


def _reached(program: Program, fact_type: str) -> frozenset[str]:
    """The fact types rules derive, directly or through each other, from fact_type."""
    found: set[str] = set()
    pending = [fact_type]
    while pending:
        read = pending.pop()
        for rule in program.rules():
            if rule.fact_type not in found and any(f == read for f, _ in rule.reads):
                found.add(rule.fact_type)
                pending.append(rule.fact_type)
    return frozenset(found)


def _slug(noun: str) -> str:
    return noun.lower().replace(" ", "-")


def _ids(D: State, noun: str) -> tuple[str, ...]:
    """Ids an entity of noun may take: up to two D already holds, and three new ones."""
    return tuple(dict.fromkeys(
        [*entity_ids(D, noun)[:2], *(f"{_slug(noun)}-{n}" for n in (1, 2, 3))]))


@st.composite
def _candidate(draw: st.DrawFn, domain: Domain, at_least: int) -> list[Fact]:
    """Facts built to honour uniqueness, simple mandatory and value constraints: at least
    ``at_least`` entities of each noun; each entity drawn gets one fact for each mandatory
    role it plays, at most one where its role is unique, values from their value
    constraints."""
    chosen = {noun: draw(st.lists(st.sampled_from(domain.values[noun]), min_size=at_least,
                                  max_size=3, unique=True))
              for noun in domain.entity_nouns}
    facts: list[Fact] = []
    for fact_type, roles in domain.fact_types.items():
        if _closed_ring(domain, fact_type):
            continue
        mandatory, unique = domain.mandatory_roles(fact_type), domain.unique_roles(fact_type)
        driver = min(mandatory) if mandatory else 0
        for entity in chosen.get(roles[driver], []) if domain.is_entity(roles[driver]) else []:
            low = 1 if driver in mandatory else 0
            high = 1 if driver in unique else 2
            for _ in range(draw(st.integers(low, high))):
                fact = [_value(draw, chosen, domain, noun) for noun in roles]
                fact[driver] = entity
                if None not in fact:
                    facts.append((fact_type, tuple(f for f in fact if f is not None)))
    return _honour_uniqueness(domain, facts)


def _closed_ring(domain: Domain, fact_type: str) -> bool:
    """Whether a ring constraint asks facts of fact_type to come with others (symmetric,
    transitive, reflexive): random facts would nearly always be settled away."""
    return any(c.kind in ("SY", "TR", "RF") for c in domain.spanning(fact_type))


def _value(draw: st.DrawFn, chosen: dict[str, list[str]], domain: Domain,
           noun: str) -> str | None:
    pool = chosen[noun] if domain.is_entity(noun) else domain.values[noun]
    return draw(st.sampled_from(pool)) if pool else None


def _honour_uniqueness(domain: Domain, facts: Iterable[Fact]) -> list[Fact]:
    """The facts in order, each dropped that repeats one before it or its key on a unique
    role."""
    kept: list[Fact] = []
    seen: set[tuple[str, int, str] | Fact] = set()
    for fact_type, bindings in facts:
        keys = {(fact_type, role, bindings[role]) for role in domain.unique_roles(fact_type)}
        if (fact_type, bindings) in seen or keys & seen:
            continue
        seen.update(keys | {(fact_type, bindings)})
        kept.append((fact_type, bindings))
    return kept


def settle(D: State, facts: list[Fact], quiet: bool = False) -> list[Fact]:
    """The facts without those D refuses: while asserting them breaks an alethic constraint,
    each fact naming a value of a violation's key is dropped (the empty population always
    settles).  With ``quiet``, while asserting them reports any violation, a deontic one
    too: the base an invalid population breaks one constraint of must report nothing.

    >>> import arest
    >>> D = arest.load("readings/orders")
    >>> settle(D, [("Customer_has_Name", ("ann", "Ann")), ("Order_has_Priority", ("o", "low"))])
    [('Customer_has_Name', ('ann', 'Ann'))]
    """
    for _ in range(_SETTLE_ROUNDS):
        if not facts:
            return facts
        out, _after = system_apply(D, *Population(tuple(facts)).command())
        reported = [v for v in out.get("violations", []) if quiet or v["modality"] == "alethic"]
        refused = {str(value) for v in reported for value in v["detail"]["key"]}
        if "error" in out:
            return []
        if not out.get("rejected") and not (quiet and reported):
            return facts
        facts = [fact for fact in facts if not refused & set(fact[1])]
    return []


def populations(D: State, invalid: bool = False, breaking: Iterable[str] = ()
                ) -> st.SearchStrategy[Population]:
    """Populations of D's tenant fact types, each a :class:`Population` to assert on D.

    Valid ones (``invalid=False``) are built to honour uniqueness, simple mandatory and
    value constraints and then settled (:func:`settle`): whatever D still refuses is
    dropped, so D accepts every one.  Invalid ones take a valid one that reports no
    violation at all (a deontic one neither) and break exactly one named alethic constraint,
    of a kind in :data:`BREAKABLE_KINDS` (of the kinds or constraint ids in ``breaking``,
    when given), by a change that no other constraint over the facts it touches can notice.
    Added facts break uniqueness (a second fact on a unique role or combination of roles, of
    any arity: UC), frequency (a key counted past its most, or once where at least two are
    asked: FC), a value list (a value outside it: VC), an irreflexive or acyclic ring (an
    entity related to itself: IR, AC), a subset or equality (a fact whose roles the other
    side lacks: SS, EQ) and an exclusion (an entity in a second of its clauses: XC); facts
    taken away break a simple mandatory role (an entity's facts there left out while another
    fact names it: MC). ``breaks`` names that constraint, so a property can assert arest
    reports it and nothing else.  A domain where no constraint can be broken alone gives no
    invalid population; where few can, most draws are discarded (Hypothesis's
    ``filter_too_much`` health check may need suppressing).

    >>> import arest
    >>> from hypothesis import Phase, find, settings
    >>> D = arest.load("readings/tracker")
    >>> first = settings(phases=[Phase.generate], database=None)  # any one, not shrunk
    >>> broken = find(populations(D, invalid=True, breaking={"XC"}), lambda p: True,
    ...               settings=first)
    >>> out, _ = arest.apply(D, *broken.command())
    >>> out["rejected"], [v["constraint_id"] for v in out["violations"]] == [broken.breaks.id]
    (True, True)
    """
    domain = domain_of(D)
    valid = _candidate(domain, 1 if invalid else 0).map(
        lambda facts: Population(tuple(settle(D, facts, quiet=invalid))))
    if not invalid:
        return valid
    wanted = set(breaking)
    aimed = tuple(c for c in domain.constraints
                  if not wanted or c.kind in wanted or c.id in wanted)
    return valid.flatmap(lambda base: _breakings(D, domain, base, aimed))


def _breakings(D: State, domain: Domain, base: Population,
               aimed: tuple[ConstraintInfo, ...]) -> st.SearchStrategy[Population]:
    broken = [p for c in aimed for p in _break(D, domain, base, c)]
    return st.sampled_from(broken) if broken else st.nothing()


def _break(D: State, domain: Domain, base: Population,
           constraint: ConstraintInfo) -> list[Population]:
    """Every population that is base with one change breaking constraint alone."""
    if constraint.kind not in BREAKABLE_KINDS or constraint.restrictions or constraint.joins:
        return []
    ref = ConstraintRef(constraint.id, constraint.kind, constraint.reading)
    clauses = constraint.clauses()
    if constraint.kind == "MC":
        if len(clauses) != 1 or len(clauses[0]) != 1 or len(clauses[0][0][1]) != 1:
            return []
        (fact_type, (role,)), = clauses[0]
        if not _quiet(domain, fact_type, constraint, ADD_ONLY_KINDS):
            return []
        return [Population(facts, ref) for facts in _without_mandatory(
            D, domain, base.facts, fact_type, role)]
    if constraint.kind == "FC":
        return [Population((*base.facts, *added), ref)
                for added in _counted_out(D, domain, base.facts, constraint)]
    found: list[Population] = []
    for fact_type, breaks in _additions(domain, constraint):
        if _quiet(domain, fact_type, constraint, REMOVE_ONLY_KINDS):
            found += [Population((*base.facts, fact), ref) for fact in _added(
                D, domain, base.facts, fact_type, constraint, breaks)]
    return found


Breaks = Callable[[tuple[str, ...], tuple[Fact, ...]], bool]
"""Whether a fact, added to the facts, breaks a constraint."""


def _additions(domain: Domain, c: ConstraintInfo) -> list[tuple[str, Breaks]]:
    """The fact types one added fact breaks c in, each with the test that it does."""
    clauses = c.clauses()
    if c.kind == "VC":
        if c.comparison is not None or c.noun not in domain.values:
            return []
        return [(f, partial(_outside, c.noun, roles))
                for f, roles in domain.fact_types.items() if c.noun in roles]
    if c.kind in ("UC", "IR", "AC"):
        if len(clauses) != 1 or len(clauses[0]) != 1:
            return []
        (fact_type, roles), = clauses[0]
        if c.kind == "UC":
            return [(fact_type, partial(_repeats, fact_type, roles))]
        return [(fact_type, _itself)]
    if c.kind in ("SS", "EQ"):
        if len(clauses) != 2 or any(len(clause) != 1 for clause in clauses):
            return []
        sub, sup = clauses[0][0], clauses[1][0]
        aligned = _aligned(domain, sub, sup)
        if aligned is None:
            return []
        pairs = [(sub, (sup[0], aligned))]
        if c.kind == "EQ":
            back = _aligned(domain, sup, sub)
            pairs += [(sup, (sub[0], back))] if back is not None else []
        return [(into[0], partial(_lacking, into[1], other)) for into, other in pairs]
    if c.kind == "XC":
        if any(len(clause) != 1 or len(clause[0][1]) != 1 for clause in clauses):
            return []
        keyed = [(f, roles[0]) for (f, roles), in clauses]
        return [(f, partial(_in_another, f, role, keyed)) for f, role in keyed]
    return []


def _outside(noun: str, nouns: tuple[str, ...], fact: tuple[str, ...],
             facts: tuple[Fact, ...]) -> bool:
    """Whether the fact holds a value outside noun's value list (the one drawn outside)."""
    return any(fact[i] == _OUTSIDER for i, n in enumerate(nouns) if n == noun)


def _repeats(fact_type: str, roles: tuple[int, ...], fact: tuple[str, ...],
             facts: tuple[Fact, ...]) -> bool:
    """Whether another fact of fact_type holds the fact's values at roles."""
    return any(f == fact_type and b != fact and _at(b, roles) == _at(fact, roles)
               for f, b in facts)


def _itself(fact: tuple[str, ...], facts: tuple[Fact, ...]) -> bool:
    return len(fact) == 2 and fact[0] == fact[1]


def _lacking(roles: tuple[int, ...], other: tuple[str, tuple[int, ...]],
             fact: tuple[str, ...], facts: tuple[Fact, ...]) -> bool:
    """Whether no fact of the other side holds the fact's values at roles (aligned)."""
    return _at(fact, roles) not in {_at(b, other[1]) for f, b in facts if f == other[0]}


def _in_another(fact_type: str, role: int, keyed: list[tuple[str, int]],
                fact: tuple[str, ...], facts: tuple[Fact, ...]) -> bool:
    """Whether the fact's value at role plays its role in another clause's fact type."""
    return any(g != fact_type and b[other] == fact[role]
               for g, other in keyed for h, b in facts if h == g)


def _at(bindings: tuple[str, ...], roles: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(bindings[r] for r in roles)


def _aligned(domain: Domain, first: tuple[str, tuple[int, ...]],
             second: tuple[str, tuple[int, ...]]) -> tuple[int, ...] | None:
    """second's roles in the order that corresponds to first's, noun by noun (None when
    either fact type is not one commands assert, or the nouns differ)."""
    if first[0] not in domain.fact_types or second[0] not in domain.fact_types:
        return None
    nouns = [domain.fact_types[first[0]][r] for r in first[1]]
    remaining = list(second[1])
    ordered = []
    for noun in nouns:
        match = next((r for r in remaining if domain.fact_types[second[0]][r] == noun), None)
        if match is None:
            return None
        remaining.remove(match)
        ordered.append(match)
    return tuple(ordered) if not remaining else None


def _quiet(domain: Domain, fact_type: str, constraint: ConstraintInfo,
           blind: frozenset[str]) -> bool:
    """Whether a change to fact_type's facts, of the family ``blind`` cannot notice (only
    an addition breaks those of ADD_ONLY_KINDS, only a removal those of
    REMOVE_ONLY_KINDS), can break constraint alone: every other constraint over it is
    blind to the change, a uniqueness or value list the change is built to respect, or a
    subset whose superset side it is (for an addition); an addition to a subtype's
    membership fact type, which makes an entity one of the subtype, wakes no constraint
    over the subtype's roles that a new entity can break; and no rule derives from it into
    a constrained fact type."""
    if fact_type not in domain.fact_types or domain.downstream(fact_type):
        return False
    adding = blind is REMOVE_ONLY_KINDS
    subtype = domain.joined_subtype(fact_type)
    if adding and subtype is not None and any(
            other.id != constraint.id and other.kind not in ADD_ONLY_KINDS
            for other in domain.over_roles_of(subtype)):
        return False  # the entity joins the subtype: its mandatory roles, its partitions
    for other in domain.spanning(fact_type):
        if other.id == constraint.id or other.kind in blind:
            continue
        clauses = other.clauses()
        if adding and other.kind == "UC" and len(clauses) == 1 and len(clauses[0]) == 1:
            continue
        if adding and other.kind == "VC" and other.comparison is None:
            continue
        if adding and other.kind == "SS" and not other.joins and all(
                f != fact_type for f, _ in clauses[0]):
            continue
        return False
    return True


def _named(facts: Iterable[Fact], nouns: dict[str, tuple[str, ...]]) -> dict[str, set[str]]:
    """Each entity noun's ids the facts name."""
    named: dict[str, set[str]] = {}
    for fact_type, bindings in facts:
        for noun, value in zip(nouns[fact_type], bindings, strict=True):
            named.setdefault(noun, set()).add(value)
    return named


def _without_mandatory(D: State, domain: Domain, facts: tuple[Fact, ...], fact_type: str,
                       role: int) -> list[tuple[Fact, ...]]:
    """The facts without one entity's facts at a mandatory role (two such at most), for each
    entity D does not hold that the other facts still name in its noun."""
    found = []
    noun = domain.fact_types[fact_type][role]
    holders = sorted({bindings[role] for f, bindings in facts if f == fact_type}
                     - set(entity_ids(D, noun)))
    for entity in holders:
        rest = tuple(f for f in facts if not (f[0] == fact_type and f[1][role] == entity))
        if entity in _named(rest, domain.fact_types).get(noun, ()):
            found.append(rest)
    return found[:2]


def _pools(D: State, domain: Domain, facts: tuple[Fact, ...], fact_type: str,
           outsider: str = "") -> list[list[str]]:
    """Per role of fact_type, the values an added fact may take there: the entities the
    facts name that D did not hold (so none needs a mandatory fact it lacks), and the
    values of a value noun (with ``outsider`` for the noun of a value list to break)."""
    named = _named(facts, domain.fact_types)
    return [sorted(set(named.get(noun, ())) - set(entity_ids(D, noun)))
            if domain.is_entity(noun)
            else [*domain.values[noun], *([_OUTSIDER] if noun == outsider else [])]
            for noun in domain.fact_types[fact_type]]


_CANDIDATES = 400


def _added(D: State, domain: Domain, facts: tuple[Fact, ...], fact_type: str,
           constraint: ConstraintInfo, breaks: Breaks) -> list[Fact]:
    """Facts of fact_type (three at most) that, added to facts, break constraint and keep
    every other uniqueness over fact_type: built on the pools' values (:func:`_pools`)."""
    outsider = constraint.noun if constraint.kind == "VC" else ""
    if outsider and _OUTSIDER in domain.values.get(outsider, ()):
        return []
    known = (*facts, *_held_in(D, constraint))
    held = [bindings for f, bindings in known if f == fact_type]
    candidates = islice(product(*_pools(D, domain, facts, fact_type, outsider)), _CANDIDATES)
    taken = _keys(domain, fact_type, held, constraint)
    found: list[Fact] = []
    for candidate in candidates:
        keys = _keys(domain, fact_type, [candidate], constraint)
        if candidate in held or keys & taken or not breaks(candidate, known):
            continue
        found.append((fact_type, candidate))
        if len(found) == 3:
            break
    return found


def _held_in(D: State, constraint: ConstraintInfo) -> tuple[Fact, ...]:
    """The facts D already holds of the fact types constraint spans."""
    found: list[Fact] = []
    for fact_type in dict.fromkeys(span[0] for span in constraint.spans):
        relation = D.get(fact_type)
        if isinstance(relation, Relation):
            found += [(fact_type, tuple(str(v) for v in fact)) for fact in relation]
    return tuple(found)


def _keys(domain: Domain, fact_type: str, held: Iterable[tuple[str, ...]],
          constraint: ConstraintInfo) -> set[tuple[str, tuple[str, ...]]]:
    """The facts' keys on each uniqueness over fact_type alone but the constraint."""
    spans = [clauses[0][0][1] for c in domain.spanning(fact_type)
             if c.kind == "UC" and c.id != constraint.id
             and len(clauses := c.clauses()) == 1 and len(clauses[0]) == 1
             and clauses[0][0][0] == fact_type]
    return {(str(roles), _at(bindings, roles)) for bindings in held for roles in spans}


def _counted_out(D: State, domain: Domain, facts: tuple[Fact, ...],
                 constraint: ConstraintInfo) -> list[tuple[Fact, ...]]:
    """Facts that, added to facts, give one key of a frequency constraint a count outside
    its bounds: one fact for a key with none where at least two are asked, or enough to
    pass the most allowed (two such additions at most)."""
    clauses = constraint.clauses()
    if len(clauses) != 1 or len(clauses[0]) != 1:
        return []
    (fact_type, roles), = clauses[0]
    if not _quiet(domain, fact_type, constraint, REMOVE_ONLY_KINDS):
        return []
    held = [bindings for f, bindings in (*facts, *_held_in(D, constraint)) if f == fact_type]
    pools = _pools(D, domain, facts, fact_type)
    counts: dict[tuple[str, ...], int] = {}
    for bindings in held:
        counts[_at(bindings, roles)] = counts.get(_at(bindings, roles), 0) + 1
    found: list[tuple[Fact, ...]] = []
    for key in islice(product(*(pools[r] for r in roles)), _CANDIDATES):
        have = counts.get(key, 0)
        if constraint.minimum is not None and constraint.minimum >= 2 and have == 0:
            wanted = 1
        elif constraint.maximum is not None:
            wanted = constraint.maximum + 1 - have
        else:
            continue
        added = _with_key(domain, fact_type, held, pools, roles, key, wanted, constraint)
        if added:
            found.append(tuple((fact_type, bindings) for bindings in added))
        if len(found) == 2:
            break
    return found


def _with_key(domain: Domain, fact_type: str, held: list[tuple[str, ...]],
              pools: list[list[str]], roles: tuple[int, ...], key: tuple[str, ...],
              wanted: int, constraint: ConstraintInfo) -> list[tuple[str, ...]]:
    """``wanted`` new facts of fact_type whose roles hold key, each keeping every
    uniqueness over fact_type (none when there are not enough)."""
    choices = [[key[roles.index(r)]] if r in roles else pool for r, pool in enumerate(pools)]
    taken = _keys(domain, fact_type, held, constraint)
    added: list[tuple[str, ...]] = []
    for candidate in islice(product(*choices), _CANDIDATES):
        keys = _keys(domain, fact_type, [candidate], constraint)
        if candidate in held or candidate in added or keys & taken:
            continue
        added.append(candidate)
        taken |= keys
        if len(added) == wanted:
            return added
    return []


def command_keys(D: State) -> list[str]:
    """Every command key :func:`commands` draws over D, by verb then target.

    >>> import arest
    >>> keys = command_keys(arest.load("readings/orders"))
    >>> [k for k in keys if k.startswith("transition")]
    ['transition:Order']
    >>> "query:Customer_has_Unpaid_Order_Count" in keys
    True
    """
    domain = domain_of(D)
    nouns = [n for n in domain.entity_nouns if n in domain.schema.nouns]
    machines = sorted(m.noun for m in domain.schema.machines.values() if m.noun in nouns)
    rules = sorted({r.fact_type for r in domain.schema.rules.values()
                    if r.fact_type in tenant_fact_types(D)})
    return ["assert", "retract", "snapshot", "rollback",
            *(f"{verb}:{noun}" for verb in ("create", "update", "delete", "read", "list")
              for noun in nouns),
            *(f"transition:{noun}" for noun in machines),
            *(f"query:{fact_type}" for fact_type in [*domain.fact_types, *rules])]


def commands(D: State, keys: Iterable[str] | None = None
             ) -> st.SearchStrategy[tuple[str, Any]]:
    """One SYSTEM command over D's domain, ``(key, input)``: any key of
    :func:`command_keys` (or of ``keys``, to focus on some) — assert and retract of a
    fact, create and update of an entity with some of its fields, delete, read and list,
    each event of each machine (legal from the entity's status or not), a query of every
    fact type (those rules derive too), snapshot and rollback — on ids and values
    :func:`populations` draws from too."""
    chosen = command_keys(D) if keys is None else sorted(keys)
    return _commands(D, domain_of(D), chosen)


def _commands(D: State, domain: Domain, keys: list[str]) -> st.SearchStrategy[tuple[str, Any]]:
    return st.sampled_from(keys).flatmap(lambda key: _command(D, domain, key))


def _command(D: State, domain: Domain, key: str) -> st.SearchStrategy[tuple[str, Any]]:
    verb, _, target = key.partition(":")
    if verb in ("assert", "retract"):
        return _fact(D, domain).map(lambda f: (verb, {"fact_type": f[0], "bindings": list(f[1])}))
    if verb == "snapshot":
        return st.just((key, {"label": "s"}))
    if verb == "rollback":
        return st.just((key, {"id": "s"}))
    if verb == "query":
        return st.just((key, None))
    ids = st.sampled_from(domain.values[target])
    if verb in ("read", "delete"):
        return ids.map(lambda entity: (key, {"id": entity}))
    if verb == "list":
        return st.just((key, {}))
    if verb == "transition":
        events = sorted({t.event for m in domain.schema.machines.values() if m.noun == target
                         for t in m.transitions})
        return st.tuples(ids, st.sampled_from(events)).map(
            lambda p: (key, {"id": p[0], "event": p[1]}))
    return st.tuples(ids, _fields(D, domain, target)).map(lambda p: (key, {"id": p[0], **p[1]}))


def _fact(D: State, domain: Domain) -> st.SearchStrategy[Fact]:
    return st.sampled_from(sorted(domain.fact_types)).flatmap(lambda fact_type: st.tuples(
        st.just(fact_type), st.tuples(*(
            st.sampled_from(domain.values[noun]) for noun in domain.fact_types[fact_type]))))


def _fields(D: State, domain: Domain, noun: str) -> st.SearchStrategy[dict[str, Any]]:
    """Some of noun's fields over asserted fact types, each with a value of its noun."""
    optional: dict[str, st.SearchStrategy[Any]] = {}
    for field in fields_of(domain.schema, noun):
        if field.fact_type not in domain.fact_types or field.shape == "rows":
            continue
        if field.shape == "flag":
            optional[field.name] = st.booleans()
            continue
        other = field.keys[0][0]
        one = st.sampled_from(domain.values[other])
        optional[field.name] = one if field.shape == "one" else st.lists(one, max_size=2,
                                                                          unique=True)
    return st.fixed_dictionaries({}, optional=optional)


def command_sequences(D: State, max_size: int = 12, keys: Iterable[str] | None = None
                      ) -> st.SearchStrategy[list[tuple[str, Any]]]:
    """Lists of :func:`commands` (of ``keys``, when given) after the ``assert`` of a valid
    :func:`populations`, so that most commands find the entities they name, their machines'
    statuses and the facts the rules read: an entity's id is one the population names, or
    a new one where it names none."""
    domain = domain_of(D)
    chosen = command_keys(D) if keys is None else sorted(keys)
    return populations(D).flatmap(lambda population: st.lists(
        _commands(D, _narrowed(domain, population), chosen), max_size=max_size).map(
        lambda drawn: [population.command(), *drawn] if population.facts else drawn))


def _narrowed(domain: Domain, population: Population) -> Domain:
    """The domain with each entity noun's ids those the population names (a new one where
    it names none)."""
    named = _named(population.facts, domain.fact_types)
    values = {noun: tuple(sorted(named.get(noun, ()))) or ids[-1:]
              if domain.is_entity(noun) else ids for noun, ids in domain.values.items()}
    return replace(domain, values=values)
