"""transition, actions and delete: the verbs of state machines (DESIGN §4).

``transition:<Noun> {id, event}`` fires the event: the status becomes the transition
function's value, then derive and validate as for any command.  An event the machine does
not know is ``unknown_event``; one it knows but not from the current status is rejected with
a violation of kind ``transition`` naming the status and the legal events (D′ = D).
``delete`` fires ``delete`` for a noun whose machine declares that event
(``no_delete_transition`` when it is not legal from the status); otherwise it retracts every
fact the entity plays a role in and takes it out of its populations, rejected only when that
breaks a constraint on something else.
"""

from __future__ import annotations

from typing import Any

from arest.algebra import State
from arest.algebra.relations import Relation
from arest.compiler.cells import FACT_TYPE_ROLES, machine_cell, populated_nouns
from arest.compiler.change import Change
from arest.compiler.population import exists
from arest.system import evolution
from arest.system.context import Context
from arest.system.entities import fields, href
from arest.system.entity_verbs import Output, command_result
from arest.system.errors import Refusal, invalid_input
from arest.system.inputs import atom, entity_id
from arest.system.machines import fire, machine_of, status_of

DELETE = "delete"
NO_CONTEXT = Context()


def _entity(state: State, noun: str, request: Any, keys: set[str]) -> str:
    if isinstance(request, dict):
        extra = sorted(set(request) - keys)
        if extra:
            raise invalid_input(f"$.{extra[0]}", "only " + ", ".join(sorted(keys)))
    fields(state, noun)
    entity = entity_id({"id": request.get("id")} if isinstance(request, dict) else request)
    if not exists(state, noun, entity):
        raise Refusal("unknown_entity", f"no {noun} {entity!r}", noun=noun, id=entity)
    return entity


def transition(state: State, noun: str, request: Any, context: Context = NO_CONTEXT
               ) -> tuple[Output, State]:
    """transition:N ``{id, event}`` — the command result of firing the event, and D′ (D when
    the event is not legal from the entity's status).

    >>> import arest
    >>> D = arest.compile(TASKS)  # a Task machine, Open --finish--> Done (conftest.py)
    >>> _, D = arest.apply(D, "create:Task", {"id": "t1"})
    >>> out, D = transition(D, "Task", {"id": "t1", "event": "finish"})
    >>> out["entity"]["status"], transition(D, "Task", {"id": "t1", "event": "finish"})[0][
    ...     "violations"][0]["constraint_id"]
    ('Done', 'machine:Task')
    """
    if not isinstance(request, dict) or "id" not in request or "event" not in request:
        raise invalid_input("$", "an object with the id and the event")
    entity = _entity(state, noun, request, {"id", "event"})
    event = atom(request["event"], "$.event")
    return _fire(state, noun, entity, event, context)


def _fire(state: State, noun: str, entity: str, event: str, context: Context = NO_CONTEXT
          ) -> tuple[Output, State]:
    machine = machine_of(state, noun)
    if machine is None or event not in machine.events:
        events = machine.events if machine is not None else []
        raise Refusal("unknown_event", f"{noun} has no event {event!r}", events=events)
    change = Change(state)
    fired = fire(change, machine, entity, event)
    if fired is None:
        status = status_of(state, noun, entity)
        legal = sorted({t.event for t in machine.legal(status or "")})
        reading = (f"{noun} '{entity}' is {status}: {event} is not legal from there"
                   + (f"; legal: {', '.join(legal)}" if legal else "; no event is legal"))
        violation = {"constraint_id": machine_cell(noun), "kind": "transition",
                     "modality": "alethic", "reading": reading,
                     "detail": {"status": status, "event": event, "legal": legal}}
        out, _ = command_result(state, Change(state), (noun, entity))
        out.update(rejected=True, violations=[violation])
        return out, state
    governed = evolution.applying(change, noun, entity, event, context)
    out, after = command_result(state, change, (noun, entity), fired=[(noun, entity, fired)])
    if governed:
        return evolution.applied(state, out, after, entity, context)
    return out, after


def actions(state: State, request: Any) -> Output:
    """``actions {noun, id}``: the events legal from the entity's status, with targets.

    >>> import arest
    >>> D = arest.compile(TASKS)  # a Task machine, Open --finish--> Done (conftest.py)
    >>> _, D = arest.apply(D, "create:Task", {"id": "t1"})
    >>> [a["event"] for a in actions(D, {"noun": "Task", "id": "t1"})["actions"]]
    ['finish']
    """
    if not isinstance(request, dict) or not isinstance(request.get("noun"), str):
        raise invalid_input("$", "an object with noun and id")
    noun = request["noun"]
    entity = _entity(state, noun, {"id": request.get("id")}, {"id"})
    machine = machine_of(state, noun)
    status = status_of(state, noun, entity)
    listed = [] if machine is None or status is None else [
        {"event": t.event, "to": t.target, "href": f"{href(state, noun, entity)}/transition",
         "method": "POST"}
        for t in machine.legal(status)
    ]
    return {"id": entity, "noun": noun, "status": status, "actions": listed}


def delete(state: State, noun: str, request: Any, context: Context = NO_CONTEXT
           ) -> tuple[Output, State]:
    """delete:N ``{id}`` — the command result of the entity leaving D (its ``delete``
    transition when its machine has one), and D′.

    >>> import arest
    >>> D = arest.compile("Order(.id) is an entity type.")
    >>> _, D = arest.apply(D, "create:Order", {"id": "o1"})
    >>> out, D = delete(D, "Order", {"id": "o1"})
    >>> out["deleted"], arest.apply(D, "list:Order")[0]["total"]
    ({'noun': 'Order', 'id': 'o1'}, 0)
    """
    entity = _entity(state, noun, request, {"id"})
    machine = machine_of(state, noun)
    if machine is not None and DELETE in machine.events:
        status = status_of(state, noun, entity)
        legal = sorted({t.event for t in machine.legal(status or "")})
        if DELETE not in legal:
            raise Refusal("no_delete_transition",
                          f"{noun} '{entity}' is {status}: delete is not legal from there",
                          events=legal)
        return _fire(state, noun, entity, DELETE, context)
    change = Change(state)
    roles = state.get(FACT_TYPE_ROLES)
    nouns = _kinds_of(change, noun, entity)
    for member_of in nouns:
        for fact_type, _, position in roles.matching(1, member_of) if isinstance(
                roles, Relation) else ():
            relation = change.state.get(fact_type)
            if isinstance(relation, Relation):
                for fact in sorted(relation.matching(int(position), entity)):
                    change.remove(fact_type, fact)
    for member_of in nouns:
        change.forget(member_of, entity)
    out, after = command_result(state, change)
    out["deleted"] = {"noun": noun, "id": entity} if not out["rejected"] else None
    return out, after


def _kinds_of(change: Change, noun: str, entity: str) -> list[str]:
    """The nouns whose populations the entity leaves: its noun, the supertypes, and every
    subtype it is also an entity of."""
    populations = populated_nouns(change.state)
    return [*change.member_of(noun), *(
        sub for sub in populations
        if sub != noun and noun in change.member_of(sub) and exists(change.state, sub, entity))]
