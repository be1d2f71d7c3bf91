"""The REST routes of DESIGN §9, derived from the command table, and what each can answer.

Every command with a :class:`~arest.system.commands.Route` is one :class:`Endpoint`; two
more answer without a command: the entry point ``GET /`` and ``GET /openapi.json``.  A
request's path is matched segment by segment (each decoded once), fixed segments first:

    match(method, segments) = the endpoint whose template has those segments, with the
                              values of its ``{…}`` segments; fixed routes win over
                              ``/{plural}/…``

Statuses (:func:`statuses`): the success, then every error an endpoint can answer, by the
error codes of DESIGN §5 (:data:`STATUS_OF_CODE`); a rejection is 422.

>>> [e.path for e in ENDPOINTS if e.verb == "schema"]
['/schema', '/schema/{noun}', '/schema.svg']
>>> endpoint, values = match("GET", ("orders", "o-1", "line-items"))
>>> endpoint.path, endpoint.verb, values
('/{plural}/{id}/{link}', 'navigate', {'plural': 'orders', 'id': 'o-1', 'link': 'line-items'})
>>> match("POST", ("facts", "Order_was_placed_by_Customer", "verify"))[0].verb
'verify'
>>> match("GET", ("orders", "o-1", "transition"))
['POST']
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Final

from arest.system.commands import TABLE, Effect

JSON: Final = "application/json"
ENTRY: Final = "/"
OPENAPI: Final = "/openapi.json"
COLLECTION: Final = "/{plural}"
ITEM: Final = "/{plural}/{id}"
SEQUENCE_HEADER: Final = "arest-sequence"
"""The response header naming the sequence number of the D an answer was computed on."""
MIN_SEQUENCE_HEADER: Final = "arest-min-sequence"
"""The request header naming the least sequence number the answer's D must hold (else
503 ``not_yet``; docs/scale.md)."""


@dataclass(frozen=True)
class Endpoint:
    """One REST operation: method, path template, the verb of the command it runs (None for
    the entry point and the OpenAPI document), the status of a success, and the media type
    of what it answers (JSON, or a picture of what the command reads)."""

    method: str
    path: str
    verb: str | None
    success: int = 200
    media: str = JSON
    template: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """The path's segments; ``{name}`` is a variable segment."""

    def __post_init__(self) -> None:
        segments = tuple(segment for segment in self.path.split("/") if segment)
        object.__setattr__(self, "template", segments)

    @property
    def fixed(self) -> bool:
        """Whether the path starts with a fixed segment (``/facts/…``), so wins over
        ``/{plural}/…``."""
        return not self.path.startswith("/{")

    @property
    def picture(self) -> bool:
        """Whether the operation answers a picture (SVG) instead of JSON."""
        return self.media != JSON

    @property
    def operation(self) -> str:
        """The operation id: the verb, or the route's own name, with the second route of a
        verb named by its variable (``schema``, ``schema_noun``), and a picture by its last
        segment (``machine_svg``).

        >>> [e.operation for e in ENDPOINTS][:3]
        ['entry', 'openapi', 'assert']
        >>> sorted(e.operation for e in ENDPOINTS if e.picture)
        ['explain_svg', 'machine_svg', 'schema_svg']
        """
        if self.verb is None:
            return "entry" if self.path == ENTRY else "openapi"
        if self.picture:
            return self.template[-1].replace(".", "_")
        first = next(e for e in ENDPOINTS if e.verb == self.verb)
        if first == self:
            return self.verb
        return f"{self.verb}_{self.template[-1].strip('{}')}"


ENDPOINTS: Final[tuple[Endpoint, ...]] = (
    Endpoint("GET", ENTRY, None),
    Endpoint("GET", OPENAPI, None),
    *(Endpoint(route.method, route.path, verb.name, route.success, route.media)
      for verb in TABLE for route in verb.routes),
)
"""Every REST operation, the two without a command first, then the command table's order."""

_EFFECTS: Final[Mapping[str, Effect]] = {verb.name: verb.effect for verb in TABLE}

STATUS_OF_CODE: Final[Mapping[str, int]] = {
    "unauthorized": 401,
    "forbidden": 403,
    "forbidden_origin": 403,
    "unknown_noun": 404, "unknown_entity": 404, "unknown_fact_type": 404,
    "unknown_snapshot": 404, "unknown_link": 404, "unknown_path": 404, "unknown_tenant": 404,
    "method_not_allowed": 405,
    "invalid_input": 400, "unknown_field": 400, "ambiguous_field": 400, "unknown_event": 400,
    "derived_fact_type": 400, "reading_error": 400, "not_json": 400, "unknown_parameter": 400,
    "entity_exists": 409, "no_delete_transition": 409, "limit_exceeded": 409, "not_yet": 409,
    "precondition_failed": 412,
    "body_too_large": 413,
    "unsupported_media_type": 415,
    "misdirected_request": 421,
    "rejected": 422,
    "external_unavailable": 502,
}
"""The HTTP status of each error code (DESIGN §5, §9), and of the REST layer's own:
``unknown_path``, ``method_not_allowed``, ``not_json``, ``unknown_parameter``,
``precondition_failed`` (a stale ``If-Match``), ``body_too_large``,
``unsupported_media_type``, ``misdirected_request`` (a Host the server does not serve),
``forbidden_origin`` (an Origin it does not allow), ``rejected`` (alethic violations),
``unknown_tenant`` (a ``/t/<tenant>`` the server does not serve) and ``not_yet`` (a D not
yet at the sequence ``Arest-Min-Sequence`` names: the server's state is behind what the
request asks for, so 409 with ``Retry-After``, never a 5xx; docs/scale.md).
``external_unavailable`` is 502, or 504 when its ``status`` is ``timeout``.  A code not
listed is 400: every other error is about what the client sent."""

DEFAULT_LIMIT: Final = 50
"""The most items a page of a collection holds when ``?limit=`` does not say."""
MAX_LIMIT: Final = 1000
"""The most ``?limit=`` may ask for."""

ITEM_PRECONDITIONS: Final = frozenset({("PATCH", ITEM), ("DELETE", ITEM),
                                       ("POST", ITEM + "/transition")})
"""The operations that honour ``If-Match`` (412 when the entity changed)."""


def has_body(endpoint: Endpoint) -> bool:
    """Whether the operation reads a JSON body: POST and PATCH do; DELETE of facts may
    (its bindings in the body or the query)."""
    return endpoint.method in ("POST", "PATCH") or (
        endpoint.method == "DELETE" and endpoint.verb == "retract")


def statuses(endpoint: Endpoint) -> tuple[int, ...]:
    """Every status the operation can answer, the success first.

    >>> statuses(next(e for e in ENDPOINTS if e.verb == "create"))
    (201, 400, 401, 403, 404, 409, 413, 415, 421, 422)
    >>> statuses(ENDPOINTS[0])
    (200, 400, 401, 403, 409, 421)
    """
    # 409: any request may name a sequence D has not reached (MIN_SEQUENCE_HEADER).
    found = {400, 401, 403, 409, 421}
    if endpoint.verb is not None:
        found.add(404)
        if _EFFECTS[endpoint.verb] is not Effect.READS:
            found |= {409, 422}
    if has_body(endpoint):
        found |= {413, 415}
    if endpoint.verb == "read" or endpoint.picture:
        found.add(304)
    if (endpoint.method, endpoint.path) in ITEM_PRECONDITIONS:
        found.add(412)
    return (endpoint.success, *sorted(found - {endpoint.success}))


def _fits(endpoint: Endpoint, segments: tuple[str, ...]) -> dict[str, str] | None:
    """The values of the endpoint's variables in a path of as many segments as its own,
    or None when a literal segment differs."""
    literals, variables = _PATTERNS[endpoint]
    if any(segments[index] != literal for index, literal in literals):
        return None
    return {name: segments[index] for index, name in variables}


def match(method: str, segments: tuple[str, ...], plurals: Collection[str] = ()
          ) -> tuple[Endpoint, dict[str, str]] | list[str] | None:
    """The endpoint a request's method and decoded path segments name, with the values of
    its variables; else the methods the path has (for 405 and ``Allow``), or None when no
    endpoint has the path.  Fixed routes win: a path whose first segment is a fixed route's
    is a noun's (``/{plural}/…``) only when it is one of the ``plurals`` D has, as
    ``domain-changes`` is (``POST /domain-changes`` proposes; ``GET`` lists them)."""
    nouns = not segments or segments[0] not in RESERVED_SEGMENTS or segments[0] in plurals
    candidates = (*_FIXED.get(_opening(segments), ()),
                  *(_NOUN_ROUTES.get(len(segments), ()) if nouns else ()))
    fitting = [(endpoint, values) for endpoint in candidates
               if (values := _fits(endpoint, segments)) is not None]
    # A noun's literal segment wins over a variable one: /{plural}/{id}/transition is never
    # the link named "transition" of /{plural}/{id}/{link}.
    fits = {endpoint for endpoint, _ in fitting}
    fitting = [(endpoint, values) for endpoint, values in fitting
               if fits.isdisjoint(_NARROWER[endpoint])]
    for endpoint, values in fitting:
        if endpoint.method == method:
            return endpoint, values
    return sorted({endpoint.method for endpoint, _ in fitting}) or None


def _narrower(one: Endpoint, other: Endpoint) -> bool:
    """Whether two noun routes of one length differ in that ``one`` spells a segment that
    ``other`` leaves variable, and never the converse."""
    if one.fixed or other.fixed or len(one.template) != len(other.template):
        return False
    pairs = list(zip(one.template, other.template, strict=True))
    return any(not a.startswith("{") and b.startswith("{") for a, b in pairs) and not any(
        a.startswith("{") and not b.startswith("{") for a, b in pairs)


_PATTERNS: Final[Mapping[Endpoint, tuple[tuple[tuple[int, str], ...],
                                        tuple[tuple[int, str], ...]]]] = {
    endpoint: (tuple((i, part) for i, part in enumerate(endpoint.template)
                     if not part.startswith("{")),
               tuple((i, part.strip("{}")) for i, part in enumerate(endpoint.template)
                     if part.startswith("{")))
    for endpoint in ENDPOINTS}
"""Each endpoint's literal segments and variables, by position."""

def _opening(template: tuple[str, ...]) -> tuple[int, str]:
    """A path's number of segments and its first segment ("" for ``/``)."""
    return len(template), template[0] if template else ""


_FIXED: Final[Mapping[tuple[int, str], tuple[Endpoint, ...]]] = {
    key: tuple(e for e in ENDPOINTS if e.fixed and _opening(e.template) == key)
    for key in {_opening(e.template) for e in ENDPOINTS if e.fixed}}
"""The fixed endpoints by their number of segments and their first segment."""

_NOUN_ROUTES: Final[Mapping[int, tuple[Endpoint, ...]]] = {
    length: tuple(e for e in ENDPOINTS if not e.fixed and len(e.template) == length)
    for length in {len(e.template) for e in ENDPOINTS if not e.fixed}}
"""The endpoints of a noun's resources (``/{plural}/…``) by their number of segments."""

_NARROWER: Final[Mapping[Endpoint, frozenset[Endpoint]]] = {
    endpoint: frozenset(other for other in ENDPOINTS if _narrower(other, endpoint))
    for endpoint in ENDPOINTS}
"""Each endpoint's narrower ones, which win over it where both fit."""

RESERVED_SEGMENTS: Final = frozenset(
    {e.template[0] for e in ENDPOINTS if e.fixed and e.template}
    | {"mcp", "sse", "messages", "t", "_static"})
"""First segments a noun's plural may not be (DESIGN §9): the fixed routes' and those of the
other transports (``/mcp``, ``/sse``, ``/messages``), federation (``/t``) and the pages'
script and stylesheet (``/_static``)."""
