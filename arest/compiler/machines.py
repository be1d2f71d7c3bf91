"""State machines → FFP objects, one cell ``machine:<Noun>`` each.

A machine is the object

    ⟨MACHINE, noun, s₀, ⟨terminal status, …⟩, ⟨⟨transition, event, from, to⟩, …⟩, transition,
     ⟨⟨fact type, transition⟩, …⟩, ⟨⟨verb, transition⟩, …⟩, ⟨⟨verb, status⟩, …⟩⟩

where *transition* is the transition function as a condition chain (Backus 11.2.4),
⟨s, e⟩ ↦ s′, φ when no transition takes e from s; the machine's fold over events is
``foldl ((null∘transition → 1; transition))`` from s₀ (an event that is not legal leaves the
status as it was).  The triples after it are the fact types whose facts fire a transition
(facts as events), and the verbs performed during a transition (Mealy) and in a status
(Moore): directives the command result lists as effects.

s₀ is the declared initial status, else the only status no transition enters; terminal
statuses are the declared ones and those no transition leaves.  Each machine's noun gets the
fact type ``<Noun> has Status`` (id ``<Noun>_has_Status``), which only the fold writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from arest.algebra import Object, State
from arest.algebra.forms import comp, cond, cons, const, foldl
from arest.algebra.relations import Fact, Relation
from arest.compiler.cells import (
    FACT_TYPE_READINGS,
    FACT_TYPE_ROLES,
    MACHINE_NOUNS,
    MACHINES_CELL,
    TRANSITION_FACT_TYPES,
    machine_cell,
)
from arest.compiler.change import Change
from arest.compiler.fields import status_fact_type
from arest.compiler.population import entity_ids
from arest.records import record

if TYPE_CHECKING:
    from arest.compiler.schema import MachineInfo, Schema

MACHINE = "MACHINE"


@record
class Transition:
    """One transition of a machine: from a status, on an event, to a status."""

    name: str
    event: str
    source: str
    target: str


@record
class Machine:
    """A compiled machine as the system layer reads it back."""

    noun: str
    initial: str
    terminal: tuple[str, ...]
    transitions: tuple[Transition, ...]
    function: Object
    triggers: tuple[tuple[str, str], ...] = ()
    during: tuple[tuple[str, str], ...] = ()
    within: tuple[tuple[str, str], ...] = ()

    @property
    def events(self) -> list[str]:
        """Every event of the machine, in name order."""
        return sorted({t.event for t in self.transitions})

    def legal(self, status: str) -> list[Transition]:
        """The transitions that leave status, by event then name."""
        return sorted((t for t in self.transitions if t.source == status),
                      key=lambda t: (t.event, t.name))

    def fold(self) -> Object:
        """foldl ((null∘transition → 1; transition)): ⟨s, ⟨e₁, …⟩⟩ ↦ the status after."""
        return foldl(cond(comp("null", self.function), "1", self.function))

    def as_object(self) -> Object:
        """The machine as the FFP object ``machine:<Noun>`` holds."""
        return (MACHINE, self.noun, self.initial, self.terminal,
                tuple((t.name, t.event, t.source, t.target) for t in self.transitions),
                self.function, self.triggers, self.during, self.within)

    @classmethod
    def from_object(cls, obj: Any) -> Machine:
        """The machine a cell holds: the inverse of :meth:`as_object`."""
        _, noun, initial, terminal, transitions, function, triggers, during, within = obj
        return cls(noun, initial, tuple(terminal),
                   tuple(Transition(*t) for t in transitions), function,
                   tuple(tuple(p) for p in triggers), tuple(tuple(p) for p in during),
                   tuple(tuple(p) for p in within))


def transition_function(transitions: Sequence[Transition]) -> Object:
    """⟨s, e⟩ ↦ s′ as a condition chain: (eq∘[id, ⟨from, e⟩̄] → to̅; …; φ̄)."""
    chain: Object = const(())
    for t in reversed(sorted(transitions, key=lambda t: (t.source, t.event, t.name))):
        chain = cond(comp("eq", cons("id", const((t.source, t.event)))), const(t.target),
                     chain)
    return chain


def _pairs(state: State, name: str) -> list[Fact]:
    relation = state.get(name)
    return sorted(relation) if isinstance(relation, Relation) else []


def compile_machine(info: MachineInfo, state: State) -> Machine | None:
    """The machine, or None when it has no initial status to start from."""
    transitions = tuple(
        Transition(t.name, t.event, source, t.targets[0])
        for t in info.transitions if t.targets for source in t.sources
    )
    entered = {t.target for t in transitions}
    rooted = [s for s in info.statuses if s not in entered]
    initial = info.initial[0] if info.initial else (rooted[0] if len(rooted) == 1 else None)
    if initial is None:
        return None
    left = {t.source for t in transitions}
    terminal = tuple(sorted(set(info.terminal) | {s for s in info.statuses if s not in left}))
    names = {t.name for t in transitions}
    statuses = set(info.statuses)
    triggers = tuple((fact_type.replace(" ", "_"), name) for name, fact_type in _pairs(
        state, TRANSITION_FACT_TYPES) if name in names)
    during = tuple((verb, name) for verb, name in _pairs(
        state, "Verb_is_performed_during_Transition") if name in names)
    within = tuple((verb, status) for verb, status in _pairs(
        state, "Verb_is_performed_in_Status") if status in statuses)
    return Machine(info.noun, initial, terminal, transitions, transition_function(transitions),
                   triggers, during, within)


def compiled_machines(schema: Schema, state: State) -> list[Machine]:
    """Each machine that has an initial status, by noun."""
    found = (compile_machine(info, state)
             for info in sorted(schema.machines.values(), key=lambda m: m.noun))
    return [machine for machine in found if machine is not None]


def machine_cells(machines: Sequence[Machine]) -> list[tuple[str, Object]]:
    """``machine:<Noun>`` for each machine, and ``machines``."""
    nouns: Object = tuple(machine.noun for machine in machines)
    return [*((machine_cell(m.noun), m.as_object()) for m in machines), (MACHINES_CELL, nouns)]


def trapped_cycles(machine: Machine) -> list[tuple[str, ...]]:
    """The cycles of statuses no transition leaves: ``It is obligatory that each cycle has some
    exit transition`` (a warning, not a rejection: such a machine may be meant to run forever).

    Each is a strongly connected set of two or more statuses (or one with a transition to
    itself) with no transition to a status outside it, sorted.

    >>> loop = [Transition("a", "go", "A", "B"), Transition("b", "back", "B", "A")]
    >>> trapped_cycles(Machine("N", "A", (), tuple(loop), ()))
    [('A', 'B')]
    """
    successors: dict[str, set[str]] = {}
    for t in machine.transitions:
        successors.setdefault(t.source, set()).add(t.target)
        successors.setdefault(t.target, set())

    def reach(status: str) -> set[str]:
        seen, pending = set(), [status]
        while pending:
            for following in successors[pending.pop()]:
                if following not in seen:
                    seen.add(following)
                    pending.append(following)
        return seen

    reached = {status: reach(status) for status in successors}
    found: set[tuple[str, ...]] = set()
    for status, ahead in reached.items():
        if status not in ahead:
            continue
        cycle = frozenset(s for s in ahead if status in reached[s])
        leaves = any(t.source in cycle and t.target not in cycle for t in machine.transitions)
        if not leaves:
            found.add(tuple(sorted(cycle)))
    return sorted(found)


def machine_warnings(machines: Sequence[Machine]) -> list[str]:
    """A warning for each machine cycle without an exit transition."""
    return [
        f"State Machine Definition '{machine.noun}': the statuses {', '.join(cycle)} "
        "form a cycle no transition leaves (it is obligatory that each cycle has some exit "
        "transition)"
        for machine in machines for cycle in trapped_cycles(machine)
    ]


def initial_statuses(machines: Sequence[Machine], state: State) -> State:
    """D with every entity of a machine's noun that has no status in the machine's s₀,
    however it came to be (an instance fact in the readings, a fact naming it, a machine
    added after it); D itself when every such entity has its status."""
    change = Change(state)
    for machine in machines:
        fact_type = status_fact_type(machine.noun)
        held = state.get(fact_type)
        having = set(held.values(0)) if isinstance(held, Relation) else set()
        for entity in entity_ids(state, machine.noun):
            if entity not in having:
                change.add(fact_type, (entity, machine.initial))
    return change.state


def status_facts(state: State) -> list[tuple[str, Fact]]:
    """The metamodel facts declaring ``<Noun> has Status`` for each machine's noun."""
    facts: list[tuple[str, Fact]] = []
    for _, noun in _pairs(state, MACHINE_NOUNS):
        fact_type = status_fact_type(noun)
        facts.append((FACT_TYPE_READINGS, (fact_type, f"{noun} has Status")))
        facts.append((FACT_TYPE_ROLES, (fact_type, noun, "0")))
        facts.append((FACT_TYPE_ROLES, (fact_type, "Status", "1")))
    return facts
