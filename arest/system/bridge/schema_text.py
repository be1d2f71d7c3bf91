"""The schema as a prompt shows it: one compact line per noun, fact type and rule, from the
views the ``schema`` key gives (:mod:`arest.system.describe`).

A fact type's line names the role names bindings, filters and rows use (the role's noun,
numbered where a noun repeats), so that what the LLM answers can be run as it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence, Set
from typing import Any

from arest.algebra import State
from arest.compiler.schema import schema_of
from arest.system.entities import fields
from arest.system.inputs import role_names


def rule_modes(rules: Iterable[dict[str, Any]]) -> dict[str, set[str]]:
    """Each derived fact type's rule modes (``*``, ``**``, ``+``), from a view's rules."""
    modes: dict[str, set[str]] = {}
    for rule in rules:
        modes.setdefault(rule["fact_type"], set()).add(rule["mode"])
    return modes


def fact_type_line(fact_type: dict[str, Any], modes: Set[str] = frozenset()) -> str:
    """``- <id>: <readings>; roles: <role names>``, marked when derived (its facts come from
    rules only: declared ``*``/``**``, or its rules' modes say so) or partly derived (``+``).

    >>> fact_type_line({"id": "Person_knows_Person", "readings": ["Person knows Person"],
    ...                 "roles": [{"noun": "Person", "position": 0},
    ...                           {"noun": "Person", "position": 1}]}, {"+"})
    '- Person_knows_Person: Person knows Person; roles: Person1, Person2 (also derived)'
    """
    roles = role_names(tuple(role["noun"] for role in fact_type["roles"]))
    line = (f"- {fact_type['id']}: {' / '.join(fact_type['readings']) or fact_type['id']}; "
            f"roles: {', '.join(roles)}")
    every = {fact_type.get("derivation_mode"), *modes}
    if every & {"*", "**"}:
        return line + " (derived)"
    return line + (" (also derived)" if "+" in every else "")


def noun_line(state: State, noun: dict[str, Any], statuses: Sequence[str] = (),
              allowed: Sequence[str] = ()) -> str:
    """``- <name>: <kind>``, with an entity type's field names and its machine's statuses,
    or a value type's possible values."""
    line = f"- {noun['name']}: {noun['kind']} type"
    if noun["kind"] != "entity":
        return line + ("; possible values: " + ", ".join(allowed) if allowed else "")
    names = ["id", *(field.name for field in fields(state, noun["name"]))]
    line += "; fields: " + ", ".join(names)
    return line + ("; statuses: " + ", ".join(statuses) if statuses else "")


def schema_lines(state: State, view: dict[str, Any]) -> list[str]:
    """A ``schema`` view as prompt lines: nouns, fact types, then derivation rules."""
    allowed = {c.noun: c.allowed for c in schema_of(state).constraints.values()
               if c.kind == "VC" and c.noun and c.allowed}
    statuses = {machine["noun"]: machine["statuses"] for machine in view["machines"]}
    modes = rule_modes(view["rules"])
    lines = ["Nouns:"]
    lines += [noun_line(state, noun, statuses.get(noun["name"], ()), allowed.get(noun["name"], ()))
              for noun in view["nouns"]]
    lines += ["", "Fact types (id: reading; role names):"]
    lines += [fact_type_line(fact_type, modes.get(fact_type["id"], set()))
              for fact_type in view["fact_types"]]
    if view["rules"]:
        lines += ["", "Derivation rules (how derived fact types get their facts):"]
        lines += [f"- {rule['reading']}" for rule in view["rules"]]
    return lines
