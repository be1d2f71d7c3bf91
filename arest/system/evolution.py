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

Three rules keep the review honest whoever calls (DESIGN §12, ``docs/security.md``):

- the Signal Source that proposes or applies a Domain Change is the command's, never an
  input's: a command that records another one is refused (:func:`governed`);
- a Domain Change's Proposed Readings are frozen once it leaves Proposed: an edit of a change
  under review, approved, applied or rejected is refused (revise a rejected one first);
- readings about the protected domains — readings whose compilation adds facts to the
  metamodel's own fact types, or declares, extends or constrains a metamodel noun or fact
  type (:func:`protected_facts`) — are applied only by a Human, whatever Domain the change
  says it targets.
"""

from __future__ import annotations

from functools import lru_cache
from operator import is_not
from typing import TYPE_CHECKING, Any, Final

from arest.algebra import State
from arest.algebra.memo import IdentityMemo
from arest.algebra.relations import Relation
from arest.compiler.cells import FACT_TYPE_READINGS, NOUN_OBJECT_TYPES
from arest.compiler.change import Change
from arest.system.context import HUMAN, Context
from arest.system.entities import fields, represent
from arest.system.errors import Refusal, invalid_input
from arest.system.machines import next_actions, status_of

if TYPE_CHECKING:
    from arest.system.commands import Command
    from arest.system.entity_verbs import Output

DOMAIN_CHANGE = "Domain Change"
PROPOSED = "Domain_Change_has_Proposed_Readings"
APPLIED_BY = "Domain_Change_is_applied_by_Signal_Source"
PROPOSED_BY = "Domain_Change_is_proposed_by_Signal_Source"
EDITABLE: Final = "Proposed"
"""The only status in which a Domain Change's Proposed Readings may change."""
PROTECTED_READINGS: Final = "evolution:protected-readings"
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
    from arest.compiler.readings import sources_of
    from arest.forml2 import ReadingError
    from arest.system.self_modification import reading_refusal

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
    from arest.system.entity_verbs import command_result, create_entity

    entity = create_entity(change, DOMAIN_CHANGE, entity_request, "$")
    return command_result(state, change, (DOMAIN_CHANGE, entity))


def _nouns_after(sources: tuple[tuple[str, str], ...]) -> set[str]:
    from arest.compiler.readings import read_sources

    compiled = read_sources(sources)
    return {fact[0] for name, fact in compiled.facts if name == NOUN_OBJECT_TYPES}


def applied(before: State, out: Output, after: State, entity: str, context: Context
            ) -> tuple[Output, State]:
    """The apply transition's result, with the Domain Change's readings compiled on top, as
    one command: rejected as a whole (D′ = D) when the transition was, when the readings are
    about a protected domain and the caller is not a Human, or when the readings would
    violate the population; ``reading_error`` when they no longer read."""
    if out["rejected"]:
        return out, before
    relation = after.get(PROPOSED)
    texts = [text for _, text in relation.matching(0, entity)] if isinstance(
        relation, Relation) else []
    text = texts[0] if texts else ""
    violation = protected_violation(after, text, context)
    if violation is not None:
        return _unchanged(before, out, entity, [violation]), before
    from arest.system.self_modification import compile_readings

    compiled, final = compile_readings(after, {"readings": text})
    if compiled["rejected"]:
        return _unchanged(before, out, entity, compiled["violations"]), before
    out = dict(out, derived=out["derived"] + compiled["derived"])
    return out, final


def protected_violation(state: State, text: Any, context: Context) -> dict[str, Any] | None:
    """The violation of readings about a protected domain (:func:`protected_facts`) that
    a caller other than a Human would compile, else None (None too for text that does not
    read: the compile that follows says why)."""
    if context.source == HUMAN or not isinstance(text, str):
        return None
    from arest.forml2 import ReadingError

    try:
        about = protected_facts(state, text)
    except ReadingError:
        return None
    if not about:
        return None
    return {"constraint_id": PROTECTED_READINGS, "kind": "guard", "modality": "alethic",
            "reading": "Readings about a protected domain (they declare, extend or constrain"
                       " the metamodel's nouns or fact types, or populate its fact types)"
                       " are compiled only by a Human",
            "detail": {"source": context.source,
                       "facts": [f"{name}{fact!r}" for name, fact in about[:5]]}}


def _unchanged(before: State, out: Output, entity: str, violations: list[Any]) -> Output:
    """The rejected apply: D′ = D, so the Domain Change is as it was before the command,
    and so are its actions."""
    return dict(out, rejected=True, violations=violations, derived=[], effects=[],
                entity=represent(before, DOMAIN_CHANGE, entity),
                next_actions=next_actions(before, DOMAIN_CHANGE, entity))


def applies_a_change(command: Command) -> bool:
    """Whether a command applies a Domain Change (the event ``apply`` on one), which
    changes the schema: the permission it needs is ``schema``, not the ``write`` of other
    transitions.

    >>> from arest.system.commands import Command
    >>> applies_a_change(Command("transition", DOMAIN_CHANGE, {"id": "1", "event": "apply"}))
    True
    >>> applies_a_change(Command("transition", DOMAIN_CHANGE, {"id": "1", "event": "approve"}))
    False
    """
    request = command.input
    return (command.verb == "transition" and command.target == DOMAIN_CHANGE
            and isinstance(request, dict) and request.get("event") == "apply")


_SCHEMA_NOUNS: Final = frozenset({
    "Noun", "Fact Type", "Role", "Constraint", "Derivation Rule", "State Machine Definition",
    "Status", "Transition", "Event Type", "Verb"})
"""The metamodel nouns whose facts describe a schema: every reading adds facts about them."""


@lru_cache(maxsize=1)
def _metamodel_names() -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    """The metamodel's nouns, its entity types, its fact types, and those of its fact types
    that describe a schema (their first role is one of :data:`_SCHEMA_NOUNS`)."""
    from arest.forml2.bundled import metamodel_facts

    facts = metamodel_facts()
    nouns = frozenset(f[0] for name, f in facts if name == NOUN_OBJECT_TYPES)
    entities = frozenset(f[0] for name, f in facts
                         if name == NOUN_OBJECT_TYPES and f[1] == "entity")
    fact_types = frozenset(f[0] for name, f in facts if name == FACT_TYPE_READINGS)
    describing = frozenset(f[0] for name, f in facts if name == "Fact_Type_has_Noun_at_Position"
                           and f[2] == "0" and f[1] in _SCHEMA_NOUNS)
    return nouns, entities, fact_types, describing


def protected_facts(state: State, text: str) -> list[tuple[str, tuple[str, ...]]]:
    """The facts that make readings about the protected domains: of the metamodel facts
    reading ``text`` on top of D's readings adds, those of a metamodel fact type that does
    not describe a schema (``Domain 'core' has Visibility 'public'``), and those describing
    a schema that name a metamodel entity type or fact type (``Domain Change has Effort``,
    a constraint or derivation rule on a metamodel fact type, a state machine of a
    metamodel noun) or declare or constrain a metamodel noun (``The possible values of Name
    are …``).  Raises :class:`ReadingError` when the text does not read.

    >>> import arest
    >>> D = arest.compile("Task(.id) is an entity type.")
    >>> protected_facts(D, "Effort is a value type.\\nTask has Effort.")
    []
    >>> [name for name, _ in protected_facts(D, "Effort is a value type.\\n"
    ...                                       "Domain Change has Effort.")][:1]
    ['Fact_Type_has_Noun_at_Position']
    """
    from arest.compiler.readings import read_sources, sources_of

    nouns, entities, fact_types, describing = _metamodel_names()
    sources = sources_of(state)
    known = set(read_sources(sources).facts)
    found = []
    for name, fact in read_sources((*sources, ("<proposed>", text))).facts:
        if (name, fact) in known or name not in fact_types:
            continue
        values = [str(value) for value in fact]
        if name not in describing or any(v in entities or v in fact_types for v in values) \
                or ((name.startswith("Noun_") or name == "Constraint_is_on_Noun")
                    and values[-1 if name == "Constraint_is_on_Noun" else 0] in nouns):
            found.append((name, tuple(values)))
    return found


@lru_cache(maxsize=1)
def _written_by_readings_only() -> tuple[str, ...]:
    """The metamodel's fact types but a Domain Change's own: their population is the
    protected domains', which only compiled readings change."""
    from arest.forml2.bundled import metamodel_fact_types

    fact_types = metamodel_fact_types()  # _metamodel_names()'s third, without the facts
    prefix = DOMAIN_CHANGE.replace(" ", "_") + "_"
    return tuple(sorted(name for name in fact_types if not name.startswith(prefix)))


@lru_cache(maxsize=1)
def governed_cells() -> frozenset[str]:
    """Every cell :func:`governed` compares before and after: a command that writes none of
    them is never refused by it."""
    return frozenset((*_written_by_readings_only(), PROPOSED_BY, APPLIED_BY, PROPOSED))


def _protected_contents(state: State) -> tuple[object, ...]:
    """The contents of D's cells of :func:`_written_by_readings_only`, in that order."""
    return tuple(map(state.get, _written_by_readings_only()))


_protected_by_state: IdentityMemo[tuple[object, ...]] = IdentityMemo(
    _protected_contents, limit=8)
"""The protected cells' contents of the last states a command started from or reached: the
state a command reaches is the next one's start, so each state's 62 cells are read once.
Bounded to a few states, which it keeps alive only until newer ones push them out."""


def _protected_in(state: State) -> tuple[object, ...]:
    """The protected cells' contents of the state shown, read around a recording view
    (``shown``, :mod:`arest.runtime.footprint`), so that a command's footprint does not
    gain them: a command that writes none of them finds each the same object before and
    after whatever it holds, so the answer does not depend on their contents, and one that
    writes one has it in its footprint as written."""
    return _protected_by_state(getattr(state, "shown", state))


def governed(before: State, after: State, command: Command, context: Context
             ) -> Refusal | None:
    """Why a command's change of D breaks the rules of Domain Changes, or None: it records
    a Signal Source other than its own as a change's proposer or applier; it edits the
    Proposed Readings of a change no longer Proposed; or, from a caller other than a Human
    and other than by compiling readings, it changes the population of the metamodel's
    fact types (``Domain 'core' is protected``), which are the protected domains'.
    (Checked on every command that changes cells of D, so no verb — create, update,
    assert, retract — gets around it.  It costs a lookup per metamodel fact type in the
    state reached, about 6 µs: the state started from was read when a command reached it.)"""
    if context.source != HUMAN and not applies_a_change(command) and any(map(
            is_not, _protected_in(before), _protected_in(after))):
        for name in _written_by_readings_only():
            if before.get(name) is not after.get(name):
                return Refusal(
                    "invalid_input", f"{name} is a fact type of the metamodel (a protected"
                    " domain): its facts change only through readings a Human compiles or"
                    f" applies, not by a command from {context.source}", path="$",
                    expected="facts of the tenant's fact types, or of a Domain Change")
    for name in (PROPOSED_BY, APPLIED_BY):
        for fact in _added(before.get(name), after.get(name)):
            if len(fact) > 1 and fact[1] != context.source:
                role = "proposer" if name == PROPOSED_BY else "applier"
                return Refusal(
                    "invalid_input", f"a Domain Change's {role}"
                    f" is the Signal Source of the command that proposes or applies it"
                    f" ({context.source}), not {fact[1]!r}", path=f"$.{name}",
                    expected="no Signal Source in the input: it is the caller's")
    old, new = before.get(PROPOSED), after.get(PROPOSED)
    if new is not old and isinstance(new, Relation):
        edited = {fact[0] for fact in _added(old, new)} | {
            fact[0] for fact in _added(new, old)}
        for entity in sorted(str(e) for e in edited):
            status = status_of(before, DOMAIN_CHANGE, entity)
            if status is not None and status != EDITABLE:
                return Refusal(
                    "invalid_input", f"Domain Change {entity!r} is {status}: its Proposed"
                    f" Readings are frozen once it leaves {EDITABLE} (a rejected change is"
                    " revised back to Proposed first; otherwise propose a new change)",
                    path="$.Proposed Readings", expected=f"a Domain Change in status {EDITABLE}")
    return None


def _added(old: Any, new: Any) -> list[tuple[Any, ...]]:
    """The facts in relation ``new`` that are not in ``old`` (either may be absent)."""
    if new is old or not isinstance(new, Relation):
        return []
    if not isinstance(old, Relation):
        return list(new)
    return [fact for fact, was, now in new.changes_since(old) if was is None and now is not None]


def applying(change: Change, noun: str, entity: str, event: str, context: Context) -> bool:
    """Record who applies a Domain Change, in the same command (the guard on protected
    domains reads it); True when this is one."""
    if noun != DOMAIN_CHANGE or event != "apply":
        return False
    change.add(APPLIED_BY, (entity, context.source))
    return True
