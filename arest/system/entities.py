"""Entities as the API shows them (DESIGN §4–5): representation, links, and ``list``.

An entity of a noun is a member of its population (:mod:`arest.compiler.population`).  Its
representation holds ``id``, ``noun``, ``status`` (when the noun has a machine), one key per
field of ``resolve:<Noun>`` that has facts, and ``_links``.
"""

from __future__ import annotations

import bisect
from typing import Any

from arest.algebra import Object, State
from arest.algebra.memo import IdentityMemo
from arest.compiler.cells import resolve_cell, resolved_nouns
from arest.compiler.fields import Field
from arest.compiler.links import slug as slug
from arest.compiler.population import entity_ids, relation_in
from arest.system.errors import Refusal, closest, invalid_input
from arest.system.inputs import atom
from arest.system.links import href as href
from arest.system.links import links
from arest.system.links import plural as plural
from arest.system.machines import is_terminal


def nouns(state: State) -> list[str]:
    """Every noun D knows, the metamodel's too: those with a ``resolve:<Noun>`` cell.

    >>> import arest
    >>> known = nouns(arest.compile("Order(.id) is an entity type."))
    >>> "Order" in known, "Customer" in known, "Noun" in known
    (True, False, True)
    """
    return resolved_nouns(state)


def _decode_fields(contents: Object) -> tuple[Field, ...]:
    assert type(contents) is tuple
    return tuple(Field.from_object(item) for item in contents)


_decoded_fields = IdentityMemo(_decode_fields)
_fields_by_name = IdentityMemo(
    lambda contents: {field.name: field for field in _decoded_fields(contents)}
)


def fields(state: State, noun: str) -> tuple[Field, ...]:
    """The noun's fields; ``unknown_noun`` naming the closest nouns when D has no such noun.

    >>> import arest
    >>> D = arest.compile(ORDERS)  # Order was placed by at most one Customer (conftest.py)
    >>> [(f.name, f.fact_type, f.shape) for f in fields(D, "Order")]
    [('Customer', 'Order_was_placed_by_Customer', 'one')]
    """
    contents = state.get(resolve_cell(noun))
    if type(contents) is not tuple:
        known = nouns(state)
        raise Refusal(
            "unknown_noun", f"no noun {noun!r}", noun=noun, candidates=closest(noun, known)
        )
    return _decoded_fields(contents)


def field_named(state: State, noun: str, name: str) -> Field | None:
    """The noun's field of that name, by a memoized index (the noun must exist)."""
    contents = state.get(resolve_cell(noun))
    return _fields_by_name(contents).get(name) if type(contents) is tuple else None


def fields_by_name(state: State, noun: str) -> dict[str, Field]:
    """The noun's fields by name: one memoized dict per ``resolve:<Noun>`` cell, the same
    object while the cell is (empty when D has no such noun).  Read, never changed.

    >>> import arest
    >>> D = arest.compile(ORDERS)  # Order was placed by at most one Customer (conftest.py)
    >>> sorted(fields_by_name(D, "Order")), fields_by_name(D, "Order") is fields_by_name(D, "Order")
    (['Customer'], True)
    """
    contents = state.get(resolve_cell(noun))
    return _fields_by_name(contents) if type(contents) is tuple else {}


def field_value(state: State, field: Field, entity: str, out: dict[str, Any]) -> None:
    """The field's value for entity in out, from state's facts, as a representation shows
    it: nothing where it has none, True for a flag, a dict per fact for rows, the other
    role's value (or all of them, sorted, for ``many``)."""
    relation = relation_in(state, field.fact_type)
    facts = sorted(relation.matching(field.role, entity)) if relation is not None else []
    if not facts:
        return
    if field.shape == "flag":
        out[field.name] = True
    elif field.shape == "rows":
        out[field.name] = [{key: fact[role] for key, role in field.keys} for fact in facts]
    else:
        found = [fact[field.keys[0][1]] for fact in facts]
        out[field.name] = found[0] if field.shape == "one" else found


def represent(state: State, noun: str, entity: str) -> dict[str, Any]:
    """The entity representation of DESIGN §5 (``_links``: :mod:`arest.system.links`)."""
    out: dict[str, Any] = {"id": entity, "noun": noun}
    values: dict[str, Any] = {}
    for field in fields(state, noun):
        field_value(state, field, entity, values)
    if "status" in values:
        out["status"] = values.pop("status")
    out.update(values)
    out["_links"] = links(state, noun, entity)
    return out


def _matches(entity: dict[str, Any], key: str, wanted: Any) -> bool:
    value = entity.get(key)
    if isinstance(value, list):
        return wanted in value
    return bool(value == wanted)


def _filter(state: State, noun: str, raw: Any) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise invalid_input("$.filter", "an object of field names to values")
    names = {"id", "status", *(field.name for field in fields(state, noun)),
             *(field.fact_type for field in fields(state, noun))}
    wanted: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in names:
            raise Refusal("unknown_field", f"{noun} has no field {key!r}", field=key,
                          candidates=closest(key, names - {"id"}))
        if isinstance(value, bool):
            pass
        elif isinstance(value, int | float):
            value = str(value)
        elif not isinstance(value, str):
            raise invalid_input(f"$.filter.{key}", "a string, a number or a boolean")
        by_fact_type = {field.fact_type: field.name for field in fields(state, noun)}
        name = str(key)
        wanted[by_fact_type.get(name, name)] = value
    return wanted


def _count(raw: Any, path: str) -> int | None:
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
        raise invalid_input(path, "a whole number ≥ 0")
    return raw


def page(ids: list[str], after: str | None, limit: int | None) -> tuple[list[str], int]:
    """The ids after ``after`` (the sorted ids, those greater), at most ``limit`` of them, and
    how many ids there are in all: a page of a collection ordered by id, which an insert
    or delete elsewhere in the collection never shifts.

    >>> page(["a", "b", "c"], "a", 1)
    (['b'], 3)
    """
    rest = ids if after is None else ids[bisect.bisect_right(ids, after):]
    return (rest if limit is None else rest[:limit]), len(ids)


def list_entities(state: State, noun: str, request: Any) -> dict[str, Any]:
    """``list:<Noun>``: ``{"items", "total"}``, filtered, ordered by id, then those after
    ``after`` (an id), offset and limit; ``total`` counts every entity the filter keeps.

    >>> import arest
    >>> D = arest.compile(ORDERS)  # Order was placed by at most one Customer (conftest.py)
    >>> _, D = arest.apply(D, "create:Order", {"id": "o1", "Customer": "acme"})
    >>> _, D = arest.apply(D, "create:Order", {"id": "o2"})
    >>> listed = list_entities(D, "Order", {"filter": {"Customer": "acme"}})
    >>> [item["id"] for item in listed["items"]], listed["total"]
    (['o1'], 1)
    """
    if request is None:
        request = {}
    if not isinstance(request, dict):
        raise invalid_input("$", "an object with optional filter, limit, offset, after,"
                            " include_terminal")
    allowed = {"filter", "limit", "offset", "after", "include_terminal"}
    for key in request:
        if key not in allowed:
            raise invalid_input(f"$.{key}", "one of " + ", ".join(sorted(allowed)))
    if not isinstance(request.get("include_terminal", False), bool):
        raise invalid_input("$.include_terminal", "true or false")
    fields(state, noun)  # an unknown noun is an error before anything else
    wanted = _filter(state, noun, request.get("filter"))
    limit = _count(request.get("limit"), "$.limit")
    offset = _count(request.get("offset"), "$.offset") or 0
    ids = entity_ids(state, noun)
    if not request.get("include_terminal", False):
        # Deletion is a transition to a terminal status: such entities stay in P, unlisted.
        ids = [entity for entity in ids if not is_terminal(state, noun, entity)]
    after = request.get("after")
    if after is not None:
        after = atom(after, "$.after")
    items = [represent(state, noun, entity) for entity in ids]
    items = [item for item in items if all(_matches(item, k, v) for k, v in wanted.items())]
    kept = [item["id"] for item in items]
    start = offset + (0 if after is None else bisect.bisect_right(kept, after))
    shown = items[start:] if limit is None else items[start:start + limit]
    return {"items": shown, "total": len(items)}
