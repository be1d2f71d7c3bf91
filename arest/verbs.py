"""The verb catalogue: every MCP verb as data, shared by every transport.

A :class:`Verb` is a name, a tag, a JSON Schema for its arguments, a description written for
agents, and the SYSTEM command its arguments map to (DESIGN §4, §6):

    command(verb, arguments) = ⟨key, input⟩,   e.g.  create {noun, id, fields}
                                                    = ⟨create:<noun>, {id, **fields}⟩

A transport lists the verbs of the caller's :class:`Surface`, checks the arguments against
the verb's schema (validators compiled once), and calls the tenant with the command.  Nothing
here runs a command: arguments in, a command or an error envelope out.

>>> command_for("create", {"noun": "Order", "id": "ord-1", "fields": {"Customer": "acme"}},
...             surface()).key
'create:Order'
>>> surface().tags, "assert" in surface().verbs
(('entity', 'introspection'), False)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Final

from arest.algebra import NotationError, Object, read
from arest.algebra.objects import Bottom

TAGS: Final = ("primitive", "entity", "introspection", "persistence", "evolution", "llm",
               "chatgpt")
"""Every tag, in the order the seed lists its tiers (the ChatGPT pair last)."""

DEFAULT_TAGS: Final = ("entity", "introspection")

Arguments = Mapping[str, Any]


class VerbError(ValueError):
    """Raised by :func:`command_for` when arguments cannot make a command: ``envelope`` is the
    SYSTEM error output (DESIGN §5) to answer with, ``invalid_input`` with the path and what
    was expected, or ``not_allowed`` for a key outside the caller's active tags."""

    def __init__(self, code: str, message: str, **fields: Any) -> None:
        super().__init__(message)
        self.envelope: dict[str, Any] = {"error": {"code": code, "message": message, **fields}}


class SurfaceError(ValueError):
    """Raised by :func:`surface` for an unknown tag or tool name; ``option`` names the option
    (``tags``, ``include_tools``, ``exclude_tools``), ``unknown`` the bad values and ``valid``
    every value that would have been accepted."""

    def __init__(self, option: str, unknown: list[str], valid: Iterable[str]) -> None:
        self.option, self.unknown, self.valid = option, unknown, list(valid)
        super().__init__(f"{option}: unknown {', '.join(map(repr, unknown))};"
                         f" valid values are {', '.join(self.valid)}")


@dataclass(frozen=True)
class Command:
    """One SYSTEM application to make: its key and input."""

    key: str
    input: Any


@dataclass(frozen=True)
class Verb:
    """One MCP verb: ``build`` maps checked arguments to a command; ``reaches`` names the
    SYSTEM verbs (the part of a key before ``:``) it can run, which decides what ``apply``
    may run when this verb is active."""

    name: str
    tag: str
    description: str
    schema: Mapping[str, Any]
    build: Callable[[Arguments], Command]
    reaches: tuple[str, ...]

    @cached_property
    def validator(self) -> Any:
        """The compiled JSON Schema validator (compiling it per call costs ~0.7 ms)."""
        from jsonschema import Draft202012Validator

        return Draft202012Validator(self.schema)

    def check(self, arguments: Any) -> None:
        """Raise ``invalid_input`` naming the first argument that breaks the schema."""
        error = next(iter(self.validator.iter_errors(arguments)), None)
        if error is not None:
            path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}"
                                 for p in error.absolute_path)
            raise VerbError("invalid_input", f"{self.name}: {error.message}", path=path,
                            expected=_expected(error))


def _expected(error: Any) -> str:
    if error.validator == "required":
        return "the properties " + ", ".join(error.validator_value)
    if error.validator == "additionalProperties":
        return "only the properties " + ", ".join(error.schema.get("properties", {}))
    if error.validator in ("oneOf", "anyOf"):
        options = [" and ".join(option["required"]) if "required" in option
                   else str(option.get("type")) for option in error.validator_value]
        return ("exactly one of " if error.validator == "oneOf" else "") + " or ".join(options)
    if error.validator in ("type", "enum", "minLength"):
        return f"{error.validator} {json.dumps(error.validator_value)}"
    return str(error.message)


# Schemas -------------------------------------------------------------------------------

def _object(required: Iterable[str] = (), **properties: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": dict(properties), "required": list(required),
            "additionalProperties": False}


def _text(description: str) -> dict[str, Any]:
    return {"type": "string", "minLength": 1, "description": description}


_NOUN = _text("An entity type's name, as the readings spell it: 'Order', 'Line Item'.")
_ID = _text("The entity's id (its reference-scheme value).")
_FACT_TYPE = _text("A fact type id, e.g. 'Order_was_placed_by_Customer' (see schema).")
_FIELDS = {"type": "object", "description":
           "Field name → value. A field is named by the other role's noun ('Customer'); "
           "a list field takes a list; child objects may be nested."}
_FILTER = {"type": "object", "description":
           "Name → value; values match exactly, keys combine with AND."}
_BINDINGS = {"anyOf": [{"type": "object"}, {"type": "array"}], "description":
             "Role name → value (the role's noun, numbered 'Book1', 'Book2' when a noun "
             "plays twice), or a list of values in role order."}
_FACTS = {"type": "array", "minItems": 1, "description":
          "Several facts written as one command: all of them or none, the constraints "
          "checked on the result of all together.",
          "items": _object(["fact_type", "bindings"], fact_type=_FACT_TYPE, bindings=_BINDINGS)}
_WRITE = {**_object([], fact_type=_FACT_TYPE, bindings=_BINDINGS, facts=_FACTS),
          "oneOf": [{"required": ["fact_type", "bindings"]}, {"required": ["facts"]}]}
_TEXTS = {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
          "description": "FORML 2 text, or a list of texts."}
_LLM_RESPONSE = _text("The LLM's answer to the prompt a previous call returned.")


# Commands ------------------------------------------------------------------------------

def _entity(arguments: Arguments) -> dict[str, Any]:
    """``{id?, **fields}``: the input of create and update."""
    fields = dict(arguments.get("fields") or {})
    if "id" in arguments:
        if "id" in fields and fields["id"] != arguments["id"]:
            raise VerbError("invalid_input", "id and fields.id disagree", path="$.fields.id",
                            expected=f"no id, or {arguments['id']!r}")
        fields["id"] = arguments["id"]
    return fields


def _listing(arguments: Arguments) -> Any:
    if "id" in arguments:
        return {"id": arguments["id"]}
    rest = {k: v for k, v in arguments.items() if k != "noun"}
    return rest or None


def _as_is(key: str) -> Callable[[Arguments], Command]:
    return lambda arguments: Command(key, dict(arguments))


def _targeted(verb: str, target: str, *names: str) -> Callable[[Arguments], Command]:
    """``verb:<arguments[target]>`` with the named arguments as input."""
    return lambda a: Command(f"{verb}:{a[target]}", {n: a[n] for n in names if n in a})


_PAGING: dict[str, Mapping[str, Any]] = {
    "filter": _FILTER,
    "limit": {"type": "integer", "minimum": 0},
    "offset": {"type": "integer", "minimum": 0},
    "include_terminal": {"type": "boolean",
                         "description": "List entities in a terminal status too."},
}

_CATALOGUE: tuple[Verb, ...] = (
    Verb("assert", "primitive",
         "Assert one fact, or several as one command ({facts: [...]}), into the population. "
         "The command runs the whole pipeline: derivation, constraint validation, "
         "state-machine triggers, on all its facts together. An alethic violation rejects "
         "it and nothing changes.",
         _WRITE, _as_is("assert"), ("assert",)),
    Verb("retract", "primitive",
         "Retract one fact, or several as one command ({facts: [...]}), from the population "
         "(fact-level removal; use delete to end an entity's life). Rejected, and nothing "
         "changes, when a constraint would break.",
         _WRITE, _as_is("retract"), ("retract",)),
    Verb("project", "primitive",
         "Codd's projection: the distinct rows of a fact type (or a noun's entities) "
         "restricted by a filter, keeping the named roles.",
         {**_object([], fact_type=_FACT_TYPE, noun=_NOUN, filter=_FILTER,
                    roles={"type": "array", "items": {"type": "string"}}),
          "oneOf": [{"required": ["fact_type"]}, {"required": ["noun"]}]},
         _as_is("project"), ("project",)),
    Verb("compile", "primitive",
         "Compile new FORML 2 readings into the running schema, at once and without review "
         "(use propose for reviewed changes). Rejected when the population would violate "
         "a new constraint.",
         _object(["readings"], readings=_text("FORML 2 sentences, one per line.")),
         _as_is("compile"), ("compile",)),
    Verb("get", "entity",
         "Get an entity by id, with its fields, status and HATEOAS links; with a noun and no "
         "id, list the noun's entities (filter, limit, offset; terminal ones only when "
         "include_terminal is set).",
         _object(["noun"], noun=_NOUN, id=_ID, **_PAGING),
         lambda a: Command(f"get:{a['noun']}", _listing(a)), ("get", "list")),
    Verb("query", "entity",
         "Query the facts of one fact type, optionally filtered by role values; rows say "
         "whether each fact was derived.",
         _object(["fact_type"], fact_type=_FACT_TYPE, filter=_FILTER),
         lambda a: Command(f"query:{a['fact_type']}", a.get("filter")), ("query",)),
    Verb("apply", "entity",
         "Run any SYSTEM key, for advanced use: {key, input} with input as JSON or in FFP "
         "notation ('<<Order Id, ord-1>, <Customer, acme>>'), or {operation, noun, id, "
         "fields, event}. Keys outside this connection's tools are not allowed.",
         {**_object([], key=_text("A SYSTEM key: 'create:Order', 'query:<fact type id>', "
                                  "'schema', …"),
                    input={"description": "The key's input: JSON, or FFP notation text."},
                    operation={"type": "string", "enum": [
                        "create", "get", "read", "update", "transition", "delete",
                        "actions"]},
                    noun=_NOUN, id=_ID, fields=_FIELDS, event=_text("An event name.")),
          "anyOf": [{"required": ["key"]}, {"required": ["operation", "noun"]}]},
         lambda a: Command("", a), ()),
    Verb("create", "entity",
         "Create an entity with its field facts, and any child entities nested in fields, in "
         "one command. Returns the entity with its links, or the violations that rejected it.",
         _object(["noun"], noun=_NOUN, id=_ID, fields=_FIELDS),
         lambda a: Command(f"create:{a['noun']}", _entity(a)), ("create",)),
    Verb("read", "entity",
         "Read one entity by id: every field, its status and HATEOAS links.",
         _object(["noun", "id"], noun=_NOUN, id=_ID),
         _targeted("read", "noun", "id"), ("read",)),
    Verb("update", "entity",
         "Update an entity's fields: a single-valued field is replaced, a list field gains "
         "the values, null retracts a field.",
         _object(["noun", "id", "fields"], noun=_NOUN, id=_ID, fields=_FIELDS),
         lambda a: Command(f"update:{a['noun']}", _entity(a)), ("update",)),
    Verb("transition", "entity",
         "Fire an event of the entity's state machine; rejected, naming the legal events, "
         "when the event is not legal from the current status.",
         _object(["noun", "id", "event"], noun=_NOUN, id=_ID,
                 event=_text("The event, e.g. 'place'.")),
         _targeted("transition", "noun", "id", "event"), ("transition",)),
    Verb("delete", "entity",
         "Delete an entity: fires its machine's 'delete' event (to a terminal status), or, "
         "for a noun without a machine, retracts its facts.",
         _object(["noun", "id"], noun=_NOUN, id=_ID),
         _targeted("delete", "noun", "id"), ("delete",)),
    Verb("explain", "introspection",
         "Explain a fact: the rule that derived it and its antecedents, down to asserted "
         "facts.",
         _object(["fact_type", "bindings"], fact_type=_FACT_TYPE, bindings=_BINDINGS),
         _as_is("explain"), ("explain",)),
    Verb("actions", "introspection",
         "The events legal from an entity's current status, with their target statuses.",
         _object(["noun", "id"], noun=_NOUN, id=_ID), _as_is("actions"), ("actions",)),
    Verb("schema", "introspection",
         "The schema of this domain: nouns, fact types (ids, readings, roles), constraints, "
         "rules and state machines; for one noun or fact type when named; with the "
         "metamodel's own (Noun, Fact Type, Constraint, …) when all is true.",
         _object([], noun=_NOUN, fact_type=_FACT_TYPE,
                 all={"type": "boolean",
                      "description": "Include the metamodel's nouns and fact types."}),
         _as_is("schema"), ("schema",)),
    Verb("verify", "introspection",
         "Check a fact against the constraints without asserting it (a dry run): the "
         "violations, and whether asserting it would be rejected.",
         _object(["fact_type", "bindings"], fact_type=_FACT_TYPE, bindings=_BINDINGS),
         _as_is("verify"), ("verify",)),
    Verb("snapshot", "persistence",
         "Capture the whole state under a label (reusing a label replaces it; none or \"\": "
         "snap-N, from snap-0).",
         _object([], label={"type": "string"}), _as_is("snapshot"), ("snapshot",)),
    Verb("rollback", "persistence",
         "Restore a snapshot by id; the snapshot stays available.",
         _object(["id"], id=_text("A snapshot id.")), _as_is("rollback"), ("rollback",)),
    Verb("snapshots", "persistence", "List the snapshots, with when each was taken.",
         _object([]), _as_is("snapshots"), ("snapshots",)),
    Verb("propose", "evolution",
         "Propose a change to the readings for review: creates a Domain Change in status "
         "Proposed and returns the next actions (review, approve, apply).",
         _object(["target_domain", "readings"],
                 rationale={"type": "string"}, target_domain=_text("The Domain it changes."),
                 readings=_TEXTS, constraints=_TEXTS, verbs=_TEXTS,
                 nouns={"type": "array", "items": {"type": "string"}}),
         _as_is("propose"), ("propose",)),
    Verb("ask", "llm",
         "Answer a question about the data: returns a prompt for an LLM that turns it into a "
         "projection; call again with llm_response to run it.",
         _object(["question"], question=_text("The question, in natural language."),
                 noun=_NOUN, llm_response=_LLM_RESPONSE),
         _as_is("ask"), ("ask",)),
    Verb("synthesize", "llm",
         "Describe an entity in prose from its asserted and derived facts: returns a prompt; "
         "call again with llm_response for the result and the facts it rests on.",
         _object(["noun", "id"], noun=_NOUN, id=_ID, llm_response=_LLM_RESPONSE),
         _as_is("synthesize"), ("synthesize",)),
    Verb("validate", "llm",
         "Check a text against a constraint: returns a prompt that extracts facts from the "
         "text; call again with llm_response to verify each fact.",
         _object(["text", "constraint"], text=_text("The text to check."),
                 constraint=_text("A constraint id (c-…) or its reading."),
                 llm_response=_LLM_RESPONSE),
         _as_is("validate"), ("validate",)),
    Verb("search", "chatgpt",
         "Search entities by words in their ids and field values; at most 50, best first.",
         _object(["query"], query=_text("Words to look for.")), _as_is("search"),
         ("search",)),
    Verb("fetch", "chatgpt",
         "Fetch one entity as a document, by a search result id 'Noun:id'.",
         _object(["id"], id=_text("'Noun:entityId', as search returns it.")),
         _as_is("fetch"), ("fetch",)),
)

CATALOGUE: Final[Mapping[str, Verb]] = {verb.name: verb for verb in _CATALOGUE}
"""Every verb by name, in the seed's order."""

READ_ONLY: Final = frozenset({
    "project", "get", "query", "read", "explain", "actions", "schema", "verify", "snapshots",
    "ask", "synthesize", "validate", "search", "fetch"})
"""The verbs that never change the state (D′ = D), whatever their arguments: a client may
run them without asking."""

DESTRUCTIVE: Final = frozenset({"retract", "delete", "rollback", "compile"})
"""The verbs whose change can remove facts or definitions a later call would miss."""


# Surfaces ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Surface:
    """The verbs one connection sees: its tags, then included, then excluded tools."""

    tags: tuple[str, ...]
    verbs: frozenset[str]

    def advertisement(self) -> dict[str, Any]:
        """What ``capabilities.experimental.arest`` says to this connection."""
        return {"tags_available": list(TAGS), "tags_active": list(self.tags),
                "tool_tags": {name: [verb.tag] for name, verb in CATALOGUE.items()}}

    def listed(self) -> list[Verb]:
        """The active verbs, in catalogue order."""
        return [verb for name, verb in CATALOGUE.items() if name in self.verbs]

    def why_inactive(self, name: str) -> str:
        """Why a tool of the catalogue is not active here, and how to reach it.

        >>> surface("entity", exclude="delete").why_inactive("delete")
        "Tool 'delete' is not active on this connection: its tag 'entity' is active but \
exclude_tools removed it"
        >>> surface("entity").why_inactive("snapshot")
        "Tool 'snapshot' is not active on this connection: its tag 'persistence' is not \
among the active tags (entity); add it to tags, or the tool to include_tools"
        """
        tag = CATALOGUE[name].tag
        reason = (f"its tag {tag!r} is active but exclude_tools removed it" if tag in self.tags
                  else f"its tag {tag!r} is not among the active tags ({', '.join(self.tags)});"
                       " add it to tags, or the tool to include_tools")
        return f"Tool {name!r} is not active on this connection: {reason}"

    def allows_key(self, key: str) -> bool:
        """Whether ``apply`` may run this SYSTEM key here: an active verb reaches its verb."""
        system_verb = key.partition(":")[0]
        return any(system_verb in verb.reaches for verb in self.listed())


def _names(values: Iterable[str] | str | None) -> list[str]:
    if values is None:
        return []
    if isinstance(values, str):
        values = values.split(",")
    return [value.strip() for value in values if value.strip()]


def surface(tags: Iterable[str] | str | None = None, include: Iterable[str] | str | None = None,
            exclude: Iterable[str] | str | None = None) -> Surface:
    """tags → +include → −exclude (DESIGN §6); no tags means the default ones.

    Each argument is a list or a comma-separated text.

    >>> sorted(surface("persistence", include="read", exclude="snapshots").verbs)
    ['read', 'rollback', 'snapshot']
    >>> surface("everything")
    Traceback (most recent call last):
    ...
    arest.verbs.SurfaceError: tags: unknown 'everything'; valid values are primitive, \
entity, introspection, persistence, evolution, llm, chatgpt
    """
    chosen = _names(tags) or list(DEFAULT_TAGS)
    included, excluded = _names(include), _names(exclude)
    for option, values, valid in (("tags", chosen, TAGS), ("include_tools", included, CATALOGUE),
                                  ("exclude_tools", excluded, CATALOGUE)):
        unknown = [value for value in values if value not in valid]
        if unknown:
            raise SurfaceError(option, unknown, valid)
    verbs = {name for name, verb in CATALOGUE.items() if verb.tag in chosen}
    ordered = tuple(tag for tag in TAGS if tag in chosen)
    return Surface(ordered, frozenset((verbs | set(included)) - set(excluded)))


# Commands ------------------------------------------------------------------------------

def command_for(name: str, arguments: Any, active: Surface) -> Command:
    """The SYSTEM command a call of an active verb makes; raises :class:`VerbError` when the
    arguments break the verb's schema, or when ``apply`` names a key outside ``active``."""
    verb = CATALOGUE[name]
    arguments = {} if arguments is None else arguments
    verb.check(arguments)
    if name != "apply":
        return verb.build(arguments)
    if "key" in arguments:
        if "operation" in arguments:
            raise VerbError("invalid_input", "apply takes a key or an operation, not both",
                            path="$.operation", expected="no operation beside key")
        command = Command(arguments["key"], from_notation(arguments.get("input")))
    else:
        operation = arguments["operation"]
        rest = {k: v for k, v in arguments.items() if k != "operation"}
        if operation not in active.verbs:
            raise _not_allowed(operation, active)
        target = CATALOGUE[operation]
        target.check(rest)
        command = target.build(rest)
    if not active.allows_key(command.key):
        raise _not_allowed(command.key, active)
    return command


def _not_allowed(what: str, active: Surface) -> VerbError:
    allowed = sorted({system for verb in active.listed() for system in verb.reaches})
    return VerbError("not_allowed", f"{what!r} is outside this connection's tools"
                     f" (tags {', '.join(active.tags)})", key=what, allowed=allowed)


def from_notation(value: Any) -> Any:
    """An input given as text in FFP notation, as JSON: a sequence of ⟨name, value⟩ pairs is
    an object, another sequence a list, an atom a string, φ nothing.  Text that starts with
    ``{`` or ``[`` is read as JSON; any other value is returned as it is.

    >>> from_notation("<<Order Id, ord-1>, <Customer, acme>>")
    {'Order Id': 'ord-1', 'Customer': 'acme'}
    >>> from_notation("<a, <b, c>, <>>"), from_notation('{"id": "x"}'), from_notation("ord-1")
    (['a', ['b', 'c'], []], {'id': 'x'}, 'ord-1')
    """
    if not isinstance(value, str):
        return value
    text = value.strip()
    if text.startswith(("{", "[")):
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            raise VerbError("invalid_input", f"input is not JSON: {error.msg}",
                            path="$.input", expected="JSON, or FFP notation") from None
    if not text.startswith("<"):
        return value
    try:
        obj = read(text)
    except NotationError as error:
        raise VerbError("invalid_input", f"input is not FFP notation: {error}",
                        path="$.input", expected="JSON, or FFP notation") from None
    return None if obj == () else _json_of(obj)


def _json_of(obj: Object) -> Any:
    if isinstance(obj, str):
        return obj
    if isinstance(obj, Bottom):
        raise VerbError("invalid_input", "input is ⊥", path="$.input",
                        expected="an object without ⊥")
    if obj and all(isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str) for p in obj):
        return {pair[0]: _json_of(pair[1]) for pair in obj if isinstance(pair, tuple)}
    return [_json_of(item) for item in obj]
