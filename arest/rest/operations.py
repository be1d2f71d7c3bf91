"""The operations of the OpenAPI document (:mod:`arest.rest.openapi`): every endpoint of the
route table made concrete per noun, navigation link and fact type of the tenant, with its
parameters, its body and every response it can give.

>>> import arest
>>> D = arest.compile(ORDERS)  # Order was placed by at most one Customer (conftest.py)
>>> sorted(method for path, method, _ in operations(D, served(D)) if path == "/orders/{id}")
['delete', 'get', 'patch']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final

from arest.algebra import State
from arest.compiler.fields import status_fact_type
from arest.compiler.links import PARENT, RELATED
from arest.compiler.schema import Schema, schema_of
from arest.rest.representations import (
    JSON,
    TEXT,
    NounView,
    bindings,
    collection,
    common,
    component,
    noun_view,
    obj,
    ref,
    rows,
)
from arest.rest.routes import (
    DEFAULT_LIMIT,
    ENDPOINTS,
    MAX_LIMIT,
    MIN_SEQUENCE_HEADER,
    RESERVED_SEGMENTS,
    SEQUENCE_HEADER,
    STATUS_OF_CODE,
    Endpoint,
    statuses,
)
from arest.system.commands import VERBS
from arest.system.derive import derived_mode
from arest.system.inputs import role_names
from arest.system.links import plural
from arest.system.search import tenant_fact_types, tenant_nouns

DOMAIN_CHANGE: Final = "Domain Change"
"""The metamodel's noun that REST serves beside the tenant's (``/domain-changes``)."""
PROBLEM: Final = "application/problem+json"
SVG: Final = "image/svg+xml"


@dataclass(frozen=True)
class Served:
    """What the paths are made from: the nouns served, every noun a schema names (with its
    component's key), the fact types of the tenant, and the schema."""

    served: tuple[NounView, ...]
    views: dict[str, NounView]
    keys: dict[str, str]
    fact_types: tuple[str, ...]
    schema: Schema

    def noun_ref(self, noun: str, suffix: str = "") -> JSON:
        """A reference to the noun's schema (``suffix``: ``.create``, …)."""
        return ref(self.keys[noun] + suffix)


def served(state: State) -> Served:
    """The nouns and fact types D's document shows."""
    schema = schema_of(state)
    names = [n for n in (*tenant_nouns(state), DOMAIN_CHANGE)
             if n in schema.nouns and (n == DOMAIN_CHANGE or _servable(state, n))]
    served = tuple(noun_view(state, schema, n) for n in dict.fromkeys(names))
    views = {view.name: view for view in served}
    for view in served:
        for link in view.links:
            if link.rel != RELATED and link.noun not in views:
                views[link.noun] = noun_view(state, schema, link.noun)
    taken = set(common())
    keys = {noun: component(noun) if component(noun) not in taken else "noun." + component(noun)
            for noun in views}
    return Served(served, views, keys, tuple(tenant_fact_types(state)), schema)


def _servable(state: State, noun: str) -> bool:
    """Whether the noun's collection has a path of its own: a plural that is a fixed route's
    first segment is not (the readings get a diagnostic for it)."""
    return plural(state, noun) not in RESERVED_SEGMENTS


# Responses ------------------------------------------------------------------------------

def _json(schema: JSON) -> JSON:
    return {"application/json": {"schema": schema}}


def _ok(description: str, schema: JSON, **extra: JSON) -> JSON:
    return {"description": description, "content": _json(schema), **extra}


def _picture(description: str) -> JSON:
    """A picture's success: SVG text, with the ``ETag`` of that text."""
    return {"description": description,
            "content": {SVG: {"schema": {"type": "string"}}},
            "headers": {"ETag": {"description": "The picture's version.", "required": True,
                                 "schema": TEXT}}}


def header_name(name: str) -> str:
    """A header's name as the document writes it.

    >>> header_name(SEQUENCE_HEADER), header_name(MIN_SEQUENCE_HEADER)
    ('Arest-Sequence', 'Arest-Min-Sequence')
    """
    return "-".join(part.capitalize() for part in name.split("-"))


def _sequence(required: bool) -> JSON:
    """The ``Arest-Sequence`` header of an answer computed on the tenant."""
    return {header_name(SEQUENCE_HEADER): {
        "description": "The sequence number of the D the answer was computed on: send it "
                       f"back as {header_name(MIN_SEQUENCE_HEADER)} to be answered on a D "
                       "holding it, by any server of the tenant.",
        "required": required, "schema": {"type": "string", "pattern": "^[0-9]+$"}}}


UNSEQUENCED: Final = frozenset({401, 413, 421})
"""The error statuses answered before the tenant is asked, without ``Arest-Sequence``:
a missing key, a body too large, a Host not served."""


def _responses(endpoint: Endpoint, success: JSON) -> JSON:
    out: JSON = {}
    for status in statuses(endpoint):
        if status == endpoint.success:
            out[str(status)] = {**success,
                                "headers": {**success.get("headers", {}), **_sequence(True)}}
        elif status == 304:
            out["304"] = {"description": "Not modified: If-None-Match holds the current ETag.",
                          "headers": _sequence(True)}
        else:
            out[str(status)] = {"$ref": f"#/components/responses/Problem{status}"}
    return out


def problem_responses() -> JSON:
    """One response per error status, naming the codes that give it; ``Arest-Sequence``
    on those the tenant may answer (not :data:`UNSEQUENCED`)."""
    codes: dict[int, list[str]] = {}
    for code, status in STATUS_OF_CODE.items():
        codes.setdefault(status, []).append(code)
    out: JSON = {}
    for status, named in sorted(codes.items()):
        if status == 405:
            continue
        schema = ref("Rejection") if status == 422 else ref("ProblemDetails")
        response: JSON = {"description": "Problem details; code " + ", ".join(sorted(named)),
                          "content": {PROBLEM: {"schema": schema}}}
        if status == 401:
            response["headers"] = {"WWW-Authenticate": {
                "description": "Bearer", "schema": TEXT}}
        elif status == 409:
            # not_yet comes before the tenant is asked, with Retry-After; the other codes
            # come from the tenant, with the sequence they were judged on.
            response["headers"] = {**_sequence(False), "Retry-After": {
                "description": "With not_yet: seconds to wait before asking again, here or "
                               "at another server of the tenant.",
                "required": False, "schema": {"type": "string", "pattern": "^[0-9]+$"}}}
        elif status not in UNSEQUENCED:
            response["headers"] = _sequence(False)
        out[f"Problem{status}"] = response
    return out


def _result(entity: JSON | None = None, **more: JSON) -> JSON:
    """A command result, with its entity (required) when there is one."""
    if entity is None and not more:
        return ref("CommandResult")
    extra = obj(["entity"] if entity is not None else [],
                **({"entity": entity} if entity is not None else {}), **more)
    return {"allOf": [ref("CommandResult"), extra]}


def _location(required: bool = True) -> JSON:
    return {"Location": {"description": "The url of what was made.", "required": required,
                         "schema": TEXT}}


# Parameters -----------------------------------------------------------------------------

def _path(name: str) -> JSON:
    # An empty segment addresses nothing: ``/orders/`` is the collection.
    return {"name": name, "in": "path", "required": True,
            "schema": {"type": "string", "minLength": 1}}


def _query(name: str, schema: JSON, required: bool = False, description: str = "") -> JSON:
    out: JSON = {"name": name, "in": "query", "required": required, "schema": schema}
    if description:
        out["description"] = description
    return out


_PAGE = [_query("limit", {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
                description=f"At most this many ({DEFAULT_LIMIT})."),
         _query("cursor", TEXT, description="The next link's cursor.")]
_RESERVED_QUERY = {"limit", "cursor", "all"}
_MIN_SEQUENCE: JSON = {
    "name": header_name(MIN_SEQUENCE_HEADER), "in": "header", "required": False,
    "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"},
    "description": "Answer on a D holding every command up to this sequence number (an "
                   f"{header_name(SEQUENCE_HEADER)} seen): a server behind catches up, "
                   "waiting briefly, else answers 409 not_yet."}
_ALL = _query("all", {"anyOf": [{"type": "boolean"}, {"type": "string", "enum": ["", "1", "0"]}]},
              description="With the metamodel's too (``?all`` alone is true).")


def _filters(view: NounView) -> list[JSON]:
    names = ["status"] if view.machine else []
    names += [f.name for f in view.fields if f.name != "status"]
    return [_query(name, TEXT, description="Only those with this value.")
            for name in names if name not in _RESERVED_QUERY]


def _body(schema: JSON, required: bool = True) -> JSON:
    return {"required": required, "content": _json(schema)}


# Operations -----------------------------------------------------------------------------

Operation = tuple[str, str, JSON]
"""(path, method, operation object)."""


def _operation(endpoint: Endpoint, operation_id: str, tag: str, success: JSON,
               parameters: list[JSON] | None = None, body: JSON | None = None) -> JSON:
    verb = VERBS.get(endpoint.verb or "")
    out: JSON = {"operationId": operation_id, "tags": [tag],
                 "summary": str(success["description"]).rstrip(".") if endpoint.picture
                 else verb.description.split(". ")[0].rstrip(".") if verb is not None
                 else ("The entry point" if endpoint.operation == "entry"
                       else "This document")}
    out["parameters"] = [*(parameters or []), _MIN_SEQUENCE]
    if body is not None:
        out["requestBody"] = body
    out["responses"] = _responses(endpoint, success)
    return out


def _made_links(tenant: Served, view: NounView, pointer: str) -> JSON:
    """OpenAPI links from what a create (or propose) made to the operations on it: read,
    update, delete, transition, and each link it can be navigated by."""
    noun = tenant.keys[view.name]
    names = ["read", "update", "delete", *(["transition"] if view.machine else [])]
    found: JSON = {name: {"operationId": f"{name}_{noun}", "parameters": {"id": pointer}}
                   for name in names}
    for link in view.links:
        if link.rel != PARENT:
            found.setdefault(component(link.key), {
                "operationId": f"navigate_{noun}_{component(link.key)}",
                "parameters": {"id": pointer}})
    return found


def _noun_operations(tenant: Served, endpoint: Endpoint) -> Iterator[Operation]:
    """The endpoint of a ``/{plural}…`` template, for every noun served."""
    assert endpoint.verb is not None
    for view in tenant.served:
        noun, entity = tenant.keys[view.name], tenant.noun_ref(view.name)
        base = "/" + view.plural
        item = [_path("id")]
        op = f"{endpoint.operation}_{noun}"

        def made(success: JSON, endpoint: Endpoint = endpoint, op: str = op,
                 parameters: list[JSON] | None = None, body: JSON | None = None,
                 tag: str = view.name) -> JSON:
            return _operation(endpoint, op, tag, success, parameters, body)

        if endpoint.picture:
            if view.machine:
                yield base + "/{id}/machine.svg", "get", made(
                    _picture(f"The state machine of the {view.name}, its status highlighted."),
                    parameters=item)
        elif endpoint.verb == "list":
            yield base, "get", made(_ok(f"A page of {view.plural}.", collection(entity)),
                                    parameters=[*_PAGE, *_filters(view)])
        elif endpoint.verb == "create" and view.name != DOMAIN_CHANGE:
            yield base, "post", made(
                _ok(f"The {view.name} made.", _result(entity), headers=_location(),
                    links=_made_links(tenant, view, "$response.body#/entity/id")),
                body=_body(tenant.noun_ref(view.name, ".create"), required=False))
        elif endpoint.verb == "read":
            yield base + "/{id}", "get", made(
                _ok(f"The {view.name}.", entity, headers={"ETag": {
                    "description": "The entity's version.", "required": True,
                    "schema": TEXT}}), parameters=item)
        elif endpoint.verb == "update":
            yield base + "/{id}", "patch", made(
                _ok(f"The {view.name} updated.", _result(entity)), parameters=item,
                body=_body(tenant.noun_ref(view.name, ".update"), required=False))
        elif endpoint.verb == "delete":
            deleted = {"type": ["object", "null"]}
            yield base + "/{id}", "delete", made(
                _ok(f"The {view.name} deleted.", _result(deleted=deleted)), parameters=item)
        elif endpoint.verb == "transition" and view.machine:
            yield base + "/{id}/transition", "post", made(
                _ok(f"The {view.name} after the event.", _result(entity)), parameters=item,
                body=_body(tenant.noun_ref(view.name, ".transition")))
        elif endpoint.verb == "navigate":
            for link in view.links:
                if link.rel == PARENT:
                    continue
                answer = rows(tenant.schema.fact_types[link.fact_type].roles) \
                    if link.rel == RELATED else collection(tenant.noun_ref(link.noun))
                yield f"{base}/{{id}}/{link.key}", "get", made(
                    _ok(f"The {link.rel} of a {view.name}: {link.key}.", answer),
                    op=f"navigate_{noun}_{component(link.key)}", parameters=[*item, *_PAGE])


def _assertable(state: State, fact_type: str, roles: tuple[str, ...]) -> bool:
    return fact_type != status_fact_type(roles[0]) and derived_mode(state, fact_type) not in (
        "*", "**")


def _fact_operations(state: State, tenant: Served, endpoint: Endpoint
                     ) -> Iterator[Operation]:
    """The endpoint of a ``/facts/{fact_type}…`` template, for every fact type of the
    tenant."""
    for fact_type in tenant.fact_types:
        roles = tenant.schema.fact_types[fact_type].roles
        path = endpoint.path.replace("{fact_type}", fact_type)
        op = f"{endpoint.operation}_{fact_type}"
        role_filters = [_query(name, TEXT) for name in role_names(roles)]
        role_values = [_query(name, TEXT, required=True) for name in role_names(roles)]

        def made(success: JSON, parameters: list[JSON] | None = None,
                 body: JSON | None = None, op: str = op) -> JSON:
            return _operation(endpoint, op, "facts", success, parameters, body)

        if endpoint.picture:
            yield path, "get", made(_picture("How the fact holds, as a tree."), role_values)
        elif endpoint.verb == "query":
            yield path, "get", made(_ok("The facts.", rows(roles)), role_filters)
        elif endpoint.verb == "explain":
            yield path, "get", made(_ok("How the fact holds.", ref("Explanation")), role_values)
        elif endpoint.verb == "verify":
            yield path, "post", made(_ok("What asserting it would violate.",
                                         ref("Verification")), body=_body(bindings(roles)))
        elif not _assertable(state, fact_type, roles):
            continue
        elif endpoint.verb == "assert":
            yield path, "post", made(_ok("The fact asserted.", _result(fact={"type": "object"})),
                                     body=_body(bindings(roles)))
        elif endpoint.verb == "retract":
            # The bindings may come as a body too; the query is the form every client has.
            yield path, "delete", made(_ok("The fact retracted.", _result()), role_values)


def _fixed_operation(tenant: Served, endpoint: Endpoint) -> Iterator[Operation]:
    """The endpoint of a route that names neither a noun nor a fact type."""
    name, method = endpoint.operation, endpoint.method.lower()
    verb = VERBS.get(endpoint.verb or "")
    input_body = _body(dict(verb.input)) if verb is not None else None

    def made(success: JSON, parameters: list[JSON] | None = None,
             body: JSON | None = None, tag: str = "tenant") -> JSON:
        return _operation(endpoint, name, tag, success, parameters, body)

    answers: dict[str, Callable[[], JSON]] = {
        "entry": lambda: made(_ok("Links to every collection.", ref("Entry")), [_ALL]),
        "openapi": lambda: made(_ok("This document.", ref("OpenAPI"))),
        "compile": lambda: made(_ok("The readings compiled.", _result()), body=input_body,
                                tag="schema"),
        "schema": lambda: made(_ok("The schema.", ref("Schema")), [_ALL], tag="schema"),
        "schema_svg": lambda: made(_picture("The tables of the relational schema."),
                                   tag="schema"),
        "schema_noun": lambda: made(_ok("The schema around the noun.", ref("Schema")),
                                    [_path("noun")], tag="schema"),
        "snapshot": lambda: made(_ok("The snapshot taken.", ref("Snapshot")),
                                 body=_body(dict(VERBS["snapshot"].input), required=False),
                                 tag="snapshots"),
        "rollback": lambda: made(_ok("The state restored.", ref("Rollback")), [_path("id")],
                                 tag="snapshots"),
        "snapshots": lambda: made(_ok("The snapshots.", ref("Snapshots")), tag="snapshots"),
        "search": lambda: made(_ok("The entities found, best first.", ref("SearchResults")),
                               [_query("q", TEXT, required=True)], tag="chatgpt"),
        "fetch": lambda: made(_ok("The entity as a document.", ref("Document")),
                              [_path("id")], tag="chatgpt"),
    }
    if name == "propose":
        view = tenant.views[DOMAIN_CHANGE]
        yield endpoint.path, method, made(
            _ok("The Domain Change proposed.", _result(tenant.noun_ref(DOMAIN_CHANGE)),
                headers=_location(),
                links=_made_links(tenant, view, "$response.body#/entity/id")),
            body=input_body, tag=DOMAIN_CHANGE)
    elif name in answers:
        yield endpoint.path, method, answers[name]()


def operations(state: State, tenant: Served) -> Iterator[Operation]:
    """Every operation of the document, in the route table's order."""
    for endpoint in ENDPOINTS:
        if endpoint.path.startswith("/{plural}"):
            yield from _noun_operations(tenant, endpoint)
        elif "{fact_type}" in endpoint.path:
            yield from _fact_operations(state, tenant, endpoint)
        else:
            yield from _fixed_operation(tenant, endpoint)


