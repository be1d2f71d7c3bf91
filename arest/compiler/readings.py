"""Readings → D: the metamodel's facts and the tenant's populate P, each noun's fields are
compiled into ``resolve:<Noun>``, and the readings themselves are kept in D so that a later
``compile`` continues from them.

Cells written here besides the fact types: ``resolve:<Noun>``; ``machine:<Noun>``
(:mod:`arest.compiler.machines`); ``derivation:<id>`` and ``derivations``
(:mod:`arest.compiler.derivations`); ``constraint:<id>`` and the
trigger index ``triggers:…`` (:mod:`arest.compiler.constraints`); ``readings:source`` (the texts,
⟨⟨path, text⟩, …⟩, base readings first); ``readings:warnings`` (compiler-style warnings).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from arest.algebra import EMPTY_STATE, Object, State, store_all
from arest.algebra.relations import Fact, Relation
from arest.compiler.cells import (
    FACT_TYPE_READINGS,
    SOURCE_CELL,
    TRANSITION_FACT_TYPES,
    WARNINGS_CELL,
)
from arest.compiler.change import with_populations
from arest.compiler.constraints import compile_constraints, constraint_cells
from arest.compiler.derivations import compile_rule, program, program_cells, strata
from arest.compiler.fields import resolve_cells
from arest.compiler.links import link_cells
from arest.compiler.machines import (
    compiled_machines,
    initial_statuses,
    machine_cells,
    machine_warnings,
    status_facts,
)
from arest.compiler.plans import RuleError
from arest.compiler.population import membership_facts, with_facts
from arest.compiler.schema import ConstraintInfo, schema_of
from arest.forml2 import (
    Constraint,
    DerivationRule,
    Diagnostic,
    Reading,
    ReadingError,
    metamodel,
    read,
)
from arest.records import record

Source = tuple[str, str]
"""A readings text and where it came from: (path, text)."""


@record
class Compiled:
    """What reading the texts gave: every metamodel fact and every warning, in order, and
    where each constraint was written (for diagnostics about the population)."""

    facts: tuple[tuple[str, Fact], ...]
    warnings: tuple[str, ...]
    constraint_sources: tuple[tuple[str, tuple[str, int, int]], ...] = ()
    rules: tuple[DerivationRule, ...] = ()

    def source_of(self, constraint_id: str) -> tuple[str, int, int]:
        """(path, line, column) of the sentence that states the constraint."""
        return dict(self.constraint_sources).get(constraint_id, ("<readings>", 0, 0))


@lru_cache(maxsize=16)
def read_sources(sources: tuple[Source, ...], strict: bool = False) -> Compiled:
    """Read every text on top of the metamodel and the texts before it; raise
    :class:`ReadingError` with every diagnostic of every text."""
    base = metamodel()
    facts = list(base.facts)
    warnings: list[str] = []
    errors: list[Diagnostic] = []
    placed = [
        (c.id, (c.source.path, c.source.line, c.source.column))
        for c in base.constructs if isinstance(c, Constraint)
    ]
    known: Reading = base
    readings: list[Reading] = []
    for path, text in sources:
        known = read(text, path, known=known, strict=strict)
        readings.append(known)
        errors.extend(known.diagnostics)
        warnings.extend(str(warning) for warning in known.warnings)
        facts.extend(known.facts)
        placed.extend(
            (c.id, (c.source.path, c.source.line, c.source.column))
            for c in known.constructs if isinstance(c, Constraint)
        )
    rules = [c for c in (*base.constructs, *(c for r in readings for c in r.constructs))
             if isinstance(c, DerivationRule)]
    errors.extend(_rule_errors(rules, known))
    if errors:
        raise ReadingError(tuple(errors), tuple(warnings))
    return Compiled(tuple(facts), tuple(warnings), tuple(placed), tuple(rules))


def _rule_errors(rules: list[DerivationRule], known: Reading) -> list[Diagnostic]:
    """A diagnostic at each rule the engine cannot evaluate, and at a rule on a cycle
    through negation or aggregation."""
    found: list[Diagnostic] = []
    compiled = []
    memberships = {link.membership: link for link in known.schema.subtypes}
    for rule in rules:
        link = memberships.get(rule.consequent.fact_type)
        if link is not None:
            # A subtype's population (and so its constraints) follows asserted membership;
            # a derived member would be a Doctor no Doctor constraint ever checks.
            found.append(_at(rule, (
                f"`{rule.reading}` derives membership of the subtype {link.sub}, which arest "
                f"cannot enforce: {link.sub}'s constraints check asserted members only. "
                f"Assert `{link.sup} is a {link.sub}` instead, or derive a fact type of "
                f"your own (e.g. `{link.sup} is qualified`)")))
            continue
        try:
            declared = known.schema.fact_types.get(rule.consequent.fact_type)
            compiled.append(compile_rule(rule, declared.roles if declared else ()))
        except RuleError as error:
            found.append(_at(rule, str(error)))
    try:
        strata(compiled)
    except RuleError as error:
        culprit = next((r for r in rules if f"`{r.reading}`" in str(error)), rules[0])
        found.append(_at(culprit, str(error)))
    return found


def _at(rule: DerivationRule, message: str) -> Diagnostic:
    return Diagnostic(rule.source.path, rule.source.line, rule.source.column, message,
                      rule.reading)


def _unenforceable(c: ConstraintInfo, compiled: Compiled) -> Diagnostic:
    """The diagnostic for a constraint the compiler has no check for: refused, never
    dropped."""
    return Diagnostic(
        *compiled.source_of(c.id),
        f"arest cannot check this {c.kind} constraint as written, so it would not be "
        "enforced; state it over clauses that share a variable (`that <Noun>`), one "
        "fact type per clause",
        c.reading,
    )


def sources_of(state: State) -> tuple[Source, ...]:
    """The readings D was compiled from."""
    contents = state.get(SOURCE_CELL)
    if type(contents) is not tuple:
        return ()
    return tuple((str(item[0]), str(item[1])) for item in contents if type(item) is tuple)


def warnings_of(state: State) -> tuple[str, ...]:
    """The warnings reading D's readings gave, compiler-style (``arest.warnings``)."""
    contents = state.get(WARNINGS_CELL)
    return tuple(str(item) for item in contents) if type(contents) is tuple else ()


_BY_FACT_TYPE = frozenset({TRANSITION_FACT_TYPES})
"""Metamodel fact types whose Fact Type role a reading may name by its text."""


def _fact_types_by_id(state: State, facts: Iterable[tuple[str, Fact]]
                      ) -> list[tuple[str, Fact]]:
    """The facts, with a fact type named by one of its readings (``Fact Type 'Customer
    places Order'``) named by its id instead."""
    facts = list(facts)
    known = state.get(FACT_TYPE_READINGS)
    by_text = {text: fact_type for fact_type, text in known} if isinstance(known, Relation) \
        else {}
    by_text.update((fact[1], fact[0]) for name, fact in facts
                   if name == FACT_TYPE_READINGS)
    return [(name, (fact[0], by_text.get(fact[1], fact[1]))) if name in _BY_FACT_TYPE
            else (name, fact) for name, fact in facts]


def build(state: State | None, sources: Iterable[Source], compiled: Compiled) -> State:
    """D (or an empty state) with the facts added, the fields recompiled and the sources and
    warnings recorded; :class:`ReadingError` at each constraint the compiler has no check
    for."""
    sources = tuple(sources)
    base = state if state is not None else EMPTY_STATE
    declared = with_facts(base, _fact_types_by_id(base, compiled.facts))
    populated = with_populations(with_facts(
        declared, [*membership_facts(declared), *status_facts(declared)]))
    source_object: Object = tuple((path, text) for path, text in sources)
    schema = schema_of(populated)
    constraints, refused = compile_constraints(schema)
    if refused:
        raise ReadingError(tuple(_unenforceable(c, compiled) for c in refused),
                           compiled.warnings)
    machines = compiled_machines(schema, populated)
    return initial_statuses(machines, store_all(
        populated,
        [
            *resolve_cells(schema),
            *link_cells(schema),
            *constraint_cells(constraints),
            *program_cells(program(schema, compiled.rules)),
            *machine_cells(machines),
            (SOURCE_CELL, source_object),
            (WARNINGS_CELL, (*compiled.warnings, *machine_warnings(machines))),
        ],
    ))
