"""Facts from an external system, joined to D for one command (DESIGN §13).

    joined(D, noun, items) = D with each item's entity and its facts, derived facts settled

A noun backed by an external system takes its population from that system: the runtime
fetches the JSON items a command reads and joins them here, for that command only (the
joined D is never kept).  An item is a JSON object; it maps to facts by name:

- ``id`` (or the reference scheme's value type name, as for ``create``) is the entity's id;
- a key naming one of the noun's *own* fields (a fact type whose first role the noun plays,
  not fully derived) gives that field's facts: a string as it is, a number as its JSON
  text, ``true`` for a unary field, a list for a list field;
- every other key (``noun``, ``status``, ``_links``, unknown names, objects, ``null``) is
  left out, so another arest's representation maps as it is.

The join is open-world: it asserts, never checks constraints, so a constraint over federated
facts cannot reject the command that reads them.  An entity D holds already (local facts
about it) gains the fetched facts.

>>> import arest
>>> D = arest.compile("Customer(.Customer Id) is an entity type.\\n"
...                   "Customer has Name.\\n  Each Customer has at most one Name.")
>>> J = joined(D, "Customer", [{"id": "acme", "Name": "Acme", "noun": "Customer", "x": 1}])
>>> arest.apply(J, "read:Customer", "acme")[0]["Name"]
'Acme'
>>> arest.apply(D, "list:Customer")[0]["total"]
0
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from arest.algebra import State
from arest.algebra.relations import Fact
from arest.compiler.change import Change
from arest.compiler.fields import Field
from arest.compiler.population import exists
from arest.system.derive import derived_mode
from arest.system.entities import field_named, fields
from arest.system.entity_verbs import create_entity, set_fields, settle
from arest.system.errors import invalid_input
from arest.system.inputs import atom


def own_fields(state: State, noun: str) -> tuple[Field, ...]:
    """The noun's fields whose fact type it plays first and no rule fully derives: the
    facts its system supplies (what rules derive here is derived from them, not fetched)."""
    change = Change(state)
    return tuple(field for field in fields(state, noun)
                 if field.role == 0 and change.roles(field.fact_type)[:1] == (noun,)
                 and not derived_mode(state, field.fact_type))


def _value(value: Any) -> Any:
    """A JSON scalar as a field value (None: not mapped)."""
    if isinstance(value, bool):
        return True if value else None
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return json.dumps(value)
    return None


def _mapped(value: Any) -> Any:
    if isinstance(value, list):
        values = [_value(each) for each in value]
        kept = [each for each in values if each is not None and each is not True]
        return kept or None
    return _value(value)


@dataclass(frozen=True)
class _Mapping:
    """How a noun's items map to facts, worked out once per join: its reference scheme, its
    own fields, and, when each of their facts can be added directly (one entity type with a
    one-part reference; flags and binary fields that may be given), the field each name
    writes; otherwise (None) every item is created as ``create`` would."""

    noun: str
    scheme: tuple[str, ...]
    own: tuple[Field, ...]
    direct: dict[str, Field] | None


def _mapping(state: State, noun: str) -> _Mapping:
    change = Change(state)
    scheme = change.reference(noun)
    own = own_fields(state, noun)
    direct: dict[str, Field] | None = {}
    for field in own:
        written = field_named(state, noun, field.name)
        if (direct is None or written is None or written.shape not in _DIRECT
                or (written.shape != "flag" and len(written.keys) != 1)
                or (written.fact_type.endswith("_has_Status") and written.name == "status")
                or derived_mode(state, written.fact_type) in ("*", "**")):
            direct = None
            continue
        direct[field.name] = written
    if len(scheme) != 1 or not change.is_entity_type(noun):
        direct = None
    return _Mapping(noun, scheme, own, direct)


_DIRECT = frozenset({"flag", "one", "many"})


def _item(mapping: _Mapping, item: Any, path: str) -> tuple[str, dict[str, Any]]:
    noun, scheme = mapping.noun, mapping.scheme
    if not isinstance(item, dict):
        raise invalid_input(path, f"an object: one {noun}")
    key = "id" if "id" in item else (scheme[0] if len(scheme) == 1 else "id")
    raw = item.get(key)
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        raise invalid_input(f"{path}.id", f"the {noun}'s id, a string or a number")
    values = {}
    for field in mapping.own:
        if field.name in item and field.name not in scheme:
            mapped = _mapped(item[field.name])
            if mapped is not None:
                values[field.name] = mapped
    return str(raw), values


def item_fields(state: State, noun: str, item: Any, path: str) -> tuple[str, dict[str, Any]]:
    """The item's entity id and the values of the noun's own fields it names."""
    return _item(_mapping(state, noun), item, path)


def _direct_facts(noun: str, fields_named: dict[str, Field], entity: str,
                  values: dict[str, Any], path: str) -> list[tuple[str, Fact]]:
    """The facts ``set_fields`` adds for these values (flags and binary fields), refused
    as it refuses them."""
    out: list[tuple[str, Fact]] = []
    for name, value in values.items():
        where = f"{path}.{name}"
        field = fields_named[name]
        if field.shape == "flag":
            if not isinstance(value, bool):
                raise invalid_input(where, "true or false")
            if value:
                out.append((field.fact_type, (entity,)))
            continue
        if field.shape == "one" and isinstance(value, list):
            raise invalid_input(where, f"one value: each {noun} has at most one {field.name}")
        other = field.keys[0][1]
        for index, each in enumerate(value if isinstance(value, list) else [value]):
            fact = [entity, entity]
            fact[other] = atom(each, f"{where}[{index}]" if isinstance(value, list) else where)
            out.append((field.fact_type, tuple(fact)))
    return out


@dataclass(frozen=True)
class Joined:
    """D with the fetched facts joined, and per batch the facts it asserted and the ids of
    the entities its items name."""

    state: State
    asserted: list[set[tuple[str, Fact]]]
    ids: list[frozenset[str]]


def joined(state: State, noun: str, items: Iterable[Any]) -> State:
    """D with the items' entities and facts (and what rules derive from them)."""
    return joined_all(state, [(noun, items)]).state


def joined_all(state: State, batches: Iterable[tuple[str, Iterable[Any]]]) -> Joined:
    """D with each batch's entities and facts, derived facts settled once, the facts each
    batch asserted (those D held already are local, so no batch's) and the ids of its items.

    A batch whose facts can be added directly is mapped item by item (refused where
    ``create`` would refuse) and its facts added in one pass per fact type; the state and
    the delta are those creating the items one at a time reaches."""
    change = Change(state)
    asserted: list[set[tuple[str, Fact]]] = []
    ids: list[frozenset[str]] = []
    for noun, items in batches:
        before = {fact_type: set(facts) for fact_type, facts in change.delta.added.items()}
        mapping = _mapping(state, noun)
        if mapping.direct is not None:
            ids.append(_join_direct(change, mapping, mapping.direct, items))
        else:
            ids.append(_join_each(change, mapping, items))
        asserted.append({(fact_type, fact) for fact_type, facts in change.delta.added.items()
                         for fact in facts - before.get(fact_type, set())})
    after, _, _ = settle(state, change)
    return Joined(after, asserted, ids)


def _join_direct(change: Change, mapping: _Mapping, fields_named: dict[str, Field],
                 items: Iterable[Any]) -> frozenset[str]:
    entities: dict[str, None] = {}
    facts: dict[str, list[Fact]] = {}
    for position, item in enumerate(items):
        path = f"$[{position}]"
        entity, values = _item(mapping, item, path)
        if entity not in entities and not exists(change.state, mapping.noun, entity):
            atom(entity, f"{path}.id")  # the id create would refuse
        entities[entity] = None
        for fact_type, fact in _direct_facts(mapping.noun, fields_named, entity, values, path):
            facts.setdefault(fact_type, []).append(fact)
    change.touch_many(mapping.noun, entities)
    for fact_type, batch in facts.items():
        change.add_all(fact_type, batch)
    return frozenset(entities)


def _join_each(change: Change, mapping: _Mapping, items: Iterable[Any]) -> frozenset[str]:
    entities: set[str] = set()
    for position, item in enumerate(items):
        path = f"$[{position}]"
        entity, values = _item(mapping, item, path)
        entities.add(entity)
        if exists(change.state, mapping.noun, entity):
            change.touch(mapping.noun, entity)
            set_fields(change, mapping.noun, entity, values, path, replace=False)
        else:
            create_entity(change, mapping.noun, {"id": entity, **values}, path)
    return frozenset(entities)
