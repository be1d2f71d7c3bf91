"""The plans a create carries to the state it reached (``Plans.carry``) are known to hold
there only where reading every cell they read says so.

Two laws make it so:

    derive(D, S, Δ) differs from S in cells of program(D).written alone
    known(P, S) ∧ S′ = S with the cells W written ∧ read(P) ∩ W = ∅  ⇒  holds(P, S′)

The first is stated over generated domains with rules (counts among them), their
populations added and taken away; the second by every plan a sequence of creates leaves
known, over generated domains and over the benchmark's Customers and Orders taking turns.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import arest
from arest.algebra import State
from arest.algebra.relations import Relation
from arest.compiler.cells import population_cell
from arest.compiler.change import Change
from arest.compiler.population import role_nouns
from arest.system.apply import interpret, run
from arest.system.commands import parse_key
from arest.system.create_plans import plans_for
from arest.system.derive import program_of, relation_of
from arest.system.dred import derive
from arest.system.held_cells import HeldCells
from arest.testing import bulk_load, populations, readings
from tests.corpus import loaded
from tests.system.test_compiled_create import HUMAN, Shown, create_inputs, create_keys

Facts = dict[str, set[tuple[str, ...]]]


def changed_cells(before: State, after: State) -> set[str]:
    return {name for name in {*before, *after} if before.get(name) is not after.get(name)}


def read_each(held: HeldCells, state: State) -> bool:
    return all(state.get(name) is contents for name, contents in zip(
        held.names, held.contents, strict=True))


def assert_known_plans_hold(state: State) -> None:
    """Every plan (and its checks) known to hold over state holds by reading each cell."""
    for plan in plans_for(state).recent:
        for held in (plan.read, *(checks.read for checks in plan.checks.values())):
            assert not held.known(state) or read_each(held, state)


def by_fact_type(facts: Any) -> Facts:
    grouped: Facts = {}
    for fact_type, bindings in facts:
        grouped.setdefault(fact_type, set()).add(tuple(bindings))
    return grouped


def joined(D: State, added: Facts) -> dict[str, set[str]]:
    """The entities the facts name, by noun, as a create joins them to their populations."""
    change = Change(D)
    entities: dict[str, set[str]] = {}
    for fact_type, facts in added.items():
        for role, noun in enumerate(role_nouns(D, fact_type)):
            if change.is_entity_type(noun):
                entities.setdefault(noun, set()).update(fact[role] for fact in facts)
    return entities


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(readings(max_constructs=3, machines=True), st.booleans(), st.data())
def test_a_derivation_writes_only_its_program_s_cells(text: str, taken: bool,
                                                      data: st.DataObject) -> None:
    """A derivation from a delta (facts and entities added, or facts taken away from a
    population there before) reaches a state differing from the one it started from in
    cells of ``Program.written`` alone."""
    D = arest.compile(text)
    program = program_of(D)
    assume(program.written)
    population = by_fact_type(data.draw(populations(D)).facts)
    assume(population)
    if taken:
        D = bulk_load(D, [(f, fact) for f, facts in population.items() for fact in facts])
        removed = {f: set(data.draw(st.sets(st.sampled_from(sorted(facts)), min_size=1)))
                   for f, facts in population.items()}
        started = D.update({f: relation_of(D, f, len(next(iter(facts)))).updated(
            (), facts) for f, facts in removed.items()})
        after, _ = derive(D, started, {}, removed)
    else:
        entities = joined(D, population)
        cells: dict[str, Any] = {f: relation_of(D, f, len(next(iter(facts)))).extended(facts)
                                 for f, facts in population.items()}
        for noun, ids in entities.items():
            known = D.get(population_cell(noun))
            members = known if isinstance(known, Relation) else Relation(1)
            cells[population_cell(noun)] = members.extended((entity,) for entity in ids)
        started = D.update(cells)
        after, _ = derive(D, started, population, {}, entities)
    assert changed_cells(started, after) <= program.written


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(readings(max_constructs=3, machines=True), st.data())
def test_the_plans_known_after_a_sequence_of_creates_hold(text: str,
                                                        data: st.DataObject) -> None:
    """Creates over generated domains (machines and rules among them), each over the state
    the one before reached and answered as the interpreter answers: after each, every plan
    known to hold over the state reached holds by reading its cells."""
    D = arest.compile(text)
    assume(create_keys(D))
    population = data.draw(populations(D))
    if population.facts:
        out, after = arest.apply(D, *population.command())
        if out.get("rejected") is False:
            D = after
    for key, request in data.draw(st.lists(create_inputs(Shown(D)), min_size=2, max_size=6)):
        try:
            command = parse_key(key, request)
        except Exception:  # a refused key leaves the plans alone
            continue
        out, after = run(D, command, HUMAN)
        assert (out, after) == interpret(D, command, HUMAN), (key, request)
        assert_known_plans_hold(after)
        D = after


def test_customers_and_orders_taking_turns_find_their_plans_known() -> None:
    """The benchmark's sequence: each create finds its plan known over the state the other
    kind reached (nothing read), and every plan known holds."""
    D = loaded("orders")
    customer = {"id": "c0@example.com", "Name": "C 0"}
    D = run(D, parse_key("create:Customer", customer), HUMAN)[1]
    for n in range(1, 4):
        customer = {"id": f"c{n}@example.com", "Name": f"C {n}"}
        order = {"id": f"o-{n}", "Customer": "c0@example.com", "LineItem": [
            {"Product": "sku-hammer", "Quantity": 2}]}
        for key, request in (("create:Order", order), ("create:Customer", customer)):
            noun = key.partition(":")[2]
            plan = plans_for(D).by_shape.get((noun, frozenset(request)))
            if n > 1:
                assert plan is not None and plan.read.known(D)
            command = parse_key(key, request)
            out, after = run(D, command, HUMAN)
            assert out["rejected"] is False
            assert (out, after) == interpret(D, command, HUMAN)
            assert_known_plans_hold(after)
            D = after
