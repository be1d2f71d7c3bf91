"""A derivation plan run as a recognised chain of row steps (``arest.system.row_chains``)
has the FFP evaluator's value and the reference reducer's: over generated chains, relations,
seeds and definitions, and over every plan of the example domains' rules on seeds from
generated populations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arest.algebra import apply, evaluate
from arest.algebra.forms import comp, cons, const
from arest.algebra.relations import Relation
from arest.system.derive import program_of
from arest.system.row_chains import CHAIN_ATOMS, chain_of, chain_rows
from arest.testing import bulk_load, populations
from tests.corpus import loaded

ATOMS = ("a", "b", "c", "1")
NAMES = ("R", "S")

atoms = st.sampled_from(ATOMS)
odd_terms = st.sampled_from(["_", ("~", "1"), ("=", "0"), ("=", "x"), ("'", ("a",)), "*"])


def usually(draw: st.DrawFn, value: Any, otherwise: st.SearchStrategy[Any]) -> Any:
    """value, or (one time in eight) a draw from otherwise."""
    return draw(otherwise) if draw(st.integers(0, 7)) == 0 else value


@st.composite
def chains(draw: st.DrawFn, arities: dict[str, int]) -> tuple[Any, int]:
    """bind, then zero to three joins of R and S, and now and then a count (or a sum) over
    them, mostly as the compiler builds them (specs of the relation's arity, columns the rows
    have), now and then not; and the arity of the bind's spec."""
    arity = draw(st.integers(1, 3))
    spec = tuple(usually(draw, draw(st.sampled_from(["+", "+", ("'", draw(atoms))])),
                         odd_terms) for _ in range(arity))
    width = sum(1 for t in spec if t == "+")
    steps = [comp("bind", cons(const(spec), "id"))]
    for _ in range(draw(st.integers(0, 3))):
        name = draw(st.sampled_from(NAMES))
        size = usually(draw, arities.get(name, 2), st.integers(1, 3))
        probe = draw(st.integers(0, size - 1))
        joined = []
        for role in range(size):
            if role == probe:
                column = str(draw(st.integers(1, max(width, 1))))
                joined.append(usually(draw, ("=", column), odd_terms))
            else:
                kinds = ["+", "_"] if role < probe else ["+", "+", "_", ("'", draw(atoms))]
                joined.append(usually(draw, draw(st.sampled_from(kinds)), odd_terms))
        width += sum(1 for t in joined if t == "+")
        steps.append(comp("join", cons(const(name), const(tuple(joined)), "id")))
    f = comp(*reversed(steps))
    if draw(st.booleans()):
        op = usually(draw, "count", st.sampled_from(["sum", "max", "x"]))
        column = st.integers(1, max(width, 1)).map(str)
        groups = tuple(draw(st.lists(column, max_size=2)))
        f = comp("aggregate", cons(const((op, groups, usually(draw, draw(column), odd_terms))),
                                   f))
    return f, arity


@st.composite
def states(draw: st.DrawFn) -> dict[str, Any]:
    """Relations R and S of one to three roles, each now and then absent or not a relation;
    now and then a definition of an atom a chain applies."""
    state: dict[str, Any] = {}
    for name in NAMES:
        kind = draw(st.sampled_from(["relation"] * 6 + ["absent", "other"]))
        if kind == "relation":
            arity = draw(st.integers(1, 3))
            state[name] = Relation.of(arity, draw(st.lists(st.tuples(*[atoms] * arity),
                                                             max_size=8)))
        elif kind == "other":
            state[name] = draw(st.sampled_from(["x", ("a", "b")]))
    if draw(st.integers(0, 7)) == 0:
        state[draw(st.sampled_from(sorted(CHAIN_ATOMS)))] = ("CONST", ())
    return state


@given(states(), st.data())
def test_a_chain_s_rows_are_the_evaluator_s_value(
        state: dict[str, Any], data: st.DataObject) -> None:
    arities = {name: cell.arity for name, cell in state.items() if isinstance(cell, Relation)}
    f, arity = data.draw(chains(arities))
    seed_arity = usually(data.draw, arity, st.integers(1, 3))
    seeds = tuple(data.draw(st.lists(st.tuples(*[atoms] * seed_arity), max_size=5)))
    found = chain_rows(f, seeds, state)
    if found is not None:
        assert found == evaluate(f, seeds, state)
        assert found == apply(f, seeds, state)


def test_a_plain_chain_is_run_and_a_d_defining_its_atoms_is_not() -> None:
    f = comp(comp("join", cons(const("R"), const((("=", "2"), "+")), "id")),
             comp("bind", cons(const(("+", "+")), "id")))
    state: dict[str, Any] = {"R": Relation.of(2, [("b", "c")])}
    assert chain_rows(f, (("a", "b"),), state) == (("a", "b", "c"),)
    for atom in CHAIN_ATOMS:
        assert chain_rows(f, (("a", "b"),), {**state, atom: ("CONST", ())}) is None, atom
    assert chain_rows(f, (("a", "b"),), {"R": Relation.of(3, [])}) is None
    assert chain_rows(f, (("a",),), state) is None


def test_only_chains_of_the_recognised_steps_are_chains() -> None:
    bind = comp("bind", cons(const(("+",)), "id"))
    assert chain_of(bind) is not None
    assert chain_of(comp("antijoin", cons(const("R"), const((("=", "1"),)), "id"))) is None
    assert chain_of(comp(comp("join", cons(const("R"), const((("=", "2"), "+")), "id")),
                         bind)) is None  # column 2 of rows of one
    assert chain_of(comp(comp("join", cons(const("R"), const((("'", "a"), ("=", "1"))),
                                           "id")), bind)) is None  # probed by the literal
    assert chain_of(comp("aggregate", cons(const(("sum", ("1",), "1")), bind))) is None
    assert chain_of("id") is None


EXAMPLES = Path(__file__).parents[2] / "readings"


@settings(max_examples=15)
@given(st.sampled_from(["orders", "tracker", "library"]), st.data())
def test_every_plan_of_a_generated_population_is_the_evaluator_s(
        name: str, data: st.DataObject) -> None:
    D = loaded(name)
    state = bulk_load(D, data.draw(populations(D)).facts)
    program = program_of(state)
    for rule in program.rules():
        plans = [*rule.seeds, *([rule.total] if rule.total is not None else [])]
        for plan in plans:
            seeds = tuple(sorted(state[plan.seed]))[:8] if plan.seed in state else ()
            if rule.total is plan:
                seeds = tuple(sorted({fact[:1] for fact in state.get(rule.fact_type, ())}))
            found = chain_rows(plan.steps, seeds, state)
            if found is not None:
                assert found == evaluate(plan.steps, seeds, state)


def test_the_orders_rule_s_plans_are_chains() -> None:
    program = program_of(loaded("orders"))
    rule = next(r for r in program.rules() if r.fact_type == "Customer_has_Unpaid_Order_Count")
    assert rule.total is not None
    assert all(chain_of(plan.steps) is not None for plan in (*rule.seeds, rule.total))
