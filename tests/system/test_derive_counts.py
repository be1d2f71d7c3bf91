"""A count rule maintained by its own step (``arest.system.derive_counts``) settles a command
as DRed does and as a derivation from scratch does: the same relations with the same
supports, and the same derived delta, after every command of generated sequences (facts
that arrive and leave, a group's count dropping to nothing) over example domains' and
generated readings' populations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

import arest
from arest.algebra import State
from arest.algebra.relations import ASSERTED, Fact, Relation
from arest.compiler.derivations import Rule
from arest.system.derive import (
    Changes,
    derive_all,
    is_derived,
    program_of,
    relation_of,
    rows,
)
from arest.system.derive_counts import count_step, shape_of
from arest.system.dred import derive
from arest.system.explain import explain
from arest.testing import bulk_load, populations
from arest.testing.forml2 import readings

TEAMS = """\
Team(.id) is an entity type.
Player(.id) is an entity type.
Game(.id) is an entity type.
Level is a value type.
Points is a value type.
Tally is a value type.
Player plays for Team.
Player is active.
Player scored in Game.
Player has Level.
Player has Points.
Team has active Tally.
Team has scoring Tally.
Team has senior Tally.
Team has Points.
Team has Tally in Game.
* Team has active Tally iff active Tally is the count of Player where Player plays for \
that Team and Player is active.
* Team has scoring Tally iff scoring Tally is the count of Game where some Player plays for \
that Team and that Player scored in Game.
* Team has senior Tally iff senior Tally is the count of Player where Player plays for \
that Team and Player has Level 'senior'.
* Team has Points iff Points is the sum of Points where some Player plays for that Team \
and that Player has Points.
* Team has Tally in Game iff Tally is the count of Player where Player plays for that Team \
and Player scored in that Game.
"""
EXAMPLES = Path(__file__).parents[2] / "readings"
DOMAINS: dict[str, State] = {}
FRESH = ("n1", "n2")


def domain(name: str) -> State:
    if name not in DOMAINS:
        DOMAINS[name] = (arest.compile(TEAMS) if name == "teams"
                         else arest.load(EXAMPLES / name))
    return DOMAINS[name]


def aggregations(D: State) -> list[Rule]:
    return [rule for rule in program_of(D).rules() if rule.is_aggregation]


def held(D: State, fact_type: str) -> dict[Fact, object]:
    cell = D.get(fact_type)
    return dict(cell.items()) if isinstance(cell, Relation) else {}


def derived(D: State) -> dict[str, dict[Fact, object]]:
    """Every derived fact with its support, per fact type a rule derives."""
    return {rule.fact_type: {f: p for f, p in held(D, rule.fact_type).items() if is_derived(p)}
            for rule in program_of(D).rules()}


def net(changes: Changes) -> tuple[dict[str, set[Fact]], dict[str, set[Fact]]]:
    return ({f: s for f, s in changes.added.items() if s},
            {f: s for f, s in changes.removed.items() if s})


@st.composite
def commands(draw: st.DrawFn, D: State) -> tuple[dict[str, set[Fact]], dict[str, set[Fact]]]:
    """(added, removed): asserted facts of the fact types the aggregations read. Each part
    of a command is one of: a whole row of an aggregation (its clauses' facts, of a group
    held or new, the other values held or fresh); a fact of a row that a group counts, to
    retract (the group's count drops, to nothing when it was its last); any fact of those
    fact types, built of the values their roles hold, the rules' literals and fresh values;
    or any asserted fact of theirs, to retract."""
    rules = aggregations(D)
    arity = {fact_type: len(terms) for rule in rules for fact_type, terms in rule.antecedents
             if isinstance(D.get(fact_type, Relation(len(terms))), Relation)}
    read = sorted(arity)
    literals = sorted({term[1:-1] for rule in rules for _, terms in rule.antecedents
                       for term in terms if term.startswith("'")})
    added: dict[str, set[Fact]] = {}
    removed: dict[str, set[Fact]] = {}

    def values(fact_type: str, role: int) -> list[str]:
        held = {f[role] for f in relation_of(D, fact_type, 0)}
        return sorted(held | set(FRESH) | set(literals))

    def asserted(fact_type: str, fact: Fact) -> bool:
        return relation_of(D, fact_type, arity[fact_type]).payload(fact) is ASSERTED

    for _ in range(draw(st.integers(0, 3)) if read else 0):
        rule = draw(st.sampled_from(rules))
        kind = draw(st.sampled_from(["row", "row", "unrow", "unrow", "unrow", "fact", "unfact"]))
        if kind == "row":
            named: dict[str, str] = {}
            for fact_type, terms in rule.antecedents:
                for role, term in enumerate(terms):
                    if not term.startswith("'") and term not in named:
                        named[term] = draw(st.sampled_from(values(fact_type, role)))
            for fact_type, terms in rule.antecedents:
                fact = tuple(t[1:-1] if t.startswith("'") else named[t] for t in terms)
                if fact_type in arity and fact not in relation_of(D, fact_type, len(fact)):
                    added.setdefault(fact_type, set()).add(fact)
        elif kind == "unrow":
            counts = sorted(held(D, rule.fact_type).items())
            counted = [p for _, p in counts if is_derived(p) and p[0] == rule.id]  # type: ignore[index]
            if not counted:
                continue
            key = draw(st.sampled_from(counted))[2]  # type: ignore[index]
            found = rows(rule.goal, (key,), D)
            if not found:
                continue
            named = dict(zip(rule.goal.variables, draw(st.sampled_from(found)), strict=False))
            clauses = [(f, tuple(t[1:-1] if t.startswith("'") else named[t] for t in terms))
                       for f, terms in rule.antecedents]
            fact_type, fact = draw(st.sampled_from(clauses))
            if fact_type in arity and asserted(fact_type, fact):
                removed.setdefault(fact_type, set()).add(fact)
        else:
            fact_type = draw(st.sampled_from(read))
            relation = relation_of(D, fact_type, arity[fact_type])
            if kind == "unfact":
                retractable = sorted(f for f, p in relation.items() if p is ASSERTED)
                if retractable:
                    removed.setdefault(fact_type, set()).add(draw(st.sampled_from(retractable)))
                continue
            fact = draw(st.tuples(*[st.sampled_from(values(fact_type, r))
                                    for r in range(relation.arity)]))
            if fact not in relation:
                added.setdefault(fact_type, set()).add(fact)
    for fact_type, facts in removed.items():
        facts -= added.get(fact_type, set())
    return added, removed


def command_on(D: State, added: dict[str, set[Fact]], removed: dict[str, set[Fact]]
               ) -> State:
    """D with the command's asserted facts in and out (before derivation)."""
    cells = {}
    for fact_type in added.keys() | removed.keys():
        facts = added.get(fact_type) or removed[fact_type]
        relation = relation_of(D, fact_type, len(next(iter(facts))))
        cells[fact_type] = relation.updated(
            ((f, ASSERTED) for f in added.get(fact_type, ())), removed.get(fact_type, ()))
    return D.update(cells)


def settles_alike(D: State, data: st.DataObject, steps: int) -> None:
    """Each of up to ``steps`` commands settles to DRed's state, supports and changes, and
    to a derivation from scratch's."""
    for _ in range(data.draw(st.integers(1, steps))):
        added, removed = data.draw(commands(D))
        state = command_on(D, added, removed)
        counted, changes = derive(D, state, added, removed)
        recounted, reference = derive(D, state, added, removed, counts=False)
        assert derived(counted) == derived(recounted)
        assert net(changes) == net(reference)
        scratch = derive_all(state)
        assert {f: set(facts) for f, facts in derived(counted).items()} == {
            f: set(facts) for f, facts in derived(scratch).items()}
        for rule in aggregations(D):
            assert derived(counted)[rule.fact_type] == derived(scratch)[rule.fact_type]
        D = counted


@settings(max_examples=100)
@given(st.sampled_from(["orders", "teams"]), st.data())
def test_counts_settle_as_dred_and_from_scratch(name: str, data: st.DataObject) -> None:
    D = derive_all(bulk_load(domain(name), data.draw(populations(domain(name))).facts))
    settles_alike(D, data, 6)


@settings(max_examples=5)
@given(readings(), st.data())
def test_generated_readings_counts_settle_as_dred_and_from_scratch(
        text: str, data: st.DataObject) -> None:
    D = arest.compile(text)
    assume(aggregations(D))
    D = derive_all(bulk_load(D, data.draw(populations(D)).facts))
    settles_alike(D, data, 4)


def ok(D: State, key: str, request: dict[str, Any]) -> State:
    out, D = arest.apply(D, key, request)
    assert not out.get("rejected") and "error" not in out, out
    return D


def shop() -> tuple[State, State]:
    """The shop with two Placed orders of one customer, and with a third order placed."""
    D = ok(domain("orders"), "create:Customer", {"id": "ann@x", "Name": "Ann"})
    for number in ("o1", "o2"):
        D = ok(D, "create:Order", {"id": number, "Customer": "ann@x"})
    return D, ok(D, "create:Order", {"id": "o3", "Customer": "ann@x"})


COUNT = "Customer_has_Unpaid_Order_Count"


def test_an_order_placed_moves_its_customer_s_count_by_the_step() -> None:
    _, placed = shop()
    rule = next(r for r in aggregations(placed) if r.fact_type == COUNT)
    added: dict[str, set[Fact]] = {"Order_was_placed_by_Customer": {("o4", "ann@x")},
             "Order_has_Status": {("o4", "Placed")}}
    state = command_on(placed, added, {})
    changes = Changes()
    cells = count_step(rule, placed, state, added, {}, changes)
    assert cells is not None
    assert sorted(cells[COUNT]) == [("ann@x", "4")]
    assert cells[COUNT].payload(("ann@x", "4")) == (rule.id, "group", ("ann@x",))
    assert net(changes) == ({COUNT: {("ann@x", "4")}}, {COUNT: {("ann@x", "3")}})


def test_a_count_explains_as_dred_s_and_goes_when_its_last_order_is_paid() -> None:
    D, placed = shop()
    assert sorted(held(placed, COUNT)) == [("ann@x", "3")]
    added: dict[str, set[Fact]] = {"Order_was_placed_by_Customer": {("o3", "ann@x")},
             "Order_has_Status": {("o3", "Placed")}}
    recounted, _ = derive(D, command_on(D, added, {}), added, {}, counts=False)
    why = {"fact_type": COUNT, "bindings": ["ann@x", "3"]}
    assert explain(placed, why) == explain(recounted, why)
    assert {a["reading"] for a in explain(placed, why)["antecedents"]} == {
        reading for number in ("o1", "o2", "o3")
        for reading in (f"Order '{number}' was placed by Customer 'ann@x'.",
                        f"Order '{number}' has Status 'Placed'.")}
    for number in ("o1", "o2", "o3"):
        placed = ok(placed, "transition:Order", {"id": number, "event": "pay"})
    assert held(placed, COUNT) == {}


def test_a_target_already_counted_is_recounted_by_dred() -> None:
    D = arest.compile(TEAMS)
    D = derive_all(bulk_load(D, [("Player_plays_for_Team", ("p1", "t")),
                                 ("Player_scored_in_Game", ("p1", "g"))]))
    rule = next(r for r in aggregations(D) if "scoring" in r.reading)
    added: dict[str, set[Fact]] = {"Player_plays_for_Team": {("p2", "t")},
                                   "Player_scored_in_Game": {("p2", "g")}}
    state = command_on(D, added, {})
    assert count_step(rule, D, state, added, {}, Changes()) is None
    assert held(derive(D, state, added, {})[0], rule.fact_type) == {
        ("t", "1"): (rule.id, "group", ("t",))}


def test_only_counts_of_a_joined_column_over_plain_chains_are_counted() -> None:
    shaped = {rule.reading.split(" iff ")[0]: shape_of(rule) is not None
              for rule in aggregations(arest.compile(TEAMS))}
    assert shaped == {"* Team has active Tally": True, "* Team has scoring Tally": True,
                      "* Team has senior Tally": True, "* Team has Points": False,
                      "* Team has Tally in Game": False}
