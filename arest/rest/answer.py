"""One REST request answered over a tenant (DESIGN §9): a :class:`Request` in, a
:class:`Response` out, with no web framework in between.

    answer(tenant, request) = respond(tenant.run(command(request), source), endpoint)

The path is matched by :func:`arest.rest.routes.match`, each segment decoded once (so
``/customers/ann%40example.com`` names ``ann@example.com``, and ``%2F`` an id holding ``/``);
the command is made from the path, the query and the JSON body; the caller's key must hold
the command's permission (DESIGN §12); a success keeps its status (201 with ``Location``
for what it made), an error is an RFC 9457 problem document whose status the error's code
decides (:data:`~arest.rest.routes.STATUS_OF_CODE`), and a rejection is 422 with its
violations.  Reading an entity gives an ``ETag``; ``If-None-Match`` a 304, and ``If-Match``
on a change a 412 when the entity changed, checked in the same critical section as the
change.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import quote, unquote_to_bytes, urlencode

from arest.algebra import State
from arest.algebra.memo import IdentityMemo
from arest.algebra.relations import Relation
from arest.compiler.cells import NOUN_OBJECT_TYPES, NOUN_PLURALS
from arest.compiler.links import plural as plural_of
from arest.errors import ArestError, envelope
from arest.forml2 import metamodel
from arest.pictures import SVG
from arest.rest.openapi import document
from arest.rest.pictures import drawn
from arest.rest.routes import (
    COLLECTION,
    DEFAULT_LIMIT,
    ENTRY,
    ITEM_PRECONDITIONS,
    MAX_LIMIT,
    OPENAPI,
    STATUS_OF_CODE,
    Endpoint,
    has_body,
    match,
)
from arest.runtime import Tenant
from arest.runtime.budget import Budget
from arest.system.commands import Command
from arest.system.entities import fields
from arest.system.entity_verbs import read
from arest.system.errors import Refusal, closest
from arest.system.inputs import checked_input
from arest.system.links import declared_plurals
from arest.system.permissions import Principal, forbidden

JSON: Final = "application/json"
PROBLEM: Final = "application/problem+json"
MAX_BODY_BYTES: Final = 1 << 20
"""The largest body a request may carry (1 MiB): more is 413, unread."""

Headers = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Request:
    """What a REST request says: method, the path as sent (percent-encoded; a byte that is
    not ASCII as the latin-1 character of that byte), the query's
    decoded pairs, the body and its media type, the conditional headers, and who sends it
    (from its key)."""

    method: str
    path: str
    principal: Principal
    query: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    content_type: str | None = None
    if_match: str | None = None
    if_none_match: str | None = None
    budget: Budget | None = None
    """The budget of the command it makes (``--command-seconds``; cancelled when its client
    goes); None: no time limit."""


@dataclass(frozen=True)
class Response:
    """What is answered: the status, a JSON body (None: no body) and headers; or, where
    ``media`` names a picture's media type, the body is that picture's text."""

    status: int
    body: Any = None
    headers: Headers = field(default=())
    media: str = ""

    @property
    def media_type(self) -> str:
        """The picture's media type; else ``application/problem+json`` for an error and
        ``application/json`` for the rest."""
        return self.media or (PROBLEM if self.status >= 400 else JSON)


class Problem(ArestError):
    """Raised while reading a request that cannot be run (a path, query or body arest
    cannot take): its problem document's code, the message, and the error's own fields."""

    def __init__(self, code: str, message: str, headers: Headers = (), **details: Any) -> None:
        super().__init__(message)
        self.code, self.message, self.headers, self.details = code, message, headers, details


def problem(code: str, message: str, headers: Headers = (), **details: Any) -> Response:
    """The RFC 9457 problem document of an error: ``type``, ``title``, ``status``, ``detail``,
    and arest's ``code`` with the error's own fields.

    >>> problem("unknown_entity", "no Order 'o-9'", noun="Order", id="o-9").body["status"]
    404
    """
    status = 504 if code == "external_unavailable" and details.get("status") == "timeout" \
        else STATUS_OF_CODE.get(code, 400)
    body = {"type": f"urn:arest:error:{code}", "title": code.replace("_", " ").capitalize(),
            "status": status, "detail": message, "code": code, **details}
    return Response(status, body, headers)


# The nouns a path can name ------------------------------------------------------------------

def _entity_plurals(kinds: object, declared: object) -> dict[str, str]:
    """Plural → noun, for every entity type D has."""
    if not isinstance(kinds, Relation):
        return {}
    plurals = declared_plurals(declared)  # the ones hrefs use, so every href routes
    return {plural_of(noun, plurals.get(noun)): noun
            for noun, kind in sorted(kinds) if kind == "entity"}


_plurals = IdentityMemo(_entity_plurals, limit=64)


def nouns_by_plural(state: State) -> Mapping[str, str]:
    """Each entity type's plural, the segment of its collection, to its name."""
    return _plurals(state.get(NOUN_OBJECT_TYPES), state.get(NOUN_PLURALS))


def _noun(state: State, plural: str) -> str:
    nouns = nouns_by_plural(state)
    if plural not in nouns:
        raise Problem("unknown_noun", f"no collection /{plural}", plural=plural,
                      candidates=closest(plural, nouns))
    return nouns[plural]


def entry_point(state: State, everything: bool, version: tuple[int, str]) -> dict[str, Any]:
    """``GET /``: the ``sequence`` and ``digest`` of the tenant's D (its
    :attr:`~arest.runtime.Tenant.version`: servers of one tenant showing one sequence hold
    one D when their digests agree), a link to each entity type's collection (the tenant's
    own, or with the metamodel's too), and to the schema, its tables' picture, the OpenAPI
    document, the snapshots, search and MCP."""
    bundled = metamodel().schema.metamodel
    links: dict[str, Any] = {"self": {"href": "/?all=true" if everything else "/"}}
    for plural, noun in sorted(nouns_by_plural(state).items()):
        if everything or noun not in bundled:
            links[plural] = {"href": f"/{quote(plural, safe='')}", "noun": noun}
    links.update({
        "schema": {"href": "/schema"},
        "schema.svg": {"href": "/schema.svg", "type": SVG},
        "openapi": {"href": OPENAPI},
        "snapshots": {"href": "/snapshots"},
        "search": {"href": "/search{?q}", "templated": True},
        "mcp": {"href": "/mcp", "protocol": "mcp"},
    })
    sequence, digest = version
    return {"sequence": sequence, "digest": digest, "_links": links}


# Reading the request ---------------------------------------------------------------------

def segments(path: str) -> tuple[str, ...]:
    """The path's segments, each percent-decoded once (UTF-8); ``unknown_path`` for an
    empty segment or bytes that are not UTF-8.

    >>> segments("/customers/ann%40example.com"), segments("/books/a%2Fb/")
    (('customers', 'ann@example.com'), ('books', 'a/b'))
    """
    parts = path[1:].split("/") if path.startswith("/") else [path]
    if parts and parts[-1] == "" and len(parts) > 1:
        parts.pop()  # a trailing slash names the same resource
    if parts == [""]:
        return ()
    try:
        decoded = tuple(unquote_to_bytes(part.encode("latin-1")).decode("utf-8")
                        for part in parts)
    except (UnicodeDecodeError, UnicodeEncodeError):
        raise Problem("unknown_path", f"{path!r} holds bytes that are not UTF-8") from None
    if "" in decoded:
        raise Problem("unknown_path", f"{path} has an empty segment")
    return decoded


def _body(request: Request, endpoint: Endpoint) -> Any:
    """The request's JSON body (None when it has none)."""
    if not request.body:
        return None
    if not has_body(endpoint):
        raise Problem("invalid_input", f"{endpoint.method} {endpoint.path} takes no body",
                      path="$", expected="no body")
    media = (request.content_type or "").split(";")[0].strip().lower()
    if media != JSON and not (media.startswith("application/") and media.endswith("+json")):
        raise Problem("unsupported_media_type",
                      f"a body is sent as {JSON}, not {media or 'without a Content-Type'}",
                      accepted=[JSON])
    try:
        value = checked_input(json.loads(request.body, parse_constant=_not_a_number), "$")
    except RecursionError:
        raise Problem("invalid_input", "the body nests too deeply", path="$",
                      expected="JSON nested at most 64 deep") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise Problem("not_json", f"the body is not JSON: {error}") from None
    if value is None:  # null is a value of the wrong shape, not the absence of a body
        raise Problem("invalid_input", "the body is null", path="$",
                      expected="a JSON object (or list of bindings), or no body")
    return value


def _not_a_number(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


class Query:
    """The query's parameters, each taken once by name; what is left is reported."""

    def __init__(self, pairs: Sequence[tuple[str, str]]) -> None:
        self.pairs = list(pairs)
        seen: dict[str, str] = {}
        for name, value in self.pairs:
            if name in seen:
                raise Problem("invalid_input", f"the query parameter {name!r} is given twice",
                              path=f"?{name}", expected="each parameter once")
            seen[name] = value
        self.values = seen

    def take(self, name: str) -> str | None:
        return self.values.pop(name, None)

    def rest(self) -> dict[str, str]:
        """The parameters not taken, all of them taken now."""
        left, self.values = self.values, {}
        return left

    def none_left(self, accepted: str) -> None:
        if self.values:
            names = sorted(self.values)
            raise Problem("unknown_parameter", f"this route takes no parameter {names[0]!r}",
                          parameters=names, accepted=accepted)


def _flag(text: str | None, name: str) -> bool:
    if text is None or text in ("false", "0"):
        return False
    if text in ("true", "1", ""):
        return True
    raise Problem("invalid_input", f"?{name}= is true or false", path=f"?{name}",
                  expected="true or false")


def _limit(query: Query) -> int:
    text = query.take("limit")
    if text is None:
        return DEFAULT_LIMIT
    if not (text.isascii() and text.isdigit() and len(text) <= 4) \
            or not 1 <= int(text) <= MAX_LIMIT:
        raise Problem("invalid_input", f"?limit= is a whole number from 1 to {MAX_LIMIT}",
                      path="?limit", expected=f"1 to {MAX_LIMIT}")
    return int(text)


def cursor_of(entity: str) -> str:
    """The opaque cursor of a page that ends at an entity: its id, base64url.

    >>> cursor_of("ann@example.com"), after_cursor(cursor_of("ann@example.com"))
    ('YW5uQGV4YW1wbGUuY29t', 'ann@example.com')
    """
    return base64.urlsafe_b64encode(entity.encode()).decode().rstrip("=")


def after_cursor(cursor: str) -> str:
    """The id a cursor ends at; ``invalid_input`` for a cursor no page gave."""
    try:
        return base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("utf-8")
    except (binascii.Error, ValueError):
        raise Problem("invalid_input", "?cursor= is a cursor a next link gave",
                      path="?cursor", expected="the cursor of a next link") from None


def _bindings(query: Query) -> dict[str, Any]:
    return {name.removeprefix("filter[").removesuffix("]") if name.startswith("filter[")
            else name: value for name, value in query.rest().items()}


def _list_filter(state: State, noun: str, query: Query) -> dict[str, Any]:
    """``?Field=v`` and ``?filter[Field]=v``: a flag field's ``true``/``false`` is a boolean."""
    wanted = _bindings(query)
    flags = {f.name for f in fields(state, noun) if f.shape == "flag"}
    for name in flags & set(wanted):
        wanted[name] = _flag(wanted[name], name)
    return wanted


# Making the command ------------------------------------------------------------------------

@dataclass(frozen=True)
class Planned:
    """What a request runs: the command, and for a collection the page it asked for."""

    command: Command
    limit: int | None = None


def _object_body(body: Any, what: str) -> dict[str, Any]:
    if body is None:
        return {}
    if not isinstance(body, dict):
        raise Problem("invalid_input", f"the body is {what}", path="$", expected=what)
    return body


def _with_id(body: Any, entity: str) -> dict[str, Any]:
    fields_ = _object_body(body, "an object of fields")
    if "id" in fields_ and fields_["id"] != entity:
        raise Problem("invalid_input", "the body's id is not the path's", path="$.id",
                      expected=f"no id, or {entity!r}")
    return {**fields_, "id": entity}


def plan(state: State, endpoint: Endpoint, values: Mapping[str, str], query: Query,
         body: Any) -> Planned:
    """The command a request makes: the route's verb, its target from the path (a plural names
    its noun), its input from the path, the query and the body, as docs/rest.md tabulates;
    for a collection, the page asked for."""
    verb, path = endpoint.verb, endpoint.path
    assert verb is not None
    noun = _noun(state, values["plural"]) if "plural" in values else ""
    entity = values.get("id", "")
    if path == COLLECTION and verb == "list":
        limit = _limit(query)
        cursor = query.take("cursor")
        query.take("all")
        wanted = _list_filter(state, noun, query)
        request: dict[str, Any] = {"limit": limit + 1, "filter": wanted,
                                   "include_terminal": "status" in wanted}
        if cursor is not None:
            request["after"] = after_cursor(cursor)
        return Planned(Command("list", noun, request), limit)
    if verb == "navigate":
        limit = _limit(query)
        cursor = query.take("cursor")
        request = {"id": entity, "link": values["link"], "limit": limit + 1}
        if cursor is not None:
            request["after"] = after_cursor(cursor)
        query.none_left("limit, cursor")
        return Planned(Command("navigate", noun, request), limit)
    if verb == "schema" and endpoint.picture:
        query.none_left("none")
        return Planned(Command("schema", "", {}))
    if verb == "schema":
        everything = _flag(query.take("all"), "all")
        where = {"sql": True} if _flag(query.take("sql"), "sql") else {}
        query.none_left("all, sql")
        return Planned(Command("schema", "", {"noun": values["noun"], **where}
                               if "noun" in values
                               else ({"all": True, **where} if everything else where)))
    if verb == "search":
        words = query.take("q")
        query.none_left("q")
        if words is None:
            raise Problem("invalid_input", "search needs ?q=words", path="?q",
                          expected="the words to look for")
        return Planned(Command("search", "", {"query": words}))
    if verb == "query":
        return Planned(Command("query", values["fact_type"], _bindings(query) or None))
    if verb == "explain":
        return Planned(Command("explain", "", {"fact_type": values["fact_type"],
                                               "bindings": _bindings(query)}))
    if verb == "retract" and body is None:
        body = _bindings(query)
    query.none_left("none")
    if verb in ("assert", "retract", "verify"):
        if body is None:
            raise Problem("invalid_input", "the body is the fact's bindings", path="$",
                          expected="role name → value, or the values in role order")
        return Planned(Command(verb, "", {"fact_type": values["fact_type"], "bindings": body}))
    made: dict[str, Callable[[], Command]] = {
        "create": lambda: Command("create", noun, _object_body(body, "an object of fields")),
        "read": lambda: Command("read", noun, {"id": entity}),
        "update": lambda: Command("update", noun, _with_id(body, entity)),
        "delete": lambda: Command("delete", noun, {"id": entity}),
        "transition": lambda: Command("transition", noun, _with_id(body, entity)),
        "snapshots": lambda: Command("snapshots", "", {}),
        "snapshot": lambda: Command("snapshot", "", _object_body(body, "{\"label\"?}")),
        "rollback": lambda: Command("rollback", "", {**_no_fields(body), "id": entity}),
        "compile": lambda: Command("compile", "", _object_body(body, "{\"readings\"}")),
        "propose": lambda: Command("propose", "", _object_body(body, "a proposal")),
        "fetch": lambda: Command("fetch", "", {"id": entity}),
    }
    return Planned(made[verb]())


def _no_fields(body: Any) -> dict[str, Any]:
    if _object_body(body, "empty"):
        raise Problem("invalid_input", "this route takes no fields", path="$",
                      expected="no body, or {}")
    return {}


# Answering -----------------------------------------------------------------------------

def etag(representation: Mapping[str, Any]) -> str:
    """A strong validator of an entity's representation, which its facts decide.

    >>> etag({"id": "o-1"}) == etag({"id": "o-1"}) != etag({"id": "o-2"})
    True
    """
    return text_etag(json.dumps(representation, sort_keys=True, ensure_ascii=False,
                                separators=(",", ":")))


def text_etag(text: str) -> str:
    """A strong validator of a text: 32 hex digits of its SHA-256, quoted."""
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def _matches(header: str, current: str | None) -> bool:
    """Whether an ``If-Match``/``If-None-Match`` list names the current tag (``*``: any)."""
    tags = [tag.strip() for tag in header.split(",")]
    return current is not None and ("*" in tags or current in tags)


def _current_etag(state: State, noun: str, entity: str) -> str | None:
    try:
        return etag(read(state, noun, {"id": entity}))
    except Refusal:
        return None


def _collection(out: dict[str, Any], request: Request, query: Sequence[tuple[str, str]],
                limit: int) -> dict[str, Any]:
    """A page: at most ``limit`` items, a self link, and a next link while items remain
    (the command was asked for one item more)."""
    items = out["items"]
    kept = [(name, value) for name, value in query if name != "cursor"]
    links: dict[str, Any] = {"self": {"href": _href(request.path, list(query))}}
    if len(items) > limit:
        items = items[:limit]
        links["next"] = {"href": _href(request.path,
                                       [*kept, ("cursor", cursor_of(items[-1]["id"]))])}
    return {"items": items, "total": out["total"], "_links": links}


def explanation_links(request: Request) -> dict[str, Any]:
    """The links of an explanation: itself, and its picture (the same route and query with
    ``.svg``).

    >>> from arest.system.permissions import AGENT_PRINCIPAL
    >>> asked = Request("GET", "/facts/A_is_ready/explain", AGENT_PRINCIPAL, (("A", "a 1"),))
    >>> explanation_links(asked)["explain.svg"]["href"]
    '/facts/A_is_ready/explain.svg?A=a%201'
    """
    return {"self": {"href": _href(request.path, request.query)},
            "explain.svg": {"href": _href(request.path + ".svg", request.query), "type": SVG}}


def _href(path: str, pairs: Sequence[tuple[str, str]]) -> str:
    return path + ("?" + urlencode(pairs, quote_via=quote) if pairs else "")


def _refused(out: dict[str, Any]) -> Response:
    """The problem document of an error envelope ``{"error": {"code", "message", …}}``."""
    error = dict(out["error"])
    code, message = error.pop("code"), error.pop("message")
    return problem(code, message, **error)


def answer(tenant: Tenant, request: Request) -> Response:
    """The response to one REST request (see the module)."""
    response = _answered(tenant, request, False)
    assert response is not None
    return response


def answer_at_once(tenant: Tenant, request: Request) -> Response | None:
    """The response to a REST request that reads one entity, when it answers without
    waiting (:meth:`~arest.runtime.Tenant.read_now`), or one that fails before it runs;
    else None.  An event loop answers these itself, and hands the rest to a thread."""
    return _answered(tenant, request, True)


def _answered(tenant: Tenant, request: Request, at_once: bool) -> Response | None:
    try:
        return _answer(tenant, request, at_once)
    except Problem as error:
        return problem(error.code, error.message, error.headers, **error.details)
    except Refusal as refusal:
        return _refused(refusal.envelope)


def _answer(tenant: Tenant, request: Request, at_once: bool) -> Response | None:
    state = tenant.state
    parts = segments(request.path)
    found = match(request.method, parts, nouns_by_plural(state))
    if found is None:
        raise Problem("unknown_path", f"no resource at {request.path}", path=request.path)
    if isinstance(found, list):
        raise Problem("method_not_allowed", f"{request.path} answers {', '.join(found)}",
                      (("allow", ", ".join(found)),), allowed=found)
    endpoint, values = found
    query = Query(request.query)
    body = _body(request, endpoint)
    if endpoint.path == ENTRY:
        everything = _flag(query.take("all"), "all")
        query.none_left("all")
        return Response(200, entry_point(state, everything, tenant.version))
    if endpoint.path == OPENAPI:
        query.none_left("none")
        return Response(200, document(state))
    planned = plan(state, endpoint, values, query, body)
    command = planned.command
    refused = forbidden(request.principal, command)
    if refused is not None:
        return _refused(refused)
    if at_once:
        # A picture is drawn on a worker thread: drawing costs more than a read.
        now = tenant.read_now(command, request.principal.source) \
            if command.verb == "read" and not endpoint.picture else None
        return None if now is None else respond(now, request, endpoint, planned)
    precondition = _precondition(request, endpoint, command)
    out = tenant.run(command, request.principal.source, precondition, budget=request.budget,
                     outbound=request.principal.holds("outbound"))
    if endpoint.picture:
        return _picture(state, out, request, endpoint)
    return respond(out, request, endpoint, planned)


def _picture(state: State, out: dict[str, Any], request: Request, endpoint: Endpoint
             ) -> Response:
    """The picture of a command's output (:mod:`arest.rest.pictures`), with an ``ETag`` of
    its text; 304 for a matching ``If-None-Match``."""
    if "error" in out:
        return _refused(out)
    svg = drawn(state, str(endpoint.verb), out)
    if svg is None:
        raise Problem("unknown_path", f"no resource at {request.path}: {out.get('noun')}"
                      " has no state machine", path=request.path)
    tag = text_etag(svg)
    headers = (("etag", tag),)
    if request.if_none_match is not None and _matches(request.if_none_match, tag):
        return Response(304, None, headers)
    return Response(200, svg, headers, endpoint.media)


def _precondition(request: Request, endpoint: Endpoint, command: Command
                  ) -> Callable[[State], dict[str, Any] | None] | None:
    """For ``If-Match`` on a change of an entity: its ``precondition_failed`` on a D where
    the entity's current tag is not one the header names."""
    header = request.if_match
    if header is None or (endpoint.method, endpoint.path) not in ITEM_PRECONDITIONS:
        return None
    noun, entity = command.target, command.input["id"]

    def holds(state: State) -> dict[str, Any] | None:
        current = _current_etag(state, noun, entity)
        if _matches(header, current):
            return None
        return envelope("precondition_failed", f"{noun} {entity!r} is not the version"
                        f" If-Match names (it is {current or 'absent'})", etag=current)

    return holds


def respond(out: dict[str, Any], request: Request, endpoint: Endpoint, planned: Planned
            ) -> Response:
    """The response to a command's output: an error's problem, a rejection's 422, else the
    success with what it made."""
    if "error" in out:
        return _refused(out)
    if out.get("rejected"):
        violations = out.get("violations", [])
        first = violations[0].get("reading") if violations else None
        return problem("rejected", f"rejected: {first}" if first else "rejected",
                       violations=violations)
    headers: list[tuple[str, str]] = []
    body: Any = out
    if planned.limit is not None and "items" in out:
        body = _collection(out, request, request.query, planned.limit)
    if endpoint.verb == "explain":
        body = {**out, "_links": explanation_links(request)}
    entity = out.get("entity") if endpoint.verb != "read" else out
    tag = None
    if isinstance(entity, dict) and "_links" in entity:
        tag = etag(entity)
        headers.append(("etag", tag))
        if endpoint.success == 201:
            headers.append(("location", entity["_links"]["self"]["href"]))
    if endpoint.verb == "read" and request.if_none_match is not None \
            and _matches(request.if_none_match, tag):
        return Response(304, None, tuple(headers))
    return Response(endpoint.success, body, tuple(headers))

