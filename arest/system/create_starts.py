"""What a new entity's machine gives a create, known when compiling its plan: the status it
starts in, the events legal from there, and the verbs performed on entering it.

    start(N, e)        = {N_has_Status(e, s₀)}                    (e new, N with a machine)
    _links(N, e)       = self ++ {event ↦ POST …/transition | event legal from s₀}
                              ++ navigation ++ machine.svg
    next_actions(N, e) = [⟨transition:N, {id: e, event}, to⟩ | event legal from s₀]
    effects            = [⟨verb, N, e, s₀⟩ | verb performed in s₀], by status fact type and id

Until a transition fires, a new entity's status is s₀, and in a create none fires where no
trigger fact type is among the cells it writes or derives: so what the interpreted create
reads back from D′ (:func:`arest.system.machines.start`, :func:`arest.system.links.links`,
:func:`arest.system.machines.next_actions`, :func:`arest.system.machines.effects`) is a
function of the machine alone.

>>> import arest
>>> D = arest.compile(TASKS)  # a Task machine, Open --finish--> Done (conftest.py)
>>> start = start_of(D, "Task")
>>> start.initial, start.fact_type, start.events
('Open', 'Task_has_Status', (('finish', 'Done'),))
>>> next_actions(start, "Task", "t1") == arest.apply(D, "create:Task", {"id": "t1"})[0][
...     "next_actions"]
True
"""

from __future__ import annotations

from typing import Any

from arest.algebra import State
from arest.compiler.fields import status_fact_type
from arest.records import record
from arest.system.links import MACHINE_PICTURE
from arest.system.machines import machine_of

STATUS_SUFFIX = "_has_Status"


@record
class Start:
    """A noun's machine as its create meets it: s₀, the status fact type, each event legal
    from s₀ with the status its first transition leads to, and the verbs performed in s₀
    with the noun :func:`arest.system.machines.effects` names them by (read back from the
    status fact type's name)."""

    initial: str
    fact_type: str
    events: tuple[tuple[str, str], ...]
    performed: tuple[str, ...]
    performer: str


def start_of(state: State, noun: str) -> Start | None:
    """The start of the noun's machine; None when the noun has none."""
    machine = machine_of(state, noun)
    if machine is None:
        return None
    events: dict[str, str] = {}
    for transition in machine.legal(machine.initial):
        events.setdefault(transition.event, transition.target)
    fact_type = status_fact_type(noun)
    performer = fact_type[: -len(STATUS_SUFFIX)].replace("_", " ")
    named = machine_of(state, performer)
    performed = tuple(verb for verb, status in (named.within if named is not None else ())
                      if status == machine.initial)
    return Start(machine.initial, fact_type, tuple(events.items()), performed, performer)


def next_actions(start: Start, noun: str, entity: str) -> list[dict[str, Any]]:
    """:func:`arest.system.machines.next_actions` of a new entity in s₀."""
    return [{"key": f"transition:{noun}", "input": {"id": entity, "event": event}, "to": target}
            for event, target in start.events]


def event_links(start: Start, url: str, links: dict[str, Any]) -> None:
    """The links of the events legal from s₀ into links, after ``self``, as
    :func:`arest.system.links.links` puts them."""
    for event, _ in start.events:
        links.setdefault(event, {"href": f"{url}/transition", "method": "POST", "event": event})


def picture_link(url: str, links: dict[str, Any]) -> None:
    """The link to the machine's picture, last, as :func:`arest.system.links.links` puts it."""
    links.setdefault(MACHINE_PICTURE, {"href": f"{url}/{MACHINE_PICTURE}",
                                       "type": "image/svg+xml"})


def effects(started: list[tuple[Start, str]]) -> list[dict[str, Any]]:
    """:func:`arest.system.machines.effects` of a command that fired nothing and whose only
    status facts are the starts of the new entities ``started``."""
    out: list[dict[str, Any]] = []
    for start, entity in sorted(started, key=lambda s: (s[0].fact_type, s[1], s[0].initial)):
        out.extend({"verb": verb, "noun": start.performer, "id": entity,
                    "status": start.initial} for verb in start.performed)
    return out
