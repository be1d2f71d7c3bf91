"""SYSTEM:x = ⟨o, D′⟩.  ``apply(D, key, input, context)`` dispatches on the key's verb.

Pure and total: bad input gives the error envelope of DESIGN §5 and D′ = D; nothing here
reads a clock, a file or a global.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arest.algebra import State
from arest.system import entity_verbs, evolution, fact_verbs, snapshots, transitions
from arest.system.bridge import ask, synthesize, validate_text
from arest.system.context import Context, read_context
from arest.system.describe import describe
from arest.system.entities import list_entities
from arest.system.errors import Refusal, closest
from arest.system.explain import explain
from arest.system.inputs import checked_text
from arest.system.search import fetch, search
from arest.system.self_modification import compile_readings

Output = dict[str, Any]
Handler = Callable[[State, str, Any, Context], tuple[Output, State]]


def _reading(verb: Callable[[State, str, Any], Output]) -> Handler:
    """A verb that only reads: D′ = D."""
    return lambda state, target, request, context: (verb(state, target, request), state)


def _get(state: State, noun: str, request: Any) -> Output:
    if request is None or request == {} or (isinstance(request, dict) and "id" not in request):
        return list_entities(state, noun, request)
    return entity_verbs.read(state, noun, request)


# Each verb: whether its key names a target (``list:Order``), and its handler.
_VERBS: dict[str, tuple[bool, Handler]] = {
    "schema": (False, lambda s, t, r, c: (describe(s, r), s)),
    "list": (True, _reading(list_entities)),
    "read": (True, _reading(entity_verbs.read)),
    "get": (True, _reading(_get)),
    "create": (True, lambda s, t, r, c: entity_verbs.create(s, t, r)),
    "update": (True, lambda s, t, r, c: entity_verbs.update(s, t, r)),
    "query": (True, _reading(fact_verbs.query)),
    "project": (False, lambda s, t, r, c: (fact_verbs.project(s, r), s)),
    "assert": (False, lambda s, t, r, c: fact_verbs.assert_fact(s, r)),
    "retract": (False, lambda s, t, r, c: fact_verbs.retract_fact(s, r)),
    "verify": (False, lambda s, t, r, c: (fact_verbs.verify(s, r), s)),
    "explain": (False, lambda s, t, r, c: (explain(s, r), s)),
    "transition": (True, lambda s, t, r, c: transitions.transition(s, t, r, c)),
    "delete": (True, lambda s, t, r, c: transitions.delete(s, t, r, c)),
    "propose": (False, lambda s, t, r, c: evolution.propose(s, r, c)),
    "actions": (False, lambda s, t, r, c: (transitions.actions(s, r), s)),
    "compile": (False, lambda s, t, r, c: compile_readings(s, r)),
    "snapshot": (False, lambda s, t, r, c: snapshots.snapshot(s, r, c)),
    "rollback": (False, lambda s, t, r, c: snapshots.rollback(s, r)),
    "snapshots": (False, lambda s, t, r, c: (snapshots.snapshots(s, r), s)),
    "search": (False, lambda s, t, r, c: (search(s, r), s)),
    "fetch": (False, lambda s, t, r, c: (fetch(s, r), s)),
    "ask": (False, lambda s, t, r, c: (ask(s, r), s)),
    "synthesize": (False, lambda s, t, r, c: (synthesize(s, r), s)),
    "validate": (False, lambda s, t, r, c: (validate_text(s, r), s)),
}


def _usage() -> list[str]:
    return [
        f"{verb}:<{'fact type' if verb == 'query' else 'Noun'}>" if targeted else verb
        for verb, (targeted, _) in _VERBS.items()
    ]


def apply(
    state: State, key: Any, request: Any = None, context: Any = None
) -> tuple[Output, State]:
    """One command: its output and the next state (the same state when nothing changed)."""
    try:
        command_context = read_context(context)
        if not isinstance(key, str):
            raise Refusal("unknown_key", "a key is a string such as 'list:Noun'",
                          key=repr(key), candidates=_usage())
        checked_text(key, "$key")
        verb, colon, target = key.partition(":")
        entry = _VERBS.get(verb)
        if entry is None or entry[0] != bool(colon) or (colon and not target):
            raise Refusal("unknown_key", f"no key {key!r}", key=key,
                          candidates=closest(key, _usage()) or _usage())
        return entry[1](state, target, request, command_context)
    except Refusal as refusal:
        return refusal.envelope, state

