"""create, update, read and get: entities through their fields (DESIGN §4).

create = emit ∘ validate ∘ derive ∘ resolve.  *resolve* determines identity from the
reference scheme and turns fields into facts (children created in the same command);
*derive* brings the derived facts to the new fixed point from the delta
(:mod:`arest.system.derive`); *validate* checks the constraints the delta — asserted and
derived — woke; *emit* builds the command result.  An alethic violation rejects: D′ = D.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arest import system
from arest.algebra import State
from arest.algebra.memo import IdentityMemo
from arest.algebra.relations import Relation
from arest.compiler.cells import counter_cell
from arest.compiler.change import Change, Delta
from arest.compiler.derivations import Program
from arest.compiler.fields import Field
from arest.compiler.machines import Transition
from arest.compiler.population import exists
from arest.system.derive import Changes, derived_mode, program_of, relation_of
from arest.system.entities import field_named, fields, fields_by_name, represent, slug
from arest.system.errors import Refusal, closest, invalid_input
from arest.system.inputs import atom, entity_id, role_names
from arest.system.machines import effects, fire, next_actions, start, triggered
from arest.system.validate import alethic, violations

Output = dict[str, Any]
AUTOMATIC_ROUNDS = 16
"""How many rounds of transitions fired by facts a command may take: a machine whose
triggers keep firing stops there, in the status it reached."""


def _auto_id(change: Change, noun: str) -> str:
    """``<noun-slug>-<n>`` from the noun's counter, skipping ids already in use."""
    contents = change.state.get(counter_cell(noun))
    n = int(contents) if type(contents) is str and contents.isdigit() else 0
    while True:
        n += 1
        candidate = f"{slug(noun)}-{n}"
        if not exists(change.state, noun, candidate):
            change.state = change.state.set(counter_cell(noun), str(n))
            return candidate


def _field(state: State, noun: str, name: str, path: str) -> Field:
    named = field_named(state, noun, name)
    if named is not None:
        return named
    known = fields(state, noun)
    matches = [field for field in known if field.fact_type == name]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise Refusal("ambiguous_field", f"{noun} plays {name} in more than one role",
                      field=name, candidates=[field.name for field in matches])
    raise Refusal("unknown_field", f"{noun} has no field {name!r}", field=name,
                  candidates=closest(name, [field.name for field in known]))


def _identity(
    change: Change, noun: str, request: dict[str, Any], path: str
) -> tuple[str, set[str]]:
    """The new entity's id and the request keys that named it."""
    scheme = change.reference(noun)
    used = {"id"} if "id" in request else set()
    given = atom(request["id"], f"{path}.id") if "id" in request else None
    if len(scheme) == 1:
        alias = scheme[0]
        if alias != "id" and alias in request:
            value = atom(request[alias], f"{path}.{alias}")
            if given is not None and value != given:
                raise invalid_input(f"{path}.{alias}", f"the same value as id ({given!r})")
            given = value
            used.add(alias)
        return (given if given is not None else _auto_id(change, noun)), used
    if all(component in request for component in scheme):
        parts = [atom(request[component], f"{path}.{component}") for component in scheme]
        joined = "-".join(parts)
        if given is not None and given != joined:
            raise invalid_input(f"{path}.id", f"the components joined by '-' ({joined!r})")
        return joined, used
    if given is not None:
        return given, used
    raise invalid_input(path, f"id, or the reference components {', '.join(scheme)}")


def _components(change: Change, noun: str, entity: str, request: dict[str, Any]) -> None:
    """A compound reference's components as facts, split from the id when not given."""
    scheme = change.reference(noun)
    if len(scheme) < 2:
        return
    parts = entity.rsplit("-", len(scheme) - 1)
    for component, part in zip(scheme, parts, strict=False):
        if component not in request:
            request[component] = part


def create_entity(
    change: Change, noun: str, request: Any, path: str, link: tuple[Field, str] | None = None
) -> str:
    """resolve: the entity, its facts and its children into the change; its id."""
    if not isinstance(request, dict):
        raise invalid_input(path, f"an object: the {noun}'s id and fields")
    fields(change.state, noun)
    if not change.is_entity_type(noun):
        raise invalid_input(path, f"an entity type: {noun} is a value type")
    entity, used = _identity(change, noun, request, path)
    if exists(change.state, noun, entity):
        raise Refusal("entity_exists", f"{noun} {entity!r} exists", noun=noun, id=entity)
    change.touch(noun, entity)
    request = dict(request)
    _components(change, noun, entity, request)
    if link is not None:
        field, parent = link
        fact = [entity, entity]
        fact[field.keys[0][1]] = parent
        change.add(field.fact_type, tuple(fact))
    set_fields(change, noun, entity, {k: v for k, v in request.items() if k not in used}, path,
               replace=False)
    return entity


def _retract_field(change: Change, field: Field, entity: str) -> None:
    relation = change.state.get(field.fact_type)
    if isinstance(relation, Relation):
        for fact in sorted(relation.matching(field.role, entity)):
            change.remove(field.fact_type, fact)


def _derived_modes(by_name: dict[str, Field], program: Program) -> dict[str, str]:
    """Each field's name with its fact type's derived mode (:func:`derived_mode`)."""
    return {name: program.fully_derived.get(field.fact_type, "")
            for name, field in by_name.items()}


_modes_of_fields = IdentityMemo(_derived_modes, limit=256)
"""The derived mode of each field of a noun, by the identity of its fields by name and of
the compiled program: both are the same objects while their cells are."""


def set_fields(
    change: Change, noun: str, entity: str, values: dict[str, Any], path: str, replace: bool
) -> None:
    """Each field's facts; with ``replace``, a single-valued field's old fact goes first."""
    by_name = fields_by_name(change.state, noun)
    modes = _modes_of_fields(by_name, program_of(change.state))
    for name, value in values.items():
        where = f"{path}.{name}"
        field = by_name.get(name)
        if field is None:
            field = _field(change.state, noun, name, where)
        if field.fact_type.endswith("_has_Status") and field.name == "status":
            raise Refusal("derived_fact_type", "status is maintained by the state machine",
                          fact_type=field.fact_type)
        mode = modes.get(name)
        if mode is None:  # a field named by its fact type
            mode = derived_mode(change.state, field.fact_type)
        if mode in ("*", "**"):
            raise Refusal("derived_fact_type", f"{field.name} is derived; it cannot be given",
                          fact_type=field.fact_type, field=field.name)
        if value is None:
            _retract_field(change, field, entity)
            continue
        if field.shape == "flag":
            if not isinstance(value, bool):
                raise invalid_input(where, "true or false")
            if value:
                change.add(field.fact_type, (entity,))
            else:
                _retract_field(change, field, entity)
            continue
        if field.shape == "rows":
            rows = value if isinstance(value, list) else [value]
            for index, row in enumerate(rows):
                change.add(field.fact_type, _row(field, entity, row, f"{where}[{index}]"))
            continue
        items = value if isinstance(value, list) else [value]
        if field.shape == "one" and isinstance(value, list):
            raise invalid_input(where, f"one value: each {noun} has at most one {field.name}")
        if field.shape == "one" and replace:
            _retract_field(change, field, entity)
        other_noun, other_role = change.roles(field.fact_type)[field.keys[0][1]], field.keys[0][1]
        for index, item in enumerate(items):
            at = f"{where}[{index}]" if isinstance(value, list) else where
            if isinstance(item, dict):
                create_entity(change, other_noun, item, at, link=(_back(change, field), entity))
                continue
            fact = [entity, entity]
            fact[other_role] = atom(item, at)
            change.add(field.fact_type, tuple(fact))


def _back(change: Change, field: Field) -> Field:
    """The same binary fact type seen from its other role (for a child's link to its parent)."""
    other = field.keys[0][1]
    return Field(field.name, field.fact_type, other, "many", (("", field.role),))


def _row(field: Field, entity: str, row: Any, path: str) -> tuple[str, ...]:
    if not isinstance(row, dict):
        raise invalid_input(path, "an object keyed by " + ", ".join(k for k, _ in field.keys))
    fact = [""] * (len(field.keys) + 1)
    fact[field.role] = entity
    for key, role in field.keys:
        if key not in row:
            raise invalid_input(f"{path}.{key}", "a value for every other role")
        fact[role] = atom(row[key], f"{path}.{key}")
    return tuple(fact)


def settle(before: State, change: Change) -> tuple[State, Delta, list[dict[str, Any]]]:
    """derive: the state with its derived facts at the fixed point, the command's delta as
    P saw it (asserted and derived facts that entered or left), and the facts derived."""
    after, derived = system.dred.derive(before, change.state, change.delta.added,
                                        change.delta.removed, change.delta.entities)
    if not derived.added and not derived.removed:
        return after, change.delta, []
    delta = Delta(entities=change.delta.entities, gone=change.delta.gone)
    by_derivation = derived.added.keys() | derived.removed.keys()
    netted = change.origin is before
    for fact_type in {*change.delta.added, *change.delta.removed, *by_derivation}:
        if netted and fact_type not in by_derivation:
            # Derivation left this fact type's facts as the change did, and the change's
            # delta is net against ``before``: it is the command's, with no look-up.
            _copy_into(delta, fact_type, change.delta)
            continue
        _net_into(delta, fact_type, before, change.state, after, change.delta, derived)
    return after, delta, _listed(change.roles, derived, delta)


def settled(before: State, state: State, delta: Delta,
            roles: Callable[[str], tuple[str, ...]]) -> tuple[State, list[dict[str, Any]]]:
    """:func:`settle` of a change that reached state from before with delta, net against
    before and the caller's own: delta becomes the command's as P saw it in place (only
    the fact types derivation moved are looked up); the state at the fixed point and the
    facts derived."""
    after, derived = system.dred.derive(before, state, delta.added, delta.removed, delta.entities)
    if not derived.added and not derived.removed:
        return after, []
    written = Delta(added=dict(delta.added), removed=dict(delta.removed))
    for fact_type in derived.added.keys() | derived.removed.keys():
        delta.added.pop(fact_type, None)
        delta.removed.pop(fact_type, None)
        _net_into(delta, fact_type, before, state, after, written, derived)
    return after, _listed(roles, derived, delta)


def _net_into(delta: Delta, fact_type: str, before: State, state: State, after: State,
              written: Delta, derived: Changes) -> None:
    """The facts of fact_type that came into P and left it between before and after, into
    delta, from what the change wrote (reaching state) and what derivation moved."""
    old, new = relation_of(before, fact_type, 0), relation_of(after, fact_type, 0)
    entered = derived.added.get(fact_type, set())
    # Derivation adds only facts the state it started from lacks, and they stay: such a
    # fact was in ``before`` only if the command's own change moved it, so only those
    # are looked up (the trail finds them in proportion to the change).
    moved = {fact for fact, _, _ in relation_of(state, fact_type, 0).changes_since(
        old)} if entered else set()
    candidates = (written.added.get(fact_type, set())
                  | written.removed.get(fact_type, set())
                  | (entered & moved)
                  | derived.removed.get(fact_type, set()))
    came = {f for f in candidates if f in new and f not in old} | (entered - moved)
    went = {f for f in candidates if f in old and f not in new}
    if came:
        delta.added[fact_type] = came
    if went:
        delta.removed[fact_type] = went


def _copy_into(delta: Delta, fact_type: str, source: Delta) -> None:
    """delta's facts of fact_type that came and went are source's (copies)."""
    came, went = source.added.get(fact_type), source.removed.get(fact_type)
    if came:
        delta.added[fact_type] = set(came)
    if went:
        delta.removed[fact_type] = set(went)


def _merged(first: Delta, then: Delta) -> Delta:
    """The delta of two commands in a row, as one."""
    merged = Delta(entities={noun: set(ids) for noun, ids in first.entities.items()},
                   gone={noun: set(ids) for noun, ids in first.gone.items()})
    for noun, ids in then.entities.items():
        merged.entities.setdefault(noun, set()).update(ids)
    for noun, ids in then.gone.items():
        merged.gone.setdefault(noun, set()).update(ids)
    for fact_type in {*first.added, *first.removed, *then.added, *then.removed}:
        a1, r1 = first.added.get(fact_type, set()), first.removed.get(fact_type, set())
        a2, r2 = then.added.get(fact_type, set()), then.removed.get(fact_type, set())
        added, removed = (a1 - r2) | (a2 - r1), (r1 - a2) | (r2 - a1)
        if added:
            merged.added[fact_type] = added
        if removed:
            merged.removed[fact_type] = removed
    return merged


def _listed(roles: Callable[[str], tuple[str, ...]], derived: Changes, delta: Delta
            ) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = []
    for fact_type in sorted(derived.added):
        names = role_names(roles(fact_type))
        # Every fact has one value per role name; a keyword to zip (strict) would double the
        # cost of each fact's bindings, and this list is a quarter of the cost of a command
        # with a large derived delta (docs/performance.md, Derivation).
        listed.extend({"fact_type": fact_type, "bindings": dict(zip(names, fact))}  # noqa: B905
                      for fact in sorted(derived.added[fact_type]
                                         & delta.added.get(fact_type, set())))
    return listed


def command_result(
    before: State, change: Change, entity: tuple[str, str] | None = None,
    fired: list[tuple[str, str, Transition]] | None = None,
    validated: Callable[[State, Delta], list[dict[str, Any]]] = violations,
) -> tuple[Output, State]:
    """emit ∘ validate ∘ derive: the violations the delta woke; reject on an alethic one.
    ``fired``: the transitions the command fired, for their effects.  Facts entering P fire
    the transitions their fact type triggers, derived facts included, until the statuses are
    stable (at most AUTOMATIC_ROUNDS rounds).  Every entity the change brought into a
    population of a noun with a machine starts in s₀ first.  ``next_actions`` are the events
    legal for the entity in D′ (its ``_links`` transitions), [] without an entity or a
    machine.  ``validated`` is :func:`violations`, or a function of the same value."""
    start(change)
    state, delta, derived = settle(before, change)
    fired = list(fired or [])
    latest = delta.added
    for _ in range(AUTOMATIC_ROUNDS):
        candidates = triggered(state, latest)
        if not candidates:
            break
        step = Change(state)
        now = [(m.noun, entity, t) for m, entity, t in candidates
               if fire(step, m, entity, t.event) is not None]
        if not now:
            break
        state, more, also = settle(state, step)
        delta, derived, latest = _merged(delta, more), derived + also, more.added
        fired.extend(now)
    found = validated(state, delta)
    rejected = bool(alethic(found))
    after = before if rejected else state
    out: Output = {"rejected": rejected}
    actions: list[dict[str, Any]] = []
    if entity is not None:
        noun, entity_id_ = entity
        alive = exists(after, noun, entity_id_)
        out["entity"] = represent(after, noun, entity_id_) if alive else None
        actions = next_actions(after, noun, entity_id_) if alive else []
    out.update(violations=found, derived=[] if rejected else derived,
               effects=[] if rejected else effects(state, fired or [], delta.added),
               next_actions=actions)
    return out, after


def create(state: State, noun: str, request: Any) -> tuple[Output, State]:
    """create:N — the command result of a new entity of N from its id and fields, and D′
    (D itself when an alethic violation rejects it).

    >>> import arest
    >>> D = arest.compile(ORDERS)  # Order was placed by at most one Customer (conftest.py)
    >>> out, D2 = create(D, "Order", {"id": "o1", "Customer": "acme"})
    >>> out["rejected"], out["entity"]["Customer"], D2 is D
    (False, 'acme', False)
    """
    change = Change(state)
    entity = create_entity(change, noun, {} if request is None else request, "$")
    return command_result(state, change, (noun, entity))


def update(state: State, noun: str, request: Any) -> tuple[Output, State]:
    """update:N — the command result of replacing the named fields of an existing entity,
    and D′.

    >>> import arest
    >>> D = arest.compile(ORDERS)  # Order was placed by at most one Customer (conftest.py)
    >>> _, D = create(D, "Order", {"id": "o1", "Customer": "acme"})
    >>> out, D = update(D, "Order", {"id": "o1", "Customer": "bolt"})
    >>> out["entity"]["Customer"]
    'bolt'
    """
    if not isinstance(request, dict) or "id" not in request:
        raise invalid_input("$", "an object with the id and the fields to change")
    fields(state, noun)
    entity = atom(request["id"], "$.id")
    if not exists(state, noun, entity):
        raise Refusal("unknown_entity", f"no {noun} {entity!r}", noun=noun, id=entity)
    change = Change(state)
    change.touch(noun, entity)
    values = {k: v for k, v in request.items() if k != "id"}
    set_fields(change, noun, entity, values, "$", replace=True)
    return command_result(state, change, (noun, entity))


def read(state: State, noun: str, request: Any) -> Output:
    """read:N — the entity's representation: its id, noun, fields with facts, and links;
    ``unknown_entity`` when N has no such entity.

    >>> import arest
    >>> D = arest.compile(ORDERS)  # Order was placed by at most one Customer (conftest.py)
    >>> _, D = create(D, "Order", {"id": "o1", "Customer": "acme"})
    >>> from arest.system.entity_verbs import read as read_entity  # the doctests' read parses
    >>> sorted(read_entity(D, "Order", "o1"))
    ['Customer', '_links', 'id', 'noun']
    """
    fields(state, noun)
    entity = entity_id(request)
    if not exists(state, noun, entity):
        raise Refusal("unknown_entity", f"no {noun} {entity!r}", noun=noun, id=entity)
    return represent(state, noun, entity)
