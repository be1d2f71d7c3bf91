"""What a create of one noun with one set of input keys does, compiled: its plan.

A :class:`Plan` is a pure function of the compiled readings: each input key's field, shape
and other noun, the keys naming the id, whether the cells the create writes are quiet (no
rule reads them, the noun has no machine, no machine is triggered by them), the noun's
machine as a create meets it (s₀, its events and effects: :mod:`arest.system.create_starts`),
whether the rest of a create that is not quiet is known when compiling (nothing derived is a
trigger, a status or a protected cell), and the noun's representation template (its written
and derived fields in order, its url, its navigation links).  It
is built once per (compiled readings, noun, keys) and kept in a bounded identity memo keyed
by the fact types' roles (:func:`plans_for`), and remembers every other cell it read with its
contents: it holds while they are the same objects, and is built again otherwise.  A shape
of input that is not the plain case has no plan (None): its creates are the interpreter's.

>>> import arest
>>> D = arest.compile(ORDERS)  # Order was placed by at most one Customer (conftest.py)
>>> plan = plans_for(D).plan(D, "Order", frozenset({"id", "Customer"}))
>>> plan.id_keys, plan.writes["Customer"].fact_type, plan.quiet
(('id',), 'Order_was_placed_by_Customer', True)
>>> plans_for(D).plan(D, "Order", frozenset({"id", "Order_was_placed_by_Customer"})) is None
True
"""

from __future__ import annotations

from collections.abc import Collection
from contextlib import suppress
from typing import Final, TypeVar
from urllib.parse import quote

from arest.algebra import State
from arest.algebra.memo import IdentityMemo
from arest.algebra.relations import Relation
from arest.compiler.cells import (
    FACT_TYPE_ROLES,
    MACHINES_CELL,
    NOUN_OBJECT_TYPES,
    NOUN_PLURALS,
    NOUN_REFERENCE_SCHEMES,
    NOUN_SUPERTYPES,
    PROGRAM_CELL,
    links_cell,
    machine_cell,
    population_cell,
    resolve_cell,
)
from arest.compiler.change import Change
from arest.compiler.fields import Field
from arest.compiler.links import PARENT, Link
from arest.records import field, record
from arest.system.backed import BACKED_BY
from arest.system.compiled_checks import WokenChecks
from arest.system.create_starts import STATUS_SUFFIX, Start, start_of
from arest.system.derive import program_of
from arest.system.entities import fields, fields_by_name
from arest.system.evolution import governed_cells
from arest.system.flat_create import FlatCreate, flat_create
from arest.system.held_cells import HeldCells, carry_all, carry_known
from arest.system.links import followed, plural
from arest.system.machines import machine_of

K = TypeVar("K")
V = TypeVar("V")

SCHEMA_CELLS: Final = (NOUN_OBJECT_TYPES, NOUN_SUPERTYPES, NOUN_REFERENCE_SCHEMES,
                       PROGRAM_CELL, MACHINES_CELL, BACKED_BY, NOUN_PLURALS)
"""The schema cells every plan reads beside the fact types' roles (which key the plans):
a plan holds while they and the cells it read are the same objects."""


@record
class Write:
    """How one input key of a noun becomes facts: the field's fact type, the noun's role in
    it, the other role (-1 for a flag), the shape (``one``, ``many``, ``flag``), and the noun
    of the other role when it is an entity type (its value must exist), else empty."""

    fact_type: str
    role: int
    other: int
    shape: str
    other_noun: str
    other_is_entity: bool


@record
class Plan:
    """A create of one noun with one set of input keys, compiled: the keys naming the id,
    each other key's :class:`Write`, whether the cells it writes are quiet (nothing derives
    from them, no machine starts or fires), and the cells it read beyond the schema cells,
    with their contents, which must be the same objects for the plan to hold."""

    noun: str
    id_keys: tuple[str, ...]
    writes: dict[str, Write]
    quiet: bool
    read: HeldCells
    """The cells the plan read beyond the fact types' roles, and their contents."""
    shown: tuple[tuple[str, str, Field | None], ...]
    """The fields a new entity can show, in the noun's field order, each with its shape:
    the written ones (None: shown from the input's values) and the derived ones (the field:
    read from D′, where derivation may have named the entity)."""
    url: str
    """``/<plural>/``: the start of the entity's href."""
    navigation: tuple[tuple[str, str, str, str, str, Link | None], ...]
    """Each navigation link of the noun: key, rel, path after the url, and for a parent
    the input key whose values it points at, their url's start, and the link itself where
    its fact type is derived (read from D′)."""
    start: Start | None
    """The noun's machine as a create meets it (:mod:`arest.system.create_starts`)."""
    compiled_tail: bool
    """Whether a create that is not quiet runs its start, representation, next actions and
    effects from the plan: nothing derived is a trigger, a status or a protected cell, and
    a machine's status shows as ``status``."""
    triggering: frozenset[str]
    """The fact types that trigger a transition of some machine: a create writing one is
    the interpreter's from its start on."""
    derivation_writes: frozenset[str]
    """The cells a derivation from a delta may write (:attr:`Program.written`): a create
    that derives reaches a state differing from the one written in these cells alone."""
    flat: FlatCreate | None = field(compare=False)
    """Its straight-line create for flat input (:mod:`arest.system.flat_create`), whose
    checks' cells are among those the plan read."""
    checks: dict[tuple[tuple[str, ...], ...], WokenChecks] = field(
        default_factory=dict, compare=False)
    """The woken checks by shape of delta, found as commands ask (at most
    :data:`MOST_SHAPES`)."""

    def carry(self, before: State, after: State, written: Collection[str]) -> None:
        """after is before with the cells written: the plan and its checks are known to hold
        over after where they were over before and read none of those cells."""
        self.read.carry(before, after, written)
        for checks in self.checks.values():
            checks.read.carry(before, after, written)


def _plan(state: State, noun: str, keys: frozenset[str]) -> Plan | None:
    """The plan of a create of noun with these input keys; None when it is not the plain
    case (the interpreted create answers every such command)."""
    backed = state.get(BACKED_BY)
    if isinstance(backed, Relation) and len(backed):
        return None
    resolve = state.get(resolve_cell(noun))
    if type(resolve) is not tuple:
        return None
    change = Change(state)
    if not change.is_entity_type(noun) or change.member_of(noun) != (noun,):
        return None
    scheme = change.reference(noun)
    if len(scheme) != 1:
        return None
    by_name = fields_by_name(state, noun)
    program = program_of(state)
    id_keys = tuple(sorted(keys & {"id", scheme[0]}))
    writes: dict[str, Write] = {}
    for key in keys - set(id_keys):
        known = by_name.get(key)
        if known is None or known.shape == "rows" or known.fact_type.endswith("_has_Status") \
                or program.fully_derived.get(known.fact_type, "") \
                or change.membership_subtype(known.fact_type) is not None:
            return None
        if known.shape == "flag":
            writes[key] = Write(known.fact_type, known.role, -1, "flag", "", False)
            continue
        other = known.keys[0][1]
        other_noun = change.roles(known.fact_type)[other]
        if other_noun == noun:
            return None  # a ring: the entity could name itself
        other_is_entity = change.is_entity_type(other_noun)
        if other_is_entity and change.member_of(other_noun) != (other_noun,):
            return None
        writes[key] = Write(known.fact_type, known.role, other, known.shape, other_noun,
                            other_is_entity)
    if len({write.fact_type for write in writes.values()}) != len(writes):
        return None
    machines = state.get(MACHINES_CELL)
    machine_nouns = [str(name) for name in machines] if type(machines) is tuple else []
    names = (resolve_cell(noun), links_cell(noun), *SCHEMA_CELLS, *map(machine_cell, machine_nouns))
    triggering = {fact_type for name in machine_nouns
                  for fact_type, _ in getattr(machine_of(state, name), "triggers", ())}
    written = {write.fact_type for write in writes.values()} | {population_cell(noun)}
    quiet = (machine_of(state, noun) is None and written.isdisjoint(program.relevant)
             and written.isdisjoint(triggering))
    derived = {rule.fact_type for rule in program.rules()} | set(program.fully_derived)
    # A quiet create derives nothing, and what D derived before names no entity outside
    # its population: its representation reads no derived field.
    read_derived: set[str] = set() if quiet else derived
    shown = tuple((f.name, f.shape, f if f.fact_type in read_derived else None)
                  for f in fields(state, noun) if f.name in writes or f.fact_type in read_derived)
    start = start_of(state, noun)
    url = f"/{plural(state, noun)}/"
    navigation = _navigation(state, noun, writes, read_derived)
    # A quiet create starts no machine (the noun has none).
    flat = flat_create(state, noun, id_keys, writes, shown, url, navigation) if quiet else None
    if flat is not None:
        names = (*names, *flat.checks.read.names)
    return Plan(noun, id_keys, writes, quiet, HeldCells(state, names), shown, url, navigation,
                start, _tail_compiles(state, noun, derived, triggering, start),
                frozenset(triggering), program.written, flat)


def _tail_compiles(state: State, noun: str, derived: set[str], triggering: set[str],
                   start: Start | None) -> bool:
    """Whether what a create of noun fires and shows after its writes is known when
    compiling: no fact type the program derives is a machine's trigger (so no transition
    fires), a status (so the new entities' statuses are their starts) or a cell the
    governance check compares; and the noun's status, where it has a machine, is its field
    ``status``."""
    return (derived.isdisjoint(triggering)
            and derived.isdisjoint(governed_cells())
            and not any(name.endswith(STATUS_SUFFIX) for name in derived)
            and (start is None or any(f.name == "status" and f.fact_type == start.fact_type
                                      for f in fields(state, noun))))


def _navigation(state: State, noun: str, writes: dict[str, Write], derived: set[str]
                ) -> tuple[tuple[str, str, str, str, str, Link | None], ...]:
    """The noun's navigation links as a create shows them: a parent link points at the
    values of the input key that writes its fact type from the noun's role (no other
    asserted fact names a new entity), or at what D′ holds where its fact type is
    derived."""
    by_fact_type = {(w.fact_type, w.role): key for key, w in writes.items() if w.shape != "flag"}
    out: list[tuple[str, str, str, str, str, Link | None]] = []
    for link in followed(state, noun):
        if link.rel != PARENT:
            out.append((link.key, link.rel, "/" + quote(link.key, safe=""), "", "", None))
        else:
            out.append((link.key, PARENT, "", by_fact_type.get((link.fact_type, link.role), ""),
                        f"/{plural(state, link.noun)}/",
                        link if link.fact_type in derived else None))
    return tuple(out)


class Plans:
    """The plans over one set of fact types' roles, by (noun, input keys), filled as
    commands ask; each is a pure function of the cells it read, so threads filling one at
    once write equal values.  A shape found not plain stays so while the roles do: its
    commands are the interpreter's, which is always right."""

    def __init__(self) -> None:
        self.by_shape: dict[tuple[str, frozenset[str]], Plan | None] = {}
        self.recent: tuple[Plan, ...] = ()
        """The plans found last, in the order they were first found (at most
        :data:`MOST_RECENT`): those a create carries to the state it reached
        (:meth:`carry`)."""
        self._recent_ids: frozenset[int] = frozenset()
        self._held_apart: dict[frozenset[str], tuple[HeldCells, ...]] = {}
        """By a set of cells written: the cells the recent plans and their checks read, those
        that read none of them (:meth:`carry_apart`); emptied where the recent plans or
        their checks change."""

    def plan(self, state: State, noun: str, keys: frozenset[str]) -> Plan | None:
        """The plan for noun and keys over state, built again when a cell it read changed."""
        shape = (noun, keys)
        found = self.by_shape.get(shape)
        if found is not None:
            if found.read.holds(state):
                if id(found) not in self._recent_ids:
                    self._used(found)
                return found
        elif shape in self.by_shape:
            return None
        found = _plan(state, noun, keys)
        remember(self.by_shape, shape, found, MOST_SHAPES)
        if found is not None:
            self._used(found)
        return found

    def _used(self, plan: Plan) -> None:
        # Each attribute written whole: a thread meanwhile reads one tuple or the other,
        # and carrying any plan, or none, is sound on its own.  (The recent plans hold
        # them alive, so their ids are theirs.)
        recent = (*self.recent, plan)[-MOST_RECENT:]
        self.recent = recent
        self._recent_ids = frozenset(map(id, recent))
        self._held_apart = {}

    def remember_checks(self, plan: Plan, shape: tuple[tuple[str, ...], ...],
                        checks: WokenChecks) -> None:
        """plan's checks for a shape of delta kept (at most :data:`MOST_SHAPES`): the cells
        :meth:`carry_apart` carries are found again."""
        remember(plan.checks, shape, checks, MOST_SHAPES)
        self._held_apart = {}

    def carry(self, before: State, after: State, written: Collection[str]) -> None:
        """after is before with the cells written changed (a superset of those that differ
        will do): each plan found lately, and its checks, is known to hold over after where
        it was over before and read none of them (:meth:`Plan.carry`).  So commands of
        several shapes taking turns (Customers and Orders) find their plans without
        reading their cells, as commands of one shape do."""
        carry_all(self._held(), before, after, written)

    def carry_apart(self, before: State, after: State, written: frozenset[str]) -> None:
        """:meth:`carry` for a set of cells written that is one object per plan (a flat
        create's): the held cells that read none of them are found once, then each is
        carried where it held over before (:func:`carry_known`)."""
        held = self._held_apart.get(written)
        if held is None:
            held = tuple(cells for cells in self._held() if cells.reads_none_of(written))
            self._held_apart[written] = held
        carry_known(held, before, after)

    def _held(self) -> list[HeldCells]:
        """The cells each recent plan and its checks read."""
        held = [plan.read for plan in self.recent]
        for plan in self.recent:
            if plan.checks:
                held += [checks.read for checks in plan.checks.values()]
        return held


MOST_RECENT: Final = 4
"""The most plans a create carries to the state it reached: the shapes of the commands
taking turns lately; each carry is a few operations."""

MOST_SHAPES: Final = 1024
"""The most shapes of input kept per set of roles: inputs with ever new keys (unknown
fields) must not grow it without bound."""


def remember(memo: dict[K, V], key: K, value: V, limit: int) -> None:
    """memo[key] = value, the oldest entries evicted first while it holds limit or more
    (a thread meeting another's eviction tries again, as :class:`IdentityMemo` does).

    >>> memo = {"a": 1, "b": 2}
    >>> remember(memo, "c", 3, limit=2)
    >>> memo
    {'b': 2, 'c': 3}
    """
    while len(memo) >= limit:
        with suppress(StopIteration, RuntimeError):
            memo.pop(next(iter(memo)), None)
    memo[key] = value


_plans_by_roles: IdentityMemo[Plans] = IdentityMemo(lambda roles: Plans(), limit=16)
"""The plans of every create over the same fact types' roles (by identity); each plan
checks the other schema cells it read."""


def plans_for(state: State) -> Plans:
    """The plans of every create over D's fact types' roles."""
    return _plans_by_roles(state.get(FACT_TYPE_ROLES))
