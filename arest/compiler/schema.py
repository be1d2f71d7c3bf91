"""The schema, read back from the metamodel's relations in P.

Readings populate the metamodel's fact types (``Noun_has_Object_Type``,
``Fact_Type_has_Noun_at_Position``, ``Constraint_has_Constraint_Kind``, …); this module is
the projection that turns those facts into nouns, fact types, constraints, rules and state
machines.  Everything is sorted: a relation has no order of its own.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from arest.algebra import State
from arest.algebra.relations import Fact, Relation
from arest.compiler.cells import (
    FACT_TYPE_READINGS,
    FACT_TYPE_ROLES,
    MACHINE_NOUNS,
    NOUN_OBJECT_TYPES,
    NOUN_PLURALS,
    NOUN_REFERENCE_SCHEMES,
    NOUN_SUPERTYPES,
    RULE_FACT_TYPES,
    RULE_MODES,
)
from arest.records import record


@record
class NounInfo:
    """A noun: its kind (``entity``, ``value``, ``abstract``), reference scheme, supertypes
    and declared plural."""

    name: str
    kind: str
    reference: tuple[str, ...]
    supertypes: tuple[str, ...]
    plural: str | None


@record
class FactTypeInfo:
    """A fact type: its role nouns in role order, its readings (the one its id was made from
    first) and its derivation mode (``""`` when asserted only)."""

    id: str
    roles: tuple[str, ...]
    readings: tuple[str, ...]
    mode: str


@record
class ConstraintInfo:
    """A constraint as the metamodel states it: what the compiler turns into a check."""

    id: str
    kind: str
    modality: str
    reading: str
    spans: tuple[tuple[str, int, int], ...]
    """(fact type, role, clause) for every role the constraint spans."""
    operator: str = ""
    minimum: int | None = None
    maximum: int | None = None
    comparison: tuple[str, str] | None = None
    allowed: tuple[str, ...] = ()
    noun: str = ""
    joins: tuple[tuple[str, int, str, int, int], ...] = ()
    """(fact type, role, fact type, role, clause): roles of one clause that must agree."""
    restrictions: tuple[tuple[str, int, str, int], ...] = ()
    """(fact type, role, value, clause): within the clause, only the facts of the fact type
    whose role holds the value count (the literal the clause writes there)."""
    terms: tuple[tuple[int, int, str], ...] = ()
    """(clause, role, term) for a conditional: the variable or quoted literal at each role
    of each clause's fact type."""
    antecedents: int = 0
    """For a conditional, how many of its clauses (the first ones) are its antecedent."""

    def atoms(self) -> list[tuple[str, tuple[str, ...]]]:
        """A conditional's clauses as (fact type, term per role), in clause order.

        >>> c = ConstraintInfo("c", "SS", "alethic", "", (("A_has_B", 0, 1), ("A_is_C", 0, 2)),
        ...                    terms=((1, 0, "A"), (1, 1, "'b'"), (2, 0, "A")), antecedents=1)
        >>> c.atoms()
        [('A_has_B', ('A', "'b'")), ('A_is_C', ('A',))]
        """
        fact_types = {clause: fact_type for fact_type, _, clause in reversed(self.spans)}
        by_clause: dict[int, dict[int, str]] = {}
        for clause, role, term in self.terms:
            by_clause.setdefault(clause, {})[role] = term
        return [(fact_types[clause], tuple(terms[r] for r in sorted(terms)))
                for clause, terms in sorted(by_clause.items())]

    def restricted(self, clause: int, fact_type: str) -> tuple[tuple[int, str], ...]:
        """(role, value) for each literal clause ``clause`` (1-based) writes in fact_type.

        >>> c = ConstraintInfo("c", "SS", "alethic", "", (("A_has_B", 0, 1),),
        ...                    restrictions=(("A_has_B", 1, "red", 1),))
        >>> c.restricted(1, "A_has_B"), c.restricted(2, "A_has_B")
        (((1, 'red'),), ())
        """
        return tuple(
            (role, value)
            for restricted, role, value, number in self.restrictions
            if number == clause and restricted == fact_type
        )

    def clauses(self) -> list[list[tuple[str, tuple[int, ...]]]]:
        """Per clause, each fact type it spans with the roles spanned there, in order."""
        by_clause: dict[int, dict[str, list[int]]] = {}
        for fact_type, role, clause in self.spans:
            by_clause.setdefault(clause, {}).setdefault(fact_type, []).append(role)
        return [
            [(fact_type, tuple(sorted(roles))) for fact_type, roles in by_clause[clause].items()]
            for clause in sorted(by_clause)
        ]


@record
class RuleInfo:
    """A derivation rule: its sentence, the fact type it derives and its mode."""

    id: str
    reading: str
    fact_type: str
    mode: str


@record
class TransitionInfo:
    """A transition of a machine: the statuses it leaves and enters, and its event."""

    name: str
    sources: tuple[str, ...]
    targets: tuple[str, ...]
    event: str


@record
class MachineInfo:
    """A state machine definition as declared, before :mod:`arest.compiler.machines`
    compiles it."""

    id: str
    noun: str
    initial: tuple[str, ...]
    statuses: tuple[str, ...]
    terminal: tuple[str, ...]
    transitions: tuple[TransitionInfo, ...]


@record
class Schema:
    """Everything D's metamodel facts declare, by id (:func:`schema_of`)."""

    nouns: dict[str, NounInfo]
    fact_types: dict[str, FactTypeInfo]
    constraints: dict[str, ConstraintInfo]
    rules: dict[str, RuleInfo]
    machines: dict[str, MachineInfo]

    def played_by(self, noun: str) -> Iterator[FactTypeInfo]:
        """The fact types in which noun plays a role, by id."""
        for fact_type in self.fact_types.values():
            if noun in fact_type.roles:
                yield fact_type


def _facts(state: State, fact_type: str) -> list[Fact]:
    contents = state.get(fact_type)
    return sorted(contents) if isinstance(contents, Relation) else []


def _pairs(state: State, fact_type: str) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = defaultdict(list)
    for fact in _facts(state, fact_type):
        grouped[fact[0]].append(fact[1])
    return grouped


def _single(grouped: dict[str, list[str]], key: str, default: str = "") -> str:
    values = grouped.get(key)
    return values[0] if values else default


def _primary_first(fact_type: str, readings: list[str]) -> tuple[str, ...]:
    """The reading the id was made from first, then the others in text order."""

    def spelled_as_id(reading: str) -> bool:
        return reading.replace(" ", "_").lower() == fact_type.lower()

    return tuple(sorted(readings, key=lambda reading: (not spelled_as_id(reading), reading)))


def schema_of(state: State) -> Schema:
    """The schema that D's metamodel facts describe.

    >>> import arest
    >>> schema = schema_of(arest.compile("Order(.id) is an entity type.\\n"
    ...                                  "Customer(.Name) is an entity type.\\n"
    ...                                  "Order was placed by Customer.\\n"))
    >>> schema.fact_types["Order_was_placed_by_Customer"].roles
    ('Order', 'Customer')
    >>> [f.id for f in schema.played_by("Customer")]
    ['Customer_has_Name', 'Order_was_placed_by_Customer']
    """
    kinds = _pairs(state, NOUN_OBJECT_TYPES)
    references = _pairs(state, NOUN_REFERENCE_SCHEMES)
    supertypes = _pairs(state, NOUN_SUPERTYPES)
    plurals = _pairs(state, NOUN_PLURALS)
    nouns = {
        name: NounInfo(
            name,
            _single(kinds, name),
            tuple(part.strip() for part in _single(references, name).split(",") if part.strip()),
            tuple(supertypes.get(name, ())),
            _single(plurals, name) or None,
        )
        for name in sorted(kinds)
    }
    roles: dict[str, dict[int, str]] = defaultdict(dict)
    for fact_type, noun, position in _facts(state, FACT_TYPE_ROLES):
        roles[fact_type][int(position)] = noun
    readings = _pairs(state, FACT_TYPE_READINGS)
    modes = _pairs(state, "Fact_Type_has_Derivation_Mode")
    fact_types = {
        fact_type: FactTypeInfo(
            fact_type,
            tuple(roles[fact_type][index] for index in sorted(roles[fact_type])),
            _primary_first(fact_type, readings.get(fact_type, [])),
            _single(modes, fact_type),
        )
        for fact_type in sorted(roles)
    }
    constraint_kinds = _pairs(state, "Constraint_has_Constraint_Kind")
    modalities = _pairs(state, "Constraint_has_Modality")
    constraint_readings = _pairs(state, "Constraint_has_Reading_Text")
    spans: dict[str, list[tuple[str, int, int]]] = defaultdict(list)
    for constraint, fact_type, role, clause in _facts(
        state, "Constraint_spans_Fact_Type_at_Position_in_Clause_Number"
    ):
        spans[constraint].append((fact_type, int(role), int(clause)))
    operators = _pairs(state, "Constraint_has_Deontic_Operator")
    minimums = _pairs(state, "Constraint_has_Minimum_Frequency")
    maximums = _pairs(state, "Constraint_has_Maximum_Frequency")
    comparison_operators = _pairs(state, "Constraint_has_Comparison_Operator")
    comparison_values = _pairs(state, "Constraint_has_Comparison_Value")
    allowed = _pairs(state, "Constraint_allows_Allowed_Value")
    on_noun = _pairs(state, "Constraint_is_on_Noun")
    joins: dict[str, list[tuple[str, int, str, int, int]]] = defaultdict(list)
    for constraint, left, left_role, right, right_role, clause in _facts(
        state, "Constraint_joins_Fact_Type_at_Position_to_Fact_Type_at_Position_in_Clause_Number"
    ):
        joins[constraint].append((left, int(left_role), right, int(right_role), int(clause)))
    restrictions: dict[str, list[tuple[str, int, str, int]]] = defaultdict(list)
    for constraint, fact_type, role, value, clause in _facts(
        state, "Constraint_restricts_Fact_Type_at_Position_to_Allowed_Value_in_Clause_Number"
    ):
        restrictions[constraint].append((fact_type, int(role), value, int(clause)))
    terms: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    for constraint, term, role, clause in _facts(
        state, "Constraint_binds_Variable_at_Position_in_Clause_Number"
    ):
        terms[constraint].append((int(clause), int(role), term))
    antecedents = _pairs(state, "Constraint_has_Antecedent_Count")

    def number(grouped: dict[str, list[str]], key: str) -> int | None:
        text = _single(grouped, key)
        return int(text) if text else None

    constraints = {
        constraint: ConstraintInfo(
            constraint,
            _single(constraint_kinds, constraint),
            _single(modalities, constraint, "alethic"),
            _single(constraint_readings, constraint),
            tuple(sorted(spans[constraint], key=lambda span: (span[2], span[0], span[1]))),
            _single(operators, constraint),
            number(minimums, constraint),
            number(maximums, constraint),
            (_single(comparison_operators, constraint), _single(comparison_values, constraint))
            if constraint in comparison_operators else None,
            tuple(allowed.get(constraint, ())),
            _single(on_noun, constraint),
            tuple(sorted(joins.get(constraint, ()))),
            tuple(sorted(restrictions.get(constraint, ()), key=lambda r: (r[3], r[0], r[1]))),
            tuple(sorted(terms.get(constraint, ()))),
            number(antecedents, constraint) or 0,
        )
        for constraint in sorted(constraint_kinds)
    }
    derives = _pairs(state, RULE_FACT_TYPES)
    rule_readings = _pairs(state, "Derivation_Rule_has_Reading_Text")
    rule_modes = _pairs(state, RULE_MODES)
    rules = {
        rule: RuleInfo(
            rule, _single(rule_readings, rule), _single(derives, rule), _single(rule_modes, rule)
        )
        for rule in sorted(derives)
    }
    return Schema(nouns, fact_types, constraints, rules, _machines(state))


def _machines(state: State) -> dict[str, MachineInfo]:
    """Each machine with its statuses: the declared ones and the endpoints of its
    transitions.  A transition name defined in several machines names no machine in its
    ``from``/``to`` facts, so its endpoints are read by the statuses a machine has
    otherwise (the reader rejects the ones no one machine owns)."""
    for_noun = _pairs(state, MACHINE_NOUNS)
    by_machine: dict[str, dict[str, list[str]]] = {}
    for key, fact_type in (
        ("initial", "Status_is_initial_in_State_Machine_Definition"),
        ("defined", "Status_is_defined_in_State_Machine_Definition"),
        ("terminal", "Status_is_terminal_in_State_Machine_Definition"),
        ("transitions", "Transition_is_defined_in_State_Machine_Definition"),
    ):
        for item, machine in _facts(state, fact_type):
            by_machine.setdefault(machine, defaultdict(list))[key].append(item)
    sources = _pairs(state, "Transition_is_from_Status")
    targets = _pairs(state, "Transition_is_to_Status")
    events = _pairs(state, "Transition_is_triggered_by_Event_Type")
    defined_in: dict[str, int] = defaultdict(int)
    for parts in by_machine.values():
        for name in set(parts["transitions"]):
            defined_in[name] += 1
    machines: dict[str, MachineInfo] = {}
    for machine in sorted(for_noun):
        parts = by_machine.get(machine, defaultdict(list))
        declared = {*parts["initial"], *parts["defined"], *parts["terminal"]}
        statuses = sorted(declared.union(*(
            (*sources.get(name, []), *targets.get(name, []))
            for name in parts["transitions"] if defined_in[name] == 1)))
        transitions = tuple(
            TransitionInfo(
                name,
                tuple(s for s in sources.get(name, []) if s in statuses),
                tuple(t for t in targets.get(name, []) if t in statuses),
                _single(events, name, name),
            )
            for name in sorted(parts["transitions"])
        )
        machines[machine] = MachineInfo(
            machine,
            _single(for_noun, machine),
            tuple(sorted(parts["initial"])),
            tuple(statuses),
            tuple(sorted(parts["terminal"])),
            transitions,
        )
    return machines
