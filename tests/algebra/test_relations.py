"""Relations behave as sets of facts, their indexes agree with a scan, and they persist."""

from hypothesis import given
from hypothesis import strategies as st

from arest.algebra import EMPTY_STATE, apply, evaluate, store
from arest.algebra.relations import Relation

values = st.sampled_from(["a", "b", "c", "1", "2"])
facts = st.tuples(values, values)
commands = st.lists(st.tuples(st.booleans(), facts), max_size=30)


@given(commands)
def test_a_relation_is_a_set_with_indexes(steps: list[tuple[bool, tuple[str, str]]]) -> None:
    relation, model = Relation(2), set()
    history = []
    for adding, fact in steps:
        before = relation
        relation = relation.add(fact) if adding else relation.remove(fact)
        unchanged = (fact in model) == adding
        assert (relation is before) == unchanged
        model = model | {fact} if adding else model - {fact}
        history.append((before, set(before)))
        assert set(relation) == model and len(relation) == len(model)
        for role in (0, 1):
            for value in ["a", "b", "c", "1", "2"]:
                expected = {f for f in model if f[role] == value}
                assert set(relation.matching(role, value)) == expected
                assert relation.count(role, value) == len(expected)
            assert set(relation.values(role)) == {f[role] for f in model}
    for old, contents in history:
        assert set(old) == contents  # every earlier version is intact


def test_programs_see_a_relation_as_its_sorted_facts() -> None:
    state = store(EMPTY_STATE, "Order_was_placed_by_Customer",
                  Relation.of(2, [("ord-2", "acme"), ("ord-1", "zeta")]))
    expected = (("ord-1", "zeta"), ("ord-2", "acme"))
    assert apply("fetch", "Order_was_placed_by_Customer", state) == expected
    assert evaluate("fetch", "Order_was_placed_by_Customer", state) == expected
    # A population is not a function.
    assert apply("Order_was_placed_by_Customer", "x", state) == evaluate(
        "Order_was_placed_by_Customer", "x", state
    )
