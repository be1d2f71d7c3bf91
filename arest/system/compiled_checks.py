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

from dataclasses import dataclass
from operator import is_
from typing import Any

from arest.algebra import Object, State
from arest.algebra.relations import Relation
from arest.compiler.cells import constraint_cell, entity_triggers_cell, fact_triggers_cell
from arest.compiler.change import Delta
from arest.compiler.checks import ADDED, ENTITIES, REMOVED, CountBound, count_bound
from arest.compiler.constraints import Compiled
from arest.system.validate import checked, delta_keys, plain, reported, violations, woken

__all__ = ["WokenChecks", "shaped_violations", "woken_checks"]


@dataclass(frozen=True)
class WokenChecks:
    """The constraints a delta's shape wakes, each with its parts (triggers, check, count
    bound or None), and the cells read to find them, with their contents."""

    constraints: tuple[tuple[Compiled, tuple[tuple[Any, Object, CountBound | None], ...]], ...]
    read: tuple[tuple[str, ...], tuple[object, ...]]

    def holds(self, state: State) -> bool:
        """Whether the trigger and constraint cells are the objects they were."""
        names, contents = self.read
        return all(map(is_, map(state.get, names), contents))


def woken_checks(state: State, added: tuple[str, ...], removed: tuple[str, ...],
                 nouns: tuple[str, ...]) -> WokenChecks:
    """The checks a delta that adds facts of the fact types added, removes facts of those
    removed and brings entities of nouns wakes."""
    cells = [*map(fact_triggers_cell, (*added, *removed)), *map(entity_triggers_cell, nouns)]
    found = woken(state, cells)
    names = (*cells, *(constraint_cell(constraint.id) for constraint in found))
    read = (names, tuple(map(state.get, names)))
    return WokenChecks(tuple(
        (constraint, tuple((triggers, check, count_bound(check))
                           for triggers, check in constraint.parts()))
        for constraint in found), read)


def _atom_keys(triggers: Any, delta: Delta) -> list[Object] | None:
    """:func:`delta_keys` where each trigger selects new entities or one role of added
    facts (the keys are 1-tuples of atoms); None for any other trigger."""
    keys: list[Object] = []
    for event, target, roles in triggers:
        if event == ENTITIES:
            keys.extend((entity,) for entity in delta.entities.get(target, ()))
        elif event == ADDED and len(roles) == 1:
            position = roles[0] - 1
            keys.extend((fact[position],) for fact in delta.added.get(target, ()))
        elif event != REMOVED or delta.removed.get(target):
            return None
    return sorted(set(keys)) if len(keys) > 1 else keys  # type: ignore[type-var]


def _counted(relation: Any, bound: CountBound, keys: list[Object]) -> Object:
    """bound.check():keys for keys of one atom each, read in the relation's index."""
    role = bound.role
    if bound.mandatory:
        evidence: Object = (bound.fact_type,)
        return tuple((key, evidence) for key in keys
                     if not relation.count(role, key[0]))  # type: ignore[index]
    return tuple((key, tuple(sorted(relation.matching(role, key[0]))))  # type: ignore[index]
                 for key in keys if relation.count(role, key[0]) > 1)  # type: ignore[index]


def shaped_violations(state: State, checks: WokenChecks, delta: Delta) -> list[dict[str, Any]]:
    """:func:`violations` of state and a delta of the shape the checks were found for."""
    if delta.gone:
        return violations(state, delta)
    found: list[dict[str, Any]] = []
    by_index: bool | None = None
    for constraint, parts in checks.constraints:
        seen: set[str] = set()
        for triggers, check, bound in parts:
            keys = (_atom_keys(triggers, delta) if bound is not None else None
                    ) or delta_keys(state, triggers, delta)
            if not keys:
                continue
            if by_index is None:
                by_index = plain(state)
            relation = state.get(bound.fact_type) if bound is not None else None
            if by_index and bound is not None and isinstance(relation, Relation) \
                    and relation.arity > bound.role \
                    and all(type(key) is tuple and key and type(key[0]) is str for key in keys):
                value = _counted(relation, bound, keys)
            else:
                value = checked(state, check, keys, bool(by_index))
            if type(value) is tuple and not value:
                continue
            for violation in reported(state, constraint, value):
                key = repr(violation["detail"]["key"])
                if key not in seen:
                    seen.add(key)
                    found.append(violation)
    return found
