"""SYSTEM:x = ⟨o, D′⟩.  ``apply(D, key, input, context)`` runs the command the key names.

    apply(D, key, input, context) = run(D, parse_key(key, input), read_context(context))
    run(D, command, context)      = VERBS[command.verb].handler(D, command, context)

(or the verb's compiled handler, where it covers the command: the same answer; and a
create of flat input by its plan's straight-line steps goes there from the key, with no
command built.)

Pure and total: bad input gives the error envelope of DESIGN §5 and D′ = D; nothing here
reads a clock, a file or a global.  The commands are :mod:`arest.system.commands`.
"""

from __future__ import annotations

from typing import Any

from arest.algebra import State
from arest.system import evolution
from arest.system.commands import (
    MOST_KEPT_KEY,
    VERBS,
    Command,
    Effect,
    Output,
    known_key,
    parse_key,
)
from arest.system.compiled_create import flat_create_answer
from arest.system.context import DEFAULT, Context, read_context
from arest.system.errors import Refusal


def run(state: State, command: Command, context: Context) -> tuple[Output, State]:
    """One command, already parsed: its output and the next state; refused, D′ = D, when
    its change of cells breaks the rules of Domain Changes (:func:`evolution.governed`; a
    command that replaces the whole D checks its own: compile its readings, rollback and
    snapshot restore or keep a D that was)."""
    verb = VERBS[command.verb]
    if verb.compiled is not None:
        answered = verb.compiled(state, command, context)
        if answered is not None:
            return answered
    return interpret(state, command, context)


def interpret(state: State, command: Command, context: Context) -> tuple[Output, State]:
    """:func:`run` by the verb's handler alone, never its compiled one: the semantics that
    a compiled handler's answer equals."""
    verb = VERBS[command.verb]
    try:
        out, after = verb.handler(state, command, context)
    except Refusal as refusal:
        return refusal.envelope, state
    if after is not state and verb.effect is not Effect.WHOLE:
        broken = evolution.governed(state, after, command, context)
        if broken is not None:
            return broken.envelope, state
    return out, after


def apply(
    state: State, key: Any, request: Any = None, context: Any = None
) -> tuple[Output, State]:
    """One command given by its key: its output and the next state (the same state when
    nothing changed)."""
    if context is None and type(request) is dict and type(key) is str \
            and key.startswith("create:") and len(key) <= MOST_KEPT_KEY:
        answered = _flat_create(state, key, request)
        if answered is not None:
            return answered
    try:
        command = parse_key(key, request)
        command_context = DEFAULT if context is None else read_context(context)
    except Refusal as refusal:
        return refusal.envelope, state
    return run(state, command, command_context)


def _flat_create(state: State, key: str, request: dict[str, Any]) -> tuple[Output, State] | None:
    """``create:N`` by N's plan's straight-line steps, from the key and the input (no
    command built): :func:`run`'s answer where they answer, else None.

        _flat_create(D, k, x) = ⟨o, D′⟩  ⇒  apply(D, k, x) = ⟨o, D′⟩

    The steps read no context, and they answer only an input whose keys are the plan's and
    whose every value is a plain atom or true, which the input's check
    (:func:`arest.system.inputs.checked_input`) never refuses; a key read before is kept
    (:func:`arest.system.commands.known_key`), one refused is :func:`apply`'s to refuse."""
    for value in request.values():
        if type(value) is not str and value is not True:
            return None  # not flat (a number, a list, a child): no plan looked up for it
    try:
        _, target = known_key(key)
    except Refusal:
        return None
    return flat_create_answer(state, target, request)
