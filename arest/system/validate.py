"""validate: the violations a state holds, among the keys a command's delta touched.

For each constraint the delta wakes (through the trigger index ``triggers:…``), the keys are
the delta's facts and entities its triggers select; the constraint's compiled check — an FFP
object — runs on them in the fast evaluator, reading D by index.  Full validation runs the
same checks on every key: every fact as if just added, every entity.

A constraint over the facts of a noun an external system backs (:mod:`arest.system.backed`)
is open-world: its violations say ``"open_world": true`` and never reject (:func:`alethic`),
since D holds only what this system was told of that noun.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from arest import algebra
from arest.algebra import BOTTOM, Object, State
from arest.algebra.memo import IdentityMemo
from arest.algebra.objects import as_json
from arest.algebra.relations import Fact, Relation
from arest.compiler.cells import (
    constraint_cell,
    constraint_ids,
    entity_triggers_cell,
    fact_triggers_cell,
)
from arest.compiler.change import Delta
from arest.compiler.checks import CountBound, Trigger, count_bound
from arest.compiler.constraints import ADDED, ENTITIES, Compiled
from arest.compiler.population import entity_ids, role_nouns

_decoded = IdentityMemo(Compiled.from_object)


def _compiled(state: State, constraint_id: str) -> Compiled | None:
    contents = state.get(constraint_cell(constraint_id))
    return _decoded(contents) if type(contents) is tuple else None


def _woken_ids(*triggers: object) -> tuple[str, ...]:
    """The ids of the constraints some trigger cells' contents name, sorted, each once."""
    ids: set[str] = set()
    for contents in triggers:
        if type(contents) is tuple:
            ids.update(str(item) for item in contents)
    return tuple(sorted(ids))


_woken_ids_of = IdentityMemo(_woken_ids, limit=256)
"""The constraints each combination of trigger cells wakes (by the cells' identity): a
command of one shape reads the same trigger cells as the one before it."""


def woken(state: State, cells: Iterable[str]) -> list[Compiled]:
    """The constraints the trigger cells name, by id."""
    found = (_compiled(state, constraint_id)
             for constraint_id in _woken_ids_of(*map(state.get, cells)))
    return [constraint for constraint in found if constraint is not None]


def _project(fact: Fact, roles: tuple[int, ...]) -> Object:
    return tuple(fact[role - 1] for role in roles) if roles else fact


def delta_keys(state: State, triggers: tuple[Trigger, ...], delta: Delta) -> list[Object]:
    """The keys a part's triggers select among the delta's facts and entities, sorted."""
    keys: list[Object] = []
    for event, target, roles in triggers:
        if event == ENTITIES:
            found: list[Object] = [(entity,) for entity in delta.entities.get(target, ())]
        else:
            facts = (delta.added if event == ADDED else delta.removed).get(target)
            found = [_project(fact, roles) for fact in facts] if facts else []
        if found and delta.gone:
            found = _living(found, _key_nouns(state, event, target, roles), delta.gone)
        keys.extend(found)
    return sorted(set(keys)) if len(keys) > 1 else keys  # type: ignore[type-var]


def _key_nouns(state: State, event: str, target: str, roles: tuple[int, ...]
               ) -> tuple[str, ...]:
    """The noun of each value of a trigger's keys."""
    if event == ENTITIES:
        return (target,)
    every = role_nouns(state, target)
    return tuple(every[role - 1] for role in roles) if roles else every


def _living(keys: list[Object], nouns: tuple[str, ...], gone: dict[str, set[str]]
            ) -> list[Object]:
    """The keys that name no entity deleted from its role's noun: a constraint speaks of the
    entities in P, so the facts a deleted entity took with it break nothing about it."""
    return [key for key in keys if not any(
        value in gone.get(noun, ()) for value, noun in zip(key, nouns, strict=False))]  # type: ignore[arg-type]


def _bound_atoms() -> frozenset[str]:
    """Every atom of a :class:`CountBound`'s check but its fact type: D defining none of
    them, the check means what the evaluator's own primitives and forms make it mean."""
    found: set[str] = set()
    pending: list[Object] = [CountBound("", 0, mandatory).check() for mandatory in (False, True)]
    while pending:
        item = pending.pop()
        if type(item) is str:
            found.add(item)
        elif type(item) is tuple:
            pending.extend(item)
    return frozenset(found - {""})


BOUND_ATOMS: Final = _bound_atoms()
"""The atoms D must not define for a :class:`CountBound` to be counted by index
(:func:`plain`)."""
_count_bound_of = IdentityMemo(count_bound)


def plain(state: State) -> bool:
    """Whether D defines none of the atoms a :class:`CountBound`'s check applies, so that
    :func:`checked` may run such a check by index."""
    return not any(atom in state for atom in BOUND_ATOMS)


def _counted(state: State, bound: CountBound, keys: Sequence[Object]) -> Object | None:
    """bound.check():keys read by index, where the evaluator's answer is plain to see: the
    fact type's cell a relation with the counted role, each key a tuple whose first item is
    an atom.  None anywhere else (the evaluator answers there)."""
    relation = state.get(bound.fact_type)
    role = bound.role
    if not isinstance(relation, Relation) or relation.arity <= role:
        return None
    valued: list[tuple[Object, str]] = []
    for key in keys:
        value = key[0] if type(key) is tuple and key else None
        if type(value) is not str:
            return None
        valued.append((key, value))
    if bound.mandatory:
        evidence: Object = (bound.fact_type,)
        return tuple((key, evidence) for key, value in valued if not relation.count(role, value))
    return tuple((key, tuple(sorted(relation.matching(role, value))))
                 for key, value in valued if relation.count(role, value) > 1)


def checked(state: State, check: Object, keys: Sequence[Object], by_index: bool) -> Object:
    """check:keys over D, the FFP evaluator's value.  With ``by_index`` (D is
    :func:`plain`), a :class:`CountBound`'s check is answered by counting in the relation's
    index instead: the same value, without the evaluator's work around it (property-tested
    against the evaluator over generated relations, keys and domains)."""
    if by_index:
        bound = _count_bound_of(check)
        if bound is not None:
            found = _counted(state, bound, keys)
            if found is not None:
                return found
    return algebra.evaluate(check, tuple(keys), state)


def _run(
    state: State, constraint: Compiled, check: Object, keys: list[Object], by_index: bool
) -> list[dict[str, Any]]:
    if not keys:
        return []
    return reported(state, constraint, checked(state, check, keys, by_index))


def reported(state: State, constraint: Compiled, found: Object) -> list[dict[str, Any]]:
    """The violations a constraint's check found (⟨⟨key, evidence⟩, …⟩), as a command
    reports them."""
    if found is BOTTOM or type(found) is not tuple:
        raise RuntimeError(f"the check of {constraint.id} gave {found!r}: a compiler error")
    if not found:
        return []
    from arest.system.backed import federated  # loads with the first violation reported

    open_world = {"open_world": True} if any(
        federated(state, fact_type) for fact_type in constraint.fact_types) else {}
    return [
        {
            "constraint_id": constraint.id,
            "kind": constraint.kind,
            "modality": constraint.modality,
            "reading": constraint.reading,
            "detail": {"key": as_json(item[0]), "evidence": as_json(item[1])},  # type: ignore[index]
            **open_world,
        }
        for item in found
    ]


def violations(state: State, delta: Delta) -> list[dict[str, Any]]:
    """The violations among the keys the delta touched, constraint by constraint.

    >>> import arest
    >>> D = arest.compile(ORDERS)  # Order was placed by at most one Customer (conftest.py)
    >>> from arest.compiler.change import Change
    >>> change = Change(D)
    >>> change.add("Order_was_placed_by_Customer", ("o1", "acme"))
    True
    >>> violations(change.state, change.delta)
    []
    >>> change.add("Order_was_placed_by_Customer", ("o1", "bolt"))
    True
    >>> [(v["kind"], v["detail"]["key"]) for v in violations(change.state, change.delta)]
    [('UC', ['o1'])]
    """
    cells = [fact_triggers_cell(f) for f in (*delta.added, *delta.removed)]
    cells += [entity_triggers_cell(noun) for noun in delta.entities]
    found: list[dict[str, Any]] = []
    found_woken = woken(state, cells)
    by_index = bool(found_woken) and plain(state)
    for constraint in found_woken:
        seen: set[str] = set()
        for triggers, check in constraint.parts():
            keys = delta_keys(state, triggers, delta)
            for violation in _run(state, constraint, check, keys, by_index):
                key = repr(violation["detail"]["key"])
                if key not in seen:
                    seen.add(key)
                    found.append(violation)
    return found


def every_key(state: State, constraint: Compiled) -> list[Object]:
    """Every key the constraint's primary triggers can select in the state (its other parts
    report in the primary's keys)."""
    keys: set[Object] = set()
    for event, target, roles in constraint.triggers:
        if event == ENTITIES:
            keys.update((entity,) for entity in entity_ids(state, target))
        else:
            relation = state.get(target)
            if isinstance(relation, Relation):
                keys.update(_project(fact, roles) for fact in relation)
    return sorted(keys)  # type: ignore[type-var]


def all_violations(state: State, modality: str = "") -> list[dict[str, Any]]:
    """Every violation in the state: each constraint (of that modality, when given: an
    export lists the deontic ones without checking the rest) checked over every key.

    >>> import arest
    >>> D = arest.compile(ORDERS)  # Order was placed by at most one Customer (conftest.py)
    >>> D = arest.compile("Order 'o1' was placed by Customer 'acme'.", D)
    >>> all_violations(D)
    []
    """
    found: list[dict[str, Any]] = []
    by_index = plain(state)
    for constraint_id in constraint_ids(state):
        constraint = _compiled(state, constraint_id)
        if constraint is not None and modality in ("", constraint.modality):
            found.extend(_run(state, constraint, constraint.check, every_key(state, constraint),
                              by_index))
    return found


def alethic(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The violations that reject a command: those of alethic constraints, not deontic ones,
    nor those over the facts of a noun an external system backs (``"open_world": true``: a
    fact missing here may hold there, so they are reported, never rejecting).

    >>> alethic([{"modality": "alethic", "kind": "UC"}, {"modality": "deontic", "kind": "MC"},
    ...          {"modality": "alethic", "kind": "MC", "open_world": True}])
    [{'modality': 'alethic', 'kind': 'UC'}]
    """
    return [violation for violation in found
            if violation["modality"] == "alethic" and not violation.get("open_world")]
