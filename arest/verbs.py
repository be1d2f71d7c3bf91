"""The MCP catalogue: every tool, derived from the command table, shared by every transport.

A :class:`Tool` is a name, a tag, a JSON Schema for its arguments, a description written for
agents, and the command its arguments make (DESIGN §4, §6).  Each command the table
(:mod:`arest.system.commands`) offers to MCP is one tool; ``apply``, the one tool that is not
a command, runs any key its caller's tools reach:

    command(tool, arguments) = ⟨verb, target, input⟩,   e.g.  create {noun, id, fields}
                                                       = ⟨create, noun, {id, **fields}⟩

A transport lists the verbs of the caller's :class:`Surface`, checks the arguments against
the verb's schema (validators compiled once), and calls the tenant with the command.  Nothing
here runs a command: arguments in, a command or an error envelope out.

>>> command_for("create", {"noun": "Order", "id": "ord-1", "fields": {"Customer": "acme"}},
...             surface())
Command(verb='create', target='Order', input={'Customer': 'acme', 'id': 'ord-1'})
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
from arest.errors import ArestError, envelope
from arest.system.commands import TABLE, VERBS, Command, Effect, Verb, parse_key
from arest.system.errors import Refusal

TAGS: Final = ("primitive", "entity", "introspection", "persistence", "evolution", "llm",
               "chatgpt")
"""Every tag, in the order the seed lists its tiers (the ChatGPT pair last)."""

DEFAULT_TAGS: Final = ("entity", "introspection")

Arguments = Mapping[str, Any]


class VerbError(ArestError, ValueError):
    """Raised by :func:`command_for` when arguments cannot make a command: ``envelope`` is the
    SYSTEM error output (DESIGN §5) to answer with, ``invalid_input`` with the path and what
    was expected, or ``not_allowed`` for a key outside the caller's active tags."""

    def __init__(self, code: str, message: str, **fields: Any) -> None:
        super().__init__(message)
        self.envelope: dict[str, Any] = envelope(code, message, **fields)

    @classmethod
    def of(cls, refusal: Refusal) -> VerbError:
        """The same error, raised by the catalogue."""
        error = dict(refusal.envelope["error"])
        return cls(error.pop("code"), error.pop("message"), **error)


class SurfaceError(ArestError, ValueError):
    """Raised by :func:`surface` for an unknown tag or tool name; ``option`` names the option
    (``tags``, ``include_tools``, ``exclude_tools``), ``unknown`` the bad values and ``valid``
    every value that would have been accepted."""

    def __init__(self, option: str, unknown: list[str], valid: Iterable[str]) -> None:
        self.option, self.unknown, self.valid = option, unknown, list(valid)
        super().__init__(f"{option}: unknown {', '.join(map(repr, unknown))};"
                         f" valid values are {', '.join(self.valid)}")


@dataclass(frozen=True)
class Tool:
    """One MCP tool: ``build`` maps checked arguments to a command; ``reaches`` names the
    verbs (the part of a key before ``:``) its calls can run, which decides what ``apply``
    may run when this tool is active; ``read_only`` when none of them changes D."""

    name: str
    tag: str
    description: str
    schema: Mapping[str, Any]
    build: Callable[[Arguments], Command]
    reaches: tuple[str, ...]
    read_only: bool
    destructive: bool

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


# The catalogue ---------------------------------------------------------------------------

def _tool(verb: Verb) -> Tool:
    offer = verb.offer
    assert offer is not None
    reaches = (verb.name, *offer.also)
    return Tool(verb.name, offer.tag, verb.description, verb.arguments, verb.command, reaches,
                all(VERBS[name].effect is Effect.READS for name in reaches), offer.destructive)


_APPLY = Tool(
    "apply", "entity",
    "Run any SYSTEM key, for advanced use: {key, input} with input as JSON or in FFP "
    "notation ('<<Order Id, ord-1>, <Customer, acme>>'), or {operation, noun, id, "
    "fields, event}. Keys outside this connection's tools are not allowed.",
    {"type": "object", "additionalProperties": False, "required": [],
     "properties": {
         "key": {"type": "string", "minLength": 1, "description":
                 "A SYSTEM key: 'create:Order', 'query:<fact type id>', 'schema', …"},
         "input": {"description": "The key's input: JSON, or FFP notation text."},
         "operation": {"type": "string", "enum": [
             "create", "get", "read", "update", "transition", "delete", "actions"]},
         "noun": VERBS["create"].arguments["properties"]["noun"],
         "id": VERBS["create"].arguments["properties"]["id"],
         "fields": VERBS["create"].arguments["properties"]["fields"],
         "event": VERBS["transition"].arguments["properties"]["event"]},
     "anyOf": [{"required": ["key"]}, {"required": ["operation", "noun"]}]},
    lambda arguments: Command("apply", "", arguments), (), False, False)
_APPLY_FOLLOWS = "query"
"""The seed lists apply among the entity tools, after query."""


def _catalogue() -> dict[str, Tool]:
    tools: dict[str, Tool] = {}
    for verb in TABLE:
        if verb.offer is not None:
            tools[verb.name] = _tool(verb)
        if verb.name == _APPLY_FOLLOWS:
            tools[_APPLY.name] = _APPLY
    return tools


CATALOGUE: Final[Mapping[str, Tool]] = _catalogue()
"""Every tool by name, in the seed's order."""

READ_ONLY: Final = frozenset(name for name, tool in CATALOGUE.items() if tool.read_only)
"""The tools that never change the state (D′ = D), whatever their arguments: a client may
run them without asking."""

DESTRUCTIVE: Final = frozenset(name for name, tool in CATALOGUE.items() if tool.destructive)
"""The tools whose change can remove facts or definitions a later call would miss."""


# Surfaces ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Surface:
    """The verbs one connection sees: its tags, then included, then excluded tools."""

    tags: tuple[str, ...]
    verbs: frozenset[str]

    def advertisement(self) -> dict[str, Any]:
        """What ``capabilities.experimental.arest`` says to this connection."""
        return {"tags_available": list(TAGS), "tags_active": list(self.tags),
                "tool_tags": {name: [tool.tag] for name, tool in CATALOGUE.items()}}

    def listed(self) -> list[Tool]:
        """The active verbs, in catalogue order."""
        return [tool for name, tool in CATALOGUE.items() if name in self.verbs]

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

    def allows(self, command: Command) -> bool:
        """Whether ``apply`` may run this command here: an active tool reaches its verb."""
        return any(command.verb in tool.reaches for tool in self.listed())


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
    verbs = {name for name, tool in CATALOGUE.items() if tool.tag in chosen}
    ordered = tuple(tag for tag in TAGS if tag in chosen)
    return Surface(ordered, frozenset((verbs | set(included)) - set(excluded)))


# Commands ------------------------------------------------------------------------------

def command_for(name: str, arguments: Any, active: Surface) -> Command:
    """The command a call of an active tool makes; raises :class:`VerbError` when the
    arguments break the tool's schema, or when ``apply`` names a key outside ``active``."""
    tool = CATALOGUE[name]
    arguments = {} if arguments is None else arguments
    tool.check(arguments)
    try:
        if name != "apply":
            return tool.build(arguments)
        if "key" in arguments:
            if "operation" in arguments:
                raise VerbError("invalid_input", "apply takes a key or an operation, not both",
                                path="$.operation", expected="no operation beside key")
            command = parse_key(arguments["key"], from_notation(arguments.get("input")))
        else:
            operation = arguments["operation"]
            rest = {k: v for k, v in arguments.items() if k != "operation"}
            if operation not in active.verbs:
                raise _not_allowed(operation, active)
            target = CATALOGUE[operation]
            target.check(rest)
            command = target.build(rest)
    except Refusal as refusal:
        raise VerbError.of(refusal) from None
    if not active.allows(command):
        raise _not_allowed(command.key, active)
    return command


def _not_allowed(what: str, active: Surface) -> VerbError:
    allowed = sorted({verb for tool in active.listed() for verb in tool.reaches})
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
