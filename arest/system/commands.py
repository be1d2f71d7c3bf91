"""The command table: every SYSTEM command, declared once.

    apply(D, ⟨verb, target, input⟩, context) = VERBS[verb].handler(D, command, context)

A :class:`Verb` says everything there is to know about one kind of command: its name, whether
its key names a noun (``create:Order``) or a fact type (``query:<id>``), its effect on D (it
reads; it changes the cells it touches; it replaces the whole D), the permission a caller
needs, the JSON Schema of its input, its REST routes, how MCP offers it (:class:`Offer`: tag,
arguments, and the command a call makes), the tenant limits it can go beyond
(:class:`Limits`) and its handler, all with one signature.  The rest
is derived from :data:`VERBS`: dispatch (:mod:`arest.system.apply`), the runtime's
concurrency policy (``effect``), the MCP catalogue (:mod:`arest.verbs`).  Adding a command is
one entry here and its handler.

Inside the process a command is a :class:`Command` value; the key string ``verb:Target``
lives at the edges (the Python ``apply``, the journal, ``arest apply``).

>>> Command("create", "Order", {"id": "o1"}).key
'create:Order'
>>> parse_key("query:Order_was_placed_by_Customer", None).target
'Order_was_placed_by_Customer'
>>> VERBS["snapshot"].effect, VERBS["snapshot"].permission
(<Effect.WHOLE: 'replaces the whole D'>, 'history')
"""

# No `from __future__ import annotations` here: typing compiles a NamedTuple's annotations
# given as text, and the first compile() of a process sets up the AST's types (about 1.5 ms
# of a reopen; tests/runtime/test_compiled.py checks a reopen compiles nothing).
import enum
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any, Final, Literal, NamedTuple

from arest.algebra import State
from arest.records import record
from arest.system import evolution
from arest.system.compiled_create import compiled_create
from arest.system.context import Context
from arest.system.entities import list_entities
from arest.system.errors import Refusal, closest
from arest.system.inputs import checked_input, checked_text

Output = dict[str, Any]
Arguments = Mapping[str, Any]
Permission = Literal["read", "write", "schema", "history", "outbound"]
Target = Literal["noun", "fact type"] | None


class Command(NamedTuple):
    """One command: a verb, what it names (a noun, a fact type id, or nothing), its input.
    (A named tuple: one is made per request, and a tuple is the cheapest immutable value.)"""

    verb: str
    target: str = ""
    input: Any = None

    @property
    def key(self) -> str:
        """The key string of the edges: ``verb:Target``, or the verb alone."""
        return f"{self.verb}:{self.target}" if self.target else self.verb


_tuple_new: Final = tuple.__new__

Handler = Callable[[State, Command, Context], tuple[Output, State]]
Compiled = Callable[[State, Command, Context], "tuple[Output, State] | None"]
"""A faster handler for the commands it covers: what the handler and the governance check
of :func:`arest.system.apply.run` answer, or None to leave the command to them."""


class Effect(enum.Enum):
    """What a command does to D, which decides how the runtime runs it."""

    READS = "reads D"
    """D′ = D whatever the input: run on D itself, no footprint to check."""
    CELLS = "changes the cells it touches"
    """Run on a recording view of D: the cells read and written are its footprint."""
    WHOLE = "replaces the whole D"
    """Captures, replaces or revalidates all of D: its footprint is every cell."""


@record
class Route:
    """A REST route of a command (DESIGN §9): the method, the path template, the status
    of a success (201 where the command makes a resource), and the media type it answers:
    JSON, or a picture of what the command reads (``image/svg+xml``, docs/pictures.md)."""

    method: str
    path: str
    success: int = 200
    media: str = "application/json"


@record
class Offer:
    """How MCP offers a command: the tool's tag, its arguments' JSON Schema (the command's
    input schema when None), the command a call makes (the arguments as the input when
    None), whether its change can remove what a later call would miss, and the other
    verbs its calls can run (``get`` also lists)."""

    tag: str
    arguments: Mapping[str, Any] | None = None
    command: Callable[[Arguments], Command] | None = None
    destructive: bool = False
    also: tuple[str, ...] = ()


@record
class Limits:
    """What a tenant keeps at most.  The runtime checks a command against them before it
    runs, never SYSTEM: they bound one tenant's disk, and a replay must accept every
    journaled command whatever limits the tenant is opened with now."""

    snapshots: int = 100


Beyond = Callable[[State, Any, Limits], Refusal | None]
"""A command's limit check: its refusal when running it on D with that input would go
beyond the limits, else None."""


@record
class Verb:
    """One entry of the command table (see the module)."""

    name: str
    target: Target
    effect: Effect
    permission: Permission
    description: str
    input: Mapping[str, Any]
    handler: Handler
    offer: Offer | None
    routes: tuple[Route, ...] = ()
    beyond: Beyond | None = None
    compiled: Compiled | None = None

    def command(self, arguments: Arguments) -> Command:
        """The command one MCP call of this verb makes from its (checked) arguments."""
        if self.offer is not None and self.offer.command is not None:
            return self.offer.command(arguments)
        return Command(self.name, "", dict(arguments))

    @property
    def arguments(self) -> Mapping[str, Any]:
        """The JSON Schema of the MCP tool's arguments."""
        return self.input if self.offer is None or self.offer.arguments is None \
            else self.offer.arguments


# Input schemas ---------------------------------------------------------------------------

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
_FACT = _object(["fact_type", "bindings"], fact_type=_FACT_TYPE, bindings=_BINDINGS)
_TEXTS = {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
          "description": "FORML 2 text, or a list of texts."}
_LLM_RESPONSE = _text("The LLM's answer to the prompt a previous call returned.")
_PAGING: dict[str, Mapping[str, Any]] = {
    "filter": _FILTER,
    "limit": {"type": "integer", "minimum": 0},
    "offset": {"type": "integer", "minimum": 0},
    "after": {"type": "string", "description": "Only the entities whose id sorts after this."},
    "include_terminal": {"type": "boolean",
                         "description": "List entities in a terminal status too."},
}
_LINK = _text("A link key of the entity's _links: a children or peers collection "
              "('line-items') or a related fact type id.")
_ENTITY = {"type": "object", "properties": {"id": _ID}, "additionalProperties": True,
           "description": "The entity's id and fields (field name → value)."}
_BY_ID = {"anyOf": [_object(["id"], id=_ID), _ID]}


# MCP arguments → command ----------------------------------------------------------------

def _fields(arguments: Arguments) -> dict[str, Any]:
    """``{id?, **fields}``: the input of create and update from ``{id?, fields}``."""
    fields = dict(arguments.get("fields") or {})
    if "id" in arguments:
        if "id" in fields and fields["id"] != arguments["id"]:
            raise Refusal("invalid_input", "id and fields.id disagree", path="$.fields.id",
                          expected=f"no id, or {arguments['id']!r}")
        fields["id"] = arguments["id"]
    return fields


def _getting(arguments: Arguments) -> Command:
    """``get``: read with an id, navigate with an id and a link, list without an id."""
    noun = arguments["noun"]
    if "link" in arguments:
        return Command("navigate", noun, {k: v for k, v in arguments.items()
                                          if k in ("id", "link", "limit", "after")})
    if "id" in arguments:
        return Command("get", noun, {"id": arguments["id"]})
    rest = {k: v for k, v in arguments.items() if k != "noun"}
    return Command("get", noun, rest or None)


def _of_noun(verb: str, *names: str) -> Callable[[Arguments], Command]:
    """``verb:<noun>`` with the named arguments as input."""
    return lambda a: Command(verb, a["noun"], {n: a[n] for n in names if n in a})


# Handlers: one signature, D × command × context → ⟨o, D′⟩ --------------------------------
# The handlers import their verbs' modules on first use: those of verbs that read readings
# or the Rmap (schema, compile, ask, search, …), so that a start that only creates and
# reads loads neither the reader nor lark; and the entity, fact, transition and snapshot
# verbs, so that a restart whose commands are compiled creates loads none of them (an
# import already done costs a dictionary lookup).

def _schema(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.describe import describe

    return describe(state, command.input), state


def _list(state: State, command: Command, context: Context) -> tuple[Output, State]:
    return list_entities(state, command.target, command.input), state


def _read(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.entity_verbs import read

    return read(state, command.target, command.input), state


def _get(state: State, command: Command, context: Context) -> tuple[Output, State]:
    """read with an id, list without one."""
    request = command.input
    if request is None or request == {} or (isinstance(request, dict) and "id" not in request):
        return list_entities(state, command.target, request), state
    from arest.system.entity_verbs import read

    return read(state, command.target, request), state


def _create(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.entity_verbs import create

    return create(state, command.target, command.input)


def _update(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.entity_verbs import update

    return update(state, command.target, command.input)


def _transition(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.transitions import transition

    return transition(state, command.target, command.input, context)


def _delete(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.transitions import delete

    return delete(state, command.target, command.input, context)


def _navigate(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.navigation import navigate

    return navigate(state, command.target, command.input), state


def _query(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.fact_verbs import query

    return query(state, command.target, command.input), state


def _project(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.fact_verbs import project

    return project(state, command.input), state


def _assert(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.fact_verbs import assert_fact

    return assert_fact(state, command.input)


def _retract(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.fact_verbs import retract_fact

    return retract_fact(state, command.input)


def _verify(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.fact_verbs import verify

    return verify(state, command.input), state


def _explain(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.explain import explain

    return explain(state, command.input), state


def _actions(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.transitions import actions

    return actions(state, command.input), state


def _compile(state: State, command: Command, context: Context) -> tuple[Output, State]:
    """Readings about a protected domain are compiled only by a Human (DESIGN §12)."""
    text = command.input.get("readings") if isinstance(command.input, dict) else None
    violation = evolution.protected_violation(state, text, context)
    if violation is not None:
        return {"rejected": True, "violations": [violation], "derived": [], "effects": [],
                "next_actions": []}, state
    from arest.system.self_modification import compile_readings

    return compile_readings(state, command.input)


def _propose(state: State, command: Command, context: Context) -> tuple[Output, State]:
    return evolution.propose(state, command.input, context)


def _snapshot(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.snapshots import snapshot

    return snapshot(state, command.input, context)


def _rollback(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.snapshots import rollback

    return rollback(state, command.input)


def _snapshots(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.snapshots import snapshots

    return snapshots(state, command.input), state


def _beyond_snapshots(state: State, request: Any, limits: Limits) -> Refusal | None:
    from arest.system.snapshots import beyond_limit

    return beyond_limit(state, request, limits.snapshots)


def _search(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.search import search

    return search(state, command.input), state


def _fetch(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.search import fetch

    return fetch(state, command.input), state


def _ask(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.bridge import ask

    return ask(state, command.input), state


def _synthesize(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.bridge import synthesize

    return synthesize(state, command.input), state


def _validate(state: State, command: Command, context: Context) -> tuple[Output, State]:
    from arest.system.bridge import validate_text

    return validate_text(state, command.input), state


# The table, in the order of the seed's tiers ----------------------------------------------

NOUN: Final = "noun"
FACT_TYPE: Final = "fact type"
READS, CELLS, WHOLE = Effect.READS, Effect.CELLS, Effect.WHOLE
_ITEM = "/{plural}/{id}"
_SVG = "image/svg+xml"
"""The media type of a picture route (:mod:`arest.pictures` draws it)."""

TABLE: Final[tuple[Verb, ...]] = (
    Verb("assert", None, CELLS, "write",
         "Assert one fact, or several as one command ({facts: [...]}), into the population. "
         "The command runs the whole pipeline: derivation, constraint validation, "
         "state-machine triggers, on all its facts together. An alethic violation rejects "
         "it and nothing changes.",
         _WRITE, _assert, Offer("primitive"), (Route("POST", "/facts/{fact_type}", 201),)),
    Verb("retract", None, CELLS, "write",
         "Retract one fact, or several as one command ({facts: [...]}), from the population "
         "(fact-level removal; use delete to end an entity's life). Rejected, and nothing "
         "changes, when a constraint would break.",
         _WRITE, _retract, Offer("primitive", destructive=True),
         (Route("DELETE", "/facts/{fact_type}"),)),
    Verb("project", None, READS, "read",
         "Codd's projection: the distinct rows of a fact type (or a noun's entities) "
         "restricted by a filter, keeping the named roles.",
         {**_object([], fact_type=_FACT_TYPE, noun=_NOUN, filter=_FILTER,
                    roles={"type": "array", "items": {"type": "string"}}),
          "oneOf": [{"required": ["fact_type"]}, {"required": ["noun"]}]},
         _project, Offer("primitive")),
    Verb("compile", None, WHOLE, "schema",
         "Compile new FORML 2 readings into the running schema, at once and without review "
         "(use propose for reviewed changes). Rejected when the population would violate "
         "a new constraint.",
         _object(["readings"], readings=_text("FORML 2 sentences, one per line.")),
         _compile, Offer("primitive", destructive=True), (Route("POST", "/readings"),)),
    Verb("get", NOUN, READS, "read",
         "Get an entity by id, with its fields, status and HATEOAS links; with an id and a "
         "link (a key of its _links: 'line-items', a fact type id), what that link names; "
         "with a noun and no id, list the noun's entities (filter, limit, offset, after; "
         "terminal ones only when include_terminal is set).",
         {"anyOf": [_object([], id=_ID, **_PAGING), _ID, {"type": "null"}]}, _get,
         Offer("entity", {**_object(["noun"], noun=_NOUN, id=_ID, link=_LINK, **_PAGING),
                          "dependentRequired": {"link": ["id"]}},
               _getting, also=("list", "navigate"))),
    Verb("list", NOUN, READS, "read",
         "List a noun's entities, ordered by id: filter, limit, offset; terminal ones only "
         "when include_terminal is set.",
         {"anyOf": [_object([], **_PAGING), {"type": "null"}]}, _list, None,
         (Route("GET", "/{plural}"),)),
    Verb("navigate", NOUN, READS, "read",
         "Follow a navigation link of an entity: its children or peers (a collection ordered "
         "by id: limit, after), or the facts of a related link's fact type about it.",
         _object(["id", "link"], id=_ID, link=_LINK,
                 limit={"type": "integer", "minimum": 0}, after=_PAGING["after"]),
         _navigate, None, (Route("GET", _ITEM + "/{link}"),)),
    Verb("query", FACT_TYPE, READS, "read",
         "Query the facts of one fact type, optionally filtered by role values; rows say "
         "whether each fact was derived.",
         {"anyOf": [_FILTER, {"type": "null"}]}, _query,
         Offer("entity", _object(["fact_type"], fact_type=_FACT_TYPE, filter=_FILTER),
               lambda a: Command("query", a["fact_type"], a.get("filter"))),
         (Route("GET", "/facts/{fact_type}"),)),
    Verb("create", NOUN, CELLS, "write",
         "Create an entity with its field facts, and any child entities nested in fields, in "
         "one command. Returns the entity with its links, or the violations that rejected it.",
         _ENTITY, _create,
         Offer("entity", _object(["noun"], noun=_NOUN, id=_ID, fields=_FIELDS),
               lambda a: Command("create", a["noun"], _fields(a))),
         (Route("POST", "/{plural}", 201),), compiled=compiled_create),
    Verb("read", NOUN, READS, "read",
         "Read one entity by id: every field, its status and HATEOAS links.",
         _BY_ID, _read,
         Offer("entity", _object(["noun", "id"], noun=_NOUN, id=_ID), _of_noun("read", "id")),
         (Route("GET", _ITEM), Route("GET", _ITEM + "/machine.svg", media=_SVG))),
    Verb("update", NOUN, CELLS, "write",
         "Update an entity's fields: a single-valued field is replaced, a list field gains "
         "the values, null retracts a field.",
         {**_ENTITY, "required": ["id"]}, _update,
         Offer("entity", _object(["noun", "id", "fields"], noun=_NOUN, id=_ID, fields=_FIELDS),
               lambda a: Command("update", a["noun"], _fields(a))),
         (Route("PATCH", _ITEM),)),
    Verb("transition", NOUN, CELLS, "write",
         "Fire an event of the entity's state machine; rejected, naming the legal events, "
         "when the event is not legal from the current status.",
         _object(["id", "event"], id=_ID, event=_text("The event, e.g. 'place'.")),
         _transition,
         Offer("entity", _object(["noun", "id", "event"], noun=_NOUN, id=_ID,
                                 event=_text("The event, e.g. 'place'.")),
               _of_noun("transition", "id", "event")),
         (Route("POST", _ITEM + "/transition"),)),
    Verb("delete", NOUN, CELLS, "write",
         "Delete an entity: fires its machine's 'delete' event (to a terminal status), or, "
         "for a noun without a machine, retracts its facts.",
         _BY_ID, _delete,
         Offer("entity", _object(["noun", "id"], noun=_NOUN, id=_ID), _of_noun("delete", "id"),
               destructive=True),
         (Route("DELETE", _ITEM),)),
    Verb("explain", None, READS, "read",
         "Explain a fact: the rule that derived it and its antecedents, down to asserted "
         "facts.",
         _FACT, _explain, Offer("introspection"),
         (Route("GET", "/facts/{fact_type}/explain"),
          Route("GET", "/facts/{fact_type}/explain.svg", media=_SVG))),
    Verb("actions", None, READS, "read",
         "The events legal from an entity's current status, with their target statuses.",
         _object(["noun", "id"], noun=_NOUN, id=_ID), _actions, Offer("introspection")),
    Verb("schema", None, READS, "read",
         "The schema of this domain: nouns, fact types (ids, readings, roles), constraints, "
         "rules and state machines; for one noun or fact type when named; with the "
         "metamodel's own (Noun, Fact Type, Constraint, …) when all is true; with each "
         "fact type's SQL table and columns (arest sql) when sql is true.",
         _object([], noun=_NOUN, fact_type=_FACT_TYPE,
                 all={"type": "boolean",
                      "description": "Include the metamodel's nouns and fact types."},
                 sql={"type": "boolean",
                      "description": "Give each fact type's table and columns in the "
                                     "relational schema (arest sql)."}),
         _schema, Offer("introspection"),
         (Route("GET", "/schema"), Route("GET", "/schema/{noun}"),
          Route("GET", "/schema.svg", media=_SVG))),
    Verb("verify", None, READS, "read",
         "Check a fact against the constraints without asserting it (a dry run): the "
         "violations, and whether asserting it would be rejected.",
         _FACT, _verify, Offer("introspection"),
         (Route("POST", "/facts/{fact_type}/verify"),)),
    Verb("snapshot", None, WHOLE, "history",
         "Capture the whole state under a label (reusing a label replaces it; none or \"\": "
         "snap-N, from snap-0).",
         _object([], label={"type": ["string", "null"]}), _snapshot, Offer("persistence"),
         (Route("POST", "/snapshots", 201),),
         _beyond_snapshots),
    Verb("rollback", None, WHOLE, "history",
         "Restore a snapshot by id; the snapshot stays available.",
         _object(["id"], id=_text("A snapshot id.")), _rollback,
         Offer("persistence", destructive=True), (Route("POST", "/snapshots/{id}/rollback"),)),
    Verb("snapshots", None, READS, "read", "List the snapshots, with when each was taken.",
         _object([]), _snapshots, Offer("persistence"), (Route("GET", "/snapshots"),)),
    Verb("propose", None, CELLS, "write",
         "Propose a change to the readings for review: creates a Domain Change in status "
         "Proposed and returns the next actions (review, approve, apply).",
         _object(["target_domain", "readings"],
                 rationale={"type": "string"}, target_domain=_text("The Domain it changes."),
                 readings=_TEXTS, constraints=_TEXTS, verbs=_TEXTS,
                 nouns={"type": "array", "items": {"type": "string"}}),
         _propose, Offer("evolution"), (Route("POST", "/domain-changes", 201),)),
    Verb("ask", None, READS, "read",
         "Answer a question about the data: returns a prompt for an LLM that turns it into a "
         "projection; call again with llm_response to run it.",
         _object(["question"], question=_text("The question, in natural language."),
                 noun=_NOUN, llm_response=_LLM_RESPONSE),
         _ask, Offer("llm")),
    Verb("synthesize", None, READS, "read",
         "Describe an entity in prose from its asserted and derived facts: returns a prompt; "
         "call again with llm_response for the result and the facts it rests on.",
         _object(["noun", "id"], noun=_NOUN, id=_ID, llm_response=_LLM_RESPONSE),
         _synthesize, Offer("llm")),
    Verb("validate", None, READS, "read",
         "Check a text against a constraint: returns a prompt that extracts facts from the "
         "text; call again with llm_response to verify each fact.",
         _object(["text", "constraint"], text=_text("The text to check."),
                 constraint=_text("A constraint id (c-…) or its reading."),
                 llm_response=_LLM_RESPONSE),
         _validate, Offer("llm")),
    Verb("search", None, READS, "read",
         "Search entities by words in their ids and field values; at most 50, best first.",
         _object(["query"], query=_text("Words to look for.")), _search, Offer("chatgpt"),
         (Route("GET", "/search"),)),
    Verb("fetch", None, READS, "read",
         "Fetch one entity as a document, by a search result id 'Noun:id'.",
         _object(["id"], id=_text("'Noun:entityId', as search returns it.")), _fetch,
         Offer("chatgpt"), (Route("GET", "/fetch/{id}"),)),
)

VERBS: Final[Mapping[str, Verb]] = {verb.name: verb for verb in TABLE}
"""Every command by verb, in table order."""


def usage() -> list[str]:
    """The shape of every key, for errors: ``create:<Noun>``, ``query:<fact type>``, ``schema``.

    >>> usage()[:5]
    ['assert', 'retract', 'project', 'compile', 'get:<Noun>']
    """
    return [f"{verb.name}:<{'fact type' if verb.target == FACT_TYPE else 'Noun'}>"
            if verb.target else verb.name for verb in TABLE]


def _shown(key: Any) -> str:
    """A key that is not a string as an error shows it: its repr when that is short, else
    its type's name (a huge number or a deep list has no repr worth showing).

    >>> _shown(3), _shown(10**2000), _shown([[]] * 100)
    ('3', 'int', 'list')
    """
    try:
        checked_input(key, "$key")
    except Refusal:
        return type(key).__name__
    text = repr(key)
    return text if len(text) <= 80 else type(key).__name__


def parse_key(key: Any, request: Any) -> Command:
    """The command a key and its input make; ``unknown_key`` naming the closest keys when
    the key names no verb, or names a target the verb does not take (or lacks one).

    >>> parse_key("create", None)
    Traceback (most recent call last):
    ...
    arest.system.errors.Refusal: no key 'create'
    """
    if not isinstance(key, str):
        raise Refusal("unknown_key", "a key is a string such as 'list:Noun'",
                      key=_shown(key), candidates=usage())
    verb, target = known_key(key) if len(key) <= MOST_KEPT_KEY else _verb_and_target(key)
    # Made as the tuple it is: a named tuple's own constructor is a Python call more, on
    # every command.
    return _tuple_new(Command, (verb, target, checked_input(request, "$")))


def _verb_and_target(key: str) -> tuple[str, str]:
    """The verb and the target a key names (the target empty for a verb that takes none);
    ``unknown_key`` where it names no verb, or a target the verb does not take (or lacks
    one)."""
    checked_text(key, "$key")
    verb, colon, target = key.partition(":")
    entry = VERBS.get(verb)
    if entry is None or (entry.target is not None) != bool(colon) or (colon and not target):
        raise Refusal("unknown_key", f"no key {key!r}", key=key,
                      candidates=closest(key, usage()) or usage())
    return verb, target


MOST_KEPT_KEY: Final = 256
"""The longest key whose verb and target are kept once read: a command's key is one of a
few, each read again on every command; a longer one is read each time, so the keys kept
hold little memory whatever keys callers send."""

known_key = lru_cache(maxsize=1024)(_verb_and_target)
""":func:`_verb_and_target` of the keys of the last commands (a refused key is not kept)."""
