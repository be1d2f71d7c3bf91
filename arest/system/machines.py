"""Machines at run time: an entity's status, its start, its legal events, the effects.

The status of an entity of a noun with a machine is its one fact of ``<Noun> has Status``,
written here only: s₀ when the entity joins its noun's population (created, or named by a
fact), the transition function's value when an event fires (:mod:`arest.system.transitions`).
Compiling gives s₀ to the entities readings name (:func:`arest.compiler.machines.initial_statuses`).
"""

from __future__ import annotations

from typing import Any

from arest import algebra
from arest.algebra import State
from arest.algebra.memo import IdentityMemo
from arest.algebra.relations import Relation
from arest.compiler.cells import MACHINES_CELL, machine_cell
from arest.compiler.change import Change
from arest.compiler.fields import status_fact_type
from arest.compiler.machines import Machine, Transition
from arest.compiler.population import exists, role_nouns

_decoded = IdentityMemo(Machine.from_object)


def machine_of(state: State, noun: str) -> Machine | None:
    """The noun's compiled state machine; None when the noun has none.

    >>> import arest
    >>> D = arest.compile(TASKS)  # a Task machine, Open --finish--> Done (conftest.py)
    >>> _, D = arest.apply(D, "create:Task", {"id": "t1"})
    >>> machine_of(D, "Task").initial, machine_of(D, "Status")
    ('Open', None)
    """
    contents = state.get(machine_cell(noun))
    return _decoded(contents) if type(contents) is tuple else None


def status_of(state: State, noun: str, entity: str) -> str | None:
    """The entity's status in its noun's machine; None when it has none.

    >>> import arest
    >>> D = arest.compile(TASKS)  # a Task machine, Open --finish--> Done (conftest.py)
    >>> _, D = arest.apply(D, "create:Task", {"id": "t1"})
    >>> status_of(D, "Task", "t1"), status_of(D, "Task", "t2")
    ('Open', None)
    """
    relation = state.get(status_fact_type(noun))
    if not isinstance(relation, Relation):
        return None
    return next((status for _, status in relation.matching(0, entity)), None)


def start(change: Change) -> None:
    """Every entity that joined the population of a noun with a machine in this change
    (created, named by a fact, a child or a role's value) and has no status enters s₀."""
    for noun, entities in sorted(change.delta.entities.items()):
        machine = machine_of(change.state, noun)
        if machine is None:
            continue
        for entity in sorted(entities):
            if exists(change.state, noun, entity) and status_of(
                    change.state, noun, entity) is None:
                change.add(status_fact_type(noun), (entity, machine.initial))


def fire(change: Change, machine: Machine, entity: str, event: str) -> Transition | None:
    """The entity's status after event, by the transition function; None (and no change)
    when event is not legal from its status."""
    current = status_of(change.state, machine.noun, entity)
    if current is None:
        return None
    target = algebra.evaluate(machine.function, (current, event), change.state)
    if type(target) is not str:
        return None
    transition = next(t for t in machine.legal(current) if t.event == event)
    fact_type = status_fact_type(machine.noun)
    change.remove(fact_type, (entity, current))
    change.add(fact_type, (entity, target))
    return transition


def triggered(state: State, added: dict[str, set[tuple[str, ...]]]
              ) -> list[tuple[Machine, str, Transition]]:
    """The transitions that facts entering P fire by their fact type (facts as events): for
    each added fact of a trigger fact type and each role the machine's noun plays in it, the
    transition, when it is legal from that entity's status."""
    found: dict[tuple[str, str, str], tuple[Machine, str, Transition]] = {}
    for machine in _machines_with_triggers(state):
        for fact_type, name in machine.triggers:
            facts = added.get(fact_type)
            if not facts:
                continue
            positions = [i for i, noun in enumerate(role_nouns(state, fact_type))
                         if noun == machine.noun]
            for fact in sorted(facts):
                for position in positions:
                    entity = fact[position]
                    status = status_of(state, machine.noun, entity)
                    for t in machine.legal(status or ""):
                        if t.name == name:
                            found.setdefault((machine.noun, entity, t.event), (machine, entity, t))
    return [found[key] for key in sorted(found)]


def _machines_with_triggers(state: State) -> list[Machine]:
    names = state.get(MACHINES_CELL)
    machines = [machine_of(state, str(noun)) for noun in names] if type(names) is tuple else []
    return [m for m in machines if m is not None and m.triggers]


def next_actions(state: State, noun: str, entity: str) -> list[dict[str, Any]]:
    """The events legal for the entity from its status in state, one per event (the
    transition the transition function takes, as in ``_links``), each as the key and input
    that fire it and the status it leads to; [] when its noun has no machine or it has no
    status."""
    machine = machine_of(state, noun)
    status = None if machine is None else status_of(state, noun, entity)
    if machine is None or status is None:
        return []
    first: dict[str, Transition] = {}
    for t in machine.legal(status):
        first.setdefault(t.event, t)
    return [{"key": f"transition:{noun}", "input": {"id": entity, "event": t.event},
             "to": t.target} for t in first.values()]


def is_terminal(state: State, noun: str, entity: str) -> bool:
    """Whether the entity's status is a terminal one of its noun's machine."""
    machine = machine_of(state, noun)
    return machine is not None and status_of(state, noun, entity) in machine.terminal


def effects(state: State, fired: list[tuple[str, str, Transition]],
            entered: dict[str, set[tuple[str, ...]]]) -> list[dict[str, Any]]:
    """The verbs the runtime is to perform: during each fired transition (Mealy), then in
    each status an entity entered (Moore)."""
    out: list[dict[str, Any]] = []
    for noun, entity, transition in fired:
        machine = machine_of(state, noun)
        for verb, name in machine.during if machine is not None else ():
            if name == transition.name:
                out.append({"verb": verb, "noun": noun, "id": entity,
                            "transition": transition.name, "event": transition.event})
    for fact_type, facts in sorted(entered.items()):
        if not fact_type.endswith("_has_Status"):
            continue
        for entity, status in sorted(facts):
            noun = fact_type[: -len("_has_Status")].replace("_", " ")
            machine = machine_of(state, noun)
            for verb, where in machine.within if machine is not None else ():
                if where == status:
                    out.append({"verb": verb, "noun": noun, "id": entity, "status": status})
    return out
