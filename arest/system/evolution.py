"""propose, and applying a Domain Change: governed self-modification (DESIGN Appendix A).

``propose {rationale?, target_domain, readings, constraints?, verbs?, nouns?}`` creates a
Domain Change in status Proposed (the bundled evolution readings): its rationale, the Domain
it targets, the proposed readings (``readings``, then ``constraints`` and ``verbs``, which are
FORML 2 sentences too, one text) and the Signal Source that proposed it, taken from the
command's context — never from the arguments.  The readings must read on top of D's
(``reading_error`` otherwise), and each of ``nouns`` must be a noun after them.

The event ``apply`` on a Domain Change records who applies it (``Domain Change is applied by
Signal Source``, from the context) and, in the same command, compiles the stored readings
through ``compile``: one SYSTEM application, rejected as a whole (D′ = D) when the guard on
protected domains refuses the Signal Source, when the readings no longer read, or when the
population would violate them.
"""

from __future__ import annotations

from typing import Any

from arest.algebra import State
from arest.algebra.relations import Relation
from arest.compiler.cells import NOUN_OBJECT_TYPES
from arest.compiler.change import Change
from arest.compiler.readings import read_sources, sources_of
from arest.forml2 import ReadingError
from arest.system.context import Context
from arest.system.entities import fields, represent
from arest.system.entity_verbs import Output, command_result, create_entity
from arest.system.errors import invalid_input
from arest.system.machines import next_actions
from arest.system.self_modification import compile_readings, reading_refusal

DOMAIN_CHANGE = "Domain Change"
PROPOSED = "Domain_Change_has_Proposed_Readings"
APPLIED_BY = "Domain_Change_is_applied_by_Signal_Source"
_KEYS = {"rationale", "target_domain", "readings", "constraints", "verbs", "nouns"}


def _texts(request: dict[str, Any], key: str) -> list[str]:
    value = request.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise invalid_input(f"$.{key}", "FORML 2 text, or a list of texts")
    return [item.strip() for item in value if item.strip()]


def propose(state: State, request: Any, context: Context) -> tuple[Output, State]:
    """propose ``{target_domain, readings, …}`` — the command result of a new Domain Change
    holding the proposed readings (checked, not yet applied), with its next actions, and D′.
    """
    if not isinstance(request, dict):
        raise invalid_input("$", "an object with target_domain and readings")
    extra = sorted(set(request) - _KEYS)
    if extra:
        raise invalid_input(f"$.{extra[0]}", "one of " + ", ".join(sorted(_KEYS)))
    target = request.get("target_domain")
    if not isinstance(target, str) or not target.strip():
        raise invalid_input("$.target_domain", "the name of the Domain the change targets")
    text = "\n".join(_texts(request, "readings") + _texts(request, "constraints")
                     + _texts(request, "verbs"))
    if not text:
        raise invalid_input("$.readings", "at least one FORML 2 sentence")
    nouns = request.get("nouns", [])
    if not isinstance(nouns, list) or not all(isinstance(n, str) for n in nouns):
        raise invalid_input("$.nouns", "a list of noun names")
    sources = (*sources_of(state), ("<proposed>", text))
    try:
        known = {n for n in _nouns_after(sources)}
    except ReadingError as error:
        raise reading_refusal(error) from None
    missing = [noun for noun in nouns if noun not in known]
    if missing:
        raise invalid_input("$.nouns", f"nouns the readings declare (not {', '.join(missing)})")
    rationale = request.get("rationale")
    if rationale is not None and not isinstance(rationale, str):
        raise invalid_input("$.rationale", "text")
    fields(state, DOMAIN_CHANGE)
    change = Change(state)
    entity_request: dict[str, Any] = {
        "Domain": target.strip(), "Proposed Readings": text,
        "is proposed by Signal Source": context.source,
    }
    if rationale:
        entity_request["Rationale"] = rationale
    entity = create_entity(change, DOMAIN_CHANGE, entity_request, "$")
    return command_result(state, change, (DOMAIN_CHANGE, entity))


def _nouns_after(sources: tuple[tuple[str, str], ...]) -> set[str]:
    compiled = read_sources(sources)
    return {fact[0] for name, fact in compiled.facts if name == NOUN_OBJECT_TYPES}


def applied(before: State, out: Output, after: State, entity: str) -> tuple[Output, State]:
    """The apply transition's result, with the Domain Change's readings compiled on top, as
    one command: rejected as a whole (D′ = D) when the transition was, or when the readings
    would violate the population; ``reading_error`` when they no longer read."""
    if out["rejected"]:
        return out, before
    relation = after.get(PROPOSED)
    texts = [text for _, text in relation.matching(0, entity)] if isinstance(
        relation, Relation) else []
    compiled, final = compile_readings(after, {"readings": texts[0] if texts else ""})
    if compiled["rejected"]:
        # D′ = D: the Domain Change is as it was before the command, and so are its actions.
        return dict(out, rejected=True, violations=compiled["violations"], derived=[],
                    effects=[], entity=represent(before, DOMAIN_CHANGE, entity),
                    next_actions=next_actions(before, DOMAIN_CHANGE, entity)), before
    out = dict(out, derived=out["derived"] + compiled["derived"])
    return out, final


def applying(change: Change, noun: str, entity: str, event: str, context: Context) -> bool:
    """Record who applies a Domain Change, in the same command (the guard on protected
    domains reads it); True when this is one."""
    if noun != DOMAIN_CHANGE or event != "apply":
        return False
    change.add(APPLIED_BY, (entity, context.source))
    return True
