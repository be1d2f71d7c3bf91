"""create compiled per schema, noun and set of input keys: the interpreted create's answer
without its interpretation, for the plain case.

    compiled(D, create:N, x) = create(D, N, x) then governed, or None (the interpreter answers)

A :class:`arest.system.create_plans.Plan` is built once per (compiled readings, noun, keys of
the input) and kept in a bounded identity memo.  It knows each key's field, its kind and the
noun of its other role, so a command writes each fact and population once, with no field
look-up, derived-mode or trigger scan, and builds its delta as it goes; each new entity of
a noun with a machine enters s₀ as it is written.  Then:

- where compile-time facts show that the written cells have nothing to do with derivation,
  machines or the protected cells (no rule reads them, no noun written has a machine, no
  machine is triggered by them, no metamodel fact type among them), the command runs only
  validation (:func:`arest.system.validate.violations`) and the representation; where its
  input is flat besides (each value one plain atom), the plan's straight-line steps
  (:mod:`arest.system.flat_create`) run those;
- where they show that no transition can fire (no trigger among the cells written or
  derived) and nothing derived is a status or a protected cell, the command derives
  (:func:`arest.system.entity_verbs.settled`), validates, and takes its status, links, next
  actions and effects from the plan (:mod:`arest.system.create_starts`), derived fields and
  links from D′;
- otherwise the written change goes through the interpreted :func:`command_result`
  (derivation, triggered transitions, validation, output) and the governance check.

The governance check runs only where a cell written is one it compares
(:func:`arest.system.evolution.governed_cells`; the plan holds no derived one).

Anything that is not the plain case answers None, and :func:`arest.system.apply.run` runs
the interpreted create, which stays the semantics: a value that is not an atom, a list where
one value goes, an unknown or derived field, a field named by its fact type, rows, a
compound reference scheme, a noun with supertypes, an id in use, a reference to an entity
that does not exist yet or that this command creates, a fact already there, a backed noun.
``tests/system/test_compiled_create.py`` states that the two agree (output, D′, refusals)
over generated domains and inputs and the example domains.

>>> import arest
>>> D = arest.compile(ORDERS)  # Order was placed by at most one Customer (conftest.py)
>>> _, D = arest.apply(D, "create:Customer", {"id": "acme"})
>>> from arest.system.commands import Command
>>> from arest.system.context import DEFAULT
>>> command = Command("create", "Order", {"id": "o1", "Customer": "acme"})
>>> out, D2 = compiled_create(D, command, DEFAULT)
>>> out["entity"]["Customer"], (out, D2) == arest.apply(D, "create:Order", command.input)
('acme', True)
>>> unknown = Command("create", "Order", {"id": "o1", "Customer": "zed"})  # zed is new
>>> compiled_create(D, unknown, DEFAULT) is None
True
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from arest import system
from arest.algebra import State
from arest.algebra.relations import Relation
from arest.compiler.cells import PROGRAM_CELL, counter_cell, population_cell
from arest.compiler.change import Change, Delta
from arest.compiler.links import PARENT, Link
from arest.compiler.population import role_nouns
from arest.system import evolution
from arest.system.compiled_checks import shaped_violations, woken_checks
from arest.system.context import Context
from arest.system.create_plans import Plan, Plans, Write, plans_for
from arest.system.create_starts import Start, effects, event_links, next_actions, picture_link
from arest.system.entities import field_value, slug
from arest.system.errors import Refusal
from arest.system.inputs import MAX_ATOM, atom
from arest.system.links import segment
from arest.system.validate import alethic

if TYPE_CHECKING:
    from arest.system.commands import Command
    from arest.system.entity_verbs import Output
    from arest.system.flat_create import Asserted, FlatCreate

class _Interpreted(Exception):
    """Raised inside a compiled create where the command is not the plain case: the
    interpreted create answers it."""


def _atom(value: Any) -> str:
    """The atom a JSON value is, as :func:`arest.system.inputs.atom` reads it; raises
    :class:`_Interpreted` where that refuses (the interpreter gives the error)."""
    if type(value) is str and value and len(value) <= MAX_ATOM and value.isascii():
        return value
    if type(value) is int:
        return atom(value, "$")
    try:
        return atom(value, "$")
    except Refusal:
        raise _Interpreted from None


class _Writer:
    """The cells a compiled create writes, the state under them, and the delta."""

    def __init__(self, state: State, plans: Plans) -> None:
        self.state = state
        self.plans = plans
        self.cells: dict[str, Any] = {}
        self.delta = Delta()
        self.created: set[tuple[str, str]] = set()
        self.started: list[tuple[Start, str]] = []

    def cell(self, name: str) -> Any:
        cells = self.cells
        return cells[name] if name in cells else self.state.get(name)

    def add(self, fact_type: str, fact: tuple[str, ...]) -> None:
        relation = self.cell(fact_type)
        if relation is None:
            relation = Relation(len(fact))
        elif not isinstance(relation, Relation):
            raise _Interpreted
        grown = relation.add(fact)
        if grown is relation:
            raise _Interpreted  # a fact about a new entity was there: not the plain case
        self.cells[fact_type] = grown
        added = self.delta.added
        if fact_type in added:
            added[fact_type].add(fact)
        else:
            added[fact_type] = {fact}

    def join(self, noun: str, entity: str) -> None:
        name = population_cell(noun)
        population = self.cell(name)
        if population is None:
            population = Relation(1)
        elif not isinstance(population, Relation):
            raise _Interpreted
        grown = population.add((entity,))
        if grown is population:
            raise _Interpreted  # the id is in use: entity_exists
        self.cells[name] = grown
        self.delta.entities.setdefault(noun, set()).add(entity)
        self.created.add((noun, entity))

    def start(self, start: Start, entity: str) -> None:
        """The new entity enters s₀ (:func:`arest.system.machines.start`, which finds it
        started and adds nothing)."""
        relation = self.cell(start.fact_type)
        if isinstance(relation, Relation) and next(relation.matching(0, entity), None):
            raise _Interpreted  # a status fact names the new entity already
        self.add(start.fact_type, (entity, start.initial))
        self.started.append((start, entity))

    def existing(self, noun: str, entity: str) -> None:
        population = self.state.get(population_cell(noun))
        if not isinstance(population, Relation) or (entity,) not in population:
            # A new entity joins here: its checks and its machine's start are the interpreter's.
            raise _Interpreted

    def auto_id(self, noun: str) -> str:
        """``<noun-slug>-<n>`` from the noun's counter, as the interpreted create picks it."""
        name = counter_cell(noun)
        contents = self.cell(name)
        n = int(contents) if type(contents) is str and contents.isdigit() else 0
        population = self.cell(population_cell(noun))
        while True:
            n += 1
            candidate = f"{slug(noun)}-{n}"
            if not isinstance(population, Relation) or (candidate,) not in population:
                self.cells[name] = str(n)
                return candidate

    def entity(self, plan: Plan, request: dict[str, Any],
               link: tuple[str, int, str] | None = None
               ) -> tuple[str, bool, dict[str, list[str]]]:
        """The entity the plan creates from request, written; whether every plan it took
        (its children's too) is quiet; and the values each input key gave it."""
        entity = None
        for key in plan.id_keys:
            value = _atom(request[key])
            if entity is not None and value != entity:
                raise _Interpreted
            entity = value
        if entity is None:
            entity = self.auto_id(plan.noun)
        self.join(plan.noun, entity)
        if plan.start is not None:
            self.start(plan.start, entity)
        if link is not None:
            fact_type, role, parent = link
            fact = [entity, entity]
            fact[role] = parent
            self.add(fact_type, (fact[0], fact[1]))
        quiet = plan.quiet
        writes = plan.writes
        values: dict[str, list[str]] = {}
        for key, value in request.items():
            write = writes.get(key)
            if write is not None and value is not None:
                given: list[str] = []
                quiet = self.field(write, entity, value, given) and quiet
                values[key] = given
        return entity, quiet, values

    def field(self, write: Write, entity: str, value: Any, given: list[str]) -> bool:
        """One field's facts, its values (or children's ids) appended to given; whether
        the children it created were quiet."""
        if write.shape == "flag":
            if type(value) is not bool:
                raise _Interpreted
            if value:
                self.add(write.fact_type, (entity,))
                given.append("")
            return True
        if type(value) is list:
            if write.shape == "one":
                raise _Interpreted
            items = value
        else:
            items = [value]
        quiet = True
        for item in items:
            if type(item) is dict:
                child, child_quiet = self.child(write, entity, item)
                given.append(child)
                quiet = child_quiet and quiet
                continue
            other = _atom(item)
            given.append(other)
            if write.other_is_entity:
                if (write.other_noun, other) in self.created:
                    raise _Interpreted
                self.existing(write.other_noun, other)
            self.add(write.fact_type, (entity, other) if write.other else (other, entity))
        return quiet

    def child(self, write: Write, parent: str, request: dict[str, Any]) -> tuple[str, bool]:
        """A child created in the same command, linked to its parent by the field's fact
        type (the parent at its role): its id, and whether its plans were quiet."""
        if not write.other_is_entity:
            raise _Interpreted
        plan = self.plans.plan(self.state, write.other_noun, frozenset(request))
        if plan is None:
            raise _Interpreted
        child, quiet, _ = self.entity(plan, request, (write.fact_type, write.role, parent))
        return child, quiet


def compiled_create(state: State, command: Command, context: Context
                    ) -> tuple[Output, State] | None:
    """``create:N`` by its plan: the interpreted create's output and D′ (after the
    governance check of :func:`arest.system.apply.run`), or None where the command is not
    the plain case."""
    request = command.input
    if type(request) is not dict:
        return None
    plans = plans_for(state)
    plan = plans.plan(state, command.target, frozenset(request))
    if plan is None:
        return None
    flat = plan.flat
    if flat is not None:
        answered = _flat_answer(state, plans, flat, request)
        if answered is not None:
            return answered[0], answered[1]
    writer = _Writer(state, plans)
    try:
        entity, quiet, values = writer.entity(plan, request)
    except _Interpreted:
        return None
    reached = state.update(writer.cells)
    delta = writer.delta
    if quiet:
        plans.carry(state, reached, writer.cells)
        derived: list[dict[str, Any]] = []
    elif plan.compiled_tail and plan.triggering.isdisjoint(writer.cells):
        reached, derived = system.entity_verbs.settled(state, reached, delta,
                                                       partial(role_nouns, reached))
        if PROGRAM_CELL not in writer.cells:
            # Derivation wrote only its program's cells: the plan's, which it holds over.
            plans.carry(state, reached, plan.derivation_writes.union(writer.cells))
    else:
        plan.carry(state, reached, writer.cells)
        return _interpreted_tail(state, reached, plans, plan, entity, delta, command, context)
    found = _validated(plans, plan, reached, delta)
    if alethic(found):
        return {"rejected": True, "entity": None, "violations": found, "derived": [],
                "effects": [], "next_actions": []}, state
    start = plan.start
    out: Output = {
        "rejected": False, "entity": _represented(plan, entity, values, reached),
        "violations": found,
        "derived": derived, "effects": effects(writer.started) if writer.started else [],
        "next_actions": next_actions(start, plan.noun, entity) if start is not None else []}
    if not evolution.governed_cells().isdisjoint(writer.cells):
        broken = evolution.governed(state, reached, command, context)
        if broken is not None:
            return broken.envelope, state
    return out, reached


def flat_answer(state: State, command: Command) -> tuple[Output, State, Asserted] | None:
    """:func:`compiled_create`'s answer where its plan's straight-line steps give it (they
    read no context), with what they asserted (:meth:`FlatCreate.answer`); None where they
    do not answer (the command is no create of flat input by a plan that has them).

        flat_answer(D, c) = ⟨o, D′, A⟩  ⇒  compiled_create(D, c, context) = ⟨o, D′⟩
    """
    request = command.input
    if command.verb != "create" or type(request) is not dict:
        return None
    plans = plans_for(state)
    plan = plans.plan(state, command.target, frozenset(request))
    if plan is None or plan.flat is None:
        return None
    return _flat_answer(state, plans, plan.flat, request)


def flat_create_answer(state: State, noun: str, request: dict[str, Any]
                       ) -> tuple[Output, State] | None:
    """:func:`compiled_create`'s answer for ``create:noun`` of request where its plan's
    straight-line steps give it, else None."""
    plans = plans_for(state)
    plan = plans.plan(state, noun, frozenset(request))
    if plan is None or plan.flat is None:
        return None
    answered = _flat_answer(state, plans, plan.flat, request)
    return None if answered is None else (answered[0], answered[1])


def _flat_answer(state: State, plans: Plans, flat: FlatCreate, request: dict[str, Any]
                 ) -> tuple[Output, State, Asserted] | None:
    """The flat create's answer, the plans found lately carried over to the state it
    reached (:meth:`Plans.carry`)."""
    answered = flat.answer(state, request)
    if answered is not None and answered[1] is not state:
        plans.carry_apart(state, answered[1], flat.written)
    return answered


def _validated(plans: Plans, plan: Plan, state: State, delta: Delta
               ) -> list[dict[str, Any]]:
    """:func:`arest.system.validate.violations` by the checks the delta's shape wakes,
    found once per shape for this plan."""
    shape = (tuple(delta.added), tuple(delta.removed), tuple(delta.entities))
    checks = plan.checks.get(shape)
    if checks is None or not checks.holds(state):
        checks = woken_checks(state, *shape)
        plans.remember_checks(plan, shape, checks)
    return shaped_violations(state, checks, delta)


def _represented(plan: Plan, entity: str, values: dict[str, list[str]], state: State
                 ) -> dict[str, Any]:
    """The new entity's representation in state (:func:`arest.system.entities.represent`)
    from the values the input gave it, its machine's start and, for the fields and parent
    links derivation maintains, state's facts: no other asserted fact names a new entity."""
    out: dict[str, Any] = {"id": entity, "noun": plan.noun}
    start = plan.start
    if start is not None:
        out["status"] = start.initial
    for name, shape, derived in plan.shown:
        if derived is not None:
            field_value(state, derived, entity, out)
            continue
        given = values.get(name)
        if given:
            out[name] = True if shape == "flag" else given[0] if shape == "one" else sorted(
                set(given))
    url = plan.url + segment(entity)
    links: dict[str, Any] = {"self": {"href": url}}
    if start is not None:
        event_links(start, url, links)
    navigation: dict[str, Any] = {}
    for key, rel, path, parent_key, parent_url, derived_link in plan.navigation:
        if rel != PARENT:
            navigation[key] = {"href": url + path, "rel": rel}
            continue
        targets = _derived_targets(state, derived_link, entity) if derived_link is not None \
            else values.get(parent_key) if parent_key else None
        if targets:
            navigation[key] = {"href": parent_url + segment(min(targets)), "rel": PARENT}
    for key, link in navigation.items():
        links.setdefault(key, link)
    if start is not None:
        picture_link(url, links)
    out["_links"] = links
    return out


def _derived_targets(state: State, link: Link, entity: str) -> list[str]:
    """The entities a parent link of a derived fact type points at from entity, in state."""
    relation = state.get(link.fact_type)
    if not isinstance(relation, Relation):
        return []
    return [fact[link.other] for fact in relation.matching(link.role, entity)]


def _interpreted_tail(state: State, reached: State, plans: Plans, plan: Plan, entity: str,
                      delta: Delta, command: Command, context: Context
                      ) -> tuple[Output, State] | None:
    """The written change through the interpreted rest of a create (machine start,
    derivation, triggered transitions, output) with the plan's checks, and the governance
    check."""
    change = Change(state)
    change.state, change.delta = reached, delta
    try:
        out, after = system.entity_verbs.command_result(
            state, change, (plan.noun, entity),
            validated=lambda at, delta: _validated(plans, plan, at, delta))
    except Refusal:
        return None
    if after is not state:
        broken = evolution.governed(state, after, command, context)
        if broken is not None:
            return broken.envelope, state
    return out, after
