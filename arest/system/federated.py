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
from typing import Any

from arest.algebra import State
from arest.algebra.relations import Fact
from arest.compiler.change import Change
from arest.compiler.fields import Field
from arest.compiler.population import exists
from arest.system.derive import derived_mode
from arest.system.entities import fields
from arest.system.entity_verbs import create_entity, set_fields, settle
from arest.system.errors import invalid_input


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


def item_fields(state: State, noun: str, item: Any, path: str) -> tuple[str, dict[str, Any]]:
    """The item's entity id and the values of the noun's own fields it names."""
    if not isinstance(item, dict):
        raise invalid_input(path, f"an object: one {noun}")
    change = Change(state)
    scheme = change.reference(noun)
    key = "id" if "id" in item else (scheme[0] if len(scheme) == 1 else "id")
    raw = item.get(key)
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        raise invalid_input(f"{path}.id", f"the {noun}'s id, a string or a number")
    values = {}
    for field in own_fields(state, noun):
        if field.name in item and field.name not in scheme:
            mapped = _mapped(item[field.name])
            if mapped is not None:
                values[field.name] = mapped
    return str(raw), values


def joined(state: State, noun: str, items: Iterable[Any]) -> State:
    """D with the items' entities and facts (and what rules derive from them)."""
    return joined_all(state, [(noun, items)])[0]


def joined_all(state: State, batches: Iterable[tuple[str, Iterable[Any]]]
               ) -> tuple[State, list[set[tuple[str, Fact]]]]:
    """D with each batch's entities and facts, derived facts settled once, and the facts each
    batch asserted (those D held already are local, so no batch's)."""
    change = Change(state)
    asserted: list[set[tuple[str, Fact]]] = []
    for noun, items in batches:
        before = {fact_type: set(facts) for fact_type, facts in change.delta.added.items()}
        for position, item in enumerate(items):
            path = f"$[{position}]"
            entity, values = item_fields(state, noun, item, path)
            if exists(change.state, noun, entity):
                change.touch(noun, entity)
                set_fields(change, noun, entity, values, path, replace=False)
            else:
                create_entity(change, noun, {"id": entity, **values}, path)
        asserted.append({(fact_type, fact) for fact_type, facts in change.delta.added.items()
                         for fact in facts - before.get(fact_type, set())})
    after, _, _ = settle(state, change)
    return after, asserted
