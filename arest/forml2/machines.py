"""State machine facts a reading cannot attribute: a transition name shared by machines.

A transition's ``from`` and ``to`` facts (``Transition 'cancel' is from Status 'Open'.``)
name no machine; they are read within the machine that defines the transition, by the
statuses that machine declares (``… is defined in``, ``… is initial in``, ``… is terminal
in``; DESIGN Appendix A).  When a name is defined in two or more machines, each of its
``from`` and ``to`` statuses must be declared in exactly one of them.  A status declared
in several of them, or in none (statuses derived from transition endpoints cannot decide
it either: that derivation starts from the machine the transition is in), leaves the fact
about no one machine: a diagnostic on that fact, or, when the facts were all read earlier,
on this reading's ``is defined in`` sentence that makes the name shared.

A machine's statuses are the declared ones and its transitions' endpoints, so a misspelt
target (``… is to Status 'InProgress'`` beside a declared ``In Progress``) is a status of
its own, one no transition leaves: a warning on that sentence names the status meant.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from arest.forml2.constructs import InstanceFact, Source

TRANSITION_DEFINED = "Transition_is_defined_in_State_Machine_Definition"
ENDPOINTS = ("Transition_is_from_Status", "Transition_is_to_Status")
STATUS_DECLARED = (
    "Status_is_defined_in_State_Machine_Definition",
    "Status_is_initial_in_State_Machine_Definition",
    "Status_is_terminal_in_State_Machine_Definition",
)
TRIGGERED = "Transition_is_triggered_by_Event_Type"
MACHINE_FACT_TYPES = frozenset((TRANSITION_DEFINED, *ENDPOINTS, *STATUS_DECLARED, TRIGGERED))
"""The fact types whose facts the check reads."""


def _listed(names: Sequence[str]) -> str:
    quoted = [f"'{n}'" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def indistinguishable_transitions(
    facts: Sequence[InstanceFact], fresh: Collection[Source]
) -> list[tuple[Source, str]]:
    """Per sentence of ``fresh`` (this reading's), why it states a transition fact no one
    machine owns; ``facts`` are the state machine facts read so far, this reading's included.

    >>> def fact(ft, *values, line=1):
    ...     return InstanceFact(ft, values, Source("<t>", line, 1, ""))
    >>> facts = [
    ...     fact(TRANSITION_DEFINED, "cancel", "Order"),
    ...     fact(TRANSITION_DEFINED, "cancel", "Payment"),
    ...     fact("Status_is_defined_in_State_Machine_Definition", "Open", "Order"),
    ...     fact("Status_is_defined_in_State_Machine_Definition", "Open", "Payment"),
    ...     fact("Transition_is_from_Status", "cancel", "Open", line=5),
    ... ]
    >>> found = indistinguishable_transitions(facts, {f.source for f in facts})
    >>> [(source.line, message[:60]) for source, message in found]
    [(5, "Transition 'cancel' is defined in State Machine Definitions ")]
    """
    machines_of: dict[str, list[str]] = {}
    statuses: dict[str, set[str]] = {}
    for fact in facts:
        if fact.fact_type == TRANSITION_DEFINED:
            machines = machines_of.setdefault(fact.values[0], [])
            if fact.values[1] not in machines:
                machines.append(fact.values[1])
        elif fact.fact_type in STATUS_DECLARED:
            statuses.setdefault(fact.values[1], set()).add(fact.values[0])
    out: list[tuple[Source, str]] = []
    for name, machines in machines_of.items():
        if len(machines) < 2:
            continue
        out.extend(_mixed_events(name, machines, facts, fresh))
        unowned = [
            (fact, [m for m in machines if fact.values[1] in statuses.get(m, set())])
            for fact in facts
            if fact.fact_type in ENDPOINTS and fact.values[0] == name
        ]
        unowned = [(fact, owners) for fact, owners in unowned if len(owners) != 1]
        if not unowned:
            continue
        said = [(fact.source, _message(name, machines, fact, owners)) for fact, owners in unowned]
        here = [(source, message) for source, message in said if source in fresh]
        if not here:
            defining = [
                fact.source
                for fact in facts
                if fact.fact_type == TRANSITION_DEFINED
                and fact.values[0] == name
                and fact.source in fresh
            ]
            here = [(source, said[0][1]) for source in defining]
        out.extend(here)
    return out


def _mixed_events(
    name: str, machines: list[str], facts: Sequence[InstanceFact], fresh: Collection[Source]
) -> list[tuple[Source, str]]:
    """A shared transition name with two Event Types: a trigger names no machine, so each
    machine would fire the transition on every one of them."""
    triggers = [f for f in facts if f.fact_type == TRIGGERED and f.values[0] == name]
    events = sorted({f.values[1] for f in triggers})
    if len(events) < 2:
        return []
    message = (
        f"Transition '{name}' is defined in State Machine Definitions {_listed(machines)} and"
        f" triggered by Event Types {_listed(events)}: a trigger names no machine, so each"
        f" machine would fire '{name}' on all of them; give each machine's transition its own"
        f" name (e.g. '{machines[0].lower().replace(' ', '-')}-{name}')"
    )
    return [(f.source, message) for f in triggers if f.source in fresh]


def _message(name: str, machines: list[str], fact: InstanceFact, owners: list[str]) -> str:
    status = fact.values[1]
    whose = f"a status of {_listed(owners)}" if owners else "declared in none of them"
    end = "from" if fact.fact_type == ENDPOINTS[0] else "to"
    return (
        f"Transition '{name}' is defined in State Machine Definitions {_listed(machines)},"
        f" and Status '{status}' is {whose}, so `Transition '{name}' is {end} Status"
        f" '{status}'` belongs to no one machine: give each machine's transition its own"
        f" name (e.g. '{machines[0].lower().replace(' ', '-')}-{name}') and share the event"
        f" with `… is triggered by Event Type '{name}'`"
        + ("" if owners else ", or declare the status in the machine it belongs to")
    )


def _normalized(status: str) -> str:
    return "".join(c for c in status.casefold() if c.isalnum())


def _edits(a: str, b: str) -> int:
    """Levenshtein distance: the fewest insertions, deletions and substitutions a → b.

    >>> _edits("cancelled", "canceled"), _edits("shipped", "shipped")
    (1, 0)
    """
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def _close(named: str, declared: str) -> bool:
    """Whether two status names differ only in case, spacing and punctuation, or by one
    edit in five letters (two in nine)."""
    a, b = _normalized(named), _normalized(declared)
    shorter = min(len(a), len(b))
    allowed = 2 if shorter >= 9 else 1 if shorter >= 5 else 0
    return a == b or _edits(a, b) <= allowed


def mistyped_statuses(
    facts: Sequence[InstanceFact], fresh: Collection[Source]
) -> list[tuple[Source, str]]:
    """Per ``… is to Status`` sentence of ``fresh``, a warning when its status is declared
    in no machine, no transition leaves it, and it is close to a status its machine has.

    >>> def fact(ft, *values, line=1):
    ...     return InstanceFact(ft, values, Source("<t>", line, 1, ""))
    >>> facts = [
    ...     fact(TRANSITION_DEFINED, "start", "Task"),
    ...     fact("Status_is_defined_in_State_Machine_Definition", "In Progress", "Task"),
    ...     fact("Transition_is_to_Status", "start", "InProgress", line=3),
    ... ]
    >>> [(source.line, message[:47]) for source, message in mistyped_statuses(
    ...     facts, {f.source for f in facts})]
    [(3, "Status 'InProgress' is named only as the target")]
    """
    machines_of: dict[str, set[str]] = {}
    declared: dict[str, set[str]] = {}
    for fact in facts:
        if fact.fact_type == TRANSITION_DEFINED:
            machines_of.setdefault(fact.values[0], set()).add(fact.values[1])
        elif fact.fact_type in STATUS_DECLARED:
            declared.setdefault(fact.values[1], set()).add(fact.values[0])
    left = {
        (machine, fact.values[1])
        for fact in facts if fact.fact_type == ENDPOINTS[0]
        for machine in machines_of.get(fact.values[0], ())
    }
    known = {status for statuses in declared.values() for status in statuses}
    out: list[tuple[Source, str]] = []
    for fact in facts:
        if fact.fact_type != ENDPOINTS[1] or fact.source not in fresh:
            continue
        name, status = fact.values
        machines = machines_of.get(name, set())
        if len(machines) != 1 or status in known:
            continue
        machine = next(iter(machines))
        if (machine, status) in left:
            continue
        candidates = declared.get(machine, set()) | {s for m, s in left if m == machine}
        meant = sorted(c for c in candidates if c != status and _close(status, c))
        if meant:
            out.append((fact.source, (
                f"Status '{status}' is named only as the target of Transition '{name}', no"
                f" transition leaves it, and State Machine Definition '{machine}' has"
                f" {_listed(meant)}: did you mean Status '{meant[0]}'? (as written,"
                f" '{status}' is a status of its own)")))
    return out
