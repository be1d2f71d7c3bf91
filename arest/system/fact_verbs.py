"""assert, retract, verify, query and project: facts by fact type (DESIGN §4).

``query`` and ``project`` are restrictions and projections, Codd's σ and π, over one fact
type's relation or one noun's entities; rows are ordered by their values.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arest.algebra import State
from arest.algebra.relations import Relation
from arest.compiler.cells import resolve_cell
from arest.compiler.change import Change
from arest.compiler.fields import status_fact_type
from arest.compiler.population import entity_ids, role_nouns
from arest.system.derive import derived_mode, is_derived
from arest.system.entities import fields, represent
from arest.system.entity_verbs import Output, command_result, settle
from arest.system.errors import Refusal, closest, invalid_input
from arest.system.inputs import atom, bindings_fact, fact_type_of, role_names
from arest.system.machines import start
from arest.system.validate import alethic, violations


def _writable(state: State, request: Any, path: str = "$"
              ) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The fact a write names, refusing fact types only derivation or a machine maintains."""
    if not isinstance(request, dict):
        raise invalid_input(path, "an object with fact_type and bindings")
    if not isinstance(request.get("fact_type"), str):
        raise invalid_input(f"{path}.fact_type", "a fact type id")
    fact_type, roles = fact_type_of(state, request)
    if fact_type == status_fact_type(roles[0]):
        raise Refusal("derived_fact_type", f"{fact_type} is maintained by the state machine",
                      fact_type=fact_type)
    if derived_mode(state, fact_type) in ("*", "**"):
        raise Refusal("derived_fact_type", f"{fact_type} is derived; it cannot be asserted",
                      fact_type=fact_type)
    if set(request) - {"fact_type", "bindings"}:
        extra = sorted(set(request) - {"fact_type", "bindings"})[0]
        raise invalid_input(f"{path}.{extra}", "only fact_type and bindings")
    return fact_type, roles, bindings_fact(roles, request.get("bindings"), f"{path}.bindings")


def _described(fact_type: str, roles: tuple[str, ...], fact: tuple[str, ...]) -> Output:
    return {"fact_type": fact_type, "bindings": dict(zip(role_names(roles), fact, strict=True))}


def _writes(state: State, request: Any) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """The facts a write names: one (``{fact_type, bindings}``) or several
    (``{"facts": [{fact_type, bindings}, …]}``)."""
    if not (isinstance(request, dict) and "facts" in request):
        return [_writable(state, request)]
    if set(request) != {"facts"}:
        raise invalid_input(f"$.{sorted(set(request) - {'facts'})[0]}", "only facts")
    items = request["facts"]
    if not isinstance(items, list) or not items:
        raise invalid_input("$.facts", "a non-empty list of objects with fact_type and bindings")
    return [_writable(state, item, f"$.facts[{i}]") for i, item in enumerate(items)]


def _write(state: State, request: Any, adding: bool) -> tuple[Output, State]:
    """One command for every fact named: all enter (or leave) P, or none; the constraints
    are checked on the combined result."""
    writes = _writes(state, request)
    change = Change(state)
    for fact_type, _, fact in writes:
        (change.add if adding else change.remove)(fact_type, fact)
    out, after = command_result(state, change)
    described = [_described(*write) for write in writes]
    if isinstance(request, dict) and "facts" in request:
        out["facts"] = described
    else:
        out["fact"] = described[0]
    return out, after


def assert_fact(state: State, request: Any) -> tuple[Output, State]:
    """``assert {fact_type, bindings}`` or ``assert {facts: [{fact_type, bindings}, …]}``:
    the command result of asserting the facts, and D′.

    >>> import arest
    >>> D = arest.compile(ORDERS)  # Order was placed by at most one Customer (conftest.py)
    >>> placed = {"fact_type": "Order_was_placed_by_Customer", "bindings": ["o1", "acme"]}
    >>> out, D = assert_fact(D, placed)
    >>> out["rejected"], out["fact"]["bindings"]
    (False, {'Order': 'o1', 'Customer': 'acme'})
    """
    return _write(state, request, adding=True)


def retract_fact(state: State, request: Any) -> tuple[Output, State]:
    """``retract``, in the shapes ``assert`` takes."""
    return _write(state, request, adding=False)


def verify(state: State, request: Any) -> Output:
    """What asserting the fact would report, without asserting it.

    >>> import arest
    >>> D = arest.compile(ORDERS)  # Order was placed by at most one Customer (conftest.py)
    >>> placed = {"fact_type": "Order_was_placed_by_Customer", "bindings": ["o1", "acme"]}
    >>> _, D = assert_fact(D, placed)
    >>> verify(D, {**placed, "bindings": ["o1", "bolt"]})["would_reject"]
    True
    """
    fact_type, _, fact = _writable(state, request)
    change = Change(state)
    change.add(fact_type, fact)
    start(change)
    after, delta, _ = settle(state, change)
    found = violations(after, delta)
    return {"violations": found, "would_reject": bool(alethic(found))}


def _matches(row: dict[str, Any], wanted: dict[str, Any]) -> bool:
    for key, value in wanted.items():
        held = row.get(key)
        if not (value in held if isinstance(held, list) else held == value):
            return False
    return True


def _filter(raw: Any, names: list[str], path: str) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise invalid_input(path, "an object of names to values")
    for key in raw:
        if key not in names:
            raise Refusal("unknown_field", f"no role or field {key!r}", field=key,
                          candidates=closest(str(key), names))
    return {key: atom(value, f"{path}.{key}") if not isinstance(value, bool) else value
            for key, value in raw.items()}


def query(state: State, fact_type: str, request: Any) -> Output:
    """``query:<fact type>``: its facts as rows keyed by role name, filtered.

    >>> import arest
    >>> D = arest.compile(ORDERS)  # Order was placed by at most one Customer (conftest.py)
    >>> placed = {"fact_type": "Order_was_placed_by_Customer", "bindings": ["o1", "acme"]}
    >>> _, D = assert_fact(D, placed)
    >>> query(D, "Order_was_placed_by_Customer", None)
    {'rows': [{'Order': 'o1', 'Customer': 'acme', 'derived': False}], 'total': 1}
    """
    _, roles = fact_type_of(state, {"fact_type": fact_type})
    wanted = _filter(request, role_names(roles), "$")
    relation = state.get(fact_type)
    if not isinstance(relation, Relation):
        return {"rows": [], "total": 0}
    found = [row for row in rows(state, fact_type, sorted(relation)) if _matches(row, wanted)]
    return {"rows": found, "total": len(found)}


def rows(state: State, fact_type: str, facts: Iterable[tuple[str, ...]]) -> list[Output]:
    """The facts of a fact type as ``query`` shows them: role name → value, and whether each
    was derived."""
    _, roles = fact_type_of(state, {"fact_type": fact_type})
    names = role_names(roles)
    relation = state.get(fact_type)
    assert isinstance(relation, Relation)
    return [{**dict(zip(names, fact, strict=True)),
             "derived": is_derived(relation.payload(fact))} for fact in facts]


def _names_a_noun(state: State, name: Any) -> bool:
    """Whether a ``fact_type`` names no fact type but a noun (``project {fact_type: "Order"}``
    projects the Orders)."""
    return isinstance(name, str) and not role_nouns(state, name) and type(
        state.get(resolve_cell(name))) is tuple


def project(state: State, request: Any) -> Output:
    """``project``: the distinct rows of the chosen roles (or fields) of a fact type (or a
    noun's entities, named by ``noun`` or by a ``fact_type`` that is a noun's name), after a
    restriction."""
    if not isinstance(request, dict) or ("fact_type" in request) == ("noun" in request):
        raise invalid_input("$", "an object with fact_type or noun, and filter?, roles?")
    if _names_a_noun(state, request.get("fact_type")):
        request = {("noun" if key == "fact_type" else key): value
                   for key, value in request.items()}
    extra = sorted(set(request) - {"fact_type", "noun", "filter", "roles"})
    if extra:
        raise invalid_input(f"$.{extra[0]}", "only fact_type or noun, filter, roles")
    if "fact_type" in request:
        found = query(state, request["fact_type"], None)["rows"]
        rows = [{k: v for k, v in row.items() if k != "derived"} for row in found]
        names = role_names(fact_type_of(state, request)[1])
    else:
        noun = request["noun"]
        if not isinstance(noun, str):
            raise invalid_input("$.noun", "a noun name")
        names = ["id", *(field.name for field in fields(state, noun))]
        rows = [
            {k: v for k, v in represent(state, noun, entity).items() if k in names}
            for entity in entity_ids(state, noun)
        ]
    wanted = _filter(request.get("filter"), names, "$.filter")
    chosen = request.get("roles", names)
    if not isinstance(chosen, list) or not all(isinstance(name, str) for name in chosen):
        raise invalid_input("$.roles", "a list of role or field names")
    for name in chosen:
        if name not in names:
            raise Refusal("unknown_field", f"no role or field {name!r}", field=name,
                          candidates=closest(name, names))
    distinct: dict[str, dict[str, Any]] = {}
    for row in rows:
        if _matches(row, wanted):
            picked = {name: row.get(name) for name in chosen}
            distinct.setdefault(repr(sorted(picked.items())), picked)
    return {"rows": [distinct[key] for key in sorted(distinct)]}
