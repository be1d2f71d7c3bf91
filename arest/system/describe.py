"""The ``schema`` key: nouns, fact types, constraints, rules and machines — the tenant's own,
all of them with the metamodel's, or around one noun or one fact type (DESIGN §4)."""

from __future__ import annotations

from typing import Any

from arest.algebra import State
from arest.compiler.rmap import Tables, Views, relational_schema, views_of
from arest.compiler.schema import Schema, schema_of
from arest.forml2 import metamodel
from arest.system.errors import Refusal, closest, invalid_input
from arest.system.search import tenant_fact_types


def _noun(schema: Schema, name: str) -> dict[str, Any]:
    info = schema.nouns[name]
    out: dict[str, Any] = {"name": name, "kind": info.kind}
    if info.reference:
        out["reference_scheme"] = list(info.reference)
    if info.supertypes:
        out["supertypes"] = list(info.supertypes)
    if info.plural:
        out["plural"] = info.plural
    return out


def _fact_type(schema: Schema, fact_type: str) -> dict[str, Any]:
    info = schema.fact_types[fact_type]
    out: dict[str, Any] = {
        "id": fact_type,
        "readings": list(info.readings),
        "roles": [{"noun": noun, "position": index} for index, noun in enumerate(info.roles)],
    }
    if info.mode:
        out["derivation_mode"] = info.mode
    return out


def _where(sql: tuple[Tables, Views], fact_type: str) -> dict[str, Any] | None:
    """Where the fact type's facts are in the relational schema (``arest sql``): its table
    and, per role, its column (a list of columns for an entity with a compound reference);
    for a unary in its entity's table, ``flag``: the BOOLEAN column that is TRUE for a fact;
    for a derived fact type that is a view, the view, with ``"view": true``; None for
    another derived fact type or the metamodel's."""
    tables, views = sql
    placement = tables.placement(fact_type)
    if placement is None:
        view = views.view(fact_type)
        if view is None:
            return None
        return {"table": view.name, "columns": [cell[0] if len(cell) == 1 else list(cell)
                                                for cell in view.placement], "view": True}
    where: dict[str, Any] = {
        "table": placement.table,
        "columns": [cell[0] if len(cell) == 1 else list(cell) for cell in placement.columns]}
    if placement.flag:
        where["flag"] = placement.flag
    return where


def _view(schema: Schema, nouns: list[str], fact_types: list[str],
          sql: tuple[Tables, Views] | None = None) -> dict[str, Any]:
    chosen = set(fact_types)
    constraints = [
        c for c in schema.constraints.values()
        if any(span[0] in chosen for span in c.spans) or c.noun in nouns
    ]
    rules = [r for r in schema.rules.values() if r.fact_type in chosen]
    machines = [m for m in schema.machines.values() if m.noun in nouns]
    return {
        "nouns": [_noun(schema, name) for name in nouns],
        "fact_types": [
            _fact_type(schema, fact_type) if sql is None
            else {**_fact_type(schema, fact_type), "sql": _where(sql, fact_type)}
            for fact_type in fact_types
        ],
        "constraints": [
            {"id": c.id, "kind": c.kind, "modality": c.modality, "reading": c.reading}
            for c in constraints
        ],
        "rules": [
            {"id": r.id, "reading": r.reading, "fact_type": r.fact_type, "mode": r.mode}
            for r in rules
        ],
        "machines": [
            {
                "id": m.id, "noun": m.noun, "initial": list(m.initial),
                "statuses": list(m.statuses), "terminal": list(m.terminal),
                "transitions": [
                    {"name": t.name, "from": list(t.sources), "to": list(t.targets),
                     "event": t.event}
                    for t in m.transitions
                ],
            }
            for m in machines
        ],
    }


def _tenant_view(state: State, schema: Schema, sql: tuple[Tables, Views] | None
                 ) -> dict[str, Any]:
    """The tenant's own schema: the fact types its readings declare, the nouns they declare
    or play roles in, and what constrains, derives or moves them."""
    bundled = metamodel().schema.metamodel
    fact_types = tenant_fact_types(state)
    nouns = {name for name in schema.nouns if name not in bundled}
    nouns.update(noun for f in fact_types for noun in schema.fact_types[f].roles)
    return _view(schema, [name for name in schema.nouns if name in nouns], fact_types, sql)


def describe(state: State, request: Any) -> dict[str, Any]:
    """``schema`` with ``{}`` (the tenant's own), ``{"all": true}`` (with the metamodel),
    ``{"noun"}`` or ``{"fact_type"}``; ``"sql": true`` beside any of them gives each fact
    type ``"sql"``: where its facts are in the relational schema (DESIGN §10).

    >>> import arest
    >>> D = arest.compile(ORDERS)  # Order was placed by at most one Customer (conftest.py)
    >>> [n["name"] for n in describe(D, {})["nouns"]]
    ['Customer', 'Order']
    >>> describe(D, {"noun": "Order"})["constraints"][0]["reading"]
    'Each Order was placed by at most one Customer.'
    >>> describe(D, {"fact_type": "Order_was_placed_by_Customer", "sql": True}
    ...          )["fact_types"][0]["sql"]
    {'table': 'order', 'columns': ['id', 'customer']}
    """
    request = {} if request is None else request
    shapes = ('{}, {"all": true}, {"noun": name} or {"fact_type": id},'
              ' each with "sql": true or not')
    if not isinstance(request, dict) or len(set(request) - {"sql"}) > 1 or not set(request) <= {
        "noun", "fact_type", "all", "sql"
    }:
        raise invalid_input("$", shapes)
    for flag in ("all", "sql"):
        if flag in request and not isinstance(request[flag], bool):
            raise invalid_input(f"$.{flag}", "true or false")
    schema = schema_of(state)
    sql: tuple[Tables, Views] | None = None
    if request.get("sql"):
        tables = relational_schema(schema)
        sql = (tables, views_of(state, tables))
    if "noun" in request:
        noun = request["noun"]
        if not isinstance(noun, str):
            raise invalid_input("$.noun", "a noun name")
        if noun not in schema.nouns:
            raise Refusal("unknown_noun", f"no noun {noun!r}", noun=noun,
                          candidates=closest(noun, schema.nouns))
        return _view(schema, [noun], [f.id for f in schema.played_by(noun)], sql)
    if "fact_type" in request:
        fact_type = request["fact_type"]
        if not isinstance(fact_type, str):
            raise invalid_input("$.fact_type", "a fact type id")
        if fact_type not in schema.fact_types:
            raise Refusal("unknown_fact_type", f"no fact type {fact_type!r}",
                          fact_type=fact_type, candidates=closest(fact_type, schema.fact_types))
        return _view(schema, list(dict.fromkeys(schema.fact_types[fact_type].roles)), [fact_type],
                     sql)
    if request.get("all"):
        return _view(schema, list(schema.nouns), list(schema.fact_types), sql)
    return _tenant_view(state, schema, sql)
