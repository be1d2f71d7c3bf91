"""A quiet create of flat input as straight-line steps known from its plan.

    flat(D, N, x) = compiled(D, N, x)   where N's plan is quiet and every value of x is one
                                         plain atom (a flag's: true); else None

A quiet plan (no rule reads the cells it writes, the noun has no machine, none is triggered
by them) over a flat input — each value a non-empty ASCII string (a flag true), an id given —
writes exactly one fact per key beside the id and the id into the noun's population.  So
what the compiled create finds per command is known with the plan: the cells written, the
delta's shape and the checks it wakes (found with the plan, whose held cells include theirs:
where one changes, the plan is made again), which of them count the new entity or a value of
the input, and the representation's form (its fields in order, its url's start, each link's
template).  A command then runs those steps and nothing else:

- each fact written by :meth:`Relation.add` into the cell it goes to, the population's
  entity and every value naming an entity checked as the compiled create checks them;
- each woken check that is a count bound counted in its relation's index, as
  :func:`arest.system.compiled_checks.shaped_violations` skips a bound that holds; where one
  does not hold, or a check is not a count bound of the delta's atoms, the delta is built and
  ``shaped_violations`` reports, as before;
- the representation from the input's values and the templates.

:meth:`FlatCreate.answer` gives, beside the answer, what it asserted: each cell written, in
the order written, with the one fact it added there, from which a runtime writes the journal
entry without walking the cells' changes (:func:`arest.runtime.digest.recorded_assertions`).

Anything else (an automatic id, a number or a null, a list or a child, a flag false, an id in
use, a referenced entity missing, a written cell the governance check compares) answers None
and the compiled create's general steps answer; ``tests/system/test_compiled_create.py``
states that the answers are the interpreted create's.

>>> import arest
>>> D = arest.compile(ORDERS)  # Order was placed by at most one Customer (conftest.py)
>>> _, D = arest.apply(D, "create:Customer", {"id": "acme"})
>>> from arest.system.create_plans import plans_for
>>> flat = plans_for(D).plan(D, "Order", frozenset({"id", "Customer"})).flat
>>> out, D2 = flat.create(D, {"id": "o/1", "Customer": "acme"})
>>> out["entity"]["_links"]["self"], (out, D2) == arest.apply(
...     D, "create:Order", {"id": "o/1", "Customer": "acme"})
({'href': '/orders/o%2F1'}, True)
>>> flat.create(D2, {"id": "o/1", "Customer": "acme"}) is None  # the id is in use
True
>>> flat.create(D, {"id": "o2", "Customer": "zed"}) is None  # zed is new
True
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, TypeAlias

from arest.algebra import State
from arest.algebra.relations import Fact, Relation
from arest.compiler.cells import population_cell
from arest.compiler.change import Delta
from arest.compiler.checks import ADDED, ENTITIES
from arest.compiler.links import PARENT
from arest.system.compiled_checks import WokenChecks, shaped_violations, woken_checks
from arest.system.evolution import governed_cells
from arest.system.inputs import MAX_ATOM
from arest.system.links import segment
from arest.system.validate import alethic

if TYPE_CHECKING:
    from arest.compiler.fields import Field
    from arest.compiler.links import Link
    from arest.system.create_plans import Write

__all__ = ["Asserted", "FlatCreate", "flat_create"]

Output = dict[str, Any]

Asserted: TypeAlias = "list[tuple[str, Fact]]"
"""What a flat create asserted: each cell it wrote, in the order written, with the one fact
it added there (a plain assertion, given no payload)."""

_Step: TypeAlias = "tuple[str, str, bool, str, bool]"
"""One key's write of a fact of two roles: the key, its fact type, whether the entity plays
the first role, the population cell of the other role's noun where it is an entity type
(its value must be in it), else empty, and whether a check counts the entity's role there
(then the fact is added where that role's index shows the entity new,
:meth:`Relation.add_new_in`, and the count is 1)."""

_Probe: TypeAlias = "tuple[str, int, str, int, float]"
"""The count bounds woken on one value the command wrote, read together: the fact type, the
counted role, the input key whose value is counted (empty: the new entity), and the least
and the most facts that may hold it (1 with a mandatory role, else 0; 1 with a
uniqueness, else no bound)."""

Shown: TypeAlias = "tuple[tuple[str, str, Field | None], ...]"
"""A plan's fields a new entity can show (:attr:`arest.system.create_plans.Plan.shown`)."""

Navigation: TypeAlias = "tuple[tuple[str, str, str, str, str, Link | None], ...]"
"""A plan's navigation links (:attr:`arest.system.create_plans.Plan.navigation`)."""

_Link: TypeAlias = "tuple[str, str, str, str, str]"
"""A navigation link's template: key, rel, the path after the entity's url, and for a parent
the input key whose value it points at and that value's url's start."""


class FlatCreate:
    """The straight-line create of one plan for flat input (see the module), fixed with the
    plan: the checks the delta's shape wakes among them, and which of those are count bounds
    read by index; the plan reads their cells too, so it holds only where they do."""

    __slots__ = ("checks", "flags", "id_keys", "links", "noun", "population", "probes",
                 "shown", "steps", "url", "written")

    def __init__(self, noun: str, id_keys: tuple[str, ...], steps: tuple[_Step, ...],
                 flags: tuple[tuple[str, str], ...], shown: tuple[tuple[str, str], ...],
                 url: str, links: tuple[_Link, ...], checks: WokenChecks) -> None:
        self.noun = noun
        self.population = population_cell(noun)
        self.id_keys = id_keys
        self.steps = steps
        self.flags = flags
        self.shown = shown
        self.url = url
        self.links = links
        self.written = frozenset((self.population, *(step[1] for step in steps),
                                  *(fact_type for _, fact_type in flags)))
        self.checks = checks
        probes = self._probes(checks)
        if probes is not None:
            probes, self.steps = self._decided(probes)
        self.probes = probes

    def create(self, state: State, request: dict[str, Any]) -> tuple[Output, State] | None:
        """The compiled create's answer for request (whose keys are the plan's) over a state
        the plan holds over, or None where request is not flat or the answer needs the
        general steps."""
        answered = self.answer(state, request)
        return None if answered is None else (answered[0], answered[1])

    def answer(self, state: State, request: dict[str, Any]
               ) -> tuple[Output, State, Asserted] | None:
        """:meth:`create`'s answer with what it asserted: each cell it wrote, in the order
        it wrote them, with the one fact it added there (none for a rejected create)."""
        entity = self._entity(request)
        asserted: Asserted = []
        cells = self._cells(state, request, entity, asserted) if entity is not None else None
        if entity is None or cells is None:
            return None
        reached = state.update(cells)
        probes = self.probes
        if probes is not None and (not probes or _hold(reached, probes, request, entity)):
            found: list[dict[str, Any]] = []
        else:
            found = shaped_violations(reached, self.checks, self._delta(request, entity))
            if alethic(found):
                return {"rejected": True, "entity": None, "violations": found, "derived": [],
                        "effects": [], "next_actions": []}, state, []
        return {"rejected": False, "entity": self._represented(request, entity),
                "violations": found, "derived": [], "effects": [], "next_actions": []
                }, reached, asserted

    def _entity(self, request: dict[str, Any]) -> str | None:
        """The id the keys naming it give (all the same plain atom), else None."""
        entity = None
        for key in self.id_keys:
            value = request[key]
            if not (type(value) is str and value and len(value) <= MAX_ATOM
                    and value.isascii()) or (entity is not None and value != entity):
                return None
            entity = value
        return entity

    def _cells(self, state: State, request: dict[str, Any], entity: str, asserted: Asserted
               ) -> dict[str, Any] | None:
        """The cells the create of entity writes, each with its new contents (and each with
        the fact it adds appended to asserted, in the same order); None where a value is not
        a plain atom, a flag not true, the id in use, a fact there already, or a value
        naming an entity that does not exist."""
        population = self.population
        member = (entity,)
        grown = _grown(state.get(population), member)
        if grown is None:
            return None  # the id is in use
        cells: dict[str, Any] = {population: grown}
        asserted.append((population, member))
        for key, fact_type, first, other, counted in self.steps:
            value = request[key]
            if not (type(value) is str and value and len(value) <= MAX_ATOM
                    and value.isascii()):
                return None
            if other:
                named = state.get(other)
                if not isinstance(named, Relation) or (value,) not in named:
                    return None  # a new entity: its checks are the general steps'
            fact = (entity, value) if first else (value, entity)
            grown = _grown_new_in(state.get(fact_type), 1 - first, fact) if counted \
                else _grown(state.get(fact_type), fact)
            if grown is None:
                return None
            cells[fact_type] = grown
            asserted.append((fact_type, fact))
        for key, fact_type in self.flags:
            grown = _grown(state.get(fact_type), member) if request[key] is True else None
            if grown is None:
                return None
            cells[fact_type] = grown
            asserted.append((fact_type, member))
        return cells

    def _delta(self, request: dict[str, Any], entity: str) -> Delta:
        """The delta of the facts :meth:`create` wrote for request, as the compiled create's
        writer builds it."""
        added: dict[str, set[Fact]] = {fact_type: {(entity, request[key]) if first
                                                   else (request[key], entity)}
                                       for key, fact_type, first, _, _ in self.steps}
        added.update((fact_type, {(entity,)}) for _, fact_type in self.flags)
        return Delta(added=added, entities={self.noun: {entity}})

    def _probes(self, checks: WokenChecks) -> tuple[_Probe, ...] | None:
        """The woken checks as the count bounds they read for this shape's delta, those on
        one value merged; None where one is not a count bound of the delta's atoms, or D is
        not plain (its checks run as ``shaped_violations`` runs them)."""
        if not checks.plain:
            return None
        by_fact_type = {fact_type: (key, first) for key, fact_type, first, _, _ in self.steps}
        flagged = {fact_type for _, fact_type in self.flags}
        bounds: dict[tuple[str, int, str], tuple[int, float]] = {}
        for _, parts in checks.constraints:
            for _, _, bound, keyed in parts:
                if bound is None or keyed is None:
                    return None
                for event, target, position in keyed:
                    if (event == ENTITIES and target == self.noun) or (
                            event == ADDED and target in flagged):
                        counted = ""
                    elif event == ADDED and target in by_fact_type:
                        key, first = by_fact_type[target]
                        counted = "" if (position == 0) == first else key
                    else:
                        continue  # the delta holds nothing the trigger selects
                    probed = (bound.fact_type, bound.role, counted)
                    least, most = bounds.get(probed, (0, math.inf))
                    bounds[probed] = (1, most) if bound.mandatory else (least, 1)
        return tuple((*probed, least, most) for probed, (least, most) in bounds.items())

    def _decided(self, probes: tuple[_Probe, ...]) -> tuple[tuple[_Probe, ...], tuple[_Step, ...]]:
        """The probes left to count per command, and the steps: a probe of the new entity's
        own role in a fact type the create writes counts exactly the one fact it adds (a
        step adds it where that role's index shows the entity new, a flag where its fact is
        not there: else the general steps answer), so it holds when 1 is within its bounds
        and is not counted; its step adds by that index."""
        own_role = {fact_type: 0 if first else 1 for _, fact_type, first, _, _ in self.steps}
        own_role.update((fact_type, 0) for _, fact_type in self.flags)
        decided = {(fact_type, role) for fact_type, role, key, least, most in probes
                   if not key and own_role.get(fact_type) == role and least <= 1 <= most}
        steps = tuple((key, fact_type, first, other, (fact_type, 0 if first else 1) in decided)
                      for key, fact_type, first, other, _ in self.steps)
        return tuple(probe for probe in probes
                     if probe[2] or (probe[0], probe[1]) not in decided), steps

    def _represented(self, request: dict[str, Any], entity: str) -> dict[str, Any]:
        """The new entity's representation (:func:`arest.system.entities.represent`): the
        input's values in the noun's field order, then ``_links`` from the templates."""
        out: dict[str, Any] = {"id": entity, "noun": self.noun}
        for name, shape in self.shown:
            out[name] = request[name] if shape == "one" else True if shape == "flag" \
                else [request[name]]
        url = self.url + segment(entity)
        links: dict[str, Any] = {"self": {"href": url}}
        for key, rel, path, parent_key, parent_url in self.links:
            links[key] = {"href": parent_url + segment(request[parent_key]) if parent_key
                          else url + path, "rel": rel}
        out["_links"] = links
        return out


def _grown(relation: Any, fact: Fact) -> Relation | None:
    """The relation a cell holds (none yet: an empty one) with fact added; None where the
    cell holds no relation or the fact is there already."""
    if relation is None:
        return Relation(len(fact)).add(fact)
    if not isinstance(relation, Relation):
        return None
    grown = relation.add(fact)
    return None if grown is relation else grown


def _grown_new_in(relation: Any, role: int, fact: Fact) -> Relation | None:
    """:func:`_grown` where no fact holds fact's value of role ``role`` (then its count
    there is 1); None where one does, or the cell holds no relation."""
    if relation is None:
        return Relation(len(fact)).add(fact)
    if not isinstance(relation, Relation):
        return None
    return relation.add_new_in(role, fact)


def _hold(state: State, probes: tuple[_Probe, ...], request: dict[str, Any], entity: str
          ) -> bool:
    """Whether every probed value's count in state (in its relation's index) is within its
    bounds; False where one is not, or its cell holds no relation of that role."""
    for fact_type, role, key, least, most in probes:
        relation = state.get(fact_type)
        if not isinstance(relation, Relation) or relation.arity <= role:
            return False
        counted = relation.count(role, request[key] if key else entity)
        if counted < least or counted > most:
            return False
    return True


def flat_create(state: State, noun: str, id_keys: tuple[str, ...], writes: dict[str, Write],
                shown: Shown, url: str, navigation: Navigation) -> FlatCreate | None:
    """The straight-line create of a quiet plan of noun without a machine (its keys naming
    the id, its writes, the fields it shows, its url's start and navigation links) over
    state; None where it has none: no key naming the id, or a written cell one the
    governance check compares or the checks read."""
    if not id_keys:
        return None
    steps: list[_Step] = []
    flags: list[tuple[str, str]] = []
    for key, write in writes.items():
        if write.shape == "flag":
            flags.append((key, write.fact_type))
        else:
            other = population_cell(write.other_noun) if write.other_is_entity else ""
            steps.append((key, write.fact_type, write.role == 0, other, False))
    added = (*(step[1] for step in steps), *(fact_type for _, fact_type in flags))
    written = {population_cell(noun), *added}
    shown_written = tuple((name, shape) for name, shape, derived in shown if derived is None)
    links = _links(navigation)
    if not governed_cells().isdisjoint(written) or len(shown_written) != len(shown) \
            or links is None or len(written) != 1 + len(added):
        return None  # a quiet plan reads nothing derived: never for those two (the last:
        # two writes to one cell, each of which would read the cell as it was)
    checks = woken_checks(state, added, (), (noun,))
    if not written.isdisjoint(checks.read.names):
        return None
    return FlatCreate(noun, id_keys, tuple(steps), tuple(flags), shown_written, url, links,
                      checks)


def _links(navigation: Navigation) -> tuple[_Link, ...] | None:
    """The noun's navigation links as a flat create shows them, in the order the compiled
    create puts them: after ``self``, each key once (a later link of the same key replaces
    an earlier one in place), a parent link where an input key writes its fact type; None
    where one reads a derived fact type."""
    shown: dict[str, _Link] = {}
    for key, rel, path, parent_key, parent_url, derived in navigation:
        if derived is not None:
            return None
        if rel != PARENT:
            shown[key] = (key, rel, path, "", "")
        elif parent_key:
            shown[key] = (key, PARENT, "", parent_key, parent_url)
    return tuple(link for key, link in shown.items() if key != "self")
