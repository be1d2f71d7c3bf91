"""The checks a command's delta wakes, looked up once per shape of delta: the validation of
:func:`arest.system.validate.violations`, without its look-ups per command.

A delta's *shape* is the fact types it added to and removed from and the nouns whose
populations grew.  :func:`woken_checks` finds the constraints those trigger cells
wake and each part's count bound (:class:`arest.compiler.checks.CountBound`), and remembers
the cells it read; :func:`shaped_violations` runs them on a delta of that shape: a count
bound by the relation's count (as :func:`arest.system.validate.checked` does, on keys that
are the delta's atoms), any other check by the evaluator.  The value is the one
``violations`` gives: the same constraints in the same order, the same keys, the same
reports (``tests/system/test_compiled_create.py``).

>>> import arest
>>> from arest.compiler.change import Change
>>> D = arest.compile(ORDERS)  # Order was placed by at most one Customer (conftest.py)
>>> change = Change(D)
>>> _ = change.add("Order_was_placed_by_Customer", ("o1", "acme"))
>>> _ = change.add("Order_was_placed_by_Customer", ("o1", "bolt"))
>>> checks = woken_checks(change.state, tuple(change.delta.added), (),
...                       tuple(change.delta.entities))
>>> found = shaped_violations(change.state, checks, change.delta)
>>> from arest.system.validate import violations
>>> found == violations(change.state, change.delta), [v["kind"] for v in found]
(True, ['UC'])
"""

from __future__ import annotations

from typing import Any, TypeAlias

from arest.algebra import Object, State
from arest.algebra.relations import Relation
from arest.compiler.cells import constraint_cell, entity_triggers_cell, fact_triggers_cell
from arest.compiler.change import Delta
from arest.compiler.checks import ADDED, ENTITIES, REMOVED, CountBound, count_bound
from arest.compiler.constraints import Compiled
from arest.records import record
from arest.system.held_cells import HeldCells
from arest.system.validate import (
    BOUND_ATOMS,
    checked,
    delta_keys,
    plain,
    reported,
    violations,
    woken,
)

__all__ = ["WokenChecks", "shaped_violations", "woken_checks"]


_Keyed: TypeAlias = "tuple[tuple[str, str, int], ...]"
"""How a part's keys are read from a delta without :func:`delta_keys`: per trigger, its event,
its target, and the 0-based role whose values it selects (-1 for new entities and removals)."""


@record
class WokenChecks:
    """The constraints a delta's shape wakes, each with its parts (triggers, check, count
    bound or None, how its keys are read where they are the delta's atoms, else None), the
    cells read to find them with their contents, and whether D is :func:`plain` (the
    cells of the atoms that decide it are among those read)."""

    constraints: tuple[tuple[Compiled, tuple[
        tuple[Any, Object, CountBound | None, _Keyed | None], ...]], ...]
    read: HeldCells
    plain: bool = False

    def holds(self, state: State) -> bool:
        """Whether the trigger, constraint and count-bound atoms' cells are the objects they
        were."""
        return self.read.holds(state)


def woken_checks(state: State, added: tuple[str, ...], removed: tuple[str, ...],
                 nouns: tuple[str, ...]) -> WokenChecks:
    """The checks a delta that adds facts of the fact types added, removes facts of those
    removed and brings entities of nouns wakes."""
    cells = [*map(fact_triggers_cell, (*added, *removed)), *map(entity_triggers_cell, nouns)]
    found = woken(state, cells)
    names = (*cells, *(constraint_cell(constraint.id) for constraint in found),
             *sorted(BOUND_ATOMS))
    read = HeldCells(state, names)
    constraints = []
    for constraint in found:
        parts = []
        for triggers, check in constraint.parts():
            bound = count_bound(check)
            parts.append((triggers, check, bound, None if bound is None else _keyed(triggers)))
        constraints.append((constraint, tuple(parts)))
    return WokenChecks(tuple(constraints), read, plain(state))


def _keyed(triggers: Any) -> _Keyed | None:
    """How :func:`_atom_keys` reads the keys of triggers that each select new entities, one
    role of added facts, or removals; None for any other trigger."""
    keyed: list[tuple[str, str, int]] = []
    for event, target, roles in triggers:
        if event == ADDED and len(roles) == 1:
            keyed.append((ADDED, target, roles[0] - 1))
        elif event in (ENTITIES, REMOVED):
            keyed.append((event, target, -1))
        else:
            return None
    return tuple(keyed)


def _atom_keys(keyed: _Keyed, delta: Delta) -> list[Object] | None:
    """:func:`delta_keys` of triggers read as keyed says (the keys are 1-tuples of the
    delta's atoms); None where a removal would take part (``delta_keys`` answers)."""
    keys: list[Object] = []
    for event, target, position in keyed:
        if event == ENTITIES:
            keys.extend((entity,) for entity in delta.entities.get(target, ()))
        elif event == ADDED:
            keys.extend((fact[position],) for fact in delta.added.get(target, ()))
        elif delta.removed.get(target):
            return None
    return sorted(set(keys)) if len(keys) > 1 else keys  # type: ignore[type-var]


def _bound_holds(state: State, bound: CountBound, keyed: _Keyed, delta: Delta) -> bool:
    """Whether bound.check():keys is () for the keys ``_atom_keys`` reads, counted in the
    relation's index as ``_by_index`` counts them: each key's value held by one fact at
    most (a uniqueness) or by one at least (a mandatory role).  False where that path
    would not decide (a removal takes part, a value not an atom, no such relation): the
    part is then run as before, which also reports what a violated bound finds."""
    relation = state.get(bound.fact_type)
    role = bound.role
    if not (isinstance(relation, Relation) and relation.arity > role):
        return False
    count = relation.count
    mandatory = bound.mandatory
    for event, target, position in keyed:
        if event == ENTITIES:
            values: Any = delta.entities.get(target, ())
        elif event == ADDED:
            values = [fact[position] for fact in delta.added.get(target, ())]
        elif delta.removed.get(target):
            return False
        else:
            continue
        for value in values:
            if type(value) is not str:
                return False
            counted = count(role, value)
            if (not counted) if mandatory else counted > 1:
                return False
    return True


def _counted(relation: Relation, bound: CountBound, keys: list[Object]) -> Object | None:
    """bound.check():keys read in the relation's index, for keys of one atom each; None
    where a key is not one atom (the evaluator answers)."""
    role = bound.role
    if len(keys) == 1:  # a create's one new entity: no loop, no generator
        key = keys[0]
        value = key[0]  # type: ignore[index]
        if type(value) is not str:
            return None
        counted = relation.count(role, value)
        if bound.mandatory:
            return () if counted else ((key, (bound.fact_type,)),)
        return ((key, tuple(sorted(relation.matching(role, value)))),) if counted > 1 else ()
    valued: list[tuple[Object, str]] = []
    for key in keys:
        value = key[0]  # type: ignore[index]
        if type(value) is not str:
            return None
        valued.append((key, value))
    count = relation.count
    if bound.mandatory:
        evidence: Object = (bound.fact_type,)
        return tuple((key, evidence) for key, value in valued if not count(role, value))
    return tuple((key, tuple(sorted(relation.matching(role, value))))
                 for key, value in valued if count(role, value) > 1)


def shaped_violations(state: State, checks: WokenChecks, delta: Delta) -> list[dict[str, Any]]:
    """:func:`violations` of state and a delta of the shape the checks were found for (and
    of a state they hold over)."""
    if delta.gone:
        return violations(state, delta)
    found: list[dict[str, Any]] = []
    by_index = checks.plain
    for constraint, parts in checks.constraints:
        seen: set[str] | None = None
        for triggers, check, bound, keyed in parts:
            if keyed is not None and by_index and bound is not None \
                    and _bound_holds(state, bound, keyed, delta):
                continue
            value: Object | None = None
            keys = _atom_keys(keyed, delta) if keyed is not None else None
            if keys is None:
                keys = delta_keys(state, triggers, delta)
                if not keys:
                    continue
                if by_index and bound is not None \
                        and all(type(key) is tuple and key for key in keys):
                    value = _by_index(state, bound, keys)
            elif not keys:  # as delta_keys finds none: the triggers select the same keys
                continue
            elif by_index:  # 1-tuples, so bound is a CountBound (keyed says so)
                value = _by_index(state, bound, keys)  # type: ignore[arg-type]
            if value is None:
                value = checked(state, check, keys, by_index)
            if type(value) is tuple and not value:
                continue
            if seen is None:
                seen = set()
            for violation in reported(state, constraint, value):
                key = repr(violation["detail"]["key"])
                if key not in seen:
                    seen.add(key)
                    found.append(violation)
    return found


def _by_index(state: State, bound: CountBound, keys: list[Object]) -> Object | None:
    """bound.check():keys counted in its relation, where D holds one with the counted role
    (None elsewhere: the evaluator answers)."""
    relation = state.get(bound.fact_type)
    if isinstance(relation, Relation) and relation.arity > bound.role:
        return _counted(relation, bound, keys)
    return None
