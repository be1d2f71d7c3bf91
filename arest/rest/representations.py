"""The JSON Schemas of what the REST surface shows and takes, read from the tenant's schema.

A noun's :class:`NounView` gathers what its schemas need: its fields (``resolve:<Noun>``),
its navigation links (``links:<Noun>``), its machine's statuses and events, which fields are
mandatory (an alethic mandatory constraint on the noun's role alone), which are derived, and
each field's possible values (``The possible values of Priority are …``).  From it:

- :func:`representation`: the entity of DESIGN §5, ``id`` and ``noun`` always there, a
  mandatory field ``required``, ``status`` an enum of the machine's statuses, ``_links``
  read-only.  A field's values are atoms, which the store keeps as strings: ``one`` a
  string, ``many`` a list of them, ``flag`` a boolean, ``rows`` a list of objects.
- :func:`create_body`, :func:`update_body`: what ``create``/``update`` take, as the command
  reads them: a value is a string or a number, a field whose other noun is an entity type
  also takes a nested object (a child created with it), null retracts, a ``many`` field
  takes a list; derived fields and ``status`` are left out (the command refuses them).

Everything is a plain dict: the document is JSON.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from arest.algebra import State
from arest.compiler.fields import Field
from arest.compiler.links import Link
from arest.compiler.schema import Schema
from arest.system.derive import derived_mode
from arest.system.entities import fields
from arest.system.inputs import role_names
from arest.system.links import followed, plural
from arest.system.machines import machine_of

JSON = dict[str, Any]

ATOM: Final[JSON] = {"type": ["string", "number"]}
"""A value a command takes: a string as it is, a number as its numeral."""
TEXT: Final[JSON] = {"type": "string"}
COUNT: Final[JSON] = {"type": "integer", "minimum": 0}

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def component(name: str) -> str:
    """A component's key: OpenAPI allows letters, digits, ``.``, ``_`` and ``-``.

    >>> component("Domain Change"), component("LineItem")
    ('Domain_Change', 'LineItem')
    """
    return _UNSAFE.sub("_", name)


def ref(name: str) -> JSON:
    """A reference to the schema component ``name``."""
    return {"$ref": f"#/components/schemas/{component(name)}"}


def array(items: JSON) -> JSON:
    """A list of ``items``."""
    return {"type": "array", "items": items}


def obj(required: list[str] | tuple[str, ...] = (), named: JSON | None = None, /,
        **properties: JSON) -> JSON:
    """An object with those properties (``named``, a dict, for names made from the
    readings), the ``required`` ones required."""
    out: JSON = {"type": "object", "properties": {**(named or {}), **properties}}
    if required:
        out["required"] = list(required)
    return out


def closed(schema: JSON) -> JSON:
    """The object schema with no other properties than it names."""
    return {**schema, "additionalProperties": False}


@dataclass(frozen=True)
class NounView:
    """What a noun's schemas and paths need (see the module)."""

    name: str
    plural: str
    fields: tuple[Field, ...]
    links: tuple[Link, ...]
    statuses: tuple[str, ...]
    events: tuple[str, ...]
    mandatory: frozenset[str]
    derived: frozenset[str]
    reference: tuple[str, ...]
    values: dict[str, tuple[str, ...]]
    entities: frozenset[str]
    """The field names whose other noun is an entity type (a nested object creates it)."""

    @property
    def machine(self) -> bool:
        """Whether the noun has a state machine."""
        return bool(self.events)


def _possible(schema: Schema, fact_type: str, role: int, noun: str) -> tuple[str, ...] | None:
    """The values a value constraint allows at the role (on its noun, or on the role)."""
    allowed: set[str] | None = None
    for constraint in schema.constraints.values():
        if constraint.kind != "VC" or constraint.modality != "alethic" or not constraint.allowed:
            continue
        if constraint.noun == noun or (fact_type, role, 1) in constraint.spans:
            found = set(constraint.allowed)
            allowed = found if allowed is None else allowed & found
    return None if allowed is None else tuple(sorted(allowed))


def _mandatory(schema: Schema) -> set[tuple[str, int]]:
    """The roles an alethic mandatory constraint spans alone."""
    return {c.spans[0][:2] for c in schema.constraints.values()
            if c.kind == "MC" and c.modality == "alethic" and len(c.spans) == 1}


def noun_view(state: State, schema: Schema, noun: str) -> NounView:
    """The noun's view (see the module); ``schema`` is ``schema_of(state)``."""
    own = fields(state, noun)
    machine = machine_of(state, noun)
    statuses: set[str] = set()
    if machine is not None:
        statuses = {machine.initial, *machine.terminal,
                    *(s for t in machine.transitions for s in (t.source, t.target))}
        for declared in schema.machines.values():
            if declared.noun == noun:
                statuses.update(declared.statuses)
    mandatory = _mandatory(schema)
    values: dict[str, tuple[str, ...]] = {}
    entities: set[str] = set()
    for field in own:
        if field.shape in ("one", "many") and field.name != "status":
            other_noun, role = field.keys[0]
            possible = _possible(schema, field.fact_type, role, other_noun)
            if possible is not None:
                values[field.name] = possible
            info = schema.nouns.get(other_noun)
            if info is not None and info.kind == "entity":
                entities.add(field.name)
    info = schema.nouns.get(noun)
    return NounView(
        noun, plural(state, noun), own, followed(state, noun), tuple(sorted(statuses)),
        tuple(machine.events) if machine is not None else (),
        frozenset(f.name for f in own if (f.fact_type, f.role) in mandatory),
        frozenset(f.name for f in own if derived_mode(state, f.fact_type) in ("*", "**")),
        info.reference if info is not None else (), values, frozenset(entities))


def _shown(view: NounView, field: Field) -> JSON:
    """A field's value as a representation shows it."""
    if field.shape == "flag":
        return {"type": "boolean"}
    if field.shape == "rows":
        return array(obj([key for key, _ in field.keys], {key: TEXT for key, _ in field.keys}))
    value: JSON = dict(TEXT)
    if field.name in view.values:
        value["enum"] = list(view.values[field.name])
    return value if field.shape == "one" else array(value)


def representation(view: NounView) -> JSON:
    """The entity representation's schema (DESIGN §5)."""
    properties: JSON = {"id": TEXT, "noun": {"type": "string", "const": view.name}}
    if view.machine:
        properties["status"] = {"type": "string", "enum": list(view.statuses)}
    for field in view.fields:
        if field.name != "status":
            properties[field.name] = _shown(view, field)
    properties["_links"] = {**ref("Links"), "readOnly": True}
    required = ["id", "noun", *sorted(view.mandatory - {"status"}), "_links"]
    return {**obj(required, properties), "description": f"An entity of {view.name}."}


def _given(view: NounView, field: Field) -> JSON:
    """A field's value as create and update take it."""
    if field.shape == "flag":
        return {"type": ["boolean", "null"]}
    if field.shape == "rows":
        row = obj([key for key, _ in field.keys], {key: ATOM for key, _ in field.keys})
        return {"anyOf": [row, array(row), {"type": "null"}]}
    one: list[JSON] = [{"type": "string", "enum": list(view.values[field.name])},
                       {"type": "number"}] if field.name in view.values else [dict(ATOM)]
    if field.name in view.entities:
        one.append({"type": "object"})
    many = [array({"anyOf": one} if len(one) > 1 else one[0])] if field.shape == "many" else []
    return {"anyOf": [*one, *many, {"type": "null"}]}


def _writable(view: NounView) -> list[Field]:
    return [f for f in view.fields if f.name != "status" and f.name not in view.derived]


def update_body(view: NounView) -> JSON:
    """What ``update:<Noun>`` takes (PATCH): any writable field (the id is the path's)."""
    properties = {field.name: _given(view, field) for field in _writable(view)}
    return {**closed(obj((), properties)), "description": f"Fields of a {view.name} to set."}


def create_body(view: NounView) -> JSON:
    """What ``create:<Noun>`` takes (POST): the id, or its reference components, each one
    value, and the fields, the mandatory ones required unless the id gives them."""
    properties: JSON = {"id": ATOM}
    for field in _writable(view):
        properties[field.name] = ATOM if field.name in view.reference \
            else _given(view, field)
    required = sorted(view.mandatory.intersection(properties) - set(view.reference))
    return {**closed(obj(required, properties)),
            "description": f"A new {view.name}: its id and fields."}


def transition_body(view: NounView) -> JSON:
    """What ``transition:<Noun>`` takes: the event, one of the machine's."""
    return closed(obj(["event"], event={"type": "string", "enum": list(view.events)}))


def collection(items: JSON) -> JSON:
    """A page of a collection: its items, how many there are, ``self`` and ``next`` links."""
    return obj(["items", "total", "_links"], items=array(items), total=COUNT,
               _links={**obj(["self"], self=ref("Link"), next=ref("Link")), "readOnly": True})


def rows(roles: tuple[str, ...]) -> JSON:
    """``{"rows", "total"}`` of a fact type with those role nouns, as ``query`` shows them.

    >>> rows(("Book", "Book"))["properties"]["rows"]["items"]["required"]
    ['Book1', 'Book2', 'derived']
    """
    names = role_names(roles)
    row = obj([*names, "derived"], {name: TEXT for name in names}, derived={"type": "boolean"})
    return obj(["rows", "total"], rows=array(row), total=COUNT)


def bindings(roles: tuple[str, ...]) -> JSON:
    """A fact's bindings: role name → value, or the values in role order."""
    names = role_names(roles)
    by_name = closed(obj(names, {name: ATOM for name in names}))
    in_order = {**array(ATOM), "minItems": len(names), "maxItems": len(names)}
    return {"anyOf": [by_name, in_order]}


def common() -> JSON:
    """The schemas every document has: links, violations, command results, problem details
    (RFC 9457) and the answers of the routes that name no noun or fact type."""
    link = obj(["href"], href=TEXT, rel=TEXT, method=TEXT, event=TEXT, noun=TEXT,
               protocol=TEXT, type=TEXT, templated={"type": "boolean"})
    violation = obj(["kind", "modality", "reading"], constraint_id=TEXT, kind=TEXT,
                    modality={"type": "string", "enum": ["alethic", "deontic"]}, reading=TEXT,
                    detail={})
    result = obj(["rejected", "violations", "derived", "effects", "next_actions"],
                 rejected={"type": "boolean"}, violations=array(ref("Violation")),
                 derived=array({"type": "object"}), effects=array({"type": "object"}),
                 next_actions=array({"type": "object"}))
    problem = {**obj(["type", "title", "status", "code"], type=TEXT, title=TEXT,
                     status={"type": "integer"}, detail=TEXT, code=TEXT),
               "description": "An error (RFC 9457): its code and the fields that teach it."}
    rejection = {"allOf": [ref("ProblemDetails"),
                           obj(["violations"], violations=array(ref("Violation")))],
                 "description": "A rejection: the alethic violations, or an illegal transition."}
    schema = obj(["nouns", "fact_types", "constraints", "rules", "machines"],
                 **{key: array({"type": "object"})
                    for key in ("nouns", "fact_types", "constraints", "rules", "machines")})
    return {
        "Link": link,
        "Links": {**obj(["self"], self=ref("Link")), "additionalProperties": ref("Link")},
        "Violation": violation,
        "CommandResult": result,
        "ProblemDetails": problem,
        "Rejection": rejection,
        "Entry": obj(["sequence", "digest", "_links"],
                     sequence={"type": "integer", "minimum": 0},
                     digest={"type": "string", "pattern": "^v[0-9]+:[0-9a-f]{64}$"},
                     _links=ref("Links")),
        "Schema": schema,
        "Snapshots": obj(["snapshots"], snapshots=array({"type": "object"})),
        "Snapshot": obj(["id"], id=TEXT),
        "Rollback": obj(["id", "rolled_back"], id=TEXT, rolled_back={"type": "boolean"}),
        "Verification": obj(["violations", "would_reject"], violations=array(ref("Violation")),
                            would_reject={"type": "boolean"}),
        "Explanation": obj(["fact_type", "bindings", "reading", "derived", "antecedents",
                            "_links"],
                           fact_type=TEXT, bindings={"type": "object"}, reading=TEXT,
                           derived={"type": "boolean"}, antecedents=array({"type": "object"}),
                           _links={**ref("Links"), "readOnly": True}),
        "SearchResults": obj(["results"], results=array(obj(["id", "title", "url"], id=TEXT,
                                                            title=TEXT, url=TEXT))),
        "Document": obj(["id", "title", "text", "url", "metadata"], id=TEXT, title=TEXT,
                        text=TEXT, url=TEXT,
                        metadata=obj(["noun", "entityId", "status"], noun=TEXT, entityId=TEXT,
                                     status={"type": ["string", "null"]})),
        "OpenAPI": obj(["openapi", "info", "paths"], openapi=TEXT, info={"type": "object"},
                       paths={"type": "object"}),
    }
